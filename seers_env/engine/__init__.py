"""The pure rules engine of Seers Catalog: cards, artifacts, rulings, plays, melds, moves, scoring, game, view.

It imports no RL library (no gymnasium, pettingzoo or torch); the environment adapter (action catalogue,
observation encoding, AEC environment, wrappers) in :mod:`seers_env` builds on it. Rules:
``docs/rules.md``.
"""

from __future__ import annotations

from .artifacts import ARTIFACT_KINDS, DEFAULT_ARTIFACT_DECK, ArtifactKind, Timing
from .game import Game, GameConfig, GameOverError, IllegalPlayError, PlayResult
from .plays import MeldType, Play, PlayKind

__all__ = [
    "ARTIFACT_KINDS", "DEFAULT_ARTIFACT_DECK", "ArtifactKind", "Game", "GameConfig", "GameOverError",
    "IllegalPlayError", "MeldType", "Play", "PlayKind", "PlayResult", "Timing",
]
