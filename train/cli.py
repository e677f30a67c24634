"""``seers train`` (MaskablePPO with a self-play league) and ``seers bench train`` (training throughput)."""

from __future__ import annotations

import typer

from .league import DEFAULT_MIX
from .trainer import DEFAULT_EVAL_SPECS, TrainConfig

_DEFAULTS = TrainConfig()


def _net(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise typer.BadParameter(f"--net {text!r} must be comma-separated layer sizes >= 1, e.g. 256,256")
    return sizes


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @app.command()
    def train(
        players: int = typer.Option(_DEFAULTS.n_players, help="Players at the table, 2..5."),
        steps: int = typer.Option(_DEFAULTS.total_timesteps, help="Training budget in environment steps "
                                  "(learner decisions); with --resume, the total to reach."),
        opponents: str = typer.Option(DEFAULT_MIX, help="Opponent mix 'spec:weight,...'; specs: self "
                                      "(snapshots of the learner), random, greedy, heuristic, ismcts..."),
        net: str = typer.Option(",".join(map(str, _DEFAULTS.net_arch)), help="Hidden layer sizes of the "
                                "policy and value networks."),
        out: str = typer.Option(_DEFAULTS.out, help="Folder that holds the run folders."),
        name: str = typer.Option("", help="Run folder name (default: a time stamp)."),
        envs: int = typer.Option(_DEFAULTS.n_envs, help="Environments stepped in parallel."),
        vec_env: str = typer.Option(_DEFAULTS.vec_env, help="'dummy' (one process) or 'subproc'."),
        rounds: int = typer.Option(_DEFAULTS.n_rounds, help="Rounds per game (episode)."),
        artifacts: bool = typer.Option(True, help="Use the default artifact deck (or none)."),
        seed: int = typer.Option(_DEFAULTS.seed, help="Seeds everything: environments, league, PPO, evaluation."),
        eval_every: int = typer.Option(_DEFAULTS.eval_every, help="Steps between evaluations (0: none)."),
        eval_games: int = typer.Option(_DEFAULTS.eval_games, help="Deals per evaluation during training."),
        final_games: int = typer.Option(_DEFAULTS.final_eval_games,
                                        help="Deals of the final duplicate tournament (each played once per "
                                             "seat rotation)."),
        eval_agents: str = typer.Option(",".join(DEFAULT_EVAL_SPECS), help="Baselines to evaluate against."),
        checkpoint_every: int = typer.Option(_DEFAULTS.checkpoint_every, help="Steps between checkpoints."),
        snapshot_every: int = typer.Option(_DEFAULTS.snapshot_every, help="Steps between self-play snapshots."),
        learning_rate: float = typer.Option(_DEFAULTS.learning_rate, help="Adam learning rate."),
        n_steps: int = typer.Option(_DEFAULTS.n_steps, help="PPO rollout length per environment."),
        batch_size: int = typer.Option(_DEFAULTS.batch_size, help="PPO minibatch size."),
        epochs: int = typer.Option(_DEFAULTS.n_epochs, help="PPO epochs per update."),
        imitation_samples: int = typer.Option(_DEFAULTS.imitation_samples,
                                              help="Teacher decisions to clone before PPO (behaviour "
                                                   "cloning warm start; 0: PPO from scratch)."),
        imitation_epochs: int = typer.Option(_DEFAULTS.imitation_epochs, help="Epochs of the cloning."),
        imitation_teacher: str = typer.Option(_DEFAULTS.imitation_teacher,
                                              help="Agent cloned by the warm start: heuristic, greedy or "
                                                   "random."),
        workers: int = typer.Option(_DEFAULTS.workers, help="Processes of the evaluation tournaments."),
        resume: str = typer.Option(None, help="Continue from a checkpoint runs/<run>/checkpoints/ckpt_<n>.zip "
                                   "(its run's settings are used; --steps is the total to reach)."),
        progress: bool = typer.Option(True, help="Show progress bars."),
        force: bool = typer.Option(False, "--force", help="Start afresh when the run folder --name exists "
                                   "already (e.g. a failed run); deletes its contents."),
    ) -> None:
        """Train a MaskablePPO agent against a league of baselines and its own snapshots, then evaluate it.

        A fresh run first clones the heuristic agent (behaviour cloning warm start, --imitation-samples
        decisions; saved as bc_model.zip), then PPO fine-tunes it.

        Writes runs/<name>/ with model.zip (agent spec ppo:runs/<name>/model.zip), checkpoints/,
        snapshots/, tb/ (TensorBoard), config.json and eval.json, and prints the evaluation table.
        """
        from .trainer import resolve_resume
        from .trainer import train as run_training

        try:
            if resume:
                _, config = resolve_resume(resume)
                config.total_timesteps = steps
            else:
                config = TrainConfig(
                    n_players=players, n_rounds=rounds, artifacts=artifacts, total_timesteps=steps,
                    n_envs=envs, vec_env=vec_env, opponents=opponents, net_arch=_net(net),
                    learning_rate=learning_rate, n_steps=n_steps, batch_size=batch_size, n_epochs=epochs,
                    snapshot_every=snapshot_every,
                    checkpoint_every=checkpoint_every, eval_every=eval_every, eval_games=eval_games,
                    final_eval_games=final_games, imitation_samples=imitation_samples,
                    imitation_epochs=imitation_epochs, imitation_teacher=imitation_teacher,
                    eval_specs=tuple(s.strip() for s in eval_agents.split(",") if s.strip()),
                    seed=seed, workers=workers, out=out, name=name)
            result = run_training(config, resume=resume, progress=progress, echo=typer.echo, force=force)
        except (ValueError, FileNotFoundError) as err:
            raise typer.BadParameter(str(err)) from None
        from agents.tournament import paired_differences, print_table

        for label, tournament in result.evaluation:
            if label != "all":
                typer.echo(f"Learned agent vs {label}")
            # the learned agent's paired difference from the strongest baseline seated: tie or win
            base = next((b for b in ("heuristic", "greedy", "random") if b in tournament.labels), None)
            print_table(tournament, paired=paired_differences(tournament, base) if base else None)
        typer.echo(f"Run folder: {result.run_dir}  (agent spec: ppo:{result.model_path})")
        if result.imitation:
            im = result.imitation
            typer.echo(f"Imitation warm start: {im['samples']:,} {im['teacher']} decisions collected in "
                       f"{im['collect_s']:.0f} s, cloned in {im['pretrain_s']:.0f} s (train accuracy "
                       f"{im['final_accuracy']:.3f}); cloned policy: ppo:{im['model']}")
        typer.echo(f"Throughput: {result.steps_per_s:,.0f} environment steps (learner decisions) per second "
                   f"over {result.train_s:.0f} s of training, PPO updates included; evaluations "
                   f"{result.eval_s + result.final_eval_s:.0f} s more")

    @bench_app.command("train")
    def bench_train(
        seconds: float = typer.Option(20.0, help="Training wall time per setting, in seconds."),
        players: int = typer.Option(4, help="Players at the table."),
        opponents: str = typer.Option("random:1,greedy:1,heuristic:2", help="Opponent mix."),
    ) -> None:
        """Training throughput (environment steps/s) of MaskablePPO with DummyVecEnv vs SubprocVecEnv.

        Each setting trains for about ``seconds``; the ratio column compares with the first setting.
        """
        from rich.console import Console
        from rich.table import Table

        from .bench import training_throughput

        table = Table(title=f"MaskablePPO training throughput, {players} players ({seconds:g} s each)")
        for col in ("vec env", "envs", "steps", "steps/s", "ratio"):
            table.add_column(col, justify="right")
        base = None
        for vec, n in (("dummy", 8), ("subproc", 2), ("subproc", 4)):
            r = training_throughput(vec, n, seconds, players, opponents)
            base = base or r["steps_per_s"]
            table.add_row(vec, str(n), f"{r['steps']:,}", f"{r['steps_per_s']:,.0f}",
                          f"{r['steps_per_s'] / base:.2f}x")
        Console().print(table)
