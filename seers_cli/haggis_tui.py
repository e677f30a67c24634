"""Haggis in ``seers play --game haggis`` and ``seers replay``: its part of the shared loop of
:mod:`seers_cli.play_cli` (:class:`HaggisUI`) and its menu (:class:`HaggisMenu`).

The text (hands sorted by rank, face cards, the trick and its type, plays with their shape named,
round ends) is :mod:`seers_env.haggis.render`. A round's first decision of each seat is its bet
(rules section 7), a menu of its own; then each turn lists every legal combination once (engine
order) with pass. A lead may have hundreds or thousands of plays: the views (``s`` sets, ``q``
sequences, ``o`` bombs) and the filter (``f WORDS``, e.g. ``f pair``, ``f 7c``) narrow the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seers_env.haggis import HaggisConfig, HaggisGame, HaggisPlay, HaggisSeatView
from seers_env.haggis import render
from seers_env.haggis.plays import BOMB, PASS, SEQ, SET

from .tui import ChoiceMenu

HELP = [
    "Type the number of a play to make it. Other commands:",
    "  l all plays   s sets   sq sequences   bo bombs",
    "  f WORDS  plays whose text holds all WORDS (e.g. 'f pair', 'f 7c', 'f pairs')",
    "  n / b  next / previous page   h this help   q quit (saves with --save)",
    "A lead fixes the trick's type (section 4.6): followers play the same shape",
    "  higher, or a bomb; or pass. J/Q/K are wild (they stand for a rank up to",
    "  their own). Bet 15/30 before your first play: you win it by going out first.",
]


class HaggisMenu(ChoiceMenu):
    """The numbered menu of one Haggis decision (:class:`~seers_cli.tui.ChoiceMenu`): views by
    combination kind, the filter, pages; numbers are positions in engine order."""

    noun = "legal play"
    views = {"l": ("all plays", lambda p: True), "s": ("sets", lambda p: p.kind == SET),
             "sq": ("sequences", lambda p: p.kind == SEQ), "bo": ("bombs", lambda p: p.kind == BOMB)}
    summary_views = (("s", "sets"), ("sq", "sequences"), ("bo", "bombs"))
    help_lines = HELP

    def __init__(self, items, texts, page_size: int = 40, width: int | None = None, rows: int | None = None,
                 bet: bool = False):
        if bet:  # the bet (section 7): three choices, no combinations
            self.views = {"l": ("your bet", lambda p: True)}
            self.summary_views = ()
        super().__init__(items, texts, page_size, width, rows)


class HaggisUI:
    """Haggis' part of :func:`seers_cli.play_cli.play_game` and :func:`~seers_cli.play_cli.replay_game`
    (one of :data:`seers_cli.play_cli.GAME_UIS`; the methods of :class:`seers_cli.play_cli.SeersUI`).
    Stateless."""

    name = "haggis"
    title = "Haggis"
    #: keys every log of the game has (:meth:`HaggisGame.log`)
    log_keys = ("game", "config", "initial_rng_state", "origin", "events")

    def new_game(self, n_players: int, rounds: int | None, seed: int, artifacts: Any = None,
                 target: int | None = None) -> tuple[HaggisGame, tuple]:
        """A new game (``rounds``: a fixed number of rounds, ``None``: play to ``target``, section 9;
        ``target``: 250 or 350, ``None``: 350) and its (empty) artifact deck; ``artifacts`` is a Seers
        Catalog option and is not read.

        Raises:
            ValueError / TypeError: from :class:`~seers_env.haggis.HaggisConfig` (naming the field).
        """
        kw: dict[str, Any] = {"n_players": n_players, "n_rounds": rounds}
        if target is not None:
            kw["target"] = target
        return HaggisGame(HaggisConfig(**kw), seed=seed), ()

    def view(self, game: HaggisGame, seat: int) -> HaggisSeatView:
        """What an agent at ``seat`` may see (section 10)."""
        return HaggisSeatView(game, seat)

    def move_lines(self, game: HaggisGame, play: HaggisPlay, names: Sequence[str] | None,
                   me: int | None) -> list[str]:
        """The move of the seat to act in words, before it is applied."""
        return [render.describe_play(game, play, names)]

    def event_lines(self, event: dict[str, Any], game: HaggisGame, names: Sequence[str] | None,
                    show_hands: Sequence[int] | None = None, width: int | None = None) -> list[str]:
        """Text for one engine event, ``game`` being the game right after it. ``show_hands``: the
        seats whose hands a deal shows (``None``: every seat, as a replay shows them)."""
        kind = event["event"]
        if kind == "deal":
            return [""] + render.deal_lines(game, names, show_hands, width)
        if kind == "play":
            return render.after_play_lines(event, game, names)
        if kind == "round_end":
            r = event["round"]
            totals = [sum(row[s] for row in game.round_scores[:r + 1]) for s in range(game.n_players)]
            first = next((e.get("first_out") for e in game.public_history
                          if e.get("event") == "round_end" and e.get("round") == r), None)
            return render.round_end_lines(event, totals, names, width, first)
        if kind == "game_end":
            return render.game_end_lines(game, names, width)
        return [f"  ({kind})"]

    def forced(self, game: HaggisGame) -> tuple[HaggisPlay, str] | None:
        """The pass, when it is the only legal play (no question asked)."""
        legal = game.legal_plays()
        if len(legal) == 1 and legal[0].kind == PASS:
            return legal[0], "You have nothing that beats the trick: you pass."
        return None

    def ask(self, game: HaggisGame, seat: int, names: Sequence[str], page_size: int, read_line, echo,
            width: int | None = None, height: int | None = None) -> HaggisPlay | None:
        """Show the state and the menu of this decision (bet, or a turn), read lines until a legal play
        is chosen; ``None`` means quit."""
        from .play_cli import choose

        pairs = game.legal_plays_with_combos()
        legal = [p for p, _ in pairs]
        texts = [render.choice_text(p, c) for p, c in pairs]
        state = [""] + render.state_lines(game, seat, names, width)
        bet = game.phase == "bet"
        return choose(state, lambda rows: HaggisMenu(legal, texts, page_size, width, rows, bet),
                      read_line, echo, width, height)

    def state_lines(self, game: HaggisGame, names: Sequence[str] | None) -> list[str]:
        """Seats, trick and every hand (``s`` in a replay)."""
        lines = [render.header_line(game)] + render.seat_lines(game, names) + render.trick_lines(game, names)
        for s in range(game.n_players):
            lines += render._wrap(f"  {render.seat_label(s, names)}: {render.hand_text(game.hand(s))}", None, 6)
        return lines

    def replay(self, log: dict[str, Any], upto: int | None = None) -> HaggisGame:
        """The game rebuilt from ``log`` (:meth:`HaggisGame.replay`; its errors)."""
        return HaggisGame.replay(log, upto=upto)

    def logged_plays(self, log: dict[str, Any]) -> list[HaggisPlay]:
        """Every play of ``log`` in order (a checked log: :func:`seers_cli.play_cli.load_log`)."""
        return [HaggisPlay.from_list(e.get("play")) for e in log["events"] if e.get("event") == "play"]


__all__ = ["HELP", "HaggisMenu", "HaggisUI"]
