"""The play-scoring learner on Haggis: the features, the engine actor, the adapter, model files that record
their game, the ``learned`` spec, ``seers train --game haggis`` and ``seers eval --game haggis``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.haggis import HaggisHeuristicAgent  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisPlay, HaggisSeatView  # noqa: E402
from seers_env.haggis.cards import SETUP, card_points, face_card, faces_of, number_card  # noqa: E402
from seers_env.haggis.features import (PLAY_DIM, PLAY_LAYOUT, STATE_DIM, STATE_LAYOUT, encode_plays,  # noqa: E402
                                       encode_state)
from seers_env.haggis.plays import BET, BOMB, PASS, SET  # noqa: E402
from train.engine_actor import EngineActor, engine_teacher_samples  # noqa: E402
from train.game_adapters import game_adapter  # noqa: E402
from train.model_config import ModelConfigError  # noqa: E402
from train.scoring_policy import (LearnedAgent, PlayScoringNet, load_policy, sample_index,  # noqa: E402
                                  shipped_model_path, shipped_player_counts)
from train.selfplay import SelfPlayConfig, _Rollout, concat_batches, forward_stacked  # noqa: E402

C, D, H, S = range(4)
J, Q, K = 11, 12, 13


def _tiny(n_players=2, **kw) -> SelfPlayConfig:
    base = dict(n_players=n_players, games_in_flight=2, hidden=16, embed=8, actors=0, threads=1,
                precision="float32")
    return SelfPlayConfig.for_game("haggis", **{**base, **kw})


def _part(vec, layout, name, *, row=None):
    o, n = layout[name]
    if row is not None:
        return vec[row, o:o + n]
    return vec[..., o:o + n]


def _known_position():
    """2 players. Seat 0 (to act, bet 0) holds 3c 3d 5c 6c 7c 8c 9h and its J Q K and has captured 7d;
    seat 1 (bet 15) holds 2c 2d 10s and its J Q K and led the pair 4h 4s; 8 cards in the Haggis, the rest
    in seat 1's captures."""
    mine = [number_card(s, r) for s, r in ((C, 3), (D, 3), (C, 5), (C, 6), (C, 7), (C, 8), (H, 9))]
    theirs = [number_card(C, 2), number_card(D, 2), number_card(S, 10)]
    trick = [number_card(H, 4), number_card(S, 4)]
    cap0 = [number_card(D, 7)]
    used = set(mine + theirs + trick + cap0)
    rest = [c for c in SETUP[2].number_cards if c not in used]
    haggis, cap1 = rest[:8], rest[8:]
    game = HaggisGame.from_position(
        HaggisConfig(n_players=2), hands=[mine + list(faces_of(0)), theirs + list(faces_of(1))], haggis=haggis,
        current=0, bets=[0, 15], trick=[(1, HaggisPlay.set_of(trick))], captured=[cap0, cap1], round_leader=1)
    return game, mine, theirs, haggis, cap1


# --- features ---------------------------------------------------------------------------------------

