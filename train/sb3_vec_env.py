"""stable-baselines3 vector environments whose sub-environments get independent seeds.

SB3's ``VecEnv.seed(seed)`` gives sub-environment ``i`` the seed ``seed + i`` (and ``MaskablePPO(seed=...)``
calls it), so runs with neighbouring seeds would train on mostly the same games. These subclasses give
sub-environment ``i`` :func:`seers_env.seeding.child_seed` ``(seed, ENV_STREAM, i)`` instead, a node of
``numpy.random.SeedSequence(seed)``'s spawn tree: two seeds share no sub-environment's games, and the
other streams of a run's seed (:mod:`train.trainer`) use other paths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from seers_env.seeding import check_seed, child_seed

#: The first index of the sub-environments' paths in the seed's spawn tree.
ENV_STREAM = 0


def _spawned_seeds(seed: int | None, n: int) -> list[int]:
    if seed is None:  # fresh entropy, still one independent stream per sub-environment
        seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    seed = check_seed(seed)
    return [child_seed(seed, ENV_STREAM, i) for i in range(n)]


class SpawnedSeedsDummyVecEnv(DummyVecEnv):
    """``DummyVecEnv`` whose :meth:`seed` gives sub-environment ``i`` ``child_seed(seed, ENV_STREAM, i)``
    (module docstring)."""

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next ``reset()``: ``child_seed(seed, ENV_STREAM, i)`` for each sub-environment ``i``
        (fresh entropy for None).

        Raises:
            ValueError: a negative or non-integer seed.
        """
        self._seeds = _spawned_seeds(seed, self.num_envs)
        return self._seeds


class SpawnedSeedsSubprocVecEnv(SubprocVecEnv):
    """``SubprocVecEnv`` whose :meth:`seed` gives sub-environment ``i`` ``child_seed(seed, ENV_STREAM, i)``
    (module docstring)."""

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next ``reset()``: ``child_seed(seed, ENV_STREAM, i)`` for each sub-environment ``i``
        (fresh entropy for None).

        Raises:
            ValueError: a negative or non-integer seed.
        """
        self._seeds = _spawned_seeds(seed, self.num_envs)
        return self._seeds


__all__ = ["ENV_STREAM", "SpawnedSeedsDummyVecEnv", "SpawnedSeedsSubprocVecEnv"]
