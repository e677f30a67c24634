"""The environments where the ecosystem's client libraries look for them, in the shapes they expect.

* PettingZoo's registry: ``import seers_env`` alone registers every game's environment (fresh
  subprocesses, as a client script starts), without importing PettingZoo or the environment modules, and
  importing or reloading again never warns "Overriding environment".
* Gymnasium's vector API: :class:`~seers_env.vector.SeersVectorEnv` is a ``gymnasium.vector.VectorEnv``
  that Gymnasium's own vector wrappers take.
* Stable infos: the same info keys at every step (AEC env, single-agent wrapper, vector env), as clients
  that preallocate info buffers need.
* Positions: ``reset(options=...)`` from a saved or hand-made game (AEC env, wrapper, vector env, SCOUT AEC
  env), each compared with the engine game restored from the same dict over many later random steps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers import vector as vector_wrappers

from test_kernel import assert_same_state

from seers_env import Game, GameConfig
from seers_env.actions import N_ACTIONS, Decision
from seers_env.engine import core
from seers_env.engine.kernel import KernelGames
from seers_env.features import encode_state
from seers_env.games import GAMES
from seers_env.observation import observe, state
from seers_env.scoring import placements
from seers_env.seers_catalog_v0 import INFO_KEYS, env, raw_env
from seers_env.vector import INFO_KEYS as VECTOR_INFO_KEYS
from seers_env.vector import SeersVectorEnv, slot_seed
from seers_env.view import SeatView
from seers_env.wrappers import INFO_KEYS as WRAPPER_INFO_KEYS
from seers_env.wrappers import SingleAgentSeersEnv

ROOT = Path(__file__).resolve().parent.parent
ENV_IDS = [spec.env_id for spec in GAMES.values() if spec.env_id]


def _fresh_python(code: str, *flags: str) -> str:
    """Run ``code`` in a new interpreter (the worktree first on its path); its stdout."""
    out = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


# --- PettingZoo's registry -----------------------------------------------------------------------------
def test_import_seers_env_alone_registers_every_game_lazily():
    code = (
        "import sys\n"
        "import seers_env\n"
        "heavy = [m for m in ('pettingzoo', 'gymnasium') if m in sys.modules]\n"
        "assert not heavy, heavy  # import seers_env stays light\n"
        "import pettingzoo\n"
        "envs = [m for m in ('seers_env.seers_catalog_v0', 'seers_env.scout_v0', 'seers_env.seals_v0',\n"
        "        'seers_env.haggis_v0') if m in sys.modules]\n"
        "assert not envs, envs  # registered by entry-point strings, not by importing the modules\n"
        f"for env_id in {ENV_IDS!r}:\n"
        "    spec = pettingzoo.spec('aec', env_id)\n"
        "    assert isinstance(spec.entry_point, str) and spec.id == env_id, spec\n"
        "    e = pettingzoo.make('aec', env_id, n_players=3)\n"
        "    e.reset(seed=0)\n"
        "    print(env_id, e.unwrapped.metadata['name'], len(e.possible_agents))\n"
        "old = pettingzoo.make('aec', 'seers/seers_catalog_v0', n_players=2)  # the old spelling\n"
        "print('old', old.unwrapped.metadata['name'])\n"
    )
    out = _fresh_python(code).split("\n")
    assert out[:5] == ["seers/seers_catalog-v0 seers_catalog_v0 3", "seers/scout-v0 scout_v0 3",
                       "seers/seals-v0 seals_v0 3", "seers/haggis-v0 haggis_v0 3",
                       "old seers_catalog_v0"]


def test_registration_when_pettingzoo_was_imported_first():
    code = (
        "import pettingzoo\n"
        "import seers_env\n"
        "print(sorted(i for i in pettingzoo.aec_registry if i.startswith('seers/')))\n"
        "print(pettingzoo.make('aec', 'seers/scout', n_players=2).unwrapped.metadata['name'])\n"
    )
    assert _fresh_python(code).split("\n")[:2] == [str(sorted(ENV_IDS)), "scout_v0"]


@pytest.mark.parametrize("pettingzoo_first", [False, True])
def test_importing_and_reloading_again_never_warns(pettingzoo_first):
    """Every warning is an error here ("Overriding environment" was one, for the id stored normalised)."""
    code = (
        ("import pettingzoo\n" if pettingzoo_first else "")
        + "import importlib\n"
        "import seers_env\n"
        "import pettingzoo\n"
        "import seers_env.seers_catalog_v0, seers_env.scout_v0, seers_env.registration\n"
        "for name in ('seers_env', 'seers_env.registration', 'seers_env.seers_catalog_v0', 'seers_env.scout_v0'):\n"
        "    importlib.reload(importlib.import_module(name))\n"
        "import seers_env.registration as registration\n"
        "assert registration.register_envs() == []  # all there already\n"
        "registration.install()\n"
        "print(sorted(i for i in pettingzoo.aec_registry if i.startswith('seers/')))\n"
    )
    assert _fresh_python(code, "-W", "error").split("\n")[0] == str(sorted(ENV_IDS))


def test_registry_ids_are_stored_as_pettingzoo_stores_them():
    import pettingzoo

    for spec in GAMES.values():
        if spec.env_id:
            assert pettingzoo.spec("aec", spec.env_id).id == spec.env_id
            assert pettingzoo.spec("aec", spec.env_id).entry_point == f"{spec.env_module}:env"


# --- Gymnasium's vector API --------------------------------------------------------------------------
def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])


def test_vector_env_is_a_gymnasium_vector_env():
    venv = SeersVectorEnv(3, n_players=3)
    assert isinstance(venv, VectorEnv) and venv.unwrapped is venv and venv.num_envs == 3
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    aec = raw_env(n_players=3)
    assert venv.single_observation_space == aec.observation_space("player_0")
    assert venv.single_action_space == aec.action_space("player_0")
    assert venv.observation_space == batch_space(venv.single_observation_space, 3)
    assert venv.action_space == batch_space(venv.single_action_space, 3)
    obs, infos = venv.reset(seed=0)
    assert obs in venv.observation_space
    obs, rewards, term, trunc, infos = venv.step(_random_actions(np.random.default_rng(0), obs["action_mask"]))
    assert obs in venv.observation_space
    assert rewards.shape == (3,) and rewards.dtype == np.float32
    assert term.shape == trunc.shape == (3,) and term.dtype == trunc.dtype == np.bool_
    venv.close()
    assert venv.closed
    venv.reset(seed=1)
    assert not venv.closed


@pytest.mark.parametrize("reward_mode", ["score", "win"])
def test_gymnasium_vector_wrappers_on_the_vector_env(reward_mode):
    """RecordEpisodeStatistics, DictInfoToList, TransformReward and TransformAction wrap it and see the
    env's own results: every step's list infos hold the dict infos, each slot's first episode statistics
    are its return and length (Gymnasium 1.2 counts later episodes of a same-step env one step short, a
    bug fixed upstream), rewards are scaled and actions mapped."""
    n = 3
    venv = SeersVectorEnv(n, n_players=3, n_rounds=1, reward_mode=reward_mode)
    stats = vector_wrappers.RecordEpisodeStatistics(venv)
    scaled = vector_wrappers.TransformReward(stats, lambda r: r / 15.0)
    shifted = vector_wrappers.TransformAction(scaled, lambda a: np.asarray(a) - 1)
    listed = vector_wrappers.DictInfoToList(shifted)
    obs, infos = listed.reset(seed=3)
    assert isinstance(infos, list) and [tuple(i) for i in infos] == [VECTOR_INFO_KEYS] * n
    rng = np.random.default_rng(0)
    returns, lengths, first_done = np.zeros(n), np.zeros(n, int), np.zeros(n, bool)
    episodes = 0
    for _ in range(3000):
        actions = _random_actions(rng, obs["action_mask"])
        acted = venv._seats()
        obs, rewards, term, trunc, infos = listed.step(actions + 1)  # TransformAction takes the 1 off again
        raw = np.array([i["rewards"][s] for i, s in zip(infos, acted)])  # the acting seat's reward
        np.testing.assert_allclose(rewards, raw / 15.0, rtol=1e-6)
        for i, info in enumerate(infos):
            assert set(info) == set(VECTOR_INFO_KEYS) | ({"episode"} if term[i] else set()), info.keys()
        returns += np.where(first_done, 0.0, raw)
        lengths += ~first_done
        for i in np.flatnonzero(term):
            episodes += 1
            if not first_done[i]:
                assert infos[i]["episode"]["l"] == lengths[i]
                assert infos[i]["episode"]["r"] == pytest.approx(returns[i])
                first_done[i] = True
        if first_done.all():
            break
    assert first_done.all() and len(stats.return_queue) == episodes


def test_vector_env_totals_of_ended_games_through_dict_info_to_list():
    venv = SeersVectorEnv(2, n_players=2, n_rounds=1)
    listed = vector_wrappers.DictInfoToList(venv)
    obs, _ = listed.reset(seed=5)
    envs = [raw_env(n_players=2, n_rounds=1) for _ in range(2)]
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(5, i))
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(600):
        actions = _random_actions(rng, obs["action_mask"])
        obs, _, term, _, infos = listed.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            if term[i]:
                assert infos[i]["totals"].tolist() == e.game.totals
                ended += 1
                e.reset()
            else:
                assert not infos[i]["totals"].any()
    assert ended >= 2


# --- the same info keys at every step ------------------------------------------------------------------
def _check_aec_infos(e, game: Game) -> None:
    acting = None if game.game_over or all(e.terminations.values()) else e.agent_selection
    for agent in e.agents:
        info = e.infos[agent]
        assert tuple(info) == INFO_KEYS, info.keys()
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (N_ACTIONS,)
        assert not info["action_mask"].flags.writeable
        if agent == acting:
            assert info["stage"] == e.decision.stage and info["action_mask"].any()
        else:
            assert info["stage"] == -1 and not info["action_mask"].any()
        assert info["round"] == game.round and info["totals"] == game.totals
        assert info["winners"] == (game.winners() if game.game_over else [])


@pytest.mark.parametrize("wrapped", [False, True])
def test_aec_env_info_keys_at_every_step(wrapped):
    e = env(n_players=3, n_rounds=2) if wrapped else raw_env(n_players=3, n_rounds=2)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    games = stages = 0
    while games < 2:
        game = e.unwrapped.game
        _check_aec_infos(e.unwrapped, game)
        *_, info = e.last()
        assert tuple(info) == INFO_KEYS
        if all(e.terminations.values()):
            assert game.game_over and info["winners"] == game.winners()
            games += 1
            e.reset()
            continue
        stages += e.unwrapped.decision.stage > 0
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert stages > 0  # wild-position or artifact stages were met
    # an illegal action ends the game: the same keys, the offender's action in illegal_action
    e.reset(seed=3)
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.infos[agent]["action_mask"] == 0)[0])
    e.step(bad)
    for x in e.possible_agents:
        assert tuple(e.infos[x]) == INFO_KEYS and not e.infos[x]["action_mask"].any()
        assert e.infos[x]["illegal_action"] == (bad if x == agent else -1) and e.infos[x]["stage"] == -1


def test_single_agent_wrapper_info_keys_at_every_step():
    w = SingleAgentSeersEnv(n_players=3, n_rounds=2, learner_seat=1)
    for episode in range(3):
        obs, info = w.reset(seed=episode)
        assert tuple(info) == WRAPPER_INFO_KEYS and info["winners"] == [] and info["illegal_action"] == -1
        rng = np.random.default_rng(episode)
        done = False
        while not done:
            mask = info["action_mask"]
            if episode == 2 and info["round"] == 1:  # end the last episode with an illegal action
                a = int(np.flatnonzero(mask == 0)[0])
                *_, done, _, info = w.step(a)
                assert done and info["illegal_action"] == a
            else:
                *_, done, _, info = w.step(int(rng.choice(np.flatnonzero(mask))))
            assert tuple(info) == WRAPPER_INFO_KEYS
            assert info["seat"] == 1 and info["stage"] == (-1 if done else w.aec.decision.stage)
            assert info["totals"] == w.aec.game.totals and info["round"] == w.aec.game.round
        if episode < 2:
            assert info["winners"] == w.aec.game.winners() and not info["action_mask"].any()


def test_vector_env_info_keys_at_every_step():
    venv = SeersVectorEnv(3, n_players=2, n_rounds=1)
    _, infos = venv.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(800):
        assert list(infos) == list(VECTOR_INFO_KEYS) + [f"_{k}" for k in VECTOR_INFO_KEYS]
        for k in VECTOR_INFO_KEYS:
            assert infos[f"_{k}"].dtype == np.bool_ and infos[f"_{k}"].all() and len(infos[k]) == 3
        assert infos["rewards"].shape == (3, 2) and infos["totals"].shape == (3, 2)
        if step == 0:
            assert not infos["rewards"].any() and not infos["totals"].any()
        obs, _, term, _, infos = venv.step(_random_actions(rng, venv.action_masks()))
        ended += term.sum()
    assert ended >= 2


# --- positions: the kernel ----------------------------------------------------------------------------
def test_repack_inverts_unpack_for_every_legal_play():
    rng = np.random.default_rng(0)
    seen = 0
    for n_players in (2, 3, 4, 5):
        for seed in range(3):
            g = Game(GameConfig(n_players=n_players), seed=seed)
            while not g.game_over:
                legal = g.legal_plays()
                for play, key in zip(legal, legal.keys.tolist()):
                    assert core.repack(play) == key, play
                    seen += 1
                g.apply(legal[int(rng.integers(len(legal)))])
    assert seen > 10_000
    with pytest.raises(ValueError, match="modified card"):
        core.repack(Game(GameConfig(), seed=0).legal_plays()[0]._replace(modified_card=3))


def _positions(config: GameConfig, seed: int, every: int):
    """Positions of a random game (every ``every``-th play; later rounds included), as saved dicts."""
    g = Game(config, seed=seed)
    rng = np.random.default_rng(seed)
    plays = 0
    while not g.game_over:
        if plays % every == 0:
            yield json.loads(json.dumps(g.to_dict()))  # as saved to a file and read back
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
        plays += 1


def _hand_made(config: GameConfig, seed: int) -> dict:
    """A position no deal gives: seat 1's highest card moved to seat 0, and the last seat to lead."""
    d = Game(config, seed=seed).to_dict()
    d["hands"][0] = sorted(d["hands"][0] + [d["hands"][1].pop()])
    d["current"] = d["start_seer"] = config.n_players - 1
    return d


