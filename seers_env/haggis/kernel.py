"""Compiled parts of the Haggis environment (numba, ``cache=True`` through :mod:`seers_env.engine.jit`).

Two functions, each the compiled twin of a Python reference that stays the definition:

* :func:`stage0_mask`: the action mask of the first decision of a play (the main codes, rules sections 3
  and 4), exactly the codes of :func:`seers_env.haggis.moves.turn_combos` (plus ``PASS`` when following)
  as :class:`seers_env.haggis.actions.HaggisDecision` sets them;
* :func:`write_obs`: the observation vector of :func:`seers_env.haggis.observation.observe`, from the game
  packed into one int64 array by :func:`seers_env.haggis.fast.pack_game` (layout: the ``P_*`` constants).

The Python glue (the decision class, the packing, the environment's use of both) lives in
:mod:`seers_env.haggis.fast`, so editing it does not invalidate the numba cache.
``tests/test_haggis_kernel.py`` checks both against the Python code on many random states.
"""

from __future__ import annotations

import numpy as np

from ..engine.jit import njit
from .actions import BOMB_BASE, CARD_BASE, N_LENGTHS, N_VALUES, PASS_CODE, SEQ_BASE, SET_BASE
from .cards import POINTS_OF_CARD, FIRST_FACE, JACK, MAX_NUMBER_RANK, MAX_RANK, MIN_RANK, N_NUMBER_CARDS, N_NUMBER_RANKS
from .observation import MAX_SEATS, OBS_BOUND, OBS_DIM, OFFSETS
from .plays import BOMB, MAX_WIDTH, SEQ, SET
from .rulings import CARD_POINTS_CHOICES

# --- the packed game (int64 vector; fast.pack_game writes it) ------------------------------------------
P_N, P_OVER, P_CURRENT, P_PASSES, P_ROUND, P_TARGET, P_HAGGIS = 0, 1, 2, 3, 4, 5, 6
P_TOP_KIND, P_TOP_A, P_TOP_B, P_TOP_VALUE, P_TOP_SEAT = 7, 8, 9, 10, 11  # kind -1: no combination
P_N_OUT, P_OUT = 12, 13  # P_OUT .. +2: seats out in order (-1 padded)
P_BETS = 16  # 3: bet amount, -1 not decided
P_GOING_OUT, P_BET_POINTS, P_TOTALS = 19, 22, 25  # 3 each
P_HAS_LAST, P_LAST = 28, 29  # 1 when a round was scored; 3: its scores
P_CAPTURED_LEN = 32  # 3: cards captured per seat this round
P_HAND_LEN = 35  # 3: cards held per seat
P_TRICK_LEN = 38  # cards of the open trick
P_SCORING = 39  # index of the config's card points in rulings.CARD_POINTS_CHOICES
P_HEADER = 40  # then: the hands of seats 0..n-1 (P_HAND_LEN each), the trick's cards, the captured cards

#: ``cards.POINTS_OF_CARD`` as an array: ``_POINTS[P_SCORING value, card id]``
_POINTS = np.array([POINTS_OF_CARD[s] for s in CARD_POINTS_CHOICES], np.int64)

_H = OFFSETS["hand"][0]
_PC = OFFSETS["pending_cards"][0]
_PS = OFFSETS["pending_shape"][0]
_PV = OFFSETS["pending_values"][0]
_TK = OFFSETS["top_kind"][0]
_TV = OFFSETS["top_values"][0]
_TS = OFFSETS["top_seat"][0]
_TC = OFFSETS["trick_cards"][0]
_PL = OFFSETS["played_cards"][0]
_FH = OFFSETS["faces_held"][0]
_HS = OFFSETS["hand_sizes"][0]
_OUT = OFFSETS["out"][0]
_FO = OFFSETS["first_out"][0]
_BETS = OFFSETS["bets"][0]
_CP = OFFSETS["captured_points"][0]
_GO = OFFSETS["going_out"][0]
_BP = OFFSETS["bet_points"][0]
_TOT = OFFSETS["totals"][0]
_LR = OFFSETS["last_round"][0]
_PA = OFFSETS["passes"][0]
_ST = OFFSETS["stage"][0]
_HG = OFFSETS["haggis_size"][0]
_MI = OFFSETS["misc"][0]


@njit(cache=True)
def _slot(card, seat, n):
    """observation._slot: a card's index in a 54-entry card vector seen from ``seat``."""
    if card < FIRST_FACE:
        return card
    owner = (card - FIRST_FACE) // 3
    return N_NUMBER_CARDS + 3 * ((owner - seat) % n) + (card - FIRST_FACE) % 3


@njit(cache=True)
def _popcount(x):
    k = 0
    while x:
        k += x & 1
        x >>= 1
    return k


