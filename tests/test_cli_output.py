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
