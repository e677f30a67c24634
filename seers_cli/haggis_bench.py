"""``seers bench env --game haggis``: random legal play on ``haggis_v0`` at 2 and 3 players beside
PettingZoo's ``texas_holdem_v4`` and RLCard's Dou Dizhu, for the same wall time each, in one process and
one run (the rows of :mod:`seers_cli.env_cli`), with the ratios and the target
(:data:`TARGET_HAGGIS_VS_DOUDIZHU`); ``--profile`` adds a cProfile of AEC steps split by part
(:data:`HAGGIS_PROFILE_PARTS`).

A ``haggis_v0`` step is one action of the catalogue (:mod:`seers_env.haggis.actions`): a bet, a main code
(pass or a shape and value), or one card of a combination, so one play is one step or more; a step of
RLCard's Dou Dizhu is a whole play. Games are played to the default target (350), as ``env()`` makes them.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

#: Target: haggis_v0 AEC steps/s (at each player count) at least this many times RLCard's Dou Dizhu.
TARGET_HAGGIS_VS_DOUDIZHU = 3.0
#: The rows of our environment (:func:`run_haggis_bench`), by player count.
HAGGIS_ROWS = {2: "haggis_v0, 2 players", 3: "haggis_v0, 3 players"}
PEER_ROWS = ("texas_holdem_v4", "rlcard_doudizhu")

#: Parts of a haggis_v0 AEC step for ``--profile``: (name, module files, function names). The compiled
#: path's Python glue is ``haggis/fast.py`` (its stage-0 mask and observations call the numba kernel).
HAGGIS_PROFILE_PARTS = (
    ("legal plays (moves)", ("haggis/moves.py",), ("turn_plays_with_combos", "turn_combos", "combo_plays")),
    ("decision: codes, mask, choose", ("haggis/actions.py", "haggis/fast.py"),
     ("__init__", "mask", "choose", "allowed")),
    ("observation", ("haggis/observation.py", "haggis/fast.py"), ("observe", "pack_game", "observe_packed")),
    ("HaggisGame.apply", ("haggis/game.py",), ("apply", "apply_legal")),
    ("env step (raw_env.step, all of it)", ("haggis_v0.py",), ("step",)),
)


def haggis_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 3, min_games: int = 0) -> float:
    """Steps/s of random legal play on ``seers_env.haggis_v0.env(n_players=...)`` (observation and mask
    read at every step, as :func:`seers_cli.env_cli.seers_steps_per_s`); ``min_games``: as
    :func:`seers_cli.env_cli._aec_steps`."""
    from seers_env.haggis_v0 import env

    from .env_cli import _aec_steps

    return _aec_steps(lambda: env(n_players=n_players), seconds, seed, min_games)


def warm_up_haggis_bench(seed: int = 0) -> None:
    """Every timed code path once, untimed: a whole game of each row (the peers' lazy set-up too)."""
    from .env_cli import doudizhu_steps_per_s, texas_holdem_steps_per_s

    for n in HAGGIS_ROWS:
        haggis_steps_per_s(0.0, seed, n, min_games=1)
    for fn in (texas_holdem_steps_per_s, doudizhu_steps_per_s):
        try:
            fn(0.0, seed, min_games=1)
        except ImportError:
            pass


#: Each row runs in this many turns of ``seconds / SLICES``, the rows taking turns (round robin), so that a
#: change of the machine's load while the bench runs falls on every row alike.
SLICES = 6


def run_haggis_bench(seconds: float = 3.0, seed: int = 0, slices: int = SLICES) -> dict[str, float | None]:
    """``{HAGGIS_ROWS[2]: steps/s, HAGGIS_ROWS[3]: ..., "texas_holdem_v4": ..., "rlcard_doudizhu": ...}``
    after :func:`warm_up_haggis_bench`: each row the mean of ``slices`` turns of ``seconds / slices``
    (turn ``k`` seeded ``seed + k``), the rows taking turns; ``None`` for a peer that is not installed."""
    from .env_cli import doudizhu_steps_per_s, texas_holdem_steps_per_s

    warm_up_haggis_bench(seed)
    rows: dict[str, Callable[[float, int], float]] = {
        HAGGIS_ROWS[n]: (lambda sec, sd, n=n: haggis_steps_per_s(sec, sd, n)) for n in HAGGIS_ROWS}
    rows.update(zip(PEER_ROWS, (texas_holdem_steps_per_s, doudizhu_steps_per_s)))
    rates: dict[str, list[float] | None] = {name: [] for name in rows}
    for k in range(slices):
        for name, fn in rows.items():
            if rates[name] is None:
                continue
            try:
                rates[name].append(fn(seconds / slices, seed + k))
            except ImportError:
                rates[name] = None
    return {name: None if r is None else sum(r) / len(r) for name, r in rates.items()}


def haggis_profile_parts(steps: int = 5_000, seed: int = 0, n_players: int = 3) -> dict[str, float]:
    """cProfile of ``steps`` haggis_v0 AEC steps of random legal play: ``{part: cumulative seconds}`` for
    each part of :data:`HAGGIS_PROFILE_PARTS`, plus ``"total"`` (profiled seconds) and ``"steps"``."""
    import cProfile
    import pstats

    import numpy as np

    from seers_env.haggis_v0 import env

    from .env_cli import _choice_rng

    e = env(n_players=n_players)
    rng = _choice_rng(seed)
    e.reset(seed=seed)

    def run() -> None:
        done = 0
        while done < steps:
            if not e.agents:
                e.reset()
                continue
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].astype(bool))
            e.step(int(legal[int(rng.integers(len(legal)))]))
            done += 1

    profiler = cProfile.Profile()
    profiler.runcall(run)
    stats = pstats.Stats(profiler)
    from seers_env.haggis_v0 import raw_env

    raw_step = raw_env.step.__code__.co_firstlineno  # not the wrapper's step, which holds it
    out = {name: 0.0 for name, *_ in HAGGIS_PROFILE_PARTS}
    for (path, line, func), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        for name, modules, funcs in HAGGIS_PROFILE_PARTS:
            module = next((m for m in modules if path.replace("\\", "/").endswith(m)), None)
            if module is not None and func in funcs and (module != "haggis_v0.py" or line == raw_step):
                out[name] += cumulative
    out["total"] = stats.total_tt  # type: ignore[attr-defined]
    out["steps"] = float(steps)
    return out


