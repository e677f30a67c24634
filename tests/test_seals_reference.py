"""The Seals engine's legal plays and action mask against the naive reference (``tests/seals_reference.py``,
written from ``docs/seals_rules.md``) on random reachable states at 2, 3 and 4 players, plus hand-made
positions from the rules text.

Default: 10,000 states per player count (30,000 in all, a few seconds). ``SEALS_REFERENCE_STATES=N`` changes it;
``python tests/test_seals_reference.py N`` runs it outside pytest and prints the figures.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from seals_reference import (  # noqa: E402
    action_id, reference_has_set, reference_legal_plays, reference_marks, reference_mask, reference_taken_cards)
from seers_env.seals import actions  # noqa: E402
from seers_env.seals.cards import RUN, card_of, symbol_counts  # noqa: E402
from seers_env.seals.game import IllegalPlayError, SealsConfig, SealsGame  # noqa: E402
from seers_env.seals.kernel import max_marks_counts  # noqa: E402
from seers_env.seals.moves import best_declaration  # noqa: E402
from seers_env.seals.plays import N_ACTIONS, SealsPlay, declaration_value  # noqa: E402

STATES = int(os.environ.get("SEALS_REFERENCE_STATES", "10000"))
DECLINE_P = 0.8  # in the declare phase, decline this often so that hands grow large (many sets at once)


def check_state(game) -> list[SealsPlay]:
    """Engine plays == reference plays (as a sorted list, hence as sets) and the catalogue's mask ==
    the reference's mask; returns the reference's plays."""
    ref = reference_legal_plays(game)
    eng = game.legal_plays()
    assert set(eng) == set(ref), (f"phase {game.phase}, row {game.row}, hand {game.hands[game.current]}; "
                                  f"only engine: {sorted(set(eng) - set(ref))[:5]}, "
                                  f"only reference: {sorted(set(ref) - set(eng))[:5]}")
    assert eng == ref  # the same order (ascending action id)
    mask = actions.action_mask(game)
    assert mask.shape == (actions.N_ACTIONS,) and np.array_equal(mask, reference_mask(game))
    for p in ref:  # the catalogue's ids are the rules file's
        assert p.action == action_id(p.kind, p.value)
        assert actions.play_of(p.action) == p
    return ref


def run(n_players: int, count: int, seed: int) -> dict:
    """Play games choosing random legal plays (seeded) until ``count`` states were checked."""
    rng = np.random.default_rng(seed)
    stats = {"states": 0, "take": 0, "declare": 0, "max_declarations": 0, "max_hand": 0, "run_states": 0,
             "multi_kind": 0, "declared_marks": 0, "two_runs": 0}
    game_seed = 0
    while stats["states"] < count:
        game = SealsGame(SealsConfig(n_players=n_players), seed=1000 * seed + game_seed)
        game_seed += 1
        while not game.game_over and stats["states"] < count:
            ref = check_state(game)
            stats["states"] += 1
            stats[game.phase] += 1
            hand = game.hands[game.current]
            stats["max_hand"] = max(stats["max_hand"], len(hand))
            if game.phase == "declare":
                stats["max_declarations"] = max(stats["max_declarations"], len(ref))
                stats["run_states"] += any(p.value >> 11 >= 1 for p in ref)
                stats["multi_kind"] += any(bin(p.value & 2047).count("1") + (p.value >> 11) >= 2 for p in ref)
                stats["two_runs"] += any(p.value >> 11 >= 2 for p in ref)
                nonzero = [p for p in ref if p.value]
                if nonzero and rng.random() >= DECLINE_P:
                    play = nonzero[int(rng.integers(len(nonzero)))]
                else:
                    play = SealsPlay(2, 0)
            else:
                play = ref[int(rng.integers(len(ref)))]
            seat, row, before = game.current, game.row, game.hands[game.current]
            rounds = len(game.round_scores)
            game.apply(play)
            if play.kind != 2:  # a take picks every face-up card of its colour / symbol, nothing else
                taken = reference_taken_cards(row, play.kind, play.value)
                if len(game.round_scores) == rounds:  # the round goes on (not exhausted/truncated)
                    assert game.hands[seat] == sorted(before + taken)
                    assert not set(taken) & set(game.row)  # none of them stays face up
                # the declaration is asked exactly when the hand then holds a set
                assert (game.phase == "declare" and game.current == seat) == reference_has_set(before + taken)
            elif play.value:  # the declarer scores the declaration's Marks
                stats["declared_marks"] += 1
                assert game.round_scores[rounds][seat] == reference_marks(play.value)
    return stats


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_engine_equals_reference_on_random_states(n_players):
    out = run(n_players, STATES, seed=n_players)
    assert out["states"] == STATES
    if STATES >= 1000:  # the states exercise every kind of decision
        assert out["take"] and out["declare"] and out["declared_marks"]
        assert out["run_states"] and out["max_declarations"] >= 2
    if STATES >= 10000:
        assert out["multi_kind"] and out["max_declarations"] >= 6  # declarations of several set kinds
        if n_players == 2:  # long rounds: hands with two disjoint runs (seeded, so always reached)
            assert out["two_runs"]


# --- hand-made positions from the rules text -------------------------------------------------------------
R, B, G, Y, K = range(5)  # Red, Blue, Green, Yellow, Black
COIN = 10


def c(colour: int, number: int | str) -> int:
    """A card by colour and number 1..10 or "Coin"."""
    return card_of(colour, COIN if number == "Coin" else number - 1)


def position(row, hand, phase="take", others=((),)):
    return SealsGame.from_position(SealsConfig(n_players=2), row=row, hands=[hand, *others], phase=phase,
                                   turns=1 if phase == "declare" else 0)


def test_take_colour_picks_every_face_up_card_of_that_colour():
    row = [c(B, 3), c(R, 3), c(B, "Coin"), c(G, 7)]
    game = position(row, [c(Y, 1)])
    expected = [SealsPlay.colour(R), SealsPlay.colour(B), SealsPlay.colour(G),
                SealsPlay.symbol(2), SealsPlay.symbol(6), SealsPlay.symbol(COIN)]
    assert reference_legal_plays(game) == expected == game.legal_plays()
    assert [p.action for p in expected] == [0, 1, 2, 7, 11, 15]
    assert reference_taken_cards(row, 0, B) == [c(B, 3), c(B, "Coin")]
    game.apply(SealsPlay.colour(B))
    assert game.hands[0] == sorted([c(Y, 1), c(B, 3), c(B, "Coin")])
    assert c(R, 3) in game.row and c(G, 7) in game.row  # the rest stays face up
    assert game.phase == "take" and game.current == 1  # no set: the turn ends without a declaration


def test_take_symbol_picks_every_face_up_card_of_that_symbol():
    row = [c(B, 3), c(R, 3), c(B, "Coin"), c(G, 3)]
    game = position(row, [])
    assert reference_taken_cards(row, 1, 2) == [c(B, 3), c(R, 3), c(G, 3)]
    game.apply(SealsPlay.symbol(2))
    assert game.hands[0] == sorted([c(B, 3), c(R, 3), c(G, 3)])
    # a colour or symbol the row does not show is no take
    assert SealsPlay.colour(Y) not in reference_legal_plays(position(row, []))
    assert SealsPlay.symbol(0) not in reference_legal_plays(position(row, []))


def test_declarations_four_of_a_kind_and_declining():
    # four 7s and a fifth: declare "four 7s" (2 Marks) or nothing; the fifth stays in hand
    hand = [c(col, 7) for col in range(5)] + [c(R, 1)]
    game = position([c(G, 2)], hand, phase="declare")
    expected = [SealsPlay.declare(()), SealsPlay.declare([6])]
    assert reference_legal_plays(game) == expected == game.legal_plays()
    assert reference_marks(1 << 6) == 2 and reference_marks(1 << 0) == 1
    # three 7s: no set, so no declaration is asked after a take that adds none; a fourth 7 asks for one
    assert not reference_has_set(hand[:3]) and reference_has_set(hand[:4])
    row = [c(Y, 7), c(G, 2), c(Y, 9), c(B, 1)]
    game = position(row, hand[:3])
    game.apply(SealsPlay.symbol(1))  # the 2s
    assert game.phase == "take" and game.current == 1
    game = position(row, hand[:3])
    game.apply(SealsPlay.colour(Y))  # Yellow 7 and Yellow 9
    assert game.phase == "declare" and game.current == 0
    assert reference_legal_plays(game) == [SealsPlay.declare(()), SealsPlay.declare([6])] == game.legal_plays()
    game.apply(SealsPlay.declare(()))  # declining ends the turn; the round goes on
    assert game.phase == "take" and game.current == 1 and game.round_scores == []


def test_declarations_run_and_disjoint_sets():
    # a run 1-10 in mixed colours, plus four Coins, plus four 5s sharing a 5 with the run
    run = [c(i % 5, n) for i, n in enumerate(range(1, 11))]
    fives = [c(col, 5) for col in range(5) if c(col, 5) not in run][:3]  # with the run's 5: four 5s
    coins = [c(col, "Coin") for col in range(4)]
    hand = run + fives + coins
    game = position([c(G, 2)], hand, phase="declare")
    # the run and four 5s need five 5s: only four are held, so they are not declared together
    expected = sorted(SealsPlay.declare(k) for k in ([], [4], [10], [11], [4, 10], [10, 11]))
    expected = sorted(expected, key=lambda p: p.action)
    assert reference_legal_plays(game) == expected == game.legal_plays()
    assert reference_marks((1 << 10) | (1 << 11)) == 7
    # with the fifth 5 the run and four 5s are disjoint
    game = position([c(G, 2)], hand + [c(col, 5) for col in range(5) if c(col, 5) not in hand],
                    phase="declare")
    assert SealsPlay.declare([4, 10, 11]) in reference_legal_plays(game)
    assert reference_legal_plays(game) == game.legal_plays()


def test_two_disjoint_runs_score_8_marks():
    """Two of every number 1-10 hold two disjoint runs: "one or several disjoint sets", each scoring
    (shared/rules/seals.md sections 3.3 and 4), so both are laid down for 8 Marks."""
    hand = [c(col, n) for n in range(1, 11) for col in (R, B)]
    game = position([c(G, 2)], hand, phase="declare")
    expected = [SealsPlay.declare(()), SealsPlay.declare([RUN]), SealsPlay.declare([RUN, RUN])]
    assert reference_legal_plays(game) == expected == game.legal_plays()
    two = SealsPlay.declare([RUN, RUN])
    assert two.value == declaration_value(0, 2) == 2 << 11 and two.runs == 2 and two.set_kinds() == [RUN, RUN]
    assert two.marks() == reference_marks(two.value) == 8 and two.describe() == "declare 2 runs 1-10 (8 Marks)"
    # a third run needs a third card of every number: refused, naming the play and the hand's counts
    with pytest.raises(IllegalPlayError, match=r"illegal play \(2, 6144\) \(declare 3 runs 1-10 \(12 Marks\)\).*3 "
                                               r"run\(s\) need 3 cards of every number"):
        game.apply(SealsPlay.declare([RUN] * 3))
    game.apply(two)
    assert game.round_scores[0] == [8, 0]


@pytest.mark.parametrize("sevens", [4, 5])
def test_three_runs_beat_four_sevens(sevens):
    """Three of every number 1-10 but four or five 7s (the deck has five): the runs and the four 7s share
    the 7s, each card in one set only (section 4). Four 7s leave at most one 7, so at most one run beside
    them (2 + 4 Marks, with five 7s); three runs score 12 and are the best declaration."""
    hand = [c(col, n) for n in range(1, 11) for col in (R, B, G) if n != 7] + [c(col, 7) for col in range(sevens)]
    game = position([c(Y, 2)], hand, phase="declare")
    legal = game.legal_plays()
    assert reference_legal_plays(game) == legal
    expected = {0, 1 << 6, declaration_value(0, 1), declaration_value(0, 2), declaration_value(0, 3)}
    if sevens == 5:
        expected.add(declaration_value(1 << 6, 1))
    assert {p.value for p in legal} == expected
    best = max(legal, key=lambda p: (reference_marks(p.value), -p.value))
    assert best == SealsPlay.declare([RUN] * 3) and best.marks() == 12
    assert best.describe() == "declare 3 runs 1-10 (12 Marks)"
    assert best_declaration(hand) == best.value and max_marks_counts(np.array(symbol_counts(hand))) == 12
    assert SealsPlay.declare([6, RUN]).describe() == "declare four 7s + run 1-10 (6 Marks)"
    game.apply(best)
    assert game.round_scores[0] == [12, 0]


def test_run_counts_out_of_range_are_refused():
    """At most 5 runs (each uses one card of every number; the deck holds 5): runs=6 is no declaration."""
    with pytest.raises(ValueError, match=r"runs=6 is not one of 0\.\.5"):
        SealsPlay.declare([RUN] * 6)
    with pytest.raises(ValueError, match=r"runs=6 is not one of 0\.\.5"):
        declaration_value(0, 6)
    with pytest.raises(ValueError, match=r"value=12288 is not one of 0\.\.12287 .*runs=6"):
        SealsPlay.from_list([2, 6 << 11])
    with pytest.raises(ValueError, match=r"action 12304 is not one of 0\.\.12303"):
        SealsPlay.from_action(16 + (6 << 11))
    with pytest.raises(ValueError, match=r"set kind 2 \(four 3s\) is named twice"):
        SealsPlay.declare([2, 2])
    with pytest.raises(ValueError, match=r"set kind 12 is not one of 0\.\.11"):
        SealsPlay.declare([12])
    # five runs of a hand that holds fewer: illegal in the engine, with the reason
    hand = [c(col, n) for n in range(1, 11) for col in (R, B)]
    game = position([c(G, 2)], hand, phase="declare")
    five = SealsPlay.declare([RUN] * 5)
    assert five.malformed() is None and not game.is_legal(five)
    with pytest.raises(ValueError, match=r"\(2, 10240\) \(declare 5 runs 1-10 \(20 Marks\)\)"):
        game.apply(five)


def test_top_action_id_round_trips():
    """The last id, 12303: every four-of-a-kind and five runs (38 Marks: no hand holds it)."""
    assert N_ACTIONS == actions.N_ACTIONS == 12304
    top = SealsPlay.from_action(N_ACTIONS - 1)
    assert top == SealsPlay(2, 12287) == SealsPlay.declare(list(range(11)) + [RUN] * 5)
    assert top.action == 12303 and top.runs == 5 and top.fours_mask == 2047 and top.marks() == 38
    assert SealsPlay.declare(top.set_kinds()) == top and actions.play_of(12303) == top
    assert reference_marks(top.value) == 38
    for value in (0, 1 << 11, 4095, 4096, 2 << 11 | 5, 12287):  # the old ids 16..4111 keep their meaning
        p = SealsPlay.from_action(16 + value)
        assert p.action == 16 + value and SealsPlay.declare(p.set_kinds()) == p


def test_the_reference_notices_a_wrong_engine(monkeypatch):
    """The check fails on an engine that forgets one legal play (the test can fail)."""
    game = position([c(B, 3), c(R, 3), c(B, "Coin"), c(G, 7)], [])
    real = SealsGame.legal_plays
    monkeypatch.setattr(SealsGame, "legal_plays", lambda self: real(self)[:-1])
    with pytest.raises(AssertionError):
        check_state(game)


if __name__ == "__main__":
    import time
    n = int(sys.argv[1]) if len(sys.argv) > 1 else STATES
    for players in (2, 3, 4):
        t = time.perf_counter()
        print(players, run(players, n, seed=players), f"{time.perf_counter() - t:.1f}s")
