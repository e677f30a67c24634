"""The SCOUT observation vector (float32) and the full-information state, seats relative to the observer.

:func:`observe` reads only a :class:`~seers_env.scout.view.ScoutSeatView` (what the seat may know, rules
section 10), so nothing hidden can leak into it. Relative seat ``r`` is seat ``(observer + r) % n``
(``r = 0`` the observer; clockwise). Numbers ``1..10`` are written as ``number / 10`` (0: no card there).
A card id is ``0..44`` (:mod:`seers_env.scout.cards`).

Layout (:data:`OBSERVATION_LAYOUT`, ``name: offset, length``; ``H = 45`` hand slots, 10 Active Set slots,
``5`` seats):

==================  ======  =================================================================================
part                length  meaning
==================  ======  =================================================================================
hand                90      own hand, slot ``i`` (left to right) at ``2i``: top number / 10, bottom number / 10;
                            zeros past the hand's end. Stage 2 of Scout & Show: the hand after the scout
active              20      the Active Set, slot ``i`` as laid out: top / 10, bottom / 10 (stage 2: after the
                            scout)
active_shape        3       Active Set length / 10, 1 if a set (a single card is a set), lowest value / 10
active_owner        5       one-hot relative seat of the Active Set's owner, the last shower (kept when the set is
                            scouted away; all 0 before the round's first Show)
hand_sizes          5       relative hand sizes / 11 (stage 2: own size after the scout)
pile_sizes          5       relative score-pile sizes / 11
pile_cards          45      1 for each card id in some score pile this round (all were shown face up)
unseen              45      1 for each card id this seat has not seen: may be in another hand's hidden slots (or,
                            2 players, among the cards set aside / out of play)
chips               5       relative Scout chips held / 10, clipped to 50 (2 players: unspent own chips)
scout_show_used     5       relative flags: Scout & Show used this round
known_slots         360     per other seat ``r = 1..4`` (90 each): that hand's slots known from scouts this round,
                            slot ``i`` at ``2i``: top / 10, bottom / 10; zeros for hidden slots and past the end
                            (all zeros when ``public_scout_flip_and_position`` is off)
known_cards         180     per other seat ``r = 1..4`` (45 each): 1 for each card id known to be in that hand
                            (scouted into it this round, not shown since)
totals              5       relative game totals (completed rounds) / 20, clipped to +/-50
last_round          5       relative scores of the last completed round / 20, clipped to +/-50
round               2       round index / n_rounds; 1 if this is the last round
phase               2       one-hot: rotation phase (keep/rotate decisions), play phase
current             5       one-hot relative seat to act (all 0 once the game is over)
start_player        5       one-hot relative start player of this round
n_players           4       one-hot 2..5
turns               1       play-phase actions this round / max_turns_per_round (the truncation cap)
stage               2       one-hot pending stage of the observer: main decision, Scout & Show stage 2 (all 0:
                            the observer is not to act)
pending_card        2       stage 2: the scouted card as inserted: top / 10, bottom / 10
pending_slot        45      stage 2: one-hot slot of the scouted card in the (new) hand
pending_end         1       stage 2: 1 if the card was taken from the right end of the Active Set
config_flags        2       ``public_scout_flip_and_position``, ``two_player_may_stop``
==================  ======  =================================================================================

:data:`OBS_DIM` is 849. Every value lies in ``[-OBS_BOUND, OBS_BOUND]`` (``OBS_BOUND = 50``).

:func:`state` (full information, for centralised critics): the acting seat's observation, then every hand
(relative to the acting seat, 90 each, 5 seats, the same slot encoding as ``hand``), then the 2-player
cards set aside (45 card indicators); :data:`STATE_DIM` is 1344.
"""

from __future__ import annotations

import numpy as np

from .actions import H, PendingScout
from .cards import CARD_NUMBERS, N_CARDS
from .game import PHASE_OVER, PHASE_ROTATE, ScoutGame
from .moves import set_key
from .view import ScoutSeatView

MAX_SEATS = 5
#: Active Set slots: a run has at most 10 cards (values 1..10), a set at most 9 (nine cards show each number).
ACTIVE_SLOTS = 10
OBS_BOUND = 50.0
_SCALE_COUNT = 11.0  # hand, pile sizes (the 4-player hand)
_SCALE_SCORE = 20.0

