"""Every public method of every environment and wrapper, called before ``reset()`` or after ``close()``:
one clear error, ``ResetNeeded`` (Gymnasium's ``ResetNeeded`` and a ``RuntimeError``), that says to call
``reset()``; closing twice is fine, and ``reset()`` after ``close()`` deals a new game. (The RLlib
environment's checks are in ``tests/test_rllib.py``, the one test file that imports ray.)"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

from seers_env.seers_catalog_v0 import ResetNeeded, env, raw_env
from seers_env.vector import SeersVectorEnv
from seers_env.wrappers import SingleAgentSeersEnv


def _aec_calls(e):
    return {"step": lambda: e.step(0), "observe": lambda: e.observe("player_0"), "last": e.last,
            "state": e.state, "render": e.render, "agent_iter": lambda: e.agent_iter()}


def _single_calls(e):
    return {"step": lambda: e.step(0), "action_masks": e.action_masks, "render": e.render}


def _vector_calls(e):
    return {"step": lambda: e.step(np.zeros(2, np.int64)), "step_plays": lambda: e.step_plays(np.zeros(2, np.int64)),
            "play_features": e.play_features, "action_masks": e.action_masks}


ENVS = {
    "raw_env": (lambda: raw_env(n_players=3, n_rounds=1, render_mode="ansi"), _aec_calls),
    "env()": (lambda: env(n_players=3, n_rounds=1, render_mode="ansi"), _aec_calls),
    "raw_env, no render mode": (lambda: raw_env(n_players=3, n_rounds=1), _aec_calls),
    "SingleAgentSeersEnv": (lambda: SingleAgentSeersEnv(n_players=3, n_rounds=1, render_mode="ansi"), _single_calls),
    "SeersVectorEnv": (lambda: SeersVectorEnv(2, n_players=3, n_rounds=1), _vector_calls),
}


def _check_all_refuse(calls: dict, words: str) -> None:
    for name, call in calls.items():
        with pytest.raises(ResetNeeded) as info:
            call()
        assert isinstance(info.value, gymnasium.error.ResetNeeded) and isinstance(info.value, RuntimeError)
        assert "call reset()" in str(info.value) and f"{name}()" in str(info.value), (name, str(info.value))
        assert words in str(info.value), (name, str(info.value))


@pytest.mark.parametrize("kind", list(ENVS))
def test_every_method_before_reset_and_after_close_says_to_reset(kind):
    make, calls_of = ENVS[kind]
    e = make()
    calls = calls_of(e)
    _check_all_refuse(calls, "before")
    e.reset(seed=0)
    _answers(calls)
    e.close()
    _check_all_refuse(calls, "after close()")
    e.close()  # a second close does nothing more
    _check_all_refuse(calls, "after close()")
    e.reset(seed=1)  # reset deals a new game after close
    _answers(calls)


def _answers(calls: dict) -> None:
    """The read-only methods answer once a game is dealt (render without a render mode: Gymnasium's
    warning and None)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("render", "action_masks", "state", "play_features", "last", "observe"):
            if name in calls:
                calls[name]()


def test_aec_attributes_before_reset_keep_pettingzoo_errors():
    """Attributes (not methods) before ``reset()``: PettingZoo's ``AttributeError`` in ``env()``; the raw
    env's ``game`` and ``decision`` are ``None`` (documented), and again after ``close()``."""
    wrapped = env(n_players=3)
    with pytest.raises(AttributeError, match="before reset"):
        wrapped.rewards
    raw = raw_env(n_players=3)
    assert raw.game is None and raw.decision is None
    raw.reset(seed=0)
    assert raw.game is not None
    raw.close()
    assert raw.game is None and raw.decision is None


def test_single_agent_env_step_after_the_episode_says_to_reset():
    e = SingleAgentSeersEnv(n_players=2, n_rounds=1)
    obs, info = e.reset(seed=3)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, done, _, info = e.step(action)
    assert not e.action_masks().any()  # all False once done (documented), not an error
    with pytest.raises(ResetNeeded, match=r"episode ended; call reset\(\)"):
        e.step(0)
