"""The readable pure-Python play evaluation, kept as a test reference.

This is the code that :func:`seers_env.features.encode_plays` and
:meth:`agents.heuristic.HeuristicAgent.scores` ran before the per-play work was compiled
(:mod:`seers_env.play_eval`): fewest melds by a memoised search on the lowest card, the hand each play
leaves built from ``Play`` objects, and the heuristic's :func:`hand_value` per distinct hand left.
``tests/test_play_eval.py`` checks that the compiled path gives bit-for-bit the same arrays and scores.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from seers_env.artifacts import CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from seers_env.cards import FIRST_ARTIFACT, N_SUITED, N_VALUES, WILD
from seers_env.cards import SETUP_BY_PLAYERS, WILDS_PER_PLAYER
from seers_env.features import HISTORY_ENTRY, HISTORY_LEN, PLAY_DIM, PLAY_LAYOUT, STATE_DIM, STATE_LAYOUT
from seers_env.observation import OBS_DIM, observe
from seers_env.game import Game
from seers_env.plays import Play, PlayKind
from seers_env.rulings import HIGHEST_SINGLE_RANK
from seers_env.scoring import BONUS_MAX_CARDS, bonus_points
from seers_env.view import SeatView

_P = {name: off for name, off, _ in PLAY_LAYOUT}
_S = {name: off for name, off, _ in STATE_LAYOUT}
_RIDES = frozenset({GO_FIRST, CAULDRON, SUIT_CHANGER, HALF_STEP})  # kinds that can ride along with a meld
_ACTIONS = frozenset({ROD, GIFT, HIGHEST_SINGLE})  # kinds played alone

#: Bit of each suited card in a value-major mask: bit ``5 * (value - 2) + suit``.
_BIT = tuple((c % N_VALUES) * 5 + c // N_VALUES for c in range(N_SUITED))
_CONTROL = tuple(max(0, c % N_VALUES - 8) for c in range(N_SUITED))  # value steps above 10


def suited_mask(cards) -> int:
    """Value-major bitmask of the suited cards among ``cards`` (bit ``5 * (value - 2) + suit``)."""
    m = 0
    for c in cards:
        if c < N_SUITED:
            m |= 1 << _BIT[c]
    return m


@lru_cache(maxsize=1 << 18)
def fewest_melds_mask(mask: int) -> int:
    """Fewest Singles, Matching Sets and Suited Runs covering the cards of a value-major mask: exact
    search on the lowest card, memoised."""
    if not mask:
        return 0
    low = mask & -mask
    b = low.bit_length() - 1
    rest = mask ^ low
    best = 1 + fewest_melds_mask(rest)  # a Single
    group = rest & (0b11111 << (b - b % 5))  # same value: Matching Sets
    sub = group
    while sub:
        best = min(best, 1 + fewest_melds_mask(rest ^ sub))
        sub = (sub - 1) & group
    run, nb = 0, b + 5  # same suit, next values: Suited Runs
    while nb < 5 * N_VALUES and rest >> nb & 1:
        run |= 1 << nb
        best = min(best, 1 + fewest_melds_mask(rest ^ run))
        nb += 5
    return best


@lru_cache(maxsize=1 << 16)
def plays_needed(hand: tuple[int, ...]) -> tuple[int, int]:
    """``(melds, plays)`` of a hand (tuple of card ids)."""
    melds = fewest_melds_mask(suited_mask(hand))
    wilds = ride = alone = 0
    for c in hand:
        if c == WILD:
            wilds += 1
        elif c > WILD:
            k = c - FIRST_ARTIFACT
            if k in _RIDES:
                ride += 1
            elif k in _ACTIONS:
                alone += 1
    base = melds if melds or not wilds else 1  # wilds alone form a meld
    return melds, base + max(0, ride - base) + alone


@lru_cache(maxsize=1 << 16)
def _hand_left_features(hand_left: tuple[int, ...], before: int) -> tuple[float, ...]:
    melds, plays = plays_needed(hand_left)
    n = len(hand_left)
    wilds = arts = control = 0
    for c in hand_left:
        if c < N_SUITED:
            control += _CONTROL[c]
        elif c == WILD:
            wilds += 1
        else:
            arts += 1
    return (n / 15.0, melds / 8.0, plays / 8.0, float(wilds), float(arts), control / 10.0,
            bonus_points(hand_left) / 13.0, float(n == 0),
            float(before > BONUS_MAX_CARDS >= n), float(n <= BONUS_MAX_CARDS))


def encode_plays(view: SeatView, plays: list[Play] | None = None) -> np.ndarray:
    """The reference :func:`seers_env.features.encode_plays`."""
    game: Game = view._game
    seat = view.seat
    if plays is None:
        plays = view.legal_plays()
    hand = game.hands[seat]
    n = game.n_players
    top = game.top
    top_rank = top[2] if top is not None else 0
    out = np.zeros((len(plays), PLAY_DIM), dtype=np.float32)
    cache: dict[tuple, tuple[float, ...]] = {}
    trick_cards: list[int] | None = None
    left_off = _P["cards_left"]
    for i, p in enumerate(plays):
        row = out[i]
        kind = p.kind
        row[_P["kind"] + kind] = 1.0
        key = (p.suited, p.wilds, p.artifact, kind)
        left = cache.get(key)
        if left is None:
            rest = list(hand)
            try:
                for c in p.cards():
                    rest.remove(c)
            except ValueError:
                raise ValueError(f"play {p!r} spends cards that seat {seat} does not hold "
                                 f"(hand {hand})") from None
            if kind == PlayKind.ROD:
                if trick_cards is None:
                    trick_cards = game.trick_cards()
                rest = sorted(rest + trick_cards)
            left = cache[key] = _hand_left_features(tuple(rest), min(len(hand), BONUS_MAX_CARDS + 1))
        row[left_off:left_off + len(left)] = left
        if kind == PlayKind.MELD:
            row[_P["meld_type"] + p.meld_type - 1] = 1.0
            row[_P["size"]] = p.size / 12.0
            row[_P["rank"]] = 1.0 if p.rank >= HIGHEST_SINGLE_RANK else p.rank / 27.0
            if top is not None:
                row[_P["margin"]] = (min(p.rank, 28) - min(top_rank, 28)) / 27.0
            row[_P["suited_spent"]] = len(p.suited) / 12.0
            row[_P["wilds_spent"]] = p.wilds
            for c in p.suited:
                row[_P["spent_by_value"] + c % N_VALUES] += 1.0
                row[_P["spent_cards"] + c] = 1.0
        elif kind == PlayKind.ROD:
            if trick_cards is None:
                trick_cards = game.trick_cards()
            row[_P["picked_up"]] = len(trick_cards) / 15.0
        elif kind == PlayKind.GIFT:
            row[_P["gift_target_size"]] = len(game.hands[p.target]) / 15.0
            row[_P["gift_target"] + (p.target - seat) % n] = 1.0
        row[_P["artifact"] + p.artifact + 1] = 1.0
        row[_P["effect_used"]] = p.effect_used
    return out


def hand_value(hand, weights: dict) -> float:
    """The reference :func:`agents.heuristic.hand_value` (``weights``: the full table)."""
    w = weights
    if not hand:
        return w["out"]
    _, plays = plays_needed(tuple(hand))
    suited = [c for c in hand if c < WILD]
    wilds = hand.count(WILD)
    kinds = [c - FIRST_ARTIFACT for c in hand if c > WILD]
    control = (w["high"] * sum(max(0, c % N_VALUES - 8) for c in suited)
               + w["wild"] * wilds + w["highest_single"] * kinds.count(HIGHEST_SINGLE))
    value = -w["card"] * len(hand) - w["play"] * plays + control
    if len(hand) <= BONUS_MAX_CARDS:
        value += w["bonus"] * bonus_points(hand)
    return value


def _after(hand: list[int], play: Play, trick_cards: list[int]) -> list[int]:
    out = list(hand)
    for c in play.cards():
        out.remove(c)
    if play.kind == PlayKind.ROD:
        out += trick_cards
    return out


def heuristic_scores(view: SeatView, weights: dict) -> list[tuple[float, Play]]:
    """The reference :meth:`agents.heuristic.HeuristicAgent.scores` (``weights``: the full table)."""
    w = weights
    legal = view.legal_plays()
    hand = view.hand
    leading = view.top is None
    sizes = view.hand_sizes
    others = [s for s in range(view.n_players) if s != view.seat]
    danger = min(sizes[s] for s in others) <= w["danger_cards"]
    trick_cards = sorted(c for _, p in view.trick for c in p.cards()) if not leading else []
    cache: dict[tuple, float] = {}
    out = []
    for p in legal:
        key = (p.suited, p.wilds, p.artifact, p.kind)
        v = cache.get(key)
        if v is None:
            v = cache[key] = hand_value(_after(hand, p, trick_cards), w)
        if p.kind == PlayKind.PASS:
            v += 0.0 if leading else (w["pass_danger"] if danger else w["pass"])
        elif p.kind == PlayKind.ROD:
            v += w["lead"]
        elif p.kind == PlayKind.GIFT:
            v -= w["lead"] - 0.01 * sizes[p.target]  # give the lead to the biggest hand
        elif leading:
            v -= w["lead_rank"] * p.rank / 2
        else:
            v -= 0.001 * p.rank  # the smallest beating meld among equals
        out.append((v, p))
    return out


def _unseen(game: Game, seat: int) -> tuple[list[int], int]:
    """Suited cards of this round's deck that ``seat`` has not seen, and the wilds it cannot place.

    A card is seen when it is in the seat's hand, was played this round (face-up) or is publicly known
    in another hand (taken with the Rod). Wilds are counted: all dealt wilds minus those in the seat's
    hand, publicly known in other hands, on the table this trick or discarded with won tricks.
    """
    n = game.n_players
    _, max_value, _ = SETUP_BY_PLAYERS[n]
    seen = np.zeros(N_SUITED, dtype=bool)
    wilds = n * WILDS_PER_PLAYER - game.hands[seat].count(WILD) - game.discards.count(WILD)
    for c in game.hands[seat]:
        if c < N_SUITED:
            seen[c] = True
    for s in range(n):
        for c in game.played[s]:
            if c < N_SUITED:
                seen[c] = True
        if s != seat:
            for c in game.known[s]:
                if c < N_SUITED:
                    seen[c] = True
                elif c == WILD:
                    wilds -= 1
    for _, p in game.trick:
        wilds -= p.wilds
    unseen = [suit * N_VALUES + v for suit in game.suits for v in range(max_value - 1)
              if not seen[suit * N_VALUES + v]]
    return unseen, max(0, wilds)


def encode_state(view: SeatView) -> np.ndarray:
    """The reference :func:`seers_env.features.encode_state`.

    The acting seat's state: float32 ``(STATE_DIM,)``, parts in :data:`STATE_LAYOUT`.

    ``observation`` is :func:`seers_env.observation.observe` without a pending decision;
    ``unseen_suited`` marks the suited cards of this round's deck that the seat has not seen (not in its
    hand, not played, not publicly picked up; rules section 3), ``unseen_wilds`` counts the wilds it
    cannot place (not in its hand, not known in another hand, not on the table or discarded) / 5; ``history`` holds the round's last :data:`HISTORY_LEN` plays, newest first, each as
    ``[present, relative seat one-hot (5), kind one-hot (4), meld type one-hot (3), size / 12,
    rank / 27, wilds, artifact kind one-hot (7), effect used]``.
    """
    game: Game = view._game
    seat = view.seat
    n = game.n_players
    vec = np.zeros(STATE_DIM, dtype=np.float32)
    vec[:OBS_DIM] = observe(game, seat)
    unseen, wilds = _unseen(game, seat)
    vec[_S["unseen_suited"] + np.asarray(unseen, dtype=np.intp)] = 1.0
    vec[_S["unseen_wilds"]] = wilds / 5.0
    base = _S["history"]
    k = 0
    events = game.events
    for j in range(len(events) - 1, -1, -1):
        ev = events[j]
        if ev["event"] == "deal" or k >= HISTORY_LEN:
            break
        if ev["event"] != "play":
            continue
        p = ev["play"]
        o = base + k * HISTORY_ENTRY
        vec[o] = 1.0
        vec[o + 1 + (ev["seat"] - seat) % n] = 1.0
        vec[o + 6 + p["kind"]] = 1.0
        if p["meld_type"]:
            vec[o + 9 + p["meld_type"]] = 1.0
        vec[o + 13] = p["size"] / 12.0
        vec[o + 14] = 1.0 if p["rank"] >= HIGHEST_SINGLE_RANK else p["rank"] / 27.0
        vec[o + 15] = p["wilds"]
        if p["artifact"] >= 0:
            vec[o + 16 + p["artifact"]] = 1.0
        vec[o + 23] = p["effect_used"]
        k += 1
    return vec
