"""Throughput of the SCOUT environments under random legal play (for ``seers bench env --game scout``).

* :func:`batch_steps_per_second`: the batch API (:class:`~seers_env.scout.vector.ScoutVectorEnv`), random
  allowed catalogue actions through ``step`` (observations and masks built for every game at every step);
* :func:`batch_plays_per_second`: the same games at the play level (``play_features`` then ``step_plays``
  of a uniformly random legal play);
* :func:`aec_steps_per_second`: the PettingZoo AEC env (:mod:`seers_env.scout_v0`), observation and mask
  read at every step.

Each runs one thread in this process. A warm-up (``reset`` and a few steps) runs first and is not timed,
so numba's compile or cache load is excluded; the timed part runs at least one step.
"""

from __future__ import annotations

import time

import numpy as np

from ..integers import is_integer

#: Batch steps of the untimed warm-up.
WARMUP_STEPS = 20


def _check(num_envs: int, seconds: float) -> None:
    if not is_integer(num_envs) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r} is not allowed; use an integer >= 1")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not seconds > 0:
        raise ValueError(f"seconds={seconds!r} is not allowed; use a positive number")


def batch_steps_per_second(num_envs: int = 256, n_players: int = 4, seconds: float = 3.0, seed: int = 0) -> float:
    """Env steps per second (catalogue actions, summed over games) of random legal play on the batch API.

    Every step takes one allowed action per game, drawn uniformly from its mask by
    :func:`seers_env.scout.kernel.random_legal_actions` with a ``numpy.random.Generator`` seeded with
    ``seed`` (its time is counted).

    Raises:
        ValueError: ``num_envs < 1``, ``seconds <= 0``, or a bad ``n_players`` / ``seed``.
    """
    from .kernel import random_legal_actions
    from .vector import ScoutVectorEnv

    _check(num_envs, seconds)
    venv = ScoutVectorEnv(num_envs, n_players=n_players)
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(WARMUP_STEPS):  # compile / cache load, not timed
        obs = venv.step(random_legal_actions(obs["action_mask"], rng.random(num_envs)))[0]
    steps = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < seconds:
        obs = venv.step(random_legal_actions(obs["action_mask"], rng.random(num_envs)))[0]
        steps += num_envs
    return steps / (time.perf_counter() - start)


def batch_plays_per_second(num_envs: int = 256, n_players: int = 4, seconds: float = 3.0, seed: int = 0) -> float:
    """Whole plays per second (summed over games) at the play level: ``play_features()`` (the state and one
    feature row per legal play of every game) then ``step_plays`` of a uniformly random legal play each.

    Raises:
        ValueError: as :func:`batch_steps_per_second`.
    """
    from .vector import ScoutVectorEnv

    _check(num_envs, seconds)
    venv = ScoutVectorEnv(num_envs, n_players=n_players)
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(WARMUP_STEPS):
        venv.step_plays(rng.integers(np.diff(venv.play_features().offsets)))
    plays = 0
    start = time.perf_counter()
    while plays == 0 or time.perf_counter() - start < seconds:
        venv.step_plays(rng.integers(np.diff(venv.play_features().offsets)))
        plays += num_envs
    return plays / (time.perf_counter() - start)


def aec_steps_per_second(n_players: int = 4, seconds: float = 3.0, seed: int = 0) -> float:
    """Steps per second of random legal play on ``seers_env.scout_v0.env(n_players=...)``: ``last()`` (the
    observation and mask) and ``step`` of a uniformly random allowed action, games reset as they end.

    Raises:
        ValueError: ``seconds <= 0`` or a bad ``n_players`` / ``seed``.
    """
    from ..scout_v0 import env as make_env

    _check(1, seconds)
    env = make_env(n_players=n_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def one_step() -> int:
        if not env.agents:
            env.reset()
            return 0
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            return 0
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.integers(len(legal)))]))
        return 1

    for _ in range(WARMUP_STEPS):
        one_step()
    steps = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < seconds:
        steps += one_step()
    return steps / (time.perf_counter() - start)


__all__ = ["WARMUP_STEPS", "aec_steps_per_second", "batch_plays_per_second", "batch_steps_per_second"]
