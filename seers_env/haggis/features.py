"""Haggis features for the play-scoring learner (rules ``shared/rules/haggis.md``): a seat view's state
vector and one row per legal play (bets, section 7; sets, sequences and bombs, section 4; pass, section 3).
No RL imports.

Everything is read from a :class:`~seers_env.haggis.view.HaggisSeatView`: the own hand, the public face
cards still held (section 10), hand sizes, the trick, captures, bets and scores; the other seats' number
cards and the Haggis never enter (only which number cards this seat has not seen,
:meth:`~seers_env.haggis.view.HaggisSeatView.unseen_cards`). Relative seat ``r`` is seat
``(seat + r) % n`` (``r = 0`` the observer, then clockwise); a 2-player game leaves slot 2 zero. Number
cards are ids ``0..44`` (``suit * 9 + rank - 2``, :mod:`seers_env.haggis.cards`).

**State** (:func:`encode_state`, float32 ``(STATE_DIM,)``, :data:`STATE_LAYOUT`):

==============  ======  ==========================================================================
part            length  meaning
==============  ======  ==========================================================================
hand            45      own number cards by id (1 = held)
hand_ranks      9       own number cards per rank 2..10 / 5
hand_suits      5       own number cards per suit / 9
own_wilds       3       own J, Q, K still held
seats           3 x 16  per relative seat: cards held / 17, number cards held / 14, its J, Q, K
                        still held (3, public), bet one-hot (not decided, 0, 15, 30), captured card
                        points / 50, going-out points / 85, bet points / 90, gone out, total /
                        target, its combination is the trick's top, seat present
unseen          45      number cards this seat has not seen (in another hand or the Haggis)
unseen_ranks    9       their count per rank / 5
haggis_size     1       cards in the Haggis / 8
top             8       the trick's top: kind one-hot (none = leading, set, sequence, bomb), set
                        size or sequence width / 8, sequence length / 12, value / 13 (not bombs),
                        bomb value / 6
trick           3       card points in the open trick / 20, its cards / 20, passes since its top / 2
stage           3       one-hot decision: bet, lead, follow (all 0 when not this seat's turn)
n_players       2       one-hot 2, 3
game            4       round / 20, own total minus the best other total / target (clipped to
                        [-1, 1]), own points still needed / target (clipped to [0, 1]), target / 350
==============  ======  ==========================================================================

**Play rows** (:func:`encode_plays`, float32 ``(n_plays, PLAY_DIM)``, :data:`PLAY_LAYOUT`):

==============  ======  ==========================================================================
part            length  meaning
==============  ======  ==========================================================================
kind            5       one-hot: pass, bet, set, sequence, bomb
bet             3       bet one-hot 0, 15, 30
cards           1       cards played / 17
wilds           3       own J, Q, K played
n_wilds         1       wilds played / 3
shape           4       set size / 8, sequence width / 5, sequence length / 12, value / 13 (no bombs)
bomb            1       bomb value / 6 (1 rainbow .. 6 suited 3-5-7-9, section 4.4)
ranks           9       number cards played per rank / 5
suits           5       number cards played per suit / 9
points          1       card points of the played cards / 10 (section 1)
trick_points    1       card points of the trick with this play added / 20
goes_out        1       the play empties the hand (section 6)
left            1       cards left after the play / 17
left_ranks      9       number cards left per rank / 5
left_wilds      1       wilds left / 3
split           1       ranks the play takes some but not all held cards of / 9
singles_left    1       ranks with exactly one card left / 9
margin          1       following with a non-bomb: its value minus the top's / 13
==============  ======  ==========================================================================

Play rows are built with NumPy over all plays at once (a 17-card lead with three wilds has up to a few
thousand plays; ``python -m seers_env.haggis.features`` prints the time per decision on the worst hands of
:mod:`seers_env.haggis.bench`).

Version :data:`FEATURE_VERSION` (model files record it; a change of layout or meaning raises it).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from .cards import FIRST_FACE, N_NUMBER_CARDS, N_NUMBER_RANKS, N_SUITS, STANDARD_POINTS, rank_of
from .game import PHASE_BET
from .moves import combo_of
from .plays import BET, BOMB, PASS, SEQ, SET
from .rulings import BETS

#: Version of the layouts below (model files record ``haggis-play-features-v<FEATURE_VERSION>``).
FEATURE_VERSION = 1
MAX_SEATS = 3
SEAT_BLOCK = 16
#: Card points by id (number cards 0..44, then J, Q, K of seats 0..2), standard scoring (section 1).
_POINTS_STANDARD = np.array([STANDARD_POINTS[rank_of(c)] for c in range(FIRST_FACE + 3 * MAX_SEATS)], np.float32)


def _layout(parts) -> dict[str, tuple[int, int]]:
    out, at = {}, 0
    for name, length in parts:
        out[name] = (at, length)
        at += length
    return out


#: ``name -> (offset, length)`` of the state vector (module docstring).
STATE_LAYOUT = _layout((
    ("hand", N_NUMBER_CARDS), ("hand_ranks", N_NUMBER_RANKS), ("hand_suits", N_SUITS), ("own_wilds", 3),
    ("seats", MAX_SEATS * SEAT_BLOCK), ("unseen", N_NUMBER_CARDS), ("unseen_ranks", N_NUMBER_RANKS),
    ("haggis_size", 1), ("top", 8), ("trick", 3), ("stage", 3), ("n_players", 2), ("game", 4)))
#: ``name -> (offset, length)`` of a play row (module docstring).
PLAY_LAYOUT = _layout((
    ("kind", 5), ("bet", 3), ("cards", 1), ("wilds", 3), ("n_wilds", 1), ("shape", 4), ("bomb", 1),
    ("ranks", N_NUMBER_RANKS), ("suits", N_SUITS), ("points", 1), ("trick_points", 1), ("goes_out", 1),
    ("left", 1), ("left_ranks", N_NUMBER_RANKS), ("left_wilds", 1), ("split", 1), ("singles_left", 1),
    ("margin", 1)))
STATE_DIM = sum(n for _, n in STATE_LAYOUT.values())
PLAY_DIM = sum(n for _, n in PLAY_LAYOUT.values())
assert (STATE_DIM, PLAY_DIM) == (185, 49)


def card_points_table(scoring: str) -> np.ndarray:
    """Points of every card id (float32 ``(54,)``) under ``scoring`` (``"standard"`` or ``"one_each"``)."""
    return np.ones_like(_POINTS_STANDARD) if scoring == "one_each" else _POINTS_STANDARD


def number_matrix(cards) -> np.ndarray:
    """float32 ``(5, 9)`` (suit, rank - 2) with 1 for each number card of ``cards`` (face cards ignored)."""
    m = np.zeros(N_NUMBER_CARDS, np.float32)
    nums = [c for c in cards if c < FIRST_FACE]
    m[nums] = 1.0
    return m.reshape(N_SUITS, N_NUMBER_RANKS)


def _bet_slot(bet) -> int:
    return 0 if bet is None else 1 + BETS.index(bet)


def encode_state(view) -> np.ndarray:
    """The state vector of ``view.seat``: float32 ``(STATE_DIM,)``, a new array (module docstring)."""
    L = STATE_LAYOUT
    out = np.zeros(STATE_DIM, np.float32)
    n, seat, cfg = view.n_players, view.seat, view.config
    hand = view.hand
    own = number_matrix(hand)
    o = L["hand"][0]
    out[o:o + N_NUMBER_CARDS] = own.reshape(-1)
    o = L["hand_ranks"][0]
    out[o:o + N_NUMBER_RANKS] = own.sum(0) / 5.0
    o = L["hand_suits"][0]
    out[o:o + N_SUITS] = own.sum(1) / 9.0
    o = L["own_wilds"][0]
    for c in hand:
        if c >= FIRST_FACE:
            out[o + rank_of(c) - 11] = 1.0
    sizes, bets, totals = view.hand_sizes, view.bets, view.totals
    captured, going, bet_pts, out_seats = view.captured_points(), view.going_out, view.bet_points, view.out
    trick = view.trick
    top_seat = trick[-1][0] if trick else -1
    for r in range(n):
        s = (seat + r) % n
        o = L["seats"][0] + r * SEAT_BLOCK
        faces = view.faces_held(s)
        out[o] = sizes[s] / 17.0
        out[o + 1] = (sizes[s] - len(faces)) / 14.0
        for c in faces:
            out[o + 2 + rank_of(c) - 11] = 1.0
        out[o + 5 + _bet_slot(bets[s])] = 1.0
        out[o + 9] = captured[s] / 50.0
        out[o + 10] = going[s] / 85.0
        out[o + 11] = bet_pts[s] / 90.0
        out[o + 12] = float(s in out_seats)
        out[o + 13] = totals[s] / cfg.target
        out[o + 14] = float(s == top_seat)
        out[o + 15] = 1.0
    unseen = number_matrix(view.unseen_cards())
    o = L["unseen"][0]
    out[o:o + N_NUMBER_CARDS] = unseen.reshape(-1)
    o = L["unseen_ranks"][0]
    out[o:o + N_NUMBER_RANKS] = unseen.sum(0) / 5.0
    out[L["haggis_size"][0]] = view.haggis_size / 8.0
    top = view.top
    o = L["top"][0]
    if top is None:
        out[o] = 1.0
    else:
        out[o + {SET: 1, SEQ: 2, BOMB: 3}[top.kind]] = 1.0
        if top.kind == BOMB:
            out[o + 7] = top.value / 6.0
        else:
            out[o + 4] = top.a / 8.0
            out[o + 5] = top.b / 12.0
            out[o + 6] = top.value / 13.0
    points = card_points_table(cfg.card_points)
    trick_cards = [c for _, p in trick for c in p.cards]
    o = L["trick"][0]
    out[o] = float(points[trick_cards].sum()) / 20.0 if trick_cards else 0.0
    out[o + 1] = len(trick_cards) / 20.0
    out[o + 2] = view.passes / 2.0
    if not view.game_over and view.current == seat:
        o = L["stage"][0]
        out[o + (0 if view.phase == PHASE_BET else 1 if top is None else 2)] = 1.0
    out[L["n_players"][0] + n - 2] = 1.0
    o = L["game"][0]
    others = [totals[s] for s in range(n) if s != seat]
    out[o] = view.round / 20.0
    out[o + 1] = float(np.clip((totals[seat] - max(others)) / cfg.target, -1.0, 1.0))
    out[o + 2] = float(np.clip((cfg.target - totals[seat]) / cfg.target, 0.0, 1.0))
    out[o + 3] = cfg.target / 350.0
    return out


def _combos(view, legal: list) -> list:
    """Each play's :class:`~seers_env.haggis.moves.Combo` (``None`` for pass and bets): the game's own
    list when ``legal`` is the seat's legal plays, else :func:`~seers_env.haggis.moves.combo_of`."""
    known = view.legal_plays_with_combos()
    if len(known) == len(legal) and all(p == q for (p, _), q in zip(known, legal)):
        return [c for _, c in known]
    out = []
    for p in legal:
        if p.kind in (PASS, BET):
            out.append(None)
            continue
        c = combo_of(p)
        if isinstance(c, str):
            raise ValueError(f"play {p.describe()} is no combination: {c}")
        out.append(c)
    return out


