"""The Haggis environment's compiled path: the Python glue around :mod:`seers_env.haggis.kernel`.

* :class:`CompiledDecision`: :class:`~seers_env.haggis.actions.HaggisDecision` whose first decision of a
  play (the main codes) is the mask of :func:`~seers_env.haggis.kernel.stage0_mask` instead of
  :func:`~seers_env.haggis.moves.turn_combos`; a chosen main code is decoded into its
  :class:`~seers_env.haggis.moves.Combo` (:func:`combo_of_code`) and its plays listed (sets directly,
  sequences by :func:`~seers_env.haggis.kernel.seq_cards`, bombs by :func:`~seers_env.haggis.moves.combo_plays`),
  the plays and order of ``combo_plays``. Same masks, same plays, same errors as the Python decision.
* :func:`legal_plays_with_combos`: the game's full legal list, built the same way code by code.
* :func:`pack_game`, :func:`observe_packed` and :func:`observe_compiled`: the observation of
  :func:`seers_env.haggis.observation.observe` written by :func:`~seers_env.haggis.kernel.write_obs`.

``haggis_v0.raw_env.compiled`` (default ``True``) chooses this path; ``False`` keeps the pure-Python one
(the reference, ``tests/test_haggis_kernel.py`` compares both).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from . import kernel
from .actions import (BOMB_BASE, CARD_BASE, N_ACTIONS, N_LENGTHS, N_VALUES, PASS_CODE, SEQ_BASE, SET_BASE,
                      HaggisDecision, card_code, play_codes)
from .cards import FIRST_FACE, MAX_NUMBER_RANK, N_CARD_IDS, rank_of
from .moves import Combo, combo_plays
from .observation import OBS_DIM
from .plays import BET_PLAYS, BOMB, COMBO_KINDS, PASS_PLAY, SEQ, SET, HaggisPlay
from .rulings import CARD_POINTS_CHOICES


def combo_of_code(code: int) -> Combo | None:
    """The :class:`Combo` of a stage-0 combination code (inverse of ``actions._combo_code``); ``None`` for
    ``PASS``.

    Raises:
        ValueError: ``code`` is a bet or a card code (no combination).
    """
    if code == PASS_CODE:
        return None
    if SET_BASE <= code < SEQ_BASE:
        i = code - SET_BASE
        return Combo(SET, i // N_VALUES + 1, 0, i % N_VALUES + 2)
    if SEQ_BASE <= code < BOMB_BASE:
        i = code - SEQ_BASE
        rest = i // N_VALUES
        return Combo(SEQ, rest // N_LENGTHS + 1, rest % N_LENGTHS + 2, i % N_VALUES + 2)
    if BOMB_BASE <= code < CARD_BASE:
        return Combo(BOMB, 0, 0, code - BOMB_BASE + 1)
    raise ValueError(f"code {code!r} is not a pass or combination code ({PASS_CODE}, {SET_BASE}..{CARD_BASE - 1})")


#: ``actions.card_code`` of every card id (a lookup table)
_CARD_CODE = tuple(card_code(c) for c in range(N_CARD_IDS))


class _MaskCodes:
    """The stage-0 codes as the ``_main`` mapping of :class:`HaggisDecision` (code -> Combo), read from
    the int8 mask: ``in`` and ``[]`` are one array read and a decode, iteration in code order."""

    __slots__ = ("mask",)

    def __init__(self, mask: np.ndarray):
        self.mask = mask

    def __contains__(self, code: int) -> bool:
        return 0 <= code < N_ACTIONS and bool(self.mask[code])

    def __getitem__(self, code: int) -> Combo | None:
        return combo_of_code(code)

    def __iter__(self):
        return iter(np.flatnonzero(self.mask).tolist())


class CompiledDecision(HaggisDecision):
    """:class:`HaggisDecision` with the compiled stage-0 mask (module docstring); same attributes."""

    def __init__(self, game):
        seat = game.current
        self.chosen = []
        if game.game_over or game._bets[seat] is None or game._legal is not None:  # as HaggisDecision
            self._left = [(p, play_codes(p, c)) for p, c in game.legal_plays_with_combos()]
            self._main = None
            return
        self._hand = game.hand(seat)
        self._main = _MaskCodes(_stage0(self._hand, game.top))
        self._left = None

    def mask(self) -> np.ndarray:
        if self._left is None:
            return self._main.mask.copy()
        return super().mask()

    def choose(self, code: int):
        """:meth:`HaggisDecision.choose` (the same plays, codes and errors), listing a chosen code's plays
        with the compiled path."""
        if self._left is None and code in self._main:
            combo = combo_of_code(code)
            if combo is None:
                left = [(PASS_PLAY, [code])]
            else:
                plays = _code_plays(self._hand, combo)
                left = [(p, [code] + sorted([_CARD_CODE[c] for c in p.cards])) for p in plays]
            return self._take(code, left)
        i = len(self.chosen)
        left = [] if self._left is None else [(p, codes) for p, codes in self._left if codes[i] == code]
        if not left:
            return super().choose(code)  # raises, naming the allowed codes
        return self._take(code, left)

    def combo_for(self, play) -> Combo | None:
        """The :class:`Combo` of ``play``, the play :meth:`choose` just finished (``None`` for a pass or a
        bet): its main code's, as every play of one main code has the same combo."""
        if play.kind in COMBO_KINDS:
            return combo_of_code(self.chosen[0])
        return None


