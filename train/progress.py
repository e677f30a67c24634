"""Training progress for MaskablePPO (a stable-baselines3 callback), on a terminal and in a log file.

On a terminal: a rich bar. Otherwise (output to a file or a pipe): a plain line every ``every_s``
seconds (:class:`seers_env.progress.ProgressLines`). Both show steps done / total, the speed, elapsed
time, ETA and the latest evaluation. The speed is the one the run's summary reports: **environment
steps (learner decisions) per second of training wall time, PPO updates included, evaluations
excluded**, averaged since the start of this ``learn`` call (stable-baselines3's own bar shows a
smoothed rate of rollout collection only, which is higher; it is not used).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from seers_env.progress import ProgressLines, format_duration, is_terminal

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
                from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                           TimeElapsedColumn, TimeRemainingColumn)

                self.lines = ProgressLines(total, "steps", every_s=every_s, start_done=start_steps)
                self.bar = Progress(TextColumn("PPO"), BarColumn(bar_width=24), MofNCompleteColumn(),
                                    TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                    TimeRemainingColumn())
                self.bar.start()
                self.bar.console.print(f"steps/s = {RATE_NOTE}")
                self.task = self.bar.add_task("ppo", total=total, completed=start_steps, rate="")
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
                elapsed = self.lines.clock() - self.lines.start - self.lines.paused
                rate = (n - start_steps) / max(elapsed, 1e-9)
                self.bar.update(self.task, completed=n, rate=f"{rate:,.0f} steps/s")
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


__all__ = ["RATE_NOTE", "TRAIN_PROGRESS_EVERY_S", "format_duration", "make_progress_callback"]
