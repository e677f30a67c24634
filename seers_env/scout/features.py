"""SCOUT features for play-scoring learners: one state vector per decision, one feature row per legal play.

As for Seers Catalog (:mod:`seers_env.features`), a learner in the style of DouZero (Zha et al., ICML
2021) or PerfectDou (Yang et al., NeurIPS 2022) scores every legal play with one shared network. This
module gives its input, built only from what the acting seat may know (a
:class:`~seers_env.scout.view.ScoutSeatView`, rules section 10):

* :func:`encode_state` -> float32 ``(STATE_DIM,)``: the seat's observation
  (:func:`seers_env.scout.observation.observe`, 849), then the unseen cards by number, a summary of the
  own hand's structure and a few table facts (:data:`STATE_LAYOUT`);
* :func:`encode_plays` -> float32 ``(len(plays), PLAY_DIM)``: one row per play of
  ``ScoutGame.legal_plays()``, in that order, so row ``j`` *is* play ``j`` (a Scout & Show, two catalogue
  actions in the AEC env, is one row here; :data:`PLAY_LAYOUT`).

The compiled batch API (:meth:`seers_env.scout.vector.ScoutVectorEnv.play_features`,
:mod:`seers_env.scout.kernel_features`) computes the same arrays bit for bit.

**Hand summary** (10 values, :func:`hand_summary`; of the own hand in the state, of the hand after the
play in each row), from the hand's top numbers ``v`` left to right: cards / 11; the fewest valid segments
(sets or runs, section 4) the hand splits into, left to right / 11; the longest set / 10 (a single card is
a set of 1); the longest run / 10 (0: none); starts of valid segments of 2+ cards / 11; of 3+ cards / 11;
isolated cards (in no valid segment of 2+ cards) / 11; the strongest valid segment: length / 10, 1 if a
set, lowest value / 10 (zeros for an empty hand).

:data:`STATE_LAYOUT` (``name: length``):

====================  ======  ===================================================================
observation           849     :func:`seers_env.scout.observation.observe` of the seat (main stage)
unseen_by_number      10      unseen cards (:meth:`ScoutSeatView.unseen_cards`) carrying number 1..10
                              on either end / 9
hand_summary          10      the own hand (see above)
shows_available       1       legal Show plays now / 20
scout_ends_round      1       1 when a plain Scout now would end the round (3-5 players, 6(b): the
                              next seat is the Active Set's owner)
owner_hand_size       1       the Active Set owner's hand size / 11 (0: no owner)
min_other_hand        1       the smallest other hand / 11
unseen_count          1       unseen cards / 45
hidden_in_hands       1       cards in other hands not known to the seat / 45
====================  ======  ===================================================================

:data:`PLAY_LAYOUT`:

====================  ======  ===================================================================
kind                  6       one-hot: KEEP, ROTATE, SHOW, SCOUT, SCOUT_SHOW, STOP
show_length           1       SHOW / SCOUT_SHOW: cards shown / 10
show_type             2       one-hot set (a single card is a set), run
show_low              1       lowest value shown / 10
show_start            1       start / cards of the hand it is shown from (after the scout for
                              SCOUT_SHOW)
show_margin           1       (cards shown - cards of the Active Set it beats) / 10
shed                  1       net cards leaving the hand / 10 (a Scout: -1)
collected             1       Active Set cards collected into the own score pile / 10 (+1 point each)
goes_out              1       1 when the hand is empty afterwards (round end (a))
ends_round            1       1 when the play surely ends the round as the seat knows: goes out, STOP,
                              a 3-5 player Scout after which the owner is next (6(b)), a 2-player
                              Scout after which the seat has no chip and no show (7(b)), or the
                              turn cap (section 6 [ruling])
scout_end             2       one-hot: the Active Set's left, right card scouted
scout_card            2       the scouted card as inserted: top / 10, bottom / 10
scout_flip            1       1 when the scouted card is turned over
scout_position        1       insert position / cards in hand before the scout
scout_joins           1       the longest valid segment holding the scouted card after the insert / 10
scout_shown           1       SCOUT_SHOW: the scouted card is part of the shown segment
owner_chip            1       1 when the play gives the Active Set's owner a Scout chip (3-5 players)
chips_after           1       own Scout chips after the play / 10
uses_scout_show       1       1 for a Scout & Show (its chip is spent this round)
active_after          3       the Active Set after the play: cards / 10, 1 if a set, lowest / 10
                              (zeros when there is none)
hand_after            10      hand summary of the hand after the play (ROTATE: the rotated hand)
====================  ======  ===================================================================

Rows of KEEP and ROTATE have only ``kind`` and ``hand_after`` set. Plain numpy (no RL imports);
:data:`FEATURE_VERSION` changes whenever a layout or a meaning changes.
"""

