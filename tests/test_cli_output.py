"""What the ``seers`` command prints when piped: ``play`` and ``replay`` fit COLUMNS (80 when unset),
``runs`` with nothing trained yet says so, and ``eval`` refuses a Seers Catalog option for another game."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from seers_cli import app

runner = CliRunner()

#: Scripted answers: the first play a few times (bets, rotations, takes...), then quit.
ANSWERS = "1\n" * 6 + "q\n"


def _too_wide(text: str, width: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > width]


@pytest.mark.parametrize("game", ["seers_catalog", "scout", "seals", "haggis"])
def test_piped_play_and_replay_fit_80_columns(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short --save path: the line naming it fits too
    played = runner.invoke(app, ["play", "--game", game, "--seed", "3", "--save", "g.json"], input=ANSWERS,
                           env={"COLUMNS": "80"})
    assert played.exit_code == 0, played.output
    assert "You quit the game." in played.output
    assert _too_wide(played.output, 80) == []
    # piped input is echoed after its prompt: the next line of output starts a line of its own
    assert "Your play (number, or h for help): 1\n" in played.output
    moves = sum(1 for e in json.loads((tmp_path / "g.json").read_text())["events"] if e.get("event") == "play")
    assert moves > 0
    for args, text in ((["--all"], ""), ([], "\n\n2\ns\nq\n")):
        replayed = runner.invoke(app, ["replay", "g.json", *args], input=text, env={"COLUMNS": "80"})
        assert replayed.exit_code == 0, replayed.output
        assert _too_wide(replayed.output, 80) == []


@pytest.mark.parametrize("game, table", [("scout", "cards  pile  chips"), ("seers_catalog", "cards  total")])
def test_a_narrow_screen_shows_the_seats_as_words_not_split_columns(game, table):
    narrow = runner.invoke(app, ["play", "--game", game, "--seed", "1"], input="1\n1\nq\n", env={"COLUMNS": "40"})
    assert narrow.exit_code == 0, narrow.output
    assert _too_wide(narrow.output, 40) == []
    assert table not in narrow.output and "cards, " in narrow.output  # "player 0 (you): 11 cards, pile 0, ..."
    assert "[move" not in narrow.output
    full = runner.invoke(app, ["play", "--game", game, "--seed", "1"], input="1\n1\nq\n", env={"COLUMNS": "80"})
    assert table in full.output  # at 80 columns the seats stay a table


def test_replay_prompt_is_short_on_a_narrow_screen(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner.invoke(app, ["play", "--game", "seals", "--seed", "2", "--save", "g.json"], input=ANSWERS)
    narrow = runner.invoke(app, ["replay", "g.json"], input="\nq\n", env={"COLUMNS": "40"})
    assert narrow.exit_code == 0, narrow.output
    assert "Enter/N/a/s/q" in narrow.output and _too_wide(narrow.output, 40) == []
    full = runner.invoke(app, ["replay", "g.json"], input="\nq\n", env={"COLUMNS": "80"})
    assert "Enter: next, N: N moves, a: all, s: state, q: quit" in full.output


def test_runs_with_no_runs_folder_says_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["runs"])
    assert result.exit_code == 0, result.output
    assert "No runs yet" in result.output and "no runs/ folder here" in result.output
    assert "'seers train'" in result.output and "Error" not in result.output
    assert _too_wide(result.output, 80) == []
    listed = runner.invoke(app, ["runs", "--json"])
    assert listed.exit_code == 0 and json.loads(listed.output) == []
    assert not (tmp_path / "runs").exists()  # listing makes nothing


def test_runs_in_an_empty_folder_names_it_and_a_bad_out_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    empty = runner.invoke(app, ["runs", "--out", str(tmp_path / "empty")])
    assert empty.exit_code == 0 and "No runs yet in" in empty.output
    assert f"seers train --out {tmp_path / 'empty'}" in empty.output
    missing = runner.invoke(app, ["runs", "--out", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "--out" in missing.output and "no runs folder" in missing.output
    (tmp_path / "file").write_text("x")
    afile = runner.invoke(app, ["runs", "--out", str(tmp_path / "file")])
    assert afile.exit_code == 2 and "is a file, not a folder of runs" in " ".join(afile.output.split())


@pytest.mark.parametrize("game, title", [("scout", "SCOUT"), ("seals", "Seals"), ("haggis", "Haggis")])
@pytest.mark.parametrize("flag", ["--no-artifacts", "--artifacts"])
def test_eval_refuses_a_seers_catalog_option_for_another_game(game, title, flag, tmp_path):
    out = tmp_path / "e.json"
    result = runner.invoke(app, ["eval", "--game", game, flag, "--agents", "random,random", "--games", "1",
                                 "--no-progress", "--out", str(out)])
    assert result.exit_code == 2, result.output
    flat = " ".join(result.output.split())
    assert f"Invalid value for '{flag}'" in flat and "Seers Catalog (--game seers_catalog) only" in flat
    assert f"{title} (--game {game}) would ignore it" in flat
    assert not out.exists()  # refused before any deal


def test_eval_takes_the_seers_catalog_option_for_its_game(tmp_path):
    out = tmp_path / "e.json"
    result = runner.invoke(app, ["eval", "--no-artifacts", "--agents", "random,random", "--games", "1",
                                 "--workers", "1", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["games"]
    help_text = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "80"}).output
    assert "Options of seers_catalog only:\n  --artifacts / --no-artifacts" in help_text


# --- a new user's first commands for Haggis and Seals (docs/newuser_haggis_seals.md) -----------------------
class _Stop(Exception):
    """Raised by the stand-in learner: the command got as far as training, with this configuration."""


@pytest.mark.parametrize("game, players", [("haggis", 3), ("seals", 3), ("scout", 4), ("seers_catalog", 4)])
def test_train_defaults_to_a_table_the_game_allows(game, players, tmp_path, monkeypatch):
    import train.selfplay_run

    seen = {}

    def stand_in(cfg, **kw):
        seen["players"], seen["game"] = cfg.n_players, cfg.game
        raise _Stop

    monkeypatch.setattr(train.selfplay_run, "run_selfplay", stand_in)
    result = runner.invoke(app, ["train", "--game", game, "--out", str(tmp_path / "runs")])
    assert isinstance(result.exception, _Stop), result.output  # not refused: Haggis has no 4-player table
    assert seen == {"players": players, "game": game}
    text = " ".join(runner.invoke(app, ["train", "--help"], env={"COLUMNS": "80"}).output.split())
    assert "Seals 2..4 and Haggis 2..3 (default 3)" in text and "SCOUT 2..5 (default 4)" in text
    assert "default 400, SCOUT, Seals and Haggis 200" in text


def test_train_help_defaults_agree_with_the_code():
    from seers_cli.train_cmd import FINAL_GAMES, TRAIN_PLAYERS
    from seers_cli.play_cmd import DEFAULT_PLAYERS
    from seers_env.games import game_spec

    assert FINAL_GAMES["scout"] == FINAL_GAMES["seals"] == FINAL_GAMES["haggis"]  # one figure in the help
    assert TRAIN_PLAYERS == DEFAULT_PLAYERS  # seers train and seers play default to the same tables
    for game, n in TRAIN_PLAYERS.items():
        assert game_spec(game).check_players(n) == n


@pytest.mark.parametrize("game, title, players", [("haggis", "Haggis: 1 deal x 3 seat rotations = 3 games, 3 "
                                                   "players, 1 round, seed 0", 3),
                                                  ("seals", "Seals: 1 deal x 3 seat rotations = 3 games, 3 "
                                                   "players, a 5-Mark round counter, seed 0", 3)])
def test_eval_default_agents_fit_the_game_and_the_title_reads_well(game, title, players):
    args = ["eval", "--game", game, "--games", "1", "--workers", "1", "--no-progress"]
    result = runner.invoke(app, args + (["--rounds", "1"] if game == "haggis" else []), env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert title in " ".join(result.output.split())
    assert "rounds," not in result.output.splitlines()[0] and _too_wide(result.output, 80) == []
    rows = [x for x in result.output.splitlines() if x.startswith("| ") and not x.startswith("| agent")]
    assert sorted(r.split("|")[1].strip() for r in rows) == ["greedy", "heuristic", "random"]


def test_the_final_table_note_names_rounds_in_good_grammar():
    from agents.tournament import run_tournament
    from seers_cli.train_cmd import final_table_header

    one = run_tournament(["random", "random"], 1, seed=0, workers=1, n_rounds=1, progress=False, game="haggis")
    title, (note,) = final_table_header("1 x random", one)
    assert title == "Learned agent vs 1 x random: 1 deal x 2 seat rotations" and note.endswith("2 games of 1 round")
    seals = run_tournament(["random", "random"], 1, seed=0, workers=1, progress=False, game="seals")
    assert final_table_header("1 x random", seals)[1][0].endswith("2 games with a 5-Mark round counter")


def test_bench_env_haggis_says_how_long_it_measures(monkeypatch):
    import seers_cli.game_bench as gb

    monkeypatch.setattr(gb, "bench_game", lambda *a, **k: print("measured"))
    result = CliRunner().invoke(app, ["bench", "env", "--game", "haggis", "--seconds", "2"])
    assert result.exit_code == 0, result.output
    assert "Measuring 5 environments" in result.stderr and "about 10 s plus start-up" in result.stderr
    assert result.stdout.strip() == "measured"  # the table alone on stdout


def test_serve_and_bench_help_state_haggis_limits():
    serve = " ".join(runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "80"}).output.split())
    assert "(Seals 2..4, Haggis 2..3)" in serve
    bench = " ".join(runner.invoke(app, ["bench", "env", "--help"], env={"COLUMNS": "80"}).output.split())
    assert "(Seers Catalog only)" not in bench and "--game haggis: 5,000 haggis_v0 steps" in bench


def test_train_header_reads_well_for_one_minute_in_the_learners_process(tmp_path, monkeypatch):
    import train.selfplay_run

    def stop(*a, **k):
        raise _Stop

    monkeypatch.setattr(train.selfplay_run, "train_selfplay", stop)
    result = runner.invoke(app, ["train", "--game", "haggis", "--minutes", "1", "--out", str(tmp_path),
                                 "--name", "h"], env={"COLUMNS": "80"})
    assert isinstance(result.exception, _Stop), result.output
    header = " ".join(result.output.split())
    assert "self-play PPO for 1 minute (Haggis, 3 players, 32 games in the learner's process)" in header
    assert "actor(s)" not in header and "1 minutes" not in header


def test_piped_tables_never_break_a_word_at_its_hyphen():
    """A caption wrapped at 80 columns keeps "half-width" and "per-deal" whole (textwrap's default would
    print "half-" at the end of a line and "width" on the next)."""
    result = runner.invoke(app, ["eval", "--game", "seals", "--agents", "heuristic,random", "--games", "2",
                                 "--workers", "1", "--no-progress", "--baseline", "random"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert [x for x in result.output.splitlines() if x.endswith("-")] == [] and "half-width" in result.output
    assert _too_wide(result.output, 80) == []


def test_markdown_and_drawn_table_captions_keep_hyphenated_words_whole(capsys):
    from agents.tournament import markdown_table
    from seers_cli.tables import print_cells

    cells = {"title": "t", "headers": ["a"], "rows": [["1"]], "legend": [], "caption": ["x" * 72 + " half-width"]}
    lines = markdown_table(cells).splitlines()
    assert lines[-2:] == ["x" * 72, "  half-width"]
    print_cells(cells)
    assert "half-\n" not in capsys.readouterr().out
