"""A Gymnasium single-agent view of the AEC environment: one learning seat against opponent policies.

The wrapper is what stable-baselines3 / sb3-contrib's ``MaskablePPO`` train on (Gymnasium ``Env`` API,
``action_masks()`` for the mask); it passes ``gymnasium.utils.env_checker.check_env``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, Union, runtime_checkable

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .artifacts import DEFAULT_ARTIFACT_DECK
from .games import DEFAULT_GAME, game_spec
from .integers import is_integer
from .seers_catalog_v0 import ResetNeeded, game_from_option, reset_needed
from .plays import Play
from .view import SeatView
from .seeding import check_seed

#: The keys of every info of :class:`SingleAgentSeersEnv`, at every step.
INFO_KEYS = ("action_mask", "seat", "stage", "round", "totals", "winners", "illegal_action")

#: ``policy(observation float32 (OBS_DIM,), action_mask int8 (N_ACTIONS,)) -> action id``
Policy = Callable[[np.ndarray, np.ndarray], int]


@runtime_checkable
class ActsOnView(Protocol):
    """Anything with ``act(view: SeatView) -> Play`` (a member of ``view.legal_plays()``), e.g. an
    ``agents.Agent``; an optional ``reset(seed)`` is called at every episode start."""

    def act(self, view: SeatView) -> Play: ...


Opponent = Union[ActsOnView, Policy]


class UniformRandomOpponent:
    """The default opponent: a uniformly random legal play, from its own ``numpy.random.Generator``
    (the same draws as ``agents.RandomAgent``, without importing the agents layer)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the generator (called by the wrapper at every reset)."""
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> Play:
        """A uniformly random element of ``view.legal_plays()``."""
        legal = view.legal_plays()
        return legal[int(self.rng.integers(len(legal)))]


# --- every game ----------------------------------------------------------------------------------------


def _legal(view: Any, play: Any) -> None:
    """Raises ``ValueError`` unless ``play`` is one of ``view.legal_plays()``."""
    if play not in view.legal_plays():
        raise ValueError("not one of view.legal_plays()")


def _seers_play(aec: Any, view: Any, play: Any, after: Callable[[], None]) -> None:
    """Seers Catalog: the play's action path in the pending decision (``Decision.actions_for``: one to
    three actions; it refuses a play with no legal play's identity, as :class:`SingleAgentSeersEnv`)."""
    if not isinstance(play, Play):
        raise ValueError(f"not a Play but a {type(play).__name__}")
    for a in aec.decision.actions_for(play):
        aec.step(a)
        after()


def _scout_play(aec: Any, view: Any, play: Any, after: Callable[[], None]) -> None:
    """SCOUT: one action, or two for a Scout & Show (:func:`seers_env.scout.actions.actions_of_play`)."""
    from .scout.actions import actions_of_play

    _legal(view, play)
    for a in actions_of_play(play):
        aec.step(a)
        after()


def _seals_play(aec: Any, view: Any, play: Any, after: Callable[[], None]) -> None:
    """Seals: one action per play (a take or a declaration; the declaration after a take is a decision of
    its own, so the opponent's ``act`` is called again for it)."""
    _legal(view, play)
    aec.step(play.action)
    after()


def _haggis_play(aec: Any, view: Any, play: Any, after: Callable[[], None]) -> None:
    """Haggis: at each stage of the decision the play's next code (:func:`seers_env.haggis.actions.play_codes`:
    main code, then cards), skipping the codes the decision chose by itself (cards that every remaining
    legal play shares), until the play is made (a new decision, or the game's end)."""
    from .haggis.actions import play_codes

    _legal(view, play)
    codes = play_codes(play)
    d = aec.decision
    while aec.decision is d:
        aec.step(codes[len(d.chosen)])
        after()


#: Per game: ``(aec, view, play, after) -> None`` steps the AEC environment through an opponent's ``play``,
#: calling ``after()`` after each action; ``ValueError``, before any step, for a play that is not legal.
_PLAY_STEPS: dict[str, Callable[[Any, Any, Any, Callable[[], None]], None]] = {
    "seers_catalog": _seers_play, "scout": _scout_play, "seals": _seals_play, "haggis": _haggis_play,
}


