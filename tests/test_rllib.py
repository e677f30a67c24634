"""Ray RLlib training (optional extra ``distributed``): the multi-agent environment's rewards and masks,
the RLModule's masking, and a tiny end-to-end run whose checkpoint plays as an ``rllib:`` agent."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402

from seers_env.game import Game, GameConfig  # noqa: E402
from seers_env.plays import PlayKind  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402
from seers_env.seers_catalog_v0 import ResetNeeded  # noqa: E402
from train.rllib_env import SeersMultiAgentEnv, seat_of  # noqa: E402
from train.rllib_module import PlayScoringRLModule, module_model_config  # noqa: E402


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """Single-observation forward passes: one thread avoids thread contention on a loaded machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _module(env: SeersMultiAgentEnv) -> PlayScoringRLModule:
    aid = env.possible_agents[0]
    torch.manual_seed(0)
    return PlayScoringRLModule(observation_space=env.observation_spaces[aid], action_space=env.action_spaces[aid],
                               model_config=module_model_config(env.game_config.n_players,
                                                                env.game_config.artifact_deck, 32, 16))


def _sample(module: PlayScoringRLModule, obs: dict) -> int:
    batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in obs.items()}}
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    return int(dist.sample()[0])


@pytest.mark.parametrize("config", [
    {"n_players": 4, "n_rounds": 3, "seed": 1},
    {"n_players": 3, "n_rounds": 2, "seed": 2, "baseline": "greedy", "baseline_seats": 0.4},
    {"n_players": 5, "n_rounds": 2, "seed": 3, "frozen_seats": 0.5, "max_plays": 6},
    {"n_players": 2, "n_rounds": 2, "seed": 4, "artifact_deck": []},
])
def test_rewards_through_rllib_episode_add_up_to_game_totals(config):
    """Round rewards arrive on other seats' steps ("hanging" rewards); RLlib's own MultiAgentEpisode must
    still credit each seat with exactly (its game total - mean of the others' totals) / reward_scale."""
    env = SeersMultiAgentEnv(config)
    rng = np.random.default_rng(0)
    for _ in range(2):
        obs, infos = env.reset()
        episode = MultiAgentEpisode(observation_space=env.observation_spaces, action_space=env.action_spaces)
        episode.add_env_reset(observations=obs, infos=infos)
        raw = {}
        done = False
        while not done:
            (aid, o), = obs.items()
            action = {aid: int(rng.choice(np.flatnonzero(o["action_mask"])))}
            obs, rew, term, trunc, infos = env.step(action)
            for k, v in rew.items():
                raw[k] = raw.get(k, 0.0) + v
            episode.add_env_step(obs, action, rew, infos, terminateds=term, truncateds=trunc)
            done = term["__all__"]
        totals = env.totals
        n = len(totals)
        assert env.game_over and episode.is_done
        learners = {aid for aid in episode.agent_episodes}
        assert learners, "some seat had a choice"
        for aid in learners:
            s = seat_of(aid)
            want = (totals[s] - (sum(totals) - totals[s]) / (n - 1)) / env.reward_scale
            assert episode.agent_episodes[aid].get_return() == pytest.approx(want, abs=1e-9)
            assert raw[aid] == pytest.approx(want, abs=1e-9)
            assert episode.agent_episodes[aid].get_infos(-1)["score"] == totals[s]
        assert not any(episode._hanging_rewards_begin.values())
        for s in env._baselines:
            assert all(seat_of(aid) != s for aid in learners)


def test_masks_respected_in_1000_sampled_steps_and_offered_plays_are_legal():
    """The module samples only offered rows; with K=8, decisions with more legal plays offer 8 legal
    ones (the pass among them when it is legal)."""
    env = SeersMultiAgentEnv({"n_players": 4, "n_rounds": 1, "seed": 5, "max_plays": 8, "kernel": False})
    module = _module(env)
    obs, _ = env.reset()
    truncated = 0
    for _ in range(1000):
        (aid, o), = obs.items()
        legal = env.game.legal_plays()
        offered = env.offered_plays()
        assert o["action_mask"].sum() == len(offered) == min(len(legal), 8)
        assert all(env.game.is_legal(p) for p in offered)
        if len(legal) > 8:
            truncated += 1
            if any(p.kind == PlayKind.PASS for p in legal):
                assert any(p.kind == PlayKind.PASS for p in offered)
        a = _sample(module, o)
        assert o["action_mask"][a] == 1.0, f"sampled masked row {a}"
        obs, _, term, _, _ = env.step({aid: a})
        if term["__all__"]:
            obs, _ = env.reset()
    assert truncated > 0


