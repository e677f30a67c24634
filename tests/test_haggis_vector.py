"""``HaggisVectorEnv`` (``seers_env.haggis.vector``): slot ``i`` of ``reset(seed=s)`` plays exactly the games of
``raw_env().reset(seed=slot_seed(s, i))`` then ``reset()`` after each game (here the pure-Python AEC env,
``compiled = False``), at the catalogue level (:meth:`step`) and at the play level (:meth:`step_plays`), with
the same observations, masks, rewards, terminations and totals; plus its errors and Gymnasium wrappers."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from seers_env.haggis import HaggisConfig, HaggisGame
from seers_env.haggis.actions import N_ACTIONS, play_codes
from seers_env.haggis.features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.haggis.observation import OBS_DIM
from seers_env.haggis.vector import HaggisVectorEnv, VectorResetNeeded, slot_seed
from seers_env.haggis.view import HaggisSeatView
from seers_env.haggis_v0 import raw_env


def _aec_envs(n_players, seeds, **config):
    envs = []
    for s in seeds:
        e = raw_env(n_players=n_players, **config)
        e.compiled = False
        e.reset(seed=s)
        envs.append(e)
    return envs


def _check_rows(venv, envs, obs, infos):
    for i, e in enumerate(envs):
        agent = e.agent_selection
        o = e.observe(agent)
        assert np.array_equal(obs["observation"][i], o["observation"]), i
        assert np.array_equal(obs["action_mask"][i], o["action_mask"]), i
        assert infos["seat"][i] == e.game.current and infos["stage"][i] == e.infos[agent]["stage"]
    assert np.array_equal(venv.action_masks(), obs["action_mask"])


def _after(e, venv_rewards, term, totals, i, acted):
    """Compare one row's step results with the AEC env's; reset the AEC env when its game ended."""
    assert venv_rewards[i] == pytest.approx(e.rewards[e.possible_agents[acted]])
    ended = bool(e.agents) and all(e.terminations.values())
    assert term == ended
    if ended:
        assert totals.tolist() == e.game.totals
        e.reset()
    else:
        assert not totals.any()


@pytest.mark.parametrize("n_players,reward_mode", [(2, "score"), (3, "score"), (3, "win")])
def test_step_replays_the_aec_envs_of_the_slot_seeds(n_players, reward_mode):
    num, seed = 4, 21
    venv = HaggisVectorEnv(num, n_players=n_players, reward_mode=reward_mode, target=250)
    obs, infos = venv.reset(seed=seed)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert obs["observation"].shape == (num, OBS_DIM) and obs["action_mask"].shape == (num, N_ACTIONS)
    envs = _aec_envs(n_players, [slot_seed(seed, i) for i in range(num)], reward_mode=reward_mode, target=250)
    _check_rows(venv, envs, obs, infos)
    rng = np.random.default_rng(n_players)
    ended = 0
    for _ in range(700):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        acted = infos["seat"]
        obs, rewards, terms, truncs, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and not truncs.any()
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            assert infos["rewards"][i].tolist() == pytest.approx([e.rewards[a] for a in e.possible_agents])
            _after(e, rewards, bool(terms[i]), infos["totals"][i], i, int(acted[i]))
        ended += int(terms.sum())
        _check_rows(venv, envs, obs, infos)
    assert ended >= 1


@pytest.mark.parametrize("n_players", [2, 3])
def test_play_level_replays_the_aec_envs_and_mixes_with_step(n_players):
    num, seed = 3, 5
    venv = HaggisVectorEnv(num, n_players=n_players, n_rounds=1)
    obs, infos = venv.reset(seed=seed)
    envs = _aec_envs(n_players, [slot_seed(seed, i) for i in range(num)], n_rounds=1)
    rng = np.random.default_rng(n_players)
    ended = 0
    for t in range(300):
        if t % 4 == 3 or (infos["stage"] != 0).any():  # a catalogue step now and then (and to finish plays)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
            acted = infos["seat"]
            obs, rewards, terms, _, infos = venv.step(actions)
            for i, e in enumerate(envs):
                e.step(int(actions[i]))
                _after(e, rewards, bool(terms[i]), infos["totals"][i], i, int(acted[i]))
            _check_rows(venv, envs, obs, infos)
            continue
        f = venv.play_features()
        assert f.states.shape == (num, STATE_DIM) and f.rows.shape == (f.offsets[-1], PLAY_DIM)
        picks = []
        for i, e in enumerate(envs):
            g = e.game
            view = HaggisSeatView(g, g.current)
            legal = g.legal_plays()
            assert f.plays[i] == legal and f.seats[i] == g.current
            assert np.array_equal(f.states[i], encode_state(view))
            assert np.array_equal(f.rows[f.offsets[i]:f.offsets[i + 1]], encode_plays(view, legal))
            picks.append(int(rng.integers(len(legal))))
        acted = infos["seat"]
        obs, rewards, terms, _, infos = venv.step_plays(np.array(picks))
        for i, e in enumerate(envs):
            play = f.plays[i][picks[i]]
            path = play_codes(play)
            decision = e.decision
            while e.decision is decision:  # the play's codes, skipping those the decision takes itself
                e.step(path[len(decision.chosen)])
            _after(e, rewards, bool(terms[i]), infos["totals"][i], i, int(acted[i]))
            ended += bool(terms[i])
        _check_rows(venv, envs, obs, infos)
    assert ended >= 2


def test_seed_lists_positions_and_errors():
    venv = HaggisVectorEnv(2, n_players=2)
    with pytest.raises(VectorResetNeeded, match="call reset"):
        venv.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="num_envs=0"):
        HaggisVectorEnv(0)
    with pytest.raises(ValueError, match="reward_mode='x'"):
        HaggisVectorEnv(1, reward_mode="x")
    with pytest.raises(TypeError, match=r"unknown Haggis option\(s\) \['bogus'\]"):
        HaggisVectorEnv(1, bogus=1)
    with pytest.raises(ValueError, match="seed has 3 entries"):
        venv.reset(seed=[1, 2, 3])
    position = HaggisGame(HaggisConfig(n_players=2), seed=9)
    position.apply(position.legal_plays()[0])
    obs, infos = venv.reset(seed=[4, None], options={"games": {0: position.to_dict()}})
    e = raw_env(n_players=2)
    e.reset(seed=4, options={"game": position.to_dict()})
    assert np.array_equal(obs["observation"][0], e.observe(e.agent_selection)["observation"])
    with pytest.raises(ValueError, match="slot 2 is out of range"):
        venv.reset(options={"games": {2: position.to_dict()}})
    with pytest.raises(ValueError, match="plays"):
        venv.reset(options={"games": {0: HaggisGame(HaggisConfig(n_players=3), seed=1).to_dict()}})
    mask = obs["action_mask"]
    bad = int(np.flatnonzero(mask[1] == 0)[0])
    good = int(np.flatnonzero(mask[0])[0])
    before = [g.to_dict() for g in venv.games]
    with pytest.raises(ValueError, match=f"action {bad} of row 1 is not allowed"):
        venv.step(np.array([good, bad]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.array([good]))
    with pytest.raises(TypeError, match="integer dtype"):
        venv.step(np.array([0.0, 1.0]))
    with pytest.raises(IndexError, match="play index 100000 of row 0 is out of range"):
        venv.step_plays(np.array([100000, 0]))
    assert [g.to_dict() for g in venv.games] == before  # nothing changed
    venv.close()
    assert venv.closed
    with pytest.raises(VectorResetNeeded, match="after close"):
        venv.play_features()


def test_gymnasium_vector_wrappers_take_it():
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    venv = RecordEpisodeStatistics(HaggisVectorEnv(3, n_players=2, n_rounds=1))
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        obs, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]))
    assert len(venv.return_queue) > 0  # whole games were recorded
    wrapped = DictInfoToList(HaggisVectorEnv(2, n_players=3))
    _, infos = wrapped.reset(seed=1)
    assert isinstance(infos, list) and len(infos) == 2 and "seat" in infos[0]


def test_vector_rates_measures_both_levels():
    from seers_env.haggis.vector import vector_rates

    r = vector_rates(num_envs=4, n_players=2, seconds=0.05, seed=1)
    assert set(r) == {"steps_per_s", "plays_per_s"} and r["steps_per_s"] > 0 and r["plays_per_s"] > 0
