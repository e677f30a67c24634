"""The Gymnasium single-agent wrapper of every game (seers_env.wrappers.SingleAgentEnv): Gymnasium's
env checker at every player count, rewards, seeded determinism, starting from a position, the games'
multi-action turns (Haggis card codes, the Seals declaration, SCOUT's Scout & Show), bad inputs, no
aliasing, and the same episodes as SingleAgentSeersEnv for Seers Catalog."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

from agents import make_agent
from agents.base import RandomAgent
from seers_env.games import GAMES, game_spec
from seers_env.wrappers import INFO_KEYS, SingleAgentEnv, SingleAgentSeersEnv

#: Short games: one round where the game allows it (Seals: the round counter; Haggis: a fixed length).
SHORT = {"seers_catalog": {"n_rounds": 1}, "scout": {"n_rounds": 1}, "seals": {"n_rounds": 1},
         "haggis": {"n_rounds": 1}}
TABLES = [(g, n) for g, spec in GAMES.items() for n in range(spec.min_players, spec.max_players + 1)]


def _episode(env, seed, options=None):
    """A random learner for one episode: the trajectory (actions, rewards, observations) and last info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed, options=options)
    actions, rewards, observations = [], [], [obs]
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,) and mask.any()
        assert (mask == info["action_mask"].astype(bool)).all() and tuple(info) == INFO_KEYS
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, term, trunc, info = env.step(a)
        assert env.observation_space.contains(obs) and not (term and trunc)
        actions.append(a)
        rewards.append(r)
        observations.append(obs)
        done = term or trunc
    assert not env.action_masks().any() and info["stage"] == -1
    return actions, rewards, observations, info


def _same(a, b):
    """Two :func:`_episode` results are equal (actions, rewards, every observation, the last info)."""
    ia, ib = dict(a[3]), dict(b[3])
    ma, mb = ia.pop("action_mask"), ib.pop("action_mask")
    return (a[0] == b[0] and a[1] == b[1] and ia == ib and np.array_equal(ma, mb) and len(a[2]) == len(b[2])
            and all(np.array_equal(x, y) for x, y in zip(a[2], b[2])))


@pytest.mark.parametrize("game, n_players", TABLES)
def test_check_env_and_score_rewards_sum_to_the_final_total(game, n_players):
    env = SingleAgentEnv(game, n_players=n_players, **SHORT[game])
    check_env(env, skip_render_check=True)
    aec = env.aec
    assert env.observation_space == aec.observation_space("player_0")["observation"]
    assert env.action_space == aec.action_space("player_0")
    _, rewards, _, info = _episode(env, seed=n_players)
    assert sum(rewards) == info["totals"][env.seat] and aec.game.game_over
    assert info["winners"] == aec.game.winners()


@pytest.mark.parametrize("game", list(GAMES))
def test_win_rewards_by_place(game):
    n = 3
    env = SingleAgentEnv(game, n_players=n, reward_mode="win", **SHORT[game])
    _, rewards, _, info = _episode(env, seed=5)
    g = env.aec.game
    place = game_spec(game).placements(g.totals, g.round_scores)[env.seat]
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == pytest.approx((n + 1 - 2 * place) / (n - 1))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seed_repeats_the_episode_and_another_seed_differs(game):
    make = lambda: SingleAgentEnv(game, n_players=3, **SHORT[game])  # noqa: E731
    a, b = _episode(make(), seed=21), _episode(make(), seed=21)
    assert _same(a, b)
    # the same env object reset with the seed again repeats it too (opponents reseeded at reset)
    env = SingleAgentEnv(game, n_players=3, opponents=[make_agent("heuristic", game=game), RandomAgent()],
                         **SHORT[game])
    first, again = _episode(env, seed=3), _episode(env, seed=3)
    assert _same(first, again)
    starts = {tuple(SingleAgentEnv(game, n_players=3, **SHORT[game]).reset(seed=s)[0].tolist()) for s in range(6)}
    assert len(starts) > 1


def _position(game, n_players, seed, plays):
    """A mid-game position (``to_dict()``) after ``plays`` random plays of the engine."""
    g = game_spec(game).new_game(n_players, seed=seed, **SHORT[game])
    rng = np.random.default_rng(seed)
    for _ in range(plays):
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert not g.game_over
    return g


