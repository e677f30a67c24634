"""Agent spec strings (``random``, ``greedy``, ``heuristic``, ``ismcts:200``, ``ppo:model.zip``)."""

from __future__ import annotations

from .base import Agent, RandomAgent

#: Spec forms accepted by :func:`make_agent`.
VALID_SPECS = ("random", "greedy", "heuristic", "ismcts", "ismcts:<iterations>", "ismcts:<seconds>s",
               "ppo:<path to model.zip>")


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string.

    Args:
        spec: one of :data:`VALID_SPECS`, e.g. ``"ismcts:200"`` (200 iterations per move) or
            ``"ismcts:0.1s"`` (0.1 s per move). ``"ppo:<path>"`` imports ``train.ppo_agent`` (and torch)
            only when asked for.
        seed: seed of the agent's generator.

    Returns:
        An :class:`~agents.base.Agent` whose ``name`` is ``spec``.

    Raises:
        ValueError: unknown spec or a bad budget; the message lists the valid specs.
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
    elif name == "ppo" and arg:
        from train.ppo_agent import PPOAgent  # lazy: torch only when asked for

        agent = PPOAgent(arg, seed=seed)
    else:
        raise ValueError(f"unknown agent spec {spec!r}; valid specs: {', '.join(VALID_SPECS)}")
    agent.name = spec
    return agent
