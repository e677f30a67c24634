"""Observations (seers_env.observation): layout, contents, and no hidden information (rules section 3,
"Public information")."""

from __future__ import annotations

import numpy as np

from seers_env import Game, GameConfig
from seers_env.actions import Decision
from seers_env.cards import WILD
from seers_env.observation import CARD_BLOCK, OBS_DIM, OBSERVATION_LAYOUT, STATE_DIM, observe, state


def _part(vec, name):
    for n, off, length in OBSERVATION_LAYOUT:
        if n == name:
            return vec[off:off + length]
    raise KeyError(name)


def _advance(game, steps, seed):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])


def test_layout_is_contiguous_and_complete():
    off = 0
    for _, o, length in OBSERVATION_LAYOUT:
        assert o == off and length > 0
        off += length
    assert off == OBS_DIM
    assert STATE_DIM > OBS_DIM


def test_hand_and_counts():
    game = Game(GameConfig(n_players=4), seed=1)
    seat = game.current
    vec = observe(game, seat, Decision(game.legal_plays(), seat, 4))
    assert vec.dtype == np.float32 and vec.shape == (OBS_DIM,)
    hand = _part(vec, "hand")
    assert hand.sum() == len(game.hands[seat])
    assert hand[WILD] == game.hands[seat].count(WILD)
    assert _part(vec, "stage")[0] == 1.0
    assert _part(vec, "hand_sizes")[0] == len(game.hands[seat]) / 15.0
    assert _part(vec, "top_type")[0] == 1.0  # nothing on the table yet


def test_played_cards_and_trick_are_relative():
    game = Game(GameConfig(n_players=3), seed=2)
    _advance(game, 6, seed=2)
    for seat in range(3):
        vec = observe(game, seat)
        played = _part(vec, "played").reshape(5, CARD_BLOCK)
        for r in range(3):
            assert played[r].sum() == len(game.played[(seat + r) % 3])
        assert played[3:].sum() == 0
        assert _part(vec, "trick_cards").sum() == len(game.trick_cards())


def _swap_hidden(game: Game, seat: int, seed: int) -> Game:
    """A copy of ``game`` whose hands of the other seats (and the hidden cards) are re-dealt among
    themselves, keeping each hand's size and publicly known cards."""
    other = Game.from_dict(game.to_dict())
    rng = np.random.default_rng(seed)
    others = [s for s in range(game.n_players) if s != seat]
    free = []
    for s in others:
        rest = list(other.hands[s])
        for c in other.known[s]:
            rest.remove(c)
        free.append(rest)
    pool = [c for f in free for c in f] + list(other.hidden)
    order = rng.permutation(len(pool)).tolist()
    pool = [pool[i] for i in order]
    for s, f in zip(others, free):
        take, pool = pool[:len(f)], pool[len(f):]
        other.hands[s] = sorted(take + list(other.known[s]))
    other.hidden = sorted(pool)
    other._invalidate()
    return other


def test_no_hidden_information_leaks():
    checked = 0
    for n_players in (2, 3, 4, 5):
        for k in range(4):
            game = Game(GameConfig(n_players=n_players), seed=100 + k)
            _advance(game, 5 + 7 * k, seed=k)
            if game.game_over:
                continue
            seat = game.current
            twin = _swap_hidden(game, seat, seed=k)
            assert twin.hands != game.hands or twin.hidden != game.hidden
            d1 = Decision(game.legal_plays(), seat, n_players)
            d2 = Decision(twin.legal_plays(), seat, n_players)
            assert np.array_equal(observe(game, seat, d1), observe(twin, seat, d2))
            assert np.array_equal(d1.mask(), d2.mask())
            for s in range(n_players):  # also the seats not to act
                if s != seat:
                    changed = twin.hands[s] != game.hands[s]
                    same = np.array_equal(observe(game, s), observe(twin, s))
                    assert same != changed  # a seat sees its own hand, nothing else hidden
            checked += 1
    assert checked >= 12


def test_state_holds_every_hand():
    game = Game(GameConfig(n_players=2), seed=3)
    vec = state(game)
    extra = vec[OBS_DIM:].reshape(6, CARD_BLOCK)
    assert extra[0].sum() == len(game.hands[game.current])
    assert extra[1].sum() == len(game.hands[1 - game.current])
    assert extra[5].sum() == len(game.hidden) == 3
