"""The play-scoring features of :mod:`seers_env.scout.features`, computed in compiled code from the kernel
arrays (:mod:`seers_env.scout.kernel`), bit for bit the same (``tests/test_scout_vector.py``).

:func:`decision_features` gives, for chosen slots, the acting seat's state vector (:data:`STATE_LAYOUT
<seers_env.scout.features.STATE_LAYOUT>`) and one row per legal play in the engine's order
(:data:`PLAY_LAYOUT <seers_env.scout.features.PLAY_LAYOUT>`). Every value is computed in float64 with the
reference's formula and stored as float32, as numpy stores the reference's Python floats.
"""

from __future__ import annotations

import numpy as np

from ..engine.jit import njit
from . import kernel
from .cards import N_CARDS
from .features import HAND_SUMMARY_DIM, PLAY_DIM, PLAY_OFFSETS, STATE_DIM, STATE_OFFSETS
from .kernel import (
    BOTTOM, CARD_HAS, PH_PLAY, PH_ROTATE, S_ALEN, S_CHIPS, S_CURRENT, S_HLEN, S_MAX_TURNS, S_N, S_OWNER, S_PHASE,
    S_TURNS, VALUE, extents, faces_key, segment_key,
)
from .observation import OBS_DIM
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP

_SO, _PO = STATE_OFFSETS, PLAY_OFFSETS
O_UNSEEN_BY_NUMBER, O_HAND_SUMMARY, O_SHOWS, O_SCOUT_ENDS = _SO["unseen_by_number"], _SO["hand_summary"], \
    _SO["shows_available"], _SO["scout_ends_round"]
O_OWNER_HAND, O_MIN_OTHER, O_UNSEEN_COUNT, O_HIDDEN = _SO["owner_hand_size"], _SO["min_other_hand"], \
    _SO["unseen_count"], _SO["hidden_in_hands"]
P_KIND, P_SHOW_LENGTH, P_SHOW_TYPE, P_SHOW_LOW = _PO["kind"], _PO["show_length"], _PO["show_type"], _PO["show_low"]
P_SHOW_START, P_SHOW_MARGIN, P_SHED, P_COLLECTED = _PO["show_start"], _PO["show_margin"], _PO["shed"], \
    _PO["collected"]
P_GOES_OUT, P_ENDS, P_SCOUT_END, P_SCOUT_CARD = _PO["goes_out"], _PO["ends_round"], _PO["scout_end"], \
    _PO["scout_card"]
P_SCOUT_FLIP, P_SCOUT_POS, P_SCOUT_JOINS, P_SCOUT_SHOWN = _PO["scout_flip"], _PO["scout_position"], \
    _PO["scout_joins"], _PO["scout_shown"]
P_OWNER_CHIP, P_CHIPS_AFTER, P_USES_SS, P_ACTIVE_AFTER = _PO["owner_chip"], _PO["chips_after"], \
    _PO["uses_scout_show"], _PO["active_after"]
P_HAND_AFTER = _PO["hand_after"]
_SCALE_COUNT = 11.0


@njit(cache=True)
def hand_summary(v, n, row, off, ext, step):
    """``row[off:off + 10]`` = :func:`seers_env.scout.features.hand_summary` of values ``v[:n]``."""
    for k in range(HAND_SUMMARY_DIM):
        row[off + k] = 0.0
    if n == 0:
        return
    extents(v, n, ext, step)
    parts = 0
    s = 0
    while s < n:
        s += ext[s]
        parts += 1
    longest_set = 0
    longest_run = 0
    pairs = 0
    triples = 0
    best = -1
    for s in range(n):
        e = ext[s]
        if step[s] == 0:
            if e > longest_set:
                longest_set = e
        elif e > longest_run:
            longest_run = e
        if e >= 2:
            pairs += 1
        if e >= 3:
            triples += 1
        key = segment_key(v, s, e, step[s])
        if key > best:
            best = key
    isolated = 0
    for k in range(n):
        if (k == 0 or abs(v[k] - v[k - 1]) > 1) and (k == n - 1 or abs(v[k + 1] - v[k]) > 1):
            isolated += 1
    row[off] = n / _SCALE_COUNT
    row[off + 1] = parts / _SCALE_COUNT
    row[off + 2] = longest_set / 10.0
    row[off + 3] = longest_run / 10.0
    row[off + 4] = pairs / _SCALE_COUNT
    row[off + 5] = triples / _SCALE_COUNT
    row[off + 6] = isolated / _SCALE_COUNT
    row[off + 7] = (best >> 5) / 10.0
    row[off + 8] = float((best >> 4) & 1)
    row[off + 9] = (best & 15) / 10.0


