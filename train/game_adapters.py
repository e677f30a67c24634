"""How a game plugs into the play-scoring learner (:mod:`train.selfplay`, :class:`~train.scoring_policy.LearnedAgent`).

The learner itself (the network, PPO, imitation, the actor pool, model files) is the same for every game;
a :class:`GameAdapter` gives what is the game's own:

* its table: :meth:`~GameAdapter.game_config` (Seers Catalog: players and artifact deck; SCOUT: players);
* its features: :meth:`~GameAdapter.encode_state` (float32 ``(state_dim,)``), :meth:`~GameAdapter.play_rows`
  (float32 ``(n_legal, play_dim [+ 1])``, the last column the heuristic's score of each play when the
  policy is a residual on it), and :attr:`~GameAdapter.feature_version`, recorded in model files;
* the privileged critic's input (:attr:`~GameAdapter.privileged_dim`; training only);
* the heuristic baseline (:meth:`~GameAdapter.heuristic`);
* how rollouts and warm-start samples are played: :meth:`~GameAdapter.actor`,
  :meth:`~GameAdapter.teacher_samples`;
* the reward scale (points per reward unit), the final tournament's rounds and the shipped models' names.

Seers Catalog's adapter calls the learner's original code (:class:`train.selfplay.Actor` on the compiled
Seers kernel, :func:`train.selfplay.teacher_samples`), unchanged; SCOUT's is in :mod:`train.scout_actor`
(the compiled SCOUT kernel); Seals has no kernel and plays on its Python engine through the generic
:class:`train.engine_actor.EngineActor`, as Haggis. Modules are imported on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Games the learner serves, by registry name (:data:`seers_env.games.GAMES`).
LEARNER_GAMES = ("seers_catalog", "scout", "seals", "haggis")


class GameAdapter:
    """One game's parts of the play-scoring learner (module docstring).

    Attributes:
        name: registry name (``"seers_catalog"``, ``"scout"``); title: printed name.
        state_dim, play_dim: feature sizes (:meth:`encode_state`, :meth:`play_rows` without the prior).
        privileged_dim: length of the privileged critic's input.
        feature_version: ``ModelConfig.feature_version`` of models on these features.
        reward_scale: points per reward unit (a round's reward is the seat's score minus the others' mean,
            divided by it).
        final_rounds: rounds per game of ``seers train``'s final tournament (``None``: the game's default).
    """

    name: str = ""
    title: str = ""
    state_dim: int = 0
    play_dim: int = 0
    privileged_dim: int = 0
    feature_version: str = ""
    reward_scale: float = 10.0
    final_rounds: int | None = None

    def game_config(self, n_players: int, artifact_deck: tuple[str, ...]) -> Any:
        """The game's config object at this table (``ValueError`` for a bad value)."""
        raise NotImplementedError

    def table_deck(self, artifact_deck: tuple[str, ...]) -> tuple[str, ...] | None:
        """The ``artifact_deck`` argument of :func:`agents.tournament.run_tournament` for this table."""
        return None

    def model_config(self, n_players: int, artifact_deck: tuple[str, ...]):
        """The :class:`~train.model_config.ModelConfig` of a play-scoring model for this table."""
        from .model_config import ModelConfig
        from .scoring_policy import ALGORITHM

        return ModelConfig(ALGORITHM, n_players=n_players, artifact_deck=tuple(artifact_deck),
                           feature_version=self.feature_version, catalogue_version=None, game=self.name)

    def encode_state(self, view) -> np.ndarray:
        raise NotImplementedError

    def play_rows(self, view, legal: list, heuristic_prior: bool) -> np.ndarray:
        raise NotImplementedError

    def privileged(self, game, seat: int) -> np.ndarray:
        """The privileged critic's input for ``seat`` of the full state ``game``: float32
        ``(privileged_dim,)`` (training, and search on sampled states: :mod:`train.guided_search`)."""
        raise NotImplementedError

    def seat_view(self, game, seat: int):
        """The game's view of ``seat`` in ``game`` (what :meth:`encode_state` reads)."""
        raise NotImplementedError

    def new_game(self, config, seed: int):
        """A new game of this table (``config``: :meth:`game_config`'s object) seeded with ``seed``
        (:class:`train.engine_actor.EngineActor`)."""
        from seers_env.games import game_spec

        return game_spec(self.name).game_class()(config, seed=seed)

    def check_config(self, cfg) -> None:
        """Raise ``ValueError`` for a :class:`~train.selfplay.SelfPlayConfig` this game's actor cannot
        play (before anything runs); nothing by default."""

    def heuristic(self):
        """A heuristic agent of the game (deterministic)."""
        from agents.games import heuristic_class

        return heuristic_class(self.name)()

    def actor(self, cfg, seed: int, net=None):
        """A rollout actor (``collect() -> Batch``, ``decisions``, ``rounds_played``, ``net``)."""
        raise NotImplementedError

    def teacher_samples(self, cfg, samples: int, seed: int):
        """``samples`` warm-start decisions of ``cfg.teacher`` (:func:`train.selfplay.teacher_samples`)."""
        raise NotImplementedError


