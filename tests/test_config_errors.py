"""Bad input (issue 2): invalid configurations raise ValueError naming the valid options; an illegal play
raises IllegalPlayError naming the play and the rule, and changes nothing."""

from __future__ import annotations

import pytest

from seers_env import Game, GameConfig, GameOverError, IllegalPlayError, Play
from seers_env.artifacts import ROD, kind_index
from seers_env.cards import suited_card
from seers_env.plays import PASS, MeldType, PlayKind, gift_play, rod_play


@pytest.mark.parametrize("n_players", [0, 1, 6, 10, -4, "4", 4.0, None])
def test_player_count_outside_2_to_5_is_rejected(n_players):
    with pytest.raises(ValueError, match=r"n_players=.*2, 3, 4, 5"):
        GameConfig(n_players=n_players)


def test_unknown_artifact_kind_is_rejected_naming_the_known_kinds():
    with pytest.raises(ValueError, match=r"'crystal_ball'.*go_first.*highest_single"):
        GameConfig(artifact_deck=("go_first",) + ("crystal_ball",) * 9)
    with pytest.raises(ValueError, match="unknown artifact kind"):
        kind_index("Go First")


@pytest.mark.parametrize("n_players, size", [(2, 3), (3, 5), (4, 7), (5, 9)])
def test_artifact_deck_too_small_for_the_player_count_is_rejected(n_players, size):
    with pytest.raises(ValueError, match=f"has {size} cards.*need {2 * n_players}"):
        GameConfig(n_players=n_players, artifact_deck=("rod_of_reincarnation",) * size)
    GameConfig(n_players=n_players, artifact_deck=("rod_of_reincarnation",) * (size + 1))  # just enough


def test_other_bad_configurations():
    with pytest.raises(ValueError, match="n_rounds"):
        GameConfig(n_rounds=0)
    with pytest.raises(ValueError, match="2 go_first cards; allowed: 0 or 1"):
        GameConfig(n_players=2, artifact_deck=("go_first", "go_first", "half_step", "half_step"))
    with pytest.raises(ValueError, match="list of kind keys"):
        GameConfig(artifact_deck="go_first")
    with pytest.raises(ValueError, match="suit"):
        suited_card(5, 7)
    with pytest.raises(ValueError, match="value"):
        suited_card(0, 14)


def illegal_cases(table):
    """(game, play, words the rule must contain) for each kind of illegal play."""
    lead = table.game(["Y5 Y6 rod_of_reincarnation", "P7 P8 P9 P10 P11 P12 gift_of_fate", "T2 T3"])
    yield lead, table.pick(lead, suited="Y5", artifact=-1)._replace(suited=(suited_card(4, 9),)), "hold"
    yield lead, PASS, "Start Seer must lead"
    yield lead, rod_play(), "Rod"
    yield lead, Play(PlayKind.MELD, MeldType.SET, 2, 10, (suited_card(0, 5), suited_card(0, 6))), "meld"
    follow = table.game(["Y5 Y6 rod_of_reincarnation", "P7 P8 P9 P10 P11 P12 gift_of_fate", "T2 T3 T7"])
    follow.apply(table.pick(follow, suited="Y6", artifact=-1))
    yield follow, gift_play(0), "Gift of Fate"
    yield follow, table.pick(follow, suited="P7", artifact=-1)._replace(suited=(), wilds=0), "needs 1"
    follow.apply(PASS)
    yield follow, table.pick(follow, suited="T7", artifact=-1)._replace(rank=6, suited=(suited_card(3, 3),)), "higher"
    yield follow, PASS, "Bonus"
    gift = table.game(["Y5 gift_of_fate", "P7", "T2"])
    yield gift, gift_play(0), "another seat"
    yield gift, gift_play(7), "another seat"
    yield gift, Play(PlayKind.MELD, MeldType.SINGLE, 1, 10, (99,)), "hold"  # not a card at all
    yield gift, Play(PlayKind.MELD, MeldType.SINGLE, 1, 10, (), 0, 40), "hold"  # no such artifact


def test_illegal_play_raises_naming_play_and_rule_and_changes_nothing(table):
    cases = list(illegal_cases(table))
    assert len(cases) == 12
    for game, play, words in cases:
        before = game.to_dict()
        legal_before = list(game.legal_plays())
        with pytest.raises(IllegalPlayError) as info:
            game.apply(play)
        assert info.value.play is play
        assert words in info.value.rule, (play, info.value.rule)
        assert "illegal play" in str(info.value) and info.value.rule in str(info.value)
        assert game.to_dict() == before and game.legal_plays() == legal_before


def test_illegal_play_messages_name_the_play_and_the_rule_section(table):
    game = table.game(["Y5 Y6 rod_of_reincarnation", "P7 P8"])
    with pytest.raises(IllegalPlayError, match=r"illegal play 'Rod of Reincarnation.*section 6"):
        game.apply(rod_play())
    assert game.hands[0][-1] == 61 + ROD  # unchanged


def test_apply_rejects_what_is_not_a_play_and_plays_after_the_end():
    game = Game(GameConfig(n_players=2, n_rounds=1), seed=0)
    with pytest.raises(TypeError, match="takes a Play"):
        game.apply((1, 1, 1, 10))
    while not game.game_over:
        game.apply(game.legal_plays()[0])
    with pytest.raises(GameOverError, match="over"):
        game.apply(PASS)
    with pytest.raises(GameOverError):
        Game(GameConfig(), seed=0).winners()
