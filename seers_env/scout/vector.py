"""Many SCOUT games stepped together, for learners: stacked observations, masks and rewards.

:class:`ScoutVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.scout_v0`) and
steps them with one catalogue action each, on the compiled kernel (:mod:`seers_env.scout.kernel`). It
follows Gymnasium's vector API (``reset(seed) -> (obs, infos)``, ``step(actions) -> (obs, rewards,
terminations, truncations, infos)``, arrays stacked along a first axis of length ``num_envs``) with the
turn-based twist of PettingZoo's AEC games, as :class:`seers_env.vector.SeersVectorEnv` does for Seers
Catalog: each row is the decision of the seat to act in that game (``infos["seat"]``), and rewards are
given to every seat.

* observations: ``{"observation": float32 (N, 849), "action_mask": int8 (N, 2396)}``, the acting seat's
  observation and mask (the AEC env's, stacked; a Scout & Show takes two actions of the same seat:
  ``infos["stage"] == 1`` at its second);
* rewards: float32 ``(N, n_players)`` by absolute seat, as the AEC env gives them (``"score"``: round
  scores when a round ends; ``"win"``: placement rewards when the game ends);
* terminations / truncations: bool ``(N,)``: the game ended with this step (truncated when its last round
  was cut by ``max_turns_per_round``, as the AEC env reports it);
* autoreset in the same step: a game that ends is replaced at once by the next game of its slot, so the
  returned row is the first decision of the new game; ``infos["totals"]`` (int64 ``(N, n_players)``)
  holds the final totals of the games that ended (zeros elsewhere).

**Seeds.** Slot ``i`` after ``reset(seed=seed)`` plays the games of ``raw_env().reset(seed=slot_seed(seed,
i))`` followed by ``reset()`` after each game (:func:`slot_seed`: child ``i`` of
``numpy.random.SeedSequence(seed)``, so that two seeds share no slot's games); the trajectories are those
of the AEC envs (``tests/test_scout_vector.py``).

**Play level** (DouZero / PerfectDou style learners): :meth:`ScoutVectorEnv.play_features` gives every
game's acting-seat state and one feature row per legal play (``ScoutGame.legal_plays()`` order;
:mod:`seers_env.scout.features`, computed in compiled code), and :meth:`ScoutVectorEnv.step_plays` applies
one whole play per game by its index in that list (a Scout & Show in one call), with the rewards,
terminations and autoreset of :meth:`~ScoutVectorEnv.step`. The two levels mix between whole plays only:
while a game waits for the second action of a Scout & Show, :meth:`~ScoutVectorEnv.step_plays` raises.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from . import kernel, kernel_features
from .actions import N_ACTIONS
from .features import PLAY_DIM, STATE_DIM
from .game import ScoutConfig
from .kernel import S_CURRENT, S_NEXT_READY, S_STAGE, ScoutKernel
from .observation import OBS_BOUND, OBS_DIM

#: Reward modes, as in :mod:`seers_env.scout_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.scout.game.ScoutConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = ("first_player", "public_scout_flip_and_position", "two_player_may_stop", "max_turns_per_round",
                 "n_rounds")


def _check_seed(seed: Any, name: str = "seed") -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{name}={seed!r} is not allowed; use an integer >= 0")
    return int(seed)


def slot_seed(seed: int, i: int) -> int:
    """The seed of slot ``i`` after ``ScoutVectorEnv.reset(seed=seed)`` (any ``num_envs > i``): child ``i``
    of ``numpy.random.SeedSequence(seed)`` (``SeedSequence(seed, spawn_key=(i,))``, what
    ``SeedSequence(seed).spawn(n)[i]`` is), as a 64-bit ``int``. ``raw_env().reset(seed=slot_seed(seed,
    i))``, then ``reset()`` after each game, plays that slot's games.

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``i``.
    """
    seed = _check_seed(seed)
    i = _check_seed(i, "i")
    return int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0])


def slot_seeds(seed: int, num_envs: int) -> list[int]:
    """``[slot_seed(seed, i) for i in range(num_envs)]``.

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``num_envs``.
    """
    return [slot_seed(seed, i) for i in range(_check_seed(num_envs, "num_envs"))]


class VectorResetNeeded(ResetNeeded, RuntimeError):
    """A :class:`ScoutVectorEnv` method called before ``reset()`` or after ``close()``: a
    ``gymnasium.error.ResetNeeded`` (also a ``RuntimeError``, as :class:`seers_env.vector.SeersVectorEnv`
    raises)."""


class ScoutPlayFeatures(NamedTuple):
    """Play-scoring features of every game's decision (:meth:`ScoutVectorEnv.play_features`); new arrays.

    Attributes:
        states: float32 ``(N, STATE_DIM)``: :func:`seers_env.scout.features.encode_state` of each acting seat.
        rows: float32 ``(R, PLAY_DIM)``: :func:`seers_env.scout.features.encode_plays` rows of every legal
            play of every game.
        offsets: int64 ``(N + 1,)``: game ``i`` owns ``rows[offsets[i]:offsets[i + 1]]`` (its legal plays in
            ``ScoutGame.legal_plays()`` order).
        seats: int64 ``(N,)``: the acting seat of each game.
        plays: int64 ``(R, 6)``: the :class:`~seers_env.scout.plays.ScoutPlay` fields ``(kind, end, flip,
            position, start, length)`` of each row.
    """

    states: np.ndarray
    rows: np.ndarray
    offsets: np.ndarray
    seats: np.ndarray
    plays: np.ndarray


class ScoutVectorEnv:
    """``num_envs`` SCOUT games stepped together (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2..5.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.scout.game.ScoutConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        kernel: the :class:`~seers_env.scout.kernel.ScoutKernel` holding the games (``None`` before
            ``reset()`` and after ``close()``; read-only by convention).
        config: the :class:`~seers_env.scout.game.ScoutConfig` of every game.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode or a bad config value. TypeError: an unknown
            config field, or a field of the wrong type.
    """

    metadata = {"name": "scout_v0_vector", "autoreset_mode": "SameStep"}

    def __init__(self, num_envs: int, n_players: int = 4, reward_mode: str = "score", **config: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} is not allowed; use an integer >= 1")
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        unknown = sorted(set(config) - set(CONFIG_FIELDS))
        if unknown:
            raise TypeError(f"unknown SCOUT option(s) {unknown}; allowed: n_players, reward_mode, "
                            f"{', '.join(CONFIG_FIELDS)}")
        self.config = ScoutConfig(n_players=n_players, **config)
        kernel.check_kernel_config(self.config)
        self.num_envs = int(num_envs)
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        n = self.num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (n, OBS_DIM), np.float32),
            "action_mask": spaces.Box(0, 1, (n, N_ACTIONS), np.int8),
        })
        self.action_space = spaces.MultiDiscrete(np.full(n, N_ACTIONS))
        self.kernel: ScoutKernel | None = None
        self._closed = False
        self._rewards = np.zeros((n, self.n_players), np.float32)
        self._terms = np.zeros(n, bool)
        self._truncs = np.zeros(n, bool)
        self._totals = np.zeros((n, self.n_players), np.int64)
        self._plays: tuple[np.ndarray, np.ndarray] | None = None  # this decision's legal keys, offsets
        self._fresh_outputs()

    # --- episodes -------------------------------------------------------------------------------------
    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)`` (:func:`slot_seeds`)."""
        return slot_seeds(seed, self.num_envs)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot; slot ``i`` plays the games of ``raw_env().reset(seed=slot_seed(seed,
        i))`` (fresh entropy when ``seed`` is None). ``options`` is ignored.

        Returns:
            ``(observations, infos)``; infos: ``{"seat": int64 (N,), "stage": int64 (N,)}``.

        Raises:
            ValueError: a negative or non-integer seed.
        """
        if seed is None:
            seeds = [int(s.generate_state(1, np.uint64)[0]) for s in np.random.SeedSequence().spawn(self.num_envs)]
        else:
            seeds = self.slot_seeds(seed)
        k = ScoutKernel(self.num_envs, self.config)
        for i, s in enumerate(seeds):
            rng = np.random.default_rng(s)  # as raw_env.reset(seed=s): each game's seed drawn from it
            k.slot_rngs[i] = rng
            k.new_game(i, int(rng.integers(2**63 - 1)))
            k.next_game_ahead(i)
        self.kernel = k
        self._closed = False
        self._plays = None
        self._fresh_outputs()
        kernel.write_all(k.hands, k.scouted, k.active, k.scal, k.scores, self._obs, self._masks)
        return self._observations(), {"seat": self._seats(), "stage": k.scal[:, S_STAGE].copy()}

    def _fresh_outputs(self) -> None:
        """New arrays for the next observations and masks (every row is written by compiled code; they
        are handed over as they are and never read here again)."""
        self._obs = np.empty((self.num_envs, OBS_DIM), np.float32)
        self._masks = np.empty((self.num_envs, N_ACTIONS), np.int8)

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs, "action_mask": self._masks}

    def _seats(self) -> np.ndarray:
        return self.kernel.scal[:, S_CURRENT].copy()

    def _check_open(self, name: str) -> ScoutKernel:
        if self.kernel is None:
            if self._closed:
                raise VectorResetNeeded(f"{name}() after close(); call reset() to deal new games first")
            raise VectorResetNeeded(f"call reset() before {name}()")
        return self.kernel

    def _int_rows(self, values, what: str, one: str, allowed: str) -> np.ndarray:
        """``values`` as int64 ``(num_envs,)``: ValueError for a wrong shape or a uint64 beyond int64 (the
        message names ``one`` value, its row and the ``allowed`` ones), TypeError for a non-integer dtype."""
        a = np.asarray(values)
        if a.shape != (self.num_envs,):
            raise ValueError(f"{what} must be integers of shape ({self.num_envs},), got {a.dtype} {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"{what} must be integers (an integer dtype), got dtype {a.dtype}")
        if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
            bad = int(np.argmax(a > np.iinfo(np.int64).max))
            raise ValueError(f"{one} {int(a[bad])} of row {bad} is out of range (allowed: {allowed})")
        return a.astype(np.int64)

    # --- stepping ---------------------------------------------------------------------------------------
    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one catalogue action in every game (the acting seat's, at its pending stage).

        Args:
            actions: int array-like ``(num_envs,)``, each allowed by its row's action mask.

        Returns:
            ``(observations, rewards float32 (N, n_players), terminations bool (N,), truncations bool (N,),
            infos)``; infos: ``{"seat": int64 (N,), "stage": int64 (N,), "totals": int64 (N, n_players)}``.

        Raises:
            VectorResetNeeded (a ``gymnasium.error.ResetNeeded``): before ``reset()`` or after ``close()``.
            TypeError: actions of a non-integer dtype. ValueError: a wrong shape, or an action its row's
                mask does not allow (the message names the row, the action and allowed ones). Nothing
                changes on any error.
        """
        k = self._check_open("step")
        a = self._int_rows(actions, "actions", "action", f"0 .. {N_ACTIONS - 1}, where its action mask allows it")
        bad = kernel.first_bad_action(k.hands, k.active, k.scal, a)
        if bad >= 0:
            allowed = np.flatnonzero(self.action_masks()[bad])
            more = " ..." if allowed.size > 12 else ""
            raise ValueError(f"action {int(a[bad])} of row {bad} is not allowed by its action mask (allowed: "
                             f"{allowed[:12].tolist()}{more})")
        self._fresh_outputs()
        self._plays = None
        errors = kernel.step_all(k.hands, k.scouted, k.active, k.scal, k.scores, k.deals, a, self._obs, self._masks,
                                 self._rewards, self._terms, self._truncs, self._totals, self.reward_mode == "win")
        return self._after_step(errors)

    def _after_step(self, errors: int) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        k = self.kernel
        if errors:  # every slot always has its next game drawn ahead: a broken kernel state
            raise RuntimeError(f"{errors} game(s) ended without a next game drawn ahead")
        for i in np.flatnonzero(k.scal[:, S_NEXT_READY] == 0).tolist():
            k.next_game_ahead(i)  # the slot's next game, in Python
        return (self._observations(), self._rewards.copy(), self._terms.copy(), self._truncs.copy(),
                {"seat": self._seats(), "stage": k.scal[:, S_STAGE].copy(), "totals": self._totals.copy()})

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array), as sb3-contrib asks.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        k = self._check_open("action_masks")
        masks = np.empty((self.num_envs, N_ACTIONS), np.int8)
        kernel.write_masks(k.hands, k.active, k.scal, masks)
        return masks

    # --- play level -------------------------------------------------------------------------------------
    def play_features(self) -> ScoutPlayFeatures:
        """Every game's decision at the play level: :class:`ScoutPlayFeatures` (new arrays; layouts in
        :mod:`seers_env.scout.features`, equal to its ``encode_state`` / ``encode_plays``).

        Row ``j`` of game ``i`` (``rows[offsets[i] + j]``) is the ``j``-th play of its acting seat's
        ``legal_plays()``, the play :meth:`step_plays` applies for index ``j``. A game waiting for the
        second action of a Scout & Show still gets its seat's full list (the stage-1 scout is not applied to
        the game); :meth:`step_plays` raises for it.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        k = self._check_open("play_features")
        slots = np.arange(self.num_envs, dtype=np.int64)
        states, rows, offsets, keys = kernel_features.decision_features(k.hands, k.scouted, k.active, k.scal,
                                                                         k.scores, slots)
        self._plays = (keys, offsets.copy())  # kept apart from what the caller gets
        return ScoutPlayFeatures(states, rows, offsets, self._seats(), kernel.plays_of_keys(keys))

    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply one whole play in every game: play ``indices[i]`` of game ``i``'s legal list
        (:meth:`play_features` order), one or two catalogue actions of :meth:`step`.

        Returns:
            What :meth:`step` returns, with the same conventions (autoreset; the observations and masks of
            the next catalogue decisions).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
            RuntimeError: a game waits for the second action of a Scout & Show (finish it with :meth:`step`).
            TypeError: indices of a non-integer dtype. ValueError: a wrong shape.
            IndexError: an index outside its game's legal plays (the message names the row, the value and
                the allowed range). Nothing changes on any error.
        """
        k = self._check_open("step_plays")
        a = self._int_rows(indices, "indices", "play index", "0 .. the number of its legal plays - 1")
        mid = np.flatnonzero(k.scal[:, S_STAGE] != 0)
        if mid.size:
            raise RuntimeError(f"row {int(mid[0])} waits for the second action of a Scout & Show (stage 1); "
                               "finish it with step() first")
        if self._plays is None:
            self._plays = kernel.legal_key_lists(k.hands, k.active, k.scal, np.arange(self.num_envs, dtype=np.int64))
        keys, offsets = self._plays
        counts = np.diff(offsets)
        bad = np.flatnonzero((a < 0) | (a >= counts))
        if bad.size:
            r = int(bad[0])
            raise IndexError(f"play index {int(a[r])} of row {r} is out of range; allowed: 0 .. {int(counts[r]) - 1} "
                             f"(its {int(counts[r])} legal plays)")
        chosen = keys[offsets[:-1] + a]
        self._fresh_outputs()
        self._plays = None
        errors = kernel.step_keys_all(k.hands, k.scouted, k.active, k.scal, k.scores, k.deals, chosen, self._obs,
                                      self._masks, self._rewards, self._terms, self._truncs, self._totals,
                                      self.reward_mode == "win")
        return self._after_step(errors)

    def close(self) -> None:
        """Release the games; every method but :meth:`reset` then raises ``ResetNeeded``."""
        self.kernel = None
        self._plays = None
        self._closed = True


assert STATE_DIM > OBS_DIM and PLAY_DIM > 0

__all__ = ["CONFIG_FIELDS", "REWARD_MODES", "ScoutPlayFeatures", "ScoutVectorEnv", "VectorResetNeeded",
           "slot_seed", "slot_seeds"]
