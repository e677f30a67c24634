"""Seals features for the play-scoring learner (rules ``shared/rules/seals.md``): a seat view's state
vector and one row per legal play (takes, section 3.2, and declarations, section 4). No RL imports.

Everything is read from a :class:`~seers_env.seals.view.SealsSeatView` (hands, row, Marks and the pile's
cards are public, section 3 [ruling]; the pile's order never enters). Relative seat ``r`` is seat
``(seat + r) % n`` (``r = 0`` the observer, then clockwise); slots past ``n`` are zeros. Only symbols
matter for sets, so hands are summarised by their 11 symbol counts (numbers 1..10, Coin). A set kind's
*need* is the cards the hand lacks for it (the run: its missing numbers); it is *reachable* while the
cards outside every hand (pile and row, :data:`free`) still hold them.

**State** (:func:`encode_state`, float32 ``(STATE_DIM,)``, :data:`STATE_LAYOUT`):

==============  ======  ==========================================================================
part            length  meaning
==============  ======  ==========================================================================
seats           4 x 39  per relative seat: symbol counts / 4 (11), need per set kind / 4 (the run
                        / 10; 12), reachable per kind (12), hand size / 20, Marks / 5, plays this
                        round (0: sits out a tie-break), the most Marks one take from the current
                        row would let it declare / 4
free            11      symbol counts of the cards outside every hand / 5
row_symbols     11      symbol counts of the face-up row / 4
row_colours     5       colour counts of the row / 4
pile_size       1       cards in the pile / 55
counter         1       Marks left in the round counter / n_rounds
round           1       rounds played / (n_rounds + max_tie_break_rounds)
tie_break       1       1 in a tie-break round
n_players       3       one-hot 2..4
stage           2       one-hot decision: take, declare
turns           1       takes this round / 60 (clipped at 1)
lead            1       own Marks minus the most Marks of another seat, / 5, clipped to [-1, 1]
==============  ======  ==========================================================================

**Play rows** (:func:`encode_plays`, float32 ``(n_plays, PLAY_DIM)``, :data:`PLAY_LAYOUT`):

==============  ======  ==========================================================================
part            length  meaning
==============  ======  ==========================================================================
kind            3       one-hot: take a colour, take a symbol, declare
taken           1       cards the take picks up / 4
taken_symbols   11      their symbol counts / 4
taken_colours   5       their colour counts / 4
needs_after     12      own need per set kind after the take (/ 4; the run / 10)
min_need_after  1       the smallest of them / 4
completes       1       the hand holds a set after the take (it can win the round now)
marks_after     1       Marks of its best declaration then / 4
value_gain      1       :func:`hand_value` after minus before (closeness 0.3)
left            1       cards the take leaves face up / 4
threats         3       per other relative seat 1..3: the most Marks one take from the cards left
                        face up would let it declare / 4
denial          3       per other relative seat: the :func:`hand_value` it loses because the take
                        removes cards it could use
declare_marks   1       declaration: its Marks / 4
decline         1       declaration: declares nothing
declare_kinds   12      declaration: the set kinds laid down (1 per four-of-a-kind; the run's slot holds
                        the number of disjoint runs, 0..5)
declare_sets    1       declaration: sets laid down / 2 (every run counted)
==============  ======  ==========================================================================

Version :data:`FEATURE_VERSION` (model files record it; a change of layout or meaning raises it). The
declarations of several runs (sections 3.3 and 4) kept version 1: the layout is the same and a
declaration of 0 or 1 run gives the same row as before, so the shipped models still load.
"""

from __future__ import annotations

import numpy as np

from .cards import COIN, N_CARDS, N_COLOURS, N_NUMBERS, N_SET_KINDS, N_SYMBOLS, RUN, SET_MARKS
from .game import PHASE_DECLARE
from .moves import mask_marks
from .plays import DECLARE, TAKE_COLOUR
from .rulings import FOUR_OF_A_KIND_SIZE, MARKS_TO_WIN, MAX_PLAYERS, MIN_PLAYERS

#: Version of the layouts below (model files record ``seals-play-features-v<FEATURE_VERSION>``).
FEATURE_VERSION = 1
MAX_SEATS = MAX_PLAYERS
#: Closeness of :func:`hand_value` (a reachable kind lacking ``k`` cards is worth ``marks * 0.3 ** k``).
CLOSENESS = 0.3
SEAT_BLOCK = N_SYMBOLS + 2 * N_SET_KINDS + 4  # 39
_FOUR = FOUR_OF_A_KIND_SIZE


def _layout(parts) -> dict[str, tuple[int, int]]:
    out, at = {}, 0
    for name, length in parts:
        out[name] = (at, length)
        at += length
    return out


#: ``name -> (offset, length)`` of the state vector (module docstring).
STATE_LAYOUT = _layout((
    ("seats", MAX_SEATS * SEAT_BLOCK), ("free", N_SYMBOLS), ("row_symbols", N_SYMBOLS), ("row_colours", N_COLOURS),
    ("pile_size", 1), ("counter", 1), ("round", 1), ("tie_break", 1),
    ("n_players", MAX_PLAYERS - MIN_PLAYERS + 1), ("stage", 2), ("turns", 1), ("lead", 1)))
