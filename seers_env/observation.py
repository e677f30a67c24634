"""The flat observation vector of one seat: ``observe(game, seat, decision) -> float32 (OBS_DIM,)``.

It holds only what ``seat`` may know (rules section 3, "Public information"): its own hand, the cards
every seat has played this round (face-up), the current trick, the public state of each seat, the cards
publicly known to be in another hand (taken with the Rod of Reincarnation), scores and the pending
decision. Seats are relative: index 0 is the observing seat, 1 the next seat clockwise, and so on; slots
of seats beyond ``n_players`` are zero. A card block has 68 entries: 60 suited cards (card id), the
number of wilds, then one count per artifact kind (registry order).

:data:`OBSERVATION_LAYOUT` lists ``(name, offset, length)`` of every part:

==================  ======  =========================================================================
name                length  content
==================  ======  =========================================================================
hand                68      own cards (counts)
played              340     5 relative seats x 68: cards each seat played this round
trick_cards         68      every card on the table this trick
known               272     4 other relative seats x 68: cards publicly known to be in their hands
top_type            4       one-hot: no meld on the table / Single / Matching Set / Suited Run
top_size            1       size of the top meld / 12
top_rank            1       value to beat (half steps, up to 27 = 13 1/2) / 27; 0 when none
top_highest         1       1 when the top is the highest-single artifact (nothing beats it)
top_seat            5       one-hot relative seat that played the top meld
passed              5       relative seats out of this trick
bonus               5       relative seats in the Bonus (5 or fewer cards, section 4)
hand_sizes          5       relative hand sizes / 15
totals              5       relative game totals / 20, clipped to +/-50
round_scores_last   5       relative scores of the previous round / 20
round               2       round index / n_rounds, 1 when this is the last round
n_players           4       one-hot 2..5
start_seer          5       one-hot relative Start Seer of this trick
go_first            5       one-hot relative seat dealt Go First this round
suits               5       suits in play this round
stage               3       one-hot pending decision: main / wild positions / artifact
chosen_kind         6       stage-0 choice so far: pass / rod / gift / highest / group / run
chosen_value        12      one-hot: the group's value or the run's top value
chosen_low          12      one-hot: the run's lowest value
chosen_suits        5       the group's suit mask, or the run's suit
chosen_wilds        1       the group's number of wilds / 5
chosen_wild_values  12      stage-1 choice: the run values filled by wilds
==================  ======  =========================================================================
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from .actions import ART_BASE, GROUP_BASE, MAX_WILDS, RUN_BASE, WILDS_BASE, WINDOWS, Decision
from .engine.artifacts import ARTIFACT_KINDS
from .engine.cards import N_SUITED
from .engine.game import Game
from .engine.jit import njit
from .engine.rulings import HIGHEST_SINGLE_RANK

MAX_SEATS = 5
CARD_BLOCK = N_SUITED + 1 + len(ARTIFACT_KINDS)  # 68: card ids 0..67 map to themselves

_PARTS = (
    ("hand", CARD_BLOCK), ("played", MAX_SEATS * CARD_BLOCK), ("trick_cards", CARD_BLOCK),
    ("known", (MAX_SEATS - 1) * CARD_BLOCK), ("top_type", 4), ("top_size", 1), ("top_rank", 1),
    ("top_highest", 1), ("top_seat", 5), ("passed", 5), ("bonus", 5), ("hand_sizes", 5), ("totals", 5),
    ("round_scores_last", 5), ("round", 2), ("n_players", 4), ("start_seer", 5), ("go_first", 5),
    ("suits", 5), ("stage", 3), ("chosen_kind", 6), ("chosen_value", 12), ("chosen_low", 12),
    ("chosen_suits", 5), ("chosen_wilds", 1), ("chosen_wild_values", 12),
)


def _layout() -> list[tuple[str, int, int]]:
    out, off = [], 0
    for name, length in _PARTS:
        out.append((name, off, length))
        off += length
    return out


#: ``(name, offset, length)`` of each part of the observation vector.
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = _layout()
OBS_DIM: int = OBSERVATION_LAYOUT[-1][1] + OBSERVATION_LAYOUT[-1][2]
_OFF = {name: off for name, off, _ in OBSERVATION_LAYOUT}

_HAND, _PLAYED, _TRICK, _KNOWN = _OFF["hand"], _OFF["played"], _OFF["trick_cards"], _OFF["known"]
_PASSED, _BONUS, _TOP_TYPE, _TOP_SEAT = _OFF["passed"], _OFF["bonus"], _OFF["top_type"], _OFF["top_seat"]
_TOP_HIGHEST, _TOP_SIZE, _TOP_RANK = _OFF["top_highest"], _OFF["top_size"], _OFF["top_rank"]
_N_PLAYERS, _START_SEER, _GO_FIRST = _OFF["n_players"], _OFF["start_seer"], _OFF["go_first"]
_SUITS, _STAGE = _OFF["suits"], _OFF["stage"]
_SCALARS, _SCALARS_END = _OFF["hand_sizes"], _OFF["round"] + 2


#: Offsets of the card segments that :func:`observe` counts, by player count: the own hand, the cards
#: played by each relative seat, the cards known in each other hand, the trick, then absolute indices.
_SEGMENT_OFFSETS = {
    n: np.array([_HAND] + [_PLAYED + r * CARD_BLOCK for r in range(n)]
                + [_KNOWN + (r - 1) * CARD_BLOCK for r in range(1, n)] + [_TRICK, 0], dtype=np.int64)
    for n in range(2, MAX_SEATS + 1)
}
_ORDERS = {n: [[(seat + r) % n for r in range(n)] for seat in range(n)] for n in range(2, MAX_SEATS + 1)}


#: The header of :func:`encode_head`: everything of an observation but its card blocks, as int64 fields.
H_N, H_SEAT, H_TOP_TYPE, H_TOP_SIZE, H_TOP_RANK, H_TOP_SEAT, H_START, H_GO_FIRST = range(8)
H_ROUND, H_N_ROUNDS, H_STAGE, H_SCORED, H_SUITS, H_NCHOSEN = range(8, 14)
H_CHOSEN = 14  # 3 codes
H_PASSED = 17  # 5 flags, absolute seats
H_SIZES = 22  # 5 hand sizes, absolute seats
H_TOTALS = 27  # 5 game totals, absolute seats
H_LAST = 32  # 5 scores of the last scored round, absolute seats
N_HEAD = 37

_WINDOW_LO = np.array([lo for lo, _ in WINDOWS], np.int64)
_WINDOW_HI = np.array([hi for _, hi in WINDOWS], np.int64)
_O_KIND, _O_VALUE, _O_LOW = _OFF["chosen_kind"], _OFF["chosen_value"], _OFF["chosen_low"]
_O_CSUITS, _O_CWILDS, _O_CWILD_VALUES = _OFF["chosen_suits"], _OFF["chosen_wilds"], _OFF["chosen_wild_values"]
_O_SIZES, _O_TOTALS, _O_LAST, _O_ROUND = _OFF["hand_sizes"], _OFF["totals"], _OFF["round_scores_last"], _OFF["round"]


@njit(cache=True)
def encode_head(row, head):
    """Write every part but the card blocks into ``row`` (float32 ``(OBS_DIM,)``, zero there) from a
    header (int64 ``(N_HEAD,)``, fields ``H_*``; ``H_STAGE`` -1: no pending decision of this seat).
    Shared by :func:`observe` and the batch API (:mod:`seers_env.vector_core`)."""
    n = head[H_N]
    seat = head[H_SEAT]
    for r in range(n):
        s = (seat + r) % n
        if head[H_PASSED + s]:
            row[_PASSED + r] += 1.0
        size = head[H_SIZES + s]
        if size <= 5:
            row[_BONUS + r] += 1.0
        row[_O_SIZES + r] = size / 15.0
    scored = head[H_SCORED]
    if scored:
        for r in range(n):
            s = (seat + r) % n
            row[_O_TOTALS + r] = max(-50.0, min(50.0, head[H_TOTALS + s] / 20.0))
            row[_O_LAST + r] = head[H_LAST + s] / 20.0
    n_rounds = head[H_N_ROUNDS]
    row[_O_ROUND] = head[H_ROUND] / n_rounds
    row[_O_ROUND + 1] = 1.0 if head[H_ROUND] == n_rounds - 1 else 0.0
    top = head[H_TOP_TYPE]
    row[_TOP_TYPE + top] += 1.0
    if top:
        row[_TOP_SEAT + (head[H_TOP_SEAT] - seat) % n] += 1.0
        rank = head[H_TOP_RANK]
        if rank >= HIGHEST_SINGLE_RANK:
            row[_TOP_HIGHEST] += 1.0
        row[_TOP_SIZE] = head[H_TOP_SIZE] / 12.0
        row[_TOP_RANK] = min(rank, 27) / 27.0  # 27 = 13 1/2 (half-step artifact)
    row[_N_PLAYERS + n - 2] += 1.0
    row[_START_SEER + (head[H_START] - seat) % n] += 1.0
    if head[H_GO_FIRST] >= 0:
        row[_GO_FIRST + (head[H_GO_FIRST] - seat) % n] += 1.0
    for s in range(MAX_SEATS):
        if head[H_SUITS] >> s & 1:
            row[_SUITS + s] += 1.0
    stage = head[H_STAGE]
    if stage < 0:
        return
    row[_STAGE + min(stage, 2)] += 1.0
    nch = head[H_NCHOSEN]
    for k in range(nch):  # the codes chosen so far (seers_env.actions catalogue)
        code = head[H_CHOSEN + k]
        if code < GROUP_BASE:
            row[_O_KIND + code] += 1.0  # PASS, ROD, GIFT, HIGHEST are codes 0..3
        elif code < RUN_BASE:
            r, w = divmod(code - GROUP_BASE, MAX_WILDS + 1)
            v, mask = divmod(r, 32)
            row[_O_KIND + 4] += 1.0
            row[_O_VALUE + v] += 1.0
            for s in range(MAX_SEATS):
                if mask >> s & 1:
                    row[_O_CSUITS + s] += 1.0
            row[_O_CWILDS] += w
        elif code < WILDS_BASE:
            s, wi = divmod(code - RUN_BASE, len(WINDOWS))
            row[_O_KIND + 5] += 1.0
            row[_O_VALUE + _WINDOW_HI[wi] - 2] += 1.0
            row[_O_LOW + _WINDOW_LO[wi] - 2] += 1.0
            row[_O_CSUITS + s] += 1.0
        elif code < ART_BASE:
            m = code - WILDS_BASE
            for b in range(12):
                if m >> b & 1:
                    row[_O_CWILD_VALUES + b] += 1.0
    if nch:
        row[_O_CWILDS] /= 5.0


@njit(cache=True)
def _encode(items, lengths, offsets, head):
    """float32 ``(OBS_DIM,)``: +1 at ``offsets[j] + item`` for each card of segment ``j``, then the head."""
    vec = np.zeros(OBS_DIM, np.float32)
    k = 0
    for j in range(lengths.shape[0]):
        off = offsets[j]
        for _ in range(lengths[j]):
            vec[off + items[k]] += 1.0
            k += 1
    encode_head(vec, head)
    return vec


#: Offsets of the card segments that :func:`observe` counts, by player count: the own hand, the cards
#: played by each relative seat, the cards known in each other hand, then the trick.
_CARD_OFFSETS = {n: offsets[:-1].copy() for n, offsets in _SEGMENT_OFFSETS.items()}
_PAD = [[0] * (MAX_SEATS - n) for n in range(MAX_SEATS + 1)]


def observe(game: Game, seat: int, decision: Decision | None = None) -> np.ndarray:
    """The observation of ``seat``: ``np.ndarray`` float32 of shape ``(OBS_DIM,)``, layout above.

    The card blocks are counted and the rest encoded in compiled code (:func:`encode_head`);
    ``tests/observation_python.py`` keeps the readable Python encoder, and the tests check both agree.

    Args:
        game: the engine game.
        seat: observing seat, 0..n_players-1.
        decision: the pending :class:`~seers_env.actions.Decision` when ``seat`` is to act (its stage and
            chosen codes fill the last parts), else ``None``.

    Raises:
        ValueError: ``seat`` out of range.
    """
    n = game.config.n_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} is not one of 0..{n - 1}")
    played, known, hands = game.played, game.known, game.hands
    order = _ORDERS[n][seat]
    segments = [hands[seat]]
    segments += [played[s] for s in order]
    segments += [known[s] for s in order[1:]]
    trick: list[int] = []
    for _, p in game.trick:
        trick += p.suited
        if p.wilds:
            trick += [N_SUITED] * p.wilds
        if p.artifact >= 0:
            trick.append(N_SUITED + 1 + p.artifact)
    segments.append(trick)
    lengths = [len(x) for x in segments]
    items = np.fromiter(chain.from_iterable(segments), np.int64, sum(lengths))
    rs = game.round_scores
    pad = _PAD[n]
    top = game.top
    suits = 0
    for s in game.suits:
        suits |= 1 << s
    if decision is None:
        dec = [-1, 0, 0, 0, 0]
    else:
        chosen = decision.chosen
        dec = [decision.stage, len(chosen)] + chosen[:3] + [0] * (3 - min(len(chosen), 3))
    head = [n, seat]
    head += (top[0], top[1], top[2]) if top is not None else (0, 0, 0)
    head += [game.top_seat, game.start_seer, game.go_first_holder, game.round, game.config.n_rounds, dec[0],
             len(rs), suits]
    head += dec[1:]
    head += game.passed
    head += pad
    head += [len(h) for h in hands]
    head += pad
    if rs:
        head += [sum(col) for col in zip(*rs)]
        head += pad
        head += rs[-1]
        head += pad
    else:
        head += [0] * (2 * MAX_SEATS)
    return _encode(items, np.array(lengths, dtype=np.int64), _CARD_OFFSETS[n], np.array(head, dtype=np.int64))


#: Length of :func:`state`: the acting seat's observation, then every hand (relative seats, 68 each),
#: then the cards removed face-down in a 2-player game (68).
STATE_DIM: int = OBS_DIM + (MAX_SEATS + 1) * CARD_BLOCK


def state(game: Game, decision: Decision | None = None) -> np.ndarray:
    """Full-information state for centralised critics: float32 ``(STATE_DIM,)``.

    The acting seat's :func:`observe`, then every seat's hand (relative to the acting seat, 5 x 68
    counts), then the hidden 2-player removed cards (68 counts).
    """
    seat = game.current
    n = game.n_players
    extra = np.zeros((MAX_SEATS + 1) * CARD_BLOCK, dtype=np.float32)
    idx = [r * CARD_BLOCK + c for r in range(n) for c in game.hands[(seat + r) % n]]
    idx += [MAX_SEATS * CARD_BLOCK + c for c in game.hidden]
    np.add.at(extra, idx, 1.0)
    return np.concatenate([observe(game, seat, decision), extra])


__all__ = ["CARD_BLOCK", "MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_DIM", "STATE_DIM", "observe", "state"]