_PARTS = (
    ("hand", 2 * H), ("active", 2 * ACTIVE_SLOTS), ("active_shape", 3), ("active_owner", MAX_SEATS),
    ("hand_sizes", MAX_SEATS), ("pile_sizes", MAX_SEATS), ("pile_cards", N_CARDS), ("unseen", N_CARDS),
    ("chips", MAX_SEATS), ("scout_show_used", MAX_SEATS), ("known_slots", (MAX_SEATS - 1) * 2 * H),
    ("known_cards", (MAX_SEATS - 1) * N_CARDS), ("totals", MAX_SEATS), ("last_round", MAX_SEATS),
    ("round", 2), ("phase", 2), ("current", MAX_SEATS), ("start_player", MAX_SEATS), ("n_players", 4),
    ("turns", 1), ("stage", 2), ("pending_card", 2), ("pending_slot", H), ("pending_end", 1),
    ("config_flags", 2),
)


def _layout() -> list[tuple[str, int, int]]:
    out, off = [], 0
    for name, length in _PARTS:
        out.append((name, off, length))
        off += length
    return out


#: ``(name, offset, length)`` of each part of the observation vector (module docstring).
OBSERVATION_LAYOUT: list[tuple[str, int, int]] = _layout()
OBS_DIM: int = OBSERVATION_LAYOUT[-1][1] + OBSERVATION_LAYOUT[-1][2]
#: Offset of each part by name.
OFFSETS: dict[str, int] = {name: off for name, off, _ in OBSERVATION_LAYOUT}
_O = OFFSETS
#: Length of :func:`state`: the acting seat's observation, every hand (5 x 90), the cards set aside (45).
STATE_DIM: int = OBS_DIM + MAX_SEATS * 2 * H + N_CARDS

#: ``_TOP[face]``, ``_BOTTOM[face]``: the top and bottom numbers of a face code, divided by 10.
_TOP = np.array([CARD_NUMBERS[f >> 1][f & 1] / 10.0 for f in range(2 * N_CARDS)], np.float32)
_BOTTOM = np.array([CARD_NUMBERS[f >> 1][1 - (f & 1)] / 10.0 for f in range(2 * N_CARDS)], np.float32)


def _faces(pairs) -> list[int]:
    """Face codes of ``(card id, top number)`` pairs."""
    return [2 * c + (top != CARD_NUMBERS[c][0]) for c, top in pairs]


def _put_slots(vec: np.ndarray, off: int, faces: list[int]) -> None:
    """Write faces into consecutive (top, bottom) slots starting at ``off``."""
    if faces:
        idx = np.asarray(faces, np.int64)
        k = len(faces)
        vec[off:off + 2 * k:2] = _TOP[idx]
        vec[off + 1:off + 2 * k:2] = _BOTTOM[idx]


def after_scout(hand: list[int], active: list[int], pending: PendingScout) -> tuple[list[int], list[int]]:
    """``(hand, active)`` (face codes) after the stage-1 scout ``pending`` of a Scout & Show (new lists)."""
    active = list(active)
    face = active.pop(-1 if pending.end else 0) ^ pending.flip
    hand = list(hand)
    hand.insert(pending.position, face)
    return hand, active


