"""What one Haggis seat may know (rules section 10): :class:`HaggisSeatView` and its determinizer.

A view exposes the seat's own hand and the public information: every seat's face cards still held (they
lie face up), hand sizes, the trick, passes, captures, bets, going-out and bet points, scores and the
public history. It never exposes another seat's number cards, the Haggis or the game's generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dealt_view import DealtSeatView, game_attribute
from .cards import SETUP, is_wild
from .game import HaggisGame
from .moves import Combo
from .plays import HaggisPlay


class HaggisSeatView(DealtSeatView):
    """Read-only view of ``game`` for ``seat`` (:class:`~seers_env.dealt_view.DealtSeatView`); read from
    the game on access (stays current).

    Raises:
        TypeError: ``game`` is not a :class:`~seers_env.haggis.game.HaggisGame` or ``seat`` not an int.
        ValueError: ``seat`` outside ``0..n_players-1``.
    """

    __slots__ = ()

    #: registry name; implements :class:`seers_env.protocol.SeatView`
    game_name = "haggis"
    game_type = HaggisGame

    @property
    def hand(self) -> list[int]:
        """This seat's cards, sorted ids (a copy)."""
        return self._game.hand(self.seat)

    def legal_plays_with_combos(self) -> list[tuple[HaggisPlay, Combo | None]]:
        g = self._game
        return g.legal_plays_with_combos() if g.current == self.seat and not g.game_over else []

    round_leader = game_attribute("round_leader")

    def faces_held(self, seat: int) -> list[int]:
        """``seat``'s face cards still held (public)."""
        return self._game.faces_held(seat)

    @property
    def haggis_size(self) -> int:
        return len(self._game._haggis)

    trick = game_attribute("trick")
    top = game_attribute("top", "The trick's last combination (``None`` when the seat to act leads).")
    passes = game_attribute("passes")
    captured = game_attribute("captured")

    def captured_points(self) -> list[int]:
        return self._game.captured_points()

    bets = game_attribute("bets")
    out = game_attribute("out")
    going_out = game_attribute("going_out")
    bet_points = game_attribute("bet_points")
    public_history = game_attribute("public_history")

    def seen_cards(self) -> list[int]:
        """Card ids whose place this seat knows: own hand, every face card, the trick, captures."""
        g = self._game
        seen = set(g._hands[self.seat])
        for s in range(g.n_players):
            seen.update(c for c in g._hands[s] if is_wild(c))
        seen.update(c for _, p, _ in g._trick for c in p.cards)
        for cs in g._captured:
            seen.update(cs)
        return sorted(seen)

    def unseen_cards(self) -> list[int]:
        """Number cards that may be in another hand or the Haggis, sorted."""
        seen = set(self.seen_cards())
        return [c for c in SETUP[self.n_players].number_cards if c not in seen]

    def to_dict(self) -> dict[str, Any]:
        """Everything this view exposes, as JSON data (equal views: the seat cannot tell the games apart)."""
        n = self.n_players
        top = self.top
        return {
            "seat": self.seat, "config": self.config.to_dict(), "round": self.round, "phase": self.phase,
            "current": self.current, "game_over": self.game_over, "round_leader": self.round_leader,
            "hand": self.hand, "hand_sizes": self.hand_sizes, "faces_held": [self.faces_held(s) for s in range(n)],
            "haggis_size": self.haggis_size, "trick": [[s, p.to_list()] for s, p in self.trick],
            "top": None if top is None else list(top), "passes": self.passes, "captured": self.captured,
            "bets": self.bets, "out": self.out, "going_out": self.going_out, "bet_points": self.bet_points,
            "round_scores": self.round_scores, "unseen_cards": self.unseen_cards(),
            "public_history": self.public_history, "legal_plays": [p.to_list() for p in self.legal_plays()],
        }


class HaggisDeterminizer:
    """Samples the cards ``seat`` cannot see (ISMCTS): the other seats' number cards and the Haggis get
    the unseen number cards, uniformly at random, with every count kept (play choices are not used as
    evidence). The sample has a fresh generator drawn from ``rng`` and an empty private event log (its
    log replays from the sampled position).

    Raises:
        RuntimeError: the unseen cards do not match the hidden slots (an engine bug).
    """

    def __init__(self, game: HaggisGame, seat: int):
        view = HaggisSeatView(game, seat)
        self._game, self.seat = game, seat
        self.others = [s for s in range(game.n_players) if s != seat]
        self.pool = view.unseen_cards()
        self.hidden = {s: sum(1 for c in game._hands[s] if not is_wild(c)) for s in self.others}
        need = sum(self.hidden.values()) + len(game._haggis)
        if need != len(self.pool):
            raise RuntimeError(f"seat {seat}: {need} hidden cards but {len(self.pool)} unseen cards")

    def sample(self, rng: np.random.Generator) -> HaggisGame:
        """One sampled full state (a new :class:`~seers_env.haggis.game.HaggisGame`)."""
        g = self._game._reseeded_clone(rng)
        pool = self.pool
        perm = rng.permutation(len(pool)).tolist()
        at = 0
        for s in self.others:
            k = self.hidden[s]
            nums = [pool[i] for i in perm[at:at + k]]
            at += k
            g._hands[s] = sorted(nums + [c for c in g._hands[s] if is_wild(c)])
        g._haggis = sorted(pool[i] for i in perm[at:])
        g._legal = None
        g._origin = g._snapshot()
        return g


HaggisSeatView.determinizer_type = HaggisDeterminizer
