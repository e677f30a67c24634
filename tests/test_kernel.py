"""The compiled game kernel (seers_env.engine.kernel) plays exactly as the Game engine."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env import Game, GameConfig
from seers_env.engine import core, kernel
from seers_env.engine.kernel import (
    DISCARDS, HIDDEN, KNOWN, PLAYED, S_CURRENT, S_GO_FIRST, S_LEAD_PASSES, S_OVER, S_PASSED, S_ROUND,
    S_START, S_SUITS, S_TOP_RANK, S_TOP_SEAT, S_TOP_SIZE, S_TOP_TYPE, TRICK, KernelGames,
)
from seers_env.engine.plays import PlayKind


def assert_same_state(g: Game, k: KernelGames, i: int) -> None:
    n = g.n_players
    sc = k.scal[i]
    assert bool(sc[S_OVER]) == g.game_over
    assert k.round_scores(i) == g.round_scores
    assert k.totals(i) == g.totals
    assert int(sc[S_ROUND]) == g.round
    if g.game_over:
        return
    for s in range(n):
        assert k.hand(i, s) == g.hands[s]
        assert k.plane(i, PLAYED + s) == sorted(g.played[s])
        assert k.plane(i, KNOWN + s) == sorted(g.known[s])
        assert bool(sc[S_PASSED + s]) == g.passed[s]
    assert k.plane(i, TRICK) == g.trick_cards()
    assert k.plane(i, DISCARDS) == sorted(g.discards)
    assert k.plane(i, HIDDEN) == g.hidden
    assert np.flatnonzero(sc[S_SUITS:S_SUITS + 5]).tolist() == g.suits
    top = None if sc[S_TOP_TYPE] == 0 else (int(sc[S_TOP_TYPE]), int(sc[S_TOP_SIZE]), int(sc[S_TOP_RANK]))
    assert top == (None if g.top is None else tuple(g.top))
    assert int(sc[S_TOP_SEAT]) == g.top_seat
    assert (int(sc[S_CURRENT]), int(sc[S_START]), int(sc[S_LEAD_PASSES])) == (g.current, g.start_seer,
                                                                               g.lead_passes)
    assert int(sc[S_GO_FIRST]) == g.go_first_holder


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_kernel_trajectories_equal_game(n_players):
    """Same legal plays (same order), hands, public cards, scores and totals over 10,000+ random plays."""
    config = GameConfig(n_players=n_players)
    rng = np.random.default_rng(100 + n_players)
    k = KernelGames(2, config)
    plays = rods = bonus_steps = biggest = games = 0
    while plays < 10_000:
        seed = int(rng.integers(2**31))
        g = Game(config, seed=seed)
        slot = games % 2
        k.new_game(slot, seed)
        assert_same_state(g, k, slot)
        while not g.game_over:
            legal = g.legal_plays()
            keys = k.legal_keys(slot)
            np.testing.assert_array_equal(keys, legal.keys)
            j = int(rng.integers(len(legal)))
            play = legal[j]
            rods += play.kind == PlayKind.ROD
            hand = g.hands[g.current]
            bonus_steps += len(hand) <= 5 and g.top is not None
            biggest = max(biggest, len(hand))
            result = g.apply(play)
            out = k.apply(slot, int(keys[j]))
            assert (out == kernel.OUT_ROUND) == (result.round_over and not result.game_over)
            assert (out == kernel.OUT_GAME_OVER) == result.game_over
            assert (out == kernel.OUT_TRICK) == (result.trick_winner >= 0)
            if result.trick_winner >= 0:
                assert int(k.scal[slot, kernel.S_TRICK_WINNER]) == result.trick_winner
            assert_same_state(g, k, slot)
            plays += 1
        games += 1
    assert rods > 0 and bonus_steps > 0 and biggest > 15  # Rod pick-ups and Bonus positions were played


@pytest.mark.parametrize("n_players", [2, 4])
def test_kernel_without_artifacts_and_one_round(n_players):
    config = GameConfig(n_players=n_players, n_rounds=1, artifact_deck=())
    rng = np.random.default_rng(5)
    k = KernelGames(1, config)
    for _ in range(20):
        seed = int(rng.integers(2**31))
        g = Game(config, seed=seed)
        k.new_game(0, seed)
        while not g.game_over:
            legal = g.legal_plays()
            np.testing.assert_array_equal(k.legal_keys(0), legal.keys)
            j = int(rng.integers(len(legal)))
            g.apply(legal[j])
            k.apply(0, int(legal.keys[j]))
            assert_same_state(g, k, 0)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_compiled_random_play_equals_game(n_players):
    """random_play_game (the compiled loop of `seers bench engine`) plays the Game's random game."""
    config = GameConfig(n_players=n_players)
    for seed in range(5):
        uniforms = np.random.default_rng(seed).random(5000)
        g = Game(config, seed=seed)
        plays = 0
        while not g.game_over:
            legal = g.legal_plays()
            g.apply(legal[int(uniforms[plays] * len(legal))])
            plays += 1
        k = KernelGames(1, config)
        used, most = kernel.random_play_game(config, seed, uniforms, k)
        assert used == plays and most >= 1
        assert k.round_scores(0) == g.round_scores and k.totals(0) == g.totals


def test_kernel_rejects_illegal_keys_and_keeps_state():
    k = KernelGames(1)
    k.new_game(0, 3)
    before = (k.cards.copy(), k.scal.copy())
    legal = k.legal_keys(0).tolist()
    bad = next(x for x in (core.PASS_KEY, core.ROD_KEY) if x not in legal)
    with pytest.raises(ValueError, match="not a legal play"):
        k.apply(0, bad)
    np.testing.assert_array_equal(k.cards, before[0])
    np.testing.assert_array_equal(k.scal, before[1])
    with pytest.raises(ValueError, match="num_games"):
        KernelGames(0)
