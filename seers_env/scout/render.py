"""Readable text of a SCOUT table: :func:`render_text` for ``render_mode="ansi"`` / ``"human"`` of
:mod:`seers_env.scout_v0`, and the lines ``seers play --game scout`` and ``seers replay`` print (hand
tables with both numbers of each card, the seats, the Active Set, moves and round ends in words)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import PendingScout
from .cards import FACE_BOTTOM, FACE_VALUE, SETUP, face_name, face_of, rotate_faces
from .game import PHASE_ROTATE, ScoutGame
from .observation import after_scout
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay

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


# --- terminal text for ``seers play --game scout`` / ``seers replay`` --------------------------------
#
# Everything below returns lines of plain text (``list[str]``) that fit ``width`` columns (default 80,
# the developers' guide); the command line prints them. Seats are named as the command line names them:
# ``"player 2"`` or ``"player 2 (heuristic)"``.

#: Widest a seat label gets in the tables (longer agent names are cut, ending in "...").
LABEL_WIDTH = 26

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """``"player 2"``, or ``"player 2 (heuristic)"`` when ``names`` labels the seat."""
    if names and 0 <= seat < len(names) and names[seat]:
        return f"player {seat} ({names[seat]})"
    return f"player {seat}"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def values_text(values: Sequence[int]) -> str:
    """``"4 5 6"``: values in hand order."""
    return " ".join(str(v) for v in values)


def set_words(values: Sequence[int]) -> str:
    """What a shown segment is, in the rules' words (section 4): ``"a single 7"``, ``"a set of three
    5s"``, ``"a run of 3 from 4 to 6"``. ``values``: a valid set or run (not checked)."""
    n = len(values)
    if n == 0:
        return "nothing"
    if n == 1:
        return f"a single {values[0]}"
    word = _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)
    if values[0] == values[1]:
        return f"a set of {word} {values[0]}s"
    return f"a run of {n} from {min(values[0], values[-1])} to {max(values[0], values[-1])}"


def faces_text(faces: Sequence[int]) -> str:
    """Cards as ``"7(3) 5(2)"``: the number that counts (up), the other in brackets."""
    return " ".join(face_name(f) for f in faces)


