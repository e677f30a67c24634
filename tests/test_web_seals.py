"""Seals through the ``seers serve`` JSON API: whole games at 2, 3 and 4 players match the engine, the
legal plays are exactly the engine's mask, the declaration stage, watch mode, strict replay of uploaded
Seals logs, the pile's order never sent, and every bad request a clear 4xx that changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from agents import make_agent  # noqa: E402
from seers_env.seals.cards import card_of  # noqa: E402
from seers_env.seals.game import SealsConfig, SealsGame  # noqa: E402
from seers_env.seals.plays import DECLARE, TAKE_COLOUR, TAKE_SYMBOL, SealsPlay  # noqa: E402
from seers_env.seals.view import SealsSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_web.sessions import Limits  # noqa: E402


def local_client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"})


@pytest.fixture
def client():
    return local_client(create_app(Limits(max_sessions=6, max_upload_bytes=300_000), seed=0))


def new_game(client, **kw) -> dict:
    body = {"game": "seals", "mode": "play", "players": 3, "seat": 1, "agents": ["random"], "seed": 4}
    body.update(kw)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def server_game(client, sid: str) -> SealsGame:
    return client.app.state.store._sessions[sid].game


def snapshot(client, sid: str) -> str:
    """What the server holds about a session's game, to show that a rejected request changed nothing."""
    return json.dumps(server_game(client, sid).to_dict(), sort_keys=True)


def int_lists(value, out=None) -> list[list[int]]:
    """Every list of integers anywhere in a JSON value."""
    out = [] if out is None else out
    if isinstance(value, dict):
        for v in value.values():
            int_lists(v, out)
    elif isinstance(value, list):
        if value and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            out.append(value)
        for v in value:
            int_lists(v, out)
    return out


