"""``seers demo``: a seeded game between random players, printed move by move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .errors import non_negative

if TYPE_CHECKING:
    from seers_env.game import Game


def play_random_game(n_players: int = 4, seed: int = 0, rounds: int = 4, echo=print) -> Game:
    """Play a whole game with uniformly random legal plays and print every move and the scores.

    Args:
        n_players: 2..5.
        seed: seeds the deal (``Game(config, seed=seed)``) and the players' choices (stream
            ``child_seed(seed, 0)`` of :mod:`seers_env.seeding`).
        rounds: rounds in the game.
        echo: function that prints one line.

    Returns:
        The finished :class:`~seers_env.game.Game`.
    """
    import numpy as np

    from seers_env.cards import SUIT_NAMES
    from seers_env.game import Game, GameConfig
    from seers_env.plays import describe_cards
    from seers_env.seeding import child_seed

    from .tui import play_text, seat_name

    game = Game(GameConfig(n_players=n_players, n_rounds=rounds), seed=seed)
    chooser = np.random.default_rng(child_seed(seed, 0))  # a stream apart from every seed's deal
    shown_round = -1
    while not game.game_over:
        if game.round != shown_round:
            shown_round = game.round
            suits = ", ".join(SUIT_NAMES[s] for s in game.suits)
            echo(f"== Round {game.round + 1}: suits {suits}; Start Seer {seat_name(game.start_seer)} ==")
            for seat, hand in enumerate(game.hands):
                echo(f"  {seat_name(seat)}: {describe_cards(hand)}")
        seat = game.current
        legal = game.legal_plays()
        play = legal[int(chooser.integers(len(legal)))]
        result = game.apply(play)
        echo(f"{seat_name(seat)}: {play_text(play)}")
        if result.trick_winner >= 0:
            echo(f"  -> {seat_name(result.trick_winner)} wins the trick")
        if result.round_scores is not None:
            echo(f"  round scores: {list(result.round_scores)}   totals: {game.totals}")
    echo(f"Final totals: {game.totals}; winner(s): {', '.join(seat_name(w) for w in game.winners())}")
    return game


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @app.command()
    def demo(
        players: int = typer.Option(4, metavar="N", help="Number of players, 2..5."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Seed of the deal and of the random players."),
        rounds: int = typer.Option(4, metavar="N", help="Rounds in the game."),
    ) -> None:
        """Play a seeded Seers Catalog game between random players, move by move, then print the scores."""
        from .play_cli import piped_width, terminal_size, wrapped_echo

        width = terminal_size()[0] or piped_width()  # a pipe or a file: COLUMNS, else 80, as seers play
        try:  # lines wrap at word boundaries
            play_random_game(players, seed, rounds, echo=wrapped_echo(typer.echo, width))
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
