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
principle). :func:`state` (full information, for centralised critics): the acting seat's observation,
then the pile order, 55 values: ``(position + 1) / 55`` for each card in the pile (top card ``1/55``), 0
for the others; :data:`STATE_DIM` is 459.
"""

from __future__ import annotations

import numpy as np

from .cards import N_CARDS, N_SYMBOLS
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


def state(game: SealsGame) -> np.ndarray:
    """Full-information state: float32 ``(STATE_DIM,)`` (module docstring), a new array."""
    out = np.zeros(STATE_DIM, np.float32)
    out[:OBS_DIM] = observe(SealsSeatView(game, game.current))
    pile = game.pile
    if pile:
        out[OBS_DIM + np.array(pile, dtype=np.int64)] = (np.arange(len(pile)) + 1) / N_CARDS
    return out


__all__ = ["MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_BOUND", "OBS_DIM", "PHASE_DECLARE", "STATE_DIM", "observe", "state"]
