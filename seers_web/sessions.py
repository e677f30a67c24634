"""Live games, watched games and replays kept in memory for the web page (no web framework imports).

A :class:`Session` is one game the page shows, with an id:

* ``play``: a person at one seat, agents at the others. The person's plays come from the page; the agents'
  plays are made one at a time when the page asks (:meth:`SessionStore.advance`), so the page sets the pace.
* ``watch``: agents at every seat, advanced the same way (pause, step and speed live in the page).
* ``replay``: a saved game log (see :mod:`seers_web.uploads`), shown after any number of its plays.

Every method that changes a session checks the whole request first and raises :class:`WebError` (with an
HTTP status and a message naming the bad value and what is allowed) before touching anything, so a
rejected request leaves the game as it was. The engine decides legality (:meth:`Game.apply`).

Memory and work are bounded by :class:`Limits`: a fixed number of live sessions, finished games expire,
idle ones too; agent budgets (ISMCTS iterations or seconds per move), rounds and players are capped, and
each game's agents get a ceiling of thinking time. Work that runs in a worker thread
(:meth:`SessionStore.advance`, :func:`seers_web.uploads.parse_upload`) takes a ``should_stop`` callable
and checks it between decisions: deleting a game, a client that goes away or a server that stops ends it.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from seers_env.artifacts import ARTIFACT_KINDS, CAULDRON, DEFAULT_ARTIFACT_DECK, HALF_STEP, SUIT_CHANGER
from seers_env.cards import N_SUITED, SUIT_NAMES, WILD, card_name, suit_of, value_of
from seers_env.game import Game, GameConfig, IllegalPlayError
from seers_env.plays import MELD_TYPE_NAMES, MeldType, Play, PlayKind, format_rank
from seers_env.view import SeatView

from . import haggis_web, scout_web, seals_web

DEFAULT_GAME = "seers_catalog"
#: The games the page offers (names of :data:`seers_env.games.GAMES`).
WEB_GAMES = (DEFAULT_GAME, scout_web.GAME, seals_web.GAME, haggis_web.GAME)


class WebError(Exception):
    """A rejected request: ``status`` is the HTTP status (4xx; 500 when an agent fails), ``message`` says
    what was wrong."""

    status = 400

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class Stopped(WebError):
    """Work given up between two decisions: its game was closed (410), or the client went away or the
    server is stopping (503). Nothing of the unfinished work is kept."""

    status = 503


def never_stop() -> bool:
    """The ``should_stop`` of work run directly (not by the web app): never asks to stop."""
    return False


@dataclass(frozen=True)
class Limits:
    """Bounds on what the server keeps and accepts.

    Attributes:
        max_sessions: live sessions (games and replays) at once; creating one more is refused (429).
        finished_ttl_s: seconds a finished game is kept after its last request.
        idle_ttl_s: seconds any session is kept without a request.
        max_upload_bytes: largest accepted upload (413 above).
        max_rounds: most rounds of a game the page starts or replays (players are 2..5, rules section 2).
        max_ismcts_iterations, max_ismcts_seconds: the largest ISMCTS budget per move a page may ask for
            (500 iterations: about 0.5 s per move at 5 players on an idle core, more on a loaded one).
        max_search_s_per_game: seconds of thinking (wall time of ``act``) all agents of one game may use;
            a later ``advance`` is refused (429).
        max_workers: agent decisions, game creations and uploads in progress at once, over all games;
            one more is refused (503).
        allowed_specs: agent specs given on the command line (``seers serve --agent``), used as given (no
            budget cap); the only specs with a file argument (a model) the page may use, since the server
            reads no client path.
        suggested_specs: the specs the page's menus offer (any allowed spec may be typed).
    """

    max_sessions: int = 32
    finished_ttl_s: float = 1800.0
    idle_ttl_s: float = 6 * 3600.0
    max_upload_bytes: int = 2_000_000
    max_rounds: int = 20
    max_ismcts_iterations: int = 500
    max_ismcts_seconds: float = 1.0
    max_search_s_per_game: float = 600.0
    max_workers: int = 4
    allowed_specs: tuple[str, ...] = ()
    suggested_specs: tuple[str, ...] = ("heuristic", "greedy", "random", "ismcts:200")


#: Specs without an argument the page may name (agent kinds of :func:`agents.make_agent` that read no file
#: but the shipped model); ``ismcts`` also takes a budget, ``ismcts:<iterations>`` or ``ismcts:<seconds>s``.
PAGE_SPECS = ("random", "greedy", "heuristic", "ismcts", "learned")
#: Searches the page may ask for with a budget per move, ``<name>:<iterations>`` or ``<name>:<seconds>s``,
#: both capped by :class:`Limits` (``learned+search``: ISMCTS guided by the shipped model, no model file).
BUDGETED_SPECS = ("ismcts", "learned+search")
_SEARCH_BUDGET = re.compile(r"^(?:(?P<iterations>[0-9]{1,30})|(?P<seconds>[0-9]{1,30}(?:\.[0-9]{1,30})?)s)$")
MAX_SPEC_CHARS = 200


def build_agent(make_agent: Callable[..., Any], spec: str, seed: int | None, game: str) -> Any:
    """``make_agent(spec, seed=seed)`` for Seers Catalog, with ``game=game`` for another game."""
    if game == DEFAULT_GAME:
        return make_agent(spec, seed=seed)
    return make_agent(spec, seed=seed, game=game)


def shipped_learned_available(game: str = DEFAULT_GAME) -> bool:
    """Whether this install can build the ``learned`` spec (the shipped models) for ``game``: torch and the
    model files are there."""
    from agents import make_agent

    try:
        build_agent(make_agent, "learned", 0, game)
    except (ValueError, OSError, ImportError, RuntimeError):
        return False
    return True


def page_specs_text(limits: Limits, game: str = DEFAULT_GAME) -> str:
    """The agent specs the page accepts (:func:`check_spec`) for ``game``, for messages: :data:`PAGE_SPECS`
    (``learned`` only where this install can build it for ``game``), the search budgets within ``limits``
    and ``limits.allowed_specs``; no spec the page would refuse."""
    named, searches = list(PAGE_SPECS), list(BUDGETED_SPECS)
    if not shipped_learned_available(game):
        named.remove("learned")
        searches.remove("learned+search")
    named += [s for s in limits.allowed_specs if s not in named]
    budgets = [f"{s}:<1..{limits.max_ismcts_iterations}> (iterations per move), "
               f"{s}:<seconds>s (up to {limits.max_ismcts_seconds:g} s per move)" for s in searches]
    return f"{', '.join(named)}, " + join_words(", ".join(budgets).rsplit(", ", 1), "or")


def table_problem(agent: Any, err: Exception, players: int, artifacts: bool) -> str:
    """Why ``agent`` cannot play at a table of ``players`` with or without artifacts (``err`` from its
    ``check_use``), said for a person at the page: no file path of the server, no advice meant for the
    command line or Python."""
    agent = getattr(agent, "learned", agent)  # train.guided_search.GuidedSearchAgent: its model's problem
    if getattr(agent, "shipped", False):  # train.scoring_policy.LearnedAgent with the shipped models
        from train.scoring_policy import shipped_player_counts

        counts = shipped_player_counts()
        if players not in counts:
            return (f"the shipped learned models play at tables of {join_words([str(n) for n in counts], 'or')} "
                    f"players; choose {'that' if len(counts) == 1 else 'one of those'} or another agent")
        trained_deck = getattr(getattr(agent, "config", None), "artifact_deck", None)
        if trained_deck is not None and bool(trained_deck) != artifacts:
            return (f"the shipped learned model for {players} players was trained "
                    f"{'with' if trained_deck else 'without'} artifacts; turn artifacts "
                    f"{'on' if trained_deck else 'off'} or choose another agent")
    reason = re.split(r"; (?:train one with|from Python)", str(err))[0]
    return re.sub(r"model '[^']*'", "its model", reason)


def check_spec(spec: Any, limits: Limits, where: str = "agents", game: str = DEFAULT_GAME) -> str:
    """Validate an agent spec sent by the page and return it stripped.

    Allowed: the specs in ``limits.allowed_specs`` (as given), :data:`PAGE_SPECS`, and the searches of
    :data:`BUDGETED_SPECS` with ``<name>:<iterations>`` or ``<name>:<seconds>s`` within
    ``limits.max_ismcts_iterations`` and ``limits.max_ismcts_seconds`` (``learned+search`` with the shipped
    model only). The agent is built once (:func:`agents.make_agent`) to check it can be.

    Args:
        where: the request field the spec came from, named in the errors (``agents[1]``).
        game: the game the agent is for (a name of :data:`seers_env.games.GAMES`).

    Raises:
        WebError: not a string, names a file, a malformed or too large budget, an unknown spec or one that
            cannot be built here (400).
    """
    from agents import make_agent
    from agents.specs import VALID_SPECS

    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC_CHARS:
        raise WebError(f"{where}: agent spec {spec!r} must be a non-empty string of at most {MAX_SPEC_CHARS} "
                       "characters such as 'heuristic'")
    spec = spec.strip()
    if spec in limits.allowed_specs:
        return spec
    name, colon, arg = spec.partition(":")
    spec_names = tuple(s.partition(":")[0] for s in VALID_SPECS)  # PAGE_SPECS and BUDGETED_SPECS among them
    if colon and name in spec_names and (name not in BUDGETED_SPECS or ":" in arg):
        raise WebError(f"{where}: agent spec {spec!r} is not allowed from the page: the server reads no file "
                       f"path sent by a client and takes no option after a budget; start it with "
                       f"`seers serve --agent {spec}` to offer this agent")
    if name not in PAGE_SPECS + BUDGETED_SPECS or (name == "learned+search" and not shipped_learned_available(game)):
        raise WebError(f"{where}: unknown agent spec {spec!r}; the page may use {page_specs_text(limits, game)}")
    examples = (f"{name}:{min(200, limits.max_ismcts_iterations)} (iterations) or "
                f"{name}:{min(0.5, limits.max_ismcts_seconds):g}s (seconds)")
    if name not in PAGE_SPECS and not colon:
        raise WebError(f"{where}: agent spec {spec!r} needs a budget per move: {examples}; the page may use "
                       f"{page_specs_text(limits, game)}")
    if colon:
        budget = _SEARCH_BUDGET.match(arg)
        if budget is None:
            raise WebError(f"{where}: agent spec {spec!r} has a malformed search budget {arg!r}: use a whole "
                           f"number of iterations or of seconds ending in s: {examples}")
        if budget["iterations"] is not None:
            iterations = int(budget["iterations"])
            if not 1 <= iterations <= limits.max_ismcts_iterations:
                raise WebError(f"{where}: agent spec {spec!r}: use 1..{limits.max_ismcts_iterations} "
                               "iterations per move here")
        else:
            seconds = float(budget["seconds"])
            if not 0 < seconds <= limits.max_ismcts_seconds:
                raise WebError(f"{where}: agent spec {spec!r}: use more than 0 and at most "
                               f"{limits.max_ismcts_seconds:g}s per move here")
    try:
        agent = build_agent(make_agent, spec, 0, game)
    except ValueError as err:  # make_agent lists every spec form (file ones too): list the page's instead
        reason = re.split(r"; (?:valid specs|train one with)", str(err))[0]
        reason = re.sub(r" in '[^']*'", "", reason)  # no path of the server
        raise WebError(f"{where}: {reason}; the page may use {page_specs_text(limits, game)}") from None
    except (OSError, ImportError, RuntimeError) as err:  # e.g. a model the spec names is not there
        raise WebError(f"{where}: agent spec {spec!r} cannot be used on this server ({type(err).__name__}: "
                       f"{err}); the page may use {page_specs_text(limits, game)}") from None
    iterations, seconds = getattr(agent, "iterations", None), getattr(agent, "seconds", None)
    if name in BUDGETED_SPECS and seconds is None and isinstance(iterations, int) \
            and iterations > limits.max_ismcts_iterations:  # the bare spec's default budget
        raise WebError(f"{where}: agent spec {spec!r} runs {iterations} iterations per move; at most "
                       f"{limits.max_ismcts_iterations} iterations per move here")
    return spec


# --- JSON views of engine objects --------------------------------------------------------------------

def card_json(card: int) -> dict[str, Any]:
    """How the page draws a card id: ``kind`` (``suited``/``wild``/``artifact``), suit, value, names."""
    if card < N_SUITED:
        return {"id": card, "kind": "suited", "suit": suit_of(card), "suit_name": SUIT_NAMES[suit_of(card)],
                "value": value_of(card), "name": card_name(card)}
    if card == WILD:
        return {"id": card, "kind": "wild", "name": "wild"}
    kind = ARTIFACT_KINDS[card - WILD - 1]
    return {"id": card, "kind": "artifact", "key": kind.key, "name": kind.name, "timing": kind.timing.value}


def all_cards() -> list[dict[str, Any]]:
    """:func:`card_json` of every card id, indexed by id."""
    return [card_json(c) for c in range(WILD + 1 + len(ARTIFACT_KINDS))]


def seat_label(seat: int, names: Sequence[str]) -> str:
    """How the page names a seat: ``"player 2 (heuristic)"``, or ``"player 2"`` without a name."""
    return f"player {seat} ({names[seat]})" if names and names[seat] else f"player {seat}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun in agreement: ``plural(1, "card")`` is ``"1 card"``, ``plural(2, "card")``
    ``"2 cards"`` (``words``: an irregular plural)."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def score_text(value: int) -> str:
    """A score as people write it: negative ones with a minus sign (U+2212), e.g. ``"\u22126"``."""
    return f"\u2212{-value}" if value < 0 else str(value)


def join_words(items: Sequence[str], conjunction: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def play_choices(play: Play, names: Sequence[str]) -> list[list[str]]:
    """The questions the page asks, in order, to tell apart plays of the same cards: ``[question, answer]``.

    Plays of the same cards differ in the meld, the Run's suit, what the wilds stand for, how the artifact
    is used, the value they count as, or a Gift of Fate's target (rules sections 3 and 6).
    """
    out = []
    if play.kind == PlayKind.MELD:
        out.append(["Play them as", MELD_TYPE_NAMES[MeldType(play.meld_type)]])
        if play.meld_type == MeldType.RUN and play.run_suit >= 0:
            out.append(["Run in suit", SUIT_NAMES[play.run_suit]])
        if play.wild_values:
            out.append(["Wilds stand for", ", ".join(str(v) for v in play.wild_values)])
        if play.artifact >= 0:
            out.append(["Artifact", artifact_use(play)])
        out.append(["Counts as", format_rank(play.rank)])
    elif play.kind == PlayKind.GIFT:
        out.append(["Give the lead to", seat_label(play.target, names)])
    return out


def artifact_use(play: Play) -> str:
    """How a meld's artifact is used, e.g. ``"Cauldron of Sorcery: Plum 7 counts as 8"``."""
    name = ARTIFACT_KINDS[play.artifact].name
    if not play.effect_used:
        return f"{name}, unused"
    if play.artifact == CAULDRON and play.modified_card >= 0:
        return f"{name}: {card_name(play.modified_card)} counts as {value_of(play.modified_card) + play.modifier}"
    if play.artifact == SUIT_CHANGER and play.modified_card >= 0:
        return f"{name}: {card_name(play.modified_card)} counts as {SUIT_NAMES[play.modifier]}"
    if play.artifact == HALF_STEP:
        return f"{name}: {'+' if play.modifier > 0 else '-'}1/2"
    return name


