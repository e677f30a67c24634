"""Every registered game satisfies the shared protocol (seers_env.protocol), and the registry's
errors name the bad value."""

from __future__ import annotations

import json

import numpy as np
import pytest

from seers_env.games import GAMES, game_of, game_spec
from seers_env.protocol import Determinizer, GameState, SeatView

GAME_NAMES = list(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_game_and_view_follow_the_protocol(name, n_players):
    spec = game_spec(name)
    if not spec.min_players <= n_players <= spec.max_players:
        pytest.skip(f"{spec.title} is played by {spec.min_players}..{spec.max_players}")
    game = spec.new_game(n_players, seed=3)
    assert isinstance(game, GameState) and game.game_name == name and game.n_players == n_players
    view = spec.view_class()(game, game.current)
    assert isinstance(view, SeatView) and game_of(view) is spec
    rng = np.random.default_rng(0)
    steps = 0
    while not game.game_over and steps < 60:
        legal = game.legal_plays()
        assert legal and all(hash(p) is not None for p in legal)
        assert len(set(legal)) == len(legal), "plays are distinct"
        view = spec.view_class()(game, game.current)
        assert view.legal_plays() == legal
        sample = view.determinizer()
        assert isinstance(sample, Determinizer)
        sampled = sample.sample(rng)
        assert sampled.current == game.current and sampled.legal_plays() == legal
        game.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
    clone = game.clone()
    saved = json.loads(json.dumps(game.to_dict()))
    restored = type(game).from_dict(saved)
    replayed = type(game).replay(game.log())
    for other in (clone, restored, replayed):
        assert other.to_dict() == game.to_dict()
    if not game.game_over:
        play = game.legal_plays()[0]
        clone.apply(play)
        assert clone.to_dict() != game.to_dict(), "a clone shares no state"


def test_registry_errors_name_the_value():
    with pytest.raises(ValueError, match="'chess'.*seers_catalog"):
        game_spec("chess")
    with pytest.raises(TypeError, match="game must be a string"):
        game_spec(3)
    with pytest.raises(ValueError, match="n_players=6"):
        game_spec("seers_catalog").check_players(6)
    with pytest.raises(TypeError, match="n_players"):
        game_spec("seers_catalog").check_players(True)
    with pytest.raises(TypeError, match="no game_name"):
        game_of(object())
