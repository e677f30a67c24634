"""Compiled play-scoring features of many kernel games at once: the input of self-play learners.

The play-scoring learners (DouZero, Zha et al. ICML 2021: Q(s, a) over move features; PerfectDou, Yang et
al. NeurIPS 2022: logits over a legal-action feature matrix, with a privileged critic) score every legal
play of a decision with one network. :mod:`seers_env.features` builds their input from a Python
:class:`~seers_env.game.Game`; this module builds the same arrays, bit for bit, from the compiled kernel's
state (:mod:`seers_env.engine.kernel`), for a batch of games (*slots*) in one numba call (``cache=True``).

For each listed slot, at the decision of its acting seat:

* the state: :func:`seers_env.features.encode_state` float32 ``(STATE_DIM,)``: the observation without a
  pending decision (:func:`seers_env.vector_core.write_obs_row`, stage -1), the unseen suited cards and
  wilds (rules section 3, public information), and the round's last :data:`HISTORY_LEN` plays, newest
  first, from the kernel's play history (``S_HIST_*``, reset at each deal);
* the play rows: :func:`seers_env.features.encode_plays` float32 ``(P, PLAY_DIM)`` of the *full* legal
  list in ``Game.legal_plays()`` order (row ``j`` is play ``j``; no folding of ride-along artifact copies),
  optionally followed by one column, the heuristic agent's score of each play
  (:func:`seers_env.play_eval.heuristic_values`, float64 cast to float32, as
  ``train.scoring_policy.play_rows`` builds it);
* the hidden hands: every hand seen from the acting seat (relative seats, 5 x 68 counts), float32
  ``(HIDDEN_DIM,)``, the privileged critic's input (``train.scoring_policy.hidden_hands``; training only);
* the legal play keys (int64, the same order), to apply the chosen play with
  :func:`seers_env.engine.kernel.apply_key`.

The layouts are those of :mod:`seers_env.features` (``tests/test_vector_features.py`` checks equality with
``encode_state``, ``play_rows`` and ``hidden_hands`` over thousands of positions); the row part offsets
are passed in (``features._ROW_OFFSETS``) because this compiled module imports no Python game code.
:class:`seers_env.vector.SeersVectorEnv` (``play_features``, ``step_plays``) and the self-play actor
(``train.selfplay.Actor``) call it.
"""

from __future__ import annotations

import numpy as np

from .engine import kernel
from .engine.cards import N_SUITED, N_VALUES, SETUP_BY_PLAYERS, WILD, WILDS_PER_PLAYER
from .engine.jit import njit
from .engine.kernel import (
    DISCARDS, HAND, KNOWN, N_CARD_IDS, PLAYED, ROD_CARD, S_CURRENT, S_HIST_COUNT, S_HIST_KEYS, S_HIST_SEATS,
    S_N_PLAYERS, S_SUITS, S_TOP_RANK, S_TOP_TYPE, TRICK,
)
from .engine.rulings import HIGHEST_SINGLE_RANK
from .engine.scoring import BONUS_MAX_CARDS
from .observation import CARD_BLOCK, MAX_SEATS, OBS_DIM
from .play_eval import encode_rows, hands_left, heuristic_values, table_of_keys
from .vector_core import D_STAGE, N_DEC, write_obs_row

#: Plays of the round in the state's history part (:data:`seers_env.features.HISTORY_LEN`).
HISTORY_LEN = kernel.HISTORY_LEN
#: Length of one history entry (:data:`seers_env.features.HISTORY_ENTRY`).
HISTORY_ENTRY = 24
#: Offsets of the state parts (:data:`seers_env.features.STATE_LAYOUT`).
O_UNSEEN = OBS_DIM
O_UNSEEN_WILDS = OBS_DIM + N_SUITED
O_HISTORY = O_UNSEEN_WILDS + 1
#: Length of a state vector (:data:`seers_env.features.STATE_DIM`).
STATE_DIM = O_HISTORY + HISTORY_LEN * HISTORY_ENTRY
#: Length of a hidden-hands vector (``train.scoring_policy.HIDDEN_DIM``).
HIDDEN_DIM = MAX_SEATS * CARD_BLOCK
#: Highest suited value in play by player count (index: players; rules section 2).
MAX_VALUE = np.array([0, 0] + [SETUP_BY_PLAYERS[n][1] for n in range(2, 6)], dtype=np.int64)

