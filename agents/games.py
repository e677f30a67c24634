"""Per-game agent parts, keyed by the registry names of :data:`seers_env.games.GAMES`.

The shared agents (random, ISMCTS) and the tournament serve every game; only the greedy and heuristic
agents, and what counts as the same play for search, are written per game. Classes are named by dotted
``module:attribute`` paths and imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import Any

from seers_env.games import game_spec


def seers_play_key(play: Any) -> Hashable:
    """A Seers Catalog play's identity (rules section 3 [ruling], ``seers_env.rulings.PLAY_IDENTITY``:
    its first eight fields)."""
    return play[:8]


def whole_play_key(play: Any) -> Hashable:
    """The play itself: for games whose plays carry nothing but their identity."""
    return play


@dataclass(frozen=True)
class GameAgents:
    """One game's agent parts.

    Attributes:
        greedy: the greedy agent's class (also the ISMCTS rollout policy).
        heuristic: the heuristic agent's class; its ``scores(view) -> [(score, play), ...]`` ranks the
            ISMCTS candidates.
        play_key: the identity of a play for search trees (``module:function``).
        rollout: the rollout agent's class (``rollout:<shuffles>``: the heuristic improved by rollouts),
            where the game has one.
    """

    greedy: str
    heuristic: str
    play_key: str = "agents.games:whole_play_key"
    rollout: str | None = None


GAME_AGENTS: dict[str, GameAgents] = {
    "seers_catalog": GameAgents(greedy="agents.greedy:GreedyAgent", heuristic="agents.heuristic:HeuristicAgent",
                                play_key="agents.games:seers_play_key"),
    "scout": GameAgents(greedy="agents.scout:ScoutGreedyAgent", heuristic="agents.scout:ScoutHeuristicAgent"),
    "seals": GameAgents(greedy="agents.seals:SealsGreedyAgent", heuristic="agents.seals:SealsHeuristicAgent",
                        rollout="agents.seals_rollout:SealsRolloutAgent"),
    "haggis": GameAgents(greedy="agents.haggis:HaggisGreedyAgent", heuristic="agents.haggis:HaggisHeuristicAgent"),
}


def _resolve(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def agent_parts(game: str) -> GameAgents:
    """The :class:`GameAgents` of ``game``.

    Raises:
        ValueError: an unknown game (message lists the registered ones), or a game with no agents yet.
    """
    game_spec(game)
    try:
        return GAME_AGENTS[game]
    except KeyError:
        raise ValueError(f"game {game!r} has no agents yet; games with agents: {', '.join(GAME_AGENTS)}") from None


@cache
def greedy_class(game: str) -> type:
    """The greedy agent class of ``game``."""
    return _resolve(agent_parts(game).greedy)


@cache
def heuristic_class(game: str) -> type:
    """The heuristic agent class of ``game``."""
    return _resolve(agent_parts(game).heuristic)


def rollout_games() -> tuple[str, ...]:
    """The games with a rollout agent (``rollout:<shuffles>``), in registry order."""
    return tuple(g for g, parts in GAME_AGENTS.items() if parts.rollout is not None)


@cache
def rollout_class(game: str) -> type:
    """The rollout agent class of ``game``.

    Raises:
        ValueError: a game without one (message lists :func:`rollout_games`).
    """
    path = agent_parts(game).rollout
    if path is None:
        raise ValueError(f"game {game!r} has no rollout agent; games with one: {', '.join(rollout_games())}")
    return _resolve(path)


@cache
def play_key(game: str) -> Callable[[Any], Hashable]:
    """The play-identity function of ``game``."""
    return _resolve(agent_parts(game).play_key)
