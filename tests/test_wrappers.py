"""The Gymnasium single-agent wrapper (seers_env.wrappers.SingleAgentSeersEnv)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.base import RandomAgent
from seers_env.wrappers import SingleAgentSeersEnv


def _episode(env, seed):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert (mask == info["action_mask"].astype(bool)).all()
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        total += r
    return total, info


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_check_env_and_rewards_sum_to_total(n_players):
    env = SingleAgentSeersEnv(n_players=n_players, n_rounds=2)
    check_env(env, skip_render_check=True)
    total, info = _episode(env, seed=n_players)
    assert total == info["totals"][env.seat]


def test_callable_opponents_and_fixed_seat():
    calls = []

    def first_legal(obs, mask):
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentSeersEnv(n_players=3, n_rounds=1, learner_seat=1, opponents=[first_legal, RandomAgent(0)])
    total, info = _episode(env, seed=1)
    assert env.seat == 1 and calls and total == info["totals"][1]


def test_opponent_sampler_called_each_reset():
    seen = []

    def sampler(rng):
        seen.append(int(rng.integers(1000)))
        return [RandomAgent(), RandomAgent()]

    env = SingleAgentSeersEnv(n_players=3, n_rounds=1, opponent_sampler=sampler)
    env.reset(seed=0)
    env.reset(seed=1)
    assert len(seen) == 2


def test_seeded_resets_repeat():
    a = SingleAgentSeersEnv(n_players=4, n_rounds=1)
    b = SingleAgentSeersEnv(n_players=4, n_rounds=1)
    (ta, ia), (tb, ib) = _episode(a, seed=7), _episode(b, seed=7)
    assert ta == tb and ia["totals"] == ib["totals"] and ia["seat"] == ib["seat"]


def test_illegal_action_ends_episode_with_penalty():
    env = SingleAgentSeersEnv(n_players=4)
    env.reset(seed=3)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, done, _, info = env.step(bad)
    assert done and r == -1.0 and info["illegal_action"] == bad
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="opponents"):
        SingleAgentSeersEnv(n_players=4, opponents=[RandomAgent()])
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentSeersEnv(n_players=3, learner_seat=3)
    with pytest.raises(TypeError, match="opponent"):
        SingleAgentSeersEnv(n_players=2, opponents=[42])
    env = SingleAgentSeersEnv(n_players=2)
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step(0.5)


def test_render_ansi():
    env = SingleAgentSeersEnv(n_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "player_0" in env.render()


def test_duck_typed_agent_opponent():
    class FirstLegal:  # not an agents.Agent subclass: only act(view)
        def __init__(self):
            self.turns = 0

        def act(self, view):
            self.turns += 1
            return view.legal_plays()[0]

    opp = FirstLegal()
    env = SingleAgentSeersEnv(n_players=2, n_rounds=1, opponents=[opp])
    total, info = _episode(env, seed=2)
    assert opp.turns > 0 and total == info["totals"][env.seat]


def test_default_opponents_play_like_random_agents():
    # the env-level default draws exactly as agents.RandomAgent (the wrapper reseeds both at reset)
    a = SingleAgentSeersEnv(n_players=3, n_rounds=1)
    b = SingleAgentSeersEnv(n_players=3, n_rounds=1, opponents=[RandomAgent(), RandomAgent()])
    (ta, ia), (tb, ib) = _episode(a, seed=11), _episode(b, seed=11)
    assert ta == tb and ia["totals"] == ib["totals"]


def test_spec_strings_are_resolved_by_agents_layer():
    from agents import make_agents

    with pytest.raises(TypeError, match="make_agents"):
        SingleAgentSeersEnv(n_players=3, opponents=["heuristic", "greedy"])
    opps = make_agents("heuristic,greedy", seed=0)
    assert [o.name for o in opps] == ["heuristic", "greedy"]
    env = SingleAgentSeersEnv(n_players=3, n_rounds=1, opponents=opps)
    total, info = _episode(env, seed=4)
    assert total == info["totals"][env.seat]
    with pytest.raises(ValueError, match="valid specs"):
        make_agents(["heuristic", "nope"])


def _trajectory(env, seed, n_steps=40):
    """The first ``n_steps`` of a seeded episode (learner: seeded uniform legal actions), as comparable data."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = [(obs.tolist(), info["seat"], info["totals"])]
    for _ in range(n_steps):
        mask = env.action_masks()
        if not mask.any():
            break
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        out.append((obs.tolist(), r, term, trunc, info["stage"], info["totals"]))
    return out


def test_numpy_integer_n_players_is_a_seat_count():
    # the pre-generic wrapper passed n_players to the AEC environment, which takes numpy integers
    env = SingleAgentSeersEnv(n_players=np.int64(3), n_rounds=1)
    assert env.n_players == 3 and type(env.n_players) is int
    assert _trajectory(env, 5) == _trajectory(SingleAgentSeersEnv(n_players=3, n_rounds=1), 5)


def test_opponents_from_any_iterable():
    # e.g. an opponent_sampler drawing a league with rng.choice returns a numpy object array
    def agents():
        return [RandomAgent(), RandomAgent()]

    want = _trajectory(SingleAgentSeersEnv(n_players=3, n_rounds=1, opponents=agents()), 7)
    for opponents in (np.array(agents(), dtype=object), (a for a in agents()), tuple(agents())):
        assert _trajectory(SingleAgentSeersEnv(n_players=3, n_rounds=1, opponents=opponents), 7) == want
    for make in (lambda rng: np.array(agents(), dtype=object), lambda rng: (a for a in agents())):
        env = SingleAgentSeersEnv(n_players=3, n_rounds=1, opponent_sampler=make)
        assert _trajectory(env, 7) == _trajectory(
            SingleAgentSeersEnv(n_players=3, n_rounds=1, opponent_sampler=lambda rng: agents()), 7)
    with pytest.raises(TypeError, match="opponents must be a list"):
        SingleAgentSeersEnv(n_players=2, opponents="random")
    with pytest.raises(TypeError, match="opponents must be a list"):
        SingleAgentSeersEnv(n_players=2, opponents=5)
