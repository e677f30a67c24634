"""SeatView and its determinization (Determinizer) for search agents."""

from collections import Counter

import numpy as np
import pytest
from hidden_info import swap_unseen_cards

from seers_env.cards import WILD
from seers_env.game import Game, GameConfig
from seers_env.view import SeatView


def _advance(game, rng, plays):
    for _ in range(plays):
        if game.game_over:
            break
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])


def _round_cards(game):
    cards = Counter(c for h in game.hands for c in h)
    cards.update(game.hidden)
    cards.update(game.discards)
    cards.update(game.trick_cards())
    return cards


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_determinization_is_consistent_with_public_information(n_players):
    rng = np.random.default_rng(n_players)
    game = Game(GameConfig(n_players=n_players, n_rounds=2), seed=11)
    checked = 0
    while not game.game_over and checked < 60:
        for seat in range(n_players):
            det = SeatView(game, seat).determinize(rng)
            assert det.hands[seat] == game.hands[seat]  # own hand unchanged
            assert det.hand_sizes() == game.hand_sizes()
            assert det.trick == game.trick and det.discards == game.discards
            for other in range(n_players):
                assert Counter(det.known[other]) <= Counter(det.hands[other])  # Rod pick-ups stay put
                # each seat keeps its number of wilds and artifacts (dealt counts minus plays)
                assert det.hands[other].count(WILD) == game.hands[other].count(WILD)
                assert sum(c > WILD for c in det.hands[other]) == sum(c > WILD for c in game.hands[other])
            real, sampled = _round_cards(game), _round_cards(det)
            assert {c: k for c, k in sampled.items() if c <= WILD} == {c: k for c, k in real.items() if c <= WILD}
            assert len(det.hidden) == len(game.hidden)
            assert all(c < WILD for c in det.hidden)
        _advance(game, rng, 3)
        checked += 1
    assert checked > 10


def test_determinization_never_reads_other_hands():
    """Two games that differ only in cards a seat cannot see give that seat the same samples."""
    rng = np.random.default_rng(0)
    game = Game(GameConfig(n_players=4), seed=5)
    _advance(game, rng, 9)
    seat = game.current
    other = swap_unseen_cards(game, seat)
    other.rng = np.random.default_rng(999)  # the real generator (future deals) is not used either
    d1 = SeatView(game, seat).determinize(np.random.default_rng(42))
    d2 = SeatView(other, seat).determinize(np.random.default_rng(42))
    assert d1.hands == d2.hands and d1.hidden == d2.hidden
    assert d1.rng.bit_generator.state == d2.rng.bit_generator.state
    # the sample's log is the round's public record: the same for both games, no hands in it
    assert d1.events == d2.events and d1.events[0]["event"] == "deal"
    assert [e for e in d1.events if e["event"] == "play"] == [
        e for e in game.events[max(i for i, e in enumerate(game.events) if e["event"] == "deal"):]
        if e["event"] == "play"]
    assert not any("hands" in e or "hidden" in e for e in d1.events)


def test_determinized_game_plays_on_to_the_end_without_touching_the_real_one():
    rng = np.random.default_rng(3)
    game = Game(GameConfig(n_players=3, n_rounds=1), seed=2)
    _advance(game, rng, 15)
    before = game.to_dict()
    det = SeatView(game, game.current).determinize(rng)
    _advance(det, rng, 10_000)
    assert det.game_over
    assert game.to_dict() == before


def test_unseen_go_first_stays_with_its_public_holder():
    game = Game(GameConfig(n_players=4), seed=8)
    holder = game.go_first_holder
    seat = (holder + 1) % 4
    go_first = 61  # artifact kind index 0 (Go First)
    for k in range(20):
        det = SeatView(game, seat).determinize(np.random.default_rng(k))
        assert go_first in det.hands[holder]
        assert all(go_first not in det.hands[s] for s in range(4) if s != holder)


def test_seat_view_rejects_bad_seat():
    game = Game(GameConfig(n_players=2), seed=0)
    with pytest.raises(ValueError, match="seat 2"):
        SeatView(game, 2)
