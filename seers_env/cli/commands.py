"""The ``seers`` typer app: :data:`app`, :data:`bench_app`, :data:`COMMAND_MODULES` and :func:`main`.

Each feature registers its own commands from its own module (``register(app, bench_app)``), listed in
:data:`COMMAND_MODULES`; a module that is not installed is skipped. To add a command (e.g. ``seers
serve``), write a module with ``register(app, bench_app)`` and add its name to :data:`COMMAND_MODULES`.
"""

from __future__ import annotations

import importlib
import inspect

import typer

app = typer.Typer(help="Seers Catalog: play, benchmark, evaluate and train agents.", no_args_is_help=True,
                  add_completion=False)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"seers-catalog {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Seers Catalog: play, benchmark, evaluate and train agents."""
bench_app = typer.Typer(help="Benchmarks that print figures and ratios against peers.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")

#: Modules that add commands: each defines ``register(app, bench_app)``.
COMMAND_MODULES = (
    "seers_env.cli.demo",
    "seers_env.cli.bench",
    "seers_env.cli.env_cli",
    "agents.cli",
    "train.cli",
    "seers_env.cli.play_cli",
    "seers_web.cli",
    "seers_env.cli.runs",
)

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as err:
        if err.name != _name:
            raise
        continue
    _module.register(app, bench_app)


def _unwrap_help(text: str | None) -> str | None:
    """Join the single line breaks of a docstring's paragraphs (typer keeps them after the first
    paragraph, which breaks lines in the middle at any terminal width); paragraphs stay apart."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split("\n")) for p in paragraphs)


def _tidy_help(typer_app: typer.Typer) -> None:
    for info in typer_app.registered_commands:
        info.help = _unwrap_help(info.help or inspect.getdoc(info.callback))
    for group in typer_app.registered_groups:
        _tidy_help(group.typer_instance)


_tidy_help(app)


def main() -> None:
    """Entry point of the ``seers`` script."""
    app()
