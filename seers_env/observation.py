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
from numba import njit

from .actions import GIFT, GROUP_BASE, HIGHEST, PASS, ROD, RUN_BASE, WILDS_BASE, Decision, decode
from .engine.artifacts import ARTIFACT_KINDS
from .engine.cards import N_SUITED
from .engine.game import Game
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


@njit(cache=True)
def _count(items: np.ndarray, lengths: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """float32 ``(OBS_DIM,)``: +1 at ``offsets[j] + item`` for each item of segment ``j`` (compiled)."""
    vec = np.zeros(OBS_DIM, np.float32)
    k = 0
    for j in range(lengths.shape[0]):
        off = offsets[j]
        for _ in range(lengths[j]):
            vec[off + items[k]] += 1.0
            k += 1
    return vec


def observe(game: Game, seat: int, decision: Decision | None = None) -> np.ndarray:
    """The observation of ``seat``: ``np.ndarray`` float32 of shape ``(OBS_DIM,)``, layout above.

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
    played, known, passed, hands = game.played, game.known, game.passed, game.hands
    order = _ORDERS[n][seat]
    # card segments (counted by _count with their block offsets), then one-hot indices (offset 0)
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
    idx: list[int] = []
    rs = game.round_scores
    sizes: list[float] = []
    for r in range(n):
        s = order[r]
        if passed[s]:
            idx.append(_PASSED + r)
        size = len(hands[s])
        if size <= 5:
            idx.append(_BONUS + r)
        sizes.append(size / 15.0)
    if rs:
        last = rs[-1]
        sums = [sum(col) for col in zip(*rs)]
        totals = [max(-50.0, min(50.0, sums[s] / 20.0)) for s in order]
        lasts = [last[s] / 20.0 for s in order]
    else:
        totals = lasts = [0.0] * n
    top = game.top
    if top is not None:
        idx.append(_TOP_TYPE + top[0])
        idx.append(_TOP_SEAT + (game.top_seat - seat) % n)
        if top[2] >= HIGHEST_SINGLE_RANK:
            idx.append(_TOP_HIGHEST)
    else:
        idx.append(_TOP_TYPE)
    idx.append(_N_PLAYERS + n - 2)
    idx.append(_START_SEER + (game.start_seer - seat) % n)
    if game.go_first_holder >= 0:
        idx.append(_GO_FIRST + (game.go_first_holder - seat) % n)
    idx += [_SUITS + s for s in game.suits]
    if decision is not None:
        idx.append(_STAGE + min(decision.stage, 2))
        if decision.chosen:
            idx += _chosen(decision)
    segments.append(idx)
    lengths = [len(x) for x in segments]
    items = np.fromiter(chain.from_iterable(segments), np.int64, sum(lengths))
    vec = _count(items, np.array(lengths, dtype=np.int64), _SEGMENT_OFFSETS[n])
    # scalar parts: one slice assignment (hand_sizes, totals, round_scores_last, round are contiguous)
    pad = [0.0] * (MAX_SEATS - n)
    n_rounds = game.config.n_rounds
    vec[_SCALARS:_SCALARS_END] = (sizes + pad + totals + pad + lasts + pad
                                  + [game.round / n_rounds, float(game.round == n_rounds - 1)])
    if top is not None:
        vec[_TOP_SIZE] = top[1] / 12.0
        vec[_TOP_RANK] = min(top[2], 27) / 27.0  # 27 = 13 1/2 (half-step artifact)
    if decision is not None and decision.chosen:
        vec[_OFF["chosen_wilds"]] /= 5.0
    return vec


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


def _chosen(decision: Decision) -> list[int]:
    """Indices set by the codes chosen so far in ``decision``."""
    out: list[int] = []
    o = _OFF
    for code in decision.chosen:
        if code < GROUP_BASE:
            out.append(o["chosen_kind"] + {PASS: 0, ROD: 1, GIFT: 2, HIGHEST: 3}[code])
        elif code < RUN_BASE:
            _, _, f = decode(code)
            out.append(o["chosen_kind"] + 4)
            out.append(o["chosen_value"] + f["value"] - 2)
            out += [o["chosen_suits"] + s for s in range(5) if f["suit_mask"] >> s & 1]
            out += [o["chosen_wilds"]] * f["wilds"]  # a count; observe() divides it by 5
        elif code < WILDS_BASE:
            _, _, f = decode(code)
            out.append(o["chosen_kind"] + 5)
            out.append(o["chosen_value"] + f["hi"] - 2)
            out.append(o["chosen_low"] + f["lo"] - 2)
            out.append(o["chosen_suits"] + f["suit"])
        else:
            _, _, f = decode(code)
            if "values" in f:
                out += [o["chosen_wild_values"] + v - 2 for v in f["values"]]
    return out


__all__ = ["CARD_BLOCK", "MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_DIM", "STATE_DIM", "observe", "state"]
