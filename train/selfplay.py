"""Self-play PPO for the play-scoring policy: one readable file, in the style of CleanRL.

Algorithm (PPO: Schulman et al. 2017, with GAE: Schulman et al. 2016; all-seat self-play as in the
Big Two and SCOUT PPO agents; a privileged critic as in PerfectDou, Yang et al. NeurIPS 2022):

1. **Warm start** (:func:`imitate`): a teacher (``heuristic`` by default, or ``ismcts:<budget>`` for
   expert iteration, Anthony et al. NeurIPS 2017) plays games; the policy is trained by cross-entropy to
   pick the teacher's play among the legal plays, and the critic to predict the round's reward.
2. **Self-play rollouts** (:class:`Actor`): ``games_in_flight`` games are played in lockstep; at each
   step the decisions of all games are scored in *one* batched forward pass. Every seat is played by the
   current policy (optionally a fraction of seats by baseline agents), and every seat's decision with
   more than one legal play is a training sample, so a game gives n-fold data. Decisions with a single
   legal play are applied without the network. A rollout plays every game to the end of its current
   round. ``actors`` worker processes each run their own games with a copy of the weights. The games
   run on the compiled kernel with compiled features (:mod:`seers_env.vector_features`), the same
   rollouts as on Python ``Game`` objects.
3. **Reward**: at the end of each round, each seat receives its round score minus the mean round score
   of the others (rules section 5), / 10, on its last decision of the round. Rounds are independent
   under this reward, so a round is an episode for GAE (``gamma``, ``gae_lambda``).
4. **Update** (:func:`ppo_update`): clipped PPO over the rollout, ``epochs`` passes of ``minibatch``
   decisions, log-probabilities by a softmax over each decision's legal plays
   (:func:`~train.scoring_policy.segment_log_softmax`).

Every hyperparameter is a field of :class:`SelfPlayConfig` and a flag of ``seers train``.

**Games.** The learner serves Seers Catalog, SCOUT, Seals and Haggis (``SelfPlayConfig.game``); what is a game's
own (its table, features, privileged critic input, heuristic, actor and warm start) comes from its adapter
(:mod:`train.game_adapters`). Seers Catalog's path is the code of this module; SCOUT's actor plays on the
compiled SCOUT kernel (:class:`train.scout_actor.ScoutActor`), Seals' and Haggis' on their Python engines
(:class:`train.engine_actor.EngineActor`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

import numpy as np
import torch

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from seers_env import play_eval, vector_features
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.engine.kernel import MAX_SEATS, OUT_GAME_OVER, OUT_ROUND, S_OUTCOME, KernelGames
from seers_env.features import encode_state
from seers_env.game import Game, GameConfig
from seers_env.integers import is_integer
from seers_env.vector import kernel_play_features
from seers_env.view import SeatView

from .scoring_policy import (NetConfig, PlayScoringNet, hidden_hands, model_config, play_rows,
                             sample_index, segment_log_softmax)

REWARD_SCALE = 10.0  # points per reward unit


def round_reward(scores, seat: int, scale: float, others_weight: float = 1.0) -> float:
    """A seat's reward for one round: its score minus ``others_weight`` times the mean of the others'
    scores (rules section 5 ranks seats by score, so 1.0 is the zero-sum advantage; 0.0 rewards the
    seat's own points only, without credit for points it denies), divided by ``scale`` (points per
    reward unit). ``scores``: one number per seat (at least 2)."""
    n = len(scores)
    own = float(scores[seat])
    return (own - others_weight * (float(sum(scores)) - own) / (n - 1)) / scale


DEFAULT_DECISIONS = 420_000
"""The default PPO budget of ``seers train``, in training decisions (about 4 to 5 minutes on 2 idle cores;
the learner's PPO update, not the actors, sets the pace)."""


#: ``(field, largest value, why)`` of :class:`SelfPlayConfig`'s sizes: each is a count of processes,
#: threads or allocated games and weights, and a larger one cannot run (too many processes, memory).
SIZE_LIMITS = (
    ("actors", 256, "rollout processes, each with its own games and a copy of the network"),
    ("threads", 1024, "torch threads of the learner"),
    ("games_in_flight", 65_536, "games of one actor, about 40 kB each"),
    ("hidden", 16_384, "the network holds hidden x hidden / 2 weights and more"),
    ("embed", 16_384, "the network holds embed x hidden weights"),
    ("imitation_samples", 10_000_000, "teacher decisions held in memory, a few kB each"),
)


@dataclass
class SelfPlayConfig:
    """Hyperparameters of :func:`train_selfplay` (each is a ``seers train`` flag of the same name).

    Raises ``ValueError`` on construction for a bad value (the message names the field and the range).

    Attributes:
        n_players: players per game (2..5).
        artifact_deck: Seers Catalog's artifact kind keys; ``()`` for the variant without artifacts.
            Other games have none: for them the default deck stands for ``()`` and becomes it.
        seed: seed of everything (games, sampling, network initialisation).
        minutes: wall-clock budget of the PPO phase, in minutes (``None``: use ``decisions``); the
            result then depends on the machine's speed and load.
        decisions: budget of the PPO phase in training decisions (decisions with more than one legal
            play, taken by the policy's seats): the amount of training does not depend on the
            machine's speed; runs of one seed stay close but are not bit-identical (they drift
            apart after the first rollouts; cause not yet pinned down).
            When neither budget is given, ``DEFAULT_DECISIONS``.
        games_in_flight: games played in lockstep per actor.
        actors: rollout worker processes (0: collect in the learner's process).
        lr: Adam learning rate.
        epochs: PPO passes over each rollout.
        minibatch: decisions per gradient step.
        clip: PPO clipping range.
        ent_coef: entropy bonus weight.
        vf_coef: value loss weight.
        gamma: discount per decision (within a round).
        gae_lambda: GAE lambda.
        max_grad_norm: gradient clipping norm.
        others_weight: weight of the other seats' mean round score in the reward
            (:func:`round_reward`): 1.0 (default) the zero-sum advantage, 0.0 a seat's own points only.
        baseline_seats: fraction of seats (per game and round) played by ``baseline`` instead of the
            policy; their decisions are not trained on.
        baseline: agent spec of those seats.
        teacher: agent spec imitated in the warm start (``heuristic``, ``ismcts:<budget>``).
        imitation_samples: teacher decisions collected for the warm start (0 skips it).
        imitation_epochs: passes over those decisions.
        hidden, embed: network sizes (:class:`~train.scoring_policy.NetConfig`).
        privileged_critic: the critic also sees every hand (training only).
        heuristic_prior: the policy is a learned residual on the heuristic agent's play scores
            (:class:`~train.scoring_policy.NetConfig`), so it starts at the heuristic's strength.
        prior_scale: the initial weight of the heuristic's scores in the logits (learned after): a
            larger one starts the sampling policy closer to the heuristic's best play.
        threads: torch threads of the learner (0: the cores left to it, :func:`usable_cores` minus
            ``actors``, at least 1; on 2 cores with actors, 1, as 2 learner threads beside the actor
            processes oversubscribe the cores and their OpenMP threads spin while the actors wait).
        precision: arithmetic of the learner's forward passes: ``"bfloat16"`` (``torch.autocast``:
            bfloat16 products, float32 weights, gradients and losses; mixed precision as in
            Micikevicius et al., ICLR 2018, and Kalamkar et al., arXiv:1905.12322), ``"float32"``, or
            ``"auto"`` (bfloat16 when the CPU computes it natively, AMX or AVX-512 BF16:
            :func:`native_bfloat16`; float32 otherwise). The actors play in float32.
        init_model: a model file (``.pt``) to start from instead of a warm start (its network sizes
            are used; it must fit ``game``, ``n_players`` and ``artifact_deck``).
        overlap: actor processes play the next rollout while the learner updates on the last one, so
            rollouts are one update behind the learner (as in IMPALA/APPO; PPO's ratio uses the
            behaviour policy's stored log-probabilities).
        game: the game learned, ``"seers_catalog"``, ``"scout"``, ``"seals"`` or ``"haggis"``
            (:mod:`train.game_adapters`);
            :meth:`for_game` gives a game's default hyperparameters.
    """

    n_players: int = 4
    artifact_deck: tuple[str, ...] = DEFAULT_ARTIFACT_DECK
    seed: int = 0
    minutes: float | None = None
    decisions: int | None = None
    games_in_flight: int = 32
    actors: int = 2
    lr: float = 1e-4
    epochs: int = 3
    minibatch: int = 1024
    clip: float = 0.2
    ent_coef: float = 0.003
    vf_coef: float = 0.5
    gamma: float = 1.0
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    others_weight: float = 1.0
    baseline_seats: float = 0.5
    baseline: str = "heuristic"
    teacher: str = "heuristic"
    imitation_samples: int = 0
    imitation_epochs: int = 4
    hidden: int = 256
    embed: int = 128
    privileged_critic: bool = True
    heuristic_prior: bool = True
    prior_scale: float = 4.0
    threads: int = 0
    precision: str = "auto"
    overlap: bool = True
    init_model: str = ""
    game: str = "seers_catalog"

    @classmethod
    def for_game(cls, game: str, **fields: Any) -> SelfPlayConfig:
        """A configuration of ``game`` with that game's defaults (:data:`GAME_DEFAULTS`) where ``fields``
        gives no value (a value of ``None`` counts as not given; a ``minutes`` budget replaces the game's
        default ``decisions``).

        Raises:
            ValueError: an unknown game or a bad field (as the constructor).
        """
        from .game_adapters import game_adapter

        game_adapter(game)
        given = {k: v for k, v in fields.items() if v is not None}
        defaults = dict(GAME_DEFAULTS.get(game, {}))
        if "minutes" in given:
            defaults.pop("decisions", None)
        return cls(**{**defaults, **given, "game": game})

    def __post_init__(self) -> None:
        """Check the fields; NumPy integers in integer fields become ``int``.

        Raises:
            ValueError: a bad field (the message names it, its value and what is allowed; nothing is
                run). A bool is not an integer here (``decisions=True`` is rejected).
        """
        def bad(name: str, allowed: str) -> ValueError:
            return ValueError(f"{name}={getattr(self, name)!r} is not allowed; use {allowed}")

        for name in ("decisions", "games_in_flight", "actors", "epochs", "minibatch", "imitation_samples",
                     "imitation_epochs", "hidden", "embed", "threads"):
            value = getattr(self, name)
            if is_integer(value):  # numpy integers count as integers
                setattr(self, name, int(value))

        def number(x) -> bool:
            return isinstance(x, (int, float)) and not isinstance(x, bool) and np.isfinite(x)

        if self.minutes is not None and self.decisions is not None:
            raise ValueError(f"give one budget, not both: minutes={self.minutes!r}, decisions={self.decisions!r}")
        if self.minutes is None and self.decisions is None:
            self.decisions = DEFAULT_DECISIONS
        if self.minutes is not None and not (number(self.minutes) and self.minutes > 0):
            raise bad("minutes", "a number of minutes > 0")
        if self.decisions is not None and (isinstance(self.decisions, bool) or not isinstance(self.decisions, int)
                                           or self.decisions <= 0):
            raise bad("decisions", "an integer > 0")
        for name, low in (("games_in_flight", 1), ("actors", 0), ("epochs", 1), ("minibatch", 1),
                          ("imitation_samples", 0), ("imitation_epochs", 1), ("hidden", 2), ("embed", 1),
                          ("threads", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise bad(name, f"an integer >= {low}")
        for name, high, why in SIZE_LIMITS:  # checked now: past them the run fails after writing its folder
            if getattr(self, name) > high:
                raise bad(name, f"at most {high:,} ({why})")
        if is_integer(self.seed):
            self.seed = int(self.seed)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise bad("seed", "an integer >= 0")
        if self.precision not in PRECISIONS:
            raise bad("precision", " or ".join(repr(p) for p in PRECISIONS))
        from .game_adapters import game_adapter

        try:
            game_adapter(self.game)
        except TypeError:
            raise bad("game", "a game name, 'seers_catalog', 'scout', 'seals' or 'haggis'") from None
        if self.game != "seers_catalog" and tuple(self.artifact_deck) == tuple(DEFAULT_ARTIFACT_DECK):
            self.artifact_deck = ()  # the default deck of a game without artifacts
        if not (number(self.baseline_seats) and 0 <= self.baseline_seats < 1):
            raise bad("baseline_seats", "a fraction in [0, 1) (at least one seat learns)")
        for name in ("lr", "clip", "prior_scale"):
            if not (number(getattr(self, name)) and getattr(self, name) > 0):
                raise bad(name, "a number > 0")
        for name in ("ent_coef", "vf_coef", "max_grad_norm"):
            if not (number(getattr(self, name)) and getattr(self, name) >= 0):
                raise bad(name, "a number >= 0")
        for name in ("gamma", "gae_lambda", "others_weight"):
            if not (number(getattr(self, name)) and 0 <= getattr(self, name) <= 1):
                raise bad(name, "a number in [0, 1]")
        self.game_config()  # players and deck

    def game_config(self):
        """The game's config object at this table (Seers Catalog: a ``GameConfig``; SCOUT: a
        ``ScoutConfig``); ``ValueError`` for a bad player count or deck."""
        if self.game == "seers_catalog":
            return GameConfig(n_players=self.n_players, artifact_deck=tuple(self.artifact_deck))
        return self.adapter().game_config(self.n_players, tuple(self.artifact_deck))

    def adapter(self):
        """The game's :class:`~train.game_adapters.GameAdapter`."""
        from .game_adapters import game_adapter

        return game_adapter(self.game)

    def net_config(self) -> NetConfig:
        a = self.adapter()
        return NetConfig(state_dim=a.state_dim, play_dim=a.play_dim, privileged_dim=a.privileged_dim,
                         hidden=self.hidden, embed=self.embed, privileged_critic=self.privileged_critic,
                         heuristic_prior=self.heuristic_prior, prior_scale=self.prior_scale)

    def model_config(self):
        """The :class:`~train.model_config.ModelConfig` recorded in the model file."""
        if self.game == "seers_catalog":
            return model_config(self.n_players, self.artifact_deck)
        return self.adapter().model_config(self.n_players, self.artifact_deck)


#: Per game, the :class:`SelfPlayConfig` defaults that differ from Seers Catalog's (the field defaults),
#: used by :meth:`SelfPlayConfig.for_game` and ``seers train --game``.
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "seers_catalog": {},
    # SCOUT: a smaller network (decisions have about 90 legal plays at 3-5 players, Seers Catalog's far
    # fewer), and more, larger Adam steps: at Seers Catalog's lr 1e-4 and minibatch 1024, 100,000 decisions
    # at 3 players left the policy where it started (approx_kl 1e-6, a tie with the heuristic); at 3e-4 and
    # 256 they gave +8.4 +/-1.5 points per game over it
    "scout": {"hidden": 128, "embed": 64, "lr": 3e-4, "minibatch": 256, "decisions": 300_000},
    # Seals: about 6 legal plays a decision and 60 features a play, so a small network; rollouts on the
    # Python engine (train.engine_actor) in the learner's process, so the default run is a few minutes of
    # one core
    "seals": {"hidden": 64, "embed": 32, "lr": 3e-4, "minibatch": 256, "decisions": 60_000, "actors": 0},
    # Haggis: rollouts on the Python engine in the learner's process (listing a 17-card lead's plays takes
    # tens of ms), so the default run is a few minutes of one core; a small network. Rollouts are slow, so
    # more and larger Adam steps per sample: at lr 3e-4, minibatch 256, 3 epochs, 11,000 decisions left
    # the policy where the prior put it (approx_kl 7e-9); at 1e-3, 64, 4 epochs it moves (approx_kl 1e-3;
    # docs/models_haggis.md)
    "haggis": {"hidden": 64, "embed": 32, "lr": 1e-3, "minibatch": 64, "epochs": 4, "decisions": 8_000,
               "actors": 0},
}


# --- samples ------------------------------------------------------------------------------------------
#: Values of :attr:`SelfPlayConfig.precision`.
PRECISIONS = ("auto", "float32", "bfloat16")


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (Intel AMX tiles or AVX-512 BF16), as oneDNN uses
    under ``torch.autocast("cpu", dtype=torch.bfloat16)``; elsewhere bfloat16 is emulated and slower
    than float32. Read from torch's CPU feature checks (``torch.cpu``; False when absent)."""
    checks = (getattr(torch.cpu, "_is_amx_tile_supported", None), getattr(torch.cpu, "_is_avx512_bf16_supported", None))
    return any(bool(check()) for check in checks if check is not None)


def learner_bfloat16(cfg: SelfPlayConfig) -> bool:
    """Whether the learner's forward passes run in bfloat16 (:attr:`SelfPlayConfig.precision`).

    Raises:
        ValueError: ``precision`` was set to a value not in :data:`PRECISIONS` after construction.
    """
    if cfg.precision not in PRECISIONS:
        raise ValueError(f"precision={cfg.precision!r} is not allowed; use one of {PRECISIONS}")
    return cfg.precision == "bfloat16" or (cfg.precision == "auto" and native_bfloat16())


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS reports it, else ``os.cpu_count()``)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def learner_threads(cfg: SelfPlayConfig) -> int:
    """The learner's torch threads (:attr:`SelfPlayConfig.threads`; 0: the cores the actors leave,
    :func:`usable_cores` minus ``actors``, at least 1).

    Raises:
        ValueError: ``threads`` was set below 0 after construction.
    """
    if isinstance(cfg.threads, bool) or not isinstance(cfg.threads, int) or cfg.threads < 0:
        raise ValueError(f"threads={cfg.threads!r} is not allowed; use an integer >= 0")
    return cfg.threads or max(1, usable_cores() - cfg.actors)


@dataclass
class Batch:
    """Training decisions, stacked.

    Attributes:
        states: float32 ``(N, state_dim)``; ``hidden``: float32 ``(N, privileged_dim)``, the privileged
        critic's input (Seers Catalog: ``HIDDEN_DIM``, every hand);
        plays: float32 ``(R, PLAY_DIM)``, the legal plays of all decisions; ``offsets``: int64
        ``(N + 1,)``, decision ``i`` owns rows ``offsets[i]:offsets[i+1]``; ``actions``: int64 ``(N,)``,
        the chosen row within the decision; ``logp``, ``values``, ``rewards``: float32 ``(N,)``;
        ``done``: bool ``(N,)``, the decision is its seat's last of the round (an episode end).
    """

    states: np.ndarray
    hidden: np.ndarray
    plays: np.ndarray
    offsets: np.ndarray
    actions: np.ndarray
    logp: np.ndarray
    values: np.ndarray
    rewards: np.ndarray
    done: np.ndarray
    traj: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # trajectory id per decision

    def __len__(self) -> int:
        return len(self.actions)


def concat_batches(batches: list[Batch]) -> Batch:
    """One :class:`Batch` from several (offsets and trajectory ids renumbered)."""
    offs, rows, traj, tbase = [np.zeros(1, np.int64)], 0, [], 0
    for b in batches:
        offs.append(b.offsets[1:] + rows)
        rows += int(b.offsets[-1])
        traj.append(b.traj + tbase)
        tbase += int(b.traj.max()) + 1 if len(b.traj) else 0
    cat = np.concatenate
    return Batch(cat([b.states for b in batches]), cat([b.hidden for b in batches]),
                 cat([b.plays for b in batches]), cat(offs), cat([b.actions for b in batches]),
                 cat([b.logp for b in batches]), cat([b.values for b in batches]),
                 cat([b.rewards for b in batches]), cat([b.done for b in batches]), cat(traj))


def forward_stacked(net: PlayScoringNet, states: np.ndarray, rows: np.ndarray, offsets: np.ndarray,
                    hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`forward_batch` of stacked decisions (no gradient): ``states`` float32 ``(B, STATE_DIM)``,
    ``rows`` float32 ``(R, ·)`` with decision ``i``'s plays at ``offsets[i]:offsets[i + 1]`` (int64
    ``(B + 1,)``), ``hidden`` float32 ``(B, privileged_dim)`` or ``None``.

    Returns: the logits of every row float32 ``(R,)`` and the values float32 ``(B,)``."""
    seg = torch.from_numpy(np.repeat(np.arange(len(states)), np.diff(offsets)))
    with torch.no_grad():
        logits, values = net(torch.from_numpy(states), torch.from_numpy(rows), seg,
                             torch.from_numpy(hidden) if hidden is not None else None)
    return logits.numpy(), values.numpy()


def forward_batch(net: PlayScoringNet, states: list[np.ndarray], plays: list[np.ndarray],
                  hidden: list[np.ndarray] | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """Score the legal plays of several decisions in one forward pass (no gradient).

    Returns: per decision, its plays' logits (float32 ``(n_i,)``), and the values float32 ``(B,)``."""
    sizes = [len(p) for p in plays]
    seg = torch.from_numpy(np.repeat(np.arange(len(plays)), sizes))
    with torch.no_grad():
        logits, values = net(torch.from_numpy(np.stack(states)), torch.from_numpy(np.concatenate(plays)),
                             seg, torch.from_numpy(np.stack(hidden)) if hidden is not None else None)
    logits = logits.numpy()
    cuts = np.cumsum(sizes)[:-1]
    return np.split(logits, cuts), values.numpy()


class Actor:
    """Plays ``games_in_flight`` games in lockstep with the current policy and returns training samples.

    Games persist between calls: each :meth:`collect` plays every game to the end of its current round.

    The games run on the compiled kernel (:class:`~seers_env.engine.kernel.KernelGames`, dealt with the
    same draws as :class:`~seers_env.game.Game`), with the learner's features built for all waiting
    decisions in one compiled call (:func:`seers_env.vector.kernel_play_features`) and the heuristic
    baseline seats and forced decisions played in another
    (:func:`seers_env.vector_features.advance_forced`). A baseline other than the plain ``heuristic``
    plays on Python ``Game`` objects instead (it acts on a ``SeatView``). Both paths draw from ``rng`` in
    the same order and give the same :class:`Batch` for the same seed (``tests/test_selfplay_kernel.py``).

    Args:
        cfg: the configuration; ``seed``: seeds the games, the baseline seats and the sampling.
        net: the policy (default: a new one).
        kernel: play on the kernel (``None``: whenever the baseline allows it); ``False`` forces the
            ``Game`` path.

    Attributes:
        on_kernel: whether the games run on the kernel; ``kernel``: their
            :class:`~seers_env.engine.kernel.KernelGames` (slot ``g`` is game ``g``), else ``None``;
        games: the ``Game`` objects of the other path (empty on the kernel).
        decisions, rounds_played: counts over every rollout so far (decisions of every seat).

    Raises:
        ValueError: ``kernel=True`` with a baseline agent that is not the plain ``heuristic``.
    """

    def __init__(self, cfg: SelfPlayConfig, seed: int, net: PlayScoringNet | None = None, kernel: bool | None = None):
        self.cfg = cfg
        self.rng = np.random.default_rng(seed)
        self.net = net if net is not None else PlayScoringNet(cfg.net_config())
        n_games = cfg.games_in_flight
        seeds = [int(self.rng.integers(2**62)) for _ in range(n_games)]  # as Game(..., seed) per game, in order
        self.baseline_agent: Agent | None = None
        if cfg.baseline_seats > 0:
            from agents.specs import make_agent

            self.baseline_agent = make_agent(cfg.baseline, seed=int(self.rng.integers(2**31)))
        plain_heuristic = self.baseline_agent is None or type(self.baseline_agent) is HeuristicAgent
        if kernel and not plain_heuristic:
            raise ValueError(f"baseline {cfg.baseline!r} acts on Game objects; the kernel path takes only "
                             "the plain 'heuristic' baseline (use kernel=None or False)")
        self.on_kernel = plain_heuristic if kernel is None else bool(kernel)
        self.games: list[Game] = []
        self.kernel: KernelGames | None = None
        if self.on_kernel:
            self.kernel = KernelGames(n_games, cfg.game_config())
            for g, s in enumerate(seeds):
                self.kernel.new_game(g, s)
        else:
            self.games = [Game(cfg.game_config(), seed=s) for s in seeds]
        self.rounds_played = 0
        self.decisions = 0  # every decision, forced ones included

    def _new_game_seed(self) -> int:
        return int(self.rng.integers(2**62))

    def _baseline_seats(self, n_games: int) -> list[list[bool]]:
        """Which seats of each game the baseline plays this rollout (at least one policy seat per game)."""
        cfg, rng, n = self.cfg, self.rng, self.cfg.n_players
        baseline = [[bool(rng.random() < cfg.baseline_seats) for _ in range(n)] for _ in range(n_games)]
        for seats in baseline:
            if all(seats):
                seats[int(rng.integers(n))] = False
        return baseline

    def collect(self) -> Batch:
        """Play every game to the end of its current round; return the policy seats' decisions."""
        out = _Rollout(REWARD_SCALE, self.cfg.others_weight)
        if self.on_kernel:
            self._collect_kernel(out)
        else:
            self._collect_games(out)
        return out.batch(self.net)

    def _sample(self, logits: np.ndarray) -> tuple[int, float]:
        """A play index drawn from the softmax of ``logits`` (float32 ``(n,)``) and its log-probability."""
        lg = logits.astype(np.float64)
        p = np.exp(lg - lg.max())
        p /= p.sum()
        a = sample_index(self.rng, p)  # = int(rng.choice(len(p), p=p)), same draw
        return a, float(np.log(p[a] + 1e-12))

    def _collect_kernel(self, out: _Rollout) -> None:
        cfg, net, k = self.cfg, self.net, self.kernel
        n_games = cfg.games_in_flight
        heuristic = np.zeros((n_games, MAX_SEATS), bool)
        heuristic[:, :cfg.n_players] = self._baseline_seats(n_games)
        # the baseline's weights as they are now (HeuristicAgent.weights may change after construction)
        weights, danger = play_eval.heuristic_weight_array(
            self.baseline_agent.weights if self.baseline_agent is not None else None)
        active = list(range(n_games))
        status = np.empty(n_games, np.int64)
        rounds = np.empty(n_games, np.int64)
        while active:
            slots = np.array(active, np.int64)
            vector_features.advance_forced(k.cards, k.scal, k.scores, slots, heuristic, weights, danger, status,
                                           rounds)
            still, waiting = [], []
            for j, g in enumerate(active):
                if status[j] == vector_features.WAITS:
                    waiting.append(g)
                    still.append(g)
                    continue
                self.decisions += 1
                if self._after_kernel(g, int(rounds[j]), out):
                    still.append(g)
            if waiting:
                f = kernel_play_features(k, waiting, cfg.heuristic_prior, hidden=True)
                logits, vals = forward_stacked(net, f.states, f.rows, f.offsets,
                                               f.hidden if cfg.privileged_critic else None)
                for j, g in enumerate(waiting):
                    lo, hi = int(f.offsets[j]), int(f.offsets[j + 1])
                    a, logp = self._sample(logits[lo:hi])
                    out.add(g, int(f.seats[j]), f.states[j], f.hidden[j], f.rows[lo:hi], a, logp, float(vals[j]))
                    self.decisions += 1
                    _, r = vector_features.apply_chosen(k.cards, k.scal, k.scores, g, int(f.keys[lo + a]))
                    if not self._after_kernel(g, int(r), out):
                        still.remove(g)
            active = still

    def _after_kernel(self, g: int, r: int, out: _Rollout) -> bool:
        """After a play in kernel slot ``g`` (``r``: the round before it): book a round's rewards when it
        ended, deal ahead or start the next game; returns whether the game goes on in this rollout."""
        k = self.kernel
        outcome = int(k.scal[g, S_OUTCOME])
        if outcome < OUT_ROUND:
            return True
        self.rounds_played += 1
        out.book(g, k.scores[g, r, :self.cfg.n_players].tolist())
        if outcome == OUT_GAME_OVER:
            k.new_game(g, self._new_game_seed())
        else:
            k.refill(g)  # the round after next, drawn ahead from the game's own generator
        return False

    def _collect_games(self, out: _Rollout) -> None:
        cfg, net = self.cfg, self.net
        active = list(range(len(self.games)))
        baseline = self._baseline_seats(len(active))
        while active:
            pending: list[tuple[int, SeatView, list]] = []
            still = []
            for g in active:
                game = self.games[g]
                seat = game.current
                legal = game.legal_plays()
                view = SeatView(game, seat)
                if baseline[g][seat]:
                    result = game.apply(self.baseline_agent.act(view))
                elif len(legal) == 1:
                    result = game.apply(legal[0])
                else:
                    pending.append((g, view, legal))
                    still.append(g)
                    continue
                self.decisions += 1
                if self._after_game(g, result, out):
                    still.append(g)
            if pending:
                st = [encode_state(v) for _, v, _ in pending]
                pl = [play_rows(v, legal, cfg.heuristic_prior) for _, v, legal in pending]
                hd = [hidden_hands(v._game, v.seat) for _, v, _ in pending]
                logits, vals = forward_batch(net, st, pl, hd if cfg.privileged_critic else None)
                for i, (g, view, legal) in enumerate(pending):
                    a, logp = self._sample(logits[i])
                    out.add(g, view.seat, st[i], hd[i], pl[i], a, logp, float(vals[i]))
                    self.decisions += 1
                    result = view._game.apply(legal[a])
                    if not self._after_game(g, result, out):
                        still.remove(g)
            active = still

    def _after_game(self, g: int, result, out: _Rollout) -> bool:
        """Book a round's rewards when it ended; returns whether game ``g`` goes on in this rollout."""
        if result.round_scores is None:
            return True
        self.rounds_played += 1
        out.book(g, list(result.round_scores))
        if result.game_over:
            self.games[g] = Game(self.cfg.game_config(), seed=self._new_game_seed())
        return False


class _Rollout:
    """The decisions of one :meth:`Actor.collect`, as lists, and each seat's latest decision per game."""

    def __init__(self, reward_scale: float = REWARD_SCALE, others_weight: float = 1.0):
        self.reward_scale = reward_scale
        self.others_weight = others_weight
        self.states, self.hidden, self.plays, self.actions, self.logps, self.values = [], [], [], [], [], []
        self.rewards: list[float] = []
        self.done: list[bool] = []
        self.traj: list[int] = []
        self.last: dict[tuple[int, int], int] = {}  # (game, seat) -> index of its latest decision
        self.traj_id: dict[tuple[int, int], int] = {}

    def add(self, g: int, seat: int, state, hidden, rows, action: int, logp: float, value: float) -> None:
        key = (g, seat)
        if key not in self.traj_id:
            self.traj_id[key] = len(self.traj_id)
        self.last[key] = len(self.actions)
        self.states.append(state)
        self.hidden.append(hidden)
        self.plays.append(rows)
        self.actions.append(action)
        self.logps.append(logp)
        self.values.append(value)
        self.rewards.append(0.0)
        self.done.append(False)
        self.traj.append(self.traj_id[key])

    def book(self, g: int, scores: list[int]) -> None:
        """Round scores of game ``g``: each seat's reward (:func:`round_reward`: its score minus the
        others' mean times ``others_weight``, / the reward scale, :data:`REWARD_SCALE` by default) on its
        last decision of the round, which ends its episode."""
        for seat in range(len(scores)):
            i = self.last.pop((g, seat), None)
            if i is not None:
                self.rewards[i] += round_reward(scores, seat, self.reward_scale, self.others_weight)
                self.done[i] = True

    def batch(self, net: PlayScoringNet) -> Batch:
        offsets = np.zeros(len(self.plays) + 1, np.int64)
        offsets[1:] = np.cumsum([len(p) for p in self.plays])
        return Batch(np.stack(self.states) if self.states else np.zeros((0, net.cfg.state_dim), np.float32),
                     np.stack(self.hidden) if self.hidden else np.zeros((0, net.cfg.privileged_dim), np.float32),
                     np.concatenate(self.plays) if self.plays else
                     np.zeros((0, net.cfg.play_dim + net.cfg.heuristic_prior), np.float32),
                     offsets, np.asarray(self.actions, np.int64), np.asarray(self.logps, np.float32),
                     np.asarray(self.values, np.float32), np.asarray(self.rewards, np.float32),
                     np.asarray(self.done, bool), np.asarray(self.traj, np.int64))


def advantages(batch: Batch, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE advantages and returns per decision, float32 ``(N,)`` each, over each trajectory (one seat's
    decisions in one round, in order; the episode ends at ``done``)."""
    adv = np.zeros(len(batch), np.float32)
    order = np.lexsort((np.arange(len(batch)), batch.traj))
    nxt_value, nxt_adv, prev_traj = 0.0, 0.0, -1
    for i in order[::-1]:
        if batch.traj[i] != prev_traj or batch.done[i]:
            nxt_value, nxt_adv = 0.0, 0.0
            prev_traj = batch.traj[i]
        delta = batch.rewards[i] + gamma * nxt_value - batch.values[i]
        nxt_adv = delta + gamma * lam * nxt_adv
        adv[i] = nxt_adv
        nxt_value = batch.values[i]
    return adv, adv + batch.values


def _minibatch_tensors(batch: Batch, idx: np.ndarray):
    starts, ends = batch.offsets[idx], batch.offsets[idx + 1]
    sizes = ends - starts
    rows = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)])
    seg = np.repeat(np.arange(len(idx)), sizes)
    chosen = np.cumsum(sizes) - sizes + batch.actions[idx]
    t = torch.from_numpy
    return (t(batch.states[idx]), t(batch.plays[rows]), t(seg), t(batch.hidden[idx]), t(chosen))


def _forward(net: PlayScoringNet, states, plays, seg, hidden, bf16: bool):
    """The network's logits and values, float32; its products in bfloat16 under ``torch.autocast`` when
    ``bf16`` (the losses and the backward pass stay outside it, as torch's autocast guide advises)."""
    if not bf16:
        return net(states, plays, seg, hidden)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits, values = net(states, plays, seg, hidden)
    return logits.float(), values.float()


def ppo_update(net: PlayScoringNet, opt: torch.optim.Optimizer, batch: Batch, cfg: SelfPlayConfig,
               rng: np.random.Generator) -> dict[str, float]:
    """Clipped PPO on one rollout (module docstring). Returns mean losses, entropy and clip fraction."""
    adv, ret = advantages(batch, cfg.gamma, cfg.gae_lambda)
    stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clip_frac": 0.0, "approx_kl": 0.0}
    bf16 = learner_bfloat16(cfg)
    steps = 0
    n = len(batch)
    for _ in range(cfg.epochs):
        perm = rng.permutation(n)
        for start in range(0, n, cfg.minibatch):
            idx = np.sort(perm[start:start + cfg.minibatch])
            states, plays, seg, hidden, chosen = _minibatch_tensors(batch, idx)
            logits, values = _forward(net, states, plays, seg, hidden, bf16)
            logp_all = segment_log_softmax(logits, seg, len(idx))
            logp = logp_all[chosen]
            entropy = -torch.zeros(len(idx)).index_add(0, seg, logp_all.exp() * logp_all)
            a = torch.from_numpy(adv[idx])
            a = (a - a.mean()) / (a.std() + 1e-8) if len(idx) > 1 else a
            ratio = (logp - torch.from_numpy(batch.logp[idx])).exp()
            pg = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            vl = 0.5 * (values - torch.from_numpy(ret[idx])).pow(2).mean()
            loss = pg + cfg.vf_coef * vl - cfg.ent_coef * entropy.mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            with torch.no_grad():
                stats["policy_loss"] += float(pg)
                stats["value_loss"] += float(vl)
                stats["entropy"] += float(entropy.mean())
                stats["clip_frac"] += float(((ratio - 1).abs() > cfg.clip).float().mean())
                stats["approx_kl"] += float((ratio - 1 - ratio.log()).mean())
            steps += 1
    return {k: v / max(steps, 1) for k, v in stats.items()}


# --- imitation warm start -------------------------------------------------------------------------------
def teacher_samples(cfg: SelfPlayConfig, samples: int, seed: int) -> Batch:
    """Decisions of the teacher (``cfg.teacher``) playing every seat, with more than one legal play:
    the chosen row as ``actions``, and each seat's round reward on every one of its decisions of the
    round as ``rewards`` (the critic's target). The game's own (:mod:`train.game_adapters`)."""
    if cfg.game == "seers_catalog":
        return seers_teacher_samples(cfg, samples, seed)
    return cfg.adapter().teacher_samples(cfg, samples, seed)


def seers_teacher_samples(cfg: SelfPlayConfig, samples: int, seed: int) -> Batch:
    """:func:`teacher_samples` of Seers Catalog, on ``Game`` objects."""
    from agents.specs import make_agent

    rng = np.random.default_rng(seed)
    teacher = make_agent(cfg.teacher, seed=int(rng.integers(2**31)))
    states, hidden, plays, actions, owner = [], [], [], [], []
    rewards: list[float] = []
    round_start = 0
    while len(actions) < samples:
        game = Game(cfg.game_config(), seed=int(rng.integers(2**62)))
        while not game.game_over:
            seat = game.current
            view = SeatView(game, seat)
            legal = game.legal_plays()
            play = teacher.act(view)
            if len(legal) > 1:
                states.append(encode_state(view))
                hidden.append(hidden_hands(game, seat))
                plays.append(play_rows(view, legal, cfg.heuristic_prior))
                actions.append(next(i for i, p in enumerate(legal) if p[:8] == play[:8]))
                owner.append(seat)
                rewards.append(0.0)
            result = game.apply(play)
            if result.round_scores is not None:
                sc = result.round_scores
                for i in range(round_start, len(actions)):
                    rewards[i] = round_reward(sc, owner[i], REWARD_SCALE, cfg.others_weight)
                round_start = len(actions)
    k = round_start  # only decisions of finished rounds (their reward is known)
    offsets = np.zeros(k + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in plays[:k]])
    z = np.zeros(k, np.float32)
    return Batch(np.stack(states[:k]), np.stack(hidden[:k]), np.concatenate(plays[:k]), offsets,
                 np.asarray(actions[:k], np.int64), z, z, np.asarray(rewards[:k], np.float32),
                 np.ones(k, bool), np.arange(k, dtype=np.int64))


def imitate(net: PlayScoringNet, opt: torch.optim.Optimizer, data: Batch, epochs: int, minibatch: int,
            rng: np.random.Generator, log: Callable[[str], None] = print,
            bf16: bool = False) -> dict[str, float]:
    """Behaviour cloning: cross-entropy on the teacher's play among the legal plays, plus the critic's
    squared error on the round reward (forward passes in bfloat16 when ``bf16``, as
    :func:`ppo_update`). Returns the last epoch's loss and accuracy."""
    n = len(data)
    out: dict[str, float] = {}
    for epoch in range(epochs):
        perm = rng.permutation(n)
        ce_sum, acc_sum, steps = 0.0, 0.0, 0
        for start in range(0, n, minibatch):
            idx = np.sort(perm[start:start + minibatch])
            states, plays, seg, hidden, chosen = _minibatch_tensors(data, idx)
            logits, values = _forward(net, states, plays, seg, hidden, bf16)
            logp = segment_log_softmax(logits, seg, len(idx))
            ce = -logp[chosen].mean()
            vl = 0.5 * (values - torch.from_numpy(data.rewards[idx])).pow(2).mean()
            loss = ce + 0.5 * vl
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                top = torch.full((len(idx),), -torch.inf).scatter_reduce(0, seg, logits, "amax")
                acc_sum += float((logits[chosen] >= top).float().mean())
            ce_sum += float(ce.detach())
            steps += 1
        out = {"imitation_loss": ce_sum / steps, "imitation_accuracy": acc_sum / steps}
        log(f"imitation epoch {epoch + 1}/{epochs}: loss {out['imitation_loss']:.3f}, "
            f"teacher's play top-scored {100 * out['imitation_accuracy']:.1f}%")
    return out


# --- actors in worker processes -----------------------------------------------------------------------
def _actor_main(conn, cfg: SelfPlayConfig, seed: int) -> None:
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)  # as the learner (train_selfplay)
    actor = make_actor(cfg, seed)
    while True:
        msg = conn.recv()
        if msg is None:
            break
        if msg[0] == "collect":
            actor.net.load_state_dict(msg[1])
            batch = actor.collect()
            conn.send((batch, actor.decisions, actor.rounds_played))
        elif msg[0] == "teacher":
            conn.send(teacher_samples(cfg, msg[1], msg[2]))


def make_actor(cfg: SelfPlayConfig, seed: int, net: PlayScoringNet | None = None):
    """The game's rollout actor (:meth:`train.game_adapters.GameAdapter.actor`): an :class:`Actor` for
    Seers Catalog, a :class:`train.scout_actor.ScoutActor` for SCOUT."""
    if cfg.game == "seers_catalog":
        return Actor(cfg, seed, net)
    return cfg.adapter().actor(cfg, seed, net)


class ActorPool:
    """``n`` :class:`Actor` processes (or one in-process actor when ``n == 0``), seeded from ``seed``."""

    def __init__(self, cfg: SelfPlayConfig, seed: int, n: int, net: PlayScoringNet):
        seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(max(n, 1))]
        self.local = make_actor(cfg, seeds[0], net) if n == 0 else None
        self.cfg = cfg
        self.conns, self.procs = [], []
        # forkserver (else spawn): forking a process whose torch thread pool runs can deadlock
        ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
        for i in range(n):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_actor_main, args=(child, cfg, seeds[i]), daemon=True)
            proc.start()
            child.close()  # the actor holds it: if the actor dies, recv() raises instead of waiting forever
            self.conns.append(parent)
            self.procs.append(proc)
        self.decisions = 0
        self.rounds = 0

    def start(self, net: PlayScoringNet) -> None:
        """Send the current weights to the actor processes; they start the next rollout at once."""
        if self.local is None:
            sd = {k: v.detach().clone() for k, v in net.state_dict().items()}
            for c in self.conns:
                c.send(("collect", sd))

    def finish(self) -> Batch:
        """The rollout started by :meth:`start` (in-process: played now, with the current weights)."""
        if self.local is not None:
            batch = self.local.collect()
            self.decisions, self.rounds = self.local.decisions, self.local.rounds_played
            return batch
        out = [self._recv(i) for i in range(len(self.conns))]
        self.decisions = sum(o[1] for o in out)
        self.rounds = sum(o[2] for o in out)
        return concat_batches([o[0] for o in out])

    def collect(self, net: PlayScoringNet) -> Batch:
        """One rollout with ``net``'s current weights (:meth:`start` then :meth:`finish`)."""
        self.start(net)
        return self.finish()

    def teacher(self, samples: int, seed: int) -> Batch:
        if self.local is not None or not self.conns:
            return teacher_samples(self.cfg, samples, seed)
        seeds = np.random.SeedSequence(seed).spawn(len(self.conns))
        share = -(-samples // len(self.conns))
        for c, s in zip(self.conns, seeds):
            c.send(("teacher", share, int(s.generate_state(1)[0])))
        return concat_batches([self._recv(i) for i in range(len(self.conns))])

    def _recv(self, i: int):
        try:
            return self.conns[i].recv()
        except (EOFError, ConnectionError):
            code = self.procs[i].exitcode
            raise RuntimeError(f"self-play actor process {i} died (exit code {code}); see its error "
                               f"above") from None

    def close(self) -> None:
        for c in self.conns:
            try:
                c.send(None)
            except (BrokenPipeError, OSError):
                pass
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()


def initial_policy(cfg: SelfPlayConfig) -> tuple[PlayScoringNet, SelfPlayConfig]:
    """The policy a self-play run starts from, and the configuration that fits it.

    Returns:
        ``(net, cfg)``: with ``cfg.init_model`` its network (:func:`~train.scoring_policy.load_policy`) and
        ``cfg`` with the network fields (``hidden``, ``embed``, ``privileged_critic``, ``heuristic_prior``)
        taken from it and ``imitation_samples=0``; else a freshly initialised network and ``cfg`` as given.

    Raises:
        FileNotFoundError: no file at ``cfg.init_model``; ValueError: it is not a play-scoring model, or
        (``ModelConfigError``) it was trained for another game, player count, artifact deck or feature
        version.
    """
    if not cfg.init_model:
        return PlayScoringNet(cfg.net_config()), cfg
    from .model_config import check_model_config
    from .scoring_policy import ALGORITHM, load_policy

    net, trained_for = load_policy(cfg.init_model)
    check_model_config(trained_for, source=cfg.init_model, algorithm=ALGORITHM, n_players=cfg.n_players,
                       artifact_deck=tuple(cfg.artifact_deck), feature_version=cfg.adapter().feature_version,
                       game=cfg.game)
    return net, replace(cfg, hidden=net.cfg.hidden, embed=net.cfg.embed, privileged_critic=net.cfg.privileged_critic,
                        heuristic_prior=net.cfg.heuristic_prior, prior_scale=net.cfg.prior_scale, imitation_samples=0)


def train_selfplay(cfg: SelfPlayConfig, out_path: str | None = None,
                   log: Callable[[str], None] = print, progress_every: float = 10.0,
                   on_iteration: Callable[[int, PlayScoringNet, dict[str, Any]], None] | None = None,
                   trained_with: str = "") -> tuple[PlayScoringNet, dict[str, Any]]:
    """Warm start, then self-play PPO within the budget (module docstring).

    Args:
        cfg: hyperparameters.
        out_path: where to save the model (``.pt``), or ``None``; the warm-started policy before PPO is
            saved beside it as ``warm_start.pt``.
        log: where progress lines go (one line every ``progress_every`` seconds at most).
        on_iteration: called after each update with ``(iteration, net, stats)``.
        trained_with: the command line, recorded in the model file.

    Returns:
        The trained network and a summary dict (decisions, rounds, rates, last statistics).
    """
    threads = learner_threads(cfg)  # ValueError before anything changes
    learner_bfloat16(cfg)
    cfg.adapter().check_config(cfg)
    torch.manual_seed(cfg.seed)
    threads_before = torch.get_num_threads()
    # Denormal floats in PPO's activations and gradients made later updates up to 1.6x slower on x86;
    # flushing them to zero (torch.set_flush_denormal) is undone before returning, as is the thread count.
    flushing_before = _flushes_denormals()
    torch.set_num_threads(threads)
    torch.set_flush_denormal(True)
    try:
        return _train_selfplay(cfg, out_path, log, progress_every, on_iteration, trained_with)
    finally:
        torch.set_flush_denormal(flushing_before)
        torch.set_num_threads(threads_before)


def _flushes_denormals() -> bool:
    """Whether torch flushes denormal floats to zero now (``torch.set_flush_denormal`` has no getter)."""
    return bool(torch.tensor([1e-40], dtype=torch.float32).mul(1.0)[0] == 0)


def _train_selfplay(cfg: SelfPlayConfig, out_path: str | None, log: Callable[[str], None], progress_every: float,
                    on_iteration: Callable[[int, PlayScoringNet, dict[str, Any]], None] | None,
                    trained_with: str) -> tuple[PlayScoringNet, dict[str, Any]]:
    rng = np.random.default_rng(cfg.seed)
    net, cfg = initial_policy(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5, fused=True)  # one kernel per step
    pool = ActorPool(cfg, int(rng.integers(2**62)), cfg.actors, net)
    precision = "bfloat16" if learner_bfloat16(cfg) else "float32"
    summary: dict[str, Any] = {"config": asdict(cfg), "learner_threads": torch.get_num_threads(),
                               "learner_precision": precision}
    threads = torch.get_num_threads()
    log(f"learner: {threads} torch thread{'s' * (threads > 1)}, {precision} forward passes "
        f"(--threads {cfg.threads} --precision {cfg.precision})")
    try:
        t0 = time.perf_counter()
        if cfg.imitation_samples > 0:
            log(f"warm start: {cfg.imitation_samples} decisions of {cfg.teacher} ...")
            data = pool.teacher(cfg.imitation_samples, int(rng.integers(2**62)))
            t_data = time.perf_counter() - t0
            log(f"  collected {len(data)} decisions in {t_data:.0f} s")
            summary.update(imitate(net, opt, data, cfg.imitation_epochs, 512, rng, log, learner_bfloat16(cfg)))
            summary["imitation_seconds"] = time.perf_counter() - t0
            del data
            if out_path is not None:
                from .scoring_policy import save_policy

                warm = os.path.join(os.path.dirname(os.path.abspath(out_path)), "warm_start.pt")
                save_policy(net, cfg.model_config(), warm, trained_with=f"{trained_with} (warm start only)")
                summary["warm_start_model"] = warm
        start = time.perf_counter()
        deadline = start + 60 * cfg.minutes if cfg.minutes is not None else None
        budget = cfg.decisions if cfg.minutes is None else None
        trained, it, last_log, stats = 0, 0, start, {}
        from .progress import SelfPlayProgress

        progress = SelfPlayProgress(budget, cfg.minutes if deadline is not None else None, start)
        for line in progress.intro(progress_every):
            log(line)
        net.eval()
        pool.start(net)
        while True:
            batch = pool.finish()
            now = time.perf_counter()
            done = ((deadline is not None and now >= deadline)
                    or (budget is not None and trained + len(batch) >= budget))
            if not done and cfg.overlap:
                pool.start(net)  # actors play the next rollout while the learner updates (one update stale)
            net.train()
            stats = ppo_update(net, opt, batch, cfg, rng)
            net.eval()
            if not done and not cfg.overlap:
                pool.start(net)
            trained += len(batch)
            it += 1
            now = time.perf_counter()
            stats.update(iteration=it, train_decisions=trained, all_decisions=pool.decisions,
                         rounds=pool.rounds, seconds=now - start,
                         decisions_per_s=pool.decisions / max(now - start, 1e-9),
                         mean_abs_reward=float(np.abs(batch.rewards[batch.done]).mean())
                         if batch.done.any() else 0.0)
            if on_iteration is not None:
                on_iteration(it, net, stats)
            if done or now - last_log >= progress_every:
                last_log = now
                for line in progress.rows(now, it, trained, pool.decisions, pool.rounds, stats["entropy"]):
                    log(line)
            if done:
                break
        summary.update(ppo_seconds=time.perf_counter() - start, iterations=it, train_decisions=trained,
                       all_decisions=pool.decisions, rounds=pool.rounds,
                       decisions_per_s=pool.decisions / max(time.perf_counter() - start, 1e-9),
                       last=stats)
    finally:
        pool.close()
    net.eval()
    if out_path is not None:
        from .scoring_policy import save_policy

        save_policy(net, cfg.model_config(), out_path, trained_with=trained_with)
    return net, summary
