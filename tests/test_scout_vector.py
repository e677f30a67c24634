"""The SCOUT batch API (seers_env.scout.vector.ScoutVectorEnv) steps the same games as the AEC env
(seers_env.scout_v0) stepped one game at a time, and its play-level features are those of
seers_env.scout.features, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.error import ResetNeeded

from seers_env.scout import ScoutSeatView
from seers_env.scout.actions import N_ACTIONS, SCOUT_SHOW_BASE, actions_of_play
from seers_env.scout.bench import aec_steps_per_second, batch_plays_per_second, batch_steps_per_second
from seers_env.scout.features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.scout.observation import OBS_DIM
from seers_env.scout.plays import SCOUT, SCOUT_SHOW
from seers_env.scout.vector import INFO_KEYS, ScoutVectorEnv, slot_seed, slot_seeds
from seers_env.scout_v0 import raw_env


def _aec_envs(n_envs: int, seed: int, **kwargs) -> list:
    envs = [raw_env(**kwargs) for _ in range(n_envs)]
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(seed, i))
    return envs


def _check_rows(obs, infos, envs) -> None:
    """Every row is the acting agent's observation, mask, seat and stage in its AEC env."""
    for i, e in enumerate(envs):
        agent = e.agent_selection
        assert infos["seat"][i] == e.possible_agents.index(agent)
        assert infos["stage"][i] == e.infos[agent]["stage"]
        o = e.observe(agent)
        np.testing.assert_array_equal(obs["observation"][i], o["observation"])
        np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])


def _check_step(out, envs, acted) -> int:
    """The step's rewards (of the seat that acted, ``acted[i]``; every seat's in ``infos["rewards"]``),
    terminations, truncations and totals are the AEC envs'; finished AEC games are reset (the slot's next
    game). Returns the number of games that ended."""
    obs, rewards, term, trunc, infos = out
    n = len(envs)
    assert rewards.shape == (n,) and rewards.dtype == np.float32
    assert term.shape == trunc.shape == (n,) and term.dtype == trunc.dtype == np.bool_
    assert infos["rewards"].shape == (n, envs[0].config.n_players) and infos["rewards"].dtype == np.float32
    assert tuple(k for k in infos if not k.startswith("_")) == INFO_KEYS
    assert all(infos[f"_{k}"].all() and infos[f"_{k}"].shape == (n,) for k in INFO_KEYS)
    ended = 0
    for i, e in enumerate(envs):
        per_seat = np.array([e.rewards[a] for a in e.possible_agents], np.float32)
        np.testing.assert_array_equal(infos["rewards"][i], per_seat)
        assert rewards[i] == per_seat[acted[i]]
        assert term[i] == all(e.terminations.values()) and trunc[i] == all(e.truncations.values())
        if term[i] or trunc[i]:
            ended += 1
            assert infos["totals"][i].tolist() == e.game.totals
            e.reset()
        else:
            assert not infos["totals"][i].any()
    _check_rows(obs, infos, envs)
    return ended


CASES = [
    (2, "score", {}), (3, "win", {"first_player": "random"}), (4, "score", {"n_rounds": 2}),
    (5, "score", {"n_rounds": 1}), (4, "win", {"max_turns_per_round": 12}),
    (3, "score", {"public_scout_flip_and_position": False, "first_player": "holder_of_1_2", "n_rounds": 1}),
    (2, "win", {"two_player_may_stop": True}),
]


