"""PettingZoo bookkeeping shared by the AEC environments of SCOUT, Seals and Haggis
(:mod:`seers_env.scout_v0`, :mod:`seers_env.seals_v0`, :mod:`seers_env.haggis_v0`).

:class:`ClassicAEC` holds what their ``raw_env`` classes did alike: the per-agent spaces, the
before-reset guard, ``last()``, ``agent_iter()``, ``render()``, the end of a game for an illegal action
(PettingZoo's classic convention, ``TerminateIllegalWrapper``) and unpickling; an environment supplies
the game-specific parts (:meth:`ClassicAEC._is_reset`, :meth:`ClassicAEC._drop_decision`,
:meth:`ClassicAEC._render_text`, ``observe``, ``step``...). :class:`OrderEnforcingWrapper` is
PettingZoo's ``OrderEnforcingWrapper`` with ``gymnasium.error.ResetNeeded`` errors. Plain Python: the
compiled step of Seers Catalog's environment is :mod:`seers_env.aec_core`, whose source keys the numba
cache.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

REWARD_MODES = ("score", "win")
ILLEGAL_ACTION_MODES = ("penalize", "raise")
RENDER_MODES = ("human", "ansi")

#: The message of every ``ResetNeeded`` of these environments.
RESET_TEXT = "call reset() first: the environment has not been reset, or was closed"

#: Info values that ``last()`` hands out as they are (others: lists copied, the rest deep-copied).
AS_THEY_ARE = (int, float, str, type(None), np.ndarray)


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` itself, made read-only (the masks an environment hands out in ``infos``)."""
    a.flags.writeable = False
    return a


class IllegalActionError(ValueError):
    """An action outside the current action mask (``illegal_action="raise"``); nothing changed."""


class ResetNeededAttributeError(ResetNeeded, AttributeError):
    """An environment attribute (``agents``, ``agent_selection``, ...) read before ``reset()``: a
    :class:`gymnasium.error.ResetNeeded` that is also an ``AttributeError`` (so ``hasattr`` still works)."""


