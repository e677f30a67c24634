"""SCOUT for the play-scoring learner: rollouts on the compiled SCOUT kernel, the warm start, the features.

:class:`ScoutActor` is :class:`train.selfplay.Actor` for SCOUT (rules ``docs/scout_rules.md``): it plays
``games_in_flight`` games in lockstep on the compiled kernel (:class:`seers_env.scout.kernel.ScoutKernel`),
builds the features of every waiting decision in one compiled call
(:func:`seers_env.scout.kernel_features.decision_features`, bit for bit
:func:`seers_env.scout.features.encode_state` / :func:`~seers_env.scout.features.encode_plays`), and
scores the policy's decisions in one batched forward pass. The heuristic agent
(:class:`agents.scout.ScoutHeuristicAgent`), which reads a seat view, plays the baseline seats and gives
the heuristic-prior column on a :class:`KernelSeatView`: the members of
:class:`~seers_env.scout.view.ScoutSeatView` it reads, read from the kernel's arrays
(``tests/test_scout_learner.py`` checks its scores equal those on the engine's view).

Reward (as Seers Catalog): at each round's end (rules section 8), each seat's round score minus the mean
of the others', / :data:`~train.game_adapters.ScoutAdapter.reward_scale`, on its last decision of the
round.

**Privileged critic** (training only, :func:`privileged_hands`): for each other seat in turn order after
the acting one, the hand summary of its actual hand (:func:`seers_env.scout.features.hand_summary`: cards,
fewest segments, longest set and run, ...; 10 values) and how many of its cards show each number 1..10
on top / 4 (10 values); zeros for absent seats: ``(MAX_SEATS - 1) * 20`` values.
"""

from __future__ import annotations

import numpy as np

from agents.base import RandomAgent
from agents.scout import ScoutGreedyAgent, ScoutHeuristicAgent
from seers_env.scout.cards import face_pair
from seers_env.scout.features import HAND_SUMMARY_DIM, encode_plays, encode_state, hand_summary
from seers_env.scout.game import PHASE_OVER, PHASE_PLAY, PHASE_ROTATE, ScoutGame
from seers_env.scout.kernel import (
    OUT_GAME_OVER, OUT_ROUND, S_CHIPS, S_CURRENT, S_HLEN, S_N, S_OWNER, S_PHASE, S_ROUND, S_SS_USED, VALUE,
    ScoutKernel, play_key, play_of_key,
)
from seers_env.scout.kernel_features import decision_features
from seers_env.scout.observation import MAX_SEATS
from seers_env.scout.view import ScoutSeatView

from .scoring_policy import PlayScoringNet, sample_index

#: Values per other seat in :func:`privileged_hands`.
PRIVILEGED_BLOCK = HAND_SUMMARY_DIM + 10
#: Length of :func:`privileged_hands`.
PRIVILEGED_DIM = (MAX_SEATS - 1) * PRIVILEGED_BLOCK
_HEURISTIC = ScoutHeuristicAgent()  # deterministic and stateless: one instance scores for every seat
_PHASES = (PHASE_ROTATE, PHASE_PLAY, PHASE_OVER)  # kernel PH_ROTATE, PH_PLAY, PH_OVER
#: Baseline agent classes that play on a :class:`KernelSeatView` (they read only its members).
KERNEL_AGENTS = (ScoutHeuristicAgent, ScoutGreedyAgent, RandomAgent)


def privileged_hands(values: list[list[int]], seat: int) -> np.ndarray:
    """The privileged critic's input for ``seat`` (module docstring): float32 ``(PRIVILEGED_DIM,)``.

    Args:
        values: every seat's hand as top numbers, left to right (``ScoutGame.hand_values(s)``).
        seat: the acting seat.
    """
    n = len(values)
    out = np.zeros(PRIVILEGED_DIM, np.float32)
    for rel in range(1, n):
        v = values[(seat + rel) % n]
        off = (rel - 1) * PRIVILEGED_BLOCK
        out[off:off + HAND_SUMMARY_DIM] = hand_summary(v)
        counts = np.bincount(np.asarray(v, np.intp), minlength=11)[1:11] if v else np.zeros(10)
        out[off + HAND_SUMMARY_DIM:off + PRIVILEGED_BLOCK] = counts / 4.0
    return out


