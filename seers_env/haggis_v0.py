"""Haggis as a PettingZoo AEC environment (``haggis_v0``); rules ``docs/haggis_rules.md``.

Environment card (in the style of PettingZoo's classic environments):

===================  ==============================================================================
Import               ``from seers_env.haggis_v0 import env`` (or ``raw_env``); registered in
                     PettingZoo's AEC registry as ``"seers/haggis-v0"`` once ``seers_env`` is imported
Actions              Discrete, ``N_ACTIONS == 814`` (:mod:`seers_env.haggis.actions`)
Parallel API         no (turn-based)
Manual control       no
Agents               ``player_0 .. player_{n-1}``, n = 2 or 3; clockwise = increasing index
Action shape         ``()`` (one int)
Action values        ``0 .. 813``
Observation shape    dict: ``observation`` float32 ``(274,)``, ``action_mask`` int8 ``(814,)``
Observation values   ``observation`` in ``[0, 10]``; ``action_mask`` 0/1
State shape          float32 ``(481,)`` (:func:`seers_env.haggis.observation.state`, full information)
===================  ==============================================================================

**Config** (``env(**config)``): ``n_players`` 2 or 3 (default 3); the
:class:`~seers_env.haggis.game.HaggisConfig` fields ``target`` (350 or 250), ``n_rounds`` (``None``: to
the target; an int: a fixed-length game), ``tie_leader``, ``card_points``; ``reward_mode`` ``"score"`` or
``"win"``; ``illegal_action`` ``"penalize"`` or ``"raise"``; ``render_mode`` ``None``, ``"ansi"`` or
``"human"``. A bad value raises ``ValueError`` (``TypeError`` for a wrong type or an unknown field).

**Decisions.** At the start of its first turn of a round an agent bets (a decision of its own: ``BET``
codes 1..3 for 0, 15, 30). A turn is then one or more actions of the same agent: the main code (pass, or
the shape and value of a combination), then the combination's cards one at a time in ascending card code;
card decisions where every remaining legal play has the same next card are skipped, and the play is made
as soon as one legal play remains. Between the actions of one play the same agent stays
``agent_selection`` with reward 0 and ``infos[agent]["stage"] == 1``; its observation shows the pending
shape and cards. ``action_mask[a] == 1`` exactly when ``a`` continues a legal play of the engine's
``legal_plays()`` (:class:`~seers_env.haggis.actions.HaggisDecision`); every legal play has one path.

**Observation layout** (:data:`seers_env.haggis.observation.OBSERVATION_LAYOUT`; offsets are seats
relative to the observer, 0 = self, 1 = next clockwise; cards: 45 number card ids then J, Q, K):

=================  ====  =======================================================================
part               size  meaning
=================  ====  =======================================================================
hand               48    own cards (45 number cards, own J, Q, K)
pending_cards      48    cards chosen so far in a pending play
pending_shape      4     set / sequence / bomb, pending flag
pending_values     3     size or width / 8, length / 12, value / 13
top_kind           4     last combination of the trick: none / set / sequence / bomb
top_values         3     its size or width / 8, length / 12, value / 13
top_seat           3     its player (offset)
trick_cards        54    cards of the open trick (45 numbers, faces of offsets 0, 1, 2)
played_cards       54    cards out of the hands this round (trick and captured piles)
faces_held         9     face cards each offset still holds (public)
hand_sizes         3     cards held / 17
out, first_out     3+3   gone out; went out first
bets               12    per offset: not decided / 0 / 15 / 30
captured_points    3     card points captured / 50
going_out          3     going-out points / 85
bet_points         3     bet points / 90
totals             3     game totals / target
last_round         3     last round's scores / 100
passes             1     consecutive passes / 2
stage              3     bet / main / card decision of the observer
haggis_size        1     Haggis cards / 8
misc               3     3 players flag, round / 20, target / 350
=================  ====  =======================================================================

**Rewards.** ``"score"`` (default): at the end of each round every agent gets its round score (section
8), so an agent's rewards sum to its final total. ``"win"``: 0 until the game ends, then
``(n + 1 - 2 * place) / (n - 1)`` by finishing place (tied agents share the mean of their places).

**Infos.** Every agent's info has the keys ``action_mask`` (int8, read-only; zeros unless to act),
``stage`` (0 main decision, 1 a card of a pending play, -1 not to act), ``round``, ``totals``, ``winners``
(``[]`` until the game ends) and ``illegal_action`` (-1, or the offending action).

**Illegal actions.** ``"penalize"`` (default): the game ends, the offender gets -1 and the others 0.
``"raise"``: :class:`IllegalActionError` and nothing changes. A non-integer action raises ``TypeError``
and one outside ``0..N_ACTIONS-1`` raises ``ValueError``, changing nothing.

**Positions.** ``reset(options={"game": HaggisGame.to_dict()})`` starts from that position (same config,
not over). ``env.unwrapped.game`` is the engine game (read-only by convention).

**Lifecycle.** Before ``reset()`` and after ``close()``, ``step``, ``observe``, ``last``, ``state``,
``render`` and ``agent_iter`` raise ``gymnasium.error.ResetNeeded``. A mid-game environment pickles.

**Compiled path.** ``raw_env.compiled`` (default ``True``) takes the first decision of a play (its action
mask), the plays of a chosen set or sequence code and every observation from compiled code
(:mod:`seers_env.haggis.kernel`, glue :mod:`seers_env.haggis.fast`) and applies the decision's plays with
:meth:`HaggisGame.apply_legal`; ``False`` keeps the pure-Python path. Both give the same masks,
observations, rewards and games (``tests/test_haggis_kernel.py``; figures in ``docs/haggis_speed.md``). For
many games at once see :class:`seers_env.haggis.vector.HaggisVectorEnv`.

**Version history.** v0: first release (Haggis engine format 1, catalogue of 814 actions).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .aec_base import ILLEGAL_ACTION_MODES, RENDER_MODES, REWARD_MODES  # noqa: F401 (public names)
from .aec_base import ClassicAEC, IllegalActionError, ResetNeededAttributeError  # noqa: F401 (public names)
from .aec_base import OrderEnforcingWrapper as _OrderEnforcingWrapper
from .aec_base import read_only as _read_only
from .haggis.actions import N_ACTIONS, HaggisDecision, check_action, describe_action
from .haggis.fast import CompiledDecision, observe_packed, pack_game
from .haggis.game import HaggisConfig, HaggisGame
from .haggis.observation import OBS_BOUND, OBS_DIM, STATE_DIM, observe, state
from .haggis.render import render_text
from .haggis.view import HaggisSeatView
from .integers import is_integer

#: The :class:`~seers_env.haggis.game.HaggisConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(HaggisConfig) if f.name != "n_players")
#: The keys of every agent's info, at every step.
INFO_KEYS = ("action_mask", "stage", "round", "totals", "winners", "illegal_action")


class raw_env(ClassicAEC):
    """The Haggis AEC environment without wrappers (see the module docstring for the card).

    Attributes:
        config: the :class:`~seers_env.haggis.game.HaggisConfig` of every game.
        game: the engine game of the episode (``None`` before ``reset()`` and after ``close()``).
        decision: the pending :class:`~seers_env.haggis.actions.HaggisDecision` of ``agent_selection``
            (``None`` once the game is over).

    Raises:
        ValueError / TypeError: a bad config value or an unknown field (the message names it and the
            allowed values).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "haggis_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class = HaggisGame
    #: ``True``: the stage-0 mask and the observations come from the compiled kernel
    #: (:mod:`seers_env.haggis.fast`); ``False``: the pure-Python path (the reference; same results,
    #: ``tests/test_haggis_kernel.py``). A class attribute; set it on an instance before ``reset()``.
    compiled = True

    def __init__(self, n_players: int = 3, reward_mode: str = "score", illegal_action: str = "penalize",
                 render_mode: str | None = None, **config: Any):
        super().__init__()
        self._check_options("Haggis", CONFIG_FIELDS, reward_mode, illegal_action, render_mode, config)
        self.config = HaggisConfig(n_players=n_players, **config)
        self._set_spaces(self.config.n_players, 0.0, OBS_BOUND, OBS_DIM, N_ACTIONS, STATE_DIM)
        self._rng = np.random.default_rng()
        self.game: HaggisGame | None = None
        self.decision: HaggisDecision | None = None
        self._obs_cache: np.ndarray | None = None  # the acting agent's observation
        self._packed: np.ndarray | None = None  # the game packed for the kernel (compiled path)
        self._totals_memo: tuple | None = None  # (game, rounds scored, its totals)

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game, or start from ``options["game"]`` (module docstring). ``seed`` seeds the
        environment's generator (and so every later deal).

        Raises:
            ValueError: a bad seed; a ``game`` option with another config or
                already over (and what :meth:`HaggisGame.from_dict` raises for a malformed one).
            TypeError: ``options`` is not a dict, or its ``game`` is neither a dict nor a HaggisGame.
        """
        if seed is not None:
            if not is_integer(seed) or seed < 0:
                raise ValueError(f"seed={seed!r} is not allowed; use a non-negative integer or None")
        game = self._reset_option_game(options)  # checked before any change
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
        if game is None:
            game = HaggisGame(self.config, seed=int(self._rng.integers(2**63 - 1)))
        self.game = game
        self._start_episode()
        self._new_decision()
        if self.render_mode == "human":
            self.render()

    def _new_decision(self) -> None:
        """The engine's seat to act gets a new decision: select its agent, set its mask and the infos."""
        game = self.game
        self.decision = CompiledDecision(game) if self.compiled else HaggisDecision(game)
        self.agent_selection = self.possible_agents[game.current]
        self._mask = _read_only(self.decision.mask())
        self._obs_cache = None
        self._packed = None
        self._set_infos()

    def _set_infos(self) -> None:
        """Every agent's info, with the same keys (:data:`INFO_KEYS`) at every step."""
        game = self.game
        acting = None if self.decision is None else self.agent_selection
        stage = -1 if self.decision is None else self.decision.stage
        totals = self._game_totals()
        winners = game.winners() if game.game_over else []
        self.infos = {a: {"action_mask": self._mask if a == acting else self._zero_mask,
                          "stage": stage if a == acting else -1, "round": game.round, "totals": list(totals),
                          "winners": list(winners),
                          "illegal_action": self._illegal.get(a, -1)}
                      for a in self.agents}

    def _game_totals(self) -> list[int]:
        """``game.totals``, summed again only when a round was scored (the list is shared: do not change it)."""
        game = self.game
        memo = self._totals_memo
        if memo is None or memo[0] is not game or memo[1] != len(game._round_scores):
            memo = self._totals_memo = (game, len(game._round_scores), game.totals)
        return memo[2]

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
        acting = self.decision is not None and agent == self.agent_selection
        if acting and self._obs_cache is not None:
            return {"observation": self._obs_cache.copy(), "action_mask": self._mask.copy()}
        if self.compiled:
            if self._packed is None:
                self._packed = pack_game(self.game, self._game_totals())
            obs = observe_packed(self._packed, seat, self.decision if acting else None)
        else:
            obs = observe(HaggisSeatView(self.game, seat), self.decision if acting else None)
        if acting:
            self._obs_cache = obs
            return {"observation": obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": obs, "action_mask": np.zeros(N_ACTIONS, np.int8)}

    def state(self) -> np.ndarray:
        """Full-information state (every hand) for centralised critics: float32 ``(STATE_DIM,)``."""
        self._require_reset()
        return np.clip(state(self.game, self.decision), 0.0, OBS_BOUND)

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
        if play is None:  # more cards of this play follow (same agent)
            self._mask = _read_only(decision.mask())
            self._obs_cache = None
            self._set_infos()
        else:
            if isinstance(decision, CompiledDecision):  # a play of the decision: legal, its combo known
                result = self.game.apply_legal(play, decision.combo_for(play))
            else:
                result = self.game.apply(play)
            if result.round_over and self.reward_mode == "score":
                for x, r in zip(self.possible_agents, result.round_scores):
                    self.rewards[x] = float(r)
            if result.game_over:
                self._end_game()
            else:
                self._new_decision()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_game(self) -> None:
        """The last round was scored: every agent terminates; ``"win"`` rewards by place (section 9)."""
        game = self.game
        n = self.config.n_players
        if self.reward_mode == "win":
            for x, place in zip(self.possible_agents, game.placements()):
                self.rewards[x] = (n + 1 - 2 * place) / (n - 1)
        self.decision = None
        self._obs_cache = None
        self._packed = None
        self._mask = self._zero_mask
        self.terminations = {x: True for x in self.agents}
        self.truncations = {x: False for x in self.agents}
        self._set_infos()

    def describe_action(self, action: Any) -> str:
        """``action`` in words for the pending decision (cards named when it is legal now)."""
        self._require_reset()
        return describe_action(action, self.game, self.decision)

    def _drop_decision(self) -> None:
        """No decision pends (the game ended for an illegal action)."""
        self.decision = None
        self._obs_cache = None
        self._packed = None

    # --- rendering --------------------------------------------------------------------------------
    def _render_text(self) -> str:
        """:meth:`render`'s text (:meth:`ClassicAEC.render`): the table and the acting hand."""
        return render_text(self.game, self.decision)

    def close(self) -> None:
        """End the episode: until the next ``reset()`` every method raises ``ResetNeeded``."""
        self.game = None
        self.decision = None
        self._obs_cache = None
        self._packed = None


def env(**config: Any) -> AECEnv:
    """``raw_env(**config)`` with PettingZoo's standard ``OrderEnforcingWrapper`` (its errors made
    ``ResetNeeded``; see the module card).

    Illegal actions are handled by :class:`raw_env` itself (default ``illegal_action="penalize"``, the
    classic convention of ``TerminateIllegalWrapper``), and out-of-range actions raise a clear error.
    """
    return _OrderEnforcingWrapper(raw_env(**config))


#: The PettingZoo registry id (``import seers_env`` registers it: :mod:`seers_env.registration`).
ENV_ID = "seers/haggis-v0"

__all__ = ["CONFIG_FIELDS", "ENV_ID", "ILLEGAL_ACTION_MODES", "INFO_KEYS", "IllegalActionError", "REWARD_MODES",
           "ResetNeededAttributeError", "check_action", "env", "raw_env"]
