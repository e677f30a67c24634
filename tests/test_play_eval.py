"""The compiled play evaluation (seers_env.play_eval) equals the readable Python it replaced.

``tests/features_python.py`` keeps the Python ``encode_plays``, ``encode_state``, fewest melds search and
heuristic scores.
Over random states at each player count (games of random and heuristic players, plus hands grown to 30+
cards as after Rod pick-ups, and Bonus positions) the play rows must be the same bytes and the heuristic's
scores the same floats. ``SEERS_EQUALITY_STATES=5000`` checks that many states per player count and
``SEERS_EQUALITY_MAX_PLAYS=200000`` keeps grown hands with that many legal plays (the defaults keep CI to a
few seconds).
"""

from __future__ import annotations

import os

import features_python as reference
import numpy as np
import pytest

from agents import make_agent
from agents.heuristic import WEIGHTS, HeuristicAgent, hand_value
from seers_env import Game, GameConfig
from seers_env.artifacts import ROD
from seers_env.cards import FIRST_ARTIFACT, N_SUITED, WILD
from seers_env.features import encode_plays, encode_state, fewest_melds_mask, plays_needed, suited_mask
from seers_env.plays import PlayKind
from seers_env.view import SeatView

N_STATES = int(os.environ.get("SEERS_EQUALITY_STATES", "400"))
#: Grown hands with more legal plays than this are skipped (the Python reference takes seconds on 100k).
MAX_PLAYS = int(os.environ.get("SEERS_EQUALITY_MAX_PLAYS", "5000"))


