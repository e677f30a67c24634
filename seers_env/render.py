"""Readable text view of a game for ``render_mode="ansi"`` / ``"human"``: hands, trick, scores."""

from __future__ import annotations

from .actions import STAGE_NAMES, Decision
from .game import Game
from .plays import MELD_TYPE_NAMES, format_rank
from .plays import describe_cards


def render_text(game: Game, decision: Decision | None = None) -> str:
    """A plain-text table of the game: one row per seat (hand, hand size, status, total), then the trick.

    Shows every hand (the full state, as a table view for humans and logs), so do not show it to an
    agent. Returns a ``str`` ending without a newline.
    """
    n = game.n_players
    head = f"Seers Catalog - round {game.round + 1}/{game.config.n_rounds}"
    if game.game_over:
        head += f" - game over, winners: {', '.join(f'player_{s}' for s in game.winners())}"
    lines = [head]
    totals = game.totals
    rows = [("seat", "cards", "status", "total", "hand")]
    for s in range(n):
        status = []
        if not game.game_over and s == game.current:
            status.append("to act")
        if s == game.start_seer:
            status.append("Start Seer")
        if game.passed[s]:
            status.append("passed")
        if game.in_bonus(s):
            status.append("Bonus")
        rows.append((f"player_{s}", str(len(game.hands[s])), ", ".join(status), str(totals[s]),
                     describe_cards(game.hands[s])))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4])
    if game.top is None:
        lines.append("Trick: empty (the Start Seer leads)")
    else:
        mt, size, rank = game.top
        lines.append(f"Trick: {MELD_TYPE_NAMES[mt]} of {size}, value to beat {format_rank(rank)} "
                     f"(player_{game.top_seat})")
        for seat, play in game.trick:
            lines.append(f"  player_{seat}: {play.describe()}")
    if decision is not None and decision.stage > 0 and not game.game_over:
        lines.append(f"Pending decision: {STAGE_NAMES[min(decision.stage, 2)]} "
                     f"({len(decision.cands)} plays left)")
    return "\n".join(lines)


__all__ = ["render_text"]