from __future__ import annotations

import numpy as np

from .cards import CARD_NUMBERS, FACE_BOTTOM, FACE_VALUE, N_CARDS, rotate_faces
from .moves import _extents, _segment_key, can_show, set_key
from .observation import OBS_DIM, observe
from .plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay
from .view import ScoutSeatView

#: Version of both layouts; model files record it.
FEATURE_VERSION = 1
#: Values of :func:`hand_summary`.
HAND_SUMMARY_DIM = 10
N_KINDS = 6

_STATE_PARTS = (
    ("observation", OBS_DIM), ("unseen_by_number", 10), ("hand_summary", HAND_SUMMARY_DIM),
    ("shows_available", 1), ("scout_ends_round", 1), ("owner_hand_size", 1), ("min_other_hand", 1),
    ("unseen_count", 1), ("hidden_in_hands", 1),
)
_PLAY_PARTS = (
    ("kind", N_KINDS), ("show_length", 1), ("show_type", 2), ("show_low", 1), ("show_start", 1),
    ("show_margin", 1), ("shed", 1), ("collected", 1), ("goes_out", 1), ("ends_round", 1), ("scout_end", 2),
    ("scout_card", 2), ("scout_flip", 1), ("scout_position", 1), ("scout_joins", 1), ("scout_shown", 1),
    ("owner_chip", 1), ("chips_after", 1), ("uses_scout_show", 1), ("active_after", 3),
    ("hand_after", HAND_SUMMARY_DIM),
)


def _layout(parts) -> list[tuple[str, int, int]]:
    out, off = [], 0
    for name, length in parts:
        out.append((name, off, length))
        off += length
    return out


#: ``(name, offset, length)`` of each part of :func:`encode_state`'s vector.
STATE_LAYOUT: list[tuple[str, int, int]] = _layout(_STATE_PARTS)
STATE_DIM: int = STATE_LAYOUT[-1][1] + STATE_LAYOUT[-1][2]
#: ``(name, offset, length)`` of each part of a row of :func:`encode_plays`.
PLAY_LAYOUT: list[tuple[str, int, int]] = _layout(_PLAY_PARTS)
PLAY_DIM: int = PLAY_LAYOUT[-1][1] + PLAY_LAYOUT[-1][2]
#: Offset of each part by name.
STATE_OFFSETS: dict[str, int] = {name: off for name, off, _ in STATE_LAYOUT}
PLAY_OFFSETS: dict[str, int] = {name: off for name, off, _ in PLAY_LAYOUT}
_S, _P = STATE_OFFSETS, PLAY_OFFSETS
_SCALE_COUNT = 11.0


def hand_summary_counts(values) -> tuple[int, ...]:
    """The integer facts of :func:`hand_summary` of a hand's top numbers (left to right): ``(cards,
    fewest segments, longest set, longest run, starts of 2+ segments, starts of 3+ segments, isolated cards,
    strongest length, strongest is a set, strongest lowest value)``."""
    v = list(values)
    n = len(v)
    if n == 0:
        return (0,) * HAND_SUMMARY_DIM
    ext, step = _extents(v)
    parts = 0
    s = 0
    while s < n:  # greedy longest-first: optimal, since every part of a valid segment is valid
        s += ext[s]
        parts += 1
    longest_set = max(ext[s] for s in range(n) if step[s] == 0)
    longest_run = max([ext[s] for s in range(n) if step[s] != 0] or [0])
    pairs = sum(1 for e in ext if e >= 2)
    triples = sum(1 for e in ext if e >= 3)
    isolated = sum(1 for k in range(n) if (k == 0 or abs(v[k] - v[k - 1]) > 1)
                   and (k == n - 1 or abs(v[k + 1] - v[k]) > 1))
    best = max(_segment_key(v, s, ext[s], step[s]) for s in range(n))
    return (n, parts, longest_set, longest_run, pairs, triples, isolated, best >> 5, (best >> 4) & 1, best & 15)


