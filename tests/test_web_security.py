"""``seers serve`` answers its own page only, bounds every request's work, stops work that nobody waits for,
stops promptly on SIGTERM, and answers every bad value with a 4xx ``{"error": ...}`` naming the field."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from seers_env.game import Game, GameConfig  # noqa: E402
from seers_env.jsonio import loads_strict  # noqa: E402
from seers_env.view import SeatView  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_web.sessions import Limits, SessionStore, Stopped, WebError  # noqa: E402
from seers_web.uploads import tournament_log  # noqa: E402

LOCAL = "http://127.0.0.1:8000"
JSON = {"Content-Type": "application/json"}
EVIL = "https://evil.example"
WATCH = {"mode": "watch", "players": 2, "agents": ["random"], "rounds": 1, "seed": 3}


def local_client(app) -> TestClient:
    """A client as the page is one: the server's own address, JSON bodies."""
    return TestClient(app, base_url=LOCAL, headers=JSON)


@pytest.fixture
def client():
    return local_client(create_app(seed=0))


def new_watch(client, **kw) -> dict:
    r = client.post("/api/games", json={**WATCH, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def played_log(players: int = 2, rounds: int = 1, seed: int = 1) -> dict:
    """The log of a whole game between random agents (``Game.log()``)."""
    game = Game(GameConfig(n_players=players, n_rounds=rounds), seed=seed)
    agents = [make_agent("random", seed=s) for s in range(players)]
    while not game.game_over:
        game.apply(agents[game.current].act(SeatView(game, game.current)))
    return game.log()


def tournament(**kw) -> dict:
    return run_tournament(["random", "greedy"], games=1, seed=5, workers=1, n_rounds=1, progress=False,
                          **kw).to_dict()


def error(r, status: int, *words: str) -> str:
    """The ``{"error": ...}`` message of ``r``, checked to have ``status`` and to contain ``words``."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    message = r.json()["error"]
    for w in words:
        assert w in message, (w, message)
    return message


# --- who may talk to the server ---------------------------------------------------------------------------

def test_the_issue_example_a_foreign_page_cannot_start_a_game(client):
    body = '{"mode":"watch","agents":["ismcts:2000"],"players":5,"rounds":20}'
    r = client.post("/api/games", content=body, headers={"Origin": EVIL, "Content-Type": "text/plain"})
    error(r, 403, "evil.example")
    assert len(client.app.state.store) == 0


def test_foreign_origins_are_refused_for_every_method(client):
    st = new_watch(client)
    sid = st["id"]
    store = client.app.state.store
    for origin in (EVIL, "http://localhost:3000", "http://127.0.0.1:8001", "null", "https://127.0.0.1:8000",
                   "http://127.0.0.1.evil.example:8000", "file://"):
        h = {"Origin": origin}
        error(client.post("/api/games", json=WATCH, headers=h), 403, "Origin")
        error(client.post(f"/api/games/{sid}/advance", json={}, headers=h), 403, "Origin")
        error(client.delete(f"/api/games/{sid}", headers=h), 403, "Origin")
        for path in ("/api/games", f"/api/games/{sid}", f"/api/games/{sid}/log", "/api/meta"):
            error(client.get(path, headers=h), 403, "Origin")
        error(client.options("/api/games", headers={**h, "Access-Control-Request-Method": "POST"}), 403)
    assert len(store) == 1 and client.get(f"/api/games/{sid}").json()["move"] == 0  # nothing got through
    # the page's own origin, under any loopback name at the served port, is answered
    for origin in (LOCAL, "http://localhost:8000", "http://[::1]:8000"):
        assert client.post(f"/api/games/{sid}/advance", json={}, headers={"Origin": origin}).status_code == 200
    assert client.delete(f"/api/games/{sid}", headers={"Origin": LOCAL}).status_code == 200


def test_other_sites_without_origin_are_refused_for_the_api(client):
    error(client.get("/api/games", headers={"Sec-Fetch-Site": "cross-site"}), 403, "another site")
    error(client.get("/api/meta", headers={"Sec-Fetch-Site": "same-site"}), 403, "another site")
    assert client.get("/api/games", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200
    assert client.get("/", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200  # a link to the page


def test_other_host_names_are_refused_dns_rebinding(client):
    for host in ("evil.example:8000", "evil.example", "localhost:8001", "127.0.0.1:9", "192.168.1.5:8000",
                 "localhost.evil.example:8000", "", "a b", "user@localhost:8000"):
        error(client.get("/api/games", headers={"Host": host}), 403, "Host")
        error(client.post("/api/games", json=WATCH, headers={"Host": host}), 403, "Host")
        error(client.get("/", headers={"Host": host}), 403, "DNS rebinding")
    assert len(client.app.state.store) == 0
    for host in ("127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200
    # the served address itself (an IP literal: no other site can stand for it), at its port
    lan = TestClient(create_app(), base_url="http://192.168.1.5:8000")
    assert lan.get("/api/games").status_code == 200
    error(lan.get("/api/games", headers={"Host": "192.168.1.5:8001"}), 403, "Host")
    # a test client's default name is a host name, refused like any other
    error(TestClient(create_app()).get("/api/games"), 403, "'testserver'")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp", "json"])
def test_bodies_that_are_not_json_are_refused(client, content_type):
    body = json.dumps(WATCH)
    error(client.post("/api/games", content=body, headers={"Content-Type": content_type}), 415, "application/json")
    error(client.post("/api/replays", content=json.dumps(played_log()), headers={"Content-Type": content_type}),
          415, "Content-Type")
    assert len(client.app.state.store) == 0


def test_a_body_without_content_type_is_refused_and_json_with_a_charset_is_read():
    client = TestClient(create_app(), base_url=LOCAL)
    error(client.post("/api/games", content=json.dumps(WATCH).encode()), 415, "application/json")
    r = client.post("/api/games", content=json.dumps(WATCH),
                    headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201
    # an empty POST needs no type (the page's advance may have no body)
    assert client.post(f"/api/games/{r.json()['id']}/advance").status_code == 200


def test_allow_origin_lets_a_named_origin_in_with_cors_answers():
    app = create_app(allowed_origins=["HTTP://My-Box.lan:8000", "https://seers.example"])
    client = local_client(app)
    friend = {"Origin": "http://my-box.lan:8000"}
    r = client.post("/api/games", json=WATCH, headers=friend)
    assert r.status_code == 201 and r.headers["access-control-allow-origin"] == "http://my-box.lan:8000"
    pre = client.options("/api/games", headers={**friend, "Access-Control-Request-Method": "POST",
                                                "Access-Control-Request-Headers": "content-type"})
    assert pre.status_code == 200 and "POST" in pre.headers["access-control-allow-methods"]
    assert client.get("/api/games", headers={"Origin": "https://seers.example"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "my-box.lan:8000", **friend}).status_code == 200
    error(client.get("/api/games", headers={"Origin": "http://my-box.lan:8001"}), 403, "Origin")
    error(client.get("/api/games", headers={"Origin": EVIL}), 403, "Origin")
    error(client.get("/api/games", headers={"Host": "my-box.lan:8001"}), 403, "Host")
    for bad in ("*", "null", "my-box.lan:8000", "http://my-box.lan:8000/page", "ftp://x", "http://x:99999"):
        with pytest.raises(ValueError, match="not a web origin"):
            create_app(allowed_origins=[bad])


def test_serve_passes_allow_origin_and_a_short_graceful_shutdown(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    from seers_cli.commands import app

    seen = {}
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: seen.update(
        app=self.config.app, grace=self.config.timeout_graceful_shutdown))
    runner = CliRunner()
    r = runner.invoke(app, ["serve", "--no-open", "--port", "0", "--allow-origin", "http://my-box.lan:8000"])
    assert r.exit_code == 0, r.output
    assert seen["grace"] is not None and seen["grace"] <= 1
    client = local_client(seen["app"])
    assert client.get("/api/games", headers={"Origin": "http://my-box.lan:8000"}).status_code == 200
    error(client.get("/api/games", headers={"Origin": EVIL}), 403)
    r = runner.invoke(app, ["serve", "--no-open", "--allow-origin", "my-box.lan"])
    assert r.exit_code != 0 and "not a web origin" in r.output
    help_text = " ".join(runner.invoke(app, ["serve", "--help"]).output.split())
    assert "--allow-origin" in help_text and "DNS rebinding" in help_text and "500 iterations" in help_text


# --- bounded work -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,words", [
    ("ismcts:2000", "1..500 iterations"),
    ("ismcts:501", "1..500 iterations"),
    ("ismcts:0", "1..500 iterations"),
    ("ismcts:99999999999999999999", "1..500 iterations"),
    ("ismcts:" + "9" * 40, "malformed search budget"),
    ("ismcts:99999999999999999999s", "at most 1s per move"),
    ("ismcts:1.5", "malformed search budget"),
    ("ismcts:1e9", "malformed search budget"),
    ("ismcts:-3", "malformed search budget"),
    ("ismcts:2s", "at most 1s per move"),
    ("ismcts:0s", "more than 0"),
    ("ismcts:0.000s", "more than 0"),
    ("ismcts:nans", "malformed search budget"),
    ("ismcts:infs", "malformed search budget"),
    ("learned+search:501", "1..500 iterations"),
    ("learned+search:" + "9" * 40, "malformed search budget"),
    ("learned+search:1e9", "malformed search budget"),
    ("learned+search:2s", "at most 1s per move"),
    ("learned+search:nans", "malformed search budget"),
    ("learned+search:10:/etc/passwd", "reads no file path"),
    ("learned+search:10:worlds=1024", "takes no option after a budget"),
    ("learned+search:../model.pt", "malformed search budget"),
    ("learned+search", "needs a budget per move"),
    ("learned:5", "reads no file path"),
    ("heuristic:3", "reads no file path"),
    ("x" * 300, "at most 200 characters"),
])
def test_over_budget_and_malformed_agents_are_refused_naming_the_field(client, spec, words):
    error(client.post("/api/games", json={**WATCH, "agents": [spec]}), 400, "agents[0]", words)
    three = {**WATCH, "players": 3, "agents": ["random", spec, "random"]}
    error(client.post("/api/games", json=three), 400, "agents[1]", words)
    assert len(client.app.state.store) == 0


def test_the_budget_caps_follow_the_limits():
    client = local_client(create_app(Limits(max_ismcts_iterations=100, max_ismcts_seconds=0.2)))
    error(client.post("/api/games", json={**WATCH, "agents": ["ismcts"]}), 400, "runs 200 iterations")
    error(client.post("/api/games", json={**WATCH, "agents": ["ismcts:0.3s"]}), 400, "at most 0.2s")
    assert client.post("/api/games", json={**WATCH, "agents": ["ismcts:100"]}).status_code == 201
    assert client.post("/api/games", json={**WATCH, "agents": ["ismcts:0.2s"]}).status_code == 201
    assert client.get("/api/meta").json()["limits"]["max_ismcts_iterations"] == 100


def test_session_store_refuses_a_fractional_iteration_count_with_a_web_error():
    with pytest.raises(WebError, match=r"agents\[0\].*malformed search budget") as err:
        SessionStore().create({"mode": "watch", "agents": ["ismcts:1.5"]})
    assert err.value.status == 400


def test_a_game_log_naming_huge_agents_replays_its_plays_without_building_an_agent(client, monkeypatch):
    import agents
    import agents.specs
    import agents.tournament

    log = played_log(players=5, rounds=20, seed=2)
    log["agents"] = ["ismcts:2000"] * 5

    def refuse(*args, **kwargs):
        raise AssertionError("a replay must not build an agent")

    for module in (agents, agents.specs, agents.tournament):
        monkeypatch.setattr(module, "make_agent", refuse)
    r = client.post("/api/replays", content=json.dumps(log))
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["names"] == ["ismcts:2000"] * 5
    end = client.post(f"/api/games/{st['id']}/seek", json={"step": st["steps"]}).json()
    assert end["game_over"] and end["totals"] == Game.replay(log).totals


def test_a_tournament_of_search_agents_is_refused_before_any_agent_is_built(client, monkeypatch):
    import agents
    import agents.specs
    import agents.tournament

    result = tournament()
    result["specs"] = ["ismcts:2000"] * 5  # the issue's 13 kB upload: 5 seats, 20 rounds
    result["n_rounds"] = 20

    def refuse(*args, **kwargs):
        raise AssertionError("no agent may be built for this upload")

    for module in (agents, agents.specs, agents.tournament):
        monkeypatch.setattr(module, "make_agent", refuse)
    error(client.post("/api/replays", content=json.dumps(result)), 400, "specs[0]='ismcts:2000'", "records no plays")
    assert len(client.app.state.store) == 0


def test_replaying_a_tournament_game_checks_should_stop_between_decisions(monkeypatch):
    import agents.tournament

    decisions = []
    real = agents.tournament.make_agent

    def counted(spec, seed=None):
        agent = real(spec, seed=seed)
        act = agent.act
        agent.act = lambda view: decisions.append(1) or act(view)
        return agent

    result = tournament()
    monkeypatch.setattr(agents.tournament, "make_agent", counted)
    checks = iter(range(10_000))
    with pytest.raises(Stopped):
        tournament_log(result, 0, Limits(), should_stop=lambda: next(checks) >= 7)
    assert len(decisions) == 7  # one decision per check, none after it said stop


def test_the_thinking_time_of_a_game_has_a_ceiling():
    client = local_client(create_app(Limits(max_search_s_per_game=1e-9)))
    sid = new_watch(client)["id"]
    assert client.post(f"/api/games/{sid}/advance").status_code == 200
    error(client.post(f"/api/games/{sid}/advance"), 429, "thinking time", "limit per game")


class SlowAgent:
    """Holds an agent's ``act`` until released: ``started`` is set when it is called."""

    def __init__(self, agent):
        self.agent, self.act = agent, agent.act
        self.started, self.release = threading.Event(), threading.Event()
        self.calls = 0
        agent.act = self

    def __call__(self, view):
        self.calls += 1
        self.started.set()
        assert self.release.wait(20), "the test never released the agent"
        return self.act(view)


def slow_current_agent(store, sid: str) -> SlowAgent:
    session = store._sessions[sid]
    return SlowAgent(session.agents[session.game.current])


def in_thread(fn) -> tuple[threading.Thread, dict]:
    out: dict = {}
    thread = threading.Thread(target=lambda: out.update(r=fn()), daemon=True)
    thread.start()
    return thread, out


def no_worker_left(timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(t.name == "seers-web-worker" for t in threading.enumerate()):
            return True
        time.sleep(0.02)
    return False


def test_deleting_a_game_stops_its_worker_and_no_play_is_made(client):
    store = client.app.state.store
    sid = new_watch(client)["id"]
    session = store._sessions[sid]
    slow = slow_current_agent(store, sid)
    before = list(session.game.events)
    thread, out = in_thread(lambda: client.post(f"/api/games/{sid}/advance", json={"move": 0}))
    assert slow.started.wait(20)
    error(client.post(f"/api/games/{sid}/advance", json={}), 409, "still choosing")  # one worker per game
    assert client.get(f"/api/games/{sid}").json()["move"] == 0  # the game stays readable meanwhile
    assert client.delete(f"/api/games/{sid}").status_code == 200
    slow.release.set()
    thread.join(20)
    error(out["r"], 410, "was closed", "no play was made")
    assert session.game.events == before and slow.calls == 1 and not session.busy
    assert no_worker_left()
    error(client.post(f"/api/games/{sid}/advance", json={}), 404, "no game")


def test_workers_at_once_are_limited():
    client = local_client(create_app(Limits(max_workers=1)))
    store = client.app.state.store
    a, b = new_watch(client)["id"], new_watch(client)["id"]
    slow = slow_current_agent(store, a)
    thread, out = in_thread(lambda: client.post(f"/api/games/{a}/advance"))
    assert slow.started.wait(20)
    error(client.post(f"/api/games/{b}/advance"), 503, "busy")
    error(client.post("/api/replays", content=json.dumps(played_log())), 503, "busy")
    slow.release.set()
    thread.join(20)
    assert out["r"].status_code == 200
    assert client.post(f"/api/games/{b}/advance").status_code == 200  # the slot is free again


@pytest.fixture
def live_server():
    """``(base URL, app)`` of the app served by uvicorn on a free 127.0.0.1 port in a thread."""
    uvicorn = pytest.importorskip("uvicorn")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    app = create_app(seed=0)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", log_config=None))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the web server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", app
    srv.should_exit = True
    thread.join(10)
    sock.close()


def post_json(url: str, body: dict, timeout: float = 30) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=JSON, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def test_a_client_that_goes_away_stops_its_worker(live_server):
    base, app = live_server
    store = app.state.store
    sid = post_json(f"{base}/api/games", WATCH)["id"]
    session = store._sessions[sid]
    before = list(session.game.events)
    slow = slow_current_agent(store, sid)
    seen = {}
    advance = store.advance

    def spy(session, body, should_stop):
        seen["should_stop"] = should_stop
        return advance(session, body, should_stop)

    store.advance = spy
    port = int(base.rsplit(":", 1)[1])
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(f"POST /api/games/{sid}/advance HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".encode())
    assert slow.started.wait(20)
    assert not seen["should_stop"]()
    conn.close()  # the page is closed while the agent chooses
    deadline = time.monotonic() + 20
    while not seen["should_stop"]():
        assert time.monotonic() < deadline, "the worker was not told that its client went away"
        time.sleep(0.02)
    slow.release.set()
    assert no_worker_left()
    assert session.game.events == before and not session.busy  # the play was dropped


# --- bad values ------------------------------------------------------------------------------------------------

def tampered_log(change) -> bytes:
    log = played_log()
    change(log)
    return json.dumps(log).encode()


def tampered_tournament(change) -> bytes:
    result = tournament()
    change(result)
    return json.dumps(result).encode()


def _set_rng_word(value):
    def change(log):
        log["initial_rng_state"]["state"]["state"] = value
    return change


@pytest.mark.parametrize("data,words", [
    (tampered_log(lambda g: g["config"].update(n_rounds=float("inf"))), ["n_rounds=inf"]),
    (tampered_log(lambda g: g["config"].update(n_rounds=float("nan"))), ["n_rounds=nan"]),
    (tampered_log(lambda g: g["config"].update(n_rounds=1.5)), ["n_rounds=1.5"]),
    (tampered_log(lambda g: g["config"].update(n_rounds=True)), ["n_rounds=True"]),
    (tampered_log(lambda g: g["config"].update(n_players="2")), ["n_players='2'"]),
    (tampered_log(lambda g: g["config"].update(artifact_deck="go_first")), ["artifact_deck"]),
    (tampered_log(lambda g: g["config"].update(artifact_deck=["go_first", "go_first"])), ["artifact_deck"]),
    (tampered_log(lambda g: g["config"].update(colour=1)), ["config"]),
    (tampered_log(lambda g: g.update(config=[2, 1])), ["config"]),
    (tampered_log(_set_rng_word(-1)), ["initial_rng_state"]),
    (tampered_log(_set_rng_word(2**200)), ["initial_rng_state"]),
    (tampered_log(_set_rng_word(1.5)), ["initial_rng_state"]),
    (tampered_log(_set_rng_word(float("inf"))), ["initial_rng_state"]),
    (tampered_log(lambda g: g["initial_rng_state"].update(state="x")), ["initial_rng_state"]),
    (tampered_log(lambda g: g["initial_rng_state"].update(has_uint32=2**40)), ["initial_rng_state"]),
    (tampered_log(lambda g: g["initial_rng_state"].pop("state")), ["initial_rng_state"]),
    (tampered_log(lambda g: g["events"].append(dict(g["events"][1]))), ["after the end of the game"]),
    (tampered_log(lambda g: g["events"][1].update(play={"kind": 1, "suited": [10**6]})), ["events[1].play"]),
    (tampered_log(lambda g: g["events"][1].update(play={"kind": float("nan")})), ["events[1].play"]),
    (tampered_log(lambda g: g["events"][1].update(play=None)), ["events[1].play"]),
    (tampered_log(lambda g: g["events"].insert(0, {"event": 5})), ["events"]),
    (tampered_log(lambda g: g.update(agents=["a", 7])), ["agents"]),
    (tampered_tournament(lambda t: t.update(seed=-1)), ["seed=-1"]),
    (tampered_tournament(lambda t: t.update(seed=2**70)), ["seed="]),
    (tampered_tournament(lambda t: t.update(seed=1.5)), ["seed=1.5"]),
    (tampered_tournament(lambda t: t["games"][0].update(deal=-1)), ["games[0].deal=-1"]),
    (tampered_tournament(lambda t: t["games"][0].update(deal=float("inf"))), ["games[0].deal=inf"]),
    (tampered_tournament(lambda t: t["games"][0].update(deal_seed=-1)), ["games[0].deal_seed=-1"]),
    (tampered_tournament(lambda t: t["games"][0].update(deal_seed=2**64)), ["games[0].deal_seed"]),
    (tampered_tournament(lambda t: t["games"][0].update(rotation=5)), ["games[0].rotation=5"]),
    (tampered_tournament(lambda t: t["games"][1].update(totals=[float("nan"), 0])), ["games[1].totals"]),
    (tampered_tournament(lambda t: t["games"][1].update(round_scores=[[1]])), ["games[1].round_scores"]),
    (tampered_tournament(lambda t: t["games"][1].pop("seats")), ["games[1]", "seats"]),
    (tampered_tournament(lambda t: t["games"].__setitem__(1, 3)), ["games[1]"]),
    (tampered_tournament(lambda t: t.update(n_rounds=float("inf"))), ["n_rounds=inf"]),
    (tampered_tournament(lambda t: t.update(n_rounds=21)), ["n_rounds=21"]),
    (tampered_tournament(lambda t: t.update(specs="random")), ["specs"]),
    (tampered_tournament(lambda t: t.update(specs=["random", ["greedy"]])), ["specs[1]"]),
    (tampered_tournament(lambda t: t.update(games=[])), ["games"]),
    (b"[" + b"1" * 5000 + b"]", ["not JSON"]),  # an integer over Python's digit limit
])
def test_every_bad_upload_field_is_a_400_naming_it(client, data, words):
    error(client.post("/api/replays", content=data), 400, *words)
    assert len(client.app.state.store) == 0


@pytest.mark.parametrize("query,words", [("game=-1", "game=-1"), ("game=9", "game=9"), ("game=x", "game"),
                                         ("game=1.5", "game")])
def test_a_bad_game_index_is_a_400_naming_it(client, query, words):
    error(client.post(f"/api/replays?{query}", content=json.dumps(tournament())), 400, words)


@pytest.mark.parametrize("body,words", [
    ('{"mode": "watch", "seed": NaN}', "strict JSON"),
    ('{"mode": "watch", "seed": Infinity}', "strict JSON"),
    ('{"mode": "watch", "seed": ' + "9" * 5000 + "}", "strict JSON"),
    ('{"mode": "watch", "seed": 1e400}', "strict JSON"),  # read as infinite by Python: refused as JSON
    ('{"mode": "watch", "seed": 9223372036854775808}', "seed"),
    ('{"mode": "watch", "rounds": 21}', "rounds=21"),
    ('{"mode": "watch", "players": 6}', "players=6"),
    ('{"mode": ["watch"]}', "mode"),
    ('{"mode": "watch", "agents": {"a": 1}}', "agents"),
    ('{"mode": "watch", "agents": [null]}', "agents[0]"),
])
def test_bad_new_game_values_are_a_400_naming_the_field(client, body, words):
    error(client.post("/api/games", content=body), 400, words)


def test_bad_moves_steps_and_reveals_are_400s(client):
    sid = new_watch(client)["id"]
    error(client.post(f"/api/games/{sid}/advance", content='{"move": NaN}'), 400, "strict JSON")
    error(client.post(f"/api/games/{sid}/advance", json={"move": 10**30}), 409, "stale")
    error(client.post(f"/api/games/{sid}/advance", json={"move": 1.0}), 400, "move=1.0")
    error(client.get(f"/api/games/{sid}?reveal=2"), 400, "reveal")
    rid = client.post("/api/replays", content=json.dumps(played_log())).json()["id"]
    for step in (10**30, -1, 1.5, None):
        error(client.post(f"/api/games/{rid}/seek", json={"step": step}), 400, "step")


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(["kind", "meld_type", "size", "rank", "suited", "wilds", "artifact",
                                        "target", "run_suit", "effect_used", "modified_card", "modifier",
                                        "wild_values"]),
                       st.one_of(st.integers(-2000, 2000), st.lists(st.integers(-2000, 2000), max_size=4),
                                 st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3),
                                 st.none(), st.booleans())))
