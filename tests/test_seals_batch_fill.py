"""The batch API's fast paths (``seers_env.seals.vector``) against the per-game functions they replace:
``observation.observe_into`` equals ``observe`` row for row, ``SealsGame.legal_actions`` equals the ids of
``legal_plays()``, ``apply_legal`` equals ``apply``, ``moves.has_set`` equals its definition, and the
benchmarks' ``random_legal_rows`` draws what the 2-D ``np.nonzero`` version drew. The states come from random
play at 2 to 4 players with short configs: take and declaration stages, tie-break rounds (some seats sitting
out), truncated rounds and ended games."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env.python_vector import random_legal_rows
from seers_env.seals import SealsConfig, SealsGame, SealsSeatView
from seers_env.seals.cards import N_CARDS, symbol_counts
from seers_env.seals.moves import available_kinds, has_set
from seers_env.seals.observation import OBS_DIM, observe, observe_into

CONFIGS = [SealsConfig(n_players=2), SealsConfig(n_players=3, n_rounds=1), SealsConfig(n_players=4, n_rounds=2),
           SealsConfig(n_players=3, n_rounds=1, max_tie_break_rounds=0),
           SealsConfig(n_players=4, n_rounds=1, max_tie_break_rounds=3, max_turns_per_round=6),
           SealsConfig(n_players=2, n_rounds=3, max_turns_per_round=4)]


def _random_states(n_games: int = 36, seed: int = 0) -> list[SealsGame]:
    """Copies of games along random play (every few plays, and each game's end)."""
    rng = np.random.default_rng(seed)
    states = []
    for k in range(n_games):
        game = SealsGame(CONFIGS[k % len(CONFIGS)], seed=int(rng.integers(2**31)))
        while not game.game_over:
            plays = game.legal_plays()
            game.apply(plays[int(rng.integers(len(plays)))])
            if rng.random() < 0.15 or game.phase == "declare":
                states.append(game.clone())
        states.append(game.clone())
    return states


@pytest.fixture(scope="module")
def states():
    return _random_states()


def test_the_random_states_cover_every_stage_and_end(states):
    assert any(g.phase == "declare" for g in states) and any(g.game_over for g in states)
    assert any(g.tie_breaks > 0 and not all(g.playing) for g in states)
    assert any(g.truncated for g in states) and any(g.round_scores and max(g.totals) > 0 for g in states)
    assert {g.n_players for g in states} == {2, 3, 4}


def test_observe_into_equals_observe_bit_for_bit(states):
    out = np.full((len(states), OBS_DIM), 9.0, np.float32)  # every old value is overwritten
    assert observe_into(out, states) is out
    for i, g in enumerate(states):
        assert out[i].tobytes() == observe(SealsSeatView(g, g.current)).tobytes(), i
    rng = np.random.default_rng(1)
    seats = [int(rng.integers(g.n_players)) for g in states]  # any observer, not only the seat to act
    observe_into(out, states, seats)
    for i, (g, seat) in enumerate(zip(states, seats)):
        assert out[i].tobytes() == observe(SealsSeatView(g, seat)).tobytes(), i
    uniform = [g for g in states if g.n_players == 3]  # one player count in the batch (the batch API's case)
    part = observe_into(np.empty((len(uniform), OBS_DIM), np.float32), uniform)
    assert np.array_equal(part, np.stack([observe(SealsSeatView(g, g.current)) for g in uniform]))


def test_observe_into_hand_made_positions_and_errors():
    games = [SealsGame.from_position(row=[5, 6, 7, 8], hands=[[0, 11, 22, 33], [1, 2], []], current=1),
             SealsGame.from_position(row=[44], hands=[[0, 11, 22, 33, 3], [], [4]], phase="declare", turns=2),
             SealsGame.from_position(SealsConfig(n_players=4), row=[8, 9, 10, 12], hands=[[], [], [], []],
                                     round_scores=[[0, 0, 0, 0]], current=3)]
    out = observe_into(np.zeros((3, OBS_DIM), np.float32), games)
    for i, g in enumerate(games):
        assert out[i].tobytes() == observe(SealsSeatView(g, g.current)).tobytes(), i
    assert observe_into(np.zeros((0, OBS_DIM), np.float32), []).shape == (0, OBS_DIM)
    with pytest.raises(ValueError, match="float32 array of shape"):
        observe_into(np.zeros((3, OBS_DIM), np.float64), games)
    with pytest.raises(ValueError, match="float32 array of shape"):
        observe_into(np.zeros((2, OBS_DIM), np.float32), games)
    with pytest.raises(ValueError, match="seats has 2 entries"):
        observe_into(np.zeros((3, OBS_DIM), np.float32), games, [0, 1])
    with pytest.raises(ValueError, match="seat 3 is not one of 0..2"):
        observe_into(np.zeros((3, OBS_DIM), np.float32), games, [0, 3, 0])
    with pytest.raises(TypeError, match="takes SealsGame objects"):
        observe_into(np.zeros((1, OBS_DIM), np.float32), [SealsSeatView(games[0], 0)])


def test_legal_actions_and_apply_legal_equal_the_checked_path(states):
    for g in states:
        ids = [p.action for p in g.legal_plays()]
        assert g.legal_actions() == ids and np.flatnonzero(g.legal_mask()).tolist() == ids
        fresh = SealsGame.from_dict(g.to_dict())  # no cached legal plays: the take ids come from the row
        assert fresh.legal_actions() == ids
        if g.game_over:
            continue
        for play in g.legal_plays():
            checked, fast = g.clone(), g.clone()
            assert checked.apply(play) == fast.apply_legal(play)
            assert checked.to_dict() == fast.to_dict()
            assert checked.legal_actions() == fast.legal_actions()


def test_has_set_is_a_set_kind_of_the_hand():
    rng = np.random.default_rng(2)
    for _ in range(3000):
        hand = sorted(rng.choice(N_CARDS, size=int(rng.integers(0, 25)), replace=False).tolist())
        assert has_set(hand) == bool(available_kinds(symbol_counts(hand))), hand


def test_random_legal_rows_draws_as_the_two_dimensional_scan():
    rng = np.random.default_rng(3)
    masks = (rng.random((64, 12304)) < 0.001).astype(np.int8)
    masks[np.arange(64), rng.integers(0, 12304, 64)] = 1  # every row allows something
    rows, cols = np.nonzero(masks)
    counts = np.bincount(rows, minlength=64)
    u = np.random.default_rng(4).random(64)
    expected = cols[np.cumsum(counts) - counts + (u * counts).astype(np.int64)]
    drawn = random_legal_rows(masks, np.random.default_rng(4))
    assert drawn.dtype == np.int64 and np.array_equal(drawn, expected)
    assert masks[np.arange(64), drawn].all()


@pytest.mark.parametrize("seat", [1.9, np.float64(2.0), True, np.True_, np.timedelta64(1), "1"])
def test_observe_into_refuses_seats_that_are_not_integers(seat):
    """As ``observe(SealsSeatView(game, seat))`` refuses them: no float truncated to a seat, no bool, timedelta
    or string read as one; the array is left as it was."""
    game = SealsGame(SealsConfig(n_players=3), seed=1)
    with pytest.raises(TypeError, match="seat must be an integer"):
        SealsSeatView(game, seat)
    out = np.full((1, OBS_DIM), 9.0, np.float32)
    with pytest.raises(TypeError, match="seat must be an integer 0..2"):
        observe_into(out, [game], [seat])
    assert (out == 9.0).all()


def test_observe_into_takes_numpy_and_enum_seats():
    import enum

    class Seat(enum.IntEnum):
        SECOND = 1

    game = SealsGame(SealsConfig(n_players=3), seed=1)
    for seat in (np.int8(1), np.uint64(1), Seat.SECOND, np.array([1])[0]):
        out = observe_into(np.zeros((1, OBS_DIM), np.float32), [game], [seat])
        assert out[0].tobytes() == observe(SealsSeatView(game, 1)).tobytes()
    out = observe_into(np.zeros((2, OBS_DIM), np.float32), [game, game], np.array([2, 0]))
    assert out[1].tobytes() == observe(SealsSeatView(game, 0)).tobytes()
