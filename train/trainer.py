"""MaskablePPO training through the single-agent wrapper, with a self-play league (issue 5).

One call of :func:`train` makes a run folder::

    runs/<name>/
        config.json        the TrainConfig and the environment's sizes
        model.zip          the final model, policy only (agent spec ``ppo:runs/<name>/model.zip``)
        bc_model.zip       the imitation warm start's cloned policy (policy only)
        checkpoints/       ckpt_<steps>.zip every ``checkpoint_every`` steps, with the optimizer state
                           (resume from any of them); the newest ``keep_checkpoints`` are kept
        snapshots/         snapshot_<steps>.zip (policy only), the frozen learners the league draws ``self``
                           from: the newest ``snapshot_window`` plus one spare
        tb/                TensorBoard logs (``tensorboard --logdir runs/<name>/tb``)
        eval.json          the final duplicate tournament (agents.tournament.TournamentResult JSON)
        evals/             the tournaments run during training, eval_<steps>.json
        summary.json       steps, wall times, speed, imitation results

Disk use with the default 256,256 networks: a policy-only file is 9.5 MB, a checkpoint 28 MB (the Adam
moments double the weights), so a default run (window 5 + 1 snapshots, 3 checkpoints, model, bc_model)
takes about 8 x 9.5 + 3 x 28 = 160 MB (it was 289 MB with full snapshots). ``seers runs`` lists the
runs with their sizes; delete ``checkpoints/`` of a finished run that will not be resumed.

A fresh run starts with an imitation warm start (:mod:`train.imitation`): the policy is first fitted by
behaviour cloning to ``imitation_samples`` decisions of the ``heuristic`` agent (its value head to their
returns), saved as ``bc_model.zip``, and PPO fine-tunes it with a small learning rate and entropy bonus.

Sources: sb3-contrib ``MaskablePPO`` (Huang & Ontanon 2020, invalid action masking), stable-baselines3
vectorised environments and callbacks; the league follows the spirit of AlphaStar's league (Vinyals et al.
2019): baselines plus frozen snapshots of the learner.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from seers_env.integers import is_integer
from seers_env.jsonio import null_non_finite, read_json_file, write_json
from seers_env.seeding import check_seed, child_seed

from .errors import naming
from .league import DEFAULT_MIX, LeagueSampler, list_snapshots, parse_mix

#: Baselines the learned agent is evaluated against.
DEFAULT_EVAL_SPECS = ("random", "greedy", "heuristic")
CHECKPOINT_PREFIX = "ckpt_"
#: Streams of a run's seed besides the training environments (``train.sb3_vec_env.ENV_STREAM``, 0) and
#: PPO's own seed (the run's seed): ``child_seed(seed, stream, ...)`` (:func:`seers_env.seeding.child_seed`,
#: a path in the seed's ``SeedSequence`` spawn tree), so no two share numbers, within a run or across runs
#: of neighbouring seeds.
RESUME_STREAM, EVAL_STREAM, FINAL_EVAL_STREAM, DEMO_STREAM, PRETRAIN_STREAM = 1, 2, 3, 4, 5


@dataclass
class TrainConfig:
    """Everything a training run depends on (saved as ``config.json``).

    Attributes:
        n_players: players at the table, 2..5; the learner takes a random seat each game.
        n_rounds: rounds per game (an episode is one game).
        artifacts: use the default artifact deck (``False``: the variant without artifacts).
        total_timesteps: learner decisions (environment steps) of the whole run, counted across resumes.
        n_envs: environments stepped in parallel.
        vec_env: ``"subproc"`` (one process per environment, on separate cores) or ``"dummy"`` (one
            process, environments stepped in turn).
        opponents: the league's opponent mix, e.g. ``"random:1,greedy:1,heuristic:2,self:2"``.
        net_arch: hidden layer sizes of the policy and value MLPs (separate networks).
        learning_rate, n_steps, batch_size, n_epochs, gamma, gae_lambda, ent_coef, clip_range: PPO
            hyperparameters (``n_steps`` is per environment). The defaults (``learning_rate`` 1e-4,
            ``ent_coef`` 0.001) are fine-tuning settings for a policy warm-started by imitation; from
            scratch (``imitation_samples=0``) 3e-4 and 0.01 learn faster.
        imitation_samples: decisions (environment steps) of ``imitation_teacher`` playing every seat to
            clone before PPO (behaviour cloning warm start, :mod:`train.imitation`); 0 disables it. Only a
            fresh run does it, never a resumed one.
        imitation_epochs: passes over them; imitation_learning_rate: Adam learning rate of the cloning
            (minibatches of ``batch_size``).
        imitation_teacher: agent spec of the teacher, one of ``train.imitation.TEACHERS``.
        reward_scale: rewards (round scores, in points) are multiplied by this before learning.
        snapshot_every: steps between self-play snapshots; ``snapshot_window`` newest ones are drawn from.
        checkpoint_every: steps between checkpoints; ``keep_checkpoints`` newest ones are kept.
        eval_every: steps between evaluations during training (0: none); ``eval_games`` deals each.
        final_eval_games: deals of the final duplicate tournament (each deal played once per seat rotation).
        eval_specs: baselines of the evaluation.
        seed: seeds the environments, the league, PPO (torch) and the evaluation deals.
        workers: processes of the evaluation tournaments.
        torch_threads: torch threads of the learner process.
        out: folder that holds run folders; ``name``: the run folder's name (default: time stamp).
    """

    n_players: int = 4
    n_rounds: int = 4
    artifacts: bool = True
    total_timesteps: int = 100_000
    n_envs: int = 8
    vec_env: str = "dummy"
    opponents: str = DEFAULT_MIX
    net_arch: tuple[int, ...] = (256, 256)
    learning_rate: float = 1e-4
    n_steps: int = 256
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.001
    clip_range: float = 0.2
    reward_scale: float = 0.1
    imitation_samples: int = 60_000
    imitation_epochs: int = 6
    imitation_learning_rate: float = 1e-3
    imitation_teacher: str = "heuristic"
    snapshot_every: int = 20_000
    snapshot_window: int = 5
    checkpoint_every: int = 20_000
    keep_checkpoints: int = 3
    eval_every: int = 40_000
    eval_games: int = 10
    final_eval_games: int = 100
    eval_specs: tuple[str, ...] = DEFAULT_EVAL_SPECS
    seed: int = 0
    workers: int = 2
    torch_threads: int = 1
    out: str = "runs"
    name: str = ""

    def __post_init__(self) -> None:
        self.net_arch = tuple(int(x) for x in self.net_arch)
        self.eval_specs = tuple(self.eval_specs)
        if self.n_players not in (2, 3, 4, 5):
            raise ValueError(f"n_players={self.n_players!r} is not allowed; choose one of 2, 3, 4, 5")
        self.seed = check_seed(self.seed)  # ValueError naming the field
        for key in ("n_rounds", "total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs",
                    "snapshot_every", "snapshot_window", "checkpoint_every", "keep_checkpoints", "workers",
                    "torch_threads", "final_eval_games"):
            value = getattr(self, key)
            if not is_integer(value) or value < 1:
                raise ValueError(f"{key}={value!r} must be an integer >= 1")
        for key in ("eval_every", "eval_games", "imitation_samples"):
            if getattr(self, key) < 0:
                raise ValueError(f"{key}={getattr(self, key)!r} must be >= 0")
        from agents.tournament import MAX_DEALS

        for key in ("eval_games", "final_eval_games"):  # tournaments run during and after training
            if getattr(self, key) > MAX_DEALS:
                raise ValueError(f"{key}={getattr(self, key)!r} must be <= {MAX_DEALS:,} (deals of a tournament)")
        self._check_memory()
        if self.vec_env not in ("subproc", "dummy"):
            raise ValueError(f"vec_env={self.vec_env!r} is not allowed; choose 'subproc' or 'dummy'")
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch={self.net_arch!r} must be one or more layer sizes >= 1")
        if not 0 < self.gamma <= 1 or not 0 <= self.gae_lambda <= 1:
            raise ValueError(f"gamma={self.gamma!r} must be in (0, 1], gae_lambda={self.gae_lambda!r} in [0, 1]")
        if self.learning_rate <= 0 or self.reward_scale <= 0:
            raise ValueError(f"learning_rate={self.learning_rate!r} and reward_scale={self.reward_scale!r} "
                             f"must be > 0")
        if not is_integer(self.imitation_epochs) or self.imitation_epochs < 1:
            raise ValueError(f"imitation_epochs={self.imitation_epochs!r} must be an integer >= 1")
        if not self.imitation_learning_rate > 0 or self.ent_coef < 0:
            raise ValueError(f"imitation_learning_rate={self.imitation_learning_rate!r} must be > 0 and "
                             f"ent_coef={self.ent_coef!r} >= 0")
        from .imitation import TEACHERS

        if self.imitation_teacher not in TEACHERS:
            raise ValueError(f"imitation_teacher={self.imitation_teacher!r} is not allowed; choose one of "
                             f"{', '.join(TEACHERS)}")
        try:
            parse_mix(self.opponents)  # raises ValueError with the valid specs
        except ValueError as err:
            raise naming(err, "opponents", self.opponents) from None
        if not self.eval_specs:
            raise ValueError("eval_specs is empty; give at least one baseline, e.g. random,greedy,heuristic")
        from agents import make_agent

        from .ppo_agent import check_ppo_spec

        for spec in self.eval_specs:  # checked now, not after the whole training budget
            try:
                if spec.startswith("ppo:"):
                    check_ppo_spec(spec, self.n_players, self.artifact_deck)
                else:
                    make_agent(spec).check_use(self.n_players, self.artifact_deck)
            except (FileNotFoundError, ValueError) as err:
                raise naming(err, "eval_specs", spec) from None
        for spec in parse_mix(self.opponents):  # a learned opponent must fit the table before any work
            if spec.startswith("ppo:"):
                try:
                    check_ppo_spec(spec, self.n_players, self.artifact_deck)
                except (FileNotFoundError, ValueError) as err:
                    raise naming(err, "opponents", spec) from None

    def _check_memory(self) -> None:
        """Refuse a rollout buffer (``n_steps`` x ``n_envs`` transitions: observation, action mask and a few
        numbers each) or an imitation set larger than this machine's memory, before anything is written.

        Raises:
            ValueError: naming the fields and the bytes they need.
        """
        from seers_env.actions import N_ACTIONS
        from seers_env.observation import OBS_DIM

        try:
            memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):  # not POSIX: not checked
            return
        per_step = 4 * (OBS_DIM + N_ACTIONS + 8)
        for what, steps in ((f"n_steps={self.n_steps} x n_envs={self.n_envs}", self.n_steps * self.n_envs),
                            (f"imitation_samples={self.imitation_samples}", self.imitation_samples)):
            if steps * per_step > memory:
                raise ValueError(f"{what} transitions need {steps * per_step:,} bytes of memory ({per_step:,} "
                                 f"each: observation and action mask), more than this machine's {memory:,}")
        from .model_files import _net_arch_bytes

        arch = list(self.net_arch)
        weights = 4 * _net_arch_bytes({"net_arch": {"pi": arch, "vf": arch}}, "net_arch")  # + grads, Adam's two
        if weights > memory:
            raise ValueError(f"net_arch={arch!r}: the policy and value networks, their gradients and Adam's "
                             f"moments need {weights:,} bytes of memory, more than this machine's {memory:,}")

    def model_config(self):
        """The :class:`train.model_config.ModelConfig` of the models this run writes."""
        from .model_config import ModelConfig

        return ModelConfig("maskable_ppo", n_players=self.n_players, artifact_deck=self.artifact_deck)

    @property
    def artifact_deck(self) -> tuple[str, ...]:
        from seers_env import DEFAULT_ARTIFACT_DECK

        return tuple(DEFAULT_ARTIFACT_DECK) if self.artifacts else ()

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["net_arch"] = list(self.net_arch)
        d["eval_specs"] = list(self.eval_specs)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        """Build from :meth:`to_dict` output; unknown keys are ignored (configs of later versions)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


