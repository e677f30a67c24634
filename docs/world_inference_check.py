"""How often the determinizer's samples contradict the round's public plays, and how concentrated the
policy's weights over a pool of samples are (``docs/guided_search.md``, "Weighted worlds").

    PYTHONPATH=$PWD python docs/world_inference_check.py --deals 40 --seed 0

For each table (2 to 5 players, 2 rounds of heuristic play from deals ``seed``, ``seed + 1``, ...), at
about 15% of the positions: the share of 3 samples per position in which a play of the round is illegal
(``ISMCTSAgent._consistent``). At 4 players, at 30% of the positions with a choice of 12 deals: the
effective size of a pool of 64 samples weighted by the shipped model's likelihood (``floor`` 0 and 0.1)
and its CPU time.

With ``--truth-games N`` it also plays N 4-player rounds of the shipped learned agent (deals ``seed +
900``, ...) and, at each of seat 0's decisions with a choice, draws a pool of ``--pool`` samples and
reports the share of the other seats' unseen suited cards that a sample puts in the hand that really
holds them: the uniform mean over the pool (what plain ISMCTS searches) and the mean weighted by the
policy's likelihood (``worlds=...,inference=policy``) at temperature 3, floor 0.1 and at temperature 1,
floor 0, and with ``opponents="mixture"`` (each other seat as the network or as an ISMCTS player). The
paired gain (weighted minus uniform) with its Student-t 95% interval says how much the weights move
the samples toward the real deal; each setting minus the first is paired too (the same pools).
``--truth-agents ismcts:150`` has ISMCTS play those rounds instead (the likelihood still models the
network, or the mixture).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def main() -> None:
    from agents.heuristic import HeuristicAgent
    from agents.ismcts import ISMCTSAgent, pool_weights
    from seers_env.game import Game, GameConfig
    from seers_env.view import SeatView
    from train.guided_search import NetworkGuide
    from train.scoring_policy import LearnedAgent

    ap = argparse.ArgumentParser(description="How often sampled worlds contradict the round's plays, and how "
                                              "well the policy's weights find the real deal (see the source).")
    ap.add_argument("--deals", type=int, default=40, help="deals per table of the contradiction count")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals and the samples")
    ap.add_argument("--truth-games", type=int, default=0,
                    help="rounds (of --truth-agents' play) for the correct-hand measurement (0: skip it)")
    ap.add_argument("--pool", type=int, default=32, help="samples per pool in that measurement")
    ap.add_argument("--truth-agents", default="learned",
                    help="agent spec (or 4 comma-separated, one per seat) that plays those rounds; seat 0's "
                         "decisions are measured, e.g. ismcts:150 (default: learned)")
    args = ap.parse_args()
    if args.truth_games:
        truth_check(args.truth_games, args.pool, args.seed, args.truth_agents)
        return
    rng = np.random.default_rng(args.seed)
    print("players  samples  contradicting  share")
    for n in (2, 3, 4, 5):
        bad = total = 0
        for d in range(args.deals):
            g = Game(GameConfig(n_players=n, n_rounds=2), seed=args.seed + d)
            heuristic = HeuristicAgent(seed=d)
            while not g.game_over:
                view = SeatView(g, g.current)
                if rng.random() < 0.15:
                    det = view.determinizer()
                    for _ in range(3):
                        bad += ISMCTSAgent._consistent(det, det.sample(rng)) != 0.0
                        total += 1
                g.apply(heuristic.act(view))
        print(f"{n:7d}  {total:7d}  {bad:13d}  {bad / total:5.3f}")

    learned = LearnedAgent(None, seed=0)
    guides = {}
    ess: dict[float, list[float]] = {0.0: [], 0.1: []}
    cpu = []
    for d in range(12):
        g = Game(GameConfig(n_players=4, n_rounds=1), seed=args.seed + 500 + d)
        heuristic = HeuristicAgent(seed=d)
        while not g.game_over:
            view = SeatView(g, g.current)
            if len(view.legal_plays()) > 1 and rng.random() < 0.3:
                if not guides:
                    learned.act(view)
                    guides = {f: NetworkGuide(learned.net, temperature=3.0, floor=f) for f in ess}
                det = view.determinizer()
                pool = [det.sample(rng) for _ in range(64)]
                for floor, guide in guides.items():
                    start = time.process_time()
                    log_w = np.array([guide.world_log_likelihood(det, w) for w in pool])
                    cpu.append(time.process_time() - start)
                    if np.isfinite(log_w).any():
                        ess[floor].append(1.0 / np.sum(pool_weights(log_w) ** 2))
            g.apply(heuristic.act(view))
    print(f"\n4 players, pools of 64 samples at {len(ess[0.0])} decisions, "
          f"{1000 * np.median(cpu):.0f} ms of CPU per pool (median):")
    for floor, values in ess.items():
        q = np.quantile(values, [0.1, 0.5, 0.9])
        print(f"  floor {floor}: effective worlds 10%/50%/90% {q[0]:.1f} / {q[1]:.1f} / {q[2]:.1f}")


def _correct_share(world, real, seats: list[int]) -> float:
    """Share of the hidden suited cards in ``seats``' real hands that ``world`` puts in the same hands."""
    from collections import Counter

    from seers_env.engine.cards import WILD

    right = total = 0
    for s in seats:
        known = Counter(real.known[s])  # taken publicly (the Rod): not hidden
        truth = Counter(c for c in real.hands[s] if c < WILD) - known
        sampled = Counter(c for c in world.hands[s] if c < WILD) - known
        right += sum((truth & sampled).values())
        total += sum(truth.values())
    return right / total if total else 1.0


