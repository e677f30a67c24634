"""``seers runs``: the training runs in a folder, with their final evaluation and disk use."""

from __future__ import annotations

import typer


#: The game column's text of a game whose title is long (the default table fits 80 columns with the
#: time-stamped run names of ``seers train``); a legend line gives the full title.
SHORT_GAME_NAMES = {"seers_catalog": "Seers"}


def game_cell(game: str | None) -> str:
    """The game column's text: the game's title (``Haggis``), :data:`SHORT_GAME_NAMES` for a long one,
    the name as recorded for a game this install does not know, ``?`` when the run does not say."""
    from seers_env.games import game_spec

    if game is None:
        return "?"
    if game in SHORT_GAME_NAMES:
        return SHORT_GAME_NAMES[game]
    try:
        return game_spec(game).title
    except (TypeError, ValueError):
        return str(game)


def runs_cells(runs: list[dict], wide: bool = False) -> dict:
    """Table cells (the form of :func:`agents.tournament.table_cells`) for :func:`train.runs.list_runs`.

    Columns: run, game (:func:`game_cell`), decisions, size, and the learned agent's paired difference
    from the baseline of each evaluation table. When every table has the same baseline (usually the
    heuristic), the difference column is headed ``vs <baseline> ±95%`` as in ``seers eval``; otherwise a
    ``vs`` column names each row's baseline (always with ``wide``, which adds players, deals, the learned
    agent's score and win rate and disk use by part). The default fits 80 columns with run names of up
    to 24 characters (``selfplay_20261202_124501``)."""
    from train.runs import PARTS, format_size

    bases = {e["vs"] for r in runs for e in (r["evaluation"] or [])} - {None}
    one_base = (next(iter(bases)) if bases else "baseline") if len(bases) <= 1 and not wide else None
    headers = ["run", "game", "decisions", "size"] + (
        [f"vs {one_base} ±95%"] if one_base else ["vs", "learned - vs ±95%"])
    if wide:
        headers = ["run", "game", "players", "decisions", "size", *PARTS, "models", "deals", "learned score", "win%",
                   "vs", "learned - vs ±95%"]
    rows = []
    for r in runs:
        evals = r["evaluation"] or [None]
        for k, e in enumerate(evals):
            name = r["name"] if k == 0 else ""
            decisions = r.get("decisions")  # absent from the JSON of an older seers runs
            steps = "?" if decisions is None else f"{decisions:,}"
            if r.get("damaged"):
                steps = "? (damaged)"
            elif not r["finished"]:
                steps += " (unfinished)" if k == 0 else ""
            if e is None:
                score = diff = vs = deals = win = "-"
            else:
                ci = e["score_ci"]
                score = f"{e['mean_score']:.2f} " + ("±n/a" if ci is None else f"±{(ci[1] - ci[0]) / 2:.2f}")
                deals, win, vs = str(e["deals"]), f"{100 * e['win_rate']:.0f}", e["vs"] or "-"
                if e["diff"] is None:
                    diff = "-"
                elif e["diff_ci"] is None:
                    diff = f"{e['diff']:+.2f} ±n/a tie"
                else:
                    h = (e["diff_ci"][1] - e["diff_ci"][0]) / 2
                    diff = f"{e['diff']:+.2f} ±{h:.2f} {e['verdict']}"
            size = format_size(r["size"]) if k == 0 else ""
            game = game_cell(r.get("game")) if k == 0 else ""  # absent from the JSON of an older seers runs
            if wide:
                parts = [format_size(r["sizes"][p]) if k == 0 else "" for p in (*PARTS, "models")]
                rows.append([name, game, str(r["players"]), steps, size, *parts, deals, score, win, vs, diff])
            elif one_base:
                rows.append([name, game, steps, size, diff])
            else:
                rows.append([name, game, steps, size, vs, diff])
    if one_base:
        first = (f"vs {one_base}: the learned agent's game score minus {one_base}'s, paired per deal, ± "
                 f"half-width of its 95% t interval; 'tie' when the interval holds 0; one row per table of "
                 f"the final evaluation (eval.json)")
    else:
        first = ("learned - vs: the learned agent's game score minus that of the baseline in column vs (the "
                 "heuristic if it played, else the first other baseline), paired per deal, ± half-width of its "
                 "95% t interval; 'tie' when the interval holds 0; one row per table of the final evaluation "
                 "(eval.json)")
    shown = sorted({r.get("game") for r in runs if r.get("game") in SHORT_GAME_NAMES})
    legend = [f"{SHORT_GAME_NAMES[g]} = {game_spec_title(g)}" for g in shown]
    caption = [first,
               "decisions: the learner's decisions trained on (self-play: the policy's plays with a choice; "
               "MaskablePPO: environment steps, one catalogue action each; RLlib: env steps); "
               "size: disk use of the run folder; checkpoints/ and snapshots/ are MaskablePPO's "
               "(delete checkpoints/ of a finished run that will not be resumed)"]
    caption += [f"{r['name']} is damaged: {r['damaged']}" for r in runs if r.get("damaged")]
    if wide:
        caption.insert(1, "learned score: its mean game score ± 95% half-width; win%: its win rate")
    else:
        caption.append("--wide: scores, win rates and disk use by part")
    total = sum(r["size"] for r in runs)
    return {"title": f"{len(runs)} run{'' if len(runs) == 1 else 's'}, {format_size(total)} in all", "headers": headers, "rows": rows,
            "legend": legend, "caption": caption}


