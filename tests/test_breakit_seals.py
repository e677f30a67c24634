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


# --- agents given a view they cannot act on ------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "ismcts:20"])
def test_seals_agents_refuse_a_view_whose_seat_is_not_to_act(spec):
    """Seals greedy returned a take for a seat not to act and None once the game was over; heuristic and
    ISMCTS raised "max() arg is an empty sequence" or RuntimeError; random said "high <= 0"."""
    from agents import make_agent
    from seers_env.seals.view import SealsSeatView

    game = SealsGame(SealsConfig(n_players=3), seed=1)
    before = game.to_dict()
    other = (game.current + 1) % 3
    agent = make_agent(spec, seed=0, game="seals")
    with pytest.raises(ValueError, match=f"seat {other} is not to act"):
        agent.act(SealsSeatView(game, other))
    over = game.clone()
    while not over.game_over:
        over.apply(over.legal_plays()[0])
    with pytest.raises(ValueError, match="the game is over"):
        agent.act(SealsSeatView(over, 0))
    assert game.to_dict() == before
    assert agent.act(SealsSeatView(game, game.current)) in game.legal_plays()


@pytest.mark.parametrize("spec", ["greedy", "heuristic"])
def test_a_seers_catalog_agent_refuses_a_seals_view(spec):
    from agents import make_agent
    from seers_env.seals.view import SealsSeatView

    game = SealsGame(SealsConfig(n_players=3), seed=1)
    with pytest.raises(TypeError, match="plays 'seers_catalog'.*'seals'"):
        make_agent(spec, seed=0).act(SealsSeatView(game, game.current))


def test_deeply_nested_events_are_a_value_error_not_a_recursion_error():
    """A hand-made dict with events nested 100000 deep raised RecursionError in ``from_dict``."""
    from seers_env.seals_v0 import raw_env

    for depth in (100_000, 600):
        x: list = []
        for _ in range(depth):
            x = [x]
        d = SealsGame(SealsConfig(n_players=3), seed=1).to_dict()
        d["events"] = d["events"] + [{"event": "note", "x": x}]
        with pytest.raises(ValueError, match="nest more than"):
            SealsGame.from_dict(d)
    env = raw_env(n_players=3)
    with pytest.raises(ValueError, match="nest more than"):
        env.reset(options={"game": d})
    g = SealsGame(SealsConfig(n_players=2), seed=3)
    while not g.game_over:
        g.apply(g.legal_plays()[-1])
    assert SealsGame.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_rng_state_naming_the_base_bit_generator_is_a_value_error():
    """``{'bit_generator': 'BitGenerator'}`` raised NotImplementedError (numpy's base class)."""
    d = SealsGame(SealsConfig(n_players=3), seed=1).to_dict()
    for field in ("rng_state", "initial_rng_state"):
        bad = dict(d, **{field: {"bit_generator": "BitGenerator"}})
        with pytest.raises(ValueError, match=f"{field}\\['bit_generator'\\]='BitGenerator'"):
            SealsGame.from_dict(bad)


@pytest.mark.parametrize("weights, name", [({"closeness": float("nan")}, "closeness"),
                                           ({"threat": "x"}, "threat"), ({"gift": True}, "gift"),
                                           ({"win_bonus": float("inf")}, "win_bonus")])
def test_seals_weights_must_be_finite_numbers(weights, name):
    """SealsWeights took anything: NaN made act() raise StopIteration, a string TypeError mid-search."""
    from agents.seals import SealsWeights

    with pytest.raises(ValueError, match=f"SealsWeights.{name}="):
        SealsWeights(**weights)
    SealsWeights(closeness=0.5, threat=2)  # numbers are fine


@pytest.mark.parametrize("n, rounds, tie_breaks", [(2, 1, 0), (2, 2, 1), (3, 1, 3), (4, 2, 0)])
def test_every_finished_engine_game_loads(n, rounds, tie_breaks):
    """The section 6 check on ``game_over`` never refuses a game the engine finished."""
    import numpy as np

    rng = np.random.default_rng(n + 10 * rounds)
    config = SealsConfig(n_players=n, n_rounds=rounds, max_tie_break_rounds=tie_breaks)
    for seed in range(8):
        g = SealsGame(config, seed=seed)
        while not g.game_over:
            legal = g.legal_plays()
            g.apply(legal[int(rng.integers(len(legal)))])
        d = g.to_dict()
        assert SealsGame.from_dict(d).to_dict() == d
