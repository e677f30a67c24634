"""The ``seers serve`` JSON API through FastAPI's test client: games through the API match the engine, and
every kind of bad request gets a 4xx with a clear message and leaves the game as it was."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK  # noqa: E402
from seers_cli.play_cli import agent_seed, play_game  # noqa: E402
from seers_env.game import Game, GameConfig  # noqa: E402
from seers_env.plays import Play  # noqa: E402
from seers_env.view import SeatView  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_cli.serve_cmd import is_local  # noqa: E402
from seers_web.sessions import Limits  # noqa: E402


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def local_client(app) -> TestClient:
    """A client as the page is one: the server's own address, JSON bodies (the server refuses others)."""
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"})


@pytest.fixture
def client():
    return local_client(create_app(Limits(max_sessions=6, max_upload_bytes=200_000), seed=0))


def new_game(client, **kw) -> dict:
    body = {"mode": "play", "players": 3, "seat": 1, "agents": ["random"], "seed": 4, "rounds": 1}
    body.update(kw)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def snapshot(client, sid: str) -> tuple:
    """Everything the server holds about a session, to show a rejected request changed nothing."""
    store = client.app.state.store
    s = store._sessions[sid]
    return json.dumps(s.game.to_dict(), sort_keys=True), s.step, len(store)


