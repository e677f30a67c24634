"""The compiled SCOUT kernel: many SCOUT games as numpy arrays, stepped by numba functions.

:class:`~seers_env.scout.game.ScoutGame` keeps one game in Python lists; this module keeps ``N`` games
(*slots*) in a few arrays and plays them in compiled code (numba, ``cache=True`` through
:mod:`seers_env.engine.jit`). The rules are those of the engine (rules ``shared/rules/scout.md`` sections
2 to 9 and every ruling of :mod:`seers_env.scout.rulings`), and a kernel game plays exactly as the engine
game with the same seed: the same deals, the same legal plays in the same order
(:meth:`ScoutGame.legal_plays() <seers_env.scout.game.ScoutGame.legal_plays>`, the documented order of
:mod:`seers_env.scout.moves`), the same scores, totals and round-end reasons (``tests/test_scout_kernel.py``).

**State of slot** ``i`` (``H_CAP`` hand slots, face codes ``2 * card + orientation`` as in
:mod:`seers_env.scout.cards`):

* ``hands``: int8 ``(N, 5, H_CAP)``, seat ``s``'s hand left to right in ``hands[i, s, :scal[i, S_HLEN + s]]``;
* ``scouted``: int8 ``(N, 5, H_CAP)``, 1 where that hand slot was scouted this round (public);
* ``active``: int8 ``(N, ACTIVE_CAP)``, the Active Set as laid out, ``scal[i, S_ALEN]`` cards;
* ``scal``: int64 ``(N, N_SCALARS)``, named by the ``S_*`` constants: config (players, rounds, turn cap,
  flags), phase, seat to act, start player, round, turns, owner, per-seat hand and pile sizes, chips,
  Scout & Show used, rotation choices, totals, card bitmasks (bit ``c`` = card id ``c``) of the score piles,
  the round's cards and (2 players) the earlier round's seen and shown cards, per-round reasons and exempt
  seats, the last play's outcome, the catalogue decision stage of the batch API (Scout & Show stage 2 and
  its pending scout) and the deals drawn ahead;
* ``scores``: int64 ``(N, 5, 5)``, ``scores[i, r, s]`` seat ``s``'s score of round ``r``;
* ``deals``: int8 ``(N, 2, 5, 45)``: ``deals[i, 0, r]`` the faces dealt in round ``r`` of the current game
  (seat ``s`` gets the ``s``-th block of ``hand size`` faces), ``deals[i, 1]`` those of the slot's next game.

**Dealing** stays in Python (:func:`draw_game_deals`, once a game): a round's draws from the game's
``numpy.random.Generator`` do not depend on the play, so every round of a game is drawn when it starts,
with exactly the draws of :meth:`ScoutGame._deal_round` in the same order (round 1 with
``first_player="random"`` then draws the start seat). The next game of a slot is drawn ahead into
``deals[i, 1]`` (:meth:`ScoutKernel.refill`), so compiled code can end a game and start the next one
(the batch API's autoreset).

**Plays** are int64 *play keys* (:func:`play_key`): ``kind << 20 | end << 19 | flip << 18 | position << 12
| start << 6 | length``, ordered as the engine's play tuples, so a legal list is sorted by key.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine.jit import njit
from ..integers import is_integer
from . import rulings
from .actions import (
    H, KEEP_ACTION, N_ACTIONS, N_POSITIONS, N_SHOW, ROTATE_ACTION, SCOUT_BASE, SCOUT_SHOW_BASE, SHOW_BASE,
    STOP_ACTION,
)
from .cards import CARD_1_2, CARD_NUMBERS, FACE_BOTTOM, FACE_VALUE, N_CARDS, SETUP
from .observation import ACTIVE_SLOTS, MAX_SEATS, OBS_BOUND, OBS_DIM, OFFSETS
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay

# the fixed behaviours this kernel implements (see rulings.py); changing one means changing this module
assert rulings.ROTATION_REVERSES_AND_FLIPS and rulings.SINGLE_CARD_IS_SET and not rulings.RUNS_WRAP_AROUND
assert rulings.SCOUT_AND_SHOW_ONLY_AS_PAIR and rulings.ONE_CARD_SET_SCOUTS_FROM_LEFT_ONLY
assert rulings.ROUND_END_B_WHEN_SET_EMPTIED and rulings.TRUNCATED_ROUND_HAS_NO_EXEMPTION
assert rulings.SCOUT_CHIP_SUPPLY_UNLIMITED and rulings.TWO_PLAYER_STUCK_TESTED_EVERY_TURN
assert rulings.START_PLAYER_STEP == 1 and rulings.HOLDER_OF_1_2_FALLBACK_SEAT == 0
assert not rulings.ROUND_END_HANDS_SHOWN and rulings.TWO_PLAYER_RESHUFFLE_SET_ASIDE
assert H == 45 and ACTIVE_SLOTS == 10 and MAX_SEATS == 5

#: Hand slots per seat (a hand holds at most every card, 45).
H_CAP = 46
#: Active Set slots (a run has at most 10 cards, a set 9).
ACTIVE_CAP = ACTIVE_SLOTS
MAX_ROUNDS = 5
#: The largest ``max_turns_per_round`` the kernel stores (an int64 scalar; turn counts stay below it).
MAX_TURNS_CAP = 2**62


def check_kernel_config(config) -> None:
    """Refuse a :class:`~seers_env.scout.game.ScoutConfig` the kernel's fixed arrays cannot hold.

    Raises:
        ValueError: ``n_rounds`` above :data:`MAX_ROUNDS` (section 2 has at most 5 rounds; the Python
            engine and ``scout_v0`` play more) or ``max_turns_per_round`` above :data:`MAX_TURNS_CAP`.
    """
    if config.n_rounds > MAX_ROUNDS:
        raise ValueError(f"n_rounds={config.n_rounds} is not allowed in the compiled SCOUT kernel (vector env, "
                         f"actors); use 1..{MAX_ROUNDS}, or the AEC environment scout_v0 for longer games")
    if config.max_turns_per_round > MAX_TURNS_CAP:
        raise ValueError(f"max_turns_per_round={config.max_turns_per_round} is not allowed in the compiled SCOUT "
                         f"kernel; use 1..2**62")

# --- scalars --------------------------------------------------------------------------------------------
S_N = 0  # players
S_ROUNDS = 1
S_MAX_TURNS = 2
S_PUBLIC = 3  # public_scout_flip_and_position
S_MAY_STOP = 4  # two_player_may_stop
S_PHASE = 5  # PH_*
S_CURRENT = 6
S_START = 7
S_FIRST = 8  # round 1 start seat of this game
S_ROUND = 9
S_TURNS = 10
S_OWNER = 11  # last shower this round, -1 before the first Show
S_ALEN = 12
S_HLEN = 13  # 5 hand sizes
S_CHIPS = 18  # 5
S_PILE = 23  # 5 score-pile sizes
S_SS_USED = 28  # 5 flags
S_ROTATED = 33  # 5: -1 not decided, 0 kept, 1 rotated
S_TOTALS = 38  # 5
S_PILE_MASK = 43  # card bitmask of every score pile this round
S_ROUND_CARDS = 44  # card bitmask of the cards dealt this round
S_SEEN_EARLIER = 45  # 5: 2 players, the earlier round's cards each seat was dealt or saw
S_SHOWN_EARLIER = 50  # 2 players, the earlier round's cards that were shown
S_REASONS = 51  # 5: per completed round, REASON_* code (-1: not played)
S_EXEMPT = 56  # 5: per completed round, the exempt seat (-1: none)
S_OUTCOME = 61  # of the last play: OUT_*
S_NEXT_READY = 62  # the slot's next game is drawn into deals[i, 1]
S_NEXT_FIRST = 63  # its round 1 start seat
S_STAGE = 64  # batch API: catalogue stage of the pending decision (0 main, 1 Scout & Show stage 2)
S_PEND_END = 65  # stage 2: the scout chosen at stage 1
S_PEND_FLIP = 66
S_PEND_POS = 67
S_ERROR = 68  # 1 when a game ended without a next game drawn ahead
N_SCALARS = 69

PH_ROTATE, PH_PLAY, PH_OVER = 0, 1, 2
#: Round-end reason codes: indices into :data:`seers_env.scout.rulings.REASONS`.
REASON_A, REASON_B, REASON_TRUNCATED = 0, 1, 2
assert rulings.REASONS[REASON_A] == rulings.REASON_WENT_OUT and rulings.REASONS[REASON_B] == rulings.REASON_UNBEATEN
assert rulings.REASONS[REASON_TRUNCATED] == rulings.REASON_TRUNCATED
#: Outcomes of :func:`apply_key` (``scal[i, S_OUTCOME]``).
OUT_NOTHING, OUT_ROUND, OUT_GAME_OVER = 0, 1, 2

#: ``FIRST_PLAYER`` codes of :attr:`ScoutConfig.first_player`.
FIRST_PLAYER_CODES = {name: k for k, name in enumerate(rulings.FIRST_PLAYER_CHOICES)}

# --- tables (frozen into compiled code) -------------------------------------------------------------
VALUE = np.array(FACE_VALUE, np.int64)
BOTTOM = np.array(FACE_BOTTOM, np.int64)
#: Per player count: hand size, chips at round start, cards dealt per round; in-play card bitmask.
HAND_SIZE = np.array([0, 0] + [SETUP[n].hand_size for n in range(2, 6)], np.int64)
CHIPS_AT_START = np.array([0, 0] + [SETUP[n].chips_at_start for n in range(2, 6)], np.int64)
CARDS_PER_ROUND = np.array([0, 0] + [SETUP[n].cards_per_round for n in range(2, 6)], np.int64)
IN_PLAY_MASK = np.array([0, 0] + [sum(1 << c for c in SETUP[n].in_play) for n in range(2, 6)], np.int64)
#: ``CARD_HAS[c, v]``: 1 when card ``c`` carries number ``v`` (1..10).
CARD_HAS = np.zeros((N_CARDS, 11), np.int64)
for _c, (_a, _b) in enumerate(CARD_NUMBERS):
    CARD_HAS[_c, _a] = CARD_HAS[_c, _b] = 1
del _c, _a, _b

# observation offsets (seers_env.scout.observation.OBSERVATION_LAYOUT)
O_HAND, O_ACTIVE, O_ACTIVE_SHAPE, O_ACTIVE_OWNER = OFFSETS["hand"], OFFSETS["active"], OFFSETS["active_shape"], \
    OFFSETS["active_owner"]
O_HAND_SIZES, O_PILE_SIZES, O_PILE_CARDS, O_UNSEEN = OFFSETS["hand_sizes"], OFFSETS["pile_sizes"], \
    OFFSETS["pile_cards"], OFFSETS["unseen"]
O_CHIPS, O_SS_USED, O_KNOWN_SLOTS, O_KNOWN_CARDS = OFFSETS["chips"], OFFSETS["scout_show_used"], \
    OFFSETS["known_slots"], OFFSETS["known_cards"]
O_TOTALS, O_LAST_ROUND, O_ROUND, O_PHASE, O_CURRENT = OFFSETS["totals"], OFFSETS["last_round"], OFFSETS["round"], \
    OFFSETS["phase"], OFFSETS["current"]
O_START, O_N_PLAYERS, O_TURNS, O_STAGE = OFFSETS["start_player"], OFFSETS["n_players"], OFFSETS["turns"], \
    OFFSETS["stage"]
O_PENDING_CARD, O_PENDING_SLOT, O_PENDING_END, O_CONFIG = OFFSETS["pending_card"], OFFSETS["pending_slot"], \
    OFFSETS["pending_end"], OFFSETS["config_flags"]
_SCALE_COUNT = 11.0
_SCALE_SCORE = 20.0

NO_SET = -1


# --- play keys -------------------------------------------------------------------------------------------

def play_key(play: Sequence[int]) -> int:
    """The int64 play key of a :class:`~seers_env.scout.plays.ScoutPlay` (module docstring)."""
    kind, end, flip, position, start, length = (int(v) for v in play)
    return kind << 20 | end << 19 | flip << 18 | position << 12 | start << 6 | length


def play_of_key(key: int) -> ScoutPlay:
    """The :class:`~seers_env.scout.plays.ScoutPlay` of a play key (inverse of :func:`play_key`)."""
    key = int(key)
    return ScoutPlay(key >> 20, key >> 19 & 1, key >> 18 & 1, key >> 12 & 63, key >> 6 & 63, key & 63)


def plays_of_keys(keys: np.ndarray) -> np.ndarray:
    """int64 ``(R, 6)``: the play fields ``(kind, end, flip, position, start, length)`` of each key."""
    k = np.asarray(keys, np.int64)
    return np.stack([k >> 20, k >> 19 & 1, k >> 18 & 1, k >> 12 & 63, k >> 6 & 63, k & 63], axis=1)


@njit(cache=True, inline="always")
def _key(kind, end, flip, position, start, length):
    return kind << 20 | end << 19 | flip << 18 | position << 12 | start << 6 | length


# --- segments (seers_env.scout.moves, on value arrays) --------------------------------------------------

@njit(cache=True)
def extents(v, n, ext, step):
    """``ext[s]``: length of the longest valid segment of ``v[:n]`` from ``s``; ``step[s]`` its step (0 set,
    +1 / -1 run; 0 when ``ext[s] == 1``) (``moves._extents``)."""
    for s in range(n):
        ext[s] = 1
        step[s] = 0
    for s in range(n - 2, -1, -1):
        d = v[s + 1] - v[s]
        if -1 <= d <= 1:
            step[s] = d
            if ext[s + 1] > 1 and step[s + 1] == d:
                ext[s] = ext[s + 1] + 1
            else:
                ext[s] = 2


@njit(cache=True, inline="always")
def segment_key(v, s, length, st):
    """Strength key of the valid segment ``v[s:s+length]`` with step ``st`` (``moves._segment_key``)."""
    if length == 1:
        return 48 | v[s]
    if st == 0:
        return ((length * 2 + 1) << 4) | v[s]
    if st > 0:
        return ((length * 2) << 4) | v[s]
    return ((length * 2) << 4) | v[s + length - 1]


@njit(cache=True)
def faces_key(faces, n):
    """:func:`seers_env.scout.moves.set_key` of the valid set or run ``faces[:n]`` (face codes)."""
    if n == 0:
        return NO_SET
    v0 = VALUE[faces[0]]
    if n == 1:
        return 48 | v0
    d = VALUE[faces[1]] - v0
    if d == 0:
        return ((n * 2 + 1) << 4) | v0
    vl = VALUE[faces[n - 1]]
    return ((n * 2) << 4) | (v0 if v0 < vl else vl)


@njit(cache=True)
def show_segments(v, n, beat, ext, step, starts, lengths):
    """Every ``(start, length)`` of a valid segment of ``v[:n]`` stronger than key ``beat``, sorted, into
    ``starts`` / ``lengths``; returns their number (``moves.show_segments``). Fills ``ext``/``step``."""
    extents(v, n, ext, step)
    min_len = 1
    if beat >= 0:
        min_len = beat >> 5
        if min_len < 1:
            min_len = 1
    k = 0
    for s in range(n):
        e = ext[s]
        if e < min_len:
            continue
        length = min_len
        if beat >= 0 and length == beat >> 5 and segment_key(v, s, length, step[s]) <= beat:
            length += 1
        for L in range(length, e + 1):
            starts[k] = s
            lengths[k] = L
            k += 1
    return k


@njit(cache=True)
def can_show(v, n, beat, ext, step):
    """Whether ``v[:n]`` holds a valid segment stronger than key ``beat`` (``moves.can_show``)."""
    if beat < 0:
        return n > 0
    extents(v, n, ext, step)
    for s in range(n):
        if segment_key(v, s, ext[s], step[s]) > beat:
            return True
    return False


@njit(cache=True, inline="always")
def _reach(v, n, pos, c, st):
    """Cards left and right of the value ``c`` inserted at ``pos`` into ``v[:n]`` that continue it with
    step ``st`` (0: equal values; +1 ascending; -1 descending): ``(left, right)``."""
    left = 0
    while pos - 1 - left >= 0 and v[pos - 1 - left] == c - st * (left + 1):
        left += 1
    right = 0
    while pos + right < n and v[pos + right] == c + st * (right + 1):
        right += 1
    return left, right


@njit(cache=True)
def inner_beats(v, n, pos, c, beat):
    """Whether some valid segment of ``v[:n]`` with ``c`` inserted at ``pos`` that contains it (other than
    the card alone) beats ``beat``: the longest one of each step is the strongest."""
    for k in range(3):
        st = 0 if k == 0 else (1 if k == 1 else -1)
        left, right = _reach(v, n, pos, c, st)
        if left + right == 0:
            continue
        length = left + right + 1
        if st == 0:
            low = c
        elif st > 0:
            low = c - left
        else:
            low = c - right
        if ((((length * 2) | (1 if st == 0 else 0)) << 4) | low) > beat:
            return True
    return False


@njit(cache=True)
def containing(v, n, pos, c, beat, starts, lengths, k):
    """Append to ``starts``/``lengths`` from index ``k`` the segments of ``moves._containing``: valid
    segments of ``v[:n]`` with ``c`` inserted at ``pos`` that contain it and beat ``beat``, except the card
    alone, in that function's order. Returns the new count."""
    for kk in range(3):
        st = 0 if kk == 0 else (1 if kk == 1 else -1)
        left, right = _reach(v, n, pos, c, st)
        if left == 0 and right == 0:
            continue
        is_set = 1 if st == 0 else 0
        for a in range(left + 1):
            for b in range(right + 1):
                if a + b == 0:
                    continue
                length = a + b + 1
                if st == 0:
                    low = c
                elif st > 0:
                    low = c - a
                else:
                    low = c - b
                if ((((length * 2) | is_set) << 4) | low) > beat:
                    starts[k] = pos - a
                    lengths[k] = length
                    k += 1
    return k


