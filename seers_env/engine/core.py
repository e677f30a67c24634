"""The compiled core of legal-play generation (rules sections 3, 4 and 6), on compact array state.

A hand is read into per-suit value bitmasks (bit ``v`` of ``suit_values[s]`` for the suited card of suit
``s`` and value ``v``), per-value suit bitmasks, a wild count and the sorted artifact kinds held. Every
play is produced as one ``int64`` *play key* that packs all 13 fields of :class:`~seers_env.plays.Play`
(layout below); :mod:`seers_env.moves` turns keys into (interned) ``Play`` objects. The functions here are
compiled with numba (``cache=True`` through :func:`seers_env.engine.jit.njit`: compiled once per version of
the compiled sources, then loaded from numba's cache).

The order and the identity rule (one representative per play identity, rules section 3 [ruling]) are the
ones documented in :mod:`seers_env.moves`; ``tests/moves_python.py`` keeps the readable pure-Python
generator, and the tests check that both give the same lists.

Play key layout (bit offsets; a field stored ``+1`` holds ``-1`` as 0):

========  =====  ==========================================================================
bits      width  field
========  =====  ==========================================================================
0-1       2      meld_type
2-5       4      size
6-12      7      rank (half steps)
13-15     3      wilds
16-18     3      artifact + 1
19-21     3      run_suit + 1
22        1      effect_used
23-29     7      modified_card + 1
30-32     3      modifier + 1
33-44     12     natural cards: a group's suit mask (Yellow = bit 0), or a run's value mask
                 in ``run_suit`` (bit ``v - 2``); the modified card is not in it
45-56     12     a group's counting value ``v`` (its wilds stand for ``v``), or a run's
                 wild value mask (bit ``v - 2``)
57-58     2      kind
59-61     3      target + 1
========  =====  ==========================================================================
"""

from __future__ import annotations

import numpy as np

from .artifacts import ARTIFACT_KINDS, CAULDRON, GIFT, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from .cards import FIRST_ARTIFACT, MAX_VALUE, MIN_VALUE, N_SUITED, N_SUITS, N_VALUES, WILD
from .jit import njit
from .rulings import HIGHEST_SINGLE_RANK

N_KINDS = len(ARTIFACT_KINDS)
SINGLE, SET, RUN = 1, 2, 3
PASS_KIND, MELD_KIND, ROD_KIND, GIFT_KIND = 0, 1, 2, 3

# effect code of each kind: 0 none (rides along only), 1 shift value (Cauldron), 2 change suit
_EFFECT_CODES = {"shift_value": 1, "change_suit": 2}
KIND_EFFECT = np.array([_EFFECT_CODES.get(k.effect, 0) for k in ARTIFACT_KINDS], dtype=np.int64)

assert FIRST_ARTIFACT == WILD + 1 and N_SUITED == WILD and N_SUITS == 5 and N_VALUES == 12
assert MIN_VALUE == 2 and MAX_VALUE == 13 and N_KINDS <= 7 and HIGHEST_SINGLE_RANK < 128


@njit(cache=True, inline="always")
def pack(kind, meld_type, size, rank, wilds, artifact, target, run_suit, effect_used, modified_card,
         modifier, naturals, extra):
    """One play key from its fields (see the module table)."""
    return (meld_type | size << 2 | rank << 6 | wilds << 13 | (artifact + 1) << 16 | (run_suit + 1) << 19
            | effect_used << 22 | (modified_card + 1) << 23 | (modifier + 1) << 30 | naturals << 33
            | extra << 45 | kind << 57 | (target + 1) << 59)


#: Lookup tables of :func:`unpack`: card tuples of a run (by suit and value mask, bit ``v - 2``), wild
#: values of a run (by value mask) and card tuples of a group (by value and suit mask).
_RUN_CARDS = [[tuple(s * N_VALUES + b for b in range(N_VALUES) if m >> b & 1) for m in range(1 << N_VALUES)]
              for s in range(N_SUITS)]
