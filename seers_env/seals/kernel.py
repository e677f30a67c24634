"""The Seals round compiled with numba, for rollouts: the take scores of the Seals heuristic
(:class:`agents.seals.SealsHeuristicAgent`, its weights passed in as arrays) and a round played on with
them in every seat (rules ``shared/rules/seals.md``, sections 3 to 5).

This is the simulator behind :class:`agents.seals_rollout.SealsRolloutAgent`; the Python engine
(:mod:`seers_env.seals.game`) and the Python heuristic are the reference, and
``tests/test_seals_rollout.py`` checks this module against them take by take and round by round (the
scores bit for bit). It imports numpy only.

Arrays: a hand is int64 ``(11,)`` symbol counts (only symbols matter for sets, section 4); the row and
the pile are int64 card ids (``colour * 11 + symbol``) with a length; ``pile[0]`` is the top card.
``w`` is float64 ``(5,)``: win_bonus, denial, threat, gift, unused; ``powers`` float64 ``(11,)``:
``closeness ** k`` (:func:`agents.seals_rollout.weight_array`).
"""

from __future__ import annotations

import numpy as np

from ..engine.jit import njit
from .cards import SET_MARKS
from .rulings import ROW_SIZE

_MARKS = np.array(SET_MARKS, dtype=np.int64)  # 12 set kinds, section 4 (a run: 4 Marks each)


@njit(cache=True)
def _hand_value(counts, free, powers):
    v = 0.0
    for k in range(11):
        need = 4 - counts[k]
        if need < 0:
            need = 0
        if counts[k] + free[k] >= 4:
            v += _MARKS[k] * powers[need]
    need = 0
    reach = True
    for k in range(10):
        if counts[k] == 0:
            need += 1
            if free[k] == 0:
                reach = False
    if reach:
        v += _MARKS[11] * powers[need]
    return v


@njit(cache=True)
def _has_run(counts):
    for k in range(10):
        if counts[k] == 0:
            return False
    return True


@njit(cache=True)
def has_set_counts(counts):
    """Whether symbol ``counts`` hold a set (section 4)."""
    for k in range(11):
        if counts[k] >= 4:
            return True
    return _has_run(counts)


@njit(cache=True)
def max_marks_counts(counts):
    """Marks of the best declaration of symbol ``counts`` (0 without a set): the best over ``r`` disjoint
    runs, ``r`` in ``0..min(counts[0..9])``, of ``4 r`` plus every four-of-a-kind still disjoint from them
    (sections 3.3 and 4: a number's four beside ``r`` runs needs ``4 + r`` cards of it)."""
    max_runs = counts[0]
    for k in range(1, 10):
        if counts[k] < max_runs:
            max_runs = counts[k]
    coins = _MARKS[10] if counts[10] >= 4 else 0
    best = 0
    for r in range(max_runs + 1):
        m = coins + _MARKS[11] * r
        for k in range(10):
            if counts[k] >= 4 + r:
                m += _MARKS[k]
        if m > best:
            best = m
    return best


@njit(cache=True)
def _takes(row, row_len, out):
    """Legal take action ids of the row into ``out`` (ascending: colours, then 5 + symbol); their count."""
    n = 0
    for colour in range(5):
        for i in range(row_len):
            if row[i] // 11 == colour:
                out[n] = colour
                n += 1
                break
    for sym in range(11):
        for i in range(row_len):
            if row[i] % 11 == sym:
                out[n] = 5 + sym
                n += 1
                break
    return n


@njit(cache=True)
def _is_taken(card, action):
    if action < 5:
        return card // 11 == action
    return card % 11 == action - 5


@njit(cache=True)
def _next_playing(playing, seat):
    """The next seat clockwise after ``seat`` that plays the round (``seat`` itself if none other does)."""
    n_players = playing.shape[0]
    for step in range(1, n_players + 1):
        s = (seat + step) % n_players
        if playing[s]:
            return s
    return seat


@njit(cache=True)
def _take_into(hand, row, row_len, action, left):
    """Adds the row's cards that take ``action`` picks up to ``hand`` (symbol counts) and writes the others,
    in row order, into ``left`` (which may be ``row`` itself); returns their count (section 3.2)."""
    k = 0
    for i in range(row_len):
        c = row[i]
        if _is_taken(c, action):
            hand[c % 11] += 1
        else:
            left[k] = c
            k += 1
    return k


@njit(cache=True)
def _best_immediate(counts, left, left_len, buf):
    best = 0
    n = _takes(left, left_len, buf)
    after = np.empty(11, np.int64)
    for t in range(n):
        a = buf[t]
        after[:] = counts
        for i in range(left_len):
            if _is_taken(left[i], a):
                after[left[i] % 11] += 1
        if has_set_counts(after):
            m = max_marks_counts(after)
            if m > best:
                best = m
    return best


