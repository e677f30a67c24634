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


def test_each_kinds_first_decision_in_a_process_is_not_timed(monkeypatch):
    """The first decision of an agent kind in a process also loads compiled code (numba's cache): left out
    of the CPU figure; the game itself is unchanged."""
    from agents import tournament

    monkeypatch.setattr(tournament, "_TIMED", set())
    specs = ["heuristic", "random"]
    first = tournament.play_deal(specs, 0, 123, 5, n_rounds=1)
    again = tournament.play_deal(specs, 0, 123, 5, n_rounds=1)  # the same deal, every kind already timed
    for a, b in zip(first, again):
        assert {k: v for k, v in a.items() if k not in ("choices", "choice_cpu_s")} == \
            {k: v for k, v in b.items() if k not in ("choices", "choice_cpu_s")}
    counted = [sum(r["choices"][s] for r in run for s, agent in enumerate(r["agents"]) if agent == i)
               for run in (first, again) for i in range(2)]
    assert counted[0] == counted[2] - 1 and counted[1] == counted[3] - 1