@njit(cache=True)
def new_work():
    """Scratch buffers of one thread: ``(iw, big)``: int64 ``(8, 64)`` rows (values, extents, steps,
    segment lists) and int64 ``(4, 2048)`` (show segment lists of a long hand); uninitialised, every
    user writes what it reads."""
    return np.empty((8, 64), np.int64), np.empty((4, 2048), np.int64)


# --- reading a slot ---------------------------------------------------------------------------------------

@njit(cache=True)
def hand_values(hands, scal, i, seat, v):
    """Top numbers of ``seat``'s hand into ``v``; returns the hand size."""
    n = scal[i, S_HLEN + seat]
    for k in range(n):
        v[k] = VALUE[hands[i, seat, k]]
    return n


@njit(cache=True)
def active_key(active, scal, i):
    return faces_key(active[i], scal[i, S_ALEN])


@njit(cache=True)
def rest_key(active, scal, i, end):
    """Strength key of the Active Set without its ``end`` card (0 left, 1 right)."""
    alen = scal[i, S_ALEN]
    if alen <= 1:
        return NO_SET
    if end == 0:
        return faces_key(active[i, 1:], alen - 1)
    return faces_key(active[i], alen - 1)


@njit(cache=True, inline="always")
def _scout_face(active, scal, i, end, flip):
    alen = scal[i, S_ALEN]
    f = active[i, 0] if end == 0 else active[i, alen - 1]
    return np.int64(f) ^ flip


