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
    assert max(len(line) for line in result.output.splitlines()) <= 80  # piped: wrapped as seers play
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


def test_compile_notice_says_when_numba_compiles_and_is_silent_otherwise():
    import numba

    from seers_cli.bench import compile_notice

    @numba.njit  # not cached: compiled at its first call
    def twice(x):
        return 2 * x

    said = []
    with compile_notice(said.append, "a test function"):
        assert twice(3) == 6
    assert said[0] == "compiling a test function (first run after install, a minute or more)..."
    assert said[1].startswith("compiled in ") and len(said) == 2
    said.clear()
    with compile_notice(said.append):
        assert twice(4) == 8  # compiled already
    assert said == []


def test_bench_warm_up_plays_whole_games_so_the_timed_runs_compile_nothing():
    """The warm-up of seers bench env runs every timed code path through whole games (round and game
    ends, resets), so no numba compile falls in a timed figure, even on the first run after an install
    (the one the cache lacks)."""
    from numba.core import event

    from seers_cli import env_cli
    from seers_env.seers_catalog_v0 import env

    resets = []

    def counting_env():
        made = env(n_players=4)
        reset = made.reset
        made.reset = lambda *a, **k: (resets.append(1), reset(*a, **k))[1]
        return made

    env_cli._aec_steps(counting_env, 0.0, 0, min_games=2)
    assert len(resets) == 3  # the first deal, then a reset after each of two whole games
    env_cli.warm_up_env_bench(0, echo=lambda line: None)

    class Compiles(event.Listener):
        def __init__(self):
            self.names = []

        def on_start(self, ev):
            self.names.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        env_cli.seers_steps_per_s(0.0, 1, min_games=2)
        env_cli.vector_steps_per_s(0.0, 1, num_envs=8, min_games=8)
        env_cli.vector_plays_per_s(0.0, 1, num_envs=8, min_games=8)
    assert listener.names == []
