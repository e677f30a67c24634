"""The Haggis action catalogue of the environment: ``Discrete(N_ACTIONS)``, ``N_ACTIONS == 814``.

A legal play is chosen by one or more decisions of the same agent (as the Seers Catalog environment does
for multi-part plays, :mod:`seers_env.actions`): the bet is a decision of its own; a combination is its
shape and value first, then its cards one by one in ascending card code.

=========  ========================  =====  ====================================================
stage      block                     codes  meaning
=========  ========================  =====  ====================================================
0 main     ``PASS``                  1      pass (section 3)
0 main     ``BET(b)``                3      bet 0, 15 or 30 (section 7; a decision of its own)
0 main     ``SET(n, v)``             96     a set of n = 1..8 cards of value v = 2..13
0 main     ``SEQ(w, L, top)``        660    a sequence of width w = 1..5, length L = 2..12, top
                                            rank 2..13
0 main     ``BOMB(b)``               6      bomb b = 1..6 (section 4.4 order)
1 cards    ``CARD(k)``               48     the next card: number card id k = 0..44, or the own
                                            J / Q / K (k = 45 / 46 / 47)
=========  ========================  =====  ====================================================

:class:`HaggisDecision` narrows the legal plays by each chosen code and skips a card decision when every
remaining play has the same card there (and ends once one play remains), so the mask of every decision is
exact: ``mask[a] == 1`` exactly when some legal play continues with ``a``. Every legal play has its own
code path (:func:`play_codes`), so every distinct legal play is reachable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..integers import is_integer, unwrap_integer_array
from .cards import FIRST_FACE, N_NUMBER_CARDS, card_name, rank_of
from .moves import BOMB_NAMES, Combo, combo_of, combo_plays, turn_combos
from .plays import BET, BOMB, PASS, PASS_PLAY, SEQ, SET, HaggisPlay
from .rulings import BETS

PASS_CODE = 0
BET_BASE = 1
SET_BASE = BET_BASE + len(BETS)  # 4
MAX_SET, N_VALUES = 8, 12  # sizes 1..8, values 2..13
SEQ_BASE = SET_BASE + MAX_SET * N_VALUES  # 100
MAX_W, N_LENGTHS = 5, 11  # widths 1..5, lengths 2..12
BOMB_BASE = SEQ_BASE + MAX_W * N_LENGTHS * N_VALUES  # 760
CARD_BASE = BOMB_BASE + 6  # 766
N_CARD_CODES = N_NUMBER_CARDS + 3  # 48
N_ACTIONS = CARD_BASE + N_CARD_CODES  # 814


def main_code(play: HaggisPlay, combo: Combo | None = None) -> int:
    """The stage-0 code of a legal play."""
    if play.kind == PASS:
        return PASS_CODE
    if play.kind == BET:
        return BET_BASE + BETS.index(play.amount)
    c = combo if combo is not None else combo_of(play)
    if play.kind == SET:
        return SET_BASE + (c.a - 1) * N_VALUES + c.value - 2
    if play.kind == SEQ:
        return SEQ_BASE + ((c.a - 1) * N_LENGTHS + c.b - 2) * N_VALUES + c.value - 2
    return BOMB_BASE + c.value - 1


def card_code(card: int) -> int:
    """The stage-1 code of a card of the acting seat: its id, or 45 + k for its own J/Q/K."""
    return CARD_BASE + (card if card < FIRST_FACE else N_NUMBER_CARDS + rank_of(card) - 11)


def play_codes(play: HaggisPlay, combo: Combo | None = None) -> list[int]:
    """The full code path of a play: the main code, then (combinations) its cards in ascending code."""
    codes = [main_code(play, combo)]
    if play.kind in (SET, SEQ, BOMB):
        codes += sorted(card_code(c) for c in play.cards)
    return codes


def check_action(action: Any) -> int:
    """``action`` as an ``int`` in ``0..N_ACTIONS-1``.

    Raises:
        TypeError: not an integer (bools and floats refused; numpy integers and 0-d integer arrays accepted).
        ValueError: out of range.
    """
    action = unwrap_integer_array(action)
    if not is_integer(action):
        raise TypeError(f"action must be an integer 0..{N_ACTIONS - 1}, got {type(action).__name__}: {action!r}")
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action!r} is outside 0..{N_ACTIONS - 1}")
    return int(action)


def describe_code(code: int) -> str:
    """A code in words, without context."""
    if code == PASS_CODE:
        return "pass"
    if code < SET_BASE:
        return f"bet {BETS[code - BET_BASE]}"
    if code < SEQ_BASE:
        i = code - SET_BASE
        return f"set of {i // N_VALUES + 1} ({i % N_VALUES + 2})"
    if code < BOMB_BASE:
        i = code - SEQ_BASE
        v, rest = i % N_VALUES + 2, i // N_VALUES
        return f"sequence {rest // N_LENGTHS + 1}x{rest % N_LENGTHS + 2} to {v}"
    if code < CARD_BASE:
        return f"bomb {BOMB_NAMES[code - BOMB_BASE + 1]}"
    k = code - CARD_BASE
    return f"card {card_name(k) if k < N_NUMBER_CARDS else 'JQK'[k - N_NUMBER_CARDS]}"


class HaggisDecision:
    """The pending decision of the seat to act in ``game`` (module docstring).

    Attributes:
        stage: 0 (the main code) or 1 (a card). chosen: the codes chosen so far (skipped ones included).
        pending: ``(main code, cards chosen so far)`` for the observation, or ``None`` at stage 0.
    """

    def __init__(self, game):
        self.chosen: list[int] = []
        seat = game.current
        if game.game_over or game._bets[seat] is None or game._legal is not None:
            self._left = [(p, play_codes(p, c)) for p, c in game.legal_plays_with_combos()]
            self._main = None
            return
        # stage 0 of a play: the main codes alone (moves.turn_combos); the plays of the chosen code are
        # listed when it is chosen (moves.combo_plays), the same plays in the same order as the full list
        top = game.top
        self._hand = game.hand(seat)
        self._main = {main_code(PASS_PLAY): None} if top is not None else {}
        for c in turn_combos(self._hand, top):
            self._main[_combo_code(c)] = c
        self._left = None

    @property
    def stage(self) -> int:
        return 0 if not self.chosen else 1

    @property
    def pending(self) -> tuple[int, list[int]] | None:
        if not self.chosen:
            return None
        return self.chosen[0], [c - CARD_BASE for c in self.chosen[1:]]

    def _next_codes(self) -> list[int]:
        if self._left is None:
            return list(self._main)
        i = len(self.chosen)
        return [codes[i] for _, codes in self._left]

    def mask(self) -> np.ndarray:
        """int8 ``(N_ACTIONS,)``: 1 exactly for the codes that continue a legal play."""
        m = np.zeros(N_ACTIONS, np.int8)
        m[self._next_codes()] = 1
        return m

    def allowed(self, code: int) -> bool:
        if self._left is None:
            return code in self._main
        i = len(self.chosen)
        return any(codes[i] == code for _, codes in self._left)

    def choose(self, code: int) -> HaggisPlay | None:
        """Take ``code``; the finished play, or ``None`` when another decision of this agent follows.

        Raises:
            ValueError: ``code`` continues no legal play (names the allowed codes).
        """
        if self._left is None and code in self._main:
            combo = self._main[code]
            left = [(PASS_PLAY, [code])] if combo is None else \
                [(p, play_codes(p, c)) for p, c in combo_plays(self._hand, combo)]
        else:
            i = len(self.chosen)
            left = [] if self._left is None else [(p, codes) for p, codes in self._left if codes[i] == code]
        if not left:
            allowed = sorted(set(self._next_codes()))
            raise ValueError(f"action {code} ({describe_code(code)}) continues no legal play; allowed: "
                             f"{allowed[:20]}{' ...' if len(allowed) > 20 else ''}")
        return self._take(code, left)

    def _take(self, code: int, left: list) -> HaggisPlay | None:
        """Record ``code`` with the ``(play, codes)`` it leaves, then the codes every one of them shares
        (they are no decision); the play once one is left, else ``None``."""
        self.chosen.append(code)
        self._left = left
        while len(left) > 1 and len({codes[len(self.chosen)] for _, codes in left}) == 1:
            self.chosen.append(left[0][1][len(self.chosen)])
        if len(left) == 1:
            return left[0][0]
        return None


def _combo_code(c: Combo) -> int:
    """The main code of a combination (:func:`main_code` without a play)."""
    if c.kind == SET:
        return SET_BASE + (c.a - 1) * N_VALUES + c.value - 2
    if c.kind == SEQ:
        return SEQ_BASE + ((c.a - 1) * N_LENGTHS + c.b - 2) * N_VALUES + c.value - 2
    return BOMB_BASE + c.value - 1


def describe_action(action: Any, game, decision: HaggisDecision | None) -> str:
    """``action`` in words for the pending decision (with ``legal`` / ``not legal now``)."""
    a = check_action(action)
    ok = decision is not None and decision.allowed(a)
    text = describe_code(a)
    if a >= CARD_BASE and game is not None and not game.game_over:
        k = a - CARD_BASE
        if k >= N_NUMBER_CARDS:
            text = f"card {card_name(FIRST_FACE + 3 * game.current + k - N_NUMBER_CARDS)} (own)"
    return f"{text} ({'legal' if ok else 'not legal now'})"


def is_face_code(code: int) -> bool:
    return code >= CARD_BASE + N_NUMBER_CARDS


__all__ = ["BET_BASE", "BOMB_BASE", "CARD_BASE", "HaggisDecision", "N_ACTIONS", "PASS_CODE", "SEQ_BASE",
           "SET_BASE", "card_code", "check_action", "describe_action", "describe_code", "main_code",
           "play_codes"]
