"""The Seers Catalog game state and its transitions (rules sections 2 to 5).

:class:`Game` is the one engine object that the environment, the agents and the tests share::

    game = Game(GameConfig(n_players=4), seed=7)
    while not game.game_over:
        play = game.legal_plays()[0]
        game.apply(play)
    game.totals, game.winners()

All randomness (suits, shuffles, artifacts, a Start Seer without Go First) comes from one
``numpy.random.Generator``: the same seed gives the same game whatever ``PYTHONHASHSEED`` is. Rounds are
dealt automatically: the play that ends a round scores it and deals the next one.
"""

from __future__ import annotations

import copy

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..integers import is_integer
from . import rulings
from .artifacts import ARTIFACT_KINDS, DEFAULT_ARTIFACT_DECK, GIFT, GO_FIRST, HIGHEST_SINGLE, ROD, kind_index
from .cards import (
    ARTIFACTS_PER_PLAYER,
    FIRST_ARTIFACT,
    N_SUITS,
    SETUP_BY_PLAYERS,
    SUITED_PER_PLAYER,
    WILD,
    WILDS_PER_PLAYER,
    artifact_card,
    card_name,
    suited_deck,
)
from .melds import beats, classify
from .moves import PlayList, legal_plays
from .plays import MeldType, Play, PlayKind
from ..seeding import unsafe_state
from .scoring import BONUS_MAX_CARDS, round_score, winners

GAME_FORMAT_VERSION = 1


class IllegalPlayError(ValueError):
    """A play that the rules do not allow now. The game state is left unchanged.

    Attributes:
        play: the rejected play.
        rule: the rule it breaks (rules file section and a short text).
    """

    def __init__(self, play: Any, rule: str):
        self.play = play
        self.rule = rule
        try:  # a malformed Play (unknown card or kind index) cannot describe itself
            text = play.describe() if isinstance(play, Play) else repr(play)
        except (ValueError, IndexError, KeyError, TypeError):
            text = repr(play)
        super().__init__(f"illegal play {text!r}: {rule}")


class GameOverError(RuntimeError):
    """A play was applied to a game that has ended."""