@pytest.mark.parametrize("kernel", [False, True])
def test_bad_actions_are_refused_and_leave_the_game_unchanged(kernel):
    env = SeersMultiAgentEnv({"n_players": 3, "n_rounds": 1, "seed": 6, "kernel": kernel})
    obs, _ = env.reset()
    (aid, o), = obs.items()

    def state():
        if kernel:
            return [x.copy() for x in (env.kernel.cards, env.kernel.scal, env.kernel.scores)]
        return env.game.to_dict()

    before = state()
    n = int(o["action_mask"].sum())
    with pytest.raises(ValueError, match="not an offered play"):
        env.step({aid: n})
    with pytest.raises(ValueError, match="no action for the acting agent"):
        env.step({"seat_99": 0})
    for bad in (0.9, True, "1"):  # refused, not rounded or parsed
        with pytest.raises(TypeError, match="not an integer row index"):
            env.step({aid: bad})
    after = state()
    assert all(np.array_equal(x, y) for x, y in zip(after, before)) if kernel else after == before
    with pytest.raises(ValueError, match="max_plays"):
        SeersMultiAgentEnv({"max_plays": 1})
    with pytest.raises(ValueError, match="baseline"):
        SeersMultiAgentEnv({"baseline_seats": 0.5})


def test_tiny_rllib_run_end_to_end(tmp_path):
    """A few PPO iterations with one env runner, an in-environment baseline and a frozen opponent
    through the policy mapping; the checkpoint plays legal plays as an rllib: agent and in seers eval."""
    import ray

    from agents.specs import make_agent
    from agents.tournament import run_tournament
    from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
    from seers_env.view import SeatView
    from train.rllib_train import RLlibConfig, run_rllib
    from train.scoring_policy import NetConfig, PlayScoringNet, model_config, save_policy

    frozen = tmp_path / "frozen.pt"
    save_policy(PlayScoringNet(NetConfig(hidden=32, embed=16)), model_config(4, DEFAULT_ARTIFACT_DECK), frozen)
    cfg = RLlibConfig(n_players=4, n_rounds=1, iterations=2, minutes=0, num_env_runners=1, envs_per_runner=2,
                      train_batch=256, minibatch=128, epochs=1, hidden=32, embed=16, baseline="random",
                      baseline_seats=0.25, opponent=f"learned:{frozen}", opponent_seats=0.3, seed=3)
    lines: list[str] = []
    try:
        result = run_rllib(cfg, out=str(tmp_path), name="tiny", echo=lines.append)
    finally:
        ray.shutdown()
    assert sum(line.startswith("iter ") for line in lines) == 2
    progress = [json.loads(x) for x in (result.run_dir / "progress.jsonl").read_text().splitlines()]
    assert [p["iteration"] for p in progress] == [1, 2]
    steps = [p["env_steps"] for p in progress]
    # at least one train batch sampled, and never fewer steps later (on a loaded machine an iteration's
    # sampling can stop at RLlib's sample timeout with part of a batch, so two full batches are not sure)
    assert steps == sorted(steps) and steps[-1] >= 256 * 0.9, steps
    assert "policy_loss" in progress[-1]["learner"]
    assert any((result.run_dir / "tb").iterdir())
    assert (result.checkpoint / "rllib_checkpoint.json").is_file()
    summary = json.loads((result.run_dir / "summary.json").read_text())
    assert summary["iterations"] == 2

    agent = make_agent(f"rllib:{result.checkpoint}", seed=1)
    also = make_agent(f"rllib:{result.run_dir}", seed=1)  # the run folder works too
    assert agent.net is also.net
    for g in range(2):
        game = Game(GameConfig(n_players=4, n_rounds=1), seed=g)
        while not game.game_over:
            play = agent.act(SeatView(game, game.current))
            assert game.is_legal(play)
            game.apply(play)
    code = ("import sys\nfrom agents.specs import make_agent\n"
            f"make_agent({'rllib:' + str(result.checkpoint)!r}).check_use(4, {tuple(DEFAULT_ARTIFACT_DECK)!r})\n"
            "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')]\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]  # loads without ray (forked tournament workers)
    from ray.rllib.core.rl_module.rl_module import RLModule

    from train.rllib_agent import resolve_checkpoint

    restored = RLModule.from_checkpoint(str(resolve_checkpoint(result.checkpoint)))  # RLlib's own loader
    for name, value in restored.net.state_dict().items():
        assert torch.equal(value, agent.net.state_dict()[name]), name
    assert restored.seers_model_config() == agent.config
    exported = make_agent(f"learned:{result.model_path}")
    view = SeatView(Game(GameConfig(n_players=4, n_rounds=1), seed=9), 0)
    view = SeatView(view._game, view._game.current)
    assert exported.act(view) == agent.act(view)
    tour = run_tournament([f"rllib:{result.checkpoint}", "random", "random", "random"], games=1, seed=0,
                          workers=1, n_rounds=1, progress=False)
    assert tour.deals == 1
    with pytest.raises(FileNotFoundError, match="no RLlib checkpoint"):
        make_agent(f"rllib:{tmp_path / 'nowhere'}")


def test_rllib_defaults_in_the_train_help_match_its_config():
    """seers train --help repeats RLlibConfig's defaults (seers_cli.train_cmd imports no ray)."""
    from seers_cli import train_cmd as cli
    from train.rllib_train import RLlibConfig

    d = RLlibConfig()
    assert (cli._RLLIB_MINUTES, cli._RLLIB_LR, cli._RLLIB_EPOCHS) == (d.minutes, d.lr, d.epochs)


# --- the kernel path: the same episodes as the Game path (same deals, observations bit for bit,
# offered rows, rewards, terminations and infos for the same seeds) ---------------------------------
def _same(a, b, where):
    assert a.keys() == b.keys(), where
    for aid in a:
        for key in a[aid]:
            x, y = a[aid][key], b[aid][key]
            assert x.dtype == y.dtype and x.shape == y.shape, (where, aid, key)
            assert np.array_equal(x, y), (where, aid, key, np.flatnonzero((x != y).ravel())[:10])


@pytest.mark.parametrize("config", [
    {"n_players": 2, "n_rounds": 2, "seed": 11},
    {"n_players": 3, "n_rounds": 2, "seed": 12, "artifact_deck": [], "max_plays": 6},
    {"n_players": 4, "n_rounds": 2, "seed": 13, "baseline": "heuristic", "baseline_seats": 0.5},
    {"n_players": 5, "n_rounds": 1, "seed": 14, "frozen_seats": 0.5, "max_plays": 8},
    {"n_players": 5, "n_rounds": 2, "seed": 15, "artifact_deck": [], "baseline": "heuristic",
     "baseline_seats": 0.4},
])
def test_kernel_path_gives_the_game_paths_episodes(config):
    kern = SeersMultiAgentEnv({**config, "kernel": True})
    game = SeersMultiAgentEnv({**config, "kernel": False})
    assert kern.on_kernel and not game.on_kernel and kern.game is None
    rng = np.random.default_rng(config["seed"])
    steps = 0
    for episode in range(3):
        ok, ig = kern.reset()
        og, _ = game.reset()
        _same(ok, og, (episode, "reset"))
        assert ig == {} and kern.agents == game.agents and kern._baselines.keys() == game._baselines.keys()
        done = not og
        while not done:
            (aid, o), = og.items()
            assert [p for p in kern.offered_plays()] == game.offered_plays()
            action = {aid: int(rng.choice(np.flatnonzero(o["action_mask"])))}
            ok, rk, tk, trk, ik = kern.step(action)
            og, rg, tg, trg, ig = game.step(action)
            steps += 1
            _same(ok, og, (episode, steps))
            assert rk == rg and tk == tg and trk == trg, (episode, steps)
            assert ik.keys() == ig.keys()
            for aid in ig:
                assert ik[aid]["score"] == ig[aid]["score"] and ik[aid]["reward"] == ig[aid]["reward"]
                assert np.array_equal(ik[aid]["baseline_score"], ig[aid]["baseline_score"], equal_nan=True)
            done = tg["__all__"]
        assert kern.game_over and kern.totals == game.totals == list(game.game.totals)
        assert kern.delivered == game.delivered
    assert steps > 20
    assert kern.rng.integers(2**62) == game.rng.integers(2**62)  # the same draws from the env's generator


def test_kernel_choice_follows_the_baseline():
    assert SeersMultiAgentEnv({"baseline": "heuristic", "baseline_seats": 0.5}).on_kernel
    assert SeersMultiAgentEnv({}).on_kernel
    assert not SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.5}).on_kernel
    assert SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.0}).on_kernel
    with pytest.raises(ValueError, match="kernel=True"):
        SeersMultiAgentEnv({"baseline": "greedy", "baseline_seats": 0.5, "kernel": True})
    with pytest.raises(ValueError, match="True, False or None"):
        SeersMultiAgentEnv({"kernel": "false"})
    for kernel in (False, True):  # before the first reset(), both paths agree
        env = SeersMultiAgentEnv({"n_players": 3, "kernel": kernel})
        assert env.totals == [0, 0, 0] and env.offered_plays() == [] and env.game_over


