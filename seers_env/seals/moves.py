"""Legal Seals plays (rules sections 3 and 4) and their documented order.

Takes (section 3.2): a colour or a symbol that at least one face-up card has; listed colours first
(``0..4``), then symbols (``0..10``), i.e. ascending action id (:mod:`seers_env.seals.plays`).

Declarations (section 4): a declaration is a set of set kinds that the hand can lay down at once, each
card in at most one set: for every number ``k``, ``4 * [four ks] + [run] <= count of k``; for Coins,
``4 * [four Coins] <= count``. Listed ascending by bitmask, so "declare nothing" (0) comes first.
"""

from __future__ import annotations

from .cards import COIN, N_COLOURS, N_NUMBERS, N_SET_KINDS, N_SYMBOLS, RUN, SET_MARKS, symbol_counts
from .plays import DECLARE, TAKE_COLOUR, TAKE_SYMBOL, SealsPlay
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


def feasible(mask: int, counts) -> bool:
    """Whether the set kinds of ``mask`` can be laid down together from symbol ``counts`` (11 ints)."""
    run = mask >> RUN & 1
    for k in range(N_NUMBERS):
        if _FOUR * (mask >> k & 1) + run > counts[k]:
            return False
    return _FOUR * (mask >> COIN & 1) <= counts[COIN]


def available_kinds(counts) -> list[int]:
    """The set kinds the hand with symbol ``counts`` holds on its own, ascending."""
    out = [k for k in range(N_SYMBOLS) if counts[k] >= _FOUR]
    if all(counts[k] >= 1 for k in range(N_NUMBERS)):
        out.append(RUN)
    return out


def declaration_masks(hand) -> list[int]:
    """Every feasible declaration of ``hand`` (card ids) as a bitmask, ascending; ``[0]`` when it holds
    no set."""
    counts = symbol_counts(hand)
    kinds = available_kinds(counts)
    out = []
    for sub in range(1 << len(kinds)):
        mask = 0
        for i, k in enumerate(kinds):
            if sub >> i & 1:
                mask |= 1 << k
        if feasible(mask, counts):
            out.append(mask)
    return sorted(out)


def has_set(hand) -> bool:
    """Whether ``hand`` holds at least one set (section 4)."""
    return bool(available_kinds(symbol_counts(hand)))


def declare_plays(hand) -> list[SealsPlay]:
    """Every declaration of ``hand``, "declare nothing" first (a new list)."""
    return [SealsPlay(DECLARE, m) for m in declaration_masks(hand)]


def mask_marks(mask: int) -> int:
    """Marks of the set kinds in ``mask`` (section 4)."""
    return sum(SET_MARKS[k] for k in range(N_SET_KINDS) if mask >> k & 1)


def best_declaration(hand) -> int:
    """The feasible declaration worth the most Marks (the smallest mask among equals); 0 without a set."""
    best, best_marks = 0, 0
    for m in declaration_masks(hand):
        v = mask_marks(m)
        if v > best_marks:
            best, best_marks = m, v
    return best
