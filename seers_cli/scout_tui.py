"""SCOUT in ``seers play --game scout`` and ``seers replay``: its part of the shared loop of
:mod:`seers_cli.play_cli` (:class:`ScoutUI`) and its menu of choices (:class:`ScoutMenu`).

The text itself (hand tables with both numbers of each card, the seats, the Active Set, moves and round
ends in words) is :mod:`seers_env.scout.render`. A turn's menu lists every Show by its segment, every
Scout by end, orientation and insert position, and Scout & Show in its two stages (rules section 5):
the first menu lists each scout that leaves a legal show (one entry per scout), and choosing one opens
a second menu of the shows from the hand after that scout (``c`` goes back). Numbers are positions in
the menu's order (shows, scouts, Scout & Show scouts, stop), whatever view is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from seers_env.scout import KEEP_PLAY, ROTATE_PLAY, ScoutConfig, ScoutGame, ScoutPlay, ScoutSeatView
from seers_env.scout import render
from seers_env.scout.actions import PendingScout
from seers_env.scout.cards import FACE_VALUE
from seers_env.scout.game import PHASE_ROTATE
from seers_env.scout.observation import after_scout
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP

from .tui import ChoiceMenu, MenuReply


class ScoutShowStage(NamedTuple):
    """Stage 1 of a Scout & Show in the menu: the scout ``(end, flip, position)`` and the legal
    SCOUT_SHOW plays that begin with it (engine order)."""

    end: int
    flip: int
    position: int
    plays: tuple[ScoutPlay, ...]


#: What the stage-2 menu returns for ``c`` (back to the whole menu).
BACK = "back"


def _kind(item: Any) -> int:
    return SCOUT_SHOW if isinstance(item, ScoutShowStage) else item.kind


TURN_HELP = [
    "Type the number of a play to make it. Other commands:",
    "  l all plays   sh Shows   sc Scouts   ss Scout & Show (3-5 players)",
    "  f WORDS  plays whose text holds all WORDS (e.g. 'f run', 'f left 7')",
    "  n / b  next / previous page   h this help   q quit (saves with --save)",
    "Show: the segment of your hand at those positions becomes the Active Set; it",
    "  must beat the Active Set (more cards; same count: a set beats a run; then",
    "  the higher lowest number; section 4). You collect the cards it beats.",
    "Scout: take the left or right card of the Active Set, keep it as it lies or",
    "  turn it over, and put it into your hand at a position (0 = leftmost);",
    "  its owner gets a Scout chip (2 players: you pay one and act again).",
    "Scout & Show (once per round): a scout, then at once a show (second menu).",
]

ROTATION_HELP = [
    "Type 1 to keep your hand as dealt or 2 to rotate it (section 2): rotating",
    "  reverses the order of the cards and turns each over to its other number.",
    "  h this help   q quit (saves with --save)",
]

STAGE_HELP = [
    "Scout & Show, second stage: type the number of the show to make from your",
    "  hand with the scouted card in it; it must beat what is left of the Active Set.",
    "  c back to all your plays   f WORDS  shows whose text holds all WORDS",
    "  n / b  next / previous page   h this help   q quit (saves with --save)",
]


class ScoutMenu(ChoiceMenu):
    """The numbered menu of one SCOUT decision (:class:`~seers_cli.tui.ChoiceMenu`).

    Args:
        items: plays (:class:`~seers_env.scout.ScoutPlay`) and Scout & Show first stages
            (:class:`ScoutShowStage`), in menu order; ``texts`` their descriptions.
        stage: ``"turn"`` (a turn: views ``sh``, ``sc`` and, with ``scout_show``, ``ss``), ``"rotation"``
            or ``"show"`` (stage 2 of Scout & Show: ``c`` goes back).
        scout_show: the game has Scout & Show (3-5 players, section 7).
        page_size, width, rows: as :class:`~seers_cli.tui.ChoiceMenu`.

    Raises:
        ValueError: no items, a bad stage, ``page_size < 1`` or ``rows < 1``.
    """

    noun = "choice"

    def __init__(self, items: Sequence[Any], texts: Sequence[str], stage: str = "turn", page_size: int = 40,
                 width: int | None = None, rows: int | None = None, scout_show: bool = True):
        if stage not in ("turn", "rotation", "show"):
            raise ValueError(f"stage={stage!r} is not one of turn, rotation, show")
        self.stage = stage
        if stage == "turn":
            self.views = {"l": ("all plays", lambda item: True),
                          "sh": ("Shows", lambda item: _kind(item) == SHOW),
                          "sc": ("Scouts", lambda item: _kind(item) == SCOUT),
                          "ss": ("Scout & Show (first the scout)", lambda item: _kind(item) == SCOUT_SHOW)}
            self.summary_views = (("sh", "shows"), ("sc", "scouts"), ("ss", "Scout & Show scouts"))
            if not scout_show:
                del self.views["ss"]
                self.summary_views = self.summary_views[:2]
            self.help_lines = TURN_HELP
        else:
            self.views = {"l": ("all plays" if stage == "rotation" else "the shows after your scout",
                                lambda item: True)}
            self.summary_views = ()
            self.help_lines = ROTATION_HELP if stage == "rotation" else STAGE_HELP
        super().__init__(items, texts, page_size, width, rows)

    def command(self, low: str) -> MenuReply | None:
        """``c`` (stage 2 only): back to the whole menu."""
        if self.stage == "show" and low in ("c", "cancel", "back"):
            return MenuReply(play=BACK)
        return None


def turn_items(game: ScoutGame) -> tuple[list[Any], list[str]]:
    """The menu of the seat to act in the play phase: its legal SHOW and SCOUT plays, one
    :class:`ScoutShowStage` per scout that starts a legal Scout & Show, then STOP; and their texts."""
    items: list[Any] = []
    stages: dict[tuple[int, int, int], list[ScoutPlay]] = {}
    for p in game.legal_plays():
        if p.kind == SCOUT_SHOW:
            stages.setdefault((p.end, p.flip, p.position), []).append(p)  # insertion order: engine order
        elif p.kind != STOP:
            items.append(p)
    items += [ScoutShowStage(*key, tuple(plays)) for key, plays in stages.items()]
    items += [p for p in game.legal_plays() if p.kind == STOP]
    texts = []
    for item in items:
        if isinstance(item, ScoutShowStage):
            n = len(item.plays)
            texts.append(f"Scout & Show: {render.scout_words(game, item.end, item.flip, item.position)}, "
                         f"then one of {n} show{'s' if n != 1 else ''}")
        else:
            texts.append(render.choice_text(game, item))
    return items, texts


class ScoutUI:
    """SCOUT's part of :func:`seers_cli.play_cli.play_game` and :func:`~seers_cli.play_cli.replay_game`
    (one of :data:`seers_cli.play_cli.GAME_UIS`; the methods of :class:`seers_cli.play_cli.SeersUI`).
    Stateless."""

    name = "scout"
    title = "SCOUT"
    #: keys every log of the game has (:meth:`ScoutGame.log`)
    log_keys = ("game", "config", "initial_rng_state", "origin", "events")

    def new_game(self, n_players: int, rounds: int | None, seed: int, artifacts: Any = None) -> tuple[ScoutGame, tuple]:
        """A new game (``rounds=None``: the rules' count, section 2) and its (empty) artifact deck;
        ``artifacts`` is a Seers Catalog option and is not read.

        Raises:
            ValueError / TypeError: from :class:`~seers_env.scout.ScoutConfig` (naming the field).
        """
        return ScoutGame(ScoutConfig(n_players=n_players, n_rounds=rounds), seed=seed), ()

    def view(self, game: ScoutGame, seat: int) -> ScoutSeatView:
        """What an agent at ``seat`` may see (section 10)."""
        return ScoutSeatView(game, seat)

    def move_lines(self, game: ScoutGame, play: ScoutPlay, names: Sequence[str] | None,
                   me: int | None) -> list[str]:
        """The move of the seat to act in words, before it is applied. In a game (``me`` set) another
        seat's keep/rotate decision is not said: the choices are simultaneous (section 2 [ruling]),
        :meth:`event_lines` says them all once every seat has chosen."""
        if play.kind in (KEEP, ROTATE) and me is not None and game.current != me:
            return []
        return [render.describe_play(game, play, names)]

    def event_lines(self, event: dict[str, Any], game: ScoutGame, names: Sequence[str] | None,
                    show_hands: Sequence[int] | None = None, width: int | None = None) -> list[str]:
        """Text for one engine event, ``game`` being the game right after it (the next round's deal
        included). ``show_hands``: the seats whose hands a deal shows (``None``: every seat, and the
        hands left at a round end too, as a replay shows them)."""
        kind = event["event"]
        if kind == "deal":
            return [""] + render.deal_lines(game, names, show_hands, width)
        if kind == "play":
            if event["play"][0] in (KEEP, ROTATE) and game.phase != PHASE_ROTATE and show_hands is not None \
                    and event["round"] == game.round:
                return [render.rotations_line(game.rotated, names),
                        f"{render.seat_label(game.start_player, names)} starts."]
            return []
        if kind == "round_end":
            r = event["round"]
            totals = [sum(row[s] for row in game.round_scores[:r + 1]) for s in range(game.n_players)]
            return render.round_end_lines(event, totals, names, show_hands is None, width)
        if kind == "game_end":
            return render.game_end_lines(game, names)
        return [f"  ({kind})"]

    def forced(self, game: ScoutGame) -> tuple[ScoutPlay, str] | None:
        """The play, when there is only one (no question asked)."""
        legal = game.legal_plays()
        if len(legal) == 1:
            return legal[0], f"Your only legal play: {render.choice_text(game, legal[0])}."
        return None

    def ask(self, game: ScoutGame, seat: int, names: Sequence[str], page_size: int, read_line, echo,
            width: int | None = None, height: int | None = None) -> ScoutPlay | None:
        """Show the state and the menu of this decision, read lines until a legal play is chosen
        (a Scout & Show in its two stages); ``None`` means quit."""
        from .play_cli import choose

        if game.phase == PHASE_ROTATE:
            state = [""] + render.rotation_lines(game, seat, names, width)
            items = [KEEP_PLAY, ROTATE_PLAY]
            texts = [render.choice_text(game, p) for p in items]
            return choose(state, lambda rows: ScoutMenu(items, texts, "rotation", page_size, width, rows),
                          read_line, echo, width, height)
        state = [""] + render.state_lines(game, seat, names, width)
        items, texts = turn_items(game)
        while True:
            choice = choose(state, lambda rows: ScoutMenu(items, texts, "turn", page_size, width, rows,
                                                          scout_show=game.n_players > 2),
                            read_line, echo, width, height)
            if not isinstance(choice, ScoutShowStage):
                return choice
            second = self._ask_show(game, choice, names, page_size, read_line, echo, width, height)
            if second != BACK:
                return second

    def _ask_show(self, game: ScoutGame, stage: ScoutShowStage, names: Sequence[str], page_size: int,
                  read_line, echo, width: int | None, height: int | None) -> Any:
        """Stage 2 of a Scout & Show: the hand after the scout and its shows; a play, :data:`BACK` or
        ``None`` (quit)."""
        from .play_cli import choose

        pending = PendingScout(stage.end, stage.flip, stage.position)
        hand, active = after_scout(game.hand_faces(game.current), game.active_faces(), pending)
        values = [FACE_VALUE[f] for f in hand]
        state = ["", f"Scout & Show: you scout {render.scout_words(game, *pending)}.",
                 (f"Active Set now: {render.faces_text(active)} = "
                  f"{render.set_words([FACE_VALUE[f] for f in active])}" if active
                  else "Active Set now: none (any valid set may be shown)"),
                 "Your hand after the scout:"] + render.hand_lines(hand, width)
        texts = ["Show " + render.show_words(values, p.start, p.length) for p in stage.plays]
        return choose(state, lambda rows: ScoutMenu(stage.plays, texts, "show", page_size, width, rows),
                      read_line, echo, width, height)

    def state_lines(self, game: ScoutGame, names: Sequence[str] | None) -> list[str]:
        """Seats, Active Set and every hand (``s`` in a replay)."""
        lines = ["Seats:"] + render.seats_lines(game, names) + render.active_lines(game, names)
        for s in range(game.n_players):
            lines.append(f" {render.seat_label(s, names)}:")
            lines += render.hand_lines(game.hand_faces(s))
        return lines

    def replay(self, log: dict[str, Any], upto: int | None = None) -> ScoutGame:
        """The game rebuilt from ``log`` (:meth:`ScoutGame.replay`; its errors)."""
        return ScoutGame.replay(log, upto=upto)

    def logged_plays(self, log: dict[str, Any]) -> list[ScoutPlay]:
        """Every play of ``log`` in order (a checked log: :func:`seers_cli.play_cli.load_log`)."""
        return [ScoutPlay.from_list(e.get("play")) for e in log["events"] if e.get("event") == "play"]


__all__ = ["BACK", "ROTATION_HELP", "STAGE_HELP", "TURN_HELP", "ScoutMenu", "ScoutShowStage", "ScoutUI",
           "turn_items"]
