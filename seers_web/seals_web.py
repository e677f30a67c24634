"""Seals on the web page: the JSON state of a :class:`~seers_env.seals.game.SealsGame`, plays sent by the
page, and the lines of its history (no web framework imports, like :mod:`seers_web.sessions`).

Rules: ``docs/seals_rules.md`` (``shared/rules/seals.md``; section numbers below are its sections). What a
page may see follows section 3 [ruling] (``rulings.HANDS_PUBLIC``): every hand, the face-up row, the
number of cards left in the draw pile, Marks, the round counter and the public history. The pile's order
is the only hidden information and is never sent: not in the state, not in the history (the engine's
``deal`` events hold it; only the cards a take picked up, which were face up, are named).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from seers_env.seals.cards import COIN, card_name, colour_of, symbol_name, symbol_of
from seers_env.seals.game import SealsGame
from seers_env.seals.moves import taken_cards
from seers_env.seals.plays import SealsKind, SealsPlay
from seers_env.seals.rulings import COLOUR_NAMES, MARKS_TO_WIN, ROW_SIZE

#: The game's registry name (:data:`seers_env.games.GAMES`).
GAME = "seals"

_REASONS = {"declared": "a player declared", "exhausted": "no card was left to take",
            "truncated": "the turn cap was reached"}


def seat_label(seat: int, names: Sequence[str]) -> str:
    """``"player 2 (heuristic)"``, or ``"player 2"`` without a name (as :func:`seers_web.sessions.seat_label`)."""
    return f"player {seat} ({names[seat]})" if names and names[seat] else f"player {seat}"


def card_json(card: int) -> dict[str, Any]:
    """A card as the page draws it: ``card`` id (0..54), ``colour`` (0..4) and ``colour_name``, ``symbol``
    (0..9: the numbers 1..10; 10: the Coin) and ``symbol_name`` (``"7"``, ``"Coin"``), ``name``
    (``"Blue 7"``) and ``rank``: ``minor`` (1..5), ``major`` (6..10) or ``coin`` (section 1)."""
    s = symbol_of(card)
    return {"card": card, "colour": colour_of(card), "colour_name": COLOUR_NAMES[colour_of(card)], "symbol": s,
            "symbol_name": symbol_name(s), "name": card_name(card),
            "rank": "coin" if s == COIN else "minor" if s < 5 else "major"}


def play_json(game: SealsGame, play: SealsPlay) -> dict[str, Any]:
    """A legal play for the page: ``play`` (``[kind, value]``, as the page sends it back), ``action`` (its
    flat action id, :mod:`seers_env.seals.actions`), ``kind`` (the :class:`SealsKind` name), ``value``,
    ``text`` (naming the cards a take picks up), ``cards`` (those card ids, in row order; ``[]`` for a
    declaration), ``sets`` (a declaration's set names, :meth:`SealsPlay.set_names`: several runs named once,
    "2 runs 1-10") and ``marks`` (what it scores, section 4)."""
    return {"play": play.to_list(), "action": play.action, "kind": SealsKind(play.kind).name,
            "value": int(play.value), "text": game.describe(play),
            "cards": taken_cards(game.row, play) if play.is_take else [],
            "sets": play.set_names(), "marks": play.marks()}


def _verb(play: SealsPlay, cards: Sequence[int]) -> str:
    text = play.describe()
    if play.is_take:
        return "takes " + text[5:] + (": " + ", ".join(card_name(c) for c in cards) if cards else "")
    marks = play.marks()
    return "declares nothing" if play.value == 0 else \
        f"declares {' + '.join(play.set_names())} ({marks} Mark{'' if marks == 1 else 's'})"


def history_lines(events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The public history of a game's engine events, one line each (the deal's pile order is read to name
    the cards each take picked up, which were face up, and is never written)."""
    lines: list[str] = []
    pile: list[int] = []
    row: list[int] = []
    for e in events:
        kind = e.get("event")
        if kind == "deal":
            pile, row = list(e.get("pile", [])), []
            playing = e.get("playing") or []
            text = f"Round {e['round'] + 1}: {seat_label(e['start_player'], names)} starts"
            if playing and not all(playing):
                text += " (tie-break round, section 6; sitting out: " + ", ".join(
                    seat_label(s, names) for s, p in enumerate(playing) if not p) + ")"
            lines.append(text)
        elif kind == "play":
            play = SealsPlay.from_list(e["play"])
            cards: list[int] = []
            if play.is_take:  # section 3.1: the row is refilled before every take
                while len(row) < ROW_SIZE and pile:
                    row.append(pile.pop(0))
                cards = taken_cards(row, play)
                row = [c for c in row if c not in cards]
            lines.append(f"{seat_label(e['seat'], names)} {_verb(play, cards)}")
        elif kind == "round_end":
            if e["reason"] == "declared":
                marks = e["scores"][e["winner"]]
                why = f"{seat_label(e['winner'], names)} declared and wins {marks} Mark{'' if marks == 1 else 's'}"
            else:
                why = f"{_REASONS.get(e['reason'], e['reason'])}; nobody scores"
            lines.append(f"Round {e['round'] + 1} ends: {why}")
        elif kind == "game_end":
            winners = [seat_label(s, names) for s in e["winners"]]
            lines.append(f"Game over; Marks: {', '.join(str(t) for t in e['totals'])}; "
                         f"{'winner' if len(winners) == 1 else 'winners'}: {', '.join(winners)}")
    return lines


def n_plays(game: SealsGame) -> int:
    """Plays (takes and declarations) applied so far: the move number the page sends back."""
    return sum(1 for e in game.events if e["event"] == "play")


