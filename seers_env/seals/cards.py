"""Seals cards and sets (rules section 1 and 4).

A *card* is an int ``0..54``: ``colour * 11 + symbol``. Colours ``0..4``
(:data:`~seers_env.seals.rulings.COLOUR_NAMES`); symbols ``0..9`` are the numbers ``1..10`` and symbol
``10`` is the Coin. Numbers 1..5 are minor, 6..10 major.

A *set kind* is an int ``0..11``: ``0..9`` four cards of number ``kind + 1``, ``10`` four Coins, ``11``
a complete run 1..10 in any colours. :data:`SET_MARKS` gives each kind's Marks (section 4 table). One
declaration lays down each four-of-a-kind at most once, but the run up to :data:`MAX_RUNS` times (disjoint
runs, each of one card of every number; section 3.3 "one or several disjoint sets", section 4 "a card is in
at most one set"); :mod:`seers_env.seals.plays` encodes it as ``fours_mask + (runs << 11)``.
"""

from __future__ import annotations

from .rulings import COLOUR_NAMES

N_COLOURS = 5
N_SYMBOLS = 11
N_CARDS = N_COLOURS * N_SYMBOLS  # 55
COIN = 10  # the Coin's symbol index
N_NUMBERS = 10

#: Set kinds: ``0..9`` four of number ``k + 1``, 10 four Coins, 11 the run.
N_SET_KINDS = 12
RUN = 11
QUAD_COINS = COIN
#: Most disjoint runs one hand can lay down: each run uses one card of every number, and the deck holds
#: one card of each number per colour (section 1), so 5.
MAX_RUNS = N_COLOURS
#: Marks of each set kind (section 4): minor fours 1, major fours 2, Coins 3, the run 4.
SET_MARKS: tuple[int, ...] = tuple(1 if k < 5 else 2 for k in range(N_NUMBERS)) + (3, 4)


def colour_of(card: int) -> int:
    """The colour ``0..4`` of a card."""
    return card // N_SYMBOLS


def symbol_of(card: int) -> int:
    """The symbol ``0..10`` of a card (``0..9``: numbers 1..10; 10: Coin)."""
    return card % N_SYMBOLS


def card_of(colour: int, symbol: int) -> int:
    """The card of ``colour`` and ``symbol``.

    Raises:
        ValueError: ``colour`` not in 0..4 or ``symbol`` not in 0..10.
    """
    for name, v, hi in (("colour", colour, N_COLOURS), ("symbol", symbol, N_SYMBOLS)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < hi:
            raise ValueError(f"{name}={v!r} is not one of 0..{hi - 1}")
    return colour * N_SYMBOLS + symbol


def symbol_name(symbol: int) -> str:
    """``"7"`` or ``"Coin"``."""
    return "Coin" if symbol == COIN else str(symbol + 1)


def card_name(card: int) -> str:
    """``"Blue 4"``, ``"Red Coin"``."""
    return f"{COLOUR_NAMES[colour_of(card)]} {symbol_name(symbol_of(card))}"


def set_name(kind: int) -> str:
    """``"four 3s"``, ``"four Coins"``, ``"run 1-10"`` (the name of one set of ``kind``)."""
    if kind == RUN:
        return "run 1-10"
    if kind == COIN:
        return "four Coins"
    return f"four {kind + 1}s"


def symbol_counts(cards) -> list[int]:
    """How many cards of each symbol ``0..10`` ``cards`` holds (a new list of 11 ints)."""
    counts = [0] * N_SYMBOLS
    for c in cards:
        counts[c % N_SYMBOLS] += 1
    return counts
