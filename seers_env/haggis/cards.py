"""Haggis cards, points and the setup table (rules ``shared/rules/haggis.md`` sections 1 and 2).

Card ids (ints):

* number cards ``0..44``: ``suit * 9 + (rank - 2)``, suits ``0..4`` (names ``"cdhsb"``: clubs,
  diamonds, hearts, spades, blue), ranks ``2..10``; with 2 players suit 4 is out of play (section 2
  [ruling], :data:`seers_env.haggis.rulings.TWO_PLAYER_REMOVED_SUIT`).
* face cards (the wild cards) ``45 + 3 * seat + k``: seat ``seat``'s own Jack (``k = 0``, rank 11),
  Queen (1, rank 12) and King (2, rank 13); they have no suit and lie face up (section 2).

Card points (section 1): 3, 5, 7, 9 one each; J 2, Q 3, K 5; 2, 4, 6, 8, 10 nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from . import rulings

N_SUITS = 5
SUIT_NAMES = "cdhsb"
MIN_RANK, MAX_NUMBER_RANK = 2, 10
N_NUMBER_RANKS = MAX_NUMBER_RANK - MIN_RANK + 1  # 9
N_NUMBER_CARDS = N_SUITS * N_NUMBER_RANKS  # 45
JACK, QUEEN, KING = 11, 12, 13
MAX_RANK = KING
FACE_RANKS = (JACK, QUEEN, KING)
FIRST_FACE = N_NUMBER_CARDS  # 45
MAX_PLAYERS = 3
N_CARD_IDS = FIRST_FACE + 3 * MAX_PLAYERS  # 54
RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, JACK: "J", QUEEN: "Q", KING: "K"}


def number_card(suit: int, rank: int) -> int:
    """Id of the number card of ``suit`` (0..4) and ``rank`` (2..10).

    Raises:
        ValueError: suit or rank out of range.
    """
    if not (isinstance(suit, int) and 0 <= suit < N_SUITS):
        raise ValueError(f"suit {suit!r} is not one of 0..{N_SUITS - 1}")
    if not (isinstance(rank, int) and MIN_RANK <= rank <= MAX_NUMBER_RANK):
        raise ValueError(f"rank {rank!r} is not one of {MIN_RANK}..{MAX_NUMBER_RANK}")
    return suit * N_NUMBER_RANKS + rank - MIN_RANK


def face_card(seat: int, rank: int) -> int:
    """Id of ``seat``'s own face card of ``rank`` (11, 12 or 13)."""
    if rank not in FACE_RANKS:
        raise ValueError(f"face rank {rank!r} is not one of {FACE_RANKS}")
    return FIRST_FACE + 3 * seat + rank - JACK


def is_wild(card: int) -> bool:
    """Whether ``card`` is a face card (a wild card, section 1)."""
    return card >= FIRST_FACE


def rank_of(card: int) -> int:
    """Rank 2..13 of a card id."""
    if card >= FIRST_FACE:
        return JACK + (card - FIRST_FACE) % 3
    return MIN_RANK + card % N_NUMBER_RANKS


def suit_of(card: int) -> int:
    """Suit 0..4 of a number card, -1 for a face card."""
    return -1 if card >= FIRST_FACE else card // N_NUMBER_RANKS


def face_owner(card: int) -> int:
    """The seat whose face card this is (-1 for a number card)."""
    return -1 if card < FIRST_FACE else (card - FIRST_FACE) // 3


def card_name(card: int) -> str:
    """``"7c"`` for a number card, ``"J"`` / ``"Q"`` / ``"K"`` for a face card."""
    r = rank_of(card)
    if card >= FIRST_FACE:
        return RANK_NAMES[r]
    return f"{RANK_NAMES[r]}{SUIT_NAMES[suit_of(card)]}"


def cards_text(cards) -> str:
    """Card names joined by ``-`` (e.g. ``"5c-6c-Q"``)."""
    return "-".join(card_name(c) for c in cards)


#: Section 1: points per rank (standard scoring).
STANDARD_POINTS = {2: 0, 3: 1, 4: 0, 5: 1, 6: 0, 7: 1, 8: 0, 9: 1, 10: 0, JACK: 2, QUEEN: 3, KING: 5}


def card_points(card: int, scoring: str = rulings.DEFAULT_CARD_POINTS) -> int:
    """Points of one captured or handed-over card (section 1): ``scoring`` is ``"standard"`` or the
    variant ``"one_each"`` (every card 1 point)."""
    if scoring == "one_each":
        return 1
    return STANDARD_POINTS[rank_of(card)]


#: :func:`card_points` of every card id, per scoring of ``rulings.CARD_POINTS_CHOICES`` (a lookup table).
POINTS_OF_CARD = {scoring: tuple(card_points(c, scoring) for c in range(N_CARD_IDS))
                  for scoring in rulings.CARD_POINTS_CHOICES}


class Setup(NamedTuple):
    """One row of the section 2 table.

    Attributes:
        n_players: 2 or 3. suits: number-card suits in play. number_cards: their ids, sorted.
        dealt: number cards dealt to each player (14). haggis: cards left face down (8 or 3).
    """

    n_players: int
    suits: tuple[int, ...]
    number_cards: tuple[int, ...]
    dealt: int
    haggis: int


def _setup(n: int) -> Setup:
    suits = tuple(s for s in range(N_SUITS) if not (n == 2 and s == rulings.TWO_PLAYER_REMOVED_SUIT))
    cards = tuple(sorted(number_card(s, r) for s in suits for r in range(MIN_RANK, MAX_NUMBER_RANK + 1)))
    dealt = rulings.CARDS_DEALT
    return Setup(n, suits, cards, dealt, len(cards) - n * dealt)


#: Section 2 table by player count.
SETUP = {n: _setup(n) for n in (2, 3)}
assert SETUP[2].haggis == 8 and SETUP[3].haggis == 3


def faces_of(seat: int) -> tuple[int, int, int]:
    """``seat``'s J, Q and K ids."""
    return tuple(FIRST_FACE + 3 * seat + k for k in range(3))


def all_card_ids(n_players: int) -> tuple[int, ...]:
    """Every card id in play with ``n_players`` players, sorted."""
    return SETUP[n_players].number_cards + tuple(c for s in range(n_players) for c in faces_of(s))
