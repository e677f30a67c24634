"""Action catalogue: completeness and exactness of the masks against the engine's legal plays
(seers_env.actions; rules section 3 [ruling] on play identity)."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env import Game, GameConfig
from seers_env.actions import (
    N_ACTIONS, STAGE_RANGES, Decision, decode, describe_action, group_code, main_code, play_codes,
)
from seers_env.cards import suited_card
from seers_env.plays import MeldType, Play, PlayKind


def _states(n_players: int, games: int, seed: int):
    """Yield (game, legal plays) along random games."""
    rng = np.random.default_rng(seed)
    for g_seed in range(games):
        game = Game(GameConfig(n_players=n_players, n_rounds=1), seed=seed * 1000 + g_seed)
        while not game.game_over:
            legal = game.legal_plays()
            yield game, legal
            game.apply(legal[int(rng.integers(len(legal)))])


def test_catalogue_size_fits():
    assert N_ACTIONS <= 16384
    assert STAGE_RANGES[-1][1] == N_ACTIONS


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_completeness_and_exactness(n_players):
    rng = np.random.default_rng(n_players)
    checked = 0
    games = {2: 42, 3: 22, 4: 15, 5: 11}[n_players]  # about a thousand states each
    for game, legal in _states(n_players, games=games, seed=n_players):
        seat = game.current
        d = Decision(legal, seat, n_players)
        # distinct identities -> distinct code tuples and distinct action paths
        codes = [play_codes(p, seat, n_players) for p in legal]
        assert len(set(codes)) == len(legal)
        assert all(main_code(p) == c[0] for p, c in zip(legal, codes))
        paths = [tuple(d.actions_for(p)) for p in legal]
        assert len(set(paths)) == len(legal)
        # every path is allowed by the masks, stage by stage, and ends in exactly that play
        for p, path in zip(legal, paths):
            walk = Decision(legal, seat, n_players)
            for k, a in enumerate(path):
                assert walk.mask()[a] == 1
                out = walk.choose(a)
                assert (out is None) == (k < len(path) - 1)
            assert out[:8] == p[:8]
        # exactness: the mask is exactly the set of first actions of the paths
        mask = d.mask()
        assert set(np.flatnonzero(mask).tolist()) == {path[0] for path in paths}
        # a random walk of masks always ends in one legal play
        walk = Decision(legal, seat, n_players)
        while True:
            allowed = np.flatnonzero(walk.mask())
            lo, hi = STAGE_RANGES[walk.stage]
            assert ((allowed >= lo) & (allowed < hi)).all()
            out = walk.choose(int(rng.choice(allowed)))
            if out is not None:
                break
        assert out in legal
        checked += 1
    assert checked >= 1000


def test_matches_brute_force_reference_on_a_sample():
    reference = pytest.importorskip("reference", reason="tests/reference.py is written by the engine helper")
    n = 0
    for n_players in (2, 4):
        for game, legal in _states(n_players, games=2, seed=40 + n_players):
            hand = game.hands[game.current]
            if len(hand) > 10:
                continue
            seat = game.current
            ref = reference.reference_legal(hand, game.top, seat, n_players, game.in_bonus(seat))
            d = Decision(legal, seat, n_players)
            reached = set()
            for p in legal:
                walk = Decision(legal, seat, n_players)
                for a in d.actions_for(p):
                    out = walk.choose(a)
                reached.add(tuple(out[:8]))
            assert reached == {tuple(x) for x in ref}
            n += 1
    assert n > 10


def test_illegal_choice_raises_and_changes_nothing():
    game = Game(GameConfig(n_players=4), seed=3)
    d = Decision(game.legal_plays(), game.current, 4)
    before = d.mask()
    bad = int(np.flatnonzero(before == 0)[0])
    with pytest.raises(ValueError, match="not allowed"):
        d.choose(bad)
    assert d.stage == 0 and d.chosen == [] and (d.mask() == before).all()


def test_decode_rejects_bad_actions():
    with pytest.raises(ValueError, match="outside"):
        decode(N_ACTIONS)
    with pytest.raises(TypeError):
        decode(1.5)


def test_describe_action_group_text():
    # rules section 3: a Matching Set of three 7s made of Plum 7, Teal 7 and a wild
    code = group_code(7, (1 << 1) | (1 << 3), 1)
    assert describe_action(code) == "Matching Set of three 7s: Plum 7, Teal 7, wild as 7"
    play = Play(PlayKind.MELD, MeldType.SET, 3, 14, (suited_card(1, 7), suited_card(3, 7)), 1,
                wild_values=(7,))
    assert main_code(play) == code
    d = Decision([play], 0, 4)
    assert describe_action(code, d) == play.describe()
