"""Haggis on the web page: games created from the page's form, the JSON state of a
:class:`~seers_env.haggis.game.HaggisGame`, plays sent by the page, and the lines of its history (no web
framework imports, like :mod:`seers_web.sessions`).

Rules: ``docs/haggis_rules.md`` (section numbers below are those of ``shared/rules/haggis.md``). What a
page may see follows section 10: the hands of the seats in ``visible`` and public information only (hand
sizes, every seat's face cards still held, the trick, passes, bets, captured, going-out and bet points,
scores, the public history). Another seat's number cards and the Haggis are never sent while hidden: the
state is built from the seat view's information alone (no card of a deal, no captured card list, since
the Haggis joins the first player out's captured cards at the round's end), except that a spectator who
may see every hand (``visible`` is every seat) also sees the Haggis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from seers_env.haggis.cards import (
    MAX_NUMBER_RANK, N_CARD_IDS, RANK_NAMES, SUIT_NAMES, card_name, card_points, face_owner, is_wild, rank_of,
    suit_of,
)
from seers_env.haggis.game import HaggisConfig, HaggisGame
from seers_env.haggis.moves import BOMB_NAMES
from seers_env.haggis.plays import BOMB, HaggisKind, HaggisPlay
from seers_env.haggis.render import choice_text, seat_label, sorted_hand, trick_type
from seers_env.haggis.rulings import BETS, TARGET_CHOICES

#: The game's registry name (:data:`seers_env.games.GAMES`).
GAME = "haggis"
#: Full suit names, indexed by suit (``seers_env.haggis.cards.SUIT_NAMES`` letters: c d h s b).
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades", "blue")
#: The fields of a Haggis create request (``POST /api/games``).
CREATE_FIELDS = ("game", "mode", "players", "seat", "agents", "seed", "rounds", "target")
MAX_PLAY_CARDS = 17  # a hand's most cards (14 number cards and J, Q, K; section 2)


def card_json(card: int, scoring: str = "standard") -> dict[str, Any]:
    """How the page draws a Haggis card id: ``id``, ``rank`` (2..13), ``label`` (``"7"``, ``"J"``),
    ``suit`` (0..4, -1 for a face card), ``suit_name``, ``name`` (``"7c"``, ``"J"``), ``wild`` (a face
    card, section 1), ``owner`` (the face card's seat, -1 for a number card) and ``points`` (section 1)."""
    wild = is_wild(card)
    return {"id": card, "rank": rank_of(card), "label": RANK_NAMES[rank_of(card)], "suit": suit_of(card),
            "suit_name": "" if wild else SUIT_WORDS[suit_of(card)], "name": card_name(card), "wild": wild,
            "owner": face_owner(card), "points": card_points(card, scoring)}


def cards_json(cards: Sequence[int], scoring: str = "standard") -> list[dict[str, Any]]:
    """:func:`card_json` of ``cards`` sorted by rank, then suit (face cards last: J, Q, K)."""
    return [card_json(c, scoring) for c in sorted_hand(cards)]


def legal_json(play: HaggisPlay, combo: Any) -> dict[str, Any]:
    """A legal play for the page: ``play`` (``[kind, [cards], width, amount]``, as the page sends it
    back; ``kind`` indexes the state's ``kinds``) and ``text`` (the shape named,
    :func:`seers_env.haggis.render.choice_text`). Kept this small: a lead may have thousands of plays."""
    return {"play": play.to_list(), "text": choice_text(play, combo)}


def history_text(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line of the game's history for an event of ``HaggisGame.public_history``; it names no card
    that is hidden when it is shown (a round's end gives scores, not the last hand or the Haggis)."""
    kind = event.get("event")
    who = seat_label(event["seat"], names) if "seat" in event else ""
    if kind == "deal":
        return f"Round {event['round'] + 1}: {seat_label(event['leader'], names)} leads"
    if kind == "bet":
        return f"{who} bets {event['amount']}" if event["amount"] else f"{who} makes no bet"
    if kind == "pass":
        return f"{who} passes"
    if kind == "play":
        return f"{who} plays {choice_text(HaggisPlay.from_list(event['play']))}"
    if kind == "trick":
        points = event["points"]
        text = f"{seat_label(event['winner'], names)} wins the trick ({points} point{'' if points == 1 else 's'})"
        if event["receiver"] != event["winner"]:  # section 5: a bombed trick goes to another player
            text += f"; won by a bomb, its cards go to {seat_label(event['receiver'], names)}"
        return text
    if kind == "out":
        return f"{who} goes out (+{event['points']} points)"
    if kind == "round_end":
        scores = ", ".join(str(v) for v in event.get("scores", []))
        return (f"Round {event['round'] + 1} ends: {seat_label(event['first_out'], names)} went out first and "
                f"takes the last hand and the Haggis; scores {scores}")
    return str(kind)


def n_plays(game: HaggisGame) -> int:
    """Plays applied so far, bets and passes included (the move number the page sends back)."""
    return sum(1 for e in game.events if e["event"] == "play")


def last_round_json(game: HaggisGame) -> dict[str, Any] | None:
    """The last finished round: ``round``, ``first_out``, and per seat ``going_out``, ``captured_points``,
    ``bet_points`` and ``scores`` (section 8); ``None`` before the first round ends."""
    ends = [e for e in game.events if e["event"] == "round_end"]
    if not ends:
        return None
    end = ends[-1]
    first = next((e["first_out"] for e in reversed(game.public_history)
                  if e["event"] == "round_end" and e["round"] == end["round"]), -1)
    return {"round": end["round"], "first_out": first, "going_out": list(end["going_out"]),
            "captured_points": list(end["captured_points"]), "bet_points": list(end["bet_points"]),
            "scores": list(end["scores"])}


def haggis_state(game: HaggisGame, names: Sequence[str], visible: Sequence[int], legal_for: int | None = None,
                 history: int = 60) -> dict[str, Any]:
    """The JSON state of a Haggis game for someone who may see the hands of the seats in ``visible``.

    Keys: ``game`` (``"haggis"``), ``n_players``, ``n_rounds`` (``None``: played to the target),
    ``target``, ``round`` (0-based), ``phase`` (``bet``/``play``/``over``), ``current``,
    ``round_leader``, ``game_over``, ``names``, ``hand_sizes``, ``faces`` (per seat its face cards still
    held, face up: section 10), ``bets`` (``None``: not decided yet), ``captured_points``, ``going_out``,
    ``bet_points``, ``out`` (seats gone out this round, in order), ``trick`` (the open trick's
    combinations: ``seat``, ``cards``, ``text``, ``bomb``), ``trick_type``, ``passes`` (consecutive
    passes since its last combination), ``haggis_size``, ``hands`` (``{seat: cards}`` for the visible
    seats, sorted by rank), ``haggis`` (the Haggis' cards when every seat is visible, else ``None``),
    ``totals``, ``round_scores``, ``winners``, ``move``, ``history`` (the last ``history`` lines),
    ``last_round`` (:func:`last_round_json`), ``bets_allowed``, ``kinds`` (the play kinds' names,
    indexed by kind: PASS, BET, SET, SEQ, BOMB) and ``legal``: when ``legal_for`` is to
    act, its legal plays (:func:`legal_json`) in the engine's order, else ``None``. Cards are
    :func:`card_json` objects.
    """
    n = game.n_players
    scoring = game.config.card_points
    hands = game.hands
    every = sorted(visible) == list(range(n))
    state: dict[str, Any] = {
        "game": GAME, "n_players": n, "n_rounds": game.config.n_rounds, "target": game.config.target,
        "round": game.round, "phase": game.phase, "current": game.current, "round_leader": game.round_leader,
        "game_over": game.game_over, "names": list(names), "hand_sizes": game.hand_sizes(),
        "faces": [cards_json(game.faces_held(s), scoring) for s in range(n)], "bets": game.bets,
        "captured_points": game.captured_points(), "going_out": game.going_out, "bet_points": game.bet_points,
        "out": game.out,
        "trick": [{"seat": s, "cards": cards_json(p.cards, scoring), "text": choice_text(p), "bomb": p.kind == BOMB}
                  for s, p in game.trick],
        "trick_type": trick_type(game), "passes": game.passes, "haggis_size": len(game.haggis),
        "hands": {str(s): cards_json(hands[s], scoring) for s in visible},
        "haggis": cards_json(game.haggis, scoring) if every else None,
        "totals": game.totals, "round_scores": game.round_scores,
        "winners": game.winners() if game.game_over else [],
        "move": n_plays(game),
        "history": [history_text(e, names) for e in game.public_history[-history:]],
        "last_round": last_round_json(game),
        "bets_allowed": list(BETS), "kinds": [k.name for k in HaggisKind], "legal": None,
    }
    if legal_for is not None and game.current == legal_for and not game.game_over:
        state["legal"] = [legal_json(p, c) for p, c in game.legal_plays_with_combos()]
    return state


def parse_haggis_play(d: Any) -> HaggisPlay:
    """A :class:`HaggisPlay` from the page's JSON: ``[kind, [card ids], width, amount]`` (as ``legal``
    lists it) or an object of those fields (``kind`` required, the others default to ``[]``/0).

    Raises:
        WebError (from :mod:`seers_web.sessions`): any other shape, unknown fields, fields that are not
            small integers, more than 17 cards, or fields that describe no decision (400). Legality is the
            engine's to judge.
    """
    from .sessions import WebError

    fields = list(HaggisPlay._fields)
    if isinstance(d, dict):
        unknown = sorted(set(d) - set(fields), key=str)
        if unknown:
            raise WebError(f"play: unknown Haggis play fields {unknown}"[:300] + f"; allowed: {fields}")
        if "kind" not in d:
            raise WebError("play: a Haggis play needs a 'kind' ("
                           + ", ".join(f"{k.value} {k.name}" for k in HaggisKind) + ")")
        d = [d["kind"], d.get("cards", []), d.get("width", 0), d.get("amount", 0)]
    if not isinstance(d, list) or len(d) != 4 or not isinstance(d[1], list):
        raise WebError(f"play {d!r}"[:300] + " must be [kind, [card ids], width, amount] or an object of "
                       f"those fields {fields}")
    for name, v in (("kind", d[0]), ("width", d[2]), ("amount", d[3])):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 1000:
            raise WebError(f"play field {name}={v!r}"[:300] + " must be a small integer")
    cards = d[1]
    if len(cards) > MAX_PLAY_CARDS or any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < N_CARD_IDS
                                          for c in cards):
        raise WebError(f"play field cards={cards!r}"[:300] + f" must be at most {MAX_PLAY_CARDS} card ids "
                       f"0..{N_CARD_IDS - 1}")
    try:
        return HaggisPlay.from_list([d[0], sorted(cards), d[2], d[3]])
    except (TypeError, ValueError) as err:
        raise WebError(f"play: {err}"[:400]) from None


def create(store: Any, body: dict[str, Any], should_stop: Callable[[], bool]) -> Any:
    """A ``play`` or ``watch`` Haggis game from the page's form (for :meth:`SessionStore.create`).

    ``body`` keys: ``game`` (``"haggis"``), ``mode``, ``players`` (2 or 3, default 3; section 2),
    ``seat`` (play), ``agents`` (one spec per agent seat, or one for all), ``seed``, ``rounds`` (null or
    absent: play to the target, section 9; else a fixed-length game of 1..``limits.max_rounds``
    rounds) and ``target`` (250 or 350, default 350; section 9 [ruling]).

    Raises:
        WebError: any bad or unknown field (400), or too many live games (429). Nothing is created then.
        Stopped: ``should_stop()`` (503).
    """
    import secrets

    from agents import make_agent
    from seers_env.seeding import child_seed as agent_seed  # as seers play seeds its agents

    from .sessions import Session, Stopped, WebError, _int_field, check_spec, page_specs_text, table_problem

    unknown = sorted(set(body) - set(CREATE_FIELDS), key=str)
    if unknown:
        raise WebError(f"unknown fields {unknown}"[:300] + f" for game {GAME!r}; allowed: {sorted(CREATE_FIELDS)}")
    mode = body.get("mode", "play")
    if mode not in ("play", "watch"):
        raise WebError(f"mode {mode!r}"[:200] + " is not one of 'play', 'watch' (replays are uploaded)")
    players = _int_field(body, "players", 3, 2, 3)
    rounds = None
    if body.get("rounds") is not None:
        rounds = _int_field(body, "rounds", 1, 1, store.limits.max_rounds)
    target = body.get("target", TARGET_CHOICES[-1])
    if isinstance(target, bool) or target not in TARGET_CHOICES:
        raise WebError(f"target={target!r}"[:200] + f" must be one of {', '.join(map(str, TARGET_CHOICES))}")
    seat = _int_field(body, "seat", 0, 0, players - 1) if mode == "play" else None
    seed = body.get("seed")
    if seed is None:
        seed = int(store.rng.integers(0, 2**31))
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise WebError(f"seed={seed!r}"[:200] + " must be an integer in 0..2**63-1, or null for a random deal")
    specs = body.get("agents", ["heuristic"])
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, list):
        raise WebError(f"agents={specs!r}"[:200] + " must be a list of agent specs")
    agent_seats = [s for s in range(players) if s != seat]
    if len(specs) != len(agent_seats) and len(specs) != 1:
        raise WebError(f"agents: {len(agent_seats)} agent seats need {len(agent_seats)} agent specs (or one for "
                       f"all), got {len(specs)}: {specs[:8]!r}"[:400])
    specs = [check_spec(s, store.limits, f"agents[{i}]", GAME) for i, s in enumerate(specs)]
    if len(specs) == 1:
        specs = specs * len(agent_seats)
    config = HaggisConfig(n_players=players, target=int(target), n_rounds=rounds)
    game = HaggisGame(config, seed=seed)
    agents = store._build_agents(make_agent, agent_seed, agent_seats, specs, seed, GAME, players, False)
    for s, agent in agents.items():
        try:
            agent.check_game(GAME, config)
        except (ValueError, OSError) as err:
            raise WebError(f"the agent at player {s} ({agent.name}) cannot play this Haggis table ({players} "
                           f"players): {table_problem(agent, err, players, False)}. The page may use "
                           f"{page_specs_text(store.limits, GAME)}") from None
    names = ["you" if s == seat else agents[s].name for s in range(players)]
    if should_stop():
        raise Stopped("stopped (the request was given up or the server is stopping); no game was made")
    return store._add(Session(secrets.token_hex(4), mode, game, names, agents, seat, seed, game_name=GAME))


#: The keys of a Haggis game log (:meth:`HaggisGame.log` plus ``agents``, as the page downloads it).
LOG_KEYS = ("format", "game", "config", "initial_rng_state", "origin", "events", "agents")


def check_haggis_log(log: dict[str, Any], limits: Any = None) -> dict[str, Any]:
    """Check a Haggis game log (:meth:`HaggisGame.log` plus ``agents``) by replaying its recorded plays with
    the engine, as :func:`seers_web.uploads.check_dealt_log`: a fixed length of at most ``limits.max_rounds``
    rounds or played to the target, every play ``[kind, [card ids], width, amount]``
    (:func:`parse_haggis_play`); deals' hands and round scores compared.

    Raises:
        WebError: the first problem found (400), naming the field (``config``, ``events[12].play``).
    """
    from seers_env.haggis.game import GAME_FORMAT_VERSION

    from .sessions import Limits, WebError
    from .uploads import DealtLogSpec, check_dealt_log

    def parse_logged_play(raw: Any, where: str) -> HaggisPlay:
        """:func:`parse_haggis_play` of a recorded play; raises WebError starting with ``where``."""
        try:
            return parse_haggis_play(raw)
        except WebError as err:
            raise WebError(f"{where}.{err.message}"[:500]) from None

    spec = DealtLogSpec("Haggis", GAME, HaggisGame, HaggisConfig, GAME_FORMAT_VERSION, LOG_KEYS, parse_logged_play,
                        deal_field="hands", rounds_to_target=True)
    return check_dealt_log(log, limits or Limits(), spec)


def create_replay(store: Any, log: dict[str, Any], source: dict[str, Any] | None) -> Any:
    """A replay session of a checked Haggis log (:func:`check_haggis_log`) at move 0, with a copy of the
    game every ``CHECKPOINT_EVERY`` plays (for :meth:`SessionStore.seek`)."""
    import secrets

    from .sessions import CHECKPOINT_EVERY, Session

    full = HaggisGame.replay(log, upto=0)
    plays = [HaggisPlay.from_list(e["play"]) for e in log["events"] if e["event"] == "play"]
    copies = []
    for i, p in enumerate(plays):
        if i % CHECKPOINT_EVERY == 0:
            copies.append(full.clone())
        full.apply(p)
    names = log.get("agents") or [""] * full.n_players
    return store._add(Session(secrets.token_hex(4), "replay", copies[0].clone() if copies else full, list(names),
                              log=log, plays=plays, source=source or {}, game_name=GAME, replay_games=copies))


def meta_entry() -> dict[str, Any]:
    """What ``/api/meta`` adds to Haggis' entry of ``games``: the ``targets`` (section 9 [ruling]),
    the ``bets`` (section 7) and the highest number rank (10; J, Q, K are the wilds)."""
    return {"targets": list(TARGET_CHOICES), "bets": list(BETS), "max_number_rank": MAX_NUMBER_RANK,
            "bomb_names": [BOMB_NAMES[k] for k in sorted(BOMB_NAMES)], "suits": list(SUIT_NAMES)}


__all__ = ["GAME", "card_json", "check_haggis_log", "create", "create_replay", "haggis_state", "history_text",
           "legal_json", "parse_haggis_play"]


def lead_state_figures(deals: int = 30, seed: int = 0) -> list[str]:
    """Lines of figures on the state the page gets at the first lead of ``deals`` deals per player count
    (seeds ``seed..seed+deals-1``): legal plays, JSON size and the time to build and encode it."""
    import json
    import time

    import numpy as np

    lines = ["players  plays mean/max  JSON kB mean/max  ms mean/max"]
    for n in (2, 3):
        counts, sizes, times = [], [], []
        for k in range(deals):
            game = HaggisGame(HaggisConfig(n_players=n), seed=seed + k)
            game.apply(game.legal_plays()[0])  # seat 0 bets 0, then leads
            start = time.perf_counter()
            st = haggis_state(game, [""] * n, [0], legal_for=0)
            text = json.dumps(st)
            times.append(1e3 * (time.perf_counter() - start))
            counts.append(len(st["legal"]))
            sizes.append(len(text) / 1e3)
        lines.append(f"{n:>7}  {np.mean(counts):>6.0f} {max(counts):>6}  {np.mean(sizes):>8.0f} {max(sizes):>7.0f}  "
                     f"{np.mean(times):>5.1f} {max(times):>5.1f}")
    return lines

