"""SCOUT as a PettingZoo AEC environment (``scout_v0``); rules ``docs/scout_rules.md``.

Environment card (in the style of PettingZoo's classic environments):

===================  ==============================================================================
Import               ``from seers_env.scout_v0 import env`` (or ``raw_env``); registered in PettingZoo's
                     AEC registry as ``"seers/scout-v0"`` (``pettingzoo.make("aec", "seers/scout-v0")``
                     once ``seers_env`` is imported)
Actions              Discrete, ``N_ACTIONS == 2396`` (:mod:`seers_env.scout.actions`)
Parallel API         no (turn-based; ``pettingzoo.utils.turn_based_aec_to_parallel`` works)
Manual control       no
Agents               ``player_0 .. player_{n-1}``, n = 2..5; clockwise = increasing index
Action shape         ``()`` (one int)
Action values        ``0 .. 2395``
Observation shape    dict: ``observation`` float32 ``(849,)``, ``action_mask`` int8 ``(2396,)``
Observation values   ``observation`` in ``[-50, 50]``; ``action_mask`` 0/1
State shape          float32 ``(1344,)`` (:func:`seers_env.scout.observation.state`, full information)
===================  ==============================================================================

**Config** (``env(**config)`` / ``raw_env(**config)``): ``n_players`` 2..5 (default 4); the
:class:`~seers_env.scout.game.ScoutConfig` fields ``first_player`` (``"seat0"``, ``"random"``,
``"holder_of_1_2"``), ``public_scout_flip_and_position`` (default True), ``two_player_may_stop`` (default
False), ``max_turns_per_round`` (default 1000), ``n_rounds`` (default: the rules' count, 2 players 2, else
N); ``reward_mode`` ``"score"`` or ``"win"``; ``illegal_action`` ``"penalize"`` or ``"raise"``;
``render_mode`` ``None``, ``"ansi"`` or ``"human"``. A bad value raises ``ValueError`` (``TypeError`` for a
wrong type or an unknown field) naming it and the allowed ones.

**Turns.** Each round opens with the keep/rotate decision of every seat in seat order (section 2), then
the turns from the round's start player. In 2 players a Scout is followed by another action of the same
agent (section 7). ``agent_selection`` is always the engine's seat to act.

**Actions.** One action per play, except **Scout & Show**: stage 1 picks the scout (a ``SCOUT_SHOW`` id),
stage 2 the show on the new hand (a ``SHOW`` id); between them the same agent stays ``agent_selection``
with the stage-2 mask, reward 0, ``infos[agent]["stage"] == 1`` and the observation's ``stage`` and
``pending_*`` parts set (its hand and Active Set are those after the scout; the other agents still observe
the table before it: the engine applies the whole play after stage 2). ``action_mask[a] == 1``
exactly when ``a`` continues a legal play: the masks are built from the engine's ``legal_plays()``, and
each legal play has exactly one action path (:mod:`seers_env.scout.actions`). The pending decision is
``env.unwrapped.decision`` (a :class:`~seers_env.scout.actions.ScoutDecision`);
``env.unwrapped.describe_action(a)`` names an action's cards in context.

**Observation.** Only what the agent's seat may know (read from a
:class:`~seers_env.scout.view.ScoutSeatView`), seats relative to it; layout in
:data:`seers_env.scout.observation.OBSERVATION_LAYOUT` (own hand with both numbers, Active Set, owner,
hand and pile sizes, pile cards, unseen cards, chips, Scout & Show used, known slots and cards of other
hands, totals, last round's scores, round, phase, seat to act, start player, player count, turns,
pending stage and scouted card, config flags).

**Engine.** The game runs on the compiled SCOUT kernel (:mod:`seers_env.scout.kernel`, one slot): each
step is one compiled call that takes the action, applies a completed play and writes the next decision's
action mask and observation, bit for bit those of the engine (:class:`~seers_env.scout.game.ScoutGame`,
:class:`~seers_env.scout.actions.ScoutDecision`, :func:`~seers_env.scout.observation.observe`;
``tests/test_scout_env_kernel.py``). ``env.unwrapped.game`` and ``env.unwrapped.decision`` are built on
first access from the episode's seed (or position) and its actions, and follow every later step.

**Rewards.** ``"score"`` (default): at the end of each round every agent gets its round score (section
8), so an agent's rewards over a game sum to its final total. ``"win"``: 0 until the game ends, then
``(n + 1 - 2 * place) / (n - 1)`` where ``place`` is the agent's finishing place by total (section 9);
tied agents share the mean of their places (a shared win), and the rewards sum to 0.

**Round truncation.** A round that reaches ``max_turns_per_round`` is scored as it stands and the game
goes on (section 6 [ruling]); this is not a PettingZoo truncation: it shows in
``infos[agent]["round_end_reasons"]`` (``"truncated"``). Only when the game's *last* round is cut so are
the agents truncated (``truncations`` True, ``terminations`` False) instead of terminated.

**Infos.** Every agent's info has the same keys at every step: ``action_mask`` (int8, read-only; zeros
unless the agent is to act), ``stage`` (0 main decision, 1 Scout & Show stage 2, -1 not to act),
``round`` (0-based), ``totals`` (per seat, completed rounds), ``round_end_reasons`` (per completed round:
``"a"``, ``"b"`` or ``"truncated"``), ``winners`` (seats; ``[]`` until the game ends) and
``illegal_action`` (-1, or the offending action).

**Illegal actions.** ``illegal_action="penalize"`` (default, PettingZoo's classic convention): the game
ends at once, the offender gets -1 and the others 0. ``"raise"``: :class:`IllegalActionError` and nothing
changes. In both modes an action that is not an integer raises ``TypeError`` and one outside
``0..N_ACTIONS-1`` raises ``ValueError``, changing nothing.

**Positions.** ``reset(options={"game": ScoutGame.to_dict()})`` starts from that position (a saved or
hand-made game with this environment's config, not over; a :class:`~seers_env.scout.game.ScoutGame` is
accepted too and copied): the kernel loads it (:meth:`ScoutKernel.load_game
<seers_env.scout.kernel.ScoutKernel.load_game>`, later rounds dealt from its generator) and every step
equals that of ``ScoutGame.from_dict`` of the same dict. Other option keys are ignored.
``env.unwrapped.game`` is the engine game (read-only by convention).

**Lifecycle.** Before ``reset()``, and after ``close()`` until the next ``reset()``, ``step``, ``observe``,
``last``, ``state``, ``render`` and ``agent_iter`` raise ``gymnasium.error.ResetNeeded`` (through
:func:`env` also the reading of ``agents``, ``agent_selection``, ``rewards``, ... : an error that is both
``ResetNeeded`` and ``AttributeError``). A mid-game environment pickles (the copy continues identically).

**Version history.** v0: first release (SCOUT engine format 1, catalogue of 2396 actions).
"""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .aec_base import AS_THEY_ARE as _AS_THEY_ARE
from .aec_base import ILLEGAL_ACTION_MODES, RENDER_MODES, REWARD_MODES  # noqa: F401 (public names)
from .aec_base import ClassicAEC, IllegalActionError, ResetNeededAttributeError  # noqa: F401 (public names)
from .aec_base import OrderEnforcingWrapper as _OrderEnforcingWrapper
from .integers import is_integer
from .scout.actions import (
    H, N_ACTIONS, PendingScout, ScoutDecision, check_action, decode_action, describe_action, scout_show_action,
)
from .scout.cards import N_CARDS
from .scout.game import ScoutConfig, ScoutGame, placements
from .scout.kernel import (
    IN_PLAY_MASK, MAX_ROUNDS, OUT_GAME_OVER, OUT_NOTHING, S_ALEN, S_CURRENT, S_HLEN, S_OUTCOME, S_PEND_END,
    S_PEND_FLIP, S_PEND_POS, S_REASONS, S_ROUND, S_ROUND_CARDS, S_STAGE, S_TOTALS, ScoutKernel, step_all, write_all,
    write_obs,
)
from .scout.observation import MAX_SEATS, OBS_BOUND, OBS_DIM, STATE_DIM, _put_slots, after_scout
from .scout.render import render_text
from .scout.rulings import REASONS

