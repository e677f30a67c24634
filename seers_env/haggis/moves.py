"""Combinations, what beats what, and the legal plays of a turn (rules sections 4 and 11).

**Combinations** (:func:`combo_of`): a played ``(cards, declared shape)`` is a :class:`Combo`
``(kind, a, b, value)``:

=========  =====================  ===============  ==================================================
kind       a                      b                value
=========  =====================  ===============  ==================================================
``SET``    size n (1..8)          0                the number cards' rank (a lone face card: its rank)
``SEQ``    width w (1..5)         length L         top rank ``lo + L - 1``, lo = lowest number rank
``BOMB``   0                      0                1 rainbow 3-5-7-9, 2 J-Q, 3 J-K, 4 Q-K, 5 J-Q-K,
                                                   6 suited 3-5-7-9 (section 4.4)
=========  =====================  ===============  ==================================================

A non-bomb beats the trick's last combination when kind, ``a`` and ``b`` are equal and the value is
strictly higher; a bomb beats any non-bomb and any lower bomb (section 4.6; :func:`beats`).

**Legal plays of a turn** (:func:`turn_plays`), every distinct ``(cards, shape)`` once, in this stable
order (:func:`play_order_key`): ``PASS`` (when following), then sets by (size, value, cards), then
sequences by (width, length, value, cards), then bombs by bomb value (then cards); ``cards`` compare
as sorted tuples of card ids. The same cards declared as different shapes are different plays (they beat
different things: a set of n, a sequence of some (w, L), or a bomb); which wild stands for which rank or
suit is not part of a play (section 11).

**Generation** (section 11 notes): sets by rank, a non-empty subset of that rank's number cards and a
subset of the wilds; sequences by (width, lowest rank, length), per rank a subset of the number cards held
with at least one at the lowest rank, at most ``width`` suits in all, and a subset of wilds of exactly the
missing count that fits the rank caps (:func:`wilds_fit`); bombs by lookup.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from .cards import JACK, KING, MAX_NUMBER_RANK, MAX_RANK, MIN_RANK, N_SUITS, QUEEN, is_wild, rank_of, suit_of
from .plays import BOMB, MAX_WIDTH, PASS, SEQ, SET, HaggisPlay, PASS_PLAY

BOMB_RAINBOW, BOMB_JQ, BOMB_JK, BOMB_QK, BOMB_JQK, BOMB_SUITED = 1, 2, 3, 4, 5, 6
BOMB_NAMES = {BOMB_RAINBOW: "rainbow 3-5-7-9", BOMB_JQ: "J-Q", BOMB_JK: "J-K", BOMB_QK: "Q-K",
              BOMB_JQK: "J-Q-K", BOMB_SUITED: "suited 3-5-7-9"}
_FACE_BOMBS = {(JACK, QUEEN): BOMB_JQ, (JACK, KING): BOMB_JK, (QUEEN, KING): BOMB_QK,
               (JACK, QUEEN, KING): BOMB_JQK}
ODD_RANKS = (3, 5, 7, 9)
MIN_SEQ_LENGTH = {1: 3}  # width 1 needs 3 ranks; wider sequences 2 (section 4.3)


def min_length(width: int) -> int:
    """Shortest sequence of ``width`` cards per rank (section 4.3: 3 for width 1, else 2)."""
    return MIN_SEQ_LENGTH.get(width, 2)


class Combo(NamedTuple):
    """A combination's kind and value (module table)."""

    kind: int
    a: int
    b: int
    value: int

    @property
    def shape(self) -> tuple[int, int, int]:
        """What a non-bomb follower must match: ``(kind, a, b)``."""
        return (self.kind, self.a, self.b)

    def describe(self) -> str:
        if self.kind == SET:
            return f"set of {self.a} ({self.value})"
        if self.kind == SEQ:
            return f"sequence {self.a}x{self.b} to {self.value}"
        return f"bomb {BOMB_NAMES[self.value]}"


def wilds_fit(wild_ranks, slot_ranks) -> bool:
    """Whether the wilds can fill the slots (section 4.1 [ruling]: a wild stands for a rank up to its own):
    sorted pairwise, each wild's rank is at least its slot's (equal counts)."""
    if len(wild_ranks) != len(slot_ranks):
        return False
    return all(w >= s for w, s in zip(sorted(wild_ranks), sorted(slot_ranks)))


