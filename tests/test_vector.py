"""The batch API (seers_env.vector) steps the same games as the AEC env stepped one game at a time."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env.actions import N_ACTIONS
from seers_env.observation import OBS_DIM
from seers_env.seers_catalog_v0 import raw_env
from seers_env.vector import SeersVectorEnv, slot_seed
from seers_env.vector_core import random_legal_actions


@pytest.mark.parametrize("n_players,reward_mode", [(4, "score"), (2, "win"), (5, "score")])
def test_vector_env_matches_aec_envs_one_by_one(n_players, reward_mode):
    n_envs, seed = 3, 17
    venv = SeersVectorEnv(n_envs, n_players=n_players, n_rounds=1, reward_mode=reward_mode)
    envs = [raw_env(n_players=n_players, n_rounds=1, reward_mode=reward_mode) for _ in range(n_envs)]
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(seed, i))  # the documented slot mapping
    obs, infos = venv.reset(seed=seed)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(600):
        assert obs["observation"].shape == (n_envs, OBS_DIM) and obs["observation"].dtype == np.float32
        assert obs["action_mask"].shape == (n_envs, N_ACTIONS) and obs["action_mask"].dtype == np.int8
        actions = []
        for i, e in enumerate(envs):
            agent = e.agent_selection
            assert infos["seat"][i] == e.possible_agents.index(agent)
            o = e.observe(agent)
            np.testing.assert_array_equal(obs["observation"][i], o["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])
            legal = np.flatnonzero(o["action_mask"])
            actions.append(int(legal[int(rng.integers(len(legal)))]))
        acted = infos["seat"].copy()
        obs, rewards, term, trunc, infos = venv.step(np.array(actions))
        # Gymnasium's (N,) rewards: the acting seat's; every seat's in infos["rewards"]
        assert rewards.shape == (n_envs,) and infos["rewards"].shape == (n_envs, n_players) and not trunc.any()
        for i, e in enumerate(envs):
            e.step(actions[i])
            want = [e.rewards[a] for a in e.possible_agents]
            np.testing.assert_allclose(infos["rewards"][i], want)
            assert rewards[i] == want[acted[i]]
            done = all(e.terminations.values())
            assert term[i] == done
            if done:
                ended += 1
                assert infos["totals"][i].tolist() == list(e.game.totals)
                e.reset()  # the next game of the slot, from the slot's generator
    assert ended >= 2


def test_vector_env_rejects_bad_actions_and_keeps_state():
    venv = SeersVectorEnv(2)
    obs, _ = venv.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    good = int(np.flatnonzero(obs["action_mask"][0])[0])
    with pytest.raises(ValueError, match="row 1"):
        venv.step(np.array([good, bad]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.array([good]))
    np.testing.assert_array_equal(venv.action_masks(), obs["action_mask"])
    with pytest.raises(ValueError, match="num_envs"):
        SeersVectorEnv(0)
    with pytest.raises(RuntimeError, match="reset"):
        SeersVectorEnv(1).step(np.array([0]))


def test_vector_env_outputs_are_not_its_state():
    venv = SeersVectorEnv(3)
    obs, _ = venv.reset(seed=4)
    keep = {k: v.copy() for k, v in obs.items()}
    first = obs["action_mask"].argmax(axis=1)  # an allowed action of each row
    obs["action_mask"][:] = 0  # the caller scribbles on what it was handed
    obs["observation"][:] = 7.0
    np.testing.assert_array_equal(venv.action_masks(), keep["action_mask"])
    bad = int(np.flatnonzero(keep["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match="row 2"):
        venv.step(np.array([first[0], first[1], bad]))
    obs2, *_ = venv.step(first)
    assert obs2["action_mask"] is not obs["action_mask"] and obs2["observation"] is not obs["observation"]
    np.testing.assert_array_equal(venv.action_masks(), obs2["action_mask"])
    assert (obs2["action_mask"].sum(axis=1) >= 1).all()


def test_vector_env_action_dtypes_uint64_and_closed_state():
    venv = SeersVectorEnv(2)
    with pytest.raises(RuntimeError, match=r"reset\(\) before action_masks"):
        venv.action_masks()
    obs, _ = venv.reset(seed=2)
    good = obs["action_mask"].argmax(axis=1)
    with pytest.raises(TypeError, match="float64"):
        venv.step(good.astype(np.float64))
    with pytest.raises(TypeError, match="bool"):
        venv.step(np.array([True, False]))
    huge = good.astype(np.uint64)
    huge[1] = np.uint64(2**64 - 1)
    with pytest.raises(ValueError, match=f"action {2**64 - 1} of row 1"):
        venv.step(huge)
    np.testing.assert_array_equal(venv.action_masks(), obs["action_mask"])  # nothing changed
    # the "(allowed: ...)" list ends in "..." only when cut short
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(300):
        for row in range(2):
            allowed = np.flatnonzero(obs["action_mask"][row]).tolist()
            short = len(allowed) <= 12
            if short in seen:
                continue
            seen.add(short)
            bad_actions = obs["action_mask"].argmax(axis=1)
            bad_actions[row] = int(np.flatnonzero(obs["action_mask"][row] == 0)[0])
            with pytest.raises(ValueError) as err:
                venv.step(bad_actions)
            want = f"(allowed: {allowed})" if short else f"(allowed: {allowed[:12]} ...)"
            assert str(err.value).endswith(want)
        if len(seen) == 2:
            break
        obs = venv.step(random_legal_actions(obs["action_mask"], rng.random(2)))[0]
    assert seen == {True, False}
    obs, _ = venv.reset(seed=2)
    venv.step(good.astype(np.uint64))  # valid unsigned actions are fine
    venv.close()
    with pytest.raises(RuntimeError, match=r"close\(\)"):
        venv.step(good)
    with pytest.raises(RuntimeError, match=r"close\(\)"):
        venv.action_masks()
    obs, _ = venv.reset(seed=2)  # reset deals new games after close
    venv.step(obs["action_mask"].argmax(axis=1))


def _batch_apis():
    from seers_env.haggis.vector import HaggisVectorEnv
    from seers_env.scout.vector import ScoutVectorEnv
    from seers_env.seals.vector import SealsVectorEnv

    return {"seers": lambda: SeersVectorEnv(2, n_players=3, n_rounds=1),
            "scout": lambda: ScoutVectorEnv(2, n_players=3), "haggis": lambda: HaggisVectorEnv(2, n_players=3),
            "seals": lambda: SealsVectorEnv(2, n_players=3)}


@pytest.mark.parametrize("game", ["seers", "scout", "haggis", "seals"])
def test_a_bool_among_integer_actions_is_refused_by_kind_in_every_batch_api(game):
    """``numpy.asarray([3, True])`` is ``int64 [3, 1]``: the bool must still be refused (TypeError naming the
    row), not played as 1; a Python integer beyond int64 is a ValueError in every batch API; nothing moves."""
    venv = _batch_apis()[game]()
    obs, _ = venv.reset(seed=3)
    masks = obs["action_mask"]
    before = masks.copy()
    for row in (0, 1):  # make the bool's value 1 legal where possible: the refusal must not hang on the mask
        actions = [int(np.flatnonzero(m)[0]) for m in masks]
        actions[row] = True
        with pytest.raises(TypeError, match=f"row {row} holds the bool True"):
            venv.step(actions)
        with pytest.raises(TypeError, match=f"row {row} holds the bool True"):
            venv.step_plays([True if r == row else 0 for r in range(2)])
        with pytest.raises(TypeError, match="row 0 holds the bool"):
            venv.step_plays((np.True_, 0))
    with pytest.raises(ValueError, match="outside the int64 range"):
        venv.step([int(np.flatnonzero(masks[0])[0]), 2**64 - 1])
    assert np.array_equal(venv.action_masks(), before)
    twin = _batch_apis()[game]()
    twin.reset(seed=3)
    good = np.array([np.flatnonzero(m)[0] for m in masks])
    a, b = venv.step(good), twin.step(good)
    np.testing.assert_array_equal(a[0]["action_mask"], b[0]["action_mask"])
    np.testing.assert_array_equal(a[0]["observation"], b[0]["observation"])
