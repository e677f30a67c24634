"""Every file the project writes is strict JSON (RFC 8259: no NaN or Infinity), parsed here strictly."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from agents.tournament import TournamentResult, mean_ci, run_tournament
from seers_cli import app
from seers_env.jsonio import dumps, loads_strict, null_non_finite, write_json

runner = CliRunner()


def _strict(path) -> object:
    return loads_strict(path.read_text(encoding="utf-8"))


def test_strict_writer_refuses_non_finite_and_says_where(tmp_path):
    with pytest.raises(ValueError, match=r"\$\.a\.b\[1\] is NaN or infinite"):
        write_json(tmp_path / "x.json", {"a": {"b": [1.0, math.inf]}})
    assert not (tmp_path / "x.json").exists()
    with pytest.raises(ValueError):
        loads_strict('{"a": -Infinity}')
    copy, places = null_non_finite({"a": [1.0, math.nan], "b": (math.inf,)})
    assert copy == {"a": [1.0, None], "b": [None]} and places == ["$.a[1]", "$.b[0]"]
    assert loads_strict(dumps(copy)) == copy


def test_one_deal_tournament_writes_null_interval_with_reason(tmp_path):
    result = run_tournament(["heuristic", "random"], games=1, workers=1, progress=False)
    path = tmp_path / "r.json"
    result.to_json(path)
    data = _strict(path)
    for stats in data["agents"].values():
        assert stats["score_ci"] is None and stats["round_score_ci"] is None
        assert "one deal" in stats["notes"]["score_ci"]
        assert all(math.isfinite(x) for x in stats["win_ci"])
    back = TournamentResult.from_json(path)
    assert back.agents["heuristic"].score_ci is None
    assert back.agents["heuristic"].mean_score == result.agents["heuristic"].mean_score
    from rich.console import Console

    console = Console(width=80, record=True)
    console.print(result.table())
    text = console.export_text()
    assert "n/a" in text and "inf" not in text
    assert mean_ci([3.0]) == (3.0, None)


def test_older_files_with_infinite_intervals_still_load(tmp_path):
    result = run_tournament(["random", "random"], games=1, workers=1, progress=False)
    d = result.to_dict()
    for stats in d["agents"].values():
        stats["score_ci"] = [-math.inf, math.inf]
        del stats["notes"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(d))
    assert TournamentResult.from_json(path).agents["random"].score_ci is None


def test_eval_out_is_strict_json(tmp_path):
    out = tmp_path / "eval.json"
    result = runner.invoke(app, ["eval", "--agents", "heuristic,random", "--games", "1", "--workers", "1",
                                 "--rounds", "1", "--no-progress", "--baseline", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = _strict(out)
    assert data["format"] == "seers-tournament-1" and data["paired"]["agents"]["heuristic"]["ci"] is None
    assert "inf" not in result.output


def test_play_save_log_is_strict_json(tmp_path):
    save = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--players", "2", "--agents", "random", "--rounds", "1",
                                 "--save", str(save)], input="q\n")
    assert save.is_file(), result.output
    assert _strict(save)["agents"]


def test_training_files_are_strict_json(tmp_path):
    from train.trainer import TrainConfig, train

    config = TrainConfig(n_players=2, n_rounds=1, total_timesteps=64, n_envs=1, n_steps=32, batch_size=32,
                         n_epochs=1, net_arch=(8,), eval_every=32, eval_games=1, final_eval_games=1,
                         eval_specs=("random",), opponents="random:1", snapshot_every=32, checkpoint_every=32,
                         imitation_samples=40, imitation_epochs=1, workers=1, out=str(tmp_path), name="j")
    result = train(config, progress=False, echo=lambda s: None)
    run_dir = result.run_dir
    written = sorted(run_dir.rglob("*.json"))
    names = {p.name for p in written}
    assert {"config.json", "summary.json", "eval.json"} <= names and any(n.startswith("eval_") for n in names)
    for path in written:
        _strict(path)
    evaluation = _strict(run_dir / "eval.json")
    assert all(s["score_ci"] is None for s in evaluation["agents"].values())  # one deal: undefined


@pytest.mark.parametrize("bench", ["engine", "env"])
def test_bench_json_is_strict_and_machine_readable(tmp_path, bench):
    out = tmp_path / f"{bench}.json"
    result = runner.invoke(app, ["bench", bench, "--seconds", "0.05", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = _strict(out)
    assert data["format"] == "seers-bench-1" and data["bench"] == bench and data["settings"]["seconds"] == 0.05
    lines = [x for x in result.output.splitlines() if not x.startswith("results written to")]
    assert "┃" not in result.output  # not a terminal: Markdown, like seers eval / train / runs
    assert all(x == x.rstrip() and len(x) <= 80 for x in lines), result.output
    if bench == "engine":
        assert any(x.startswith("| players ") for x in lines)
        assert [r["players"] for r in data["results"]["throughput"]] == [2, 3, 4, 5]
        assert all(r["plays_per_s"] > 0 for r in data["results"]["throughput"])
        assert data["results"]["cold_start_s"] > 0 and data["results"]["cold_start_empty_cache_s"] is None
    else:
        # not a terminal: a Markdown table and wrapped notes, like seers eval / train / runs
        lines = [x for x in result.output.splitlines() if not x.startswith("results written to")]
        assert any(x.startswith("| environment ") for x in lines) and "┃" not in result.output
        assert all(x == x.rstrip() and len(x) <= 80 for x in lines), result.output
        results = data["results"]
        assert results["seers_catalog_v0"]["steps_per_s"] > 0
        plays = results["seers plays x256"]  # the play-level batch API: plays/s, with its ratios
        assert plays["plays_per_s"] > 0 and plays["steps_per_s"] is None and plays["plays_ratio"] == 1.0
        assert len({tuple(sorted(r)) for r in results.values()}) == 1  # every record has the same keys
        doudizhu = results["rlcard_doudizhu"]
        if doudizhu["steps_per_s"] is not None:
            assert doudizhu["plays_ratio"] == plays["plays_per_s"] / doudizhu["steps_per_s"]


def test_bench_train_json(tmp_path, monkeypatch, shipped_only):
    """The training bench's JSON side (the timed training itself is replaced by a stand-in)."""
    import train.bench

    calls = []

    def fake(vec, n, seconds, players, opponents):
        calls.append((vec, n))
        return {"steps": 100 * n, "steps_per_s": 10.0 * n, "seconds": seconds}

    def fake_selfplay(seconds, players, actors, init_model):
        return {"decisions": 1000 * actors, "trained": 400 * actors, "seconds": seconds,
                "decisions_per_s": 100.0 * actors, "trained_per_s": 40.0 * actors}

    warmed = []
    monkeypatch.setattr(train.bench, "training_throughput", fake)
    monkeypatch.setattr(train.bench, "selfplay_throughput", fake_selfplay)
    # the untimed warm-up runs first, for the algorithm timed
    monkeypatch.setattr(train.bench, "warm_up", lambda players, algo, *rest: warmed.append((algo, len(calls))))
    out = tmp_path / "train.json"
    result = runner.invoke(app, ["bench", "train", "--seconds", "1", "--algo", "maskable-ppo", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert warmed == [("maskable-ppo", 0)]
    data = _strict(out)
    assert [(r["vec_env"], r["n_envs"]) for r in data["results"]] == calls
    assert data["results"][0]["ratio"] == 1.0 and data["results"][1]["ratio"] == 0.25
    both = tmp_path / "both.json"
    result = runner.invoke(app, ["bench", "train", "--seconds", "1", "--model", "", "--json", str(both)])
    assert result.exit_code == 0, result.output
    assert "trained/s" in next(x for x in result.output.splitlines() if x.startswith("| learner"))
    rows = _strict(both)["results"]
    assert [r["learner"] for r in rows] == ["selfplay", "selfplay", "maskable_ppo", "maskable_ppo"]
    assert rows[1]["ratio"] == 2.0  # trained decisions/s against the first row
    actor_calls = []

    def fake_actor(seconds, players, kernel, init_model):
        actor_calls.append((kernel, init_model))
        return {"decisions": 100, "trained": 40, "seconds": seconds, "decisions_per_s": 100.0 * (1 + kernel),
                "trained_per_s": 40.0}

    monkeypatch.setattr(train.bench, "selfplay_actor_throughput", fake_actor)
    from train.scoring_policy import shipped_model_path

    actor = tmp_path / "actor.json"
    result = runner.invoke(app, ["bench", "train", "--seconds", "1", "--algo", "actor", "--model", "shipped",
                                 "--json", str(actor)])
    assert result.exit_code == 0, result.output
    header = next(x for x in result.output.splitlines() if x.startswith("| learner"))
    assert "samples/s" in header and "trained/s" not in header and "Nothing is trained" in result.output
    assert actor_calls == [(False, shipped_model_path(4)), (True, shipped_model_path(4))]  # --model honoured
    data = _strict(actor)
    assert data["settings"]["model"] == shipped_model_path(4) and data["results"][1]["ratio"] == 2.0
    shipped_only(4)  # a folder of shipped models without a 5-player one
    for bad, says in ((["--model", "shipped", "--players", "5"], "no shipped model"),
                      (["--model", str(tmp_path / "none.pt")], "no such file")):
        refused = runner.invoke(app, ["bench", "train", "--seconds", "1", "--algo", "actor", *bad])
        assert refused.exit_code != 0 and says in refused.output
    assert len(actor_calls) == 2  # refused before any run
    missing = runner.invoke(app, ["bench", "engine", "--seconds", "1", "--json", str(tmp_path / "no" / "x.json")])
    assert missing.exit_code != 0 and "does not exist" in missing.output
