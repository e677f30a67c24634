"""The Haggis observation as first written (one numpy write per part), kept as the reference of
:func:`seers_env.haggis.observation.observe` (which writes every part in two numpy writes)."""

from __future__ import annotations

import numpy as np

from seers_env.haggis.cards import is_wild, rank_of
from seers_env.haggis.observation import MAX_SEATS, N_CARD_SLOTS, OBS_BOUND, OBS_DIM, OFFSETS, _own, _slot
from seers_env.haggis.plays import BOMB, SEQ, SET


def _combo_parts(c) -> tuple[list[float], list[float]]:
    kind = [0.0] * 4
    vals = [0.0] * 3
    if c is None:
        kind[0] = 1.0
        return kind, vals
    kind[{SET: 1, SEQ: 2, BOMB: 3}[c.kind]] = 1.0
    vals = [c.a / 8, c.b / 12, c.value / 13]
    return kind, vals


def observe(view, decision=None) -> np.ndarray:
    """The observation of ``view``'s seat (a :class:`~seers_env.haggis.view.HaggisSeatView`), float32
    ``(OBS_DIM,)``; ``decision``: the pending :class:`~seers_env.haggis.actions.HaggisDecision` of this
    seat (its chosen shape and cards), or ``None``."""
    g = view._game
    seat, n = view.seat, g.n_players
    obs = np.zeros(OBS_DIM, np.float32)

    def put(name, values):
        lo, hi = OFFSETS[name]
        obs[lo:hi] = values

    def offs(x):
        return [x[(seat + k) % n] if k < n else 0 for k in range(MAX_SEATS)]

    hand = np.zeros(48, np.float32)
    hand[[_own(c) for c in g._hands[seat]]] = 1
    put("hand", hand)
    pending = decision.pending if decision is not None else None
    if pending is not None:
        code, cards = pending
        pc = np.zeros(48, np.float32)
        pc[cards] = 1
        put("pending_cards", pc)
        from seers_env.haggis.actions import BOMB_BASE, SEQ_BASE, SET_BASE, N_VALUES, N_LENGTHS
        if code < SEQ_BASE:
            i = code - SET_BASE
            put("pending_shape", [1, 0, 0, 1])
            put("pending_values", [(i // N_VALUES + 1) / 8, 0, (i % N_VALUES + 2) / 13])
        elif code < BOMB_BASE:
            i = code - SEQ_BASE
            rest = i // N_VALUES
            put("pending_shape", [0, 1, 0, 1])
            put("pending_values", [(rest // N_LENGTHS + 1) / 8, (rest % N_LENGTHS + 2) / 12, (i % N_VALUES + 2) / 13])
        else:
            put("pending_shape", [0, 0, 1, 1])
            put("pending_values", [0, 0, (code - BOMB_BASE + 1) / 13])
    top = g.top
    kind, vals = _combo_parts(top)
    put("top_kind", kind)
    put("top_values", vals)
    if g._trick:
        ts = np.zeros(3, np.float32)
        ts[(g._trick[-1][0] - seat) % n] = 1
        put("top_seat", ts)
    tc = np.zeros(N_CARD_SLOTS, np.float32)
    for _, p, _ in g._trick:
        tc[[_slot(c, seat, n) for c in p.cards]] = 1
    put("trick_cards", tc)
    pl = tc.copy()
    for cs in g._captured:
        pl[[_slot(c, seat, n) for c in cs]] = 1
    put("played_cards", pl)
    fh = np.zeros(9, np.float32)
    for s in range(n):
        for c in g._hands[s]:
            if is_wild(c):
                fh[3 * ((s - seat) % n) + rank_of(c) - 11] = 1
    put("faces_held", fh)
    put("hand_sizes", [x / 17 for x in offs(g.hand_sizes())])
    outs = [1.0 if s in g._out else 0.0 for s in range(n)]
    put("out", offs(outs))
    if g._out:
        fo = np.zeros(3, np.float32)
        fo[(g._out[0] - seat) % n] = 1
        put("first_out", fo)
    bets = np.zeros(12, np.float32)
    for k in range(n):
        b = g._bets[(seat + k) % n]
        bets[4 * k + (0 if b is None else 1 + (0, 15, 30).index(b))] = 1
    put("bets", bets)
    put("captured_points", [x / 50 for x in offs(g.captured_points())])
    put("going_out", [x / 85 for x in offs(g._going_out)])
    put("bet_points", [x / 90 for x in offs(g._bet_points)])
    put("totals", [x / g.config.target for x in offs(g.totals)])
    if g._round_scores:
        put("last_round", [x / 100 for x in offs(g._round_scores[-1])])
    put("passes", [g._passes / 2])
    if not g.game_over and g.current == seat:
        st = [0.0, 0.0, 0.0]
        st[0 if g._bets[seat] is None else (2 if pending is not None else 1)] = 1
        put("stage", st)
    put("haggis_size", [len(g._haggis) / 8])
    put("misc", [1.0 if n == 3 else 0.0, g.round / 20, g.config.target / 350])
    return np.clip(obs, -OBS_BOUND, OBS_BOUND)
