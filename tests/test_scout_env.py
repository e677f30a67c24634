"""The SCOUT PettingZoo AEC environment (seers_env.scout_v0): PettingZoo's own tests, rewards (rules
sections 8 and 9), Scout & Show in two stages, illegal actions, hidden information (section 10), positions,
infos, truncation and the environment's lifecycle."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils import turn_based_aec_to_parallel

from scout_policies import random_states
from scout_positions import Picker
from seers_env.games import game_spec
from seers_env.scout import ScoutConfig, ScoutGame, ScoutSeatView
from seers_env.scout.actions import (
    KEEP_ACTION, N_ACTIONS, PendingScout, legal_action_mask, scout_show_action, show_action,
)
from seers_env.scout.cards import CARD_NUMBERS
from seers_env.scout.observation import OBS_DIM, OBSERVATION_LAYOUT, OFFSETS, STATE_DIM, observe
from seers_env.scout_v0 import INFO_KEYS, IllegalActionError, env, raw_env

PLAYERS = [2, 3, 4, 5]


def _random_action(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def _play_out(e, seed, check=None, max_steps=200_000):
    """Random legal play until every agent is done; returns summed rewards per agent and the step count.
    ``check(e)`` runs after every step."""
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
    api_test(env(n_players=n_players, n_rounds=1), num_cycles=150)
    seed_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw), num_cycles=150)
    render_test(lambda **kw: env(n_players=n_players, n_rounds=1, **kw))
    e = env(n_players=n_players)
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(25):
        e.step(_random_action(e.last()[0], rng))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
    for _ in range(25):  # the copy goes on exactly as the original
        a, b = copy.last(), e.last()
        assert (a[0]["observation"] == b[0]["observation"]).all() and (a[0]["action_mask"] == b[0]["action_mask"]).all()
        assert a[1:4] == b[1:4] and copy.agent_selection == e.agent_selection
        if a[2] or a[3]:
            break
        action = _random_action(b[0], rng)
        copy.step(action)
        e.step(action)
    assert not copy.last()[4]["action_mask"].flags.writeable


@pytest.mark.parametrize("n_players", PLAYERS)
def test_parallel_api_through_turn_based_conversion(n_players):
    parallel_api_test(turn_based_aec_to_parallel(env(n_players=n_players, n_rounds=1)), num_cycles=150)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_score_rewards_sum_to_engine_totals(n_players):
    e = env(n_players=n_players)
    e.reset(seed=11 + n_players)
    total, steps = _play_out(e, seed=n_players)
    game = e.unwrapped.game
    assert game.game_over and steps > 0 and len(game.round_scores) == game.config.n_rounds
    assert [total[a] for a in e.possible_agents] == [float(t) for t in game.totals]


@pytest.mark.parametrize("n_players", [2, 4])
def test_win_rewards_follow_final_ranking(n_players):
    e = env(n_players=n_players, reward_mode="win")
    e.reset(seed=2)
    total, _ = _play_out(e, seed=2)
    game = e.unwrapped.game
    values = [total[a] for a in e.possible_agents]
    assert abs(sum(values)) < 1e-9
    winners = game.winners()
    assert all(values[w] == max(values) for w in winners)
    if len(winners) == 1:
        assert values[winners[0]] == 1.0
    totals = game.totals
    for i in range(n_players):
        for j in range(n_players):
            if totals[i] > totals[j]:
                assert values[i] > values[j]


def _small_scout_show_position():
    """3 players: player_0 holds [1(9)], Active Set [2(9) 3(4)] of player_2: a Scout & Show can take the 3
    (kept) or 4 (flipped) and show it alone at position 0."""
    pk = Picker(3)
    hand = [pk.face(1, 9)]
    active = [pk.face(2, 9), pk.face(3, 4)]
    return ScoutGame.from_position(ScoutConfig(n_players=3), hands=[hand, pk.filler_hand(5), pk.filler_hand(5)],
                                   active=active, active_owner=2, current=0)


def test_scout_and_show_two_stage_flow():
    game = _small_scout_show_position()
    e = raw_env(n_players=3, render_mode="ansi")
    e.reset(seed=0, options={"game": game.to_dict()})
    assert e.agent_selection == "player_0" and e.infos["player_0"]["stage"] == 0
    first = scout_show_action(1, 1, 0)  # take the right card (3/4), flip it to 4, insert at 0
    assert e.last()[0]["action_mask"][first] == 1
    e.step(first)
    obs, reward, term, trunc, info = e.last()
    assert e.agent_selection == "player_0" and info["stage"] == 1 and reward == 0.0 and not term
    assert (obs["action_mask"] == legal_action_mask(game, PendingScout(1, 1, 0))).all()
    assert np.flatnonzero(obs["action_mask"]).tolist() == [show_action(0, 1)]
    vec = obs["observation"]
    hand = vec[OFFSETS["hand"]:OFFSETS["hand"] + 4]
    assert hand.tolist() == pytest.approx([0.4, 0.3, 0.1, 0.9])  # the new hand: 4(3) then 1(9)
    assert vec[OFFSETS["stage"] + 1] == 1 and vec[OFFSETS["pending_slot"]] == 1 and vec[OFFSETS["pending_end"]] == 1
    assert vec[OFFSETS["active"]:OFFSETS["active"] + 3].tolist() == pytest.approx([0.2, 0.9, 0.0])
    assert e.game.to_dict() == game.to_dict(), "the engine applies nothing before the show"
    assert "Scout & Show: scouted 4(3) into position 0" in e.render()
    e.step(show_action(0, 1))
    last = e.game.public_history[-1]
    assert last["event"] == "scout_show" and last["cards"] == [[CARD_NUMBERS.index((3, 4)), 4]]
    assert e.agent_selection == "player_1" and e.infos["player_0"]["stage"] == -1


def test_illegal_action_penalize_ends_game():
    e = env(n_players=4)
    e.reset(seed=3)
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0 and all(r == 0.0 for a, r in e.rewards.items() if a != agent)
    assert e.infos[agent]["illegal_action"] == bad
    assert all(e.infos[a]["illegal_action"] == -1 for a in e.agents if a != agent)
    assert all(set(i) == set(INFO_KEYS) for i in e.infos.values())


def test_illegal_action_raise_changes_nothing_at_both_stages():
    e = raw_env(n_players=3, illegal_action="raise")
    e.reset(options={"game": _small_scout_show_position().to_dict()})
    before = e.game.to_dict()
    with pytest.raises(IllegalActionError, match=r"player_0: action 2025 .*not allowed now"):
        e.step(KEEP_ACTION)
    e.step(scout_show_action(1, 0, 0))
    with pytest.raises(IllegalActionError, match="not allowed now.*Scout & Show: the show"):
        e.step(show_action(0, 2))
    assert e.decision.pending == (1, 0, 0) and e.game.to_dict() == before
    assert not any(e.terminations.values())


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
    ({"n_players": 6}, ValueError, "n_players=6"),
    ({"n_players": "4"}, TypeError, "n_players='4'"),
    ({"first_player": "oldest"}, ValueError, "first_player='oldest'"),
    ({"max_turns_per_round": 0}, ValueError, "max_turns_per_round=0"),
    ({"n_players": 2, "n_rounds": 3}, ValueError, "n_rounds=3"),
    ({"public_scout_flip_and_position": 1}, TypeError, "public_scout_flip_and_position=1"),
    ({"n_round": 2}, TypeError, "n_round"),
])
def test_bad_config_values_are_named(kwargs, err, text):
    with pytest.raises(err, match=text.replace("(", r"\(")):
        raw_env(**kwargs)


def _sampled_pairs(n_players, count, seed):
    """(game, sample, seat): states and a determinized copy for ``seat`` (other seats' hidden cards drawn)."""
    rng = np.random.default_rng(seed)
    for game in random_states(n_players, count, seed=seed):
        seat = int(rng.integers(n_players))
        yield game, ScoutSeatView(game, seat).determinize(rng), seat


@pytest.mark.parametrize("n_players", PLAYERS)
def test_hidden_information_not_leaked(n_players):
    differ = 0
    for game, sample, seat in _sampled_pairs(n_players, 150, seed=40 + n_players):
        if sample.to_dict()["hands"] != game.to_dict()["hands"] or sample.set_aside != game.set_aside:
            differ += 1
        a = observe(ScoutSeatView(game, seat))
        b = observe(ScoutSeatView(sample, seat))
        assert (a == b).all()
        if seat == game.current and game.phase == "play":  # stage 2 of a Scout & Show too
            for p in [p for p in game.legal_plays() if p.kind == 4][:3]:
                pend = PendingScout(p.end, p.flip, p.position)
                assert (observe(ScoutSeatView(game, seat), pend) == observe(ScoutSeatView(sample, seat), pend)).all()
    assert differ > 100  # the samples really hid something else


def test_hidden_information_env_level():
    """Two environments whose games differ only in other seats' hidden cards: the acting agent's
    observation and mask are equal, the full state is not."""
    game = next(g for i, g in enumerate(random_states(4, 40, seed=3)) if i == 39)
    seat = game.current
    sample = ScoutSeatView(game, seat).determinize(np.random.default_rng(0))
    e1, e2 = raw_env(n_players=4, **_flags(game)), raw_env(n_players=4, **_flags(game))
    e1.reset(options={"game": game.to_dict()})
    e2.reset(options={"game": sample.to_dict()})
    agent = f"player_{seat}"
    o1, o2 = e1.observe(agent), e2.observe(agent)
    assert (o1["observation"] == o2["observation"]).all() and (o1["action_mask"] == o2["action_mask"]).all()
    assert not (e1.state() == e2.state()).all()


def _flags(game):
    d = game.config.to_dict()
    d.pop("n_players")
    return d


@pytest.mark.parametrize("n_players", PLAYERS)
def test_reset_from_a_position(n_players):
    for i, game in enumerate(random_states(n_players, 60, seed=7)):
        if i % 15:
            continue
        d = game.to_dict()
        e = raw_env(n_players=n_players, **_flags(game))
        e.reset(seed=1, options={"game": d})
        restored = ScoutGame.from_dict(d)
        agent = f"player_{restored.current}"
        assert e.agent_selection == agent and e.game.to_dict() == restored.to_dict()
        obs = e.observe(agent)
        assert (obs["observation"] == observe(ScoutSeatView(restored, restored.current))).all()
        assert (obs["action_mask"] == legal_action_mask(restored)).all()
    hand_made = _small_scout_show_position()
    e = raw_env(n_players=3)
    e.reset(options={"game": hand_made})  # a ScoutGame is copied
    assert e.game is not hand_made and e.game.to_dict() == hand_made.to_dict()


def test_reset_position_errors():
    e = raw_env(n_players=4)
    with pytest.raises(ValueError, match="config"):
        e.reset(options={"game": ScoutGame(ScoutConfig(n_players=3), seed=0).to_dict()})
    over = ScoutGame(ScoutConfig(n_players=4, n_rounds=1), seed=0)
    while not over.game_over:
        over.apply(over.legal_plays()[0])
    with pytest.raises(ValueError, match="finished"):
        raw_env(n_players=4, n_rounds=1).reset(options={"game": over.to_dict()})
    with pytest.raises(TypeError, match="options\\['game'\\]"):
        e.reset(options={"game": [1, 2]})
    with pytest.raises(TypeError, match="options must be a dict"):
        e.reset(options=[("game", None)])
    with pytest.raises(ValueError, match="seed=-1"):
        e.reset(seed=-1)


@pytest.mark.parametrize("n_players", PLAYERS)
def test_info_keys_are_the_same_at_every_step(n_players):
    def check(e):
        for agent, info in e.infos.items():
            assert tuple(info) == INFO_KEYS
            assert info["action_mask"].shape == (N_ACTIONS,) and info["action_mask"].dtype == np.int8
            acting = agent == e.agent_selection and not (e.terminations[agent] or e.truncations[agent])
            assert (info["stage"] >= 0) == acting and (info["action_mask"].any() == acting)
            assert info["winners"] == ([] if not e.unwrapped.game.game_over else e.unwrapped.game.winners())
    e = env(n_players=n_players)
    e.reset(seed=9)
    check(e)
    _play_out(e, seed=9, check=check)


def test_round_truncation_is_reported_in_infos_and_only_the_last_truncates():
    e = env(n_players=4, max_turns_per_round=3)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    seen_mid_game = False
    while not any(e.terminations.values()) and not any(e.truncations.values()):
        e.step(_random_action(e.last()[0], rng))
        reasons = e.infos[e.agent_selection]["round_end_reasons"]
        if "truncated" in reasons and not e.unwrapped.game.game_over:
            seen_mid_game = True
            assert not any(e.truncations.values())
    game = e.unwrapped.game
    assert seen_mid_game and game.game_over
    last_truncated = game.round_end_reasons[-1] == "truncated"
    assert all(e.truncations.values()) == last_truncated and all(e.terminations.values()) != last_truncated


@pytest.mark.parametrize("wrapped", [True, False])
def test_before_reset_and_after_close_every_method_raises_reset_needed(wrapped):
    e = env(n_players=3) if wrapped else raw_env(n_players=3)
    calls = [lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last(), lambda: e.state(),
             lambda: e.render()]
    if wrapped:
        calls += [lambda: e.agent_iter(), lambda: e.agents, lambda: e.agent_selection, lambda: e.rewards]
    for _ in range(2):
        for call in calls:
            with pytest.raises(ResetNeeded, match=r"call reset\(\)"):
                call()
        e.reset(seed=0)
        e.step(KEEP_ACTION)
        assert e.observe("player_0")["observation"].shape == (OBS_DIM,)
        e.close()
    if wrapped:
        assert not hasattr(e, "agents")  # also an AttributeError


def test_registered_with_pettingzoo_and_in_the_game_registry():
    import pettingzoo

    e = pettingzoo.make("aec", "seers/scout-v0", n_players=3)
    assert e.unwrapped.metadata["name"] == "scout_v0" and len(e.possible_agents) == 3
    spec = game_spec("scout")
    assert spec.env().env is env and spec.env_id == "seers/scout-v0"


def test_spaces_layout_and_state():
    e = raw_env(n_players=5)
    assert e.observation_space("player_0") is not e.observation_space("player_1")
    assert e.action_space("player_0") == e.action_space("player_4") and e.action_space("player_0").n == N_ACTIONS
    offset = 0
    for name, off, length in OBSERVATION_LAYOUT:
        assert off == offset and length > 0
        offset += length
    assert offset == OBS_DIM == e.observation_space("player_0")["observation"].shape[0]
    e.reset(seed=3)
    game = e.game
    for _ in range(7):
        e.step(KEEP_ACTION if game.phase == "rotate" else int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    seat = game.current
    obs = e.observe(f"player_{seat}")["observation"]
    hand = game.hands[seat]
    top_bottom = [x for c, t in hand for x in (t / 10, sum(CARD_NUMBERS[c]) / 10 - t / 10)]
    assert obs[:len(top_bottom)].tolist() == pytest.approx(top_bottom)
    assert obs[OFFSETS["hand_sizes"]] == pytest.approx(len(hand) / 11)
    assert obs[OFFSETS["n_players"] + 3] == 1 and obs[OFFSETS["current"]] == 1
    st = e.state()
    assert st.shape == (STATE_DIM,) and st.dtype == np.float32 and (st[:OBS_DIM] == obs).all()
    nxt = game.hands[(seat + 1) % 5]
    assert st[OBS_DIM + 90:OBS_DIM + 90 + 2 * len(nxt)].tolist() == pytest.approx(
        [x for c, t in nxt for x in (t / 10, sum(CARD_NUMBERS[c]) / 10 - t / 10)])


def test_documented_sizes_and_layout_match_the_code():
    import re

    from seers_env import scout_v0
    from seers_env.scout import observation

    card = scout_v0.__doc__
    assert f"N_ACTIONS == {N_ACTIONS}" in card and f"``({OBS_DIM},)``" in card and f"``({STATE_DIM},)``" in card
    rows = re.findall(r"^([a-z_]+)\s+(\d+)\s{2,}", observation.__doc__, flags=re.M)
    assert [(name, int(length)) for name, length in rows] == [(n, ln) for n, _, ln in OBSERVATION_LAYOUT]
    assert f"is {OBS_DIM}." in observation.__doc__ and f"is {STATE_DIM}." in observation.__doc__


def test_render_ansi_shows_the_table_and_the_acting_hand():
    e = env(n_players=3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "SCOUT - round 1/3" in text and "player_2" in text and "Hand of player_0: 0:" in text
    assert "keep or rotate" in text and "Active Set: none" in text
