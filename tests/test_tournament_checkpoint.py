"""Tournament checkpoints: a stopped run resumes where it stopped and ends as an uninterrupted run."""

import json
import re

import pytest
from typer.testing import CliRunner

from agents import tournament
from agents.tournament import CHECKPOINT_FORMAT, run_tournament
from seers_cli import app

SPECS = ["heuristic", "greedy", "random"]
KW = dict(seed=7, n_rounds=1, progress=False, workers=1)


def _without_cpu(result) -> dict:
    d = result.to_dict()
    d.pop("cpu_ms_per_choice")
    return d


def test_a_stopped_run_resumes_to_the_uninterrupted_result(tmp_path, monkeypatch, capsys):
    whole = _without_cpu(run_tournament(SPECS, games=4, **KW))
    path = tmp_path / "run.jsonl"
    played = []
    real = tournament.play_deal

    def stop_after_two(*args, **kwargs):
        if len(played) == 2:
            raise KeyboardInterrupt  # the run is stopped during its third deal
        played.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(tournament, "play_deal", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(SPECS, games=4, checkpoint=path, **dict(KW, progress=True))
    assert f"stopped: 2 of 4 deals kept in {path}; the same command resumes" in capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == CHECKPOINT_FORMAT
    assert [json.loads(x)["deal"] for x in lines[1:]] == [0, 1]
    played.clear()
    monkeypatch.setattr(tournament, "play_deal", lambda *a, **k: (played.append(a[1]), real(*a, **k))[1])
    assert _without_cpu(run_tournament(SPECS, games=4, checkpoint=path, **KW)) == whole
    assert played == [2, 3]  # only the deals not in the file were played
    played.clear()
    assert _without_cpu(run_tournament(SPECS, games=4, checkpoint=path, **KW)) == whole
    assert played == []  # all four were kept
    fewer = _without_cpu(run_tournament(SPECS, games=3, checkpoint=path, **KW))
    assert played == [] and fewer == _without_cpu(run_tournament(SPECS, games=3, **KW))


def test_a_line_cut_short_is_dropped_and_replayed(tmp_path):
    path = tmp_path / "run.jsonl"
    whole = _without_cpu(run_tournament(SPECS, games=3, checkpoint=path, **KW))
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + lines[2][:40])  # the third line (deal 1) half written
    assert _without_cpu(run_tournament(SPECS, games=3, checkpoint=path, **KW)) == whole
    assert sorted(json.loads(x)["deal"] for x in path.read_text().splitlines()[1:]) == [0, 1, 2]


@pytest.mark.parametrize("change, named", [
    (dict(seed=8), "seed 7 (this run: 8)"),
    (dict(n_rounds=2), "rounds 1 (this run: 2)"),
    (dict(specs=["heuristic", "random", "greedy"]), "agents ['heuristic', 'greedy', 'random']"),
])
def test_a_checkpoint_of_other_settings_is_refused_and_kept(tmp_path, change, named):
    path = tmp_path / "run.jsonl"
    run_tournament(SPECS, games=2, checkpoint=path, **KW)
    before = path.read_bytes()
    kw = dict(KW, **{k: v for k, v in change.items() if k != "specs"})
    with pytest.raises(ValueError, match="another tournament") as err:
        run_tournament(change.get("specs", SPECS), games=2, checkpoint=path, **kw)
    assert named in str(err.value)
    assert path.read_bytes() == before


