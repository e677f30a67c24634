"""``heuristic``: the strongest rule-based player of the project (no search).

It scores every legal play by the value of the hand it leaves (:func:`hand_value`) plus a few
situational terms, and plays the best one (passing is one of the candidates when following):

* structure: the fewest melds the suited cards split into (:func:`fewest_melds`, exact, memoised),
  plus one play for each artifact that cannot ride along with those melds and each artifact action;
* shedding: every card held costs a point at scoring (rules section 5), so each card shed is worth one;
* control: high cards, wilds and the highest-single artifact win tricks, so spending them is charged;
* the Bonus (section 4): with 5 or fewer cards a hand is valued by the bonus it would score (its lowest
  value, 0 with a wild or an artifact), so the agent aims to end with a few high cards and sheds wilds
  and artifacts first; it knows that a player in the Bonus cannot pass
  (only legal plays are ever scored, and the engine omits the pass then);
* artifacts: riding along with a meld sheds a card for free, so it is taken unless the artifact is
  worth more as control; Cauldron, suit change and half step are used when the meld they make scores
  best; the Rod is used when the lead is worth the cards it picks up; the Gift when the lead is worth
  less than a card, given to the player with most cards;
* passing: when following, a pass competes with the plays through a bias that turns negative when an
  opponent is close to going out (then every card shed counts).

Plays are grouped by the cards that leave the hand, so thousands of legal plays cost a few hand
evaluations. Deterministic: ``seed`` is accepted for the common interface and unused.
"""

from __future__ import annotations

from seers_env.artifacts import CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from seers_env.cards import FIRST_ARTIFACT, N_VALUES, WILD
from seers_env.features import fewest_melds, plays_needed  # noqa: F401  (fewest_melds re-exported)
from seers_env.plays import Play, PlayKind
from seers_env.scoring import BONUS_MAX_CARDS, bonus_points
from seers_env.view import SeatView

from .base import Agent

_RIDES = frozenset({GO_FIRST, CAULDRON, SUIT_CHANGER, HALF_STEP})

#: Weights of :func:`hand_value` and the play terms (tuned against ``greedy`` in 4-player games, tournament seed 7).
WEIGHTS = {
    "card": 1.0,  # per card held (section 5 penalty)
    "play": 1.5,  # per play still needed to empty the hand
    "high": 0.3,  # per value step above 10 of a suited card (control)
    "wild": 0.5,  # a wild's flexibility
    "highest_single": 1.2,  # the unbeatable Single
    "bonus": 1.0,  # weight of the bonus a hand of 5 or fewer would score
    "out": 0.0,  # premium for going out (ends the round, scores 0)
    "lead_rank": 0.3,  # per value: prefer leading low
    "lead": 1.5,  # worth of winning the lead (Rod, Gift)
    "pass": -0.5,  # bias for passing when following (a play must cost structure to lose)
    "pass_danger": -2.0,  # bias for passing when an opponent holds few cards
    "danger_cards": 3,  # an opponent with this many cards or fewer is about to go out
}


def hand_value(hand: list[int] | tuple[int, ...], weights: dict | None = None) -> float:
    """Estimated worth (in round-score points, higher is better) of holding ``hand``.

    Args:
        hand: card ids (see :mod:`seers_env.cards`).
        weights: overrides of :data:`WEIGHTS`.

    Returns:
        ``-card * len(hand) - play * plays_needed + control + bonus * bonus_points(hand)`` (the last term
        only with 5 or fewer cards, section 4); ``out`` for an empty hand.
    """
    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    if not hand:
        return w["out"]
    _, plays = plays_needed(tuple(hand))
    suited = [c for c in hand if c < WILD]
    wilds = hand.count(WILD)
    kinds = [c - FIRST_ARTIFACT for c in hand if c > WILD]
    control = (w["high"] * sum(max(0, c % N_VALUES - 8) for c in suited)
               + w["wild"] * wilds + w["highest_single"] * kinds.count(HIGHEST_SINGLE))
    value = -w["card"] * len(hand) - w["play"] * plays + control
    if len(hand) <= BONUS_MAX_CARDS:
        value += w["bonus"] * bonus_points(hand)
    return value


def _after(hand: list[int], play: Play, trick_cards: list[int]) -> list[int]:
    """The hand after ``play`` (Rod: the trick's cards are picked up)."""
    out = list(hand)
    for c in play.cards():
        out.remove(c)
    if play.kind == PlayKind.ROD:
        out += trick_cards
    return out


class HeuristicAgent(Agent):
    """Rule-based player: maximises :func:`hand_value` of the hand left plus situational terms
    (module docstring). ``weights`` overrides :data:`WEIGHTS` (for tuning)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: dict | None = None):
        super().__init__(seed)
        self.weights = {**WEIGHTS, **(weights or {})}

    def scores(self, view: SeatView) -> list[tuple[float, Play]]:
        """``(score, play)`` for every legal play, in legal-play order (higher score is better)."""
        w = self.weights
        legal = view.legal_plays()
        hand = view.hand
        leading = view.top is None
        sizes = view.hand_sizes
        others = [s for s in range(view.n_players) if s != view.seat]
        danger = min(sizes[s] for s in others) <= w["danger_cards"]
        trick_cards = sorted(c for _, p in view.trick for c in p.cards()) if not leading else []
        cache: dict[tuple, float] = {}
        out = []
        for p in legal:
            key = (p.suited, p.wilds, p.artifact, p.kind)
            v = cache.get(key)
            if v is None:
                v = cache[key] = hand_value(_after(hand, p, trick_cards), w)
            if p.kind == PlayKind.PASS:
                v += 0.0 if leading else (w["pass_danger"] if danger else w["pass"])
            elif p.kind == PlayKind.ROD:
                v += w["lead"]
            elif p.kind == PlayKind.GIFT:
                v -= w["lead"] - 0.01 * sizes[p.target]  # give the lead to the biggest hand
            elif leading:
                v -= w["lead_rank"] * p.rank / 2
            else:
                v -= 0.001 * p.rank  # the smallest beating meld among equals
            out.append((v, p))
        return out

    def act(self, view: SeatView) -> Play:
        best = None
        for v, p in self.scores(view):
            if best is None or v > best[0]:
                best = (v, p)
        return best[1]
