"""Play-scoring features from the compiled kernel (seers_env.vector_features, SeersVectorEnv.play_features /
step_plays) equal the Python features of the same Game position, and whole plays step like Game.apply."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env import play_eval, vector_core
from seers_env.engine.kernel import HAND, S_CURRENT, S_OVER, KernelGames
from seers_env.features import PLAY_DIM, STATE_DIM, encode_state
from seers_env.game import Game, GameConfig
from seers_env.plays import PlayKind
from seers_env.vector import SeersVectorEnv, kernel_play_features, slot_seed
from seers_env.view import SeatView
from train.scoring_policy import HIDDEN_DIM, hidden_hands, play_rows


def _play_index(rng: np.random.Generator, legal) -> int:
    """A random legal play, with Rod pick-ups of non-empty tricks and Gifts favoured (so that hands grow
    past 30 cards and artifacts are spent)."""
    special = [j for j, p in enumerate(legal) if p.kind in (PlayKind.ROD, PlayKind.GIFT)]
    if special and rng.random() < 0.6:
        return special[int(rng.integers(len(special)))]
    return int(rng.integers(len(legal)))


@pytest.mark.parametrize("artifacts", [True, False])
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_kernel_features_equal_python_features_of_the_same_game(n_players, artifacts):
    deck = None if artifacts else ()
    config = GameConfig(n_players=n_players, n_rounds=4, **({} if artifacts else {"artifact_deck": deck}))
    n_games, seed = 6, 100 * n_players + artifacts
    games = [Game(config, seed=seed + g) for g in range(n_games)]
    kern = KernelGames(n_games, config)
    for g in range(n_games):
        kern.new_game(g, seed + g)
    rng = np.random.default_rng(seed)
    checked = rods = 0
    next_seed = seed + n_games
    while checked < 1000:
        for g in range(n_games):
            if games[g].game_over:  # a new game in the slot
                games[g] = Game(config, seed=next_seed)
                kern.new_game(g, next_seed)
                next_seed += 1
        slots = np.arange(n_games)
        feats = kernel_play_features(kern, slots, heuristic_prior=True)
        assert feats.states.dtype == np.float32 and feats.states.shape == (len(slots), STATE_DIM)
        assert feats.rows.dtype == np.float32 and feats.rows.shape[1] == PLAY_DIM + 1
        assert feats.hidden.shape == (len(slots), HIDDEN_DIM) and feats.offsets.dtype == np.int64
        for j, g in enumerate(slots.tolist()):
            game = games[g]
            seat = game.current
            view = SeatView(game, seat)
            legal = game.legal_plays()
            lo, hi = int(feats.offsets[j]), int(feats.offsets[j + 1])
            assert feats.seats[j] == seat
            np.testing.assert_array_equal(feats.keys[lo:hi], legal.keys)  # row i is play i
            assert np.array_equal(feats.states[j], encode_state(view))
            assert np.array_equal(feats.rows[lo:hi], play_rows(view, legal, True))
            assert np.array_equal(feats.hidden[j], hidden_hands(game, seat))
            checked += 1
            a = _play_index(rng, legal)
            rods += legal[a].kind == PlayKind.ROD and bool(game.trick)
            game.apply(legal[a])
            kern.apply(g, int(feats.keys[lo + a]))
            assert bool(kern.scal[g, S_OVER]) == game.game_over
            if not game.game_over:
                assert kern.hand(g, game.current) == game.hands[game.current]
    assert checked >= 1000
    if artifacts:
        assert rods > 0  # Rod pick-ups of non-empty tricks were among the positions


def test_prior_column_uses_the_given_heuristic_weights_and_can_be_left_out():
    config = GameConfig(n_players=4)
    kern = KernelGames(3, config)
    for g in range(3):
        kern.new_game(g, 5 + g)
    slots = np.arange(3)
    plain = kernel_play_features(kern, slots, heuristic_prior=False, hidden=False)
    assert plain.rows.shape[1] == PLAY_DIM and not plain.hidden.any()
    with_prior = kernel_play_features(kern, slots)
    np.testing.assert_array_equal(with_prior.rows[:, :PLAY_DIM], plain.rows)
    weights = dict(play_eval.HEURISTIC_DEFAULTS, card=3.0)
    other = kernel_play_features(kern, slots, heuristic_weights=weights)
    assert not np.array_equal(other.rows[:, -1], with_prior.rows[:, -1])
    with pytest.raises(KeyError, match="card"):
        kernel_play_features(kern, slots, heuristic_weights={"play": 1.0})


def test_kernel_play_features_rejects_bad_slots():
    kern = KernelGames(2, GameConfig(n_players=3))
    kern.new_game(0, 1)
    with pytest.raises(IndexError, match="slot 2 is out of range; allowed: 0 .. 1"):
        kernel_play_features(kern, [0, 2])
    with pytest.raises(IndexError, match="slot -1"):
        kernel_play_features(kern, [-1])
    with pytest.raises(ValueError, match="slot 1: the game is over"):
        kernel_play_features(kern, [1])  # never dealt
    with pytest.raises(ValueError, match="1-D array of integers"):
        kernel_play_features(kern, [0.5])


@pytest.mark.parametrize("n_players,reward_mode", [(4, "score"), (2, "win"), (5, "score")])
def test_step_plays_follows_game_apply_with_step_conventions(n_players, reward_mode):
    n_envs, seed = 3, 23
    venv = SeersVectorEnv(n_envs, n_players=n_players, n_rounds=1, reward_mode=reward_mode)
    twins = [SeersVectorEnv(1, n_players=n_players, n_rounds=1, reward_mode=reward_mode) for _ in range(n_envs)]
    obs, infos = venv.reset(seed=seed)
    for i, t in enumerate(twins):
        t.reset(seed=[slot_seed(seed, i)])  # slot i of venv, seeded alone
    # the games each slot plays: Game(config, seed) with the seeds the slot's generator draws (as reset())
    slot_rngs = [np.random.default_rng(slot_seed(seed, i)) for i in range(n_envs)]
    config = venv.config
    games = [Game(config, seed=int(r.integers(2**63 - 1))) for r in slot_rngs]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        feats = venv.play_features()
        assert feats.seats.tolist() == infos["seat"].tolist() == [g.current for g in games]
        idx = []
        for i, game in enumerate(games):
            legal = game.legal_plays()
            lo, hi = feats.offsets[i], feats.offsets[i + 1]
            np.testing.assert_array_equal(feats.keys[lo:hi], legal.keys)
            assert np.array_equal(feats.states[i], encode_state(SeatView(game, game.current)))
            idx.append(_play_index(rng, legal))
        keys = feats.keys.copy()
        feats.keys[:] = 0  # the caller's copy: the env kept its own
        acted = infos["seat"].copy()
        obs, rewards, term, trunc, infos = venv.step_plays(np.array(idx))
        # Gymnasium's (N,) rewards: the acting seat's; every seat's in infos["rewards"]
        assert rewards.shape == (n_envs,) and infos["rewards"].shape == (n_envs, n_players)
        np.testing.assert_array_equal(rewards, infos["rewards"][np.arange(n_envs), acted])
        # the same plays through catalogue actions (step) give the same step results
        for i, t in enumerate(twins):
            t_obs, t_rewards, t_term, _, t_infos = _play_by_actions(t, int(keys[feats.offsets[i] + idx[i]]))
            np.testing.assert_array_equal(obs["observation"][i], t_obs["observation"][0])
            np.testing.assert_array_equal(obs["action_mask"][i], t_obs["action_mask"][0])
            np.testing.assert_array_equal(rewards[i], t_rewards[0])
            np.testing.assert_array_equal(infos["rewards"][i], t_infos["rewards"][0])
            assert term[i] == t_term[0] and infos["seat"][i] == t_infos["seat"][0]
            np.testing.assert_array_equal(infos["totals"][i], t_infos["totals"][0])
        assert not trunc.any()
        for i, game in enumerate(games):
            result = game.apply(game.legal_plays()[idx[i]])
            if reward_mode == "score" and result.round_scores is not None:
                assert infos["rewards"][i].tolist() == list(result.round_scores)
            assert term[i] == game.game_over
            if game.game_over:
                ended += 1
                assert infos["totals"][i].tolist() == list(game.totals)
                games[i] = Game(config, seed=int(slot_rngs[i].integers(2**63 - 1)))  # autoreset
            else:
                assert not infos["rewards"][i].any() or result.round_scores is not None
    assert ended >= 2


def _play_by_actions(env: SeersVectorEnv, key: int):
    """Apply the play ``key`` in the one game of ``env`` through catalogue actions (``step``, one stage at
    a time, the codes of :func:`seers_env.vector_core.play_code`); returns the last step's results."""
    seat = int(env.kernel.scal[0, S_CURRENT])
    while True:
        stage = int(env._dec[0, vector_core.D_STAGE])
        out = env.step(np.array([vector_core.play_code(key, stage, seat, env.n_players)]))
        if env._dec[0, vector_core.D_NCHOSEN] == 0:  # the play is complete: a new decision is listed
            return out