def _last_round(game: SealsGame) -> dict[str, Any] | None:
    """The last completed round: ``round``, ``reason``, ``reason_text``, ``winner`` (-1: none), ``scores``,
    ``declared`` (the declaration's text, or ``None``), ``sets``, and the ``hands`` and ``row`` left at its
    end (public)."""
    events = game.events
    k = next((i for i in range(len(events) - 1, -1, -1) if events[i]["event"] == "round_end"), None)
    if k is None:
        return None
    e = events[k]
    declared = None
    if e["winner"] >= 0:
        play = next(SealsPlay.from_list(x["play"]) for x in reversed(events[:k]) if x["event"] == "play")
        declared = {"text": play.describe(), "sets": play.set_names(), "marks": play.marks()}
    return {"round": e["round"], "reason": e["reason"], "reason_text": _REASONS.get(e["reason"], e["reason"]),
            "winner": e["winner"], "scores": list(e["scores"]), "declared": declared,
            "hands": [[card_json(c) for c in h] for h in e["hands"]], "row": [card_json(c) for c in e["row"]]}


def seals_state(game: SealsGame, names: Sequence[str], legal_for: int | None = None,
                history: int = 60) -> dict[str, Any]:
    """The JSON state of a Seals game (everything public; the pile's order is never included).

    Keys: ``game`` (``"seals"``), ``n_players``, ``n_rounds`` (Marks the round counter started with,
    section 2), ``counter`` (Marks left in it), ``round`` (0-based, tie-breaks included), ``tie_breaks``,
    ``max_tie_break_rounds``, ``playing`` (per seat: plays this round; False sits out a tie-break, section
    6), ``phase`` (``take``/``declare``/``over``), ``stage`` (0 take, 1 declare, ``None`` once over: the
    environment's stages), ``current``, ``start_player``, ``game_over``, ``names``, ``row`` (the face-up
    cards in the order turned, :func:`card_json` each), ``pile_size``, ``hands`` (``{seat: [card_json]}``
    for every seat, sorted by card id: hands are public, section 3 [ruling]), ``hand_sizes``, ``totals``
    (Marks), ``marks_to_win``, ``round_scores``, ``round_end_reasons``, ``winners``, ``move``, ``history``
    (the last ``history`` lines), ``last_round`` (:func:`_last_round`), ``colours`` and ``symbols`` (the
    names by index), and, when ``legal_for`` is to act: ``legal`` (:func:`play_json` of each legal play,
    the engine's order) and ``actions`` (the action ids where the engine's ``legal_mask()`` is 1,
    ascending); both ``None`` otherwise.
    """
    cfg = game.config
    state: dict[str, Any] = {
        "game": GAME, "n_players": game.n_players, "n_rounds": cfg.n_rounds, "counter": game.counter,
        "round": game.round, "tie_breaks": game.tie_breaks, "max_tie_break_rounds": cfg.max_tie_break_rounds,
        "playing": game.playing, "phase": game.phase,
        "stage": None if game.game_over else int(game.phase != "take"),
        "current": game.current, "start_player": game.start_player, "game_over": game.game_over,
        "names": list(names), "row": [card_json(c) for c in game.row], "pile_size": game.pile_size,
        "hands": {str(s): [card_json(c) for c in h] for s, h in enumerate(game.hands)},
        "hand_sizes": game.hand_sizes(), "totals": game.totals, "marks_to_win": MARKS_TO_WIN,
        "round_scores": game.round_scores, "round_end_reasons": game.round_end_reasons,
        "winners": game.winners() if game.game_over else [], "move": n_plays(game),
        "history": history_lines(game.events, names)[-history:], "last_round": _last_round(game),
        "colours": list(COLOUR_NAMES), "symbols": [symbol_name(s) for s in range(COIN + 1)],
        "legal": None, "actions": None,
    }
    if legal_for is not None and game.current == legal_for and not game.game_over:
        state["legal"] = [play_json(game, p) for p in game.legal_plays()]
        state["actions"] = [int(a) for a in np.flatnonzero(game.legal_mask())]
    return state


def parse_seals_play(d: Any) -> SealsPlay:
    """A :class:`SealsPlay` from the page's JSON: ``[kind, value]`` (as ``legal`` lists it) or an object
    ``{"kind": k, "value": v}`` (kind 0 take a colour 0..4, 1 take a symbol 0..10, 2 declare
    ``fours_mask + (runs << 11)``, 0..12287: four-of-a-kinds as bits 0..10, 0..5 disjoint runs).

    Raises:
        WebError (from :mod:`seers_web.sessions`): any other shape, unknown fields, fields that are not
            integers, or fields that describe no decision (400). Legality is the engine's to judge.
    """
    from .sessions import WebError

    fields = list(SealsPlay._fields)
    if isinstance(d, dict):
        unknown = sorted(set(d) - set(fields), key=str)
        if unknown:
            raise WebError(f"play: unknown Seals play fields {unknown}"[:300] + f"; allowed: {fields}")
        missing = [f for f in fields if f not in d]
        if missing:
            raise WebError(f"play: a Seals play needs {missing} "
                           f"({', '.join(f'{k.value} {k.name}' for k in SealsKind)})")
        d = [d[f] for f in fields]
    if not isinstance(d, list) or len(d) != len(fields):
        raise WebError(f"play {d!r}"[:300] + " must be a list [kind, value] of 2 integers or an object "
                       "{\"kind\": k, \"value\": v}")
    for name, v in zip(fields, d):
        if isinstance(v, bool) or not isinstance(v, int):
            raise WebError(f"play field {name}={v!r}"[:300] + " must be an integer")
    try:
        return SealsPlay.from_list(d)
    except (TypeError, ValueError) as err:
        raise WebError(f"play: {err}"[:400]) from None

