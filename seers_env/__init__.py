"""Seers Catalog: a rules engine (Python, legal-play generation compiled with numba) and, on top of it, a PettingZoo AEC environment.

Layers: the pure rules engine (``Game``, ``GameConfig``, ``Play`` and the modules ``cards``, ``artifacts``,
``rulings``, ``melds``, ``moves``, ``scoring``, ``game``, ``view``) lives in :mod:`seers_env.engine` and
imports no RL library; the old paths (``seers_env.game`` and so on) name the same modules. The environment
adapter (``actions``, ``observation``, the AEC environment) sits in :mod:`seers_env`. ``env`` and ``raw_env``
(module :mod:`seers_env.seers_catalog_v0`) are imported lazily, on first access, so that ``import seers_env``
stays light; so is ``ResetNeeded``, the error of every environment method called before ``reset()``.

Importing the package registers every game's environment with PettingZoo (``pettingzoo.make("aec",
"seers/seers_catalog-v0")``, ``"seers/scout-v0"``), by entry-point strings and without importing PettingZoo
itself (:mod:`seers_env.registration`).
"""

from __future__ import annotations

from .actions import N_ACTIONS, Decision, describe_action
from .engine.artifacts import ARTIFACT_KINDS, DEFAULT_ARTIFACT_DECK, ArtifactKind, Timing
from .engine.game import Game, GameConfig, GameOverError, IllegalPlayError, PlayResult
from .engine.plays import MeldType, Play, PlayKind
from .registration import install as _install_registration

_install_registration()

__version__ = "0.1.0"

__all__ = [
    "ARTIFACT_KINDS", "DEFAULT_ARTIFACT_DECK", "Decision", "N_ACTIONS", "describe_action", "ArtifactKind", "Game", "GameConfig", "GameOverError",
    "IllegalPlayError", "MeldType", "Play", "PlayKind", "PlayResult", "ResetNeeded", "Timing", "env", "raw_env",
]


def __getattr__(name: str):
    if name in ("env", "raw_env", "ResetNeeded"):
        import importlib

        return getattr(importlib.import_module(f"{__name__}.seers_catalog_v0"), name)
    raise AttributeError(f"module 'seers_env' has no attribute {name!r}")
