"""``docs/compare_checkpoints.py``: two agents against the same opponents on the same deals, from two
``seers eval --checkpoint`` files read by the tournament's own checked reader (and not changed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.tournament import run_tournament

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "docs" / "compare_checkpoints.py"


def _compare(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, paths)], capture_output=True, text=True,
                          cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=120)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    """Two 3-player one-round tournaments of seed 5: heuristic and greedy each against two randoms."""
    folder = tmp_path_factory.mktemp("ckpt")
    out = {}
    for first in ("heuristic", "greedy"):
        path = folder / f"{first}.jsonl"
        run_tournament([first, "random", "random"], games=6, seed=5, workers=1, n_rounds=1, progress=False,
                       checkpoint=path)
        out[first] = path
    return out


def _margin_by_hand(path: Path) -> dict[int, float]:
    import json

    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    margins = {}
    for entry in lines:
        totals = np.zeros(3)
        for rec in entry["records"]:
            for seat, agent in enumerate(rec["agents"]):
                totals[agent] += rec["totals"][seat]
        totals /= len(entry["records"])
        margins[entry["deal"]] = totals[0] - totals[1:].mean()
    return margins


def test_the_paired_difference_is_the_first_agents_margin_in_a_minus_b(checkpoints):
    sys.path.insert(0, str(REPO / "docs"))
    try:
        import compare_checkpoints
    finally:
        sys.path.remove(str(REPO / "docs"))
    a, b = checkpoints["heuristic"], checkpoints["greedy"]
    header, margins, cpu, _ = compare_checkpoints.margins(str(a))
    assert header["specs"][0] == "heuristic" and sorted(margins) == list(range(6))
    assert margins == pytest.approx(_margin_by_hand(a)) and cpu >= 0
    done = _compare(a, b)
    assert done.returncode == 0, done.stderr
    expected = np.mean([_margin_by_hand(a)[d] - _margin_by_hand(b)[d] for d in range(6)])
    line = next(x for x in done.stdout.splitlines() if "A minus B" in x)
    assert f"{expected:+.2f}" in line


def test_a_file_cut_short_is_read_without_changing_it(checkpoints, tmp_path):
    text = checkpoints["heuristic"].read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(text[:-40])  # the last deal's line cut short, as by a run stopped mid-write
    done = _compare(cut, checkpoints["greedy"])
    assert done.returncode == 0, done.stderr
    assert "5 deals of seed 5" in done.stdout
    assert cut.read_bytes() == text[:-40]


@pytest.mark.parametrize("content, message", [
    (b"", "not a seers eval --checkpoint file"),
    (b"not json\n", "not a seers eval --checkpoint file"),
    (b'{"a": 1}\n', "not a seers eval --checkpoint file"),
    (b"\xff\xfe\n", "not a seers eval --checkpoint file"),
    (b"[" * 100_000 + b"\n", "not a seers eval --checkpoint file"),
    (b'{"format": "seers-tournament-checkpoint-1", "seed": 1}\n', "specs is not a list"),
    (b'{"format": "seers-tournament-checkpoint-1", "seed": 1, "specs": "abcd", "game": "seers_catalog"}\n',
     "specs is not a list"),
    (b'{"format": "seers-tournament-checkpoint-1", "seed": ' + b"9" * 5000 + b"}\n",
     "not a seers eval --checkpoint file"),
    (b'{"format": "seers-tournament-checkpoint-1", "seed": 1, "specs": ["a", "b"], "n_rounds": 0, '
     b'"game": "seers_catalog"}\n', "n_rounds 0"),
])
def test_files_that_are_not_checkpoints_are_refused_with_a_reason(checkpoints, tmp_path, content, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    done = _compare(bad, checkpoints["greedy"])
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr


def test_a_damaged_deal_line_is_named(checkpoints, tmp_path):
    lines = checkpoints["heuristic"].read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace('"totals": [', '"totals": ["x", ')
    bad = tmp_path / "damaged.jsonl"
    bad.write_text("".join(lines))
    done = _compare(bad, checkpoints["greedy"])
    assert done.returncode == 1 and "line 3" in done.stderr and "Traceback" not in done.stderr


def test_files_of_other_seeds_or_the_same_file_twice_are_refused(checkpoints, tmp_path):
    other = tmp_path / "other.jsonl"
    run_tournament(["greedy", "random", "random"], games=2, seed=6, workers=1, n_rounds=1, progress=False,
                   checkpoint=other)
    assert "differ in seed" in _compare(checkpoints["heuristic"], other).stderr
    assert "both arguments name" in _compare(checkpoints["heuristic"], checkpoints["heuristic"]).stderr


def test_a_pipe_or_a_device_is_refused_with_a_reason(checkpoints):
    done = subprocess.run(f"{sys.executable} {SCRIPT} <(cat {checkpoints['heuristic']}) {checkpoints['greedy']}",
                          shell=True, executable="/bin/bash", capture_output=True, text=True, cwd=REPO,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 1 and "not a regular file" in done.stderr
    assert "not a regular file" in _compare("/dev/zero", checkpoints["greedy"]).stderr


def test_one_file_alone_prints_its_first_agents_margin(checkpoints):
    done = _compare(checkpoints["heuristic"])
    assert done.returncode == 0, done.stderr
    expected = np.mean(list(_margin_by_hand(checkpoints["heuristic"]).values()))
    text = " ".join(done.stdout.split())  # wrapped at 80 columns
    assert "6 deals of seed 5; heuristic minus the mean of the others" in text
    assert f"per game: {expected:+.2f} [" in text