class SeersCatalogAdapter(GameAdapter):
    """Seers Catalog: :mod:`seers_env.features`, :func:`train.scoring_policy.hidden_hands`, the
    learner's original actor and warm start."""

    name = "seers_catalog"
    title = "Seers Catalog"
    reward_scale = 10.0
    final_rounds = 4

    def __init__(self):
        from seers_env.features import PLAY_DIM, STATE_DIM

        from .scoring_policy import FEATURE_STRING, HIDDEN_DIM

        self.state_dim, self.play_dim, self.privileged_dim = STATE_DIM, PLAY_DIM, HIDDEN_DIM
        self.feature_version = FEATURE_STRING

    def game_config(self, n_players, artifact_deck):
        from seers_env.game import GameConfig

        return GameConfig(n_players=n_players, artifact_deck=tuple(artifact_deck))

    def table_deck(self, artifact_deck):
        return tuple(artifact_deck)

    def model_config(self, n_players, artifact_deck):
        from .scoring_policy import model_config

        return model_config(n_players, artifact_deck)

    def encode_state(self, view):
        from seers_env.features import encode_state

        return encode_state(view)

    def play_rows(self, view, legal, heuristic_prior):
        from .scoring_policy import play_rows

        return play_rows(view, legal, heuristic_prior)

    def privileged(self, game, seat):
        from .scoring_policy import hidden_hands

        return hidden_hands(game, seat)

    def seat_view(self, game, seat):
        from seers_env.view import SeatView

        return SeatView(game, seat)

    def actor(self, cfg, seed, net=None):
        from .selfplay import Actor

        return Actor(cfg, seed, net)

    def teacher_samples(self, cfg, samples, seed):
        from .selfplay import seers_teacher_samples

        return seers_teacher_samples(cfg, samples, seed)


class ScoutAdapter(GameAdapter):
    """SCOUT: :mod:`seers_env.scout.features`, the privileged critic's view of the other hands
    (:func:`train.scout_actor.privileged_hands`), rollouts on the compiled SCOUT kernel
    (:class:`train.scout_actor.ScoutActor`)."""

    name = "scout"
    title = "SCOUT"
    reward_scale = 10.0
    final_rounds = None  # one round per player (2 players: 2), the game's default

    def __init__(self):
        from seers_env.scout.features import FEATURE_VERSION, PLAY_DIM, STATE_DIM

        from .scout_actor import PRIVILEGED_DIM

        self.state_dim, self.play_dim, self.privileged_dim = STATE_DIM, PLAY_DIM, PRIVILEGED_DIM
        self.feature_version = f"scout-play-features-v{FEATURE_VERSION}"

    def game_config(self, n_players, artifact_deck):
        from seers_env.scout.game import ScoutConfig

        if tuple(artifact_deck):
            raise ValueError(f"artifact_deck={tuple(artifact_deck)!r}: SCOUT has no artifacts (use ())")
        return ScoutConfig(n_players=n_players)

    def check_config(self, cfg):
        """The baseline seats' agent must play on the kernel (heuristic, greedy or random)."""
        if cfg.baseline_seats > 0:
            from agents.specs import make_agent

            from .scout_actor import check_kernel_agent

            check_kernel_agent(make_agent(cfg.baseline, game="scout"), "baseline", cfg.baseline)

    def encode_state(self, view):
        from seers_env.scout.features import encode_state

        return encode_state(view)

    def play_rows(self, view, legal, heuristic_prior):
        from .scout_actor import play_rows

        return play_rows(view, legal, heuristic_prior)

    def privileged(self, game, seat):
        from .scout_actor import privileged_hands

        return privileged_hands([game.hand_values(s) for s in range(game.n_players)], seat)

    def seat_view(self, game, seat):
        from seers_env.scout.view import ScoutSeatView

        return ScoutSeatView(game, seat)

    def actor(self, cfg, seed, net=None):
        from .scout_actor import ScoutActor

        return ScoutActor(cfg, seed, net)

    def teacher_samples(self, cfg, samples, seed):
        from .scout_actor import scout_teacher_samples

        return scout_teacher_samples(cfg, samples, seed)


