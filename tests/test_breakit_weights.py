"""The heuristic's default weights cannot be changed in place: the batch features read them at each call
while HeuristicAgent (and train.scoring_policy's scorer) copy them when built, so an in-place change
would make the kernel's prior column disagree with play_rows."""

from __future__ import annotations

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
