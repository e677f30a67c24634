"""Reading an uploaded file into a game log the replay view can step through.

Accepted (the upload's bytes, never a path):

* a game log written by ``seers play --save`` or by the page's own download (:meth:`Game.log` plus the
  seats' ``agents``), or a full :meth:`Game.to_dict` save;
* a tournament result written by ``seers eval --out`` (format ``seers-tournament-1``). It records each
  game's deal seed, seats and scores, not its plays, so the chosen game is played again with the same
  agents and seeds (:func:`agents.tournament.play_deal`'s seeding) and checked against the recorded scores.

Every malformed input raises :class:`~seers_web.sessions.WebError` (400) naming what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig, IllegalPlayError

from .sessions import Limits, WebError, check_spec

#: Bit generators a log's ``initial_rng_state`` may name (the engine uses numpy's default, PCG64).
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")
TOURNAMENT_FORMAT = "seers-tournament-1"
MAX_ROUNDS = 20  # rounds of a game the page starts or replays


def parse_json(data: bytes, limits: Limits) -> Any:
    """Decode an upload as JSON.

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
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise WebError(f"the upload is not JSON ({err})") from None


def check_log(log: Any) -> dict[str, Any]:
    """Check a game log by replaying it with the engine; returns it with only the keys a replay needs.

    Raises:
        WebError: missing keys, a bad config, agents or generator state, or a play or deal that does not
            replay with this engine (400, with the reason).
    """
    if not isinstance(log, dict) or not {"config", "initial_rng_state", "events"} <= set(log):
        raise WebError("the upload is not a game log: it needs the keys config, initial_rng_state and events "
                       "(a file saved by 'seers play --save' or by this page), or a tournament result")
    state = log["initial_rng_state"]
    if not isinstance(state, dict) or state.get("bit_generator") not in BIT_GENERATORS:
        raise WebError(f"initial_rng_state must be a numpy bit generator state with bit_generator one of "
                       f"{list(BIT_GENERATORS)}")
    if not isinstance(log["events"], list) or not all(isinstance(e, dict) and "event" in e for e in log["events"]):
        raise WebError("events must be a list of engine events (objects with an 'event' key)")
    config = log["config"]
    try:
        game_config = GameConfig.from_dict(config)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise WebError(f"config {config!r} is not a game config ({type(err).__name__}: {err})") from None
    n_players = game_config.n_players
    if game_config.n_rounds > MAX_ROUNDS:
        raise WebError(f"config n_rounds={game_config.n_rounds} is more than this page replays (1..{MAX_ROUNDS})")
    agents = log.get("agents")
    if agents is not None and not (isinstance(agents, list) and len(agents) == n_players
                                   and all(isinstance(a, str) and len(a) <= 200 for a in agents)):
        raise WebError(f"'agents' must be a list of {n_players} agent names, got {agents!r}")
    out = {"format": log.get("format", 1), "config": config, "initial_rng_state": state,
           "events": log["events"], "agents": agents}
    try:
        Game.replay(out)
    except IllegalPlayError as err:
        raise WebError(f"the log does not replay: {err}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        raise WebError(f"the log does not replay with this engine ({type(err).__name__}: {err})") from None
    return out


def tournament_games(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Short descriptions of a tournament result's games (for the page's menu)."""
    return [{"index": i, "deal": g.get("deal"), "rotation": g.get("rotation"), "seats": g.get("seats"),
             "totals": g.get("totals")} for i, g in enumerate(result.get("games", []))]


def tournament_log(result: dict[str, Any], index: int, limits: Limits) -> dict[str, Any]:
    """Play game ``index`` of a tournament result again and return its game log.

    The game is played with the recorded seats' agents, the deal seed and the agents' seeds of
    :func:`agents.tournament.play_deal`; the default artifact deck is tried first, then none (the result
    does not record the deck). The replayed scores must equal the recorded ones.

    Raises:
        WebError: not a tournament result, index out of range, an agent spec the page may not use (a model
            file) or scores that do not match (400).
    """
    import numpy as np

    from agents.tournament import agent_labels, make_agent, seat_order
    from seers_env.view import SeatView

    games = result.get("games")
    specs = result.get("specs")
    if not isinstance(games, list) or not games or not isinstance(specs, list) \
            or not all(isinstance(s, str) for s in specs):
        raise WebError("the tournament result has no games or no agent specs")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(games):
        raise WebError(f"game={index!r} must be an integer in 0..{len(games) - 1}")
    rec = games[index]
    try:
        deal, rotation, deal_seed = int(rec["deal"]), int(rec["rotation"]), int(rec["deal_seed"])
        seed, n_rounds = int(result["seed"]), int(result["n_rounds"])
        totals, round_scores = list(rec["totals"]), [list(r) for r in rec["round_scores"]]
    except (KeyError, TypeError, ValueError) as err:
        raise WebError(f"tournament game {index} lacks a field or has a bad one ({type(err).__name__}: {err})") \
            from None
    n = len(specs)
    if n not in (2, 3, 4, 5) or not 1 <= n_rounds <= MAX_ROUNDS or not 0 <= deal_seed < 2**64 or rotation not in range(n):
        raise WebError(f"tournament game {index}: {n} players, {n_rounds} rounds, rotation {rotation} are not "
                       "a game this page can replay")
    for s in specs:
        check_spec(s, limits)
    labels = agent_labels(specs)
    order = seat_order(n, rotation)
    names = [labels[a] for a in order]
    for deck in (DEFAULT_ARTIFACT_DECK, ()):
        config = GameConfig(n_players=n, n_rounds=n_rounds, artifact_deck=deck)
        game = Game(config, seed=deal_seed)
        agents = [make_agent(specs[order[seat]],
                             seed=int(np.random.SeedSequence([seed, deal, rotation, seat]).generate_state(1)[0]))
                  for seat in range(n)]
        views = [SeatView(game, s) for s in range(n)]
        while not game.game_over:
            game.apply(agents[game.current].act(views[game.current]))
        if game.totals == totals and [list(r) for r in game.round_scores] == round_scores:
            log = game.log()
            log["agents"] = names
            return log
    raise WebError(f"tournament game {index} does not come out with its recorded scores {totals} when played "
                   "again (another engine or agent version?)")


def parse_upload(data: bytes, limits: Limits, game: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Turn an upload into ``(log, source)``: a checked game log and where it came from.

    ``source`` is ``{"kind": "log"}`` or ``{"kind": "tournament", "game": i, "games": [...]}``.

    Raises:
        WebError: see :func:`parse_json`, :func:`check_log` and :func:`tournament_log`.
    """
    obj = parse_json(data, limits)
    if isinstance(obj, dict) and obj.get("format") == TOURNAMENT_FORMAT:
        log = tournament_log(obj, game, limits)
        return check_log(log), {"kind": "tournament", "game": game, "games": tournament_games(obj)}
    return check_log(obj), {"kind": "log"}
