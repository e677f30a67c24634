"""The Haggis game state and its transitions (rules ``shared/rules/haggis.md``, sections 2 to 9).

:class:`HaggisGame` mirrors the other engines of this package (:class:`seers_env.scout.game.ScoutGame`)::

    game = HaggisGame(HaggisConfig(n_players=3), seed=7)
    while not game.game_over:
        game.apply(game.legal_plays()[0])
    game.totals, game.winners()

**Flow of a round.** Each player gets 14 number cards and their own J, Q, K (face up); the rest is the
Haggis. The round's leader leads the first trick. At the start of a seat's first turn of the round it
bets (``phase == "bet"``: the plays are the three bets 0, 15, 30; section 7 [ruling]); then it plays.
A leader plays any combination; the others, clockwise, beat the last combination or pass (section 4.6);
the trick ends once every other player still holding cards has passed in succession (section 5); its
winner leads the next. Players who have gone out are skipped (section 6). The round ends when only one
player holds cards; the play that ends it scores it and deals the next round (or ends the game,
``phase == "over"``).

**Legal plays** (:meth:`HaggisGame.legal_plays`): a fresh list in the documented order of
:mod:`seers_env.haggis.moves` (bets: 0, 15, 30).

**Cards** are ids (:mod:`seers_env.haggis.cards`); hands are sorted lists of ids.

**Randomness**: one ``numpy.random.default_rng(seed)``, used only for dealing: each round draws
``rng.permutation(k)`` of the ``k`` number cards in play (sorted by id); seat ``i`` gets entries
``14 i .. 14 i + 13`` of the permuted list and the rest is the Haggis.

**Building a position** for tests: :meth:`HaggisGame.from_position` or :meth:`HaggisGame.from_dict` of a
hand-written dict; such a game's log replays from that position.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dealt_game import GAME_FORMAT_VERSION, ConfigDict, DealtGame, check_int, check_list
from ..dealt_game import IllegalPlayError as AnyIllegalPlayError
from ..dealt_game import GameOverError, placements  # noqa: F401 (names of this module; GameSpec.placement)
from ..jsonio import MAX_EVENT_DEPTH, too_deep
from . import rulings
from .cards import FIRST_FACE, POINTS_OF_CARD, SETUP, all_card_ids, card_points, cards_text, face_owner, faces_of, is_wild
from .moves import BOMB, Combo, beats, combo_of, turn_plays_with_combos
from .plays import BET, BET_PLAYS, PASS, HaggisPlay

PHASE_BET, PHASE_PLAY, PHASE_OVER = "bet", "play", "over"


class IllegalPlayError(AnyIllegalPlayError):
    """A play that the rules do not allow now; the game state is left unchanged. The message shows the
    play as its ``repr``.

    Attributes:
        play: the rejected play. rule: the rule it breaks (rules section and a short text).
    """

    play_type = HaggisPlay
    shown = staticmethod(repr)


def _check_choice(name: str, value: Any, choices: tuple) -> Any:
    if not isinstance(value, type(choices[0])) or isinstance(value, bool) or value not in choices:
        raise (ValueError if isinstance(value, type(choices[0])) and not isinstance(value, bool) else TypeError)(
            f"{name}={value!r} is not allowed; use one of {', '.join(map(repr, choices))}")
    return value


@dataclass(frozen=True)
class HaggisConfig(ConfigDict):
    """Parameters of a Haggis game, fixed for its whole length.

    Attributes:
        n_players: 2 or 3 (section 2).
        target: 350 (default) or 250 (section 9 [ruling]).
        n_rounds: ``None`` (default): play to the target; an int >= 1: a fixed-length game of exactly that
            many rounds (project ruling :data:`~seers_env.haggis.rulings.DEFAULT_N_ROUNDS`).
        tie_leader: ``"bga"`` (default) or ``"first_tied_clockwise"`` (section 2 [ruling]).
        card_points: ``"standard"`` (default) or ``"one_each"`` (section 1 variant).

    Raises:
        TypeError: a field of the wrong type (bools are not ints). ValueError: a value outside the
            allowed ones (the message names the field and the values).
    """

    n_players: int = 3
    target: int = rulings.DEFAULT_TARGET
    n_rounds: int | None = rulings.DEFAULT_N_ROUNDS
    tie_leader: str = rulings.DEFAULT_TIE_LEADER
    card_points: str = rulings.DEFAULT_CARD_POINTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_players", check_int("n_players", self.n_players, 2, 3))
        _check_choice("target", self.target, rulings.TARGET_CHOICES)
        object.__setattr__(self, "target", int(self.target))
        if self.n_rounds is not None:
            object.__setattr__(self, "n_rounds", check_int("n_rounds", self.n_rounds, 1, rulings.MAX_ROUNDS))
        _check_choice("tie_leader", self.tie_leader, rulings.TIE_LEADER_CHOICES)
        _check_choice("card_points", self.card_points, rulings.CARD_POINTS_CHOICES)

    @property
    def setup(self):
        """The section 2 row (:class:`~seers_env.haggis.cards.Setup`)."""
        return SETUP[self.n_players]


@dataclass(frozen=True)
class HaggisResult:
    """What :meth:`HaggisGame.apply` did.

    Attributes:
        trick_over: the play closed a trick. went_out: the seat that went out with this play (-1: none).
        round_scores: the scores of the round this play ended (one per seat), or ``None``.
        game_over: whether the game has ended.
    """

    trick_over: bool = False
    went_out: int = -1
    round_scores: tuple[int, ...] | None = None
    game_over: bool = False

    @property
    def round_over(self) -> bool:
        return self.round_scores is not None


def resolved_bet_points(bets: Sequence[int | None], first: int) -> list[int]:
    """Section 7 [ruling] (:data:`~seers_env.haggis.rulings.FAILED_BET_TO_WINNER_AND_NON_BETTORS`): the bet
    points of each seat once ``first`` went out first (``None`` bets count as 0)."""
    bets = [b or 0 for b in bets]
    points = [0] * len(bets)
    for s, b in enumerate(bets):
        if not b:
            continue
        if s == first:
            points[first] += b
            continue
        for t in range(len(bets)):  # a failed bet
            if t == first or (t != s and not bets[t]):
                points[t] += b
    return points


def game_end(config: HaggisConfig, round_scores: Sequence[Sequence[int]]) -> tuple[bool, bool]:
    """Whether the game ends after the completed ``round_scores`` (section 9 [ruling]; project rulings
    ``n_rounds`` and :data:`~seers_env.haggis.rulings.MAX_ROUNDS`), and whether by the round cap."""
    done = len(round_scores)
    if config.n_rounds is not None:
        return done >= config.n_rounds, False
    t = [sum(r[i] for r in round_scores) for i in range(config.n_players)]
    best = max(t)
    if t.count(best) == 1 and best >= config.target:
        return True, False
    if done >= rulings.MAX_ROUNDS:
        return True, True
    return False, False


class HaggisGame(DealtGame):
    """A whole game of Haggis: rounds, tricks and scores (module docstring); the generator, seed, logs and
    saved-game envelope are :class:`~seers_env.dealt_game.DealtGame`'s.

    Args:
        config: a :class:`HaggisConfig` (default: 3 players, target 350).
        seed: seed of the game's ``numpy.random.default_rng`` (non-negative int or ``None``).

    Raises:
        TypeError: ``config`` is not a :class:`HaggisConfig`, or ``seed`` is not an int/None.
        ValueError: a negative seed.

    Public state (read-only; lists are fresh copies): ``config``, ``n_players``, ``round`` (0-based),
    ``phase``, ``current``, ``round_leader``, ``hands``, ``haggis``, ``bets`` (``None``: not decided yet),
    ``trick`` (the current trick's combinations as ``(seat, play)``), ``passes`` (consecutive passes since
    the last combination), ``captured`` (card ids per seat this round), ``out`` (seats gone out, in order),
    ``going_out`` and ``bet_points`` (per seat this round), ``round_scores``, ``totals``, ``game_over``.
    """

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.GameState`
    game_name = "haggis"
    game_title = "Haggis"
    config_type = HaggisConfig
    play_type = HaggisPlay
    illegal_play_error = IllegalPlayError
    state_fields = ("round", "round_scores", "round_leader", "current", "hands", "haggis", "bets", "trick",
                    "passes", "captured", "out", "going_out", "bet_points", "last_trick_winner",
                    "game_over", "capped")

    def _start(self, config: HaggisConfig, rng: np.random.Generator) -> None:
        """Begin a game dealt from ``rng``; ``_origin`` is a saved-position dict here (or ``None``)."""
        self._begin(config, rng)
        self.round = 0
        self._round_scores: list[list[int]] = []
        self.game_over = False
        self.capped = False
        self._legal: list | None = None
        self._deal_round(rulings.FIRST_ROUND_LEADER)

    # --- read-only state --------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"bet"`` (the seat to act bets first), ``"play"`` or ``"over"``."""
        if self.game_over:
            return PHASE_OVER
        return PHASE_BET if self._bets[self.current] is None else PHASE_PLAY

    @property
    def hands(self) -> list[list[int]]:
        """Per seat, the held card ids, sorted (a fresh copy)."""
        return [list(h) for h in self._hands]

    def hand(self, seat: int) -> list[int]:
        return list(self._hands[seat])

    def faces_held(self, seat: int) -> list[int]:
        """``seat``'s face cards still held (public, section 10)."""
        return [c for c in self._hands[seat] if is_wild(c)]

    @property
    def haggis(self) -> list[int]:
        return list(self._haggis)

    @property
    def bets(self) -> list[int | None]:
        return list(self._bets)

    @property
    def trick(self) -> list[tuple[int, HaggisPlay]]:
        return [(s, p) for s, p, _ in self._trick]

    @property
    def top(self) -> Combo | None:
        """The trick's last combination (``None`` when the seat to act leads)."""
        return self._trick[-1][2] if self._trick else None

    @property
    def passes(self) -> int:
        return self._passes

    @property
    def captured(self) -> list[list[int]]:
        return [list(c) for c in self._captured]

    def captured_points(self) -> list[int]:
        """Card points each seat has captured this round (section 1)."""
        points = POINTS_OF_CARD[self.config.card_points]
        return [sum([points[c] for c in cs]) for cs in self._captured]

    @property
    def out(self) -> list[int]:
        return list(self._out)

    @property
    def going_out(self) -> list[int]:
        return list(self._going_out)

    @property
    def bet_points(self) -> list[int]:
        return list(self._bet_points)

    @property
    def last_trick_winner(self) -> int:
        return self._last_trick_winner

    @property
    def public_history(self) -> list[dict[str, Any]]:
        """Every public event so far (deep copy): ``bet``, ``play``, ``pass``, ``trick``, ``out``,
        ``round_end`` dicts."""
        return copy.deepcopy(self._public)

    # --- dealing ------------------------------------------------------------------------------------
    def _deal_round(self, leader: int) -> None:
        n = self.n_players
        setup = SETUP[n]
        cards = list(setup.number_cards)
        perm = self.rng.permutation(len(cards)).tolist()
        dealt = [cards[p] for p in perm]
        d = setup.dealt
        self._hands = [sorted(dealt[i * d:(i + 1) * d] + list(faces_of(i))) for i in range(n)]
        self._haggis = sorted(dealt[n * d:])
        self._open_round(leader)
        self.events.append({"event": "deal", "round": self.round, "hands": self.hands, "haggis": self.haggis,
                            "leader": leader})
        self._public.append({"event": "deal", "round": self.round, "leader": leader})

    def _open_round(self, leader: int) -> None:
        n = self.n_players
        self.round_leader = leader
        self.current = leader
        self._bets: list[int | None] = [None] * n
        self._trick: list[tuple[int, HaggisPlay, Combo]] = []
        self._passes = 0
        self._captured: list[list[int]] = [[] for _ in range(n)]
        self._out: list[int] = []
        self._going_out = [0] * n
        self._bet_points = [0] * n
        self._last_trick_winner = -1
        self._legal = None

    # --- legal plays ----------------------------------------------------------------------------------
    def _legal_list(self) -> list:
        if self._legal is None:
            if self.game_over:
                self._legal = []
            elif self._bets[self.current] is None:
                self._legal = [(p, None) for p in BET_PLAYS]
            else:
                self._legal = turn_plays_with_combos(self._hands[self.current], self.top)
        return self._legal

    def legal_plays(self) -> list[HaggisPlay]:
        """Every legal play of the seat to act, in the documented order; a new list (``[]`` when over)."""
        return [p for p, _ in self._legal_list()]

    def legal_plays_with_combos(self) -> list[tuple[HaggisPlay, Combo | None]]:
        """:meth:`legal_plays` with each play's :class:`~seers_env.haggis.moves.Combo` (``None`` for
        pass and bets)."""
        return list(self._legal_list())

    def n_legal_plays(self) -> int:
        return len(self._legal_list())

    def _why_illegal(self, play: HaggisPlay) -> str | None:
        why = play.malformed()
        if why is not None:
            return f"malformed play: {why} (see seers_env.haggis.plays.HaggisPlay)"
        seat = self.current
        if self._bets[seat] is None:
            if play.kind == BET:
                return None
            return (f"player_{seat} first bets 0, 15 or 30 (section 7 [ruling]: at the start of the first "
                    f"own turn of the round)")
        if play.kind == BET:
            return f"player_{seat} has bet this round already (section 7: once, before playing any card)"
        if play.kind == PASS:
            return None if self._trick else "the leader must play a combination (section 3: no pass)"
        hand = self._hands[seat]
        missing = [c for c in play.cards if c not in hand]
        if missing:
            return f"cards {cards_text(missing)} ({missing}) are not in player_{seat}'s hand"
        combo = combo_of(play)
        if isinstance(combo, str):
            return combo
        if not beats(combo, self.top):
            return f"{combo.describe()} does not beat {self.top.describe()} (section 4.6)"
        return None

    # --- transitions ------------------------------------------------------------------------------------
    def apply(self, play: HaggisPlay) -> HaggisResult:
        """Make ``play`` for the seat to act.

        Raises:
            TypeError: ``play`` is not a :class:`~seers_env.haggis.plays.HaggisPlay`.
            GameOverError: the game has ended.
            IllegalPlayError: the play breaks a rule (named in the message); nothing changes.
        """
        self._check_play(play)
        play = HaggisPlay(int(play.kind), tuple(int(c) for c in play.cards), int(play.width), int(play.amount))
        return self._make(play, None)

    def apply_legal(self, play: HaggisPlay, combo: Combo | None) -> HaggisResult:
        """:meth:`apply` of a play taken from :meth:`legal_plays_with_combos` (or the same plays of
        :func:`~seers_env.haggis.moves.combo_plays`) with its ``combo``, without checking it again: the
        environment's compiled path, whose decisions only offer legal plays. The same result and the same
        game afterwards as :meth:`apply`; anything else is undefined (use :meth:`apply`)."""
        return self._make(play, combo)

    def _make(self, play: HaggisPlay, combo: Combo | None) -> HaggisResult:
        """The transition of a legal, normalised ``play`` (``combo``: its combo, or ``None`` to compute it)."""
        seat = self.current
        self.events.append({"event": "play", "round": self.round, "seat": seat, "play": play.to_list()})
        self._legal = None
        if play.kind == BET:
            self._bets[seat] = play.amount
            self._public.append({"event": "bet", "round": self.round, "seat": seat, "amount": play.amount})
            return HaggisResult()
        if play.kind == PASS:
            self._public.append({"event": "pass", "round": self.round, "seat": seat})
            self._passes += 1
            if self._passes >= self._needed_passes():
                return self._end_trick()
            self.current = self._next_holder(seat)
            return HaggisResult()
        if combo is None:
            combo = combo_of(play)
        hand = self._hands[seat]
        for c in play.cards:
            hand.remove(c)
        self._trick.append((seat, play, combo))
        self._passes = 0
        self._public.append({"event": "play", "round": self.round, "seat": seat, "play": play.to_list(),
                             "value": combo.value})
        went = -1
        if not hand:
            went = seat
            self._go_out(seat)
        holders = [s for s in range(self.n_players) if self._hands[s]]
        if len(holders) <= 1:  # section 6: the round ends at once
            self._close_trick()
            return self._end_round(went)
        self.current = self._next_holder(seat)
        return HaggisResult(went_out=went)

    def _needed_passes(self) -> int:
        """Section 5: every other player still holding cards passes in succession."""
        last = self._trick[-1][0]
        return sum(1 for s in range(self.n_players) if s != last and self._hands[s])

    def _next_holder(self, seat: int) -> int:
        n = self.n_players
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self._hands[s]:
                return s
        raise RuntimeError("no player holds cards")  # the round would have ended

    def _go_out(self, seat: int) -> None:
        """Section 6 [ruling]: 5 x the cards of the opponent holding the most; the first out resolves
        the bets (section 7 [ruling])."""
        most = max(len(h) for h in self._hands)
        self._going_out[seat] += rulings.GOING_OUT_POINTS_PER_CARD * most
        self._out.append(seat)
        self._public.append({"event": "out", "round": self.round, "seat": seat,
                             "points": rulings.GOING_OUT_POINTS_PER_CARD * most})
        if len(self._out) == 1:
            self._resolve_bets(seat)

    def _resolve_bets(self, first: int) -> None:
        for s, x in enumerate(resolved_bet_points(self._bets, first)):
            self._bet_points[s] += x

    def _close_trick(self) -> None:
        """Section 5: the last combination's player wins; a bombed trick goes to the player of the
        combination before the bomb (a lone bomb: the seat before the winner, [ruling])."""
        winner, last_play, last = self._trick[-1]
        cards = [c for _, p, _ in self._trick for c in p.cards]
        if last.kind == BOMB:
            receiver = self._trick[-2][0] if len(self._trick) >= 2 else (winner - 1) % self.n_players
        else:
            receiver = winner
        self._captured[receiver].extend(cards)
        self._public.append({"event": "trick", "round": self.round, "winner": winner, "receiver": receiver,
                             "cards": sorted(cards),
                             "points": sum(card_points(c, self.config.card_points) for c in cards)})
        self._last_trick_winner = winner
        self._trick = []
        self._passes = 0
        return winner

    def _end_trick(self) -> HaggisResult:
        winner = self._close_trick()
        self.current = winner if self._hands[winner] else self._next_holder(winner)
        return HaggisResult(trick_over=True)

    def _end_round(self, went: int) -> HaggisResult:
        """Sections 6 and 8: the last hand and the Haggis go to the first player out; score the round,
        then deal the next one or end the game (section 9)."""
        n = self.n_players
        first = self._out[0]
        last = [s for s in range(n) if self._hands[s]]
        handed = list(self._haggis) + [c for s in last for c in self._hands[s]]
        self._public.append({"event": "round_end", "round": self.round, "first_out": first,
                             "last_hands": {str(s): list(self._hands[s]) for s in last},
                             "haggis": list(self._haggis)})
        self._captured[first].extend(handed)
        for s in last:
            self._hands[s] = []
        self._haggis = []
        pts = self.captured_points()
        scores = [self._going_out[s] + pts[s] + self._bet_points[s] for s in range(n)]
        self._round_scores.append(scores)
        self.events.append({"event": "round_end", "round": self.round, "scores": list(scores),
                            "going_out": list(self._going_out), "bet_points": list(self._bet_points),
                            "captured_points": pts})
        self._public[-1]["scores"] = list(scores)
        self._legal = None
        if self._game_ends():
            self.game_over = True
            self.events.append({"event": "game_end", "totals": self.totals, "winners": self.winners()})
            return HaggisResult(True, went, tuple(scores), True)
        self.round += 1
        self._deal_round(self._next_leader())
        return HaggisResult(True, went, tuple(scores), False)

    def _game_ends(self) -> bool:
        """Section 9 [ruling]; project rulings ``n_rounds`` and the round cap."""
        ends, capped = game_end(self.config, self._round_scores)
        self.capped = self.capped or capped
        return ends

    def _next_leader(self) -> int:
        """Section 2 [ruling]: the strictly lowest total leads; a tie per ``tie_leader``."""
        t = self.totals
        low = min(t)
        tied = [s for s in range(self.n_players) if t[s] == low]
        if len(tied) == 1:
            return tied[0]
        left = (self._last_trick_winner + 1) % self.n_players
        if self.config.tie_leader == "bga":
            return left
        return next((left + k) % self.n_players for k in range(self.n_players)
                    if (left + k) % self.n_players in tied)

    # --- copies and serialisation ---------------------------------------------------------------------
    def clone(self) -> HaggisGame:
        """An independent copy (for search); its generator continues from the same state."""
        g = self._new_clone()
        g._round_scores = [list(r) for r in self._round_scores]
        g._hands = [list(h) for h in self._hands]
        g._haggis = list(self._haggis)
        g._bets = list(self._bets)
        g._trick = list(self._trick)
        g._captured = [list(c) for c in self._captured]
        g._out = list(self._out)
        g._going_out = list(self._going_out)
        g._bet_points = list(self._bet_points)
        g._legal = None if self._legal is None else list(self._legal)
        return g

    def _state_dict(self) -> dict[str, Any]:
        return {
            "round": self.round, "round_scores": self.round_scores, "round_leader": self.round_leader,
            "current": self.current, "hands": self.hands, "haggis": self.haggis, "bets": self.bets,
            "trick": [[s, p.to_list()] for s, p, _ in self._trick], "passes": self._passes,
            "captured": self.captured, "out": self.out, "going_out": self.going_out,
            "bet_points": self.bet_points, "last_trick_winner": self._last_trick_winner,
            "game_over": self.game_over, "capped": self.capped,
        }

    def _origin_dict(self) -> dict[str, Any] | None:
        """The saved position this game's log replays from, kept as the dict it was given (``None``: the
        round-1 deal)."""
        return copy.deepcopy(self._origin)

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, d: Any) -> HaggisGame:
        """Restore a game from :meth:`to_dict` (or a hand-written dict of the same fields).

        Every field is checked (types, ranges, each card in play exactly once, faces only with their
        owner or on the table, the trick's combinations legal in order, passes below the trick's end,
        consistent scores); nothing is built from a bad dict.

        Raises:
            TypeError: ``d`` or a field has the wrong type. ValueError: a missing, unknown or
                inconsistent field (the message names it).
        """
        if not isinstance(d, dict):
            raise TypeError(f"a saved Haggis game is a dict, got {type(d).__name__}")
        allowed = cls.saved_fields()
        missing = [k for k in allowed if k not in d]
        extra = sorted(set(d) - set(allowed), key=str)
        if missing or extra:
            raise ValueError(f"saved game fields: missing {missing}, unknown {extra}")
        if isinstance(d["format"], bool) or not isinstance(d["format"], int) or d["format"] != GAME_FORMAT_VERSION \
                or d["game"] != "haggis":
            raise ValueError(f"format={d['format']!r}, game={d['game']!r} is not supported "
                             f"(expected {GAME_FORMAT_VERSION}, 'haggis')")
        g = cls.__new__(cls)
        g.config = HaggisConfig.from_dict(d["config"])
        g._load_generators(d)
        if d["origin"] is not None and not isinstance(d["origin"], dict):
            raise TypeError("origin must be None or a saved-game dict")
        for name in ("origin", "events", "public_history"):
            if too_deep(d[name], MAX_EVENT_DEPTH):
                raise ValueError(f"{name} nests more than {MAX_EVENT_DEPTH} levels deep (the engine's events "
                                 f"nest 4)")
            try:
                json.dumps(d[name], allow_nan=False)
            except (TypeError, ValueError) as e:
                raise TypeError(f"{name} must be JSON data: {e}") from None
        if d["origin"] is not None:  # the position the log replays from: a saved game of its own
            if d["origin"].get("origin") is not None or d["origin"].get("events") != []:
                raise ValueError("origin must be a saved position with origin=None and events=[]")
            try:
                cls.from_dict(d["origin"])
            except (TypeError, ValueError) as err:
                raise type(err)(f"origin: {err}") from None
        g._origin = copy.deepcopy(d["origin"])
        for name in ("events", "public_history"):
            if not isinstance(d[name], list) or not all(isinstance(e, dict) for e in d[name]):
                raise TypeError(f"{name} must be a list of dicts")
        g.events = copy.deepcopy(d["events"])
        g._public = copy.deepcopy(d["public_history"])
        g._legal = None
        _load_state(g, d)
        if g._origin is None and not any(e.get("event") == "deal" for e in g.events):
            g._origin = g._snapshot()  # a hand-made position: its log replays from here
        return g

    @classmethod
    def from_json(cls, text: str) -> HaggisGame:
        try:
            d = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"not a saved Haggis game (JSON): {e}") from None
        return cls.from_dict(d)

    def _snapshot(self) -> dict[str, Any]:
        """This position as a saved-game dict to replay from (no origin, an empty private log)."""
        d = self.to_dict()
        d["origin"] = None
        d["events"] = []
        return d

    @classmethod
    def from_position(cls, config: HaggisConfig | None = None, *, hands: Sequence[Sequence[int]],
                      haggis: Sequence[int] | None = None, current: int = 0,
                      bets: Sequence[int | None] | None = None, trick: Sequence | None = None,
                      passes: int = 0, captured: Sequence[Sequence[int]] | None = None,
                      out: Sequence[int] = (), going_out: Sequence[int] | None = None,
                      bet_points: Sequence[int] | None = None, round_leader: int | None = None,
                      round: int = 0, round_scores: Sequence[Sequence[int]] | None = None,
                      last_trick_winner: int = -1, seed: int | None = 0) -> HaggisGame:
        """A game in a hand-made position (for tests and analysis).

        Args:
            hands: per seat the held card ids (any order). haggis: default every number card in play
                not placed elsewhere. trick: ``(seat, HaggisPlay)`` combinations of the open trick.
            bets: default all 0 (decided). captured: card ids per seat (default none). out, going_out,
                bet_points: the round's going-out record (default none). round_scores: default zeros.
            seed: seeds the generator that deals later rounds.

        Raises what :meth:`from_dict` raises.
        """
        config = config if config is not None else HaggisConfig()
        n = config.n_players
        rng = cls._seeded_rng(seed)
        trick = [[int(s), p.to_list()] for s, p in (trick or [])]
        captured = [sorted(c) for c in captured] if captured is not None else [[] for _ in range(n)]
        if haggis is None:
            used = {c for h in hands for c in h} | {c for _, p in trick for c in p[1]} | \
                   {c for cs in captured for c in cs}
            haggis = [c for c in SETUP[n].number_cards if c not in used]
        d = {"format": GAME_FORMAT_VERSION, "game": "haggis", "config": config.to_dict(),
             "rng_state": rng.bit_generator.state, "initial_rng_state": rng.bit_generator.state,
             "origin": None, "events": [], "public_history": [], "round": round,
             "round_scores": [list(r) for r in round_scores] if round_scores is not None
             else [[0] * n for _ in range(round)],
             "round_leader": current if round_leader is None else round_leader, "current": current,
             "hands": [sorted(h) for h in hands], "haggis": sorted(haggis),
             "bets": list(bets) if bets is not None else [0] * n, "trick": trick, "passes": passes,
             "captured": captured, "out": list(out),
             "going_out": list(going_out) if going_out is not None else [0] * n,
             "bet_points": list(bet_points) if bet_points is not None else [0] * n,
             "last_trick_winner": last_trick_winner, "game_over": False, "capped": False}
        return cls.from_dict(d)

    # --- logs -----------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, log: Any, upto: int | None = None) -> HaggisGame:
        """Rebuild a game from :meth:`~seers_env.dealt_game.DealtGame.log` (the first ``upto`` plays when
        given).

        Raises:
            TypeError / ValueError: a malformed log, or logged deals that differ from the re-dealt ones.
            IllegalPlayError: a logged play is illegal in the rebuilt state.
        """
        events = cls._check_log(log, upto)
        game = cls._replay_origin(log)
        if log["origin"] is not None:
            game._origin = copy.deepcopy(log["origin"])
        game._replay_plays(events, upto)
        game._check_replayed(events, "hands")
        return game


