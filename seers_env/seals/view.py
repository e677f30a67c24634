"""What one Seals seat may know (rules section 3 [ruling]): :class:`SealsSeatView` and its determinizer.

Hands are public (every card in a hand was taken face up), so are the row, Marks, the round counter and
which cards are still in the draw pile; the only hidden information is the pile's order (and so every
later turn's reveals) and the game's generator (later rounds' shuffles).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dealt_view import DealtSeatView, game_attribute
from ..protocol import check_seat
from .game import SealsGame


class SealsSeatView(DealtSeatView):
    """Read-only view of ``game`` for ``seat`` (:class:`~seers_env.dealt_view.DealtSeatView`); read from
    the game on access, so it stays current.

    Raises:
        TypeError: ``game`` is not a :class:`~seers_env.seals.game.SealsGame` or ``seat`` not an int.
        ValueError: ``seat`` outside ``0..n_players-1``.
    """

    __slots__ = ()

    game_name = "seals"
    game_type = SealsGame
    _check_seat = staticmethod(check_seat)

    # --- public information -------------------------------------------------------------------------
    start_player = game_attribute("start_player")
    turns = game_attribute("turns")
    row = game_attribute("row")
    hands = game_attribute("hands", "Every hand (public), sorted card ids.")

    @property
    def hand(self) -> list[int]:
        """This seat's hand."""
        return list(self._game._hands[self.seat])

    pile_size = game_attribute("pile_size")
    pile_cards = game_attribute("pile_cards", "The cards still in the draw pile, sorted (public: every other "
                                              "card is in view).")
    counter = game_attribute("counter")
    tie_breaks = game_attribute("tie_breaks")
    playing = game_attribute("playing")
    round_end_reasons = game_attribute("round_end_reasons")

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
        g = self._game._reseeded_clone(rng)
        pile = g._pile
        g._pile = [pile[i] for i in rng.permutation(len(pile)).tolist()]
        g._origin = None
        g._origin = g._snapshot()
        return g


SealsSeatView.determinizer_type = SealsDeterminizer
