"""The SCOUT AEC environment runs on the compiled kernel; it must give exactly what it gave on the Python
engine (``tests/scout_env_python.py``, the environment before): the same agent selection, observations and
masks of every agent, rewards, cumulative rewards, terminations, truncations, infos, ``state()``,
``render()`` text and errors, at 2 to 5 players, whether or not its ``game`` / ``decision`` objects are
read (they are built on demand and then follow every step), from seeds and from positions, across
pickling."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from scout_env_python import PythonScoutEnv
from scout_policies import random_states
from seers_env.scout.actions import N_ACTIONS, SCOUT_BASE, SCOUT_SHOW_BASE, STOP_ACTION, scout_show_action
from seers_env.scout_v0 import IllegalActionError, raw_env


def _same_obs(a: dict, b: dict) -> None:
    assert set(a) == set(b) == {"observation", "action_mask"}
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape
        np.testing.assert_array_equal(a[key], b[key])


def _same_info(a: dict, b: dict) -> None:
    assert tuple(a) == tuple(b)
    for key in a:
        if key == "action_mask":
            assert a[key].dtype == b[key].dtype and not a[key].flags.writeable
            np.testing.assert_array_equal(a[key], b[key])
        else:
            assert a[key] == b[key] and type(a[key]) is type(b[key]), key


def _check(e: raw_env, ref: PythonScoutEnv, render: bool = False) -> None:
    """Everything an agent or a critic can read from ``e`` equals the reference's."""
    assert e.agents == ref.agents and e.agent_selection == ref.agent_selection
    assert e.rewards == ref.rewards and e._cumulative_rewards == ref._cumulative_rewards
    assert e.terminations == ref.terminations and e.truncations == ref.truncations
    assert set(e.infos) == set(ref.infos)
    for agent in e.infos:
        _same_info(e.infos[agent], ref.infos[agent])
    for agent in e.possible_agents:
        _same_obs(e.observe(agent), ref.observe(agent))
    if e.agents:
        got, want = e.last(), ref.last()
        _same_obs(got[0], want[0])
        assert got[1:4] == want[1:4]
        _same_info(got[4], want[4])
        st = e.state()
        assert st.dtype == np.float32 and st.flags.writeable
        np.testing.assert_array_equal(st, ref.state())
    if render:
        assert e.render() == ref.render()


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action, Scout & Show and scouts more often than uniform (long hands, both stages)."""
    legal = np.flatnonzero(mask)
    ss = legal[legal >= SCOUT_SHOW_BASE]
    scouts = legal[(legal >= SCOUT_BASE) & (legal < SCOUT_SHOW_BASE)]
    u = rng.random()
    pool = ss if ss.size and u < 0.25 else scouts if scouts.size and u < 0.55 else legal
    return int(pool[int(rng.integers(len(pool)))])


def _play(e: raw_env, ref: PythonScoutEnv, rng: np.random.Generator, steps: int, read_game_every: int,
          games: int = 2) -> dict:
    """Step both with the same legal actions for ``steps`` steps or ``games`` games (dead steps and resets
    included), checking after each; returns what was met."""
    met = {"stage2": 0, "rounds": 0, "games": 0, "truncated": 0, "longest": 0}
    for t in range(steps):
        if not e.agents:
            e.reset()
            ref.reset()
            met["games"] += 1
            if met["games"] >= games:
                break
        elif e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
            e.step(None)
            ref.step(None)
        else:
            a = _pick(ref.observe(ref.agent_selection)["action_mask"], rng)
            e.step(a)
            ref.step(a)
        if read_game_every and t % read_game_every == 0 and e.agents:
            assert e.game.to_dict() == ref.game.to_dict()
            if ref.decision is None:
                assert e.decision is None
            else:
                assert e.decision.pending == ref.decision.pending and e.decision.legal == ref.decision.legal
                np.testing.assert_array_equal(e.decision.mask(), ref.decision.mask())
        _check(e, ref, render=t % 7 == 0)
        if e.agents:
            info = e.infos[e.agent_selection]
            met["stage2"] += info["stage"] == 1
            met["rounds"] = max(met["rounds"], len(info["round_end_reasons"]))
            met["truncated"] += "truncated" in info["round_end_reasons"]
            met["longest"] = max(met["longest"], int(e._kernel.scal[0, 13:18].max()))  # S_HLEN
    return met


CASES = [
    (2, "score", {}), (2, "win", {"two_player_may_stop": True}), (3, "win", {"first_player": "random"}),
    (3, "score", {"public_scout_flip_and_position": False, "first_player": "holder_of_1_2"}),
    (4, "score", {}), (4, "win", {"max_turns_per_round": 9}), (5, "score", {"n_rounds": 2}),
    (5, "win", {"first_player": "holder_of_1_2"}),
]


@pytest.mark.parametrize("n_players, reward_mode, config", CASES)
@pytest.mark.parametrize("read_game_every", [0, 1, 17])
def test_kernel_env_plays_as_the_python_env(n_players, reward_mode, config, read_game_every):
    kw = dict(n_players=n_players, reward_mode=reward_mode, render_mode="ansi", **config)
    e, ref = raw_env(**kw), PythonScoutEnv(**kw)
    seed = 31 * n_players + len(config)
    e.reset(seed=seed)
    ref.reset(seed=seed)
    _check(e, ref, render=True)
    met = _play(e, ref, np.random.default_rng(seed), 400 if read_game_every == 1 else 1200, read_game_every)
    assert met["games"] >= 1 or met["rounds"] >= 1
    assert n_players == 2 or met["stage2"] > 0
    assert "max_turns_per_round" not in config or met["truncated"] > 0


#: A long hand in the reachable states of each player count (2 players: the chips cap the scouts).
LONG = {2: 12, 3: 14, 4: 16, 5: 16}


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_positions_with_long_hands_play_as_the_python_env(n_players):
    """Reachable positions (random configs, hoarding policies: long hands) loaded in both."""
    rng = np.random.default_rng(n_players)
    longest = loaded = long_ones = 0
    for i, game in enumerate(random_states(n_players, 400, seed=60 + n_players)):
        is_long = max(game.hand_sizes()) >= LONG[n_players] and long_ones < 4
        if game.game_over or not (i % 40 == 0 or is_long):
            continue
        long_ones += is_long
        flags = game.config.to_dict()
        flags.pop("n_players")
        e, ref = raw_env(n_players=n_players, render_mode="ansi", **flags), PythonScoutEnv(
            n_players=n_players, render_mode="ansi", **flags)
        option = game if i % 50 else game.to_dict()  # a ScoutGame is copied, a dict read
        e.reset(seed=i, options={"game": option})
        ref.reset(seed=i, options={"game": option})
        assert e.game is not game and e.game.to_dict() == game.to_dict()
        _check(e, ref, render=True)
        met = _play(e, ref, rng, 60, read_game_every=0 if i % 50 else 5, games=1)
        longest = max(longest, met["longest"], max(game.hand_sizes()))
        loaded += 1
    assert loaded >= 10 and long_ones == 4 and longest >= LONG[n_players]


def _to_stage_two(e: raw_env, ref: PythonScoutEnv, rng: np.random.Generator) -> bool:
    """Step both until the acting agent is at stage 2 of a Scout & Show; False if the game ended first."""
    while e.agents and not any(e.terminations.values()) and not any(e.truncations.values()):
        mask = ref.observe(ref.agent_selection)["action_mask"]
        ss = np.flatnonzero(mask[SCOUT_SHOW_BASE:STOP_ACTION]) + SCOUT_SHOW_BASE
        a = int(ss[0]) if ss.size and ref.infos[ref.agent_selection]["stage"] == 0 else _pick(mask, rng)
        e.step(a)
        ref.step(a)
        if e.infos[e.agent_selection]["stage"] == 1:
            return True
    return False


@pytest.mark.parametrize("read_before", [False, True])
def test_pickle_and_deepcopy_at_both_stages_go_on_as_the_python_env(read_before):
    kw = dict(n_players=4, render_mode="ansi")
    e, ref = raw_env(**kw), PythonScoutEnv(**kw)
    e.reset(seed=3)
    ref.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        e.step(a := _pick(ref.observe(ref.agent_selection)["action_mask"], rng))
        ref.step(a)
    assert _to_stage_two(e, ref, rng)
    if read_before:
        assert e.game.to_dict() == ref.game.to_dict() and e.decision.pending == ref.decision.pending
    for clone in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert clone._game is None and clone._decision is None  # built again on demand
        assert not clone.infos[clone.agent_selection]["action_mask"].flags.writeable
        mirror = copy.deepcopy(ref)
        _check(clone, mirror, render=True)
        assert clone.game.to_dict() == mirror.game.to_dict()
        assert clone.decision.pending == mirror.decision.pending
        _play(clone, mirror, np.random.default_rng(5), 300, read_game_every=11)
    _check(e, ref)  # the original is untouched by its copies


def test_held_game_and_decision_follow_the_steps():
    e, ref = raw_env(n_players=3), PythonScoutEnv(n_players=3)
    e.reset(seed=8)
    ref.reset(seed=8)
    game = e.game  # held across steps: it stays live
    rng = np.random.default_rng(2)
    held = 0
    for _ in range(400):
        if not e.agents or any(e.terminations.values()):
            break
        decision = e.decision
        a = _pick(ref.observe(ref.agent_selection)["action_mask"], rng)
        e.step(a)
        ref.step(a)
        assert game.to_dict() == ref.game.to_dict()
        if e.infos[e.agent_selection]["stage"] == 1:  # the held decision moved to stage 2
            assert decision is e.decision and decision.pending == ref.decision.pending
            np.testing.assert_array_equal(decision.mask(), e.infos[e.agent_selection]["action_mask"])
            held += 1
        elif ref.decision is not None:
            assert e.decision is not decision and e.decision.legal == ref.decision.legal
    assert held > 0
    e.close()
    assert e.game is None and e.decision is None


def _error(call):
    try:
        call()
    except Exception as err:  # noqa: BLE001 - the type and message are compared
        return type(err), str(err)
    return None


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
def test_errors_and_illegal_actions_equal_the_python_env(illegal_action):
    rng = np.random.default_rng(4)
    for n_players in (2, 3, 5):
        kw = dict(n_players=n_players, illegal_action=illegal_action, render_mode="ansi")
        e, ref = raw_env(**kw), PythonScoutEnv(**kw)
        e.reset(seed=n_players)
        ref.reset(seed=n_players)
        if n_players > 2:
            assert _to_stage_two(e, ref, rng)
        for bad in (N_ACTIONS, -1, 2.0, "7", True, None, np.int64(N_ACTIONS)):
            got, want = _error(lambda: e.step(bad)), _error(lambda: ref.step(bad))
            assert got == want and got is not None, bad
            _check(e, ref)
        got, want = _error(lambda: e.observe("player_9")), _error(lambda: ref.observe("player_9"))
        assert got == want and got[0] is ValueError
        assert e.describe_action(0) == ref.describe_action(0)
        mask = ref.observe(ref.agent_selection)["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[-1])
        assert e.describe_action(illegal) == ref.describe_action(illegal)
        got, want = _error(lambda: e.step(illegal)), _error(lambda: ref.step(illegal))
        assert got == want
        if illegal_action == "raise":
            assert got[0] is IllegalActionError and "not allowed now" in got[1]
        else:
            assert got is None and all(e.terminations.values())
        _check(e, ref)
        if illegal_action == "penalize":
            assert e.decision is None and e.state().shape == ref.state().shape
            _play(e, ref, rng, 10, read_game_every=1, games=1)  # dead steps, then a new game


def test_reset_errors_equal_the_python_env_and_change_nothing():
    e, ref = raw_env(n_players=3), PythonScoutEnv(n_players=3)
    for env_ in (e, ref):
        env_.reset(seed=1)
        env_.step(0 if env_.observe(env_.agent_selection)["action_mask"][0] else
                  int(np.flatnonzero(env_.observe(env_.agent_selection)["action_mask"])[0]))
    other = PythonScoutEnv(n_players=4)
    other.reset(seed=0)
    for kwargs in ({"seed": -1}, {"seed": 1.5}, {"options": [("game", None)]}, {"options": {"game": 5}},
                   {"options": {"game": other.game.to_dict()}}):
        got, want = _error(lambda: e.reset(**kwargs)), _error(lambda: ref.reset(**kwargs))
        assert got == want and got is not None, kwargs
    _check(e, ref)
    e.close()
    ref.close()
    for call in ("step", "observe", "last", "state", "render", "agent_iter"):
        args = {"step": (0,), "observe": ("player_0",)}.get(call, ())
        got = _error(lambda: getattr(e, call)(*args))
        assert got == _error(lambda: getattr(ref, call)(*args)) and "reset" in got[1], call
    e.reset(seed=2)
    ref.reset(seed=2)
    _check(e, ref)


def test_stage_two_observations_and_state_use_the_pending_scout():
    """At stage 2 the acting agent sees its hand after the scout, the others the table before it."""
    e, ref = raw_env(n_players=5), PythonScoutEnv(n_players=5)
    e.reset(seed=12)
    ref.reset(seed=12)
    rng = np.random.default_rng(3)
    seen = 0
    while seen < 5 and _to_stage_two(e, ref, rng):
        seen += 1
        _check(e, ref)
        pending = ref.decision.pending
        assert e.describe_action(scout_show_action(*pending)) == ref.describe_action(scout_show_action(*pending))
        a = _pick(ref.observe(ref.agent_selection)["action_mask"], rng)
        e.step(a)
        ref.step(a)
    assert seen == 5
