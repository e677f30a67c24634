"""Legal-play generation and checking for SCOUT (rules sections 4, 5, 7 and 11), in plain Python.

Hands and Active Sets are lists of face codes (:mod:`seers_env.scout.cards`); only the top numbers
matter for legality.

**Documented order** of every legal-play list: ascending as plain tuples ``(kind, end, flip, position,
start, length)`` (:class:`~seers_env.scout.plays.ScoutPlay`), i.e.

1. rotation phase: ``KEEP``, ``ROTATE``;
2. a turn: every ``SHOW`` by ``(start, length)``; then every ``SCOUT`` by ``(end, flip, position)``; then
   every ``SCOUT_SHOW`` by ``(end, flip, position, start, length)``; then ``STOP`` (2 players with
   ``two_player_may_stop``).

Of Scout & Show pairs that give the same state only the smallest tuple is listed
(:data:`~seers_env.scout.rulings.SCOUT_SHOW_CANONICAL`): the scouted card shown alone is listed only at
position 0, and a segment that ends right before the kept scouted card (``start + length == position``)
is never listed (the same state is listed with the card inserted just left of the segment).

Strength (section 4) is one int, :func:`strength_key`: ``((length * 2 + is_set) << 4) | lowest value``,
so that A beats B exactly when ``key(A) > key(B)``; no Active Set is :data:`NO_SET` (``-1``).

Speed: one linear scan gives, for each start, the longest valid segment and its type (a run or a set can
only continue the way its first two cards go); every valid segment is then a prefix of that one.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import FACE_VALUE
from .plays import SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay, KEEP_PLAY, ROTATE_PLAY, STOP_PLAY

#: Key of "no Active Set": every valid segment beats it.
NO_SET = -1

_new = tuple.__new__


def _play(kind: int, end: int, flip: int, position: int, start: int, length: int) -> ScoutPlay:
    return _new(ScoutPlay, (kind, end, flip, position, start, length))


def strength_key(values: Sequence[int]) -> int:
    """The strength key of a segment's values (section 4), :data:`NO_SET` for an empty one.

    Raises:
        ValueError: the values are not a valid set or run.
    """
    n = len(values)
    if n == 0:
        return NO_SET
    if n == 1:
        return (3 << 4) | values[0]  # section 4 [ruling]: a single card is a set
    d = values[1] - values[0]
    if d not in (-1, 0, 1) or any(values[i + 1] - values[i] != d for i in range(n - 1)):
        raise ValueError(f"values {list(values)} are not a set or a run (section 4)")
    if d == 0:
        return ((n * 2 + 1) << 4) | values[0]
    return ((n * 2) << 4) | min(values[0], values[-1])


def set_key(faces: Sequence[int]) -> int:
    """:func:`strength_key` of a list of face codes (an Active Set)."""
    return strength_key([FACE_VALUE[f] for f in faces])


def _extents(v: list[int]) -> tuple[list[int], list[int]]:
    """``(ext, step)``: ``ext[s]`` is the length of the longest valid segment starting at ``s`` and
    ``step[s]`` its step (0 set, +1 ascending, -1 descending; 0 when ``ext[s] == 1``)."""
    n = len(v)
    ext = [1] * n
    step = [0] * n
    for s in range(n - 2, -1, -1):
        d = v[s + 1] - v[s]
        if -1 <= d <= 1:
            step[s] = d
            ext[s] = ext[s + 1] + 1 if ext[s + 1] > 1 and step[s + 1] == d else 2
    return ext, step


def _segment_key(v: list[int], s: int, length: int, step: int) -> int:
    """Key of the valid segment ``v[s:s+length]`` whose step is ``step``."""
    if length == 1:
        return 48 | v[s]
    if step == 0:
        return ((length * 2 + 1) << 4) | v[s]
    if step > 0:
        return ((length * 2) << 4) | v[s]
    return ((length * 2) << 4) | v[s + length - 1]


def show_segments(v: list[int], beat: int) -> list[tuple[int, int]]:
    """Every ``(start, length)`` of a valid segment of values ``v`` stronger than key ``beat``, sorted."""
    ext, step = _extents(v)
    min_len = max(1, beat >> 5) if beat >= 0 else 1
    out = []
    for s in range(len(v)):
        e = ext[s]
        if e < min_len:
            continue
        st = step[s]
        length = min_len
        if beat >= 0 and length == beat >> 5 and _segment_key(v, s, length, st) <= beat:
            length += 1
        for L in range(length, e + 1):
            out.append((s, L))
    return out


def can_show(v: list[int], beat: int) -> bool:
    """Whether values ``v`` hold a valid segment stronger than key ``beat`` (the longest segment from
    each start is the strongest one from there)."""
    if beat < 0:
        return len(v) > 0
    ext, step = _extents(v)
    return any(_segment_key(v, s, ext[s], step[s]) > beat for s in range(len(v)))


def show_plays(hand: Sequence[int], beat: int) -> list[ScoutPlay]:
    """SHOW plays of a hand (face codes) against key ``beat``, in the documented order."""
    v = [FACE_VALUE[f] for f in hand]
    return [_play(SHOW, 0, 0, 0, s, L) for s, L in show_segments(v, beat)]


def scout_plays(hand_len: int, active_len: int) -> list[ScoutPlay]:
    """Every SCOUT play with a hand of ``hand_len`` cards and an Active Set of ``active_len`` cards."""
    if active_len == 0:
        return []
    ends = (0,) if active_len == 1 else (0, 1)
    return [_play(SCOUT, e, f, p, 0, 0) for e in ends for f in (0, 1) for p in range(hand_len + 1)]


def _containing(v: list[int], pos: int, c: int, beat: int) -> list[tuple[int, int]]:
    """``(start, length)`` of valid segments of ``v`` with value ``c`` inserted at ``pos`` that contain
    it and beat ``beat``, except the card alone (the caller lists that once, at position 0)."""
    n = len(v)
    out = []
    # set: equal neighbours; asc: left c-1, c-2 ... right c+1, c+2 ...; desc: the other way
    for st in (0, 1, -1):
        left = 0
        while pos - 1 - left >= 0 and v[pos - 1 - left] == c - st * (left + 1):
            left += 1
        right = 0
        while pos + right < n and v[pos + right] == c + st * (right + 1):
            right += 1
        if left == 0 and right == 0:
            continue
        is_set = 1 if st == 0 else 0
        for i in range(left + 1):
            for j in range(right + 1):
                if i + j == 0:
                    continue
                length = i + j + 1
                low = c if st == 0 else (c - i if st > 0 else c - j)
                if ((((length * 2) | is_set) << 4) | low) > beat:
                    out.append((pos - i, length))
    return out


def scout_show_plays(hand: Sequence[int], active: Sequence[int]) -> list[ScoutPlay]:
    """Every canonical SCOUT_SHOW play (section 5, module docstring), in the documented order."""
    if not active:
        return []
    v = [FACE_VALUE[f] for f in hand]
    n = len(v)
    out = []
    ends = (0,) if len(active) == 1 else (0, 1)
    for e in ends:
        taken = active[0] if e == 0 else active[-1]
        rest = active[1:] if e == 0 else active[:-1]
        beat = set_key(rest)
        base = show_segments(v, beat)  # segments of the hand without the scouted card
        for f in (0, 1):
            c = FACE_VALUE[taken ^ f]
            alone = (48 | c) > beat
            i_base = 0  # base[:i_base] start left of pos
            for pos in range(n + 1):
                while i_base < len(base) and base[i_base][0] < pos:
                    i_base += 1
                left = [sl for sl in base[:i_base] if sl[0] + sl[1] < pos]
                inner = _containing(v, pos, c, beat)
                if pos == 0 and alone:
                    inner.append((0, 1))
                if inner:
                    merged = sorted(left + inner)
                else:
                    merged = left
                for s, L in merged:
                    out.append(_play(SCOUT_SHOW, e, f, pos, s, L))
                for k in range(i_base, len(base)):
                    s, L = base[k]
                    out.append(_play(SCOUT_SHOW, e, f, pos, s + 1, L))
    return out


def rotation_plays() -> list[ScoutPlay]:
    """The round-start decision (section 2): ``[KEEP, ROTATE]``."""
    return [KEEP_PLAY, ROTATE_PLAY]


def turn_plays(hand: Sequence[int], active: Sequence[int], *, scout: bool, scout_show: bool,
               stop: bool) -> list[ScoutPlay]:
    """Every legal play of a turn, in the documented order.

    Args:
        hand: the player's hand (face codes, left to right).
        active: the Active Set (face codes, as laid out; empty when there is none).
        scout: plain Scouts are allowed (3-5 players: always; 2 players: a chip left). Needs ``active``.
        scout_show: Scout & Show is allowed (3-5 players, chip unused). Needs ``active``.
        stop: list the 2-player STOP play (``two_player_may_stop`` and a non-empty Active Set).
    """
    out = show_plays(hand, set_key(active))
    if active:
        if scout:
            out += scout_plays(len(hand), len(active))
        if scout_show:
            out += scout_show_plays(hand, active)
    if stop:
        out.append(STOP_PLAY)
    return out


def why_illegal_turn(play: ScoutPlay, hand: Sequence[int], active: Sequence[int], *, scout: bool,
                     scout_show: bool, stop: bool, scout_rule: str = "", scout_show_rule: str = "",
                     stop_rule: str = "") -> str | None:
    """Why ``play`` is not one of :func:`turn_plays` (same arguments), or ``None`` when it is.

    Checks the rules directly, without listing every play. ``*_rule`` texts explain a disallowed kind.
    """
    n = len(hand)
    k = play.kind
    if k == STOP:
        if not stop:
            return stop_rule or "STOP is not available (section 7 [ruling], two_player_may_stop)"
        return None
    if k == SHOW:
        return _why_bad_show([FACE_VALUE[f] for f in hand], play.start, play.length, set_key(active),
                             "the Active Set")
    if k not in (SCOUT, SCOUT_SHOW):
        return f"{play.describe()} is a round-start decision; the round has started (section 2)"
    if not active:
        return "there is no Active Set to scout from: Show instead (sections 3 and 5)"
    if k == SCOUT and not scout:
        return scout_rule or "Scout is not available"
    if k == SCOUT_SHOW and not scout_show:
        return scout_show_rule or "Scout & Show is not available"
    if play.end == 1 and len(active) == 1:
        return "a 1-card Active Set is scouted with end=0 (left) only (section 11.3)"
    if play.position > n:
        return f"insert position {play.position} is outside 0..{n} (section 5)"
    if k == SCOUT:
        return None
    taken = active[0] if play.end == 0 else active[-1]
    rest = active[1:] if play.end == 0 else active[:-1]
    v = [FACE_VALUE[f] for f in hand]
    v.insert(play.position, FACE_VALUE[taken ^ play.flip])
    why = _why_bad_show(v, play.start, play.length, set_key(rest), "the Active Set left after the scout")
    if why is not None:
        return why + " (Scout & Show is legal only as a pair, section 5 [ruling])"
    s, L, p = play.start, play.length, play.position
    if L == 1 and s == p and p > 0:
        return (f"the same state is listed as {ScoutPlay.scout_show(play.end, play.flip, 0, 0, 1)!r}: the "
                f"scouted card shown alone is listed at position 0 only (section 11.4, rulings.SCOUT_SHOW_CANONICAL)")
    if s + L == p:
        return (f"the same state is listed as {ScoutPlay.scout_show(play.end, play.flip, s, s + 1, L)!r}: "
                f"the scouted card is inserted just left of the shown segment (section 11.4, "
                f"rulings.SCOUT_SHOW_CANONICAL)")
    return None


def _why_bad_show(v: list[int], s: int, L: int, beat: int, against: str) -> str | None:
    n = len(v)
    if s + L > n:
        return f"segment start={s}, length={L} does not fit a hand of {n} cards (section 11.2)"
    seg = v[s:s + L]
    try:
        key = strength_key(seg)
    except ValueError:
        return f"values {seg} are not a set or a run (section 4)"
    if key <= beat:
        return f"values {seg} are not stronger than {against} (section 4)"
    return None