def _set_plays(hand: list[int], size: int, value: int) -> list[HaggisPlay]:
    """The plays of :func:`~seers_env.haggis.moves.combo_plays` for ``Combo(SET, size, 0, value)`` (sets of
    ``size`` cards of ``value``: some of its number cards and wilds, or a lone face card), in the same order
    (all share the combo, so the order is by cards), listed directly."""
    if value > MAX_NUMBER_RANK:  # a single face card
        return [HaggisPlay(SET, (c,)) for c in hand if c >= FIRST_FACE and rank_of(c) == value] if size == 1 else []
    nats = [c for c in hand if c < FIRST_FACE and rank_of(c) == value]
    wilds = [c for c in hand if c >= FIRST_FACE]
    out = []
    for k in range(max(1, size - len(wilds)), min(len(nats), size) + 1):
        for ns in combinations(nats, k):
            for ws in combinations(wilds, size - k):
                out.append(tuple(sorted(ns + ws)))
    out.sort()
    return [HaggisPlay(SET, cards) for cards in out]


def _seq_plays(hand: list[int], width: int, length: int, top: int) -> list[HaggisPlay]:
    """The plays of :func:`~seers_env.haggis.moves.combo_plays` for ``Combo(SEQ, width, length, top)``, in
    the same order (by cards), from the compiled :func:`~seers_env.haggis.kernel.seq_cards`."""
    rows = kernel.seq_cards(np.array(hand, np.int64), width, length, top).tolist()
    rows.sort()
    return [HaggisPlay(SEQ, tuple(r), width) for r in rows]


def _stage0(hand: list[int], top: Combo | None) -> np.ndarray:
    """The kernel's stage-0 mask of ``hand`` on ``top`` (int8 ``(N_ACTIONS,)``)."""
    mask = np.empty(N_ACTIONS, np.int8)
    if top is None:
        kernel.stage0_mask(np.array(hand, np.int64), -1, 0, 0, 0, mask)
    else:
        kernel.stage0_mask(np.array(hand, np.int64), top.kind, top.a, top.b, top.value, mask)
    return mask


def _code_plays(hand: list[int], combo: Combo) -> list[HaggisPlay]:
    """The plays of ``hand`` whose combo is ``combo``, in the order of ``moves.combo_plays``."""
    if combo.kind == SET:
        return _set_plays(hand, combo.a, combo.value)
    if combo.kind == SEQ:
        return _seq_plays(hand, combo.a, combo.b, combo.value)
    return [p for p, _ in combo_plays(hand, combo)]