_RUN_WILDS = [tuple(b + MIN_VALUE for b in range(N_VALUES) if m >> b & 1) for m in range(1 << N_VALUES)]
_GROUP_CARDS = [[tuple(s * N_VALUES + v - MIN_VALUE for s in range(N_SUITS) if m >> s & 1) for m in range(32)]
                if v >= MIN_VALUE else [] for v in range(MAX_VALUE + 1)]


def unpack(key: int) -> tuple:
    """The 13 :class:`~seers_env.plays.Play` fields of a play key (plain Python, used on a cache miss)."""
    meld_type = key & 3
    wilds = key >> 13 & 7
    modified = (key >> 23 & 127) - 1
    naturals = key >> 33 & 4095
    extra = key >> 45 & 4095
    run_suit = (key >> 19 & 7) - 1
    if meld_type == RUN:
        cards = _RUN_CARDS[run_suit][naturals]
        wild_values = _RUN_WILDS[extra]
    elif meld_type:
        cards = _GROUP_CARDS[extra][naturals] if extra else ()
        wild_values = (extra,) * wilds
    else:
        cards, wild_values = (), ()
    if modified >= 0:
        cards = tuple(sorted(cards + (modified,)))
    return (key >> 57 & 3, meld_type, key >> 2 & 15, key >> 6 & 127, cards, wilds, (key >> 16 & 7) - 1,
            (key >> 59 & 7) - 1, run_suit, key >> 22 & 1, modified, (key >> 30 & 7) - 1, wild_values)


def repack(fields) -> int:
    """The play key of a play's 13 :class:`~seers_env.plays.Play` fields (a ``Play`` itself will do): the
    inverse of :func:`unpack` (plain Python), for plays logged by a :class:`~seers_env.game.Game`.

    Raises:
        ValueError: the fields are not a play of the engine's (e.g. a modified card missing from the cards).
    """
    (kind, meld_type, size, rank, cards, wilds, artifact, target, run_suit, effect_used, modified, modifier,
     wild_values) = fields
    rest = list(cards)
    if modified >= 0:
        if modified not in rest:
            raise ValueError(f"modified card {modified} is not among the play's cards {list(cards)}")
        rest.remove(modified)
    naturals = extra = 0
    if meld_type == RUN:  # naturals: the value bits in run_suit; extra: the wilds' value bits
        for c in rest:
            naturals |= 1 << c % N_VALUES
        for v in wild_values:
            extra |= 1 << v - MIN_VALUE
    elif meld_type:  # a group: naturals the suit bits, extra the value the group counts as
        for c in rest:
            naturals |= 1 << c // N_VALUES
        if rest:
            extra = rest[0] % N_VALUES + MIN_VALUE
        elif wild_values:
            extra = wild_values[0]
        elif modified >= 0:  # a Cauldron Single: the card counted as its value +/- 1
            extra = modified % N_VALUES + MIN_VALUE + modifier
    return (meld_type | size << 2 | rank << 6 | wilds << 13 | (artifact + 1) << 16 | (run_suit + 1) << 19
            | effect_used << 22 | (modified + 1) << 23 | (modifier + 1) << 30 | naturals << 33 | extra << 45
            | kind << 57 | (target + 1) << 59)


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _groups(suit_mask, W, top_type, top_size, forced, out):
    """Singles/Sets of one value (moves order): rows ``(size, submask, wilds)`` into ``out``; the count.

    ``forced >= 0``: one more card (another value's, changed by the Cauldron) is in every meld.
    """
    n_forced = 1 if forced >= 0 else 0
    if top_type == 0:
        lo_size, hi_size = 1, 5 + W + n_forced
    else:
        lo_size = hi_size = top_size
        if top_type == RUN or (top_type == SINGLE) != (lo_size == 1):
            return 0
    n = 0
    sub = 0
    while True:  # the submasks of suit_mask in increasing order
        base = _popcount(sub) + n_forced
        if base <= hi_size and base + W >= lo_size:
            for w in range(max(0, lo_size - base), min(W, hi_size - base) + 1):
                size = base + w
                if size:
                    out[n, 0] = size
                    out[n, 1] = sub
                    out[n, 2] = w
                    n += 1
        if sub == suit_mask:
            return n
        sub = ((sub | ~suit_mask) + 1) & suit_mask