class SingleAgentEnv(gym.Env):
    """One learner seat of any game of :data:`seers_env.games.GAMES`; the other seats are played by
    ``opponents``. The Gymnasium ``Env`` that sb3-contrib's ``MaskablePPO`` trains on (``action_masks()``),
    over the game's PettingZoo AEC environment (``spec.env_module``'s ``raw_env``).

    Args:
        game: the game's registry name: ``"seers_catalog"``, ``"scout"``, ``"seals"`` or ``"haggis"``.
        n_players: seats (the game's ``min_players..max_players``; an ``int`` or numpy integer); ``None``:
            the AEC environment's default (Seers Catalog and SCOUT 4, Seals and Haggis 3).
        reward_mode: ``"score"`` or ``"win"``, as for the AEC environment.
        learner_seat: the learner's seat ``0..n_players-1``, or ``"random"`` (drawn at every reset).
        opponents: ``n_players - 1`` opponents (a list, or any iterable but a string: a tuple, a numpy object
            array, a generator), seated in order after the learner; each an object with
            ``act(view) -> play`` (a member of ``view.legal_plays()``; the view is the game's seat view,
            ``spec.view_class()``; e.g. ``agents.make_agent("heuristic", game="scout")``) or a callable
            ``policy(observation, action_mask) -> action``. Default: :class:`UniformRandomOpponent`\\ s.
        opponent_sampler: optional ``(rng: np.random.Generator) -> n_players - 1 opponents`` (an iterable, as
            ``opponents``), called at every reset; it overrides ``opponents``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        **config: the game's config fields besides ``n_players`` (Seers Catalog ``n_rounds``,
            ``artifact_deck``; SCOUT ``n_rounds``, ``first_player``, ...; Seals ``n_rounds``, ...;
            Haggis ``target``, ``n_rounds``, ...: the AEC module's ``CONFIG_FIELDS`` and card).

    Spaces: the AEC environment's: observation its flat ``Box`` (float32; Seers Catalog ``(857,)``, SCOUT
    ``(849,)``, Seals ``(404,)``, Haggis ``(274,)``), action its ``Discrete`` catalogue (6928, 2396, 12304,
    814). An episode is one game.

    Turns: one step is one learner action. Where a play takes several actions (Seers Catalog's wild
    positions and artifact use, SCOUT's Scout & Show, Haggis's cards of a combination) and where one seat
    has two decisions in a row (Seals' declaration after a take, a SCOUT 2-player Scout, a Haggis bet and
    then the first play), the learner gets one step per action, reward 0 between them, and ``info["stage"]``
    says which is pending. An opponent's play is turned into its action path; a Haggis play code by code
    (the decision skips the cards that every remaining legal play shares), a Seals declaration is asked of
    the opponent as its own ``act``.

    Rewards: the learner's reward since its previous decision (``"score"``: each round's score at its end,
    so an episode's rewards sum to the learner's final total; ``"win"``: ``(n + 1 - 2 * place) / (n - 1)``
    at the end). An action outside :meth:`action_masks` ends the episode with reward -1 and
    ``info["illegal_action"]``. A game whose last round is cut by the game's turn limit (SCOUT, Seals) ends
    with ``truncated=True`` instead of ``terminated``.

    Infos have the keys :data:`INFO_KEYS` at every step, as :class:`SingleAgentSeersEnv`'s.

    Attributes:
        game_name, game_spec: the game's registry name and :class:`~seers_env.games.GameSpec`.
        aec: the game's AEC ``raw_env`` (``illegal_action="raise"``); ``aec.game`` is the engine game of the
            episode (read-only by convention; SCOUT and Seers Catalog build it on first read).
        n_players; seat: the learner's seat in the current episode.

    ``reset(options={"game": position})`` starts from ``position`` (the game's ``to_dict()`` dict, or a game
    object, copied; this config, not over); the opponents then play up to the learner's first decision.
    ``options`` takes no other key.

    Before ``reset()`` and after ``close()``, ``step``, ``action_masks`` and ``render`` raise
    :class:`~seers_env.seers_catalog_v0.ResetNeeded`; so does ``step`` once the episode has ended.

    Raises:
        TypeError: ``game`` not a string, ``n_players`` or ``learner_seat`` of a wrong type, an unknown
            config field, an opponent with no ``act`` that is not callable (a spec string included), an
            ``opponent_sampler`` that is not callable.
        ValueError: an unknown game (the message lists them), a seat count the game does not allow, a
            seat out of range, a bad config value or mode, the wrong number of opponents.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, game: str = DEFAULT_GAME, n_players: int | None = None, reward_mode: str = "score",
                 learner_seat: int | str = "random", opponents: Sequence[Opponent] | None = None,
                 opponent_sampler: Callable[[np.random.Generator], Sequence[Opponent]] | None = None,
                 render_mode: str | None = None, **config: Any):
        spec = game_spec(game)
        if n_players is not None:
            if is_integer(n_players):  # a numpy integer seat count, as the AEC environments take
                n_players = int(n_players)
            n_players = spec.check_players(n_players)
            config["n_players"] = n_players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not allowed; choose None, 'human' or 'ansi'")
        module = spec.env()
        # illegal_action="raise": an opponent's illegal play is an error, never a penalty to the opponent
        self.aec = module.raw_env(reward_mode=reward_mode, illegal_action="raise",
                                  render_mode=None if render_mode is None else "ansi", **config)
        n = self.aec.config.n_players
        if learner_seat != "random":
            if not is_integer(learner_seat):
                raise TypeError(f"learner_seat must be an integer 0..{n - 1} or 'random', got "
                                f"{type(learner_seat).__name__}: {learner_seat!r}")
            if not 0 <= learner_seat < n:
                raise ValueError(f"learner_seat={learner_seat!r} is not allowed; use 0..{n - 1} or 'random'")
            learner_seat = int(learner_seat)
        if opponent_sampler is not None and not callable(opponent_sampler):
            raise TypeError(f"opponent_sampler must be a callable (rng) -> opponents, got "
                            f"{type(opponent_sampler).__name__}: {opponent_sampler!r}")
        self.game_name = spec.name
        self.game_spec = spec
        self._view_class = spec.view_class()
        self._step_play = _PLAY_STEPS[spec.name]
        self._check_action = module.check_action
        self.n_players = n
        self.learner_seat = learner_seat
        self.render_mode = render_mode
        if opponents is None:
            opponents = [UniformRandomOpponent() for _ in range(n - 1)]
        self.opponents = self._check_opponents(opponents)
        self.opponent_sampler = opponent_sampler
        agent0 = self.aec.possible_agents[0]
        box = self.aec.observation_space(agent0)["observation"]
        self.observation_space = spaces.Box(box.low.copy(), box.high.copy(), box.shape, np.float32)
        self.action_space = spaces.Discrete(int(self.aec.action_space(agent0).n))
        self.seat = 0
        self._seated: list[Opponent | None] = []
        self._pending = 0.0
        self._done = True
        self._truncated = False
        self._dealt = False
        self._closed = False

    def _check_opponents(self, opponents: Sequence[Opponent]) -> list[Opponent]:
        # any iterable but a string: a list, a tuple, a numpy object array (``rng.choice(pool, n - 1)``), a
        # generator
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Iterable):
            raise TypeError(f"opponents must be a list of {self.n_players - 1} opponents, got "
                            f"{type(opponents).__name__}: {opponents!r}")
        opponents = list(opponents)
        if len(opponents) != self.n_players - 1:
            raise ValueError(f"{len(opponents)} opponents given; a {self.n_players}-player "
                             f"{self.game_spec.title} game needs {self.n_players - 1}")
        for o in opponents:
            if isinstance(o, str):
                raise TypeError(f"opponent {o!r} is a spec string; build agents from specs with "
                                f"agents.make_agent(spec, game={self.game_name!r}) (Seers Catalog: "
                                f"agents.make_agents([...])) and pass those")
            if not callable(getattr(o, "act", None)) and not callable(o):
                raise TypeError(f"opponent {o!r} is neither an agent with act(view) nor a callable "
                                f"policy(observation, action_mask) -> int")
        return opponents

    # --- Gymnasium API ----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal a new game (or start from ``options["game"]``, class docstring) and play the opponents up
        to the learner's first decision.

        Returns:
            ``(observation float32 observation_space.shape, info)``; ``info["action_mask"]`` is the mask
            (int8).

        Raises:
            ValueError: a negative or non-integer seed (a bool included); an ``options`` key other than
                ``"game"``; a position of another config or already over.
            TypeError: ``options`` not a dict; a position that is neither a dict nor the game's class (and
                what the game's ``from_dict`` raises for a malformed one). Nothing changes on an error.
        """
        if seed is not None:
            seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}: {options!r}")
        unknown = sorted(str(k) for k in (options or {}) if k != "game")
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown}; the only option is 'game' (a position)")
        position = (options or {}).get("game")
        start = None if position is None else self._position(position)  # checked before any change
        super().reset(seed=seed)
        rng = self.np_random
        self.aec.reset(seed=int(rng.integers(2**63 - 1)), options=None if start is None else {"game": start})
        n = self.n_players
        self.seat = int(rng.integers(n)) if self.learner_seat == "random" else int(self.learner_seat)
        opps = self.opponents
        if self.opponent_sampler is not None:
            opps = self._check_opponents(self.opponent_sampler(rng))
        self._seated = [None] * n
        for k, o in enumerate(opps):
            self._seated[(self.seat + 1 + k) % n] = o
            if hasattr(o, "reset") and not isinstance(o, type):
                try:
                    o.reset(seed=int(rng.integers(2**31)))
                except TypeError:
                    pass  # a callable policy object whose reset takes other arguments
        self._pending = 0.0
        self._done = self._truncated = False
        self._dealt, self._closed = True, False
        self._advance()
        self._pending = 0.0  # nothing is owed before the learner's first decision
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Take the learner's action, then let the opponents play up to its next decision.

        Returns:
            ``(observation, reward, terminated, truncated, info)`` (class docstring).

        Raises:
            TypeError / ValueError: a wrongly typed or out-of-range action (nothing changes).
            ResetNeeded: before ``reset()``, after ``close()``, or after the episode ended.
        """
        self._require_reset("step")
        if self._done:
            raise ResetNeeded("step() after the episode ended; call reset() first")
        a = self._check_action(action)
        aec = self.aec
        if not aec.infos[aec.agent_selection]["action_mask"][a]:
            self._done = True
            info = self._info()
            info["illegal_action"] = a
            return self._obs(), -1.0, True, False, info
        aec.step(a)
        self._collect()
        self._advance()
        reward, self._pending = self._pending, 0.0
        if self.render_mode == "human":
            self.render()
        return (self._obs(), float(reward), self._done and not self._truncated, self._done and self._truncated,
                self._info())

    def action_masks(self) -> np.ndarray:
        """``bool`` array ``(action_space.n,)``: the learner's legal actions now (all False once done; a new
        array each call).

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset("action_masks")
        if self._done:
            return np.zeros(self.action_space.n, dtype=bool)
        aec = self.aec
        return aec.infos[aec.agent_selection]["action_mask"].astype(bool)

    def render(self) -> str | None:
        """``"ansi"``: the AEC environment's table text; ``"human"``: print it; no render mode: Gymnasium's
        warning and ``None``.

        Raises:
            ResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._require_reset("render")
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = self.aec.render()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """End the episode and close the AEC env: ``step``, ``action_masks`` and ``render`` then raise
        ``ResetNeeded`` until ``reset()``. Closing twice does nothing more."""
        self.aec.close()
        self._done = True
        self._dealt = False
        self._closed = True

    # --- internals --------------------------------------------------------------------------------
    def _position(self, position: Any) -> Any:
        """A new game of ``options["game"]`` (checked as the AEC environment checks it)."""
        aec = self.aec
        if self.game_name == "seers_catalog":
            return game_from_option(position, aec.config, "options['game']")
        return aec._game_from_option(position)

    def _require_reset(self, method: str) -> None:
        if not self._dealt:
            raise reset_needed(method, self._closed)

    def _collect(self) -> None:
        self._pending += self.aec.rewards[self.aec.possible_agents[self.seat]]

    def _over(self) -> bool:
        aec = self.aec
        agent = aec.agent_selection
        return bool(aec.terminations[agent] or aec.truncations[agent])  # all end together, with the game

    def _advance(self) -> None:
        """Play opponents until the learner is to act or the game is over."""
        aec = self.aec
        learner = aec.possible_agents[self.seat]
        while not self._over():
            agent = aec.agent_selection
            if agent == learner:
                return
            seat = aec.possible_agents.index(agent)
            opp = self._seated[seat]
            if callable(opp) and not hasattr(opp, "act"):
                o = aec.observe(agent)
                aec.step(int(opp(o["observation"], o["action_mask"])))
                self._collect()
                continue
            view = self._view_class(aec.game, seat)
            play = opp.act(view)
            try:
                self._step_play(aec, view, play, self._collect)
            except ValueError as err:
                self._done = True  # the episode cannot go on: reset()
                raise ValueError(f"the opponent in seat {seat} ({opp!r}) played {play!r}, which is not one of "
                                 f"its legal plays ({err}); the episode ended, call reset()") from err
        self._done = True
        self._truncated = bool(aec.truncations[aec.agent_selection])

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.aec.possible_agents[self.seat])["observation"]

    def _info(self) -> dict:
        """The info of :data:`INFO_KEYS`, from the learner's AEC info (new lists)."""
        mine = self.aec.infos[self.aec.possible_agents[self.seat]]
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat,
                "stage": -1 if self._done else mine["stage"], "round": mine["round"],
                "totals": list(mine["totals"]), "winners": list(mine["winners"]), "illegal_action": -1}



