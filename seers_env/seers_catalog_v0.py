"""Seers Catalog as a PettingZoo AEC environment (``seers_catalog_v0``).

Environment card (in the style of PettingZoo's classic environments):

===================  ==============================================================================
Import               ``from seers_env import env`` (or ``raw_env``); registered in PettingZoo's AEC
                     registry as ``"seers/seers_catalog_v0"`` (``pettingzoo.make("aec", ...)``)
Actions              Discrete, ``N_ACTIONS == 6928`` (:mod:`seers_env.actions`)
Parallel API         no (turn-based)
Manual control       no (use ``seers play``)
Agents               ``player_0 .. player_{n-1}``, n = 2..5; clockwise = increasing index
Action shape         ``()`` (one int)
Action values        ``0 .. 6927``
Observation shape    dict: ``observation`` float32 ``(857,)``, ``action_mask`` int8 ``(6928,)``
Observation values   ``observation`` in ``[-50, 50]``; ``action_mask`` 0/1
State shape          float32 ``(1265,)`` (:func:`seers_env.observation.state`, full information)
===================  ==============================================================================

**Config** (``env(**config)`` / ``raw_env(**config)``): ``n_players`` 2..5 (default 4), ``n_rounds`` >= 1
(default 4), ``artifact_deck`` (artifact kind keys; ``()`` for the variant without artifacts; default
:data:`~seers_env.artifacts.DEFAULT_ARTIFACT_DECK`), ``reward_mode`` ``"score"`` or ``"win"``,
``illegal_action`` ``"penalize"`` or ``"raise"``, ``render_mode`` ``None``, ``"ansi"`` or ``"human"``.

**Actions.** A play is chosen by one to three actions of the same agent (main choice, then the wild
positions of a run, then the artifact's use), see :mod:`seers_env.actions`. While a choice is incomplete
the same agent stays ``agent_selection`` with a new mask, reward 0, and the observation's ``stage`` and
``chosen_*`` parts tell what is pending. ``action_mask[a] == 1`` exactly when ``a`` is legal now; the
mask is also in ``infos[agent]["action_mask"]``. Most plays take a single action. The pending
:class:`~seers_env.actions.Decision` is ``env.unwrapped.decision``: ``describe_action(a,
env.unwrapped.decision)`` gives an action's text in context.

**Observation.** Only what the agent's seat may know, seats relative to it (self first). Layout
(``name: offset, length``): see :data:`seers_env.observation.OBSERVATION_LAYOUT` (own hand, cards played
this round per seat, cards on the table this trick, top meld type/size/value, top seat, passed flags,
hand sizes, Bonus flags, cards publicly known to be in other hands, totals, last round's scores, round,
player count, Start Seer, Go First holder, suits in play, pending decision stage and chosen codes).

**Rewards.** ``"score"`` (default): at the end of each round every agent gets its round score
(rules section 5: bonus points minus cards held), so an agent's rewards over a game sum to its final
total. ``"win"``: 0 until the game ends, then ``(n + 1 - 2 * place) / (n - 1)`` where ``place`` is the
agent's finishing place by (total, last-round score) (section 5); tied agents share their places'
mean, so a shared first place is shared (two agents tied first of four get 2/3 each, not 1), and the
rewards sum to 0.

**Illegal actions.** ``illegal_action="penalize"`` (default, PettingZoo's classic convention): the game
ends at once, the offender gets -1 and the others 0. ``"raise"``: :class:`IllegalActionError` and
nothing changes. In both modes an action that is not an integer raises ``TypeError`` and one outside
``0..N_ACTIONS-1`` raises ``ValueError``, changing nothing.

**Version history.** v0: first release (rules engine format 1, catalogue of 6928 actions).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import N_ACTIONS, Decision
from .artifacts import DEFAULT_ARTIFACT_DECK
from .game import Game, GameConfig
from .observation import OBS_DIM, STATE_DIM, observe, state
from .render import render_text
from .scoring import placements

REWARD_MODES = ("score", "win")
ILLEGAL_ACTION_MODES = ("penalize", "raise")
RENDER_MODES = ("human", "ansi")
OBS_BOUND = 50.0


def _read_only(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only (``env.infos`` holds these; :meth:`raw_env.last` hands out writable copies)."""
    a.flags.writeable = False
    return a


class IllegalActionError(ValueError):
    """An action outside the current action mask (``illegal_action="raise"``); nothing changed."""


def check_action(action: Any) -> int:
    """``action`` as an ``int`` in ``0..N_ACTIONS-1``.

    Raises:
        TypeError: not an integer (bool and float included). ValueError: out of range.
    """
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an integer in 0..{N_ACTIONS - 1}, got "
                        f"{type(action).__name__}: {action!r}")
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} is outside the action space 0..{N_ACTIONS - 1}")
    return a


