"""What the dealt card games of this package share: :class:`DealtGame` and its checks.

:class:`~seers_env.scout.game.ScoutGame`, :class:`~seers_env.haggis.game.HaggisGame` and
:class:`~seers_env.seals.game.SealsGame` each deal from one ``numpy.random.Generator``, log every event
and save themselves as JSON data. This module holds that machinery, the same for the three:

* the constructor's checks of config and seed, and the generator: ``rng`` (a clone rebuilds its own
  from the saved state on first use, since a search rarely deals again) and ``initial_rng_state``;
* the saved-game envelope (``format``, ``game``, ``config``, ``rng_state``, ``initial_rng_state``,
  ``origin``, ``events`` and, where the game keeps one, ``public_history``) in :meth:`DealtGame.to_dict`,
  :meth:`DealtGame.log` and the pieces of ``from_dict`` and ``replay`` that check it;
* the scores every game reads the same way (``round_scores``, ``totals``, ``winners``, ``placements``);
* the validators :func:`check_int`, :func:`check_bool`, :func:`check_list` and the config dict mixin
  :class:`ConfigDict`.

Each game keeps its rules: dealing, plays, transitions, its state fields (``_state_dict`` / its
``_load_state``) and the checks where the games differ. No RL library is imported here (engine level).
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields
from typing import Any, ClassVar

import numpy as np

from .integers import is_integer
from .jsonio import MAX_EVENT_DEPTH, too_deep
from .seeding import rng_from_state

#: The ``format`` of every saved game and log of these engines.
GAME_FORMAT_VERSION = 1

#: The envelope fields of a saved game, in the order :meth:`DealtGame.to_dict` writes them (a game with a
#: public history adds ``"public_history"`` after them).
ENVELOPE_FIELDS = ("format", "game", "config", "rng_state", "initial_rng_state", "origin", "events")


class IllegalPlayError(ValueError):
    """A play that the rules do not allow now; the game state is left unchanged. Each game subclasses it
    with its ``play_type`` (e.g. :class:`seers_env.scout.game.IllegalPlayError`).

    Attributes:
        play: the rejected play. rule: the rule it breaks (rules section and a short text).
    """

    play_type: ClassVar[type]

    def __init__(self, play: Any, rule: str):
        self.play = play
        self.rule = rule
        text = play.describe() if isinstance(play, self.play_type) and play.malformed() is None else repr(play)
        super().__init__(f"illegal play {self.shown(play)} ({text}): {rule}")

    @staticmethod
    def shown(play: Any) -> str:
        """The play as the message shows it: a plain tuple when it is one (a play is a ``NamedTuple``)."""
        return repr(tuple(play)) if isinstance(play, tuple) else repr(play)


class GameOverError(RuntimeError):
    """A play was applied to a game that has ended (or winners asked for before the end)."""


def check_int(name: str, value: Any, lo: int, hi: int | None = None) -> int:
    """``value`` as an ``int`` when it is an integer (NumPy integers included, bools not) in ``lo..hi``
    (``hi=None``: no upper bound).

    Raises:
        TypeError: not an integer. ValueError: out of range. Messages name ``name`` and the allowed values.
    """
    allowed = f"an integer in {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
    if not is_integer(value):
        raise TypeError(f"{name}={value!r} ({type(value).__name__}) is not allowed; use {allowed}")
    if value < lo or (hi is not None and value > hi):
        raise ValueError(f"{name}={value!r} is not allowed; use {allowed}")
    return int(value)


def check_bool(name: str, value: Any) -> bool:
    """``value`` as a ``bool`` when it is a Python or NumPy bool.

    Raises:
        TypeError: anything else (``0`` and ``1`` too), naming ``name``.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r} ({type(value).__name__}) is not allowed; use True or False")
    return bool(value)


def check_list(name: str, value: Any, length: int | None = None, types: tuple[type, ...] = (list, tuple)) -> list:
    """``value`` as a new list when it is one of ``types`` (default a list or tuple) of ``length`` entries
    (``None``: any length).

    Raises:
        TypeError: another type. ValueError: another length. Messages name ``name``.
    """
    if not isinstance(value, types):
        raise TypeError(f"{name} must be a list, got {type(value).__name__}: {value!r}")
    if length is not None and len(value) != length:
        raise ValueError(f"{name} must have {length} entries, got {len(value)}")
    return list(value)


