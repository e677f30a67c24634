"""Haggis (Sean Ross, Indie Boards & Cards): a rules engine for 2 and 3 players (rules
``shared/rules/haggis.md``, project rulings ``docs/haggis_rules.md``).

Modules: :mod:`~seers_env.haggis.cards` (card ids, points, setup), :mod:`~seers_env.haggis.rulings`
(every [ruling]), :mod:`~seers_env.haggis.plays` (:class:`HaggisPlay`), :mod:`~seers_env.haggis.moves`
(combinations, beating, legal plays and their order), :mod:`~seers_env.haggis.game`
(:class:`HaggisGame`, :class:`HaggisConfig`), :mod:`~seers_env.haggis.view` (:class:`HaggisSeatView`, the
determinizer), :mod:`~seers_env.haggis.features` (the play-scoring learner's features). For the PettingZoo
environment (:mod:`seers_env.haggis_v0`): :mod:`~seers_env.haggis.actions`,
:mod:`~seers_env.haggis.observation`, :mod:`~seers_env.haggis.render`; its compiled path
:mod:`~seers_env.haggis.kernel` (numba) and :mod:`~seers_env.haggis.fast`; for learners
:mod:`~seers_env.haggis.vector` (the batch API ``HaggisVectorEnv``, a Gymnasium ``VectorEnv``).
Importing this package imports numpy only (no RL library).
"""

from __future__ import annotations

from .game import GameOverError, HaggisConfig, HaggisGame, HaggisResult, IllegalPlayError
from .plays import BET_PLAYS, PASS_PLAY, HaggisKind, HaggisPlay
from .view import HaggisDeterminizer, HaggisSeatView

__all__ = ["BET_PLAYS", "GameOverError", "HaggisConfig", "HaggisDeterminizer", "HaggisGame", "HaggisKind",
           "HaggisPlay", "HaggisResult", "HaggisSeatView", "IllegalPlayError", "PASS_PLAY"]