def test_damaged_and_foreign_files_are_refused_unchanged(tmp_path):
    path = tmp_path / "run.jsonl"
    run_tournament(SPECS, games=2, checkpoint=path, **KW)
    lines = path.read_text().splitlines(keepends=True)
    cases = {
        "middle line garbage": (lines[0] + "{not json\n" + lines[2], "line 2 is not readable JSON"),
        "a record of another deal": (lines[0] + lines[1].replace('"deal": 0, "records"', '"deal": 1, "records"')
                                     + lines[2], "is deal 0 rotation 0, expected deal 1"),
        "a deal twice": (lines[0] + lines[1] + lines[1], "deal 0 is there twice"),
        "scores not numbers": (lines[0] + lines[1].replace('"totals": [', '"totals": ["x", '),
                               "totals must be 3 integers"),
        "not a checkpoint": ('{\n "format": "seers-tournament-1"\n}\n', "is not a tournament checkpoint"),
        "another format": ('{"format": "other"}\n', "is not a tournament checkpoint"),
        "one line cut short": ('{"format": "seers-tournament-checkpoint-1", "ga', "is not a tournament checkpoint"),
        "not the start of a deal": (lines[0] + lines[1] + "hello, not json", "line 3 is not readable JSON"),
        "rotation a boolean": (lines[0] + lines[1].replace('"rotation": 1,', '"rotation": true,'),
                               "rotation True, expected deal 0 rotation 1"),
        "seats as floats": (lines[0] + lines[1].replace('"agents": [2, 0, 1]', '"agents": [2.0, 0, 1]'),
                            "agents must be the integers"),
        "rounds missing": (lines[0] + lines[1].replace('"round_scores": [[', '"round_scores": [[0, 0, 0], ['),
                           "round_scores must be 1 lists"),
        "a total not the sum": (lines[0] + lines[1].replace('"totals": [', '"totals": [1000, '),
                                "totals must be 3 integers"),
        "no winner": (lines[0] + re.sub(r'"winners": \[[0-9, ]*\]', '"winners": []', lines[1], count=1),
                      "winners must be one or more"),
        "seed a boolean": (lines[0].replace('"seed": 7', '"seed": 7.0') + lines[1], "seed 7.0 (this run: 7)"),
        "a header key more": (lines[0].replace('{"format"', '{"extra": 1, "format"') + lines[1],
                              "must have exactly the keys"),
    }
    for name, (text, message) in cases.items():
        path.write_text(text)
        with pytest.raises(ValueError, match=re.escape(message)):
            run_tournament(SPECS, games=2, checkpoint=path, **KW)
        assert path.read_text() == text, name


def test_a_checkpoint_needs_spec_strings(tmp_path):
    from agents.greedy import GreedyAgent

    with pytest.raises(ValueError, match="needs agent spec strings"):
        run_tournament([GreedyAgent(), "random"], games=1, checkpoint=tmp_path / "x.jsonl", **KW)
    assert not (tmp_path / "x.jsonl").exists()