def play_json(play: Play, index: int, names: Sequence[str]) -> dict[str, Any]:
    """A legal play for the page: its cards, text, the choices that tell it apart, and the play itself."""
    return {"index": index, "cards": play.cards(), "text": play.describe(), "kind": PlayKind(play.kind).name,
            "choices": play_choices(play, names), "play": play.to_dict()}


def event_text(event: dict[str, Any], names: Sequence[str]) -> str:
    """One line of the game's history for an engine event."""
    kind = event.get("event")
    if kind == "deal":
        return (f"Round {event['round'] + 1}: suits {', '.join(SUIT_NAMES[s] for s in event.get('suits', []))}; "
                f"Start Seer {seat_label(event['start_seer'], names)}") if "start_seer" in event \
            else f"Round {event['round'] + 1} dealt"
    if kind == "play":
        play = Play.from_dict(event["play"])
        return f"{seat_label(event['seat'], names)}: {'passes' if play.is_pass else play.describe()}"
    if kind == "trick":
        cards = plural(len(event["cards"]), "card")
        if "taken_by" in event:
            return f"{seat_label(event['taken_by'], names)} takes the trick's {cards} into their hand"
        return f"{seat_label(event['won_by'], names)} wins the trick ({cards})"
    if kind == "round_end":
        return f"Round {event['round'] + 1} ends; scores: {', '.join(score_text(v) for v in event['scores'])}"
    if kind == "game_end":
        winners = [seat_label(s, names) for s in event["winners"]]
        return (f"Game over; totals: {', '.join(score_text(v) for v in event['totals'])}; "
                f"{'winner' if len(winners) == 1 else 'winners'}: {join_words(winners)}")
    return str(kind)


