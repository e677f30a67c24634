"""Random play policies that drive SCOUT games into varied reachable states (test helpers).

Every policy is ``policy(game, rng) -> ScoutPlay`` and picks among ``game.legal_plays()`` with draws from
``rng`` only. ``hoarder`` and ``greedy_hoarder`` steer one seat (the round's start player) into a long
hand: it scouts whenever that does not end the round, while the others make their weakest shows.
"""

from __future__ import annotations

import collections

import numpy as np

from seers_env.scout import ScoutConfig, ScoutGame
from seers_env.scout.moves import strength_key
from seers_env.scout.plays import SCOUT, SHOW


def uniform(game, rng):
    legal = game.legal_plays()
    return legal[int(rng.integers(len(legal)))]


def _by_kind(legal):
    by = collections.defaultdict(list)
    for p in legal:
        by[p.kind].append(p)
    return by


def by_kind(game, rng):
    """A kind uniformly among those available, then a play of that kind."""
    by = _by_kind(game.legal_plays())
    kinds = sorted(by)
    pool = by[kinds[int(rng.integers(len(kinds)))]]
    return pool[int(rng.integers(len(pool)))]


def scout_heavy(game, rng):
    by = _by_kind(game.legal_plays())
    if SCOUT in by and rng.random() < 0.75:
        return by[SCOUT][int(rng.integers(len(by[SCOUT])))]
    return by_kind(game, rng)


def _ends_round(game):
    n = game.n_players
    return n > 2 and (game.current + 1) % n == game.active_owner


def hoarder(game, rng, eps=0.1):
    legal = game.legal_plays()
    if game.phase != "play" or rng.random() < eps:
        return legal[int(rng.integers(len(legal)))]
    by = _by_kind(legal)
    if game.current == game.start_player and SCOUT in by and not _ends_round(game):
        return by[SCOUT][int(rng.integers(len(by[SCOUT])))]
    if SHOW in by:
        v = game.hand_values(game.current)
        return min(by[SHOW], key=lambda p: (strength_key(v[p.start:p.start + p.length]), rng.random()))
    return legal[int(rng.integers(len(legal)))]


def greedy_hoarder(game, rng, tries=10):
    """One-step lookahead: grow the start player's hand, keep piles small and the round going."""
    legal = game.legal_plays()
    if len(legal) == 1 or game.phase != "play":
        return legal[int(rng.integers(len(legal)))]
    seat = game.start_player
    best, best_score = legal[0], -np.inf
    for i in rng.permutation(len(legal))[:tries].tolist():
        g = game.clone()
        g.apply(legal[i])
        if g.round != game.round or g.game_over:
            score = -1000.0
        else:
            sizes = g.hand_sizes()
            others = min(h for s, h in enumerate(sizes) if s != seat)
            score = 4 * sizes[seat] - 2 * sum(g.pile_sizes()) + others + 2 * rng.random()
        if score > best_score:
            best, best_score = legal[i], score
    return best


POLICIES = {"uniform": uniform, "by_kind": by_kind, "scout_heavy": scout_heavy, "hoarder": hoarder,
            "greedy_hoarder": greedy_hoarder}


def random_config(n_players: int, rng) -> ScoutConfig:
    """A config with random flags; now and then a small turn cap (to reach truncation)."""
    cap = int(rng.integers(5, 60)) if rng.random() < 0.15 else 300
    return ScoutConfig(n_players=n_players,
                       first_player=("seat0", "random", "holder_of_1_2")[int(rng.integers(3))],
                       public_scout_flip_and_position=bool(rng.random() < 0.7),
                       two_player_may_stop=bool(rng.random() < 0.3), max_turns_per_round=cap)


def random_games(n_players: int, seed: int, policies=None):
    """Endless ``(game, policy_name)`` pairs: fresh games with random configs and policies."""
    rng = np.random.default_rng(seed)
    names = list(policies or POLICIES)
    weights = np.array([{"greedy_hoarder": 0.5}.get(n, 1.0) for n in names])
    weights /= weights.sum()
    while True:
        config = random_config(n_players, rng)
        name = names[int(rng.choice(len(names), p=weights))]
        yield ScoutGame(config, seed=int(rng.integers(2**31))), POLICIES[name], rng


def random_states(n_players: int, count: int, seed: int = 0, policies=None):
    """Yield ``count`` reachable games (every state of the driven games, in order; the same object is
    yielded again after each play, so consume each state before the next is made)."""
    made = 0
    for game, policy, rng in random_games(n_players, seed, policies):
        while not game.game_over and made < count:
            yield game
            made += 1
            game.apply(policy(game, rng))
        if made >= count:
            return
