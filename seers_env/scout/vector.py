"""Many SCOUT games stepped together, for learners: stacked observations, masks and rewards.

:class:`ScoutVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.scout_v0`) and
steps them with one catalogue action each, on the compiled kernel (:mod:`seers_env.scout.kernel`). It is a
``gymnasium.vector.VectorEnv``, as :class:`seers_env.vector.SeersVectorEnv` is for Seers Catalog
(``reset(seed, options) -> (obs, infos)``, ``step(actions) -> (obs, rewards, terminations, truncations,
infos)``, arrays stacked along a first axis of length ``num_envs``, dict infos of arrays with their ``_key``
masks), so Gymnasium's vector wrappers (``gymnasium.wrappers.vector``: ``RecordEpisodeStatistics``,
``DictInfoToList``, ``TransformReward``, ``TransformAction`` ...) take it, with the turn-based twist of
PettingZoo's AEC games: each row is the decision of the seat to act in that game (``infos["seat"]``).

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(-50, 50, (849,)),
  action_mask=Box(0, 1, (2396,), int8))``), ``single_action_space`` ``Discrete(2396)``;
  ``observation_space`` and ``action_space`` are their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, 849), "action_mask": int8 (N, 2396)}``, the acting seat's
  observation and mask (the AEC env's, stacked; a Scout & Show takes two actions of the same seat:
  ``infos["stage"] == 1`` at its second);
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row (the ``infos["seat"]`` of the
  previous step), as the AEC env gives it (``"score"``: its round score when a round ends; ``"win"``: its
  placement reward when the game ends). Every seat's reward of the step is in ``infos["rewards"]``,
  float32 ``(N, n_players)`` by absolute seat (a round's end scores all seats, not only the one that
  acted);
* terminations / truncations: bool ``(N,)``: the game ended with this step (truncated when its last round
  was cut by ``max_turns_per_round``, as the AEC env reports it). A truncated game is over too (its last
  round is scored as it stands), so nothing follows it to bootstrap from;
* autoreset in the same step (``metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP``):
  a game that ends is replaced at once by the next game of its slot, so the returned row is the first
  decision of the new game (no final observation is given: the game ended with no seat to act);
* infos: the same keys at reset and at every step (:data:`INFO_KEYS`), each with its ``_key`` mask (all
  true: every slot has every key), as Gymnasium's vector envs build them: ``seat`` and ``stage`` (int64
  ``(N,)``, the seat to act now and its catalogue stage), ``rewards`` (above; zeros at reset) and
  ``totals`` (int64 ``(N, n_players)``, the final totals of the games that ended with this step, zeros
  elsewhere).

**Seeds.** ``reset(seed=s)`` gives slot ``i`` the seed :func:`slot_seed(s, i) <slot_seed>`, child ``i`` of
``numpy.random.SeedSequence(s).spawn(num_envs)`` (:mod:`seers_env.seeding`), so two different seeds share no
game and slot ``i`` plays the same games whatever ``num_envs`` is; ``reset(seed=[s_0, ..., s_{N-1}])``
seeds each slot directly, as Gymnasium's vector envs take a list. Slot ``i`` plays the games of
``raw_env().reset(seed=slot seed)`` followed by ``reset()`` after each game: stepping the vector env gives
the trajectories of those AEC envs (``tests/test_scout_vector.py``).

**Positions.** ``reset(options={"games": {slot: ScoutGame.to_dict(), ...}})`` (or a list of ``num_envs``
dicts and ``None``\\ s) starts those slots from the given positions (saved or hand-made games of this
config, not over; a :class:`~seers_env.scout.game.ScoutGame` is copied), through
:meth:`ScoutKernel.load_game <seers_env.scout.kernel.ScoutKernel.load_game>`: each plays on exactly as
``ScoutGame.from_dict`` of its dict would. As in :class:`seers_env.vector.SeersVectorEnv`, the position
takes the place of the slot's first game: the slot's later games are those it plays after its first game
without the option. Other option keys are ignored.

**Play level** (DouZero / PerfectDou style learners): :meth:`ScoutVectorEnv.play_features` gives every
game's acting-seat state and one feature row per legal play (``ScoutGame.legal_plays()`` order;
:mod:`seers_env.scout.features`, computed in compiled code), and :meth:`ScoutVectorEnv.step_plays` applies
one whole play per game by its index in that list (a Scout & Show in one call), with the rewards,
terminations and autoreset of :meth:`~ScoutVectorEnv.step`. The two levels mix between whole plays only:
while a game waits for the second action of a Scout & Show, :meth:`~ScoutVectorEnv.step_plays` raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import seeding, vector_slots
from . import kernel, kernel_features
from .actions import N_ACTIONS
from .features import PLAY_DIM, STATE_DIM
from .game import ScoutConfig, ScoutGame
from .kernel import S_CURRENT, S_NEXT_READY, S_STAGE, ScoutKernel
from .observation import OBS_BOUND, OBS_DIM

#: Reward modes, as in :mod:`seers_env.scout_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.scout.game.ScoutConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = ("first_player", "public_scout_flip_and_position", "two_player_may_stop", "max_turns_per_round",
                 "n_rounds")
#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "stage", "rewards", "totals")

#: Bytes of the spaces and buffers of one game of :class:`ScoutVectorEnv`, about (for messages).
_BYTES_PER_GAME = 2 * 8 * OBS_DIM + 2 * N_ACTIONS + 2 * (4 * OBS_DIM + N_ACTIONS) + 2 * 46 * 5 + 69 * 8 + 450


#: The seed of slot ``i`` after ``ScoutVectorEnv.reset(seed=seed)`` (:func:`seers_env.vector_slots.slot_seed`).
slot_seed = vector_slots.slot_seed
#: A :class:`ScoutVectorEnv` method called before ``reset()`` or after ``close()`` (a
#: ``gymnasium.error.ResetNeeded``, also a ``RuntimeError``; :class:`seers_env.vector_slots.VectorResetNeeded`).
VectorResetNeeded = vector_slots.VectorResetNeeded


def slot_seeds(seed: int, num_envs: int) -> list[int]:
    """``[slot_seed(seed, i) for i in range(num_envs)]`` (:func:`seers_env.seeding.spawn_seeds`).

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``num_envs``.
    """
    return seeding.spawn_seeds(seeding.check_seed(seed), seeding.check_seed(num_envs, "num_envs"))


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


class ScoutVectorEnv(VectorEnv):
    """``num_envs`` SCOUT games stepped together, a ``gymnasium.vector.VectorEnv`` (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2..5.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.scout.game.ScoutConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        kernel: the :class:`~seers_env.scout.kernel.ScoutKernel` holding the games (``None`` before
            ``reset()`` and after ``close()``; read-only by convention).
        config: the :class:`~seers_env.scout.game.ScoutConfig` of every game.
        closed: Gymnasium's flag: :meth:`close` was called (and no :meth:`reset` since).

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value, or more games than the
            memory holds. TypeError: an unknown config field, or a field of the wrong type.
    """

    metadata = {"name": "scout_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, n_players: int = 4, reward_mode: str = "score", **config: Any):
        num_envs = vector_slots.env_args(num_envs, reward_mode, config, REWARD_MODES, CONFIG_FIELDS, "SCOUT")
        self.config = ScoutConfig(n_players=n_players, **config)
        kernel.check_kernel_config(self.config)
        self.num_envs = int(num_envs)
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        try:
            self._allocate()
        except MemoryError:
            raise ValueError(f"num_envs={self.num_envs} games need more memory than this machine can allocate "
                             f"(their spaces, observations and masks take about {_BYTES_PER_GAME // 1000} kB "
                             f"per game); use fewer") from None

    def _allocate(self) -> None:
        """The spaces and buffers of ``num_envs`` games (``MemoryError`` when they do not fit)."""
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)  # MultiDiscrete
        n = self.num_envs
        self.kernel: ScoutKernel | None = None
        self.closed = False
        self._all_true = np.ones(n, bool)
        self._rewards = np.zeros((n, self.n_players), np.float32)
        self._terms = np.zeros(n, bool)
        self._truncs = np.zeros(n, bool)
        self._totals = np.zeros((n, self.n_players), np.int64)
        self._plays: tuple[np.ndarray, np.ndarray] | None = None  # this decision's legal keys, offsets
        self._fresh_outputs()

    # --- episodes -------------------------------------------------------------------------------------
    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)`` (:func:`slot_seeds`); ``raw_env().reset(
        seed=venv.slot_seeds(seed)[i])`` plays slot ``i``'s games.

        Raises:
            ValueError: a negative or non-integer seed.
        """
        return slot_seeds(seed, self.num_envs)

    def reset(self, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot.

        Args:
            seed: an integer ``s``: slot ``i`` is seeded with :func:`slot_seed(s, i) <slot_seed>`; a sequence
                of ``num_envs`` seeds (integers >= 0, or None): slot ``i`` with ``seed[i]``, exactly as
                ``raw_env().reset(seed=seed[i])``; None: fresh entropy.
            options: ``{"games": {slot: ScoutGame.to_dict(), ...}}`` or ``{"games": [dict or None] *
                num_envs}``: start those slots from positions (module docstring); other keys are ignored.

        Returns:
            ``(observations, infos)``; infos: :data:`INFO_KEYS` with their ``_key`` masks (module docstring).

        Raises:
            ValueError: a negative or non-integer seed, or a sequence of the wrong length; a position of
                another config or already over, or a slot out of range. TypeError: ``options`` is not a
                dict, or ``games`` not a dict or list of positions. Nothing changes on any error.
        """
        seeds = vector_slots.slot_seed_list(seed, self.num_envs)
        starts = vector_slots.positions(options, self.num_envs, ScoutGame, self.config)
        fresh = np.random.SeedSequence().spawn(self.num_envs) if any(s is None for s in seeds) else []
        k = ScoutKernel(self.num_envs, self.config)
        for i, s in enumerate(seeds):
            rng = np.random.default_rng(fresh[i] if s is None else s)  # as raw_env.reset(seed=s)
            k.slot_rngs[i] = rng
            game_seed = int(rng.integers(2**63 - 1))  # a position takes the place of that first game
            if starts[i] is None:
                k.new_game(i, game_seed)
            else:
                k.load_game(i, starts[i])
            k.next_game_ahead(i)
        self.kernel = k
        self.closed = False
        self._plays = None
        self._fresh_outputs()
        self._rewards[:] = 0.0
        self._totals[:] = 0
        kernel.write_all(k.hands, k.scouted, k.active, k.scal, k.scores, self._obs, self._masks)
        return self._observations(), self._infos()

    def _fresh_outputs(self) -> None:
        """New arrays for the next observations and masks (every row is written by compiled code; they
        are handed over as they are and never read here again)."""
        self._obs = np.empty((self.num_envs, OBS_DIM), np.float32)
        self._masks = np.empty((self.num_envs, N_ACTIONS), np.int8)

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs, "action_mask": self._masks}

    def _seats(self) -> np.ndarray:
        return self.kernel.scal[:, S_CURRENT].copy()

    def _infos(self) -> dict[str, np.ndarray]:
        """:data:`INFO_KEYS` (new arrays) with their ``_key`` masks (every slot has every key)."""
        k = self.kernel
        infos: dict[str, np.ndarray] = {"seat": self._seats(), "stage": k.scal[:, S_STAGE].copy(),
                                        "rewards": self._rewards.copy(), "totals": self._totals.copy()}
        for key in INFO_KEYS:
            infos[f"_{key}"] = self._all_true.copy()
        return infos

    def _check_open(self, name: str) -> ScoutKernel:
        if self.kernel is None:
            if self.closed:
                raise VectorResetNeeded(f"{name}() after close(); call reset() to deal new games first")
            raise VectorResetNeeded(f"call reset() before {name}()")
        return self.kernel

    def _int_rows(self, values, what: str, one: str, allowed: str) -> np.ndarray:
        """``values`` as int64 ``(num_envs,)``: ValueError for a wrong shape or a uint64 beyond int64 (the
        message names ``one`` value, its row and the ``allowed`` ones), TypeError for a non-integer dtype."""
        a = vector_slots.int_rows(values, self.num_envs, what)  # shape, dtype, bools, Python ints beyond int64
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
            ``(observations, rewards float32 (N,), terminations bool (N,), truncations bool (N,), infos)``:
            each row's reward is that of the seat that acted; infos: :data:`INFO_KEYS` with their ``_key``
            masks, every seat's reward in ``infos["rewards"]`` (module docstring).

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
        acted = self._seats()
        errors = kernel.step_all(k.hands, k.scouted, k.active, k.scal, k.scores, k.deals, a, self._obs, self._masks,
                                 self._rewards, self._terms, self._truncs, self._totals, self.reward_mode == "win")
        return self._after_step(errors, acted)

    def _after_step(self, errors: int, acted: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The step's results; ``acted``: the seat that acted in each row."""
        k = self.kernel
        if errors:  # every slot always has its next game drawn ahead: a broken kernel state
            raise RuntimeError(f"{errors} game(s) ended without a next game drawn ahead")
        for i in np.flatnonzero(k.scal[:, S_NEXT_READY] == 0).tolist():
            k.next_game_ahead(i)  # the slot's next game, in Python
        rewards = self._rewards[np.arange(self.num_envs), acted]  # a new array
        return self._observations(), rewards, self._terms.copy(), self._truncs.copy(), self._infos()

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
            What :meth:`step` returns, with the same conventions (rewards ``(N,)`` of the seat that played,
            every seat's in ``infos["rewards"]``; autoreset; the observations and masks of the next
            catalogue decisions).

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
        acted = self._seats()
        errors = kernel.step_keys_all(k.hands, k.scouted, k.active, k.scal, k.scores, k.deals, chosen, self._obs,
                                      self._masks, self._rewards, self._terms, self._truncs, self._totals,
                                      self.reward_mode == "win")
        return self._after_step(errors, acted)

    def close(self, **kwargs: Any) -> None:
        """Release the games (``closed`` is then true); every method but :meth:`reset` then raises
        :class:`VectorResetNeeded` until ``reset()`` deals new ones. Closing twice does nothing more."""
        self.kernel = None
        self._plays = None
        self.closed = True


assert STATE_DIM > OBS_DIM and PLAY_DIM > 0

__all__ = ["CONFIG_FIELDS", "INFO_KEYS", "REWARD_MODES", "ScoutPlayFeatures", "ScoutVectorEnv", "VectorResetNeeded",
           "slot_seed", "slot_seeds"]