class SingleAgentSeersEnv(SingleAgentEnv):
    """One learner seat of a Seers Catalog game; the other seats are played by ``opponents``:
    :class:`SingleAgentEnv` with ``game="seers_catalog"`` and Seers Catalog's config fields as arguments.

    Args:
        n_players, n_rounds, artifact_deck, reward_mode: as for :class:`seers_env.seers_catalog_v0.raw_env`.
        learner_seat: the learner's seat 0..n-1, or ``"random"`` (drawn at every reset).
        opponents: ``n_players - 1`` opponents, seated in order after the learner; each is an object
            with ``act(view)`` (duck-typed, e.g. an ``agents.Agent``: called with a
            :class:`~seers_env.view.SeatView`, its play turned into action ids with
            ``Decision.actions_for``) or a callable ``policy(observation, action_mask) -> int``. Default:
            :class:`UniformRandomOpponent`\\ s. From spec strings: ``agents.make_agents(["heuristic",
            "greedy", "random"])`` (this layer does not import :mod:`agents`).
        opponent_sampler: optional ``(rng: np.random.Generator) -> list of n_players - 1 opponents``,
            called at every reset (self-play leagues); it overrides ``opponents``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.

    Spaces: observation ``Box(-50, 50, (OBS_DIM,), float32)`` (the flat observation only); action
    ``Discrete(N_ACTIONS)``. An episode is one game. Rewards, infos (:data:`INFO_KEYS`), illegal
    actions, ``reset(options={"game": Game.to_dict()})`` and ``ResetNeeded``: as :class:`SingleAgentEnv`.

    Raises:
        ValueError: a bad seat number, config value, or number of opponents. TypeError: a seat that is
            not an integer or ``"random"``, an opponent that has no ``act`` method and is not callable (a
            spec string included).
    """

    def __init__(self, n_players: int = 4, n_rounds: int = 4, artifact_deck=DEFAULT_ARTIFACT_DECK,
                 reward_mode: str = "score", learner_seat: int | str = "random",
                 opponents: Sequence[Opponent] | None = None,
                 opponent_sampler: Callable[[np.random.Generator], Sequence[Opponent]] | None = None,
                 render_mode: str | None = None):
        super().__init__("seers_catalog", n_players=n_players, reward_mode=reward_mode,
                         learner_seat=learner_seat, opponents=opponents, opponent_sampler=opponent_sampler,
                         render_mode=render_mode, n_rounds=n_rounds, artifact_deck=artifact_deck)


__all__ = ["INFO_KEYS", "ActsOnView", "Policy", "SingleAgentEnv", "SingleAgentSeersEnv", "UniformRandomOpponent"]
