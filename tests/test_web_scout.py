"""SCOUT through the ``seers serve`` JSON API: whole games at 2 and 4 players match the engine, watch mode,
strict replay of uploaded SCOUT logs, the same caps as Seers Catalog, and every bad field a clear 4xx that
changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from agents import make_agent  # noqa: E402
from seers_env.scout.cards import CARD_NUMBERS  # noqa: E402
from seers_env.scout.game import ScoutConfig, ScoutGame  # noqa: E402
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, ScoutPlay  # noqa: E402
from seers_env.scout.view import ScoutSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_web.sessions import Limits  # noqa: E402


def local_client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"})


@pytest.fixture
def client():
    return local_client(create_app(Limits(max_sessions=6, max_upload_bytes=300_000), seed=0))


def new_game(client, **kw) -> dict:
    body = {"game": "scout", "mode": "play", "players": 3, "seat": 1, "agents": ["random"], "seed": 4}
    body.update(kw)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def snapshot(client, sid: str) -> str:
    """What the server holds about a session's game, to show that a rejected request changed nothing."""
    return json.dumps(client.app.state.store._sessions[sid].game.to_dict(), sort_keys=True)


def choose(rng: np.random.Generator, legal: list[list[int]]) -> list[int]:
    """A legal play, every kind of play often enough to be exercised."""
    by_kind: dict[int, list[list[int]]] = {}
    for p in legal:
        by_kind.setdefault(p[0], []).append(p)
    kinds = sorted(by_kind)
    pool = by_kind[kinds[int(rng.integers(len(kinds)))]]
    return pool[int(rng.integers(len(pool)))]


def play_through(client, st: dict, rng: np.random.Generator) -> tuple[dict, list[list[int]]]:
    """Play ``st``'s game to its end through the API; returns the last state and the person's plays."""
    sid, mine = st["id"], []
    while not st["game_over"]:
        if st["waiting_for"] == "agent":
            r = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]})
        else:
            p = choose(rng, st["legal"])
            mine.append(p)
            r = client.post(f"/api/games/{sid}/play", json={"play": p, "move": st["move"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st, mine


@pytest.mark.parametrize("players, seat, spec", [(2, 1, "heuristic"), (4, 0, "random")])
def test_a_whole_game_through_the_api_is_the_engines_game(client, players, seat, spec):
    seed = 17 + players
    st = new_game(client, players=players, seat=seat, agents=[spec], seed=seed)
    assert st["game"] == "scout" and st["n_rounds"] == (2 if players == 2 else players)  # section 2
    assert list(st["hands"]) == [str(seat)]  # only the person's hand
    engine = ScoutGame(ScoutConfig(n_players=players), seed=seed)
    assert [[c["card"], c["top"]] for c in st["hands"][str(seat)]] == [list(x) for x in engine.hands[seat]]
    for c in st["hands"][str(seat)]:  # both numbers, the top one first
        assert sorted((c["top"], c["bottom"])) == list(CARD_NUMBERS[c["card"]])
    final, mine = play_through(client, st, np.random.default_rng(players))
    kinds = {p[0] for p in mine}
    assert kinds & {KEEP, ROTATE} and SHOW in kinds and (players == 2 or SCOUT in kinds)
    # the same game in the engine: same seed, the agents seeded as the server seeds them, the same plays
    agents = {s: make_agent(spec, seed=child_seed(seed, s), game="scout") for s in range(players) if s != seat}
    plays = iter(mine)
    while not engine.game_over:
        s = engine.current
        engine.apply(ScoutPlay(*next(plays)) if s == seat else agents[s].act(ScoutSeatView(engine, s)))
    assert next(plays, None) is None
    assert final["totals"] == engine.totals and final["winners"] == engine.winners()
    assert final["round_scores"] == engine.round_scores and final["waiting_for"] == "over"
    revealed = client.get(f"/api/games/{st['id']}?reveal=1").json()  # at the end every hand is shown
    assert sorted(revealed["hands"]) == [str(s) for s in range(players)]
    log = client.get(f"/api/games/{st['id']}/log").json()
    assert ScoutGame.replay(log).totals == engine.totals and log["agents"][seat] == "you"


def test_the_state_shows_the_table_and_the_legal_plays(client):
    st = new_game(client, players=4, seat=0, agents=["heuristic"], seed=9)
    assert st["phase"] == "rotate" and st["rotation_phase"] and [p[0] for p in st["legal"]] == [0, 1]
    sid = st["id"]
    r = client.post(f"/api/games/{sid}/play", json={"play": {"kind": 1}, "move": 0})  # rotate, as an object
    assert r.status_code == 200, r.text
    game = client.app.state.store._sessions[sid].game
    while game.phase == "rotate":
        st = client.post(f"/api/games/{sid}/advance", json={}).json()
    line = st["history"][0]
    assert st["rotated"][0] is True and line.startswith("Round 1: player 0 (you)") and line.endswith("rotated their hand")
    while st["waiting_for"] != "you" or not st["active"]:  # a turn with an Active Set to scout from
        if st["waiting_for"] == "you":
            assert st["legal"] == [p.to_list() for p in game.legal_plays()] and SCOUT not in {p[0] for p in st["legal"]}
            st = client.post(f"/api/games/{sid}/play", json={"play": st["legal"][0]}).json()
        else:
            st = client.post(f"/api/games/{sid}/advance").json()
    assert st["legal"] == [p.to_list() for p in game.legal_plays()]
    assert [[c["card"], c["top"]] for c in st["active"]] == [list(x) for x in game.active]
    for key, value in (("hand_sizes", game.hand_sizes()), ("pile_sizes", game.pile_sizes()),
                       ("chips", game.chips), ("scout_show_used", game.scout_show_used),
                       ("active_owner", game.active_owner), ("current", 0)):
        assert st[key] == value, key
    assert {SHOW, SCOUT} <= {p[0] for p in st["legal"]}
    # watching or replaying a game in play is refused a view of the hidden hands
    assert client.get(f"/api/games/{sid}?reveal=1").status_code == 403


def test_watch_mode_shows_hands_only_when_asked(client):
    st = new_game(client, mode="watch", players=3, agents=["heuristic", "random", "greedy"], seed=2)
    assert st["human"] is None and st["hands"] == {} and st["legal"] is None
    sid = st["id"]
    st = client.post(f"/api/games/{sid}/advance?reveal=1").json()
    assert sorted(st["hands"]) == ["0", "1", "2"]
    while not st["game_over"]:
        st = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]}).json()
    engine = ScoutGame(ScoutConfig(n_players=3), seed=2)
    agents = [make_agent(s, seed=child_seed(2, i), game="scout") for i, s in enumerate(["heuristic", "random", "greedy"])]
    while not engine.game_over:
        engine.apply(agents[engine.current].act(ScoutSeatView(engine, engine.current)))
    assert st["totals"] == engine.totals and st["names"] == ["heuristic", "random", "greedy"]
    assert client.post(f"/api/games/{sid}/play", json={"play": [0, 0, 0, 0, 0, 0]}).status_code == 409
    assert [g["game"] for g in client.get("/api/games").json()] == ["scout"]


