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

**Guided search.** Given a :class:`SearchGuide` (a learned policy and value, e.g.
``train.guided_search.NetworkGuide``), the same search chooses among **all** the plays legal in the
sample by PUCT (Silver et al., "Mastering the game of Go without human knowledge", Nature 550, 2017;
"A general reinforcement learning algorithm that masters chess, shogi and Go through self-play",
Science 362, 2018): ``Q + c_puct * P * sqrt(N) / (1 + n)``, with ``P`` the guide's probability of the
play among the seat's legal plays in that sample, ``N`` the visits of the node, ``n`` those of the edge
and, for an edge never tried, ``Q`` the mean reward of the node's tried edges (first-play urgency; 0
when none). The leaf is either valued by the guide (``leaf="value"``: each seat's expected round-score
advantage), rolled out as above (``leaf="rollout"``; ``rollout="guide"`` plays the guide's most
probable play), or both, averaged with the rollout's weight ``leaf_mix`` (``leaf="mixed"``; AlphaGo's
mixed evaluation, Silver et al., Nature 529, 2016). Without a guide the search is exactly the plain SO-ISMCTS above (same seed, same
choices).

**Weighted worlds.** With ``worlds=M`` the search samples a pool of ``M`` worlds once per decision,
weighs each by how well it explains the round's public plays (``inference="rules"``: 0 when one of them
was illegal in it; ``"policy"``: the guide's likelihood of the others' plays), and each iteration
searches a copy of a world drawn by weight (inference for determinized search: Buro, Long, Furtak and
Sturtevant, IJCAI 2009). ``worlds=0``, the default, samples a new, unweighted world every iteration.
"""

from __future__ import annotations

import math
import time

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

from seers_env.games import game_of
from seers_env.integers import is_real_number
from seers_env.protocol import GameState, SeatView

from . import games as game_agents
from .base import Agent


#: The rollout's weight in a ``leaf="mixed"`` evaluation by default (AlphaGo's lambda).
DEFAULT_LEAF_MIX = 0.5


@runtime_checkable
class SearchGuide(Protocol):
    """What a guided search asks of a learned policy and value (module docstring)."""

    def priors(self, view: SeatView) -> Sequence[float]:
        """Probabilities of the acting seat's plays, aligned with ``view.legal_plays()``: float64
        ``(n_legal,)``, non-negative, summing to 1."""

    def values(self, game: GameState) -> Sequence[float]:
        """Each seat's expected score this round minus the mean of the others' (points, ``n_players``
        floats), in ``game`` (a full, sampled state: the search's determinization), mid-round."""


def _by_prior(prior: Sequence[float]) -> list[int]:
    """Indices of ``prior`` by falling value, ties in index order."""
    if len(prior) == 1:
        return [0]
    return np.argsort(-np.asarray(prior, dtype=np.float64), kind="stable").tolist()


class _Node:
    __slots__ = ("children", "visits", "reward", "avail", "priors")

    def __init__(self) -> None:
        self.children: dict[tuple, _Node] = {}  # insertion-ordered (deterministic)
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        # pool index -> the guide's priors here in that world (weighted worlds: the same world and the
        # same path give the same position, so its priors are asked for once)
        self.priors: dict[int, Sequence[float]] | None = None


def top_indices(scores, k: int) -> list[int]:
    """Indices of the ``k`` highest of ``scores`` (a sequence of floats), best first, ties to the earlier
    index: the plays an ISMCTS tree node keeps (its ``top_k`` pruning). A stable sort of the negated
    scores (numpy's ``kind="stable"``).

    Raises:
        ValueError: ``scores`` is not one-dimensional.
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"scores has shape {values.shape}; expected one score per play, (n,)")
    return np.argsort(-values, kind="stable")[:k].tolist()


def pool_weights(log_weights: np.ndarray) -> np.ndarray:
    """Normalised weights (float64 ``(M,)``, summing to 1) of a pool of worlds from their log weights
    (float ``(M,)``; ``-inf`` for an impossible world): ``exp(log_w - max)`` over the finite ones, 0 for the
    rest; uniform when no world is possible (importance resampling, Buro et al., IJCAI 2009)."""
    log_w = np.asarray(log_weights, dtype=np.float64)
    finite = np.isfinite(log_w)
    if not finite.any():
        return np.full(len(log_w), 1.0 / len(log_w))
    weights = np.where(finite, np.exp(log_w - log_w[finite].max()), 0.0)
    return weights / weights.sum()


class ISMCTSAgent(Agent):
    """SO-ISMCTS agent, plain or guided (module docstring).

    Args:
        iterations: iterations per move (used when ``seconds`` is None). Default 200.
        seconds: wall-time budget per move, in seconds (at least one iteration is run).
        top_k: candidate plays per tree node (best by the heuristic's ranking); plain search only.
        exploration: UCB1 exploration constant ``c`` (rewards lie in about [-1, 1]); plain search only.
        rollout: ``"greedy"`` or ``"random"`` default policy to the end of the round; with a guide also
            ``"guide"`` (its most probable play).
        seed: seed of the agent's generator (determinizations, expansion order, random rollouts).
        guide: a :class:`SearchGuide`: PUCT over its priors instead of UCB1 over the heuristic's top plays.
        leaf: with a guide, ``"value"`` (the guide's values at the new leaf), ``"rollout"`` or
            ``"mixed"``: ``(1 - leaf_mix) * value + leaf_mix * rollout`` (AlphaGo's mixed leaf evaluation,
            Silver et al., Nature 529, 2016).
        leaf_mix: the rollout's weight with ``leaf="mixed"``, a real number in [0, 1] (an int, float, NumPy
            number or ``fractions.Fraction``; ``None``: :data:`DEFAULT_LEAF_MIX`); at 0 no rollout is played,
            at 1 the guide's values are not asked.
        c_puct: PUCT exploration constant (guided search).
        worlds: 0 (each iteration samples a new world, uniformly) or the size of a pool of sampled worlds,
            drawn once per decision and weighted by ``inference``; each iteration then searches a copy of
            a world drawn from the pool by weight (importance resampling; inference as in Buro et al.,
            "Improving state evaluation, inference, and search in trick-based card games", IJCAI 2009).
            Needs a determinizer with ``replay_round`` (Seers Catalog).
        inference: with ``worlds``: ``"rules"`` (weight 0 for a world in which one of the round's plays
            was illegal, e.g. a pass in the Bonus while holding a meld, 1 otherwise) or ``"policy"`` (the
            guide's ``world_log_likelihood``: how likely the others' plays were in it).

    Raises:
        ValueError: a non-positive budget, ``top_k < 1``, an unknown rollout policy or leaf, a leaf or
            rollout that needs a guide without one, ``c_puct`` not a finite number >= 0, ``leaf_mix``
            outside [0, 1] or given with another leaf than ``"mixed"``.
        TypeError: ``guide`` lacks ``priors`` or ``values``; ``leaf_mix`` is not a real number.
    """

    #: ``inference`` values
    INFERENCES = ("rules", "policy")
    #: ``leaf`` values
    LEAVES = ("rollout", "value", "mixed")
    #: the rollout's weight in a leaf's reward, by ``leaf`` (``"mixed"``: ``leaf_mix``)
    _ROLLOUT_WEIGHT = {"value": 0.0, "rollout": 1.0}

    name = "ismcts"

    def __init__(self, iterations: int = 200, seconds: float | None = None, top_k: int = 6,
                 exploration: float = 0.7, rollout: str = "greedy", seed: int | None = None,
                 guide: SearchGuide | None = None, leaf: str = "rollout", c_puct: float = 1.5,
                 worlds: int = 0, inference: str = "rules", leaf_mix: float | None = None):
        super().__init__(seed)
        if seconds is not None and not (0 < seconds < math.inf):
            raise ValueError(f"seconds={seconds!r} must be a finite number > 0")
        if seconds is None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations={iterations!r} must be an integer >= 1")
        if top_k < 1:
            raise ValueError(f"top_k={top_k!r} must be >= 1")
        rollouts = ("greedy", "random", "guide") if guide is not None else ("greedy", "random")
        if rollout not in rollouts:
            raise ValueError(f"rollout={rollout!r} is not one of {', '.join(map(repr, rollouts))}"
                             + ("" if guide is not None else " ('guide' needs a guide)"))
        if leaf not in self.LEAVES:
            raise ValueError(f"leaf={leaf!r} is not one of {', '.join(map(repr, self.LEAVES))}")
        if leaf != "rollout" and guide is None:
            raise ValueError(f"leaf={leaf!r} needs a guide (a SearchGuide giving values)")
        if leaf_mix is not None:
            if leaf != "mixed":
                raise ValueError(f"leaf_mix={leaf_mix!r} weighs the rollout of leaf='mixed'; leaf={leaf!r} "
                                 f"takes none")
            if not (is_real_number(leaf_mix) or isinstance(leaf_mix, Fraction)):
                raise TypeError(f"leaf_mix={leaf_mix!r} must be a real number in [0, 1], not "
                                f"{type(leaf_mix).__name__}")
            if not 0 <= leaf_mix <= 1:
                raise ValueError(f"leaf_mix={leaf_mix!r} must be a number in [0, 1]")
        if guide is not None and not isinstance(guide, SearchGuide):
            raise TypeError(f"guide {type(guide).__name__} lacks priors(view) and values(game) (SearchGuide)")
        if isinstance(c_puct, bool) or not isinstance(c_puct, (int, float)) or not 0 <= c_puct < math.inf:
            raise ValueError(f"c_puct={c_puct!r} must be a finite number >= 0")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 0:
            raise ValueError(f"worlds={worlds!r} must be an integer >= 0 (0: a new world each iteration)")
        if inference not in self.INFERENCES:
            raise ValueError(f"inference={inference!r} is not one of {', '.join(map(repr, self.INFERENCES))}")
        if inference == "policy" and guide is None:
            raise ValueError("inference='policy' needs a guide (its world_log_likelihood)")
        self.worlds, self.inference = worlds, inference
        self.last_effective_worlds = 0.0  # effective sample size of the last move's weighted pool
        self.iterations, self.seconds, self.top_k = iterations, seconds, top_k
        self.exploration, self.rollout = exploration, rollout
        self.guide, self.leaf, self.c_puct = guide, leaf, float(c_puct)
        self.leaf_mix = DEFAULT_LEAF_MIX if leaf_mix is None else float(leaf_mix)
        self._parts: dict[str, tuple] = {}  # game name -> (ranker, greedy, play key, view class, scale)
        self.last_iterations = 0  # iterations run for the last move (for benchmarks)
        self.last_visits: dict = {}  # play key -> (visits, total reward) of the last move's root edges

    def _game_parts(self, view: SeatView) -> tuple:
        spec = game_of(view)
        parts = self._parts.get(spec.name)
        if parts is None:
            parts = self._parts[spec.name] = (
                game_agents.heuristic_class(spec.name)(), game_agents.greedy_class(spec.name)(),
                game_agents.play_key(spec.name), type(view), spec.score_scale)
        return parts

    def _candidates(self, legal: list[Any], view: SeatView, ranker: Agent) -> list[Any]:
        """The ``top_k`` plays of ``legal`` (the acting seat's, in ``view``) by ``ranker``, in legal order."""
        if len(legal) <= self.top_k:
            return legal
        scored = ranker.scores(view)
        order = top_indices([score for score, _ in scored], self.top_k)
        return [scored[i][1] for i in sorted(order)]

    def _rollout_play(self, game: GameState, greedy: Agent, view_class: type) -> Any:
        if self.rollout == "greedy":
            return greedy.act(view_class(game, game.current))
        legal = game.legal_plays()
        if self.rollout == "guide":
            if len(legal) == 1:
                return legal[0]
            prior = self.guide.priors(view_class(game, game.current))
            return legal[max(range(len(legal)), key=prior.__getitem__)]
        return legal[int(self.rng.integers(len(legal)))]

    def _descend_ucb(self, root: _Node, game: GameState, start_round: int, parts: tuple,
                     root_cands: list[Any]) -> list:
        """Plain SO-ISMCTS selection and expansion in ``game`` (changed in place); the path's
        ``(edge node, seat that chose it)``. ``root_cands``: the root's candidates, the same in every
        world (they depend on the acting seat's view only)."""
        ranker, _, key, view_class, _ = parts
        rng = self.rng
        node = root
        path: list[tuple[_Node, int]] = []
        while not game.game_over and game.round == start_round:
            seat = game.current
            cands = root_cands if node is root else self._candidates(
                game.legal_plays(), view_class(game, seat), ranker)
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
        return path

    def _descend_puct(self, root: _Node, game: GameState, start_round: int, parts: tuple,
                      root_prior: Sequence[float], root_visits: int, world: int | None = None) -> list:
        """Guided selection (PUCT over the guide's priors, module docstring) and expansion of one edge
        in ``game`` (changed in place); the path's ``(edge node, seat that chose it)``. ``world``: the
        pool index of ``game`` (weighted worlds), under which each node keeps the priors it was given, as
        the same world and path reach the same position again; ``None``: a new world, nothing kept."""
        _, _, key, view_class, _ = parts
        guide, c_puct = self.guide, self.c_puct
        node = root
        path: list[tuple[_Node, int]] = []
        while not game.game_over and game.round == start_round:
            seat = game.current
            legal = game.legal_plays()
            if node is root and len(root_prior) == len(legal):
                prior = root_prior
            elif len(legal) == 1:
                prior = (1.0,)
            elif world is None:
                prior = guide.priors(view_class(game, seat))
            else:
                kept = node.priors
                if kept is None:
                    kept = node.priors = {}
                prior = kept.get(world)
                if prior is None or len(prior) != len(legal):
                    prior = kept[world] = guide.priors(view_class(game, seat))
            children = node.children
            tried = tried_reward = 0.0
            best_q = -math.inf
            for c in children.values():
                tried += c.visits
                tried_reward += c.reward
                q = c.reward / c.visits
                if q > best_q:
                    best_q = q
            fpu = tried_reward / tried if tried else 0.0
            top_q = max(fpu, best_q)
            scale = c_puct * math.sqrt(max(root_visits if node is root else node.visits, 1))
            best_i, best_score, best_child = 0, -math.inf, None
            # plays by falling prior (ties: legal order); no later play can beat top_q + scale * prior
            for i in _by_prior(prior):
                p_i = prior[i]
                if top_q + scale * p_i <= best_score:
                    break
                c = children.get(key(legal[i]))
                if c is None:
                    score = fpu + scale * p_i
                else:
                    score = c.reward / c.visits + scale * p_i / (1 + c.visits)
                if score > best_score:
                    best_i, best_score, best_child = i, score, c
            play = legal[best_i]
            if best_child is None:
                child = children[key(play)] = _Node()
                path.append((child, seat))
                game.apply(play)
                break
            node = best_child
            path.append((node, seat))
            game.apply(play)
        return path

    def _leaf_rewards(self, game: GameState, start_round: int, parts: tuple) -> list[float]:
        """Each seat's reward of one iteration: its round score (or the guide's estimate, or both mixed by
        ``leaf_mix``) minus the mean of the others', / the game's score scale."""
        _, greedy, _, view_class, scale = parts
        n = game.n_players
        mix = self._ROLLOUT_WEIGHT.get(self.leaf, self.leaf_mix)
        values = None
        if mix < 1.0 and not game.game_over and game.round == start_round:
            values = [v / scale for v in self.guide.values(game)]
            if mix == 0.0:
                return values
        while not game.game_over and game.round == start_round:
            game.apply(self._rollout_play(game, greedy, view_class))
        scores = game.round_scores[start_round]
        total = sum(scores)
        rolled = [(scores[seat] - (total - scores[seat]) / (n - 1)) / scale for seat in range(n)]
        if values is None:
            return rolled
        return [(1.0 - mix) * v + mix * r for v, r in zip(values, rolled, strict=True)]

    def _world_pool(self, view: SeatView, sampler: Any, rng: np.random.Generator) -> tuple[list, np.ndarray]:
        """``worlds`` sampled worlds and their normalised weights (``inference``; uniform when every
        world has weight 0)."""
        if not hasattr(sampler, "replay_round"):
            raise ValueError(f"worlds={self.worlds} needs a determinizer that replays the round "
                             f"(replay_round); {game_of(view).name} has none: use worlds=0")
        pool = [sampler.sample(rng) for _ in range(self.worlds)]
        if self.inference == "policy":
            log_w = np.array([self.guide.world_log_likelihood(sampler, w) for w in pool], dtype=np.float64)
        else:
            log_w = np.array([self._consistent(sampler, w) for w in pool], dtype=np.float64)
        weights = pool_weights(log_w)
        self.last_effective_worlds = float(1.0 / np.sum(weights ** 2))
        return pool, weights

    @staticmethod
    def _consistent(sampler: Any, world: GameState) -> float:
        """0.0 when every play of the round is legal in ``world`` (log weight), else ``-inf``."""
        try:
            for _ in sampler.replay_round(world):
                pass
        except ValueError:  # IllegalPlayError
            return -math.inf
        return 0.0

    def act(self, view: SeatView) -> Any:
        """The most visited root play after the search (module docstring).

        Raises:
            ValueError: ``view``'s seat is not to act (:meth:`~agents.base.Agent.legal_for`).
        """
        legal = self.legal_for(view)
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_visits = {}
            return legal[0]
        parts = self._game_parts(view)
        key = parts[2]
        rng = self.rng
        sampler = view.determinizer()
        root = _Node()
        start_round = view.round
        root_prior = self.guide.priors(view) if self.guide is not None else ()
        root_cands = self._candidates(legal, view, parts[0]) if self.guide is None else ()
        if self.worlds:
            pool, weights = self._world_pool(view, sampler, rng)
            cumulative = np.cumsum(weights)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        it = 0
        while True:
            if deadline is None:
                if it >= self.iterations:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            if self.worlds:
                pick = min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")),
                           len(pool) - 1)
                game = pool[pick].clone()
            else:
                pick = None
                game = sampler.sample(rng)
            if self.guide is None:
                path = self._descend_ucb(root, game, start_round, parts, root_cands)
            else:
                path = self._descend_puct(root, game, start_round, parts, root_prior, it - 1, pick)
            rewards = self._leaf_rewards(game, start_round, parts)
            for child, seat in path:
                child.visits += 1
                child.reward += rewards[seat]
        self.last_iterations = it
        self.last_visits = {k: (c.visits, c.reward) for k, c in root.children.items()}
        best_key = max(root.children, key=lambda k: (root.children[k].visits,
                                                      root.children[k].reward / root.children[k].visits))
        for p in legal:
            if key(p) == best_key:
                return p
        raise RuntimeError("ISMCTS chose a play that is not legal (engine/determinization mismatch)")
