"""``seers train --algo rllib``: the play-scoring policy trained with Ray RLlib (new API stack).

Needs the optional extra ``distributed`` (``pip install -e ".[distributed]"``: ``ray[rllib]``); nothing
else in the package imports this module or ``ray``.

Pieces:

* the environment :class:`train.rllib_env.SeersMultiAgentEnv` (one agent per seat, the action is an
  index among the legal plays, rewards per round, "hanging" rewards handled);
* the module :class:`train.rllib_module.PlayScoringRLModule` (the project's
  :class:`~train.scoring_policy.PlayScoringNet`, masked);
* the policy mapping :class:`SeatMapping`: every ``seat_*`` agent to the one shared learning module
  ``"shared"`` (self-play), every ``frozen_*`` agent to the untrained module ``"frozen"`` whose
  weights come from a play-scoring model (``--opponent learned`` or ``learned:<model.pt>`` or
  ``rllib:<checkpoint>``), in the fraction ``--opponent-seats`` of the seats; baselines
  (``--baseline heuristic --baseline-seats 0.25``) are played inside the environment;
* the algorithm: RLlib PPO (default) or IMPALA (``--rllib-algo impala``), the learner in the driver
  process, ``--num-env-runners`` sampling processes with ``--envs-per-runner`` environments each.

Ray runs embedded by default (``ray.init(address="local")``: a fresh single-machine instance, even
when a cluster is running); ``--address auto`` (a cluster started with ``ray start`` on this machine) or
``--address ray://host:10001`` joins a cluster, whose nodes must have the package installed.

Run folder ``runs/<name>/``: ``config.json``, ``progress.jsonl`` (one line per iteration), ``tb/``
(TensorBoard), ``checkpoint/`` (RLlib algorithm checkpoint; agent spec ``rllib:runs/<name>/checkpoint``),
``model.pt`` (the same policy as a play-scoring model file; agent spec ``learned:runs/<name>/model.pt``),
``summary.json`` and, with ``final_games``, ``eval.json``.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from .rllib_agent import LEARNING_MODULE

#: Module id of frozen opponents.
FROZEN_MODULE = "frozen"
RLLIB_ALGOS = ("ppo", "impala")


@dataclass
class RLlibConfig:
    """Settings of an RLlib run (each is a ``seers train --algo rllib`` flag).

    Attributes:
        n_players, n_rounds, artifact_deck: the table (an episode is one game of ``n_rounds``).
        algo: ``"ppo"`` or ``"impala"``.
        iterations, env_steps, minutes: budget; training stops at the first one reached (0: no limit
            of that kind; at least one must be set).
        num_env_runners: sampling processes (0: sample in the driver); envs_per_runner: environments
            per runner, stepped together (one batched forward pass).
        address: ``None`` (embedded Ray), ``"auto"``, ``"ray://host:port"`` (Ray Client) or the head
            node's ``"host:port"``.
        train_batch: env steps per training iteration; minibatch: steps per SGD step; epochs: passes.
        lr, gamma, lambda_, entropy, clip, vf_coef: PPO / IMPALA hyperparameters.
        hidden, embed: network sizes; max_plays: ``K`` (:mod:`train.rllib_env`); reward_scale: points
            per reward unit.
        baseline, baseline_seats: in-environment baseline agent spec and its fraction of seats.
        opponent, opponent_seats: frozen-module opponent (a ``learned``/``learned:<pt>``/
            ``rllib:<ckpt>`` spec) and its fraction of seats.
        seed: seeds the environments and RLlib.
        checkpoint_every: iterations between checkpoints (0: only at the end).
    """

    n_players: int = 4
    n_rounds: int = 4
    artifact_deck: tuple[str, ...] | None = None
    algo: str = "ppo"
    iterations: int = 0
    env_steps: int = 0
    minutes: float = 10.0
    num_env_runners: int = 1
    envs_per_runner: int = 4
    address: str | None = None
    train_batch: int = 2000
    minibatch: int = 500
    epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    lambda_: float = 0.95
    entropy: float = 0.01
    clip: float = 0.2
    vf_coef: float = 0.5
    hidden: int = 256
    embed: int = 128
    max_plays: int = 128
    reward_scale: float = 10.0
    baseline: str = ""
    baseline_seats: float = 0.0
    opponent: str = ""
    opponent_seats: float = 0.0
    seed: int = 0
    checkpoint_every: int = 10

    def __post_init__(self) -> None:
        from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
        from seers_env.game import GameConfig
        from seers_env.seeding import check_seed

        if self.artifact_deck is None:
            self.artifact_deck = tuple(DEFAULT_ARTIFACT_DECK)
        self.artifact_deck = tuple(self.artifact_deck)
        GameConfig(self.n_players, self.n_rounds, self.artifact_deck)  # ValueError naming the bad value
        self.seed = check_seed(self.seed)
        if self.algo not in RLLIB_ALGOS:
            raise ValueError(f"algo={self.algo!r} is not one of {', '.join(RLLIB_ALGOS)}")
        if not (self.iterations > 0 or self.env_steps > 0 or self.minutes > 0):
            raise ValueError("set a budget: iterations, env_steps or minutes > 0")
        for key in ("num_env_runners",):
            if getattr(self, key) < 0:
                raise ValueError(f"{key}={getattr(self, key)!r} must be >= 0")
        for key in ("envs_per_runner", "train_batch", "minibatch", "epochs", "hidden", "embed"):
            if getattr(self, key) < 1:
                raise ValueError(f"{key}={getattr(self, key)!r} must be >= 1")
        if self.max_plays < 2:
            raise ValueError(f"max_plays={self.max_plays!r} must be >= 2")
        for key in ("baseline_seats", "opponent_seats"):
            if not 0.0 <= getattr(self, key) <= 1.0:
                raise ValueError(f"{key}={getattr(self, key)!r} must be a fraction in 0..1")
        if self.baseline_seats > 0 and not self.baseline:
            raise ValueError("baseline_seats > 0 needs a baseline agent spec, e.g. heuristic")
        if self.opponent_seats > 0 and not self.opponent:
            raise ValueError("opponent_seats > 0 needs an opponent model spec: learned, learned:<model.pt> "
                             "or rllib:<checkpoint>")
        if self.address is not None and self.address != "auto" and not self.address.startswith("ray://") \
                and not self.address.rpartition(":")[2].isdigit():
            raise ValueError(f"address={self.address!r}: use 'auto', 'ray://host:port' or a head node's "
                             f"'host:port' (or none: embedded Ray)")

    def env_config(self) -> dict[str, Any]:
        """The ``env_config`` of :class:`~train.rllib_env.SeersMultiAgentEnv`."""
        return {"n_players": self.n_players, "n_rounds": self.n_rounds, "artifact_deck": list(self.artifact_deck),
                "max_plays": self.max_plays, "reward_scale": self.reward_scale, "baseline": self.baseline,
                "baseline_seats": self.baseline_seats,
                "frozen_seats": self.opponent_seats if self.opponent else 0.0, "seed": self.seed}


class SeatMapping:
    """Policy mapping: ``frozen_*`` agents to :data:`FROZEN_MODULE`, every other agent to the shared
    learning module (self-play). A plain picklable callable ``(agent_id, episode, **kw) -> module id``."""

    def __call__(self, agent_id: str, episode: Any = None, **kwargs) -> str:
        from .rllib_env import FROZEN_PREFIX

        return FROZEN_MODULE if str(agent_id).startswith(FROZEN_PREFIX + "_") else LEARNING_MODULE


def _frozen_weights(spec: str, n_players: int, artifact_deck) -> tuple[dict, dict]:
    """``(state_dict as numpy arrays, net sizes)`` of a ``learned[:path]`` or ``rllib:<ckpt>`` model."""
    from .model_config import check_model_config
    from .scoring_policy import ALGORITHM, FEATURE_STRING, cached_policy, shipped_model_path

    name, _, arg = spec.partition(":")
    if name == "learned":
        net, mc = cached_policy(arg or shipped_model_path())
    elif name == "rllib" and arg:
        from .rllib_agent import load_rllib_policy

        net, mc = load_rllib_policy(arg)
    else:
        raise ValueError(f"opponent {spec!r} is not a play-scoring model spec: use learned, "
                         f"learned:<model.pt> or rllib:<checkpoint>")
    check_model_config(mc, source=spec, algorithm=ALGORITHM, n_players=n_players,
                       artifact_deck=tuple(artifact_deck), feature_version=FEATURE_STRING)
    state = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items() if not k.startswith("value_net")}
    return state, {"hidden": net.cfg.hidden, "embed": net.cfg.embed}


def _callback_class():
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class SeersMetrics(RLlibCallback):
        """Seeds and metrics.

        Seeds (when RLlib creates an env runner's environments): RLlib seeds env runner ``w``'s global
        generators (random, NumPy, torch) with ``seed + w`` and its sub-environment ``i`` with
        ``seed + w + i``, and gives every sub-environment ``vector_index`` 0, so neighbouring seeds would
        share streams. Here the runner's global generators are reseeded with
        :func:`seers_env.seeding.child_seed` ``(seed, w, evaluation)`` and sub-environment ``i`` gets the
        stream ``(w, i, evaluation)`` (:meth:`train.rllib_env.SeersMultiAgentEnv.set_stream`): no two
        (seed, runner, sub-environment) share a game or a sampling stream.

        Metrics, per finished episode: each module's mean game score per seat (``seers/score_<module>``),
        its summed reward (``seers/reward_<module>``), and the baseline seats' score
        (``seers/score_baseline``)."""

        def on_environment_created(self, *, env_runner, env, env_context=None, **kwargs) -> None:
            from ray.rllib.utils.debug import update_global_seed_if_necessary

            from seers_env.seeding import child_seed

            from .rllib_env import SeersMultiAgentEnv

            cfg = env_runner.config
            worker = int(getattr(env_runner, "worker_index", 0) or 0)
            evaluation = int(bool(getattr(cfg, "in_evaluation", False)))
            if cfg.seed is not None:
                seed = child_seed(int(cfg.seed), worker, evaluation, bits=32)
                update_global_seed_if_necessary(cfg.framework_str, seed)
            for i, sub in enumerate(getattr(env, "envs", [env])):
                inner = getattr(sub, "unwrapped", sub)
                if isinstance(inner, SeersMultiAgentEnv):
                    inner.set_stream(worker, i, evaluation)

        def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
            if metrics_logger is None:
                return
            base = math.nan
            for sa in episode.agent_episodes.values():
                try:
                    info = sa.get_infos(-1)
                except (IndexError, KeyError):
                    continue
                if not isinstance(info, dict) or "score" not in info:
                    continue
                mid = sa.module_id or LEARNING_MODULE
                metrics_logger.log_value(f"seers/score_{mid}", info["score"], reduce="mean", window=200)
                metrics_logger.log_value(f"seers/reward_{mid}", info["reward"], reduce="mean", window=200)
                base = info.get("baseline_score", math.nan)
            if not math.isnan(base):
                metrics_logger.log_value("seers/score_baseline", base, reduce="mean", window=200)

    return SeersMetrics


def build_config(cfg: RLlibConfig):
    """The RLlib ``AlgorithmConfig`` (PPO or IMPALA) of ``cfg``; imports ray."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_env import SeersMultiAgentEnv
    from .rllib_module import FrozenPlayScoringRLModule, PlayScoringRLModule, module_model_config

    if cfg.algo == "ppo":
        from ray.rllib.algorithms.ppo import PPOConfig

        config = PPOConfig().training(
            train_batch_size_per_learner=cfg.train_batch, minibatch_size=cfg.minibatch, num_epochs=cfg.epochs,
            lr=cfg.lr, gamma=cfg.gamma, lambda_=cfg.lambda_, entropy_coeff=cfg.entropy, clip_param=cfg.clip,
            vf_loss_coeff=cfg.vf_coef, vf_clip_param=100.0)
    else:
        from ray.rllib.algorithms.impala import IMPALAConfig

        config = IMPALAConfig().training(
            train_batch_size_per_learner=cfg.train_batch, lr=cfg.lr, gamma=cfg.gamma,
            entropy_coeff=cfg.entropy, vf_loss_coeff=cfg.vf_coef)
    specs = {LEARNING_MODULE: RLModuleSpec(
        module_class=PlayScoringRLModule,
        model_config=module_model_config(cfg.n_players, cfg.artifact_deck, cfg.hidden, cfg.embed))}
    policies = {LEARNING_MODULE}
    if cfg.opponent and cfg.opponent_seats > 0:
        state, sizes = _frozen_weights(cfg.opponent, cfg.n_players, cfg.artifact_deck)
        mc = module_model_config(cfg.n_players, cfg.artifact_deck, sizes["hidden"], sizes["embed"])
        mc["weights"] = state
        mc["source"] = cfg.opponent
        specs[FROZEN_MODULE] = RLModuleSpec(module_class=FrozenPlayScoringRLModule, model_config=mc)
        policies.add(FROZEN_MODULE)
    return (config
            .environment(SeersMultiAgentEnv, env_config=cfg.env_config(), disable_env_checking=True)
            .env_runners(num_env_runners=cfg.num_env_runners, num_envs_per_env_runner=cfg.envs_per_runner,
                         rollout_fragment_length="auto", num_cpus_per_env_runner=1)
            .multi_agent(policies=policies, policy_mapping_fn=SeatMapping(), policies_to_train=[LEARNING_MODULE])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
            .learners(num_learners=0)
            .callbacks(_callback_class())
            .reporting(metrics_num_episodes_for_smoothing=50)
            .debugging(seed=cfg.seed, log_level="ERROR"))


def init_ray(address: str | None, num_env_runners: int) -> dict[str, Any]:
    """Start embedded Ray (``address=None``: ``ray.init(address="local")`` with enough logical CPUs
    for the runners and the driver) or join a cluster; returns ``ray.cluster_resources()``."""
    import ray

    if ray.is_initialized():
        return ray.cluster_resources()
    env = {"env_vars": {"PYTHONWARNINGS": "ignore::DeprecationWarning"}}
    if address is None:
        ray.init(address="local", num_cpus=max(os.cpu_count() or 1, num_env_runners + 1),
                 include_dashboard=False, log_to_driver=False, runtime_env=env)
    else:
        ray.init(address=address, log_to_driver=False, runtime_env=env)
    return ray.cluster_resources()


def runner_node_ids(algo) -> list[str]:
    """Node id of each remote env runner (``[]`` when sampling happens in the driver)."""
    import ray

    if not getattr(algo, "env_runner_group", None) or algo.env_runner_group.num_remote_env_runners() == 0:
        return []
    return list(algo.env_runner_group.foreach_env_runner(lambda er: ray.get_runtime_context().get_node_id(),
                                                         local_env_runner=False))


def _short(node_id: str) -> str:
    return f"node {node_id[:8]}"


def _count(node_ids: list[str]) -> str:
    if not node_ids:
        return "the driver"
    counts = {n: node_ids.count(n) for n in dict.fromkeys(node_ids)}
    return ", ".join(f"{_short(n)} x{c}" for n, c in counts.items())


def _timing(row: dict) -> str:
    """`` (sample 3.1 s, learn 2.0 s)``: RLlib's smoothed timers of the iteration's parts."""
    if math.isfinite(row["sample_s"]) and math.isfinite(row["learn_s"]):
        return f" (sample {row['sample_s']:.1f} s, learn {row['learn_s']:.1f} s)"
    return ""


def _scalars(prefix: str, d: Any, out: dict[str, float]) -> None:
    if isinstance(d, dict):
        for k, v in d.items():
            _scalars(f"{prefix}/{k}" if prefix else str(k), v, out)
    elif isinstance(d, (int, float)) and not isinstance(d, bool) and math.isfinite(float(d)):
        out[prefix] = float(d)
    elif hasattr(d, "item") and getattr(d, "ndim", 1) == 0:
        v = float(d.item())
        if math.isfinite(v):
            out[prefix] = v


@dataclass
class RLlibRunResult:
    """What :func:`run_rllib` returns."""

    run_dir: Path
    checkpoint: Path
    model_path: Path
    summary: dict[str, Any] = field(default_factory=dict)
    evaluation: list[tuple[str, Any]] = field(default_factory=list)
    paired: list[dict[str, Any]] = field(default_factory=list)


def _write_json(path: Path, data: Any) -> None:
    """Strict JSON; undefined metrics (no finished episode yet) are written as null."""
    from seers_env.jsonio import null_non_finite, write_json

    write_json(str(path), null_non_finite(data)[0])


def export_model(checkpoint: Path, cfg: RLlibConfig, path: Path, trained_with: str = "") -> None:
    """Write the checkpoint's learning policy as a play-scoring model file (``learned:<path>``)."""
    from .rllib_agent import load_rllib_policy
    from .scoring_policy import save_policy

    net, mc = load_rllib_policy(checkpoint)
    save_policy(net, mc, path, trained_with=trained_with)


def run_rllib(cfg: RLlibConfig, out: str = "runs", name: str = "", force: bool = False,
              echo: Callable[[str], None] = print, final_games: int = 0,
              final_specs: tuple[str, ...] = ("heuristic",), eval_seed: int = 1_000_003,
              workers: int = 2, stop_ray: bool = True) -> RLlibRunResult:
    """Train with RLlib, checkpoint, export, optionally evaluate; module docstring.

    Args:
        cfg: the settings.
        out, name: the run folder is ``out/name`` (``name`` default: ``rllib_<time stamp>``).
        force: reuse an existing run folder (its contents are deleted first).
        echo: where the progress lines go (one per iteration).
        final_games: deals of the final duplicate tournament against each of ``final_specs`` (0: none).
        eval_seed, workers: seed and processes of that tournament.
        stop_ray: shut Ray down at the end (keep it for several runs in one process, e.g. tests).

    Raises:
        ValueError: a bad setting or spec (the message names the setting), or an existing run folder
            without ``force``; FileNotFoundError: a missing opponent model. All are checked before anything
            is written or trained.
    """
    from agents.specs import make_agent

    from .errors import naming

    for what, value, low in (("final_games", final_games, 0), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{what}={value!r} is not allowed; use an integer >= {low}")
    specs = [("baseline", cfg.baseline)] if cfg.baseline else []
    specs += [("final_specs", s) for s in (final_specs if final_games else ())]
    for what, spec in specs:
        try:
            make_agent(spec).check_use(cfg.n_players, cfg.artifact_deck)
        except (FileNotFoundError, ValueError) as err:
            raise naming(err, what, spec) from None
    if cfg.opponent and cfg.opponent_seats > 0:  # the frozen model must load and fit the table
        try:
            _frozen_weights(cfg.opponent, cfg.n_players, cfg.artifact_deck)
        except (FileNotFoundError, ValueError) as err:
            raise naming(err, "opponent", cfg.opponent) from None
    run_dir = Path(out) / (name or time.strftime("rllib_%Y%m%d_%H%M%S"))
    if run_dir.exists() and any(run_dir.iterdir()):
        if not force:
            raise ValueError(f"run folder {str(run_dir)!r} already exists; choose another --name or pass --force")
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    command = " ".join(shlex.quote(a) for a in sys.argv) if sys.argv else ""
    _write_json(run_dir / "config.json", {"algo": "rllib", "rllib": asdict(cfg), "command": command,
                                          "final_games": final_games, "final_specs": list(final_specs)})
    import ray

    from seers_env.jsonio import null_non_finite

    t_init = time.perf_counter()
    resources = init_ray(cfg.address, cfg.num_env_runners)
    algo = build_config(cfg).build_algo()
    setup_s = time.perf_counter() - t_init
    runner_nodes = runner_node_ids(algo)
    learner_node = ray.get_runtime_context().get_node_id()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    echo(f"rllib {cfg.algo}: Ray {ray.__version__} ({'embedded' if cfg.address is None else cfg.address}, "
         f"{resources.get('CPU', 0):g} CPUs, {len(nodes)} node(s)), {cfg.num_env_runners} env runner(s) x "
         f"{cfg.envs_per_runner} envs on {_count(runner_nodes)}; learner on {_short(learner_node)}; "
         f"set up in {setup_s:.0f} s")
    writer = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(run_dir / "tb"))
    except ImportError:  # tensorboard is optional
        pass
    checkpoint = run_dir / "checkpoint"
    from .rllib_agent import write_sidecar
    from .scoring_policy import model_config

    seers_config = model_config(cfg.n_players, cfg.artifact_deck)
    t0 = time.perf_counter()
    it, steps, last = 0, 0, {}
    progress = open(run_dir / "progress.jsonl", "w")
    try:
        while True:
            t_it = time.perf_counter()
            result = algo.train()
            it += 1
            er = result.get("env_runners", {})
            new_steps = int(result.get("num_env_steps_sampled_lifetime", er.get("num_env_steps_sampled_lifetime", 0)))
            dt = time.perf_counter() - t_it
            rate = (new_steps - steps) / dt if dt > 0 else 0.0
            steps = new_steps
            elapsed = time.perf_counter() - t0
            score = er.get(f"seers/score_{LEARNING_MODULE}", math.nan)
            timers = result.get("timers", {})
            row = {"iteration": it, "env_steps": steps, "steps_per_s": rate, "elapsed_s": elapsed,
                   "episodes": int(er.get("num_episodes_lifetime", 0)), "score": score,
                   "reward": er.get(f"seers/reward_{LEARNING_MODULE}", math.nan),
                   "baseline_score": er.get("seers/score_baseline", math.nan),
                   "frozen_score": er.get(f"seers/score_{FROZEN_MODULE}", math.nan),
                   "sample_s": float(timers.get("env_runner_sampling_timer", math.nan)),
                   "learn_s": float(timers.get("learner_update_timer", math.nan))}
            scalars: dict[str, float] = {}
            _scalars("", {"env_runners": er, "learners": result.get("learners", {}).get(LEARNING_MODULE, {})},
                     scalars)
            row["learner"] = {k.split("/", 2)[-1]: v for k, v in scalars.items() if k.startswith("learners/")}
            last = row
            progress.write(json.dumps(null_non_finite(row)[0], allow_nan=False) + "\n")
            progress.flush()
            if writer is not None:
                writer.add_scalar("rllib/steps_per_s", rate, steps)
                for k, v in scalars.items():
                    writer.add_scalar(k, v, steps)
            extra = "".join(f"  {lab} {row[key]:+.2f}" for lab, key in
                            (("baseline", "baseline_score"), ("frozen", "frozen_score"))
                            if math.isfinite(row[key]))
            echo(f"iter {it:4d}  env steps {steps:9,d}  {rate:7,.0f} steps/s  episodes {row['episodes']:6,d}  "
                 f"mean episode score {score:+6.2f}{extra}  reward {row['reward']:+.3f}  {elapsed:6.0f} s"
                 f"{_timing(row)}")
            done = ((cfg.iterations and it >= cfg.iterations) or (cfg.env_steps and steps >= cfg.env_steps)
                    or (cfg.minutes and elapsed >= 60 * cfg.minutes))
            if done or (cfg.checkpoint_every and it % cfg.checkpoint_every == 0):
                algo.save_to_path(str(checkpoint.resolve()))
                write_sidecar(checkpoint, seers_config)
            if done:
                break
    finally:
        progress.close()
        if writer is not None:
            writer.close()
        algo.stop()
        if stop_ray:
            ray.shutdown()
    train_s = time.perf_counter() - t0
    model_path = run_dir / "model.pt"
    export_model(checkpoint, cfg, model_path, trained_with=command)
    summary = {"iterations": it, "env_steps": steps, "train_seconds": train_s, "setup_seconds": setup_s,
               "env_steps_per_s": steps / train_s if train_s > 0 else 0.0, "last": last,
               "checkpoint": str(checkpoint), "model": str(model_path), "ray_version": ray.__version__,
               "cluster_cpus": resources.get("CPU", 0), "cluster_nodes": len(nodes), "runner_nodes": runner_nodes,
               "learner_node": learner_node}
    res = RLlibRunResult(run_dir, checkpoint, model_path, summary=summary)
    if final_games:
        from agents.tournament import paired_differences, run_tournament

        from .rllib_agent import rllib_agent

        evals = []
        agent = rllib_agent(checkpoint)
        agent.name = "rllib"
        for spec in final_specs:
            echo(f"final evaluation: rllib vs {cfg.n_players - 1} x {spec}, {final_games} deals x "
                 f"{cfg.n_players} seat rotations ...")
            tour = run_tournament([agent] + [spec] * (cfg.n_players - 1), games=final_games, seed=eval_seed,
                                  workers=workers, n_rounds=cfg.n_rounds, progress=False,
                                  artifact_deck=tuple(cfg.artifact_deck))
            res.evaluation.append((spec, tour))
            res.paired.append(paired_differences(tour, spec)["agents"]["rllib"] | {"baseline": spec})
            evals.append({"baseline": spec, "tournament": tour.to_dict()})
        _write_json(run_dir / "eval.json", evals)
        summary["paired"] = res.paired
    _write_json(run_dir / "summary.json", summary)
    return res


__all__ = ["FROZEN_MODULE", "RLLIB_ALGOS", "RLlibConfig", "RLlibRunResult", "SeatMapping", "build_config",
           "export_model", "init_ray", "run_rllib", "runner_node_ids"]
