"""One named test per ruling of the rules file (seers_env/rulings.py) and per artifact kind (section 6)."""

from __future__ import annotations

from collections import Counter

import pytest

from seers_env import DEFAULT_ARTIFACT_DECK, Game, GameConfig, IllegalPlayError
from seers_env.artifacts import (
    ARTIFACT_KINDS, CAULDRON, GIFT, GO_FIRST, HALF_STEP, HIGHEST_SINGLE, ROD, SUIT_CHANGER,
)
from seers_env.cards import WILD, artifact_card, is_artifact
from seers_env.melds import classify
from seers_env.plays import PASS, MeldType, PlayKind
from seers_env.rulings import HIGHEST_SINGLE_RANK
from seers_env.scoring import winners

SINGLE, SET, RUN = MeldType.SINGLE, MeldType.SET, MeldType.RUN


def first_round_hands(game: Game) -> list[list[int]]:
    return [e["hands"] for e in game.events if e["event"] == "deal"][0]


# --- section 2 ------------------------------------------------------------------------------------

def test_default_artifact_deck_is_go_first_plus_two_of_each_other_kind():
    counts = Counter(DEFAULT_ARTIFACT_DECK)
    assert len(DEFAULT_ARTIFACT_DECK) == 13 and counts["go_first"] == 1
    assert {k.key for k in ARTIFACT_KINDS[1:]} == {k for k, c in counts.items() if c == 2}


def test_suits_are_drawn_at_random_each_round():
    for n, n_suits in ((2, 3), (3, 3), (4, 4)):
        seen = set()
        for seed in range(6):
            game = Game(GameConfig(n_players=n), seed=seed)
            while not game.game_over:
                assert len(game.suits) == n_suits
                seen.add(tuple(game.suits))
                legal = game.legal_plays()
                game.apply(legal[-1])
        assert len(seen) > 1


def test_two_player_game_hides_3_cards_of_2_to_10():
    game = Game(GameConfig(n_players=2), seed=5)
    hands = first_round_hands(game)
    suited = [c for h in hands for c in h if c < WILD]
    assert len(game.hidden) == 3 and len(suited) == 24
    assert sorted(suited + game.hidden) == sorted(s * 12 + v - 2 for s in game.suits for v in range(2, 11))
    assert not set(game.hidden) & set(suited)
    from seers_env.view import SeatView
    view = SeatView(game, 0)
    assert not any(getattr(view, name, None) == game.hidden for name in dir(view) if not name.startswith("_"))


def test_go_first_holder_is_the_first_start_seer_of_every_round():
    for seed in range(5):
        game = Game(GameConfig(n_players=3), seed=seed)
        while not game.game_over:
            deal = [e for e in game.events if e["event"] == "deal"][-1]
            holder = [s for s, h in enumerate(deal["hands"]) if artifact_card(GO_FIRST) in h]
            assert holder == [deal["start_seer"]] == [game.go_first_holder]
            r = game.round
            while not game.game_over and game.round == r:
                game.apply(game.legal_plays()[-1])


def test_rounds_are_configurable():
    for n_rounds in (1, 2, 6):
        game = Game(GameConfig(n_players=3, n_rounds=n_rounds), seed=1)
        while not game.game_over:
            game.apply(game.legal_plays()[0])
        assert len(game.round_scores) == n_rounds


def test_variant_without_artifacts_deals_13_cards_each():
    starts = set()
    for seed in range(8):
        game = Game(GameConfig(n_players=4, artifact_deck=()), seed=seed)
        assert all(len(h) == 13 and h.count(WILD) == 1 and not any(map(is_artifact, h)) for h in game.hands)
        assert game.go_first_holder == -1 and game.dealt_artifacts == []
        starts.add(game.start_seer)  # project ruling START_SEER_WITHOUT_GO_FIRST: a random seat
    assert len(starts) > 1


def test_custom_artifact_deck_is_a_list_of_kinds():
    game = Game(GameConfig(n_players=3, artifact_deck=["rod_of_reincarnation"] * 4 + ["half_step"] * 3), seed=2)
    dealt = [c for h in game.hands for c in h if is_artifact(c)]
    assert len(dealt) == 6 and set(dealt) <= {artifact_card(ROD), artifact_card(HALF_STEP)}
    assert game.go_first_holder == -1


# --- section 3 ------------------------------------------------------------------------------------

