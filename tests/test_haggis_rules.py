"""Haggis rules (``shared/rules/haggis.md``): the rules file's worked examples, setup, turns, tricks,
captures, going out, bets, scoring, game end, config and bad-input errors."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from seers_env.haggis import GameOverError, HaggisConfig, HaggisGame, HaggisPlay, IllegalPlayError
from seers_env.haggis.cards import SETUP, SUIT_NAMES, all_card_ids, card_points, face_card, number_card
from seers_env.haggis.moves import BOMB_SUITED, Combo, beats, combo_of, turn_plays
from seers_env.haggis.plays import BET, BOMB, PASS, SEQ, SET

RANKS = {"J": 11, "Q": 12, "K": 13}


def C(name: str, seat: int = 0) -> int:
    """``"7c"`` -> the 7 of clubs; ``"J"`` / ``"Q"`` / ``"K"`` -> ``seat``'s face card."""
    if name in RANKS:
        return face_card(seat, RANKS[name])
    return number_card(SUIT_NAMES.index(name[-1]), int(name[:-1]))


def cs(text: str, seat: int = 0) -> tuple[int, ...]:
    return tuple(sorted(C(x, seat) for x in text.split()))


def combo(text: str, kind: int, width: int = 0, seat: int = 0):
    return combo_of(HaggisPlay(kind, cs(text, seat), width))


# --- sections 4.2-4.6: combinations ----------------------------------------------------------------------

def test_section_4_2_set_examples():
    assert combo("7c", SET) == Combo(SET, 1, 0, 7)
    assert combo("9c 9d", SET) == Combo(SET, 2, 0, 9)
    assert combo("10c K", SET) == Combo(SET, 2, 0, 10)
    assert combo("5c 5d 5h J Q", SET) == Combo(SET, 5, 0, 5)
    assert combo("Q", SET) == Combo(SET, 1, 0, 12)
    assert isinstance(combo("J Q", SET), str)  # two faces alone: a bomb only (4.1)


def test_section_4_3_sequence_examples():
    assert combo("4d 5d 6d", SEQ, 1) == Combo(SEQ, 1, 3, 6)
    assert combo("5c 6c Q", SEQ, 1) == Combo(SEQ, 1, 3, 7)
    assert combo("9c 10c J", SEQ, 1) == Combo(SEQ, 1, 3, 11)
    assert combo("3c 3d 4c 4d", SEQ, 2) == Combo(SEQ, 2, 2, 4)
    assert combo("6h 6s 7h K", SEQ, 2) == Combo(SEQ, 2, 2, 7)
    assert isinstance(combo("3c 3d 4c 4h", SEQ, 2), str)  # three suits
    assert isinstance(combo("4d 5d 6c", SEQ, 1), str)  # two suits in a run of singles
    assert isinstance(combo("4d 5d", SEQ, 1), str)  # too short
    assert combo("9c 10c J Q K", SEQ, 1) == Combo(SEQ, 1, 5, 13)
    assert combo("2c 3c 4c 2d 3d 4d 2h 3h 4h 2s 3s 4s 2b 3b 4b", SEQ, 5) == Combo(SEQ, 5, 3, 4)


def test_section_4_4_bombs_and_their_order():
    rainbow = combo("3c 5d 7h 9s", BOMB)
    suited = combo("3c 5c 7c 9c", BOMB)
    faces = [combo(t, BOMB) for t in ("J Q", "J K", "Q K", "J Q K")]
    order = [rainbow] + faces + [suited]
    assert [b.value for b in order] == [1, 2, 3, 4, 5, 6]
    for lo, hi in zip(order, order[1:]):
        assert beats(hi, lo) and not beats(lo, hi)
    for text in ("3c 5c 7d 9d", "3c 5c 7c 9d"):  # two or three suits: nothing
        for kind, w in ((BOMB, 0), (SET, 0), (SEQ, 1), (SEQ, 2)):
            assert isinstance(combo(text, kind, w), str)
    assert isinstance(combo("3c 5d 7h J", BOMB), str)  # wilds never in a 3-5-7-9
    assert isinstance(combo("3c 5c 7c 9c", SEQ, 1), str)  # a bomb is only a bomb


