"""Progress for long work that works both on a terminal and in a log file.

On a terminal, callers draw a live bar (``rich.progress``); when output goes to a file or a pipe a live
bar shows nothing until the end, so :class:`ProgressLines` prints one plain line at a steady rhythm
instead: done/total, rate, elapsed, ETA and an optional note (e.g. the latest evaluation). This module
imports no RL library, so every layer (tournaments, training) can use it.
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


class ProgressLines:
    """Plain progress lines, at most one every ``every_s`` seconds, plus a last one at :meth:`close`.

    A line reads ``"train: 40,960/100,000 steps (41%), 312 steps/s, elapsed 2:11, ETA 3:09; <note>"``.
    The rate is ``done / elapsed`` since construction (an average, not a smoothed instant rate), and
    ``rate_note`` says what it counts (e.g. ``"updates included, evaluations excluded"``).

    Args:
        total: units of the whole job (> 0); unit: their name (``"steps"``, ``"deals"``).
        label: prefix of every line. every_s: seconds between lines (>= 0).
        echo: prints one line (default: ``print(..., flush=True)`` to stdout).
        clock: a monotonic clock in seconds (tests pass a fake one).
        start_done: units already done at construction (a resumed run); they do not count in the rate.

    Raises:
        ValueError: ``total <= 0`` or ``every_s < 0``.
    """

    def __init__(self, total: int, unit: str, label: str = "", every_s: float = 10.0,
                 echo: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 start_done: int = 0, rate_note: str = ""):
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
        self.lines = 0
        self._last_printed: tuple[int, str] | None = None  # (done, note) of the last line printed

    def line(self, done: int, note: str = "") -> str:
        """The text of a progress line for ``done`` units (nothing is printed)."""
        now = self.clock()
        elapsed = now - self.start
        active = max(elapsed - self.paused, 1e-9)
        rate = (done - self.start_done) / active
        left = (self.total - done) / rate if rate > 0 else float("inf")
        pct = 100.0 * done / self.total
        unit_rate = f"{self.unit}/s" + (f" ({self.rate_note})" if self.rate_note else "")
        text = (f"{self.label + ': ' if self.label else ''}{done:,}/{self.total:,} {self.unit} ({pct:.0f}%), "
                f"{rate:,.{2 if rate < 1 else 1}f} {unit_rate}, elapsed {format_duration(elapsed)}, ETA {format_duration(left)}")
        return text + (f"; {note}" if note else "")

    def update(self, done: int, note: str = "") -> bool:
        """Print a line if ``every_s`` seconds passed since the last one; returns whether it printed."""
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


__all__ = ["ProgressLines", "format_duration", "is_terminal"]
