"""The :class:`SealsPlay` type: one decision of a Seals player (rules sections 3 and 4).

A play is a NamedTuple of two ints ``(kind, value)``:

* ``TAKE_COLOUR``, value ``0..4``: take every face-up card of that colour (section 3.2);
* ``TAKE_SYMBOL``, value ``0..10``: take every face-up card of that symbol (numbers 1..10 as ``0..9``,
  the Coin as 10);
* ``DECLARE``, value ``0..4095``: lay down the set kinds whose bits are set (bit ``k``: set kind ``k`` of
  :mod:`seers_env.seals.cards`); value 0 declares nothing (section 4 [ruling]: a player may decline).

Each play has one flat action id (:attr:`SealsPlay.action`): takes by colour ``0..4``, by symbol
``5..15``, declarations ``16 + value``; plays sort in action-id order.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

import numpy as np

from .cards import N_COLOURS, N_SET_KINDS, N_SYMBOLS, SET_MARKS, set_name, symbol_name
from .rulings import COLOUR_NAMES


class SealsKind(enum.IntEnum):
    TAKE_COLOUR = 0
    TAKE_SYMBOL = 1
    DECLARE = 2


TAKE_COLOUR, TAKE_SYMBOL, DECLARE = (int(k) for k in SealsKind)
#: Number of take actions: 5 colours + 11 symbols.
N_TAKES = N_COLOURS + N_SYMBOLS
#: Number of declarations (every subset of the 12 set kinds, the empty one included).
N_DECLARATIONS = 1 << N_SET_KINDS
#: Size of the flat action catalogue (takes, then declarations).
N_ACTIONS = N_TAKES + N_DECLARATIONS  # 4112
_LIMIT = {TAKE_COLOUR: N_COLOURS, TAKE_SYMBOL: N_SYMBOLS, DECLARE: N_DECLARATIONS}


def _is_int(v: Any) -> bool:
    return not isinstance(v, (bool, np.bool_)) and isinstance(v, (int, np.integer))


class SealsPlay(NamedTuple):
    """One decision. Build with :meth:`colour`, :meth:`symbol`, :meth:`declare` or
    :meth:`from_action`; the engine's ``legal_plays()`` lists them.

    Fields (``int``): ``kind`` (:class:`SealsKind`) and ``value`` (module docstring).
    """

    kind: int
    value: int

    @classmethod
    def colour(cls, colour: int) -> SealsPlay:
        return cls(TAKE_COLOUR, colour)

    @classmethod
    def symbol(cls, symbol: int) -> SealsPlay:
        return cls(TAKE_SYMBOL, symbol)

    @classmethod
    def declare(cls, kinds=()) -> SealsPlay:
        """The declaration of the set kinds in ``kinds`` (``()``: declare nothing)."""
        mask = 0
        for k in kinds:
            mask |= 1 << int(k)
        return cls(DECLARE, mask)

    def malformed(self) -> str | None:
        """Why the fields describe no decision (not ints, bools refused; unknown kind; value out of
        range), or ``None`` when well formed."""
        if not (_is_int(self.kind) and _is_int(self.value)):
            return f"kind and value must be integers, got {self.kind!r}, {self.value!r}"
        if self.kind not in _LIMIT:
            return f"kind={self.kind!r} is not one of {[int(k) for k in SealsKind]} (SealsKind)"
        hi = _LIMIT[int(self.kind)]
        if not 0 <= self.value < hi:
            return f"value={self.value!r} is not one of 0..{hi - 1} for kind {SealsKind(int(self.kind)).name}"
        return None

    @property
    def is_take(self) -> bool:
        return self.kind in (TAKE_COLOUR, TAKE_SYMBOL)

    @property
    def action(self) -> int:
        """The flat action id (module docstring)."""
        if self.kind == TAKE_COLOUR:
            return int(self.value)
        if self.kind == TAKE_SYMBOL:
            return N_COLOURS + int(self.value)
        return N_TAKES + int(self.value)

    @classmethod
    def from_action(cls, action: int) -> SealsPlay:
        """The play of a flat action id.

        Raises:
            TypeError: not an integer. ValueError: outside ``0..N_ACTIONS - 1``.
        """
        if not _is_int(action):
            raise TypeError(f"action must be an integer 0..{N_ACTIONS - 1}, got {type(action).__name__}: {action!r}")
        a = int(action)
        if not 0 <= a < N_ACTIONS:
            raise ValueError(f"action {a} is not one of 0..{N_ACTIONS - 1}")
        if a < N_COLOURS:
            return cls(TAKE_COLOUR, a)
        if a < N_TAKES:
            return cls(TAKE_SYMBOL, a - N_COLOURS)
        return cls(DECLARE, a - N_TAKES)

    def set_kinds(self) -> list[int]:
        """DECLARE: the set kinds laid down, ascending (``[]`` for other kinds)."""
        if self.kind != DECLARE:
            return []
        return [k for k in range(N_SET_KINDS) if self.value >> k & 1]

    def marks(self) -> int:
        """DECLARE: the Marks the declaration scores (section 4); 0 otherwise."""
        return sum(SET_MARKS[k] for k in self.set_kinds())

    def to_list(self) -> list[int]:
        return [int(self.kind), int(self.value)]

    @classmethod
    def from_list(cls, v: Any) -> SealsPlay:
        """Inverse of :meth:`to_list`.

        Raises:
            TypeError: not a list of two ints. ValueError: a malformed play.
        """
        if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(_is_int(x) for x in v):
            raise TypeError(f"a Seals play is a list [kind, value] of two integers, got {v!r}")
        play = cls(int(v[0]), int(v[1]))
        why = play.malformed()
        if why is not None:
            raise ValueError(f"play {list(v)!r}: {why}")
        return play

    def describe(self) -> str:
        """``"take Blue"``, ``"take 7s"``, ``"declare four 3s + run 1-10 (5 Marks)"``, ``"declare nothing"``."""
        why = self.malformed()
        if why is not None:
            return f"malformed play ({why})"
        if self.kind == TAKE_COLOUR:
            return f"take {COLOUR_NAMES[self.value]}"
        if self.kind == TAKE_SYMBOL:
            return f"take {symbol_name(self.value)}s"
        kinds = self.set_kinds()
        if not kinds:
            return "declare nothing"
        return f"declare {' + '.join(set_name(k) for k in kinds)} ({self.marks()} Marks)"


#: Declining to declare (section 4 [ruling]).
DECLINE_PLAY = SealsPlay(DECLARE, 0)