def test_section_4_5_several_readings_are_several_plays():
    hand = list(cs("5c J Q"))
    plays = turn_plays(hand, None)
    assert HaggisPlay(SET, cs("5c J Q")) in plays and HaggisPlay(SEQ, cs("5c J Q"), 1) in plays
    hand = list(cs("5c J Q K"))
    plays = [p for p in turn_plays(hand, None) if p.cards == cs("5c J Q K")]
    assert plays == [HaggisPlay(SET, cs("5c J Q K")), HaggisPlay(SEQ, cs("5c J Q K"), 1),
                     HaggisPlay(SEQ, cs("5c J Q K"), 2)]
    assert [combo_of(p).value for p in plays] == [5, 8, 6]
    assert [p for p in turn_plays(list(cs("J Q K")), None) if p.cards == cs("J Q K")] == \
        [HaggisPlay(BOMB, cs("J Q K"))]


def test_section_4_6_beating_examples():
    pair7 = combo("7c 7d", SET)
    assert beats(combo("9c J", SET), pair7)
    assert not beats(combo("8c 8d 8h", SET), pair7)
    assert not beats(combo("8c 9c 10c", SEQ, 1), pair7)
    two = combo("3c 3d 4c 4d", SEQ, 2)
    assert beats(combo("5s 5h 6s 6h", SEQ, 2), two)
    assert not beats(combo("5c 6c 7c 8c", SEQ, 1), two)
    assert beats(combo("J Q", BOMB), combo("8c 8d", SET))
    assert beats(combo("J K", BOMB), combo("J Q", BOMB))
    jqk = combo("J Q K", BOMB)
    assert [b for b in range(1, 7) if beats(Combo(BOMB, 0, 0, b), jqk)] == [BOMB_SUITED]
    assert beats(combo("4c 5c 6c", SEQ, 1), combo("3h 4h 5h", SEQ, 1))  # suits need not match
    assert not beats(combo("K", SET), combo("K", SET)) and beats(combo("K", SET), combo("Q", SET))
    # once a bomb is in the trick only a higher bomb follows
    assert not beats(combo("10c 10d", SET), combo("3c 5d 7h 9s", BOMB))


def test_following_lists_pass_same_shape_higher_and_bombs():
    hand = list(cs("8c 8d 9c J Q 3c 5d 7h 9s"))
    plays = turn_plays(hand, combo("7c 7d", SET))
    assert plays[0] == HaggisPlay(PASS)
    for p in plays[1:]:
        c = combo_of(p)
        assert c.kind == BOMB or (c.shape == (SET, 2, 0) and c.value > 7)
    assert HaggisPlay(BOMB, cs("3c 5d 7h 9s")) in plays and HaggisPlay(BOMB, cs("J Q")) in plays
    assert HaggisPlay(SET, cs("9c J")) in plays and HaggisPlay(SET, cs("8c 8d")) in plays


# --- section 2: setup ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3])
def test_setup_per_player_count(n):
    g = HaggisGame(HaggisConfig(n_players=n), seed=4)
    assert [len(h) for h in g.hands] == [17] * n
    assert len(g.haggis) == (8 if n == 2 else 3)
    for s in range(n):
        assert g.faces_held(s) == [face_card(s, r) for r in (11, 12, 13)]
    placed = sorted(c for h in g.hands for c in h) + g.haggis
    assert sorted(placed) == list(all_card_ids(n))
    if n == 2:
        assert all(c // 9 != 4 for c in placed if c < 45)  # suit 4 removed
    assert g.current == 0 and g.phase == "bet" and g.legal_plays() == [HaggisPlay(BET, (), 0, b) for b in (0, 15, 30)]
    total = sum(card_points(c) for c in all_card_ids(n))
    assert total == (36 if n == 2 else 50)


def test_same_seed_same_game_and_different_seeds_differ():
    a, b, c = (HaggisGame(HaggisConfig(n_players=3), seed=s) for s in (9, 9, 10))
    assert a.to_dict() == b.to_dict() and a.hands != c.hands


# --- sections 3, 5: turns, tricks and captures ---------------------------------------------------------------

def play(g, text, kind=SET, width=0):
    return g.apply(HaggisPlay(kind, cs(text, g.current), width))


def test_section_5_example_bombed_trick_goes_to_the_player_before_the_bomb():
    a = list(cs("9s 2c 2d J K", 0))
    b = list(cs("10c 2h", 1)) + [face_card(1, r) for r in (11, 12, 13)]
    c = list(cs("3c 5d 7h 9b 2s", 2)) + [face_card(2, r) for r in (11, 12, 13)]
    a.append(face_card(0, 12))
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=[a, b, c], current=0)
    play(g, "9s")
    play(g, "10c")
    play(g, "3c 5d 7h 9b", BOMB)
    play(g, "J K", BOMB)
    assert g.current == 1
    g.apply(HaggisPlay(PASS))
    res = g.apply(HaggisPlay(PASS))
    assert res.trick_over and g.current == 0 and g.trick == []
    assert sorted(g.captured[2]) == sorted(cs("9s 10c 3c 5d 7h 9b") + cs("J K", 0))
    assert g.captured_points() == [0, 0, 12]


