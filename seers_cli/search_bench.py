"""``seers bench search``: CPU time per decision of agents (search budgets above all) on the same
positions, with each agent's ratio to a baseline measured in the same run.

A tournament's CPU line (``seers eval``) times each agent on the positions its own games reach; this
benchmark times every agent on one fixed set, so that a budget can be set to another agent's CPU (for
example a guided search at the CPU of ISMCTS at 1,500 iterations) in a minute instead of a tournament.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from typing import TYPE_CHECKING

import typer

from .errors import non_negative

if TYPE_CHECKING:
    from agents.base import Agent


def search_positions(game: str, n_players: int, decisions: int, seed: int, n_rounds: int = 1) -> list:
    """``decisions`` positions with a choice (game clones, each with the seat to act), reached by the
    game's heuristic agent playing every seat of one-round games from the deal seeds
    ``agents.tournament.deal_seeds(seed, ...)``, every position with a choice of every seat in order.

    Raises:
        ValueError: an unknown game or a player count it does not allow (the message names both).
    """
    from agents.games import heuristic_class
    from agents.tournament import deal_seeds, table_config
    from seers_env.games import game_spec

    spec = game_spec(game)
    config = table_config(game, n_players, n_rounds)
    game_class, view_class = spec.game_class(), spec.view_class()
    heuristic = heuristic_class(game)(seed=seed)
    out: list = []
    deal = 0
    while len(out) < decisions:
        state = game_class(config, seed=deal_seeds(seed, deal + 1)[deal])
        while not state.game_over and len(out) < decisions:
            view = view_class(state, state.current)
            if len(state.legal_plays()) > 1:
                out.append(state.clone())
            state.apply(heuristic.act(view))
        deal += 1
    return out


def decision_cpu(spec: str, positions: list, game: str, seed: int,
                 on_decision: Callable[[int], None] | None = None,
                 agent: Agent | None = None) -> dict:
    """CPU seconds (``time.process_time``) of ``spec``'s decisions at ``positions``: one agent (seed
    ``seed``) acts at each in turn, as in a game; a first decision, untimed, loads its model and compiled
    code. ``on_decision(done)`` is called after each timed decision (for progress). ``agent``: time this
    agent instead of a new one of ``spec`` (a variant no spec names; ``spec`` then only labels it).

    Returns:
        ``{"spec", "decisions", "mean_ms", "median_ms", "max_ms", "per_decision_ms": [float],
        "plays": [str]}`` (``plays``: each play chosen, by the game's play identity).

    Raises:
        ValueError: a bad agent spec (``agents.specs.make_agent``'s message).
    """
    import numpy as np

    from agents.games import play_key
    from agents.specs import make_agent
    from seers_env.games import game_spec

    view_class = game_spec(game).view_class()
    key = play_key(game)
    if agent is None:
        agent = make_agent(spec, seed=seed, game=game)
    first = positions[0].clone()
    agent.act(view_class(first, first.current))
    times, plays = [], []
    for state in positions:
        view = view_class(state.clone(), state.current)
        start = time.process_time()
        play = agent.act(view)
        times.append(1000.0 * (time.process_time() - start))
        plays.append(str(key(play)))
        if on_decision is not None:
            on_decision(len(times))
    t = np.array(times)
    return {"spec": spec, "decisions": len(t), "mean_ms": float(t.mean()), "median_ms": float(np.median(t)),
            "max_ms": float(t.max()), "per_decision_ms": [round(x, 3) for x in times], "plays": plays}


#: The most positions ``seers bench search`` takes.
MAX_DECISIONS = 10_000


def _decision_count(value: int) -> int:
    """Typer callback of ``--decisions``: an integer in 1..:data:`MAX_DECISIONS`.

    Raises:
        typer.BadParameter: outside it (the message names the value and the range).
    """
    if not 1 <= value <= MAX_DECISIONS:
        raise typer.BadParameter(f"{value} is not allowed; use an integer in 1..{MAX_DECISIONS:,}")
    return value


#: Seconds between progress lines while one agent decides.
PROGRESS_EVERY_S = 10.0


def _ratio(mine: float, base: float) -> str:
    """``mine / base`` for the table: 3 significant digits, ``<0.001x`` below that, ``--`` for a base of 0."""
    if base <= 0:
        return "--"
    ratio = mine / base
    return "<0.001x" if ratio < 0.001 else f"{ratio:.3g}x"


#: Agent specs longer than this are named ``agent <i>`` in the table, with a legend (80 columns).
LABEL_WIDTH = 28


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @bench_app.command("search")
    def bench_search(
        agents: str = typer.Option("learned+search:800:worlds=64:opponents=mixture,ismcts:1500", metavar="SPECS",
                                   help="Comma-separated agent specs to time (as seers eval --agents)."),
        game: str = typer.Option("seers_catalog", metavar="GAME", help="seers_catalog, scout, seals or haggis."),
        players: int = typer.Option(None, metavar="N", help="Players at the table (default: 4; Haggis and "
                                                          "Seals 3, as seers play)."),
        decisions: int = typer.Option(24, callback=_decision_count, metavar="N",
                                      help="Positions with a choice, from the heuristic's play."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED",
                                 help="Seed of the deals (agents.tournament.deal_seeds) and of the agents."),
        baseline: str = typer.Option("", metavar="SPEC",
                                     help="The agent of --agents whose CPU the others are divided by "
                                          "(default: the last)."),
        json_path: str = typer.Option("", "--json", metavar="FILE", help="Also write the results to this JSON file."),
    ) -> None:
        """CPU time per decision of agents on the same positions, and each one's ratio to a baseline.

        Every agent decides at the same positions with a choice (the heuristic's one-round games from
        --seed); CPU is process time, so another busy process changes it less than wall time. Use it to
        set a search budget at another agent's CPU before a tournament, e.g. --agents
        learned+search:800:worlds=64:opponents=mixture,ismcts:1500.
        """
        import os
        import textwrap

        from .bench import check_json_path, write_bench_json
        from .play_cmd import DEFAULT_PLAYERS
        from .tables import print_cells

        if players is None:
            players = DEFAULT_PLAYERS.get(game, 4)
        specs = [s.strip() for s in agents.split(",") if s.strip()]
        if not specs:
            raise typer.BadParameter("give one or more agent specs", param_hint="--agents")
        if baseline and baseline not in specs:
            raise typer.BadParameter(f"{baseline!r} is not one of --agents {', '.join(specs)}",
                                     param_hint="--baseline")
        check_json_path(json_path)
        try:
            positions = search_positions(game, players, decisions, seed)
        except (ValueError, TypeError) as err:
            raise typer.BadParameter(str(err), param_hint="--game, --players") from None
        echo: Callable[[str], None] = typer.echo
        results = []
        start = time.perf_counter()
        last_line = [time.perf_counter()]
        for i, spec in enumerate(specs):
            def progress(done: int, i: int = i) -> None:
                now = time.perf_counter()
                if now - last_line[0] >= PROGRESS_EVERY_S and done < len(positions):
                    last_line[0] = now
                    echo(f"agent {i + 1}/{len(specs)}: {done}/{len(positions)} decisions "
                         f"({now - start:,.0f} s so far)")

            try:
                r = decision_cpu(spec, positions, game, seed, on_decision=progress)
            except (ValueError, TypeError) as err:
                raise typer.BadParameter(str(err), param_hint="--agents") from None
            results.append(r)
            last_line[0] = time.perf_counter()
            echo(textwrap.fill(f"agent {i + 1}/{len(specs)}: {r['mean_ms']:,.1f} ms per decision "
                               f"({last_line[0] - start:,.0f} s so far): {spec}", 80, subsequent_indent="  ",
                               break_on_hyphens=False))
        base = results[specs.index(baseline) if baseline else -1]
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        labels = [spec if len(spec) <= LABEL_WIDTH else f"agent {i + 1}" for i, spec in enumerate(specs)]
        rows = [[label, f"{r['mean_ms']:,.1f}", f"{r['median_ms']:,.1f}", f"{r['max_ms']:,.1f}",
                 _ratio(r["mean_ms"], base["mean_ms"])]
                for label, r in zip(labels, results)]
        base_label = labels[results.index(base)]
        print_cells({"title": f"CPU per decision, {game}, {players} players, {decisions} positions "
                              f"(seed {seed}, load {load:.1f})",
                     "headers": ["agent", "mean ms", "median ms", "max ms", "ratio"],
                     "rows": rows,
                     "legend": [f"{label}: {spec}" for label, spec in zip(labels, specs) if label != spec],
                     "caption": ["ms: CPU (process time) per decision with a choice, the same positions "
                                 f"for every agent; ratio: the mean over {base_label}'s. It depends on the "
                                 f"machine and its load; the ratio far less, but on the positions: these "
                                 f"are the heuristic's, and a tournament's agents reach others (its CPU "
                                 f"line is the one to match)."]})
        if json_path:
            write_bench_json(json_path, "search", {"agents": specs, "game": game, "players": players,
                                                   "decisions": decisions, "seed": seed,
                                                   "baseline": base["spec"]}, results)