def to_my_turn(client, st: dict) -> dict:
    while st["waiting_for"] == "agent":
        r = client.post(f"/api/games/{st['id']}/advance", json={"move": st["move"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st


def test_full_game_through_the_api_matches_the_engine(client):
    seed, human, players = 9, 2, 4
    st = new_game(client, players=players, seat=human, agents=["greedy", "random", "heuristic"], seed=seed,
                  rounds=2)
    rng = np.random.default_rng(1)
    mine = []
    while not st["game_over"]:
        st = to_my_turn(client, st)
        if st["game_over"]:
            break
        assert st["hands"].keys() == {str(human)}  # the other hands stay hidden
        p = st["legal"][int(rng.integers(len(st["legal"])))]
        r = client.post(f"/api/games/{st['id']}/play", json={"play": p["play"], "move": st["move"]})
        assert r.status_code == 200, r.text
        mine.append(p["play"])
        st = r.json()
    game = Game(GameConfig(n_players=players, n_rounds=2, artifact_deck=DEFAULT_ARTIFACT_DECK), seed=seed)
    specs = dict(zip([0, 1, 3], ["greedy", "random", "heuristic"]))
    agents = {s: make_agent(spec, seed=agent_seed(seed, s)) for s, spec in specs.items()}
    plays = iter(mine)
    while not game.game_over:
        s = game.current
        game.apply(Play.from_dict(next(plays)) if s == human else agents[s].act(SeatView(game, s)))
    assert st["totals"] == game.totals and st["winners"] == game.winners()
    assert st["round_scores"] == game.round_scores
    log = client.get(f"/api/games/{st['id']}/log").json()
    assert log["events"] == game.log()["events"]
    assert log["agents"] == ["greedy", "random", "you", "heuristic"]
    final = client.get(f"/api/games/{st['id']}?reveal=1").json()  # hands shown once the game is over
    assert len(final["hands"]) == players


def test_watch_game_matches_seers_play_agents(client):
    r = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["heuristic", "greedy"],
                                        "seed": 3, "rounds": 1, "artifacts": False})
    st = r.json()
    assert r.status_code == 201 and st["human"] is None and st["hands"] == {}
    while not st["game_over"]:
        st = client.post(f"/api/games/{st['id']}/advance?reveal=1").json()
        assert len(st["hands"]) == 2
    game = Game(GameConfig(n_players=2, n_rounds=1, artifact_deck=()), seed=3)
    agents = [make_agent("heuristic", seed=agent_seed(3, 0)), make_agent("greedy", seed=agent_seed(3, 1))]
    while not game.game_over:
        game.apply(agents[game.current].act(SeatView(game, game.current)))
    assert st["totals"] == game.totals


def test_replay_of_a_seers_play_save_steps_both_ways(client, tmp_path):
    path = tmp_path / "g.json"
    game = play_game(["random"], n_players=3, seat=0, seed=2, rounds=1, save=path,
                     read_line=lambda prompt: "1", echo=lambda s: None)
    r = client.post("/api/replays", content=path.read_bytes())
    assert r.status_code == 201, r.text
    st = r.json()
    n = st["steps"]
    assert st["step"] == 0 and n == sum(e["event"] == "play" for e in game.events)
    assert len(st["hands"]) == 3  # a replay shows every hand
    for step in (n, 0, 17, 16, 5, n - 1, n):  # forwards and backwards, across checkpoints
        st = client.post(f"/api/games/{st['id']}/seek", json={"step": step}).json()
        ref = Game.replay(game.log(), upto=step)
        assert st["step"] == step and st["hand_sizes"] == ref.hand_sizes() and st["totals"] == ref.totals
    assert st["totals"] == game.totals
    # the page's own download replays too
    own = client.get(f"/api/games/{st['id']}/log").content
    assert client.post("/api/replays", content=own).json()["steps"] == n


def test_replay_of_a_tournament_game_plays_it_again():
    client = local_client(create_app(seed=0))
    result = run_tournament(["random", "greedy"], games=1, seed=5, workers=1, n_rounds=1, progress=False)
    data = json.dumps(result.to_dict()).encode()
    r = client.post("/api/replays?game=1", content=data)
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["source"]["kind"] == "tournament" and len(st["source"]["games"]) == 2
    st = client.post(f"/api/games/{st['id']}/seek", json={"step": st["steps"]}).json()
    assert st["totals"] == result.games[1]["totals"]
    assert st["names"] == result.games[1]["seats"]
    # the variant without artifacts is found too
    result = run_tournament(["random", "random"], games=1, seed=1, workers=1, n_rounds=1, progress=False,
                            artifact_deck=())
    st = client.post("/api/replays", content=json.dumps(result.to_dict()).encode()).json()
    assert st["artifacts"] is False
    # a model file in the specs is refused: the server reads no path from a client
    d = result.to_dict()
    d["specs"] = ["ppo:/etc/passwd", "random"]  # refused before any agent is built: the result has no plays
    r = client.post("/api/replays", content=json.dumps(d).encode())
    assert r.status_code == 400 and "specs[0]='ppo:/etc/passwd'" in r.json()["error"]
    r = client.post("/api/replays?game=7", content=data)
    assert r.status_code == 400 and "0..1" in r.json()["error"]


BAD_CREATE = [
    ({"mode": "duel"}, "mode"),
    ({"players": 6}, "players"),
    ({"players": "4"}, "players"),
    ({"seat": 3}, "seat"),
    ({"rounds": 0}, "rounds"),
    ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"artifacts": "yes"}, "artifacts"),
    ({"agents": ["random", "random", "random"]}, "agent specs"),
    ({"agents": ["alphazero"]}, "unknown agent spec"),
    ({"agents": ["ppo:/etc/passwd"]}, "reads no file path"),
    ({"agents": ["ismcts:100000"]}, "iterations"),
    ({"agents": ["ismcts:60s"]}, "per move"),
    ({"agents": [7]}, "agent spec"),
    ({"agents": "random,greedy"}, "agent"),
    ({"colour": "red"}, "unknown fields"),
]


@pytest.mark.parametrize("change,words", BAD_CREATE)
def test_bad_new_game_is_rejected_and_nothing_is_created(client, change, words):
    body = {"mode": "play", "players": 3, "seat": 1, "agents": ["random"], "rounds": 1}
    body.update(change)
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_bad_bodies_are_rejected(client):
    assert client.post("/api/games", content=b"{not json").status_code == 400
    assert client.post("/api/games", content=b"").status_code == 400
    assert client.post("/api/games", content=b"[1, 2]").status_code == 400
    r = client.post("/api/games", content=b"x" * 70_000)
    assert r.status_code == 413 and "limit" in r.json()["error"]
    assert len(client.app.state.store) == 0


