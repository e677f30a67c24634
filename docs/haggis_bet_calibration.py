"""How often the Haggis heuristic goes out first, by its bet strength (``docs/haggis_agents.md``).

``PYTHONPATH=. python docs/haggis_bet_calibration.py [--players N] [--deals D] [--seed S] [--opponent O]``
plays ``D`` one-round deals (seeds ``S .. S+D-1``): with ``--opponent self`` every seat is the heuristic
(one game per deal, every seat counted), with ``--opponent greedy`` the heuristic sits in each seat in
turn against greedy. The heuristic never bets here (bets change no play). Prints, per bin of
:meth:`agents.haggis.HaggisHeuristicAgent.strength` (without the lead bonus), the deals and the share
that went out first, overall and for the round leader (seat 0) and the others.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.haggis import HaggisGreedyAgent, HaggisHeuristicAgent
from seers_env.haggis import HaggisConfig, HaggisGame, HaggisSeatView

NEVER = {2: (0.0, -99.0, -99.0), 3: (0.0, -99.0, -99.0)}


def rows(n: int, deals: int, seed: int, opponent: str) -> np.ndarray:
    """``(strength, went out first, seat)`` per counted seat of every game."""
    out = []
    for deal in range(seed, seed + deals):
        for hs in range(n if opponent == "greedy" else 1):
            g = HaggisGame(HaggisConfig(n_players=n, n_rounds=1), seed=deal)
            h = HaggisHeuristicAgent(bet_thresholds=NEVER)
            agents = [HaggisGreedyAgent() if opponent == "greedy" else h for _ in range(n)]
            agents[hs] = h
            strength = [h.strength(g.hand(s), n) for s in range(n)]
            while not g.game_over:
                g.apply(agents[g.current].act(HaggisSeatView(g, g.current)))
            for s in ([hs] if opponent == "greedy" else range(n)):
                out.append((strength[s], g.out[0] == s, s))
    return np.array(out, dtype=float)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--opponent", choices=("self", "greedy"), default="self")
    a = ap.parse_args()
    r = rows(a.players, a.deals, a.seed, a.opponent)
    print(f"{a.players} players, {a.deals} deals from seed {a.seed}, heuristic vs {a.opponent}: "
          f"out first {r[:, 1].mean():.2f}")
    print("| strength | seats | out first | leader | others |")
    print("|:---------|------:|----------:|-------:|-------:|")
    edges = [-99, 5.0, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 99]
    for lo, hi in zip(edges, edges[1:]):
        m = (r[:, 0] >= lo) & (r[:, 0] < hi)
        if not m.any():
            continue
        lead, rest = m & (r[:, 2] == 0), m & (r[:, 2] != 0)
        name = f"< {hi:g}" if lo == -99 else f">= {lo:g}" if hi == 99 else f"{lo:g} - {hi:g}"

        def share(x):
            return f"{r[x, 1].mean():.2f}" if x.any() else "-"

        print(f"| {name:8s} | {int(m.sum()):5d} | {share(m):>9s} | {share(lead):>6s} | {share(rest):>6s} |")


if __name__ == "__main__":
    main()
