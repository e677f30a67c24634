"""Baseline agents: legality at every player count, spec strings, rule behaviour, no peeking."""

import subprocess
import sys

import numpy as np
import pytest
from hidden_info import swap_unseen_cards

from agents import VALID_SPECS, GreedyAgent, HeuristicAgent, ISMCTSAgent, RandomAgent, make_agent
from agents.heuristic import fewest_melds, hand_value
from seers_env.artifacts import HIGHEST_SINGLE
from seers_env.cards import WILD, artifact_card, suited_card
from seers_env.game import Game, GameConfig
from seers_env.plays import MeldType, PlayKind
from seers_env.view import SeatView

SPECS = ["random", "greedy", "heuristic", "ismcts:4"]


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_every_agent_only_returns_legal_plays(n_players):
    for game_seed in range(2):
        agents = [make_agent(SPECS[(s + game_seed) % len(SPECS)], seed=s) for s in range(n_players)]
        game = Game(GameConfig(n_players=n_players, n_rounds=2), seed=100 * n_players + game_seed)
        moves = 0
        while not game.game_over:
            seat = game.current
            play = agents[seat].act(SeatView(game, seat))
            assert play in game.legal_plays(), (agents[seat].name, play)
            game.apply(play)
            moves += 1
        assert moves > 10 and len(game.round_scores) == 2


@pytest.mark.parametrize("spec", ["greedy", "heuristic"])
def test_rule_agents_only_return_legal_plays_over_many_games(spec):
    rng = np.random.default_rng(1)
    for g in range(12):
        n = 2 + g % 4
        agent = make_agent(spec)
        game = Game(GameConfig(n_players=n, n_rounds=1), seed=g)
        while not game.game_over:
            legal = game.legal_plays()
            if game.current == 0:
                play = agent.act(SeatView(game, 0))
                assert play in legal
            else:
                play = legal[int(rng.integers(len(legal)))]
            game.apply(play)


def test_make_agent_specs():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    a = make_agent("ismcts:50", seed=1)
    assert isinstance(a, ISMCTSAgent) and a.iterations == 50 and a.seconds is None and a.name == "ismcts:50"
    b = make_agent("ismcts:0.25s")
    assert b.seconds == 0.25
    assert make_agent("ismcts").iterations == 200
    for bad in ("", "foo", "random:3", "ismcts:abc", "ismcts:0", "ismcts:-1s", "ppo:"):
        with pytest.raises(ValueError, match="valid specs"):
            make_agent(bad)
    assert "ismcts:<seconds>s" in VALID_SPECS


