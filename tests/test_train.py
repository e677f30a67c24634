"""Training (issue 5): a tiny end-to-end run, save/load, the loaded agent plays only legal plays, resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from seers_env import Game, GameConfig
from seers_env.seeding import child_seed
from seers_env.view import SeatView
from train.league import LeagueSampler, list_snapshots, parse_mix
from train.trainer import FINAL_EVAL_STREAM, TrainConfig, list_checkpoints, train


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One tiny training run through the CLI (256 steps, 2 rollouts of 2 x 64 steps)."""
    from seers_cli import app

    out = tmp_path_factory.mktemp("runs")
    args = ["train", "--algo", "maskable-ppo", "--steps", "256", "--players", "4", "--rounds", "1",
            "--envs", "2", "--net", "32",
            "--opponents", "random:1,greedy:1,self:1", "--eval-every", "0", "--final-games", "1",
            "--checkpoint-every", "128", "--snapshot-every", "128", "--workers", "1", "--no-progress",
            "--n-steps", "64", "--batch-size", "64", "--epochs", "1",
            "--imitation-samples", "200", "--imitation-epochs", "1",
            "--out", str(out), "--name", "tiny", "--seed", "3"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "tiny", result.output


def test_cli_run_writes_the_run_folder(tiny_run):
    run_dir, output = tiny_run
    for name in ("model.zip", "config.json", "eval.json", "summary.json"):
        assert (run_dir / name).is_file(), name
    assert list_checkpoints(run_dir), "no checkpoint written"
    assert list_snapshots(run_dir / "snapshots"), "no self-play snapshot written"
    assert list((run_dir / "tb").rglob("events.out.tfevents*")), "no TensorBoard log"
    config = json.loads((run_dir / "config.json").read_text())["config"]
    assert config["n_players"] == 4 and config["net_arch"] == [32] and config["seed"] == 3
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["timesteps"] >= 256 and summary["steps_per_s"] > 0
    assert summary["imitation"]["samples"] == 200 and summary["imitation"]["teacher"] == "heuristic"
    assert 0 <= summary["imitation"]["final_accuracy"] <= 1
    assert (run_dir / "bc_model.zip").is_file()
    assert list((run_dir / "tb" / "imitation").rglob("events.out.tfevents*")), "no imitation TensorBoard log"
    assert "ppo:" in output and "steps/s" in output
    # the final table has one header line: opponents, deals, seat rotations and seed, said once
    lines = output.splitlines()
    head = [i for i, x in enumerate(lines) if x.startswith("Learned agent vs ")]
    assert len(head) == 1 and lines[head[0]] == "Learned agent vs random, greedy, heuristic: 1 deal x 4 seat " \
        "rotations"
    table = lines[head[0]:lines.index(next(x for x in lines if x.startswith("Run folder:")))]
    assert " ".join(table).count("seat rotations") == 1 and max(len(x) for x in table) <= 80
    final_seed = child_seed(3, FINAL_EVAL_STREAM, bits=32)  # the run's seed 3, its final evaluation's stream
    assert f"deals: seed {final_seed}, the final tournament's own, never used in training; 4 games of 1 round" \
        in " ".join(" ".join(table).split())


def test_loaded_model_plays_only_legal_plays(tiny_run):
    from agents import make_agent
    from train.ppo_agent import PPOAgent

    run_dir, _ = tiny_run
    agent = make_agent(f"ppo:{run_dir / 'model.zip'}", seed=0)
    assert isinstance(agent, PPOAgent)
    others = [make_agent("random", seed=s) for s in range(3)]
    decisions = 0
    for game_seed in range(3):
        game = Game(GameConfig(n_players=4, n_rounds=1), seed=game_seed)
        while not game.game_over:
            seat = game.current
            view = SeatView(game, seat)
            if seat == game_seed % 4:
                play = agent.act(view)
                legal_ids = {p.identity() for p in game.legal_plays()}
                assert play.identity() in legal_ids
                decisions += 1
            else:
                play = others[seat % 3].act(view)
            game.apply(play)
    assert decisions > 10


def test_save_load_round_trip_gives_same_actions(tiny_run):
    from seers_env.actions import Decision
    from seers_env.observation import observe
    from train.policy import load_model, policy_action

    run_dir, _ = tiny_run
    a, b = load_model(run_dir / "model.zip"), load_model(run_dir / "model.zip")
    game = Game(GameConfig(n_players=4), seed=11)
    for _ in range(20):
        decision = Decision(game.legal_plays(), game.current, 4)
        obs, mask = observe(game, game.current, decision), decision.mask()
        act = policy_action(a.policy, obs, mask)
        assert act == policy_action(b.policy, obs, mask)
        assert mask[act] == 1
        for pa, pb in zip(a.policy.parameters(), b.policy.parameters()):
            assert np.array_equal(pa.detach().numpy(), pb.detach().numpy())
        play = decision.choose(act)
        while play is None:
            play = decision.choose(policy_action(a.policy, observe(game, game.current, decision),
                                                 decision.mask()))
        game.apply(play)


def test_resume_continues_from_checkpoint_step_count(tiny_run, tmp_path):
    run_dir, _ = tiny_run
    ckpt = [p for p in list_checkpoints(run_dir) if p.endswith("ckpt_128.zip")]
    assert ckpt, list_checkpoints(run_dir)
    config = TrainConfig.from_dict(json.loads((run_dir / "config.json").read_text())["config"])
    config.total_timesteps = 384
    result = train(config, resume=ckpt[0], progress=False, final_eval=False, echo=lambda s: None)
    assert result.run_dir.resolve() == run_dir.resolve()
    # 128 from the checkpoint, then whole rollouts of n_steps x n_envs = 64 x 2 until 384 is reached
    assert result.timesteps - result.steps_this_run == 128
    assert result.timesteps >= 384
    from train.policy import load_model

    assert load_model(result.model_path).num_timesteps == result.timesteps


def test_resume_past_budget_is_refused(tiny_run):
    run_dir, _ = tiny_run
    config = TrainConfig.from_dict(json.loads((run_dir / "config.json").read_text())["config"])
    config.total_timesteps = 64
    with pytest.raises(ValueError, match="steps already"):
        train(config, resume=list_checkpoints(run_dir)[-1], progress=False, final_eval=False,
              echo=lambda s: None)


def test_parse_mix():
    assert parse_mix("random:1,greedy:1,heuristic:2,self:1") == {"random": 1.0, "greedy": 1.0,
                                                                 "heuristic": 2.0, "self": 1.0}
    assert parse_mix("greedy, self:0.5") == {"greedy": 1.0, "self": 0.5}
    assert parse_mix("random:0,greedy:3") == {"greedy": 3.0}
    for bad, match in (("", "no opponent"), ("random:-1", "finite number"), ("nosuchbot:1", "nosuchbot"),
                       ("random,random", "twice"), ("random:0", "no opponent")):
        with pytest.raises(ValueError, match=match):
            parse_mix(bad)


def test_league_draws_by_weight_and_falls_back_without_snapshots(tmp_path):
    sampler = LeagueSampler("random:1,self:3", n_players=4, snapshot_dir=tmp_path)
    # no snapshot yet: every draw falls back to the other entries
    assert sampler.draw_specs(np.random.default_rng(0)) == ["random"] * 3
    (tmp_path / "snapshot_100.zip").write_bytes(b"")
    (tmp_path / "snapshot_20.zip").write_bytes(b"")
    assert list_snapshots(tmp_path) == [str(tmp_path / "snapshot_20.zip"), str(tmp_path / "snapshot_100.zip")]
    rng = np.random.default_rng(1)
    draws = [s for _ in range(400) for s in sampler.draw_specs(rng)]
    share_self = np.mean([d.startswith("ppo:") for d in draws])
    assert 0.70 < share_self < 0.80  # weight 3 of 4
    # same generator state, same opponents
    assert sampler.draw_specs(np.random.default_rng(5)) == sampler.draw_specs(np.random.default_rng(5))
    window = LeagueSampler("self:1", n_players=3, snapshot_dir=tmp_path, window=1)
    assert set(window.draw_specs(np.random.default_rng(2))) == {"ppo:" + str(tmp_path / "snapshot_100.zip")}


def test_bad_train_config_is_refused():
    with pytest.raises(ValueError, match="n_players=6"):
        TrainConfig(n_players=6)
    with pytest.raises(ValueError, match="vec_env='threads'"):
        TrainConfig(vec_env="threads")
    with pytest.raises(ValueError, match="n_envs=0"):
        TrainConfig(n_envs=0)
    with pytest.raises(ValueError, match="bogus"):
        TrainConfig(opponents="bogus:1")
    with pytest.raises(ValueError, match="imitation_teacher='ismcts'.*heuristic"):
        TrainConfig(imitation_teacher="ismcts")
    with pytest.raises(ValueError, match="imitation_samples=-1"):
        TrainConfig(imitation_samples=-1)
    with pytest.raises(ValueError, match="imitation_epochs=0"):
        TrainConfig(imitation_epochs=0)


def test_policy_action_respects_the_mask(tiny_run):
    from seers_env.actions import N_ACTIONS
    from seers_env.observation import OBS_DIM
    from train.policy import load_model, policy_action

    policy = load_model(tiny_run[0] / "model.zip").policy
    obs = np.zeros(OBS_DIM, dtype=np.float32)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[[5, 17]] = 1
    rng = np.random.default_rng(0)
    assert {policy_action(policy, obs, mask, rng) for _ in range(30)} <= {5, 17}
    assert policy_action(policy, obs, mask) in (5, 17)
    with pytest.raises(ValueError, match="allows no action"):
        policy_action(policy, obs, np.zeros(N_ACTIONS, dtype=np.int8))
    with pytest.raises(ValueError, match="length 3"):
        policy_action(policy, obs, np.ones(3, dtype=np.int8))


def test_missing_model_file_is_a_clear_error(tmp_path):
    from train.policy import load_model

    with pytest.raises(FileNotFoundError, match="no trained model"):
        load_model(tmp_path / "nope.zip")
    assert not Path(tmp_path / "nope.zip").exists()


def test_same_seed_same_model(tmp_path):
    from train.policy import load_model

    def run(name, seed):
        config = TrainConfig(n_players=3, n_rounds=1, total_timesteps=128, n_envs=2, n_steps=32, batch_size=32,
                             n_epochs=1, net_arch=(16,), eval_every=0, opponents="random:1,greedy:1,self:1",
                             snapshot_every=32, out=str(tmp_path), name=name, seed=seed,
                             imitation_samples=100, imitation_epochs=1)
        return load_model(train(config, progress=False, final_eval=False, echo=lambda s: None).model_path)

    a, b, c = run("a", 5), run("b", 5), run("c", 6)
    pa, pb, pc = ([p.detach().numpy() for p in m.policy.parameters()] for m in (a, b, c))
    assert all(np.array_equal(x, y) for x, y in zip(pa, pb))
    assert not all(np.array_equal(x, y) for x, y in zip(pa, pc))


def test_snapshot_opponent_survives_pruning_of_its_file(tiny_run, tmp_path):
    """Regression: a snapshot drawn at reset and pruned before its first move crashed the run."""
    import shutil

    from seers_env.actions import Decision
    from seers_env.observation import observe
    from train.policy import SnapshotOpponent

    path = tmp_path / "snapshot_7.zip"
    shutil.copy(tiny_run[0] / "model.zip", path)
    opponent = SnapshotOpponent(path, seed=0)
    path.unlink()
    game = Game(GameConfig(n_players=4), seed=2)
    decision = Decision(game.legal_plays(), game.current, 4)
    action = opponent(observe(game, game.current, decision), decision.mask())
    assert decision.mask()[action] == 1


def test_imitation_lowers_cross_entropy_and_stays_legal():
    """Behaviour cloning of the heuristic: a few hundred decisions, one epoch."""
    from sb3_contrib import MaskablePPO

    from seers_env.actions import Decision
    from seers_env.observation import observe
    from seers_env.wrappers import SingleAgentSeersEnv
    from train.imitation import collect_demonstrations, masked_cross_entropy, pretrain
    from train.policy import policy_action

    demos = collect_demonstrations(4, 400, seed=1, n_rounds=1)
    assert len(demos) == 400 and demos.obs.shape[0] == 400 and demos.offsets[-1] == len(demos.allowed)
    for i in range(len(demos)):  # the teacher's action is among the allowed ones
        assert demos.actions[i] in demos.allowed[demos.offsets[i]:demos.offsets[i + 1]]
    assert np.isfinite(demos.returns).all() and demos.returns.std() > 0
    again = collect_demonstrations(4, 400, seed=1, n_rounds=1)
    assert np.array_equal(demos.actions, again.actions) and np.array_equal(demos.obs, again.obs)
    with pytest.raises(ValueError, match="teacher='nobody'"):
        collect_demonstrations(4, 10, seed=0, teacher="nobody")

    env = SingleAgentSeersEnv(n_players=4, n_rounds=1)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64]}, seed=0, device="cpu")
    before = masked_cross_entropy(model, demos)
    result = pretrain(model, demos, epochs=1, batch_size=32, learning_rate=1e-3, seed=0)
    after = masked_cross_entropy(model, demos)
    assert after < before, (before, after)
    assert result.samples == 400 and 0 <= result.accuracy[-1] <= 1 and np.isfinite(result.loss[-1])
    with pytest.raises(ValueError, match="epochs=0"):
        pretrain(model, demos, epochs=0)

    game = Game(GameConfig(n_players=4, n_rounds=1), seed=4)
    for _ in range(40):  # the cloned policy only takes legal actions
        if game.game_over:
            break
        decision = Decision(game.legal_plays(), game.current, 4)
        play = None
        while play is None:
            mask = decision.mask()
            action = policy_action(model.policy, observe(game, game.current, decision), mask)
            assert mask[action] == 1
            play = decision.choose(action)
        game.apply(play)