def truth_check(games: int, pool_size: int, seed: int, agents: str = "learned") -> None:
    """Print the uniform and policy-weighted correct-hand shares (see the module docstring).

    ``agents``: one spec for every seat, or 4 comma-separated (``agents.specs.make_agent``) that play the
    rounds; the likelihood always models the other seats as the shipped network.
    """
    from agents.heuristic import HeuristicAgent
    from agents.ismcts import pool_weights, top_indices
    from agents.specs import make_agent
    from train.guided_search import OPPONENT_TOP_K
    from agents.tournament import difference_stats
    from seers_env.game import Game, GameConfig
    from seers_env.view import SeatView
    from train.guided_search import NetworkGuide
    from train.scoring_policy import LearnedAgent

    rng = np.random.default_rng(seed)
    learned = LearnedAgent(None, seed=seed)
    ranker = HeuristicAgent()
    many = in_top = 0
    specs = agents.split(",")
    if len(specs) == 1:
        specs = specs * 4
    if len(specs) != 4:
        raise SystemExit(f"--truth-agents {agents!r}: give one spec or 4 (one per seat)")
    players = [make_agent(s.strip(), seed=seed + i) for i, s in enumerate(specs)]
    settings = {"T=3, floor 0.1": (3.0, 0.1), "T=1, floor 0": (1.0, 0.0),
                "T=3, floor 0.1, mixture": (3.0, 0.1, "mixture"),
                "T=1, floor 0.1, mixture": (1.0, 0.1, "mixture")}
    guides: dict[str, NetworkGuide] = {}
    uniform: list[float] = []
    gains: dict[str, list[float]] = {k: [] for k in settings}
    ess: dict[str, list[float]] = {k: [] for k in settings}
    for d in range(games):
        g = Game(GameConfig(n_players=4, n_rounds=1), seed=seed + 900 + d)
        while not g.game_over:
            view = SeatView(g, g.current)
            if g.current == 0 and len(view.legal_plays()) > 1:
                if not guides:
                    learned.act(view)
                    guides = {k: NetworkGuide(learned.net, temperature=v[0], floor=v[1],
                                              opponents=v[2] if len(v) > 2 else "network")
                              for k, v in settings.items()}
                det = view.determinizer()
                pool = [det.sample(rng) for _ in range(pool_size)]
                share = np.array([_correct_share(w, g, det.others) for w in pool])
                uniform.append(float(share.mean()))
                for key, guide in guides.items():
                    w = pool_weights(np.array([guide.world_log_likelihood(det, world) for world in pool]))
                    gains[key].append(float(w @ share) - uniform[-1])
                    ess[key].append(float(1.0 / np.sum(w ** 2)))
            play = players[g.current].act(view)
            legal = view.legal_plays()
            if len(legal) > OPPONENT_TOP_K:
                index = next(i for i, q in enumerate(legal) if q.identity() == play.identity())
                many += 1
                in_top += index in top_indices(ranker.score_array(view), OPPONENT_TOP_K)
            g.apply(play)
    n = len(uniform)
    print(f"4 players, {games} rounds of {agents} play, {n} decisions of seat 0 with a choice, "
          f"pools of {pool_size}:")
    print(f"  plays among the heuristic's {OPPONENT_TOP_K} best, of the {many} with more than "
          f"{OPPONENT_TOP_K} to choose from: {in_top / max(many, 1):.2f}")
    print(f"  uniform samples: {np.mean(uniform):.3f} of the unseen suited cards in the right hand")
    for key in settings:
        gain = difference_stats(np.array(gains[key]))
        low, high = gain["ci"] or (math.nan, math.nan)
        print(f"  weighted, {key}: gain {gain['mean_diff']:+.3f} [{low:+.3f}, {high:+.3f}], "
              f"effective worlds {np.median(ess[key]):.1f} (median)")
    first = next(iter(settings))
    for key in list(settings)[1:]:
        gain = difference_stats(np.array(gains[key]) - np.array(gains[first]))
        low, high = gain["ci"] or (math.nan, math.nan)
        print(f"  {key} minus {first}: {gain['mean_diff']:+.3f} [{low:+.3f}, {high:+.3f}] (same pools)")


if __name__ == "__main__":
    main()