def test_kernel_load_game_plays_on_as_the_game():
    for n_players in (2, 4, 5):
        config = GameConfig(n_players=n_players, n_rounds=2)
        k = KernelGames(2, config)
        positions = list(_positions(config, n_players, 17)) + [_hand_made(config, 1)]
        for j, d in enumerate(positions):
            g = Game.from_dict(d)
            k.load_game(j % 2, Game.from_dict(d))
            rng = np.random.default_rng(j)
            while not g.game_over:
                assert_same_state(g, k, j % 2)
                legal = g.legal_plays()
                np.testing.assert_array_equal(k.legal_keys(j % 2), legal.keys)
                i = int(rng.integers(len(legal)))
                g.apply(legal[i])
                k.apply(j % 2, int(legal.keys[i]))
            assert_same_state(g, k, j % 2)
    with pytest.raises(ValueError, match="config"):
        KernelGames(1, GameConfig(n_players=3)).load_game(0, Game(GameConfig(n_players=4), seed=0))
    with pytest.raises(TypeError, match="Game"):
        KernelGames(1).load_game(0, Game(GameConfig(), seed=0).to_dict())


# --- positions: the AEC env ---------------------------------------------------------------------------
class _Engine:
    """A :class:`Game` restored from a dict, stepped through :class:`Decision`\\ s: what the env must equal."""

    def __init__(self, d: dict, reward_mode: str = "score"):
        self.game = Game.from_dict(d)
        self.reward_mode = reward_mode
        self.decision = Decision(self.game.legal_plays(), self.game.current, self.game.n_players)

    def step(self, action: int) -> list[float]:
        """Take ``action``; every seat's reward (rules section 5)."""
        g, n = self.game, self.game.n_players
        rewards = [0.0] * n
        play = self.decision.choose(action)
        if play is None:
            return rewards
        result = g.apply(play)
        if result.round_scores is not None and self.reward_mode == "score":
            rewards = [float(x) for x in result.round_scores]
        if result.game_over:
            if self.reward_mode == "win":
                places = placements(g.totals, g.round_scores[-1])
                rewards = [(n + 1 - 2 * places[i]) / (n - 1) for i in range(n)]
        else:
            self.decision = Decision(g.legal_plays(), g.current, n)
        return rewards


