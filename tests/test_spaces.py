"""Every agent has its own space objects (PettingZoo classic convention); so has every wrapper instance."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from seers_env import env as make_env
from seers_env.actions import N_ACTIONS
from seers_env.wrappers import SingleAgentSeersEnv


def _samples(space, n=3):
    return [space.sample() for _ in range(n)]


def test_seeding_one_agents_action_space_leaves_the_others_alone():
    e = make_env()
    e.reset(seed=0)
    e.action_space("player_0").seed(42)
    e.action_space("player_1").seed(43)
    reference = spaces.Discrete(N_ACTIONS)
    reference.seed(42)
    assert [int(x) for x in _samples(e.action_space("player_0"))] == [int(x) for x in _samples(reference)]


def test_each_agent_has_its_own_spaces():
    e = make_env(n_players=5)
    agents = e.possible_agents
    for getter in (e.action_space, e.observation_space):
        objects = [getter(a) for a in agents]
        assert len({id(s) for s in objects}) == len(agents)
        assert all(s == objects[0] for s in objects)  # equal, not shared
    e.observation_space("player_0").seed(7)
    e.observation_space("player_2").seed(8)
    reference = make_env(n_players=5).observation_space("player_0")
    reference.seed(7)
    a, b = e.observation_space("player_0").sample(), reference.sample()
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_single_agent_wrappers_do_not_share_spaces():
    w1, w2 = SingleAgentSeersEnv(n_players=3), SingleAgentSeersEnv(n_players=3)
    assert w1.action_space is not w2.action_space and w1.observation_space is not w2.observation_space
    w1.action_space.seed(42)
    w2.action_space.seed(43)
    reference = spaces.Discrete(N_ACTIONS)
    reference.seed(42)
    assert [int(x) for x in _samples(w1.action_space)] == [int(x) for x in _samples(reference)]
