"""Features for play-scoring learners: one state vector per decision, one feature row per legal play.

Learners in the style of DouZero (Zha et al., ICML 2021, Q(s, a) over move features) and PerfectDou
(Yang et al., NeurIPS 2022, logits over a legal-action feature matrix) score every legal play with one
shared network. This module gives them their input, built only from what the acting seat may know
(rules section 3, "Public information"):

* :func:`encode_state` -> float32 ``(STATE_DIM,)``: the seat's observation
  (:func:`seers_env.observation.observe`, 857), the suited cards it has not seen and the wilds still
  out (61), and the last :data:`HISTORY_LEN` plays of the round by relative seat (16 x 24, newest first).
* :func:`encode_plays` -> float32 ``(len(plays), PLAY_DIM)``: one row per play of
  ``Game.legal_plays()``, in that order, so row ``i`` *is* play ``i`` (every legal play can be chosen,
  nothing else can; a play that takes several catalogue actions in the AEC env is one row here).

:data:`STATE_LAYOUT` and :data:`PLAY_LAYOUT` list ``(name, offset, length)``; the play rows are:

====================  ======  ===================================================================
name                  length  content
====================  ======  ===================================================================
kind                  4       one-hot: pass / meld / Rod of Reincarnation / Gift of Fate
meld_type             3       one-hot: Single / Matching Set / Suited Run
size                  1       meld size / 12
rank                  1       comparison value in half steps / 27 (highest single: 1)
margin                1       (rank - rank to beat) / 27 when following, else 0
suited_spent          1       suited cards spent / 12
wilds_spent           1       wilds spent
artifact              8       one-hot: no artifact, then each artifact kind (registry order)
effect_used           1       1 when the artifact's effect is used
spent_by_value        12      suited cards spent of each value 2..13
spent_cards           60      the suited cards spent (card id), so that rows are one-to-one with plays
cards_left            1       cards left in hand / 15 (Rod: after picking up the trick)
melds_left            1       fewest melds the suited cards left split into (:func:`fewest_melds`) / 8
plays_left            1       plays still needed: melds, artifacts that cannot ride along, artifact
                              actions / 8
wilds_left            1       wilds kept
artifacts_left        1       artifacts kept
control_left          1       sum over suited cards kept of max(0, value - 10) / 10
bonus_left            1       Bonus points of the hand left (section 4; 0 above 5 cards) / 13
ends_round            1       1 when the hand is empty afterwards (the round ends, section 4)
enters_bonus          1       1 when this play takes the hand from 6+ to 5 or fewer cards
in_bonus_after        1       1 when 5 or fewer cards are left
picked_up             1       Rod: cards taken from the trick / 15
gift_target_size      1       Gift: the target's hand size / 15
gift_target           5       Gift: one-hot relative seat of the target
====================  ======  ===================================================================

Everything here is plain numpy (no RL imports); the feature version :data:`FEATURE_VERSION` changes
whenever a layout or a meaning changes, and model files record it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from . import play_eval
from .artifacts import ARTIFACT_KINDS, CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER
from .cards import FIRST_ARTIFACT, N_SUITED, N_VALUES, SETUP_BY_PLAYERS, WILD, WILDS_PER_PLAYER
from .game import Game
from .integers import is_integer
from .observation import MAX_SEATS, OBS_DIM, observe
from .plays import Play
from .rulings import HIGHEST_SINGLE_RANK
from .scoring import BONUS_MAX_CARDS
from .view import SeatView

#: Version of both layouts; model files record it and refuse another.
FEATURE_VERSION = 1
#: Plays of the current round kept in the state's history part (newest first).
HISTORY_LEN = 16
HISTORY_ENTRY = 24
N_KINDS = len(ARTIFACT_KINDS)

_STATE_PARTS = (("observation", OBS_DIM), ("unseen_suited", N_SUITED), ("unseen_wilds", 1),
                ("history", HISTORY_LEN * HISTORY_ENTRY))
_PLAY_PARTS = (
    ("kind", 4), ("meld_type", 3), ("size", 1), ("rank", 1), ("margin", 1), ("suited_spent", 1),
    ("wilds_spent", 1), ("artifact", 1 + N_KINDS), ("effect_used", 1), ("spent_by_value", N_VALUES),
    ("spent_cards", N_SUITED),
    ("cards_left", 1), ("melds_left", 1), ("plays_left", 1), ("wilds_left", 1), ("artifacts_left", 1),
    ("control_left", 1), ("bonus_left", 1), ("ends_round", 1), ("enters_bonus", 1), ("in_bonus_after", 1),
    ("picked_up", 1), ("gift_target_size", 1), ("gift_target", MAX_SEATS),
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
_S = {name: off for name, off, _ in STATE_LAYOUT}
_P = {name: off for name, off, _ in PLAY_LAYOUT}
#: Offsets of the row parts that :func:`seers_env.play_eval.encode_rows` fills, in its order.
_ROW_OFFSETS = np.array([_P[name] for name in (
    "kind", "meld_type", "size", "rank", "margin", "suited_spent", "wilds_spent", "artifact", "effect_used",
    "spent_by_value", "spent_cards", "cards_left", "picked_up", "gift_target_size", "gift_target")],
    dtype=np.int64)
_HAND_LEFT_PARTS = ("cards_left", "melds_left", "plays_left", "wilds_left", "artifacts_left", "control_left",
                    "bonus_left", "ends_round", "enters_bonus", "in_bonus_after")
assert [_P[name] - _P["cards_left"] for name in _HAND_LEFT_PARTS] == list(range(len(_HAND_LEFT_PARTS)))
_ROD_CARD = FIRST_ARTIFACT + ROD

_RIDES = frozenset({GO_FIRST, CAULDRON, SUIT_CHANGER, HALF_STEP})  # kinds that can ride along with a meld
_ACTIONS = frozenset({ROD, GIFT, HIGHEST_SINGLE})  # kinds played alone


#: Bit of each suited card in a value-major mask: bit ``5 * (value - 2) + suit``.
_BIT = tuple((c % N_VALUES) * 5 + c // N_VALUES for c in range(N_SUITED))


def suited_mask(cards) -> int:
    """Value-major bitmask of the suited cards among ``cards`` (bit ``5 * (value - 2) + suit``)."""
    m = 0
    for c in cards:
        if c < N_SUITED:
            m |= 1 << _BIT[c]
    return m


class MaskTypeError(TypeError, ValueError):
    """A mask that is not an integer (bool and float included). A ``TypeError``; also a ``ValueError``,
    which :func:`fewest_melds_mask` raised for every bad mask before."""


def fewest_melds_mask(mask: int) -> int:
    """Fewest Singles, Matching Sets and Suited Runs (rules section 3) covering the cards of a
    value-major mask (:func:`suited_mask`): exact (compiled, :func:`seers_env.play_eval.fewest_melds_vm`),
    memoised (on the checked ``int``, so the cache never decides what is accepted).

    Args:
        mask: an ``int`` or NumPy integer in ``0 .. 2**60 - 1`` (not a bool).

    Raises:
        MaskTypeError: ``mask`` is not an integer (a ``TypeError`` and ``ValueError`` subclass).
        ValueError: ``mask`` is outside ``0 .. 2**60 - 1``.
    """
    if not is_integer(mask):
        raise MaskTypeError(f"mask {mask!r} ({type(mask).__name__}) is not a value-major mask of suited "
                            "cards; use an int in 0..2**60-1")
    m = int(mask)
    if not 0 <= m < 1 << 60:
        raise ValueError(f"mask {mask!r} is not a value-major mask of suited cards (an int in 0..2**60-1)")
    return _fewest_melds_int(m)


@lru_cache(maxsize=1 << 18)
def _fewest_melds_int(m: int) -> int:
    """:func:`fewest_melds_mask` of a checked ``int`` mask (memoised)."""
    return int(play_eval.fewest_melds_vm(m))


def fewest_melds(suited) -> int:
    """Fewest Singles, Matching Sets and Suited Runs (rules section 3) that cover the suited cards.

    Args:
        suited: suited card ids (0..59), any order (other cards are ignored).

    Returns:
        The minimum number of melds (exact, memoised; wilds and artifacts not counted).
    """
    return _fewest_melds_int(suited_mask(suited))


@lru_cache(maxsize=1 << 16)
def plays_needed(hand: tuple[int, ...]) -> tuple[int, int]:
    """``(melds, plays)``: the fewest melds the suited cards split into, and the plays the whole hand
    still needs (those melds, one for wilds alone, one per artifact that cannot ride along with them,
    one per artifact played alone: Rod, Gift, Highest Single; section 6). ``hand``: a tuple of card ids
    (memoised)."""
    melds = _fewest_melds_int(suited_mask(hand))
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


def encode_plays(view: SeatView, plays: list[Play] | None = None) -> np.ndarray:
    """One feature row per play: float32 ``(len(plays), PLAY_DIM)``, layout in the module docstring.

    Args:
        view: the acting seat's view (its hand, the trick, hand sizes).
        plays: the plays to encode, taken from ``legal_plays()`` (other fields are not checked);
            default ``view.legal_plays()`` (row ``i`` is play ``i``; empty when the seat is not to act).

    Returns:
        A new array (never shared with the game).

    Raises:
        ValueError: a play spends cards the seat does not hold.
        TypeError: an item of ``plays`` is not a ``Play`` (the message names its index and value).

    The hand each play leaves and the rows are computed by compiled code (:mod:`seers_env.play_eval`),
    from the engine's play keys when ``plays`` is the game's own list (no ``Play`` object is built).
    """
    if plays is None:
        plays = view.legal_plays()
    args, hand = _rows_args(view, plays)
    rows, bad = play_eval.plays_rows(*args)
    if bad >= 0:
        raise ValueError(f"play {plays[bad]!r} spends cards that seat {view.seat} does not hold (hand {hand})")
    return rows


def encode_plays_with_prior(view: SeatView, weights=None) -> np.ndarray:
    """:func:`encode_plays` of the seat's legal plays with one more column, the heuristic agent's score
    of each play (``agents.heuristic.HeuristicAgent(weights).score_array``, float64 cast to float32):
    float32 ``(len(view.legal_plays()), PLAY_DIM + 1)``, the rows a play-scoring network with a heuristic
    prior scores. One compiled call (:func:`seers_env.play_eval.plays_rows_prior`): the hand each play
    leaves is computed once for both. A new array (never shared with the game).

    Args:
        view: the acting seat's view (empty rows when the seat is not to act).
        weights: the heuristic's weights that differ from :data:`seers_env.play_eval.HEURISTIC_DEFAULTS`
            (a mapping, as ``HeuristicAgent(weights=...)`` takes; ``None``: the defaults).

    Raises:
        TypeError: ``weights`` is not a mapping.
        KeyError: ``weights`` has a key that is not a heuristic weight (the message lists the allowed).
        ValueError: a weight is not a finite number (:func:`seers_env.play_eval.heuristic_weight_array`).
    """
    if weights is None:
        weight_array, danger_cards = _default_weights()
    else:
        if not isinstance(weights, Mapping):
            raise TypeError(f"weights must be a mapping of heuristic weights, got {type(weights).__name__}")
        unknown = [k for k in weights if k not in play_eval.HEURISTIC_DEFAULTS]
        if unknown:
            raise KeyError(f"unknown heuristic weights {unknown!r}; allowed: {list(play_eval.HEURISTIC_DEFAULTS)}")
        weight_array, danger_cards = play_eval.heuristic_weight_array({**play_eval.HEURISTIC_DEFAULTS, **weights})
    plays = view.legal_plays()
    args, hand = _rows_args(view, plays)
    sizes = args[-3]
    danger = min((int(sizes[s]) for s in range(len(sizes)) if s != view.seat), default=1 << 30) <= danger_cards
    rows, bad = play_eval.plays_rows_prior(*args, weight_array, danger)
    if bad >= 0:  # legal plays always fit the hand
        raise ValueError(f"play {plays[bad]!r} spends cards that seat {view.seat} does not hold (hand {hand})")
    return rows


@lru_cache(maxsize=1)
def _default_weights() -> tuple[np.ndarray, int]:
    array, danger_cards = play_eval.heuristic_weight_array(None)
    array.flags.writeable = False
    return array, danger_cards


def _rows_args(view: SeatView, plays) -> tuple[tuple, list[int]]:
    """The arguments of :func:`seers_env.play_eval.plays_rows` for ``plays`` of ``view``, and the hand."""
    game: Game = view._game
    seat = view.seat
    hand = game.hands[seat]
    table = play_eval.table_of_plays(plays)
    trick = game.trick_cards() if _ROD_CARD in hand else []  # picked up by the Rod (section 6)
    top = game.top
    return ((np.array(hand, dtype=np.int64), table, np.array(trick, dtype=np.int64), _ROW_OFFSETS, PLAY_DIM,
             min(len(hand), BONUS_MAX_CARDS + 1), top is not None, int(top[2]) if top is not None else 0,
             np.array([len(h) for h in game.hands], dtype=np.int64), seat, game.n_players), hand)


def _unseen(game: Game, seat: int) -> tuple[list[int], int]:
    """Suited cards of this round's deck that ``seat`` has not seen, and the wilds it cannot place.

    A card is seen when it is in the seat's hand, was played this round (face-up) or is publicly known
    in another hand (taken with the Rod). Wilds are counted: all dealt wilds minus those in the seat's
    hand, publicly known in other hands, on the table this trick or discarded with won tricks.
    """
    n = game.n_players
    _, max_value, _ = SETUP_BY_PLAYERS[n]
    hand = game.hands[seat]
    seen = set(hand)  # suited ids are looked up below; other ids do no harm
    wilds = n * WILDS_PER_PLAYER - hand.count(WILD) - game.discards.count(WILD)
    for s in range(n):
        seen.update(game.played[s])
        if s != seat:
            known = game.known[s]
            seen.update(known)
            wilds -= known.count(WILD)
    for _, p in game.trick:
        wilds -= p.wilds
    unseen = [c for suit in game.suits for c in range(suit * N_VALUES, suit * N_VALUES + max_value - 1)
              if c not in seen]
    return unseen, max(0, wilds)


def encode_state(view: SeatView) -> np.ndarray:
    """The acting seat's state: float32 ``(STATE_DIM,)``, parts in :data:`STATE_LAYOUT`.

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
    hist = [0.0] * (HISTORY_LEN * HISTORY_ENTRY)  # filled as Python floats, stored once (same float32s)
    k = 0
    events = game.events
    for j in range(len(events) - 1, -1, -1):
        ev = events[j]
        if ev["event"] == "deal" or k >= HISTORY_LEN:
            break
        if ev["event"] != "play":
            continue
        p = ev["play"]
        o = k * HISTORY_ENTRY
        hist[o] = 1.0
        hist[o + 1 + (ev["seat"] - seat) % n] = 1.0
        hist[o + 6 + p["kind"]] = 1.0
        if p["meld_type"]:
            hist[o + 9 + p["meld_type"]] = 1.0
        hist[o + 13] = p["size"] / 12.0
        hist[o + 14] = 1.0 if p["rank"] >= HIGHEST_SINGLE_RANK else p["rank"] / 27.0
        hist[o + 15] = p["wilds"]
        if p["artifact"] >= 0:
            hist[o + 16 + p["artifact"]] = 1.0
        hist[o + 23] = p["effect_used"]
        k += 1
    if k:
        vec[base:base + k * HISTORY_ENTRY] = hist[:k * HISTORY_ENTRY]
    return vec


__all__ = ["FEATURE_VERSION", "HISTORY_LEN", "PLAY_DIM", "PLAY_LAYOUT", "STATE_DIM", "STATE_LAYOUT",
           "MaskTypeError", "encode_plays", "encode_plays_with_prior", "encode_state", "fewest_melds",
           "fewest_melds_mask", "plays_needed", "suited_mask"]