assert CARD_BLOCK == N_CARD_IDS


@njit(cache=True)
def write_state(cards, scal, scores, i, row):
    """``row`` (float32 ``(STATE_DIM,)``, overwritten) = ``encode_state`` of slot ``i``'s acting seat."""
    dec_row = np.zeros(N_DEC, np.int64)
    dec_row[D_STAGE] = -1  # observe(game, seat): no pending decision
    write_obs_row(cards, scal, scores, i, dec_row, row[:OBS_DIM])
    row[OBS_DIM:] = 0.0
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    # unseen suited cards of this round's deck: not held, not played this round, not known in another hand
    top_value = MAX_VALUE[n]
    for suit in range(MAX_SEATS):
        if not scal[i, S_SUITS + suit]:
            continue
        for c in range(suit * N_VALUES, suit * N_VALUES + top_value - 1):
            seen = cards[i, HAND + seat, c] > 0
            for s in range(n):
                if cards[i, PLAYED + s, c] or (s != seat and cards[i, KNOWN + s, c]):
                    seen = True
            if not seen:
                row[O_UNSEEN + c] = 1.0
    wilds = n * WILDS_PER_PLAYER - cards[i, HAND + seat, WILD] - cards[i, DISCARDS, WILD] - cards[i, TRICK, WILD]
    for s in range(n):
        if s != seat:
            wilds -= cards[i, KNOWN + s, WILD]
    row[O_UNSEEN_WILDS] = max(0, wilds) / 5.0
    # the round's plays, newest first (Game.events since the round's deal)
    count = scal[i, S_HIST_COUNT]
    for k in range(min(count, HISTORY_LEN)):
        j = (count - 1 - k) % HISTORY_LEN
        key = scal[i, S_HIST_KEYS + j]
        who = scal[i, S_HIST_SEATS + j]
        o = O_HISTORY + k * HISTORY_ENTRY
        kind = key >> 57 & 3
        meld_type = key & 3
        rank = key >> 6 & 127
        art = (key >> 16 & 7) - 1
        row[o] = 1.0
        row[o + 1 + (who - seat) % n] = 1.0
        row[o + 6 + kind] = 1.0
        if meld_type:
            row[o + 9 + meld_type] = 1.0
        row[o + 13] = (key >> 2 & 15) / 12.0
        row[o + 14] = 1.0 if rank >= HIGHEST_SINGLE_RANK else rank / 27.0
        row[o + 15] = key >> 13 & 7
        if art >= 0:
            row[o + 16 + art] = 1.0
        row[o + 23] = key >> 22 & 1


@njit(cache=True)
def write_hidden(cards, scal, i, row):
    """``row`` (float32 ``(HIDDEN_DIM,)``, overwritten) = every hand seen from slot ``i``'s acting seat
    (``train.scoring_policy.hidden_hands``)."""
    row[:] = 0.0
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    for r in range(n):
        s = (seat + r) % n
        for c in range(N_CARD_IDS):
            row[r * CARD_BLOCK + c] = cards[i, HAND + s, c]


@njit(cache=True)
def _position(cards, scal, i, buf):
    """Slot ``i``'s acting seat's position: ``(hand int64, trick picked up by a Rod int64, sizes int64
    (n,), leading, top rank)``; ``buf``: int64 scratch of 68 + 160."""
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    nh = kernel.hand_array(cards, i, seat, buf)
    hand = buf[:nh].copy()
    nt = 0
    if cards[i, HAND + seat, ROD_CARD]:  # the Rod picks up the trick (section 6)
        for c in range(N_CARD_IDS):
            nt += cards[i, TRICK, c]
    trick = np.empty(nt, np.int64)
    k = 0
    if nt:
        for c in range(N_CARD_IDS):
            for _ in range(cards[i, TRICK, c]):
                trick[k] = c
                k += 1
    sizes = np.zeros(n, np.int64)
    for s in range(n):
        for c in range(N_CARD_IDS):
            sizes[s] += cards[i, HAND + s, c]
    return hand, trick, sizes, scal[i, S_TOP_TYPE] == 0, scal[i, S_TOP_RANK]


