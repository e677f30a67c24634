"""``seers bench engine``: random-play throughput of the rules engine at each player count."""

from __future__ import annotations

import time

import numpy as np
import typer

from ..game import Game, GameConfig


def engine_throughput(n_players: int, seconds: float = 3.0, seed: int = 0,
                      artifacts: bool = True) -> dict[str, float]:
    """Play uniformly random legal plays (full legal-play generation at every step) for ``seconds``.

    Returns:
        ``{"players", "plays_per_s", "games_per_s", "plays_per_game", "max_legal_plays"}`` (one core).
    """
    config = GameConfig(n_players=n_players) if artifacts else GameConfig(n_players=n_players, artifact_deck=())
    rng = np.random.default_rng(seed)
    plays = games = max_legal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(config, seed=int(rng.integers(2**31)))
        while not game.game_over:
            legal = game.legal_plays()
            max_legal = max(max_legal, len(legal))
            game.apply(legal[int(rng.random() * len(legal))])
            plays += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"players": n_players, "plays_per_s": plays / elapsed, "games_per_s": games / elapsed,
            "plays_per_game": plays / max(games, 1), "max_legal_plays": max_legal}


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @bench_app.command("engine")
    def bench_engine(
        seconds: float = typer.Option(3.0, help="Wall time per player count, in seconds."),
        seed: int = typer.Option(0, help="Seed of the deals and of the random choices."),
        artifacts: bool = typer.Option(True, help="Use the default artifact deck (or none)."),
    ) -> None:
        """Random-play engine throughput (plays/s, games/s) at 2..5 players on one core.

        Target: at least 20,000 plays/s for 4 players.
        """
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"Engine random play ({seconds:g} s each, one core)")
        for col in ("players", "plays/s", "games/s", "plays/game", "max legal plays", "vs 20k target"):
            table.add_column(col, justify="right")
        for n in (2, 3, 4, 5):
            r = engine_throughput(n, seconds, seed, artifacts)
            table.add_row(str(n), f"{r['plays_per_s']:,.0f}", f"{r['games_per_s']:.1f}",
                          f"{r['plays_per_game']:.0f}", str(r["max_legal_plays"]),
                          f"{r['plays_per_s'] / 20000:.2f}x")
        Console().print(table)