def playable_flags(hand: Sequence[int], plays: Sequence[Play]) -> list[bool]:
    """For each position of ``hand``: whether its card is one of the cards of at least one of ``plays``
    (the union of ``Play.cards()``; a pass has none). Copies of a card (wilds) get the same flag."""
    used = {c for p in plays for c in p.cards()}
    return [c in used for c in hand]


def n_plays(game: Game) -> int:
    """Plays applied so far (the move number the page sends back to avoid stale requests)."""
    return sum(1 for e in game.events if e["event"] == "play")


def game_state(game: Game, names: Sequence[str], visible: Sequence[int], legal_for: int | None = None,
               history: int = 60) -> dict[str, Any]:
    """The JSON state of ``game`` as shown to someone who may see the hands of the seats in ``visible``.

    Hidden hands are sent as sizes only. ``legal_for``: the seat whose legal plays are included when it is
    to act (``legal``), with ``playable``: one flag per card of its hand (in the order of ``hands``), true
    for a card of at least one legal play (:func:`playable_flags`); both ``None`` otherwise.
    ``history``: the number of last history lines sent.
    """
    n = game.n_players
    top = None
    if game.top is not None:
        mt, size, rank = game.top
        top = {"meld_type": MELD_TYPE_NAMES[MeldType(mt)], "size": size, "rank": format_rank(rank),
               "seat": game.top_seat}
    events = game.events
    last_round_end = next((e for e in reversed(events) if e["event"] == "round_end"), None)
    state: dict[str, Any] = {
        "n_players": n, "n_rounds": game.config.n_rounds, "round": game.round,
        "artifacts": game.config.uses_artifacts,
        "suits": [SUIT_NAMES[s] for s in game.suits], "names": list(names),
        "current": game.current, "start_seer": game.start_seer, "game_over": game.game_over,
        "hand_sizes": game.hand_sizes(), "passed": [bool(game.top is not None and p) for p in game.passed],
        "bonus": [game.in_bonus(s) for s in range(n)], "totals": game.totals,
        "round_scores": [list(r) for r in game.round_scores],
        "winners": game.winners() if game.game_over else [],
        "trick": [{"seat": s, "cards": p.cards(), "text": p.describe()} for s, p in game.trick],
        "top": top,
        "hands": {str(s): list(game.hands[s]) for s in visible},
        "known": {str(s): list(game.known[s]) for s in range(n) if game.known[s]},
        "move": n_plays(game),
        "history": [event_text(e, names) for e in events[-history:]],
        "last_round": ({"round": last_round_end["round"], "scores": last_round_end["scores"],
                        "hands": last_round_end["hands"]} if last_round_end else None),
        "legal": None, "playable": None,
    }
    if legal_for is not None and game.current == legal_for and not game.game_over:
        legal = game.legal_plays()
        state["legal"] = [play_json(p, i, names) for i, p in enumerate(legal)]
        state["playable"] = playable_flags(game.hands[legal_for], legal)
    return state