class EnvFactory:
    """Picklable maker of one training environment (for DummyVecEnv and SubprocVecEnv workers).

    The environment is :class:`seers_env.wrappers.SingleAgentSeersEnv` with the league as
    ``opponent_sampler``, wrapped in ``Monitor`` (episode score statistics in raw points) and a reward
    scaling.
    """

    def __init__(self, config: TrainConfig, snapshot_dir: str | None):
        self.config = config
        self.snapshot_dir = snapshot_dir

    def __call__(self):
        import gymnasium
        from stable_baselines3.common.monitor import Monitor

        from seers_env.wrappers import SingleAgentSeersEnv

        c = self.config
        sampler = LeagueSampler(c.opponents, c.n_players, self.snapshot_dir, c.snapshot_window)
        env = SingleAgentSeersEnv(n_players=c.n_players, n_rounds=c.n_rounds, artifact_deck=c.artifact_deck,
                                  reward_mode="score", learner_seat="random", opponent_sampler=sampler)
        env = Monitor(env)
        return gymnasium.wrappers.TransformReward(env, functools.partial(operator.mul, c.reward_scale))


def make_vec_env(config: TrainConfig, snapshot_dir: str | None = None, seed: int | None = None):
    """The vectorised training environments (``config.n_envs`` of them), seeded with ``seed`` (default
    ``config.seed``): environment ``i`` gets :func:`seers_env.seeding.child_seed` ``(seed, ENV_STREAM, i)``,
    also when PPO seeds them again (:mod:`train.sb3_vec_env`), so runs of different seeds share no
    environment's games."""
    from .sb3_vec_env import SpawnedSeedsDummyVecEnv, SpawnedSeedsSubprocVecEnv

    fns = [EnvFactory(config, snapshot_dir) for _ in range(config.n_envs)]
    venv = SpawnedSeedsSubprocVecEnv(fns) if config.vec_env == "subproc" else SpawnedSeedsDummyVecEnv(fns)
    venv.seed(config.seed if seed is None else seed)
    return venv


