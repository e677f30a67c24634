"""Strict JSON for every file the project writes (results, summaries, configs, game logs).

Python's ``json`` writes ``NaN``, ``Infinity`` and ``-Infinity`` by default, which JavaScript's
``JSON.parse``, jq and other strict parsers (RFC 8259) reject. Writers here use ``allow_nan=False`` and
convert numpy scalars and arrays; an undefined statistic must be stored as ``null`` (with a short reason
next to it) before writing.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np


def _plain(obj: Any) -> Any:
    """``json.dumps`` ``default=``: numpy scalars and arrays as Python numbers and lists."""
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"object of type {type(obj).__name__} is not JSON serialisable: {obj!r}")


#: Nesting a saved game's event logs may have (the engine's events are 4 levels deep); deeper data would
#: overflow Python's recursion in ``copy.deepcopy`` / ``json.dumps``.
MAX_EVENT_DEPTH = 32


def too_deep(obj: Any, limit: int = MAX_EVENT_DEPTH) -> bool:
    """Whether lists/tuples/dicts in ``obj`` nest more than ``limit`` levels (checked without recursion)."""
    stack = [(obj, 0)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, (list, tuple, dict)):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in (x.values() if isinstance(x, dict) else x))
    return False


def non_finite_path(obj: Any, where: str = "$") -> str | None:
    """Where the first NaN or infinity in ``obj`` is, as ``$.agents.random.score_ci[0]``; ``None`` if none."""
    if isinstance(obj, (float, np.floating)):
        return None if math.isfinite(obj) else where
    if isinstance(obj, np.ndarray):
        obj = obj.tolist()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found = non_finite_path(v, f"{where}.{k}")
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            found = non_finite_path(v, f"{where}[{i}]")
            if found:
                return found
    return None


def null_non_finite(obj: Any, where: str = "$") -> tuple[Any, list[str]]:
    """A copy of ``obj`` (dicts, lists, tuples as lists) with every NaN or infinity replaced by ``None``.

    Returns:
        ``(copy, places)``: ``places`` lists where values were replaced (``$.imitation.loss[3]``), so a
        writer can record the reason next to them.
    """
    places: list[str] = []

    def walk(x: Any, at: str) -> Any:
        if isinstance(x, np.ndarray):
            x = x.tolist()
        if isinstance(x, (float, np.floating)):
            if math.isfinite(x):
                return float(x)
            places.append(at)
            return None
        if isinstance(x, dict):
            return {k: walk(v, f"{at}.{k}") for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v, f"{at}[{i}]") for i, v in enumerate(x)]
        return x

    return walk(obj, where), places


def dumps(obj: Any, indent: int | None = 1) -> str:
    """Strict JSON text of ``obj`` (``allow_nan=False``; numpy values converted).

    Raises:
        ValueError: ``obj`` holds a NaN or an infinity (the message gives its place, e.g.
            ``$.agents.random.score_ci[0]``).
        TypeError: an object JSON cannot represent.
    """
    try:
        return json.dumps(obj, indent=indent, allow_nan=False, default=_plain)
    except ValueError:
        raise ValueError(f"refusing to write non-standard JSON: {non_finite_path(obj)} is NaN or infinite; "
                         f"store an undefined value as null with a reason") from None


def write_json(path: str | os.PathLike, obj: Any, indent: int | None = 1) -> None:
    """Write ``obj`` as strict JSON (:func:`dumps`) to ``path`` (UTF-8); nothing is written on error.

    Raises:
        ValueError, TypeError: as :func:`dumps` (the message names ``path``).
    """
    try:
        text = dumps(obj, indent)
    except (ValueError, TypeError) as err:
        raise type(err)(f"{os.fspath(path)}: {err}") from None
    Path(path).write_text(text + "\n", encoding="utf-8")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):  # e.g. 1e999: Python's float() makes it an infinity
        raise ValueError(f"the number {token[:40]!r} is too large for a 64-bit float (it would be read as infinite)")
    return value


def loads_strict(text: str) -> Any:
    """Parse JSON as a strict parser does: ``NaN``, ``Infinity`` and ``-Infinity`` raise ``ValueError``, and so
    does a number too large for a float (``1e999``, which Python would read as an infinity)."""
    def refuse(token: str) -> Any:
        raise ValueError(f"non-standard JSON constant {token!r}")

    return json.loads(text, parse_constant=refuse, parse_float=_finite_float)


def read_json_file(path: str | os.PathLike, what: str = "JSON file", strict: bool = True) -> Any:
    """Parse the JSON file at ``path`` (UTF-8); JSON runs nothing, whoever wrote the file.

    Args:
        path: the file.
        what: what the file is, for the message (e.g. ``"run configuration"``).
        strict: refuse ``NaN`` and the infinities (:func:`loads_strict`); ``False`` for files of older
            versions that wrote them.

    Raises:
        ValueError: the file is not UTF-8 JSON (the message names it, says what it is and where it breaks).
        OSError: it cannot be read (e.g. ``FileNotFoundError``).
    """
    text = Path(path).read_bytes()
    try:
        decoded = text.decode("utf-8")
        return loads_strict(decoded) if strict else json.loads(decoded)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ValueError(f"{what} {os.fspath(path)!r} is not readable JSON ({type(err).__name__}: {err})") from None
