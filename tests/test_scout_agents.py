"""SCOUT baseline agents (``agents/scout.py``): legality, determinism, score order, the hand-structure
program, exact agreement of the heuristic's fast scores with a slow evaluation, rule behaviour in
hand-made positions, and ISMCTS playing SCOUT through ``agents.games``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scout_policies import random_states
from scout_positions import Picker

from agents import games as game_agents
from agents.ismcts import ISMCTSAgent
from agents.scout import (DEFAULT_WEIGHTS, ScoutGreedyAgent, ScoutHeuristicAgent, ScoutWeights, _Structure,
                          hand_structure, no_beat_chance)
from seers_env.scout import ROTATE_PLAY, KEEP_PLAY, ScoutConfig, ScoutGame, ScoutPlay, ScoutSeatView
from seers_env.scout.moves import strength_key
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP

AGENTS = [ScoutGreedyAgent, ScoutHeuristicAgent]


def _view(game):
    return ScoutSeatView(game, game.current)


def _states(n_players, count, seed):
    """``count`` varied reachable states (random configs: 2-player STOP flag, hidden scout positions,
    small turn caps), each yielded as an independent clone."""
    for game in random_states(n_players, count, seed=seed):
        yield game.clone()


# --- legality over many states ------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_agents_return_legal_plays_in_many_states(n_players):
    seen = set()
    for game in _states(n_players, 400, seed=10 + n_players):
        legal = game.legal_plays()
        kinds = {p.kind for p in legal}
        if game.phase == "rotate":
            seen.add("rotate")
        if SCOUT_SHOW in kinds:
            seen.add("scout_show")
        if STOP in kinds:
            seen.add("stop")
        if n_players == 2 and game.phase == "play" and game.chips[game.current] == 0:
            seen.add("no_chips")
        if SHOW not in kinds and game.phase == "play":
            seen.add("no_show")
        for cls in AGENTS:
            play = cls().act(_view(game))
            assert play in legal, (cls.__name__, play, game)
            assert game.is_legal(play)
    expected = {"rotate", "no_show"} | ({"stop", "no_chips"} if n_players == 2 else {"scout_show"})
    assert expected <= seen, f"states not reached: {expected - seen}"


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_agents_play_whole_games_against_each_other(n_players):
    for seed in range(2):
        game = ScoutGame(ScoutConfig(n_players=n_players), seed=seed)
        agents = [AGENTS[(s + seed) % 2]() for s in range(n_players)]
        while not game.game_over:
            play = agents[game.current].act(_view(game))
            assert game.is_legal(play)
            game.apply(play)
        assert not game.truncated and len(game.round_scores) == game.config.n_rounds


def test_act_refuses_a_seat_that_is_not_to_act():
    game = ScoutGame(ScoutConfig(n_players=3), seed=0)
    other = ScoutSeatView(game, (game.current + 1) % 3)
    for cls in AGENTS:
        with pytest.raises(ValueError, match="not to act"):
            cls().act(other)


# --- determinism, score order ----------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_agents_are_deterministic_whatever_the_seed(n_players):
    for game in _states(n_players, 60, seed=30 + n_players):
        for cls in AGENTS:
            assert cls(seed=1).act(_view(game)) == cls(seed=2).act(_view(game)) == cls().act(_view(game))


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_scores_are_in_legal_order_and_act_is_their_first_argmax(n_players):
    agent = ScoutHeuristicAgent()
    for game in _states(n_players, 150, seed=50 + n_players):
        view = _view(game)
        legal = game.legal_plays()
        scored = agent.scores(view)
        assert [p for _, p in scored] == legal
        arr = agent.score_array(view)
        assert arr.dtype == np.float64 and arr.shape == (len(legal),) and np.isfinite(arr).all()
        assert [s for s, _ in scored] == arr.tolist()
        best = max(s for s, _ in scored)
        assert agent.act(view) == next(p for s, p in scored if s == best)


def test_score_array_is_empty_for_a_seat_not_to_act():
    game = ScoutGame(ScoutConfig(n_players=4), seed=1)
    assert ScoutHeuristicAgent().score_array(ScoutSeatView(game, (game.current + 1) % 4)).shape == (0,)


# --- hand structure -------------------------------------------------------------------------------

def _brute_structure(v, w=DEFAULT_WEIGHTS):
    """Best partition value by plain recursion over every valid first segment."""
    sets, runs = w.segment_table()

    def best(i):
        if i == len(v):
            return 0.0
        out = -math.inf
        for j in range(i + 1, len(v) + 1):
            seg = v[i:j]
            try:
                key = strength_key(seg)
            except ValueError:
                break
            is_set = (key >> 4) & 1
            table = sets if is_set else runs
            out = max(out, table[j - i][key & 15] + best(j))
        return out

    return best(0)


def test_structure_program_equals_brute_force_and_its_edits_are_exact():
    rng = np.random.default_rng(0)
    w = DEFAULT_WEIGHTS
    sets, runs = w.segment_table()
    for _ in range(300):
        n = int(rng.integers(0, 10))
        v = [int(x) for x in rng.integers(1, 11, size=n)]
        if rng.random() < 0.5 and n:  # plant a long chain now and then
            s = int(rng.integers(n))
            step = int(rng.integers(-1, 2))
            for i in range(s + 1, n):
                nxt = v[i - 1] + step
                if 1 <= nxt <= 10:
                    v[i] = nxt
        st = _Structure(v, sets, runs)
        assert st.value == pytest.approx(_brute_structure(v))
        assert hand_structure(v) == pytest.approx(st.value)
        for a in range(n + 1):
            for b in range(a, n + 1):
                assert st.removed(a, b) == pytest.approx(_brute_structure(v[:a] + v[b:]))
        for p in range(n + 1):
            for c in range(1, 11):
                assert st.inserted(p, c) == pytest.approx(_brute_structure(v[:p] + [c] + v[p:]))


def test_long_segments_count_much_more():
    assert hand_structure([3, 4, 5, 6]) > hand_structure([3, 4]) + hand_structure([5, 6])
    assert hand_structure([6, 6, 6]) > hand_structure([5, 6, 7])  # a set beats a run (section 4)
    assert hand_structure([3, 4, 5, 6]) > hand_structure([3, 9, 5, 1])
    assert hand_structure([]) == 0.0
    # a segment is never worth more than shedding its cards (no hoarding)
    assert hand_structure([5] * 8) <= DEFAULT_WEIGHTS.cap * 8 * DEFAULT_WEIGHTS.card


def test_no_beat_chance_is_monotone():
    pair = strength_key([4, 4])
    triple = strength_key([4, 4, 4])
    assert 0.0 <= no_beat_chance(11, pair) < no_beat_chance(11, triple) <= 1.0
    assert no_beat_chance(5, triple) > no_beat_chance(15, triple)
    assert no_beat_chance(0, pair) == 1.0


def test_weights_are_checked():
    with pytest.raises(ValueError, match="finite"):
        ScoutWeights(card=float("nan"))
    with pytest.raises(ValueError, match="finite"):
        ScoutWeights(length="big")
    with pytest.raises(TypeError, match="ScoutWeights"):
        ScoutHeuristicAgent(weights={"card": 1.0})
    assert ScoutWeights(opponent=None).opponent is None


# --- the fast scores equal a slow evaluation of every play --------------------------------------

def _slow_scores(agent, game):
    """Every legal play applied to a copy; the resulting hand valued from scratch."""
    w = agent.weights
    view = _view(game)
    seat = game.current
    n_before = len(game.hand_faces(seat))
    if game.phase == "rotate":
        out = []
        for p in game.legal_plays():
            g = game.clone()
            g.apply(p)
            h = g.hand_values(seat)
            out.append(-w.card * len(h) + hand_structure(h, w))
        return out
    ctx = agent._context(view)
    opp, scale, two = ctx["opp"], ctx["scale"], ctx["two_players"]
    sizes = game.hand_sizes()
    owner = game.active_owner
    n_active = len(game.active_faces())
    out = []
    for p in game.legal_plays():
        g = game.clone()
        res = g.apply(p)
        if p.kind == STOP:
            out.append(-w.card * n_before - opp * sizes[owner])
            continue
        if p.kind == SCOUT:
            if res.round_over:
                assert res.round_end_reason == "b" and not two
                out.append(-w.card * (n_before + 1) - opp * (1 + sizes[owner]))
            else:
                h = g.hand_values(seat)
                out.append(-w.card * len(h) + scale * hand_structure(h, w) - (w.own_chip if two else opp))
            continue
        collected = n_active - (1 if p.kind == SCOUT_SHOW else 0)
        extra = -opp - w.scout_show_chip if p.kind == SCOUT_SHOW else 0.0
        if res.round_over and res.round_end_reason == "a":
            out.append(w.collect * collected + w.out + opp * ctx["opp_cards"] + extra)
            continue
        if res.round_over:  # 2 players, 7(b): the opponent is stuck (the shower cannot know it)
            assert two and res.round_end_reason == "b" and p.kind == SHOW
            v = game.hand_values(seat)
            h, key = v[:p.start] + v[p.start + p.length:], strength_key(v[p.start:p.start + p.length])
        else:
            h, key = g.hand_values(seat), strength_key(g.active_values())
        out.append(agent._after(len(h), hand_structure(h, w), collected, key, ctx) + extra)
    return out


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_fast_scores_equal_a_slow_evaluation_of_every_play(n_players):
    agent = ScoutHeuristicAgent()
    kinds = set()
    for game in _states(n_players, 70, seed=70 + n_players):
        if game.turns >= game.config.max_turns_per_round - 1:
            continue  # the next play truncates the round
        fast = agent.score_array(_view(game))
        slow = _slow_scores(agent, game)
        np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-9, err_msg=repr(game))
        kinds.update(p.kind for p in game.legal_plays())
    assert {KEEP, ROTATE, SHOW, SCOUT} <= kinds and (n_players == 2 or SCOUT_SHOW in kinds)


# --- behaviour in hand-made positions ------------------------------------------------------------

def _rotation_game(hand0, n_players=4):
    """A game in the rotation phase with seat 0 (to decide first) holding ``hand0`` (pairs)."""
    pick = Picker(n_players)
    for card, _ in hand0:
        pick.free.remove(card)
    hands = [hand0] + [pick.filler_hand(3) for _ in range(n_players - 1)]
    d = ScoutGame.from_position(ScoutConfig(n_players=n_players), hands=hands, current=0).to_dict()
    d.update(phase="rotate", rotated=[None] * n_players, current=0)
    return ScoutGame.from_dict(d)


def _pairs(pick, top_bottom):
    return [pick.face(t, b) for t, b in top_bottom]


def test_heuristic_rotates_when_the_other_numbers_make_a_run():
    pick = Picker(4)
    # tops 9 1 8 2 10 (nothing); bottoms 3 4 5 6 7, after rotation 7 6 5 4 3 (a 5-card run)
    game = _rotation_game(_pairs(pick, [(9, 3), (1, 4), (8, 5), (2, 6), (10, 7)]))
    assert ScoutHeuristicAgent().act(_view(game)) == ROTATE_PLAY
    assert ScoutGreedyAgent().act(_view(game)) == KEEP_PLAY  # greedy never rotates
    pick = Picker(4)
    game = _rotation_game(_pairs(pick, [(3, 9), (4, 1), (5, 8), (6, 2), (7, 10)]))
    assert ScoutHeuristicAgent().act(_view(game)) == KEEP_PLAY


def _play_game(hands_tb, active_tb=(), owner=-1, n_players=4, **kw):
    pick = Picker(n_players)
    hands = [_pairs(pick, h) for h in hands_tb]
    active = _pairs(pick, active_tb)
    return ScoutGame.from_position(ScoutConfig(n_players=n_players), hands=hands, active=active,
                                   active_owner=owner, current=0, **kw)


def test_heuristic_shows_to_go_out():
    game = _play_game([[(4, 1), (5, 1), (6, 1)], [(8, 1)], [(8, 2)], [(8, 3)]],
                      active_tb=[(2, 9), (3, 9)], owner=2)
    assert ScoutHeuristicAgent().act(_view(game)) == ScoutPlay.show(0, 3)
    assert ScoutGreedyAgent().act(_view(game)) == ScoutPlay.show(0, 2)  # the cheapest winning show
    game = _play_game([[(7, 1), (7, 2)], [(8, 1)], [(8, 2)], [(8, 3)]], active_tb=[(3, 9)], owner=3)
    assert ScoutHeuristicAgent().act(_view(game)) == ScoutPlay.show(0, 2)


def test_heuristic_goes_out_in_two_players():
    game = _play_game([[(2, 5), (3, 5), (4, 5)], [(8, 1), (8, 2), (7, 1)]], active_tb=[(9, 1)], owner=1,
                      n_players=2)
    assert ScoutHeuristicAgent().act(_view(game)) == ScoutPlay.show(0, 3)


def test_heuristic_scouts_the_card_that_makes_a_set():
    # no show beats the pair of 7s; the left 7 has a 5 on its other end: flipped next to the 5s
    game = _play_game([[(5, 1), (5, 2), (2, 9), (9, 1)], [(8, 1)], [(8, 2)], [(8, 3)]],
                      active_tb=[(7, 5), (7, 3)], owner=2, scout_show_used=[True] * 4)
    play = ScoutHeuristicAgent().act(_view(game))
    assert play.kind == SCOUT and play.end == 0 and play.flip == 1
    game.apply(play)
    assert game.hand_values(0)[:3] == [5, 5, 5]


def test_heuristic_uses_scout_and_show_to_go_out():
    game = _play_game([[(5, 1), (5, 2)], [(8, 1)], [(8, 2)], [(8, 3)]],
                      active_tb=[(7, 5), (7, 3)], owner=2)
    play = ScoutHeuristicAgent().act(_view(game))
    assert play.kind == SCOUT_SHOW and play.length == 3
    result = game.apply(play)
    assert result.round_end_reason == "a" and result.exempt == 0


def test_heuristic_knows_a_plain_scout_would_end_the_round():
    # seat 1 owns the set: a plain scout by seat 0 ends the round by 6(b), every card held counting
    hands = [[(5, 1), (5, 2), (2, 9), (9, 1)], [(8, 1)], [(8, 2)], [(8, 3)]]
    ends = _play_game(hands, active_tb=[(7, 5)], owner=1, scout_show_used=[True] * 4)
    goes_on = _play_game(hands, active_tb=[(7, 5)], owner=2, scout_show_used=[True] * 4)
    agent = ScoutHeuristicAgent()
    best_scout = {name: max(s for s, p in agent.scores(_view(g)) if p.kind == SCOUT)
                  for name, g in (("ends", ends), ("goes_on", goes_on))}
    assert best_scout["ends"] < best_scout["goes_on"]
    assert agent.act(_view(ends)).kind == SHOW  # shows the 9 rather than end the round holding 5 cards


def test_greedy_scouts_only_without_a_show_and_makes_the_longest_segment():
    game = _play_game([[(5, 1), (5, 2), (2, 9), (9, 1)], [(8, 1)], [(8, 2)], [(8, 3)]],
                      active_tb=[(7, 5), (7, 3)], owner=2)
    play = ScoutGreedyAgent().act(_view(game))  # never Scout & Show
    assert play == ScoutPlay.scout(0, 1, 0)  # the 5 side of the left card, left of the 5s: 5 5 5
    game = _play_game([[(5, 1), (5, 2), (2, 9), (9, 1)], [(8, 1)], [(8, 2)], [(8, 3)]],
                      active_tb=[(4, 8)], owner=2)
    # a single 5 beats a single 4 and is cheaper than the pair or the 9
    assert ScoutGreedyAgent().act(_view(game)) == ScoutPlay.show(0, 1)
    game = _play_game([[(5, 1), (5, 2), (2, 9), (3, 9), (4, 9), (9, 1)], [(8, 1)], [(8, 2)], [(8, 3)]])
    assert ScoutGreedyAgent().act(_view(game)) == ScoutPlay.show(2, 3)  # empty table: the longest


# --- what a seat may know ----------------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_agents_do_not_read_hidden_cards(n_players):
    rng = np.random.default_rng(n_players)
    for game in _states(n_players, 40, seed=90 + n_players):
        if game.phase != "play":
            continue
        other = ScoutSeatView(game, game.current).determinize(rng)  # same knowledge, other hidden cards
        for cls in AGENTS:
            assert cls().act(_view(game)) == cls().act(_view(other))


# --- ISMCTS through agents.games -----------------------------------------------------------------

def test_registry_names_the_scout_agents():
    assert game_agents.greedy_class("scout") is ScoutGreedyAgent
    assert game_agents.heuristic_class("scout") is ScoutHeuristicAgent


def test_ismcts_plays_whole_three_player_games():
    for seed in range(2):
        game = ScoutGame(ScoutConfig(n_players=3), seed=seed)
        agents = [ISMCTSAgent(iterations=4, seed=seed), ScoutHeuristicAgent(), ScoutGreedyAgent()]
        moves = 0
        while not game.game_over:
            play = agents[game.current].act(_view(game))
            assert game.is_legal(play)
            game.apply(play)
            moves += 1
        assert len(game.round_scores) == 3 and moves > 10


def test_ismcts_is_reproducible_on_scout():
    for game in _states(4, 30, seed=5):
        if game.n_legal_plays() > 6:
            break
    a = ISMCTSAgent(iterations=8, seed=3).act(_view(game))
    assert a == ISMCTSAgent(iterations=8, seed=3).act(_view(game)) and game.is_legal(a)
