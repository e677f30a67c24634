"""Plain-text rendering of a Seers Catalog game for the terminal (``seers play``, ``seers replay``).

Everything here returns lines of text (``list[str]``) so that the commands print them with
``typer.echo`` and tests read them back. :class:`PlayMenu` is the numbered, filterable, paged list of
legal plays a human chooses from, in :func:`menu_order` (natural melds first, then pass, then plays
that spend a wild, then plays with an artifact): the number of a play is its 1-based position in that
order, whatever view is shown, so every legal play stays choosable.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from seers_env.cards import N_SUITED, SUIT_NAMES, WILD, card_name, suit_of, value_of
from seers_env.game import Game
from seers_env.plays import MELD_TYPE_NAMES, MeldType, Play, PlayKind, format_rank


def count(n: int, word: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"0 cards"``, ``"3 cards"`` (``plural``: when not ``word + "s"``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``"player 2"``, or ``"player 2 (heuristic)"`` when ``names`` gives a label for the seat."""
    if names and 0 <= seat < len(names) and names[seat]:
        return f"player {seat} ({names[seat]})"
    return f"player {seat}"


def play_text(play: Play) -> str:
    """:meth:`Play.describe` as the terminal shows it: seats named ``"player 2"`` (the engine's text
    uses the environment's agent names, ``player_2``)."""
    return re.sub(r"\bplayer_(\d+)\b", r"player \1", play.describe())


