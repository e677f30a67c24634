"""Duplicate tournaments of guided-search variants (``docs/guided_search.md``): the variants that the
``learned+search`` spec string cannot name (leaf evaluation, prior temperature, c_puct).

    PYTHONPATH=$PWD python docs/guided_search_measure.py --search iterations=50,leaf=value,temperature=3 \\
        --others learned,learned,learned --games 10 --seed 9001 --rounds 1 --baseline learned

Each ``--search`` entry is one seat: comma-separated ``name=value`` keyword arguments of
:class:`train.guided_search.GuidedSearchAgent` (``iterations``, ``leaf``, ``rollout``, ``c_puct``,
``temperature``, ``center``, ``worlds``, ``inference``, ``floor``); ``--others`` are spec strings. Prints the ``seers eval`` table, the paired
differences from ``--baseline`` and the CPU time per decision.
"""

from __future__ import annotations

import argparse


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def search_agent(options: str):
    """A :class:`~train.guided_search.GuidedSearchAgent` from ``name=value,...``, named for them."""
    from train.guided_search import GuidedSearchAgent

    kwargs = {}
    for part in filter(None, options.split(",")):
        name, _, value = part.partition("=")
        kwargs[name.strip()] = _value(value.strip())
    agent = GuidedSearchAgent(**kwargs)
    agent.name = "search(" + ",".join(f"{k}={v}" for k, v in kwargs.items()) + ")"
    return agent


def main() -> None:
    from agents.tournament import decision_time_line, paired_differences, print_table, run_tournament

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", action="append", default=[], help="a guided-search seat (repeatable)")
    ap.add_argument("--others", default="", help="comma-separated spec strings of the other seats")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=9001)
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline", default="")
    args = ap.parse_args()
    entries = [search_agent(s) for s in args.search] + [s.strip() for s in args.others.split(",") if s.strip()]
    result = run_tournament(entries, args.games, seed=args.seed, workers=args.workers, n_rounds=args.rounds,
                            progress=False)
    paired = paired_differences(result, args.baseline) if args.baseline else None
    print_table(result, wide=False, paired=paired)
    print(decision_time_line(result))


if __name__ == "__main__":
    main()
