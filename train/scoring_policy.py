"""The play-scoring policy: one shared network scores every legal play from its features.

Architecture (after DouZero's Q(s, a) over move features, Zha et al. ICML 2021, and PerfectDou's
logits over a legal-action feature matrix, Yang et al. NeurIPS 2022):

* a state encoder ``STATE_DIM -> hidden -> embed`` over :func:`seers_env.features.encode_state`;
* a play scorer ``PLAY_DIM + embed -> hidden -> hidden/2 -> 1`` applied to every legal play's row of
  :func:`seers_env.features.encode_plays` joined with the state embedding: one logit per legal play,
  so the policy is exact (every legal play can be chosen, nothing else can);
* a value head on the state embedding, and optionally a *privileged* critic that also sees every hand
  (:func:`hidden_hands`; PerfectDou's perfect-training-imperfect-execution), used in training only.

The network is the same for every game; its input sizes come from the game's features
(:mod:`train.game_adapters`: Seers Catalog's :mod:`seers_env.features`, SCOUT's
:mod:`seers_env.scout.features`).

A model file (``torch.save`` of a plain dict, loadable with ``weights_only=True``) carries its
configuration (:class:`~train.model_config.ModelConfig`: game, players, artifact deck, feature version);
:class:`LearnedAgent` checks it against the game and table it plays at.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from seers_env.features import (
    FEATURE_VERSION, PLAY_DIM, STATE_DIM, encode_plays, encode_plays_with_prior, encode_state,
)
from seers_env.game import Game
from seers_env.observation import CARD_BLOCK, MAX_SEATS
from seers_env.plays import Play
from seers_env.sparse_rows import sparse_affine_relu
from seers_env.view import SeatView

from .model_config import ModelConfig, ModelConfigError, check_model_config

#: ``format`` field of a model file.
MODEL_FORMAT = "seers-play-scoring"
#: Length of :func:`hidden_hands` (every seat's hand, relative seats, 68 counts each).
HIDDEN_DIM = MAX_SEATS * CARD_BLOCK
_HEURISTIC = HeuristicAgent()  # deterministic and stateless: one instance scores for every seat


def hidden_hands(game: Game, seat: int) -> np.ndarray:
    """Every hand seen from ``seat`` (relative seats, 5 x 68 card counts): float32 ``(HIDDEN_DIM,)``.

    Full information, for the privileged critic during training only.
    """
    n = game.n_players
    hands = game.hands
    idx = [r * CARD_BLOCK + c for r in range(n) for c in hands[(seat + r) % n]]
    return np.bincount(np.array(idx, dtype=np.intp), minlength=HIDDEN_DIM).astype(np.float32)


def sample_index(rng: np.random.Generator, p: np.ndarray) -> int:
    """``int(rng.choice(len(p), p=p))`` for a probability vector ``p`` (float64 ``(n,)``, non-negative,
    summing to 1):
    the same index from the same single draw of ``rng``, without ``choice``'s per-call checks (numpy's
    ``Generator.choice`` draws ``rng.random()`` and searches the normalised cumulative sum of ``p``).

    Raises:
        ValueError: ``p`` holds a NaN or an infinity (as ``choice`` does).
    """
    cdf = p.cumsum()
    total = cdf[-1]
    if not np.isfinite(total):  # a NaN or infinity anywhere reaches the total
        raise ValueError(f"probabilities are not finite: {p!r}")
    cdf /= total
    return int(cdf.searchsorted(rng.random(), side="right"))


def play_rows(view: SeatView, legal: list[Play], heuristic_prior: bool) -> np.ndarray:
    """The rows a :class:`PlayScoringNet` scores: :func:`seers_env.features.encode_plays` float32
    ``(len(legal), PLAY_DIM)``, plus a last column with the heuristic agent's score of each play
    (:meth:`agents.heuristic.HeuristicAgent.score_array`, in points) when ``heuristic_prior``; ``legal``
    must then be the seat's legal plays (``ValueError`` otherwise)."""
    if not heuristic_prior:
        return encode_plays(view, legal)
    if legal is view.legal_plays():  # the game's own list: rows and prior from one compiled call
        return encode_plays_with_prior(view)
    rows = encode_plays(view, legal)
    prior = _HEURISTIC.score_array(view)
    if len(prior) != len(legal):
        raise ValueError(f"{len(legal)} plays given, the seat has {len(prior)} legal plays: the heuristic "
                         f"prior scores the seat's legal plays")
    out = np.empty((len(legal), rows.shape[1] + 1), np.float32)
    out[:, :-1] = rows
    out[:, -1] = prior  # float64 -> float32, as np.fromiter did
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
    """Sizes and options of :class:`PlayScoringNet`.

    ``heuristic_prior``: each play row carries one more column, the heuristic agent's score of the play
    (:func:`play_rows`), and the logit is ``play_net(...) + prior_scale * score`` with a learnable
    ``prior_scale`` (initial value ``prior_scale``) and ``play_net``'s last layer initialised to zero, so
    the untrained policy is a softmax over the heuristic's scores and learning adds a residual (residual
    policy learning: Silver et al. 2018, arXiv:1812.06298; Johannink et al., ICRA 2019).

    ``state_dim``, ``play_dim``: the game's feature sizes (defaults: Seers Catalog's);
    ``privileged_dim``: length of the privileged critic's extra input (default: Seers Catalog's
    :data:`HIDDEN_DIM`; files written before it existed get the default).
    """

    state_dim: int = STATE_DIM
    play_dim: int = PLAY_DIM
    hidden: int = 256
    embed: int = 128
    privileged_critic: bool = True
    heuristic_prior: bool = False
    prior_scale: float = 4.0
    privileged_dim: int = HIDDEN_DIM