def play_rows(view: ScoutSeatView, legal: list, heuristic_prior: bool) -> np.ndarray:
    """The rows a SCOUT :class:`~train.scoring_policy.PlayScoringNet` scores: float32 ``(len(legal),
    PLAY_DIM [+ 1])``, :func:`seers_env.scout.features.encode_plays` plus, when ``heuristic_prior``, a last
    column with :meth:`agents.scout.ScoutHeuristicAgent.score_array` (points).

    Raises:
        ValueError: ``heuristic_prior`` and ``legal`` are not the seat's legal plays (the prior scores
            those).
    """
    rows = encode_plays(view, legal)
    if not heuristic_prior:
        return rows
    prior = _HEURISTIC.score_array(view)
    if len(prior) != len(legal):
        raise ValueError(f"{len(legal)} plays given, the seat has {len(prior)} legal plays: the heuristic "
                         f"prior scores the seat's legal plays")
    return _with_prior(rows, prior)


def _with_prior(rows: np.ndarray, prior: np.ndarray) -> np.ndarray:
    out = np.empty((len(rows), rows.shape[1] + 1), np.float32)
    out[:, :-1] = rows
    out[:, -1] = prior  # float64 -> float32
    return out


class KernelSeatView:
    """The acting seat's view of kernel slot ``i``, with the members of
    :class:`~seers_env.scout.view.ScoutSeatView` that the SCOUT baseline agents read
    (:data:`KERNEL_AGENTS`: the heuristic's ``score_array`` and ``act``, the greedy and random agents'
    ``act``), each equal to the engine view's: ``game_name``, ``seat``, ``n_players``, ``current``,
    ``game_over``, ``phase``, ``hand_faces()``, ``hand_sizes``, ``active``, ``active_owner``, ``chips``,
    ``scout_show_used`` and ``legal_plays()``. Only the seat to act has one; it is valid until the slot's
    next play.

    Args:
        kernel: the :class:`~seers_env.scout.kernel.ScoutKernel`; i: the slot (its game not over).
        keys: int64 play keys of the slot's legal plays (engine order), e.g. from
            :func:`~seers_env.scout.kernel_features.decision_features`.
    """

    __slots__ = ("_k", "_i", "seat", "_keys", "_legal")
    game_name = "scout"

    def __init__(self, kernel: ScoutKernel, i: int, keys: np.ndarray):
        self._k, self._i = kernel, int(i)
        self.seat = int(kernel.scal[i, S_CURRENT])
        self._keys = keys
        self._legal: list | None = None

    def legal_plays(self) -> list:
        """The seat's legal plays (:class:`~seers_env.scout.plays.ScoutPlay`, engine order; a new list)."""
        if self._legal is None:
            self._legal = [play_of_key(k) for k in self._keys.tolist()]
        return list(self._legal)

    @property
    def n_players(self) -> int:
        return int(self._k.scal[self._i, S_N])

    @property
    def current(self) -> int:
        return int(self._k.scal[self._i, S_CURRENT])

    @property
    def phase(self) -> str:
        return _PHASES[int(self._k.scal[self._i, S_PHASE])]

    @property
    def game_over(self) -> bool:
        return self.phase == PHASE_OVER

    def hand_faces(self) -> list[int]:
        return self._k.hands[self._i, self.seat, :self._k.scal[self._i, S_HLEN + self.seat]].tolist()

    @property
    def hand_sizes(self) -> list[int]:
        return self._k.scal[self._i, S_HLEN:S_HLEN + self.n_players].tolist()

    @property
    def active(self) -> list[tuple[int, int]]:
        return [face_pair(f) for f in self._k.active_faces(self._i)]

    @property
    def active_owner(self) -> int:
        return int(self._k.scal[self._i, S_OWNER])

    @property
    def chips(self) -> list[int]:
        return self._k.scal[self._i, S_CHIPS:S_CHIPS + self.n_players].tolist()

    @property
    def scout_show_used(self) -> list[bool]:
        return [bool(x) for x in self._k.scal[self._i, S_SS_USED:S_SS_USED + self.n_players]]


def _kernel_values(kernel: ScoutKernel, i: int) -> list[list[int]]:
    """Every seat's hand in slot ``i`` as top numbers."""
    n = int(kernel.scal[i, S_N])
    return [VALUE[kernel.hands[i, s, :kernel.scal[i, S_HLEN + s]]].tolist() for s in range(n)]


def check_kernel_agent(agent, what: str, spec: str) -> None:
    """Raise ``ValueError`` naming ``what`` and ``spec`` unless ``agent`` plays on a :class:`KernelSeatView`
    (:data:`KERNEL_AGENTS`)."""
    if type(agent) not in KERNEL_AGENTS:  # a subclass may read more of the view
        raise ValueError(f"{what} {spec!r} acts on ScoutGame objects; the SCOUT actor plays on the compiled "
                         f"kernel and takes heuristic, greedy or random")