#: Cards of the draw pile's top that :meth:`SealsAdapter.privileged` shows the critic.
SEALS_PILE_CARDS = 8


class SealsAdapter(GameAdapter):
    """Seals: :mod:`seers_env.seals.features`, rollouts on the Python engine
    (:class:`train.engine_actor.EngineActor`).

    Privileged critic (training only): hands and the row are public in Seals (rules section 3 [ruling]);
    the only hidden information is the pile's order, which decides who completes a set first, so the
    critic sees the next :data:`SEALS_PILE_CARDS` cards of the pile, each as a one-hot colour (5) and
    symbol (11), top card first (zeros past the pile's end): ``8 * 16 = 128`` values.

    Reward scale: 2 Marks per unit (a round's winner typically lays down 1 to 4 Marks, so a round's reward
    is mostly within [-2, 2]).
    """

    name = "seals"
    title = "Seals"
    reward_scale = 2.0
    final_rounds = None  # the game's round counter (5 rounds, tie-breaks after)

    def __init__(self):
        from seers_env.seals.features import FEATURE_VERSION, PLAY_DIM, STATE_DIM

        self.state_dim, self.play_dim = STATE_DIM, PLAY_DIM
        self.privileged_dim = SEALS_PILE_CARDS * 16
        self.feature_version = f"seals-play-features-v{FEATURE_VERSION}"
        self._heuristic = None

    def game_config(self, n_players, artifact_deck):
        from seers_env.seals.game import SealsConfig

        if tuple(artifact_deck):
            raise ValueError(f"artifact_deck={tuple(artifact_deck)!r}: Seals has no artifacts (use ())")
        return SealsConfig(n_players=n_players)

    def encode_state(self, view):
        from seers_env.seals.features import encode_state

        return encode_state(view)

    def play_rows(self, view, legal, heuristic_prior):
        """:func:`seers_env.seals.features.encode_plays` float32 ``(len(legal), PLAY_DIM)``, plus, when
        ``heuristic_prior``, a last column with :meth:`agents.seals.SealsHeuristicAgent.scores` (takes:
        its one-ply score; declarations: their Marks).

        Raises:
            ValueError: ``heuristic_prior`` and ``legal`` are not the seat's legal plays.
        """
        from seers_env.seals.features import encode_plays

        rows = encode_plays(view, legal)
        if not heuristic_prior:
            return rows
        if self._heuristic is None:
            self._heuristic = self.heuristic()
        scored = self._heuristic.scores(view)
        if [p for _, p in scored] != list(legal):
            raise ValueError(f"{len(legal)} plays given, not the seat's {len(scored)} legal plays: the "
                             f"heuristic prior scores the seat's legal plays")
        out = np.empty((len(rows), rows.shape[1] + 1), np.float32)
        out[:, :-1] = rows
        out[:, -1] = [s for s, _ in scored]
        return out

    def privileged(self, game, seat):
        from seers_env.seals.cards import N_SYMBOLS

        out = np.zeros(self.privileged_dim, np.float32)
        for i, c in enumerate(game.pile[:SEALS_PILE_CARDS]):
            out[16 * i + c // N_SYMBOLS] = 1.0
            out[16 * i + 5 + c % N_SYMBOLS] = 1.0
        return out

    def seat_view(self, game, seat):
        from seers_env.seals.view import SealsSeatView

        return SealsSeatView(game, seat)

    def actor(self, cfg, seed, net=None):
        from .engine_actor import EngineActor

        return EngineActor(cfg, seed, net)

    def teacher_samples(self, cfg, samples, seed):
        from .engine_actor import engine_teacher_samples

        return engine_teacher_samples(cfg, samples, seed)


class HaggisAdapter(GameAdapter):
    """Haggis: :mod:`seers_env.haggis.features`, rollouts on the Python engine
    (:class:`train.engine_actor.EngineActor`). The learner scores whole plays (the engine's
    :meth:`~seers_env.haggis.game.HaggisGame.legal_plays`: the three bets, section 7 [ruling], or the pass
    and every (cards, shape) combination), not the AEC environment's staged actions.

    Table: one round per game (``HaggisConfig(n_rounds=1)``) unless ``n_rounds`` is given: each round is
    scored on its own (the reward is the round's score difference), and a game to 350 points would only
    add rounds of the same kind; the final tournament of ``seers train`` plays ``--rounds 1`` too.

    Privileged critic (training only): the hidden cards, per other relative seat (1, 2; slot 2 zero with
    2 players) its number cards by id (45) and their count per rank / 5 (9), then the Haggis by id (45):
    ``2 * 54 + 45 = 153`` values.

    Reward scale: 20 points per unit (a round hands out 36 or 50 card points plus going-out points of
    5 per card and bets of 15 or 30, so a round's score difference is mostly within [-3, 3] units).
    """

    name = "haggis"
    title = "Haggis"
    reward_scale = 20.0
    final_rounds = 1

    def __init__(self, n_rounds: int = 1):
        from seers_env.haggis.features import FEATURE_VERSION, PLAY_DIM, STATE_DIM

        self.state_dim, self.play_dim = STATE_DIM, PLAY_DIM
        self.privileged_dim = 2 * 54 + 45
        self.feature_version = f"haggis-play-features-v{FEATURE_VERSION}"
        self.n_rounds = n_rounds
        self._heuristic = None

    def game_config(self, n_players, artifact_deck):
        from seers_env.haggis.game import HaggisConfig

        if tuple(artifact_deck):
            raise ValueError(f"artifact_deck={tuple(artifact_deck)!r}: Haggis has no artifacts (use ())")
        return HaggisConfig(n_players=n_players, n_rounds=self.n_rounds)

    def encode_state(self, view):
        from seers_env.haggis.features import encode_state

        return encode_state(view)

    def play_rows(self, view, legal, heuristic_prior):
        """:func:`seers_env.haggis.features.encode_plays` float32 ``(len(legal), PLAY_DIM)``, plus, when
        ``heuristic_prior``, a last column with :meth:`agents.haggis.HaggisHeuristicAgent.scores` (bets: 1
        for its bet, else 0; combinations: its score, going out +100).

        Raises:
            ValueError: ``heuristic_prior`` and ``legal`` are not the seat's legal plays.
        """
        from seers_env.haggis.features import encode_plays

        rows = encode_plays(view, legal)
        if not heuristic_prior:
            return rows
        if self._heuristic is None:
            self._heuristic = self.heuristic()
        scored = self._heuristic.scores(view)
        if len(scored) != len(legal) or any(p != q for (_, p), q in zip(scored, legal)):
            raise ValueError(f"{len(legal)} plays given, not the seat's {len(scored)} legal plays: the "
                             f"heuristic prior scores the seat's legal plays")
        out = np.empty((len(rows), rows.shape[1] + 1), np.float32)
        out[:, :-1] = rows
        out[:, -1] = [s for s, _ in scored]
        return out

    def privileged(self, game, seat):
        from seers_env.haggis.features import number_matrix

        out = np.zeros(self.privileged_dim, np.float32)
        n = game.n_players
        for r in range(1, n):
            m = number_matrix(game.hand((seat + r) % n))
            o = 54 * (r - 1)
            out[o:o + 45] = m.reshape(-1)
            out[o + 45:o + 54] = m.sum(0) / 5.0
        out[108:] = number_matrix(game.haggis).reshape(-1)
        return out

    def seat_view(self, game, seat):
        from seers_env.haggis.view import HaggisSeatView

        return HaggisSeatView(game, seat)

    def actor(self, cfg, seed, net=None):
        from .engine_actor import EngineActor

        return EngineActor(cfg, seed, net)

    def teacher_samples(self, cfg, samples, seed):
        from .engine_actor import engine_teacher_samples

        return engine_teacher_samples(cfg, samples, seed)


_ADAPTER_CLASSES = {"seers_catalog": SeersCatalogAdapter, "scout": ScoutAdapter, "seals": SealsAdapter,
                    "haggis": HaggisAdapter}
_ADAPTERS: dict[str, GameAdapter] = {}


def game_adapter(game: str) -> GameAdapter:
    """The :class:`GameAdapter` of ``game`` (one shared instance per game).

    Raises:
        TypeError: ``game`` is not a string. ValueError: not a registered game, or one the learner does
            not serve (the message lists :data:`LEARNER_GAMES`).
    """
    from seers_env.games import game_spec

    game_spec(game)
    if game not in _ADAPTER_CLASSES:
        raise ValueError(f"the play-scoring learner does not serve {game!r}; it serves {', '.join(LEARNER_GAMES)}")
    adapter = _ADAPTERS.get(game)
    if adapter is None:
        adapter = _ADAPTERS[game] = _ADAPTER_CLASSES[game]()
    return adapter
