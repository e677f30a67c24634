"""Seeds of independent random streams derived from one seed, with ``numpy.random.SeedSequence``.

Adding an index to a seed (``seed + i``) makes neighbouring seeds share streams: seed 0's stream 1 is seed
1's stream 0. Every place that derives several streams from one seed (vector env slots, actor processes,
training environments, evaluation deals) takes them from here instead, as NumPy's guide to parallel random
number generation advises: stream ``path`` of ``seed`` is the node ``SeedSequence(seed, spawn_key=path)``
of the seed's spawn tree (``path == (i,)`` is child ``i`` of ``SeedSequence(seed).spawn(n)``), so two
different seeds, or two different paths, share no stream.

Plain ``int`` seeds are handed out, so that each stream can be passed on to anything that takes a seed
(``raw_env().reset(seed=...)``, ``Game(config, seed=...)``, ``numpy.random.default_rng``, ``torch``).
"""

from __future__ import annotations

import numpy as np

from .integers import is_integer


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` as an ``int`` when it is a non-negative integer (NumPy integers included, bools not).

    Raises:
        ValueError: anything else; the message names ``name``, the value and what is allowed.
    """
    if not is_integer(seed) or seed < 0:
        raise ValueError(f"{name}={seed!r} is not allowed; use an integer >= 0")
    return int(seed)


def child_seed(seed: int, *path: int, bits: int = 64) -> int:
    """The seed of stream ``path`` of ``seed``: ``bits`` bits (64, or 32 for ``numpy.random.seed``,
    ``torch.manual_seed`` and stable-baselines3) of ``SeedSequence(seed, spawn_key=path)``.

    ``child_seed(seed, i)`` is child ``i`` of ``SeedSequence(seed).spawn(n)`` for any ``n > i``, and
    ``child_seed(seed, i, j)`` child ``j`` of that child's ``spawn``.

    Raises:
        ValueError: a negative or non-integer ``seed`` or path part, no path, or ``bits`` not 32 or 64.
    """
    seed = check_seed(seed)
    if not path:
        raise ValueError("child_seed needs a path of at least one index, e.g. child_seed(seed, i)")
    key = tuple(check_seed(p, "path index") for p in path)
    if bits not in (32, 64):
        raise ValueError(f"bits={bits!r} is not allowed; use 32 or 64")
    dtype = np.uint64 if bits == 64 else np.uint32
    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1, dtype)[0])


def spawn_seeds(seed: int, n: int, bits: int = 64) -> list[int]:
    """``[child_seed(seed, i, bits=bits) for i in range(n)]``: the seeds of ``SeedSequence(seed).spawn(n)``
    (a prefix is stable: the first ``k`` are the same for every ``n >= k``).

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``n``, or a bad ``bits``.
    """
    n = check_seed(n, "n")
    return [child_seed(seed, i, bits=bits) for i in range(n)]


def rng_from_state(state, name: str) -> np.random.Generator:
    """A ``numpy.random.Generator`` restored from a ``bit_generator.state`` dict (a saved game's
    ``rng_state``); ``state`` is copied, never aliased.

    Raises:
        TypeError: ``state`` is not a dict.
        ValueError: its ``bit_generator`` is not a concrete numpy bit generator (e.g. ``'PCG64'``; the
            base class ``'BitGenerator'`` is refused), or the state does not fit it; messages name ``name``.
    """
    import copy

    if not isinstance(state, dict):
        raise TypeError(f"{name} must be a numpy bit_generator state dict, got {type(state).__name__}")
    kind = state.get("bit_generator")
    cls = getattr(np.random, kind, None) if isinstance(kind, str) else None
    if not (isinstance(cls, type) and issubclass(cls, np.random.BitGenerator)) or cls is np.random.BitGenerator:
        raise ValueError(f"{name}['bit_generator']={kind!r} is not a numpy bit generator (e.g. 'PCG64')")
    bit_gen = cls()
    try:
        bit_gen.state = copy.deepcopy(state)
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        raise ValueError(f"{name} is not a valid {kind} state: {e}") from None
    why = unsafe_state(bit_gen)
    if why is not None:
        raise ValueError(f"{name} is not a valid {kind} state: {why}")
    return np.random.Generator(bit_gen)


#: The MT19937 key length (``pos == 624``: the next draw regenerates the key) and Philox's buffer size.
_MT_N, _PHILOX_BUFFER = 624, 4


def unsafe_state(bit_gen: np.random.BitGenerator) -> str | None:
    """Why the state just set on ``bit_gen`` is one numpy never makes and would misuse, or None.

    numpy's state setters take these fields without a range check, and the C code then indexes with them
    or loops on them: an MT19937 ``pos`` outside ``0..624`` or a Philox ``buffer_pos`` outside ``0..4``
    reads outside the generator's memory (a segmentation fault for a large one); the all-zero MT19937 key,
    or a PCG64 / PCG64DXSM state with an even increment (possibly a fixed point: ``state 0, inc 0`` draws 0
    for ever), can make a bounded draw (``integers(3)``) loop for ever in C, which no signal interrupts.
    Every state numpy makes has ``pos`` / ``buffer_pos`` in range, a key that is not all zero and an odd
    increment.
    """
    st = bit_gen.state
    kind = st.get("bit_generator")
    if kind == "MT19937":
        pos, key = int(st["state"]["pos"]), np.asarray(st["state"]["key"])
        if not 0 <= pos <= _MT_N:
            return f"pos={pos} is outside 0..{_MT_N} (numpy would read outside its key)"
        if not key[1:].any() and not int(key[0]) & 0x80000000:
            return "its key is the all-zero state of MT19937 (every draw is 0, and a bounded draw never ends)"
    elif kind == "Philox":
        pos = int(st["buffer_pos"])
        if not 0 <= pos <= _PHILOX_BUFFER:
            return f"buffer_pos={pos} is outside 0..{_PHILOX_BUFFER} (numpy would read outside its buffer)"
    elif kind in ("PCG64", "PCG64DXSM") and int(st["state"]["inc"]) % 2 == 0:
        return (f"its increment inc={int(st['state']['inc'])} is even (numpy's are odd; with an even one the "
                f"generator can repeat one value for ever, and a bounded draw never ends)")
    return None


__all__ = ["check_seed", "child_seed", "rng_from_state", "spawn_seeds", "unsafe_state"]
