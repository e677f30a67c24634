"""A ``seers train`` run of the self-play learner (:mod:`train.selfplay`): run folder, logs, evaluation.

One call of :func:`run_selfplay` makes::

    runs/<name>/
        config.json    the SelfPlayConfig and the evaluation settings
        model.pt       the trained policy (agent spec ``learned:runs/<name>/model.pt``), with its
                       ModelConfig (game, players, artifact deck, feature version)
        tb/            TensorBoard logs (``tensorboard --logdir runs``), when tensorboard is installed
        eval.json      the final duplicate tournament (learned agent vs the baselines)
        summary.json   throughput, losses, the paired difference from each baseline

The final evaluation is a duplicate tournament (:func:`agents.tournament.run_tournament`) on deals drawn
from ``eval_seed``, a seed sequence apart from the training games', so the agent never trained on them.
"""

from __future__ import annotations

import os
import shlex
import sys
import textwrap
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from seers_env.jsonio import write_json

from .errors import naming
from .selfplay import SelfPlayConfig, train_selfplay

DEFAULT_FINAL_SPECS = ("heuristic",)


@dataclass
class SelfPlayRunResult:
    """What :func:`run_selfplay` returns: the run folder, the model path, the final tournaments
    (``(label, TournamentResult)``), the paired differences and the summary dict."""

    run_dir: Path
    model_path: Path
    evaluation: list[tuple[str, Any]] = field(default_factory=list)
    paired: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def run_selfplay(cfg: SelfPlayConfig, out: str = "runs", name: str = "", final_games: int = 200,
                 final_specs: tuple[str, ...] = DEFAULT_FINAL_SPECS, eval_seed: int = 1_000_003,
                 workers: int = 2, force: bool = False, echo: Callable[[str], None] = print,
                 progress_every: float = 15.0) -> SelfPlayRunResult:
    """Train with :func:`~train.selfplay.train_selfplay`, save, evaluate; module docstring.

    Args:
        cfg: the learner's hyperparameters.
        out, name: the run folder is ``out/name`` (``name`` default: a time stamp).
        final_games: deals of each final duplicate tournament (0: none).
        final_specs: baseline specs; each tournament seats the learned agent against ``n_players - 1``
            copies of one baseline.
        eval_seed: seed of the evaluation deals.
        workers: processes of the evaluation tournaments.
        force: reuse an existing run folder (its files are overwritten).
        echo: where progress lines go.

    Raises:
        ValueError: bad settings or baseline specs (the message names the setting), or an existing run
            folder without ``force``; FileNotFoundError: no model at ``cfg.init_model``. All are checked
            before anything is written or trained.
    """
    from agents.specs import make_agent
    from agents.tournament import paired_differences, run_tournament

    from .scoring_policy import LearnedAgent
    from .selfplay import initial_policy

    table = cfg.game_config()  # validates players and deck
    adapter = cfg.adapter()
    specs = [("baseline", cfg.baseline), ("teacher", cfg.teacher)] + [("final_specs", s) for s in final_specs]
    for what, spec in specs:  # ValueError on a bad spec, before any work
        try:
            make_agent(spec, game=cfg.game).check_game(cfg.game, table)
        except (FileNotFoundError, ValueError) as err:
            raise naming(err, what, spec) from None
    adapter.check_config(cfg)
    from agents.tournament import MAX_DEALS

    for what, value, low, high in (("final_games", final_games, 0, MAX_DEALS), ("workers", workers, 1, None)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high and value > high):
            raise ValueError(f"{what}={value!r} is not allowed; use an integer >= {low}"
                             + (f" and <= {high:,}" if high else ""))
    if cfg.init_model:  # the model file must exist and fit the table before anything is written
        try:
            initial_policy(cfg)
        except (FileNotFoundError, ValueError) as err:
            raise naming(err, "init_model", cfg.init_model) from None
    run_dir = Path(out) / (name or time.strftime("selfplay_%Y%m%d_%H%M%S"))
    if run_dir.exists() and any(run_dir.iterdir()) and not force:
        raise ValueError(f"run folder {str(run_dir)!r} already exists; choose another --name or pass --force")
    run_dir.mkdir(parents=True, exist_ok=True)
    command = " ".join(shlex.quote(a) for a in sys.argv) if sys.argv else ""
    write_json(run_dir / "config.json", {"algo": "selfplay", "selfplay": asdict(cfg),
                                          "final_games": final_games, "final_specs": list(final_specs),
                                          "eval_seed": eval_seed, "command": command})
    writer = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(run_dir / "tb"))
    except ImportError:  # tensorboard is optional
        pass

    def on_iteration(it: int, net, stats: dict[str, Any]) -> None:
        if writer is not None:
            for k, v in stats.items():
                if isinstance(v, (int, float)) and k != "iteration":
                    writer.add_scalar(f"selfplay/{k}", v, stats["train_decisions"])

    model_path = run_dir / "model.pt"
    budget = (f"{cfg.minutes:g} minute{'' if cfg.minutes == 1 else 's'}" if cfg.minutes is not None
              else f"{cfg.decisions:,} decision{'' if cfg.decisions == 1 else 's'}")
    actors = ("in the learner's process" if cfg.actors == 0
              else f"x {cfg.actors} actor{'' if cfg.actors == 1 else 's'}")
    warm = (f"a warm start on {cfg.imitation_samples:,} {cfg.teacher} decisions, then "
            if cfg.imitation_samples else "")
    wrap = textwrap.TextWrapper(width=80, subsequent_indent="  ", break_on_hyphens=False)  # not "self-\n  play"
    game = "" if cfg.game == "seers_catalog" else f"{adapter.title}, "
    echo(wrap.fill(f"Training {run_dir}: {warm}self-play PPO for {budget} ({game}{cfg.n_players} players, "
         f"{cfg.games_in_flight} games {actors}), then {final_games} evaluation "
         f"deal{'s' if final_games != 1 else ''} x {cfg.n_players} seat rotations per baseline"))
    t0 = time.perf_counter()
    net, summary = train_selfplay(cfg, str(model_path), log=echo, progress_every=progress_every,
                                  on_iteration=on_iteration, trained_with=command)
    if writer is not None:
        writer.close()
    summary["train_seconds"] = time.perf_counter() - t0
    result = SelfPlayRunResult(run_dir, model_path, summary=summary)
    evals = []
    if final_games:
        t1 = time.perf_counter()
        agent = LearnedAgent(str(model_path))
        agent.name = "learned"
        for spec in final_specs:
            echo(wrap.fill(f"final evaluation: learned vs {cfg.n_players - 1} x {spec}, {final_games} deals x "
                 f"{cfg.n_players} seat rotations ..."))
            tour = run_tournament([agent] + [spec] * (cfg.n_players - 1), games=final_games, seed=eval_seed,
                                  workers=workers, n_rounds=adapter.final_rounds, progress=True,
                                  artifact_deck=adapter.table_deck(cfg.artifact_deck), game=cfg.game)
            result.evaluation.append((spec, tour))
            result.paired.append(paired_differences(tour, spec)["agents"]["learned"] | {"baseline": spec})
            evals.append({"baseline": spec, "tournament": tour.to_dict()})
        summary["eval_seconds"] = time.perf_counter() - t1
        write_json(run_dir / "eval.json", evals)
    summary["paired"] = result.paired
    summary["model"] = str(model_path)
    write_json(run_dir / "summary.json", {k: v for k, v in summary.items() if k != "config"})
    return result