#: ``name -> (offset, length)`` of a play row (module docstring).
PLAY_LAYOUT = _layout((
    ("kind", 3), ("taken", 1), ("taken_symbols", N_SYMBOLS), ("taken_colours", N_COLOURS),
    ("needs_after", N_SET_KINDS), ("min_need_after", 1), ("completes", 1), ("marks_after", 1), ("value_gain", 1),
    ("left", 1), ("threats", MAX_SEATS - 1), ("denial", MAX_SEATS - 1), ("declare_marks", 1), ("decline", 1),
    ("declare_kinds", N_SET_KINDS), ("declare_sets", 1)))
STATE_DIM = sum(n for _, n in STATE_LAYOUT.values())
PLAY_DIM = sum(n for _, n in PLAY_LAYOUT.values())
assert (STATE_DIM, PLAY_DIM) == (194, 58)

_NEED_SCALE = np.array([4.0] * N_SYMBOLS + [10.0], np.float32)
_MARKS = np.array(SET_MARKS, np.float64)


def needs(counts) -> list[int]:
    """Cards missing for each set kind ``0..11`` from symbol ``counts`` (11 ints; section 4)."""
    out = [_FOUR - c if c < _FOUR else 0 for c in counts]
    out.append(sum(1 for k in range(N_NUMBERS) if counts[k] == 0))
    return out


def reachable(counts, free) -> list[bool]:
    """Per set kind: whether the cards outside every hand (symbol counts ``free``) can still complete it."""
    out = [counts[k] + free[k] >= _FOUR for k in range(N_SYMBOLS)]
    out.append(all(counts[k] > 0 or free[k] > 0 for k in range(N_NUMBERS)))
    return out


def hand_value(counts, free, closeness: float = CLOSENESS) -> float:
    """Sum over the reachable set kinds of ``marks * closeness ** need``."""
    v = 0.0
    for kind, (need, ok) in enumerate(zip(needs(counts), reachable(counts, free))):
        if ok:
            v += SET_MARKS[kind] * closeness ** need
    return v


def best_marks(counts) -> int:
    """Marks of the best declaration the symbol ``counts`` allow (0 without a set; several disjoint runs
    counted, sections 3.3 and 4): the best over ``r`` runs, ``r`` in ``0..`` the fewest cards of a number,
    of ``4 r`` plus every four-of-a-kind still disjoint from them (a number's four beside ``r`` runs needs
    ``4 + r`` of its cards), without listing the declarations (as the compiled
    :func:`seers_env.seals.kernel.max_marks_counts`; the same as the best of
    :func:`seers_env.seals.moves.count_declarations`)."""
    coins = SET_MARKS[COIN] if counts[COIN] >= _FOUR else 0
    return max(coins + SET_MARKS[RUN] * r + sum(SET_MARKS[k] for k in range(N_NUMBERS) if counts[k] >= _FOUR + r)
               for r in range(min(counts[k] for k in range(N_NUMBERS)) + 1))


def _symbols(cards) -> list[int]:
    counts = [0] * N_SYMBOLS
    for c in cards:
        counts[c % N_SYMBOLS] += 1
    return counts


