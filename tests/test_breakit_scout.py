"""Hostile-review tests for SCOUT: damaged positions, observation bounds, web and CLI inputs.

Each test names the rule (``shared/rules/scout.md``) or convention it defends; every one failed before
its fix.
"""

from __future__ import annotations

import numpy as np
import pytest

from seers_env.scout.cards import face_by_numbers, face_pair
from seers_env.scout.game import ScoutConfig, ScoutGame
from seers_env.scout_v0 import raw_env


def _pair(top: int, bottom: int) -> list[int]:
    return list(face_pair(face_by_numbers(top, bottom)))


def _round_trip_fails(make, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        make()


# --- loaded positions the rules cannot reach -----------------------------------------------------------

def test_two_player_position_with_a_stuck_player_is_refused():
    """Section 7(b): a player with no chips and no show that beats the Active Set ends the round at once,
    so a saved position where that player is to act has no legal play; it must be refused."""
    _round_trip_fails(lambda: ScoutGame.from_position(
        ScoutConfig(n_players=2), hands=[[_pair(1, 2)], [_pair(3, 4), _pair(5, 6)]],
        active=[_pair(8, 7), _pair(7, 6)], active_owner=1, current=0, chips=[0, 3]), "7\\(b\\)")
    # with a chip left the same position is fine and has plays
    g = ScoutGame.from_position(ScoutConfig(n_players=2), hands=[[_pair(1, 2)], [_pair(3, 4), _pair(5, 6)]],
                                active=[_pair(8, 7), _pair(7, 6)], active_owner=1, current=0, chips=[1, 3])
    assert g.legal_plays()


def test_position_where_the_owner_is_to_act_is_refused():
    """Section 5: a player never scouts their own set; the turn only comes back to the owner after someone
    else showed (then the owner changes) or the round ends by 6(b)."""
    for n in (2, 3, 4):
        hands = [[_pair(1 + 2 * s, 2 + 2 * s)] for s in range(n)]
        with pytest.raises(ValueError, match="active_owner"):
            ScoutGame.from_position(ScoutConfig(n_players=n), hands=hands, active=[_pair(9, 8)],
                                    active_owner=0, current=0)


def test_two_player_round_one_without_set_aside_cards_is_refused():
    """Section 7: round 2 deals exactly the cards set aside; with none the next round would deal empty
    hands and the game would stall with no legal play."""
    with pytest.raises(ValueError, match="set_aside"):
        ScoutGame.from_position(ScoutConfig(n_players=2), hands=[[_pair(1, 2)], [_pair(3, 4)]], set_aside=[])
    # a 1-round game sets 22 cards aside too (section 7) and still loads
    one = ScoutGame(ScoutConfig(n_players=2, n_rounds=1), seed=0)
    assert len(one.set_aside) == 22
    assert ScoutGame.from_dict(one.to_dict()).to_dict() == one.to_dict()
    g = ScoutGame.from_position(ScoutConfig(n_players=2), hands=[[_pair(1, 2)], [_pair(3, 4)]],
                                set_aside=[_pair(5, 6), _pair(7, 8)])
    while not g.game_over:
        assert g.legal_plays(), g
        g.apply(g.legal_plays()[0])
    assert g.round == 1


# --- observation bounds ---------------------------------------------------------------------------------

def test_observation_stays_in_its_space_with_many_chips_and_big_scores():
    """Section 1 [ruling]: the chip supply is unlimited in 3-5 players and a saved game may hold up to
    10**6 chips and round scores; the observation must still lie in its Box."""
    g = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[[_pair(1, 2)], [_pair(3, 4)], [_pair(5, 6)]],
                                chips=[10**6, 0, 0], round=1, round_scores=[[10**6, -45, 0]])
    env = raw_env(n_players=3)
    env.reset(options={"game": g.to_dict()})
    for agent in env.agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs), agent
    assert env.state_space.contains(env.state())


# --- logs -------------------------------------------------------------------------------------------------

def _finished_log(n: int = 2, seed: int = 5) -> dict:
    g = ScoutGame(ScoutConfig(n_players=n), seed=seed)
    while not g.game_over:
        g.apply(g.legal_plays()[0])
    return g.log()