@njit(cache=True)
def write_state(hands, scouted, active, scal, scores, i, row, iw, big):
    """``row`` (float32 ``(STATE_DIM,)``) = :func:`seers_env.scout.features.encode_state` of slot ``i``'s
    acting seat."""
    seat = scal[i, S_CURRENT]
    n = scal[i, S_N]
    kernel.write_obs(hands, scouted, active, scal, scores, i, seat, 0, 0, 0, 0, row[:OBS_DIM])
    for k in range(OBS_DIM, STATE_DIM):
        row[k] = 0.0
    um = kernel.unseen_mask(hands, scouted, active, scal, i, seat)
    by_number = np.zeros(11, np.int64)
    unseen = 0
    for c in range(N_CARDS):
        if um >> c & 1:
            unseen += 1
            for x in range(1, 11):
                by_number[x] += CARD_HAS[c, x]
    for x in range(10):
        row[O_UNSEEN_BY_NUMBER + x] = by_number[x + 1] / 9.0
    v, ext, step = iw[0], iw[1], iw[2]
    hn = kernel.hand_values(hands, scal, i, seat, v)
    phase = scal[i, S_PHASE]
    shows = 0
    if phase == PH_PLAY:
        shows = kernel.show_segments(v, hn, kernel.active_key(active, scal, i), ext, step, big[0], big[1])
    hand_summary(v, hn, row, O_HAND_SUMMARY, ext, step)
    row[O_SHOWS] = shows / 20.0
    owner = scal[i, S_OWNER]
    if n > 2 and phase == PH_PLAY and scal[i, S_ALEN] > 0 and (seat + 1) % n == owner:
        row[O_SCOUT_ENDS] = 1.0
    if owner >= 0:
        row[O_OWNER_HAND] = scal[i, S_HLEN + owner] / _SCALE_COUNT
    smallest = 1 << 30
    hidden = 0
    for s in range(n):
        if s == seat:
            continue
        size = scal[i, S_HLEN + s]
        if size < smallest:
            smallest = size
        known = 0
        for k in range(size):
            known += scouted[i, s, k]
        hidden += size - known
    row[O_MIN_OTHER] = smallest / _SCALE_COUNT
    row[O_UNSEEN_COUNT] = unseen / float(N_CARDS)
    row[O_HIDDEN] = hidden / float(N_CARDS)


@njit(cache=True)
def _longest_holding(v, n, pos):
    c = v[pos]
    best = 1
    for kk in range(3):
        st = 0 if kk == 0 else (1 if kk == 1 else -1)
        left = 0
        while pos - 1 - left >= 0 and v[pos - 1 - left] == c - st * (left + 1):
            left += 1
        right = 0
        while pos + 1 + right < n and v[pos + 1 + right] == c + st * (right + 1):
            right += 1
        if left + right + 1 > best:
            best = left + right + 1
    return best


@njit(cache=True)
def _put_shape(row, off, faces, lo, m):
    """Cards / 10, is a set, lowest / 10 of the set or run ``faces[lo:lo + m]`` (nothing when empty)."""
    if m > 0:
        key = faces_key(faces[lo:], m)
        row[off] = m / 10.0
        row[off + 1] = float((key >> 4) & 1)
        row[off + 2] = (key & 15) / 10.0


