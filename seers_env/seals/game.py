"""The Seals game state and its transitions (rules ``shared/rules/seals.md``, sections 2 to 6).

:class:`SealsGame` follows the shared protocol (:class:`seers_env.protocol.GameState`)::

    game = SealsGame(SealsConfig(n_players=3), seed=7)
    while not game.game_over:
        game.apply(game.legal_plays()[0])
    game.totals, game.winners()

**A round** (section 2): the 55 cards are shuffled into the draw pile (``pile[0]`` is the top card);
hands and the face-up row start empty. **A turn** (section 3): the row is refilled from the top of the
pile to 4 cards (:data:`~seers_env.seals.rulings.ROW_SIZE`); the player then takes every face-up card of
one colour or one symbol (``phase == "take"``). If the hand then holds a set, the same player chooses a
declaration (``phase == "declare"``; "declare nothing" is always legal, section 4 [ruling]); any set laid
down wins the round at once (section 5). Otherwise the next seat that plays the round (clockwise,
increasing index) takes its turn. A turn that finds no face-up card and an empty pile ends the round
with no winner (section 3 [ruling]); so does the cap ``max_turns_per_round`` (section 5 [ruling]).

**Rounds and Marks** (sections 5, 6): each round's score is the Marks each seat won in it (only the
declarer scores). The round counter holds ``n_rounds`` Marks; every round before the tie-breaks takes one
(a round without a winner too). After a round a seat with 5 Marks or more wins at once; when the counter
is empty the most Marks wins; a tie makes the tied seats play a tie-break round alone (``playing``), at
most ``max_tie_break_rounds`` times, then the tie is a shared win. ``round`` counts every round played,
tie-breaks included.

**Legal plays** (:meth:`SealsGame.legal_plays`): the order of :mod:`seers_env.seals.moves` (ascending
action id). **Determinism**: every shuffle and the first player come from the game's one
``numpy.random.Generator``; :meth:`SealsGame.to_dict` / :meth:`SealsGame.from_dict` restore a game exactly
and :meth:`SealsGame.replay` rebuilds it from :meth:`SealsGame.log`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dealt_game import GAME_FORMAT_VERSION, ConfigDict, DealtGame, check_bool, check_int, check_list
from ..dealt_game import IllegalPlayError as AnyIllegalPlayError
from ..dealt_game import GameOverError, placements  # noqa: F401 (names of this module; GameSpec.placement)
from . import rulings
from .cards import N_CARDS, N_COLOURS, N_SYMBOLS, card_name
from .moves import declare_plays, feasible, has_set, mask_marks, take_plays, taken_cards
from .plays import DECLARE, N_ACTIONS, N_DECLARATIONS, SealsPlay
from .rulings import MARKS_TO_WIN, REASON_DECLARED, REASON_EXHAUSTED, REASON_TRUNCATED, REASONS, ROW_SIZE

PHASE_TAKE, PHASE_DECLARE, PHASE_OVER = "take", "declare", "over"
PHASES = (PHASE_TAKE, PHASE_DECLARE, PHASE_OVER)


class IllegalPlayError(AnyIllegalPlayError):
    """A play that breaks a rule (the message names the play and the rule); the game is unchanged."""

    play_type = SealsPlay


@dataclass(frozen=True)
class SealsConfig(ConfigDict):
    """Parameters of a Seals game.

    Attributes:
        n_players: 2..4 (section 1 [ruling]; default 3).
        n_rounds: Marks in the round counter, i.e. rounds before tie-breaks (section 2; default 5).
        max_tie_break_rounds: tie-break rounds at most (section 6 [ruling]; default 3; 0: ties are shared
            at once).
        max_turns_per_round: round truncation cap in takes (section 5 [ruling]; default 500).

    Raises:
        TypeError: a field of the wrong type (bools are not ints). ValueError: a value out of range.
    """

    n_players: int = rulings.DEFAULT_PLAYERS
    n_rounds: int = rulings.DEFAULT_ROUND_COUNTER
    max_tie_break_rounds: int = rulings.DEFAULT_MAX_TIE_BREAK_ROUNDS
    max_turns_per_round: int = rulings.DEFAULT_MAX_TURNS_PER_ROUND

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_players",
                           check_int("n_players", self.n_players, rulings.MIN_PLAYERS, rulings.MAX_PLAYERS))
        object.__setattr__(self, "n_rounds", check_int("n_rounds", self.n_rounds, 1, 100))
        object.__setattr__(self, "max_tie_break_rounds",
                           check_int("max_tie_break_rounds", self.max_tie_break_rounds, 0, 100))
        object.__setattr__(self, "max_turns_per_round",
                           check_int("max_turns_per_round", self.max_turns_per_round, 1, 10**6))


@dataclass(frozen=True)
class SealsResult:
    """What :meth:`SealsGame.apply` did.

    Attributes:
        round_scores: the Marks of the round this play ended (one per seat), or ``None``.
        round_end_reason: one of :data:`~seers_env.seals.rulings.REASONS` when the play ended a round.
        winner: the round's declarer (-1: none).
        game_over: whether the game has ended.
    """

    round_scores: tuple[int, ...] | None = None
    round_end_reason: str | None = None
    winner: int = -1
    game_over: bool = False

    @property
    def round_over(self) -> bool:
        return self.round_scores is not None


_NOTHING = SealsResult()

class SealsGame(DealtGame):
    """A whole game of Seals (module docstring); the generator, seed, logs and saved-game envelope are
    :class:`~seers_env.dealt_game.DealtGame`'s (Seals keeps no separate public history: every event is
    public but the pile order).

    Args:
        config: a :class:`SealsConfig` (default: 3 players).
        seed: seed of the game's ``numpy.random.default_rng`` (non-negative int or ``None``).

    Raises:
        TypeError: ``config`` is not a :class:`SealsConfig`, or ``seed`` is not an int/None.
        ValueError: a negative seed.

    Public state (list-valued attributes are fresh copies): ``config``, ``n_players``, ``round``,
    ``phase``, ``current``, ``start_player``, ``turns``, ``row`` (face-up cards in the order turned),
    ``hands`` (sorted card ids per seat, public), ``pile_size``, ``pile_cards`` (sorted: which cards are
    in the pile is public, their order is not), ``counter`` (Marks left in the round counter),
    ``tie_breaks``, ``playing``, ``round_scores``, ``round_end_reasons``, ``totals``, ``game_over``.
    """

    #: registry name (:data:`seers_env.games.GAMES`); implements :class:`seers_env.protocol.GameState`
    game_name = "seals"
    game_title = "Seals"
    config_type = SealsConfig
    play_type = SealsPlay
    illegal_play_error = IllegalPlayError
    has_public_history = False
    state_fields = ("round", "round_scores", "round_end_reasons", "counter", "tie_breaks", "playing",
                    "first_player_seat", "start_player", "phase", "current", "turns", "pile", "row", "hands",
                    "game_over")

    def _start(self, config: SealsConfig, rng: np.random.Generator) -> None:
        """Begin a game shuffled from ``rng`` (its current state becomes ``initial_rng_state``)."""
        self._begin(config, rng)
        self.round = 0
        self._round_scores: list[list[int]] = []
        self._reasons: list[str] = []
        self.counter = config.n_rounds
        self.tie_breaks = 0
        n = config.n_players
        self._playing = [True] * n
        self.game_over = False
        self.first_player_seat = int(rng.integers(n))  # section 2: a random first player
        self._legal: tuple[SealsPlay, ...] | None = None
        self._deal_round(self.first_player_seat)

    # --- read-only state ------------------------------------------------------------------------------
    @property
    def hands(self) -> list[list[int]]:
        """Per seat, the card ids in hand, sorted (public, section 3 [ruling])."""
        return [list(h) for h in self._hands]

    @property
    def row(self) -> list[int]:
        """The face-up cards, in the order they were turned."""
        return list(self._row)

    @property
    def pile_size(self) -> int:
        return len(self._pile)

    @property
    def pile_cards(self) -> list[int]:
        """The cards in the draw pile, sorted (its order is hidden)."""
        return sorted(self._pile)

    @property
    def pile(self) -> list[int]:
        """The draw pile, top card first (hidden information: for tests and full-information critics)."""
        return list(self._pile)

    @property
    def playing(self) -> list[bool]:
        """Per seat, whether it plays this round (False: sits out a tie-break round, section 6)."""
        return list(self._playing)

    @property
    def round_end_reasons(self) -> list[str]:
        return list(self._reasons)

    @property
    def round_winners(self) -> list[int]:
        """Per completed round: the declarer, or -1."""
        return [next((s for s, x in enumerate(r) if x > 0), -1) for r in self._round_scores]

    @property
    def marks(self) -> list[int]:
        """Same as :attr:`totals` (the game's term)."""
        return self.totals

    @property
    def truncated(self) -> bool:
        return REASON_TRUNCATED in self._reasons

    # --- rounds -----------------------------------------------------------------------------------------
    def _next_playing(self, seat: int) -> int:
        n = self.n_players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self._playing[s]:
                return s
        raise RuntimeError("no seat plays this round")  # never: at least two seats play

    def _deal_round(self, start: int) -> None:
        """Section 2: shuffle all 55 cards into the pile, empty hands and row; ``start`` begins."""
        self._pile = self.rng.permutation(N_CARDS).tolist()
        self._row: list[int] = []
        self._hands: list[list[int]] = [[] for _ in range(self.n_players)]
        self.turns = 0
        self.start_player = start
        self.current = start
        self.phase = PHASE_TAKE
        self._legal = None
        self.events.append({"event": "deal", "round": self.round, "pile": list(self._pile),
                            "start_player": start, "playing": list(self._playing)})
        self._begin_turn()

    def _begin_turn(self) -> SealsResult | None:
        """Section 3.1: refill the row; nothing to take ends the round (section 3 [ruling])."""
        while len(self._row) < ROW_SIZE and self._pile:
            self._row.append(self._pile.pop(0))
        if not self._row:
            return self._end_round(REASON_EXHAUSTED)
        return None

    def _end_turn(self) -> SealsResult:
        if self.turns >= self.config.max_turns_per_round:  # section 5 [ruling]
            return self._end_round(REASON_TRUNCATED)
        self.current = self._next_playing(self.current)
        self.phase = PHASE_TAKE
        return self._begin_turn() or _NOTHING

    def _end_round(self, reason: str, winner: int = -1, marks: int = 0) -> SealsResult:
        """Score the round (section 5), then deal the next one or end the game (section 6)."""
        n = self.n_players
        scores = [0] * n
        if winner >= 0:
            scores[winner] = marks  # rulings.MARK_SUPPLY_UNLIMITED
        self._round_scores.append(scores)
        self._reasons.append(reason)
        if self.tie_breaks == 0:  # rulings.NO_WINNER_ROUND_USES_COUNTER; TIE_BREAK_USES_COUNTER
            self.counter -= 1
        self.events.append({"event": "round_end", "round": self.round, "reason": reason, "winner": winner,
                            "scores": list(scores), "hands": self.hands, "row": list(self._row),
                            "pile_size": len(self._pile)})
        self._legal = None
        totals = self.totals
        best = max(totals)
        tied = [s for s in range(n) if totals[s] == best]
        over = best >= MARKS_TO_WIN or (self.counter == 0 and (
            len(tied) == 1 or self.tie_breaks >= self.config.max_tie_break_rounds))
        if over:
            self.game_over = True
            self.phase = PHASE_OVER
            self.events.append({"event": "game_end", "totals": totals, "winners": self.winners()})
            return SealsResult(tuple(scores), reason, winner, True)
        if self.counter == 0:  # section 6: the tied seats play a tie-break round among themselves
            self.tie_breaks += 1
            self._playing = [totals[s] == best for s in range(n)]
        self.round += 1
        start = (self.start_player + rulings.START_PLAYER_STEP) % n
        if not self._playing[start]:
            start = self._next_playing(start)
        self._deal_round(start)
        return SealsResult(tuple(scores), reason, winner, False)

    # --- legal plays --------------------------------------------------------------------------------
    def _legal_tuple(self) -> tuple[SealsPlay, ...]:
        if self._legal is None:
            if self.game_over:
                self._legal = ()
            elif self.phase == PHASE_TAKE:
                self._legal = tuple(take_plays(self._row))
            else:
                self._legal = tuple(declare_plays(self._hands[self.current]))
        return self._legal

    def legal_plays(self) -> list[SealsPlay]:
        """Every legal play of the seat to act, ascending action id; a new list (``[]`` once over)."""
        return list(self._legal_tuple())

    def legal_actions(self) -> list[int]:
        """The action id (:attr:`SealsPlay.action`) of every legal play, ascending, as :meth:`legal_plays`
        lists them; a new list (``[]`` once over). A take's ids come straight from the row (section 3.2:
        the colours ``0..4``, then ``5 +`` the symbols of its cards), without building the plays."""
        if self.phase == PHASE_TAKE and self._legal is None and not self.game_over:
            row = self._row
            return sorted({c // N_SYMBOLS for c in row} | {N_COLOURS + c % N_SYMBOLS for c in row})
        return [play.action for play in self._legal_tuple()]

    def legal_mask(self) -> np.ndarray:
        """int8 ``(N_ACTIONS,)``: 1 at the action id of every legal play."""
        m = np.zeros(N_ACTIONS, np.int8)
        for p in self._legal_tuple():
            m[p.action] = 1
        return m

    def _why_illegal(self, play: SealsPlay) -> str | None:
        why = play.malformed()
        if why is not None:
            return f"malformed play: {why} (see seers_env.seals.plays.SealsPlay)"
        seat = self.current
        if self.phase == PHASE_TAKE:
            if play.kind == DECLARE:
                return f"player_{seat} must first take face-up cards (section 3: take, then declare)"
            if not taken_cards(self._row, play):
                return (f"no face-up card has that {'colour' if play.kind == 0 else 'symbol'} (section 3.2: "
                        f"choose a colour or symbol in the row {[card_name(c) for c in self._row]})")
            return None
        if play.kind != DECLARE:
            return f"player_{seat} has taken this turn; now declare or declare nothing (section 3.3)"
        hand = self._hands[seat]
        counts = [0] * N_SYMBOLS
        for c in hand:
            counts[c % N_SYMBOLS] += 1
        if not feasible(play.value, counts):
            return (f"the hand cannot lay down those sets together (section 4: four cards of a number, four "
                    f"Coins, a 1-10 run; each card in one set, so {play.runs} run(s) need {play.runs} cards of "
                    f"every number 1-10, plus 4 of a number also laid down as four of a kind; the hand holds "
                    f"{counts} per symbol 1..10, Coin)")
        return None

    # --- transitions ----------------------------------------------------------------------------------
    def apply(self, play: SealsPlay) -> SealsResult:
        """Make ``play`` for the seat to act.

        Raises:
            TypeError: ``play`` is not a :class:`~seers_env.seals.plays.SealsPlay`.
            GameOverError: the game has ended.
            IllegalPlayError: the play breaks a rule (named in the message); nothing changes.
        """
        self._check_play(play)
        return self._make(SealsPlay(int(play.kind), int(play.value)))

    def apply_legal(self, play: SealsPlay) -> SealsResult:
        """:meth:`apply` of a play taken from :meth:`legal_plays` (or of int fields whose action id is in
        :meth:`legal_actions`), without checking it again: the batch API's path
        (:mod:`seers_env.seals.vector`), which checks each action against the legal ids first. The same
        result and the same game afterwards as :meth:`apply`; anything else is undefined (use :meth:`apply`)."""
        return self._make(play)

    def _make(self, play: SealsPlay) -> SealsResult:
        """The transition of a legal ``play`` of int fields (rules sections 3 to 6)."""
        seat = self.current
        self.events.append({"event": "play", "round": self.round, "seat": seat, "play": play.to_list()})
        self._legal = None
        if play.kind == DECLARE:
            if play.value == 0:  # section 4 [ruling]: declining
                return self._end_turn()
            return self._end_round(REASON_DECLARED, seat, mask_marks(play.value))
        taken = taken_cards(self._row, play)
        self._row = [c for c in self._row if c not in taken]
        self._hands[seat] = sorted(self._hands[seat] + taken)
        self.turns += 1
        if has_set(self._hands[seat]):  # rulings.DECLARE_ASKED_ONLY_WITH_A_SET
            self.phase = PHASE_DECLARE
            return _NOTHING
        return self._end_turn()

    # --- display --------------------------------------------------------------------------------------
    def describe(self, play: SealsPlay) -> str:
        """``play`` in words, naming the cards a legal take picks up now."""
        if not isinstance(play, SealsPlay):
            return repr(play)
        text = play.describe()
        if self.is_legal(play) and play.is_take:
            text += ": " + ", ".join(card_name(c) for c in taken_cards(self._row, play))
        return text

    def __repr__(self) -> str:
        return (f"SealsGame(players={self.n_players}, round={self.round + 1}, phase={self.phase}, "
                f"current=player_{self.current}, row={[card_name(c) for c in self._row]}, "
                f"marks={self.totals}, over={self.game_over})")

    # --- copies -----------------------------------------------------------------------------------------
    def clone(self) -> SealsGame:
        """An independent copy (generator state included) for search."""
        new = self._new_clone()
        new._round_scores = [list(r) for r in self._round_scores]
        new._reasons = list(self._reasons)
        new._playing = list(self._playing)
        new._pile = list(self._pile)
        new._row = list(self._row)
        new._hands = [list(h) for h in self._hands]
        return new

    # --- serialisation ----------------------------------------------------------------------------------
    def _state_dict(self) -> dict[str, Any]:
        return {"round": self.round, "round_scores": self.round_scores, "round_end_reasons": self.round_end_reasons,
                "counter": self.counter, "tie_breaks": self.tie_breaks, "playing": self.playing,
                "first_player_seat": self.first_player_seat, "start_player": self.start_player,
                "phase": self.phase, "current": self.current, "turns": self.turns, "pile": self.pile,
                "row": self.row, "hands": self.hands, "game_over": self.game_over}

    @classmethod
    def from_dict(cls, d: Any) -> SealsGame:
        """Restore a game saved with :meth:`to_dict` exactly, or build one from a hand-written state dict
        with the same fields (its log then replays from that position).

        Raises:
            TypeError: ``d`` or a field has the wrong type (the message names the field).
            ValueError: unknown format, missing or unknown fields, a value out of range or an inconsistent
                state (cards missing or doubled, a row not refilled, ...), naming the field.
        """
        cls._check_saved_envelope(d)
        g = cls.__new__(cls)
        g.config = SealsConfig.from_dict(d["config"])
        g._load_generators(d)
        g._load_event_logs(d, event_depth=4)
        _load_state(g, d)
        g._load_origin(d["origin"])
        return g

    @classmethod
    def from_position(cls, config: SealsConfig | None = None, *, row, hands, pile=None, current: int = 0,
                      phase: str = PHASE_TAKE, turns: int = 0, round_scores=None, counter: int | None = None,
                      tie_breaks: int = 0, playing=None, start_player: int | None = None,
                      seed: int | None = 0) -> SealsGame:
        """A game in a hand-made position.

        Args:
            config: the game's config (default 3 players).
            row: the face-up cards (card ids); hands: per seat, card ids.
            pile: the draw pile, top first (default: every other card, ascending).
            current, phase (``"take"`` or ``"declare"``), turns: the seat to act, its decision, the takes
                made this round. round_scores: completed rounds' Marks (default none); counter: Marks left
                in the round counter (default ``n_rounds`` minus the completed rounds); tie_breaks,
                playing: tie-break state (default none, every seat plays); start_player: default
                ``current``. seed: the generator that shuffles later rounds.

        Raises what :meth:`from_dict` raises for an inconsistent position.
        """
        config = config if config is not None else SealsConfig()
        if not isinstance(config, SealsConfig):
            raise TypeError(f"config must be a SealsConfig, got {type(config).__name__}")
        n = config.n_players
        rng = cls._seeded_rng(seed)
        rs = [list(r) for r in round_scores] if round_scores is not None else []
        if pile is None:
            try:
                used = {int(c) for c in row} | {int(c) for h in hands for c in h}
            except (TypeError, ValueError):
                raise TypeError("row and hands must hold card ids 0..54") from None
            pile = [c for c in range(N_CARDS) if c not in used]
        d = {"format": GAME_FORMAT_VERSION, "game": "seals", "config": config.to_dict(),
             "rng_state": rng.bit_generator.state, "initial_rng_state": rng.bit_generator.state,
             "origin": None, "events": [], "round": len(rs), "round_scores": rs,
             "round_end_reasons": [REASON_DECLARED if any(x > 0 for x in r) else REASON_EXHAUSTED for r in rs],
             "counter": config.n_rounds - len(rs) if counter is None else counter, "tie_breaks": tie_breaks,
             "playing": [True] * n if playing is None else list(playing), "first_player_seat": 0,
             "start_player": current if start_player is None else start_player, "phase": phase,
             "current": current, "turns": turns, "pile": list(pile), "row": list(row),
             "hands": [sorted(h) for h in hands], "game_over": False}
        return cls.from_dict(d)

    # --- logs -------------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, log: Any, upto: int | None = None) -> SealsGame:
        """Rebuild a game from :meth:`~seers_env.dealt_game.DealtGame.log` (the first ``upto`` plays when
        given).

        Raises:
            TypeError / ValueError: a malformed log (naming the field), or logged deals that differ from
                the re-dealt ones. IllegalPlayError: a logged play is illegal in the rebuilt state.
        """
        events = cls._check_log(log, upto)
        game = cls._replay_origin(log)
        game._replay_plays(events, upto)
        game._check_replayed(events, "pile")
        return game


# --- strict loading ---------------------------------------------------------------------------------------

def _cards(name: str, v: Any) -> list[int]:
    return [check_int(f"{name}[{i}]", c, 0, N_CARDS - 1) for i, c in enumerate(check_list(name, v))]


#: Sections 3.3 and 4: the Marks one declaration can score (disjoint sets from the 55 cards: 1 to 23; at most
#: five runs and four Coins, or a run, four Coins and ten four-of-a-kinds for 22).
DECLARABLE_MARKS = frozenset(mask_marks(v) for v in range(1, N_DECLARATIONS) if feasible(v, [5] * N_SYMBOLS))


def _replay_rounds(g: SealsGame, n_rounds: int) -> list[bool]:
    """Walk the completed rounds as :meth:`SealsGame._end_round` does (section 6); raise ValueError if the
    game ended before its last completed round or a seat sitting out a tie-break scored. Returns who plays
    the last tie-break (all seats without one)."""
    n = g.n_players
    counter, tie_breaks, playing, totals = n_rounds, 0, [True] * n, [0] * n
    for k, row in enumerate(g._round_scores):
        if any(x > 0 and not playing[s] for s, x in enumerate(row)):
            raise ValueError(f"round_scores[{k}]={row}: only the seats tied for most Marks {playing} play that "
                             f"tie-break round (section 6)")
        if row and max(row) > 0 and max(row) not in DECLARABLE_MARKS:
            raise ValueError(f"round_scores[{k}]={row}: one declaration scores one of "
                             f"{sorted(DECLARABLE_MARKS)} Marks (section 4)")
        if tie_breaks == 0:
            counter -= 1
        totals = [t + x for t, x in zip(totals, row)]
        best = max(totals)
        if best >= MARKS_TO_WIN or (counter == 0 and (totals.count(best) == 1
                                                       or tie_breaks >= g.config.max_tie_break_rounds)):
            if k < len(g._round_scores) - 1 or not g.game_over:
                raise ValueError(f"round_scores: the game ended after round {k + 1} (section 6: totals "
                                 f"{totals}), yet it goes on")
            break
        if counter == 0:
            tie_breaks += 1
            playing = [t == best for t in totals]
    return playing


def _load_state(g: SealsGame, d: dict[str, Any]) -> None:
    """Set ``g``'s state from ``d``, checking every field (TypeError / ValueError naming it)."""
    cfg = g.config
    n = cfg.n_players
    g._load_phase(d, PHASES)
    phase = g.phase
    g.round = check_int("round", d["round"], 0, cfg.n_rounds + cfg.max_tie_break_rounds - 1)
    done = g.round + (1 if g.game_over else 0)
    rs = check_list("round_scores", d["round_scores"], done)
    g._round_scores = [[check_int(f"round_scores[{r}][{i}]", x, 0, 10**6)
                        for i, x in enumerate(check_list(f"round_scores[{r}]", row, n))] for r, row in enumerate(rs)]
    reasons = check_list("round_end_reasons", d["round_end_reasons"], done)
    for r, x in enumerate(reasons):
        if not isinstance(x, str) or x not in REASONS:
            raise ValueError(f"round_end_reasons[{r}]={x!r} is not one of {REASONS}")
        positive = sum(v > 0 for v in g._round_scores[r])
        if positive > 1 or (positive == 1) != (x == REASON_DECLARED):
            raise ValueError(f"round_scores[{r}]={g._round_scores[r]} and reason {x!r} disagree (section 5: only "
                             f"the declarer scores, and only a declared round has a winner)")
    g._reasons = list(reasons)
    g.tie_breaks = check_int("tie_breaks", d["tie_breaks"], 0, cfg.max_tie_break_rounds)
    g.counter = check_int("counter", d["counter"], 0, cfg.n_rounds)
    regular = done if g.tie_breaks == 0 else cfg.n_rounds
    expected_done = regular if g.tie_breaks == 0 else cfg.n_rounds + g.tie_breaks - (0 if g.game_over else 1)
    if g.counter != cfg.n_rounds - regular or done != expected_done:
        raise ValueError(f"counter={g.counter}, tie_breaks={g.tie_breaks} and {done} completed rounds disagree "
                         f"(n_rounds={cfg.n_rounds}: every round before the tie-breaks takes one Mark)")
    totals = [sum(r[i] for r in g._round_scores) for i in range(n)]
    if not g.game_over and max(totals) >= MARKS_TO_WIN:
        raise ValueError(f"totals {totals}: a seat has {MARKS_TO_WIN} Marks, so the game is over (section 6)")
    if not g.game_over and g.tie_breaks == 0 and g.counter == 0:
        raise ValueError("counter=0 with no tie-break: the game would have ended or gone to a tie-break")
    if g.game_over:
        best = max(totals)
        ended = best >= MARKS_TO_WIN or (g.counter == 0 and (
            totals.count(best) == 1 or g.tie_breaks >= cfg.max_tie_break_rounds))
        if not ended:
            raise ValueError(f"game_over=True but the game has not ended (section 6): totals {totals}, "
                             f"counter={g.counter}, tie_breaks={g.tie_breaks}; it ends when a seat has "
                             f"{MARKS_TO_WIN} Marks, or the counter is empty with one leader or after "
                             f"max_tie_break_rounds={cfg.max_tie_break_rounds} tie-breaks")
    playing = check_list("playing", d["playing"], n)
    g._playing = [check_bool(f"playing[{s}]", x) for s, x in enumerate(playing)]
    if g.tie_breaks == 0 and not all(g._playing):
        raise ValueError("playing must be all True outside tie-break rounds")
    tied = _replay_rounds(g, cfg.n_rounds)
    if g.tie_breaks > 0:
        if g._playing != tied or sum(g._playing) < 2:
            raise ValueError(f"playing={g._playing} must mark exactly the seats tied for most Marks {totals}")
    g.first_player_seat = check_int("first_player_seat", d["first_player_seat"], 0, n - 1)
    g.start_player = check_int("start_player", d["start_player"], 0, n - 1)
    g.current = check_int("current", d["current"], 0, n - 1)
    if not (g._playing[g.current] and g._playing[g.start_player]):
        raise ValueError(f"current={g.current} and start_player={g.start_player} must play this round")
    cap = cfg.max_turns_per_round
    g.turns = check_int("turns", d["turns"], 1 if phase == PHASE_DECLARE else 0,
                         cap if phase != PHASE_TAKE else cap - 1)
    g._pile = _cards("pile", d["pile"])
    g._row = _cards("row", d["row"])
    hands = check_list("hands", d["hands"], n)
    g._hands = [_cards(f"hands[{s}]", h) for s, h in enumerate(hands)]
    for s, h in enumerate(g._hands):
        if h != sorted(h):
            raise ValueError(f"hands[{s}] must be sorted card ids")
        if h and not g._playing[s]:
            raise ValueError(f"hands[{s}] must be empty: seat {s} sits out this tie-break round")
    held = sum(map(len, g._hands))
    if g.turns > held:  # (hand-made positions may hold cards with turns=0)
        raise ValueError(f"turns={g.turns} but the hands hold {held} cards: each take this round moved at "
                         f"least one face-up card into a hand (section 3.2)")
    placed = g._pile + g._row + [c for h in g._hands for c in h]
    if sorted(placed) != list(range(N_CARDS)):
        seen = [0] * N_CARDS
        for c in placed:
            seen[c] += 1
        raise ValueError(f"pile, row and hands must hold every card 0..{N_CARDS - 1} once (doubled: "
                         f"{[c for c in range(N_CARDS) if seen[c] > 1]}, missing: "
                         f"{[c for c in range(N_CARDS) if seen[c] == 0]})")
    if phase == PHASE_TAKE:
        if not g._row:
            raise ValueError("row is empty in the take phase (section 3 [ruling]: the round would have ended)")
        if len(g._row) < ROW_SIZE and g._pile:
            raise ValueError(f"row has {len(g._row)} cards but the pile is not empty: a turn begins by "
                             f"refilling it to {ROW_SIZE} (section 3.1)")
        if len(g._row) > ROW_SIZE:
            raise ValueError(f"row has {len(g._row)} cards; at most {ROW_SIZE} are face up (section 3.1)")
    if phase == PHASE_DECLARE:
        if len(g._row) > ROW_SIZE - 1:
            raise ValueError("in the declare phase the player has taken at least one face-up card")
        if not has_set(g._hands[g.current]):
            raise ValueError(f"phase='declare' but hands[{g.current}] holds no set (section 4)")
