"""The protocol every game of this package implements, and that the shared layers use.

The tournament, ISMCTS, the random and greedy agents, the self-play learner's actors, the model files and
the command line talk to a game only through these members, so that a new game is a small core (rules,
legal plays, encodings, a heuristic) and everything above serves it. The shape follows OpenSpiel's
``State`` (``current_player``, ``legal_actions``, ``apply_action``, ``returns``, ``clone``,
``deserialize_state``) and Pgx's per-game ``init`` / ``step`` / ``legal_action_mask`` / ``rewards``.

Seers Catalog (:class:`seers_env.engine.game.Game`, :class:`seers_env.engine.view.SeatView`) and SCOUT
(:mod:`seers_env.scout`) satisfy it; ``tests/test_protocol.py`` checks each registered game against it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from .integers import is_integer

PlayT = TypeVar("PlayT", bound=Hashable)


@runtime_checkable
class GameState(Protocol):
    """A whole game in progress: rounds, turns, plays and scores.

    Attributes:
        game_name: the registry name of the game (:data:`seers_env.games.GAMES`), e.g. ``"scout"``.
        n_players: number of seats (seats are ``0..n_players - 1``).
        current: the seat to act (meaningless once ``game_over``).
        round: 0-based index of the round being played (or of the last one, once the game is over).
        round_scores: one list of per-seat ``int`` scores per completed round (a fresh list).
        game_over: whether the game has ended.
    """

    game_name: str
    n_players: int
    current: int
    round: int
    round_scores: list[list[int]]
    game_over: bool

    @property
    def totals(self) -> list[int]:
        """Per-seat sums of the completed rounds' scores (a fresh list)."""

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie: a shared win)."""

    def legal_plays(self) -> list[Any]:
        """Every distinct legal play of ``current``, in the game's documented stable order (a fresh
        list; plays are immutable and hashable)."""

    def apply(self, play: Any) -> Any:
        """Play ``play`` for ``current``; raises the game's ``IllegalPlayError`` (a ``ValueError``)
        with the state unchanged when it is not legal, and ``GameOverError`` after the end."""

    def clone(self) -> GameState:
        """An independent copy (no shared mutable state), for search."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict from which ``type(self).from_dict`` restores this exact state."""

    def log(self) -> dict[str, Any]:
        """The config, the initial generator state and the event log; ``type(self).replay`` rebuilds
        the same state from it."""


@runtime_checkable
class Determinizer(Protocol):
    """Samples the cards one seat cannot see, consistently with everything that seat knows."""

    def sample(self, rng: np.random.Generator) -> GameState:
        """A full game consistent with the seat's knowledge, with a fresh generator drawn from ``rng``."""


@runtime_checkable
class SeatView(Protocol):
    """What one seat may know of a game: its own hand and the public information, never another
    seat's hidden cards. The engine-level input of every agent (``Agent.act(view) -> play``).

    Attributes:
        game_name: as :attr:`GameState.game_name`.
        seat: the seat this view belongs to.
        n_players, current, round: as in :class:`GameState`.
    """

    game_name: str
    seat: int

    @property
    def n_players(self) -> int: ...

    @property
    def current(self) -> int: ...

    @property
    def round(self) -> int: ...

    @property
    def totals(self) -> list[int]: ...

    def legal_plays(self) -> list[Any]:
        """This seat's legal plays when it is to act, else ``[]``."""

    def determinizer(self) -> Determinizer:
        """A sampler of full games consistent with this seat's knowledge (ISMCTS)."""


def check_seat(seat: Any, n_players: int) -> int:
    """``seat`` as an ``int`` if it is one of ``0..n_players - 1``.

    Raises:
        TypeError: ``seat`` is not an integer (``bool`` included).
        ValueError: out of range.
    """
    if not is_integer(seat):
        raise TypeError(f"seat must be an integer 0..{n_players - 1}, got {type(seat).__name__}: {seat!r}")
    if not 0 <= seat < n_players:
        raise ValueError(f"seat {seat!r} is not one of 0..{n_players - 1}")
    return int(seat)