@njit(cache=True)
def _danger(sizes, seat, danger_cards):
    """An opponent holds ``danger_cards`` cards or fewer (the heuristic agent's ``danger``)."""
    low = 1 << 30
    for s in range(sizes.shape[0]):
        if s != seat and sizes[s] < low:
            low = sizes[s]
    return low <= danger_cards


@njit(cache=True)
def write_rows(cards, scal, i, keys, row_offsets, play_dim, with_prior, weights, danger_cards, out):
    """``out`` (float32 ``(len(keys), play_dim + with_prior)``) = the play rows of slot ``i``'s legal plays
    ``keys`` (``encode_plays``; the heuristic score in the last column when ``with_prior``). Returns the
    index of a play that spends cards the seat does not hold (``-1``: none; never for legal keys)."""
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    hand, trick, sizes, leading, top_rank = _position(cards, scal, i, buf)
    table = table_of_keys(keys)
    left, bad = hands_left(hand, table, trick)
    if bad >= 0:
        return bad
    rows = encode_rows(table, left, row_offsets, play_dim, min(hand.shape[0], BONUS_MAX_CARDS + 1),
                                 not leading, top_rank, trick.shape[0], sizes, seat, n)
    for r in range(rows.shape[0]):
        for c in range(play_dim):
            out[r, c] = rows[r, c]
    if with_prior:
        scores = heuristic_values(table, left, weights, leading, _danger(sizes, seat, danger_cards),
                                            sizes)
        for r in range(rows.shape[0]):
            out[r, play_dim] = scores[r]  # float64 -> float32
    return -1


@njit(cache=True)
def heuristic_choice(cards, scal, i, keys, weights, danger_cards):
    """The heuristic agent's play in slot ``i`` (``HeuristicAgent.act``: the first best-scoring of the
    legal ``keys``, with its ``weights`` float64 ``(11,)`` and ``danger_cards``): its index in ``keys``."""
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    seat = scal[i, S_CURRENT]
    hand, trick, sizes, leading, _ = _position(cards, scal, i, buf)
    table = table_of_keys(keys)
    left, bad = hands_left(hand, table, trick)
    scores = heuristic_values(table, left, weights, leading, _danger(sizes, seat, danger_cards), sizes)
    return np.argmax(scores)  # the first of the best


@njit(cache=True)
def decision_features(cards, scal, scores, slots, row_offsets, play_dim, with_prior, weights, danger_cards,
                      with_hidden):
    """The play-scoring features of the decisions of ``slots`` (int64 ``(M,)``, each slot's acting seat).

    Args:
        cards, scal, scores: the kernel state (:mod:`seers_env.engine.kernel`).
        slots: int64 ``(M,)`` slots whose game is not over (not checked here).
        row_offsets: int64 offsets of the row parts (``seers_env.features._ROW_OFFSETS``); ``play_dim``:
            ``seers_env.features.PLAY_DIM``.
        with_prior: add the heuristic score column (``weights`` float64 ``(11,)`` in the order of
            :data:`seers_env.play_eval.HEURISTIC_WEIGHTS`, ``danger_cards``: the heuristic's threshold).
        with_hidden: fill the hidden hands (else they stay zero).

    Returns:
        ``(states float32 (M, STATE_DIM), rows float32 (R, play_dim + with_prior), offsets int64 (M + 1,),
        hidden float32 (M, HIDDEN_DIM), keys int64 (R,), bad)``: decision ``j`` owns rows and keys
        ``offsets[j]:offsets[j + 1]`` (its legal plays, ``Game.legal_plays()`` order); ``bad`` is the first
        decision whose rows could not be built (``-1``: none; a kernel state out of step with its plays).
    """
    m = slots.shape[0]
    keys, offsets = legal_key_lists(cards, scal, slots)
    width = play_dim + (1 if with_prior else 0)
    rows = np.zeros((offsets[m], width), np.float32)
    states = np.empty((m, STATE_DIM), np.float32)
    hidden = np.zeros((m, HIDDEN_DIM), np.float32)
    bad = -1
    for j in range(m):
        i = slots[j]
        write_state(cards, scal, scores, i, states[j])
        if with_hidden:
            write_hidden(cards, scal, i, hidden[j])
        if write_rows(cards, scal, i, keys[offsets[j]:offsets[j + 1]], row_offsets, play_dim, with_prior, weights,
                      danger_cards, rows[offsets[j]:offsets[j + 1]]) >= 0 and bad < 0:
            bad = j
    return states, rows, offsets, hidden, keys, bad


