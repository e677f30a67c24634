"""The game registry: one name per game, and where its parts live.

A game is named by one string everywhere (``--game scout`` on the command line, ``"game"`` in model files
and run folders). This module holds only what the engine and environment layers define; the layers above
keep their own per-game tables (the heuristic agent in :mod:`agents.games`, renderers in the command
line), keyed by the same names, so that no layer imports one above it.

Modules are imported on first use (:meth:`GameSpec.module`), so that naming a game costs nothing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

#: The game played when none is named.
DEFAULT_GAME = "seers_catalog"


@dataclass(frozen=True)
class GameSpec:
    """Where one game's parts live (dotted ``module:attribute`` paths) and its fixed facts.

    Attributes:
        name: registry name (``[a-z_]+``), e.g. ``"scout"``.
        title: the game's printed name, e.g. ``"SCOUT"``.
        min_players, max_players: seat counts the rules allow (inclusive).
        game: the game class (:class:`seers_env.protocol.GameState`).
        config: the config class (a frozen dataclass with ``n_players``, ``to_dict`` and ``from_dict``).
        view: the seat-view class (:class:`seers_env.protocol.SeatView`).
        env_module: the PettingZoo module (``env()``, ``raw_env()``), or ``""`` while it has none.
        env_id: its PettingZoo registry id, or ``""``.
        score_scale: a round score's typical magnitude (points), used to scale search rewards to about
            [-1, 1] (Seers Catalog: the 15-card hand; SCOUT: the 11-card hand).
        rules: the rules document shipped with the project (path relative to the repository).
        placement: ``placements(totals, round_scores) -> list[float]``, each seat's finishing place
            (1 = first; tied seats share the mean of their places), for ratings.
        extra_rounds: ``None``: a game of ``n_rounds`` rounds plays exactly that many; an int ``k``: it
            plays from 1 to ``n_rounds + k`` rounds (Seals: ``n_rounds`` is a round counter that a
            declarer with 5 Marks ends early, and up to ``k`` tie-break rounds follow, rules section 6).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    game: str
    config: str
    view: str
    env_module: str = ""
    env_id: str = ""
    score_scale: float = 15.0
    rules: str = ""
    placement: str = ""
    extra_rounds: int | None = None

    def _resolve(self, path: str) -> Any:
        module, _, attr = path.partition(":")
        return getattr(importlib.import_module(module), attr)

    def game_class(self) -> type:
        """The game class (imports its module)."""
        return self._resolve(self.game)

    def config_class(self) -> type:
        """The config class (imports its module)."""
        return self._resolve(self.config)

    def view_class(self) -> type:
        """The seat-view class (imports its module)."""
        return self._resolve(self.view)

    def placements(self, totals: list[int], round_scores: list[list[int]]) -> list[float]:
        """Each seat's finishing place in a finished game (the game's placement rule)."""
        return self._resolve(self.placement)(totals, round_scores)

    def env(self) -> ModuleType:
        """The PettingZoo environment module.

        Raises:
            NotImplementedError: the game has no environment yet.
        """
        if not self.env_module:
            raise NotImplementedError(f"game {self.name!r} has no PettingZoo environment yet")
        return importlib.import_module(self.env_module)

    def check_players(self, n_players: Any) -> int:
        """``n_players`` as an ``int`` if the rules allow it.

        Raises:
            TypeError: not an integer (``bool`` included).
            ValueError: outside ``min_players..max_players``.
        """
        if isinstance(n_players, bool) or not isinstance(n_players, int):
            raise TypeError(f"{self.title}: n_players must be an integer {self.min_players}.."
                            f"{self.max_players}, got {type(n_players).__name__}: {n_players!r}")
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"{self.title}: n_players={n_players!r} is not one of "
                             f"{self.min_players}..{self.max_players}")
        return n_players

    def new_game(self, n_players: int, seed: int | None = None, **options: Any):
        """A new game at ``n_players`` seats (``options``: further config fields), seeded with ``seed``."""
        config = self.config_class()(n_players=self.check_players(n_players), **options)
        return self.game_class()(config, seed=seed)


#: Every game, by name, in the order the documentation lists them.
GAMES: dict[str, GameSpec] = {
    "seers_catalog": GameSpec(
        name="seers_catalog", title="Seers Catalog", min_players=2, max_players=5,
        game="seers_env.engine.game:Game", config="seers_env.engine.game:GameConfig",
        view="seers_env.engine.view:SeatView", env_module="seers_env.seers_catalog_v0",
        env_id="seers/seers_catalog-v0", score_scale=15.0, rules="docs/rules.md",
        placement="seers_env.engine.scoring:game_placements"),
    "scout": GameSpec(
        name="scout", title="SCOUT", min_players=2, max_players=5,
        game="seers_env.scout.game:ScoutGame", config="seers_env.scout.game:ScoutConfig",
        view="seers_env.scout.view:ScoutSeatView", env_module="seers_env.scout_v0", env_id="seers/scout-v0",
        score_scale=11.0, rules="docs/scout_rules.md", placement="seers_env.scout.game:placements"),
    "seals": GameSpec(
        name="seals", title="Seals", min_players=2, max_players=4,
        game="seers_env.seals.game:SealsGame", config="seers_env.seals.game:SealsConfig",
        view="seers_env.seals.view:SealsSeatView", env_module="seers_env.seals_v0",
        env_id="seers/seals-v0", score_scale=4.0, rules="docs/seals_rules.md",
        placement="seers_env.seals.game:placements", extra_rounds=3),
    "haggis": GameSpec(
        name="haggis", title="Haggis", min_players=2, max_players=3,
        game="seers_env.haggis.game:HaggisGame", config="seers_env.haggis.game:HaggisConfig",
        view="seers_env.haggis.view:HaggisSeatView", env_module="seers_env.haggis_v0", env_id="seers/haggis-v0",
        score_scale=60.0, rules="docs/haggis_rules.md", placement="seers_env.haggis.game:placements"),
}


def game_spec(name: Any) -> GameSpec:
    """The :class:`GameSpec` of ``name``.

    Raises:
        TypeError: ``name`` is not a string.
        ValueError: no such game; the message lists the registered ones.
    """
    if not isinstance(name, str):
        raise TypeError(f"game must be a string, one of {', '.join(GAMES)}; got {type(name).__name__}: {name!r}")
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; registered games: {', '.join(GAMES)}") from None


def game_of(obj: Any) -> GameSpec:
    """The :class:`GameSpec` of a game state or seat view, from its ``game_name`` attribute.

    Raises:
        TypeError: ``obj`` has no ``game_name`` (not a game of this package).
    """
    name = getattr(obj, "game_name", None)
    if name is None:
        raise TypeError(f"{type(obj).__name__} is not a game or seat view of this package (no game_name)")
    return game_spec(name)
