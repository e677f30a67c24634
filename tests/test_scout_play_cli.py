"""``seers play --game scout`` and ``seers replay`` of SCOUT logs, driven with scripted input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import typer
from typer.testing import CliRunner

from agents import make_agent
from seers_cli import play_cli
from seers_cli.scout_tui import ScoutShowStage, turn_items
from seers_env.scout import ScoutConfig, ScoutGame, ScoutPlay, ScoutSeatView
from seers_env.scout import render
from seers_env.scout.cards import CARD_NUMBERS
from seers_env.scout.plays import KEEP, ROTATE, SCOUT_SHOW

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    play_cli.register(app, typer.Typer())
    return app


APP = _app()


def _flat(text: str) -> str:
    """Output with rich's error box and all whitespace removed (rich wraps long lines anywhere)."""
    return "".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _wide(out: str) -> list[str]:
    """Lines over 80 columns, menu entries, moves and file names aside (a terminal wraps those)."""
    return [ln for ln in out.splitlines()
            if len(ln) > 80 and not re.match(r"^(  \[\s*\d+\] |player \d |Hands: |Game log saved)", ln)
            and max(map(len, ln.split()), default=0) <= 60]  # a long file path cannot be wrapped


def _simulate(n_players: int, seed: int, spec: str, seat: int = 0) -> ScoutGame:
    """The game ``seers play --game scout`` gives when the human always types 1: the first item of the
    menu is the engine's first legal play (shows, then scouts, before any Scout & Show)."""
    game = ScoutGame(ScoutConfig(n_players=n_players), seed=seed)
    agents = {s: make_agent(spec, seed=play_cli.agent_seed(seed, s), game="scout")
              for s in range(n_players) if s != seat}
    while not game.game_over:
        s = game.current
        game.apply(game.legal_plays()[0] if s == seat else agents[s].act(ScoutSeatView(game, s)))
    return game


def _plays(log: dict, seat: int | None = None) -> list[ScoutPlay]:
    return [ScoutPlay.from_list(e["play"]) for e in log["events"]
            if e["event"] == "play" and (seat is None or e["seat"] == seat)]


@pytest.mark.parametrize("n_players,spec,seed", [(2, "greedy", 3), (4, "random", 5)])
def test_whole_game_typing_1_matches_an_independent_game_and_replays(tmp_path, n_players, spec, seed):
    save = tmp_path / "scout.json"
    result = runner.invoke(APP, ["play", "--game", "scout", "--players", str(n_players), "--agents", spec,
                                 "--seed", str(seed), "--save", str(save)], input="1\n" * 2000)
    assert result.exit_code == 0, result.output
    out = result.output
    game = _simulate(n_players, seed, spec)
    rounds = 2 if n_players == 2 else n_players  # section 2
    assert out.count("keep or rotate your hand ---") == rounds
    assert f"Round {rounds} over: " in out and f"Round {rounds + 1} over" not in out
    assert "=== Game over ===" in out and "You quit" not in out
    assert ("Scout & Show" in out) == (n_players > 2)  # section 7: not in 2 players
    assert ("paying a Scout chip" in out) == (n_players == 2)
    # not a terminal, so nothing is wrapped: still every table and state line fits 80 columns
    assert _wide(out) == []
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s}[^\n]*: {total}$", out, re.M)
    winners = ", ".join(render.seat_label(w, ["you"] + [spec] * (n_players - 1)) for w in game.winners())
    assert f": {winners}\n" in out
    log = json.loads(save.read_text())
    assert log["game"] == "scout" and log["agents"] == ["you"] + [spec] * (n_players - 1)
    assert _plays(log) == _plays(game.log())
    # replay of the saved log: every move in words, the same round ends and final scores
    r = runner.invoke(APP, ["replay", str(save), "--all"])
    assert r.exit_code == 0, r.output
    assert r.output.count("=== Game over ===") == 1
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s}[^\n]*: {total}$", r.output, re.M)
    moves = [ln for ln in r.output.splitlines() if re.match(r"^player \d \(", ln)]
    assert len(moves) == len(_plays(log))
    scores = re.findall(r"^  player (\d) \([^)]*\)\s+\d+\s+\d+\s+(?:-?\d+|exempt)\s+([+-]\d+)\s+(-?\d+)$",
                        r.output, re.M)
    assert [int(x[1]) for x in scores] == [x for row in game.round_scores for x in row]


