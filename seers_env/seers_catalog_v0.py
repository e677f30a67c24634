"""Seers Catalog as a PettingZoo AEC environment (``seers_catalog_v0``).

Environment card (in the style of PettingZoo's classic environments):

===================  ==============================================================================
Import               ``from seers_env import env`` (or ``raw_env``); registered in PettingZoo's AEC
                     registry as ``"seers/seers_catalog-v0"`` once ``seers_env`` is imported
                     (``pettingzoo.make("aec", "seers/seers_catalog-v0")``; ``_v0`` also works)
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

**Engine.** The game runs on the compiled game kernel (:mod:`seers_env.engine.kernel`) and the decisions,
masks and observations on the compiled code of the batch API (:mod:`seers_env.aec_core`), bit-exact with
the Python engine. ``env.unwrapped.game`` is the engine's :class:`~seers_env.game.Game` of the episode,
built from its seed on first access and kept up to date on demand (a reference kept across steps sees
every play); the environment itself never needs it.

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

**Infos.** Every agent's info has the same keys at every step (:data:`INFO_KEYS`, as the SCOUT
environment's): ``action_mask`` (int8, read-only; zeros unless the agent is to act), ``stage`` (the pending
decision stage of the agent to act, 0 main, 1 wild positions, 2 artifact; -1 for the others), ``round``
(0-based), ``totals`` (per seat, completed rounds), ``winners`` (seats; ``[]`` until the game ends) and
``illegal_action`` (-1, or the offending action).

**Positions.** ``reset(options={"game": Game.to_dict()})`` starts from that position (a saved or hand-made
game with this environment's config, not over; a :class:`~seers_env.game.Game` is accepted too and
copied): the kernel loads it (:meth:`KernelGames.load_game <seers_env.engine.kernel.KernelGames.load_game>`)
and every observation, mask and later step equals those of ``Game.from_dict`` of the same dict (later
rounds are dealt from its generator state). Other option keys are ignored; without ``"game"`` a new game
is dealt from the environment's generator.

**Illegal actions.** ``illegal_action="penalize"`` (default, PettingZoo's classic convention): the game
ends at once, the offender gets -1 and the others 0. ``"raise"``: :class:`IllegalActionError` and
nothing changes. In both modes an action that is not an integer raises ``TypeError`` and one outside
``0..N_ACTIONS-1`` raises ``ValueError``, changing nothing.

**Order.** ``step``, ``observe``, ``last``, ``state``, ``render`` and ``agent_iter`` called before ``reset()``
or after ``close()`` raise :class:`ResetNeeded` (Gymnasium's ``gymnasium.error.ResetNeeded``, a
``RuntimeError``), in ``raw_env`` and ``env()`` alike; ``close()`` twice is fine, and ``reset()`` after
``close()`` deals a new game. Attributes read before ``reset()`` in ``env()`` raise PettingZoo's
``AttributeError``.

**Version history.** v0: first release (rules engine format 1, catalogue of 6928 actions).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded as _GymnasiumResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import aec_core, vector_core
from .actions import N_ACTIONS, Decision
from .artifacts import DEFAULT_ARTIFACT_DECK
from .engine.kernel import (
    HAND, HIDDEN, N_CARD_IDS, OUT_ROUND, S_CURRENT, S_OUTCOME, S_OVER, S_ROUND, S_TOTALS, KernelGames, legal_keys,
)
from .engine.moves import PlayList
from .game import Game, GameConfig
from .integers import check_action_id, is_integer
from .observation import MAX_SEATS, OBS_DIM, STATE_DIM
from .render import render_text
from .scoring import placements, winners

REWARD_MODES = ("score", "win")
ILLEGAL_ACTION_MODES = ("penalize", "raise")
RENDER_MODES = ("human", "ansi")
OBS_BOUND = 50.0
#: The keys of every agent's info, at every step.
INFO_KEYS = ("action_mask", "stage", "round", "totals", "winners", "illegal_action")

#: Info values that :meth:`raw_env.last` hands out as they are (immutable, or the read-only arrays of
#: ``env.infos``); it deep-copies any other value.
_AS_THEY_ARE = (int, float, str, type(None), np.ndarray)


def _read_only(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only (``env.infos`` holds these; :meth:`raw_env.last` hands out writable copies)."""
    a.flags.writeable = False
    return a