def test_make_agent_does_not_import_torch_for_engine_agents():
    code = ("import sys, agents\n"
            "for s in ('random', 'greedy', 'heuristic', 'ismcts:2'): agents.make_agent(s)\n"
            "assert 'torch' not in sys.modules, 'torch imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def _game_with_hand(hand, n_players=4, seed=0):
    """A 4-player game where the player to act holds ``hand`` (the others keep their deal)."""
    game = Game(GameConfig(n_players=n_players, artifact_deck=()), seed=seed)
    game.hands[game.current] = sorted(hand)
    game._invalidate()
    return game


def test_greedy_leads_lowest_cards_and_follows_with_smallest_beating_meld():
    y, p = 0, 1
    hand = [suited_card(y, 3), suited_card(p, 3), suited_card(y, 9), suited_card(p, 12), WILD]
    game = _game_with_hand(hand)
    play = GreedyAgent().act(SeatView(game, game.current))
    # the lowest value is 3: the most cards with it is both 3s plus the wild (a Set of three 3s)
    assert play.meld_type == MeldType.SET and play.rank == 6 and play.wilds == 1 and len(play.suited) == 2
    game.apply(play)
    # the next player follows a Set of three 3s with its smallest beating Set, or passes
    seat = game.current
    follow = GreedyAgent().act(SeatView(game, seat))
    beating = [q for q in game.legal_plays() if q.kind == PlayKind.MELD]
    if beating:
        assert follow.rank == min(q.rank for q in beating)
    else:
        assert follow.kind == PlayKind.PASS


def test_fewest_melds_examples():
    def fm(cards):
        return fewest_melds(cards)

    Y, P, S = 0, 1, 2
    assert fm([]) == 0
    assert fm([suited_card(Y, 2)]) == 1
    # a run 3-4-5 in Yellow plus 5s in two other suits: run + Set of 5s = 2
    assert fm([suited_card(Y, 3), suited_card(Y, 4), suited_card(Y, 5), suited_card(P, 5),
               suited_card(S, 5)]) == 2
    # 4 5 6 7 in Yellow and 6 in Plum, Silver: run 4-5 + Set of three 6s + 7 = 3, or run 4-7 + Set 6,6 = 2
    assert fm([suited_card(Y, v) for v in (4, 5, 6, 7)] + [suited_card(P, 6), suited_card(S, 6)]) == 2
    # no wrap-around: Yellow 13 and Yellow 2 are two melds
    assert fm([suited_card(Y, 13), suited_card(Y, 2)]) == 2


def test_hand_value_prefers_high_bonus_hands_and_no_wilds_at_the_end():
    high = [suited_card(0, 12), suited_card(1, 12)]
    low = [suited_card(0, 3), suited_card(1, 3)]
    assert hand_value(high) > hand_value(low)
    assert hand_value(high) > hand_value([suited_card(0, 12), WILD])
    assert hand_value([suited_card(0, 12), artifact_card(HIGHEST_SINGLE)]) < hand_value(
        [suited_card(0, 12), suited_card(1, 12)])


def test_heuristic_plays_a_whole_run_rather_than_breaking_it():
    hand = [suited_card(0, v) for v in (3, 4, 5, 6)] + [suited_card(1, 10)]
    game = _game_with_hand(hand)
    play = HeuristicAgent().act(SeatView(game, game.current))
    assert play.meld_type == MeldType.RUN and play.size == 4


@pytest.mark.parametrize("spec", ["greedy", "heuristic", "ismcts:6"])
def test_agents_do_not_read_other_hands(spec):
    rng = np.random.default_rng(4)
    for g in range(3):
        game = Game(GameConfig(n_players=4), seed=g)
        for _ in range(int(rng.integers(0, 12))):
            legal = game.legal_plays()
            game.apply(legal[int(rng.integers(len(legal)))])
        seat = game.current
        other = swap_unseen_cards(game, seat)
        p1 = make_agent(spec, seed=7).act(SeatView(game, seat))
        p2 = make_agent(spec, seed=7).act(SeatView(other, seat))
        assert p1 == p2


def test_ismcts_is_reproducible_for_a_seed_and_validates_budget():
    game = Game(GameConfig(n_players=3), seed=3)
    view = SeatView(game, game.current)
    assert ISMCTSAgent(iterations=10, seed=5).act(view) == ISMCTSAgent(iterations=10, seed=5).act(view)
    with pytest.raises(ValueError, match="rollout"):
        ISMCTSAgent(rollout="smart")
    with pytest.raises(ValueError, match="top_k"):
        ISMCTSAgent(top_k=0)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSAgent(seconds=0)


def test_ismcts_time_budget_runs_at_least_one_iteration():
    game = Game(GameConfig(n_players=4), seed=1)
    agent = ISMCTSAgent(seconds=0.02, seed=0)
    play = agent.act(SeatView(game, game.current))
    assert play in game.legal_plays() and agent.last_iterations >= 1


def test_a_training_spec_without_its_entry_point_says_to_install_again(monkeypatch):
    """A listed spec whose entry point an older install lacks is not called unknown: the error says why."""
    import agents.specs as specs_module

    monkeypatch.setattr(specs_module, "_spec_plugin", lambda name: None)
    with pytest.raises(ValueError, match=r"'learned\+search:5'.*no 'seers.agent_specs' entry point "
                                         r"'learned\+search'.*pip install -e"):
        specs_module.make_agent("learned+search:5")
    with pytest.raises(ValueError, match="unknown agent spec 'ppo'"):  # ppo needs its path
        specs_module.make_agent("ppo")
    with pytest.raises(ValueError, match="unknown agent spec 'chess'"):
        specs_module.make_agent("chess")