def test_replay_steps_and_shows_every_hand(tmp_path):
    save = tmp_path / "scout.json"
    runner.invoke(APP, ["play", "--game", "scout", "--players", "3", "--agents", "greedy", "--seed", "1",
                        "--save", str(save)], input="1\n" * 2000)
    r = runner.invoke(APP, ["replay", str(save)], input="\n4\ns\nwhat\nq\n")
    assert r.exit_code == 0, r.output
    assert len(re.findall(r"(?:^|quit)player \d \(", r.output, re.M)) == 1 + 1 + 4
    assert "'what' is not understood" in r.output and "Replay stopped." in r.output
    assert r.output.count("  pos  ") >= 3 + 3  # the deal and 's' show every hand
    assert "=== Game over ===" not in r.output


def _scripted(n_players: int, seat: int, seed: int, answer, spec: str = "greedy", width: int | None = None,
              height: int | None = None, save: Path | None = None):
    """Play with ``answer(out, prompt) -> str`` (raise EOFError to stop) giving each input line."""
    out: list[str] = []

    def read_line(prompt: str) -> str:
        out.append(f"<prompt> {prompt}")
        return answer(out)

    game = play_cli.play_game([spec], n_players, seat, seed, None, True, 40, save, 0.0, read_line=read_line,
                              echo=out.append, width=width, height=height, game="scout")
    return game, out


def _menu_numbers(out: list[str], pattern: str) -> list[int]:
    """Numbers of the menu lines matching ``pattern`` since the last page heading."""
    start = max(i for i, line in enumerate(out) if line.startswith("Your plays: "))
    return [int(m.group(1)) for line in out[start:] if (m := re.match(r"^\s*\[\s*(\d+)\] " + pattern, line))]


def test_scout_and_show_in_two_stages_with_back(tmp_path):
    """Seat 1 of 4 (seat 0 starts and shows): 'ss' lists the Scout & Show scouts, one opens the shows
    after it, 'c' goes back, and choosing again plays the first show of that scout."""
    script = iter(["1", "ss", "PICK", "h", "c", "PICK", "1"])
    chosen: list[int] = []
    stage2_heads: list[str] = []

    def answer(out):
        try:
            step = next(script)
        except StopIteration:
            raise EOFError from None
        if step == "PICK":
            numbers = _menu_numbers(out, "Scout & Show: ")
            chosen.append(numbers[0] if not chosen else chosen[0])
            return str(chosen[-1])
        if step in ("c", "1") and len(chosen) >= 1:
            stage2_heads.append(next(x for x in reversed(out) if x.startswith("Scout & Show: you scout ")))
        return step

    save = tmp_path / "g.json"
    game, out = _scripted(4, 1, 2, answer, save=save)
    text = "\n".join(out)
    assert "Your plays: Scout & Show (first the scout)" in text
    assert text.count("Your plays: the shows after your scout") == 2 and len(stage2_heads) == 2
    assert "You quit the game." in text and "Scout & Show, second stage:" in text  # its help
    assert _wide(text) == []
    log = json.loads(save.read_text())
    mine = [p for p in _plays(log, 1) if p.kind not in (KEEP, ROTATE)]
    assert len(mine) == 1 and mine[0].kind == SCOUT_SHOW
    seats = [e["seat"] for e in log["events"] if e["event"] == "play"]
    upto = next(i for i, (s, p) in enumerate(zip(seats, _plays(log))) if s == 1 and p.kind == SCOUT_SHOW)
    before = ScoutGame.replay(log, upto=upto)
    items, texts = turn_items(before)
    stage = items[chosen[0] - 1]
    assert isinstance(stage, ScoutShowStage) and mine[0] == stage.plays[0]
    assert stage2_heads[0] == f"Scout & Show: you scout {render.scout_words(before, *stage[:3])}."
    assert f"player 1 (you) uses Scout & Show: scouts {render.scout_words(before, *stage[:3])}" in text


def test_bad_input_is_asked_again_and_end_of_input_quits_saving(tmp_path):
    save = tmp_path / "g.json"
    bad_rotation = ["3", "0", "x", ""]
    bad_turn = ["abc", "", "0", "-3", "100000", "1.5", "f zzzz", "n", "b", "b", "sc", "sh", "?", "c", "p"]
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", "4", "--agents", "random", "--seed", "4",
                            "--save", str(save)], input="\n".join(bad_rotation + ["1"] + bad_turn) + "\n",
                      env={"COLUMNS": "1000"})  # whole lines: the saved log's long path
    assert r.exit_code == 0, r.output
    out = r.output
    assert "3 is not a play number; choose 1..2." in out and "0 is not a play number; choose 1..2." in out
    assert "'x' is not a play number or a command" in out
    assert "Type a play's number" in out
    assert re.search(r"100000 is not a play number; choose 1\.\.\d+\.", out)
    assert "-3 is not a play number" in out and "'1.5' is not a play number" in out
    assert "'c' is not a play number" in out and "'p' is not a play number" in out  # not SCOUT commands here
    assert "Your plays: all plays containing 'zzzz'" in out and "(none; l shows all plays)" in out
    assert "Show: the segment of your hand" in out  # help
    assert _wide(out) == []
    assert "You quit the game." in out and f"Game log saved to {save}" in out
    log = json.loads(save.read_text())
    assert _plays(log, 0) == [ScoutPlay(KEEP)]  # only the keep; every bad line was asked again
    assert "Traceback" not in out