def evaluate(model_path: str | os.PathLike, config: TrainConfig, games: int, seed: int,
             workers: int | None = None, progress: bool = False):
    """Duplicate tournament of the model against the baselines (``agents.tournament.run_tournament``).

    When ``1 + len(eval_specs) == n_players`` all sit at one table (the default: learned, random, greedy,
    heuristic at 4 players); otherwise the learned agent meets each baseline on its own, against
    ``n_players - 1`` copies of it.

    Args:
        model_path: the model ``.zip``.
        config: gives ``n_players``, ``n_rounds``, ``eval_specs``, ``workers``.
        games: deals per tournament (each played once per seat rotation).
        seed: seed of the deals.

    Returns:
        ``list[(label, TournamentResult)]``; the learned agent's spec is ``"ppo:<model_path>"``.
    """
    from agents.tournament import run_tournament

    me = f"ppo:{model_path}"
    baselines = list(config.eval_specs)
    if 1 + len(baselines) == config.n_players:
        tables = [("all", [me, *baselines])]
    else:
        tables = [(b, [me] + [b] * (config.n_players - 1)) for b in baselines]
    out = []
    for label, specs in tables:
        result = run_tournament(specs, games=games, n_players=config.n_players, seed=seed,
                                workers=workers or config.workers, n_rounds=config.n_rounds, progress=progress,
                                artifact_deck=config.artifact_deck)
        out.append((label, result))
    return out


