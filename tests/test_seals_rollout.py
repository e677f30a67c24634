"""The compiled Seals heuristic and round (``agents.seals_rollout``) against the Python ones, and the
rollout agent's contract."""

from __future__ import annotations

import numpy as np
import pytest

from agents.seals import SealsHeuristicAgent
from agents.seals_rollout import SealsRolloutAgent, heuristic_take, play_round, take_scores, view_arrays, weight_array
from seers_env.seals.game import PHASE_TAKE, SealsConfig, SealsGame
from seers_env.seals.view import SealsSeatView


def _games(n_players: int, seeds):
    for seed in seeds:
        yield SealsGame(SealsConfig(n_players=n_players), seed=seed)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_compiled_heuristic_matches_python_at_every_take(n_players):
    agent = SealsHeuristicAgent()
    w, powers = weight_array(agent.weights)
    checked = 0
    for game in _games(n_players, range(8)):
        while not game.game_over:
            view = SealsSeatView(game, game.current)
            play = agent.act(view)
            if game.phase == PHASE_TAKE:
                hands, playing, row, row_len, pile = view_arrays(view)
                actions, scores = np.empty(16, np.int64), np.empty(16)
                n = take_scores(hands, view.seat, playing, row, row_len, pile, 0, len(pile), w, powers,
                                actions, scores)
                expected = agent.scores(view)
                assert [p.action for _, p in expected] == actions[:n].tolist()
                assert [s for s, _ in expected] == scores[:n].tolist()  # bit for bit
                assert heuristic_take(hands, view.seat, playing, row, row_len, pile, 0, len(pile), w,
                                      powers) == play.action
                checked += 1
            game.apply(play)
    assert checked > 100


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_compiled_round_matches_the_engine(n_players):
    agent = SealsHeuristicAgent()
    w, powers = weight_array(agent.weights)
    rounds = 0
    for game in _games(n_players, range(10, 16)):
        while not game.game_over:
            # the start of a round: empty hands; replay the round's pile order in the kernel
            assert game.turns == 0 and game.phase == PHASE_TAKE
            n_round = len(game.round_scores)
            pile = np.array(game.row + game.pile, np.int64)
            hands = np.zeros((n_players, 11), np.int64)
            row = np.zeros(4, np.int64)
            winner, marks, turns = play_round(hands, game.current, np.array(game.playing), row, 0, pile, 0,
                                              len(pile), 0, game.config.max_turns_per_round, w, powers)
            while len(game.round_scores) == n_round:
                game.apply(agent.act(SealsSeatView(game, game.current)))
            scores = game.round_scores[-1]
            expect_winner = next((s for s in range(n_players) if scores[s] > 0), -1)
            assert (winner, marks) == (expect_winner, max(scores))
            rounds += 1
    assert rounds >= 6


def test_rollout_agent_is_seeded_and_legal():
    game = SealsGame(SealsConfig(n_players=3), seed=5)
    for _ in range(6):
        game.apply(SealsHeuristicAgent().act(SealsSeatView(game, game.current)))
    view = SealsSeatView(game, game.current)
    a, b = SealsRolloutAgent(8, seed=1), SealsRolloutAgent(8, seed=1)
    pa, va, ha = a.take_values(view)
    pb, vb, hb = b.take_values(view)
    assert pa == pb and va.tolist() == vb.tolist() and ha == hb
    assert va.shape == (len(pa), 8)
    assert pa[ha] == SealsHeuristicAgent().act(view)
    assert pa == view.legal_plays()
    assert a.act(view) in view.legal_plays()
    for bad in (0, 1, -3, 2.5, True):
        with pytest.raises(ValueError, match="rollouts="):
            SealsRolloutAgent(bad)


def test_distillation_data_and_fit(tmp_path):
    from train.scoring_policy import load_policy
    from train.seals_distill import collect, concat, fit, load_data, save_data

    a = collect(2, 40, 4, seed=3)
    b = collect(2, 40, 4, seed=3)
    assert len(a) >= 40 and np.array_equal(a.q, b.q) and np.array_equal(a.plays, b.plays)  # seeded
    sizes = np.diff(a.offsets)
    assert (sizes > 1).all() and a.offsets[-1] == len(a.q) == len(a.plays)
    assert ((a.heuristic >= 0) & (a.heuristic < sizes)).all()
    both = concat([a, b])
    assert len(both) == 2 * len(a) and both.offsets[-1] == 2 * len(a.q)
    save_data(a, tmp_path / "d.npz")
    back = load_data(str(tmp_path / "d.npz"))
    assert np.array_equal(back.offsets, a.offsets) and np.array_equal(back.q, a.q)
    net, cfg, stats = fit(a, 2, 0.1, 1, 1e-3, 64, seed=0, log=lambda _: None)
    assert np.isfinite(stats["soft_ce"]) and stats["regret_vs_rollout_best"] >= 0
    from train.scoring_policy import save_policy

    save_policy(net, cfg.model_config(), tmp_path / "m.pt")
    assert load_policy(tmp_path / "m.pt")[1].game == "seals"