def test_section_5_lone_bombed_lead_goes_to_the_seat_before_the_winner():
    hands = [list(cs("2c J Q K", 0)), list(cs("2d J Q K", 1)), list(cs("2h J Q K", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, current=0)
    play(g, "J Q K", BOMB)
    g.apply(HaggisPlay(PASS))
    g.apply(HaggisPlay(PASS))
    assert g.current == 0 and g.captured_points() == [0, 0, 10]
    g2 = HaggisGame.from_position(HaggisConfig(n_players=2), hands=hands[:2], current=1)
    play(g2, "J Q", BOMB)
    g2.apply(HaggisPlay(PASS))
    assert g2.current == 1 and g2.captured_points() == [5, 0]  # 2 players: always the opponent


def test_a_player_who_passed_plays_again_and_only_successive_passes_end_a_trick():
    hands = [list(cs("5c 2c J Q K", 0)), list(cs("9c 2d J Q K", 1)), list(cs("7c 2h J Q K", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, current=0)
    with pytest.raises(IllegalPlayError, match="no pass"):
        g.apply(HaggisPlay(PASS))
    play(g, "5c")
    g.apply(HaggisPlay(PASS))  # B passes
    play(g, "7c")  # C
    g.apply(HaggisPlay(PASS))  # A passes
    assert g.current == 1 and g.trick
    play(g, "9c")  # B comes back in
    g.apply(HaggisPlay(PASS))
    res = g.apply(HaggisPlay(PASS))
    assert res.trick_over and g.current == 1 and sorted(g.captured[1]) == sorted(cs("5c 7c 9c"))


def test_two_player_trick_ends_after_one_pass():
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[list(cs("5c 2c J Q K", 0)),
                                                                   list(cs("9c 2d J Q K", 1))], current=0)
    play(g, "5c")
    res = g.apply(HaggisPlay(PASS))
    assert res.trick_over and g.current == 0 and g.captured[0] == [C("5c")]


# --- sections 6-8: going out, bets, scoring -----------------------------------------------------------------------

def _fill_captured(n, placed, targets):
    """Every card not in ``placed`` split into captured piles with ``targets`` points (zero-point cards
    to seat 0)."""
    rest = [c for c in all_card_ids(n) if c not in placed]
    piles = [[] for _ in range(n)]
    if targets is None:
        return [rest] + [[] for _ in range(n - 1)]
    need = list(targets)
    for c in sorted(rest, key=lambda c: -card_points(c)):
        p = card_points(c)
        seat = next((s for s in range(n) if need[s] >= p and p), 0)
        if p:
            assert need[seat] >= p, "targets cannot be met"
            need[seat] -= p
        piles[seat].append(c)
    assert need == [0] * n
    return piles


def test_section_8_two_player_example():
    a_hand = [C("2c")]
    b_hand = [face_card(1, 12)] + list(cs("7c 7d 4s 2h"))
    haggis = list(cs("3c 5c 9c 2d 4d 6d 8d 10d"))
    captured = _fill_captured(2, set(a_hand + b_hand + haggis), [12, 16])
    g = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[a_hand, b_hand], haggis=haggis,
                                 captured=captured, bets=[0, 15], current=0)
    res = g.apply(HaggisPlay(SET, (C("2c"),)))
    assert res.round_scores == (60, 16) and res.went_out == 0
    assert g.round == 1 and g.totals == [60, 16]
    assert g.current == 1  # section 2: the lowest total leads


def _three_player_example(prior=None, tie_leader="bga"):
    a_hand = [C("2c")]
    b_hand = list(cs("6c 8d 8h 8s 8b")) + [face_card(1, 11)]
    c_hand = list(cs("10s 9c 2d")) + [face_card(2, 13)]
    haggis = list(cs("3s 8c 10h"))
    captured = _fill_captured(3, set(a_hand + b_hand + c_hand + haggis), [14, 18, 9])
    g = HaggisGame.from_position(HaggisConfig(n_players=3, tie_leader=tie_leader), hands=[a_hand, b_hand, c_hand],
                                 haggis=haggis, captured=captured, bets=[30, 15, 0], current=0,
                                 round=0 if prior is None else 1, round_scores=prior)
    g.apply(HaggisPlay(SET, (C("2c"),)))  # A goes out: B holds 6, C 4
    assert g.out == [0] and g.going_out == [30, 0, 0] and g.bet_points == [45, 0, 15]
    g.apply(HaggisPlay(SET, (C("6c"),)))
    g.apply(HaggisPlay(SET, (C("10s"),)))
    g.apply(HaggisPlay(SET, (face_card(1, 11),)))
    res = g.apply(HaggisPlay(PASS))  # C passes: B takes the trick (2 points) and leads
    assert res.trick_over and g.current == 1
    return g, g.apply(HaggisPlay(SET, cs("8d 8h 8s 8b")))  # B goes out while C holds 3


def test_section_8_three_player_example():
    g, res = _three_player_example()
    assert res.round_scores == (96, 35, 24)
    assert sum(res.round_scores) == 50 + 30 + 15 + 30 + 15 + 15


def test_section_9_shared_highest_total_plays_on_and_tie_leaders():
    g, res = _three_player_example(prior=[[254, 315, 0]])  # totals 350, 350, 24
    assert not res.game_over and g.round == 2
    g, res = _three_player_example(prior=[[255, 315, 0]])  # 351 vs 350
    assert res.game_over and g.winners() == [0]
    # lowest shared by A and B (96 each); B won the last trick: bga gives the lead to C
    g, res = _three_player_example(prior=[[0, 61, 200]])
    assert g.current == 2 and g.round_leader == 2
    g, res = _three_player_example(prior=[[0, 61, 200]], tie_leader="first_tied_clockwise")
    assert g.round_leader == 0


def test_going_out_counts_the_largest_hand_and_the_trick_goes_on():
    hands = [list(cs("2c")), list(cs("9c 2d 3d", 1)) + [face_card(1, 12)],
             list(cs("7c 2h", 2)) + [face_card(2, 11)]]
    placed = {c for h in hands for c in h}
    captured = _fill_captured(3, placed | set(SETUP[3].number_cards[-3:]), None)
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, captured=captured,
                                 haggis=list(SETUP[3].number_cards[-3:]), current=0)
    res = g.apply(HaggisPlay(SET, (C("2c"),)))
    assert res.went_out == 0 and g.going_out[0] == 5 * 4 and g.current == 1
    play(g, "9c")  # B beats the card of the player who is out
    g.apply(HaggisPlay(PASS))  # C: one pass ends it now
    assert g.trick == [] and g.current == 1


# --- bets -------------------------------------------------------------------------------------------

def test_bet_is_its_own_decision_once_per_round():
    g = HaggisGame(HaggisConfig(n_players=2), seed=1)
    before = g.to_dict()
    with pytest.raises(IllegalPlayError, match="first bets"):
        g.apply(g.legal_plays()[0]._replace(kind=SET, cards=(g.hand(0)[0],), amount=0))
    with pytest.raises(IllegalPlayError, match="malformed"):
        g.apply(HaggisPlay(BET, (), 0, 20))
    assert g.to_dict() == before
    g.apply(HaggisPlay.bet(15))
    assert g.bets == [15, None] and g.current == 0 and g.phase == "play"
    with pytest.raises(IllegalPlayError, match="bet this round already"):
        g.apply(HaggisPlay.bet(30))
    g.apply(g.legal_plays()[0])
    assert g.current == 1 and g.phase == "bet"


def test_failed_bets_when_two_players_bet():
    hands = [list(cs("2c")), list(cs("9c 2d 3d", 1)), list(cs("7c 2h", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, bets=[0, 15, 30], current=0,
                                 captured=_fill_captured(3, {c for h in hands for c in h} |
                                                         set(SETUP[3].number_cards[-3:]), None),
                                 haggis=list(SETUP[3].number_cards[-3:]))
    g.apply(HaggisPlay(SET, (C("2c"),)))
    # A (no bet) goes out first: A scores both failures; failed bettors score nothing of each other
    assert g.bet_points == [45, 0, 0]


# --- game length -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3])
def test_random_games_follow_scoring_invariants(n):
    rng = np.random.default_rng(n)
    for seed in range(3):
        g = HaggisGame(HaggisConfig(n_players=n, target=250), seed=seed)
        while not g.game_over:
            legal = g.legal_plays()
            res = g.apply(legal[int(rng.integers(len(legal)))])
            if res.round_over:
                ev = [e for e in g.events if e["event"] == "round_end"][-1]
                assert sum(ev["captured_points"]) == (36 if n == 2 else 50)
                assert ev["scores"] == [a + b + c for a, b, c in zip(ev["going_out"], ev["bet_points"],
                                                                     ev["captured_points"])]
        t = g.totals
        assert max(t) >= 250 and t.count(max(t)) == 1 and g.winners() == [t.index(max(t))]
        assert HaggisGame.replay(g.log()).to_dict() == g.to_dict()


def test_fixed_length_games():
    rng = np.random.default_rng(0)
    g = HaggisGame(HaggisConfig(n_players=3, n_rounds=2), seed=3)
    while not g.game_over:
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert len(g.round_scores) == 2 and g.round == 1
    with pytest.raises(GameOverError):
        g.apply(HaggisPlay(PASS))
    assert g.legal_plays() == []


# --- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, err, text", [
    ({"n_players": 4}, ValueError, "n_players=4"), ({"n_players": True}, TypeError, "n_players"),
    ({"target": 300}, ValueError, "target=300"), ({"target": "350"}, TypeError, "target"),
    ({"n_rounds": 0}, ValueError, "n_rounds=0"), ({"tie_leader": "lowest"}, ValueError, "tie_leader"),
    ({"card_points": "all"}, ValueError, "card_points"),
])
def test_bad_config(kwargs, err, text):
    with pytest.raises(err, match=text):
        HaggisConfig(**kwargs)


def test_bad_config_dict_and_seed():
    with pytest.raises(ValueError, match="unknown fields"):
        HaggisConfig.from_dict({"n_players": 2, "players": 2})
    with pytest.raises(ValueError, match="seed"):
        HaggisGame(HaggisConfig(), seed=-1)
    with pytest.raises(TypeError, match="HaggisConfig"):
        HaggisGame({"n_players": 2})


def test_illegal_plays_change_nothing():
    g = HaggisGame(HaggisConfig(n_players=3), seed=2)
    g.apply(HaggisPlay.bet(0))
    before = g.to_dict()
    other = g.hand(1)[0]
    mine = [c for c in g.hand(0) if c < 45]
    bad = [
        (HaggisPlay(SET, (other,)), "not in player_0's hand"),
        (HaggisPlay(SET, (face_card(1, 11),)), "not in player_0's hand"),
        (HaggisPlay(SEQ, tuple(sorted(mine[:2])), 1), "needs at least 3"),
        (HaggisPlay(BOMB, (mine[0],)), "none of the six bombs"),
        (HaggisPlay(SEQ, (mine[0],), 0), "malformed"),
        (HaggisPlay(SET, (mine[1], mine[0])), "malformed"),
        (HaggisPlay(PASS), "no pass"),
    ]
    for p, text in bad:
        with pytest.raises(IllegalPlayError, match=text):
            g.apply(p)
        assert not g.is_legal(p)
    with pytest.raises(TypeError, match="HaggisPlay"):
        g.apply((2, (mine[0],), 0, 0))
    assert g.to_dict() == before


def test_a_play_that_does_not_beat_is_refused():
    hands = [list(cs("5c 2c J Q K", 0)), list(cs("4c 9d 2d J Q K", 1)), list(cs("7c 2h J Q K", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, current=0)
    play(g, "5c")
    before = g.to_dict()
    for p, text in ((HaggisPlay(SET, cs("4c", 1)), "does not beat"),
                    (HaggisPlay(SET, cs("9d 2d", 1)), "share one rank"),
                    (HaggisPlay(SET, cs("9d J", 1)), "does not beat")):
        with pytest.raises(IllegalPlayError, match=text):
            g.apply(p)
    assert g.to_dict() == before


def _damaged(d, path, value):
    d = copy.deepcopy(d)
    *head, last = path
    x = d
    for k in head:
        x = x[k]
    if value is KeyError:
        del x[last]
    else:
        x[last] = value
    return d


def test_damaged_saved_games_are_refused():
    g = HaggisGame(HaggisConfig(n_players=3), seed=5)
    rng = np.random.default_rng(1)
    for _ in range(12):
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
    d = json.loads(json.dumps(g.to_dict()))
    assert HaggisGame.from_dict(d).to_dict() == g.to_dict()
    h0 = d["hands"][0]
    cases = [
        (("hands",), KeyError, ValueError, "missing \\['hands'\\]"),
        (("extra",), 1, ValueError, "unknown \\['extra'\\]"),
        (("format",), 2, ValueError, "format=2"),
        (("config", "n_players"), 4, ValueError, "n_players=4"),
        (("hands", 0), h0 + [h0[0]], ValueError, "sorted|exactly one"),
        (("hands", 0), h0[1:], ValueError, "exactly one"),
        (("bets", 0), 20, ValueError, "bets\\[0\\]=20"),
        (("current",), 7, ValueError, "current=7"),
        (("passes",), 2, ValueError, "passes"),
        (("rng_state",), {"bit_generator": "Nope"}, ValueError, "rng_state"),
        (("round_scores",), [[1, 2, 3]], ValueError, "round_scores"),
        (("trick",), [[0, [9, [], 0, 0]]], ValueError, "malformed"),
        (("hands", 1), "abc", TypeError, "hands\\[1\\] must be a list"),
        (("game_over",), "no", TypeError, "game_over"),
    ]
    for path, value, err, text in cases:
        with pytest.raises(err, match=text):
            HaggisGame.from_dict(_damaged(d, path, value))
    with pytest.raises(TypeError):
        HaggisGame.from_dict([1, 2])
    with pytest.raises(ValueError, match="JSON"):
        HaggisGame.from_json("{")


def test_trick_in_a_saved_game_must_be_legal():
    hands = [list(cs("5c 2c J Q K", 0)), list(cs("4c 9d 2d J Q K", 1)), list(cs("7c 2h J Q K", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3), hands=hands, current=0)
    play(g, "5c")
    d = g.to_dict()
    d["hands"][1].remove(C("4c"))
    d["trick"].append([1, HaggisPlay(SET, (C("4c"),)).to_list()])
    with pytest.raises(ValueError, match="does not beat"):
        HaggisGame.from_dict(d)


def test_mid_round_save_load_replay_and_clone():
    g = HaggisGame(HaggisConfig(n_players=2), seed=8)
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
    h = HaggisGame.from_json(g.to_json())
    assert h.to_dict() == g.to_dict() and h.legal_plays() == g.legal_plays()
    c = g.clone()
    for x in (g, h, c):
        r = np.random.default_rng(0)
        while not x.game_over:
            legal = x.legal_plays()
            x.apply(legal[int(r.integers(len(legal)))])
    assert g.to_dict() == h.to_dict() == c.to_dict()
    assert HaggisGame.replay(h.log()).to_dict() == h.to_dict()
    assert HaggisGame.replay(g.log(), upto=10).to_dict() != g.to_dict()


def test_a_hand_made_position_replays_from_itself():
    hands = [list(cs("5c 2c 9h J Q K", 0)), list(cs("4c 9d 2d J Q K", 1)), list(cs("7c 2h J Q K", 2))]
    g = HaggisGame.from_position(HaggisConfig(n_players=3, n_rounds=2), hands=hands, current=0, seed=3)
    rng = np.random.default_rng(0)
    while not g.game_over:
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert g.round == 1 and HaggisGame.replay(g.log()).to_dict() == g.to_dict()
    assert HaggisGame.replay(json.loads(json.dumps(g.log())), upto=3).hands != g.hands
