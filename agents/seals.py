"""Seals baseline agents: :class:`SealsGreedyAgent` and :class:`SealsHeuristicAgent`.

Rules: ``docs/seals_rules.md`` (full text with every ruling: ``shared/rules/seals.md``; "section N" below
refers to it). Both agents read only a :class:`~seers_env.seals.view.SealsSeatView` (hands are public, the
pile order hidden) and return a member of ``view.legal_plays()``. Both are deterministic (``seed`` is
accepted for the common interface and unused) and both declare, whenever the hand holds a set, the
declaration worth the most Marks (a declaration wins the round at once and can only add Marks).

The ISMCTS agent (:mod:`agents.ismcts`, through :mod:`agents.games`) uses the greedy agent as its rollout
policy and :meth:`SealsHeuristicAgent.scores` to rank its candidates.

Only symbols matter for sets (section 4: four of a number or of Coins in any colours, a run 1-10 in any
colours), so a hand is summarised by its 11 symbol counts; a set kind's *need* is the number of cards the
hand still lacks for it (:func:`needs`), and it is *reachable* while the cards not in any hand (pile and
row) still hold that many of each missing symbol (cards never leave a hand during a round).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from seers_env.integers import is_real_number
from seers_env.seals.cards import N_NUMBERS, N_SYMBOLS, RUN, SET_MARKS, symbol_counts
from seers_env.seals.game import PHASE_DECLARE
from seers_env.seals.moves import best_declaration, has_set, mask_marks, take_plays, taken_cards
from seers_env.seals.plays import DECLARE, SealsPlay
from seers_env.seals.view import SealsSeatView

from .base import Agent

_FOUR = 4


def needs(counts: list[int]) -> list[int]:
    """Cards missing for each set kind ``0..11`` (section 4) from symbol ``counts`` (a new list)."""
    out = [max(0, _FOUR - counts[k]) for k in range(N_SYMBOLS)]
    out.append(sum(1 for k in range(N_NUMBERS) if counts[k] == 0))
    return out


def _reachable(kind: int, counts: list[int], free: list[int]) -> bool:
    """Whether the cards outside every hand (symbol counts ``free``) can still complete ``kind``."""
    if kind == RUN:
        return all(counts[k] > 0 or free[k] > 0 for k in range(N_NUMBERS))
    return counts[kind] + free[kind] >= _FOUR


def _declaration(view: SealsSeatView) -> SealsPlay:
    return SealsPlay(DECLARE, best_declaration(view.hand))


class SealsGreedyAgent(Agent):
    """"The take that brings a set closest": the take after which the hand lacks the fewest cards for its
    nearest set kind (ties: the most cards taken, then the lowest action id); declares the most Marks.
    No look-ahead, no regard for the other players."""

    name = "greedy"
    game = "seals"

    def act(self, view: SealsSeatView) -> SealsPlay:
        """The greedy play (class docstring).

        Raises:
            ValueError: ``view``'s seat is not to act. TypeError: a view of another game.
        """
        self.legal_for(view)
        if view.phase == PHASE_DECLARE:
            return _declaration(view)
        hand, row = view.hand, view.row
        best, best_key = None, None
        for play in take_plays(row):
            taken = taken_cards(row, play)
            key = (min(needs(symbol_counts(hand + taken))), -len(taken))
            if best_key is None or key < best_key:
                best, best_key = play, key
        return best


@dataclass(frozen=True)
class SealsWeights:
    """Weights of :class:`SealsHeuristicAgent`.

    Raises:
        ValueError: a weight that is not a finite number.

    Attributes:
        closeness: a reachable set kind that lacks ``k`` cards is worth ``marks * closeness ** k``.
        win_bonus: added to a take after which the hand holds a set (it wins the round now).
        denial: weight of the value the take removes from the other players' hands (cards they needed).
        threat: weight of the Marks the next player could win at once with the cards left face up.
        gift: weight of the value the next player could add with the cards left face up.
    """

    closeness: float = 0.3
    win_bonus: float = 100.0
    denial: float = 0.6
    threat: float = 3.0
    gift: float = 0.5

    def __post_init__(self) -> None:
        """Raises ``ValueError`` for a weight that is not a finite number (bools refused), as
        :class:`agents.scout.ScoutWeights` does."""
        for f in fields(self):
            x = getattr(self, f.name)
            if not is_real_number(x) or not math.isfinite(x):
                raise ValueError(f"SealsWeights.{f.name}={x!r} is not allowed; each weight must be a finite number")


def hand_value(counts: list[int], free: list[int], closeness: float) -> float:
    """Sum over the reachable set kinds of ``marks * closeness ** need`` (module docstring)."""
    v = 0.0
    for kind, need in enumerate(needs(counts)):
        if _reachable(kind, counts, free):
            v += SET_MARKS[kind] * closeness ** need
    return v


def _best_immediate(counts: list[int], row: list[int]) -> int:
    """The most Marks one take from ``row`` would let a hand with symbol ``counts`` declare at once."""
    best = 0
    for play in take_plays(row):
        after = list(counts)
        for c in taken_cards(row, play):
            after[c % N_SYMBOLS] += 1
        if any(n == 0 for n in needs(after)):
            best = max(best, _max_marks(after))
    return best


def _max_marks(counts: list[int]) -> int:
    """Marks of the best declaration of symbol ``counts`` (as :func:`seers_env.seals.moves.best_declaration`)."""
    hand = [k for k in range(N_SYMBOLS) for _ in range(counts[k])]  # symbol ids are colour-0 card ids
    return mask_marks(best_declaration(hand))


class SealsHeuristicAgent(Agent):
    """A one-ply evaluation of every take (weights :class:`SealsWeights`):

    ``score = win_bonus [the hand now holds a set] + value(hand after) - value(hand before)
    + denial * (value the other hands lose) - threat * (Marks the next player could win at once from the
    cards left face up) - gift * (value the next player could add from them)``,

    where ``value`` is :func:`hand_value` over the cards not in any hand. It declares the most Marks.
    """

    name = "heuristic"
    game = "seals"

    def __init__(self, seed: int | None = None, weights: SealsWeights | None = None):
        super().__init__(seed)
        self.weights = weights if weights is not None else SealsWeights()

    def scores(self, view: SealsSeatView) -> list[tuple[float, SealsPlay]]:
        """``(score, play)`` for every legal play of the seat to act, in the legal order; declarations are
        scored by their Marks (declaring nothing: 0)."""
        legal = view.legal_plays()
        if not legal:
            return []
        if view.phase == PHASE_DECLARE:
            return [(float(p.marks()), p) for p in legal]
        w = self.weights
        me, n = view.seat, view.n_players
        hands = view.hands
        row = view.row
        counts = [symbol_counts(h) for h in hands]
        free = symbol_counts(view.pile_cards + row)
        playing = view.playing
        nxt = next(s for s in [(me + i) % n for i in range(1, n + 1)] if playing[s])
        others = [s for s in range(n) if s != me and playing[s]]
        mine_before = hand_value(counts[me], free, w.closeness)
        others_before = {s: hand_value(counts[s], free, w.closeness) for s in others}
        out = []
        for play in legal:
            taken = taken_cards(row, play)
            after = list(counts[me])
            free_after = list(free)
            for c in taken:
                after[c % N_SYMBOLS] += 1
                free_after[c % N_SYMBOLS] -= 1
            score = hand_value(after, free_after, w.closeness) - mine_before
            if has_set([k for k in range(N_SYMBOLS) for _ in range(after[k])]):
                score += w.win_bonus + _max_marks(after)
            else:
                for s in others:
                    score += w.denial * (others_before[s] - hand_value(counts[s], free_after, w.closeness))
                if nxt != me:
                    left = [c for c in row if c not in taken]
                    marks = _best_immediate(counts[nxt], left)
                    score -= w.threat * marks
                    if left and w.gift:
                        base = hand_value(counts[nxt], free_after, w.closeness)
                        gain = 0.0
                        for p2 in take_plays(left):
                            nc = list(counts[nxt])
                            nf = list(free_after)
                            for c in taken_cards(left, p2):
                                nc[c % N_SYMBOLS] += 1
                                nf[c % N_SYMBOLS] -= 1
                            gain = max(gain, hand_value(nc, nf, w.closeness) - base)
                        score -= w.gift * gain
            out.append((score, play))
        return out

    def act(self, view: SealsSeatView) -> SealsPlay:
        """The best-scoring legal play (the first of the best).

        Raises:
            ValueError: ``view``'s seat is not to act. TypeError: a view of another game.
        """
        self.legal_for(view)
        if view.phase == PHASE_DECLARE:
            return _declaration(view)
        scored = self.scores(view)
        best = max(s for s, _ in scored)
        return next(p for s, p in scored if s == best)


__all__ = ["SealsGreedyAgent", "SealsHeuristicAgent", "SealsWeights", "hand_value", "needs"]
