"""What is in a folder of training runs: ``seers runs`` (decisions trained on, final evaluation, disk use
per run).

Reads only the JSON files a run writes (``config.json``, ``summary.json``, ``eval.json``) and file sizes;
imports neither torch nor stable-baselines3, so listing is instant.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Parts of a run folder whose disk use is reported separately.
PARTS = ("checkpoints", "snapshots", "tb", "evals")


def folder_size(path: str | os.PathLike) -> int:
    """Bytes of all files under ``path`` (symbolic links not followed); 0 for a missing path."""
    p = Path(path)
    if p.is_file():
        return p.stat().st_size
    total = 0
    for root, _, files in os.walk(p):
        for name in files:
            f = os.path.join(root, name)
            if not os.path.islink(f):
                total += os.path.getsize(f)
    return total


#: Spec kinds of learned agents (``ppo:<model.zip>``, the self-play learner's ``learned``/``learned:<file>``).
LEARNED_KINDS = ("ppo", "learned")


def is_learned(label: str) -> bool:
    """Whether a tournament label names a learned agent (its kind, before ``:`` or ``#``, is in
    :data:`LEARNED_KINDS`)."""
    return label.split(":", 1)[0].split("#", 1)[0] in LEARNED_KINDS


def _learned_results(eval_data: Any) -> list[tuple[str, dict[str, Any]]]:
    """``[(table label, tournament dict)]`` from ``eval.json``: one tournament, a dict label ->
    tournament (MaskablePPO, one table per baseline), or a list of ``{"baseline", "tournament"}``
    (the self-play learner)."""
    if isinstance(eval_data, dict) and "format" in eval_data:
        return [("all", eval_data)]
    if isinstance(eval_data, dict):
        return [(k, v) for k, v in eval_data.items() if isinstance(v, dict) and "format" in v]
    if isinstance(eval_data, list):
        return [(str(x.get("baseline", "all")), x["tournament"]) for x in eval_data
                if isinstance(x, dict) and isinstance(x.get("tournament"), dict) and "format" in x["tournament"]]
    return []


def run_info(run_dir: str | os.PathLike) -> dict[str, Any]:
    """One run's summary as plain data.

    Returns:
        ``{"name", "path", "game", "players", "decisions", "steps", "finished" (summary.json exists), "size" (bytes),
        "sizes" ({part: bytes} for :data:`PARTS` and "models"), "evaluation"}``. ``decisions``: the decisions
        the learner trained on so far (self-play: ``train_decisions``, the policy's plays with a choice;
        MaskablePPO: ``timesteps``, one catalogue action each, or the newest checkpoint's count while
        unfinished; RLlib: ``env_steps``); ``steps``: the run's own count as before (MaskablePPO's
        environment steps, the self-play learner's plays of all seats, RLlib's env steps). Either is None
        when the run folder does not record it. ``game``: the game learned (a :mod:`seers_env.games`
        name; a configuration that names none, MaskablePPO's, RLlib's and older self-play runs', is Seers
        Catalog's).
        where ``evaluation`` is ``None`` without ``eval.json``, else a list of ``{"table", "agent", "deals",
        "mean_score", "score_ci" (None: one deal), "win_rate", "vs": baseline or None, "diff", "diff_ci", "verdict"}`` for
        the learned agent (:func:`is_learned`) in each table, with the paired difference from the heuristic (else the
        first other baseline) of :func:`agents.tournament.paired_differences`.

    Raises:
        FileNotFoundError: ``run_dir`` has no ``config.json`` (not a run folder).
        ValueError: one of its JSON files is not JSON, or holds a field of the wrong type (the message
            names the file and the field); a listing goes on without it (:func:`list_runs`).
    """
    from agents.tournament import paired_differences
    from seers_env.jsonio import read_json_file

    run = Path(run_dir)
    cfg_path = run / "config.json"
    if not cfg_path.is_file():
        raise FileNotFoundError(f"{str(run)!r} is not a run folder: no config.json")
    raw = _object(read_json_file(cfg_path, "run configuration", strict=False), cfg_path, "the file")
    algo = raw.get("algo")
    config = raw.get("config") or (raw.get(algo) if isinstance(algo, str) else None) or {}
    config = _object(config, cfg_path, "its config")
    players = config.get("n_players")
    if players is not None and not _count(players):
        raise ValueError(f"run configuration {str(cfg_path)!r}: n_players={players!r} is not a player count")
    game = config.get("game", "seers_catalog")  # MaskablePPO and RLlib runs, older self-play runs: Seers Catalog
    if not isinstance(game, str) or not game:
        raise ValueError(f"run configuration {str(cfg_path)!r}: game={game!r} is not a game name")
    summary_path = run / "summary.json"
    summary = (_object(read_json_file(summary_path, "run summary", strict=False), summary_path, "the file")
               if summary_path.is_file() else {})
    # MaskablePPO counts environment steps (its decisions); the self-play learner counts the plays of
    # every seat (all_decisions) and, apart, the policy's decisions it trains on; RLlib its env steps
    steps = summary.get("timesteps", summary.get("all_decisions", summary.get("env_steps")))
    decisions = summary.get("timesteps", summary.get("train_decisions", summary.get("env_steps")))
    for name, value in (("steps", steps), ("decisions", decisions)):
        if value is not None and not _count(value):
            raise ValueError(f"run summary {str(summary_path)!r}: its {name} count is {value!r}, not an integer >= 0")
    if steps is None:  # unfinished: the newest checkpoint's step count
        ckpts = [int(p.stem.split("_", 1)[1]) for p in (run / "checkpoints").glob("ckpt_*.zip")
                 if p.stem.split("_", 1)[1].isdigit()] if (run / "checkpoints").is_dir() else []
        steps = max(ckpts) if ckpts else None
        decisions = steps
    sizes = {part: folder_size(run / part) for part in PARTS}
    sizes["models"] = sum(p.stat().st_size for p in (*run.glob("*.zip"), *run.glob("*.pt")) if p.is_file())
    info: dict[str, Any] = {"name": run.name, "path": str(run), "game": game, "players": players,
                            "decisions": decisions, "steps": steps, "finished": summary_path.is_file(), "size": folder_size(run),
                            "sizes": sizes, "evaluation": None}
    eval_path = run / "eval.json"
    if eval_path.is_file():
        try:
            tables = _learned_results(read_json_file(eval_path, "evaluation", strict=False))
        except ValueError:  # not JSON: listed without an evaluation
            tables = []
        rows = []
        for table, data in tables:
            try:
                rows += _evaluation_rows(table, data, paired_differences)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError) as err:
                raise ValueError(f"evaluation {str(eval_path)!r}: its table {table!r} is damaged "
                                 f"({type(err).__name__}: {err})") from None
        info["evaluation"] = rows
    return info


def _object(value: Any, path: Path, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{str(path)!r}: {what} is a JSON {type(value).__name__}, not an object")
    return value


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _interval(value: Any) -> bool:
    return value is None or (isinstance(value, list) and len(value) == 2 and all(map(_number, value)))


def _evaluation_rows(table: str, data: dict[str, Any], paired_differences) -> list[dict[str, Any]]:
    """The rows of the learned agents of one tournament of ``eval.json``, every field checked.

    Raises:
        ValueError, TypeError, KeyError, AttributeError, IndexError: a field missing or of the wrong type.
    """
    labels, agents = data["labels"], data.get("agents", {})
    if not (isinstance(labels, list) and all(isinstance(x, str) for x in labels) and isinstance(agents, dict)):
        raise ValueError("its labels must be a list of strings and its agents an object")
    rows = []
    for label, stats in agents.items():
        if not is_learned(label):
            continue
        if not (isinstance(stats, dict) and _number(stats["mean_score"]) and _number(stats["win_rate"])
                and _interval(stats["score_ci"])):
            raise ValueError(f"agent {label!r}: mean_score and win_rate must be numbers and score_ci a pair or null")
        deals = data.get("deals")
        if deals is not None and not _count(deals):
            raise ValueError(f"deals={deals!r} is not a count")
        others = [x for x in labels if not is_learned(x)]
        base = next((b for b in ("heuristic", "greedy", "random") if b in others), others[0] if others else None)
        row = {"table": table, "agent": label, "deals": deals,
               "mean_score": stats["mean_score"], "score_ci": None if stats["score_ci"] is None else list(stats["score_ci"]),
               "win_rate": stats["win_rate"], "vs": base, "diff": None, "diff_ci": None,
               "verdict": None}
        if base is not None:
            p = paired_differences(data, base)["agents"][label]
            if not (_number(p["mean_diff"]) and (p["ci"] is None or (len(p["ci"]) == 2 and all(map(_number, p["ci"]))))):
                raise ValueError(f"agent {label!r}: its paired difference is not a number")
            row.update(diff=p["mean_diff"], diff_ci=None if p["ci"] is None else list(p["ci"]), verdict=p["verdict"])
        rows.append(row)
    return rows


def list_runs(out: str | os.PathLike = "runs") -> list[dict[str, Any]]:
    """:func:`run_info` of every run folder (a folder with ``config.json``) directly under ``out``,
    oldest first (by the time ``config.json`` was written). A run folder whose files :func:`run_info`
    cannot read is listed with its name, sizes and ``"damaged"``: the message naming the file and field.

    Raises:
        FileNotFoundError: there is nothing at ``out``.
        NotADirectoryError: ``out`` is a file, not a folder.
    """
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise NotADirectoryError(f"{str(root)!r} is a file, not a folder of runs; seers train writes runs "
                                 f"under --out (default 'runs')")
    if not root.is_dir():
        raise FileNotFoundError(f"no runs folder at {str(root)!r}; seers train writes runs under --out "
                                f"(default 'runs')")
    runs = [d for d in root.iterdir() if (d / "config.json").is_file()]
    runs.sort(key=lambda d: ((d / "config.json").stat().st_mtime, d.name))
    out_runs = []
    for d in runs:
        try:
            out_runs.append(run_info(d))
        except ValueError as err:  # one damaged run folder is listed as such; the others as usual
            sizes = {part: folder_size(d / part) for part in PARTS}
            sizes["models"] = 0
            out_runs.append({"name": d.name, "path": str(d), "game": None, "players": None, "decisions": None,
                             "steps": None,
                             "finished": False, "size": folder_size(d), "sizes": sizes, "evaluation": None,
                             "damaged": str(err)})
    return out_runs


def format_size(n: int) -> str:
    """``"9.5 MB"``, ``"160 MB"``, ``"1.2 GB"`` (powers of 1000, as ``du --si``)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            v = n / scale
            return f"{v:.1f} {unit}" if v < 10 else f"{v:.0f} {unit}"
    return f"{n} B"


__all__ = ["LEARNED_KINDS", "PARTS", "is_learned", "folder_size", "format_size", "list_runs", "run_info"]