def _check_aec_against_engine(e: raw_env, eng: _Engine) -> None:
    g = eng.game
    for s, agent in enumerate(e.possible_agents):
        acting = s == g.current and not g.game_over
        got = e.observe(agent)
        np.testing.assert_array_equal(got["observation"], observe(g, s, eng.decision if acting else None))
        np.testing.assert_array_equal(got["action_mask"], eng.decision.mask() if acting
                                      else np.zeros(N_ACTIONS, np.int8))
    np.testing.assert_array_equal(e.state(), np.clip(state(g, None if g.game_over else eng.decision), -50, 50))


def _play_aec_from(e: raw_env, d: dict, rng: np.random.Generator, reward_mode: str) -> int:
    """Reset ``e`` from ``d`` and play it to the end at random, checked against the engine at every
    step; the steps taken."""
    e.reset(seed=int(rng.integers(100)), options={"game": d})
    eng = _Engine(d, reward_mode)
    steps = 0
    while not eng.game.game_over:
        _check_aec_against_engine(e, eng)
        assert e.agent_selection == f"player_{eng.game.current}"
        a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
        e.step(a)
        assert [e.rewards[x] for x in e.possible_agents] == eng.step(a)
        steps += 1
    _check_aec_against_engine(e, eng)
    assert all(e.terminations.values()) and e.infos[e.agent_selection]["winners"] == eng.game.winners()
    assert e.game.to_dict() == eng.game.to_dict()
    return steps