def test_bad_requests_leave_the_game_unchanged(client):
    st = new_game(client)
    sid = st["id"]
    st = to_my_turn(client, st)
    before = snapshot(client, sid)
    legal = st["legal"]
    held = set(st["hands"]["1"])
    missing = next(c for c in range(60) if c not in held)
    bad_plays = [
        ({"play": {"kind": 1, "meld_type": 1, "size": 1, "rank": 2 * (missing % 12 + 2), "suited": [missing]},
          "move": st["move"]}, 400, "does not hold"),
        ({"play": {"kind": 1, "meld_type": 2, "size": 3, "rank": 4, "suited": [], "wilds": 3}}, 400, "illegal play"),
        ({"play": {"kind": 9}}, 400, "illegal play"),
        ({"play": {"kind": 1, "suited": "abc"}}, 400, "list"),
        ({"play": {"kind": True}}, 400, "integer"),
        ({"play": {"kind": 1, "colour": 3}}, 400, "unknown Play fields"),
        ({"play": {"meld_type": 1}}, 400, "kind"),
        ({"play": [1, 2]}, 400, "JSON object"),
        ({"move": st["move"]}, 400, "play"),
        ({"play": legal[0]["play"], "move": st["move"] - 1}, 409, "stale"),
        ({"play": legal[0]["play"], "move": "x"}, 400, "integer"),
        ({"play": legal[0]["play"], "extra": 1}, 400, "unknown fields"),
    ]
    for body, status, words in bad_plays:
        r = client.post(f"/api/games/{sid}/play", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
        assert snapshot(client, sid) == before
    for path, body, status, words in [
        (f"/api/games/{sid}/advance", {}, 409, "your turn"),
        (f"/api/games/{sid}/advance", {"move": 1, "x": 2}, 400, "unknown fields"),
        (f"/api/games/{sid}/advance", [1], 400, "JSON object"),
        (f"/api/games/{sid}/seek", {"step": 1}, 409, "not a replay"),
        (f"/api/games/{sid}/advance?reveal=1", {}, 403, "hidden"),
        (f"/api/games/{sid}/advance?reveal=maybe", {}, 400, "reveal"),
    ]:
        r = client.post(path, json=body)
        assert r.status_code == status and words in r.json()["error"], (path, r.text)
        assert snapshot(client, sid) == before
    assert client.get(f"/api/games/{sid}?reveal=1").status_code == 403
    for method, path in [("GET", "/api/games/nope"), ("POST", "/api/games/nope/play"),
                         ("POST", "/api/games/nope/advance"), ("POST", "/api/games/nope/seek"),
                         ("GET", "/api/games/nope/log"), ("DELETE", "/api/games/nope")]:
        r = client.request(method, path, json={"play": legal[0]["play"]})
        assert r.status_code == 404 and "no game with id 'nope'" in r.json()["error"]
    assert snapshot(client, sid) == before


def test_not_your_turn_watch_and_finished_games_are_refused(client):
    st = new_game(client)
    sid = st["id"]
    if st["waiting_for"] == "agent":
        before = snapshot(client, sid)
        r = client.post(f"/api/games/{sid}/play", json={"play": {"kind": 0}})
        assert r.status_code == 409 and "turn" in r.json()["error"]
        assert snapshot(client, sid) == before
    w = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["random"], "rounds": 1}).json()
    r = client.post(f"/api/games/{w['id']}/play", json={"play": {"kind": 0}})
    assert r.status_code == 409 and "watch game" in r.json()["error"]
    while not w["game_over"]:
        w = client.post(f"/api/games/{w['id']}/advance").json()
    before = snapshot(client, w["id"])
    r = client.post(f"/api/games/{w['id']}/advance")
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert snapshot(client, w["id"]) == before


def good_log() -> dict:
    game = Game(GameConfig(n_players=2, n_rounds=1), seed=1)
    agent = make_agent("random", seed=0)
    for _ in range(6):
        game.apply(agent.act(SeatView(game, game.current)))
    return game.log()


def tampered(change) -> bytes:
    log = good_log()
    change(log)
    return json.dumps(log).encode()


def _illegal_play(log):
    next(e for e in log["events"] if e["event"] == "play")["play"] = {"kind": 1, "meld_type": 1, "size": 1,
                                                                       "rank": 4, "suited": [0, 0]}


def _other_deal(log):
    log["events"][0]["hands"][0][0] = 59