@pytest.mark.parametrize("body, words", [
    ({"game": "chess"}, "game='chess' is not one of"),
    ({"game": 3}, "game=3 is not one of"),
    ({"game": "scout", "artifacts": True}, "unknown fields ['artifacts'] for game 'scout'"),
    ({"game": "scout", "players": 2, "rounds": 3}, "rounds=3 must be an integer in 1..2"),
    ({"game": "scout", "rounds": 0}, "rounds=0 must be an integer in 1..20"),
    ({"game": "scout", "rounds": 21}, "rounds=21 must be an integer in 1..20"),
    ({"game": "scout", "players": 6}, "players=6 must be an integer in 2..5"),
    ({"game": "scout", "mode": "replay"}, "mode 'replay' is not one of"),
    ({"game": "scout", "agents": ["ppo:/etc/passwd"]}, "the server reads no file path"),
    ({"game": "scout", "agents": ["ismcts:100000"]}, "use 1..500 iterations per move"),
    ({"game": "scout", "agents": ["ismcts:5s"]}, "at most 1s per move"),
    ({"game": "scout", "agents": ["wizard"]}, "unknown agent spec 'wizard'"),
    ({"game": "scout", "agents": ["random", "random"], "players": 4}, "3 agent seats need 3 agent specs"),
    ({"game": "scout", "seed": -1}, "seed=-1 must be an integer"),
])
def test_bad_fields_are_a_clear_400_and_make_no_game(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_learned_without_a_scout_model_is_refused_without_a_server_path(client):
    r = client.post("/api/games", json={"game": "scout", "agents": ["learned"] * 4, "players": 5})
    if r.status_code == 201:
        pytest.skip("this install ships a 5-player SCOUT learned model")
    assert r.status_code == 400 and "learned" in r.json()["error"]
    assert "/" not in r.json()["error"].split("the page may use")[0]


@pytest.mark.parametrize("play, status, words", [
    ([2, 0, 0, 0, 0], 400, "must be a list of 6 integers"),
    ([2, 0, 0, 0, 0, True], 400, "play field length=True must be a small integer"),
    ({"kind": 2, "colour": 1}, 400, "unknown SCOUT play fields ['colour']"),
    ({"start": 1}, 400, "needs a 'kind'"),
    ([9, 0, 0, 0, 0, 0], 400, "kind=9 is not one of"),
    ([2, 1, 0, 0, 0, 1], 400, "SHOW does not use field end"),
    ([2, 0, 0, 0, 0, 11], 400, "illegal play"),
    ([3, 0, 0, 0, 0, 0], 400, "illegal play"),  # nothing to scout before the first Show
])
def test_bad_plays_are_refused_and_change_nothing(client, play, status, words):
    st = new_game(client, players=3, seat=0, seed=5)
    sid = st["id"]
    client.post(f"/api/games/{sid}/play", json={"play": [0, 0, 0, 0, 0, 0]})
    while (st := client.get(f"/api/games/{sid}").json())["waiting_for"] != "you":
        client.post(f"/api/games/{sid}/advance")
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json={"play": play, "move": st["move"]})
    assert r.status_code == status and words in r.json()["error"], r.text
    assert snapshot(client, sid) == before


