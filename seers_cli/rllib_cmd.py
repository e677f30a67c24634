"""The ``seers train --algo rllib`` branch of :mod:`seers_cli.train_cmd` (kept apart so that ``seers_cli.train_cmd`` stays
free of ``ray``; this module imports it only when run).

Flags used: ``--players --rounds --artifacts --seed --minutes --decisions`` (env-step budget)
``--iterations --rllib-algo --num-env-runners --envs-per-runner --address --train-batch --minibatch
--epochs --learning-rate --clip --ent-coef --hidden --baseline --baseline-seats --opponent
--opponent-seats --out --name --force --final-games --eval-agents --workers``.
"""

from __future__ import annotations

import typer


def train_rllib_cli(*, players, rounds, artifacts, seed, minutes, env_steps, iterations, algo, num_env_runners,
                    envs_per_runner, address, train_batch, minibatch, epochs, lr, clip, ent_coef, hidden,
                    baseline, baseline_seats, opponent, opponent_seats, out, name, force, final_games,
                    eval_agents, workers) -> None:
    """Build an :class:`~train.rllib_train.RLlibConfig` from the flags, train, print the result."""
    from seers_env.artifacts import DEFAULT_ARTIFACT_DECK

    try:
        from train.rllib_train import RLlibConfig, run_rllib
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise typer.BadParameter(f"--algo rllib needs Ray RLlib ({err}); install it with "
                                 f"pip install -e '.[distributed]'") from None
    d = RLlibConfig()
    try:
        cfg = RLlibConfig(
            n_players=players, n_rounds=rounds, artifact_deck=tuple(DEFAULT_ARTIFACT_DECK) if artifacts else (),
            algo=algo, iterations=iterations, env_steps=env_steps or 0,
            minutes=0.0 if (iterations or env_steps) else (d.minutes if minutes is None else minutes), num_env_runners=num_env_runners,
            envs_per_runner=envs_per_runner, address=address or None, train_batch=train_batch,
            minibatch=min(minibatch, train_batch), epochs=d.epochs if epochs is None else epochs,
            lr=d.lr if lr is None else lr, clip=clip, entropy=ent_coef, hidden=hidden, embed=max(1, hidden // 2),
            baseline=baseline if baseline_seats > 0 else "", baseline_seats=baseline_seats,
            opponent=opponent, opponent_seats=opponent_seats, seed=seed)
        specs = tuple(s.strip() for s in (eval_agents or "heuristic").split(",") if s.strip())
        result = run_rllib(cfg, out=out, name=name, force=force, echo=typer.echo, final_games=final_games,
                           final_specs=specs, workers=workers)
    except (ValueError, FileNotFoundError) as err:
        from .errors import option_error

        from .train_cmd import RLLIB_FLAGS

        raise option_error(err, RLLIB_FLAGS) from None
    from agents.tournament import paired_differences, print_table

    for spec, tournament in result.evaluation:
        typer.echo(f"\nRLlib agent vs {players - 1} x {spec} ({tournament.deals} deals x {players} seat "
                   f"rotations, seed {tournament.seed})")
        print_table(tournament, paired=paired_differences(tournament, spec))
    s = result.summary
    typer.echo(f"Run folder: {result.run_dir}  (agent specs: rllib:{result.checkpoint}, "
               f"learned:{result.model_path})")
    typer.echo(f"RLlib {cfg.algo}: {s['iterations']} iterations, {s['env_steps']:,} env steps (decisions with a "
               f"choice) in {s['train_seconds']:.0f} s = {s['env_steps_per_s']:,.0f} env steps/s, learning "
               f"included (Ray set up in {s['setup_seconds']:.0f} s more)")
