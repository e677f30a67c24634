"""The compiled batch pieces (seers_env.vector_core) compute what Decision and observe() compute."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env.actions import N_ACTIONS, play_codes
from seers_env.engine import core
from seers_env.engine.game import Game, GameConfig
from seers_env.seers_catalog_v0 import raw_env
from seers_env.vector import SeersVectorEnv, slot_seed
from seers_env.vector_core import play_code, random_legal_actions


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_play_codes_of_keys_equal_play_codes(n_players):
    rng = np.random.default_rng(n_players)
    seen = 0
    for seed in range(3):
        g = Game(GameConfig(n_players=n_players), seed=seed)
        while not g.game_over:
            legal = g.legal_plays()
            for key, play in zip(legal.keys.tolist(), legal):
                want = play_codes(play, g.current, n_players)
                got = tuple(play_code(key, st, g.current, n_players) for st in range(3))
                assert got == want, play
                seen += 1
            g.apply(legal[int(rng.integers(len(legal)))])
    assert seen > 1000


@pytest.mark.parametrize("n_players,reward_mode", [(2, "score"), (3, "win"), (4, "score"), (5, "win")])
def test_vector_env_matches_aec_envs_over_whole_games(n_players, reward_mode):
    """Several 2-round games per slot: observations, masks (later decision stages included), rewards and
    totals equal the AEC env's; the decision buffers start narrow, so they are widened on the way."""
    n_envs, seed = 3, 5
    venv = SeersVectorEnv(n_envs, n_players=n_players, n_rounds=2, reward_mode=reward_mode)
    venv._keys = venv._keys[:, :8].copy()  # force widening of the decision buffers
    venv._cands = venv._cands[:, :8].copy()
    envs = [raw_env(n_players=n_players, n_rounds=2, reward_mode=reward_mode) for _ in range(n_envs)]
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(seed, i))  # the documented slot mapping
    obs, infos = venv.reset(seed=seed)
    rng = np.random.default_rng(1)
    ended = later_stages = 0
    for _ in range(1500):
        actions = []
        for i, e in enumerate(envs):
            o = e.observe(e.agent_selection)
            assert infos["seat"][i] == e.possible_agents.index(e.agent_selection)
            np.testing.assert_array_equal(obs["observation"][i], o["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])
            later_stages += e.decision.stage > 0
            legal = np.flatnonzero(o["action_mask"])
            actions.append(int(legal[int(rng.integers(len(legal)))]))
        acted = infos["seat"].copy()
        obs, rewards, term, _, infos = venv.step(np.array(actions))
        for i, e in enumerate(envs):
            e.step(actions[i])
            want = [e.rewards[a] for a in e.possible_agents]  # every seat's: infos["rewards"]
            np.testing.assert_allclose(infos["rewards"][i], want)
            assert rewards[i] == want[acted[i]]  # Gymnasium's (N,) rewards: the acting seat's
            done = all(e.terminations.values())
            assert term[i] == done
            if done:
                ended += 1
                assert infos["totals"][i].tolist() == list(e.game.totals)
                e.reset()
    assert ended >= 3 and later_stages > 0
    assert venv._keys.shape[1] > 8


def test_random_legal_actions_pick_the_uth_allowed_action():
    masks = np.zeros((3, N_ACTIONS), np.int8)
    masks[0, [4, 9, 100]] = 1
    masks[1, [0]] = 1
    masks[2, [6000, 6001]] = 1
    got = random_legal_actions(masks, np.array([0.5, 0.99, 0.7]))
    assert got.tolist() == [9, 0, 6001]
    assert core.PASS_KEY  # the keys module is loaded alongside


def test_parallel_stepping_gives_the_same_results():
    a, b = SeersVectorEnv(6, n_rounds=1), SeersVectorEnv(6, n_rounds=1, parallel=True)
    oa, _ = a.reset(seed=3)
    ob, _ = b.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        for key in oa:
            np.testing.assert_array_equal(oa[key], ob[key])
        actions = random_legal_actions(oa["action_mask"], rng.random(6))
        oa, ra, ta, _, ia = a.step(actions)
        ob, rb, tb, _, ib = b.step(actions)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ta, tb)
        np.testing.assert_array_equal(ia["totals"], ib["totals"])
        np.testing.assert_array_equal(ia["rewards"], ib["rewards"])


def test_vector_env_without_artifacts_matches_aec_env():
    venv = SeersVectorEnv(2, n_players=3, n_rounds=1, artifact_deck=None)
    envs = [raw_env(n_players=3, n_rounds=1, artifact_deck=()) for _ in range(2)]
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(9, i))
    obs, _ = venv.reset(seed=9)
    rng = np.random.default_rng(2)
    for _ in range(400):
        for i, e in enumerate(envs):
            o = e.observe(e.agent_selection)
            np.testing.assert_array_equal(obs["observation"][i], o["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])
        actions = random_legal_actions(obs["action_mask"], rng.random(2))
        obs, rewards, term, _, infos = venv.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            np.testing.assert_allclose(infos["rewards"][i], [e.rewards[a] for a in e.possible_agents])
            if all(e.terminations.values()):
                assert term[i]
                e.reset()


def test_random_legal_actions_word_path_equals_nonzero_reference():
    rng = np.random.default_rng(5)
    masks = np.zeros((40, N_ACTIONS), np.int8)
    for i in range(1, 40):  # row 0 allows nothing
        masks[i, rng.choice(N_ACTIONS, size=int(rng.integers(1, 60)), replace=False)] = 1
    masks[7, N_ACTIONS - 8:] = 1  # the last word full
    u = rng.random(40)
    want = [-1 if not m.any() else int(np.flatnonzero(m)[int(x * np.count_nonzero(m))]) for m, x in zip(masks, u)]
    assert random_legal_actions(masks, u).tolist() == want
    # a non-contiguous view takes the byte-at-a-time path, with the same choices
    wide = np.zeros((40, N_ACTIONS + 1), np.int8)
    wide[:, :N_ACTIONS] = masks
    assert random_legal_actions(wide[:, :N_ACTIONS], u).tolist() == want


def test_random_legal_actions_rejects_bad_uniforms_and_masks():
    masks = np.zeros((3, N_ACTIONS), np.int8)
    masks[0, [5, 9]] = 1
    masks[1, 100] = 1
    masks[2, N_ACTIONS - 1] = 1
    for bad in (1.0, np.nan, -0.5, np.inf):
        with pytest.raises(ValueError, match=r"uniforms\[1\] = .* \[0, 1\)"):
            random_legal_actions(masks, np.array([0.5, bad, 0.5]))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        random_legal_actions(masks, np.array([0.5]))
    with pytest.raises(TypeError, match="int8"):
        random_legal_actions(masks.tolist(), np.full(3, 0.5))
    with pytest.raises(TypeError, match="int64"):
        random_legal_actions(masks.astype(np.int64), np.full(3, 0.5))
    with pytest.raises(ValueError, match="2-D"):
        random_legal_actions(masks[0], np.array([0.5]))
    for path in (masks, np.asfortranarray(masks)):  # the word path and the byte path
        bad = path.copy()
        bad[2, 7] = 2
        with pytest.raises(ValueError, match=r"row 2 holds \[2\]; allowed mask values: 0 and 1"):
            random_legal_actions(bad, np.full(3, 0.5))
    assert random_legal_actions(masks.astype(bool), np.array([0.5, 0.5, 0.5])).tolist() == [9, 100, N_ACTIONS - 1]
