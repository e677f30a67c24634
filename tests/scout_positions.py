"""Build hand-made SCOUT positions in tests: pick cards by their numbers, pad with unused cards.

``Picker(n_players)`` hands out distinct cards in play for that player count: ``face(top)`` an unused card
with ``top`` on top (the other number chosen by the picker), ``face(top, bottom)`` that exact card,
``hand([...])`` several, ``filler(k)`` ``k`` unused card ids (for score piles).
"""

from __future__ import annotations

from seers_env.scout.cards import CARD_NUMBERS, SETUP, card_id


class Picker:
    def __init__(self, n_players: int):
        self.free = list(SETUP[n_players].in_play)

    def face(self, top: int, bottom: int | None = None) -> tuple[int, int]:
        if bottom is not None:
            c = card_id(top, bottom)
            if c not in self.free:
                raise ValueError(f"card {top}/{bottom} is used or not in play")
        else:
            options = [c for c in self.free if top in CARD_NUMBERS[c]]
            if not options:
                raise ValueError(f"no unused card with a {top}")
            c = options[-1]  # highest id first: keeps low cards for fillers
        self.free.remove(c)
        return (c, top)

    def hand(self, tops) -> list[tuple[int, int]]:
        return [self.face(*t) if isinstance(t, tuple) else self.face(t) for t in tops]

    def filler(self, k: int) -> list[int]:
        out, self.free = self.free[:k], self.free[k:]
        if len(out) < k:
            raise ValueError("not enough unused cards")
        return out

    def filler_hand(self, k: int) -> list[tuple[int, int]]:
        """``k`` unused cards as a hand (lower number on top)."""
        return [(c, CARD_NUMBERS[c][0]) for c in self.filler(k)]