# --- order: before reset() and after close(); seeds of RLlib's env runners -------------------------------
def test_rllib_env_methods_before_reset_and_after_close_say_to_reset():
    """As every environment of the package (``tests/test_before_reset.py``): ``ResetNeeded``, Gymnasium's
    ``ResetNeeded`` and a ``RuntimeError``; the documented values of ``game_over``, ``totals`` and
    ``offered_plays`` before a game; closing twice is fine; ``reset()`` after ``close()`` deals again."""
    import gymnasium

    e = SeersMultiAgentEnv({"n_players": 3, "n_rounds": 1, "seed": 1})
    calls = {"step": lambda: e.step({"seat_0": 0}), "render": e.render}
    for when in ("before", "after close()", "after close()"):
        for name, call in calls.items():
            with pytest.raises(ResetNeeded) as info:
                call()
            assert isinstance(info.value, gymnasium.error.ResetNeeded) and isinstance(info.value, RuntimeError)
            assert f"{name}()" in str(info.value) and "call reset()" in str(info.value) and when in str(info.value)
        assert e.game_over and e.offered_plays() == [] and e.totals == [0, 0, 0]
        if when == "before":
            e.reset(seed=0)
            e.render()
            assert not e.game_over
        e.close()
    obs, _ = e.reset(seed=2)  # deals again after close
    rng = np.random.default_rng(0)
    while not e.game_over:
        aid = next(iter(obs))
        obs, *_ = e.step({aid: int(rng.choice(np.flatnonzero(obs[aid]["action_mask"])))})
    assert e.offered_plays() == []
    with pytest.raises(ResetNeeded, match=r"game ended; call reset\(\)"):
        e.step({"seat_0": 0})


