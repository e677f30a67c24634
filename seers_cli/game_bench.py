"""``seers bench env --game haggis`` and ``--game seals``: the games whose rules engine is Python, measured
the same way. Random legal play on the AEC environment at each player count (``haggis_v0`` at 2 and 3,
``seals_v0`` at 2, 3 and 4) and on the batch API (256 games at 3 players, one thread, in a child process:
:class:`ChildBatchSteps`), beside PettingZoo's ``texas_holdem_v4`` and RLCard's Dou Dizhu, for the same
wall time each, in one run, the rows taking turns (:data:`SLICES`); printed with the ratios and the game's
target against Dou Dizhu, and written as JSON with ``--json``. ``--profile`` adds a cProfile of AEC steps
split by part (Haggis only: :data:`HAGGIS_PROFILE_PARTS`).

Each game is one :class:`GameBench` (:data:`GAMES`); the functions take it. What one step is differs by
game (:attr:`GameBench.step_note`); a step of RLCard's Dou Dizhu is a whole play. Games are played with the
environments' defaults (Haggis to the target 350; Seals to 5 Marks or the end of its 5-round counter).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

#: Target: haggis_v0 AEC steps/s (at each player count) at least this many times RLCard's Dou Dizhu.
TARGET_HAGGIS_VS_DOUDIZHU = 3.0
#: Target: seals_v0 AEC steps/s (at each player count) at least this many times RLCard's Dou Dizhu. A
#: Seals step is a take or a declaration (a turn is one or two steps); measured 1.71x-2.10x on the shared
#: 2-core machine (docs/seals_speed.md); the target sits about 12% under the lowest (4 players).
TARGET_SEALS_VS_DOUDIZHU = 1.5
PEER_ROWS = ("texas_holdem_v4", "rlcard_doudizhu")
#: The batch API's row: this many games in flight, at this player count (both games' default), one thread.
VECTOR_GAMES = 256
VECTOR_PLAYERS = 3
#: Each row runs in this many turns of ``seconds / SLICES``, the rows taking turns (round robin), so that a
#: change of the machine's load while the bench runs falls on every row alike.
SLICES = 6

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


@dataclass(frozen=True)
class GameBench:
    """What ``seers bench env --game <game>`` measures for one game with a Python rules engine.

    Attributes:
        game: the ``--game`` name, also ``settings["game"]`` of the JSON record.
        title: the game's name in the table's title.
        env_name: the AEC module ``seers_env.<env_name>`` (its ``env(n_players=...)``); rows are named
            ``"<env_name>, <n> players"``.
        vector_class: dotted path of the batch API's class (``cls(num_envs, n_players=...)``).
        players: the player counts of the AEC rows.
        target_vs_doudizhu: AEC steps/s at each player count at least this many times Dou Dizhu's.
        step_note: what one AEC step is, for the caption.
        profile_parts: parts of an AEC step for ``--profile`` (as :data:`HAGGIS_PROFILE_PARTS`); empty: no
            profile for this game.
    """

    game: str
    title: str
    env_name: str
    vector_class: str
    players: tuple[int, ...]
    target_vs_doudizhu: float
    step_note: str
    profile_parts: tuple = ()

    @property
    def aec_rows(self) -> dict[int, str]:
        """The AEC rows' names, by player count."""
        return {n: f"{self.env_name}, {n} players" for n in self.players}

    @property
    def vector_row(self) -> str:
        """The batch API's row name, e.g. ``"HaggisVectorEnv x256"``."""
        return f"{self.vector_class.rpartition('.')[2]} x{VECTOR_GAMES}"

    @property
    def rows(self) -> tuple[str, ...]:
        """Every row, in the order of the table and of the JSON results."""
        return (*self.aec_rows.values(), self.vector_row, *PEER_ROWS)


HAGGIS = GameBench(
    game="haggis", title="Haggis", env_name="haggis_v0", vector_class="seers_env.haggis.vector.HaggisVectorEnv",
    players=(2, 3), target_vs_doudizhu=TARGET_HAGGIS_VS_DOUDIZHU,
    step_note="A haggis_v0 step is one action (a bet, a shape and value, or one card of a combination); a "
              "Dou Dizhu step is a whole play.",
    profile_parts=HAGGIS_PROFILE_PARTS)
SEALS = GameBench(
    game="seals", title="Seals", env_name="seals_v0", vector_class="seers_env.seals.vector.SealsVectorEnv",
    players=(2, 3, 4), target_vs_doudizhu=TARGET_SEALS_VS_DOUDIZHU,
    step_note="A seals_v0 step is one take (a colour or a symbol of the face-up row) or one declaration "
              "(the sets laid down, or none); a Dou Dizhu step is a whole play.")