class ResetNeeded(_GymnasiumResetNeeded, RuntimeError):
    """A method of an environment called before ``reset()`` or after ``close()``: call ``reset()`` first.

    The one error every environment and wrapper of this package raises for that case (the AEC env and
    ``env()``, :class:`~seers_env.wrappers.SingleAgentSeersEnv`, :class:`~seers_env.vector.SeersVectorEnv`,
    ``train.rllib_env.SeersMultiAgentEnv``); it is Gymnasium's ``gymnasium.error.ResetNeeded`` and a
    ``RuntimeError``. Nothing changes when it is raised.
    """


def reset_needed(method: str, closed: bool) -> ResetNeeded:
    """The :class:`ResetNeeded` for ``method`` (e.g. ``"step"``) before ``reset()`` or, with ``closed``,
    after ``close()``."""
    if closed:
        return ResetNeeded(f"{method}() after close(); call reset() first")
    return ResetNeeded(f"call reset() before {method}()")


class IllegalActionError(ValueError):
    """An action outside the current action mask (``illegal_action="raise"``); nothing changed."""


def check_action(action: Any) -> int:
    """``action`` as an ``int`` in ``0..N_ACTIONS-1`` (:func:`seers_env.integers.check_action_id`).

    Raises:
        TypeError: not an integer (bool and float included). ValueError: out of range.
    """
    return check_action_id(action, N_ACTIONS)


def game_from_option(position: Any, config: GameConfig, name: str = "options['game']") -> Game:
    """The :class:`Game` of a ``reset`` option: ``position`` is a ``Game.to_dict()`` dict (or a Game,
    copied), of ``config`` and not over. A new Game, sharing nothing with ``position``.

    Raises:
        TypeError: neither a dict nor a Game (and what :meth:`Game.from_dict` raises for a malformed dict).
        ValueError: another config, a finished game (and what :meth:`Game.from_dict` raises); each message
            names ``name``.
    """
    if isinstance(position, Game):
        position = position.to_dict()
    if not isinstance(position, dict):
        raise TypeError(f"{name} must be a Game.to_dict() dict (or a Game), got {type(position).__name__}")
    game = Game.from_dict(position)
    if game.config != config:
        raise ValueError(f"{name} has config {game.config.to_dict()}, but this environment plays "
                         f"{config.to_dict()}; make the environment with that config")
    if game.game_over:
        raise ValueError(f"{name} is a finished game; give a position that is still being played")
    return game


class _PlayLog:
    """The play keys applied in one game of the environment, and how many of them its :class:`Game`
    (``raw_env.game``, built on demand) has applied so far."""

    __slots__ = ("keys", "applied")

    def __init__(self, keys: list[int] | None = None):
        self.keys: list[int] = [] if keys is None else keys
        self.applied = 0

    def catch_up(self, game: Game) -> None:
        """Apply the plays ``game`` has not seen yet, each as the engine's own legal play with that key
        (``Game.apply``, exactly as the environment applied plays before it ran on the kernel)."""
        keys = self.keys
        while self.applied < len(keys):
            legal = game.legal_plays()
            game.apply(legal[legal.keys.tolist().index(keys[self.applied])])
            self.applied += 1


