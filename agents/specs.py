"""Agent spec strings (``random``, ``greedy``, ``heuristic``, ``ismcts:200``, ``learned``, ``ppo:model.zip``).

This layer builds the baselines itself. Specs of learned agents (``learned``, ``ppo:``, ``rllib:``) belong
to the training layer, which sits above this one: they are found through the package entry-point group
:data:`SPEC_ENTRY_POINTS` (``pyproject.toml``, ``[project.entry-points."seers.agent_specs"]``; the
plugin mechanism of :mod:`importlib.metadata`, as Gymnasium and pytest use), so that this module never
imports :mod:`train`. A plugin is a callable ``factory(arg, seed=..., game=...) -> Agent``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from seers_env.games import DEFAULT_GAME, game_spec

from .base import Agent, RandomAgent

#: Spec forms accepted by :func:`make_agent`.
VALID_SPECS = ("random", "greedy", "heuristic", "ismcts", "ismcts:<iterations>", "ismcts:<seconds>s",
               "ppo:<path to model.zip>", "learned", "learned:<path to model.pt>",
               "rllib:<checkpoint dir>", "learned+search:<iterations>", "rollout:<shuffles>")

#: Spec prefixes of :data:`VALID_SPECS` that play Seers Catalog only (MaskablePPO and RLlib models of its
#: action catalogue; ``train.specs`` refuses them for another game).
SEERS_ONLY_PREFIXES = ("ppo", "rllib")


def valid_specs(game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The spec forms of :data:`VALID_SPECS` that can play ``game`` (every form for Seers Catalog; the
    others lack ``ppo:`` and ``rllib:``), for error messages that say what is allowed.

    Raises:
        ValueError: an unknown game (listing the games).
    """
    game_spec(game)
    from .games import rollout_games

    specs = tuple(s for s in VALID_SPECS if s.partition(":")[0] != "rollout" or game in rollout_games())
    if game == DEFAULT_GAME:
        return specs
    return tuple(s for s in specs if s.partition(":")[0] not in SEERS_ONLY_PREFIXES)


def _valid_text(game: str) -> str:
    """``valid specs: ...`` (``valid specs for Haggis: ...`` for a game other than Seers Catalog)."""
    where = "" if game == DEFAULT_GAME else f" for {game_spec(game).title}"
    return f"valid specs{where}: {', '.join(valid_specs(game))}"


#: The entry-point group of spec plugins (name: the spec's prefix, e.g. ``learned``).
SPEC_ENTRY_POINTS = "seers.agent_specs"

#: Spec prefixes that need an argument (``ppo:<path>``).
_NEEDS_ARGUMENT = ("ppo", "rllib")

#: Spec prefixes of :data:`VALID_SPECS` that the training layer registers (pyproject entry points).
_PLUGIN_NAMES = ("learned", "ppo", "rllib", "learned+search")


def _spec_plugin(name: str):
    """The factory registered for spec prefix ``name``, or ``None``."""
    from importlib.metadata import entry_points

    for point in entry_points(group=SPEC_ENTRY_POINTS):
        if point.name == name:
            return point
    return None


