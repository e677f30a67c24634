"""``seers bench env --game haggis``: haggis_v0 at 2 and 3 players beside the peers in one run, printed as a
Markdown table with the ratios and the target, written as strict JSON; the profile splits the step."""

from __future__ import annotations

from typer.testing import CliRunner

from seers_cli import app, haggis_bench
from seers_env.jsonio import loads_strict

runner = CliRunner()


def test_bench_env_haggis_prints_and_writes_its_rows_and_target(tmp_path):
    out = tmp_path / "haggis.json"
    result = runner.invoke(app, ["bench", "env", "--game", "haggis", "--seconds", "0.06", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = loads_strict(out.read_text(encoding="utf-8"))
    assert data["format"] == "seers-bench-1" and data["bench"] == "env"
    assert data["settings"]["game"] == "haggis" and data["settings"]["players"] == [2, 3]
    assert data["settings"]["target_vs_rlcard_doudizhu"] == haggis_bench.TARGET_HAGGIS_VS_DOUDIZHU
    results = data["results"]
    two, three = (results[haggis_bench.HAGGIS_ROWS[n]] for n in (2, 3))
    assert list(results) == [*haggis_bench.HAGGIS_ROWS.values(), *haggis_bench.PEER_ROWS]
    assert two["steps_per_s"] > 0 and two["ratio_2p"] == 1.0 and three["ratio_3p"] == 1.0
    assert three["ratio_2p"] == two["steps_per_s"] / three["steps_per_s"]
    doudizhu = results["rlcard_doudizhu"]
    flat = " ".join(result.output.split())
    if doudizhu["steps_per_s"] is not None:
        assert doudizhu["ratio_3p"] == three["steps_per_s"] / doudizhu["steps_per_s"]
        assert "Target AEC >= 3x rlcard_doudizhu at 2 players:" in flat
        assert "Target AEC >= 3x rlcard_doudizhu at 3 players:" in flat
    lines = [x for x in result.output.splitlines() if not x.startswith("results written to")]
    assert any(x.startswith("| haggis_v0, 2 players ") for x in lines) and "┃" not in result.output
    assert all(x == x.rstrip() and len(x) <= 80 for x in lines), result.output


def test_bench_env_haggis_profile_parts_cover_the_step():
    parts = haggis_bench.haggis_profile_parts(steps=300, seed=2)
    assert parts["steps"] == 300 and parts["total"] > 0
    step = parts["env step (raw_env.step, all of it)"]
    assert 0 < parts["decision: codes, mask, choose"] < step and 0 < parts["HaggisGame.apply"] < step