def test_stale_and_out_of_turn_requests_are_409(client):
    st = new_game(client, players=3, seat=2, seed=8)
    sid = st["id"]
    r = client.post(f"/api/games/{sid}/play", json={"play": [0, 0, 0, 0, 0, 0], "move": 0})
    assert r.status_code == 409 and "it is player 0's turn" in r.json()["error"]
    client.post(f"/api/games/{sid}/advance", json={"move": 0})
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/advance", json={"move": 0})
    assert r.status_code == 409 and "stale" in r.json()["error"] and snapshot(client, sid) == before


def test_caps_on_agents_apply_to_scout(client):
    capped = local_client(create_app(Limits(max_search_s_per_game=0.0, max_sessions=2), seed=0))
    st = new_game(capped, mode="watch", players=2, agents=["random"], seed=1)
    r = capped.post(f"/api/games/{st['id']}/advance")
    assert r.status_code == 429 and "thinking time" in r.json()["error"]
    new_game(capped, mode="watch", players=2, agents=["random"], seed=2)
    r = capped.post("/api/games", json={"game": "scout", "mode": "watch", "players": 2, "agents": ["random"]})
    assert r.status_code == 429 and "too many live games" in r.json()["error"]
    small = local_client(create_app(Limits(max_ismcts_iterations=20), seed=0))
    assert new_game(small, agents=["ismcts:20"])["names"][0] == "ismcts:20"
    r = small.post("/api/games", json={"game": "scout", "agents": ["ismcts:21"]})
    assert r.status_code == 400 and "use 1..20 iterations per move" in r.json()["error"]


