"""Compiled evaluation of every legal play at once: the hand each play leaves and what it is worth.

Both play-scoring consumers look at the hand a play leaves: the play rows of
:func:`seers_env.features.encode_plays` (cards, melds and plays left, wilds and artifacts kept, Bonus)
and the heuristic agent (:meth:`agents.heuristic.HeuristicAgent.scores`). This module computes those
quantities for all the plays of one position in one call, compiled with numba (``cache=True``, like
:mod:`seers_env.engine.core`), working from the engine's packed play keys, so no
:class:`~seers_env.plays.Play` object is built.

Steps (shapes and dtypes):

1. A *play table* int64 ``(P, N_COLS)`` (columns :data:`COLUMNS`), from the engine's play keys
   (:func:`table_of_keys`, on :attr:`seers_env.engine.moves.PlayList.keys`) or from ``Play`` objects
   (:func:`table_of_plays`, for plain lists). The suited cards spent are a bitmask by card id (bit ``c``).
2. :func:`hands_left` -> int64 ``(P, N_LEFT)`` (columns :data:`LEFT_COLUMNS`): the hand each play leaves
   (the hand minus the cards spent; the Rod of Reincarnation also picks up the trick's cards, rules
   section 6) summarised as counts, and the first play that spends cards the hand does not hold.
3. :func:`encode_rows` fills :func:`~seers_env.features.encode_plays`' float32 rows from the table and the
   hands left; :func:`heuristic_values` gives the heuristic agent's float64 score of each play.
   :func:`plays_rows` and :func:`heuristic_scores` do steps 2 and 3 in one call.

Fewest melds (:func:`fewest_melds_vm`, rules section 3: Singles, Matching Sets, Suited Runs of 2+ cards)
is an exact dynamic programme over the values 2..13, its state the set of suits whose Suited Run may
continue to the next value. Per value, every card of a suit whose run is open joins that run (never worse:
it costs nothing and keeps the run open), each other card either starts a run (one meld) or joins the
value's one Matching Set or Single (one meld for all of them); a run that is not continued simply ends (a
one-card run is a Single). It gives the same numbers as the memoised search it replaced
(``tests/features_python.py``; checked by ``tests/test_play_eval.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from .engine import core
from .engine.artifacts import ARTIFACT_KINDS, CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from .engine.cards import FIRST_ARTIFACT, N_SUITED, N_SUITS, N_VALUES, WILD
from .engine.jit import njit
from .engine.rulings import HIGHEST_SINGLE_RANK
from .engine.scoring import BONUS_MAX_CARDS
from .integers import is_real_number

N_KINDS = len(ARTIFACT_KINDS)
#: Columns of a play table (int64): the play's kind, meld type, size, rank (half steps), wilds spent,
#: artifact kind (-1: none), Gift target (-1: none), effect used (0/1), the suited cards spent as a
#: bitmask by card id (bit ``c``), and how many suited cards the play lists (a mismatch with the mask's
#: bit count marks a play that lists a card twice or a non-suited id).
COLUMNS = ("kind", "meld_type", "size", "rank", "wilds", "artifact", "target", "effect_used", "suited",
           "n_suited")
N_COLS = len(COLUMNS)
KIND, MELD_TYPE, SIZE, RANK, WILDS, ARTIFACT, TARGET, EFFECT_USED, SUITED, N_SUITED_LISTED = range(N_COLS)
#: Columns of :func:`hands_left` (int64): cards left, fewest melds of the suited cards left, plays still
#: needed (:func:`seers_env.features.plays_needed`), wilds kept, artifacts kept, control (sum over suited
#: cards kept of ``max(0, value - 10)``), Bonus points of the hand left (rules section 4; 0 for an empty
#: hand or one of 6+ cards), highest-single artifacts kept.
LEFT_COLUMNS = ("cards", "melds", "plays", "wilds", "artifacts", "control", "bonus", "highest_single")
N_LEFT = len(LEFT_COLUMNS)
L_CARDS, L_MELDS, L_PLAYS, L_WILDS, L_ARTIFACTS, L_CONTROL, L_BONUS, L_HIGHEST = range(N_LEFT)

#: Per artifact kind: 1 when it can ride along with a meld, 2 when it is played alone, else 0
#: (the rules of :func:`seers_env.features.plays_needed`, section 6).
_RIDE_KINDS = (GO_FIRST, CAULDRON, SUIT_CHANGER, HALF_STEP)
_ALONE_KINDS = (ROD, GIFT, HIGHEST_SINGLE)
KIND_CLASS = np.array([1 if k in _RIDE_KINDS else 2 if k in _ALONE_KINDS else 0 for k in range(N_KINDS)],
                      dtype=np.int64)
#: Order of the weights array of :func:`heuristic_values`.
HEURISTIC_WEIGHTS = ("card", "play", "high", "wild", "highest_single", "bonus", "out", "lead_rank", "lead",
                     "pass", "pass_danger")
#: The heuristic agent's default weights (data; :data:`agents.heuristic.WEIGHTS` is this mapping, tuned against
#: ``greedy`` in 4-player games, tournament seed 7): those of :data:`HEURISTIC_WEIGHTS` and
#: ``danger_cards``, the hand size at or below which an opponent is about to go out. Read-only
#: (:class:`types.MappingProxyType`): the batch features read it at each call while the agents copy it when
#: built, so changing it in place would make the two disagree; pass a changed copy instead
#: (``dict(HEURISTIC_DEFAULTS, card=2.0)``; ``HeuristicAgent(weights=...)``, ``heuristic_weights=``).
HEURISTIC_DEFAULTS = MappingProxyType({
    "card": 1.0,  # per card held (section 5 penalty)
    "play": 1.5,  # per play still needed to empty the hand
    "high": 0.3,  # per value step above 10 of a suited card (control)
    "wild": 0.5,  # a wild's flexibility
    "highest_single": 1.2,  # the unbeatable Single
    "bonus": 1.0,  # weight of the bonus a hand of 5 or fewer would score
    "out": 0.0,  # premium for going out (ends the round, scores 0)
    "lead_rank": 0.3,  # per value: prefer leading low
    "lead": 1.5,  # worth of winning the lead (Rod, Gift)
    "pass": -0.5,  # bias for passing when following (a play must cost structure to lose)
    "pass_danger": -2.0,  # bias for passing when an opponent holds few cards
    "danger_cards": 3,  # an opponent with this many cards or fewer is about to go out
})


def heuristic_weight_array(weights: Mapping | None = None) -> tuple[np.ndarray, int]:
    """``(float64 (11,) in the order of HEURISTIC_WEIGHTS, danger_cards)`` of a full weights dict
    (default :data:`HEURISTIC_DEFAULTS`), for :func:`heuristic_values`.

    Raises:
        KeyError: ``weights`` lacks one of :data:`HEURISTIC_WEIGHTS` or ``danger_cards`` (the message names it).
        ValueError: one of them is not a finite number (bools are not numbers here; the message names them),
            as ``HeuristicAgent(weights=...)`` checks.
    """
    w = HEURISTIC_DEFAULTS if weights is None else weights
    names = HEURISTIC_WEIGHTS + ("danger_cards",)
    missing = [k for k in names if k not in w]
    if missing:
        raise KeyError(f"heuristic weights lack {missing}; give all of {list(HEURISTIC_DEFAULTS)}")
    bad = {k: w[k] for k in names if not is_real_number(w[k]) or not np.isfinite(w[k])}
    if bad:
        raise ValueError(f"heuristic weights {bad!r} are not allowed; each must be a finite number")
    # a seat "is about to go out" when its size <= danger_cards: the same test with the floor of it (kept
    # within int64: hand sizes are far below 2**30)
    danger = int(min(max(np.floor(w["danger_cards"]), -1), 1 << 30))
    return np.array([w[k] for k in HEURISTIC_WEIGHTS], dtype=np.float64), danger

_PASS, _MELD, _ROD, _GIFT = core.PASS_KIND, core.MELD_KIND, core.ROD_KIND, core.GIFT_KIND
_RUN = core.RUN
_BIG = 1 << 40

assert N_SUITS == 5 and N_VALUES == 12 and N_SUITED == 60 and WILD == 60 and FIRST_ARTIFACT == 61
assert BONUS_MAX_CARDS == 5 and N_KINDS <= 7


_popcount = core._popcount  # bits set in an int64 (the engine's compiled helper)


@njit(cache=True)
def _fewest_melds_by_value(suits_at, cur, nxt):
    """Fewest melds of the cards whose suits at value index ``v`` are the 5-bit mask ``suits_at[v]``
    (int64 ``(12,)``); ``cur``, ``nxt``: int64 scratch ``(32,)``.

    ``cur[o]`` is the fewest melds of the cards below the current value with the runs of suits ``o`` open
    (``o`` a subset of the suits at the previous value; only those entries are read or written).
    """
    cur[0] = 0
    prev = 0  # suits at the previous value: the open runs are a subset of them
    for v in range(N_VALUES):
        s = suits_at[v]
        if prev == 0 and s == 0:
            continue
        if s == 0:  # every run ends
            best = cur[prev]
            sub = prev
            while sub:
                sub = (sub - 1) & prev
                if cur[sub] < best:
                    best = cur[sub]
            cur[0] = best
            prev = 0
            continue
        sub = s
        while True:
            nxt[sub] = _BIG
            if sub == 0:
                break
            sub = (sub - 1) & s
        o = prev
        while True:
            c = cur[o]
            cont = o & s  # cards that continue an open run (free)
            free = s & ~o
            new = free
            while True:  # each other card starts a run or joins the value's one Set/Single
                cost = c + _popcount(new) + (1 if free & ~new else 0)
                st = cont | new
                if cost < nxt[st]:
                    nxt[st] = cost
                if new == 0:
                    break
                new = (new - 1) & free
            if o == 0:
                break
            o = (o - 1) & prev
        sub = s
        while True:
            cur[sub] = nxt[sub]
            if sub == 0:
                break
            sub = (sub - 1) & s
        prev = s
    best = cur[prev]
    sub = prev
    while sub:
        sub = (sub - 1) & prev
        if cur[sub] < best:
            best = cur[sub]
    return best


@njit(cache=True)
def fewest_melds_vm(mask):
    """Fewest Singles, Matching Sets and Suited Runs (rules section 3) covering the suited cards of a
    value-major mask (bit ``5 * (value - 2) + suit``, int64 below ``2**60``); exact (module docstring)."""
    suits_at = np.empty(N_VALUES, np.int64)
    for v in range(N_VALUES):
        suits_at[v] = (mask >> (5 * v)) & 31
    return _fewest_melds_by_value(suits_at, np.empty(32, np.int64), np.empty(32, np.int64))


@njit(cache=True, inline="always")
def _suits_at(cards, suits_at):
    """Fill ``suits_at[v]`` (5-bit suit mask at value index ``v``) from a card-id bitmask."""
    for v in range(N_VALUES):
        s = 0
        for suit in range(N_SUITS):
            s |= ((cards >> (suit * N_VALUES + v)) & 1) << suit
        suits_at[v] = s


@njit(cache=True)
def table_of_keys(keys):
    """Play table int64 ``(P, N_COLS)`` of engine play keys (int64 ``(P,)``, layout in
    :mod:`seers_env.engine.core`)."""
    n = keys.shape[0]
    t = np.empty((n, N_COLS), np.int64)
    for i in range(n):
        k = keys[i]
        mt = k & 3
        naturals = (k >> 33) & 4095
        extra = (k >> 45) & 4095
        run_suit = ((k >> 19) & 7) - 1
        modified = ((k >> 23) & 127) - 1
        m = np.int64(0)
        if mt == _RUN:
            m = naturals << (run_suit * N_VALUES)
        elif mt != 0 and extra:
            for s in range(N_SUITS):
                if (naturals >> s) & 1:
                    m |= np.int64(1) << (s * N_VALUES + extra - 2)
        if modified >= 0:
            m |= np.int64(1) << modified
        t[i, KIND] = (k >> 57) & 3
        t[i, MELD_TYPE] = mt
        t[i, SIZE] = (k >> 2) & 15
        t[i, RANK] = (k >> 6) & 127
        t[i, WILDS] = (k >> 13) & 7
        t[i, ARTIFACT] = ((k >> 16) & 7) - 1
        t[i, TARGET] = ((k >> 59) & 7) - 1
        t[i, EFFECT_USED] = (k >> 22) & 1
        t[i, SUITED] = m
        t[i, N_SUITED_LISTED] = _popcount(m)
    return t


def table_of_plays(plays) -> np.ndarray:
    """Play table int64 ``(len(plays), N_COLS)`` of :class:`~seers_env.plays.Play` objects: from the
    engine's keys when ``plays`` is the game's :class:`~seers_env.engine.moves.PlayList` (no ``Play`` is
    built), else field by field.

    Raises:
        TypeError: an item of ``plays`` is not a ``Play`` (it lacks a ``Play``'s integer fields); the
            message names its index and value.
    """
    keys = getattr(plays, "keys", None)
    if isinstance(keys, np.ndarray):
        return table_of_keys(keys)
    t = np.zeros((len(plays), N_COLS), np.int64)
    for i, p in enumerate(plays):
        try:
            m = 0
            for c in p.suited:
                if 0 <= c < N_SUITED:
                    m |= 1 << c
            t[i] = (p.kind, p.meld_type, p.size, p.rank, p.wilds, p.artifact, p.target, p.effect_used, m,
                    len(p.suited))
        except (AttributeError, TypeError, ValueError) as e:
            raise TypeError(f"plays[{i}] = {p!r} is not a Play (seers_env.plays.Play); "
                            "pass plays from legal_plays()") from e
    return t


@njit(cache=True, inline="always")
def _low_bit_index(low):
    """Index of the single set bit of ``low`` (a power of two below ``2**62``)."""
    i = 0
    if low >> 32:
        low >>= 32
        i += 32
    if low >> 16:
        low >>= 16
        i += 16
    if low >> 8:
        low >>= 8
        i += 8
    if low >> 4:
        low >>= 4
        i += 4
    if low >> 2:
        low >>= 2
        i += 2
    if low >> 1:
        i += 1
    return i


@njit(cache=True)
def hands_left(hand, table, trick):
    """The hand each play of ``table`` leaves, summarised.

    Args:
        hand: int64 ``(H,)`` card ids of the acting seat (ids 0..67).
        table: play table int64 ``(P, N_COLS)`` (:func:`table_of_keys`, :func:`table_of_plays`).
        trick: int64 ``(T,)`` the cards of the current trick (picked up by a Rod of Reincarnation).

    Returns:
        ``(left, bad)``: int64 ``(P, N_LEFT)`` (columns :data:`LEFT_COLUMNS`), and the index of the first
        play that spends a card the hand does not hold (``-1``: none; rows from it on are unset).
    """
    n = table.shape[0]
    left = np.zeros((n, N_LEFT), np.int64)
    hmask = np.int64(0)
    hw = 0
    harts = np.zeros(N_KINDS, np.int64)
    for c in hand:
        if c < N_SUITED:
            hmask |= np.int64(1) << c
        elif c == WILD:
            hw += 1
        else:
            harts[c - FIRST_ARTIFACT] += 1
    tmask = np.int64(0)
    tw = 0
    tarts = np.zeros(N_KINDS, np.int64)
    for c in trick:
        if c < N_SUITED:
            tmask |= np.int64(1) << c
        elif c == WILD:
            tw += 1
        else:
            tarts[c - FIRST_ARTIFACT] += 1
    hand_at = np.empty(N_VALUES, np.int64)  # suits held at each value index
    _suits_at(hmask, hand_at)
    rod_at = np.empty(N_VALUES, np.int64)  # ... after picking up the trick
    _suits_at(hmask | tmask, rod_at)
    suits_at = np.empty(N_VALUES, np.int64)
    cur = np.empty(32, np.int64)
    nxt = np.empty(32, np.int64)
    h_arts = 0
    h_ride = 0
    h_alone = 0
    t_arts = 0
    t_ride = 0
    t_alone = 0
    for k in range(N_KINDS):
        h_arts += harts[k]
        t_arts += tarts[k]
        if KIND_CLASS[k] == 1:
            h_ride += harts[k]
            t_ride += tarts[k]
        elif KIND_CLASS[k] == 2:
            h_alone += harts[k]
            t_alone += tarts[k]
    for i in range(n):
        kind = table[i, KIND]
        m = table[i, SUITED]
        w = table[i, WILDS]
        a = table[i, ARTIFACT]
        if (i > 0 and kind == table[i - 1, KIND] and m == table[i - 1, SUITED] and w == table[i - 1, WILDS]
                and a == table[i - 1, ARTIFACT]):
            for j in range(N_LEFT):  # the same cards leave the hand as for the play before
                left[i, j] = left[i - 1, j]
            continue
        if (m & ~hmask or _popcount(m) != table[i, N_SUITED_LISTED] or w < 0 or w > hw or a < -1
                or a >= N_KINDS or (a >= 0 and harts[a] == 0)):
            return left, i
        rod = kind == _ROD
        base_at = rod_at if rod else hand_at
        for v in range(N_VALUES):
            suits_at[v] = base_at[v]
        lm = (hmask | tmask) & ~m if rod else hmask & ~m
        rest = m
        while rest:  # the suited cards spent leave their value's suit mask
            low = rest & -rest
            c = _low_bit_index(low)
            suits_at[c % N_VALUES] &= ~(1 << (c // N_VALUES))
            rest ^= low
        lw = hw - w
        n_arts = h_arts
        ride = h_ride
        alone = h_alone
        n_highest = harts[HIGHEST_SINGLE]
        if a >= 0:
            n_arts -= 1
            if KIND_CLASS[a] == 1:
                ride -= 1
            elif KIND_CLASS[a] == 2:
                alone -= 1
            if a == HIGHEST_SINGLE:
                n_highest -= 1
        if rod:
            lw += tw
            n_arts += t_arts
            ride += t_ride
            alone += t_alone
            n_highest += tarts[HIGHEST_SINGLE]
        melds = _fewest_melds_by_value(suits_at, cur, nxt) if lm else 0
        base = melds if melds or not lw else 1  # wilds alone form a meld
        control = _popcount(suits_at[9]) + 2 * _popcount(suits_at[10]) + 3 * _popcount(suits_at[11])
        cards = _popcount(lm) + lw + n_arts
        bonus = 0
        if 1 <= cards <= BONUS_MAX_CARDS and lw == 0 and n_arts == 0:
            v = 0
            while suits_at[v] == 0:
                v += 1
            bonus = v + 2  # the lowest value left
        left[i, L_CARDS] = cards
        left[i, L_MELDS] = melds
        left[i, L_PLAYS] = base + max(0, ride - base) + alone
        left[i, L_WILDS] = lw
        left[i, L_ARTIFACTS] = n_arts
        left[i, L_CONTROL] = control
        left[i, L_BONUS] = bonus
        left[i, L_HIGHEST] = n_highest
    return left, -1


@njit(cache=True)
def encode_rows(table, left, offsets, play_dim, before, has_top, top_rank, n_trick, sizes, seat, n_players):
    """The rows of :func:`seers_env.features.encode_plays`: float32 ``(P, play_dim)``.

    Args:
        table: play table int64 ``(P, N_COLS)``; ``left``: :func:`hands_left`'s int64 ``(P, N_LEFT)``.
        offsets: int64 offsets of the row parts, in the order kind, meld_type, size, rank, margin,
            suited_spent, wilds_spent, artifact, effect_used, spent_by_value, spent_cards, cards_left
            (the 10 hand-left parts follow it), picked_up, gift_target_size, gift_target
            (:data:`seers_env.features.PLAY_LAYOUT`).
        before: ``min(cards held, 6)``; ``has_top``/``top_rank``: the trick's top meld; ``n_trick``:
            cards in the trick; ``sizes``: int64 ``(n_players,)`` hand sizes; ``seat``: the acting seat.
    """
    (o_kind, o_type, o_size, o_rank, o_margin, o_suited, o_wilds, o_art, o_effect, o_by_value, o_cards,
     o_left, o_picked, o_gift_size, o_gift) = (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4],
                                               offsets[5], offsets[6], offsets[7], offsets[8], offsets[9],
                                               offsets[10], offsets[11], offsets[12], offsets[13],
                                               offsets[14])
    n = table.shape[0]
    out = np.zeros((n, play_dim), np.float32)
    top_r = min(top_rank, 28)
    for i in range(n):
        kind = table[i, KIND]
        out[i, o_kind + kind] = 1.0
        c = left[i, L_CARDS]
        out[i, o_left] = c / 15.0
        out[i, o_left + 1] = left[i, L_MELDS] / 8.0
        out[i, o_left + 2] = left[i, L_PLAYS] / 8.0
        out[i, o_left + 3] = left[i, L_WILDS]
        out[i, o_left + 4] = left[i, L_ARTIFACTS]
        out[i, o_left + 5] = left[i, L_CONTROL] / 10.0
        out[i, o_left + 6] = left[i, L_BONUS] / 13.0
        out[i, o_left + 7] = 1.0 if c == 0 else 0.0
        out[i, o_left + 8] = 1.0 if before > BONUS_MAX_CARDS >= c else 0.0
        out[i, o_left + 9] = 1.0 if c <= BONUS_MAX_CARDS else 0.0
        if kind == _MELD:
            rank = table[i, RANK]
            m = table[i, SUITED]
            out[i, o_type + table[i, MELD_TYPE] - 1] = 1.0
            out[i, o_size] = table[i, SIZE] / 12.0
            out[i, o_rank] = 1.0 if rank >= HIGHEST_SINGLE_RANK else rank / 27.0
            if has_top:
                out[i, o_margin] = (min(rank, 28) - top_r) / 27.0
            out[i, o_suited] = table[i, N_SUITED_LISTED] / 12.0
            out[i, o_wilds] = table[i, WILDS]
            while m:
                low = m & -m
                card = _low_bit_index(low)
                out[i, o_by_value + card % N_VALUES] += 1.0
                out[i, o_cards + card] = 1.0
                m ^= low
        elif kind == _ROD:
            out[i, o_picked] = n_trick / 15.0
        elif kind == _GIFT:
            t = table[i, TARGET]
            out[i, o_gift_size] = sizes[t] / 15.0
            out[i, o_gift + (t - seat) % n_players] = 1.0
        out[i, o_art + table[i, ARTIFACT] + 1] = 1.0
        out[i, o_effect] = table[i, EFFECT_USED]
    return out


@njit(cache=True)
def heuristic_values(table, left, weights, leading, danger, sizes):
    """The heuristic agent's score of each play (:meth:`agents.heuristic.HeuristicAgent.scores`): float64
    ``(P,)``, the value of the hand left (:func:`agents.heuristic.hand_value`) plus the play's terms.

    Args:
        table: play table int64 ``(P, N_COLS)``; ``left``: :func:`hands_left`'s int64 ``(P, N_LEFT)``.
        weights: float64 ``(11,)`` in the order :data:`HEURISTIC_WEIGHTS`.
        leading: the seat leads (the trick is empty); ``danger``: an opponent is about to go out.
        sizes: int64 ``(n_players,)`` hand sizes (Gift targets).

    The arithmetic is the Python agent's, term by term in the same order, so the scores are equal to the
    last bit.
    """
    (w_card, w_play, w_high, w_wild, w_highest, w_bonus, w_out, w_lead_rank, w_lead, w_pass,
     w_pass_danger) = (weights[0], weights[1], weights[2], weights[3], weights[4], weights[5], weights[6],
                       weights[7], weights[8], weights[9], weights[10])
    n = table.shape[0]
    out = np.empty(n, np.float64)
    for i in range(n):
        cards = left[i, L_CARDS]
        if cards == 0:
            v = w_out
        else:
            control = w_high * left[i, L_CONTROL] + w_wild * left[i, L_WILDS] + w_highest * left[i, L_HIGHEST]
            v = (-w_card) * cards - w_play * left[i, L_PLAYS] + control
            if cards <= BONUS_MAX_CARDS:
                v += w_bonus * left[i, L_BONUS]
        kind = table[i, KIND]
        if kind == _PASS:
            v += 0.0 if leading else (w_pass_danger if danger else w_pass)
        elif kind == _ROD:
            v += w_lead
        elif kind == _GIFT:
            v -= w_lead - 0.01 * sizes[table[i, TARGET]]
        elif leading:
            v -= w_lead_rank * table[i, RANK] / 2
        else:
            v -= 0.001 * table[i, RANK]
        out[i] = v
    return out


@njit(cache=True)
def plays_rows(hand, table, trick, offsets, play_dim, before, has_top, top_rank, sizes, seat, n_players):
    """:func:`hands_left` then :func:`encode_rows` in one call (``n_trick`` is ``len(trick)``): returns
    ``(rows float32 (P, play_dim), bad)``; ``bad >= 0``: that play spends a card the hand does not hold
    (the rows are then empty)."""
    left, bad = hands_left(hand, table, trick)
    if bad >= 0:
        return np.zeros((0, play_dim), np.float32), bad
    return encode_rows(table, left, offsets, play_dim, before, has_top, top_rank, trick.shape[0], sizes, seat,
                       n_players), bad


@njit(cache=True)
def heuristic_scores(hand, table, trick, weights, leading, danger, sizes):
    """:func:`hands_left` then :func:`heuristic_values` in one call: returns ``(scores float64 (P,), bad)``;
    ``bad >= 0``: that play spends a card the hand does not hold (the scores are then empty)."""
    left, bad = hands_left(hand, table, trick)
    if bad >= 0:
        return np.zeros(0, np.float64), bad
    return heuristic_values(table, left, weights, leading, danger, sizes), bad


@njit(cache=True)
def plays_rows_prior(hand, table, trick, offsets, play_dim, before, has_top, top_rank, sizes, seat, n_players,
                     weights, danger):
    """:func:`plays_rows` with one more column, the heuristic score of each play (:func:`heuristic_values`
    with ``weights`` float64 ``(11,)``, ``leading = not has_top`` and ``danger`` bool, float64 cast to
    float32), from one :func:`hands_left`: returns ``(rows float32 (P, play_dim + 1), bad)``; ``bad >= 0``:
    that play spends a card the hand does not hold (the rows are then empty)."""
    left, bad = hands_left(hand, table, trick)
    if bad >= 0:
        return np.zeros((0, play_dim + 1), np.float32), bad
    rows = encode_rows(table, left, offsets, play_dim, before, has_top, top_rank, trick.shape[0], sizes, seat,
                       n_players)
    scores = heuristic_values(table, left, weights, not has_top, danger, sizes)
    out = np.empty((rows.shape[0], play_dim + 1), np.float32)
    out[:, :play_dim] = rows
    for r in range(rows.shape[0]):
        out[r, play_dim] = scores[r]  # float64 -> float32
    return out, bad


__all__ = ["COLUMNS", "HEURISTIC_DEFAULTS", "HEURISTIC_WEIGHTS", "LEFT_COLUMNS", "N_COLS", "N_LEFT", "encode_rows",
           "fewest_melds_vm", "hands_left", "heuristic_scores", "heuristic_weight_array", "heuristic_values", "plays_rows",
           "plays_rows_prior",
           "table_of_keys", "table_of_plays"]