#: The games of this module, by ``--game`` name.
GAMES = {spec.game: spec for spec in (HAGGIS, SEALS)}


def game_spec(game: str) -> GameBench:
    """The :class:`GameBench` of ``game``.

    Raises:
        ValueError: ``game`` is not in :data:`GAMES` (the message lists them).
    """
    if game not in GAMES:
        raise ValueError(f"game {game!r} has no Python-engine bench; choose one of {', '.join(GAMES)}")
    return GAMES[game]


def _load(dotted: str):
    """The object at ``"package.module.Name"``."""
    import importlib

    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def aec_steps_per_s(spec: GameBench, seconds: float = 3.0, seed: int = 0, n_players: int = 3,
                    min_games: int = 0) -> float:
    """Steps/s of random legal play on ``seers_env.<spec.env_name>.env(n_players=...)`` (observation and
    mask read at every step, as :func:`seers_cli.env_cli.seers_steps_per_s`); ``min_games``: as
    :func:`seers_cli.env_cli._aec_steps`."""
    import importlib

    from .env_cli import _aec_steps

    env = importlib.import_module(f"seers_env.{spec.env_name}").env
    return _aec_steps(lambda: env(n_players=n_players), seconds, seed, min_games)


def random_legal_rows(masks, rng):
    """One uniformly random legal action per row of ``masks`` (``(N, A)``, nonzero = legal, every row with
    at least one), drawn with ``rng`` (a ``numpy.random.Generator``, one uniform per row): int64 ``(N,)``;
    :func:`seers_env.python_vector.random_legal_rows`."""
    from seers_env.python_vector import random_legal_rows as draw

    return draw(masks, rng)


class BatchSteps:
    """Random legal play on a game's batch API, ``VECTOR_GAMES`` games at ``n_players`` on one thread, its
    games carried on from one :meth:`steps_per_s` to the next (so that the turns of the round robin are not
    all game openings). Built from ``reset(seed=seed)`` then one untimed step; choices from
    :func:`seers_cli.env_cli._choice_rng` of ``seed``."""

    def __init__(self, spec: GameBench, seed: int = 0, num_envs: int = VECTOR_GAMES,
                 n_players: int = VECTOR_PLAYERS):
        from .env_cli import _choice_rng

        self.num_envs = num_envs
        self._venv = _load(spec.vector_class)(num_envs, n_players=n_players)
        self._rng = _choice_rng(seed)
        self._obs, _ = self._venv.reset(seed=seed)
        self._step()

    def _step(self) -> None:
        self._obs, *_ = self._venv.step(random_legal_rows(self._obs["action_mask"], self._rng))

    def steps_per_s(self, seconds: float) -> float:
        """Env steps/s (rows of ``step``, summed over the games) over ``seconds`` and at least one step."""
        steps = 0
        start = time.perf_counter()
        while steps == 0 or time.perf_counter() - start < seconds:
            self._step()
            steps += self.num_envs
        return steps / (time.perf_counter() - start)


def serve_batch_steps(game: str, seed: int = 0) -> None:
    """The child process of :class:`ChildBatchSteps`: build :class:`BatchSteps` of ``game``, print
    ``ready``, then for each line of stdin (seconds) print the steps/s of that many seconds, until stdin
    closes."""
    import sys

    batch = BatchSteps(game_spec(game), seed)
    print("ready", flush=True)
    for line in sys.stdin:
        print(repr(batch.steps_per_s(float(line))), flush=True)


