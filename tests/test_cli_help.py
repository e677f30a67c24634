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


def _sections(text: str) -> dict[str, list[str]]:
    """``{heading: [long option names]}`` of a ``--help`` page: its "Options:" and the other sections."""
    out: dict[str, list[str]] = {}
    heading = None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            heading = line[:-1]
            out[heading] = []
        elif heading and line.startswith("  --"):
            out[heading].append(line.split()[0])
    return out


def test_train_options_are_grouped_by_the_learners_that_read_them():
    text = _help(("train",))
    sections = _sections(text)
    assert list(sections) == ["Options", "Options of selfplay and rllib", "Options of selfplay only",
                              "Options of selfplay and maskable-ppo", "Options of maskable-ppo only",
                              "Options of maskable-ppo and rllib", "Options of rllib only"]
    assert {"--algo", "--players", "--seed", "--out", "--learning-rate", "--epochs", "--help"} <= set(sections["Options"])
    assert set(sections["Options of selfplay and rllib"]) == {
        "--minutes", "--decisions", "--minibatch", "--clip", "--ent-coef", "--baseline-seats", "--baseline", "--hidden"}
    assert set(sections["Options of selfplay only"]) == {"--games-in-flight", "--actors", "--threads", "--precision",
                                                         "--init-model", "--reward-others"}
    assert set(sections["Options of selfplay and maskable-ppo"]) == {
        "--teacher", "--imitation-samples", "--imitation-epochs", "--imitation-teacher"}
    assert {"--steps", "--opponents", "--resume", "--progress"} <= set(sections["Options of maskable-ppo only"])
    assert sections["Options of maskable-ppo and rllib"] == ["--rounds"]
    assert {"--num-env-runners", "--address", "--opponent-seats"} <= set(sections["Options of rllib only"])
    # every option is listed once, and its help no longer repeats the learner names
    listed = [o for names in sections.values() for o in names]
    assert len(listed) == len(set(listed))
    assert "selfplay, rllib:" not in text and "maskable-ppo: Training budget" not in text
    # the help of every option starts in one column, across sections
    starts = {re.match(r"^  --\S.*?  +(?=\S)", line).end() for line in text.splitlines()
              if re.match(r"^  --\S.*?  +\S", line)}
    assert len(starts) == 1, starts
    assert 'The options under "Options:" apply to every learner' in " ".join(text.split())


def test_help_defaults_shown_without_the_heavy_modules_agree_with_the_configs():
    """seers_cli.train_cmd repeats the defaults --help shows, so that the help imports no torch: they
    must be the configs' own."""
    pytest.importorskip("torch")
    from seers_cli import train_cmd as cli
    from train.league import DEFAULT_MIX
    from train.selfplay import GAME_DEFAULTS, SelfPlayConfig
    from train.trainer import DEFAULT_EVAL_SPECS, TrainConfig

    assert cli._SCOUT == GAME_DEFAULTS["scout"]
    assert cli._SEALS == GAME_DEFAULTS["seals"]
    assert cli._HAGGIS == GAME_DEFAULTS["haggis"]
    assert cli.LEARNER_GAMES == tuple(GAME_DEFAULTS)
    ppo, selfplay = TrainConfig(), SelfPlayConfig()
    for name, value in vars(cli._DEFAULTS).items():
        assert getattr(ppo, name) == value, name
    for name, value in vars(cli._SELFPLAY).items():
        assert getattr(selfplay, name) == value, name
    assert (cli.DEFAULT_MIX, cli.DEFAULT_EVAL_SPECS) == (DEFAULT_MIX, DEFAULT_EVAL_SPECS)


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


def test_serve_help_states_the_web_servers_own_limits():
    from seers_cli import serve_cmd
    from seers_web.sessions import Limits
    from seers_web.uploads import REPLAYABLE_SPECS

    limits = Limits()
    assert {name: getattr(limits, name) for name in serve_cmd.HELP_LIMITS} == serve_cmd.HELP_LIMITS
    assert serve_cmd.HELP_REPLAYABLE_SPECS == REPLAYABLE_SPECS


@pytest.mark.parametrize("args", [["--help"], ["train", "--help"], ["play", "--help"], ["serve", "--help"],
                                  ["bench", "env", "--help"]], ids=" ".join)
def test_help_loads_no_heavy_module(args):
    """``seers --help`` and ``seers <command> --help`` load neither torch, numba (the compiled engine),
    pettingzoo, fastapi, ray, rich's tables nor the project's lower layers: they take a fraction of a
    second."""
    import subprocess
    import sys

    heavy = ["torch", "numba", "pettingzoo", "fastapi", "ray", "rich.table", "seers_env", "agents", "train",
             "seers_web"]
    code = ("import sys\nsys.argv = ['seers', *%r]\nfrom seers_cli.commands import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('LOADED', [m for m in %r if m in sys.modules])\n") % (args, heavy)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "COLUMNS": "80"})
    assert out.returncode == 0, out.stderr
    assert "Usage: seers" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "LOADED []", out.stdout[-300:]


@pytest.mark.parametrize("path", [p for p, c in COMMANDS if any("--game" in q.opts for q in c.params)],
                         ids=lambda p: " ".join(p))
def test_every_game_option_names_the_four_games(path):
    """A user reading ``--game``'s help learns which games it takes and that the others exist."""
    from seers_env.games import GAMES

    text = _option_help(_help(path), "--game")
    for name in GAMES:
        assert name in text, (path, name, text)


def test_the_app_help_names_the_four_games():
    flat = " ".join(_help(()).split())
    assert "Seers Catalog, SCOUT, Haggis and Seals" in flat