@njit(cache=True)
def _runs(W, top_type, top_size, naturals, forced_value, out, vals, idx):
    """Suited Runs of one suit (moves order): rows ``(size, hi, used_mask, wild_mask)`` (value bits ``v``).

    ``naturals``: values that may be played as themselves; ``forced_value``: a position filled by an
    artifact-changed card (in neither mask), or -1; ``vals``, ``idx``: scratch arrays of 12. Returns the
    row count; rows beyond ``out``'s length are counted but not written (the caller retries with more
    room: an array that grows here would cost an allocation check and reference counting per row).
    """
    n = 0
    cap = out.shape[0]
    if top_type != 0 and top_type != RUN:
        return 0
    fbit = (1 << forced_value) if forced_value >= 0 else 0
    naturals &= ~fbit
    n_nat = _popcount(naturals)
    need_extra = 1 if fbit else 0
    if top_type == 0:
        size_lo, size_hi = 2, N_VALUES
    else:
        size_lo = size_hi = top_size
    for size in range(size_lo, size_hi + 1):
        if size - need_extra > n_nat + W:
            break  # not enough cards for this size, so for any longer one
        lo_first, lo_last = MIN_VALUE, MAX_VALUE - size + 1
        if fbit:  # only the windows with the forced position
            lo_first = max(lo_first, forced_value - size + 1)
            lo_last = min(lo_last, forced_value)
        fits = False
        for lo in range(lo_first, lo_last + 1):
            hi = lo + size - 1
            wmask = ((1 << size) - 1) << lo
            present = naturals & wmask
            missing = wmask & ~present & ~fbit
            n_missing = _popcount(missing)
            if n_missing > W:
                continue
            fits = True
            spare = W - n_missing
            if spare == 0 or not present:
                if n < cap:
                    out[n, 0] = size
                    out[n, 1] = hi
                    out[n, 2] = present
                    out[n, 3] = missing
                n += 1
                continue
            m = 0
            for b in range(MAX_VALUE + 1):
                if present >> b & 1:
                    vals[m] = b
                    m += 1
            for k in range(min(spare, m) + 1):
                # combinations of k of the m present values, lexicographic (itertools order)
                for i in range(k):
                    idx[i] = i
                while True:
                    rmask = 0
                    for i in range(k):
                        rmask |= 1 << vals[idx[i]]
                    if n < cap:
                        out[n, 0] = size
                        out[n, 1] = hi
                        out[n, 2] = present & ~rmask
                        out[n, 3] = missing | rmask
                    n += 1
                    i = k - 1
                    while i >= 0 and idx[i] == m - k + i:
                        i -= 1
                    if i < 0:
                        break
                    idx[i] += 1
                    for j in range(i + 1, k):
                        idx[j] = idx[j - 1] + 1
        if not fits:
            # a longer window (with the forced position) holds one of this size, so misses as many
            break
    return n


@njit(cache=True, inline="always")
def _value_bits_to_cards(suit, mask):
    """Bitmask of card ids (bit ``card``) of suit ``suit`` at the values in ``mask`` (bit ``v``)."""
    return (mask >> MIN_VALUE) << (suit * N_VALUES)


@njit(cache=True)
def melds_keys(hand, top_type, top_size, top_rank):
    """Play keys of every distinct meld of ``hand`` on the top ``(top_type, size, rank)`` (type 0: leading).

    Args:
        hand: int64 array of card ids (any order; suited ids are unique).

    Returns:
        int64 array of play keys in the documented order of :func:`seers_env.moves.legal_melds`.
    """
    return _melds_keys(hand, top_type, top_size, top_rank, True)[0]