def bomb_value(cards) -> int:
    """The bomb value 1..6 of ``cards`` (section 4.4), or 0 when they are no bomb."""
    wild = [rank_of(c) for c in cards if is_wild(c)]
    if len(wild) == len(cards):
        return _FACE_BOMBS.get(tuple(sorted(wild)), 0)
    if wild or len(cards) != 4 or sorted(rank_of(c) for c in cards) != list(ODD_RANKS):
        return 0
    suits = {suit_of(c) for c in cards}
    if len(suits) == 1:
        return BOMB_SUITED
    if len(suits) == 4:
        return BOMB_RAINBOW
    return 0


def combo_of(play: HaggisPlay) -> Combo | str:
    """The :class:`Combo` of a well-formed SET/SEQ/BOMB play, or the reason (a ``str``) the cards cannot
    take the declared shape (section 4). Does not look at whose hand the cards are in."""
    cards = play.cards
    nat = [c for c in cards if not is_wild(c)]
    wild = sorted(rank_of(c) for c in cards if is_wild(c))
    if play.kind == BOMB:
        v = bomb_value(cards)
        return Combo(BOMB, 0, 0, v) if v else "the cards are none of the six bombs (section 4.4)"
    if bomb_value(cards):
        return "a group that is a bomb is only a bomb (section 4.5)"
    if not nat:
        if play.kind == SET and len(cards) == 1:
            return Combo(SET, 1, 0, wild[0])
        return "face cards alone are a single or a bomb (section 4.1)"
    ranks = [rank_of(c) for c in nat]
    if play.kind == SET:
        if len(set(ranks)) != 1:
            return "the number cards of a set must share one rank (section 4.2)"
        return Combo(SET, len(cards), 0, ranks[0])
    # SEQ
    w = play.width
    n = len(cards)
    if n % w:
        return f"{n} cards do not make whole ranks of width {w} (section 4.3)"
    length = n // w
    if length < min_length(w):
        return f"a sequence of width {w} needs at least {min_length(w)} ranks (section 4.3)"
    if len({suit_of(c) for c in nat}) > w:
        return f"the number cards use more than {w} suit(s) (section 4.3)"
    lo = min(ranks)
    top = lo + length - 1
    if top > MAX_RANK:
        return f"the sequence would run past K (section 4.3: no wrap-around)"
    counts = {r: ranks.count(r) for r in range(lo, top + 1)}
    if any(r > top for r in ranks) or any(k > w for k in counts.values()):
        return f"the number cards do not fit {length} consecutive ranks of {w} card(s) from {lo} (section 4.3)"
    slots = [r for r in range(lo, top + 1) for _ in range(w - counts[r])]
    if not wilds_fit(wild, slots):
        return "the wild cards cannot stand for the missing ranks (section 4.1: up to their own rank)"
    return Combo(SEQ, w, length, top)


def beats(combo: Combo, top: Combo | None) -> bool:
    """Whether ``combo`` may be played on ``top`` (``None``: leading, anything goes; section 4.6)."""
    if top is None:
        return True
    if combo.kind == BOMB:
        return top.kind != BOMB or combo.value > top.value
    if top.kind == BOMB:
        return False
    return combo.shape == top.shape and combo.value > top.value


def play_order_key(play: HaggisPlay, combo: Combo | None = None) -> tuple:
    """The documented order of a turn's plays (module docstring)."""
    if play.kind == PASS:
        return (0,)
    c = combo if combo is not None else combo_of(play)
    if play.kind == SET:
        return (1, c.a, c.value, play.cards)
    if play.kind == SEQ:
        return (2, c.a, c.b, c.value, play.cards)
    return (3, c.value, play.cards)


# --- generation ---------------------------------------------------------------------------------------

def _subsets(items):
    """Every subset of ``items`` (a tuple), smallest first, in a fixed order."""
    for k in range(len(items) + 1):
        yield from combinations(items, k)


