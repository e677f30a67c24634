"""Many Seers Catalog games stepped together, for learners: stacked observations, masks and rewards.

:class:`SeersVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.seers_catalog_v0`)
and steps them with one action each, on the compiled game kernel (:mod:`seers_env.engine.kernel`, with the
decisions, masks and observations of :mod:`seers_env.vector_core`). It follows Gymnasium's vector API (``gymnasium.vector.VectorEnv``:
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

from . import vector_core
from .actions import N_ACTIONS
from .engine.artifacts import DEFAULT_ARTIFACT_DECK
from .engine.game import GameConfig
from .engine.kernel import N_CARD_IDS, S_PENDING_READY, KernelGames
from .observation import OBS_DIM
from .seers_catalog_v0 import OBS_BOUND, REWARD_MODES


class SeersVectorEnv:
    """``num_envs`` Seers Catalog games stepped together (see the module docstring).

    The games run on the compiled game kernel (:mod:`seers_env.engine.kernel`); decisions, masks and
    observations are built in compiled code too (:mod:`seers_env.vector_core`), so a step is one compiled
    call over all games plus the Python deal of each round that ends.

    Args:
        num_envs: number of games in flight, at least 1.
        n_players, n_rounds, artifact_deck: the game configuration (:class:`~seers_env.game.GameConfig`).
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        parallel: step the games on numba's thread pool (``numba.set_num_threads`` sets its size; default
            all cores). Off by default: processes that run several environments, or a learner's torch
            threads, may want the cores for themselves. Results are the same either way. On a busy
            machine set ``OMP_WAIT_POLICY=PASSIVE`` (OpenMP's idle threads then sleep instead of
            spinning) before numba's first parallel call; ``seers bench env`` does.

    Attributes:
        kernel: the :class:`~seers_env.engine.kernel.KernelGames` holding every game's state (read-only
            by convention).

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode or a bad game configuration.
    """

    metadata = {"name": "seers_catalog_v0_vector", "autoreset_mode": "SameStep"}

    def __init__(self, num_envs: int, n_players: int = 4, n_rounds: int = 4,
                 artifact_deck: Sequence[str] | None = DEFAULT_ARTIFACT_DECK, reward_mode: str = "score",
                 parallel: bool = False):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} is not allowed; use an integer >= 1")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        self.num_envs = int(num_envs)
        self.config = GameConfig(n_players=n_players, n_rounds=n_rounds,
                                 artifact_deck=() if artifact_deck is None else artifact_deck)
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        self.parallel = bool(parallel)
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
        n = self.num_envs
        self.kernel: KernelGames | None = None
        self._closed = False
        # pending decisions (seers_env.vector_core): legal play keys, candidates, stage and chosen codes
        self._keys = np.zeros((n, 1024), np.int64)
        self._cands = np.zeros((n, 1024), np.int32)
        self._nkeys = np.zeros(n, np.int64)
        self._dec = np.zeros((n, vector_core.N_DEC), np.int64)
        # this step's observations and masks: fresh arrays every step, handed to the caller as they are
        # (nothing here reads them again: actions are checked against the decision rows)
        self._fresh_outputs()
        self._rewards = np.zeros((n, self.n_players), np.float32)
        self._terms = np.zeros(n, bool)
        self._totals = np.zeros((n, self.n_players), np.int64)
        self._widen = np.zeros(n, np.int64)
        self._buf = np.empty(N_CARD_IDS + 160, np.int64)

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
            rngs = [np.random.default_rng(s) for s in root.spawn(self.num_envs)]
        else:
            rngs = [np.random.default_rng(int(seed) + i) for i in range(self.num_envs)]
        k = self.kernel = KernelGames(self.num_envs, self.config)
        self._fresh_outputs()
        for i, rng in enumerate(rngs):
            k.slot_rngs[i] = rng
            # as raw_env.reset(): each game's seed is drawn from the slot's generator
            k.new_game(i, int(rng.integers(2**63 - 1)))
        if vector_core.start_all_folded(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                 self._obs, self._masks, self._widen, self._buf):
            self._widen_rows()
        return self._observations(), {"seat": self._seats()}

    def _seats(self) -> np.ndarray:
        return self.kernel.scal[:, 0].copy()  # kernel.S_CURRENT

    def _widen_rows(self) -> None:
        """Widen the decision buffers to the most legal plays needed, then list the rows that overflowed."""
        rows = np.flatnonzero(self._widen)
        need = int(self._widen.max())
        width = max(need, 2 * self._keys.shape[1])
        keys = np.zeros((self.num_envs, width), np.int64)
        cands = np.zeros((self.num_envs, width), np.int32)
        keys[:, :self._keys.shape[1]] = self._keys
        cands[:, :self._cands.shape[1]] = self._cands
        self._keys, self._cands = keys, cands
        k = self.kernel
        vector_core.finish_rows_folded(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                self._obs, self._masks, rows, self._buf)
        self._widen[:] = 0

    def _fresh_outputs(self) -> None:
        """New arrays for the next observations and masks (every row is written by the compiled step)."""
        self._obs = np.empty((self.num_envs, OBS_DIM), np.float32)
        self._masks = np.empty((self.num_envs, N_ACTIONS), np.int8)

    def _observations(self) -> dict[str, np.ndarray]:
        # handed over without a copy: the arrays are new each step and never read here again
        return {"observation": self._obs, "action_mask": self._masks}

    # --- stepping ---------------------------------------------------------------------------------
    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one action in every game (the acting seat's, at its pending decision stage).

        Args:
            actions: int array-like of shape ``(num_envs,)``, each allowed by its row's action mask.

        Returns:
            ``(observations, rewards float32 (N, n_players), terminations bool (N,), truncations bool (N,),
            infos)``; infos: ``{"seat": int64 (N,), "totals": int64 (N, n_players)}``.

        Raises:
            RuntimeError: ``reset()`` was not called, or ``close()`` was.
            TypeError: actions of a non-integer dtype (float, bool, object ...).
            ValueError: wrong shape, or an action outside its row's mask (the message names the row and
            the value, also one beyond int64); no game changes then.
        """
        self._check_open("step")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must be integers of shape ({self.num_envs},), got {a.dtype} {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions must be integers (an integer dtype), got dtype {a.dtype}")
        if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:  # would wrap to negative
            bad = int(np.argmax(a > np.iinfo(np.int64).max))
            raise ValueError(f"action {int(a[bad])} of row {bad} is out of range (allowed: 0 .. "
                             f"{N_ACTIONS - 1}, where its action mask allows it)")
        a = a.astype(np.int64)
        bad = vector_core.first_bad_action(self.kernel.scal, self._keys, self._cands, self._dec, a)
        if bad >= 0:
            allowed = np.flatnonzero(self.action_masks()[bad])
            more = " ..." if allowed.size > 12 else ""
            raise ValueError(f"action {int(a[bad])} of row {bad} is not allowed by its action mask "
                             f"(allowed: {allowed[:12].tolist()}{more})")
        k = self.kernel
        step = vector_core.step_all_parallel if self.parallel else vector_core.step_all
        self._fresh_outputs()
        if step(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec, a,
                self._obs, self._masks, self._rewards, self._terms, self._totals, self.reward_mode == "win",
                self._widen):
            self._widen_rows()
        for i in np.flatnonzero(k.scal[:, S_PENDING_READY] == 0).tolist():
            k.refill(i)  # deal the next round (or game) ahead, in Python
        return (self._observations(), self._rewards.copy(), self._terms.copy(), np.zeros(self.num_envs, bool),
                {"seat": self._seats(), "totals": self._totals.copy()})

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array, built from the pending
        decisions), as sb3-contrib asks for.

        Raises:
            RuntimeError: ``reset()`` was not called, or ``close()`` was.
        """
        self._check_open("action_masks")
        masks = np.empty((self.num_envs, N_ACTIONS), np.int8)
        vector_core.write_masks(self.kernel.scal, self._keys, self._cands, self._dec, masks)
        return masks

    def close(self) -> None:
        """Release the games; ``step()`` and ``action_masks()`` then raise ``RuntimeError`` until
        ``reset()`` deals new ones."""
        self.kernel = None
        self._closed = True

    def _check_open(self, name: str) -> None:
        """``RuntimeError`` naming ``name`` unless games are dealt (``reset()`` called, no ``close()``
        since)."""
        if self.kernel is None:
            if self._closed:
                raise RuntimeError(f"{name}() after close(); call reset() to deal new games first")
            raise RuntimeError(f"call reset() before {name}()")


__all__ = ["SeersVectorEnv"]
