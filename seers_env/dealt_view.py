"""What the seat views of the dealt card games share: :class:`DealtSeatView` and :func:`game_attribute`.

:class:`~seers_env.scout.view.ScoutSeatView`, :class:`~seers_env.haggis.view.HaggisSeatView` and
:class:`~seers_env.seals.view.SealsSeatView` read one game for one seat (the protocol
:class:`seers_env.protocol.SeatView`). The checks of game and seat, the public attributes every game has
and the determinizer entry points are here; each view keeps what its seat may know of its own game.
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import numpy as np

from .integers import is_integer


def game_attribute(name: str, doc: str | None = None) -> property:
    """A read-only view property that returns the game's attribute ``name`` on access (so the view stays
    current); only for public information. ``doc``: the property's docstring."""
    return property(operator.attrgetter(f"_game.{name}"), doc=doc)


class DealtSeatView:
    """Read-only view of ``game`` for ``seat``; attributes are read from the game on access, so a view
    stays current while the game goes on.

    A subclass sets ``game_name``, ``game_type`` and ``determinizer_type`` (a class taking
    ``(game, seat)`` with a ``sample(rng)`` method).

    Raises:
        TypeError: ``game`` is not a ``game_type`` or ``seat`` not an int.
        ValueError: ``seat`` outside ``0..n_players-1``.
    """

    __slots__ = ("_game", "seat")

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.SeatView`
    game_name: ClassVar[str]
    #: the game class this view reads
    game_type: ClassVar[type]
    #: the determinizer class of :meth:`determinizer`
    determinizer_type: ClassVar[type]

    def __init__(self, game: Any, seat: int):
        if not isinstance(game, self.game_type):
            raise TypeError(f"game must be a {self.game_type.__name__}, got {type(game).__name__}")
        self.seat = self._check_seat(seat, game.n_players)
        self._game = game

    @staticmethod
    def _check_seat(seat: Any, n_players: int) -> int:
        """``seat`` as an int (TypeError: not an int; ValueError: outside ``0..n_players-1``)."""
        if not is_integer(seat):
            raise TypeError(f"seat={seat!r} must be an int seat index")
        if not 0 <= seat < n_players:
            raise ValueError(f"seat {seat!r} is not one of 0..{n_players - 1}")
        return int(seat)

    def legal_plays(self) -> list:
        """This seat's legal plays when it is to act, else ``[]`` (a new list)."""
        g = self._game
        return g.legal_plays() if g.current == self.seat and not g.game_over else []

    config = game_attribute("config", "The game's config.")
    n_players = game_attribute("n_players")
    current = game_attribute("current", "The seat to act.")
    round = game_attribute("round", "The round, 0-based.")
    phase = game_attribute("phase")
    game_over = game_attribute("game_over")
    round_scores = game_attribute("round_scores", "Completed rounds' scores, one list per round (a copy).")
    totals = game_attribute("totals", "Sum of each seat's round scores so far.")

    @property
    def hand_sizes(self) -> list[int]:
        """Cards in each hand (a property, as in the Seers Catalog ``SeatView``)."""
        return self._game.hand_sizes()

    # --- determinization (for search agents) ----------------------------------------------------
    def determinizer(self):
        """A ``determinizer_type`` of this seat's knowledge now, to sample many worlds fast."""
        return self.determinizer_type(self._game, self.seat)

    def determinize(self, rng: np.random.Generator):
        """One full game consistent with what this seat knows (``determinizer_type``'s ``sample``)."""
        return self.determinizer_type(self._game, self.seat).sample(rng)


__all__ = ["DealtSeatView", "game_attribute"]
