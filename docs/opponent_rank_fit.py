"""Which of the heuristic's plays an agent picks: how much a rank model of ISMCTS opponents could add to
the uniform top-6 player of ``opponents=mixture`` (``train.guided_search.NetworkGuide``;
``docs/guided_search.md``, "Opponent models"). Measured, and not built: it adds about 0.05 nats per play.

    PYTHONPATH=$PWD python docs/opponent_rank_fit.py --agent ismcts:150 --rounds 40 --seed 77000

Plays ``--rounds`` 4-player rounds of Seers Catalog (deals ``seed``, ``seed + 1``, ...; one round each)
with the agent in every seat. At each decision with a choice it ranks the legal plays by the heuristic's
scores (``agents.heuristic.HeuristicAgent.score_array``, ties to the earlier play, as
``agents.ismcts.top_indices``) and records the rank of the play made. It prints the share of each rank,
apart for decisions with at most ``--top-k`` plays and with more, and for each the decay ``beta`` of
the model ``P(rank r) = exp(-beta r) / sum_j exp(-beta j)`` (over the ``n`` plays, or over the ``top-k``
best when there are more; a play outside them has probability 0) that is most likely on these decisions
(maximum likelihood over a grid of step 0.01 in [0, 4]), and the log-likelihood per decision gained
over the uniform choice among the same plays.
"""

from __future__ import annotations

import argparse
import math
import textwrap

import numpy as np


def rank_log_likelihood(beta: float, n: np.ndarray, rank: np.ndarray, top_k: int) -> float:
    """Summed log-probability of ``rank`` (int ``(D,)``) among ``min(n, top_k)`` choices (int ``(D,)``)
    under the decay model (module docstring); ``-inf`` when a rank is outside them."""
    m = np.minimum(n, top_k)
    if np.any(rank >= m):
        return -math.inf
    j = np.arange(top_k)
    norm = np.array([0.0] + [np.log(np.exp(-beta * j[:k]).sum()) for k in range(1, top_k + 1)])
    return float(np.sum(-beta * rank - norm[m]))


def fit_beta(n: np.ndarray, rank: np.ndarray, top_k: int) -> float:
    """The grid decay (0 to 4, step 0.01) of the highest :func:`rank_log_likelihood`."""
    grid = np.round(np.arange(0, 4.0001, 0.01), 2)
    return float(grid[int(np.argmax([rank_log_likelihood(b, n, rank, top_k) for b in grid]))])


def main() -> None:
    from agents.heuristic import HeuristicAgent
    from agents.ismcts import top_indices
    from agents.specs import make_agent
    from seers_env.game import Game, GameConfig
    from seers_env.view import SeatView

    ap = argparse.ArgumentParser(description="The heuristic's rank of the plays an agent picks, and the "
                                             "decay model fitted to them (see the source).")
    ap.add_argument("--agent", default="ismcts:150", help="agent spec of every seat (default ismcts:150)")
    ap.add_argument("--rounds", type=int, default=40, help="4-player rounds played (default 40)")
    ap.add_argument("--seed", type=int, default=77000, help="first deal's seed (default 77000)")
    ap.add_argument("--top-k", type=int, default=6, help="the plays an ISMCTS node keeps (default 6)")
    args = ap.parse_args()
    if args.rounds < 1 or not 1 <= args.top_k <= 50 or args.seed < 0:
        raise SystemExit("--rounds must be >= 1, --top-k in 1..50 and --seed >= 0")
    try:
        make_agent(args.agent, seed=0)
    except ValueError as err:
        raise SystemExit(f"--agent: {err}") from None
    ranker = HeuristicAgent()
    ns, ranks = [], []
    for r in range(args.rounds):
        g = Game(GameConfig(n_players=4, n_rounds=1), seed=args.seed + r)
        agents = [make_agent(args.agent, seed=args.seed + 10 * r + s) for s in range(4)]
        while not g.game_over:
            view = SeatView(g, g.current)
            legal = view.legal_plays()
            play = agents[g.current].act(view)
            if len(legal) > 1:
                order = top_indices(ranker.score_array(view), len(legal))
                index = next(i for i, q in enumerate(legal) if q.identity() == play.identity())
                ns.append(len(legal))
                ranks.append(order.index(index))
            g.apply(play)
        print(f"round {r + 1}/{args.rounds}: {len(ns)} decisions with a choice so far", flush=True)
    n, rank = np.array(ns), np.array(ranks)
    k = args.top_k
    print(f"\n{args.agent}, 4 players, {args.rounds} rounds (deals {args.seed}..{args.seed + args.rounds - 1}):")
    for label, sel in ((f"at most {k} plays", n <= k), (f"more than {k} plays", n > k)):
        if not sel.any():
            print(f"  {label}: none")
            continue
        shares = [float(np.mean(rank[sel] == j)) for j in range(k)] + [float(np.mean(rank[sel] >= k))]
        print(f"  {label}: {int(sel.sum())} decisions; share of rank 1..{k}, then worse:")
        print("    " + " ".join(f"{s:.3f}" for s in shares))
        inside = sel & (rank < k)
        beta = fit_beta(n[inside], rank[inside], k)
        gain = (rank_log_likelihood(beta, n[inside], rank[inside], k)
                - rank_log_likelihood(0.0, n[inside], rank[inside], k)) / max(int(inside.sum()), 1)
        edge = " (the grid's edge: the picks fit no decay)" if beta >= 4.0 else ""
        print(textwrap.fill(f"fitted beta {beta:.2f}{edge} (on the {int(inside.sum())} within the top {k}); "
                            f"log-likelihood over the uniform choice among them: {gain:+.3f} nats per "
                            f"decision", 80, initial_indent="    ", subsequent_indent="      "))


if __name__ == "__main__":
    main()
