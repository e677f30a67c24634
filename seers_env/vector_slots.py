"""What the Python batch APIs (:mod:`seers_env.haggis.vector`, :mod:`seers_env.seals.vector`) share: argument
checks, :func:`slot_seed`, :class:`VectorResetNeeded` and :class:`PlayFeatures`.

Each function checks one argument of a ``VectorEnv`` method of ``num_envs`` slots and raises a clear error
before anything changes: :func:`slot_seed_list` (``reset``'s ``seed``), :func:`positions` (``reset``'s
``options["games"]``), :func:`int_rows` (``step``'s actions, ``step_plays``' indices); :func:`with_masks`
builds the infos dict with Gymnasium's ``_key`` masks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium.error import ResetNeeded

from . import seeding
from .integers import is_integer, is_integer_dtype


def slot_seed(seed: int, i: int) -> int:
    """The seed of slot ``i`` after a batch API's ``reset(seed=seed)``: :func:`seers_env.seeding.child_seed`
    ``(seed, i)``. The game's ``raw_env().reset(seed=slot_seed(seed, i))``, then ``reset()`` after each
    game, plays that slot's games.

    Raises:
        ValueError: a negative or non-integer ``seed`` or ``i``.
    """
    return seeding.child_seed(seed, i)


class VectorResetNeeded(ResetNeeded, RuntimeError):
    """A batch API's method called before ``reset()`` or after ``close()``."""


class PlayFeatures(NamedTuple):
    """Play-scoring features of every game's decision (a batch API's ``play_features()``); new arrays.

    Attributes:
        states: float32 ``(N, STATE_DIM)``: the game's ``features.encode_state`` of each acting seat.
        rows: float32 ``(R, PLAY_DIM)``: the game's ``features.encode_plays`` rows of every legal play of
            every game.
        offsets: int64 ``(N + 1,)``: game ``i`` owns ``rows[offsets[i]:offsets[i + 1]]``.
        seats: int64 ``(N,)``: the acting seat of each game.
        plays: per game, its legal plays (the game's play class), in row order.
    """

    states: np.ndarray
    rows: np.ndarray
    offsets: np.ndarray
    seats: np.ndarray
    plays: list


def env_args(num_envs: Any, reward_mode: Any, config: Mapping[str, Any], reward_modes: Sequence[str],
             config_fields: Sequence[str], title: str) -> int:
    """Checks a batch API's constructor arguments; returns ``num_envs`` as an int.

    Raises:
        ValueError: ``num_envs`` not an integer >= 1, or ``reward_mode`` not one of ``reward_modes``.
        TypeError: a ``config`` key outside ``config_fields`` (named, with the allowed ones).
    """
    if not is_integer(num_envs) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r} is not allowed; use an integer >= 1")
    if not isinstance(reward_mode, str) or reward_mode not in reward_modes:
        raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {tuple(reward_modes)}")
    unknown = sorted(set(config) - set(config_fields))
    if unknown:
        raise TypeError(f"unknown {title} option(s) {unknown}; allowed: n_players, reward_mode, "
                        f"{', '.join(config_fields)}")
    return int(num_envs)


