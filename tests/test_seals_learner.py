"""The play-scoring learner on Seals: the features, the engine actor, the adapter, model files that record
their game, the ``learned`` spec, ``seers train --game seals`` and ``seers eval --game seals``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.seals import SealsHeuristicAgent  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from seers_env.seals import SealsConfig, SealsGame, SealsPlay, SealsSeatView  # noqa: E402
from seers_env.seals.cards import card_of  # noqa: E402
from seers_env.seals.features import (PLAY_DIM, PLAY_LAYOUT, STATE_DIM, STATE_LAYOUT, encode_plays,  # noqa: E402
                                      encode_state)
from seers_env.seals.game import PHASE_DECLARE  # noqa: E402
from train.engine_actor import EngineActor, engine_teacher_samples  # noqa: E402
from train.game_adapters import SEALS_PILE_CARDS, game_adapter  # noqa: E402
from train.model_config import ModelConfigError  # noqa: E402
from train.scoring_policy import (LearnedAgent, PlayScoringNet, load_policy, sample_index,  # noqa: E402
                                  shipped_model_path, shipped_player_counts)
from train.selfplay import SelfPlayConfig, _Rollout, concat_batches, forward_stacked  # noqa: E402

RED, BLUE, GREEN, YELLOW, BLACK = range(5)
COIN = 10


def _tiny(n_players=3, **kw) -> SelfPlayConfig:
    base = dict(n_players=n_players, games_in_flight=3, hidden=16, embed=8, actors=0, threads=1,
                precision="float32")
    return SelfPlayConfig.for_game("seals", **{**base, **kw})


def _part(vec, layout, name, *, row=None):
    o, n = layout[name]
    if row is not None:
        return vec[row, o:o + n]
    return vec[..., o:o + n]


def _known_position():
    """Seat 0 holds three 4s, seat 1 three Coins, seat 2 a 9; the row: Yellow 4, Blue Coin, Red Coin,
    Green 7 (the rules' example with a Yellow 4)."""
    hands = [[card_of(RED, 3), card_of(BLUE, 3), card_of(GREEN, 3)],
             [card_of(GREEN, COIN), card_of(YELLOW, COIN), card_of(BLACK, COIN)],
             [card_of(RED, 8)]]
    row = [card_of(YELLOW, 3), card_of(BLUE, COIN), card_of(RED, COIN), card_of(GREEN, 6)]
    return SealsGame.from_position(SealsConfig(n_players=3), row=row, hands=hands, current=0)


# --- features ---------------------------------------------------------------------------------------

def test_state_features_of_a_known_position():
    game = _known_position()
    x = encode_state(SealsSeatView(game, 0))
    assert x.shape == (STATE_DIM,) and x.dtype == np.float32
    seats = _part(x, STATE_LAYOUT, "seats").reshape(4, -1)
    assert seats[0, 3] == 0.75 and seats[0, :11].sum() == 0.75  # three 4s, nothing else
    assert seats[0, 11 + 3] == 0.25 and seats[0, 11 + 11] == 0.9  # one 4 missing; 9 numbers for the run
    assert seats[0, 23 + 3] == 1.0  # four 4s reachable (two 4s outside the hands)
    assert seats[0, 35] == pytest.approx(3 / 20)
    assert seats[0, 38] == 0.25  # taking the 4s lays down four 4s: 1 Mark
    assert seats[1, 10] == 0.75 and seats[1, 38] == 0.75  # seat 1: three Coins, taking Coins: 3 Marks
    assert seats[2, 8] == 0.25 and seats[2, 38] == 0.0
    assert not seats[3].any()  # no fourth seat
    assert _part(x, STATE_LAYOUT, "free")[3] == pytest.approx(2 / 5)  # Yellow 4 in the row, Black 4 in the pile
    assert _part(x, STATE_LAYOUT, "row_symbols")[COIN] == 0.5
    assert _part(x, STATE_LAYOUT, "row_colours").tolist() == [0.25, 0.25, 0.25, 0.25, 0.0]
    assert _part(x, STATE_LAYOUT, "n_players").tolist() == [0.0, 1.0, 0.0]
    assert _part(x, STATE_LAYOUT, "stage").tolist() == [1.0, 0.0]
    assert _part(x, STATE_LAYOUT, "pile_size")[0] == pytest.approx((55 - 11) / 55)
    # seat 1's view: relative seats rotate, and it is not to act
    y = encode_state(SealsSeatView(game, 1))
    assert np.array_equal(_part(y, STATE_LAYOUT, "seats").reshape(4, -1)[2], seats[0])
    assert not _part(y, STATE_LAYOUT, "stage").any()


def test_take_rows_of_a_known_position():
    game = _known_position()
    view = SealsSeatView(game, 0)
    legal = view.legal_plays()
    rows = encode_plays(view, legal)
    assert rows.shape == (len(legal), PLAY_DIM) and rows.dtype == np.float32
    take = {p: i for i, p in enumerate(legal)}
    fours, coins, green = take[SealsPlay.symbol(3)], take[SealsPlay.symbol(COIN)], take[SealsPlay.colour(GREEN)]
    assert _part(rows, PLAY_LAYOUT, "kind", row=fours).tolist() == [0.0, 1.0, 0.0]
    assert _part(rows, PLAY_LAYOUT, "kind", row=green).tolist() == [1.0, 0.0, 0.0]
    assert _part(rows, PLAY_LAYOUT, "completes", row=fours)[0] == 1.0
    assert _part(rows, PLAY_LAYOUT, "marks_after", row=fours)[0] == 0.25
    assert _part(rows, PLAY_LAYOUT, "completes", row=coins)[0] == 0.0
    assert _part(rows, PLAY_LAYOUT, "taken", row=coins)[0] == 0.5
    assert _part(rows, PLAY_LAYOUT, "taken_symbols", row=coins)[COIN] == 0.5
    assert _part(rows, PLAY_LAYOUT, "taken_colours", row=coins).tolist() == [0.25, 0.25, 0.0, 0.0, 0.0]
    # taking the 4s leaves both Coins face up: seat 1 (relative 1) could lay down four Coins (3 Marks)
    assert _part(rows, PLAY_LAYOUT, "threats", row=fours).tolist() == [0.75, 0.0, 0.0]
    # taking the Coins leaves none: no threat, and seat 1 loses most of the value of its Coins
    assert _part(rows, PLAY_LAYOUT, "threats", row=coins).tolist() == [0.0, 0.0, 0.0]
    denial = _part(rows, PLAY_LAYOUT, "denial", row=coins)
    assert denial[0] > 0.5 and denial[1] == 0.0
    assert _part(rows, PLAY_LAYOUT, "value_gain", row=fours)[0] > 0
    assert not _part(rows, PLAY_LAYOUT, "declare_kinds").any()


def test_declaration_rows():
    hand = [card_of(c, 3) for c in range(5)] + [card_of(BLACK, k) for k in range(10) if k != 3]  # five 4s, a run
    row = [card_of(GREEN, 0), card_of(BLUE, 9)]
    game = SealsGame.from_position(SealsConfig(n_players=2), row=row, hands=[sorted(hand), []], current=0,
                                   phase=PHASE_DECLARE, turns=1)
    view = SealsSeatView(game, 0)
    legal = view.legal_plays()
    rows = encode_plays(view, legal)
    assert [p.value for p in legal] == [0, 1 << 3, 1 << 11, (1 << 3) | (1 << 11)]  # a fifth 4 for both
    assert _part(rows, PLAY_LAYOUT, "kind").tolist() == [[0.0, 0.0, 1.0]] * 4
    assert _part(rows, PLAY_LAYOUT, "decline")[:, 0].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert _part(rows, PLAY_LAYOUT, "declare_marks")[:, 0].tolist() == [0.0, 0.25, 1.0, 1.25]
    assert _part(rows, PLAY_LAYOUT, "declare_sets")[:, 0].tolist() == [0.0, 0.5, 0.5, 1.0]
    assert _part(rows, PLAY_LAYOUT, "declare_kinds", row=3)[[3, 11]].tolist() == [1.0, 1.0]
    assert not _part(rows, PLAY_LAYOUT, "taken").any()
    assert _part(encode_state(view), STATE_LAYOUT, "stage").tolist() == [0.0, 1.0]


def test_declaration_rows_count_every_run():
    """Two disjoint runs (sections 3.3 and 4): the run's slot of ``declare_kinds`` holds the run count and
    ``declare_sets`` counts both; the row layout is unchanged (the shipped models read it)."""
    from seers_env.seals.features import best_marks

    hand = [card_of(c, k) for k in range(10) for c in (RED, BLUE)]
    game = SealsGame.from_position(SealsConfig(n_players=2), row=[card_of(GREEN, 0)], hands=[sorted(hand), []],
                                   current=0, phase=PHASE_DECLARE, turns=1)
    view = SealsSeatView(game, 0)
    legal = view.legal_plays()
    rows = encode_plays(view, legal)
    assert rows.shape == (3, PLAY_DIM) and [p.value for p in legal] == [0, 1 << 11, 2 << 11]
    assert _part(rows, PLAY_LAYOUT, "declare_marks")[:, 0].tolist() == [0.0, 1.0, 2.0]
    assert _part(rows, PLAY_LAYOUT, "declare_sets")[:, 0].tolist() == [0.0, 0.5, 1.0]
    assert _part(rows, PLAY_LAYOUT, "declare_kinds")[:, 11].tolist() == [0.0, 1.0, 2.0]
    assert best_marks([2] * 10 + [0]) == 8 and best_marks([5] * 10 + [4]) == 23


def test_play_rows_add_the_heuristic_score_and_privileged_shows_the_pile_top():
    adapter = game_adapter("seals")
    game = _known_position()
    view = SealsSeatView(game, 0)
    legal = view.legal_plays()
    rows = adapter.play_rows(view, legal, True)
    assert rows.shape == (len(legal), PLAY_DIM + 1)
    assert rows[:, -1].tolist() == pytest.approx([s for s, _ in SealsHeuristicAgent().scores(view)])
    with pytest.raises(ValueError, match="legal plays"):
        adapter.play_rows(view, legal[:2], True)
    priv = adapter.privileged(game, 0)
    assert priv.shape == (adapter.privileged_dim,) == (16 * SEALS_PILE_CARDS,)
    blocks = priv.reshape(SEALS_PILE_CARDS, 16)
    for i, card in enumerate(game.pile[:SEALS_PILE_CARDS]):
        assert blocks[i].sum() == 2 and blocks[i, card // 11] == 1 and blocks[i, 5 + card % 11] == 1
    late = SealsGame.from_position(SealsConfig(n_players=2), row=[0, 1, 2, 3], hands=[list(range(4, 26)),
                                   list(range(26, 52))], current=0)  # 3 cards left in the pile
    assert adapter.privileged(late, 0).reshape(SEALS_PILE_CARDS, 16)[3:].sum() == 0


# --- the engine actor --------------------------------------------------------------------------------

def _reference_rollouts(cfg, seed, net, rollouts):
    """A plain loop over SealsGame objects drawing from one generator in the actor's order: the batches
    the engine actor must give."""
    adapter = game_adapter("seals")
    rng = np.random.default_rng(seed)
    n_games, n = cfg.games_in_flight, cfg.n_players
    seeds = [int(rng.integers(2**62)) for _ in range(n_games)]
    baseline_agent = make_agent(cfg.baseline, seed=int(rng.integers(2**31)), game="seals") \
        if cfg.baseline_seats > 0 else None
    games = [SealsGame(cfg.game_config(), seed=s) for s in seeds]
    batches = []
    for _ in range(rollouts):
        out = _Rollout(adapter.reward_scale)
        baseline = [[bool(rng.random() < cfg.baseline_seats) for _ in range(n)] for _ in range(n_games)]
        for seats in baseline:
            if all(seats):
                seats[int(rng.integers(n))] = False

        def after(g, play):
            result = games[g].apply(play)
            if result.round_scores is None:
                return True
            out.book(g, list(result.round_scores))
            if result.game_over:
                games[g] = SealsGame(cfg.game_config(), seed=int(rng.integers(2**62)))
            return False

        active = list(range(n_games))
        while active:
            still, waiting = [], []
            for g in active:
                game = games[g]
                view = SealsSeatView(game, game.current)
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
                blocks = [adapter.play_rows(v, legal, cfg.heuristic_prior) for _, v, legal in waiting]
                hd = np.stack([adapter.privileged(games[g], v.seat) for g, v, _ in waiting])
                offs = np.zeros(len(blocks) + 1, np.int64)
                offs[1:] = np.cumsum([len(b) for b in blocks])
                logits, vals = forward_stacked(net, st, np.concatenate(blocks), offs, hd)
                for i, (g, view, legal) in enumerate(waiting):
                    lg = logits[offs[i]:offs[i + 1]].astype(np.float64)
                    p = np.exp(lg - lg.max())
                    p /= p.sum()
                    a = sample_index(rng, p)
                    out.add(g, view.seat, st[i], hd[i], blocks[i], a, float(np.log(p[a] + 1e-12)), float(vals[i]))
                    if not after(g, legal[a]):
                        still.remove(g)
            active = still
        batches.append(out.batch(net))
    return concat_batches(batches)


@pytest.mark.parametrize("n_players,baseline_seats", [(2, 0.0), (3, 0.5), (4, 0.3)])
def test_engine_actor_gives_the_batches_of_a_plain_loop(n_players, baseline_seats):
    cfg = _tiny(n_players, baseline_seats=baseline_seats, games_in_flight=2)
    torch.manual_seed(3)
    net = PlayScoringNet(cfg.net_config())
    torch.nn.init.normal_(net.play_net[-1].weight, std=0.5)  # a policy that is not the heuristic
    actor = EngineActor(cfg, 7, net)
    rollouts = 6 if n_players == 2 else 2  # 2 players: games end (5 rounds at most) and new ones start
    got = concat_batches([actor.collect() for _ in range(rollouts)])
    want = _reference_rollouts(cfg, 7, net, rollouts)
    assert len(got) > 10
    for field in ("states", "hidden", "plays", "offsets", "actions", "logp", "values", "rewards", "done", "traj"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert actor.rounds_played == rollouts * cfg.games_in_flight
    assert got.states.shape == (len(got), STATE_DIM) and got.plays.shape == (got.offsets[-1], PLAY_DIM + 1)
    assert got.hidden.shape == (len(got), 16 * SEALS_PILE_CARDS)
    assert np.diff(got.offsets).min() >= 2  # forced decisions are not samples
    if baseline_seats == 0:  # every seat learns: each round's rewards cancel out
        assert abs(float(got.rewards.sum())) < 1e-4


def test_teacher_samples_are_the_heuristics_plays_with_the_round_rewards():
    cfg = _tiny(3, teacher="heuristic")
    batch = engine_teacher_samples(cfg, 80, seed=4)
    assert len(batch) >= 80
    for i in range(len(batch)):  # the heuristic teacher's play has the top prior score
        rows = batch.plays[batch.offsets[i]:batch.offsets[i + 1]]
        assert rows[batch.actions[i], -1] == rows[:, -1].max()
    # a round's reward: the seat's Marks minus half the others' (3 players), / 2 Marks
    assert np.allclose(batch.rewards * 4, np.round(batch.rewards * 4), atol=1e-5)
    assert batch.rewards.max() > 0 > batch.rewards.min()
    again = engine_teacher_samples(cfg, 80, seed=4)
    assert np.array_equal(again.plays, batch.plays) and np.array_equal(again.rewards, batch.rewards)


def test_untrained_residual_policy_plays_seals_like_the_heuristic():
    cfg = _tiny(4)
    learned = LearnedAgent((PlayScoringNet(cfg.net_config()), cfg.model_config()))
    heuristic = SealsHeuristicAgent()
    game = SealsGame(SealsConfig(n_players=4), seed=21)
    for _ in range(60):
        if game.game_over:
            break
        view = SealsSeatView(game, game.current)
        play = learned.act(view)
        scores = dict((p, s) for s, p in heuristic.scores(view))
        assert scores[play] == pytest.approx(max(scores.values()), abs=1e-4)
        game.apply(play)


# --- configuration, model files, the agent and the spec -------------------------------------------------

def test_seals_configuration_has_no_artifacts_and_its_own_defaults():
    from train.selfplay import GAME_DEFAULTS

    cfg = SelfPlayConfig.for_game("seals", n_players=4)
    assert cfg.game == "seals" and cfg.artifact_deck == () and isinstance(cfg.game_config(), SealsConfig)
    for key, value in GAME_DEFAULTS["seals"].items():
        assert getattr(cfg, key) == value, key
    net = cfg.net_config()
    assert (net.state_dim, net.play_dim, net.privileged_dim) == (STATE_DIM, PLAY_DIM, 16 * SEALS_PILE_CARDS)
    assert cfg.model_config().feature_version == "seals-play-features-v1"
    with pytest.raises(ValueError, match="Seals has no artifacts"):
        SelfPlayConfig(game="seals", artifact_deck=("scroll",))
    with pytest.raises(ValueError, match="n_players"):
        SelfPlayConfig(game="seals", n_players=5)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tiny Seals training run end to end (warm start, PPO, final tournament)."""
    from train.selfplay_run import run_selfplay

    cfg = _tiny(3, decisions=100, imitation_samples=60, imitation_epochs=1, games_in_flight=2)
    return run_selfplay(cfg, out=str(tmp_path_factory.mktemp("runs")), name="tiny", final_games=1,
                        workers=1, echo=lambda _: None)


def _play(agents, n_players, seed):
    game = SealsGame(SealsConfig(n_players=n_players), seed=seed)
    while not game.game_over:
        play = agents[game.current].act(SealsSeatView(game, game.current))
        assert play in game.legal_plays()
        game.apply(play)
    return game


def test_a_tiny_seals_run_writes_a_model_that_plays_legal_moves(tiny_run):
    net, mc = load_policy(tiny_run.model_path)
    assert (mc.game, mc.n_players, mc.artifact_deck, mc.feature_version) == ("seals", 3, (), "seals-play-features-v1")
    assert tiny_run.summary["train_decisions"] >= 100 and "imitation_accuracy" in tiny_run.summary
    assert tiny_run.paired and tiny_run.paired[0]["baseline"] == "heuristic"
    agent = make_agent(f"learned:{tiny_run.model_path}", game="seals")
    assert agent.game == "seals"
    assert _play([agent, make_agent("heuristic", game="seals"), make_agent("greedy", game="seals")], 3, 9).game_over
    _play([LearnedAgent(str(tiny_run.model_path), greedy=False, seed=1)] * 3, 3, seed=10)


def test_seers_eval_plays_a_seals_model(tiny_run):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["eval", "--game", "seals", "--agents",
                                      f"learned:{tiny_run.model_path},heuristic,heuristic", "--games", "2",
                                      "--seed", "3", "--workers", "1", "--baseline", "heuristic", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Seals: 2 deals x 3 seat rotations" in result.output and "vs heuristic" in result.output


def test_a_seals_model_is_refused_for_another_game_or_player_count(tiny_run):
    from agents.tournament import run_tournament
    from train.selfplay import initial_policy

    path = str(tiny_run.model_path)
    with pytest.raises(ModelConfigError, match=r"trained for Seals \('seals'\), not SCOUT"):
        make_agent(f"learned:{path}", game="scout")
    with pytest.raises(ModelConfigError, match=r"trained for Seals \('seals'\), not Seers Catalog"):
        make_agent(f"learned:{path}")
    with pytest.raises(ModelConfigError, match=r"trained for SCOUT \('scout'\), not Seals"):
        make_agent(f"learned:{shipped_model_path(4, 'scout')}", game="seals")
    agent = make_agent(f"learned:{path}", game="seals")
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 4"):
        run_tournament([agent] + ["heuristic"] * 3, games=1, workers=1, progress=False, game="seals")
    game = SealsGame(SealsConfig(n_players=2), seed=1)
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 2"):
        agent.act(SealsSeatView(game, game.current))
    with pytest.raises(ModelConfigError, match=r"game: trained 'seals' \(Seals\), used 'scout'"):
        initial_policy(SelfPlayConfig.for_game("scout", n_players=3, init_model=path))
    with pytest.raises(ModelConfigError, match="n_players: trained 3, used 4"):
        initial_policy(SelfPlayConfig.for_game("seals", n_players=4, init_model=path))


def test_init_model_continues_a_seals_run(tiny_run, tmp_path):
    from train.selfplay import initial_policy, train_selfplay

    net, cfg = initial_policy(_tiny(3, init_model=str(tiny_run.model_path)))
    assert cfg.hidden == 16 and cfg.imitation_samples == 0
    train_selfplay(_tiny(3, init_model=str(tiny_run.model_path), decisions=30, games_in_flight=2),
                   str(tmp_path / "more.pt"), log=lambda _: None)
    assert load_policy(tmp_path / "more.pt")[1].game == "seals"


def test_learned_spec_loads_the_shipped_seals_models(tmp_path, monkeypatch):
    import shutil

    import train.scoring_policy as scoring_policy

    counts = shipped_player_counts("seals")  # docs/models_seals.md: how each shipped model was trained
    for n in counts:
        net, mc = load_policy(shipped_model_path(n, "seals"))
        assert (mc.game, mc.n_players) == ("seals", n)
        agents = [make_agent("learned", game="seals")] + [make_agent("heuristic", game="seals")] * (n - 1)
        assert _play(agents, n, seed=4).game_over
        assert agents[0].path == shipped_model_path(n, "seals")
    # a table without a shipped model is refused, naming the counts that have one
    cfg = _tiny(4)
    from train.scoring_policy import save_policy

    save_policy(PlayScoringNet(cfg.net_config()), cfg.model_config(), tmp_path / "seals_learned_4p.pt")
    shutil.copy(shipped_model_path(4, "scout"), tmp_path / "scout_learned_4p.pt")
    monkeypatch.setattr(scoring_policy, "SHIPPED_DIR", str(tmp_path))
    assert shipped_player_counts("seals") == [4] and shipped_player_counts("scout") == [4]
    with pytest.raises(ModelConfigError, match=r"no shipped Seals play-scoring model for 3 players "
                                               r"\(shipped: \[4\] players\)"):
        make_agent("learned", game="seals").check_use(3, ())


def test_seers_train_game_seals_end_to_end(tmp_path):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["train", "--game", "seals", "--players", "2", "--decisions", "40",
                                      "--games-in-flight", "2", "--hidden", "16", "--final-games", "1",
                                      "--workers", "1", "--threads", "1", "--out", str(tmp_path), "--name", "cli"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "Seals, 2 players" in flat and "Learned agent vs 1 x heuristic" in flat
    net, mc = load_policy(tmp_path / "cli" / "model.pt")
    assert (mc.game, mc.n_players, net.cfg.hidden, net.cfg.embed) == ("seals", 2, 16, 8)
    bad = CliRunner().invoke(app, ["train", "--game", "seals", "--no-artifacts"])
    assert bad.exit_code != 0 and "Seals has no artifacts" in " ".join(bad.output.split())


def test_best_marks_is_the_best_listed_declaration():
    """``best_marks`` (a closed form on the features' hot path) equals the most Marks of every declaration
    ``moves.count_declarations`` lists, on random symbol counts (several runs and fours beside them)."""
    from seers_env.seals.features import best_marks
    from seers_env.seals.moves import count_declarations, mask_marks

    rng = np.random.default_rng(4)
    for high in (2, 3, 6):
        for _ in range(500):
            counts = [int(x) for x in rng.integers(0, high, 11)]
            assert best_marks(counts) == max(mask_marks(v) for v in count_declarations(counts)), counts
