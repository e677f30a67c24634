"""SCOUT on the web page: the JSON state of a :class:`~seers_env.scout.game.ScoutGame`, plays sent by the
page, and the lines of its history (no web framework imports, like :mod:`seers_web.sessions`).

Rules: ``shared/rules/scout.md`` (section numbers below are its sections). What a page may see follows
section 10: the hands in ``visible`` and public information only (hand sizes, the Active Set, score piles,
chips, the public history); never the set-aside cards of a 2-player game or a hidden hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seers_env.scout.cards import CARD_NUMBERS, FACE_BOTTOM, face_of
from seers_env.scout.game import PHASE_ROTATE, ScoutGame
from seers_env.scout.plays import ScoutKind, ScoutPlay

#: The game's registry name (:data:`seers_env.games.GAMES`).
GAME = "scout"

_REASONS = {"a": "a player went out", "b": "nobody beat the Active Set",
            "truncated": "the turn cap was reached"}


def seat_label(seat: int, names: Sequence[str]) -> str:
    """``"player 2 (heuristic)"``, or ``"player 2"`` without a name (as :func:`seers_web.sessions.seat_label`)."""
    return f"player {seat} ({names[seat]})" if names and names[seat] else f"player {seat}"


def card_json(card: int, top: int, scouted: bool = False) -> dict[str, Any]:
    """A card as the page draws it: ``card`` id (0..44), ``top`` number (its value), ``bottom`` number
    (its value after a flip), ``scouted`` (taken into this hand by a Scout this round; section 5)."""
    return {"card": card, "top": top, "bottom": FACE_BOTTOM[face_of(card, top)], "scouted": bool(scouted)}


def pairs_text(pairs: Sequence[Sequence[int]]) -> str:
    """Top numbers of ``(card, top)`` pairs, e.g. ``"4 5 6"``."""
    return " ".join(str(top) for _, top in pairs)


def card_text(card: int) -> str:
    """``"3/7"``: a card's two numbers, lower first."""
    a, b = CARD_NUMBERS[card]
    return f"{a}/{b}"