def test_seers_eval_resumes_from_its_checkpoint(tmp_path):
    ckpt, out = tmp_path / "eval.ckpt.jsonl", tmp_path / "eval.json"
    args = ["eval", "--agents", "greedy,random", "--games", "3", "--rounds", "1", "--workers", "1",
            "--no-progress", "--seed", "3", "--checkpoint", str(ckpt), "--out", str(out)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert len(ckpt.read_text().splitlines()) == 4
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and "resuming: 3 of 3 deals from" in CliRunner().invoke(
        app, [a for a in args if a != "--no-progress"]).output
    other = CliRunner().invoke(app, [a if a != "3" else "4" for a in args])  # --games 4 --seed 4
    assert other.exit_code != 0 and "--checkpoint" in other.output and "seed 3 (this run: 4)" in other.output
    same = CliRunner().invoke(app, args[:-2] + ["--out", str(ckpt)])
    assert same.exit_code != 0 and "same file" in same.output
    folder = CliRunner().invoke(app, args[:-4] + ["--checkpoint", str(tmp_path)])
    assert folder.exit_code != 0 and "is a folder" in folder.output


def test_an_empty_file_starts_afresh_and_a_checkpoint_in_use_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    path = tmp_path / "run.jsonl"
    path.write_text("")
    whole = _without_cpu(run_tournament(SPECS, games=2, checkpoint=path, **KW))
    assert _without_cpu(run_tournament(SPECS, games=2, **KW)) == whole
    before = path.read_bytes()
    with open(path, "a") as other_run:
        fcntl.flock(other_run.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ValueError, match="in use by another running tournament"):
            run_tournament(SPECS, games=3, checkpoint=path, **KW)
    assert path.read_bytes() == before
    run_tournament(SPECS, games=3, checkpoint=path, **KW)  # the lock went with the other run
    assert len(path.read_text().splitlines()) == 4


def test_a_refused_checkpoint_is_not_cut_even_with_a_line_cut_short(tmp_path):
    path = tmp_path / "run.jsonl"
    run_tournament(SPECS, games=2, checkpoint=path, **KW)
    lines = path.read_text().splitlines(keepends=True)
    bad = lines[0] + lines[1].replace('"deal_seed": ', '"deal_seed": 1', 1) + lines[2][:30]
    path.write_text(bad)
    with pytest.raises(ValueError, match="deal_seed"):
        run_tournament(SPECS, games=2, checkpoint=path, **KW)
    assert path.read_text() == bad


@pytest.mark.parametrize("game, specs, rounds", [("scout", ["random", "greedy", "random"], 1),
                                                 ("haggis", ["random", "greedy"], None),
                                                 ("seals", ["random", "greedy"], 1)])
def test_every_game_resumes_to_the_uninterrupted_result(tmp_path, game, specs, rounds):
    kw = dict(KW, n_rounds=rounds, game=game)
    whole = _without_cpu(run_tournament(specs, games=3, **kw))
    path = tmp_path / "run.jsonl"
    run_tournament(specs, games=2, checkpoint=path, **kw)
    assert _without_cpu(run_tournament(specs, games=3, checkpoint=path, **kw)) == whole


def test_worker_processes_write_the_same_checkpoint_and_result(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = _without_cpu(run_tournament(SPECS, games=3, checkpoint=one, **KW))
    b = _without_cpu(run_tournament(SPECS, games=3, checkpoint=two, **dict(KW, workers=2)))
    assert a == b
    deals = lambda p: {json.loads(x)["deal"]: json.loads(x)["records"] for x in p.read_text().splitlines()[1:]}  # noqa: E731
    strip = lambda d: {k: [{f: v for f, v in r.items() if f not in ("choice_cpu_s", "choices")} for r in rs] for k, rs in d.items()}  # noqa: E731
    assert strip(deals(one)) == strip(deals(two))  # the same games (the timed choices depend on the process)


def test_a_seals_checkpoint_with_rounds_short_of_the_counter_resumes(tmp_path):
    """Seals' ``n_rounds`` is a round counter (rules section 6): a game ends early when a declarer reaches
    5 Marks and may add tie-break rounds, so its records hold 1 to ``n_rounds + 3`` rounds."""
    kw = dict(seed=11, progress=False, workers=1, game="seals")
    specs = ["greedy", "random", "random"]
    path = tmp_path / "seals.jsonl"
    whole = _without_cpu(run_tournament(specs, games=4, checkpoint=path, **kw))
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    counts = {len(r["round_scores"]) for entry in lines[1:] for r in entry["records"]}
    assert lines[0]["n_rounds"] == 5 and counts - {5}, counts  # some game was not 5 rounds long
    assert _without_cpu(run_tournament(specs, games=4, checkpoint=path, **kw)) == whole  # read back, not replayed
    record = lines[1]["records"][0]
    record["round_scores"] += [[0, 0, 0]] * (9 - len(record["round_scores"]))  # 9 rounds: more than 5 + 3
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    with pytest.raises(tournament.CheckpointError, match=r"round_scores must be 1 to 8 lists of 3 integers"):
        run_tournament(specs, games=4, checkpoint=path, **kw)


def test_the_seals_round_allowance_is_its_tie_break_ruling():
    from seers_env.games import game_spec
    from seers_env.seals.rulings import DEFAULT_MAX_TIE_BREAK_ROUNDS

    assert game_spec("seals").extra_rounds == DEFAULT_MAX_TIE_BREAK_ROUNDS
    assert [game_spec(g).extra_rounds for g in ("seers_catalog", "scout", "haggis")] == [None, None, None]
