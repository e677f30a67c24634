"""seers_env.features: exact one-to-one play rows, layouts, and what the rows say about each play."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from seers_env import Game, GameConfig, PlayKind
from seers_env.cards import WILD
from seers_env.features import (FEATURE_VERSION, PLAY_DIM, PLAY_LAYOUT, STATE_DIM, STATE_LAYOUT, encode_plays,
                                encode_state, fewest_melds, plays_needed)
from seers_env.view import SeatView

P = {name: (off, length) for name, off, length in PLAY_LAYOUT}
S = {name: (off, length) for name, off, length in STATE_LAYOUT}


def _states(n_players: int, count: int, seed: int):
    """``count`` decision points (game, legal plays) from games of random and heuristic players."""
    rng = np.random.default_rng(seed)
    agents = [make_agent("random", seed=seed), make_agent("heuristic")]
    seen = 0
    while seen < count:
        game = Game(GameConfig(n_players=n_players), seed=int(rng.integers(2**31)))
        mix = [int(rng.integers(2)) for _ in range(n_players)]
        while not game.game_over and seen < count:
            legal = game.legal_plays()
            yield game, legal
            seen += 1
            game.apply(agents[mix[game.current]].act(SeatView(game, game.current)))


def _part(row, name):
    off, length = P[name]
    return row[off:off + length]


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_play_rows_map_one_to_one_onto_legal_plays(n_players):
    rng = np.random.default_rng(n_players)
    for game, legal in _states(n_players, 1000, seed=10 + n_players):
        view = SeatView(game, game.current)
        rows = encode_plays(view, legal)
        assert rows.shape == (len(legal), PLAY_DIM) and rows.dtype == np.float32
        assert len({r.tobytes() for r in rows}) == len(legal)  # distinct plays, distinct rows
        # the row chosen is applied as that play: its hand-left features match the real hand after it
        i = int(rng.integers(len(legal)))
        play, row = legal[i], rows[i]
        assert _part(row, "kind")[play.kind] == 1.0
        size_before = len(game.hands[game.current])
        after = game.clone()
        seat = after.current
        result = after.apply(play)
        if result.round_scores is None:
            hand = after.hands[seat]
            assert round(float(_part(row, "cards_left")[0]) * 15) == len(hand)
            assert _part(row, "wilds_left")[0] == hand.count(WILD)
            assert round(float(_part(row, "melds_left")[0]) * 8) == fewest_melds(hand)
            assert _part(row, "enters_bonus")[0] == float(size_before > 5 >= len(hand))
        else:
            assert _part(row, "ends_round")[0] == float(not game.hands[seat] or len(play.cards()) == size_before)
        spent = sorted(np.flatnonzero(_part(row, "spent_cards")).tolist())
        assert spent == sorted(play.suited)


def test_encoders_do_not_change_the_game_and_return_fresh_arrays():
    game = Game(GameConfig(n_players=4), seed=3)
    for _ in range(30):
        game.apply(game.legal_plays()[-1])
    before = game.to_dict()
    view = SeatView(game, game.current)
    a, b = encode_state(view), encode_state(view)
    assert a.shape == (STATE_DIM,) and a.dtype == np.float32
    a[:] = -1
    assert not np.array_equal(a, b)
    rows = encode_plays(view)
    rows[:] = 7
    assert not np.array_equal(rows, encode_plays(view))
    assert game.to_dict() == before


def test_state_history_and_unseen_cards():
    game = Game(GameConfig(n_players=4), seed=5)
    seat0 = game.current
    first = game.legal_plays()[0]
    game.apply(first)
    view = SeatView(game, game.current)
    vec = encode_state(view)
    off, _ = S["history"]
    assert vec[off] == 1.0  # one play so far, newest first
    assert vec[off + 1 + (seat0 - game.current) % 4] == 1.0  # by its relative seat
    uoff, ulen = S["unseen_suited"]
    unseen = set(np.flatnonzero(vec[uoff:uoff + ulen]).tolist())
    assert not unseen & set(game.hands[game.current])  # own cards are seen
    assert not unseen & set(first.suited)  # played cards are seen
    assert len(unseen) == 12 * 4 - len([c for c in game.hands[game.current] if c < WILD]) - len(first.suited)


def test_plays_needed_counts_artifacts_and_wilds():
    assert plays_needed(()) == (0, 0)
    assert plays_needed((WILD,)) == (0, 1)  # wilds alone form a meld
    assert fewest_melds([0, 1, 2]) == 1  # a Suited Run of three
    assert fewest_melds([0, 12, 24]) == 1  # a Matching Set of three
    assert fewest_melds([0, 13, 26]) == 3  # three values, three suits


def test_bad_play_is_a_clear_error():
    game = Game(GameConfig(n_players=4), seed=1)
    view = SeatView(game, game.current)
    other = (game.current + 1) % 4
    foreign = [p for p in Game(GameConfig(n_players=4), seed=2).legal_plays()
               if p.kind == PlayKind.MELD and not set(p.suited) <= set(game.hands[game.current])]
    assert foreign and other >= 0
    with pytest.raises(ValueError, match="does not hold"):
        encode_plays(view, foreign[:1])
    assert FEATURE_VERSION >= 1


@pytest.mark.parametrize("n_players", [2, 4, 5])
def test_unseen_wilds_count_the_wilds_the_seat_cannot_place(n_players):
    off, _ = S["unseen_wilds"]
    for game, legal in _states(n_players, 600, seed=40 + n_players):
        seat = game.current
        truth = sum(game.hands[s].count(WILD) - game.known[s].count(WILD) for s in range(n_players) if s != seat)
        assert round(float(encode_state(SeatView(game, seat))[off]) * 5) == truth


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_rows_with_prior_are_the_rows_and_the_heuristic_scores(n_players):
    from agents.heuristic import HeuristicAgent
    from seers_env.features import encode_plays_with_prior

    weights = {"danger_cards": 4.5, "wild": 0.25}  # the danger test and one weight changed
    default, changed = HeuristicAgent(), HeuristicAgent(weights=weights)
    for game, legal in _states(n_players, 400, seed=50 + n_players):
        view = SeatView(game, game.current)
        rows = encode_plays(view, legal)
        for agent, given in ((default, None), (changed, weights), (changed, changed.weights)):
            out = encode_plays_with_prior(view, given)
            assert out.shape == (len(legal), PLAY_DIM + 1) and out.dtype == np.float32
            assert np.array_equal(out[:, :-1], rows)
            assert np.array_equal(out[:, -1], agent.score_array(view).astype(np.float32))


def test_rows_with_prior_reject_bad_weights_and_a_seat_not_to_act():
    from seers_env.features import encode_plays_with_prior
    from seers_env.play_eval import HEURISTIC_DEFAULTS

    game = Game(GameConfig(n_players=3), seed=0)
    view = SeatView(game, game.current)
    with pytest.raises(KeyError, match="extra"):
        encode_plays_with_prior(view, {"extra": 1.0})
    with pytest.raises(TypeError, match="mapping"):
        encode_plays_with_prior(view, 5)
    with pytest.raises(ValueError, match="finite"):
        encode_plays_with_prior(view, {"danger_cards": float("nan")})
    full = encode_plays_with_prior(view, dict(HEURISTIC_DEFAULTS))  # a full dict and no overrides agree
    assert np.array_equal(full, encode_plays_with_prior(view, {})) and np.array_equal(full, encode_plays_with_prior(view))
    idle = SeatView(game, (game.current + 1) % 3)
    assert encode_plays_with_prior(idle).shape == (0, PLAY_DIM + 1)


def test_sparse_affine_relu_equals_the_dense_layer():
    from seers_env.sparse_rows import affine_relu

    rng = np.random.default_rng(0)
    for n_rows, n_cols, width in ((1, 1302, 256), (7, 110, 256), (300, 110, 33), (0, 5, 4)):
        rows = (rng.random((n_rows, n_cols + 1)) < 0.15) * rng.normal(size=(n_rows, n_cols + 1))
        rows = rows.astype(np.float32)
        weights = rng.normal(size=(n_cols, width)).astype(np.float32)
        shift = rng.normal(size=width).astype(np.float32)
        dense = np.maximum(rows[:, :n_cols].astype(np.float64) @ weights + shift, 0)
        for given in (rows, rows[::-1], np.asfortranarray(rows)):  # any strides
            out = affine_relu(given, weights, shift)
            assert out.shape == (n_rows, width) and out.dtype == np.float32
            expect = dense[::-1] if given.base is rows else dense
            np.testing.assert_allclose(out, expect, rtol=1e-5, atol=1e-4)
    with pytest.raises(TypeError, match="dtype float64"):
        affine_relu(np.zeros((2, 3)), np.zeros((3, 4), np.float32), np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="float32"):
        affine_relu(np.zeros((2, 3), np.float32), np.zeros((3, 4), np.float32), np.float32(0))
    with pytest.raises(ValueError, match="C-contiguous"):
        affine_relu(np.zeros((2, 3), np.float32), np.asfortranarray(np.zeros((3, 4), np.float32)),
                    np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=r"expected \(R, >= 3\)"):
        affine_relu(np.zeros((2, 2), np.float32), np.zeros((3, 4), np.float32), np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=r"expected \(4,\)"):
        affine_relu(np.zeros((2, 3), np.float32), np.zeros((3, 4), np.float32), np.zeros(5, np.float32))


def test_sparse_affine_relu_keeps_nan_and_checks_shapes_before_writing():
    from seers_env.sparse_rows import affine_relu, sparse_affine_relu

    ones = np.ones((1, 2), np.float32)
    out = affine_relu(np.array([[np.nan, 1.0]], np.float32), np.ones((2, 3), np.float32), np.zeros(3, np.float32))
    assert np.isnan(out).all()  # as torch.relu and np.maximum: a diverged network is not hidden
    assert np.isnan(affine_relu(ones, np.ones((2, 2), np.float32), np.array([np.nan, -5], np.float32))[0, 0])
    small = np.full((1, 4), 7.0, np.float32)
    for n_cols, out in ((3, small), (2, np.empty((64, 4), np.float32)), (5, np.empty((1, 4), np.float32))):
        before = out.copy()
        with pytest.raises(ValueError, match="shapes do not fit"):
            sparse_affine_relu(np.ones((1, 2), np.float32), n_cols, np.ones((2, 4), np.float32),
                               np.zeros(4, np.float32), out)
        assert np.array_equal(out, before, equal_nan=True)
