"""A trained MaskablePPO model as an engine-level agent (agent spec ``ppo:<path to model.zip>``)."""

from __future__ import annotations

import os

from agents.base import Agent
from seers_env.plays import Play
from seers_env.view import SeatView

from .policy import load_model_cached, policy_action


class PPOAgent(Agent):
    """Plays with a MaskablePPO policy trained by ``seers train``.

    At its turn it builds the seat's :class:`seers_env.actions.Decision` from ``view.legal_plays()``, then
    repeatedly takes the observation (:func:`seers_env.observation.observe`) and the action mask and asks
    the policy for an action, until the Decision returns a Play (a play may take up to three decisions).
    The observation is built from the seat's information only: ``observe`` reads the game object behind
    the view, but only what ``seat`` may know (the environment's no-leak tests check that function).

    Args:
        path: a model ``.zip`` written by ``seers train`` (``runs/<run>/model.zip``, a checkpoint or a
            self-play snapshot).
        seed: seeds the generator used when ``deterministic`` is False.
        deterministic: take the most probable legal action (default) or sample from the policy.
        allow_off_config: play at a table the model was not trained for (other player count or artifact
            deck) with one :class:`train.model_config.ModelConfigWarning` instead of an error.

    The model is loaded once per process (:func:`train.policy.load_model_cached`, which also sets torch to
    one thread). Its recorded :class:`train.model_config.ModelConfig` is checked when it is loaded
    (algorithm, observation and catalogue versions) and at every :meth:`act` (players, artifact deck of the
    game); :meth:`check_use` checks a table before any game starts.

    Raises:
        FileNotFoundError: no file at ``path``.
        train.model_files.UnsafeModelFileError, train.model_files.ModelFileError: (``ValueError``) the file
            holds a pickle the safe reader refuses, or is damaged (:func:`train.policy.load_model`).
        train.model_config.ModelConfigError: (a ``ValueError``) the model was trained with another
            observation (e.g. a ``Dict`` observation, ``MultiInputPolicy``), observation size, action count,
            algorithm or catalogue than this environment's; the message names both sides.
    """

    name = "ppo"
    game = "seers_catalog"

    def __init__(self, path: str | os.PathLike, seed: int | None = None, deterministic: bool = True,
                 allow_off_config: bool = False):
        super().__init__(seed)
        self.path = str(path)
        self.name = f"ppo:{self.path}"
        self.deterministic = deterministic
        self.allow_off_config = allow_off_config
        self.model = load_model_cached(self.path)  # shared between agents of this process; read-only
        self.policy = self.model.policy
        self.trained_for = check_model_file(self.model, self.path)
        self._checked: tuple | None = None

    def check_use(self, n_players: int, artifact_deck) -> None:
        """Check that the model was trained for ``n_players`` and ``artifact_deck`` (kinds, any order).

        Raises:
            train.model_config.ModelConfigError: it was not (unless ``allow_off_config``, which warns once).
        """
        from .model_config import check_model_config

        key = (int(n_players), tuple(sorted(artifact_deck)))
        if key != self._checked:
            check_model_config(self.trained_for, source=self.path, n_players=n_players,
                               artifact_deck=tuple(artifact_deck), allow_off_config=self.allow_off_config)
            self._checked = key

    def act(self, view: SeatView) -> Play:
        """Return one of ``view.legal_plays()`` chosen by the policy.

        Raises:
            ValueError: it is not this seat's turn (no legal plays).
        """
        from seers_env.actions import Decision
        from seers_env.observation import observe

        legal = view.legal_plays()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal play: it is player_{view.current}'s turn")
        game = view._game  # only passed to observe(), which uses this seat's information alone
        self.check_use(view.n_players, game.config.artifact_deck)
        decision = Decision(legal, view.seat, view.n_players)
        rng = None if self.deterministic else self.rng
        for _ in range(8):  # at most three stages; a bound guards against a broken Decision
            obs = observe(game, view.seat, decision)
            action = policy_action(self.policy, obs, decision.mask(), rng)
            play = decision.choose(action)
            if play is not None:
                return play
        raise RuntimeError(f"Decision for seat {view.seat} did not give a play after 8 choices")


def check_model_file(model, path: str | os.PathLike, n_players: int | None = None, artifact_deck=None,
                     allow_off_config: bool = False):
    """Check a loaded MaskablePPO ``model`` against this environment and, if given, the table.

    Checks the observation space (a flat ``Box`` of ``(OBS_DIM,)``; a ``Dict`` observation, i.e. a
    ``MultiInputPolicy`` model, is refused), the action count ``N_ACTIONS``, then the recorded
    :class:`train.model_config.ModelConfig` (:func:`train.model_config.load_model_config`): algorithm
    ``maskable_ppo``, :data:`~train.model_config.OBSERVATION_VERSION`,
    :data:`~train.model_config.CATALOGUE_VERSION` and, when given, ``n_players`` and ``artifact_deck``.

    Returns:
        The recorded ``ModelConfig``, or ``None`` for a file without one (only the sizes were checked).

    Raises:
        train.model_config.ModelConfigError: the first mismatch, naming the model's and the use's side.
    """
    from gymnasium import spaces

    from seers_env.actions import N_ACTIONS
    from seers_env.observation import OBS_DIM

    from .model_config import (CATALOGUE_VERSION, OBSERVATION_VERSION, ModelConfigError, check_model_config,
                               load_model_config)
    from .model_files import observation_mismatch

    obs_space, act_space = model.observation_space, model.action_space
    if not isinstance(obs_space, spaces.Box) or tuple(obs_space.shape) != (OBS_DIM,):
        kind = (f"a {type(obs_space).__name__} observation (keys {', '.join(map(str, obs_space.spaces))}; "
                f"a MultiInputPolicy model)" if isinstance(obs_space, spaces.Dict)
                else f"observation {type(obs_space).__name__} of shape {getattr(obs_space, 'shape', None)}")
        raise observation_mismatch(path, kind)
    if not isinstance(act_space, spaces.Discrete) or int(act_space.n) != N_ACTIONS:
        raise ModelConfigError(f"model {str(path)!r} was trained with action space {act_space}; this "
                               f"environment has Discrete({N_ACTIONS}): retrain it with `seers train`")
    trained = load_model_config(path)
    check_model_config(trained, source=path, algorithm="maskable_ppo", feature_version=OBSERVATION_VERSION,
                       catalogue_version=CATALOGUE_VERSION, n_players=n_players,
                       artifact_deck=None if artifact_deck is None else tuple(artifact_deck),
                       allow_off_config=allow_off_config)
    return trained


def check_ppo_spec(spec: str, n_players: int | None = None, artifact_deck=None,
                   allow_off_config: bool = False) -> None:
    """Load the model of an agent spec ``"ppo:<path>"`` and check it (:func:`check_model_file`).

    For commands that take agent specs (training opponents, evaluations): call it before any work starts.

    Raises:
        FileNotFoundError: no model file; train.model_files.ModelFileError: an unsafe or damaged one
        (:func:`train.policy.load_model`); train.model_config.ModelConfigError: it does not fit.
    """
    path = spec[len("ppo:"):] if spec.startswith("ppo:") else spec
    check_model_file(load_model_cached(path), path, n_players, artifact_deck, allow_off_config)
