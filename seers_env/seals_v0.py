"""Seals as a PettingZoo AEC environment (``seals_v0``); rules ``docs/seals_rules.md``.

Environment card (in the style of PettingZoo's classic environments):

===================  ==============================================================================
Import               ``from seers_env.seals_v0 import env`` (or ``raw_env``); registered in PettingZoo's
                     AEC registry as ``"seers/seals-v0"`` (``pettingzoo.make("aec", "seers/seals-v0")``
                     once ``seers_env`` is imported)
Actions              Discrete, ``N_ACTIONS == 12304`` (:mod:`seers_env.seals.actions`)
Parallel API         no (turn-based)
Manual control       no
Agents               ``player_0 .. player_{n-1}``, n = 2..4; clockwise = increasing index
Action shape         ``()`` (one int)
Action values        ``0 .. 12303``
Observation shape    dict: ``observation`` float32 ``(404,)``, ``action_mask`` int8 ``(12304,)``
Observation values   ``observation`` in ``[0, 50]``; ``action_mask`` 0/1
State shape          float32 ``(459,)`` (:func:`seers_env.seals.observation.state`, full information)
===================  ==============================================================================

**Config** (``env(**config)``): ``n_players`` 2..4 (default 3); the
:class:`~seers_env.seals.game.SealsConfig` fields ``n_rounds`` (round counter, default 5),
``max_tie_break_rounds`` (default 3), ``max_turns_per_round`` (default 500); ``reward_mode``
``"score"`` or ``"win"``; ``illegal_action`` ``"penalize"`` or ``"raise"``; ``render_mode`` ``None``,
``"ansi"`` or ``"human"``. A bad value raises ``ValueError`` (``TypeError`` for a wrong type or an unknown
field) naming it and the allowed ones.

**Actions, two stages.** Stage 0 (``infos[agent]["stage"] == 0``): one of the 16 takes (ids ``0..15``:
five colours, then the symbols 1..10 and Coin), masked to the colours and symbols in the face-up row.
Stage 1, only when the hand after the take holds a set: the same agent stays ``agent_selection`` and
chooses a declaration (ids ``16..12303``: ``16 + fours_mask + (runs << 11)``, the four-of-a-kinds laid
down as bits ``0..10`` and the number of disjoint runs 1-10, ``0..5``; ``16`` declares nothing), masked to
the feasible ones. ``action_mask[a] == 1`` exactly when ``a`` is a legal play of the
engine (one id per play). ``env.unwrapped.describe_action(a)`` names an action's cards.

**Observation.** What the agent's seat may know (a :class:`~seers_env.seals.view.SealsSeatView`), seats
relative to it; layout :data:`seers_env.seals.observation.OBSERVATION_LAYOUT`: the face-up row, every hand
(public), the cards left in the pile and their count, symbol counts per hand, Marks, last round's Marks,
who plays the round, seat to act, first player, round counter, round, tie-breaks, player count, takes
this round and the observer's stage.

**Rewards.** ``"score"`` (default): when a round ends every agent gets the Marks it won in it (the
declarer's Marks, the others 0), so an agent's rewards sum to its final Marks. ``"win"``: 0 until the end,
then ``(n + 1 - 2 * place) / (n - 1)`` by finishing place on Marks (tied agents share the mean of their
places; the rewards sum to 0).

**Ends.** The game ends as the rules say (5 Marks, the round counter empty, tie-breaks): every agent is
terminated. A round cut by ``max_turns_per_round`` ends with no winner and the game goes on; only when the
game's last round was cut are the agents truncated instead.

**Infos.** Every agent's info has the keys :data:`INFO_KEYS` at every step: ``action_mask`` (int8,
read-only; zeros unless the agent is to act), ``stage`` (0 take, 1 declare, -1 not to act), ``round``,
``totals`` (Marks per seat), ``round_end_reasons``, ``winners`` (``[]`` until the end), ``illegal_action``
(-1, or the offending action).

**Illegal actions.** ``"penalize"`` (default, PettingZoo's classic convention): the game ends at once, the
offender gets -1, the others 0. ``"raise"``: :class:`IllegalActionError` and nothing changes. In both modes
an action that is not an integer raises ``TypeError`` and one outside ``0..N_ACTIONS-1`` raises
``ValueError``, changing nothing.

**Positions.** ``reset(options={"game": SealsGame.to_dict()})`` starts from that position (this
environment's config, not over; a :class:`~seers_env.seals.game.SealsGame` is accepted and copied). A
damaged dict raises what :meth:`SealsGame.from_dict` raises and the environment keeps its episode.

**Lifecycle.** Before ``reset()`` and after ``close()``, ``step``, ``observe``, ``last``, ``state``,
``render`` and ``agent_iter`` raise ``gymnasium.error.ResetNeeded``. A mid-game environment pickles.

**Many games at once.** :class:`seers_env.seals.vector.SealsVectorEnv` steps ``num_envs`` games of this
environment together (a Gymnasium ``VectorEnv``; slot ``i`` plays the games of ``raw_env().reset(seed=
slot_seed(s, i))``), with a play-level API for play-scoring learners.

**Version history.** v0: first release (Seals engine format 1, 12304 actions). Before any release the
catalogue grew from 4112 to 12304 ids so that several disjoint runs can be declared (rules sections 3.3 and
4); the ids ``0..4111`` kept their meaning, so games saved before still load.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .aec_base import ILLEGAL_ACTION_MODES, RENDER_MODES, REWARD_MODES  # noqa: F401 (public names)
from .aec_base import ClassicAEC, IllegalActionError  # noqa: F401 (IllegalActionError: a public name)
from .aec_base import OrderEnforcingWrapper as _OrderEnforcingWrapper
from .aec_base import read_only as _read_only
from .integers import is_integer
from .seals.actions import N_ACTIONS, check_action, describe_action
from .seals.game import PHASE_TAKE, SealsConfig, SealsGame
from .seals.observation import OBS_BOUND, OBS_DIM, STATE_DIM, observe, state
from .seals.plays import SealsPlay
from .seals.render import render_text
from .seals.rulings import REASON_TRUNCATED
from .seals.view import SealsSeatView

#: The :class:`~seers_env.seals.game.SealsConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(SealsConfig) if f.name != "n_players")
#: The keys of every agent's info, at every step.
INFO_KEYS = ("action_mask", "stage", "round", "totals", "round_end_reasons", "winners", "illegal_action")


class raw_env(ClassicAEC):
    """The Seals AEC environment without wrappers (module docstring).

    Attributes:
        config: the :class:`~seers_env.seals.game.SealsConfig` of every game.
        game: the engine game of the episode (``None`` before ``reset()`` and after ``close()``).

    Raises:
        ValueError / TypeError: a bad config value or an unknown field (named, with the allowed values).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "seals_v0", "is_parallelizable": False,
                "render_fps": 1}
    game_class = SealsGame

    def __init__(self, n_players: int = 3, reward_mode: str = "score", illegal_action: str = "penalize",
                 render_mode: str | None = None, **config: Any):
        super().__init__()
        self._check_options("Seals", CONFIG_FIELDS, reward_mode, illegal_action, render_mode, config)
        self.config = SealsConfig(n_players=n_players, **config)
        self._set_spaces(self.config.n_players, 0.0, OBS_BOUND, OBS_DIM, N_ACTIONS, STATE_DIM)
        self._rng = np.random.default_rng()
        self.game: SealsGame | None = None

    # --- episode --------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game, or the position ``options["game"]`` (module docstring); ``seed`` seeds the
        environment's generator (and so every later game).

        Raises:
            ValueError: a bad seed; a ``game`` option with another config or
                already over (and what :meth:`SealsGame.from_dict` raises for a damaged one).
            TypeError: ``options`` is not a dict, or its ``game`` is neither a dict nor a SealsGame.
            Nothing changes on an error.
        """
        if seed is not None and (not is_integer(seed) or seed < 0):
            raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        game = self._reset_option_game(options)  # checked before any change
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
        if game is None:
            game = SealsGame(self.config, seed=int(self._rng.integers(2**63 - 1)))
        self.game = game
        self._start_episode()
        self._new_decision()
        if self.render_mode == "human":
            self.render()

    def _new_decision(self) -> None:
        game = self.game
        self.agent_selection = self.possible_agents[game.current]
        self._mask = _read_only(game.legal_mask())
        self._set_infos()

    def _set_infos(self) -> None:
        game = self.game
        acting = None if game.game_over or self._illegal else self.agent_selection
        stage = 0 if game.phase == PHASE_TAKE else 1
        winners = game.winners() if game.game_over else []
        totals, reasons = game.totals, game.round_end_reasons
        self.infos = {a: {"action_mask": self._mask if a == acting else self._zero_mask,
                          "stage": stage if a == acting else -1, "round": game.round, "totals": list(totals),
                          "round_end_reasons": list(reasons), "winners": list(winners),
                          "illegal_action": self._illegal.get(a, -1)} for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent`` (new
        arrays; the mask is zeros unless ``agent`` is to act).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``. ValueError: an unknown agent.
        """
        self._require_reset()
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"agent {agent!r} is not one of {self.possible_agents}")
        mask = self.infos[agent]["action_mask"].copy() if agent in self.infos else np.zeros(N_ACTIONS, np.int8)
        return {"observation": observe(SealsSeatView(self.game, seat)), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Full-information state (the pile order too) for centralised critics: float32 ``(STATE_DIM,)``."""
        self._require_reset()
        return np.clip(state(self.game), 0.0, OBS_BOUND)

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (module docstring).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
            TypeError / ValueError: a wrongly typed or out-of-range action (nothing changes).
            IllegalActionError: an action outside the mask with ``illegal_action="raise"`` (nothing changes).
        """
        self._require_reset()
        agent = self.agent_selection
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = check_action(action)
        if not self._mask[a]:
            if self.illegal_action == "raise":
                allowed = np.flatnonzero(self._mask).tolist()
                shown = allowed if len(allowed) <= 20 else allowed[:20] + ["..."]
                raise IllegalActionError(f"{agent}: action {a} ({SealsPlay.from_action(a).describe()}) is not "
                                         f"legal now; legal actions: {shown}")
            self._end_for_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        result = self.game.apply(SealsPlay.from_action(a))
        if result.round_over and self.reward_mode == "score":
            for x, r in zip(self.possible_agents, result.round_scores):
                self.rewards[x] = float(r)
        if result.game_over:
            self._end_game(result.round_end_reason == REASON_TRUNCATED)
        else:
            self._new_decision()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_game(self, last_round_truncated: bool) -> None:
        game = self.game
        n = self.config.n_players
        if self.reward_mode == "win":
            for x, place in zip(self.possible_agents, game.placements()):
                self.rewards[x] = (n + 1 - 2 * place) / (n - 1)
        self._mask = self._zero_mask
        self.terminations = {x: not last_round_truncated for x in self.agents}
        self.truncations = {x: last_round_truncated for x in self.agents}
        self._set_infos()

    def describe_action(self, action: Any) -> str:
        """``action`` in words (the cards a legal take picks up now)."""
        self._require_reset()
        return describe_action(action, self.game)

    def _render_text(self) -> str:
        """:meth:`render`'s text (:meth:`ClassicAEC.render`): the table."""
        return render_text(self.game)

    def close(self) -> None:
        """End the episode: until the next ``reset()`` every method raises ``ResetNeeded``."""
        self.game = None


def env(**config: Any) -> AECEnv:
    """``raw_env(**config)`` with PettingZoo's ``OrderEnforcingWrapper`` (module card)."""
    return _OrderEnforcingWrapper(raw_env(**config))


#: The PettingZoo registry id (``import seers_env`` registers it: :mod:`seers_env.registration`).
ENV_ID = "seers/seals-v0"

__all__ = ["CONFIG_FIELDS", "ENV_ID", "ILLEGAL_ACTION_MODES", "INFO_KEYS", "IllegalActionError", "REWARD_MODES",
           "check_action", "env", "raw_env"]
