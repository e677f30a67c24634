"""While a person plays, neither the seed nor the log (which deal the other hands) leaves the server.

The page refuses ``reveal`` in an unfinished play game; the seed and the downloaded log would give the
same hands, so they wait for the game's end too (watch games show every hand anyway).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from fastapi.testclient import TestClient  # noqa: E402

from agents import make_agent  # noqa: E402
from seers_env.games import game_spec  # noqa: E402
from seers_web.app import create_app  # noqa: E402
from seers_web.sessions import Limits  # noqa: E402


@pytest.fixture
def client():
    app = create_app(Limits(max_sessions=6), seed=0)
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"})


PLAY = {"seers_catalog": {"mode": "play", "players": 3, "seat": 1, "agents": ["random"], "seed": 4, "rounds": 1},
        "scout": {"game": "scout", "mode": "play", "players": 3, "seat": 1, "agents": ["random"], "seed": 4}}


@pytest.mark.parametrize("game", sorted(PLAY))
def test_play_game_keeps_seed_and_log_until_the_end(client, game):
    r = client.post("/api/games", json=PLAY[game])
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["seed"] is None and st["waiting_for"] != "over"
    down = client.get(f"/api/games/{st['id']}/log")
    assert down.status_code == 403 and "other hands" in down.text
    assert client.get(f"/api/games/{st['id']}").json()["seed"] is None
    session = client.app.state.store._sessions[st["id"]]
    view, agent = game_spec(game).view_class(), make_agent("random", seed=1, game=game)
    while not session.game.game_over:  # play the game out on the server's copy
        session.game.apply(agent.act(view(session.game, session.game.current)))
    st = client.get(f"/api/games/{st['id']}").json()
    assert st["seed"] == 4
    assert client.get(f"/api/games/{st['id']}/log").status_code == 200


@pytest.mark.parametrize("game", sorted(PLAY))
def test_watch_game_gives_its_log(client, game):
    body = {**PLAY[game], "mode": "watch", "agents": ["random", "random", "random"]}
    body.pop("seat")
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    st = r.json()
    assert st["seed"] == 4
    assert client.get(f"/api/games/{st['id']}/log").status_code == 200