@njit(cache=True)
def melds_keys_folded(hand, top_type, top_size, top_rank):
    """:func:`melds_keys` with the ride-along copies folded: ``(keys, ride)``, where ``keys`` (int64) are
    the melds of :func:`melds_keys` whose artifact is not carried unused (same relative order) and ``ride``
    is the bitmask of the artifact kinds held (bit ``k``: kind index ``k``, registry order).

    The full list is ``keys`` plus, for each base meld key ``b`` of ``keys`` (artifact -1) and each kind
    ``k`` in ``ride``, ``b | (k + 1) << 16`` (the meld with artifact ``k`` riding along, declared unused,
    rules section 6): every held artifact rides along on every base meld that beats the top. The batch
    API lists a decision this way and unfolds only the plays of the chosen code
    (:mod:`seers_env.vector_core`)."""
    return _melds_keys(hand, top_type, top_size, top_rank, False)


@njit(cache=True)
def _melds_keys(hand, top_type, top_size, top_rank, ride_along):
    """:func:`melds_keys` (``ride_along`` true: the ride-along copies listed) or :func:`melds_keys_folded`
    (false: left out); returns ``(int64 keys, int bitmask of the kinds held)``.

    :func:`_melds_into` fills fixed-size scratch arrays (arrays that grow cost an allocation check and
    reference counting at every push); when one is too small it reports it, and the hand is listed
    again with four times the room."""
    if top_type != 0 and top_rank >= HIGHEST_SINGLE_RANK:
        return np.empty(0, np.int64), 0
    cap = 256
    while True:
        work = np.empty(_work_size(cap) + hand.shape[0], np.int64)
        nk, ride = _melds_into(hand, top_type, top_size, top_rank, ride_along, work, cap)
        if nk >= 0:
            return work[:nk], ride  # the keys are listed at the start of work
        cap *= 4


@njit(cache=True, inline="always")
def _work_size(cap):
    """int64 entries of :func:`_melds_into`'s scratch for ``cap`` (the hand's suited cards go after)."""
    return 3 * cap + 3 * 256 + 4 * cap + 2 * N_VALUES + N_SUITS + MAX_VALUE + 2 + N_KINDS + 2 * 4 * cap


@njit(cache=True, inline="always")
def _put(out, n, key):
    """``out[n] = key`` when there is room; returns ``n + 1`` (a count past ``len(out)``: out of room)."""
    if n < out.shape[0]:
        out[n] = key
    return n + 1


@njit(cache=True, inline="always")
def _ident_slot(tab, a, b):
    """Slot of identity ``(a, b)`` (``a > 0``) in the open-addressing table ``tab`` (int64 ``(slots, 2)``,
    ``slots`` a power of two, column 0 zero where free): where it is, or the free slot where it would go."""
    mask = tab.shape[0] - 1
    x = b ^ (b >> 29) ^ a ^ (a << 43)  # fold the card bits above 40 into the low ones
    y = (x ^ (x >> 28) ^ (x >> 56)) & 0xFFFFFFF  # 28 bits, so the product below stays under 2**63
    j = ((y * 2654435761) >> 20) & mask  # multiplicative hashing (Knuth), without overflow (also uncompiled)
    while tab[j, 0] != 0 and (tab[j, 0] != a or tab[j, 1] != b):
        j = (j + 1) & mask
    return j


@njit(cache=True, inline="always")
def _ident_add(tab, ident, cards):
    """Add a play identity to the set ``tab`` (:func:`_ident_slot`; the caller keeps it at most half
    full): 1 when it was new, 0 when it was there (a Python ``set`` of identity tuples, without hashing
    tuples). ``ident``: type, size and rank bits (``key & 8191``) and the wilds ``<< 13``; ``cards``: the
    suited cards' bitmask."""
    a = ident + 1  # 0 marks a free slot
    j = _ident_slot(tab, a, cards)
    if tab[j, 0] != 0:
        return 0
    tab[j, 0] = a
    tab[j, 1] = cards
    return 1