@pytest.mark.parametrize("n_players,reward_mode,config", CASES)
def test_vector_env_trajectories_equal_aec_envs(n_players, reward_mode, config):
    n_envs, seed = 3, 17
    venv = ScoutVectorEnv(n_envs, n_players=n_players, reward_mode=reward_mode, **config)
    envs = _aec_envs(n_envs, seed, n_players=n_players, reward_mode=reward_mode, **config)
    obs, infos = venv.reset(seed=seed)
    assert obs["observation"].shape == (n_envs, OBS_DIM) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (n_envs, N_ACTIONS) and obs["action_mask"].dtype == np.int8
    _check_rows(obs, infos, envs)
    rng = np.random.default_rng(n_players)
    ended = stage2 = truncated = 0
    for _ in range(700):
        actions = []
        for i, e in enumerate(envs):
            legal = np.flatnonzero(obs["action_mask"][i])
            ss = legal[legal >= SCOUT_SHOW_BASE]
            pool = ss if ss.size and rng.random() < 0.3 else legal  # Scout & Show more often than uniform
            actions.append(int(pool[int(rng.integers(len(pool)))]))
        out = venv.step(np.array(actions))
        for i, e in enumerate(envs):
            e.step(actions[i])
        stage2 += int((out[4]["stage"] == 1).sum())
        truncated += int(out[3].sum())
        ended += _check_step(out, envs, infos["seat"])
        obs, infos = out[0], out[4]
    assert ended >= 2
    assert n_players == 2 or stage2 > 0
    assert "max_turns_per_round" not in config or truncated > 0


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_play_features_equal_python_features_and_step_plays_follows_the_aec_env(n_players):
    n_envs, seed = 4, 3 + n_players
    venv = ScoutVectorEnv(n_envs, n_players=n_players, n_rounds=2)
    envs = _aec_envs(n_envs, seed, n_players=n_players, n_rounds=2)
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    checked = rows = 0
    longest = 0
    for step in range(160):
        f = venv.play_features()
        assert f.states.shape == (n_envs, STATE_DIM) and f.states.dtype == np.float32
        assert f.rows.shape == (int(f.offsets[-1]), PLAY_DIM) and f.rows.dtype == np.float32
        assert f.offsets.dtype == np.int64 and f.offsets.shape == (n_envs + 1,)
        indices = []
        for i, e in enumerate(envs):
            game = e.game
            view = ScoutSeatView(game, game.current)
            legal = game.legal_plays()
            lo, hi = int(f.offsets[i]), int(f.offsets[i + 1])
            assert f.seats[i] == game.current
            assert f.plays[lo:hi].tolist() == [list(p) for p in legal]  # row j is play j
            assert np.array_equal(f.states[i], encode_state(view))
            assert np.array_equal(f.rows[lo:hi], encode_plays(view))
            checked += 1
            rows += hi - lo
            longest = max(longest, max(game.hand_sizes()))
            scouts = [j for j, p in enumerate(legal) if p.kind in (SCOUT, SCOUT_SHOW)]
            j = scouts[int(rng.integers(len(scouts)))] if scouts and rng.random() < 0.6 \
                else int(rng.integers(len(legal)))
            indices.append(j)
        out = venv.step_plays(np.array(indices))
        for i, e in enumerate(envs):
            for a in actions_of_play(e.game.legal_plays()[indices[i]]):  # one or two catalogue actions
                e.step(a)
        _check_step(out, envs, f.seats)
    assert checked == 160 * n_envs and rows > checked and longest >= 14


def test_play_level_and_catalogue_steps_mix_between_whole_plays():
    venv = ScoutVectorEnv(2, n_players=4)
    envs = _aec_envs(2, 8, n_players=4)
    obs, infos = venv.reset(seed=8)
    rng = np.random.default_rng(1)
    mid = 0
    for _ in range(300):
        if (infos["stage"] == 0).all() and rng.random() < 0.5:
            f = venv.play_features()
            idx = rng.integers(np.diff(f.offsets))
            plays = [e.game.legal_plays()[int(j)] for e, j in zip(envs, idx)]
            out = venv.step_plays(idx)
            for e, p in zip(envs, plays):
                for a in actions_of_play(p):
                    e.step(a)
        else:
            masks = obs["action_mask"]
            acts = []
            for i in range(2):
                legal = np.flatnonzero(masks[i])
                ss = legal[legal >= SCOUT_SHOW_BASE]
                pool = ss if ss.size else legal
                acts.append(int(pool[int(rng.integers(len(pool)))]))
            out = venv.step(np.array(acts))
            for e, a in zip(envs, acts):
                e.step(a)
            if (out[4]["stage"] == 1).any():
                mid += 1
                f = venv.play_features()  # the full lists, the stage-1 scout not applied
                for i, e in enumerate(envs):
                    lo, hi = int(f.offsets[i]), int(f.offsets[i + 1])
                    assert f.plays[lo:hi].tolist() == [list(p) for p in e.game.legal_plays()]
                with pytest.raises(RuntimeError, match="second action of a Scout & Show"):
                    venv.step_plays(np.zeros(2, np.int64))
        _check_step(out, envs, infos["seat"])
        obs, infos = out[0], out[4]
    assert mid > 0


