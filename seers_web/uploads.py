"""Reading an uploaded file into a game log the replay view can step through.

Accepted (the upload's bytes, never a path):

* a game log written by ``seers play --save`` or by the page's own download (:meth:`Game.log` plus the
  seats' ``agents``; SCOUT's and Seals' logs too, :func:`check_scout_log`, :func:`check_seals_log`), or
  a full :meth:`Game.to_dict` save. Its recorded plays are replayed by the engine; no agent runs,
  whatever the log's ``agents`` names say.
* a tournament result written by ``seers eval --out`` (format ``seers-tournament-1``). It records each
  game's deal seed, seats and scores, not its plays, so the chosen game is played again with the same
  agents and seeds (:func:`agents.tournament.play_deal`'s seeding) and checked against the recorded scores.
  Only agents without search or a model (:data:`REPLAYABLE_SPECS`, well under a millisecond per decision)
  are played again; a result of other agents is refused before any agent is built.

Every field used is checked before use, and every malformed input raises
:class:`~seers_web.sessions.WebError` (400) naming the field and what is allowed. The log kept for the
replay (and downloaded) is the engine's own, rebuilt from the checked plays: strict JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig, IllegalPlayError
from seers_env.seeding import unsafe_state

from .sessions import Limits, Stopped, WebError, never_stop, parse_play

#: Bit generators a log's ``initial_rng_state`` may name (the engine uses numpy's default, PCG64).
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
TOURNAMENT_FORMAT = "seers-tournament-1"
#: Agent specs a tournament result may name to be played again on the server (no search, no file).
REPLAYABLE_SPECS = ("random", "greedy", "heuristic")
MAX_STATE_INT = 2**128 - 1  # the widest word of a numpy bit generator state (PCG64's state and increment)
MAX_SEED = 2**64 - 1


def parse_json(data: bytes, limits: Limits) -> Any:
    """Decode an upload as JSON (``NaN``/``Infinity`` are read, and refused later where a field is used).

    Raises:
        WebError: over ``limits.max_upload_bytes`` (413), empty, not UTF-8 or not JSON (400).
    """
    if len(data) > limits.max_upload_bytes:
        raise WebError(f"the upload has {len(data)} bytes; the limit is {limits.max_upload_bytes}", 413)
    if not data.strip():
        raise WebError("the upload is empty; choose a game log (.json) saved by 'seers play --save', "
                       "the page's download or 'seers eval --out'")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:  # ValueError: JSON, or a huge integer
        raise WebError(f"the upload is not JSON ({err})") from None


def is_int(value: Any, lo: int, hi: int) -> bool:
    """Whether ``value`` is a JSON integer (not a bool or a float) in ``lo..hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def check_config(config: Any, limits: Limits) -> GameConfig:
    """The :class:`GameConfig` of a log's ``config`` (``n_players``, ``n_rounds``, ``artifact_deck``).

    Raises:
        WebError: not an object, a missing or unknown key, players outside 2..5, rounds outside
            1..``limits.max_rounds``, or a deck the engine refuses (400, naming the field).
    """
    keys = {"n_players", "n_rounds", "artifact_deck"}
    if not isinstance(config, dict) or set(config) != keys:
        raise WebError(f"config must be an object with exactly the keys {sorted(keys)}, got "
                       f"{sorted(config) if isinstance(config, dict) else type(config).__name__}")
    if not is_int(config["n_players"], 2, 5):
        raise WebError(f"config n_players={config['n_players']!r} must be an integer in 2..5")
    if not is_int(config["n_rounds"], 1, limits.max_rounds):
        raise WebError(f"config n_rounds={config['n_rounds']!r} must be an integer in 1..{limits.max_rounds} "
                       "(the rounds this page replays)")
    deck = config["artifact_deck"]
    if not isinstance(deck, list) or len(deck) > 64 or not all(isinstance(k, str) for k in deck):
        raise WebError(f"config artifact_deck={deck!r} must be a list of at most 64 artifact kind keys")
    try:
        return GameConfig(config["n_players"], config["n_rounds"], tuple(deck))
    except ValueError as err:
        raise WebError(f"config artifact_deck: {err}") from None


