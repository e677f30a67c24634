"""Compiled pieces of the batch API (:mod:`seers_env.vector`): pending decisions, action masks and
observations of many kernel games (:mod:`seers_env.engine.kernel`) at once, in numba code.

They compute what the Python environment computes, on arrays:

* :func:`play_code` is :func:`seers_env.actions.play_codes` of a play key (catalogue stage 0, 1 or 2);
* a decision (``keys``, ``cands``, ``dec`` rows) narrows the legal plays by each chosen code exactly as
  :class:`seers_env.actions.Decision` does, and :func:`write_mask` writes ``Decision.mask()``;
* :func:`write_obs` writes :func:`seers_env.observation.observe` of the acting seat (same layout, same
  float32 values; ``tests/test_vector.py`` and ``tests/test_vector_core.py`` check both).

Decision state of slot ``i``: ``keys[i, :nkeys[i]]`` (int64 play keys, ``Game.legal_plays()`` order),
``cands[i, :dec[i, D_NCANDS]]`` (int32 indices of the plays still possible), ``dec[i, D_STAGE]`` (0 main,
1 wild positions, 2 artifact) and the codes chosen so far ``dec[i, D_CHOSEN:D_CHOSEN + dec[i, D_NCHOSEN]]``.

The batch API lists *folded* decisions (:func:`new_decision_folded`): the copies of the base melds with
an artifact riding along (rules section 6; often most of a list) are left out of ``keys`` and added by
:func:`choose` for the chosen main code only (``dec[i, D_RIDE]``: the kinds held; ``dec[i, D_USED]``: the
entries of ``keys`` in use). Masks, choices and chosen plays are the same as with the full list.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .actions import (
    ART_NONE, CARRY_BASE, CAULDRON_BASE, HALF_BASE, HIGHEST, N_ACTIONS, SUIT_BASE, TARGET_BASE, WILDS_BASE,
    main_code_of_key,
)
from .engine import core, kernel
from .engine.artifacts import CAULDRON, HALF_STEP, HIGHEST_SINGLE, SUIT_CHANGER
from .engine.jit import njit
from .engine.kernel import (
    HAND, KNOWN, N_CARD_IDS, PLAYED, S_CURRENT, S_GO_FIRST, S_N_PLAYERS, S_N_ROUNDS, S_OUTCOME, S_OVER,
    S_PASSED, S_ROUND, S_START, S_SUITS, S_TOP_RANK, S_TOP_SEAT, S_TOP_SIZE, S_TOP_TYPE, S_TOTALS, TRICK,
)
from .observation import (
    CARD_BLOCK, H_CHOSEN, H_GO_FIRST, H_LAST, H_N, H_N_ROUNDS, H_NCHOSEN, H_PASSED, H_ROUND, H_SCORED, H_SEAT,
    H_SIZES, H_STAGE, H_START, H_SUITS, H_TOP_RANK, H_TOP_SEAT, H_TOP_SIZE, H_TOP_TYPE, H_TOTALS, N_HEAD,
    OBSERVATION_LAYOUT, encode_head,
)

assert CARD_BLOCK == N_CARD_IDS

D_NCANDS = 0
D_STAGE = 1
D_NCHOSEN = 2
D_CHOSEN = 3  # up to 3 codes
D_RIDE = 6  # a folded decision's ride-along kinds (bitmask), 0 once unfolded or when the list is full
D_USED = 7  # a folded decision: entries of keys in use (the chosen code's ride-along copies go after)
N_DEC = 8
N_STAGES = 3

_O = {name: off for name, off, _ in OBSERVATION_LAYOUT}
O_HAND, O_PLAYED, O_TRICK, O_KNOWN = _O["hand"], _O["played"], _O["trick_cards"], _O["known"]
MAX_SEATS = 5



@njit(cache=True)
def play_code(key, stage, seat, n_players):
    """Code of the play with key ``key`` at decision ``stage`` (:func:`seers_env.actions.play_codes`;
    -1 where the stage does not apply)."""
    if stage == 0:
        return main_code_of_key(key)
    kind = key >> 57 & 3
    if stage == 1:
        if kind == core.MELD_KIND and key & 3 == core.RUN:
            return WILDS_BASE + (key >> 45 & 4095)
        return -1
    if kind == core.GIFT_KIND:
        target = (key >> 59 & 7) - 1
        return TARGET_BASE + (target - seat) % n_players - 1
    if kind != core.MELD_KIND:
        return ART_NONE
    art = (key >> 16 & 7) - 1
    if art < 0:
        return ART_NONE
    used = key >> 22 & 1
    if art == HIGHEST_SINGLE and used:
        return ART_NONE
    if not used:
        return CARRY_BASE + art
    modifier = (key >> 30 & 7) - 1
    if art == HALF_STEP:
        return HALF_BASE + (1 if modifier > 0 else 0)
    modified = (key >> 23 & 127) - 1
    if art == CAULDRON:
        return CAULDRON_BASE + 2 * modified + (1 if modifier > 0 else 0)
    if art == SUIT_CHANGER:
        return SUIT_BASE + modified
    return -2  # no catalogue code: never a legal play's


@njit(cache=True)
def code_at(keys, i, j, stage, seat, n_players):
    if stage == 0:
        return main_code_of_key(keys[i, j])
    return play_code(keys[i, j], stage, seat, n_players)


@njit(cache=True)
def new_decision(cards, scal, i, keys, nkeys, cands, dec, buf):
    """List slot ``i``'s legal plays into its decision rows; returns their number, or ``-n`` when ``n``
    plays do not fit in ``keys``' width (nothing written: the caller widens the buffers)."""
    legal = kernel.legal_keys(cards, scal, i, buf)
    return _write_decision(legal, 0, i, keys, nkeys, cands, dec)


