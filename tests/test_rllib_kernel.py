"""The RLlib environment on the compiled kernel gives the episodes of its ``Game`` path: the same deals,
observations (bit for bit), offered rows, rewards, terminations and infos for the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from train.rllib_env import SeersMultiAgentEnv  # noqa: E402


def _same(a, b, where):
    assert a.keys() == b.keys(), where
    for aid in a:
        for key in a[aid]:
            x, y = a[aid][key], b[aid][key]
            assert x.dtype == y.dtype and x.shape == y.shape, (where, aid, key)
            assert np.array_equal(x, y), (where, aid, key, np.flatnonzero((x != y).ravel())[:10])


@pytest.mark.parametrize("config", [
    {"n_players": 2, "n_rounds": 2, "seed": 11},
    {"n_players": 3, "n_rounds": 2, "seed": 12, "artifact_deck": [], "max_plays": 6},
    {"n_players": 4, "n_rounds": 2, "seed": 13, "baseline": "heuristic", "baseline_seats": 0.5},
    {"n_players": 5, "n_rounds": 1, "seed": 14, "frozen_seats": 0.5, "max_plays": 8},
    {"n_players": 5, "n_rounds": 2, "seed": 15, "artifact_deck": [], "baseline": "heuristic",
     "baseline_seats": 0.4},
])
def test_kernel_path_gives_the_game_paths_episodes(config):
    kern = SeersMultiAgentEnv({**config, "kernel": True})
    game = SeersMultiAgentEnv({**config, "kernel": False})
    assert kern.on_kernel and not game.on_kernel and kern.game is None
    rng = np.random.default_rng(config["seed"])
    steps = 0
    for episode in range(3):
        ok, ig = kern.reset()
        og, _ = game.reset()
        _same(ok, og, (episode, "reset"))
        assert ig == {} and kern.agents == game.agents and kern._baselines.keys() == game._baselines.keys()
        done = not og
        while not done:
            (aid, o), = og.items()
            assert [p for p in kern.offered_plays()] == game.offered_plays()
            action = {aid: int(rng.choice(np.flatnonzero(o["action_mask"])))}
            ok, rk, tk, trk, ik = kern.step(action)
            og, rg, tg, trg, ig = game.step(action)
            steps += 1
            _same(ok, og, (episode, steps))
            assert rk == rg and tk == tg and trk == trg, (episode, steps)
            assert ik.keys() == ig.keys()
            for aid in ig:
                assert ik[aid]["score"] == ig[aid]["score"] and ik[aid]["reward"] == ig[aid]["reward"]
                assert np.array_equal(ik[aid]["baseline_score"], ig[aid]["baseline_score"], equal_nan=True)
            done = tg["__all__"]
        assert kern.game_over and kern.totals == game.totals == list(game.game.totals)
        assert kern.delivered == game.delivered
    assert steps > 20
    assert kern.rng.integers(2**62) == game.rng.integers(2**62)  # the same draws from the env's generator


def test_kernel_choice_follows_the_baseline():
    assert SeersMultiAgentEnv({"baseline": "heuristic", "baseline_seats": 0.5}).on_kernel
    assert SeersMultiAgentEnv({}).on_kernel
    assert not SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.5}).on_kernel
    assert SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.0}).on_kernel
    with pytest.raises(ValueError, match="kernel=True"):
        SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.5, "kernel": True})
