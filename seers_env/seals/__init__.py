"""Seals, the set-collection game: a rules engine for 2-4 players (rules ``shared/rules/seals.md``).

Modules: :mod:`~seers_env.seals.cards` (the 55 cards, set kinds and their Marks),
:mod:`~seers_env.seals.rulings` (every [ruling]), :mod:`~seers_env.seals.plays` (:class:`SealsPlay` and the
flat action ids), :mod:`~seers_env.seals.moves` (legal takes and declarations), :mod:`~seers_env.seals.game`
(:class:`SealsGame`, :class:`SealsConfig`), :mod:`~seers_env.seals.view` (:class:`SealsSeatView`, the
determinizer). For the PettingZoo environment (:mod:`seers_env.seals_v0`): :mod:`~seers_env.seals.actions`
(masks, action checks), :mod:`~seers_env.seals.observation` and :mod:`~seers_env.seals.render`; for learners
:mod:`~seers_env.seals.features` (the play-scoring learner's features) and :mod:`~seers_env.seals.vector`
(the batch API ``SealsVectorEnv``, a Gymnasium ``VectorEnv``). Importing this package imports numpy only
(no RL library).
"""

from __future__ import annotations

from .game import GameOverError, IllegalPlayError, SealsConfig, SealsGame, SealsResult
from .plays import DECLINE_PLAY, SealsKind, SealsPlay
from .view import SealsDeterminizer, SealsSeatView

__all__ = ["DECLINE_PLAY", "GameOverError", "IllegalPlayError", "SealsConfig", "SealsDeterminizer", "SealsGame",
           "SealsKind", "SealsPlay", "SealsResult", "SealsSeatView"]