class ScoutActor:
    """Plays ``cfg.games_in_flight`` SCOUT games in lockstep with the current policy and returns training
    samples (:class:`train.selfplay.Batch`), as :class:`train.selfplay.Actor` does for Seers Catalog
    (module docstring). Games persist between calls: each :meth:`collect` plays every game to the end of
    its current round.

    Args:
        cfg: the :class:`~train.selfplay.SelfPlayConfig` (``game="scout"``); seed: seeds the games, the
            baseline seats and the sampling; net: the policy (default: a new one).

    Attributes:
        kernel: the games (slot ``g`` is game ``g``); decisions, rounds_played: counts over every
            rollout so far (decisions of every seat).

    Raises:
        ValueError: a baseline agent that does not play on the kernel (only heuristic, greedy, random).
    """

    def __init__(self, cfg, seed: int, net: PlayScoringNet | None = None):
        from agents.specs import make_agent

        self.cfg = cfg
        self.rng = np.random.default_rng(seed)
        self.net = net if net is not None else PlayScoringNet(cfg.net_config())
        self.reward_scale = cfg.adapter().reward_scale
        n_games = cfg.games_in_flight
        seeds = [int(self.rng.integers(2**62)) for _ in range(n_games)]
        self.baseline_agent = None
        if cfg.baseline_seats > 0:
            self.baseline_agent = make_agent(cfg.baseline, seed=int(self.rng.integers(2**31)), game="scout")
            check_kernel_agent(self.baseline_agent, "baseline", cfg.baseline)
        self.kernel = ScoutKernel(n_games, cfg.game_config())
        for g, s in enumerate(seeds):
            self.kernel.new_game(g, s)
        self.rounds_played = 0
        self.decisions = 0  # every decision, forced ones included

    def _baseline_seats(self, n_games: int) -> list[list[bool]]:
        """Which seats of each game the baseline plays this rollout (at least one policy seat per game),
        drawn as :meth:`train.selfplay.Actor._baseline_seats` draws them."""
        cfg, rng, n = self.cfg, self.rng, self.cfg.n_players
        baseline = [[bool(rng.random() < cfg.baseline_seats) for _ in range(n)] for _ in range(n_games)]
        for seats in baseline:
            if all(seats):
                seats[int(rng.integers(n))] = False
        return baseline

    def _sample(self, logits: np.ndarray) -> tuple[int, float]:
        lg = logits.astype(np.float64)
        p = np.exp(lg - lg.max())
        p /= p.sum()
        a = sample_index(self.rng, p)
        return a, float(np.log(p[a] + 1e-12))

    def collect(self):
        """Play every game to the end of its current round; return the policy seats' decisions."""
        from .selfplay import _Rollout, forward_stacked

        cfg, net, k = self.cfg, self.net, self.kernel
        n_games = cfg.games_in_flight
        out = _Rollout(self.reward_scale, self.cfg.others_weight)
        baseline = self._baseline_seats(n_games)
        active = list(range(n_games))
        while active:
            slots = np.asarray(active, np.int64)
            states, rows, offsets, keys = decision_features(k.hands, k.scouted, k.active, k.scal, k.scores, slots)
            still, waiting = [], []
            for j, g in enumerate(active):
                lo, hi = int(offsets[j]), int(offsets[j + 1])
                seat = int(k.scal[g, S_CURRENT])
                if baseline[g][seat]:
                    key = play_key(self.baseline_agent.act(KernelSeatView(k, g, keys[lo:hi])))
                elif hi - lo == 1:
                    key = int(keys[lo])
                else:
                    waiting.append((j, g, seat))
                    still.append(g)
                    continue
                self.decisions += 1
                if self._apply(g, key, out):
                    still.append(g)
            if waiting:
                blocks, hidden = [], []
                for j, g, seat in waiting:
                    lo, hi = int(offsets[j]), int(offsets[j + 1])
                    block = rows[lo:hi]
                    if cfg.heuristic_prior:
                        block = _with_prior(block, _HEURISTIC.score_array(KernelSeatView(k, g, keys[lo:hi])))
                    blocks.append(block)
                    hidden.append(privileged_hands(_kernel_values(k, g), seat))
                sel = [j for j, _, _ in waiting]
                st = states[sel]
                offs = np.zeros(len(blocks) + 1, np.int64)
                offs[1:] = np.cumsum([len(b) for b in blocks])
                hd = np.stack(hidden)
                logits, vals = forward_stacked(net, st, np.concatenate(blocks), offs,
                                               hd if cfg.privileged_critic else None)
                for i, (j, g, seat) in enumerate(waiting):
                    a, logp = self._sample(logits[offs[i]:offs[i + 1]])
                    out.add(g, seat, st[i], hd[i], blocks[i], a, logp, float(vals[i]))
                    self.decisions += 1
                    if not self._apply(g, int(keys[offsets[j] + a]), out):
                        still.remove(g)
            active = still
        return out.batch(net)

    def _apply(self, g: int, key: int, out) -> bool:
        """Play ``key`` in slot ``g``; book the round's rewards when it ended and start a new game after
        the last round. Returns whether the game goes on in this rollout."""
        k = self.kernel
        r = int(k.scal[g, S_ROUND])
        outcome = k.apply(g, key)
        if outcome < OUT_ROUND:
            return True
        self.rounds_played += 1
        out.book(g, k.scores[g, r, :self.cfg.n_players].tolist())
        if outcome == OUT_GAME_OVER:
            k.new_game(g, int(self.rng.integers(2**62)))
        return False


