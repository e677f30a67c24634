"""Figures for the Haggis legal-play generator: its worst case on 17-card hands with three wilds.

``python -m seers_env.haggis.bench [--hands N] [--climb STEPS] [--seed S]`` prints, for leading with 14
number cards and the own J, Q, K (the largest hand, where every shape is open): the number of legal plays
and the time to list them, over ``N`` random deals per player count and over a hill climb that swaps one
number card at a time towards more plays (hands dense in few ranks make the most sequences of width
2..5). Times are wall-clock on this machine (a figure, not a test).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .cards import SETUP, cards_text, faces_of
from .moves import turn_plays


def _measure(hand: list[int], repeat: int = 1) -> tuple[int, float]:
    best = float("inf")
    n = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        n = len(turn_plays(hand, None))
        best = min(best, time.perf_counter() - t0)
    return n, best


def worst_case(n_players: int, hands: int, climb: int, seed: int) -> dict:
    """Random and hill-climbed 17-card leading hands; returns the figures as a dict."""
    rng = np.random.default_rng(seed)
    deck = list(SETUP[n_players].number_cards)
    faces = list(faces_of(0))
    counts, times = [], []
    for _ in range(hands):
        nums = rng.choice(deck, 14, replace=False).tolist()
        n, t = _measure(sorted(nums + faces))
        counts.append(n)
        times.append(t)
    nums = sorted(rng.choice(deck, 14, replace=False).tolist())
    best_n, _ = _measure(sorted(nums + faces))
    for _ in range(climb):
        trial = list(nums)
        out = [c for c in deck if c not in trial]
        trial[int(rng.integers(14))] = out[int(rng.integers(len(out)))]
        n, _ = _measure(sorted(trial + faces))
        if n >= best_n:
            nums, best_n = trial, n
    best_n, best_t = _measure(sorted(nums + faces), repeat=3)
    return {"counts": counts, "times": times, "climb_hand": sorted(nums + faces), "climb_plays": best_n,
            "climb_time": best_t}


def crafted_hands() -> dict[str, list[int]]:
    """Hands dense in three ranks (the most sequences of every width), each with the own J, Q, K."""
    from .cards import number_card
    return {
        "3 players: 2-3 in five suits, 4 in four": [number_card(s, r) for s in range(5) for r in (2, 3)]
        + [number_card(s, 4) for s in range(4)],
        "3 players: 8-9 in five suits, 10 in four": [number_card(s, r) for s in range(5) for r in (8, 9)]
        + [number_card(s, 10) for s in range(4)],
        "2 players: 8-9-10 in four suits, 7c 7d": [number_card(s, r) for s in range(4) for r in (8, 9, 10)]
        + [number_card(0, 7), number_card(1, 7)],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--climb", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for n in (2, 3):
        r = worst_case(n, args.hands, args.climb, args.seed)
        c, t = np.array(r["counts"]), np.array(r["times"]) * 1000
        print(f"{n} players, {args.hands} random 17-card leads (3 wilds), seed {args.seed}: plays mean "
              f"{c.mean():.0f}, max {c.max()}; time mean {t.mean():.1f} ms, max {t.max():.1f} ms")
        print(f"  hill climb ({args.climb} steps): {r['climb_plays']} plays in {r['climb_time'] * 1000:.1f} ms: "
              f"{cards_text(r['climb_hand'])}")
    for label, nums in crafted_hands().items():
        n, t = _measure(sorted(nums + list(faces_of(0))), repeat=3)
        print(f"crafted, {label}: {n} plays in {t * 1000:.1f} ms (best of 3)")


if __name__ == "__main__":
    main()