def test_any_play_fields_get_a_4xx(fields):
    client = local_client(create_app(seed=0))
    st_ = client.post("/api/games", json={"mode": "play", "players": 2, "seat": 0, "agents": ["random"],
                                          "rounds": 1, "seed": 1}).json()
    while st_["waiting_for"] == "agent":
        st_ = client.post(f"/api/games/{st_['id']}/advance").json()
    r = client.post(f"/api/games/{st_['id']}/play", json={"play": fields})
    assert 400 <= r.status_code < 500 and "error" in r.json(), r.text


@pytest.mark.parametrize("method,path,status", [
    ("GET", "/api/nope", 404), ("GET", "/nope", 404), ("POST", "/api/games/x/frobnicate", 404),
    ("GET", "/static/nope.js", 404), ("PUT", "/api/games", 405), ("GET", "/api/replays", 405),
])
def test_unknown_routes_answer_a_json_error(client, method, path, status):
    r = client.request(method, path)
    error(r, status, path)
    assert "detail" not in r.json()


def test_a_downloaded_replay_is_strict_json_even_when_the_upload_was_not(client):
    log = played_log()
    log["note"] = float("nan")
    log["events"][0]["junk"] = float("inf")
    log["events"][1]["junk"] = [float("-inf")]
    data = json.dumps(log)
    assert "NaN" in data and "Infinity" in data
    r = client.post("/api/replays", content=data)
    assert r.status_code == 201, r.text
    text = client.get(f"/api/games/{r.json()['id']}/log").text
    clean = loads_strict(text)  # raises on NaN / Infinity
    assert clean["events"] == Game.replay(played_log()).events
    # an older tournament file wrote undefined intervals as infinities: read, and the answers stay strict
    result = tournament()
    next(iter(result["agents"].values()))["score_ci"] = [float("-inf"), float("inf")]
    r = client.post("/api/replays", content=json.dumps(result))
    assert r.status_code == 201, r.text
    loads_strict(r.text)
    loads_strict(client.get(f"/api/games/{r.json()['id']}/log").text)