def encode_plays(view, legal: list) -> np.ndarray:
    """One row per play of ``legal`` (the seat's bets, or its pass and combinations): float32
    ``(len(legal), PLAY_DIM)`` (module docstring).

    Raises:
        ValueError: a play of ``legal`` is no combination, or uses cards ``view.seat`` does not hold.
    """
    L = PLAY_LAYOUT
    m = len(legal)
    out = np.zeros((m, PLAY_DIM), np.float32)
    if not m:
        return out
    kinds = np.fromiter((p.kind for p in legal), np.int64, m)
    out[np.arange(m), L["kind"][0] + kinds] = 1.0
    if kinds[0] == BET:
        amounts = [p.amount for p in legal]
        out[np.arange(m), L["bet"][0] + np.array([BETS.index(a) for a in amounts])] = 1.0
        return out
    seat = view.seat
    hand = view.hand
    hand_size = len(hand)
    combos = _combos(view, legal)
    shape = np.array([(c.kind, c.a, c.b, c.value) if c is not None else (PASS, 0, 0, 0) for c in combos],
                     np.float32)
    lens = np.fromiter((len(p.cards) for p in legal), np.int64, m)
    flat = np.fromiter(chain.from_iterable(p.cards for p in legal), np.int64, int(lens.sum()))
    rows = np.repeat(np.arange(m), lens)
    held = np.zeros(FIRST_FACE + 3 * MAX_SEATS, bool)
    held[hand] = True
    if flat.size and not held[flat].all():
        bad = sorted(set(flat[~held[flat]].tolist()))
        raise ValueError(f"plays use cards {bad} that seat {seat} does not hold")
    # incidence: 45 number cards, then the own J, Q, K
    col = np.where(flat >= FIRST_FACE, N_NUMBER_CARDS + (flat - FIRST_FACE) % 3, flat)
    inc = np.zeros((m, N_NUMBER_CARDS + 3), np.float32)
    inc[rows, col] = 1.0
    nums = inc[:, :N_NUMBER_CARDS].reshape(m, N_SUITS, N_NUMBER_RANKS)
    used_ranks = nums.sum(1)
    wilds = inc[:, N_NUMBER_CARDS:]
    n_wilds = wilds.sum(1)
    o = L["cards"][0]
    out[:, o] = lens / 17.0
    o = L["wilds"][0]
    out[:, o:o + 3] = wilds
    out[:, L["n_wilds"][0]] = n_wilds / 3.0
    is_bomb = shape[:, 0] == BOMB
    plain = (shape[:, 0] == SET) | (shape[:, 0] == SEQ)
    is_set, is_seq = shape[:, 0] == SET, shape[:, 0] == SEQ
    o = L["shape"][0]
    out[:, o] = np.where(is_set, shape[:, 1], 0.0) / 8.0
    out[:, o + 1] = np.where(is_seq, shape[:, 1], 0.0) / 5.0
    out[:, o + 2] = np.where(is_seq, shape[:, 2], 0.0) / 12.0
    out[:, o + 3] = np.where(plain, shape[:, 3], 0.0) / 13.0
    out[:, L["bomb"][0]] = np.where(is_bomb, shape[:, 3], 0.0) / 6.0
    o = L["ranks"][0]
    out[:, o:o + N_NUMBER_RANKS] = used_ranks / 5.0
    o = L["suits"][0]
    out[:, o:o + N_SUITS] = nums.sum(2) / 9.0
    points = card_points_table(view.config.card_points)
    play_points = np.zeros(m, np.float32)
    np.add.at(play_points, rows, points[flat])
    trick_cards = [c for _, p in view.trick for c in p.cards]
    trick_points = float(points[trick_cards].sum()) if trick_cards else 0.0
    out[:, L["points"][0]] = play_points / 10.0
    out[:, L["trick_points"][0]] = np.where(kinds == PASS, 0.0, trick_points + play_points) / 20.0
    out[:, L["goes_out"][0]] = lens == hand_size
    out[:, L["left"][0]] = (hand_size - lens) / 17.0
    own_ranks = number_matrix(hand).sum(0)
    left_ranks = own_ranks[None, :] - used_ranks
    o = L["left_ranks"][0]
    out[:, o:o + N_NUMBER_RANKS] = left_ranks / 5.0
    own_wilds = sum(1 for c in hand if c >= FIRST_FACE)
    out[:, L["left_wilds"][0]] = (own_wilds - n_wilds) / 3.0
    out[:, L["split"][0]] = ((used_ranks > 0) & (left_ranks > 0)).sum(1) / 9.0
    out[:, L["singles_left"][0]] = (left_ranks == 1).sum(1) / 9.0
    top = view.top
    if top is not None and top.kind != BOMB:
        out[:, L["margin"][0]] = np.where(plain, shape[:, 3] - top.value, 0.0) / 13.0
    return out


