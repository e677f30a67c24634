"""The Haggis PettingZoo AEC environment (seers_env.haggis_v0): PettingZoo's own tests, exact masks at
every stage of a play, bets as their own decision, rewards, illegal actions, hidden information,
positions and the lifecycle, at 2 and 3 players."""

from __future__ import annotations

import os
import pickle
import sys

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, render_test, seed_test

sys.path.insert(0, os.path.dirname(__file__))

from haggis_states import random_states  # noqa: E402
from seers_env.games import game_spec  # noqa: E402
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisPlay, HaggisSeatView  # noqa: E402
from seers_env.haggis.actions import (  # noqa: E402
    BET_BASE, N_ACTIONS, PASS_CODE, HaggisDecision, play_codes,
)
from seers_env.haggis.cards import face_card, number_card  # noqa: E402
from seers_env.haggis.observation import OBS_DIM, OBSERVATION_LAYOUT, OFFSETS, STATE_DIM, observe  # noqa: E402
from seers_env.haggis.plays import SET  # noqa: E402
from seers_env.haggis_v0 import INFO_KEYS, IllegalActionError, env, raw_env  # noqa: E402

PLAYERS = [2, 3]


def _random_action(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def _play_out(e, seed, check=None, max_steps=500_000):
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(max_steps):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            assert (info["action_mask"] == obs["action_mask"]).all()
            e.step(_random_action(obs, rng))
            steps += 1
        if check is not None:
            check(e)
    return total, steps


@pytest.mark.parametrize("n_players", PLAYERS)
def test_pettingzoo_api_seed_render_and_pickle(n_players):
    api_test(env(n_players=n_players, n_rounds=1), num_cycles=300)
    seed_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw), num_cycles=300)
    render_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw))
    e = env(n_players=n_players)
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        e.step(_random_action(e.last()[0], rng))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
    for _ in range(30):
        a, b = copy.last(), e.last()
        assert (a[0]["observation"] == b[0]["observation"]).all() and (a[0]["action_mask"] == b[0]["action_mask"]).all()
        assert a[1:4] == b[1:4] and copy.agent_selection == e.agent_selection
        action = _random_action(b[0], rng)
        copy.step(action)
        e.step(action)
    assert not copy.last()[4]["action_mask"].flags.writeable


def _reachable(game) -> set:
    """Every play reached by walking every masked path of a fresh decision (depth first)."""
    found = set()

    def walk(chosen):
        d = HaggisDecision(game)
        play = None
        for code in chosen:
            play = d.choose(code)
        if play is not None:
            found.add(play)
            return
        for a in np.flatnonzero(d.mask()):
            walk(chosen + [int(a)])

    walk([])
    return found


@pytest.mark.parametrize("n_players", PLAYERS)
def test_masks_are_exact_and_every_legal_play_has_one_path(n_players):
    for i, game in enumerate(random_states(n_players, 120, seed=20 + n_players)):
        legal = game.legal_plays()
        if len(legal) > 400:
            continue
        assert _reachable(game) == set(legal)
        paths = [tuple(play_codes(p)) for p in legal]
        assert len(set(paths)) == len(paths)
        # at every stage the mask is exactly the next codes of the plays still possible
        rng = np.random.default_rng(i)
        d = HaggisDecision(game)
        target = legal[int(rng.integers(len(legal)))]
        codes = play_codes(target)
        play = None
        while play is None:
            i_stage = len(d.chosen)
            expected = {tuple(play_codes(p))[i_stage] for p in legal
                        if tuple(play_codes(p))[:i_stage] == tuple(d.chosen)}
            assert set(np.flatnonzero(d.mask()).tolist()) == expected
            play = d.choose(codes[i_stage])
        assert play == target


def test_bet_is_its_own_decision_and_a_play_takes_several_actions():
    e = raw_env(n_players=2)
    e.reset(seed=3)
    mask = e.last()[0]["action_mask"]
    assert np.flatnonzero(mask).tolist() == [BET_BASE, BET_BASE + 1, BET_BASE + 2]
    e.step(BET_BASE + 1)
    assert e.game.bets == [15, None] and e.agent_selection == "player_0"
    # choose a multi-card play: its main code, then cards
    legal = e.game.legal_plays()
    target = max(legal, key=lambda p: len(p.cards))
    codes = play_codes(target)
    before = e.game.to_dict()
    e.step(codes[0])
    steps = 1
    while e.game.to_dict() == before:
        assert e.agent_selection == "player_0" and e.infos["player_0"]["stage"] == 1
        obs = e.last()[0]["observation"]
        lo, _ = OFFSETS["pending_shape"]
        assert obs[lo + 3] == 1
        nxt = codes[len(e.decision.chosen)]
        e.step(nxt)
        steps += 1
    assert e.game.public_history[-1]["play"] == target.to_list()
    assert e.agent_selection == "player_1" and steps <= len(codes)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_score_rewards_sum_to_engine_totals(n_players):
    e = env(n_players=n_players, n_rounds=2)
    e.reset(seed=11 + n_players)
    total, steps = _play_out(e, seed=n_players)
    game = e.unwrapped.game
    assert game.game_over and steps > 0 and len(game.round_scores) == 2
    assert [total[a] for a in e.possible_agents] == [float(t) for t in game.totals]


