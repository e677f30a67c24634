"""Regression tests for bad inputs found by review: each is rejected clearly and changes nothing."""

import json
import math

import numpy as np
import pytest

from agents import make_agent
from seers_env import Game, GameConfig, IllegalPlayError, raw_env
from seers_env.plays import Play


def test_apply_stores_the_engines_own_play_not_the_callers():
    game = Game(GameConfig(n_players=4), seed=1)
    play = game.legal_plays()[0]
    numpy_play = Play(*[np.int64(x) if isinstance(x, int) else tuple(map(np.int64, x)) for x in play])
    game.apply(numpy_play)
    json.dumps(game.to_dict())  # no numpy ints stored
    assert Game.replay(game.log()).to_dict() == game.to_dict()


def test_float_fields_never_reach_the_state():
    game = Game(GameConfig(n_players=4), seed=1)
    play = game.legal_plays()[0]
    before = game.to_dict()
    game.apply(play._replace(wilds=float(play.wilds)))  # same identity: the engine's play is applied
    assert game.events[-1]["play"] == play.to_dict()
    assert before != game.to_dict()
    assert Game.replay(game.log()).to_dict() == game.to_dict()


def test_unhashable_play_fields_are_an_illegal_play_and_change_nothing():
    game = Game(GameConfig(n_players=4), seed=1)
    before = game.to_dict()
    with pytest.raises(IllegalPlayError, match="malformed"):
        game.apply(game.legal_plays()[0]._replace(suited=[0]))
    assert game.to_dict() == before


def test_unknown_card_id_is_named_as_not_a_card():
    game = Game(GameConfig(n_players=4), seed=1)
    with pytest.raises(IllegalPlayError, match="not a card"):
        game.apply(Play(1, 1, 1, 26, (-1,)))


@pytest.mark.parametrize("deck", [5, [["go_first"]] * 8])
def test_artifact_deck_of_the_wrong_type_is_a_value_error(deck):
    with pytest.raises(ValueError, match="artifact"):
        GameConfig(artifact_deck=deck)


@pytest.mark.parametrize("seed", [-1, True, 1.5])
def test_bad_seeds_are_rejected(seed):
    with pytest.raises(ValueError, match="seed"):
        Game(GameConfig(), seed=seed)
    env = raw_env()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)


def test_config_must_be_a_game_config():
    with pytest.raises(TypeError, match="GameConfig"):
        Game(config={"n_players": 4})


def test_raw_env_before_reset_says_to_reset():
    env = raw_env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.state):
        with pytest.raises(RuntimeError, match="reset"):
            call()


@pytest.mark.parametrize("spec", ["ismcts:infs", "ismcts:1e999s", "ismcts:0s", "ismcts:nans"])
def test_ismcts_needs_a_finite_positive_time(spec):
    with pytest.raises(ValueError, match="ismcts"):
        make_agent(spec)


def test_observation_tells_13_from_13_and_a_half():
    from seers_env.observation import OBSERVATION_LAYOUT, observe

    offset = {name: off for name, off, _ in OBSERVATION_LAYOUT}["top_rank"]
    game = Game(GameConfig(n_players=4), seed=2)
    values = []
    for rank in (26, 27):
        game.top, game.top_seat = (1, 1, rank), (game.current + 1) % 4
        game.trick = [(game.top_seat, Play(1, 1, 1, rank, (), 1, wild_values=(13,)))]
        values.append(observe(game, game.current)[offset])
    assert values[0] < values[1] and math.isclose(values[1], 1.0)


@pytest.mark.parametrize("agents", [5, {"0": "x"}, ["a"]])
def test_replay_rejects_a_malformed_agents_field(tmp_path, agents):
    from seers_cli.play_cli import load_log

    game = Game(GameConfig(n_players=2, n_rounds=1), seed=4)
    game.apply(game.legal_plays()[0])
    log = dict(game.log(), agents=agents)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    with pytest.raises(ValueError, match="agents"):
        load_log(path)


def test_eval_rejects_an_out_file_in_a_missing_folder_before_playing(tmp_path):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["eval", "--agents", "random,random", "--games", "1", "--out",
                                      str(tmp_path / "missing" / "r.json"), "--no-progress"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "does not exist" in " ".join(result.output.split())  # rich wraps the error box
