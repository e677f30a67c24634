"""The compiled legal-play generator equals the readable pure-Python one (tests/moves_python.py).

Same plays, every field, in the same order, over random states at each player count: random hands (1 to
40 cards, up to 5 wilds and 4 artifacts, so hands of 30+ cards as after Rod pick-ups), tops taken from
another hand's melds, and states reached by random play. ``SEERS_EQUALITY_STATES=10000`` runs that many
random states per player count (the default keeps CI to a few seconds).
"""

from __future__ import annotations

import os

import moves_python as reference
import numpy as np
import pytest

from seers_env import Game, GameConfig
from seers_env.actions import main_code, main_codes_of_keys
from seers_env.engine import core, moves
from seers_env.engine.artifacts import ARTIFACT_KINDS
from seers_env.engine.cards import SETUP_BY_PLAYERS, WILD, artifact_card, suited_deck
from seers_env.engine.plays import Play

N_STATES = int(os.environ.get("SEERS_EQUALITY_STATES", "300"))


def random_state(rng: np.random.Generator, n_players: int):
    """A random ``(hand, top, seat, in_bonus)`` of ``n_players`` with a hand of 1..40 cards."""
    n_suits, max_value, _ = SETUP_BY_PLAYERS[n_players]
    suits = sorted(rng.choice(5, size=n_suits, replace=False).tolist())
    deck = suited_deck(suits, max_value)
    perm = rng.permutation(len(deck)).tolist()
    big = rng.random() < 0.25  # after Rod pick-ups
    hi = min(32, len(deck) - 4)
    n_suited = int(rng.integers(min(24, hi), hi + 1)) if big else int(rng.integers(0, 13))
    hand = [deck[i] for i in perm[:n_suited]]
    hand += [WILD] * int(rng.choice(6, p=[0.3, 0.35, 0.2, 0.08, 0.05, 0.02] if not big else
                                    [0.2, 0.3, 0.3, 0.15, 0.05, 0.0]))
    hand += [artifact_card(int(k)) for k in rng.integers(len(ARTIFACT_KINDS), size=int(rng.integers(5)))]
    if not hand:
        hand = [WILD]
    hand.sort()
    top = None
    if rng.random() < 0.65:
        other = [deck[i] for i in perm[n_suited:n_suited + 10]] + [WILD] * int(rng.integers(3))
        other.append(artifact_card(int(rng.integers(len(ARTIFACT_KINDS)))))
        melds = reference.legal_melds(sorted(other), None)
        if melds:
            m = melds[int(rng.integers(len(melds)))]
            top = (int(m.meld_type), int(m.size), int(m.rank))
    seat = int(rng.integers(n_players))
    return hand, top, seat, len(hand) <= 5


def assert_same(hand, top, seat, n_players, in_bonus) -> None:
    got = moves.legal_plays(hand, top, seat=seat, n_players=n_players, in_bonus=in_bonus)
    want = reference.legal_plays(hand, top, seat=seat, n_players=n_players, in_bonus=in_bonus)
    assert len(got) == len(want), (hand, top, seat, n_players, in_bonus, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        assert isinstance(g, Play) and tuple(g) == tuple(w), (hand, top, i, g, w)
    assert list(moves.legal_melds(hand, top)) == reference.legal_melds(hand, top)
    assert main_codes_of_keys(got.keys).tolist() == [main_code(p) for p in want]  # catalogue codes


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_compiled_equals_reference_on_random_states(n_players):
    rng = np.random.default_rng([11, n_players])
    big = 0
    for _ in range(N_STATES):
        hand, top, seat, in_bonus = random_state(rng, n_players)
        big += len(hand) >= (30 if n_players > 2 else 26)  # 2 players: 24 suited cards in play
        assert_same(hand, top, seat, n_players, in_bonus)
    assert big >= N_STATES // 20  # big hands, as after Rod pick-ups, were checked


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_compiled_equals_reference_in_random_games(n_players):
    rng = np.random.default_rng(n_players)
    checked = 0
    for seed in range(max(2, N_STATES // 200)):
        game = Game(GameConfig(n_players=n_players), seed=seed)
        while not game.game_over:
            seat = game.current
            assert_same(game.hands[seat], game.top, seat, n_players, game.in_bonus(seat))
            checked += 1
            legal = game.legal_plays()
            game.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 50


@pytest.mark.parametrize("key", [core.PASS_KEY, core.ROD_KEY, core.HIGHEST_KEY, core.gift_key(3)])
def test_special_keys_unpack_to_their_plays(key):
    assert Play(*core.unpack(key)) == moves.plays_of_keys(np.array([key], np.int64))[0]


def test_bad_card_id_is_a_clear_error():
    with pytest.raises(ValueError, match="card id"):
        moves.legal_plays([3, 99], None, seat=0, n_players=4, in_bonus=True)
    with pytest.raises(ValueError, match="card id"):
        moves.legal_melds(["x"], None)


def test_lazy_play_list_behaves_as_a_list():
    import copy
    import json
    import pickle

    from seers_env.plays import PASS

    def fresh():
        return Game(seed=3).legal_plays()

    full = list(fresh())
    assert isinstance(fresh(), list) and fresh() == full and full == fresh() and not fresh() != full
    assert fresh() == fresh()  # both lazy
    lazy = fresh()
    p = lazy[5]
    assert lazy.index(p) == 5 and lazy[5] is p and lazy == full and lazy[5] is p and lazy.index(p) == 5
    assert fresh() + [PASS] == full + [PASS] and [PASS] + fresh() == [PASS] + full
    assert fresh()[-1] == full[-1] and fresh()[1:4] == full[1:4] and len(fresh()) == len(full)
    assert pickle.loads(pickle.dumps(fresh())) == full and copy.deepcopy(fresh()) == full
    assert copy.copy(fresh()) == full and json.dumps(fresh()) == json.dumps(full)
    assert full[3] in fresh() and sorted(fresh()) == sorted(full) and repr(fresh()) == repr(full)
    assert list(reversed(fresh())) == full[::-1] and tuple(fresh()) == tuple(full)
    with pytest.raises(IndexError):
        fresh()[len(full)]