@pytest.mark.parametrize("data,status,words", [
    (b"", 400, "empty"),
    (b"\xff\xfe", 400, "not JSON"),
    (b"[1, 2", 400, "not JSON"),
    (b"[]", 400, "not a game log"),
    (b'{"config": {}, "events": []}', 400, "not a game log"),
    (tampered(lambda g: g["initial_rng_state"].update(bit_generator="default_rng")), 400, "bit_generator"),
    (tampered(lambda g: g["config"].update(n_players=9)), 400, "config"),
    (tampered(lambda g: g.update(events="x")), 400, "events"),
    (tampered(lambda g: g.update(agents=["a"])), 400, "agents"),
    (tampered(_illegal_play), 400, "does not replay"),
    (tampered(_other_deal), 400, "does not replay"),
    (tampered(lambda g: g["events"][1].update(play={"kind": "x"})), 400, "does not replay"),
    (b"[" * 5000 + b"]" * 5000, 400, "not JSON"),
    (b" " * 200_001, 413, "limit"),
])
def test_malformed_uploads_are_rejected(client, data, status, words):
    r = client.post("/api/replays", content=data)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_seek_checks_the_step(client):
    st = client.post("/api/replays", content=json.dumps(good_log()).encode()).json()
    sid = st["id"]
    st = client.post(f"/api/games/{sid}/seek", json={"step": 3}).json()
    before = snapshot(client, sid)
    for body in [{"step": 7}, {"step": -1}, {"step": True}, {"step": "2"}, {"to": 2}, {"step": 1, "x": 0}, [2]]:
        r = client.post(f"/api/games/{sid}/seek", json=body)
        assert r.status_code == 400 and "step" in r.json()["error"], body
        assert snapshot(client, sid) == before
    r = client.post(f"/api/games/{sid}/advance")
    assert r.status_code == 409 and "replay" in r.json()["error"]
    assert snapshot(client, sid) == before


def test_live_games_are_limited_and_finished_games_expire():
    clock = Clock()
    app = create_app(Limits(max_sessions=2, finished_ttl_s=60, idle_ttl_s=600), seed=0)
    store = app.state.store
    store.clock = clock
    client = local_client(app)
    a = new_game(client)
    w = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["random"], "rounds": 1}).json()
    r = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["random"]})
    assert r.status_code == 429 and "too many live games" in r.json()["error"]
    while not w["game_over"]:
        w = client.post(f"/api/games/{w['id']}/advance").json()
    clock.t += 61  # the finished game expires; the unfinished one stays
    assert [g["id"] for g in client.get("/api/games").json()] == [a["id"]]
    assert client.get(f"/api/games/{w['id']}").status_code == 404
    b = new_game(client)
    clock.t += 601  # idle games expire too
    assert client.get(f"/api/games/{a['id']}").status_code == 404
    assert client.get(f"/api/games/{b['id']}").status_code == 404
    assert len(store) == 0


def test_closing_a_game_frees_its_place(client):
    st = new_game(client)
    assert client.delete(f"/api/games/{st['id']}").status_code == 200
    assert client.get(f"/api/games/{st['id']}").status_code == 404


def test_page_and_meta_are_served(client):
    assert "Seers Catalog" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200
    meta = client.get("/api/meta").json()
    assert meta["cards"][60]["kind"] == "wild" and meta["cards"][61]["name"] == "Go First"
    assert "heuristic" in meta["specs"]


def test_command_line_specs_may_name_files():
    app = create_app(Limits(allowed_specs=("ppo:runs/model.zip",)))
    assert "ppo:runs/model.zip" in local_client(app).get("/api/meta").json()["specs"]
    from seers_web.sessions import check_spec

    assert check_spec(" ppo:runs/model.zip ", app.state.store.limits) == "ppo:runs/model.zip"


def test_serve_binds_localhost_and_warns_for_other_hosts(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    from seers_cli.commands import app

    seen = {}
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: seen.update(host=self.config.host))
    runner = CliRunner()
    r = runner.invoke(app, ["serve", "--no-open", "--port", "0"])
    assert r.exit_code == 0 and seen["host"] == "127.0.0.1" and "WARNING" not in r.output
    r = runner.invoke(app, ["serve", "--no-open", "--host", "0.0.0.0"])
    assert r.exit_code == 0 and seen["host"] == "0.0.0.0" and "WARNING: listening on 0.0.0.0" in r.output
    r = runner.invoke(app, ["serve", "--no-open", "--agent", "alphazero"])
    assert r.exit_code != 0 and "unknown agent spec" in r.output
    assert is_local("127.0.0.1") and is_local("::1") and is_local("localhost") and not is_local("0.0.0.0")


