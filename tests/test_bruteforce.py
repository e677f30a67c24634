"""The engine's legal plays equal a brute-force enumeration (tests/reference.py) over random states.

Rules sections 3, 4 and 6: hands of 3..7 suited cards, 0..2 wilds and 0..2 artifacts (any kinds), at
2..5 players; the table is empty (lead) or holds a meld another random hand could play.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import reference_legal

from seers_env.artifacts import ARTIFACT_KINDS, HALF_STEP, HIGHEST_SINGLE
from seers_env.cards import WILD, artifact_card, suited_deck
from seers_env.moves import legal_melds, legal_plays

N_STATES = 4000  # ~20 s on one core; run tests/reference.py longer by hand for more


def random_state(rng: np.random.Generator, max_suited: int = 7):
    """A random (hand, top, seat, n_players, in_bonus); top comes from another random hand's melds."""
    n_players = int(rng.integers(2, 6))
    suits = sorted(rng.choice(5, size=int(rng.integers(1, 5)), replace=False).tolist())
    deck = suited_deck(suits, 13 if rng.random() < 0.7 else 10)
    perm = rng.permutation(len(deck)).tolist()
    n_suited = int(rng.integers(3, max_suited + 1))
    hand = [deck[i] for i in perm[:n_suited]]
    hand += [WILD] * int(rng.choice(3, p=[0.3, 0.45, 0.25]))
    hand += [artifact_card(int(k)) for k in rng.integers(len(ARTIFACT_KINDS), size=int(rng.integers(3)))]
    hand.sort()
    top = None
    if rng.random() < 0.7:
        other = [deck[i] for i in perm[n_suited:n_suited + 8]] + [WILD]
        other.append(artifact_card(int(rng.choice([HALF_STEP, HIGHEST_SINGLE, 3, 4]))))
        melds = legal_melds(sorted(other), None)
        m = melds[int(rng.integers(len(melds)))]
        top = (int(m.meld_type), int(m.size), int(m.rank))
    seat = int(rng.integers(n_players))
    return hand, top, seat, n_players, len(hand) <= 5


def compare(hand, top, seat, n_players, in_bonus) -> None:
    plays = legal_plays(hand, top, seat=seat, n_players=n_players, in_bonus=in_bonus)
    ids = [tuple(p[:8]) for p in plays]
    assert len(ids) == len(set(ids)), f"duplicate plays for {hand} on {top}"
    ref = reference_legal(hand, top, seat, n_players, in_bonus)
    got = set(ids)
    assert got == ref, (f"hand {hand} top {top} seat {seat}/{n_players} bonus {in_bonus}: "
                        f"missing {sorted(ref - got)[:5]}, extra {sorted(got - ref)[:5]}")


@pytest.mark.parametrize("chunk", range(4))
def test_engine_matches_bruteforce_on_random_states(chunk):
    rng = np.random.default_rng([2024, chunk])
    for _ in range(N_STATES // 4):
        compare(*random_state(rng))


def test_bruteforce_reference_sees_half_step_duplicates():
    # regression: "wild as 2 +1/2" and "wild as 3 -1/2" were listed as two plays (one identity)
    hand = sorted([WILD, artifact_card(HALF_STEP)])
    compare(hand, None, 0, 4, True)
    ref = reference_legal(hand, None, 0, 4, True)
    assert (1, 1, 1, 5, (), 1, HALF_STEP, -1) in ref  # Single 2 1/2


def test_bruteforce_on_states_of_real_games():
    # hands and tricks reached by random play (hands cut to 8 cards so the enumeration stays quick)
    from seers_env import Game, GameConfig

    rng = np.random.default_rng(7)
    checked = 0
    for n in (2, 3, 4, 5):
        game = Game(GameConfig(n_players=n), seed=n)
        while not game.game_over and checked < 60 * n:
            seat = game.current
            if len(game.hands[seat]) <= 8:
                compare(game.hands[seat], game.top, seat, n, game.in_bonus(seat))
                checked += 1
            legal = game.legal_plays()
            game.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 100
