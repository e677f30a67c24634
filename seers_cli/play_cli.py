"""``seers play`` (a human against agents in the terminal) and ``seers replay FILE`` (step through a log).

Both commands print plain text built by :mod:`seers_cli.tui`; on a terminal, lines are wrapped at word
boundaries to its width, and a page of legal plays is cut to fit its height below the game's state, so
that the hand and the trick stay on screen (``shutil.get_terminal_size``, read at each turn). Input is
read line by line; any line that is not a command or a legal play's number is answered with a hint and
asked again, and the end of input counts as ``q`` (quit). A game log (:meth:`seers_env.game.Game.log`, plus the seats' agent names under
``"agents"``) is saved as JSON with ``--save`` at the end of the game or on quit, and read back by
``seers replay``.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig
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


def make_agents(specs: Sequence[str], n_players: int, human_seat: int, seed: int) -> dict[int, Any]:
    """Build the agents of every seat but ``human_seat``, in seat order, with :func:`agents.make_agent`.

    Args:
        specs: ``n_players - 1`` agent specs (one is repeated for every seat).

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
            agents[s] = make_agent(spec, seed=agent_seed(seed, s))
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
        return typer.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except typer.Abort:  # end of input or Ctrl-C
        raise EOFError from None


def save_log(game: Game, path: Path, names: Sequence[str]) -> None:
    """Write ``game.log()`` plus ``"agents": names`` as strict JSON to ``path``."""
    from seers_env.jsonio import write_json

    log = game.log()
    log["agents"] = list(names)
    write_json(path, log, indent=None)


def play_game(specs: Sequence[str], n_players: int = 4, seat: int = 0, seed: int = 0, rounds: int = 4,
              artifacts: bool = True, page_size: int = 40, save: Path | None = None, delay: float = 0.0,
              read_line: ReadLine = _prompt_reader, echo: Echo = print, width: int | None = None,
              height: int | None = None) -> Game:
    """Play a game with a human at ``seat`` (input from ``read_line``) against agents.

    Args:
        specs: agent specs for the other seats in seat order (see :func:`make_agents`).
        n_players: 2..5; ``rounds``: rounds in the game; ``artifacts``: default deck or none.
        seed: seeds the deal and (via :func:`agent_seed`) the agents.
        page_size: most plays per page of the menu.
        save: where to save the log (JSON) at the end or on quit; ``None`` does not save.
        delay: seconds to wait after each agent move.
        width, height: the screen in columns and rows: lines are wrapped at word boundaries to
            ``width``, and a page of plays fits in ``height`` below the state (hand and trick); ``None``:
            the terminal's, read at each turn, when stdout is a terminal (:func:`terminal_size`), else
            no wrapping and ``page_size`` plays a page.

    Returns:
        The game, finished or as left on quit.

    Raises:
        ValueError: bad players, rounds, seat or agent specs (nothing is played).
    """
    deck = DEFAULT_ARTIFACT_DECK if artifacts else ()
    game = Game(GameConfig(n_players=n_players, n_rounds=rounds, artifact_deck=deck), seed=seed)
    agents = make_agents(specs, n_players, seat, seed)
    for agent in agents.values():  # a learned agent checks its model against this table before any play
        check = getattr(agent, "check_use", None)
        if check is not None:
            check(n_players, deck)
    names = ["you" if s == seat else agents[s].name for s in range(n_players)]
    out = wrapped_echo(echo, terminal_size(width, height)[0])
    for line in event_lines(game.events[0], game, names, show_hands=[seat]):
        out(line)
    quit_ = False
    while not game.game_over:
        current = game.current
        if current == seat:
            legal = game.legal_plays()
            if len(legal) == 1 and legal[0].is_pass:
                out("You have no play that beats the top meld: you pass.")
                play = legal[0]
            else:
                size = terminal_size(width, height)  # at each turn: the terminal may have been resized
                play = _ask_play(game, seat, names, legal, page_size, read_line, wrapped_echo(echo, size[0]), *size)
                if play is None:
                    quit_ = True
                    break
        else:
            play = agents[current].act(SeatView(game, current))
        before = len(game.events)
        game.apply(play)
        for event in game.events[before:]:
            for line in event_lines(event, game, names, show_hands=[seat]):
                out(line)
        if current != seat and delay > 0:
            time.sleep(delay)
    if quit_:
        out("You quit the game.")
    if save is not None:
        save_log(game, save, names)
        out(f"Game log saved to {save} (seers replay {save})")
    return game


