"""Seals engine against the rulebook itself (shared/seeds/002_ee7897586dde5c0f.txt), section by section.

The rules file (shared/rules/seals.md) was checked against the rulebook; these tests pin the rulebook's
own wording and examples (which differ from the rules file's) to the engine's behaviour.
"""

from __future__ import annotations

import numpy as np

from seers_env.seals import DECLINE_PLAY, SealsConfig, SealsGame, SealsPlay
from seers_env.seals import rulings
from seers_env.seals.cards import COIN, N_CARDS, RUN, card_name, card_of, colour_of, symbol_of
from seers_env.seals.moves import taken_cards

RED, BLUE, GREEN, YELLOW, BLACK = range(5)


def num(colour: int, number: int) -> int:
    return card_of(colour, number - 1)


def coin(colour: int) -> int:
    return card_of(colour, COIN)


def take_choices(row: list[int]) -> set[frozenset[str]]:
    """The distinct card sets a player may take from ``row`` (names), as the engine allows them."""
    g = SealsGame.from_position(row=row, hands=[[], [], []])
    return {frozenset(card_name(c) for c in taken_cards(row, p)) for p in g.legal_plays()}


# --- Components ------------------------------------------------------------------------------------------
def test_components_55_cards_5_colours_numbers_1_to_10_and_a_coin():
    cards = range(N_CARDS)
    assert N_CARDS == 55
    for colour in range(5):
        assert sorted(symbol_of(c) for c in cards if colour_of(c) == colour) == list(range(11))


def test_game_turn_examples_colours_blue_green_red_and_black_exist():
    # Game Turn examples: "the two blue cards", "only the green card", "the red Coin", "the three black
    # cards". The engine's colour names (labels) had no Black before this check.
    names = {n.lower() for n in rulings.COLOUR_NAMES}
    assert {"blue", "green", "red", "black"} <= names and len(rulings.COLOUR_NAMES) == 5
    assert card_name(coin(RED)) == "Red Coin" and card_name(num(BLACK, 2)) == "Black 2"


# --- Setup / New Round -------------------------------------------------------------------------------------
def test_setup_all_cards_in_the_pile_five_marks_counter_random_first_player():
    g = SealsGame(SealsConfig(n_players=3), seed=11)
    assert g.counter == 5 and g.hands == [[], [], []]
    assert sorted(g.pile + g.row) == list(range(N_CARDS)) and len(g.row) == 4
    assert {SealsGame(SealsConfig(n_players=3), seed=s).first_player_seat for s in range(30)} == {0, 1, 2}


def test_new_round_reshuffles_and_the_first_player_moves_clockwise():
    hand = [num(c, 3) for c in range(4)]
    g = SealsGame.from_position(row=[num(RED, 9), num(BLUE, 8), num(GREEN, 7), num(YELLOW, 6)],
                                hands=[[], hand, []], current=1, start_player=1)
    g.apply(SealsPlay.colour(RED))
    g.apply(SealsPlay.declare([2]))
    assert g.round == 1 and g.start_player == 2 and g.current == 2
    assert g.hands == [[], [], []] and sorted(g.pile + g.row) == list(range(N_CARDS))


# --- Game Turn ---------------------------------------------------------------------------------------------
def test_game_turn_first_example_choices():
    # "you could take the two Coins or the two blue cards, or the two 4 or only the green card, or only
    # the red Coin": a row Red Coin, Blue Coin, Blue 4, Green 4 allows exactly these five.
    row = [coin(RED), coin(BLUE), num(BLUE, 4), num(GREEN, 4)]
    assert take_choices(row) == {frozenset({"Red Coin", "Blue Coin"}), frozenset({"Blue Coin", "Blue 4"}),
                                 frozenset({"Blue 4", "Green 4"}), frozenset({"Green 4"}),
                                 frozenset({"Red Coin"})}


def test_game_turn_second_example_choices():
    # "you could take the three black cards or only the 2, only the 4, only the 5 or only the 7": never
    # a part of the black cards.
    row = [num(BLACK, 2), num(BLACK, 4), num(BLACK, 5), num(RED, 7)]
    assert take_choices(row) == {frozenset({"Black 2", "Black 4", "Black 5"}), frozenset({"Black 2"}),
                                 frozenset({"Black 4"}), frozenset({"Black 5"}), frozenset({"Red 7"})}


