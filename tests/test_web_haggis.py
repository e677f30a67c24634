"""Haggis through the ``seers serve`` JSON API: a whole round at 2 and 3 players is the engine's round, the
bet comes first, the legal plays are the engine's, watch mode, no hidden card in any answer (section 10:
another player's number cards and the Haggis), and every bad request a clear 4xx that changes nothing."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from agents import make_agent  # noqa: E402
from seers_env.haggis.cards import card_name, is_wild  # noqa: E402
from seers_env.haggis.game import HaggisConfig, HaggisGame  # noqa: E402
from seers_env.haggis.plays import BET, BOMB, PASS, HaggisPlay  # noqa: E402
from seers_env.haggis.render import sorted_hand  # noqa: E402
from seers_env.haggis.view import HaggisDeterminizer, HaggisSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_web.haggis_web import haggis_state  # noqa: E402
from seers_web.sessions import Limits  # noqa: E402

CARD_TOKEN = re.compile(r"(?<!of )\b(?:10|[2-9])[cdhsb]\b")  # a card name, not "pair of 6s"


def local_client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"})


@pytest.fixture
def client():
    return local_client(create_app(Limits(max_sessions=6), seed=0))


def new_game(client, **kw) -> dict:
    body = {"game": "haggis", "mode": "play", "players": 3, "seat": 1, "agents": ["heuristic"], "seed": 4,
            "rounds": 1}
    body.update(kw)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def engine_game(client, sid: str) -> HaggisGame:
    return client.app.state.store._sessions[sid].game


def snapshot(client, sid: str) -> str:
    """What the server holds about a session's game, to show that a rejected request changed nothing."""
    return json.dumps(engine_game(client, sid).to_dict(), sort_keys=True)


def hidden_cards(game: HaggisGame, seat: int) -> list[int]:
    """The cards ``seat`` may not see now: the other seats' number cards and the Haggis (section 10)."""
    others = [c for s in range(game.n_players) if s != seat for c in game.hand(s) if not is_wild(c)]
    return others + game.haggis


