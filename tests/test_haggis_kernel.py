"""The compiled Haggis path (``seers_env.haggis.kernel`` and its glue ``seers_env.haggis.fast``) against the
pure-Python one it replaces in ``haggis_v0`` (``raw_env.compiled = False``): the same stage-0 masks, the
same decisions, the same observations, and the same environment trajectories, at 2 and 3 players, seeded.
"""

from __future__ import annotations

import copy
import os
import pickle
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from haggis_states import random_states  # noqa: E402
from seers_env.haggis import HaggisConfig, HaggisGame  # noqa: E402
from seers_env.haggis.actions import (BOMB_BASE, CARD_BASE, N_ACTIONS, SEQ_BASE, SET_BASE,  # noqa: E402
                                      HaggisDecision, _combo_code)
from seers_env.haggis.bench import crafted_hands  # noqa: E402
from seers_env.haggis.cards import SETUP, faces_of  # noqa: E402
from seers_env.haggis.fast import CompiledDecision, combo_of_code, observe_compiled  # noqa: E402
from seers_env.haggis.moves import Combo, turn_combos  # noqa: E402
from seers_env.haggis.observation import observe  # noqa: E402
from seers_env.haggis.plays import BOMB, SEQ, SET  # noqa: E402
from seers_env.haggis.view import HaggisSeatView  # noqa: E402
from seers_env.haggis_v0 import raw_env  # noqa: E402


def _python_mask(game) -> list[int]:
    return np.flatnonzero(HaggisDecision(game).mask()).tolist()


def _compiled_mask(game) -> list[int]:
    return np.flatnonzero(CompiledDecision(game).mask()).tolist()


def test_combo_of_code_inverts_the_main_code_of_every_combination():
    combos = ([Combo(SET, n, 0, v) for n in range(1, 9) for v in range(2, 14)]
              + [Combo(SEQ, w, L, t) for w in range(1, 6) for L in range(2, 13) for t in range(2, 14)]
              + [Combo(BOMB, 0, 0, v) for v in range(1, 7)])
    codes = [_combo_code(c) for c in combos]
    assert sorted(codes) == list(range(SET_BASE, CARD_BASE))
    assert all(combo_of_code(k) == c for k, c in zip(codes, combos))
    assert combo_of_code(0) is None
    for bad in (1, 2, 3, CARD_BASE, N_ACTIONS - 1, N_ACTIONS, -1):
        with pytest.raises(ValueError, match=f"code {bad} is not a pass or combination code"):
            combo_of_code(bad)


@pytest.mark.parametrize("n_players", [2, 3])
def test_stage0_masks_and_observations_equal_python_on_random_states(n_players):
    kinds = set()
    for i, g in enumerate(random_states(n_players, 700, seed=500 + n_players)):
        py, jit = HaggisDecision(g), CompiledDecision(g)
        m = np.flatnonzero(py.mask()).tolist()
        assert np.flatnonzero(jit.mask()).tolist() == m, (g.hand(g.current), g.top)
        assert jit.mask().dtype == np.int8
        kinds.update(k for k in m if k)
        for s in range(n_players):
            d = (py, jit) if s == g.current else (None, None)
            a, b = observe(HaggisSeatView(g, s), d[0]), observe_compiled(g, s, d[1])
            assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b), (i, s)
        # a card decision: the same pending observation and the same narrowing
        rng = np.random.default_rng(i)
        play = None
        while play is None:
            mask = np.flatnonzero(py.mask()).tolist()
            assert np.flatnonzero(jit.mask()).tolist() == mask
            a = int(rng.choice(mask))
            assert jit.allowed(a) and not jit.allowed(next(c for c in range(N_ACTIONS) if c not in mask))
            play = py.choose(a)
            assert jit.choose(a) == play and jit.chosen == py.chosen and jit.pending == py.pending
            assert np.array_equal(observe(HaggisSeatView(g, g.current), py), observe_compiled(g, g.current, jit))
    # every block of codes came up: sets, sequences and bombs
    assert any(k < SEQ_BASE for k in kinds) and any(SEQ_BASE <= k < BOMB_BASE for k in kinds)
    assert any(BOMB_BASE <= k < CARD_BASE for k in kinds)