def scout_teacher_samples(cfg, samples: int, seed: int):
    """SCOUT warm-start decisions (:func:`train.selfplay.teacher_samples`): ``cfg.teacher`` plays every
    seat; every decision with more than one legal play is a sample (the teacher's play as ``actions``,
    its seat's round reward as ``rewards``, on every one of its decisions of the round). A heuristic,
    greedy or random teacher plays on the compiled kernel (:class:`KernelSeatView`), any other (ISMCTS) on
    ``ScoutGame`` objects with the Python features (the same values).

    Returns:
        A :class:`train.selfplay.Batch` of the decisions of finished rounds (at least ``samples`` unless
        ``samples`` is 0).
    """
    from agents.specs import make_agent

    from .selfplay import Batch

    rng = np.random.default_rng(seed)
    teacher = make_agent(cfg.teacher, seed=int(rng.integers(2**31)), game="scout")
    on_kernel = type(teacher) in KERNEL_AGENTS
    n = cfg.n_players
    scale = cfg.adapter().reward_scale
    states, hidden, plays, actions, owner = [], [], [], [], []
    rewards: list[float] = []
    round_start = 0
    kernel = ScoutKernel(1, cfg.game_config()) if on_kernel else None
    while len(actions) < samples:
        game_seed = int(rng.integers(2**62))
        if on_kernel:
            kernel.new_game(0, game_seed)
        else:
            game = ScoutGame(cfg.game_config(), seed=game_seed)
        while not (kernel.game_over(0) if on_kernel else game.game_over):
            if on_kernel:
                st, rows, _, keys = decision_features(kernel.hands, kernel.scouted, kernel.active, kernel.scal,
                                                      kernel.scores, np.zeros(1, np.int64))
                view = KernelSeatView(kernel, 0, keys)
                seat = view.seat
                legal = view.legal_plays()
            else:
                seat = game.current
                view = ScoutSeatView(game, seat)
                legal = game.legal_plays()
            play = teacher.act(view)
            if len(legal) > 1:
                if on_kernel:
                    states.append(st[0])
                    block = rows
                    if cfg.heuristic_prior:
                        block = _with_prior(rows, _HEURISTIC.score_array(view))
                    plays.append(block)
                    hidden.append(privileged_hands(_kernel_values(kernel, 0), seat))
                else:
                    states.append(encode_state(view))
                    plays.append(play_rows(view, legal, cfg.heuristic_prior))
                    hidden.append(privileged_hands([game.hand_values(s) for s in range(n)], seat))
                actions.append(legal.index(play))
                owner.append(seat)
                rewards.append(0.0)
            if on_kernel:
                r = int(kernel.scal[0, S_ROUND])
                ended = kernel.apply(0, play) >= OUT_ROUND
                scores = kernel.scores[0, r, :n].tolist() if ended else None
            else:
                before = len(game.round_scores)
                game.apply(play)
                scores = game.round_scores[-1] if len(game.round_scores) > before else None
            if scores is not None:
                tot = sum(scores)
                for i in range(round_start, len(actions)):
                    rewards[i] = (scores[owner[i]] - (tot - scores[owner[i]]) / (n - 1)) / scale
                round_start = len(actions)
    k = round_start  # only decisions of finished rounds (their reward is known)
    offsets = np.zeros(k + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in plays[:k]])
    z = np.zeros(k, np.float32)
    width = cfg.adapter().play_dim + bool(cfg.heuristic_prior)
    return Batch(np.stack(states[:k]) if k else np.zeros((0, cfg.adapter().state_dim), np.float32),
                 np.stack(hidden[:k]) if k else np.zeros((0, PRIVILEGED_DIM), np.float32),
                 np.concatenate(plays[:k]) if k else np.zeros((0, width), np.float32), offsets,
                 np.asarray(actions[:k], np.int64), z, z, np.asarray(rewards[:k], np.float32),
                 np.ones(k, bool), np.arange(k, dtype=np.int64))


__all__ = ["KERNEL_AGENTS", "KernelSeatView", "PRIVILEGED_DIM", "ScoutActor", "play_rows", "privileged_hands",
           "check_kernel_agent", "scout_teacher_samples"]