@dataclass(frozen=True)
class GameConfig:
    """Parameters of a game, fixed for its whole length.

    Attributes:
        n_players: 2..5 (rules section 2).
        n_rounds: rounds per game, at least 1 (default 4, section 2 [ruling]).
        artifact_deck: artifact kind keys the artifacts are dealt from; 2 per player are dealt, Go First
            always among them when the deck has it (section 6). ``()`` is the variant without artifacts
            (12 suited cards and 1 wild each). Default: :data:`~seers_env.artifacts.DEFAULT_ARTIFACT_DECK`.

    Raises:
        ValueError: players outside 2..5, rounds < 1, an unknown artifact kind, more than one Go First, or
            a deck with fewer than ``2 * n_players`` artifacts (the message names the valid options).
    """

    n_players: int = 4
    n_rounds: int = rulings.DEFAULT_ROUNDS
    artifact_deck: tuple[str, ...] = field(default=DEFAULT_ARTIFACT_DECK)

    def __post_init__(self) -> None:
        if not is_integer(self.n_players) or self.n_players not in SETUP_BY_PLAYERS:
            raise ValueError(f"n_players={self.n_players!r} is not allowed; choose one of 2, 3, 4, 5")
        if not is_integer(self.n_rounds) or self.n_rounds < 1:
            raise ValueError(f"n_rounds={self.n_rounds!r} is not allowed; use an integer >= 1")
        if self.artifact_deck is None:
            object.__setattr__(self, "artifact_deck", ())
        if isinstance(self.artifact_deck, str):
            raise ValueError(
                f"artifact_deck={self.artifact_deck!r} must be a list of kind keys, not a string"
            )
        try:
            deck = tuple(self.artifact_deck)
        except TypeError:
            raise ValueError(f"artifact_deck={self.artifact_deck!r} must be a list of artifact kind keys "
                             f"(or () / None for no artifacts)") from None
        for key in deck:
            if not isinstance(key, str):
                raise ValueError(f"artifact_deck entry {key!r} is not an artifact kind key; known kinds: "
                                 f"{', '.join(a.key for a in ARTIFACT_KINDS)}")
        object.__setattr__(self, "artifact_deck", deck)
        for key in self.artifact_deck:
            kind_index(key)  # raises ValueError naming the known kinds
        if self.artifact_deck.count("go_first") > 1:  # section 2: one holder of Go First, the Start Seer
            raise ValueError(
                f"artifact_deck has {self.artifact_deck.count('go_first')} go_first cards; allowed: 0 or 1"
            )
        need = ARTIFACTS_PER_PLAYER * self.n_players
        if self.artifact_deck and len(self.artifact_deck) < need:
            raise ValueError(
                f"artifact_deck has {len(self.artifact_deck)} cards but {self.n_players} players need "
                f"{need}; give at least {need} kinds, or () for the variant without artifacts"
            )

    @property
    def uses_artifacts(self) -> bool:
        return bool(self.artifact_deck)

    @property
    def hand_size(self) -> int:
        """Cards per player at the start of a round: 15, or 13 without artifacts."""
        arts = ARTIFACTS_PER_PLAYER if self.uses_artifacts else 0
        return SUITED_PER_PLAYER + WILDS_PER_PLAYER + arts

    def to_dict(self) -> dict[str, Any]:
        return {"n_players": int(self.n_players), "n_rounds": int(self.n_rounds),
                "artifact_deck": list(self.artifact_deck)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        """Inverse of :meth:`to_dict`: ``{"n_players": int, "n_rounds": int, "artifact_deck": [kind keys]}``.

        Nothing is converted: ``4.7`` or ``"4"`` players, a bool or an infinity are refused, not rounded.

        Raises:
            TypeError: ``d`` is not a dict, a count that is not an integer, or a deck that is not a list of
                strings (the message names the field and what is allowed).
            ValueError: a missing field, or a value :class:`GameConfig` does not allow.
        """
        if not isinstance(d, dict):
            raise TypeError(f"a game config must be a dict with n_players, n_rounds and artifact_deck, got "
                            f"{type(d).__name__}: {d!r}")
        missing = [k for k in ("n_players", "n_rounds", "artifact_deck") if k not in d]
        if missing:
            raise ValueError(f"game config {d!r} lacks the fields {missing}")
        for name, allowed in (("n_players", "2, 3, 4 or 5"), ("n_rounds", "an integer >= 1")):
            if not is_integer(d[name]):
                raise TypeError(f"config field {name}={d[name]!r} must be an integer ({allowed}), got "
                                f"{type(d[name]).__name__}")
        deck = d["artifact_deck"]
        if not isinstance(deck, (list, tuple)) or not all(isinstance(k, str) for k in deck):
            raise TypeError(f"config field artifact_deck={deck!r} must be a list of artifact kind keys "
                            f"({', '.join(a.key for a in ARTIFACT_KINDS)}), or [] for none")
        return cls(int(d["n_players"]), int(d["n_rounds"]), tuple(deck))


#: NumPy bit generators whose saved state a game may carry.
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def generator_from_state(state: Any, field: str = "rng_state") -> np.random.Generator:
    """A ``numpy.random.Generator`` restored from a bit generator's ``state`` dict (``bit_generator.state``).

    Raises:
        TypeError / ValueError: ``state`` is not such a dict (the message names ``field``).
    """
    if not isinstance(state, dict) or state.get("bit_generator") not in BIT_GENERATORS:
        raise ValueError(f"{field} must be a numpy bit generator state (a dict with bit_generator one of "
                         f"{list(BIT_GENERATORS)}), got {str(state)[:80]}")
    bit_gen = getattr(np.random, state["bit_generator"])()
    try:
        bit_gen.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as err:
        raise ValueError(f"{field} is not a valid {state['bit_generator']} state ({type(err).__name__}: "
                         f"{err})") from None
    why = unsafe_state(bit_gen)
    if why is not None:
        raise ValueError(f"{field} is not a valid {state['bit_generator']} state: {why}")
    return np.random.Generator(bit_gen)


class _SavedState:
    """Checks of the fields of a saved game (:meth:`Game.from_dict`); each error names the field."""

    def __init__(self, d: dict[str, Any], config: GameConfig):
        self.d, self.n = d, config.n_players

    def integer(self, name: str, lo: int, hi: int) -> int:
        v = self.d[name]
        if not is_integer(v):
            raise TypeError(f"saved game field {name}={v!r} must be an integer in {lo}..{hi}")
        if not lo <= v <= hi:
            raise ValueError(f"saved game field {name}={v!r} is out of range; allowed: {lo}..{hi}")
        return int(v)

    def flag(self, value: Any, name: str) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"saved game field {name}={value!r} must be true or false")
        return bool(value)

    def ints(self, value: Any, name: str, lo: int, hi: int, length: int | None = None) -> list[int]:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"saved game field {name}={str(value)[:80]} must be a list of integers in {lo}..{hi}")
        if length is not None and len(value) != length:
            raise ValueError(f"saved game field {name} has {len(value)} entries; {length} needed")
        for x in value:
            if not is_integer(x):
                raise TypeError(f"saved game field {name} holds {x!r}; allowed: integers in {lo}..{hi}")
            if not lo <= x <= hi:
                raise ValueError(f"saved game field {name} holds {x!r}, out of range; allowed: {lo}..{hi}")
        return [int(x) for x in value]

    def cards(self, value: Any, name: str) -> list[int]:
        return self.ints(value, name, 0, N_CARD_IDS - 1)

    def per_seat(self, name: str) -> list[list[int]]:
        v = self.d[name]
        if not isinstance(v, (list, tuple)) or len(v) != self.n:
            raise ValueError(f"saved game field {name} must hold one card list per seat ({self.n}), got "
                             f"{str(v)[:80]}")
        return [self.cards(h, f"{name}[{seat}]") for seat, h in enumerate(v)]