def test_replay_of_a_log_with_a_play_after_the_end_is_a_value_error():
    """A damaged log (a play appended after the game ended) is a malformed log: ``ValueError`` naming the
    play, not the engine's ``GameOverError`` (``seers replay`` printed a traceback)."""
    log = _finished_log()
    n_plays = sum(e["event"] == "play" for e in log["events"])
    log["events"].append({"event": "play", "round": 1, "seat": 0, "play": [2, 0, 0, 0, 0, 1]})
    with pytest.raises(ValueError, match=f"play {n_plays} .*after the end"):
        ScoutGame.replay(log)


def test_seers_replay_reports_a_play_after_the_end_without_a_traceback(tmp_path):
    import json

    from typer.testing import CliRunner

    from seers_cli.commands import app

    log = _finished_log()
    log["events"].append({"event": "play", "round": 1, "seat": 0, "play": [2, 0, 0, 0, 0, 1]})
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    result = CliRunner().invoke(app, ["replay", "--all", str(path)])
    assert result.exit_code == 2, result.output
    assert "after the end of the game" in result.output
    assert not isinstance(result.exception, RuntimeError)


# --- the compiled kernel's fixed arrays -------------------------------------------------------------------

@pytest.mark.parametrize("config, words", [
    ({"n_players": 3, "n_rounds": 6}, "n_rounds=6"),
    ({"n_players": 4, "max_turns_per_round": 2**70}, "max_turns_per_round=1180591620717411303424"),
])
def test_vector_env_refuses_configs_its_arrays_cannot_hold(config, words):
    """ScoutConfig allows more than 5 rounds (3-5 players) and any turn cap; the kernel stores 5 rounds and
    int64 scalars. The vector env used to accept them and crash at reset (IndexError, OverflowError)."""
    from seers_env.scout.kernel import ScoutKernel
    from seers_env.scout.vector import ScoutVectorEnv

    with pytest.raises(ValueError, match=words):
        ScoutVectorEnv(1, **config)
    with pytest.raises(ValueError, match=words):
        ScoutKernel(1, ScoutConfig(**config))
    ScoutVectorEnv(1, n_players=config["n_players"])  # the rules' own configs are fine


# --- agents given a view they cannot act on ------------------------------------------------------------

def _over(game):
    g = game.clone()
    while not g.game_over:
        g.apply(g.legal_plays()[0])
    return g


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "ismcts:20"])
def test_scout_agents_refuse_a_view_whose_seat_is_not_to_act(spec):
    """random said "high <= 0" and ISMCTS raised RuntimeError ("chose a play that is not legal") or
    "max() arg is an empty sequence"; every agent now says the seat is not to act (ValueError)."""
    from agents import make_agent
    from seers_env.scout.view import ScoutSeatView

    game = ScoutGame(ScoutConfig(n_players=3), seed=1)
    before = game.to_dict()
    agent = make_agent(spec, seed=0, game="scout")
    with pytest.raises(ValueError, match="seat 1 is not to act"):
        agent.act(ScoutSeatView(game, 1))
    with pytest.raises(ValueError, match="is not to act"):
        agent.act(ScoutSeatView(_over(game), 0))
    assert game.to_dict() == before
    assert agent.act(ScoutSeatView(game, 0)) in game.legal_plays()


@pytest.mark.parametrize("spec", ["greedy", "heuristic"])
def test_a_seers_catalog_agent_refuses_a_scout_view(spec):
    """A Seers Catalog greedy/heuristic agent given a SCOUT view failed with AttributeError ('top')."""
    from agents import make_agent
    from seers_env.scout.view import ScoutSeatView

    game = ScoutGame(ScoutConfig(n_players=3), seed=1)
    with pytest.raises(TypeError, match="plays 'seers_catalog'.*'scout'"):
        make_agent(spec, seed=0).act(ScoutSeatView(game, 0))


# --- deeply nested saved games --------------------------------------------------------------------------

