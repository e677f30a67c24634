"""Legal-play generation (rules sections 3, 4 and 6).

:func:`legal_plays` lists every distinct legal play (one representative per play identity, see
:data:`seers_env.rulings.PLAY_IDENTITY`) for a hand and a trick. The order is stable and documented:

1. ``PASS``, when passing is allowed;
2. melds without an artifact: Singles and Matching Sets by value (2..13), then by suit subset
   (bitmask order of the suits held at that value), then by number of wilds; then Suited Runs by suit,
   length, lowest value and wild positions;
3. for each artifact kind held, in registry order: the melds of step 2 with the artifact riding along or
   declared unused, then the melds its effect makes (:data:`EFFECTS`);
4. artifact actions: the highest Single, the Rod of Reincarnation, the Gift of Fate (targets by seat).

Only melds that may be played on ``top`` are listed (:func:`seers_env.melds.beats`).

The generator is compiled (:mod:`seers_env.engine.core`, numba, on per-suit value bitmasks); each play
comes back as a 64-bit key and is turned into an interned :class:`~seers_env.plays.Play` (plays are
immutable, so the same object may be handed out many times). ``tests/moves_python.py`` keeps the readable
pure-Python generator as a test reference.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from . import core
from .plays import PASS, Play, gift_play, highest_single_play, rod_play

_new = tuple.__new__  # builds a Play without NamedTuple's keyword handling (hot path)

#: Interned plays by play key (:mod:`seers_env.engine.core`); cleared when it grows past the limit.
_PLAYS: dict[int, Play] = {}
_PLAYS_LIMIT = 300_000  # about 100 MB at most


def _seed_plays() -> None:
    _PLAYS.clear()
    _PLAYS[core.PASS_KEY] = PASS
    _PLAYS[core.ROD_KEY] = rod_play()
    _PLAYS[core.HIGHEST_KEY] = highest_single_play()
    for t in range(5):
        _PLAYS[core.gift_key(t)] = gift_play(t)


_seed_plays()


def _play_of_key(key: int) -> Play:
    play = _PLAYS.get(key)
    if play is None:
        if len(_PLAYS) >= _PLAYS_LIMIT:
            _seed_plays()
        play = _PLAYS[key] = _new(Play, core.unpack(key))
    return play


def _filled(method):
    """A ``list`` method that first builds every ``Play`` of a lazy :class:`PlayList` (and of a lazy
    ``PlayList`` argument: ``list``'s C code reads a list argument's items directly)."""
    base = getattr(list, method)

    def wrapper(self, *args):
        if not self._full:
            self._fill()
        for a in args:
            if type(a) is PlayList and not a._full:
                a._fill()
        return base(self, *args)

    wrapper.__name__ = method
    wrapper.__doc__ = base.__doc__
    return wrapper


class PlayList(list):
    """The legal plays as a ``list`` of :class:`~seers_env.plays.Play`, built lazily from play keys.

    It is a real ``list`` and behaves as one (equality, iteration, slicing, ``in``, ``index``, ``len``,
    pickling as a plain list). ``len()`` and indexing by position do not build the other plays; any other
    use builds them all once. It is read-only (it is the game's cached list): changing it raises
    ``TypeError``; ``list(plays)`` is a copy the caller may change.

    Attributes:
        keys: ``int64`` array of shape ``(len(self),)``, the play key of each play
            (:mod:`seers_env.engine.core`); the environment builds action codes from it without building
            ``Play`` objects. Read-only.
    """

    __slots__ = ("keys", "_full", "_last")

    def __init__(self, keys: np.ndarray):
        super().__init__()
        keys.flags.writeable = False
        self.keys = keys
        self._full = False
        self._last: tuple[int, Play] | None = None

    def _fill(self) -> None:
        table = _PLAYS
        kl = self.keys.tolist()
        try:
            plays = [table[k] for k in kl]
        except KeyError:
            plays = [_play_of_key(k) for k in kl]
        if self._last is not None:  # keep handing out the very object given before
            plays[self._last[0]] = self._last[1]
        list.extend(self, plays)
        self._full = True

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, i):
        if self._full or isinstance(i, slice):
            return self._filled_getitem(i)
        last = self._last
        if last is not None and last[0] == i:
            return last[1]
        n = len(self.keys)
        j = operator.index(i)
        if j < 0:
            j += n
        if not 0 <= j < n:
            raise IndexError("list index out of range")
        play = _play_of_key(int(self.keys[j]))
        self._last = (j, play)
        return play

    _filled_getitem = _filled("__getitem__")

    def index(self, value, *args) -> int:
        """Position of ``value`` (fast for the play last taken by position)."""
        last = self._last
        if not self._full and not args and last is not None and last[1] is value:
            return last[0]
        if not self._full:
            self._fill()
        return list.index(self, value, *args)

    def __repr__(self) -> str:
        if not self._full:
            self._fill()
        return list.__repr__(self)

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))

    def __copy__(self) -> list:
        return list(self)

    def __radd__(self, other):
        if not self._full:
            self._fill()
        return other + list(self)

    def _read_only(self, *args, **kwargs):
        raise TypeError("the legal plays are the game's own read-only list; copy it with list(plays) to "
                        "change it")

    for _name in ("__iter__", "__reversed__", "__contains__", "__eq__", "__ne__", "__lt__", "__le__",
                  "__gt__", "__ge__", "__add__", "__mul__", "__rmul__", "count", "copy", "__sizeof__"):
        locals()[_name] = _filled(_name)
    for _name in ("__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend", "insert", "pop",
                  "remove", "sort", "reverse", "clear"):
        locals()[_name] = _read_only
    del _name
    __hash__ = None


def plays_of_keys(keys: np.ndarray) -> PlayList:
    """The plays of an ``int64`` key array, as a lazy :class:`PlayList` (same order)."""
    return PlayList(keys)


def _hand_array(hand: Sequence[int]) -> np.ndarray:
    try:
        return np.array(hand, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"hand {hand!r} is not a sequence of card ids (ints 0..67)") from None


def legal_melds(hand: Sequence[int], top: tuple[int, int, int] | None) -> list[Play]:
    """Every distinct meld (artifact actions excluded) that ``hand`` may play on ``top``.

    Args:
        hand: card ids (see :mod:`seers_env.cards`).
        top: ``(meld_type, size, rank)`` of the meld to beat, or ``None`` when leading.

    Returns:
        Plays of kind ``MELD``, in the order described in the module docstring (steps 2 and 3, plus the
        highest Single), as a :class:`PlayList`.

    Raises:
        ValueError: a card id outside 0..67.
    """
    if top is None:
        keys = core.melds_keys(_hand_array(hand), 0, 0, 0)
    else:
        keys = core.melds_keys(_hand_array(hand), int(top[0]), int(top[1]), int(top[2]))
    return plays_of_keys(keys)


def legal_plays(
    hand: Sequence[int],
    top: tuple[int, int, int] | None,
    *,
    seat: int,
    n_players: int,
    in_bonus: bool,
) -> list[Play]:
    """Every distinct legal play for ``seat`` holding ``hand``, in the documented order.

    Args:
        hand: card ids of the player to act.
        top: ``(meld_type, size, rank)`` of the trick's top meld, or ``None`` when this player leads.
        seat: the player's seat (0-based), for Gift of Fate targets.
        n_players: number of players (2..5).
        in_bonus: whether the player holds 5 or fewer cards (section 4).

    Returns:
        A :class:`PlayList` of :class:`~seers_env.plays.Play`. Leading: melds, then Gift of Fate targets;
        ``PASS`` only when there is no opening meld (section 3; project ruling
        :data:`~seers_env.rulings.START_SEER_MUST_LEAD_WHEN_ABLE`). Following: ``PASS`` unless the player
        is in the Bonus and has a meld (section 4), melds that beat ``top``, then the Rod.

    Raises:
        ValueError: a card id outside 0..67.
    """
    # plain ints (not IntEnum or numpy ints), so that one compiled signature serves every caller
    h = _hand_array(hand)
    if top is None:
        keys = core.legal_keys(h, 0, 0, 0, int(seat), int(n_players), bool(in_bonus))
    else:
        keys = core.legal_keys(h, int(top[0]), int(top[1]), int(top[2]), int(seat), int(n_players),
                               bool(in_bonus))
    return PlayList(keys)