#: The :class:`~seers_env.scout.game.ScoutConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(ScoutConfig) if f.name != "n_players")
#: The keys of every agent's info, at every step.
INFO_KEYS = ("action_mask", "stage", "round", "totals", "round_end_reasons", "winners", "illegal_action")

class _ActionLog:
    """The catalogue actions taken in one game of the environment, and how far its :class:`ScoutGame`
    (``raw_env.game``, built on demand) has followed them."""

    __slots__ = ("actions", "applied", "pending")

    def __init__(self, actions: list[int] | None = None):
        self.actions: list[int] = [] if actions is None else actions
        self.applied = 0
        self.pending: PendingScout | None = None  # a stage-1 scout read but not yet applied

    def catch_up(self, game: ScoutGame) -> None:
        """Apply to ``game`` the plays completed by the actions it has not seen (``ScoutGame.apply`` of
        :func:`~seers_env.scout.actions.decode_action`, as the environment applied them before it ran on
        the kernel); a trailing stage-1 Scout & Show stays pending."""
        actions = self.actions
        while self.applied < len(actions):
            got = decode_action(actions[self.applied], self.pending)
            self.applied += 1
            if isinstance(got, PendingScout):
                self.pending = got
            else:
                self.pending = None
                game.apply(got)


class raw_env(ClassicAEC):
    """The SCOUT AEC environment without wrappers (see the module docstring for the card).

    The game runs in slot 0 of a compiled :class:`~seers_env.scout.kernel.ScoutKernel`; one compiled call
    per step (:func:`seers_env.scout.kernel.step_all`) takes the action, applies a completed play and
    writes the next decision's action mask and observation, bit for bit those of the engine
    (``tests/test_scout_env_kernel.py``).

    Attributes:
        config: the :class:`~seers_env.scout.game.ScoutConfig` of every game.
        game: the engine :class:`~seers_env.scout.game.ScoutGame` of the episode (``None`` before
            ``reset()`` and after ``close()``; read-only by convention). It is built on first access from
            the episode's seed (or starting position) and the actions taken, and from then on applies
            every play the environment applies (a reference kept across steps stays live); steps then
            cost what the Python engine costs.
        decision: the pending :class:`~seers_env.scout.actions.ScoutDecision` of ``agent_selection``
            (``None`` once the game is over), built on first access and kept up to date while held.

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
    game_class = ScoutGame

    def __init__(self, n_players: int = 4, reward_mode: str = "score", illegal_action: str = "penalize",
                 render_mode: str | None = None, **config: Any):
        super().__init__()
        self._check_options("SCOUT", CONFIG_FIELDS, reward_mode, illegal_action, render_mode, config)
        self.config = ScoutConfig(n_players=n_players, **config)
        n = self.config.n_players
        self._set_spaces(n, -OBS_BOUND, OBS_BOUND, OBS_DIM, N_ACTIONS, STATE_DIM)
        self._rng = np.random.default_rng()
        # the game: slot 0 of the compiled kernel, and the rows kernel.step_all writes
        self._kernel = ScoutKernel(1, self.config)
        self._action = np.zeros(1, np.int64)
        self._obs = np.zeros((1, OBS_DIM), np.float32)  # the acting agent's observation (copied out)
        self._step_rewards = np.zeros((1, n), np.float32)
        self._terms = np.zeros(1, bool)
        self._truncs = np.zeros(1, bool)
        self._final = np.zeros((1, n), np.int64)
        self._acting: str | None = None  # the agent whose observation and mask those are; None: no decision
        self._totals: list[int] = [0] * n  # per seat, completed rounds
        self._reasons: list[str] = []  # per completed round
        self._winners: list[int] = []  # once the game is over
        self._aside: tuple[list[int], int] = ([], 0)  # 2 players: set-aside card ids, and their round
        # the episode's seed (or starting position) and actions, for the game and decision built on demand
        self._game_seed = 0
        self._start: dict | None = None  # ScoutGame.to_dict() of the position reset() started from
        self._log: _ActionLog | None = None
        self._game: ScoutGame | None = None
        self._decision: ScoutDecision | None = None

    def _is_reset(self) -> bool:
        """An episode is under way: its action log exists (``game`` is built on demand)."""
        return self._log is not None

    # --- the game and decision objects, built on demand -----------------------------------------------
    @property
    def game(self) -> ScoutGame | None:
        """The engine game of this episode (see the class docstring); ``None`` before ``reset()``."""
        log = self._log
        if log is None:
            return None
        g = self._game
        if g is None:  # first access this episode: deal from the seed (or restore the position), replay
            g = self._game = (ScoutGame(self.config, seed=self._game_seed) if self._start is None
                              else ScoutGame.from_dict(self._start))
            log.applied, log.pending = 0, None
            log.catch_up(g)
        return g

    @property
    def decision(self) -> ScoutDecision | None:
        """The pending :class:`~seers_env.scout.actions.ScoutDecision` (see the class docstring)."""
        if self._acting is None:
            return None
        d = self._decision
        if d is None:
            d = ScoutDecision(self.game)
            pending = self._pending()
            if pending is not None:
                d.choose(scout_show_action(*pending))
            self._decision = d
        return d

    def _pending(self) -> PendingScout | None:
        """The stage-1 scout of a Scout & Show waiting for its show, or ``None``."""
        sc = self._kernel.scal[0]
        if self._acting is None or not sc[S_STAGE]:
            return None
        return PendingScout(int(sc[S_PEND_END]), int(sc[S_PEND_FLIP]), int(sc[S_PEND_POS]))

    def __getstate__(self) -> dict:
        """Pickling (and ``copy.deepcopy``): the game and decision objects are left out and built again on
        demand in the copy, from the episode's seed and actions."""
        st = self.__dict__.copy()
        st["_game"] = st["_decision"] = None
        if self._log is not None:
            st["_log"] = _ActionLog(list(self._log.actions))
        return st

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game, or start from ``options["game"]`` (module docstring). ``seed`` seeds the
        environment's generator (and so every later deal).

        Raises:
            ValueError: a bad seed; a ``game`` option with another config or already over (and what
                :meth:`ScoutGame.from_dict` raises for a malformed one). TypeError: ``options`` is not a
                dict, or its ``game`` is neither a dict nor a ScoutGame. Nothing changes on an error.
        """
        if seed is not None:
            if not is_integer(seed) or seed < 0:
                raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}: {options!r}")
        position = (options or {}).get("game")
        start = None if position is None else self._game_from_option(position)
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
        k = self._kernel
        if start is None:
            self._game_seed = int(self._rng.integers(2**63 - 1))
            self._start = None
            k.new_game(0, self._game_seed)  # dealt as ScoutGame(config, seed) deals it
            aside = int(IN_PLAY_MASK[2] & ~k.scal[0, S_ROUND_CARDS]) if self.config.n_players == 2 else 0
            self._aside = ([c for c in range(N_CARDS) if aside >> c & 1], 0)
        else:
            self._start = start.to_dict()
            k.load_game(0, start)
            self._aside = ([c for c, _ in start.set_aside], start.round)
        self._log = _ActionLog()
        self._game = None
        self._start_episode()
        self._winners = []
        self._read_rounds()
        masks = np.empty((1, N_ACTIONS), np.int8)
        write_all(k.hands, k.scouted, k.active, k.scal, k.scores, self._obs, masks)
        self._new_decision(masks)
        if self.render_mode == "human":
            self.render()

    def _read_rounds(self) -> None:
        """The totals and round-end reasons of the completed rounds, from the kernel."""
        sc = self._kernel.scal[0]
        self._totals = sc[S_TOTALS:S_TOTALS + self.config.n_players].tolist()
        self._reasons = [REASONS[c] for c in sc[S_REASONS:S_REASONS + MAX_ROUNDS].tolist() if c >= 0]

    def _new_decision(self, masks: np.ndarray) -> None:
        """A new decision is written (its mask in ``masks``): select the engine's seat to act."""
        self._decision = None
        self._set_selection(self.possible_agents[int(self._kernel.scal[0, S_CURRENT])], masks)

    def _set_selection(self, agent: str, masks: np.ndarray) -> None:
        """``agent`` acts next, with the action mask ``masks[0]`` (read-only, also in its info)."""
        self.agent_selection = agent
        self._acting = agent
        mask = self._mask = masks[0]
        mask.flags.writeable = False
        self._set_infos()

    def _set_infos(self) -> None:
        """Every agent's info, with the same keys (:data:`INFO_KEYS`) at every step."""
        sc = self._kernel.scal[0]
        acting = self._acting
        stage = -1 if acting is None else int(sc[S_STAGE])
        rnd = int(sc[S_ROUND])
        totals, reasons, winners, illegal, mask, zero = (self._totals, self._reasons, self._winners, self._illegal,
                                                         self._mask, self._zero_mask)
        self.infos = {a: {"action_mask": mask if a == acting else zero, "stage": stage if a == acting else -1,
                          "round": rnd, "totals": list(totals), "round_end_reasons": list(reasons),
                          "winners": list(winners), "illegal_action": illegal.get(a, -1)}
                      for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent`` (new
        arrays; the mask is all zeros unless ``agent`` is to act).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``. ValueError: an unknown agent.
        """
        if self._log is None:
            self._require_reset()
        if agent == self._acting:
            return {"observation": self._obs[0].copy(), "action_mask": self._mask.copy()}
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(f"agent {agent!r} is not one of {self.possible_agents}")
        return {"observation": self._observation_without_pending(seat), "action_mask": np.zeros(N_ACTIONS, np.int8)}

    def _observation_without_pending(self, seat: int) -> np.ndarray:
        """float32 ``(OBS_DIM,)``: ``observe(ScoutSeatView(game, seat))`` (no pending scout), new."""
        k = self._kernel
        row = np.empty(OBS_DIM, np.float32)
        write_obs(k.hands, k.scouted, k.active, k.scal, k.scores, 0, seat, 0, 0, 0, 0, row)
        return row

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``: ``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``. The info is a new dict (lists copied; ``action_mask`` the read-only array of
        ``infos[agent]``). :meth:`ClassicAEC.last` with the reset check inline (once a step)."""
        if self._log is None:
            self._require_reset()
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = {k: list(v) if type(v) is list else v if isinstance(v, _AS_THEY_ARE) else copy.deepcopy(v)
                for k, v in self.infos[agent].items()}  # the info lists hold ints and strings
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info

    def state(self) -> np.ndarray:
        """Full-information state (every hand) for centralised critics: float32 ``(STATE_DIM,)``, the layout
        of :func:`seers_env.scout.observation.state`."""
        self._require_reset()
        k = self._kernel
        sc = k.scal[0]
        n = self.config.n_players
        seat = int(sc[S_CURRENT])
        pending = self._pending()
        vec = np.zeros(STATE_DIM, np.float32)
        vec[:OBS_DIM] = self._obs[0] if self._acting is not None else self._observation_without_pending(seat)
        active = k.active[0, :sc[S_ALEN]].tolist()
        for r in range(n):
            s = (seat + r) % n
            hand = k.hands[0, s, :sc[S_HLEN + s]].tolist()
            if pending is not None and s == seat:
                hand, _ = after_scout(hand, active, pending)
            _put_slots(vec, OBS_DIM + r * 2 * H, hand)
        aside, aside_round = self._aside
        if aside and int(sc[S_ROUND]) == aside_round:  # 2 players: dealt in the next round
            vec[OBS_DIM + MAX_SEATS * 2 * H + np.asarray(aside, np.int64)] = 1.0
        return np.clip(vec, -OBS_BOUND, OBS_BOUND, out=vec)

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (see the module docstring).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
            TypeError / ValueError: a wrongly typed or out-of-range action (nothing changes).
            IllegalActionError: an action outside the mask with ``illegal_action="raise"`` (nothing changes).
        """
        if self._log is None:
            self._require_reset()
        agent = self.agent_selection
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = action if type(action) is int and 0 <= action < N_ACTIONS else check_action(action)
        if not self._mask[a]:
            if self.illegal_action == "raise":
                try:
                    self.decision.choose(a)  # raises, naming allowed actions
                except ValueError as err:
                    raise IllegalActionError(f"{agent}: {err}") from None
            self._end_for_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._decision is not None:  # keep a decision object handed out up to date
            self._decision.choose(a)
        self._log.actions.append(a)
        k = self._kernel
        self._action[0] = a
        masks = np.empty((1, N_ACTIONS), np.int8)
        # a game that ends counts as an "error" of step_all: no next game is drawn ahead in this slot
        step_all(k.hands, k.scouted, k.active, k.scal, k.scores, k.deals, self._action, self._obs, masks,
                 self._step_rewards, self._terms, self._truncs, self._final, False)
        if self._game is not None:
            self._log.catch_up(self._game)
        sc = k.scal[0]
        if sc[S_STAGE]:  # Scout & Show: the show follows (same agent)
            self._set_selection(agent, masks)
        else:
            out = sc[S_OUTCOME]
            if out != OUT_NOTHING:  # a round ended (section 8)
                self._read_rounds()
                if self.reward_mode == "score":
                    r = int(sc[S_ROUND]) - (out != OUT_GAME_OVER)
                    for x, v in zip(self.possible_agents, k.scores[0, r].tolist()):
                        self.rewards[x] = float(v)
            if out == OUT_GAME_OVER:
                self._end_game(bool(self._truncs[0]))
            else:
                self._new_decision(masks)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_game(self, last_round_truncated: bool) -> None:
        """The last round was scored: every agent terminates (is truncated when that round hit the turn
        cap); ``"win"`` rewards by place (section 9)."""
        n = self.config.n_players
        totals = self._totals
        if self.reward_mode == "win":
            for x, place in zip(self.possible_agents, placements(totals)):
                self.rewards[x] = (n + 1 - 2 * place) / (n - 1)
        best = max(totals)
        self._winners = [i for i, t in enumerate(totals) if t == best]  # ScoutGame.winners()
        self._acting = None
        self._decision = None
        self._mask = self._zero_mask
        self.terminations = {x: not last_round_truncated for x in self.agents}
        self.truncations = {x: last_round_truncated for x in self.agents}
        self._set_infos()

    def _drop_decision(self) -> None:
        """No decision pends (the game ended for an illegal action)."""
        self._acting = None
        self._decision = None

    def describe_action(self, action: Any) -> str:
        """``action`` in words for the pending decision (cards named when it is legal now)."""
        self._require_reset()
        return describe_action(action, self.game, self._pending())

    # --- rendering --------------------------------------------------------------------------------
    def _render_text(self) -> str:
        """:meth:`render`'s text (:meth:`ClassicAEC.render`): the table and the acting hand."""
        return render_text(self.game, self._pending())

    def close(self) -> None:
        """End the episode: until the next ``reset()`` every method raises ``ResetNeeded``, and ``game`` and
        ``decision`` are ``None``."""
        self._log = None
        self._game = None
        self._decision = None
        self._acting = None


def env(**config: Any) -> AECEnv:
    """``raw_env(**config)`` with PettingZoo's standard ``OrderEnforcingWrapper`` (its errors made
    ``ResetNeeded``; see the module card).

    Illegal actions are handled by :class:`raw_env` itself (default ``illegal_action="penalize"``, the
    classic convention of ``TerminateIllegalWrapper``), and out-of-range actions raise a clear error.
    """
    return _OrderEnforcingWrapper(raw_env(**config))


#: The PettingZoo registry id (``import seers_env`` registers it: :mod:`seers_env.registration`).
ENV_ID = "seers/scout-v0"

__all__ = ["CONFIG_FIELDS", "ENV_ID", "ILLEGAL_ACTION_MODES", "INFO_KEYS", "IllegalActionError", "REWARD_MODES",
           "ResetNeededAttributeError", "check_action", "env", "raw_env"]
