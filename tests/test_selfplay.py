"""The self-play play-scoring learner (train.selfplay) and its agent (train.scoring_policy)."""

from __future__ import annotations

import json

import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from seers_env import Game, GameConfig  # noqa: E402
from seers_env.view import SeatView  # noqa: E402
from train.model_config import ModelConfigError  # noqa: E402
from train.scoring_policy import (LearnedAgent, NetConfig, PlayScoringNet, load_policy, model_config,  # noqa: E402
                                  save_policy, segment_log_softmax, shipped_model_path,
                                  shipped_player_counts)
from train.selfplay import DEFAULT_DECISIONS, Actor, Batch, SelfPlayConfig, advantages, train_selfplay  # noqa: E402


def _play_game(agents, n_players, seed):
    game = Game(GameConfig(n_players=n_players), seed=seed)
    while not game.game_over:
        view = SeatView(game, game.current)
        play = agents[game.current].act(view)
        assert play in game.legal_plays()
        game.apply(play)
    return game


def test_segment_log_softmax_matches_per_decision_log_softmax():
    logits = torch.tensor([1.0, 2.0, 3.0, -1.0, 0.5, 10.0])
    seg = torch.tensor([0, 0, 0, 1, 1, 2])
    out = segment_log_softmax(logits, seg, 3)
    expect = torch.cat([torch.log_softmax(logits[:3], 0), torch.log_softmax(logits[3:5], 0), torch.zeros(1)])
    assert torch.allclose(out, expect, atol=1e-6)


def test_gae_resets_at_each_round_end():
    z = np.zeros(4, np.float32)
    b = Batch(np.zeros((4, 1), np.float32), np.zeros((4, 1), np.float32), np.zeros((4, 1), np.float32),
              np.arange(5), np.zeros(4, np.int64), z, np.array([0.0, 0.0, 0.0, 0.0], np.float32),
              np.array([0.0, 1.0, 0.0, -2.0], np.float32), np.array([False, True, False, True]),
              np.array([0, 0, 1, 1]))
    adv, ret = advantages(b, gamma=1.0, lam=1.0)
    assert ret.tolist() == [1.0, 1.0, -2.0, -2.0]  # returns do not leak across trajectories


def test_actor_rollout_rewards_are_score_differences():
    cfg = SelfPlayConfig(games_in_flight=3, n_players=3)
    actor = Actor(cfg, seed=1)
    batch = actor.collect()
    assert len(batch) > 0 and batch.offsets[-1] == len(batch.plays)
    assert (batch.actions < np.diff(batch.offsets)).all()
    assert np.diff(batch.offsets).min() >= 2  # forced decisions are not samples
    # 3 games, one round each: the rewards of a round sum to 0 over the seats that chose something
    assert abs(float(batch.rewards.sum())) < 1e-4 or batch.done.sum() < 9
    assert actor.rounds_played == 3


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_tiny_training_run_save_load_same_actions(tmp_path, precision):
    cfg = SelfPlayConfig(minutes=None, decisions=300, imitation_samples=300, imitation_epochs=1,
                         games_in_flight=4, actors=0, hidden=32, embed=16, threads=1, seed=3, precision=precision)
    path = tmp_path / "m.pt"
    threads = torch.get_num_threads()
    net, summary = train_selfplay(cfg, str(path), log=lambda s: None)
    assert summary["train_decisions"] >= 300 and path.is_file()
    assert torch.get_num_threads() == threads  # the learner's thread count is undone
    assert summary["learner_threads"] == 1 and summary["learner_precision"] == precision
    assert np.isfinite(summary["last"]["policy_loss"]) and np.isfinite(summary["imitation_loss"])
    assert all(p.dtype == torch.float32 and torch.isfinite(p).all() for p in net.parameters())
    # the learner flushes denormal floats to zero while it trains, and not afterwards
    assert float(torch.tensor([1e-40], dtype=torch.float32)[0] * 1.0) != 0.0
    loaded, mc = load_policy(path)
    assert mc.n_players == 4 and mc.algorithm == "play_scoring"
    a, b = LearnedAgent((net, mc)), LearnedAgent(str(path))
    game = Game(GameConfig(n_players=4), seed=9)
    for _ in range(60):
        if game.game_over:
            break
        view = SeatView(game, game.current)
        pa, pb = a.act(view), b.act(view)
        assert pa == pb
        game.apply(pa)


