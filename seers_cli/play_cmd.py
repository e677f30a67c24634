"""The ``seers play`` and ``seers replay`` commands (their options and help); the game itself is
:mod:`seers_cli.play_cli`, imported when a command runs, so that ``seers --help`` does not load the
engine."""

from __future__ import annotations

from pathlib import Path

import typer

from .errors import non_negative, wait_seconds


#: ``--players`` when not given, by game (the games' configs: Seals and Haggis default to 3).
DEFAULT_PLAYERS = {"seers_catalog": 4, "scout": 4, "seals": 3, "haggis": 3}


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add ``seers play`` and ``seers replay`` to ``app``."""

    @app.command()
    def play(
        game: str = typer.Option("seers_catalog", metavar="GAME", help="The game: seers_catalog, scout, seals or haggis."),
        players: int = typer.Option(None, metavar="N", help="Number of players: Seers Catalog and SCOUT 2..5 "
                                    "(default 4), Seals 2..4 and Haggis 2..3 (default 3)."),
        agents: str = typer.Option("heuristic", metavar="SPECS", help="Comma-separated agent specs for the other seats in "
                                   "seat order (one spec is used for all), e.g. learned,heuristic,ismcts; specs: "
                                   "random, greedy, heuristic, ismcts[:<budget>], learned (the shipped model "
                                   "of the game and player count: train/models/), learned:<model.pt>, "
                                   "learned+search:<iterations>, ppo:<model.zip>, rollout:<shuffles> (Seals only)."),
        seat: int = typer.Option(0, metavar="SEAT", help="Your seat, 0..players-1."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Seed of the deal and of the agents."),
        rounds: int = typer.Option(None, metavar="N", help="Rounds in the game (default: Seers Catalog 4; SCOUT "
                                   "the rules' count, 2 players 2, else one per player; Seals: Marks in the "
                                   "round counter, 5; Haggis: a fixed number of rounds instead of a target)."),
        target: int = typer.Option(None, metavar="POINTS", help="Haggis: the score that ends the game, 250 or "
                                   "350  [default: 350]"),
        artifacts: bool = typer.Option(None, help="Seers Catalog: play with the default artifact deck (or "
                                       "none)  [default: artifacts]"),
        save: Path = typer.Option(None, metavar="FILE", help="Save the game log here as JSON (at the end or on quit)."),
        page_size: int = typer.Option(40, min=1, metavar="N", help="Most legal plays listed per page (on a "
                                      "terminal, fewer when more would push your hand and the trick off "
                                      "the screen)."),
        delay: float = typer.Option(0.0, callback=wait_seconds, metavar="SECONDS", help="Seconds to wait after each agent move."),
    ) -> None:
        """Play Seers Catalog, SCOUT, Seals or Haggis in the terminal against agents: pick your plays by number."""
        from .play_cli import GAME_UIS, piped_width, play_game

        if game not in GAME_UIS:
            raise typer.BadParameter(f"{game!r} is not one of {', '.join(GAME_UIS)}", param_hint="--game")
        if game != "seers_catalog" and artifacts is not None:
            raise typer.BadParameter(f"artifacts are a Seers Catalog option; --game {game} has none",
                                     param_hint="--artifacts / --no-artifacts")
        if game != "haggis" and target is not None:
            raise typer.BadParameter(f"a target score is a Haggis option; --game {game} has none",
                                     param_hint="--target")
        if game == "haggis" and target is not None and rounds is not None:
            raise typer.BadParameter("a Haggis game has a target or a fixed number of rounds, not both",
                                     param_hint="--target / --rounds")
        if save is not None and not save.parent.exists():
            raise typer.BadParameter(f"folder {str(save.parent)!r} does not exist", param_hint="--save")
        from .errors import option_error

        if players is None:
            players = DEFAULT_PLAYERS.get(game, 4)
        if players in (2, 3, 4, 5) and not 0 <= seat < players:
            raise typer.BadParameter(f"seat {seat} is not one of 0..{players - 1}", param_hint="'--seat'")
        try:
            play_game(agents.split(","), players, seat, seed, rounds, artifacts is not False, page_size, save,
                      delay, echo=typer.echo, width=piped_width(), game=game, target=target)
        except ValueError as err:
            raise option_error(err, {"n_players": "--players", "n_rounds": "--rounds", "seat": "--seat",
                                     "specs": "--agents", "seed": "--seed",
                                     "target": "--target"}, game) from None

    @app.command()
    def replay(
        file: Path = typer.Argument(..., help="Game log saved by 'seers play --save' (JSON; any game, read "
                                    "from its 'game' field)."),
        all_: bool = typer.Option(False, "--all", help="Print every move at once instead of stepping."),
    ) -> None:
        """Step through a saved game log move by move (Enter for the next move)."""
        from .play_cli import load_log, piped_width, replay_game

        try:
            log = load_log(file)
        except (OSError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="FILE") from None
        replay_game(log, step=not all_, echo=typer.echo, width=piped_width())
