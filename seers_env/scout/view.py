"""What one SCOUT seat may know (rules section 10): :class:`ScoutSeatView` and its determinizer.

A view exposes the seat's own hand, the public information of the game and, for every other seat, the
hand slots known from scouts (section 10 [ruling] ``public_scout_flip_and_position``: card and
orientation at a position; with the flag off only *which* cards were scouted into that hand). It never
exposes another seat's hidden cards, the 2-player set-aside cards or the game's generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dealt_view import DealtSeatView, game_attribute
from .cards import SETUP, face_pair
from .game import PHASE_ROTATE, ScoutGame


class ScoutSeatView(DealtSeatView):
    """Read-only view of ``game`` for ``seat`` (:class:`~seers_env.dealt_view.DealtSeatView`); attributes
    are read from the game on access, so a view stays current while the game goes on.

    Raises:
        TypeError: ``game`` is not a :class:`~seers_env.scout.game.ScoutGame` or ``seat`` not an int.
        ValueError: ``seat`` outside ``0..n_players-1``.
    """

    __slots__ = ()

    game_name = "scout"
    game_type = ScoutGame

    # --- own information ------------------------------------------------------------------------
    @property
    def hand(self) -> list[tuple[int, int]]:
        """This seat's hand, left to right, as ``(card id, top number)`` pairs (a copy)."""
        return [face_pair(f) for f in self._game._hands[self.seat]]

    def hand_faces(self) -> list[int]:
        return list(self._game._hands[self.seat])

    @property
    def earlier_seen(self) -> list[int]:
        """2 players, round 2: the round-1 cards this seat was dealt or saw shown (out of play now)."""
        return list(self._game._earlier_seen[self.seat])

    # --- public information ---------------------------------------------------------------------
    start_player = game_attribute("start_player")
    turns = game_attribute("turns")

    @property
    def removed_cards(self) -> list[int]:
        """Cards removed for the player count (section 2), public."""
        return list(SETUP[self.n_players].removed)

    @property
    def set_aside_size(self) -> int:
        """2 players, round 1: how many cards are set aside (their faces are hidden)."""
        return len(self._game._set_aside)

    active = game_attribute("active")
    active_owner = game_attribute("active_owner")
    last_shower = game_attribute("last_shower")
    piles = game_attribute("piles")

    @property
    def pile_sizes(self) -> list[int]:
        return self._game.pile_sizes()

    chips = game_attribute("chips")
    scout_show_used = game_attribute("scout_show_used")

    @property
    def rotated(self) -> list[bool | None]:
        """Keep/rotate decisions this round; other seats' stay ``None`` until every seat has chosen
        (section 2 [ruling]: simultaneous choices)."""
        g = self._game
        if g.phase == PHASE_ROTATE:
            return [g._rotated[s] if s == self.seat else None for s in range(g.n_players)]
        return g.rotated

    round_end_reasons = game_attribute("round_end_reasons")
    round_exempt = game_attribute("round_exempt")
    truncated = game_attribute("truncated")
    earlier_shown = game_attribute("earlier_shown")
    public_history = game_attribute("public_history")

    def known_slots(self, seat: int) -> list[tuple[int, int] | None]:
        """``seat``'s hand as this seat knows it, left to right: ``(card, top)`` where known, ``None``
        where hidden. Own hand: every slot. Other seats: the slots scouted this round when scout flips and
        positions are public (section 10 [ruling]), else every slot ``None``."""
        g = self._game
        hand = g._hands[seat]
        if seat == self.seat:
            return [face_pair(f) for f in hand]
        if not g.config.public_scout_flip_and_position:
            return [None] * len(hand)
        return [face_pair(f) if s else None for f, s in zip(hand, g._scouted[seat])]

    def known_cards(self, seat: int) -> list[int]:
        """Card ids publicly known to be in ``seat``'s hand (scouted this round, not shown since), sorted;
        own seat: every card."""
        g = self._game
        if seat == self.seat:
            return sorted(f >> 1 for f in g._hands[seat])
        return sorted(f >> 1 for f, s in zip(g._hands[seat], g._scouted[seat]) if s)

    def seen_cards(self) -> list[int]:
        """Every card id this seat knows the place of (own hand, table, piles, cards known in other hands,
        and in 2 players the earlier round's cards it saw), sorted."""
        g = self._game
        seen = {f >> 1 for f in g._hands[self.seat]} | {f >> 1 for f in g._active}
        for p in g._piles:
            seen.update(p)
        for s in range(g.n_players):
            if s != self.seat:
                seen.update(self.known_cards(s))
        seen.update(g._earlier_seen[self.seat])
        seen.update(g._earlier_shown)
        return sorted(seen)

    def unseen_cards(self) -> list[int]:
        """Card ids that may fill a hidden slot (or the 2-player set-aside), sorted: 3-5 players, the
        round's cards not seen; 2 players, every card in play not seen."""
        g = self._game
        universe = SETUP[2].in_play if g.n_players == 2 else g._round_cards
        seen = set(self.seen_cards())
        return [c for c in universe if c not in seen]

    def to_dict(self) -> dict[str, Any]:
        """Everything this view exposes, as JSON data (two views are equal exactly when a seat could not
        tell the games apart)."""
        n = self.n_players
        return {
            "seat": self.seat, "config": self.config.to_dict(), "round": self.round, "phase": self.phase,
            "current": self.current, "start_player": self.start_player, "turns": self.turns,
            "game_over": self.game_over, "hand": [list(p) for p in self.hand], "hand_sizes": self.hand_sizes,
            "active": [list(p) for p in self.active], "active_owner": self.active_owner, "piles": self.piles,
            "chips": self.chips, "scout_show_used": self.scout_show_used, "rotated": self.rotated,
            "round_scores": self.round_scores, "round_end_reasons": self.round_end_reasons,
            "round_exempt": self.round_exempt, "set_aside_size": self.set_aside_size,
            "known_slots": [[None if x is None else list(x) for x in self.known_slots(s)] for s in range(n)],
            "known_cards": [self.known_cards(s) for s in range(n)],
            "earlier_seen": self.earlier_seen, "earlier_shown": self.earlier_shown,
            "unseen_cards": self.unseen_cards(), "public_history": self.public_history,
            "legal_plays": [p.to_list() for p in self.legal_plays()],
        }


