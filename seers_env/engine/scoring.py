"""Scoring (rules section 5): round scores, game totals and the winners.

Seed examples (section 5): ``{}`` -> 0; ``{8, 9}`` -> 6; ``{2, 2, 3, 6, 6, 10}`` -> -6;
``{7, 9, wild}`` -> -3.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import scoring_value

BONUS_MAX_CARDS = 5  # section 4: a player with 5 or fewer cards is in the Bonus


def bonus_points(hand: Sequence[int]) -> int:
    """Lowest scoring value in a hand of 1..5 cards (wilds and artifacts count 0); else 0."""
    if 1 <= len(hand) <= BONUS_MAX_CARDS:
        return min(scoring_value(c) for c in hand)
    return 0


def round_score(hand: Sequence[int]) -> int:
    """Round score of a hand: bonus points minus one point per card held (section 5)."""
    return bonus_points(hand) - len(hand)


def winners(totals: Sequence[int], last_round: Sequence[int]) -> list[int]:
    """Seats that win the game (section 5).

    Highest total wins; a tie goes to the higher score in the last round; players still tied share the
    win ([ruling] :data:`seers_env.rulings.TIED_PLAYERS_SHARE_WIN`).

    Returns:
        Sorted seat indices of the winner(s).
    """
    best = max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    best_last = max(last_round[i] for i in tied)
    return [i for i in tied if last_round[i] == best_last]


def placements(totals: Sequence[int], last_round: Sequence[int]) -> list[float]:
    """Finishing place of each seat (1 = first), ordering by (total, last-round score).

    Seats equal on both share the mean of the places they span (e.g. two seats tied for first get 1.5).
    """
    keys = [(totals[i], last_round[i]) for i in range(len(totals))]
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    places = [0.0] * len(keys)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        for k in range(i, j + 1):
            places[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return places


def game_placements(totals: Sequence[int], round_scores: Sequence[Sequence[int]]) -> list[float]:
    """:func:`placements` of a finished game from its per-round scores (the last round breaks ties);
    the placement rule of :class:`seers_env.games.GameSpec`."""
    return placements(totals, round_scores[-1])