def test_state_features_of_a_known_position():
    game, mine, theirs, haggis, cap1 = _known_position()
    x = encode_state(HaggisSeatView(game, 0))
    assert x.shape == (STATE_DIM,) and x.dtype == np.float32
    hand = _part(x, STATE_LAYOUT, "hand")
    assert sorted(np.flatnonzero(hand).tolist()) == sorted(mine)
    assert _part(x, STATE_LAYOUT, "hand_ranks").tolist() == pytest.approx([0, .4, 0, .2, .2, .2, .2, .2, 0])
    assert _part(x, STATE_LAYOUT, "hand_suits").tolist() == pytest.approx([5 / 9, 1 / 9, 1 / 9, 0, 0])
    assert _part(x, STATE_LAYOUT, "own_wilds").tolist() == [1, 1, 1]
    seats = _part(x, STATE_LAYOUT, "seats").reshape(3, -1)
    assert seats[0, :2].tolist() == pytest.approx([10 / 17, 7 / 14])
    assert seats[0, 2:5].tolist() == [1, 1, 1] and seats[0, 5:9].tolist() == [0, 1, 0, 0]  # bet 0
    assert seats[0, 9] == pytest.approx(1 / 50)  # 7d: one point
    assert seats[0, 14:].tolist() == [0, 1]  # not the top's player, present
    assert seats[1, :2].tolist() == pytest.approx([6 / 17, 3 / 14]) and seats[1, 5:9].tolist() == [0, 0, 1, 0]
    assert seats[1, 9] == pytest.approx(sum(card_points(c) for c in cap1) / 50) and seats[1, 14] == 1
    assert not seats[2].any()  # no third seat
    unseen = _part(x, STATE_LAYOUT, "unseen")
    assert sorted(np.flatnonzero(unseen).tolist()) == sorted(theirs + haggis)  # the captures were seen
    assert unseen[number_card(4, 5)] == 0  # the blue suit is out of play with 2 players
    assert _part(x, STATE_LAYOUT, "haggis_size")[0] == 1.0
    assert _part(x, STATE_LAYOUT, "top").tolist() == pytest.approx([0, 1, 0, 0, 2 / 8, 0, 4 / 13, 0])
    assert _part(x, STATE_LAYOUT, "trick").tolist() == pytest.approx([0, 2 / 20, 0])  # 4s have no points
    assert _part(x, STATE_LAYOUT, "stage").tolist() == [0, 0, 1]
    assert _part(x, STATE_LAYOUT, "n_players").tolist() == [1, 0]
    # seat 1's view: relative seats rotate, it is not to act, and it never sees seat 0's number cards
    y = encode_state(HaggisSeatView(game, 1))
    assert np.array_equal(_part(y, STATE_LAYOUT, "seats").reshape(3, -1)[1], seats[0])
    assert not _part(y, STATE_LAYOUT, "stage").any()
    assert sorted(np.flatnonzero(_part(y, STATE_LAYOUT, "unseen")).tolist()) == sorted(mine + haggis)


def test_play_rows_of_a_known_position():
    game, mine, *_ = _known_position()
    view = HaggisSeatView(game, 0)
    legal = view.legal_plays()
    rows = encode_plays(view, legal)
    assert rows.shape == (len(legal), PLAY_DIM) and rows.dtype == np.float32
    index = {p: i for i, p in enumerate(legal)}
    p_pass = index[HaggisPlay.pass_()]
    five_j = index[HaggisPlay.set_of([number_card(C, 5), face_card(0, J)])]
    jq = index[HaggisPlay.bomb([face_card(0, J), face_card(0, Q)])]
    assert HaggisPlay.set_of([number_card(C, 3), number_card(D, 3)]) not in index  # 3s do not beat 4s
    assert _part(rows, PLAY_LAYOUT, "kind", row=p_pass).tolist() == [1, 0, 0, 0, 0]
    assert _part(rows, PLAY_LAYOUT, "left", row=p_pass)[0] == pytest.approx(10 / 17)
    assert _part(rows, PLAY_LAYOUT, "singles_left", row=p_pass)[0] == pytest.approx(5 / 9)  # 5, 6, 7, 8, 9
    assert _part(rows, PLAY_LAYOUT, "trick_points", row=p_pass)[0] == 0
    r = five_j
    assert _part(rows, PLAY_LAYOUT, "kind", row=r).tolist() == [0, 0, 1, 0, 0]
    assert _part(rows, PLAY_LAYOUT, "wilds", row=r).tolist() == [1, 0, 0]
    assert _part(rows, PLAY_LAYOUT, "shape", row=r).tolist() == pytest.approx([2 / 8, 0, 0, 5 / 13])
    assert _part(rows, PLAY_LAYOUT, "ranks", row=r)[3] == pytest.approx(0.2)
    assert _part(rows, PLAY_LAYOUT, "points", row=r)[0] == pytest.approx(0.3)  # 5: 1 point, J: 2
    assert _part(rows, PLAY_LAYOUT, "trick_points", row=r)[0] == pytest.approx(3 / 20)
    assert _part(rows, PLAY_LAYOUT, "left_wilds", row=r)[0] == pytest.approx(2 / 3)
    assert _part(rows, PLAY_LAYOUT, "margin", row=r)[0] == pytest.approx(1 / 13)
    assert _part(rows, PLAY_LAYOUT, "split", row=r)[0] == 0 and _part(rows, PLAY_LAYOUT, "goes_out", row=r)[0] == 0
    assert _part(rows, PLAY_LAYOUT, "kind", row=jq).tolist() == [0, 0, 0, 0, 1]
    assert _part(rows, PLAY_LAYOUT, "bomb", row=jq)[0] == pytest.approx(2 / 6)  # J-Q: the second bomb
    assert not _part(rows, PLAY_LAYOUT, "shape", row=jq).any() and _part(rows, PLAY_LAYOUT, "margin", row=jq)[0] == 0
    # a hand-made list (not the game's) gives the same rows, shapes from the cards
    picked = [legal[five_j], legal[jq], HaggisPlay.set_of([number_card(C, 3), number_card(D, 3)])]
    rows2 = encode_plays(view, picked)
    assert np.array_equal(rows2[:2], rows[[five_j, jq]])
    assert _part(rows2, PLAY_LAYOUT, "split", row=2)[0] == 0 and _part(rows2, PLAY_LAYOUT, "left_ranks", row=2)[1] == 0
    with pytest.raises(ValueError, match="does not hold"):
        encode_plays(view, [HaggisPlay.set_of([number_card(C, 2)])])
    with pytest.raises(ValueError, match="no combination"):
        encode_plays(view, [HaggisPlay.set_of([number_card(C, 5), number_card(C, 6)])])


