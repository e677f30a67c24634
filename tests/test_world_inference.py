"""Weighted worlds for determinized search: the round's replay in a sampled world
(:meth:`seers_env.engine.view.Determinizer.replay_round`), the rules and policy weights, and the search's
``worlds`` option (``agents.ismcts``, ``train.guided_search``)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from agents.ismcts import ISMCTSAgent
from agents.base import RandomAgent
from seers_env.engine.game import IllegalPlayError
from seers_env.features import encode_state
from seers_env.game import Game, GameConfig
from seers_env.scout import ScoutConfig, ScoutGame, ScoutSeatView
from seers_env.view import SeatView
from train.game_adapters import game_adapter
from train.guided_search import GuidedSearchAgent, NetworkGuide
from train.scoring_policy import NetConfig, PlayScoringNet

STATE_FIELDS = ("hands", "played", "known", "discards", "trick", "passed", "current", "start_seer", "top")


def _positions(n_players: int, seed: int, rounds: int = 2):
    """Every position of a random-play game (clones), to reach Rod pick-ups, Gifts and the Bonus."""
    g = Game(GameConfig(n_players=n_players, n_rounds=rounds), seed=seed)
    player = RandomAgent(seed=seed)
    out = []
    while not g.game_over:
        out.append(g.clone())
        g.apply(player.act(SeatView(g, g.current)))
    return out


def _untrained_guide(n_players: int, floor: float = 0.1, heuristic_prior: bool = True,
                     opponents: str = "network") -> NetworkGuide:
    torch.manual_seed(0)
    a = game_adapter("seers_catalog")
    net = PlayScoringNet(NetConfig(state_dim=a.state_dim, play_dim=a.play_dim, privileged_dim=a.privileged_dim,
                                   heuristic_prior=heuristic_prior)).eval()
    return NetworkGuide(net, temperature=3.0, floor=floor, opponents=opponents)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_the_round_rebuilt_from_the_real_game_is_the_deal_and_replays_to_the_same_state(n_players):
    checked = 0
    for seed in range(6):
        for game in _positions(n_players, seed)[::3]:
            det = SeatView(game, game.current).determinizer()
            start = det.round_start(game)
            deal = [e for e in game.events if e["event"] == "deal"][-1]
            assert start.hands == deal["hands"]
            for _, play in det.round_plays:
                start.apply(play)
            for field in STATE_FIELDS:
                assert getattr(start, field) == getattr(game, field), field
            checked += 1
    assert checked > 50


def test_replay_yields_the_other_seats_plays_in_order_with_their_hands_then():
    game = _positions(4, 3)[30]
    seat = game.current
    det = SeatView(game, seat).determinizer()
    steps = [(s, view.hand, play) for s, view, play in det.replay_round(game.clone())]
    assert [(s, p) for s, _, p in steps] == [(s, p) for s, p in det.round_plays if s != seat]
    assert steps and all(s != seat for s, _, _ in steps)
    for s, hand, play in steps:  # the cards of each play were in the hand it was played from
        for c in play.cards():
            assert c in hand


@pytest.mark.parametrize("n_players", [4, 5])
def test_sampled_worlds_replay_or_fail_only_on_an_illegal_play(n_players):
    """Samples ignore the evidence of passes, so a few hand a meld to a seat in the Bonus that passed
    (rules section 4); the replay says so with IllegalPlayError, and the real game always replays."""
    rng = np.random.default_rng(1)
    consistent = inconsistent = 0
    for game in _positions(n_players, 11)[::2]:
        if game.game_over:
            continue
        det = SeatView(game, game.current).determinizer()
        assert ISMCTSAgent._consistent(det, game.clone()) == 0.0
        for _ in range(4):
            world = det.sample(rng)
            before = world.to_dict()
            weight = ISMCTSAgent._consistent(det, world)
            assert world.to_dict() == before  # the world is not changed
            if weight == 0.0:
                consistent += 1
            else:
                assert weight == -math.inf
                with pytest.raises(IllegalPlayError):
                    for _ in det.replay_round(world):
                        pass
                inconsistent += 1
    assert consistent > 20 and inconsistent > 0


def test_a_sample_holds_the_rounds_public_history_so_the_seat_encodes_the_same_state():
    rng = np.random.default_rng(2)
    checked = 0
    for game in _positions(4, 5)[5::4]:
        seat = game.current
        real = encode_state(SeatView(game, seat))
        for _ in range(3):
            world = SeatView(game, seat).determinize(rng)
            np.testing.assert_array_equal(encode_state(SeatView(world, seat)), real)
        checked += 1
    assert checked > 5


def test_policy_log_likelihood_is_the_sum_of_the_mixed_priors_of_the_plays_made():
    guide = _untrained_guide(4, floor=0.25)
    game = _positions(4, 8)[25]
    det = SeatView(game, game.current).determinizer()
    world = game.clone()
    expected = 0.0
    for _, view, play in det.replay_round(world):
        legal = view.legal_plays()
        if len(legal) > 1:
            i = [q.identity() for q in legal].index(play.identity())
            expected += math.log(0.75 * guide.priors(view)[i] + 0.25 / len(legal))
    assert expected < 0
    assert guide.world_log_likelihood(det, world) == pytest.approx(expected)


def test_policy_weights_rule_out_the_worlds_the_rules_rule_out():
    guide = _untrained_guide(5)
    rng = np.random.default_rng(1)
    seen = 0
    for game in _positions(5, 11)[::2]:
        if game.game_over:
            continue
        det = SeatView(game, game.current).determinizer()
        for _ in range(3):
            world = det.sample(rng)
            ll = guide.world_log_likelihood(det, world)
            assert (ll == -math.inf) == (ISMCTSAgent._consistent(det, world) == -math.inf)
            seen += ll == -math.inf
    assert seen > 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(worlds=-1), "worlds=-1"), (dict(worlds=True), "worlds=True"), (dict(worlds=2.5), "worlds=2.5"),
    (dict(worlds=8, inference="bayes"), "inference='bayes'"), (dict(worlds=8, inference="policy"), "needs a guide"),
])
def test_bad_world_options_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ISMCTSAgent(iterations=10, **kwargs)
    with pytest.raises(ValueError, match="floor"):
        GuidedSearchAgent(iterations=10, floor=1.5)


def test_worlds_needs_a_game_whose_determinizer_replays_the_round():
    g = ScoutGame(ScoutConfig(n_players=3), seed=1)
    with pytest.raises(ValueError, match="replay_round"):
        ISMCTSAgent(iterations=5, worlds=4, seed=0).act(ScoutSeatView(g, g.current))


@pytest.mark.parametrize("inference", ["rules", "policy"])
def test_search_over_weighted_worlds_plays_legal_seeded_choices(inference):
    def agent(seed):
        if inference == "rules":
            return ISMCTSAgent(iterations=24, worlds=12, seed=seed)
        a = ISMCTSAgent(iterations=24, worlds=12, seed=seed, guide=_untrained_guide(4), leaf="value",
                        inference="policy")
        return a

    positions = [g for g in _positions(4, 21)[10::6] if len(g.legal_plays()) > 1][:4]
    assert positions
    for game in positions:
        view = SeatView(game, game.current)
        before = game.to_dict()
        a, b = agent(5), agent(5)
        play = a.act(view)
        assert play in view.legal_plays() and b.act(view) == play
        assert game.to_dict() == before
        assert 0 < a.last_effective_worlds <= 12 and a.last_iterations == 24


def test_pool_weights_normalise_and_drop_impossible_worlds():
    from agents.ismcts import pool_weights

    weights = pool_weights(np.array([0.0, -np.inf, np.log(3.0)]))
    assert weights.dtype == np.float64 and np.allclose(weights, [0.25, 0.0, 0.75])
    assert np.allclose(pool_weights(np.full(4, -np.inf)), 0.25)
    assert np.allclose(pool_weights(np.array([-1000.0, -1000.0])), 0.5)  # no underflow to 0/0


def _heuristic_positions(n_players: int, seed: int):
    """Positions of a round in which every seat plays the heuristic's best play (always among its top 6,
    as an ISMCTS player's are)."""
    from agents.heuristic import HeuristicAgent

    g = Game(GameConfig(n_players=n_players, n_rounds=1), seed=seed)
    player = HeuristicAgent()
    out = []
    while not g.game_over:
        out.append(g.clone())
        g.apply(player.act(SeatView(g, g.current)))
    return out


