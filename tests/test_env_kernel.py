"""The AEC environment runs on the compiled kernel; it must play exactly as the Python engine.

The reference here is what the environment did before: a :class:`Game` stepped directly, a
:class:`Decision` per decision point and :func:`seers_env.observation.observe` (Python-side head). The
environment's ``game`` (built on demand and caught up lazily) must equal that ``Game``, with and without
artifacts, at 2 to 5 players, however often it is read.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from seers_env.actions import N_ACTIONS, Decision
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game
from seers_env.observation import observe, state
from seers_env.scoring import placements
from seers_env.seers_catalog_v0 import env, raw_env


class _Reference:
    """The episode of a ``raw_env`` replayed on a Game + Decision (the environment's old implementation)."""

    def __init__(self, e: raw_env, env_rng: np.random.Generator):
        self.config = e.config
        self.game = Game(e.config, seed=int(env_rng.integers(2**63 - 1)))  # as raw_env.reset() seeds it
        self.decision = Decision(self.game.legal_plays(), self.game.current, self.game.n_players)

    def step(self, action: int, reward_mode: str) -> list[float]:
        """Take ``action``; the rewards of every seat (rules section 5)."""
        g, n = self.game, self.game.n_players
        rewards = [0.0] * n
        play = self.decision.choose(action)
        if play is None:
            return rewards
        result = g.apply(play)
        if result.round_scores is not None and reward_mode == "score":
            rewards = [float(x) for x in result.round_scores]
        if result.game_over:
            if reward_mode == "win":
                places = placements(g.totals, g.round_scores[-1])
                rewards = [(n + 1 - 2 * places[i]) / (n - 1) for i in range(n)]
        else:
            self.decision = Decision(g.legal_plays(), g.current, n)
        return rewards


def _check_observations(e: raw_env, ref: _Reference) -> None:
    """Every agent's observation and mask, ``state()`` and ``decision`` equal the reference's."""
    g = ref.game
    for s, agent in enumerate(e.possible_agents):
        acting = s == g.current and not g.game_over
        want = observe(g, s, ref.decision if acting else None)
        got = e.observe(agent)
        assert got["observation"].dtype == np.float32 and got["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(got["observation"], want)
        np.testing.assert_array_equal(got["action_mask"], ref.decision.mask() if acting
                                      else np.zeros(N_ACTIONS, np.int8))
    want_state = state(g, None if g.game_over else ref.decision)
    np.testing.assert_array_equal(e.state(), np.clip(want_state, -50.0, 50.0))
    d = e.decision
    assert d.stage == ref.decision.stage and d.chosen == ref.decision.chosen and d.seat == ref.decision.seat
    assert d.candidates() == ref.decision.candidates()
    if not g.game_over:  # a completed Decision (stage 3) has no mask
        np.testing.assert_array_equal(d.mask(), ref.decision.mask())


def _play(n_players: int, artifact_deck, reward_mode: str, seed: int, read_game_every: int, games: int = 2):
    """Random play of ``games`` games on ``raw_env`` and on the reference, checked at every step; the
    environment's ``game`` is read every ``read_game_every`` steps (0: only at the end of each game)."""
    e = raw_env(n_players=n_players, n_rounds=2, artifact_deck=artifact_deck, reward_mode=reward_mode)
    e.reset(seed=seed)
    env_rng = np.random.default_rng(seed)
    ref = _Reference(e, env_rng)
    rng = np.random.default_rng(seed + 1)
    held = e.game if read_game_every else None  # a reference kept across steps must stay live
    steps = done = 0
    while done < games:
        g = ref.game
        if steps % 5 == 0 or g.game_over:
            _check_observations(e, ref)
        if read_game_every and steps % read_game_every == 0:
            assert e.game is held and held.to_dict() == g.to_dict()
        if g.game_over:
            assert all(e.terminations.values())
            assert e.game.to_dict() == g.to_dict()
            info = e.infos[e.agent_selection]
            assert info["totals"] == g.totals and info["winners"] == g.winners()
            done += 1
            e.reset()
            ref = _Reference(e, env_rng)
            held = e.game if read_game_every else None
            continue
        assert e.agent_selection == f"player_{g.current}"
        mask = e.infos[e.agent_selection]["action_mask"]
        np.testing.assert_array_equal(mask, ref.decision.mask())
        a = int(rng.choice(np.flatnonzero(mask)))
        e.step(a)
        want = ref.step(a, reward_mode)
        assert [e.rewards[x] for x in e.possible_agents] == want
        steps += 1
    return steps


@pytest.mark.parametrize("n_players,artifact_deck,reward_mode,read_game_every", [
    (2, DEFAULT_ARTIFACT_DECK, "score", 0), (3, (), "win", 1), (4, DEFAULT_ARTIFACT_DECK, "win", 7),
    (5, (), "score", 3), (5, DEFAULT_ARTIFACT_DECK, "score", 0), (2, (), "win", 11),
])
def test_aec_env_plays_as_game_and_decision(n_players, artifact_deck, reward_mode, read_game_every):
    assert _play(n_players, artifact_deck, reward_mode, seed=n_players * 10 + read_game_every,
                 read_game_every=read_game_every) > 0


def test_widened_decision_rows_play_the_same(monkeypatch):
    """Decision rows too narrow for a hand's legal plays are widened (hands of many cards after Rod
    pick-ups need more than the default width); a tiny first width takes that path at most steps."""
    monkeypatch.setattr(raw_env, "_ROW_WIDTH", 2)
    assert _play(4, DEFAULT_ARTIFACT_DECK, "score", seed=3, read_game_every=5, games=1) > 0


def test_game_held_across_reset_catches_up_with_its_own_episode():
    e = raw_env(n_players=3, n_rounds=1)
    e.reset(seed=4)
    ref = _Reference(e, np.random.default_rng(4))
    first = e.game  # read once, then not again until the next episode
    rng = np.random.default_rng(0)
    for _ in range(30):
        a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
        e.step(a)
        ref.step(a, "score")
    e.reset()
    assert e.game is not first
    assert first.to_dict() == ref.game.to_dict()


def test_decision_object_follows_the_stages():
    """A Decision read before a multi-stage choice is the one that makes it (as a held reference did)."""
    e = raw_env(n_players=4)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5000):
        if all(e.terminations.values()):
            e.reset()
        d = e.decision
        a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
        e.step(a)
        if e.decision is d:  # a further stage of the same choice
            assert d.stage in (1, 2) and d.chosen[-1] == a
            np.testing.assert_array_equal(d.mask(), e.infos[e.agent_selection]["action_mask"])
            return
        assert d.stage == 3 and d.chosen[-1] == a  # the play was completed
    pytest.fail("no multi-stage decision met in 5000 steps")


@pytest.mark.parametrize("read_before", [False, True])
def test_pickle_and_deepcopy_mid_game(read_before):
    e = env(n_players=4, n_rounds=1)
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    if read_before:
        e.unwrapped.game.to_dict()
    for _ in range(40):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for make in (lambda x: pickle.loads(pickle.dumps(x)), copy.deepcopy):
        twin = make(e)
        assert twin.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
        for _ in range(20):  # both go on alike
            a, b = twin.last(), e.last()
            np.testing.assert_array_equal(a[0]["observation"], b[0]["observation"])
            np.testing.assert_array_equal(a[0]["action_mask"], b[0]["action_mask"])
            if a[2]:
                break
            act = int(np.flatnonzero(a[0]["action_mask"])[0])
            twin.step(act)
            e.step(act)
            e.unwrapped.game  # noqa: reading one side's game changes nothing of the other
        assert twin.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()


def test_a_game_behind_its_env_catches_up_when_copied_pickled_or_written():
    e = raw_env(n_players=4, n_rounds=1)
    e.reset(seed=2)
    ref = _Reference(e, np.random.default_rng(2))
    g = e.game
    rng = np.random.default_rng(2)

    def advance(k):
        for _ in range(k):
            a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
            e.step(a)
            ref.step(a, "score")

    advance(12)
    assert pickle.loads(pickle.dumps(g)).to_dict() == ref.game.to_dict()
    advance(12)
    assert copy.copy(g).to_dict() == ref.game.to_dict()
    advance(12)
    assert copy.deepcopy(g).to_dict() == ref.game.to_dict() and type(copy.deepcopy(g)) is Game
    advance(12)
    g.note = "mine"  # a write catches up first (and is kept)
    assert g.note == "mine" and g.to_dict() == ref.game.to_dict()
    advance(12)
    assert g.clone().to_dict() == ref.game.to_dict() and type(g) is Game


def test_unpickled_env_keeps_its_info_masks_read_only():
    e = env(n_players=3)
    e.reset(seed=1)
    twin = pickle.loads(pickle.dumps(e))
    for x in (twin, copy.deepcopy(e)):
        mask = x.infos[x.agent_selection]["action_mask"]
        with pytest.raises(ValueError):
            mask[...] = 0
        assert x.last()[0]["action_mask"].sum() == e.last()[0]["action_mask"].sum() > 0


def test_lists_taken_from_a_held_game_stay_live():
    """Once built, env.game applies every play at once, so its lists (events, hands) stay current."""
    e = raw_env(n_players=3, n_rounds=1)
    e.reset(seed=0)
    ref = _Reference(e, np.random.default_rng(0))
    g = e.game
    events, hand0 = g.events, g.hands[0]
    rng = np.random.default_rng(0)
    for _ in range(6):
        a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
        e.step(a)
        ref.step(a, "score")
    assert len(events) == len(ref.game.events) > 1
    assert list(hand0) == list(ref.game.hands[0])


def test_threads_reading_a_held_game_agree():
    """Reading env.game never mutates it, so readers on several threads see one and the same game."""
    import threading

    e = raw_env(n_players=4, n_rounds=1)
    e.reset(seed=3)
    ref = _Reference(e, np.random.default_rng(3))
    g = e.game
    rng = np.random.default_rng(3)
    for _ in range(20):
        if e.terminations[e.agent_selection]:
            break
        a = int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"])))
        e.step(a)
        ref.step(a, "score")
    counts, errors = [], []

    def read():
        try:
            counts.append(len(g.legal_plays()))
        except Exception as err:  # pragma: no cover - the failure this test guards against
            errors.append(repr(err))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and counts == [len(ref.game.legal_plays())] * 4
    assert g.to_dict() == ref.game.to_dict()