def test_step_plays_rejects_bad_indices_and_changes_nothing():
    venv = SeersVectorEnv(2, n_players=3)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step_plays([0, 0])
    venv.reset(seed=4)
    feats = venv.play_features()
    counts = np.diff(feats.offsets)
    before = (venv.kernel.cards.copy(), venv.kernel.scal.copy())
    with pytest.raises(IndexError, match=rf"play index {counts[1]} of row 1 is out of range; allowed: 0 .. "
                                         rf"{counts[1] - 1}"):
        venv.step_plays(np.array([0, counts[1]]))
    with pytest.raises(IndexError, match="play index -1 of row 0"):
        venv.step_plays(np.array([-1, 0]))
    with pytest.raises(IndexError, match="row 0"):
        venv.step_plays(np.array([2**64 - 1, 0], dtype=np.uint64))
    with pytest.raises(ValueError, match="shape"):
        venv.step_plays(np.array([0]))
    with pytest.raises(TypeError, match="integer dtype"):
        venv.step_plays(np.array([0.0, 0.0]))
    assert np.array_equal(venv.kernel.cards, before[0]) and np.array_equal(venv.kernel.scal, before[1])
    np.testing.assert_array_equal(venv.play_features().states, feats.states)
    venv.step_plays(np.zeros(2, np.int64))  # still usable
    venv.close()
    with pytest.raises(RuntimeError, match="close"):
        venv.play_features()


def test_step_plays_refuses_a_catalogue_decision_in_progress():
    venv = SeersVectorEnv(1, n_players=4)
    venv.reset(seed=0)
    for _ in range(300):
        feats = venv.play_features(heuristic_prior=False, hidden=False)
        venv.step(np.array([vector_core.play_code(int(feats.keys[-1]), 0, int(feats.seats[0]), 4)]))
        if venv._dec[0, vector_core.D_NCHOSEN] > 0:  # the main code left a further stage to choose
            # play_features still answers, with the seat's full legal list: the partial choice is not applied
            mid = venv.play_features(heuristic_prior=False, hidden=False)
            for name in ("states", "rows", "offsets", "seats", "keys"):
                np.testing.assert_array_equal(getattr(mid, name), getattr(feats, name), err_msg=name)
            with pytest.raises(RuntimeError, match="middle of a catalogue decision"):
                venv.step_plays(np.array([0]))
            return
    pytest.skip("no multi-stage decision met")  # pragma: no cover
