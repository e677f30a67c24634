"""Meld detection and comparison (rules section 3), independent of legal-play generation.

These functions judge a meld from the cards as they *count* (each card's effective suit and value, after
wilds are declared and artifacts applied). The brute-force reference in the tests uses them to check the
generator in :mod:`seers_env.moves`; the engine uses :func:`beats`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .plays import MeldType


def classify(effective: Sequence[tuple[int, int]]) -> tuple[MeldType, int] | None:
    """Classify cards as they count.

    Args:
        effective: one ``(suit, value)`` pair per card, suit 0..4, value 2..13.

    Returns:
        ``(meld_type, rank)`` with rank in half steps (``2 * value`` for a Single or Set, ``2 * top`` for a
        Run), or ``None`` when the cards form no meld. A Matching Set needs 2+ equal values; a Suited Run
        needs 2+ consecutive distinct values of one suit, without wrap-around (section 3 [ruling]).
    """
    n = len(effective)
    if n == 0:
        return None
    values = sorted(v for _, v in effective)
    if n == 1:
        return MeldType.SINGLE, 2 * values[0]
    if values[0] == values[-1]:
        return MeldType.SET, 2 * values[0]
    suits = {s for s, _ in effective}
    if len(suits) == 1 and all(values[i + 1] == values[i] + 1 for i in range(n - 1)):
        return MeldType.RUN, 2 * values[-1]
    return None


def beats(top: tuple[int, int, int] | None, meld_type: int, size: int, rank: int) -> bool:
    """Whether a meld may be played on the trick whose top meld is ``top``.

    Args:
        top: ``(meld_type, size, rank)`` of the meld to beat, or ``None`` when leading.
        meld_type, size, rank: the meld played (rank in half steps).

    Returns:
        ``True`` when leading, or when the type and size match and the rank is strictly higher
        (rules section 3: "Equal is not higher").
    """
    if top is None:
        return True
    return meld_type == top[0] and size == top[1] and rank > top[2]