def test_slot_seeds_follow_seed_sequence_and_seeds_0_and_1_share_no_games():
    for seed in (0, 1, 12345):
        children = np.random.SeedSequence(seed).spawn(6)
        assert slot_seeds(seed, 6) == [int(c.generate_state(1, np.uint64)[0]) for c in children]
        assert slot_seeds(seed, 3) == slot_seeds(seed, 6)[:3]  # a prefix is stable
    assert ScoutVectorEnv(4).slot_seeds(7) == slot_seeds(7, 4)
    deals = {}
    for seed in (0, 1):
        venv = ScoutVectorEnv(64, n_players=4)
        venv.reset(seed=seed)
        k = venv.kernel
        for i in range(64):
            for g in (0, 1):  # the first game of the slot and the next one, drawn ahead
                deals.setdefault(k.deals[i, g].tobytes(), []).append((seed, i, g))
    assert all(len(v) == 1 for v in deals.values())  # no game twice, within or across the seeds
    with pytest.raises(ValueError, match="seed"):
        slot_seed(-1, 0)
    with pytest.raises(ValueError):
        ScoutVectorEnv(2).reset(seed=1.5)


def test_reset_without_a_seed_deals_fresh_games():
    a, b = ScoutVectorEnv(4), ScoutVectorEnv(4)
    a.reset()
    b.reset()
    assert not np.array_equal(a.kernel.deals, b.kernel.deals)


def test_methods_before_reset_and_after_close_raise_reset_needed():
    venv = ScoutVectorEnv(2, n_players=3)
    zeros = np.zeros(2, np.int64)
    calls = {"step": lambda: venv.step(zeros), "step_plays": lambda: venv.step_plays(zeros),
             "play_features": venv.play_features, "action_masks": venv.action_masks}
    for name, call in calls.items():
        with pytest.raises(ResetNeeded, match="reset"):
            call()
    obs, _ = venv.reset(seed=0)
    venv.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))
    venv.close()
    for name, call in calls.items():
        with pytest.raises(ResetNeeded, match="after close"):
            call()
        with pytest.raises(RuntimeError):  # also a RuntimeError, as SeersVectorEnv raises
            call()
    obs, _ = venv.reset(seed=0)  # usable again
    venv.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))