def test_an_agent_that_cannot_be_built_is_a_clear_400(client, monkeypatch):
    import agents

    def missing_model(spec, seed=None):
        raise FileNotFoundError("no play-scoring model at 'models/learned.pt'; train one with seers train")

    monkeypatch.setattr(agents, "make_agent", missing_model)
    r = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["learned"]})
    assert r.status_code == 400 and "cannot be used on this server" in r.json()["error"]
    assert "learned.pt" in r.json()["error"] and len(client.app.state.store) == 0


def test_uploaded_logs_with_too_many_rounds_are_refused(client):
    game = Game(GameConfig(n_players=2, n_rounds=21), seed=1)
    r = client.post("/api/replays", content=json.dumps(game.log()).encode())
    assert r.status_code == 400 and "n_rounds=21" in r.json()["error"]


def test_a_failing_agent_is_named_and_the_game_is_unchanged(client):
    w = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["random"], "rounds": 1}).json()
    session = client.app.state.store._sessions[w["id"]]
    agent = session.agents[session.game.current]
    agent.act = lambda view: Play(9)  # not a legal play
    before = snapshot(client, w["id"])
    r = client.post(f"/api/games/{w['id']}/advance")
    assert r.status_code == 500 and f"the agent at player {session.game.current} (random) failed" in r.json()["error"]
    assert snapshot(client, w["id"]) == before


@pytest.mark.parametrize("players,artifacts,seed", [(3, True, 1), (2, False, 6), (5, True, 3)])
def test_playable_flags_are_the_cards_of_the_legal_plays(client, players, artifacts, seed):
    st = new_game(client, players=players, seat=0, agents=["random"], seed=seed, artifacts=artifacts)
    rng = np.random.default_rng(seed)
    checked = dimmed = 0
    while not st["game_over"]:
        if st["legal"] is None:  # an agent's turn: no flags
            assert st["playable"] is None
            st = client.post(f"/api/games/{st['id']}/advance", json={"move": st["move"]}).json()
            continue
        hand = st["hands"]["0"]
        used = {c for p in st["legal"] for c in p["cards"]}
        assert st["playable"] == [c in used for c in hand]
        session = client.app.state.store._sessions[st["id"]]  # the engine agrees
        engine_used = {c for p in session.game.legal_plays() for c in p.cards()}
        assert st["playable"] == [c in engine_used for c in hand]
        checked += 1
        dimmed += not all(st["playable"])
        p = st["legal"][int(rng.integers(len(st["legal"])))]
        st = client.post(f"/api/games/{st['id']}/play", json={"play": p["play"], "move": st["move"]}).json()
    assert checked >= 3 and dimmed >= 1  # several states, some with cards in no legal play
    assert st["playable"] is None
    w = client.post("/api/games", json={"mode": "watch", "players": 2, "agents": ["random"], "rounds": 1}).json()
    assert w["playable"] is None and w["legal"] is None  # nobody plays from a watch page


