"""What one seat may know: :class:`SeatView`, the engine-level input of every agent.

A view exposes the seat's own hand and the public information of the game (rules section 3, "Public
information"), never another seat's hidden cards.
"""

from __future__ import annotations

import copy
import functools

from collections.abc import Iterator

import numpy as np

from .artifacts import GO_FIRST, kind_index
from .cards import WILD
from .game import Game, GameConfig
from .plays import Play


class SeatView:
    """Read-only view of ``game`` for ``seat``.

    Attributes are computed from the game on access, so a view stays current while the game goes on.
    Hidden information (other hands, the 2-player removed cards, the artifacts dealt to others) is not
    reachable through the public attributes.
    """

    __slots__ = ("_game", "seat")

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.SeatView`
    game_name = "seers_catalog"

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

    # --- determinization (for search agents) ----------------------------------------------------
    def determinizer(self) -> Determinizer:
        """A :class:`Determinizer` holding this seat's public knowledge, to sample many worlds fast."""
        return Determinizer(self._game, self.seat)

    def determinize(self, rng: np.random.Generator) -> Game:
        """One full game state consistent with what this seat knows (see :class:`Determinizer`).

        Args:
            rng: the generator every random choice is drawn from.

        Returns:
            A new :class:`~seers_env.game.Game`; the real game is not changed.
        """
        return Determinizer(self._game, self.seat).sample(rng)


class Determinizer:
    """Samples the cards a seat cannot see, consistently with public information (for ISMCTS).

    Public information used (rules sections 2, 3 and 6): the round's suits and player count (so the
    suited deck), one wild per player, ``2 * n_players`` artifacts dealt with Go First among them and the
    rest drawn from the configured artifact deck, the Go First holder, every card on the table, in the
    discards and taken publicly with the Rod (``known``), each hand's size, and each seat's public
    play history this round. From the history, the engine's convention that a played card leaves the
    ``known`` part of a hand first gives, for each other seat, exactly how many of its *dealt* wilds
    and artifacts are still unplayed, so each sampled hand has the right number of suited cards, wilds
    and artifacts. Artifact kinds are not public (dealt face-down): an unseen artifact other than Go
    First is drawn without replacement from the artifact deck minus the Go First card and minus every
    artifact this seat has seen; an unseen Go First is given to its (public) holder. The 2-player
    removed cards are drawn from the unseen suited cards. Play choices are not used as evidence (the
    prior is uniform), so a sample can contradict a pass in the Bonus (rules section 4);
    :meth:`replay_round` finds those.

    The sampled game shares no lists with the real one, gets a fresh generator drawn from ``rng``
    (the real generator would reveal the next rounds' deals) and the round's public event log (a deal event
    without the hands, then the round's plays and tricks: what the features' play history reads).

    Raises:
        RuntimeError: the public counts are inconsistent (an engine bug).
    """

    def __init__(self, game: Game, seat: int):
        from .cards import (
            ARTIFACTS_PER_PLAYER, FIRST_ARTIFACT, SETUP_BY_PLAYERS, SUITED_PER_PLAYER, WILDS_PER_PLAYER,
            suited_deck,
        )

        n = game.n_players
        self._game, self.seat = game, seat
        uses_art = game.config.uses_artifacts
        # per seat: dealt wilds / artifacts / cards already played (known-first convention)
        known_ms: list[dict[int, int]] = [{} for _ in range(n)]
        dealt_wilds_played = [0] * n
        dealt_arts_played = [0] * n
        dealt_played = [0] * n
        start = max(i for i, e in enumerate(game.events) if e["event"] == "deal")
        deal = game.events[start]
        # the round's public record: a deal event without the hands, then its plays and tricks
        self.public_events: list[dict] = [{"event": "deal", "round": deal["round"], "suits": list(deal["suits"]),
                                           "start_seer": deal["start_seer"]}]
        self._taken: list[list[int]] = [[] for _ in range(n)]  # cards each seat picked up (Rod), in order
        for e in game.events[start + 1:]:
            kind = e["event"]
            self.public_events.append(copy.deepcopy(e))
            if kind == "play":
                s, p = e["seat"], e["play"]
                cards = list(p["suited"]) + [WILD] * p["wilds"]
                if p["artifact"] >= 0:
                    cards.append(FIRST_ARTIFACT + p["artifact"])
                for c in cards:
                    if known_ms[s].get(c, 0) > 0:
                        known_ms[s][c] -= 1
                    else:
                        dealt_played[s] += 1
                        if c == WILD:
                            dealt_wilds_played[s] += 1
                        elif c >= FIRST_ARTIFACT:
                            dealt_arts_played[s] += 1
            elif kind == "trick" and "taken_by" in e:
                self._taken[e["taken_by"]].extend(e["cards"])
                for c in e["cards"]:
                    d = known_ms[e["taken_by"]]
                    d[c] = d.get(c, 0) + 1
        arts_each = ARTIFACTS_PER_PLAYER if uses_art else 0
        self.others = [s for s in range(n) if s != seat]
        self.quota: dict[int, tuple[int, int, int]] = {}  # seat -> (suited, wilds, artifacts) unseen
        for s in self.others:
            w = WILDS_PER_PLAYER - dealt_wilds_played[s]
            a = arts_each - dealt_arts_played[s]
            u = SUITED_PER_PLAYER + WILDS_PER_PLAYER + arts_each - dealt_played[s]
            if u != len(game.hands[s]) - len(game.known[s]) or min(w, a, u - w - a) < 0:
                raise RuntimeError(f"inconsistent public history for player_{s}")
            self.quota[s] = (u - w - a, w, a)
        # everything this seat has seen: own hand, table, discards, cards known in other hands
        seen = list(game.hands[seat]) + game.trick_cards() + list(game.discards)
        for s in self.others:
            seen += game.known[s]
        _, max_value, removed = SETUP_BY_PLAYERS[n]
        unseen_suited = set(suited_deck(game.suits, max_value)) - {c for c in seen if c < WILD}
        self.unseen_suited = sorted(unseen_suited)
        self.n_hidden = removed
        seen_arts = sorted(c - FIRST_ARTIFACT for c in seen if c >= FIRST_ARTIFACT)
        deck = sorted(kind_index(k) for k in game.config.artifact_deck)
        self.go_first_to = -1
        if GO_FIRST in deck:
            deck.remove(GO_FIRST)
            if GO_FIRST in seen_arts:
                seen_arts.remove(GO_FIRST)
            else:
                self.go_first_to = game.go_first_holder
        for k in seen_arts:
            if k in deck:
                deck.remove(k)
        self.art_pool = deck
        need_suited = sum(q[0] for q in self.quota.values()) + removed
        need_arts = sum(q[2] for q in self.quota.values()) - (1 if self.go_first_to >= 0 else 0)
        if need_suited != len(self.unseen_suited) or need_arts > len(deck) or need_arts < 0:
            raise RuntimeError("inconsistent unseen card counts")
        self.need_arts = need_arts

    def sample(self, rng: np.random.Generator) -> Game:
        """One sampled full state (a new :class:`~seers_env.game.Game`) with this seat's hand unchanged."""
        from .cards import artifact_card

        game = self._game
        g = game.clone()
        g.rng = np.random.default_rng(int(rng.integers(2**63)))
        g.events = list(self.public_events)  # shared read-only dicts, as Game.clone shares them
        suited = [self.unseen_suited[i] for i in rng.permutation(len(self.unseen_suited)).tolist()]
        picks = rng.choice(len(self.art_pool), size=self.need_arts, replace=False).tolist() \
            if self.need_arts else []
        arts = [self.art_pool[i] for i in picks]
        g.hidden = sorted(suited[:self.n_hidden])
        pos, apos = self.n_hidden, 0
        dealt = [artifact_card(k) for k in arts]
        for s in self.others:
            n_suited, n_wilds, n_arts = self.quota[s]
            hand = list(game.known[s]) + suited[pos:pos + n_suited] + [WILD] * n_wilds
            pos += n_suited
            if s == self.go_first_to:
                hand.append(artifact_card(GO_FIRST))
                n_arts -= 1
            hand += dealt[apos:apos + n_arts]
            apos += n_arts
            g.hands[s] = sorted(hand)
        g.dealt_artifacts = sorted(
            [c - artifact_card(0) for s in range(game.n_players) for c in g.hands[s] if c > WILD]
            + [c - artifact_card(0) for c in game.discards + game.trick_cards() if c > WILD]
        )
        g._invalidate()
        return g

    @functools.cached_property
    def round_plays(self) -> tuple[tuple[int, Play], ...]:
        """``(seat, play)`` of the round's plays, in order (built from the public record when first asked:
        a search that does not replay the round never builds them)."""
        return tuple((e["seat"], Play.from_dict(e["play"])) for e in self.public_events if e["event"] == "play")

    def replay_round(self, world: Game) -> Iterator[tuple[int, SeatView, Play]]:
        """Replay this round's public plays in a sampled ``world``: for each play by another seat, that
        seat's view just before it, with the hand it held then in ``world``.

        The round's start is rebuilt from ``world``: each hand is its current hand plus the cards the seat
        has played this round minus those it picked up with the Rod (rules section 6), the table empty,
        the round's first Start Seer to act; then the logged plays are applied in order. Used to weigh a
        sample by how likely the others' plays were in it (inference for determinized search: Buro, Long,
        Furtak and Sturtevant, "Improving state evaluation, inference, and search in trick-based card
        games", IJCAI 2009).

        Args:
            world: a :meth:`sample` of this determinizer (not changed).

        Yields:
            ``(seat, view, play)``: ``view`` is a :class:`SeatView` of a game that the next step changes,
            so read it before asking for the next item.

        Raises:
            IllegalPlayError: a logged play is illegal in ``world``: the sample contradicts the round's
                plays (a seat in the Bonus passed while holding a meld in it, rules section 4), or
                ``world`` is not one of this determinizer's samples.
        """
        g = self.round_start(world)
        for seat, play in self.round_plays:
            if seat != self.seat:
                yield seat, SeatView(g, seat), play
            g.apply(play)

    def round_start(self, world: Game) -> Game:
        """A new game: ``world`` (a :meth:`sample`) rewound to its round's deal, as :meth:`replay_round`
        rebuilds it (so with the real game it gives the dealt hands)."""
        n = world.n_players
        g = world.clone()
        for s in range(n):
            hand = list(world.hands[s]) + list(world.played[s])
            for c in self._taken[s]:
                hand.remove(c)
            g.hands[s] = sorted(hand)
        g.played = [[] for _ in range(n)]
        g.known = [[] for _ in range(n)]
        g.discards, g.trick, g.top, g.top_seat = [], [], None, -1
        g.passed = [False] * n
        g.lead_passes = 0
        g.start_seer = g.current = self.public_events[0]["start_seer"]
        g.events = self.public_events[:1]
        g._invalidate()
        return g
