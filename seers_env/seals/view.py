"""What one Seals seat may know (rules section 3 [ruling]): :class:`SealsSeatView` and its determinizer.

Hands are public (every card in a hand was taken face up), so are the row, Marks, the round counter and
which cards are still in the draw pile; the only hidden information is the pile's order (and so every
later turn's reveals) and the game's generator (later rounds' shuffles).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .game import SealsConfig, SealsGame
from .plays import SealsPlay
from ..protocol import check_seat


class SealsSeatView:
    """Read-only view of ``game`` for ``seat``; read from the game on access, so it stays current.

    Raises:
        TypeError: ``game`` is not a :class:`~seers_env.seals.game.SealsGame` or ``seat`` not an int.
        ValueError: ``seat`` outside ``0..n_players-1``.
    """

    __slots__ = ("_game", "seat")

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.SeatView`
    game_name = "seals"

    def __init__(self, game: SealsGame, seat: int):
        if not isinstance(game, SealsGame):
            raise TypeError(f"game must be a SealsGame, got {type(game).__name__}")
        self._game = game
        self.seat = check_seat(seat, game.n_players)

    def legal_plays(self) -> list[SealsPlay]:
        """This seat's legal plays when it is to act, else ``[]`` (a new list)."""
        g = self._game
        return g.legal_plays() if g.current == self.seat and not g.game_over else []

    # --- public information -------------------------------------------------------------------------
    @property
    def config(self) -> SealsConfig:
        return self._game.config

    @property
    def n_players(self) -> int:
        return self._game.n_players

    @property
    def current(self) -> int:
        return self._game.current

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def phase(self) -> str:
        return self._game.phase

    @property
    def start_player(self) -> int:
        return self._game.start_player

    @property
    def turns(self) -> int:
        return self._game.turns

    @property
    def game_over(self) -> bool:
        return self._game.game_over

    @property
    def row(self) -> list[int]:
        return self._game.row

    @property
    def hands(self) -> list[list[int]]:
        """Every hand (public), sorted card ids."""
        return self._game.hands

    @property
    def hand(self) -> list[int]:
        """This seat's hand."""
        return list(self._game._hands[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        return self._game.hand_sizes()

    @property
    def pile_size(self) -> int:
        return self._game.pile_size

    @property
    def pile_cards(self) -> list[int]:
        """The cards still in the draw pile, sorted (public: every other card is in view)."""
        return self._game.pile_cards

    @property
    def counter(self) -> int:
        return self._game.counter

    @property
    def tie_breaks(self) -> int:
        return self._game.tie_breaks

    @property
    def playing(self) -> list[bool]:
        return self._game.playing

    @property
    def round_scores(self) -> list[list[int]]:
        return self._game.round_scores

    @property
    def round_end_reasons(self) -> list[str]:
        return self._game.round_end_reasons

    @property
    def totals(self) -> list[int]:
        return self._game.totals

    def to_dict(self) -> dict[str, Any]:
        """Everything this view exposes, as JSON data (two views are equal exactly when the seat could not
        tell the games apart)."""
        return {"seat": self.seat, "config": self.config.to_dict(), "round": self.round, "phase": self.phase,
                "current": self.current, "start_player": self.start_player, "turns": self.turns,
                "game_over": self.game_over, "row": self.row, "hands": self.hands, "pile_size": self.pile_size,
                "pile_cards": self.pile_cards, "counter": self.counter, "tie_breaks": self.tie_breaks,
                "playing": self.playing, "round_scores": self.round_scores,
                "round_end_reasons": self.round_end_reasons,
                "legal_plays": [p.to_list() for p in self.legal_plays()]}

    # --- determinization ------------------------------------------------------------------------------
    def determinizer(self) -> SealsDeterminizer:
        return SealsDeterminizer(self._game, self.seat)

    def determinize(self, rng: np.random.Generator) -> SealsGame:
        return SealsDeterminizer(self._game, self.seat).sample(rng)


class SealsDeterminizer:
    """Samples what ``seat`` cannot see (for ISMCTS): the draw pile is shuffled uniformly (its cards are
    known, its order is not) and the sample gets a fresh generator seeded from ``rng`` (the real one would
    reveal later rounds' shuffles), an empty private log (its log replays from the sampled position).
    Everything else is copied."""

    def __init__(self, game: SealsGame, seat: int):
        self._game = game
        self.seat = check_seat(seat, game.n_players)

    def sample(self, rng: np.random.Generator) -> SealsGame:
        """One sampled full state (a new :class:`~seers_env.seals.game.SealsGame`)."""
        g = self._game.clone()
        g._rng = np.random.default_rng(int(rng.integers(2**63)))
        g._rng_state = None
        g.initial_rng_state = g._rng.bit_generator.state
        g.events = []
        pile = g._pile
        g._pile = [pile[i] for i in rng.permutation(len(pile)).tolist()]
        g._origin = None
        g._origin = g._snapshot()
        return g
