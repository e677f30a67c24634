"""The play-scoring learner on SCOUT: adapters, the kernel actor, model files that record their game, the
``learned`` spec and ``seers train --game scout``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.scout import ScoutGreedyAgent, ScoutHeuristicAgent  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from seers_env.scout.features import encode_state  # noqa: E402
from seers_env.scout.game import ScoutConfig, ScoutGame  # noqa: E402
from seers_env.scout.kernel import ScoutKernel, play_key  # noqa: E402
from seers_env.scout.kernel_features import decision_features  # noqa: E402
from seers_env.scout.view import ScoutSeatView  # noqa: E402
from train.model_config import ModelConfig, ModelConfigError  # noqa: E402
from train.scoring_policy import (LearnedAgent, PlayScoringNet, load_policy, model_config, save_policy,  # noqa: E402
                                  shipped_model_path, shipped_player_counts)
from train.scout_actor import (PRIVILEGED_DIM, KernelSeatView, ScoutActor, play_rows,  # noqa: E402
                               privileged_hands, scout_teacher_samples)
from train.selfplay import SelfPlayConfig, _Rollout, forward_stacked  # noqa: E402


def _tiny(n_players=3, **kw) -> SelfPlayConfig:
    base = dict(n_players=n_players, games_in_flight=3, hidden=16, embed=8, actors=0, threads=1,
                precision="float32")
    return SelfPlayConfig.for_game("scout", **{**base, **kw})


def _play(agents, n_players, seed):
    """A whole SCOUT game; every play is checked against the legal plays."""
    game = ScoutGame(ScoutConfig(n_players=n_players), seed=seed)
    while not game.game_over:
        view = ScoutSeatView(game, game.current)
        play = agents[game.current].act(view)
        assert play in game.legal_plays()
        game.apply(play)
    return game


# --- the kernel view and features ------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_kernel_seat_view_reads_what_the_engine_view_shows(n_players):
    """A kernel slot and an engine game with one seed play in lockstep; at every decision the kernel view
    has the engine view's members and the baseline agents score and choose the same."""
    config = ScoutConfig(n_players=n_players)
    heuristic, greedy = ScoutHeuristicAgent(), ScoutGreedyAgent()
    for seed in (1, 2):
        game, kernel = ScoutGame(config, seed=seed), ScoutKernel(1, config)
        kernel.new_game(0, seed)
        steps = 0
        while not game.game_over:
            seat = game.current
            view = ScoutSeatView(game, seat)
            _, _, _, keys = decision_features(kernel.hands, kernel.scouted, kernel.active, kernel.scal,
                                              kernel.scores, np.zeros(1, np.int64))
            kview = KernelSeatView(kernel, 0, keys)
            assert kview.legal_plays() == view.legal_plays()
            for name in ("seat", "n_players", "current", "game_over", "phase", "hand_sizes", "active",
                         "active_owner", "chips", "scout_show_used", "game_name"):
                assert getattr(kview, name) == getattr(view, name), name
            assert kview.hand_faces() == view.hand_faces()
            assert np.array_equal(heuristic.score_array(kview), heuristic.score_array(view))
            assert greedy.act(kview) == greedy.act(view)
            play = heuristic.act(view) if steps % 3 else view.legal_plays()[steps % len(view.legal_plays())]
            game.apply(play)
            kernel.apply(0, play_key(play))
            steps += 1
        assert kernel.game_over(0) and kernel.totals(0) == game.totals


def test_privileged_hands_describe_the_other_hands_in_turn_order():
    values = [[1, 2, 3], [5, 5], [], [10, 9, 8, 7]]
    out = privileged_hands(values, seat=1)
    assert out.shape == (PRIVILEGED_DIM,) and out.dtype == np.float32
    block = PRIVILEGED_DIM // 4
    # first block: seat 2 (empty hand), then seat 3, then seat 0; the fourth is an absent seat
    assert not out[:block].any()
    assert out[block] == pytest.approx(4 / 11) and out[block + 3] == pytest.approx(4 / 10)  # run of 4
    counts = out[2 * block + 10:3 * block]
    assert counts.tolist() == pytest.approx([0.25, 0.25, 0.25] + [0.0] * 7)
    assert not out[3 * block:].any()