class raw_env(AECEnv):
    """The Seers Catalog AEC environment without wrappers (see the module docstring for the card).

    The game runs on the compiled kernel (:mod:`seers_env.engine.kernel`, one slot), the pending decision,
    its action mask and the acting agent's observation on the compiled code of the batch API
    (:mod:`seers_env.vector_core`, :mod:`seers_env.aec_core`); both are bit-exact with :class:`Game`,
    :class:`~seers_env.actions.Decision` and :func:`~seers_env.observation.observe`.

    Attributes:
        game: the engine :class:`Game` of the current episode (``None`` before ``reset()``); read-only by
            convention. It is built from the episode's seed (or starting position) on first access and,
            from then on, applies every play the environment applies (a reference kept across steps, and
            the lists taken from it, stay live), so steps then cost what the Python engine costs.
        decision: the pending :class:`~seers_env.actions.Decision` of ``agent_selection`` (the completed
            one once the game is over; ``None`` before ``reset()``), built on first access.

    Raises:
        ValueError: an unknown config value (the message lists the allowed ones).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "seers_catalog_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    #: Legal plays the decision rows hold at first; they are widened when a hand has more.
    _ROW_WIDTH = 1024

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
        # the game: slot 0 of the compiled kernel; the pending decision in vector_core's rows
        self._kernel = KernelGames(1, self.config)
        self._keys = np.zeros((1, self._ROW_WIDTH), np.int64)
        self._cands = np.zeros((1, self._ROW_WIDTH), np.int32)
        self._nkeys = np.zeros(1, np.int64)
        self._dec = np.zeros((1, vector_core.N_DEC), np.int64)
        self._obs = np.zeros((1, OBS_DIM), np.float32)  # the acting agent's observation (copied out)
        self._mask = _read_only(np.zeros(N_ACTIONS, np.int8))  # its action mask (read-only, in infos)
        self._zero_mask = _read_only(np.zeros(N_ACTIONS, np.int8))  # everyone else's
        self._buf = np.empty(N_CARD_IDS + 160, np.int64)
        self._tmp = np.empty(N_CARD_IDS, np.int64)
        self._widen = np.zeros(1, np.int64)
        self._acting: str | None = None  # the agent whose observation and mask those are
        self._dec_seat = 0  # the seat of the decision in the rows
        self._winners: list[int] = []  # once the game is over
        self._illegal: dict[str, int] = {}  # the offender's illegal action, once it ended the game
        # the episode's seed (or starting position) and plays, for the Game and Decision built on demand
        self._game_seed = 0
        self._start: dict | None = None  # Game.to_dict() of the position reset() started from
        self._log: _PlayLog | None = None
        self._game: Game | None = None
        self._decision: Decision | None = None
        self._closed = False

    def _require_reset(self, method: str) -> None:
        """:class:`ResetNeeded` naming ``method`` unless a game is dealt (``reset()`` called, no ``close()``
        since)."""
        if self._log is None:
            raise reset_needed(method, self._closed)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- the Game and Decision objects, built on demand -------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The engine :class:`Game` of this episode (see the class docstring); ``None`` before ``reset()``."""
        if self._log is None:
            return None
        g = self._game
        if g is None:  # first access this episode: deal from the seed (or restore the position), replay
            g = self._game = (Game(self.config, seed=self._game_seed) if self._start is None
                              else Game.from_dict(self._start))
            self._log.applied = 0
            self._log.catch_up(g)
        return g

    @property
    def decision(self) -> Decision | None:
        """The pending :class:`~seers_env.actions.Decision` (see the class docstring)."""
        d = self._decision
        if d is None and self._log is not None:
            if self._game is not None and not self._kernel.scal[0, S_OVER]:
                legal = self.game.legal_plays()  # the game's own list (the same plays), as agents see it
            else:
                legal = PlayList(self._keys[0, :int(self._nkeys[0])].copy())
            d = Decision(legal, self._dec_seat, self.config.n_players)
            dec = self._dec[0]
            for code in dec[vector_core.D_CHOSEN:vector_core.D_CHOSEN + dec[vector_core.D_NCHOSEN]].tolist():
                d.choose(code)
            self._decision = d
        return d

    def __getstate__(self) -> dict:
        """Pickling (and ``copy.deepcopy``): the Game and Decision objects are left out and built again on
        demand in the copy, from the episode's seed and plays."""
        st = self.__dict__.copy()
        st["_game"] = st["_decision"] = None
        if self._log is not None:
            st["_log"] = _PlayLog(list(self._log.keys))
        return st

    def __setstate__(self, st: dict) -> None:
        """Unpickling: the masks of ``infos`` are read-only again (pickle does not keep the flag)."""
        self.__dict__.update(st)
        _read_only(self._mask)
        _read_only(self._zero_mask)
        for info in getattr(self, "infos", {}).values():
            if isinstance(info.get("action_mask"), np.ndarray):
                _read_only(info["action_mask"])

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game, or start from ``options["game"]`` (module docstring). ``seed`` seeds the
        environment's generator (and so every later deal); reset also deals new games after ``close()``.

        Raises:
            ValueError: a negative or non-integer seed; a ``game`` option with another config or already
                over (and what :meth:`Game.from_dict` raises for a malformed one). TypeError: ``options`` is
                not a dict, or its ``game`` is neither a dict nor a Game. Nothing changes on an error.
        """
        if seed is not None:
            if not is_integer(seed) or seed < 0:
                raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}: {options!r}")
        position = (options or {}).get("game")
        start = None if position is None else game_from_option(position, self.config, "options['game']")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._closed = False
        k = self._kernel
        if start is None:
            self._game_seed = int(self._rng.integers(2**63 - 1))
            self._start = None
            k.new_game(0, self._game_seed)  # dealt as Game(config, seed) deals it
        else:
            self._start = start.to_dict()
            k.load_game(0, start)
        self._log = _PlayLog()
        self._game = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._winners = []
        self._illegal = {}
        masks = np.empty((1, N_ACTIONS), np.int8)
        if vector_core.start_all(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                 self._obs, masks, self._widen, self._buf):
            self._widen_rows(masks)
        self._new_decision(masks)
        if self.render_mode == "human":
            self.render()

    def _widen_rows(self, masks: np.ndarray) -> None:
        """Widen the decision rows to the legal plays of the seat to act, list them, write its mask and
        observation (a hand with more plays than the rows hold, e.g. after Rod pick-ups)."""
        k = self._kernel
        need = len(legal_keys(k.cards, k.scal, 0, self._buf))
        width = max(need, 2 * self._keys.shape[1])
        self._keys = np.zeros((1, width), np.int64)
        self._cands = np.zeros((1, width), np.int32)
        vector_core.finish_rows(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands, self._dec,
                                self._obs, masks, np.zeros(1, np.int64), self._buf)

    def _new_decision(self, masks: np.ndarray) -> None:
        """A new decision is in the rows (its mask in ``masks``): select the agent to act."""
        self._decision = None
        self._dec_seat = seat = int(self._kernel.scal[0, S_CURRENT])
        self._set_selection(self.possible_agents[seat], masks)

    def _set_selection(self, agent: str, masks: np.ndarray) -> None:
        """``agent`` acts next, with the action mask in ``masks[0]``: its info holds that mask, read-only."""
        self.agent_selection = agent
        self._acting = agent
        mask = self._mask = masks[0]
        mask.flags.writeable = False
        self._set_infos()

    def _set_infos(self) -> None:
        """Every agent's info, with the same keys (:data:`INFO_KEYS`) at every step."""
        sc = self._kernel.scal[0]
        acting = self._acting
        stage = -1 if acting is None else int(self._dec[0, vector_core.D_STAGE])
        rnd = int(sc[S_ROUND])
        totals = sc[S_TOTALS:S_TOTALS + self.config.n_players].tolist()
        winners_, illegal, zero = self._winners, self._illegal, self._zero_mask
        self.infos = {a: {"action_mask": self._mask if a == acting else zero, "stage": stage if a == acting else -1,
                          "round": rnd, "totals": list(totals), "winners": list(winners_),
                          "illegal_action": illegal.get(a, -1)}
                      for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_DIM,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent`` (new
        arrays; the mask is all zeros unless ``agent`` is to act).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        if self._log is None:
            self._require_reset("observe")
        if agent == self._acting:
            return {"observation": self._obs[0].copy(), "action_mask": self._mask.copy()}
        return {"observation": self._observation_without_decision(self._seat[agent]),
                "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}

    def _observation_without_decision(self, seat: int) -> np.ndarray:
        """float32 ``(OBS_DIM,)``: ``observe(game, seat)`` without a pending decision (stage -1), new."""
        k = self._kernel
        scal = k.scal.copy()
        scal[0, S_CURRENT] = seat
        dec = np.zeros((1, vector_core.N_DEC), np.int64)
        dec[0, vector_core.D_STAGE] = -1
        obs = np.empty((1, OBS_DIM), np.float32)
        vector_core.write_obs(k.cards, scal, k.scores, 0, dec, obs)
        return obs[0]

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``: ``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``.

        Nothing returned aliases the environment's state: the observation arrays are fresh copies, the info
        is a new dict with copied lists, and its ``action_mask`` is the read-only array of ``infos[agent]``
        (writing to it raises ``ValueError``; ``mask.copy()`` gives a writable one).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        if self._log is None:
            self._require_reset("last")
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = {k: list(v) if type(v) is list else v if isinstance(v, _AS_THEY_ARE) else copy.deepcopy(v)
                for k, v in self.infos[agent].items()}  # the info lists hold ints
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info

    def state(self) -> np.ndarray:
        """Full-information state (every hand included) for centralised critics: float32 (STATE_DIM,).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset("state")
        k = self._kernel
        n = self.config.n_players
        seat = int(k.scal[0, S_CURRENT])
        vec = np.zeros(STATE_DIM, np.float32)  # the layout of seers_env.observation.state
        # the acting seat's observation with the pending decision (without one once the game is over)
        vec[:OBS_DIM] = self._observation_without_decision(seat) if k.scal[0, S_OVER] else self._obs[0]
        hands = k.cards[0, [HAND + (seat + r) % n for r in range(n)]]  # every hand, from the acting seat
        vec[OBS_DIM:OBS_DIM + n * N_CARD_IDS] = hands.ravel()
        vec[OBS_DIM + MAX_SEATS * N_CARD_IDS:] = k.cards[0, HIDDEN]  # the 2-player removed cards
        return np.clip(vec, -OBS_BOUND, OBS_BOUND, out=vec)

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (see the module docstring for the rules).

        Raises:
            TypeError / ValueError: a wrongly typed or out-of-range action (nothing changes).
            IllegalActionError: an action outside the mask with ``illegal_action="raise"``.
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        if self._log is None:
            self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = action if type(action) is int and 0 <= action < N_ACTIONS else check_action(action)
        if not self._mask[a]:
            if self.illegal_action == "raise":
                try:
                    self.decision.choose(a)  # raises, naming the allowed actions
                except ValueError as err:
                    raise IllegalActionError(f"{agent}: {err}") from None
            self._end_for_illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._decision is not None:  # keep a Decision object handed out up to date
            self._decision.choose(a)
        k = self._kernel
        masks = np.empty((1, N_ACTIONS), np.int8)
        key, status = aec_core.step_slot(k.cards, k.scal, k.scores, self._keys, self._nkeys, self._cands,
                                         self._dec, a, self._obs, masks, self._buf, self._tmp)
        if key < 0:  # a further choice of the same agent
            self._set_selection(agent, masks)
            self._accumulate_rewards()
            return
        self._played(key)
        scal = k.scal[0]
        if scal[S_OUTCOME] >= OUT_ROUND:  # a round ended (section 5)
            if self.reward_mode == "score":
                scored = k.scores[0, int(scal[S_ROUND] + scal[S_OVER]) - 1]
                for x, r in zip(self.possible_agents, scored.tolist()):
                    self.rewards[x] = float(r)
            k.refill(0)  # draw the next round ahead
        if status == aec_core.GAME_OVER:
            self._end_game()
        else:
            if status < 0:
                self._widen_rows(masks)
            self._new_decision(masks)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _played(self, key: int) -> None:
        """Log the play key applied; the Game object, once built, applies it too (so it, and every list
        taken from it, stays live, as when the environment ran on ``Game``)."""
        self._log.keys.append(key)
        if self._game is not None:
            self._log.catch_up(self._game)

    def _end_game(self) -> None:
        """The last round was scored: every agent terminates; ``"win"`` rewards by place (section 5)."""
        k = self._kernel
        n = self.config.n_players
        totals = k.scal[0, S_TOTALS:S_TOTALS + n].tolist()
        last_round = k.scores[0, self.config.n_rounds - 1, :n].tolist()
        if self.reward_mode == "win":
            places = placements(totals, last_round)
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = (n + 1 - 2 * places[i]) / (n - 1)
        self._acting = None
        self._mask = self._zero_mask
        self._winners = winners(totals, last_round)
        self.terminations = {x: True for x in self.agents}
        self._set_infos()

    def _end_for_illegal(self, agent: str, action: int) -> None:
        """PettingZoo classic convention: the game ends, -1 to the offender, 0 to the others."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self.rewards[agent] = -1.0
        self.terminations = {x: True for x in self.agents}
        self._acting = None
        self._mask = self._zero_mask
        self._illegal = {agent: action}
        self._set_infos()
        self._accumulate_rewards()

    # --- rendering --------------------------------------------------------------------------------
    def render(self) -> str | None:
        """``"ansi"``: the table as a ``str``; ``"human"``: print it and return ``None``; no render mode:
        Gymnasium's warning and ``None``.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()`` (as Gymnasium's order enforcing does).
        """
        self._require_reset("render")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game, self.decision)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def agent_iter(self, max_iter: int = 2**63):
        """PettingZoo's ``agent_iter``.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset("agent_iter")
        return super().agent_iter(max_iter)

    def close(self) -> None:
        """End the episode: every method but ``reset()`` then raises :class:`ResetNeeded`, and ``game`` and
        ``decision`` are ``None``; ``reset()`` deals a new game. Closing twice does nothing more."""
        self._log = None
        self._game = self._decision = None
        self._acting = None
        self._closed = True


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with a direct ``last()`` and ``step()`` (same checks, fewer
    lookups). Its methods called before ``reset()`` (or after ``close()``) raise :class:`ResetNeeded`, as the
    raw environment's do, where PettingZoo's wrapper raises ``AssertionError``; attributes such as
    ``rewards`` or ``agents`` read before ``reset()`` raise PettingZoo's ``AttributeError``."""

    _closed = False

    def _check_reset(self, method: str) -> None:
        if not self._has_reset or self._closed:
            raise reset_needed(method, self._closed)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        self._closed = False

    def close(self) -> None:
        """Close the environment (:meth:`raw_env.close`); closing twice does nothing more."""
        self.env.close()
        self._closed = True

    def last(self, observe: bool = True):
        self._check_reset("last")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # the common case, without the attribute lookups
            self._has_updated = True
            self.env.step(action)
        else:
            self._check_reset("step")
            super().step(action)

    def observe(self, agent: str):
        self._check_reset("observe")
        return self.env.observe(agent)

    def state(self) -> np.ndarray:
        self._check_reset("state")
        return self.env.state()

    def render(self):
        self._check_reset("render")
        return self.env.render()

    def agent_iter(self, max_iter: int = 2**63):
        self._check_reset("agent_iter")
        return super().agent_iter(max_iter)


def env(**config: Any) -> AECEnv:
    """``raw_env(**config)`` with PettingZoo's standard ``OrderEnforcingWrapper`` (see the module card).

    Illegal actions are handled by :class:`raw_env` itself (default ``illegal_action="penalize"``, the
    classic convention of ``TerminateIllegalWrapper``), and out-of-range actions raise a clear error.
    """
    return _OrderEnforcingWrapper(raw_env(**config))


#: The PettingZoo registry id (``import seers_env`` registers it: :mod:`seers_env.registration`).
ENV_ID = "seers/seers_catalog-v0"

__all__ = ["ENV_ID", "ILLEGAL_ACTION_MODES", "INFO_KEYS", "IllegalActionError", "REWARD_MODES", "ResetNeeded",
           "check_action", "env", "game_from_option", "raw_env", "reset_needed"]