def placements(totals: list[int], round_scores: object = None) -> list[float]:
    """Finishing place of each seat by total (1 = first), tied seats sharing the mean of their places;
    ``round_scores`` is unused (the placement rule of :class:`seers_env.games.GameSpec`).

    Returns:
        one float per seat, e.g. ``[1.0, 2.5, 2.5]`` for totals ``[9, 4, 4]``.
    """
    return [1 + sum(t > x for t in totals) + (sum(t == x for t in totals) - 1) / 2 for x in totals]


class ConfigDict:
    """``to_dict`` / ``from_dict`` of a frozen config dataclass whose fields are JSON values."""

    def to_dict(self) -> dict[str, Any]:
        """Every field as a JSON-serialisable dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Any):
        """Inverse of :meth:`to_dict`; missing fields take their defaults.

        Raises:
            TypeError: ``d`` is not a dict, or a field has the wrong type.
            ValueError: an unknown field name or a value outside the allowed ones.
        """
        if not isinstance(d, dict):
            raise TypeError(f"config must be a dict of {cls.__name__} fields, got {type(d).__name__}: {d!r}")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(d) - set(names), key=str)
        if unknown:
            raise ValueError(f"config has unknown fields {unknown}; allowed: {names}")
        return cls(**d)


class DealtGame:
    """Base of a whole dealt game: generator, seed, clone, event logs and the saved-game envelope.

    A subclass sets the class attributes below, defines ``_start(config, rng)`` (calling
    :meth:`_begin` first, then dealing), ``_state_dict()`` (its state fields, in its saved order) and keeps
    its state in ``round``, ``_round_scores``, ``_hands`` and ``game_over`` among its own fields.

    Args:
        config: an instance of ``config_type`` (default: ``config_type()``).
        seed: seed of the game's ``numpy.random.default_rng`` (non-negative int or ``None``).

    Raises:
        TypeError: ``config`` is not a ``config_type``, or ``seed`` is not an int/None.
        ValueError: a negative seed.
    """

    #: registry name (:data:`seers_env.games.GAMES`), also the ``game`` field of a saved game and a log
    game_name: ClassVar[str]
    #: the game's name in messages, e.g. ``"SCOUT"``
    game_title: ClassVar[str]
    #: the config dataclass (a :class:`ConfigDict`)
    config_type: ClassVar[type]
    #: the play type (``from_list`` reads a logged play)
    play_type: ClassVar[type]
    #: the game's ``IllegalPlayError`` (a ``ValueError`` taking ``(play, rule)``)
    illegal_play_error: ClassVar[type]
    #: whether the game keeps a public event history (saved as ``public_history``)
    has_public_history: ClassVar[bool] = True
    #: the game's state fields, in the order ``_state_dict`` writes them
    state_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, config: Any = None, seed: int | None = None):
        config_type = self.config_type
        if config is not None and not isinstance(config, config_type):
            name = config_type.__name__
            raise TypeError(f"config must be a {name} (e.g. {name}(n_players={config_type().n_players})), got "
                            f"{type(config).__name__}: {config!r}")
        if seed is not None:
            check_int("seed", seed, 0)
        self._start(config if config is not None else config_type(),
                    np.random.default_rng(None if seed is None else int(seed)))

    def _start(self, config: Any, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def _state_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def _begin(self, config: Any, rng: np.random.Generator) -> None:
        """Set the config, the generator (its current state becomes ``initial_rng_state``) and empty logs,
        before the game deals."""
        self.config = config
        self._rng: np.random.Generator | None = rng
        self._rng_state: dict[str, Any] | None = None
        self.initial_rng_state = rng.bit_generator.state
        self._origin: Any = None
        self.events: list[dict[str, Any]] = []
        if self.has_public_history:
            self._public: list[dict[str, Any]] = []

    @staticmethod
    def _seeded_rng(seed: int | None) -> np.random.Generator:
        """``numpy.random.default_rng(seed)`` (TypeError / ValueError: ``seed`` is not a non-negative int)."""
        return np.random.default_rng(None if seed is None else check_int("seed", seed, 0))

    # --- generator ----------------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def initial_rng_state(self) -> dict[str, Any]:
        """The generator state the game started from (``bit_generator.state``; a fresh copy)."""
        return copy.deepcopy(self._initial_rng_state)

    @initial_rng_state.setter
    def initial_rng_state(self, state: dict[str, Any]) -> None:
        self._initial_rng_state = state

    @property
    def rng(self) -> np.random.Generator:
        """The game's generator (later deals draw from it). A clone builds its own on first use, from the
        state it was cloned with."""
        r = self._rng
        if r is None:
            r = self._rng = rng_from_state(self._rng_state, "rng_state")
            self._rng_state = None
        return r

    def _rng_state_copy(self) -> dict[str, Any]:
        """The generator's state now (a new dict)."""
        if self._rng is None:
            return copy.deepcopy(self._rng_state)
        return self._rng.bit_generator.state

    def _reseeded_clone(self, rng: np.random.Generator):
        """A clone with a fresh generator seeded from one draw of ``rng`` (the game's own would reveal
        later deals) and an empty private log: the start of a determinized sample."""
        g = self.clone()
        g._rng = np.random.default_rng(int(rng.integers(2**63)))
        g._rng_state = None
        g.initial_rng_state = g._rng.bit_generator.state
        g.events = []
        return g

    # --- plays --------------------------------------------------------------------------------------
    def is_legal(self, play: Any) -> bool:
        """Whether ``play`` is one of ``legal_plays()`` (checked directly, without listing them)."""
        return isinstance(play, self.play_type) and not self.game_over and self._why_illegal(play) is None

    def _check_play(self, play: Any) -> None:
        """The checks of ``apply``: ``play`` must be legal now.

        Raises:
            TypeError: ``play`` is not a ``play_type``.
            GameOverError: the game has ended.
            IllegalPlayError: the game's ``illegal_play_error``, naming the rule the play breaks.
        """
        if not isinstance(play, self.play_type):
            raise TypeError(f"apply() takes a {self.play_type.__name__}, got {type(play).__name__}: {play!r}")
        if self.game_over:
            raise GameOverError(f"the game is over; cannot apply {play!r}")
        why = self._why_illegal(play)
        if why is not None:
            raise self.illegal_play_error(play, why)

    def _why_illegal(self, play: Any) -> str | None:
        raise NotImplementedError

    # --- scores -------------------------------------------------------------------------------------
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._hands]

    @property
    def round_scores(self) -> list[list[int]]:
        """Completed rounds' scores, one list per round (a fresh copy)."""
        return [list(r) for r in self._round_scores]

    @property
    def totals(self) -> list[int]:
        """Sum of each seat's round scores so far."""
        return [sum(r[i] for r in self._round_scores) for i in range(self.n_players)]

    def winners(self) -> list[int]:
        """Seats with the highest total, sorted (several: a shared win, as the game's rules end it).

        Raises:
            GameOverError: the game is not over yet.
        """
        if not self.game_over:
            raise GameOverError("the game is not over yet; winners are known after the last round")
        totals = self.totals
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def placements(self) -> list[float]:
        """Finishing place of each seat by total (1 = first); tied seats share the mean of their places."""
        return placements(self.totals)

    # --- copies -------------------------------------------------------------------------------------
    def _new_clone(self):
        """A shallow copy of this game (every attribute shared: the game then copies its own mutable
        state) with its own event logs (logged events never change) and this generator's state, from which
        it builds its generator on first use (a search rarely deals again)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._rng = None
        new._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state
        new.events = list(self.events)
        if self.has_public_history:
            new._public = list(self._public)
        return new

    def _snapshot(self):
        """A frozen copy of this position to replay from (an empty private log; the public history kept)."""
        snap = self.clone()
        snap.events = []
        snap._origin = None
        return snap

    # --- serialisation ------------------------------------------------------------------------------
    @classmethod
    def saved_fields(cls) -> tuple[str, ...]:
        """Every field of a saved game: the envelope, then ``public_history`` if kept, then ``state_fields``."""
        public = ("public_history",) if cls.has_public_history else ()
        return ENVELOPE_FIELDS + public + cls.state_fields

    def _saved(self, origin: dict[str, Any] | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The saved-game dict of this position with ``origin`` and ``events`` (nothing shared)."""
        d: dict[str, Any] = {"format": GAME_FORMAT_VERSION, "game": self.game_name,
                             "config": self.config.to_dict(), "rng_state": self._rng_state_copy(),
                             "initial_rng_state": copy.deepcopy(self._initial_rng_state),
                             "origin": origin, "events": events}
        if self.has_public_history:
            d["public_history"] = self.public_history
        d.update(self._state_dict())
        return d

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable full state (mid-round included), generator states, origin and event logs.

        ``origin`` is ``None`` for a game dealt from ``initial_rng_state``, else the saved position it was
        built from (``from_position`` or a hand-made ``from_dict``). Nothing in the dict is shared with the
        game; ``from_dict(g.to_dict()).to_dict() == g.to_dict()``.
        """
        return self._saved(self._origin_dict(), copy.deepcopy(self.events))

    def _origin_dict(self) -> dict[str, Any] | None:
        """The saved position this game's log replays from (``None``: the round-1 deal)."""
        if self._origin is None:
            return None
        return self._origin._saved(None, [])

    def log(self) -> dict[str, Any]:
        """The replayable game log: config, initial generator state, origin position and every event."""
        return {"format": GAME_FORMAT_VERSION, "game": self.game_name, "config": self.config.to_dict(),
                "initial_rng_state": copy.deepcopy(self._initial_rng_state), "origin": self._origin_dict(),
                "events": copy.deepcopy(self.events)}

    @classmethod
    def _check_saved_envelope(cls, d: Any) -> None:
        """Check a saved game's type, ``format``, ``game`` and field names.

        Raises:
            TypeError: ``d`` is not a dict. ValueError: another format or game, missing or unknown fields.
        """
        if not isinstance(d, dict):
            raise TypeError(f"a saved {cls.game_title} game is a dict, got {type(d).__name__}")
        if isinstance(d.get("format"), bool) or not isinstance(d.get("format"), int) \
                or d.get("format") != GAME_FORMAT_VERSION or d.get("game") != cls.game_name:
            raise ValueError(f"format={d.get('format')!r}, game={d.get('game')!r} is not supported; expected "
                             f"format={GAME_FORMAT_VERSION}, game={cls.game_name!r}")
        allowed = cls.saved_fields()
        missing = [k for k in allowed if k not in d]
        if missing:
            raise ValueError(f"saved game lacks fields {missing}")
        unknown = sorted(set(d) - set(allowed), key=str)
        if unknown:
            raise ValueError(f"saved game has unknown fields {unknown}; allowed: {list(allowed)}")

    def _load_phase(self, d: dict[str, Any], phases: tuple[str, ...]) -> None:
        """Set ``game_over`` and ``phase`` of a saved game; ``phases[-1]`` is the phase of a finished game.

        Raises:
            TypeError: ``game_over`` is not a bool or ``phase`` not a string.
            ValueError: ``phase`` is not one of ``phases``, or it and ``game_over`` disagree.
        """
        self.game_over = check_bool("game_over", d["game_over"])
        phase = d["phase"]
        if not isinstance(phase, str):
            raise TypeError(f"phase={phase!r} must be one of {phases}")
        if phase not in phases:
            raise ValueError(f"phase={phase!r} is not one of {phases}")
        if (phase == phases[-1]) != self.game_over:
            raise ValueError(f"phase={phase!r} and game_over={self.game_over!r} disagree")
        self.phase = phase

    def _load_generators(self, d: dict[str, Any]) -> None:
        """Restore ``rng_state`` and ``initial_rng_state`` of a saved game (seeding.rng_from_state's
        TypeError / ValueError, naming the field)."""
        self._rng = rng_from_state(d["rng_state"], "rng_state")
        self._rng_state = None
        rng_from_state(d["initial_rng_state"], "initial_rng_state")
        self.initial_rng_state = copy.deepcopy(d["initial_rng_state"])

    def _load_event_logs(self, d: dict[str, Any], event_depth: int) -> None:
        """Restore ``events`` (and ``public_history``) of a saved game, as copies.

        Raises:
            TypeError: not a list of dicts with an ``'event'`` string, or not JSON data.
            ValueError: nested more than :data:`~seers_env.jsonio.MAX_EVENT_DEPTH` levels (``event_depth``:
                how deep the game's own events nest, for the message).
        """
        names = ("events", "public_history") if self.has_public_history else ("events",)
        label = "/".join(names)
        logs = [d[name] for name in names]
        for name, v in zip(names, logs):
            if not isinstance(v, list) or not all(isinstance(e, dict) and isinstance(e.get("event"), str)
                                                  for e in v):
                raise TypeError(f"{name} must be a list of dicts with an 'event' string")
        if too_deep(logs, MAX_EVENT_DEPTH + 1):
            raise ValueError(f"{label} nest more than {MAX_EVENT_DEPTH} levels deep (the engine's events nest "
                             f"{event_depth})")
        try:
            json.dumps(logs)
            self.events = copy.deepcopy(logs[0])
            if self.has_public_history:
                self._public = copy.deepcopy(logs[1])
        except (TypeError, ValueError) as e:
            raise TypeError(f"{label} must be JSON data: {e}") from None
        except RecursionError:
            raise ValueError(f"{label} nest too deeply: the engine's events are a few levels deep") from None

    def _load_origin(self, origin: Any) -> None:
        """Set the position the log replays from: a saved ``origin``; none when the events begin with the
        round-1 deal; else this position itself (a hand-made one).

        Raises:
            TypeError: ``origin`` is not None or a dict. ValueError: it has an origin of its own, or what
                ``from_dict`` raises for it.
        """
        self._legal = None
        if origin is not None:
            if not isinstance(origin, dict):
                raise TypeError(f"origin must be None or a saved game dict, got {type(origin).__name__}")
            if origin.get("origin") is not None:
                raise ValueError("origin must not have an origin of its own (its 'origin' must be None)")
            self._origin = type(self).from_dict(origin)
            return
        self._origin = None
        if not (self.events and self.events[0].get("event") == "deal" and self.events[0].get("round") == 0):
            self._origin = self._snapshot()

    # --- replay -------------------------------------------------------------------------------------
    @classmethod
    def _check_log(cls, log: Any, upto: int | None) -> list[dict[str, Any]]:
        """Check a log's type, fields, format and game, ``upto`` and the event list; returns the events.

        Raises:
            TypeError: ``log`` is not a dict, the events not a list of dicts, ``upto`` not an int.
            ValueError: a missing field, another format or game, a negative ``upto``.
        """
        if not isinstance(log, dict):
            raise TypeError(f"a {cls.game_title} log is a dict, got {type(log).__name__}")
        for key in ("config", "initial_rng_state", "origin", "events"):
            if key not in log:
                raise ValueError(f"log lacks field {key!r}")
        if log.get("format") != GAME_FORMAT_VERSION or log.get("game") != cls.game_name:
            raise ValueError(f"log format={log.get('format')!r}, game={log.get('game')!r} is not supported")
        if upto is not None:
            check_int("upto", upto, 0)
        events = log["events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise TypeError("log events must be a list of dicts")
        return events

    @classmethod
    def _replay_origin(cls, log: dict[str, Any]):
        """The game a log's plays start from: its origin restored, or dealt again from its initial state."""
        if log["origin"] is not None:
            return cls.from_dict(log["origin"])
        game = cls.__new__(cls)
        game._start(cls.config_type.from_dict(log["config"]),
                    rng_from_state(log["initial_rng_state"], "initial_rng_state"))
        return game

    def _replay_plays(self, events: list[dict[str, Any]], upto: int | None) -> None:
        """Apply the logged plays (the first ``upto`` when given).

        Raises:
            TypeError / ValueError: a malformed play or one after the end of the game (naming its index).
            IllegalPlayError: a play that is illegal in the rebuilt state.
        """
        plays = [e for e in events if e.get("event") == "play"]
        for i, e in enumerate(plays[:upto]):
            try:
                play = self.play_type.from_list(e.get("play"))
            except (TypeError, ValueError) as err:
                raise type(err)(f"log events: play {i}: {err}") from None
            if self.game_over:
                raise ValueError(f"log events: play {i} ({e.get('play')!r}) comes after the end of the game; "
                                 f"a log holds {i} plays here")
            self.apply(play)

    def _check_replayed(self, events: list[dict[str, Any]], deal_key: str, scores: bool = True) -> None:
        """Compare the replayed deals (their ``deal_key`` field) and, with ``scores``, the round scores with
        the logged ones.

        Raises:
            ValueError: they differ (the log is not from this engine, or not from its plays).
        """
        logged = [e.get(deal_key) for e in events if e.get("event") == "deal"]
        dealt = [e[deal_key] for e in self.events if e["event"] == "deal"]
        if dealt != logged[:len(dealt)]:
            raise ValueError("logged deals differ from the re-dealt ones: the log does not match this engine")
        if not scores:
            return
        logged = [e.get("scores") for e in events if e.get("event") == "round_end"]
        scored = [e["scores"] for e in self.events if e["event"] == "round_end"]
        if scored != logged[:len(scored)]:
            raise ValueError(f"logged round_end scores {logged[:len(scored)]} differ from the replayed ones "
                             f"{scored}: the log does not match its plays")


__all__ = [
    "ENVELOPE_FIELDS",
    "GAME_FORMAT_VERSION",
    "ConfigDict",
    "DealtGame",
    "GameOverError",
    "check_bool",
    "check_int",
    "check_list",
    "placements",
]