def _nested(depth: int) -> list:
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("field", ["events", "public_history"])
def test_deeply_nested_events_are_a_value_error_not_a_recursion_error(field):
    """``from_dict`` copied the logs with ``json.dumps``/``copy.deepcopy``: a hand-made dict with data
    nested 100000 deep raised RecursionError (and 600 deep passed json but not deepcopy)."""
    for depth in (100_000, 600):
        d = ScoutGame(ScoutConfig(n_players=3), seed=1).to_dict()
        d[field] = d[field] + [{"event": "note", "x": _nested(depth)}]
        with pytest.raises(ValueError, match="nest more than"):
            ScoutGame.from_dict(d)
    env = raw_env(n_players=3)
    with pytest.raises(ValueError, match="nest more than"):
        env.reset(options={"game": d})
    assert env.game is None
    # the engine's own logs load
    g = ScoutGame(ScoutConfig(n_players=2), seed=0)
    while not g.game_over:
        g.apply(g.legal_plays()[0])
    assert ScoutGame.from_dict(g.to_dict()).to_dict() == g.to_dict()


@pytest.mark.parametrize("play", [None, (2, 0, 0, 0, 0, 1), "show"])
def test_describe_of_something_not_a_play_is_a_type_error(play):
    """``ScoutGame.describe`` raised AttributeError ('tuple' object has no attribute 'describe')."""
    with pytest.raises(TypeError, match="describe\\(\\) takes a ScoutPlay"):
        ScoutGame(ScoutConfig(n_players=3), seed=0).describe(play)


def test_rng_state_naming_the_base_bit_generator_is_a_value_error():
    """``{'bit_generator': 'BitGenerator'}`` raised NotImplementedError (numpy's base class)."""
    d = ScoutGame(ScoutConfig(n_players=3), seed=1).to_dict()
    for field in ("rng_state", "initial_rng_state"):
        bad = dict(d, **{field: {"bit_generator": "BitGenerator"}})
        with pytest.raises(ValueError, match=f"{field}\\['bit_generator'\\]='BitGenerator'"):
            ScoutGame.from_dict(bad)


# --- the web server ------------------------------------------------------------------------------------

def test_web_scout_game_with_an_allowed_seers_model_is_a_400_not_a_server_error():
    """``seers serve --agent learned:<Seers model>``: a page asking for that agent at a SCOUT table made
    ``make_agent`` raise ModelConfigError inside the request (a 500 with a traceback); now a 400 naming the
    problem, and no game is made."""
    pytest.importorskip("fastapi")
    pytest.importorskip("torch")
    from pathlib import Path

    from fastapi.testclient import TestClient

    from seers_web.app import create_app
    from seers_web.sessions import Limits

    model = Path(__file__).resolve().parent.parent / "train" / "models" / "learned_4p.pt"
    if not model.exists():
        pytest.skip("the shipped Seers Catalog model is not in this checkout")
    spec = f"learned:{model}"
    app = create_app(Limits(max_sessions=4, allowed_specs=(spec,)), seed=0)
    client = TestClient(app, base_url="http://127.0.0.1:8000", headers={"Content-Type": "application/json"},
                        raise_server_exceptions=False)
    r = client.post("/api/games", json={"game": "scout", "mode": "watch", "players": 4, "agents": [spec],
                                        "seed": 1})
    assert r.status_code == 400, r.text
    assert "trained for Seers Catalog" in r.json()["error"] and str(model) not in r.json()["error"].split(".")[0]
    assert client.get("/api/games").json() == [] or len(client.app.state.store) == 0


# --- the new load checks never refuse a position the engine reaches --------------------------------------

@pytest.mark.parametrize("n, rounds, may_stop", [(2, 1, False), (2, 2, True), (2, 2, False), (3, 1, False),
                                                 (4, 1, False), (5, 1, False)])
def test_every_position_of_engine_games_loads(n, rounds, may_stop):
    rng = np.random.default_rng(n * 10 + rounds)
    config = ScoutConfig(n_players=n, n_rounds=rounds, two_player_may_stop=may_stop)
    for seed in range(3):
        g = ScoutGame(config, seed=seed)
        while not g.game_over:
            d = g.to_dict()
            assert ScoutGame.from_dict(d).to_dict() == d
            legal = g.legal_plays()
            g.apply(legal[int(rng.integers(len(legal)))])
        assert ScoutGame.from_dict(g.to_dict()).to_dict() == g.to_dict()
