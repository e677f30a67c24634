"""The play-scoring policy: one shared network scores every legal play from its features.

Architecture (after DouZero's Q(s, a) over move features, Zha et al. ICML 2021, and PerfectDou's
logits over a legal-action feature matrix, Yang et al. NeurIPS 2022):

* a state encoder ``STATE_DIM -> hidden -> embed`` over :func:`seers_env.features.encode_state`;
* a play scorer ``PLAY_DIM + embed -> hidden -> hidden/2 -> 1`` applied to every legal play's row of
  :func:`seers_env.features.encode_plays` joined with the state embedding: one logit per legal play,
  so the policy is exact (every legal play can be chosen, nothing else can);
* a value head on the state embedding, and optionally a *privileged* critic that also sees every hand
  (:func:`hidden_hands`; PerfectDou's perfect-training-imperfect-execution), used in training only.

A model file (``torch.save`` of a plain dict, loadable with ``weights_only=True``) carries its
configuration (:class:`~train.model_config.ModelConfig`: players, artifact deck, feature version);
:func:`load_policy` checks it against the intended use.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field

import numpy as np
import torch
from torch import nn

from agents.base import Agent
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.features import FEATURE_VERSION, PLAY_DIM, STATE_DIM, encode_plays, encode_state
from seers_env.game import Game
from seers_env.observation import CARD_BLOCK, MAX_SEATS
from seers_env.plays import Play
from seers_env.view import SeatView

#: ``format`` field of a model file.
MODEL_FORMAT = "seers-play-scoring"
#: Length of :func:`hidden_hands` (every seat's hand, relative seats, 68 counts each).
HIDDEN_DIM = MAX_SEATS * CARD_BLOCK


def hidden_hands(game: Game, seat: int) -> np.ndarray:
    """Every hand seen from ``seat`` (relative seats, 5 x 68 card counts): float32 ``(HIDDEN_DIM,)``.

    Full information, for the privileged critic during training only.
    """
    out = np.zeros(HIDDEN_DIM, dtype=np.float32)
    n = game.n_players
    for r in range(n):
        base = r * CARD_BLOCK
        for c in game.hands[(seat + r) % n]:
            out[base + c] += 1.0
    return out


def segment_log_softmax(logits: torch.Tensor, segment: torch.Tensor, n_segments: int) -> torch.Tensor:
    """Log-softmax of ``logits`` (float ``(R,)``) within each segment (``segment``: long ``(R,)``,
    values ``0..n_segments-1``): the log-probability of each play among its decision's plays."""
    neg_inf = torch.full((n_segments,), -torch.inf, dtype=logits.dtype)
    top = neg_inf.scatter_reduce(0, segment, logits.detach(), "amax", include_self=True)
    shifted = logits - top[segment]
    norm = torch.zeros(n_segments, dtype=logits.dtype).index_add(0, segment, shifted.exp())
    return shifted - norm.log()[segment]


@dataclass
class NetConfig:
    """Sizes of :class:`PlayScoringNet` (all ``int``; ``privileged_critic`` a ``bool``)."""

    state_dim: int = STATE_DIM
    play_dim: int = PLAY_DIM
    hidden: int = 256
    embed: int = 128
    privileged_critic: bool = True