def finished_log(seed: int = 3, players: int = 4) -> dict:
    game = ScoutGame(ScoutConfig(n_players=players), seed=seed)
    agents = [make_agent("heuristic", seed=s, game="scout") for s in range(players)]
    while not game.game_over:
        game.apply(agents[game.current].act(ScoutSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * players
    return log


def test_an_uploaded_scout_log_replays_its_plays(client):
    log = finished_log()
    n = sum(1 for e in log["events"] if e["event"] == "play")
    r = client.post("/api/replays", content=json.dumps(log).encode())
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["game"] == "scout" and st["mode"] == "replay" and st["steps"] == n and st["step"] == 0
    assert sorted(st["hands"]) == ["0", "1", "2", "3"]
    for step in (n, 5, 16, 17, 32, 0, n - 1):  # forwards and backwards, across the kept copies
        st = client.post(f"/api/games/{st['id']}/seek", json={"step": step}).json()
        want = ScoutGame.replay(log, upto=step)
        assert st["step"] == step and st["hand_sizes"] == want.hand_sizes() and st["totals"] == want.totals
        assert st["hands"]["2"] == [{"card": c, "top": t, "bottom": sum(CARD_NUMBERS[c]) - t, "scouted": sc}
                                    for (c, t), sc in zip(want.hands[2], want.scouted[2])]
    assert client.post(f"/api/games/{st['id']}/seek", json={"step": n + 1}).status_code == 400
    assert client.post(f"/api/games/{st['id']}/advance").status_code == 409  # no agent runs in a replay
    down = client.get(f"/api/games/{st['id']}/log").json()
    assert ScoutGame.replay(down).totals == ScoutGame.replay(log).totals


def edited(log: dict, change) -> bytes:
    log = json.loads(json.dumps(log))
    change(log)
    return json.dumps(log).encode()


def _first_play(log: dict) -> dict:
    return next(e for e in log["events"] if e["event"] == "play")


def _last_play_index(log: dict) -> int:
    return max(i for i, e in enumerate(log["events"]) if e["event"] == "play")


@pytest.mark.parametrize("change, words", [
    (lambda log: log.update(colour="red"), "unknown keys ['colour']"),
    (lambda log: log.pop("initial_rng_state"), "lacks the keys ['initial_rng_state']"),
    (lambda log: log.update(format=2), "format=2 is not supported"),
    (lambda log: log["config"].update(n_players=7), "config: n_players=7"),
    (lambda log: log["config"].update(n_rounds=30), "n_rounds=30 must be at most 20"),
    (lambda log: log["config"].update(shuffle=True), "config: config has unknown fields ['shuffle']"),
    (lambda log: log.update(origin={"game": "scout"}), "origin must be null"),
    (lambda log: log.update(agents=["a"]), "'agents' must be a list of 4 agent names"),
    (lambda log: log["initial_rng_state"].update(bit_generator="Nope"), "initial_rng_state must be"),
    (lambda log: _first_play(log).update(play=[0, 0, 0, 0, 0]), "must be a list of 6 integers"),
    (lambda log: _first_play(log).update(play=[2, 0, 0, 0, 0, 1]), "illegal play"),
    (lambda log: log["events"].insert(_last_play_index(log) + 1, {"event": "play", "play": [2, 0, 0, 0, 0, 1]}),
     "a play after the end of the game"),
    (lambda log: next(e for e in log["events"] if e["event"] == "round_end")["scores"].__setitem__(0, 99),
     "its round_end events differ"),
    (lambda log: log["events"][0]["hands"][0].reverse(), "first deal differs"),
])
def test_bad_scout_logs_are_refused_naming_the_problem(client, change, words):
    r = client.post("/api/replays", content=edited(finished_log(), change))
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_a_scout_tournament_result_is_refused(client):
    r = client.post("/api/replays", content=json.dumps({"format": "seers-tournament-1", "game": "scout"}).encode())
    assert r.status_code == 400 and "records no plays" in r.json()["error"]


def test_meta_lists_the_games(client):
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    assert list(games)[:2] == ["seers_catalog", "scout"] and games["scout"]["title"] == "SCOUT"
    assert games["scout"]["rounds"] == {"2": 2, "3": 3, "4": 4, "5": 5}


def test_scout_show_plays_come_back_as_sent(client):
    """A Scout & Show through the API: the play is applied as one turn (section 5)."""
    st = new_game(client, players=3, seat=0, seed=12, agents=["heuristic"])
    sid = st["id"]
    rng = np.random.default_rng(0)
    while not st["game_over"]:
        if st["waiting_for"] == "agent":
            st = client.post(f"/api/games/{sid}/advance").json()
            continue
        ss = [p for p in st["legal"] if p[0] == SCOUT_SHOW]
        if ss:
            before = st["scout_show_used"][0]
            st = client.post(f"/api/games/{sid}/play", json={"play": ss[int(rng.integers(len(ss)))]}).json()
            assert not before and st["scout_show_used"][0] is True and st["active_owner"] == 0
            assert any("(Scout & Show)" in line for line in st["history"])
            return
        st = client.post(f"/api/games/{sid}/play", json={"play": choose(rng, st["legal"])}).json()
    pytest.fail("no Scout & Show was legal in the whole game")


def test_serve_game_option_opens_the_page_on_scout(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    import time

    from typer.testing import CliRunner

    from seers_cli.commands import app

    def run(self, *args, **kwargs):  # bound at once, stopped a moment later: the page's address is shown
        self.servers, self.started = [], True
        time.sleep(0.5)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    r = CliRunner().invoke(app, ["serve", "--no-open", "--port", "0", "--game", "scout"])
    assert r.exit_code == 0 and "SCOUT page: http://127.0.0.1:0/?game=scout" in r.output, r.output
    r = CliRunner().invoke(app, ["serve", "--no-open", "--game", "chess"])
    assert r.exit_code != 0 and "'chess' is not one of seers_catalog, scout" in r.output


def test_keep_or_rotate_choices_stay_hidden_until_every_seat_has_chosen(client):
    st = new_game(client, players=4, seat=3, agents=["random"], seed=6)
    sid = st["id"]
    for _ in range(3):
        st = client.post(f"/api/games/{sid}/advance").json()
    game = client.app.state.store._sessions[sid].game
    assert game.phase == "rotate" and None not in game.rotated[:3]
    assert st["rotated"] == [None, None, None, None] and st["history"] == []
    st = client.post(f"/api/games/{sid}/play", json={"play": [1, 0, 0, 0, 0, 0]}).json()
    assert st["rotated"] == game.rotated and st["rotated"][3] is True