class PlayScoringNet(nn.Module):
    """Scores legal plays; module docstring. ``forward`` returns ``(logits (R,), values (B,))``."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        h, e = cfg.hidden, cfg.embed
        self.state_net = nn.Sequential(nn.Linear(cfg.state_dim, h), nn.ReLU(), nn.Linear(h, e), nn.ReLU())
        # the play scorer's first layer on [play row, state embedding], split in two so that the state
        # part is computed once per decision, not once per legal play
        self.play_in = nn.Linear(cfg.play_dim, h)
        self.state_in = nn.Linear(e, h, bias=False)
        self.play_net = nn.Sequential(nn.ReLU(), nn.Linear(h, h // 2), nn.ReLU(), nn.Linear(h // 2, 1))
        if cfg.heuristic_prior:
            self.prior_scale = nn.Parameter(torch.tensor(float(cfg.prior_scale)))
            nn.init.zeros_(self.play_net[-1].weight)
            nn.init.zeros_(self.play_net[-1].bias)
        critic_in = e + (cfg.privileged_dim if cfg.privileged_critic else 0)
        self.value_net = nn.Sequential(nn.Linear(critic_in, h // 2), nn.ReLU(), nn.Linear(h // 2, 1))

    def forward(self, states: torch.Tensor, plays: torch.Tensor, segment: torch.Tensor,
                hidden: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Args: ``states`` float32 ``(B, state_dim)``, ``plays`` float32 ``(R, play_dim)`` (the legal
        plays of all B decisions, stacked; ``(R, play_dim + 1)`` with the heuristic prior, see
        :func:`play_rows`), ``segment`` long ``(R,)`` (the decision of each row),
        ``hidden`` float32 ``(B, privileged_dim)`` for the privileged critic (zeros when ``None``).

        Returns: ``logits`` float32 ``(R,)`` and ``values`` float32 ``(B,)`` (expected round-score
        advantage over the mean opponent, in points / 10)."""
        emb = self.state_net(states)
        logits = self._logits(emb, plays, segment)
        if self.cfg.privileged_critic:
            if hidden is None:
                hidden = torch.zeros(len(states), self.cfg.privileged_dim)
            emb = torch.cat([emb, hidden], dim=1)
        return logits, self.value_net(emb).squeeze(1)

    def score(self, states: torch.Tensor, plays: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
        """Logits only (no critic): float32 ``(R,)``."""
        return self._logits(self.state_net(states), plays, segment)

    def _logits(self, emb: torch.Tensor, plays: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
        if self.cfg.heuristic_prior:
            prior, plays = plays[:, -1], plays[:, :-1]
        # index_select, not [segment]: its backward is an index_add, several times cheaper than indexing's
        out = self.play_net(self.play_in(plays) + self.state_in(emb).index_select(0, segment)).squeeze(1)
        return out + self.prior_scale * prior if self.cfg.heuristic_prior else out


_BLAS = None  # (get, set) thread-count functions of each BLAS library numpy loaded, found at first use
_BLAS_LOCK = threading.Lock()
_BLAS_USERS = 0  # threads inside _blas_one_thread now (with nesting)
_BLAS_DEPTH = threading.local()  # this thread's nesting, for a child forked from inside
_BLAS_SAVED: list[tuple[object, int]] = []  # each library's setter and count when the first user entered


def _blas_thread_functions() -> tuple:
    """``(get, set)`` of each BLAS library's thread count, from threadpoolctl's controllers
    (``ThreadpoolController().select(user_api="blas")``). For OpenBLAS with its own (pthreads) pool:
    the library's ``openblas_get_num_threads`` and ``openblas_set_num_threads`` themselves, which take
    well under a microsecond, where the controller's methods cost tens of microseconds with cold caches
    and act only in the first thread that called them (threadpoolctl's rule for a process-wide pool;
    :func:`_blas_one_thread` coordinates threads itself). Other libraries: the controller's methods."""
    from threadpoolctl import ThreadpoolController

    out = []
    for lib in ThreadpoolController().select(user_api="blas").lib_controllers:
        get = put = None
        if (getattr(lib, "internal_api", "") == "openblas" and getattr(lib, "threading_layer", "") == "pthreads"
                and hasattr(lib, "_get_symbol")):
            get, put = lib._get_symbol("openblas_get_num_threads"), lib._get_symbol("openblas_set_num_threads")
        if get is None or put is None:
            get, put = lib.get_num_threads, lib.set_num_threads
        out.append((get, put))
    return tuple(out)


@contextlib.contextmanager
def _blas_one_thread():
    """Context manager: numpy's BLAS on one thread while any thread is inside it; the counts from before
    are restored when the last one leaves (:func:`_blas_thread_functions`; a few microseconds). The
    first thread in sets the count, the last one out restores it, whichever threads they are. (A limit
    per call would restore a count set by another thread's call: concurrent agents, as in the web
    server's thread pool, left BLAS on one thread for good.)"""
    global _BLAS, _BLAS_USERS
    with _BLAS_LOCK:
        if _BLAS is None:
            _BLAS = _blas_thread_functions()
        if _BLAS_USERS == 0:
            _BLAS_SAVED[:] = [(put, get()) for get, put in _BLAS]
            try:
                for put, n in _BLAS_SAVED:
                    if n is not None and n != 1:
                        put(1)
            except BaseException:
                _restore_blas()  # nothing left half set
                raise
        _BLAS_USERS += 1
        _BLAS_DEPTH.n = getattr(_BLAS_DEPTH, "n", 0) + 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_DEPTH.n -= 1
            _BLAS_USERS -= 1
            if _BLAS_USERS <= 0:
                _BLAS_USERS = 0
                _restore_blas()


def _restore_blas() -> None:
    for put, n in _BLAS_SAVED:
        if n is not None and n != 1:
            put(n)
    _BLAS_SAVED.clear()


def _blas_after_fork() -> None:
    """In a forked child: a fresh lock (another thread may have held it at the fork); only the forking
    thread exists there, so the users are its own nesting (it restores the counts when it leaves), or,
    when it was outside, the counts go back now."""
    global _BLAS_LOCK, _BLAS_USERS
    _BLAS_LOCK = threading.Lock()
    _BLAS_USERS = getattr(_BLAS_DEPTH, "n", 0)
    if _BLAS_USERS == 0:
        _restore_blas()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_blas_after_fork)


class NumpyPlayScorer:
    """:meth:`PlayScoringNet.score` for one decision in numpy, for play (not training): float32 logits
    ``(R,)`` from one state ``(state_dim,)`` and its ``R`` play rows ``(R, play_dim[+1])``.

    A copy of the network's weights, converted to float32 on the CPU and sharing no memory with them
    (later changes to the network are not seen: :meth:`matches` says whether it is still current). The
    first layers of the state encoder and of the play scorer add the weight rows of the nonzero features
    only (:func:`seers_env.sparse_rows.sparse_affine_relu`, compiled: about 11% of
    :func:`~seers_env.features.encode_state`'s 1,302 at 4 players, about 13% of a play row's columns),
    with the bias and ReLU in the same pass; the other products are numpy's (BLAS), whose per-call cost
    is a few microseconds against torch's tens. The logits equal torch's up to float32 rounding
    (summation order).
    """

    #: Play rows scored together (their layer outputs, 256 and 128 KB at the default sizes, stay in cache).
    BLOCK = 256

    def __init__(self, net: PlayScoringNet):
        def arr(t: torch.Tensor) -> np.ndarray:  # a copy (np.array copies), whatever the device and dtype
            return np.array(t.detach().to("cpu", torch.float32).numpy(), dtype=np.float32, order="C")

        sn0, sn2 = net.state_net[0], net.state_net[2]
        pn1, pn3 = net.play_net[1], net.play_net[3]
        self.w_state = arr(sn0.weight.T)  # (state_dim, hidden): one row per state feature
        self.b_state = arr(sn0.bias)
        self.w_embed, self.b_embed = arr(sn2.weight), arr(sn2.bias)
        self.w_state_in = arr(net.state_in.weight)
        self.w_play_in, self.b_play_in = arr(net.play_in.weight.T), arr(net.play_in.bias)
        self.w_hidden, self.b_hidden = arr(pn1.weight.T), arr(pn1.bias)
        self.w_out, self.b_out = arr(pn3.weight[0]), float(pn3.bias.detach()[0])
        self.heuristic_prior = bool(net.cfg.heuristic_prior)
        self.prior_scale = float(net.prior_scale.detach()) if self.heuristic_prior else 0.0
        self._row_dim = self.w_play_in.shape[0] + self.heuristic_prior
        self.stale = False  # set by LearnedAgent.refresh: every agent holding this copy makes a new one
        self._source = weakref.ref(net)  # not the network itself: the scorer cache's value must not hold its key
        # each parameter, its storage then (held, so no later storage can reuse the address) and version
        # the module tree and each parameter slot's parameter, its storage then (held, so no later storage
        # can reuse the address) and version; read from the modules' own dicts, cheaper per decision than
        # walking net.parameters(). Submodules are held, the network itself (index 0) is not.
        modules = list(net.modules())
        index = {id(m): i for i, m in enumerate(modules)}
        self._submodules = tuple(modules[1:])
        self._tree = tuple((index[id(m)], name, child) for m in modules for name, child in m._modules.items())
        self._watched = tuple((index[id(m)], name, p, p.detach(), p._version)
                              for m in modules for name, p in m._parameters.items() if p is not None)

    def matches(self, net: PlayScoringNet) -> bool:
        """Whether this is a copy of ``net`` (the same object) and its weights are unchanged since: the
        same parameter objects, on the same storage (``load_state_dict(assign=True)``, a replaced
        module, ``p.data = ...``, ``vector_to_parameters`` or ``net.double()`` change them), and the
        same in-place modification counters (torch's ``Tensor._version``: an in-place change through the
        parameter, ``load_state_dict`` or a non-fused optimiser step bumps them).

        False once :attr:`stale` is set (:meth:`LearnedAgent.refresh`).

        Not seen (torch records no change): fused optimiser steps (``torch.optim.Adam(...,
        fused=True)``), in-place changes through ``p.data`` and writes through a numpy view.
        """
        if self.stale or net is not self._source():
            return False
        modules = (net,) + self._submodules
        for i, name, child in self._tree:
            if modules[i]._modules.get(name) is not child:
                return False
        for i, name, p, storage, version in self._watched:
            if (modules[i]._parameters.get(name) is not p or p._version != version
                    or p.data_ptr() != storage.data_ptr()):
                return False
        return True

    def score(self, state: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Logits float32 ``(R,)`` of one decision: ``state`` float32 ``(state_dim,)`` from
        :func:`~seers_env.features.encode_state`, ``rows`` float32 ``(R, play_dim[+1])`` from
        :func:`play_rows`. BLAS runs on one thread meanwhile (threadpoolctl; restored after): matrices
        this small cost several times more CPU when OpenBLAS shares them between threads.

        Raises:
            ValueError: ``state`` or ``rows`` has another shape (the message names the one expected).
        """
        state = np.asarray(state, dtype=np.float32)
        rows = np.asarray(rows, dtype=np.float32)
        if state.shape != (len(self.w_state),):
            raise ValueError(f"state has shape {state.shape}, expected ({len(self.w_state)},)")
        if rows.ndim != 2 or rows.shape[1] != self._row_dim:
            raise ValueError(f"rows has shape {rows.shape}, expected (R, {self._row_dim})"
                             + (" (the last column is the heuristic prior)" if self.heuristic_prior else ""))
        with _blas_one_thread():
            return self._score(state, rows)

    def _score(self, state: np.ndarray, rows: np.ndarray) -> np.ndarray:
        h = np.empty((1, len(self.b_state)), np.float32)
        sparse_affine_relu(state[None], len(state), self.w_state, self.b_state, h)  # nonzero features only
        emb = self.w_embed @ h[0]
        emb += self.b_embed
        np.maximum(emb, 0.0, out=emb)
        shift = self.w_state_in @ emb
        shift += self.b_play_in
        n_rows, n_play = len(rows), len(self.w_play_in)
        out = np.empty(n_rows, np.float32)
        # in blocks of rows, so that the layers' outputs stay in the processor's cache (a decision may have
        # thousands of legal plays) and the buffers are small, reused ones
        first = np.empty((min(n_rows, self.BLOCK), len(shift)), np.float32)
        second = np.empty((len(first), len(self.b_hidden)), np.float32)
        for start in range(0, n_rows, self.BLOCK):
            block = rows[start:start + self.BLOCK]
            n = len(block)
            z1, z2 = first[:n], second[:n]
            sparse_affine_relu(block, n_play, self.w_play_in, shift, z1)  # the prior column is not read
            np.matmul(z1, self.w_hidden, out=z2)
            z2 += self.b_hidden
            np.maximum(z2, 0.0, out=z2)
            np.matmul(z2, self.w_out, out=out[start:start + n])
        out += self.b_out
        if self.heuristic_prior:
            out += self.prior_scale * rows[:, -1]
        return out


_SCORERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # network -> its NumpyPlayScorer
_SCORERS_LOCK = threading.Lock()


def shared_scorer(net: PlayScoringNet) -> NumpyPlayScorer:
    """The :class:`NumpyPlayScorer` of ``net``, shared by every agent on it (tournaments make a new
    agent per game): the cached one while it :meth:`~NumpyPlayScorer.matches` ``net`` and ``net`` is not
    in training mode, else a new copy of the weights (cached in its place). The cache holds networks
    weakly."""
    scorer = _SCORERS.get(net)
    if scorer is None or net.training or not scorer.matches(net):
        scorer = NumpyPlayScorer(net)
        with _SCORERS_LOCK:
            _SCORERS[net] = scorer
    return scorer


#: ``ModelConfig.algorithm`` of play-scoring models.
ALGORITHM = "play_scoring"
#: ``ModelConfig.feature_version`` of models on :mod:`seers_env.features`.
FEATURE_STRING = f"play-features-v{FEATURE_VERSION}"


def model_config(n_players: int, artifact_deck) -> ModelConfig:
    """The :class:`~train.model_config.ModelConfig` of a play-scoring model for this table."""
    return ModelConfig(ALGORITHM, n_players=n_players, artifact_deck=tuple(artifact_deck),
                       feature_version=FEATURE_STRING, catalogue_version=None)


def save_policy(net: PlayScoringNet, config: ModelConfig, path: str | os.PathLike,
                trained_with: str = "") -> None:
    """Write ``net``, its :class:`~train.model_config.ModelConfig` and a note on how it was trained
    (``trained_with``: a command line) to ``path`` (a ``.pt`` file; parent folders are created)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.save({"format": MODEL_FORMAT, "model_config": config.to_dict(), "trained_with": trained_with,
                "net": asdict(net.cfg),
                "state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()}}, path)


def load_policy(path: str | os.PathLike) -> tuple[PlayScoringNet, ModelConfig]:
    """Read a model file written by :func:`save_policy`, with ``torch.load(weights_only=True)`` (tensors and
    plain containers only: nothing from the file is run).

    Raises:
        FileNotFoundError: no file at ``path``.
        train.model_files.UnsafeModelFileError: (a ``ValueError``) the file holds other objects, which
            ``weights_only`` refuses to unpickle.
        train.model_files.ModelFileError: (a ``ValueError``) the file is not a play-scoring model, or a
            damaged one (the message names it and says what it is).
    """
    from .model_files import (ModelFileError, UnsafeModelFileError, check_torch_archive, torch_load_problem,
                              weights_only_refusal)

    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no play-scoring model at {path!r}; train one with seers train")
    try:
        check_torch_archive(path)  # a zip of bounded size: torch's own reader trusts the sizes it declares
    except ModelFileError as err:
        raise ModelFileError(f"{path!r} is not a play-scoring model file ({err})") from None
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # zip of another library, a truncated file, a foreign object, ...
        refused = weights_only_refusal(err)
        if refused is not None:
            raise UnsafeModelFileError(f"{path!r} refers to {refused}, which torch.load(weights_only=True) "
                                       f"refused to load (it builds tensors and plain data only)") from None
        raise ModelFileError(f"{path!r} is not a play-scoring model file ({type(err).__name__}: "
                             f"{torch_load_problem(err)}); MaskablePPO models are used as ppo:<model.zip>") from None
    if not isinstance(blob, dict) or blob.get("format") != MODEL_FORMAT:
        raise ModelFileError(f"{path!r} is not a play-scoring model file (format "
                             f"{blob.get('format') if isinstance(blob, dict) else type(blob).__name__!r}, "
                             f"expected {MODEL_FORMAT!r})")
    try:
        cfg = NetConfig(**blob["net"])
        state = blob["state_dict"]
        config = ModelConfig.from_dict(blob["model_config"])
    except (TypeError, KeyError, RuntimeError, ValueError) as err:
        raise ModelFileError(f"{path!r} is a damaged play-scoring model file ({type(err).__name__}: {err})") from None
    net = net_from_state(cfg, state, path)
    return net, config


def net_from_state(cfg: NetConfig, state: dict, source: str) -> PlayScoringNet:
    """A :class:`PlayScoringNet` of sizes ``cfg`` with the weights ``state`` (``state_dict`` names), in eval
    mode, after checking, before any weight is allocated, that ``state`` is exactly the network's: the same
    names, float tensors of the same shapes, each holding its own data (not a view that repeats a few
    numbers, which ``torch.load`` builds from a tiny file). So a file's sizes cannot ask for more memory
    than the file holds.

    Args:
        cfg: the sizes a file declares (or that its weights' shapes give).
        state: name -> ``torch.Tensor``.
        source: the file, for the messages.

    Raises:
        train.model_files.ModelFileError: (a ``ValueError``) sizes that are not integers >= 1, missing or
            unexpected entries, wrong shapes or dtypes, or non-finite weights; the message names ``source``.
    """
    from .model_files import ModelFileError

    where = (f"{source!r} does not fit a PlayScoringNet of state {cfg.state_dim!r}, play {cfg.play_dim!r}, "
             f"hidden {cfg.hidden!r}, embed {cfg.embed!r}")
    sizes = {k: getattr(cfg, k) for k in ("state_dim", "play_dim", "hidden", "embed")}
    bad = [f"{k}={v!r}" for k, v in sizes.items() if type(v) is not int or v < 1]
    if bad or not isinstance(state, dict):
        raise ModelFileError(f"{where}: " + (f"the sizes {', '.join(bad)} must be integers >= 1" if bad
                                             else f"its state_dict is a {type(state).__name__}, not a dict"))
    try:
        with torch.device("meta"):  # shapes only: nothing is allocated
            expected = {k: tuple(v.shape) for k, v in PlayScoringNet(cfg).state_dict().items()}
    except (RuntimeError, ValueError, TypeError, OverflowError) as err:
        raise ModelFileError(f"{where}: {type(err).__name__}: {err}") from None
    problems = [f"lacks {k}" for k in expected if k not in state]
    problems += [f"has the unexpected entry {k!r}" for k in state if k not in expected]
    for k, shape in expected.items():
        t = state.get(k)
        if t is None:
            continue
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            problems.append(f"{k} is a {type(t).__name__} {getattr(t, 'dtype', '')}, not a float tensor")
        elif tuple(t.shape) != shape:
            problems.append(f"{k} has the shape {tuple(t.shape)}, expected {shape}")
        elif t.untyped_storage().nbytes() < t.numel() * t.element_size():
            problems.append(f"{k} of shape {shape} is a view of {t.untyped_storage().nbytes()} bytes, not weights")
    if problems:
        shown = "; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else "")
        raise ModelFileError(f"{where}: {shown}")
    net = PlayScoringNet(cfg)
    try:
        net.load_state_dict(state)
    except (RuntimeError, ValueError) as err:
        raise ModelFileError(f"{where}: {err}") from None
    if not all(torch.isfinite(v).all() for v in net.state_dict().values()):
        raise ModelFileError(f"{source!r} holds non-finite weights (a diverged training run?)")
    net.eval()
    return net


#: Folder of the models shipped with the package, one per game and player count: ``learned_<n>p.pt``
#: (Seers Catalog), ``scout_learned_<n>p.pt`` (SCOUT), ``seals_learned_<n>p.pt`` (Seals), ``haggis_learned_<n>p.pt``
#: (Haggis).
SHIPPED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
#: The game of a model when none is named.
DEFAULT_GAME = "seers_catalog"


def shipped_model_path(n_players: int = 4, game: str = DEFAULT_GAME) -> str:
    """Path of the shipped play-scoring model of ``game`` for ``n_players``
    (``train/models/learned_<n>p.pt``; other games ``<game>_learned_<n>p.pt``).

    Raises:
        ValueError: ``game`` is not a registered game (the message lists them).
    """
    from seers_env.games import game_spec

    game_spec(game)
    prefix = "" if game == DEFAULT_GAME else f"{game}_"
    return os.path.join(SHIPPED_DIR, f"{prefix}learned_{n_players}p.pt")


def shipped_player_counts(game: str = DEFAULT_GAME) -> list[int]:
    """Player counts of ``game`` that have a shipped model."""
    return [n for n in (2, 3, 4, 5) if os.path.isfile(shipped_model_path(n, game))]


def _game_title(game: str) -> str:
    from seers_env.games import game_spec

    return game_spec(game).title


def _game_label(game: str) -> str:
    """``""`` for Seers Catalog (messages as before other games were served), else the title and a space."""
    return "" if game == DEFAULT_GAME else f"{_game_title(game)} "


_CACHE: dict[str, tuple[PlayScoringNet, ModelConfig]] = {}


def cached_policy(path: str) -> tuple[PlayScoringNet, ModelConfig]:
    """:func:`load_policy`, memoised per process by absolute path and modification time."""
    key = f"{os.path.abspath(path)}@{os.path.getmtime(path) if os.path.exists(path) else 0}"
    if key not in _CACHE:
        _CACHE[key] = load_policy(path)
    return _CACHE[key]


class LearnedAgent(Agent):
    """Plays the highest-scoring legal play of a :class:`PlayScoringNet` (``greedy=True``) or samples
    from its softmax. It scores with :class:`NumpyPlayScorer` (a copy of the network's weights, made
    again when they change, shared by every agent on the network): for the shipped 4-player model,
    0.54 ms of CPU per decision with a choice beside heuristic agents and about 0.9 ms beside an
    ISMCTS agent, whose search leaves the caches cold (``seers eval`` prints it). A network in
    training mode (``net.training``; :func:`load_policy` returns one in eval mode) is copied at every
    decision, since some of its changes leave no trace that :meth:`NumpyPlayScorer.matches` could see
    (a fused optimiser step, writes through ``p.data`` or a numpy view); with a network in eval mode,
    :meth:`refresh` after such a change.

    The agent plays the game its model was trained for (:attr:`game`, from the file's
    :class:`~train.model_config.ModelConfig`: Seers Catalog or SCOUT); its features come from that
    game's adapter (:mod:`train.game_adapters`).

    Args:
        model: a model file path, ``(net, model_config)``, or ``None`` for the models shipped with the
            package (:func:`shipped_model_path`; the one for ``game`` and the table's player count is
            used).
        greedy: argmax (default) or sample.
        seed: seed of the sampling generator.
        allow_off_config: play at another table (players, artifact deck) than the model was trained
            for, with one warning instead of an error (never another game).
        game: the game to play (``None``: the model's; shipped models: Seers Catalog).

    Raises:
        FileNotFoundError, ValueError: see :func:`load_policy`; no shipped model for ``game``.
        train.model_config.ModelConfigError: (a ``ValueError``) ``game`` is not the model's game (the
            message names both); at the first decision, or from :meth:`check_use` / :meth:`check_game`:
            the table or game is not the one the model was trained for, or no shipped model fits it.
    """

    name = "learned"

    def __init__(self, model: str | tuple[PlayScoringNet, ModelConfig] | None = None, greedy: bool = True,
                 seed: int | None = None, allow_off_config: bool = False, game: str | None = None):
        super().__init__(seed)
        if game is not None:
            from seers_env.games import game_spec

            game_spec(game)  # ValueError listing the games
        self.path: str | None = None
        self.shipped = model is None  # the table's shipped model is loaded at the first check_use
        self.net: PlayScoringNet | None = None
        self.config: ModelConfig | None = None
        if isinstance(model, tuple):
            self.net, self.config = model
            self.path = "model"
        elif model is not None:
            self.path = os.fspath(model)
            self.net, self.config = cached_policy(self.path)
        if self.config is not None:
            trained = self.config.game
            if game is not None and game != trained:
                raise ModelConfigError(f"model {self.path!r} was trained for {_game_title(trained)} "
                                       f"({trained!r}), not {_game_title(game)} ({game!r}); give a "
                                       f"{_game_title(game)} model")
            game = trained
        game = DEFAULT_GAME if game is None else game
        if self.shipped and not shipped_player_counts(game):
            raise FileNotFoundError(f"no shipped {_game_label(game)}play-scoring model in {SHIPPED_DIR!r}; "
                                    f"train one with seers train{'' if game == DEFAULT_GAME else ' --game ' + game}"
                                    f" and use learned:<path to model.pt>")
        #: the game this agent plays (:class:`agents.base.Agent`)
        self.game = game
        self.greedy = greedy
        self.allow_off_config = allow_off_config
        self._checked: tuple | None = None
        self._scorer: NumpyPlayScorer | None = None
        self._adapter = None  # the game's feature functions (train.game_adapters), found at first use

    def __deepcopy__(self, memo):  # tournaments copy agents per game: share the (read-only) network
        other = LearnedAgent.__new__(LearnedAgent)
        other.__dict__.update(self.__dict__)
        other.rng = np.random.default_rng()
        return other

    def __getstate__(self):  # pickled without the weight copy (made again at the next decision)
        state = self.__dict__.copy()
        state["_scorer"] = None
        state["_adapter"] = None
        return state

    def refresh(self) -> None:
        """Drop the copy of the network's weights, for every agent on this network (the copy is shared,
        :func:`shared_scorer`, and marked :attr:`NumpyPlayScorer.stale`): the next decision of each
        copies them again."""
        if self._scorer is not None:
            self._scorer.stale = True
        self._scorer = None
        if self.net is not None:
            with _SCORERS_LOCK:
                shared = _SCORERS.pop(self.net, None)
            if shared is not None:
                shared.stale = True

    def check_game(self, game: str, config) -> None:
        """Raise :class:`~train.model_config.ModelConfigError` (a ``ValueError``) when ``game`` is not the
        model's game (the message names both) or the table (``config``: the game's config object) is not
        the one the model was trained for (:meth:`check_use`); called before a tournament starts."""
        if game != self.game:
            raise ModelConfigError(f"agent {self.name!r} (model {self.path or 'shipped'!r}) plays "
                                   f"{_game_title(self.game)} ({self.game!r}), not {_game_title(game)} ({game!r})")
        self.check_use(config.n_players, tuple(getattr(config, "artifact_deck", ())))

    def check_use(self, n_players: int, artifact_deck) -> None:
        """Raise :class:`~train.model_config.ModelConfigError` when the table is not the one the model
        was trained for (one warning instead with ``allow_off_config``). With the shipped models, load
        the one for :attr:`game` and ``n_players`` (:class:`~train.model_config.ModelConfigError` naming
        the player counts that have one when none fits). ``artifact_deck``: Seers Catalog's (``()`` for
        other games)."""
        key = (n_players, tuple(artifact_deck))
        if self._checked == key:
            return
        adapter = self._game_adapter()
        if self.shipped:
            path = shipped_model_path(n_players, self.game)
            if not os.path.isfile(path):
                flag = "" if self.game == DEFAULT_GAME else f" --game {self.game}"
                raise ModelConfigError(f"no shipped {_game_label(self.game)}play-scoring model for {n_players} "
                                       f"players (shipped: {shipped_player_counts(self.game)} players); train "
                                       f"one with seers train{flag} --players {n_players} and use "
                                       f"learned:<path to model.pt>")
            self.path = path
            self.net, self.config = cached_policy(path)
        check_model_config(self.config, source=self.path, algorithm=ALGORITHM, n_players=n_players,
                           artifact_deck=tuple(artifact_deck), feature_version=adapter.feature_version,
                           game=self.game, allow_off_config=self.allow_off_config)
        self._checked = key

    def _game_adapter(self):
        if self._adapter is None:
            from .game_adapters import game_adapter

            self._adapter = game_adapter(self.game)
        return self._adapter

    def act(self, view: SeatView) -> Play:
        legal = view.legal_plays()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal play (not its turn, or the game is over)")
        if len(legal) == 1:
            return legal[0]
        game = getattr(view, "game_name", DEFAULT_GAME)
        if game != self.game:
            raise ModelConfigError(f"model {self.path or 'shipped'!r} plays {_game_title(self.game)} "
                                   f"({self.game!r}), given a {_game_title(game)} ({game!r}) view")
        if game == DEFAULT_GAME:
            self.check_use(view.n_players, view.config.artifact_deck)
            encode, rows_of = encode_state, play_rows
        else:
            self.check_use(view.n_players, ())
            adapter = self._game_adapter()
            encode, rows_of = adapter.encode_state, adapter.play_rows
        scorer = self._scorer
        if scorer is None or self.net.training or not scorer.matches(self.net):
            scorer = self._scorer = shared_scorer(self.net)
        logits = scorer.score(encode(view), rows_of(view, legal, scorer.heuristic_prior))
        if self.greedy:
            return legal[int(np.argmax(logits))]
        p = np.exp(logits.astype(np.float64) - logits.max())
        return legal[int(self.rng.choice(len(legal), p=p / p.sum()))]