def game_spec_title(game: str) -> str:
    """The title of a game of :mod:`seers_env.games` (``Seers Catalog``)."""
    from seers_env.games import game_spec

    return game_spec(game).title


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    """Add ``seers runs`` to ``app``."""

    @app.command("runs")
    def runs_cmd(
        out: str = typer.Option(None, metavar="DIR", help="Folder that holds the run folders (seers train "
                                "--out)  [default: runs]"),
        wide: bool = typer.Option(False, "--wide", help="Also players, deals, win rate and disk use by part."),
        json_: bool = typer.Option(False, "--json", help="Print the runs as JSON (plain data) instead."),
    ) -> None:
        """List training runs: decisions trained on, the final evaluation (with the paired difference from
        the heuristic) and disk use. With no runs yet (no runs/ folder here, or an empty folder) it says so
        and how to make one, and exits 0; an --out that is not a folder is an error."""
        import json
        import os

        from agents.tournament import markdown_table
        from seers_env.progress import is_terminal
        from train.runs import list_runs

        given, out = out is not None, "runs" if out is None else out
        if not given and not os.path.lexists(out):
            runs = []  # nothing trained here yet: an empty listing, as for an empty folder
        else:
            try:
                runs = list_runs(out)
            except (FileNotFoundError, NotADirectoryError) as err:
                raise typer.BadParameter(str(err), param_hint="--out") from None
        if json_:
            typer.echo(json.dumps(runs, indent=1))
            return
        if not runs:
            where = f"in {out!r}" if given or os.path.lexists(out) else "(there is no runs/ folder here)"
            typer.echo(f"No runs yet {where}: a run folder holds a config.json.")
            typer.echo(f"Make one with 'seers train{f' --out {out}' if given else ''}'"
                       + ("." if given else "; --out DIR lists another folder."))
            return
        cells = runs_cells(runs, wide)
        if is_terminal():
            from rich.console import Console
            from rich.table import Table

            t = Table(title=cells["title"], caption="\n".join(cells["caption"]), caption_justify="left")
            for i, h in enumerate(cells["headers"]):
                t.add_column(h, justify="left" if i == 0 else "right", no_wrap=True,
                             min_width=max(len(h), *(len(r[i]) for r in cells["rows"])))
            for row in cells["rows"]:
                t.add_row(*row)
            Console().print(t)
        else:
            typer.echo(markdown_table(cells))
