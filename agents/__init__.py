"""Baseline agents (random, greedy, heuristic, ISMCTS) and the duplicate-format tournament.

Every agent acts at the engine level: ``act(view: SeatView) -> Play`` (a member of
``view.legal_plays()``); :func:`make_agent` builds one from a spec string.
"""

from .base import Agent, RandomAgent
from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .specs import VALID_SPECS, make_agent, make_agents

__all__ = ["Agent", "GreedyAgent", "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "VALID_SPECS",
           "make_agent", "make_agents"]