def keys_of(value, out=None) -> set[str]:
    out = set() if out is None else out
    if isinstance(value, dict):
        out |= set(value)
        for v in value.values():
            keys_of(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_of(v, out)
    return out


def assert_pile_order_hidden(st: dict, game: SealsGame) -> None:
    """No key that carries the pile or the generator, and no run of 3 or more of the pile's next cards."""
    assert not keys_of(st) & {"pile", "rng_state", "initial_rng_state", "events"}
    pile = game.pile
    if len(pile) >= 3:
        for lst in int_lists(st):
            for i in range(len(lst) - 2):
                assert lst[i:i + 3] != pile[:3], (lst, pile[:3])
    if not game.game_over and st["mode"] != "replay":
        assert st["seed"] is None  # the seed gives every pile of the game


def choose(rng: np.random.Generator, st: dict) -> list[int]:
    """A legal play of the person: takes by colour and by symbol alike; in the declaration stage the most
    Marks, or now and then nothing (to keep collecting)."""
    legal = st["legal"]
    if st["stage"] == 1:
        return max(legal, key=lambda p: p["marks"])["play"] if rng.random() < 0.8 else legal[0]["play"]
    kinds = sorted({p["kind"] for p in legal})
    kind = kinds[int(rng.integers(len(kinds)))]
    pool = [p for p in legal if p["kind"] == kind]
    return pool[int(rng.integers(len(pool)))]["play"]


def play_through(client, st: dict, rng: np.random.Generator) -> tuple[dict, list[list[int]]]:
    """Play ``st``'s game to its end through the API, checking every state; returns the last state and the
    person's plays."""
    sid, mine = st["id"], []
    while not st["game_over"]:
        game = server_game(client, sid)
        assert_pile_order_hidden(st, game)
        assert st["pile_size"] == game.pile_size and [c["card"] for c in st["row"]] == game.row
        assert {s: [c["card"] for c in h] for s, h in st["hands"].items()} == \
            {str(s): h for s, h in enumerate(game.hands)}  # every hand: hands are public
        if st["waiting_for"] == "agent":
            assert st["legal"] is None and st["actions"] is None
            r = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]})
        else:
            assert st["actions"] == np.flatnonzero(game.legal_mask()).tolist()  # the engine's exact mask
            assert [p["play"] for p in st["legal"]] == [p.to_list() for p in game.legal_plays()]
            assert [p["action"] for p in st["legal"]] == st["actions"]
            assert st["stage"] == (1 if game.phase == "declare" else 0)
            p = choose(rng, st)
            mine.append(p)
            r = client.post(f"/api/games/{sid}/play", json={"play": p, "move": st["move"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st, mine


@pytest.mark.parametrize("players, seat, spec", [(2, 1, "heuristic"), (3, 0, "greedy"), (4, 2, "random")])
def test_a_whole_game_through_the_api_is_the_engines_game(client, players, seat, spec):
    seed = 40 + players
    st = new_game(client, players=players, seat=seat, agents=[spec], seed=seed)
    assert st["game"] == "seals" and st["n_rounds"] == 5 and st["counter"] == 5 and st["marks_to_win"] == 5
    assert len(st["row"]) == 4 and st["pile_size"] == 51 and sorted(st["hands"]) == [str(s) for s in range(players)]
    final, mine = play_through(client, st, np.random.default_rng(players))
    kinds = {p[0] for p in mine}
    assert {TAKE_COLOUR, TAKE_SYMBOL} <= kinds  # both kinds of take (declarations: the tests below)
    # the same game in the engine: same seed, the agents seeded as the server seeds them, the same plays
    engine = SealsGame(SealsConfig(n_players=players), seed=seed)
    agents = {s: make_agent(spec, seed=child_seed(seed, s), game="seals") for s in range(players) if s != seat}
    plays = iter(mine)
    while not engine.game_over:
        s = engine.current
        engine.apply(SealsPlay(*next(plays)) if s == seat else agents[s].act(SealsSeatView(engine, s)))
    assert next(plays, None) is None
    assert final["totals"] == engine.totals and final["winners"] == engine.winners()
    assert final["round_scores"] == engine.round_scores and final["waiting_for"] == "over"
    assert final["round_end_reasons"] == engine.round_end_reasons and final["seed"] == seed  # shown at the end
    assert final["last_round"]["scores"] == engine.round_scores[-1]
    assert any(line.startswith("Game over; Marks:") for line in final["history"])
    log = client.get(f"/api/games/{st['id']}/log").json()  # the log once the game is over
    assert SealsGame.replay(log).totals == engine.totals and log["agents"][seat] == "you"


def test_the_history_names_the_cards_taken_and_never_the_pile(client):
    st = new_game(client, players=2, seat=0, agents=["greedy"], seed=11)
    sid = st["id"]
    game = server_game(client, sid)
    for _ in range(6):
        if st["waiting_for"] == "agent":
            st = client.post(f"/api/games/{sid}/advance").json()
        else:
            take = st["legal"][0]
            row = [c["name"] for c in st["row"]]
            st = client.post(f"/api/games/{sid}/play", json={"play": take["play"]}).json()
            line = next(x for x in reversed(st["history"]) if x.startswith("player 0 (you) takes"))
            taken = line.split(": ", 1)[1].split(", ")
            assert taken and set(taken) <= set(row) and line.endswith(take["text"].split(": ", 1)[1])
    assert st["history"][0].startswith("Round 1: player ") and st["history"][0].endswith(" starts")
    assert_pile_order_hidden(st, game)


def test_states_do_not_depend_on_the_pile_order(client):
    """Two games that differ only in the order of the cards still in the pile give the same state."""
    st = new_game(client, players=3, seat=2, agents=["heuristic"], seed=3)
    sid = st["id"]
    for _ in range(5):
        st = client.post(f"/api/games/{sid}/advance").json() if st["waiting_for"] == "agent" else \
            client.post(f"/api/games/{sid}/play", json={"play": st["legal"][-1]["play"]}).json()
    session = client.app.state.store._sessions[sid]
    before = client.get(f"/api/games/{sid}").json()
    d = session.game.to_dict()
    pile = d["pile"]
    shuffled = [pile[i] for i in np.random.default_rng(0).permutation(len(pile))]
    assert shuffled != pile
    deal = next(e for e in reversed(d["events"]) if e["event"] == "deal")
    deal["pile"] = deal["pile"][:len(deal["pile"]) - len(pile)] + shuffled  # what was revealed stays
    d["pile"] = shuffled
    session.game = SealsGame.from_dict(d)
    assert client.get(f"/api/games/{sid}").json() == before
    assert client.get(f"/api/games/{sid}?reveal=1").json() == before  # reveal is moot: hands are public


def declare_position(client, sid: str) -> SealsGame:
    """Seat 0 to take, holding three 4s and a Red 4 face up: taking 4s asks for its declaration."""
    fours = [card_of(c, 3) for c in range(4)]
    game = SealsGame.from_position(SealsConfig(n_players=2), row=[fours[3], card_of(0, 0), card_of(1, 8),
                                                                    card_of(2, 10)],
                                   hands=[fours[:3] + [card_of(4, 6)], [card_of(4, 1), card_of(3, 9)]], current=0)
    client.app.state.store._sessions[sid].game = game
    return game


def test_the_declaration_stage(client):
    st = new_game(client, players=2, seat=0, agents=["random"], seed=1)
    sid = st["id"]
    game = declare_position(client, sid)
    st = client.get(f"/api/games/{sid}").json()
    assert st["stage"] == 0 and st["waiting_for"] == "you"
    r = client.post(f"/api/games/{sid}/play", json={"play": [DECLARE, 1 << 3]})  # declare before taking
    assert r.status_code == 400 and "must first take" in r.json()["error"], r.text
    st = client.post(f"/api/games/{sid}/play", json={"play": {"kind": TAKE_SYMBOL, "value": 3}}).json()
    assert st["phase"] == "declare" and st["stage"] == 1 and st["current"] == 0
    assert [p["play"] for p in st["legal"]] == [[DECLARE, 0], [DECLARE, 1 << 3]]
    assert st["actions"] == [16, 16 + (1 << 3)]
    assert st["legal"][1]["sets"] == ["four 4s"] and st["legal"][1]["marks"] == 1
    before = snapshot(client, sid)
    for bad, words in (([TAKE_COLOUR, 0], "now declare or declare nothing"),  # a take in the declare stage
                       ([DECLARE, 1 << 4], "cannot lay down those sets")):
        r = client.post(f"/api/games/{sid}/play", json={"play": bad, "move": st["move"]})
        assert r.status_code == 400 and words in r.json()["error"], r.text
        assert snapshot(client, sid) == before
    st = client.post(f"/api/games/{sid}/play", json={"play": [DECLARE, 1 << 3], "move": st["move"]}).json()
    assert st["round_scores"] == [[1, 0]] and st["totals"] == [1, 0] and st["counter"] == 4 and st["round"] == 1
    assert st["last_round"]["winner"] == 0 and st["last_round"]["declared"]["sets"] == ["four 4s"]
    fours_and_a_7 = sorted([card_of(c, 3) for c in range(4)] + [card_of(4, 6)])
    assert [c["card"] for c in st["last_round"]["hands"][0]] == fours_and_a_7
    assert "Round 1 ends: player 0 (you) declared and wins 1 Mark" in st["history"] and game.round == 1
    assert len(st["row"]) == 4 and st["pile_size"] == 51 and all(not h for h in st["hands"].values())


def test_two_runs_are_declared_through_the_api(client):
    """A hand of two of every number 1-10 (taking the second 10) lays down 2 runs for 8 Marks (rules sections
    3.3 and 4); the page names them once, "2 runs 1-10"."""
    st = new_game(client, players=2, seat=0, agents=["random"], seed=1)
    sid = st["id"]
    hand = [card_of(c, k) for k in range(10) for c in (0, 1)]
    ten = card_of(1, 9)
    row = [ten, card_of(2, 10), card_of(3, 10), card_of(4, 10)]
    client.app.state.store._sessions[sid].game = SealsGame.from_position(
        SealsConfig(n_players=2), row=row, hands=[[x for x in hand if x != ten], [card_of(2, 0)]], current=0)
    st = client.post(f"/api/games/{sid}/play", json={"play": [TAKE_SYMBOL, 9]}).json()
    assert [p["play"] for p in st["legal"]] == [[DECLARE, 0], [DECLARE, 1 << 11], [DECLARE, 2 << 11]]
    assert st["actions"] == [16, 16 + 2048, 16 + 4096]
    assert st["legal"][2]["sets"] == ["2 runs 1-10"] and st["legal"][2]["marks"] == 8
    st = client.post(f"/api/games/{sid}/play", json={"play": [DECLARE, 2 << 11], "move": st["move"]}).json()
    assert st["round_scores"] == [[8, 0]] and st["last_round"]["declared"]["sets"] == ["2 runs 1-10"]
    assert "player 0 (you) declares 2 runs 1-10 (8 Marks)" in st["history"]


def test_declining_keeps_collecting(client):
    st = new_game(client, players=2, seat=0, agents=["random"], seed=1)
    sid = st["id"]
    declare_position(client, sid)
    client.post(f"/api/games/{sid}/play", json={"play": [TAKE_SYMBOL, 3]})
    st = client.post(f"/api/games/{sid}/play", json={"play": [DECLARE, 0]}).json()
    assert st["round_scores"] == [] and st["current"] == 1 and st["stage"] == 0 and st["waiting_for"] == "agent"
    assert "player 0 (you) declares nothing" in st["history"]


def test_watch_mode_plays_the_agents_game(client):
    specs = ["heuristic", "random", "greedy", "ismcts:8"]
    st = new_game(client, mode="watch", players=4, agents=specs, seed=2)
    assert st["human"] is None and st["legal"] is None and len(st["hands"]) == 4
    sid = st["id"]
    while not st["game_over"]:
        assert_pile_order_hidden(st, server_game(client, sid))
        st = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]}).json()
    engine = SealsGame(SealsConfig(n_players=4), seed=2)
    agents = [make_agent(s, seed=child_seed(2, i), game="seals") for i, s in enumerate(specs)]
    while not engine.game_over:
        engine.apply(agents[engine.current].act(SealsSeatView(engine, engine.current)))
    assert st["totals"] == engine.totals and st["names"] == specs and st["winners"] == engine.winners()
    assert client.post(f"/api/games/{sid}/play", json={"play": [0, 0]}).status_code == 409
    assert [g["game"] for g in client.get("/api/games").json()] == ["seals"]