def test_rotation_choices_stay_hidden_until_everyone_chose(tmp_path):
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", "4", "--seat", "2", "--agents", "greedy",
                            "--seed", "9"], input="2\nq\n", env={"COLUMNS": "1000"})  # whole lines
    assert r.exit_code == 0, r.output
    before, after = r.output.split("keep or rotate your hand ---", 1)
    assert " kept" not in before and " rotated" not in before and "keeps" not in before
    assert "Your hand rotated:" in after
    line = next(x for x in after.splitlines() if x.startswith("Hands: "))
    assert "player 2 (you) rotated" in line and line.count("player ") == 4


def test_lines_fit_80_columns_and_each_page_keeps_the_hand_on_screen():
    """At 80x30 with long agent names: every line fits, and each prompt's screen shows the seats, the
    Active Set and the hand above a page of plays."""
    height = 30
    screens = []
    count = iter(range(10_000))

    def answer(out):
        screens.append(out[-(height - 1):])
        if next(count) > 60:
            raise EOFError
        return "1"

    game, out = _scripted(5, 0, 6, answer, spec="ismcts:1", width=80, height=height)
    assert all(len(line) <= 80 for line in out if not line.startswith("<prompt>")), \
        [line for line in out if len(line) > 80]
    turns = 0
    for screen in screens:
        heads = [i for i, x in enumerate(screen) if x.startswith("--- SCOUT round ")]
        assert heads, screen  # the whole state is on screen above the plays
        if "keep or rotate" in screen[heads[-1]]:
            continue
        turns += 1
        text = "\n".join(screen[heads[-1]:])
        for must in ("Seats:", "Active Set: ", "Your hand (", "  up   ", "  down ", "Your plays: "):
            assert must in text, (must, text)
    assert turns > 5
    # a table row never wraps: seat labels are cut to fit
    long = ["you", "learned:/a/very/long/path/to/some/model.pt", "x" * 60]
    g = ScoutGame(ScoutConfig(n_players=3), seed=1)
    lines = render.seats_lines(g, long) + render.state_lines(g, 0, long) + render.hand_lines(list(range(40)), 80)
    assert all(len(x) <= 80 for x in lines)


def test_hand_table_shows_both_numbers_in_order():
    g = ScoutGame(ScoutConfig(n_players=4), seed=3)
    faces = g.hand_faces(0)
    pos, up, down = render.hand_lines(faces)
    assert [int(x) for x in pos.split()[1:]] == list(range(len(faces)))
    assert [int(x) for x in up.split()[1:]] == g.hand_values(0)
    others = []
    for card, top in g.hands[0]:
        a, b = CARD_NUMBERS[card]
        others.append(b if top == a else a)
    assert [int(x) for x in down.split()[1:]] == others
    assert render.set_words([5, 5, 5]) == "a set of three 5s"
    assert render.set_words([6, 5, 4]) == "a run of 3 from 4 to 6" and render.set_words([7]) == "a single 7"
    assert render.gap_words([3, 8], 1) == "between 3 and 8" and render.gap_words([3, 8], 2) == "right end"


def _scout_log(tmp_path: Path) -> tuple[Path, dict]:
    save = tmp_path / "scout.json"
    runner.invoke(APP, ["play", "--game", "scout", "--players", "3", "--agents", "random", "--seed", "2",
                        "--save", str(save)], input="1\n" * 2000)
    return save, json.loads(save.read_text())