def observe(view: ScoutSeatView, pending: PendingScout | None = None) -> np.ndarray:
    """The observation of ``view.seat``: float32 ``(OBS_DIM,)``, layout in the module docstring.

    Args:
        view: the seat's view (only what it may know is read).
        pending: the stage-1 scout of a Scout & Show when this seat is at stage 2 (it must be to act).

    Raises:
        ValueError: ``pending`` given but the seat is not to act.
    """
    vec = np.zeros(OBS_DIM, np.float32)
    n = view.n_players
    seat = view.seat
    g_over = view.game_over
    to_act = not g_over and view.current == seat
    if pending is not None and not (to_act and view.phase == "play"):
        raise ValueError(f"pending={tuple(pending)!r}: seat {seat} is not at a Scout & Show stage 2")
    hand = _faces(view.hand)
    active = _faces(view.active)
    if pending is not None:
        hand, active = after_scout(hand, active, pending)
    rel = [(seat + r) % n for r in range(n)]
    _put_slots(vec, _O["hand"], hand)
    _put_slots(vec, _O["active"], active)
    if active:
        key = set_key(active)
        off = _O["active_shape"]
        vec[off] = len(active) / 10.0
        vec[off + 1] = float((key >> 4) & 1)
        vec[off + 2] = (key & 15) / 10.0
    owner = view.active_owner
    if owner >= 0:
        vec[_O["active_owner"] + (owner - seat) % n] = 1.0
    sizes, piles, chips, used = view.hand_sizes, view.piles, view.chips, view.scout_show_used
    if pending is not None:
        sizes[seat] += 1
    o_sizes, o_piles, o_chips, o_used = _O["hand_sizes"], _O["pile_sizes"], _O["chips"], _O["scout_show_used"]
    pile_cards = []
    for r, s in enumerate(rel):
        vec[o_sizes + r] = sizes[s] / _SCALE_COUNT
        vec[o_piles + r] = len(piles[s]) / _SCALE_COUNT
        vec[o_chips + r] = min(OBS_BOUND, chips[s] / 10.0)  # 3-5 players: no chip limit (section 1)
        vec[o_used + r] = float(used[s])
        pile_cards += piles[s]
    if pile_cards:
        vec[_O["pile_cards"] + np.asarray(pile_cards, np.int64)] = 1.0
    unseen = view.unseen_cards()
    if unseen:
        vec[_O["unseen"] + np.asarray(unseen, np.int64)] = 1.0
    o_slots, o_cards = _O["known_slots"], _O["known_cards"]
    for r in range(1, n):
        s = rel[r]
        base = o_slots + (r - 1) * 2 * H
        for i, slot in enumerate(view.known_slots(s)):
            if slot is not None:
                f = 2 * slot[0] + (slot[1] != CARD_NUMBERS[slot[0]][0])
                vec[base + 2 * i] = _TOP[f]
                vec[base + 2 * i + 1] = _BOTTOM[f]
        known = view.known_cards(s)
        if known:
            vec[o_cards + (r - 1) * N_CARDS + np.asarray(known, np.int64)] = 1.0
    rs = view.round_scores
    if rs:
        o_tot, o_last = _O["totals"], _O["last_round"]
        totals = view.totals
        for r, s in enumerate(rel):
            vec[o_tot + r] = max(-OBS_BOUND, min(OBS_BOUND, totals[s] / _SCALE_SCORE))
            vec[o_last + r] = max(-OBS_BOUND, min(OBS_BOUND, rs[-1][s] / _SCALE_SCORE))
    cfg = view.config
    o = _O["round"]
    vec[o] = view.round / cfg.n_rounds
    vec[o + 1] = float(view.round == cfg.n_rounds - 1)
    phase = view.phase
    if phase != PHASE_OVER:
        vec[_O["phase"] + (0 if phase == PHASE_ROTATE else 1)] = 1.0
        vec[_O["current"] + (view.current - seat) % n] = 1.0
    vec[_O["start_player"] + (view.start_player - seat) % n] = 1.0
    vec[_O["n_players"] + n - 2] = 1.0
    vec[_O["turns"]] = view.turns / cfg.max_turns_per_round
    if to_act:
        vec[_O["stage"] + (0 if pending is None else 1)] = 1.0
    if pending is not None:
        face = hand[pending.position]
        vec[_O["pending_card"]] = _TOP[face]
        vec[_O["pending_card"] + 1] = _BOTTOM[face]
        vec[_O["pending_slot"] + pending.position] = 1.0
        vec[_O["pending_end"]] = float(pending.end)
    vec[_O["config_flags"]] = float(cfg.public_scout_flip_and_position)
    vec[_O["config_flags"] + 1] = float(cfg.two_player_may_stop)
    return vec


def state(game: ScoutGame, pending: PendingScout | None = None) -> np.ndarray:
    """Full-information state: float32 ``(STATE_DIM,)`` (module docstring).

    Args:
        game: the engine game (every hand is read). pending: the acting seat's stage-1 scout at stage 2.
    """
    seat = game.current
    n = game.n_players
    vec = np.zeros(STATE_DIM, np.float32)
    vec[:OBS_DIM] = observe(ScoutSeatView(game, seat), pending)
    for r in range(n):
        s = (seat + r) % n
        hand = game.hand_faces(s)
        if pending is not None and s == seat:
            hand, _ = after_scout(hand, game.active_faces(), pending)
        _put_slots(vec, OBS_DIM + r * 2 * H, hand)
    aside = [c for c, _ in game.set_aside]
    if aside:
        vec[OBS_DIM + MAX_SEATS * 2 * H + np.asarray(aside, np.int64)] = 1.0
    return vec


__all__ = ["ACTIVE_SLOTS", "MAX_SEATS", "OBSERVATION_LAYOUT", "OBS_BOUND", "OBS_DIM", "OFFSETS", "STATE_DIM",
           "after_scout", "observe", "state"]
