"""``learned+search``: information-set search guided by the play-scoring network.

The search is the project's SO-ISMCTS (:class:`agents.ismcts.ISMCTSAgent`: determinizations of the
unseen cards, one shared tree over play identities), given a :class:`NetworkGuide`:

* **prior**: the network's softmax over the acting seat's legal plays in the sample (its policy head,
  :class:`~train.scoring_policy.NumpyPlayScorer`), used by PUCT (AlphaZero: Silver et al., Science 362,
  2018) in place of UCB1 over the heuristic's top plays;
* **leaf value**: the network's value head for every seat at the new leaf. The shipped models' critic is
  *privileged* (PerfectDou, Yang et al. NeurIPS 2022): trained on the state embedding joined with every
  hand (:meth:`train.game_adapters.GameAdapter.privileged`), which a determinization supplies (the
  sampled hands), so the search asks it the question it was trained on. The value of a seat is its
  expected round score minus the others' mean (points / ``reward_scale``, :mod:`train.selfplay`),
  which is the search's reward; the values of the seats are centred to sum to zero, as the true
  rewards do.

``leaf="rollout"`` instead finishes the round with the game's greedy agent (as plain ISMCTS) or with the
network's most probable play (``rollout="guide"``); ``leaf="mixed"`` uses both, the rollout's result
weighted by ``leaf_mix`` (AlphaGo's mixed evaluation: Silver et al., Nature 529, 2016). ``docs/guided_search.md`` gives the measurements
that chose the default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from agents.ismcts import ISMCTSAgent, top_indices
from seers_env.sparse_rows import sparse_affine_relu

from .scoring_policy import DEFAULT_GAME, LearnedAgent, PlayScoringNet, _blas_one_thread, shared_scorer

#: Leaf evaluations of :class:`GuidedSearchAgent`.
LEAVES = ("value", "rollout", "mixed")


class NumpyValueHead:
    """The value head of a :class:`~train.scoring_policy.PlayScoringNet` in numpy, for search: float32
    values ``(B,)`` of ``B`` states. A copy of the weights (float32, CPU, no shared memory).

    The first layer adds the weight rows of the nonzero state features only
    (:func:`seers_env.sparse_rows.sparse_affine_relu`), as :class:`~train.scoring_policy.NumpyPlayScorer`
    does; the values equal the torch network's up to float32 rounding.
    """

    def __init__(self, net: PlayScoringNet):
        def arr(t) -> np.ndarray:
            return np.array(t.detach().to("cpu").float().numpy(), dtype=np.float32, order="C")

        sn0, sn2 = net.state_net[0], net.state_net[2]
        vn0, vn2 = net.value_net[0], net.value_net[2]
        embed = sn2.weight.shape[0]
        self.w_state, self.b_state = arr(sn0.weight.T), arr(sn0.bias)
        self.w_embed, self.b_embed = arr(sn2.weight.T), arr(sn2.bias)
        self.w_value_embed = arr(vn0.weight[:, :embed].T)  # (embed, h/2)
        self.w_value_priv = arr(vn0.weight[:, embed:].T)  # (privileged_dim or 0, h/2)
        self.b_value = arr(vn0.bias)
        self.w_out, self.b_out = arr(vn2.weight[0]), float(vn2.bias.detach()[0])
        self.privileged = bool(net.cfg.privileged_critic)

    def values(self, states: np.ndarray, privileged: np.ndarray | None) -> np.ndarray:
        """Values float32 ``(B,)`` (reward units) of ``states`` float32 ``(B, state_dim)``, with the
        privileged critic's input ``privileged`` float32 ``(B, privileged_dim)`` (zeros when ``None``, as
        :meth:`PlayScoringNet.forward`; ignored by a network without a privileged critic).

        Raises:
            ValueError: an input of another shape (the message names the one expected).
        """
        states = np.ascontiguousarray(states, dtype=np.float32)
        if states.ndim != 2 or states.shape[1] != len(self.w_state):
            raise ValueError(f"states has shape {states.shape}, expected (B, {len(self.w_state)})")
        with _blas_one_thread():
            h = np.empty((len(states), len(self.b_state)), np.float32)
            sparse_affine_relu(states, states.shape[1], self.w_state, self.b_state, h)
            emb = h @ self.w_embed
            emb += self.b_embed
            np.maximum(emb, 0.0, out=emb)
            z = emb @ self.w_value_embed
            if self.privileged and privileged is not None:
                privileged = np.asarray(privileged, dtype=np.float32)
                if privileged.shape != (len(states), len(self.w_value_priv)):
                    raise ValueError(f"privileged has shape {privileged.shape}, expected "
                                     f"({len(states)}, {len(self.w_value_priv)})")
                z += privileged @ self.w_value_priv
            z += self.b_value
            np.maximum(z, 0.0, out=z)
            return z @ self.w_out + self.b_out


#: :class:`NetworkGuide`'s models of the other seats' plays in :meth:`NetworkGuide.world_log_likelihood`.
OPPONENT_MODELS = ("network", "mixture")
#: The plays per position that the ``"mixture"`` model's ISMCTS-like player picks among (the heuristic's
#: best; :class:`agents.ismcts.ISMCTSAgent`'s default ``top_k``).
OPPONENT_TOP_K = 6


def softmax(logits: np.ndarray) -> np.ndarray:
    """float64 probabilities ``(n,)`` of float logits ``(n,)`` (shifted by their maximum)."""
    z = np.asarray(logits, dtype=np.float64)
    p = np.exp(z - z.max())
    return p / p.sum()


class NetworkGuide:
    """A :class:`agents.ismcts.SearchGuide` from a play-scoring network (module docstring).

    Args:
        net: the network (its weights are copied now: later changes are not seen).
        game: the game's registry name (its features: :func:`train.game_adapters.game_adapter`).
        center: centre the seats' values to sum to zero.
        temperature: the priors are ``softmax(logits / temperature)`` (> 1 flattens the trained policy,
            whose best play often holds 99% of the mass, so that the search explores).
        floor: the weight of the uniform choice mixed into :meth:`world_log_likelihood`'s play
            probabilities.
        opponents: how :meth:`world_log_likelihood` models the other seats: ``"network"`` (each plays
            like this network) or ``"mixture"`` (each seat, over the round, either like the network or
            like ISMCTS, which picks among the heuristic's :data:`OPPONENT_TOP_K` best plays; prior 1/2
            each, so that the seats' plays tell which).

    Raises:
        ValueError: ``temperature`` is not a finite number > 0, ``floor`` is not in [0, 1], or
            ``opponents`` is not one of :data:`OPPONENT_MODELS` (``"mixture"``: Seers Catalog only).
    """

    def __init__(self, net: PlayScoringNet, game: str = DEFAULT_GAME, center: bool = True,
                 temperature: float = 1.0, floor: float = 0.1, opponents: str = "network"):
        self.check_temperature(temperature)
        self.check_floor(floor)
        self.check_opponents(opponents)
        if opponents == "mixture" and game != DEFAULT_GAME:
            raise ValueError(f"opponents='mixture' models ISMCTS with Seers Catalog's heuristic; "
                             f"game={game!r} takes opponents='network'")
        self.floor = float(floor)
        self.opponents = opponents
        self._ranker = None
        from .game_adapters import game_adapter

        self.net = net
        self.adapter = game_adapter(game)
        self.scorer = shared_scorer(net)
        self.value_head = NumpyValueHead(net)
        self.center = center
        self.temperature = float(temperature)

    @staticmethod
    def check_temperature(temperature) -> None:
        """Raise ``ValueError`` unless ``temperature`` is a finite number > 0."""
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 < temperature < math.inf:
            raise ValueError(f"temperature={temperature!r} must be a finite number > 0")

    @staticmethod
    def check_opponents(opponents) -> None:
        """Raise ``ValueError`` unless ``opponents`` is one of :data:`OPPONENT_MODELS`."""
        if not isinstance(opponents, str) or opponents not in OPPONENT_MODELS:
            raise ValueError(f"opponents={opponents!r} is not one of {', '.join(map(repr, OPPONENT_MODELS))}")

    @staticmethod
    def check_floor(floor) -> None:
        """Raise ``ValueError`` unless ``floor`` is a number in [0, 1]."""
        if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0 <= floor <= 1:
            raise ValueError(f"floor={floor!r} must be a number in [0, 1]")

    def priors(self, view) -> np.ndarray:
        """The network's softmax over ``view.legal_plays()`` at :attr:`temperature`: float64
        ``(n_legal,)`` summing to 1.

        Raises:
            ValueError: the seat of ``view`` has no legal play (not its turn).
        """
        legal = view.legal_plays()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal play (not its turn, or the game is over)")
        a = self.adapter
        logits = self.scorer.score(a.encode_state(view), a.play_rows(view, legal, self.scorer.heuristic_prior))
        return softmax(logits / self.temperature if self.temperature != 1.0 else logits)

    def world_log_likelihood(self, sampler, world) -> float:
        """How likely the other seats' plays of this round were in ``world`` (inference for determinized
        search: Buro et al., IJCAI 2009): the sum, over their plays that had a choice, of the log of
        :meth:`priors` (at :attr:`temperature`, mixed with the uniform choice by :attr:`floor`, so that one
        play the network finds unlikely cannot rule a world out) of the play made, in the position rebuilt by
        ``sampler.replay_round(world)``; ``-inf`` when a play was not legal in ``world`` (the Bonus forbids
        a pass to a seat that holds a meld, rules section 4). With ``opponents="mixture"`` each seat's
        likelihood is the mean of that one and the likelihood of its plays by a player that picks
        uniformly among the heuristic's :data:`OPPONENT_TOP_K` best (as :class:`~agents.ismcts.ISMCTSAgent`
        prunes its tree), both mixed with the uniform choice by :attr:`floor`.

        Args:
            sampler: the view's determinizer (it has ``replay_round``: Seers Catalog).
            world: one of its samples (not changed).
        """
        from seers_env.engine.game import IllegalPlayError

        mixture = self.opponents == "mixture"
        if mixture and self._ranker is None:
            from agents.heuristic import HeuristicAgent

            self._ranker = HeuristicAgent()
        network: dict[int, float] = {}
        pruned: dict[int, float] = {}
        try:
            for seat, view, play in sampler.replay_round(world):
                legal = view.legal_plays()
                n = len(legal)
                if n == 1:
                    continue
                identity = play.identity()
                index = next((i for i, q in enumerate(legal) if q.identity() == identity), None)
                if index is None:
                    return -math.inf
                p = (1.0 - self.floor) * float(self.priors(view)[index]) + self.floor / n
                network[seat] = network.get(seat, 0.0) + math.log(max(p, 1e-300))
                if mixture:  # with at most OPPONENT_TOP_K plays the pruned player is uniform: 1/n
                    p = 1.0 / n
                    if n > OPPONENT_TOP_K:
                        p = self.floor / n
                        if index in top_indices(self._ranker.score_array(view), OPPONENT_TOP_K):
                            p += (1.0 - self.floor) / OPPONENT_TOP_K
                    pruned[seat] = pruned.get(seat, 0.0) + math.log(max(p, 1e-300))
        except IllegalPlayError:
            return -math.inf
        if not mixture:
            return float(sum(network.values()))
        return float(sum(np.logaddexp(network[s], pruned[s]) - math.log(2.0) for s in sorted(network)))

    def values(self, game) -> np.ndarray:
        """Each seat's expected round-score advantage over the others' mean, in points: float64
        ``(n_players,)`` (centred to sum to 0 with :attr:`center`), from the value head on each seat's
        view and the privileged input of the (sampled) full state ``game``."""
        a, n = self.adapter, game.n_players
        states = np.stack([a.encode_state(a.seat_view(game, s)) for s in range(n)])
        priv = np.stack([a.privileged(game, s) for s in range(n)]) if self.value_head.privileged else None
        v = self.value_head.values(states, priv).astype(np.float64) * a.reward_scale
        return v - v.mean() if self.center else v


class GuidedSearchAgent(ISMCTSAgent):
    """ISMCTS guided by a play-scoring model (module docstring): spec ``learned+search:<iterations>``.

    The model is loaded as :class:`~train.scoring_policy.LearnedAgent` loads it (the shipped model of the
    table's player count when ``model`` is None), and checked against the game and table the same way.

    Args:
        iterations, seconds: the budget per decision (as :class:`~agents.ismcts.ISMCTSAgent`).
        model: a model file path, ``(net, model_config)``, or ``None`` (the shipped models).
        leaf: ``"value"`` (the network's value head), ``"rollout"`` (to the round's end) or ``"mixed"``
            (both, the rollout weighted by ``leaf_mix``; :class:`~agents.ismcts.ISMCTSAgent`).
        leaf_mix: the rollout's weight with ``leaf="mixed"``, in [0, 1] (``None``: 1/2,
            :data:`agents.ismcts.DEFAULT_LEAF_MIX`).
        rollout: the rollout policy with ``leaf="rollout"`` or ``"mixed"``: ``"greedy"``, ``"random"`` or
            ``"guide"``.
        c_puct: PUCT exploration constant.
        center: centre the value head's seat values (:class:`NetworkGuide`).
        temperature: the priors' softmax temperature (:class:`NetworkGuide`); the default, 3, and
            ``leaf="value"`` were chosen by the measurements of ``docs/guided_search.md``.
        seed: seed of the search's generator.
        game: the game (``None``: the model's).
        worlds, inference: a pool of weighted worlds per decision (:class:`~agents.ismcts.ISMCTSAgent`;
            ``inference="policy"``: weighted by :meth:`NetworkGuide.world_log_likelihood`).
        floor: the uniform mixture of that likelihood (:class:`NetworkGuide`).
        opponents: that likelihood's model of the other seats, ``"network"`` or ``"mixture"``
            (:class:`NetworkGuide`).

    Raises:
        ValueError: a bad budget, leaf, rollout, ``c_puct``, ``leaf_mix``, ``worlds`` or ``inference``
            (from :class:`~agents.ismcts.ISMCTSAgent`); a bad ``temperature``, ``floor`` or ``opponents``
            (:class:`NetworkGuide`; ``opponents="mixture"`` without ``worlds`` and
            ``inference="policy"``); the model's errors (:class:`~train.scoring_policy.LearnedAgent`).
    """

    name = "learned+search"

    def __init__(self, iterations: int = 200, seconds: float | None = None, model=None, leaf: str = "value",
                 rollout: str = "greedy", c_puct: float = 1.5, center: bool = True, temperature: float = 3.0,
                 seed: int | None = None, game: str | None = None, worlds: int = 0, inference: str = "policy",
                 floor: float = 0.1, opponents: str = "network", leaf_mix: float | None = None):
        NetworkGuide.check_temperature(temperature)
        NetworkGuide.check_floor(floor)
        NetworkGuide.check_opponents(opponents)
        if opponents != "network" and not (worlds and inference == "policy"):
            raise ValueError(f"opponents={opponents!r} models the other seats in the worlds' weights: it "
                             f"needs worlds > 0 and inference='policy' (got worlds={worlds!r}, "
                             f"inference={inference!r})")
        self.learned = LearnedAgent(model, seed=seed, game=game)
        super().__init__(iterations=iterations, seconds=seconds, rollout=rollout, seed=seed,
                         guide=_UNBOUND, leaf=leaf, c_puct=c_puct, worlds=worlds, inference=inference,
                         leaf_mix=leaf_mix)
        self.center, self.temperature, self.floor = center, float(temperature), float(floor)
        self.opponents = opponents
        #: the game this agent plays (:class:`agents.base.Agent`): its model's
        self.game = self.learned.game

    def __deepcopy__(self, memo):  # tournaments copy agents per game: share the (read-only) network
        other = GuidedSearchAgent.__new__(GuidedSearchAgent)
        other.__dict__.update(self.__dict__)
        other.learned = self.learned.__deepcopy__(memo)
        other._parts = {}
        other.rng = np.random.default_rng()
        return other

    def __getstate__(self):  # pickled without the guide's weight copies (made again at the next decision)
        state = self.__dict__.copy()
        state["guide"] = _UNBOUND
        state["_parts"] = {}
        return state

    def check_game(self, game: str, config) -> None:
        """As :meth:`LearnedAgent.check_game` (the model's game and table)."""
        self.learned.check_game(game, config)

    def check_use(self, n_players: int, artifact_deck) -> None:
        """As :meth:`LearnedAgent.check_use`."""
        self.learned.check_use(n_players, artifact_deck)

    def act(self, view):
        legal = view.legal_plays()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal play (not its turn, or the game is over)")
        learned = self.learned
        game = getattr(view, "game_name", DEFAULT_GAME)
        if game != learned.game:
            learned.act(view)  # its ModelConfigError naming both games
        learned.check_use(view.n_players, view.config.artifact_deck if game == DEFAULT_GAME else ())
        if not isinstance(self.guide, NetworkGuide) or self.guide.net is not learned.net:
            self.guide = NetworkGuide(learned.net, learned.game, center=self.center,
                                      temperature=self.temperature, floor=self.floor,
                                      opponents=self.opponents)
        return super().act(view)


class _Unbound:
    """The guide of a :class:`GuidedSearchAgent` before its model is known (the table decides it)."""

    def priors(self, view) -> Sequence[float]:
        raise RuntimeError("the guided search's model is loaded at its first decision")

    def values(self, game) -> Sequence[float]:
        raise RuntimeError("the guided search's model is loaded at its first decision")


_UNBOUND = _Unbound()


def parse_budget(spec: str, arg: str | None) -> dict:
    """``iterations=`` or ``seconds=`` of a spec's budget text (``"200"``, ``"0.5s"``).

    Raises:
        ValueError: no budget, or one that is not a positive integer (or seconds > 0); the message names
            the spec and the forms allowed.
    """
    forms = f"{spec.partition(':')[0]}:<iterations>, e.g. learned+search:200, or <seconds>s, e.g. 0.5s"
    text = (arg or "").strip()
    if not text:
        raise ValueError(f"agent spec {spec!r} needs a search budget: {forms}")
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds < math.inf:
                raise ValueError
            return {"seconds": seconds}
        iterations = int(text)
        if iterations < 1:
            raise ValueError
        return {"iterations": iterations}
    except ValueError:
        raise ValueError(f"bad search budget {text!r} in agent spec {spec!r}: an integer >= 1 (iterations "
                         f"per decision) or a number of seconds > 0 followed by s; {forms}") from None