@pytest.mark.parametrize("n_players", PLAYERS)
def test_win_rewards_follow_final_ranking(n_players):
    e = env(n_players=n_players, reward_mode="win", target=250)
    e.reset(seed=2)
    total, _ = _play_out(e, seed=2)
    game = e.unwrapped.game
    values = [total[a] for a in e.possible_agents]
    assert abs(sum(values)) < 1e-9 and max(game.totals) >= 250
    assert values[game.winners()[0]] == 1.0


def test_illegal_action_penalize_and_raise():
    e = env(n_players=3)
    e.reset(seed=3)
    agent = e.agent_selection
    bad = PASS_CODE  # a bet is due
    e.step(bad)
    assert all(e.terminations.values()) and e.rewards[agent] == -1.0
    assert e.infos[agent]["illegal_action"] == bad
    r = raw_env(n_players=3, illegal_action="raise")
    r.reset(seed=3)
    before = r.game.to_dict()
    with pytest.raises(IllegalActionError, match="player_0: action 0 .*continues no legal play"):
        r.step(PASS_CODE)
    r.step(BET_BASE)
    multi = next(p for p in r.game.legal_plays() if len(p.cards) >= 3)
    r.step(play_codes(multi)[0])
    chosen = list(r.decision.chosen)
    with pytest.raises(IllegalActionError):
        r.step(PASS_CODE)
    assert r.decision.chosen == chosen and r.game.bets[0] == 0 and not any(r.terminations.values())
    assert r.game.to_dict()["hands"] == before["hands"]


@pytest.mark.parametrize("action, err", [(N_ACTIONS, ValueError), (-1, ValueError), (1.0, TypeError),
                                          ("3", TypeError), (True, TypeError)])
def test_bad_actions_raise_clear_errors(action, err):
    e = env(n_players=3)
    e.reset(seed=4)
    before = e.unwrapped.game.to_dict()
    with pytest.raises(err, match="action"):
        e.step(action)
    assert e.unwrapped.game.to_dict() == before and not any(e.terminations.values())


@pytest.mark.parametrize("kwargs, err, text", [
    ({"reward_mode": "points"}, ValueError, "reward_mode='points'"),
    ({"illegal_action": "ignore"}, ValueError, "illegal_action='ignore'"),
    ({"render_mode": "rgb_array"}, ValueError, "render_mode='rgb_array'"),
    ({"n_players": 4}, ValueError, "n_players=4"),
    ({"target": 300}, ValueError, "target=300"),
    ({"n_rounds": 0}, ValueError, "n_rounds=0"),
    ({"targt": 250}, TypeError, "targt"),
])
def test_bad_config_values_are_named(kwargs, err, text):
    with pytest.raises(err, match=text):
        raw_env(**kwargs)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_hidden_information_not_leaked(n_players):
    rng = np.random.default_rng(n_players)
    differ = 0
    for game in random_states(n_players, 150, seed=40 + n_players):
        seat = int(rng.integers(n_players))
        sample = HaggisSeatView(game, seat).determinize(rng)
        if sample.hands != game.hands or sample.haggis != game.haggis:
            differ += 1
        assert (observe(HaggisSeatView(game, seat)) == observe(HaggisSeatView(sample, seat))).all()
        assert HaggisSeatView(game, seat).to_dict() == HaggisSeatView(sample, seat).to_dict()
    assert differ > 100


