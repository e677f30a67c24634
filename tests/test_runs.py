"""``seers runs`` and train.runs: run folders of both learners, read from their JSON files only."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agents.base import RandomAgent
from agents.tournament import paired_differences, run_tournament
from seers_env.cli import app
from train.runs import is_learned, list_runs


class Learned(RandomAgent):
    name = "learned"


def _write(folder, config, summary, evaluation):
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "summary.json").write_text(json.dumps(summary))
    (folder / "eval.json").write_text(json.dumps(evaluation))
    (folder / "model.pt").write_bytes(b"x" * 1000)


def test_both_run_formats_are_listed_with_the_paired_difference(tmp_path):
    t = run_tournament([Learned(), "heuristic"], games=3, seed=0, workers=1, n_rounds=1, progress=False)
    # self-play learner: a list of {"baseline", "tournament"}; decisions instead of timesteps
    _write(tmp_path / "a-selfplay", {"algo": "selfplay", "selfplay": {"n_players": 2}},
           {"all_decisions": 1234}, [{"baseline": "heuristic", "tournament": t.to_dict()}])
    # MaskablePPO: one tournament dict; a learned agent labelled ppo:<path>
    p = t.to_dict()
    p["labels"] = ["ppo:runs/x/model.zip", "heuristic"]
    p["agents"] = {"ppo:runs/x/model.zip": p["agents"]["learned"], "heuristic": p["agents"]["heuristic"]}
    for g in p["games"]:
        g["seats"] = ["ppo:runs/x/model.zip" if s == "learned" else s for s in g["seats"]]
    _write(tmp_path / "b-ppo", {"config": {"n_players": 2}}, {"timesteps": 256}, p)
    (tmp_path / "not-a-run").mkdir()
    runs = list_runs(tmp_path)
    assert [r["name"] for r in runs] == ["a-selfplay", "b-ppo"]
    a, b = runs
    assert a["steps"] == 1234 and b["steps"] == 256 and a["players"] == b["players"] == 2
    assert a["sizes"]["models"] == 1000 and a["size"] >= 1000
    want = paired_differences(t, "heuristic")["agents"]["learned"]
    for r in runs:
        (row,) = r["evaluation"]
        assert row["vs"] == "heuristic" and row["diff"] == want["mean_diff"] and row["verdict"] == want["verdict"]
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "| a-selfplay" in res.output and "| b-ppo" in res.output
    assert max(len(x) for x in res.output.splitlines()) <= 80
    assert json.loads(CliRunner().invoke(app, ["runs", "--out", str(tmp_path), "--json"]).output) == runs


def test_is_learned_and_missing_folder(tmp_path):
    assert is_learned("ppo:runs/x/model.zip") and is_learned("learned") and is_learned("learned#2")
    assert not is_learned("heuristic") and not is_learned("ismcts:200")
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path / "nope")])
    assert res.exit_code != 0 and "no runs folder" in res.output
