"""The compiled SCOUT kernel (seers_env.scout.kernel) plays exactly as the engine (seers_env.scout.game):
the same legal plays in the same order, masks, observations, deals, scores, totals and round-end reasons."""

from __future__ import annotations

import numpy as np
import pytest

from scout_policies import POLICIES, random_config, random_states
from seers_env.scout import ScoutConfig, ScoutGame, ScoutPlay, ScoutSeatView
from seers_env.scout.cards import CARD_NUMBERS
from seers_env.scout.actions import N_ACTIONS, N_POSITIONS, SCOUT_SHOW_BASE, PendingScout, legal_action_mask
from seers_env.scout.kernel import (
    OUT_GAME_OVER, OUT_NOTHING, OUT_ROUND, S_PEND_END, S_PEND_FLIP, S_PEND_POS, S_STAGE, ScoutKernel,
    action_allowed, draw_game_deals, new_work, play_key, play_of_key, plays_of_keys, random_legal_actions,
    write_mask,
)
from seers_env.scout.observation import observe
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP


def _state(k: ScoutKernel) -> list[np.ndarray]:
    return [a.copy() for a in (k.hands, k.scouted, k.active, k.scal, k.scores, k.deals)]


def _set_pending(k: ScoutKernel, pending: PendingScout | None) -> None:
    k.scal[0, S_STAGE] = 0 if pending is None else 1
    if pending is not None:
        k.scal[0, S_PEND_END], k.scal[0, S_PEND_FLIP], k.scal[0, S_PEND_POS] = pending


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_kernel_legal_plays_masks_and_observations_equal_the_engine_on_random_states(n_players):
    """Thousands of reachable states (random configs; the hoarding policies grow hands past 20 cards)."""
    iw, big = new_work()
    mask = np.zeros(N_ACTIONS, np.int8)
    kern = None
    longest = scout_shows = checked = 0
    for t, game in enumerate(random_states(n_players, 2500, seed=10 + n_players)):
        if kern is None or kern.config != game.config:
            kern = ScoutKernel(1, game.config)
        kern.load_game(0, game)
        legal = game.legal_plays()
        assert kern.legal_plays(0) == legal  # same plays, same order
        keys = kern.legal_keys(0)
        assert np.all(np.diff(keys) > 0)  # keys sort as the play tuples
        assert plays_of_keys(keys).tolist() == [list(p) for p in legal]
        longest = max(longest, max(game.hand_sizes()))
        scout_shows += sum(p.kind == SCOUT_SHOW for p in legal)
        want = legal_action_mask(game)
        write_mask(kern.hands, kern.active, kern.scal, 0, mask, iw, big)
        np.testing.assert_array_equal(mask, want)
        seat = game.current
        for s in range(n_players):
            np.testing.assert_array_equal(kern.observe(0, s), observe(ScoutSeatView(game, s)))
        if t % 10 == 0:  # every action checked directly, also at stage 2 of a few Scout & Shows
            allowed = [action_allowed(kern.hands, kern.active, kern.scal, 0, a, iw, big) for a in range(N_ACTIONS)]
            assert np.array_equal(np.array(allowed, np.int8), want)
            firsts = np.flatnonzero(want[SCOUT_SHOW_BASE:SCOUT_SHOW_BASE + 4 * N_POSITIONS])
            for off in firsts[:: max(1, len(firsts) // 4)].tolist():
                pending = PendingScout(off // N_POSITIONS // 2, off // N_POSITIONS % 2, off % N_POSITIONS)
                want2 = legal_action_mask(game, pending)
                _set_pending(kern, pending)
                write_mask(kern.hands, kern.active, kern.scal, 0, mask, iw, big)
                np.testing.assert_array_equal(mask, want2)
                got = [action_allowed(kern.hands, kern.active, kern.scal, 0, a, iw, big) for a in range(N_ACTIONS)]
                assert np.array_equal(np.array(got, np.int8), want2)
                np.testing.assert_array_equal(kern.observe(0, seat, pending),
                                              observe(ScoutSeatView(game, seat), pending))
                _set_pending(kern, None)
                checked += 1
    assert longest >= (14 if n_players == 2 else 16)  # 2 players: 11 cards and 3 scouts at most
    assert n_players == 2 or (scout_shows > 0 and checked > 0)


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_kernel_equals_the_engine_with_hands_of_20_or_more(n_players):
    """The hoarding policies steer one seat to 20+ cards (long lists of Scout & Show pairs)."""
    iw, big = new_work()
    mask = np.zeros(N_ACTIONS, np.int8)
    policy = POLICIES["hoarder" if n_players == 3 else "greedy_hoarder"]
    config = ScoutConfig(n_players=n_players, max_turns_per_round=300)
    kern = ScoutKernel(1, config)
    found = 0
    for gi in range(40):
        rng = np.random.default_rng(gi)
        game = ScoutGame(config, seed=gi)
        while not game.game_over:
            if len(game.hand_faces(game.current)) >= 20:
                kern.load_game(0, game)
                assert kern.legal_plays(0) == game.legal_plays()
                write_mask(kern.hands, kern.active, kern.scal, 0, mask, iw, big)
                np.testing.assert_array_equal(mask, legal_action_mask(game))
                seat = game.current
                np.testing.assert_array_equal(kern.observe(0, seat), observe(ScoutSeatView(game, seat)))
                found += 1
            game.apply(policy(game, rng))
        if found >= 30:
            break
    assert found >= 30


def _long_shows(game, rng):
    """The longest show when there is one (so 2-player rounds end by going out too), else at random."""
    legal = game.legal_plays()
    shows = [p for p in legal if p.kind == SHOW]
    if shows and rng.random() < 0.9:
        return max(shows, key=lambda p: (p.length, rng.random()))
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_whole_random_games_equal_the_engine(n_players):
    """Kernel games dealt by the kernel from the same seeds, random configs (first player, flags, small turn
    caps for truncation) and random policies: the same plays, scores, totals, reasons and exempt seats."""
    rng = np.random.default_rng(n_players)
    reasons = set()
    for g in range(40):
        config = random_config(n_players, rng)
        policy = ([_long_shows] + list(POLICIES.values()))[g % (len(POLICIES) + 1)]
        seed = int(rng.integers(2**31))
        game = ScoutGame(config, seed=seed)
        kern = ScoutKernel(2, config)
        kern.new_game(1, seed)
        while not game.game_over:
            legal = game.legal_plays()
            assert kern.legal_plays(1) == legal
            play = policy(game, rng)
            result = game.apply(play)
            out = kern.apply(1, play)
            assert out == (OUT_GAME_OVER if result.game_over else OUT_ROUND if result.round_over else OUT_NOTHING)
            assert [kern.hand_faces(1, s) for s in range(n_players)] == \
                [game.hand_faces(s) for s in range(n_players)]
            assert kern.active_faces(1) == game.active_faces()
        assert kern.game_over(1) and kern.game_over(0)  # slot 0 was never dealt
        assert kern.round_scores(1) == game.round_scores
        assert kern.totals(1) == game.totals
        assert kern.round_end_reasons(1) == game.round_end_reasons
        assert kern.round_exempt(1) == game.round_exempt
        reasons |= set(game.round_end_reasons)
    assert reasons == {"a", "b", "truncated"}


@pytest.mark.parametrize("first_player", ["seat0", "random", "holder_of_1_2"])
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_deals_are_the_engines_draws(n_players, first_player):
    config = ScoutConfig(n_players=n_players, first_player=first_player)
    rng = np.random.default_rng(0)
    for seed in range(8):
        faces, first = draw_game_deals(n_players, first_player, np.random.default_rng(seed), config.n_rounds)
        game = ScoutGame(config, seed=seed)
        assert first == game.first_player_seat
        while not game.game_over:
            game.apply(POLICIES["uniform"](game, rng))
        deals = [e for e in game.events if e["event"] == "deal"]
        assert [e["round"] for e in deals] == list(range(config.n_rounds))
        size = config.setup.hand_size
        for e in deals:  # the engine's deal of each round, as it dealt it at the round's start
            dealt = faces[e["round"]]
            want = [[2 * c + (top != CARD_NUMBERS[c][0]) for c, top in hand] for hand in e["hands"]]
            assert want == [dealt[s * size:(s + 1) * size].tolist() for s in range(n_players)]


def test_loaded_mid_game_positions_go_on_as_the_engine():
    """load_game copies any engine state, and the later deals come from a copy of its generator."""
    rng = np.random.default_rng(5)
    for n_players in (2, 3, 4, 5):
        config = ScoutConfig(n_players=n_players, first_player="random")
        game = ScoutGame(config, seed=n_players)
        for _ in range(int(rng.integers(5, 60))):
            if game.phase == "play" and game.round > 0:
                break  # a later round: its deal came from the generator
            game.apply(POLICIES["uniform"](game, rng))
        kern = ScoutKernel(3, config)
        kern.load_game(2, game)
        before = game.to_dict()
        while not game.game_over:
            play = POLICIES["by_kind"](game, rng)
            game.apply(play)
            kern.apply(2, play)
            if not game.game_over:
                assert kern.legal_plays(2) == game.legal_plays()
        assert kern.round_scores(2) == game.round_scores and kern.totals(2) == game.totals
        assert ScoutGame.from_dict(before).to_dict() == before  # load_game left the game alone


def test_apply_refuses_illegal_plays_and_changes_nothing():
    config = ScoutConfig(n_players=4)
    kern = ScoutKernel(1, config)
    kern.new_game(0, 3)
    game = ScoutGame(config, seed=3)
    bad = [ScoutPlay.show(0, 1), ScoutPlay.scout(0, 0, 0), ScoutPlay(STOP), -5, 1 << 40, play_key((7, 0, 0, 0, 0, 0))]
    for play in bad:  # rotation phase: only keep / rotate
        snapshot = _state(kern)
        with pytest.raises(ValueError, match="not a legal play in slot 0"):
            kern.apply(0, play)
        assert all(np.array_equal(a, b) for a, b in zip(snapshot, _state(kern)))
    for _ in range(4):
        kern.apply(0, ScoutPlay(KEEP))
        game.apply(ScoutPlay(KEEP))
    hand = game.hand_values(game.current)
    for play in (ScoutPlay.scout(0, 0, 0), ScoutPlay.show(0, len(hand) + 1), ScoutPlay(ROTATE),
                 ScoutPlay.scout_show(0, 0, 0, 0, 1), ScoutPlay.show(0, 45)):
        assert not game.is_legal(play)
        snapshot = _state(kern)
        with pytest.raises(ValueError):
            kern.apply(0, play)
        assert all(np.array_equal(a, b) for a, b in zip(snapshot, _state(kern)))
    with pytest.raises(IndexError, match="slot index 1"):
        kern.apply(1, ScoutPlay.show(0, 1))
    with pytest.raises(TypeError):
        kern.legal_keys(True)


def test_kernel_config_and_load_errors():
    with pytest.raises(ValueError, match="num_games"):
        ScoutKernel(0)
    with pytest.raises(TypeError, match="ScoutConfig"):
        ScoutKernel(1, {"n_players": 4})
    kern = ScoutKernel(1, ScoutConfig(n_players=3))
    with pytest.raises(ValueError, match="config"):
        kern.load_game(0, ScoutGame(ScoutConfig(n_players=4), seed=0))
    with pytest.raises(ValueError, match="seed"):
        kern.new_game(0, -1)
    assert kern.game_over(0) and kern.legal_plays(0) == []  # never dealt
    assert kern.round_scores(0) == [] and kern.round_end_reasons(0) == [] and kern.totals(0) == [0, 0, 0]


def test_play_keys_sort_as_play_tuples_and_round_trip():
    rng = np.random.default_rng(0)
    plays = [ScoutPlay(KEEP), ScoutPlay(ROTATE), ScoutPlay(STOP)]
    for _ in range(500):
        kind = int(rng.choice([SHOW, SCOUT, SCOUT_SHOW]))
        e, f, p, s, L = (int(x) for x in rng.integers(0, [2, 2, 46, 45, 46]))
        plays.append(ScoutPlay(kind, e, f, p, s, max(L, 1)) if kind == SCOUT_SHOW else
                     ScoutPlay.scout(e, f, p) if kind == SCOUT else ScoutPlay.show(s, max(L, 1)))
    keys = [play_key(p) for p in plays]
    assert [play_of_key(k) for k in keys] == plays
    assert sorted(plays) == [play_of_key(k) for k in sorted(keys)]


def test_random_legal_actions_pick_allowed_actions_uniformly_and_check_inputs():
    masks = np.zeros((3, N_ACTIONS), np.int8)
    masks[0, [5, 700, 2395]] = 1
    masks[2, 2025] = 1
    got = random_legal_actions(masks, np.array([0.0, 0.5, 0.99]))
    assert got.tolist() == [5, -1, 2025]
    assert random_legal_actions(masks, np.array([0.34, 0.1, 0.1]))[0] == 700
    assert random_legal_actions(masks, np.array([0.999, 0.1, 0.1]))[0] == 2395
    with pytest.raises(ValueError, match="row 1"):
        random_legal_actions(masks, np.array([0.1, 1.0, 0.1]))
    masks[2, 3] = 2
    with pytest.raises(ValueError, match="row 2"):
        random_legal_actions(masks, np.array([0.1, 0.1, 0.1]))
    with pytest.raises(TypeError):
        random_legal_actions(masks.astype(np.int64), np.zeros(3))
    with pytest.raises(ValueError, match="shape"):
        random_legal_actions(masks, np.zeros(2))