class ScoutDeterminizer:
    """Samples the cards ``seat`` cannot see, consistently with its knowledge (for ISMCTS).

    Kept as they are: this seat's hand, the Active Set, the piles, chips, every count, the public history
    and every other hand's known slots (scout flips and positions public) or known cards (placed in random
    slots of that hand with random orientations when they are not public). Every hidden slot, and in 2
    players the set-aside cards, get distinct cards drawn uniformly from :meth:`ScoutSeatView.unseen_cards`
    with independent uniform orientations (play choices are not used as evidence). 2 players, round 2:
    the unseen cards not drawn are the round-1 cards out of play.

    The sample shares no list with the real game, gets a fresh generator seeded from ``rng`` (the real one
    would reveal later deals), an empty private event log (its log replays from the sampled position), the
    same public history, and during the rotation phase "kept" for other seats' undisclosed choices.

    Raises:
        RuntimeError: the unseen cards cannot fill the hidden slots (an engine bug).
    """

    def __init__(self, game: ScoutGame, seat: int):
        view = ScoutSeatView(game, seat)
        self._game, self.seat = game, seat
        n = game.n_players
        self.public_slots = game.config.public_scout_flip_and_position
        self.others = [s for s in range(n) if s != seat]
        self.pool = view.unseen_cards()
        self.hidden_slots: dict[int, list[int]] = {}
        self.known: dict[int, list[int]] = {}  # flag off: faces known to be somewhere in the hand
        need = len(game._set_aside)
        for s in self.others:
            flags = game._scouted[s]
            if self.public_slots:
                self.hidden_slots[s] = [i for i, f in enumerate(flags) if not f]
            else:
                self.known[s] = [f for f, sc in zip(game._hands[s], flags) if sc]
                self.hidden_slots[s] = list(range(len(flags) - len(self.known[s])))
            need += len(self.hidden_slots[s])
        exact = n != 2
        if need > len(self.pool) or (exact and need != len(self.pool)):
            raise RuntimeError(f"seat {seat}: {need} hidden cards but {len(self.pool)} unseen cards")
        self.n_aside = len(game._set_aside)

    def sample(self, rng: np.random.Generator) -> ScoutGame:
        """One sampled full state (a new :class:`~seers_env.scout.game.ScoutGame`)."""
        game = self._game
        g = game._reseeded_clone(rng)
        pool = self.pool
        perm = rng.permutation(len(pool)).tolist()
        orient = rng.integers(0, 2, size=len(pool)).tolist()
        faces = [2 * pool[i] + o for i, o in zip(perm, orient)]
        at = 0
        for s in self.others:
            slots = self.hidden_slots[s]
            if self.public_slots:
                hand = g._hands[s]
                for i in slots:
                    hand[i] = faces[at]
                    at += 1
            else:
                size = len(g._hands[s])
                known = self.known[s]
                where = sorted(rng.permutation(size)[:len(known)].tolist())
                flips = rng.integers(0, 2, size=len(known)).tolist()
                hand, flags = [], []
                k = 0
                for i in range(size):
                    if k < len(where) and where[k] == i:
                        hand.append(known[k] & ~1 | flips[k])
                        flags.append(True)
                        k += 1
                    else:
                        hand.append(faces[at])
                        flags.append(False)
                        at += 1
                g._hands[s] = hand
                g._scouted[s] = flags
        g._set_aside = faces[at:at + self.n_aside]
        at += self.n_aside
        if g.n_players == 2:
            g._round_cards = sorted([f >> 1 for h in g._hands for f in h] + [f >> 1 for f in g._active]
                                    + [c for p in g._piles for c in p])
            if game._earlier_seen[self.seat]:  # round 2: the others' round-1 knowledge, consistently
                out = set(SETUP[2].in_play) - set(g._round_cards) - {f >> 1 for f in g._set_aside}
                mine_unshown = set(game._earlier_seen[self.seat]) - set(game._earlier_shown)
                for s in self.others:
                    g._earlier_seen[s] = sorted(out - mine_unshown)
        if g.phase == PHASE_ROTATE:
            for s in self.others:
                if g._rotated[s] is not None:
                    g._rotated[s] = False
        g._legal = None if g.current != self.seat else g._legal
        g._origin = g._snapshot()
        return g


ScoutSeatView.determinizer_type = ScoutDeterminizer
