"""Readable text of a Seals table for ``render_mode="ansi"`` / ``"human"`` of :mod:`seers_env.seals_v0`."""

from __future__ import annotations

from .cards import N_SYMBOLS, card_name, symbol_counts, symbol_name
from .game import PHASE_DECLARE, SealsGame

_REASONS = {"declared": "a player declared", "exhausted": "no card was left to take",
            "truncated": "truncated by the turn cap"}


def render_text(game: SealsGame) -> str:
    """The table: round, round counter and Marks, the face-up row, then one line per seat (hand by symbol
    counts and cards), marking the seat to act. Everything shown is public (hands are public). Returns a
    ``str`` without a final newline."""
    cfg = game.config
    head = f"Seals - round {game.round + 1}, round counter {game.counter}/{cfg.n_rounds}"
    if game.tie_breaks:
        head += f", tie-break {game.tie_breaks}/{cfg.max_tie_break_rounds}"
    if game.game_over:
        head += f" - game over, winners: {', '.join(f'player_{s}' for s in game.winners())}"
    lines = [head]
    if game.round_end_reasons:
        reason = game.round_end_reasons[-1]
        lines.append(f"Last round ended: {_REASONS.get(reason, reason)}, Marks {game.round_scores[-1]}")
    lines.append(f"Face up: {', '.join(card_name(c) for c in game.row) or '(none)'}; pile: {game.pile_size} cards")
    totals, playing = game.totals, game.playing
    for s, hand in enumerate(game.hands):
        mark = ">" if s == game.current and not game.game_over else " "
        counts = symbol_counts(hand)
        summary = " ".join(f"{symbol_name(k)}x{counts[k]}" for k in range(N_SYMBOLS) if counts[k])
        sits = "" if playing[s] else " (sits out)"
        lines.append(f"{mark} player_{s}: {totals[s]} Marks{sits}; hand {len(hand)}: {summary or '-'}")
    if not game.game_over:
        what = "declare (or declare nothing)" if game.phase == PHASE_DECLARE else "take a colour or a symbol"
        lines.append(f"player_{game.current} to {what}")
    return "\n".join(lines)
