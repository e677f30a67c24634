"""``seers eval``: a duplicate-format tournament between agents from the command line."""

from __future__ import annotations

import typer


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add ``seers eval`` to the ``seers`` app."""

    @app.command("eval")
    def eval_cmd(
        agents: str = typer.Option("heuristic,greedy,random,random",
                                   help="Comma-separated agent specs, one per seat: random, greedy, heuristic, "
                                        "ismcts, ismcts:<iterations>, ismcts:<seconds>s, ppo:<model.zip>."),
        games: int = typer.Option(100, min=1, help="Number of deals; each is played once per seat rotation "
                                                   "(games x players games in all)."),
        seed: int = typer.Option(0, help="Tournament seed: the same seed gives the same results."),
        workers: int = typer.Option(2, min=1, help="Worker processes."),
        rounds: int = typer.Option(4, min=1, help="Rounds per game."),
        artifacts: bool = typer.Option(True, help="Use the default artifact deck (--no-artifacts: the variant "
                                                  "without artifacts)."),
        out: str = typer.Option("", help="Write the full results (stats and every game) to this JSON file."),
        progress: bool = typer.Option(True, help="Show a progress bar."),
    ) -> None:
        """Duplicate tournament: every deal is played with the agents rotated through all seats.

        Prints mean game and round scores with 95% intervals (over per-deal means), win rates with
        Wilson intervals and openskill ratings.
        """
        from rich.console import Console

        from seers_env.artifacts import DEFAULT_ARTIFACT_DECK

        from .tournament import run_tournament

        specs = [s.strip() for s in agents.split(",") if s.strip()]
        if out:
            from pathlib import Path

            folder = Path(out).expanduser().resolve().parent
            if not folder.is_dir():
                raise typer.BadParameter(f"--out {out!r}: folder {str(folder)!r} does not exist")
        try:
            result = run_tournament(specs, games, seed=seed, workers=workers, n_rounds=rounds,
                                    progress=progress,
                                    artifact_deck=DEFAULT_ARTIFACT_DECK if artifacts else ())
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        Console().print(result.table())
        if out:
            result.to_json(out)
            Console().print(f"results written to {out}")