def wrap_line(line: str, width: int | None) -> list[str]:
    """``line`` wrapped at word boundaries to ``width`` columns (``None``: not wrapped).

    A continuation keeps the line's indent and goes 4 further, or lines up after a menu number
    (``"  [12] "``), so that a wrapped play reads as one. A word longer than the width is not cut.
    """
    if width is None or len(line) <= width:
        return [line]
    menu = re.match(r"^\s*\[\s*\d+\] ", line)
    indent = len(menu.group(0)) if menu else len(line) - len(line.lstrip(" ")) + 4
    indent = min(indent, width // 2)
    return textwrap.wrap(line, width, subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False) or [line]


def format_hand(hand: Sequence[int], known: Sequence[int] = ()) -> list[str]:
    """A hand grouped by suit, one line per suit held, then wilds and artifacts.

    Args:
        hand: card ids (see :mod:`seers_env.cards`).
        known: cards publicly known to be in the hand (taken with the Rod of Reincarnation, rules
            section 6); they are marked with ``*``.

    Returns:
        Lines such as ``"  Plum    2  7  9* 13"``, ``"  wild    x1"``, ``"  artifacts: Go First"``.
    """
    known_left = list(known)
    by_suit: dict[int, list[str]] = {}
    arts: list[str] = []
    wilds = 0
    for c in sorted(hand):
        mark = ""
        if c in known_left:
            known_left.remove(c)
            mark = "*"
        if c < N_SUITED:
            by_suit.setdefault(suit_of(c), []).append(f"{value_of(c)}{mark}".rjust(3))
        elif c == WILD:
            wilds += 1
        else:
            arts.append(card_name(c) + mark)
    width = max(len(s) for s in SUIT_NAMES)
    lines = [f"  {SUIT_NAMES[s].ljust(width)} {' '.join(by_suit[s])}" for s in sorted(by_suit)]
    if wilds:
        lines.append(f"  {'wild'.ljust(width)} x{wilds}")
    if arts:
        lines.append(f"  artifacts: {', '.join(arts)}")
    if not lines:
        lines.append("  (no cards)")
    return lines


def format_seats(game: Game, me: int | None = None, names: Sequence[str] | None = None,
                 width: int | None = None) -> list[str]:
    """One line per seat: hand size, total score, and flags (Bonus, passed, Start Seer, to act), in
    columns; when those are wider than ``width`` (``None``: not checked), one line of words a seat
    (``"  player 0: 15 cards, total 0; to act"``), which a narrow screen wraps at word boundaries.

    Only public information is shown (rules section 3): hand sizes, scores, who passed.
    """
    lines, words = [], []
    labels = [seat_name(s, names) for s in range(game.n_players)]
    if me is not None and not (names and names[me] == "you"):
        labels[me] += " = you"
    label_width = max(len(x) for x in labels)
    totals = game.totals
    for s in range(game.n_players):
        flags = []
        if game.in_bonus(s):
            flags.append("Bonus")
        if game.top is not None and game.passed[s]:
            flags.append("passed")
        if s == game.start_seer:
            flags.append("Start Seer")
        if s == game.current and not game.game_over:
            flags.append("to act")
        n = len(game.hands[s])
        lines.append(f"  {labels[s].ljust(label_width)}  {n:2d} {'card ' if n == 1 else 'cards'}  "
                     f"total {totals[s]:4d}" + (f"  [{', '.join(flags)}]" if flags else ""))
        words.append(f"  {labels[s]}: {count(n, 'card')}, total {totals[s]}"
                     + (f"; {', '.join(flags)}" if flags else ""))
    return lines if width is None or max(map(len, lines)) <= width else words


def describe_top(meld_type: int, size: int, rank: int) -> str:
    """The meld to beat as a player says it: ``"a Single 8"``, ``"a Matching Set of three 9s"``,
    ``"a Suited Run of 4 up to 5"``, ``"the Highest Single"`` (``rank``: half steps, as ``game.top``)."""
    value = format_rank(rank)
    mt = MeldType(meld_type)
    if mt == MeldType.SINGLE:
        return "the Highest Single" if value == "highest" else f"a Single {value}"
    if mt == MeldType.SET:
        words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
        return f"a Matching Set of {words[size] if size < len(words) else size} {value}s"
    return f"a {MELD_TYPE_NAMES[mt]} of {size} up to {value}"


def format_trick(game: Game, names: Sequence[str] | None = None) -> list[str]:
    """The current trick: every meld played to it, and the top meld to beat (or that the trick is open)."""
    if not game.trick:
        return [f"  (empty: {seat_name(game.start_seer, names)} leads)"]
    lines = [f"  {seat_name(s, names)}: {play_text(p)}" for s, p in game.trick]
    lines.append(f"  to beat: {describe_top(*game.top)}, by {seat_name(game.top_seat, names)}")
    return lines


def format_state(game: Game, me: int, names: Sequence[str] | None = None,
                 width: int | None = None) -> list[str]:
    """What ``me`` sees at its turn: round, suits, seats (:func:`format_seats` at ``width``), trick and
    its own hand grouped by suit."""
    suits = ", ".join(SUIT_NAMES[s] for s in game.suits)
    return ([f"--- Round {game.round + 1}/{game.config.n_rounds}  (suits: {suits}) ---", "Seats:"]
            + format_seats(game, me, names, width) + ["Trick:"] + format_trick(game, names)
            + ["Your hand:"] + format_hand(game.hands[me], game.known[me]))


def format_deal(game: Game, names: Sequence[str] | None = None, show: Sequence[int] | None = None) -> list[str]:
    """The start of a round: suits, Start Seer, and the hands of the seats in ``show`` (default: all)."""
    suits = ", ".join(SUIT_NAMES[s] for s in game.suits)
    lines = [f"=== Round {game.round + 1}/{game.config.n_rounds}: suits {suits}; "
             f"Start Seer {seat_name(game.start_seer, names)} ==="]
    seats = range(game.n_players) if show is None else show
    for s in seats:
        lines.append(f" {seat_name(s, names)}:")
        lines += format_hand(game.hands[s])
    return lines


def format_round_end(scores: Sequence[int], hands: Sequence[Sequence[int]], totals: Sequence[int],
                     names: Sequence[str] | None = None) -> list[str]:
    """Round scores (rules section 5), the hands they come from, and the running totals."""
    lines = ["Round over. Scores (bonus points - cards held):"]
    for s, score in enumerate(scores):
        held = ", ".join(card_name(c) for c in hands[s]) or "no cards"
        lines.append(f"  {seat_name(s, names)}: {score:+d}  (held {held}); total {totals[s]}")
    return lines


def format_game_end(game: Game, names: Sequence[str] | None = None) -> list[str]:
    """Final totals and the winner(s) (rules section 5)."""
    winners = game.winners()
    lines = ["=== Game over ==="]
    lines += [f"  {seat_name(s, names)}: {t}" for s, t in enumerate(game.totals)]
    lines.append("Winner" + ("s" if len(winners) > 1 else "") + ": "
                 + ", ".join(seat_name(w, names) for w in winners))
    return lines


# --- the menu of legal plays ----------------------------------------------------------------------

def _is_artifact_play(p: Play) -> bool:
    return p.artifact >= 0 or p.kind not in (PlayKind.MELD, PlayKind.PASS)


def menu_group(p: Play) -> int:
    """0: a natural meld (no wild, no artifact); 1: pass (it spends nothing either); 2: a meld that
    spends a wild; 3: a play with an artifact (Rod, Gift, or an artifact with a meld)."""
    if p.kind == PlayKind.PASS:
        return 1
    if _is_artifact_play(p):
        return 3
    return 2 if p.wild_values else 0


def menu_order(plays: Sequence[Play]) -> list[Play]:
    """The legal plays in menu order: by :func:`menu_group`, the engine's order within a group; so
    typing 1 never spends a wild or an artifact while a natural meld or a pass is allowed."""
    return sorted(plays, key=menu_group)  # sorted() is stable


#: Views of the menu: key -> (title, predicate). Keys are the commands that show them.
VIEWS: dict[str, tuple[str, Callable[[Play], bool]]] = {
    "l": ("all legal plays", lambda p: True),
    "s": ("Singles", lambda p: p.meld_type == MeldType.SINGLE),
    "m": ("Matching Sets", lambda p: p.meld_type == MeldType.SET),
    "r": ("Suited Runs", lambda p: p.meld_type == MeldType.RUN),
    "a": ("plays with an artifact", _is_artifact_play),
    "c": ("plays without an artifact", lambda p: not _is_artifact_play(p)),
}

MENU_HELP = [
    "Type the number of a play to make it. Other commands:",
    "  l all plays   s Singles   m Matching Sets   r Suited Runs",
    "  a plays with an artifact   c plays without an artifact",
    "  f WORDS  plays whose text holds all WORDS (e.g. 'f plum 7', 'f run of 4')",
    "  n / b  next / previous page   p pass (when allowed)   h this help",
    "  q quit (saves the game with --save)",
    "Order: natural plays first, then pass, then plays that spend a wild, then",
    "  plays with an artifact.",
    "'X (unused)': artifact X is discarded with the meld without its effect",
    "  (rules section 6), e.g. to get rid of it; 'wild as 7': a wild counts as a 7.",
]


@dataclass
class MenuReply:
    """What :meth:`PlayMenu.handle` made of one line of input.

    Attributes:
        play: the chosen legal play (the chosen item of a :class:`ChoiceMenu`), or ``None``.
        quit: the user asked to quit.
        lines: text to show (a page of plays, help, or why the input was not understood).
        page: ``lines`` is a page of plays (a caller may show the game's state above it again).
    """

    play: Any = None
    quit: bool = False
    lines: list[str] | None = None
    page: bool = False  # ``lines`` is a page of plays (:meth:`PlayMenu.page_lines`)


#: The counts of :meth:`PlayMenu.summary`: (view key, what its plays are called).
SUMMARY_VIEWS = (("s", "singles"), ("m", "sets"), ("r", "runs"), ("a", "with an artifact"), ("c", "without"))


class ChoiceMenu:
    """A numbered list of choices with views, a text filter and pages; the game-free part of the menus of
    ``seers play`` (:class:`PlayMenu` for Seers Catalog, :class:`seers_cli.scout_tui.ScoutMenu` for SCOUT).

    Args:
        items: the choices, in menu order: the item at position ``i`` (``self.items[i]``) has number
            ``i + 1`` in every view.
        texts: one description per item (what is listed and what ``f WORDS`` searches).
        page_size: most items per page (>= 1).
        width: columns of the terminal: lines are wrapped at word boundaries (:func:`wrap_line`);
            ``None``: not wrapped.
        rows: terminal rows a page's items may fill (their wrapped lines; the page's heading not
            counted), so that what is shown above the list stays on screen; ``None``: no limit. A
            page holds at least one item.

    Class attributes a game sets: :attr:`views` (key -> (title, predicate on an item); ``"l"`` must
    show all), :attr:`summary_views`, :attr:`help_lines`, :attr:`noun` (what an item is called) and
    :attr:`crowded_view` (the view shown first when everything does not fit one page); it may add
    commands in :meth:`command`.

    Raises:
        ValueError: ``items`` is empty or not as long as ``texts``, ``page_size < 1`` or ``rows < 1``.
    """

    views: dict[str, tuple[str, Callable[[object], bool]]] = {"l": ("all choices", lambda item: True)}
    summary_views: tuple[tuple[str, str], ...] = ()
    help_lines: list[str] = []
    noun = "choice"
    crowded_view = "l"

    def __init__(self, items: Sequence[object], texts: Sequence[str], page_size: int = 40,
                 width: int | None = None, rows: int | None = None):
        if not items:
            raise ValueError(f"{type(self).__name__} needs at least one {self.noun}, got none")
        if len(texts) != len(items):
            raise ValueError(f"texts has {len(texts)} entries for {len(items)} items")
        if page_size < 1:
            raise ValueError(f"page_size={page_size!r} must be >= 1")
        if rows is not None and rows < 1:
            raise ValueError(f"rows={rows!r} must be >= 1")
        self.items = list(items)
        self.page_size, self.width, self.rows = page_size, width, rows
        self.texts = list(texts)
        self.words: list[str] = []
        self.page = 0
        self.view = "l"
        if len(self._pages(self.shown())) > 1:  # too many for one page
            self.view = self.crowded_view

    def _line(self, i: int) -> str:
        return f"  [{i + 1:>{len(str(len(self.items)))}}] {self.texts[i]}"

    def _pages(self, idx: list[int]) -> list[list[int]]:
        """``idx`` cut into pages: at most ``page_size`` items and ``rows`` wrapped lines each."""
        pages: list[list[int]] = [[]]
        used = 0
        for i in idx:
            height = len(wrap_line(self._line(i), self.width))
            page = pages[-1]
            if page and (len(page) >= self.page_size or (self.rows is not None and used + height > self.rows)):
                pages.append([])
                page, used = pages[-1], 0
            page.append(i)
            used += height
        return pages

    def shown(self) -> list[int]:
        """Indices (0-based) of the items in the current view and filter."""
        keep = self.views[self.view][1]
        words = self.words
        return [i for i, p in enumerate(self.items)
                if keep(p) and all(w in self.texts[i].lower() for w in words)]

    def summary(self) -> str:
        """Counts per view, with the key that shows each, e.g. ``"359 legal plays: singles 94 (s), sets
        108 (m), runs 157 (r), with an artifact 276 (a), without 83 (c)"``."""
        counts = ", ".join(f"{name} {sum(1 for p in self.items if self.views[k][1](p))} ({k})"
                           for k, name in self.summary_views)
        return f"{count(len(self.items), self.noun)}: {counts}" if counts else count(len(self.items), self.noun)

    def page_lines(self) -> list[str]:
        """The current page of the current view: a heading, then each item as ``"  [number]
        description"`` (one line each; :func:`wrap_line` wraps them for the terminal)."""
        idx = self.shown()
        pages = self._pages(idx)
        self.page = min(max(self.page, 0), len(pages) - 1)
        title = self.views[self.view][0] + (f" containing {' '.join(self.words)!r}" if self.words else "")
        head = f"Your plays: {title}"
        if len(pages) > 1:
            head += f", page {self.page + 1}/{len(pages)} (n/b to turn)"
        if not idx:
            return [head, "  (none; l shows all plays)"]
        return [head] + [self._line(i) for i in pages[self.page]]

    def command(self, low: str) -> MenuReply | None:
        """A game's own command (``low``: the input, stripped and lower-cased), or ``None`` when ``low``
        is none of them."""
        return None

    def handle(self, text: str) -> MenuReply:
        """Interpret one line of input; never raises on bad input (the reply says what went wrong)."""
        text = text.strip()
        low = text.lower()
        if not text:
            return MenuReply(lines=["Type a play's number, or h for help."])
        if low in ("q", "quit", "exit"):
            return MenuReply(quit=True)
        if low in ("h", "?", "help"):
            return MenuReply(lines=self.help_lines + [self.summary()])
        if low in self.views:
            self.view, self.words, self.page = low, [], 0
            return MenuReply(lines=self.page_lines(), page=True)
        if low in ("n", "b"):
            self.page += 1 if low == "n" else -1
            return MenuReply(lines=self.page_lines(), page=True)
        reply = self.command(low)
        if reply is not None:
            return reply
        if low == "f" or low.startswith("f "):
            self.words, self.page, self.view = low[1:].split(), 0, "l"
            return MenuReply(lines=self.page_lines(), page=True)
        try:
            number = int(text)
        except ValueError:
            return MenuReply(lines=[f"{text!r} is not a play number or a command; h for help."])
        if not 1 <= number <= len(self.items):
            return MenuReply(lines=[f"{number} is not a play number; choose 1..{len(self.items)}."])
        return MenuReply(play=self.items[number - 1])


class PlayMenu(ChoiceMenu):
    """A numbered list of Seers Catalog legal plays with views by meld type, a text filter and pages
    (:class:`ChoiceMenu`).

    Args:
        plays: the legal plays (any order); they are listed in :func:`menu_order`, and the play at
            position ``i`` of that order (``self.plays[i]``) has number ``i + 1`` in every view.
        page_size, width, rows: as :class:`ChoiceMenu`. When all plays do not fit one page, the plays
            without an artifact are shown first.

    Raises:
        ValueError: ``plays`` is empty, ``page_size < 1`` or ``rows < 1``.
    """

    views = VIEWS
    summary_views = SUMMARY_VIEWS
    help_lines = MENU_HELP
    noun = "legal play"
    crowded_view = "c"

    def __init__(self, plays: Sequence[Play], page_size: int = 40, width: int | None = None,
                 rows: int | None = None):
        if not plays:
            raise ValueError("PlayMenu needs at least one legal play, got none")
        ordered = menu_order(plays)
        super().__init__(ordered, [play_text(p) for p in ordered], page_size, width, rows)
        self.plays = self.items

    def command(self, low: str) -> MenuReply | None:
        """``p``: pass, when that is legal (rules sections 3 and 4)."""
        if low != "p":
            return None
        for p in self.plays:
            if p.kind == PlayKind.PASS:
                return MenuReply(play=p)
        return MenuReply(lines=["You may not pass now (you lead, or you are in the Bonus with a legal "
                                "meld: rules sections 3 and 4)."])


def describe_move(seat: int, play: Play, names: Sequence[str] | None = None) -> str:
    """One line for a move: ``"player 1 (greedy): Single 9: Teal 9"``."""
    return f"{seat_name(seat, names)}: {play_text(play)}"


__all__ = [
    "ChoiceMenu", "MENU_HELP", "MenuReply", "PlayMenu", "SUMMARY_VIEWS", "VIEWS", "count", "describe_move", "describe_top",
    "format_deal", "format_game_end", "format_hand", "format_round_end", "format_seats", "format_state",
    "format_trick", "menu_group", "menu_order", "play_text", "seat_name", "wrap_line",
]
