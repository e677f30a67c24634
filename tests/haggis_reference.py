"""A deliberately naive Haggis legal-play reference, written from the rules text (``shared/rules/haggis.md``
sections 4 and 11).

It shares no code with :mod:`seers_env.haggis.moves`: it reads only card ranks and suits
(:mod:`seers_env.haggis.cards`), the play type and the game's public attributes. Every subset of the hand
is tried with every declared shape (set, sequence of width 1..5, bomb):

* a set: some rank ``r`` that every number card has and every wild may stand for (section 4.2);
* a sequence of width ``w``: every template of ``w`` suits times ``L`` consecutive ranks (``L = n / w``)
  is tried; the number cards must be distinct cards of the template and the wilds must fill the rest, each
  wild tried on every free slot (a slot of rank ``x`` takes a wild of own rank ``>= x``, section 4.1); the
  value is the highest top over the templates that work (section 4.3 says the engine never offers a lower
  one);
* a bomb: the six patterns of section 4.4 spelled out.

The trick's last combination is read from the game's trick (its cards and declared shape, classified by
this module). A group that is a bomb is only a bomb; face cards alone are a single or a bomb. The result
is sorted by the documented key, computed here from the reference's own values.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

from seers_env.haggis.cards import is_wild, rank_of, suit_of
from seers_env.haggis.plays import BOMB, PASS, SEQ, SET, HaggisPlay

BOMB_ORDER = ["rainbow", "JQ", "JK", "QK", "JQK", "suited"]  # section 4.4, lowest first


def ref_bomb(cards) -> int:
    """1..6 (section 4.4 order) or 0."""
    ranks = sorted(rank_of(c) for c in cards)
    if all(is_wild(c) for c in cards):
        return {(11, 12): 2, (11, 13): 3, (12, 13): 4, (11, 12, 13): 5}.get(tuple(ranks), 0)
    if any(is_wild(c) for c in cards) or ranks != [3, 5, 7, 9]:
        return 0
    suits = [suit_of(c) for c in cards]
    if len(set(suits)) == 1:
        return 6
    if len(set(suits)) == 4:
        return 1
    return 0


@lru_cache(maxsize=None)
def _seq_value(nat: tuple, wild_caps: tuple, w: int) -> int:
    """Highest top of a width-``w`` sequence the cards make, 0 if none (template search)."""
    n = len(nat) + len(wild_caps)
    if n % w:
        return 0
    L = n // w
    if L < (3 if w == 1 else 2):
        return 0
    ranks = [r for r, _ in nat]
    if len({x for _, x in nat}) > w or max(ranks) - min(ranks) >= L or max(map(ranks.count, ranks)) > w:
        return 0  # quick rejects: no template of w suits x L ranks holds these cards
    best = 0
    nat_set = set(nat)
    for lo in range(2, 14 - L + 1):
        top = lo + L - 1
        for suits in combinations(range(5), w):
            template = {(r, s) for r in range(lo, top + 1) for s in suits}
            if not nat_set <= template:
                continue
            free = sorted(template - nat_set)
            if len(free) != len(wild_caps):
                continue
            if any(all(cap >= slot[0] for cap, slot in zip(order, free))
                   for order in permutations(wild_caps)):
                best = max(best, top)
    return best


def ref_combo(cards, kind: int, width: int = 0, parts=None):
    """``(kind, a, b, value)`` as in the rules (section 4.6 needs kind, size/width, length, value) or None.
    ``parts``: :func:`ref_parts` of ``cards`` when already computed."""
    nat, caps, b = parts if parts is not None else ref_parts(cards)
    if kind == BOMB:
        return (BOMB, 0, 0, b) if b else None
    if b:
        return None  # a bomb is only a bomb
    if not nat:
        if kind == SET and len(caps) == 1:
            return (SET, 1, 0, caps[0])
        return None
    if kind == SET:
        for r in range(2, 14):
            if all(x == r for x, _ in nat) and all(cap >= r for cap in caps):
                return (SET, len(cards), 0, r)
        return None
    v = _seq_value(nat, caps, width)
    return (SEQ, width, len(cards) // width, v) if v else None


def ref_parts(cards):
    """(number cards as sorted (rank, suit) pairs, sorted wild ranks, bomb value) of ``cards``."""
    nat = tuple(sorted((rank_of(c), suit_of(c)) for c in cards if not is_wild(c)))
    caps = tuple(sorted(rank_of(c) for c in cards if is_wild(c)))
    return nat, caps, ref_bomb(cards)


def ref_beats(c, top) -> bool:
    if top is None:
        return True
    if c[0] == BOMB:
        return top[0] != BOMB or c[3] > top[3]
    if top[0] == BOMB:
        return False
    return c[:3] == top[:3] and c[3] > top[3]


def ref_key(play, c):
    if play.kind == PASS:
        return (0,)
    if play.kind == SET:
        return (1, c[1], c[3], play.cards)
    if play.kind == SEQ:
        return (2, c[1], c[2], c[3], play.cards)
    return (3, c[3], play.cards)


def _natural_subsets(nat_hand, n_wilds: int, max_size: int):
    """Every subset of the number cards ``nat_hand`` that may be part of a combination with at most
    ``n_wilds`` wilds, as tuples of card ids. Cards are added in ascending (rank, suit) order, and a
    subset is dropped with all its extensions once it can no longer fit (sections 4.2-4.4): it is not of
    one rank, not a start of 3-5-7-9, and for ``w`` = the most suits or cards of one rank so far, the
    template of ``w`` suits over the ranks from its lowest to below its highest already lacks more than
    ``n_wilds`` cards (later cards have higher ranks, so they never fill those slots and ``w`` never
    shrinks)."""
    cards = sorted(nat_hand, key=lambda c: (rank_of(c), suit_of(c)))
    out = []

    def viable(sub):
        ranks = [rank_of(c) for c in sub]
        if len(set(ranks)) <= 1 or ranks == [3, 5, 7, 9][:len(ranks)]:
            return True
        w = max(len({suit_of(c) for c in sub}), max(ranks.count(r) for r in ranks))
        if w > 5:
            return False
        below = [r for r in range(min(ranks), max(ranks))]
        return sum(w - ranks.count(r) for r in below) <= n_wilds

    def rec(i, sub):
        if len(sub) > max_size:
            return
        out.append(tuple(sub))
        for j in range(i, len(cards)):
            sub.append(cards[j])
            if viable(sub):
                rec(j + 1, sub)
            sub.pop()

    rec(0, [])
    return out


def reference_turn_plays(hand, top_play: HaggisPlay | None) -> list[HaggisPlay]:
    """Every legal play with ``hand`` on ``top_play`` (the trick's last combination; ``None``: leading):
    every subset of the hand (number-card subsets pruned by :func:`_natural_subsets`) with every shape."""
    top = None if top_play is None else ref_combo(top_play.cards, top_play.kind, top_play.width)
    nat_hand = sorted(c for c in hand if not is_wild(c))
    wild_hand = sorted(c for c in hand if is_wild(c))
    wild_subsets = [ws for k in range(len(wild_hand) + 1) for ws in combinations(wild_hand, k)]
    if top is None:
        shapes = [(SET, 0)] + [(SEQ, w) for w in range(1, 6)] + [(BOMB, 0)]
    elif top[0] == BOMB:
        shapes = [(BOMB, 0)]
    elif top[0] == SET:
        shapes = [(SET, 0), (BOMB, 0)]
    else:
        shapes = [(SEQ, top[1]), (BOMB, 0)]
    max_size = len(hand) if top is None or top[0] == BOMB else max(4, top[1] * max(top[2], 1))
    found = []
    for ns in _natural_subsets(nat_hand, len(wild_hand), max_size):
        for ws in wild_subsets:
            sub = tuple(sorted(ns + ws))
            if not sub or len(sub) > max_size:
                continue
            parts = ref_parts(sub)
            for kind, w in shapes:
                c = ref_combo(sub, kind, w, parts)
                if c is not None and ref_beats(c, top):
                    found.append((HaggisPlay(kind, sub, w), c))
    found.sort(key=lambda pc: ref_key(*pc))
    plays = [p for p, _ in found]
    return ([HaggisPlay(PASS)] + plays) if top is not None else plays


def reference_legal_plays(game) -> list[HaggisPlay]:
    """The reference list for the seat to act in ``game`` (bets first when it has not bet)."""
    if game.game_over:
        return []
    if game.bets[game.current] is None:
        return [HaggisPlay(1, (), 0, b) for b in (0, 15, 30)]
    trick = game.trick
    return reference_turn_plays(game.hand(game.current), trick[-1][1] if trick else None)
