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
    assert not p.update(100)  # too soon; the first units done: the ETA's rate starts here
    clock.t += 5
    assert p.update(200, note="last eval +1.00")
    # ETA from the rate since the first units: 100 steps in 5 s, 800 left
    assert out == ["train: 200/1,000 steps (20%), 20.0 steps/s, elapsed 0:10, ETA 0:40; last eval +1.00"]
    clock.t += 3
    assert not p.update(260)
    clock.t += 7
    p.paused = 10.0  # e.g. an evaluation: excluded from the rate and the ETA
    assert p.update(400)
    # since the first units: 300 steps in 15 - 10 = 5 s of work, 600 left
    assert "40.0 steps/s" in out[-1] and "elapsed 0:20" in out[-1] and "ETA 0:10" in out[-1]
    p.close(1000)
    assert out[-1].startswith("train: 1,000/1,000 steps (100%)") and out[-1].endswith("ETA 0:00")
    assert len(out) == 3


def test_a_resumed_run_counts_only_new_units_in_its_rate():
    clock, out = FakeClock(), []
    p = ProgressLines(100, "deals", label="tournament", every_s=10, echo=out.append, clock=clock, start_done=40)
    clock.t += 10
    assert p.update(60)
    assert "60/100 deals (60%), 2.0 deals/s" in out[-1]  # 20 new deals in 10 s, not 60
    whole = ProgressLines(40, "deals", label="tournament", echo=out.append, clock=clock, start_done=40)
    clock.t += 1
    whole.close(40)  # every deal resumed: no rate of 0.00 deals/s
    assert out[-1].startswith("tournament: 40/40 deals (100%), 40 resumed, elapsed 0:01")
    assert "deals/s" not in out[-1]


def test_no_eta_until_a_rate_is_known_and_start_up_time_is_not_in_it():
    """A slow start (workers starting, numba compiling) before the first unit done does not make the
    ETA read hours: no ETA until min_s seconds and min_units units past the first unit, then the rate
    since that unit."""
    clock, out = FakeClock(), []
    p = ProgressLines(1000, "deals", every_s=10, echo=out.append, clock=clock)
    assert p.line(0).endswith("ETA --")
    clock.t += 58  # start-up: nothing done for 58 s
    assert p.update(1)
    assert out[-1] == "1/1,000 deals (0%), 0.02 deals/s, elapsed 0:58, ETA --"
    clock.t += 3
    assert not p.update(7) and p.line(7).endswith("ETA --")  # 3 s past the first deal: not known yet
    clock.t += 7
    assert p.update(31)
    # 30 deals in the 10 s since the first: 969 left take 323 s (the average since the start, 31 deals
    # in 68 s, would say 2,125 s)
    assert out[-1].endswith("ETA 5:23"), out[-1]
    few = ProgressLines(1000, "deals", every_s=0, echo=out.append, clock=clock, eta_min_units=50, eta_min_s=0)
    few.update(1)
    clock.t += 100
    few.update(40)
    assert out[-1].endswith("ETA --")  # 39 deals past the first: fewer than eta_min_units
    few.update(51)
    assert out[-1].endswith("ETA 31:38")  # 50 deals in 100 s, 949 left


def test_eta_estimate_alone_and_its_checks():
    from seers_env.progress import EtaEstimate

    clock = FakeClock()
    eta = EtaEstimate(200, clock=clock)
    assert eta.min_units == 2 and eta.seconds_left(0) is None and eta.text(0) == "--"
    clock.t += 30
    eta.observe(10)  # warm point at 10 deals
    clock.t += 10
    assert eta.seconds_left(30) == pytest.approx(85.0)  # 20 deals in 10 s, 170 left
    assert eta.seconds_left(200) == 0.0 and eta.text(200) == "0:00"
    for kwargs, match in (({"total": 0}, "total"), ({"total": 5, "min_units": 0}, "min_units"),
                          ({"total": 5, "min_s": -1}, "min_s")):
        with pytest.raises(ValueError, match=match):
            EtaEstimate(**kwargs)


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
    # no ETA in the first row: its span holds starting the actors and compiling
    assert first[1].split() == ["1", "1,000/4,200,000", "400", "50", "1.50", "0:10", "--"]
    assert "-- in the first row" in " ".join(intro)
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


def test_training_bar_shows_the_plain_lines_eta(monkeypatch):
    """MaskablePPO's bar on a terminal: its ETA is "--" until a rate is known, then the rate since the
    first steps (not rich's TimeRemainingColumn, which guesses from its first two samples)."""
    pytest.importorskip("stable_baselines3")
    import types

    import rich.progress

    from train.progress import make_progress_callback

    shown, clock = [], FakeClock()
    update = rich.progress.Progress.update

    def record(self, task_id, **fields):
        shown.append((fields.get("rate"), fields.get("eta")))
        return update(self, task_id, **fields)

    monkeypatch.setattr(rich.progress.Progress, "update", record)
    timing = {"eval_s": 0.0}
    cb = make_progress_callback(1000, 0, timing, terminal=True)
    cb.model = types.SimpleNamespace(num_timesteps=0)
    cb._on_training_start()
    cb.lines.clock = cb.lines.eta.clock = clock
    cb.lines.start = clock.t
    for seconds, steps in ((30, 10), (2, 20), (8, 110)):  # 30 s to the first steps, then 100 in 10 s
        clock.t += seconds
        cb.model.num_timesteps = steps
        cb._on_step()
    cb._on_training_end()
    assert [eta for _, eta in shown] == ["--", "--", "1:29"]  # 890 steps left at 10 steps/s
    assert shown[-1][0] == "3 steps/s"  # the average since the start: 110 steps in 40 s