@pytest.mark.parametrize("n_players,reward_mode", [(2, "win"), (3, "score"), (5, "score")])
def test_aec_env_reset_from_a_position_plays_as_the_restored_game(n_players, reward_mode):
    config = GameConfig(n_players=n_players, n_rounds=2)
    e = raw_env(n_players=n_players, n_rounds=2, reward_mode=reward_mode)
    rng = np.random.default_rng(n_players)
    steps = 0
    for d in list(_positions(config, 10 + n_players, 17)) + [_hand_made(config, 3)]:
        steps += _play_aec_from(e, d, rng, reward_mode)
    assert steps > 150
    # a Game is accepted too (copied); the env wrapped by env() takes the option as well
    game = Game(config, seed=8)
    w = env(n_players=n_players, n_rounds=2)
    w.reset(options={"game": game})
    assert w.unwrapped.game is not game and w.unwrapped.game.to_dict() == game.to_dict()
    # without the option the next reset deals from the env's generator again
    e.reset(seed=4)
    fresh = raw_env(n_players=n_players, n_rounds=2, reward_mode=reward_mode)
    fresh.reset(seed=4)
    assert e.game.to_dict() == fresh.game.to_dict()


def test_aec_env_reset_position_errors_change_nothing():
    e = raw_env(n_players=3, n_rounds=1)
    e.reset(seed=0)
    before = e.observe(e.agent_selection)["observation"].copy()
    over = Game(GameConfig(n_players=3, n_rounds=1), seed=0)
    while not over.game_over:
        over.apply(over.legal_plays()[0])
    bad = [({"game": Game(GameConfig(n_players=4), seed=0).to_dict()}, ValueError, "config"),
           ({"game": over.to_dict()}, ValueError, "finished"),
           ({"game": "saved.json"}, TypeError, r"options\['game'\]"),
           ({"game": {"format": 99}}, ValueError, "format"),
           (["game"], TypeError, "options must be a dict")]
    for options, error, words in bad:
        with pytest.raises(error, match=words):
            e.reset(seed=5, options=options)
        np.testing.assert_array_equal(e.observe(e.agent_selection)["observation"], before)
    e.reset(options={"other": 1})  # other keys are ignored: a new deal