@pytest.mark.parametrize("game", list(GAMES))
def test_reset_from_a_position(game):
    g = _position(game, 3, seed=2, plays=4)
    saved = g.to_dict()
    learner = g.current
    env = SingleAgentEnv(game, n_players=3, learner_seat=learner, **SHORT[game])
    obs, info = env.reset(seed=0, options={"game": saved})
    # the learner is to act at once: the position's own observation and mask (the AEC env from it)
    ref = game_spec(game).env().raw_env(n_players=3, **SHORT[game])
    ref.reset(seed=0, options={"game": saved})
    ref_obs = ref.observe(ref.possible_agents[learner])
    assert np.array_equal(obs, ref_obs["observation"]) and np.array_equal(info["action_mask"], ref_obs["action_mask"])
    assert env.aec.game.to_dict() == saved
    # a game object is copied; the episode never touches the caller's dict or game
    _episode(env, seed=1, options={"game": g})
    assert g.to_dict() == saved and env.aec.game is not g and env.aec.game.game_over
    _episode(env, seed=1, options={"game": saved})
    assert saved == g.to_dict()
    # another seat learns: the opponents play up to its first decision
    other = SingleAgentEnv(game, n_players=3, learner_seat=(learner + 1) % 3, **SHORT[game])
    other.reset(seed=0, options={"game": saved})
    assert other.aec.agent_selection == f"player_{other.seat}" or other.action_masks().sum() == 0


@pytest.mark.parametrize("game", list(GAMES))
def test_bad_positions_and_options_are_refused_and_change_nothing(game):
    env = SingleAgentEnv(game, n_players=3, learner_seat=0, **SHORT[game])
    obs, info = env.reset(seed=4)
    before = env.aec.game.to_dict()
    other_config = game_spec(game).new_game(2, seed=0, **SHORT[game]).to_dict()
    finished = game_spec(game).new_game(3, seed=1, **SHORT[game])
    rng = np.random.default_rng(0)
    while not finished.game_over:
        legal = finished.legal_plays()
        finished.apply(legal[int(rng.integers(len(legal)))])
    for options, err, text in [
        ({"game": other_config}, ValueError, "config"),
        ({"game": finished.to_dict()}, ValueError, "finished"),
        ({"game": [1, 2]}, TypeError, "options\\['game'\\]"),
        ({"position": before}, ValueError, "unknown reset option"),
        ("game", TypeError, "options must be a dict"),
    ]:
        with pytest.raises(err, match=text):
            env.reset(seed=5, options=options)
    for bad_seed in (-1, True, 1.0, "3"):
        with pytest.raises(ValueError, match="seed="):
            env.reset(seed=bad_seed)
    assert env.aec.game.to_dict() == before
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # the episode goes on


@pytest.mark.parametrize("game, kwargs, err, text", [
    ("nope", {}, ValueError, "unknown game 'nope'"),
    (3, {}, TypeError, "game must be a string"),
    ("haggis", {"n_players": 4}, ValueError, "n_players=4"),
    ("seals", {"n_players": 1}, ValueError, "n_players=1"),
    ("scout", {"n_players": 3.0}, TypeError, "n_players"),
    ("scout", {"n_players": 3, "learner_seat": 3}, ValueError, "learner_seat=3"),
    ("scout", {"n_players": 3, "learner_seat": "first"}, TypeError, "learner_seat"),
    ("seals", {"n_players": 3, "learner_seat": True}, TypeError, "learner_seat"),
    ("haggis", {"n_players": 3, "opponents": [RandomAgent()]}, ValueError, "1 opponents given"),
    ("haggis", {"n_players": 2, "opponents": ["heuristic"]}, TypeError, "make_agent"),
    ("seals", {"n_players": 2, "opponents": [42]}, TypeError, "opponent 42"),
    ("seals", {"n_players": 2, "opponents": "random"}, TypeError, "opponents must be a list"),
    ("scout", {"n_players": 2, "opponent_sampler": 7}, TypeError, "opponent_sampler"),
    ("scout", {"reward_mode": "points"}, ValueError, "reward_mode='points'"),
    ("haggis", {"render_mode": "rgb_array"}, ValueError, "render_mode='rgb_array'"),
    ("seals", {"colour_count": 3}, TypeError, "colour_count"),
])
def test_bad_arguments_name_the_value(game, kwargs, err, text):
    with pytest.raises(err, match=text):
        SingleAgentEnv(game, **kwargs)


