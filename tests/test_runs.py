"""``seers runs`` and train.runs: run folders of both learners, read from their JSON files only."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agents.base import RandomAgent
from agents.tournament import paired_differences, run_tournament
from seers_cli import app
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
    # self-play learner: a list of {"baseline", "tournament"}; the plays of all seats and, apart, the
    # policy's decisions it trained on
    _write(tmp_path / "a-selfplay", {"algo": "selfplay", "selfplay": {"n_players": 2}},
           {"all_decisions": 5678, "train_decisions": 1234}, [{"baseline": "heuristic", "tournament": t.to_dict()}])
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
    assert a["decisions"] == 1234 and b["decisions"] == 256 and a["players"] == b["players"] == 2
    assert a["steps"] == 5678 and b["steps"] == 256  # the runs' own counts, as before
    assert a["sizes"]["models"] == 1000 and a["size"] >= 1000
    want = paired_differences(t, "heuristic")["agents"]["learned"]
    for r in runs:
        (row,) = r["evaluation"]
        assert row["vs"] == "heuristic" and row["diff"] == want["mean_diff"] and row["verdict"] == want["verdict"]
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "| a-selfplay" in res.output and "| b-ppo" in res.output
    header = next(x for x in res.output.splitlines() if x.startswith("| run"))
    assert header.split("|")[2].strip() == "game" and header.split("|")[3].strip() == "decisions"
    assert "steps" not in header
    row = next(x for x in res.output.splitlines() if x.startswith("| a-selfplay"))
    assert row.split("|")[3].strip() == "1,234" and "5,678" not in res.output  # trained, not all seats' plays
    assert row.split("|")[2].strip() == "Seers"  # a config without a game: Seers Catalog (legend below)
    assert "Seers = Seers Catalog" in res.output
    assert max(len(x) for x in res.output.splitlines()) <= 80
    assert json.loads(CliRunner().invoke(app, ["runs", "--out", str(tmp_path), "--json"]).output) == runs


def test_is_learned_and_missing_folder(tmp_path):
    assert is_learned("ppo:runs/x/model.zip") and is_learned("learned") and is_learned("learned#2")
    assert not is_learned("heuristic") and not is_learned("ismcts:200")
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path / "nope")])
    assert res.exit_code != 0 and "no runs folder" in res.output


def test_older_and_other_run_folders_stay_readable(tmp_path):
    """A self-play summary without train_decisions, an RLlib run (env_steps), an unfinished MaskablePPO run
    (its newest checkpoint) and one without any count: listed, with '?' where nothing is recorded."""
    _write(tmp_path / "a-old-selfplay", {"algo": "selfplay", "selfplay": {"n_players": 4}},
           {"all_decisions": 9999}, [])
    _write(tmp_path / "b-rllib", {"algo": "rllib", "rllib": {"n_players": 4}}, {"env_steps": 4321}, [])
    unfinished = tmp_path / "c-ppo"
    (unfinished / "checkpoints").mkdir(parents=True)
    (unfinished / "config.json").write_text(json.dumps({"config": {"n_players": 4}}))
    for n in (128, 2048):
        (unfinished / "checkpoints" / f"ckpt_{n}.zip").write_bytes(b"z")
    runs = {r["name"]: r for r in list_runs(tmp_path)}
    assert runs["a-old-selfplay"]["decisions"] is None and runs["a-old-selfplay"]["steps"] == 9999
    assert runs["b-rllib"]["decisions"] == runs["b-rllib"]["steps"] == 4321
    assert runs["c-ppo"]["decisions"] == 2048 and not runs["c-ppo"]["finished"]
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    cells = {x.split("|")[1].strip(): x.split("|")[3].strip() for x in res.output.splitlines()
             if x.startswith("| ") and not x.startswith("| run")}
    assert cells == {"a-old-selfplay": "?", "b-rllib": "4,321", "c-ppo": "2,048 (unfinished)"}
    assert max(len(x) for x in res.output.splitlines()) <= 80


def test_runs_captions_and_wide_scores_read_as_eval_does(tmp_path):
    from seers_cli.runs import runs_cells

    t = run_tournament([Learned(), "heuristic"], games=3, seed=0, workers=1, n_rounds=1, progress=False)
    _write(tmp_path / "a", {"algo": "selfplay", "selfplay": {"n_players": 2}}, {"train_decisions": 9},
           [{"baseline": "heuristic", "tournament": t.to_dict()}])
    runs = list_runs(tmp_path)
    for wide in (False, True):
        cells = runs_cells(runs, wide)
        caption = " ".join(cells["caption"])
        assert "trainer.py" not in caption
        # one baseline in every table: headed as seers eval heads it; --wide keeps the vs column
        assert ("baseline in column vs" in caption) == wide
        assert ("vs heuristic ±95%" in cells["headers"]) == (not wide)
    col = cells["headers"].index("learned score")
    mean = t.agents["learned"].mean_score
    assert cells["rows"][0][col].startswith(f"{mean:.2f} ±")  # no plus sign, as seers eval prints it
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path), "--wide"], env={"COLUMNS": "80"})
    assert res.exit_code == 0 and f"| {mean:.2f} ±" in res.output, res.output


def test_runs_name_each_runs_game_and_fit_80_columns_with_default_run_names(tmp_path):
    """Runs of several games in one folder: the game column says which game each learned (the config's
    "game"; none recorded: Seers Catalog), a baseline differing between tables gets its own vs column,
    and the table fits 80 columns with the longest default run names (selfplay_<date>_<time>)."""
    from seers_cli.runs import runs_cells

    t = run_tournament([Learned(), "heuristic"], games=2, seed=0, workers=1, n_rounds=1, progress=False)
    g = run_tournament([Learned(), "greedy"], games=2, seed=0, workers=1, n_rounds=1, progress=False)
    names = {"haggis": "selfplay_20261202_124501", "seals": "selfplay_20261202_124502",
             "scout": "selfplay_20261202_124503", None: "selfplay_20261202_124504"}
    for game, name in names.items():
        cfg = {"n_players": 3, **({} if game is None else {"game": game})}
        _write(tmp_path / name, {"algo": "selfplay", "selfplay": cfg}, {"train_decisions": 420_000},
               [{"baseline": "heuristic", "tournament": t.to_dict()}])
    runs = list_runs(tmp_path)
    assert [r["game"] for r in runs] == ["haggis", "seals", "scout", "seers_catalog"]
    res = CliRunner().invoke(app, ["runs", "--out", str(tmp_path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    games = {x.split("|")[1].strip(): x.split("|")[2].strip() for x in res.output.splitlines()
             if x.startswith("| selfplay")}
    assert games == {names["haggis"]: "Haggis", names["seals"]: "Seals", names["scout"]: "SCOUT",
                     names[None]: "Seers"}
    assert "| vs heuristic ±95% |" in res.output and max(len(x) for x in res.output.splitlines()) <= 80
    # another baseline in one run: a vs column names each row's
    _write(tmp_path / "x-greedy", {"algo": "selfplay", "selfplay": {"n_players": 2, "game": "haggis"}},
           {"train_decisions": 1}, [{"baseline": "greedy", "tournament": g.to_dict()}])
    cells = runs_cells(list_runs(tmp_path))
    assert cells["headers"] == ["run", "game", "decisions", "size", "vs", "learned - vs ±95%"]
    assert {r[4] for r in cells["rows"]} == {"heuristic", "greedy"}
