"""Seals in ``seers play --game seals`` and ``seers replay``: its part of the shared loop of
:mod:`seers_cli.play_cli` (:class:`SealsUI`) and its menu (:class:`SealsMenu`).

The text (the face-up row, every hand, Marks, moves and round ends in words) is
:mod:`seers_env.seals.render`. A turn has two decisions (rules section 3): a take (a colour or a
symbol of the face-up row) and, when the hand holds a set after it, a declaration (nothing, or sets).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seers_env.seals import SealsConfig, SealsGame, SealsPlay, SealsSeatView
from seers_env.seals import render
from seers_env.seals.game import PHASE_DECLARE
from seers_env.seals.plays import TAKE_COLOUR, TAKE_SYMBOL

from .tui import ChoiceMenu

HELP = [
    "Type the number of a play to make it. Other commands:",
    "  l all plays   c colours   s symbols   f WORDS plays whose text holds WORDS",
    "  n / b  next / previous page   h this help   q quit (saves with --save)",
    "Take (section 3): every face-up card of one colour, or of one symbol.",
    "Declare (section 4): four of a number (1-5: 1 Mark, 6-10: 2), four Coins",
    "  (3), a 1-10 run (4); declaring wins the round. 5 Marks win the game.",
]


class SealsMenu(ChoiceMenu):
    """The numbered menu of one Seals decision (:class:`~seers_cli.tui.ChoiceMenu`): takes by colour
    (``c``) and by symbol (``s``), or declarations."""

    noun = "legal play"
    views = {"l": ("all plays", lambda p: True), "c": ("takes by colour", lambda p: p.kind == TAKE_COLOUR),
             "s": ("takes by symbol", lambda p: p.kind == TAKE_SYMBOL)}
    summary_views = (("c", "by colour"), ("s", "by symbol"))
    help_lines = HELP

    def __init__(self, items, texts, page_size: int = 40, width: int | None = None, rows: int | None = None,
                 declare: bool = False):
        if declare:  # a declaration (section 4) has no takes to sort by colour or symbol
            self.views = {"l": ("all declarations", lambda p: True)}
            self.summary_views = ()
        super().__init__(items, texts, page_size, width, rows)


class SealsUI:
    """Seals' part of :func:`seers_cli.play_cli.play_game` and :func:`~seers_cli.play_cli.replay_game`
    (one of :data:`seers_cli.play_cli.GAME_UIS`; the methods of :class:`seers_cli.play_cli.SeersUI`).
    Stateless."""

    name = "seals"
    title = "Seals"
    #: keys every log of the game has (:meth:`SealsGame.log`)
    log_keys = ("game", "config", "initial_rng_state", "origin", "events")

    def new_game(self, n_players: int, rounds: int | None, seed: int, artifacts: Any = None) -> tuple[SealsGame, tuple]:
        """A new game (``rounds``: Marks in the round counter, section 2; ``None``: 5) and its (empty)
        artifact deck; ``artifacts`` is a Seers Catalog option and is not read.

        Raises:
            ValueError / TypeError: from :class:`~seers_env.seals.SealsConfig` (naming the field).
        """
        cfg = SealsConfig(n_players=n_players) if rounds is None else SealsConfig(n_players=n_players,
                                                                                 n_rounds=rounds)
        return SealsGame(cfg, seed=seed), ()

    def view(self, game: SealsGame, seat: int) -> SealsSeatView:
        """What an agent at ``seat`` may see."""
        return SealsSeatView(game, seat)

    def move_lines(self, game: SealsGame, play: SealsPlay, names: Sequence[str] | None,
                   me: int | None) -> list[str]:
        """The move of the seat to act in words, before it is applied."""
        return [render.describe_play(game, play, names)]

    def event_lines(self, event: dict[str, Any], game: SealsGame, names: Sequence[str] | None,
                    show_hands: Sequence[int] | None = None, width: int | None = None) -> list[str]:
        """Text for one engine event, ``game`` being the game right after it."""
        kind = event["event"]
        if kind == "deal":
            return [""] + render.deal_lines(game, names, width)
        if kind == "play":
            return []
        if kind == "round_end":
            r = event["round"]
            totals = [sum(row[s] for row in game.round_scores[:r + 1]) for s in range(game.n_players)]
            return render.round_end_lines(event, totals, names, width)
        if kind == "game_end":
            return render.game_end_lines(game, names, width)
        return [f"  ({kind})"]

    def forced(self, game: SealsGame) -> tuple[SealsPlay, str] | None:
        """The play, when there is only one (no question asked)."""
        legal = game.legal_plays()
        if len(legal) == 1:
            return legal[0], f"Your only legal play: {render.choice_text(game, legal[0])}."
        return None

    def ask(self, game: SealsGame, seat: int, names: Sequence[str], page_size: int, read_line, echo,
            width: int | None = None, height: int | None = None) -> SealsPlay | None:
        """Show the state and the menu of this decision, read lines until a legal play is chosen;
        ``None`` means quit."""
        from .play_cli import choose

        legal = game.legal_plays()
        texts = [render.choice_text(game, p) for p in legal]
        state = [""] + render.state_lines(game, seat, names, width)
        declare = game.phase == PHASE_DECLARE
        return choose(state, lambda rows: SealsMenu(legal, texts, page_size, width, rows, declare),
                      read_line, echo, width, height)

    def state_lines(self, game: SealsGame, names: Sequence[str] | None) -> list[str]:
        """Round counter, row, pile and every hand (``s`` in a replay)."""
        return [render.header_line(game), f"Face up: {render.row_words(game.row)}; pile: "
                f"{game.pile_size} cards"] + render.seat_lines(game, names)

    def replay(self, log: dict[str, Any], upto: int | None = None) -> SealsGame:
        """The game rebuilt from ``log`` (:meth:`SealsGame.replay`; its errors)."""
        return SealsGame.replay(log, upto=upto)

    def logged_plays(self, log: dict[str, Any]) -> list[SealsPlay]:
        """Every play of ``log`` in order (a checked log: :func:`seers_cli.play_cli.load_log`)."""
        return [SealsPlay.from_list(e.get("play")) for e in log["events"] if e.get("event") == "play"]


__all__ = ["HELP", "SealsMenu", "SealsUI"]