def test_reset_from_a_position_and_errors():
    for i, game in enumerate(random_states(3, 40, seed=7)):
        if i % 10:
            continue
        e = raw_env(n_players=3, n_rounds=2)
        e.reset(seed=1, options={"game": game.to_dict()})
        agent = f"player_{game.current}"
        assert e.agent_selection == agent and e.game.to_dict() == game.to_dict()
        assert (e.observe(agent)["observation"] == observe(HaggisSeatView(game, game.current), e.decision)).all()
    e = raw_env(n_players=3)
    with pytest.raises(ValueError, match="config"):
        e.reset(options={"game": HaggisGame(HaggisConfig(n_players=2), seed=0).to_dict()})
    with pytest.raises(TypeError, match="options\\['game'\\]"):
        e.reset(options={"game": [1, 2]})
    with pytest.raises(ValueError, match="seed=-1"):
        e.reset(seed=-1)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_info_keys_are_the_same_at_every_step(n_players):
    def check(e):
        for agent, info in e.infos.items():
            assert tuple(info) == INFO_KEYS
            acting = agent == e.agent_selection and not (e.terminations[agent] or e.truncations[agent])
            assert (info["stage"] >= 0) == acting and (info["action_mask"].any() == acting)
    e = env(n_players=n_players, n_rounds=1)
    e.reset(seed=9)
    check(e)
    _play_out(e, seed=9, check=check)


@pytest.mark.parametrize("wrapped", [True, False])
def test_before_reset_and_after_close_every_method_raises_reset_needed(wrapped):
    e = env(n_players=3) if wrapped else raw_env(n_players=3)
    calls = [lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last(), lambda: e.state(),
             lambda: e.render()]
    for _ in range(2):
        for call in calls:
            with pytest.raises(ResetNeeded, match=r"call reset\(\)"):
                call()
        e.reset(seed=0)
        e.step(BET_BASE)
        assert e.observe("player_0")["observation"].shape == (OBS_DIM,)
        e.close()


def test_registered_with_pettingzoo_and_in_the_game_registry():
    import pettingzoo

    import seers_env  # noqa: F401  (registers the environments)

    e = pettingzoo.make("aec", "seers/haggis-v0", n_players=2)
    assert e.unwrapped.metadata["name"] == "haggis_v0" and len(e.possible_agents) == 2
    spec = game_spec("haggis")
    assert spec.env().env is env and spec.env_id == "seers/haggis-v0"


def test_layout_state_and_documented_sizes():
    from seers_env import haggis_v0

    offset = 0
    for name, size, _ in OBSERVATION_LAYOUT:
        assert OFFSETS[name] == (offset, offset + size)
        offset += size
    assert offset == OBS_DIM
    card = haggis_v0.__doc__
    assert f"N_ACTIONS == {N_ACTIONS}" in card and f"``({OBS_DIM},)``" in card and f"``({STATE_DIM},)``" in card
    hands = [[number_card(0, 5), number_card(1, 5)] + [face_card(0, r) for r in (11, 12, 13)],
             [number_card(2, 9)] + [face_card(1, 12)], [number_card(3, 2)] + [face_card(2, 11), face_card(2, 13)]]
    game = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, current=0,
                                    captured=[[face_card(1, 11), face_card(1, 13), face_card(2, 12)], [], []])
    e = raw_env(n_players=3)
    e.reset(options={"game": game})
    obs = e.observe("player_0")["observation"]
    lo, hi = OFFSETS["hand"]
    assert np.flatnonzero(obs[lo:hi]).tolist() == [number_card(0, 5), number_card(1, 5), 45, 46, 47]
    lo, _ = OFFSETS["faces_held"]
    assert obs[lo:lo + 9].tolist() == [1, 1, 1, 0, 1, 0, 1, 0, 1]
    lo, _ = OFFSETS["hand_sizes"]
    assert obs[lo:lo + 3].tolist() == pytest.approx([5 / 17, 2 / 17, 3 / 17])
    st = e.state()
    assert st.shape == (STATE_DIM,) and st.dtype == np.float32 and (st[-OBS_DIM:] == obs).all()
    # a pair of 5s, then the follower's mask: pass, or 9 + Q as a pair of 9s (one play, one action)
    e.step(play_codes(HaggisPlay(SET, (number_card(0, 5), number_card(1, 5))))[0])
    while e.agent_selection == "player_0":
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert e.agent_selection == "player_1" and e.game.bets[1] == 0
    mask = np.flatnonzero(e.last()[0]["action_mask"]).tolist()
    assert mask == [PASS_CODE, play_codes(HaggisPlay(SET, (number_card(2, 9), face_card(1, 12))))[0]]
    e.step(mask[1])
    assert e.game.trick[-1] == (1, HaggisPlay(SET, (number_card(2, 9), face_card(1, 12))))


def test_render_ansi():
    e = env(n_players=3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "Haggis, 3 players, round 1" in text and "player_0 holds" in text and "bet -" in text