def slot_seed_list(seed: Any, num_envs: int) -> list[int | None]:
    """Each slot's seed for ``reset(seed=seed)``: None for every slot (fresh entropy) when ``seed`` is None;
    :func:`seers_env.seeding.spawn_seeds` ``(seed, num_envs)`` for an integer; a sequence of ``num_envs``
    seeds (integers >= 0 or None) as given.

    Raises:
        ValueError: a negative or non-integer seed (named), a string, or a sequence of the wrong length.
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed[()]  # a NumPy scalar: .item() would turn a timedelta64 into an int
    if is_integer(seed):
        return seeding.spawn_seeds(seeding.check_seed(seed), num_envs)
    if isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray)):
        raise ValueError(f"seed={seed!r} is not allowed; use an integer >= 0, a list of {num_envs} "
                         f"such seeds (or None entries), or None")
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"seed has {len(seeds)} entries; a list of seeds needs one per slot ({num_envs})")
    return [None if s is None else seeding.check_seed(s, f"seed[{i}]") for i, s in enumerate(seeds)]


def positions(options: Any, num_envs: int, game_class: type, config: Any) -> list[Any]:
    """Each slot's starting position of ``options["games"]`` (None: deal a game): a dict ``{slot: position}``
    or a list of ``num_envs`` positions (None entries deal); a position is a ``game_class.to_dict()`` dict or
    a ``game_class`` instance (copied through its dict), of ``config`` and not over. Other keys of
    ``options`` are ignored.

    Raises:
        TypeError: ``options`` not a dict or None; ``games`` neither a dict nor a list; a slot that is not an
            integer; a position that is not a dict (or ``game_class``). ValueError: a list of the wrong
            length, a slot out of range, a position of another config or already over (and what
            ``game_class.from_dict`` raises for a damaged one).
    """
    name = game_class.__name__
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options must be a dict or None, got {type(options).__name__}: {options!r}")
    games = (options or {}).get("games")
    starts: list[Any] = [None] * num_envs
    if games is None:
        return starts
    if isinstance(games, Mapping):
        items = list(games.items())
    elif isinstance(games, Sequence) and not isinstance(games, (str, bytes)):
        if len(games) != num_envs:
            raise ValueError(f"options['games'] has {len(games)} entries; a list of positions needs one "
                             f"per slot ({num_envs}), None where a slot is dealt")
        items = list(enumerate(games))
    else:
        raise TypeError(f"options['games'] must be a dict {{slot: {name}.to_dict()}} or a list of "
                        f"{num_envs} positions (None to deal), got {type(games).__name__}")
    for slot, position in items:
        if not is_integer(slot):
            raise TypeError(f"options['games'] slot {slot!r} is not an integer; use 0 .. {num_envs - 1}")
        if not 0 <= slot < num_envs:
            raise ValueError(f"options['games'] slot {slot} is out of range; allowed: 0 .. {num_envs - 1}")
        if position is None:
            continue
        where = f"options['games'][{slot}]"
        if isinstance(position, game_class):
            position = position.to_dict()
        if not isinstance(position, dict):
            raise TypeError(f"{where} must be a {name}.to_dict() dict (or a {name}), got "
                            f"{type(position).__name__}")
        game = game_class.from_dict(position)
        if game.config != config:
            raise ValueError(f"{where} has config {game.config.to_dict()}, but this environment plays "
                             f"{config.to_dict()}; make the environment with that config")
        if game.game_over:
            raise ValueError(f"{where} is a finished game; give a position that is still being played")
        starts[int(slot)] = game
    return starts


def int_rows(values: Any, num_envs: int, what: str) -> np.ndarray:
    """``values`` as an integer array of shape ``(num_envs,)`` (``numpy.asarray``, no copy forced).

    Raises:
        ValueError: another shape, or a Python integer outside int64. TypeError: a non-integer dtype
            (bool, float, timedelta, object, ...), or a bool among integers (``[3, True]``, which
            ``numpy.asarray`` would read as ``[3, 1]``).
    """
    a = np.asarray(values)
    if a.shape != (num_envs,):
        raise ValueError(f"{what} must be integers of shape ({num_envs},), got {a.dtype} {a.shape}")
    if not isinstance(values, np.ndarray) and is_integer_dtype(a.dtype):
        for i, v in enumerate(values):
            if isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype.kind == "b"):
                raise TypeError(f"{what} must be integers; row {i} holds the bool {v!r}")
    if not is_integer_dtype(a.dtype):
        items = a.astype(object) if a.dtype.kind == "O" else np.asarray(values, dtype=object)
        if a.dtype.kind in "fO" and all(type(v) is int for v in items):
            big = [v for v in items if not -2**63 <= v < 2**63]
            if not big:
                return a.astype(np.int64)
            raise ValueError(f"{what} holds {big[0]}, outside the int64 range")
        raise TypeError(f"{what} must be integers (an integer dtype), got dtype {a.dtype}")
    return a


def with_masks(infos: dict[str, np.ndarray], num_envs: int) -> dict[str, np.ndarray]:
    """``infos`` plus Gymnasium's ``_key`` mask (bool ``(num_envs,)``, all true, a new array each) for each
    of its keys; returns ``infos``."""
    for key in list(infos):
        infos[f"_{key}"] = np.ones(num_envs, bool)
    return infos


__all__ = ["PlayFeatures", "VectorResetNeeded", "env_args", "int_rows", "positions", "slot_seed", "slot_seed_list", "with_masks"]
