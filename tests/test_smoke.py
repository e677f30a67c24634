"""Smoke tests: whole games at every player count and artifact setting, the demo and the engine bench."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from seers_env import Game, GameConfig
from seers_cli import app


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
@pytest.mark.parametrize("artifact_deck", [None, ()], ids=["default-deck", "no-artifacts"])
def test_random_game_terminates_and_scores(n_players, artifact_deck):
    config = GameConfig(n_players=n_players) if artifact_deck is None else GameConfig(n_players, 4, ())
    game = Game(config, seed=3)
    steps = 0
    while not game.game_over:
        game.apply(game.legal_plays()[-1])
        steps += 1
    assert len(game.round_scores) == 4 and all(len(r) == n_players for r in game.round_scores)
    assert set(game.winners()) <= set(range(n_players)) and game.winners()
    assert steps > 4


def test_demo_and_engine_bench_commands_run():
    runner = CliRunner()
    result = runner.invoke(app, ["demo", "--players", "3", "--rounds", "1", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "player 0: " in result.output and "player_" not in result.output
    result = runner.invoke(app, ["demo", "--players", "7"])
    assert result.exit_code != 0 and "2, 3, 4, 5" in result.output
    result = runner.invoke(app, ["bench", "engine", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert "kernel/s" in result.output and "plays per second" in result.output


def test_package_exposes_env_function_and_raw_env_class():
    import seers_env
    from pettingzoo import AECEnv

    from seers_env import env, raw_env

    assert callable(env) and isinstance(raw_env, type) and issubclass(raw_env, AECEnv)
    made = seers_env.env(n_players=3)
    made.reset(seed=1)
    assert made.unwrapped.metadata["name"] == "seers_catalog_v0"
    assert seers_env.env is env  # the attribute stays the function, not a submodule