def history_text(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line of the game's history for an event of ``ScoutGame.public_history``."""
    kind = event.get("event")
    who = seat_label(event["seat"], names) if "seat" in event else ""
    if kind == "rotations":
        turned = [seat_label(s, names) for s, r in enumerate(event["rotated"]) if r]
        return (f"Round {event['round'] + 1}: " + (f"{', '.join(turned)} rotated their hand" if turned
                                                  else "every player kept their hand"))
    if kind in ("scout", "scout_show"):
        side = "right" if event["end"] else "left"
        if event.get("top") is None:  # section 10 [ruling]: flip and position may be private
            text = f"{who} scouts the {side} card"
        else:
            text = (f"{who} scouts the {side} card {card_text(event['card'])}"
                    f"{', flipped' if event['flip'] else ''} ({event['top']} up), into position {event['position']}")
        if kind == "scout_show":
            text = f"{text}, then shows {pairs_text(event['cards'])} (Scout & Show)"
        return text
    if kind == "show":
        return f"{who} shows {pairs_text(event['cards'])}"
    if kind == "stop":
        return f"{who} stops the round"
    if kind == "round_end":
        scores = ", ".join(score_text(v) for v in event["scores"])
        return f"Round {event['round'] + 1} ends: {_REASONS.get(event['reason'], event['reason'])}; scores {scores}"
    return str(kind)


def score_text(value: int) -> str:
    """A score with a minus sign (U+2212) when negative."""
    return f"\u2212{-value}" if value < 0 else str(value)


def n_plays(game: ScoutGame) -> int:
    """Plays applied so far (the move number the page sends back)."""
    return sum(1 for e in game.events if e["event"] == "play")


def scout_state(game: ScoutGame, names: Sequence[str], visible: Sequence[int], legal_for: int | None = None,
                history: int = 60) -> dict[str, Any]:
    """The JSON state of a SCOUT game for someone who may see the hands of the seats in ``visible``.

    Keys: ``game`` (``"scout"``), ``n_players``, ``n_rounds``, ``round`` (0-based), ``phase``
    (``rotate``/``play``/``over``), ``current``, ``start_player``, ``game_over``, ``names``,
    ``hand_sizes``, ``pile_sizes`` (score piles, section 8), ``chips``, ``scout_show_used``, ``rotated``
    (``None`` for a seat not yet decided, and in the rotation phase for the seats not in ``visible``),
    ``active`` (the Active Set left to right, :func:`card_json` each), ``active_owner`` (-1: none),
    ``hands`` (``{seat: [card_json...]}`` for the visible seats, left to right), ``totals``,
    ``round_scores``, ``winners``, ``move``, ``history`` (the last ``history`` lines of the public
    history), ``last_round`` (``round``, ``reason``, ``exempt``, ``scores`` of the last completed round)
    and ``legal``: when ``legal_for`` is to act, its legal plays as 6-int lists ``(kind, end, flip,
    position, start, length)`` in the engine's order (:mod:`seers_env.scout.plays`), else ``None``;
    ``kinds``: the names of the play kinds, indexed by kind.
    """
    n = game.n_players
    hands, scouted = game.hands, game.scouted
    public = game.public_history
    reasons = game.round_end_reasons
    last = None
    if reasons:
        k = len(reasons) - 1
        last = {"round": k, "reason": reasons[k], "reason_text": _REASONS.get(reasons[k], reasons[k]),
                "exempt": game.round_exempt[k], "scores": game.round_scores[k]}
    state: dict[str, Any] = {
        "game": GAME, "n_players": n, "n_rounds": game.config.n_rounds, "round": game.round,
        "phase": game.phase, "current": game.current, "start_player": game.start_player,
        "game_over": game.game_over, "names": list(names),
        "hand_sizes": game.hand_sizes(), "pile_sizes": game.pile_sizes(), "chips": game.chips,
        "scout_show_used": game.scout_show_used,
        # section 10: other seats' keep/rotate choices stay hidden until every seat has chosen (as the view)
        "rotated": [r if game.phase != PHASE_ROTATE or s in visible else None for s, r in enumerate(game.rotated)],
        "active": [card_json(c, t) for c, t in game.active], "active_owner": game.active_owner,
        "hands": {str(s): [card_json(c, t, sc) for (c, t), sc in zip(hands[s], scouted[s])] for s in visible},
        "totals": game.totals, "round_scores": game.round_scores,
        "winners": game.winners() if game.game_over else [],
        "move": n_plays(game),
        "history": [history_text(e, names) for e in public[-history:]],
        "last_round": last,
        "kinds": [k.name for k in ScoutKind],
        "legal": None,
    }
    if legal_for is not None and game.current == legal_for and not game.game_over:
        state["legal"] = [p.to_list() for p in game.legal_plays()]
    state["rotation_phase"] = game.phase == PHASE_ROTATE
    return state


def parse_scout_play(d: Any) -> ScoutPlay:
    """A :class:`ScoutPlay` from the page's JSON: a list of six integers ``[kind, end, flip, position,
    start, length]`` (as ``legal`` lists them) or an object of those fields (missing ones 0).

    Raises:
        WebError (from :mod:`seers_web.sessions`): any other shape, unknown fields, fields that are not
            small integers, or fields that describe no decision (400). Legality is the engine's to judge.
    """
    from .sessions import WebError

    fields = list(ScoutPlay._fields)
    if isinstance(d, dict):
        unknown = sorted(set(d) - set(fields), key=str)
        if unknown:
            raise WebError(f"play: unknown SCOUT play fields {unknown}; allowed: {fields}")
        if "kind" not in d:
            raise WebError(f"play: a SCOUT play needs a 'kind' ({', '.join(f'{k.value} {k.name}' for k in ScoutKind)})")
        d = [d.get(f, 0) for f in fields]
    if not isinstance(d, list) or len(d) != len(fields):
        raise WebError(f"play {d!r} must be a list of 6 integers {fields} or an object of those fields"[:400])
    for name, v in zip(fields, d):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 1000:
            raise WebError(f"play field {name}={v!r} must be a small integer"[:300])
    try:
        return ScoutPlay.from_list(d)
    except (TypeError, ValueError) as err:
        raise WebError(f"play: {err}") from None
