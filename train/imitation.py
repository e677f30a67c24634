"""Imitation warm start for ``seers train``: behaviour cloning of a rule agent before PPO (issue 5).

:func:`collect_demonstrations` plays whole games with a teacher agent (default ``heuristic``) in every
seat and records, at every decision stage of every seat, what the learner would see in
:class:`seers_env.wrappers.SingleAgentSeersEnv` (the observation ``observe(game, seat, decision)`` and the
allowed action ids), the teacher's action id and the seat's Monte Carlo return. :func:`pretrain` fits a
MaskablePPO policy to it: masked cross-entropy of the teacher's actions (behaviour cloning, Pomerleau
1991; the supervised warm start of AlphaStar, Vinyals et al. 2019, and of DQfD, Hester et al. 2018)
plus the mean squared error of the value head against the returns, so that PPO starts from the
teacher's play with a critic that already knows roughly what a position is worth.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from seers_env.integers import is_integer

#: Teachers :func:`collect_demonstrations` accepts (agent specs of ``agents.make_agent``).
TEACHERS = ("heuristic", "greedy", "random")


@dataclass
class Demonstrations:
    """Decisions of a teacher, one row per decision stage (what the learner's environment steps are).

    Attributes:
        obs: float32 ``(N, OBS_DIM)``, the observation of the deciding seat (as the learner sees it).
        allowed: int32 ``(M,)``, the allowed action ids of all rows, concatenated; row ``i``'s are
            ``allowed[offsets[i]:offsets[i + 1]]`` (index arrays, not dense masks: 6928 x N bools is too big).
        offsets: int64 ``(N + 1,)``.
        actions: int64 ``(N,)``, the teacher's action id (always among the row's allowed ids).
        returns: float32 ``(N,)``, the seat's discounted sum of future rewards from this step on, in the
            environment's reward units (round scores in points times ``reward_scale``; a round's score is
            the reward of the seat's last step before the round ended), discount ``gamma`` per step.
        games: whole games played to collect them.
        seconds: wall time of the collection.
    """

    obs: np.ndarray
    allowed: np.ndarray
    offsets: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    games: int = 0
    seconds: float = 0.0

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def masks(self, idx: np.ndarray, n_actions: int) -> np.ndarray:
        """Dense bool masks ``(len(idx), n_actions)`` of rows ``idx`` (built per minibatch only)."""
        idx = np.asarray(idx)
        starts, ends = self.offsets[idx], self.offsets[idx + 1]
        lengths = ends - starts
        rows = np.repeat(np.arange(len(idx)), lengths)
        first = np.repeat(np.cumsum(lengths) - lengths, lengths)
        pos = np.repeat(starts, lengths) + (np.arange(int(lengths.sum())) - first)
        out = np.zeros((len(idx), n_actions), dtype=bool)
        out[rows, self.allowed[pos]] = True
        return out


def collect_demonstrations(n_players: int, n_samples: int, seed: int, artifacts: bool = True, n_rounds: int = 4,
                           teacher: str = "heuristic", reward_scale: float = 0.1, gamma: float = 0.995,
                           progress: Callable[[int], None] | None = None) -> Demonstrations:
    """Play games with ``teacher`` in every seat and record every decision stage of every seat.

    At each turn the deciding seat's :class:`seers_env.actions.Decision` is built from
    ``game.legal_plays()``; the teacher's play is turned into action ids with ``Decision.actions_for`` and
    each stage is recorded (observation ``observe(game, seat, decision)`` at that stage, allowed ids,
    action) before ``Decision.choose`` moves to the next stage — the same steps, observations and masks
    as the learner's in ``SingleAgentSeersEnv`` (forced single-action steps included).

    Args:
        n_players: 2..5. n_rounds: rounds per game (>= 1). artifacts: the default artifact deck or none.
        n_samples: rows to return (>= 1); games are played to their end, then the rows are cut to this.
        seed: seeds the deals (game ``k`` uses ``child_seed(seed, 0, k)``) and the teachers (seat ``s`` of
            game ``k``: ``child_seed(seed, 1, k, s)``; :func:`seers_env.seeding.child_seed`, so neighbouring
            seeds share no game and no deal shares a teacher's stream).
        teacher: one of :data:`TEACHERS`.
        reward_scale, gamma: as ``TrainConfig`` (the returns' units and discount).
        progress: called with the number of rows collected so far after each game.

    Returns:
        :class:`Demonstrations` with ``n_samples`` rows.

    Raises:
        ValueError: a bad ``teacher``, ``n_players``, ``n_rounds`` or ``n_samples`` (the message names the
            allowed values).
    """
    from agents import make_agent
    from seers_env import DEFAULT_ARTIFACT_DECK, Game, GameConfig
    from seers_env.actions import Decision
    from seers_env.observation import observe
    from seers_env.seeding import child_seed
    from seers_env.view import SeatView

    if teacher not in TEACHERS:
        raise ValueError(f"teacher={teacher!r} is not allowed; choose one of {', '.join(TEACHERS)}")
    if n_players not in (2, 3, 4, 5):
        raise ValueError(f"n_players={n_players!r} is not allowed; choose one of 2, 3, 4, 5")
    if not is_integer(n_samples) or n_samples < 1:
        raise ValueError(f"n_samples={n_samples!r} must be an integer >= 1")
    if not is_integer(n_rounds) or n_rounds < 1:
        raise ValueError(f"n_rounds={n_rounds!r} must be an integer >= 1")
    deck = tuple(DEFAULT_ARTIFACT_DECK) if artifacts else ()
    t0 = time.perf_counter()
    obs, allowed, lengths, actions, returns = [], [], [], [], []
    games = 0
    while len(actions) < n_samples:
        game = Game(GameConfig(n_players, n_rounds, deck), seed=child_seed(seed, 0, games))
        agents = [make_agent(teacher, seed=child_seed(seed, 1, games, s)) for s in range(n_players)]
        rows: list[list[int]] = [[] for _ in range(n_players)]  # this game's rows of each seat, in order
        reward: dict[int, float] = {}  # row -> reward that follows it
        base = len(actions)
        while not game.game_over:
            seat = game.current
            decision = Decision(game.legal_plays(), seat, n_players)
            play = agents[seat].act(SeatView(game, seat))
            for a in decision.actions_for(play):
                rows[seat].append(len(actions))
                obs.append(observe(game, seat, decision))
                ids = decision.legal_actions()
                allowed.append(np.asarray(ids, dtype=np.int32))
                lengths.append(len(ids))
                actions.append(a)
                decision.choose(a)
            result = game.apply(play)
            if result.round_scores is not None:
                for s in range(n_players):
                    if rows[s]:
                        last = rows[s][-1]
                        reward[last] = reward.get(last, 0.0) + reward_scale * float(result.round_scores[s])
        returns.extend([0.0] * (len(actions) - base))
        for s in range(n_players):
            g = 0.0
            for r in reversed(rows[s]):
                g = reward.get(r, 0.0) + gamma * g
                returns[r] = g
        games += 1
        if progress is not None:
            progress(len(actions))
    n = n_samples
    lens = np.asarray(lengths[:n], dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    return Demonstrations(obs=np.stack(obs[:n]).astype(np.float32), allowed=np.concatenate(allowed[:n]),
                          offsets=offsets, actions=np.asarray(actions[:n], dtype=np.int64),
                          returns=np.asarray(returns[:n], dtype=np.float32), games=games,
                          seconds=time.perf_counter() - t0)


@dataclass
class PretrainResult:
    """What :func:`pretrain` did.

    Attributes:
        epochs: passes over the data. samples: rows.
        loss: per epoch, mean total loss (cross-entropy + ``vf_coef`` x value MSE).
        cross_entropy: per epoch, mean masked cross-entropy of the teacher's actions (nats).
        value_mse: per epoch, mean squared error of the value head (reward units squared).
        accuracy: per epoch, share of rows where the policy's most probable legal action is the teacher's
            (measured on the minibatches while training, i.e. train accuracy).
        choice_accuracy: the same over rows with two or more allowed actions only.
        seconds: wall time.
    """

    epochs: int
    samples: int
    loss: list
    cross_entropy: list
    value_mse: list
    accuracy: list
    choice_accuracy: list
    seconds: float

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def pretrain(model, demos: Demonstrations, epochs: int = 4, batch_size: int = 256, learning_rate: float = 1e-3,
             seed: int = 0, vf_coef: float = 0.5, progress: Callable[[int, dict], None] | None = None
             ) -> PretrainResult:
    """Behaviour cloning of ``demos`` into ``model.policy`` (in place), with value regression.

    Minimises ``-log pi(a_teacher | s, mask) + vf_coef * (V(s) - G)^2`` over shuffled minibatches with
    Adam (a fresh optimiser; the model's own PPO optimiser is untouched). The policy is sb3-contrib's
    ``MaskableActorCriticPolicy``; its masked logits (illegal ones ``-1e8``, as in
    ``get_distribution(obs, action_masks)``) and values come from one forward pass. Dense masks are built
    per minibatch.

    Args:
        model: ``sb3_contrib.MaskablePPO`` (its ``policy`` is trained).
        demos: from :func:`collect_demonstrations`.
        epochs, batch_size: >= 1. learning_rate: > 0. vf_coef: >= 0 weight of the value loss.
        seed: seeds the shuffling (numpy) and torch.
        progress: called after each epoch with ``(epoch, {"loss", "cross_entropy", "value_mse",
            "accuracy"})``.

    Returns:
        :class:`PretrainResult` (final train accuracy: ``accuracy[-1]``).

    Raises:
        ValueError: bad ``epochs``, ``batch_size``, ``learning_rate`` or ``vf_coef``; empty ``demos``.
    """
    import torch as th

    for key, value in (("epochs", epochs), ("batch_size", batch_size)):
        if not is_integer(value) or value < 1:
            raise ValueError(f"{key}={value!r} must be an integer >= 1")
    if not learning_rate > 0 or not vf_coef >= 0:
        raise ValueError(f"learning_rate={learning_rate!r} must be > 0 and vf_coef={vf_coef!r} >= 0")
    if len(demos) == 0:
        raise ValueError("no demonstrations to pretrain on")
    t0 = time.perf_counter()
    th.manual_seed(seed)
    rng = np.random.default_rng(seed)
    policy = model.policy
    policy.set_training_mode(True)
    n_actions = policy.action_space.n
    opt = th.optim.Adam(policy.parameters(), lr=learning_rate)
    obs_all = th.as_tensor(demos.obs)
    act_all = th.as_tensor(demos.actions)
    ret_all = th.as_tensor(demos.returns)
    multi = np.diff(demos.offsets) > 1
    hist = {"loss": [], "cross_entropy": [], "value_mse": [], "accuracy": [], "choice_accuracy": []}
    n = len(demos)
    for epoch in range(epochs):
        order = rng.permutation(n)
        tot = {"loss": 0.0, "ce": 0.0, "mse": 0.0, "hit": 0, "multi_hit": 0}
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            masks = demos.masks(idx, n_actions)
            idx_t = th.as_tensor(idx)
            obs, act, ret = obs_all[idx_t], act_all[idx_t], ret_all[idx_t]
            logits, values = _forward(policy, obs, th.as_tensor(masks))
            log_prob = th.log_softmax(logits, dim=1).gather(1, act[:, None]).squeeze(1)
            ce = -log_prob.mean()
            mse = th.nn.functional.mse_loss(values, ret)
            loss = ce + vf_coef * mse
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            hit = (logits.detach().argmax(dim=1) == act).numpy()
            b = len(idx)
            tot["loss"] += loss.item() * b
            tot["ce"] += ce.item() * b
            tot["mse"] += mse.item() * b
            tot["hit"] += int(hit.sum())
            tot["multi_hit"] += int(hit[multi[idx]].sum())
        hist["loss"].append(tot["loss"] / n)
        hist["cross_entropy"].append(tot["ce"] / n)
        hist["value_mse"].append(tot["mse"] / n)
        hist["accuracy"].append(tot["hit"] / n)
        hist["choice_accuracy"].append(tot["multi_hit"] / max(int(multi.sum()), 1))
        if progress is not None:
            progress(epoch, {k: v[-1] for k, v in hist.items()})
    policy.set_training_mode(False)
    return PretrainResult(epochs=epochs, samples=n, seconds=time.perf_counter() - t0, **hist)


def _forward(policy, obs, masks):
    """Masked logits ``(B, N_ACTIONS)`` (illegal ones ``-1e8``, as sb3-contrib's ``MaskableCategorical``)
    and values ``(B,)`` of a ``MaskableActorCriticPolicy`` in one pass."""
    import torch as th

    features = policy.extract_features(obs)
    if isinstance(features, tuple):  # separate feature extractors
        latent_pi, latent_vf = policy.mlp_extractor.forward_actor(features[0]), \
            policy.mlp_extractor.forward_critic(features[1])
    else:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    logits = policy.action_net(latent_pi)
    logits = th.where(masks, logits, th.full_like(logits, -1e8))
    return logits, policy.value_net(latent_vf).flatten()


def masked_cross_entropy(model, demos: Demonstrations) -> float:
    """Mean masked cross-entropy (nats) of the teacher's actions under ``model.policy`` (no gradient)."""
    import torch as th

    policy = model.policy
    n_actions = policy.action_space.n
    total = 0.0
    with th.no_grad():
        for start in range(0, len(demos), 1024):
            idx = np.arange(start, min(start + 1024, len(demos)))
            obs = th.as_tensor(demos.obs[idx])
            logits, _ = _forward(policy, obs, th.as_tensor(demos.masks(idx, n_actions)))
            act = th.as_tensor(demos.actions[idx])
            total += -float(th.log_softmax(logits, dim=1).gather(1, act[:, None]).sum())
    return total / len(demos)


__all__ = ["TEACHERS", "Demonstrations", "PretrainResult", "collect_demonstrations", "masked_cross_entropy",
           "pretrain"]
