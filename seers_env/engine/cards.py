"""Card identities and per-player-count deck tables for Seers Catalog.

Every card is a small ``int`` (rules file, section 1):

* suited cards ``0..59``: ``suit * 12 + (value - 2)``, suits Yellow, Plum, Silver, Teal, Green
  (indices 0..4), values 2..13;
* ``WILD == 60``: the five wilds are identical, so a hand may hold it more than once;
* artifact cards ``61 + k`` where ``k`` is the artifact kind's index in
  :data:`seers_env.artifacts.ARTIFACT_KINDS` (copies of a kind are identical).

A hand is a sorted ``list[int]`` (a multiset). Scoring values: a suited card's value, 0 for wilds and
artifacts.
"""

from __future__ import annotations

SUIT_NAMES: tuple[str, ...] = ("Yellow", "Plum", "Silver", "Teal", "Green")
N_SUITS = 5
MIN_VALUE = 2
MAX_VALUE = 13
N_VALUES = MAX_VALUE - MIN_VALUE + 1  # 12
N_SUITED = N_SUITS * N_VALUES  # 60
WILD = N_SUITED  # 60
FIRST_ARTIFACT = WILD + 1  # 61

#: Setup table, rules section 2: players -> (number of suits, highest value, cards removed face-down).
SETUP_BY_PLAYERS: dict[int, tuple[int, int, int]] = {
    2: (3, 10, 3),
    3: (3, 13, 0),
    4: (4, 13, 0),
    5: (5, 13, 0),
}
SUITED_PER_PLAYER = 12
WILDS_PER_PLAYER = 1
ARTIFACTS_PER_PLAYER = 2


def suited_card(suit: int, value: int) -> int:
    """Card id of the suited card ``(suit, value)``; suit 0..4, value 2..13.

    Raises:
        ValueError: suit or value out of range.
    """
    if not 0 <= suit < N_SUITS:
        raise ValueError(f"suit {suit!r} is not one of 0..{N_SUITS - 1} ({', '.join(SUIT_NAMES)})")
    if not MIN_VALUE <= value <= MAX_VALUE:
        raise ValueError(f"value {value!r} is not one of {MIN_VALUE}..{MAX_VALUE}")
    return suit * N_VALUES + value - MIN_VALUE


def suit_of(card: int) -> int:
    """Suit index 0..4 of a suited card id (0..59)."""
    return card // N_VALUES


def value_of(card: int) -> int:
    """Value 2..13 of a suited card id (0..59)."""
    return card % N_VALUES + MIN_VALUE


def is_suited(card: int) -> bool:
    return 0 <= card < N_SUITED


def is_artifact(card: int) -> bool:
    return card >= FIRST_ARTIFACT


def artifact_card(kind_index: int) -> int:
    """Card id of an artifact of kind index ``kind_index``."""
    return FIRST_ARTIFACT + kind_index


def artifact_kind_index(card: int) -> int:
    """Kind index of an artifact card id (``card - 61``)."""
    return card - FIRST_ARTIFACT


def scoring_value(card: int) -> int:
    """Value of a card at scoring (rules section 5): suited value, 0 for wilds and artifacts."""
    return card % N_VALUES + MIN_VALUE if card < N_SUITED else 0


def card_name(card: int) -> str:
    """Readable name: ``"Plum 7"``, ``"wild"``, or the artifact kind's name."""
    if card < N_SUITED:
        return f"{SUIT_NAMES[suit_of(card)]} {value_of(card)}"
    if card == WILD:
        return "wild"
    from .artifacts import ARTIFACT_KINDS  # local: artifacts imports this module

    k = artifact_kind_index(card)
    if 0 <= k < len(ARTIFACT_KINDS):
        return ARTIFACT_KINDS[k].name
    raise ValueError(f"card id {card!r} is not a card (suited 0..59, wild 60, artifacts 61..)")


def suited_deck(suits: list[int] | tuple[int, ...], max_value: int) -> list[int]:
    """All suited card ids of the given suits with values 2..max_value, sorted."""
    return sorted(suit * N_VALUES + v - MIN_VALUE for suit in suits for v in range(MIN_VALUE, max_value + 1))
