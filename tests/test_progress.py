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