@njit(cache=True)
def take_scores(hands, me, playing, row, row_len, pile, pile_start, pile_len, w, powers, actions, scores):
    """:meth:`agents.seals.SealsHeuristicAgent.scores` of the take phase, compiled: writes the legal take
    action ids into ``actions`` and their scores into ``scores`` (both ``(16,)``); returns their count.

    ``hands`` int64 ``(n, 11)``; ``playing`` bool ``(n,)``; ``row`` int64 with ``row_len`` cards;
    ``pile[pile_start:pile_len]`` the pile; ``w``, ``powers`` from :func:`weight_array`."""
    n_players = hands.shape[0]
    free = np.zeros(11, np.int64)
    for i in range(pile_start, pile_len):
        free[pile[i] % 11] += 1
    for i in range(row_len):
        free[row[i] % 11] += 1
    nxt = _next_playing(playing, me)
    mine_before = _hand_value(hands[me], free, powers)
    others_before = np.zeros(n_players)
    for s in range(n_players):
        if s != me and playing[s]:
            others_before[s] = _hand_value(hands[s], free, powers)
    n_takes = _takes(row, row_len, actions)
    after = np.empty(11, np.int64)
    free_after = np.empty(11, np.int64)
    left = np.empty(ROW_SIZE, np.int64)
    nc = np.empty(11, np.int64)
    nf = np.empty(11, np.int64)
    buf = np.empty(16, np.int64)
    buf2 = np.empty(16, np.int64)
    for t in range(n_takes):
        a = actions[t]
        after[:] = hands[me]
        free_after[:] = free
        left_len = 0
        for i in range(row_len):
            c = row[i]
            if _is_taken(c, a):
                after[c % 11] += 1
                free_after[c % 11] -= 1
            else:
                left[left_len] = c
                left_len += 1
        score = _hand_value(after, free_after, powers) - mine_before
        if has_set_counts(after):
            score += w[0] + max_marks_counts(after)
        else:
            for s in range(n_players):
                if s != me and playing[s]:
                    score += w[1] * (others_before[s] - _hand_value(hands[s], free_after, powers))
            if nxt != me:
                marks = _best_immediate(hands[nxt], left, left_len, buf)
                score -= w[2] * marks
                if left_len > 0 and w[3] != 0.0:
                    base = _hand_value(hands[nxt], free_after, powers)
                    gain = 0.0
                    n2 = _takes(left, left_len, buf2)
                    for t2 in range(n2):
                        a2 = buf2[t2]
                        nc[:] = hands[nxt]
                        nf[:] = free_after
                        for i in range(left_len):
                            if _is_taken(left[i], a2):
                                nc[left[i] % 11] += 1
                                nf[left[i] % 11] -= 1
                        x = _hand_value(nc, nf, powers) - base
                        if x > gain:
                            gain = x
                    score -= w[3] * gain
        scores[t] = score
    return n_takes


@njit(cache=True)
def heuristic_take(hands, me, playing, row, row_len, pile, pile_start, pile_len, w, powers):
    """The take action id :class:`~agents.seals.SealsHeuristicAgent` chooses (the first best score)."""
    actions = np.empty(16, np.int64)
    scores = np.empty(16)
    n = take_scores(hands, me, playing, row, row_len, pile, pile_start, pile_len, w, powers, actions, scores)
    best = 0
    for t in range(1, n):
        if scores[t] > scores[best]:
            best = t
    return actions[best]


@njit(cache=True)
def play_round(hands, current, playing, row, row_len, pile, pile_start, pile_len, turns, max_turns, w, powers):
    """Plays the round on from the start of ``current``'s turn (row not yet refilled) with the heuristic in
    every seat; mutates ``hands`` and ``row``. Returns ``(winner, marks, turns)``; ``winner = -1`` when
    the round ends without one (exhausted, or ``turns`` reaches ``max_turns``: section 3 and 5
    [ruling]s)."""
    p = pile_start
    while True:
        while row_len < ROW_SIZE and p < pile_len:
            row[row_len] = pile[p]
            row_len += 1
            p += 1
        if row_len == 0:
            return -1, 0, turns
        a = heuristic_take(hands, current, playing, row, row_len, pile, p, pile_len, w, powers)
        row_len = _take_into(hands[current], row, row_len, a, row)
        turns += 1
        if has_set_counts(hands[current]):
            return current, max_marks_counts(hands[current]), turns
        if turns >= max_turns:
            return -1, 0, turns
        current = _next_playing(playing, current)


@njit(cache=True)
def rollout_rewards(hands, me, playing, row, row_len, orders, turns, max_turns, w, powers, actions, n_actions):
    """Round reward of each take for seat ``me`` on each of the pile orders ``orders`` (int64
    ``(K, pile_len)``, one shuffle per row, shared by every take): float64 ``(n_actions, K)``. Reward: the
    seat's Marks minus the mean Marks of the other playing seats (module docstring)."""
    n_players = hands.shape[0]
    n_others = 0
    for s in range(n_players):
        if s != me and playing[s]:
            n_others += 1
    k_orders, pile_len = orders.shape
    out = np.zeros((n_actions, k_orders))
    h = np.empty_like(hands)
    r = np.empty(ROW_SIZE, np.int64)
    nxt = _next_playing(playing, me)
    for t in range(n_actions):
        a = actions[t]
        for j in range(k_orders):
            h[:, :] = hands
            left = _take_into(h[me], row, row_len, a, r)
            if has_set_counts(h[me]):
                out[t, j] = max_marks_counts(h[me])
                continue
            if turns + 1 >= max_turns:
                continue
            winner, marks, _ = play_round(h, nxt, playing, r, left, orders[j], 0, pile_len, turns + 1,
                                          max_turns, w, powers)
            if winner == me:
                out[t, j] = marks
            elif winner >= 0:
                out[t, j] = -marks / n_others
    return out


__all__ = ["has_set_counts", "heuristic_take", "max_marks_counts", "play_round", "rollout_rewards", "take_scores"]