@njit(cache=True)
def new_decision_folded(cards, scal, i, keys, nkeys, cands, dec, buf):
    """:func:`new_decision` with the ride-along copies folded (:func:`seers_env.engine.core.melds_keys_folded`):
    ``keys[i, :nkeys[i]]`` holds the legal plays but the copies of the base melds with an artifact riding
    along, which :func:`choose` adds for the chosen code only. The action mask, the choices and the play
    chosen are those of the full list: a copy has its base meld's main code, and a decision depends only
    on the set of plays, not their order. Returns the number of plays listed, or ``-w`` when ``w`` entries
    (the plays and room for the copies) do not fit in ``keys``' width (nothing written)."""
    legal, ride = kernel.legal_keys_folded(cards, scal, i, buf)
    return _write_decision(legal, ride, i, keys, nkeys, cands, dec)


@njit(cache=True)
def _write_decision(legal, ride, i, keys, nkeys, cands, dec):
    """Slot ``i``'s decision rows from its legal play keys (``ride``: the folded ride-along kinds, 0 for
    a full list); returns ``len(legal)``, or ``-w`` when the ``w`` entries needed do not fit."""
    n = legal.shape[0]
    need = n
    if ride:  # room for the copies of every base meld (a bound on those of one code)
        n_base = 0
        for j in range(n):
            if legal[j] >> 57 & 3 == core.MELD_KIND and legal[j] >> 16 & 7 == 0:
                n_base += 1
        need += n_base * core._popcount(ride)
    if need > keys.shape[1]:
        return -need
    keys[i, :n] = legal
    nkeys[i] = n
    for j in range(n):
        cands[i, j] = j
    dec[i, D_NCANDS] = n
    dec[i, D_STAGE] = 0
    dec[i, D_NCHOSEN] = 0
    dec[i, D_RIDE] = ride
    dec[i, D_USED] = n
    return n


