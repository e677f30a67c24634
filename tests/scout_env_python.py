"""The SCOUT AEC environment as it was before it ran on the compiled kernel: a ScoutGame stepped directly,
a ScoutDecision per decision point, seers_env.scout.observation.observe and state (Python engine).

``tests/test_scout_env_kernel.py`` checks that :mod:`seers_env.scout_v0` gives exactly what this one gives
(observations, masks, rewards, infos, state, render and errors).
"""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from seers_env.scout.actions import N_ACTIONS, ScoutDecision, check_action, describe_action
from seers_env.scout.game import ScoutConfig, ScoutGame
from seers_env.scout.observation import OBS_BOUND, OBS_DIM, STATE_DIM, observe, state
from seers_env.scout.render import render_text
from seers_env.scout.rulings import REASON_TRUNCATED
from seers_env.scout.view import ScoutSeatView
from seers_env.scout_v0 import IllegalActionError

REWARD_MODES = ("score", "win")
ILLEGAL_ACTION_MODES = ("penalize", "raise")
RENDER_MODES = ("human", "ansi")
#: The :class:`~seers_env.scout.game.ScoutConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(ScoutConfig) if f.name != "n_players")
#: The keys of every agent's info, at every step.
INFO_KEYS = ("action_mask", "stage", "round", "totals", "round_end_reasons", "winners", "illegal_action")

