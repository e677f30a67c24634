"""``seers bench engine``: random-play throughput of the rules engine at each player count, and the cold
start of a new process (import, compiled code loaded from numba's cache or compiled, first game); and
:func:`compile_notice`, with which every benchmark says when its untimed warm-up compiles."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

import typer

from .errors import non_negative, positive_seconds

#: What a benchmark says when its warm-up compiles (numba, once per install or update of the package).
COMPILING = "compiling{what} (first run after install, a minute or more)..."


@contextlib.contextmanager
def compile_notice(echo: Callable[[str], None] = typer.echo, what: str = "") -> Iterator[None]:
    """Around a benchmark's untimed warm-up: when numba compiles in it (a function not in numba's cache:
    the first run after an install), say so once with ``echo`` (:data:`COMPILING`; ``what`` names what
    compiles, e.g. ``"the threaded batch API"``), and at the end how long it took. Silent when every
    function comes from the cache.

    Uses numba's event API (``numba.core.event``: a ``"numba:compile"`` event is a cache miss).
    """
    from numba.core import event

    start = time.perf_counter()
    compiled = []

    class _Listener(event.Listener):
        def on_start(self, ev) -> None:
            if not compiled:
                compiled.append(True)
                echo(COMPILING.format(what=f" {what}" if what else ""))

        def on_end(self, ev) -> None:
            pass

    with event.install_listener("numba:compile", _Listener()):
        yield
    if compiled:
        echo(f"compiled in {time.perf_counter() - start:.0f} s (numba caches it for the next runs); timing now")


def engine_throughput(n_players: int, seconds: float = 3.0, seed: int = 0,
                      artifacts: bool = True, min_games: int = 0) -> dict[str, float]:
    """Play uniformly random legal plays (full legal-play generation at every step) for ``seconds``,
    in whole games, at least ``min_games`` of them (a warm-up: ``seconds=0, min_games=1``).

    Returns:
        ``{"players", "plays_per_s", "games_per_s", "plays_per_game", "max_legal_plays"}`` (one core).
    """
    import numpy as np

    from seers_env.game import Game, GameConfig

    config = GameConfig(n_players=n_players) if artifacts else GameConfig(n_players=n_players, artifact_deck=())
    rng = np.random.default_rng(seed)
    plays = games = max_legal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < min_games:
        game = Game(config, seed=int(rng.integers(2**31)))
        while not game.game_over:
            legal = game.legal_plays()
            max_legal = max(max_legal, len(legal))
            game.apply(legal[int(rng.random() * len(legal))])
            plays += 1
        games += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    return {"players": n_players, "plays_per_s": plays / elapsed, "games_per_s": games / elapsed,
            "plays_per_game": plays / max(games, 1), "max_legal_plays": max_legal}


def kernel_throughput(n_players: int, seconds: float = 3.0, seed: int = 0,
                      artifacts: bool = True, min_games: int = 0) -> dict[str, float]:
    """As :func:`engine_throughput` on the compiled game kernel (:mod:`seers_env.engine.kernel`): a
    compiled random-play loop over play keys (full legal-play generation at every step, no ``Play``
    objects); dealing stays in Python (once a round). Same keys as :func:`engine_throughput`'s result.
    """
    import numpy as np

    from seers_env.engine import kernel
    from seers_env.game import GameConfig

    config = GameConfig(n_players=n_players) if artifacts else GameConfig(n_players=n_players, artifact_deck=())
    rng = np.random.default_rng(seed)
    games_state = kernel.KernelGames(1, config)
    plays = games = max_legal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < min_games:
        used, most = kernel.random_play_game(config, int(rng.integers(2**31)), rng.random(20_000), games_state)
        plays += used
        max_legal = max(max_legal, most)
        games += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    return {"players": n_players, "plays_per_s": plays / elapsed, "games_per_s": games / elapsed,
            "plays_per_game": plays / max(games, 1), "max_legal_plays": max_legal}


#: What a cold start runs in a new process: import the package, deal and play one random 4-player game on
#: :class:`Game` (observations and Decisions built), one on the AEC environment (``seers_env.env``) and one
#: on the compiled kernel, then 300 steps of the batch API with 4 games (every compiled function of the
#: engine and the environment is loaded).
_COLD_START = """
import time
t = time.perf_counter()
import numpy as np
from seers_env import Game, GameConfig
from seers_env.observation import observe
from seers_env.actions import Decision
rng = np.random.default_rng(0)
game = Game(GameConfig(n_players=4), seed=0)
while not game.game_over:
    legal = game.legal_plays()
    observe(game, game.current, Decision(legal, game.current, 4))
    game.apply(legal[int(rng.integers(len(legal)))])
