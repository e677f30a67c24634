"""The compiled Seals heuristic and round (``agents.seals_rollout``) against the Python ones, and the
rollout agent's contract."""

from __future__ import annotations

import numpy as np
import pytest

from agents.seals import SealsHeuristicAgent
from agents.seals_rollout import SealsRolloutAgent, heuristic_take, play_round, take_scores, view_arrays, weight_array
from seers_env.seals.game import PHASE_TAKE, SealsConfig, SealsGame
from seers_env.seals.view import SealsSeatView


def _games(n_players: int, seeds):
    for seed in seeds:
        yield SealsGame(SealsConfig(n_players=n_players), seed=seed)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_compiled_heuristic_matches_python_at_every_take(n_players):
    agent = SealsHeuristicAgent()
    w, powers = weight_array(agent.weights)
    checked = 0
    for game in _games(n_players, range(8)):
        while not game.game_over:
            view = SealsSeatView(game, game.current)
            play = agent.act(view)
            if game.phase == PHASE_TAKE:
                hands, playing, row, row_len, pile = view_arrays(view)
                actions, scores = np.empty(16, np.int64), np.empty(16)
                n = take_scores(hands, view.seat, playing, row, row_len, pile, 0, len(pile), w, powers,
                                actions, scores)
                expected = agent.scores(view)
                assert [p.action for _, p in expected] == actions[:n].tolist()
                assert [s for s, _ in expected] == scores[:n].tolist()  # bit for bit
                assert heuristic_take(hands, view.seat, playing, row, row_len, pile, 0, len(pile), w,
                                      powers) == play.action
                checked += 1
            game.apply(play)
    assert checked > 100


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_compiled_round_matches_the_engine(n_players):
    agent = SealsHeuristicAgent()
    w, powers = weight_array(agent.weights)
    rounds = 0
    for game in _games(n_players, range(10, 16)):
        while not game.game_over:
            # the start of a round: empty hands; replay the round's pile order in the kernel
            assert game.turns == 0 and game.phase == PHASE_TAKE
            n_round = len(game.round_scores)
            pile = np.array(game.row + game.pile, np.int64)
            hands = np.zeros((n_players, 11), np.int64)
            row = np.zeros(4, np.int64)
            winner, marks, turns = play_round(hands, game.current, np.array(game.playing), row, 0, pile, 0,
                                              len(pile), 0, game.config.max_turns_per_round, w, powers)
            while len(game.round_scores) == n_round:
                game.apply(agent.act(SealsSeatView(game, game.current)))
            scores = game.round_scores[-1]
            expect_winner = next((s for s in range(n_players) if scores[s] > 0), -1)
            assert (winner, marks) == (expect_winner, max(scores))
            rounds += 1
    assert rounds >= 6


def test_rollout_agent_is_seeded_and_legal():
    game = SealsGame(SealsConfig(n_players=3), seed=5)
    for _ in range(6):
        game.apply(SealsHeuristicAgent().act(SealsSeatView(game, game.current)))
    view = SealsSeatView(game, game.current)
    a, b = SealsRolloutAgent(8, seed=1), SealsRolloutAgent(8, seed=1)
    pa, va, ha = a.take_values(view)
    pb, vb, hb = b.take_values(view)
    assert pa == pb and va.tolist() == vb.tolist() and ha == hb
    assert va.shape == (len(pa), 8)
    assert pa[ha] == SealsHeuristicAgent().act(view)
    assert pa == view.legal_plays()
    assert a.act(view) in view.legal_plays()
    for bad in (0, 1, -3, 2.5, True):
        with pytest.raises(ValueError, match="rollouts="):
            SealsRolloutAgent(bad)


def test_distillation_data_and_fit(tmp_path):
    from train.scoring_policy import load_policy
    from train.seals_distill import collect, concat, fit, load_data, save_data

    a = collect(2, 40, 4, seed=3)
    b = collect(2, 40, 4, seed=3)
    assert len(a) >= 40 and np.array_equal(a.q, b.q) and np.array_equal(a.plays, b.plays)  # seeded
    sizes = np.diff(a.offsets)
    assert (sizes > 1).all() and a.offsets[-1] == len(a.q) == len(a.plays)
    assert ((a.heuristic >= 0) & (a.heuristic < sizes)).all()
    both = concat([a, b])
    assert len(both) == 2 * len(a) and both.offsets[-1] == 2 * len(a.q)
    save_data(a, tmp_path / "d.npz")
    back = load_data(str(tmp_path / "d.npz"))
    assert np.array_equal(back.offsets, a.offsets) and np.array_equal(back.q, a.q)
    net, cfg, stats = fit(a, 2, 0.1, 1, 1e-3, 64, seed=0, log=lambda _: None)
    assert np.isfinite(stats["soft_ce"]) and stats["regret_vs_rollout_best"] >= 0
    from train.scoring_policy import save_policy

    save_policy(net, cfg.model_config(), tmp_path / "m.pt")
    assert load_policy(tmp_path / "m.pt")[1].game == "seals"


def test_rollout_spec_plays_seals_only():
    from agents.specs import make_agent, valid_specs

    agent = make_agent("rollout:8", seed=1, game="seals")
    assert isinstance(agent, SealsRolloutAgent) and agent.rollouts == 8 and agent.name == "rollout:8"
    assert make_agent("rollout", game="seals").rollouts == SealsRolloutAgent().rollouts
    assert "rollout:<shuffles>" in valid_specs("seals")
    assert "rollout:<shuffles>" not in valid_specs("scout")
    with pytest.raises(ValueError, match="plays seals only"):
        make_agent("rollout:8", game="scout")
    for bad in ("rollout:1", "rollout:x", "rollout:-4"):
        with pytest.raises(ValueError, match="bad rollout budget"):
            make_agent(bad, game="seals")