def test_bet_rows_going_out_and_splits():
    game = HaggisGame(HaggisConfig(n_players=3), seed=5)
    view = HaggisSeatView(game, game.current)
    legal = view.legal_plays()
    assert [p.kind for p in legal] == [BET] * 3
    rows = encode_plays(view, legal)
    assert _part(rows, PLAY_LAYOUT, "kind").tolist() == [[0, 1, 0, 0, 0]] * 3
    assert _part(rows, PLAY_LAYOUT, "bet").tolist() == np.eye(3).tolist()
    assert _part(encode_state(view), STATE_LAYOUT, "stage").tolist() == [1, 0, 0]
    assert _part(encode_state(view), STATE_LAYOUT, "n_players").tolist() == [0, 1]
    # leading with 5c 5d 6c and a King: the pair of 5s splits nothing, a lone 5 splits the 5s
    hand = [number_card(C, 5), number_card(D, 5), number_card(C, 6), face_card(0, K)]
    lead = HaggisGame.from_position(HaggisConfig(n_players=2), hands=[hand, [number_card(S, 9), face_card(1, J)]],
                                    captured=[[face_card(1, Q), face_card(1, K)], [face_card(0, J), face_card(0, Q)]],
                                    current=0)
    v = HaggisSeatView(lead, 0)
    legal = v.legal_plays()
    rows = encode_plays(v, legal)
    index = {p: i for i, p in enumerate(legal)}
    single = index[HaggisPlay.set_of([number_card(C, 5)])]
    pair = index[HaggisPlay.set_of([number_card(C, 5), number_card(D, 5)])]
    out = index[HaggisPlay.seq(hand, 2)]  # 5-5, 6-K: a 2-wide sequence of all four cards
    assert _part(rows, PLAY_LAYOUT, "split", row=single)[0] == pytest.approx(1 / 9)
    assert _part(rows, PLAY_LAYOUT, "split", row=pair)[0] == 0
    assert _part(rows, PLAY_LAYOUT, "goes_out", row=out)[0] == 1
    assert _part(rows, PLAY_LAYOUT, "goes_out").sum() == 1
    assert _part(rows, PLAY_LAYOUT, "shape", row=out).tolist() == pytest.approx([0, 2 / 5, 2 / 12, 6 / 13])
    assert _part(encode_state(v), STATE_LAYOUT, "stage").tolist() == [0, 1, 0]
    assert not _part(rows, PLAY_LAYOUT, "margin").any()  # leading: no margin