class ChildBatchSteps:
    """:class:`BatchSteps` run in a child process (:func:`serve_batch_steps`), one turn at a time while
    this process waits, so that its games' objects are not in this process's heap: Python's cyclic
    collector, which walks every live object now and then, would charge them to the other rows' turns
    (``docs/game_bench_gc_check.py``: a full collection 51 ms, 152 ms with 256 Haggis games alive; the
    2-player Haggis row about 10% lower). A context manager: leaving it closes the child.

    Raises:
        RuntimeError: the child stopped before answering (its traceback is on stderr).
    """

    def __init__(self, spec: GameBench, seed: int = 0):
        import os
        import subprocess
        import sys

        env = dict(os.environ)  # the child imports this same tree of seers_cli and seers_env
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        code = f"from seers_cli.game_bench import serve_batch_steps\nserve_batch_steps({spec.game!r}, {int(seed)})\n"
        self._child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, env=env)
        self._answer()  # "ready": built, reset and stepped once

    def _answer(self) -> str:
        line = self._child.stdout.readline()
        if not line:
            self.close()
            raise RuntimeError(f"the batch row's child process stopped (exit status {self._child.returncode})")
        return line

    def steps_per_s(self, seconds: float) -> float:
        """:meth:`BatchSteps.steps_per_s` of ``seconds``, in the child."""
        self._child.stdin.write(f"{float(seconds)!r}\n")
        self._child.stdin.flush()
        return float(self._answer())

    def close(self) -> None:
        """End the child (closing its stdin) and wait for it."""
        if self._child.stdin and not self._child.stdin.closed:
            self._child.stdin.close()
        self._child.wait()
        self._child.stdout.close()

    def __enter__(self) -> ChildBatchSteps:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def warm_up_game_bench(spec: GameBench, seed: int = 0) -> None:
    """Every timed AEC code path once, untimed: a whole game at each player count (the peers' lazy set-up
    too). The batch row warms up in its child process when that is built (:class:`ChildBatchSteps`)."""
    from .env_cli import doudizhu_steps_per_s, texas_holdem_steps_per_s

    for n in spec.players:
        aec_steps_per_s(spec, 0.0, seed, n, min_games=1)
    for fn in (texas_holdem_steps_per_s, doudizhu_steps_per_s):
        try:
            fn(0.0, seed, min_games=1)
        except ImportError:
            pass


def run_game_bench(spec: GameBench, seconds: float = 3.0, seed: int = 0,
                   slices: int = SLICES) -> dict[str, float | None]:
    """``{row: steps/s}`` for every row of ``spec.rows`` after :func:`warm_up_game_bench`: each row the
    mean of ``slices`` turns of ``seconds / slices`` (AEC and peer turn ``k`` seeded ``seed + k``; the batch
    row's games, in a child process (:class:`ChildBatchSteps`), continue from turn to turn), the rows
    taking turns; ``None`` for a peer not installed.

    Raises:
        RuntimeError: the batch row's child process stopped.
    """
    from .env_cli import doudizhu_steps_per_s, texas_holdem_steps_per_s

    warm_up_game_bench(spec, seed)
    with ChildBatchSteps(spec, seed) as batch:
        rows: dict[str, Callable[[float, int], float]] = {
            name: (lambda sec, sd, n=n: aec_steps_per_s(spec, sec, sd, n)) for n, name in spec.aec_rows.items()}
        rows[spec.vector_row] = lambda sec, sd: batch.steps_per_s(sec)
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


def aec_profile_parts(spec: GameBench, steps: int = 5_000, seed: int = 0, n_players: int = 3) -> dict[str, float]:
    """cProfile of ``steps`` AEC steps of random legal play: ``{part: cumulative seconds}`` for each part of
    ``spec.profile_parts``, plus ``"total"`` (profiled seconds) and ``"steps"``.

    Raises:
        ValueError: ``spec`` has no profile parts (Seals).
    """
    import cProfile
    import importlib
    import pstats


    from .env_cli import _choice_rng, play_random_steps

    if not spec.profile_parts:
        raise ValueError(f"--profile is not available for {spec.game}")
    module = importlib.import_module(f"seers_env.{spec.env_name}")
    e = module.env(n_players=n_players)
    rng = _choice_rng(seed)
    e.reset(seed=seed)

    profiler = cProfile.Profile()
    profiler.runcall(play_random_steps, e, rng, steps)
    stats = pstats.Stats(profiler)
    env_file = f"{spec.env_name}.py"
    raw_step = module.raw_env.step.__code__.co_firstlineno  # not the wrapper's step, which holds it
    out = {name: 0.0 for name, *_ in spec.profile_parts}
    for (path, line, func), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        for name, modules, funcs in spec.profile_parts:
            found = next((m for m in modules if path.replace("\\", "/").endswith(m)), None)
            if found is not None and func in funcs and (found != env_file or line == raw_step):
                out[name] += cumulative
    out["total"] = stats.total_tt  # type: ignore[attr-defined]
    out["steps"] = float(steps)
    return out


def haggis_profile_parts(steps: int = 5_000, seed: int = 0, n_players: int = 3) -> dict[str, float]:
    """:func:`aec_profile_parts` of Haggis (the name ``docs/haggis_agents.md`` shows)."""
    return aec_profile_parts(HAGGIS, steps, seed, n_players)


def _counts(players: tuple[int, ...]) -> str:
    """``(2, 3, 4)`` as ``"2, 3 and 4"``."""
    return " and ".join([", ".join(map(str, players[:-1])), str(players[-1])] if len(players) > 1
                        else [str(players[0])])