def hand_summary(values) -> list[float]:
    """The 10 hand-summary values of a hand's top numbers (module docstring), as Python floats."""
    c = hand_summary_counts(values)
    return [c[0] / _SCALE_COUNT, c[1] / _SCALE_COUNT, c[2] / 10.0, c[3] / 10.0, c[4] / _SCALE_COUNT,
            c[5] / _SCALE_COUNT, c[6] / _SCALE_COUNT, c[7] / 10.0, float(c[8]), c[9] / 10.0]


def _faces(pairs) -> list[int]:
    return [2 * c + (top != CARD_NUMBERS[c][0]) for c, top in pairs]


def _longest_holding(v: list[int], pos: int) -> int:
    """Length of the longest valid segment of ``v`` that holds index ``pos``."""
    c = v[pos]
    best = 1
    for st in (0, 1, -1):
        left = 0
        while pos - 1 - left >= 0 and v[pos - 1 - left] == c - st * (left + 1):
            left += 1
        right = 0
        while pos + 1 + right < len(v) and v[pos + 1 + right] == c + st * (right + 1):
            right += 1
        best = max(best, left + right + 1)
    return best


def _put_shape(row: np.ndarray, off: int, faces: list[int]) -> None:
    if faces:
        key = set_key(faces)
        row[off] = len(faces) / 10.0
        row[off + 1] = float((key >> 4) & 1)
        row[off + 2] = (key & 15) / 10.0


def encode_state(view: ScoutSeatView) -> np.ndarray:
    """The state vector of ``view.seat``: float32 ``(STATE_DIM,)``, :data:`STATE_LAYOUT` (module docstring).

    Raises:
        TypeError: ``view`` is not a :class:`~seers_env.scout.view.ScoutSeatView`.
    """
    if not isinstance(view, ScoutSeatView):
        raise TypeError(f"view must be a ScoutSeatView, got {type(view).__name__}")
    vec = np.zeros(STATE_DIM, np.float32)
    vec[:OBS_DIM] = observe(view)
    unseen = view.unseen_cards()
    by_number = [0] * 10
    for c in unseen:
        for x in CARD_NUMBERS[c]:
            by_number[x - 1] += 1
    o = _S["unseen_by_number"]
    for k in range(10):
        vec[o + k] = by_number[k] / 9.0
    vec[_S["hand_summary"]:_S["hand_summary"] + HAND_SUMMARY_DIM] = hand_summary(t for _, t in view.hand)
    seat, n = view.seat, view.n_players
    shows = sum(1 for p in view.legal_plays() if p.kind == SHOW)
    vec[_S["shows_available"]] = shows / 20.0
    owner = view.active_owner
    if n > 2 and view.phase == "play" and view.active and (seat + 1) % n == owner:
        vec[_S["scout_ends_round"]] = 1.0
    sizes = view.hand_sizes
    if owner >= 0:
        vec[_S["owner_hand_size"]] = sizes[owner] / _SCALE_COUNT
    vec[_S["min_other_hand"]] = min(sizes[s] for s in range(n) if s != seat) / _SCALE_COUNT
    vec[_S["unseen_count"]] = len(unseen) / float(N_CARDS)
    hidden = sum(sizes[s] - len(view.known_cards(s)) for s in range(n) if s != seat)
    vec[_S["hidden_in_hands"]] = hidden / float(N_CARDS)
    return vec