def test_play_rows_add_the_heuristic_score_and_privileged_shows_the_hidden_cards():
    adapter = game_adapter("haggis")
    game, mine, theirs, haggis, _ = _known_position()
    view = HaggisSeatView(game, 0)
    legal = view.legal_plays()
    rows = adapter.play_rows(view, legal, True)
    assert rows.shape == (len(legal), PLAY_DIM + 1)
    assert rows[:, -1].tolist() == pytest.approx([s for s, _ in HaggisHeuristicAgent().scores(view)])
    with pytest.raises(ValueError, match="legal plays"):
        adapter.play_rows(view, legal[:2], True)
    priv = adapter.privileged(game, 0)
    assert priv.shape == (adapter.privileged_dim,) == (153,)
    assert sorted(np.flatnonzero(priv[:45]).tolist()) == sorted(theirs)
    assert priv[45:54].sum() == pytest.approx(3 / 5) and not priv[54:108].any()  # no third seat
    assert sorted(np.flatnonzero(priv[108:]).tolist()) == sorted(haggis)
    assert sorted(np.flatnonzero(adapter.privileged(game, 1)[:45]).tolist()) == sorted(mine)
    three = HaggisGame(HaggisConfig(n_players=3), seed=2)
    p = adapter.privileged(three, 1)
    for r, s in ((0, 2), (1, 0)):  # relative seats 1, 2 of seat 1
        assert sorted(np.flatnonzero(p[54 * r:54 * r + 45]).tolist()) == [c for c in three.hand(s) if c < 45]
    assert sorted(np.flatnonzero(p[108:]).tolist()) == three.haggis


# --- the engine actor --------------------------------------------------------------------------------

def _reference_rollouts(cfg, seed, net, rollouts):
    """A plain loop over HaggisGame objects drawing from one generator in the actor's order: the batches
    the engine actor must give."""
    adapter = game_adapter("haggis")
    rng = np.random.default_rng(seed)
    n_games, n = cfg.games_in_flight, cfg.n_players
    seeds = [int(rng.integers(2**62)) for _ in range(n_games)]
    baseline_agent = make_agent(cfg.baseline, seed=int(rng.integers(2**31)), game="haggis") \
        if cfg.baseline_seats > 0 else None
    games = [HaggisGame(HaggisConfig(n_players=n, n_rounds=1), seed=s) for s in seeds]
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
            assert result.game_over  # one round per game
            games[g] = HaggisGame(HaggisConfig(n_players=n, n_rounds=1), seed=int(rng.integers(2**62)))
            return False

        active = list(range(n_games))
        while active:
            still, waiting = [], []
            for g in active:
                game = games[g]
                view = HaggisSeatView(game, game.current)
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