@njit(cache=True, inline="always")
def _turn_options(scal, i, seat):
    """``(scout, scout_show, stop)`` availability (``ScoutGame._turn_options``)."""
    alen = scal[i, S_ALEN]
    if scal[i, S_N] == 2:
        return scal[i, S_CHIPS + seat] > 0, False, scal[i, S_MAY_STOP] != 0 and alen > 0
    return True, scal[i, S_SS_USED + seat] == 0, False


# --- legal plays (the engine's documented order) ----------------------------------------------------------

@njit(cache=True)
def _push(buf, k, key):
    if k >= buf.shape[0]:
        nb = np.empty(2 * buf.shape[0], np.int64)
        nb[:k] = buf[:k]
        buf = nb
    buf[k] = key
    return buf


@njit(cache=True)
def legal_keys(hands, active, scal, i):
    """Play keys of every legal play of the seat to act in slot ``i``, in the engine's order (a new int64
    array; empty once the game is over)."""
    iw, big = new_work()
    return legal_keys_with(hands, active, scal, i, iw, big)


@njit(cache=True)
def legal_keys_with(hands, active, scal, i, iw, big):
    """:func:`legal_keys` with the scratch buffers of :func:`new_work`."""
    buf = np.empty(256, np.int64)
    k = 0
    phase = scal[i, S_PHASE]
    if phase == PH_OVER:
        return buf[:0].copy()
    if phase == PH_ROTATE:
        buf[0] = _key(KEEP, 0, 0, 0, 0, 0)
        buf[1] = _key(ROTATE, 0, 0, 0, 0, 0)
        return buf[:2].copy()
    seat = scal[i, S_CURRENT]
    v, ext, step = iw[0], iw[1], iw[2]
    n = hand_values(hands, scal, i, seat, v)
    alen = scal[i, S_ALEN]
    beat = active_key(active, scal, i)
    starts, lengths = big[0], big[1]
    ns = show_segments(v, n, beat, ext, step, starts, lengths)
    for j in range(ns):
        buf = _push(buf, k, _key(SHOW, 0, 0, 0, starts[j], lengths[j]))
        k += 1
    scout, scout_show, stop = _turn_options(scal, i, seat)
    if alen > 0:
        n_ends = 1 if alen == 1 else 2
        if scout:
            for e in range(n_ends):
                for f in range(2):
                    for p in range(n + 1):
                        buf = _push(buf, k, _key(SCOUT, e, f, p, 0, 0))
                        k += 1
        if scout_show:
            m_s, m_l = big[2], big[3]
            for e in range(n_ends):
                beat_e = rest_key(active, scal, i, e)
                nb = show_segments(v, n, beat_e, ext, step, starts, lengths)
                for f in range(2):
                    c = VALUE[_scout_face(active, scal, i, e, f)]
                    alone = (48 | c) > beat_e
                    i_base = 0
                    for pos in range(n + 1):
                        while i_base < nb and starts[i_base] < pos:
                            i_base += 1
                        m = 0
                        for j in range(i_base):
                            if starts[j] + lengths[j] < pos:
                                m_s[m] = starts[j]
                                m_l[m] = lengths[j]
                                m += 1
                        n_left = m
                        m = containing(v, n, pos, c, beat_e, m_s, m_l, m)
                        if pos == 0 and alone:
                            m_s[m] = 0
                            m_l[m] = 1
                            m += 1
                        if m > n_left:  # sort the merged list by (start, length)
                            for a in range(1, m):
                                ks, kl = m_s[a], m_l[a]
                                b = a - 1
                                while b >= 0 and (m_s[b] > ks or (m_s[b] == ks and m_l[b] > kl)):
                                    m_s[b + 1] = m_s[b]
                                    m_l[b + 1] = m_l[b]
                                    b -= 1
                                m_s[b + 1] = ks
                                m_l[b + 1] = kl
                        for j in range(m):
                            buf = _push(buf, k, _key(SCOUT_SHOW, e, f, pos, m_s[j], m_l[j]))
                            k += 1
                        for j in range(i_base, nb):
                            buf = _push(buf, k, _key(SCOUT_SHOW, e, f, pos, starts[j] + 1, lengths[j]))
                            k += 1
    if stop:
        buf = _push(buf, k, _key(STOP, 0, 0, 0, 0, 0))
        k += 1
    return buf[:k].copy()


@njit(cache=True)
def scout_show_exists(v, n, pos, c, beat_e, alone, min_end, max_start):
    """Whether the scout of value ``c`` into ``pos`` is listed with at least one canonical show: a show of
    the hand left of ``pos`` not ending at it (``min_end < pos``), one right of it (``max_start >= pos``),
    one containing the card, or the card alone at position 0."""
    if min_end < pos or max_start >= pos:
        return True
    if pos == 0 and alone:
        return True
    return inner_beats(v, n, pos, c, beat_e)


@njit(cache=True)
def write_mask(hands, active, scal, i, mask, iw, big):
    """``mask`` (int8 ``(N_ACTIONS,)``) = the catalogue action mask of slot ``i``'s pending decision
    (:class:`seers_env.scout.actions.ScoutDecision`): its main stage, or stage 2 of a Scout & Show whose
    scout is ``scal[i, S_PEND_*]``."""
    mask[:] = 0
    phase = scal[i, S_PHASE]
    if phase == PH_OVER:
        return
    if phase == PH_ROTATE:
        mask[KEEP_ACTION] = 1
        mask[ROTATE_ACTION] = 1
        return
    seat = scal[i, S_CURRENT]
    v, ext, step = iw[0], iw[1], iw[2]
    n = hand_values(hands, scal, i, seat, v)
    starts, lengths = big[0], big[1]
    if scal[i, S_STAGE] == 1:
        e, f, pos = scal[i, S_PEND_END], scal[i, S_PEND_FLIP], scal[i, S_PEND_POS]
        beat_e = rest_key(active, scal, i, e)
        c = VALUE[_scout_face(active, scal, i, e, f)]
        nb = show_segments(v, n, beat_e, ext, step, starts, lengths)
        for j in range(nb):
            s, L = starts[j], lengths[j]
            if s >= pos:
                mask[SHOW_BASE + (s + 1) * H + L - 1] = 1
            elif s + L < pos:
                mask[SHOW_BASE + s * H + L - 1] = 1
        m_s, m_l = big[2], big[3]
        m = containing(v, n, pos, c, beat_e, m_s, m_l, 0)
        for j in range(m):
            mask[SHOW_BASE + m_s[j] * H + m_l[j] - 1] = 1
        if pos == 0 and (48 | c) > beat_e:
            mask[SHOW_BASE] = 1
        return
    alen = scal[i, S_ALEN]
    beat = active_key(active, scal, i)
    ns = show_segments(v, n, beat, ext, step, starts, lengths)
    for j in range(ns):
        mask[SHOW_BASE + starts[j] * H + lengths[j] - 1] = 1
    if alen == 0:
        return
    scout, scout_show, stop = _turn_options(scal, i, seat)
    n_ends = 1 if alen == 1 else 2
    if scout:
        for e in range(n_ends):
            for f in range(2):
                base = SCOUT_BASE + (2 * e + f) * N_POSITIONS
                for p in range(n + 1):
                    mask[base + p] = 1
    if scout_show:
        for e in range(n_ends):
            beat_e = rest_key(active, scal, i, e)
            nb = show_segments(v, n, beat_e, ext, step, starts, lengths)
            min_end = n + 1
            max_start = -1
            for j in range(nb):
                if starts[j] + lengths[j] < min_end:
                    min_end = starts[j] + lengths[j]
                if starts[j] > max_start:
                    max_start = starts[j]
            for f in range(2):
                c = VALUE[_scout_face(active, scal, i, e, f)]
                alone = (48 | c) > beat_e
                base = SCOUT_SHOW_BASE + (2 * e + f) * N_POSITIONS
                for p in range(n + 1):
                    if scout_show_exists(v, n, p, c, beat_e, alone, min_end, max_start):
                        mask[base + p] = 1
    if stop:
        mask[STOP_ACTION] = 1


@njit(cache=True)
def _show_ok(v, n, s, L, beat, ext, step):
    """Whether ``v[s:s+L]`` (of ``v[:n]``) is a valid segment stronger than ``beat``."""
    if s < 0 or L < 1 or s + L > n:
        return False
    if L == 1:
        return (48 | v[s]) > beat
    d = v[s + 1] - v[s]
    if d < -1 or d > 1:
        return False
    for k in range(s + 1, s + L - 1):
        if v[k + 1] - v[k] != d:
            return False
    return segment_key(v, s, L, d) > beat