@njit(cache=True)
def write_mask(scal, i, keys, cands, dec, masks):
    """``masks[i]`` = the action mask of slot ``i``'s pending decision (``Decision.mask()``)."""
    masks[i, :] = 0
    st = dec[i, D_STAGE]
    seat = scal[i, S_CURRENT]
    n = scal[i, S_N_PLAYERS]
    for j in range(dec[i, D_NCANDS]):
        masks[i, code_at(keys, i, cands[i, j], st, seat, n)] = 1


@njit(cache=True)
def first_bad_action(scal, keys, cands, dec, actions):
    """Index of the first slot whose action its mask does not allow (``Decision.is_legal`` from the
    decision rows, without a mask), or -1 when every action is allowed. Changes nothing."""
    for i in range(actions.shape[0]):
        a = actions[i]
        ok = False
        if 0 <= a < N_ACTIONS:
            st = dec[i, D_STAGE]
            seat = scal[i, S_CURRENT]
            n = scal[i, S_N_PLAYERS]
            for j in range(dec[i, D_NCANDS]):
                if code_at(keys, i, cands[i, j], st, seat, n) == a:
                    ok = True
                    break
        if not ok:
            return i
    return -1


@njit(cache=True)
def write_masks(scal, keys, cands, dec, masks):
    """Every slot's action mask (:func:`write_mask`) into ``masks`` int8 ``(N, N_ACTIONS)``."""
    for i in range(masks.shape[0]):
        write_mask(scal, i, keys, cands, dec, masks)


@njit(cache=True)
def choose(scal, i, keys, cands, dec, action):
    """Take ``action`` in slot ``i``'s decision (``Decision.choose``): the chosen play's key once it is
    fully determined, else -1 (a further stage is pending). ``action`` must be allowed by the mask. A
    folded decision (:func:`new_decision_folded`) is unfolded here, for the plays of the chosen code."""
    st = dec[i, D_STAGE]
    seat = scal[i, S_CURRENT]
    n = scal[i, S_N_PLAYERS]
    left = 0
    for j in range(dec[i, D_NCANDS]):
        c = cands[i, j]
        if code_at(keys, i, c, st, seat, n) == action:
            cands[i, left] = c
            left += 1
    ride = dec[i, D_RIDE]
    if ride:  # a folded decision: add the chosen base melds' ride-along copies (new_decision_folded)
        dec[i, D_RIDE] = 0
        nxt = dec[i, D_USED]
        m = left
        for j in range(left):
            k = keys[i, cands[i, j]]
            if k >> 57 & 3 == core.MELD_KIND and k >> 16 & 7 == 0:
                for kind in range(core.N_KINDS):
                    if ride >> kind & 1:
                        keys[i, nxt] = k | (kind + 1) << 16
                        cands[i, m] = nxt
                        nxt += 1
                        m += 1
        dec[i, D_USED] = nxt
        left = m
    dec[i, D_NCANDS] = left
    dec[i, D_CHOSEN + dec[i, D_NCHOSEN]] = action
    dec[i, D_NCHOSEN] += 1
    if left == 1:
        dec[i, D_STAGE] = N_STAGES
        return keys[i, cands[i, 0]]
    for nxt in range(st + 1, N_STAGES):
        first = code_at(keys, i, cands[i, 0], nxt, seat, n)
        for j in range(1, left):
            if code_at(keys, i, cands[i, j], nxt, seat, n) != first:
                dec[i, D_STAGE] = nxt
                return -1
    raise AssertionError("two legal plays share one code path")


@njit(cache=True)
def write_obs(cards, scal, scores, i, dec, obs):
    """``obs[i]`` = :func:`seers_env.observation.observe` of slot ``i``'s acting seat with its pending
    decision (float32, :data:`~seers_env.observation.OBSERVATION_LAYOUT`): the card blocks from the
    kernel's card planes, the rest by :func:`seers_env.observation.encode_head`."""
    write_obs_row(cards, scal, scores, i, dec[i], obs[i])


