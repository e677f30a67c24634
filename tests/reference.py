"""A brute-force reference for the legal plays of a hand (rules sections 3, 4 and 6).

Independent of :mod:`seers_env.moves`: it enumerates every sub-multiset of the hand (suited cards, then a
number of wilds, then no artifact or one held kind), every declaration of the wilds and every option of
the artifact, judges each declared meld with :func:`seers_env.melds.classify` (cards as they count), and
keeps the ones the follow rule allows. It returns play identities
(:data:`seers_env.rulings.PLAY_IDENTITY`), so it can be compared with the engine as sets.

Wild declarations: each wild takes a value 2..13; all wilds in one play share one suit, tried for each of
the 5 suits. That loses nothing: a Suited Run needs one suit for every card, and a Single or Matching Set
does not look at suits (section 3 [ruling]: the suit of a wild there changes nothing).

Only one pruning is used, straight from the meld definitions of section 3: suited cards that count with
two different values *and* two different suits can be neither a Set (one value) nor a Run (one suit),
whatever the wilds say.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from seers_env.artifacts import ARTIFACT_KINDS, CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from seers_env.cards import FIRST_ARTIFACT, N_SUITED, WILD, suit_of, value_of
from seers_env.melds import classify
from seers_env.rulings import HIGHEST_SINGLE_RANK

PASS, MELD, ROD_KIND, GIFT_KIND = 0, 1, 2, 3  # seers_env.plays.PlayKind, spelled out
SINGLE = 1
VALUES = range(2, 14)  # section 3 [ruling]: every value, a wild's too, within 2..13 (also at 2 players)


def follows(top, meld_type: int, size: int, rank: int) -> bool:
    """Section 3: leading allows any meld; following needs the same type and size, strictly higher."""
    return top is None or (meld_type == top[0] and size == top[1] and rank > top[2])


def _options(sub: tuple[int, ...], kind: int) -> list[tuple[list[tuple[int, int]], int, int]]:
    """Every way the suited cards ``sub`` count with artifact ``kind`` (-1: none).

    Returns ``(effective (suit, value) pairs, rank shift in half steps, artifact)`` triples (section 6).
    """
    plain = [(suit_of(c), value_of(c)) for c in sub]
    out = [(plain, 0, kind)]  # no artifact, or any artifact riding along / declared unused
    if kind == CAULDRON:  # one suited card counts as value +1 or -1 (within 2..13)
        for i, (s, v) in enumerate(plain):
            for d in (-1, 1):
                if 2 <= v + d <= 13:
                    out.append((plain[:i] + [(s, v + d)] + plain[i + 1:], 0, kind))
    elif kind == SUIT_CHANGER:  # one suited card counts as any other suit
        for i, (s, v) in enumerate(plain):
            for s2 in range(5):
                if s2 != s:
                    out.append((plain[:i] + [(s2, v)] + plain[i + 1:], 0, kind))
    elif kind == HALF_STEP:  # the meld's comparison value +1/2 or -1/2
        out += [(plain, 1, kind), (plain, -1, kind)]
    return out


def _hopeless(eff: list[tuple[int, int]]) -> bool:
    """Two different values and two different suits: no Set, no Run (section 3)."""
    return len({v for _, v in eff}) > 1 and len({s for s, _ in eff}) > 1


def reference_legal(hand: list[int], top, seat: int, n_players: int, in_bonus: bool) -> set[tuple]:
    """The set of legal play identities ``(kind, meld_type, size, rank, suited, wilds, artifact, target)``.

    Args:
        hand: card ids (seers_env.cards); top: ``(meld_type, size, rank)`` or ``None`` when leading.
    """
    suited = sorted(c for c in hand if c < N_SUITED)
    n_wilds = hand.count(WILD)
    kinds = sorted({c - FIRST_ARTIFACT for c in hand if c >= FIRST_ARTIFACT})
    melds: set[tuple] = set()
    for r in range(len(suited) + 1):
        for sub in combinations(suited, r):  # suited ids are distinct: subsets are the sub-multisets
            for k in range(n_wilds + 1):
                size = r + k
                if size == 0 or (top is not None and size != top[1]):
                    continue
                for kind in [-1] + kinds:
                    for eff, shift, art in _options(sub, kind):
                        if _hopeless(eff):
                            continue
                        for ws in range(5):
                            for wv in combinations_with_replacement(VALUES, k):
                                got = classify(eff + [(ws, v) for v in wv])
                                if got is None:
                                    continue
                                mt, rank = int(got[0]), got[1] + shift
                                if follows(top, mt, size, rank):
                                    melds.add((MELD, mt, size, rank, sub, k, art, -1))
                            if k == 0:
                                break  # no wilds: the wild suit is not a choice
    # the highest-single artifact alone, a Single above every Single (section 6)
    if HIGHEST_SINGLE in kinds and follows(top, SINGLE, 1, HIGHEST_SINGLE_RANK):
        melds.add((MELD, SINGLE, 1, HIGHEST_SINGLE_RANK, (), 0, HIGHEST_SINGLE, -1))
    out = set(melds)
    if top is None:
        if not melds:  # project ruling START_SEER_MUST_LEAD_WHEN_ABLE (the Gift is not a meld)
            out.add((PASS, 0, 0, 0, (), 0, -1, -1))
        if GIFT in kinds:  # Gift of Fate: alone, when about to lead, any other seat
            out |= {(GIFT_KIND, 0, 0, 0, (), 0, GIFT, t) for t in range(n_players) if t != seat}
    else:
        if not (in_bonus and melds):  # section 4; the Rod never forces
            out.add((PASS, 0, 0, 0, (), 0, -1, -1))
        if ROD in kinds:  # Rod: alone, when following
            out.add((ROD_KIND, 0, 0, 0, (), 0, ROD, -1))
    return out


assert ARTIFACT_KINDS[GO_FIRST].effect == "none"  # Go First only rides along: nothing more to enumerate