@pytest.mark.parametrize("n_players,baseline_seats", [(2, 0.0), (3, 0.5)])
def test_engine_actor_gives_the_batches_of_a_plain_loop(n_players, baseline_seats):
    # greedy baseline seats and no prior keep it fast (the prior is checked above)
    cfg = _tiny(n_players, baseline_seats=baseline_seats, baseline="greedy", heuristic_prior=False)
    torch.manual_seed(3)
    net = PlayScoringNet(cfg.net_config())
    actor = EngineActor(cfg, 7, net)
    got = concat_batches([actor.collect() for _ in range(2)])
    want = _reference_rollouts(cfg, 7, net, 2)
    assert len(got) > 10
    for field in ("states", "hidden", "plays", "offsets", "actions", "logp", "values", "rewards", "done", "traj"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
    assert actor.rounds_played == 2 * cfg.games_in_flight
    assert got.states.shape == (len(got), STATE_DIM) and got.plays.shape == (got.offsets[-1], PLAY_DIM)
    assert got.hidden.shape == (len(got), 153)
    assert np.diff(got.offsets).min() >= 2  # forced decisions are not samples
    if baseline_seats == 0:  # every seat learns: each round's rewards cancel out
        assert abs(float(got.rewards.sum())) < 1e-4


def test_teacher_samples_are_the_heuristics_plays_with_the_round_rewards():
    cfg = _tiny(2, teacher="heuristic")
    batch = engine_teacher_samples(cfg, 30, seed=4)
    assert len(batch) >= 30
    for i in range(len(batch)):  # the heuristic teacher's play has the top prior score
        rows = batch.plays[batch.offsets[i]:batch.offsets[i + 1]]
        assert rows[batch.actions[i], -1] == rows[:, -1].max()
    # a round's reward: the seat's points minus the other's, / 20 points (whole points)
    assert np.allclose(batch.rewards * 20, np.round(batch.rewards * 20), atol=1e-4)
    assert batch.rewards.max() > 0 > batch.rewards.min()
    bets = batch.plays[batch.offsets[:-1], PLAY_LAYOUT["kind"][0] + 1]
    assert bets.any() and not bets.all()  # bets are decisions of their own


def test_untrained_residual_policy_plays_haggis_like_the_heuristic():
    cfg = _tiny(3)
    learned = LearnedAgent((PlayScoringNet(cfg.net_config()), cfg.model_config()))
    heuristic = HaggisHeuristicAgent()
    game = HaggisGame(HaggisConfig(n_players=3, n_rounds=1), seed=21)
    for _ in range(20):
        if game.game_over:
            break
        view = HaggisSeatView(game, game.current)
        play = learned.act(view)
        scores = dict((p, s) for s, p in heuristic.scores(view))
        assert scores[play] == pytest.approx(max(scores.values()), abs=1e-4)
        game.apply(play)


# --- configuration, model files, the agent and the spec -------------------------------------------------

def test_haggis_configuration_plays_one_round_and_has_its_own_defaults():
    from train.selfplay import GAME_DEFAULTS

    cfg = SelfPlayConfig.for_game("haggis", n_players=3)
    assert cfg.game == "haggis" and cfg.artifact_deck == ()
    assert cfg.game_config() == HaggisConfig(n_players=3, n_rounds=1)
    for key, value in GAME_DEFAULTS["haggis"].items():
        assert getattr(cfg, key) == value, key
    net = cfg.net_config()
    assert (net.state_dim, net.play_dim, net.privileged_dim) == (STATE_DIM, PLAY_DIM, 153)
    assert cfg.model_config().feature_version == "haggis-play-features-v1"
    assert game_adapter("haggis").final_rounds == 1
    with pytest.raises(ValueError, match="Haggis has no artifacts"):
        SelfPlayConfig(game="haggis", artifact_deck=("scroll",))
    with pytest.raises(ValueError, match="n_players"):
        SelfPlayConfig(game="haggis", n_players=4)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tiny Haggis training run end to end (warm start, PPO, final tournament)."""
    from train.selfplay_run import run_selfplay

    cfg = _tiny(2, decisions=30, imitation_samples=10, imitation_epochs=1)
    return run_selfplay(cfg, out=str(tmp_path_factory.mktemp("runs")), name="tiny", final_games=1,
                        workers=1, echo=lambda _: None)


def _play(agents, n_players, seed):
    game = HaggisGame(HaggisConfig(n_players=n_players, n_rounds=1), seed=seed)
    while not game.game_over:
        play = agents[game.current].act(HaggisSeatView(game, game.current))
        assert play in game.legal_plays()
        game.apply(play)
    return game


def test_a_tiny_haggis_run_writes_a_model_that_plays_legal_moves(tiny_run):
    net, mc = load_policy(tiny_run.model_path)
    assert (mc.game, mc.n_players, mc.artifact_deck, mc.feature_version) == ("haggis", 2, (), "haggis-play-features-v1")
    assert tiny_run.summary["train_decisions"] >= 30 and "imitation_accuracy" in tiny_run.summary
    assert tiny_run.paired and tiny_run.paired[0]["baseline"] == "heuristic"
    agent = make_agent(f"learned:{tiny_run.model_path}", game="haggis")
    assert agent.game == "haggis"
    assert _play([agent, make_agent("greedy", game="haggis")], 2, 9).game_over
    _play([LearnedAgent(str(tiny_run.model_path), greedy=False, seed=1)] * 2, 2, seed=10)


def test_seers_eval_plays_a_haggis_model(tiny_run):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["eval", "--game", "haggis", "--agents", f"learned:{tiny_run.model_path},greedy",
                                      "--rounds", "1", "--games", "2", "--seed", "3", "--workers", "1",
                                      "--baseline", "greedy", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Haggis: 2 deals x 2 seat rotations" in result.output and "vs greedy" in result.output


def test_a_haggis_model_is_refused_for_another_game_or_player_count(tiny_run):
    from agents.tournament import run_tournament
    from train.selfplay import initial_policy

    path = str(tiny_run.model_path)
    with pytest.raises(ModelConfigError, match=r"trained for Haggis \('haggis'\), not SCOUT"):
        make_agent(f"learned:{path}", game="scout")
    with pytest.raises(ModelConfigError, match=r"trained for Haggis \('haggis'\), not Seals"):
        make_agent(f"learned:{path}", game="seals")
    with pytest.raises(ModelConfigError, match=r"trained for SCOUT \('scout'\), not Haggis"):
        make_agent(f"learned:{shipped_model_path(2, 'scout')}", game="haggis")
    agent = make_agent(f"learned:{path}", game="haggis")
    with pytest.raises(ModelConfigError, match="n_players: trained 2, used 3"):
        run_tournament([agent, "greedy", "greedy"], games=1, workers=1, progress=False, game="haggis", n_rounds=1)
    game = HaggisGame(HaggisConfig(n_players=3), seed=1)
    with pytest.raises(ModelConfigError, match="n_players: trained 2, used 3"):
        agent.act(HaggisSeatView(game, game.current))
    with pytest.raises(ModelConfigError, match=r"game: trained 'haggis' \(Haggis\), used 'seals'"):
        initial_policy(SelfPlayConfig.for_game("seals", n_players=2, init_model=path))
    with pytest.raises(ModelConfigError, match="n_players: trained 2, used 3"):
        initial_policy(SelfPlayConfig.for_game("haggis", n_players=3, init_model=path))


def test_learned_spec_loads_the_shipped_haggis_models(tmp_path, monkeypatch):
    import shutil

    import train.scoring_policy as scoring_policy
    from train.scoring_policy import save_policy

    counts = shipped_player_counts("haggis")  # docs/models_haggis.md: how each shipped model was trained
    for n in counts:
        net, mc = load_policy(shipped_model_path(n, "haggis"))
        assert (mc.game, mc.n_players) == ("haggis", n)
        agents = [make_agent("learned", game="haggis")] + [make_agent("greedy", game="haggis")] * (n - 1)
        assert _play(agents, n, seed=4).game_over
        assert agents[0].path == shipped_model_path(n, "haggis")
    # a table without a shipped model is refused, naming the counts that have one
    cfg = _tiny(3)
    save_policy(PlayScoringNet(cfg.net_config()), cfg.model_config(), tmp_path / "haggis_learned_3p.pt")
    shutil.copy(shipped_model_path(2, "scout"), tmp_path / "scout_learned_2p.pt")
    monkeypatch.setattr(scoring_policy, "SHIPPED_DIR", str(tmp_path))
    assert shipped_player_counts("haggis") == [3] and shipped_player_counts("scout") == [2]
    with pytest.raises(ModelConfigError, match=r"no shipped Haggis play-scoring model for 2 players "
                                               r"\(shipped: \[3\] players\)"):
        make_agent("learned", game="haggis").check_use(2, ())


def test_seers_train_game_haggis_end_to_end(tmp_path):
    from typer.testing import CliRunner

    from seers_cli import app

    result = CliRunner().invoke(app, ["train", "--game", "haggis", "--players", "2", "--decisions", "20",
                                      "--games-in-flight", "2", "--hidden", "16", "--final-games", "1",
                                      "--workers", "1", "--threads", "1", "--out", str(tmp_path), "--name", "cli"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "Haggis, 2 players" in flat and "Learned agent vs 1 x heuristic" in flat
    net, mc = load_policy(tmp_path / "cli" / "model.pt")
    assert (mc.game, mc.n_players, net.cfg.hidden, net.cfg.embed) == ("haggis", 2, 16, 8)
    bad = CliRunner().invoke(app, ["train", "--game", "haggis", "--no-artifacts"])
    assert bad.exit_code != 0 and "Haggis has no artifacts" in " ".join(bad.output.split())
