"""Text view of a Haggis game (the environment's ``render``)."""

from __future__ import annotations

from .cards import cards_text


def render_text(game, decision=None) -> str:
    """The round, scores, bets, hand sizes, the open trick and the acting seat's hand, as lines of text."""
    n = game.n_players
    lines = [f"Haggis, {n} players, round {game.round + 1}, totals {game.totals} (target {game.config.target})"]
    for s in range(n):
        bet = game.bets[s]
        mark = ">" if not game.game_over and s == game.current else " "
        lines.append(f"{mark} player_{s}: {len(game._hands[s]):2d} cards, bet "
                     f"{'-' if bet is None else bet}, captured {game.captured_points()[s]} points"
                     f"{', out' if s in game._out else ''}")
    if game._trick:
        for s, p, c in game._trick:
            lines.append(f"  trick: player_{s} {p.describe()} ({c.describe()})")
        lines.append(f"  passes since: {game.passes}")
    if game.game_over:
        lines.append(f"game over: winners {game.winners()}")
    else:
        lines.append(f"player_{game.current} holds {cards_text(game.hand(game.current))}")
        if decision is not None and decision.pending is not None:
            lines.append(f"  choosing: {decision.pending}")
    return "\n".join(lines)
