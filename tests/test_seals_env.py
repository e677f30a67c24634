"""The Seals PettingZoo AEC environment (seers_env.seals_v0): PettingZoo's own tests and pickling at 2-4
players, rewards, the two-stage turn (take, then declare), exact masks, the observation layout, bad input
that changes nothing, positions and the lifecycle."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, render_test, seed_test

from seers_env.games import game_spec
from seers_env.seals import SealsConfig, SealsGame, SealsPlay, SealsSeatView
from seers_env.seals.cards import COIN, N_CARDS, card_of
from seers_env.seals.observation import OBS_DIM, OBSERVATION_LAYOUT, STATE_DIM, observe
from seers_env.seals.plays import N_ACTIONS, N_TAKES
from seers_env.seals_v0 import INFO_KEYS, IllegalActionError, env, raw_env

PLAYERS = [2, 3, 4]


def _play_out(e, seed, check=None):
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            assert (info["action_mask"] == obs["action_mask"]).all()
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if check is not None:
            check(e)
    return total


@pytest.mark.parametrize("n_players", PLAYERS)
def test_pettingzoo_api_seed_render_and_pickle(n_players):
    api_test(env(n_players=n_players), num_cycles=200)
    seed_test(lambda **kw: env(n_players=n_players, **kw), num_cycles=200)
    render_test(lambda **kw: env(n_players=n_players, **kw))
    e = env(n_players=n_players)
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(15):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
    assert _play_out(copy, 3) == _play_out(e, 3)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_score_rewards_sum_to_the_marks(n_players):
    for seed in range(3):
        e = env(n_players=n_players)
        e.reset(seed=seed)
        total = _play_out(e, seed)
        game = e.unwrapped.game
        assert [total[a] for a in e.possible_agents] == [float(t) for t in game.totals]


@pytest.mark.parametrize("n_players", PLAYERS)
def test_win_rewards_follow_the_final_places(n_players):
    e = env(n_players=n_players, reward_mode="win")
    e.reset(seed=2)
    total = _play_out(e, 2)
    game = e.unwrapped.game
    places = game.placements()
    assert [total[a] for a in e.possible_agents] == [(n_players + 1 - 2 * p) / (n_players - 1) for p in places]
    assert abs(sum(total.values())) < 1e-9


def test_masks_are_exactly_the_engine_plays_and_each_stage_has_its_own_ids():
    e = raw_env(n_players=3)
    e.reset(seed=7)
    rng = np.random.default_rng(0)
    stages = set()
    while not e.game.game_over:
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        legal = e.game.legal_plays()
        assert np.flatnonzero(mask).tolist() == [p.action for p in legal]
        stage = e.infos[agent]["stage"]
        stages.add(stage)
        ids = np.flatnonzero(mask)
        assert (ids < N_TAKES).all() if stage == 0 else (ids >= N_TAKES).all()
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any() and e.infos[other]["stage"] == -1
        e.step(int(rng.choice(ids)))
    assert stages == {0, 1}


def test_declaration_stage_keeps_the_agent_and_declaring_ends_the_round():
    hand = [card_of(c, 2) for c in range(3)]
    row = [card_of(4, 2), card_of(4, 5), card_of(0, 8), card_of(1, 9)]
    game = SealsGame.from_position(row=row, hands=[hand, [], []])
    e = raw_env(n_players=3)
    e.reset(options={"game": game.to_dict()})
    e.step(SealsPlay.colour(4).action)  # Black: the fourth 3
    assert e.agent_selection == "player_0" and e.infos["player_0"]["stage"] == 1
    assert np.flatnonzero(e.infos["player_0"]["action_mask"]).tolist() == [N_TAKES, N_TAKES + (1 << 2)]
    e.step(N_TAKES + (1 << 2))
    assert e.rewards["player_0"] == 1.0 and e.game.totals == [1, 0, 0] and e.game.round == 1


def test_illegal_action_penalize_ends_the_game():
    e = env(n_players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(bad)
    assert all(e.terminations.values()) and e.rewards[agent] == -1.0
    assert e.infos[agent]["illegal_action"] == bad


def test_illegal_malformed_and_out_of_range_actions_raise_and_change_nothing():
    e = env(n_players=3, illegal_action="raise")
    e.reset(seed=1)
    before = e.unwrapped.game.to_dict()
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    for action, err, text in ((bad, IllegalActionError, "not legal"), (N_ACTIONS, ValueError, "12304"),
                              (-1, ValueError, "-1"), (1.0, TypeError, "integer"), ("3", TypeError, "integer"),
                              (True, TypeError, "integer")):
        with pytest.raises(err, match=text):
            e.step(action)
    e2 = env(n_players=3)
    e2.reset(seed=1)
    for action in (N_ACTIONS, 2.5, None):
        with pytest.raises((TypeError, ValueError)):
            e2.step(action)
    assert e.unwrapped.game.to_dict() == before == e2.unwrapped.game.to_dict()
    assert e.agent_selection == agent


@pytest.mark.parametrize("kwargs, err, text", [
    ({"n_players": 5}, ValueError, "n_players"), ({"n_players": "3"}, TypeError, "n_players"),
    ({"reward_mode": "points"}, ValueError, "reward_mode"), ({"illegal_action": "ignore"}, ValueError, "illegal"),
    ({"render_mode": "rgb_array"}, ValueError, "render_mode"), ({"colour": 3}, TypeError, "colour"),
    ({"n_rounds": 0}, ValueError, "n_rounds"),
])
def test_bad_config_values_are_named(kwargs, err, text):
    with pytest.raises(err, match=text):
        env(**kwargs)


def test_reset_from_a_position_and_damaged_positions_change_nothing():
    e = raw_env(n_players=3)
    e.reset(seed=4)
    game = SealsGame(SealsConfig(n_players=3), seed=11)
    game.apply(game.legal_plays()[0])
    e.reset(options={"game": game})
    assert e.game.to_dict() == game.to_dict() and e.game is not game
    before = e.game.to_dict()
    damaged = game.to_dict()
    damaged["pile"].append(damaged["pile"][0])
    with pytest.raises(ValueError, match="doubled"):
        e.reset(options={"game": damaged})
    with pytest.raises(ValueError, match="config"):
        e.reset(options={"game": SealsGame(SealsConfig(n_players=2), seed=1).to_dict()})
    with pytest.raises(TypeError, match="options"):
        e.reset(options=[1])
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=-1)
    assert e.game.to_dict() == before


@pytest.mark.parametrize("n_players", PLAYERS)
def test_info_keys_and_observations_stay_in_the_space(n_players):
    e = env(n_players=n_players)
    e.reset(seed=n_players)

    def check(env_):
        for a in env_.agents:
            assert tuple(env_.infos[a]) == INFO_KEYS
            obs = env_.observe(a)
            assert obs in env_.observation_space(a)
        assert env_.state().shape == (STATE_DIM,)

    _play_out(e, 1, check)


def test_observation_layout_matches_the_table_and_hides_the_pile_order():
    assert sum(length for _, length in OBSERVATION_LAYOUT.values()) == OBS_DIM == 404
    assert STATE_DIM == OBS_DIM + N_CARDS
    game = SealsGame(SealsConfig(n_players=3), seed=3)
    for _ in range(5):
        game.apply(game.legal_plays()[0])
    obs = observe(SealsSeatView(game, 1))
    L = OBSERVATION_LAYOUT
    o, n = L["row"]
    assert np.flatnonzero(obs[o:o + n]).tolist() == sorted(game.row)
    o, _ = L["hands"]
    for r in range(3):
        seat = (1 + r) % 3
        assert np.flatnonzero(obs[o + r * N_CARDS:o + (r + 1) * N_CARDS]).tolist() == game.hands[seat]
    o, n = L["pile_cards"]
    assert np.flatnonzero(obs[o:o + n]).tolist() == game.pile_cards
    o, _ = L["symbol_counts"]
    assert obs[o + COIN] * 5 == sum(c % 11 == COIN for c in game.hands[1])
    shuffled = game.clone()
    shuffled._pile = list(reversed(shuffled._pile))
    assert (observe(SealsSeatView(shuffled, 1)) == obs).all()


def test_before_reset_and_after_close_raise_reset_needed():
    e = env(n_players=3)
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), e.last, e.state, e.render):
        with pytest.raises(ResetNeeded):
            call()
    e.reset(seed=0)
    e.close()
    with pytest.raises(ResetNeeded):
        e.last()


def test_registered_with_pettingzoo_and_in_the_game_registry():
    import pettingzoo

    import seers_env  # noqa: F401  (registers the environments)

    spec = game_spec("seals")
    assert spec.env_id == "seers/seals-v0" and spec.env().raw_env is raw_env
    assert pettingzoo.spec("aec", "seers/seals-v0").entry_point == "seers_env.seals_v0:env"


def test_render_ansi_shows_the_row_and_every_hand():
    e = env(n_players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "Face up:" in text and "player_0" in text and "player_1" in text
    assert e.unwrapped.describe_action(SealsPlay.symbol(COIN).action).startswith("take Coins")