def test_model_used_at_the_wrong_table_is_a_clear_error(tmp_path):
    net = PlayScoringNet(NetConfig(hidden=16, embed=8))
    path = tmp_path / "m.pt"
    save_policy(net, model_config(4, GameConfig().artifact_deck), path)
    agent = LearnedAgent(str(path))
    with pytest.raises(ModelConfigError, match="n_players"):
        _play_game([agent] * 3, 3, seed=1)
    with pytest.raises(ModelConfigError, match="artifact_deck"):
        agent.check_use(4, ())
    lenient = LearnedAgent(str(path), allow_off_config=True)
    with pytest.warns(UserWarning):
        lenient.check_use(3, GameConfig().artifact_deck)
    (tmp_path / "junk.pt").write_text(json.dumps({"not": "a model"}))
    with pytest.raises(ValueError, match="not a play-scoring model"):
        load_policy(tmp_path / "junk.pt")
    with pytest.raises(FileNotFoundError):
        load_policy(tmp_path / "missing.pt")


def test_rollout_with_actor_processes(tmp_path):
    cfg = SelfPlayConfig(minutes=None, decisions=100, imitation_samples=0, games_in_flight=2, actors=1,
                         hidden=16, embed=8, threads=1)
    _, summary = train_selfplay(cfg, None, log=lambda s: None)
    assert summary["train_decisions"] >= 100 and summary["rounds"] >= 2


def test_shipped_models_play_only_legal_plays_at_their_player_counts():
    from agents import make_agent

    counts = shipped_player_counts()
    assert 4 in counts
    for n in counts:
        _, mc = load_policy(shipped_model_path(n))
        assert mc.n_players == n
        game = _play_game([make_agent("learned")] + [make_agent("heuristic")] * (n - 1), n, seed=4)
        assert game.game_over and len(game.round_scores) == 4


def test_learned_refuses_a_table_without_a_shipped_model(shipped_only):
    from agents import make_agent

    shipped_only(4)
    assert shipped_player_counts() == [4]
    with pytest.raises(ModelConfigError, match=r"no shipped play-scoring model for 5 players"):
        make_agent("learned").check_use(5, GameConfig().artifact_deck)


def test_untrained_residual_policy_plays_exactly_like_the_heuristic():
    from agents import make_agent

    net = PlayScoringNet(NetConfig(hidden=16, embed=8, heuristic_prior=True))
    learned = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)))
    heuristic = make_agent("heuristic")
    game = Game(GameConfig(n_players=4), seed=21)
    for _ in range(300):
        if game.game_over:
            break
        view = SeatView(game, game.current)
        play = heuristic.act(view)
        assert learned.act(view) == play
        game.apply(play)


@pytest.mark.parametrize("bad", [dict(games_in_flight=0), dict(minutes=3.0, decisions=1000), dict(minutes=-1.0),
                                 dict(minutes=None, decisions=-5), dict(actors=-1), dict(minibatch=0),
                                 dict(baseline_seats=1.5), dict(epochs=0), dict(hidden=0), dict(n_players=6),
                                 dict(artifact_deck=("no_such_artifact",)), dict(threads=-1),
                                 dict(precision="float16"), dict(precision=None)])
def test_bad_selfplay_settings_are_refused_up_front(bad):
    name = next(iter(bad))
    with pytest.raises(ValueError, match=name if name in ("threads", "precision", "actors") else None):
        SelfPlayConfig(**bad)


def test_learner_threads_and_precision_resolve_as_documented(monkeypatch):
    import train.selfplay as selfplay
    from train.selfplay import learner_bfloat16, learner_threads, native_bfloat16

    assert 1 <= selfplay.usable_cores() <= (os.cpu_count() or 1)
    monkeypatch.setattr(selfplay, "usable_cores", lambda: 2)
    assert learner_threads(SelfPlayConfig(actors=2)) == 1 and learner_threads(SelfPlayConfig(actors=1)) == 1
    assert learner_threads(SelfPlayConfig(actors=0)) == 2 and learner_threads(SelfPlayConfig(threads=3)) == 3
    monkeypatch.setattr(selfplay, "usable_cores", lambda: 16)
    assert learner_threads(SelfPlayConfig(actors=2)) == 14
    assert learner_bfloat16(SelfPlayConfig(precision="bfloat16"))
    assert not learner_bfloat16(SelfPlayConfig(precision="float32"))
    assert learner_bfloat16(SelfPlayConfig()) == native_bfloat16()
    cfg = SelfPlayConfig()
    cfg.precision, cfg.threads = "fp16", -1  # changed after construction: refused when used, not ignored
    with pytest.raises(ValueError, match="precision"):
        learner_bfloat16(cfg)
    with pytest.raises(ValueError, match="threads"):
        learner_threads(cfg)
    threads = torch.get_num_threads()
    with pytest.raises(ValueError, match="threads"):
        train_selfplay(cfg, None, log=lambda s: None)
    assert torch.get_num_threads() == threads