@njit(cache=True, inline="always")
def write_obs_row(cards, scal, scores, i, dec_row, row):
    """:func:`write_obs` into ``row`` (float32 ``(OBS_DIM,)``) with the decision row ``dec_row`` (int64
    ``(N_DEC,)``; ``dec_row[D_STAGE] == -1``: no pending decision, as ``observe(game, seat)``)."""
    row[:] = 0.0
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    head = np.zeros(N_HEAD, np.int64)
    for c in range(N_CARD_IDS):
        row[O_HAND + c] = cards[i, HAND + seat, c]
        row[O_TRICK + c] = cards[i, TRICK, c]
    for r in range(n):
        s = (seat + r) % n
        for c in range(N_CARD_IDS):
            row[O_PLAYED + r * CARD_BLOCK + c] = cards[i, PLAYED + s, c]
        if r:
            for c in range(N_CARD_IDS):
                row[O_KNOWN + (r - 1) * CARD_BLOCK + c] = cards[i, KNOWN + s, c]
        size = 0
        for c in range(N_CARD_IDS):
            size += cards[i, HAND + r, c]
        head[H_SIZES + r] = size
        head[H_PASSED + r] = scal[i, S_PASSED + r]
        head[H_TOTALS + r] = scal[i, S_TOTALS + r]
    scored = scal[i, S_ROUND] + scal[i, S_OVER]
    if scored:
        for r in range(n):
            head[H_LAST + r] = scores[i, scored - 1, r]
    suits = 0
    for s in range(MAX_SEATS):
        if scal[i, S_SUITS + s]:
            suits |= 1 << s
    head[H_N] = n
    head[H_SEAT] = seat
    head[H_TOP_TYPE] = scal[i, S_TOP_TYPE]
    head[H_TOP_SIZE] = scal[i, S_TOP_SIZE]
    head[H_TOP_RANK] = scal[i, S_TOP_RANK]
    head[H_TOP_SEAT] = scal[i, S_TOP_SEAT]
    head[H_START] = scal[i, S_START]
    head[H_GO_FIRST] = scal[i, S_GO_FIRST]
    head[H_ROUND] = scal[i, S_ROUND]
    head[H_N_ROUNDS] = scal[i, S_N_ROUNDS]
    head[H_STAGE] = dec_row[D_STAGE]
    head[H_SCORED] = scored
    head[H_SUITS] = suits
    head[H_NCHOSEN] = dec_row[D_NCHOSEN]
    for k in range(dec_row[D_NCHOSEN]):
        head[H_CHOSEN + k] = dec_row[D_CHOSEN + k]
    encode_head(row, head)


@njit(cache=True)
def _placement_rewards(scal, scores, i, out_row):
    """``"win"`` rewards of a finished game: ``(n + 1 - 2 * place) / (n - 1)``, places by (total,
    last-round score) with tied seats sharing their places' mean (:func:`seers_env.scoring.placements`)."""
    n = scal[i, S_N_PLAYERS]
    last = scal[i, S_N_ROUNDS] - 1
    for s in range(n):
        better = 0
        equal = 0
        ts, ls = scal[i, S_TOTALS + s], scores[i, last, s]
        for t in range(n):
            tt, lt = scal[i, S_TOTALS + t], scores[i, last, t]
            if tt > ts or (tt == ts and lt > ls):
                better += 1
            elif tt == ts and lt == ls:
                equal += 1
        place = (better + better + equal - 1) / 2 + 1
        out_row[s] = (n + 1 - 2 * place) / (n - 1)


@njit(cache=True)
def _step_row(cards, scal, scores, keys, nkeys, cands, dec, i, action, obs, masks, rewards, terms, totals,
              win_mode, widen, buf, tmp):
    """:func:`step_all` for slot ``i``; returns 1 when its next legal plays do not fit in ``keys``."""
    widen[i] = 0
    terms[i] = False
    p = scal[i, S_N_PLAYERS]
    for s in range(p):
        rewards[i, s] = 0.0
        totals[i, s] = 0
    key = choose(scal, i, keys, cands, dec, action)
    if key < 0:  # a further choice of the same seat
        write_mask(scal, i, keys, cands, dec, masks)
        write_obs(cards, scal, scores, i, dec, obs)
        return 0
    return _apply_row(cards, scal, scores, keys, nkeys, cands, dec, i, key, obs, masks, rewards, terms, totals,
                      win_mode, widen, buf, tmp)