def make_agent(spec: str, seed: int | None = None, game: str = DEFAULT_GAME) -> Agent:
    """Build an agent from its spec string.

    Args:
        spec: one of :data:`VALID_SPECS`, e.g. ``"ismcts:200"`` (200 iterations per move) or
            ``"ismcts:0.1s"`` (0.1 s per move). ``"learned"`` is the play-scoring model shipped with the
            package and ``"learned:<path>"`` one written by ``seers train``; ``"ppo:<path>"`` a
            MaskablePPO model; ``"rllib:<checkpoint dir>"`` the policy of a ``seers train --algo rllib``
            checkpoint. Those three come from the training layer (module docstring) and import torch
            (and ray) only when asked for. ``"rollout:<shuffles>"`` (Seals only) is the heuristic
            improved by rollouts over that many pile shuffles per decision (:mod:`agents.seals_rollout`).
        seed: seed of the agent's generator.
        game: the game the agent plays (a name of :data:`seers_env.games.GAMES`); ``random`` and
            ``ismcts`` play every game, ``greedy`` and ``heuristic`` are each game's own
            (:mod:`agents.games`).

    Returns:
        An :class:`~agents.base.Agent` whose ``name`` is ``spec``.

    Model files are read without running anything from them (``docs/file_formats.md``).

    Raises:
        ValueError: unknown spec or game, a bad budget, or a learned spec whose layer is not installed;
            the message lists the valid specs. Also (subclasses)
            ``train.model_files.UnsafeModelFileError``: a model file holding a pickle its loader refuses;
            ``train.model_files.ModelFileError``: a damaged or foreign model file;
            ``train.model_config.ModelConfigError``: a model made for another observation or table. Each
            message names the file.
        FileNotFoundError: no model file at a ``ppo:`` or ``rllib:`` path.
    """
    game_spec(game)  # an unknown game: ValueError listing the games
    if not isinstance(spec, str):
        raise ValueError(f"agent spec {spec!r} is not a string; {_valid_text(game)}")
    name, _, arg = spec.strip().partition(":")
    if name == "random" and not arg:
        agent: Agent = RandomAgent(seed)
    elif name in ("greedy", "heuristic") and not arg:
        from . import games

        agent = (games.greedy_class(game) if name == "greedy" else games.heuristic_class(game))(seed)
    elif name == "ismcts":
        from .ismcts import ISMCTSAgent

        try:
            if not arg:
                agent = ISMCTSAgent(seed=seed)
            elif arg.endswith("s"):
                agent = ISMCTSAgent(seconds=float(arg[:-1]), seed=seed)
            else:
                agent = ISMCTSAgent(iterations=int(arg), seed=seed)
        except ValueError as err:
            raise ValueError(f"bad ismcts budget in agent spec {spec!r} ({err}); {_valid_text(game)}") from None
    elif name == "rollout":
        from . import games

        if game not in games.rollout_games():
            raise ValueError(f"agent spec {spec!r}: the rollout agent plays "
                             f"{', '.join(games.rollout_games())} only, not {game!r}; {_valid_text(game)}")
        try:
            cls = games.rollout_class(game)
            agent = cls(int(arg), seed=seed) if arg else cls(seed=seed)
        except ValueError as err:
            raise ValueError(f"bad rollout budget in agent spec {spec!r} ({err}); {_valid_text(game)}") from None
    elif name and (arg or name not in _NEEDS_ARGUMENT) and (point := _spec_plugin(name)) is not None:
        try:
            factory = point.load()
        except ImportError as err:
            raise ValueError(f"agent spec {spec!r} needs the training layer ({err}); install it with "
                             f"pip install -e '.[train]'") from None
        agent = factory(arg or None, seed=seed, game=game)
    elif name in _PLUGIN_NAMES and (arg or name not in _NEEDS_ARGUMENT):
        # a spec of the training layer whose entry point this install lacks (metadata of an older install)
        raise ValueError(f"agent spec {spec!r}: this install registers no {SPEC_ENTRY_POINTS!r} entry point "
                         f"{name!r}; install the package again: pip install -e '.[train]'")
    else:
        raise ValueError(f"unknown agent spec {spec!r}; {_valid_text(game)}")
    agent.name = spec
    return agent


def make_agents(specs: Sequence[str], seed: int | None = None) -> list[Agent]:
    """Build one agent per spec string, e.g. the opponents of
    :class:`seers_env.wrappers.SingleAgentSeersEnv` (which takes agents, not specs).

    Args:
        specs: spec strings (see :func:`make_agent`), or one comma-separated string
            (``"heuristic,greedy,random"``).
        seed: agent ``i`` is seeded with ``SeedSequence([seed, i])`` (``None``: fresh entropy).

    Returns:
        A new list of new agents, in the order of ``specs``.

    Raises:
        ValueError: an unknown spec or a bad budget (message from :func:`make_agent`); an empty list.
    """
    if isinstance(specs, str):
        specs = [s for s in specs.split(",") if s.strip()]
    specs = list(specs)
    if not specs:
        raise ValueError("make_agents needs at least one agent spec, got none")
    out = []
    for i, spec in enumerate(specs):
        agent_seed = None if seed is None else int(np.random.SeedSequence([seed, i]).generate_state(1)[0])
        out.append(make_agent(spec, seed=agent_seed))
    return out
