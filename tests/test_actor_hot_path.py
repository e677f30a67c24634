"""The self-play actor's per-decision helpers equal what they replaced: sampling a play
(train.scoring_policy.sample_index vs numpy's Generator.choice, same index and same generator state
afterwards) and the privileged critic's input (hidden_hands vs a plain loop over the hands)."""

from __future__ import annotations

import numpy as np
import pytest

from seers_env import Game, GameConfig
from seers_env.observation import CARD_BLOCK
from train.scoring_policy import HIDDEN_DIM, hidden_hands, sample_index


def test_sample_index_draws_as_generator_choice():
    for seed in range(200):
        gen = np.random.default_rng([seed, 1])
        n = int(gen.integers(1, 3000))
        logits = gen.normal(scale=float(gen.choice([0.1, 3.0, 30.0])), size=n)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(10):
            assert sample_index(a, p) == int(b.choice(n, p=p))
        assert a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_sample_index_refuses_non_finite_probabilities(bad):
    with pytest.raises(ValueError, match="not finite"):
        sample_index(np.random.default_rng(0), np.array([0.5, bad, 0.5]))


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_hidden_hands_counts_every_hand_from_each_seat(n_players):
    game = Game(GameConfig(n_players=n_players), seed=n_players)
    rng = np.random.default_rng(n_players)
    for _ in range(40):
        for seat in range(n_players):
            want = np.zeros(HIDDEN_DIM, dtype=np.float32)
            for r in range(n_players):
                for c in game.hands[(seat + r) % n_players]:
                    want[r * CARD_BLOCK + c] += 1.0
            got = hidden_hands(game, seat)
            assert got.dtype == np.float32 and got.tobytes() == want.tobytes()
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
        if game.game_over:
            break
