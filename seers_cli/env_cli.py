"""``seers bench env``: random legal play on our AEC environment against PettingZoo's ``texas_holdem_v4``
and RLCard's Dou Dizhu, for the same wall time each, in one process; and our batch API
(:class:`seers_env.vector.SeersVectorEnv`, 256 games in flight) in the same run; its threaded row runs
in a child process with OpenMP's passive wait policy (:func:`vector_threads_steps_per_s`); its play-level
row (:func:`vector_plays_per_s`) counts whole plays of ``play_features`` then ``step_plays``.

``seers bench env --game scout`` measures SCOUT the same way, in the same run as the peers: its AEC
environment (:mod:`seers_env.scout_v0`, :func:`scout_steps_per_s`), its batch API
(:class:`seers_env.scout.vector.ScoutVectorEnv`, 256 games, :func:`scout_vector_steps_per_s`) and its play
level (:func:`scout_plays_per_s`), each on one thread.

``seers bench env --game haggis`` and ``--game seals`` (the games whose rules engine is Python) are measured
by :mod:`seers_cli.game_bench`: the AEC environment at each player count and the batch API, beside the peers.

The peers need the optional ``bench`` extra (``pip install -e ".[bench]"``, which installs rlcard); a peer
that is not installed is reported as missing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import typer

from .errors import non_negative, positive_seconds

#: Targets: our AEC steps/s at least this many times RLCard's Dou Dizhu and PettingZoo's texas_holdem_v4.
TARGET_VS_DOUDIZHU = 5.0
TARGET_VS_HOLDEM = 3.0
#: Target of SCOUT's batch API (``seers bench env --game scout``): env steps/s on the 2-core machine.
TARGET_SCOUT_BATCH = 200_000
#: The games ``seers bench env --game`` measures.
BENCH_GAMES = ("seers_catalog", "scout", "haggis", "seals")


def _choice_rng(seed: int):
    """The generator of a bench's random choices (a ``numpy.random.Generator``): a stream of ``seed`` apart
    from the environments' own (``seers_env.seeding``), which ``reset(seed=seed)`` seeds."""
    import numpy as np

    from seers_env.seeding import child_seed

    return np.random.default_rng(child_seed(seed, 0))


def play_random_steps(e, rng, steps: int) -> None:
    """``steps`` uniformly random legal actions (``rng``, a ``numpy.random.Generator``) on the reset AEC env
    ``e``, a new game after each one that ends: the profiled loop of ``seers bench env --profile``."""
    import numpy as np

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