@pytest.mark.parametrize("n_players", [2, 3])
def test_stage0_masks_equal_python_on_full_leading_hands(n_players):
    """17-card leads with the three wilds (every shape open): random deals, the bench's crafted hands,
    and the same hands on random tops of each kind."""
    rng = np.random.default_rng(n_players)
    deck = list(SETUP[n_players].number_cards)
    hands = [sorted(rng.choice(deck, 14, replace=False).tolist() + list(faces_of(0))) for _ in range(150)]
    hands += [sorted(nums + list(faces_of(0))) for nums in crafted_hands().values()
              if all(c in deck for c in nums)]
    game = HaggisGame(HaggisConfig(n_players=n_players), seed=0)
    game.apply(game.legal_plays()[0])  # the bet: seat 0 now leads
    for hand in hands:
        game._hands[0] = list(hand)
        game._legal = None
        assert _compiled_mask(game) == _python_mask(game), hand
        for top in turn_combos(hand, None)[::7]:  # follow some of its own combinations
            game._trick = [(1, None, top)]
            assert _compiled_mask(game) == _python_mask(game), (hand, top)
        game._trick = []


def _snapshot(e):
    """Everything an agent can read from the environment after a step."""
    out = {"selection": e.agent_selection, "agents": list(e.agents),
           "rewards": dict(e.rewards), "cumulative": dict(e._cumulative_rewards),
           "terminations": dict(e.terminations), "truncations": dict(e.truncations),
           "infos": {a: {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in i.items()}
                     for a, i in e.infos.items()}}
    if e.agents:
        out["obs"] = {a: {k: v.tolist() for k, v in e.observe(a).items()} for a in e.agents}
        out["state"] = e.state().tolist()
    return out


def _pair(n_players, **config):
    fast, slow = raw_env(n_players=n_players, **config), raw_env(n_players=n_players, **config)
    slow.compiled = False
    assert fast.compiled and not slow.compiled
    return fast, slow


@pytest.mark.parametrize("n_players,reward_mode", [(2, "score"), (3, "score"), (2, "win"), (3, "win")])
def test_compiled_env_trajectories_equal_the_python_env(n_players, reward_mode):
    fast, slow = _pair(n_players, reward_mode=reward_mode, target=250, render_mode="ansi")
    rng = np.random.default_rng(10 + n_players)
    steps = 0
    for seed in (3, 4, 5):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        assert _snapshot(fast) == _snapshot(slow)
        while fast.agents:
            agent = fast.agent_selection
            if fast.terminations[agent] or fast.truncations[agent]:
                action = None
            else:
                mask = fast.observe(agent)["action_mask"]
                action = int(rng.choice(np.flatnonzero(mask)))
            fast.step(action)
            slow.step(action)
            steps += 1
            if steps % 3 == 0 or not fast.agents:
                assert _snapshot(fast) == _snapshot(slow), steps
            if fast.agents:
                assert fast.render() == slow.render()
        assert fast.game.to_dict() == slow.game.to_dict()
        assert fast.game.events == slow.game.events
    assert steps > 400


