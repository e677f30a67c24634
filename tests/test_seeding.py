"""Streams derived from one seed (``seers_env.seeding``): neighbouring seeds share no game, in the vector
env and the SB3 training environments (RLlib's env runners: ``tests/test_rllib.py``); one slot replays as a
single AEC game; the tournaments' deals and results are unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env.engine.kernel import HAND
from seers_env.seeding import check_seed, child_seed, spawn_seeds
from seers_env.seers_catalog_v0 import raw_env
from seers_env.vector import SeersVectorEnv, slot_seed
from seers_env.vector_core import random_legal_actions


def _slot_hands(venv: SeersVectorEnv) -> list[bytes]:
    """The dealt hands of every slot's first round (every seat), one key per slot."""
    n = venv.n_players
    return [venv.kernel.cards[i, HAND:HAND + n].tobytes() for i in range(venv.num_envs)]


def test_child_seeds_are_the_seed_sequence_spawn():
    for seed in (0, 1, 2**40):
        kids = np.random.SeedSequence(seed).spawn(5)
        assert spawn_seeds(seed, 5) == [int(k.generate_state(1, np.uint64)[0]) for k in kids]
        assert spawn_seeds(seed, 3) == spawn_seeds(seed, 5)[:3]  # a prefix is stable
        assert child_seed(seed, 1, 2, bits=32) == int(kids[1].spawn(3)[2].generate_state(1, np.uint32)[0])
    assert 0 <= child_seed(3, 0, bits=32) < 2**32
    # different paths are different streams, also when one is the other with a zero appended
    seeds = {child_seed(0, 1), child_seed(0, 1, 0), child_seed(0, 0, 1), child_seed(1, 0), child_seed(0, 0)}
    assert len(seeds) == 5
    for bad in (-1, 1.5, True, "3", None):
        with pytest.raises(ValueError, match="is not allowed; use an integer >= 0"):
            check_seed(bad)
    with pytest.raises(ValueError, match="path index=-1"):
        child_seed(0, -1)
    with pytest.raises(ValueError, match="bits=16"):
        child_seed(0, 1, bits=16)


def test_neighbouring_seeds_share_no_slot_game():
    """``seed + i`` gave seed 0's slot 1 the games of seed 1's slot 0: now no slot of seeds 0, 1, 2 deals
    another slot's hands."""
    venv = SeersVectorEnv(4)
    hands = []
    for seed in (0, 1, 2):
        venv.reset(seed=seed)
        hands += _slot_hands(venv)
    assert len(set(hands)) == len(hands) == 12


def test_a_slot_is_the_same_for_every_num_envs_and_its_seeds_are_listed():
    small, big = SeersVectorEnv(2), SeersVectorEnv(5)
    small.reset(seed=11)
    big.reset(seed=11)
    assert _slot_hands(small) == _slot_hands(big)[:2]
    assert big.slot_seeds(11) == [slot_seed(11, i) for i in range(5)] == spawn_seeds(11, 5)
    seeded = SeersVectorEnv(2)
    seeded.reset(seed=big.slot_seeds(11)[3:5])  # a list seeds each slot directly
    assert _slot_hands(seeded) == _slot_hands(big)[3:5]


