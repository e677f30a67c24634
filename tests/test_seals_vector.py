"""``SealsVectorEnv`` (``seers_env.seals.vector``): slot ``i`` of ``reset(seed=s)`` plays exactly the games of
``raw_env().reset(seed=slot_seed(s, i))`` then ``reset()`` after each game, at the action level (:meth:`step`)
and at the play level (:meth:`step_plays`), with the same observations, masks, rewards, terminations,
truncations and totals; plus bad input that changes nothing, no aliasing, and Gymnasium's wrappers."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from seers_env.seals import SealsConfig, SealsGame, SealsSeatView
from seers_env.seals.actions import N_ACTIONS
from seers_env.seals.features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.seals.observation import OBS_DIM
from seers_env.seals.vector import INFO_KEYS, SealsVectorEnv, VectorResetNeeded, slot_seed
from seers_env.seals_v0 import raw_env


def _aec_envs(n_players, seeds, **config):
    envs = []
    for s in seeds:
        e = raw_env(n_players=n_players, **config)
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
    for key in INFO_KEYS:
        assert infos[f"_{key}"].all() and infos[f"_{key}"].shape == (venv.num_envs,)


def _after(e, rewards, infos, term, trunc, i, acted):
    """Compare row ``i``'s step results with the AEC env's (just stepped); reset it when its game ended."""
    assert infos["rewards"][i].tolist() == pytest.approx([e.rewards[a] for a in e.possible_agents])
    assert rewards[i] == pytest.approx(e.rewards[e.possible_agents[acted]])
    ended = e.game.game_over
    assert term == (ended and all(e.terminations.values()))
    assert trunc == (ended and all(e.truncations.values()))
    if ended:
        assert term != trunc
        assert infos["totals"][i].tolist() == e.game.totals
        e.reset()
    else:
        assert not infos["totals"][i].any()
    return ended


def _random_actions(rng, masks):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("n_players,reward_mode,config", [
    (2, "score", {}), (3, "win", {"n_rounds": 2}), (4, "score", {"n_rounds": 2}),
    (3, "score", {"n_rounds": 1, "max_turns_per_round": 3}),  # rounds cut: games end truncated
])
def test_step_replays_the_aec_envs_of_the_slot_seeds(n_players, reward_mode, config):
    num, seed = 3, 21
    venv = SealsVectorEnv(num, n_players=n_players, reward_mode=reward_mode, **config)
    obs, infos = venv.reset(seed=seed)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert obs["observation"].shape == (num, OBS_DIM) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (num, N_ACTIONS) and obs["action_mask"].dtype == np.int8
    assert venv.observation_space.contains(obs)
    envs = _aec_envs(n_players, [slot_seed(seed, i) for i in range(num)], reward_mode=reward_mode, **config)
    _check_rows(venv, envs, obs, infos)
    rng = np.random.default_rng(n_players)
    ended = truncated = 0
    for _ in range(300):
        actions = _random_actions(rng, obs["action_mask"])
        acted = infos["seat"]
        obs, rewards, terms, truncs, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and rewards.shape == (num,)
        assert terms.dtype == bool and truncs.dtype == bool
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            ended += _after(e, rewards, infos, bool(terms[i]), bool(truncs[i]), i, int(acted[i]))
        truncated += int(truncs.sum())
        _check_rows(venv, envs, obs, infos)
    assert ended >= 1
    if "max_turns_per_round" in config:
        assert truncated >= 1


@pytest.mark.parametrize("n_players", [2, 4])
def test_play_level_replays_the_aec_envs_and_mixes_with_step(n_players):
    num, seed = 3, 5
    venv = SealsVectorEnv(num, n_players=n_players, n_rounds=1)
    obs, infos = venv.reset(seed=seed)
    envs = _aec_envs(n_players, [slot_seed(seed, i) for i in range(num)], n_rounds=1)
    rng = np.random.default_rng(n_players)
    ended = declared = 0
    for t in range(200):
        acted = infos["seat"]
        if t % 4 == 3:  # an action-level step now and then
            actions = _random_actions(rng, obs["action_mask"])
            obs, rewards, terms, truncs, infos = venv.step(actions)
        else:
            f = venv.play_features()
            assert f.states.shape == (num, STATE_DIM) and f.rows.shape == (f.offsets[-1], PLAY_DIM)
            picks = []
            for i, e in enumerate(envs):
                g = e.game
                view = SealsSeatView(g, g.current)
                legal = g.legal_plays()
                assert f.plays[i] == legal and f.seats[i] == g.current
                assert np.array_equal(f.states[i], encode_state(view))
                assert np.array_equal(f.rows[f.offsets[i]:f.offsets[i + 1]], encode_plays(view, legal))
                picks.append(int(rng.integers(len(legal))))
            declared += int((infos["stage"] == 1).sum())
            obs, rewards, terms, truncs, infos = venv.step_plays(np.array(picks))
            actions = [f.plays[i][j].action for i, j in enumerate(picks)]
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            ended += _after(e, rewards, infos, bool(terms[i]), bool(truncs[i]), i, int(acted[i]))
        _check_rows(venv, envs, obs, infos)
    assert ended >= 1 and declared >= 1


def test_seed_lists_positions_and_errors():
    venv = SealsVectorEnv(2, n_players=2)
    with pytest.raises(VectorResetNeeded, match="call reset"):
        venv.step(np.zeros(2, np.int64))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="num_envs="):
            SealsVectorEnv(bad)
    for n in (1, 5):
        with pytest.raises(ValueError, match="n_players"):
            SealsVectorEnv(1, n_players=n)
    with pytest.raises(ValueError, match="reward_mode='x'"):
        SealsVectorEnv(1, reward_mode="x")
    with pytest.raises(TypeError, match=r"unknown Seals option\(s\) \['bogus'\]"):
        SealsVectorEnv(1, bogus=1)
    assert venv.slot_seeds(7) == [slot_seed(7, 0), slot_seed(7, 1)]
    obs, _ = venv.reset(seed=7)
    again, _ = SealsVectorEnv(2, n_players=2).reset(seed=[slot_seed(7, 0), slot_seed(7, 1)])
    assert np.array_equal(obs["observation"], again["observation"])  # an int seed is its slot seeds
    before = [g.to_dict() for g in venv.games]
    for bad_seed, err in ((-1, ValueError), ([1, 2, 3], ValueError), ("1", ValueError), ([1, -2], ValueError),
                          (1.5, ValueError)):
        with pytest.raises(err):
            venv.reset(seed=bad_seed)
    position = SealsGame(SealsConfig(n_players=2), seed=9)
    position.apply(position.legal_plays()[0])
    finished = SealsGame(SealsConfig(n_players=2), seed=9)
    while not finished.game_over:
        finished.apply(finished.legal_plays()[0])
    for options, err, match in (
            ("x", TypeError, "options must be a dict"),
            ({"games": 3}, TypeError, "must be a dict"),
            ({"games": {2: position.to_dict()}}, ValueError, "slot 2 is out of range"),
            ({"games": {"0": position.to_dict()}}, TypeError, "not an integer"),
            ({"games": [position.to_dict()]}, ValueError, "has 1 entries"),
            ({"games": {0: 5}}, TypeError, r"SealsGame.to_dict\(\)"),
            ({"games": {0: SealsGame(SealsConfig(n_players=3), seed=1).to_dict()}}, ValueError, "plays"),
            ({"games": {0: finished.to_dict()}}, ValueError, "finished game")):
        with pytest.raises(err, match=match):
            venv.reset(seed=1, options=options)
    assert [g.to_dict() for g in venv.games] == before  # no failed reset changed anything
    obs, infos = venv.reset(seed=[4, None], options={"games": {0: position}})
    e = raw_env(n_players=2)
    e.reset(seed=4, options={"game": position.to_dict()})
    assert np.array_equal(obs["observation"][0], e.observe(e.agent_selection)["observation"])
    assert venv.games[0] is not position and venv.games[0].to_dict() == position.to_dict()
    mask = obs["action_mask"]
    bad = int(np.flatnonzero(mask[1] == 0)[0])
    good = int(np.flatnonzero(mask[0])[0])
    before = [g.to_dict() for g in venv.games]
    with pytest.raises(ValueError, match=f"action {bad} of row 1 is not allowed"):
        venv.step(np.array([good, bad]))
    with pytest.raises(ValueError, match=f"action {N_ACTIONS} of row 1 is not allowed"):
        venv.step(np.array([good, N_ACTIONS]))
    with pytest.raises(ValueError, match="action -1 of row 0"):
        venv.step(np.array([-1, good]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.array([good]))
    with pytest.raises(TypeError, match="integer dtype"):
        venv.step(np.array([0.0, 1.0]))
    with pytest.raises(IndexError, match="play index 100000 of row 0 is out of range"):
        venv.step_plays(np.array([100000, 0]))
    with pytest.raises(IndexError, match="play index -1 of row 1"):
        venv.step_plays(np.array([0, -1]))
    assert [g.to_dict() for g in venv.games] == before  # nothing changed
    assert np.array_equal(venv.action_masks(), mask)
    venv.close()
    assert venv.closed and venv.games == []
    for call in (lambda: venv.play_features(), lambda: venv.step_plays(np.zeros(2, np.int64)),
                 lambda: venv.action_masks()):
        with pytest.raises(VectorResetNeeded, match="after close"):
            call()
    venv.reset(seed=0)
    assert not venv.closed


def test_returned_arrays_never_alias_the_state():
    venv = SealsVectorEnv(2, n_players=3)
    obs, infos = venv.reset(seed=3)
    kept = [g.to_dict() for g in venv.games]
    masks = venv.action_masks()
    f = venv.play_features()
    for a in (obs["observation"], obs["action_mask"], masks, f.states, f.rows, f.offsets, f.seats,
              *infos.values()):
        a[...] = 0 if a.dtype != bool else False
    f.plays[0].clear()
    assert [g.to_dict() for g in venv.games] == kept
    fresh = venv.action_masks()
    assert fresh.any(axis=1).all() and np.array_equal(fresh, SealsVectorEnv(2, n_players=3).reset(seed=3)[0]
                                                      ["action_mask"])
    assert venv.play_features().plays[0]  # the legal list was not the game's own
    rng = np.random.default_rng(0)
    obs, infos = venv.reset(seed=3)
    obs2, rewards, terms, truncs, infos2 = venv.step(_random_actions(rng, obs["action_mask"]))
    for a, b in ((obs["observation"], obs2["observation"]), (obs["action_mask"], obs2["action_mask"]),
                 (infos["rewards"], infos2["rewards"]), (infos["totals"], infos2["totals"])):
        assert not np.shares_memory(a, b)
    assert not np.shares_memory(obs2["action_mask"], venv.action_masks())


def test_same_seed_same_games_and_gymnasium_wrappers():
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    def run(seed):
        v = SealsVectorEnv(2, n_players=2, n_rounds=1)
        obs, _ = v.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(40):
            obs, r, *_ = v.step(_random_actions(rng, obs["action_mask"]))
            out.append(obs["observation"].copy())
        return np.stack(out)

    assert np.array_equal(run(11), run(11)) and not np.array_equal(run(11), run(12))
    venv = RecordEpisodeStatistics(SealsVectorEnv(3, n_players=2, n_rounds=1))
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(150):
        obs, *_ = venv.step(_random_actions(rng, obs["action_mask"]))
    assert len(venv.return_queue) > 0  # whole games were recorded
    wrapped = DictInfoToList(SealsVectorEnv(2, n_players=4))
    _, infos = wrapped.reset(seed=1)
    assert isinstance(infos, list) and len(infos) == 2 and "seat" in infos[0]


def test_vector_rates_measures_both_levels():
    from seers_env.seals.vector import vector_rates

    r = vector_rates(num_envs=4, n_players=2, seconds=0.05, seed=1)
    assert set(r) == {"steps_per_s", "plays_per_s"} and r["steps_per_s"] > 0 and r["plays_per_s"] > 0


def test_games_are_copies_and_odd_inputs_get_clear_errors():
    """``games`` hands out copies (changing one leaves the env's next step whole); a 0-d seed array is its
    integer; timedelta actions, and Python integers beyond int64, are refused by kind without a move."""
    venv = SealsVectorEnv(3, n_players=3)
    obs, _ = venv.reset(seed=np.array(5))
    same, _ = SealsVectorEnv(3, n_players=3).reset(seed=5)
    assert np.array_equal(obs["observation"], same["observation"])
    copy = venv.games[1]
    copy.apply(copy.legal_plays()[0])
    assert venv.games[1].to_dict() != copy.to_dict()
    legal = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    before = [g.to_dict() for g in venv.games]
    with pytest.raises(TypeError, match="timedelta64"):
        venv.step(legal.astype("m8[s]"))
    with pytest.raises(ValueError, match="outside the int64 range"):
        venv.step([2**63, *legal[1:].tolist()])
    assert [g.to_dict() for g in venv.games] == before
    venv.step(np.array(legal.tolist(), dtype=object))  # Python ints in an object array are integers
    assert [g.to_dict() for g in venv.games] != before


@pytest.mark.parametrize("module", ["seers_env.seals.vector", "seers_env.haggis.vector"])
def test_module_bench_prints_a_table_within_80_columns_and_plain_help(module, capsys, monkeypatch):
    import importlib

    bench = importlib.import_module(module)
    monkeypatch.setattr(bench, "vector_rates", lambda games, n, seconds, seed: {"steps_per_s": 12345.6 * n,
                                                                                  "plays_per_s": 987.6})
    bench._bench(["--games", "8", "--seconds", "0.1", "--seed", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(("SealsVectorEnv(8), seed 3", "HaggisVectorEnv(8), seed 3"))
    assert [line.split()[:2] for line in lines[2:]] == [[str(n), f"{12345.6 * n:,.0f}"]
                                                        for n in range(2, 2 + len(lines) - 2)]
    assert len(lines) - 2 == (3 if "seals" in module else 2) and max(map(len, lines)) <= 80
    with pytest.raises(SystemExit):
        bench._bench(["--help"])
    help_text = capsys.readouterr().out
    assert f"python -m {module}" in help_text and ":func:" not in help_text and "``" not in help_text
