"""Many Seals games stepped together, for learners: stacked observations, masks and rewards.

:class:`SealsVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.seals_v0`) and
steps them with one action each (:mod:`seers_env.seals.actions`: one id per play). It is a
``gymnasium.vector.VectorEnv`` with the conventions of :class:`seers_env.haggis.vector.HaggisVectorEnv`:

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(0, 50, (404,)),
  action_mask=Box(0, 1, (4112,), int8))``), ``single_action_space`` ``Discrete(4112)``;
  ``observation_space`` and ``action_space`` their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, 404), "action_mask": int8 (N, 4112)}``, the acting seat's
  (the AEC env's, stacked; a take that completes a set is followed by the same seat's declaration,
  ``infos["stage"] == 1``);
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row, as the AEC env gives it
  (``"score"``: the Marks of the round when a round ends; ``"win"``: the placement reward when the game
  ends); every seat's reward of the step is in ``infos["rewards"]``, float32 ``(N, n_players)`` by absolute
  seat;
* terminations / truncations: bool ``(N,)``: the game ended with this step; truncated (and not terminated)
  exactly when its last round was cut by ``max_turns_per_round``, as in the AEC env;
* autoreset in the same step (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``): a game that ends
  is replaced at once by the next game of its slot, dealt from the slot's generator as
  ``raw_env.reset()`` deals it, so the returned row is the new game's first decision;
* infos: :data:`INFO_KEYS` at reset and at every step, each with its ``_key`` mask (all true): ``seat`` and
  ``stage`` (int64 ``(N,)``: 0 take, 1 declare), ``rewards`` (above; zeros at reset) and ``totals`` (int64
  ``(N, n_players)``, the final Marks of the games that ended with this step, zeros elsewhere).

Every returned array is new (nothing aliases the environment's state).

**Seeds.** ``reset(seed=s)`` seeds slot ``i`` with :func:`slot_seed(s, i) <slot_seed>`
(:func:`seers_env.seeding.child_seed`, as the other batch APIs); ``reset(seed=[...])`` seeds each slot
directly; ``None`` entries (or ``seed=None``) take fresh entropy. Slot ``i`` plays the games of
``raw_env().reset(seed=slot seed)`` followed by ``reset()`` after each game (``tests/test_seals_vector.py``
steps both and compares). All randomness comes from the slots' seeded ``numpy`` generators.

**Positions.** ``reset(options={"games": {slot: SealsGame.to_dict(), ...}})`` (or a list of ``num_envs``
dicts and ``None``\\ s) starts those slots as ``raw_env().reset(seed=slot seed, options={"game": ...})``
does (the slot's later games are dealt from its generator, as that env's next ``reset()`` deals them).

**Play level** (play-scoring learners): :meth:`SealsVectorEnv.play_features` gives every game's state row
(:func:`seers_env.seals.features.encode_state`) and one feature row per legal play
(:func:`~seers_env.seals.features.encode_plays`, ``SealsGame.legal_plays()`` order: takes at stage 0,
declarations at stage 1); :meth:`SealsVectorEnv.step_plays` makes play ``indices[i]`` of game ``i``, the
same transition as :meth:`~SealsVectorEnv.step` with that play's action id (every Seals play is one action).

**How it runs.** The slots are stepped one after another in Python on the rules engine
(:class:`~seers_env.seals.game.SealsGame`: its legal plays, masks and transitions) and the AEC env's
observation (:func:`seers_env.seals.observation.observe`), without PettingZoo's bookkeeping. No compiled
code: its throughput is about the AEC env's per game (:func:`vector_rates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import seeding, vector_slots
from .actions import N_ACTIONS
from .features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from .game import PHASE_TAKE, SealsConfig, SealsGame
from .observation import OBS_BOUND, OBS_DIM, observe
from .plays import SealsPlay
from .rulings import REASON_TRUNCATED
from .view import SealsSeatView

#: Reward modes, as in :mod:`seers_env.seals_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.seals.game.SealsConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(SealsConfig) if f.name != "n_players")
#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "stage", "rewards", "totals")


#: The shared pieces (:mod:`seers_env.vector_slots`), under this module's names.
slot_seed = vector_slots.slot_seed
VectorResetNeeded = vector_slots.VectorResetNeeded
SealsPlayFeatures = vector_slots.PlayFeatures


class _Slot:
    """One game of the batch: its generator, game and the mask of its pending decision."""

    __slots__ = ("rng", "game", "mask")

    def __init__(self, rng: np.random.Generator, game: SealsGame):
        self.rng = rng
        self.game = game
        self.mask = game.legal_mask()


class SealsVectorEnv(VectorEnv):
    """``num_envs`` Seals games stepped together, a ``gymnasium.vector.VectorEnv`` (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2, 3 or 4.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.seals.game.SealsConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        games: the slots' :class:`~seers_env.seals.game.SealsGame` (``[]`` before ``reset()`` and after
            ``close()``; read-only by convention). config: the config of every game. closed: Gymnasium's flag.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value (``n_players`` outside 2..4
            too). TypeError: an unknown config field, or a field of the wrong type.
    """

    metadata = {"name": "seals_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, n_players: int = 3, reward_mode: str = "score", **config: Any):
        num_envs = vector_slots.env_args(num_envs, reward_mode, config, REWARD_MODES, CONFIG_FIELDS, "Seals")
        self.config = SealsConfig(n_players=n_players, **config)
        self.num_envs = num_envs
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._slots: list[_Slot] = []
        self.closed = False
        self._rewards = np.zeros((self.num_envs, self.n_players), np.float32)
        self._totals = np.zeros((self.num_envs, self.n_players), np.int64)

    @property
    def games(self) -> list[SealsGame]:
        """Each slot's game now, as an independent copy (``SealsGame.clone``): changing it changes nothing here."""
        return [s.game.clone() for s in self._slots]

    # --- episodes -------------------------------------------------------------------------------------
    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)`` (:func:`slot_seed`).

        Raises:
            ValueError: a negative or non-integer seed.
        """
        return seeding.spawn_seeds(seeding.check_seed(seed), self.num_envs)

    def _new_game(self, rng: np.random.Generator) -> SealsGame:
        return SealsGame(self.config, seed=int(rng.integers(2**63 - 1)))  # as raw_env.reset()

    def reset(self, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot (module docstring: seeds, positions).

        Args:
            seed: an integer, a sequence of ``num_envs`` integers >= 0 or None, or None.
            options: None or ``{"games": {slot: SealsGame.to_dict() or SealsGame}}`` (or a list of
                ``num_envs`` positions and None); other keys are ignored.

        Returns:
            ``(observations, infos)``.

        Raises:
            ValueError: a negative or non-integer seed, or a list of the wrong length; a position of another
                config or already over (and what :meth:`SealsGame.from_dict` raises for a damaged one), or a
                slot out of range. TypeError: ``options`` is not a dict, or ``games`` neither a dict nor a
                list. Nothing changes on any error.
        """
        seeds = vector_slots.slot_seed_list(seed, self.num_envs)
        starts = vector_slots.positions(options, self.num_envs, SealsGame, self.config)
        slots = []
        for s, start in zip(seeds, starts):
            rng = np.random.default_rng(s)  # as raw_env.reset(seed=s)
            slots.append(_Slot(rng, self._new_game(rng) if start is None else start))
        self._slots = slots
        self.closed = False
        self._rewards[:] = 0.0
        self._totals[:] = 0
        return self._observations(), self._infos()

    def _check_open(self, name: str) -> list[_Slot]:
        if not self._slots:
            if self.closed:
                raise VectorResetNeeded(f"{name}() after close(); call reset() to deal new games first")
            raise VectorResetNeeded(f"call reset() before {name}()")
        return self._slots

    def _observations(self) -> dict[str, np.ndarray]:
        obs = np.empty((self.num_envs, OBS_DIM), np.float32)
        for i, s in enumerate(self._slots):
            obs[i] = observe(SealsSeatView(s.game, s.game.current))
        return {"observation": obs, "action_mask": np.stack([s.mask for s in self._slots])}

    def _seats(self) -> np.ndarray:
        return np.array([s.game.current for s in self._slots], np.int64)

    def _infos(self) -> dict[str, np.ndarray]:
        stages = [0 if s.game.phase == PHASE_TAKE else 1 for s in self._slots]
        return vector_slots.with_masks({"seat": self._seats(), "stage": np.array(stages, np.int64),
                                        "rewards": self._rewards.copy(), "totals": self._totals.copy()},
                                       self.num_envs)

    # --- stepping ---------------------------------------------------------------------------------------
    def _apply_all(self, plays: list[SealsPlay]) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply ``plays[i]`` (legal, checked) in game ``i``: rewards, ends and autoresets; the step's results."""
        acted = self._seats()
        self._rewards[:] = 0.0
        self._totals[:] = 0
        terms = np.zeros(self.num_envs, bool)
        truncs = np.zeros(self.num_envs, bool)
        n = self.n_players
        for i, (slot, play) in enumerate(zip(self._slots, plays)):
            game = slot.game
            result = game.apply(play)
            if result.round_over and self.reward_mode == "score":
                self._rewards[i] = result.round_scores
            if result.game_over:
                if self.reward_mode == "win":
                    self._rewards[i] = [(n + 1 - 2 * place) / (n - 1) for place in game.placements()]
                truncated = result.round_end_reason == REASON_TRUNCATED
                terms[i], truncs[i] = not truncated, truncated
                self._totals[i] = game.totals
                slot.game = self._new_game(slot.rng)
            slot.mask = slot.game.legal_mask()
        rewards = self._rewards[np.arange(self.num_envs), acted]
        return self._observations(), rewards, terms, truncs, self._infos()

    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one action in every game (the acting seat's, at its pending stage).

        Args:
            actions: int array-like ``(num_envs,)``, each allowed by its row's action mask.

        Returns:
            ``(observations, rewards float32 (N,), terminations bool (N,), truncations bool (N,), infos)``
            (module docstring).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``. TypeError: a non-integer dtype.
            ValueError: a wrong shape, or an action its row's mask does not allow (the message names the row,
                the action and allowed ones). Nothing changes on any error.
        """
        slots = self._check_open("step")
        a = vector_slots.int_rows(actions, self.num_envs, "actions").tolist()
        for i, (s, code) in enumerate(zip(slots, a)):
            if not (0 <= code < N_ACTIONS and s.mask[code]):
                allowed = np.flatnonzero(s.mask)
                more = " ..." if allowed.size > 12 else ""
                raise ValueError(f"action {code} of row {i} is not allowed by its action mask (allowed: "
                                 f"{allowed[:12].tolist()}{more})")
        return self._apply_all([SealsPlay.from_action(code) for code in a])

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        return np.stack([s.mask for s in self._check_open("action_masks")])

    # --- play level -------------------------------------------------------------------------------------
    def play_features(self) -> SealsPlayFeatures:
        """Every game's decision at the play level (:class:`SealsPlayFeatures`, new arrays): row ``j`` of
        game ``i`` is the ``j``-th play of ``legal_plays()``, the play :meth:`step_plays` makes for index ``j``.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        slots = self._check_open("play_features")
        states = np.empty((self.num_envs, STATE_DIM), np.float32)
        rows, plays = [], []
        offsets = np.zeros(self.num_envs + 1, np.int64)
        for i, s in enumerate(slots):
            view = SealsSeatView(s.game, s.game.current)
            legal = s.game.legal_plays()
            states[i] = encode_state(view)
            rows.append(encode_plays(view, legal))
            plays.append(legal)
            offsets[i + 1] = offsets[i] + len(legal)
        table = np.concatenate(rows).astype(np.float32, copy=False) if rows else np.zeros((0, PLAY_DIM), np.float32)
        return SealsPlayFeatures(states, table, offsets, self._seats(), plays)

    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Make one play in every game: play ``indices[i]`` of game ``i``'s legal list (:meth:`play_features`
        order). Returns what :meth:`step` returns (the same transition as :meth:`step` with its action id).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``. TypeError: a non-integer dtype.
                ValueError: a wrong shape. IndexError: an index outside its game's legal plays (the message
                names the row, the value and the allowed range). Nothing changes on any error.
        """
        slots = self._check_open("step_plays")
        a = vector_slots.int_rows(indices, self.num_envs, "indices").tolist()
        legal = [s.game.legal_plays() for s in slots]
        for i, (j, ps) in enumerate(zip(a, legal)):
            if not 0 <= j < len(ps):
                raise IndexError(f"play index {j} of row {i} is out of range; allowed: 0 .. {len(ps) - 1} "
                                 f"(its {len(ps)} legal plays)")
        return self._apply_all([ps[j] for j, ps in zip(a, legal)])

    def close(self, **kwargs: Any) -> None:
        """Release the games (``closed`` is then true); every method but :meth:`reset` then raises
        :class:`VectorResetNeeded`. Closing twice does nothing more."""
        self._slots = []
        self.closed = True


def vector_rates(num_envs: int = 256, n_players: int = 3, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Throughput of random legal play on :class:`SealsVectorEnv` (one thread): ``{"steps_per_s": rows of
    :meth:`~SealsVectorEnv.step` per second, "plays_per_s": rows of :meth:`~SealsVectorEnv.play_features`
    then :meth:`~SealsVectorEnv.step_plays` per second}``, each over about ``seconds`` after one untimed
    call; choices from ``numpy.random.default_rng(seed)``."""
    import time

    rng = np.random.default_rng(seed)
    venv = SealsVectorEnv(num_envs, n_players=n_players)
    out = {}
    for level in ("steps_per_s", "plays_per_s"):
        obs, _ = venv.reset(seed=seed)
        done, t0, first = 0, 0.0, True
        while first or time.perf_counter() - t0 < seconds:
            if level == "steps_per_s":
                obs, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]))
            else:
                venv.step_plays(rng.integers(0, np.diff(venv.play_features().offsets)))
            if first:
                first, t0 = False, time.perf_counter()
                continue
            done += num_envs
        out[level] = done / (time.perf_counter() - t0)
    return out


def _bench(argv: list[str] | None = None) -> None:
    """``python -m seers_env.seals.vector [--games N] [--seconds S] [--seed K]``: :func:`vector_rates` at 2,
    3 and 4 players."""
    import argparse

    ap = argparse.ArgumentParser(description=_bench.__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for n in (2, 3, 4):
        r = vector_rates(args.games, n, args.seconds, args.seed)
        print(f"SealsVectorEnv({args.games}), {n} players, seed {args.seed}: {r['steps_per_s']:,.0f} steps/s "
              f"(step), {r['plays_per_s']:,.0f} plays/s (play_features + step_plays), one thread")


__all__ = ["CONFIG_FIELDS", "INFO_KEYS", "REWARD_MODES", "SealsPlayFeatures", "SealsVectorEnv", "VectorResetNeeded",
           "slot_seed", "vector_rates"]

if __name__ == "__main__":
    _bench()
