"""Random reachable Haggis states for the reference tests (no RL imports)."""

from __future__ import annotations

import numpy as np

from seers_env.haggis import HaggisConfig, HaggisGame
from seers_env.haggis.plays import PASS


def random_states(n_players: int, count: int, seed: int):
    """``count`` play-phase states (clones) from random games: each game is played by a policy that
    passes with a probability drawn per game (0 to 0.8) and otherwise plays a uniform legal play; a state
    is kept with probability 1/3, so every stage of a round (17-card leads to last cards) is covered."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        game = HaggisGame(HaggisConfig(n_players=n_players, n_rounds=2), seed=int(rng.integers(2**31)))
        p_pass = float(rng.uniform(0, 0.8))
        while not game.game_over and made < count:
            legal = game.legal_plays()
            if game.phase == "play" and rng.random() < 1 / 3:
                yield game.clone()
                made += 1
            if legal[0].kind == PASS and len(legal) > 1 and rng.random() >= p_pass:
                play = legal[int(rng.integers(1, len(legal)))]
            elif legal[0].kind == PASS and rng.random() < p_pass:
                play = legal[0]
            else:
                play = legal[int(rng.integers(len(legal)))]
            game.apply(play)
