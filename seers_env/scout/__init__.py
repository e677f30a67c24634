"""SCOUT (Kei Kajino, Oink Games): a rules engine for 2-5 players (rules ``shared/rules/scout.md``).

Modules: :mod:`~seers_env.scout.cards` (the 45 cards, faces, setup table), :mod:`~seers_env.scout.rulings`
(every [ruling]), :mod:`~seers_env.scout.plays` (:class:`ScoutPlay`), :mod:`~seers_env.scout.moves`
(legal-play generation and its documented order), :mod:`~seers_env.scout.game` (:class:`ScoutGame`,
:class:`ScoutConfig`) and :mod:`~seers_env.scout.view` (:class:`ScoutSeatView`, the determinizer). For the PettingZoo
environment (:mod:`seers_env.scout_v0`): :mod:`~seers_env.scout.actions` (the flat action catalogue and its
masks), :mod:`~seers_env.scout.observation` (observation and state vectors) and
:mod:`~seers_env.scout.render` (text view). For learners: :mod:`~seers_env.scout.features` (play-scoring
features), :mod:`~seers_env.scout.kernel` and :mod:`~seers_env.scout.kernel_features` (the compiled kernel of
many games, numba), :mod:`~seers_env.scout.vector` (the batch API ``ScoutVectorEnv``, a Gymnasium
``VectorEnv``) and :mod:`~seers_env.scout.bench` (throughput). Importing this package imports numpy only (no
RL library).
"""

from __future__ import annotations

from .game import GameOverError, IllegalPlayError, ScoutConfig, ScoutGame, ScoutResult
from .plays import KEEP_PLAY, ROTATE_PLAY, STOP_PLAY, ScoutKind, ScoutPlay
from .view import ScoutDeterminizer, ScoutSeatView

__all__ = [
    "GameOverError", "IllegalPlayError", "KEEP_PLAY", "ROTATE_PLAY", "STOP_PLAY", "ScoutConfig",
    "ScoutDeterminizer", "ScoutGame", "ScoutKind", "ScoutPlay", "ScoutResult", "ScoutSeatView",
]
