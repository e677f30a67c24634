"""Text view of a Haggis game (the environment's ``render``)."""

from __future__ import annotations

from .cards import RANK_NAMES, SUIT_NAMES, card_name, cards_text, is_wild, rank_of, suit_of
from .moves import BOMB, BOMB_NAMES, SET, combo_of
from .plays import BET, PASS


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


# --- terminal text for ``seers play --game haggis`` / ``seers replay`` (lines of at most 80 columns) ---

_WIDTH_WORDS = {2: "pairs", 3: "triples", 4: "quads", 5: "quints"}
_SET_WORDS = {1: "single", 2: "pair", 3: "triple"}


def _wrap(text: str, width: int | None, indent: int = 4) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width or 80, subsequent_indent=" " * indent, break_long_words=False) or [text]


def seat_label(seat: int, names=None) -> str:
    """``"player 1"``, or ``"player 1 (greedy)"`` when ``names`` labels the seat."""
    if names and 0 <= seat < len(names) and names[seat]:
        return f"player {seat} ({names[seat]})"
    return f"player {seat}"


def sorted_hand(cards) -> list[int]:
    """``cards`` by rank, then suit (face cards last: J, Q, K)."""
    return sorted(cards, key=lambda c: (rank_of(c), suit_of(c), c))


def hand_text(cards) -> str:
    """A hand sorted by rank (:func:`sorted_hand`), card names joined by spaces."""
    return " ".join(card_name(c) for c in sorted_hand(cards)) or "-"


def combo_words(play, combo) -> str:
    """A combination with its shape named (section 4), e.g. ``"pair of 7s: 7c 7d"``, ``"sequence of
    pairs 3-4-5 in c/d: 3c 3d 4c 4d 5c J"``, ``"bomb J-Q"``."""
    cards = hand_text(play.cards)
    if combo.kind == BOMB:
        return f"bomb {BOMB_NAMES[combo.value]}: {cards}"
    if combo.kind == SET:
        rank = RANK_NAMES[combo.value]
        if combo.a == 1:
            return f"single {cards}"
        name = _SET_WORDS.get(combo.a, f"set of {combo.a}")
        return f"{name} of {rank}s: {cards}"
    w, length, top = combo.a, combo.b, combo.value
    ranks = "-".join(RANK_NAMES[r] for r in range(top - length + 1, top + 1))
    suits = sorted({suit_of(c) for c in play.cards if not is_wild(c)})
    suit_text = "/".join(SUIT_NAMES[s] for s in suits)
    shape = "sequence" if w == 1 else f"sequence of {_WIDTH_WORDS[w]}"
    return f"{shape} {ranks} in {suit_text}: {cards}"


def choice_text(play, combo=None) -> str:
    """A legal play in words: a bet, pass, or a combination with its shape (:func:`combo_words`)."""
    if play.kind == BET:
        return f"bet {play.amount} (won by going out first, section 7)" if play.amount else "no bet"
    if play.kind == PASS:
        return "pass"
    if combo is None:
        combo = combo_of(play)
    return combo_words(play, combo)


def trick_type(game) -> str:
    """The open trick's type as the lead fixed it (section 4.6), ``"none (you lead)"`` when empty."""
    top = game.top
    if top is None:
        return "none: a new lead"
    if top.kind == BOMB:
        return "bomb (only a higher bomb follows)"
    if top.kind == SET:
        return f"{_SET_WORDS.get(top.a, f'set of {top.a}')}s" if top.a <= 3 else f"sets of {top.a}"
    w = top.a
    shape = "sequence" if w == 1 else f"sequence of {_WIDTH_WORDS[w]}"
    return f"{shape}, {top.b} ranks"


def seat_lines(game, names=None, width: int | None = None) -> list[str]:
    """Per seat: cards left, face cards still held (public, section 10), bet, captured points, total."""
    lines = []
    caps = game.captured_points()
    for s in range(game.n_players):
        bet = game.bets[s]
        faces = " ".join(card_name(c) for c in sorted_hand(game.faces_held(s))) or "none"
        state = ", out" if s in game.out else ""
        lines += _wrap(f"  {seat_label(s, names)}: {len(game.hand(s))} cards (J/Q/K: {faces}), bet "
                       f"{'-' if bet is None else bet}, captured {caps[s]}, total {game.totals[s]}{state}",
                       width, 6)
    return lines


