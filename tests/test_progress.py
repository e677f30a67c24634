"""Plain progress lines for output that is not a terminal (seers_env.progress)."""

import pytest

from seers_env.progress import ProgressLines, format_duration, is_terminal


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_lines_at_a_steady_rhythm_with_rate_and_eta():
    clock, out = FakeClock(), []
    p = ProgressLines(1000, "steps", label="train", every_s=10, echo=out.append, clock=clock)
    clock.t += 5
    assert not p.update(100)  # too soon
    clock.t += 5
    assert p.update(200, note="last eval +1.00")
    assert out == ["train: 200/1,000 steps (20%), 20.0 steps/s, elapsed 0:10, ETA 0:40; last eval +1.00"]
    clock.t += 3
    assert not p.update(260)
    clock.t += 7
    p.paused = 10.0  # e.g. an evaluation: excluded from the rate
    assert p.update(400)
    assert "40.0 steps/s" in out[-1] and "elapsed 0:20" in out[-1] and "ETA 0:15" in out[-1]
    p.close(1000)
    assert out[-1].startswith("train: 1,000/1,000 steps (100%)") and len(out) == 3


def test_bad_arguments_and_helpers():
    with pytest.raises(ValueError, match="total"):
        ProgressLines(0, "deals")
    with pytest.raises(ValueError, match="every_s"):
        ProgressLines(5, "deals", every_s=-1)
    assert format_duration(7) == "0:07" and format_duration(3723) == "1:02:03"
    assert format_duration(float("inf")) == "?"

    class NoTty:
        pass
    assert not is_terminal(NoTty())


def test_close_does_not_repeat_the_line_update_just_printed():
    clock, out = FakeClock(), []
    p = ProgressLines(10, "deals", every_s=10, echo=out.append, clock=clock)
    clock.t += 10
    assert p.update(10)
    p.close(10)
    assert len(out) == 1 and out[0].startswith("10/10 deals (100%)")
    p2 = ProgressLines(10, "deals", every_s=10, echo=out.append, clock=clock)
    clock.t += 10
    assert p2.update(9)
    p2.close(10)  # a new count: printed
    assert len(out) == 3 and out[-1].startswith("10/10 deals")


def test_selfplay_rows_show_recent_rate_elapsed_and_eta_within_80_columns():
    from train.progress import SelfPlayProgress

    p = SelfPlayProgress(4_200_000, None, start=100.0, header_every=2)
    intro = p.intro(15)
    assert all(len(x) <= 80 for x in intro) and "since the row before" in " ".join(intro)
    first = p.rows(110.0, 1, 1_000, 4_000, 50, 1.5)  # header + row; 400 plays/s over the first 10 s
    assert first[0].split() == ["iter", "trained/budget", "plays/s", "rounds", "entropy", "elapsed", "ETA"]
    assert first[1].split() == ["1", "1,000/4,200,000", "400", "50", "1.50", "0:10", "11:39:50"]
    # the next row's rate is the recent one: 100,000 plays in 10 s, not the average since the start
    second = p.rows(120.0, 2, 1_201_000, 104_000, 1_234_567, 0.93)
    # ETA: 2,999,000 decisions left at 120,000 trained/s over the last 10 s
    assert second[0].split()[2] == "10,000" and second[0].split()[-2:] == ["0:20", "0:25"]
    big = p.rows(3_700.0, 3_000, 4_200_000, 9_999_999, 9_999_999, 0.5)  # a header is due again
    assert len(big) == 2 and big[1].split()[-1] == "0:00"
    assert all(len(x) <= 80 for x in first + second + big)


def test_selfplay_rows_with_a_minutes_budget_show_time_left():
    from train.progress import SelfPlayProgress

    p = SelfPlayProgress(None, 2.0, start=0.0)
    header, row = p.rows(30.0, 5, 9_999_999, 1_000, 10, 1.0)
    assert header.split()[1] == "trained" and header.split()[-1] == "left"
    assert row.split()[1] == "9,999,999" and row.split()[-2:] == ["0:30", "1:30"]
    with pytest.raises(ValueError, match="one of"):
        SelfPlayProgress(10, 1.0, start=0.0)