def hand_lines(faces: Sequence[int], width: int | None = 80, indent: str = "  ") -> list[str]:
    """A hand left to right as a table of three rows: ``pos`` (the slot, 0 = leftmost), ``up`` (the
    number that counts, section 1) and ``down`` (the other number); cut into blocks of columns that fit
    ``width`` (``None``: 80). ``["  (no cards)"]`` for an empty hand."""
    if not faces:
        return [f"{indent}(no cards)"]
    label, col = len(indent) + 5, 4
    per = max(1, ((width or 80) - label) // col)
    lines: list[str] = []
    for lo in range(0, len(faces), per):
        block = range(lo, min(lo + per, len(faces)))
        lines.append(f"{indent}pos  " + "".join(f"{i:>{col}}" for i in block))
        lines.append(f"{indent}up   " + "".join(f"{FACE_VALUE[faces[i]]:>{col}}" for i in block))
        lines.append(f"{indent}down " + "".join(f"{FACE_BOTTOM[faces[i]]:>{col}}" for i in block))
    return lines


def gap_words(values: Sequence[int], position: int) -> str:
    """Where insert ``position`` (0..len) lies in a hand of ``values``: ``"between 5 and 9"``,
    ``"left end"``, ``"right end"``, ``"empty hand"``."""
    if not values:
        return "empty hand"
    if position == 0:
        return "left end"
    if position >= len(values):
        return "right end"
    return f"between {values[position - 1]} and {values[position]}"


def active_lines(game: ScoutGame, names: Sequence[str] | None = None) -> list[str]:
    """The Active Set with both numbers of each card, what it is, and its owner (section 4): one line,
    or two when one would pass 80 columns."""
    active = game.active_faces()
    if not active:
        if game.active_owner >= 0:
            return [f"Active Set: none (scouted away; {_cut(seat_label(game.active_owner, names), LABEL_WIDTH)} "
                    "showed last)"]
        return ["Active Set: none yet (any valid set may be shown)"]
    values = [FACE_VALUE[f] for f in active]
    owner = _cut(seat_label(game.active_owner, names), LABEL_WIDTH)
    line = f"Active Set: {faces_text(active)} = {set_words(values)}, owned by {owner}"
    if len(line) <= 80:
        return [line]
    return [f"Active Set: {faces_text(active)}", f"  = {set_words(values)}, owned by {owner}"]


def seats_lines(game: ScoutGame, names: Sequence[str] | None = None, width: int | None = None) -> list[str]:
    """One row per seat: hand size, score pile, Scout chips, Scout & Show (used / ``-`` unused; not in 2
    players), total, and who acts and who started the round. Public information only (section 10);
    fits 80 columns. When the table is wider than ``width`` (``None``: 80), each seat is one line of
    words instead (``"  player 0: 11 cards, pile 0, chips 0, S&S -, total 0; to act"``), which a
    narrow screen wraps at word boundaries without splitting columns."""
    n = game.n_players
    labels = [_cut(seat_label(s, names), LABEL_WIDTH) for s in range(n)]
    w = max(len("seat"), *(len(x) for x in labels))
    two = n == 2
    head = f"  {'seat'.ljust(w)}  cards  pile  chips  {'' if two else 'S&S   '}total"
    lines, words = [head], []
    sizes, piles, chips, used, totals = (game.hand_sizes(), game.pile_sizes(), game.chips,
                                         game.scout_show_used, game.totals)
    for s in range(n):
        flags = []
        if not game.game_over and s == game.current:
            flags.append("to act")
        if s == game.start_player and not game.game_over:
            flags.append("starts")
        ss = "" if two else ("used  " if used[s] else "-     ")
        lines.append(f"  {labels[s].ljust(w)}  {sizes[s]:>5}  {piles[s]:>4}  {chips[s]:>5}  {ss}{totals[s]:>5}"
                     + (f"  {', '.join(flags)}" if flags else ""))
        ss = "" if two else f", S&S {'used' if used[s] else '-'}"
        words.append(f"  {seat_label(s, names)}: {_plural(sizes[s], 'card')}, pile {piles[s]}, chips "
                     f"{chips[s]}{ss}, total {totals[s]}" + (f"; {', '.join(flags)}" if flags else ""))
    return lines if max(map(len, lines)) <= (width or 80) else words


def state_lines(game: ScoutGame, me: int, names: Sequence[str] | None = None, width: int | None = 80) -> list[str]:
    """What seat ``me`` sees at its decision (section 10): round, seats table (with who has used Scout &
    Show), Active Set and owner, and its own hand (:func:`hand_lines`)."""
    n = game.n_players
    lines = [f"--- SCOUT round {game.round + 1}/{game.config.n_rounds} ---", "Seats:"]
    lines += seats_lines(game, names, width)
    if n == 2:
        lines.append("Scout chips: each of yours pays for one Scout; then you act again (section 7).")
    else:
        lines.append("S&S: Scout & Show used this round (once per round, section 5).")
    lines += active_lines(game, names)
    lines.append(f"Your hand ({_plural(len(game.hand_faces(me)), 'card')}, left to right; up = the number "
                 f"that counts):")
    lines += hand_lines(game.hand_faces(me), width)
    return lines


def rotation_lines(game: ScoutGame, me: int, names: Sequence[str] | None = None,
                   width: int | None = 80) -> list[str]:
    """The start-of-round decision of seat ``me`` (section 2): the seats, then its hand as dealt and
    as rotated (order reversed, every card turned over)."""
    faces = game.hand_faces(me)
    lines = [f"--- SCOUT round {game.round + 1}/{game.config.n_rounds}: keep or rotate your hand ---",
             "Seats:"] + seats_lines(game, names, width)
    lines.append(f"{seat_label(game.start_player, names)} starts this round.")
    lines.append("Rotating reverses the order of your cards and turns each over (section 2).")
    lines.append("Your hand as dealt (keep):")
    lines += hand_lines(faces, width)
    lines.append("Your hand rotated:")
    lines += hand_lines(rotate_faces(faces), width)
    return lines


def show_words(values: Sequence[int], start: int, length: int) -> str:
    """``"4 5 6 (positions 2-4): a run of 3 from 4 to 6"``: the segment of ``values`` shown."""
    seg = list(values[start:start + length])
    where = f"position {start}" if length == 1 else f"positions {start}-{start + length - 1}"
    return f"{values_text(seg)} ({where}): {set_words(seg)}"


def scout_words(game: ScoutGame, end: int, flip: int, position: int) -> str:
    """``"left 7(3) turned over as 3 into position 4 (between 5 and 9)"``: a scout by the seat to act,
    in the hand it has now (section 5); the end is not named for a 1-card Active Set."""
    active = game.active_faces()
    taken = active[-1 if end else 0]
    face = taken ^ flip
    side = "" if len(active) == 1 else ("right " if end else "left ")
    turn = " turned over" if flip else ""
    gap = gap_words(game.hand_values(game.current), position)
    return f"{side}{face_name(taken)}{turn} as {FACE_VALUE[face]} into position {position} ({gap})"


def choice_text(game: ScoutGame, play: ScoutPlay) -> str:
    """A legal play of the seat to act as its menu shows it (the stage-2 shows of Scout & Show are
    described by :func:`show_words` on the hand after the scout)."""
    k = play.kind
    if k == KEEP:
        return "Keep your hand as dealt"
    if k == ROTATE:
        return "Rotate your hand"
    if k == STOP:
        return "Stop: end the round (section 7 [ruling])"
    if k == SHOW:
        return "Show " + show_words(game.hand_values(game.current), play.start, play.length)
    if k == SCOUT:
        return "Scout " + scout_words(game, play.end, play.flip, play.position)
    return "Scout & Show: " + ", then ".join(_move_parts(game, play, None))


def describe_play(game: ScoutGame, play: ScoutPlay, names: Sequence[str] | None = None) -> str:
    """A legal play in words, said of the seat to act, **before** it is applied (the engine's log holds
    positions only): ``"player 1 (heuristic) shows 4 5 6 (positions 2-4): a run of 3 from 4 to 6,
    beating 3 3 and collecting 2 cards"``. A scout's orientation and position are left out when the
    config keeps them hidden (section 10 [ruling]). Keep/rotate: ``"player 1 keeps their hand"``."""
    seat = game.current
    who = seat_label(seat, names)
    k = play.kind
    if k == KEEP:
        return f"{who} keeps their hand"
    if k == ROTATE:
        return f"{who} rotates their hand"
    if k == STOP:
        return f"{who} stops: the round ends"
    parts = _move_parts(game, play, names)
    if k == SCOUT_SHOW:
        return f"{who} uses Scout & Show: " + ", then ".join(parts)
    return f"{who} {parts[0]}"


def _move_parts(game: ScoutGame, play: ScoutPlay, names: Sequence[str] | None) -> list[str]:
    """The scout and / or show of a turn play in words (:func:`describe_play`)."""
    seat, k = game.current, play.kind
    active = game.active_faces()
    values = game.hand_values(seat)
    parts = []
    if k in (SCOUT, SCOUT_SHOW):
        if game.config.public_scout_flip_and_position:
            text = "scouts " + scout_words(game, play.end, play.flip, play.position)
        else:
            taken = active[-1 if play.end else 0]
            side = "" if len(active) == 1 else ("right " if play.end else "left ")
            text = f"scouts {side}{face_name(taken)} into their hand"
        if game.n_players == 2:
            text += f", paying a Scout chip ({game.chips[seat] - 1} left)"
        else:
            text += f"; {seat_label(game.active_owner, names)} gets a Scout chip"
        parts.append(text)
        face = active.pop(-1 if play.end else 0) ^ play.flip
        values.insert(play.position, FACE_VALUE[face])
    if k in (SHOW, SCOUT_SHOW):
        text = "shows " + show_words(values, play.start, play.length)
        if active:
            text += (f", beating {values_text([FACE_VALUE[f] for f in active])} and collecting "
                     f"{_plural(len(active), 'card')}")
        else:
            text += " onto the empty table"
        if len(values) == play.length:
            text += ": their last cards"
        parts.append(text)
    return parts


def rotations_line(rotated: Sequence[bool | None], names: Sequence[str] | None = None) -> str:
    """Everyone's keep/rotate decisions, shown once all have chosen (section 2 [ruling]: simultaneous)."""
    said = [f"{seat_label(s, names)} {'rotated' if r else 'kept'}" for s, r in enumerate(rotated)]
    return "Hands: " + ", ".join(said) + "."


def deal_lines(game: ScoutGame, names: Sequence[str] | None = None, show: Sequence[int] | None = None,
               width: int | None = 80) -> list[str]:
    """The start of round ``game.round`` (as just dealt): who starts, and the hands of the seats in
    ``show`` (default every seat) as dealt."""
    n = game.n_players
    lines = [f"=== SCOUT round {game.round + 1}/{game.config.n_rounds}: {seat_label(game.start_player, names)} "
             f"starts; {_plural(SETUP[n].hand_size, 'card')} each ==="]
    for s in range(n) if show is None else show:
        lines.append(f" {seat_label(s, names)}:")
        lines += hand_lines(game.hand_faces(s), width)
    return lines


_END_WORDS = {"a": "{who} played their last cards",
              "b": "the Active Set of {who} was not beaten",
              "truncated": "the turn cap cut it short (no exemption)"}


def round_end_lines(event: dict[str, Any], totals: Sequence[int], names: Sequence[str] | None = None,
                    show_hands: bool = False, width: int | None = 80) -> list[str]:
    """A ``round_end`` event of the engine's log (section 8): why the round ended, then per seat score
    pile + chips - cards in hand (the exempt seat pays nothing) = round score, and the running total.
    ``show_hands``: also list the hands left (a replay; a player sees only their sizes, section 10)."""
    scores, hands, exempt = event["scores"], event["hands"], event["exempt"]
    n = len(scores)
    who = seat_label(exempt, names) if exempt >= 0 else "nobody"
    why = _END_WORDS.get(event["reason"], str(event["reason"])).format(who=who)
    lines = [f"Round {event['round'] + 1} over: {why}."]
    labels = [_cut(seat_label(s, names), LABEL_WIDTH) for s in range(n)]
    w = max(len("seat"), *(len(x) for x in labels))
    lines.append(f"  {'seat'.ljust(w)}  pile  chips    hand  score  total")
    for s in range(n):
        hand = "exempt" if s == exempt else f"{-len(hands[s])}"
        lines.append(f"  {labels[s].ljust(w)}  {event['pile_sizes'][s]:>4}  {event['chips'][s]:>5}  "
                     f"{hand:>6}  {scores[s]:>+5}  {totals[s]:>5}")
    if show_hands:
        for s in range(n):
            if hands[s]:
                lines.append(f" left in the hand of {seat_label(s, names)}:")
                lines += hand_lines([face_of(c, top) for c, top in hands[s]], width)
    return lines


def game_end_lines(game: ScoutGame, names: Sequence[str] | None = None) -> list[str]:
    """Final totals and the winner(s) (section 9: a tie is a shared win)."""
    winners = game.winners()
    lines = ["=== Game over ==="]
    lines += [f"  {seat_label(s, names)}: {t}" for s, t in enumerate(game.totals)]
    lines.append("Winner" + ("s" if len(winners) > 1 else "") + ": "
                 + ", ".join(seat_label(w, names) for w in winners))
    return lines


__all__ += ["LABEL_WIDTH", "active_lines", "choice_text", "deal_lines", "describe_play", "faces_text",
            "game_end_lines", "gap_words", "hand_lines", "rotation_lines", "rotations_line", "round_end_lines",
            "scout_words", "seat_label", "seats_lines", "set_words", "show_words", "state_lines",
            "values_text"]