def _state_words_ok(value: Any, depth: int = 0) -> bool:
    """Whether a bit generator state holds only integers in 0..2**128-1 (in objects and short lists)."""
    if isinstance(value, dict):
        return depth < 3 and all(isinstance(k, str) and _state_words_ok(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return len(value) <= 1024 and all(is_int(v, 0, MAX_STATE_INT) for v in value)
    return is_int(value, 0, MAX_STATE_INT)


def check_rng_state(state: Any) -> np.random.Generator:
    """A generator at the log's ``initial_rng_state`` (a numpy ``bit_generator.state`` dict).

    Raises:
        WebError: not such a state: an unknown bit generator, a word that is not an integer in
            0..2**128-1, a state numpy refuses, or one it would misuse (:func:`seers_env.seeding.unsafe_state`:
            an index out of range, a generator stuck on one value) (400, naming ``initial_rng_state``).
    """
    if not isinstance(state, dict) or state.get("bit_generator") not in BIT_GENERATORS:
        raise WebError(f"initial_rng_state must be a numpy bit generator state with bit_generator one of "
                       f"{list(BIT_GENERATORS)}")
    words = {k: v for k, v in state.items() if k != "bit_generator"}
    if not _state_words_ok(words):
        raise WebError(f"initial_rng_state of {state['bit_generator']} must hold only integers in 0..2**128-1")
    bit_gen = getattr(np.random, state["bit_generator"])()
    try:
        bit_gen.state = state
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as err:
        raise WebError(f"initial_rng_state is not a state of numpy's {state['bit_generator']} "
                       f"({type(err).__name__}: {err})") from None
    why = unsafe_state(bit_gen)  # before any draw: such a state can crash the server or hang a draw
    if why is not None:
        raise WebError(f"initial_rng_state is not a state of numpy's {state['bit_generator']}: {why}")
    return np.random.Generator(bit_gen)


def check_log(log: Any, limits: Limits | None = None) -> dict[str, Any]:
    """Check a game log by replaying its plays with the engine; returns the engine's own log of the game
    (:meth:`Game.log`) plus the checked ``agents`` names.

    Raises:
        WebError: missing keys, a bad config, agents, generator state or event, or a play or deal that does
            not replay with this engine (400, naming the field and the reason).
    """
    limits = limits or Limits()
    if not isinstance(log, dict) or not {"config", "initial_rng_state", "events"} <= set(log):
        raise WebError("the upload is not a game log: it needs the keys config, initial_rng_state and events "
                       "(a file saved by 'seers play --save' or by this page), or a tournament result")
    config = check_config(log["config"], limits)
    rng = check_rng_state(log["initial_rng_state"])
    events = log["events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and isinstance(e.get("event"), str)
                                               for e in events):
        raise WebError("events must be a list of engine events (objects with an 'event' key)")
    agents = log.get("agents")
    if agents is not None and not (isinstance(agents, list) and len(agents) == config.n_players
                                   and all(isinstance(a, str) and len(a) <= 200 for a in agents)):
        raise WebError(f"'agents' must be a list of {config.n_players} agent names, got {agents!r}"[:400])
    plays = []
    for i, e in enumerate(events):
        if e["event"] == "play":
            try:
                plays.append((i, parse_play(e.get("play"))))
            except WebError as err:
                raise WebError(f"the log does not replay: events[{i}].play: {err.message}") from None
    game = Game(config, rng=rng)
    for i, play in plays:
        if game.game_over:
            raise WebError(f"the log does not replay: events[{i}] is a play after the end of the game")
        try:
            game.apply(play)
        except (IllegalPlayError, ValueError, TypeError, IndexError, KeyError) as err:
            raise WebError(f"the log does not replay: events[{i}].play: {err}") from None
    logged = [e.get("hands") for e in events if e["event"] == "deal"]
    dealt = [e["hands"] for e in game.events if e["event"] == "deal"]
    if logged[:len(dealt)] != dealt:
        raise WebError("the log does not replay: its deal events differ from the engine's deals from "
                       "initial_rng_state (a log of another engine version, or edited)")
    out = game.log()
    out["agents"] = agents
    return out


@dataclass(frozen=True)
class DealtLogSpec:
    """What :func:`check_dealt_log` needs to know of one game's logs."""

    title: str  # the game as messages name it: "SCOUT"
    name: str  # its registry name, the log's ``game``
    game_class: Any  # replays the first deal; its ``log()`` is returned
    config_class: Any  # reads and writes the log's ``config`` (``from_dict``, ``to_dict``)
    format_version: int
    log_keys: tuple[str, ...]  # every key a log may have; all but ``agents`` are required
    #: One recorded play to the engine's play: ``parse_play(raw, where)``, where ``where`` names the event
    #: (``"the log does not replay: events[12]"``); raises WebError starting with ``where``.
    parse_play: Callable[[Any, str], Any]
    deal_field: str  # the field of deal events compared with the engine's: "hands"
    rounds_to_target: bool = False  # whether ``n_rounds`` may be null (played to the target)


def int_list_play(from_list: Callable[[Any], Any], n_fields: int, max_value: int,
                  shape: str) -> Callable[[Any, str], Any]:
    """A ``parse_play`` for :class:`DealtLogSpec`: a play recorded as ``n_fields`` integers in
    ``0..max_value`` (``shape`` describes them in messages), made by ``from_list``."""

    def parse_play(raw: Any, where: str) -> Any:
        """The engine's play of ``raw``.

        Raises:
            WebError: not ``n_fields`` integers in ``0..max_value``, or fields that describe no play (400).
        """
        if not (isinstance(raw, list) and len(raw) == n_fields and all(is_int(v, 0, max_value) for v in raw)):
            raise WebError(f"{where}.play={raw!r}"[:300] + f" must be {shape}")
        try:
            return from_list(raw)
        except (ValueError, TypeError) as err:
            raise WebError(f"{where}.play: {err}"[:500]) from None

    return parse_play


def check_dealt_log(log: dict[str, Any], limits: Limits, spec: DealtLogSpec) -> dict[str, Any]:
    """Check a dealt game's log (``spec.game_class.log()`` plus ``agents``) by replaying its recorded plays
    with the engine (no agent runs); returns the engine's own log of the game plus the checked ``agents``.

    Strict: exactly the keys of ``spec.log_keys`` (``agents`` optional), ``format`` ``spec.format_version``,
    a config the engine accepts with at most ``limits.max_rounds`` rounds (or null where
    ``spec.rounds_to_target``), a dealt game (``origin`` null: a hand-made position is not replayed here),
    every play one ``spec.parse_play`` reads and legal when it comes, no play after the end, and deals
    (``spec.deal_field``) and round scores equal to the engine's.

    Raises:
        WebError: the first problem found (400), naming the field (``config.n_rounds``, ``events[12].play``).
    """
    title, keys = spec.title, spec.log_keys
    required = set(keys) - {"agents"}
    if not required <= set(log):
        raise WebError(f"the {title} log lacks the keys {sorted(required - set(log))}; a log saved by this "
                       f"page's download (or {spec.game_class.__name__}.log()) has {sorted(required)}")
    unknown = sorted(set(log) - set(keys), key=str)
    if unknown:
        raise WebError(f"the {title} log has unknown keys {unknown}"[:300] + f"; allowed: {list(keys)}")
    if not is_int(log["format"], spec.format_version, spec.format_version):  # 1.0 and true are not 1
        raise WebError(f"format={log['format']!r}"[:100] + f" is not supported; {title} logs have format "
                       f"{spec.format_version}")
    try:
        config = spec.config_class.from_dict(log["config"])
    except (TypeError, ValueError) as err:
        raise WebError(f"config: {err}"[:500]) from None
    if config.n_rounds is not None and config.n_rounds > limits.max_rounds:
        raise WebError(f"config n_rounds={config.n_rounds} must be at most {limits.max_rounds} (the rounds this "
                       "page replays)" + (", or null (played to the target)" if spec.rounds_to_target else ""))
    check_rng_state(log["initial_rng_state"])
    if log["origin"] is not None:
        raise WebError("origin must be null: only dealt games are replayed here, not a game started from a "
                       "hand-made position")
    events = log["events"]
    if not isinstance(events, list) or not all(isinstance(e, dict) and isinstance(e.get("event"), str)
                                               for e in events):
        raise WebError("events must be a list of engine events (objects with an 'event' key)")
    agents = log.get("agents")
    if agents is not None and not (isinstance(agents, list) and len(agents) == config.n_players
                                   and all(isinstance(a, str) and len(a) <= 200 for a in agents)):
        raise WebError(f"'agents' must be a list of {config.n_players} agent names, got {agents!r}"[:400])
    first_deal = [e for e in events if e["event"] == "deal"][:1]
    try:  # deals from initial_rng_state and compares the logged first deal
        game = spec.game_class.replay({"format": spec.format_version, "game": spec.name,
                                       "config": config.to_dict(), "initial_rng_state": log["initial_rng_state"],
                                       "origin": None, "events": first_deal}, upto=0)
    except (TypeError, ValueError) as err:
        raise WebError(f"the log does not replay: {err} (its first deal event must be the deal made from "
                       "initial_rng_state)") from None
    for i, e in enumerate(events):
        if e["event"] != "play":
            continue
        where = f"the log does not replay: events[{i}]"
        play = spec.parse_play(e.get("play"), where)
        if game.game_over:
            raise WebError(f"{where} is a play after the end of the game")
        try:
            game.apply(play)
        except (ValueError, TypeError) as err:  # IllegalPlayError is a ValueError
            raise WebError(f"{where}.play: {err}"[:500]) from None
    for kind, key in (("deal", spec.deal_field), ("round_end", "scores")):
        logged = [e.get(key) for e in events if e["event"] == kind]
        made = [e[key] for e in game.events if e["event"] == kind]
        if logged != made:
            raise WebError(f"the log does not replay: its {kind} events differ from the engine's ({len(logged)} "
                           f"logged, {len(made)} made from initial_rng_state and the plays; a log of another "
                           "engine version, or edited)")
    out = game.log()
    out["agents"] = agents
    return out


SCOUT_LOG_KEYS = ("format", "game", "config", "initial_rng_state", "origin", "events", "agents")


def check_scout_log(log: dict[str, Any], limits: Limits | None = None) -> dict[str, Any]:
    """Check a SCOUT game log (:meth:`ScoutGame.log` plus ``agents``) by replaying its recorded plays with the
    engine, as :func:`check_dealt_log`: every play a list of six integers; deals' hands and round scores
    compared.

    Raises:
        WebError: the first problem found (400), naming the field (``config.n_rounds``, ``events[12].play``).
    """
    from seers_env.scout.game import GAME_FORMAT_VERSION, ScoutConfig, ScoutGame
    from seers_env.scout.plays import ScoutPlay

    spec = DealtLogSpec("SCOUT", "scout", ScoutGame, ScoutConfig, GAME_FORMAT_VERSION, SCOUT_LOG_KEYS,
                        int_list_play(ScoutPlay.from_list, 6, 1000,
                                      "a list of 6 integers [kind, end, flip, position, start, length]"),
                        deal_field="hands")
    return check_dealt_log(log, limits or Limits(), spec)


SEALS_LOG_KEYS = ("format", "game", "config", "initial_rng_state", "origin", "events", "agents")


def check_seals_log(log: dict[str, Any], limits: Limits | None = None) -> dict[str, Any]:
    """Check a Seals game log (:meth:`SealsGame.log` plus ``agents``) by replaying its recorded plays with the
    engine, as :func:`check_dealt_log`: 2..4 players, the round counter in Marks, every play a list
    ``[kind, value]`` of two integers (legal at the take or declare stage it names); deals' draw piles and
    round scores compared.

    Raises:
        WebError: the first problem found (400), naming the field (``config.n_rounds``, ``events[12].play``).
    """
    from seers_env.seals.game import GAME_FORMAT_VERSION, SealsConfig, SealsGame
    from seers_env.seals.plays import N_DECLARATIONS, SealsPlay

    max_value = N_DECLARATIONS - 1  # the widest field: a declaration id
    spec = DealtLogSpec("Seals", "seals", SealsGame, SealsConfig, GAME_FORMAT_VERSION, SEALS_LOG_KEYS,
                        int_list_play(SealsPlay.from_list, 2, max_value, "a list [kind, value] of 2 integers"),
                        deal_field="pile")
    return check_dealt_log(log, limits or Limits(), spec)


def _check_record(rec: Any, index: int, n: int, n_rounds: int) -> dict[str, Any]:
    """A tournament game record with its fields checked (``deal``, ``rotation``, ``deal_seed``, ``seats``,
    ``totals``, ``round_scores``); raises :class:`WebError` naming ``games[index].field``."""
    where = f"games[{index}]"
    if not isinstance(rec, dict):
        raise WebError(f"{where} must be an object (a game record of 'seers eval --out')")
    checks = {
        "deal": (lambda v: is_int(v, 0, 2**63 - 1), "an integer >= 0"),
        "rotation": (lambda v: is_int(v, 0, n - 1), f"an integer in 0..{n - 1}"),
        "deal_seed": (lambda v: is_int(v, 0, MAX_SEED), "an integer in 0..2**64-1"),
        "seats": (lambda v: isinstance(v, list) and len(v) == n
                  and all(isinstance(x, str) and len(x) <= 200 for x in v), f"a list of {n} agent labels"),
        "totals": (lambda v: isinstance(v, list) and len(v) == n and all(is_int(x, -10**6, 10**6) for x in v),
                   f"a list of {n} integer scores"),
        "round_scores": (lambda v: isinstance(v, list) and len(v) == n_rounds and all(
            isinstance(r, list) and len(r) == n and all(is_int(x, -10**6, 10**6) for x in r) for r in v),
            f"{n_rounds} lists of {n} integer scores"),
    }
    for key, (ok, allowed) in checks.items():
        if key not in rec:
            raise WebError(f"{where} lacks the field {key!r}")
        if not ok(rec[key]):
            raise WebError(f"{where}.{key}={rec[key]!r} must be {allowed}"[:500])
    return rec


def check_tournament(result: dict[str, Any], limits: Limits) -> tuple[list[str], int, int, list[dict[str, Any]]]:
    """The fields of a tournament result the replay uses, checked: ``(specs, seed, n_rounds, games)``.

    No agent is built: ``specs`` must be :data:`REPLAYABLE_SPECS`, since the result records no plays.

    Raises:
        WebError: a missing or bad field (400, naming it: ``specs[1]``, ``seed``, ``games[3].deal`` ...).
    """
    specs = result.get("specs")
    if not isinstance(specs, list) or not 2 <= len(specs) <= 5:
        raise WebError(f"specs={specs!r} must be a list of 2..5 agent specs (one per seat)"[:400])
    for i, spec in enumerate(specs):
        if spec not in REPLAYABLE_SPECS:
            raise WebError(f"specs[{i}]={spec!r}"[:240] + ": a tournament result records no plays, so showing "
                           "its games means running its agents again; the server does that only for agents "
                           f"without search or a model ({', '.join(REPLAYABLE_SPECS)}). Save a game with "
                           "'seers play --save' and upload that log instead")
    seed, n_rounds = result.get("seed"), result.get("n_rounds")
    if not is_int(seed, 0, MAX_SEED):
        raise WebError(f"seed={seed!r} must be an integer in 0..2**64-1 (the tournament's seed)"[:400])
    if not is_int(n_rounds, 1, limits.max_rounds):
        raise WebError(f"n_rounds={n_rounds!r} must be an integer in 1..{limits.max_rounds} (the rounds this page "
                       "replays)"[:400])
    games = result.get("games")
    if not isinstance(games, list) or not games:
        raise WebError("games must be a non-empty list of game records")
    games = [_check_record(rec, i, len(specs), n_rounds) for i, rec in enumerate(games)]
    return list(specs), seed, n_rounds, games


def tournament_games(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Short descriptions of a tournament result's checked games (for the page's menu)."""
    return [{"index": i, "deal": g["deal"], "rotation": g["rotation"], "seats": g["seats"],
             "totals": g["totals"]} for i, g in enumerate(games)]


def tournament_log(result: dict[str, Any], index: Any, limits: Limits,
                   should_stop: Callable[[], bool] = never_stop) -> dict[str, Any]:
    """Play game ``index`` of a tournament result again and return its game log.

    The game is played with the recorded seats' agents (only :data:`REPLAYABLE_SPECS`), the deal seed and
    the agents' seeds of :func:`agents.tournament.play_deal`; the default artifact deck is tried first, then
    none (the result does not record the deck). The replayed scores must equal the recorded ones.
    ``should_stop`` is checked between decisions.

    Raises:
        WebError: not a tournament result or a bad field (see :func:`check_tournament`), index out of
            range, or scores that do not match (400).
        Stopped: ``should_stop()`` became true.
    """
    from agents.tournament import agent_labels, make_agent, seat_order
    from seers_env.view import SeatView

    specs, seed, n_rounds, games = check_tournament(result, limits)
    if not is_int(index, 0, len(games) - 1):
        raise WebError(f"game={index!r} must be an integer in 0..{len(games) - 1}")
    rec = games[index]
    n, deal, rotation = len(specs), rec["deal"], rec["rotation"]
    labels = agent_labels(specs)
    order = seat_order(n, rotation)
    names = [labels[a] for a in order]
    for deck in (DEFAULT_ARTIFACT_DECK, ()):
        config = GameConfig(n_players=n, n_rounds=n_rounds, artifact_deck=deck)
        game = Game(config, seed=rec["deal_seed"])
        agents = [make_agent(specs[order[seat]],
                             seed=int(np.random.SeedSequence([seed, deal, rotation, seat]).generate_state(1)[0]))
                  for seat in range(n)]
        views = [SeatView(game, s) for s in range(n)]
        while not game.game_over:
            if should_stop():
                raise Stopped("stopped replaying the tournament game (the request was given up or the server "
                              "is stopping)")
            game.apply(agents[game.current].act(views[game.current]))
        if game.totals == rec["totals"] and [list(r) for r in game.round_scores] == rec["round_scores"]:
            log = game.log()
            log["agents"] = names
            return log
    raise WebError(f"tournament game {index} does not come out with its recorded scores {rec['totals']} when "
                   "played again (another engine or agent version?)")


def parse_upload(data: bytes, limits: Limits, game: Any = 0,
                 should_stop: Callable[[], bool] = never_stop) -> tuple[dict[str, Any], dict[str, Any]]:
    """Turn an upload into ``(log, source)``: a checked game log and where it came from.

    ``source`` is ``{"kind": "log"}`` or ``{"kind": "tournament", "game": i, "games": [...]}``.

    Raises:
        WebError: see :func:`parse_json`, :func:`check_log` and :func:`tournament_log`.
        Stopped: ``should_stop()`` became true while a tournament game was played again.
    """
    obj = parse_json(data, limits)
    if isinstance(obj, dict) and obj.get("format") == TOURNAMENT_FORMAT \
            and obj.get("game", "seers_catalog") != "seers_catalog":
        raise WebError(f"a tournament result of game {str(obj.get('game'))[:40]!r} records no plays and is not "
                       "played again here; save a game with 'seers play --save' (or this page's download) "
                       "and upload that log")
    if isinstance(obj, dict) and obj.get("game") == "scout":
        return check_scout_log(obj, limits), {"kind": "log"}
    if isinstance(obj, dict) and obj.get("game") == "seals":
        return check_seals_log(obj, limits), {"kind": "log"}
    if isinstance(obj, dict) and obj.get("game") == "haggis":
        from .haggis_web import check_haggis_log

        return check_haggis_log(obj, limits), {"kind": "log"}
    if isinstance(obj, dict) and obj.get("format") == TOURNAMENT_FORMAT:
        log = tournament_log(obj, game, limits, should_stop)
        games = check_tournament(obj, limits)[3]
        return check_log(log, limits), {"kind": "tournament", "game": game, "games": tournament_games(games)}
    return check_log(obj, limits), {"kind": "log"}
