"""What counts as an integer (and a real number) in arguments: the one check every layer uses.

NumPy makes ``numpy.timedelta64`` a subclass of ``numpy.signedinteger`` (and registers it as a
``numbers.Integral``), so ``isinstance(x, (int, np.integer))`` takes ``np.timedelta64(3)`` for the integer
3, and ``numpy.issubdtype(a.dtype, np.integer)`` a timedelta array for integers. ``bool`` is a subclass of
``int``. Neither is a count, a seed, a seat or an action, so :func:`is_integer` refuses both (and
``numpy.bool_``), and :func:`is_integer_dtype` refuses the dtypes of both.

This module imports only NumPy, so the rules engines may use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_integer(value: Any) -> bool:
    """True exactly for a Python ``int`` or a NumPy integer scalar (``np.int64``, ``np.uint8`` ...).

    False for ``bool`` and ``numpy.bool_``, for ``numpy.timedelta64`` and ``numpy.datetime64`` (NumPy makes
    timedelta64 a ``numpy.signedinteger``), for floats, strings and arrays (0-d ones too).
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.timedelta64))


def unwrap_integer_array(value: Any) -> Any:
    """The integer inside a 0-d integer array (what ``model.predict`` of Stable-Baselines3 returns for one
    observation), as a NumPy scalar; any other value unchanged (so :func:`is_integer` then judges it:
    a 0-d timedelta64, bool or float array stays an array and is refused)."""
    if isinstance(value, np.ndarray) and value.shape == () and is_integer_dtype(value.dtype):
        return value[()]
    return value


def check_action_id(action: Any, n_actions: int) -> int:
    """``action`` (an integer, or a 0-d integer array: :func:`unwrap_integer_array`) as an ``int`` in
    ``0..n_actions - 1``: a Discrete action space's id check.

    Raises:
        TypeError: not an integer (bools, floats and ``numpy.timedelta64`` included).
        ValueError: outside ``0..n_actions - 1``.
    """
    action = unwrap_integer_array(action)
    if not is_integer(action):
        raise TypeError(f"action must be an integer in 0..{n_actions - 1}, got {type(action).__name__}: {action!r}")
    a = int(action)
    if not 0 <= a < n_actions:
        raise ValueError(f"action {a} is outside the action space 0..{n_actions - 1}")
    return a


def is_real_number(value: Any) -> bool:
    """True exactly for a Python ``int`` or ``float`` or a NumPy integer or floating scalar; False for what
    :func:`is_integer` refuses (bools, ``numpy.timedelta64`` ...), complex numbers, strings and arrays."""
    return is_integer(value) or isinstance(value, (float, np.floating))


def is_integer_dtype(dtype: Any) -> bool:
    """True for a signed or unsigned integer dtype (kind ``"i"`` or ``"u"``); False for bool, timedelta64
    (which ``numpy.issubdtype(dtype, np.integer)`` accepts), datetime64, float, object and the others.

    Raises:
        TypeError: ``dtype`` is not something ``numpy.dtype`` reads.
    """
    return np.dtype(dtype).kind in "iu"


__all__ = ["check_action_id", "is_integer", "is_integer_dtype", "is_real_number", "unwrap_integer_array"]