@pytest.mark.parametrize("seed", [0, 1])
def test_slot_seed_reproduces_each_slot_as_a_raw_env_game(seed):
    """The documented mapping: ``raw_env().reset(seed=slot_seed(seed, i))`` plays slot ``i``'s games
    (observations, masks and rewards equal for 300 steps, across the autoreset)."""
    n_envs = 3
    venv = SeersVectorEnv(n_envs, n_players=3, n_rounds=1)
    envs = [raw_env(n_players=3, n_rounds=1) for _ in range(n_envs)]
    obs, _ = venv.reset(seed=seed)
    for i, e in enumerate(envs):
        e.reset(seed=slot_seed(seed, i))
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(300):
        for i, e in enumerate(envs):
            o = e.observe(e.agent_selection)
            np.testing.assert_array_equal(obs["observation"][i], o["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])
        actions = random_legal_actions(obs["action_mask"], rng.random(n_envs))
        obs, rewards, term, _, infos = venv.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            np.testing.assert_array_equal(infos["rewards"][i], [e.rewards[a] for a in e.possible_agents])
            if term[i]:
                assert all(e.terminations.values())
                ended += 1
                e.reset()
    assert ended >= 1


def test_bad_vector_seeds_are_refused():
    venv = SeersVectorEnv(2)
    for bad in (-1, True, 1.5, "3", [0], [0, -1], [0, 1, 2], {"a": 1}):
        with pytest.raises(ValueError, match="seed"):
            venv.reset(seed=bad)
    with pytest.raises(ValueError, match=r"seed\[1\]=-1"):
        venv.reset(seed=[0, -1])
    venv.reset(seed=[3, None])  # None entries: fresh entropy for that slot
    with pytest.raises(ValueError, match="seed=-2"):
        venv.slot_seeds(-2)


def test_tournament_deals_and_results_are_unchanged():
    """``deal_seeds`` already drew from ``SeedSequence(seed)``: the deals and the games are as before."""
    from agents.tournament import deal_seeds, run_tournament

    assert deal_seeds(7, 3) == [16920295385781661272, 610735763742393210, 7078124019849193311]
    result = run_tournament(["heuristic", "random", "greedy"], games=2, seed=7, workers=1, n_rounds=1)
    assert [g["totals"] for g in result.games] == [[0, -7, 0], [6, 0, -10], [-2, 7, 0], [10, -2, 0],
                                                   [0, -6, -2], [8, 12, 0]]
    with pytest.raises(ValueError, match="seed=-1"):
        run_tournament(["random", "random"], games=1, seed=-1, workers=1)


def test_sb3_environments_of_neighbouring_seeds_share_no_game(tmp_path):
    """SB3's ``VecEnv.seed(s)`` seeds environment ``i`` with ``s + i`` (and PPO calls it): the training
    environments now take ``child_seed(s, ENV_STREAM, i)``."""
    pytest.importorskip("stable_baselines3")
    from train.sb3_vec_env import ENV_STREAM
    from train.trainer import TrainConfig, make_vec_env

    config = TrainConfig(n_players=3, n_rounds=1, n_envs=3, vec_env="dummy", opponents="random:1", seed=0)
    hands = []
    for seed in (0, 1):
        venv = make_vec_env(config, str(tmp_path), seed=seed)
        assert venv.seed(seed) == [child_seed(seed, ENV_STREAM, i) for i in range(3)]  # as PPO reseeds it
        venv.reset()
        hands += [str(e.unwrapped.aec.game.hands) for e in venv.envs]
        venv.close()
    assert len(set(hands)) == 6


def test_rng_from_state_restores_copies_and_refuses_the_base_class():
    from seers_env.seeding import rng_from_state

    rng = np.random.default_rng(5)
    state = rng.bit_generator.state
    restored = rng_from_state(state, "rng_state")
    assert restored.integers(1 << 30) == rng.integers(1 << 30)
    assert state == np.random.default_rng(5).bit_generator.state  # the argument is not changed or kept
    with pytest.raises(ValueError, match=r"rng_state\['bit_generator'\]='BitGenerator'"):
        rng_from_state({**state, "bit_generator": "BitGenerator"}, "rng_state")
    with pytest.raises(TypeError, match="rng_state must be a numpy bit_generator state dict"):
        rng_from_state([1, 2], "rng_state")


def test_haggis_saved_game_naming_the_base_bit_generator_is_a_value_error():
    from seers_env.haggis.game import HaggisConfig, HaggisGame

    d = HaggisGame(HaggisConfig(n_players=2), seed=1).to_dict()
    d["rng_state"] = {**d["rng_state"], "bit_generator": "BitGenerator"}
    with pytest.raises(ValueError, match="BitGenerator"):
        HaggisGame.from_dict(d)


def _unsafe_states():
    """States numpy's setters accept but misuse: an index it reads with (a segmentation fault when large), or
    a generator stuck on one value (a bounded draw such as ``integers(3)`` then loops for ever in C)."""
    mt = np.random.MT19937(1).state
    mt["state"]["pos"] = 10**9
    mt_low = np.random.MT19937(1).state
    mt_low["state"]["pos"] = -5
    zero = np.random.MT19937(1).state
    zero["state"]["key"] = [0x7FFFFFFF] + [0] * 623  # only key[0]'s top bit counts: still the all-zero state
    philox = np.random.Philox(1).state
    philox["buffer_pos"] = -10**9
    pcg = {"bit_generator": "PCG64", "state": {"state": 0, "inc": 0}, "has_uint32": 0, "uinteger": 0}
    dxsm = {"bit_generator": "PCG64DXSM", "state": {"state": 5, "inc": 2**64}, "has_uint32": 0, "uinteger": 0}
    return [(mt, "pos=1000000000 is outside 0..624"), (mt_low, "pos=-5 is outside"), (zero, "all-zero state"),
            (philox, "buffer_pos=-1000000000 is outside 0..4"), (pcg, "inc=0 is even"), (dxsm, "is even")]


@pytest.mark.parametrize("state, words", _unsafe_states())
def test_rng_from_state_refuses_states_numpy_would_misuse(state, words):
    """Such a state in a saved game (every engine's ``from_dict``) or an uploaded log once crashed the
    interpreter or hung it at the next deal; now it is a ValueError naming the field."""
    import copy

    from seers_env.game import Game
    from seers_env.haggis.game import HaggisConfig, HaggisGame
    from seers_env.scout.game import ScoutGame
    from seers_env.seals.game import SealsGame
    from seers_env.seeding import rng_from_state

    with pytest.raises(ValueError, match=words):
        rng_from_state(copy.deepcopy(state), "rng_state")
    for game in (Game(seed=1), ScoutGame(seed=1), HaggisGame(HaggisConfig(n_players=3), seed=1), SealsGame(seed=1)):
        d = game.to_dict()
        d["rng_state"] = copy.deepcopy(state)
        with pytest.raises(ValueError, match=f"rng_state is not a valid .*{words}"):
            type(game).from_dict(d)


@pytest.mark.parametrize("kind", ["PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"])
def test_every_state_numpy_makes_is_safe(kind):
    from seers_env.seeding import rng_from_state, unsafe_state

    for seed in range(3):
        bit_gen = getattr(np.random, kind)(seed)
        for draws in (0, 1, 3, 5, 700, 1300):
            bit_gen.random_raw(draws)
            assert unsafe_state(bit_gen) is None
            rng_from_state(bit_gen.state, "rng_state").integers(3)
