"""Readable text of a Seals table for ``render_mode="ansi"`` / ``"human"`` of :mod:`seers_env.seals_v0`."""

from __future__ import annotations

from .cards import N_SYMBOLS, card_name, colour_of, symbol_counts, symbol_name, symbol_of
from .game import PHASE_DECLARE, SealsGame
from .moves import taken_cards
from .rulings import COLOUR_NAMES, MARKS_TO_WIN

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


# --- terminal text for ``seers play --game seals`` / ``seers replay`` (lines of at most 80 columns) ---

def _wrap(text: str, width: int | None, indent: int = 4) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width or 80, subsequent_indent=" " * indent, break_long_words=False) or [text]


def seat_label(seat: int, names=None) -> str:
    """``"player 1"``, or ``"player 1 (greedy)"`` when ``names`` labels the seat."""
    if names and 0 <= seat < len(names) and names[seat]:
        return f"player {seat} ({names[seat]})"
    return f"player {seat}"


def hand_words(hand) -> str:
    """A hand by symbol, e.g. ``"4: Red Blue; 7: Green; Coin: Red"`` (``"-"`` when empty)."""
    by_symbol: dict[int, list[str]] = {}
    for c in sorted(hand, key=lambda c: (symbol_of(c), c)):
        by_symbol.setdefault(symbol_of(c), []).append(COLOUR_NAMES[colour_of(c)])
    return "; ".join(f"{symbol_name(k)}: {' '.join(v)}" for k, v in by_symbol.items()) or "-"


def row_words(row) -> str:
    """The face-up row as card names (``"(none)"`` when empty)."""
    return ", ".join(card_name(c) for c in row) or "(none)"


def seat_lines(game: SealsGame, names=None, width: int | None = None) -> list[str]:
    """One entry per seat (wrapped to ``width``, default 80): Marks, sitting out, hand size and cards."""
    lines = []
    totals, playing = game.totals, game.playing
    for s, hand in enumerate(game.hands):
        sits = "" if playing[s] else ", sits out"
        lines += _wrap(f"  {seat_label(s, names)}: {totals[s]} Marks{sits}, {len(hand)} card{'s' if len(hand) != 1 else ''}: "
                       f"{hand_words(hand)}", width, 6)
    return lines


def header_line(game: SealsGame) -> str:
    """Round, round counter (Marks left in it, section 5) and tie-breaks."""
    cfg = game.config
    head = (f"Round {game.round + 1}: round counter {game.counter} of {cfg.n_rounds} Marks left; "
            f"{MARKS_TO_WIN} Marks win")
    if game.tie_breaks:
        head += f"; tie-break {game.tie_breaks}/{cfg.max_tie_break_rounds}"
    return head


def state_lines(game: SealsGame, seat: int, names=None, width: int | None = None) -> list[str]:
    """What ``seat`` may know at its decision (everything but the pile's order, section 3 [ruling]):
    round counter, the face-up row, pile size, every hand and the Marks."""
    what = "declare sets (or nothing)" if game.phase == PHASE_DECLARE else "take a colour or a symbol"
    lines = [f"--- {seat_label(seat, names)}: {what} ---", header_line(game)]
    lines += _wrap(f"Face up: {row_words(game.row)}; pile: {game.pile_size} cards", width)
    lines += ["Hands (public) and Marks:"] + seat_lines(game, names, width)
    return lines


def choice_text(game: SealsGame, play) -> str:
    """A legal play of the seat to act in words, with the cards a take picks up now (section 3.2)."""
    text = game.describe(play)
    if play.is_take:
        n = len(taken_cards(game.row, play))
        text += f" ({n} card{'s' if n != 1 else ''})"
    return text


def describe_play(game: SealsGame, play, names=None) -> str:
    """The move of the seat to act (before it is applied), e.g. ``"player 1 (greedy) takes Blue: Blue 4,
    Blue Coin"``."""
    text = game.describe(play)
    if text.startswith("take "):
        text = "takes " + text[5:]
    elif text == "declare nothing":
        text = "declares nothing"
    elif text.startswith("declare "):
        text = "declares " + text[8:]
    return f"{seat_label(game.current, names)} {text}"


def deal_lines(game: SealsGame, names=None, width: int | None = None) -> list[str]:
    """A round's start (``game`` right after its deal): header, who plays and who starts."""
    lines = [f"=== Seals, round {game.round + 1} ===", header_line(game)]
    sitting = [s for s in range(game.n_players) if not game.playing[s]]
    if sitting:
        lines += _wrap("Tie-break round (section 6); sitting out: "
                       + ", ".join(seat_label(s, names) for s in sitting), width)
    lines.append(f"{seat_label(game.start_player, names)} starts; pile: {game.pile_size + len(game.row)} cards.")
    return lines


def round_end_lines(event: dict, totals, names=None, width: int | None = None) -> list[str]:
    """A ``round_end`` event: why it ended, each seat's Marks this round and in total."""
    r = event["round"]
    reason = event["reason"]
    if reason == "declared":
        why = f"{seat_label(event['winner'], names)} declared"
    else:
        why = _REASONS.get(reason, reason)
    lines = _wrap(f"Round {r + 1} over: {why}.", width)
    lines.append("  seat" + " " * 22 + "round  total")
    for s, score in enumerate(event["scores"]):
        lines.append(f"  {seat_label(s, names)[:24]:<26}{score:>5}  {totals[s]:>5}")
    return lines


def game_end_lines(game: SealsGame, names=None, width: int | None = None) -> list[str]:
    """The final Marks and the winners (section 6)."""
    lines = ["=== Game over ===", "Final Marks:"]
    for s, total in enumerate(game.totals):
        lines.append(f"  {seat_label(s, names)}: {total}")
    lines += _wrap("Winner" + ("s" if len(game.winners()) > 1 else "") + ": "
                   + ", ".join(seat_label(w, names) for w in game.winners()), width)
    return lines