class PlayScoringNet(nn.Module):
    """Scores legal plays; module docstring. ``forward`` returns ``(logits (R,), values (B,))``."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        h, e = cfg.hidden, cfg.embed
        self.state_net = nn.Sequential(nn.Linear(cfg.state_dim, h), nn.ReLU(), nn.Linear(h, e), nn.ReLU())
        self.play_net = nn.Sequential(nn.Linear(cfg.play_dim + e, h), nn.ReLU(), nn.Linear(h, h // 2),
                                      nn.ReLU(), nn.Linear(h // 2, 1))
        critic_in = e + (HIDDEN_DIM if cfg.privileged_critic else 0)
        self.value_net = nn.Sequential(nn.Linear(critic_in, h // 2), nn.ReLU(), nn.Linear(h // 2, 1))

    def forward(self, states: torch.Tensor, plays: torch.Tensor, segment: torch.Tensor,
                hidden: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Args: ``states`` float32 ``(B, state_dim)``, ``plays`` float32 ``(R, play_dim)`` (the legal
        plays of all B decisions, stacked), ``segment`` long ``(R,)`` (the decision of each row),
        ``hidden`` float32 ``(B, HIDDEN_DIM)`` for the privileged critic (zeros when ``None``).

        Returns: ``logits`` float32 ``(R,)`` and ``values`` float32 ``(B,)`` (expected round-score
        advantage over the mean opponent, in points / 10)."""
        emb = self.state_net(states)
        logits = self.play_net(torch.cat([plays, emb[segment]], dim=1)).squeeze(1)
        if self.cfg.privileged_critic:
            if hidden is None:
                hidden = torch.zeros(len(states), HIDDEN_DIM)
            emb = torch.cat([emb, hidden], dim=1)
        return logits, self.value_net(emb).squeeze(1)

    def score(self, states: torch.Tensor, plays: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
        """Logits only (no critic): float32 ``(R,)``."""
        emb = self.state_net(states)
        return self.play_net(torch.cat([plays, emb[segment]], dim=1)).squeeze(1)


@dataclass
class ModelInfo:
    """What a model was trained for; stored in the model file and checked on load.

    Attributes:
        n_players: player counts the model was trained on (sorted list of ints in 2..5).
        artifact_deck: the artifact deck (kind keys; ``[]`` for the variant without artifacts).
        feature_version: :data:`seers_env.features.FEATURE_VERSION` of its inputs.
        algorithm: how it was trained, e.g. ``"selfplay-ppo"``.
        trained_with: the command line or note that made it.
    """

    n_players: list[int] = field(default_factory=lambda: [4])
    artifact_deck: list[str] = field(default_factory=lambda: list(DEFAULT_ARTIFACT_DECK))
    feature_version: int = FEATURE_VERSION
    algorithm: str = "selfplay-ppo"
    trained_with: str = ""

    def check(self, n_players: int | None = None, artifact_deck: tuple[str, ...] | None = None,
              path: str = "model") -> None:
        """Raise ``ValueError`` naming both sides when the model does not fit the intended use."""
        if self.feature_version != FEATURE_VERSION:
            raise ValueError(f"{path} was trained on feature version {self.feature_version}; this code "
                             f"encodes version {FEATURE_VERSION}: retrain it with seers train")
        if n_players is not None and n_players not in self.n_players:
            raise ValueError(f"{path} was trained for {self.n_players} players, not for {n_players}: "
                             f"train one with seers train --players {n_players}")
        if artifact_deck is not None and list(artifact_deck) != list(self.artifact_deck):
            deck = "no artifacts" if not self.artifact_deck else f"artifact deck {self.artifact_deck}"
            use = "no artifacts" if not artifact_deck else f"artifact deck {list(artifact_deck)}"
            raise ValueError(f"{path} was trained with {deck}, not with {use}")


def save_policy(net: PlayScoringNet, info: ModelInfo, path: str | os.PathLike) -> None:
    """Write ``net`` and ``info`` to ``path`` (a ``.pt`` file; parent folders are created)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.save({"format": MODEL_FORMAT, "info": asdict(info), "net": asdict(net.cfg),
                "state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()}}, path)


def load_policy(path: str | os.PathLike) -> tuple[PlayScoringNet, ModelInfo]:
    """Read a model file written by :func:`save_policy`.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the file is not a play-scoring model (the message says what it is).
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no play-scoring model at {path!r}; train one with seers train")
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # zip of another library, a truncated file, ...
        raise ValueError(f"{path!r} is not a play-scoring model file ({type(err).__name__}: {err}); "
                         f"MaskablePPO models are used as ppo:<model.zip>") from None
    if not isinstance(blob, dict) or blob.get("format") != MODEL_FORMAT:
        raise ValueError(f"{path!r} is not a play-scoring model file (format "
                         f"{blob.get('format') if isinstance(blob, dict) else type(blob).__name__!r}, "
                         f"expected {MODEL_FORMAT!r})")
    net = PlayScoringNet(NetConfig(**blob["net"]))
    net.load_state_dict(blob["state_dict"])
    net.eval()
    return net, ModelInfo(**blob["info"])


def shipped_model_path() -> str:
    """Path of the play-scoring model shipped with the package (``train/models/learned.pt``)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "learned.pt")


_CACHE: dict[str, tuple[PlayScoringNet, ModelInfo]] = {}


def cached_policy(path: str) -> tuple[PlayScoringNet, ModelInfo]:
    """:func:`load_policy`, memoised per process by absolute path and modification time."""
    key = f"{os.path.abspath(path)}@{os.path.getmtime(path) if os.path.exists(path) else 0}"
    if key not in _CACHE:
        _CACHE[key] = load_policy(path)
    return _CACHE[key]


class LearnedAgent(Agent):
    """Plays the highest-scoring legal play of a :class:`PlayScoringNet` (``greedy=True``) or samples
    from its softmax.

    Args:
        model: a model file path, or ``(net, info)``.
        greedy: argmax (default) or sample.
        seed: seed of the sampling generator.
        allow_mismatch: play under another player count or deck than trained for, with one warning.

    Raises:
        FileNotFoundError, ValueError: see :func:`load_policy`.
    """

    name = "learned"

    def __init__(self, model: str | tuple[PlayScoringNet, ModelInfo], greedy: bool = True,
                 seed: int | None = None, allow_mismatch: bool = False):
        super().__init__(seed)
        if isinstance(model, tuple):
            self.net, self.info = model
            self.path = "model"
        else:
            self.path = os.fspath(model)
            self.net, self.info = cached_policy(self.path)
        self.greedy = greedy
        self.allow_mismatch = allow_mismatch
        self._checked: tuple | None = None

    def __deepcopy__(self, memo):  # tournaments copy agents per game: share the (read-only) network
        other = LearnedAgent((self.net, self.info), self.greedy, None, self.allow_mismatch)
        other.path, other.name = self.path, self.name
        return other

    def check(self, n_players: int, artifact_deck: tuple[str, ...]) -> None:
        """Raise (or warn once with ``allow_mismatch``) when the game is not what the model was trained for."""
        key = (n_players, tuple(artifact_deck))
        if self._checked == key:
            return
        try:
            self.info.check(n_players, artifact_deck, path=self.path)
        except ValueError as err:
            if not self.allow_mismatch:
                raise
            import warnings

            warnings.warn(f"{err} (playing anyway: allow_mismatch)", stacklevel=3)
        self._checked = key

    def act(self, view: SeatView) -> Play:
        legal = view.legal_plays()
        if len(legal) == 1:
            return legal[0]
        self.check(view.n_players, view.config.artifact_deck)
        with torch.no_grad():
            state = torch.from_numpy(encode_state(view)).unsqueeze(0)
            rows = torch.from_numpy(encode_plays(view, legal))
            logits = self.net.score(state, rows, torch.zeros(len(legal), dtype=torch.long)).numpy()
        if self.greedy:
            return legal[int(np.argmax(logits))]
        p = np.exp(logits - logits.max())
        return legal[int(self.rng.choice(len(legal), p=p / p.sum()))]
