"""The one agent interface used everywhere (tournaments, ``seers play``, the environment's opponents)."""

from __future__ import annotations

import abc

import numpy as np

from seers_env.plays import Play
from seers_env.view import SeatView


class Agent(abc.ABC):
    """A player: given what its seat may see, choose one of the legal plays.

    Subclasses implement :meth:`act`. ``name`` is the agent's spec string (e.g. ``"ismcts:200"``).
    Randomness comes from ``self.rng``, reseeded by :meth:`reset`.
    """

    name: str = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; reseeds the agent's generator."""
        self.rng = np.random.default_rng(seed)

    #: the game this agent plays (a name of :data:`seers_env.games.GAMES`), or ``None`` for every game
    game: str | None = None

    def check_game(self, game: str, config) -> None:
        """Raise ``ValueError`` if this agent cannot play ``game`` with ``config`` (its config object);
        called before a tournament starts. Checks :attr:`game`, then (Seers Catalog)
        :meth:`check_use`."""
        if self.game is not None and self.game != game:
            raise ValueError(f"agent {self.name!r} plays {self.game!r}, not {game!r}")
        if game == "seers_catalog":
            self.check_use(config.n_players, tuple(config.artifact_deck))

    def check_use(self, n_players: int, artifact_deck) -> None:
        """Raise ``ValueError`` if this agent cannot play at such a table; called before a tournament starts.

        The baselines play any table; a learned agent checks what its model was trained for
        (:class:`train.model_config.ModelConfig`).
        """

    def check_view(self, view) -> None:
        """Raise ``TypeError`` if ``view`` is a seat view of another game than :attr:`game` (the view's
        ``game_name``); agents for every game (``game`` ``None``) take any view."""
        game = getattr(view, "game_name", None)
        if self.game is not None and game is not None and game != self.game:
            raise TypeError(f"agent {self.name!r} plays {self.game!r}, but act() got a view of {game!r}; "
                            f"build the agent for that game (make_agent(spec, game={game!r}))")

    def legal_for(self, view) -> list:
        """``view.legal_plays()`` after :meth:`check_view`, never empty.

        Raises:
            TypeError: a view of another game. ValueError: the view's seat is not to act (another seat
                is, or the game is over): act() needs the acting seat's view.
        """
        self.check_view(view)
        legal = view.legal_plays()
        if not legal:
            if getattr(view, "game_over", False):
                why = "the game is over"
            else:
                current = getattr(view, "current", None)
                why = f"seat {current} is to act" if isinstance(current, int) else "another seat is to act"
            raise ValueError(f"seat {getattr(view, 'seat', '?')} is not to act now ({why}); act() needs the "
                             "acting seat's view")
        return legal

    @abc.abstractmethod
    def act(self, view: SeatView) -> Play:
        """Return one element of ``view.legal_plays()`` (never empty when it is this seat's turn)."""


class RandomAgent(Agent):
    """Uniform over the legal plays."""

    name = "random"

    def act(self, view: SeatView) -> Play:
        legal = self.legal_for(view)
        return legal[int(self.rng.integers(len(legal)))]
