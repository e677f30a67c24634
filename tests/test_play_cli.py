"""``seers play`` and ``seers replay`` driven with scripted input (issue 6)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agents import make_agent
from seers_cli import play_cli
from seers_env.game import Game, GameConfig
from seers_env.plays import MeldType, Play, PlayKind
from seers_cli.tui import PlayMenu, format_hand, menu_group, menu_order, play_text
from seers_env.view import SeatView

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    play_cli.register(app, typer.Typer())
    return app


APP = _app()


def _flat(text: str) -> str:
    """Output with rich's error box and all whitespace removed (rich wraps long lines anywhere)."""
    return "".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


#: Piped output is wrapped to COLUMNS (80 when unset); tests that read whole lines of it set a wide one.
UNWRAPPED = {"COLUMNS": "1000"}


def _play(args: list[str], text: str, tmp_path: Path, env: dict | None = None):
    save = tmp_path / "game.json"
    result = runner.invoke(APP, ["play", *args, "--save", str(save)], input=text, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result, save


def _leader_seed_and_seat(n_players: int = 4, seed: int = 0) -> tuple[int, int, Game]:
    """A seed and the seat that acts first, so the human leads the first trick."""
    g = Game(GameConfig(n_players=n_players, n_rounds=1), seed=seed)
    return seed, g.current, g


def _human_plays(save: Path, seat: int) -> list[Play]:
    log = json.loads(save.read_text())
    return [Play.from_dict(e["play"]) for e in log["events"] if e["event"] == "play" and e["seat"] == seat]


def test_full_game_choosing_first_play_matches_independent_simulation(tmp_path):
    # The human always types 1 (the first play of the menu); agents are random with play_cli.agent_seed.
    seed = 5
    result, save = _play(["--players", "3", "--agents", "random,random", "--seed", str(seed),
                          "--rounds", "2"], "1\n" * 400, tmp_path)
    assert result.exit_code == 0, result.output
    game = Game(GameConfig(n_players=3, n_rounds=2), seed=seed)
    agents = {s: make_agent("random", seed=play_cli.agent_seed(seed, s)) for s in (1, 2)}
    while not game.game_over:
        s = game.current
        game.apply(menu_order(game.legal_plays())[0] if s == 0 else agents[s].act(SeatView(game, s)))
    assert "=== Game over ===" in result.output
    for s, total in enumerate(game.totals):
        assert re.search(rf"^  player {s}[^\n]*: {total}$", result.output, re.M)
    log = json.loads(save.read_text())
    assert log["agents"] == ["you", "random", "random"]
    assert Game.replay(log).totals == game.totals


def test_invalid_input_is_asked_again_then_quit_saves(tmp_path):
    seed, seat, _ = _leader_seed_and_seat()
    bad = ["abc", "", "0", "-3", "100000", "1.5", "f zzzz", "n", "b", "m", "?", "p"]
    result, save = _play(["--agents", "random", "--seat", str(seat), "--seed", str(seed), "--rounds", "1"],
                         "\n".join(bad + ["q"]) + "\n", tmp_path)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'abc' is not a play number or a command" in out
    assert "Type a play's number" in out
    assert "0 is not a play number; choose 1.." in out
    assert "-3 is not a play number" in out
    assert "100000 is not a play number" in out
    assert "'1.5' is not a play number" in out
    assert "You may not pass now" in out  # the Start Seer must lead
    assert "You quit the game." in out
    assert _human_plays(save, seat) == []  # nothing was played by the human
    assert "Traceback" not in out


def test_end_of_input_counts_as_quit(tmp_path):
    seed, seat, _ = _leader_seed_and_seat()
    result, save = _play(["--agents", "random", "--seat", str(seat), "--seed", str(seed)], "xyz\n", tmp_path)
    assert result.exit_code == 0
    assert "You quit the game." in result.output
    assert save.exists()


def test_every_legal_play_is_choosable_by_number_even_off_page(tmp_path):
    seed, seat, game = _leader_seed_and_seat(seed=11)
    legal = menu_order(game.legal_plays())
    assert len(legal) > 40  # leading: more plays than one page
    last = len(legal)
    result, save = _play(["--agents", "random", "--seat", str(seat), "--seed", str(seed), "--rounds", "1",
                          "--page-size", "10"], f"{last}\nq\n", tmp_path)
    assert result.exit_code == 0
    assert f"[{last}]" not in result.output  # not on the first page shown
    assert _human_plays(save, seat)[0] == legal[-1]


def test_run_view_lists_only_runs_and_choice_is_applied(tmp_path):
    seed, seat, game = _leader_seed_and_seat(seed=2)
    legal = menu_order(game.legal_plays())
    runs = [i for i, p in enumerate(legal) if p.meld_type == MeldType.RUN]
    assert runs
    result, save = _play(["--agents", "random", "--seat", str(seat), "--seed", str(seed), "--rounds", "1",
                          "--page-size", "1000"], f"r\n{runs[-1] + 1}\nq\n", tmp_path, UNWRAPPED)
    out = result.output
    section = out.split("Your plays: Suited Runs")[1].split("Your play (")[0]
    numbers = [int(n) for n in re.findall(r"\[\s*(\d+)\]", section)]
    assert numbers == [i + 1 for i in runs]
    assert all("Suited Run" in line for line in section.strip().splitlines()[1:])
    assert _human_plays(save, seat)[0] == legal[runs[-1]]


def test_filter_words_and_paging():
    game = Game(GameConfig(n_players=4), seed=11)
    legal = menu_order(game.legal_plays())
    menu = PlayMenu(game.legal_plays(), page_size=7)
    reply = menu.handle("f plum run")
    want = [i + 1 for i, p in enumerate(legal) if "plum" in p.describe().lower() and "run" in p.describe().lower()]
    got = [int(n) for n in re.findall(r"\[\s*(\d+)\]", "\n".join(reply.lines))]
    assert got == want[:7]
    pages = []
    reply = menu.handle("l")
    while True:
        pages += [int(n) for n in re.findall(r"\[\s*(\d+)\]", "\n".join(reply.lines))]
        if len(pages) >= len(legal):
            break
        reply = menu.handle("n")
    assert pages == list(range(1, len(legal) + 1))  # paging covers every play once, in order
    assert menu.handle("n").lines[-1] == reply.lines[-1]  # past the last page stays on it
    with pytest.raises(ValueError, match="page_size"):
        PlayMenu(legal, page_size=0)
    with pytest.raises(ValueError, match="at least one"):
        PlayMenu([])


def test_pass_command_passes_when_allowed():
    follow = [Play(PlayKind.PASS), Play(PlayKind.MELD, MeldType.SINGLE, 1, 18, (7,))]
    assert PlayMenu(follow).handle("p").play.is_pass
    assert PlayMenu(follow).handle(" 1 ").play == follow[1]  # natural melds before pass
    assert PlayMenu(follow).handle("2").play.is_pass


def test_hand_grouped_by_suit():
    # Yellow 2 (0), Yellow 9 (7), Teal 5 (3*12+3), wild (60), Go First (61); Rod-taken Teal 5 marked
    lines = format_hand([39, 0, 7, 60, 61], known=[39])
    assert lines[0].split() == ["Yellow", "2", "9"]
    assert lines[1].split() == ["Teal", "5*"]
    assert lines[2].split() == ["wild", "x1"]
    assert lines[3] == "  artifacts: Go First"


def test_bad_options_give_clear_errors(tmp_path):
    r = runner.invoke(APP, ["play", "--agents", "random,random"], input="q\n")
    assert r.exit_code == 2 and "4playersneed3agentspecs" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--agents", "nonsense"], input="q\n")
    assert r.exit_code == 2 and "nonsense" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--seat", "7", "--agents", "random"], input="q\n")
    assert r.exit_code == 2 and "seat7" in _flat(r.output)
    r = runner.invoke(APP, ["play", "--save", str(tmp_path / "no" / "g.json")], input="q\n")
    assert r.exit_code == 2 and "doesnotexist" in _flat(r.output)


def _random_log(tmp_path: Path, seed: int = 4) -> tuple[Path, Game]:
    game = Game(GameConfig(n_players=3, n_rounds=2), seed=seed)
    rng = np.random.default_rng(seed)
    while not game.game_over:
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
    path = tmp_path / "log.json"
    path.write_text(json.dumps(game.log()))
    return path, game


def test_replay_all_prints_every_move_in_order(tmp_path):
    path, game = _random_log(tmp_path)
    r = runner.invoke(APP, ["replay", str(path), "--all"], env=UNWRAPPED)
    assert r.exit_code == 0, r.output
    plays = [(e["seat"], play_text(Play.from_dict(e["play"]))) for e in game.events if e["event"] == "play"]
    lines = [ln for ln in r.output.splitlines() if re.match(r"^player \d+: ", ln)]
    assert lines == [f"player {s}: {d}" for s, d in plays]
    assert r.output.count("Round over.") == 2
    assert "=== Game over ===" in r.output


def test_replay_steps_on_enter_and_stops_on_q(tmp_path):
    path, game = _random_log(tmp_path)
    r = runner.invoke(APP, ["replay", str(path)], input="\n\nwhat\n5\ns\nq\n")
    assert r.exit_code == 0
    moves = re.findall(r"(?:^|quit )player \d+: ", r.output, re.M)  # a move starts a line or follows the prompt
    assert len(moves) == 1 + 2 + 5  # first move, two Enters, then 5 moves at once
    assert "'what' is not understood" in r.output
    assert "Replay stopped." in r.output
    assert "=== Game over ===" not in r.output


def test_replay_rejects_bad_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = runner.invoke(APP, ["replay", str(bad)])
    assert r.exit_code == 2 and "isnotreadableJSON" in _flat(r.output)
    bad.write_text(json.dumps({"events": []}))
    r = runner.invoke(APP, ["replay", str(bad)])
    assert r.exit_code == 2 and "isnotagamelog" in _flat(r.output)
    path, _ = _random_log(tmp_path)
    log = json.loads(path.read_text())
    first = next(e for e in log["events"] if e["event"] == "play")
    first["play"]["suited"] = [59, 58, 57]  # cards nobody holds like that
    first["play"]["size"] = 3
    path.write_text(json.dumps(log))
    r = runner.invoke(APP, ["replay", str(path)])
    assert r.exit_code == 2 and "illegalplay" in _flat(r.output)
    r = runner.invoke(APP, ["replay", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "missing.json" in _flat(r.output)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(alphabet="0123456789-abfhlmnpqrs ?\t", max_size=6), max_size=12))
def test_any_input_never_crashes(lines):
    seed, seat, _ = _leader_seed_and_seat(n_players=2)
    r = runner.invoke(APP, ["play", "--players", "2", "--agents", "random", "--seat", str(seat),
                            "--seed", str(seed), "--rounds", "1"], input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_seers_script_has_play_and_replay(tmp_path):
    seers = Path(sys.executable).parent / "seers"
    path, _ = _random_log(tmp_path)
    out = subprocess.run([str(seers), "replay", str(path), "--all"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "=== Game over ===" in out.stdout
    out = subprocess.run([str(seers), "play", "--agents", "random", "--rounds", "1"], input="q\n",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "You quit the game." in out.stdout


def test_menu_lists_natural_plays_before_wilds_and_artifacts():
    game = Game(GameConfig(n_players=4), seed=0)
    legal = game.legal_plays()
    ordered = menu_order(legal)
    groups = [menu_group(p) for p in ordered]
    assert sorted(ordered, key=legal.index) == legal  # the same plays
    assert groups == sorted(groups) and groups[0] == 0  # natural first when there is one
    naturals = [p for p in legal if not p.wild_values and p.artifact < 0 and p.kind == PlayKind.MELD]
    assert ordered[:len(naturals)] == naturals  # engine order within a group
    assert all("wild" not in p.describe() for p in naturals)
    help_text = "\n".join(PlayMenu(legal).handle("h").lines)
    assert "(unused)" in help_text and "natural plays first" in help_text


def test_pass_comes_before_plays_that_spend_a_wild():
    wild_single = Play(PlayKind.MELD, MeldType.SINGLE, 1, 18, (), wild_values=(9,))
    menu = PlayMenu([wild_single, Play(PlayKind.PASS)])
    assert menu.handle("1").play.is_pass and menu.handle("2").play == wild_single


def _screen_at_prompts(width: int, height: int, inputs: list[str], seed: int = 11, seat: int = 0):
    """Play with scripted input at a width x height screen; returns the output lines and, at each
    prompt, the rows that the prompt's screen shows above it."""
    out: list[str] = []
    screens: list[list[str]] = []

    def read_line(prompt: str) -> str:
        screens.append(out[-(height - 1):])
        if not inputs:
            raise EOFError
        return inputs.pop(0)

    play_cli.play_game(["heuristic"], 4, seat, seed, 1, True, 40, None, 0.0, read_line=read_line,
                       echo=out.append, width=width, height=height)
    return out, screens


def test_terminal_play_wraps_at_word_boundaries_and_keeps_hand_and_trick_on_screen():
    """At 80x30, leading with 369 legal plays: every line fits 80 columns and breaks between words, and
    each page of plays (the first, a view, the next page) shows under the seats, trick and hand."""
    game = Game(GameConfig(n_players=4, n_rounds=1), seed=11)
    assert game.current == 0 and len(game.legal_plays()) > 300
    out, screens = _screen_at_prompts(80, 30, ["r", "n", "q"])
    assert all(len(line) <= 80 for line in out)
    words = set(" ".join(play_text(p) for p in game.legal_plays()).replace(",", " ").split())
    for before, after in zip(out, out[1:]):  # a wrapped line continues, indented, with a whole word
        if after.startswith("      ") and not after.strip().startswith("["):
            assert before[-1:].isalnum() is False or before.split()[-1].strip(",") in words | {"as"}, (before, after)
            assert after.split()[0].strip(",") in words, after
    for screen in screens:
        text = "\n".join(screen)
        for must in ("Seats:", "Trick:", "Your hand:", "  artifacts: ", "legal plays: singles", "Your plays: "):
            assert must in text, (must, text)
        assert len(re.findall(r"^  \[\s*\d+\] ", text, re.M)) >= 5  # and a page of plays below them
    def page(screen: list[str]) -> list[int]:
        text = "\n".join(screen)
        return [int(n) for n in re.findall(r"^  \[\s*(\d+)\] ", text[text.rindex("Your plays: "):], re.M)]

    assert "Your plays: Suited Runs, page 2/" in "\n".join(screens[2])
    runs = [i + 1 for i, p in enumerate(menu_order(game.legal_plays())) if p.meld_type == MeldType.RUN]
    first, second = page(screens[1]), page(screens[2])
    assert first + second == runs[:len(first) + len(second)]  # page 2 follows page 1


def test_wrapped_play_keeps_whole_words_and_lines_up_after_its_number():
    from seers_cli.tui import wrap_line

    line = ("  [ 3] Suited Run of 4 in Teal up to 6: wild as 3, Green 4 as Teal, Teal 5, Teal 6, Suit "
            "Changer, Go First (unused)")
    lines = wrap_line(line, 80)
    assert len(lines) == 2 and all(len(x) <= 80 for x in lines)
    assert lines[1].startswith(" " * 7) and lines[1][7] != " "  # after "  [ 3] "
    assert " ".join(" ".join(lines).split()) == " ".join(line.split())  # nothing cut, nothing lost
    assert wrap_line("short", 80) == ["short"] and wrap_line(line, None) == [line]
    trick = "  player 3 (heuristic): Suited Run of 4 in Silver up to 5: Silver 2, Silver 3, Silver 4, wild as 5"
    assert wrap_line(trick, 80)[1].startswith("      Silver")  # indented 4 more, never "Sil" / "ver"


def test_summary_and_meld_to_beat_read_as_words_with_plurals():
    from seers_cli.play_cli import event_lines
    from seers_cli.tui import count, describe_top, format_trick, seat_name

    game = Game(GameConfig(n_players=4, n_rounds=1), seed=11)
    menu = PlayMenu(game.legal_plays())
    assert re.fullmatch(r"369 legal plays: singles \d+ \(s\), sets \d+ \(m\), runs \d+ \(r\), "
                        r"with an artifact \d+ \(a\), without \d+ \(c\)", menu.summary())
    assert PlayMenu([Play(PlayKind.PASS)]).summary().startswith("1 legal play: ")
    single = next(p for p in menu_order(game.legal_plays()) if p.meld_type == MeldType.SINGLE)
    game.apply(single)
    assert format_trick(game)[-1] == f"  to beat: a Single {single.describe().split()[1].rstrip(':')}, by player 0"
    assert describe_top(MeldType.SET, 3, 18) == "a Matching Set of three 9s"
    assert describe_top(MeldType.RUN, 4, 10) == "a Suited Run of 4 up to 5"
    assert describe_top(MeldType.SINGLE, 1, 17) == "a Single 8 1/2"
    assert seat_name(2) == "player 2" and seat_name(1, ["you", "greedy"]) == "player 1 (greedy)"
    assert (count(1, "card"), count(0, "card"), count(2, "move")) == ("1 card", "0 cards", "2 moves")
    won = event_lines({"event": "trick", "cards": [5], "won_by": 1}, game, None)
    assert won == ["  -> player 1 wins the trick (1 card) and leads next"]
    taken = event_lines({"event": "trick", "cards": [5, 6], "taken_by": 2}, game, None)
    assert "takes the trick's 2 cards" in taken[0]


def test_seats_line_says_card_for_one_card_and_keeps_its_columns():
    from seers_cli.tui import format_seats

    game = Game(GameConfig(n_players=2, n_rounds=1), seed=3)
    while min(len(h) for h in game.hands) > 1 and not game.game_over:
        game.apply(menu_order(game.legal_plays())[0])
    lines = format_seats(game)
    one = [x for x in lines if " 1 card " in x]
    assert one and not any(" 1 cards" in x for x in lines)
    assert len({x.index("total") for x in lines}) == 1  # the total column lines up