@dataclass(frozen=True)
class PlayResult:
    """What :meth:`Game.apply` did.

    Attributes:
        trick_winner: seat that won a trick with this play (all others passed), or -1.
        round_scores: the scores of the round this play ended (one per seat), or ``None``.
        game_over: whether the game has ended.
    """

    trick_winner: int = -1
    round_scores: tuple[int, ...] | None = None
    game_over: bool = False

    @property
    def round_over(self) -> bool:
        """Whether this play ended a round (the next round, if any, is already dealt)."""
        return self.round_scores is not None


#: The result of a play that ends no trick and no round (results are immutable, so one object serves).
_NOTHING = PlayResult()

#: Card ids: 60 suited cards, the wild, one id per artifact kind.
N_CARD_IDS = FIRST_ARTIFACT + len(ARTIFACT_KINDS)


def _check_events(events: Any) -> list[dict[str, Any]]:
    """``events`` when it is a list of engine events (dicts with a string ``"event"``)."""
    if not isinstance(events, (list, tuple)):
        raise TypeError(f"events={str(events)[:80]} must be a list of engine events")
    for i, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("event"), str):
            raise TypeError(f"events[{i}]={str(e)[:80]} must be an engine event (a dict with an 'event' name)")
    return list(events)


_STATE_FIELDS = (
    "round", "round_scores", "hands", "hidden", "suits", "dealt_artifacts", "discards", "trick", "top",
    "top_seat", "passed", "start_seer", "current", "lead_passes", "played", "known", "go_first_holder",
    "game_over",
)


class Deal(NamedTuple):
    """One round's deal (rules section 2), as :func:`draw_deal` draws it.

    Attributes:
        suits: sorted suit indices in play. hidden: sorted card ids removed face-down (2 players).
        hands: per seat, the sorted card ids dealt. dealt_artifacts: sorted artifact kind indices dealt.
        go_first_holder: seat dealt Go First, or -1. start_seer: the round's first Start Seer.
    """

    suits: list[int]
    hidden: list[int]
    hands: list[list[int]]
    dealt_artifacts: list[int]
    go_first_holder: int
    start_seer: int


@lru_cache(maxsize=None)
def _deck_array(suits: tuple[int, ...], max_value: int) -> np.ndarray:
    """:func:`~seers_env.engine.cards.suited_deck` as an int64 array (cached; never changed)."""
    deck = np.array(suited_deck(list(suits), max_value), dtype=np.int64)
    deck.flags.writeable = False
    return deck