def test_bad_evaluation_baseline_is_rejected_before_training():
    from train.trainer import TrainConfig

    with pytest.raises(ValueError, match="unknown agent spec"):
        TrainConfig(eval_specs=("foo",))


def test_progress_lines_when_not_a_terminal(tmp_path):
    """Output to a file or a pipe: plain progress lines (steps, speed, ETA, latest evaluation)."""
    lines = []
    config = TrainConfig(n_players=2, n_rounds=1, total_timesteps=64, n_envs=1, n_steps=32, batch_size=32,
                         n_epochs=1, net_arch=(8,), eval_every=32, eval_games=1, opponents="random:1",
                         snapshot_every=32, out=str(tmp_path), name="p", seed=0, imitation_samples=0, workers=1)
    result = train(config, progress=True, final_eval=False, echo=lines.append)
    progress = [x for x in lines if x.startswith("train: ")]
    assert progress, lines
    last = progress[-1]
    assert all(len(x) <= 80 for line in lines for x in line.split("\n")), lines  # wrapped at 80 columns
    last = " ".join(last.split())  # the wrapped line, joined again
    assert result.timesteps == 64 and last.startswith("train: 64/64 steps (100%), ")
    assert "steps/s" in last and "ETA" in last and "last eval at 64: vs random" in last
    # the speed of the lines and of the summary say what they count
    text = " ".join(lines)
    assert "steps/s = environment steps (learner decisions) per second of training, PPO updates included, " \
           "evaluations excluded" in text
    assert "environment steps/s of training   (PPO updates included, evaluations excluded)" in text
    head = lines[lines.index(next(x for x in lines if x.startswith("Progress every"))):lines.index(progress[0])]
    assert len(head) >= 2 and all(len(x) <= 80 for x in head)  # the explanation is wrapped at 80