@njit(cache=True, inline="always")
def _apply_row(cards, scal, scores, keys, nkeys, cands, dec, i, key, obs, masks, rewards, terms, totals,
               win_mode, widen, buf, tmp):
    """The rest of :func:`_step_row` once slot ``i``'s play ``key`` is chosen: apply it, book rewards,
    autoreset, list the next (folded) decision; returns 1 when its legal plays do not fit in ``keys``."""
    p = scal[i, S_N_PLAYERS]
    r = scal[i, S_ROUND]
    kernel.apply_key(cards, scal, scores, i, key, tmp)
    outcome = scal[i, S_OUTCOME]
    if outcome == kernel.OUT_ROUND or outcome == kernel.OUT_GAME_OVER:
        if not win_mode:
            for s in range(p):
                rewards[i, s] = scores[i, r, s]
    if outcome == kernel.OUT_GAME_OVER:
        if win_mode:
            _placement_rewards(scal, scores, i, rewards[i])
        terms[i] = True
        for s in range(p):
            totals[i, s] = scal[i, S_TOTALS + s]
        kernel.install_pending(cards, scal, scores, i)  # the slot's next game (autoreset)
    got = new_decision_folded(cards, scal, i, keys, nkeys, cands, dec, buf)
    if got < 0:
        widen[i] = -got
        return 1
    write_mask(scal, i, keys, cands, dec, masks)
    write_obs(cards, scal, scores, i, dec, obs)
    return 0


@njit(cache=True)
def step_all(cards, scal, scores, keys, nkeys, cands, dec, actions, obs, masks, rewards, terms, totals,
             win_mode, widen):
    """One action in every slot (the batch API's ``step``): choose, apply a completed play, autoreset a
    finished game from its pending deal, list the next decision (folded, :func:`new_decision_folded`),
    write masks and observations.

    ``rewards`` float32 ``(N, P)``, ``terms`` bool ``(N,)``, ``totals`` int64 ``(N, P)`` are written
    for every slot (zero unless something happened). A slot whose next legal plays do not fit in
    ``keys`` gets ``widen[i] = count`` (its decision, mask and observation are left to the caller).
    Returns the number of such slots.
    """
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    tmp = np.empty(N_CARD_IDS, np.int64)
    n_wide = 0
    for i in range(actions.shape[0]):
        n_wide += _step_row(cards, scal, scores, keys, nkeys, cands, dec, i, actions[i], obs, masks, rewards,
                            terms, totals, win_mode, widen, buf, tmp)
    return n_wide


@njit(cache=True)
def step_plays_all(cards, scal, scores, keys, nkeys, cands, dec, play_keys, obs, masks, rewards, terms, totals,
                   win_mode, widen):
    """:func:`step_all` with whole plays: apply play key ``play_keys[i]`` (int64 ``(N,)``, a legal play of
    slot ``i``'s acting seat, not checked here) in every slot, however many catalogue actions it would
    take; rewards, terminations, totals, autoreset, the next decisions, masks and observations as
    :func:`step_all`. Returns the number of slots whose next legal plays do not fit in ``keys``."""
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    tmp = np.empty(N_CARD_IDS, np.int64)
    n_wide = 0
    for i in range(play_keys.shape[0]):
        widen[i] = 0
        terms[i] = False
        for s in range(scal[i, S_N_PLAYERS]):
            rewards[i, s] = 0.0
            totals[i, s] = 0
        n_wide += _apply_row(cards, scal, scores, keys, nkeys, cands, dec, i, play_keys[i], obs, masks, rewards,
                             terms, totals, win_mode, widen, buf, tmp)
    return n_wide


