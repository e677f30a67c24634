"""Why ``seers bench env --game haggis|seals`` runs its batch row in a child process (docs/seals_speed.md).

``PYTHONPATH=. python docs/game_bench_gc_check.py [GAME] [PAIRS]`` (default ``haggis 3``, seed 0):

1. the time of a full collection of Python's cyclic collector (which walks every live object; Python runs
   one now and then while objects are made), without and with the 256 batch games alive in this process;
2. ``PAIRS`` pairs of :func:`seers_cli.game_bench.run_game_bench` (3 s a row), alternated: the batch row in
   this process (its games alive in this heap) and in its child process (as the bench runs it); the AEC
   rows' ratios to Dou Dizhu in each.
"""

from __future__ import annotations

import gc
import sys
import time

from seers_cli import game_bench as gb


class InProcessBatch(gb.BatchSteps):
    """:class:`~seers_cli.game_bench.BatchSteps` with the context manager of ``ChildBatchSteps``."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def full_collection_ms(spec: gb.GameBench, repeats: int = 5) -> dict[str, float]:
    """``{"without batch": ms, "batch alive": ms}``: the mean wall time of a full collection
    (``gc.collect()``) after the warm-up, then with :data:`~seers_cli.game_bench.VECTOR_GAMES` batch games
    built and stepped for 1 s in this process."""
    def mean_ms() -> float:
        gc.collect()
        start = time.perf_counter()
        for _ in range(repeats):
            gc.collect()
        return 1e3 * (time.perf_counter() - start) / repeats

    gb.warm_up_game_bench(spec, 0)
    out = {"without batch": mean_ms()}
    batch = gb.BatchSteps(spec, 0)
    batch.steps_per_s(1.0)
    out["batch alive"] = mean_ms()
    return out


def main(argv: list[str]) -> None:
    spec = gb.GAMES[argv[0] if argv else "haggis"]
    pairs = int(argv[1]) if len(argv) > 1 else 3
    times = full_collection_ms(spec)
    print(f"{spec.game}: a full collection (gc.collect()) takes "
          + ", ".join(f"{ms:.1f} ms {name}" for name, ms in times.items()), flush=True)
    child = gb.ChildBatchSteps
    for _ in range(pairs):
        for name, batch_class in (("batch in this process", InProcessBatch), ("batch in a child", child)):
            gb.ChildBatchSteps = batch_class
            r = gb.run_game_bench(spec, 3.0, 0)
            dou = r["rlcard_doudizhu"]
            print(f"{name}: " + ", ".join(f"{row} {r[row] / dou:.2f}x" for row in spec.aec_rows.values())
                  + f" rlcard_doudizhu ({dou:,.0f} steps/s)", flush=True)
    gb.ChildBatchSteps = child


if __name__ == "__main__":
    main(sys.argv[1:])
