"""The PettingZoo AEC environment (seers_env.env): PettingZoo's own tests, rewards (rules section 5),
illegal actions, determinism and the environment's contract."""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from seers_env.actions import N_ACTIONS
from seers_env.seers_catalog_v0 import IllegalActionError, env, raw_env
from seers_env.observation import OBS_DIM, STATE_DIM


def _play_out(e, seed, max_steps=100_000):
    """Random legal play until every agent is done; returns summed rewards per agent and step count."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(max_steps):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert (info["action_mask"] == obs["action_mask"]).all()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return total, steps


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_pettingzoo_api_seed_render_and_pickle(n_players):
    api_test(env(n_players=n_players, n_rounds=1), num_cycles=200)
    seed_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw), num_cycles=200)
    render_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw))
    e = env(n_players=n_players)
    e.reset(seed=5)
    for _ in range(10):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
    a, b = copy.last()[0], e.last()[0]
    assert (a["observation"] == b["observation"]).all() and (a["action_mask"] == b["action_mask"]).all()


@pytest.mark.parametrize("n_players", [2, 5])
def test_score_rewards_sum_to_final_totals(n_players):
    e = env(n_players=n_players, n_rounds=2)
    total, steps = _play_out(e, seed=11)
    game = e.unwrapped.game
    assert game.game_over and steps > 0
    assert [total[a] for a in e.possible_agents] == [float(t) for t in game.totals]


def test_win_rewards_follow_final_ranking():
    e = env(n_players=4, n_rounds=1, reward_mode="win")
    total, _ = _play_out(e, seed=2)
    game = e.unwrapped.game
    values = [total[a] for a in e.possible_agents]
    assert abs(sum(values)) < 1e-9
    winners = game.winners()
    assert all(values[w] == max(values) for w in winners)
    if len(winners) == 1:
        assert values[winners[0]] == 1.0


def test_spaces_are_built_once_per_agent():
    e = raw_env(n_players=3)
    assert e.observation_space("player_0") is e.observation_space("player_0")  # built once
    assert e.action_space("player_1") is e.action_space("player_1")
    # each agent has its own objects (PettingZoo classic convention): seeding one leaves the others alone
    assert e.observation_space("player_0") is not e.observation_space("player_2")
    assert e.action_space("player_0") is not e.action_space("player_1")
    assert e.action_space("player_0") == e.action_space("player_1")
    assert e.action_space("player_0").n == N_ACTIONS
    assert e.observation_space("player_0")["observation"].shape == (OBS_DIM,)
    e.reset(seed=1)
    assert e.state().shape == (STATE_DIM,) and e.state().dtype == np.float32
    assert e.metadata["name"] == "seers_catalog_v0"
    assert e.possible_agents == ["player_0", "player_1", "player_2"]


def test_registered_with_pettingzoo():
    import pettingzoo

    e = pettingzoo.make("aec", "seers/seers_catalog_v0", n_players=3)
    assert e.unwrapped.metadata["name"] == "seers_catalog_v0" and len(e.possible_agents) == 3


def test_illegal_action_penalize_ends_game():
    e = env(n_players=4)
    e.reset(seed=3)
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != agent)


def test_illegal_action_raise_changes_nothing():
    e = raw_env(n_players=4, illegal_action="raise")
    e.reset(seed=3)
    before = e.game.to_dict()
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not allowed"):
        e.step(bad)
    assert e.game.to_dict() == before and not any(e.terminations.values())


@pytest.mark.parametrize("action, err", [(N_ACTIONS, ValueError), (-1, ValueError), (1.0, TypeError),
                                          ("3", TypeError), (True, TypeError)])
def test_bad_actions_raise_clear_errors(action, err):
    e = env(n_players=3)
    e.reset(seed=4)
    before = e.unwrapped.game.to_dict()
    with pytest.raises(err, match="action"):
        e.step(action)
    assert e.unwrapped.game.to_dict() == before and not any(e.terminations.values())


def test_bad_config_raises():
    with pytest.raises(ValueError, match="reward_mode"):
        raw_env(reward_mode="points")
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="n_players"):
        raw_env(n_players=6)


def test_no_artifact_variant_runs():
    e = env(n_players=3, n_rounds=1, artifact_deck=())
    total, steps = _play_out(e, seed=8)
    assert steps > 0 and e.unwrapped.game.game_over


def test_multi_stage_decision_keeps_agent():
    e = raw_env(n_players=4)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        if not e.agents or all(e.terminations.values()):
            e.reset()
        agent = e.agent_selection
        obs, *_ = e.last()
        allowed = np.flatnonzero(obs["action_mask"])
        stage_before = e.decision.stage
        e.step(int(rng.choice(allowed)))
        if e.decision.stage > stage_before and not e.game.game_over and e.decision.chosen:
            assert e.agent_selection == agent and e.rewards[agent] == 0.0
            stage = obs["observation"]  # previous stage's observation said stage 0..
            now = e.observe(agent)["observation"]
            assert not np.array_equal(stage, now)
            return
    pytest.fail("no multi-stage decision met in 3000 steps")


_TRAJ = """
import hashlib, numpy as np
from seers_env.seers_catalog_v0 import env
e = env(n_players=4, n_rounds=1); e.reset(seed=9); rng = np.random.default_rng(9); h = hashlib.sha256()
for agent in e.agent_iter(400):
    obs, r, term, trunc, info = e.last()
    if term or trunc:
        e.step(None); continue
    a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
    h.update(obs["observation"].tobytes()); h.update(str((agent, a, r)).encode()); e.step(a)
print(h.hexdigest())
"""


def test_trajectories_identical_under_pythonhashseed():
    outs = []
    for hs in ("0", "12345"):
        envvars = dict(os.environ, PYTHONHASHSEED=hs)
        out = subprocess.run([sys.executable, "-c", _TRAJ], capture_output=True, text=True, env=envvars,
                             check=True)
        outs.append(out.stdout.strip())
    assert outs[0] == outs[1] and len(outs[0]) == 64
    assert hashlib  # the digest above is sha256


def test_render_ansi_shows_hands_and_trick():
    e = env(n_players=3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "player_0" in text and "Trick" in text and "round 1/4" in text
