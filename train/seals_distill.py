"""Seals: distil rollout values into the play-scoring network (approximate policy iteration).

PPO on Seals ties the heuristic (``docs/models_seals.md``): a round's outcome is mostly the pile's
order, and one round's reward says little about one take. Here every training decision carries the
value of *each* of its legal takes instead: the mean round reward of :class:`agents.seals_rollout.
SealsRolloutAgent`'s rollouts (the heuristic in every seat, ``K`` pile shuffles shared by all takes).
The network is fitted to the Boltzmann distribution of those values, ``softmax(Q / temperature)``
within each decision (soft cross-entropy; policy distillation, Rusu et al. 2016, of a rollout policy,
Tesauro and Galperin 1996; the policy-iteration step of Lagoudakis and Parr 2003), and its value head
to the heuristic take's value. Its greedy play is then the take with the best estimated value, with
the rollout noise averaged over many similar decisions rather than suffered at each.

Decisions come from games with the heuristic in every seat (the positions the evaluation meets); a
declaration's value is its Marks (declaring nothing: 0). Usage::

    python -m train.seals_distill --players 3 --decisions 60000 --rollouts 64 --seed 31 \\
        --out runs/seals3_distill

writes ``data.npz`` (the decisions), ``model.pt`` (a ``learned:`` model file) and ``summary.json``.
Every hyperparameter is a flag (``--help``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from multiprocessing import get_context

from typing import Annotated, Optional

import numpy as np
import typer


@dataclass
class DistillData:
    """Decisions with a value per legal play.

    Attributes:
        states: float32 ``(N, STATE_DIM)``; hidden: float32 ``(N, privileged_dim)``; plays: float32
            ``(R, PLAY_DIM + 1)`` (last column: the heuristic's score); offsets: int64 ``(N + 1,)``;
        q: float32 ``(R,)``, each play's value in Marks (mean round reward of its rollouts);
        heuristic: int64 ``(N,)``, the heuristic's play within each decision.
    """

    states: np.ndarray
    hidden: np.ndarray
    plays: np.ndarray
    offsets: np.ndarray
    q: np.ndarray
    heuristic: np.ndarray

    def __len__(self) -> int:
        return len(self.heuristic)


def collect(n_players: int, decisions: int, rollouts: int, seed: int, report_every: float = 0.0) -> DistillData:
    """``decisions`` decisions (at least; whole games) of heuristic self-play with rollout values;
    with ``report_every > 0``, a progress line (decisions, rate, ETA) on stdout every that many seconds.

    Raises:
        ValueError: ``n_players`` not in 2..4 (from :class:`~seers_env.seals.game.SealsConfig`).
    """
    from agents.seals import SealsHeuristicAgent
    from agents.seals_rollout import SealsRolloutAgent
    from seers_env.seals.game import PHASE_TAKE, SealsConfig, SealsGame
    from seers_env.seals.view import SealsSeatView

    from .game_adapters import game_adapter

    a = game_adapter("seals")
    rng = np.random.default_rng(seed)
    heuristic = SealsHeuristicAgent()
    roll = SealsRolloutAgent(rollouts, seed=int(rng.integers(2**62)))
    config = SealsConfig(n_players=n_players)
    states, hidden, plays, q, hchoice = [], [], [], [], []
    t0 = last = time.perf_counter()
    while len(hchoice) < decisions:
        now = time.perf_counter()
        if report_every > 0 and now - last >= report_every and hchoice:
            last = now
            rate = len(hchoice) / (now - t0)
            eta = max(0.0, (decisions - len(hchoice)) / rate)
            print(f"  {len(hchoice):,}/{decisions:,} decisions of this process, {rate:.0f}/s, "
                  f"ETA {eta / 60:.0f} min", flush=True)
        game = SealsGame(config, seed=int(rng.integers(2**62)))
        while not game.game_over:
            seat = game.current
            view = SealsSeatView(game, seat)
            legal = game.legal_plays()
            play = heuristic.act(view)
            if len(legal) > 1:
                if game.phase == PHASE_TAKE:
                    takes, rewards, _ = roll.take_values(view)
                    assert takes == legal
                    values = rewards.mean(axis=1)
                else:
                    values = np.array([p.marks() for p in legal], np.float64)
                states.append(a.encode_state(view))
                plays.append(a.play_rows(view, legal, True))
                hidden.append(a.privileged(game, seat))
                q.append(values.astype(np.float32))
                hchoice.append(legal.index(play))
            game.apply(play)
    offsets = np.zeros(len(hchoice) + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in plays])
    return DistillData(np.stack(states), np.stack(hidden), np.concatenate(plays), offsets, np.concatenate(q),
                       np.asarray(hchoice, np.int64))


def _collect_job(args):
    return collect(*args)  # (n_players, decisions, rollouts, seed, report_every)


def collect_parallel(n_players: int, decisions: int, rollouts: int, seed: int, workers: int) -> DistillData:
    """:func:`collect` split over ``workers`` processes (each its own seed from ``SeedSequence(seed)``)."""
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(workers)]
    share = -(-decisions // workers)
    # the first process reports for all (each has the same share); its decision counts are per process
    jobs = [(n_players, share, rollouts, s, 30.0 if i == 0 else 0.0) for i, s in enumerate(seeds)]
    if workers == 1:
        parts = [_collect_job(jobs[0])]
    else:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_collect_job, jobs)
    return concat(parts)


def concat(parts: list[DistillData]) -> DistillData:
    """One :class:`DistillData` from several (offsets renumbered)."""
    offs, rows = [np.zeros(1, np.int64)], 0
    for p in parts:
        offs.append(p.offsets[1:] + rows)
        rows += int(p.offsets[-1])
    cat = np.concatenate
    return DistillData(cat([p.states for p in parts]), cat([p.hidden for p in parts]), cat([p.plays for p in parts]),
                       cat(offs), cat([p.q for p in parts]), cat([p.heuristic for p in parts]))


def save_data(data: DistillData, path: str) -> None:
    np.savez_compressed(path, **{k: getattr(data, k) for k in DistillData.__dataclass_fields__})


class DistillDataError(ValueError):
    """A ``data.npz`` that is missing, not an ``.npz`` archive of numeric arrays, or not :class:`DistillData`
    (the message names the file and what is wrong)."""


def load_data(path: str) -> DistillData:
    """The decisions saved by :func:`save_data`, read without unpickling anything.

    Raises:
        DistillDataError: no file at ``path``, not an ``.npz`` archive, an object (pickled) array, a missing
            array, or arrays whose shapes or offsets disagree.
    """
    if not os.path.isfile(path):
        raise DistillDataError(f"--data {path!r}: no such file")
    names = DistillData.__dataclass_fields__
    try:
        with np.load(path, allow_pickle=False) as z:
            if not hasattr(z, "files"):
                raise DistillDataError(f"--data {path!r} is a single .npy array, not an .npz archive of "
                                       f"{', '.join(names)}")
            missing = [k for k in names if k not in z.files]
            if missing:
                raise DistillDataError(f"--data {path!r} lacks the arrays {', '.join(missing)}")
            arrays = {k: z[k] for k in names}
    except DistillDataError:
        raise
    except Exception as err:  # a damaged archive, an object array (refused: no unpickling), not numpy at all
        raise DistillDataError(f"--data {path!r} is not a readable .npz of numeric arrays "
                               f"({type(err).__name__}: {err})") from None
    d = DistillData(**arrays)
    n, off = len(d.heuristic), d.offsets
    ok = (all(a.dtype.kind in "fiu" for a in arrays.values()) and d.states.ndim == 2 and d.hidden.ndim == 2
          and d.plays.ndim == 2 and off.ndim == 1 and d.q.ndim == 1 and d.heuristic.ndim == 1 and n > 0
          and len(d.states) == n and len(d.hidden) == n and len(off) == n + 1 and off[0] == 0
          and bool(np.all(np.diff(off) >= 1)) and off[-1] == len(d.plays) == len(d.q)
          and bool(np.all((d.heuristic >= 0) & (d.heuristic < np.diff(off)))))
    if not ok:
        raise DistillDataError(f"--data {path!r}: the arrays' shapes, dtypes or offsets do not make decisions "
                               f"(see DistillData)")
    return d


def fit(data: DistillData, n_players: int, temperature: float, epochs: int, lr: float, minibatch: int,
        seed: int, hidden_width: int = 64, log=print):
    """Fits a fresh :class:`~train.scoring_policy.PlayScoringNet` (the heuristic prior as input) to
    ``softmax(q / temperature)`` per decision; returns ``(net, cfg, stats)``."""
    import torch

    from .scoring_policy import segment_log_softmax
    from .selfplay import SelfPlayConfig

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    cfg = SelfPlayConfig(game="seals", n_players=n_players, hidden=hidden_width, seed=seed)
    from .scoring_policy import PlayScoringNet

    net = PlayScoringNet(cfg.net_config())
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    n = len(data)
    sizes = np.diff(data.offsets)
    heur_q = data.q[data.offsets[:-1] + data.heuristic]
    stats = {}
    for epoch in range(epochs):
        perm = rng.permutation(n)
        ce_sum, steps, regret = 0.0, 0, 0.0
        net.train()
        for start in range(0, n, minibatch):
            idx = np.sort(perm[start:start + minibatch])
            rows = np.concatenate([np.arange(data.offsets[i], data.offsets[i + 1]) for i in idx])
            seg = torch.from_numpy(np.repeat(np.arange(len(idx)), sizes[idx]))
            logits, values = net(torch.from_numpy(data.states[idx]), torch.from_numpy(data.plays[rows]), seg,
                                 torch.from_numpy(data.hidden[idx]))
            q = torch.from_numpy(data.q[rows])
            target = segment_log_softmax(q / temperature, seg, len(idx)).exp()
            logp = segment_log_softmax(logits, seg, len(idx))
            ce = -(target * logp).sum() / len(idx)
            vl = 0.5 * (values - torch.from_numpy(heur_q[idx])).pow(2).mean()
            loss = ce + 0.5 * vl
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                top = torch.full((len(idx),), -torch.inf).scatter_reduce(0, seg, logits, "amax")
                pick = (logits >= top[seg]).float()
                chosen_q = torch.zeros(len(idx)).index_add(0, seg, pick * q) / torch.zeros(len(idx)).index_add(
                    0, seg, pick)
                best_q = torch.full((len(idx),), -torch.inf).scatter_reduce(0, seg, q, "amax")
                regret += float((best_q - chosen_q).mean())
            ce_sum += float(ce.detach())
            steps += 1
        stats = {"soft_ce": ce_sum / steps, "regret_vs_rollout_best": regret / steps}
        log(f"epoch {epoch + 1}/{epochs}: soft cross-entropy {stats['soft_ce']:.4f}, "
            f"regret {stats['regret_vs_rollout_best']:.4f} Marks/decision")
    net.eval()
    return net, cfg, stats


def main(players: Annotated[int, typer.Option(help="Players at the table (2..4).")] = 3,
         decisions: Annotated[int, typer.Option(help="Decisions to collect (whole games; more than one "
                                                     "legal play each).")] = 60_000,
         rollouts: Annotated[int, typer.Option(help="Pile shuffles per decision, shared by its takes.")] = 64,
         temperature: Annotated[float, typer.Option(help="Of the target softmax(Q / T), in Marks.")] = 0.1,
         epochs: Annotated[int, typer.Option(help="Passes over the decisions.")] = 20,
         lr: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-3,
         minibatch: Annotated[int, typer.Option(help="Decisions per gradient step.")] = 256,
         hidden: Annotated[int, typer.Option(help="Hidden width of the play-scoring network.")] = 64,
         seed: Annotated[int, typer.Option(help="Seeds the games, the shuffles and the network.")] = 31,
         workers: Annotated[int, typer.Option(help="Collection processes (one per core).")] = 2,
         out: Annotated[str, typer.Option(help="Run folder.")] = "runs/seals_distill",
         data: Annotated[Optional[str], typer.Option(help="Fit on this data.npz instead of "
                                                          "collecting.")] = None) -> None:
    """Distil rollout values into a Seals play-scoring network.

    Collects decisions of heuristic self-play valued by rollout:ROLLOUTS (or loads --data).

    Writes OUT/data.npz, OUT/model.pt (agent spec learned:OUT/model.pt), OUT/summary.json.

    The shipped models' commands: docs/models_seals.md.
    """
    from agents.seals_rollout import SealsRolloutAgent
    from seers_env.seals.game import SealsConfig

    from .scoring_policy import save_policy

    try:
        SealsConfig(n_players=players)  # ValueError naming a bad player count, before any work
    except ValueError as err:
        raise typer.BadParameter(f"--players: {err}") from None
    try:
        SealsRolloutAgent(rollouts)  # ValueError naming a bad rollout count
    except ValueError as err:
        raise typer.BadParameter(f"--rollouts: {err}") from None
    for name, value in (("decisions", decisions), ("epochs", epochs), ("minibatch", minibatch),
                        ("hidden", hidden), ("workers", workers)):
        if value < 1:
            raise typer.BadParameter(f"{name}={value!r} is not allowed; use an integer >= 1")
    for name, value in (("temperature", temperature), ("lr", lr)):
        if not 0 < value < float("inf"):
            raise typer.BadParameter(f"{name}={value!r} is not allowed; use a finite number > 0")
    t0 = time.perf_counter()
    if data:
        try:
            d = load_data(data)
        except DistillDataError as err:
            raise typer.BadParameter(str(err)) from None
        os.makedirs(out, exist_ok=True)
        print(f"loaded {len(d):,} decisions from {data}")
    else:
        print(f"collecting {decisions:,} decisions of {players}-player heuristic self-play,\n"
              f"  rollout:{rollouts} values, {workers} processes (the first run compiles a minute or more)"
              f" ...", flush=True)
        d = collect_parallel(players, decisions, rollouts, seed, workers)
        os.makedirs(out, exist_ok=True)
        save_data(d, os.path.join(out, "data.npz"))
        print(f"  {len(d):,} decisions in {time.perf_counter() - t0:.0f} s", flush=True)
    q_h = d.q[d.offsets[:-1] + d.heuristic]
    q_best = np.maximum.reduceat(d.q, d.offsets[:-1])
    print("regret: Marks per decision the greedy play loses against the rollouts' best take")
    print(f"heuristic's regret {float((q_best - q_h).mean()):.4f} Marks/decision")
    t1 = time.perf_counter()
    net, cfg, stats = fit(d, players, temperature, epochs, lr, minibatch, seed, hidden)
    path = os.path.join(out, "model.pt")
    save_policy(net, cfg.model_config(), path,
                trained_with=f"train.seals_distill --players {players} --decisions {decisions} --rollouts "
                             f"{rollouts} --temperature {temperature} --epochs {epochs} --lr {lr} --seed {seed}")
    summary = {"players": players, "decisions": len(d), "rollouts": rollouts, "temperature": temperature,
               "epochs": epochs, "lr": lr, "minibatch": minibatch, "hidden": hidden, "seed": seed,
               "collect_s": t1 - t0, "fit_s": time.perf_counter() - t1, **stats}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(f"wrote {path} (agent spec learned:{path})")


if __name__ == "__main__":
    typer.run(main)
