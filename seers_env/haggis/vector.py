"""Many Haggis games stepped together, for learners: stacked observations, masks and rewards.

:class:`HaggisVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.haggis_v0`) and
steps them with one catalogue action each (:mod:`seers_env.haggis.actions`). It is a
``gymnasium.vector.VectorEnv`` with the conventions of :class:`seers_env.scout.vector.ScoutVectorEnv`:

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(0, 10, (274,)),
  action_mask=Box(0, 1, (814,), int8))``), ``single_action_space`` ``Discrete(814)``; ``observation_space``
  and ``action_space`` their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, 274), "action_mask": int8 (N, 814)}``, the acting seat's
  (the AEC env's, stacked; the cards of a combination are decisions of the same seat, ``infos["stage"] ==
  1``);
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row, as the AEC env gives it
  (``"score"``: the round scores when a round ends; ``"win"``: the placement reward when the game ends);
  every seat's reward of the step is in ``infos["rewards"]``, float32 ``(N, n_players)`` by absolute seat;
* terminations: bool ``(N,)``, the game ended with this step; truncations: always false (Haggis has no
  turn cap; a game capped at ``rulings.MAX_ROUNDS`` rounds ends, as in the AEC env, by termination);
* autoreset in the same step (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``): a game that ends
  is replaced at once by the next game of its slot, dealt from the slot's generator as
  ``raw_env.reset()`` deals it, so the returned row is the new game's first decision;
* infos: :data:`INFO_KEYS` at reset and at every step, each with its ``_key`` mask (all true): ``seat`` and
  ``stage`` (int64 ``(N,)``), ``rewards`` (above; zeros at reset) and ``totals`` (int64 ``(N, n_players)``,
  the final totals of the games that ended with this step, zeros elsewhere).

**Seeds.** ``reset(seed=s)`` seeds slot ``i`` with :func:`slot_seed(s, i) <slot_seed>`
(:func:`seers_env.seeding.child_seed`, as the SCOUT and Seers Catalog batch APIs); ``reset(seed=[...])``
seeds each slot directly. Slot ``i`` plays the games of ``raw_env().reset(seed=slot seed)`` followed by
``reset()`` after each game (``tests/test_haggis_vector.py`` steps both and compares).

**Positions.** ``reset(options={"games": {slot: HaggisGame.to_dict(), ...}})`` (or a list of ``num_envs``
dicts and ``None``\\ s) starts those slots as ``raw_env().reset(seed=slot seed, options={"game": ...})``
does (the slot's later games are dealt from its generator, as that env's next ``reset()`` deals them).

**Play level** (play-scoring learners): :meth:`HaggisVectorEnv.play_features` gives every game's state row
(:func:`seers_env.haggis.features.encode_state`) and one feature row per legal play
(:func:`~seers_env.haggis.features.encode_plays`, ``HaggisGame.legal_plays()`` order);
:meth:`HaggisVectorEnv.step_plays` makes one whole play per game by its index in that list (the same
transition as stepping its catalogue codes one by one). While a game is inside a combination (stage 1),
:meth:`~HaggisVectorEnv.step_plays` raises: finish it with :meth:`~HaggisVectorEnv.step`.

**How it runs.** The slots are stepped one after another in Python, each on the compiled path of the AEC
environment (:mod:`seers_env.haggis.fast`: the compiled stage-0 masks and observations of
:mod:`seers_env.haggis.kernel`; the rules engine :class:`~seers_env.haggis.game.HaggisGame` applies the
plays), without PettingZoo's bookkeeping. Not a compiled batch kernel: its throughput is about the AEC
env's per game (``docs/haggis_speed.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import seeding, vector_slots
from .actions import N_ACTIONS
from .fast import CompiledDecision, legal_plays_with_combos, observe_packed, pack_game
from .features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from .game import HaggisConfig, HaggisGame
from .observation import OBS_BOUND, OBS_DIM
from .view import HaggisSeatView

#: Reward modes, as in :mod:`seers_env.haggis_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.haggis.game.HaggisConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = ("target", "n_rounds", "tie_leader", "card_points")
#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "stage", "rewards", "totals")


#: The shared pieces (:mod:`seers_env.vector_slots`), under this module's names.
slot_seed = vector_slots.slot_seed
VectorResetNeeded = vector_slots.VectorResetNeeded
HaggisPlayFeatures = vector_slots.PlayFeatures


class _Slot:
    """One game of the batch: its generator, game, pending decision and packed game."""

    __slots__ = ("rng", "game", "decision", "packed", "totals")

    def __init__(self, rng: np.random.Generator, game: HaggisGame):
        self.rng = rng
        self.game = game
        self.totals = (-1, [])  # (rounds scored, game.totals)
        self.new_decision()

    def new_decision(self) -> None:
        game = self.game
        if self.totals[0] != len(game._round_scores):
            self.totals = (len(game._round_scores), game.totals)
        self.decision = CompiledDecision(game)
        self.packed = pack_game(game, self.totals[1])


class HaggisVectorEnv(VectorEnv):
    """``num_envs`` Haggis games stepped together, a ``gymnasium.vector.VectorEnv`` (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2 or 3.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.haggis.game.HaggisConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        games: the slots' :class:`~seers_env.haggis.game.HaggisGame` (``[]`` before ``reset()`` and after
            ``close()``; read-only by convention). config: the config of every game. closed: Gymnasium's flag.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value. TypeError: an unknown
            config field, or a field of the wrong type.
    """

    metadata = {"name": "haggis_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, n_players: int = 3, reward_mode: str = "score", **config: Any):
        num_envs = vector_slots.env_args(num_envs, reward_mode, config, REWARD_MODES, CONFIG_FIELDS, "Haggis")
        self.config = HaggisConfig(n_players=n_players, **config)
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
        self._plays: list | None = None  # this decision's legal plays with combos, per game

    @property
    def games(self) -> list[HaggisGame]:
        """Each slot's game now, as an independent copy (``HaggisGame.clone``): changing it changes nothing here."""
        return [s.game.clone() for s in self._slots]

    # --- episodes -------------------------------------------------------------------------------------
    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)`` (:func:`slot_seed`).

        Raises:
            ValueError: a negative or non-integer seed.
        """
        return seeding.spawn_seeds(seeding.check_seed(seed), self.num_envs)

    def reset(self, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot (module docstring: seeds, positions).

        Returns:
            ``(observations, infos)``.

        Raises:
            ValueError: a negative or non-integer seed, or a list of the wrong length; a position of another
                config or already over, or a slot out of range. TypeError: ``options`` is not a dict, or
                ``games`` neither a dict nor a list. Nothing changes on any error.
        """
        seeds = vector_slots.slot_seed_list(seed, self.num_envs)
        starts = vector_slots.positions(options, self.num_envs, HaggisGame, self.config)
        slots = []
        for s, start in zip(seeds, starts):
            rng = np.random.default_rng(s)  # as raw_env.reset(seed=s)
            game = HaggisGame(self.config, seed=int(rng.integers(2**63 - 1))) if start is None else start
            slots.append(_Slot(rng, game))
        self._slots = slots
        self.closed = False
        self._plays = None
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
        masks = np.empty((self.num_envs, N_ACTIONS), np.int8)
        for i, s in enumerate(self._slots):
            obs[i] = observe_packed(s.packed, s.game.current, s.decision)
            masks[i] = s.decision.mask()
        return {"observation": obs, "action_mask": masks}

    def _seats(self) -> np.ndarray:
        return np.array([s.game.current for s in self._slots], np.int64)

    def _infos(self) -> dict[str, np.ndarray]:
        infos: dict[str, np.ndarray] = {"seat": self._seats(),
                                        "stage": np.array([s.decision.stage for s in self._slots], np.int64),
                                        "rewards": self._rewards.copy(), "totals": self._totals.copy()}
        return vector_slots.with_masks(infos, self.num_envs)

    # --- stepping ---------------------------------------------------------------------------------------
    def _finish(self, i: int, slot: _Slot, play, combo) -> None:
        """Apply the finished ``play`` of slot ``i``: rewards, the game's end and the autoreset."""
        result = slot.game.apply_legal(play, combo)
        if result.round_over and self.reward_mode == "score":
            self._rewards[i] = result.round_scores
        if result.game_over:
            game = slot.game
            n = self.n_players
            if self.reward_mode == "win":
                self._rewards[i] = [(n + 1 - 2 * place) / (n - 1) for place in game.placements()]
            self._terms[i] = True
            self._totals[i] = game.totals
            slot.game = HaggisGame(self.config, seed=int(slot.rng.integers(2**63 - 1)))  # as raw_env.reset()
            slot.totals = (-1, [])
        slot.new_decision()

    def _begin(self) -> np.ndarray:
        self._plays = None
        self._rewards[:] = 0.0
        self._totals[:] = 0
        self._terms = np.zeros(self.num_envs, bool)
        return self._seats()

    def _results(self, acted: np.ndarray):
        rewards = self._rewards[np.arange(self.num_envs), acted]
        return (self._observations(), rewards, self._terms, np.zeros(self.num_envs, bool), self._infos())

    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one catalogue action in every game (the acting seat's, at its pending stage).

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
            if not (0 <= code < N_ACTIONS and s.decision.allowed(code)):
                allowed = np.flatnonzero(s.decision.mask())
                more = " ..." if allowed.size > 12 else ""
                raise ValueError(f"action {code} of row {i} is not allowed by its action mask (allowed: "
                                 f"{allowed[:12].tolist()}{more})")
        acted = self._begin()
        for i, (s, code) in enumerate(zip(slots, a)):
            play = s.decision.choose(code)
            if play is not None:
                self._finish(i, s, play, s.decision.combo_for(play))
        return self._results(acted)

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        slots = self._check_open("action_masks")
        return np.stack([s.decision.mask() for s in slots])

    # --- play level -------------------------------------------------------------------------------------
    def _legal(self) -> list:
        """Each game's legal plays with combos (``fast.legal_plays_with_combos``, also kept as the game's
        own cache of that same list, so ``legal_plays()`` and the features read it)."""
        if self._plays is None:
            plays = []
            for s in self._slots:
                game = s.game
                if game._legal is None:
                    game._legal = legal_plays_with_combos(game)
                plays.append(game.legal_plays_with_combos())
            self._plays = plays
        return self._plays

    def play_features(self) -> HaggisPlayFeatures:
        """Every game's decision at the play level (:class:`HaggisPlayFeatures`, new arrays): row ``j`` of
        game ``i`` is the ``j``-th play of ``legal_plays()``, the play :meth:`step_plays` makes for index ``j``.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        slots = self._check_open("play_features")
        legal = self._legal()
        states = np.empty((self.num_envs, STATE_DIM), np.float32)
        rows, plays = [], []
        offsets = np.zeros(self.num_envs + 1, np.int64)
        for i, (s, pcs) in enumerate(zip(slots, legal)):
            view = HaggisSeatView(s.game, s.game.current)
            ps = [p for p, _ in pcs]
            states[i] = encode_state(view)
            rows.append(encode_plays(view, ps))
            plays.append(ps)
            offsets[i + 1] = offsets[i] + len(ps)
        table = np.concatenate(rows).astype(np.float32, copy=False) if rows else np.zeros((0, PLAY_DIM), np.float32)
        return HaggisPlayFeatures(states, table, offsets, self._seats(), plays)

    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Make one whole play in every game: play ``indices[i]`` of game ``i``'s legal list
        (:meth:`play_features` order). Returns what :meth:`step` returns.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``. RuntimeError: a game is inside a
                combination (stage 1; finish it with :meth:`step`). TypeError: a non-integer dtype.
                ValueError: a wrong shape. IndexError: an index outside its game's legal plays (the message
                names the row, the value and the allowed range). Nothing changes on any error.
        """
        slots = self._check_open("step_plays")
        a = vector_slots.int_rows(indices, self.num_envs, "indices").tolist()
        for i, s in enumerate(slots):
            if s.decision.stage != 0:
                raise RuntimeError(f"row {i} is inside a combination (stage 1); finish it with step() first")
        legal = self._legal()
        for i, (j, pcs) in enumerate(zip(a, legal)):
            if not 0 <= j < len(pcs):
                raise IndexError(f"play index {j} of row {i} is out of range; allowed: 0 .. {len(pcs) - 1} "
                                 f"(its {len(pcs)} legal plays)")
        acted = self._begin()
        for i, (s, j, pcs) in enumerate(zip(slots, a, legal)):
            play, combo = pcs[j]
            self._finish(i, s, play, combo)
        return self._results(acted)

    def close(self, **kwargs: Any) -> None:
        """Release the games (``closed`` is then true); every method but :meth:`reset` then raises
        :class:`VectorResetNeeded`. Closing twice does nothing more."""
        self._slots = []
        self._plays = None
        self.closed = True


def vector_rates(num_envs: int = 256, n_players: int = 3, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Throughput of random legal play on :class:`HaggisVectorEnv` (one thread): ``{"steps_per_s": catalogue
    steps of :meth:`~HaggisVectorEnv.step` (every row one step), "plays_per_s": whole plays of
    :meth:`~HaggisVectorEnv.play_features` then :meth:`~HaggisVectorEnv.step_plays`}``, each over about
    ``seconds`` after one untimed call; choices from ``numpy.random.default_rng(seed)``."""
    import time

    rng = np.random.default_rng(seed)
    venv = HaggisVectorEnv(num_envs, n_players=n_players)
    obs, infos = venv.reset(seed=seed)
    out = {}
    for level in ("steps_per_s", "plays_per_s"):  # step_plays leaves every game at a stage-0 decision
        done, t0, first = 0, 0.0, True
        while first or time.perf_counter() - t0 < seconds:
            if level == "steps_per_s":
                actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
                obs, _, _, _, infos = venv.step(actions)
            else:
                if first:
                    obs, infos = venv.reset(seed=seed)
                f = venv.play_features()
                obs, _, _, _, infos = venv.step_plays(rng.integers(0, np.diff(f.offsets)))
            if first:
                first, t0 = False, time.perf_counter()
                continue
            done += num_envs
        out[level] = done / (time.perf_counter() - t0)
    return out


def _bench(argv: list[str] | None = None) -> None:
    """``python -m seers_env.haggis.vector [--games N] [--seconds S] [--seed K]``: :func:`vector_rates` at 2
    and 3 players."""
    import argparse

    ap = argparse.ArgumentParser(description=_bench.__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for n in (2, 3):
        r = vector_rates(args.games, n, args.seconds, args.seed)
        print(f"HaggisVectorEnv({args.games}), {n} players, seed {args.seed}: {r['steps_per_s']:,.0f} steps/s "
              f"(step), {r['plays_per_s']:,.0f} plays/s (play_features + step_plays), one thread")


__all__ = ["CONFIG_FIELDS", "INFO_KEYS", "REWARD_MODES", "HaggisPlayFeatures", "HaggisVectorEnv", "VectorResetNeeded",
           "slot_seed", "vector_rates"]

if __name__ == "__main__":
    _bench()