@njit(cache=True)
def action_allowed(hands, active, scal, i, a, iw, big):
    """Whether catalogue action ``a`` is allowed in slot ``i``'s pending decision (what
    :func:`write_mask` writes, checked directly). Changes nothing."""
    if a < 0 or a >= N_ACTIONS:
        return False
    phase = scal[i, S_PHASE]
    if phase == PH_OVER:
        return False
    if phase == PH_ROTATE:
        return a == KEEP_ACTION or a == ROTATE_ACTION
    seat = scal[i, S_CURRENT]
    v, ext, step = iw[0], iw[1], iw[2]
    n = hand_values(hands, scal, i, seat, v)
    alen = scal[i, S_ALEN]
    if scal[i, S_STAGE] == 1:
        if a >= SHOW_BASE + N_SHOW:
            return False
        s = (a - SHOW_BASE) // H
        L = (a - SHOW_BASE) % H + 1
        e, f, pos = scal[i, S_PEND_END], scal[i, S_PEND_FLIP], scal[i, S_PEND_POS]
        face = _scout_face(active, scal, i, e, f)
        for k in range(n, pos, -1):
            v[k] = v[k - 1]
        v[pos] = VALUE[face]
        if not _show_ok(v, n + 1, s, L, rest_key(active, scal, i, e), ext, step):
            return False
        if L == 1 and s == pos and pos > 0:  # the card alone is listed at position 0 only
            return False
        return s + L != pos  # a segment ending just before the kept card is listed with it inserted left
    if a < SHOW_BASE + N_SHOW:
        s = (a - SHOW_BASE) // H
        L = (a - SHOW_BASE) % H + 1
        return _show_ok(v, n, s, L, active_key(active, scal, i), ext, step)
    if a == KEEP_ACTION or a == ROTATE_ACTION:
        return False
    scout, scout_show, stop = _turn_options(scal, i, seat)
    if a == STOP_ACTION:
        return stop
    if alen == 0:
        return False
    is_ss = a >= SCOUT_SHOW_BASE
    off = a - (SCOUT_SHOW_BASE if is_ss else SCOUT_BASE)
    ef = off // N_POSITIONS
    p = off % N_POSITIONS
    e = ef // 2
    f = ef % 2
    if (e == 1 and alen == 1) or p > n:
        return False
    if not is_ss:
        return scout
    if not scout_show:
        return False
    beat_e = rest_key(active, scal, i, e)
    starts, lengths = big[0], big[1]
    nb = show_segments(v, n, beat_e, ext, step, starts, lengths)
    min_end = n + 1
    max_start = -1
    for j in range(nb):
        if starts[j] + lengths[j] < min_end:
            min_end = starts[j] + lengths[j]
        if starts[j] > max_start:
            max_start = starts[j]
    c = VALUE[_scout_face(active, scal, i, e, f)]
    return scout_show_exists(v, n, p, c, beat_e, (48 | c) > beat_e, min_end, max_start)


@njit(cache=True)
def key_legal(hands, active, scal, i, key):
    """Whether play key ``key`` is one of :func:`legal_keys` (checked directly). Changes nothing."""
    iw, big = new_work()
    kind = key >> 20
    e, f, p, s, L = key >> 19 & 1, key >> 18 & 1, key >> 12 & 63, key >> 6 & 63, key & 63
    if key < 0 or kind > STOP or key != _key(kind, e, f, p, s, L):
        return False
    phase = scal[i, S_PHASE]
    if phase == PH_OVER:
        return False
    if kind == KEEP or kind == ROTATE:
        return phase == PH_ROTATE and key == _key(kind, 0, 0, 0, 0, 0)
    if phase == PH_ROTATE:
        return False
    if kind == SHOW:
        return e == 0 and f == 0 and p == 0 and action_allowed(hands, active, scal, i, SHOW_BASE + s * H + L - 1,
                                                                  iw, big) and s + L <= H
    if kind == STOP:
        return key == _key(STOP, 0, 0, 0, 0, 0) and action_allowed(hands, active, scal, i, STOP_ACTION, iw, big)
    if p > H:
        return False
    if kind == SCOUT:
        return s == 0 and L == 0 and action_allowed(hands, active, scal, i, SCOUT_BASE + (2 * e + f) * N_POSITIONS + p,
                                                    iw, big)
    # SCOUT_SHOW: the stage-2 check with the scout as pending
    if L < 1 or s + L > H or not action_allowed(hands, active, scal, i, SCOUT_SHOW_BASE + (2 * e + f) * N_POSITIONS + p,
                                                iw, big):
        return False
    old = (scal[i, S_STAGE], scal[i, S_PEND_END], scal[i, S_PEND_FLIP], scal[i, S_PEND_POS])
    scal[i, S_STAGE] = 1
    scal[i, S_PEND_END] = e
    scal[i, S_PEND_FLIP] = f
    scal[i, S_PEND_POS] = p
    ok = action_allowed(hands, active, scal, i, SHOW_BASE + s * H + L - 1, iw, big)
    scal[i, S_STAGE], scal[i, S_PEND_END], scal[i, S_PEND_FLIP], scal[i, S_PEND_POS] = old
    return ok


# --- transitions ------------------------------------------------------------------------------------------

@njit(cache=True)
def open_round(hands, scouted, active, scal, deals, i, r):
    """Deal round ``r`` from ``deals[i, 0, r]`` and open its rotation phase (``ScoutGame._deal_round``)."""
    n = scal[i, S_N]
    size = HAND_SIZE[n]
    mask = 0
    for s in range(n):
        scal[i, S_HLEN + s] = size
        for k in range(size):
            f = deals[i, 0, r, s * size + k]
            hands[i, s, k] = f
            scouted[i, s, k] = 0
            mask |= np.int64(1) << (f >> 1)
    for s in range(n, MAX_SEATS):
        scal[i, S_HLEN + s] = 0
    scal[i, S_ROUND_CARDS] = mask
    scal[i, S_ROUND] = r
    scal[i, S_START] = (scal[i, S_FIRST] + r) % n
    scal[i, S_ALEN] = 0
    scal[i, S_OWNER] = -1
    scal[i, S_PILE_MASK] = 0
    for s in range(MAX_SEATS):
        scal[i, S_PILE + s] = 0
        scal[i, S_CHIPS + s] = CHIPS_AT_START[n] if s < n else 0
        scal[i, S_SS_USED + s] = 0
        scal[i, S_ROTATED + s] = -1
    scal[i, S_TURNS] = 0
    scal[i, S_PHASE] = PH_ROTATE
    scal[i, S_CURRENT] = 0
    scal[i, S_STAGE] = 0


@njit(cache=True)
def install_next_game(hands, scouted, active, scal, scores, deals, i):
    """Start the slot's next game (drawn ahead into ``deals[i, 1]``); sets ``S_ERROR`` when none is."""
    if not scal[i, S_NEXT_READY]:
        scal[i, S_ERROR] = 1
        scal[i, S_PHASE] = PH_OVER
        return
    deals[i, 0] = deals[i, 1]
    scal[i, S_NEXT_READY] = 0
    scal[i, S_FIRST] = scal[i, S_NEXT_FIRST]
    for s in range(MAX_SEATS):
        scal[i, S_TOTALS + s] = 0
        scal[i, S_SEEN_EARLIER + s] = 0
        scal[i, S_REASONS + s] = -1
        scal[i, S_EXEMPT + s] = -1
    scal[i, S_SHOWN_EARLIER] = 0
    scores[i] = 0
    open_round(hands, scouted, active, scal, deals, i, 0)


@njit(cache=True)
def _remember_round(hands, scouted, active, scal, i):
    """2 players (section 10 [ruling]): each seat keeps the round's cards it was dealt or saw shown."""
    n = scal[i, S_N]
    shown = scal[i, S_PILE_MASK]
    for k in range(scal[i, S_ALEN]):
        shown |= np.int64(1) << (active[i, k] >> 1)
    for s in range(n):
        for k in range(scal[i, S_HLEN + s]):
            if scouted[i, s, k]:
                shown |= np.int64(1) << (hands[i, s, k] >> 1)
    for seat in range(n):
        hidden = np.int64(0)
        for o in range(n):
            if o != seat:
                for k in range(scal[i, S_HLEN + o]):
                    if not scouted[i, o, k]:
                        hidden |= np.int64(1) << (hands[i, o, k] >> 1)
        scal[i, S_SEEN_EARLIER + seat] |= scal[i, S_ROUND_CARDS] & ~hidden
    scal[i, S_SHOWN_EARLIER] |= shown


@njit(cache=True)
def end_round(hands, scouted, active, scal, scores, deals, i, reason, exempt):
    """Score the round (section 8), then deal the next one or end the game (``ScoutGame._end_round``)."""
    n = scal[i, S_N]
    r = scal[i, S_ROUND]
    for s in range(n):
        sc = scal[i, S_PILE + s] + scal[i, S_CHIPS + s] - (0 if s == exempt else scal[i, S_HLEN + s])
        scores[i, r, s] = sc
        scal[i, S_TOTALS + s] += sc
    scal[i, S_REASONS + r] = reason
    scal[i, S_EXEMPT + r] = exempt
    scal[i, S_STAGE] = 0
    if r + 1 >= scal[i, S_ROUNDS]:
        scal[i, S_PHASE] = PH_OVER
        scal[i, S_OUTCOME] = OUT_GAME_OVER
        return
    if n == 2:
        _remember_round(hands, scouted, active, scal, i)
    open_round(hands, scouted, active, scal, deals, i, r + 1)
    scal[i, S_OUTCOME] = OUT_ROUND