@njit(cache=True)
def stage0_mask(hand, top_kind, top_a, top_b, top_value, out):
    """Write the stage-0 mask of a play into ``out`` (int8 ``(N_ACTIONS,)``, zeroed here): the main codes
    of :func:`seers_env.haggis.moves.turn_combos` of ``hand`` (int64 card ids) on the trick's last
    combination (``top_kind`` -1 when leading, else ``plays.SET`` / ``SEQ`` / ``BOMB`` with its ``a``,
    ``b`` and value), and ``PASS`` when following. Returns the number of codes set."""
    out[:] = 0
    count = np.zeros(MAX_RANK + 1, np.int64)
    suit_bits = np.zeros(MAX_RANK + 1, np.int64)
    wild_ranks = np.zeros(3, np.int64)
    nw = 0
    has_face = np.zeros(MAX_RANK + 1, np.bool_)
    for c in hand:
        if c >= FIRST_FACE:
            r = JACK + (c - FIRST_FACE) % 3
            wild_ranks[nw] = r
            nw += 1
            has_face[r] = True
        else:
            r = MIN_RANK + c % N_NUMBER_RANKS
            count[r] += 1
            suit_bits[r] |= 1 << (c // N_NUMBER_RANKS)
    wild_ranks[:nw] = np.sort(wild_ranks[:nw])
    n_codes = 0
    if top_kind != -1:
        out[PASS_CODE] = 1
        n_codes += 1
    # sets (and single face cards)
    if top_kind == -1 or top_kind == SET:
        size = 0 if top_kind == -1 else top_a
        above = 0 if top_kind == -1 else top_value
        for r in range(max(MIN_RANK, above + 1), MAX_NUMBER_RANK + 1):
            k = count[r]
            if k:
                if size == 0:
                    for n in range(1, k + nw + 1):
                        out[SET_BASE + (n - 1) * N_VALUES + r - 2] = 1
                        n_codes += 1
                elif size <= k + nw:
                    out[SET_BASE + (size - 1) * N_VALUES + r - 2] = 1
                    n_codes += 1
        if size == 0 or size == 1:
            for j in range(nw):
                if wild_ranks[j] > above:
                    code = SET_BASE + wild_ranks[j] - 2
                    if not out[code]:
                        n_codes += 1
                    out[code] = 1
    # sequences (moves._seq_combos)
    if top_kind == -1 or top_kind == SEQ:
        held = 0
        for r in range(MAX_RANK + 1):
            held |= suit_bits[r]
        n_held = _popcount(held)
        above = 0 if top_kind == -1 else top_value
        w_lo = 1 if top_kind == -1 else top_a
        w_hi = MAX_WIDTH if top_kind == -1 else top_a
        miss = np.zeros(MAX_RANK + 1, np.int64)
        slots = np.zeros(3, np.int64)
        for w in range(w_lo, w_hi + 1):
            min_len = 3 if w == 1 else 2
            for sset in range(1, 32):
                if n_held >= w:
                    if _popcount(sset) != w or (sset & held) != sset:
                        continue
                elif sset != held:
                    continue
                for r in range(MAX_RANK + 1):
                    miss[r] = w - _popcount(suit_bits[r] & sset)
                for lo in range(MIN_RANK, MAX_NUMBER_RANK + 1):
                    if miss[lo] == w:
                        continue
                    ns = 0
                    for top in range(lo, MAX_RANK + 1):
                        m = miss[top]
                        if m:
                            if ns + m > nw:
                                break
                            for _ in range(m):
                                slots[ns] = top
                                ns += 1
                        L = top - lo + 1
                        if L >= min_len and top > above and (top_kind == -1 or L == top_b):
                            code = SEQ_BASE + ((w - 1) * N_LENGTHS + L - 2) * N_VALUES + top - 2
                            if out[code]:
                                continue
                            fit = True  # the highest ns wilds against the slots, both ascending
                            for j in range(ns):
                                if wild_ranks[nw - ns + j] < slots[j]:
                                    fit = False
                                    break
                            if fit:
                                out[code] = 1
                                n_codes += 1
    # bombs (moves._bomb_values)
    bomb_above = top_value if top_kind == BOMB else 0
    values = np.zeros(7, np.bool_)
    values[2] = has_face[11] and has_face[12]
    values[3] = has_face[11] and has_face[13]
    values[4] = has_face[12] and has_face[13]
    values[5] = has_face[11] and has_face[12] and has_face[13]
    s3, s5, s7, s9 = suit_bits[3], suit_bits[5], suit_bits[7], suit_bits[9]
    if s3 and s5 and s7 and s9:
        values[6] = (s3 & s5 & s7 & s9) != 0
        for a in range(5):
            if not s3 >> a & 1:
                continue
            for b in range(5):
                if b == a or not s5 >> b & 1:
                    continue
                for c in range(5):
                    if c == a or c == b or not s7 >> c & 1:
                        continue
                    for d in range(5):
                        if d != a and d != b and d != c and s9 >> d & 1:
                            values[1] = True
    for v in range(1, 7):
        if values[v] and v > bomb_above:
            out[BOMB_BASE + v - 1] = 1
            n_codes += 1
    return n_codes


@njit(cache=True)
def write_obs(st, seat, pend_code, pend_cards, obs):
    """Write into ``obs`` (float32 ``(OBS_DIM,)``) the observation of ``seat`` of the packed game ``st``
    (int64, ``P_*`` layout), as :func:`seers_env.haggis.observation.observe`: ``pend_code`` is the pending
    play's main code (-1: none) and ``pend_cards`` its cards chosen so far (own-hand layout 0..47)."""
    obs[:] = 0.0
    n = st[P_N]
    hl = st[P_HAND_LEN:P_HAND_LEN + 3]
    at = P_HEADER
    for s in range(n):
        for j in range(hl[s]):
            c = st[at + j]
            if c >= FIRST_FACE:
                k = (c - FIRST_FACE) % 3
                if s == seat:
                    obs[_H + N_NUMBER_CARDS + k] = 1.0
                obs[_FH + 3 * ((s - seat) % n) + k] = 1.0
            elif s == seat:
                obs[_H + c] = 1.0
        at += hl[s]
    if pend_code >= 0:
        for c in pend_cards:
            obs[_PC + c] = 1.0
        if pend_code < SEQ_BASE:
            i = pend_code - SET_BASE
            obs[_PS] = 1.0
            obs[_PS + 3] = 1.0
            obs[_PV] = (i // N_VALUES + 1) / 8
            obs[_PV + 2] = (i % N_VALUES + 2) / 13
        elif pend_code < BOMB_BASE:
            i = pend_code - SEQ_BASE
            rest = i // N_VALUES
            obs[_PS + 1] = 1.0
            obs[_PS + 3] = 1.0
            obs[_PV] = (rest // N_LENGTHS + 1) / 8
            obs[_PV + 1] = (rest % N_LENGTHS + 2) / 12
            obs[_PV + 2] = (i % N_VALUES + 2) / 13
        else:
            obs[_PS + 2] = 1.0
            obs[_PS + 3] = 1.0
            obs[_PV + 2] = (pend_code - BOMB_BASE + 1) / 13
    kind = st[P_TOP_KIND]
    if kind == -1:
        obs[_TK] = 1.0
    else:
        obs[_TK + (1 if kind == SET else 2 if kind == SEQ else 3)] = 1.0
        obs[_TV] = st[P_TOP_A] / 8
        obs[_TV + 1] = st[P_TOP_B] / 12
        obs[_TV + 2] = st[P_TOP_VALUE] / 13
    if st[P_TOP_SEAT] >= 0:
        obs[_TS + (st[P_TOP_SEAT] - seat) % n] = 1.0
    for j in range(st[P_TRICK_LEN]):
        k = _slot(st[at + j], seat, n)
        obs[_TC + k] = 1.0
        obs[_PL + k] = 1.0
    at += st[P_TRICK_LEN]
    points = np.zeros(MAX_SEATS, np.int64)
    for s in range(n):  # the captured cards of every seat
        for j in range(at, at + st[P_CAPTURED_LEN + s]):
            obs[_PL + _slot(st[j], seat, n)] = 1.0
            points[s] += _POINTS[st[P_SCORING], st[j]]
        at += st[P_CAPTURED_LEN + s]
    for k in range(MAX_SEATS):
        if k < n:
            s = (seat + k) % n
            obs[_HS + k] = hl[s] / 17
            obs[_CP + k] = points[s] / 50
            obs[_GO + k] = st[P_GOING_OUT + s] / 85
            obs[_BP + k] = st[P_BET_POINTS + s] / 90
            obs[_TOT + k] = st[P_TOTALS + s] / st[P_TARGET]
            if st[P_HAS_LAST]:
                obs[_LR + k] = st[P_LAST + s] / 100
            b = st[P_BETS + s]
            obs[_BETS + 4 * k + (0 if b < 0 else 1 if b == 0 else 2 if b == 15 else 3)] = 1.0
    for j in range(st[P_N_OUT]):
        obs[_OUT + (st[P_OUT + j] - seat) % n] = 1.0
    if st[P_N_OUT]:
        obs[_FO + (st[P_OUT] - seat) % n] = 1.0
    obs[_PA] = st[P_PASSES] / 2
    if not st[P_OVER] and st[P_CURRENT] == seat:
        obs[_ST + (0 if st[P_BETS + seat] < 0 else (2 if pend_code >= 0 else 1))] = 1.0
    obs[_HG] = st[P_HAGGIS] / 8
    obs[_MI] = 1.0 if n == 3 else 0.0
    obs[_MI + 1] = st[P_ROUND] / 20
    obs[_MI + 2] = st[P_TARGET] / 350
    for j in range(OBS_DIM):
        if obs[j] > OBS_BOUND:
            obs[j] = OBS_BOUND
        elif obs[j] < -OBS_BOUND:
            obs[j] = -OBS_BOUND


@njit(cache=True)
def seq_cards(hand, w, L, top):
    """The card sets of the sequences of ``Combo(SEQ, w, L, top)`` in ``hand`` (int64 card ids, sorted):
    int64 ``(count, w * L)``, each row sorted ascending, rows in no particular order. The plays of
    :func:`seers_env.haggis.moves.combo_plays` for that combo (``moves._seq_dfs``: per rank some held number
    cards, at least one at the lowest rank, at most ``w`` suits in all, and wilds filling the missing slots
    up to their own ranks, section 4.1)."""
    lo = top - L + 1
    at = np.full((MAX_RANK + 1, 5), -1, np.int64)  # at[rank, suit]: the held number card
    bits = np.zeros(MAX_RANK + 1, np.int64)
    wilds = np.zeros(3, np.int64)
    wranks = np.zeros(3, np.int64)
    nw = 0
    for c in hand:
        if c >= FIRST_FACE:
            wilds[nw] = c
            wranks[nw] = JACK + (c - FIRST_FACE) % 3
            nw += 1
        else:
            r = MIN_RANK + c % N_NUMBER_RANKS
            at[r, c // N_NUMBER_RANKS] = c
            bits[r] |= 1 << (c // N_NUMBER_RANKS)
    # the options of each rank: subsets of its held suits (at most w, missing at most nw)
    opts = np.zeros((L, 32), np.int64)
    n_opts = np.zeros(L, np.int64)
    min_miss = np.zeros(L + 1, np.int64)
    for i in range(L):
        b = bits[lo + i]
        best = w + 1
        for sub in range(32):
            if sub & b != sub:
                continue
            k = _popcount(sub)
            if k > w or w - k > nw or (i == 0 and k == 0):
                continue
            opts[i, n_opts[i]] = sub
            n_opts[i] += 1
            best = min(best, w - k)
        if n_opts[i] == 0:
            return np.zeros((0, w * L), np.int64)
        min_miss[i] = best
    suffix = np.zeros(L + 1, np.int64)
    for i in range(L - 1, -1, -1):
        suffix[i] = suffix[i + 1] + min_miss[i]
    cap = 64
    out = np.zeros((cap, w * L), np.int64)
    count = 0
    idx = np.zeros(L + 1, np.int64)
    suits = np.zeros(L + 1, np.int64)  # union of suits before rank i
    miss = np.zeros(L + 1, np.int64)  # missing slots before rank i
    slots = np.zeros(3, np.int64)
    row = np.zeros(w * L, np.int64)
    i = 0
    idx[0] = 0
    while i >= 0:
        if i == L:
            m = miss[L]
            ns = 0
            for j in range(L):
                for _ in range(w - _popcount(opts[j, idx[j] - 1])):
                    slots[ns] = lo + j
                    ns += 1
            for wmask in range(1 << nw):
                if _popcount(wmask) != m:
                    continue
                fit = True
                t = 0
                for j in range(nw):  # wilds ascending by id, so by rank
                    if wmask >> j & 1:
                        if wranks[j] < slots[t]:
                            fit = False
                            break
                        t += 1
                if not fit:
                    continue
                q = 0
                for j in range(L):
                    sub = opts[j, idx[j] - 1]
                    for su in range(5):
                        if sub >> su & 1:
                            row[q] = at[lo + j, su]
                            q += 1
                for j in range(nw):
                    if wmask >> j & 1:
                        row[q] = wilds[j]
                        q += 1
                if count == cap:
                    bigger = np.zeros((2 * cap, w * L), np.int64)
                    bigger[:cap] = out
                    out = bigger
                    cap *= 2
                out[count] = np.sort(row)
                count += 1
            i -= 1
            continue
        if idx[i] >= n_opts[i] or miss[i] + suffix[i] > nw:
            i -= 1
            continue
        sub = opts[i, idx[i]]
        idx[i] += 1
        u = suits[i] | sub
        mm = miss[i] + w - _popcount(sub)
        if _popcount(u) > w or mm + suffix[i + 1] > nw:
            continue
        suits[i + 1] = u
        miss[i + 1] = mm
        i += 1
        idx[i] = 0
    return out[:count]


__all__ = ["P_HEADER", "seq_cards", "stage0_mask", "write_obs"]