def haggis_notes(r: dict[str, float | None]) -> list[str]:
    """The caption of the table: what a step is, and the target at each player count."""
    notes = [f"Every row runs on one thread, in this process, in {SLICES} turns taken round robin. A "
             "haggis_v0 step is one action (a bet, a shape and value, or one card of a combination); a "
             "Dou Dizhu step is a whole play."]
    if None in r.values():
        notes.append("missing: peers not installed (pip install -e '.[bench]')")
    dou = r.get("rlcard_doudizhu")
    for n, row in HAGGIS_ROWS.items():
        if dou and r[row]:
            ratio = r[row] / dou
            verdict = "met" if ratio >= TARGET_HAGGIS_VS_DOUDIZHU else "NOT met"
            notes.append(f"Target AEC >= {TARGET_HAGGIS_VS_DOUDIZHU:g}x rlcard_doudizhu at {n} players: "
                         f"{verdict} ({ratio:.2f}x)")
    return notes


def bench_haggis(seconds: float, seed: int, json_path: str, profile: bool,
                 echo: Callable[[str], None] = typer.echo) -> None:
    """The ``seers bench env --game haggis`` command body: measure, print the table (and the profile),
    write the JSON record when ``json_path`` is given."""
    import os

    from .bench import write_bench_json
    from .tables import print_cells

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    r = run_haggis_bench(seconds, seed)
    two, three = r[HAGGIS_ROWS[2]], r[HAGGIS_ROWS[3]]

    def times(mine: float | None, value: float | None) -> str:
        return f"{mine / value:.2f}x" if mine and value else "-"

    rows = [[name, "missing" if value is None else f"{value:,.0f}", times(two, value), times(three, value)]
            for name, value in r.items()]
    print_cells({"title": f"Haggis environment random play ({seconds:g} s each, load {load:.1f})",
                 "headers": ["environment", "steps/s", "2p/this", "3p/this"],
                 "rows": rows, "legend": [], "caption": haggis_notes(r)})
    if profile:
        parts = haggis_profile_parts(seed=seed)
        prows = [[name, f"{1e6 * parts[name] / parts['steps']:.0f}", f"{parts[name] / parts['total']:.0%}"]
                 for name, *_ in HAGGIS_PROFILE_PARTS]
        print()
        print_cells({"title": f"cProfile of {parts['steps']:,.0f} haggis_v0 AEC steps, 3 players "
                              f"({parts['total']:.1f} s profiled)",
                     "headers": ["part", "us/step", "share"], "rows": prows, "legend": [],
                     "caption": ["Cumulative times: the env step holds the decision and apply, the "
                                 "decision holds the legal plays; the observation is read by last()."]})
    if json_path:
        def over(mine: float | None, value: float | None) -> float | None:
            return mine / value if mine and value else None

        results = {name: {"steps_per_s": value, "ratio_2p": over(two, value), "ratio_3p": over(three, value),
                          "note": None if value is not None else "not installed"} for name, value in r.items()}
        settings = {"game": "haggis", "seconds": seconds, "seed": seed, "players": [2, 3],
                    "target_vs_rlcard_doudizhu": TARGET_HAGGIS_VS_DOUDIZHU}
        write_bench_json(json_path, "env", settings, results)
