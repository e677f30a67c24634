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


def _draw_deal_reference(rng, config):
    """The readable deal of rules section 2 (the draws of ``draw_deal`` before it used cached decks)."""
    from seers_env.engine import rulings
    from seers_env.engine.artifacts import GO_FIRST, kind_index
    from seers_env.engine.cards import (
        ARTIFACTS_PER_PLAYER, SETUP_BY_PLAYERS, SUITED_PER_PLAYER, WILD, WILDS_PER_PLAYER, artifact_card, suited_deck,
    )

    n = config.n_players
    n_suits, max_value, removed = SETUP_BY_PLAYERS[n]
    if rulings.RANDOM_SUITS_EACH_ROUND:
        suits = sorted(int(s) for s in rng.choice(5, size=n_suits, replace=False))
    else:
        suits = list(range(n_suits))
    deck = suited_deck(suits, max_value)
    deck = [deck[i] for i in rng.permutation(len(deck)).tolist()]
    hidden = sorted(deck[:removed])
    deck = deck[removed:]
    hands = [sorted(deck[i * SUITED_PER_PLAYER:(i + 1) * SUITED_PER_PLAYER]) + [WILD] * WILDS_PER_PLAYER
             for i in range(n)]
    go_first_holder, dealt_artifacts = -1, []
    art_deck = [kind_index(k) for k in config.artifact_deck]
    if art_deck:
        mandatory = [GO_FIRST] if GO_FIRST in art_deck else []
        rest = [k for k in art_deck]
        for k in mandatory:
            rest.remove(k)
        picks = rng.choice(len(rest), size=ARTIFACTS_PER_PLAYER * n - len(mandatory), replace=False).tolist()
        dealt = mandatory + [rest[i] for i in picks]
        dealt = [dealt[i] for i in rng.permutation(len(dealt)).tolist()]
        dealt_artifacts = sorted(dealt)
        for seat in range(n):
            for k in dealt[seat * ARTIFACTS_PER_PLAYER:(seat + 1) * ARTIFACTS_PER_PLAYER]:
                hands[seat].append(artifact_card(k))
                if k == GO_FIRST:
                    go_first_holder = seat
    for h in hands:
        h.sort()
    start_seer = go_first_holder if go_first_holder >= 0 else int(rng.integers(n))
    return (suits, hidden, hands, dealt_artifacts, go_first_holder, start_seer)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_draw_deal_equals_the_readable_reference(n_players):
    from seers_env.engine.game import draw_deal

    default = GameConfig().artifact_deck
    for deck in ((), default, default[::-1], default[1:]):  # reordered, and without Go First
        config = GameConfig(n_players=n_players, artifact_deck=deck)
        for seed in range(60):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            for _ in range(3):  # successive rounds from one generator
                got = draw_deal(a, config)
                assert tuple(got) == _draw_deal_reference(b, config)
                assert all(type(c) is int for h in got.hands for c in h)
            assert a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("bad", [1.0, np.nan, -0.5, 7.0, np.inf])
def test_random_play_game_rejects_uniforms_outside_unit_interval(bad):
    cfg = GameConfig(n_players=3, n_rounds=1)
    u = np.full(2000, 0.5)
    u[3] = bad
    with pytest.raises(ValueError, match=r"uniforms\[3\]"):
        kernel.random_play_game(cfg, 1, u)
    with pytest.raises(ValueError, match="1-D"):
        kernel.random_play_game(cfg, 1, np.full((20, 20), 0.5))


@pytest.mark.parametrize("bad", [1.0, np.nan, -0.5])
def test_compiled_random_play_stops_at_a_bad_uniform_without_playing_it(bad):
    g = kernel.KernelGames(1, GameConfig(n_players=3, n_rounds=1))
    g.new_game(0, 4)
    u = np.array([0.25, 0.5, bad, 0.5])
    plays, most = kernel.random_play(g.cards, g.scal, g.scores, 0, u, 100)
    assert (plays, most) == (2, -1)
    want = kernel.KernelGames(1, GameConfig(n_players=3, n_rounds=1))
    want.new_game(0, 4)
    kernel.random_play(want.cards, want.scal, want.scores, 0, u[:2], 100)
    np.testing.assert_array_equal(g.cards, want.cards)
    np.testing.assert_array_equal(g.scal, want.scal)


def test_kernel_games_check_slot_and_seat_indices():
    g = kernel.KernelGames(2, GameConfig(n_players=3, n_rounds=1))
    g.new_game(0, 1)
    cards, scal = g.cards.copy(), g.scal.copy()
    for call in (lambda: g.legal_keys(2), lambda: g.legal_keys(-1), lambda: g.new_game(5, 1),
                 lambda: g.apply(7, 0), lambda: g.totals(-2), lambda: g.refill(2)):
        with pytest.raises(IndexError, match=r"slot index -?\d+ is out of range; allowed: 0 \.\. 1"):
            call()
    with pytest.raises(IndexError, match=r"seat index 3 is out of range; allowed: 0 \.\. 2"):
        g.hand(0, 3)
    with pytest.raises(IndexError, match="seat index -1"):
        g.hand(0, -1)
    with pytest.raises(TypeError, match="slot index True"):
        g.legal_keys(True)
    with pytest.raises(TypeError, match="seat index 1.0"):
        g.hand(0, 1.0)
    np.testing.assert_array_equal(g.cards, cards)
    np.testing.assert_array_equal(g.scal, scal)
    assert g.hand(np.int64(0), np.int32(2)) == g.hand(0, 2)
