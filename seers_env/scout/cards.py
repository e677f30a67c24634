"""SCOUT cards, faces and the setup table (rules sections 1 and 2).

A *card* is one of the 45 two-number cards: card id ``0..44`` in lexicographic order of its numbers
``(a, b)``, ``1 <= a < b <= 10`` (card 0 is {1,2}, card 8 is {1,10}, card 9 is {2,3}, card 44 is {9,10}).

A *face* is a card with an orientation, encoded as one int ``2 * card + o``: ``o = 0`` puts the lower
number ``a`` on top, ``o = 1`` the higher number ``b``. The top number is the card's *value* (section 1);
flipping a card is ``face ^ 1``. The public form of a face is the pair ``(card id, top number)``
(:func:`face_pair`, :func:`face_of`).
"""

from __future__ import annotations

from typing import NamedTuple

#: Number of SCOUT cards (section 1).
N_CARDS = 45
#: Number of faces (two per card).
N_FACES = 2 * N_CARDS
#: Lowest and highest number on a card.
MIN_NUMBER, MAX_NUMBER = 1, 10

#: ``CARD_NUMBERS[card] = (a, b)`` with ``a < b`` (section 1).
CARD_NUMBERS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(MIN_NUMBER, MAX_NUMBER + 1) for b in range(a + 1, MAX_NUMBER + 1)
)
assert len(CARD_NUMBERS) == N_CARDS

_CARD_BY_NUMBERS = {nums: i for i, nums in enumerate(CARD_NUMBERS)}

#: ``FACE_VALUE[face]``: the top number (the value) of a face.
FACE_VALUE: tuple[int, ...] = tuple(CARD_NUMBERS[f >> 1][f & 1] for f in range(N_FACES))
#: ``FACE_BOTTOM[face]``: the other number (the value after a flip).
FACE_BOTTOM: tuple[int, ...] = tuple(CARD_NUMBERS[f >> 1][1 - (f & 1)] for f in range(N_FACES))


def card_id(a: int, b: int) -> int:
    """Card id of the card with numbers ``a`` and ``b`` (either order).

    Raises:
        ValueError: no such card (equal numbers, or outside 1..10).
    """
    key = (min(a, b), max(a, b))
    if key not in _CARD_BY_NUMBERS:
        raise ValueError(f"no SCOUT card has numbers {a!r} and {b!r}; cards carry two different numbers "
                         f"in {MIN_NUMBER}..{MAX_NUMBER}")
    return _CARD_BY_NUMBERS[key]


def face_of(card: int, top: int) -> int:
    """The face code of ``card`` held with ``top`` on top.

    Raises:
        ValueError: ``card`` is not 0..44 or ``top`` is not one of its numbers.
    """
    if not (isinstance(card, int) and not isinstance(card, bool) and 0 <= card < N_CARDS):
        raise ValueError(f"card id {card!r} is not one of 0..{N_CARDS - 1}")
    a, b = CARD_NUMBERS[card]
    if top == a and not isinstance(top, bool):
        return 2 * card
    if top == b and not isinstance(top, bool):
        return 2 * card + 1
    raise ValueError(f"top number {top!r} is not on card {card} ({a}/{b}); allowed: {a} or {b}")


def face_pair(face: int) -> tuple[int, int]:
    """``(card id, top number)`` of a face code."""
    return (face >> 1, FACE_VALUE[face])


def face_by_numbers(top: int, bottom: int) -> int:
    """The face code of the card with numbers ``top`` and ``bottom``, ``top`` on top (handy in tests)."""
    return face_of(card_id(top, bottom), top)


def card_name(card: int) -> str:
    """``"3/7"``: the card's two numbers, lower first."""
    a, b = CARD_NUMBERS[card]
    return f"{a}/{b}"


def face_name(face: int) -> str:
    """``"7(3)"``: the top number, the other number in brackets."""
    return f"{FACE_VALUE[face]}({FACE_BOTTOM[face]})"


class Setup(NamedTuple):
    """One row of the setup table (section 2).

    Attributes:
        removed: card ids taken out of the game for this player count.
        in_play: the other card ids, sorted.
        hand_size: cards dealt to each player per round.
        chips_at_start: Scout chips each player holds at round start (2 players: own supply).
        scout_and_show: whether Scout & Show is used.
        rounds: rounds of a game.
        cards_per_round: cards dealt per round (2 players: 22 of the 44).
    """

    removed: tuple[int, ...]
    in_play: tuple[int, ...]
    hand_size: int
    chips_at_start: int
    scout_and_show: bool
    rounds: int
    cards_per_round: int


def _setup(removed: list[int], hand_size: int, chips: int, scout_and_show: bool, rounds: int,
           n_players: int) -> Setup:
    in_play = tuple(c for c in range(N_CARDS) if c not in removed)
    return Setup(tuple(sorted(removed)), in_play, hand_size, chips, scout_and_show, rounds,
                 hand_size * n_players)


CARD_9_10 = card_id(9, 10)
#: The card with 1 and 2 (``first_player = "holder_of_1_2"``, section 2).
CARD_1_2 = card_id(1, 2)

#: ``SETUP[n_players]``: the table of section 2.
SETUP: dict[int, Setup] = {
    2: _setup([CARD_9_10], 11, 3, False, 2, 2),
    3: _setup([c for c, (a, b) in enumerate(CARD_NUMBERS) if b == 10], 12, 0, True, 3, 3),
    4: _setup([CARD_9_10], 11, 0, True, 4, 4),
    5: _setup([], 9, 0, True, 5, 5),
}
assert len(SETUP[2].in_play) == 44 and len(SETUP[3].in_play) == 36 and len(SETUP[5].in_play) == 45
assert all(s.cards_per_round == len(s.in_play) for n, s in SETUP.items() if n > 2)
assert SETUP[2].cards_per_round == 22


def rotate_faces(faces: list[int]) -> list[int]:
    """A hand turned 180 degrees (section 2 [ruling] :data:`~seers_env.scout.rulings.ROTATION_REVERSES_AND_FLIPS`):
    the order reversed and every card flipped. Returns a new list."""
    return [f ^ 1 for f in reversed(faces)]