def test_training_restores_flushing_of_denormals_as_it_found_it():
    cfg = SelfPlayConfig(minutes=None, decisions=20, games_in_flight=2, actors=0, hidden=8, embed=4, threads=1)
    tiny = torch.tensor([1e-40], dtype=torch.float32)
    torch.set_flush_denormal(True)
    try:
        train_selfplay(cfg, None, log=lambda s: None)
        assert float(tiny.mul(1.0)[0]) == 0.0  # still flushing, as before the call
    finally:
        torch.set_flush_denormal(False)
    train_selfplay(cfg, None, log=lambda s: None)
    assert float(tiny.mul(1.0)[0]) != 0.0


def test_default_budget_is_reproducible_decisions_and_minutes_replace_it():
    assert SelfPlayConfig().decisions == DEFAULT_DECISIONS and SelfPlayConfig().minutes is None
    timed = SelfPlayConfig(minutes=2.5)
    assert timed.minutes == 2.5 and timed.decisions is None


def test_learned_path_inside_the_models_folder_is_never_swapped(tmp_path):
    net = PlayScoringNet(NetConfig(hidden=16, embed=8))
    path = tmp_path / "mine.pt"
    save_policy(net, model_config(4, GameConfig().artifact_deck), path)
    agent = LearnedAgent(str(path))
    with pytest.raises(ModelConfigError, match="n_players"):
        agent.check_use(3, GameConfig().artifact_deck)
    assert agent.path == str(path) and not agent.shipped


def test_selfplay_decisions_take_numpy_integers_but_not_bools():
    with pytest.raises(ValueError, match="decisions=True"):
        SelfPlayConfig(decisions=True)
    with pytest.raises(ValueError, match="games_in_flight=False"):
        SelfPlayConfig(games_in_flight=False)
    cfg = SelfPlayConfig(decisions=np.int64(1000), games_in_flight=np.int32(4))
    assert cfg.decisions == 1000 and type(cfg.decisions) is int and type(cfg.games_in_flight) is int


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
@pytest.mark.parametrize("prior", [True, False])
def test_numpy_scorer_gives_the_networks_logits(n_players, prior):
    from agents.heuristic import HeuristicAgent
    from seers_env.features import encode_state
    from train.scoring_policy import NumpyPlayScorer, play_rows

    torch.manual_seed(n_players)
    net = PlayScoringNet(NetConfig(heuristic_prior=prior, hidden=64, embed=32)).eval()
    if prior:  # the residual starts at zero: give it weights, so the test sees the whole network
        for p in net.play_net.parameters():
            torch.nn.init.normal_(p, std=0.3)
    scorer = NumpyPlayScorer(net)
    game, heuristic, compared = Game(GameConfig(n_players=n_players), seed=n_players), HeuristicAgent(), 0
    while not game.game_over and compared < 60:
        view = SeatView(game, game.current)
        legal = game.legal_plays()
        if len(legal) > 1:
            state, rows = encode_state(view), play_rows(view, legal, prior)
            with torch.no_grad():
                expect = net.score(torch.from_numpy(state)[None], torch.from_numpy(rows),
                                   torch.zeros(len(legal), dtype=torch.long)).numpy()
            got = scorer.score(state, rows)
            assert got.dtype == np.float32 and got.shape == (len(legal),)
            np.testing.assert_allclose(got, expect, rtol=1e-5, atol=1e-5)
            compared += 1
        game.apply(heuristic.act(view))
    assert compared >= 20


