"""Haggis baseline agents (agents/haggis.py): legal, deterministic plays; bets from hand strength; bombs
kept; registered for the shared layers (seers eval --game haggis)."""

from __future__ import annotations

import pytest

from agents.games import agent_parts, greedy_class, heuristic_class
from agents.haggis import BET_THRESHOLDS, HaggisGreedyAgent, HaggisHeuristicAgent, hand_cost, number_mask
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisPlay, HaggisSeatView
from seers_env.haggis.cards import SETUP, faces_of, number_card
from seers_env.haggis.plays import BOMB, PASS, SET


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
    n = number_card
    strong = [n(s, r) for s in (0, 1) for r in range(2, 9)] + list(faces_of(0))  # one 2x7 sequence
    weak = [n(s, r) for s, r in ((0, 2), (1, 4), (2, 6), (3, 8), (0, 10), (1, 3), (2, 9), (3, 5), (1, 7),
                                 (1, 10), (2, 2), (3, 4), (0, 6), (1, 8))] + list(faces_of(0))
    # the same cards with 7c for 7d: a rainbow 3-5-7-9 bomb (3d 5s 7c 9h) instead of four singles
    bomb = [c for c in weak if c != n(1, 7)] + [n(0, 7)]
    assert hand_cost(number_mask(strong)) < 2 < 10 < hand_cost(number_mask(weak))
    assert hand_cost(number_mask(bomb)) < hand_cost(number_mask(weak))
    h = HaggisHeuristicAgent()
    assert h.strength(strong) < h.strength(bomb) < h.strength(weak)
    assert h.act(HaggisSeatView(_lead_position(strong), 0)) == HaggisPlay.bet(30)
    assert h.act(HaggisSeatView(_lead_position(weak), 0)) == HaggisPlay.bet(0)
    assert HaggisGreedyAgent().act(HaggisSeatView(_lead_position(strong), 0)) == HaggisPlay.bet(0)
    with pytest.raises(ValueError, match=r"bet_thresholds=\{2: \(1, 6, 5\)\} must map 2 and 3 players"):
        HaggisHeuristicAgent(bet_thresholds={2: (1, 6, 5)})
    # the round leader's first decision: leading counts as strength
    assert h.strength(weak, 3, leads=True) == h.strength(weak, 3) - BET_THRESHOLDS[3][0]


def _bomb_position(opponent_cards: int, lead: int = 10):
    """Seat 0 holds a rainbow 3-5-7-9 bomb and cards that cannot beat a single ``lead`` (both seats'
    face cards are captured); seat 1, left with ``opponent_cards`` after it, has just led it."""
    n = number_card
    hand = [n(0, 3), n(1, 5), n(2, 7), n(3, 9), n(0, 2), n(1, 2), n(0, 4), n(1, 4), n(2, 4), n(3, 6),
            n(0, 8), n(1, 8)]
    pool = [n(s, r) for s in range(4) for r in (2, 3, 4, 5, 6, 7, 8) if n(s, r) not in hand]
    other = pool[:opponent_cards] + [n(2, lead)]
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other], current=1,
                                 captured=[list(faces_of(0)), list(faces_of(1))])
    g.apply(HaggisPlay(SET, (n(2, lead),)))
    return g


def test_heuristic_keeps_a_bomb_when_the_trick_is_worthless():
    g = _bomb_position(opponent_cards=9)  # a pointless 10 led, the opponent far from going out
    view = HaggisSeatView(g, 0)
    assert any(p.kind == BOMB for p in view.legal_plays())
    assert HaggisHeuristicAgent().act(view).kind == PASS


def test_heuristic_bombs_to_stop_an_opponent_with_one_card_left():
    g = _bomb_position(opponent_cards=1)
    assert g.hand_sizes()[1] == 1
    p = HaggisHeuristicAgent().act(HaggisSeatView(g, 0))
    assert p.kind == BOMB and p in HaggisSeatView(g, 0).legal_plays()
    assert HaggisGreedyAgent().act(HaggisSeatView(g, 0)).kind == PASS  # greedy never bombs


def test_heuristic_sheds_a_low_single_first_and_keeps_the_bomb_on_its_lead():
    n = number_card
    hand = [n(0, 3), n(1, 5), n(2, 7), n(3, 9), n(0, 2), n(0, 6), n(1, 6), n(2, 6), n(1, 10), n(2, 10)]
    other = [n(s, r) for s in range(4) for r in (4, 8)] + [n(3, 2), n(1, 3)]
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other], current=0,
                                 captured=[list(faces_of(0)), list(faces_of(1))])
    assert HaggisHeuristicAgent().act(HaggisSeatView(g, 0)) == HaggisPlay(SET, (n(0, 2),))


def test_heuristic_goes_out_when_it_can():
    n = number_card
    hand = [n(0, 6), n(1, 6), n(2, 6)]
    other = [n(s, r) for s in range(4) for r in (2, 3)]
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, other], current=1,
                                 captured=[list(faces_of(0)), list(faces_of(1))])
    g.apply(HaggisPlay(SET, (n(0, 2), n(1, 2), n(2, 2))))
    assert HaggisHeuristicAgent().act(HaggisSeatView(g, 0)) == HaggisPlay(SET, tuple(hand))


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
