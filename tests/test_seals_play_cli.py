"""``seers play --game seals`` and ``seers replay`` of Seals logs, driven with scripted input."""

from __future__ import annotations

import json
import re

import typer
from typer.testing import CliRunner

from agents import make_agent
from seers_cli import play_cli
from seers_env.seals import SealsConfig, SealsGame, SealsSeatView

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    play_cli.register(app, typer.Typer())
    return app


APP = _app()


def _simulate(n_players: int, seed: int, spec: str, seat: int = 0) -> SealsGame:
    """The game the CLI gives when the human always types 1 (the engine's first legal play)."""
    game = SealsGame(SealsConfig(n_players=n_players), seed=seed)
    agents = {s: make_agent(spec, seed=play_cli.agent_seed(seed, s), game="seals")
              for s in range(n_players) if s != seat}
    while not game.game_over:
        s = game.current
        game.apply(game.legal_plays()[0] if s == seat else agents[s].act(SealsSeatView(game, s)))
    return game


def test_whole_game_replays_with_the_same_scores(tmp_path):
    save = tmp_path / "seals.json"
    r = runner.invoke(APP, ["play", "--game", "seals", "--players", "2", "--agents", "greedy", "--seed", "3",
                            "--save", str(save)], input="x\n99\n" + "1\n" * 3000)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "'x' is not a play number or a command" in out
    assert "99 is not a play number" in out
    assert "=== Game over ===" in out and "You quit" not in out
    game = _simulate(2, 3, "greedy")
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s} \([^)]*\): {total}$", out, re.M)
    assert [ln for ln in out.splitlines() if len(ln) > 80 and not ln.startswith("Game log saved")
            and max(map(len, ln.split()), default=0) <= 60] == []  # a long file path cannot be wrapped
    log = json.loads(save.read_text())
    assert log["game"] == "seals" and log["agents"] == ["you", "greedy"]
    rep = runner.invoke(APP, ["replay", str(save), "--all"])
    assert rep.exit_code == 0, rep.output
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s} \([^)]*\): {total}$", rep.output, re.M)
    assert [ln for ln in rep.output.splitlines() if len(ln) > 80] == []


def test_end_of_input_quits_and_saves(tmp_path):
    save = tmp_path / "seals.json"
    r = runner.invoke(APP, ["play", "--game", "seals", "--players", "3", "--seed", "1", "--save", str(save)],
                      input="1\n")
    assert r.exit_code == 0, r.output
    assert "You quit the game." in r.output and save.exists()


def test_damaged_log_names_file_and_field(tmp_path):
    save = tmp_path / "seals.json"
    runner.invoke(APP, ["play", "--game", "seals", "--players", "2", "--seed", "2", "--save", str(save)],
                  input="1\n" * 3000)
    log = json.loads(save.read_text())
    del log["origin"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    r = runner.invoke(APP, ["replay", str(bad)])
    assert r.exit_code != 0
    flat = "".join(re.sub(r"[│╭╮╰╯─]", " ", r.output).split())
    assert "bad.json" in flat and "origin" in flat


def test_options_of_other_games_are_refused():
    r = runner.invoke(APP, ["play", "--game", "seals", "--target", "250"], input="")
    assert r.exit_code != 0 and "--target" in r.output
    r = runner.invoke(APP, ["play", "--game", "seals", "--artifacts"], input="")
    assert r.exit_code != 0 and "artifacts" in r.output


def test_declaration_menu_lists_the_sets_and_plays_the_chosen_one():
    """Seat 0 holds four 3s and four Coins after a take (section 4): the declare menu offers
    nothing, each set and both together; 'f coins' narrows it and the chosen one ends the round."""
    from seers_cli.seals_tui import SealsUI
    from seers_env.seals.cards import COIN, card_of

    threes = [card_of(c, 2) for c in range(4)]
    coins = [card_of(c, COIN) for c in range(4)]
    game = SealsGame.from_position(SealsConfig(n_players=2), row=[card_of(4, 6)], hands=[threes + coins, []],
                                   turns=1, phase="declare")
    out: list[str] = []
    answers = iter(["f coins", "9", "NUMBER"])

    def read_line(prompt):
        a = next(answers)
        if a == "NUMBER":  # the entry that declares four Coins alone
            line = next(ln for ln in out if ln.endswith("declare four Coins (3 Marks)"))
            return re.match(r"^\s*\[\s*(\d+)\]", line).group(1)
        return a

    play = SealsUI().ask(game, 0, ["you", "greedy"], 40, read_line, out.append, 80, None)
    texts = "\n".join(out)
    assert "declare sets (or nothing)" in texts and "declare nothing" in texts
    assert "declare four 3s + four Coins (4 Marks)" in texts
    assert "9 is not a play number" in texts
    assert play.marks() == 3 and game.is_legal(play)
    assert all(len(ln) <= 80 for ln in out)
