"""Command-line errors that name the option at fault."""

from __future__ import annotations

import re

import typer


def option_error(err: Exception, flags: dict[str, str]) -> typer.BadParameter:
    """A ``BadParameter`` for an error ``err`` of a lower layer (a config or setting check) that names the
    command-line options of the fields its message names (``field=value``, mapped by ``flags``), e.g.
    ``Invalid value for '--players': n_players=7 is not allowed; choose one of 2, 3, 4, 5``."""
    text = str(err)
    hints = list(dict.fromkeys(flags[f] for f in re.findall(r"\b([a-z_]+)=", text) if f in flags))
    return typer.BadParameter(text, param_hint=hints or None)


def non_negative(value: int | None) -> int | None:
    """Typer option callback of a seed: ``value`` unless it is negative (``None`` passes).

    Raises:
        typer.BadParameter: a negative value (typer names the option: ``Invalid value for '--seed': -1 is
            not allowed; use an integer >= 0``), before the command runs or writes anything.
    """
    if value is not None and value < 0:
        raise typer.BadParameter(f"{value} is not allowed; use an integer >= 0")
    return value


#: The longest wait or measuring time an option takes, in seconds (a day).
MAX_OPTION_SECONDS = 86_400.0


def positive_seconds(value: float | None) -> float | None:
    """Typer option callback of a benchmark's time: a finite number of seconds in (0, a day].

    Raises:
        typer.BadParameter: zero, negative, NaN, infinite or longer (a benchmark of no time divides by
            zero; one of NaN seconds measures nothing).
    """
    if value is not None and not (0 < value <= MAX_OPTION_SECONDS):
        raise typer.BadParameter(f"{value} is not allowed; use a number of seconds > 0 and at most "
                                 f"{MAX_OPTION_SECONDS:,.0f}")
    return value


def wait_seconds(value: float | None) -> float | None:
    """Typer option callback of a wait: a finite number of seconds in [0, a day].

    Raises:
        typer.BadParameter: negative, NaN, infinite or longer (``time.sleep`` raises on NaN and on a huge
            value, in the middle of a game).
    """
    if value is not None and not (0 <= value <= MAX_OPTION_SECONDS):
        raise typer.BadParameter(f"{value} is not allowed; use a number of seconds >= 0 and at most "
                                 f"{MAX_OPTION_SECONDS:,.0f}")
    return value


#: The largest whole number a command-line option other than a seed takes (a C ``int``: torch, numba and
#: the process pools take counts as C integers, and no count of this project comes near it).
MAX_OPTION_INT = 2**31 - 1


def check_option_sizes(ctx: typer.Context, exempt: tuple[str, ...] = ("seed",)) -> None:
    """Refuse any integer option above :data:`MAX_OPTION_INT` (seeds excepted), before the command runs
    or writes anything: such a value would otherwise pass the checks and fail later (an ``OverflowError``
    in torch or a process pool, after training), or ask for that many processes or games.

    Raises:
        typer.BadParameter: naming the option and the limit.
    """
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if param.name not in exempt and isinstance(v, int) and not isinstance(v, bool) and v > MAX_OPTION_INT:
                raise typer.BadParameter(f"{v} is more than {MAX_OPTION_INT:,}, the largest count an option takes",
                                         param_hint=f"'{param.opts[0]}'")


__all__ = ["MAX_OPTION_INT", "MAX_OPTION_SECONDS", "check_option_sizes", "non_negative", "option_error",
           "positive_seconds", "wait_seconds"]
