"""The heuristic's default weights cannot be changed in place: the batch features read them at each call
while HeuristicAgent (and train.scoring_policy's scorer) copy them when built, so an in-place change
would make the kernel's prior column disagree with play_rows."""

from __future__ import annotations

import numpy as np
import pytest

from agents import heuristic
from agents.heuristic import HeuristicAgent
from seers_env import play_eval


def test_default_weights_are_shared_and_read_only():
    assert heuristic.WEIGHTS is play_eval.HEURISTIC_DEFAULTS
    before = dict(heuristic.WEIGHTS)
    with pytest.raises(TypeError):
        heuristic.WEIGHTS["card"] = 5.0
    with pytest.raises(TypeError):
        del play_eval.HEURISTIC_DEFAULTS["pass"]
    assert dict(heuristic.WEIGHTS) == before


def test_changed_copies_still_work():
    weights = dict(play_eval.HEURISTIC_DEFAULTS, card=3.0)
    arr, danger = play_eval.heuristic_weight_array(weights)
    assert arr[play_eval.HEURISTIC_WEIGHTS.index("card")] == 3.0 and danger == 3
    agent = HeuristicAgent(weights={"card": 3.0})
    assert isinstance(agent.weights, dict) and agent.weights["card"] == 3.0
    agent.weights["play"] = 2.0  # the agent's own copy may change
    assert play_eval.HEURISTIC_DEFAULTS["play"] == 1.5


@pytest.mark.parametrize("bad", [{"card": None}, {"card": "x"}, {"pass": float("nan")},
                                 {"danger_cards": float("inf")}, {"danger_cards": True}])
def test_bad_weight_values_are_named_not_turned_into_nan_scores(bad):
    weights = dict(play_eval.HEURISTIC_DEFAULTS, **bad)
    name = next(iter(bad))
    with pytest.raises(ValueError, match=f"'{name}'.*finite number"):
        play_eval.heuristic_weight_array(weights)


def test_huge_or_negative_danger_cards_keep_their_meaning():
    for value, danger in ((1e300, 1 << 30), (-1e300, -1), (3.5, 3), (-0.5, -1), (np.int64(2), 2)):
        _, got = play_eval.heuristic_weight_array(dict(play_eval.HEURISTIC_DEFAULTS, danger_cards=value))
        assert got == danger


def test_kernel_play_features_names_a_uint64_slot_as_given():
    from seers_env.engine.kernel import KernelGames
    from seers_env.game import GameConfig
    from seers_env.vector import kernel_play_features

    kern = KernelGames(2, GameConfig(n_players=3))
    kern.new_game(0, 1)
    with pytest.raises(IndexError, match="slot 9223372036854775808 is out of range"):
        kernel_play_features(kern, np.array([2**63], np.uint64))
    with pytest.raises(ValueError, match="'card'"):
        kernel_play_features(kern, [0], heuristic_weights=dict(play_eval.HEURISTIC_DEFAULTS, card=None))
