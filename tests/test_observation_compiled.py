"""observe() (its compiled encoder) gives the vectors of the readable Python encoder."""

from __future__ import annotations

import numpy as np
import observation_python as reference
import pytest

from seers_env import Game, GameConfig
from seers_env.actions import Decision
from seers_env.observation import observe


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_compiled_observe_equals_the_python_reference(n_players):
    """Every seat, with and without a pending decision, over random games with later decision stages,
    Rod pick-ups and scored rounds."""
    rng = np.random.default_rng(n_players)
    later = 0
    for seed in range(3):
        game = Game(GameConfig(n_players=n_players, n_rounds=2), seed=seed)
        while not game.game_over:
            legal = game.legal_plays()
            decision = Decision(legal, game.current, n_players)
            while True:
                for seat in range(n_players):
                    np.testing.assert_array_equal(observe(game, seat), reference.observe(game, seat))
                np.testing.assert_array_equal(observe(game, game.current, decision),
                                              reference.observe(game, game.current, decision))
                actions = decision.legal_actions()
                play = decision.choose(actions[int(rng.integers(len(actions)))])
                if play is not None:
                    break
                later += 1
            game.apply(play)
    assert later > 0