def card_ids(obj) -> set[int]:
    """Every card id in an answer: the ``id`` of each card object and the cards of each listed play."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "rank" in obj:
            found.add(obj["id"])
        if "play" in obj and isinstance(obj["play"], list) and len(obj["play"]) == 4:
            found.update(obj["play"][1])
        for v in obj.values():
            found |= card_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_ids(v)
    return found


def assert_nothing_hidden(st: dict, game: HaggisGame, seat: int) -> None:
    """No card ``seat`` may not see is in the answer ``st``: not as a card object, not in a play, not
    named in a line of text."""
    hidden = hidden_cards(game, seat)
    assert list(st["hands"]) == [str(seat)] and st["haggis"] is None
    assert not card_ids(st) & set(hidden), sorted(card_ids(st) & set(hidden))
    names = {card_name(c) for c in hidden}
    text = " ".join(st["history"]) + " " + " ".join(m["text"] for m in st["trick"])
    assert not set(CARD_TOKEN.findall(text)) & names
    assert st["haggis_size"] == len(game.haggis)


def choose(rng: np.random.Generator, legal: list[dict]) -> list:
    """A legal play, each kind (bet, pass, set, sequence, bomb) as likely as any other."""
    by_kind: dict[int, list[list]] = {}
    for p in legal:
        by_kind.setdefault(p["play"][0], []).append(p["play"])
    kinds = sorted(by_kind)
    pool = by_kind[kinds[int(rng.integers(len(kinds)))]]
    return pool[int(rng.integers(len(pool)))]


def play_through(client, st: dict, rng: np.random.Generator, seat: int) -> tuple[dict, list[list]]:
    """Play ``st``'s game to its end through the API, checking each answer; returns the last state and the
    person's plays."""
    sid, mine = st["id"], []
    while not st["game_over"]:
        game = engine_game(client, sid)
        assert_nothing_hidden(st, game, seat)
        if st["waiting_for"] == "agent":
            assert st["legal"] is None
            r = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]})
        else:
            assert [p["play"] for p in st["legal"]] == [p.to_list() for p in game.legal_plays()]
            p = choose(rng, st["legal"])
            mine.append(p)
            r = client.post(f"/api/games/{sid}/play", json={"play": p, "move": st["move"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st, mine


@pytest.mark.parametrize("players, seat, spec", [(2, 1, "heuristic"), (3, 0, "greedy"), (3, 2, "random")])
def test_a_whole_round_through_the_api_is_the_engines_round(client, players, seat, spec):
    seed = 11 + players + seat
    st = new_game(client, players=players, seat=seat, agents=[spec], seed=seed)
    assert st["game"] == "haggis" and st["n_rounds"] == 1 and st["phase"] == "bet"
    engine = HaggisGame(HaggisConfig(n_players=players, n_rounds=1), seed=seed)
    assert sorted(c["id"] for c in st["hands"][str(seat)]) == engine.hand(seat)
    ranks = [c["rank"] for c in st["hands"][str(seat)]]
    assert ranks == sorted(ranks) and ranks[-3:] == [11, 12, 13]  # sorted by rank, J Q K last
    assert [[c["label"] for c in f] for f in st["faces"]] == [["J", "Q", "K"]] * players  # face up
    final, mine = play_through(client, st, np.random.default_rng(players + seat), seat)
    assert mine[0][0] == BET and all(p[0] != BET for p in mine[1:])  # the bet first, once (section 7)
    # the same round in the engine: same seed, the agents seeded as the server seeds them, the same plays
    agents = {s: make_agent(spec, seed=child_seed(seed, s), game="haggis") for s in range(players) if s != seat}
    plays = iter(mine)
    while not engine.game_over:
        s = engine.current
        engine.apply(HaggisPlay.from_list(next(plays)) if s == seat else agents[s].act(HaggisSeatView(engine, s)))
    assert next(plays, None) is None
    assert final["totals"] == engine.totals and final["winners"] == engine.winners()
    assert final["round_scores"] == engine.round_scores and final["waiting_for"] == "over"
    last = final["last_round"]
    end = next(e for e in engine.events if e["event"] == "round_end")
    assert last["scores"] == end["scores"] and last["going_out"] == end["going_out"]
    assert last["bet_points"] == end["bet_points"] and last["captured_points"] == end["captured_points"]
    assert last["first_out"] == engine.public_history[-1]["first_out"]
    assert any("ends:" in line for line in final["history"])
    log = client.get(f"/api/games/{st['id']}/log").json()
    assert HaggisGame.replay(log).totals == engine.totals and log["agents"][seat] == "you"


def test_the_state_is_the_seat_views_information_alone(client):
    """The answer for the person is the same whatever the hidden cards are: every other seat's number
    cards and the Haggis dealt again at random (the determinizer of ISMCTS), the game's log kept but its
    deals (the only events that name hidden cards)."""
    st = new_game(client, players=3, seat=1, agents=["heuristic"], seed=21, rounds=2)
    sid = st["id"]
    store = client.app.state.store
    rng = np.random.default_rng(5)
    compared = 0
    while not st["game_over"] and compared < 12:
        session = store._sessions[sid]
        game = session.game
        for k in range(2):
            other = HaggisDeterminizer(game, 1).sample(np.random.default_rng(k))
            assert other.hands != game.hands or other.haggis != game.haggis
            other.events = [e for e in game.events if e["event"] != "deal"]
            mine = haggis_state(game, session.names, [1], legal_for=1)
            assert haggis_state(other, session.names, [1], legal_for=1) == mine
        compared += 1
        if st["waiting_for"] == "agent":
            st = client.post(f"/api/games/{sid}/advance").json()
        else:
            st = client.post(f"/api/games/{sid}/play", json={"play": choose(rng, st["legal"])}).json()
    assert compared == 12
    assert client.get(f"/api/games/{sid}?reveal=1").status_code == 403  # no peeking while playing


def test_the_bet_comes_first_and_the_legal_plays_follow(client):
    st = new_game(client, players=2, seat=0, agents=["heuristic"], seed=3)
    assert st["waiting_for"] == "you" and [p["play"] for p in st["legal"]] == [[BET, [], 0, b] for b in (0, 15, 30)]
    sid = st["id"]
    r = client.post(f"/api/games/{sid}/play", json={"play": {"kind": BET, "amount": 15}, "move": 0})  # as an object
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["bets"] == [15, None] and st["phase"] == "play" and st["history"][-1] == "player 0 (you) bets 15"
    legal = [HaggisPlay.from_list(p["play"]) for p in st["legal"]]
    assert legal == engine_game(client, sid).legal_plays() and PASS not in {p.kind for p in legal}  # a lead
    by_cards: dict[tuple, list[str]] = {}
    for p in st["legal"]:
        by_cards.setdefault(tuple(p["play"][1]), []).append(p["text"])
    shapes = [texts for texts in by_cards.values() if len(texts) > 1]
    assert shapes and all(len(set(t)) == len(t) for t in shapes)  # the same cards, told apart by shape
    bombs = [p for p in st["legal"] if p["play"][0] == BOMB]
    assert all(p["text"].startswith("bomb ") for p in bombs)
    st = client.post(f"/api/games/{sid}/play", json={"play": st["legal"][0]["play"]}).json()
    assert len(st["trick"]) == 1 and st["trick"][0]["seat"] == 0 and st["waiting_for"] == "agent"
    assert st["trick_type"] == "singles"
    st = client.post(f"/api/games/{sid}/advance").json()  # the agent bets
    assert st["bets"][1] is not None and len(st["trick"]) == 1 and st["current"] == 1


def test_watch_mode_shows_hands_and_the_haggis_only_when_asked(client):
    specs = ["heuristic", "random", "greedy"]
    st = new_game(client, mode="watch", players=3, agents=specs, seed=2)
    assert st["human"] is None and st["hands"] == {} and st["legal"] is None and st["haggis"] is None
    sid = st["id"]
    st = client.post(f"/api/games/{sid}/advance?reveal=1").json()
    game = engine_game(client, sid)
    assert sorted(st["hands"]) == ["0", "1", "2"] and sorted(c["id"] for c in st["haggis"]) == game.haggis
    while not st["game_over"]:
        st = client.post(f"/api/games/{sid}/advance", json={"move": st["move"]}).json()
        assert st["hands"] == {} and st["haggis"] is None
    engine = HaggisGame(HaggisConfig(n_players=3, n_rounds=1), seed=2)
    agents = [make_agent(s, seed=child_seed(2, i), game="haggis") for i, s in enumerate(specs)]
    while not engine.game_over:
        engine.apply(agents[engine.current].act(HaggisSeatView(engine, engine.current)))
    assert st["totals"] == engine.totals and st["names"] == specs
    assert client.post(f"/api/games/{sid}/play", json={"play": [PASS, [], 0, 0]}).status_code == 409
    assert [g["game"] for g in client.get("/api/games").json()] == ["haggis"]


def test_a_game_to_the_target_and_ismcts_agents(client):
    st = new_game(client, mode="watch", players=2, agents=["ismcts:5", "greedy"], seed=1, rounds=None, target=250)
    assert st["n_rounds"] is None and st["target"] == 250 and st["names"] == ["ismcts:5", "greedy"]
    for _ in range(3):
        st = client.post(f"/api/games/{st['id']}/advance").json()
    assert st["move"] == 3


@pytest.mark.parametrize("body, words", [
    ({"players": 4}, "players=4 must be an integer in 2..3"),
    ({"players": 1}, "players=1 must be an integer in 2..3"),
    ({"artifacts": True}, "unknown fields ['artifacts'] for game 'haggis'"),
    ({"target": 300}, "target=300 must be one of 250, 350"),
    ({"target": True}, "target=True must be one of"),
    ({"rounds": 0}, "rounds=0 must be an integer in 1..20"),
    ({"rounds": "2"}, "rounds='2' must be an integer"),
    ({"seat": 3}, "seat=3 must be an integer in 0..2"),
    ({"mode": "replay"}, "mode 'replay' is not one of"),
    ({"agents": ["ppo:/etc/passwd"]}, "the server reads no file path"),
    ({"agents": ["ismcts:100000"]}, "use 1..500 iterations per move"),
    ({"agents": ["wizard"]}, "unknown agent spec 'wizard'"),
    ({"agents": ["learned:train/models/haggis_learned_3p.pt"]}, "learned"),  # the server reads no path
    ({"agents": ["random", "random", "random"]}, "2 agent seats need 2 agent specs"),
    ({"agents": "random!"}, "unknown agent spec"),
    ({"seed": -1}, "seed=-1 must be an integer"),
    ({"seed": 1.5}, "seed=1.5 must be an integer"),
])
def test_bad_fields_are_a_clear_400_and_make_no_game(client, body, words):
    r = client.post("/api/games", json={"game": "haggis", **body})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def at_my_turn(client, bet: bool = False) -> tuple[str, dict]:
    """A 3-player game (person at seat 0) at the person's bet or at the person's turn to follow a trick."""
    st = new_game(client, players=3, seat=0, seed=5, agents=["heuristic"])
    sid = st["id"]
    if bet:
        return sid, st
    st = client.post(f"/api/games/{sid}/play", json={"play": [BET, [], 0, 0]}).json()
    lead = next(p for p in st["legal"] if len(p["play"][1]) == 1 and p["play"][0] != BOMB)
    st = client.post(f"/api/games/{sid}/play", json={"play": lead["play"]}).json()
    while st["waiting_for"] != "you":
        st = client.post(f"/api/games/{sid}/advance").json()
    return sid, st


@pytest.mark.parametrize("play, words", [
    ([PASS, [], 0], "must be [kind, [card ids], width, amount]"),
    ([PASS, 5, 0, 0], "must be [kind, [card ids], width, amount]"),
    ("pass", "must be [kind, [card ids], width, amount]"),
    ([True, [], 0, 0], "play field kind=True must be a small integer"),
    ([2, [1.5], 0, 0], "must be at most 17 card ids 0..53"),
    ([2, [54], 0, 0], "must be at most 17 card ids 0..53"),
    ([2, list(range(18)), 0, 0], "must be at most 17 card ids"),
    ([9, [], 0, 0], "kind=9 is not one of"),
    ([2, [3, 3], 0, 0], "without repeats"),
    ([3, [0, 1, 2], 7, 0], "sequence width=7 is not one of 1..5"),
    ({"kind": 2, "colour": 1}, "unknown Haggis play fields ['colour']"),
    ({"cards": [1]}, "needs a 'kind'"),
    ([BET, [], 0, 15], "has bet this round already"),
    ([2, [44], 0, 0], "not in player_0's hand"),
])
def test_bad_plays_are_refused_and_change_nothing(client, play, words):
    sid, st = at_my_turn(client)
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json={"play": play, "move": st["move"]})
    if "not in player_0's hand" in words and 44 in [c["id"] for c in st["hands"]["0"]]:
        pytest.skip("the dealt hand holds 10b")
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert snapshot(client, sid) == before and client.get(f"/api/games/{sid}").json() == st


def test_a_play_that_does_not_beat_the_trick_is_refused(client):
    sid, st = at_my_turn(client)
    game = engine_game(client, sid)
    hand = game.hand(0)
    low = HaggisPlay.set_of([min(c for c in hand if not is_wild(c))])
    if game.is_legal(low):
        pytest.skip("the lowest card beats the trick here")
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json={"play": low.to_list(), "move": st["move"]})
    assert r.status_code == 400 and "does not beat" in r.json()["error"] and snapshot(client, sid) == before
    r = client.post(f"/api/games/{sid}/play", json={"play": [BET, [], 0, 0], "move": st["move"]})
    assert r.status_code == 400 and "has bet this round already" in r.json()["error"]


def test_a_pass_is_refused_when_leading_and_cards_before_the_bet(client):
    sid, st = at_my_turn(client, bet=True)
    before = snapshot(client, sid)
    card = st["hands"]["0"][0]["id"]
    r = client.post(f"/api/games/{sid}/play", json={"play": [2, [card], 0, 0]})
    assert r.status_code == 400 and "first bets 0, 15 or 30" in r.json()["error"]
    client.post(f"/api/games/{sid}/play", json={"play": [BET, [], 0, 30]})
    r = client.post(f"/api/games/{sid}/play", json={"play": [PASS, [], 0, 0]})
    assert r.status_code == 400 and "the leader must play a combination" in r.json()["error"]
    assert json.loads(snapshot(client, sid))["bets"] == [30, None, None] and before != snapshot(client, sid)


@pytest.mark.parametrize("body, status, words", [
    ({"play": [PASS, [], 0, 0], "move": 0}, 409, "it is player 0's turn, not yours"),
    ([1, 2], 400, "must be a JSON object"),
    ({"play": [PASS, [], 0, 0], "colour": 1}, 400, "unknown fields ['colour']"),
    ({"play": [PASS, [], 0, 0], "move": "x"}, 400, "move='x' must be an integer"),
    ({"play": [PASS, [], 0, 0], "move": 7}, 409, "move 7 is stale"),
])
def test_out_of_turn_stale_and_malformed_requests(client, body, status, words):
    st = new_game(client, players=3, seat=2, seed=8)
    sid = st["id"]
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/play", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert snapshot(client, sid) == before


def test_stale_advance_and_the_persons_turn_are_409(client):
    st = new_game(client, players=2, seat=1, seed=8)
    sid = st["id"]
    client.post(f"/api/games/{sid}/advance", json={"move": 0})
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/advance", json={"move": 0})
    assert r.status_code == 409 and "stale" in r.json()["error"] and snapshot(client, sid) == before
    while client.get(f"/api/games/{sid}").json()["waiting_for"] != "you":
        client.post(f"/api/games/{sid}/advance")
    before = snapshot(client, sid)
    r = client.post(f"/api/games/{sid}/advance")
    assert r.status_code == 409 and "it is your turn" in r.json()["error"] and snapshot(client, sid) == before


def test_caps_on_agents_apply_to_haggis():
    capped = local_client(create_app(Limits(max_search_s_per_game=0.0, max_sessions=1), seed=0))
    st = new_game(capped, mode="watch", players=2, agents=["random"], seed=1)
    r = capped.post(f"/api/games/{st['id']}/advance")
    assert r.status_code == 429 and "thinking time" in r.json()["error"]
    r = capped.post("/api/games", json={"game": "haggis", "mode": "watch", "players": 2, "agents": ["random"]})
    assert r.status_code == 429 and "too many live games" in r.json()["error"]


def test_the_guard_covers_haggis(client):
    st = new_game(client)
    r = client.post(f"/api/games/{st['id']}/play", content=b'{"play": [0, [], 0, 0]}',
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/games", json={"game": "haggis"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and len(client.app.state.store) == 1


def test_meta_lists_haggis(client):
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    h = games["haggis"]
    assert h["title"] == "Haggis" and h["players"] == [2, 3] and h["targets"] == [250, 350]
    assert h["bets"] == [0, 15, 30]


def test_serve_game_option_opens_the_page_on_haggis(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn")
    import time

    from typer.testing import CliRunner

    from seers_cli.commands import app

    def run(self, *args, **kwargs):  # bound at once, stopped a moment later: the page's address is shown
        self.servers, self.started = [], True
        time.sleep(0.5)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    r = CliRunner().invoke(app, ["serve", "--no-open", "--port", "0", "--game", "haggis"])
    assert r.exit_code == 0 and "Haggis page: http://127.0.0.1:0/?game=haggis" in r.output, r.output


def test_the_log_is_not_sent_while_a_person_plays(client):
    st = new_game(client, players=2, seat=0, agents=["greedy"], seed=6)
    r = client.get(f"/api/games/{st['id']}/log")
    assert r.status_code == 403 and "once the game is over" in r.json()["error"]  # it names every hand
    watch = new_game(client, mode="watch", players=2, agents=["greedy"], seed=6)
    assert client.get(f"/api/games/{watch['id']}/log").status_code == 200  # a spectator may see every hand


def finished_log(seed: int = 3, players: int = 3, rounds: int = 2) -> dict:
    game = HaggisGame(HaggisConfig(n_players=players, n_rounds=rounds), seed=seed)
    agents = [make_agent("heuristic", seed=s, game="haggis") for s in range(players)]
    while not game.game_over:
        game.apply(agents[game.current].act(HaggisSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * players
    return log


def test_an_uploaded_haggis_log_replays_its_plays(client):
    log = finished_log()
    n = sum(1 for e in log["events"] if e["event"] == "play")
    r = client.post("/api/replays", content=json.dumps(log).encode())
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["game"] == "haggis" and st["mode"] == "replay" and st["steps"] == n and st["step"] == 0
    assert sorted(st["hands"]) == ["0", "1", "2"] and len(st["haggis"]) == 3  # a replay shows every card
    for step in (n, 5, 16, 17, 32, 0, n - 1):  # forwards and backwards, across the kept copies
        st = client.post(f"/api/games/{st['id']}/seek", json={"step": step}).json()
        want = HaggisGame.replay(log, upto=step)
        assert st["step"] == step and st["hand_sizes"] == want.hand_sizes() and st["totals"] == want.totals
        assert [c["id"] for c in st["hands"]["1"]] == sorted_hand(want.hand(1))  # by rank, J Q K last
    assert client.post(f"/api/games/{st['id']}/seek", json={"step": n + 1}).status_code == 400
    assert client.post(f"/api/games/{st['id']}/advance").status_code == 409  # no agent runs in a replay
    down = client.get(f"/api/games/{st['id']}/log").json()
    assert HaggisGame.replay(down).totals == HaggisGame.replay(log).totals


def edited(log: dict, change) -> bytes:
    log = json.loads(json.dumps(log))
    change(log)
    return json.dumps(log).encode()


def _plays(log: dict) -> list[dict]:
    return [e for e in log["events"] if e["event"] == "play"]


@pytest.mark.parametrize("change, words", [
    (lambda log: log.update(colour="red"), "unknown keys ['colour']"),
    (lambda log: log.pop("initial_rng_state"), "lacks the keys ['initial_rng_state']"),
    (lambda log: log.update(format=2), "format=2 is not supported"),
    (lambda log: log["config"].update(n_players=5), "config: n_players=5"),
    (lambda log: log["config"].update(n_rounds=30), "n_rounds=30 must be at most 20"),
    (lambda log: log.update(origin={"game": "haggis"}), "origin must be null"),
    (lambda log: log.update(agents=["a"]), "'agents' must be a list of 3 agent names"),
    (lambda log: _plays(log)[0].update(play=[1, [], 0]), "events[1].play [1, [], 0] must be [kind"),
    (lambda log: _plays(log)[0].update(play=[1, [], 0, 20]), "bet amount=20 is not one of"),
    (lambda log: _plays(log)[1].update(play=[0, [], 0, 0]), "illegal play"),
    (lambda log: log["events"].append({"event": "play", "play": [0, [], 0, 0]}), "a play after the end"),
    (lambda log: next(e for e in log["events"] if e["event"] == "round_end")["scores"].__setitem__(0, 999),
     "its round_end events differ"),
    (lambda log: log["events"][0]["hands"][0].reverse(), "does not replay"),
])
def test_bad_haggis_logs_are_refused_naming_the_problem(client, change, words):
    r = client.post("/api/replays", content=edited(finished_log(), change))
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.store) == 0


def test_every_public_event_has_a_line_of_history():
    from seers_web.haggis_web import history_text

    log = finished_log(seed=9, players=3, rounds=1)
    game = HaggisGame.replay(log)
    names = ["you", "greedy", "random"]
    lines = {e["event"]: [] for e in game.public_history}
    for e in game.public_history:
        lines[e["event"]].append(history_text(e, names))
    assert sorted(lines) == ["bet", "deal", "out", "pass", "play", "round_end", "trick"]
    assert lines["deal"] == ["Round 1: player 0 (you) leads"]
    assert all(t.startswith("player ") and (" bets " in t or t.endswith("makes no bet")) for t in lines["bet"])
    tricks = [e for e in game.public_history if e["event"] == "trick"]
    for e, t in zip(tricks, lines["trick"]):
        assert f"({e['points']} point{'' if e['points'] == 1 else 's'})" in t
        assert ("won by a bomb" in t) == (e["receiver"] != e["winner"])
    assert lines["round_end"][0].endswith("scores " + ", ".join(map(str, game.round_scores[0])))