@njit(cache=True)
def _two_player_stuck(hands, active, scal, i, iw):
    """Section 7(b): the seat to act has no chips and no show beats the (non-empty) Active Set."""
    seat = scal[i, S_CURRENT]
    if scal[i, S_ALEN] == 0 or scal[i, S_CHIPS + seat] != 0:
        return False
    v = iw[0]
    n = hand_values(hands, scal, i, seat, v)
    return not can_show(v, n, active_key(active, scal, i), iw[1], iw[2])


@njit(cache=True)
def _take_segment_to_active(hands, scouted, active, scal, i, seat, start, length):
    """Section 4 effect: the old Active Set to ``seat``'s pile, ``hand[start:start+length]`` the new one."""
    alen = scal[i, S_ALEN]
    pm = scal[i, S_PILE_MASK]
    for k in range(alen):
        pm |= np.int64(1) << (active[i, k] >> 1)
    scal[i, S_PILE_MASK] = pm
    scal[i, S_PILE + seat] += alen
    n = scal[i, S_HLEN + seat]
    for k in range(length):
        active[i, k] = hands[i, seat, start + k]
    for k in range(start + length, n):
        hands[i, seat, k - length] = hands[i, seat, k]
        scouted[i, seat, k - length] = scouted[i, seat, k]
    scal[i, S_HLEN + seat] = n - length
    scal[i, S_ALEN] = length
    scal[i, S_OWNER] = seat


@njit(cache=True)
def _scout_card(hands, scouted, active, scal, i, seat, end, flip, position):
    """Section 5: one end card of the Active Set into ``seat``'s hand; the chip is paid."""
    alen = scal[i, S_ALEN]
    if end == 0:
        face = np.int64(active[i, 0])
        for k in range(1, alen):
            active[i, k - 1] = active[i, k]
    else:
        face = np.int64(active[i, alen - 1])
    scal[i, S_ALEN] = alen - 1
    face ^= flip
    n = scal[i, S_HLEN + seat]
    for k in range(n, position, -1):
        hands[i, seat, k] = hands[i, seat, k - 1]
        scouted[i, seat, k] = scouted[i, seat, k - 1]
    hands[i, seat, position] = face
    scouted[i, seat, position] = 1
    scal[i, S_HLEN + seat] = n + 1
    if scal[i, S_N] == 2:
        scal[i, S_CHIPS + seat] -= 1
    else:
        scal[i, S_CHIPS + scal[i, S_OWNER]] += 1


@njit(cache=True)
def _after_show(hands, active, scal, i, seat, iw):
    """Round end (a), or the next seat; 2 players: the 7(b) test. Returns ``(reason, exempt)``, reason -1
    when the round goes on."""
    if scal[i, S_HLEN + seat] == 0:
        return REASON_A, seat
    n = scal[i, S_N]
    if n == 2:
        scal[i, S_CURRENT] = 1 - seat
        if _two_player_stuck(hands, active, scal, i, iw):
            return REASON_B, scal[i, S_OWNER]
        return -1, -1
    scal[i, S_CURRENT] = (seat + 1) % n
    return -1, -1