def _aec_steps(make_env: Callable, seconds: float, seed: int, min_games: int = 0) -> float:
    """Random legal play on a PettingZoo AEC env (observation and mask read at every step): steps/s.

    Plays for ``seconds`` and at least one step; with ``min_games``, also until that many whole games
    ended and the env was reset (a warm-up: every code path of a game, its round and game ends and the
    reset included, has run)."""
    import numpy as np

    env = make_env()
    rng = _choice_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    env.reset(seed=seed)
    while steps == 0 or time.perf_counter() - start < seconds or games < min_games:
        if not env.agents:
            env.reset()
            games += 1
            continue
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"].astype(bool))  # int8 masks: nonzero is slow
        env.step(int(legal[int(rng.integers(len(legal)))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def seers_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, min_games: int = 0) -> float:
    """Steps/s of random legal play on ``seers_env.env(n_players=...)`` (observations and masks built);
    ``min_games``: as :func:`_aec_steps`."""
    from seers_env.seers_catalog_v0 import env

    return _aec_steps(lambda: env(n_players=n_players), seconds, seed, min_games)


def vector_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, num_envs: int = 256,
                       parallel: bool = False, min_games: int = 0) -> float:
    """Env steps/s (decisions, summed over games) of random legal play on the batch API with ``num_envs``
    games in flight: stacked observations and masks built at every step, one process (``parallel``: the
    games stepped on numba's thread pool, all cores). The random agent picks each row's action from its
    mask with :func:`seers_env.vector_core.random_legal_actions` (compiled; its time is counted).

    Plays for ``seconds`` and at least one batch; with ``min_games``, also until that many games ended
    (summed over the batch; an ended game's slot deals its next game in the same step): a warm-up."""
    from seers_env.vector import SeersVectorEnv
    from seers_env.vector_core import random_legal_actions

    venv = SeersVectorEnv(num_envs, n_players=n_players, parallel=parallel)
    obs, _ = venv.reset(seed=seed)
    rng = _choice_rng(seed)
    steps = ended = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < seconds or ended < min_games:
        obs, _, term, _, _ = venv.step(random_legal_actions(obs["action_mask"], rng.random(num_envs)))
        ended += int(term.sum())
        steps += num_envs
    return steps / (time.perf_counter() - start)


def vector_plays_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, num_envs: int = 256,
                       min_games: int = 0) -> float:
    """Plays/s (whole plays, summed over games) of random legal play on the batch API at the play level,
    as the self-play learner's actor plays (:class:`train.selfplay.Actor`): at every step
    :meth:`SeersVectorEnv.play_features() <seers_env.vector.SeersVectorEnv.play_features>` (one feature row
    per legal play, with the heuristic prior column and the hidden hands) for all ``num_envs`` games, then
    :meth:`~seers_env.vector.SeersVectorEnv.step_plays` of one uniformly random legal play per game (drawn
    from a ``numpy.random.Generator`` seeded from ``seed``; its time is counted). One thread, this process.

    A play takes 1 to 3 catalogue actions (steps) of :func:`vector_steps_per_s`; a step of RLCard's Dou
    Dizhu is one whole play.
    """
    import numpy as np

    from seers_env.vector import SeersVectorEnv

    venv = SeersVectorEnv(num_envs, n_players=n_players)
    venv.reset(seed=seed)
    rng = _choice_rng(seed)
    plays = ended = 0
    start = time.perf_counter()
    while plays == 0 or time.perf_counter() - start < seconds or ended < min_games:  # as vector_steps_per_s
        feats = venv.play_features(heuristic_prior=True, hidden=True)
        _, _, term, _, _ = venv.step_plays(rng.integers(np.diff(feats.offsets)))  # uniform over each game's plays
        ended += int(term.sum())
        plays += num_envs
    return plays / (time.perf_counter() - start)


#: OpenMP's wait policy of the threaded batch row (unless the environment sets one): idle threads sleep
#: instead of spinning, which on a busy machine would take cores from the threads doing the work.
THREADS_WAIT_POLICY = "PASSIVE"