def _state(venv):
    k = venv.kernel
    return [a.copy() for a in (k.hands, k.scouted, k.active, k.scal, k.scores, k.deals)]


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_bad_actions_and_indices_are_refused_with_clear_errors_and_change_nothing():
    venv = ScoutVectorEnv(2, n_players=4)
    obs, _ = venv.reset(seed=1)
    masks = obs["action_mask"]
    good = [int(np.flatnonzero(m)[0]) for m in masks]
    bad = int(np.flatnonzero(masks[1] == 0)[0])
    before = _state(venv)
    cases = [
        (np.array([good[0], bad]), ValueError, rf"action {bad} of row 1 is not allowed"),
        (np.array([good[0], N_ACTIONS]), ValueError, "row 1"),
        (np.array([good[0], -1]), ValueError, "row 1"),
        (np.array([good[0]]), ValueError, "shape"),
        (np.array([[good[0], good[1]]]), ValueError, "shape"),
        (np.array([0.0, 1.0]), TypeError, "integer dtype"),
        (np.array([good[0], 2**64 - 1], np.uint64), ValueError, "row 1"),
    ]
    for actions, err, text in cases:
        with pytest.raises(err, match=text):
            venv.step(actions)
        assert _same(before, _state(venv))
    f = venv.play_features()
    counts = np.diff(f.offsets)
    for idx, err, text in [(np.array([0, counts[1]]), IndexError, "row 1"), (np.array([-1, 0]), IndexError, "row 0"),
                           (np.array([0]), ValueError, "shape"), (np.array([0.0, 0.0]), TypeError, "integer"),
                           (np.array([0, 2**63], np.uint64), ValueError, "play index 9223372036854775808 of row 1")]:
        with pytest.raises(err, match=text):
            venv.step_plays(idx)
        assert _same(before, _state(venv))
    # nothing changed: the env goes on as a fresh one with the same seed
    twin = ScoutVectorEnv(2, n_players=4)
    twin.reset(seed=1)
    a, b = venv.step(np.array(good)), twin.step(np.array(good))
    np.testing.assert_array_equal(a[0]["observation"], b[0]["observation"])
    np.testing.assert_array_equal(a[0]["action_mask"], b[0]["action_mask"])
    assert _same(_state(venv), _state(twin))


def test_outputs_are_fresh_arrays_not_the_env_state():
    venv = ScoutVectorEnv(3, n_players=5)
    obs, infos = venv.reset(seed=2)
    acts = np.array([np.flatnonzero(m)[-1] for m in obs["action_mask"]])
    before = _state(venv)
    obs["observation"][:] = 7.0
    obs["action_mask"][:] = 1
    infos["seat"][:] = 4
    assert _same(before, _state(venv))
    out = venv.step(acts)  # the env checks actions against its own state, not the returned mask
    assert out[0]["observation"] is not obs["observation"] and out[0]["action_mask"] is not obs["action_mask"]
    masks = venv.action_masks()
    np.testing.assert_array_equal(masks, out[0]["action_mask"])
    out[1][:] = 9.0
    out[4]["totals"][:] = 9
    nxt = venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert not (nxt[1] == 9.0).any() and not (nxt[4]["totals"] == 9).any()


def test_config_errors_name_the_value():
    with pytest.raises(ValueError, match="num_envs"):
        ScoutVectorEnv(0)
    with pytest.raises(ValueError, match="reward_mode"):
        ScoutVectorEnv(1, reward_mode="points")
    with pytest.raises(TypeError, match="unknown SCOUT option"):
        ScoutVectorEnv(1, colour="red")
    with pytest.raises(ValueError, match="n_players"):
        ScoutVectorEnv(1, n_players=6)
    with pytest.raises(ValueError, match="first_player"):
        ScoutVectorEnv(1, first_player="oldest")


def test_bench_functions_report_positive_rates():
    assert batch_steps_per_second(8, 4, 0.05, 0) > 0
    assert batch_plays_per_second(8, 3, 0.05, 0) > 0
    assert aec_steps_per_second(2, 0.05, 0) > 0
    with pytest.raises(ValueError, match="num_envs"):
        batch_steps_per_second(0, 4, 0.05, 0)
    with pytest.raises(ValueError, match="seconds"):
        aec_steps_per_second(4, 0, 0)


# --- Gymnasium's vector API --------------------------------------------------------------------------
def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])


def test_vector_env_is_a_gymnasium_vector_env():
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    venv = ScoutVectorEnv(3, n_players=3)
    assert isinstance(venv, VectorEnv) and venv.unwrapped is venv and venv.num_envs == 3
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    aec = raw_env(n_players=3)
    assert venv.single_observation_space == aec.observation_space("player_0")
    assert venv.single_action_space == aec.action_space("player_0")
    assert venv.observation_space == batch_space(venv.single_observation_space, 3)
    assert venv.action_space == batch_space(venv.single_action_space, 3)
    assert not venv.closed
    obs, infos = venv.reset(seed=0)
    assert obs in venv.observation_space
    assert list(infos) == list(INFO_KEYS) + [f"_{k}" for k in INFO_KEYS]
    assert not infos["rewards"].any() and not infos["totals"].any()
    obs, rewards, term, trunc, infos = venv.step(_random_actions(np.random.default_rng(0), obs["action_mask"]))
    assert obs in venv.observation_space
    assert rewards.shape == (3,) and rewards.dtype == np.float32
    assert term.shape == trunc.shape == (3,) and term.dtype == trunc.dtype == np.bool_
    venv.close()
    assert venv.closed
    venv.close()  # twice: nothing more
    venv.reset(seed=1)
    assert not venv.closed