def test_play_rows_add_the_heuristic_score_as_the_last_column():
    game = ScoutGame(ScoutConfig(n_players=4), seed=5)
    heuristic = ScoutHeuristicAgent()
    for _ in range(12):
        game.apply(heuristic.act(ScoutSeatView(game, game.current)))
    view = ScoutSeatView(game, game.current)
    legal = view.legal_plays()
    rows = play_rows(view, legal, True)
    assert rows.shape == (len(legal), play_rows(view, legal, False).shape[1] + 1)
    assert np.array_equal(rows[:, -1], heuristic.score_array(view).astype(np.float32))
    with pytest.raises(ValueError, match="legal plays"):
        play_rows(view, legal[:1], True)


def test_untrained_residual_policy_plays_scout_like_the_heuristic():
    """Every play is a heuristic-best one (the prior column is float32: scores 1e-15 apart may swap)."""
    cfg = _tiny(4)
    learned = LearnedAgent((PlayScoringNet(cfg.net_config()), cfg.model_config()))
    heuristic = ScoutHeuristicAgent()
    game = ScoutGame(ScoutConfig(n_players=4), seed=21)
    same = 0
    while not game.game_over:
        view = ScoutSeatView(game, game.current)
        play = learned.act(view)
        scores = heuristic.score_array(view)
        assert scores[view.legal_plays().index(play)] == pytest.approx(scores.max(), abs=1e-9)
        same += play == heuristic.act(view)
        game.apply(play)
    assert same >= 100


# --- the actor and the warm start ----------------------------------------------------------------------

def _reference_rollouts(cfg: SelfPlayConfig, seed: int, net: PlayScoringNet, rollouts: int):
    """ScoutActor's algorithm on engine games, views and the Python features (same draws in the same
    order): the batches the kernel actor must give."""
    from train.selfplay import concat_batches

    rng = np.random.default_rng(seed)
    n_games, n = cfg.games_in_flight, cfg.n_players
    seeds = [int(rng.integers(2**62)) for _ in range(n_games)]
    baseline_agent = make_agent(cfg.baseline, seed=int(rng.integers(2**31)), game="scout") \
        if cfg.baseline_seats > 0 else None
    games = [ScoutGame(cfg.game_config(), seed=s) for s in seeds]

    def sample(logits):
        p = np.exp(logits.astype(np.float64) - logits.astype(np.float64).max())
        p /= p.sum()
        from train.scoring_policy import sample_index

        a = sample_index(rng, p)
        return a, float(np.log(p[a] + 1e-12))

    batches = []
    for _ in range(rollouts):
        out = _Rollout(10.0)
        baseline = [[bool(rng.random() < cfg.baseline_seats) for _ in range(n)] for _ in range(n_games)]
        for seats in baseline:
            if all(seats):
                seats[int(rng.integers(n))] = False

        def after(g, play):
            game = games[g]
            before = len(game.round_scores)
            game.apply(play)
            if len(game.round_scores) == before:
                return True
            out.book(g, game.round_scores[-1])
            if game.game_over:
                games[g] = ScoutGame(cfg.game_config(), seed=int(rng.integers(2**62)))
            return False

        active = list(range(n_games))
        while active:
            still, waiting = [], []
            for g in active:
                game = games[g]
                view = ScoutSeatView(game, game.current)
                legal = game.legal_plays()
                if baseline[g][game.current]:
                    play = baseline_agent.act(view)
                elif len(legal) == 1:
                    play = legal[0]
                else:
                    waiting.append((g, view, legal))
                    still.append(g)
                    continue
                if after(g, play):
                    still.append(g)
            if waiting:
                st = np.stack([encode_state(v) for _, v, _ in waiting])
                blocks = [play_rows(v, legal, cfg.heuristic_prior) for _, v, legal in waiting]
                hd = np.stack([privileged_hands([v._game.hand_values(s) for s in range(n)], v.seat)
                               for _, v, _ in waiting])
                offs = np.zeros(len(blocks) + 1, np.int64)
                offs[1:] = np.cumsum([len(b) for b in blocks])
                logits, vals = forward_stacked(net, st, np.concatenate(blocks), offs, hd)
                for i, (g, view, legal) in enumerate(waiting):
                    a, logp = sample(logits[offs[i]:offs[i + 1]])
                    out.add(g, view.seat, st[i], hd[i], blocks[i], a, logp, float(vals[i]))
                    if not after(g, legal[a]):
                        still.remove(g)
            active = still
        batches.append(out.batch(net))
    return concat_batches(batches)


