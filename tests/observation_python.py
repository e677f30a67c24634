"""The readable pure-Python observation encoder (the one seers_env.observation compiled): a test reference.

tests/test_observation.py checks that :func:`seers_env.observation.observe` gives the same vectors.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from seers_env.actions import GIFT, GROUP_BASE, HIGHEST, PASS, ROD, RUN_BASE, WILDS_BASE, Decision, decode
from seers_env.engine.cards import N_SUITED
from seers_env.engine.game import Game
from seers_env.engine.rulings import HIGHEST_SINGLE_RANK
from seers_env.observation import (
    _BONUS, _GO_FIRST, _N_PLAYERS, _OFF, _ORDERS, _PASSED, _SCALARS, _SCALARS_END, _SEGMENT_OFFSETS,
    _START_SEER, _STAGE, _SUITS, _TOP_HIGHEST, _TOP_RANK, _TOP_SEAT, _TOP_SIZE, _TOP_TYPE, MAX_SEATS, OBS_DIM,
)


def _count(items, lengths, offsets):
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
