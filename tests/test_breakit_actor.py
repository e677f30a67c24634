"""The kernel self-play actor plays its heuristic baseline seats with the agent's weights as they are at
each rollout (HeuristicAgent.weights may change after construction), as the Game path does."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from train.selfplay import Actor, PlayScoringNet, SelfPlayConfig  # noqa: E402


def test_kernel_actor_follows_baseline_weight_changes():
    cfg = SelfPlayConfig(n_players=3, games_in_flight=2, baseline_seats=0.6, hidden=16, embed=8)
    torch.manual_seed(0)
    net = PlayScoringNet(cfg.net_config())
    on_games, on_kernel = Actor(cfg, 4, net, kernel=False), Actor(cfg, 4, net)
    assert on_kernel.on_kernel
    for actor in (on_games, on_kernel):
        actor.baseline_agent.weights.update(card=4.0, pass_danger=1.0, danger_cards=6)
    for _ in range(2):
        a, b = on_games.collect(), on_kernel.collect()
        for name in ("states", "plays", "offsets", "actions", "rewards", "traj"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