@njit(cache=True, parallel=True)
def step_all_parallel(cards, scal, scores, keys, nkeys, cands, dec, actions, obs, masks, rewards, terms,
                      totals, win_mode, widen):
    """:func:`step_all` with the slots shared among numba's threads (``numba.set_num_threads``)."""
    n_wide = 0
    for i in prange(actions.shape[0]):
        buf = np.empty(N_CARD_IDS + 160, np.int64)
        tmp = np.empty(N_CARD_IDS, np.int64)
        n_wide += _step_row(cards, scal, scores, keys, nkeys, cands, dec, i, actions[i], obs, masks, rewards,
                            terms, totals, win_mode, widen, buf, tmp)
    return n_wide


@njit(cache=True)
def start_all(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, widen, buf):
    """List every slot's first decision and write its mask and observation (after a reset); slots whose
    plays do not fit get ``widen[i] = count``. Returns the number of such slots."""
    return _start_rows(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, widen, buf, False)


@njit(cache=True)
def start_all_folded(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, widen, buf):
    """:func:`start_all` with folded decisions (:func:`new_decision_folded`, as :func:`step_all` lists
    them)."""
    return _start_rows(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, widen, buf, True)


@njit(cache=True)
def _start_rows(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, widen, buf, folded):
    n_wide = 0
    for i in range(scal.shape[0]):
        widen[i] = 0
        if folded:
            got = new_decision_folded(cards, scal, i, keys, nkeys, cands, dec, buf)
        else:
            got = new_decision(cards, scal, i, keys, nkeys, cands, dec, buf)
        if got < 0:
            widen[i] = -got
            n_wide += 1
            continue
        write_mask(scal, i, keys, cands, dec, masks)
        write_obs(cards, scal, scores, i, dec, obs)
    return n_wide


@njit(cache=True)
def finish_rows(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, rows, buf):
    """List the decision of each slot in ``rows`` and write its mask and observation (after widening)."""
    for i in rows:
        new_decision(cards, scal, i, keys, nkeys, cands, dec, buf)
        write_mask(scal, i, keys, cands, dec, masks)
        write_obs(cards, scal, scores, i, dec, obs)


@njit(cache=True)
def finish_rows_folded(cards, scal, scores, keys, nkeys, cands, dec, obs, masks, rows, buf):
    """:func:`finish_rows` with folded decisions (:func:`new_decision_folded`)."""
    for i in rows:
        new_decision_folded(cards, scal, i, keys, nkeys, cands, dec, buf)
        write_mask(scal, i, keys, cands, dec, masks)
        write_obs(cards, scal, scores, i, dec, obs)


#: Bits a uint64 word of int8 masks may not have set when each of its 8 bytes is 0 or 1.
_NOT_01 = np.uint64(0xFEFEFEFEFEFEFEFE)


@njit(cache=True)
def _bad_input(out, i, kind):
    """The error return of the compiled choosers: ``out[0] = -2 - 2 * i - kind`` for row ``i`` whose
    uniform is not in [0, 1) (``kind`` 1) or whose mask holds a value other than 0 or 1 (``kind`` 0)."""
    out[0] = -2 - 2 * i - kind
    return out


@njit(cache=True)
def _random_legal_rows(masks, uniforms):
    """:func:`random_legal_actions` on any int8 ``(N, A)`` masks: a byte at a time."""
    n = masks.shape[0]
    out = np.full(n, -1, np.int64)
    for i in range(n):
        if not (uniforms[i] >= 0.0 and uniforms[i] < 1.0):  # NaN fails both
            return _bad_input(out, i, 1)
        count = 0
        for a in range(masks.shape[1]):
            if masks[i, a] != 0 and masks[i, a] != 1:
                return _bad_input(out, i, 0)
            count += masks[i, a]
        if count == 0:
            continue
        want = int(uniforms[i] * count)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if want == 0:
                    out[i] = a
                    break
                want -= 1
    return out


