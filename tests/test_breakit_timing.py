"""seers eval's CPU-time line writes slow agents' milliseconds as plain numbers, not in e-notation."""

from __future__ import annotations

from agents.tournament import TournamentResult, decision_time_line


def _result(times: dict[str, float]) -> TournamentResult:
    labels = ["ismcts:2s", "random"]
    return TournamentResult(labels, labels, 2, 1, 1, 0, {}, [], times)


def test_slow_agents_get_whole_milliseconds_fast_ones_three_digits():
    line = decision_time_line(_result({"ismcts:2s": 2034.5, "random": 0.0123}))
    assert "e+" not in line and "ismcts:2s 2034," in line and "random 0.0123" in line
    assert line.index("ismcts") < line.index("random")  # slowest first
    assert all(len(x) <= 80 for x in line.splitlines())


def test_a_label_missing_from_labels_is_shown_as_it_is():
    assert "other 1" in decision_time_line(_result({"other": 1.0}))