@pytest.mark.parametrize("reward_mode", ["score", "win"])
def test_gymnasium_vector_wrappers_on_the_vector_env(reward_mode):
    """RecordEpisodeStatistics, DictInfoToList, TransformReward and TransformAction wrap it and see the
    env's own results: every step's list infos hold the dict infos, each slot's first episode statistics
    are its return and length (Gymnasium 1.2 counts later episodes of a same-step env one step short, a
    bug fixed upstream), rewards are scaled and actions mapped."""
    from gymnasium.wrappers import vector as vector_wrappers

    n = 3
    venv = ScoutVectorEnv(n, n_players=3, n_rounds=1, reward_mode=reward_mode)
    stats = vector_wrappers.RecordEpisodeStatistics(venv)
    scaled = vector_wrappers.TransformReward(stats, lambda r: r / 15.0)
    shifted = vector_wrappers.TransformAction(scaled, lambda a: np.asarray(a) - 1)
    listed = vector_wrappers.DictInfoToList(shifted)
    obs, infos = listed.reset(seed=3)
    assert isinstance(infos, list) and [tuple(i) for i in infos] == [INFO_KEYS] * n
    rng = np.random.default_rng(0)
    returns, lengths, first_done = np.zeros(n), np.zeros(n, int), np.zeros(n, bool)
    episodes = 0
    for _ in range(3000):
        actions = _random_actions(rng, obs["action_mask"])
        acted = venv._seats()
        obs, rewards, term, trunc, infos = listed.step(actions + 1)  # TransformAction takes the 1 off again
        raw = np.array([i["rewards"][s] for i, s in zip(infos, acted)])  # the acting seat's reward
        np.testing.assert_allclose(rewards, raw / 15.0, rtol=1e-6)
        done = term | trunc
        for i, info in enumerate(infos):
            assert set(info) == set(INFO_KEYS) | ({"episode"} if done[i] else set()), info.keys()
        returns += np.where(first_done, 0.0, raw)
        lengths += ~first_done
        for i in np.flatnonzero(done):
            episodes += 1
            if not first_done[i]:
                assert infos[i]["episode"]["l"] == lengths[i]
                assert infos[i]["episode"]["r"] == pytest.approx(returns[i])
                first_done[i] = True
        if first_done.all():
            break
    assert first_done.all() and len(stats.return_queue) == episodes


def test_seed_lists_seed_each_slot_as_the_aec_env():
    seeds = [5, None, 2**63 + 7, np.uint32(9)]
    venv = ScoutVectorEnv(4, n_players=2)
    obs, infos = venv.reset(seed=seeds)
    for i, s in enumerate(seeds):
        if s is None:
            continue
        e = raw_env(n_players=2)
        e.reset(seed=int(s))
        np.testing.assert_array_equal(obs["observation"][i], e.observe(e.agent_selection)["observation"])
        np.testing.assert_array_equal(obs["action_mask"][i], e.observe(e.agent_selection)["action_mask"])
    twin = ScoutVectorEnv(4, n_players=2)
    twin.reset(seed=[0, 1, 2, 3])
    same = ScoutVectorEnv(4, n_players=2)
    same.reset(seed=[0, 1, 2, 3])
    assert np.array_equal(twin.kernel.deals, same.kernel.deals)
    for bad, text in (([1, 2], "2 entries"), ([0, -1, 0, 0], r"seed\[1\]=-1"), ("7", "seed='7'"),
                      ([0, 1.5, 0, 0], r"seed\[1\]=1.5")):
        with pytest.raises(ValueError, match=text):
            venv.reset(seed=bad)


