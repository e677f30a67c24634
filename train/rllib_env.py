"""Seers Catalog as an RLlib multi-agent environment whose actions are legal plays (needs ``ray[rllib]``).

RLlib's ``PettingZooEnv`` over :mod:`seers_env.seers_catalog_v0` would give every seat a 6,928-way
catalogue action (a probe of RLlib PPO on it ran at about 100 env steps/s). Here, as in the play-scoring
learner (:mod:`train.selfplay`), a seat chooses among its legal plays, each described by a feature row
(:func:`seers_env.features.encode_plays`), so the action is an index into the legal plays.

Agents are ``"seat_<s>"`` for absolute seat ``s``, or ``"frozen_<s>"`` when the seat is played by a
frozen opponent this episode (``frozen_seats``: a fraction of the seats, drawn per episode from the
environment's generator); the policy mapping of :mod:`train.rllib_train` sends ``seat_*`` agents to
the shared learning module (self-play) and ``frozen_*`` agents to a frozen, untrained module. Turn-based: each step returns an observation
for the one seat that must choose next. Each observation is a dict (RLlib's action-masking convention):

=================  ========================  ======================================================
key                dtype, shape              content
=================  ========================  ======================================================
``observations``   float32 ``(STATE_DIM,)``  :func:`seers_env.features.encode_state`
``plays``          float32 ``(K, PLAY_DIM)``  feature rows of the offered plays, zero rows after them
``action_mask``    float32 ``(K,)``          1 for an offered play, 0 for padding
=================  ========================  ======================================================

The action is ``Discrete(K)``: row ``i`` of ``plays``. ``K`` is ``max_plays`` (default
:data:`MAX_PLAYS` = 128; with random play about 94% of the decisions with a choice have at most 128
legal plays, the median is 5, p99 is about 1,200 and the maximum about 5,900).

**More than K legal plays.** The seat is offered ``K`` of them: the pass when it is legal, and the others
drawn uniformly without replacement from the environment's seeded ``numpy.random.Generator``, kept in
``Game.legal_plays()`` order. Only offered plays can be chosen in training; an agent built from a
checkpoint (:mod:`train.rllib_agent`) scores *every* legal play with the same network, since the network
scores rows one by one and does not depend on ``K``.

**Decisions without a choice** (one legal play) are applied by the environment and never reach RLlib,
nor do the seats played by an in-environment baseline (``baseline``, ``baseline_seats``: agents built
with :func:`agents.make_agent`, sitting in a random subset of seats each episode, at least one seat is
left to the learner).

**Rewards** (rules section 5): when a round ends, each learning seat earns its round score minus the
mean round score of the other seats, divided by ``reward_scale`` (default 10 points per unit). The
round-ending play is usually not the seat's own, so the reward arrives on a step where the seat has no
observation. RLlib's ``MultiAgentEpisode`` keeps such a "hanging" reward for the seat and adds it to the
seat's next transition, but a reward that reaches a seat *before its first action* of the episode is
dropped from learning (it is kept only in the episode's "hanging begin" cache). The environment therefore
holds a seat's rewards until the seat has acted once, then hands them over; the last step of a game
delivers everything still held and gives every seat that acted a final observation with
``terminated=True``. So the rewards a seat receives over an episode add up to its game total
``(total_s - mean of the others' totals) / reward_scale`` (tested through RLlib's own episode).
A seat that never had a choice in a whole game is not an agent of that episode (RLlib drops agents
that never step) and earns nothing.

**Two paths, the same episodes.** With no baseline or the plain ``heuristic`` one (config ``kernel``, default
``None``: whenever possible), the game runs on the compiled kernel (a one-slot
:class:`~seers_env.engine.kernel.KernelGames`, dealt by ``new_game(rng=...)`` from the same generator that
``Game(config, rng=...)`` would take, so the same deals), as the self-play actor (:class:`train.selfplay.Actor`)
runs its games: forced plays and heuristic seats are played in compiled code
(:func:`seers_env.vector_features.advance_forced`) and a decision's state and play rows come from
:func:`seers_env.vector.kernel_play_features`, bit for bit :func:`~seers_env.features.encode_state` and
:func:`~seers_env.features.encode_plays` (a final observation of a seat other than the one to act is
:func:`seers_env.vector_features.write_state` from that seat's side). Other baselines act on ``Game``
objects, so those environments step a :class:`~seers_env.game.Game` (attribute ``game``) and build the
observations with :class:`~seers_env.view.SeatView`. Both paths draw the same numbers from the environment's
generator (the baseline seats and their agents' seeds, the frozen seats, the offered-play subsets), so for
the same seed they give the same observations, rewards, terminations and infos
(``tests/test_rllib.py``); :attr:`SeersMultiAgentEnv.totals` and
:attr:`SeersMultiAgentEnv.game_over` read either.

The final observation's ``infos`` hold ``{"score": game total of the seat, "reward": its summed reward,
"baseline_score": mean game total of the baseline seats or NaN}`` for the metrics.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from seers_env import play_eval, vector_features
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.engine.core import PASS_KIND
from seers_env.engine.kernel import MAX_SEATS, OUT_ROUND, S_CURRENT, S_OUTCOME, S_OVER, KernelGames
from seers_env.engine.moves import plays_of_keys
from seers_env.features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.game import Game, GameConfig
from seers_env.integers import is_integer
from seers_env.plays import PlayKind
from seers_env.seeding import check_seed
from seers_env.seers_catalog_v0 import ResetNeeded, reset_needed
from seers_env.vector import kernel_play_features
from seers_env.view import SeatView

#: Default number of play rows offered per decision (``K``).
MAX_PLAYS = 128
#: Points per reward unit.
REWARD_SCALE = 10.0


#: Agent id prefixes: learning seats and frozen-opponent seats.
LEARNER_PREFIX, FROZEN_PREFIX = "seat", "frozen"


def agent_id(seat: int, frozen: bool = False) -> str:
    """RLlib agent id of an absolute seat: ``"seat_<seat>"``, or ``"frozen_<seat>"`` for a frozen one."""
    return f"{FROZEN_PREFIX if frozen else LEARNER_PREFIX}_{seat}"


def seat_of(aid: str) -> int:
    """Absolute seat of an agent id made by :func:`agent_id`.

    Raises:
        ValueError: ``aid`` is not ``"seat_<n>"`` or ``"frozen_<n>"``.
    """
    prefix, _, num = str(aid).partition("_")
    if prefix not in (LEARNER_PREFIX, FROZEN_PREFIX) or not num.isdigit():
        raise ValueError(f"agent id {aid!r} is not of the form 'seat_<n>' or 'frozen_<n>'")
    return int(num)


def observation_space(max_plays: int = MAX_PLAYS) -> gym.spaces.Dict:
    """The observation space of one seat (module docstring)."""
    return gym.spaces.Dict({
        "observations": gym.spaces.Box(-np.inf, np.inf, (STATE_DIM,), np.float32),
        "plays": gym.spaces.Box(-np.inf, np.inf, (max_plays, PLAY_DIM), np.float32),
        "action_mask": gym.spaces.Box(0.0, 1.0, (max_plays,), np.float32),
    })


class SeersMultiAgentEnv(MultiAgentEnv):
    """RLlib ``MultiAgentEnv`` over the rules engine; module docstring.

    Args:
        config: dict (RLlib passes its ``env_config``, an ``EnvContext`` with ``worker_index`` and
            ``vector_index``) with the keys

            * ``n_players`` (int, 2..5, default 4), ``n_rounds`` (int >= 1, default 4: an episode is a
              whole game), ``artifact_deck`` (list of kind keys, default the default deck; ``[]``: none);
            * ``max_plays`` (int ``K`` >= 2, default :data:`MAX_PLAYS`);
            * ``reward_scale`` (float > 0, points per reward unit, default 10);
            * ``baseline`` (agent spec, default ``""``: none) and ``baseline_seats`` (fraction 0..1 of
              the seats it plays, default 0);
            * ``frozen_seats`` (fraction 0..1 of the seats given ``frozen_*`` agent ids, default 0);
            * ``seed`` (int >= 0, default 0): the environment draws from
              ``SeedSequence(seed, spawn_key=stream)``, ``stream`` being ``(worker_index, vector_index)`` of
              the ``EnvContext`` (or what :meth:`set_stream` sets), and ``reset(seed=s)`` restarts it from
              ``SeedSequence(s, spawn_key=stream)``: environments of different streams share no game;
            * ``kernel`` (default ``None``: whenever the baseline allows it): step the game on the compiled
              kernel (module docstring); ``False`` forces the ``Game`` path, ``True`` needs no baseline or
              the plain ``heuristic`` one.

    Attributes:
        on_kernel: whether episodes run on the kernel; ``kernel``: its one-slot
            :class:`~seers_env.engine.kernel.KernelGames` (else ``None``); ``game``: the
            :class:`~seers_env.game.Game` of the other path (``None`` on the kernel).

    Raises:
        ValueError: a bad value (the message names it and what is allowed), or ``kernel=True`` with a
            baseline other than the plain ``heuristic``.
    """

    def __init__(self, config: dict | None = None):
        super().__init__()
        cfg = dict(config or {})
        deck = cfg.get("artifact_deck")
        self.game_config = GameConfig(n_players=int(cfg.get("n_players", 4)),
                                      n_rounds=int(cfg.get("n_rounds", 4)),
                                      artifact_deck=tuple(DEFAULT_ARTIFACT_DECK if deck is None else deck))
        self.max_plays = int(cfg.get("max_plays", MAX_PLAYS))
        if self.max_plays < 2:
            raise ValueError(f"max_plays={self.max_plays!r} must be at least 2")
        self.reward_scale = float(cfg.get("reward_scale", REWARD_SCALE))
        if not self.reward_scale > 0:
            raise ValueError(f"reward_scale={self.reward_scale!r} must be > 0")
        self.baseline = str(cfg.get("baseline", "") or "")
        self.baseline_seats = float(cfg.get("baseline_seats", 0.0))
        if not 0.0 <= self.baseline_seats <= 1.0:
            raise ValueError(f"baseline_seats={self.baseline_seats!r} must be a fraction in 0..1")
        if self.baseline_seats > 0 and not self.baseline:
            raise ValueError("baseline_seats > 0 needs a baseline agent spec, e.g. baseline='heuristic'")
        self.frozen_seats = float(cfg.get("frozen_seats", 0.0))
        if not 0.0 <= self.frozen_seats <= 1.0:
            raise ValueError(f"frozen_seats={self.frozen_seats!r} must be a fraction in 0..1")
        plain_heuristic = True
        if self.baseline:
            from agents.heuristic import HeuristicAgent
            from agents.specs import make_agent

            probe = make_agent(self.baseline)  # fail early on a bad spec
            plain_heuristic = self.baseline_seats == 0 or type(probe) is HeuristicAgent
        want = cfg.get("kernel")
        if want is not None and not isinstance(want, (bool, np.bool_)):
            raise ValueError(f"kernel={want!r}: must be True, False or None (None: the kernel whenever the "
                             "baseline allows it)")
        if want and not plain_heuristic:
            raise ValueError(f"kernel=True: baseline {self.baseline!r} acts on Game objects; the kernel path "
                             "takes only no baseline or the plain 'heuristic' (use kernel=None or False)")
        self.on_kernel = plain_heuristic if want is None else bool(want)
        self.kernel = KernelGames(1, self.game_config) if self.on_kernel else None
        worker = int(getattr(config, "worker_index", 0) or 0)
        vector = int(getattr(config, "vector_index", 0) or 0)
        self._seed = check_seed(cfg.get("seed", 0))
        self.set_stream(worker, vector)
        n = self.game_config.n_players
        self.possible_agents = [agent_id(s) for s in range(n)]
        if self.frozen_seats > 0:
            self.possible_agents += [agent_id(s, frozen=True) for s in range(n)]
        self.agents = list(self.possible_agents)
        space = observation_space(self.max_plays)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(self.max_plays) for a in self.possible_agents}
        self.game: Game | None = None
        self._offered: np.ndarray | None = None  # no decision before the first reset()
        self._legal = None
        self._to_act = -1
        self._dealt = False  # a game dealt by reset() and not closed since
        self._closed = False

    def set_stream(self, *stream: int) -> None:
        """Make this environment stream ``stream`` (non-negative ints, e.g. ``(worker, sub-env index)``) of its
        seed: it draws from ``SeedSequence(config seed, spawn_key=stream)`` from now on, and
        ``reset(seed=s)`` from ``SeedSequence(s, spawn_key=stream)`` (a node of the seed's spawn tree,
        :mod:`seers_env.seeding`). RLlib's multi-agent env runners give every sub-environment the same
        ``vector_index`` (0) and seed sub-environment ``i`` of runner ``w`` with ``seed + w + i``, so
        :mod:`train.rllib_train` sets ``(w, i, evaluation)`` when RLlib creates the environments: every
        (seed, runner, sub-environment) then has its own games.

        Raises:
            ValueError: a negative or non-integer part.
        """
        self._stream = tuple(check_seed(x, "stream part") for x in stream)
        self.rng = np.random.default_rng(np.random.SeedSequence(self._seed, spawn_key=self._stream))

    # --- episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new game; returns ``({agent id: observation}, {})`` for the first seat with a choice.

        Raises:
            ValueError: a negative or non-integer seed (nothing changes).
        """
        if seed is not None:
            self.rng = np.random.default_rng(np.random.SeedSequence(check_seed(seed), spawn_key=self._stream))
        n = self.game_config.n_players
        game_rng = np.random.default_rng(self.rng.integers(2**63))
        if self.on_kernel:  # KernelGames.new_game(rng=...) makes the deals of Game(config, rng=...)
            self.kernel.new_game(0, rng=game_rng)
        else:
            self.game = Game(self.game_config, rng=game_rng)
        self._baselines: dict[int, Any] = {}
        if self.baseline and self.baseline_seats > 0:
            from agents.specs import make_agent

            k = min(n - 1, int(self.rng.binomial(n, self.baseline_seats)))
            for s in sorted(int(x) for x in self.rng.choice(n, size=k, replace=False)):
                self._baselines[s] = make_agent(self.baseline, seed=int(self.rng.integers(2**31)))
        others = [s for s in range(n) if s not in self._baselines]
        k = min(len(others) - 1, int(self.rng.binomial(len(others), self.frozen_seats))) if self.frozen_seats else 0
        self._frozen = {int(x) for x in self.rng.choice(others, size=k, replace=False)} if k > 0 else set()
        self._ids = [agent_id(s, s in self._frozen) for s in range(n)]
        self._acted = [False] * n
        self._held = [0.0] * n  # rewards not yet handed to RLlib
        self.delivered = [0.0] * n  # rewards handed to RLlib this episode (for tests)
        self._offered: np.ndarray | None = None
        self._legal = None
        self._to_act = -1
        self._dealt, self._closed = True, False
        self.agents = [self._ids[s] for s in range(n) if s not in self._baselines]
        if self.on_kernel:
            self._heuristic_seats = np.zeros((1, MAX_SEATS), bool)
            self._heuristic_seats[0, list(self._baselines)] = True
            agent = next(iter(self._baselines.values()), None)
            self._weights = play_eval.heuristic_weight_array(agent.weights if agent is not None else None)
        self._advance()
        if self.game_over:  # every decision was forced or a baseline's: nothing to learn from
            return {}, {}
        return {self._ids[self._to_act]: self._observe(self._to_act)}, {}

    def step(self, action_dict: dict[str, int]):
        """Apply the acting seat's play (``action_dict[agent id]``: a row index of its ``plays``).

        Raises:
            ResetNeeded: before ``reset()``, after ``close()``, or after the game ended (a ``RuntimeError``;
                Gymnasium's ``ResetNeeded``).
            ValueError: no action for the acting seat, or an index outside ``0..K-1`` or on a padding
                row (the game is unchanged).
            TypeError: the action is not an integer (a bool, float or string is refused, not rounded).
        """
        if not self._dealt:
            raise reset_needed("step", self._closed)
        if self.game_over or self._to_act < 0:
            raise ResetNeeded("step() after the game ended; call reset() first")
        seat = self._to_act
        aid = self._ids[seat]
        if aid not in action_dict:
            raise ValueError(f"no action for the acting agent {aid!r}; got actions for {sorted(action_dict)}")
        raw = action_dict[aid]
        if isinstance(raw, np.ndarray) and raw.ndim == 0:
            raw = raw[()]
        if not is_integer(raw):
            raise TypeError(f"action {raw!r} of {aid!r} is not an integer row index (allowed rows 0.."
                            f"{len(self._offered) - 1})")
        a = int(raw)
        if not 0 <= a < len(self._offered):
            raise ValueError(f"action {a} of {aid!r} is not an offered play: allowed rows 0.."
                             f"{len(self._offered) - 1} (action_mask 1), K={self.max_plays}")
        self._acted[seat] = True
        if self.on_kernel:
            _, r = vector_features.apply_chosen(self.kernel.cards, self.kernel.scal, self.kernel.scores, 0,
                                                int(self._legal[int(self._offered[a])]))
            self._after_kernel_play(int(r))
        else:
            self._apply(seat, self._legal[int(self._offered[a])])
        self._advance()
        rewards = {aid: 0.0}
        for s in range(self.game_config.n_players):
            if self._acted[s] and self._held[s] and s not in self._baselines:
                rewards[self._ids[s]] = rewards.get(self._ids[s], 0.0) + self._held[s]
                self.delivered[s] += self._held[s]
                self._held[s] = 0.0
        if self.game_over:
            obs, infos, terms = {}, {}, {"__all__": True}
            totals = self.totals
            base = [totals[s] for s in self._baselines]
            for s in range(self.game_config.n_players):
                if self._acted[s] and s not in self._baselines:
                    a_s = self._ids[s]
                    rewards.setdefault(a_s, 0.0)
                    obs[a_s] = self._observe(s)
                    terms[a_s] = True
                    infos[a_s] = {"score": float(totals[s]), "reward": float(self.delivered[s]),
                                  "baseline_score": float(np.mean(base)) if base else float("nan")}
            return obs, rewards, terms, {"__all__": False}, infos
        return ({self._ids[self._to_act]: self._observe(self._to_act)}, rewards, {"__all__": False},
                {"__all__": False}, {})

    def render(self) -> None:
        """Nothing to draw (no render modes; RLlib's default), but the order is checked.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        if not self._dealt:
            raise reset_needed("render", self._closed)

    def close(self) -> None:
        """End the episode: ``step`` and ``render`` then raise ``ResetNeeded`` until ``reset()`` deals a new
        game (:attr:`game_over` is ``True``, :meth:`offered_plays` ``[]``). Closing twice does nothing
        more."""
        self._dealt, self._closed = False, True
        self._offered, self._legal, self._to_act = None, None, -1

    @property
    def game_over(self) -> bool:
        """Whether this episode's game has ended (``True`` before the first ``reset()`` and after
        ``close()``)."""
        if not self._dealt:
            return True
        if self.on_kernel:
            return bool(self.kernel.scal[0, S_OVER])
        return self.game is None or self.game.game_over

    @property
    def totals(self) -> list[int]:
        """Each seat's game total so far (points, a new list; rules section 5)."""
        if self.on_kernel:
            return self.kernel.totals(0)
        return list(self.game.totals) if self.game is not None else [0] * self.game_config.n_players

    # --- internals ----------------------------------------------------------------------------
    def _apply(self, seat: int, play) -> None:
        result = self.game.apply(play)
        if result.round_scores is not None:
            self._book(result.round_scores)

    def _book(self, sc) -> None:
        """Hold the learning seats' rewards of a round with scores ``sc`` (ints, one per seat)."""
        n, tot = len(sc), sum(sc)
        for s in range(n):
            if s not in self._baselines:
                self._held[s] += (sc[s] - (tot - sc[s]) / (n - 1)) / self.reward_scale

    def _after_kernel_play(self, r: int) -> None:
        """After a kernel play (``r``: the round in play before it): book the round when it ended and draw
        the next deal ahead."""
        k = self.kernel
        if int(k.scal[0, S_OUTCOME]) >= OUT_ROUND:
            self._book(k.scores[0, r, :self.game_config.n_players].tolist())
            k.refill(0)

    def _advance_kernel(self) -> None:
        """:meth:`_advance` on the kernel: forced plays and heuristic seats in compiled code
        (:func:`seers_env.vector_features.advance_forced`), then the learner's decision's features
        (:func:`seers_env.vector.kernel_play_features`)."""
        k = self.kernel
        slots = np.zeros(1, np.int64)
        status = np.empty(1, np.int64)
        rounds = np.empty(1, np.int64)
        weights, danger = self._weights
        while not k.scal[0, S_OVER]:
            vector_features.advance_forced(k.cards, k.scal, k.scores, slots, self._heuristic_seats, weights, danger,
                                           status, rounds)
            if status[0] == vector_features.WAITS:
                f = kernel_play_features(k, slots, heuristic_prior=False, hidden=False)
                self._to_act, self._legal = int(f.seats[0]), f.keys
                self._state, self._rows = f.states[0], f.rows
                self._offered = self._offer_indices(((f.keys >> 57) & 3) == PASS_KIND)  # key kind field (core.pack)
                return
            self._after_kernel_play(int(rounds[0]))
        self._to_act, self._legal, self._offered = -1, None, None

    def _advance(self) -> None:
        """Play forced decisions and baseline seats until a learning seat has a choice or the game ends."""
        if self.on_kernel:
            self._advance_kernel()
            return
        g = self.game
        while not g.game_over:
            seat = g.current
            legal = g.legal_plays()
            if seat in self._baselines:
                self._apply(seat, self._baselines[seat].act(SeatView(g, seat)))
            elif len(legal) == 1:
                self._apply(seat, legal[0])
            else:
                self._to_act, self._legal = seat, legal
                self._offered = self._offer(legal)
                return
        self._to_act, self._legal, self._offered = -1, None, None

    def _offer(self, legal) -> np.ndarray:
        """Indices into ``legal`` of the plays offered (all when at most K; module docstring)."""
        return self._offer_indices(np.array([p.kind == PlayKind.PASS for p in legal], bool))

    def _offer_indices(self, is_pass: np.ndarray) -> np.ndarray:
        """:meth:`_offer` from a bool ``(P,)`` pass flag per legal play (both paths make the same draws)."""
        n, k = len(is_pass), self.max_plays
        if n <= k:
            return np.arange(n)
        passes = np.flatnonzero(is_pass).tolist()
        others = np.flatnonzero(~is_pass)
        drawn = self.rng.choice(others, size=k - len(passes), replace=False)
        return np.sort(np.concatenate([np.asarray(passes, dtype=np.int64), drawn.astype(np.int64)]))

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        if self.on_kernel:
            return self._observe_kernel(seat)
        view = SeatView(self.game, seat)
        k = self.max_plays
        plays = np.zeros((k, PLAY_DIM), dtype=np.float32)
        mask = np.zeros(k, dtype=np.float32)
        if seat == self._to_act:
            offered = [self._legal[i] for i in self._offered]
            plays[:len(offered)] = encode_plays(view, offered)
            mask[:len(offered)] = 1.0
        return {"observations": encode_state(view), "plays": plays, "action_mask": mask}

    def _observe_kernel(self, seat: int) -> dict[str, np.ndarray]:
        """:meth:`_observe` from the kernel's features (the same arrays, bit for bit)."""
        k = self.max_plays
        plays = np.zeros((k, PLAY_DIM), dtype=np.float32)
        mask = np.zeros(k, dtype=np.float32)
        if seat == self._to_act:
            state = self._state.copy()
            plays[:len(self._offered)] = self._rows[self._offered]
            mask[:len(self._offered)] = 1.0
        else:  # a final observation: encode_state from another seat's side (the viewer is S_CURRENT)
            kg = self.kernel
            scal = kg.scal.copy()
            scal[0, S_CURRENT] = seat
            state = np.empty(STATE_DIM, np.float32)
            vector_features.write_state(kg.cards, scal, kg.scores, 0, state)
        return {"observations": state, "plays": plays, "action_mask": mask}

    def offered_plays(self) -> list:
        """The plays offered to the acting seat, in row order (a new list; ``[]`` when none: before
        ``reset()``, after ``close()`` and once the game is over, as :attr:`totals` and :attr:`game_over`
        answer then)."""
        if self._offered is None:
            return []
        if self.on_kernel:
            return list(plays_of_keys(np.ascontiguousarray(self._legal[self._offered])))
        return [self._legal[i] for i in self._offered]


__all__ = ["FROZEN_PREFIX", "LEARNER_PREFIX", "MAX_PLAYS", "REWARD_SCALE", "SeersMultiAgentEnv", "agent_id", "observation_space", "seat_of"]