# --- SIGTERM ---------------------------------------------------------------------------------------------------

def test_sigterm_stops_the_server_within_2_s_during_a_long_decision():
    pytest.importorskip("uvicorn")
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(root))
    proc = subprocess.Popen([sys.executable, "-c", "from seers_cli.commands import main; main()", "serve",
                             "--no-open", "--port", "0"], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    try:
        deadline, url, seen = time.monotonic() + 120, None, []
        while url is None:
            assert time.monotonic() < deadline and proc.poll() is None, f"the server did not start: {seen}"
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(line)
            if "Seers Catalog page: " in line:
                url = line.split("Seers Catalog page: ")[1].split()[0].rstrip("/")
        lim = Limits()
        game = post_json(f"{url}/api/games", {"mode": "watch", "players": 5, "rounds": lim.max_rounds,
                                              "agents": [f"ismcts:{lim.max_ismcts_iterations}"]})

        def keep_advancing():  # one decision after another, as the page's watch view does
            try:
                while True:
                    post_json(f"{url}/api/games/{game['id']}/advance", {})
            except (urllib.error.URLError, OSError, ValueError):
                pass

        threading.Thread(target=keep_advancing, daemon=True).start()
        time.sleep(1.0)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail("the server ignored SIGTERM for 15 s")
        elapsed = time.monotonic() - start
        assert elapsed < 3.0, f"the server took {elapsed:.1f} s to stop after SIGTERM (target: 2 s)"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