_AS_THEY_ARE = (int, float, str, type(None), np.ndarray)
_RESET_TEXT = "call reset() first: the environment has not been reset, or was closed"


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class PythonScoutEnv(AECEnv):
    """The SCOUT AEC environment of the Python engine (the old ``seers_env.scout_v0.raw_env``).

    Attributes:
        config: the :class:`~seers_env.scout.game.ScoutConfig` of every game.
        game: the engine game of the episode (``None`` before ``reset()`` and after ``close()``).
        decision: the pending :class:`~seers_env.scout.actions.ScoutDecision` of ``agent_selection``
            (``None`` once the game is over).

    Raises:
        ValueError / TypeError: a bad config value or an unknown field (the message names it and the
            allowed values).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "scout_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, n_players: int = 4, reward_mode: str = "score", illegal_action: str = "penalize",
                 render_mode: str | None = None, **config: Any):
        super().__init__()
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action={illegal_action!r} is not allowed; choose one of "
                             f"{ILLEGAL_ACTION_MODES}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed; choose None or one of {RENDER_MODES}")
        unknown = sorted(set(config) - set(CONFIG_FIELDS))
        if unknown:
            raise TypeError(f"unknown SCOUT environment option(s) {unknown}; allowed: n_players, reward_mode, "
                            f"illegal_action, render_mode, {', '.join(CONFIG_FIELDS)}")
        self.config = ScoutConfig(n_players=n_players, **config)
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        n = self.config.n_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        # every agent has its own space objects (PettingZoo classic convention)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.state_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (STATE_DIM,), np.float32)
        self._rng = np.random.default_rng()
        self.game: ScoutGame | None = None
        self.decision: ScoutDecision | None = None
        self._mask = _read_only(np.zeros(N_ACTIONS, np.int8))  # the acting agent's mask (read-only)
        self._zero_mask = _read_only(np.zeros(N_ACTIONS, np.int8))  # everyone else's
        self._obs_cache: np.ndarray | None = None  # the acting agent's observation
        self._illegal: dict[str, int] = {}

    def _require_reset(self) -> None:
        if self.game is None:
            raise ResetNeeded(_RESET_TEXT)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def __setstate__(self, st: dict) -> None:
        """Unpickling: the masks handed out in ``infos`` are read-only again (pickle drops the flag)."""
        self.__dict__.update(st)
        _read_only(self._mask)
        _read_only(self._zero_mask)
        for info in getattr(self, "infos", {}).values():
            if isinstance(info.get("action_mask"), np.ndarray):
                _read_only(info["action_mask"])

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game, or start from ``options["game"]`` (module docstring). ``seed`` seeds the
        environment's generator (and so every later deal).

        Raises:
            ValueError: a bad seed; a ``game`` option with another config or already over (and what
                :meth:`ScoutGame.from_dict` raises for a malformed one). TypeError: ``options`` is not a
                dict, or its ``game`` is neither a dict nor a ScoutGame.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
            self._rng = np.random.default_rng(int(seed))
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}: {options!r}")
        position = (options or {}).get("game")
        if position is None:
            game = ScoutGame(self.config, seed=int(self._rng.integers(2**63 - 1)))
        else:
            game = self._game_from_option(position)
        self.game = game
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self._illegal = {}
        self._new_decision()
        if self.render_mode == "human":
            self.render()

    def _game_from_option(self, position: Any) -> ScoutGame:
        if isinstance(position, ScoutGame):
            position = position.to_dict()
        if not isinstance(position, dict):
            raise TypeError(f"options['game'] must be a ScoutGame.to_dict() dict (or a ScoutGame), got "
                            f"{type(position).__name__}")
        game = ScoutGame.from_dict(position)
        if game.config != self.config:
            raise ValueError(f"options['game'] has config {game.config.to_dict()}, but this environment plays "
                             f"{self.config.to_dict()}; make the environment with that config")
        if game.game_over:
            raise ValueError("options['game'] is a finished game; give a position that is still being played")
        return game

    def _new_decision(self) -> None:
        """The engine's seat to act gets a new decision: select its agent, set its mask and the infos."""
        game = self.game
        self.decision = ScoutDecision(game)
        self.agent_selection = self.possible_agents[game.current]
        self._mask = _read_only(self.decision.mask())
        self._obs_cache = None
        self._set_infos()

    def _set_infos(self) -> None:
        """Every agent's info, with the same keys (:data:`INFO_KEYS`) at every step."""
        game = self.game
        acting = None if self.decision is None else self.agent_selection
        stage = -1 if self.decision is None else self.decision.stage
        totals, reasons = game.totals, game.round_end_reasons
        winners = game.winners() if game.game_over else []
        self.infos = {a: {"action_mask": self._mask if a == acting else self._zero_mask,
                          "stage": stage if a == acting else -1, "round": game.round, "totals": list(totals),
                          "round_end_reasons": list(reasons), "winners": list(winners),
                          "illegal_action": self._illegal.get(a, -1)}
                      for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent`` (new
        arrays; the mask is all zeros unless ``agent`` is to act).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``. ValueError: an unknown agent.
        """
        self._require_reset()
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(f"agent {agent!r} is not one of {self.possible_agents}")
        if self.decision is not None and agent == self.agent_selection:
            if self._obs_cache is None:
                self._obs_cache = observe(ScoutSeatView(self.game, seat), self.decision.pending)
            return {"observation": self._obs_cache.copy(), "action_mask": self._mask.copy()}
        return {"observation": observe(ScoutSeatView(self.game, seat)),
                "action_mask": np.zeros(N_ACTIONS, np.int8)}

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``: ``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``. The info is a new dict (lists copied; ``action_mask`` the read-only array of
        ``infos[agent]``)."""
        self._require_reset()
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = {k: list(v) if type(v) is list else v if isinstance(v, _AS_THEY_ARE) else copy.deepcopy(v)
                for k, v in self.infos[agent].items()}  # the info lists hold ints and strings
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info

    def state(self) -> np.ndarray:
        """Full-information state (every hand) for centralised critics: float32 ``(STATE_DIM,)``."""
        self._require_reset()
        pending = None if self.decision is None else self.decision.pending
        return np.clip(state(self.game, pending), -OBS_BOUND, OBS_BOUND)

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (see the module docstring).

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
        decision = self.decision
        if not decision.allowed(a):
            if self.illegal_action == "raise":
                try:
                    decision.choose(a)  # raises, naming allowed actions
                except ValueError as err:
                    raise IllegalActionError(f"{agent}: {err}") from None
            self._end_for_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        play = decision.choose(a)
        if play is None:  # Scout & Show: the show follows (same agent)
            self._mask = _read_only(decision.mask())
            self._obs_cache = None
            self._set_infos()
        else:
            result = self.game.apply(play)
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
        """The last round was scored: every agent terminates (is truncated when that round hit the turn
        cap); ``"win"`` rewards by place (section 9)."""
        game = self.game
        n = self.config.n_players
        if self.reward_mode == "win":
            for x, place in zip(self.possible_agents, game.placements()):
                self.rewards[x] = (n + 1 - 2 * place) / (n - 1)
        self.decision = None
        self._obs_cache = None
        self._mask = self._zero_mask
        self.terminations = {x: not last_round_truncated for x in self.agents}
        self.truncations = {x: last_round_truncated for x in self.agents}
        self._set_infos()

    def _end_for_illegal(self, agent: str, action: int) -> None:
        """PettingZoo classic convention: the game ends, -1 to the offender, 0 to the others."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self.rewards[agent] = -1.0
        self.terminations = {x: True for x in self.agents}
        self.decision = None
        self._obs_cache = None
        self._mask = self._zero_mask
        self._illegal = {agent: action}
        self._set_infos()
        self._accumulate_rewards()

    def describe_action(self, action: Any) -> str:
        """``action`` in words for the pending decision (cards named when it is legal now)."""
        self._require_reset()
        pending = None if self.decision is None else self.decision.pending
        return describe_action(action, self.game, pending)

    # --- rendering --------------------------------------------------------------------------------
    def render(self) -> str | None:
        """``"ansi"``: the table and the acting hand as a ``str``; ``"human"``: print it, return ``None``."""
        self._require_reset()
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game, None if self.decision is None else self.decision.pending)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def agent_iter(self, max_iter: int = 2**63):
        """PettingZoo's ``agent_iter``.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset()
        return super().agent_iter(max_iter)

    def close(self) -> None:
        """End the episode: until the next ``reset()`` every method raises ``ResetNeeded``."""
        self.game = None
        self.decision = None
        self._obs_cache = None