# --- strict loading -----------------------------------------------------------------------------------

def _list(name: str, v: Any, length: int | None = None) -> list:
    """:func:`~seers_env.dealt_game.check_list` of a list only (a saved Haggis game refuses tuples)."""
    return check_list(name, v, length, types=(list,))


def _cards(name: str, v: Any, n: int) -> list[int]:
    ids = set(all_card_ids(n))
    out = [check_int(f"{name}[{i}]", c, 0, FIRST_FACE + 3 * n - 1) for i, c in enumerate(_list(name, v))]
    bad = [c for c in out if c not in ids]
    if bad:
        raise ValueError(f"{name}: cards {bad} are not in play with {n} players")
    return out


def _load_state(g: HaggisGame, d: dict[str, Any]) -> None:
    """Set ``g``'s state from ``d``, checking every field (TypeError / ValueError naming it)."""
    cfg = g.config
    n = cfg.n_players
    if not isinstance(d["game_over"], bool) or not isinstance(d["capped"], bool):
        raise TypeError("game_over and capped must be True or False")
    g.game_over, g.capped = d["game_over"], d["capped"]
    g.round = check_int("round", d["round"], 0, rulings.MAX_ROUNDS - 1)
    done = g.round + (1 if g.game_over else 0)
    rs = _list("round_scores", d["round_scores"], done)
    g._round_scores = [[check_int(f"round_scores[{r}][{i}]", x, 0, 10**6)
                        for i, x in enumerate(_list(f"round_scores[{r}]", row, n))] for r, row in enumerate(rs)]
    g.round_leader = check_int("round_leader", d["round_leader"], 0, n - 1)
    g.current = check_int("current", d["current"], 0, n - 1)
    g._hands = [_cards(f"hands[{s}]", h, n) for s, h in enumerate(_list("hands", d["hands"], n))]
    for s, h in enumerate(g._hands):
        if h != sorted(h):
            raise ValueError(f"hands[{s}] must be sorted card ids")
        alien = [c for c in h if is_wild(c) and face_owner(c) != s]
        if alien:
            raise ValueError(f"hands[{s}] holds face cards {alien} of another seat (each player holds their own)")
    g._haggis = _cards("haggis", d["haggis"], n)
    if g._haggis != sorted(g._haggis) or any(is_wild(c) for c in g._haggis):
        raise ValueError("haggis must be sorted number-card ids")
    bets = _list("bets", d["bets"], n)
    for s, b in enumerate(bets):
        if b is not None and (isinstance(b, bool) or not isinstance(b, int)):
            raise TypeError(f"bets[{s}]={b!r} ({type(b).__name__}) is not allowed; use one of {rulings.BETS} "
                            f"or None (not decided yet)")
        if b is not None and b not in rulings.BETS:
            raise ValueError(f"bets[{s}]={b!r} is not one of {rulings.BETS} or None (not decided yet)")
    g._bets = list(bets)
    g._trick = []
    for i, entry in enumerate(_list("trick", d["trick"])):
        e = _list(f"trick[{i}]", entry, 2)
        s = check_int(f"trick[{i}][0] (seat)", e[0], 0, n - 1)
        try:
            p = HaggisPlay.from_list(e[1])
        except (TypeError, ValueError) as err:
            raise type(err)(f"trick[{i}]: {err}") from None
        combo = combo_of(p) if p.kind not in (PASS, BET) else "a trick holds combinations only"
        if isinstance(combo, str):
            raise ValueError(f"trick[{i}] {p.describe()}: {combo}")
        if not beats(combo, g._trick[-1][2] if g._trick else None):
            raise ValueError(f"trick[{i}] {combo.describe()} does not beat the combination before it")
        bad = [c for c in p.cards if is_wild(c) and face_owner(c) != s]
        if bad:
            raise ValueError(f"trick[{i}]: seat {s} played face cards {bad} of another seat")
        g._trick.append((s, p, combo))
    g._captured = [_cards(f"captured[{s}]", c, n) for s, c in enumerate(_list("captured", d["captured"], n))]
    g._out = [check_int(f"out[{i}]", s, 0, n - 1) for i, s in enumerate(_list("out", d["out"]))]
    if len(set(g._out)) != len(g._out) or any(g._hands[s] for s in g._out):
        raise ValueError("out must list distinct seats that hold no cards")
    g._going_out = [check_int(f"going_out[{s}]", x, 0, 5 * 17)
                    for s, x in enumerate(_list("going_out", d["going_out"], n))]
    g._bet_points = [check_int(f"bet_points[{s}]", x, 0, 30 * n)
                     for s, x in enumerate(_list("bet_points", d["bet_points"], n))]
    g._last_trick_winner = check_int("last_trick_winner", d["last_trick_winner"], -1, n - 1)
    placed = [c for h in g._hands for c in h] + g._haggis + [c for _, p, _ in g._trick for c in p.cards] + \
             [c for cs in g._captured for c in cs]
    every = all_card_ids(n)
    if sorted(placed) != list(every):
        doubled = sorted({c for c in placed if placed.count(c) > 1})
        absent = sorted(set(every) - set(placed))
        raise ValueError(f"every card in play must be in exactly one of hands, haggis, trick and captured "
                         f"(doubled: {doubled}, missing: {absent})")
    for s in range(n):  # section 6 [ruling]: 5 x the cards of the largest opponent hand, seats out only
        x = g._going_out[s]
        if (s in g._out) != (x > 0) or x % rulings.GOING_OUT_POINTS_PER_CARD:
            raise ValueError(f"going_out[{s}]={x}: seats out score a positive multiple of "
                             f"{rulings.GOING_OUT_POINTS_PER_CARD} (section 6), the others 0 (out={g._out})")
    want = resolved_bet_points(g._bets, g._out[0]) if g._out else [0] * n
    if g._bet_points != want:
        raise ValueError(f"bet_points={g._bet_points} disagree with bets={g._bets} and out={g._out}: section 7 "
                         f"[ruling] resolves them when the first player goes out, to {want}")
    for k in range(1, done + (0 if g.game_over else 1)):
        if game_end(cfg, g._round_scores[:k])[0]:
            raise ValueError(f"round_scores: the game has ended after round {k} (section 9: totals "
                             f"{[sum(r[i] for r in g._round_scores[:k]) for i in range(n)]}, target "
                             f"{cfg.target}, n_rounds={cfg.n_rounds}), yet it goes on")
    ends, capped = game_end(cfg, g._round_scores) if g.game_over else (False, False)
    if g.game_over and not ends:
        raise ValueError(f"game_over=True but the game has not ended (section 9): totals {g.totals} after "
                         f"{done} rounds, target {cfg.target}, n_rounds={cfg.n_rounds}; it ends when one "
                         f"player alone reaches the target (or after n_rounds rounds)")
    if g.capped != capped:
        raise ValueError(f"capped={g.capped} but the game {'was' if capped else 'was not'} stopped by the "
                         f"cap of {rulings.MAX_ROUNDS} rounds")
    if g.game_over:
        if any(g._hands) or g._trick or g._haggis:
            raise ValueError("a finished game has no cards in hand or in the haggis and no open trick "
                             "(section 8: the last hand and the haggis go to the first player out)")
        if len(g._out) != n - 1 or g._last_trick_winner < 0:
            raise ValueError(f"out={g._out} and last_trick_winner={g._last_trick_winner}: the last round "
                             f"ended with {n - 1} players out and a trick won (section 6)")
        pts = g.captured_points()
        scores = [g._going_out[s] + pts[s] + g._bet_points[s] for s in range(n)]
        if g._round_scores[-1] != scores:
            raise ValueError(f"round_scores[-1]={g._round_scores[-1]} must be going out + captured points + "
                             f"bet points = {scores} (sections 6 to 8)")
        g._passes = 0
        return
    holders = [s for s in range(n) if g._hands[s]]
    if len(holders) < 2:
        raise ValueError("a round in progress has at least two players holding cards (section 6)")
    if sorted(set(range(n)) - set(holders)) != sorted(g._out):
        raise ValueError(f"out={g._out} must be exactly the seats without cards")
    if not g._hands[g.current]:
        raise ValueError(f"current={g.current} holds no cards (section 6: players out are skipped)")
    for s in range(n):
        if g._bets[s] is None and (s in g._out or any(ts == s for ts, _, _ in g._trick)):
            raise ValueError(f"bets[{s}]=None (not decided) but that seat has played this round")
    g._passes = check_int("passes", d["passes"], 0, n - 1)
    if g._trick:
        if g._passes >= g._needed_passes():
            raise ValueError(f"passes={g._passes} would have ended the trick already (section 5)")
        seat = g._trick[-1][0]
        for _ in range(g._passes + 1):
            seat = g._next_holder(seat)
        if g.current != seat:
            raise ValueError(f"current={g.current}: after trick[-1] by seat {g._trick[-1][0]} and "
                             f"{g._passes} passes, seat {seat} acts (section 3: clockwise, skipping seats out)")
    elif g._passes:
        raise ValueError("passes must be 0 when no trick is open")
