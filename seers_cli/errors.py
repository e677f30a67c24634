"""Command-line errors that name the option at fault."""

from __future__ import annotations

import re

import typer


def option_error(err: Exception, flags: dict[str, str], game: str | None = None) -> typer.BadParameter:
    """A ``BadParameter`` for an error ``err`` of a lower layer (a config or setting check) that names the
    command-line options of the fields its message names (``field=value``, mapped by ``flags``), e.g.
    ``Invalid value for '--players': n_players=7 is not allowed; choose one of 2, 3, 4, 5``.

    With ``game`` (a :mod:`seers_env.games` name), a message about the player count that does not name
    the game yet starts with its title (``Haggis: n_players=4 is not allowed; use an integer in 2..3``):
    the allowed counts are the game's, so the message says whose they are."""
    text = str(err)
    if game is not None and "n_players=" in text:
        from seers_env.games import game_spec

        try:
            title = game_spec(game).title
        except (TypeError, ValueError):
            title = None
        if title and title not in text:
            text = f"{title}: {text}"
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


#: The help section of a command's options that apply to Seers Catalog only (typer's ``rich_help_panel``;
#: :func:`check_game_options` refuses them for another ``--game``).
SEERS_ONLY = "Options of seers_catalog only"

#: The games each game-specific help section applies to (:func:`check_game_options`).
GAME_PANELS: dict[str, tuple[str, ...]] = {SEERS_ONLY: ("seers_catalog",)}


def check_game_options(ctx: typer.Context, game: str, panels: dict[str, tuple[str, ...]] = GAME_PANELS) -> None:
    """Refuse an option given on the command line that does not apply to ``--game game``: one whose
    help section (``rich_help_panel``, a key of ``panels``) names other games only. The game would
    ignore it (e.g. ``--no-artifacts`` with ``--game scout``: SCOUT has no artifacts), so the run would
    not be the one asked for. Options of no such section apply to every game.

    Raises:
        typer.BadParameter: naming the option as typed, the games it applies to and ``game``, before
            anything runs.
    """
    from seers_env.games import game_spec

    for param in ctx.command.params:
        games = panels.get(getattr(param, "rich_help_panel", None) or "")
        source = ctx.get_parameter_source(param.name)
        if games is None or game in games or source is None or source.name != "COMMANDLINE":  # ParameterSource
            continue
        value = ctx.params.get(param.name)
        flag = param.secondary_opts[0] if value is False and param.secondary_opts else param.opts[0]
        titles = " and ".join(f"{game_spec(g).title} (--game {g})" for g in games)
        raise typer.BadParameter(f"{flag} is an option of {titles} only; {game_spec(game).title} "
                                 f"(--game {game}) would ignore it", param_hint=f"'{flag}'")


__all__ = ["GAME_PANELS", "MAX_OPTION_INT", "MAX_OPTION_SECONDS", "SEERS_ONLY", "check_game_options",
           "check_option_sizes", "non_negative", "option_error", "positive_seconds", "wait_seconds"]
