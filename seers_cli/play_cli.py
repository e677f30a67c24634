"""``seers play`` (a human against agents in the terminal) and ``seers replay FILE`` (step through a log).

One loop serves every game: a game's terminal part (:data:`GAME_UIS`: :class:`SeersUI` for Seers
Catalog, :class:`seers_cli.scout_tui.ScoutUI` for SCOUT) makes the game, shows it and asks for a play.
Both commands print plain text built by :mod:`seers_cli.tui` (SCOUT's by
:mod:`seers_env.scout.render`); on a terminal, lines are wrapped at word
boundaries to its width, and a page of legal plays is cut to fit its height below the game's state, so
that the hand and the trick stay on screen (``shutil.get_terminal_size``, read at each turn). The
commands wrap piped output too, to :func:`piped_width` (``COLUMNS``, else 80). Input is read line by
line; any line that is not a command or a legal play's number is answered with a hint and asked again,
and the end of input counts as ``q`` (quit); input that does not come from a terminal is echoed after
its prompt, so that a piped transcript reads as a session. A game log (the game's ``log()``, plus the
seats' agent names under ``"agents"`` and the game's name under ``"game"``) is saved as JSON with
``--save`` at the end of the game or on quit, and read back by ``seers replay`` (a log without
``"game"`` is a Seers Catalog log).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig
from seers_env.games import DEFAULT_GAME
from seers_env.plays import Play
from seers_env.progress import is_terminal
from seers_env.view import SeatView
from .play_cmd import register
from .tui import (
    PlayMenu,
    count,
    describe_move,
    format_deal,
    format_game_end,
    format_hand,
    format_round_end,
    format_seats,
    format_state,
    format_trick,
    seat_name,
    wrap_line,
)

Echo = Callable[[str], None]
ReadLine = Callable[[str], str]  # raises EOFError at the end of input

#: Fewest rows a page of plays gets on a terminal too short for the state and a page.
MIN_PAGE_ROWS = 4


def terminal_size(width: int | None = None, height: int | None = None) -> tuple[int | None, int | None]:
    """``(width, height)`` to lay the game out in: the given ones, else the terminal's
    (``shutil.get_terminal_size``) when stdout is a terminal, else ``None`` (no wrapping, no limit)."""
    if (width is None or height is None) and is_terminal(sys.stdout):
        columns, lines = shutil.get_terminal_size()
        width = columns if width is None else width
        height = lines if height is None else height
    return width, height


def piped_width() -> int | None:
    """Columns that ``seers play`` and ``seers replay`` wrap their output to when stdout is not a
    terminal (a pipe or a file): ``COLUMNS`` when set, else 80 (``shutil.get_terminal_size``'s
    fallback); ``None`` on a terminal, whose width :func:`terminal_size` reads at each turn."""
    if is_terminal(sys.stdout):
        return None
    return shutil.get_terminal_size().columns


def wrapped_echo(echo: Echo, width: int | None) -> Echo:
    """``echo`` that wraps each line at word boundaries to ``width`` (:func:`seers_cli.tui.wrap_line`)."""
    if width is None:
        return echo

    def out(line: str) -> None:
        for part in wrap_line(line, width):
            echo(part)
    return out


def agent_seed(seed: int, seat: int) -> int:
    """Seed of the agent at ``seat`` in ``seers play --seed seed``: :func:`seers_env.seeding.child_seed`
    ``(seed, seat)``, a stream of its own (the deal is ``Game(config, seed=seed)``; no other seed's deal or
    agent shares it).

    Raises:
        ValueError: a negative or non-integer seed or seat.
    """
    from seers_env.seeding import child_seed

    return child_seed(seed, seat)


def make_agents(specs: Sequence[str], n_players: int, human_seat: int, seed: int,
                game: str = DEFAULT_GAME) -> dict[int, Any]:
    """Build the agents of every seat but ``human_seat``, in seat order, with :func:`agents.make_agent`.

    Args:
        specs: ``n_players - 1`` agent specs (one is repeated for every seat).
        game: the game they play (a name of :data:`seers_env.games.GAMES`).

    Raises:
        ValueError: wrong number of specs, seat out of range, or an unknown spec (message from
            ``agents.make_agent``, listing the valid specs).
    """
    from agents import make_agent

    if not 0 <= human_seat < n_players:
        raise ValueError(f"seat {human_seat!r} is not one of 0..{n_players - 1}")
    specs = [s.strip() for s in specs if s.strip()]
    if len(specs) == 1:
        specs = specs * (n_players - 1)
    if len(specs) != n_players - 1:
        raise ValueError(f"specs={','.join(specs)!r}: {n_players} players need {n_players - 1} agent specs "
                         f"(or one for all), got {len(specs)}")
    seats = [s for s in range(n_players) if s != human_seat]
    agents = {}
    for s, spec in zip(seats, specs):
        try:
            agents[s] = make_agent(spec, seed=agent_seed(seed, s), game=game)
        except ValueError as err:
            raise ValueError(f"specs={spec!r}: {err}") from None
    return agents


def event_lines(event: dict[str, Any], game: Game, names: Sequence[str] | None,
                show_hands: Sequence[int] | None = None) -> list[str]:
    """Text for one engine event (``deal``, ``play``, ``trick``, ``round_end``, ``game_end``).

    ``game`` is the game right after the event (totals, hands at the next deal). ``show_hands``: seats
    whose hands a deal shows (default all).
    """
    kind = event["event"]
    if kind == "deal":
        return [""] + format_deal(game, names, show_hands)
    if kind == "play":
        return [describe_move(event["seat"], Play.from_dict(event["play"]), names)]
    if kind == "trick":
        cards = count(len(event["cards"]), "card")
        if "taken_by" in event:
            return [f"  -> {seat_name(event['taken_by'], names)} takes the trick's {cards} into their hand "
                    "and leads next"]
        return [f"  -> {seat_name(event['won_by'], names)} wins the trick ({cards}) and leads next"]
    if kind == "round_end":
        totals = [sum(r[s] for r in game.round_scores[:event["round"] + 1]) for s in range(game.n_players)]
        return format_round_end(event["scores"], event["hands"], totals, names)
    if kind == "game_end":
        return format_game_end(game, names)
    return [f"  ({kind})"]


def _prompt_reader(prompt: str) -> str:
    try:
        text = typer.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except typer.Abort:  # end of input or Ctrl-C
        raise EOFError from None
    if not is_terminal(sys.stdin):  # no terminal echoes the line: end the prompt's line with it
        typer.echo(text)
    return text


def save_log(game: Game, path: Path, names: Sequence[str]) -> None:
    """Write ``game.log()`` plus ``"agents": names`` and ``"game"`` (the game's registry name, which
    :func:`load_log` reads; a log without it is a Seers Catalog log) as strict JSON to ``path``."""
    from seers_env.jsonio import write_json

    log = game.log()
    log["agents"] = list(names)
    log.setdefault("game", getattr(game, "game_name", DEFAULT_GAME))
    write_json(path, log, indent=None)


def play_game(specs: Sequence[str], n_players: int = 4, seat: int = 0, seed: int = 0, rounds: int | None = 4,
              artifacts: bool = True, page_size: int = 40, save: Path | None = None, delay: float = 0.0,
              read_line: ReadLine = _prompt_reader, echo: Echo = print, width: int | None = None,
              height: int | None = None, game: str = DEFAULT_GAME, target: int | None = None) -> Any:
    """Play a game with a human at ``seat`` (input from ``read_line``) against agents.

    Args:
        specs: agent specs for the other seats in seat order (see :func:`make_agents`).
        n_players: 2..5; ``rounds``: rounds in the game (``None``: the game's default, Seers Catalog 4,
            SCOUT the rules' count); ``artifacts``: default deck or none (Seers Catalog only).
        seed: seeds the deal and (via :func:`agent_seed`) the agents.
        page_size: most plays per page of the menu.
        save: where to save the log (JSON) at the end or on quit; ``None`` does not save.
        delay: seconds to wait after each agent move.
        width, height: the screen in columns and rows: lines are wrapped at word boundaries to
            ``width``, and a page of plays fits in ``height`` below the state (hand and trick); ``None``:
            the terminal's, read at each turn, when stdout is a terminal (:func:`terminal_size`), else
            no wrapping and ``page_size`` plays a page.
        game: the game (:data:`GAME_UIS`): ``"seers_catalog"``, ``"scout"``, ``"seals"``, ``"haggis"``.
        target: Haggis only: the score that ends the game (250 or 350; ``None``: the default).

    Returns:
        The game (:class:`~seers_env.game.Game` or :class:`~seers_env.scout.ScoutGame`), finished or as
        left on quit.

    Raises:
        ValueError: bad game, players, rounds, target, seat or agent specs (nothing is played).
        TypeError: a config field of the wrong type (from the game's config).
    """
    ui = game_ui(game)
    if target is not None and ui.name != "haggis":
        raise ValueError(f"target={target!r}: a target score is a Haggis option; game={ui.name!r} has none")
    extra = {} if target is None else {"target": target}
    table, deck = ui.new_game(n_players, rounds, seed, artifacts, **extra)
    agents = make_agents(specs, n_players, seat, seed, game=ui.name)
    for agent in agents.values():  # a learned agent checks its model against this table before any play
        check = getattr(agent, "check_use", None)
        if check is not None:
            check(n_players, deck)
    names = ["you" if s == seat else agents[s].name for s in range(n_players)]
    return _play_loop(ui, table, agents, seat, names, page_size, save, delay, read_line, echo, width, height)


def _play_loop(ui: Any, game: Any, agents: dict[int, Any], seat: int, names: list[str], page_size: int,
               save: Path | None, delay: float, read_line: ReadLine, echo: Echo, width: int | None,
               height: int | None) -> Any:
    """The loop of :func:`play_game`, shared by every game: ``ui`` (:data:`GAME_UIS`) shows the state,
    asks the human and describes moves and events."""
    out = wrapped_echo(echo, terminal_size(width, height)[0])
    for line in ui.event_lines(game.events[0], game, names, [seat], terminal_size(width, height)[0]):
        out(line)
    quit_ = False
    while not game.game_over:
        current = game.current
        if current == seat:
            forced = ui.forced(game)
            if forced is not None:
                play, why = forced
                out(why)
            else:
                size = terminal_size(width, height)  # at each turn: the terminal may have been resized
                play = ui.ask(game, seat, names, page_size, read_line, wrapped_echo(echo, size[0]), *size)
                if play is None:
                    quit_ = True
                    break
        else:
            play = agents[current].act(ui.view(game, current))
        for line in ui.move_lines(game, play, names, seat):
            out(line)
        before = len(game.events)
        game.apply(play)
        for event in game.events[before:]:
            for line in ui.event_lines(event, game, names, [seat], terminal_size(width, height)[0]):
                out(line)
        if current != seat and delay > 0:
            time.sleep(delay)
    if quit_:
        out("You quit the game.")
    if save is not None:
        save_log(game, save, names)
        out(f"Game log saved to {save} (seers replay {save})")
    return game


class SeersUI:
    """Seers Catalog's part of :func:`play_game` and :func:`replay_game` (one of :data:`GAME_UIS`):
    how a game is made, shown, asked for a play and rebuilt from its log. Stateless."""

    name = "seers_catalog"
    title = "Seers Catalog"
    #: keys every log of the game has (:meth:`Game.log`)
    log_keys = ("config", "initial_rng_state", "events")

    def new_game(self, n_players: int, rounds: int | None, seed: int, artifacts: bool) -> tuple[Game, tuple]:
        """A new game and its artifact deck (``rounds=None``: 4)."""
        deck = DEFAULT_ARTIFACT_DECK if artifacts else ()
        return Game(GameConfig(n_players=n_players, n_rounds=4 if rounds is None else rounds,
                               artifact_deck=deck), seed=seed), deck

    def view(self, game: Game, seat: int) -> SeatView:
        """What an agent at ``seat`` may see."""
        return SeatView(game, seat)

    def move_lines(self, game: Game, play: Play, names: Sequence[str] | None, me: int | None) -> list[str]:
        """Nothing: a Seers Catalog play is described from its logged event (it carries its cards)."""
        return []

    def event_lines(self, event: dict[str, Any], game: Game, names: Sequence[str] | None,
                    show_hands: Sequence[int] | None = None, width: int | None = None) -> list[str]:
        """:func:`event_lines` (``width`` unused: lines are wrapped by the caller)."""
        return event_lines(event, game, names, show_hands)

    def forced(self, game: Game) -> tuple[Play, str] | None:
        """The pass, when it is the only legal play (no question asked)."""
        legal = game.legal_plays()
        if len(legal) == 1 and legal[0].is_pass:
            return legal[0], "You have no play that beats the top meld: you pass."
        return None

    def ask(self, game: Game, seat: int, names: Sequence[str], page_size: int, read_line: ReadLine,
            echo: Echo, width: int | None = None, height: int | None = None) -> Play | None:
        """The human's play from the menu (:func:`_ask_play`); ``None``: quit."""
        return _ask_play(game, seat, names, game.legal_plays(), page_size, read_line, echo, width, height)

    def state_lines(self, game: Game, names: Sequence[str] | None) -> list[str]:
        """Seats, trick and every hand (``s`` in a replay)."""
        lines = ["Seats:"] + format_seats(game, None, names) + ["Trick:"] + format_trick(game, names)
        for s in range(game.n_players):
            lines.append(f" {seat_name(s, names)}:")
            lines += format_hand(game.hands[s], game.known[s])
        return lines

    def replay(self, log: dict[str, Any], upto: int | None = None) -> Game:
        """The game rebuilt from ``log`` (:meth:`Game.replay`; its errors)."""
        return Game.replay(log, upto=upto)

    def logged_plays(self, log: dict[str, Any]) -> list[Play]:
        """Every play of ``log`` in order (a checked log: :func:`load_log`)."""
        return [Play.from_dict(e["play"]) for e in log["events"] if e["event"] == "play"]


#: The terminal part of each game, by registry name (:data:`seers_env.games.GAMES`): ``module:class``,
#: imported on first use. A class has the methods of :class:`SeersUI`.
GAME_UIS: dict[str, str] = {
    "seers_catalog": "seers_cli.play_cli:SeersUI",
    "scout": "seers_cli.scout_tui:ScoutUI",
    "seals": "seers_cli.seals_tui:SealsUI",
    "haggis": "seers_cli.haggis_tui:HaggisUI",
}


def game_ui(name: Any) -> Any:
    """A new terminal part (:data:`GAME_UIS`) of the game ``name``.

    Raises:
        ValueError: no such game (the message lists the games).
    """
    if not isinstance(name, str) or name not in GAME_UIS:
        raise ValueError(f"game={name!r} is not a game seers play knows; use one of {', '.join(GAME_UIS)}")
    import importlib

    module, _, attr = GAME_UIS[name].partition(":")
    return getattr(importlib.import_module(module), attr)()


PROMPT = "Your play (number, or h for help):"


def _ask_play(game: Game, seat: int, names: Sequence[str], legal: list[Play], page_size: int,
              read_line: ReadLine, echo: Echo, width: int | None = None, height: int | None = None) -> Play | None:
    """Show the state and the menu, read lines until a legal play is chosen; ``None`` means quit
    (:func:`choose` with a :class:`~seers_cli.tui.PlayMenu`)."""
    return choose([""] + format_state(game, seat, names, width),
                  lambda rows: PlayMenu(legal, page_size, width=width, rows=rows), read_line, echo, width, height)


def choose(state: list[str], make_menu: Callable[[int | None], Any], read_line: ReadLine, echo: Echo,
           width: int | None = None, height: int | None = None) -> Any:
    """Show ``state`` and a menu, read lines until an item is chosen; ``None`` means quit (``q`` or the
    end of input).

    ``make_menu(rows)`` builds the :class:`~seers_cli.tui.ChoiceMenu` (``rows``: lines a page may fill,
    ``None``: no limit). ``echo`` wraps at ``width``; with ``height``, a page of items fills what the
    state, the menu's summary, the page's heading and the prompt leave of it (at least
    :data:`MIN_PAGE_ROWS`), and every new page is shown under the state again, so that the hand and
    the table stay on screen."""
    menu = make_menu(None)
    head = list(state) + [menu.summary()]
    if height is not None:
        used = sum(len(wrap_line(line, width)) for line in head) + len(wrap_line(PROMPT, width)) + 1
        menu = make_menu(max(MIN_PAGE_ROWS, height - used))

    def show(page: list[str]) -> None:
        for line in head + page:
            echo(line)

    show(menu.page_lines())
    while True:
        try:
            text = read_line(PROMPT)
        except EOFError:
            return None
        reply = menu.handle(text)
        if reply.quit:
            return None
        if reply.play is not None:
            return reply.play
        if reply.page:
            show(reply.lines or [])
        else:
            for line in reply.lines or []:
                echo(line)


def log_game(log: dict[str, Any], path: Path | str = "game log") -> str:
    """The game of a log: its ``"game"`` field (:func:`save_log` writes it), ``"seers_catalog"`` when
    there is none (logs of older versions).

    Raises:
        ValueError: the field names no game of :data:`GAME_UIS` (the message names the file and field).
    """
    name = log.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in GAME_UIS:
        shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:57] + "..."
        raise ValueError(f"{path}: field 'game'={shown} is not a game seers replay knows; use one of "
                         f"{', '.join(GAME_UIS)}")
    return name


def load_log(path: Path) -> dict[str, Any]:
    """Read a game log saved by ``seers play --save`` (or any ``log()`` / ``to_dict()`` of a game) of any
    game of :data:`GAME_UIS` (:func:`log_game`), and check it by replaying it with the engine.

    Raises:
        ValueError: the file is not JSON, or not a game log this engine can replay (the message names
            the file and says why).
        OSError: the file cannot be read.
    """
    from seers_env.jsonio import read_json_file

    log = read_json_file(path, "game log", strict=False)  # ValueError naming the file (not JSON, too deep)
    if not isinstance(log, dict):
        raise ValueError(f"{path} is not a game log: it needs the keys config, initial_rng_state, events")
    ui = game_ui(log_game(log, path))
    if not set(ui.log_keys) <= set(log):
        raise ValueError(f"{path} is not a game log: it needs the keys {', '.join(ui.log_keys)}")
    try:
        game = ui.replay(log)  # checks the config, every play and deal
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    except (KeyError, TypeError, AttributeError, IndexError, RecursionError) as err:
        raise ValueError(f"{path} is not a valid game log ({type(err).__name__}: {err})") from None
    agents = log.get("agents")
    if agents is not None and not (isinstance(agents, list) and len(agents) == game.n_players
                                   and all(isinstance(a, str) for a in agents)):
        shown = repr(agents) if len(repr(agents)) <= 200 else repr(agents)[:197] + "..."
        raise ValueError(f"{path}: 'agents' must be a list of {game.n_players} agent names, got {shown}")
    return log


def replay_game(log: dict[str, Any], step: bool = True, read_line: ReadLine = _prompt_reader,
                echo: Echo = print, width: int | None = None) -> Any:
    """Show a logged game (of the game :func:`log_game` names) move by move, rebuilding it with the engine.

    With ``step``, wait after each move for a line: empty = next move, a number N = N moves, ``a`` = to
    the end, ``s`` = the state (seats, table, every hand), ``q`` or end of input = stop. Lines are
    wrapped at word boundaries to ``width`` (``None``: the terminal's when stdout is one, else none).

    Returns:
        The rebuilt game at the point where the replay stopped.

    Raises:
        ValueError / IllegalPlayError: the log does not replay with this engine (see :func:`load_log`).
    """
    ui = game_ui(log_game(log))
    names = log.get("agents")
    width = terminal_size(width)[0]
    echo = wrapped_echo(echo, width)
    game = ui.replay(log, upto=0)
    plays = ui.logged_plays(log)
    if game.events:
        for line in ui.event_lines(game.events[0], game, names, None, width):
            echo(line)
    else:  # a log that starts from a hand-made position (SCOUT's ``origin``): no deal to show
        for line in ["Starting position:"] + ui.state_lines(game, names):
            echo(line)
    skip = 0
    for i, play in enumerate(plays):
        for line in ui.move_lines(game, play, names, None):
            echo(line)
        before = len(game.events)
        game.apply(play)
        for event in game.events[before:]:
            for line in ui.event_lines(event, game, names, None, width):
                echo(line)
        if not step or i == len(plays) - 1:
            continue
        if skip > 0:
            skip -= 1
            continue
        prompt = f"[move {i + 1}/{len(plays)}] Enter: next, N: N moves, a: all, s: state, q: quit"
        if width is not None and len(prompt) >= width:  # a narrow screen: the keys alone
            prompt = f"[move {i + 1}/{len(plays)}] Enter/N/a/s/q"
        while True:
            try:
                text = read_line(prompt).strip().lower()
            except EOFError:
                text = "q"
            if text == "":
                break
            if text == "q":
                echo("Replay stopped.")
                return game
            if text == "a":
                step = False
                break
            if text == "s":
                for line in ui.state_lines(game, names):
                    echo(line)
                continue
            if text.isdigit() and int(text) >= 1:
                skip = int(text) - 1
                break
            echo(f"{text!r} is not understood: press Enter, or type a number >= 1, a, s or q.")
    if not game.game_over:
        echo(f"(log ends after {count(len(plays), 'move')}, before the end of the game)")
    return game


__all__ = ["GAME_UIS", "SeersUI", "agent_seed", "choose", "event_lines", "game_ui", "load_log", "log_game",
           "make_agents", "piped_width", "play_game", "register", "replay_game", "save_log", "terminal_size",
           "wrapped_echo"]