class raw_env(AECEnv):
    """The Seers Catalog AEC environment without wrappers (see the module docstring for the card).

    Raises:
        ValueError: an unknown config value (the message lists the allowed ones).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "seers_catalog_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, n_players: int = 4, n_rounds: int = 4, artifact_deck=DEFAULT_ARTIFACT_DECK,
                 reward_mode: str = "score", illegal_action: str = "penalize", render_mode: str | None = None):
        super().__init__()
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode={reward_mode!r} is not allowed; choose one of {REWARD_MODES}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action={illegal_action!r} is not allowed; choose one of "
                             f"{ILLEGAL_ACTION_MODES}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed; choose None or one of {RENDER_MODES}")
        self.config = GameConfig(n_players=n_players, n_rounds=n_rounds, artifact_deck=artifact_deck)
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        # every agent gets its own space objects (PettingZoo classic convention), so seeding or sampling one
        # agent's space leaves the others' generators alone
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.state_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (STATE_DIM,), np.float32)
        self._rng = np.random.default_rng()
        self.game: Game | None = None
        self.decision: Decision | None = None
        self._obs_cache: dict[str, dict[str, np.ndarray]] = {}
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)

    def _require_reset(self) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step(), observe() or state()")

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game. ``seed`` seeds the environment's generator (and so every later game)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
            self._rng = np.random.default_rng(seed)
        self.game = Game(self.config, seed=int(self._rng.integers(2**63 - 1)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._new_decision()
        if self.render_mode == "human":
            self.render()

    def _new_decision(self) -> None:
        g = self.game
        self.decision = Decision(g.legal_plays(), g.current, g.n_players)
        self._set_selection()

    def _set_selection(self) -> None:
        agent = self.possible_agents[self.game.current]
        self.agent_selection = agent
        self._obs_cache = {}
        prev = getattr(self, "_info_agent", None)
        if prev in self.infos:
            self.infos[prev] = {}
        self._info_agent = agent
        self._mask = self.decision.mask()
        self.infos[agent] = {"action_mask": _read_only(self._mask.copy()), "stage": self.decision.stage}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent``."""
        self._require_reset()
        cached = self._obs_cache.get(agent)
        if cached is not None:
            return {"observation": cached["observation"].copy(), "action_mask": cached["action_mask"].copy()}
        seat = self._seat[agent]
        g = self.game
        acting = seat == g.current and not g.game_over and not self.terminations.get(agent, True)
        obs = observe(g, seat, self.decision if acting else None)  # within +/-OBS_BOUND (totals clipped)
        mask = self._mask if acting else np.zeros(N_ACTIONS, dtype=np.int8)
        self._obs_cache[agent] = {"observation": obs, "action_mask": mask}
        return {"observation": obs.copy(), "action_mask": mask.copy()}

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``: ``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``.

        Nothing returned aliases the environment's state: the observation arrays are fresh copies, the info
        is a new dict with copied lists, and its ``action_mask`` is the read-only array of ``infos[agent]``
        (writing to it raises ``ValueError``; ``mask.copy()`` gives a writable one).
        """
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = {k: v if isinstance(v, np.ndarray) else copy.deepcopy(v) for k, v in self.infos[agent].items()}
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info

    def state(self) -> np.ndarray:
        """Full-information state (every hand included) for centralised critics: float32 (STATE_DIM,)."""
        self._require_reset()
        vec = state(self.game, None if self.game.game_over else self.decision)
        return np.clip(vec, -OBS_BOUND, OBS_BOUND, out=vec)

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (see the module docstring for the rules).

        Raises:
            TypeError / ValueError: a wrongly typed or out-of-range action (nothing changes).
            IllegalActionError: an action outside the mask with ``illegal_action="raise"``.
        """
        self._require_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = check_action(action)
        d = self.decision
        if not d.is_legal(a):
            if self.illegal_action == "raise":
                try:
                    d.choose(a)
                except ValueError as err:
                    raise IllegalActionError(f"{agent}: {err}") from None
            self._end_for_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        play = d.choose(a)
        if play is None:  # a further choice of the same agent
            self._set_selection()
            self._accumulate_rewards()
            return
        g = self.game
        result = g.apply(play)
        if result.round_scores is not None and self.reward_mode == "score":
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = float(result.round_scores[i])
        if result.game_over:
            if self.reward_mode == "win":
                places = placements(g.totals, g.round_scores[-1])
                n = g.n_players
                for i, x in enumerate(self.possible_agents):
                    self.rewards[x] = (n + 1 - 2 * places[i]) / (n - 1)
            self.terminations = {x: True for x in self.agents}
            self._obs_cache = {}
            for x in self.agents:
                self.infos[x] = {"action_mask": _read_only(np.zeros(N_ACTIONS, dtype=np.int8)),
                                 "totals": list(g.totals), "winners": g.winners()}
        else:
            self._new_decision()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_for_illegal(self, agent: str, action: int) -> None:
        """PettingZoo classic convention: the game ends, -1 to the offender, 0 to the others."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self.rewards[agent] = -1.0
        self.terminations = {x: True for x in self.agents}
        self._obs_cache = {}
        for x in self.agents:
            self.infos[x] = {"action_mask": _read_only(np.zeros(N_ACTIONS, dtype=np.int8))}
        self.infos[agent]["illegal_action"] = action
        self._accumulate_rewards()

    # --- rendering --------------------------------------------------------------------------------
    def render(self) -> str | None:
        """``"ansi"``: the table as a ``str``; ``"human"``: print it and return ``None``."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        if self.game is None:
            text = "Seers Catalog: call reset() first"
        else:
            text = render_text(self.game, self.decision)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with a direct ``last()`` (same checks, fewer lookups)."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


def env(**config: Any) -> AECEnv:
    """``raw_env(**config)`` with PettingZoo's standard ``OrderEnforcingWrapper`` (see the module card).

    Illegal actions are handled by :class:`raw_env` itself (default ``illegal_action="penalize"``, the
    classic convention of ``TerminateIllegalWrapper``), and out-of-range actions raise a clear error.
    """
    return _OrderEnforcingWrapper(raw_env(**config))


def _register() -> None:
    """Add ``seers/seers_catalog_v0`` to PettingZoo's AEC registry when the installed version has one."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # older PettingZoo: no registry
        return
    if "seers/seers_catalog_v0" not in aec_registry:
        register("aec", "seers/seers_catalog_v0", entry_point="seers_env.seers_catalog_v0:env")


_register()

__all__ = ["ILLEGAL_ACTION_MODES", "IllegalActionError", "REWARD_MODES", "check_action", "env", "raw_env"]