def test_mixture_likelihood_is_each_seats_mean_of_the_network_and_the_pruned_player():
    from agents.heuristic import HeuristicAgent
    from train.guided_search import OPPONENT_TOP_K

    guide = _untrained_guide(4, floor=0.2)
    mixture = NetworkGuide(guide.net, temperature=3.0, floor=0.2, opponents="mixture")
    ranker = HeuristicAgent()
    game = _heuristic_positions(4, 3)[30]
    det = SeatView(game, game.current).determinizer()
    network: dict[int, float] = {}
    pruned: dict[int, float] = {}
    outside = 0
    for seat, view, play in det.replay_round(game.clone()):
        legal = view.legal_plays()
        n = len(legal)
        if n == 1:
            continue
        i = [q.identity() for q in legal].index(play.identity())
        network[seat] = network.get(seat, 0.0) + math.log(0.8 * guide.priors(view)[i] + 0.2 / n)
        scores = ranker.score_array(view)
        k = min(OPPONENT_TOP_K, n)
        best = np.argsort(-scores, kind="stable")[:k]
        outside += i not in best
        pruned[seat] = pruned.get(seat, 0.0) + math.log(0.2 / n + (0.8 / k if i in best else 0.0))
    expected = sum(math.log((math.exp(network[s]) + math.exp(pruned[s])) / 2) for s in network)
    assert len(network) == 3 and outside == 0  # the heuristic's best is in its top 6
    assert mixture.world_log_likelihood(det, game.clone()) == pytest.approx(expected)
    assert guide.world_log_likelihood(det, game.clone()) == pytest.approx(sum(network.values()))