@njit(cache=True)
def _melds_into(hand, top_type, top_size, top_rank, ride_along, work, cap):
    """The body of :func:`_melds_keys` on the scratch ``work`` (:func:`_work_size` of ``cap`` plus the
    hand's length): ``(count, ride)`` with the keys in ``work[:count]``, or ``(-1, 0)`` when more than
    ``cap`` keys, base melds or run rows (or ``2 * cap`` identities of a kind) do not fit."""
    buf = work[:cap]
    nk = 0
    at = cap
    bkeys = work[at:at + cap]
    at += cap
    bcards = work[at:at + cap]  # suited card bitmask (bit = card id)
    at += cap
    gout = work[at:at + 3 * 256].reshape((256, 3))  # at most 32 suit masks x 8 wild counts
    at += 3 * 256
    rout = work[at:at + 4 * cap].reshape((cap, 4))
    at += 4 * cap
    vals = work[at:at + N_VALUES]  # scratch of _runs
    at += N_VALUES
    idx = work[at:at + N_VALUES]
    at += N_VALUES
    tab = work[at:at + 2 * 4 * cap].reshape((4 * cap, 2))  # identities of one kind
    at += 2 * 4 * cap
    zeroed = at
    suit_values = work[at:at + N_SUITS]
    at += N_SUITS
    value_suits = work[at:at + MAX_VALUE + 2]
    at += MAX_VALUE + 2
    held = work[at:at + N_KINDS]
    at += N_KINDS
    work[zeroed:at] = 0
    suited = work[at:]
    n_suited = 0
    W = 0
    for c in hand:
        if c < 0 or c >= FIRST_ARTIFACT + N_KINDS:
            raise ValueError("a card id in the hand is outside 0..67")
        if c < N_SUITED:
            s = c // N_VALUES
            v = c % N_VALUES + MIN_VALUE
            suit_values[s] |= 1 << v
            value_suits[v] |= 1 << s
            suited[n_suited] = c  # in hand order (a Game's hands are sorted)
            n_suited += 1
        elif c == WILD:
            W += 1
        else:
            held[c - FIRST_ARTIFACT] = 1
    min_rank = top_rank if top_type != 0 else 0
    has_half = held[HALF_STEP]
    base_min = min_rank - 1 if has_half else min_rank
    runs_ok = top_type == 0 or top_type == RUN

    # --- base melds (no artifact): keys with artifact -1, plus identity parts for de-duplication ---
    nb = 0
    for v in range(max(MIN_VALUE, base_min // 2 + 1), MAX_VALUE + 1):
        ng = _groups(value_suits[v], W, top_type, top_size, -1, gout)
        for i in range(ng):
            size, sub, w = gout[i, 0], gout[i, 1], gout[i, 2]
            mt = SINGLE if size == 1 else SET
            key = pack(MELD_KIND, mt, size, 2 * v, w, -1, -1, -1, 0, -1, 0, sub, v)
            cm = 0
            for s in range(N_SUITS):
                if sub >> s & 1:
                    cm |= 1 << (s * N_VALUES + v - MIN_VALUE)
            _put(bkeys, nb, key)
            nb = _put(bcards, nb, cm)
    if runs_ok:
        for s in range(N_SUITS):
            naturals = suit_values[s]
            if not naturals and s != 0:  # all-wild runs are generated once, in suit 0
                continue
            nr = _runs(W, top_type, top_size, naturals, -1, rout, vals, idx)
            if nr > cap:
                return -1, 0
            for i in range(nr):
                size, hi, used, wild = rout[i, 0], rout[i, 1], rout[i, 2], rout[i, 3]
                if 2 * hi <= base_min:
                    continue
                if not used and s != 0:
                    continue
                key = pack(MELD_KIND, RUN, size, 2 * hi, _popcount(wild), -1, -1, s, 0, -1, 0,
                           used >> MIN_VALUE, wild >> MIN_VALUE)
                _put(bkeys, nb, key)
                nb = _put(bcards, nb, _value_bits_to_cards(s, used))
    if nb > cap:
        return -1, 0

    # --- step 2: the base melds that beat the top ---
    for i in range(nb):
        if (bkeys[i] >> 6 & 127) > min_rank:
            nk = _put(buf, nk, bkeys[i])

    # --- step 3: each artifact kind held, in registry order ---
    ride = 0
    for kind in range(N_KINDS):
        if not held[kind]:
            continue
        art_bits = (kind + 1) << 16
        effect = KIND_EFFECT[kind]
        ride |= 1 << kind
        if ride_along:
            for i in range(nb):
                bk = bkeys[i]
                if (bk >> 6 & 127) > min_rank:
                    nk = _put(buf, nk, bk | art_bits)  # rides along / declared unused
        if effect == 0 and kind != HALF_STEP:
            continue
        # Identities listed for this kind (type, size, rank, wilds; cards): a set in tab (_ident_add). Only
        # Runs and all-wild groups go in it; other Singles and Sets made with an artifact never have a
        # listed play's identity: a Cauldron group holds one card of another value than the rest (or is a
        # card counted as another value), unlike a base group; the half-step plays of two groups with
        # suited cards differ in cards or rank; and Runs have another type.
        tab[:, 0] = 0
        n_seen = 0
        if effect != 0:
            for i in range(nb):
                bk = bkeys[i]
                if bk & 3 == RUN and (bk >> 6 & 127) > min_rank:  # nb <= cap: tab at most half full
                    n_seen += _ident_add(tab, bk & 8191 | (bk >> 13 & 7) << 13, bcards[i])
        if kind == HALF_STEP:
            for i in range(nb):
                bk = bkeys[i]
                rank = bk >> 6 & 127
                for step in (1, -1):
                    r = rank + step
                    # at most 2 * nb <= 2 * cap identities in tab
                    if r > min_rank and ((bk & 3 != RUN and bcards[i] != 0)
                                         or _ident_add(tab, (bk & 63) | r << 6 | (bk >> 13 & 7) << 13, bcards[i])):
                        key = (bk & ~(127 << 6 | 7 << 30)) | r << 6 | art_bits | 1 << 22 | (step + 1) << 30
                        nk = _put(buf, nk, key)
            continue
        if effect == 1:  # Cauldron of Sorcery: one suited card counts as value +1 or -1
            for j in range(n_suited):
                c = suited[j]
                s = c // N_VALUES
                a = c % N_VALUES + MIN_VALUE
                for delta in (-1, 1):
                    v = a + delta
                    if v < MIN_VALUE or v > MAX_VALUE:
                        continue
                    if 2 * v > min_rank:
                        ng = _groups(value_suits[v], W, top_type, top_size, c, gout)
                        for i in range(ng):
                            size, sub, w = gout[i, 0], gout[i, 1], gout[i, 2]
                            mt = SINGLE if size == 1 else SET
                            # never a listed identity (see above): listed without a look-up
                            key = pack(MELD_KIND, mt, size, 2 * v, w, kind, -1, -1, 1, c, delta, sub, v)
                            nk = _put(buf, nk, key)
                    if not runs_ok:
                        continue
                    naturals = suit_values[s] & ~(1 << a)
                    nr = _runs(W, top_type, top_size, naturals, v, rout, vals, idx)
                    if nr > cap:
                        return -1, 0
                    for i in range(nr):
                        size, hi, used, wild = rout[i, 0], rout[i, 1], rout[i, 2], rout[i, 3]
                        if 2 * hi > min_rank:
                            wn = _popcount(wild)
                            key = pack(MELD_KIND, RUN, size, 2 * hi, wn, kind, -1, s, 1, c, delta,
                                       used >> MIN_VALUE, wild >> MIN_VALUE)
                            if n_seen >= 2 * cap:
                                return -1, 0
                            if _ident_add(tab, key & 8191 | wn << 13,
                                          _value_bits_to_cards(s, used) | np.int64(1) << c):
                                n_seen += 1
                                nk = _put(buf, nk, key)
        elif effect == 2 and runs_ok:  # suit change: one suited card counts as another suit (Runs)
            for j in range(n_suited):
                c = suited[j]
                s0 = c // N_VALUES
                a = c % N_VALUES + MIN_VALUE
                # a run of this card with wilds only equals discarding the artifact: it needs a natural
                # of the new suit within reach (at most W wilds between them)
                if a > W:
                    reach = ((1 << (2 * W + 3)) - 1) << (a - W - 1)
                else:
                    reach = (1 << (a + W + 2)) - 1
                reach &= ~(1 << a)
                for s1 in range(N_SUITS):
                    if s1 == s0 or not suit_values[s1] & reach:
                        continue
                    nr = _runs(W, top_type, top_size, suit_values[s1], a, rout, vals, idx)
                    if nr > cap:
                        return -1, 0
                    for i in range(nr):
                        size, hi, used, wild = rout[i, 0], rout[i, 1], rout[i, 2], rout[i, 3]
                        if 2 * hi > min_rank:
                            wn = _popcount(wild)
                            key = pack(MELD_KIND, RUN, size, 2 * hi, wn, kind, -1, s1, 1, c, s1,
                                       used >> MIN_VALUE, wild >> MIN_VALUE)
                            if n_seen >= 2 * cap:
                                return -1, 0
                            if _ident_add(tab, key & 8191 | wn << 13,
                                          _value_bits_to_cards(s1, used) | np.int64(1) << c):
                                n_seen += 1
                                nk = _put(buf, nk, key)
    if held[HIGHEST_SINGLE] and (top_type == 0 or top_type == SINGLE):
        nk = _put(buf, nk, HIGHEST_KEY)
    if nk > cap:
        return -1, 0
    return nk, ride


HIGHEST_KEY = (SINGLE | 1 << 2 | HIGHEST_SINGLE_RANK << 6 | (HIGHEST_SINGLE + 1) << 16 | 1 << 22
               | 1 << 30 | MELD_KIND << 57)
PASS_KEY = 1 << 30  # kind 0, every field at its default (modifier 0 is stored as 1)
ROD_KEY = (ROD + 1) << 16 | 1 << 22 | 1 << 30 | ROD_KIND << 57


def gift_key(target: int) -> int:
    """Play key of the Gift of Fate handing the lead to ``target``."""
    return (GIFT + 1) << 16 | 1 << 22 | 1 << 30 | GIFT_KIND << 57 | (target + 1) << 59


@njit(cache=True)
def legal_keys(hand, top_type, top_size, top_rank, seat, n_players, in_bonus):
    """Play keys of every legal play, in the documented order of :func:`seers_env.moves.legal_plays`."""
    return _legal_keys(melds_keys(hand, top_type, top_size, top_rank), hand, top_type, seat, n_players,
                       in_bonus)


@njit(cache=True)
def legal_keys_folded(hand, top_type, top_size, top_rank, seat, n_players, in_bonus):
    """:func:`legal_keys` with the ride-along copies of the melds folded (:func:`melds_keys_folded`):
    ``(keys int64, ride bitmask)``. There is a meld in ``keys`` exactly when there is one in the full
    list, so the pass and the Gift and Rod plays are the same."""
    melds, ride = melds_keys_folded(hand, top_type, top_size, top_rank)
    return _legal_keys(melds, hand, top_type, seat, n_players, in_bonus), ride


@njit(cache=True)
def _legal_keys(melds, hand, top_type, seat, n_players, in_bonus):
    """:func:`legal_keys` from the meld keys: the pass, the melds, then the Gift or the Rod plays."""
    has_rod = False
    has_gift = False
    for c in hand:
        if c == FIRST_ARTIFACT + ROD:
            has_rod = True
        elif c == FIRST_ARTIFACT + GIFT:
            has_gift = True
    n_melds = melds.shape[0]
    out = np.empty(n_melds + 1 + n_players, np.int64)
    n = 0
    if top_type == 0:
        if n_melds == 0:
            out[n] = PASS_KEY
            n += 1
        out[n:n + n_melds] = melds
        n += n_melds
        if has_gift:
            for t in range(n_players):
                if t != seat:
                    out[n] = (GIFT + 1) << 16 | 1 << 22 | 1 << 30 | GIFT_KIND << 57 | (t + 1) << 59
                    n += 1
    else:
        if not (in_bonus and n_melds):
            out[n] = PASS_KEY
            n += 1
        out[n:n + n_melds] = melds
        n += n_melds
        if has_rod:
            out[n] = ROD_KEY
            n += 1
    return out[:n]
