"""A rollout actor on a game's Python engine, for games without a compiled kernel (Seals; Haggis later).

:class:`EngineActor` is :class:`train.selfplay.Actor` written over the shared game protocol
(:class:`seers_env.protocol.GameState`: ``current``, ``legal_plays()``, ``apply()``, ``round_scores``,
``game_over``) and the game's adapter (:class:`train.game_adapters.GameAdapter`: ``new_game``,
``seat_view``, ``encode_state``, ``play_rows`` with the heuristic-prior column, ``privileged``), so that
any game of the registry with an adapter can use it. It plays ``games_in_flight`` games in lockstep and
scores every waiting policy decision of a step in one batched forward pass
(:func:`train.selfplay.forward_stacked`); baseline seats (``cfg.baseline``, any agent spec of the game) and
decisions with one legal play are applied without the network.

Reward (as the other games): at each round's end, each seat's round score minus the mean of the others',
/ the adapter's ``reward_scale``, on its last decision of the round (:class:`train.selfplay._Rollout`).
The random draws (game seeds, baseline seats, sampling) come from one generator in a fixed order, so a
seed gives the same :class:`~train.selfplay.Batch` (``tests/test_seals_learner.py`` checks it against a
plain reference loop).
"""

from __future__ import annotations

import numpy as np

from .scoring_policy import PlayScoringNet, sample_index


class EngineActor:
    """Plays ``cfg.games_in_flight`` games of ``cfg.game`` on its Python engine with the current policy
    and returns training samples (:class:`train.selfplay.Batch`; module docstring). Games persist between
    calls: each :meth:`collect` plays every game to the end of its current round.

    Args:
        cfg: the :class:`~train.selfplay.SelfPlayConfig`; seed: seeds the games, the baseline seats and the
            sampling; net: the policy (default: a new one).

    Attributes:
        games: the games (game ``g`` of every rollout); decisions, rounds_played: counts over every
            rollout so far (decisions of every seat, forced ones included).
    """

    def __init__(self, cfg, seed: int, net: PlayScoringNet | None = None):
        from agents.specs import make_agent

        self.cfg = cfg
        self.adapter = cfg.adapter()
        self.rng = np.random.default_rng(seed)
        self.net = net if net is not None else PlayScoringNet(cfg.net_config())
        self.reward_scale = self.adapter.reward_scale
        seeds = [int(self.rng.integers(2**62)) for _ in range(cfg.games_in_flight)]
        self.baseline_agent = None
        if cfg.baseline_seats > 0:
            self.baseline_agent = make_agent(cfg.baseline, seed=int(self.rng.integers(2**31)), game=cfg.game)
        self._config = cfg.game_config()
        self.games = [self.adapter.new_game(self._config, s) for s in seeds]
        self.rounds_played = 0
        self.decisions = 0

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

        cfg, net, a = self.cfg, self.net, self.adapter
        out = _Rollout(self.reward_scale, self.cfg.others_weight)
        baseline = self._baseline_seats(len(self.games))
        active = list(range(len(self.games)))
        while active:
            still, waiting = [], []
            for g in active:
                game = self.games[g]
                seat = game.current
                legal = game.legal_plays()
                if baseline[g][seat]:
                    play = self.baseline_agent.act(a.seat_view(game, seat))
                elif len(legal) == 1:
                    play = legal[0]
                else:
                    waiting.append((g, seat, legal))
                    still.append(g)
                    continue
                self.decisions += 1
                if self._apply(g, play, out):
                    still.append(g)
            if waiting:
                views = [a.seat_view(self.games[g], seat) for g, seat, _ in waiting]
                st = np.stack([a.encode_state(v) for v in views])
                blocks = [a.play_rows(v, legal, cfg.heuristic_prior) for v, (_, _, legal) in zip(views, waiting)]
                hd = np.stack([a.privileged(self.games[g], seat) for g, seat, _ in waiting])
                offs = np.zeros(len(blocks) + 1, np.int64)
                offs[1:] = np.cumsum([len(b) for b in blocks])
                logits, vals = forward_stacked(net, st, np.concatenate(blocks), offs,
                                               hd if cfg.privileged_critic else None)
                for i, (g, seat, legal) in enumerate(waiting):
                    k, logp = self._sample(logits[offs[i]:offs[i + 1]])
                    out.add(g, seat, st[i], hd[i], blocks[i], k, logp, float(vals[i]))
                    self.decisions += 1
                    if not self._apply(g, legal[k], out):
                        still.remove(g)
            active = still
        return out.batch(net)

    def _apply(self, g: int, play, out) -> bool:
        """Play ``play`` in game ``g``; book the round's rewards when it ended and start a new game after
        the last round. Returns whether the game goes on in this rollout."""
        game = self.games[g]
        before = game.round
        game.apply(play)
        if game.round == before and not game.game_over:
            return True
        self.rounds_played += 1
        out.book(g, list(game.round_scores[-1]))
        if game.game_over:
            self.games[g] = self.adapter.new_game(self._config, int(self.rng.integers(2**62)))
        return False


def engine_teacher_samples(cfg, samples: int, seed: int):
    """Warm-start decisions (:func:`train.selfplay.teacher_samples`) on the game's Python engine:
    ``cfg.teacher`` plays every seat; every decision with more than one legal play is a sample (the
    teacher's play as ``actions``, its seat's round reward as ``rewards`` on every one of its decisions of
    the round).

    Returns:
        A :class:`train.selfplay.Batch` of the decisions of finished rounds (at least ``samples`` unless
        ``samples`` is 0).
    """
    from agents.specs import make_agent

    from .selfplay import Batch, round_reward

    a = cfg.adapter()
    rng = np.random.default_rng(seed)
    teacher = make_agent(cfg.teacher, seed=int(rng.integers(2**31)), game=cfg.game)
    scale, config = a.reward_scale, cfg.game_config()
    states, hidden, plays, actions, owner = [], [], [], [], []
    rewards: list[float] = []
    round_start = 0
    while len(actions) < samples:
        game = a.new_game(config, int(rng.integers(2**62)))
        while not game.game_over:
            seat = game.current
            view = a.seat_view(game, seat)
            legal = game.legal_plays()
            play = teacher.act(view)
            if len(legal) > 1:
                states.append(a.encode_state(view))
                plays.append(a.play_rows(view, legal, cfg.heuristic_prior))
                hidden.append(a.privileged(game, seat))
                actions.append(legal.index(play))
                owner.append(seat)
                rewards.append(0.0)
            before = game.round
            game.apply(play)
            if game.round != before or game.game_over:
                scores = game.round_scores[-1]
                for i in range(round_start, len(actions)):
                    rewards[i] = round_reward(scores, owner[i], scale, cfg.others_weight)
                round_start = len(actions)
    k = round_start  # only decisions of finished rounds (their reward is known)
    offsets = np.zeros(k + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in plays[:k]])
    z = np.zeros(k, np.float32)
    width = a.play_dim + bool(cfg.heuristic_prior)
    return Batch(np.stack(states[:k]) if k else np.zeros((0, a.state_dim), np.float32),
                 np.stack(hidden[:k]) if k else np.zeros((0, a.privileged_dim), np.float32),
                 np.concatenate(plays[:k]) if k else np.zeros((0, width), np.float32), offsets,
                 np.asarray(actions[:k], np.int64), z, z, np.asarray(rewards[:k], np.float32),
                 np.ones(k, bool), np.arange(k, dtype=np.int64))


__all__ = ["EngineActor", "engine_teacher_samples"]
