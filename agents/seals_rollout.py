"""Seals rollouts: the heuristic compiled with numba, and :class:`SealsRolloutAgent`, which scores each
take by simulated rounds in which every seat plays the heuristic.

Rules: ``docs/seals_rules.md`` ("section N" below). In Seals every hand and the face-up row are public;
the only hidden information is the order of the draw pile (section 3 [ruling]), whose cards are known.
So a take's value under a fixed continuation policy is an expectation over pile orders alone, and
Monte Carlo rollouts estimate it without any belief about hands.

**Rollout policy improvement** (Tesauro and Galperin 1996, "On-line policy improvement using Monte-Carlo
search"; Bertsekas, "Rollout algorithms", 1997): for every legal take ``a``, ``K`` shuffles of the pile
are played out to the end of the round with :class:`~agents.seals.SealsHeuristicAgent` in every seat
(this agent's included), and the take with the best mean round reward is chosen. The same ``K`` shuffles
serve every take (common random numbers), so the comparison between takes is paired. The reward of a
round for the seat is its Marks minus the mean of the other playing seats' Marks (a round has one
declarer; section 5). A round in which this agent can declare at once is declared, the most Marks
(as the heuristic does).

:func:`heuristic_take` and :func:`play_round` are the compiled heuristic and round; they reproduce
:class:`~agents.seals.SealsHeuristicAgent` and :meth:`seers_env.seals.game.SealsGame.apply` exactly
(``tests/test_seals_rollout.py`` compares them play by play). Arrays: a hand is int64 ``(11,)`` symbol
counts (only symbols matter for sets, section 4); the row and the pile are int64 card ids
(``colour * 11 + symbol``) with a length; ``pile[0]`` is the top card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from seers_env.seals.cards import N_COLOURS, N_SYMBOLS, SET_MARKS
from seers_env.seals.game import PHASE_DECLARE
from seers_env.seals.moves import best_declaration
from seers_env.seals.plays import DECLARE, TAKE_COLOUR, TAKE_SYMBOL, SealsPlay
from seers_env.seals.rulings import ROW_SIZE
from seers_env.seals.view import SealsSeatView

from .base import Agent
from .seals import SealsWeights

_MARKS = np.array(SET_MARKS, dtype=np.int64)  # 12 set kinds, section 4
_MAX_TAKES = N_COLOURS + N_SYMBOLS  # 16 take actions

#: The most shuffles per decision :class:`SealsRolloutAgent` accepts (its shuffles of a full pile take
#: about 40 MB at this count; a larger one would run out of memory or time rather than play).
MAX_ROLLOUTS = 100_000


def weight_array(weights: SealsWeights) -> tuple[np.ndarray, np.ndarray]:
    """``(w, powers)``: float64 ``(5,)`` = win_bonus, denial, threat, gift, unused; float64 ``(11,)`` =
    ``closeness ** k`` for ``k = 0..10`` (computed by Python, so the compiled sums match it bit for bit)."""
    w = np.array([weights.win_bonus, weights.denial, weights.threat, weights.gift, 0.0], dtype=np.float64)
    powers = np.array([weights.closeness ** k for k in range(11)], dtype=np.float64)
    return w, powers


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
    """Marks of the best declaration of symbol ``counts`` (0 without a set; section 4: with the run, a
    number's four needs a fifth card)."""
    fours = 0
    for k in range(11):
        if counts[k] >= 4:
            fours += _MARKS[k]
    if not _has_run(counts):
        return fours
    with_run = _MARKS[11]
    for k in range(10):
        if counts[k] >= 5:
            with_run += _MARKS[k]
    if counts[10] >= 4:
        with_run += _MARKS[10]
    return max(fours, with_run)


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
    nxt = me
    for step in range(1, n_players + 1):
        s = (me + step) % n_players
        if playing[s]:
            nxt = s
            break
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
    n_players = hands.shape[0]
    p = pile_start
    while True:
        while row_len < ROW_SIZE and p < pile_len:
            row[row_len] = pile[p]
            row_len += 1
            p += 1
        if row_len == 0:
            return -1, 0, turns
        a = heuristic_take(hands, current, playing, row, row_len, pile, p, pile_len, w, powers)
        k = 0
        for i in range(row_len):
            c = row[i]
            if _is_taken(c, a):
                hands[current, c % 11] += 1
            else:
                row[k] = c
                k += 1
        row_len = k
        turns += 1
        if has_set_counts(hands[current]):
            return current, max_marks_counts(hands[current]), turns
        if turns >= max_turns:
            return -1, 0, turns
        for step in range(1, n_players + 1):
            s = (current + step) % n_players
            if playing[s]:
                current = s
                break


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
    for t in range(n_actions):
        a = actions[t]
        for j in range(k_orders):
            h[:, :] = hands
            left = 0
            for i in range(row_len):
                c = row[i]
                if _is_taken(c, a):
                    h[me, c % 11] += 1
                else:
                    r[left] = c
                    left += 1
            if has_set_counts(h[me]):
                out[t, j] = max_marks_counts(h[me])
                continue
            if turns + 1 >= max_turns:
                continue
            nxt = me
            for step in range(1, n_players + 1):
                s = (me + step) % n_players
                if playing[s]:
                    nxt = s
                    break
            winner, marks, _ = play_round(h, nxt, playing, r, left, orders[j], 0, pile_len, turns + 1,
                                          max_turns, w, powers)
            if winner == me:
                out[t, j] = marks
            elif winner >= 0:
                out[t, j] = -marks / n_others
    return out


def _action_play(action: int) -> SealsPlay:
    return SealsPlay(TAKE_COLOUR, action) if action < N_COLOURS else SealsPlay(TAKE_SYMBOL, action - N_COLOURS)


def view_arrays(view: SealsSeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """``(hands, playing, row, row_len, pile_cards)`` of a view as the compiled functions take them: int64
    ``(n, 11)`` symbol counts, bool ``(n,)``, int64 ``(4,)`` (the row in the order turned), its length,
    int64 ``(pile_size,)`` the pile's cards, sorted (their order is hidden)."""
    hands = np.zeros((view.n_players, N_SYMBOLS), np.int64)
    for s, hand in enumerate(view.hands):
        for c in hand:
            hands[s, c % N_SYMBOLS] += 1
    row = np.zeros(ROW_SIZE, np.int64)
    cards = view.row
    row[:len(cards)] = cards
    return hands, np.array(view.playing, bool), row, len(cards), np.array(view.pile_cards, np.int64)


class SealsRolloutAgent(Agent):
    """Rollout policy improvement over the Seals heuristic (module docstring): ``rollouts`` pile shuffles
    per decision, every take played out on each. The agent leaves the heuristic's take only for one
    whose paired mean reward is ahead of it by more than ``z`` standard errors (a one-sided test on
    the common shuffles), so that rollout noise does not replace a sound take by a lucky one.

    Args:
        rollouts: shuffles of the pile per decision (``K``), 2 to :data:`MAX_ROLLOUTS`.
        seed: seed of the agent's ``numpy.random.Generator`` (the shuffles).
        weights: the heuristic's weights, for the rollout policy and the default take.
        z: the standard errors by which a take must beat the heuristic's (>= 0; 0: plain argmax).

    Raises:
        ValueError: ``rollouts`` not an integer in 2..:data:`MAX_ROLLOUTS`, or ``z`` not a finite number >= 0.
    """

    game = "seals"

    def __init__(self, rollouts: int = 64, seed: int | None = None, weights: SealsWeights | None = None,
                 z: float = 1.5):
        super().__init__(seed)
        if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or not 2 <= rollouts <= MAX_ROLLOUTS:
            raise ValueError(f"rollouts={rollouts!r} is not allowed; use an integer in 2..{MAX_ROLLOUTS}")
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not np.isfinite(z) or z < 0:
            raise ValueError(f"z={z!r} is not allowed; use a finite number >= 0")
        self.rollouts = int(rollouts)
        self.z = float(z)
        self.name = f"rollout:{self.rollouts}"
        self.weights = weights if weights is not None else SealsWeights()
        self._w, self._powers = weight_array(self.weights)

    def take_values(self, view: SealsSeatView) -> tuple[list[SealsPlay], np.ndarray, int]:
        """The legal takes (ascending action id), float64 ``(len, rollouts)`` their round rewards on the
        shared shuffles, and the index of the heuristic's take among them."""
        hands, playing, row, row_len, pile = view_arrays(view)
        actions = np.empty(16, np.int64)
        n = 0
        for p in view.legal_plays():
            actions[n] = p.action
            n += 1
        if len(pile):
            orders = np.stack([self.rng.permutation(pile) for _ in range(self.rollouts)])
        else:
            orders = np.zeros((self.rollouts, 0), np.int64)
        rewards = rollout_rewards(hands, view.seat, playing, row, row_len, orders, view.turns,
                                  view.config.max_turns_per_round, self._w, self._powers, actions, n)
        h = heuristic_take(hands, view.seat, playing, row, row_len, pile, 0, len(pile), self._w, self._powers)
        return [_action_play(int(a)) for a in actions[:n]], rewards, int(np.flatnonzero(actions[:n] == h)[0])

    def act(self, view: SealsSeatView) -> SealsPlay:
        """The take chosen by the rule of the class docstring; in the declaration stage, the most Marks.

        Raises:
            ValueError: ``view``'s seat is not to act. TypeError: a view of another game.
        """
        legal = self.legal_for(view)
        if view.phase == PHASE_DECLARE:
            return SealsPlay(DECLARE, best_declaration(view.hand))
        if len(legal) == 1:
            return legal[0]
        plays, rewards, h = self.take_values(view)
        best = int(np.argmax(rewards.mean(axis=1)))
        if best != h:
            d = rewards[best] - rewards[h]
            se = d.std(ddof=1) / np.sqrt(len(d))
            if not d.mean() > self.z * se:
                best = h
        return plays[best]


__all__ = ["MAX_ROLLOUTS", "SealsRolloutAgent", "heuristic_take", "play_round", "rollout_rewards", "take_scores", "view_arrays",
           "weight_array"]
