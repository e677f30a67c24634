"""Observation and state vectors of the Haggis environment (float32; seats relative to the observer:
offset 0 is the observer, 1 the next seat clockwise, 2 the one after; a 2-player game leaves offset 2 zero).

Card vectors of 54 entries: the 45 number card ids, then the face cards of offsets 0, 1, 2 (J, Q, K each).
Own-hand vectors of 48: the 45 number cards, then the own J, Q, K.

:data:`OBSERVATION_LAYOUT` lists every part as ``(name, size, meaning)``; :data:`OBS_DIM` is their sum.
"""

from __future__ import annotations

import numpy as np

from .cards import FIRST_FACE, N_NUMBER_CARDS, rank_of
from .plays import BOMB, SEQ, SET

MAX_SEATS = 3
N_CARD_SLOTS = N_NUMBER_CARDS + 3 * MAX_SEATS  # 54
OBS_BOUND = 10.0

OBSERVATION_LAYOUT = (
    ("hand", 48, "own cards: number card ids 0..44, own J, Q, K (1 = held)"),
    ("pending_cards", 48, "cards chosen so far in a pending play (own-hand layout)"),
    ("pending_shape", 4, "pending play: set / sequence / bomb one-hot, then 1 when a play is pending"),
    ("pending_values", 3, "pending play: size or width / 8, length / 12, value / 13"),
    ("top_kind", 4, "trick's last combination: none (leading) / set / sequence / bomb"),
    ("top_values", 3, "its size or width / 8, length / 12, value / 13"),
    ("top_seat", 3, "its player (offset one-hot)"),
    ("trick_cards", 54, "every card of the open trick"),
    ("played_cards", 54, "every card out of the hands this round (open trick and captured piles)"),
    ("faces_held", 9, "face cards each offset still holds (J, Q, K; public)"),
    ("hand_sizes", 3, "cards held per offset / 17"),
    ("out", 3, "offset has gone out this round"),
    ("first_out", 3, "offset went out first (one-hot)"),
    ("bets", 12, "per offset: not decided / 0 / 15 / 30 (one-hot)"),
    ("captured_points", 3, "card points captured this round per offset / 50"),
    ("going_out", 3, "going-out points this round per offset / 85"),
    ("bet_points", 3, "bet points this round per offset / 90"),
    ("totals", 3, "game totals per offset / target"),
    ("last_round", 3, "last completed round's scores per offset / 100"),
    ("passes", 1, "consecutive passes since the last combination / 2"),
    ("stage", 3, "decision: bet / main / card (one-hot)"),
    ("haggis_size", 1, "cards in the Haggis / 8"),
    ("misc", 3, "3 players (1/0), round / 20, target / 350"),
)
OBS_DIM = sum(size for _, size, _ in OBSERVATION_LAYOUT)
OFFSETS = {}
_at = 0
for _name, _size, _ in OBSERVATION_LAYOUT:
    OFFSETS[_name] = (_at, _at + _size)
    _at += _size
#: state(): every seat's hand (54 each, absolute seats), the Haggis (45), then the acting seat's observation.
STATE_DIM = MAX_SEATS * N_CARD_SLOTS + N_NUMBER_CARDS + OBS_DIM


def _slot(card: int, seat: int, n: int) -> int:
    """Index of ``card`` in a 54-entry card vector seen from ``seat``."""
    if card < FIRST_FACE:
        return card
    owner = (card - FIRST_FACE) // 3
    return N_NUMBER_CARDS + 3 * ((owner - seat) % n) + rank_of(card) - 11


#: ``_SLOTS[n][seat][card] == _slot(card, seat, n)`` (a lookup table of every card id)
_SLOTS = {n: [[_slot(c, seat, n) for c in range(N_CARD_SLOTS)] for seat in range(n)] for n in (2, 3)}


