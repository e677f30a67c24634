"""The Seals observation vector (float32) and the full-information state, seats relative to the observer.

:func:`observe` reads only a :class:`~seers_env.seals.view.SealsSeatView`: hands, the row, Marks and the
pile's cards are public (rules section 3 [ruling]); the pile's order never enters it. Relative seat
``r`` is seat ``(observer + r) % n`` (``r = 0`` the observer, then clockwise); seats past ``n`` are zeros.
Card ids ``0..54`` as in :mod:`seers_env.seals.cards` (``colour * 11 + symbol``).

Layout (:data:`OBSERVATION_LAYOUT`, ``name: (offset, length)``; 4 seat slots):

================  ======  ==============================================================================
part              length  meaning
================  ======  ==============================================================================
row               55      1 for each face-up card
hands             220     per relative seat (55 each): 1 for each card in that hand
pile_cards        55      1 for each card still in the draw pile (its order is hidden)
pile_size         1       cards in the pile / 55
symbol_counts     44      per relative seat (11 each): cards of each symbol (1..10, Coin) in hand / 5
marks             4       per relative seat: Marks so far / 5
last_round        4       per relative seat: Marks won in the last completed round / 5
playing           4       per relative seat: 1 if it plays this round (0: sits out a tie-break round)
current           4       one-hot relative seat to act (all 0 once the game is over)
start_player      4       one-hot relative first player of this round
counter           1       Marks left in the round counter / n_rounds
round             1       rounds played (tie-breaks included) / (n_rounds + max_tie_break_rounds)
tie_breaks        1       tie-break rounds started / max(1, max_tie_break_rounds)
n_players         3       one-hot 2..4
turns             1       takes this round / max_turns_per_round
stage             2       one-hot decision of the observer: take, declare (all 0: not to act)
================  ======  ==============================================================================

:data:`OBS_DIM` is 404; every value lies in ``[0, OBS_BOUND]`` (clipped; Marks are unbounded in
principle). :func:`observe_into` writes the same rows for many games at once into a given batch array (the
batch API's path, :mod:`seers_env.seals.vector`). :func:`state` (full information, for centralised critics): the acting seat's observation,
then the pile order, 55 values: ``(position + 1) / 55`` for each card in the pile (top card ``1/55``), 0
for the others; :data:`STATE_DIM` is 459.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..protocol import check_seat
from .cards import N_CARDS, N_COLOURS, N_SYMBOLS
from .game import PHASE_DECLARE, PHASE_TAKE, SealsGame
from .rulings import MARKS_TO_WIN, MAX_PLAYERS, MIN_PLAYERS
from .view import SealsSeatView

MAX_SEATS = MAX_PLAYERS
OBS_BOUND = 50.0

_PARTS = (
    ("row", N_CARDS), ("hands", MAX_SEATS * N_CARDS), ("pile_cards", N_CARDS), ("pile_size", 1),
    ("symbol_counts", MAX_SEATS * N_SYMBOLS), ("marks", MAX_SEATS), ("last_round", MAX_SEATS),
    ("playing", MAX_SEATS), ("current", MAX_SEATS), ("start_player", MAX_SEATS), ("counter", 1), ("round", 1),
    ("tie_breaks", 1), ("n_players", MAX_PLAYERS - MIN_PLAYERS + 1), ("turns", 1), ("stage", 2),
)


def _layout() -> dict[str, tuple[int, int]]:
    out, at = {}, 0
    for name, length in _PARTS:
        out[name] = (at, length)
        at += length
    return out


#: ``name -> (offset, length)`` of every part of the observation (module docstring).
OBSERVATION_LAYOUT: dict[str, tuple[int, int]] = _layout()
OBS_DIM = sum(length for _, length in _PARTS)
STATE_DIM = OBS_DIM + N_CARDS
assert OBS_DIM == 404


def observe(view: SealsSeatView) -> np.ndarray:
    """The observation of ``view.seat``: float32 ``(OBS_DIM,)``, a new array (layout: module docstring)."""
    if not isinstance(view, SealsSeatView):
        raise TypeError(f"observe() takes a SealsSeatView, got {type(view).__name__}")
    L = OBSERVATION_LAYOUT
    obs = np.zeros(OBS_DIM, np.float32)
    n, me = view.n_players, view.seat
    cfg = view.config

    def rel(s: int) -> int:
        return (s - me) % n

    obs[L["row"][0] + np.array(view.row, dtype=np.int64)] = 1.0
    hands = view.hands
    for s, h in enumerate(hands):
        r = rel(s)
        obs[L["hands"][0] + r * N_CARDS + np.array(h, dtype=np.int64)] = 1.0
        counts = np.bincount(np.array(h, dtype=np.int64) % N_SYMBOLS, minlength=N_SYMBOLS)
        o = L["symbol_counts"][0] + r * N_SYMBOLS
        obs[o:o + N_SYMBOLS] = counts / 5.0
    obs[L["pile_cards"][0] + np.array(view.pile_cards, dtype=np.int64)] = 1.0
    obs[L["pile_size"][0]] = view.pile_size / N_CARDS
    totals = view.totals
    last = view.round_scores[-1] if view.round_scores else [0] * n
    playing = view.playing
    for s in range(n):
        r = rel(s)
        obs[L["marks"][0] + r] = totals[s] / MARKS_TO_WIN
        obs[L["last_round"][0] + r] = last[s] / MARKS_TO_WIN
        obs[L["playing"][0] + r] = float(playing[s])
    if not view.game_over:
        obs[L["current"][0] + rel(view.current)] = 1.0
        if view.current == me:
            obs[L["stage"][0] + (0 if view.phase == PHASE_TAKE else 1)] = 1.0
    obs[L["start_player"][0] + rel(view.start_player)] = 1.0
    obs[L["counter"][0]] = view.counter / cfg.n_rounds
    obs[L["round"][0]] = view.round / (cfg.n_rounds + cfg.max_tie_break_rounds)
    obs[L["tie_breaks"][0]] = view.tie_breaks / max(1, cfg.max_tie_break_rounds)
    obs[L["n_players"][0] + n - MIN_PLAYERS] = 1.0
    obs[L["turns"][0]] = view.turns / cfg.max_turns_per_round
    np.clip(obs, 0.0, OBS_BOUND, out=obs)
    return obs


_ROW, _HANDS, _PILE, _PILE_SIZE, _SYMBOL_COUNTS, _MARKS, _LAST_ROUND, _PLAYING, _CURRENT, _START, _COUNTER, \
    _ROUND, _TIE_BREAKS, _N_PLAYERS, _TURNS, _STAGE = (OBSERVATION_LAYOUT[name][0] for name, _ in _PARTS)


#: ``_SEGMENT_STARTS[n][me]``: the first column of the row's cards, then of each seat's hand (by absolute seat,
#: placed at its relative seat ``(seat - me) % n``) in ``me``'s observation of an ``n``-player game.
_SEGMENT_STARTS = {n: [[_ROW] + [_HANDS + (s - me) % n * N_CARDS for s in range(n)] for me in range(n)]
                   for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
#: ``_PADS[n]``: zeros for the relative seats an ``n``-player game does not fill.
_PADS = {n: [0] * (MAX_SEATS - n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def observe_into(out: np.ndarray, games: Sequence[SealsGame], seats: Sequence[int] | None = None) -> np.ndarray:
    """Write many observations at once: row ``i`` of ``out`` becomes
    ``observe(SealsSeatView(games[i], seats[i]))`` (bit for bit), by default of each game's seat to act.

    The batch form of :func:`observe`: the Python loop only lists each game's card positions and numbers;
    the one-hot cards, symbol counts, scaled numbers and clipping are one NumPy operation over the batch.
    Reads only what every seat sees (the pile as a set of cards; module docstring).

    Args:
        out: float32 ``(len(games), OBS_DIM)``, overwritten (no other values survive).
        games: the games (any configs, over or not); not changed.
        seats: one observing seat per game (ints in ``0..n_players - 1``), or None for ``game.current``.

    Returns:
        ``out``.

    Raises:
        ValueError: ``out`` not float32 of that shape, ``seats`` of another length or a seat out of range.
        TypeError: a game that is not a :class:`~seers_env.seals.game.SealsGame`, or a seat that is not an
            integer (bools, floats, strings and ``numpy.timedelta64`` refused, as :func:`observe`'s
            :class:`~seers_env.seals.view.SealsSeatView` refuses them).
    """
    n_rows = len(games)
    if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (n_rows, OBS_DIM):
        raise ValueError(f"out must be a float32 array of shape ({n_rows}, {OBS_DIM}), got "
                         f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
    for g in games:
        if not isinstance(g, SealsGame):
            raise TypeError(f"observe_into() takes SealsGame objects, got {type(g).__name__}")
    if seats is None:
        seats = [g.current for g in games]
    else:
        seats = list(seats)
        if len(seats) != n_rows:
            raise ValueError(f"seats has {len(seats)} entries for {n_rows} games")
        seats = [check_seat(s, g.n_players) for g, s in zip(games, seats)]  # as SealsSeatView checks them
    out.fill(0.0)
    if not n_rows:
        return out
    # the cards of the row and of each hand, listed game after game (segments: the row, then seat 0, 1, ...)
    cards: list[int] = []
    ns, lengths, starts, scores, n_scores, playing = [], [], [], [], [], []
    for g, me in zip(games, seats):  # the game's lists are read, never changed
        row, hands = g._row, g._hands
        n = len(hands)
        ns.append(n)
        cards += row
        for hand in hands:
            cards += hand
        lengths.append(len(row))
        lengths += map(len, hands)
        starts += _SEGMENT_STARTS[n][me]
        rounds = g._round_scores
        scores += rounds
        n_scores.append(len(rounds))
        playing += g._playing
    rows = np.arange(n_rows)
    lengths = np.array(lengths)
    n = np.array(ns)
    seg_row = np.repeat(rows, n + 1)
    out[np.repeat(seg_row, lengths), np.array(cards, np.int64) + np.repeat(np.array(starts), lengths)] = 1.0
    hands = out[:, _HANDS:_HANDS + MAX_SEATS * N_CARDS].reshape(n_rows, MAX_SEATS, N_CARDS)
    # every card is in the row, a hand or the pile (sections 2 and 3; from_dict checks it): the pile is the rest
    pile = out[:, _PILE:_PILE + N_CARDS]
    np.subtract(1.0, out[:, _ROW:_ROW + N_CARDS], out=pile)
    pile -= hands.sum(axis=1)
    out[:, _PILE_SIZE] = pile.sum(axis=1, dtype=np.float64) / N_CARDS
    by_symbol = hands.reshape(n_rows, MAX_SEATS, N_COLOURS, N_SYMBOLS).sum(axis=2, dtype=np.float64)
    out[:, _SYMBOL_COUNTS:_SYMBOL_COUNTS + MAX_SEATS * N_SYMBOLS] = by_symbol.reshape(n_rows, -1) / 5.0

    # per-seat numbers by absolute seat (row 0 of the round scores stands for "no round yet"), then rotated
    table = np.zeros((len(scores) + 1, MAX_SEATS), np.int64)
    if scores and min(ns) == max(ns):
        table[1:, :ns[0]] = scores
    elif scores:
        table[1:] = [r + _PADS[len(r)] for r in scores]
    n_scores = np.array(n_scores)
    ends = np.cumsum(n_scores)
    running = np.cumsum(table, axis=0)
    totals = running[ends] - running[ends - n_scores]
    last = np.where((n_scores > 0)[:, None], table[ends], 0)
    me = np.array(seats)
    rel = np.arange(MAX_SEATS)
    seat_of_rel = (me[:, None] + rel) % n[:, None]  # relative seat r is seat (me + r) % n; r >= n stays 0
    here = rel < n[:, None]
    rows_2d = rows[:, None]
    out[:, _MARKS:_MARKS + MAX_SEATS] = np.where(here, totals[rows_2d, seat_of_rel], 0) / MARKS_TO_WIN
    out[:, _LAST_ROUND:_LAST_ROUND + MAX_SEATS] = np.where(here, last[rows_2d, seat_of_rel], 0) / MARKS_TO_WIN
    first_seat = np.cumsum(n) - n  # of each game in the flat list of every game's seats
    out[:, _PLAYING:_PLAYING + MAX_SEATS] = np.where(here, np.array(playing)[first_seat[:, None] + seat_of_rel], 0)

    current = np.array([g.current for g in games])
    on = np.array([not g.game_over for g in games])
    out[rows[on], _CURRENT + (current - me)[on] % n[on]] = 1.0
    to_act = on & (current == me)
    take = np.array([g.phase == PHASE_TAKE for g in games])
    out[rows[to_act], _STAGE + np.where(take, 0, 1)[to_act]] = 1.0
    out[rows, _START + (np.array([g.start_player for g in games]) - me) % n] = 1.0
    cfgs = [g.config for g in games]
    n_rounds = np.array([c.n_rounds for c in cfgs])
    most_tie_breaks = np.array([c.max_tie_break_rounds for c in cfgs])
    out[:, _COUNTER] = np.array([g.counter for g in games]) / n_rounds
    out[:, _ROUND] = np.array([g.round for g in games]) / (n_rounds + most_tie_breaks)
    out[:, _TIE_BREAKS] = np.array([g.tie_breaks for g in games]) / np.maximum(1, most_tie_breaks)
    out[rows, _N_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[:, _TURNS] = np.array([g.turns for g in games]) / np.array([c.max_turns_per_round for c in cfgs])
    np.clip(out, 0.0, OBS_BOUND, out=out)
    return out


def state(game: SealsGame) -> np.ndarray:
    """Full-information state: float32 ``(STATE_DIM,)`` (module docstring), a new array."""
    out = np.zeros(STATE_DIM, np.float32)
    out[:OBS_DIM] = observe(SealsSeatView(game, game.current))
    pile = game.pile
    if pile:
        out[OBS_DIM + np.array(pile, dtype=np.int64)] = (np.arange(len(pile)) + 1) / N_CARDS
    return out


__all__ = ["MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_BOUND", "OBS_DIM", "PHASE_DECLARE", "STATE_DIM", "observe",
           "observe_into", "state"]
