"""The :class:`ScoutPlay` type: one decision of a SCOUT player (rules sections 2, 4, 5, 7 and 11).

A play is a NamedTuple of six ints ``(kind, end, flip, position, start, length)``; fields a kind does not
use are 0, so two plays are equal exactly when they are the same decision, and plays sort in the
engine's documented order (:mod:`seers_env.scout.moves`) as plain tuples.

Kinds (:class:`ScoutKind`):
    KEEP, ROTATE: the round-start hand decision (section 2).
    SHOW: show the segment ``start .. start + length - 1`` of the hand (section 4).
    SCOUT: take the Active Set's left (``end = 0``) or right (``end = 1``) card, keep (``flip = 0``) or
        flip (``flip = 1``) it, insert it at ``position`` in ``0..len(hand)`` (section 5).
    SCOUT_SHOW: a Scout as above, then the Show ``(start, length)`` on the new hand (section 5).
    STOP: 2 players with ``two_player_may_stop`` only: end the round as 7(b) (section 7 [ruling]).
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..integers import is_integer


class ScoutKind(enum.IntEnum):
    KEEP = 0
    ROTATE = 1
    SHOW = 2
    SCOUT = 3
    SCOUT_SHOW = 4
    STOP = 5


KEEP, ROTATE, SHOW, SCOUT, SCOUT_SHOW, STOP = (int(k) for k in ScoutKind)
LEFT, RIGHT = 0, 1

_FIELDS = ("kind", "end", "flip", "position", "start", "length")
_USED = {  # fields each kind uses (the others must be 0)
    KEEP: (), ROTATE: (), STOP: (),
    SHOW: ("start", "length"),
    SCOUT: ("end", "flip", "position"),
    SCOUT_SHOW: ("end", "flip", "position", "start", "length"),
}


class ScoutPlay(NamedTuple):
    """One decision. Build with :meth:`show`, :meth:`scout`, :meth:`scout_show` or the constants
    :data:`KEEP_PLAY`, :data:`ROTATE_PLAY`, :data:`STOP_PLAY`; the engine's ``legal_plays()`` lists them.

    Fields (all ``int``):
        kind: :class:`ScoutKind`.
        end: SCOUT / SCOUT_SHOW: 0 = left card of the Active Set as laid out, 1 = right card.
        flip: SCOUT / SCOUT_SHOW: 1 = the scouted card is turned over, 0 = kept as it lies.
        position: SCOUT / SCOUT_SHOW: insert index 0..len(hand) (0 = left of every card).
        start, length: SHOW / SCOUT_SHOW: the shown segment (in the hand after the scout for SCOUT_SHOW).
    """

    kind: int
    end: int = 0
    flip: int = 0
    position: int = 0
    start: int = 0
    length: int = 0

    # --- constructors ------------------------------------------------------------------------------
    @classmethod
    def show(cls, start: int, length: int) -> ScoutPlay:
        return cls(SHOW, 0, 0, 0, start, length)

    @classmethod
    def scout(cls, end: int, flip: int, position: int) -> ScoutPlay:
        return cls(SCOUT, end, flip, position, 0, 0)

    @classmethod
    def scout_show(cls, end: int, flip: int, position: int, start: int, length: int) -> ScoutPlay:
        return cls(SCOUT_SHOW, end, flip, position, start, length)

    # --- checks ---------------------------------------------------------------------------------------
    def malformed(self) -> str | None:
        """Why the fields do not describe any decision (not ints, bools refused, numpy integers accepted; an
        unknown kind; a negative field; a field the kind does not use set), or ``None`` when well formed."""
        for name, v in zip(_FIELDS, self):
            if not is_integer(v):
                return f"field {name}={v!r} must be an int"
        if self.kind not in _USED:
            return f"kind={self.kind!r} is not one of {[f'{k.value} ({k.name})' for k in ScoutKind]}"
        used = _USED[self.kind]
        for name, v in zip(_FIELDS[1:], self[1:]):
            if name not in used and v != 0:
                return f"{ScoutKind(self.kind).name} does not use field {name} (must be 0, got {v!r})"
            if v < 0:
                return f"field {name}={v!r} must be >= 0"
        if self.kind in (SCOUT, SCOUT_SHOW) and (self.end not in (0, 1) or self.flip not in (0, 1)):
            return f"end={self.end!r} and flip={self.flip!r} must each be 0 or 1"
        if self.kind in (SHOW, SCOUT_SHOW) and self.length < 1:
            return f"length={self.length!r} must be >= 1"
        return None

    # --- serialisation -------------------------------------------------------------------------------
    def to_list(self) -> list[int]:
        """The six fields as a JSON-friendly list."""
        return [int(v) for v in self]

    @classmethod
    def from_list(cls, values: Any) -> ScoutPlay:
        """Inverse of :meth:`to_list`.

        Raises:
            TypeError: not a list/tuple of six ints (bools refused).
            ValueError: the fields describe no decision (:meth:`malformed`).
        """
        if not isinstance(values, (list, tuple)) or len(values) != len(_FIELDS):
            raise TypeError(f"a play is a list of 6 ints {list(_FIELDS)}, got {values!r}")
        for name, v in zip(_FIELDS, values):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"play field {name}={v!r} must be an int")
        play = cls(*values)
        why = play.malformed()
        if why is not None:
            raise ValueError(f"play {list(values)!r} is malformed: {why}")
        return play

    # --- display ---------------------------------------------------------------------------------------
    def describe(self) -> str:
        """Readable text without the cards (the game's ``describe(play)`` names the cards too)."""
        k = self.kind
        if k == KEEP:
            return "Keep hand"
        if k == ROTATE:
            return "Rotate hand"
        if k == STOP:
            return "Stop (end the round)"
        if k == SHOW:
            return f"Show {self.length} card{'s' if self.length != 1 else ''} from position {self.start}"
        if k in (SCOUT, SCOUT_SHOW):
            text = (f"Scout the {'right' if self.end else 'left'} card, {'flipped' if self.flip else 'kept'}, "
                    f"into position {self.position}")
            if k == SCOUT:
                return text
            return (f"Scout & Show: {text[0].lower()}{text[1:]}, then show {self.length} "
                    f"card{'s' if self.length != 1 else ''} from position {self.start}")
        return repr(tuple(self))

    def __str__(self) -> str:
        return self.describe()


KEEP_PLAY = ScoutPlay(KEEP)
ROTATE_PLAY = ScoutPlay(ROTATE)
STOP_PLAY = ScoutPlay(STOP)