# --- positions: the single-agent wrapper ----------------------------------------------------------------
class _FirstPlay:
    """A deterministic opponent: the first legal play."""

    def act(self, view: SeatView):
        return view.legal_plays()[0]


def test_single_agent_wrapper_reset_from_a_position_plays_as_the_restored_game():
    config = GameConfig(n_players=3, n_rounds=2)
    learner = 1
    w = SingleAgentSeersEnv(n_players=3, n_rounds=2, learner_seat=learner, opponents=[_FirstPlay(), _FirstPlay()])
    rng = np.random.default_rng(0)
    checked = 0
    for d in list(_positions(config, 4, 13)) + [_hand_made(config, 2)]:
        g = Game.from_dict(d)
        owed = 0.0

        def advance():  # the opponents' first legal plays, up to the learner's decision
            nonlocal owed
            while not g.game_over and g.current != learner:
                result = g.apply(g.legal_plays()[0])
                if result.round_scores is not None:
                    owed += result.round_scores[learner]

        obs, info = w.reset(seed=1, options={"game": d})
        advance()
        owed = 0.0  # nothing is owed before the learner's first decision
        done = g.game_over
        decision = None if done else Decision(g.legal_plays(), learner, 3)
        while not done:
            np.testing.assert_array_equal(obs, observe(g, learner, decision))
            np.testing.assert_array_equal(info["action_mask"], decision.mask())
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = w.step(a)
            play = decision.choose(a)
            if play is not None:
                result = g.apply(play)
                if result.round_scores is not None:
                    owed += result.round_scores[learner]
                advance()
                decision = None if g.game_over else Decision(g.legal_plays(), learner, 3)
            assert reward == owed and done == g.game_over
            owed = 0.0
            checked += 1
        assert info["totals"] == g.totals and w.aec.game.to_dict() == g.to_dict()
    assert checked > 100
    with pytest.raises(ValueError, match="config"):
        w.reset(options={"game": Game(GameConfig(n_players=4), seed=0).to_dict()})


