"""The :class:`Play` type: one thing a player may do on their turn (pass, a meld, or an artifact action).

A play's *identity* (rules section 3 [ruling], :data:`seers_env.rulings.PLAY_IDENTITY`) is the cards that
leave the hand, the meld's type, size and comparison value (``rank``, in half steps) and a Gift of Fate's
target. The other fields record one interpretation of those cards (what each wild stands for, how the
artifact was used) for display and logs; they never decide legality.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..integers import is_integer
from .artifacts import ARTIFACT_KINDS, CAULDRON, GIFT, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from .cards import FIRST_ARTIFACT, SUIT_NAMES, WILD, card_name, suit_of, value_of
from .rulings import HIGHEST_SINGLE_RANK


class PlayKind(enum.IntEnum):
    PASS = 0
    MELD = 1
    ROD = 2  # Rod of Reincarnation: take the trick
    GIFT = 3  # Gift of Fate: hand the lead to ``target``


class MeldType(enum.IntEnum):
    NONE = 0
    SINGLE = 1
    SET = 2  # Matching Set
    RUN = 3  # Suited Run


MELD_TYPE_NAMES = {MeldType.SINGLE: "Single", MeldType.SET: "Matching Set", MeldType.RUN: "Suited Run"}


#: Bound of a saved play's integers and list lengths (:meth:`Play.from_dict`); real plays stay far below.
FIELD_LIMIT = 1000


class Play(NamedTuple):
    """One play. Build melds with the engine's legal plays, or with the helpers below.

    Fields (all ``int`` or ``tuple[int, ...]``):
        kind: :class:`PlayKind`.
        meld_type: :class:`MeldType` (``NONE`` unless ``kind == MELD``).
        size: number of cards in the meld, the artifact not counted (rules section 3 [ruling]).
        rank: comparison value in half steps: ``2 * value`` for a Single or Set, ``2 * top`` for a Run,
            +/-1 with the half-step artifact, :data:`~seers_env.rulings.HIGHEST_SINGLE_RANK` for the
            highest-single artifact.
        suited: sorted suited card ids (0..59) that leave the hand.
        wilds: number of wilds that leave the hand.
        artifact: kind index of the artifact that leaves the hand, or -1.
        target: seat that a Gift of Fate hands the lead to, or -1.
        run_suit: the suit a Run counts as, or -1.  (interpretation, not identity)
        effect_used: 1 when the artifact's effect was used, 0 when it rides along or is discarded.
        modified_card: suited card changed by the Cauldron or the suit-change artifact, or -1.
        modifier: Cauldron: +1/-1 to the value; suit change: the new suit; half step: +1/-1 half steps.
        wild_values: sorted values (2..13) the wilds stand for.
    """

    kind: int
    meld_type: int = 0
    size: int = 0
    rank: int = 0
    suited: tuple[int, ...] = ()
    wilds: int = 0
    artifact: int = -1
    target: int = -1
    run_suit: int = -1
    effect_used: int = 0
    modified_card: int = -1
    modifier: int = 0
    wild_values: tuple[int, ...] = ()

    # --- identity -------------------------------------------------------------------------------
    def identity(self) -> tuple:
        """The fields that make two plays the same play (rules section 3 [ruling])."""
        return self[:8]

    def cards(self) -> list[int]:
        """Card ids that leave the hand, sorted (suited, then wilds, then the artifact)."""
        out = list(self.suited)
        if self.wilds:
            out += [WILD] * self.wilds
        if self.artifact >= 0:
            out.append(FIRST_ARTIFACT + self.artifact)
        return out

    @property
    def is_pass(self) -> bool:
        return self.kind == PlayKind.PASS

    # --- serialisation --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable dict of every field."""
        d = self._asdict()
        d["suited"] = list(self.suited)
        d["wild_values"] = list(self.wild_values)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Play:
        """Inverse of :meth:`to_dict`. Only types and sizes are checked here; whether the play is legal
        (cards, ranks, targets) is :meth:`seers_env.game.Game.apply`'s to judge.

        Raises:
            TypeError: ``d`` is not a dict, an integer field that is not an integer (a bool, float or
                string is refused, not rounded), or ``suited`` / ``wild_values`` not a list of integers
                (the message names the field).
            ValueError: unknown field names, no ``kind``, an integer outside ``-FIELD_LIMIT ..
                FIELD_LIMIT`` or a list longer than ``FIELD_LIMIT`` (no play comes near).
        """
        if not isinstance(d, dict):
            raise TypeError(f"a Play must be a dict of the fields {list(cls._fields)}, got "
                            f"{type(d).__name__}: {d!r}")
        unknown = set(d) - set(cls._fields)
        if unknown:
            raise ValueError(f"unknown Play fields {sorted(unknown, key=str)}; allowed: {list(cls._fields)}")
        if "kind" not in d:
            raise ValueError(f"a Play needs a 'kind' ({', '.join(f'{k.value} {k.name}' for k in PlayKind)})")
        out = {}
        for name, value in d.items():
            if name in ("suited", "wild_values"):
                if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
                    raise TypeError(f"Play field {name}={value!r} must be a list of integers")
                value = tuple(value)
                if any(not is_integer(x) for x in value):
                    raise TypeError(f"Play field {name}={list(value)!r} must be a list of integers")
                if len(value) > FIELD_LIMIT or any(abs(x) > FIELD_LIMIT for x in value):
                    raise ValueError(f"Play field {name}={str(list(value))[:80]} is out of range; allowed: at "
                                     f"most {FIELD_LIMIT} integers in -{FIELD_LIMIT}..{FIELD_LIMIT}")
                out[name] = tuple(int(x) for x in value)
            elif not is_integer(value):
                raise TypeError(f"Play field {name}={value!r} must be an integer")
            elif abs(value) > FIELD_LIMIT:
                raise ValueError(f"Play field {name}={value!r} is out of range; allowed: "
                                 f"-{FIELD_LIMIT}..{FIELD_LIMIT}")
            else:
                out[name] = int(value)
        return cls(**out)

    # --- display --------------------------------------------------------------------------------
    def describe(self) -> str:
        """Readable text, e.g. ``"Matching Set of three 7s: Plum 7, Teal 7, wild as 7"``."""
        if self.kind == PlayKind.PASS:
            return "Pass"
        if self.kind == PlayKind.ROD:
            return "Rod of Reincarnation: take every card of this trick and lead the next"
        if self.kind == PlayKind.GIFT:
            return f"Gift of Fate: player_{self.target} becomes Start Seer"
        if self.artifact == HIGHEST_SINGLE and self.effect_used:
            return "Single: Highest Single (beats every Single)"
        items: list[tuple[int, str]] = []  # (value it counts as, text)
        modified = self.modified_card
        for c in self.suited:
            v = value_of(c)
            if c == modified and self.artifact == CAULDRON:
                v += self.modifier
                items.append((v, f"{card_name(c)} as {v}"))
            elif c == modified and self.artifact == SUIT_CHANGER:
                items.append((v, f"{card_name(c)} as {SUIT_NAMES[self.modifier]}"))
            else:
                items.append((v, card_name(c)))
        items += [(v, f"wild as {v}") for v in self.wild_values]
        if self.meld_type == MeldType.RUN:
            items.sort(key=lambda item: item[0])
        parts = [text for _, text in items]
        if self.artifact >= 0:
            name = ARTIFACT_KINDS[self.artifact].name
            if self.effect_used and self.artifact == HALF_STEP:
                parts.append(f"{name} {'+' if self.modifier > 0 else '-'}1/2")
            elif not self.effect_used:
                parts.append(f"{name} (unused)")
            else:
                parts.append(name)
        value = format_rank(self.rank)
        if self.meld_type == MeldType.SINGLE:
            head = f"Single {value}"
        elif self.meld_type == MeldType.SET:
            head = f"Matching Set of {_count_word(self.size)} {value}s"
        else:
            suit = SUIT_NAMES[self.run_suit] if self.run_suit >= 0 else "any suit"
            head = f"Suited Run of {self.size} in {suit} up to {value}"
        return f"{head}: {', '.join(parts)}"