def _take_groups(row) -> list[tuple[int, int, list[int]]]:
    """``(kind, value, cards)`` of every take the row allows, in action-id order."""
    out = []
    for colour in range(N_COLOURS):
        cards = [c for c in row if c // N_SYMBOLS == colour]
        if cards:
            out.append((TAKE_COLOUR, colour, cards))
    for symbol in range(N_SYMBOLS):
        cards = [c for c in row if c % N_SYMBOLS == symbol]
        if cards:
            out.append((1, symbol, cards))
    return out


def immediate_marks(counts, row) -> int:
    """The most Marks one take from ``row`` (card ids) would let a hand of symbol ``counts`` declare."""
    best = 0
    for _, _, cards in _take_groups(row):
        after = list(counts)
        for c in cards:
            after[c % N_SYMBOLS] += 1
        if min(needs(after)) == 0:
            best = max(best, best_marks(after))
    return best


def _rel_seats(view) -> list[int]:
    n = view.n_players
    return [(view.seat + r) % n for r in range(n)]


def encode_state(view) -> np.ndarray:
    """The state vector of ``view.seat``: float32 ``(STATE_DIM,)``, a new array (module docstring)."""
    L = STATE_LAYOUT
    out = np.zeros(STATE_DIM, np.float32)
    n, cfg = view.n_players, view.config
    hands, row, pile = view.hands, view.row, view.pile_cards
    free = _symbols(pile + row)
    totals, playing = view.totals, view.playing
    for r, s in enumerate(_rel_seats(view)):
        counts = _symbols(hands[s])
        o = L["seats"][0] + r * SEAT_BLOCK
        out[o:o + N_SYMBOLS] = np.asarray(counts, np.float32) / 4.0
        o += N_SYMBOLS
        out[o:o + N_SET_KINDS] = np.asarray(needs(counts), np.float32) / _NEED_SCALE
        o += N_SET_KINDS
        out[o:o + N_SET_KINDS] = reachable(counts, free)
        o += N_SET_KINDS
        out[o] = len(hands[s]) / 20.0
        out[o + 1] = totals[s] / MARKS_TO_WIN
        out[o + 2] = float(playing[s])
        out[o + 3] = immediate_marks(counts, row) / 4.0 if playing[s] else 0.0
    o = L["free"][0]
    out[o:o + N_SYMBOLS] = np.asarray(free, np.float32) / 5.0
    o = L["row_symbols"][0]
    out[o:o + N_SYMBOLS] = np.asarray(_symbols(row), np.float32) / 4.0
    o = L["row_colours"][0]
    for c in row:
        out[o + c // N_SYMBOLS] += 0.25
    out[L["pile_size"][0]] = len(pile) / N_CARDS
    out[L["counter"][0]] = view.counter / cfg.n_rounds
    out[L["round"][0]] = view.round / (cfg.n_rounds + cfg.max_tie_break_rounds)
    out[L["tie_break"][0]] = float(view.tie_breaks > 0)
    out[L["n_players"][0] + n - MIN_PLAYERS] = 1.0
    if not view.game_over and view.current == view.seat:
        out[L["stage"][0] + (1 if view.phase == PHASE_DECLARE else 0)] = 1.0
    out[L["turns"][0]] = min(1.0, view.turns / 60.0)
    others = [totals[s] for s in range(n) if s != view.seat]
    out[L["lead"][0]] = float(np.clip((totals[view.seat] - max(others)) / MARKS_TO_WIN, -1.0, 1.0))
    return out


def encode_plays(view, legal: list) -> np.ndarray:
    """One row per play of ``legal`` (takes of the current row or declarations of the seat's hand):
    float32 ``(len(legal), PLAY_DIM)`` (module docstring)."""
    L = PLAY_LAYOUT
    out = np.zeros((len(legal), PLAY_DIM), np.float32)
    if not legal:
        return out
    seat = view.seat
    hands, row = view.hands, view.row
    if legal[0].kind == DECLARE:
        for i, p in enumerate(legal):
            out[i, L["kind"][0] + 2] = 1.0
            kinds = p.set_kinds()  # RUN once per run
            out[i, L["declare_marks"][0]] = mask_marks(p.value) / 4.0
            out[i, L["decline"][0]] = float(not kinds)
            for k in kinds:
                out[i, L["declare_kinds"][0] + k] += 1.0
            out[i, L["declare_sets"][0]] = len(kinds) / 2.0
        return out
    free = _symbols(view.pile_cards + row)
    rel = _rel_seats(view)
    playing = view.playing
    mine = _symbols(hands[seat])
    before = hand_value(mine, free)
    others = [(r, s, _symbols(hands[s])) for r, s in enumerate(rel) if r > 0 and playing[s]]
    others_before = {s: hand_value(c, free) for _, s, c in others}
    for i, p in enumerate(legal):
        if p.kind == TAKE_COLOUR:
            taken = [c for c in row if c // N_SYMBOLS == p.value]
        else:
            taken = [c for c in row if c % N_SYMBOLS == p.value]
        left = [c for c in row if c not in taken]
        after, free_after = list(mine), list(free)
        out[i, L["kind"][0] + (0 if p.kind == TAKE_COLOUR else 1)] = 1.0
        out[i, L["taken"][0]] = len(taken) / 4.0
        for c in taken:
            sym = c % N_SYMBOLS
            after[sym] += 1
            free_after[sym] -= 1
            out[i, L["taken_symbols"][0] + sym] += 0.25
            out[i, L["taken_colours"][0] + c // N_SYMBOLS] += 0.25
        need = needs(after)
        o = L["needs_after"][0]
        out[i, o:o + N_SET_KINDS] = np.asarray(need, np.float32) / _NEED_SCALE
        out[i, L["min_need_after"][0]] = min(need) / 4.0
        if min(need) == 0:
            out[i, L["completes"][0]] = 1.0
            out[i, L["marks_after"][0]] = best_marks(after) / 4.0
        out[i, L["value_gain"][0]] = hand_value(after, free_after) - before
        out[i, L["left"][0]] = len(left) / 4.0
        for r, s, counts in others:
            out[i, L["threats"][0] + r - 1] = immediate_marks(counts, left) / 4.0
            out[i, L["denial"][0] + r - 1] = others_before[s] - hand_value(counts, free_after)
    return out


__all__ = ["CLOSENESS", "FEATURE_VERSION", "PLAY_DIM", "PLAY_LAYOUT", "STATE_DIM", "STATE_LAYOUT", "best_marks",
           "encode_plays", "encode_state", "hand_value", "immediate_marks", "needs", "reachable"]
