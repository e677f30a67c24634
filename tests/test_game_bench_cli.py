"""``seers bench env --game haggis`` and ``--game seals`` (:mod:`seers_cli.game_bench`): the AEC env at each
player count and the batch API beside the peers in one run, printed as a Markdown table with the ratios and
the target, written as strict JSON; the Haggis profile splits the step."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from seers_cli import app, game_bench
from seers_env.jsonio import loads_strict

runner = CliRunner()


@pytest.mark.parametrize("game, players, target", [("haggis", [2, 3], 3.0), ("seals", [2, 3, 4], 1.5)])
def test_bench_env_game_prints_and_writes_its_rows_and_target(tmp_path, game, players, target):
    spec = game_bench.GAMES[game]
    out = tmp_path / f"{game}.json"
    result = runner.invoke(app, ["bench", "env", "--game", game, "--seconds", "0.06", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = loads_strict(out.read_text(encoding="utf-8"))
    assert data["format"] == "seers-bench-1" and data["bench"] == "env"
    settings = data["settings"]
    assert settings["game"] == game and settings["players"] == players == list(spec.players)
    assert settings["target_vs_rlcard_doudizhu"] == spec.target_vs_doudizhu == target
    assert settings["num_envs"] == 256 and settings["vector_players"] == 3
    results = data["results"]
    assert list(results) == [*spec.aec_rows.values(), spec.vector_row, *game_bench.PEER_ROWS]
    assert spec.vector_row == f"{game.capitalize()}VectorEnv x256"
    ratio_keys = [f"ratio_{n}p" for n in players]
    assert all(list(v) == ["steps_per_s", *ratio_keys, "note"] for v in results.values())
    aec = {n: results[f"{spec.env_name}, {n} players"] for n in players}
    for n in players:
        assert aec[n]["steps_per_s"] > 0 and aec[n][f"ratio_{n}p"] == 1.0
    assert aec[3]["ratio_2p"] == aec[2]["steps_per_s"] / aec[3]["steps_per_s"]
    batch = results[spec.vector_row]
    assert batch["steps_per_s"] > 0 and batch["ratio_3p"] == aec[3]["steps_per_s"] / batch["steps_per_s"]
    doudizhu = results["rlcard_doudizhu"]
    flat = " ".join(result.output.split())
    assert f"{spec.vector_row}: step() of 256 games at 3 players" in flat
    if doudizhu["steps_per_s"] is not None:
        assert doudizhu["ratio_3p"] == aec[3]["steps_per_s"] / doudizhu["steps_per_s"]
        for n in players:
            assert f"Target AEC >= {target:g}x rlcard_doudizhu at {n} players:" in flat
        assert (f"({batch['steps_per_s'] / aec[3]['steps_per_s']:.2f}x its AEC env per step, "
                f"{batch['steps_per_s'] / doudizhu['steps_per_s']:.2f}x rlcard_doudizhu)") in flat
    else:
        assert f"({batch['steps_per_s'] / aec[3]['steps_per_s']:.2f}x its AEC env per step)" in flat
    assert result.stderr.startswith("Measuring ")  # the table alone on stdout
    lines = [x for x in result.stdout.splitlines() if not x.startswith("results written to")]
    assert lines[0].startswith(f"{spec.title} environment random play (0.06 s each, load ")
    header = next(x for x in lines if x.startswith("| environment "))
    assert header.split("|")[3:-1] == [f" {n}p/this " for n in players]
    assert any(x.startswith(f"| {spec.env_name}, 2 players ") for x in lines) and "┃" not in result.output
    assert all(x == x.rstrip() and len(x) <= 80 for x in lines), result.output


def test_bench_env_seals_says_how_long_and_refuses_profile(monkeypatch):
    monkeypatch.setattr(game_bench, "bench_game", lambda *a, **k: print("measured"))
    result = runner.invoke(app, ["bench", "env", "--game", "seals", "--seconds", "2"])
    assert result.exit_code == 0, result.output
    notice = " ".join(result.stderr.split())
    assert "Measuring 6 environments (seals_v0 at 2, 3 and 4 players, SealsVectorEnv x256," in notice
    assert "about 12 s plus start-up" in notice and result.stdout.strip() == "measured"
    refused = runner.invoke(app, ["bench", "env", "--game", "seals", "--profile"])
    assert refused.exit_code == 2 and "'--profile'" in refused.output
    monkeypatch.undo()
    with pytest.raises(ValueError, match="not available for seals"):
        game_bench.bench_game(game_bench.SEALS, 0.01, 0, profile=True)


def test_bench_env_help_names_seals_and_its_target():
    from seers_cli import env_cli

    assert "seals" in env_cli.BENCH_GAMES and env_cli.check_bench_game("seals") == "seals"
    flat = " ".join(runner.invoke(app, ["bench", "env", "--help"], env={"COLUMNS": "80"}).output.split())
    assert "haggis or seals" in flat and "not yet" not in flat
    assert f"seals_v0 at least {game_bench.TARGET_SEALS_VS_DOUDIZHU:g}x" in flat
    assert f"haggis_v0 at least {game_bench.TARGET_HAGGIS_VS_DOUDIZHU:g}x" in flat
    with pytest.raises(ValueError, match="choose one of haggis, seals"):
        game_bench.game_spec("scout")


def test_random_legal_rows_draws_only_legal_actions_uniformly():
    masks = np.zeros((3, 6), dtype=np.int8)
    masks[0, [1, 4]] = 1
    masks[1, 5] = 1
    masks[2, :] = 1
    rng = np.random.default_rng(0)
    drawn = np.array([game_bench.random_legal_rows(masks, rng) for _ in range(3000)])
    assert set(drawn[:, 0]) == {1, 4} and set(drawn[:, 1]) == {5} and set(drawn[:, 2]) == set(range(6))
    assert abs((drawn[:, 0] == 1).mean() - 0.5) < 0.05


def test_batch_steps_carry_their_games_on(monkeypatch):
    batch = game_bench.BatchSteps(game_bench.SEALS, seed=1, num_envs=4)
    monkeypatch.setattr(batch._venv, "reset", lambda *a, **k: pytest.fail("a turn reset the games"))
    before = batch._venv.games[0].to_dict()
    assert batch.steps_per_s(0.0) > 0 and batch.steps_per_s(0.0) > 0
    assert batch._venv.games[0].to_dict() != before


def test_bench_env_haggis_profile_parts_cover_the_step():
    parts = game_bench.haggis_profile_parts(steps=300, seed=2)
    assert parts["steps"] == 300 and parts["total"] > 0
    step = parts["env step (raw_env.step, all of it)"]
    assert 0 < parts["decision: codes, mask, choose"] < step and 0 < parts["HaggisGame.apply"] < step
    with pytest.raises(ValueError, match="not available for seals"):
        game_bench.aec_profile_parts(game_bench.SEALS, steps=10)


def test_child_batch_steps_measure_in_a_child_and_end_it():
    with game_bench.ChildBatchSteps(game_bench.SEALS, seed=3) as batch:
        assert batch.steps_per_s(0.01) > 0 and batch.steps_per_s(0.01) > 0
        child = batch._child
    assert child.poll() == 0


def test_run_env_bench_hands_the_python_engine_games_to_game_bench():
    from seers_cli import env_cli

    r = env_cli.run_env_bench(0.01, 4, echo=lambda line: None, game="seals")
    assert list(r) == list(game_bench.SEALS.rows) and r["seals_v0, 4 players"] > 0


@pytest.mark.parametrize("game", ["haggis", "seals"])
def test_bench_env_game_json_to_a_folder_is_refused_before_measuring(tmp_path, monkeypatch, game):
    """``--json`` naming a folder was found only after the whole run, as an IsADirectoryError traceback; a
    write that fails at the end (the folder gone meanwhile) is a clear error too, not a traceback."""
    monkeypatch.setattr(game_bench, "run_game_bench", lambda *a, **k: pytest.fail("measured before refusing"))
    result = runner.invoke(app, ["bench", "env", "--game", game, "--seconds", "0.3", "--json", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in " ".join(result.output.split()), result.output
    from seers_cli import bench

    def gone(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("seers_env.jsonio.write_json", gone)
    with pytest.raises(bench.typer.BadParameter, match="cannot write it \\(Permission denied\\)"):
        bench.write_bench_json(str(tmp_path / "x.json"), "env", {}, {})
