"""The :class:`SealsPlay` type: one decision of a Seals player (rules sections 3 and 4).

A play is a NamedTuple of two ints ``(kind, value)``:

* ``TAKE_COLOUR``, value ``0..4``: take every face-up card of that colour (section 3.2);
* ``TAKE_SYMBOL``, value ``0..10``: take every face-up card of that symbol (numbers 1..10 as ``0..9``,
  the Coin as 10);
* ``DECLARE``, value ``0..12287`` = ``fours_mask + (runs << 11)``: lay down one or several disjoint sets
  (sections 3.3 and 4). ``fours_mask`` (bits ``0..10``, :data:`FOURS_MASK`) names the four-of-a-kinds
  (bit ``k < 10``: four cards of number ``k + 1``; bit 10: four Coins), each at most once; ``runs`` in
  ``0..5`` (:data:`~seers_env.seals.cards.MAX_RUNS`) is how many disjoint runs 1-10 are laid down. Value 0
  declares nothing (section 4 [ruling]: a player may decline). ``runs`` 0 or 1 give the values of the
  earlier encoding (bit 11: the run), so saved games from before still load.

Each play has one flat action id (:attr:`SealsPlay.action`): takes by colour ``0..4``, by symbol
``5..15``, declarations ``16 + value`` (``16..12303``); plays sort in action-id order.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..integers import is_integer
from .cards import MAX_RUNS, N_COLOURS, N_SET_KINDS, N_SYMBOLS, RUN, SET_MARKS, set_name, symbol_name
from .rulings import COLOUR_NAMES


class SealsKind(enum.IntEnum):
    TAKE_COLOUR = 0
    TAKE_SYMBOL = 1
    DECLARE = 2


TAKE_COLOUR, TAKE_SYMBOL, DECLARE = (int(k) for k in SealsKind)
#: Number of take actions: 5 colours + 11 symbols.
N_TAKES = N_COLOURS + N_SYMBOLS
#: A declaration's run count sits above its four-of-a-kind bits: ``value = fours_mask + (runs << RUNS_SHIFT)``.
RUNS_SHIFT = RUN  # 11
#: The four-of-a-kind bits of a declaration (``0..10``: the numbers 1..10, then the Coins).
FOURS_MASK = (1 << RUNS_SHIFT) - 1  # 2047
#: Number of declarations: every subset of the 11 four-of-a-kinds times 0..5 runs, "nothing" included.
N_DECLARATIONS = (MAX_RUNS + 1) << RUNS_SHIFT  # 12288
#: Size of the flat action catalogue (takes, then declarations).
N_ACTIONS = N_TAKES + N_DECLARATIONS  # 12304
_LIMIT = {TAKE_COLOUR: N_COLOURS, TAKE_SYMBOL: N_SYMBOLS, DECLARE: N_DECLARATIONS}


def declaration_value(fours_mask: int, runs: int = 0) -> int:
    """The DECLARE value ``fours_mask + (runs << 11)`` (module docstring).

    Raises:
        TypeError: not integers (bools refused). ValueError: ``fours_mask`` not in ``0..2047`` or ``runs``
            not in ``0..5``.
    """
    if not (is_integer(fours_mask) and is_integer(runs)):
        raise TypeError(f"fours_mask and runs must be integers, got {fours_mask!r}, {runs!r}")
    if not 0 <= fours_mask <= FOURS_MASK:
        raise ValueError(f"fours_mask={fours_mask!r} is not one of 0..{FOURS_MASK} (bits 0..10: four of a number "
                         f"1..10, four Coins)")
    if not 0 <= runs <= MAX_RUNS:
        raise ValueError(f"runs={runs!r} is not one of 0..{MAX_RUNS} (a run uses one card of every number 1-10, "
                         f"and the deck holds {MAX_RUNS} of each)")
    return int(fours_mask) + (int(runs) << RUNS_SHIFT)


def split_declaration(value: int) -> tuple[int, int]:
    """``(fours_mask, runs)`` of a DECLARE value (module docstring); no range check."""
    return int(value) & FOURS_MASK, int(value) >> RUNS_SHIFT


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
        """The declaration laying down one set of each set kind in ``kinds`` (ints ``0..11``, any order;
        ``()``: declare nothing). :data:`~seers_env.seals.cards.RUN` may appear up to 5 times, once per
        disjoint run; a four-of-a-kind at most once. Inverse of :meth:`set_kinds`.

        Raises:
            TypeError: ``kinds`` is not an iterable of integers. ValueError: a kind outside ``0..11``, a
                four-of-a-kind named twice, or more than 5 runs.
        """
        try:
            kinds = list(kinds)
        except TypeError:
            raise TypeError(f"kinds must be an iterable of set kinds 0..{N_SET_KINDS - 1}, got {kinds!r}") from None
        mask, runs = 0, 0
        for k in kinds:
            if not is_integer(k):
                raise TypeError(f"set kind {k!r} is not an integer 0..{N_SET_KINDS - 1}")
            if not 0 <= k < N_SET_KINDS:
                raise ValueError(f"set kind {k!r} is not one of 0..{N_SET_KINDS - 1} (0..9 four of a number, "
                                 f"10 four Coins, {RUN} a run)")
            if k == RUN:
                runs += 1
            elif mask >> int(k) & 1:
                raise ValueError(f"set kind {k!r} ({set_name(int(k))}) is named twice in {kinds!r}: only the run "
                                 f"can be laid down more than once (section 4: a card is in at most one set)")
            else:
                mask |= 1 << int(k)
        if runs > MAX_RUNS:
            raise ValueError(f"{runs} runs in {kinds!r}: at most {MAX_RUNS} disjoint runs (runs={runs} is not "
                             f"one of 0..{MAX_RUNS})")
        return cls(DECLARE, declaration_value(mask, runs))

    def malformed(self) -> str | None:
        """Why the fields describe no decision (not ints, bools refused; unknown kind; value out of
        range), or ``None`` when well formed."""
        if not (is_integer(self.kind) and is_integer(self.value)):
            return f"kind and value must be integers, got {self.kind!r}, {self.value!r}"
        if self.kind not in _LIMIT:
            return f"kind={self.kind!r} is not one of {[int(k) for k in SealsKind]} (SealsKind)"
        hi = _LIMIT[int(self.kind)]
        if not 0 <= self.value < hi:
            why = f"value={self.value!r} is not one of 0..{hi - 1} for kind {SealsKind(int(self.kind)).name}"
            if self.kind == DECLARE and self.value >= hi:
                mask, runs = split_declaration(self.value)
                why += f" (fours_mask {mask}, runs={runs}: at most {MAX_RUNS} runs)"
            return why
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
        if not is_integer(action):
            raise TypeError(f"action must be an integer 0..{N_ACTIONS - 1}, got {type(action).__name__}: {action!r}")
        a = int(action)
        if not 0 <= a < N_ACTIONS:
            raise ValueError(f"action {a} is not one of 0..{N_ACTIONS - 1}")
        if a < N_COLOURS:
            return cls(TAKE_COLOUR, a)
        if a < N_TAKES:
            return cls(TAKE_SYMBOL, a - N_COLOURS)
        return cls(DECLARE, a - N_TAKES)

    @property
    def fours_mask(self) -> int:
        """DECLARE: the four-of-a-kind bits ``0..10`` of the value (0 for other kinds)."""
        return split_declaration(self.value)[0] if self.kind == DECLARE else 0

    @property
    def runs(self) -> int:
        """DECLARE: how many disjoint runs 1-10 are laid down (0 for other kinds)."""
        return split_declaration(self.value)[1] if self.kind == DECLARE else 0

    def set_kinds(self) -> list[int]:
        """DECLARE: one entry per set laid down, ascending: the four-of-a-kinds, then
        :data:`~seers_env.seals.cards.RUN` repeated once per run (``[2, 11, 11]``: four 3s and 2 runs);
        ``[]`` for other kinds. ``SealsPlay.declare(p.set_kinds()) == p``."""
        if self.kind != DECLARE:
            return []
        mask, runs = split_declaration(self.value)
        return [k for k in range(N_SET_KINDS - 1) if mask >> k & 1] + [RUN] * runs

    def set_names(self) -> list[str]:
        """DECLARE: the sets laid down in words, runs counted once (``["four 3s", "2 runs 1-10"]``); ``[]``
        for other kinds."""
        kinds = self.set_kinds()
        names = [set_name(k) for k in kinds if k != RUN]
        runs = kinds.count(RUN)
        if runs:
            names.append(set_name(RUN) if runs == 1 else f"{runs} runs 1-10")
        return names

    def marks(self) -> int:
        """DECLARE: the Marks the declaration scores: each set its own (section 4), every run 4; 0 otherwise."""
        return sum(SET_MARKS[k] for k in self.set_kinds())

    def to_list(self) -> list[int]:
        return [int(self.kind), int(self.value)]

    @classmethod
    def from_list(cls, v: Any) -> SealsPlay:
        """Inverse of :meth:`to_list`.

        Raises:
            TypeError: not a list of two ints. ValueError: a malformed play.
        """
        if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(is_integer(x) for x in v):
            raise TypeError(f"a Seals play is a list [kind, value] of two integers, got {v!r}")
        play = cls(int(v[0]), int(v[1]))
        why = play.malformed()
        if why is not None:
            raise ValueError(f"play {list(v)!r}: {why}")
        return play

    def describe(self) -> str:
        """``"take Blue"``, ``"take 7s"``, ``"declare four 3s + run 1-10 (5 Marks)"``, ``"declare four 3s + 2 runs
        1-10 (9 Marks)"``, ``"declare nothing"``."""
        why = self.malformed()
        if why is not None:
            return f"malformed play ({why})"
        if self.kind == TAKE_COLOUR:
            return f"take {COLOUR_NAMES[self.value]}"
        if self.kind == TAKE_SYMBOL:
            return f"take {symbol_name(self.value)}s"
        names = self.set_names()
        if not names:
            return "declare nothing"
        marks = self.marks()
        return f"declare {' + '.join(names)} ({marks} Mark{'' if marks == 1 else 's'})"


#: Declining to declare (section 4 [ruling]).
DECLINE_PLAY = SealsPlay(DECLARE, 0)
