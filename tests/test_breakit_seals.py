"""Hostile-review tests for Seals: damaged saved games and logs (rules ``shared/rules/seals.md``).

Each test failed before its fix.
"""

from __future__ import annotations

import pytest

from seers_env.seals.game import SealsConfig, SealsGame


def _after_rounds(rounds: int, seed: int = 1) -> SealsGame:
    g = SealsGame(SealsConfig(n_players=3), seed=seed)
    while g.round < rounds and not g.game_over:
        g.apply(g.legal_plays()[0])
    return g


def test_saved_game_marked_over_before_the_rules_end_it_is_refused():
    """Section 6: the game ends when a seat has 5 Marks, or the counter is empty (with one leader, or after
    the tie-breaks). A saved game marked over after one round with 0 Marks each named every seat a winner."""
    g = _after_rounds(1)
    d = g.to_dict()
    assert d["counter"] == 4 and max(g.totals) < 5
    d.update(game_over=True, phase="over", round=0)
    with pytest.raises(ValueError, match="has not ended"):
        SealsGame.from_dict(d)


def test_a_finished_game_still_loads():
    g = SealsGame(SealsConfig(n_players=2), seed=3)
    while not g.game_over:
        g.apply(g.legal_plays()[-1])
    h = SealsGame.from_dict(g.to_dict())
    assert h.game_over and h.winners() == g.winners()


def test_replay_of_a_log_with_a_play_after_the_end_is_a_value_error():
    """A damaged log is a ``ValueError`` naming the play, not the engine's ``GameOverError``."""
    g = SealsGame(SealsConfig(n_players=2), seed=3)
    while not g.game_over:
        g.apply(g.legal_plays()[-1])
    log = g.log()
    log["events"].append({"event": "play", "round": g.round, "seat": 0, "play": [0, 0]})
    with pytest.raises(ValueError, match="after the end"):
        SealsGame.replay(log)
