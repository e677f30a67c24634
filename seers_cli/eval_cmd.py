"""``seers eval``: a duplicate-format tournament between agents from the command line."""

from __future__ import annotations

import typer

from .errors import SEERS_ONLY, check_game_options, non_negative

#: ``--agents`` when not given, by game: one seat per player of a table the game allows (Haggis 2..3,
#: Seals 2..4: 3 seats, the default table of ``seers play`` and ``seers train``).
DEFAULT_AGENTS = {"seers_catalog": "heuristic,greedy,random,random", "scout": "heuristic,greedy,random,random",
                  "seals": "heuristic,greedy,random", "haggis": "heuristic,greedy,random"}


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add ``seers eval`` to the ``seers`` app."""

    @app.command("eval")
    def eval_cmd(
        ctx: typer.Context,
        agents: str = typer.Option(None, show_default=False,
                                   metavar="SPECS", help="Comma-separated agent specs, one per seat: random, greedy, heuristic, "
                                        "ismcts, ismcts:<iterations>, ismcts:<seconds>s, "
                                        "learned (the shipped model of the game and player count: train/models/), "
                                        "learned:<model.pt>, learned+search:<iterations>, rollout:<shuffles> (Seals), "
                                        "ppo:<model.zip>, rllib:<checkpoint dir> (ppo: and rllib: Seers Catalog only). "
                                        "Default: heuristic,greedy,random,random (Seals and Haggis: "
                                        "heuristic,greedy,random)."),
        games: int = typer.Option(100, min=1, metavar="N", help="Number of deals; each is played once per seat rotation "
                                                   "(games x players games in all)."),
        seed: int = typer.Option(0, callback=non_negative, metavar="SEED", help="Tournament seed: the same seed gives the same results."),
        workers: int = typer.Option(2, min=1, metavar="N", help="Worker processes."),
        game: str = typer.Option("seers_catalog", metavar="GAME", help="The game: seers_catalog, scout, seals or haggis."),
        rounds: int = typer.Option(None, min=1, metavar="N", help="Rounds per game (default: the game's; "
                                   "Seers Catalog 4, SCOUT one per player, 2 for 2 players; Seals: Marks in the round "
                                   "counter, 5; "
                                   "Haggis: to the target score, 350)."),
        artifacts: bool = typer.Option(True, rich_help_panel=SEERS_ONLY, help="Seers Catalog: use the default "
                                       "artifact deck (--no-artifacts: the variant without artifacts)."),
        baseline: str = typer.Option("", metavar="SPEC", help="An agent of --agents (e.g. heuristic): print every other "
                                     "agent's paired per-deal score difference from it with a 95% interval; "
                                     "'tie' when the interval holds 0."),
        seat_baseline: str = typer.Option("", metavar="SPEC", help="An agent spec (e.g. heuristic): also play the same deals "
                                          "with it in every seat, and print each agent's score minus what it "
                                          "scores in the same seats, with a 95% interval (the replacement "
                                          "value, free of an agent's effect on its neighbours)."),
        wide: bool = typer.Option(False, "--wide", help="Show every column (the default fits 80 characters)."),
        out: str = typer.Option("", metavar="FILE", help="Write the full results (stats, every game and the paired "
                                "differences) to this JSON file, e.g. runs/eval.json (git ignores runs/; "
                                "the folder must exist)."),
        checkpoint: str = typer.Option("", metavar="FILE", help="Keep every finished deal in this JSON Lines file "
                                       "(e.g. runs/eval.ckpt.jsonl) and, when it exists, resume from it: its "
                                       "deals are not played again. It must be of the same --agents, --seed, "
                                       "--game, --rounds and artifacts; --games may differ. The "
                                       "--seat-baseline games are not kept."),
        progress: bool = typer.Option(True, help="Show progress: a bar on a terminal, a plain line every "
                                      "10 s otherwise."),
    ) -> None:
        """Duplicate tournament: every deal is played with the agents rotated through all seats.

        Prints mean game scores with 95% intervals (over per-deal means), win rates with Wilson
        intervals and (with --wide) openskill ratings; with --baseline, each agent's paired
        difference from the baseline (a difference whose interval holds 0 is a tie). On a terminal the table is drawn;
        otherwise it is printed as a Markdown table.

        A line under the table gives each agent's CPU time per decision with a choice (process time,
        not wall time: an agent with a wall-time budget such as ismcts:0.1s shows less than 100 ms on a
        loaded machine; copies of one agent are pooled); it depends on the machine and its load, the
        rest of the results do not.
        """

        from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
        from seers_env.games import game_spec

        try:
            game_spec(game)
        except (TypeError, ValueError) as err:
            raise typer.BadParameter(str(err), param_hint="--game") from None
        check_game_options(ctx, game)  # e.g. --no-artifacts with --game scout: refused, not ignored
        deck = (DEFAULT_ARTIFACT_DECK if artifacts else ()) if game == "seers_catalog" else None
        from agents.tournament import (agent_labels, decision_time_line, paired_differences, print_table, run_tournament,
                                 seat_difference_lines, seat_differences)

        if agents is None:
            agents = DEFAULT_AGENTS[game]
        specs = [s.strip() for s in agents.split(",") if s.strip()]
        baseline = baseline.strip()
        if baseline and baseline not in agent_labels(specs):
            raise typer.BadParameter(f"{baseline!r} is not one of the agents {agent_labels(specs)}; the "
                                     f"baseline must play in the tournament", param_hint="--baseline")
        from .errors import option_error

        try:  # every agent checked against the table first, so that its error names --agents
            from agents.specs import make_agent
            from agents.tournament import table_config

            config = table_config(game, len(specs), rounds, deck)
            for spec in specs:
                try:
                    make_agent(spec, game=game).check_game(game, config)
                except ValueError as err:
                    raise typer.BadParameter(str(err), param_hint="--agents") from None
        except ValueError as err:
            if "n_players=" in str(err):  # the seats are the specs: say so
                err = ValueError(f"{err} ({len(specs)} agent specs given, one per seat)")
            raise option_error(err, {"n_rounds": "--rounds", "n_players": "--agents"}, game) from None
        if seat_baseline.strip():  # a bad spec is refused now, not after the whole tournament
            from agents.specs import make_agent

            try:
                make_agent(seat_baseline.strip(), game=game)
            except ValueError as err:
                raise typer.BadParameter(str(err), param_hint="--seat-baseline") from None
        import shlex
        from pathlib import Path

        from agents.tournament import CheckpointError

        for option, path in (("--out", out), ("--checkpoint", checkpoint)):
            if not path:
                continue
            folder = Path(path).expanduser().resolve().parent
            if not folder.is_dir():
                to_make = folder if Path(path).is_symlink() else Path(path).parent  # a link: its target's folder
                raise typer.BadParameter(f"{option} {path!r}: folder {str(folder)!r} does not exist (create it "
                                         f"first, e.g. mkdir -p {shlex.quote(str(to_make))})")
            if Path(path).expanduser().is_dir():
                raise typer.BadParameter(f"{option} {path!r} is a folder; name a file in it")
        if checkpoint and out and Path(checkpoint).expanduser().resolve() == Path(out).expanduser().resolve():
            raise typer.BadParameter(f"--checkpoint and --out name the same file {out!r}; name two files")
        try:
            result = run_tournament(specs, games, seed=seed, workers=workers, n_rounds=rounds,
                                    progress=progress, artifact_deck=deck, game=game,
                                    checkpoint=Path(checkpoint).expanduser() if checkpoint else None)
        except OSError as err:  # the checkpoint cannot be opened, read or written
            if not checkpoint:
                raise
            raise typer.BadParameter(f"{checkpoint!r}: {err.strerror or err}", param_hint="--checkpoint") from None
        except CheckpointError as err:
            raise typer.BadParameter(str(err), param_hint="--checkpoint") from None
        except ValueError as err:
            from .errors import option_error

            raise option_error(err, {"games": "--games", "workers": "--workers", "seed": "--seed",
                                     "n_rounds": "--rounds", "n_players": "--agents"}, game) from None
        paired = paired_differences(result, baseline) if baseline else None
        print_table(result, wide=wide, paired=paired, wide_hint=True)
        timing = decision_time_line(result)
        if timing:
            typer.echo(timing)
        seat = None
        if seat_baseline.strip():
            if progress:
                typer.echo(f"same seats: the same deals with {seat_baseline.strip()} in every seat ...")
            try:
                seat = seat_differences(result, seat_baseline.strip(), workers=workers, artifact_deck=deck,
                                        progress=progress)
            except ValueError as err:
                raise typer.BadParameter(str(err), param_hint="--seat-baseline") from None
            typer.echo("")
            typer.echo(seat_difference_lines(result, seat))
        if out:
            data = result.to_dict()
            if paired is not None:
                data["paired"] = paired
            if seat is not None:
                data["seat_baseline"] = seat
            from seers_env.jsonio import write_json

            write_json(out, data)  # strict JSON: undefined statistics are null
            typer.echo(f"results written to {out}")