# --- sessions -------------------------------------------------------------------------------------------

@dataclass
class Session:
    """One game shown by the page. ``human`` is the person's seat (``play`` mode) or ``None``."""

    id: str
    mode: str
    game: Game
    names: list[str]
    agents: dict[int, Any] = field(default_factory=dict)
    human: int | None = None
    seed: int = 0
    log: dict[str, Any] | None = None  # replay: the uploaded log
    plays: list[Play] = field(default_factory=list)  # replay: its plays
    checkpoints: list[tuple[dict[str, Any], int]] = field(default_factory=list)  # replay: (Game.to_dict
    # without its events, number of events) every CHECKPOINT_EVERY plays
    events: list[dict[str, Any]] = field(default_factory=list)  # replay: every event of the whole game
    step: int = 0  # replay: plays shown
    source: dict[str, Any] = field(default_factory=dict)  # replay: where the log came from
    touched: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: threading.Event = field(default_factory=threading.Event)  # set when deleted or expired
    busy: bool = False  # an agent is choosing a play (guarded by lock)
    search_s: float = 0.0  # seconds its agents have spent in act
    game_name: str = DEFAULT_GAME  # a name of WEB_GAMES
    replay_games: list[Any] = field(default_factory=list)  # SCOUT/Seals replay: clones every CHECKPOINT_EVERY plays

    @property
    def finished(self) -> bool:
        return self.mode != "replay" and self.game.game_over


CHECKPOINT_EVERY = 16


