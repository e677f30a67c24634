"""The self-play actor on the compiled kernel returns the same rollouts as on Python Game objects."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from train.selfplay import Actor, PlayScoringNet, SelfPlayConfig  # noqa: E402

_FIELDS = ("states", "hidden", "plays", "offsets", "actions", "logp", "values", "rewards", "done", "traj")


@pytest.mark.parametrize("n_players,artifacts,baseline_seats,prior", [
    (2, True, 0.5, True), (3, False, 0.5, True), (4, True, 0.5, True), (5, True, 0.0, True),
    (4, False, 0.0, True), (3, True, 0.3, False)])
def test_kernel_actor_returns_the_game_actors_batches(n_players, artifacts, baseline_seats, prior):
    kw = {} if artifacts else {"artifact_deck": ()}
    cfg = SelfPlayConfig(n_players=n_players, games_in_flight=4, baseline_seats=baseline_seats, hidden=32,
                         embed=16, heuristic_prior=prior, privileged_critic=prior, **kw)
    torch.manual_seed(n_players)
    net = PlayScoringNet(cfg.net_config())
    with torch.no_grad():  # a residual that is not zero, so the policy is not the heuristic's softmax
        for p in net.parameters():
            p.add_(0.05 * torch.randn_like(p))
    on_games = Actor(cfg, 11, net, kernel=False)
    on_kernel = Actor(cfg, 11, net)
    assert on_kernel.on_kernel and not on_games.on_kernel
    rounds = 0
    for _ in range(5):  # 5 rounds per game: games end and new ones are dealt from the actor's generator
        a, b = on_games.collect(), on_kernel.collect()
        assert len(a) > 0
        for name in _FIELDS:
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype and np.array_equal(x, y), name
        assert (on_games.decisions, on_games.rounds_played) == (on_kernel.decisions, on_kernel.rounds_played)
        rounds = on_kernel.rounds_played
    assert rounds == 5 * cfg.games_in_flight
    assert on_games.rng.bit_generator.state == on_kernel.rng.bit_generator.state


def test_kernel_actor_takes_only_the_plain_heuristic_baseline():
    cfg = SelfPlayConfig(games_in_flight=2, baseline="greedy", hidden=32, embed=16)
    assert not Actor(cfg, 0).on_kernel  # falls back to Game objects
    with pytest.raises(ValueError, match="greedy"):
        Actor(cfg, 0, kernel=True)


@pytest.mark.parametrize("kernel", [True, False])
def test_actor_bench_counts_whole_rollouts(kernel):
    from train.bench import selfplay_actor_throughput

    threads = torch.get_num_threads()
    r = selfplay_actor_throughput(0.01, n_players=3, games_in_flight=2, kernel=kernel)
    assert torch.get_num_threads() == threads  # restored
    assert r["decisions"] >= r["trained"] > 0 and r["seconds"] > 0
    assert r["decisions_per_s"] == r["decisions"] / r["seconds"]


def test_actor_bench_starts_from_the_given_model(monkeypatch, tmp_path):
    """``init_model`` (``seers bench train --algo actor --model``) gives the actor that model's network."""
    import train.bench
    import train.selfplay
    from train.scoring_policy import load_policy, save_policy

    cfg = SelfPlayConfig(n_players=3, hidden=24, embed=8)
    torch.manual_seed(3)
    saved = PlayScoringNet(cfg.net_config())
    path = tmp_path / "model.pt"
    save_policy(saved, cfg.model_config(), str(path))
    built = []

    class Spy(Actor):
        def __init__(self, cfg, seed, net=None, kernel=None):
            built.append((cfg, net))
            super().__init__(cfg, seed, net, kernel)

    monkeypatch.setattr(train.selfplay, "Actor", Spy)
    r = train.bench.selfplay_actor_throughput(0.01, n_players=3, games_in_flight=2, init_model=str(path))
    assert r["decisions"] > 0
    (used_cfg, net), = built
    assert (used_cfg.hidden, used_cfg.embed) == (24, 8)  # the model's sizes, not the defaults
    expected = load_policy(str(path))[0].state_dict()
    assert all(torch.equal(v, expected[k]) for k, v in net.state_dict().items())
    with pytest.raises(ValueError):  # a 3-player model refused at 4 players
        train.bench.selfplay_actor_throughput(0.01, n_players=4, games_in_flight=2, init_model=str(path))


def test_a_search_baseline_plays_its_seats_reproducibly_and_is_not_trained_on():
    """An ``ismcts:<n>`` baseline (``seers train --baseline ismcts:50``) plays on Game objects, seeded from
    the actor's generator: the same seed gives the same rollouts, and its seats' plays are not in them."""
    cfg = SelfPlayConfig(n_players=3, games_in_flight=2, baseline="ismcts:3", baseline_seats=0.5,
                         hidden=32, embed=16)
    torch.manual_seed(0)
    net = PlayScoringNet(cfg.net_config())
    first, second = Actor(cfg, 5, net), Actor(cfg, 5, net)
    assert not first.on_kernel and type(first.baseline_agent).__name__ == "ISMCTSAgent"
    a, b = first.collect(), second.collect()
    for name in _FIELDS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert 0 < len(a) < first.decisions  # the baseline's and forced plays are counted, not trained on
    other = Actor(cfg, 6, net).collect()
    assert not np.array_equal(a.actions, other.actions) or len(a) != len(other)
