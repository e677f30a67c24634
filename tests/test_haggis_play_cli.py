"""``seers play --game haggis`` and ``seers replay`` of Haggis logs, driven with scripted input."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from agents import make_agent
from seers_cli import play_cli
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisSeatView
from seers_env.haggis import render
from seers_env.haggis.moves import combo_of
from seers_env.haggis.plays import HaggisPlay

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    play_cli.register(app, typer.Typer())
    return app


APP = _app()


def _simulate(n_players: int, seed: int, spec: str, rounds: int, seat: int = 0) -> HaggisGame:
    """The game the CLI gives when the human always types 1 (the engine's first legal play)."""
    game = HaggisGame(HaggisConfig(n_players=n_players, n_rounds=rounds), seed=seed)
    agents = {s: make_agent(spec, seed=play_cli.agent_seed(seed, s), game="haggis")
              for s in range(n_players) if s != seat}
    while not game.game_over:
        s = game.current
        game.apply(game.legal_plays()[0] if s == seat else agents[s].act(HaggisSeatView(game, s)))
    return game


def _wide(out: str) -> list[str]:
    """Lines over 80 columns, menu entries, seat lines and file paths aside (a path cannot be wrapped)."""
    return [ln for ln in out.splitlines() if len(ln) > 80 and not re.match(r"^(  \[\s*\d+\] |player \d |Game log saved)", ln)
            and max(map(len, ln.split()), default=0) <= 60]


@pytest.mark.parametrize("n_players,seed", [(2, 4), (3, 5)])
def test_whole_game_replays_with_the_same_scores(tmp_path, n_players, seed):
    save = tmp_path / "haggis.json"
    r = runner.invoke(APP, ["play", "--game", "haggis", "--players", str(n_players), "--agents", "greedy",
                            "--seed", str(seed), "--rounds", "1", "--save", str(save)],
                      input="what\n0\n" + "1\n" * 3000)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "'what' is not a play number or a command" in out and "0 is not a play number" in out
    assert "bet (before your first play)" in out and "Your hand (17): " in out
    assert "=== Game over ===" in out and "You quit" not in out
    game = _simulate(n_players, seed, "greedy", 1)
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s} \([^)]*\): {total}$", out, re.M)
    assert _wide(out) == []
    log = json.loads(save.read_text())
    assert log["game"] == "haggis" and len(log["agents"]) == n_players
    rep = runner.invoke(APP, ["replay", str(save), "--all"])
    assert rep.exit_code == 0, rep.output
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s} \([^)]*\): {total}$", rep.output, re.M)
    assert _wide(rep.output) == []


def test_shapes_are_named():
    seq = HaggisPlay.seq((0, 1, 2, 9, 10, 11), 2)  # 2c 3c 4c 2d 3d 4d
    assert render.choice_text(seq, combo_of(seq)) == "sequence of pairs 2-3-4 in c/d: 2c 2d 3c 3d 4c 4d"
    pair = HaggisPlay.set_of((5, 14))
    assert render.choice_text(pair).startswith("pair of 7s: ")


def test_filter_narrows_the_menu(tmp_path):
    r = runner.invoke(APP, ["play", "--game", "haggis", "--players", "2", "--seed", "1", "--rounds", "1"],
                      input="1\nf pairs\n")
    assert r.exit_code == 0, r.output
    tail = r.output.split("containing 'pairs'")[1]
    entries = re.findall(r"^\s*\[\s*\d+\] (.*)$", tail, re.M)
    assert entries and all("pairs" in e for e in entries)


def test_damaged_log_names_file_and_field(tmp_path):
    save = tmp_path / "haggis.json"
    runner.invoke(APP, ["play", "--game", "haggis", "--players", "2", "--seed", "2", "--rounds", "1",
                        "--save", str(save)], input="1\n" * 3000)
    log = json.loads(save.read_text())
    log["game"] = "chess"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    r = runner.invoke(APP, ["replay", str(bad)])
    assert r.exit_code != 0
    flat = "".join(re.sub(r"[│╭╮╰╯─]", " ", r.output).split())
    assert "bad.json" in flat and "'game'" in flat


def test_options_of_other_games_are_refused():
    r = runner.invoke(APP, ["play", "--game", "haggis", "--players", "2", "--artifacts"], input="")
    assert r.exit_code != 0 and "artifacts" in r.output
    r = runner.invoke(APP, ["play", "--game", "haggis", "--players", "3", "--target", "300"], input="")
    assert r.exit_code != 0 and "target" in r.output


def test_every_line_fits_80_columns_on_a_terminal():
    """With an 80x24 screen every line (moves and menu entries too) is wrapped to 80 columns, and a
    page of plays leaves the hand and the trick on screen."""
    out: list[str] = []
    answers = iter(["1", "n", "b", "sq"] + ["1"] * 3000)

    def read_line(prompt):
        out.append(prompt)
        return next(answers)

    game = play_cli.play_game(["heuristic"], 3, 0, 7, 1, True, 40, None, 0.0, read_line=read_line,
                              echo=out.append, width=80, height=24, game="haggis")
    assert game.game_over
    assert max(len(ln) for ln in out) <= 80
    heads = [ln for ln in out if ln.startswith("Your plays: all plays, page ")]
    assert heads  # a lead of 17 cards does not fit one 24-row page
    assert any(ln.startswith("Your plays: sequences") for ln in out)


def test_target_outside_haggis_is_a_value_error():
    with pytest.raises(ValueError, match="target=250.*Haggis option"):
        play_cli.play_game(["greedy"], 2, 0, 0, None, game="seals", target=250, read_line=lambda p: "q",
                           echo=lambda line: None)