def legal_plays_with_combos(game) -> list[tuple[HaggisPlay, Combo | None]]:
    """``game.legal_plays_with_combos()``, the same list (plays, combos, order), from the compiled stage-0
    mask: the plays of each legal main code in code order, which is the documented order of
    :mod:`seers_env.haggis.moves` (pass; sets by size and value; sequences by width, length and top;
    bombs by value; each code's plays by cards). Does not set the game's own cache."""
    if game.game_over:
        return []
    seat = game.current
    if game._bets[seat] is None:
        return [(p, None) for p in BET_PLAYS]
    hand = game._hands[seat]
    out: list[tuple[HaggisPlay, Combo | None]] = []
    for code in np.flatnonzero(_stage0(hand, game.top)).tolist():
        combo = combo_of_code(code)
        if combo is None:
            out.append((PASS_PLAY, None))
        else:
            out += [(p, combo) for p in _code_plays(hand, combo)]
    return out


def pack_game(game, totals: list[int] | None = None) -> np.ndarray:
    """The game as the int64 vector :func:`kernel.write_obs` reads (``kernel.P_*`` layout; every seat's
    hand, the open trick's and the captured cards); seat independent. ``totals``: ``game.totals`` when the
    caller has them (else summed here)."""
    n = game.config.n_players
    hands = game._hands
    trick = game._trick
    out = game._out
    captured = game._captured
    pad = _PAD[n]
    if trick:
        seat, _, top = trick[-1]
        top_part = [top.kind, top.a, top.b, top.value, seat]
        trick_cards = [c for _, p, _ in trick for c in p.cards]
    else:
        top_part = [-1, 0, 0, 0, -1]
        trick_cards = []
    scores = game._round_scores
    if totals is None:
        totals = game.totals
    head = ([n, int(game.game_over), game.current, game._passes, game.round, game.config.target, len(game._haggis)]
            + top_part + [len(out)] + (out + [-1, -1, -1])[:3]
            + [-1 if b is None else b for b in game._bets] + pad
            + game._going_out + pad + game._bet_points + pad + totals + pad
            + ([1] + scores[-1] + pad if scores else [0, 0, 0, 0])
            + [len(cs) for cs in captured] + pad
            + [len(h) for h in hands] + pad + [len(trick_cards), _SCORING[game.config.card_points]])
    for h in hands:
        head += h
    head += trick_cards
    for cs in captured:
        head += cs
    return np.array(head, np.int64)


_PAD = {2: [0], 3: []}
_SCORING = {s: i for i, s in enumerate(CARD_POINTS_CHOICES)}
_NO_CARDS = np.zeros(0, np.int64)


def observe_packed(packed: np.ndarray, seat: int, decision=None) -> np.ndarray:
    """float32 ``(OBS_DIM,)``: :func:`seers_env.haggis.observation.observe` of ``seat`` from the packed
    game (:func:`pack_game`) and ``seat``'s pending ``decision`` (or ``None``)."""
    obs = np.empty(OBS_DIM, np.float32)
    chosen = decision.chosen if decision is not None else None
    if chosen:
        kernel.write_obs(packed, seat, chosen[0], np.array(chosen[1:], np.int64) - CARD_BASE, obs)
    else:
        kernel.write_obs(packed, seat, -1, _NO_CARDS, obs)
    return obs


def observe_compiled(game, seat: int, decision=None) -> np.ndarray:
    """:func:`seers_env.haggis.observation.observe` of ``HaggisSeatView(game, seat)`` and ``decision``,
    compiled (:func:`pack_game` then :func:`observe_packed`)."""
    return observe_packed(pack_game(game), seat, decision)


__all__ = ["CompiledDecision", "combo_of_code", "legal_plays_with_combos", "observe_compiled", "observe_packed", "pack_game"]