def _short(label: str) -> str:
    return "ppo" if label.startswith("ppo:") else label


def make_callback(config: TrainConfig, run_dir: Path, timing: dict[str, float]):
    """A ``BaseCallback`` that saves snapshots and checkpoints (pruning old ones) and evaluates.

    Evaluation results go to TensorBoard (``eval/<agent>_mean_score``, ``eval/<agent>_win_rate``) and to
    ``evals/eval_<steps>.json``; their wall time is added to ``timing["eval_s"]`` and the learned agent's
    mean scores are written to ``timing["last_eval"]`` (text, shown by the progress display).
    """
    from stable_baselines3.common.callbacks import BaseCallback

    class _Callback(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_snapshot = self.next_checkpoint = self.next_eval = 0

        def _init_callback(self) -> None:
            n = self.model.num_timesteps
            self.next_snapshot = (n // config.snapshot_every + 1) * config.snapshot_every
            self.next_checkpoint = (n // config.checkpoint_every + 1) * config.checkpoint_every
            self.next_eval = (n // config.eval_every + 1) * config.eval_every if config.eval_every else -1
            if not list_snapshots(run_dir / "snapshots"):
                self._snapshot()  # the initial policy, so that "self" has an opponent from the start

        def _snapshot(self) -> None:
            path = run_dir / "snapshots" / f"snapshot_{self.model.num_timesteps}.zip"
            save_model(self.model, path, config, policy_only=True)
            # one spare beyond the window: an environment may have drawn it just before this save
            for old in list_snapshots(run_dir / "snapshots")[:-(config.snapshot_window + 1)]:
                os.remove(old)

        def _checkpoint(self) -> None:
            save_model(self.model, run_dir / "checkpoints" / f"{CHECKPOINT_PREFIX}{self.model.num_timesteps}.zip",
                       config)
            for old in list_checkpoints(run_dir)[:-config.keep_checkpoints]:
                os.remove(old)

        def _evaluate(self) -> None:
            start = time.perf_counter()
            steps = self.model.num_timesteps
            path = run_dir / "evals" / "current.zip"
            save_model(self.model, path, config, policy_only=True)
            results = evaluate(path, config, config.eval_games, seed=child_seed(config.seed, EVAL_STREAM, bits=32))
            for label, result in results:
                result.to_json(run_dir / "evals" / f"eval_{steps}_{label}.json")
                for agent, s in result.agents.items():
                    tag = _short(agent) if label == "all" else f"{label}/{_short(agent)}"
                    self.logger.record(f"eval/{tag}_mean_score", float(s.mean_score))
                    self.logger.record(f"eval/{tag}_win_rate", float(s.win_rate))
            os.remove(path)
            # the learned agent's mean score in each table, for the progress display
            timing["last_eval"] = f"at {steps:,}: " + ", ".join(
                f"{'ppo' if label == 'all' else 'vs ' + label} {s.mean_score:+.2f}"
                for label, result in results for a, s in result.agents.items() if a.startswith("ppo:"))
            timing["eval_s"] += time.perf_counter() - start
            self.logger.dump(steps)

        def _on_step(self) -> bool:
            n = self.model.num_timesteps
            if n >= self.next_snapshot:
                self._snapshot()
                self.next_snapshot += config.snapshot_every
            if n >= self.next_checkpoint:
                self._checkpoint()
                self.next_checkpoint += config.checkpoint_every
            if self.next_eval > 0 and n >= self.next_eval:
                self._evaluate()
                self.next_eval += config.eval_every
            return True

    return _Callback()


def warm_start(model, config: TrainConfig, run_dir: Path, progress: bool = True,
               echo: Callable[[str], None] = print) -> dict:
    """Imitation warm start of a fresh ``model`` (in place): collect, clone, save, evaluate.

    Collects ``config.imitation_samples`` decisions of ``config.imitation_teacher`` in every seat
    (:func:`train.imitation.collect_demonstrations`, seeded from ``config.seed``), fits the policy and value
    head to them (:func:`train.imitation.pretrain`), saves the cloned model as ``bc_model.zip``, logs
    ``imitation/*`` per epoch to TensorBoard (``tb/imitation``) and, when ``config.eval_every > 0``, plays
    ``config.eval_games`` evaluation deals with it (``evals/eval_0_bc_<label>.json``).

    Returns:
        The ``summary.json`` entry: teacher, samples, games, epochs, collect_s, pretrain_s, eval_s (wall
        seconds), the per-epoch loss / cross_entropy / value_mse / accuracy / choice_accuracy lists and
        the final ``accuracy`` (train accuracy of the last epoch, all rows) and ``choice_accuracy``
        (rows with two or more legal actions), and the short evaluation's mean scores.
    """
    from stable_baselines3.common.logger import configure

    from .imitation import collect_demonstrations, pretrain

    c = config
    n = c.imitation_samples
    echo(f"Imitation warm start: collecting {n:,} decisions of {c.imitation_teacher} self-play ...")
    next_report = [n // 4]

    def collected(k: int) -> None:
        if progress and k >= next_report[0]:
            echo(f"  {min(k, n):,} / {n:,} decisions")
            next_report[0] += n // 4

    demos = collect_demonstrations(c.n_players, n, seed=child_seed(c.seed, DEMO_STREAM, bits=32),
                                   artifacts=c.artifacts, n_rounds=c.n_rounds,
                                   teacher=c.imitation_teacher, reward_scale=c.reward_scale, gamma=c.gamma,
                                   progress=collected)
    echo(f"  {len(demos):,} decisions from {demos.games:,} games in {demos.seconds:.0f} s")
    logger = configure(str(run_dir / "tb" / "imitation"), ["tensorboard"])

    def epoch_done(epoch: int, stats: dict) -> None:
        for key, value in stats.items():
            logger.record(f"imitation/{key}", value)
        logger.dump(epoch + 1)
        if progress:
            echo(f"  epoch {epoch + 1}/{c.imitation_epochs}: cross-entropy {stats['cross_entropy']:.3f}, "
                 f"value MSE {stats['value_mse']:.3f}, train accuracy {stats['accuracy']:.3f} "
                 f"({stats['choice_accuracy']:.3f} where there is a choice)")

    result = pretrain(model, demos, epochs=c.imitation_epochs, batch_size=c.batch_size,
                      learning_rate=c.imitation_learning_rate, seed=child_seed(c.seed, PRETRAIN_STREAM, bits=32),
                      progress=epoch_done)
    logger.close()
    bc_path = run_dir / "bc_model.zip"
    save_model(model, bc_path, c, policy_only=True)
    info = {"teacher": c.imitation_teacher, "samples": len(demos), "games": demos.games,
            "collect_s": demos.seconds, **result.to_dict(), "pretrain_s": result.seconds,
            "final_accuracy": result.accuracy[-1], "final_choice_accuracy": result.choice_accuracy[-1],
            "model": str(bc_path), "eval_s": 0.0, "eval_mean_scores": None}
    del info["seconds"]
    echo(f"  cloned in {result.seconds:.0f} s: train accuracy {result.accuracy[-1]:.3f}; saved {bc_path}")
    if c.eval_every > 0 and c.eval_games > 0:
        t0 = time.perf_counter()
        scores = {}
        for label, tournament in evaluate(bc_path, c, c.eval_games, seed=child_seed(c.seed, EVAL_STREAM, bits=32)):
            tournament.to_json(run_dir / "evals" / f"eval_0_bc_{label}.json")
            for agent, s in tournament.agents.items():
                scores[_short(agent) if label == "all" else f"{label}/{_short(agent)}"] = float(s.mean_score)
        info["eval_s"] = time.perf_counter() - t0
        info["eval_mean_scores"] = scores
        echo("  cloned policy, " + ", ".join(f"{k} {v:+.2f}" for k, v in scores.items())
             + f" (mean scores, {c.eval_games} deals)")
    return info


def save_model(model, path: str | os.PathLike, config: TrainConfig, policy_only: bool = False) -> None:
    """``model.save(path)`` with the run's :class:`train.model_config.ModelConfig` inside the file.

    ``policy_only``: leave out the Adam optimizer's moment estimates (two floats per weight), about a
    third of the size (9.5 MB instead of 28 MB with the default 256,256 networks). The file is still a
    stable-baselines3 model that :func:`train.policy.load_model` reads (its optimizer then starts fresh), so it plays
    as an agent (``ppo:<file>``) and as a snapshot opponent; only checkpoints, which resume training,
    keep the optimizer state.
    """
    from .model_config import save_model_config

    if policy_only:
        optimizer = model.policy.optimizer
        state = optimizer.state
        optimizer.state = collections.defaultdict(dict)  # what a fresh torch optimizer holds
        try:
            model.save(path)
        finally:
            optimizer.state = state
    else:
        model.save(path)
    save_model_config(path, config.model_config())


def list_checkpoints(run_dir: str | os.PathLike) -> list[str]:
    """Checkpoint files of a run (``checkpoints/ckpt_<steps>.zip``), oldest first."""
    folder = Path(run_dir) / "checkpoints"
    if not folder.is_dir():
        return []
    found = []
    for p in folder.iterdir():
        if p.name.startswith(CHECKPOINT_PREFIX) and p.suffix == ".zip":
            try:
                found.append((int(p.stem[len(CHECKPOINT_PREFIX):]), str(p)))
            except ValueError:
                continue
    return [p for _, p in sorted(found)]


@dataclass
class TrainResult:
    """What :func:`train` did.

    Attributes:
        run_dir: the run folder; model_path: its ``model.zip``; eval_path: ``eval.json`` (or ``None``).
        timesteps: the model's step count at the end (across resumes); steps_this_run: steps added now.
        train_s: wall seconds of learning, evaluations during training excluded; eval_s: of those
            evaluations; final_eval_s: of the final tournament.
        steps_per_s: ``steps_this_run / train_s`` (environment steps, i.e. learner decisions, per second).
        evaluation: ``list[(label, TournamentResult)]`` of the final evaluation.
        imitation: what the imitation warm start did (``summary.json``'s ``"imitation"``), or ``None``.
    """

    run_dir: Path
    model_path: Path
    eval_path: Path | None
    timesteps: int
    steps_this_run: int
    train_s: float
    eval_s: float
    final_eval_s: float
    steps_per_s: float
    evaluation: list = field(default_factory=list)
    imitation: dict | None = None


def resolve_resume(checkpoint: str | os.PathLike) -> tuple[Path, TrainConfig]:
    """Run folder and config of a checkpoint ``runs/<name>/checkpoints/ckpt_<steps>.zip``.

    Raises:
        FileNotFoundError: no such checkpoint, or its run folder has no ``config.json``.
        ValueError: that ``config.json`` is not JSON or has no ``"config"`` object (the message names it).
    """
    ckpt = Path(checkpoint)
    if not ckpt.is_file():
        raise FileNotFoundError(f"no checkpoint at {str(ckpt)!r}; give runs/<run>/checkpoints/ckpt_<steps>.zip")
    run_dir = ckpt.parent.parent  # as given (relative paths keep agent labels short)
    cfg_path = run_dir / "config.json"
    if not cfg_path.is_file():
        raise FileNotFoundError(f"checkpoint {str(ckpt)!r} is not inside a run folder: {str(cfg_path)!r} is "
                                f"missing")
    raw = read_json_file(cfg_path, "run configuration", strict=False)
    if not isinstance(raw, dict) or not isinstance(raw.get("config"), dict):
        raise ValueError(f"run configuration {str(cfg_path)!r} has no \"config\" object; it was not written by "
                         f"seers train --algo maskable-ppo")
    return run_dir, TrainConfig.from_dict(raw["config"])


def _fit_80(echo: Callable[[str], None]) -> Callable[[str], None]:
    """``echo`` with each line wrapped at 80 columns (continuations indented 2 more than the line)."""
    import textwrap

    def fit(text: str) -> None:
        for line in str(text).split("\n"):
            indent = " " * (len(line) - len(line.lstrip(" ")))
            echo(textwrap.fill(line, 80, subsequent_indent=indent + "  ") if len(line) > 80 else line)

    return fit


def train(config: TrainConfig, resume: str | os.PathLike | None = None, progress: bool = True,
          final_eval: bool = True, echo: Callable[[str], None] = print, force: bool = False) -> TrainResult:
    """Train a MaskablePPO agent, save it in a run folder and evaluate it against the baselines.

    Args:
        config: the run's settings (with ``resume``, the checkpoint's run folder is reused and
            ``config.total_timesteps`` is the total to reach, counted from the run's start).
        resume: a checkpoint ``.zip`` to continue from (its step count is kept:
            ``learn(..., reset_num_timesteps=False)``).
        progress: show progress (:mod:`train.progress`: a bar on a terminal, a plain line every 30 s
            otherwise) and the tournaments'.
        final_eval: run the final duplicate tournament and write ``eval.json``.
        echo: prints one line of status.
        force: start afresh in a run folder that exists already (a failed or unwanted run of the same
            name): its contents are deleted first.

    Returns:
        :class:`TrainResult`.

    Raises:
        ValueError: the checkpoint already has ``total_timesteps`` steps or more; a run folder that exists
            already (without resume or ``force``; the message names its newest checkpoint).
        FileNotFoundError: a missing checkpoint.
        train.model_files.ModelFileError: (a ``ValueError``) a checkpoint that is damaged, or holds a pickle
            the safe reader refuses (:func:`train.policy.load_model`: nothing from it is run).
    """
    import torch as th
    from sb3_contrib import MaskablePPO

    from seers_env.actions import N_ACTIONS

    echo = _fit_80(echo)
    from seers_env.observation import OBS_DIM

    th.set_num_threads(config.torch_threads)
    if resume is not None:
        run_dir, _ = resolve_resume(resume)
        # read and checked before anything is written: a damaged or foreign checkpoint leaves the run as it was
        from .policy import load_model
        from .ppo_agent import check_model_file

        # runs nothing from it; the rollout buffer is the run's (the file's sizes are not trusted)
        model = load_model(resume, device="cpu", tensorboard_log=str(run_dir / "tb"), n_steps=config.n_steps,
                           n_envs=config.n_envs)
        check_model_file(model, resume, config.n_players, config.artifact_deck)
        start_steps = int(model.num_timesteps)
        remaining = config.total_timesteps - start_steps
        if remaining <= 0:
            raise ValueError(f"checkpoint {str(resume)!r} has {start_steps} steps already; ask for more "
                             f"than that with --steps")
        summary = (read_json_file(run_dir / "summary.json", "run summary", strict=False)
                   if (run_dir / "summary.json").is_file() else None)
    else:
        name = config.name or f"{time.strftime('%Y%m%d-%H%M%S')}-{config.n_players}p"
        run_dir = Path(config.out) / name
        if (run_dir / "config.json").exists() and not force:
            ckpts = list_checkpoints(run_dir)
            how = (f"resume from its newest checkpoint with --resume {ckpts[-1]}, " if ckpts else "")
            raise ValueError(f"run folder {str(run_dir)!r} exists already; {how}start it afresh with --force "
                             f"(deletes its contents), or choose another --name")
        if force and run_dir.is_dir():
            import shutil

            shutil.rmtree(run_dir)
    for sub in ("checkpoints", "snapshots", "tb", "evals"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    write_json(run_dir / "config.json", {"config": config.to_dict(), "n_actions": N_ACTIONS, "obs_dim": OBS_DIM,
                                         "model_config": config.model_config().to_dict()}, indent=2)

    timing = {"eval_s": 0.0}
    imitation = None
    if resume is not None and isinstance(summary, dict):
        imitation = summary.get("imitation")
    snapshot_dir = str(run_dir / "snapshots")
    if resume is not None:
        # a seed of its own for (seed, step count), so a resumed run does not replay the first games, nor
        # another seed's (a sum such as seed + steps would)
        resumed_seed = child_seed(config.seed, RESUME_STREAM, start_steps, bits=32)
        venv = make_vec_env(config, snapshot_dir, seed=resumed_seed)
        model.set_env(venv)
        model.set_random_seed(resumed_seed)
        echo(f"Resuming {run_dir} at step {start_steps:,} -> {config.total_timesteps:,}")
    else:
        venv = make_vec_env(config, snapshot_dir)
        start_steps, remaining = 0, config.total_timesteps
        model = MaskablePPO(
            "MlpPolicy", venv, learning_rate=config.learning_rate, n_steps=config.n_steps,
            batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
            gae_lambda=config.gae_lambda, ent_coef=config.ent_coef, clip_range=config.clip_range,
            policy_kwargs={"net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)}},
            tensorboard_log=str(run_dir / "tb"), seed=config.seed, device="cpu", verbose=0)
        echo(f"Training {run_dir}: {config.total_timesteps:,} steps, {config.n_players} players, "
             f"opponents {config.opponents}, {config.n_envs} {config.vec_env} envs")
        if config.imitation_samples > 0:
            imitation = warm_start(model, config, run_dir, progress=progress, echo=echo)
    callback = make_callback(config, run_dir, timing)
    if progress:  # a bar on a terminal, plain lines in a log file (train.progress)
        from .progress import make_progress_callback

        callback = [callback, make_progress_callback(config.total_timesteps, start_steps, timing,
                                                     echo=echo)]
    start = time.perf_counter()
    try:
        model.learn(remaining, callback=callback, reset_num_timesteps=resume is None, tb_log_name="ppo",
                    progress_bar=False)
    finally:
        venv.close()
    wall = time.perf_counter() - start
    train_s = wall - timing["eval_s"]
    steps_this_run = int(model.num_timesteps) - start_steps
    model_path = run_dir / "model.zip"
    save_model(model, model_path, config, policy_only=True)
    callback_ckpt = run_dir / "checkpoints" / f"{CHECKPOINT_PREFIX}{model.num_timesteps}.zip"
    if not callback_ckpt.exists():
        save_model(model, callback_ckpt, config)
    echo(f"Trained {steps_this_run:,} steps in {train_s:.0f} s: {steps_this_run / train_s:,.0f} environment "
         f"steps/s of training")
    echo("  (PPO updates included, evaluations excluded); model saved to " + str(model_path))

    evaluation, eval_path, final_eval_s = [], None, 0.0
    if final_eval:
        t0 = time.perf_counter()
        evaluation = evaluate(model_path, config, config.final_eval_games,
                              seed=child_seed(config.seed, FINAL_EVAL_STREAM, bits=32),
                              progress=progress)
        final_eval_s = time.perf_counter() - t0
        eval_path = run_dir / "eval.json"
        if len(evaluation) == 1:
            evaluation[0][1].to_json(eval_path)
        else:
            for label, result in evaluation:
                result.to_json(run_dir / f"eval_{label}.json")
            write_json(eval_path, {label: r.to_dict() for label, r in evaluation})
    summary = {"timesteps": int(model.num_timesteps), "steps_this_run": steps_this_run, "train_s": train_s,
               "eval_s": timing["eval_s"], "final_eval_s": final_eval_s,
               "steps_per_s": steps_this_run / max(train_s, 1e-9), "imitation": imitation}
    summary, undefined = null_non_finite(summary)  # e.g. a diverged imitation loss: null, with the reason
    if undefined:
        summary["undefined"] = {place: "NaN or infinite" for place in undefined}
    write_json(run_dir / "summary.json", summary, indent=2)
    return TrainResult(run_dir=run_dir, model_path=model_path, eval_path=eval_path,
                       timesteps=int(model.num_timesteps), steps_this_run=steps_this_run, train_s=train_s,
                       eval_s=timing["eval_s"], final_eval_s=final_eval_s,
                       steps_per_s=summary["steps_per_s"], evaluation=evaluation, imitation=imitation)
