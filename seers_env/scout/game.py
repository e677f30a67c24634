"""The SCOUT game state and its transitions (rules ``shared/rules/scout.md``, sections 2 to 9).

:class:`ScoutGame` mirrors the Seers Catalog :class:`~seers_env.engine.game.Game`::

    game = ScoutGame(ScoutConfig(n_players=4), seed=7)
    while not game.game_over:
        game.apply(game.legal_plays()[0])
    game.totals, game.winners()

**Flow of a round.** After the deal, every seat in seat order 0..N-1 makes its keep/rotate decision
(``phase == "rotate"``, ``current`` is the seat deciding); then ``phase == "play"`` and ``current`` is the
seat to act, starting with the round's start player. The play that ends a round scores it and deals the
next one (or ends the game, ``phase == "over"``).

**Legal plays** (:meth:`ScoutGame.legal_plays`): a fresh list in the documented order of
:mod:`seers_env.scout.moves`: ascending as tuples ``(kind, end, flip, position, start, length)``, so
KEEP, ROTATE in the rotation phase; in a turn every SHOW by (start, length), every SCOUT by (end, flip,
position), every canonical SCOUT_SHOW by (end, flip, position, start, length), then STOP.

**Hands** are read as ``hands[seat]``: a list of ``(card id, top number)`` pairs, left to right
(:mod:`seers_env.scout.cards`). Internally cards are face codes ``2 * card + orientation``.

**Randomness**: one ``numpy.random.default_rng(seed)``, used only for dealing. Each deal draws, in order,
``rng.permutation(k)`` of the ``k`` cards to deal (sorted by card id first) and
``rng.integers(0, 2, size=k)`` for their orientations (1 = the higher number on top); round 1 with
``first_player="random"`` then draws ``rng.integers(n_players)``. 2 players: round 1 shuffles the 44,
deals the first 22 (11 each, seat 0 first) and sets the other 22 aside; round 2 reshuffles and re-orients
those 22 and deals them (section 7 [ruling]). 3-5 players deal every card in play each round.

**Building a position** for tests or analysis: :meth:`ScoutGame.from_position` (hands and table given)
or :meth:`ScoutGame.from_dict` of a hand-written state dict; such a game's log replays from that
position.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..seeding import unsafe_state
from . import rulings
from .cards import CARD_1_2, FACE_VALUE, N_CARDS, SETUP, face_name, face_of, face_pair, rotate_faces
from .moves import can_show, set_key, strength_key, turn_plays, why_illegal_turn
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay, KEEP_PLAY, ROTATE_PLAY

GAME_FORMAT_VERSION = 1

PHASE_ROTATE, PHASE_PLAY, PHASE_OVER = "rotate", "play", "over"
PHASES = (PHASE_ROTATE, PHASE_PLAY, PHASE_OVER)


class IllegalPlayError(ValueError):
    """A play that the rules do not allow now. The game state is left unchanged.

    Attributes:
        play: the rejected play. rule: the rule it breaks (rules section and a short text).
    """

    def __init__(self, play: Any, rule: str):
        self.play = play
        self.rule = rule
        text = play.describe() if isinstance(play, ScoutPlay) and play.malformed() is None else repr(play)
        super().__init__(f"illegal play {tuple(play) if isinstance(play, tuple) else play!r} "
                         f"({text}): {rule}")


class GameOverError(RuntimeError):
    """A play was applied to a game that has ended (or winners asked for before the end)."""


# --- config ----------------------------------------------------------------------------------------

def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> int:
    allowed = f"an integer in {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}={value!r} ({type(value).__name__}) is not allowed; use {allowed}")
    if value < lo or (hi is not None and value > hi):
        raise ValueError(f"{name}={value!r} is not allowed; use {allowed}")
    return int(value)


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r} ({type(value).__name__}) is not allowed; use True or False")
    return bool(value)


def placements(totals: list[int], round_scores: object = None) -> list[float]:
    """Finishing place of each seat by total (1 = first; section 9: no tie-break), tied seats sharing the
    mean of their places; ``round_scores`` is unused (the placement rule of
    :class:`seers_env.games.GameSpec`)."""
    return [1 + sum(t > x for t in totals) + (sum(t == x for t in totals) - 1) / 2 for x in totals]


@dataclass(frozen=True)
class ScoutConfig:
    """Parameters of a SCOUT game, fixed for its whole length.

    Attributes:
        n_players: 2..5 (section 2).
        first_player: round 1 start player, one of :data:`~seers_env.scout.rulings.FIRST_PLAYER_CHOICES`
            (section 2 [ruling]; default ``"seat0"``).
        public_scout_flip_and_position: a scouted card's orientation and insert position are public
            (section 10 [ruling]; default True).
        two_player_may_stop: 2 players: add the STOP play (section 7 [ruling]; default False).
        max_turns_per_round: round truncation cap (section 6 [ruling]; default 1000).
        n_rounds: rounds of the game; ``None`` means the rules' count for the player count (section 2:
            2 players 2, else N). 2 players allow 1 or 2.

    Raises:
        TypeError: a field of the wrong type (bools are not ints; ``4.7`` and ``"4"`` are refused).
        ValueError: a value outside the allowed ones (the message names the field and the values).
    """

    n_players: int = 4
    first_player: str = rulings.DEFAULT_FIRST_PLAYER
    public_scout_flip_and_position: bool = rulings.DEFAULT_PUBLIC_SCOUT_FLIP_AND_POSITION
    two_player_may_stop: bool = rulings.DEFAULT_TWO_PLAYER_MAY_STOP
    max_turns_per_round: int = rulings.DEFAULT_MAX_TURNS_PER_ROUND
    n_rounds: int | None = None

    def __post_init__(self) -> None:
        n = _check_int("n_players", self.n_players, 2, 5)
        object.__setattr__(self, "n_players", n)
        if not isinstance(self.first_player, str):
            raise TypeError(f"first_player={self.first_player!r} is not allowed; use one of "
                            f"{', '.join(rulings.FIRST_PLAYER_CHOICES)}")
        if self.first_player not in rulings.FIRST_PLAYER_CHOICES:
            raise ValueError(f"first_player={self.first_player!r} is not allowed; use one of "
                             f"{', '.join(rulings.FIRST_PLAYER_CHOICES)}")
        object.__setattr__(self, "public_scout_flip_and_position",
                           _check_bool("public_scout_flip_and_position", self.public_scout_flip_and_position))
        object.__setattr__(self, "two_player_may_stop",
                           _check_bool("two_player_may_stop", self.two_player_may_stop))
        object.__setattr__(self, "max_turns_per_round",
                           _check_int("max_turns_per_round", self.max_turns_per_round, 1))
        if self.n_rounds is None:
            object.__setattr__(self, "n_rounds", SETUP[n].rounds)
        else:
            hi = rulings.TWO_PLAYER_MAX_ROUNDS if n == 2 else None
            object.__setattr__(self, "n_rounds", _check_int("n_rounds", self.n_rounds, 1, hi))

    def to_dict(self) -> dict[str, Any]:
        """Every field as a JSON-serialisable dict (``n_rounds`` resolved)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Any) -> ScoutConfig:
        """Inverse of :meth:`to_dict`; missing fields take their defaults.

        Raises:
            TypeError: ``d`` is not a dict, or a field has the wrong type.
            ValueError: an unknown field name or a value outside the allowed ones.
        """
        if not isinstance(d, dict):
            raise TypeError(f"config must be a dict of ScoutConfig fields, got {type(d).__name__}: {d!r}")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(d) - set(names), key=str)
        if unknown:
            raise ValueError(f"config has unknown fields {unknown}; allowed: {names}")
        return cls(**d)

    @property
    def setup(self):
        """The section 2 row for this player count (:class:`~seers_env.scout.cards.Setup`)."""
        return SETUP[self.n_players]


