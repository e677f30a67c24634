"""The readable pure-Python legal-play generator, kept as a test reference (rules sections 3, 4 and 6).

The product uses the compiled generator of :mod:`seers_env.engine.core` (through
:mod:`seers_env.moves`); ``tests/test_compiled_moves.py`` checks that both give the same lists, in the
same order, over many random states. This file is the generator the engine used before it was compiled.

:func:`legal_plays` lists every distinct legal play (one representative per play identity, see
:data:`seers_env.rulings.PLAY_IDENTITY`) for a hand and a trick. The order is stable and documented:

1. ``PASS``, when passing is allowed;
2. melds without an artifact: Singles and Matching Sets by value (2..13), then by suit subset
   (bitmask order of the suits held at that value), then by number of wilds; then Suited Runs by suit,
   length, lowest value and wild positions;
3. for each artifact kind held, in registry order: the melds of step 2 with the artifact riding along or
   declared unused, then the melds its effect makes (:data:`EFFECTS`);
4. artifact actions: the highest Single, the Rod of Reincarnation, the Gift of Fate (targets by seat).

Only melds that may be played on ``top`` are listed (:func:`seers_env.melds.beats`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from seers_env.engine.artifacts import ARTIFACT_KINDS, GIFT, HALF_STEP, HIGHEST_SINGLE, ROD
from seers_env.engine.cards import FIRST_ARTIFACT, MAX_VALUE, MIN_VALUE, N_SUITED, N_SUITS, N_VALUES, WILD
from seers_env.engine.plays import MeldType, Play, PlayKind, gift_play, highest_single_play, rod_play
from seers_env.engine.rulings import HIGHEST_SINGLE_RANK

MELD = int(PlayKind.MELD)
_new = tuple.__new__  # builds a Play without NamedTuple's keyword handling (hot path)
SINGLE = int(MeldType.SINGLE)
SET = int(MeldType.SET)
RUN = int(MeldType.RUN)

# A base meld: (meld_type, size, rank, suited, wilds, run_suit, wild_values)
BaseMeld = tuple[int, int, int, tuple[int, ...], int, int, tuple[int, ...]]


class HandIndex:
    """Per-hand lookup tables used by the generators.

    Attributes:
        suited: sorted suited card ids.
        wilds: number of wilds.
        kinds: sorted distinct artifact kind indices held.
        value_suits: ``value_suits[v]`` is the bitmask of suits held at value ``v`` (index 0..13).
        suit_values: ``suit_values[s]`` is the bitmask (bit ``v``) of values held in suit ``s``.
    """

    __slots__ = ("suited", "wilds", "kinds", "value_suits", "suit_values")

    def __init__(self, hand: Sequence[int]):
        self.suited = [c for c in hand if c < N_SUITED]
        self.wilds = hand.count(WILD) if isinstance(hand, list) else sum(1 for c in hand if c == WILD)
        self.kinds = sorted({c - FIRST_ARTIFACT for c in hand if c >= FIRST_ARTIFACT})
        self.value_suits = [0] * (MAX_VALUE + 1)
        self.suit_values = [0] * N_SUITS
        for c in self.suited:
            s, v = divmod(c, N_VALUES)
            v += MIN_VALUE
            self.value_suits[v] |= 1 << s
            self.suit_values[s] |= 1 << v


def _card(suit: int, value: int) -> int:
    return suit * N_VALUES + value - MIN_VALUE


#: ``BITS[mask]``: the set bit positions of a 14-bit mask, ascending (values of a value mask).
BITS: list[tuple[int, ...]] = [tuple(b for b in range(MAX_VALUE + 1) if m >> b & 1) for m in range(1 << 14)]
#: ``SUBMASKS[mask]``: every submask of a 5-bit suit mask, ascending.
SUBMASKS: list[list[int]] = [[m for m in range(32) if m & ~mask == 0] for mask in range(32)]
#: ``GROUP_CARDS[v][suit_mask]``: sorted card ids of value ``v`` in the suits of ``suit_mask``.
GROUP_CARDS: list[list[tuple[int, ...]]] = [
    [tuple(_card(s, v) for s in range(N_SUITS) if m >> s & 1) if v >= MIN_VALUE else () for m in range(32)]
    for v in range(MAX_VALUE + 1)
]
#: ``WINDOWS[size]``: ``(lo, hi, value_mask)`` of every run window of that size, lowest first.
WINDOWS: list[list[tuple[int, int, int]]] = [
    [(lo, lo + size - 1, ((1 << size) - 1) << lo) for lo in range(MIN_VALUE, MAX_VALUE - size + 2)]
    for size in range(N_VALUES + 1)
]


def _sizes(top: tuple[int, int, int] | None, meld_type: int, max_size: int) -> range:
    """Meld sizes to generate for ``meld_type`` on ``top`` (empty when the type cannot follow)."""
    if top is None:
        return range(1 if meld_type != RUN else 2, max_size + 1)
    if top[0] != meld_type:
        return range(0)
    return range(top[1], top[1] + 1)


# --- value groups: Singles and Matching Sets ------------------------------------------------------


#: Memo tables of :func:`_groups` and :func:`_runs`: their results depend only on a few small ints, and a
#: hand changes by one play at a time, so most calls repeat. Cleared when they grow past this size.
_CACHE_LIMIT = 40_000  # about 40 MB per table
_GROUPS_CACHE: dict[tuple, tuple] = {}
_RUNS_CACHE: dict[tuple, tuple] = {}


def _groups(
    idx: HandIndex, top, value: int, forced: int = -1
) -> tuple[tuple[int, int, tuple[int, ...], int], ...]:
    """Singles/Sets of one value: ``(meld_type, size, suited, wilds)`` for each (memoised).

    ``forced`` is a suited card (of another value) that must be in the meld, counting as ``value``.
    """
    suit_mask = idx.value_suits[value]
    key = (value, suit_mask, idx.wilds, forced, None if top is None else (top[0], top[1]))
    hit = _GROUPS_CACHE.get(key)
    if hit is None:
        if len(_GROUPS_CACHE) >= _CACHE_LIMIT:
            _GROUPS_CACHE.clear()
        hit = _GROUPS_CACHE[key] = tuple(_enumerate_groups(suit_mask, idx.wilds, top, value, forced))
    return hit


def _enumerate_groups(suit_mask: int, W: int, top, value: int, forced: int):
    n_forced = 1 if forced >= 0 else 0
    if top is None:
        lo_size, hi_size = 1, 5 + W + n_forced
    else:
        lo_size = hi_size = top[1]
        if (top[0] == SINGLE) != (lo_size == 1) or top[0] == RUN:
            return
    cards_of = GROUP_CARDS[value]
    for sub in SUBMASKS[suit_mask]:
        cards = cards_of[sub]
        base = len(cards) + n_forced
        if base > hi_size or base + W < lo_size:
            continue
        if forced >= 0:
            cards = tuple(sorted(cards + (forced,)))
        for w in range(max(0, lo_size - base), min(W, hi_size - base) + 1):
            size = base + w
            if size:
                yield (SINGLE if size == 1 else SET), size, cards, w


# --- Suited Runs ----------------------------------------------------------------------------------


def _runs(
    idx: HandIndex, top, naturals: int, forced_value: int = -1
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """Suited Runs of one suit: ``(size, top_value, natural_values_used, wild_values)`` for each (memoised).

    ``naturals`` is the value bitmask of the cards that may be played as themselves; ``forced_value`` is
    a position that an artifact-modified card fills (in neither tuple).
    """
    if top is not None and top[0] != RUN:
        return ()
    key = (naturals, idx.wilds, forced_value, 0 if top is None else top[1])
    hit = _RUNS_CACHE.get(key)
    if hit is None:
        if len(_RUNS_CACHE) >= _CACHE_LIMIT:
            _RUNS_CACHE.clear()
        hit = _RUNS_CACHE[key] = tuple(_enumerate_runs(idx.wilds, top, naturals, forced_value))
    return hit


def _enumerate_runs(W: int, top, naturals: int, forced_value: int):
    fbit = 1 << forced_value if forced_value >= 0 else 0
    naturals &= ~fbit
    n_nat = naturals.bit_count()
    need_extra = 1 if fbit else 0
    for size in _sizes(top, RUN, N_VALUES):
        if size - need_extra > n_nat + W:
            continue
        for lo, hi, wmask in WINDOWS[size]:
            if fbit and not wmask & fbit:
                continue
            present = naturals & wmask
            missing = wmask & ~present & ~fbit
            n_missing = missing.bit_count()
            if n_missing > W:
                continue
            spare = W - n_missing
            present_values = BITS[present]
            if spare == 0 or not present:
                yield size, hi, present_values, BITS[missing]
                continue
            for k in range(min(spare, len(present_values)) + 1):
                for replaced in combinations(present_values, k):
                    rmask = 0
                    for x in replaced:
                        rmask |= 1 << x
                    yield size, hi, BITS[present & ~rmask], BITS[missing | rmask]


def _base_melds(idx: HandIndex, top, min_rank: int) -> list[BaseMeld]:
    """Every meld without an artifact whose rank is above ``min_rank`` (type/size fitting ``top``)."""
    out: list[BaseMeld] = []
    for v in range(max(MIN_VALUE, min_rank // 2 + 1), MAX_VALUE + 1):
        for mt, size, cards, w in _groups(idx, top, v):
            out.append((mt, size, 2 * v, cards, w, -1, (v,) * w))
    if top is not None and top[0] != RUN:
        return out
    for s in range(N_SUITS):
        naturals = idx.suit_values[s]
        if not naturals and s != 0:  # all-wild runs are generated once, in suit 0
            continue
        for size, hi, used, wild_values in _runs(idx, top, naturals):
            if 2 * hi <= min_rank:
                continue
            if not used and s != 0:
                continue
            out.append((RUN, size, 2 * hi, tuple(_card(s, x) for x in used), len(wild_values), s, wild_values))
    return out


# --- artifact effects -----------------------------------------------------------------------------

EffectFn = Callable[[HandIndex, object, int, int], Iterator[Play]]


def _shift_value(idx: HandIndex, top, kind: int, min_rank: int) -> Iterator[Play]:
    """Cauldron of Sorcery: one suited card counts as value +1 or -1 (within 2..13)."""
    for c in idx.suited:
        s, a = divmod(c, N_VALUES)
        a += MIN_VALUE
        for delta in (-1, 1):
            v = a + delta
            if not MIN_VALUE <= v <= MAX_VALUE:
                continue
            if 2 * v > min_rank:
                for mt, size, cards, w in _groups(idx, top, v, forced=c):
                    yield _new(Play, (MELD, mt, size, 2 * v, cards, w, kind, -1, -1, 1, c, delta, (v,) * w))
            if top is not None and top[0] != RUN:
                continue
            naturals = idx.suit_values[s] & ~(1 << a)
            for size, hi, used, wild_values in _runs(idx, top, naturals, forced_value=v):
                if 2 * hi > min_rank:
                    cards = tuple(sorted([_card(s, x) for x in used] + [c]))
                    yield _new(Play, (MELD, RUN, size, 2 * hi, cards, len(wild_values), kind, -1, s, 1, c,
                                      delta, wild_values))


def _change_suit(idx: HandIndex, top, kind: int, min_rank: int) -> Iterator[Play]:
    """Suit-change artifact: one suited card counts as another suit (only Runs differ from discarding)."""
    if top is not None and top[0] != RUN:
        return
    W = idx.wilds
    for c in idx.suited:
        s0, a = divmod(c, N_VALUES)
        a += MIN_VALUE
        # a run of this card with wilds only equals discarding the artifact: it needs a natural of the
        # new suit within reach (at most W wilds between them)
        reach = (((1 << (2 * W + 3)) - 1) << (a - W - 1) if a > W else (1 << (a + W + 2)) - 1) & ~(1 << a)
        for s1 in range(N_SUITS):
            if s1 == s0 or not idx.suit_values[s1] & reach:
                continue
            naturals = idx.suit_values[s1]
            for size, hi, used, wild_values in _runs(idx, top, naturals, forced_value=a):
                if 2 * hi > min_rank:
                    cards = tuple(sorted([_card(s1, x) for x in used] + [c]))
                    yield _new(Play, (MELD, RUN, size, 2 * hi, cards, len(wild_values), kind, -1, s1, 1, c,
                                      s1, wild_values))


def _no_effect(idx: HandIndex, top, kind: int, min_rank: int) -> Iterator[Play]:
    return iter(())


#: Effect generators by the ``effect`` name of :class:`~seers_env.artifacts.ArtifactKind` (melds that
#: need the effect; riding along / declared unused is handled for every kind). Half step, highest single,
#: Rod and Gift are generated in :func:`legal_plays` since they reuse the base melds or stand alone.
EFFECTS: dict[str, EffectFn] = {
    "none": _no_effect,
    "shift_value": _shift_value,
    "change_suit": _change_suit,
    "half_step": _no_effect,
    "highest": _no_effect,
    "take_trick": _no_effect,
    "pass_lead": _no_effect,
}


def legal_melds(hand: Sequence[int], top: tuple[int, int, int] | None) -> list[Play]:
    """Every distinct meld (artifact actions excluded) that ``hand`` may play on ``top``.

    Args:
        hand: card ids (see :mod:`seers_env.cards`).
        top: ``(meld_type, size, rank)`` of the meld to beat, or ``None`` when leading.

    Returns:
        Plays of kind ``MELD``, in the order described in the module docstring (steps 2 and 3, plus the
        highest Single).
    """
    idx = HandIndex(hand)
    return _melds(idx, top)


def _melds(idx: HandIndex, top) -> list[Play]:
    if top is not None and top[2] >= HIGHEST_SINGLE_RANK:
        return []
    min_rank = top[2] if top is not None else 0
    has_half = HALF_STEP in idx.kinds
    base = _base_melds(idx, top, min_rank - 1 if has_half else min_rank)
    out = [
        _new(Play, (MELD, mt, size, rank, cards, w, -1, -1, rs, 0, -1, 0, wv))
        for mt, size, rank, cards, w, rs, wv in base
        if rank > min_rank
    ]
    for kind in idx.kinds:
        spec = ARTIFACT_KINDS[kind]
        # every kind may ride along / be declared unused with a meld (section 6)
        carried = [
            _new(Play, (MELD, mt, size, rank, cards, w, kind, -1, rs, 0, -1, 0, wv))
            for mt, size, rank, cards, w, rs, wv in base
            if rank > min_rank
        ]
        out += carried
        if kind == HALF_STEP:
            seen_half: set[tuple] = set()  # e.g. wild as 2 +1/2 == wild as 3 -1/2: one play (identity)
            for mt, size, rank, cards, w, rs, wv in base:
                for step in (1, -1):
                    key = (mt, size, rank + step, cards, w)
                    if rank + step > min_rank and key not in seen_half:
                        seen_half.add(key)
                        out.append(_new(Play, (MELD, mt, size, rank + step, cards, w, kind, -1, rs, 1, -1,
                                               step, wv)))
            continue
        effect = EFFECTS[spec.effect]
        if effect is _no_effect:
            continue
        seen = {p[:8] for p in carried}
        for play in effect(idx, top, kind, min_rank):
            key = play[:8]
            if key not in seen:
                seen.add(key)
                out.append(play)
    if HIGHEST_SINGLE in idx.kinds and (top is None or top[0] == SINGLE):
        out.append(highest_single_play())
    return out


def legal_plays(
    hand: Sequence[int],
    top: tuple[int, int, int] | None,
    *,
    seat: int,
    n_players: int,
    in_bonus: bool,
) -> list[Play]:
    """Every distinct legal play for ``seat`` holding ``hand``, in the documented order.

    Args:
        hand: card ids of the player to act.
        top: ``(meld_type, size, rank)`` of the trick's top meld, or ``None`` when this player leads.
        seat: the player's seat (0-based), for Gift of Fate targets.
        n_players: number of players (2..5).
        in_bonus: whether the player holds 5 or fewer cards (section 4).

    Returns:
        A list of :class:`~seers_env.plays.Play`. Leading: melds, then Gift of Fate targets; ``PASS`` only
        when there is no opening meld (section 3; project ruling
        :data:`~seers_env.rulings.START_SEER_MUST_LEAD_WHEN_ABLE`). Following: ``PASS`` unless the player
        is in the Bonus and has a meld (section 4), melds that beat ``top``, then the Rod.
    """
    idx = HandIndex(hand)
    melds = _melds(idx, top)
    out: list[Play] = []
    if top is None:
        if not melds:
            out.append(Play(PlayKind.PASS))
        out += melds
        if GIFT in idx.kinds:
            out += [gift_play(t) for t in range(n_players) if t != seat]
    else:
        if not (in_bonus and melds):
            out.append(Play(PlayKind.PASS))
        out += melds
        if ROD in idx.kinds:
            out.append(rod_play())
    return out
