"""Training progress for MaskablePPO (a stable-baselines3 callback), on a terminal and in a log file;
and the self-play learner's progress rows (:class:`SelfPlayProgress`).

On a terminal: a rich bar. Otherwise (output to a file or a pipe): a plain line every ``every_s``
seconds (:class:`seers_env.progress.ProgressLines`). Both show steps done / total, the speed, elapsed
time, ETA (``--`` until a rate is known) and the latest evaluation. The speed is the one the run's summary reports: **environment
steps (learner decisions) per second of training wall time, PPO updates included, evaluations
excluded**, averaged since the start of this ``learn`` call (stable-baselines3's own bar shows a
smoothed rate of rollout collection only, which is higher; it is not used).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from seers_env.progress import ETA_UNKNOWN, ProgressLines, format_duration, is_terminal

#: Seconds between plain progress lines of a training run.
TRAIN_PROGRESS_EVERY_S = 30.0
#: What the speed figures of training count.
RATE_NOTE = ("environment steps (learner decisions) per second of training, PPO updates included, "
             "evaluations excluded")


def make_progress_callback(total: int, start_steps: int, timing: dict, every_s: float = TRAIN_PROGRESS_EVERY_S,
                           echo: Callable[[str], None] | None = None, terminal: bool | None = None):
    """A ``BaseCallback`` that shows training progress.

    Args:
        total: the step count to reach (``TrainConfig.total_timesteps``); start_steps: the model's step
            count when ``learn`` starts (a resumed run).
        timing: the trainer's dict: ``timing["eval_s"]`` (seconds of evaluations so far, excluded from
            the speed) and ``timing["last_eval"]`` (text of the latest evaluation, or absent).
        every_s: seconds between plain lines; echo: prints a plain line (default ``print``).
        terminal: draw a bar (default: whether stdout is a terminal).
    """
    from stable_baselines3.common.callbacks import BaseCallback

    class _Progress(BaseCallback):
        def __init__(self):
            super().__init__()
            self.bar = self.task = self.lines = None
            self.eval0 = 0.0

        def _on_training_start(self) -> None:
            self.eval0 = timing.get("eval_s", 0.0)
            if terminal if terminal is not None else is_terminal():
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

                # the plain lines' rate and ETA (the ETA stays "--" until a rate is known)
                self.lines = ProgressLines(total, "steps", every_s=every_s, start_done=start_steps)
                self.bar = Progress(TextColumn("PPO"), BarColumn(bar_width=24), MofNCompleteColumn(),
                                    TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                                    TextColumn("ETA {task.fields[eta]}"))
                self.bar.start()
                self.bar.console.print(f"steps/s = {RATE_NOTE}")
                self.task = self.bar.add_task("ppo", total=total, completed=start_steps, rate="", eta=ETA_UNKNOWN)
                self.shown_note = ""
            else:
                self.lines = ProgressLines(total, "steps", label="train", every_s=every_s, echo=echo,
                                           start_done=start_steps)
                for line in textwrap.wrap(f"Progress every {every_s:g} s; steps/s = {RATE_NOTE}.", 80):
                    self.lines.echo(line)

        def _note(self) -> str:
            last = timing.get("last_eval")
            return f"last eval {last}" if last else ""

        def _on_step(self) -> bool:
            n = int(self.model.num_timesteps)
            self.lines.paused = timing.get("eval_s", 0.0) - self.eval0
            if self.bar is not None:
                self.bar.update(self.task, completed=n, rate=f"{self.lines.rate(n):,.0f} steps/s",
                                eta=self.lines.eta.text(n, self.lines.paused))
                note = self._note()
                if note != self.shown_note:  # each new evaluation: one line above the bar
                    self.bar.console.print(note)
                    self.shown_note = note
            else:
                self.lines.update(n, self._note())
            return True

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.stop()
            else:
                self.lines.close(int(self.model.num_timesteps), self._note())

    return _Progress()


class SelfPlayProgress:
    """Progress lines of the self-play learner (:func:`train.selfplay.train_selfplay`): a column header,
    then one row per call of :meth:`rows`, the header repeated every ``header_every`` rows.

    A row (at most 75 characters with 7-digit counts and times over an hour)::

         iter      trained/budget  plays/s    rounds  entropy  elapsed      ETA
           42     215,040/420,000    3,912     9,870     1.37     3:41     3:32

    ``plays/s`` counts every seat's plays per second **since the previous row** (the first row: since
    the PPO phase started, compile time included); ``ETA`` comes from the trained decisions per second
    over the same span, and reads ``--`` in the first row (a rate that includes starting the actors and
    compiling is no rate of the training). With a wall-clock budget (``minutes``) the columns are
    ``trained`` and ``left`` (time left of the budget). ``elapsed`` is the time since the PPO phase started.

    Args:
        budget: trained decisions to reach, or ``None`` with ``minutes``.
        minutes: wall-clock budget of the PPO phase in minutes, or ``None`` with ``budget``.
        start: clock time when the PPO phase started (seconds, the caller's clock).
        header_every: rows between repeated headers (>= 1).

    Raises:
        ValueError: neither or both of ``budget`` and ``minutes``, or ``header_every < 1``.
    """

    def __init__(self, budget: int | None, minutes: float | None, start: float, header_every: int = 20):
        if (budget is None) == (minutes is None):
            raise ValueError(f"give one of budget={budget!r} and minutes={minutes!r}")
        if header_every < 1:
            raise ValueError(f"header_every={header_every!r} must be >= 1")
        self.budget, self.minutes, self.start, self.header_every = budget, minutes, start, header_every
        self.last_t, self.last_trained, self.last_plays, self.n_rows = start, 0, 0, 0
        self.trained_w = 19 if budget is not None else 9

    def intro(self, every_s: float) -> list[str]:
        """Lines that say what the columns count, wrapped at 80 columns (printed once, before PPO)."""
        eta = ("ETA: from the trained decisions per second over the same span (-- in the first row)"
               if self.budget is not None
               else "left: time left of the --minutes budget")
        return textwrap.wrap(f"Self-play PPO: a row every {every_s:g} s or more; trained: the policy's decisions "
                             f"with a choice; plays/s: every seat's plays per second since the row before "
                             f"(the first row includes compile time); {eta}.", 80)

    def header(self) -> str:
        head = "trained/budget" if self.budget is not None else "trained"
        last = "ETA" if self.budget is not None else "left"
        return (f"{'iter':>5}  {head:>{self.trained_w}}  {'plays/s':>7}  {'rounds':>9}  {'entropy':>7}  "
                f"{'elapsed':>8}  {last:>8}")

    def rows(self, now: float, iteration: int, trained: int, plays: int, rounds: int, entropy: float) -> list[str]:
        """The row for this moment (after the header when one is due); updates the 'since' span."""
        span = max(now - self.last_t, 1e-9)
        plays_rate = (plays - self.last_plays) / span
        if self.budget is not None:
            done = f"{trained:,d}/{self.budget:,d}"
            rate = (trained - self.last_trained) / span
            if trained >= self.budget:
                left = 0.0
            elif self.n_rows == 0 or rate <= 0:  # the first span holds start-up and compiling
                left = None
            else:
                left = (self.budget - trained) / rate
        else:
            done = f"{trained:,d}"
            left = max(0.0, self.start + 60 * self.minutes - now)
        out = [self.header()] if self.n_rows % self.header_every == 0 else []
        out.append(f"{iteration:>5d}  {done:>{self.trained_w}}  {plays_rate:>7,.0f}  {rounds:>9,d}  "
                   f"{entropy:>7.2f}  {format_duration(now - self.start):>8}  "
                   f"{ETA_UNKNOWN if left is None else format_duration(left):>8}")
        self.n_rows += 1
        self.last_t, self.last_trained, self.last_plays = now, trained, plays
        return out


__all__ = ["RATE_NOTE", "TRAIN_PROGRESS_EVERY_S", "SelfPlayProgress", "format_duration", "make_progress_callback"]