@pytest.mark.parametrize("n_players,baseline_seats", [(2, 0.0), (3, 0.5), (5, 0.4)])
def test_kernel_actor_gives_the_batches_of_the_engine(n_players, baseline_seats):
    from train.selfplay import concat_batches

    cfg = _tiny(n_players, baseline_seats=baseline_seats)
    torch.manual_seed(3)
    net = PlayScoringNet(cfg.net_config())
    torch.nn.init.normal_(net.play_net[-1].weight, std=0.5)  # a policy that is not the heuristic
    rollouts = 3 if n_players == 2 else 2  # 2 players: 2 rounds a game, so a game ends and one starts
    actor = ScoutActor(cfg, 7, net)
    got = concat_batches([actor.collect() for _ in range(rollouts)])
    want = _reference_rollouts(cfg, 7, net, rollouts)
    assert len(got) > 10
    for field in ("states", "hidden", "plays", "offsets", "actions", "logp", "values", "rewards", "done", "traj"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert actor.rounds_played == rollouts * cfg.games_in_flight
    assert np.diff(got.offsets).min() >= 2  # forced decisions are not samples


def test_teacher_samples_on_the_kernel_equal_those_on_engine_games():
    cfg = _tiny(3, teacher="heuristic")
    kernel_batch = scout_teacher_samples(cfg, 60, seed=4)
    import train.scout_actor as scout_actor

    original = scout_actor.KERNEL_AGENTS
    try:
        scout_actor.KERNEL_AGENTS = ()  # the engine path (as for an ISMCTS teacher)
        engine_batch = scout_teacher_samples(cfg, 60, seed=4)
    finally:
        scout_actor.KERNEL_AGENTS = original
    assert len(kernel_batch) >= 60
    for field in ("states", "hidden", "plays", "offsets", "actions", "rewards"):
        assert np.array_equal(getattr(kernel_batch, field), getattr(engine_batch, field)), field
    for i in range(len(kernel_batch)):  # the heuristic teacher's play has the top prior score
        rows = kernel_batch.plays[kernel_batch.offsets[i]:kernel_batch.offsets[i + 1]]
        assert rows[kernel_batch.actions[i], -1] == rows[:, -1].max()


def test_a_baseline_that_does_not_play_on_the_kernel_is_refused_before_anything_runs():
    from train.selfplay import train_selfplay

    cfg = _tiny(3, baseline="ismcts:5", decisions=10)
    with pytest.raises(ValueError, match="'ismcts:5'.*heuristic, greedy or random"):
        train_selfplay(cfg, log=lambda _: None)
    ScoutActor(_tiny(3, baseline="greedy"), 1).collect()  # greedy and random play on the kernel
    ScoutActor(_tiny(3, baseline="random"), 1).collect()


# --- configurations -----------------------------------------------------------------------------------

def test_scout_configuration_has_no_artifacts_and_its_own_defaults():
    from train.selfplay import GAME_DEFAULTS

    cfg = SelfPlayConfig.for_game("scout", n_players=5)
    assert cfg.game == "scout" and cfg.artifact_deck == () and isinstance(cfg.game_config(), ScoutConfig)
    for key, value in GAME_DEFAULTS["scout"].items():
        assert getattr(cfg, key) == value, key
    net = cfg.net_config()
    assert (net.state_dim, net.privileged_dim) == (len(encode_state(ScoutSeatView(ScoutGame(), 0))), PRIVILEGED_DIM)
    assert SelfPlayConfig.for_game("scout", minutes=1.0).decisions is None  # minutes replace the default budget
    with pytest.raises(ValueError, match="SCOUT has no artifacts"):
        SelfPlayConfig(game="scout", artifact_deck=("scroll",))
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        SelfPlayConfig(game="chess")
    with pytest.raises(ValueError, match="n_players"):
        SelfPlayConfig(game="scout", n_players=6)
    assert SelfPlayConfig().game == "seers_catalog" and SelfPlayConfig().artifact_deck  # unchanged default


def test_model_config_records_the_game_and_old_files_are_seers_catalog():
    mc = ModelConfig("play_scoring", n_players=3, artifact_deck=(), feature_version="x", catalogue_version=None,
                     game="scout")
    assert ModelConfig.from_dict(mc.to_dict()) == mc and mc.to_dict()["game"] == "scout"
    old = {k: v for k, v in model_config(4, ("scroll",)).to_dict().items() if k != "game"}
    assert ModelConfig.from_dict(old).game == "seers_catalog"
    assert mc.describe().startswith("SCOUT, play_scoring, 3 players")


# --- model files, the agent and the spec -------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tiny SCOUT training run end to end (warm start, PPO, final tournament)."""
    from train.selfplay_run import run_selfplay

    cfg = _tiny(3, decisions=120, imitation_samples=60, imitation_epochs=1, games_in_flight=2)
    return run_selfplay(cfg, out=str(tmp_path_factory.mktemp("runs")), name="tiny", final_games=1,
                        workers=1, echo=lambda _: None)


def test_a_tiny_scout_run_writes_a_model_that_plays_legal_moves(tiny_run):
    net, mc = load_policy(tiny_run.model_path)
    assert (mc.game, mc.n_players, mc.artifact_deck) == ("scout", 3, ())
    assert mc.feature_version.startswith("scout-play-features-v")
    assert tiny_run.summary["train_decisions"] >= 120 and "imitation_accuracy" in tiny_run.summary
    assert tiny_run.paired and tiny_run.paired[0]["baseline"] == "heuristic"
    agent = make_agent(f"learned:{tiny_run.model_path}", game="scout")
    assert agent.game == "scout"
    game = _play([agent, make_agent("heuristic", game="scout"), make_agent("greedy", game="scout")], 3, seed=9)
    assert game.game_over and len(game.round_scores) == 3
    sampler = LearnedAgent(str(tiny_run.model_path), greedy=False, seed=1)
    _play([sampler] * 3, 3, seed=10)


def test_a_scout_model_is_refused_for_seers_catalog_and_a_seers_model_for_scout(tiny_run):
    from agents.tournament import run_tournament

    with pytest.raises(ModelConfigError, match=r"trained for SCOUT \('scout'\), not Seers Catalog"):
        make_agent(f"learned:{tiny_run.model_path}")
    with pytest.raises(ModelConfigError, match=r"plays SCOUT \('scout'\), not Seers Catalog"):
        run_tournament([LearnedAgent(str(tiny_run.model_path)), "heuristic", "heuristic"], games=1, workers=1,
                       progress=False)
    seers = shipped_model_path(4)
    with pytest.raises(ModelConfigError, match=r"trained for Seers Catalog \('seers_catalog'\), not SCOUT"):
        make_agent(f"learned:{seers}", game="scout")
    with pytest.raises(ModelConfigError, match=r"plays Seers Catalog .* not SCOUT"):
        run_tournament([LearnedAgent(seers), "heuristic", "heuristic", "heuristic"], games=1, workers=1,
                       progress=False, game="scout")
    game = ScoutGame(ScoutConfig(n_players=4), seed=1)
    with pytest.raises(ModelConfigError, match="given a SCOUT"):
        LearnedAgent(seers).act(ScoutSeatView(game, game.current))
    with pytest.raises(ModelConfigError, match=r"game: trained 'scout' \(SCOUT\), used 'seers_catalog'"):
        from train.selfplay import initial_policy

        initial_policy(SelfPlayConfig(n_players=3, init_model=str(tiny_run.model_path)))


def test_a_scout_model_is_refused_at_another_player_count(tiny_run):
    from agents.tournament import run_tournament

    agent = make_agent(f"learned:{tiny_run.model_path}", game="scout")
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 4"):
        run_tournament([agent] + ["heuristic"] * 3, games=1, workers=1, progress=False, game="scout")
    game = ScoutGame(ScoutConfig(n_players=2), seed=1)
    while len(game.legal_plays()) < 2:
        game.apply(game.legal_plays()[0])
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 2"):
        agent.act(ScoutSeatView(game, game.current))
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 5"):
        from train.selfplay import initial_policy

        initial_policy(SelfPlayConfig.for_game("scout", n_players=5, init_model=str(tiny_run.model_path)))


def test_init_model_continues_a_scout_run(tiny_run, tmp_path):
    from train.selfplay import initial_policy, train_selfplay

    net, cfg = initial_policy(_tiny(3, init_model=str(tiny_run.model_path)))
    assert cfg.hidden == 16 and cfg.imitation_samples == 0
    out = tmp_path / "more.pt"
    train_selfplay(_tiny(3, init_model=str(tiny_run.model_path), decisions=30, games_in_flight=2), str(out),
                   log=lambda _: None)
    assert load_policy(out)[1].game == "scout"


def test_learned_spec_loads_the_shipped_scout_model_of_the_table(tmp_path, monkeypatch):
    import shutil

    import train.scoring_policy as scoring_policy

    counts = shipped_player_counts("scout")
    assert 4 in counts  # docs/models.md: how each shipped SCOUT model was trained
    for n in counts:
        net, mc = load_policy(shipped_model_path(n, "scout"))
        assert (mc.game, mc.n_players) == ("scout", n)
        agents = [make_agent("learned", game="scout")] + [make_agent("heuristic", game="scout")] * (n - 1)
        game = _play(agents, n, seed=4)
        assert game.game_over
        assert agents[0].path == shipped_model_path(n, "scout")
    assert shipped_player_counts() == shipped_player_counts("seers_catalog")  # Seers Catalog's unchanged
    # a table with no shipped model is refused, naming the counts that have one
    shutil.copy(shipped_model_path(4, "scout"), tmp_path / "scout_learned_4p.pt")
    monkeypatch.setattr(scoring_policy, "SHIPPED_DIR", str(tmp_path))
    assert shipped_player_counts("scout") == [4] and shipped_player_counts() == []
    with pytest.raises(ModelConfigError, match=r"no shipped SCOUT play-scoring model for 3 players "
                                               r"\(shipped: \[4\] players\)"):
        make_agent("learned", game="scout").check_use(3, ())


def test_learned_spec_refuses_games_the_learner_does_not_serve(monkeypatch):
    import seers_env.games as games
    from train.specs import learned_agent

    monkeypatch.setitem(games.GAMES, "other", games.GAMES["scout"])
    with pytest.raises(ValueError, match="plays seers_catalog, scout, seals and haggis, not 'other'"):
        learned_agent(None, game="other")


def test_saved_scout_model_round_trips(tmp_path):
    cfg = _tiny(5)
    net = PlayScoringNet(cfg.net_config())
    save_policy(net, cfg.model_config(), tmp_path / "m.pt")
    loaded, mc = load_policy(tmp_path / "m.pt")
    assert loaded.cfg == net.cfg and mc == cfg.model_config()
    for a, b in zip(net.state_dict().values(), loaded.state_dict().values()):
        assert torch.equal(a, b)


# --- the command line -----------------------------------------------------------------------------------

def test_seers_train_refuses_scout_with_other_learners_and_unknown_games():
    from typer.testing import CliRunner

    from seers_cli import app

    for args, text in ((["--game", "scout", "--algo", "maskable-ppo"], "plays Seers Catalog only"),
                       (["--game", "chess"], "'chess' is not one of seers_catalog, scout"),
                       (["--game", "scout", "--no-artifacts"], "SCOUT has no artifacts")):
        result = CliRunner().invoke(app, ["train", *args])
        assert result.exit_code != 0 and text in " ".join(result.output.split()), result.output


def test_seers_train_game_scout_end_to_end(tmp_path):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["train", "--game", "scout", "--players", "2", "--decisions", "40",
                                      "--imitation-samples", "0", "--games-in-flight", "2", "--actors", "0",
                                      "--hidden", "16", "--final-games", "1", "--workers", "1",
                                      "--out", str(tmp_path), "--name", "cli"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "SCOUT, 2 players" in flat and "Learned agent vs 1 x heuristic" in flat
    net, mc = load_policy(tmp_path / "cli" / "model.pt")
    assert (mc.game, mc.n_players, net.cfg.hidden, net.cfg.embed) == ("scout", 2, 16, 8)