@dataclass(frozen=True)
class ScoutResult:
    """What :meth:`ScoutGame.apply` did.

    Attributes:
        round_scores: the scores of the round this play ended (one per seat), or ``None``.
        round_end_reason: ``"a"``, ``"b"`` or ``"truncated"`` (:data:`~seers_env.scout.rulings.REASONS`)
            when the play ended a round, else ``None``.
        exempt: the seat exempt from the hand penalty in that round (-1: none).
        game_over: whether the game has ended.
    """

    round_scores: tuple[int, ...] | None = None
    round_end_reason: str | None = None
    exempt: int = -1
    game_over: bool = False

    @property
    def round_over(self) -> bool:
        """Whether this play ended a round (the next round, if any, is already dealt)."""
        return self.round_scores is not None

    @property
    def truncated(self) -> bool:
        return self.round_end_reason == rulings.REASON_TRUNCATED


_NOTHING = ScoutResult()

_STATE_FIELDS = (
    "round", "round_scores", "round_end_reasons", "round_exempt", "first_player_seat", "start_player",
    "phase", "current", "turns", "hands", "scouted", "active", "active_owner", "piles", "chips",
    "scout_show_used", "rotated", "set_aside", "round_cards", "earlier_seen", "earlier_shown", "game_over",
)
_DICT_FIELDS = ("format", "game", "config", "rng_state", "initial_rng_state", "origin", "events",
                "public_history") + _STATE_FIELDS


#: Nesting a saved game's event logs may have (the engine's events nest 5 levels; as
#: :data:`seers_env.jsonio.MAX_EVENT_DEPTH`, not imported: this module is a compiled source).
MAX_EVENT_DEPTH = 32


def too_deep(obj: Any, limit: int = MAX_EVENT_DEPTH) -> bool:
    """Whether lists/tuples/dicts in ``obj`` nest more than ``limit`` levels (checked without recursion, so
    that ``copy.deepcopy`` and ``json.dumps`` cannot overflow Python's stack)."""
    stack = [(obj, 0)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, (list, tuple, dict)):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in (x.values() if isinstance(x, dict) else x))
    return False


def _rng_from_state(state: Any, name: str) -> np.random.Generator:
    """A generator restored from a ``bit_generator.state`` dict (ValueError/TypeError naming ``name``)."""
    if not isinstance(state, dict):
        raise TypeError(f"{name} must be a numpy bit_generator state dict, got {type(state).__name__}")
    kind = state.get("bit_generator")
    cls = getattr(np.random, kind, None) if isinstance(kind, str) else None
    if not (isinstance(cls, type) and issubclass(cls, np.random.BitGenerator)) or cls is np.random.BitGenerator:
        raise ValueError(f"{name}['bit_generator']={kind!r} is not a numpy bit generator (e.g. 'PCG64')")
    bit_gen = cls()
    try:
        bit_gen.state = copy.deepcopy(state)
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        raise ValueError(f"{name} is not a valid {kind} state: {e}") from None
    why = unsafe_state(bit_gen)
    if why is not None:
        raise ValueError(f"{name} is not a valid {kind} state: {why}")
    return np.random.Generator(bit_gen)