def _split(hand):
    by_rank: dict[int, list[int]] = {r: [] for r in range(MIN_RANK, MAX_NUMBER_RANK + 1)}
    wilds = []
    for c in sorted(hand):
        if is_wild(c):
            wilds.append(c)
        else:
            by_rank[rank_of(c)].append(c)
    return by_rank, wilds


def set_plays(hand, size: int | None = None, above: int = 0,
              value_only: int | None = None) -> list[tuple[HaggisPlay, Combo]]:
    """Every set in ``hand`` (of ``size`` cards when given, value above ``above``, value ``value_only``
    when given), with its combo."""
    by_rank, wilds = _split(hand)
    out = []
    wild_subsets = list(_subsets(tuple(wilds)))
    for r in range(max(MIN_RANK, above + 1), MAX_NUMBER_RANK + 1):
        if value_only is not None and r != value_only:
            continue
        nats = tuple(by_rank[r])
        for k in range(1, len(nats) + 1):
            for ns in combinations(nats, k):
                for ws in wild_subsets:
                    n = k + len(ws)
                    if size is None or n == size:
                        out.append((HaggisPlay(SET, tuple(sorted(ns + ws))), Combo(SET, n, 0, r)))
    if size in (None, 1):
        for w in wilds:
            v = rank_of(w)
            if v > above and (value_only is None or v == value_only):
                out.append((HaggisPlay(SET, (w,)), Combo(SET, 1, 0, v)))
    return out


def seq_plays(hand, width: int | None = None, length: int | None = None, above: int = 0,
              lo_only: int | None = None) -> list[tuple[HaggisPlay, Combo]]:
    """Every sequence in ``hand`` (of that width and length when given, value above ``above``, lowest rank
    ``lo_only`` when given)."""
    by_rank, wilds = _split(hand)
    wild_ranks = {c: rank_of(c) for c in wilds}
    nw = len(wilds)
    out = []
    widths = range(1, MAX_WIDTH + 1) if width is None else (width,)
    for w in widths:
        for lo in range(MIN_RANK, MAX_NUMBER_RANK + 1):
            if not by_rank[lo] or (lo_only is not None and lo != lo_only):
                continue
            max_len = MAX_RANK - lo + 1
            lengths = range(min_length(w), max_len + 1) if length is None else (length,)
            for L in lengths:
                if L < min_length(w) or L > max_len:
                    continue
                top = lo + L - 1
                if top <= above:
                    continue
                # wild-only ranks above 10 need w wilds each
                if sum(w for r in range(lo, top + 1) if r > MAX_NUMBER_RANK) > nw:
                    continue
                _seq_dfs(by_rank, wilds, wild_ranks, w, lo, L, out)
    return out


def _seq_dfs(by_rank, wilds, wild_ranks, w, lo, L, out):
    nw = len(wilds)
    top = lo + L - 1
    ranks = list(range(lo, top + 1))
    # per rank: the subsets of the held number cards that may be used (size w - missing, missing <= nw)
    options = []
    for r in ranks:
        held = tuple(by_rank[r]) if r <= MAX_NUMBER_RANK else ()
        opts = []
        for k in range(min(w, len(held)), -1, -1):
            if w - k > nw:
                break
            if r == lo and k == 0:
                continue
            for sub in combinations(held, k):
                opts.append((sub, w - k, frozenset(suit_of(c) for c in sub)))
        if not opts:
            return
        options.append(opts)
    # remaining wild budget needed by later ranks (at least their forced misses)
    min_miss = [min(o[1] for o in opts) for opts in options]
    suffix = [0] * (L + 1)
    for i in range(L - 1, -1, -1):
        suffix[i] = suffix[i + 1] + min_miss[i]
    chosen: list[int] = []
    slots: list[int] = []

    def rec(i, miss, suits):
        if miss + suffix[i] > nw:
            return
        if i == L:
            for ws in combinations(wilds, miss):
                if wilds_fit([wild_ranks[c] for c in ws], slots):
                    cards = tuple(sorted(chosen + list(ws)))
                    out.append((HaggisPlay(SEQ, cards, w), Combo(SEQ, w, L, top)))
            return
        r = ranks[i]
        for sub, m, su in options[i]:
            s2 = suits | su
            if len(s2) > w:
                continue
            chosen.extend(sub)
            slots.extend([r] * m)
            rec(i + 1, miss + m, s2)
            del chosen[len(chosen) - len(sub):]
            if m:
                del slots[len(slots) - m:]

    rec(0, 0, frozenset())