def format_rank(rank: int) -> str:
    """Half-step rank as text: 14 -> ``"7"``, 15 -> ``"7 1/2"``, highest single -> ``"highest"``."""
    if rank >= HIGHEST_SINGLE_RANK:
        return "highest"
    return f"{rank // 2} 1/2" if rank % 2 else str(rank // 2)


def _count_word(n: int) -> str:
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[n] if n < len(words) else str(n)


PASS = Play(PlayKind.PASS)


def rod_play() -> Play:
    """The Rod of Reincarnation action (section 6)."""
    return Play(PlayKind.ROD, artifact=ROD, effect_used=1)


def gift_play(target: int) -> Play:
    """The Gift of Fate action handing the lead to seat ``target`` (section 6)."""
    return Play(PlayKind.GIFT, artifact=GIFT, target=target, effect_used=1)


def highest_single_play() -> Play:
    """The highest-single artifact played alone as a Single (section 6)."""
    return Play(PlayKind.MELD, MeldType.SINGLE, 1, HIGHEST_SINGLE_RANK, (), 0, HIGHEST_SINGLE, effect_used=1)


def natural_single(card: int) -> Play:
    """A suited card played as a Single, no artifact."""
    return Play(PlayKind.MELD, MeldType.SINGLE, 1, 2 * value_of(card), (card,))


def describe_cards(cards: list[int]) -> str:
    """Comma-separated card names."""
    return ", ".join(card_name(c) for c in cards)


__all__ = [
    "MELD_TYPE_NAMES", "MeldType", "PASS", "Play", "PlayKind", "describe_cards", "format_rank",
    "gift_play", "highest_single_play", "natural_single", "rod_play", "suit_of",
]
