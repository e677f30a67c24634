"""Bad input is refused clearly and early: command-line options are all checked before anything is
written, and each error names its option; saved configs, games and logs of junk give a TypeError or
ValueError naming the bad field (never a bare KeyError, OverflowError or a silent conversion)."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from seers_env import Game, GameConfig, Play


def _run(args, **kw):
    from seers_cli import app

    return CliRunner().invoke(app, args, env={"COLUMNS": "200"}, **kw)


# --- the command line ----------------------------------------------------------------------------------
def test_train_with_a_negative_seed_writes_nothing_and_names_the_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default --out is runs/ in the working folder
    result = _run(["train", "--seed", "-1", "--name", "x"])
    assert result.exit_code == 2, result.output
    assert "'--seed'" in result.output and "-1 is not allowed" in result.output
    assert not (tmp_path / "runs").exists()
    # the name stays free: a later good run is not refused for an existing folder
    again = _run(["train", "--seed", "-1", "--name", "x"])
    assert "exists" not in again.output


@pytest.mark.parametrize("args,option", [
    (["--minibatch", "0"], "--minibatch"),
    (["--players", "7"], "--players"),
    (["--games-in-flight", "0"], "--games-in-flight"),
    (["--learning-rate", "-1"], "--learning-rate"),
    (["--init-model", "no_such_model.pt"], "--init-model"),
    (["--eval-agents", "nobody"], "--eval-agents"),
    (["--baseline", "nobody"], "--baseline"),
    (["--final-games", "-1"], "--final-games"),
    (["--workers", "0"], "--workers"),
    (["--algo", "maskable-ppo", "--envs", "0"], "--envs"),
    (["--algo", "maskable-ppo", "--eval-agents", "nobody"], "--eval-agents"),
    (["--algo", "maskable-ppo", "--opponents", "nobody:1"], "--opponents"),
    (["--algo", "maskable-ppo", "--seed", "-3"], "--seed"),
])
def test_train_option_errors_name_the_option_and_write_nothing(tmp_path, args, option):
    result = _run(["train", *args, "--out", str(tmp_path / "runs"), "--name", "x"])
    assert result.exit_code == 2, result.output
    assert f"'{option}'" in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("command", [["eval", "--games", "1"], ["demo"], ["play"], ["bench", "engine"],
                                     ["bench", "env"]])
def test_every_seed_option_refuses_a_negative_seed_naming_it(command, tmp_path):
    result = _run([*command, "--seed", "-5"])
    assert result.exit_code == 2, result.output
    assert "'--seed'" in result.output and "-5 is not allowed; use an integer >= 0" in result.output


def test_play_and_eval_option_errors_name_the_option():
    for args, option in ((["play", "--seat", "9"], "--seat"), (["play", "--players", "7"], "--players"),
                         (["play", "--agents", "nobody"], "--agents"), (["play", "--rounds", "0"], "--rounds"),
                         (["eval", "--seat-baseline", "nobody", "--games", "1"], "--seat-baseline")):
        result = _run(args, input="")
        assert result.exit_code == 2 and option in result.output, (args, result.output)


# --- saved configs, games and logs -------------------------------------------------------------------------
@pytest.mark.parametrize("bad,exc,words", [
    ({"n_players": 4.7, "n_rounds": 4, "artifact_deck": []}, TypeError, "n_players=4.7"),
    ({"n_players": "4", "n_rounds": 4, "artifact_deck": []}, TypeError, "n_players='4'"),
    ({"n_players": True, "n_rounds": 4, "artifact_deck": []}, TypeError, "n_players=True"),
    ({"n_players": math.inf, "n_rounds": 4, "artifact_deck": []}, TypeError, "n_players=inf"),
    ({"n_players": 4, "n_rounds": 2.0, "artifact_deck": []}, TypeError, "n_rounds=2.0"),
    ({"n_players": 4, "n_rounds": -math.inf, "artifact_deck": []}, TypeError, "n_rounds=-inf"),
    ({"n_players": 4, "n_rounds": 4, "artifact_deck": "go_first"}, TypeError, "artifact_deck"),
    ({"n_players": 4, "n_rounds": 4, "artifact_deck": [1, 2]}, TypeError, "artifact_deck"),
    ({"n_players": 4, "n_rounds": 4}, ValueError, "artifact_deck"),
    ({"n_players": 9, "n_rounds": 4, "artifact_deck": []}, ValueError, "n_players=9"),
    ([4, 4, []], TypeError, "dict"),
])
def test_game_config_from_dict_refuses_junk_naming_the_field(bad, exc, words):
    with pytest.raises(exc) as info:
        GameConfig.from_dict(bad)
    assert words in str(info.value)
    assert "allowed" in str(info.value) or "must" in str(info.value) or "lacks" in str(info.value)


def test_game_config_round_trips():
    for config in (GameConfig(), GameConfig(n_players=2, n_rounds=1, artifact_deck=())):
        assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert GameConfig.from_dict({"n_players": np.int64(3), "n_rounds": 2, "artifact_deck": []}).n_players == 3


def _played_game() -> Game:
    game = Game(GameConfig(n_players=3, n_rounds=2), seed=4)
    rng = np.random.default_rng(0)
    for _ in range(40):
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def _tampered(d, path, value):
    d = copy.deepcopy(d)
    target = d
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


@pytest.mark.parametrize("path,value,exc,words", [
    (("hands",), KeyError, ValueError, "hands"),
    (("hands",), "x", ValueError, "hands"),
    (("hands", 0), "x", TypeError, "hands[0]"),
    (("hands", 0, 0), 999, ValueError, "hands[0]"),
    (("hands", 0, 0), 1.5, TypeError, "hands[0]"),
    (("hidden",), [-1], ValueError, "hidden"),
    (("suits",), [7], ValueError, "suits"),
    (("current",), 3, ValueError, "current"),
    (("current",), "0", TypeError, "current"),
    (("round",), 5, ValueError, "round"),
    (("passed",), [1, 0, 0], TypeError, "passed[0]"),
    (("game_over",), "no", TypeError, "game_over"),
    (("top",), [1, 2], ValueError, "top"),
    (("trick",), [[0]], TypeError, "trick[0]"),
    (("trick",), [[7, {"kind": 0}]], ValueError, "trick[0]"),
    (("trick",), [[0, {"kind": "x"}]], TypeError, "kind"),
    (("round_scores",), [[1, 2]], ValueError, "round_scores[0]"),
    (("rng_state",), {"a": 1}, ValueError, "rng_state"),
    (("rng_state", "bit_generator"), "x", ValueError, "rng_state"),
    (("rng_state", "state"), {"a": 1}, ValueError, "rng_state"),
    (("rng_state", "uinteger"), -1, ValueError, "rng_state"),
    (("initial_rng_state",), [], ValueError, "initial_rng_state"),
    (("events",), "x", TypeError, "events"),
    (("events", 0), 5, TypeError, "events[0]"),
    (("config", "n_players"), 3.0, TypeError, "n_players"),
    (("config",), KeyError, ValueError, "config"),
])
def test_game_from_dict_refuses_junk_naming_the_field(path, value, exc, words):
    saved = json.loads(json.dumps(_played_game().to_dict()))
    with pytest.raises(exc) as info:
        Game.from_dict(_tampered(saved, path, value))
    assert words in str(info.value), str(info.value)


@pytest.mark.parametrize("path,value,exc,words", [
    (("events",), KeyError, ValueError, "events"),
    (("events", 0), {"a": 1}, TypeError, "events[0]"),
    (("events", 0, "hands"), KeyError, ValueError, "events[0]"),
    (("events", 1, "play"), KeyError, TypeError, "events[1] play"),
    (("events", 1, "play"), {"kind": "x"}, TypeError, "events[1] play: Play field kind='x'"),
    (("events", 1, "play"), {"kind": 1, "suited": "ab"}, TypeError, "suited"),
    (("events", 1, "play"), {"kind": 1, "colour": 3}, ValueError, "colour"),
    (("events", 1, "play"), {"kind": 1, "meld_type": 1, "size": 1, "rank": 4, "suited": [999]}, ValueError,
     "events[1]"),
    (("config", "n_rounds"), True, TypeError, "n_rounds=True"),
    (("config", "n_players"), math.inf, TypeError, "n_players=inf"),
    (("config",), {"a": 1}, ValueError, "n_players"),
    (("initial_rng_state",), KeyError, ValueError, "initial_rng_state"),
    (("initial_rng_state", "state", "state"), -1, ValueError, "initial_rng_state"),
    (("initial_rng_state", "bit_generator"), "default_rng", ValueError, "initial_rng_state"),
])
def test_game_replay_refuses_junk_naming_the_field(path, value, exc, words):
    log = json.loads(json.dumps(_played_game().log()))
    with pytest.raises(exc) as info:
        Game.replay(_tampered(log, path, value))
    assert words in str(info.value), str(info.value)


def test_game_replay_refuses_plays_after_the_end_and_a_bad_upto():
    game = Game(GameConfig(n_players=2, n_rounds=1), seed=1)
    while not game.game_over:
        game.apply(game.legal_plays()[0])
    log = game.log()
    play = next(e for e in log["events"] if e["event"] == "play")
    log["events"].append(copy.deepcopy(play))
    with pytest.raises(ValueError, match=r"events\[\d+\]: a play after the end of the game"):
        Game.replay(log)
    with pytest.raises(TypeError, match="dict"):
        Game.replay([log])
    for upto in (-1, 1.5, True):
        with pytest.raises(ValueError, match="upto"):
            Game.replay(game.log(), upto=upto)


def test_play_from_dict_checks_types():
    with pytest.raises(TypeError, match="wilds=True"):
        Play.from_dict({"kind": 1, "wilds": True})
    with pytest.raises(TypeError, match="rank=4.0"):
        Play.from_dict({"kind": 1, "rank": 4.0})
    with pytest.raises(TypeError, match="dict"):
        Play.from_dict([1])
    with pytest.raises(ValueError, match="kind"):
        Play.from_dict({"rank": 4})
    assert Play.from_dict({"kind": np.int64(0)}) == Play(0)


def test_any_junk_in_a_saved_game_or_log_is_a_type_or_value_error():
    """Every field of a saved game and of a log, set to junk or deleted: only TypeError or ValueError
    (IllegalPlayError is one), never KeyError, IndexError, AttributeError or OverflowError."""
    game = _played_game()
    junk = [None, "x", 4.7, -1, 10**30, [], [999], {"a": 1}, math.inf, True, [["a"]], KeyError]

    def paths(obj, prefix=()):
        if prefix:
            yield prefix
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(obj, list):
            for i, v in enumerate(obj[:2]):
                yield from paths(v, prefix + (i,))

    cases = 0
    for load, data in ((Game.from_dict, game.to_dict()), (Game.replay, game.log())):
        data = json.loads(json.dumps(data))
        for path in list(paths(data)):
            for value in junk:
                try:
                    bad = _tampered(data, path, value)
                except (KeyError, IndexError, TypeError):
                    continue
                cases += 1
                try:
                    load(bad)
                except (TypeError, ValueError):
                    pass
    assert cases > 1000


@pytest.mark.parametrize("game, agents, words", [
    ("seals", "learned:train/models/haggis_learned_2p.pt,heuristic", "trained for Haggis"),
    ("haggis", "learned:train/models/scout_learned_2p.pt,heuristic", "trained for SCOUT"),
    ("scout", "learned:train/models/learned_4p.pt,heuristic", "trained for Seers Catalog"),
    ("seals", "ismcts:abc,heuristic", "ismcts:abc"),
])
def test_eval_names_agents_for_an_agent_of_another_game(game, agents, words):
    """``seers eval``: an agent that cannot play ``--game`` is refused before any deal, naming --agents."""
    result = _run(["eval", "--game", game, "--agents", agents, "--games", "1", "--no-progress"])
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "Invalid value for --agents" in flat and words in flat, result.output


# --- Haggis and Seals: a wrong table or spec names the game and what it allows ----------------------------
@pytest.mark.parametrize("args, text", [
    (["train", "--game", "haggis", "--players", "4"], "Haggis: n_players=4 is not allowed; use an integer in 2..3"),
    (["train", "--game", "seals", "--players", "5"], "Seals: n_players=5 is not allowed; use an integer in 2..4"),
    (["play", "--game", "haggis", "--players", "4"], "Haggis: n_players=4 is not allowed; use an integer in 2..3"),
    (["eval", "--game", "haggis", "--agents", "heuristic,greedy,random,random"],
     "Haggis: n_players=4 is not one of 2..3 (4 agent specs given, one per seat)"),
])
def test_a_wrong_player_count_names_the_game_and_its_counts(args, text, tmp_path):
    result = _run([*args, *(["--out", str(tmp_path / "runs")] if args[0] == "train" else [])])
    assert result.exit_code == 2, result.output
    assert text in " ".join(result.output.split()), result.output
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("spec, text", [
    ("foo", "unknown agent spec 'foo'; valid specs for Haggis: random, greedy, heuristic,"),
    ("ppo:x.zip", "agent spec 'ppo:x.zip' plays Seers Catalog only, not 'haggis'; for 'haggis' use random,"),
])
def test_an_agent_spec_the_game_cannot_use_lists_the_games_specs(spec, text):
    from agents.specs import VALID_SPECS, valid_specs

    result = _run(["eval", "--game", "haggis", "--agents", f"heuristic,{spec}", "--games", "1"])
    assert result.exit_code == 2, result.output
    out = " ".join(result.output.split())
    assert text in out and "learned+search:<iterations>" in out and "rllib:" not in out.split(text)[1]
    assert valid_specs("seers_catalog") == tuple(s for s in VALID_SPECS if not s.startswith("rollout"))
    assert "rollout:<shuffles>" in valid_specs("seals")
    assert [s for s in valid_specs("seals") if s.startswith(("ppo", "rllib"))] == []
    seers = " ".join(_run(["eval", "--agents", "heuristic,foo"]).output.split())
    assert "valid specs: random" in seers and "ppo:<path to model.zip>" in seers  # every form for Seers Catalog


def test_an_environment_given_another_games_position_says_so():
    from seers_env import haggis_v0, seals_v0
    from seers_env.haggis.game import HaggisGame
    from seers_env.seals.game import SealsGame

    seals = SealsGame(seed=1).to_dict()
    env = haggis_v0.env()
    with pytest.raises(ValueError, match=r"options\['game'\] is a Seals game \(its 'game' is 'seals'\); "
                                         r"this environment plays 'haggis'"):
        env.reset(options={"game": seals})
    with pytest.raises(ValueError, match="is not a game"):
        seals_v0.env().reset(options={"game": {**HaggisGame(seed=0).to_dict(), "game": "chess"}})
    env.reset(options={"game": HaggisGame(seed=0).to_dict()})  # its own game's position still starts
    assert env.unwrapped.game.to_dict() == HaggisGame(seed=0).to_dict()