def test_positions_start_their_slots_and_the_later_games_follow():
    """A slot started from a position plays as the AEC env reset to it (after the deal of the game it
    replaces), then the slot's later games; other slots are dealt as without the option."""
    from seers_env.scout import ScoutConfig, ScoutGame

    states = []
    for k, plays in ((11, 30), (12, 45)):  # mid-game positions of random play
        g = ScoutGame(ScoutConfig(n_players=4, n_rounds=2), seed=k)
        rng = np.random.default_rng(k)
        for _ in range(plays):
            legal = g.legal_plays()
            g.apply(legal[int(rng.integers(len(legal)))])
        states.append(g)
    config = states[0].config
    n_envs, seed = 3, 4
    venv = ScoutVectorEnv(n_envs, n_players=4, n_rounds=2)
    plain = ScoutVectorEnv(n_envs, n_players=4, n_rounds=2)
    obs, infos = venv.reset(seed=seed, options={"games": {0: states[0], 2: states[1].to_dict()}})
    plain.reset(seed=seed)
    assert np.array_equal(venv.kernel.deals[1], plain.kernel.deals[1])  # slot 1 dealt as without it
    envs = []
    for i in range(n_envs):
        e = raw_env(n_players=4, n_rounds=2)
        e.reset(seed=slot_seed(seed, i))
        if i != 1:
            e.reset(options={"game": states[0 if i == 0 else 1].to_dict()})  # in place of the first game
        envs.append(e)
    assert envs[0].game.to_dict() == states[0].to_dict() and config == envs[0].config
    _check_rows(obs, infos, envs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        out = venv.step(np.array(actions))
        for e, a in zip(envs, actions):
            e.step(a)
        ended += _check_step(out, envs, infos["seat"])
        obs, infos = out[0], out[4]
    assert ended >= 3
    listed, mapped = ScoutVectorEnv(n_envs, n_players=4, n_rounds=2), ScoutVectorEnv(n_envs, n_players=4, n_rounds=2)
    listed.reset(seed=seed, options={"games": [states[0], None, states[1]]})
    mapped.reset(seed=seed, options={"games": {0: states[0], 2: states[1]}})
    assert _same(_state(listed), _state(mapped))  # a list of positions or a dict by slot: the same


def test_position_errors_name_the_slot_and_change_nothing():
    from seers_env.scout import ScoutConfig, ScoutGame

    venv = ScoutVectorEnv(2, n_players=4)
    venv.reset(seed=3)
    before = _state(venv)
    over = ScoutGame(ScoutConfig(n_players=4, n_rounds=1), seed=0)
    while not over.game_over:
        over.apply(over.legal_plays()[0])
    four = ScoutVectorEnv(2, n_players=4, n_rounds=1)
    four.reset(seed=0)
    bad = [({"games": {0: ScoutGame(ScoutConfig(n_players=3), seed=0).to_dict()}}, ValueError,
            r"options\['games'\]\[0\] has config"),
           ({"games": {5: None}}, ValueError, "slot 5 is out of range"),
           ({"games": {True: None}}, TypeError, "slot True is not an integer"),
           ({"games": [None]}, ValueError, "1 entries"),
           ({"games": "saved.json"}, TypeError, r"options\['games'\] must be"),
           ({"games": {1: 7}}, TypeError, r"options\['games'\]\[1\] must be"),
           ("games", TypeError, "options must be a dict")]
    for options, error, words in bad:
        with pytest.raises(error, match=words):
            venv.reset(seed=9, options=options)
        assert _same(before, _state(venv))
    with pytest.raises(ValueError, match="finished game"):
        four.reset(seed=1, options={"games": {0: over}})


def test_vector_env_too_large_for_the_memory_is_a_value_error():
    with pytest.raises(ValueError, match=r"num_envs=10000000000 games need more memory"):
        ScoutVectorEnv(10**10, n_players=3)