PROMPT = "Your play (number, or h for help):"


def _ask_play(game: Game, seat: int, names: Sequence[str], legal: list[Play], page_size: int,
              read_line: ReadLine, echo: Echo, width: int | None = None, height: int | None = None) -> Play | None:
    """Show the state and the menu, read lines until a legal play is chosen; ``None`` means quit.

    ``echo`` wraps at ``width``; with ``height``, a page of plays fills what the state, the summary,
    the page's heading and the prompt leave of it (at least :data:`MIN_PAGE_ROWS`), and every new
    page is shown under the state again, so that the hand and the trick stay on screen."""
    head = [""] + format_state(game, seat, names)
    menu = PlayMenu(legal, page_size, width=width)
    head.append(menu.summary())
    if height is not None:
        used = sum(len(wrap_line(line, width)) for line in head) + len(wrap_line(PROMPT, width)) + 1
        menu = PlayMenu(legal, page_size, width=width, rows=max(MIN_PAGE_ROWS, height - used))

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


def load_log(path: Path) -> dict[str, Any]:
    """Read a game log saved by ``seers play --save`` (or any :meth:`Game.log` / :meth:`Game.to_dict`).

    Raises:
        ValueError: the file is not JSON, or not a game log this engine can replay (message says why).
        OSError: the file cannot be read.
    """
    from seers_env.jsonio import read_json_file

    log = read_json_file(path, "game log", strict=False)  # ValueError naming the file (not JSON, too deep)
    if not isinstance(log, dict) or not {"config", "initial_rng_state", "events"} <= set(log):
        raise ValueError(f"{path} is not a game log: it needs the keys config, initial_rng_state, events")
    agents = log.get("agents")
    n_players = log["config"].get("n_players") if isinstance(log["config"], dict) else None
    if agents is not None and not (isinstance(agents, list) and len(agents) == n_players
                                   and all(isinstance(a, str) for a in agents)):
        raise ValueError(f"{path}: 'agents' must be a list of {n_players} agent names, got {agents!r}")
    try:
        Game.replay(log)  # checks every play and deal
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"{path} is not a valid game log ({type(err).__name__}: {err})") from None
    return log


def replay_game(log: dict[str, Any], step: bool = True, read_line: ReadLine = _prompt_reader,
                echo: Echo = print, width: int | None = None) -> Game:
    """Show a logged game move by move, rebuilding it with the engine.

    With ``step``, wait after each move for a line: empty = next move, a number N = N moves, ``a`` = to
    the end, ``s`` = the state (seats, trick, every hand), ``q`` or end of input = stop. Lines are
    wrapped at word boundaries to ``width`` (``None``: the terminal's when stdout is one, else none).

    Returns:
        The rebuilt game at the point where the replay stopped.

    Raises:
        ValueError / IllegalPlayError: the log does not replay with this engine (see :func:`load_log`).
    """
    names = log.get("agents")
    echo = wrapped_echo(echo, terminal_size(width)[0])
    game = Game.replay(log, upto=0)
    plays = [Play.from_dict(e["play"]) for e in log["events"] if e["event"] == "play"]
    for line in event_lines(game.events[0], game, names):
        echo(line)
    skip = 0
    for i, play in enumerate(plays):
        before = len(game.events)
        game.apply(play)
        for event in game.events[before:]:
            for line in event_lines(event, game, names):
                echo(line)
        if not step or i == len(plays) - 1:
            continue
        if skip > 0:
            skip -= 1
            continue
        while True:
            try:
                text = read_line(f"[move {i + 1}/{len(plays)}] Enter: next, N: N moves, a: all, s: state, "
                                 "q: quit").strip().lower()
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
                echo("Seats:")
                for line in format_seats(game, None, names) + ["Trick:"] + format_trick(game, names):
                    echo(line)
                for s in range(game.n_players):
                    echo(f" {seat_name(s, names)}:")
                    for line in format_hand(game.hands[s], game.known[s]):
                        echo(line)
                continue
            if text.isdigit() and int(text) >= 1:
                skip = int(text) - 1
                break
            echo(f"{text!r} is not understood: press Enter, or type a number >= 1, a, s or q.")
    if not game.game_over:
        echo(f"(log ends after {count(len(plays), 'move')}, before the end of the game)")
    return game


__all__ = ["agent_seed", "event_lines", "load_log", "make_agents", "play_game", "register", "replay_game",
           "save_log", "terminal_size", "wrapped_echo"]