def trick_lines(game, names=None, width: int | None = None) -> list[str]:
    """The trick so far, its type and the passes since its last combination."""
    lines = _wrap(f"Trick: {trick_type(game)}", width)
    for s, p in game.trick:
        lines += _wrap(f"  {seat_label(s, names)}: {choice_text(p)}", width, 6)
    if game.trick:
        lines.append(f"  passes since: {game.passes}")
    return lines


def header_line(game) -> str:
    """Round, the game's end (target or fixed rounds)."""
    cfg = game.config
    end = f"{cfg.n_rounds} round{'s' if cfg.n_rounds != 1 else ''}" if cfg.n_rounds is not None else f"target {cfg.target}"
    return f"Haggis, round {game.round + 1}, {end}"


def state_lines(game, seat: int, names=None, width: int | None = None) -> list[str]:
    """What ``seat`` may know at its decision (section 10): its hand sorted, every seat's cards left,
    face cards, bet, captured points and total, the trick so far and its type."""
    what = "bet (before your first play)" if game.phase == "bet" else "your play"
    lines = [f"--- {seat_label(seat, names)}: {what} ---", header_line(game)]
    lines += seat_lines(game, names, width) + trick_lines(game, names, width)
    lines += _wrap(f"Your hand ({len(game.hand(seat))}): {hand_text(game.hand(seat))}", width)
    return lines


def describe_play(game, play, names=None) -> str:
    """The move of the seat to act (before it is applied), e.g. ``"player 1 (greedy) plays pair of 7s:
    7c 7d"``."""
    who = seat_label(game.current, names)
    if play.kind == BET:
        return f"{who} bets {play.amount}" if play.amount else f"{who} makes no bet"
    if play.kind == PASS:
        return f"{who} passes"
    return f"{who} plays {choice_text(play)}"


def after_play_lines(event: dict, game, names=None) -> list[str]:
    """After a ``play`` event (``game`` right after it): a trick's end and a seat going out."""
    if event["round"] != game.round or game.game_over:
        return []  # the round ended: its round end says the rest
    lines = []
    seat = event["seat"]
    if event["play"][0] not in (BET, PASS) and not game.hand(seat):
        lines.append(f"  -> {seat_label(seat, names)} goes out")
    if event["play"][0] != BET and not game.trick:
        lines.append(f"  -> {seat_label(game.last_trick_winner, names)} wins the trick and leads next")
    return lines


def deal_lines(game, names=None, show_hands=None, width: int | None = None) -> list[str]:
    """A round's start (``game`` right after its deal): header, leader, and the hands of
    ``show_hands`` (``None``: every seat)."""
    lines = [f"=== {header_line(game)} ===", f"{seat_label(game.round_leader, names)} leads."]
    for s in range(game.n_players) if show_hands is None else show_hands:
        lines += _wrap(f"  {seat_label(s, names)}: {hand_text(game.hand(s))}", width, 6)
    return lines


def round_end_lines(event: dict, totals, names=None, width: int | None = None,
                    first_out: int | None = None) -> list[str]:
    """A ``round_end`` event: who went out first (takes the last hand and the Haggis, sections 6 and
    8), each seat's going-out, captured and bet points, the round and the total."""
    head = f"Round {event['round'] + 1} over"
    if first_out is not None:
        head += f": {seat_label(first_out, names)} went out first and takes the last hand and the Haggis"
    lines = _wrap(head + ".", width)
    lines.append("  seat" + " " * 18 + "out  captured  bets  round  total")
    for s, score in enumerate(event["scores"]):
        lines.append(f"  {seat_label(s, names)[:20]:<20}{event['going_out'][s]:>5}{event['captured_points'][s]:>10}"
                     f"{event['bet_points'][s]:>6}{score:>7}{totals[s]:>7}")
    return lines


def game_end_lines(game, names=None, width: int | None = None) -> list[str]:
    """The final scores and the winners (section 9)."""
    lines = ["=== Game over ===", "Final scores:"]
    for s, total in enumerate(game.totals):
        lines.append(f"  {seat_label(s, names)}: {total}")
    lines += _wrap("Winner" + ("s" if len(game.winners()) > 1 else "") + ": "
                   + ", ".join(seat_label(w, names) for w in game.winners()), width)
    return lines
