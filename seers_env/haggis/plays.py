"""The :class:`HaggisPlay` type: one decision of a Haggis player (rules sections 3, 4, 7 and 11).

A play is a NamedTuple ``(kind, cards, width, amount)``:

* ``PASS``: ``cards == ()``; pass (section 3; never when leading).
* ``BET``: ``amount`` in 0, 15, 30 (section 7 [ruling]: a decision of its own at the start of the first
  own turn of the round).
* ``SET``: ``cards`` (sorted card ids) declared as a set (section 4.2; a lone face card is a single).
* ``SEQ``: ``cards`` declared as a sequence of ``width`` cards per rank (section 4.3).
* ``BOMB``: ``cards`` declared as a bomb (section 4.4).

Fields a kind does not use are 0 / ``()``; two plays are equal exactly when they are the same decision
(the same cards with the same declared shape). The value and what a play beats follow from the cards and
the shape (:func:`seers_env.haggis.moves.combo_of`).
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..integers import is_integer
from .cards import N_CARD_IDS, cards_text
from .rulings import BETS


class HaggisKind(enum.IntEnum):
    PASS = 0
    BET = 1
    SET = 2
    SEQ = 3
    BOMB = 4


PASS, BET, SET, SEQ, BOMB = (int(k) for k in HaggisKind)
COMBO_KINDS = (SET, SEQ, BOMB)
MAX_WIDTH = 5


class HaggisPlay(NamedTuple):
    """One decision; build with :meth:`pass_`, :meth:`bet`, :meth:`set_of`, :meth:`seq` or :meth:`bomb`.

    Fields:
        kind: :class:`HaggisKind` (int).
        cards: the played card ids, sorted ascending (a tuple of ints; ``()`` for PASS and BET).
        width: SEQ only: cards per rank 1..5 (0 otherwise).
        amount: BET only: 0, 15 or 30 (0 otherwise).
    """

    kind: int
    cards: tuple = ()
    width: int = 0
    amount: int = 0

    @classmethod
    def pass_(cls) -> HaggisPlay:
        return cls(PASS)

    @classmethod
    def bet(cls, amount: int) -> HaggisPlay:
        return cls(BET, (), 0, amount)

    @classmethod
    def set_of(cls, cards) -> HaggisPlay:
        return cls(SET, tuple(sorted(cards)))

    @classmethod
    def seq(cls, cards, width: int) -> HaggisPlay:
        return cls(SEQ, tuple(sorted(cards)), width)

    @classmethod
    def bomb(cls, cards) -> HaggisPlay:
        return cls(BOMB, tuple(sorted(cards)))

    def malformed(self) -> str | None:
        """Why the fields describe no decision (wrong types, an unknown kind, unsorted or repeated cards,
        a field the kind does not use), or ``None`` when well formed. Whether the cards can take the shape
        is checked by the game (:func:`seers_env.haggis.moves.combo_of`)."""
        if not is_integer(self.kind) or self.kind not in (PASS, BET, SET, SEQ, BOMB):
            return f"kind={self.kind!r} is not one of {[f'{k.value} ({k.name})' for k in HaggisKind]}"
        if not isinstance(self.cards, tuple) or not all(is_integer(c) for c in self.cards):
            return f"cards={self.cards!r} must be a tuple of int card ids"
        if any(not 0 <= c < N_CARD_IDS for c in self.cards):
            return f"cards={self.cards!r}: card ids are 0..{N_CARD_IDS - 1}"
        if list(self.cards) != sorted(set(self.cards)):
            return f"cards={self.cards!r} must be sorted ascending without repeats"
        if not is_integer(self.width) or not is_integer(self.amount):
            return f"width={self.width!r} and amount={self.amount!r} must be ints"
        if self.kind in (PASS, BET):
            if self.cards or self.width:
                return f"{HaggisKind(self.kind).name} takes no cards and width 0"
            if self.kind == PASS and self.amount:
                return "PASS takes amount 0"
            if self.kind == BET and self.amount not in BETS:
                return f"bet amount={self.amount!r} is not one of {BETS}"
            return None
        if not self.cards:
            return f"{HaggisKind(self.kind).name} needs at least one card"
        if self.amount:
            return "only BET uses amount (must be 0)"
        if self.kind == SEQ and not 1 <= self.width <= MAX_WIDTH:
            return f"sequence width={self.width!r} is not one of 1..{MAX_WIDTH}"
        if self.kind != SEQ and self.width:
            return f"{HaggisKind(self.kind).name} does not use width (must be 0)"
        return None

    def to_list(self) -> list:
        """JSON form ``[kind, [cards...], width, amount]``."""
        return [int(self.kind), [int(c) for c in self.cards], int(self.width), int(self.amount)]

    @classmethod
    def from_list(cls, values: Any) -> HaggisPlay:
        """Inverse of :meth:`to_list`.

        Raises:
            TypeError: not ``[int, [ints], int, int]``. ValueError: the fields describe no decision.
        """
        if not isinstance(values, (list, tuple)) or len(values) != 4 or not isinstance(values[1], (list, tuple)):
            raise TypeError(f"a Haggis play is [kind, [card ids], width, amount], got {values!r}")
        k, cards, w, a = values
        for name, v in (("kind", k), ("width", w), ("amount", a)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"play field {name}={v!r} must be an int")
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in cards):
            raise TypeError(f"play cards {cards!r} must be int card ids")
        play = cls(k, tuple(cards), w, a)
        why = play.malformed()
        if why is not None:
            raise ValueError(f"play {values!r} is malformed: {why}")
        return play

    def describe(self) -> str:
        """Readable text, e.g. ``"sequence x1 5c-6c-Q"``, ``"bet 15"``, ``"pass"``."""
        if self.kind == PASS:
            return "pass"
        if self.kind == BET:
            return f"bet {self.amount}" if self.amount else "no bet"
        name = {SET: "set", SEQ: f"sequence x{self.width}", BOMB: "bomb"}.get(self.kind, "?")
        return f"{name} {cards_text(self.cards)}"

    def __str__(self) -> str:
        return self.describe()


PASS_PLAY = HaggisPlay(PASS)
BET_PLAYS = tuple(HaggisPlay.bet(b) for b in BETS)
