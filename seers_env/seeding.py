"""Seeds of independent random streams derived from one seed, with ``numpy.random.SeedSequence``.

Adding an index to a seed (``seed + i``) makes neighbouring seeds share streams: seed 0's stream 1 is seed
1's stream 0. Every place that derives several streams from one seed (vector env slots, actor processes,
training environments, evaluation deals) takes them from here instead, so that two different seeds share
no stream (NumPy's "Parallel random number generation" guide: ``SeedSequence.spawn``).

Plain ``int`` seeds are handed out, so that each stream can be passed on to anything that takes a seed
(``raw_env().reset(seed=...)``, ``Game(config, seed=...)``, ``numpy.random.default_rng``).
"""

from __future__ import annotations

import numpy as np


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` as an ``int`` when it is a non-negative integer (NumPy integers included, bools not).

    Raises:
        ValueError: anything else; the message names ``name``, the value and what is allowed.
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{name}={seed!r} is not allowed; use an integer >= 0")
    return int(seed)


def child_seed(seed: int, i: int) -> int:
    """The seed of stream ``i`` of ``seed``: 64 bits of child ``i`` of ``SeedSequence(seed).spawn(n)``
    (spawn key ``(i,)``), whatever ``n > i`` is, so ``spawn_seeds(seed, n)[i] == child_seed(seed, i)``.

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``i``.
    """
    seed, i = check_seed(seed), check_seed(i, "i")
    return int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0])


def spawn_seeds(seed: int, n: int) -> list[int]:
    """``[child_seed(seed, i) for i in range(n)]``: ``n`` seeds of independent streams (a prefix is stable:
    the first ``k`` are the same for every ``n >= k``).

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``n``.
    """
    seed, n = check_seed(seed), check_seed(n, "n")
    return [child_seed(seed, i) for i in range(n)]


def keyed_seed(*key: int) -> int:
    """A 32-bit seed (``0 <= s < 2**32``, what ``numpy.random.seed``, ``torch.manual_seed`` and
    stable-baselines3 take) of the stream named by ``key``, e.g. ``(run seed, steps done)``: different keys
    give unrelated seeds (``SeedSequence(list(key))``), unlike sums such as ``seed + steps``.

    Raises:
        ValueError: an empty key, or a negative or non-integer part.
    """
    if not key:
        raise ValueError("keyed_seed needs at least one integer")
    parts = [check_seed(k, "key part") for k in key]
    return int(np.random.SeedSequence(parts).generate_state(1, np.uint32)[0])


__all__ = ["check_seed", "child_seed", "keyed_seed", "spawn_seeds"]
