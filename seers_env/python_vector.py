"""The base of the Python batch APIs (:mod:`seers_env.haggis.vector`, :mod:`seers_env.seals.vector`).

:class:`PythonVectorEnv` is a ``gymnasium.vector.VectorEnv`` that steps ``num_envs`` games one after another
in Python, with the conventions its subclasses' module docstrings state: spaces, ``reset`` (seeds,
positions), ``step`` / ``action_masks`` (mask checks), ``play_features`` / ``step_plays`` (index checks),
rewards, terminations, same-step autoreset, infos, ``close`` and the errors of each. A game's subclass
gives its constants (class attributes) and a few hooks: the slot of a new game, a slot's observation and
mask, whether an action is allowed, applying the checked actions or plays, its legal plays and stages.
:func:`rates` and :func:`bench` are the shared throughput benchmark and its ``__main__`` command line;
:func:`random_legal_rows` its random legal choices (also the batch row of ``seers bench env``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import seeding, vector_slots


class PythonVectorEnv(VectorEnv):
    """``num_envs`` games stepped one after another in Python (module docstring); subclassed per game.

    Args:
        num_envs: games in flight, at least 1.
        n_players: the number of players (the game's config checks it).
        reward_mode: one of the subclass's ``reward_modes``.
        **config: the other config fields (the subclass's ``config_fields``).

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value. TypeError: an unknown
            config field, or a field of the wrong type.
    """

    # --- set by each game's subclass ---------------------------------------------------------------------
    title: ClassVar[str]  # the game's name in messages
    game_class: ClassVar[type]  # its game (``to_dict`` / ``from_dict`` / ``clone`` / ``legal_plays``)
    config_class: ClassVar[type]
    reward_modes: ClassVar[Sequence[str]]
    config_fields: ClassVar[Sequence[str]]
    obs_bound: ClassVar[float]
    obs_dim: ClassVar[int]
    n_actions: ClassVar[int]
    state_dim: ClassVar[int]
    play_dim: ClassVar[int]
    view_class: ClassVar[type]  # the seat view the features read
    encode_state: ClassVar[Callable]  # staticmethod: features.encode_state
    encode_plays: ClassVar[Callable]  # staticmethod: features.encode_plays
    features_class: ClassVar[type] = vector_slots.PlayFeatures
    slot_class: ClassVar[type]  # ``slot_class(rng, game)``: one game of the batch (``.rng``, ``.game``)

    def __init__(self, num_envs: int, n_players: int = 3, reward_mode: str = "score", **config: Any):
        num_envs = vector_slots.env_args(num_envs, reward_mode, config, self.reward_modes, self.config_fields,
                                         self.title)
        self.config = self.config_class(n_players=n_players, **config)
        self.num_envs = num_envs
        self.n_players = self.config.n_players
        self.reward_mode = reward_mode
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, self.obs_bound, (self.obs_dim,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(self.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._slots: list = []
        self.closed = False
        self._rewards = np.zeros((self.num_envs, self.n_players), np.float32)
        self._totals = np.zeros((self.num_envs, self.n_players), np.int64)
        self._plays: list | None = None  # a subclass's cache of this decision's legal plays, per game

    @property
    def games(self) -> list:
        """Each slot's game now, as an independent copy (the game's ``clone``): changing it changes nothing here."""
        return [s.game.clone() for s in self._slots]

    # --- hooks ------------------------------------------------------------------------------------------
    def _observe(self, slot: Any) -> np.ndarray:
        """The acting seat's observation row of ``slot``."""
        raise NotImplementedError

    def _mask(self, slot: Any) -> np.ndarray:
        """int8 ``(n_actions,)``: the action mask of ``slot``'s pending decision."""
        raise NotImplementedError

    def _allowed(self, slot: Any, code: int) -> bool:
        """Whether action ``code`` (in ``0 .. n_actions - 1``) is allowed in ``slot``."""
        raise NotImplementedError

    def _stages(self) -> list[int]:
        """Each slot's stage (``infos["stage"]``)."""
        raise NotImplementedError

    def _apply_actions(self, slots: list, actions: list[int]) -> tuple:
        """Apply the checked ``actions``; the step's results (:meth:`_begin`, :meth:`_settle`, :meth:`_results`)."""
        raise NotImplementedError

    def _legal_lists(self) -> list[list]:
        """Each game's legal list, in the order :meth:`step_plays` indexes it."""
        raise NotImplementedError

    def _feature_plays(self, legal: list) -> list:
        """The plays of one game's legal list (as :meth:`play_features` gives them)."""
        return legal

    def _check_plays(self, slots: list) -> None:
        """Raise where a game cannot take a whole play now (nothing by default)."""

    def _apply_plays(self, slots: list, chosen: list) -> tuple:
        """Apply ``chosen[i]`` (an entry of game ``i``'s legal list); the step's results."""
        raise NotImplementedError

    def _truncated(self, result: Any) -> bool:
        """Whether a game that ended with ``result`` was truncated (False by default)."""
        return False

    # --- episodes -------------------------------------------------------------------------------------
    def slot_seeds(self, seed: int) -> list[int]:
        """The seed of each slot after ``reset(seed=seed)`` (:func:`~seers_env.vector_slots.slot_seed`).

        Raises:
            ValueError: a negative or non-integer seed.
        """
        return seeding.spawn_seeds(seeding.check_seed(seed), self.num_envs)

    def _new_game(self, rng: np.random.Generator) -> Any:
        return self.game_class(self.config, seed=int(rng.integers(2**63 - 1)))  # as raw_env.reset()

    def reset(self, seed: int | Sequence[int | None] | None = None,
              options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game in every slot (module docstring: seeds, positions).

        Args:
            seed: an integer, a sequence of ``num_envs`` integers >= 0 or None, or None.
            options: None or ``{"games": {slot: game.to_dict() or game}}`` (or a list of ``num_envs``
                positions and None); other keys are ignored.

        Returns:
            ``(observations, infos)``.

        Raises:
            ValueError: a negative or non-integer seed, or a list of the wrong length; a position of another
                config or already over (and what the game's ``from_dict`` raises for a damaged one), or a
                slot out of range. TypeError: ``options`` is not a dict, or ``games`` neither a dict nor a
                list. Nothing changes on any error.
        """
        seeds = vector_slots.slot_seed_list(seed, self.num_envs)
        starts = vector_slots.positions(options, self.num_envs, self.game_class, self.config)
        slots = []
        for s, start in zip(seeds, starts):
            rng = np.random.default_rng(s)  # as raw_env.reset(seed=s)
            slots.append(self.slot_class(rng, self._new_game(rng) if start is None else start))
        self._slots = slots
        self.closed = False
        self._plays = None
        self._rewards[:] = 0.0
        self._totals[:] = 0
        return self._observations(), self._infos()

    def _check_open(self, name: str) -> list:
        if not self._slots:
            if self.closed:
                raise vector_slots.VectorResetNeeded(f"{name}() after close(); call reset() to deal new games first")
            raise vector_slots.VectorResetNeeded(f"call reset() before {name}()")
        return self._slots

    def _observations(self) -> dict[str, np.ndarray]:
        obs = np.empty((self.num_envs, self.obs_dim), np.float32)
        masks = np.empty((self.num_envs, self.n_actions), np.int8)
        observe, mask = self._observe, self._mask
        for i, s in enumerate(self._slots):
            obs[i] = observe(s)
            masks[i] = mask(s)
        return {"observation": obs, "action_mask": masks}

    def _seats(self) -> np.ndarray:
        return np.array([s.game.current for s in self._slots], np.int64)

    def _infos(self) -> dict[str, np.ndarray]:
        infos: dict[str, np.ndarray] = {"seat": self._seats(), "stage": np.array(self._stages(), np.int64),
                                        "rewards": self._rewards.copy(), "totals": self._totals.copy()}
        return vector_slots.with_masks(infos, self.num_envs)

    # --- stepping ---------------------------------------------------------------------------------------
    def _begin(self) -> np.ndarray:
        """Start a step: clear the step's rewards, totals and flags; the acting seats."""
        self._plays = None
        self._rewards[:] = 0.0
        self._totals[:] = 0
        self._terms = np.zeros(self.num_envs, bool)
        self._truncs = np.zeros(self.num_envs, bool)
        return self._seats()

    def _settle(self, i: int, slot: Any, result: Any) -> bool:
        """Record the result of slot ``i``'s applied play: rewards and, where the game ended, its flags,
        totals and the slot's next game (the autoreset). Returns whether the game ended."""
        if result.round_over and self.reward_mode == "score":
            self._rewards[i] = result.round_scores
        if not result.game_over:
            return False
        game = slot.game
        if self.reward_mode == "win":
            n = self.n_players
            self._rewards[i] = [(n + 1 - 2 * place) / (n - 1) for place in game.placements()]
        truncated = self._truncated(result)
        self._terms[i], self._truncs[i] = not truncated, truncated
        self._totals[i] = game.totals
        slot.game = self._new_game(slot.rng)
        return True

    def _results(self, acted: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        rewards = self._rewards[np.arange(self.num_envs), acted]
        return self._observations(), rewards, self._terms, self._truncs, self._infos()

    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Take one action of the game's catalogue in every game (the acting seat's, at its pending stage).

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
        n_actions, allowed_in = self.n_actions, self._allowed
        for i, (s, code) in enumerate(zip(slots, a)):
            if not (0 <= code < n_actions and allowed_in(s, code)):
                allowed = np.flatnonzero(self._mask(s))
                more = " ..." if allowed.size > 12 else ""
                raise ValueError(f"action {code} of row {i} is not allowed by its action mask (allowed: "
                                 f"{allowed[:12].tolist()}{more})")
        return self._apply_actions(slots, a)

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, n_actions)``: the current action masks (a new array).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        return np.stack([self._mask(s) for s in self._check_open("action_masks")])

    # --- play level -------------------------------------------------------------------------------------
    def play_features(self) -> vector_slots.PlayFeatures:
        """Every game's decision at the play level (the module's ``PlayFeatures``, new arrays): row ``j`` of
        game ``i`` is the ``j``-th play of ``legal_plays()``, the play :meth:`step_plays` makes for index ``j``.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        slots = self._check_open("play_features")
        legal = self._legal_lists()
        states = np.empty((self.num_envs, self.state_dim), np.float32)
        rows, plays = [], []
        offsets = np.zeros(self.num_envs + 1, np.int64)
        for i, (s, entries) in enumerate(zip(slots, legal)):
            view = self.view_class(s.game, s.game.current)
            ps = self._feature_plays(entries)
            states[i] = self.encode_state(view)
            rows.append(self.encode_plays(view, ps))
            plays.append(ps)
            offsets[i + 1] = offsets[i] + len(ps)
        table = (np.concatenate(rows).astype(np.float32, copy=False) if rows
                 else np.zeros((0, self.play_dim), np.float32))
        return self.features_class(states, table, offsets, self._seats(), plays)

    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Make one play in every game: play ``indices[i]`` of game ``i``'s legal list (:meth:`play_features`
        order). Returns what :meth:`step` returns.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``. TypeError: a non-integer dtype.
                ValueError: a wrong shape. IndexError: an index outside its game's legal plays (the message
                names the row, the value and the allowed range). Nothing changes on any error.
        """
        slots = self._check_open("step_plays")
        a = vector_slots.int_rows(indices, self.num_envs, "indices").tolist()
        self._check_plays(slots)
        legal = self._legal_lists()
        for i, (j, ps) in enumerate(zip(a, legal)):
            if not 0 <= j < len(ps):
                raise IndexError(f"play index {j} of row {i} is out of range; allowed: 0 .. {len(ps) - 1} "
                                 f"(its {len(ps)} legal plays)")
        return self._apply_plays(slots, [ps[j] for j, ps in zip(a, legal)])

    def close(self, **kwargs: Any) -> None:
        """Release the games (``closed`` is then true); every method but :meth:`reset` then raises
        :class:`~seers_env.vector_slots.VectorResetNeeded`. Closing twice does nothing more."""
        self._slots = []
        self._plays = None
        self.closed = True


def random_legal_rows(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``: the ``int(u * count)``-th legal id of row ``i``
    (ascending) with ``u`` the ``i``-th of ``rng.random(N)`` (one uniform per row).

    Args:
        masks: ``(N, A)``, nonzero = legal (e.g. int8 action masks), every row with at least one.
        rng: a ``numpy.random.Generator``.

    Returns:
        int64 ``(N,)`` action ids.

    One scan of the flattened masks (a 2-D ``np.nonzero`` of 256 rows of 12,304 ids costs more than a
    Seals batch step); for benchmarks and random play.
    """
    n_rows, width = masks.shape
    flat = np.flatnonzero(masks.astype(bool))  # row-major: each row's legal ids, in order
    counts = np.bincount(flat // width, minlength=n_rows)
    starts = np.cumsum(counts) - counts
    return flat[starts + (rng.random(n_rows) * counts).astype(np.int64)] - np.arange(n_rows) * width


def rates(env_class: type, num_envs: int, n_players: int, seconds: float, seed: int) -> dict[str, float]:
    """Throughput of random legal play on ``env_class(num_envs, n_players=n_players)`` (one thread):
    ``{"steps_per_s": rows of ``step`` per second, "plays_per_s": rows of ``play_features`` then
    ``step_plays`` per second}``, each level from ``reset(seed=seed)`` over about ``seconds`` after one untimed
    call; choices from ``numpy.random.default_rng(seed)`` (:func:`random_legal_rows` for ``step``)."""
    import time

    rng = np.random.default_rng(seed)
    venv = env_class(num_envs, n_players=n_players)
    out = {}
    for level in ("steps_per_s", "plays_per_s"):  # a reset leaves every game at a stage-0 decision
        obs, _ = venv.reset(seed=seed)
        done, t0, first = 0, 0.0, True
        while first or time.perf_counter() - t0 < seconds:
            if level == "steps_per_s":
                obs, *_ = venv.step(random_legal_rows(obs["action_mask"], rng))
            else:
                venv.step_plays(rng.integers(0, np.diff(venv.play_features().offsets)))
            if first:
                first, t0 = False, time.perf_counter()
                continue
            done += num_envs
        out[level] = done / (time.perf_counter() - t0)
    return out


def bench(argv: list[str] | None, game: str, rates_fn: Callable[..., dict[str, float]], name: str,
          players: Sequence[int]) -> None:
    """A batch API's ``__main__`` (``python -m seers_env.<game>.vector [--games N] [--seconds S] [--seed
    K]``): ``rates_fn`` at each of ``players``, printed as a table of one row per player count within 80
    columns. ``game`` is the package name (``"seals"``), ``name`` the batch class's."""
    import argparse

    counts = ", ".join(map(str, players[:-1])) + f" and {players[-1]}"
    ap = argparse.ArgumentParser(prog=f"python -m seers_env.{game}.vector",
                                 description=f"Steps per second of {name} at {counts} players, one thread, "
                                             f"random legal actions: step() and play_features() + step_plays().")
    ap.add_argument("--games", type=int, default=256, help="games stepped together (default 256)")
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="seconds measured per player count and path (default 3)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the games and the random actions (default 0)")
    args = ap.parse_args(argv)
    print(f"{name}({args.games}), seed {args.seed}, one thread; random legal actions")
    print(f"{'players':>7}  {'step() steps/s':>14}  {'play_features + step_plays plays/s':>35}")
    for n in players:
        r = rates_fn(args.games, n, args.seconds, args.seed)
        print(f"{n:>7}  {r['steps_per_s']:>14,.0f}  {r['plays_per_s']:>35,.0f}", flush=True)


__all__ = ["PythonVectorEnv", "bench", "random_legal_rows", "rates"]