class ScoutGame:
    """A whole game of SCOUT: rounds, turns and scores (module docstring).

    Args:
        config: a :class:`ScoutConfig` (default: 4 players).
        seed: seed of the game's ``numpy.random.default_rng`` (non-negative int or ``None``).

    Raises:
        TypeError: ``config`` is not a :class:`ScoutConfig`, or ``seed`` is not an int/None.
        ValueError: a negative seed.

    Public state (read-only; list-valued attributes are fresh copies): ``config``, ``n_players``,
    ``round`` (0-based), ``phase``, ``current``, ``start_player``, ``turns`` (play-phase actions this
    round), ``hands``, ``active`` (the Active Set as ``(card, top)`` pairs, left to right),
    ``active_owner`` (the last shower this round, kept when the set is scouted down to 0; -1 before the
    first show), ``piles`` (card ids collected, per seat), ``chips``, ``scout_show_used``, ``rotated``,
    ``round_scores``, ``round_end_reasons``, ``round_exempt``, ``totals``, ``truncated``, ``game_over``.
    """

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.GameState`
    game_name = "scout"

    def __init__(self, config: ScoutConfig | None = None, seed: int | None = None):
        if config is not None and not isinstance(config, ScoutConfig):
            raise TypeError(f"config must be a ScoutConfig (e.g. ScoutConfig(n_players=4)), got "
                            f"{type(config).__name__}: {config!r}")
        if seed is not None:
            _check_int("seed", seed, 0)
        self._start(config if config is not None else ScoutConfig(),
                    np.random.default_rng(None if seed is None else int(seed)))

    def _start(self, config: ScoutConfig, rng: np.random.Generator) -> None:
        """Begin a game dealt from ``rng`` (its current state becomes ``initial_rng_state``)."""
        self.config = config
        self._rng: np.random.Generator | None = rng
        self._rng_state: dict[str, Any] | None = None
        self.initial_rng_state = rng.bit_generator.state
        self._origin: ScoutGame | None = None
        self.events: list[dict[str, Any]] = []
        self._public: list[dict[str, Any]] = []
        self.round = 0
        self._round_scores: list[list[int]] = []
        self._round_end_reasons: list[str] = []
        self._round_exempt: list[int] = []
        self.game_over = False
        n = config.n_players
        self._earlier_seen: list[list[int]] = [[] for _ in range(n)]
        self._earlier_shown: list[int] = []
        self._set_aside: list[int] = []
        self.first_player_seat = 0
        self._legal: tuple[ScoutPlay, ...] | None = None
        self._deal_round()

    # --- read-only state --------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def rng(self) -> np.random.Generator:
        """The game's generator (later deals draw from it). A clone builds its own on first use, from the
        state it was cloned with."""
        r = self._rng
        if r is None:
            r = self._rng = _rng_from_state(self._rng_state, "rng_state")
            self._rng_state = None
        return r

    def _rng_state_copy(self) -> dict[str, Any]:
        """The generator's state now (a new dict)."""
        if self._rng is None:
            return copy.deepcopy(self._rng_state)
        return self._rng.bit_generator.state

    @property
    def hands(self) -> list[list[tuple[int, int]]]:
        """Per seat, the hand left to right as ``(card id, top number)`` pairs (a fresh copy)."""
        return [[face_pair(f) for f in h] for h in self._hands]

    def hand_faces(self, seat: int) -> list[int]:
        """``seat``'s hand as face codes (a copy)."""
        return list(self._hands[seat])

    def hand_values(self, seat: int) -> list[int]:
        """``seat``'s hand as top numbers, left to right."""
        return [FACE_VALUE[f] for f in self._hands[seat]]

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._hands]

    @property
    def scouted(self) -> list[list[bool]]:
        """Per seat and hand slot: whether that card was scouted into the hand this round (public)."""
        return [list(s) for s in self._scouted]

    @property
    def active(self) -> list[tuple[int, int]]:
        """The Active Set, left to right, as ``(card id, top number)`` pairs (``[]`` when there is none)."""
        return [face_pair(f) for f in self._active]

    def active_faces(self) -> list[int]:
        return list(self._active)

    def active_values(self) -> list[int]:
        return [FACE_VALUE[f] for f in self._active]

    @property
    def active_owner(self) -> int:
        """Owner of the Active Set: the most recent shower this round (-1 before the first Show). Kept when
        the set is scouted down to 0 cards (section 5), so it is also O of section 6."""
        return self._owner

    @property
    def last_shower(self) -> int:
        """The player who made the most recent Show this round (O of section 6): same as ``active_owner``."""
        return self._owner

    @property
    def piles(self) -> list[list[int]]:
        """Per seat, the card ids in the score pile, in the order collected (a fresh copy)."""
        return [list(p) for p in self._piles]

    def pile_sizes(self) -> list[int]:
        return [len(p) for p in self._piles]

    @property
    def chips(self) -> list[int]:
        """Scout chips each seat holds this round (3-5 players: received; 2 players: unspent, 0..3)."""
        return list(self._chips)

    @property
    def scout_show_used(self) -> list[bool]:
        return list(self._ss_used)

    @property
    def rotated(self) -> list[bool | None]:
        """Each seat's keep/rotate decision this round (``None``: not made yet)."""
        return list(self._rotated)

    @property
    def set_aside(self) -> list[tuple[int, int]]:
        """2 players, round 1: the 22 cards set aside (hidden information), as pairs; else ``[]``."""
        return [face_pair(f) for f in self._set_aside]

    @property
    def round_cards(self) -> list[int]:
        """Card ids dealt this round, sorted (2 players: 22 of the 44, hidden; 3-5: every card in play)."""
        return list(self._round_cards)

    @property
    def earlier_seen(self) -> list[list[int]]:
        """2 players, round 2: per seat, the round-1 cards it was dealt or saw shown (section 10 [ruling])."""
        return [list(s) for s in self._earlier_seen]

    @property
    def earlier_shown(self) -> list[int]:
        """2 players, round 2: the round-1 cards that were shown (public)."""
        return list(self._earlier_shown)

    @property
    def round_scores(self) -> list[list[int]]:
        """Completed rounds' scores, one list per round (a fresh copy)."""
        return [list(r) for r in self._round_scores]

    @property
    def round_end_reasons(self) -> list[str]:
        """Per completed round: ``"a"``, ``"b"`` or ``"truncated"``."""
        return list(self._round_end_reasons)

    @property
    def round_exempt(self) -> list[int]:
        """Per completed round: the seat exempt from the hand penalty (-1: none, a truncated round)."""
        return list(self._round_exempt)

    @property
    def last_round_end_reason(self) -> str | None:
        return self._round_end_reasons[-1] if self._round_end_reasons else None

    @property
    def truncated(self) -> bool:
        """Whether some completed round was cut by ``max_turns_per_round`` (section 6 [ruling])."""
        return rulings.REASON_TRUNCATED in self._round_end_reasons

    @property
    def totals(self) -> list[int]:
        """Sum of each seat's round scores so far."""
        return [sum(r[i] for r in self._round_scores) for i in range(self.n_players)]

    @property
    def public_history(self) -> list[dict[str, Any]]:
        """Every public event of the game so far (a deep copy): ``rotations``, ``show``, ``scout``,
        ``scout_show``, ``stop`` and ``round_end`` dicts; a scout's ``flip``/``position``/``top`` are
        ``None`` when ``public_scout_flip_and_position`` is off."""
        return copy.deepcopy(self._public)

    def winners(self) -> list[int]:
        """Seats with the highest total, sorted (a tie is a shared win, section 9).

        Raises:
            GameOverError: the game is not over yet.
        """
        if not self.game_over:
            raise GameOverError("the game is not over yet; winners are known after the last round")
        totals = self.totals
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def placements(self) -> list[float]:
        """Finishing place of each seat by total (1 = first); tied seats share the mean of their places."""
        return placements(self.totals)

    # --- dealing ------------------------------------------------------------------------------------
    def _deal_round(self) -> None:
        """Deal round ``self.round`` (sections 2 and 7) and open its rotation phase."""
        n = self.n_players
        setup = SETUP[n]
        rng = self.rng
        if n == 2 and self.round > 0:
            cards = sorted(f >> 1 for f in self._set_aside)
        else:
            cards = list(setup.in_play)
        perm = rng.permutation(len(cards)).tolist()
        orient = rng.integers(0, 2, size=len(cards)).tolist()
        faces = [2 * cards[p] + o for p, o in zip(perm, orient)]
        if n == 2 and self.round == 0:
            dealt, self._set_aside = faces[:setup.cards_per_round], faces[setup.cards_per_round:]
        else:
            dealt, self._set_aside = faces, []
        size = len(dealt) // n
        self._hands = [dealt[i * size:(i + 1) * size] for i in range(n)]
        if self.round == 0:
            fp = self.config.first_player
            if fp == "random":
                self.first_player_seat = int(rng.integers(n))
            elif fp == "holder_of_1_2":
                holders = [s for s in range(n) if any(f >> 1 == CARD_1_2 for f in self._hands[s])]
                self.first_player_seat = holders[0] if holders else rulings.HOLDER_OF_1_2_FALLBACK_SEAT
            else:
                self.first_player_seat = 0
        self._round_cards = sorted(f >> 1 for f in dealt)
        self._open_round((self.first_player_seat + rulings.START_PLAYER_STEP * self.round) % n)
        self.events.append({"event": "deal", "round": self.round,
                            "hands": [[list(face_pair(f)) for f in h] for h in self._hands],
                            "set_aside": [list(face_pair(f)) for f in self._set_aside],
                            "start_player": self.start_player})

    def _open_round(self, start_player: int) -> None:
        n = self.n_players
        setup = SETUP[n]
        self.start_player = start_player
        self._scouted = [[False] * len(h) for h in self._hands]
        self._active: list[int] = []
        self._owner = -1
        self._piles: list[list[int]] = [[] for _ in range(n)]
        self._chips = [setup.chips_at_start] * n
        self._ss_used = [False] * n
        self._rotated: list[bool | None] = [None] * n
        self.turns = 0
        self.phase = PHASE_ROTATE
        self.current = 0
        self._legal = None

    # --- legal plays ------------------------------------------------------------------------------
    def _turn_options(self, seat: int) -> tuple[bool, bool, bool]:
        """``(scout, scout_show, stop)`` availability for ``seat`` (sections 3, 5, 7)."""
        if self.n_players == 2:
            return (self._chips[seat] > 0, False,
                    self.config.two_player_may_stop and bool(self._active))
        return True, not self._ss_used[seat], False

    def _legal_tuple(self) -> tuple[ScoutPlay, ...]:
        if self._legal is None:
            if self.game_over:
                self._legal = ()
            elif self.phase == PHASE_ROTATE:
                self._legal = (KEEP_PLAY, ROTATE_PLAY)
            else:
                seat = self.current
                scout, scout_show, stop = self._turn_options(seat)
                self._legal = tuple(turn_plays(self._hands[seat], self._active, scout=scout,
                                               scout_show=scout_show, stop=stop))
        return self._legal

    def legal_plays(self) -> list[ScoutPlay]:
        """Every legal play of the seat to act, in the documented order (module docstring); a new list
        each call (``[]`` once the game is over)."""
        return list(self._legal_tuple())

    def n_legal_plays(self) -> int:
        return len(self._legal_tuple())

    def is_legal(self, play: Any) -> bool:
        """Whether ``play`` is one of :meth:`legal_plays` (checked directly, without listing them)."""
        return isinstance(play, ScoutPlay) and not self.game_over and self._why_illegal(play) is None

    def _why_illegal(self, play: ScoutPlay) -> str | None:
        why = play.malformed()
        if why is not None:
            return f"malformed play: {why} (see seers_env.scout.plays.ScoutPlay)"
        if self.phase == PHASE_ROTATE:
            if play.kind in (KEEP, ROTATE):
                return None
            return (f"player_{self.current} must first decide to keep or rotate the hand (section 2: once per "
                    f"round, before the first turn)")
        if play.kind in (KEEP, ROTATE):
            return "the keep/rotate decision is made once per round, before the first turn (section 2)"
        seat = self.current
        scout, scout_show, stop = self._turn_options(seat)
        if self.n_players == 2:
            scout_rule = f"player_{seat} has no Scout chips left (section 7: scouting spends one)"
            ss_rule = "Scout & Show is not used in the 2-player game (section 7)"
            stop_rule = ("STOP needs two_player_may_stop and an Active Set (section 7 [ruling]: there is no "
                         "pass)")
        else:
            scout_rule = ""
            ss_rule = f"player_{seat} has used Scout & Show this round (section 5: once per round)"
            stop_rule = "there is no pass or stop in 3-5 players (section 3)"
        return why_illegal_turn(play, self._hands[seat], self._active, scout=scout, scout_show=scout_show,
                                stop=stop, scout_rule=scout_rule, scout_show_rule=ss_rule, stop_rule=stop_rule)

    # --- transitions ------------------------------------------------------------------------------
    def apply(self, play: ScoutPlay) -> ScoutResult:
        """Make ``play`` for the seat to act.

        Raises:
            TypeError: ``play`` is not a :class:`~seers_env.scout.plays.ScoutPlay`.
            GameOverError: the game has ended.
            IllegalPlayError: the play breaks a rule (named in the message); nothing changes.
        """
        if not isinstance(play, ScoutPlay):
            raise TypeError(f"apply() takes a ScoutPlay, got {type(play).__name__}: {play!r}")
        if self.game_over:
            raise GameOverError(f"the game is over; cannot apply {play!r}")
        why = self._why_illegal(play)
        if why is not None:
            raise IllegalPlayError(play, why)
        play = ScoutPlay(*[int(v) for v in play])  # the engine's own object, never a caller's subclass
        seat = self.current
        self.events.append({"event": "play", "round": self.round, "seat": seat, "play": play.to_list()})
        self._legal = None
        kind = play.kind
        if kind in (KEEP, ROTATE):
            return self._decide_rotation(seat, kind == ROTATE)
        self.turns += 1
        if kind == SHOW:
            result = self._show(seat, play.start, play.length)
        elif kind == SCOUT:
            result = self._scout(seat, play)
        elif kind == SCOUT_SHOW:
            result = self._scout_show(seat, play)
        else:  # STOP, section 7 [ruling]: ends the round as 7(b)
            self._public.append({"event": "stop", "round": self.round, "seat": seat})
            return self._end_round(rulings.REASON_UNBEATEN, self._owner)
        if result is None:
            if self.turns >= self.config.max_turns_per_round:  # section 6 [ruling]
                return self._end_round(rulings.REASON_TRUNCATED, -1)
            return _NOTHING
        return result

    def _decide_rotation(self, seat: int, rotate: bool) -> ScoutResult:
        if rotate:  # section 2 [ruling] ROTATION_REVERSES_AND_FLIPS
            self._hands[seat] = rotate_faces(self._hands[seat])
            self._scouted[seat].reverse()
        self._rotated[seat] = rotate
        if seat + 1 < self.n_players:
            self.current = seat + 1
        else:
            self.phase = PHASE_PLAY
            self.current = self.start_player
            self._public.append({"event": "rotations", "round": self.round, "rotated": list(self._rotated)})
        return _NOTHING

    def _take_segment(self, seat: int, start: int, length: int) -> list[int]:
        hand, flags = self._hands[seat], self._scouted[seat]
        seg = hand[start:start + length]
        del hand[start:start + length]
        del flags[start:start + length]
        return seg

    def _put_show(self, seat: int, seg: list[int]) -> None:
        """Section 4 effect: the old Active Set goes to the shower's pile; ``seg`` is the new one."""
        if self._active:
            self._piles[seat].extend(f >> 1 for f in self._active)
        self._active = seg
        self._owner = seat

    def _after_show(self, seat: int) -> ScoutResult | None:
        if not self._hands[seat]:  # 6(a) / 7(a)
            return self._end_round(rulings.REASON_WENT_OUT, seat)
        if self.n_players == 2:
            self.current = 1 - seat
            return self._two_player_turn_check()
        self.current = (seat + 1) % self.n_players
        return None

    def _show(self, seat: int, start: int, length: int) -> ScoutResult | None:
        seg = self._take_segment(seat, start, length)
        self._public.append({"event": "show", "round": self.round, "seat": seat, "start": start,
                             "length": length, "cards": [list(face_pair(f)) for f in seg]})
        self._put_show(seat, seg)
        return self._after_show(seat)

    def _scout_card(self, seat: int, end: int, flip: int, position: int) -> dict[str, Any]:
        """Section 5: move one end card of the Active Set into ``seat``'s hand; pay the chip."""
        face = self._active.pop(0 if end == 0 else -1) ^ flip
        self._hands[seat].insert(position, face)
        self._scouted[seat].insert(position, True)
        if self.n_players == 2:
            self._chips[seat] -= 1  # section 7: one of your own chips to the centre
        else:
            self._chips[self._owner] += 1  # section 5; section 1 [ruling]: unlimited supply
        public = self.config.public_scout_flip_and_position
        return {"round": self.round, "seat": seat, "end": end, "card": face >> 1,
                "flip": flip if public else None, "position": position if public else None,
                "top": FACE_VALUE[face] if public else None}

    def _scout(self, seat: int, play: ScoutPlay) -> ScoutResult | None:
        entry = self._scout_card(seat, play.end, play.flip, play.position)
        self._public.append({"event": "scout", **entry})
        if self.n_players == 2:
            return self._two_player_turn_check()  # section 7: the same player acts again
        nxt = (seat + 1) % self.n_players
        if nxt == self._owner:  # 6(b); [ruling] ROUND_END_B_WHEN_SET_EMPTIED: also with an empty set
            return self._end_round(rulings.REASON_UNBEATEN, self._owner)
        self.current = nxt
        return None

    def _scout_show(self, seat: int, play: ScoutPlay) -> ScoutResult | None:
        entry = self._scout_card(seat, play.end, play.flip, play.position)
        self._ss_used[seat] = True
        seg = self._take_segment(seat, play.start, play.length)
        entry.update(event="scout_show", start=play.start, length=play.length,
                     cards=[list(face_pair(f)) for f in seg])
        self._public.append(entry)
        self._put_show(seat, seg)
        return self._after_show(seat)

    def _two_player_turn_check(self) -> ScoutResult | None:
        """Section 7 (b) [ruling] TWO_PLAYER_STUCK_TESTED_EVERY_TURN: the player to act can neither Show
        nor Scout: the round ends and the owner of the Active Set is exempt."""
        seat = self.current
        if self._active and self._chips[seat] == 0 and not can_show(self.hand_values(seat), set_key(self._active)):
            return self._end_round(rulings.REASON_UNBEATEN, self._owner)
        return None

    def _end_round(self, reason: str, exempt: int) -> ScoutResult:
        """Score the round (section 8), then deal the next one or end the game (section 9)."""
        n = self.n_players
        scores = [len(self._piles[i]) + self._chips[i] - (0 if i == exempt else len(self._hands[i]))
                  for i in range(n)]
        self._round_scores.append(scores)
        self._round_end_reasons.append(reason)
        self._round_exempt.append(exempt)
        self.events.append({"event": "round_end", "round": self.round, "reason": reason, "exempt": exempt,
                            "scores": list(scores),
                            "hands": [[list(face_pair(f)) for f in h] for h in self._hands],
                            "scouted": self.scouted, "active": [list(face_pair(f)) for f in self._active],
                            "pile_sizes": self.pile_sizes(), "chips": self.chips})
        self._public.append({"event": "round_end", "round": self.round, "reason": reason, "exempt": exempt,
                             "scores": list(scores), "hand_sizes": self.hand_sizes()})
        self._legal = None
        if len(self._round_scores) >= self.config.n_rounds:
            self.game_over = True
            self.phase = PHASE_OVER
            self.events.append({"event": "game_end", "totals": self.totals, "winners": self.winners()})
            return ScoutResult(tuple(scores), reason, exempt, True)
        if n == 2:
            self._remember_round()
        self.round += 1
        self._deal_round()
        return ScoutResult(tuple(scores), reason, exempt, False)

    def _remember_round(self) -> None:
        """Section 10 [ruling]: hands are not shown at round end; each seat keeps the cards it was dealt or
        saw shown (every card that is not an unscouted card in another hand)."""
        shown = {f >> 1 for f in self._active}
        for p in self._piles:
            shown.update(p)
        for h, flags in zip(self._hands, self._scouted):
            shown.update(f >> 1 for f, s in zip(h, flags) if s)
        n = self.n_players
        for seat in range(n):
            hidden = {f >> 1 for o in range(n) if o != seat
                      for f, s in zip(self._hands[o], self._scouted[o]) if not s}
            self._earlier_seen[seat] = sorted(set(self._earlier_seen[seat]) | (set(self._round_cards) - hidden))
        self._earlier_shown = sorted(set(self._earlier_shown) | shown)

    # --- display ------------------------------------------------------------------------------------
    def describe(self, play: ScoutPlay) -> str:
        """``play`` in words with the cards it moves now, e.g. ``"Show 4 5 6 (positions 2-4)"``; plays
        that are not legal now are described without cards.

        Raises:
            TypeError: ``play`` is not a :class:`~seers_env.scout.plays.ScoutPlay`.
        """
        if not isinstance(play, ScoutPlay):
            raise TypeError(f"describe() takes a ScoutPlay, got {type(play).__name__}: {play!r}"[:300])
        if not self.is_legal(play) or play.kind in (KEEP, ROTATE, STOP):
            return play.describe()
        hand = list(self._hands[self.current])
        parts = []
        if play.kind in (SCOUT, SCOUT_SHOW):
            taken = self._active[0 if play.end == 0 else -1]
            face = taken ^ play.flip
            hand.insert(play.position, face)
            parts.append(f"scout {face_name(taken)} from the {'right' if play.end else 'left'}"
                         f"{', flipped to ' + face_name(face) if play.flip else ''}, into position {play.position}")
        if play.kind in (SHOW, SCOUT_SHOW):
            seg = hand[play.start:play.start + play.length]
            parts.append(f"show {' '.join(str(FACE_VALUE[f]) for f in seg)} (position"
                         f"{'s' if play.length > 1 else ''} {play.start}"
                         f"{'-' + str(play.start + play.length - 1) if play.length > 1 else ''})")
        text = ", then ".join(parts)
        prefix = "Scout & Show: " if play.kind == SCOUT_SHOW else ""
        return prefix + text[0].upper() + text[1:] if not prefix else prefix + text

    def __repr__(self) -> str:
        return (f"ScoutGame(players={self.n_players}, round={self.round + 1}/{self.config.n_rounds}, "
                f"phase={self.phase}, current=player_{self.current}, hand_sizes={self.hand_sizes()}, "
                f"active={[FACE_VALUE[f] for f in self._active]}, over={self.game_over})")

    # --- copies -------------------------------------------------------------------------------------
    def clone(self) -> ScoutGame:
        """An independent copy (generator state included) for search."""
        new = ScoutGame.__new__(ScoutGame)
        new.config = self.config
        # the copy builds its generator from this state on first use (a search rarely deals again)
        new._rng = None
        new._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state
        new.initial_rng_state = self.initial_rng_state
        new._origin = self._origin
        new.events = list(self.events)  # event dicts are never changed once logged
        new._public = list(self._public)
        new.round = self.round
        new._round_scores = [list(r) for r in self._round_scores]
        new._round_end_reasons = list(self._round_end_reasons)
        new._round_exempt = list(self._round_exempt)
        new.game_over = self.game_over
        new._earlier_seen = [list(s) for s in self._earlier_seen]
        new._earlier_shown = list(self._earlier_shown)
        new._set_aside = list(self._set_aside)
        new.first_player_seat = self.first_player_seat
        new.start_player = self.start_player
        new._hands = [list(h) for h in self._hands]
        new._scouted = [list(s) for s in self._scouted]
        new._active = list(self._active)
        new._owner = self._owner
        new._piles = [list(p) for p in self._piles]
        new._chips = list(self._chips)
        new._ss_used = list(self._ss_used)
        new._rotated = list(self._rotated)
        new._round_cards = list(self._round_cards)
        new.turns = self.turns
        new.phase = self.phase
        new.current = self.current
        new._legal = self._legal  # an immutable tuple
        return new

    # --- serialisation ------------------------------------------------------------------------------
    def _state_dict(self) -> dict[str, Any]:
        pairs = _pairs
        return {
            "round": self.round, "round_scores": self.round_scores,
            "round_end_reasons": self.round_end_reasons, "round_exempt": self.round_exempt,
            "first_player_seat": self.first_player_seat, "start_player": self.start_player,
            "phase": self.phase, "current": self.current, "turns": self.turns,
            "hands": [pairs(h) for h in self._hands], "scouted": self.scouted, "active": pairs(self._active),
            "active_owner": self._owner, "piles": self.piles, "chips": self.chips,
            "scout_show_used": self.scout_show_used, "rotated": self.rotated, "set_aside": pairs(self._set_aside),
            "round_cards": self.round_cards, "earlier_seen": self.earlier_seen,
            "earlier_shown": self.earlier_shown, "game_over": self.game_over,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable full state (mid-round included), generator state, origin and event logs.

        ``origin`` is ``None`` for a game dealt from ``initial_rng_state``, else the state dict of the
        position it was built from (:meth:`from_position`). Nothing in the dict is shared with the game.
        """
        d: dict[str, Any] = {"format": GAME_FORMAT_VERSION, "game": "scout", "config": self.config.to_dict(),
                             "rng_state": self._rng_state_copy(),
                             "initial_rng_state": copy.deepcopy(self.initial_rng_state),
                             "origin": self._origin_dict(),
                             "events": copy.deepcopy(self.events), "public_history": self.public_history}
        d.update(self._state_dict())
        return d

    def _origin_dict(self) -> dict[str, Any] | None:
        """The state dict of the position this game's log replays from (``None``: the round-1 deal)."""
        if self._origin is None:
            return None
        o = self._origin
        d = {"format": GAME_FORMAT_VERSION, "game": "scout", "config": o.config.to_dict(),
             "rng_state": o._rng_state_copy(), "initial_rng_state": copy.deepcopy(o.initial_rng_state),
             "origin": None, "events": [], "public_history": o.public_history}
        d.update(o._state_dict())
        return d

    @classmethod
    def from_dict(cls, d: Any) -> ScoutGame:
        """Restore a game saved with :meth:`to_dict` exactly (``from_dict(g.to_dict()).to_dict() ==
        g.to_dict()``), or build one from a hand-written state dict with the same fields.

        A dict whose ``origin`` is ``None`` and whose ``events`` do not begin with the round-1 deal is a
        hand-made position: the restored game's log replays from the position itself.

        Raises:
            TypeError: ``d`` or a field has the wrong type (the message names the field).
            ValueError: unknown format, missing or unknown fields, a value out of range, or an inconsistent
                state (cards missing or doubled, an invalid Active Set, ...), naming the field.
        """
        if not isinstance(d, dict):
            raise TypeError(f"a saved SCOUT game is a dict, got {type(d).__name__}")
        if d.get("format") != GAME_FORMAT_VERSION or d.get("game") != "scout":
            raise ValueError(f"format={d.get('format')!r}, game={d.get('game')!r} is not supported; expected "
                             f"format={GAME_FORMAT_VERSION}, game='scout'")
        missing = [k for k in _DICT_FIELDS if k not in d]
        if missing:
            raise ValueError(f"saved game lacks fields {missing}")
        unknown = sorted(set(d) - set(_DICT_FIELDS), key=str)
        if unknown:
            raise ValueError(f"saved game has unknown fields {unknown}; allowed: {list(_DICT_FIELDS)}")
        g = cls.__new__(cls)
        g.config = ScoutConfig.from_dict(d["config"])
        g._rng = _rng_from_state(d["rng_state"], "rng_state")
        g._rng_state = None
        _rng_from_state(d["initial_rng_state"], "initial_rng_state")
        g.initial_rng_state = copy.deepcopy(d["initial_rng_state"])
        for name in ("events", "public_history"):
            v = d[name]
            if not isinstance(v, list) or not all(isinstance(e, dict) and isinstance(e.get("event"), str)
                                                  for e in v):
                raise TypeError(f"{name} must be a list of dicts with an 'event' string")
        if too_deep([d["events"], d["public_history"]], MAX_EVENT_DEPTH + 1):
            raise ValueError(f"events/public_history nest more than {MAX_EVENT_DEPTH} levels deep (the engine's "
                             f"events nest 5)")
        try:
            json.dumps([d["events"], d["public_history"]])
            g.events = copy.deepcopy(d["events"])
            g._public = copy.deepcopy(d["public_history"])
        except (TypeError, ValueError) as e:
            raise TypeError(f"events/public_history must be JSON data: {e}") from None
        except RecursionError:
            raise ValueError("events/public_history nest too deeply: the engine's events are a few levels "
                             "deep") from None
        _load_state(g, d)
        origin = d["origin"]
        if origin is not None:
            if not isinstance(origin, dict):
                raise TypeError(f"origin must be None or a saved game dict, got {type(origin).__name__}")
            if origin.get("origin") is not None:
                raise ValueError("origin must not have an origin of its own (its 'origin' must be None)")
            g._origin = cls.from_dict(origin)
        elif g.events and g.events[0].get("event") == "deal" and g.events[0].get("round") == 0:
            g._origin = None
        else:
            g._origin = None
            g._legal = None
            g._origin = g._snapshot()
        g._legal = None
        return g

    def _snapshot(self) -> ScoutGame:
        """A frozen copy of this position to replay from (an empty private log; the public history kept)."""
        snap = self.clone()
        snap.events = []
        snap._origin = None
        return snap

    @classmethod
    def from_position(cls, config: ScoutConfig | None = None, *, hands: Sequence[Sequence[Sequence[int]]],
                      active: Sequence[Sequence[int]] = (), active_owner: int = -1, current: int = 0,
                      piles: Sequence[Sequence[int]] | None = None, chips: Sequence[int] | None = None,
                      scout_show_used: Sequence[bool] | None = None,
                      scouted: Sequence[Sequence[bool]] | None = None, round: int = 0,
                      round_scores: Sequence[Sequence[int]] | None = None, start_player: int | None = None,
                      set_aside: Sequence[Sequence[int]] | None = None, turns: int = 0,
                      seed: int | None = 0) -> ScoutGame:
        """A game in a hand-made play-phase position (rotation already decided: every seat kept).

        Args:
            config: the game's config (default 4 players).
            hands: per seat, ``(card id, top number)`` pairs left to right
                (:func:`seers_env.scout.cards.face_by_numbers` and :func:`~seers_env.scout.cards.face_pair`
                help build them).
            active: the Active Set as pairs; ``active_owner``: its owner / the last shower (-1: none).
            current: seat to act. piles: card ids per seat (default empty). chips: default the round-start
                chips (2 players 3, else 0). scout_show_used, scouted: default all False.
            round, round_scores: the round (0-based) and the completed rounds' scores (default zeros).
            start_player: default ``current``. turns: actions already made this round.
            set_aside: 2 players: the cards for a later round (default: every unused card of the 44,
                orientation 0, truncated to an even count, when another round follows; else none).
            seed: seed of the generator that deals later rounds.

        The cards in hands, Active Set and piles are this round's cards. Raises what :meth:`from_dict`
        raises.
        """
        config = config if config is not None else ScoutConfig()
        if not isinstance(config, ScoutConfig):
            raise TypeError(f"config must be a ScoutConfig, got {type(config).__name__}")
        n = config.n_players
        rng = np.random.default_rng(None if seed is None else _check_int("seed", seed, 0))
        done = _check_int("round", round, 0, config.n_rounds - 1)
        if not isinstance(hands, (list, tuple)):
            raise TypeError(f"hands must be a list of {n} hands, got {type(hands).__name__}")
        piles = [list(p) for p in piles] if piles is not None else [[] for _ in range(n)]
        used: list[int] = []
        try:
            for h in hands:
                used += [int(c) for c, _ in h]
            used += [int(c) for c, _ in active]
            for p in piles:
                used += [int(c) for c in p]
        except (TypeError, ValueError):
            raise TypeError("hands and active must hold (card id, top number) pairs and piles card ids") from None
        if set_aside is None:
            set_aside = []
            if n == 2 and round + 1 < config.n_rounds:
                rest = [c for c in SETUP[2].in_play if c not in set(used)]
                set_aside = [(c, face_pair(2 * c)[1]) for c in rest[:len(rest) - len(rest) % 2]]
        d = {
            "format": GAME_FORMAT_VERSION, "game": "scout", "config": config.to_dict(),
            "rng_state": rng.bit_generator.state, "initial_rng_state": rng.bit_generator.state,
            "origin": None, "events": [], "public_history": [],
            "round": round,
            "round_scores": [list(r) for r in round_scores] if round_scores is not None
            else [[0] * n for _ in range(done)],
            "round_end_reasons": [rulings.REASON_WENT_OUT] * done, "round_exempt": [-1] * done,
            "first_player_seat": 0,
            "start_player": current if start_player is None else start_player,
            "phase": PHASE_PLAY, "current": current, "turns": turns,
            "hands": [[list(x) for x in h] for h in hands],
            "scouted": [list(s) for s in scouted] if scouted is not None
            else [[False] * len(h) for h in hands],
            "active": [list(x) for x in active], "active_owner": active_owner, "piles": piles,
            "chips": list(chips) if chips is not None else [SETUP[n].chips_at_start] * n,
            "scout_show_used": list(scout_show_used) if scout_show_used is not None else [False] * n,
            "rotated": [False] * n, "set_aside": [list(x) for x in set_aside],
            "round_cards": sorted(used), "earlier_seen": [[] for _ in range(n)], "earlier_shown": [],
            "game_over": False,
        }
        return cls.from_dict(d)

    # --- logs ---------------------------------------------------------------------------------------
    def log(self) -> dict[str, Any]:
        """The replayable game log: config, initial generator state, origin position and every event."""
        return {"format": GAME_FORMAT_VERSION, "game": "scout", "config": self.config.to_dict(),
                "initial_rng_state": copy.deepcopy(self.initial_rng_state),
                "origin": self._origin_dict(),
                "events": copy.deepcopy(self.events)}

    @classmethod
    def replay(cls, log: Any, upto: int | None = None) -> ScoutGame:
        """Rebuild a game from :meth:`log`: deal again from the initial generator state (or restore the
        origin position) and re-apply every logged play (the first ``upto`` plays when given).

        Raises:
            TypeError / ValueError: a malformed log (naming the field), or logged deals that differ from
                the re-dealt ones (the log is not from this engine).
            IllegalPlayError: a logged play is illegal in the rebuilt state.
        """
        if not isinstance(log, dict):
            raise TypeError(f"a SCOUT log is a dict, got {type(log).__name__}")
        for key in ("config", "initial_rng_state", "origin", "events"):
            if key not in log:
                raise ValueError(f"log lacks field {key!r}")
        if log.get("format") != GAME_FORMAT_VERSION or log.get("game") != "scout":
            raise ValueError(f"log format={log.get('format')!r}, game={log.get('game')!r} is not supported")
        if upto is not None:
            _check_int("upto", upto, 0)
        events = log["events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise TypeError("log events must be a list of dicts")
        if log["origin"] is not None:
            game = cls.from_dict(log["origin"])
        else:
            game = cls.__new__(cls)
            game._start(ScoutConfig.from_dict(log["config"]),
                        _rng_from_state(log["initial_rng_state"], "initial_rng_state"))
        logged = [e.get("hands") for e in events if e.get("event") == "deal"]
        if log["origin"] is None and logged[:1] != [game.events[0]["hands"]]:
            raise ValueError("the logged first deal differs from the re-dealt one: the log does not match this engine")
        plays = [e for e in events if e.get("event") == "play"]
        for i, e in enumerate(plays[:upto]):
            try:
                play = ScoutPlay.from_list(e.get("play"))
            except (TypeError, ValueError) as err:
                raise type(err)(f"log events: play {i}: {err}") from None
            if game.game_over:
                raise ValueError(f"log events: play {i} ({e.get('play')!r}) comes after the end of the game; "
                                 f"a log holds {i} plays here")
            game.apply(play)
        dealt = [e["hands"] for e in game.events if e["event"] == "deal"]
        if dealt != logged[:len(dealt)]:
            raise ValueError("logged deals differ from the re-dealt ones: the log does not match this engine")
        return game


def _pairs(faces: Sequence[int]) -> list[list[int]]:
    return [list(face_pair(f)) for f in faces]


# --- strict loading -----------------------------------------------------------------------------------

def _list(name: str, v: Any, length: int | None = None) -> list:
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"{name} must be a list, got {type(v).__name__}: {v!r}")
    if length is not None and len(v) != length:
        raise ValueError(f"{name} must have {length} entries, got {len(v)}")
    return list(v)


def _face(name: str, v: Any) -> int:
    pair = _list(name, v, 2)
    card = _check_int(f"{name}[0] (card id)", pair[0], 0, N_CARDS - 1)
    top = _check_int(f"{name}[1] (top number)", pair[1], 1, 10)
    try:
        return face_of(card, top)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


def _load_state(g: ScoutGame, d: dict[str, Any]) -> None:
    """Set ``g``'s state fields from ``d``, checking every field (TypeError / ValueError naming it)."""
    cfg = g.config
    n = cfg.n_players
    setup = SETUP[n]
    in_play = set(setup.in_play)
    g.game_over = _check_bool("game_over", d["game_over"])
    phase = d["phase"]
    if not isinstance(phase, str):
        raise TypeError(f"phase={phase!r} must be one of {PHASES}")
    if phase not in PHASES:
        raise ValueError(f"phase={phase!r} is not one of {PHASES}")
    if (phase == PHASE_OVER) != g.game_over:
        raise ValueError(f"phase={phase!r} and game_over={g.game_over!r} disagree")
    g.phase = phase
    last = cfg.n_rounds - 1
    g.round = _check_int("round", d["round"], 0, last)
    done = cfg.n_rounds if g.game_over else g.round
    if g.game_over and g.round != last:
        raise ValueError(f"round={g.round} but a finished game ends in round {last}")
    rs = _list("round_scores", d["round_scores"], done)
    g._round_scores = [[_check_int(f"round_scores[{r}][{i}]", x, -N_CARDS, 10**6)
                        for i, x in enumerate(_list(f"round_scores[{r}]", row, n))] for r, row in enumerate(rs)]
    reasons = _list("round_end_reasons", d["round_end_reasons"], done)
    for r, x in enumerate(reasons):
        if x not in rulings.REASONS:
            raise ValueError(f"round_end_reasons[{r}]={x!r} is not one of {rulings.REASONS}")
    g._round_end_reasons = list(reasons)
    g._round_exempt = [_check_int(f"round_exempt[{r}]", x, -1, n - 1)
                       for r, x in enumerate(_list("round_exempt", d["round_exempt"], done))]
    g.first_player_seat = _check_int("first_player_seat", d["first_player_seat"], 0, n - 1)
    g.start_player = _check_int("start_player", d["start_player"], 0, n - 1)
    g.current = _check_int("current", d["current"], 0, n - 1)
    g.turns = _check_int("turns", d["turns"], 0, cfg.max_turns_per_round - (0 if g.game_over else 1))
    hands_in = _list("hands", d["hands"], n)
    g._hands = [[_face(f"hands[{s}][{i}]", x) for i, x in enumerate(_list(f"hands[{s}]", h))]
                for s, h in enumerate(hands_in)]
    sc = _list("scouted", d["scouted"], n)
    g._scouted = [[_check_bool(f"scouted[{s}][{i}]", x)
                   for i, x in enumerate(_list(f"scouted[{s}]", row, len(g._hands[s])))] for s, row in enumerate(sc)]
    g._active = [_face(f"active[{i}]", x) for i, x in enumerate(_list("active", d["active"]))]
    try:
        strength_key([FACE_VALUE[f] for f in g._active])
    except ValueError:
        raise ValueError(f"active={d['active']!r} is not a valid set or run (section 4)") from None
    g._owner = _check_int("active_owner", d["active_owner"], -1, n - 1)
    if g._active and g._owner < 0:
        raise ValueError("active_owner=-1 but there is an Active Set: name its owner (a seat)")
    g._piles = [[_check_int(f"piles[{s}][{i}]", c, 0, N_CARDS - 1) for i, c in enumerate(_list(f"piles[{s}]", p))]
                for s, p in enumerate(_list("piles", d["piles"], n))]
    max_chips = setup.chips_at_start if n == 2 else 10**6
    g._chips = [_check_int(f"chips[{s}]", c, 0, max_chips) for s, c in enumerate(_list("chips", d["chips"], n))]
    g._ss_used = [_check_bool(f"scout_show_used[{s}]", x)
                  for s, x in enumerate(_list("scout_show_used", d["scout_show_used"], n))]
    if n == 2 and any(g._ss_used):
        raise ValueError("scout_show_used must be all False in 2 players (section 7: not used)")
    rot = _list("rotated", d["rotated"], n)
    for s, x in enumerate(rot):
        if x is not None:
            _check_bool(f"rotated[{s}]", x)
        if phase == PHASE_ROTATE and (x is None) != (s >= g.current):
            raise ValueError(f"rotated[{s}]={x!r}: in the rotation phase seats before current={g.current} have "
                             f"decided (True/False) and the others not (None)")
        if phase == PHASE_PLAY and x is None:
            raise ValueError(f"rotated[{s}]=None but the rotation phase is over (use True or False)")
    g._rotated = [None if x is None else bool(x) for x in rot]
    if phase == PHASE_ROTATE and (g.turns or g._active or g._owner >= 0):
        raise ValueError("in the rotation phase no turn has been played: turns=0, active=[], active_owner=-1")
    g._set_aside = [_face(f"set_aside[{i}]", x) for i, x in enumerate(_list("set_aside", d["set_aside"]))]
    if n != 2 and g._set_aside:
        raise ValueError("set_aside must be empty with 3-5 players (every card is dealt)")
    if n == 2 and len(g._set_aside) % 2:
        raise ValueError(f"set_aside has {len(g._set_aside)} cards; it is dealt half to each player: use an even count")
    if n == 2 and not g.game_over:
        later = g.round + 1 < cfg.n_rounds  # section 7: round 2 deals exactly the cards set aside
        if later and not g._set_aside:
            raise ValueError(f"set_aside is empty but round {g.round + 2} of {cfg.n_rounds} is dealt from it "
                             f"(section 7): give an even number (2..22) of cards")
    rc = [_check_int(f"round_cards[{i}]", c, 0, N_CARDS - 1)
          for i, c in enumerate(_list("round_cards", d["round_cards"]))]
    if rc != sorted(set(rc)):
        raise ValueError("round_cards must be sorted card ids without repeats")
    g._round_cards = rc
    placed = [f >> 1 for h in g._hands for f in h] + [f >> 1 for f in g._active] + [c for p in g._piles for c in p]
    if sorted(placed) != rc:
        doubled = sorted({c for c in placed if placed.count(c) > 1})
        raise ValueError(f"the cards in hands, active and piles must be exactly round_cards once each "
                         f"(doubled: {doubled}, missing: {sorted(set(rc) - set(placed))}, "
                         f"extra: {sorted(set(placed) - set(rc))})")
    aside = [f >> 1 for f in g._set_aside]
    if len(set(aside)) != len(aside) or set(aside) & set(rc):
        raise ValueError("set_aside cards must be distinct and not among round_cards")
    outside = sorted((set(rc) | set(aside)) - in_play)
    if outside:
        raise ValueError(f"cards {outside} are not in play with {n} players (section 2 removes {list(setup.removed)})")
    es = _list("earlier_seen", d["earlier_seen"], n)
    g._earlier_seen = [[_check_int(f"earlier_seen[{s}][{i}]", c, 0, N_CARDS - 1)
                        for i, c in enumerate(_list(f"earlier_seen[{s}]", row))] for s, row in enumerate(es)]
    g._earlier_shown = [_check_int(f"earlier_shown[{i}]", c, 0, N_CARDS - 1)
                        for i, c in enumerate(_list("earlier_shown", d["earlier_shown"]))]
    rows = [("earlier_shown", g._earlier_shown)] + [(f"earlier_seen[{s}]", r) for s, r in enumerate(g._earlier_seen)]
    for name, row in rows:
        if row != sorted(set(row)) or set(row) & set(rc) or set(row) - in_play:
            raise ValueError(f"{name} must be sorted distinct card ids in play and not dealt this round")
    if not g.game_over and phase == PHASE_PLAY and not g._hands[g.current]:
        raise ValueError(f"hands[{g.current}] is empty but that seat is to act")
    if not g.game_over and any(not h for h in g._hands):
        raise ValueError("a hand is empty in a round that has not ended (section 6(a) ends it at once)")
    if not g.game_over and phase == PHASE_PLAY and g._owner == g.current:
        raise ValueError(f"current={g.current} is active_owner: the turn never comes back to the last shower "
                         f"before someone else shows or the round ends (sections 5, 6(b), 7)")
    if (not g.game_over and phase == PHASE_PLAY and n == 2 and g._active and g._chips[g.current] == 0
            and not can_show([FACE_VALUE[f] for f in g._hands[g.current]], set_key(g._active))):
        raise ValueError(f"player_{g.current} to act has chips=0 and no show beats active={d['active']!r}: "
                         f"section 7(b) has ended this round already")