@njit(cache=True)
def legal_key_lists(cards, scal, slots):
    """The legal play keys of the acting seats of ``slots`` (int64 ``(M,)``): ``(keys int64 (R,), offsets
    int64 (M + 1,))``, slot ``slots[j]``'s keys at ``offsets[j]:offsets[j + 1]`` (``Game.legal_plays()``
    order)."""
    m = slots.shape[0]
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    lists = [np.empty(0, np.int64) for _ in range(m)]
    offsets = np.zeros(m + 1, np.int64)
    for j in range(m):
        lists[j] = kernel.legal_keys(cards, scal, slots[j], buf)
        offsets[j + 1] = offsets[j] + lists[j].shape[0]
    keys = np.empty(offsets[m], np.int64)
    for j in range(m):
        keys[offsets[j]:offsets[j + 1]] = lists[j]
    return keys, offsets


#: :func:`advance_forced` status of a slot: it waits for the learner's choice (more than one legal play).
WAITS = 0
#: :func:`advance_forced` status: a play was made (forced, or by the heuristic seat).
PLAYED_ONE = 1


@njit(cache=True)
def advance_forced(cards, scal, scores, slots, heuristic_seats, weights, danger_cards, status, rounds):
    """One play in each slot of ``slots`` whose decision needs no learner: the acting seat is a heuristic
    seat (``heuristic_seats`` bool ``(N, 5)``; it plays :func:`heuristic_choice`) or has one legal play.

    Writes ``status[j]`` (:data:`WAITS` or :data:`PLAYED_ONE`) and ``rounds[j]``, the round that was in play
    before the play (its scores are ``scores[slot, rounds[j]]`` when ``scal[slot, S_OUTCOME]`` says that
    the play ended it). The caller refills the slots' deals (:meth:`KernelGames.refill`) afterwards.
    """
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    tmp = np.empty(N_CARD_IDS, np.int64)
    for j in range(slots.shape[0]):
        i = slots[j]
        keys = kernel.legal_keys(cards, scal, i, buf)
        seat = scal[i, S_CURRENT]
        if heuristic_seats[i, seat]:
            key = keys[heuristic_choice(cards, scal, i, keys, weights, danger_cards)]
        elif keys.shape[0] == 1:
            key = keys[0]
        else:
            status[j] = WAITS
            continue
        rounds[j] = scal[i, kernel.S_ROUND]
        kernel.apply_key(cards, scal, scores, i, key, tmp)
        status[j] = PLAYED_ONE


@njit(cache=True)
def apply_chosen(cards, scal, scores, i, key):
    """Apply legal play ``key`` in slot ``i`` (:func:`seers_env.engine.kernel.apply_key`); returns
    ``(outcome, round before the play)``."""
    r = scal[i, kernel.S_ROUND]
    tmp = np.empty(N_CARD_IDS, np.int64)
    return kernel.apply_key(cards, scal, scores, i, key, tmp), r


__all__ = ["HIDDEN_DIM", "HISTORY_ENTRY", "HISTORY_LEN", "PLAYED_ONE", "STATE_DIM", "WAITS", "advance_forced",
           "apply_chosen", "decision_features", "heuristic_choice", "legal_key_lists", "write_hidden", "write_rows", "write_state"]
