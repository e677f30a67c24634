"""The flat Seals action catalogue for :mod:`seers_env.seals_v0` (rules sections 3 and 4).

``N_ACTIONS == 12304``: ids ``0..4`` take a colour (Red, Blue, Green, Yellow, Black), ``5..14`` take the
numbers 1..10, ``15`` takes the Coins, ``16 + v`` (``16..12303``) makes the declaration
``v = fours_mask + (runs << 11)`` (:mod:`seers_env.seals.plays`: bits ``0..10`` the four-of-a-kinds,
``runs`` in ``0..5`` the disjoint runs 1-10; ``16``: declare nothing; sections 3.3 and 4). Each legal play
has exactly one id (:attr:`seers_env.seals.plays.SealsPlay.action`), so the mask built from the engine's
``legal_plays()`` is exact: stage 0 (the take) allows only take ids, stage 1 (the declaration) only
declaration ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..integers import unwrap_integer_array
from .game import SealsGame
from .plays import N_ACTIONS, N_DECLARATIONS, N_TAKES, SealsPlay

__all__ = ["N_ACTIONS", "N_DECLARATIONS", "N_TAKES", "action_mask", "check_action", "describe_action", "play_of"]


def check_action(action: Any) -> int:
    """``action`` as an int id.

    Raises:
        TypeError: not an integer (bools, floats and strings refused; numpy integers and 0-d integer
            arrays, as ``model.predict`` returns, accepted).
        ValueError: outside ``0..N_ACTIONS - 1``.
    """
    return SealsPlay.from_action(unwrap_integer_array(action)).action


def play_of(action: Any) -> SealsPlay:
    """The play of an action id (errors as :func:`check_action`)."""
    return SealsPlay.from_action(unwrap_integer_array(action))


def action_mask(game: SealsGame) -> np.ndarray:
    """int8 ``(N_ACTIONS,)``: 1 exactly at the ids of the legal plays (all 0 once the game is over)."""
    return game.legal_mask()


def describe_action(action: Any, game: SealsGame | None = None) -> str:
    """An action in words (with the cards a legal take picks up when ``game`` is given); a bad id is
    described, never raised."""
    try:
        play = SealsPlay.from_action(action)
    except (TypeError, ValueError) as err:
        return f"not an action ({err})"
    return game.describe(play) if game is not None else play.describe()