@pytest.mark.parametrize("game", list(GAMES))
def test_before_reset_after_close_and_after_the_end(game):
    env = SingleAgentEnv(game, n_players=2, render_mode="ansi", **SHORT[game])
    for call in (lambda: env.step(0), env.action_masks, env.render):
        with pytest.raises(ResetNeeded, match="reset"):
            call()
    env.reset(seed=0)
    assert isinstance(env.render(), str) and env.render()
    with pytest.raises(TypeError, match="action"):
        env.step(0.5)
    with pytest.raises(ValueError, match="action"):
        env.step(env.action_space.n)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, bad)
    with pytest.raises(ResetNeeded, match="ended"):
        env.step(0)
    env.close()
    with pytest.raises(ResetNeeded, match="close"):
        env.action_masks()
    env.reset(seed=1)
    assert env.action_masks().any()


@pytest.mark.parametrize("game", list(GAMES))
def test_no_aliasing_of_internal_state(game):
    env = SingleAgentEnv(game, n_players=3, learner_seat=0, **SHORT[game])
    obs, info = env.reset(seed=6)
    keep_obs, keep_mask = obs.copy(), env.action_masks().copy()
    obs[:] = 7
    info["action_mask"][:] = 0
    info["totals"].append(99)
    env.action_masks()[:] = False
    obs2 = env._obs()
    assert np.array_equal(obs2, keep_obs) and np.array_equal(env.action_masks(), keep_mask)
    assert len(env._info()["totals"]) == 3
    a = int(np.flatnonzero(keep_mask)[0])
    got, *_ = env.step(a)
    assert not np.shares_memory(got, obs2)


def _widest(legal):
    return max(legal, key=lambda p: (len(p.cards), str(p)))


def test_haggis_multi_code_plays_learner_and_opponents():
    """A Haggis combination is a main code and then card codes (skipped where every remaining play shares
    the card); the learner steps each with reward 0 at stage 1, and a duck-typed opponent's whole play is
    stepped for it, code by code."""
    from seers_env.haggis.actions import play_codes

    class Widest:  # not an agents.Agent: only act(view)
        def __init__(self):
            self.plays = []

        def act(self, view):
            play = _widest(view.legal_plays())
            self.plays.append(play)
            return play

    opp = Widest()
    env = SingleAgentEnv("haggis", n_players=2, learner_seat=0, opponents=[opp], n_rounds=1)
    env.reset(seed=3)
    longest, done = 0, False
    while not done:
        game = env.aec.game
        legal = game.legal_plays()
        first = [play_codes(p)[0] for p in legal]
        target = max(legal, key=lambda p: (first.count(play_codes(p)[0]), len(p.cards)))  # shares its main code
        made = len(game.public_history)
        steps = 0
        while True:
            code = play_codes(target)[len(env.aec.decision.chosen)]
            assert env.action_masks()[code]
            _, r, term, trunc, info = env.step(code)
            steps += 1
            done = term or trunc
            if done or len(env.aec.game.public_history) > made:
                break  # the play is made (and the opponent has answered)
            assert info["stage"] == 1 and r == 0.0 and env.aec.agent_selection == "player_0"
        longest = max(longest, steps)
    assert longest >= 2  # some learner play took several actions
    made = [h["play"] for h in env.aec.game.public_history if h["event"] == "play" and h["seat"] == 1]
    multi = [p for p in opp.plays if len(p.cards) >= 2]
    assert multi and [p.to_list() for p in multi] == [m for m in made if len(m[1]) >= 2]


def test_seals_declaration_is_a_second_decision_of_the_same_seat():
    """Seals: a take that completes a set is followed by the declaration, a decision of the same seat
    (stage 1): the learner gets its own step for it, and an opponent's ``act`` is called again for it."""
    from seers_env.seals.game import PHASE_DECLARE

    class Recorder(RandomAgent):
        def __init__(self):
            super().__init__(0)
            self.declare_calls = 0

        def act(self, view):
            self.declare_calls += env.aec.game.phase == PHASE_DECLARE
            return super().act(view)

    opps = [Recorder(), Recorder()]
    env = SingleAgentEnv("seals", n_players=3, learner_seat=0, opponents=opps)
    declared = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            stage_before = info["stage"]
            _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = term or trunc
            if stage_before == 0 and info["stage"] == 1:
                declared += 1
                assert env.aec.agent_selection == "player_0" and r == 0.0
                assert env.action_masks()[16:].any() and not env.action_masks()[:16].any()
    assert declared > 0 and sum(o.declare_calls for o in opps) > 0