def vector_threads_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4,
                               num_envs: int = 256) -> float:
    """:func:`vector_steps_per_s` with ``parallel=True``, measured in a child process started with
    ``OMP_WAIT_POLICY`` set (:data:`THREADS_WAIT_POLICY` unless already set): OpenMP reads it once, when
    it is loaded, and this process may have loaded it already (torch does)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    env.setdefault("OMP_WAIT_POLICY", THREADS_WAIT_POLICY)
    # the threaded functions are compiled apart from the others: warm them up in the child, untimed,
    # saying so on its stderr (this terminal) when they compile
    code = ("import sys\n"
            "from seers_cli.bench import compile_notice\n"
            "from seers_cli.env_cli import vector_steps_per_s as v\n"
            "with compile_notice(lambda line: print(line, file=sys.stderr, flush=True), 'the threaded batch API'):\n"
            f"    v(0.0, {seed}, {n_players}, num_envs=4, parallel=True, min_games=4)\n"
            f"print(v({float(seconds)!r}, {seed}, {n_players}, num_envs={num_envs}, parallel=True))\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def scout_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, min_games: int = 0) -> float:
    """Steps/s of random legal play on ``seers_env.scout_v0.env(n_players=...)`` (observations and masks
    built at every step, as :func:`seers_steps_per_s`); ``min_games``: as :func:`_aec_steps`."""
    from seers_env.scout_v0 import env

    return _aec_steps(lambda: env(n_players=n_players), seconds, seed, min_games)


def scout_vector_steps_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, num_envs: int = 256,
                             min_games: int = 0) -> float:
    """Env steps/s (catalogue actions, summed over games) of random legal play on SCOUT's batch API
    (:class:`seers_env.scout.vector.ScoutVectorEnv`) with ``num_envs`` games in flight: stacked observations
    and masks built at every step, one thread. Each row's action is drawn from its mask by
    :func:`seers_env.scout.kernel.random_legal_actions` (compiled; its time is counted). ``seconds`` and
    ``min_games``: as :func:`vector_steps_per_s`."""
    from seers_env.scout.kernel import random_legal_actions
    from seers_env.scout.vector import ScoutVectorEnv

    venv = ScoutVectorEnv(num_envs, n_players=n_players)
    obs, _ = venv.reset(seed=seed)
    rng = _choice_rng(seed)
    steps = ended = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < seconds or ended < min_games:
        obs, _, term, trunc, _ = venv.step(random_legal_actions(obs["action_mask"], rng.random(num_envs)))
        ended += int(term.sum() + trunc.sum())
        steps += num_envs
    return steps / (time.perf_counter() - start)


def scout_plays_per_s(seconds: float = 3.0, seed: int = 0, n_players: int = 4, num_envs: int = 256,
                      min_games: int = 0) -> float:
    """Plays/s (whole plays, summed over games) of random legal play on SCOUT's batch API at the play
    level: at every step :meth:`ScoutVectorEnv.play_features()
    <seers_env.scout.vector.ScoutVectorEnv.play_features>` (the state and one feature row per legal play of
    every game) then :meth:`~seers_env.scout.vector.ScoutVectorEnv.step_plays` of one uniformly random legal
    play per game (its time counted). One thread. A play is one catalogue step, two for a Scout & Show."""
    import numpy as np

    from seers_env.scout.vector import ScoutVectorEnv

    venv = ScoutVectorEnv(num_envs, n_players=n_players)
    venv.reset(seed=seed)
    rng = _choice_rng(seed)
    plays = ended = 0
    start = time.perf_counter()
    while plays == 0 or time.perf_counter() - start < seconds or ended < min_games:
        feats = venv.play_features()
        _, _, term, trunc, _ = venv.step_plays(rng.integers(np.diff(feats.offsets)))
        ended += int(term.sum() + trunc.sum())
        plays += num_envs
    return plays / (time.perf_counter() - start)


def texas_holdem_steps_per_s(seconds: float = 3.0, seed: int = 0, min_games: int = 0) -> float:
    """Steps/s of random legal play on PettingZoo's ``texas_holdem_v4`` (needs rlcard); ``min_games``: as
    :func:`_aec_steps`."""
    from pettingzoo.classic import texas_holdem_v4

    return _aec_steps(texas_holdem_v4.env, seconds, seed, min_games)


def doudizhu_steps_per_s(seconds: float = 3.0, seed: int = 0, min_games: int = 0) -> float:
    """Steps/s of random legal play on RLCard's Dou Dizhu (its own state encoding at every step); with
    ``min_games``, also until that many whole games were played (a warm-up)."""
    import numpy as np
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()

    def more() -> bool:
        return time.perf_counter() - start < seconds or games < min_games

    while more():
        state, _ = env.reset()
        while not env.is_over() and more():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += env.is_over()
    return steps / (time.perf_counter() - start)


#: Parts of an AEC env step: (name, module file, function names), and each part's share of a cProfile
#: of 20,000 env steps before the engine was compiled (pure-Python engine, quiet 2-core machine). The
#: AEC env now runs the first five parts in one compiled call (the last row), so they read 0 when
#: nothing reads ``env.unwrapped.game`` or ``.decision``.
PROFILE_PARTS = (
    ("legal-play generation", "moves.py", ("legal_plays",), 0.36),
    ("catalogue codes", "actions.py", ("main_code", "main_codes_of_keys"), 0.08),
    ("observation", "observation.py", ("observe",), 0.16),
    ("Decision (codes, mask)", "actions.py", ("__init__", "mask"), None),
    ("Game.apply", "game.py", ("apply",), None),
    ("compiled step (all of the above)", "aec_core.py", ("step_slot",), None),
)


def profile_parts(steps: int = 20_000, seed: int = 0, n_players: int = 4) -> dict[str, float]:
    """cProfile of ``steps`` AEC env steps of random legal play: ``{part: cumulative seconds}`` for each
    part of :data:`PROFILE_PARTS`, plus ``"total"`` (profiled seconds) and ``"steps"``."""
    import cProfile
    import pstats


    from seers_env.seers_catalog_v0 import env

    e = env(n_players=n_players)
    rng = _choice_rng(seed)
    e.reset(seed=seed)

    profiler = cProfile.Profile()
    profiler.runcall(play_random_steps, e, rng, steps)
    stats = pstats.Stats(profiler)
    out = {name: 0.0 for name, *_ in PROFILE_PARTS}
    for (path, _, func), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        for name, module, funcs, _ in PROFILE_PARTS:
            if path.endswith(module) and func in funcs:
                out[name] += cumulative
    out["total"] = stats.total_tt  # type: ignore[attr-defined]
    out["steps"] = float(steps)
    return out


#: The row of :func:`vector_plays_per_s` in :func:`run_env_bench` (its figure is plays/s, not steps/s).
PLAYS_ROW = "seers plays x256"


#: The rows of ``seers bench env --game scout`` (:func:`run_env_bench`): AEC, batch, play level.
SCOUT_ROWS = ("scout_v0", "scout vector x256", "scout plays x256")


def plays_row(game: str = "seers_catalog") -> str:
    """The play-level row of ``game`` in :func:`run_env_bench` (its figure is plays/s, not steps/s)."""
    return SCOUT_ROWS[2] if game == "scout" else PLAYS_ROW


def check_bench_game(game: str) -> str:
    """``game`` when ``seers bench env`` measures it (:data:`BENCH_GAMES`).

    Raises:
        ValueError: another name (the message lists the allowed ones).
    """
    if game not in BENCH_GAMES:
        raise ValueError(f"game {game!r} is not measured by seers bench env; choose one of {', '.join(BENCH_GAMES)}")
    return game


def warm_up_env_bench(seed: int = 0, echo: Callable[[str], None] = typer.echo, game: str = "seers_catalog") -> None:
    """Run every timed code path of :func:`run_env_bench` for ``game`` through whole games, untimed: our
    rows' compiled code is loaded from numba's cache, or compiled (the first run after an install, said
    with ``echo``: :func:`seers_cli.bench.compile_notice`), and the peers' lazy set-up is done. The
    threaded row of Seers Catalog warms up in its own child process (:func:`vector_threads_steps_per_s`)."""
    from .bench import compile_notice
    from .game_bench import GAMES, warm_up_game_bench

    if check_bench_game(game) in GAMES:  # Python rules engines: nothing of theirs compiles
        warm_up_game_bench(GAMES[game], seed)
        return
    with compile_notice(echo):
        if game == "scout":
            scout_steps_per_s(0.0, seed, min_games=1)
            scout_vector_steps_per_s(0.0, seed, num_envs=4, min_games=4)
            scout_plays_per_s(0.0, seed, num_envs=4, min_games=4)
        else:
            seers_steps_per_s(0.0, seed, min_games=1)
            vector_steps_per_s(0.0, seed, num_envs=4, min_games=4)
            vector_plays_per_s(0.0, seed, num_envs=4, min_games=4)
    for fn in (texas_holdem_steps_per_s, doudizhu_steps_per_s):
        try:
            fn(0.0, seed, min_games=1)
        except ImportError:
            pass


def run_env_bench(seconds: float = 3.0, seed: int = 0, echo: Callable[[str], None] = typer.echo,
                  game: str = "seers_catalog") -> dict[str, float | None]:
    """``{"seers_catalog_v0": steps/s, "seers vector x256": ..., "seers vector x256, threads": ...,
    "seers plays x256": plays/s (:func:`vector_plays_per_s`), "texas_holdem_v4": steps/s,
    "rlcard_doudizhu": ...}``; ``None`` for a peer that is not installed. With ``game="scout"`` our rows
    are SCOUT's (:data:`SCOUT_ROWS`: :func:`scout_steps_per_s`, :func:`scout_vector_steps_per_s`,
    :func:`scout_plays_per_s`); with ``"haggis"`` or ``"seals"``, those of
    :func:`seers_cli.game_bench.run_game_bench`.

    Times after :func:`warm_up_env_bench` (``echo``: its notice when it compiles), so that compiling
    is never in a figure.

    Raises:
        ValueError: a game :data:`BENCH_GAMES` does not hold.
    """
    from .game_bench import GAMES, run_game_bench

    if game in GAMES:
        return run_game_bench(GAMES[game], seconds, seed)
    warm_up_env_bench(seed, echo, game)
    if game == "scout":
        out: dict[str, float | None] = dict(zip(SCOUT_ROWS, (scout_steps_per_s(seconds, seed),
                                                             scout_vector_steps_per_s(seconds, seed),
                                                             scout_plays_per_s(seconds, seed))))
    else:
        out = {"seers_catalog_v0": seers_steps_per_s(seconds, seed),
               "seers vector x256": vector_steps_per_s(seconds, seed),
               "seers vector x256, threads": vector_threads_steps_per_s(seconds, seed),
               PLAYS_ROW: vector_plays_per_s(seconds, seed)}
    for name, fn in (("texas_holdem_v4", texas_holdem_steps_per_s), ("rlcard_doudizhu", doudizhu_steps_per_s)):
        try:
            out[name] = fn(seconds, seed)
        except ImportError:
            out[name] = None
    return out


def _game_option(value: str) -> str:
    """Typer callback of ``--game``: a game :data:`BENCH_GAMES` holds (``typer.BadParameter`` otherwise)."""
    if value not in BENCH_GAMES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(BENCH_GAMES)}")
    return value


def _notes(game: str, r: dict[str, float | None]) -> list[str]:
    """The caption of the table of ``seers bench env`` for ``game``: what the rows are, and the targets."""
    import os

    aec, batch = ("scout_v0", SCOUT_ROWS[1]) if game == "scout" else ("seers_catalog_v0", "seers vector x256")
    if game == "scout":
        notes = ["Every row runs on one thread, in this process (SCOUT's kernel has no threaded step).",
                 f"{SCOUT_ROWS[2]}: plays/s of ScoutVectorEnv(256).play_features() then step_plays() of a "
                 "random legal play per game; a play is 1 step of the vector row (2 for a Scout & Show), "
                 "one step of Dou Dizhu. The other rows: steps/s."]
    else:
        import numba

        policy = os.environ.get("OMP_WAIT_POLICY", THREADS_WAIT_POLICY)
        notes = [f"threads: SeersVectorEnv(parallel=True), numba's pool of {numba.get_num_threads()} "
                 f"thread(s) on {os.cpu_count()} core(s), in a child process with OMP_WAIT_POLICY="
                 f"{policy}; the other rows run on one thread, in this process.",
                 f"{PLAYS_ROW}: plays/s of SeersVectorEnv(256).play_features() (heuristic column, "
                 "hidden hands, as the self-play actor) then step_plays() of a random legal play per "
                 "game; a play is 1 to 3 steps of the vector rows, one step of Dou Dizhu. The other "
                 "rows: steps/s."]
    if None in r.values():
        notes.append("missing: peers not installed (pip install -e '.[bench]')")
    ours = r[aec]
    for peer, target in (("rlcard_doudizhu", TARGET_VS_DOUDIZHU), ("texas_holdem_v4", TARGET_VS_HOLDEM)):
        if r[peer] and ours:
            ratio = ours / r[peer]
            verdict = "met" if ratio >= target else "NOT met"
            notes.append(f"Target AEC >= {target:g}x {peer}: {verdict} ({ratio:.2f}x)")
    if game == "scout" and r[batch]:
        verdict = "met" if r[batch] >= TARGET_SCOUT_BATCH else "NOT met"
        notes.append(f"Target batch >= {TARGET_SCOUT_BATCH:,} steps/s: {verdict} ({r[batch]:,.0f}; "
                     f"{os.cpu_count()} core(s), one thread)")
    return notes


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @bench_app.command("env")
    def bench_env(
        seconds: float = typer.Option(3.0, callback=positive_seconds, metavar="SECONDS", help="Wall time per environment, in seconds."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Seed of every environment and of the random choices."),
        json_path: str = typer.Option("", "--json", metavar="FILE", help="Also write the results to this JSON file."),
        profile: bool = typer.Option(False, help="Also profile AEC steps: time per step of each part and "
                                                 "its share (Seers Catalog: 20,000 steps, and each part's "
                                                 "share before the compiled engine; --game haggis: 5,000 "
                                                 "haggis_v0 steps at 3 players; not SCOUT or Seals)."),
        game: str = typer.Option("seers_catalog", "--game", callback=_game_option, metavar="GAME",
                                 help="The game whose environments are measured: seers_catalog, scout, "
                                 "haggis or seals."),
    ) -> None:
        """Environment throughput (steps/s of random legal play) and its ratios to peer card games.

        Plays on seers_catalog_v0 (4 players, observations and masks included), our batch API with 256
        games in flight, PettingZoo texas_holdem_v4 and RLCard Dou Dizhu: steps/s and our ratios to each,
        all in one process (except the threaded batch row, 'seers vector x256, threads': numba's thread
        pool in a child process).
        The 'seers plays x256' row is the batch API at the play level, as the self-play actor uses it:
        play_features() (heuristic column, hidden hands) then step_plays() of a random legal play per
        game, in plays/s.

        With --game scout the rows are SCOUT's: scout_v0 (4 players), its batch API with 256 games
        ('scout vector x256') and its play level ('scout plays x256'), each on one thread, in the same
        run as the peers.

        With --game haggis the rows are haggis_v0 at 2 and 3 players and its batch API with 256 games at
        3 players ('HaggisVectorEnv x256'), in turns taken round robin; --profile then profiles its AEC
        step. With --game seals, the same for seals_v0 at 2, 3 and 4 players and 'SealsVectorEnv x256'.

        Targets: the AEC env at least 5x RLCard's Dou Dizhu and 3x texas_holdem_v4; SCOUT's batch API
        at least 200,000 steps/s; haggis_v0 at least 3x Dou Dizhu and seals_v0 at least 1.5x, at each
        player count. The peers need the bench extra: pip install -e '.[bench]' (rows without it print
        'missing').
        """
        import os

        from .bench import check_json_path, write_bench_json
        from .tables import print_cells

        if profile and game not in ("seers_catalog", "haggis"):
            raise typer.BadParameter(f"--profile profiles the Seers Catalog AEC env only (and Haggis' with "
                                     f"--game haggis), not --game {game}", param_hint="'--profile'")
        check_json_path(json_path)
        from . import game_bench

        if game in game_bench.GAMES:
            import textwrap

            spec = game_bench.GAMES[game]
            # the rows take turns for seconds each (plus a warm-up and the peers' imports): say how long
            typer.echo(textwrap.fill(game_bench.measuring_notice(spec, seconds, profile), 80,
                                     subsequent_indent="  "), err=True)
            game_bench.bench_game(spec, seconds, seed, json_path, profile)
            return
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        r = run_env_bench(seconds, seed, game=game)
        aec, vector = ("scout_v0", SCOUT_ROWS[1]) if game == "scout" else ("seers_catalog_v0", "seers vector x256")
        play_row = plays_row(game)
        ours, vec, plays = r[aec], r[vector], r[play_row]

        def times(mine: float | None, value: float | None) -> str:
            return f"{mine / value:.2f}x" if mine and value else "-"

        rows = [[name, "missing" if value is None else f"{value:,.0f}", times(ours, value), times(vec, value),
                 times(plays, value)] for name, value in r.items()]
        title = "SCOUT environment" if game == "scout" else "Environment"
        # drawn on a terminal, Markdown in a file or a pipe, as seers eval, train and runs print tables
        print_cells({"title": f"{title} random play ({seconds:g} s each, load {load:.1f})",
                     "headers": ["environment", "per s", "AEC/this", "vector/this", "plays/this"],
                     "rows": rows, "legend": [], "caption": _notes(game, r)})
        if profile:
            parts = profile_parts(seed=seed)
            prows = [[name, f"{1e6 * parts[name] / parts['steps']:.1f}", f"{parts[name] / parts['total']:.0%}",
                      "-" if before is None else f"{before:.0%}"] for name, _, _, before in PROFILE_PARTS]
            print()
            print_cells({"title": f"cProfile of {parts['steps']:,.0f} AEC steps ({parts['total']:.1f} s profiled)",
                         "headers": ["part", "us/step", "share", "share before"], "rows": prows, "legend": [],
                         "caption": []})
        if json_path:
            def over(mine: float | None, value: float | None) -> float | None:
                return mine / value if mine and value else None

            # every record has the same keys; the plays row's figure is plays_per_s, the others' steps_per_s
            results = {name: {"steps_per_s": None if name == play_row else value,
                              "plays_per_s": value if name == play_row else None,
                              "aec_ratio": over(ours, value), "vector_ratio": over(vec, value),
                              "plays_ratio": over(plays, value),
                              "note": None if value is not None else "not installed"}
                       for name, value in r.items()}
            settings = {"game": game, "seconds": seconds, "seed": seed, "players": 4, "num_envs": 256,
                        "target_vs_rlcard_doudizhu": TARGET_VS_DOUDIZHU, "target_vs_texas_holdem_v4": TARGET_VS_HOLDEM}
            if game == "scout":
                settings["target_batch_steps_per_s"] = TARGET_SCOUT_BATCH
            else:
                settings["play_features"] = {"heuristic_prior": True, "hidden": True}
            write_bench_json(json_path, "env", settings, results)