@njit(cache=True)
def _random_legal_words(masks, words, uniforms):
    """:func:`random_legal_actions` on C-contiguous masks, ``words`` their uint64 view ``(N, A // 8)``:
    the all-zero words (most of a mask) are skipped 8 actions at a time; the same choices as
    :func:`_random_legal_rows`."""
    n = masks.shape[0]
    out = np.full(n, -1, np.int64)
    for i in range(n):
        if not (uniforms[i] >= 0.0 and uniforms[i] < 1.0):  # NaN fails both
            return _bad_input(out, i, 1)
        count = 0
        seen = np.uint64(0)  # the OR of the row's nonzero words: a byte other than 0 or 1 shows in it
        for w in range(words.shape[1]):
            if words[i, w]:
                seen |= words[i, w]
                for a in range(8 * w, 8 * w + 8):
                    count += masks[i, a]
        if seen & _NOT_01:
            return _bad_input(out, i, 0)
        if count == 0:
            continue
        want = int(uniforms[i] * count)
        for w in range(words.shape[1]):
            if not words[i, w]:
                continue
            for a in range(8 * w, 8 * w + 8):
                if masks[i, a]:
                    if want == 0:
                        out[i] = a
                        break
                    want -= 1
            if out[i] >= 0:
                break
    return out


def random_legal_actions(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """A uniformly random allowed action of each row: the ``int(u * count)``-th allowed action (in
    increasing order) of row ``i`` with ``u = uniforms[i]`` (float64 in [0, 1)); int64 ``(N,)``, -1 for a
    row that allows nothing. For random rollouts and benchmarks (the choice a NumPy loop over
    ``np.nonzero(masks)`` makes, without scanning the masks twice).

    Args:
        masks: int8 (or bool) ``(N, A)`` action masks (0/1), e.g. the batch API's ``"action_mask"``.
        uniforms: float64 ``(N,)``, each finite and in [0, 1).

    Raises:
        TypeError: ``masks`` is not a NumPy array of int8 or bool.
        ValueError: ``masks`` is not 2-D or holds a value other than 0 and 1; ``uniforms`` is not of
            shape ``(N,)`` or holds a value that is not finite or outside [0, 1).
    """
    if not isinstance(masks, np.ndarray) or masks.dtype not in (np.int8, np.bool_):
        raise TypeError(f"masks must be an int8 (or bool) numpy array of shape (N, A), got "
                        f"{getattr(masks, 'dtype', type(masks).__name__)}")
    if masks.ndim != 2:
        raise ValueError(f"masks must be 2-D (N, A), got shape {masks.shape}")
    u = np.asarray(uniforms, dtype=np.float64)
    if u.shape != (masks.shape[0],):
        raise ValueError(f"uniforms must have shape ({masks.shape[0]},) (one per mask row), got {u.shape}")
    if masks.dtype == np.int8 and masks.flags.c_contiguous and masks.shape[1] % 8 == 0:
        out = _random_legal_words(masks, masks.view(np.uint64), u)  # masks of N_ACTIONS = 6928 = 8 * 866
    else:
        out = _random_legal_rows(masks, u)
    if out.shape[0] and out[0] <= -2:  # checked in the compiled scan (the first bad row)
        row, kind = divmod(-2 - int(out[0]), 2)
        if kind:
            raise ValueError(f"uniforms[{row}] = {float(u[row])!r} is not allowed; each uniform must be "
                             "finite and in [0, 1)")
        vals = sorted(set(np.unique(masks[row]).tolist()) - {0, 1})
        raise ValueError(f"masks row {row} holds {vals}; allowed mask values: 0 and 1")
    return out


assert N_ACTIONS > TARGET_BASE and HIGHEST == 3

__all__ = ["choose", "first_bad_action", "finish_rows", "finish_rows_folded", "new_decision",
           "new_decision_folded", "play_code", "random_legal_actions", "start_all", "start_all_folded",
           "step_all", "step_plays_all", "write_mask", "write_masks", "write_obs", "write_obs_row"]
