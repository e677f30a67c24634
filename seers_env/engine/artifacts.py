"""The artifact registry: every artifact kind as data (rules file, section 6).

An :class:`ArtifactKind` says what the card is called, when it may be played (:class:`Timing`) and which
effect it has (``effect``, the name of a generator in :data:`seers_env.moves.EFFECTS`). A new kind is one
row here plus, when its effect is new, one effect function in ``moves.py``.

The official Artifact Reference is not in the sources: the timings and limits below are the project's
rulings (rules file, section 6), recorded with each kind.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Timing(enum.Enum):
    """When an artifact may be played."""

    RIDES_ALONG = "only together with a meld, without effect (cannot be played alone)"
    WITH_MELD = "together with a meld, using its effect or declaring it unused"
    ALONE_AS_SINGLE = "alone, as a Single (lead or follow in a Singles trick)"
    ALONE_WHEN_FOLLOWING = "alone, on your turn when at least one meld is on the table this trick"
    ALONE_WHEN_LEADING = "alone, when you are about to lead a trick"


@dataclass(frozen=True)
class ArtifactKind:
    """One kind of artifact card.

    Attributes:
        key: stable identifier used in configs and serialised games, e.g. ``"cauldron_of_sorcery"``.
        name: the card's name as shown to players.
        timing: when it may be played (:class:`Timing`).
        effect: name of its effect in :data:`seers_env.moves.EFFECTS` (``"none"`` for no meld effect).
        source: where its effect is confirmed, and the ruling that fixes its limits.
    """

    key: str
    name: str
    timing: Timing
    effect: str
    source: str


#: Registry order fixes card ids (``61 + index``) and the action catalogue: append, never reorder.
ARTIFACT_KINDS: tuple[ArtifactKind, ...] = (
    ArtifactKind(
        "go_first", "Go First", Timing.RIDES_ALONG, "none",
        "seed 000 (holder starts the round); ruling: rides along with any meld, never alone",
    ),
    ArtifactKind(
        "rod_of_reincarnation", "Rod of Reincarnation", Timing.ALONE_WHEN_FOLLOWING, "take_trick",
        "spacebiff.com review; ruling: alone when following, take every card of the trick, lead next",
    ),
    ArtifactKind(
        "gift_of_fate", "Gift of Fate", Timing.ALONE_WHEN_LEADING, "pass_lead",
        "spacebiff.com review; ruling: alone when about to lead, another player becomes Start Seer",
    ),
    ArtifactKind(
        "cauldron_of_sorcery", "Cauldron of Sorcery", Timing.WITH_MELD, "shift_value",
        "spacebiff.com review; ruling: one suited card (not a wild) counts as value +1 or -1 (2..13)",
    ),
    ArtifactKind(
        "suit_changer", "Suit Changer", Timing.WITH_MELD, "change_suit",
        "meadowparty.com review (name unknown); ruling: one suited card counts as any other suit",
    ),
    ArtifactKind(
        "half_step", "Half Step", Timing.WITH_MELD, "half_step",
        "meadowparty.com review (name unknown); ruling: the meld's comparison value is +1/2 or -1/2",
    ),
    ArtifactKind(
        "highest_single", "Highest Single", Timing.ALONE_AS_SINGLE, "highest",
        "meadowparty.com review (name unknown); ruling: a Single that beats every Single, unbeatable",
    ),
)

KIND_INDEX: dict[str, int] = {kind.key: i for i, kind in enumerate(ARTIFACT_KINDS)}
GO_FIRST = KIND_INDEX["go_first"]
ROD = KIND_INDEX["rod_of_reincarnation"]
GIFT = KIND_INDEX["gift_of_fate"]
CAULDRON = KIND_INDEX["cauldron_of_sorcery"]
SUIT_CHANGER = KIND_INDEX["suit_changer"]
HALF_STEP = KIND_INDEX["half_step"]
HIGHEST_SINGLE = KIND_INDEX["highest_single"]

#: Default artifact deck, rules section 6 [ruling]: Go First + two copies of each other kind (13 cards).
DEFAULT_ARTIFACT_DECK: tuple[str, ...] = ("go_first",) + tuple(
    kind.key for kind in ARTIFACT_KINDS[1:] for _ in range(2)
)


def kind_index(key: str) -> int:
    """Registry index of an artifact kind key.

    Raises:
        ValueError: unknown key; the message lists the known keys.
    """
    try:
        return KIND_INDEX[key]
    except KeyError:
        raise ValueError(
            f"unknown artifact kind {key!r}; known kinds: {', '.join(KIND_INDEX)}"
        ) from None
