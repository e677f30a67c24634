"""Many Seers Catalog games stepped together, for learners: stacked observations, masks and rewards.

:class:`SeersVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.seers_catalog_v0`)
and steps them with one action each, on the compiled game kernel (:mod:`seers_env.engine.kernel`, with the
decisions, masks and observations of :mod:`seers_env.vector_core`). It is a ``gymnasium.vector.VectorEnv``
(``reset(seed, options) -> (obs, infos)``, ``step(actions) -> (obs, rewards, terminations, truncations,
infos)``, arrays stacked along a first axis of length ``num_envs``, dict infos of arrays with their ``_key``
masks), so Gymnasium's vector wrappers (``gymnasium.wrappers.vector``: ``RecordEpisodeStatistics``,
``DictInfoToList``, ``TransformReward``, ``TransformAction`` ...) take it, with the turn-based twist of
PettingZoo's AEC games: each row is the decision of the seat to act in that game (``infos["seat"]``).
Gymnasium 1.2's observation wrappers (``TransformObservation``, ``FilterObservation`` ...) accept only
``NEXT_STEP`` or ``DISABLED`` autoreset and refuse this env (an ``AssertionError``), and its
``RecordEpisodeStatistics`` counts a ``SAME_STEP`` env's episodes after the first one step short (fixed
upstream, Gymnasium pull request 1624).

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(-50, 50, (OBS_DIM,)),
  action_mask=Box(0, 1, (N_ACTIONS,), int8))``), ``single_action_space`` ``Discrete(N_ACTIONS)``;
  ``observation_space`` and ``action_space`` are their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, OBS_DIM), "action_mask": int8 (N, N_ACTIONS)}``, the stacked
  observation of the acting seat of each game;
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row (the ``infos["seat"]`` of the
  previous step), as the AEC env gives it (``reward_mode`` ``"score"``: its round score when a round
  ends; ``"win"``: its placement reward when the game ends). Every seat's reward of the step is in
  ``infos["rewards"]``, float32 ``(N, n_players)`` by absolute seat (a round's end scores all seats, not
  only the one that acted);
* terminations: bool ``(N,)``, true when that game ended with this step; truncations: always false;
* autoreset in the same step (``metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP``):
  a game that ends is replaced at once by the next game of its slot, so the returned row is the first
  decision of the new game. Games only terminate (never truncate), so no final observation is given;
* infos: the same keys at reset and at every step, each with its ``_key`` mask (all true: every slot has
  every key), as Gymnasium's vector envs build them: ``seat`` (int64 ``(N,)``, the seat to act now),
  ``rewards`` (above; zeros at reset) and ``totals`` (int64 ``(N, n_players)``, the final totals of the
  games that ended with this step, zeros elsewhere).

**Positions.** ``reset(options={"games": {slot: Game.to_dict(), ...}})`` (or a list of ``num_envs`` dicts
and ``None``\\ s) starts those slots from the given positions (saved or hand-made games of this config,
not over; a :class:`~seers_env.game.Game` is copied), through
:meth:`KernelGames.load_game <seers_env.engine.kernel.KernelGames.load_game>`: each plays on exactly as
``Game.from_dict`` of its dict would. The position takes the place of the slot's first game: the slot's
later games are those it plays after its first game without the option. Other option keys are ignored.

**Seeds.** ``reset(seed=s)`` gives slot ``i`` the seed :func:`slot_seed(s, i) <slot_seed>`, child ``i`` of
``numpy.random.SeedSequence(s).spawn(num_envs)`` (:mod:`seers_env.seeding`), so two different seeds share no
game (``seed + i``, Gymnasium's own vector default, would give seed 0's slot 1 the games of seed 1's slot 0),
and slot ``i`` plays the same games whatever ``num_envs`` is. ``reset(seed=[s_0, ..., s_{N-1}])`` seeds
each slot directly, as Gymnasium's vector envs take a list. To reproduce slot ``i`` as a single AEC game,
pass its seed to the AEC env: ``raw_env().reset(seed=slot_seed(s, i))`` (or
``venv.slot_seeds(s)[i]``), then ``reset()`` after each game; stepping the vector env
gives the same trajectories as stepping those AEC envs one by one (``tests/test_vector.py``).

**Play level** (for play-scoring learners, DouZero / PerfectDou style): instead of catalogue actions, a
learner may choose whole plays. :meth:`SeersVectorEnv.play_features` gives, for every game, the acting
seat's state and one feature row per legal play (the full list, ``Game.legal_plays()`` order, so row ``j``
of a game is its play ``j``; :mod:`seers_env.vector_features`, equal to :mod:`seers_env.features`), and
:meth:`SeersVectorEnv.step_plays` applies one play per game by its index in that list, with the rewards,
terminations and autoreset of :meth:`~SeersVectorEnv.step`. :func:`kernel_play_features` computes the same
arrays for chosen slots of any :class:`~seers_env.engine.kernel.KernelGames` (the self-play actor's path).
The two levels mix only between whole plays: while a game is part-way through a multi-action catalogue
decision (a :meth:`~SeersVectorEnv.step` chose its main code and a wild-position or artifact stage is left),
:meth:`~SeersVectorEnv.play_features` still returns that seat's full legal list (the partial choice is not
applied to the game, so it does not narrow the list), but :meth:`~SeersVectorEnv.step_plays` raises
``RuntimeError`` until :meth:`~SeersVectorEnv.step` finishes the decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import features, play_eval, seeding, vector_core, vector_features, vector_slots
from .actions import N_ACTIONS
from .engine.artifacts import DEFAULT_ARTIFACT_DECK
from .engine.game import Game, GameConfig
from .engine.kernel import N_CARD_IDS, S_CURRENT, S_OVER, S_PENDING_READY, KernelGames
from .integers import is_integer, is_integer_dtype
from .observation import OBS_DIM
from .seers_catalog_v0 import OBS_BOUND, REWARD_MODES, reset_needed

#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "rewards", "totals")

assert (vector_features.STATE_DIM, vector_features.HISTORY_LEN, vector_features.HISTORY_ENTRY) == \
    (features.STATE_DIM, features.HISTORY_LEN, features.HISTORY_ENTRY)
assert [(o, n) for name, o, n in features.STATE_LAYOUT] == [
    (0, OBS_DIM), (vector_features.O_UNSEEN, 60), (vector_features.O_UNSEEN_WILDS, 1),
    (vector_features.O_HISTORY, vector_features.HISTORY_LEN * vector_features.HISTORY_ENTRY)]


class PlayFeatures(NamedTuple):
    """Play-scoring features of ``M`` decisions (:func:`kernel_play_features`); new arrays, owned by the
    caller.

    Attributes:
        states: float32 ``(M, STATE_DIM)``, :func:`seers_env.features.encode_state` of each acting seat.
        rows: float32 ``(R, PLAY_DIM)``, or ``(R, PLAY_DIM + 1)`` with the heuristic prior column: the
            :func:`seers_env.features.encode_plays` rows of every legal play of every decision.
        offsets: int64 ``(M + 1,)``: decision ``j`` owns ``rows[offsets[j]:offsets[j + 1]]`` (its legal plays
            in ``Game.legal_plays()`` order).
        hidden: float32 ``(M, HIDDEN_DIM)``: every hand seen from the acting seat (a privileged critic's
            input; zeros when not asked for).
        seats: int64 ``(M,)``: the acting seat of each decision.
        keys: int64 ``(R,)``: the engine's play key of each row (:mod:`seers_env.engine.core`).
    """

    states: np.ndarray
    rows: np.ndarray
    offsets: np.ndarray
    hidden: np.ndarray
    seats: np.ndarray
    keys: np.ndarray


def kernel_play_features(games: KernelGames, slots, heuristic_prior: bool = True, heuristic_weights: dict | None = None,
                         hidden: bool = True) -> PlayFeatures:
    """:class:`PlayFeatures` of the acting seats of ``slots`` in kernel ``games`` (compiled,
    :func:`seers_env.vector_features.decision_features`).

    Args:
        games: the kernel games.
        slots: int array-like ``(M,)`` of slots whose game is not over (repeats allowed).
        heuristic_prior: add a last column with the heuristic agent's score of each play
            (``HeuristicAgent.score_array``, as ``train.scoring_policy.play_rows``).
        heuristic_weights: the heuristic's full weights dict (default
            :data:`seers_env.play_eval.HEURISTIC_DEFAULTS`, the agent's default).
        hidden: fill :attr:`PlayFeatures.hidden`.

    Raises:
        IndexError: a slot outside ``0 .. num_games - 1`` (the message names it).
        ValueError: ``slots`` is not 1-D integers, or a listed slot's game is over (no seat to act).
        KeyError: ``heuristic_weights`` lacks a weight; ValueError: one is not a finite number.
    """
    s = np.asarray(slots)
    if s.ndim != 1 or (s.size and not is_integer_dtype(s.dtype)):
        raise ValueError(f"slots must be a 1-D array of integers, got {s.dtype} {s.shape}")
    bad = np.flatnonzero((s < 0) | (s >= games.num_games))  # before the cast: a uint64 slot keeps its value
    if bad.size:
        raise IndexError(f"slot {int(s[bad[0]])} is out of range; allowed: 0 .. {games.num_games - 1}")
    s = s.astype(np.int64)
    over = np.flatnonzero(games.scal[s, S_OVER])
    if over.size:
        raise ValueError(f"slot {int(s[over[0]])}: the game is over, no seat is to act")
    weights, danger = play_eval.heuristic_weight_array(heuristic_weights)
    states, rows, offsets, hid, keys, bad_row = vector_features.decision_features(
        games.cards, games.scal, games.scores, s, features._ROW_OFFSETS, features.PLAY_DIM, bool(heuristic_prior),
        weights, danger, bool(hidden))
    if bad_row >= 0:  # legal keys always fit the hand: a corrupted kernel state
        raise RuntimeError(f"slot {int(s[bad_row])}: a legal play spends cards the seat does not hold")
    return PlayFeatures(states, rows, offsets, hid, games.scal[s, S_CURRENT].copy(), keys)


#: The seed of slot ``i`` after ``SeersVectorEnv.reset(seed=seed)`` (:func:`seers_env.vector_slots.slot_seed`).
slot_seed = vector_slots.slot_seed


#: Bytes of the spaces and buffers of one game of :class:`SeersVectorEnv`, about (for messages).
_BYTES_PER_GAME = 2 * 8 * OBS_DIM + 2 * N_ACTIONS + 1024 * 12 + 4 * OBS_DIM + N_ACTIONS + 4 * N_CARD_IDS


class SeersVectorEnv(VectorEnv):
    """``num_envs`` Seers Catalog games stepped together, a ``gymnasium.vector.VectorEnv`` (see the module
    docstring).

    The games run on the compiled game kernel (:mod:`seers_env.engine.kernel`); decisions, masks and
    observations are built in compiled code too (:mod:`seers_env.vector_core`), so a step is one compiled
    call over all games plus the Python deal of each round that ends. :meth:`play_features` and
    :meth:`step_plays` offer the same games at the play level (module docstring).

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
        ValueError: ``num_envs < 1``, an unknown reward mode or a bad game configuration, or more games
            than the memory holds.
    """

    metadata = {"name": "seers_catalog_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, n_players: int = 4, n_rounds: int = 4,
                 artifact_deck: Sequence[str] | None = DEFAULT_ARTIFACT_DECK, reward_mode: str = "score",
                 parallel: bool = False):
        if not is_integer(num_envs) or num_envs < 1:
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
        try:
            self._allocate()
        except MemoryError:
            raise ValueError(f"num_envs={self.num_envs} games need more memory than this machine can allocate "
                             f"(their spaces, decisions, observations and masks take about "
                             f"{_BYTES_PER_GAME // 1000} kB per game); use fewer") from None

    def _allocate(self) -> None:
        """The spaces and buffers of ``num_envs`` games (``MemoryError`` when they do not fit)."""
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)  # MultiDiscrete
        n = self.num_envs
        self.kernel: KernelGames | None = None
        self.closed = False  # Gymnasium's flag: close() was called (and no reset() since)
        self._all_true = np.ones(n, bool)
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
        self._plays: tuple[np.ndarray, np.ndarray] | None = None  # this step's full legal lists (keys, offsets)

    # --- episodes ---------------------------------------------------------------------------------
    def reset(self, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot.

        Args:
            seed: an integer ``s``: slot ``i`` is seeded with :func:`slot_seed(s, i) <slot_seed>` (module
                docstring); a sequence of ``num_envs`` seeds (integers >= 0, or None): slot ``i`` with
                ``seed[i]``, exactly as ``raw_env().reset(seed=seed[i])``; None: fresh entropy.
            options: ``{"games": {slot: Game.to_dict(), ...}}`` or ``{"games": [dict or None] * num_envs}``:
                start those slots from positions (module docstring); other keys are ignored.

        Returns:
            ``(observations, infos)``; infos: :data:`INFO_KEYS` with their ``_key`` masks (module docstring).

        Raises:
            ValueError: a negative or non-integer seed, or a sequence of the wrong length; a position of
                another config or already over, or a slot out of range. TypeError: ``options`` is not a
                dict, or ``games`` not a dict or list of positions. Nothing changes on any error.
        """
        seeds = vector_slots.slot_seed_list(seed, self.num_envs)
        starts = vector_slots.positions(options, self.num_envs, Game, self.config)
        fresh = np.random.SeedSequence().spawn(self.num_envs) if any(s is None for s in seeds) else []
        rngs = [np.random.default_rng(fresh[i] if s is None else s) for i, s in enumerate(seeds)]
        k = self.kernel = KernelGames(self.num_envs, self.config)
        self.closed = False
        self._plays = None
        self._fresh_outputs()
        for i, rng in enumerate(rngs):
            k.slot_rngs[i] = rng
            # as raw_env.reset(): each game's seed is drawn from the slot's generator (a position takes
            # the place of that first game)
            game_seed = int(rng.integers(2**63 - 1))
            if starts[i] is None:
                k.new_game(i, game_seed)
            else:
                k.load_game(i, starts[i])
        if vector_core.start_all_folded(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                 self._obs, self._masks, self._widen, self._buf):
            self._widen_rows()
        self._rewards[:] = 0.0
        self._totals[:] = 0
        return self._observations(), self._infos()

    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)``: ``[slot_seed(seed, i) for i in range(num_envs)]``;
        ``raw_env().reset(seed=venv.slot_seeds(seed)[i])`` plays slot ``i``'s games.

        Raises:
            ValueError: a negative or non-integer seed.
        """
        return seeding.spawn_seeds(seeding.check_seed(seed), self.num_envs)

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
            ``(observations, rewards float32 (N,), terminations bool (N,), truncations bool (N,), infos)``:
            each row's reward is that of the seat that acted; infos: :data:`INFO_KEYS` with their ``_key``
            masks, every seat's reward in ``infos["rewards"]`` (module docstring).

        Raises:
            ResetNeeded (a ``RuntimeError``): ``reset()`` was not called, or ``close()`` was.
            TypeError: actions of a non-integer dtype (float, bool, timedelta ...; an object array only
                of Python ints is read as int64), or a bool among integers.
            ValueError: wrong shape, or an action outside its row's mask (the message names the row and
            the value, also one beyond int64); no game changes then.
        """
        self._check_open("step")
        a = vector_slots.int_rows(actions, self.num_envs, "actions")  # shape, dtype, bools, ints beyond int64
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
        self._plays = None
        acted = self._seats()
        if step(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec, a,
                self._obs, self._masks, self._rewards, self._terms, self._totals, self.reward_mode == "win",
                self._widen):
            self._widen_rows()
        return self._after_step(acted)

    def _after_step(self, acted: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The step's results; ``acted``: the seat that acted in each row."""
        k = self.kernel
        for i in np.flatnonzero(k.scal[:, S_PENDING_READY] == 0).tolist():
            k.refill(i)  # deal the next round (or game) ahead, in Python
        rewards = self._rewards[np.arange(self.num_envs), acted]  # a new array
        return (self._observations(), rewards, self._terms.copy(), np.zeros(self.num_envs, bool), self._infos())

    def _infos(self) -> dict[str, np.ndarray]:
        """:data:`INFO_KEYS` (new arrays) with their ``_key`` masks (every slot has every key)."""
        infos: dict[str, np.ndarray] = {"seat": self._seats(), "rewards": self._rewards.copy(),
                                        "totals": self._totals.copy()}
        for key in INFO_KEYS:
            infos[f"_{key}"] = self._all_true.copy()
        return infos

    # --- play level ---------------------------------------------------------------------------------
    def play_features(self, heuristic_prior: bool = True, hidden: bool = True) -> PlayFeatures:
        """Every game's decision at the play level: :class:`PlayFeatures` with ``M == num_envs`` (new arrays).

        Row ``j`` of game ``i`` (``rows[offsets[i] + j]``) is the ``j``-th legal play of its acting seat in
        ``Game.legal_plays()`` order, the full list (no folding of ride-along artifact copies), the play
        :meth:`step_plays` applies for index ``j``. Layouts: :mod:`seers_env.features`; with
        ``heuristic_prior`` the rows carry one more column, the heuristic agent's score (default weights).

        A game part-way through a multi-action catalogue decision (a :meth:`step` chose its main code and a
        wild-position or artifact stage is left) still gets its seat's full legal list, as before that
        :meth:`step`: the partial choice does not narrow it. :meth:`step_plays` raises for such a game, so
        finish the decision with :meth:`step` before stepping whole plays.

        Raises:
            ResetNeeded (a ``RuntimeError``): ``reset()`` was not called, or ``close()`` was.
        """
        self._check_open("play_features")
        out = kernel_play_features(self.kernel, np.arange(self.num_envs), heuristic_prior, hidden=hidden)
        self._plays = (out.keys.copy(), out.offsets.copy())  # kept apart from what the caller gets
        return out

    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply one whole play in every game: play ``indices[i]`` of game ``i``'s legal list
        (:meth:`play_features` order), however many catalogue actions it would take in :meth:`step`.

        Args:
            indices: int array-like ``(num_envs,)``, ``0 <= indices[i] < number of legal plays of game i``.

        Returns:
            What :meth:`step` returns, with the same conventions: ``(observations, rewards float32 (N,) of
            the seat that acted, terminations bool (N,), truncations bool (N,), infos)`` (every seat's
            rewards in ``infos["rewards"]``, float32 ``(N, n_players)``); a game that ends is
            replaced by its slot's next game in the same step; the observations and masks are those of the
            next catalogue decisions (so :meth:`step` may follow).

        Raises:
            ResetNeeded (a ``RuntimeError``): ``reset()`` was not called, or ``close()`` was.
            RuntimeError: a game is in the middle of a catalogue decision (a :meth:`step` chose part of a
                play; finish it with :meth:`step`). This holds even though :meth:`play_features` answers for
                such a game: it lists the seat's full legal plays, ignoring the partial choice.
            TypeError: indices of a non-integer dtype.
            ValueError: wrong shape.
            IndexError: an index outside its game's legal plays (the message names the row, the value and
                the allowed range). Nothing changes on any error.
        """
        self._check_open("step_plays")
        a = vector_slots.int_rows(indices, self.num_envs, "indices")  # shape, dtype, bools, ints beyond int64
        mid = np.flatnonzero(self._dec[:, vector_core.D_NCHOSEN] > 0)
        if mid.size:
            raise RuntimeError(f"row {int(mid[0])} is in the middle of a catalogue decision (stage "
                               f"{int(self._dec[mid[0], vector_core.D_STAGE])}); finish it with step() first")
        k = self.kernel
        if self._plays is None:
            self._plays = vector_features.legal_key_lists(k.cards, k.scal, np.arange(self.num_envs, dtype=np.int64))
        keys, offsets = self._plays
        counts = np.diff(offsets)
        bad = [r for r, (x, c) in enumerate(zip(a.tolist(), counts.tolist())) if not 0 <= x < c]  # exact ints
        if bad:
            r = bad[0]
            raise IndexError(f"play index {a[r]} of row {r} is out of range; allowed: 0 .. {int(counts[r]) - 1} "
                             f"(its {int(counts[r])} legal plays)")
        chosen = keys[offsets[:-1] + a.astype(np.int64)]
        self._fresh_outputs()
        self._plays = None
        acted = self._seats()
        if vector_core.step_plays_all(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                      chosen, self._obs, self._masks, self._rewards, self._terms, self._totals,
                                      self.reward_mode == "win", self._widen):
            self._widen_rows()
        return self._after_step(acted)

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array, built from the pending
        decisions), as sb3-contrib asks for.

        Raises:
            ResetNeeded (a ``RuntimeError``): ``reset()`` was not called, or ``close()`` was.
        """
        self._check_open("action_masks")
        masks = np.empty((self.num_envs, N_ACTIONS), np.int8)
        vector_core.write_masks(self.kernel.scal, self._keys, self._cands, self._dec, masks)
        return masks

    def close(self, **kwargs: Any) -> None:
        """Release the games (``closed`` is then true); every method but :meth:`reset` then raises
        :class:`~seers_env.seers_catalog_v0.ResetNeeded` until ``reset()`` deals new ones. Closing twice
        does nothing more."""
        self.kernel = None
        self._plays = None
        self.closed = True

    def _check_open(self, name: str) -> None:
        """:class:`~seers_env.seers_catalog_v0.ResetNeeded` naming ``name`` unless games are dealt
        (``reset()`` called, no ``close()`` since)."""
        if self.kernel is None:
            raise reset_needed(name, self.closed)


__all__ = ["INFO_KEYS", "PlayFeatures", "SeersVectorEnv", "kernel_play_features", "slot_seed"]