@pytest.mark.parametrize("n_players", [2, 3])
def test_compiled_env_illegal_actions_pickling_and_positions_equal_python(n_players):
    rng = np.random.default_rng(n_players)
    for mode in ("penalize", "raise"):
        fast, slow = _pair(n_players, illegal_action=mode)
        for e in (fast, slow):
            e.reset(seed=7)
        for k in range(60):
            mask = fast.observe(fast.agent_selection)["action_mask"]
            a = int(rng.choice(np.flatnonzero(mask)))
            fast.step(a)
            slow.step(a)
        assert _snapshot(fast) == _snapshot(slow)
        for e in (pickle.loads(pickle.dumps(fast)), copy.deepcopy(fast)):
            assert _snapshot(e) == _snapshot(slow)
        bad = int(np.flatnonzero(fast.observe(fast.agent_selection)["action_mask"] == 0)[0])
        if mode == "raise":
            errors = []
            for e in (fast, slow):
                with pytest.raises(ValueError) as err:
                    e.step(bad)
                errors.append(str(err.value))
            assert errors[0] == errors[1]
        else:
            fast.step(bad)
            slow.step(bad)
        assert _snapshot(fast) == _snapshot(slow)
    # a start from a position
    fast, slow = _pair(n_players)
    position = HaggisGame(HaggisConfig(n_players=n_players), seed=11)
    for _ in range(n_players + 2):  # the bets, then two plays
        position.apply(position.legal_plays()[-1])
    for e in (fast, slow):
        e.reset(seed=1, options={"game": position.to_dict()})
    assert _snapshot(fast) == _snapshot(slow)


def test_apply_legal_gives_the_game_apply_gives():
    for n_players in (2, 3):
        rng = np.random.default_rng(n_players)
        a, b = (HaggisGame(HaggisConfig(n_players=n_players, n_rounds=2), seed=5) for _ in range(2))
        while not a.game_over:
            legal = a.legal_plays_with_combos()
            play, combo = legal[int(rng.integers(len(legal)))]
            assert a.apply(play) == b.apply_legal(play, combo)
            assert a.to_dict() == b.to_dict() and a.events == b.events


def test_set_and_sequence_plays_of_a_code_are_those_of_combo_plays():
    """The compiled path lists the plays of a chosen set or sequence code itself (``fast._set_plays``,
    ``kernel.seq_cards``): the same plays in the same order as ``moves.combo_plays``, on random hands of
    every size and on full 17-card hands (the bench's crafted ones too)."""
    from seers_env.haggis.fast import _seq_plays, _set_plays
    from seers_env.haggis.moves import combo_plays

    rng = np.random.default_rng(0)
    hands = []
    for t in range(1200):
        n = 2 + t % 2
        deck = list(SETUP[n].number_cards)
        size = 14 if t % 5 == 0 else int(rng.integers(1, 15))
        hands.append(sorted(rng.choice(deck, size, replace=False).tolist()
                            + [c for c in faces_of(t % n) if t % 5 == 0 or rng.random() < 0.7]))
    hands += [sorted(nums + list(faces_of(0))) for nums in crafted_hands().values()]
    checked = {SET: 0, SEQ: 0}
    for hand in hands:
        for c in turn_combos(hand, None):
            if c.kind == SET:
                assert _set_plays(hand, c.a, c.value) == [p for p, _ in combo_plays(hand, c)], (hand, c)
            elif c.kind == SEQ:
                assert _seq_plays(hand, c.a, c.b, c.value) == [p for p, _ in combo_plays(hand, c)], (hand, c)
            else:
                continue
            checked[c.kind] += 1
    assert checked[SET] > 10000 and checked[SEQ] > 10000


@pytest.mark.parametrize("n_players", [2, 3])
def test_fast_legal_plays_with_combos_is_the_games_list(n_players):
    from seers_env.haggis.fast import legal_plays_with_combos

    for g in random_states(n_players, 400, seed=900 + n_players):
        assert legal_plays_with_combos(g) == g.legal_plays_with_combos()
    rng = np.random.default_rng(n_players)
    deck = list(SETUP[n_players].number_cards)
    game = HaggisGame(HaggisConfig(n_players=n_players), seed=1)
    assert legal_plays_with_combos(game) == game.legal_plays_with_combos()  # the bets
    game.apply(game.legal_plays()[0])
    for _ in range(40):  # full leads, and following some of their combinations
        game._hands[0] = sorted(rng.choice(deck, 14, replace=False).tolist() + list(faces_of(0)))
        game._legal = None
        assert legal_plays_with_combos(game) == game.legal_plays_with_combos()
        for top in turn_combos(game._hands[0], None)[::25]:
            game._trick, game._legal = [(1, None, top)], None
            assert legal_plays_with_combos(game) == game.legal_plays_with_combos()
        game._trick = []