@lru_cache(maxsize=None)
def _artifact_draw(artifact_deck: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(mandatory, rest)`` kind indices of an artifact deck: Go First when the deck has it, and the
    others in deck order (cached per deck)."""
    art_deck = [kind_index(k) for k in artifact_deck]
    mandatory = [GO_FIRST] if GO_FIRST in art_deck else []
    rest = list(art_deck)
    for k in mandatory:
        rest.remove(k)
    return tuple(mandatory), tuple(rest)


def draw_deal_arrays(rng: np.random.Generator, config: GameConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The draws of one round's deal (section 2) as arrays: the one place that draws a deal, so that the
    compiled kernel (:mod:`seers_env.engine.kernel`) and :class:`Game` (through :func:`draw_deal`) deal
    the same seeded rounds.

    Draws, in order: the suits in play (``rng.choice(5, n_suits, replace=False)``), the shuffle of the
    suited deck (``rng.permutation``), the artifacts dealt besides Go First (``rng.choice`` without
    replacement) and their order (``rng.permutation``), and the Start Seer when nobody holds Go First
    (``rng.integers``).

    Returns:
        ``(suits, shuffled, dealt, go_first_holder, start_seer)``: ``suits`` int64 sorted suit indices in
        play; ``shuffled`` int64 suited card ids in dealing order (the first ``removed`` of
        ``SETUP_BY_PLAYERS`` set aside, then 12 per seat); ``dealt`` int64 artifact kind indices in
        dealing order (2 per seat, empty without an artifact deck); the seat dealt Go First (or -1) and
        the round's first Start Seer. The arrays are new (never cached ones).
    """
    n = config.n_players
    n_suits, max_value, _ = SETUP_BY_PLAYERS[n]
    if rulings.RANDOM_SUITS_EACH_ROUND:
        suits = np.sort(rng.choice(5, size=n_suits, replace=False)).astype(np.int64)
    else:
        suits = np.arange(n_suits, dtype=np.int64)
    deck = _deck_array(tuple(suits.tolist()), max_value)
    shuffled = deck[rng.permutation(deck.shape[0])]
    go_first_holder = -1
    if config.artifact_deck:
        need = ARTIFACTS_PER_PLAYER * n
        mandatory, rest = _artifact_arrays(config.artifact_deck)
        picks = rng.choice(rest.shape[0], size=need - mandatory.shape[0], replace=False)
        dealt = np.concatenate((mandatory, rest[picks]))
        dealt = dealt[rng.permutation(dealt.shape[0])]
        at = np.flatnonzero(dealt == GO_FIRST)
        if at.size:
            go_first_holder = int(at[0]) // ARTIFACTS_PER_PLAYER
    else:
        dealt = np.empty(0, np.int64)
    if go_first_holder >= 0:
        start_seer = go_first_holder
    else:  # project ruling START_SEER_WITHOUT_GO_FIRST
        start_seer = int(rng.integers(n))
    return suits, shuffled, dealt, go_first_holder, start_seer


@lru_cache(maxsize=None)
def _artifact_arrays(artifact_deck: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_artifact_draw` as read-only int64 arrays (cached per deck)."""
    out = tuple(np.array(part, dtype=np.int64) for part in _artifact_draw(artifact_deck))
    for a in out:
        a.flags.writeable = False
    return out


def draw_deal(rng: np.random.Generator, config: GameConfig) -> Deal:
    """Deal a round (section 2) with draws from ``rng`` (:func:`draw_deal_arrays`, which says which draws
    are made and in which order), as a :class:`Deal`."""
    n = config.n_players
    removed = SETUP_BY_PLAYERS[n][2]
    suits, shuffled, dealt, go_first_holder, start_seer = draw_deal_arrays(rng, config)
    cards = shuffled.tolist()
    hidden = sorted(cards[:removed])
    hands = [cards[removed + i * SUITED_PER_PLAYER:removed + (i + 1) * SUITED_PER_PLAYER] for i in range(n)]
    for h in hands:
        h.extend([WILD] * WILDS_PER_PLAYER)
    kinds = dealt.tolist()
    for seat in range(n):
        for k in kinds[seat * ARTIFACTS_PER_PLAYER:(seat + 1) * ARTIFACTS_PER_PLAYER]:
            hands[seat].append(artifact_card(k))
    for h in hands:
        h.sort()
    return Deal(suits.tolist(), hidden, hands, sorted(kinds), go_first_holder, start_seer)


class Game:
    """A whole game of Seers Catalog: rounds, tricks, plays and scores.

    Args:
        config: a :class:`GameConfig` (default: 4 players, 4 rounds, the default artifact deck).
        seed: seed of the game's ``numpy.random.Generator`` (ignored when ``rng`` is given).
        rng: a generator to draw from instead (it is used, not copied).

    Public state (read-only by convention): ``round`` (0-based), ``hands[seat]`` (sorted card ids),
    ``current`` (seat to act), ``start_seer``, ``top`` (``(meld_type, size, rank)`` or ``None``),
    ``top_seat``, ``trick`` (list of ``(seat, Play)`` this trick), ``passed``, ``played[seat]`` and
    ``known[seat]`` (cards publicly known to be in a hand, taken with the Rod), ``round_scores``,
    ``discards``, ``hidden`` (2-player removed cards), ``suits`` (this round's suits), ``game_over``.

    Implements :class:`seers_env.protocol.GameState`.
    """

    #: registry name (:data:`seers_env.games.GAMES`)
    game_name = "seers_catalog"

    def __init__(self, config: GameConfig | None = None, seed: int | None = None, *,
                 rng: np.random.Generator | None = None):
        if config is not None and not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig (e.g. GameConfig(n_players=4)), got "
                            f"{type(config).__name__}: {config!r}")
        if rng is None and seed is not None and (not is_integer(seed) or seed < 0):
            raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        self.config = config if config is not None else GameConfig()
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.initial_rng_state = self.rng.bit_generator.state
        self.events: list[dict[str, Any]] = []
        self.round = 0
        self.round_scores: list[list[int]] = []
        self.game_over = False
        self._legal: list[Play] | None = None
        self._by_identity: dict[tuple, Play] | None = None
        self._deal()

    # --- properties -----------------------------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """The game's ``numpy.random.Generator`` (later deals draw from it); a clone builds its own on
        first use, from the state it was cloned with."""
        r = self._rng
        if r is None:
            state = self._rng_state
            bit_gen = getattr(np.random, state["bit_generator"])()
            bit_gen.state = state
            r = self._rng = np.random.Generator(bit_gen)
            self._rng_state = None
        return r

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value
        self._rng_state = None

    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def rounds_completed(self) -> int:
        """Number of rounds scored so far."""
        return len(self.round_scores)

    @property
    def totals(self) -> list[int]:
        """Sum of each seat's round scores so far."""
        return [sum(r[i] for r in self.round_scores) for i in range(self.n_players)]

    def in_bonus(self, seat: int) -> bool:
        """Whether ``seat`` holds 5 or fewer cards (section 4)."""
        return len(self.hands[seat]) <= BONUS_MAX_CARDS

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self.hands]

    def trick_cards(self) -> list[int]:
        """Every card played to the current trick, sorted."""
        return sorted(c for _, p in self.trick for c in p.cards())

    def winners(self) -> list[int]:
        """Winning seats once the game is over (section 5); raises ``GameOverError`` before that."""
        if not self.game_over:
            raise GameOverError("the game is not over yet; winners are known after the last round")
        return winners(self.totals, self.round_scores[-1])

    # --- setup ----------------------------------------------------------------------------------
    def _deal(self) -> None:
        """Deal a round (section 2), drawing from the game's generator (:func:`draw_deal`)."""
        deal = draw_deal(self.rng, self.config)
        self.suits, self.hidden, self.hands = deal.suits, deal.hidden, deal.hands
        self.go_first_holder = deal.go_first_holder
        self.dealt_artifacts = deal.dealt_artifacts
        self.start_seer = deal.start_seer
        self.current = self.start_seer
        self.discards: list[int] = []
        self.trick: list[tuple[int, Play]] = []
        self.top: tuple[int, int, int] | None = None
        self.top_seat = -1
        n = self.n_players
        self.passed = [False] * n
        self.lead_passes = 0
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self._invalidate()
        self.events.append({
            "event": "deal", "round": self.round, "suits": list(self.suits),
            "hands": [list(h) for h in self.hands], "hidden": list(self.hidden),
            "start_seer": self.start_seer,
        })

    # --- legal plays ----------------------------------------------------------------------------
    def _invalidate(self) -> None:
        self._legal = None
        self._by_identity = None

    def legal_plays(self) -> list[Play]:
        """Every distinct legal play of the player to act, in :mod:`seers_env.moves`' documented order.

        Returns a new empty list once the game is over. The plays are computed once per position (until
        the next :meth:`apply`) and handed out as the game's read-only
        :class:`~seers_env.engine.moves.PlayList` (changing it raises ``TypeError``; ``list(plays)`` is a
        copy the caller may change).
        """
        legal = self._legal_list()
        return legal if isinstance(legal, PlayList) else list(legal)

    def _legal_list(self) -> list[Play]:
        """The cached legal plays themselves (never handed to callers)."""
        if self._legal is None:
            if self.game_over:
                self._legal = []
            else:
                seat = self.current
                hand = self.hands[seat]
                self._legal = legal_plays(hand, self.top, seat=seat, n_players=self.config.n_players,
                                          in_bonus=len(hand) <= BONUS_MAX_CARDS)
        return self._legal

    def find_play(self, play: Play) -> Play | None:
        """The legal play with the same identity as ``play`` (rules section 3 [ruling]), or ``None``."""
        if self._by_identity is None:
            self._by_identity = {p[:8]: p for p in self._legal_list()}
        return self._by_identity.get(tuple(play[:8]))

    def _own_play(self, play: Play) -> Play | None:
        """The engine's legal play with ``play``'s identity; fast when ``play`` is one of its objects."""
        legal = self._legal_list()
        try:
            i = legal.index(play)  # C-level scan, identical objects match first
        except ValueError:
            i = -1
        if i >= 0 and legal[i] is play:
            return play
        return self.find_play(play)

    def is_legal(self, play: Play) -> bool:
        return isinstance(play, Play) and self.find_play(play) is not None

    # --- transitions ----------------------------------------------------------------------------
    def apply(self, play: Play) -> PlayResult:
        """Play ``play`` for the player to act.

        ``play`` is matched by identity, so any interpretation of the same cards and meld is accepted;
        the engine's representative is applied and logged.

        Raises:
            TypeError: ``play`` is not a :class:`~seers_env.plays.Play`.
            GameOverError: the game has ended.
            IllegalPlayError: the play breaks a rule (named in the message); nothing changes.
        """
        if not isinstance(play, Play):
            raise TypeError(f"apply() takes a Play, got {type(play).__name__}: {play!r}")
        if self.game_over:
            raise GameOverError(f"the game is over; cannot apply {play!r}")
        try:
            legal = self._own_play(play)  # always the engine's own object: the caller's is never stored
        except TypeError:  # unhashable fields, e.g. a list of cards
            raise IllegalPlayError(play, "malformed play fields: suited and wild_values must be tuples of "
                                         "ints (see seers_env.plays.Play)") from None
        if legal is None:
            raise IllegalPlayError(play, self._why_illegal(play))
        seat = self.current
        self.events.append({"event": "play", "round": self.round, "seat": seat, "play": legal.to_dict()})
        self._invalidate()
        kind = legal.kind
        if kind == PlayKind.PASS:
            return self._pass(seat)
        if kind == PlayKind.ROD:
            return self._rod(seat, legal)
        if kind == PlayKind.GIFT:
            return self._gift(seat, legal)
        return self._meld(seat, legal)

    def _next_active(self, seat: int) -> int:
        n = self.n_players
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if not self.passed[nxt]:
                return nxt
        return seat

    def _remove_from_hand(self, seat: int, cards: Sequence[int]) -> None:
        hand, known = self.hands[seat], self.known[seat]
        for c in cards:
            hand.remove(c)
            if c in known:
                known.remove(c)
        self.played[seat].extend(cards)

    def _pass(self, seat: int) -> PlayResult:
        n = self.n_players
        if self.top is None:  # a Start Seer who cannot open (section 3 [ruling])
            self.lead_passes += 1
            if self.lead_passes >= n:
                return self._end_round()
            self.start_seer = self.current = (seat + 1) % n
            return _NOTHING
        self.passed[seat] = True
        if self.passed.count(False) == 1:
            return self._win_trick(self.passed.index(False))
        self.current = self._next_active(seat)
        return _NOTHING

    def _meld(self, seat: int, play: Play) -> PlayResult:
        self._remove_from_hand(seat, play.cards())
        self.trick.append((seat, play))
        self.top = (play.meld_type, play.size, play.rank)
        self.top_seat = seat
        self.lead_passes = 0
        if not self.hands[seat]:
            return self._end_round()
        self.current = self._next_active(seat)
        return _NOTHING

    def _rod(self, seat: int, play: Play) -> PlayResult:
        """Section 6 [ruling]: take every card of the trick, publicly; the Rod is discarded; lead next."""
        rod = artifact_card(ROD)
        self._remove_from_hand(seat, [rod])
        self.discards.append(rod)
        taken = self.trick_cards()
        self.hands[seat].extend(taken)
        self.hands[seat].sort()
        self.known[seat].extend(taken)
        self.known[seat].sort()
        self.events.append({"event": "trick", "round": self.round, "taken_by": seat, "cards": taken})
        self._new_trick(seat)
        return _NOTHING

    def _gift(self, seat: int, play: Play) -> PlayResult:
        """Section 6 [ruling]: the target becomes Start Seer and must lead."""
        gift = artifact_card(GIFT)
        self._remove_from_hand(seat, [gift])
        self.discards.append(gift)
        self.lead_passes = 0
        if not self.hands[seat]:
            return self._end_round()
        self.start_seer = self.current = play.target
        return _NOTHING

    def _new_trick(self, leader: int) -> None:
        self.trick = []
        self.top = None
        self.top_seat = -1
        self.passed = [False] * self.n_players
        self.lead_passes = 0
        self.start_seer = self.current = leader

    def _win_trick(self, winner: int) -> PlayResult:
        cards = self.trick_cards()
        self.discards.extend(cards)
        self.events.append({"event": "trick", "round": self.round, "won_by": winner, "cards": cards})
        self._new_trick(winner)
        return PlayResult(trick_winner=winner)

    def _end_round(self) -> PlayResult:
        scores = [round_score(h) for h in self.hands]
        self.round_scores.append(scores)
        self.events.append({"event": "round_end", "round": self.round, "scores": list(scores),
                            "hands": [list(h) for h in self.hands]})
        if len(self.round_scores) >= self.config.n_rounds:
            self.game_over = True
            self._invalidate()
            self.events.append({"event": "game_end", "totals": self.totals, "winners": self.winners()})
            return PlayResult(round_scores=tuple(scores), game_over=True)
        self.round += 1
        self._deal()
        return PlayResult(round_scores=tuple(scores))

    # --- explanations ---------------------------------------------------------------------------
    def _why_illegal(self, play: Play) -> str:
        seat = self.current
        hand = list(self.hands[seat])
        try:
            cards = play.cards()
        except TypeError:
            return "malformed play fields (see seers_env.plays.Play)"
        for c in cards:
            if c in hand:
                hand.remove(c)
            else:
                known_id = is_integer(c) and 0 <= c < 61 + len(ARTIFACT_KINDS)
                name = card_name(c) if known_id else f"card id {c!r} (not a card: ids are 0..{60 + len(ARTIFACT_KINDS)})"
                return f"player_{seat} does not hold {name} (rules section 3: play cards from your hand)"
        leading = self.top is None
        if play.kind == PlayKind.PASS:
            if leading:
                return "the Start Seer must lead when they have an opening meld (section 3)"
            return f"player_{seat} is in the Bonus and holds a legal meld, so may not pass (section 4)"
        if play.kind == PlayKind.ROD:
            return "the Rod of Reincarnation is played alone when following a meld (section 6 [ruling])"
        if play.kind == PlayKind.GIFT:
            if not leading:
                return "the Gift of Fate is played alone when about to lead (section 6 [ruling])"
            return (f"Gift of Fate target {play.target!r} must be another seat in "
                    f"0..{self.n_players - 1} (section 6 [ruling])")
        if play.kind != PlayKind.MELD:
            return f"kind {play.kind!r} is not one of {[k.name for k in PlayKind]}"
        if play.artifact == GO_FIRST and play.size == 0:
            return "Go First cannot be played alone (section 6 [ruling])"
        if play.artifact != HIGHEST_SINGLE and len(play.suited) + play.wilds != play.size:
            return (f"a meld of size {play.size} needs {play.size} suited cards or wilds, got "
                    f"{len(play.suited) + play.wilds} (section 3; the artifact does not count)")
        if self.top is not None and not beats(self.top, play.meld_type, play.size, play.rank):
            mt, size, _ = self.top
            return (f"a play must be a {MeldType(mt).name} of {size} card(s) strictly higher than the "
                    f"trick's top meld (section 3)")
        if play.meld_type == MeldType.RUN and len(play.suited) + play.wilds >= 2:
            values = sorted([c % 12 + 2 for c in play.suited] + list(play.wild_values))
            if classify([(0, v) for v in values]) is None and play.artifact < 0:
                return "the cards do not form consecutive values (section 3)"
        return ("these cards do not form that meld with one declaration of wilds and at most one artifact "
                "(sections 3 and 6)")

    # --- copies and serialisation ---------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy (generator state included) for search."""
        new = Game.__new__(Game)
        new.config = self.config
        # the copy's generator is built from this state on first use (seeding a new bit generator costs
        # more than the rest of a clone, and a search often never deals again)
        new._rng = None
        new._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state
        new.initial_rng_state = self.initial_rng_state
        new.events = list(self.events)
        new.round = self.round
        new.round_scores = [list(r) for r in self.round_scores]
        new.hands = [list(h) for h in self.hands]
        new.hidden = list(self.hidden)
        new.suits = list(self.suits)
        new.dealt_artifacts = list(self.dealt_artifacts)
        new.discards = list(self.discards)
        new.trick = list(self.trick)
        new.top = self.top
        new.top_seat = self.top_seat
        new.passed = list(self.passed)
        new.start_seer = self.start_seer
        new.current = self.current
        new.lead_passes = self.lead_passes
        new.played = [list(p) for p in self.played]
        new.known = [list(k) for k in self.known]
        new.go_first_holder = self.go_first_holder
        new.game_over = self.game_over
        new._legal = self._legal
        new._by_identity = self._by_identity
        return new

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable full state (mid-trick included), generator state and event log."""
        d: dict[str, Any] = {"format": GAME_FORMAT_VERSION, "config": self.config.to_dict(),
                             "rng_state": self.rng.bit_generator.state,
                             "initial_rng_state": copy.deepcopy(self.initial_rng_state),
                             "events": copy.deepcopy(self.events)}  # nothing shared with the live game
        for name in _STATE_FIELDS:
            d[name] = getattr(self, name)
        d["trick"] = [[seat, p.to_dict()] for seat, p in self.trick]
        d["top"] = list(self.top) if self.top is not None else None
        d["round_scores"] = [list(r) for r in self.round_scores]
        d["hands"] = [list(h) for h in self.hands]
        d["played"] = [list(p) for p in self.played]
        d["known"] = [list(k) for k in self.known]
        for name in ("hidden", "suits", "dealt_artifacts", "discards", "passed"):
            d[name] = list(d[name])  # no list shared with the live game
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Restore a game saved with :meth:`to_dict` exactly (``g.to_dict() == from_dict(...).to_dict()``).

        Every field is checked for its type and range (card ids, seats, suits, the generator states); the
        rules' consistency of a well-formed state is not (it is the saved game's).

        Raises:
            TypeError: ``d`` is not a dict, or a field of the wrong type; ValueError: unknown format
                version, missing fields, or a value out of range (each message names the field).
        """
        if not isinstance(d, dict):
            raise TypeError(f"a saved game must be a dict (Game.to_dict()), got {type(d).__name__}")
        if d.get("format") != GAME_FORMAT_VERSION:
            raise ValueError(f"game format {d.get('format')!r} is not supported; expected {GAME_FORMAT_VERSION}")
        missing = [k for k in _STATE_FIELDS + ("config", "rng_state", "events") if k not in d]
        if missing:
            raise ValueError(f"saved game lacks fields {missing}")
        config = GameConfig.from_dict(d["config"])
        n = config.n_players
        check = _SavedState(d, config)
        rng = generator_from_state(d["rng_state"], "rng_state")
        initial = d.get("initial_rng_state", d["rng_state"])
        generator_from_state(initial, "initial_rng_state")
        events = _check_events(d["events"])
        g = cls.__new__(cls)
        g.config = config
        g.rng = rng
        g.initial_rng_state = copy.deepcopy(initial)
        g.events = copy.deepcopy(events)  # nothing shared with the caller's dict
        g.round = check.integer("round", 0, config.n_rounds - 1)
        scores = d["round_scores"]
        if not isinstance(scores, (list, tuple)) or len(scores) > config.n_rounds:
            raise ValueError(f"saved game field round_scores must be a list of at most {config.n_rounds} "
                             f"rounds, got {str(scores)[:80]}")
        g.round_scores = [check.ints(r, f"round_scores[{i}]", -10**6, 10**6, n) for i, r in enumerate(scores)]
        g.hands = check.per_seat("hands")
        g.played = check.per_seat("played")
        g.known = check.per_seat("known")
        g.hidden = check.cards(d["hidden"], "hidden")
        g.discards = check.cards(d["discards"], "discards")
        g.suits = check.ints(d["suits"], "suits", 0, N_SUITS - 1)
        g.dealt_artifacts = check.ints(d["dealt_artifacts"], "dealt_artifacts", 0, len(ARTIFACT_KINDS) - 1)
        passed = d["passed"]
        if not isinstance(passed, (list, tuple)) or len(passed) != n:
            raise ValueError(f"saved game field passed must hold one flag per seat ({n}), got {passed!r}")
        g.passed = [check.flag(x, f"passed[{i}]") for i, x in enumerate(passed)]
        g.start_seer = check.integer("start_seer", 0, n - 1)
        g.current = check.integer("current", 0, n - 1)
        g.top_seat = check.integer("top_seat", -1, n - 1)
        g.go_first_holder = check.integer("go_first_holder", -1, n - 1)
        g.lead_passes = check.integer("lead_passes", 0, n)
        g.game_over = check.flag(d["game_over"], "game_over")
        top = d["top"]
        g.top = None if top is None else tuple(check.ints(top, "top", 0, 10**4, 3))
        trick = d["trick"]
        if not isinstance(trick, (list, tuple)):
            raise TypeError(f"saved game field trick={str(trick)[:80]} must be a list of [seat, play] pairs")
        g.trick = []
        for i, entry in enumerate(trick):
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                raise TypeError(f"saved game field trick[{i}]={entry!r} must be a [seat, play] pair")
            seat = check.ints([entry[0]], f"trick[{i}] seat", 0, n - 1)[0]
            try:
                play = Play.from_dict(entry[1])
            except (TypeError, ValueError) as err:
                raise type(err)(f"saved game field trick[{i}] play: {err}") from None
            g.trick.append((seat, play))
        g._invalidate()
        return g

    def log(self) -> dict[str, Any]:
        """The replayable game log: config, initial generator state and every event."""
        return {"format": GAME_FORMAT_VERSION, "config": self.config.to_dict(),
                "initial_rng_state": copy.deepcopy(self.initial_rng_state), "events": copy.deepcopy(self.events)}

    @classmethod
    def replay(cls, log: dict[str, Any], upto: int | None = None) -> Game:
        """Rebuild a game from :meth:`log` by re-dealing from the initial generator state and re-applying
        every logged play (the first ``upto`` plays when given).

        Raises:
            TypeError: ``log`` is not a dict, or a field of the wrong type (the message names it).
            ValueError: a missing field, a bad config or generator state, a logged deal that differs from
                the re-dealt one (the log is not from this engine), a play after the game's end, or a bad
                ``upto``.
            IllegalPlayError: a logged play is illegal in the rebuilt state (the message names the event).
        """
        if not isinstance(log, dict):
            raise TypeError(f"a game log must be a dict (Game.log()), got {type(log).__name__}")
        missing = [k for k in ("config", "initial_rng_state", "events") if k not in log]
        if missing:
            raise ValueError(f"game log lacks fields {missing}")
        if upto is not None and (not is_integer(upto) or upto < 0):
            raise ValueError(f"upto={upto!r} is not allowed; use an integer >= 0 or None")
        config = GameConfig.from_dict(log["config"])
        game = cls(config, rng=generator_from_state(log["initial_rng_state"], "initial_rng_state"))
        events = _check_events(log["events"])
        plays, deals = [], []
        for i, e in enumerate(events):
            if e["event"] == "play":
                try:
                    plays.append((i, Play.from_dict(e.get("play"))))
                except (TypeError, ValueError) as err:
                    raise type(err)(f"game log events[{i}] play: {err}") from None
            elif e["event"] == "deal":
                if not isinstance(e.get("hands"), list):
                    raise ValueError(f"game log events[{i}] (a deal) must hold the dealt hands, got "
                                     f"{str(e.get('hands'))[:80]}")
                deals.append(e)
        for i, play in plays[:upto]:
            if game.game_over:
                raise ValueError(f"game log events[{i}]: a play after the end of the game")
            try:
                game.apply(play)
            except IllegalPlayError as err:
                raise IllegalPlayError(play, f"{err.rule} (game log events[{i}])") from None
        replayed = [e for e in game.events if e["event"] == "deal"]
        if [e["hands"] for e in replayed] != [e["hands"] for e in deals[:len(replayed)]]:
            raise ValueError("logged deals differ from the re-dealt ones: the log does not match this engine")
        return game

    def __repr__(self) -> str:
        return (f"Game(players={self.n_players}, round={self.round + 1}/{self.config.n_rounds}, "
                f"current=player_{self.current}, hand_sizes={self.hand_sizes()}, over={self.game_over})")
