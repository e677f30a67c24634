"""Every example of the seed rules (shared/seeds/000, copied into the rules file sections 3 to 5)."""

from __future__ import annotations

import pytest

from seers_env import IllegalPlayError
from seers_env.melds import classify
from seers_env.plays import PASS, MeldType
from seers_env.scoring import round_score

SINGLE, SET, RUN = MeldType.SINGLE, MeldType.SET, MeldType.RUN


# --- Scoring examples (section 5) ----------------------------------------------------------------

def test_scoring_example_1_no_cards_scores_0():
    assert round_score([]) == 0


def test_scoring_example_2_eight_and_nine_score_6(table):
    assert round_score(table.cards("Y8 P9")) == 6  # bonus 8 - 2 cards


def test_scoring_example_3_six_cards_score_minus_6(table):
    assert round_score(table.cards("Y2 P2 S3 Y6 T6 G10")) == -6  # 6+ cards: no bonus


def test_scoring_example_4_seven_nine_wild_score_minus_3(table):
    assert round_score(table.cards("Y7 P9 wild")) == -3  # the wild counts 0: no bonus


def test_scoring_examples_through_a_round_end(table):
    # player_0 plays their last card: the round ends at once and every hand is scored
    game = table.game(["Y5", "Y8 P9", "Y2 P2 S3 Y6 T6 G10", "Y7 P9 wild"])
    result = game.apply(table.pick(game, suited="Y5", artifact=-1))
    assert result.round_scores == (0, 6, -6, -3)
    assert game.round_scores == [[0, 6, -6, -3]] and game.round == 1


# --- Meld examples (section 3) ---------------------------------------------------------------------

def test_a_5_is_beaten_by_a_6_but_not_by_a_5(table):
    game = table.game(["Y5 Y9 Y11 P12 S13 T2", "P4 P5 T6 G9 G10 G11"])
    game.apply(table.pick(game, suited="Y5", artifact=-1))
    singles = {p.suited for p in table.melds(game) if p.meld_type == SINGLE and p.artifact == -1}
    assert singles == {(c,) for c in table.cards("T6 G9 G10 G11")}  # 6 and higher; not P4, not P5
    assert PASS in game.legal_plays()  # not in the Bonus: passing is allowed
    with pytest.raises(IllegalPlayError):
        game.apply(PASS._replace(kind=1, meld_type=SINGLE, size=1, rank=10, suited=tuple(table.cards("P5"))))


def test_three_6s_form_a_matching_set_beaten_by_three_7s(table):
    assert classify([(1, 6), (4, 6), (3, 6)]) == (SET, 12)  # Plum 6, Green 6, Teal 6
    game = table.game(["P6 G6 T6 Y2 Y3 Y4", "Y7 P7 S7 Y5 P5 S5 G13"])
    game.apply(table.pick(game, suited="P6 G6 T6", artifact=-1))
    assert game.top == (SET, 3, 12)
    sets = {p.suited for p in table.melds(game)}
    assert sets == {tuple(table.cards("Y7 P7 S7"))}  # not two 7s, not three 5s


def test_teal_4_5_run_is_beaten_by_plum_5_6(table):
    assert classify([(3, 4), (3, 5)]) == (RUN, 10)
    game = table.game(["T4 T5 Y9 Y11 G2 G3", "P5 P6 S3 S4 G12 G13"])
    game.apply(table.pick(game, suited="T4 T5", artifact=-1))
    runs = {p.suited for p in table.melds(game)}
    assert tuple(table.cards("P5 P6")) in runs  # another suit, higher top card
    assert tuple(table.cards("S3 S4")) not in runs  # top card 4 < 5
    assert tuple(table.cards("G12 G13")) in runs


# --- Bonus examples (section 4) --------------------------------------------------------------------

def test_bonus_example_1_must_play_a_higher_single(table):
    game = table.game(["Y5 Y2 Y3 Y10 Y11 Y12 Y13", "P5 T5 S7 S8 S9"])
    game.apply(table.pick(game, suited="Y5", artifact=-1))
    assert game.in_bonus(1)
    assert table.ids(game) == {(1, SINGLE, 1, 2 * v, (c,), 0, -1, -1)
                               for v, c in zip((7, 8, 9), table.cards("S7 S8 S9"))}
    before = game.to_dict()
    with pytest.raises(IllegalPlayError, match="Bonus"):
        game.apply(PASS)
    assert game.to_dict() == before


def test_bonus_example_2_must_play_6_and_wild_as_two_6s(table):
    game = table.game(["Y5 P5 Y9 Y10 Y11 Y12 Y13", "S2 S6 wild"])
    game.apply(table.pick(game, suited="Y5 P5", artifact=-1))
    assert game.top == (SET, 2, 10) and game.in_bonus(1)
    assert table.ids(game) == {(1, SET, 2, 12, tuple(table.cards("S6")), 1, -1, -1)}
    with pytest.raises(IllegalPlayError):
        game.apply(PASS)