@pytest.mark.parametrize("body, words", [
    ({"game": "seals", "players": 5}, "players=5 must be an integer in 2..4"),
    ({"game": "seals", "players": 1}, "players=1 must be an integer in 2..4"),
    ({"game": "seals", "artifacts": False}, "unknown fields ['artifacts'] for game 'seals'"),
    ({"game": "seals", "rounds": 0}, "rounds=0 must be an integer in 1..20"),
    ({"game": "seals", "rounds": 2.5}, "rounds=2.5 must be an integer in 1..20"),
    ({"game": "seals", "seat": 3}, "seat=3 must be an integer in 0..2"),
    ({"game": "seals", "mode": "replay"}, "mode 'replay' is not one of"),
    ({"game": "seals", "agents": ["ppo:/etc/passwd"]}, "the server reads no file path"),
    ({"game": "seals", "agents": ["ismcts:100000"]}, "use 1..500 iterations per move"),
    ({"game": "seals", "agents": ["wizard"]}, "unknown agent spec 'wizard'"),
    ({"game": "seals", "agents": ["random"] * 3}, "2 agent seats need 2 agent specs"),
    ({"game": "seals", "seed": -1}, "seed=-1 must be an integer"),
])
def test_bad_fields_are_a_clear_400_and_make_no_game(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def my_turn(client, **kw) -> dict:
    st = new_game(client, **kw)
    while st["waiting_for"] != "you":
        st = client.post(f"/api/games/{st['id']}/advance").json()
    return st


def absent_colour(st: dict) -> int:
    return next(c for c in range(5) if c not in {x["colour"] for x in st["row"]})


@pytest.mark.parametrize("play, words", [
    ([0], "must be a list [kind, value] of 2 integers"),
    ([0, 1, 2], "must be a list [kind, value] of 2 integers"),
    ("take red", "must be a list [kind, value]"),
    ([0, True], "play field value=True must be an integer"),
    ([0, 1.0], "play field value=1.0 must be an integer"),
    ({"kind": 0}, "needs ['value']"),
    ({"kind": 0, "value": 1, "colour": 2}, "unknown Seals play fields ['colour']"),
    ([3, 0], "kind=3 is not one of"),
    ([TAKE_COLOUR, 5], "value=5 is not one of 0..4"),
    ([TAKE_SYMBOL, 11], "value=11 is not one of 0..10"),
    ([DECLARE, 12288], "value=12288 is not one of 0..12287"),
    ([DECLARE, 0], "must first take face-up cards"),  # the wrong stage
    (None, "illegal play"),  # a colour not in the row: filled in below
])
def test_bad_plays_are_refused_and_change_nothing(client, play, words):
    st = my_turn(client, players=3, seat=0, seed=5)
    sid = st["id"]
    if play is None:
        play = [TAKE_COLOUR, absent_colour(st)]
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json={"play": play, "move": st["move"]})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert snapshot(client, sid) == before
    assert client.get(f"/api/games/{sid}").json() == st


