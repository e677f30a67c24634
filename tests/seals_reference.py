"""A naive brute-force reference for Seals' legal plays and action mask, written from
``docs/seals_rules.md`` only.

It shares no code with the engine's move generator: it never imports ``seers_env.seals.moves`` nor calls
``SealsGame.legal_plays`` / ``legal_mask`` / ``is_legal``. It reads only card identities (``colour_of``,
``symbol_of`` of ``seers_env.seals.cards``) and the game's public state (``phase``, ``current``, ``row``,
``hands``, ``game_over``), and returns plays in the engine's representation (``SealsPlay(kind, value)``,
the type of ``seers_env.seals.plays``), sorted by the flat action id of the rules file.

Rules used (sections of ``docs/seals_rules.md``):

* "A round", turn step (2): "Take every face-up card of one colour, or every face-up card of one symbol,
  that the row shows." Candidates: every colour 0..4 and every symbol 0..10; a take is legal when at least
  one face-up card has that colour / symbol, and it picks up *every* face-up card that has it
  (:func:`reference_taken_cards`).
* "A round", turn step (3) and "Sets": a declaration lays down one or several disjoint sets or nothing;
  sets are exactly four cards of one number (minor or major), exactly four Coins, or a run 1-10 in any
  colours (section 4 [ruling] ``RUN_ANY_COLOURS``); a card is in one set at most, so a hand may lay down
  several disjoint runs. "Plays and actions": a declaration is the value ``fours + (runs << 11)``: bits
  0..10 of ``fours`` name four-of-a-kinds (bit k < 10: four cards of number k+1, bit 10 four Coins),
  ``runs`` 0..5 the number of runs; 0 declares nothing (section 4 [ruling] ``MAY_DECLINE``: declining is
  always legal). Candidates: every value 0..12287 whose four-of-a-kinds the hand holds one by one; a value
  is legal when disjoint groups of the hand's actual cards can be found for each of its sets, searched by
  brute force over every 4-card combination of the held cards of each four's symbol, then taking the runs
  one after another from the cards left (:func:`_can_lay_down`).
* The declaration is asked only when the hand after the take holds a set ("(3) If the hand now holds a
  set, declare"; "Plays and actions": "when the hand holds a set, for the declaration (stage 1)").
  :func:`reference_has_set` states that condition; the test checks the engine's phase against it.
* "Plays and actions": flat action ids 0-4 colours, 5-15 symbols, 16 + declaration value (12304 ids).
  Sort key of :func:`reference_legal_plays`: that action id, ascending.
* Marks ("Sets"): minor fours 1, major fours 2, four Coins 3, each run 4 (:func:`reference_marks`).

A finished game has no legal play.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from seers_env.seals.cards import colour_of, symbol_of
from seers_env.seals.plays import SealsPlay

# Numbers straight from the rules text ("Cards", "Plays and actions").
COLOURS = range(5)
SYMBOLS = range(11)  # 0..9 the numbers 1..10, 10 the Coin
COIN_SYMBOL = 10
RUN_SHIFT = 11  # a declaration value: fours bits 0..10, then the run count
MAX_RUNS = 5  # one card of every number per run; 5 colours hold 5 of each number
N_VALUES = (MAX_RUNS + 1) << RUN_SHIFT  # 12288
N_ACTIONS = 5 + 11 + N_VALUES  # 12304
KIND_TAKE_COLOUR, KIND_TAKE_SYMBOL, KIND_DECLARE = 0, 1, 2


def action_id(kind: int, value: int) -> int:
    """The flat action id of the rules file ("Plays and actions")."""
    if kind == KIND_TAKE_COLOUR:
        return value
    if kind == KIND_TAKE_SYMBOL:
        return 5 + value
    return 16 + value


def reference_taken_cards(row, kind: int, value: int) -> list[int]:
    """Every face-up card of that colour (kind 0) or symbol (kind 1), in row order."""
    if kind == KIND_TAKE_COLOUR:
        return [c for c in row if colour_of(c) == value]
    return [c for c in row if symbol_of(c) == value]


def reference_takes(row) -> list[SealsPlay]:
    out = []
    for colour in COLOURS:
        if reference_taken_cards(row, KIND_TAKE_COLOUR, colour):
            out.append(SealsPlay(KIND_TAKE_COLOUR, colour))
    for symbol in SYMBOLS:
        if reference_taken_cards(row, KIND_TAKE_SYMBOL, symbol):
            out.append(SealsPlay(KIND_TAKE_SYMBOL, symbol))
    return out


def _fours_of(value: int) -> list[int]:
    return [k for k in range(11) if value >> k & 1]


def _runs_of(value: int) -> int:
    return value >> RUN_SHIFT


def _take_run(cards: list[int]) -> list[int] | None:
    """The cards left after laying down one run 1-10 in any colours (one card of every number 1..10,
    symbols 0..9), or None when some number is missing. Which card of a number goes into the run does not
    matter: later runs accept any colour too."""
    left = list(cards)
    for n in range(10):
        same = [c for c in left if symbol_of(c) == n]
        if not same:
            return None
        left.remove(same[0])
    return left


def _can_lay_down(cards: list[int], fours: list[int], runs: int = 0) -> bool:
    """Whether disjoint groups of ``cards`` make one four of each kind in ``fours`` and ``runs`` runs
    (brute force over the fours' card combinations; the runs from the cards left)."""
    if not fours:
        for _ in range(runs):
            cards = _take_run(cards)
            if cards is None:
                return False
        return True
    kind, rest = fours[0], fours[1:]
    same = [c for c in cards if symbol_of(c) == kind]  # four numbers k+1 (k < 10) or four Coins (k == 10)
    for four in combinations(same, 4):  # exactly four cards; a fifth stays in hand
        left = [c for c in cards if c not in four]
        if _can_lay_down(left, rest, runs):
            return True
    return False


def reference_has_set(hand) -> bool:
    """Whether ``hand`` holds at least one set ("Sets")."""
    return any(_can_lay_down(list(hand), [k]) for k in range(11)) or _can_lay_down(list(hand), [], 1)


def reference_declarations(hand) -> list[SealsPlay]:
    """Every legal declaration of ``hand``: every value 0..12287 tried whose fours the hand holds one by
    one; 0 (declining) always legal."""
    hand = list(hand)
    single = 0  # the fours the hand holds on its own; a value naming any other four is never legal
    for k in range(11):
        if _can_lay_down(hand, [k]):
            single |= 1 << k
    out = []
    for value in range(N_VALUES):
        fours = value & ((1 << RUN_SHIFT) - 1)
        if fours & ~single == 0 and _can_lay_down(hand, _fours_of(fours), _runs_of(value)):
            out.append(SealsPlay(KIND_DECLARE, value))
    return out


def reference_legal_plays(game) -> list[SealsPlay]:
    """The legal plays of the seat to act, from the public state, sorted by flat action id."""
    if game.game_over:
        return []
    if game.phase == "take":
        plays = reference_takes(game.row)
    elif game.phase == "declare":
        plays = reference_declarations(game.hands[game.current])
    else:
        raise ValueError(f"unknown phase {game.phase!r}")
    return sorted(plays, key=lambda p: action_id(p.kind, p.value))


def reference_mask(game) -> np.ndarray:
    """int8 (12304,): 1 at the action id of every reference play."""
    m = np.zeros(N_ACTIONS, np.int8)
    for p in reference_legal_plays(game):
        m[action_id(p.kind, p.value)] = 1
    return m


def reference_marks(value: int) -> int:
    """Marks of a declaration ("Sets"): fours of 1-5 one, fours of 6-10 two, four Coins 3, each run 4."""
    total = 4 * _runs_of(value)
    for k in _fours_of(value):
        total += 3 if k == COIN_SYMBOL else 1 if k < 5 else 2
    return total