@njit(cache=True)
def apply_key(hands, scouted, active, scal, scores, deals, i, key, iw):
    """Make the legal play ``key`` (not checked here) for the seat to act in slot ``i``
    (``ScoutGame.apply``); returns the outcome (``OUT_*``, also in ``scal[i, S_OUTCOME]``). A round that
    ends is scored and the next one dealt from ``deals``; a game that ends leaves ``phase == PH_OVER``."""
    scal[i, S_OUTCOME] = OUT_NOTHING
    scal[i, S_STAGE] = 0
    kind = key >> 20
    e, f, p, s, L = key >> 19 & 1, key >> 18 & 1, key >> 12 & 63, key >> 6 & 63, key & 63
    seat = scal[i, S_CURRENT]
    n = scal[i, S_N]
    if kind == KEEP or kind == ROTATE:
        if kind == ROTATE:  # section 2 [ruling]: reverse and flip
            m = scal[i, S_HLEN + seat]
            for k in range(m // 2):
                a, b = hands[i, seat, k], hands[i, seat, m - 1 - k]
                hands[i, seat, k], hands[i, seat, m - 1 - k] = b ^ 1, a ^ 1
                x, y = scouted[i, seat, k], scouted[i, seat, m - 1 - k]
                scouted[i, seat, k], scouted[i, seat, m - 1 - k] = y, x
            if m % 2:
                hands[i, seat, m // 2] ^= 1
        scal[i, S_ROTATED + seat] = 1 if kind == ROTATE else 0
        if seat + 1 < n:
            scal[i, S_CURRENT] = seat + 1
        else:
            scal[i, S_PHASE] = PH_PLAY
            scal[i, S_CURRENT] = scal[i, S_START]
        return OUT_NOTHING
    scal[i, S_TURNS] += 1
    reason, exempt = -1, -1
    if kind == SHOW:
        _take_segment_to_active(hands, scouted, active, scal, i, seat, s, L)
        reason, exempt = _after_show(hands, active, scal, i, seat, iw)
    elif kind == SCOUT:
        _scout_card(hands, scouted, active, scal, i, seat, e, f, p)
        if n == 2:
            if _two_player_stuck(hands, active, scal, i, iw):
                reason, exempt = REASON_B, scal[i, S_OWNER]
        else:
            nxt = (seat + 1) % n
            if nxt == scal[i, S_OWNER]:  # 6(b), also with the set emptied
                reason, exempt = REASON_B, scal[i, S_OWNER]
            else:
                scal[i, S_CURRENT] = nxt
    elif kind == SCOUT_SHOW:
        _scout_card(hands, scouted, active, scal, i, seat, e, f, p)
        scal[i, S_SS_USED + seat] = 1
        _take_segment_to_active(hands, scouted, active, scal, i, seat, s, L)
        reason, exempt = _after_show(hands, active, scal, i, seat, iw)
    else:  # STOP: ends the round as 7(b)
        reason, exempt = REASON_B, scal[i, S_OWNER]
    if reason < 0 and scal[i, S_TURNS] >= scal[i, S_MAX_TURNS]:
        reason, exempt = REASON_TRUNCATED, -1
    if reason >= 0:
        end_round(hands, scouted, active, scal, scores, deals, i, reason, exempt)
    return scal[i, S_OUTCOME]


# --- observation (seers_env.scout.observation.observe) ------------------------------------------------------

@njit(cache=True)
def unseen_mask(hands, scouted, active, scal, i, seat):
    """Card bitmask of :meth:`ScoutSeatView.unseen_cards` of ``seat``."""
    n = scal[i, S_N]
    seen = scal[i, S_PILE_MASK] | scal[i, S_SEEN_EARLIER + seat] | scal[i, S_SHOWN_EARLIER]
    for k in range(scal[i, S_ALEN]):
        seen |= np.int64(1) << (active[i, k] >> 1)
    for s in range(n):
        own = s == seat
        for k in range(scal[i, S_HLEN + s]):
            if own or scouted[i, s, k]:
                seen |= np.int64(1) << (hands[i, s, k] >> 1)
    universe = IN_PLAY_MASK[2] if n == 2 else scal[i, S_ROUND_CARDS]
    return universe & ~seen


@njit(cache=True, inline="always")
def _put_face(row, off, f):
    row[off] = VALUE[f] / 10.0
    row[off + 1] = BOTTOM[f] / 10.0


@njit(cache=True)
def write_obs(hands, scouted, active, scal, scores, i, seat, stage, pe, pf, pp, row):
    """``row`` (float32 ``(OBS_DIM,)``) = :func:`seers_env.scout.observation.observe` of ``seat`` in slot
    ``i``; ``stage == 1``: at stage 2 of a Scout & Show whose scout is ``(pe, pf, pp)`` (the seat must be
    to act)."""
    row[:] = 0.0
    n = scal[i, S_N]
    phase = scal[i, S_PHASE]
    to_act = phase != PH_OVER and scal[i, S_CURRENT] == seat
    hl = scal[i, S_HLEN + seat]
    alen = scal[i, S_ALEN]
    # own hand and the Active Set (stage 2: after the scout)
    if stage == 1:
        face = _scout_face(active, scal, i, pe, pf)
        for k in range(pp):
            _put_face(row, O_HAND + 2 * k, hands[i, seat, k])
        _put_face(row, O_HAND + 2 * pp, face)
        for k in range(pp, hl):
            _put_face(row, O_HAND + 2 * (k + 1), hands[i, seat, k])
        lo = 1 if pe == 0 else 0
        na = alen - 1
        for k in range(na):
            _put_face(row, O_ACTIVE + 2 * k, active[i, lo + k])
        akey = faces_key(active[i, lo:], na)
    else:
        for k in range(hl):
            _put_face(row, O_HAND + 2 * k, hands[i, seat, k])
        for k in range(alen):
            _put_face(row, O_ACTIVE + 2 * k, active[i, k])
        na = alen
        akey = faces_key(active[i], alen)
    if na > 0:
        row[O_ACTIVE_SHAPE] = na / 10.0
        row[O_ACTIVE_SHAPE + 1] = float((akey >> 4) & 1)
        row[O_ACTIVE_SHAPE + 2] = (akey & 15) / 10.0
    owner = scal[i, S_OWNER]
    if owner >= 0:
        row[O_ACTIVE_OWNER + (owner - seat) % n] = 1.0
    for r in range(n):
        s = (seat + r) % n
        size = scal[i, S_HLEN + s] + (1 if (stage == 1 and s == seat) else 0)
        row[O_HAND_SIZES + r] = size / _SCALE_COUNT
        row[O_PILE_SIZES + r] = scal[i, S_PILE + s] / _SCALE_COUNT
        row[O_CHIPS + r] = min(OBS_BOUND, scal[i, S_CHIPS + s] / 10.0)  # 3-5 players: no chip limit
        row[O_SS_USED + r] = float(scal[i, S_SS_USED + s])
    pm = scal[i, S_PILE_MASK]
    um = unseen_mask(hands, scouted, active, scal, i, seat)
    for c in range(N_CARDS):
        if pm >> c & 1:
            row[O_PILE_CARDS + c] = 1.0
        if um >> c & 1:
            row[O_UNSEEN + c] = 1.0
    public = scal[i, S_PUBLIC] != 0
    for r in range(1, n):
        s = (seat + r) % n
        base = O_KNOWN_SLOTS + (r - 1) * 2 * H
        cbase = O_KNOWN_CARDS + (r - 1) * N_CARDS
        for k in range(scal[i, S_HLEN + s]):
            if scouted[i, s, k]:
                f = hands[i, s, k]
                if public:
                    _put_face(row, base + 2 * k, f)
                row[cbase + (f >> 1)] = 1.0
    rnd = scal[i, S_ROUND]
    scored = rnd + (1 if phase == PH_OVER else 0)
    if scored > 0:
        for r in range(n):
            s = (seat + r) % n
            t = scal[i, S_TOTALS + s] / _SCALE_SCORE
            row[O_TOTALS + r] = max(-OBS_BOUND, min(OBS_BOUND, t))
            row[O_LAST_ROUND + r] = max(-OBS_BOUND, min(OBS_BOUND, scores[i, scored - 1, s] / _SCALE_SCORE))
    n_rounds = scal[i, S_ROUNDS]
    row[O_ROUND] = rnd / n_rounds
    row[O_ROUND + 1] = 1.0 if rnd == n_rounds - 1 else 0.0
    if phase != PH_OVER:
        row[O_PHASE + (0 if phase == PH_ROTATE else 1)] = 1.0
        row[O_CURRENT + (scal[i, S_CURRENT] - seat) % n] = 1.0
    row[O_START + (scal[i, S_START] - seat) % n] = 1.0
    row[O_N_PLAYERS + n - 2] = 1.0
    row[O_TURNS] = scal[i, S_TURNS] / scal[i, S_MAX_TURNS]
    if to_act:
        row[O_STAGE + stage] = 1.0
    if stage == 1:
        face = _scout_face(active, scal, i, pe, pf)
        _put_face(row, O_PENDING_CARD, face)
        row[O_PENDING_SLOT + pp] = 1.0
        row[O_PENDING_END] = float(pe)
    row[O_CONFIG] = float(scal[i, S_PUBLIC])
    row[O_CONFIG + 1] = float(scal[i, S_MAY_STOP])


@njit(cache=True)
def write_decision(hands, scouted, active, scal, scores, i, obs_row, mask_row, iw, big):
    """The acting seat's observation and action mask of slot ``i``'s pending decision."""
    write_mask(hands, active, scal, i, mask_row, iw, big)
    write_obs(hands, scouted, active, scal, scores, i, scal[i, S_CURRENT], scal[i, S_STAGE], scal[i, S_PEND_END],
              scal[i, S_PEND_FLIP], scal[i, S_PEND_POS], obs_row)


# --- the batch API's steps ------------------------------------------------------------------------------------

@njit(cache=True)
def key_of_action(scal, i, a):
    """The play key a catalogue action completes in slot ``i``'s decision, or -1 for a stage-1 Scout & Show
    (the scout is pending). ``a`` must be allowed."""
    if scal[i, S_STAGE] == 1:
        s = (a - SHOW_BASE) // H
        L = (a - SHOW_BASE) % H + 1
        return _key(SCOUT_SHOW, scal[i, S_PEND_END], scal[i, S_PEND_FLIP], scal[i, S_PEND_POS], s, L)
    if a < SHOW_BASE + N_SHOW:
        return _key(SHOW, 0, 0, 0, (a - SHOW_BASE) // H, (a - SHOW_BASE) % H + 1)
    if a == KEEP_ACTION:
        return _key(KEEP, 0, 0, 0, 0, 0)
    if a == ROTATE_ACTION:
        return _key(ROTATE, 0, 0, 0, 0, 0)
    if a == STOP_ACTION:
        return _key(STOP, 0, 0, 0, 0, 0)
    if a >= SCOUT_SHOW_BASE:
        return -1
    off = a - SCOUT_BASE
    ef = off // N_POSITIONS
    return _key(SCOUT, ef // 2, ef % 2, off % N_POSITIONS, 0, 0)


@njit(cache=True)
def first_bad_action(hands, active, scal, actions):
    """Index of the first row whose action its decision does not allow, or -1. Changes nothing."""
    iw, big = new_work()
    for i in range(actions.shape[0]):
        if not action_allowed(hands, active, scal, i, actions[i], iw, big):
            return i
    return -1


@njit(cache=True)
def _placement_rewards(scal, i, out_row):
    """``"win"`` rewards: ``(n + 1 - 2 * place) / (n - 1)``, place by total, ties sharing their mean
    (:func:`seers_env.scout.game.placements`)."""
    n = scal[i, S_N]
    for s in range(n):
        x = scal[i, S_TOTALS + s]
        better = 0
        equal = 0
        for t in range(n):
            y = scal[i, S_TOTALS + t]
            if y > x:
                better += 1
            elif y == x:
                equal += 1
        place = 1 + better + (equal - 1) / 2
        out_row[s] = (n + 1 - 2 * place) / (n - 1)


@njit(cache=True)
def _apply_row(hands, scouted, active, scal, scores, deals, i, key, rewards, terms, truncs, totals, win_mode, iw):
    """Apply play ``key`` in slot ``i``; book rewards, terminations and totals; start the next game when
    this one ended (autoreset)."""
    r = scal[i, S_ROUND]
    out = apply_key(hands, scouted, active, scal, scores, deals, i, key, iw)
    n = scal[i, S_N]
    if out != OUT_NOTHING and not win_mode:
        for s in range(n):
            rewards[i, s] = scores[i, r, s]
    if out == OUT_GAME_OVER:
        if win_mode:
            _placement_rewards(scal, i, rewards[i])
        cut = scal[i, S_REASONS + r] == REASON_TRUNCATED
        terms[i] = not cut
        truncs[i] = cut
        for s in range(n):
            totals[i, s] = scal[i, S_TOTALS + s]
        install_next_game(hands, scouted, active, scal, scores, deals, i)


@njit(cache=True)
def _clear_row(scal, i, rewards, terms, truncs, totals):
    terms[i] = False
    truncs[i] = False
    for s in range(scal[i, S_N]):
        rewards[i, s] = 0.0
        totals[i, s] = 0


@njit(cache=True)
def step_all(hands, scouted, active, scal, scores, deals, actions, obs, masks, rewards, terms, truncs, totals,
             win_mode):
    """One catalogue action in every slot (allowed ones, checked before): a stage-1 Scout & Show sets the
    pending scout, any other action completes a play, which is applied (rewards, terminations, totals,
    autoreset); then every slot's next observation and mask are written. Returns the number of slots whose
    game ended without a next game drawn ahead (``S_ERROR``)."""
    iw, big = new_work()
    errors = 0
    for i in range(actions.shape[0]):
        _clear_row(scal, i, rewards, terms, truncs, totals)
        a = actions[i]
        key = key_of_action(scal, i, a)
        if key < 0:
            off = a - SCOUT_SHOW_BASE
            ef = off // N_POSITIONS
            scal[i, S_STAGE] = 1
            scal[i, S_PEND_END] = ef // 2
            scal[i, S_PEND_FLIP] = ef % 2
            scal[i, S_PEND_POS] = off % N_POSITIONS
        else:
            _apply_row(hands, scouted, active, scal, scores, deals, i, key, rewards, terms, truncs, totals, win_mode,
                       iw)
        errors += scal[i, S_ERROR]
        write_decision(hands, scouted, active, scal, scores, i, obs[i], masks[i], iw, big)
    return errors


@njit(cache=True)
def step_keys_all(hands, scouted, active, scal, scores, deals, keys, obs, masks, rewards, terms, truncs, totals,
                  win_mode):
    """:func:`step_all` with whole plays: legal play key ``keys[i]`` (not checked here) in every slot."""
    iw, big = new_work()
    errors = 0
    for i in range(keys.shape[0]):
        _clear_row(scal, i, rewards, terms, truncs, totals)
        _apply_row(hands, scouted, active, scal, scores, deals, i, keys[i], rewards, terms, truncs, totals, win_mode,
                   iw)
        errors += scal[i, S_ERROR]
        write_decision(hands, scouted, active, scal, scores, i, obs[i], masks[i], iw, big)
    return errors


@njit(cache=True)
def write_all(hands, scouted, active, scal, scores, obs, masks):
    """Every slot's observation and mask (after a reset)."""
    iw, big = new_work()
    for i in range(scal.shape[0]):
        write_decision(hands, scouted, active, scal, scores, i, obs[i], masks[i], iw, big)


@njit(cache=True)
def write_masks(hands, active, scal, masks):
    """Every slot's action mask into ``masks`` int8 ``(N, N_ACTIONS)``."""
    iw, big = new_work()
    for i in range(scal.shape[0]):
        write_mask(hands, active, scal, i, masks[i], iw, big)


@njit(cache=True)
def legal_key_lists(hands, active, scal, slots):
    """The legal play keys of the acting seats of ``slots`` (int64 ``(M,)``): ``(keys int64 (R,), offsets
    int64 (M + 1,))``, slot ``slots[j]``'s keys at ``offsets[j]:offsets[j + 1]`` (engine order)."""
    m = slots.shape[0]
    lists = [np.empty(0, np.int64) for _ in range(m)]
    offsets = np.zeros(m + 1, np.int64)
    iw, big = new_work()
    for j in range(m):
        lists[j] = legal_keys_with(hands, active, scal, slots[j], iw, big)
        offsets[j + 1] = offsets[j] + lists[j].shape[0]
    keys = np.empty(offsets[m], np.int64)
    for j in range(m):
        keys[offsets[j]:offsets[j + 1]] = lists[j]
    return keys, offsets


@njit(cache=True)
def _random_actions(masks, words, uniforms, out):
    """:func:`random_legal_actions` on C-contiguous masks, ``words`` their uint32 view ``(N, A // 4)``
    (all-zero words, most of a mask, skipped 4 actions at a time). Returns the first bad row (a uniform
    outside [0, 1) or a mask value other than 0 and 1), or -1."""
    for i in range(masks.shape[0]):
        u = uniforms[i]
        if not (u >= 0.0 and u < 1.0):  # NaN fails both
            return i
        out[i] = -1
        count = 0
        seen = np.uint32(0)
        for w in range(words.shape[1]):
            if words[i, w]:
                seen |= words[i, w]
                for a in range(4 * w, 4 * w + 4):
                    count += masks[i, a]
        if seen & np.uint32(0xFEFEFEFE):
            return i
        if count == 0:
            continue
        want = int(u * count)
        for w in range(words.shape[1]):
            if not words[i, w]:
                continue
            for a in range(4 * w, 4 * w + 4):
                if masks[i, a]:
                    if want == 0:
                        out[i] = a
                    want -= 1
            if want < 0:
                break
    return -1


def random_legal_actions(masks: np.ndarray, uniforms) -> np.ndarray:
    """A uniformly random allowed action of each row: the ``int(u * count)``-th allowed action (increasing
    order) of row ``i`` with ``u = uniforms[i]``; int64 ``(N,)``, -1 for a row that allows nothing (for
    random rollouts and benchmarks; compiled).

    Args:
        masks: int8 ``(N, N_ACTIONS)`` 0/1 action masks (the batch API's ``"action_mask"``).
        uniforms: float64 ``(N,)``, each in [0, 1).

    Raises:
        TypeError: ``masks`` is not an int8 numpy array. ValueError: a wrong shape, a uniform outside
            [0, 1) or a mask value other than 0 and 1 (the message names the row).
    """
    if not isinstance(masks, np.ndarray) or masks.dtype != np.int8:
        raise TypeError(f"masks must be an int8 numpy array (N, {N_ACTIONS}), got "
                        f"{getattr(masks, 'dtype', type(masks).__name__)}")
    if masks.ndim != 2 or masks.shape[1] != N_ACTIONS:
        raise ValueError(f"masks must have shape (N, {N_ACTIONS}), got {masks.shape}")
    u = np.asarray(uniforms, dtype=np.float64)
    if u.shape != (masks.shape[0],):
        raise ValueError(f"uniforms must have shape ({masks.shape[0]},) (one per mask row), got {u.shape}")
    m = np.ascontiguousarray(masks)
    out = np.empty(m.shape[0], np.int64)
    bad = _random_actions(m, m.view(np.uint32), u, out)
    if bad >= 0:
        raise ValueError(f"row {bad}: uniforms[{bad}] = {float(u[bad])!r} must be in [0, 1) and mask values 0 or 1 "
                         f"(got {sorted(set(np.unique(m[bad]).tolist()))})")
    return out


# --- Python side: dealing and a container of games ---------------------------------------------------------

def draw_game_deals(n_players: int, first_player: str, rng: np.random.Generator,
                    n_rounds: int) -> tuple[np.ndarray, int]:
    """Every round's deal of a game dealt from ``rng``, with the draws of :class:`ScoutGame` in its order.

    Returns:
        ``(faces int8 (5, 45), first seat)``: ``faces[r, :CARDS_PER_ROUND[n]]`` the faces dealt in round
        ``r`` (seat ``s`` the ``s``-th block of hand size), and round 1's start seat
        (``ScoutGame.first_player_seat``).
    """
    setup = SETUP[n_players]
    faces_out = np.zeros((MAX_ROUNDS, N_CARDS), np.int8)
    cpr = setup.cards_per_round
    set_aside: list[int] = []
    first = 0
    for r in range(n_rounds):
        cards = sorted(f >> 1 for f in set_aside) if (n_players == 2 and r > 0) else list(setup.in_play)
        perm = rng.permutation(len(cards))
        orient = rng.integers(0, 2, size=len(cards))
        faces = 2 * np.asarray(cards, np.int64)[perm] + orient
        if n_players == 2 and r == 0:
            dealt, set_aside = faces[:cpr], faces[cpr:].tolist()
        else:
            dealt, set_aside = faces, []
        faces_out[r, :cpr] = dealt
        if r == 0:
            if first_player == "random":
                first = int(rng.integers(n_players))
            elif first_player == "holder_of_1_2":
                size = setup.hand_size
                where = np.flatnonzero((dealt >> 1) == CARD_1_2)
                first = int(where[0]) // size if where.size else rulings.HOLDER_OF_1_2_FALLBACK_SEAT
    return faces_out, first


def _check_index(i, n: int, what: str) -> int:
    if not is_integer(i):
        raise TypeError(f"{what} index {i!r} is not an integer; use an int in 0 .. {n - 1}")
    if not 0 <= i < n:
        raise IndexError(f"{what} index {i} is out of range; allowed: 0 .. {n - 1}")
    return int(i)


class ScoutKernel:
    """``num_games`` SCOUT games on the compiled kernel (module docstring), all with one config.

    Args:
        num_games: number of slots, at least 1.
        config: the :class:`~seers_env.scout.game.ScoutConfig` of every slot (default: 4 players).

    Attributes:
        hands, scouted, active, scal, scores, deals: the state arrays (module docstring); read them, change
            them only through this class and the compiled functions of this module.
        slot_rngs: each slot's generator of game seeds (the AEC env's ``reset()`` draws), or ``None``.

    Raises:
        ValueError: ``num_games < 1``; a config the arrays cannot hold (:func:`check_kernel_config`).
            TypeError: ``config`` is not a ``ScoutConfig``.

    Methods taking a slot ``i`` raise ``IndexError`` outside ``0 .. num_games - 1`` and ``TypeError`` for a
    non-integer, before anything changes.
    """

    def __init__(self, num_games: int, config=None):
        from .game import ScoutConfig

        if not is_integer(num_games) or num_games < 1:
            raise ValueError(f"num_games={num_games!r} is not allowed; use an integer >= 1")
        if config is None:
            config = ScoutConfig()
        if not isinstance(config, ScoutConfig):
            raise TypeError(f"config must be a ScoutConfig, got {type(config).__name__}: {config!r}")
        check_kernel_config(config)
        self.config = config
        n = self.num_games = int(num_games)
        self.hands = np.zeros((n, MAX_SEATS, H_CAP), np.int8)
        self.scouted = np.zeros((n, MAX_SEATS, H_CAP), np.int8)
        self.active = np.zeros((n, ACTIVE_CAP), np.int8)
        self.scal = np.zeros((n, N_SCALARS), np.int64)
        self.scores = np.zeros((n, MAX_ROUNDS, MAX_SEATS), np.int64)
        self.deals = np.zeros((n, 2, MAX_ROUNDS, N_CARDS), np.int8)
        sc = self.scal
        sc[:, S_N] = config.n_players
        sc[:, S_ROUNDS] = config.n_rounds
        sc[:, S_MAX_TURNS] = config.max_turns_per_round
        sc[:, S_PUBLIC] = int(config.public_scout_flip_and_position)
        sc[:, S_MAY_STOP] = int(config.two_player_may_stop)
        sc[:, S_PHASE] = PH_OVER
        sc[:, S_REASONS:S_REASONS + MAX_ROUNDS] = -1
        sc[:, S_EXEMPT:S_EXEMPT + MAX_ROUNDS] = -1
        self.slot_rngs: list[np.random.Generator | None] = [None] * n
        self._iw = np.zeros((8, 64), np.int64)

    def _slot(self, i) -> int:
        return _check_index(i, self.num_games, "slot")

    # --- dealing -------------------------------------------------------------------------------------
    def _draw_next(self, i: int, rng: np.random.Generator) -> None:
        faces, first = draw_game_deals(self.config.n_players, self.config.first_player, rng, self.config.n_rounds)
        self.deals[i, 1] = faces
        self.scal[i, S_NEXT_FIRST] = first
        self.scal[i, S_NEXT_READY] = 1

    def new_game(self, i: int, seed: int | None = None) -> None:
        """Start a new game in slot ``i``, dealt as ``ScoutGame(config, seed)`` deals it.

        Raises:
            IndexError, TypeError: a bad slot. ValueError: a negative seed.
        """
        i = self._slot(i)
        if seed is not None and (not is_integer(seed) or seed < 0):
            raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        keep = (self.deals[i, 1].copy(), int(self.scal[i, S_NEXT_FIRST]), int(self.scal[i, S_NEXT_READY]))
        self._draw_next(i, np.random.default_rng(None if seed is None else int(seed)))
        self.scal[i, S_ERROR] = 0
        install_next_game(self.hands, self.scouted, self.active, self.scal, self.scores, self.deals, i)
        self.deals[i, 1], self.scal[i, S_NEXT_FIRST], self.scal[i, S_NEXT_READY] = keep

    def next_game_ahead(self, i: int) -> None:
        """Draw slot ``i``'s next game (its seed from ``slot_rngs[i]``, as ``raw_env.reset()`` draws it)
        into ``deals[i, 1]``: it starts when the current game ends."""
        i = self._slot(i)
        seed = int(self.slot_rngs[i].integers(2**63 - 1))
        self._draw_next(i, np.random.default_rng(seed))

    def refill(self, i: int) -> None:
        """Draw slot ``i``'s next game ahead when it has none and the slot has a ``slot_rngs`` generator."""
        i = self._slot(i)
        if not self.scal[i, S_NEXT_READY] and self.slot_rngs[i] is not None:
            self.next_game_ahead(i)

    def load_game(self, i: int, game) -> None:
        """Put the state of engine game ``game`` (same config) into slot ``i``; the later rounds are drawn
        from a copy of its generator, so the slot goes on exactly as the game would.

        Raises:
            ValueError: another config, or a finished game. TypeError: not a ``ScoutGame``.
        """
        from .game import PHASE_OVER, PHASE_ROTATE, ScoutGame

        i = self._slot(i)
        if not isinstance(game, ScoutGame):
            raise TypeError(f"game must be a ScoutGame, got {type(game).__name__}")
        if game.config != self.config:
            raise ValueError(f"game has config {game.config.to_dict()}, the kernel {self.config.to_dict()}")
        if game.phase == PHASE_OVER:
            raise ValueError("game is over; load a game that is still being played")
        g = game.clone()
        n = g.n_players
        sc = self.scal[i]
        # the deals of the rounds to come, drawn from a copy of the game's generator
        rng = g.rng
        faces = np.zeros((MAX_ROUNDS, N_CARDS), np.int8)
        set_aside = list(g._set_aside)
        cpr = SETUP[n].cards_per_round
        for r in range(g.round + 1, g.config.n_rounds):
            cards = sorted(f >> 1 for f in set_aside) if n == 2 else list(SETUP[n].in_play)
            perm = rng.permutation(len(cards))
            orient = rng.integers(0, 2, size=len(cards))
            faces[r, :cpr] = 2 * np.asarray(cards, np.int64)[perm] + orient
            set_aside = []
        self.deals[i, 0] = faces
        sc[S_FIRST] = g.first_player_seat
        sc[S_ROUND] = g.round
        sc[S_START] = g.start_player
        sc[S_PHASE] = PH_ROTATE if g.phase == PHASE_ROTATE else PH_PLAY
        sc[S_CURRENT] = g.current
        sc[S_TURNS] = g.turns
        sc[S_OWNER] = g.active_owner
        act = g.active_faces()
        sc[S_ALEN] = len(act)
        self.active[i, :len(act)] = act
        self.hands[i] = 0
        self.scouted[i] = 0
        piles, chips, used, rot = g.piles, g.chips, g.scout_show_used, g.rotated
        pm = 0
        for s in range(MAX_SEATS):
            if s < n:
                h = g.hand_faces(s)
                sc[S_HLEN + s] = len(h)
                self.hands[i, s, :len(h)] = h
                self.scouted[i, s, :len(h)] = g.scouted[s]
                sc[S_PILE + s] = len(piles[s])
                pm |= sum(1 << c for c in piles[s])
                sc[S_CHIPS + s] = chips[s]
                sc[S_SS_USED + s] = int(used[s])
                sc[S_ROTATED + s] = -1 if rot[s] is None else int(rot[s])
                sc[S_SEEN_EARLIER + s] = sum(1 << c for c in g.earlier_seen[s])
            else:
                for base in (S_HLEN, S_PILE, S_CHIPS, S_SS_USED, S_SEEN_EARLIER):
                    sc[base + s] = 0
                sc[S_ROTATED + s] = -1
        sc[S_PILE_MASK] = pm
        sc[S_ROUND_CARDS] = sum(1 << c for c in g.round_cards)
        sc[S_SHOWN_EARLIER] = sum(1 << c for c in g.earlier_shown)
        self.scores[i] = 0
        sc[S_TOTALS:S_TOTALS + MAX_SEATS] = 0
        sc[S_REASONS:S_REASONS + MAX_SEATS] = -1
        sc[S_EXEMPT:S_EXEMPT + MAX_SEATS] = -1
        for r, (scores, reason, ex) in enumerate(zip(g.round_scores, g.round_end_reasons, g.round_exempt)):
            self.scores[i, r, :n] = scores
            sc[S_REASONS + r] = rulings.REASONS.index(reason)
            sc[S_EXEMPT + r] = ex
        sc[S_TOTALS:S_TOTALS + n] = g.totals
        sc[S_STAGE] = 0
        sc[S_OUTCOME] = OUT_NOTHING
        sc[S_ERROR] = 0

    # --- playing ---------------------------------------------------------------------------------------
    def legal_keys(self, i: int) -> np.ndarray:
        """int64 play keys of slot ``i``'s legal plays (``ScoutGame.legal_plays()`` order)."""
        i = self._slot(i)
        return legal_keys(self.hands, self.active, self.scal, i)

    def legal_plays(self, i: int) -> list[ScoutPlay]:
        """Slot ``i``'s legal plays as :class:`~seers_env.scout.plays.ScoutPlay` (engine order)."""
        return [play_of_key(k) for k in self.legal_keys(i).tolist()]

    def apply(self, i: int, play) -> int:
        """Make ``play`` (a ``ScoutPlay`` or play key) in slot ``i``; returns the outcome (``OUT_*``).

        Raises:
            ValueError: not a legal play now (nothing changes). IndexError, TypeError: a bad slot.
        """
        i = self._slot(i)
        key = play_key(play) if isinstance(play, tuple) else int(play)
        if not key_legal(self.hands, self.active, self.scal, i, key):
            raise ValueError(f"play {tuple(play_of_key(key)) if key >= 0 else key!r} is not a legal play in slot "
                             f"{i} now")
        return int(apply_key(self.hands, self.scouted, self.active, self.scal, self.scores, self.deals, i, key,
                             self._iw))

    # --- reading ---------------------------------------------------------------------------------------
    def game_over(self, i: int) -> bool:
        return bool(self.scal[self._slot(i), S_PHASE] == PH_OVER)

    def hand_faces(self, i: int, seat: int) -> list[int]:
        i = self._slot(i)
        seat = _check_index(seat, self.config.n_players, "seat")
        return self.hands[i, seat, :self.scal[i, S_HLEN + seat]].astype(int).tolist()

    def active_faces(self, i: int) -> list[int]:
        i = self._slot(i)
        return self.active[i, :self.scal[i, S_ALEN]].astype(int).tolist()

    def round_scores(self, i: int) -> list[list[int]]:
        """Completed rounds' scores of slot ``i`` (as ``ScoutGame.round_scores``)."""
        i = self._slot(i)
        n = self.config.n_players
        done = int((self.scal[i, S_REASONS:S_REASONS + MAX_ROUNDS] >= 0).sum())
        return [self.scores[i, r, :n].tolist() for r in range(done)]

    def round_end_reasons(self, i: int) -> list[str]:
        i = self._slot(i)
        return [rulings.REASONS[int(c)] for c in self.scal[i, S_REASONS:S_REASONS + MAX_SEATS] if c >= 0]

    def round_exempt(self, i: int) -> list[int]:
        i = self._slot(i)
        return self.scal[i, S_EXEMPT:S_EXEMPT + len(self.round_end_reasons(i))].tolist()

    def totals(self, i: int) -> list[int]:
        i = self._slot(i)
        return self.scal[i, S_TOTALS:S_TOTALS + self.config.n_players].tolist()

    def observe(self, i: int, seat: int, pending: tuple[int, int, int] | None = None) -> np.ndarray:
        """float32 ``(OBS_DIM,)``: :func:`seers_env.scout.observation.observe` of ``seat`` in slot ``i``
        (``pending``: the stage-1 scout ``(end, flip, position)`` of a Scout & Show of the seat to act)."""
        i = self._slot(i)
        seat = _check_index(seat, self.config.n_players, "seat")
        row = np.zeros(OBS_DIM, np.float32)
        stage, (pe, pf, pp) = (0, (0, 0, 0)) if pending is None else (1, tuple(int(x) for x in pending))
        write_obs(self.hands, self.scouted, self.active, self.scal, self.scores, i, seat, stage, pe, pf, pp, row)
        return row


__all__ = [
    "ACTIVE_CAP", "H_CAP", "N_SCALARS", "OUT_GAME_OVER", "OUT_NOTHING", "OUT_ROUND", "ScoutKernel",
    "apply_key", "draw_game_deals", "legal_key_lists", "legal_keys", "play_key", "play_of_key", "plays_of_keys",
    "random_legal_actions", "step_all", "step_keys_all",
]
