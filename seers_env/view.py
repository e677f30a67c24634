"""What one seat may know: :class:`SeatView`, the engine-level input of every agent.

A view exposes the seat's own hand and the public information of the game (rules section 3, "Public
information"), never another seat's hidden cards.
"""

from __future__ import annotations

from .game import Game, GameConfig
from .plays import Play


class SeatView:
    """Read-only view of ``game`` for ``seat``.

    Attributes are computed from the game on access, so a view stays current while the game goes on.
    Hidden information (other hands, the 2-player removed cards, the artifacts dealt to others) is not
    reachable through the public attributes.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        if not 0 <= seat < game.n_players:
            raise ValueError(f"seat {seat!r} is not one of 0..{game.n_players - 1}")
        self._game = game
        self.seat = seat

    # own information
    @property
    def hand(self) -> list[int]:
        """This seat's cards (sorted card ids); a copy."""
        return list(self._game.hands[self.seat])

    def legal_plays(self) -> list[Play]:
        """This seat's legal plays when it is to act, else ``[]``."""
        g = self._game
        return g.legal_plays() if g.current == self.seat and not g.game_over else []

    # public information
    @property
    def config(self) -> GameConfig:
        return self._game.config

    @property
    def n_players(self) -> int:
        return self._game.n_players

    @property
    def current(self) -> int:
        return self._game.current

    @property
    def start_seer(self) -> int:
        return self._game.start_seer

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def hand_sizes(self) -> list[int]:
        return self._game.hand_sizes()

    @property
    def top(self) -> tuple[int, int, int] | None:
        """``(meld_type, size, rank)`` of the trick's top meld, or ``None`` when the trick is empty."""
        return self._game.top

    @property
    def top_seat(self) -> int:
        return self._game.top_seat

    @property
    def trick(self) -> list[tuple[int, Play]]:
        return list(self._game.trick)

    @property
    def passed(self) -> list[bool]:
        return list(self._game.passed)

    @property
    def played(self) -> list[list[int]]:
        """Cards each seat has played this round (face-up, so public)."""
        return [list(p) for p in self._game.played]

    @property
    def known(self) -> list[list[int]]:
        """Cards publicly known to be in each hand (taken with the Rod of Reincarnation)."""
        return [list(k) for k in self._game.known]

    @property
    def discards(self) -> list[int]:
        return list(self._game.discards)

    @property
    def suits(self) -> list[int]:
        return list(self._game.suits)

    @property
    def go_first_holder(self) -> int:
        """Seat dealt Go First this round (public: they are the first Start Seer), or -1."""
        return self._game.go_first_holder

    @property
    def round_scores(self) -> list[list[int]]:
        return [list(r) for r in self._game.round_scores]

    @property
    def totals(self) -> list[int]:
        return self._game.totals

    def in_bonus(self, seat: int) -> bool:
        return self._game.in_bonus(seat)
