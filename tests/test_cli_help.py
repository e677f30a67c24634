"""``seers ... --help`` is readable at 80 columns: click's plain layout, nothing cut, every option listed."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from seers_cli import app


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


def _option_help(text: str, option: str) -> str:
    """The help text of one option of a ``--help`` page at 80 columns, joined into one line."""
    block = re.search(rf"^  {re.escape(option)}\b.*?(?=^  --|\Z)", text, re.M | re.S).group(0)
    return " ".join(block.split()[1:])


def test_train_option_prefixes_name_every_learner_that_reads_the_option():
    text = _help(("train",))
    for option in ("--minutes", "--decisions", "--minibatch", "--clip", "--ent-coef", "--baseline-seats",
                   "--baseline", "--hidden"):
        assert " selfplay, rllib: " in f" {_option_help(text, option)}", option
    for option in ("--games-in-flight", "--actors", "--init-model"):
        assert _option_help(text, option).split()[1] == "selfplay:", option
    assert "maskable-ppo, rllib:" in _option_help(text, "--rounds")
    for option in ("--teacher", "--imitation-samples", "--imitation-epochs", "--imitation-teacher"):
        assert "selfplay, maskable-ppo:" in _option_help(text, option), option
    assert "Options whose help starts with learner names" in " ".join(text.split())


def test_selfplay_rejects_maskable_ppo_options_in_good_grammar():
    one = CliRunner().invoke(app, ["train", "--resume", "x.zip"])
    assert one.exit_code != 0 and "--resume only applies to --algo maskable-ppo" in " ".join(one.output.split())
    two = CliRunner().invoke(app, ["train", "--steps", "5", "--envs", "2"])
    assert two.exit_code != 0 and "--steps, --envs only apply to --algo" in " ".join(two.output.split())


def test_top_level_help_says_what_train_does_by_default():
    flat = " ".join(_help(()).split())
    assert "train Train an agent (default: self-play, half the seats played by the heuristic)" in flat


def test_bench_help_has_no_markup_or_internal_names():
    for path in (("bench", "train"), ("bench", "env")):
        text = _help(path)
        assert "``" not in text and "vector_threads_steps_per_s" not in text, text