def _grow_hand(game: Game, rng: np.random.Generator) -> None:
    """Move cards from the other hands into the hand of the seat to act (as after Rod pick-ups)."""
    seat = game.current
    for s in range(game.n_players):
        if s != seat and len(game.hands[s]) > 1:
            n = len(game.hands[s])
            k = int(rng.integers(n // 2, n)) if rng.random() < 0.7 else int(rng.integers(n))
            take = sorted(rng.choice(len(game.hands[s]), size=k, replace=False).tolist(), reverse=True)
            for i in take:
                game.hands[seat].append(game.hands[s].pop(i))
    game.hands[seat].sort()
    game._invalidate()


def _states(n_players: int, count: int, seed: int):
    """``count`` positions of games between random and heuristic players; about one in six has the
    hand to act grown by other seats' cards (often 30+ cards)."""
    rng = np.random.default_rng([seed, n_players])
    agents = [make_agent("random", seed=seed), make_agent("heuristic")]
    seen = 0
    while seen < count:
        game = Game(GameConfig(n_players=n_players), seed=int(rng.integers(2**31)))
        mix = [int(rng.integers(2)) for _ in range(n_players)]
        while not game.game_over and seen < count:
            if rng.random() < 0.15:
                probe = game.clone()
                _grow_hand(probe, rng)
                if len(probe.legal_plays()) <= MAX_PLAYS:
                    seen += 1
                    yield probe
            seen += 1
            yield game
            game.apply(agents[mix[game.current]].act(SeatView(game, game.current)))


def _assert_same(game: Game) -> tuple[int, int, bool]:
    seat = game.current
    view = SeatView(game, seat)
    legal = game.legal_plays()
    got = encode_plays(view, legal)
    want = reference.encode_plays(view, list(legal))
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (game.hands[seat], game.top)  # bit for bit
    assert np.array_equal(encode_plays(view), want)  # default plays
    assert np.array_equal(encode_plays(view, list(legal)), want)  # plain list of Play objects
    assert encode_state(view).tobytes() == reference.encode_state(view).tobytes()
    agent = HeuristicAgent()
    ref = reference.heuristic_scores(view, agent.weights)
    new = agent.scores(view)
    assert [v for v, _ in new] == [v for v, _ in ref]  # exact floats
    assert [p for _, p in new] == [p for _, p in ref]
    best = None
    for v, p in ref:
        if best is None or v > best[0]:
            best = (v, p)
    assert agent.act(view) == best[1]
    rod = any(p.kind == PlayKind.ROD for p in legal)
    return len(game.hands[seat]), len(legal), rod


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_play_rows_and_heuristic_scores_equal_the_python_reference(n_players):
    big = bonus = rods = 0
    for game in _states(n_players, N_STATES, seed=5):
        size, _, rod = _assert_same(game)
        big += size >= (30 if n_players > 2 else 18)  # 2 players: 12-card hands
        bonus += size <= 5
        rods += rod
    assert big >= N_STATES // 100 and bonus >= N_STATES // 30 and rods >= N_STATES // 100  # all were seen


def test_fewest_melds_equals_the_search_on_random_masks():
    rng = np.random.default_rng(17)
    for _ in range(3000):
        k = int(rng.integers(0, 36))
        cards = rng.choice(N_SUITED, size=k, replace=False).tolist()
        mask = suited_mask(cards)
        assert fewest_melds_mask(mask) == reference.fewest_melds_mask(mask), sorted(cards)
        hand = tuple(sorted(cards + [WILD] * int(rng.integers(3))
                            + [FIRST_ARTIFACT + int(a) for a in rng.integers(7, size=int(rng.integers(4)))]))
        assert plays_needed(hand) == reference.plays_needed(hand)
        assert hand_value(hand) == reference.hand_value(hand, WEIGHTS)


def test_fewest_melds_equals_the_search_on_every_hand_of_a_window():
    # every subset of 4 suits x 4 values (values 5..8): all Sets, Runs and their overlaps
    cells = [5 * v + s for v in range(3, 7) for s in range(4)]
    for bits in range(1 << len(cells)):
        mask = sum(1 << b for i, b in enumerate(cells) if bits >> i & 1)
        assert fewest_melds_mask(mask) == reference.fewest_melds_mask(mask), bin(mask)


def test_fewest_melds_mask_rejects_what_is_not_a_mask():
    with pytest.raises(ValueError, match="mask"):
        fewest_melds_mask(1 << 60)
    with pytest.raises(ValueError, match="mask"):
        fewest_melds_mask(-1)
    with pytest.raises(ValueError, match="mask"):
        fewest_melds_mask("3")
    assert fewest_melds_mask(np.int64(0b11)) == 1  # numpy ints: a Matching Set of two 2s


def test_other_weights_score_as_the_reference():
    weights = {"card": 0.7, "play": 2.0, "high": 0.1, "lead_rank": 0.45, "bonus": 0.3, "out": 1.25}
    agent = HeuristicAgent(weights=weights)
    for game in _states(4, 150, seed=9):
        view = SeatView(game, game.current)
        assert [v for v, _ in agent.scores(view)] == [v for v, _ in reference.heuristic_scores(view, agent.weights)]


def test_a_play_the_seat_cannot_make_is_a_clear_error():
    game = Game(GameConfig(n_players=4), seed=2)
    seat = game.current
    other = Game(GameConfig(n_players=4), seed=3)
    foreign = [p for p in other.legal_plays() if any(c not in game.hands[seat] for c in p.cards())]
    rod = [p for p in other.legal_plays() if p.artifact == ROD]
    view = SeatView(game, seat)
    with pytest.raises(ValueError, match="does not hold"):
        encode_plays(view, foreign[:1])
    if FIRST_ARTIFACT + ROD not in game.hands[seat] and rod:
        with pytest.raises(ValueError, match="does not hold"):
            encode_plays(view, rod)


def test_fewest_melds_mask_checks_do_not_depend_on_the_cache():
    assert fewest_melds_mask(np.int64(5)) == fewest_melds_mask(5)  # 5 (and np.int64(5)) now cached
    for bad in (5.0, True, np.bool_(True), [5], None, "5"):
        with pytest.raises(TypeError, match="not a value-major mask"):
            fewest_melds_mask(bad)
    with pytest.raises(ValueError, match=r"0\.\.2\*\*60-1"):
        fewest_melds_mask(np.uint64(1 << 60))


def test_heuristic_rejects_bad_weights_and_a_seat_not_to_act():
    with pytest.raises(ValueError, match=r"\['cardz'\]; allowed keys: \['card'"):
        HeuristicAgent(weights={"cardz": 1.0, "card": 2.0})
    for value in (float("nan"), float("inf"), "1", None):
        with pytest.raises(ValueError, match="'play'.*finite number"):
            HeuristicAgent(weights={"play": value})
    game = Game(GameConfig(n_players=4), seed=2)
    agent = HeuristicAgent(weights={"card": np.float64(0.7), "danger_cards": 2})
    other = (game.current + 1) % 4
    with pytest.raises(ValueError, match=f"seat {other} is not to act now \\(seat {game.current} is"):
        agent.act(SeatView(game, other))
    assert agent.act(SeatView(game, game.current)) in game.legal_plays()
    with pytest.raises(TypeError, match=r"plays\[1\] = None is not a Play"):
        encode_plays(SeatView(game, game.current), [game.legal_plays()[0], None])
