"""The ``seers`` typer app: :data:`app`, :data:`bench_app`, :data:`COMMAND_MODULES` and :func:`main`.

Each feature registers its own commands from its own module (``register(app, bench_app)``), listed in
:data:`COMMAND_MODULES`; a module that is not installed is skipped. To add a command (e.g. ``seers
serve``), write a module with ``register(app, bench_app)`` and add its name to :data:`COMMAND_MODULES`;
give each option that takes a value a ``metavar`` (``N``, ``SPEC``, ``FILE``...) for ``--help``.
"""

from __future__ import annotations

import importlib
import inspect
import re

import typer
from typer.core import TyperCommand, TyperGroup

_NB_HYPHEN, _NB_SPACE = "\u2011", "\u00a0"


class HelpFormatter(typer.Context.formatter_class):
    """click's help formatter (:attr:`click.Context.formatter_class`, which typer ships) whose wrapped lines never break
    inside a hyphenated word (``--opponent-seats``, ``maskable-ppo``) nor inside ``[default: x]``.

    Hyphens and that space are swapped for non-breaking ones while click wraps a text, and swapped
    back when the line is written, so the help stays plain ASCII."""

    @staticmethod
    def _protect(text: str) -> str:
        text = text.replace("-", _NB_HYPHEN)
        # a short default stays on one line; a long one may still wrap after "[default:"
        return re.sub(r"\[default: (?=[^\]\s]{1,24}\])", f"[default:{_NB_SPACE}", text)

    def write(self, string: str) -> None:
        super().write(string.replace(_NB_HYPHEN, "-").replace(_NB_SPACE, " "))

    def write_text(self, text: str) -> None:
        super().write_text(self._protect(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(term, self._protect(text)) for term, text in rows], col_max, col_spacing)


class _Context(typer.Context):
    formatter_class = HelpFormatter


class _Command(TyperCommand):
    """A command whose help lists its options in sections: those without typer's ``rich_help_panel``
    under "Options:", then one heading per panel, in the order the panels first appear (typer draws its
    panels only in its rich layout, and this help is click's plain one). The option names line up
    across sections."""

    context_class = _Context

    def format_options(self, ctx, formatter) -> None:
        arguments, sections = [], {"Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append(record)
            else:
                sections.setdefault(getattr(param, "rich_help_panel", None) or "Options", []).append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        # click sizes the name column of each list by its longest name (at most 30): pad the first name
        # of each section to the widest of all, so that the sections line up
        width = min(30, max((len(term) for rows in sections.values() for term, _ in rows), default=0))
        for title, rows in sections.items():
            if rows:
                with formatter.section(title):
                    formatter.write_dl([(rows[0][0].ljust(width), rows[0][1]), *rows[1:]])

    def invoke(self, ctx):
        from .errors import check_option_sizes

        check_option_sizes(ctx)  # counts past a C int: a usage error before the command runs or writes
        return super().invoke(ctx)


class _Group(TyperGroup):
    context_class = _Context


#: Help is click's plain layout (typer's ``rich_markup_mode=None``): option names and their values on the
#: left, the help wrapped beside them, defaults never cut, no type column; at most 80 columns wide
#: (click's ``max_content_width``, inherited by every command), on a terminal or piped to a file.
HELP_SETTINGS = {"rich_markup_mode": None, "context_settings": {"max_content_width": 80}, "cls": _Group}

app = typer.Typer(help="Seers Catalog, SCOUT, Haggis and Seals: play, benchmark, evaluate and train agents.", no_args_is_help=True,
                  add_completion=False, **HELP_SETTINGS)


def _version(value: bool) -> None:
    if value:
        from seers_env import __version__

        typer.echo(f"seers-catalog {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Seers Catalog, SCOUT, Haggis and Seals: play, benchmark, evaluate and train agents."""
bench_app = typer.Typer(help="Benchmarks that print figures and ratios against peers.", no_args_is_help=True,
                        **HELP_SETTINGS)
app.add_typer(bench_app, name="bench")

#: Modules that add commands: each defines ``register(app, bench_app)``.
COMMAND_MODULES = (
    "seers_cli.demo",
    "seers_cli.bench",
    "seers_cli.search_bench",
    "seers_cli.env_cli",
    "seers_cli.eval_cmd",
    "seers_cli.train_cmd",
    "seers_cli.play_cmd",
    "seers_cli.serve_cmd",
    "seers_cli.runs",
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
        if info.cls in (None, TyperCommand):
            info.cls = _Command
        if info.help and not info.short_help:
            # the command list shows the whole first paragraph, wrapped (click cuts its own short help
            # at the first sentence or about 45 characters with "...")
            info.short_help = info.help.split("\n\n", 1)[0]
    for group in typer_app.registered_groups:
        _tidy_help(group.typer_instance)


_tidy_help(app)


def main() -> None:
    """Entry point of the ``seers`` script."""
    app()