def measuring_notice(spec: GameBench, seconds: float, profile: bool = False) -> str:
    """What the bench is about to measure and about how long it takes (said before the table)."""
    n = len(spec.rows)
    return (f"Measuring {n} environments ({spec.env_name} at {_counts(spec.players)} players, "
            f"{spec.vector_row}, {', '.join(PEER_ROWS)}), {seconds:g} s each: about {n * seconds:g} s plus "
            f"start-up{', then the profile' if profile else ''} ...")


def game_notes(spec: GameBench, r: dict[str, float | None]) -> list[str]:
    """The caption of the table: what a step and the batch row are, and the target at each player count."""
    notes = [(f"Every row runs on one thread, in {SLICES} turns taken round robin, in this process (the "
              f"batch row in a child process). {spec.step_note}")]
    dou = r.get("rlcard_doudizhu")
    batch = r.get(spec.vector_row)
    same_table = r.get(spec.aec_rows.get(VECTOR_PLAYERS, ""))
    ratios = ([f"{batch / same_table:.2f}x its AEC env per step"] if batch and same_table else []) + \
             ([f"{batch / dou:.2f}x rlcard_doudizhu"] if batch and dou else [])
    against = f" ({', '.join(ratios)})" if ratios else ""
    notes.append(f"{spec.vector_row}: step() of {VECTOR_GAMES} games at {VECTOR_PLAYERS} players, a random "
                 f"legal action each, its games carried on from turn to turn{against}.")
    if None in r.values():
        notes.append("missing: peers not installed (pip install -e '.[bench]')")
    for n, row in spec.aec_rows.items():
        if dou and r[row]:
            ratio = r[row] / dou
            verdict = "met" if ratio >= spec.target_vs_doudizhu else "NOT met"
            notes.append(f"Target AEC >= {spec.target_vs_doudizhu:g}x rlcard_doudizhu at {n} players: "
                         f"{verdict} ({ratio:.2f}x)")
    return notes


def bench_game(spec: GameBench, seconds: float, seed: int, json_path: str = "", profile: bool = False) -> None:
    """The ``seers bench env --game haggis|seals`` command body: measure, print the table (one ratio column
    per AEC player count: that row's steps/s over each row's), then the profile, and write the JSON record
    when ``json_path`` is given.

    Raises:
        ValueError: ``profile`` for a game without profile parts.
        typer.BadParameter: the folder of ``json_path`` does not exist.
    """
    import os

    from .bench import write_bench_json
    from .tables import print_cells

    if profile and not spec.profile_parts:
        raise ValueError(f"--profile is not available for {spec.game}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    r = run_game_bench(spec, seconds, seed)
    ours = {n: r[row] for n, row in spec.aec_rows.items()}

    def times(mine: float | None, value: float | None) -> str:
        return f"{mine / value:.2f}x" if mine and value else "-"

    rows = [[name, "missing" if value is None else f"{value:,.0f}", *(times(ours[n], value) for n in ours)]
            for name, value in r.items()]
    print_cells({"title": f"{spec.title} environment random play ({seconds:g} s each, load {load:.1f})",
                 "headers": ["environment", "steps/s", *(f"{n}p/this" for n in ours)],
                 "rows": rows, "legend": [], "caption": game_notes(spec, r)})
    if profile:
        parts = aec_profile_parts(spec, seed=seed)
        prows = [[name, f"{1e6 * parts[name] / parts['steps']:.0f}", f"{parts[name] / parts['total']:.0%}"]
                 for name, *_ in spec.profile_parts]
        print()
        print_cells({"title": f"cProfile of {parts['steps']:,.0f} {spec.env_name} AEC steps, 3 players "
                              f"({parts['total']:.1f} s profiled)",
                     "headers": ["part", "us/step", "share"], "rows": prows, "legend": [],
                     "caption": [("Cumulative times: the env step holds the decision and apply, the "
                                  "decision holds the legal plays; the observation is read by last().")]})
    if json_path:
        def over(mine: float | None, value: float | None) -> float | None:
            return mine / value if mine and value else None

        results = {name: {"steps_per_s": value, **{f"ratio_{n}p": over(ours[n], value) for n in ours},
                          "note": None if value is not None else "not installed"} for name, value in r.items()}
        settings = {"game": spec.game, "seconds": seconds, "seed": seed, "players": list(spec.players),
                    "target_vs_rlcard_doudizhu": spec.target_vs_doudizhu,
                    "num_envs": VECTOR_GAMES, "vector_players": VECTOR_PLAYERS}
        write_bench_json(json_path, "env", settings, results)