def encode_plays(view: ScoutSeatView, plays: list[ScoutPlay] | None = None) -> np.ndarray:
    """One feature row per play: float32 ``(len(plays), PLAY_DIM)``, :data:`PLAY_LAYOUT` (module docstring).

    Args:
        view: the acting seat's view.
        plays: plays from ``view.legal_plays()`` (the default: all of them, in that order); other plays
            are not checked.

    Raises:
        TypeError: ``view`` is not a :class:`~seers_env.scout.view.ScoutSeatView`.
    """
    if not isinstance(view, ScoutSeatView):
        raise TypeError(f"view must be a ScoutSeatView, got {type(view).__name__}")
    if plays is None:
        plays = view.legal_plays()
    rows = np.zeros((len(plays), PLAY_DIM), np.float32)
    hand = view.hand_faces()
    active = _faces(view.active)
    n, alen = len(hand), len(active)
    seat, n_players = view.seat, view.n_players
    owner = view.active_owner
    chips = view.chips[seat]
    cap_next = view.turns + 1 >= view.config.max_turns_per_round
    for j, play in enumerate(plays):
        row = rows[j]
        kind = play.kind
        row[_P["kind"] + kind] = 1.0
        new_hand, active_after, chips_after = hand, active, chips
        ends = False
        if kind == ROTATE:
            new_hand = rotate_faces(hand)
        elif kind in (SCOUT, SCOUT_SHOW):
            face = (active[0] if play.end == 0 else active[-1]) ^ play.flip
            rest = active[1:] if play.end == 0 else active[:-1]
            new_hand = hand[:play.position] + [face] + hand[play.position:]
            row[_P["scout_end"] + play.end] = 1.0
            row[_P["scout_card"]] = FACE_VALUE[face] / 10.0
            row[_P["scout_card"] + 1] = FACE_BOTTOM[face] / 10.0
            row[_P["scout_flip"]] = float(play.flip)
            row[_P["scout_position"]] = play.position / max(n, 1)
            row[_P["scout_joins"]] = _longest_holding([FACE_VALUE[f] for f in new_hand], play.position) / 10.0
            if n_players > 2:
                row[_P["owner_chip"]] = 1.0
            else:
                chips_after = chips - 1
            active_after = rest
            if kind == SCOUT:
                row[_P["shed"]] = -1 / 10.0
                if n_players > 2:
                    ends = (seat + 1) % n_players == owner
                else:
                    ends = (chips_after == 0 and bool(rest)
                            and not can_show([FACE_VALUE[f] for f in new_hand], set_key(rest)))
        if kind in (SHOW, SCOUT_SHOW):
            s, L = play.start, play.length
            source = new_hand
            seg = source[s:s + L]
            beaten = active_after
            new_hand = source[:s] + source[s + L:]
            key = set_key(seg)
            row[_P["show_length"]] = L / 10.0
            row[_P["show_type"] + (0 if (key >> 4) & 1 else 1)] = 1.0
            row[_P["show_low"]] = (key & 15) / 10.0
            row[_P["show_start"]] = s / len(source)
            row[_P["show_margin"]] = (L - len(beaten)) / 10.0
            row[_P["shed"]] = (L - (1 if kind == SCOUT_SHOW else 0)) / 10.0
            row[_P["collected"]] = len(beaten) / 10.0
            active_after = seg
            if not new_hand:
                row[_P["goes_out"]] = 1.0
                ends = True
            if kind == SCOUT_SHOW:
                row[_P["scout_shown"]] = float(s <= play.position < s + L)
                row[_P["uses_scout_show"]] = 1.0
        if kind == STOP:
            ends = True
        if kind not in (KEEP, ROTATE):
            if ends or cap_next:
                row[_P["ends_round"]] = 1.0
            row[_P["chips_after"]] = chips_after / 10.0
            _put_shape(row, _P["active_after"], active_after)
        row[_P["hand_after"]:_P["hand_after"] + HAND_SUMMARY_DIM] = hand_summary(FACE_VALUE[f] for f in new_hand)
    return rows


__all__ = ["FEATURE_VERSION", "HAND_SUMMARY_DIM", "PLAY_DIM", "PLAY_LAYOUT", "PLAY_OFFSETS", "STATE_DIM",
           "STATE_LAYOUT", "STATE_OFFSETS", "encode_plays", "encode_state", "hand_summary", "hand_summary_counts"]