def _bench() -> None:
    """Print ms per decision of :func:`encode_plays` (and of listing the plays) on the bench's hands."""
    import time

    from .bench import crafted_hands
    from .cards import faces_of
    from .game import HaggisConfig, HaggisGame
    from .view import HaggisSeatView

    for label, nums in crafted_hands().items():
        n = 2 if label.startswith("2") else 3
        others = [c for c in HaggisConfig(n_players=n).setup.number_cards if c not in nums]
        hands = [sorted(nums + list(faces_of(0)))] + [sorted(others[14 * (s - 1):14 * s] + list(faces_of(s)))
                                                       for s in range(1, n)]
        game = HaggisGame.from_position(HaggisConfig(n_players=n), hands=hands, current=0)
        view = HaggisSeatView(game, 0)
        t0 = time.perf_counter()
        legal = view.legal_plays()
        t_list = time.perf_counter() - t0
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            encode_state(view)
            encode_plays(view, legal)
            best = min(best, time.perf_counter() - t0)
        print(f"{label}: {len(legal)} plays; listing {t_list * 1000:.1f} ms, features {best * 1000:.1f} ms "
              f"(best of 5)")


__all__ = ["FEATURE_VERSION", "PLAY_DIM", "PLAY_LAYOUT", "STATE_DIM", "STATE_LAYOUT", "card_points_table",
           "encode_plays", "encode_state", "number_matrix"]

if __name__ == "__main__":
    _bench()