def test_game_turn_reveal_tops_the_row_up_to_four():
    row = [num(RED, 2), num(BLUE, 2), num(RED, 9), num(GREEN, 5)]
    g = SealsGame.from_position(row=row, hands=[[], [], []])
    top = g.pile[:2]
    g.apply(SealsPlay.symbol(1))  # the two 2s; the other two stay face up
    assert g.row == [num(RED, 9), num(GREEN, 5)] + top


def test_game_turn_sets_may_be_played_at_the_end_of_a_later_turn():
    # "At the end of your turn, you may play out one or several Sets": a set kept earlier still counts.
    hand = [num(c, 3) for c in range(4)]
    g = SealsGame.from_position(row=[num(RED, 9), num(BLUE, 8), num(GREEN, 7), num(YELLOW, 6)],
                                hands=[hand, [], []])
    g.apply(SealsPlay.colour(RED))
    assert g.phase == "declare"
    g.apply(DECLINE_PLAY)
    while g.current != 0:
        g.apply(g.legal_plays()[0] if g.phase == "take" else DECLINE_PLAY)
    g.apply(g.legal_plays()[0])
    assert g.phase == "declare" and SealsPlay.declare([2]) in g.legal_plays()


def test_game_turn_note_a_card_is_in_one_set_only():
    # a run plus four 3s needs five 3s; with four the hand may lay down one of them, not both
    hand = [num(c % 5, k) for c, k in zip(range(10), range(1, 11))]
    hand += [num(c, 3) for c in range(5) if num(c, 3) not in hand][:3]
    g = SealsGame.from_position(row=[num(RED, 9)] if num(RED, 9) not in hand else [num(GREEN, 9)],
                                hands=[sorted(hand), [], []], phase="declare", turns=1)
    legal = g.legal_plays()
    assert SealsPlay.declare([RUN]) in legal and SealsPlay.declare([2]) in legal
    assert SealsPlay.declare([2, RUN]) not in legal


# --- Sets / Important ----------------------------------------------------------------------------------------
def _declare(kinds: list[int], hand: list[int], **kw) -> SealsGame:
    used = set(hand)
    row = [next(c for c in range(N_CARDS) if c not in used)]
    g = SealsGame.from_position(row=row, hands=[sorted(hand), [], []], phase="declare", turns=1, **kw)
    g.apply(SealsPlay.declare(kinds))
    return g


def test_sets_marks_and_the_round_is_won_at_once():
    quads = {0: [num(c, 1) for c in range(4)], 7: [num(c, 8) for c in range(4)],
             COIN: [coin(c) for c in range(4)], RUN: [num(k % 5, k) for k in range(1, 11)]}
    for kind, marks in ((0, 1), (7, 2), (COIN, 3), (RUN, 4)):
        g = _declare([kind], quads[kind])
        assert g.round_scores == [[marks, 0, 0]] and g.round == 1 and g.round_end_reasons == ["declared"]


def test_important_the_first_mark_comes_from_the_round_counter_only_one():
    # a run pays 4 Marks but takes just one from the pile of 5: the counter tracks the rounds
    g = _declare([RUN], [num(k % 5, k) for k in range(1, 11)])
    assert g.totals == [4, 0, 0] and g.counter == 4


# --- Game End ------------------------------------------------------------------------------------------------
def test_game_end_five_marks_win_immediately():
    g = _declare([COIN], [coin(c) for c in range(4)], round_scores=[[2, 0, 0]])
    assert g.game_over and g.winners() == [0] and g.totals == [5, 0, 0] and g.counter == 3


def test_game_end_after_the_fifth_round_the_most_marks_win():
    g = _declare([0], [num(c, 1) for c in range(4)], round_scores=[[1, 0, 0], [0, 2, 0], [0, 0, 1], [1, 0, 0]])
    assert g.game_over and g.counter == 0 and g.totals == [3, 2, 1] and g.winners() == [0]


def test_game_end_a_tie_is_settled_by_a_final_round_of_the_tied_players():
    g = _declare([0], [num(c, 1) for c in range(4)], round_scores=[[1, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]])
    assert not g.game_over and g.totals == [2, 2, 1] and g.playing == [True, True, False]
    rng = np.random.default_rng(3)
    while not g.game_over:
        assert g.current in (0, 1)
        legal = g.legal_plays()
        g.apply(legal[-1] if g.phase == "declare" else legal[int(rng.integers(len(legal)))])
    assert g.totals[2] == 1 and (len(g.winners()) == 1 or g.tie_breaks == rulings.DEFAULT_MAX_TIE_BREAK_ROUNDS)
