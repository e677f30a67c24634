"""Agent spec strings (``random``, ``greedy``, ``heuristic``, ``ismcts:200``, ``ppo:model.zip``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .base import Agent, RandomAgent

#: Spec forms accepted by :func:`make_agent`.
VALID_SPECS = ("random", "greedy", "heuristic", "ismcts", "ismcts:<iterations>", "ismcts:<seconds>s",
               "ppo:<path to model.zip>", "learned", "learned:<path to model.pt>",
               "rllib:<checkpoint dir>")


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string.

    Args:
        spec: one of :data:`VALID_SPECS`, e.g. ``"ismcts:200"`` (200 iterations per move) or
            ``"ismcts:0.1s"`` (0.1 s per move). ``"ppo:<path>"`` imports ``train.ppo_agent`` (and torch)
            only when asked for; ``"learned"`` is the play-scoring model shipped with the package and
            ``"learned:<path>"`` one written by ``seers train`` (:class:`train.scoring_policy.LearnedAgent`);
            ``"rllib:<checkpoint dir>"`` the policy of a ``seers train --algo rllib`` checkpoint (or run
            folder), imported with ``ray`` only when asked for (:func:`train.rllib_agent.rllib_agent`).
        seed: seed of the agent's generator.

    Returns:
        An :class:`~agents.base.Agent` whose ``name`` is ``spec``.

    Model files are read without running anything from them (``docs/file_formats.md``).

    Raises:
        ValueError: unknown spec or a bad budget; the message lists the valid specs. Also (subclasses)
            ``train.model_files.UnsafeModelFileError``: a model file holding a pickle its loader refuses;
            ``train.model_files.ModelFileError``: a damaged or foreign model file;
            ``train.model_config.ModelConfigError``: a model made for another observation or table. Each
            message names the file.
        FileNotFoundError: no model file at a ``ppo:`` or ``rllib:`` path.
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent spec {spec!r} is not a string; valid specs: {', '.join(VALID_SPECS)}")
    name, _, arg = spec.strip().partition(":")
    if name == "random" and not arg:
        agent: Agent = RandomAgent(seed)
    elif name == "greedy" and not arg:
        from .greedy import GreedyAgent

        agent = GreedyAgent(seed)
    elif name == "heuristic" and not arg:
        from .heuristic import HeuristicAgent

        agent = HeuristicAgent(seed)
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
            raise ValueError(f"bad ismcts budget in agent spec {spec!r} ({err}); valid specs: "
                             f"{', '.join(VALID_SPECS)}") from None
    elif name == "learned":
        from train.scoring_policy import LearnedAgent  # lazy: torch only when asked for

        try:
            agent = LearnedAgent(arg or None, seed=seed)
        except FileNotFoundError as err:
            raise ValueError(f"agent spec {spec!r}: {err}") from None
    elif name == "rllib" and arg:
        from train.rllib_agent import rllib_agent  # lazy: torch, and ray only when asked for

        try:
            agent = rllib_agent(arg, seed=seed)
        except ImportError as err:
            raise ValueError(f"agent spec {spec!r} needs Ray RLlib ({err}); install it with "
                             f"pip install -e '.[distributed]'") from None
    elif name == "ppo" and arg:
        from train.ppo_agent import PPOAgent  # lazy: torch only when asked for

        agent = PPOAgent(arg, seed=seed)
    else:
        raise ValueError(f"unknown agent spec {spec!r}; valid specs: {', '.join(VALID_SPECS)}")
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