def bomb_plays(hand, above: int = 0) -> list[tuple[HaggisPlay, Combo]]:
    """Every bomb in ``hand`` with value above ``above``."""
    by_rank, wilds = _split(hand)
    out = []
    faces = {rank_of(c): c for c in wilds}
    for ranks, v in _FACE_BOMBS.items():
        if v > above and all(r in faces for r in ranks):
            out.append((HaggisPlay(BOMB, tuple(sorted(faces[r] for r in ranks))), Combo(BOMB, 0, 0, v)))
    odd = [by_rank[r] for r in ODD_RANKS]
    if all(odd):
        for s in range(N_SUITS):  # suited
            pick = [next((c for c in cs if suit_of(c) == s), None) for cs in odd]
            if BOMB_SUITED > above and None not in pick:
                out.append((HaggisPlay(BOMB, tuple(sorted(pick))), Combo(BOMB, 0, 0, BOMB_SUITED)))
        if BOMB_RAINBOW > above:
            for a in odd[0]:
                for b in odd[1]:
                    for c in odd[2]:
                        for d in odd[3]:
                            if len({suit_of(a), suit_of(b), suit_of(c), suit_of(d)}) == 4:
                                out.append((HaggisPlay(BOMB, tuple(sorted((a, b, c, d)))),
                                            Combo(BOMB, 0, 0, BOMB_RAINBOW)))
    return out


def turn_plays_with_combos(hand, top: Combo | None) -> list[tuple[HaggisPlay, Combo | None]]:
    """:func:`turn_plays` with each play's combo (``None`` for PASS)."""
    if top is None:
        found = set_plays(hand) + seq_plays(hand) + bomb_plays(hand)
    elif top.kind == BOMB:
        found = bomb_plays(hand, above=top.value)
    elif top.kind == SET:
        found = set_plays(hand, size=top.a, above=top.value) + bomb_plays(hand)
    else:
        found = seq_plays(hand, width=top.a, length=top.b, above=top.value) + bomb_plays(hand)
    found.sort(key=lambda pc: play_order_key(*pc))
    if top is not None:
        return [(PASS_PLAY, None)] + found
    return found


_POPCOUNT = tuple(bin(x).count("1") for x in range(1 << N_SUITS))
_SUIT_SETS = {w: tuple(sum(1 << s for s in ss) for ss in combinations(range(N_SUITS), w))
              for w in range(1, MAX_WIDTH + 1)}


def _seq_combos(by_rank, wilds, width: int | None = None, length: int | None = None,
                above: int = 0) -> list[Combo]:
    """The sequence combos :func:`seq_plays` would give (one per width, lowest rank and length), in its
    order, without listing the plays. A (w, lo, L) has a play exactly when some w suits S give it one
    with, at each rank, every held card of S (at most w of them; more number cards only free wilds):
    at least one card at ``lo``, and the highest wilds fill the missing slots (section 4.1 caps). Only
    suit sets of held suits are tried (all held suits when fewer than w are held): swapping a suit
    without cards for a held one never loses a card."""
    suit_bits = [0] * (MAX_RANK + 1)
    for r, cs in by_rank.items():
        for c in cs:
            suit_bits[r] |= 1 << suit_of(c)
    held = 0
    for b in suit_bits:
        held |= b
    wild_ranks = sorted(rank_of(c) for c in wilds)
    nw = len(wild_ranks)
    n_held = _POPCOUNT[held]
    out = []
    widths = range(1, MAX_WIDTH + 1) if width is None else (width,)
    for w in widths:
        min_len = min_length(w)
        if n_held >= w:
            suit_sets = [ss for ss in _SUIT_SETS[w] if ss & held == ss]
        else:
            suit_sets = [held]
        found = [set() for _ in range(MAX_RANK + 1)]  # per lowest rank, the lengths found
        for sset in suit_sets:
            miss = [w - _POPCOUNT[b & sset] for b in suit_bits]
            for lo in range(MIN_RANK, MAX_NUMBER_RANK + 1):
                if miss[lo] == w:
                    continue
                slots: list[int] = []
                for top in range(lo, MAX_RANK + 1):
                    m = miss[top]
                    if m:
                        if len(slots) + m > nw:
                            break
                        slots += [top] * m
                    L = top - lo + 1
                    if L >= min_len and top > above and (length is None or L == length) \
                            and L not in found[lo] and wilds_fit(wild_ranks[nw - len(slots):], slots):
                        found[lo].add(L)
        for lo in range(MIN_RANK, MAX_NUMBER_RANK + 1):
            out += [Combo(SEQ, w, L, lo + L - 1) for L in sorted(found[lo])]
    return out


