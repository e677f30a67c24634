"""Haggis baseline agents: :class:`HaggisGreedyAgent` and :class:`HaggisHeuristicAgent`.

Rules: ``docs/haggis_rules.md`` (full text: ``shared/rules/haggis.md``; "section N" below refers to it).
Both agents read only a :class:`~seers_env.haggis.view.HaggisSeatView` and return a member of
``view.legal_plays()`` (order: :mod:`seers_env.haggis.moves`). They are deterministic (``seed`` is
accepted for :class:`agents.base.Agent` and unused); ties go to the first play in the legal order.
"""

from __future__ import annotations

from seers_env.haggis.cards import FIRST_FACE, JACK, MAX_NUMBER_RANK, card_points, is_wild, rank_of
from seers_env.haggis.moves import Combo, combo_of
from seers_env.haggis.plays import BET, BOMB, MAX_WIDTH, PASS, SEQ, HaggisPlay
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


# --- the heuristic ---------------------------------------------------------------------------------

#: number card id -> bit of a rank-major mask (bit ``(rank - 2) * 5 + suit``)
_BIT = [(c % 9) * 5 + c // 9 for c in range(FIRST_FACE)]
_FULL_RANK = 31
_COST_MEMO: dict[int, float] = {}
_MEMO_LIMIT = 400_000
#: extra cost of a set of n cards (n = 1, 2, 3+) per rank step below 10: low singles and pairs are
#: hard to shed (they only leave on one's own lead), high ones win tricks
_SET_WEAKNESS = (0.0, 0.6, 0.4, 0.12)
_SEQ_WEAKNESS = 0.08


def _popcount(x: int) -> int:
    return bin(x).count("1")


def number_mask(cards) -> int:
    """The rank-major bit mask of the number cards among ``cards`` (face cards are left out)."""
    m = 0
    for c in cards:
        if c < FIRST_FACE:
            m |= 1 << _BIT[c]
    return m


def _set_cost(rank: int, n: int) -> float:
    return 1.0 + _SET_WEAKNESS[min(n, 3)] * (MAX_NUMBER_RANK - rank) / 8


def structure_cost(mask: int) -> float:
    """The cheapest split of a rank-major number-card mask (:func:`number_mask`) into sets and
    sequences (sections 4.2, 4.3; wilds left out; a sequence of width w >= 2 keeps the same w suits on
    every rank): each combination costs 1 plus a weakness for low singles and pairs (``_SET_WEAKNESS``).
    About the number of leads the cards need. Exact (a search over the lowest card's combinations,
    memoised across calls; a pure function of ``mask``)."""
    if mask == 0:
        return 0.0
    v = _COST_MEMO.get(mask)
    if v is not None:
        return v
    low = (mask & -mask).bit_length() - 1
    ri, s = divmod(low, 5)
    shift = ri * 5
    rank_bits = (mask >> shift) & _FULL_RANK
    others = rank_bits & ~(1 << s)
    best = float("inf")
    sub = others
    while True:
        group = sub | (1 << s)
        n = _popcount(group)
        best = min(best, _set_cost(ri + 2, n) + structure_cost(mask & ~(group << shift)))
        # sequences of width n on these suits, from this rank up (section 4.3)
        min_len = 3 if n == 1 else 2
        cm = group << shift
        length = 1
        while ri + length <= 8 and ((mask >> ((ri + length) * 5)) & group) == group:
            cm |= group << ((ri + length) * 5)
            length += 1
            if length >= min_len:
                top = ri + 2 + length - 1
                best = min(best, 1.0 + _SEQ_WEAKNESS * (MAX_NUMBER_RANK - top) / 8 + structure_cost(mask & ~cm))
        if sub == 0:
            break
        sub = (sub - 1) & others
    if len(_COST_MEMO) > _MEMO_LIMIT:
        _COST_MEMO.clear()
    _COST_MEMO[mask] = best
    return best


#: rank indices (rank - 2) of 3, 5, 7, 9 (the number-card bombs, section 4.4)
_ODD_INDEX = (1, 3, 5, 7)
#: the cost of a number-card bomb in :func:`hand_cost`: a play, but one that can wait for any moment
BOMB_PLAY_COST = 0.2
_HAND_MEMO: dict[int, float] = {}


def _number_bombs(mask: int) -> list[int]:
    """The masks of the 3-5-7-9 bombs (suited or rainbow, section 4.4) inside a rank-major mask."""
    per = [(mask >> (i * 5)) & _FULL_RANK for i in _ODD_INDEX]
    if not all(per):
        return []
    out = []
    suits = [[s for s in range(5) if b >> s & 1] for b in per]
    for a in suits[0]:
        for b in suits[1]:
            for c in suits[2]:
                for d in suits[3]:
                    if a == b == c == d or len({a, b, c, d}) == 4:
                        out.append((1 << (5 + a)) | (1 << (15 + b)) | (1 << (25 + c)) | (1 << (35 + d)))
    return out


def hand_cost(mask: int) -> float:
    """:func:`structure_cost` of a number-card mask, where a 3-5-7-9 bomb held may instead be kept
    apart as one cheap play (``BOMB_PLAY_COST``: it wins the lead whenever it is needed)."""
    v = _HAND_MEMO.get(mask)
    if v is not None:
        return v
    best = structure_cost(mask)
    for b in _number_bombs(mask):
        best = min(best, BOMB_PLAY_COST + structure_cost(mask & ~b))
    if len(_HAND_MEMO) > _MEMO_LIMIT:
        _HAND_MEMO.clear()
    _HAND_MEMO[mask] = best
    return best


#: per player count: (bonus for leading the round, 15 at or below, 30 at or below) on
#: :meth:`HaggisHeuristicAgent.strength`; chosen from self-play so that a bet goes out first more
#: often than not (docs/haggis_agents.md)
BET_THRESHOLDS = {2: (1.0, 6.5, 5.0), 3: (2.0, 5.0, 4.0)}


def _one_combination(cards: list[int]) -> bool:
    """Whether ``cards`` (sorted, non-empty) can be led as one combination (section 4)."""
    nums = [c for c in cards if not is_wild(c)]
    if not nums or len({rank_of(c) for c in nums}) == 1:
        return True  # wilds alone: a single or a bomb; one rank: a set
    t = tuple(cards)
    if not isinstance(combo_of(HaggisPlay(BOMB, t)), str):
        return True
    return any(not isinstance(combo_of(HaggisPlay(SEQ, t, w)), str)
               for w in range(1, MAX_WIDTH + 1) if len(t) % w == 0)


def _hold_chance(combo: Combo, n_cards: int) -> float:
    """A rough chance that ``combo`` wins the trick: higher values and bigger shapes are beaten less."""
    if combo.kind == BOMB:
        return 0.95
    base = (combo.value - 1) / 12
    return min(1.0, base + 0.15 * (n_cards - 1))


class HaggisHeuristicAgent(Agent):
    """A hand-planning heuristic: every legal play is scored by how much it improves the hand's
    structure (:func:`structure_cost`, about the leads the number cards still need) and what it gains
    now; the best score wins (the first in legal order on ties; :meth:`scores`).

    * **Bet** (section 7): from :meth:`strength` (the hand cost of the 14 number cards, a bomb held,
      leading the round): 15 or 30 at or below the thresholds of ``BET_THRESHOLDS``, else 0 (going
      out first is then likely; the thresholds come from self-play, ``docs/haggis_agents.md``).
    * **Shed low cards, lead big combinations**: a play scores the drop in structure cost (low singles
      and pairs cost most), a little per card, so the weakest whole combination of the split goes first.
    * **Wilds sparingly**: each wild used costs ``wild_cost`` (J, Q, K), unless it goes out.
    * **Bombs kept**: a bomb costs ``bomb_keep`` on top; it pays when an opponent is down to
      ``danger_cards`` cards (the lead is then worth ``danger_lead``), or when it goes out. A bombed
      trick goes to an opponent (section 5), so it never buys points.
    * **Follow or pass**: beating scores the structure change plus the chance to hold the trick times
      (``point_value`` x its points + ``lead_value``); passing scores 0, so a beat that breaks a
      strong structure for a cheap trick is declined.
    * **Going out** scores ``out_bonus``; a play that leaves one combination scores ``out_next``
      times its chance to hold the trick; when an opponent with k <= ``danger_cards`` cards could go
      out on a lead of k cards, such leads cost ``danger_lead`` times the chance of being beaten.

    Raises:
        ValueError: ``bet_thresholds`` does not give (lead bonus, 15 at or below, 30 at or below) for
            2 and 3 players.
    """

    name = "heuristic"
    game = "haggis"

    def __init__(self, seed: int | None = None, *, wild_cost: tuple[float, float, float] = (0.5, 0.6, 0.8),
                 bomb_keep: float = 1.5, point_value: float = 0.08, lead_value: float = 0.4,
                 danger_cards: int = 3, danger_lead: float = 2.5, out_bonus: float = 100.0, out_next: float = 4.0,
                 bet_thresholds: dict[int, tuple[float, float, float]] | None = None):
        super().__init__(seed)
        self.wild_cost, self.bomb_keep = tuple(wild_cost), bomb_keep
        self.point_value, self.lead_value = point_value, lead_value
        self.danger_cards, self.danger_lead, self.out_bonus = danger_cards, danger_lead, out_bonus
        self.out_next = out_next
        self.bet_thresholds = dict(BET_THRESHOLDS if bet_thresholds is None else bet_thresholds)
        if sorted(self.bet_thresholds) != [2, 3] or any(len(t) != 3 for t in self.bet_thresholds.values()):
            raise ValueError(f"bet_thresholds={bet_thresholds!r} must map 2 and 3 players each to (lead bonus, "
                             f"15 at or below, 30 at or below), e.g. {BET_THRESHOLDS}")

    def strength(self, hand, n_players: int = 2, leads: bool = False) -> float:
        """The bet's measure of ``hand`` (lower: stronger): its :func:`hand_cost`, less one when it holds
        a number-card bomb and less the player count's lead bonus when this seat leads the round."""
        mask = number_mask(hand)
        s = hand_cost(mask) - (1.0 if _number_bombs(mask) else 0.0)
        return s - (self.bet_thresholds[n_players][0] if leads else 0.0)

    def bet(self, view: HaggisSeatView) -> int:
        """The bet for this seat's hand (class docstring)."""
        n = view.n_players
        sizes = view.hand_sizes
        leads = view.round_leader == view.seat and not view.trick and len(set(sizes)) == 1  # no play yet
        s = self.strength(view.hand, n, leads)
        _, little, big = self.bet_thresholds[n]
        if s <= big:
            return 30
        return 15 if s <= little else 0

    def _wild_cost(self, cards) -> float:
        return sum(self.wild_cost[rank_of(c) - JACK] for c in cards if is_wild(c))

    def scores(self, view: HaggisSeatView) -> list[tuple[float, HaggisPlay]]:
        """``(score, play)`` for every legal play, in legal order."""
        legal = view.legal_plays_with_combos()
        if not legal:
            return []
        if legal[0][0].kind == BET:
            b = self.bet(view)
            return [(1.0 if p.amount == b else 0.0, p) for p, _ in legal]
        hand = view.hand
        seat = view.seat
        sizes = view.hand_sizes
        opp = [sizes[s] for s in range(view.n_players) if s != seat and sizes[s]]
        danger = min(opp, default=99)
        hand_mask = number_mask(hand)
        base = hand_cost(hand_mask)
        scoring = view.config.card_points
        leading = view.top is None
        trick_points = sum(card_points(c, scoring) for _, p in view.trick for c in p.cards)
        lead_value = self.danger_lead if danger <= self.danger_cards else self.lead_value
        out = []
        for p, c in legal:
            if p.kind == PASS:
                out.append((0.0, p))
                continue
            n = len(p.cards)
            if n == len(hand):
                out.append((self.out_bonus + n, p))
                continue
            rest = hand_mask & ~number_mask(p.cards)
            rest_cost = hand_cost(rest)
            s = base - rest_cost - self._wild_cost(p.cards)
            s += 0.02 * n
            if p.kind == BOMB:
                s -= self.bomb_keep
            if leading:
                if danger <= self.danger_cards and n == danger and p.kind != BOMB:
                    s -= self.danger_lead * (1.0 - _hold_chance(c, 1))
            else:
                hold = _hold_chance(c, n)
                if p.kind == BOMB:  # section 5: the trick goes to an opponent either way
                    s += hold * lead_value - self.point_value * sum(card_points(x, scoring) for x in p.cards)
                else:
                    pts = trick_points + sum(card_points(x, scoring) for x in p.cards)
                    s += hold * (self.point_value * pts + lead_value)
            if rest_cost < 1.5 and _one_combination([x for x in hand if x not in p.cards]):
                s += _hold_chance(c, n) * self.out_next  # hold this trick, then lead the rest: out
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
        best = max(s for s, _ in sc)
        return next(p for s, p in sc if s == best)
