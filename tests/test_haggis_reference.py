"""The fast Haggis legal-play generator (``seers_env.haggis.moves``) against the naive reference
(``tests/haggis_reference.py``) on random reachable states of 2 and 3 players.

Default: 2,000 states per player count. ``HAGGIS_REFERENCE_STATES=10000`` (or more) runs the long check;
``python tests/test_haggis_reference.py 10000`` runs it outside pytest and prints the figures.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from haggis_reference import reference_legal_plays  # noqa: E402
from haggis_states import random_states  # noqa: E402
from seers_env.haggis import HaggisPlay  # noqa: E402
from seers_env.haggis.cards import faces_of  # noqa: E402
from seers_env.haggis.plays import BOMB, PASS, SEQ, SET  # noqa: E402

STATES = int(os.environ.get("HAGGIS_REFERENCE_STATES", "2000"))


def check_state(game, rng) -> list[HaggisPlay]:
    fast = game.legal_plays()
    ref = reference_legal_plays(game)
    assert fast == ref, (f"hand {game.hand(game.current)}, trick {game.trick}; only fast: "
                         f"{sorted(set(fast) - set(ref))[:5]}, only reference: {sorted(set(ref) - set(fast))[:5]}")
    assert len(set(fast)) == len(fast)
    listed = set(fast)
    hand = game.hand(game.current)
    for _ in range(3):  # is_legal agrees with the list on listed plays and near misses
        p = fast[int(rng.integers(len(fast)))]
        assert game.is_legal(p)
        if p.kind in (SET, SEQ, BOMB):
            cards = set(p.cards)
            extra = [c for c in hand if c not in cards]
            if extra and rng.random() < 0.5:
                cards.add(extra[int(rng.integers(len(extra)))])
            elif len(cards) > 1:
                cards.discard(sorted(cards)[int(rng.integers(len(cards)))])
            for kind, w in ((SET, 0), (SEQ, max(p.width, 1)), (SEQ, 2), (BOMB, 0)):
                q = HaggisPlay(kind, tuple(sorted(cards)), w)
                assert game.is_legal(q) == (q in listed), q
    return fast


def run(n_players: int, count: int, seed: int) -> dict:
    rng = np.random.default_rng(1000 + seed)
    kinds, sizes, lens = set(), [], []
    for game in random_states(n_players, count, seed=seed):
        legal = check_state(game, rng)
        kinds.update(p.kind for p in legal)
        sizes.append(len(game.hand(game.current)))
        lens.append(len(legal))
    return {"states": len(sizes), "kinds": kinds, "sizes": sizes, "lens": lens}


@pytest.mark.parametrize("n_players", [2, 3])
def test_fast_generator_equals_reference_on_random_states(n_players):
    out = run(n_players, STATES, seed=n_players)
    assert out["states"] == STATES
    assert {PASS, SET, SEQ, BOMB} <= out["kinds"]  # every kind of play was compared
    assert max(out["sizes"]) == 17 and min(out["sizes"]) <= 2


def test_reference_on_hand_made_hands():
    """Hands rich in sequences of every width, with the three wilds, leading and following."""
    from seers_env.haggis import HaggisConfig, HaggisGame
    from seers_env.haggis.cards import number_card
    rng = np.random.default_rng(5)
    hands = [
        [number_card(s, r) for s in range(5) for r in (2, 3)] + [number_card(s, 4) for s in range(4)],
        [number_card(s, r) for s in (0, 1) for r in range(3, 10)],
        [number_card(s, r) for s in range(4) for r in (3, 5, 7)] + [number_card(0, 9), number_card(1, 9)],
    ]
    for hand in hands:
        hand = sorted(hand + list(faces_of(0)))
        game = HaggisGame.from_position(HaggisConfig(n_players=3), hands=[hand, [48, 49, 50], [51, 52, 53]],
                                        current=0)
        legal = check_state(game, rng)
        assert any(p.kind == SEQ and p.width >= 3 for p in legal)


def main(argv: list[str]) -> None:
    count = int(argv[1]) if len(argv) > 1 else 10000
    for n in (2, 3):
        t0 = time.perf_counter()
        out = run(n, count, seed=n)
        dt = time.perf_counter() - t0
        sizes, lens = np.array(out["sizes"]), np.array(out["lens"])
        print(f"{n} players: {out['states']} states equal (seed {n}), {dt:.0f} s; hand sizes 1..17: "
              f"{int((sizes == 17).sum())} with 17 cards; legal plays mean {lens.mean():.1f}, max {lens.max()}")


if __name__ == "__main__":
    main(sys.argv)