def _bomb_values(by_rank, wilds) -> list[int]:
    """The values of the bombs :func:`bomb_plays` finds (each once, ascending), from the suits held."""
    faces = {rank_of(c) for c in wilds}
    values = [v for ranks, v in _FACE_BOMBS.items() if all(r in faces for r in ranks)]
    odd = [{suit_of(c) for c in by_rank[r]} for r in ODD_RANKS]
    if all(odd):
        if any(len({a, b, c, d}) == 4 for a in odd[0] for b in odd[1] for c in odd[2] for d in odd[3]):
            values.append(BOMB_RAINBOW)
        if odd[0] & odd[1] & odd[2] & odd[3]:
            values.append(BOMB_SUITED)
    return sorted(values)


def turn_combos(hand, top: Combo | None) -> list[Combo]:
    """The distinct combos of :func:`turn_plays_with_combos` (PASS left out), in the order of their first
    play there, found without listing every play: sets and bombs from counts, sequences by
    :func:`_seq_combos`."""
    by_rank, wilds = _split(hand)
    nw = len(wilds)
    found: list[Combo] = []
    if top is None or top.kind == SET:
        size = None if top is None else top.a
        above = 0 if top is None else top.value
        for r in range(max(MIN_RANK, above + 1), MAX_NUMBER_RANK + 1):
            k = len(by_rank[r])
            if k:
                for n in (range(1, k + nw + 1) if size is None else (size,) if size <= k + nw else ()):
                    found.append(Combo(SET, n, 0, r))
        if size in (None, 1):
            for w in wilds:
                if rank_of(w) > above:
                    found.append(Combo(SET, 1, 0, rank_of(w)))
    if top is None:
        found += _seq_combos(by_rank, wilds)
    elif top.kind == SEQ:
        found += _seq_combos(by_rank, wilds, top.a, top.b, top.value)
    bomb_above = top.value if top is not None and top.kind == BOMB else 0
    found += [Combo(BOMB, 0, 0, v) for v in _bomb_values(by_rank, wilds) if v > bomb_above]
    found.sort(key=lambda c: (1, c.a, c.value) if c.kind == SET else (2, c.a, c.b, c.value) if c.kind == SEQ
               else (3, c.value))
    return found


def combo_plays(hand, combo: Combo) -> list[tuple[HaggisPlay, Combo]]:
    """The plays of ``hand`` whose combo is ``combo``, in the order of :func:`turn_plays_with_combos`
    (the same list as filtering that one, without listing the other plays)."""
    if combo.kind == SET:
        found = set_plays(hand, size=combo.a, above=combo.value - 1, value_only=combo.value)
    elif combo.kind == SEQ:
        found = seq_plays(hand, width=combo.a, length=combo.b, above=combo.value - 1,
                          lo_only=combo.value - combo.b + 1)
    else:
        found = [pc for pc in bomb_plays(hand, above=combo.value - 1) if pc[1] == combo]
    found.sort(key=lambda pc: play_order_key(*pc))
    return found


def turn_plays(hand, top: Combo | None) -> list[HaggisPlay]:
    """Every legal play of a turn with ``hand`` (card ids) on the trick's last combination ``top``
    (``None``: leading, no pass), in the documented order (module docstring)."""
    return [p for p, _ in turn_plays_with_combos(hand, top)]
