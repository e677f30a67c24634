"""CPU per decision of the weighted-world search with and without the priors each tree node keeps per
world (``agents.ismcts.ISMCTSAgent._descend_puct``), on the same positions, in the same run.

    PYTHONPATH=$PWD python docs/kept_priors_cpu.py --spec learned+search:450:worlds=64:opponents=mixture \\
        --decisions 24 --seed 0

The positions are ``seers bench search``'s (the heuristic's one-round 4-player games from ``--seed``),
and so is the timing (``seers_cli.search_bench.decision_cpu``): each variant is one agent of the spec
(seed ``--seed``) deciding at every position in turn, after an untimed first decision; the variant
without kept priors asks the network at every visit of a node, as the search did before. Prints each
variant's mean CPU (process time) per decision, their ratio, and whether the two chose the same play at
every position (they must: the same world and path give the same position, hence the same priors).
"""

from __future__ import annotations

import argparse
import textwrap


def main() -> None:
    from agents.ismcts import ISMCTSAgent
    from agents.specs import make_agent
    from seers_cli.search_bench import decision_cpu, search_positions

    ap = argparse.ArgumentParser(description="The search's CPU per decision with and without kept priors.")
    ap.add_argument("--spec", default="learned+search:450:worlds=64:opponents=mixture",
                    help="a learned+search spec with worlds= (default: %(default)s)")
    ap.add_argument("--decisions", type=int, default=24, help="positions (default 24)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    args = ap.parse_args()
    if args.decisions < 1 or args.seed < 0:
        raise SystemExit("--decisions must be >= 1 and --seed >= 0")
    positions = search_positions("seers_catalog", 4, args.decisions, args.seed)

    def without(agent):
        def descend(root, game, start_round, parts, root_prior, root_visits, world=None):
            return ISMCTSAgent._descend_puct(agent, root, game, start_round, parts, root_prior, root_visits, None)

        agent._descend_puct = descend
        return agent

    first = make_agent(args.spec, seed=args.seed)
    if not getattr(first, "worlds", 0):
        raise SystemExit(f"--spec {args.spec!r} has no worlds=<M>: nothing is kept without a pool")
    kept = decision_cpu(args.spec, positions, "seers_catalog", args.seed, agent=first)
    print(f"kept priors: {kept['mean_ms']:,.1f} ms per decision", flush=True)
    fresh = decision_cpu(args.spec, positions, "seers_catalog", args.seed,
                         agent=without(make_agent(args.spec, seed=args.seed)))
    print(f"no kept priors: {fresh['mean_ms']:,.1f} ms per decision", flush=True)
    print(textwrap.fill(f"{args.spec}, {len(positions)} positions (seed {args.seed}): without / with kept "
                        f"priors {fresh['mean_ms'] / kept['mean_ms']:.2f}x; the same plays at every position: "
                        f"{kept['plays'] == fresh['plays']}", 80, subsequent_indent="  ",
                        break_on_hyphens=False))

if __name__ == "__main__":
    main()