def test_rollout_spec_plays_seals_only():
    from agents.specs import make_agent, valid_specs

    agent = make_agent("rollout:8", seed=1, game="seals")
    assert isinstance(agent, SealsRolloutAgent) and agent.rollouts == 8 and agent.name == "rollout:8"
    assert make_agent("rollout", game="seals").rollouts == SealsRolloutAgent().rollouts
    assert "rollout:<shuffles>" in valid_specs("seals")
    assert "rollout:<shuffles>" not in valid_specs("scout")
    with pytest.raises(ValueError, match="plays seals only"):
        make_agent("rollout:8", game="scout")
    for bad in ("rollout:1", "rollout:x", "rollout:-4"):
        with pytest.raises(ValueError, match="bad rollout budget"):
            make_agent(bad, game="seals")


# --- corner cases: tie-break rounds, hand-made positions, the turn cap, bad budgets --------------------

def _corner_positions(seed: int, count: int):
    """Hand-made take positions: a tie-break mask (not every seat playing), a short pile or row, many
    cards in hands, and a turn cap a few takes away."""
    from seers_env.seals.moves import has_set

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(2, 5))
        cards = rng.permutation(55).tolist()
        k = int(rng.integers(0, 40))
        hands = [[] for _ in range(n)]
        for c in cards[:k]:
            hands[int(rng.integers(n))].append(c)
        if any(has_set(h) for h in hands):
            continue
        rest = cards[k:]
        pile = rest[4:4 + int(rng.integers(0, 4))] if rng.random() < 0.5 else rest[4:]
        row = rest[:4] if pile else rest[:int(rng.integers(1, 5))]
        playing = [True] * n
        if rng.random() < 0.5:
            playing = [bool(x) for x in rng.integers(0, 2, n)]
            if sum(playing) < 2:
                continue
        current = int(rng.choice([s for s in range(n) if playing[s]]))
        turns = int(rng.integers(0, k + 1))
        config = SealsConfig(n_players=n, max_turns_per_round=turns + int(rng.integers(1, 4)))
        tie = not all(playing)
        scores = [[5 if t == s else 0 for t in range(n)] for s in range(n) if playing[s]] if tie else None
        try:
            game = SealsGame.from_position(config, row=row, hands=hands, pile=pile, current=current, turns=turns,
                                           playing=playing, tie_breaks=int(tie), counter=0 if tie else None,
                                           round_scores=scores)
        except ValueError:
            continue
        out.append(game)
    return out


def test_compiled_heuristic_and_round_match_in_corner_positions():
    agent = SealsHeuristicAgent()
    w, powers = weight_array(agent.weights)
    for game in _corner_positions(5, 40):
        view = SealsSeatView(game, game.current)
        hands, playing, row, row_len, pile = view_arrays(view)
        actions, scores = np.empty(16, np.int64), np.empty(16)
        n = take_scores(hands, view.seat, playing, row, row_len, pile, 0, len(pile), w, powers, actions, scores)
        expected = agent.scores(view)
        assert [p.action for _, p in expected] == actions[:n].tolist()
        assert [s for s, _ in expected] == scores[:n].tolist()
        n_round = len(game.round_scores)
        winner, marks, _ = play_round(hands, game.current, playing, row, row_len, np.array(game.pile, np.int64), 0,
                                      len(game.pile), game.turns, game.config.max_turns_per_round, w, powers)
        while len(game.round_scores) == n_round:
            game.apply(agent.act(SealsSeatView(game, game.current)))
        got = game.round_scores[n_round]
        assert (winner, marks) == ((got.index(max(got)), max(got)) if max(got) > 0 else (-1, 0))


def test_compiled_marks_match_best_declaration_with_fives_and_runs():
    from agents.seals import _max_marks
    from seers_env.seals.kernel import has_set_counts, max_marks_counts
    from seers_env.seals.moves import has_set

    rng = np.random.default_rng(3)
    for counts in [np.array([5] * 10 + [5]), np.array([5, 5] + [1] * 8 + [4]), *rng.integers(0, 6, (2000, 11))]:
        counts = counts.astype(np.int64)
        hand = [k for k in range(11) for _ in range(counts[k])]
        assert has_set_counts(counts) == has_set(hand)
        if has_set(hand):
            assert max_marks_counts(counts) == _max_marks(counts.tolist())


def test_rollout_agent_legal_and_deterministic_in_tie_breaks():
    for game in _corner_positions(9, 6):
        view = SealsSeatView(game, game.current)
        plays = [SealsRolloutAgent(8, seed=4, z=0.0).act(view) for _ in range(2)]
        assert plays[0] == plays[1] and plays[0] in view.legal_plays()


@pytest.mark.parametrize("spec", ["rollout:1", "rollout:100001", "rollout:99999999999999999999", "rollout:1e3"])
def test_rollout_spec_refuses_bad_budgets_naming_them(spec):
    from agents.specs import make_agent

    with pytest.raises(ValueError, match=spec.replace("+", r"\+")):
        make_agent(spec, seed=0, game="seals")
