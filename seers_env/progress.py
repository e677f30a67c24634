"""Progress for long work that works both on a terminal and in a log file.

On a terminal, callers draw a live bar (``rich.progress``); when output goes to a file or a pipe a live
bar shows nothing until the end, so :class:`ProgressLines` prints one plain line at a steady rhythm
instead: done/total, rate, elapsed, ETA and an optional note (e.g. the latest evaluation). The ETA is
shown only once a rate is known (:class:`EtaEstimate`; ``"ETA --"`` before), and live bars show the same
estimate. This module imports no RL library, so every layer (tournaments, training) can use it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def is_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default ``sys.stdout``) is an interactive terminal."""
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or file-like objects without isatty
        return False


def format_duration(seconds: float) -> str:
    """``"0:07"``, ``"12:03"``, ``"1:02:03"`` (hours only when needed); ``"?"`` for an unknown time."""
    if seconds != seconds or seconds in (float("inf"), float("-inf")) or seconds < 0:
        return "?"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


#: Text of an ETA that is not known yet (see :class:`EtaEstimate`).
ETA_UNKNOWN = "--"


class EtaEstimate:
    """Time left of a job, from its rate since its first unit of work, once that rate is known.

    The time before the first unit is done (process start, imports, numba compiling, worker processes
    starting, a model loading) is not work at the job's pace: an ETA from an average that includes it
    reads hours for a job of minutes. So the rate is measured from the first unit done (the *warm
    point*), and no ETA is given (``None``, shown as ``"ETA --"``) until, since that point, at least
    ``min_units`` more units are done and ``min_s`` seconds of work have passed.

    Args:
        total: units of the whole job (> 0).
        min_units: units done after the warm point before an ETA is given (default: 1% of ``total``,
            at least 2). min_s: seconds of work after the warm point before an ETA is given (>= 0).
        clock: a monotonic clock in seconds. start_done: units already done at construction.

    Raises:
        ValueError: ``total <= 0``, ``min_units < 1`` or ``min_s < 0``.
    """

    def __init__(self, total: int, min_units: int | None = None, min_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, start_done: int = 0):
        if total <= 0:
            raise ValueError(f"total={total!r} must be > 0")
        min_units = max(2, -(-total // 100)) if min_units is None else min_units
        if min_units < 1:
            raise ValueError(f"min_units={min_units!r} must be >= 1")
        if min_s < 0:
            raise ValueError(f"min_s={min_s!r} must be >= 0")
        self.total, self.min_units, self.min_s, self.clock = total, min_units, min_s, clock
        self.start_done = start_done
        self.warm: tuple[float, int] | None = None  # (active seconds, units done) at the first unit done

    def observe(self, done: int, paused: float = 0.0) -> None:
        """Note the units done now; the first call with work done sets the warm point.

        ``paused``: seconds so far that are not work (e.g. evaluations during training), excluded."""
        if self.warm is None and done > self.start_done:
            self.warm = (self.clock() - paused, done)

    def seconds_left(self, done: int, paused: float = 0.0) -> float | None:
        """Seconds left at the rate since the warm point; ``0.0`` when the job is done; ``None`` until
        the rate is known."""
        self.observe(done, paused)
        if done >= self.total:
            return 0.0
        if self.warm is None:
            return None
        span, units = self.clock() - paused - self.warm[0], done - self.warm[1]
        if units < self.min_units or span < self.min_s or span <= 0:
            return None
        return (self.total - done) * span / units

    def text(self, done: int, paused: float = 0.0) -> str:
        """:meth:`seconds_left` as ``"3:09"``, or ``"--"`` while it is not known."""
        left = self.seconds_left(done, paused)
        return ETA_UNKNOWN if left is None else format_duration(left)


class ProgressLines:
    """Plain progress lines, at most one every ``every_s`` seconds, plus a last one at :meth:`close`.

    A line reads ``"train: 40,960/100,000 steps (41%), 312 steps/s, elapsed 2:11, ETA 3:09; <note>"``.
    The rate is ``done / elapsed`` since construction (an average, not a smoothed instant rate), and
    ``rate_note`` says what it counts (e.g. ``"updates included, evaluations excluded"``). The ETA comes
    from the rate since the first unit done and reads ``"ETA --"`` until that rate is known
    (:class:`EtaEstimate`; :attr:`eta` is the one of these lines, for a live bar to show the same).

    Args:
        total: units of the whole job (> 0); unit: their name (``"steps"``, ``"deals"``).
        label: prefix of every line. every_s: seconds between lines (>= 0).
        echo: prints one line (default: ``print(..., flush=True)`` to stdout).
        clock: a monotonic clock in seconds (tests pass a fake one).
        start_done: units already done at construction (a resumed run); they do not count in the rate.
        eta_min_units, eta_min_s: when the ETA is known (:class:`EtaEstimate`'s ``min_units``, ``min_s``).

    Raises:
        ValueError: ``total <= 0`` or ``every_s < 0``, or a bad ``eta_min_units`` or ``eta_min_s``.
    """

    def __init__(self, total: int, unit: str, label: str = "", every_s: float = 10.0,
                 echo: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 start_done: int = 0, rate_note: str = "", eta_min_units: int | None = None,
                 eta_min_s: float = 5.0):
        if total <= 0:
            raise ValueError(f"total={total!r} must be > 0")
        if every_s < 0:
            raise ValueError(f"every_s={every_s!r} must be >= 0")
        self.total, self.unit, self.label, self.every_s = total, unit, label, every_s
        self.echo = echo or (lambda line: print(line, flush=True))
        self.clock = clock
        self.start = self.last = clock()
        self.start_done = start_done
        self.paused = 0.0  # seconds excluded from the rate (e.g. evaluations)
        self.rate_note = rate_note
        self.eta = EtaEstimate(total, eta_min_units, eta_min_s, clock, start_done)
        self.lines = 0
        self._last_printed: tuple[int, str] | None = None  # (done, note) of the last line printed

    def rate(self, done: int) -> float:
        """Units per second since construction, :attr:`paused` time excluded."""
        active = max(self.clock() - self.start - self.paused, 1e-9)
        return (done - self.start_done) / active

    def line(self, done: int, note: str = "") -> str:
        """The text of a progress line for ``done`` units (nothing is printed)."""
        elapsed = self.clock() - self.start
        rate = self.rate(done)
        pct = 100.0 * done / self.total
        if self.start_done and done <= self.start_done:  # a resumed run with nothing new: no rate
            rate_text = f"{self.start_done:,} resumed"
        else:
            rate_text = (f"{rate:,.{2 if rate < 1 else 1}f} {self.unit}/s"
                         + (f" ({self.rate_note})" if self.rate_note else ""))
        text = (f"{self.label + ': ' if self.label else ''}{done:,}/{self.total:,} {self.unit} ({pct:.0f}%), "
                f"{rate_text}, elapsed {format_duration(elapsed)}, ETA {self.eta.text(done, self.paused)}")
        return text + (f"; {note}" if note else "")

    def update(self, done: int, note: str = "") -> bool:
        """Note ``done``; print a line if ``every_s`` seconds passed since the last one; returns whether
        it printed. Call it at every unit done (or often), so the ETA's rate starts at the first one."""
        self.eta.observe(done, self.paused)
        if self.clock() - self.last < self.every_s:
            return False
        self.echo(self.line(done, note))
        self.last = self.clock()
        self.lines += 1
        self._last_printed = (done, note)
        return True

    def close(self, done: int, note: str = "") -> None:
        """Print the last line, unless :meth:`update` just printed the same count and note."""
        if self._last_printed == (done, note):
            return
        self.echo(self.line(done, note))
        self.lines += 1
        self._last_printed = (done, note)


__all__ = ["ETA_UNKNOWN", "EtaEstimate", "ProgressLines", "format_duration", "is_terminal"]