# --- positions: the vector env --------------------------------------------------------------------------
def test_vector_env_reset_from_positions_plays_as_the_restored_games():
    config = GameConfig(n_players=3, n_rounds=2)
    deep = next(d for i, d in enumerate(_positions(config, 21, 1)) if i >= 40)  # > 16 plays of history
    positions = {1: deep, 2: _hand_made(config, 6)}
    venv = SeersVectorEnv(4, n_players=3, n_rounds=2)
    obs, infos = venv.reset(seed=9, options={"games": positions})
    listed = SeersVectorEnv(4, n_players=3, n_rounds=2)
    obs2, _ = listed.reset(seed=9, options={"games": [None, deep, positions[2], None]})  # the list form
    for key in obs:
        np.testing.assert_array_equal(obs[key], obs2[key])
    plain = SeersVectorEnv(4, n_players=3, n_rounds=2)
    obs3, _ = plain.reset(seed=9)
    for slot in (0, 3):  # slots without a position are dealt as without the option
        for key in obs:
            np.testing.assert_array_equal(obs[key][slot], obs3[key][slot])
    engines = {slot: _Engine(d) for slot, d in positions.items()}
    feats = venv.play_features()  # the play level sees the restored round history too
    for slot, eng in engines.items():
        g = eng.game
        lo, hi = feats.offsets[slot], feats.offsets[slot + 1]
        np.testing.assert_array_equal(feats.keys[lo:hi], g.legal_plays().keys)
        np.testing.assert_array_equal(feats.states[slot], encode_state(SeatView(g, g.current)))
    rng = np.random.default_rng(3)
    live = set(engines)
    steps = 0
    while live:
        for slot in live:
            eng = engines[slot]
            assert infos["seat"][slot] == eng.game.current
            np.testing.assert_array_equal(obs["observation"][slot], observe(eng.game, eng.game.current, eng.decision))
            np.testing.assert_array_equal(obs["action_mask"][slot], eng.decision.mask())
        actions = _random_actions(rng, obs["action_mask"])
        obs, rewards, term, _, infos = venv.step(actions)
        steps += 1
        for slot in list(live):
            eng = engines[slot]
            np.testing.assert_array_equal(infos["rewards"][slot], eng.step(int(actions[slot])))
            assert term[slot] == eng.game.game_over
            if term[slot]:
                assert infos["totals"][slot].tolist() == eng.game.totals
                # the position took the place of the slot's first game: its second game follows
                slot_rng = np.random.default_rng(slot_seed(9, slot))
                slot_rng.integers(2**63 - 1)
                nxt = Game(config, seed=int(slot_rng.integers(2**63 - 1)))
                np.testing.assert_array_equal(obs["observation"][slot],
                                              observe(nxt, nxt.current, Decision(nxt.legal_plays(), nxt.current, 3)))
                live.discard(slot)
    assert steps > 50


