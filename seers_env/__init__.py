"""Seers Catalog: a rules engine (plain Python + numpy) and, on top of it, a PettingZoo AEC environment.

The engine (``Game``, ``GameConfig``, ``Play`` and the modules ``cards``, ``artifacts``, ``rulings``,
``melds``, ``moves``, ``scoring``, ``game``, ``view``) imports no RL library. ``env`` and ``raw_env`` (the
PettingZoo AEC environment, module :mod:`seers_env.seers_catalog_v0`) are imported lazily, on first access,
so that ``import seers_env`` stays light.
"""

from __future__ import annotations

from .actions import N_ACTIONS, Decision, describe_action
from .artifacts import ARTIFACT_KINDS, DEFAULT_ARTIFACT_DECK, ArtifactKind, Timing
from .game import Game, GameConfig, GameOverError, IllegalPlayError, PlayResult
from .plays import MeldType, Play, PlayKind

__version__ = "0.1.0"

__all__ = [
    "ARTIFACT_KINDS", "DEFAULT_ARTIFACT_DECK", "Decision", "N_ACTIONS", "describe_action", "ArtifactKind", "Game", "GameConfig", "GameOverError",
    "IllegalPlayError", "MeldType", "Play", "PlayKind", "PlayResult", "Timing", "env", "raw_env",
]


def __getattr__(name: str):
    if name in ("env", "raw_env"):
        import importlib

        return getattr(importlib.import_module(f"{__name__}.seers_catalog_v0"), name)
    raise AttributeError(f"module 'seers_env' has no attribute {name!r}")
