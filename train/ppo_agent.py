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

    The model is loaded once per process (:func:`train.policy.load_model_cached`, which also sets torch to
    one thread).

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the model was trained for a different action or observation size than this version
            of the environment.
    """

    name = "ppo"

    def __init__(self, path: str | os.PathLike, seed: int | None = None, deterministic: bool = True):
        super().__init__(seed)
        from seers_env.actions import N_ACTIONS
        from seers_env.observation import OBS_DIM

        self.path = str(path)
        self.name = f"ppo:{self.path}"
        self.deterministic = deterministic
        self.model = load_model_cached(self.path)  # shared between agents of this process; read-only
        self.policy = self.model.policy
        n_act = getattr(self.model.action_space, "n", None)
        obs_shape = tuple(self.model.observation_space.shape)
        if n_act != N_ACTIONS or obs_shape != (OBS_DIM,):
            raise ValueError(
                f"model {self.path!r} has {n_act} actions and observation shape {obs_shape}; this "
                f"environment has {N_ACTIONS} actions and shape ({OBS_DIM},): retrain it with `seers train`")

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
        decision = Decision(legal, view.seat, view.n_players)
        game = view._game  # only passed to observe(), which uses this seat's information alone
        rng = None if self.deterministic else self.rng
        for _ in range(8):  # at most three stages; a bound guards against a broken Decision
            obs = observe(game, view.seat, decision)
            action = policy_action(self.policy, obs, decision.mask(), rng)
            play = decision.choose(action)
            if play is not None:
                return play
        raise RuntimeError(f"Decision for seat {view.seat} did not give a play after 8 choices")