def test_run_folder_is_lean_and_listed(tiny_run):
    """Snapshots and the final model are policy-only; checkpoints keep the optimizer; seers runs lists it."""
    import zipfile

    from train.policy import load_model
    from train.runs import list_runs

    run_dir, _ = tiny_run

    def optimizer_bytes(path):
        with zipfile.ZipFile(path) as zf:
            return zf.getinfo("policy.optimizer.pth").file_size

    snap = list_snapshots(run_dir / "snapshots")[-1]
    ckpt = list_checkpoints(run_dir)[-1]
    assert optimizer_bytes(snap) * 3 < optimizer_bytes(ckpt)  # no Adam moments in the snapshot
    assert optimizer_bytes(run_dir / "model.zip") * 3 < optimizer_bytes(ckpt)
    assert load_model(snap).policy is not None  # still loads as a MaskablePPO model
    runs = list_runs(run_dir.parent)
    (info,) = [r for r in runs if r["name"] == "tiny"]
    assert info["steps"] >= 256 and info["finished"] and info["size"] > info["sizes"]["checkpoints"] > 0
    (row,) = info["evaluation"]
    assert row["agent"].startswith("ppo:") and row["vs"] == "heuristic" and row["verdict"] in (
        "better", "worse", "tie")
    from seers_cli import app

    out = CliRunner().invoke(app, ["runs", "--out", str(run_dir.parent)], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    assert "| tiny" in out.output and max(len(x) for x in out.output.splitlines()) <= 80


def test_rllib_without_ray_is_a_clear_error_and_writes_nothing(tmp_path, monkeypatch):
    """--algo rllib without the distributed extra: a one-line usage error, before any run folder."""
    import importlib.util

    from seers_cli import app

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    result = CliRunner().invoke(app, ["train", "--algo", "rllib", "--out", str(tmp_path), "--name", "r"],
                                env={"COLUMNS": "80"})
    assert result.exit_code == 2
    assert "distributed" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_a_given_title_is_the_tables_one_header_on_a_terminal_and_in_a_file():
    """train's final tables: one header line (no second line repeating deals and seed), notes below."""
    import io

    from rich.console import Console

    from agents.tournament import paired_differences, print_table, run_tournament
    from seers_cli.train_cmd import final_table_header

    r = run_tournament(["heuristic", "random"], games=2, seed=7, workers=1, n_rounds=1, progress=False)
    title, notes = final_table_header("1 x random", r)
    assert title == "Learned agent vs 1 x random: 2 deals x 2 seat rotations" and len(title) <= 80
    buf = io.StringIO()  # not a terminal: the Markdown table
    print_table(r, paired=paired_differences(r, "random"), file=buf, title=title, notes=notes)
    text = buf.getvalue()
    assert text.splitlines()[0] == title and text.count("seat rotations") == 1
    assert len(re.findall(r"seed \d", text)) == 1
    assert "deals: seed 7, the final tournament's own, never used in training; 4 games of 1 round" in \
        " ".join(text.split())
    assert max(len(x) for x in text.splitlines()) <= 80
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    console.print(r.table(paired=paired_differences(r, "random"), title=title, notes=notes))
    drawn = console.file.getvalue()
    assert " ".join(drawn.split()).count("seat rotations") == 1 and "Learned agent vs 1 x random" in drawn
    assert max(len(x) for x in drawn.splitlines()) <= 80
    # without a title: the default one, unchanged
    assert r.text().splitlines()[0] == "2 deals x 2 seat rotations = 4 games, 2 players, 1 round, seed 7"
    # a long title is wrapped at 80 columns in a file, not cut
    long = r.text(title="Learned agent vs " + ", ".join(["heuristic"] * 12))
    assert long.splitlines()[1].startswith("  ") and max(len(x) for x in long.splitlines()) <= 80
