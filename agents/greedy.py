"""``greedy``: a simple rule bot in the spirit of RLCard's Dou Dizhu rule agent
(``rlcard.models.doudizhu_rule_models.DouDizhuRuleAgentV1``: lead a combination holding the lowest card,
follow with the lowest-ranked combination of the trick's type, pass otherwise). Here: lead the meld that
sheds the lowest cards (the most cards among those, so wilds and artifacts join the meld), follow with
the smallest meld that beats the trick, pass otherwise. No planning: it never plays the Rod or the Gift.
"""

from __future__ import annotations

from seers_env.cards import N_VALUES
from seers_env.plays import Play, PlayKind
from seers_env.view import SeatView

from .base import Agent

_NO_CARD = 99


def lowest_value(play: Play) -> int:
    """Lowest value (2..13) among the suited cards a play sheds, or 99 when it sheds none."""
    return min(play.suited) % N_VALUES + 2 if play.suited else _NO_CARD


def lead_key(play: Play) -> tuple:
    """Greedy's lead order (smallest first): lowest card, most cards (wilds and an artifact riding along
    included), lowest rank, no artifact effect."""
    n_cards = len(play.suited) + play.wilds + (play.artifact >= 0)
    return (lowest_value(play), -n_cards, play.rank, play.effect_used)


def follow_key(play: Play) -> tuple:
    """Greedy's follow order (smallest first): lowest rank, most cards, no artifact effect."""
    n_cards = len(play.suited) + play.wilds + (play.artifact >= 0)
    return (play.rank, -n_cards, play.effect_used)


class GreedyAgent(Agent):
    """Lead the meld with the lowest card (most cards on ties), follow with the smallest beating meld
    (lowest rank, most cards on ties), otherwise pass. Never plays the Rod of Reincarnation or the Gift
    of Fate.

    Deterministic: ``seed`` is accepted for the common interface and unused.
    """

    name = "greedy"
    game = "seers_catalog"

    def act(self, view: SeatView) -> Play:
        legal = self.legal_for(view)
        melds = [p for p in legal if p.kind == PlayKind.MELD]
        if not melds:
            return legal[0]  # PASS is first whenever there is no meld (seers_env.moves order)
        return min(melds, key=lead_key if view.top is None else follow_key)
