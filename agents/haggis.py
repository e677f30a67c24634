"""Haggis baseline agents: :class:`HaggisGreedyAgent` and :class:`HaggisHeuristicAgent`.

Rules: ``docs/haggis_rules.md`` (full text: ``shared/rules/haggis.md``; "section N" below refers to it).
Both agents read only a :class:`~seers_env.haggis.view.HaggisSeatView` and return a member of
``view.legal_plays()`` (order: :mod:`seers_env.haggis.moves`). They are deterministic (``seed`` is
accepted for :class:`agents.base.Agent` and unused); ties go to the first play in the legal order.
"""

from __future__ import annotations

import numpy as np

from seers_env.haggis.cards import card_points, is_wild
from seers_env.haggis.moves import turn_plays_with_combos
from seers_env.haggis.plays import BET, BOMB, PASS, HaggisPlay
from seers_env.haggis.view import HaggisSeatView

from .base import Agent


def _wilds(play: HaggisPlay) -> int:
    return sum(1 for c in play.cards if is_wild(c))


class HaggisGreedyAgent(Agent):
    """One fixed rule per situation, no look-ahead ("shed cards cheaply"):

    * bet: none (0);
    * leading: the non-bomb with the most cards, then the fewest wilds, then the lowest value (a bomb only
      when nothing else is left);
    * following: the cheapest non-bomb that beats the trick (fewest wilds, then lowest value); otherwise
      pass (it never bombs).
    """

    name = "greedy"
    game = "haggis"

    def act(self, view: HaggisSeatView):
        """The greedy play (class docstring).

        Raises:
            ValueError: ``view``'s seat is not to act.
        """
        legal = view.legal_plays_with_combos()
        if not legal:
            raise ValueError(f"seat {view.seat} is not to act now; act() needs the acting seat's view")
        if legal[0][0].kind == BET:
            return next(p for p, _ in legal if p.amount == 0)
        plain = [(p, c) for p, c in legal if p.kind not in (PASS, BOMB)]
        if view.top is None:
            if not plain:
                return legal[0][0]
            return min(plain, key=lambda pc: (-len(pc[0].cards), _wilds(pc[0]), pc[1].value))[0]
        if not plain:
            return legal[0][0]  # pass
        return min(plain, key=lambda pc: (_wilds(pc[0]), pc[1].value))[0]


def plays_to_empty(hand: list[int]) -> int:
    """An estimate of the turns needed to shed ``hand``: repeatedly lead the non-bomb combination with the
    most cards (fewest wilds first on ties), counting each bomb as one more lead."""
    hand = sorted(hand)
    turns = 0
    while hand:
        options = [(p, c) for p, c in turn_plays_with_combos(hand, None) if p.kind != BOMB]
        if not options:
            return turns + 1
        best = min(options, key=lambda pc: (-len(pc[0].cards), _wilds(pc[0]), pc[1].value))[0]
        for c in best.cards:
            hand.remove(c)
        turns += 1
    return turns


class HaggisHeuristicAgent(Agent):
    """A scoring heuristic: every legal play gets a score (higher is better, :meth:`scores`).

    * **Bets from hand strength** (section 7): the estimated turns to shed the hand
      (:func:`plays_to_empty`) and the bombs held decide: 30 when the hand goes out in at most
      ``big_turns`` (3) turns with a bomb to spare, 15 within ``little_turns`` (5), else 0 (random
      deals need 6 or 7).
    * **Sheds low cards**: a combination scores its card count, minus a little per value step (low cards
      first), plus the points of the trick when it takes the lead (sections 1, 5).
    * **Keeps bombs and wilds**: each wild used costs ``wild_cost``; a bomb costs ``bomb_cost`` unless an
      opponent is down to ``danger_cards`` cards or fewer, and it counts the trick's points and its own as
      lost (a bombed trick goes to an opponent, section 5).
    * Going out scores ``out_bonus``; passing scores 0 (so a costly beat is declined).
    """

    name = "heuristic"
    game = "haggis"

    def __init__(self, seed: int | None = None, *, wild_cost: float = 1.0, bomb_cost: float = 7.0,
                 value_cost: float = 0.12, danger_cards: int = 6, out_bonus: float = 100.0,
                 little_turns: int = 5, big_turns: int = 3):
        super().__init__(seed)
        self.wild_cost, self.bomb_cost, self.value_cost = wild_cost, bomb_cost, value_cost
        self.danger_cards, self.out_bonus = danger_cards, out_bonus
        self.little_turns, self.big_turns = little_turns, big_turns

    def bet(self, view: HaggisSeatView) -> int:
        """The bet for this seat's hand (class docstring)."""
        hand = view.hand
        turns = plays_to_empty(hand)
        bombs = sum(1 for p, _ in turn_plays_with_combos(hand, None) if p.kind == BOMB and
                    not any(is_wild(c) for c in p.cards))
        if turns <= self.big_turns and bombs:
            return 30
        return 15 if turns <= self.little_turns else 0

    def scores(self, view: HaggisSeatView) -> list[tuple[float, HaggisPlay]]:
        """``(score, play)`` for every legal play, in legal order."""
        legal = view.legal_plays_with_combos()
        if not legal:
            return []
        if legal[0][0].kind == BET:
            b = self.bet(view)
            return [(1.0 if p.amount == b else 0.0, p) for p, _ in legal]
        sizes = view.hand_sizes
        seat = view.seat
        danger = min((sizes[s] for s in range(view.n_players) if s != seat and sizes[s]), default=99)
        hand_size = sizes[seat]
        scoring = view.config.card_points
        trick_points = sum(card_points(c, scoring) for _, p in view.trick for c in p.cards)
        out = []
        for p, c in legal:
            if p.kind == PASS:
                out.append((0.0, p))
                continue
            s = len(p.cards) - self.wild_cost * _wilds(p)
            at_stake = 0.3 * (trick_points + sum(card_points(x, scoring) for x in p.cards))
            if p.kind == BOMB:  # section 5: a bombed trick goes to an opponent, so the points are lost
                s -= at_stake
                if danger > self.danger_cards:
                    s -= self.bomb_cost
            else:
                s += at_stake - self.value_cost * c.value
            if len(p.cards) == hand_size:
                s += self.out_bonus
            out.append((s, p))
        return out

    def act(self, view: HaggisSeatView):
        """The best-scoring legal play (the first of the best).

        Raises:
            ValueError: ``view``'s seat is not to act.
        """
        sc = self.scores(view)
        if not sc:
            raise ValueError(f"seat {view.seat} is not to act now; act() needs the acting seat's view")
        return sc[int(np.argmax([s for s, _ in sc]))][1]