class SessionStore:
    """The live sessions, by id, with the limits of :class:`Limits`. Thread-safe.

    Args:
        limits: bounds (default :class:`Limits`).
        seed: seed of the generator that draws the seeds of games created without one.
        clock: seconds, monotonic (tests pass a fake clock).
    """

    def __init__(self, limits: Limits | None = None, seed: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.limits = limits or Limits()
        self.rng = np.random.default_rng(seed)
        self.clock = clock
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.closing = threading.Event()  # the server is stopping: workers stop at their next check
        self.work_slots = threading.BoundedSemaphore(self.limits.max_workers)

    # --- bookkeeping ---------------------------------------------------------------------------------
    def sweep(self) -> list[str]:
        """Drop expired sessions (finished games after ``finished_ttl_s``, any after ``idle_ttl_s``)."""
        now = self.clock()
        gone = []
        with self._lock:
            for sid in list(self._sessions):
                s = self._sessions[sid]
                age = now - s.touched
                if age > self.limits.idle_ttl_s or (s.finished and age > self.limits.finished_ttl_s):
                    gone.append(sid)
                    del self._sessions[sid]
                    s.closed.set()
        return gone

    def _add(self, session: Session) -> Session:
        self.sweep()
        with self._lock:
            if len(self._sessions) >= self.limits.max_sessions:
                raise WebError(f"too many live games ({len(self._sessions)}, the limit is "
                               f"{self.limits.max_sessions}); close one or wait for finished ones to expire",
                               429)
            while session.id in self._sessions:
                session.id = secrets.token_hex(4)
            session.touched = self.clock()
            self._sessions[session.id] = session
        return session

    def get(self, sid: Any) -> Session:
        """The session ``sid``; raises :class:`WebError` 404 when there is none (or it expired)."""
        self.sweep()
        with self._lock:
            s = self._sessions.get(sid) if isinstance(sid, str) else None
        if s is None:
            raise WebError(f"no game with id {sid!r} (finished games expire after "
                           f"{self.limits.finished_ttl_s / 60:g} minutes); start a new one", 404)
        s.touched = self.clock()
        return s

    def delete(self, sid: str) -> None:
        """Close the session ``sid``: its place is freed and a worker choosing a play for it stops (the play
        is not made). Raises :class:`WebError` 404 when there is none."""
        session = self.get(sid)
        with self._lock:
            self._sessions.pop(sid, None)
        session.closed.set()

    def close_all(self) -> None:
        """Stop every worker at its next check (the server is stopping); sessions stay readable."""
        self.closing.set()

    def summaries(self) -> list[dict[str, Any]]:
        """Summary of every live session, newest first."""
        self.sweep()
        with self._lock:
            sessions = sorted(self._sessions.values(), key=lambda s: -s.touched)
        return [{"id": s.id, "game": s.game_name, "mode": s.mode, "names": s.names, "round": s.game.round,
                 "n_rounds": s.game.config.n_rounds, "game_over": s.game.game_over,
                 "move": s.step if s.mode == "replay" else n_plays(s.game)} for s in sessions]

    def __len__(self) -> int:
        return len(self._sessions)

    # --- creation ------------------------------------------------------------------------------------
    def create(self, body: Any, should_stop: Callable[[], bool] = never_stop) -> Session:
        """Start a ``play`` or ``watch`` game from the page's form (not kept when ``should_stop()`` is true
        once its agents are built: nobody waits for it).

        ``body`` keys: ``game`` (one of :data:`WEB_GAMES`, default ``"seers_catalog"``), ``mode``
        (``"play"``/``"watch"``), ``players`` (2..5; Seals 2..4), ``seat`` (play: the person's seat),
        ``agents`` (a list of specs, one per agent seat in seat order, or one for all; see
        :func:`check_spec`), ``seed`` (optional, 0..2**63-1), ``rounds`` (Seers Catalog:
        1..``limits.max_rounds``, default 4; SCOUT: default the rules' count, section 2, at most 2 at 2
        players; Seals: the Marks of the round counter, 1..``limits.max_rounds``, default 5),
        ``artifacts`` (Seers Catalog only, bool). Haggis has its own fields
        (:func:`seers_web.haggis_web.create`).

        Raises:
            WebError: any bad field (400), or too many live games (429). Nothing is created then.
            Stopped: ``should_stop()`` (503).
        """
        if not isinstance(body, dict):
            raise WebError("the request body must be a JSON object with mode, players, agents, ...")
        game_name = body.get("game", DEFAULT_GAME)
        if not isinstance(game_name, str) or game_name not in WEB_GAMES:
            raise WebError(f"game={game_name!r}"[:200] + f" is not one of {', '.join(map(repr, WEB_GAMES))}")
        if game_name == haggis_web.GAME:  # its own fields (players 2..3, target)
            return haggis_web.create(self, body, should_stop)
        scout = game_name == scout_web.GAME
        other = game_name != DEFAULT_GAME  # SCOUT or Seals: its own engine, no artifacts
        known = {"game", "mode", "players", "seat", "agents", "seed", "rounds"} | (set() if other else {"artifacts"})
        unknown = sorted(set(body) - known, key=str)
        if unknown:
            raise WebError(f"unknown fields {unknown}"[:300] + f" for game {game_name!r}; allowed: {sorted(known)}")
        mode = body.get("mode", "play")
        if mode not in ("play", "watch"):
            raise WebError(f"mode {mode!r} is not one of 'play', 'watch' (replays are uploaded)")
        players = _int_field(body, "players", *((3, 2, 4) if game_name == seals_web.GAME else (4, 2, 5)))
        if scout:  # section 2: 2 players play 2 rounds (or 1), N players N rounds
            from seers_env.scout.cards import SETUP

            rounds = SETUP[players].rounds  # null or absent: the rules' count
            if body.get("rounds") is not None:
                rounds = _int_field(body, "rounds", rounds, 1, 2 if players == 2 else self.limits.max_rounds)
        elif game_name == seals_web.GAME:  # section 2: the round counter's Marks (5); null or absent: 5
            from seers_env.seals.rulings import DEFAULT_ROUND_COUNTER

            rounds = DEFAULT_ROUND_COUNTER if body.get("rounds") is None else \
                _int_field(body, "rounds", DEFAULT_ROUND_COUNTER, 1, self.limits.max_rounds)
        else:
            rounds = _int_field(body, "rounds", 4, 1, self.limits.max_rounds)
        seat = _int_field(body, "seat", 0, 0, players - 1) if mode == "play" else None
        artifacts = body.get("artifacts", not other)
        if not isinstance(artifacts, bool):
            raise WebError(f"artifacts={artifacts!r} must be true or false")
        seed = body.get("seed")
        if seed is None:
            seed = int(self.rng.integers(0, 2**31))
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise WebError(f"seed={seed!r} must be an integer in 0..2**63-1, or null for a random deal")
        specs = body.get("agents", ["heuristic"])
        if isinstance(specs, str):
            specs = [specs]
        if not isinstance(specs, list):
            raise WebError(f"agents={specs!r} must be a list of agent specs")
        agent_seats = [s for s in range(players) if s != seat]
        if len(specs) != len(agent_seats) and len(specs) != 1:
            raise WebError(f"agents: {len(agent_seats)} agent seats need {len(agent_seats)} agent specs (or "
                           f"one for all), got {len(specs)}: {specs[:8]!r}")
        specs = [check_spec(s, self.limits, f"agents[{i}]", game_name) for i, s in enumerate(specs)]
        if len(specs) == 1:
            specs = specs * len(agent_seats)
        from agents import make_agent
        from seers_env.seeding import child_seed as agent_seed  # as seers play seeds its agents

        if other:
            from seers_env.games import game_spec

            if scout:
                from seers_env.scout.game import ScoutConfig as OtherConfig, ScoutGame as OtherGame
            else:
                from seers_env.seals.game import SealsConfig as OtherConfig, SealsGame as OtherGame
            other_config = OtherConfig(n_players=players, n_rounds=rounds)
            other_game = OtherGame(other_config, seed=seed)
            agents = self._build_agents(make_agent, agent_seed, agent_seats, specs, seed, game_name, players, False)
            for s, agent in agents.items():
                try:
                    agent.check_game(game_name, other_config)
                except (ValueError, OSError) as err:
                    raise WebError(f"the agent at player {s} ({agent.name}) cannot play this "
                                   f"{game_spec(game_name).title} table "
                                   f"({players} players): {table_problem(agent, err, players, False)}. The page "
                                   f"may use {page_specs_text(self.limits, game_name)}") from None
            names = ["you" if s == seat else agents[s].name for s in range(players)]
            if should_stop():
                raise Stopped("stopped (the request was given up or the server is stopping); no game was made")
            return self._add(Session(secrets.token_hex(4), mode, other_game, names, agents, seat, seed,
                                     game_name=game_name))
        config = GameConfig(n_players=players, n_rounds=rounds,
                            artifact_deck=DEFAULT_ARTIFACT_DECK if artifacts else ())
        game = Game(config, seed=seed)
        agents = self._build_agents(make_agent, agent_seed, agent_seats, specs, seed, DEFAULT_GAME, players, artifacts)
        for s, agent in agents.items():  # e.g. a learned model of another table: refused before any play
            try:
                agent.check_use(players, config.artifact_deck)
            except (ValueError, OSError) as err:
                raise WebError(f"the agent at player {s} ({agent.name}) cannot play at this table ({players} "
                               f"players, {'with' if artifacts else 'without'} artifacts): "
                               f"{table_problem(agent, err, players, artifacts)}. The page may use "
                               f"{page_specs_text(self.limits)}") from None
        names = ["you" if s == seat else agents[s].name for s in range(players)]
        if should_stop():
            raise Stopped("stopped (the request was given up or the server is stopping); no game was made")
        return self._add(Session(secrets.token_hex(4), mode, game, names, agents, seat, seed))

    def _build_agents(self, make_agent, agent_seed, seats, specs, seed, game_name, players, artifacts) -> dict:
        """One agent per seat. A spec of ``allowed_specs`` is not built by :func:`check_spec`: its model
        may be of another game (``ModelConfigError``), which is the page's 400, not a server error."""
        from seers_env.games import game_spec

        title = game_spec(game_name).title
        agents = {}
        for s, spec in zip(seats, specs):
            try:
                agents[s] = build_agent(make_agent, spec, agent_seed(seed, s), game_name)
            except (ValueError, OSError, ImportError, RuntimeError) as err:
                raise WebError(f"the agent at player {s} ({spec}) cannot play this {title} table "
                               f"({players} players): {table_problem(None, err, players, artifacts)}. The page "
                               f"may use {page_specs_text(self.limits, game_name)}") from None
        return agents

    def create_replay(self, log: dict[str, Any], source: dict[str, Any] | None = None) -> Session:
        """A replay session of a checked log (see :func:`seers_web.uploads.parse_upload`), at move 0."""
        if log.get("game") in (scout_web.GAME, seals_web.GAME):
            return self._create_scout_replay(log, source)
        if log.get("game") == haggis_web.GAME:
            return haggis_web.create_replay(self, log, source)
        game = Game.replay(log, upto=0)
        full = Game.replay(log, upto=0)
        plays = [Play.from_dict(e["play"]) for e in log["events"] if e["event"] == "play"]
        checkpoints = []
        for i, p in enumerate(plays):
            if i % CHECKPOINT_EVERY == 0:
                d = full.to_dict()
                d["events"] = []  # the events are kept once, in session.events
                checkpoints.append((d, len(full.events)))
            full.apply(p)
        names = log.get("agents") or [""] * game.n_players
        session = Session(secrets.token_hex(4), "replay", game, list(names), log=log, plays=plays,
                          checkpoints=checkpoints, events=full.events, source=source or {})
        return self._add(session)

    def _create_scout_replay(self, log: dict[str, Any], source: dict[str, Any] | None) -> Session:
        """A SCOUT or Seals replay (``log["game"]``) at move 0, with a copy of the game every
        :data:`CHECKPOINT_EVERY` plays."""
        if log.get("game") == seals_web.GAME:
            from seers_env.seals.game import SealsGame as ScoutGame
            from seers_env.seals.plays import SealsPlay as ScoutPlay
        else:
            from seers_env.scout.game import ScoutGame
            from seers_env.scout.plays import ScoutPlay

        full = ScoutGame.replay(log, upto=0)
        plays = [ScoutPlay.from_list(e["play"]) for e in log["events"] if e["event"] == "play"]
        copies = []
        for i, p in enumerate(plays):
            if i % CHECKPOINT_EVERY == 0:
                copies.append(full.clone())
            full.apply(p)
        names = log.get("agents") or [""] * full.n_players
        session = Session(secrets.token_hex(4), "replay", copies[0].clone() if copies else full, list(names),
                          log=log, plays=plays, source=source or {}, game_name=log["game"],
                          replay_games=copies)
        return self._add(session)

    # --- actions -------------------------------------------------------------------------------------
    def state(self, session: Session, reveal: bool = False) -> dict[str, Any]:
        """The page's view of a session. ``reveal`` shows every hand (watch and replay, or a finished game).

        Raises:
            WebError: ``reveal`` asked while a person plays an unfinished game (403).
        """
        with session.lock:
            return self._state(session, reveal)

    def _state(self, session: Session, reveal: bool) -> dict[str, Any]:
        game = session.game
        n = game.n_players
        if session.mode == "play":
            if reveal and not game.game_over and session.game_name != seals_web.GAME:  # Seals: hands public
                raise WebError("the other hands stay hidden while you play; they are shown at the end", 403)
            visible = list(range(n)) if reveal else [session.human]
        else:
            visible = list(range(n)) if reveal else []
        if session.game_name == seals_web.GAME:  # every hand (section 3 [ruling]); never the pile's order
            st = seals_web.seals_state(game, session.names, legal_for=session.human)
        elif session.game_name == scout_web.GAME:
            st = scout_web.scout_state(game, session.names, visible, legal_for=session.human)
        elif session.game_name == haggis_web.GAME:
            st = haggis_web.haggis_state(game, session.names, visible, legal_for=session.human)
        else:
            st = game_state(game, session.names, visible, legal_for=session.human)
            st["game"] = DEFAULT_GAME
        st.update({"id": session.id, "mode": session.mode, "human": session.human, "seed": session.seed})
        if _log_is_secret(session):
            st["seed"] = None  # the seed deals every hand and pile: secret until the game is over
        if session.mode == "replay":
            st.update({"step": session.step, "steps": len(session.plays), "source": session.source})
        else:
            st["waiting_for"] = ("over" if game.game_over else
                                 "you" if game.current == session.human else "agent")
        return st

    def play(self, session: Session, body: Any) -> None:
        """Apply the person's play: ``body = {"play": <Play fields>, "move": <move number>}``.

        Raises:
            WebError: not a play game, not the person's turn, game over, stale move number (409); a
                malformed or illegal play (400, the engine's reason). The game is unchanged then.
        """
        if session.mode != "play":
            raise WebError(f"game {session.id} is a {session.mode} game: nobody plays from the page", 409)
        if not isinstance(body, dict) or "play" not in body:
            raise WebError("the request body must be a JSON object {\"play\": {...}, \"move\": N}")
        unknown = sorted(set(body) - {"play", "move"})
        if unknown:
            raise WebError(f"unknown fields {unknown}; allowed: ['move', 'play']")
        parse = {scout_web.GAME: scout_web.parse_scout_play, seals_web.GAME: seals_web.parse_seals_play,
                 haggis_web.GAME: haggis_web.parse_haggis_play}
        play = parse.get(session.game_name, parse_play)(body["play"])
        with session.lock:
            game = session.game
            self._check_move(session, body.get("move"))
            if game.game_over:
                raise WebError("the game is over; start a new one", 409)
            if game.current != session.human:
                raise WebError(f"it is player {game.current}'s turn, not yours (player {session.human})", 409)
            try:
                game.apply(play)
            except IllegalPlayError as err:
                raise WebError(str(err)) from None
            except ValueError as err:  # SCOUT's, Seals' and Haggis' IllegalPlayError (a ValueError); unchanged
                if session.game_name == DEFAULT_GAME:
                    raise
                raise WebError(str(err)) from None

    def advance(self, session: Session, body: Any = None, should_stop: Callable[[], bool] = never_stop) -> None:
        """Make the next agent's play (``body = {"move": N}`` optional, to refuse a stale request).

        The agent chooses without holding the session's lock (reading the game stays possible) and one
        agent at a time per session; ``should_stop`` and the session's ``closed`` flag are checked once
        the choice is made, and the play is not made then.

        Raises:
            WebError: a replay, the person's turn, game over, stale move number or an agent still choosing
                (409); the game's agents used their thinking time (429); the agent raised or made an
                illegal play (500, naming the agent; the game is unchanged).
            Stopped: the game was closed (410) or ``should_stop()`` became true (503) while the agent chose.
        """
        if session.mode == "replay":
            raise WebError(f"game {session.id} is a replay: use seek to move through it", 409)
        if body is not None and not isinstance(body, dict):
            raise WebError("the request body must be a JSON object {\"move\": N} or empty")
        body = body or {}
        unknown = sorted(set(body) - {"move"})
        if unknown:
            raise WebError(f"unknown fields {unknown}; allowed: ['move']")
        with session.lock:
            game = session.game
            self._check_move(session, body.get("move"))
            if game.game_over:
                raise WebError("the game is over; nothing to advance", 409)
            seat = game.current
            if seat == session.human:
                raise WebError("it is your turn: choose a play", 409)
            if session.busy:
                raise WebError(f"the agent at player {seat} is still choosing its play; wait for it", 409)
            if session.search_s >= self.limits.max_search_s_per_game:
                raise WebError(f"the agents of game {session.id} have used {session.search_s:.0f} s of thinking "
                               f"time, the limit per game on this server ({self.limits.max_search_s_per_game:g} "
                               "s); start a game with smaller budgets", 429)
            agent = session.agents[seat]
            session.busy = True
        try:
            start = time.perf_counter()
            try:
                play = agent.act(self._view(session, seat))
            except Exception as err:  # a broken agent: say which, keep the game as it was
                raise WebError(f"the agent at player {seat} ({agent.name}) failed: {type(err).__name__}: {err}",
                               500) from err
            finally:
                session.search_s += time.perf_counter() - start
            with session.lock:
                if session.closed.is_set():
                    raise Stopped(f"game {session.id} was closed while player {seat} chose; no play was made",
                                  410)
                if should_stop():
                    raise Stopped(f"stopped (the request was given up or the server is stopping) while "
                                  f"player {seat} chose; no play was made")
                try:
                    game.apply(play)
                except Exception as err:  # the engine changes nothing on an illegal play
                    raise WebError(f"the agent at player {seat} ({agent.name}) failed: {type(err).__name__}: "
                                   f"{err}", 500) from err
        finally:
            with session.lock:
                session.busy = False

    @staticmethod
    def _view(session: Session, seat: int) -> Any:
        """What the agent at ``seat`` may see (the game's seat view)."""
        if session.game_name == scout_web.GAME:
            from seers_env.scout.view import ScoutSeatView

            return ScoutSeatView(session.game, seat)
        if session.game_name == seals_web.GAME:
            from seers_env.seals.view import SealsSeatView

            return SealsSeatView(session.game, seat)
        if session.game_name == haggis_web.GAME:
            from seers_env.haggis.view import HaggisSeatView

            return HaggisSeatView(session.game, seat)
        return SeatView(session.game, seat)

    def seek(self, session: Session, body: Any) -> None:
        """Show a replay after ``body["step"]`` plays (0..number of plays).

        Raises:
            WebError: not a replay (409), step not an integer in range (400).
        """
        if session.mode != "replay":
            raise WebError(f"game {session.id} is a {session.mode} game, not a replay", 409)
        if not isinstance(body, dict) or set(body) != {"step"}:
            raise WebError("the request body must be a JSON object {\"step\": N}")
        step = body["step"]
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(session.plays):
            raise WebError(f"step={step!r} must be an integer in 0..{len(session.plays)}")
        with session.lock:
            if session.game_name != DEFAULT_GAME:  # SCOUT, Seals or Haggis: copies of the game (clone)
                k = min(step // CHECKPOINT_EVERY, len(session.replay_games) - 1)
                if k < 0:  # a log without plays
                    return
                game = session.replay_games[k].clone()
                for p in session.plays[k * CHECKPOINT_EVERY:step]:
                    game.apply(p)
                session.game, session.step = game, step
                return
            k = step // CHECKPOINT_EVERY
            if step == len(session.plays) and step % CHECKPOINT_EVERY == 0 and step:
                k -= 1
            if session.checkpoints:
                d, n_events = session.checkpoints[k]
                game = Game.from_dict(d)
                game.events = session.events[:n_events]
            else:
                game = Game.replay(session.log, 0)
            for p in session.plays[k * CHECKPOINT_EVERY:step]:
                game.apply(p)
            session.game = game
            session.step = step

    def log(self, session: Session) -> dict[str, Any]:
        """The session's game log (``Game.log()`` plus ``agents``), as ``seers play --save`` writes it.

        Raises:
            WebError: the log is secret (403, :func:`_log_is_secret`): a game a person plays, not over yet
                (its deal events and generator state give the other hands), or a Seals game not over
                (they give the draw pile's order, the game's one secret: section 3 [ruling]).
        """
        if session.mode == "replay":
            return dict(session.log)
        if _log_is_secret(session):
            what = ("the draw pile's order" if session.game_name == seals_web.GAME else "the other hands")
            raise WebError(f"the log of an unfinished game names {what} (its deal events and generator "
                           "state); download it once the game is over", 403)
        log = session.game.log()
        log["agents"] = list(session.names)
        return log

    @staticmethod
    def _check_move(session: Session, move: Any) -> None:
        if move is None:
            return
        now = n_plays(session.game)
        if isinstance(move, bool) or not isinstance(move, int):
            raise WebError(f"move={move!r} must be an integer (the number of plays made so far)")
        if move != now:
            raise WebError(f"move {move} is stale: {now} plays have been made; reload the game", 409)


def _log_is_secret(session: Session) -> bool:
    """Whether the session's seed and log must not be sent yet: its game is not over, and a person plays
    it (they deal the other hands) or it is Seals (they give the draw pile, hidden even to watchers)."""
    if session.mode == "replay" or session.game.game_over:
        return False
    return session.mode == "play" or session.game_name == seals_web.GAME


def _int_field(body: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise WebError(f"{key}={value!r} must be an integer in {lo}..{hi}")
    return value


_PLAY_INT_FIELDS = ("kind", "meld_type", "size", "rank", "wilds", "artifact", "target", "run_suit",
                    "effect_used", "modified_card", "modifier")


def parse_play(d: Any) -> Play:
    """A :class:`Play` from the page's JSON (the ``play`` of a legal play, or any Play fields).

    Raises:
        WebError: not an object, unknown fields, or fields of the wrong type (400). Legality is the
            engine's to judge.
    """
    if not isinstance(d, dict):
        raise WebError(f"play {d!r} must be a JSON object of Play fields {list(Play._fields)}")
    unknown = sorted(set(d) - set(Play._fields))
    if unknown:
        raise WebError(f"unknown Play fields {unknown}; allowed: {list(Play._fields)}")
    if "kind" not in d:
        raise WebError("a play needs a 'kind' (0 pass, 1 meld, 2 Rod of Reincarnation, 3 Gift of Fate)")
    for key in _PLAY_INT_FIELDS:
        if key in d and (isinstance(d[key], bool) or not isinstance(d[key], int) or abs(d[key]) > 1000):
            raise WebError(f"play field {key}={d[key]!r} must be a small integer")
    for key in ("suited", "wild_values"):
        v = d.get(key, [])
        if not isinstance(v, list) or len(v) > 20 or any(isinstance(x, bool) or not isinstance(x, int)
                                                         for x in v):
            raise WebError(f"play field {key}={v!r} must be a list of at most 20 integers")
    try:
        return Play.from_dict(d)
    except (TypeError, ValueError) as err:  # the engine's own bounds (e.g. a card id out of range)
        raise WebError(str(err)) from None