def test_favicon_is_served_and_named_by_the_page(client):
    for path in ("/favicon.ico", "/favicon.svg"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.lstrip().startswith("<svg")
    assert '<link rel="icon" href="/favicon.svg"' in client.get("/").text
    r = client.get("/favicon.ico", headers={"Host": "evil.example:8000"})  # the guard still answers first
    assert r.status_code == 403


def _accepted(spec_list: str) -> list[str]:
    """The specs named in an error's list, with example values for the budget placeholders."""
    names = [s.strip() for s in re.split(r", | or ", re.sub(r" \([^)]*\)", "", spec_list))]
    return [n.replace("<1..500>", "500").replace("<seconds>s", "0.5s") for n in names if n]


def test_agent_errors_list_only_specs_the_page_accepts(client):
    from seers_web.sessions import WebError, check_spec

    limits = client.app.state.store.limits
    bodies = [{"mode": "watch", "players": 3, "agents": ["alphazero"]}]
    try:
        make_agent("learned", seed=0)
    except (ValueError, OSError, ImportError, RuntimeError):
        pass  # no shipped model here: only the unknown spec
    else:
        from train.scoring_policy import shipped_player_counts

        counts = shipped_player_counts()
        missing = [n for n in (2, 3, 4, 5) if n not in counts]
        bodies += [{"mode": "watch", "players": missing[0], "agents": ["learned"]},
                   {"mode": "watch", "players": 3, "agents": ["learned"], "artifacts": False}] if missing else []
    for body in bodies:
        r = client.post("/api/games", json=body)
        error = r.json()["error"]
        assert r.status_code == 400 and len(client.app.state.store) == 0, error
        assert "<path" not in error and "learned:" not in error and "ppo:" not in error and "rllib" not in error
        assert "allow_off_config" not in error and ".pt" not in error  # no advice meant for Python, no server file
        listed = _accepted(error.split("may use ")[1])
        assert {"random", "greedy", "heuristic", "ismcts", "ismcts:500", "ismcts:0.5s"} <= set(listed)
        for spec in listed:  # every spec the message offers is one the page may send
            try:
                check_spec(spec, limits)
            except WebError as err:
                raise AssertionError(f"{error!r} offers {spec!r}, which the page refuses: {err.message}")
    if len(bodies) > 1:
        r = client.post("/api/games", json=bodies[1])
        shipped = " or ".join(", ".join(map(str, counts)).rsplit(", ", 1))
        assert f"the shipped learned models play at tables of {shipped} players" in r.json()["error"]


def test_history_reads_as_text(client):
    from seers_web.sessions import event_text

    names = ["you", "heuristic", "random"]
    assert event_text({"event": "trick", "won_by": 1, "cards": [5]}, names) == \
        "player 1 (heuristic) wins the trick (1 card)"
    assert event_text({"event": "trick", "taken_by": 0, "cards": [5, 9]}, names) == \
        "player 0 (you) takes the trick's 2 cards into their hand"
    assert event_text({"event": "round_end", "round": 0, "scores": [-6, -1, 0]}, names) == \
        "Round 1 ends; scores: \u22126, \u22121, 0"
    assert event_text({"event": "game_end", "totals": [-6, -1, 0], "winners": [2]}, names) == \
        "Game over; totals: \u22126, \u22121, 0; winner: player 2 (random)"
    assert event_text({"event": "game_end", "totals": [3, 3, 0], "winners": [0, 1]}, names).endswith(
        "winners: player 0 (you) and player 1 (heuristic)")
    w = client.post("/api/games", json={"mode": "watch", "players": 3, "agents": ["heuristic"], "seed": 2,
                                        "rounds": 2}).json()
    while not w["game_over"]:
        w = client.post(f"/api/games/{w['id']}/advance").json()
    text = "\n".join(w["history"])
    assert not re.search(r"[\[\]]|'player", text) and "player_" not in text, text
    assert re.search(r"^Round 2 ends; scores: (\u2212?\d+, ){2}\u2212?\d+$", text, re.M)
    assert re.search(r"^Game over; totals: .*; winners?: player \d \(heuristic\)", text, re.M)


def test_agent_errors_leave_out_learned_where_it_cannot_be_built(client, monkeypatch):
    import agents

    real = agents.make_agent

    def no_learned(spec, seed=None):
        if spec.startswith("learned"):
            raise ImportError("No module named 'torch'")
        return real(spec, seed=seed)

    monkeypatch.setattr(agents, "make_agent", no_learned)
    error = client.post("/api/games", json={"mode": "watch", "players": 3, "agents": ["alphazero"]}).json()["error"]
    assert "may use random, greedy, heuristic, ismcts, ismcts:<1..500>" in error and "learned" not in error


def test_agent_build_errors_name_the_page_specs_not_every_spec_form(client, monkeypatch):
    import agents

    def broken(spec, seed=None):  # make_agent's own message lists file specs the page may not send
        raise ValueError(f"bad ismcts budget in agent spec {spec!r} (too small); valid specs: random, "
                         "ppo:<path to model.zip>, learned:<path to model.pt>")

    monkeypatch.setattr(agents, "make_agent", broken)
    r = client.post("/api/games", json={"mode": "watch", "players": 3, "agents": ["ismcts:3"]})
    error = r.json()["error"]
    assert r.status_code == 400 and "bad ismcts budget in agent spec 'ismcts:3' (too small)" in error
    assert "ppo:" not in error and "learned:" not in error and "may use random, greedy, heuristic" in error


def _shipped_learned_or_skip():
    try:
        make_agent("learned", seed=0)
    except (ValueError, OSError, ImportError, RuntimeError) as err:
        pytest.skip(f"no shipped learned model here ({type(err).__name__})")


def test_the_page_may_ask_for_the_guided_search_within_the_search_caps(client):
    from seers_web.sessions import WebError, check_spec, page_specs_text

    limits = Limits(max_ismcts_iterations=40, max_ismcts_seconds=0.25)
    for spec, problem in [("learned+search:41", "use 1..40 iterations"), ("learned+search:0s", "more than 0"),
                          ("learned+search:0.3s", "at most 0.25s"), ("learned+search", "needs a budget"),
                          ("learned+search:10:model.pt", "reads no file path"),
                          ("learned+search:ten", "malformed search budget 'ten'")]:
        with pytest.raises(WebError, match=re.escape(problem)):
            check_spec(spec, limits)
    _shipped_learned_or_skip()
    assert check_spec(" learned+search:40 ", limits) == "learned+search:40"
    assert check_spec("learned+search:0.25s", limits) == "learned+search:0.25s"
    assert "learned+search:<1..40> (iterations per move)" in page_specs_text(limits)
    r = client.post("/api/games", json={"mode": "watch", "players": 3, "agents": ["learned+search:8"],
                                        "seed": 5, "rounds": 1})
    assert r.status_code == 201, r.text
    st = r.json()
    session = client.app.state.store._sessions[st["id"]]
    assert {type(a).__name__ for a in session.agents.values()} == {"GuidedSearchAgent"}
    assert {a.iterations for a in session.agents.values()} == {8}
    for _ in range(3):
        before = st["move"]
        st = client.post(f"/api/games/{st['id']}/advance", json={"move": st["move"]}).json()
        assert "error" not in st and st["move"] > before


def test_a_guided_search_without_its_models_table_names_the_shipped_model(client):
    _shipped_learned_or_skip()
    r = client.post("/api/games", json={"mode": "watch", "players": 3, "agents": ["learned+search:8"],
                                        "artifacts": False})
    error = r.json()["error"]
    assert r.status_code == 400 and len(client.app.state.store) == 0
    assert "the shipped learned model for 3 players was trained with artifacts; turn artifacts on" in error


def test_a_misspelt_search_is_unknown_and_examples_follow_the_caps():
    from seers_web.sessions import WebError, check_spec

    limits = Limits(max_ismcts_iterations=40, max_ismcts_seconds=0.25)
    for spec in ("Learned+Search:5", "LEARNED+SEARCH:5", "learned +search:5", "foo:bar"):
        with pytest.raises(WebError, match="unknown agent spec") as err:
            check_spec(spec, limits)
        assert "seers serve --agent" not in err.value.message  # no advice that fails too
    for spec in ("learned+search", "ismcts:1.5"):
        with pytest.raises(WebError) as err:
            check_spec(spec, limits)
        assert ":40 (iterations)" in err.value.message and ":0.25s (seconds)" in err.value.message
        assert ":200" not in err.value.message and "0.5s" not in err.value.message


def test_without_the_shipped_models_the_page_offers_no_guided_search(monkeypatch):
    import agents
    from seers_web.sessions import WebError, check_spec, page_specs_text

    real = agents.make_agent

    def no_torch(spec, seed=None, game="seers_catalog"):
        if spec.startswith("learned"):
            raise ImportError("No module named 'torch'")
        return real(spec, seed=seed, game=game)

    monkeypatch.setattr(agents, "make_agent", no_torch)
    limits = Limits()
    assert "learned" not in page_specs_text(limits)
    for spec in ("learned+search", "learned+search:5"):
        with pytest.raises(WebError, match="unknown agent spec") as err:
            check_spec(spec, limits)
        assert "learned" not in err.value.message.split("may use ")[1]
    with pytest.raises(WebError, match="cannot be used on this server") as err:
        check_spec("learned", limits)  # a page spec this install cannot build: says what it may use
    assert "the page may use random, greedy, heuristic, ismcts" in err.value.message
