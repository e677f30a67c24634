"""Two agents against the same opponents on the same deals, from two ``seers eval --checkpoint`` files.

    PYTHONPATH=$PWD python docs/compare_checkpoints.py A.jsonl B.jsonl
    PYTHONPATH=$PWD python docs/compare_checkpoints.py A.jsonl      # A's margin alone

Each file is a duplicate tournament of the same seed, game and rounds whose first agent is the one
compared (``docs/guided_search.md``, "Opponent models"). For every deal in both files: the first
agent's mean game score over the seat rotations minus the mean of the other agents' (its margin over
the table), in each file, and A's margin minus B's on the same deal (a paired per-deal difference;
Student-t 95% intervals, ``agents.tournament.difference_stats``). The first agent's CPU time per
decision with a choice is printed beside it, pooled over the file's games.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import stat
import textwrap

import numpy as np


#: The longest first line read (a run's header is a few hundred bytes).
MAX_HEADER_BYTES = 65_536
#: Deal indices read from a checkpoint (:func:`agents.tournament.deal_seeds`): beyond any run's.
MAX_DEALS = 100_000


def margins(path: str) -> tuple[dict, dict[int, float], float, float]:
    """``(header, {deal: margin}, first agent's CPU ms per choice, the others' pooled)`` of a checkpoint,
    read and checked by :func:`agents.tournament.read_checkpoint` (the file is not changed).

    Raises:
        SystemExit: the file cannot be read, is not a regular file (a pipe: it would be read twice), or is
            not a sound tournament checkpoint (the message says why).
    """
    from agents.tournament import CheckpointError, deal_seeds, read_checkpoint

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SystemExit(f"{path}: not a regular file (a pipe or a device is read once, and a checkpoint "
                             f"twice); save it to a file first")
        with open(path, "rb") as f:
            first = f.readline(MAX_HEADER_BYTES)
        header = json.loads(first.decode("utf-8"))
    except OSError as err:
        raise SystemExit(f"{path}: cannot read it ({err.strerror or err})") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SystemExit(f"{path}: not a seers eval --checkpoint file (its first line is not a JSON "
                         f"header: {type(err).__name__})") from None
    problem = _header_problem(header)
    if problem:
        raise SystemExit(f"{path}: not a seers eval --checkpoint file ({problem})")
    try:
        deals = read_checkpoint(path, header, deal_seeds(header["seed"], MAX_DEALS), repair=False)
    except CheckpointError as err:
        raise SystemExit(f"{path}: {err}") from None
    if not deals:
        raise SystemExit(f"{path}: the checkpoint holds no finished deal")
    out: dict[int, float] = {}
    cpu = np.zeros(2)
    choices = np.zeros(2)
    for deal, records in deals.items():
        n = len(records[0]["agents"])
        totals = np.zeros(n)
        for rec in records:
            for seat, agent in enumerate(rec["agents"]):
                totals[agent] += rec["totals"][seat]
                k = 0 if agent == 0 else 1
                cpu[k] += rec["choice_cpu_s"][seat]
                choices[k] += rec["choices"][seat]
        totals /= len(records)
        out[int(deal)] = float(totals[0] - totals[1:].mean())
    ms = 1000 * cpu / np.maximum(choices, 1)
    return header, out, float(ms[0]), float(ms[1])


def _header_problem(header) -> str:
    """What is wrong with a checkpoint's first line (``""``: nothing), before the tournament's reader
    checks its deals against it: the fields this script reads must have their run's types."""
    if not isinstance(header, dict):
        return f"its first line is a JSON {type(header).__name__}, not an object"
    if not str(header.get("format", "")).startswith("seers-tournament-checkpoint"):
        return "its first line names no seers-tournament-checkpoint format"
    seed, specs, rounds = header.get("seed"), header.get("specs"), header.get("n_rounds")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**128):
        return f"seed {repr(seed)[:40]} is not an integer in 0..2**128"
    if not (isinstance(specs, list) and 2 <= len(specs) <= 8 and all(isinstance(x, str) for x in specs)):
        return "specs is not a list of 2 to 8 agent specs"
    if not (rounds is None or (isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 1)):
        return f"n_rounds {repr(rounds)[:40]} is not an integer >= 1"
    if not isinstance(header.get("game"), str):
        return "game is not a name"
    return ""


def main() -> None:
    from agents.tournament import difference_stats

    ap = argparse.ArgumentParser(description="Compare two seers eval --checkpoint files of the same deals: "
                                              "each first agent's margin over its table, and A minus B.")
    ap.add_argument("first", help="checkpoint A (.jsonl)")
    ap.add_argument("second", nargs="?", help="checkpoint B (.jsonl), the same seed, game and rounds; "
                                              "without it, A's margin alone")
    args = ap.parse_args()
    if args.second is None:
        header, a, cpu_a, other_a = margins(args.first)
        values = np.array([a[d] for d in sorted(a)])
        s = difference_stats(values)
        low, high = s["ci"] or (math.nan, math.nan)
        print(textwrap.fill(f"{len(a)} deals of seed {header.get('seed')}; {header['specs'][0]} minus the mean "
                            f"of the others, per game: {s['mean_diff']:+.2f} [{low:+.2f}, {high:+.2f}]; CPU ms "
                            f"per decision {cpu_a:.3g} (the others pooled: {other_a:.3g})", 80,
                            subsequent_indent="    ", break_on_hyphens=False))
        return
    if os.path.realpath(args.first) == os.path.realpath(args.second):
        raise SystemExit(f"both arguments name {args.first}: give two checkpoints to compare")
    (ha, a, cpu_a, other_a), (hb, b, cpu_b, other_b) = margins(args.first), margins(args.second)
    for key in ("game", "seed", "n_rounds"):
        if ha.get(key) != hb.get(key):
            raise SystemExit(f"the files differ in {key}: {ha.get(key)!r} and {hb.get(key)!r}")
    deals = sorted(set(a) & set(b))
    if len(deals) < 2:
        raise SystemExit(f"the files share {len(deals)} deal(s); at least 2 are needed")

    def line(label: str, values: np.ndarray) -> str:
        s = difference_stats(values)
        low, high = s["ci"] or (math.nan, math.nan)
        return f"{label}: {s['mean_diff']:+.2f} [{low:+.2f}, {high:+.2f}]"

    def ms(value: float) -> str:
        return f"{value:,.0f}" if value >= 10 else f"{value:.2g}"

    def say(text: str) -> None:
        print(textwrap.fill(text, 80, subsequent_indent="    ", break_on_hyphens=False))

    say(f"{len(deals)} deals of seed {ha.get('seed')} in both files; first agent minus the mean of the "
        f"others, per game:")
    for name, header, values, cpu, other in (("A", ha, a, cpu_a, other_a), ("B", hb, b, cpu_b, other_b)):
        say(f"  {name}: {header['specs'][0]}")
        say("    " + line("margin", np.array([values[d] for d in deals])) + f"; CPU ms per decision "
            f"{ms(cpu)} (the others pooled: {ms(other)})")
    say("  " + line("A minus B, same deals", np.array([a[d] - b[d] for d in deals])))

if __name__ == "__main__":
    main()
