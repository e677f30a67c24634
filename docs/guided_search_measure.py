"""Duplicate tournaments of guided-search variants (``docs/guided_search.md``): the variants that the
``learned+search`` spec string cannot name (leaf evaluation, prior temperature, c_puct).

    PYTHONPATH=$PWD python docs/guided_search_measure.py --search iterations=50,leaf=value,temperature=3 \\
        --others learned,learned,learned --games 10 --seed 9001 --rounds 1 --baseline learned

Each ``--search`` entry is one seat: comma-separated ``name=value`` keyword arguments of
:class:`train.guided_search.GuidedSearchAgent` (``iterations``, ``leaf``, ``rollout``, ``c_puct``,
``temperature``, ``center``, ``worlds``, ``inference``, ``floor``); ``--others`` are spec strings. Prints the ``seers eval`` table, the paired
differences from ``--baseline``, the CPU time per decision and, with ``--seat-baseline SPEC``, each
agent minus ``SPEC`` in the same seats of the same deals (``seers eval --seat-baseline``).

With one search seat, ``--others learned,learned,learned`` and ``--seat-baseline learned``, that last
difference is counterfactual: the learned agent plays its most probable play, so the table of the learned
agent alone replays each deal exactly as the search's table would have gone had the search played the
network's play, and the two games differ only after the search overrules the network.

``--oracle`` is a diagnostic: each search seat samples the real deal instead of a determinization (it
sees every hand), which bounds what better inference about the hidden cards could give.
"""

from __future__ import annotations

import argparse

from seers_env.view import SeatView
from train.guided_search import GuidedSearchAgent


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


class _RealDeal:
    """A determinizer whose every sample is the real deal (``--oracle``)."""

    def __init__(self, game):
        self._game = game

    def sample(self, rng):
        import numpy as np

        world = self._game.clone()
        world.rng = np.random.default_rng(int(rng.integers(2**63)))
        return world


class _OracleView(SeatView):
    """A Seers Catalog seat view whose determinizer samples the real deal."""

    __slots__ = ()

    def determinizer(self):
        return _RealDeal(self._game)


class OracleSearch(GuidedSearchAgent):
    """The guided search, searching the real deal (``--oracle``)."""

    def act(self, view):
        return super().act(_OracleView(view._game, view.seat))

    def __deepcopy__(self, memo):
        other = super().__deepcopy__(memo)
        other.__class__ = OracleSearch
        return other


def search_agent(options: str, oracle: bool = False):
    """A :class:`~train.guided_search.GuidedSearchAgent` from ``name=value,...``, named for them; with
    ``oracle``, one that searches the real deal."""
    kwargs = {}
    for part in filter(None, options.split(",")):
        name, _, value = part.partition("=")
        kwargs[name.strip()] = _value(value.strip())
    agent = (OracleSearch if oracle else GuidedSearchAgent)(**kwargs)
    agent.name = ("oracle" if oracle else "search") + "(" + ",".join(f"{k}={v}" for k, v in kwargs.items()) + ")"
    return agent


def main() -> None:
    from agents.tournament import (decision_time_line, paired_differences, print_table, run_tournament,
                                   seat_difference_lines, seat_differences)

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", action="append", default=[], help="a guided-search seat (repeatable)")
    ap.add_argument("--others", default="", help="comma-separated spec strings of the other seats")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=9001)
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline", default="")
    ap.add_argument("--seat-baseline", default="", help="also each agent minus this spec in the same seats")
    ap.add_argument("--oracle", action="store_true", help="search seats see the real deal (a diagnostic)")
    args = ap.parse_args()
    entries = [search_agent(s, args.oracle) for s in args.search] + [s.strip() for s in args.others.split(",") if s.strip()]
    result = run_tournament(entries, args.games, seed=args.seed, workers=args.workers, n_rounds=args.rounds,
                            progress=True)
    paired = paired_differences(result, args.baseline) if args.baseline else None
    print_table(result, wide=False, paired=paired)
    print(decision_time_line(result))
    if args.seat_baseline:
        print()
        print(seat_difference_lines(result, seat_differences(result, args.seat_baseline, workers=args.workers)))


if __name__ == "__main__":
    main()
