"""Nothing a getter returns aliases the environment's or the engine's state (PettingZoo, Gymnasium wrapper,
engine Game and SeatView, action Decision, tournament results): a caller edits what it got, and every
later answer is unchanged. Read-only arrays are allowed: writing to them must raise."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents.tournament import TournamentResult, run_tournament
from seers_env import env as make_env
from seers_env.engine.moves import PlayList
from seers_env.view import SeatView
from seers_env.wrappers import SingleAgentSeersEnv


def _scribble(x):
    """Change ``x`` in place everywhere it can be changed (read-only arrays must refuse)."""
    if isinstance(x, np.ndarray):
        if x.flags.writeable:
            x[...] = 0 if x.dtype != bool else False
        else:
            with pytest.raises(ValueError):
                x[...] = 0
    elif isinstance(x, dict):
        for v in list(x.values()):
            _scribble(v)
        for k in list(x):
            x[k] = "scribbled"
        x["scribbled"] = True
    elif isinstance(x, PlayList):  # the engine's read-only legal plays
        with pytest.raises(TypeError, match="read-only"):
            x.append("scribbled")
        with pytest.raises(ValueError):
            x.keys[...] = 0
    elif isinstance(x, list):
        for v in x:
            _scribble(v)
        x[:] = ["scribbled"] * len(x)
        x.append("scribbled")
    elif isinstance(x, tuple):
        for v in x:
            _scribble(v)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and \
            np.array_equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, list) == isinstance(a, list) and len(a) == len(b) and \
            all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _aec_answers(e):
    """Every public getter of the AEC environment (and of the game and Decision behind it)."""
    raw = e.unwrapped
    g = raw.game
    out = {"last": e.last(), "state": e.state(), "observe": {a: e.observe(a) for a in e.possible_agents},
           "game": g.to_dict(), "log": g.log(), "totals": g.totals, "hand_sizes": g.hand_sizes(),
           "trick_cards": g.trick_cards(), "legal": g.legal_plays()}
    if not g.game_over:
        d = raw.decision
        out.update(mask=d.mask(), legal_actions=d.legal_actions(), candidates=d.candidates())
    else:
        out["winners"] = g.winners()
    out["views"] = [_view_answers(SeatView(g, s)) for s in range(g.n_players)]
    return out


def _view_answers(v: SeatView):
    names = ("hand", "config", "n_players", "current", "start_seer", "round", "hand_sizes", "top", "top_seat",
             "trick", "passed", "played", "known", "discards", "suits", "go_first_holder", "round_scores",
             "totals")
    out = {name: getattr(v, name) for name in names}
    out["legal_plays"] = v.legal_plays()
    return out


def _check_aec_position(e):
    before = copy.deepcopy(_aec_answers(e))
    _scribble(_aec_answers(e))
    for agent in e.agents:  # env.infos holds read-only masks
        mask = e.infos[agent].get("action_mask")
        if mask is not None:
            with pytest.raises(ValueError):
                mask[...] = 0
    assert _same(_aec_answers(e), before)


def test_issue_example_info_mask_edit_leaves_the_env_alone():
    e = make_env()
    e.reset(seed=0)
    ag = e.agent_selection
    m = e.last()[4]["action_mask"]
    a = int(m.nonzero()[0][0])
    with pytest.raises(ValueError):  # read-only: the env's own mask cannot be edited
        m[a] = 0
    mine = m.copy()
    mine[:] = 0  # the caller's own copy
    assert e.observe(ag)["action_mask"][a] == 1 and e.unwrapped.decision.is_legal(a)
    assert e.last()[4]["action_mask"][a] == 1


@pytest.mark.parametrize("n_players", [2, 4])
def test_every_aec_getter_returns_what_the_caller_may_edit(n_players):
    e = make_env(n_players=n_players, n_rounds=1)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    steps, ended = 0, False
    _check_aec_position(e)
    for agent in e.agent_iter(max_iter=400):
        _, _, term, trunc, info = e.last()
        if term or trunc:
            if not ended:  # the final position, before the agents leave
                _check_aec_position(e)
                ended = True
            e.step(None)
            continue
        if steps % 7 == 0:
            _check_aec_position(e)
        legal = np.flatnonzero(info["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.unwrapped.game.game_over and ended


def test_engine_legal_plays_and_serialisation_are_copies():
    from seers_env.game import Game, GameConfig

    g = Game(GameConfig(n_players=3), seed=5)
    legal = g.legal_plays()
    first = legal[0]
    n = len(legal)
    for change in (legal.clear, lambda: legal.append(first), lambda: legal.sort(),
                   lambda: legal.__setitem__(0, 1), lambda: legal.__delitem__(0)):
        with pytest.raises(TypeError, match="read-only"):
            change()
    with pytest.raises(ValueError):
        legal.keys[0] = 0
    mine = list(legal)
    mine.clear()
    assert len(g.legal_plays()) == n and g.legal_plays()[0] == first and g.is_legal(first)
    g.apply(first)
    d = g.to_dict()
    copy_of_d = copy.deepcopy(d)
    restored = Game.from_dict(d)
    _scribble(d["events"])
    d["initial_rng_state"]["state"] = "scribbled"
    assert _same(restored.to_dict(), copy_of_d) and _same(g.to_dict(), copy_of_d)
    log = g.log()
    _scribble(log)
    assert Game.replay(g.log()).to_dict()["hands"] == g.to_dict()["hands"]


def test_decision_keeps_its_own_legal_list():
    from seers_env.actions import Decision
    from seers_env.game import Game, GameConfig

    g = Game(GameConfig(n_players=4), seed=1)
    legal = list(g.legal_plays())
    d = Decision(legal, g.current, 4)
    mask = d.mask()
    legal.clear()
    mask[:] = 0
    assert d.mask().sum() > 0 and len(d.candidates()) == len(g.legal_plays())


def test_single_agent_wrapper_returns_copies():
    w = SingleAgentSeersEnv(n_players=3, n_rounds=1, learner_seat=0)
    obs, info = w.reset(seed=1)
    keep = (obs.copy(), info["action_mask"].copy(), w.action_masks().copy())
    for x in (obs, info["action_mask"], w.action_masks()):
        x[...] = 0
    assert np.array_equal(w._obs(), keep[0]) and np.array_equal(w.action_masks(), keep[2])
    action = int(np.flatnonzero(keep[2])[0])
    obs, _, _, _, info = w.step(action)
    again = w.action_masks().copy()
    info["action_mask"][:] = 0
    obs[:] = 0
    assert np.array_equal(w.action_masks(), again) and w._obs().any()


def test_tournament_result_shares_nothing_with_its_dicts():
    result = run_tournament(["random", "greedy"], games=2, n_rounds=1, workers=1, progress=False)
    expected = copy.deepcopy(result.to_dict())
    _scribble(result.to_dict())
    assert _same(result.to_dict(), expected)
    d = copy.deepcopy(expected)
    back = TournamentResult.from_dict(d)
    _scribble(d)
    assert _same(back.to_dict(), expected)