@pytest.mark.parametrize("raw, status, words", [
    (b'{"play": [0, 1], }', 400, "not strict JSON"),
    (b'{"play": [0, NaN]}', 400, "not strict JSON"),
    (b'{"play": [0, 1]', 400, "not strict JSON"),
    (b"", 400, "needs a JSON body"),
    (b'[0, 1]', 400, "must be a JSON object"),
    (b'{"play": [0, 1], "seat": 0}', 400, "unknown fields ['seat']"),
    (b'{"play": [0, 1], "move": "3"}', 400, "must be an integer"),
    (b'{"play": [0, 1], "move": 99}', 409, "stale"),
])
def test_malformed_requests_are_refused_and_change_nothing(client, raw, status, words):
    st = my_turn(client, players=2, seat=1, seed=6)
    sid = st["id"]
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", content=raw)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert snapshot(client, sid) == before


def test_wrong_turn_unknown_game_and_a_foreign_page_are_refused(client):
    seed = next(k for k in range(100) if SealsGame(SealsConfig(n_players=3), seed=k).current != 2)
    st = new_game(client, players=3, seat=2, seed=seed)
    sid = st["id"]
    assert st["waiting_for"] == "agent"
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json={"play": [0, 0], "move": 0})
    assert r.status_code == 409 and f"it is player {st['current']}'s turn" in r.json()["error"]
    r = client.post("/api/games/nosuchgame/play", json={"play": [0, 0]})
    assert r.status_code == 404 and "no game with id 'nosuchgame'" in r.json()["error"]
    r = client.post(f"/api/games/{sid}/play", content=b'{"play": [0, 0]}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post(f"/api/games/{sid}/advance", headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "refused" in r.json()["error"]
    r = client.post(f"/api/games/{sid}/seek", json={"step": 0})
    assert r.status_code == 409 and "not a replay" in r.json()["error"]
    assert snapshot(client, sid) == before
    client.post(f"/api/games/{sid}/advance", json={"move": 0})
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/advance", json={"move": 0})
    assert r.status_code == 409 and "stale" in r.json()["error"] and snapshot(client, sid) == before


def test_the_log_of_a_game_in_progress_is_refused(client):
    """The log's deal events and generator state give the pile's order: only once the game is over."""
    for mode in ("play", "watch"):
        st = new_game(client, mode=mode, agents=["random"] if mode == "play" else ["random"] * 3)
        r = client.get(f"/api/games/{st['id']}/log")
        assert r.status_code == 403 and "draw pile's order" in r.json()["error"] and "pile" not in r.json()


def finished_log(seed: int = 3, players: int = 3) -> dict:
    game = SealsGame(SealsConfig(n_players=players), seed=seed)
    agents = [make_agent("heuristic", seed=s, game="seals") for s in range(players)]
    while not game.game_over:
        game.apply(agents[game.current].act(SealsSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * players
    return log


def test_an_uploaded_seals_log_replays_its_plays(client):
    log = finished_log()
    n = sum(1 for e in log["events"] if e["event"] == "play")
    r = client.post("/api/replays", content=json.dumps(log).encode())
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["game"] == "seals" and st["mode"] == "replay" and st["steps"] == n and st["step"] == 0
    assert st["names"] == ["heuristic"] * 3
    for step in (n, 5, 16, 17, 32, 0, n - 1):  # forwards and backwards, across the kept copies
        st = client.post(f"/api/games/{st['id']}/seek", json={"step": step}).json()
        want = SealsGame.replay(log, upto=step)
        assert st["step"] == step and st["totals"] == want.totals and st["pile_size"] == want.pile_size
        assert [c["card"] for c in st["row"]] == want.row and st["phase"] == want.phase
        assert [[c["card"] for c in st["hands"][str(s)]] for s in range(3)] == want.hands
        assert_pile_order_hidden(st, want)
    assert client.post(f"/api/games/{st['id']}/seek", json={"step": n + 1}).status_code == 400
    assert client.post(f"/api/games/{st['id']}/advance").status_code == 409  # no agent runs in a replay
    down = client.get(f"/api/games/{st['id']}/log").json()
    assert SealsGame.replay(down).totals == SealsGame.replay(log).totals


def edited(log: dict, change) -> bytes:
    log = json.loads(json.dumps(log))
    change(log)
    return json.dumps(log).encode()


def _mt19937_state(**fields) -> dict:
    state = np.random.MT19937(1).state
    state["state"] = {"key": state["state"]["key"].tolist(), "pos": state["state"]["pos"], **fields}
    return state


def _first_play(log: dict) -> dict:
    return next(e for e in log["events"] if e["event"] == "play")


def _last_play_index(log: dict) -> int:
    return max(i for i, e in enumerate(log["events"]) if e["event"] == "play")


@pytest.mark.parametrize("change, words", [
    (lambda log: log.update(colour="red"), "unknown keys ['colour']"),
    (lambda log: log.pop("initial_rng_state"), "lacks the keys ['initial_rng_state']"),
    (lambda log: log.update(format=2), "format=2 is not supported"),
    (lambda log: log.update(format=1.0), "format=1.0 is not supported"),  # an integer field, as the plays'
    (lambda log: log["config"].update(n_players=5), "config: n_players=5"),
    (lambda log: log["config"].update(n_rounds=30), "n_rounds=30 must be at most 20"),
    (lambda log: log["config"].update(shuffle=True), "config: config has unknown fields ['shuffle']"),
    (lambda log: log.update(origin={"game": "seals"}), "origin must be null"),
    (lambda log: log.update(agents=["a"]), "'agents' must be a list of 3 agent names"),
    (lambda log: log["initial_rng_state"].update(bit_generator="Nope"), "initial_rng_state must be"),
    # numpy takes these states and then reads outside the key (a segmentation fault of the server) or never
    # ends a bounded draw (a worker stuck for ever): refused before the first deal
    (lambda log: log.update(initial_rng_state=_mt19937_state(pos=10**9)), "pos=1000000000 is outside 0..624"),
    (lambda log: log.update(initial_rng_state=_mt19937_state(key=[0] * 624)), "the all-zero state of MT19937"),
    (lambda log: log["initial_rng_state"]["state"].update(state=0, inc=0), "inc=0 is even"),
    (lambda log: _first_play(log).update(play=[0, 0, 0]), "must be a list [kind, value] of 2 integers"),
    (lambda log: _first_play(log).update(play=[2, 0]), "illegal play"),
    (lambda log: log["events"].insert(_last_play_index(log) + 1, {"event": "play", "play": [0, 0]}),
     "a play after the end of the game"),
    (lambda log: next(e for e in log["events"] if e["event"] == "round_end")["scores"].__setitem__(0, 99),
     "its round_end events differ"),
    (lambda log: log["events"][0]["pile"].reverse(), "does not replay"),
])
def test_bad_seals_logs_are_refused_naming_the_problem(client, change, words):
    r = client.post("/api/replays", content=edited(finished_log(), change))
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_meta_lists_seals(client):
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    assert games["seals"]["title"] == "Seals" and games["seals"]["players"] == [2, 4]
    assert games["seals"]["round_counter"] == 5


def test_serve_game_option_opens_the_page_on_seals(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    import time

    from typer.testing import CliRunner

    from seers_cli.commands import app

    def run(self, *args, **kwargs):  # bound at once, stopped a moment later: the page's address is shown
        self.servers, self.started = [], True
        time.sleep(0.5)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    r = CliRunner().invoke(app, ["serve", "--no-open", "--port", "0", "--game", "seals"])
    assert r.exit_code == 0 and "Seals page: http://127.0.0.1:0/?game=seals" in r.output, r.output
