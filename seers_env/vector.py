"""Many Seers Catalog games stepped together, for learners: stacked observations, masks and rewards.

:class:`SeersVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.seers_catalog_v0`)
and steps them with one action each. It follows Gymnasium's vector API (``gymnasium.vector.VectorEnv``:
``reset(seed) -> (obs, infos)``, ``step(actions) -> (obs, rewards, terminations, truncations, infos)``,
arrays stacked along a first axis of length ``num_envs``, seeds ``seed + i``, dict infos of arrays) with
the turn-based twist of PettingZoo's AEC games: each row is the decision of the seat to act in that game
(``infos["seat"]``), and rewards are given to every seat.

* observations: ``{"observation": float32 (N, OBS_DIM), "action_mask": int8 (N, N_ACTIONS)}``, the stacked
  observation of the acting seat of each game (the AEC env's observation space, stacked);
* rewards: float32 ``(N, n_players)`` by absolute seat, as the AEC env gives them (``reward_mode``
  ``"score"``: round scores when a round ends; ``"win"``: placement reward when the game ends);
* terminations: bool ``(N,)``, true when that game ended with this step; truncations: always false;
* autoreset in the same step: a game that ends is replaced at once by the next game of its slot, so the
  returned row is the first decision of the new game; ``infos["totals"]`` (int64 ``(N, n_players)``) holds
  the final totals of the games that ended (zeros elsewhere).

Slot ``i`` draws its games exactly as ``raw_env.reset(seed=seed + i)`` and then ``reset()`` after each
game: stepping the vector env gives the same trajectories as stepping those AEC envs one by one
(``tests/test_vector.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from .actions import N_ACTIONS, Decision
from .engine.artifacts import DEFAULT_ARTIFACT_DECK
from .engine.game import Game, GameConfig
from .engine.scoring import placements
from .observation import OBS_DIM, observe
from .seers_catalog_v0 import OBS_BOUND, REWARD_MODES


class SeersVectorEnv:
    """``num_envs`` Seers Catalog games stepped together (see the module docstring).

    Args:
        num_envs: number of games in flight, at least 1.
        n_players, n_rounds, artifact_deck: the game configuration (:class:`~seers_env.game.GameConfig`).
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode or a bad game configuration.
    """

    metadata = {"name": "seers_catalog_v0_vector", "autoreset_mode": "SameStep"}

    def __init__(self, num_envs: int, n_players: int = 4, n_rounds: int = 4,
                 artifact_deck: Sequence[str] | None = DEFAULT_ARTIFACT_DECK, reward_mode: str = "score"):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} is not allowed; use an integer >= 1")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        self.num_envs = int(num_envs)
        self.config = GameConfig(n_players=n_players, n_rounds=n_rounds,
                                 artifact_deck=() if artifact_deck is None else artifact_deck)
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.num_envs, OBS_DIM), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_envs, N_ACTIONS), np.int8),
        })
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, N_ACTIONS))
        self.games: list[Game] = []
        self.decisions: list[Decision] = []
        self._rngs: list[np.random.Generator] = []
        self._obs = np.zeros((self.num_envs, OBS_DIM), np.float32)
        self._masks = np.zeros((self.num_envs, N_ACTIONS), np.int8)
        self._seats = np.zeros(self.num_envs, np.int64)

    # --- episodes ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot; slot ``i`` is seeded with ``seed + i`` (fresh entropy if None).

        Returns:
            ``(observations, infos)``; infos: ``{"seat": int64 (N,)}``.

        Raises:
            ValueError: a negative or non-integer seed.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        if seed is None:
            root = np.random.SeedSequence()
            self._rngs = [np.random.default_rng(s) for s in root.spawn(self.num_envs)]
        else:
            self._rngs = [np.random.default_rng(int(seed) + i) for i in range(self.num_envs)]
        self.games = [self._new_game(i) for i in range(self.num_envs)]
        self.decisions = [None] * self.num_envs  # type: ignore[list-item]
        for i in range(self.num_envs):
            self._new_decision(i)
        return self._observations(), {"seat": self._seats.copy()}

    def _new_game(self, i: int) -> Game:
        # as raw_env.reset(): each game's seed is drawn from the slot's generator
        return Game(self.config, seed=int(self._rngs[i].integers(2**63 - 1)))

    def _new_decision(self, i: int) -> None:
        g = self.games[i]
        d = self.decisions[i] = Decision(g.legal_plays(), g.current, g.config.n_players)
        self._seats[i] = g.current
        self._write(i, g, d)

    def _write(self, i: int, g: Game, d: Decision) -> None:
        """Row ``i`` of the observation and mask buffers, for the pending decision ``d``."""
        self._obs[i] = observe(g, g.current, d)
        d.write_mask(self._masks[i])

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}

    # --- stepping ---------------------------------------------------------------------------------
    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one action in every game (the acting seat's, at its pending decision stage).

        Args:
            actions: int array-like of shape ``(num_envs,)``, each allowed by its row's action mask.

        Returns:
            ``(observations, rewards float32 (N, n_players), terminations bool (N,), truncations bool (N,),
            infos)``; infos: ``{"seat": int64 (N,), "totals": int64 (N, n_players)}``.

        Raises:
            RuntimeError: ``reset()`` was not called. ValueError: wrong shape, or an action outside its
            row's mask (the message names the row); no game changes then.
        """
        if not self.games:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be integers of shape ({self.num_envs},), got {a.dtype} {a.shape}")
        acts = a.tolist()
        for i, x in enumerate(acts):
            if not 0 <= x < N_ACTIONS or not self._masks[i, x]:
                raise ValueError(f"action {x} of row {i} is not allowed by its action mask "
                                 f"(allowed: {np.flatnonzero(self._masks[i])[:12].tolist()} ...)")
        n = self.n_players
        rewards = np.zeros((self.num_envs, n), np.float32)
        terminations = np.zeros(self.num_envs, bool)
        totals = np.zeros((self.num_envs, n), np.int64)
        score = self.reward_mode == "score"
        for i, x in enumerate(acts):
            d = self.decisions[i]
            g = self.games[i]
            play = d.choose(x)
            if play is None:  # a further choice of the same seat
                self._write(i, g, d)
                continue
            result = g.apply(play)
            if result.round_scores is not None and score:
                rewards[i] = result.round_scores
            if result.game_over:
                if not score:
                    places = placements(g.totals, g.round_scores[-1])
                    rewards[i] = [(n + 1 - 2 * p) / (n - 1) for p in places]
                terminations[i] = True
                totals[i] = g.totals
                self.games[i] = g = self._new_game(i)
            self._new_decision(i)
        return (self._observations(), rewards, terminations, np.zeros(self.num_envs, bool),
                {"seat": self._seats.copy(), "totals": totals})

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a copy), as sb3-contrib asks for."""
        return self._masks.copy()

    def close(self) -> None:
        pass


__all__ = ["SeersVectorEnv"]
