"""``seers ... --help`` is readable at 80 columns: click's plain layout, nothing cut, every option listed."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from seers_env.cli import app


def _commands(group, path=()):
    """``[(path, click command)]`` for every command of the ``seers`` app, groups included."""
    out = [(path, group)]
    for name, cmd in getattr(group, "commands", {}).items():
        out.extend(_commands(cmd, (*path, name)))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def _help(path, columns="80"):
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_app_has_the_commands_a_user_looks_for():
    paths = {" ".join(p) for p, _ in COMMANDS}
    assert {"", "train", "eval", "runs", "play", "bench", "bench engine", "bench train"} <= paths


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "seers")
@pytest.mark.parametrize("columns", ["80", "200"])
def test_help_fits_80_columns_and_lists_every_option_uncut(path, columns):
    text = _help(path, columns)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "…" not in text
    options = text.split("\nOptions:\n", 1)[1]
    # no type tags: each option that takes a value names it with metavar= (N, SPEC, FILE, ...)
    assert not re.search(r"<(bool|str|int|float|path)[^>]*>", options.split("\nCommands:\n")[0]), text
    cmd = dict(COMMANDS)[path]
    flat = " ".join(text.split())
    for param in cmd.params:
        if getattr(param, "hidden", False):
            continue
        for opt in [*param.opts, *param.secondary_opts]:
            if opt.startswith("--"):
                assert re.search(rf"(^|[\s,/]){re.escape(opt)}(\s|,|$)", text, re.M), opt
        default = param.default
        if isinstance(default, (int, float, str)) and not isinstance(default, bool) and default != "" \
                and param.show_default is not False and getattr(param, "help", None):
            assert f"[default: {default}" in flat, (param.name, default)


@pytest.mark.parametrize("path", [p for p, c in COMMANDS if getattr(c, "commands", None)],
                         ids=lambda p: " ".join(p) or "seers")
def test_command_lists_show_each_commands_whole_first_paragraph(path):
    flat = " ".join(_help(path).split())
    group = dict(COMMANDS)[path]
    for name, cmd in group.commands.items():
        first = " ".join(cmd.help.split("\n\n")[0].split())
        assert f"{name} {first}" in flat


def test_flag_pairs_and_long_option_names_are_not_split():
    text = _help(("train",))
    assert "--artifacts / --no-artifacts  Use the default artifact deck" in text
    assert "[default: random:1,greedy:1,heuristic:2,self:2]" in " ".join(text.split())
    for line in text.splitlines():  # a line never ends inside an option name or learner name
        assert not re.search(r"[a-z]-$", line), line
    assert "--opponents MIX" in text and "--players N " in text
