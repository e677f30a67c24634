"""Seals engine: the rules file's examples and rulings (shared/rules/seals.md), determinism, saving,
replay, the seat view and determinizer, and refusals that change nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from seers_env.games import game_spec
from seers_env.seals import (DECLINE_PLAY, GameOverError, IllegalPlayError, SealsConfig, SealsGame, SealsPlay,
                             SealsSeatView)
from seers_env.seals import rulings
from seers_env.seals.cards import COIN, N_CARDS, RUN, SET_MARKS, card_of
from seers_env.seals.moves import best_declaration, declaration_masks, mask_marks, take_plays

RED, BLUE, GREEN, YELLOW, BLACK = range(5)


def num(colour: int, number: int) -> int:
    """The card of ``colour`` showing ``number`` (1..10)."""
    return card_of(colour, number - 1)


def coin(colour: int) -> int:
    return card_of(colour, COIN)


def play_random(game: SealsGame, seed: int) -> SealsGame:
    rng = np.random.default_rng(seed)
    while not game.game_over:
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


# --- section 3: the take -------------------------------------------------------------------------------
def test_section_3_example_take_choices():
    row = [num(BLUE, 4), coin(BLUE), coin(RED), num(GREEN, 7)]
    g = SealsGame.from_position(row=row, hands=[[], [], []])
    legal = g.legal_plays()
    assert legal == take_plays(row)
    sizes = {}
    for p in legal:
        before = g.clone()
        before.apply(p)
        sizes[p.describe()] = len(before.hands[0])
    assert sizes == {"take Blue": 2, "take Coins": 2, "take 4s": 1, "take Red": 1, "take Green": 1, "take 7s": 1}


def test_take_moves_every_matching_card_and_the_row_refills_from_the_pile_top():
    row = [num(RED, 2), num(BLUE, 2), num(RED, 9), num(GREEN, 5)]
    g = SealsGame.from_position(row=row, hands=[[], [], []])
    top = g.pile[:2]
    g.apply(SealsPlay.symbol(1))  # the 2s
    assert g.hands[0] == sorted([num(RED, 2), num(BLUE, 2)])
    assert g.current == 1 and g.phase == "take"
    assert g.row == [num(RED, 9), num(GREEN, 5)] + top and g.pile_size == N_CARDS - 6


def test_a_take_of_a_colour_or_symbol_not_in_the_row_is_refused_unchanged():
    g = SealsGame.from_position(row=[num(RED, 2), num(BLUE, 3), num(RED, 9), num(GREEN, 5)], hands=[[], [], []])
    before = g.to_dict()
    for bad in (SealsPlay.colour(YELLOW), SealsPlay.symbol(COIN), DECLINE_PLAY, SealsPlay(7, 0), SealsPlay(0, 9),
                SealsPlay(True, 0)):
        with pytest.raises(IllegalPlayError):
            g.apply(bad)
    with pytest.raises(TypeError, match="SealsPlay"):
        g.apply((0, 0))
    assert g.to_dict() == before


def test_a_pile_that_cannot_refill_reveals_what_is_left():
    row = [num(RED, 1), num(RED, 2), num(RED, 3), num(BLUE, 4)]
    pile = [num(GREEN, 5), num(GREEN, 6)]
    rest = [c for c in range(N_CARDS) if c not in row + pile]
    g = SealsGame.from_position(row=row, hands=[[], rest[:25], rest[25:]], pile=pile)
    g.apply(SealsPlay.colour(RED))
    assert g.current == 1 and g.row == [num(BLUE, 4)] + pile and g.pile_size == 0
    d = g.to_dict()
    d["row"], d["pile"] = d["row"][:2], d["row"][2:]  # a row left short while the pile has cards
    with pytest.raises(ValueError, match="refilling"):
        SealsGame.from_dict(d)


def _exhaust_position(config: SealsConfig | None = None, **kw) -> SealsGame:
    """A take phase with one face-up card, an empty pile, and hands that hold no set after it."""
    config = config or SealsConfig(n_players=3)
    n = config.n_players
    last = num(RED, 1)
    others = [c for c in range(N_CARDS) if c != last]
    # give seat 1.. every other card; seat 0 (to act) holds nothing, so one card makes no set
    hands = [[] for _ in range(n)]
    for i, c in enumerate(others):
        hands[1 + i % (n - 1)].append(c)
    kw.setdefault("current", 0)
    return SealsGame.from_position(config, row=[last], hands=hands, pile=[], **kw)


def test_round_without_cards_ends_with_no_winner_and_takes_a_mark_from_the_counter():
    g = _exhaust_position()
    assert g.counter == 5
    res = g.apply(SealsPlay.colour(RED))
    assert res.round_over and res.round_end_reason == rulings.REASON_EXHAUSTED and res.winner == -1
    assert g.round_scores == [[0, 0, 0]] and g.counter == 4 and g.round == 1
    assert g.start_player == 1 and g.current == 1  # the next round's first player: one seat clockwise
    assert all(h == [] for h in g.hands) and len(g.row) == 4 and g.pile_size == N_CARDS - 4


# --- section 4: sets and Marks ------------------------------------------------------------------------
def test_section_4_marks_table():
    assert [SET_MARKS[k] for k in range(5)] == [1] * 5 and [SET_MARKS[k] for k in range(5, 10)] == [2] * 5
    assert SET_MARKS[COIN] == 3 and SET_MARKS[RUN] == 4
    assert SealsPlay.declare([2]).marks() == 1 and SealsPlay.declare([7]).marks() == 2  # four 3s, four 8s


def test_four_of_a_kind_is_four_any_colours_and_a_fifth_stays_in_hand():
    hand = [num(c, 3) for c in range(5)]
    assert declaration_masks(hand) == [0, 1 << 2]
    assert declaration_masks(hand[:3]) == [0]


def test_several_disjoint_sets_each_score():
    hand = [num(c, 3) for c in range(4)] + [num(c, 8) for c in range(4)] + [coin(c) for c in range(4)]
    masks = declaration_masks(hand)
    both = (1 << 2) | (1 << 7) | (1 << COIN)
    assert both in masks and mask_marks(both) == 1 + 2 + 3 and len(masks) == 8


def test_a_run_mixes_colours_and_shares_no_card_with_a_four_of_a_kind():
    run = [num(k % 5, k) for k in range(1, 11)]
    assert declaration_masks(run) == [0, 1 << RUN]
    four_sevens = run + [num(c, 7) for c in range(5) if num(c, 7) not in run][:3]  # four 7s in all
    assert (1 << 6) | (1 << RUN) not in declaration_masks(four_sevens)
    five_sevens = run + [num(c, 7) for c in range(5) if num(c, 7) not in run]
    assert (1 << 6) | (1 << RUN) in declaration_masks(five_sevens)


def test_several_disjoint_runs_each_score():
    """Sections 3.3 and 4: one or several disjoint sets, a card in one set at most; each run scores 4."""
    two_runs = [num(c, k) for k in range(1, 11) for c in (0, 1)]
    assert declaration_masks(two_runs) == [0, 1 << RUN, 2 << RUN]
    assert mask_marks(2 << RUN) == 8 and mask_marks((1 << 6) | (3 << RUN)) == 14
    five = [num(c, k) for k in range(1, 11) for c in range(5)]  # five runs, or a run beside every four
    assert best_declaration(five) == 5 << RUN and mask_marks(5 << RUN) == 20
    assert (1 << RUN) | 1023 in declaration_masks(five) and mask_marks((1 << RUN) | 1023) == 19
    assert (2 << RUN) | 1 not in declaration_masks(five)  # four 1s and two runs need six 1s


def _declare_position(hand_sets: list[int], **kw) -> SealsGame:
    """Seat 0 to declare, holding four cards of every number in ``hand_sets`` (numbers 1..10)."""
    hand = [num(c, k) for k in hand_sets for c in range(4)]
    row = [c for c in (num(BLACK, 1), num(BLACK, 2)) if c not in hand]
    return SealsGame.from_position(row=row, hands=[hand, [], []], phase="declare", turns=1, **kw)


def test_declaring_wins_the_round_at_once_and_the_marks_go_to_the_declarer():
    g = _declare_position([3, 8])
    legal = g.legal_plays()
    assert legal[0] == DECLINE_PLAY and [p.value for p in legal] == [0, 1 << 2, 1 << 7, (1 << 2) | (1 << 7)]
    res = g.apply(legal[-1])
    assert res.round_end_reason == rulings.REASON_DECLARED and res.winner == 0 and res.round_scores == (3, 0, 0)
    assert g.totals == [3, 0, 0] and g.counter == 4 and g.round == 1 and not g.game_over


def test_a_player_may_decline_a_set_and_the_turn_passes():
    g = _declare_position([3])
    g.apply(DECLINE_PLAY)
    assert g.current == 1 and g.phase == "take" and g.round_scores == [] and len(g.hands[0]) == 4


def test_an_infeasible_declaration_is_refused_unchanged():
    g = _declare_position([3])
    before = g.to_dict()
    for bad in (SealsPlay.declare([4]), SealsPlay.declare([RUN]), SealsPlay.colour(BLACK)):
        with pytest.raises(IllegalPlayError):
            g.apply(bad)
    assert g.to_dict() == before


def test_the_declare_phase_is_asked_only_when_the_hand_holds_a_set():
    hand = [num(c, 3) for c in range(3)]
    row = [num(BLACK, 3), num(BLACK, 5), num(RED, 9), num(GREEN, 10)]
    g = SealsGame.from_position(row=row, hands=[hand, [], []])
    g.apply(SealsPlay.colour(BLACK))
    assert g.phase == "declare" and g.current == 0 and len(g.legal_plays()) == 2
    g2 = SealsGame.from_position(row=row, hands=[hand, [], []])
    g2.apply(SealsPlay.symbol(8))  # the 9: no set
    assert g2.phase == "take" and g2.current == 1


# --- sections 5 and 6: rounds, the counter, game end ---------------------------------------------------
def test_five_marks_win_at_once():
    g = _declare_position([3], round_scores=[[4, 0, 0]])
    g.apply(SealsPlay.declare([2]))
    assert g.game_over and g.winners() == [0] and g.counter == 3
    with pytest.raises(GameOverError):
        g.apply(DECLINE_PLAY)


def test_an_empty_counter_ends_the_game_and_the_most_marks_win():
    g = _exhaust_position(round_scores=[[2, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    assert g.counter == 1
    g.apply(SealsPlay.colour(RED))
    assert g.game_over and g.counter == 0 and g.winners() == [0] and g.tie_breaks == 0


def test_a_tie_is_played_off_by_the_tied_players_alone():
    g = _exhaust_position(round_scores=[[2, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]])
    g.apply(SealsPlay.colour(RED))
    assert not g.game_over and g.tie_breaks == 1 and g.playing == [True, True, False]
    assert g.start_player in (0, 1) and g.hands[2] == []
    seen = set()
    while not g.game_over and g.round == 5:
        seen.add(g.current)
        g.apply(g.legal_plays()[0])
    assert 2 not in seen


def test_tie_breaks_stop_after_the_cap_and_the_tie_is_shared():
    cfg = SealsConfig(n_players=3)
    done = [[2, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]  # 5 + 2 tie-breaks
    g = SealsGame.from_position(cfg, row=[num(RED, 1)], pile=[],
                                hands=[[], [c for c in range(N_CARDS) if c != num(RED, 1)], []],
                                current=0, round_scores=done, counter=0, tie_breaks=3,
                                playing=[True, True, False])
    g.apply(SealsPlay.colour(RED))
    assert g.game_over and g.winners() == [0, 1] and g.placements() == [1.5, 1.5, 3.0]


def test_the_turn_cap_truncates_a_round():
    g = SealsGame(SealsConfig(n_players=2, max_turns_per_round=3), seed=4)
    while g.round == 0 and not g.game_over:
        legal = g.legal_plays()
        g.apply(legal[0] if legal[0].kind != 2 else DECLINE_PLAY)
    assert g.round_end_reasons[0] == rulings.REASON_TRUNCATED and g.round_scores[0] == [0, 0]


def test_first_player_is_random_and_moves_clockwise():
    firsts = {SealsGame(SealsConfig(n_players=4), seed=s).first_player_seat for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    g = SealsGame(SealsConfig(n_players=4), seed=9)
    starts = [g.start_player]
    rng = np.random.default_rng(0)
    while not g.game_over:
        r = g.round
        legal = g.legal_plays()
        g.apply(legal[int(rng.integers(len(legal)))])
        if g.round != r and not g.game_over and g.tie_breaks == 0:
            starts.append(g.start_player)
    assert all((b - a) % 4 == 1 for a, b in zip(starts, starts[1:]))


# --- whole games, determinism, saving ---------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_are_deterministic_save_and_replay(n):
    for seed in range(6):
        a = play_random(SealsGame(SealsConfig(n_players=n), seed=seed), seed)
        b = play_random(SealsGame(SealsConfig(n_players=n), seed=seed), seed)
        assert a.to_dict() == b.to_dict()
        assert SealsGame.from_dict(json.loads(json.dumps(a.to_dict()))).to_dict() == a.to_dict()
        assert SealsGame.replay(a.log()).to_dict() == a.to_dict()
        assert a.game_over and len(a.round_scores) == a.round + 1
        assert max(a.totals) >= rulings.MARKS_TO_WIN or a.counter == 0


def test_mid_game_save_restores_and_continues_identically():
    g = SealsGame(SealsConfig(n_players=3), seed=2)
    for _ in range(7):
        g.apply(g.legal_plays()[-1])
    h = SealsGame.from_dict(json.loads(json.dumps(g.to_dict())))
    play_random(g, 5)
    play_random(h, 5)
    assert g.to_dict() == h.to_dict()


def test_hand_made_position_log_replays_from_the_position():
    g = _declare_position([3])
    g.apply(DECLINE_PLAY)
    g.apply(g.legal_plays()[0])
    assert SealsGame.replay(g.log()).to_dict() == g.to_dict()


def _saved():
    g = SealsGame(SealsConfig(n_players=3), seed=1)
    for _ in range(3):
        g.apply(g.legal_plays()[0])
    return g.to_dict()


@pytest.mark.parametrize("damage, error, match", [
    (lambda d: d.pop("pile"), ValueError, "lacks fields"),
    (lambda d: d.update(extra=1), ValueError, "unknown fields"),
    (lambda d: d.update(format=9), ValueError, "format=9"),
    (lambda d: d["pile"].append(d["pile"][0]), ValueError, "doubled"),
    (lambda d: d["pile"].pop(), ValueError, "missing"),
    (lambda d: d.update(phase="dance"), ValueError, "phase"),
    (lambda d: d.update(current=7), ValueError, "current"),
    (lambda d: d.update(current="0"), TypeError, "current"),
    (lambda d: d.update(counter=2), ValueError, "counter"),
    (lambda d: d["hands"][0].reverse() if len(d["hands"][0]) > 1 else d["hands"][0].extend([99]), ValueError, "hands"),
    (lambda d: d.update(config={"n_players": 9}), ValueError, "n_players"),
    (lambda d: d.update(rng_state={"bit_generator": "nope"}), ValueError, "rng_state"),
    (lambda d: d.update(round_scores=[[1, 0, 0]], round=1, round_end_reasons=["exhausted"], counter=4),
     ValueError, "disagree"),
])
def test_damaged_saved_games_are_refused_with_the_field_named(damage, error, match):
    d = _saved()
    damage(d)
    with pytest.raises(error, match=match):
        SealsGame.from_dict(d)


def test_a_log_that_does_not_match_is_refused():
    g = SealsGame(seed=3)
    g.apply(g.legal_plays()[0])
    log = g.log()
    log["events"][0]["pile"] = list(reversed(log["events"][0]["pile"]))
    with pytest.raises(ValueError, match="deals differ"):
        SealsGame.replay(log)
    with pytest.raises(ValueError, match="lacks field"):
        SealsGame.replay({"events": []})


@pytest.mark.parametrize("kwargs, error", [
    ({"n_players": 5}, ValueError), ({"n_players": 1}, ValueError), ({"n_players": True}, TypeError),
    ({"n_rounds": 0}, ValueError), ({"max_tie_break_rounds": -1}, ValueError),
    ({"max_turns_per_round": 2.5}, TypeError),
])
def test_bad_config_is_refused(kwargs, error):
    with pytest.raises(error, match=next(iter(kwargs))):
        SealsConfig(**kwargs)
    with pytest.raises(ValueError, match="unknown fields"):
        SealsConfig.from_dict({"players": 3})


def test_registry_spec_makes_games_within_2_to_4_players():
    spec = game_spec("seals")
    assert spec.new_game(4, seed=1).n_players == 4
    with pytest.raises(ValueError, match="n_players=5"):
        spec.check_players(5)


# --- seat view and determinizer ---------------------------------------------------------------------
def test_view_shows_hands_and_pile_cards_but_never_the_pile_order():
    g = SealsGame(seed=8)
    for _ in range(4):
        g.apply(g.legal_plays()[0])
    v = SealsSeatView(g, 1).to_dict()
    assert v["hands"] == g.hands and v["pile_cards"] == sorted(g.pile)
    other = g.clone()
    other._pile = list(reversed(other._pile))
    assert SealsSeatView(other, 1).to_dict() == v  # the pile order is the only hidden information
    assert "pile" not in v


def test_determinizer_shuffles_only_the_pile_and_shares_nothing():
    g = SealsGame(seed=8)
    for _ in range(3):
        g.apply(g.legal_plays()[0])
    view = SealsSeatView(g, g.current)
    sampler = view.determinizer()
    rng = np.random.default_rng(0)
    samples = [sampler.sample(rng) for _ in range(5)]
    for s in samples:
        assert SealsSeatView(s, g.current).to_dict() == view.to_dict()
        assert sorted(s.pile) == sorted(g.pile)
        assert SealsGame.replay(s.log()).to_dict() == s.to_dict()
    assert len({tuple(s.pile) for s in samples}) > 1
    before = g.to_dict()
    play_random(samples[0], 1)
    assert g.to_dict() == before


def test_returned_lists_are_copies():
    g = SealsGame(seed=1)
    g.hands[0].append(3)
    g.row.clear()
    g.legal_plays().clear()
    g.round_scores.append([1])
    assert g.row and g.hands[0] == [] and g.legal_plays() and g.round_scores == []
    d = g.to_dict()
    d["pile"].clear()
    assert g.pile_size == N_CARDS - 4
