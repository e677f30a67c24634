"""One integer check everywhere (seers_env.integers): NumPy makes ``numpy.timedelta64`` a
``numpy.signedinteger``, yet no action, seed, seat or count may be a timedelta (nor a bool)."""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest

from seers_env.integers import is_integer, is_integer_dtype, is_real_number

AEC_MODULES = ("seers_catalog_v0", "scout_v0", "haggis_v0", "seals_v0")

INTEGERS = [0, 7, -3, 2**70, np.int8(3), np.int64(-1), np.uint8(5), np.uint64(2**64 - 1), np.intc(2)]
NOT_INTEGERS = [True, False, np.True_, np.bool_(False), np.timedelta64(3), np.timedelta64(3, "s"),
                np.datetime64(3, "D"), 3.0, np.float64(3.0), np.float32(1), 1 + 0j, "3", b"3", None,
                np.array(3), np.array([3]), np.array(np.timedelta64(3)), [3], Fraction(3)]


@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_is_integer_takes_python_and_numpy_integers(value):
    assert is_integer(value) and is_real_number(value)


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_is_integer_refuses_bools_timedeltas_floats_strings_and_arrays(value):
    assert not is_integer(value)


@pytest.mark.parametrize("value", [0.5, -2.0, float("inf"), np.float64(0.25), np.float32(1), np.float16(2)], ids=repr)
def test_is_real_number_takes_floats(value):
    assert is_real_number(value) and not is_integer(value)


@pytest.mark.parametrize("value", [True, np.True_, np.timedelta64(3), np.datetime64(3, "D"), 1 + 0j, "3",
                                   np.array(0.5), None], ids=repr)
def test_is_real_number_refuses_what_is_integer_refuses_and_complex(value):
    assert not is_real_number(value)


def test_is_integer_dtype_takes_signed_and_unsigned_integers_only():
    for dtype in (np.int8, np.int64, np.uint8, np.uint64, "i4", "u2"):
        assert is_integer_dtype(dtype) and is_integer_dtype(np.dtype(dtype))
    for dtype in (bool, "m8", "m8[s]", "M8[D]", np.float64, object, "U3", complex):
        assert not is_integer_dtype(dtype)
    assert np.issubdtype(np.dtype("m8"), np.integer)  # why the dtype check exists


def _aec(module: str):
    env = importlib.import_module(f"seers_env.{module}").env()
    env.reset(seed=1)
    return env


def _snapshot(env) -> tuple:
    agent = env.agent_selection
    obs = env.observe(agent)
    return agent, obs["observation"].copy(), obs["action_mask"].copy(), env.game.to_dict()


def _same(a: tuple, b: tuple) -> None:
    assert a[0] == b[0] and a[3] == b[3]
    np.testing.assert_array_equal(a[1], b[1])
    np.testing.assert_array_equal(a[2], b[2])


@pytest.mark.parametrize("module", AEC_MODULES)
def test_aec_step_refuses_a_timedelta_action_as_it_refuses_a_float(module):
    env = _aec(module)
    before = _snapshot(env)
    k = int(np.flatnonzero(before[2])[0])  # a legal action
    with pytest.raises(Exception) as as_float:
        env.step(float(k))
    for action in (np.timedelta64(k), np.timedelta64(k, "s"), np.array(np.timedelta64(k))):
        with pytest.raises(type(as_float.value), match="integer"):
            env.step(action)
        _same(_snapshot(env), before)
    env.step(np.int64(k))  # the same value as an integer is taken (a play, or its first stage)
    after = _snapshot(env)
    assert after[0] != before[0] or not np.array_equal(after[1], before[1])


@pytest.mark.parametrize("module", AEC_MODULES)
def test_aec_step_takes_a_0d_integer_array_as_its_integer(module):
    """``model.predict`` (Stable-Baselines3) returns one observation's action as a 0-d array: every game
    takes it as the integer inside, and the two steps give the same state."""
    as_array, as_int = _aec(module), _aec(module)
    k = int(np.flatnonzero(_snapshot(as_array)[2])[0])
    as_array.step(np.array(k, dtype=np.int32))
    as_int.step(k)
    _same(_snapshot(as_array), _snapshot(as_int))
    for bad in (np.array(True), np.array(float(k)), np.array([k])):
        before = _snapshot(as_array)
        with pytest.raises(TypeError):
            as_array.step(bad)
        _same(_snapshot(as_array), before)


@pytest.mark.parametrize("module", AEC_MODULES)
def test_aec_reset_refuses_a_timedelta_seed(module):
    env = _aec(module)
    before = _snapshot(env)
    for seed in (np.timedelta64(1), np.array(np.timedelta64(1)), np.True_):
        with pytest.raises(ValueError, match="seed="):
            env.reset(seed=seed)
        _same(_snapshot(env), before)


