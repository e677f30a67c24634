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

The final observation's ``infos`` hold ``{"score": game total of the seat, "reward": its summed reward,
"baseline_score": mean game total of the baseline seats or NaN}`` for the metrics.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.game import Game, GameConfig
from seers_env.plays import PlayKind
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
            * ``seed`` (int, default 0); each worker and vector index draws its own stream from it.

    Raises:
        ValueError: a bad value (the message names it and what is allowed).
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
        if self.baseline:
            from agents.specs import make_agent

            make_agent(self.baseline)  # fail early on a bad spec
        worker = int(getattr(config, "worker_index", 0) or 0)
        vector = int(getattr(config, "vector_index", 0) or 0)
        self._stream = (worker, vector)
        self.rng = np.random.default_rng(np.random.SeedSequence([int(cfg.get("seed", 0)), worker, vector]))
        n = self.game_config.n_players
        self.possible_agents = [agent_id(s) for s in range(n)]
        if self.frozen_seats > 0:
            self.possible_agents += [agent_id(s, frozen=True) for s in range(n)]
        self.agents = list(self.possible_agents)
        space = observation_space(self.max_plays)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(self.max_plays) for a in self.possible_agents}
        self.game: Game | None = None

    # --- episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new game; returns ``({agent id: observation}, {})`` for the first seat with a choice."""
        if seed is not None:
            self.rng = np.random.default_rng(np.random.SeedSequence([int(seed), *self._stream]))
        n = self.game_config.n_players
        self.game = Game(self.game_config, rng=np.random.default_rng(self.rng.integers(2**63)))
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
        self.agents = [self._ids[s] for s in range(n) if s not in self._baselines]
        self._advance()
        if self.game.game_over:  # every decision was forced or a baseline's: nothing to learn from
            return {}, {}
        return {self._ids[self._to_act]: self._observe(self._to_act)}, {}

    def step(self, action_dict: dict[str, int]):
        """Apply the acting seat's play (``action_dict[agent id]``: a row index of its ``plays``).

        Raises:
            ValueError: no action for the acting seat, or an index outside ``0..K-1`` or on a padding
                row (the game is unchanged).
        """
        if self.game is None or self.game.game_over or self._to_act < 0:
            raise ValueError("step() called without a pending decision; call reset() first")
        seat = self._to_act
        aid = self._ids[seat]
        if aid not in action_dict:
            raise ValueError(f"no action for the acting agent {aid!r}; got actions for {sorted(action_dict)}")
        a = int(action_dict[aid])
        if not 0 <= a < len(self._offered):
            raise ValueError(f"action {a} of {aid!r} is not an offered play: allowed rows 0.."
                             f"{len(self._offered) - 1} (action_mask 1), K={self.max_plays}")
        play = self._legal[int(self._offered[a])]
        self._acted[seat] = True
        self._apply(seat, play)
        self._advance()
        rewards = {aid: 0.0}
        for s in range(self.game_config.n_players):
            if self._acted[s] and self._held[s] and s not in self._baselines:
                rewards[self._ids[s]] = rewards.get(self._ids[s], 0.0) + self._held[s]
                self.delivered[s] += self._held[s]
                self._held[s] = 0.0
        if self.game.game_over:
            obs, infos, terms = {}, {}, {"__all__": True}
            base = [self.game.totals[s] for s in self._baselines]
            for s in range(self.game_config.n_players):
                if self._acted[s] and s not in self._baselines:
                    a_s = self._ids[s]
                    rewards.setdefault(a_s, 0.0)
                    obs[a_s] = self._observe(s)
                    terms[a_s] = True
                    infos[a_s] = {"score": float(self.game.totals[s]), "reward": float(self.delivered[s]),
                                  "baseline_score": float(np.mean(base)) if base else float("nan")}
            return obs, rewards, terms, {"__all__": False}, infos
        return ({self._ids[self._to_act]: self._observe(self._to_act)}, rewards, {"__all__": False},
                {"__all__": False}, {})

    # --- internals ----------------------------------------------------------------------------
    def _apply(self, seat: int, play) -> None:
        result = self.game.apply(play)
        if result.round_scores is not None:
            sc = result.round_scores
            n, tot = len(sc), sum(sc)
            for s in range(n):
                if s not in self._baselines:
                    self._held[s] += (sc[s] - (tot - sc[s]) / (n - 1)) / self.reward_scale

    def _advance(self) -> None:
        """Play forced decisions and baseline seats until a learning seat has a choice or the game ends."""
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
        n, k = len(legal), self.max_plays
        if n <= k:
            return np.arange(n)
        passes = [i for i, p in enumerate(legal) if p.kind == PlayKind.PASS]
        others = np.array([i for i, p in enumerate(legal) if p.kind != PlayKind.PASS])
        drawn = self.rng.choice(others, size=k - len(passes), replace=False)
        return np.sort(np.concatenate([np.asarray(passes, dtype=np.int64), drawn.astype(np.int64)]))

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        view = SeatView(self.game, seat)
        k = self.max_plays
        plays = np.zeros((k, PLAY_DIM), dtype=np.float32)
        mask = np.zeros(k, dtype=np.float32)
        if seat == self._to_act:
            offered = [self._legal[i] for i in self._offered]
            plays[:len(offered)] = encode_plays(view, offered)
            mask[:len(offered)] = 1.0
        return {"observations": encode_state(view), "plays": plays, "action_mask": mask}

    def offered_plays(self) -> list:
        """The plays offered to the acting seat, in row order (a new list; ``[]`` when none)."""
        return [] if self._offered is None else [self._legal[i] for i in self._offered]


__all__ = ["FROZEN_PREFIX", "LEARNER_PREFIX", "MAX_PLAYS", "REWARD_SCALE", "SeersMultiAgentEnv", "agent_id", "observation_space", "seat_of"]