def test_vector_env_reset_position_errors_change_nothing():
    venv = SeersVectorEnv(2, n_players=3)
    venv.reset(seed=0)
    before = (venv.kernel.cards.copy(), venv.kernel.scal.copy())
    good = Game(GameConfig(n_players=3), seed=1).to_dict()
    bad = [({"games": {2: good}}, ValueError, "slot 2 is out of range"),
           ({"games": {"1": good}}, TypeError, "slot '1' is not an integer"),
           ({"games": [good]}, ValueError, "has 1 entries"),
           ({"games": "saved.json"}, TypeError, r"options\['games'\] must be"),
           ({"games": {0: Game(GameConfig(n_players=4), seed=0).to_dict()}}, ValueError, "config"),
           ({"games": {1: 7}}, TypeError, r"options\['games'\]\[1\]"),
           ("games", TypeError, "options must be a dict")]
    for options, error, words in bad:
        with pytest.raises(error, match=words):
            venv.reset(seed=3, options=options)
        assert np.array_equal(venv.kernel.cards, before[0]) and np.array_equal(venv.kernel.scal, before[1])


# --- positions: the SCOUT AEC env -----------------------------------------------------------------------
@pytest.mark.parametrize("n_players", [2, 3, 5])
def test_scout_env_reset_from_a_position_plays_as_the_restored_game(n_players):
    from seers_env.scout import ScoutConfig, ScoutGame, ScoutSeatView
    from seers_env.scout.actions import ScoutDecision
    from seers_env.scout.observation import observe as scout_observe
    from seers_env.scout_v0 import INFO_KEYS as SCOUT_INFO_KEYS
    from seers_env.scout_v0 import raw_env as scout_env

    config = ScoutConfig(n_players=n_players)
    source = ScoutGame(config, seed=n_players)
    rng = np.random.default_rng(n_players)
    positions, plays = [], 0
    while not source.game_over:
        if len(positions) < 8 and plays % 5 == 0:
            positions.append(json.loads(json.dumps(source.to_dict())))
        legal = source.legal_plays()
        source.apply(legal[int(rng.integers(len(legal)))])
        plays += 1
    e = scout_env(n_players=n_players)
    steps = 0
    for d in positions:
        e.reset(seed=0, options={"game": d})
        g = ScoutGame.from_dict(d)
        decision = ScoutDecision(g)
        for _ in range(150):
            if g.game_over:
                break
            for s, agent in enumerate(e.possible_agents):
                acting = s == g.current
                got = e.observe(agent)
                want = scout_observe(ScoutSeatView(g, s), decision.pending if acting else None)
                np.testing.assert_array_equal(got["observation"], want)
                np.testing.assert_array_equal(got["action_mask"], decision.mask() if acting
                                              else np.zeros_like(got["action_mask"]))
                assert tuple(e.infos[agent]) == SCOUT_INFO_KEYS
            assert e.agent_selection == f"player_{g.current}"
            a = int(rng.choice(np.flatnonzero(decision.mask())))
            e.step(a)
            play = decision.choose(a)
            if play is not None:
                g.apply(play)
                assert e.game.to_dict() == g.to_dict()
                if not g.game_over:
                    decision = ScoutDecision(g)
            steps += 1
    assert steps > 100