def test_mixture_ranks_the_real_deal_higher_among_samples_when_the_others_play_like_ismcts():
    # a network without the heuristic's prior: it does not foresee the heuristic's plays, the mixture does
    guide = _untrained_guide(4, heuristic_prior=False)
    mixture = _untrained_guide(4, heuristic_prior=False, opponents="mixture")
    rng = np.random.default_rng(4)
    below = {"network": [], "mixture": []}
    for game in _heuristic_positions(4, 6)[20::3]:
        if game.game_over:
            continue
        det = SeatView(game, game.current).determinizer()
        pool = [det.sample(rng) for _ in range(16)]
        for name, g in (("network", guide), ("mixture", mixture)):
            real = g.world_log_likelihood(det, game.clone())
            below[name].append(np.mean([g.world_log_likelihood(det, w) < real for w in pool]))
    assert len(below["network"]) > 5
    assert np.mean(below["mixture"]) > np.mean(below["network"])


def test_bad_opponent_model_is_a_clear_error():
    guide = _untrained_guide(4)
    for bad in ("ismcts", None, 1):
        with pytest.raises(ValueError, match=f"opponents={bad!r} is not one of 'network', 'mixture'"):
            NetworkGuide(guide.net, opponents=bad)
        with pytest.raises(ValueError, match="opponents="):
            GuidedSearchAgent(iterations=10, opponents=bad)
    with pytest.raises(ValueError, match=re.escape("opponents=['mixture'] is not one of")):
        NetworkGuide(guide.net, opponents=["mixture"])
    with pytest.raises(ValueError, match="needs worlds > 0 and inference='policy' .got worlds=0"):
        GuidedSearchAgent(iterations=10, opponents="mixture")
    with pytest.raises(ValueError, match="game='scout' takes opponents='network'"):
        NetworkGuide(guide.net, game="scout", opponents="mixture")


def test_likelihood_is_a_float_before_any_other_seat_had_a_choice():
    game = Game(GameConfig(n_players=4, n_rounds=1), seed=1)
    det = SeatView(game, game.current).determinizer()
    world = det.sample(np.random.default_rng(0))
    for opponents in ("network", "mixture"):
        ll = _untrained_guide(4, opponents=opponents).world_log_likelihood(det, world)
        assert type(ll) is float and ll == 0.0


def test_top_indices_keeps_the_best_with_ties_to_the_earlier_play():
    from agents.ismcts import top_indices

    assert top_indices([0.5, 2.0, 2.0, -1.0, 3.0], 3) == [4, 1, 2]
    assert top_indices(np.array([1.0, 1.0]), 6) == [0, 1]
    assert top_indices([], 6) == []