def blas_threads() -> list[int]:
    """numpy's BLAS libraries' thread counts (threadpoolctl)."""
    from threadpoolctl import threadpool_info

    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads():
    """numpy's BLAS on 2 threads for the test (skipped where it cannot run on 2)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=2, user_api="blas"):
        if not blas_threads() or set(blas_threads()) != {2}:
            pytest.skip("numpy's BLAS cannot run on 2 threads here")
        yield


def test_learned_agent_follows_weight_changes_and_restores_blas_threads():
    from seers_env.features import encode_plays, encode_state

    def torch_choice(view, legal):
        with torch.no_grad():
            logits = net.score(torch.from_numpy(encode_state(view))[None],
                               torch.from_numpy(encode_plays(view, legal)),
                               torch.zeros(len(legal), dtype=torch.long))
        return legal[int(logits.argmax())]

    torch.manual_seed(0)
    net = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=32, embed=16)).eval()
    agent = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)))
    game = Game(GameConfig(n_players=4), seed=3)
    while len(game.legal_plays()) < 5:
        game.apply(game.legal_plays()[0])
    view, legal = SeatView(game, game.current), game.legal_plays()
    before = blas_threads()
    first = agent.act(view)
    assert first is torch_choice(view, legal)
    assert blas_threads() == before
    changed = False
    for _ in range(20):  # new weights, in place (as an optimiser step): the agent follows them
        with torch.no_grad():
            for p in net.parameters():
                p.normal_(std=0.5)
        expect = torch_choice(view, legal)
        assert agent.act(view) is expect
        changed |= expect is not first
    assert changed  # some new weights preferred another play, so a stale copy would have failed


def _decision_with_choices(n_choices=6, seed=3):
    game = Game(GameConfig(n_players=4), seed=seed)
    while len(game.legal_plays()) < n_choices:
        game.apply(game.legal_plays()[0])
    return SeatView(game, game.current), game.legal_plays()


def _torch_choice(net, view, legal):
    from seers_env.features import encode_state
    from train.scoring_policy import play_rows

    dtype = next(net.parameters()).dtype
    with torch.no_grad():
        logits = net.score(torch.from_numpy(encode_state(view))[None].to(dtype),
                           torch.from_numpy(play_rows(view, legal, net.cfg.heuristic_prior)).to(dtype),
                           torch.zeros(len(legal), dtype=torch.long))
    return legal[int(logits.argmax())]


def _replace_load_assign(net, other):
    net.load_state_dict(other.state_dict(), assign=True)


def _replace_module(net, other):
    net.state_in = other.state_in


def _replace_nested_module(net, other):
    net.play_net[1] = other.play_net[1]


def _replace_vector(net, other):
    torch.nn.utils.vector_to_parameters(torch.nn.utils.parameters_to_vector(other.parameters()),
                                        net.parameters())


def _replace_double_then_load(net, other):
    net.double()
    net.load_state_dict(other.state_dict())


@pytest.mark.parametrize("replace", [_replace_load_assign, _replace_module, _replace_nested_module,
                                     _replace_vector, _replace_double_then_load])
def test_learned_agent_follows_new_parameter_objects_and_storage(replace):
    # changes that leave the parameters' version counters as they were: new Parameter objects
    # (assign=True, a replaced module) or new storage (p.data = ..., vector_to_parameters, .double())
    view, legal = _decision_with_choices()
    changed = 0
    for trial in range(8):
        torch.manual_seed(trial)
        net = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=32, embed=16)).eval()
        other = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=32, embed=16)).eval()
        for p in (*net.parameters(), *other.parameters()):  # one in-place change each: equal versions
            torch.nn.init.normal_(p, std=0.5)
        agent = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)))
        first = agent.act(view)
        replace(net, other)
        expect = _torch_choice(net, view, legal)
        assert agent.act(view) is expect
        changed += expect is not first
    assert changed  # some new weights preferred another play, so a stale copy would have failed


def test_agents_on_one_network_share_one_weight_copy_until_refresh():
    import gc
    import weakref

    from train.scoring_policy import _SCORERS

    view, legal = _decision_with_choices()
    torch.manual_seed(0)
    net = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=32, embed=16)).eval()
    a, b = (LearnedAgent((net, model_config(4, GameConfig().artifact_deck))) for _ in range(2))
    assert a.act(view) is b.act(view) is _torch_choice(net, view, legal)
    assert a._scorer is b._scorer is _SCORERS[net]
    a.refresh()  # drops both its copy and the shared one: the next decision copies the weights again
    assert net not in _SCORERS and a._scorer is None
    a.act(view)
    assert a._scorer is _SCORERS[net] and a._scorer is not b._scorer
    with torch.no_grad():  # a change torch records nowhere (through .data): refresh() on one agent
        net.play_in.weight.data.mul_(-3.0)
    c = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)))
    c.act(view)  # a third agent, holding the copy from before the change
    a.refresh()
    for agent in (a, b, c):  # ... makes every agent on the network copy the weights again
        assert agent.act(view) is _torch_choice(net, view, legal)
        assert agent._scorer is _SCORERS[net]
    ref = weakref.ref(net)
    del net, a, b, c, agent
    gc.collect()
    assert ref() is None  # the cache holds networks weakly (its copies do not hold them)


def test_learned_agent_follows_a_training_mode_net_under_fused_adam():
    # a fused optimiser step bumps no version counter: a network in training mode is copied every decision
    view, legal = _decision_with_choices()
    torch.manual_seed(0)
    net = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=32, embed=16))  # training mode
    agent = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)))
    opt = torch.optim.Adam(net.parameters(), lr=0.5, fused=True)
    first, changed = agent.act(view), False
    for _ in range(10):
        for p in net.parameters():
            p.grad = torch.randn_like(p)
        opt.step()
        expect = _torch_choice(net, view, legal)
        assert agent.act(view) is expect
        changed |= expect is not first
    assert changed


def test_numpy_scorer_owns_its_weights_and_checks_shapes():
    from seers_env.features import encode_state
    from train.scoring_policy import NumpyPlayScorer, play_rows

    view, legal = _decision_with_choices()
    torch.manual_seed(1)
    net = PlayScoringNet(NetConfig(heuristic_prior=True, hidden=31, embed=7)).eval()
    scorer = NumpyPlayScorer(net)
    state, rows = encode_state(view), play_rows(view, legal, True)
    before = scorer.score(state, rows)
    for p in net.parameters():  # writes through numpy views: no copy of the scorer may see them
        p.detach().numpy()[...] = 7.0
    np.testing.assert_array_equal(scorer.score(state, rows), before)
    with pytest.raises(ValueError, match=r"expected \(R, "):
        scorer.score(state, rows[:, :-1])
    with pytest.raises(ValueError, match="expected"):
        scorer.score(state[:-1], rows)
    assert scorer.score(state, rows[:0]).shape == (0,)


def test_blas_threads_restored_when_concurrent_scorers_interleave(two_blas_threads):
    from train.scoring_policy import _blas_one_thread

    # two threads' decisions, interleaved: A enters, B enters, A leaves, B leaves
    a, b = _blas_one_thread(), _blas_one_thread()
    a.__enter__()
    b.__enter__()
    assert set(blas_threads()) == {1}
    a.__exit__(None, None, None)
    assert set(blas_threads()) == {1}  # B still scoring
    b.__exit__(None, None, None)
    assert set(blas_threads()) == {2}
    with pytest.raises(ZeroDivisionError), _blas_one_thread():  # restored when scoring raises
        1 / 0
    assert set(blas_threads()) == {2}
    # other threads too, after this one has set the count (one process-wide pool: threadpoolctl's
    # controller methods act only in the first thread that called them)
    import threading

    seen = []

    def decide():
        with _blas_one_thread():
            seen.append(blas_threads())

    first, second = threading.Thread(target=decide), threading.Thread(target=decide)
    first.start(), first.join(), second.start(), second.join()
    assert [set(s) for s in seen] == [{1}, {1}] and set(blas_threads()) == {2}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_blas_threads_in_a_child_forked_from_inside_a_decision(two_blas_threads):
    from train.scoring_policy import _blas_one_thread

    read, write = os.pipe()
    with _blas_one_thread():
        pid = os.fork()
        if pid == 0:  # the child: inside, then out (restored), then a new decision limits again
            seen = [blas_threads()]
    if pid == 0:
        seen.append(blas_threads())
        with _blas_one_thread():
            seen.append(blas_threads())
        seen.append(blas_threads())
        os.write(write, json.dumps(seen).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    child = json.loads(os.read(read, 1000).decode())
    os.close(read)
    assert [set(s) for s in child] == [{1}, {2}, {1}, {2}]
    assert set(blas_threads()) == {2}


def test_pickled_learned_agent_leaves_its_weight_copy_and_plays_the_same():
    import pickle

    view, legal = _decision_with_choices()
    torch.manual_seed(2)
    net = PlayScoringNet(NetConfig(heuristic_prior=False, hidden=64, embed=16)).eval()
    agent = LearnedAgent((net, model_config(4, GameConfig().artifact_deck)), greedy=False, seed=5)
    agent.act(view)
    blob = pickle.dumps(agent)
    agent._scorer = None
    assert len(blob) < 1.2 * len(pickle.dumps(agent))  # the network once, not also its copies
    copy = pickle.loads(blob)
    agent.reset(9)
    copy.reset(9)
    assert [repr(agent.act(view)) for _ in range(20)] == [repr(copy.act(view)) for _ in range(20)]
