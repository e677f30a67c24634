"""Legal Seals plays (rules sections 3 and 4) and their documented order.

Takes (section 3.2): a colour or a symbol that at least one face-up card has; listed colours first
(``0..4``), then symbols (``0..10``), i.e. ascending action id (:mod:`seers_env.seals.plays`).

Declarations (sections 3.3 and 4): a declaration ``value = fours_mask + (runs << 11)``
(:mod:`seers_env.seals.plays`) lays down the four-of-a-kinds of ``fours_mask`` and ``runs`` disjoint runs
1-10 at once, each card in at most one set: for every number ``k``, ``4 * [four ks] + runs <= count of
k``; for Coins, ``4 * [four Coins] <= count``. Its Marks: the fours' Marks plus 4 per run. Listed ascending
by value, so "declare nothing" (0) comes first.
"""

from __future__ import annotations

from .cards import COIN, N_COLOURS, N_NUMBERS, N_SYMBOLS, RUN, SET_MARKS, symbol_counts
from .plays import DECLARE, RUNS_SHIFT, TAKE_COLOUR, TAKE_SYMBOL, SealsPlay, split_declaration
from .rulings import FOUR_OF_A_KIND_SIZE

_FOUR = FOUR_OF_A_KIND_SIZE


def take_plays(row) -> list[SealsPlay]:
    """Every take the face-up ``row`` (card ids) allows, in action-id order (a new list)."""
    colours = [False] * N_COLOURS
    symbols = [False] * N_SYMBOLS
    for c in row:
        colours[c // N_SYMBOLS] = True
        symbols[c % N_SYMBOLS] = True
    return ([SealsPlay(TAKE_COLOUR, i) for i in range(N_COLOURS) if colours[i]]
            + [SealsPlay(TAKE_SYMBOL, i) for i in range(N_SYMBOLS) if symbols[i]])


def taken_cards(row, play: SealsPlay) -> list[int]:
    """The cards of ``row`` that the take ``play`` picks up, in row order (a new list)."""
    if play.kind == TAKE_COLOUR:
        return [c for c in row if c // N_SYMBOLS == play.value]
    return [c for c in row if c % N_SYMBOLS == play.value]


def feasible(value: int, counts) -> bool:
    """Whether the declaration ``value`` (``fours_mask + (runs << 11)``) can be laid down from symbol
    ``counts`` (11 ints): for every number ``k``, ``4 * [four ks] + runs <= counts[k]``; Coins
    ``4 * [four Coins] <= counts[10]`` (section 4: a card is in at most one set)."""
    mask, runs = split_declaration(value)
    for k in range(N_NUMBERS):
        if _FOUR * (mask >> k & 1) + runs > counts[k]:
            return False
    return _FOUR * (mask >> COIN & 1) <= counts[COIN]


def max_runs(counts) -> int:
    """How many disjoint runs 1-10 symbol ``counts`` hold: the fewest cards of a number 1..10."""
    return min(counts[k] for k in range(N_NUMBERS))


def available_kinds(counts) -> list[int]:
    """The set kinds the hand with symbol ``counts`` holds on its own, ascending (``RUN`` once, however many
    runs it holds: :func:`max_runs`)."""
    out = [k for k in range(N_SYMBOLS) if counts[k] >= _FOUR]
    if max_runs(counts) >= 1:
        out.append(RUN)
    return out


def count_declarations(counts) -> list[int]:
    """Every feasible declaration value of symbol ``counts`` (11 ints), ascending: each subset of the
    four-of-a-kinds held with ``0..max_runs(counts)`` runs; ``[0]`` without a set."""
    fours = [k for k in range(N_SYMBOLS) if counts[k] >= _FOUR]
    out = []
    for runs in range(max_runs(counts) + 1):
        for sub in range(1 << len(fours)):
            mask = 0
            for i, k in enumerate(fours):
                if sub >> i & 1:
                    mask |= 1 << k
            value = mask + (runs << RUNS_SHIFT)
            if feasible(value, counts):
                out.append(value)
    return sorted(out)


def declaration_masks(hand) -> list[int]:
    """Every feasible declaration value of ``hand`` (card ids), ascending; ``[0]`` when it holds no set."""
    return count_declarations(symbol_counts(hand))


def has_set(hand) -> bool:
    """Whether ``hand`` holds at least one set (section 4): four cards of a symbol, or a run (a card of
    every number), i.e. ``available_kinds`` of its counts is not empty."""
    counts = symbol_counts(hand)
    return max(counts) >= _FOUR or min(counts[:N_NUMBERS]) >= 1


def declare_plays(hand) -> list[SealsPlay]:
    """Every declaration of ``hand``, "declare nothing" first (a new list)."""
    return [SealsPlay(DECLARE, m) for m in declaration_masks(hand)]


def mask_marks(value: int) -> int:
    """Marks of the declaration ``value`` (section 4): its four-of-a-kinds' Marks plus 4 per run."""
    mask, runs = split_declaration(value)
    return sum(SET_MARKS[k] for k in range(N_SYMBOLS) if mask >> k & 1) + SET_MARKS[RUN] * runs


def best_declaration(hand) -> int:
    """The feasible declaration worth the most Marks (the smallest value among equals); 0 without a set."""
    best, best_marks = 0, 0
    for m in declaration_masks(hand):
        v = mask_marks(m)
        if v > best_marks:
            best, best_marks = m, v
    return best
