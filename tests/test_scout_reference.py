"""The fast SCOUT legal-play generator (``seers_env.scout.moves``) against the naive reference
(``tests/scout_reference.py``) on random reachable states of every player count.

Default: 2,000 states per player count plus at least 10 states per count of 3-5 players in which the
player to act holds 20 or more cards. ``SCOUT_REFERENCE_STATES=10000`` (or more) runs the long check.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from scout_policies import greedy_hoarder, hoarder, random_states
from scout_reference import reference_legal_plays
from seers_env.scout import ScoutConfig, ScoutGame, ScoutPlay

STATES = int(os.environ.get("SCOUT_REFERENCE_STATES", "2000"))
BIG_HAND = 20
BIG_STATES = 10


def _check(game) -> list[ScoutPlay]:
    fast = game.legal_plays()
    ref = reference_legal_plays(game)
    assert fast == ref, (f"{game!r}: hand {game.hands[game.current]}, active {game.active}; "
                         f"only fast: {sorted(set(fast) - set(ref))[:5]}, only reference: "
                         f"{sorted(set(ref) - set(fast))[:5]}")
    assert fast == sorted(fast)  # the documented order is ascending tuple order
    return fast


def _probe_is_legal(game, legal, rng) -> None:
    """is_legal agrees with the list on listed plays and on near misses."""
    listed = set(legal)
    for _ in range(3):
        p = legal[int(rng.integers(len(legal)))]
        assert game.is_legal(p)
        fields = list(p)
        i = int(rng.integers(1, 6))
        fields[i] += int(rng.choice([-1, 1]))
        q = ScoutPlay(*fields)
        assert game.is_legal(q) == (q in listed), (q, game)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_fast_generator_equals_reference_on_random_states(n_players):
    rng = np.random.default_rng(100 + n_players)
    kinds = set()
    sizes = []
    for game in random_states(n_players, STATES, seed=n_players):
        legal = _check(game)
        kinds.update(p.kind for p in legal)
        sizes.append(len(game.hand_faces(game.current)))
        _probe_is_legal(game, legal, rng)
    assert len(sizes) == STATES
    expected = {0, 1, 2, 3} | ({5} if n_players == 2 else {4})
    assert expected <= kinds  # every kind of play was compared
    if n_players == 2:
        assert max(sizes) >= 13  # 11 dealt + scouts with own chips


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_fast_generator_equals_reference_with_hands_of_20_or_more(n_players):
    """Hoarding policies steer one seat to 20+ cards by many scouts; every state on the way is checked."""
    policy = hoarder if n_players == 3 else greedy_hoarder
    big = 0
    for gi in range(40):
        rng = np.random.default_rng(gi)
        game = ScoutGame(ScoutConfig(n_players=n_players, max_turns_per_round=300), seed=gi)
        while not game.game_over:
            if len(game.hand_faces(game.current)) >= BIG_HAND:
                _check(game)
                big += 1
            game.apply(policy(game, rng))
        if big >= BIG_STATES:
            break
    assert big >= BIG_STATES, f"only {big} states with a hand of {BIG_HAND}+ cards were reached"


def test_reference_dedupes_scout_show_like_the_engine():
    """A known position: the scouted card shown alone is listed at position 0 only, and a segment that
    ends right before the kept scouted card is listed with the card inserted just left of it instead."""
    from seers_env.scout.cards import face_by_numbers, face_pair

    def pair(top, bottom):
        return face_pair(face_by_numbers(top, bottom))

    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[
        [pair(2, 9), pair(5, 1), pair(7, 3)], [pair(4, 6)], [pair(8, 1)]],
        active=[pair(6, 2)], active_owner=1, current=0)
    legal = _check(game)
    ss = [p for p in legal if p.kind == 4]
    alone = [p for p in ss if p.length == 1 and p.start == p.position]
    assert alone == [ScoutPlay.scout_show(0, 0, 0, 0, 1), ScoutPlay.scout_show(0, 1, 0, 0, 1)]
    assert all(p.start + p.length != p.position for p in ss)
    # showing the 2 alone (hand index 0) with the scouted card kept: inserted at 0 it is (0, 0, 0, 1, 1)
    assert ScoutPlay.scout_show(0, 0, 0, 1, 1) in ss
    assert ScoutPlay.scout_show(0, 0, 1, 0, 1) not in ss  # the same state, inserted just right of it