from seers_env import env
aec = env(n_players=4)
aec.reset(seed=0)
for agent in aec.agent_iter():
    obs, _, term, trunc, _ = aec.last()
    aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
from seers_env.engine.kernel import random_play_game
random_play_game(game.config, 0, rng.random(20_000))
from seers_env.vector import SeersVectorEnv
from seers_env.vector_core import random_legal_actions
venv = SeersVectorEnv(4)
obs, _ = venv.reset(seed=0)
for _ in range(300):
    obs = venv.step(random_legal_actions(obs["action_mask"], rng.random(4)))[0]
print(time.perf_counter() - t)
"""


def warm_up_engine_bench(seed: int = 0, artifacts: bool = True, echo: Callable[[str], None] = typer.echo) -> None:
    """Run every timed code path of ``seers bench engine`` once, untimed, in this process: a whole game
    at each player count on :class:`Game` and on the kernel, and what a cold start runs
    (:data:`_COLD_START`, so that the cold start with a warm cache finds every function in numba's
    cache). Says so when it compiles (:func:`compile_notice`)."""
    import io

    with compile_notice(echo):
        for n in (2, 3, 4, 5):
            engine_throughput(n, 0.0, seed, artifacts, min_games=1)
            kernel_throughput(n, 0.0, seed, artifacts, min_games=1)
        with contextlib.redirect_stdout(io.StringIO()):  # it prints its own time
            exec(compile(_COLD_START, "<cold start>", "exec"), {})


def cold_start_seconds(empty_cache: bool = False) -> float:
    """Wall seconds of a new Python process from ``import seers_env`` through one random game.

    With ``empty_cache`` the process gets an empty numba cache folder (``NUMBA_CACHE_DIR``), so it
    compiles every compiled function first: the one-time cost after a fresh install.
    """
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        if empty_cache:
            env["NUMBA_CACHE_DIR"] = tmp
        out = subprocess.run([sys.executable, "-c", _COLD_START], env=env, capture_output=True, text=True,
                             check=True)
    return float(out.stdout.strip().splitlines()[-1])


BENCH_FORMAT = "seers-bench-1"


def bench_record(bench: str, settings: dict, results: list | dict) -> dict:
    """A machine-readable benchmark result, for keeping and comparing benchmark history.

    Returns:
        ``{"format": "seers-bench-1", "bench": name, "time_utc": ISO 8601, "version": package version,
        "python", "platform", "cpu_count", "load_avg": [1, 5, 15 min] at the end (other processes share
        the cores: compare ratios measured in one run, not absolute rates across runs), "settings",
        "results"}``; rates are per second of wall time.
    """
    import datetime
    import os
    import platform

    from seers_env import __version__

    load = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return {"format": BENCH_FORMAT, "bench": bench,
            "time_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "version": __version__, "python": platform.python_version(), "platform": platform.platform(),
            "cpu_count": os.cpu_count(), "load_avg": load, "settings": settings, "results": results}


def check_json_path(path: str) -> None:
    """Refuse ``--json PATH`` before a benchmark runs (``typer.BadParameter``) when its folder does not exist,
    when ``PATH`` is a folder, or when the file cannot be written there (no write permission)."""
    import os
    from pathlib import Path

    if not path:
        return
    target = Path(path).expanduser()
    folder = target.resolve().parent
    if not folder.is_dir():
        raise typer.BadParameter(f"--json {path!r}: folder {str(folder)!r} does not exist")
    if target.is_dir():
        raise typer.BadParameter(f"--json {path!r} is a folder; name a file in it "
                                 f"(e.g. {str(target / 'bench.json')!r})")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        where = "it" if target.exists() else f"in {str(folder)!r}"
        raise typer.BadParameter(f"--json {path!r}: no permission to write {where}")


def write_bench_json(path: str, bench: str, settings: dict, results: list | dict) -> None:
    """Write :func:`bench_record` to ``path`` as strict JSON (``seers bench ... --json PATH``).

    Raises:
        typer.BadParameter: the folder of ``path`` does not exist, ``path`` is a folder, or it cannot be
            written.
    """
    from seers_env.jsonio import write_json

    check_json_path(path)
    try:
        write_json(path, bench_record(bench, settings, results))
    except OSError as err:  # e.g. the folder was removed while the benchmark ran
        raise typer.BadParameter(f"--json {path!r}: cannot write it ({err.strerror or err})") from None
    typer.echo(f"results written to {path}")


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @bench_app.command("engine")
    def bench_engine(
        seconds: float = typer.Option(3.0, callback=positive_seconds, metavar="SECONDS", help="Wall time per player count, in seconds."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Seed of the deals and of the random choices."),
        artifacts: bool = typer.Option(True, help="Use the default artifact deck (or none)."),
        compile_cost: bool = typer.Option(False, help="Also time a cold start with an empty numba cache "
                                                      "(compiling everything; tens of seconds)."),
        json_path: str = typer.Option("", "--json", metavar="FILE", help="Also write the results to this JSON file."),
    ) -> None:
        """Random-play engine throughput (plays/s, games/s) at 2..5 players on one core, and cold start.

        Target: at least 100,000 plays/s for 4 players; a cold start (warm cache) of at most 3 s.
        """
        from .tables import print_cells

        check_json_path(json_path)
        warm_up_engine_bench(seed, artifacts)  # load (or compile, once per install) before timing
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        rows, results, kernel_results = [], [], []
        for n in (2, 3, 4, 5):
            r = engine_throughput(n, seconds, seed, artifacts)
            kr = kernel_throughput(n, seconds, seed, artifacts)
            results.append(r)
            kernel_results.append(kr)
            rows.append([str(n), f"{r['plays_per_s']:,.0f}", f"{kr['plays_per_s']:,.0f}",
                         f"{kr['plays_per_s'] / r['plays_per_s']:.1f}x", f"{r['plays_per_game']:.0f}",
                         f"{max(r['max_legal_plays'], kr['max_legal_plays']):,}",
                         f"{kr['plays_per_s'] / 100_000:.2f}x"])
        print_cells({"title": f"Engine random play ({seconds:g} s each engine, one core, load {load:.1f})",
                     "headers": ["players", "Game/s", "kernel/s", "ratio", "plays/game", "max legal", "vs 100k"],
                     "rows": rows, "legend": [],
                     "caption": ["Game/s, kernel/s: plays per second. "
                                 "Game: Game.legal_plays() + Game.apply() (Play objects, event log). kernel: the "
                                 "compiled loop seers_env.engine.kernel.random_play on play keys (deals in "
                                 "Python). ratio = kernel / Game; vs 100k = kernel / 100,000 (target at 4 "
                                 "players)."]})
        cold = cold_start_seconds()
        typer.echo(f"Cold start (new process, numba cache warm): {cold:.2f} s (target <= 3 s)")
        compiling = None
        if compile_cost:
            compiling = cold_start_seconds(empty_cache=True)
            typer.echo(f"Cold start with an empty numba cache (compiling): {compiling:.1f} s")
        if json_path:
            write_bench_json(json_path, "engine", {"seconds": seconds, "seed": seed, "artifacts": artifacts,
                                                   "target_plays_per_s_4p": 100_000, "target_cold_start_s": 3},
                             {"throughput": results, "kernel_throughput": kernel_results, "cold_start_s": cold, "cold_start_empty_cache_s": compiling})