def _own(card: int) -> int:
    return card if card < FIRST_FACE else N_NUMBER_CARDS + rank_of(card) - 11


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
    seat (its chosen shape and cards), or ``None``. Built from one list of indices set to 1 and one of
    (index, value) pairs, written at the end (two numpy writes)."""
    g = view._game
    seat, n = view.seat, g.n_players
    ones: list[int] = []
    at: list[int] = []
    vals: list[float] = []

    def put(name, values):  # values of the part ``name`` and of the parts right after it
        lo = OFFSETS[name][0]
        at.extend(range(lo, lo + len(values)))
        vals.extend(values)

    def offs(x):
        return [x[(seat + k) % n] if k < n else 0 for k in range(MAX_SEATS)]

    lo = OFFSETS["hand"][0]
    ones += [lo + _own(c) for c in g._hands[seat]]
    pending = decision.pending if decision is not None else None
    if pending is not None:
        code, cards = pending
        lo = OFFSETS["pending_cards"][0]
        ones += [lo + c for c in cards]
        from .actions import BOMB_BASE, SEQ_BASE, SET_BASE, N_VALUES, N_LENGTHS
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
    kind, tv = _combo_parts(top)
    put("top_kind", kind)
    put("top_values", tv)
    if g._trick:
        ones.append(OFFSETS["top_seat"][0] + (g._trick[-1][0] - seat) % n)
    slots = _SLOTS[n][seat]
    trick = [slots[c] for _, p, _ in g._trick for c in p.cards]
    lo = OFFSETS["trick_cards"][0]
    ones += [lo + k for k in trick]
    lo = OFFSETS["played_cards"][0]
    ones += [lo + k for k in trick]
    ones += [lo + slots[c] for cs in g._captured for c in cs]
    lo = OFFSETS["faces_held"][0]
    for s in range(n):
        for c in g._hands[s]:
            if c >= FIRST_FACE:
                ones.append(lo + 3 * ((s - seat) % n) + rank_of(c) - 11)
    # hand_sizes and out lie side by side, as do captured_points, going_out, bet_points and totals
    put("hand_sizes", [x / 17 for x in offs([len(h) for h in g._hands])]
        + offs([1.0 if s in g._out else 0.0 for s in range(n)]))
    if g._out:
        ones.append(OFFSETS["first_out"][0] + (g._out[0] - seat) % n)
    lo = OFFSETS["bets"][0]
    for k in range(n):
        b = g._bets[(seat + k) % n]
        ones.append(lo + 4 * k + (0 if b is None else 1 + (0, 15, 30).index(b)))
    target = g.config.target
    put("captured_points", [x / 50 for x in offs(g.captured_points())] + [x / 85 for x in offs(g._going_out)]
        + [x / 90 for x in offs(g._bet_points)] + [x / target for x in offs(g.totals)])
    if g._round_scores:
        put("last_round", [x / 100 for x in offs(g._round_scores[-1])])
    put("passes", [g._passes / 2])
    if not g.game_over and g.current == seat:
        ones.append(OFFSETS["stage"][0] + (0 if g._bets[seat] is None else (2 if pending is not None else 1)))
    put("haggis_size", [len(g._haggis) / 8])
    put("misc", [1.0 if n == 3 else 0.0, g.round / 20, g.config.target / 350])
    obs = np.zeros(OBS_DIM, np.float32)
    obs[at] = vals
    obs[ones] = 1
    return np.clip(obs, -OBS_BOUND, OBS_BOUND)


def state(game, decision=None) -> np.ndarray:
    """Full-information state, float32 ``(STATE_DIM,)``: every hand, the Haggis, then the observation of
    the seat to act (seat 0 once the game is over)."""
    from .view import HaggisSeatView
    out = np.zeros(STATE_DIM, np.float32)
    n = game.n_players
    for s in range(n):
        for c in game._hands[s]:
            out[s * N_CARD_SLOTS + _slot(c, 0, n)] = 1
    base = MAX_SEATS * N_CARD_SLOTS
    for c in game._haggis:
        out[base + c] = 1
    seat = 0 if game.game_over else game.current
    out[base + N_NUMBER_CARDS:] = observe(HaggisSeatView(game, seat), decision)
    return out


__all__ = ["MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_BOUND", "OBS_DIM", "OFFSETS", "STATE_DIM", "observe", "state"]