@pytest.mark.parametrize("game", ["seers_catalog", "scout", "haggis", "seals"])
def test_single_agent_wrapper_refuses_timedelta_actions_seeds_and_seats(game):
    from seers_env.wrappers import SingleAgentEnv

    env = SingleAgentEnv(game=game, n_players=np.int64(3), learner_seat=np.int64(0))
    obs, info = env.reset(seed=2)
    k = int(np.flatnonzero(info["action_mask"])[0])
    before = _snapshot(env.aec)
    with pytest.raises(TypeError) as as_float:
        env.step(float(k))
    for action in (np.timedelta64(k), np.array(np.timedelta64(k))):
        with pytest.raises(type(as_float.value), match="integer"):
            env.step(action)
    with pytest.raises(ValueError, match="seed="):
        env.reset(seed=np.timedelta64(2))
    _same(_snapshot(env.aec), before)
    obs_after, _, _, _, info_after = env.step(np.array(k))  # a play, or its first stage (0-d: model.predict)
    assert not (np.array_equal(obs_after, obs) and np.array_equal(info_after["action_mask"], info["action_mask"]))
    with pytest.raises(TypeError, match="learner_seat"):
        SingleAgentEnv(game=game, n_players=3, learner_seat=np.timedelta64(0))
    with pytest.raises((TypeError, ValueError), match="n_players"):
        SingleAgentEnv(game=game, n_players=np.timedelta64(3))


def test_batch_api_refuses_timedelta_actions_of_any_shape():
    from seers_env.vector import SeersVectorEnv, kernel_play_features

    venv = SeersVectorEnv(2, n_players=3, n_rounds=1)
    obs, _ = venv.reset(seed=4)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    before = venv.action_masks().copy()
    with pytest.raises(TypeError, match="timedelta64"):
        venv.step(np.array(legal, dtype="m8"))
    with pytest.raises(TypeError, match="timedelta64"):
        venv.step([legal[0], np.timedelta64(legal[1])])
    with pytest.raises(ValueError, match="shape"):  # a scalar is no batch, a timedelta one neither
        venv.step(np.timedelta64(legal[0]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.array(np.timedelta64(legal[0])))
    with pytest.raises(ValueError, match="1-D array of integers"):
        kernel_play_features(venv.kernel, np.array([0, 1], dtype="m8"))
    assert np.array_equal(venv.action_masks(), before)
    venv.step(np.array(legal, dtype=np.uint8))


def _attr(path: str):
    """The object named by a dotted ``module.attribute`` path, imported on use."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _weights_with(t) -> dict:
    return {**_attr("seers_env.play_eval.HEURISTIC_DEFAULTS"), "card": t}


#: (site, call taking the bad value, the error it raises for one): a site from each layer
SITES = [
    ("GameConfig.n_rounds", lambda t: _attr("seers_env.GameConfig")(n_rounds=t), ValueError),
    ("Game.seed", lambda t: _attr("seers_env.Game")(seed=t), ValueError),
    ("check_seed", lambda t: _attr("seers_env.seeding.check_seed")(t), ValueError),
    ("check_seat", lambda t: _attr("seers_env.protocol.check_seat")(t, 4), TypeError),
    ("check_int", lambda t: _attr("seers_env.dealt_game.check_int")("x", t, 0), TypeError),
    ("fewest_melds_mask", lambda t: _attr("seers_env.features.fewest_melds_mask")(t), TypeError),
    ("actions.decode", lambda t: _attr("seers_env.actions.decode")(t), TypeError),
    ("haggis check_action", lambda t: _attr("seers_env.haggis.actions.check_action")(t), TypeError),
    ("haggis check_action 0-d", lambda t: _attr("seers_env.haggis.actions.check_action")(np.array(t)), TypeError),
    ("scout check_action", lambda t: _attr("seers_env.scout.actions.check_action")(t), TypeError),
    ("seals check_action", lambda t: _attr("seers_env.seals.actions.check_action")(t), TypeError),
    ("KernelGames", lambda t: _attr("seers_env.engine.kernel.KernelGames")(t), ValueError),
    ("ScoutKernel", lambda t: _attr("seers_env.scout.kernel.ScoutKernel")(t), ValueError),
    ("SeersVectorEnv", lambda t: _attr("seers_env.vector.SeersVectorEnv")(t), ValueError),
    ("slot_seed_list", lambda t: _attr("seers_env.vector_slots.slot_seed_list")(t, 2), ValueError),
    ("slot_seed_list 0-d", lambda t: _attr("seers_env.vector_slots.slot_seed_list")(np.array(t), 2), ValueError),
    ("heuristic_weight_array", lambda t: _attr("seers_env.play_eval.heuristic_weight_array")(_weights_with(t)),
     ValueError),
    ("t975", lambda t: _attr("agents.tournament.t975")(t), ValueError),
    ("SealsRolloutAgent", lambda t: _attr("agents.seals_rollout.SealsRolloutAgent")(rollouts=t), ValueError),
    ("HeuristicAgent", lambda t: _attr("agents.heuristic.HeuristicAgent")(weights={"card": t}), ValueError),
    ("ISMCTSAgent.leaf_mix",
     lambda t: _attr("agents.ismcts.ISMCTSAgent")(guide=object(), leaf="mixed", leaf_mix=t), TypeError),
    ("SelfPlayConfig.decisions", lambda t: _attr("train.selfplay.SelfPlayConfig")(decisions=t), ValueError),
    ("SelfPlayConfig.seed", lambda t: _attr("train.selfplay.SelfPlayConfig")(seed=t), ValueError),
]


@pytest.mark.parametrize("call, error", [pytest.param(call, error, id=site) for site, call, error in SITES])
def test_every_layer_refuses_a_timedelta_where_it_takes_an_integer(call, error):
    """The timedelta gets the error a string gets there, with a message naming it."""
    with pytest.raises(error):
        call("2")
    with pytest.raises(error, match="timedelta64"):
        call(np.timedelta64(2))