class ClassicAEC(AECEnv):
    """The part of a card game's ``raw_env`` that is PettingZoo bookkeeping (module docstring).

    A subclass sets :attr:`game_class` and ``config``, calls :meth:`_check_options` and
    :meth:`_set_spaces` in ``__init__`` and :meth:`_start_episode` in ``reset()``, keeps ``_mask`` (the
    acting agent's read-only int8 mask), ``infos`` and ``agent_selection`` up to date, and defines
    ``observe``, ``step``, ``_set_infos`` and the hooks :meth:`_is_reset`, :meth:`_drop_decision` and
    :meth:`_render_text`.
    """

    render_mode: str | None = None
    #: The engine game class (``ScoutGame``, ``SealsGame``, ``HaggisGame``): ``options["game"]`` of reset.
    game_class: type

    # --- set-up ------------------------------------------------------------------------------------
    def _check_options(self, title: str, config_fields: tuple[str, ...], reward_mode: Any, illegal_action: Any,
                       render_mode: Any, config: dict[str, Any]) -> None:
        """Check the environment's options and keep the first three (``config``: the game config fields
        given besides ``n_players``; ``title``: the game's name in the message).

        Raises:
            ValueError: a mode not in :data:`REWARD_MODES`, :data:`ILLEGAL_ACTION_MODES` or
                :data:`RENDER_MODES` (``None`` allowed). TypeError: a config field not in ``config_fields``.
        """
        if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action={illegal_action!r} is not allowed; choose one of "
                             f"{ILLEGAL_ACTION_MODES}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed; choose None or one of {RENDER_MODES}")
        unknown = sorted(k for k in config if k not in config_fields)
        if unknown:
            raise TypeError(f"unknown {title} environment option(s) {unknown}; allowed: n_players, reward_mode, "
                            f"illegal_action, render_mode, {', '.join(config_fields)}")
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.render_mode = render_mode

    def _set_spaces(self, n_players: int, low: float, high: float, obs_dim: int, n_actions: int,
                    state_dim: int) -> None:
        """``possible_agents`` (``player_0``...), every agent's own space objects (PettingZoo classic
        convention: float32 observation in ``[low, high]``, int8 action mask, ``Discrete(n_actions)``), the
        ``state_space`` and the all-zero masks (read-only)."""
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, (obs_dim,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(low, high, (state_dim,), np.float32)
        self._mask = read_only(np.zeros(n_actions, np.int8))  # the acting agent's mask (read-only)
        self._zero_mask = read_only(np.zeros(n_actions, np.int8))  # everyone else's
        self._illegal: dict[str, int] = {}

    def _start_episode(self) -> None:
        """A new episode's PettingZoo bookkeeping: every agent in, rewards 0, nobody terminated or
        truncated, no illegal action."""
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self._illegal = {}

    def _game_from_option(self, position: Any) -> Any:
        """The :attr:`game_class` game of ``reset(options={"game": position})``: a ``to_dict()`` dict or
        a game, of this environment's config and not over.

        Raises:
            TypeError: ``position`` is neither. ValueError: another game's position (its ``"game"`` names
                another game), another config, a finished game (and what ``from_dict`` raises for a
                malformed one).
        """
        cls = self.game_class
        if isinstance(position, cls):
            position = position.to_dict()
        if not isinstance(position, dict):
            raise TypeError(f"options['game'] must be a {cls.__name__}.to_dict() dict (or a {cls.__name__}), got "
                            f"{type(position).__name__}")
        named = position.get("game", cls.game_name)
        if named != cls.game_name:  # another game's position: say so, not which of its fields are foreign
            from .games import GAMES

            what = f"a {GAMES[named].title} game" if isinstance(named, str) and named in GAMES else "not a game"
            raise ValueError(f"options['game'] is {what} (its 'game' is {named!r}); this environment plays "
                             f"{cls.game_name!r}: give a {cls.__name__}.to_dict()")
        game = cls.from_dict(position)
        if game.config != self.config:
            raise ValueError(f"options['game'] has config {game.config.to_dict()}, but this environment plays "
                             f"{self.config.to_dict()}; make the environment with that config")
        if game.game_over:
            raise ValueError("options['game'] is a finished game; give a position that is still being played")
        return game

    # --- hooks of a game ---------------------------------------------------------------------------
    def _is_reset(self) -> bool:
        """Whether an episode is under way (``reset()`` called, not ``close()``d): ``self.game`` is set."""
        return getattr(self, "game", None) is not None

    def _drop_decision(self) -> None:
        """Forget the pending decision (the game ended for an illegal action); nothing by default."""

    def _render_text(self) -> str:
        """The text of :meth:`render` (the table and, where the game has one, the pending decision)."""
        raise NotImplementedError

    # --- shared bookkeeping ---------------------------------------------------------------------------
    def _require_reset(self) -> None:
        """Raises ``gymnasium.error.ResetNeeded`` before ``reset()`` and after ``close()``."""
        if not self._is_reset():
            raise ResetNeeded(RESET_TEXT)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def __setstate__(self, st: dict) -> None:
        """Unpickling: the masks handed out in ``infos`` are read-only again (pickle drops the flag)."""
        self.__dict__.update(st)
        read_only(self._mask)
        read_only(self._zero_mask)
        for info in getattr(self, "infos", {}).values():
            if isinstance(info.get("action_mask"), np.ndarray):
                read_only(info["action_mask"])

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``: ``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``. The info is a new dict (lists copied; ``action_mask`` the read-only array of
        ``infos[agent]``).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset()
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = {k: list(v) if type(v) is list else v if isinstance(v, AS_THEY_ARE) else copy.deepcopy(v)
                for k, v in self.infos[agent].items()}  # the info lists hold ints and strings
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info

    def _end_for_illegal(self, agent: str, action: int) -> None:
        """PettingZoo classic convention: the game ends, -1 to the offender, 0 to the others."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self.rewards[agent] = -1.0
        self.terminations = {x: True for x in self.agents}
        self._drop_decision()
        self._mask = self._zero_mask
        self._illegal = {agent: action}
        self._set_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``"ansi"``: the table (and the acting hand, where the game shows one) as a ``str``; ``"human"``:
        print it, return ``None``; no render mode: a warning (gymnasium's logger), ``None``.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset()
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = self._render_text()
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


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose before-reset errors are ``gymnasium.error.ResetNeeded``
    (attributes: :class:`ResetNeededAttributeError`), also after ``close()``."""

    _GUARDED = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents",
                          "agents"})

    def __getattr__(self, name: str) -> Any:
        if name in self._GUARDED and not self.__dict__.get("_has_reset", False):
            raise ResetNeededAttributeError(f"{name} cannot be read yet: {RESET_TEXT}")
        return super().__getattr__(name)

    def _check(self) -> None:
        if not self._has_reset:
            raise ResetNeeded(RESET_TEXT)

    def render(self):
        self._check()
        return super().render()

    def observe(self, agent: str):
        self._check()
        return super().observe(agent)

    def state(self) -> np.ndarray:
        self._check()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63):
        self._check()
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True):
        self._check()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        self._check()
        if self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def close(self) -> None:
        super().close()
        self._has_reset = False


__all__ = ["AS_THEY_ARE", "ClassicAEC", "ILLEGAL_ACTION_MODES", "IllegalActionError", "OrderEnforcingWrapper",
           "RENDER_MODES", "RESET_TEXT", "REWARD_MODES", "ResetNeededAttributeError", "read_only"]
