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


__all__ = ["non_negative", "option_error"]
