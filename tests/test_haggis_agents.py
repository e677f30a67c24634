"""Haggis baseline agents (agents/haggis.py): legal, deterministic plays; bets from hand strength; bombs
kept; registered for the shared layers (seers eval --game haggis)."""

from __future__ import annotations

import pytest

from agents.games import agent_parts, greedy_class, heuristic_class
from agents.haggis import HaggisGreedyAgent, HaggisHeuristicAgent, number_mask, structure_cost
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisPlay, HaggisSeatView
from seers_env.haggis.cards import SETUP, faces_of, number_card
from seers_env.haggis.plays import BOMB, SET


@pytest.mark.parametrize("n", [2, 3])
def test_agents_play_whole_games_legally_and_deterministically(n):
    results = []
    for _ in range(2):
        g = HaggisGame(HaggisConfig(n_players=n, n_rounds=1), seed=n)
        agents = [HaggisHeuristicAgent(), HaggisGreedyAgent(), HaggisHeuristicAgent()][:n]
        while not g.game_over:
            view = HaggisSeatView(g, g.current)
            p = agents[g.current].act(view)
            assert p in view.legal_plays()
            g.apply(p)
        results.append(g.to_dict()["events"])
    assert results[0] == results[1]
    with pytest.raises(ValueError, match="not to act"):
        HaggisGreedyAgent().act(HaggisSeatView(g, 0))


def test_registered_for_the_shared_layers():
    assert agent_parts("haggis").greedy == "agents.haggis:HaggisGreedyAgent"
    assert greedy_class("haggis") is HaggisGreedyAgent and heuristic_class("haggis") is HaggisHeuristicAgent


def _lead_position(hand0):
    rest = [c for c in SETUP[2].number_cards if c not in hand0]
    hands = [sorted(hand0), sorted(rest[:10] + list(faces_of(1)))]
    return HaggisGame.from_position(HaggisConfig(n_players=2), hands=hands, current=0, bets=[None, 0],
                                    captured=[[c for c in faces_of(0) if c not in hand0], []])


def test_heuristic_bets_from_hand_strength():
    strong = [number_card(s, r) for s in (0, 1) for r in range(2, 9)] + list(faces_of(0))
    weak = [number_card(s, r) for s, r in ((0, 2), (1, 4), (2, 6), (3, 8), (0, 10), (1, 3), (2, 9), (3, 5),
                                          (0, 7), (1, 10), (2, 2), (3, 4), (0, 6), (1, 8))] + list(faces_of(0))
    assert structure_cost(number_mask(strong)) < structure_cost(number_mask(weak))
    h = HaggisHeuristicAgent()
    assert h.act(HaggisSeatView(_lead_position(strong), 0)).amount > 0
    assert h.act(HaggisSeatView(_lead_position(weak), 0)).amount == 0
    assert HaggisGreedyAgent().act(HaggisSeatView(_lead_position(strong), 0)) == HaggisPlay.bet(0)


def test_heuristic_keeps_bombs_and_sheds_low_cards():
    hand = [number_card(0, 3), number_card(1, 5), number_card(2, 7), number_card(3, 9), number_card(0, 10)]
    other = [number_card(1, 4), number_card(2, 4), number_card(3, 4), number_card(0, 2), number_card(1, 2),
             number_card(2, 8), number_card(3, 2), number_card(0, 4), number_card(0, 6), number_card(1, 6),
             number_card(2, 6)]
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other], current=1,
                                 captured=[list(faces_of(0)), list(faces_of(1))])
    g.apply(HaggisPlay(SET, (number_card(2, 8),)))  # seat 1 leads an 8; seat 0 holds a rainbow bomb
    p = HaggisHeuristicAgent().act(HaggisSeatView(g, 0))
    assert p.kind != BOMB and p == HaggisPlay(SET, (number_card(3, 9),))
    # the opponent about to go out: the bomb is worth it
    short = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other[:3] + [number_card(2, 8)]],
                                     current=1, captured=[list(faces_of(0)), list(faces_of(1)) + other[3:5]])
    short.apply(HaggisPlay(SET, (number_card(2, 8),)))
    assert HaggisHeuristicAgent().act(HaggisSeatView(short, 0)).kind == BOMB
    lead = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other], current=0,
                                    captured=[list(faces_of(0)), list(faces_of(1))])
    p = HaggisHeuristicAgent().act(HaggisSeatView(lead, 0))
    assert p.kind == SET and max(c % 9 for c in p.cards) + 2 <= 5  # a low card first, the bomb kept


def test_seers_eval_tournament_runs_for_haggis():
    from agents.tournament import run_tournament

    result = run_tournament(["heuristic", "greedy"], 2, seed=1, workers=1, n_rounds=1, progress=False,
                            game="haggis")
    d = result.to_dict()
    assert d["game"] == "haggis" and d["deals"] == 2 and len(d["games"]) == 4
    assert d["agents"]["heuristic"]["games"] == d["agents"]["greedy"]["games"] == 4


def test_seers_eval_tournament_plays_haggis_to_the_target():
    """``seers eval --game haggis`` without --rounds: games end at the target, so the per-round score
    divides each game's total by the rounds it lasted, and the result survives its JSON round trip."""
    import json

    import numpy as np

    from agents.tournament import TournamentResult, run_tournament, table_cells

    result = run_tournament(["heuristic", "greedy"], 1, seed=3, workers=1, progress=False, game="haggis")
    assert result.n_rounds is None
    for label in ("heuristic", "greedy"):
        per_round = [g["totals"][g["seats"].index(label)] / len(g["round_scores"]) for g in result.games]
        assert result.agents[label].mean_round_score == pytest.approx(float(np.mean(per_round)))
    assert max(max(g["totals"]) for g in result.games) >= 350  # played to the default target
    assert "to the target score" in table_cells(result)["title"]
    again = TournamentResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again.n_rounds is None and again.agents["greedy"].mean_score == result.agents["greedy"].mean_score