def test_rllib_runners_and_sub_environments_share_no_stream(monkeypatch):
    """RLlib seeds runner ``w``'s global generators with ``seed + w``, its sub-environment ``i`` with
    ``seed + w + i``, and gives every sub-environment vector index 0; with the run's callback
    (``on_environment_created``) no (seed, runner, sub-environment) of seeds 0 and 1 shares a game, and each
    runner's global generators get a stream of their own."""
    from train.rllib_train import _callback_class

    callback = _callback_class()()
    # RLlib's global seeding also switches torch to deterministic algorithms: undone afterwards
    saved = random.getstate(), np.random.get_state(), torch.get_rng_state()
    deterministic = torch.are_deterministic_algorithms_enabled(), torch.backends.cudnn.deterministic
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)  # restored after the test
    try:
        hands, torch_seeds = [], []
        for seed in (0, 1):
            for worker in (0, 1, 2):
                envs = [SeersMultiAgentEnv({"n_players": 3, "n_rounds": 1, "seed": seed, "kernel": False})
                        for _ in range(3)]
                runner = SimpleNamespace(worker_index=worker, config=SimpleNamespace(
                    seed=seed, framework_str="torch", in_evaluation=False))
                callback.on_environment_created(env_runner=runner, env=SimpleNamespace(envs=envs),
                                                metrics_logger=None, env_context=None)
                torch_seeds.append(torch.initial_seed())
                assert torch.initial_seed() == child_seed(seed, worker, 0, bits=32)
                for i, e in enumerate(envs):
                    e.reset(seed=seed + worker + i)  # what RLlib's sync vector env passes
                    hands.append(str(e.game.hands))
        assert len(set(hands)) == len(hands) == 18
        assert len(set(torch_seeds)) == 6
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])
        torch.set_rng_state(saved[2])
        torch.use_deterministic_algorithms(deterministic[0])
        torch.backends.cudnn.deterministic = deterministic[1]
