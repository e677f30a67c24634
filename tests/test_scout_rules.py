"""SCOUT rules (``shared/rules/scout.md``): worked examples, every ruling, round ends, the 2-player game,
rotation, Scout & Show, serialisation, replay, clones, determinism, aliasing, illegal plays, config checks,
the seat view and truncation."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from scout_policies import by_kind, uniform
from scout_positions import Picker
from seers_env.scout import (
    KEEP_PLAY, ROTATE_PLAY, STOP_PLAY, GameOverError, IllegalPlayError, ScoutConfig, ScoutGame, ScoutPlay,
    ScoutSeatView,
)
from seers_env.scout import rulings
from seers_env.scout.cards import CARD_1_2, CARD_NUMBERS, N_CARDS, SETUP, card_id, face_by_numbers, face_pair
from seers_env.scout.moves import strength_key
from seers_env.scout.plays import SCOUT, SCOUT_SHOW, SHOW

show, scout, scout_show = ScoutPlay.show, ScoutPlay.scout, ScoutPlay.scout_show


def pair(top: int, bottom: int) -> tuple[int, int]:
    return face_pair(face_by_numbers(top, bottom))


def play_rotation(game: ScoutGame, rotate=()) -> None:
    while game.phase == "rotate":
        game.apply(ROTATE_PLAY if game.current in rotate else KEEP_PLAY)


def values(hand) -> list[int]:
    return [t for _, t in hand]


# --- section 1 and 2: cards and setup ------------------------------------------------------------------

def test_45_cards_every_pair_once():
    assert len(CARD_NUMBERS) == 45 == N_CARDS
    assert sorted(CARD_NUMBERS) == [(a, b) for a in range(1, 11) for b in range(a + 1, 11)]
    assert all(card_id(a, b) == i == card_id(b, a) for i, (a, b) in enumerate(CARD_NUMBERS))


@pytest.mark.parametrize("n, cards, hand, chips, ss, rounds", [
    (2, 44, 11, 3, False, 2), (3, 36, 12, 0, True, 3), (4, 44, 11, 0, True, 4), (5, 45, 9, 0, True, 5)])
def test_setup_table(n, cards, hand, chips, ss, rounds):
    s = SETUP[n]
    row = (len(s.in_play), s.hand_size, s.chips_at_start, s.scout_and_show, s.rounds)
    assert row == (cards, hand, chips, ss, rounds)
    if n == 3:
        assert all(10 not in CARD_NUMBERS[c] for c in s.in_play) and len(s.removed) == 9
    if n in (2, 4):
        assert s.removed == (card_id(9, 10),)
    game = ScoutGame(ScoutConfig(n_players=n), seed=1)
    assert game.hand_sizes() == [hand] * n and game.chips == [chips] * n
    assert game.config.n_rounds == rounds
    dealt = [c for h in game.hands for c, _ in h] + [c for c, _ in game.set_aside]
    assert sorted(dealt) == list(s.in_play)
    assert len(game.set_aside) == (22 if n == 2 else 0)


def test_deal_randomises_orientation():
    game = ScoutGame(ScoutConfig(n_players=5), seed=3)
    tops = [(top == CARD_NUMBERS[c][1]) for h in game.hands for c, top in h]
    assert 10 < sum(tops) < 35  # both orientations occur (45 fair coins)


def test_play_type_is_an_immutable_tuple_of_ints():
    a = ScoutPlay.show(1, 2)
    assert a == ScoutPlay(SHOW, 0, 0, 0, 1, 2) and hash(a) == hash(ScoutPlay(SHOW, 0, 0, 0, 1, 2))
    assert a != ScoutPlay.show(1, 3) and len({a, ScoutPlay.show(1, 2), scout(0, 0, 1)}) == 2
    with pytest.raises(AttributeError):
        a.start = 3
    assert ScoutPlay.from_list(json.loads(json.dumps(a.to_list()))) == a
    assert ScoutPlay(SHOW, 1, 0, 0, 1, 2).malformed()  # SHOW does not use end
    with pytest.raises(ValueError, match="does not use field end"):
        ScoutPlay.from_list([SHOW, 1, 0, 0, 1, 2])
    with pytest.raises(TypeError):
        ScoutPlay.from_list([SHOW, 0, 0, 0, 1, True])
    assert sorted([STOP_PLAY, scout_show(0, 0, 0, 0, 1), scout(1, 0, 0), show(2, 1), show(0, 3), ROTATE_PLAY,
                   KEEP_PLAY]) == [KEEP_PLAY, ROTATE_PLAY, show(0, 3), show(2, 1), scout(1, 0, 0),
                                   scout_show(0, 0, 0, 0, 1), STOP_PLAY]


def test_numpy_integer_fields_are_accepted():
    game = ScoutGame(ScoutConfig(n_players=np.int64(3)), seed=np.int64(2))
    game.apply(ScoutPlay(np.int64(0)))
    assert type(game.events[-1]["play"][0]) is int and game.rotated[0] is False


# --- section 4: the strength examples -------------------------------------------------------------------

@pytest.mark.parametrize("a, b, beats", [
    ([4, 4], [9, 10], True), ([1, 2, 3], [10, 10], True), ([2, 3], [1, 2], True), ([8, 7], [8, 9], False),
    ([6], [6], False), ([7, 7, 7], [6, 6, 6], True), ([7, 7, 7], [1, 2, 3, 4], False),
    ([7, 6, 5], [5, 6, 7], False), ([5, 6, 7], [7, 6, 5], False)])
def test_strength_examples_of_section_4(a, b, beats):
    assert (strength_key(a) > strength_key(b)) is beats


def test_direction_does_not_matter():
    assert strength_key([7, 6, 5]) == strength_key([5, 6, 7])


@pytest.mark.parametrize("a, b, beats", [
    ([4, 4], [9, 10], True), ([2, 3], [1, 2], True), ([8, 7], [8, 9], False), ([6], [6], False),
    ([7, 7, 7], [6, 6, 6], True)])
def test_strength_examples_as_shows_in_a_game(a, b, beats):
    p = Picker(5)
    hand = p.hand(a) + p.filler_hand(0)
    active = p.hand(b)
    game = ScoutGame.from_position(ScoutConfig(n_players=5), hands=[hand, p.filler_hand(3), p.filler_hand(3),
                                                                      p.filler_hand(3), p.filler_hand(3)],
                                   active=active, active_owner=4, current=0)
    assert game.is_legal(show(0, len(a))) is beats
    assert (show(0, len(a)) in game.legal_plays()) is beats


def test_valid_segments_no_wrap_no_gaps_and_part_of_a_group():
    p = Picker(5)
    hand = p.hand([3, 4, 5, 6, 9, 10, 1, 2, 4])
    game = ScoutGame.from_position(ScoutConfig(n_players=5), hands=[hand] + [p.filler_hand(2) for _ in range(4)])
    shows = {(q.start, q.length) for q in game.legal_plays() if q.kind == SHOW}
    assert (1, 2) in shows  # 4-5 out of 3-4-5-6
    assert (0, 4) in shows and (4, 2) in shows and (6, 2) in shows
    assert (4, 3) not in shows and (5, 2) not in shows  # 9-10-1 and 10-1: no wrap-around
    assert (7, 2) not in shows  # 2-4: no gaps


def test_single_card_is_a_set_of_one():
    assert rulings.SINGLE_CARD_IS_SET
    assert strength_key([6]) == ((1 * 2 + 1) << 4) | 6  # the set bit
    assert strength_key([6]) > strength_key([5]) and not strength_key([6]) > strength_key([6])


# --- section 8: the three scoring examples ----------------------------------------------------------------

def test_scoring_example_3_players_round_end_a():
    p = Picker(3)
    active = [p.face(3, 4)]
    hands = [p.filler_hand(3), [p.face(5, 1), p.face(5, 2)], p.filler_hand(5)]
    piles = [p.filler(6), p.filler(6), p.filler(4)]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, active=active, active_owner=0,
                                   current=1, piles=piles, chips=[2, 3, 1])
    result = game.apply(show(0, 2))
    assert result.round_end_reason == "a" and result.exempt == 1
    assert result.round_scores == (5, 10, 0)
    assert game.round_scores == [[5, 10, 0]] and game.round == 1 and game.phase == "rotate"


def _example_4_players(set_tops):
    p = Picker(4)
    run = [p.face(t, b) for t, b in set_tops]
    hands = [p.filler_hand(4), p.filler_hand(8), run + p.filler_hand(6), p.filler_hand(4)]
    piles = [[], p.filler(3), p.filler(5), []]
    return ScoutGame.from_position(ScoutConfig(n_players=4), hands=hands, current=2, piles=piles,
                                   chips=[0, 0, 1, 0])


def test_scoring_example_4_players_round_end_b():
    game = _example_4_players([(3, 9), (4, 9), (5, 9), (6, 9)])
    assert values(game.hands[2][:4]) == [3, 4, 5, 6]
    game.apply(show(0, 4))
    assert game.current == 3 and game.last_shower == 2
    game.apply(scout(0, 0, 0))  # P3 scouts the 3
    assert game.chips[2] == 2 and values(game.active) == [4, 5, 6]
    game.apply(scout(1, 0, 0))  # P0 scouts the 6
    result = game.apply(scout(0, 0, 0))  # P1 scouts the 4: [5] is left, the next player is P2
    assert result.round_end_reason == "b" and result.exempt == 2
    scores = result.round_scores
    assert scores[2] == 5 + 4 - 0 == 9
    assert scores[1] == 3 + 0 - 9 == -6
    assert game.round_end_reasons == ["b"] and game.round_exempt == [2]


def test_scoring_example_4_players_b_when_the_last_scout_empties_the_set():
    assert rulings.ROUND_END_B_WHEN_SET_EMPTIED
    game = _example_4_players([(8, 1), (8, 2), (8, 3)])
    assert values(game.hands[2][:3]) == [8, 8, 8]
    game.apply(show(0, 3))
    game.apply(scout(0, 0, 0))
    game.apply(scout(0, 0, 0))
    result = game.apply(scout(0, 0, 0))  # the set is now empty, and the next player is its owner
    assert result.round_end_reason == "b" and result.exempt == 2
    assert result.round_scores[2] == 5 + 4 - 0


def _example_2_players(n_rounds=2):
    p = Picker(2)
    a_hand = [p.face(4, 10), p.face(5, 10), p.face(6, 10)] + p.hand([(1, 7), (9, 2), (3, 8)])
    b_hand = p.hand([(1, 3), (9, 3), (2, 6), (8, 2), (3, 5), (7, 4), (1, 6), (9, 4), (5, 7)])
    piles = [p.filler(8), p.filler(5)]
    return ScoutGame.from_position(ScoutConfig(n_players=2, n_rounds=n_rounds), hands=[a_hand, b_hand],
                                   current=0, piles=piles, chips=[2, 0])


def test_scoring_example_2_players_round_end_7b():
    game = _example_2_players()
    result = game.apply(show(0, 3))  # A shows [4,5,6]; B has no chip and nothing stronger
    assert result.round_end_reason == "b" and result.exempt == 0
    assert result.round_scores == (8 + 2 - 0, 5 + 0 - 9) == (10, -4)
    # round 2 is dealt from the cards set aside: every unused card of the 44 here (16), 8 each
    assert game.round == 1 and game.hand_sizes() == [8, 8] and game.start_player == 1


# --- section 2: rotation and start players -----------------------------------------------------------------

def test_rotation_reverses_and_flips_and_is_its_own_decision():
    assert rulings.ROTATION_REVERSES_AND_FLIPS
    game = ScoutGame(ScoutConfig(n_players=3), seed=5)
    before = game.hands
    assert game.phase == "rotate" and game.current == 0
    assert game.legal_plays() == [KEEP_PLAY, ROTATE_PLAY]
    game.apply(ROTATE_PLAY)
    flipped = [(c, CARD_NUMBERS[c][0] + CARD_NUMBERS[c][1] - t) for c, t in reversed(before[0])]
    assert game.hands[0] == flipped
    assert game.current == 1 and game.rotated == [True, None, None]
    game.apply(KEEP_PLAY)
    assert game.hands[1] == before[1]
    game.apply(KEEP_PLAY)
    assert game.phase == "play" and game.current == game.start_player == 0
    assert game.rotated == [True, False, False]
    with pytest.raises(IllegalPlayError, match="once per round"):
        game.apply(ROTATE_PLAY)
    assert game.turns == 0


def test_rotation_choices_are_hidden_until_everyone_chose():
    game = ScoutGame(ScoutConfig(n_players=4), seed=5)
    game.apply(ROTATE_PLAY)
    game.apply(KEEP_PLAY)
    assert ScoutSeatView(game, 2).rotated == [None, None, None, None]
    assert ScoutSeatView(game, 1).rotated == [None, False, None, None]
    game.apply(KEEP_PLAY)
    game.apply(ROTATE_PLAY)
    assert ScoutSeatView(game, 2).rotated == [True, False, False, True]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_start_player_moves_left_each_round(n):
    game = ScoutGame(ScoutConfig(n_players=n), seed=11)
    rng = np.random.default_rng(0)
    starts = []
    while not game.game_over:
        if game.phase == "rotate" and game.current == 0:
            starts.append(game.start_player)
        game.apply(by_kind(game, rng))
    assert starts == [r % n for r in range(game.config.n_rounds)]


def test_first_player_options():
    assert ScoutGame(ScoutConfig(n_players=4), seed=1).start_player == 0
    firsts = {ScoutGame(ScoutConfig(n_players=4, first_player="random"), seed=s).start_player for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert ScoutGame(ScoutConfig(n_players=4, first_player="random"), seed=7).start_player == \
        ScoutGame(ScoutConfig(n_players=4, first_player="random"), seed=7).start_player
    for s in range(10):
        g = ScoutGame(ScoutConfig(n_players=5, first_player="holder_of_1_2"), seed=s)
        holder = [i for i, h in enumerate(g.hands) if any(c == CARD_1_2 for c, _ in h)]
        assert g.start_player == holder[0]
    # 2 players: the 1/2 card may be set aside: seat 0 starts
    for s in range(40):
        g = ScoutGame(ScoutConfig(n_players=2, first_player="holder_of_1_2"), seed=s)
        if any(c == CARD_1_2 for c, _ in g.set_aside):
            assert g.start_player == rulings.HOLDER_OF_1_2_FALLBACK_SEAT
            break
    else:
        pytest.fail("no seed put the 1/2 card aside")


# --- sections 3, 5, 6: 3-5 player turns -----------------------------------------------------------------------

def _three_player_position(**kw):
    p = Picker(3)
    hands = kw.pop("hands", None) or [p.hand([2, 5, 7]), p.hand([4, 8, 1]), p.hand([3, 9, 6])]
    return ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, **kw)


def test_no_active_set_means_show_only():
    game = _three_player_position(current=0)
    kinds = {q.kind for q in game.legal_plays()}
    assert kinds == {SHOW}
    with pytest.raises(IllegalPlayError, match="no Active Set"):
        game.apply(scout(0, 0, 0))


def test_scout_pays_the_owner_and_the_set_stays_active():
    p = Picker(3)
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[p.hand([2, 9]), p.hand([4, 8]), p.hand([3, 1])],
                                   active=p.hand([5, 6, 7]), active_owner=2, current=0)
    game.apply(scout(1, 1, 2))  # the 7, flipped, to the right end
    assert game.chips == [0, 0, 1]
    card7 = game.hands[0][2][0]
    assert game.hands[0][2] == (card7, sum(CARD_NUMBERS[card7]) - 7)
    assert values(game.active) == [5, 6] and game.active_owner == 2 and game.current == 1
    assert game.scouted[0] == [False, False, True]


def test_scouting_the_set_down_to_zero_leaves_no_active_set():
    p = Picker(4)
    game = ScoutGame.from_position(ScoutConfig(n_players=4),
                                   hands=[p.hand([2, 9]), p.hand([4, 8]), p.hand([3, 1]), p.hand([6, 6])],
                                   active=[p.face(5)], active_owner=3, current=0)
    assert [q for q in game.legal_plays() if q.kind == SCOUT and q.end == 1] == []  # 1-card set: left only
    with pytest.raises(IllegalPlayError, match="end=0"):
        game.apply(scout(1, 0, 0))
    game.apply(scout(0, 0, 0))
    assert game.active == [] and game.active_owner == 3
    assert {q.kind for q in game.legal_plays()} == {SHOW}  # must show; any valid segment
    assert {(q.start, q.length) for q in game.legal_plays()} == {(0, 1), (1, 1)}
    game.apply(show(1, 1))
    assert game.piles[1] == [] and game.active_owner == 1  # nothing collected from an empty table


def test_round_end_b_exact_test():
    # 3 players: after O's show, N-1 = 2 plain scouts end the round before O's turn
    p = Picker(3)
    hands = [p.hand([2, 9, 4]), p.hand([4, 8, 1]), p.hand([3, 4, 5, 7])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, current=0)
    game.apply(show(0, 1))  # O = 0
    game.apply(scout(0, 0, 0))  # the set is empty; next is seat 2, not O
    assert not game.round_end_reasons and game.current == 2
    game.apply(show(0, 3))  # seat 2 shows 3-4-5: O = 2
    game.apply(scout(0, 0, 0))
    assert not game.round_end_reasons and game.current == 1
    result = game.apply(scout(0, 0, 0))  # [5] is left and the next player is O
    assert result.round_end_reason == "b" and result.exempt == 2
    assert result.round_scores[2] == 0 + 2 - 0


def test_round_end_b_and_scout_show_resets_the_count():
    p = Picker(3)
    hands = [p.hand([2, 9, 4, 6]), p.hand([4, 8, 1, 5]), p.hand([3, 1, 7, 6])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, current=0)
    game.apply(show(0, 1))  # seat 0 shows the 2: O = 0
    game.apply(scout(0, 0, 0))  # seat 1 scouts it: the set is empty, next is seat 2
    assert game.current == 2 and not game.round_end_reasons
    game.apply(show(2, 1))  # seat 2 shows the 7: O = 2
    play = scout_show(0, 0, 3, 2, 2)  # seat 0 scouts the 7 next to its 6 and shows 6-7
    assert play in game.legal_plays()
    game.apply(play)
    assert game.last_shower == 0 and game.scout_show_used == [True, False, False]
    assert game.chips == [1, 0, 1] and values(game.active) == [6, 7]  # 1: seat 1 scouted the 2
    game.apply(scout(0, 0, 0))  # seat 1 scouts: next is seat 2
    assert not game.round_end_reasons and game.current == 2
    result = game.apply(scout(0, 0, 0))  # seat 2 scouts: next is seat 0 = O
    assert result.round_end_reason == "b" and result.exempt == 0


def test_round_end_a_also_by_scout_and_show():
    p = Picker(3)
    hands = [p.hand([5]), p.hand([4, 8, 1]), p.hand([3, 1, 7])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, active=[p.face(6, 3)],
                                   active_owner=2, current=0)
    play = scout_show(0, 0, 1, 0, 2)  # scout the 6 to the right of the 5, show 5-6
    assert play in game.legal_plays()
    result = game.apply(play)
    assert result.round_end_reason == "a" and result.exempt == 0
    assert result.round_scores[0] == 0 and game.round_scores[0][2] == 1 - 3  # the owner got the chip


def test_scout_and_show_only_as_a_pair():
    assert rulings.SCOUT_AND_SHOW_ONLY_AS_PAIR
    p = Picker(3)
    # the set [9,9,9] leaves [9,9] after a scout; a hand of 1 and 5 plus the scouted card (9, or 2, 6 or 7
    # flipped) has no set of two above 9 and no three valid cards: no Scout & Show is listed
    active = [p.face(9, 2), p.face(9, 6), p.face(9, 7)]
    hands = [p.hand([(1, 4), (5, 3)]), p.hand([4, 8, 1]), p.hand([3, 1, 7])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, active=active, active_owner=2, current=0)
    legal = game.legal_plays()
    assert [q for q in legal if q.kind == SCOUT_SHOW] == [] and any(q.kind == SCOUT for q in legal)
    assert not game.is_legal(scout_show(0, 1, 1, 1, 2))  # 1 then the flipped 2: a run of 2 < [9, 9]
    with pytest.raises(IllegalPlayError, match="only as a pair"):
        game.apply(scout_show(0, 1, 1, 1, 2))


def test_scout_and_show_once_per_round():
    p = Picker(3)
    hands = [p.hand([2, 5, 7]), p.hand([4, 8, 1]), p.hand([3, 9, 6])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, active=[p.face(6, 1)],
                                   active_owner=2, current=0, scout_show_used=[True, False, False])
    assert not any(q.kind == SCOUT_SHOW for q in game.legal_plays())
    with pytest.raises(IllegalPlayError, match="once per round"):
        game.apply(scout_show(0, 0, 0, 0, 1))


def test_scout_show_chip_is_back_next_round():
    game = ScoutGame(ScoutConfig(n_players=3), seed=2)
    rng = np.random.default_rng(2)
    while game.round == 0:
        legal = game.legal_plays()
        ss = [q for q in legal if q.kind == SCOUT_SHOW]
        game.apply(ss[0] if ss else legal[int(rng.integers(len(legal)))])
    assert game.scout_show_used == [False, False, False]
    assert any(e["event"] == "scout_show" for e in game.public_history)


def test_scout_show_duplicates_are_listed_once():
    assert rulings.SCOUT_SHOW_CANONICAL.startswith("smallest")
    p = Picker(3)
    hands = [p.hand([2, 5, 7]), p.hand([4, 8, 1]), p.hand([3, 9, 6])]
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=hands, active=[p.face(6, 1)],
                                   active_owner=2, current=0)
    legal = game.legal_plays()
    assert scout_show(0, 0, 0, 0, 1) in legal  # the scouted 6 shown alone: position 0 only
    assert all(not (q.length == 1 and q.start == q.position and q.position > 0) for q in legal if q.kind == 4)
    with pytest.raises(IllegalPlayError, match="listed as"):
        game.apply(scout_show(0, 0, 2, 2, 1))
    # the 5 shown alone, the 6 kept: listed with the 6 just left of the 5 (position 1, show (2, 1))
    assert scout_show(0, 0, 1, 2, 1) in legal and scout_show(0, 0, 2, 1, 1) not in legal
    with pytest.raises(IllegalPlayError, match=r"ScoutPlay\(kind=4, end=0, flip=0, position=1, start=2"):
        game.apply(scout_show(0, 0, 2, 1, 1))
    # two plays with the same result are never both listed
    states = set()
    for q in legal:
        if q.kind != SCOUT_SHOW:
            continue
        g = game.clone()
        g.apply(q)
        key = (tuple(map(tuple, g.hands[0])), tuple(g.active))
        assert key not in states
        states.add(key)


def test_scout_chip_supply_is_unlimited():
    assert rulings.SCOUT_CHIP_SUPPLY_UNLIMITED
    p = Picker(3)
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[p.hand([2, 9]), p.hand([4, 8]), p.hand([3, 1])],
                                   active=p.hand([5, 6, 7]), active_owner=2, current=0, chips=[0, 0, 23])
    game.apply(scout(0, 0, 0))
    assert game.chips[2] == 24


# --- section 7: two players -------------------------------------------------------------------------------------

def test_two_player_scout_costs_own_chip_and_the_same_player_acts_again():
    p = Picker(2)
    game = ScoutGame.from_position(ScoutConfig(n_players=2), hands=[p.hand([2, 9, 4]), p.hand([4, 8, 1])],
                                   active=p.hand([6, 7]), active_owner=1, current=0)
    assert not any(q.kind == SCOUT_SHOW for q in game.legal_plays())  # not used in 2 players
    with pytest.raises(IllegalPlayError, match="not used in the 2-player"):
        game.apply(scout_show(0, 0, 0, 0, 1))
    game.apply(scout(0, 0, 0))
    assert game.chips == [2, 3] and game.current == 0  # owner gains nothing; same player again
    game.apply(scout(0, 0, 0))
    assert game.chips == [1, 3] and game.current == 0 and game.active == []
    assert {q.kind for q in game.legal_plays()} == {SHOW}  # empty set: must show
    game.apply(show(0, 1))
    assert game.current == 1


def test_two_player_no_chips_no_scout_and_stuck_ends_round_after_own_scout():
    assert rulings.TWO_PLAYER_STUCK_TESTED_EVERY_TURN
    p = Picker(2)
    # player 0 has one chip and no show that beats [7,8]; after its scout it is stuck (chips 0, and the [7]
    # left is beaten by nothing in a hand of 3 (the 8 flipped), 1, 4)
    eight = p.face(8, 3)
    game = ScoutGame.from_position(ScoutConfig(n_players=2), hands=[p.hand([(1, 5), (4, 6)]), p.hand([4, 8, 1])],
                                   active=[p.face(7, 4), eight], active_owner=1, current=0, chips=[1, 3])
    assert not any(q.kind == SHOW for q in game.legal_plays())
    result = game.apply(scout(1, 1, 0))  # the 8 flipped to 3, leftmost: [3,1,4] has no show beating [7]
    assert result.round_end_reason == "b" and result.exempt == 1
    assert result.round_scores == (0 + 0 - 3, 0 + 3 - 0)


def test_two_player_stuck_right_after_the_opponents_show():
    game = _example_2_players(n_rounds=1)
    result = game.apply(show(0, 3))
    assert result.game_over and result.round_end_reason == "b"
    assert game.winners() == [0]


def test_two_player_first_player_must_show():
    game = ScoutGame(ScoutConfig(n_players=2), seed=4)
    play_rotation(game)
    assert {q.kind for q in game.legal_plays()} == {SHOW}


def test_two_player_rounds_deal_the_set_aside_cards():
    assert rulings.TWO_PLAYER_RESHUFFLE_SET_ASIDE
    game = ScoutGame(ScoutConfig(n_players=2), seed=9)
    aside_as_dealt = game.set_aside
    aside = sorted(c for c, _ in aside_as_dealt)
    round1 = sorted(c for h in game.hands for c, _ in h)
    rng = np.random.default_rng(0)
    while game.round == 0:
        game.apply(uniform(game, rng))
    assert sorted(c for h in game.hands for c, _ in h) == aside
    assert game.round_cards == aside and game.set_aside == []
    assert game.hands[0] + game.hands[1] != aside_as_dealt  # reshuffled and re-oriented, not dealt as they lay
    assert set(aside).isdisjoint(round1) and game.chips == [3, 3] and game.start_player == 1
    with pytest.raises(ValueError, match="n_rounds"):
        ScoutConfig(n_players=2, n_rounds=3)


def test_two_player_may_stop_flag():
    game = _example_2_players(n_rounds=1)
    assert STOP_PLAY not in game.legal_plays()
    with pytest.raises(IllegalPlayError, match="two_player_may_stop"):
        game.apply(STOP_PLAY)
    p = Picker(2)
    cfg = ScoutConfig(n_players=2, two_player_may_stop=True, n_rounds=1)
    game = ScoutGame.from_position(cfg, hands=[p.hand([2, 9, 4]), p.hand([4, 8, 1])], current=0)
    assert STOP_PLAY not in game.legal_plays()  # no Active Set yet
    game.apply(show(1, 1))
    assert game.legal_plays()[-1] == STOP_PLAY
    result = game.apply(STOP_PLAY)
    assert result.round_end_reason == "b" and result.exempt == 0 and result.game_over
    assert result.round_scores == (0 + 3 - 0, 0 + 3 - 3)


def test_two_player_round_2_knowledge_excludes_unshown_round_1_cards():
    assert not rulings.ROUND_END_HANDS_SHOWN
    for seed in range(5):
        game = ScoutGame(ScoutConfig(n_players=2), seed=seed)
        rng = np.random.default_rng(seed)
        dealt = [{c for c, _ in h} for h in game.hands]
        while game.round == 0:
            game.apply(uniform(game, rng))
        end = [e for e in game.events if e["event"] == "round_end"][0]
        for seat in (0, 1):
            other = 1 - seat
            leftover = {c for (c, _), s in zip(end["hands"][other], end["scouted"][other]) if not s}
            view = ScoutSeatView(game, seat)
            assert dealt[seat] <= set(view.earlier_seen)
            assert not leftover & set(view.earlier_seen)
            assert leftover <= set(view.unseen_cards())
            assert set(view.earlier_seen) | leftover == dealt[0] | dealt[1]  # every other round-1 card was seen


# --- section 6 [ruling]: truncation ------------------------------------------------------------------------

def test_truncation_at_max_turns_per_round():
    game = ScoutGame(ScoutConfig(n_players=3, max_turns_per_round=2), seed=3)
    play_rotation(game)
    game.apply(show(0, 1))
    hands = game.hand_sizes()
    piles, chips = game.pile_sizes(), game.chips
    result = game.apply([q for q in game.legal_plays() if q.kind == SCOUT][0])
    assert result.round_end_reason == "truncated" and result.truncated and result.exempt == -1
    hands[1] += 1
    chips[0] += 1
    assert list(result.round_scores) == [piles[i] + chips[i] - hands[i] for i in range(3)]  # no exemption
    assert game.truncated and game.round == 1 and not game.game_over
    assert game.round_end_reasons == ["truncated"]
    assert rulings.DEFAULT_MAX_TURNS_PER_ROUND == ScoutConfig().max_turns_per_round == 1000


# --- section 9: winners ---------------------------------------------------------------------------------------

def test_tied_totals_share_the_win():
    assert rulings.TIED_PLAYERS_SHARE_WIN
    p = Picker(2)
    a_hand = [p.face(4, 10), p.face(5, 10), p.face(6, 10)] + p.hand([(1, 7), (9, 2), (3, 8)])
    b_hand = p.hand([(1, 3), (9, 3), (2, 6), (8, 2), (3, 5), (7, 4), (1, 6), (9, 4), (5, 7)])
    game = ScoutGame.from_position(ScoutConfig(n_players=2), hands=[a_hand, b_hand], current=0,
                                   piles=[p.filler(8), p.filler(5)], chips=[2, 0], round=1,
                                   round_scores=[[0, 14]])
    with pytest.raises(GameOverError):
        game.winners()
    game.apply(show(0, 3))  # the round scores (10, -4): totals 10 and 10
    assert game.game_over and game.totals == [10, 10]
    assert game.winners() == [0, 1] and game.placements() == [1.5, 1.5]


# --- serialisation, replay, clones, determinism ----------------------------------------------------------------

def _mid_round_game(n, seed=3, steps=25):
    game = ScoutGame(ScoutConfig(n_players=n), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        game.apply(by_kind(game, rng))
    return game, rng


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_serialisation_round_trip_mid_round_including_rng(n):
    game, rng = _mid_round_game(n)
    d = game.to_dict()
    text = json.dumps(d)
    back = ScoutGame.from_dict(json.loads(text))
    assert back.to_dict() == d
    assert back.legal_plays() == game.legal_plays()
    # both continue identically, through later deals (the generator state came along)
    rng2 = copy.deepcopy(rng)
    while not game.game_over:
        play = by_kind(game, rng)
        assert by_kind(back, rng2) == play
        game.apply(play)
        back.apply(play)
    assert back.to_dict() == game.to_dict()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_replay_rebuilds_every_prefix(n):
    game = ScoutGame(ScoutConfig(n_players=n), seed=8)
    rng = np.random.default_rng(8)
    states = [game.to_dict()]
    while not game.game_over:
        game.apply(by_kind(game, rng))
        states.append(game.to_dict())
    log = json.loads(json.dumps(game.log()))
    assert ScoutGame.replay(log).to_dict() == states[-1]
    for k in (0, 1, len(states) // 2, len(states) - 1):
        assert ScoutGame.replay(log, upto=k).to_dict() == states[k]


def test_replay_of_a_hand_made_position():
    game = _example_2_players()
    game.apply(show(0, 3))
    game.apply(KEEP_PLAY)
    again = ScoutGame.replay(game.log())
    assert again.to_dict() == game.to_dict()
    assert ScoutGame.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_replay_refuses_a_log_from_elsewhere():
    game, _ = _mid_round_game(4)
    log = game.log()
    log["events"][0]["hands"][0][0] = [0, 2] if log["events"][0]["hands"][0][0] != [0, 2] else [0, 1]
    with pytest.raises(ValueError, match="differ"):
        ScoutGame.replay(log)
    with pytest.raises(TypeError):
        ScoutGame.replay([1, 2])


def test_clone_is_independent():
    game, rng = _mid_round_game(4)
    before = game.to_dict()
    twin = game.clone()
    while not twin.game_over:
        twin.apply(uniform(twin, rng))
    assert game.to_dict() == before
    assert twin.to_dict() != before


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_same_seed_same_game(n):
    def run(seed):
        g = ScoutGame(ScoutConfig(n_players=n), seed=seed)
        rng = np.random.default_rng(1)
        while not g.game_over:
            g.apply(by_kind(g, rng))
        return g.to_dict()
    assert run(4) == run(4)
    assert ScoutGame(ScoutConfig(n_players=n), seed=4).hands != ScoutGame(ScoutConfig(n_players=n), seed=5).hands


# --- no aliasing ---------------------------------------------------------------------------------------------------

def test_returned_lists_are_copies():
    game, _ = _mid_round_game(4, steps=30)
    before = game.to_dict()
    for value in (game.hands, game.active, game.piles, game.chips, game.scout_show_used, game.rotated,
                  game.round_scores, game.round_end_reasons, game.scouted, game.public_history,
                  game.legal_plays(), game.round_cards, game.hand_faces(0), game.active_faces()):
        if value and isinstance(value[0], list):
            value[0].append(99)
        elif value and isinstance(value[0], dict):
            value[0]["event"] = "x"
        value.append(99)
        value.clear()
    view = ScoutSeatView(game, 1)
    for value in (view.hand, view.active, view.piles, view.chips, view.known_slots(0), view.known_cards(0),
                  view.legal_plays(), view.public_history, view.unseen_cards()):
        value.append(99)
    d = game.to_dict()
    d["hands"][0].append([1, 1])
    d["events"].clear()
    log = game.log()
    log["events"].clear()
    assert game.to_dict() == before
    assert game.legal_plays() == game.legal_plays() and game.legal_plays() is not game.legal_plays()


def test_from_dict_does_not_keep_the_callers_lists():
    game, _ = _mid_round_game(3)
    d = game.to_dict()
    back = ScoutGame.from_dict(d)
    d["hands"][0].clear()
    d["events"].clear()
    d["rng_state"]["state"]["state"] = 1
    assert back.to_dict() == game.to_dict()


# --- illegal plays -------------------------------------------------------------------------------------------------

def test_illegal_plays_are_refused_and_change_nothing():
    game, _ = _mid_round_game(4, steps=12)
    before = game.to_dict()
    n = len(game.hand_faces(game.current))
    bad = [show(0, n + 1), show(n, 1), ScoutPlay(SHOW, 1, 0, 0, 0, 1), ScoutPlay(SCOUT, 2, 0, 0),
           scout(0, 0, n + 1), scout_show(0, 0, 0, 0, n + 3), KEEP_PLAY, STOP_PLAY, ScoutPlay(9),
           ScoutPlay(SHOW, 0, 0, 0, -1, 1), ScoutPlay(SHOW, 0, 0, 0, 0, 0)]
    for play in bad:
        assert not game.is_legal(play)
        with pytest.raises(IllegalPlayError) as err:
            game.apply(play)
        assert err.value.play == play and err.value.rule
        assert game.to_dict() == before
    with pytest.raises(TypeError):
        game.apply((2, 0, 0, 0, 0, 1))
    with pytest.raises(IllegalPlayError, match="must be an int"):
        game.apply(ScoutPlay(SHOW, 0, 0, 0, 0, 1.0))
    assert not game.is_legal((2, 0, 0, 0, 0, 1))
    assert game.to_dict() == before


def test_a_show_not_stronger_is_refused_with_the_rule():
    p = Picker(4)
    game = ScoutGame.from_position(ScoutConfig(n_players=4),
                                   hands=[p.hand([6, 2]), p.hand([1]), p.hand([1]), p.hand([1])],
                                   active=[p.face(6)], active_owner=3, current=0)
    with pytest.raises(IllegalPlayError, match="not stronger"):
        game.apply(show(0, 1))
    with pytest.raises(IllegalPlayError, match="not a set or a run"):
        game.apply(show(0, 2))


def test_game_over_error():
    game = _example_2_players(n_rounds=1)
    game.apply(show(0, 3))
    assert game.game_over and game.legal_plays() == [] and game.phase == "over"
    with pytest.raises(GameOverError):
        game.apply(show(0, 1))
    assert not game.is_legal(show(0, 1))


# --- config and from_dict validation ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, exc, field", [
    ({"n_players": 4.7}, TypeError, "n_players"), ({"n_players": "4"}, TypeError, "n_players"),
    ({"n_players": True}, TypeError, "n_players"), ({"n_players": 6}, ValueError, "n_players"),
    ({"n_players": 1}, ValueError, "n_players"), ({"first_player": "seat1"}, ValueError, "first_player"),
    ({"first_player": 0}, TypeError, "first_player"),
    ({"public_scout_flip_and_position": 1}, TypeError, "public_scout_flip_and_position"),
    ({"two_player_may_stop": "yes"}, TypeError, "two_player_may_stop"),
    ({"max_turns_per_round": 0}, ValueError, "max_turns_per_round"),
    ({"max_turns_per_round": True}, TypeError, "max_turns_per_round"),
    ({"n_rounds": 0}, ValueError, "n_rounds"), ({"n_rounds": 2.0}, TypeError, "n_rounds")])
def test_config_validation(kwargs, exc, field):
    with pytest.raises(exc, match=field):
        ScoutConfig(**kwargs)
    with pytest.raises(exc, match=field):
        ScoutConfig.from_dict(kwargs)


def test_config_dict_round_trip_and_strictness():
    cfg = ScoutConfig(n_players=3, first_player="random", public_scout_flip_and_position=False,
                      max_turns_per_round=50)
    assert ScoutConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg
    assert cfg.n_rounds == 3 and ScoutConfig(n_players=2).n_rounds == 2
    with pytest.raises(ValueError, match="unknown fields"):
        ScoutConfig.from_dict({"n_players": 3, "players": 3})
    with pytest.raises(TypeError):
        ScoutConfig.from_dict([("n_players", 3)])
    with pytest.raises(TypeError, match="seed"):
        ScoutGame(cfg, seed=1.5)
    with pytest.raises(ValueError, match="seed"):
        ScoutGame(cfg, seed=-1)
    with pytest.raises(TypeError, match="config"):
        ScoutGame({"n_players": 3})


def _junk(mutate):
    game, _ = _mid_round_game(4, steps=20)
    d = json.loads(json.dumps(game.to_dict()))
    mutate(d)
    return d


@pytest.mark.parametrize("mutate, exc, text", [
    (lambda d: d.pop("hands"), ValueError, "hands"),
    (lambda d: d.update(extra=1), ValueError, "extra"),
    (lambda d: d.update(format=2), ValueError, "format"),
    (lambda d: d.update(round="1"), TypeError, "round"),
    (lambda d: d.update(round=True), TypeError, "round"),
    (lambda d: d.update(current=7), ValueError, "current"),
    (lambda d: (d["hands"][0].append(d["hands"][1][0]), d["scouted"][0].append(False)), ValueError, "doubled"),
    (lambda d: d["hands"][0].pop(), ValueError, "scouted|missing"),
    (lambda d: d["hands"][0].__setitem__(0, [d["hands"][0][0][0], 10 if d["hands"][0][0][1] != 10 else 1]),
     ValueError, r"hands\[0\]\[0\]"),
    (lambda d: d["hands"][0].__setitem__(0, [45, 1]), ValueError, r"hands\[0\]\[0\]\[0\]"),
    (lambda d: d["hands"][0].__setitem__(0, "x"), TypeError, r"hands\[0\]\[0\]"),
    (lambda d: d["chips"].__setitem__(1, -1), ValueError, r"chips\[1\]"),
    (lambda d: d["chips"].__setitem__(1, 1.5), TypeError, r"chips\[1\]"),
    (lambda d: d["scout_show_used"].__setitem__(0, 0), TypeError, r"scout_show_used\[0\]"),
    (lambda d: d.update(phase="done"), ValueError, "phase"),
    (lambda d: d.update(game_over=1), TypeError, "game_over"),
    (lambda d: d["rng_state"].update(bit_generator="Nope"), ValueError, "rng_state"),
    (lambda d: d["rng_state"].update(state="x"), ValueError, "rng_state"),
    (lambda d: d.update(rng_state=5), TypeError, "rng_state"),
    (lambda d: d["config"].update(n_players=3), ValueError, "hands|round_cards|cards"),
    (lambda d: d.update(events=[1]), TypeError, "events"),
    (lambda d: d.update(active=[[card_id(2, 5), 2], [card_id(4, 6), 4]]), ValueError, "active|doubled|cards"),
    (lambda d: d.update(round_scores=[[1, 2]]), ValueError, "round_scores"),
])
def test_from_dict_rejects_junk_naming_the_field(mutate, exc, text):
    with pytest.raises(exc, match=text):
        ScoutGame.from_dict(_junk(mutate))


def test_from_dict_rejects_an_invalid_active_set():
    p = Picker(4)
    game = ScoutGame.from_position(ScoutConfig(n_players=4), hands=[p.hand([2]), p.hand([1]), p.hand([3]), p.hand([4])],
                                   active=[p.face(5), p.face(6, 10)], active_owner=3)
    d = game.to_dict()
    d["active"][1] = [card_id(6, 10), 10]  # [5, 10]: neither a set nor a run
    with pytest.raises(ValueError, match="active"):
        ScoutGame.from_dict(d)
    d["active"][1] = [card_id(6, 10), 6]
    d["active_owner"] = -1
    with pytest.raises(ValueError, match="active_owner"):
        ScoutGame.from_dict(d)


# --- section 10: the seat view ----------------------------------------------------------------------------------------

def test_view_shows_own_hand_public_info_and_known_slots_only():
    p = Picker(3)
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[p.hand([2, 9]), p.hand([4, 8]), p.hand([3, 1])],
                                   active=p.hand([5, 6, 7]), active_owner=2, current=0)
    seven = game.active[2]
    game.apply(scout(1, 0, 1))
    v1 = ScoutSeatView(game, 1)
    assert v1.known_slots(0) == [None, seven, None]
    assert v1.known_cards(0) == [seven[0]] and v1.known_slots(1) == game.hands[1]
    assert v1.legal_plays() == game.legal_plays() and ScoutSeatView(game, 0).legal_plays() == []
    hidden = {c for c, _ in game.hands[0] if c != seven[0]} | {c for c, _ in game.hands[2]}
    text = json.dumps(v1.to_dict())
    d = v1.to_dict()
    for s in (0, 2):
        assert all(x is None or x[0] not in hidden for x in d["known_slots"][s])
    assert set(d["unseen_cards"]) >= hidden
    assert "rng" not in text
    # with flips and positions private only the card is known
    p = Picker(3)
    cfg = ScoutConfig(n_players=3, public_scout_flip_and_position=False)
    game = ScoutGame.from_position(cfg, hands=[p.hand([2, 9]), p.hand([4, 8]), p.hand([3, 1])],
                                   active=p.hand([5, 6, 7]), active_owner=2, current=0)
    game.apply(scout(1, 1, 1))
    v1 = ScoutSeatView(game, 1)
    assert v1.known_slots(0) == [None, None, None] and v1.known_cards(0) == [seven[0]]
    entry = v1.public_history[-1]
    assert entry["event"] == "scout" and entry["flip"] is None and entry["position"] is None
    assert ScoutSeatView(game, 0).known_slots(0) == game.hands[0]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("public", [True, False])
def test_determinizer_samples_are_consistent_and_do_not_change_the_view(n, public):
    rng = np.random.default_rng(n)
    checked = 0
    known_seen = 0
    for gi in range(40):
        game = ScoutGame(ScoutConfig(n_players=n, public_scout_flip_and_position=public), seed=gi)
        policy = by_kind if gi % 2 else uniform
        while not game.game_over and checked < 30 * (gi + 1) // 4:
            game.apply(policy(game, rng))
            if game.game_over or rng.random() < 0.7:
                continue
            seat = int(rng.integers(n))
            view = ScoutSeatView(game, seat)
            before = view.to_dict()
            real = game.to_dict()
            sampler = view.determinizer()
            samples = [sampler.sample(rng) for _ in range(3)]
            assert game.to_dict() == real
            others_differ = False
            for g in samples:
                assert ScoutSeatView(g, seat).to_dict() == before
                again = ScoutGame.from_dict(g.to_dict())  # a valid full state (cards conserved, ...)
                assert again.hands == g.hands and g.hands[seat] == game.hands[seat]
                for s in range(n):
                    if s == seat:
                        continue
                    assert sorted(c for (c, _), k in zip(g.hands[s], g.scouted[s]) if k) == view.known_cards(s)
                    for (c, t), known in zip(g.hands[s], view.known_slots(s)):
                        assert known is None or known == (c, t)
                    known_seen += bool(view.known_cards(s))
                others_differ |= any(g.hands[s] != game.hands[s] for s in range(n) if s != seat)
                assert g.events == []
            if any(len(game.hands[s]) > 2 for s in range(n) if s != seat):
                assert others_differ
            checked += 1
        if checked >= 30:
            break
    assert checked >= 30 and known_seen > 0


def test_determinized_game_plays_on_to_the_end():
    game, rng = _mid_round_game(2, steps=15)
    g = ScoutSeatView(game, 0).determinize(rng)
    while not g.game_over:
        g.apply(uniform(g, rng))
    assert ScoutGame.replay(g.log()).to_dict() == g.to_dict()


def test_describe_names_the_cards():
    p = Picker(3)
    game = ScoutGame.from_position(ScoutConfig(n_players=3), hands=[p.hand([4, 5, 6]), p.hand([1]), p.hand([2])],
                                   active=[p.face(3, 7)], active_owner=2, current=0)
    assert game.describe(show(0, 3)) == "Show 4 5 6 (positions 0-2)"
    assert "scout 3(7) from the left, flipped to 7(3)" in game.describe(scout_show(0, 1, 3, 0, 4))
    assert str(scout(0, 1, 2)) == "Scout the left card, flipped, into position 2"
    assert str(KEEP_PLAY) == "Keep hand" and "Show 2 cards" in str(show(1, 2))


def test_scout_package_imports_no_rl_library():
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = (
        "import sys, types\n"
        f"pkg = types.ModuleType('seers_env'); pkg.__path__ = [{os.path.join(root, 'seers_env')!r}]\n"
        "sys.modules['seers_env'] = pkg  # the scout package alone, without seers_env's own imports\n"
        "import seers_env.scout, seers_env.scout.view, seers_env.scout.moves\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('gymnasium', 'pettingzoo', 'torch', 'ray'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