def test_runs_do_not_wrap_around(table):
    assert classify([(0, 13), (0, 2)]) is None
    game = table.game(["Y12 Y13 Y2 wild", "P2 P3 P4"])
    runs = [p for p in table.melds(game) if p.meld_type == RUN and p.artifact == -1]
    two = table.cards("Y2")[0]
    with_13 = [p for p in runs if table.cards("Y13")[0] in p.suited]
    assert with_13 and all(two not in p.suited for p in with_13)  # no 13-2 run
    assert all(p.rank <= 26 for p in runs)  # no wild above 13: Y12 Y13 + wild is only 11-12-13
    assert {p.rank for p in runs if p.suited == tuple(table.cards("Y12 Y13")) and p.wilds == 1} == {26}


def test_wild_values_stay_2_to_13_also_at_two_players(table):
    game = table.game(["wild Y3", "P2 P3"])
    assert game.config.n_players == 2
    wild_singles = {p.rank // 2 for p in table.melds(game) if p.suited == () and p.artifact == -1}
    assert wild_singles == set(range(2, 14))


def test_start_seer_who_cannot_open_passes_without_being_put_out(table):
    game = table.game(["go_first rod_of_reincarnation", "Y5 Y6 Y7", "P9 P10 P11"])
    assert game.legal_plays() == [PASS]  # Go First cannot be played alone, the Rod only when following
    game.apply(PASS)
    assert game.start_seer == game.current == 1 and game.top is None and not any(game.passed)
    game.apply(table.pick(game, suited="Y5", artifact=-1))
    game.apply(table.pick(game, suited="P9", artifact=-1))
    assert game.current == 0 and not game.passed[0]  # still in the trick player_1 opened
    assert {p.kind for p in game.legal_plays()} == {PlayKind.PASS, PlayKind.ROD}


def test_no_player_can_open_ends_the_round(table):
    game = table.game(["go_first rod_of_reincarnation", "rod_of_reincarnation"])
    game.apply(PASS)
    assert game.round == 0 and game.legal_plays() == [PASS]
    result = game.apply(PASS)
    assert result.round_scores == (-2, -1) and game.round == 1


def test_start_seer_with_an_opening_meld_must_lead(table):
    game = table.game(["Y5 gift_of_fate", "P9"])
    assert PASS not in game.legal_plays()
    with pytest.raises(IllegalPlayError, match="Start Seer"):
        game.apply(PASS)


def test_at_most_one_artifact_per_play_and_it_does_not_count_toward_size(table):
    game = table.game(["Y5 cauldron_of_sorcery half_step go_first", "P4 P6 P7 P8 P9 P10 P11"])
    assert all(sum(map(is_artifact, p.cards())) <= 1 for p in game.legal_plays())
    game.apply(table.pick(game, suited="Y5", artifact=GO_FIRST))
    assert game.top == (SINGLE, 1, 10)  # a Single, the Go First riding along not counted
    assert {p.suited for p in table.melds(game)} == {(c,) for c in table.cards("P6 P7 P8 P9 P10 P11")}


def test_same_play_identity_is_listed_once(table):
    game = table.game(["Y5 P5 wild suit_changer", "G9"])
    ids = [p[:8] for p in game.legal_plays()]
    assert len(ids) == len(set(ids))
    wild_singles = [p for p in table.melds(game) if p.suited == () and p.wilds == 1 and p.artifact == -1]
    assert sorted(p.rank for p in wild_singles) == [2 * v for v in range(2, 14)]  # one per value, not suit
    # a suit change inside a Single is the same play as discarding the artifact with it
    y5 = table.pick(game, meld_type=SINGLE, suited="Y5", artifact=SUIT_CHANGER)
    other_reading = y5._replace(effect_used=1, modified_card=y5.suited[0], modifier=3)
    game.apply(other_reading)
    assert game.events[-1]["play"] == y5.to_dict()  # the engine's representative is logged


def test_half_step_plays_equal_in_identity_are_listed_once(table):
    # regression (engine fix): "wild as 2 +1/2" and "wild as 3 -1/2" are one play, a Single 2 1/2
    game = table.game(["wild half_step", "G9"])
    ids = [p[:8] for p in game.legal_plays()]
    assert len(ids) == len(set(ids))
    halves = sorted(p.rank for p in table.melds(game) if p.effect_used)
    assert halves == list(range(3, 28, 2))  # 1 1/2 is below 2: ranks 2 1/2 .. 13 1/2 once each


# --- section 4 ------------------------------------------------------------------------------------

def test_rod_never_forces_a_play_in_the_bonus(table):
    game = table.game(["Y9 Y2 Y3 Y4 Y6 Y7 Y8", "P5 rod_of_reincarnation"])
    game.apply(table.pick(game, suited="Y9", artifact=-1))
    assert game.in_bonus(1) and not table.melds(game)
    assert {p.kind for p in game.legal_plays()} == {PlayKind.PASS, PlayKind.ROD}


def test_gift_never_forces_a_lead(table):
    game = table.game(["gift_of_fate go_first", "P5", "T5"])
    assert {p.kind for p in game.legal_plays()} == {PlayKind.PASS, PlayKind.GIFT}


def test_bonus_forces_plays_that_need_an_artifact(table):
    game = table.game(["Y9 Y2 Y3 Y4 Y6 Y7 Y8", "P5 highest_single"])
    game.apply(table.pick(game, suited="Y9", artifact=-1))
    assert PASS not in game.legal_plays()  # the highest Single is a legal meld (section 4)
    game = table.game(["Y8 Y2 Y3 Y4 Y6 Y7 Y9", "P8 cauldron_of_sorcery"])
    game.apply(table.pick(game, suited="Y8", artifact=-1))
    assert table.ids(game) == {(1, SINGLE, 1, 18, tuple(table.cards("P8")), 0, CAULDRON, -1)}  # 8 as 9


def test_leaving_the_bonus_when_the_rod_grows_the_hand(table):
    game = table.game(["Y2 go_first Y12 Y3 Y4 Y6 Y7 Y8 Y9 Y10", "P4 P5 S6 T7 rod_of_reincarnation",
                       "T2 T3 T5 T11 T12 T13 G2 G3"])
    game.apply(table.pick(game, meld_type=SINGLE, suited="Y2", artifact=GO_FIRST))
    assert game.in_bonus(1) and PASS not in game.legal_plays()  # 5 cards and a higher Single
    game.apply(table.pick(game, meld_type=SINGLE, suited="P4", artifact=-1))
    game.apply(table.pick(game, meld_type=SINGLE, suited="T11", artifact=-1))
    game.apply(table.pick(game, meld_type=SINGLE, suited="Y12", artifact=-1))
    game.apply(table.pick(game, kind=PlayKind.ROD))
    assert len(game.hands[1]) == 8 and not game.in_bonus(1)
    assert game.top is None and game.current == 1  # the taker leads the next trick
    game.apply(table.pick(game, meld_type=SINGLE, suited="P4", artifact=-1))
    game.apply(table.pick(game, meld_type=SINGLE, suited="T5", artifact=-1))
    game.apply(PASS)
    assert game.current == 1 and table.melds(game) and PASS in game.legal_plays()  # may pass again


# --- section 5 ------------------------------------------------------------------------------------

def test_tied_players_share_the_win():
    assert winners([5, 5, 3], [1, 1, 0]) == [0, 1]
    assert winners([5, 5, 3], [1, 2, 9]) == [1]  # a tie on total goes to the higher last-round score


# --- section 3: the round ends the moment a hand is empty -----------------------------------------

def test_round_ends_when_a_hand_empties_mid_trick(table):
    game = table.game(["Y5 Y6 Y7 Y8 Y9 Y10", "P9", "T2 T3 T11"])
    game.apply(table.pick(game, suited="Y5", artifact=-1))
    result = game.apply(table.pick(game, suited="P9", artifact=-1))
    assert result.round_scores == (6 - 5, 0, 2 - 3) and game.round == 1  # Y6..Y10: bonus 6
    assert game.trick == [] and game.top is None


def test_gift_of_fate_as_last_card_ends_the_round(table):
    game = table.game(["gift_of_fate", "P9 P10", "T2 T3 T11"])
    assert PASS in game.legal_plays()  # the Gift is not an opening meld
    result = game.apply(table.pick(game, kind=PlayKind.GIFT, target=2))
    assert result.round_scores == (0, 9 - 2, 2 - 3)


# --- section 6: each artifact kind ----------------------------------------------------------------

def test_every_artifact_may_ride_along_with_a_meld_unused(table):
    for kind in ARTIFACT_KINDS:
        game = table.game([f"Y5 {kind.key}", "P9"])
        play = table.pick(game, suited="Y5", artifact=ARTIFACT_KINDS.index(kind), rank=10)
        assert play.effect_used == 0


def test_go_first_cannot_be_played_alone(table):
    game = table.game(["go_first Y5", "P9"])
    assert all(p.cards() != [artifact_card(GO_FIRST)] for p in game.legal_plays())
    with pytest.raises(IllegalPlayError, match="Go First"):
        game.apply(table.pick(game, suited="Y5", artifact=GO_FIRST)._replace(size=0, suited=(), rank=0))


def test_rod_takes_every_card_of_the_trick_and_leads_next(table):
    game = table.game(["Y5 go_first Y2 Y3 Y4 Y6 Y7", "P6 wild P2 P3", "T11 rod_of_reincarnation T2"])
    assert not any(p.kind == PlayKind.ROD for p in game.legal_plays())  # not when leading
    game.apply(table.pick(game, suited="Y5", artifact=GO_FIRST))
    game.apply(table.pick(game, suited="", wilds=1, rank=18, artifact=-1))  # wild as 9
    before = list(game.hands[2])
    game.apply(table.pick(game, kind=PlayKind.ROD))
    taken = table.cards("Y5 go_first wild")
    assert sorted(game.hands[2]) == sorted([c for c in before if c != artifact_card(ROD)] + taken)
    assert game.known[2] == taken and artifact_card(ROD) in game.discards
    assert game.trick == [] and game.top is None and game.current == game.start_seer == 2


def test_gift_of_fate_hands_the_lead_to_another_player(table):
    game = table.game(["gift_of_fate Y5 Y6", "P9 P10", "T2 T3"], current=0)
    gifts = [p for p in game.legal_plays() if p.kind == PlayKind.GIFT]
    assert sorted(p.target for p in gifts) == [1, 2]  # any other seat, never oneself
    game.apply(table.pick(game, kind=PlayKind.GIFT, target=2))
    assert game.start_seer == game.current == 2 and game.top is None
    assert artifact_card(GIFT) in game.discards
    assert PASS not in game.legal_plays()  # the new Start Seer must lead
    game.apply(table.pick(game, suited="T2", artifact=-1))
    game.apply(table.pick(game, suited="Y5", artifact=-1))
    assert not any(p.kind == PlayKind.GIFT for p in game.legal_plays())  # only when about to lead


def test_cauldron_moves_one_suited_card_up_or_down_within_2_to_13(table):
    game = table.game(["Y2 Y13 cauldron_of_sorcery", "P9"])
    ranks = {p.suited: set() for p in table.melds(game)}
    for p in table.melds(game):
        if p.artifact == CAULDRON and p.meld_type == SINGLE:
            ranks[p.suited].add(p.rank // 2)
    y2, y13 = table.cards("Y2 Y13")
    assert ranks[(y2,)] == {2, 3} and ranks[(y13,)] == {12, 13}  # never 1 or 14
    game = table.game(["T4 T6 cauldron_of_sorcery", "P9"])
    runs = {p.rank // 2 for p in table.melds(game) if p.meld_type == RUN}
    assert runs == {5, 6}  # T4 T6-as-5, or T4-as-5 T6


def test_suit_changer_makes_one_card_count_as_another_suit(table):
    game = table.game(["Y5 P6 suit_changer", "G9"])
    runs = [p for p in table.melds(game) if p.meld_type == RUN]
    assert [(p.suited, p.rank, p.artifact) for p in runs] == [(tuple(table.cards("Y5 P6")), 12, SUIT_CHANGER)]


def test_half_step_beats_equal_but_loses_to_next_value(table):
    game = table.game(["Y7 Y2 Y3 Y4 Y5 Y6", "P7 half_step P2", "T8 T7 T2"])
    game.apply(table.pick(game, suited="Y7", artifact=-1))
    assert not any(p.suited == tuple(table.cards("P7")) and p.rank == 14 for p in table.melds(game))
    game.apply(table.pick(game, suited="P7", artifact=HALF_STEP, rank=15))  # 7 1/2
    assert game.top == (SINGLE, 1, 15)
    assert {p.suited for p in table.melds(game)} == {tuple(table.cards("T8"))}  # T7 cannot follow


def test_highest_single_beats_every_single_and_nothing_beats_it(table):
    game = table.game(["Y13 Y2 Y3", "highest_single P2", "T13 wild"])
    game.apply(table.pick(game, suited="Y13", artifact=-1))
    game.apply(table.pick(game, artifact=HIGHEST_SINGLE, rank=HIGHEST_SINGLE_RANK))
    assert game.top == (SINGLE, 1, HIGHEST_SINGLE_RANK)
    assert game.legal_plays() == [PASS]
    game = table.game(["Y5 P5 Y2", "highest_single P6 T6"])
    game.apply(table.pick(game, suited="Y5 P5", artifact=-1))
    assert all(p.cards() != [artifact_card(HIGHEST_SINGLE)] for p in game.legal_plays())  # Singles only