def test_scout_and_show_is_two_learner_steps():
    from seers_env.scout.actions import N_SCOUT, N_SHOW, SCOUT_SHOW_BASE, SHOW_BASE

    env = SingleAgentEnv("scout", n_players=3, learner_seat=0)
    shows = 0
    for seed in range(4):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            ids = np.flatnonzero(env.action_masks())
            scout_show = ids[(ids >= SCOUT_SHOW_BASE) & (ids < SCOUT_SHOW_BASE + N_SCOUT)]
            a = int(scout_show[0] if len(scout_show) and info["stage"] == 0 else ids[0])
            _, r, term, trunc, info = env.step(a)
            done = term or trunc
            if a in scout_show and not done:
                shows += 1
                assert info["stage"] == 1 and r == 0.0 and env.aec.agent_selection == "player_0"
                left = np.flatnonzero(env.action_masks())
                assert len(left) and ((left >= SHOW_BASE) & (left < SHOW_BASE + N_SHOW)).all()
    assert shows > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_callable_policies_and_an_opponent_sampler(game):
    calls = []

    def first_legal(obs, mask):
        calls.append((obs.dtype, obs.shape))
        return int(np.flatnonzero(mask)[0])

    seen = []

    def sampler(rng):
        seen.append(int(rng.integers(1000)))
        return [first_legal, RandomAgent()]

    env = SingleAgentEnv(game, n_players=3, learner_seat=2, opponent_sampler=sampler, **SHORT[game])
    _, rewards, _, info = _episode(env, seed=9)
    env.reset(seed=10)
    assert env.seat == 2 and len(seen) == 2 and calls and sum(rewards) == info["totals"][2]
    assert calls[0] == (np.float32, env.observation_space.shape)


@pytest.mark.parametrize("game", list(GAMES))
def test_an_opponent_playing_an_illegal_play_is_a_clear_error(game):
    class Cheater:
        def act(self, view):
            return "not a play"

    env = SingleAgentEnv(game, n_players=2, learner_seat=1, opponents=[Cheater()], **SHORT[game])
    with pytest.raises(ValueError, match="not one of its legal plays"):
        env.reset(seed=0)
        for _ in range(3):  # the learner may open; the opponent plays after it
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(ResetNeeded):
        env.step(0)


def test_scout_last_round_cut_short_is_a_truncation():
    env = SingleAgentEnv("scout", n_players=3, n_rounds=1, max_turns_per_round=4)
    _, rewards, _, info = _episode(env, seed=0)
    assert env.aec.truncations[f"player_{env.seat}"] and sum(rewards) == info["totals"][env.seat]


@pytest.mark.parametrize("n_players", [2, 4])
def test_seers_catalog_plays_the_same_episodes_as_single_agent_seers_env(n_players):
    old = SingleAgentSeersEnv(n_players=n_players, n_rounds=1)
    new = SingleAgentEnv("seers_catalog", n_players=n_players, n_rounds=1)
    a, b = _episode(old, seed=13), _episode(new, seed=13)
    assert _same(a, b) and old.seat == new.seat
    assert old.observation_space == new.observation_space and old.action_space == new.action_space


def test_the_guide_example_runs():
    text = Path(__file__).resolve().parents[1].joinpath("docs", "guide.md").read_text()
    section = text.split("## One learning seat in any game", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)
    assert code, "the guide's single-agent section has a python example"
    exec(compile(code[0], "docs/guide.md", "exec"), {})


@pytest.mark.parametrize("game", list(GAMES))
def test_maskable_ppo_trains_and_takes_legal_actions(game):
    """sb3-contrib's MaskablePPO reads ``action_masks()`` and only takes legal actions (a tiny run)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = SingleAgentEnv(game, n_players=2, **SHORT[game])
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1,
                                    policy_kwargs={"net_arch": [16]}, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
    _, _, _, _, info = env.step(int(action))
    assert info["illegal_action"] == -1
