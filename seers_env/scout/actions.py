"""The flat action catalogue of the SCOUT environment: ``Discrete(N_ACTIONS)``, ``N_ACTIONS == 2396``.

The catalogue has the same size for every player count (rules section 11): hand capacity
:data:`HAND_CAPACITY` ``H = 45`` (a 3-5 player hand can in principle hold every card in play).

==================  ==============================  =====  ============================================================
block               id                              ids    meaning
==================  ==============================  =====  ============================================================
``SHOW(s, L)``      ``s * H + (L - 1)``             2025   show the segment ``s .. s + L - 1`` of the hand (section 4);
                                                           at stage 2 of Scout & Show: of the hand after the scout
``KEEP``            2025                            1      round start: keep the hand (section 2)
``ROTATE``          2026                            1      round start: rotate the hand (section 2 [ruling])
``SCOUT(e, f, p)``  ``2027 + (2e + f) * 46 + p``    184    take the Active Set's left (``e = 0``) or right (``e = 1``)
                                                           card, kept (``f = 0``) or flipped (``f = 1``), insert it at
                                                           ``p`` in ``0..len(hand)`` (section 5)
``SCOUT_SHOW``      ``2211 + (2e + f) * 46 + p``    184    stage 1 of Scout & Show: the same scout, with the chip
``STOP``            2395                            1      2 players with ``two_player_may_stop``: end the round
==================  ==============================  =====  ============================================================

**Scout & Show takes two actions of the same agent** (section 11.4). Stage 1 is a ``SCOUT_SHOW(e, f, p)``
id, allowed exactly when the engine lists some Scout & Show play with that scout; stage 2 is a
``SHOW(s, L)`` id on the hand after the scout, allowed exactly when the engine lists the play
``(e, f, p, s, L)``. The engine lists each distinct pair once (ruling
:data:`~seers_env.scout.rulings.SCOUT_SHOW_CANONICAL`), and stage 2 offers exactly the listed shows, so
every legal play has exactly one action path and every action path decodes to one legal play. Every
other play takes one action.

Masks are built from :meth:`ScoutGame.legal_plays() <seers_env.scout.game.ScoutGame.legal_plays>` (so
they are exact by construction; ``tests/test_scout_actions.py`` decodes every path and compares).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from ..integers import check_action_id, is_integer
from .cards import face_name
from .game import ScoutGame
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay

#: Hand capacity ``H`` of the catalogue (section 11: every card of a 5-player game in one hand).
HAND_CAPACITY = 45
H = HAND_CAPACITY
#: Insert positions ``0..H`` of a scout (``H + 1`` of them).
N_POSITIONS = H + 1

SHOW_BASE = 0
N_SHOW = H * H  # 2025
KEEP_ACTION = SHOW_BASE + N_SHOW  # 2025
ROTATE_ACTION = KEEP_ACTION + 1  # 2026
SCOUT_BASE = ROTATE_ACTION + 1  # 2027
N_SCOUT = 2 * 2 * N_POSITIONS  # 184
SCOUT_SHOW_BASE = SCOUT_BASE + N_SCOUT  # 2211
STOP_ACTION = SCOUT_SHOW_BASE + N_SCOUT  # 2395
N_ACTIONS = STOP_ACTION + 1  # 2396

#: Decision stages: the main decision, and stage 2 of Scout & Show (the show after the scout).
STAGE_MAIN, STAGE_SCOUT_SHOW = 0, 1
STAGE_NAMES = ("main", "Scout & Show: the show")


class PendingScout(NamedTuple):
    """The scout chosen at stage 1 of Scout & Show (fields as in :class:`~seers_env.scout.plays.ScoutPlay`)."""

    end: int
    flip: int
    position: int


# --- ids of the blocks ---------------------------------------------------------------------------------

def _check_fields(**fields: Any) -> None:
    for name, v in fields.items():
        if not is_integer(v):
            raise TypeError(f"{name}={v!r} must be an int")


def show_action(start: int, length: int) -> int:
    """The id of ``SHOW(start, length)``.

    Raises:
        TypeError: a field is not an int. ValueError: the segment does not fit ``H`` slots.
    """
    _check_fields(start=start, length=length)
    if not (0 <= start and 1 <= length and start + length <= H):
        raise ValueError(f"segment start={start!r}, length={length!r} does not fit the catalogue's "
                         f"{H} hand slots (0 <= start, 1 <= length, start + length <= {H})")
    return SHOW_BASE + start * H + length - 1


def _scout_offset(end: int, flip: int, position: int) -> int:
    _check_fields(end=end, flip=flip, position=position)
    if end not in (0, 1) or flip not in (0, 1) or not 0 <= position <= H:
        raise ValueError(f"scout end={end!r}, flip={flip!r}, position={position!r} is outside the catalogue "
                         f"(end and flip 0 or 1, position 0..{H})")
    return (2 * end + flip) * N_POSITIONS + position


def scout_action(end: int, flip: int, position: int) -> int:
    """The id of ``SCOUT(end, flip, position)`` (a plain Scout). Raises as :func:`show_action`."""
    return SCOUT_BASE + _scout_offset(end, flip, position)


def scout_show_action(end: int, flip: int, position: int) -> int:
    """The stage-1 id of a Scout & Show whose scout is ``(end, flip, position)``."""
    return SCOUT_SHOW_BASE + _scout_offset(end, flip, position)


def actions_of_play(play: ScoutPlay) -> tuple[int, ...]:
    """The action path of an engine play: one id, or two (stage 1, stage 2) for Scout & Show.

    Raises:
        TypeError: ``play`` is not a :class:`~seers_env.scout.plays.ScoutPlay`.
        ValueError: a malformed play, or one the catalogue cannot hold (a position or segment beyond ``H``).
    """
    if not isinstance(play, ScoutPlay):
        raise TypeError(f"expected a ScoutPlay, got {type(play).__name__}: {play!r}")
    why = play.malformed()
    if why is not None:
        raise ValueError(f"play {tuple(play)!r} is malformed: {why}")
    k = play.kind
    if k == SHOW:
        return (show_action(play.start, play.length),)
    if k == SCOUT:
        return (scout_action(play.end, play.flip, play.position),)
    if k == SCOUT_SHOW:
        return (scout_show_action(play.end, play.flip, play.position), show_action(play.start, play.length))
    if k == KEEP:
        return (KEEP_ACTION,)
    if k == ROTATE:
        return (ROTATE_ACTION,)
    return (STOP_ACTION,)


def check_action(action: Any) -> int:
    """``action`` as an ``int`` in ``0..N_ACTIONS-1`` (:func:`seers_env.integers.check_action_id`).

    Raises:
        TypeError: not an integer (bool and float included). ValueError: out of range.
    """
    return check_action_id(action, N_ACTIONS)


def decode_action(action: int, pending: PendingScout | None = None) -> ScoutPlay | PendingScout:
    """What an action id means, without checking legality.

    Args:
        action: an id ``0..N_ACTIONS-1``.
        pending: ``None`` at the main stage; the stage-1 scout at stage 2 of Scout & Show.

    Returns:
        The engine :class:`~seers_env.scout.plays.ScoutPlay`, or a :class:`PendingScout` for a stage-1
        Scout & Show id (the show follows as a second action).

    Raises:
        TypeError / ValueError: not an int in range; at stage 2 an id that is not a ``SHOW``; a ``SHOW``
            id beyond the catalogue's segments (``start + length > H``).
    """
    a = check_action(action)
    if pending is not None:
        if not SHOW_BASE <= a < SHOW_BASE + N_SHOW:
            raise ValueError(f"action {a} is not a SHOW id (0..{N_SHOW - 1}); stage 2 of Scout & Show takes the "
                             f"show after the scout {tuple(pending)}")
        s, l1 = divmod(a - SHOW_BASE, H)
        if s + l1 + 1 > H:
            raise ValueError(f"action {a} = SHOW(start={s}, length={l1 + 1}) runs past the {H} hand slots")
        return ScoutPlay.scout_show(pending.end, pending.flip, pending.position, s, l1 + 1)
    if a < SHOW_BASE + N_SHOW:
        s, l1 = divmod(a - SHOW_BASE, H)
        if s + l1 + 1 > H:
            raise ValueError(f"action {a} = SHOW(start={s}, length={l1 + 1}) runs past the {H} hand slots")
        return ScoutPlay.show(s, l1 + 1)
    if a == KEEP_ACTION:
        return ScoutPlay(KEEP)
    if a == ROTATE_ACTION:
        return ScoutPlay(ROTATE)
    if a == STOP_ACTION:
        return ScoutPlay(STOP)
    base = SCOUT_BASE if a < SCOUT_SHOW_BASE else SCOUT_SHOW_BASE
    ef, p = divmod(a - base, N_POSITIONS)
    e, f = divmod(ef, 2)
    if base == SCOUT_BASE:
        return ScoutPlay.scout(e, f, p)
    return PendingScout(e, f, p)


def play_of_actions(actions: Sequence[int]) -> ScoutPlay:
    """The engine play of a whole action path (inverse of :func:`actions_of_play`).

    Raises:
        ValueError: the path is incomplete (a stage-1 Scout & Show id alone), too long, or a bad id.
    """
    actions = list(actions)
    if not actions:
        raise ValueError("an action path has one or two actions, got none")
    first = decode_action(actions[0])
    if isinstance(first, PendingScout):
        if len(actions) != 2:
            raise ValueError(f"a Scout & Show path is two actions (scout, then show), got {actions!r}")
        return decode_action(actions[1], first)  # type: ignore[return-value]
    if len(actions) != 1:
        raise ValueError(f"action {actions[0]} is a whole play; the path {actions!r} is too long")
    return first


def _first_ids(arr: np.ndarray) -> np.ndarray:
    """int64 ``(m,)``: the first action id of each play row (``(m, 6)`` fields)."""
    kind, end, flip, pos, start, length = arr.T
    ids = np.full(len(arr), KEEP_ACTION, np.int64)
    ids[kind == ROTATE] = ROTATE_ACTION
    ids[kind == STOP] = STOP_ACTION
    show = kind == SHOW
    ids[show] = SHOW_BASE + start[show] * H + length[show] - 1
    for k, base in ((SCOUT, SCOUT_BASE), (SCOUT_SHOW, SCOUT_SHOW_BASE)):
        sel = kind == k
        ids[sel] = base + (2 * end[sel] + flip[sel]) * N_POSITIONS + pos[sel]
    return ids


class ScoutDecision:
    """The pending decision of the seat to act: its legal plays, the stage and the action mask.

    Built from ``game.legal_plays()`` (a copy taken now; the decision does not follow later plays).

    Attributes:
        legal: the engine's legal plays (documented order). seat: the seat to act.
        pending: ``None`` at the main stage; the chosen scout at stage 2 of Scout & Show.

    Raises:
        ValueError: the game is over (there is no decision), or a play the catalogue cannot hold (a hand
            beyond ``H`` cards: impossible with the rules' card counts).
    """

    __slots__ = ("legal", "seat", "_pending", "_ids", "_second", "_mask")

    def __init__(self, game: ScoutGame):
        if game.game_over:
            raise ValueError("the game is over: there is no decision to make")
        self.legal = game.legal_plays()
        self.seat = game.current
        self._pending: PendingScout | None = None
        m = len(self.legal)
        arr = np.fromiter(chain.from_iterable(self.legal), np.int64, 6 * m).reshape(m, 6)
        if arr.size and (arr[:, 3].max() > H or (arr[:, 4] + arr[:, 5]).max() > H):
            raise ValueError(f"a legal play does not fit the catalogue's {H} hand slots")
        self._ids = _first_ids(arr)
        ss = arr[:, 0] == SCOUT_SHOW
        self._second = np.where(ss, SHOW_BASE + arr[:, 4] * H + arr[:, 5] - 1, -1)
        self._mask: np.ndarray | None = None

    @property
    def pending(self) -> PendingScout | None:
        """``None`` at the main stage; the stage-1 scout at stage 2 (set by :meth:`choose`)."""
        return self._pending

    @property
    def stage(self) -> int:
        """:data:`STAGE_MAIN` or :data:`STAGE_SCOUT_SHOW`."""
        return STAGE_MAIN if self.pending is None else STAGE_SCOUT_SHOW

    def mask(self) -> np.ndarray:
        """int8 ``(N_ACTIONS,)``: 1 exactly for the actions that continue some legal play now (a new array)."""
        if self._mask is None:
            m = np.zeros(N_ACTIONS, np.int8)
            if self.pending is None:
                m[self._ids] = 1
            else:
                first = scout_show_action(*self.pending)
                m[self._second[self._ids == first]] = 1
            self._mask = m
        return self._mask.copy()

    def allowed(self, action: int) -> bool:
        """Whether ``action`` (an id in range) is allowed now."""
        if self._mask is None:
            self.mask()
        return bool(self._mask[action])

    def choose(self, action: Any) -> ScoutPlay | None:
        """Take ``action``: the completed legal play, or ``None`` when a second stage follows (then
        :attr:`pending` is set and :meth:`mask` is the stage-2 mask).

        Raises:
            TypeError / ValueError: not an id in range, or not allowed now (the message lists a few allowed
                actions); nothing changes.
        """
        a = check_action(action)
        if not self.allowed(a):
            allowed = np.flatnonzero(self._mask).tolist()
            shown = ", ".join(f"{x} ({describe_action(x, pending=self.pending)})" for x in allowed[:5])
            more = f" and {len(allowed) - 5} more" if len(allowed) > 5 else ""
            raise ValueError(f"action {a} ({describe_action(a, pending=self.pending)}) is not allowed now "
                             f"({STAGE_NAMES[self.stage]} stage); allowed: {shown}{more}")
        got = decode_action(a, self.pending)
        if isinstance(got, PendingScout):
            self._pending = got
            self._mask = None
            return None
        return got

    def actions_for(self, play: ScoutPlay) -> tuple[int, ...]:
        """The action path of ``play`` from the main stage (:func:`actions_of_play`).

        Raises:
            ValueError: ``play`` is not one of :attr:`legal`.
        """
        if play not in self.legal:
            raise ValueError(f"play {tuple(play)!r} is not a legal play of this decision")
        return actions_of_play(play)


def legal_action_mask(game: ScoutGame, pending: PendingScout | None = None) -> np.ndarray:
    """The exact action mask of ``game``'s seat to act: int8 ``(N_ACTIONS,)``.

    Args:
        game: a game that is not over.
        pending: the stage: ``None`` for the main decision, or the stage-1 scout of a Scout & Show for its
            stage 2 (then the mask holds the shows listed with that scout).

    Raises:
        ValueError: the game is over, or ``pending`` is not the scout of a listed Scout & Show.
    """
    d = ScoutDecision(game)
    if pending is not None:
        pending = PendingScout(*pending)
        first = scout_show_action(*pending)
        if not d.allowed(first):
            raise ValueError(f"pending scout {tuple(pending)} is not the scout of a legal Scout & Show now")
        d.choose(first)
    return d.mask()


def describe_action(action: Any, game: ScoutGame | None = None, pending: PendingScout | None = None) -> str:
    """An action in words. With ``game`` (the game whose seat is to act) the cards it moves are named
    when the action is legal now; ``pending`` is the stage-1 scout at stage 2 of Scout & Show.

    Raises:
        TypeError / ValueError: not an id in range.
    """
    a = check_action(action)
    try:
        got = decode_action(a, pending)
    except ValueError:
        if pending is not None:
            return f"action {a} (not a show: stage 2 of Scout & Show takes a SHOW id)"
        s, l1 = divmod(a - SHOW_BASE, H)
        return f"SHOW(start={s}, length={l1 + 1}) (beyond the {H} hand slots)"
    if isinstance(got, PendingScout):
        text = (f"Scout & Show, stage 1: scout the {'right' if got.end else 'left'} card, "
                f"{'flipped' if got.flip else 'kept'}, into position {got.position}")
        if game is not None and not game.game_over and game.phase == "play":
            active = game.active_faces()
            if active and not (got.end and len(active) == 1):
                face = active[-1 if got.end else 0] ^ got.flip
                text += f" (card {face_name(face)})"
        return text
    if game is not None and not game.game_over and game.is_legal(got):
        return game.describe(got)
    if pending is not None and game is not None and got.kind == SCOUT_SHOW:
        return f"Scout & Show, stage 2: show {got.length} card{'s' if got.length != 1 else ''} from position {got.start}"
    return got.describe()


__all__ = [
    "H", "HAND_CAPACITY", "KEEP_ACTION", "N_ACTIONS", "N_POSITIONS", "N_SCOUT", "N_SHOW", "PendingScout",
    "ROTATE_ACTION", "SCOUT_BASE", "SCOUT_SHOW_BASE", "SHOW_BASE", "STAGE_MAIN", "STAGE_NAMES",
    "STAGE_SCOUT_SHOW", "STOP_ACTION", "ScoutDecision", "actions_of_play", "check_action", "decode_action",
    "describe_action", "legal_action_mask", "play_of_actions", "scout_action", "scout_show_action",
    "show_action",
]