def test_wrong_game_and_damaged_logs_give_clear_errors(tmp_path):
    path, log = _scout_log(tmp_path)
    bad = tmp_path / "bad.json"

    def refused(obj, *musts) -> None:
        bad.write_text(obj if isinstance(obj, str) else json.dumps(obj))
        r = runner.invoke(APP, ["replay", str(bad), "--all"])
        assert r.exit_code == 2, r.output
        flat = _flat(r.output)
        assert "bad.json" in flat and "Traceback" not in r.output
        for must in musts:
            assert _flat(must) in flat, (must, r.output)

    refused({**log, "game": "chess"}, "field 'game'='chess' is not a game seers replay knows",
            "seers_catalog, scout")
    refused({**log, "game": ["scout"]}, "field 'game'=['scout']")
    refused({k: v for k, v in log.items() if k != "origin"}, "is not a game log", "origin")
    refused({**log, "config": {**log["config"], "n_players": 9}}, "n_players=9")
    refused({**log, "config": "x"}, "config must be a dict")
    refused({**log, "events": "x"}, "events must be a list")
    refused({**log, "agents": ["you"]}, "'agents' must be a list of 3 agent names")
    refused({**log, "initial_rng_state": {"bit_generator": "os.system"}}, "not a numpy bit generator")
    events = json.loads(json.dumps(log["events"]))
    plays = [e for e in events if e["event"] == "play"]
    plays[5]["play"] = [2, 0, 0, 0, 0, 40]  # a show of 40 cards
    refused({**log, "events": events}, "illegal play")
    plays[5]["play"] = [1, 2]
    refused({**log, "events": events}, "play 5", "a play is a list of 6 ints")
    plays[5]["play"] = [True, 0, 0, 0, 0, 0]
    refused({**log, "events": events}, "must be an int")
    events = json.loads(json.dumps(log["events"]))
    deal = next(e for e in events if e["event"] == "deal")
    deal["hands"][0][0], deal["hands"][0][1] = deal["hands"][0][1], deal["hands"][0][0]
    refused({**log, "events": events}, "the logged first deal differs")
    refused("{not json", "is not readable JSON")
    refused("[" * 100_000 + "]" * 100_000, "is not readable JSON")
    refused([1, 2], "is not a game log")
    # a Seers Catalog log labelled SCOUT, and a SCOUT log without its label (read as Seers Catalog)
    from seers_env.game import Game, GameConfig

    seers = Game(GameConfig(n_players=3, n_rounds=1), seed=1).log()
    refused({**seers, "game": "scout"}, "is not a game log")
    refused({k: v for k, v in log.items() if k != "game"}, "config")
    r = runner.invoke(APP, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "missing.json" in _flat(r.output)


def test_seers_logs_record_their_game_and_old_ones_stay_seers(tmp_path):
    save = tmp_path / "seers.json"
    r = runner.invoke(APP, ["play", "--agents", "random", "--rounds", "1", "--save", str(save)], input="q\n")
    assert r.exit_code == 0, r.output
    log = json.loads(save.read_text())
    assert log["game"] == "seers_catalog"
    del log["game"]
    save.write_text(json.dumps(log))
    r = runner.invoke(APP, ["replay", str(save), "--all"])
    assert r.exit_code == 0 and "=== Round 1/1" in r.output and "SCOUT" not in r.output


def test_bad_scout_options_give_clear_errors(tmp_path):
    r = runner.invoke(APP, ["play", "--game", "chess"], input="q\n")
    assert r.exit_code == 2 and "'chess'isnotoneofseers_catalog,scout" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--game", "scout", "--no-artifacts"], input="q\n")
    assert r.exit_code == 2 and "artifactsareaSeersCatalogoption" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", "2", "--rounds", "3"], input="q\n")
    assert r.exit_code == 2 and "--rounds" in r.output and "n_rounds=3" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", "6"], input="q\n")
    assert r.exit_code == 2 and "n_players=6" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--game", "scout", "--agents", "random,random"], input="q\n")
    assert r.exit_code == 2 and "4playersneed3agentspecs" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", "3", "--rounds", "1", "--agents", "random"],
                      input="q\n")
    assert r.exit_code == 0 and "SCOUT round 1/1" in r.output


def test_replay_of_a_log_from_a_hand_made_position(tmp_path):
    from seers_env.scout.cards import face_by_numbers, face_pair

    hands = [[face_pair(face_by_numbers(t, b)) for t, b in row] for row in
             ([(3, 1), (4, 2)], [(7, 1), (7, 2)], [(9, 1), (9, 2)])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3, n_rounds=1), hands=hands)
    while not game.game_over:
        game.apply(game.legal_plays()[-1])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(game.log()))
    r = runner.invoke(APP, ["replay", str(path), "--all"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Starting position:") and "=== Game over ===" in r.output
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s}: {total}$", r.output, re.M)


@settings(max_examples=12, deadline=None)
@given(lines=st.lists(st.text(alphabet="0123456789-abcfhlnqsx ?\t", max_size=5), max_size=14),
       n_players=st.sampled_from([2, 3]))
def test_any_input_never_crashes(lines, n_players):
    r = runner.invoke(APP, ["play", "--game", "scout", "--players", str(n_players), "--agents", "random",
                            "--seed", "1", "--rounds", "1"], input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