@njit(cache=True)
def write_rows(hands, active, scal, i, keys, rows, iw):
    """``rows[j]`` = :func:`seers_env.scout.features.encode_plays` row of play key ``keys[j]`` of slot ``i``'s
    acting seat (legal keys, not checked here)."""
    seat = scal[i, S_CURRENT]
    n_players = scal[i, S_N]
    n = scal[i, S_HLEN + seat]
    alen = scal[i, S_ALEN]
    owner = scal[i, S_OWNER]
    chips = scal[i, S_CHIPS + seat]
    cap_next = scal[i, S_TURNS] + 1 >= scal[i, S_MAX_TURNS]
    hand = hands[i, seat]
    faces = np.empty(kernel.H_CAP + 1, np.int64)  # the hand after the scout (SCOUT, SCOUT_SHOW)
    v = iw[3]
    seg = iw[4]
    rest = iw[5]
    ext, step = iw[1], iw[2]
    for j in range(keys.shape[0]):
        key = keys[j]
        row = rows[j]
        row[:] = 0.0
        kind = key >> 20
        e, f, p, s, L = key >> 19 & 1, key >> 18 & 1, key >> 12 & 63, key >> 6 & 63, key & 63
        row[P_KIND + kind] = 1.0
        m = n  # cards in ``faces`` (the hand the show is taken from)
        for k in range(n):
            faces[k] = hand[k]
        chips_after = chips
        nr = alen  # the Active Set after the play is ``rest[:nr]``
        for k in range(alen):
            rest[k] = active[i, k]
        ends = False
        if kind == ROTATE:
            for k in range(n):
                faces[k] = hand[n - 1 - k] ^ 1
        elif kind == SCOUT or kind == SCOUT_SHOW:
            if e == 0:
                face = np.int64(active[i, 0]) ^ f
                for k in range(1, alen):
                    rest[k - 1] = active[i, k]
            else:
                face = np.int64(active[i, alen - 1]) ^ f
            nr = alen - 1
            for k in range(n, p, -1):
                faces[k] = faces[k - 1]
            faces[p] = face
            m = n + 1
            row[P_SCOUT_END + e] = 1.0
            row[P_SCOUT_CARD] = VALUE[face] / 10.0
            row[P_SCOUT_CARD + 1] = BOTTOM[face] / 10.0
            row[P_SCOUT_FLIP] = float(f)
            row[P_SCOUT_POS] = p / max(n, 1)
            for k in range(m):
                v[k] = VALUE[faces[k]]
            row[P_SCOUT_JOINS] = _longest_holding(v, m, p) / 10.0
            if n_players > 2:
                row[P_OWNER_CHIP] = 1.0
            else:
                chips_after = chips - 1
            if kind == SCOUT:
                row[P_SHED] = -1 / 10.0
                if n_players > 2:
                    ends = (seat + 1) % n_players == owner
                else:
                    ends = chips_after == 0 and nr > 0 and not kernel.can_show(v, m, faces_key(rest, nr), ext,
                                                                               step)
        if kind == SHOW or kind == SCOUT_SHOW:
            for k in range(L):
                seg[k] = faces[s + k]
            beaten = nr
            for k in range(s + L, m):
                faces[k - L] = faces[k]
            m -= L
            skey = faces_key(seg, L)
            row[P_SHOW_LENGTH] = L / 10.0
            row[P_SHOW_TYPE + (0 if (skey >> 4) & 1 else 1)] = 1.0
            row[P_SHOW_LOW] = (skey & 15) / 10.0
            row[P_SHOW_START] = s / (m + L)
            row[P_SHOW_MARGIN] = (L - beaten) / 10.0
            row[P_SHED] = (L - (1 if kind == SCOUT_SHOW else 0)) / 10.0
            row[P_COLLECTED] = beaten / 10.0
            for k in range(L):
                rest[k] = seg[k]
            nr = L
            if m == 0:
                row[P_GOES_OUT] = 1.0
                ends = True
            if kind == SCOUT_SHOW:
                row[P_SCOUT_SHOWN] = 1.0 if s <= p < s + L else 0.0
                row[P_USES_SS] = 1.0
        if kind == STOP:
            ends = True
        if kind != KEEP and kind != ROTATE:
            if ends or cap_next:
                row[P_ENDS] = 1.0
            row[P_CHIPS_AFTER] = chips_after / 10.0
            _put_shape(row, P_ACTIVE_AFTER, rest, 0, nr)
        for k in range(m):
            v[k] = VALUE[faces[k]]
        hand_summary(v, m, row, P_HAND_AFTER, ext, step)


@njit(cache=True)
def decision_features(hands, scouted, active, scal, scores, slots):
    """The play-scoring features of the acting seats of ``slots`` (int64 ``(M,)``, games not over).

    Returns:
        ``(states float32 (M, STATE_DIM), rows float32 (R, PLAY_DIM), offsets int64 (M + 1,), keys int64
        (R,))``: decision ``j`` owns rows and play keys ``offsets[j]:offsets[j + 1]`` (its legal plays in
        the engine's order).
    """
    m = slots.shape[0]
    keys, offsets = kernel.legal_key_lists(hands, active, scal, slots)
    rows = np.empty((offsets[m], PLAY_DIM), np.float32)
    states = np.empty((m, STATE_DIM), np.float32)
    iw, big = kernel.new_work()
    for j in range(m):
        i = slots[j]
        write_state(hands, scouted, active, scal, scores, i, states[j], iw, big)
        write_rows(hands, active, scal, i, keys[offsets[j]:offsets[j + 1]], rows[offsets[j]:offsets[j + 1]], iw)
    return states, rows, offsets, keys


assert PH_ROTATE == 0 and SHOW == 2 and STOP == 5

__all__ = ["decision_features", "hand_summary", "write_rows", "write_state"]
