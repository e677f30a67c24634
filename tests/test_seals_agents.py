"""Seals agents (agents/seals.py) and the shared agents on Seals: the greedy rule, the heuristic's wins,
denials and declarations on hand-made positions, ISMCTS through the protocol, the agent hooks and a
small tournament."""

from __future__ import annotations

import numpy as np
import pytest

from agents.games import greedy_class, heuristic_class
from agents.ismcts import ISMCTSAgent
from agents.seals import SealsGreedyAgent, SealsHeuristicAgent, hand_value, needs
from agents.specs import make_agent
from agents.tournament import run_tournament
from seers_env.seals import SealsConfig, SealsGame, SealsPlay, SealsSeatView
from seers_env.seals.cards import COIN, RUN, card_of, symbol_counts
from seers_env.seals.moves import taken_cards

RED, BLUE, GREEN, YELLOW, BLACK = range(5)


def num(colour: int, number: int) -> int:
    return card_of(colour, number - 1)


def _view(row, hands, current=0, **kw) -> SealsSeatView:
    game = SealsGame.from_position(row=row, hands=hands, current=current, **kw)
    return SealsSeatView(game, current)


def test_needs_counts_missing_cards_per_set_kind():
    counts = symbol_counts([num(RED, 3), num(BLUE, 3), num(RED, 10)] + [card_of(c, COIN) for c in range(4)])
    n = needs(counts)
    assert n[2] == 2 and n[9] == 3 and n[COIN] == 0 and n[0] == 4 and n[RUN] == 8


def test_greedy_takes_what_brings_a_set_closest_then_the_most_cards():
    row = [num(GREEN, 3), num(YELLOW, 9), num(RED, 9), num(BLUE, 9)]
    view = _view(row, [[num(RED, 3), num(BLUE, 3)], [], []])
    assert SealsGreedyAgent().act(view) == SealsPlay.symbol(8)  # three 9s: one card short, three cards


def test_both_agents_complete_a_set_when_a_take_does_and_declare_the_most_marks():
    hand = [num(c, 3) for c in range(3)] + [num(c, 8) for c in range(3)]
    row = [num(BLACK, 3), num(RED, 1), num(RED, 2), num(BLUE, 5)]
    for agent in (SealsGreedyAgent(), SealsHeuristicAgent()):
        game = SealsGame.from_position(row=row, hands=[hand, [], []])
        play = agent.act(SealsSeatView(game, 0))
        assert num(BLACK, 3) in taken_cards(game.row, play)
        game.apply(play)
        assert game.phase == "declare" and agent.act(SealsSeatView(game, 0)) == SealsPlay.declare([2])
    full = [num(c, 3) for c in range(4)] + [num(c, 8) for c in range(4)] + [card_of(c, COIN) for c in range(4)]
    for agent in (SealsGreedyAgent(), SealsHeuristicAgent()):
        game = SealsGame.from_position(row=[num(BLACK, 1)], hands=[full, [], []], phase="declare", turns=1)
        declaration = agent.act(SealsSeatView(game, 0))
        assert declaration == SealsPlay.declare([2, 7, COIN]) and declaration.marks() == 6


def test_heuristic_denies_the_next_player_an_immediate_win_that_greedy_leaves():
    row = [num(BLACK, 7), num(RED, 1), num(RED, 2), num(BLUE, 5)]
    hands = [[], [num(c, 7) for c in range(3)], []]
    greedy = SealsGreedyAgent().act(_view(row, hands))
    heuristic = SealsHeuristicAgent().act(_view(row, hands))
    assert num(BLACK, 7) not in taken_cards(row, greedy)
    assert num(BLACK, 7) in taken_cards(row, heuristic)


def test_hand_value_drops_when_the_cards_a_set_needs_are_gone():
    counts = symbol_counts([num(c, 4) for c in range(3)])
    free = [5] * 11
    free[3] = 2
    assert hand_value(counts, free, 0.3) > 0
    free[3] = 0
    assert hand_value(counts, free, 0.3) < hand_value(counts, [5] * 11, 0.3)


def test_heuristic_scores_every_legal_play_in_order():
    game = SealsGame(SealsConfig(n_players=3), seed=4)
    rng = np.random.default_rng(0)
    agent = SealsHeuristicAgent()
    for _ in range(40):
        if game.game_over:
            break
        view = SealsSeatView(game, game.current)
        scored = agent.scores(view)
        assert [p for _, p in scored] == game.legal_plays()
        assert agent.act(view) in game.legal_plays()
        game.apply(game.legal_plays()[int(rng.integers(len(game.legal_plays())))])


def test_agent_hooks_and_specs_build_the_seals_agents():
    assert greedy_class("seals") is SealsGreedyAgent and heuristic_class("seals") is SealsHeuristicAgent
    assert isinstance(make_agent("heuristic", game="seals"), SealsHeuristicAgent)
    assert make_agent("random", game="seals").name == "random"
    with pytest.raises(ValueError, match="seals"):
        SealsHeuristicAgent().check_game("scout", None)


def test_ismcts_plays_legal_moves_reproducibly():
    plays = []
    for _ in range(2):
        game = SealsGame(SealsConfig(n_players=2), seed=6)
        agent = ISMCTSAgent(iterations=8, seed=3)
        seq = []
        for _ in range(8):
            if game.game_over:
                break
            view = SealsSeatView(game, game.current)
            play = agent.act(view)
            assert play in game.legal_plays()
            seq.append(play)
            game.apply(play)
        plays.append(seq)
    assert plays[0] == plays[1]


def test_small_tournament_orders_heuristic_greedy_random():
    result = run_tournament(["heuristic", "greedy", "random"], 6, seed=3, workers=1, progress=False, game="seals")
    score = {label: stats.mean_score for label, stats in result.agents.items()}
    assert score["heuristic"] > score["greedy"] > score["random"]
    assert result.game == "seals" and all(len(g["totals"]) == 3 for g in result.games)


def test_seers_eval_plays_seals_from_the_command_line():
    from typer.testing import CliRunner

    from seers_cli import app

    out = CliRunner().invoke(app, ["eval", "--game", "seals", "--agents", "heuristic,greedy,random", "--games", "2",
                                   "--seed", "1", "--workers", "1", "--no-progress"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "Seals: 2 deals x 3 seat rotations" in out.output and "heuristic" in out.output
    bad = CliRunner().invoke(app, ["eval", "--game", "seals", "--agents", "random,random,random,random,random",
                                   "--games", "1", "--no-progress"], env={"COLUMNS": "200"})
    assert bad.exit_code != 0 and "n_players" in bad.output
