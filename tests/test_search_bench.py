"""``seers bench search``: every agent timed on the same positions with a choice, ratios to a baseline."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from seers_cli.commands import app
from seers_cli.search_bench import decision_cpu, search_positions


@pytest.mark.parametrize("game, players", [("seers_catalog", 4), ("scout", 3), ("haggis", 2), ("seals", 3)])
def test_positions_have_a_choice_and_are_the_same_for_a_seed(game, players):
    first = search_positions(game, players, 5, seed=3)
    again = search_positions(game, players, 5, seed=3)
    assert len(first) == 5
    assert all(len(s.legal_plays()) > 1 and not s.game_over for s in first)
    assert [s.to_dict() for s in first] == [s.to_dict() for s in again]
    assert [s.to_dict() for s in search_positions(game, players, 5, seed=4)] != [s.to_dict() for s in first]


def test_decision_cpu_times_each_position_and_changes_none():
    positions = search_positions("seers_catalog", 4, 3, seed=1)
    before = [s.to_dict() for s in positions]
    r = decision_cpu("ismcts:5", positions, "seers_catalog", seed=0)
    assert r["decisions"] == 3 and len(r["per_decision_ms"]) == 3
    assert r["max_ms"] >= r["median_ms"] > 0 and r["mean_ms"] > 0
    assert [s.to_dict() for s in positions] == before


def test_the_command_prints_every_agent_and_its_ratio_in_80_columns(tmp_path):
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(app, ["bench", "search", "--agents", "greedy,ismcts:8", "--decisions", "3",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if not line.startswith("results written to")]
    assert max(map(len, lines)) <= 80
    assert any(line.startswith("| greedy") for line in lines)
    assert any(line.startswith("| ismcts:8") and line.rstrip().endswith("1x |") for line in lines)
    assert "ratio: the mean over ismcts:8's" in result.output
    record = json.loads(out.read_text())
    assert record["bench"] == "search" and record["settings"]["baseline"] == "ismcts:8"
    assert [r["spec"] for r in record["results"]] == ["greedy", "ismcts:8"]


@pytest.mark.parametrize("args, message", [
    (["--agents", "nope"], "unknown agent spec 'nope'"),
    (["--agents", ","], "give one or more agent specs"),
    (["--agents", "greedy", "--baseline", "heuristic"], "'heuristic' is not one of --agents greedy"),
    (["--players", "9"], "n_players=9"),
    (["--game", "chess"], "chess"),
    (["--decisions", "0"], "0"),
    (["--json", "/no/such/folder/x.json", "--agents", "greedy"], "does not exist"),
])
def test_bad_options_are_clear_errors(args, message):
    result = CliRunner().invoke(app, ["bench", "search", "--decisions", "2", *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_long_specs_are_named_by_number_with_a_legend():
    spec = "learned+search:2:worlds=4:opponents=mixture"
    result = CliRunner().invoke(app, ["bench", "search", "--agents", f"{spec},greedy", "--decisions", "2"])
    assert result.exit_code == 0, result.output
    assert max(map(len, result.output.splitlines())) <= 80
    assert "| agent 1 " in result.output and f"agent 1: {spec}" in result.output


def test_progress_lines_come_while_an_agent_decides(monkeypatch):
    import seers_cli.search_bench as search_bench

    monkeypatch.setattr(search_bench, "PROGRESS_EVERY_S", 0.0)
    result = CliRunner().invoke(app, ["bench", "search", "--agents", "greedy,ismcts:4", "--decisions", "3"])
    assert result.exit_code == 0, result.output
    assert "agent 1/2: 1/3 decisions" in result.output and "agent 2/2: 2/3 decisions" in result.output


def test_haggis_and_seals_default_to_three_players():
    for game in ("haggis", "seals"):
        result = CliRunner().invoke(app, ["bench", "search", "--game", game, "--agents", "greedy",
                                          "--decisions", "2"])
        assert result.exit_code == 0, result.output
        assert f"{game}, 3 players" in result.output
