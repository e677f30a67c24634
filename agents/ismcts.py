"""``ismcts``: single-observer information-set Monte Carlo tree search (SO-ISMCTS), for every game.

Source: Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
2012 (SO-ISMCTS with availability counts in UCB).

It uses only the game protocol (:mod:`seers_env.protocol`) and the game's agent parts
(:mod:`agents.games`). Each iteration samples the cards this seat cannot see (the view's
``determinizer()``; in Seers Catalog consistent with hand sizes, cards seen, cards picked up with the
Rod, the Go First holder and each seat's dealt wilds and artifacts still unplayed), then descends one
shared tree whose edges are play identities (:func:`agents.games.play_key`; Seers Catalog: rules
section 3 [ruling]), choosing among the plays legal in that sample by UCB1 with availability counts,
expands one play, and finishes the **round** with a fast rollout policy (the game's ``greedy`` by
default). The reward of a seat is its round score minus the mean round score of the others, divided by
the game's ``score_scale`` (:class:`seers_env.games.GameSpec`; Seers Catalog: 15, the hand size), backed
up to the edges that seat chose.

Branching is pruned: at every tree node only the ``top_k`` plays ranked best by the game's heuristic
agent are candidates (leads can have thousands of legal plays).
The move played is the most visited root edge. Budget: ``iterations`` per move (reproducible for a
seed) or ``seconds`` per move (wall time, so not reproducible).
"""

from __future__ import annotations

import math
import time

from typing import Any

from seers_env.games import game_of
from seers_env.protocol import GameState, SeatView

from . import games as game_agents
from .base import Agent


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[tuple, _Node] = {}  # insertion-ordered (deterministic)
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class ISMCTSAgent(Agent):
    """SO-ISMCTS agent (module docstring).

    Args:
        iterations: iterations per move (used when ``seconds`` is None). Default 200.
        seconds: wall-time budget per move, in seconds (at least one iteration is run).
        top_k: candidate plays per tree node (best by the heuristic's ranking).
        exploration: UCB1 exploration constant ``c`` (rewards lie in about [-1, 1]).
        rollout: ``"greedy"`` or ``"random"`` default policy to the end of the round.
        seed: seed of the agent's generator (determinizations, expansion order, random rollouts).

    Raises:
        ValueError: a non-positive budget, ``top_k < 1`` or an unknown rollout policy.
    """

    name = "ismcts"

    def __init__(self, iterations: int = 200, seconds: float | None = None, top_k: int = 6,
                 exploration: float = 0.7, rollout: str = "greedy", seed: int | None = None):
        super().__init__(seed)
        if seconds is not None and not (0 < seconds < math.inf):
            raise ValueError(f"seconds={seconds!r} must be a finite number > 0")
        if seconds is None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations={iterations!r} must be an integer >= 1")
        if top_k < 1:
            raise ValueError(f"top_k={top_k!r} must be >= 1")
        if rollout not in ("greedy", "random"):
            raise ValueError(f"rollout={rollout!r} is not one of 'greedy', 'random'")
        self.iterations, self.seconds, self.top_k = iterations, seconds, top_k
        self.exploration, self.rollout = exploration, rollout
        self._parts: dict[str, tuple] = {}  # game name -> (ranker, greedy, play key, view class, scale)
        self.last_iterations = 0  # iterations run for the last move (for benchmarks)

    def _game_parts(self, view: SeatView) -> tuple:
        spec = game_of(view)
        parts = self._parts.get(spec.name)
        if parts is None:
            parts = self._parts[spec.name] = (
                game_agents.heuristic_class(spec.name)(), game_agents.greedy_class(spec.name)(),
                game_agents.play_key(spec.name), type(view), spec.score_scale)
        return parts

    def _candidates(self, game: GameState, ranker: Agent, view_class: type) -> list[Any]:
        legal = game.legal_plays()
        if len(legal) <= self.top_k:
            return legal
        scored = ranker.scores(view_class(game, game.current))
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])[:self.top_k]
        return [scored[i][1] for i in sorted(order)]

    def _rollout_play(self, game: GameState, greedy: Agent, view_class: type) -> Any:
        if self.rollout == "greedy":
            return greedy.act(view_class(game, game.current))
        legal = game.legal_plays()
        return legal[int(self.rng.integers(len(legal)))]

    def act(self, view: SeatView) -> Any:
        """The most visited root play after the search (module docstring).

        Raises:
            ValueError: ``view``'s seat is not to act (:meth:`~agents.base.Agent.legal_for`).
        """
        legal = self.legal_for(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        ranker, greedy, key, view_class, scale = self._game_parts(view)
        rng = self.rng
        sampler = view.determinizer()
        root = _Node()
        start_round = view.round
        n = view.n_players
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        it = 0
        while True:
            if deadline is None:
                if it >= self.iterations:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            game = sampler.sample(rng)
            node = root
            path: list[tuple[_Node, int]] = []
            while not game.game_over and game.round == start_round:
                seat = game.current
                cands = self._candidates(game, ranker, view_class)
                untried = [p for p in cands if key(p) not in node.children]
                if untried:
                    play = untried[int(rng.integers(len(untried)))]
                    child = node.children[key(play)] = _Node()
                    path.append((child, seat))
                    game.apply(play)
                    break
                best, best_ucb = None, -math.inf
                for p in cands:
                    c = node.children[key(p)]
                    c.avail += 1
                    ucb = c.reward / c.visits + self.exploration * math.sqrt(math.log(c.avail) / c.visits)
                    if ucb > best_ucb:
                        best, best_ucb = p, ucb
                node = node.children[key(best)]
                path.append((node, seat))
                game.apply(best)
            while not game.game_over and game.round == start_round:
                game.apply(self._rollout_play(game, greedy, view_class))
            scores = game.round_scores[start_round]
            total = sum(scores)
            for child, seat in path:
                child.visits += 1
                child.reward += (scores[seat] - (total - scores[seat]) / (n - 1)) / scale
        self.last_iterations = it
        best_key = max(root.children, key=lambda k: (root.children[k].visits,
                                                      root.children[k].reward / root.children[k].visits))
        for p in legal:
            if key(p) == best_key:
                return p
        raise RuntimeError("ISMCTS chose a play that is not legal (engine/determinization mismatch)")
