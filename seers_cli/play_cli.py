"""``seers play`` (a human against agents in the terminal) and ``seers replay FILE`` (step through a log).

Both commands print plain text built by :mod:`seers_cli.tui`. Input is read line by line; any line that
is not a command or a legal play's number is answered with a hint and asked again, and the end of input
counts as ``q`` (quit). A game log (:meth:`seers_env.game.Game.log`, plus the seats' agent names under
``"agents"``) is saved as JSON with ``--save`` at the end of the game or on quit, and read back by
``seers replay``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig
from seers_env.plays import Play
from .errors import non_negative
from .tui import (
    PlayMenu,
    describe_move,
    format_deal,
    format_game_end,
    format_hand,
    format_round_end,
    format_seats,
    format_state,
    format_trick,
    seat_name,
)
from seers_env.view import SeatView

Echo = Callable[[str], None]
ReadLine = Callable[[str], str]  # raises EOFError at the end of input


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
        n = len(event["cards"])
        if "taken_by" in event:
            return [f"  -> {seat_name(event['taken_by'], names)} takes the trick's {n} cards into their hand "
                    "and leads next"]
        return [f"  -> {seat_name(event['won_by'], names)} wins the trick ({n} cards) and leads next"]
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
              read_line: ReadLine = _prompt_reader, echo: Echo = print) -> Game:
    """Play a game with a human at ``seat`` (input from ``read_line``) against agents.

    Args:
        specs: agent specs for the other seats in seat order (see :func:`make_agents`).
        n_players: 2..5; ``rounds``: rounds in the game; ``artifacts``: default deck or none.
        seed: seeds the deal and (via :func:`agent_seed`) the agents.
        page_size: plays per page of the menu.
        save: where to save the log (JSON) at the end or on quit; ``None`` does not save.
        delay: seconds to wait after each agent move.

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
    for line in event_lines(game.events[0], game, names, show_hands=[seat]):
        echo(line)
    quit_ = False
    while not game.game_over:
        current = game.current
        if current == seat:
            legal = game.legal_plays()
            if len(legal) == 1 and legal[0].is_pass:
                echo("You have no play that beats the top meld: you pass.")
                play = legal[0]
            else:
                play = _ask_play(game, seat, names, legal, page_size, read_line, echo)
                if play is None:
                    quit_ = True
                    break
        else:
            play = agents[current].act(SeatView(game, current))
        before = len(game.events)
        game.apply(play)
        for event in game.events[before:]:
            for line in event_lines(event, game, names, show_hands=[seat]):
                echo(line)
        if current != seat and delay > 0:
            time.sleep(delay)
    if quit_:
        echo("You quit the game.")
    if save is not None:
        save_log(game, save, names)
        echo(f"Game log saved to {save} (seers replay {save})")
    return game


def _ask_play(game: Game, seat: int, names: Sequence[str], legal: list[Play], page_size: int,
              read_line: ReadLine, echo: Echo) -> Play | None:
    """Show the state and the menu, read lines until a legal play is chosen; ``None`` means quit."""
    echo("")
    for line in format_state(game, seat, names):
        echo(line)
    menu = PlayMenu(legal, page_size)
    echo(menu.summary())
    for line in menu.page_lines():
        echo(line)
    while True:
        try:
            text = read_line("Your play (number, or h for help):")
        except EOFError:
            return None
        reply = menu.handle(text)
        if reply.quit:
            return None
        if reply.play is not None:
            return reply.play
        for line in reply.lines or []:
            echo(line)


def load_log(path: Path) -> dict[str, Any]:
    """Read a game log saved by ``seers play --save`` (or any :meth:`Game.log` / :meth:`Game.to_dict`).

    Raises:
        ValueError: the file is not JSON, or not a game log this engine can replay (message says why).
        OSError: the file cannot be read.
    """
    try:
        log = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path} is not JSON: {err}") from None
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
                echo: Echo = print) -> Game:
    """Show a logged game move by move, rebuilding it with the engine.

    With ``step``, wait after each move for a line: empty = next move, a number N = N moves, ``a`` = to
    the end, ``s`` = the state (seats, trick, every hand), ``q`` or end of input = stop.

    Returns:
        The rebuilt game at the point where the replay stopped.

    Raises:
        ValueError / IllegalPlayError: the log does not replay with this engine (see :func:`load_log`).
    """
    names = log.get("agents")
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
        echo(f"(log ends after {len(plays)} moves, before the end of the game)")
    return game


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add ``seers play`` and ``seers replay`` to ``app``."""

    @app.command()
    def play(
        players: int = typer.Option(4, metavar="N", help="Number of players, 2..5."),
        agents: str = typer.Option("heuristic", metavar="SPECS", help="Comma-separated agent specs for the other seats in "
                                   "seat order (one spec is used for all), e.g. learned,heuristic,ismcts; specs: "
                                   "random, greedy, heuristic, ismcts[:<budget>], learned (the shipped "
                                   "3- and 4-player models), learned:<model.pt>, ppo:<model.zip>."),
        seat: int = typer.Option(0, metavar="SEAT", help="Your seat, 0..players-1."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Seed of the deal and of the agents."),
        rounds: int = typer.Option(4, metavar="N", help="Rounds in the game."),
        artifacts: bool = typer.Option(True, help="Play with the default artifact deck (or none)."),
        save: Path = typer.Option(None, metavar="FILE", help="Save the game log here as JSON (at the end or on quit)."),
        page_size: int = typer.Option(40, min=1, metavar="N", help="Legal plays listed per page."),
        delay: float = typer.Option(0.0, min=0.0, metavar="SECONDS", help="Seconds to wait after each agent move."),
    ) -> None:
        """Play Seers Catalog in the terminal against agents: pick your plays by number."""
        if save is not None and not save.parent.exists():
            raise typer.BadParameter(f"folder {str(save.parent)!r} does not exist", param_hint="--save")
        from .errors import option_error

        if players in (2, 3, 4, 5) and not 0 <= seat < players:
            raise typer.BadParameter(f"seat {seat} is not one of 0..{players - 1}", param_hint="'--seat'")
        try:
            play_game(agents.split(","), players, seat, seed, rounds, artifacts, page_size, save, delay,
                      echo=typer.echo)
        except ValueError as err:
            raise option_error(err, {"n_players": "--players", "n_rounds": "--rounds", "seat": "--seat",
                                     "specs": "--agents", "seed": "--seed"}) from None

    @app.command()
    def replay(
        file: Path = typer.Argument(..., help="Game log saved by 'seers play --save' (JSON)."),
        all_: bool = typer.Option(False, "--all", help="Print every move at once instead of stepping."),
    ) -> None:
        """Step through a saved game log move by move (Enter for the next move)."""
        try:
            log = load_log(file)
        except (OSError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="FILE") from None
        replay_game(log, step=not all_, echo=typer.echo)
