"""``seers bench env --game scout``: SCOUT's AEC env, batch API and play level measured in the same run as
the peers, printed as a Markdown table with the targets, written as strict JSON; its warm-up leaves nothing
to compile in the timed runs; bad options are refused naming them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from seers_cli import app
from seers_cli import env_cli
from seers_env.jsonio import loads_strict

runner = CliRunner()


def test_bench_env_scout_prints_and_writes_its_rows_and_targets(tmp_path):
    out = tmp_path / "scout.json"
    result = runner.invoke(app, ["bench", "env", "--game", "scout", "--seconds", "0.05", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = loads_strict(out.read_text(encoding="utf-8"))
    assert data["format"] == "seers-bench-1" and data["bench"] == "env"
    assert data["settings"]["game"] == "scout" and data["settings"]["seconds"] == 0.05
    assert data["settings"]["target_batch_steps_per_s"] == env_cli.TARGET_SCOUT_BATCH
    results = data["results"]
    assert list(results)[:3] == list(env_cli.SCOUT_ROWS)
    assert set(results) == set(env_cli.SCOUT_ROWS) | {"texas_holdem_v4", "rlcard_doudizhu"}
    aec, batch, plays = (results[name] for name in env_cli.SCOUT_ROWS)
    assert aec["steps_per_s"] > 0 and aec["aec_ratio"] == 1.0 and aec["plays_per_s"] is None
    assert batch["steps_per_s"] > 0 and batch["vector_ratio"] == 1.0
    assert batch["aec_ratio"] == aec["steps_per_s"] / batch["steps_per_s"]
    assert plays["plays_per_s"] > 0 and plays["steps_per_s"] is None and plays["plays_ratio"] == 1.0
    assert len({tuple(sorted(r)) for r in results.values()}) == 1  # every record has the same keys
    doudizhu = results["rlcard_doudizhu"]
    if doudizhu["steps_per_s"] is not None:
        assert doudizhu["aec_ratio"] == aec["steps_per_s"] / doudizhu["steps_per_s"]
        assert "Target AEC >= 5x rlcard_doudizhu:" in " ".join(result.output.split())
    lines = [x for x in result.output.splitlines() if not x.startswith("results written to")]
    assert any(x.startswith("| environment ") for x in lines) and "┃" not in result.output  # Markdown
    assert any(x.startswith("| scout_v0 ") for x in lines) and not any("seers_catalog_v0" in x for x in lines)
    assert all(x == x.rstrip() and len(x) <= 80 for x in lines), result.output
    assert "Target batch >= 200,000 steps/s:" in result.output


@pytest.mark.parametrize("args, option, words", [
    (["--game", "chess"], "--game", "'chess' is not one of seers_catalog, scout"),
    (["--game", "scout", "--profile"], "--profile", "Seers Catalog AEC env only"),
])
def test_bench_env_refuses_bad_game_options_naming_them(args, option, words):
    result = runner.invoke(app, ["bench", "env", "--seconds", "0.05", *args], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    flat = " ".join(result.output.split())
    assert f"'{option}'" in flat and words in flat and "Traceback" not in result.output


def test_check_bench_game_and_plays_row():
    assert env_cli.check_bench_game("scout") == "scout"
    assert env_cli.plays_row("scout") == "scout plays x256" and env_cli.plays_row() == env_cli.PLAYS_ROW
    with pytest.raises(ValueError, match="'go' is not measured by seers bench env; choose one of seers_catalog, scout"):
        env_cli.check_bench_game("go")


def test_scout_bench_warm_up_leaves_nothing_to_compile_in_the_timed_runs():
    from numba.core import event

    env_cli.warm_up_env_bench(0, echo=lambda line: None, game="scout")

    class Compiles(event.Listener):
        def __init__(self):
            self.names = []

        def on_start(self, ev):
            self.names.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        assert env_cli.scout_steps_per_s(0.0, 1, min_games=1) > 0
        assert env_cli.scout_vector_steps_per_s(0.0, 1, num_envs=8, min_games=8) > 0
        assert env_cli.scout_plays_per_s(0.0, 1, num_envs=8, min_games=8) > 0
    assert listener.names == []
