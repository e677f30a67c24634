"""Readable text of a SCOUT table for ``render_mode="ansi"`` / ``"human"`` of :mod:`seers_env.scout_v0`."""

from __future__ import annotations

from .actions import PendingScout
from .cards import face_name
from .game import PHASE_ROTATE, ScoutGame
from .observation import after_scout

_REASONS = {"a": "a player went out", "b": "the set was not beaten", "truncated": "truncated by the turn cap"}


def render_text(game: ScoutGame, pending: PendingScout | None = None) -> str:
    """The table: one row per seat (hand size, score pile, chips, Scout & Show used, total), the Active Set
    and its owner, then the hand of the seat to act (every card as ``top(bottom)``, positions numbered).

    Shows the acting hand, so it is a view for humans and logs, not for another agent. ``pending``: the
    stage-1 scout of a Scout & Show; the acting hand is then shown after that scout. Returns a ``str``
    without a final newline.
    """
    n = game.n_players
    head = f"SCOUT - round {game.round + 1}/{game.config.n_rounds}"
    if game.game_over:
        head += f" - game over, winners: {', '.join(f'player_{s}' for s in game.winners())}"
    elif game.phase == PHASE_ROTATE:
        head += " - keep or rotate the hand"
    lines = [head]
    if game.round_end_reasons:
        reason = game.round_end_reasons[-1]
        lines.append(f"Last round ended: {_REASONS.get(reason, reason)}, scores {game.round_scores[-1]}")
    rows = [("seat", "cards", "pile", "chips", "S&S", "total", "")]
    totals, sizes, piles, chips, used = (game.totals, game.hand_sizes(), game.pile_sizes(), game.chips,
                                         game.scout_show_used)
    for s in range(n):
        status = []
        if not game.game_over and s == game.current:
            status.append("to act")
        if s == game.start_player:
            status.append("start player")
        if s == game.active_owner:
            status.append("owner")
        rows.append((f"player_{s}", str(sizes[s]), str(piles[s]), str(chips[s]),
                     "used" if used[s] else "-" if n > 2 else "", str(totals[s]), ", ".join(status)))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    for r in rows:
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(6)) + "  " + r[6])
    hand, active = game.hand_faces(game.current), game.active_faces()
    if pending is not None:
        hand, active = after_scout(hand, active, pending)
    if active:
        lines.append(f"Active Set: {' '.join(face_name(f) for f in active)} (player_{game.active_owner})")
    else:
        lines.append("Active Set: none (any valid set may be shown)")
    if not game.game_over:
        cards = "  ".join(f"{i}:{face_name(f)}" for i, f in enumerate(hand))
        lines.append(f"Hand of player_{game.current}: {cards}")
        if pending is not None:
            lines.append(f"Scout & Show: scouted {face_name(hand[pending.position])} into position "
                         f"{pending.position}; now choose the show")
    return "\n".join(lines)


__all__ = ["render_text"]
