"""``seers train`` (the self-play play-scoring learner by default, or MaskablePPO with ``--algo
maskable-ppo``) and ``seers bench train`` (training throughput)."""

from __future__ import annotations

import textwrap
from types import SimpleNamespace

import typer

from .errors import non_negative, option_error, positive_seconds

#: The defaults of :class:`train.trainer.TrainConfig` (MaskablePPO), :class:`train.selfplay.SelfPlayConfig`
#: and RLlibConfig that ``seers train --help`` shows, and the league's mix and baselines, repeated here so
#: that ``seers train --help`` imports neither torch nor ray nor the compiled engine (it takes a fraction
#: of a second); tests/test_cli_help.py checks that they agree with the configs.
_DEFAULTS = SimpleNamespace(
    n_players=4, n_rounds=4, total_timesteps=100_000, n_envs=8, vec_env="dummy", net_arch=(256, 256),
    learning_rate=1e-4, n_steps=256, batch_size=256, n_epochs=4, imitation_samples=60_000, imitation_epochs=6,
    imitation_teacher="heuristic", snapshot_every=20_000, checkpoint_every=20_000, eval_every=40_000,
    eval_games=10, seed=0, workers=2, out="runs")
_SELFPLAY = SimpleNamespace(
    decisions=420_000, games_in_flight=32, actors=2, lr=1e-4, epochs=3, minibatch=1024, clip=0.2,
    ent_coef=0.003, baseline_seats=0.5, baseline="heuristic", teacher="heuristic", imitation_samples=0,
    imitation_epochs=4, hidden=256, threads=0, precision="auto")
DEFAULT_MIX = "random:1,greedy:1,heuristic:2,self:2"  # train.league.DEFAULT_MIX
DEFAULT_EVAL_SPECS = ("random", "greedy", "heuristic")  # train.trainer.DEFAULT_EVAL_SPECS
#: SCOUT's own defaults of the selfplay flags (train.selfplay.GAME_DEFAULTS["scout"]; tests check they agree).
_SCOUT: dict = {"hidden": 128, "embed": 64, "lr": 3e-4, "minibatch": 256, "decisions": 300_000}
#: Seals' own defaults (train.selfplay.GAME_DEFAULTS["seals"]; tests check they agree).
_SEALS: dict = {"hidden": 64, "embed": 32, "lr": 3e-4, "minibatch": 256, "decisions": 60_000, "actors": 0}
#: Haggis' own defaults (train.selfplay.GAME_DEFAULTS["haggis"]; tests check they agree).
_HAGGIS: dict = {"hidden": 64, "embed": 32, "lr": 1e-3, "minibatch": 64, "epochs": 4, "decisions": 8_000,
                 "actors": 0}
#: Deals of the final tournament of ``seers train`` per game (--final-games).
FINAL_GAMES = {"seers_catalog": 400, "scout": 200, "seals": 200, "haggis": 200}
#: ``--players`` when not given, by game: a table the game allows (Haggis 2..3, Seals 2..4), as ``seers play``.
TRAIN_PLAYERS = {"seers_catalog": _DEFAULTS.n_players, "scout": 4, "seals": 3, "haggis": 3}
LEARNER_GAMES = ("seers_catalog", "scout", "seals", "haggis")
ALGOS = ("selfplay", "maskable-ppo", "rllib")
_RLLIB_MINUTES, _RLLIB_LR, _RLLIB_EPOCHS = 10.0, 3e-4, 4

#: Sections of ``seers train --help`` (typer's ``rich_help_panel``, drawn in click's plain layout by
#: :class:`seers_cli.commands._Command`): the learners that read the options under each heading; the
#: options without one apply to every learner.
SELFPLAY_RLLIB = "Options of selfplay and rllib"
SELFPLAY_ONLY = "Options of selfplay only"
SELFPLAY_PPO = "Options of selfplay and maskable-ppo"
PPO_ONLY = "Options of maskable-ppo only"
PPO_RLLIB = "Options of maskable-ppo and rllib"
RLLIB_ONLY = "Options of rllib only"
#: The learners that read the options of each section (options in no section: every learner).
PANEL_LEARNERS = {SELFPLAY_RLLIB: ("selfplay", "rllib"), SELFPLAY_ONLY: ("selfplay",),
                  SELFPLAY_PPO: ("selfplay", "maskable-ppo"), PPO_ONLY: ("maskable-ppo",),
                  PPO_RLLIB: ("maskable-ppo", "rllib"), RLLIB_ONLY: ("rllib",)}


#: ``seers train`` options of the config fields that error messages name (``field=value ...``), per learner.
_COMMON_FLAGS = {"n_players": "--players", "n_rounds": "--rounds", "artifact_deck": "--artifacts", "seed": "--seed",
                 "minutes": "--minutes", "minibatch": "--minibatch", "clip": "--clip", "hidden": "--hidden",
                 "embed": "--hidden", "baseline": "--baseline", "baseline_seats": "--baseline-seats",
                 "final_games": "--final-games", "final_specs": "--eval-agents", "workers": "--workers",
                 "out": "--out", "name": "--name", "epochs": "--epochs"}
SELFPLAY_FLAGS = {**_COMMON_FLAGS, "game": "--game", "decisions": "--decisions", "games_in_flight": "--games-in-flight",
                  "actors": "--actors", "threads": "--threads", "precision": "--precision", "lr": "--learning-rate",
                  "ent_coef": "--ent-coef", "teacher": "--teacher", "imitation_samples": "--imitation-samples",
                  "imitation_epochs": "--imitation-epochs", "init_model": "--init-model",
                  "others_weight": "--reward-others"}
PPO_FLAGS = {**_COMMON_FLAGS, "total_timesteps": "--steps", "n_envs": "--envs", "vec_env": "--vec-env",
             "opponents": "--opponents", "net_arch": "--net", "learning_rate": "--learning-rate",
             "n_steps": "--n-steps", "batch_size": "--batch-size", "n_epochs": "--epochs",
             "snapshot_every": "--snapshot-every", "checkpoint_every": "--checkpoint-every",
             "eval_every": "--eval-every", "eval_games": "--eval-games", "final_eval_games": "--final-games",
             "eval_specs": "--eval-agents", "imitation_samples": "--imitation-samples",
             "imitation_epochs": "--imitation-epochs", "imitation_teacher": "--teacher", "ent_coef": "--ent-coef",
             "resume": "--resume"}
RLLIB_FLAGS = {**_COMMON_FLAGS, "algo": "--rllib-algo", "iterations": "--iterations", "env_steps": "--decisions",
               "num_env_runners": "--num-env-runners", "envs_per_runner": "--envs-per-runner",
               "address": "--address", "train_batch": "--train-batch", "lr": "--learning-rate",
               "entropy": "--ent-coef", "opponent": "--opponent", "opponent_seats": "--opponent-seats"}


def _net(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise typer.BadParameter(f"--net {text!r} must be comma-separated layer sizes >= 1, e.g. 256,256")
    return sizes


def final_table_header(vs: str, tournament) -> tuple[str, tuple[str, ...]]:
    """The one header line of a final tournament's table and the caption note under it.

    Args:
        vs: who the learned agent meets, e.g. ``"3 x heuristic"``.
        tournament: the :class:`agents.tournament.TournamentResult`.

    Returns:
        ``(title, notes)`` for :func:`agents.tournament.print_table`: the title names the opponents, the
        deals and seat rotations (60 to 75 characters at 4 players); the note gives the deals' seed (the
        final tournament's own, so they were never trained on), the games and rounds.
    """
    t = tournament

    def n(count: int, word: str) -> str:
        return f"{count:,} {word}{'' if count == 1 else 's'}"

    title = f"Learned agent vs {vs}: {n(t.deals, 'deal')} x {n(t.n_players, 'seat rotation')}"
    from agents.tournament import rounds_text

    length = rounds_text(t.game, t.n_rounds)
    length = f"of {length}" if length[0].isdigit() else ("with " if t.game == "seals" else "played ") + length
    note = (f"deals: seed {t.seed}, the final tournament's own, never used in training; "
            f"{n(len(t.games), 'game')} {length}")
    return title, (note,)




def check_learner_options(ctx: typer.Context, algo: str) -> None:
    """Refuse options given on the command line that do not apply to ``--algo algo``: those whose help
    section (:data:`PANEL_LEARNERS`) does not name ``algo``. A
    learner ignores the others' options, so such an option would change nothing (e.g. ``--minutes`` with
    maskable-ppo, ``--iterations`` with selfplay).

    Raises:
        typer.BadParameter: naming each such option and the learners it applies to, before anything runs.
    """
    groups: dict[tuple[str, ...], list[str]] = {}
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name)
        if param.name == "algo" or source is None or source.name != "COMMANDLINE":  # ParameterSource
            continue
        learners = PANEL_LEARNERS.get(getattr(param, "rich_help_panel", None), ALGOS)
        if algo not in learners:
            groups.setdefault(learners, []).append(param.opts[0])
    if groups:
        parts = [f"{', '.join(flags)} only appl{'ies' if len(flags) == 1 else 'y'} to --algo "
                 f"{' or '.join(learners)}" for learners, flags in groups.items()]
        hint = ("; a self-play run continues from a model with --init-model runs/<run>/model.pt"
                if algo == "selfplay" and "--resume" in sum(groups.values(), []) else "")
        raise typer.BadParameter(f"{'; '.join(parts)}, not to --algo {algo} (which would ignore "
                                 f"{'it' if sum(map(len, groups.values())) == 1 else 'them'}){hint}")


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    @app.command()
    def train(
        ctx: typer.Context,
        algo: str = typer.Option("selfplay", metavar="ALGO", help="selfplay: the play-scoring policy trained by "
                                 "self-play PPO (train/selfplay.py); maskable-ppo: sb3-contrib MaskablePPO "
                                 "over the action catalogue against a league (train/trainer.py); rllib: the "
                                 "play-scoring policy on Ray RLlib, one machine or a cluster "
                                 "(train/rllib_train.py; pip install -e '.[distributed]')."),
        game: str = typer.Option("seers_catalog", metavar="GAME", help="The game learned: seers_catalog, "
                                 "scout, seals or haggis (SCOUT, Seals, Haggis: their own defaults where a flag "
                                 "says so; Haggis: one round per game; the other learners play Seers Catalog)."),
        players: int = typer.Option(None, metavar="N", help=f"Players at the table: Seers Catalog and SCOUT 2..5 "
                                    f"(default {TRAIN_PLAYERS['seers_catalog']}), Seals 2..4 and Haggis 2..3 "
                                    f"(default {TRAIN_PLAYERS['haggis']})."),
        minutes: float = typer.Option(None, metavar="MINUTES", rich_help_panel=SELFPLAY_RLLIB, help="Wall-clock budget of the PPO phase, in "
                                      "minutes, instead of --decisions (the result then depends on the "
                                      "machine's speed and load; the warm start and the evaluation come "
                                      "on top)."),
        decisions: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_RLLIB, help=f"Budget of the PPO phase in training "
                                      f"decisions (rllib: environment steps), whatever the machine's speed "
                                      f"(default: selfplay {_SELFPLAY.decisions:,}, about 4 to 5 minutes on 2 idle "
                                      f"cores, SCOUT {_SCOUT.get('decisions', _SELFPLAY.decisions):,}, Seals "
                                      f"{_SEALS['decisions']:,}, Haggis {_HAGGIS['decisions']:,}; rllib "
                                      f"--minutes {_RLLIB_MINUTES:g})."),
        games_in_flight: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_ONLY, help=f"Games played in "
                                            f"lockstep by each actor (one batched forward pass per step; default "
                                            f"{_SELFPLAY.games_in_flight}, SCOUT "
                                            f"{_SCOUT.get('games_in_flight', _SELFPLAY.games_in_flight)})."),
        actors: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_ONLY, help=f"Rollout worker processes (0: in "
                                   f"the learner's process; default {_SELFPLAY.actors}, Seals and Haggis {_SEALS['actors']})."),
        threads: int = typer.Option(_SELFPLAY.threads, metavar="N", rich_help_panel=SELFPLAY_ONLY, help="The learner's torch threads (0: the "
                                    "cores the actors leave, at least 1)."),
        precision: str = typer.Option(_SELFPLAY.precision, metavar="P", rich_help_panel=SELFPLAY_ONLY, help="The learner's forward passes: "
                                      "bfloat16, float32, or auto (bfloat16 where the CPU has AMX or AVX-512 BF16)."),
        minibatch: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_RLLIB, help=f"Decisions per gradient "
                                      f"step (default {_SELFPLAY.minibatch}, SCOUT "
                                      f"{_SCOUT.get('minibatch', _SELFPLAY.minibatch)})."),
        clip: float = typer.Option(_SELFPLAY.clip, metavar="X", rich_help_panel=SELFPLAY_RLLIB, help="PPO clipping range."),
        ent_coef: float = typer.Option(None, metavar="WEIGHT", rich_help_panel=SELFPLAY_RLLIB, help=f"Entropy bonus weight (default "
                                       f"{_SELFPLAY.ent_coef:g}, SCOUT {_SCOUT.get('ent_coef', _SELFPLAY.ent_coef):g})."),
        baseline_seats: float = typer.Option(None, metavar="FRACTION", rich_help_panel=SELFPLAY_RLLIB, help=f"Fraction of seats "
                                             f"played by --baseline instead of the policy (not trained on; default "
                                             f"{_SELFPLAY.baseline_seats:g}, SCOUT "
                                             f"{_SCOUT.get('baseline_seats', _SELFPLAY.baseline_seats):g})."),
        baseline: str = typer.Option(_SELFPLAY.baseline, metavar="SPEC", rich_help_panel=SELFPLAY_RLLIB, help="Agent spec of those seats."),
        hidden: int = typer.Option(None, metavar="WIDTH", rich_help_panel=SELFPLAY_RLLIB, help=f"Hidden layer width (default "
                                   f"{_SELFPLAY.hidden}, SCOUT {_SCOUT.get('hidden', _SELFPLAY.hidden)}; the state "
                                   f"embedding is half of it for SCOUT)."),
        reward_others: float = typer.Option(1.0, metavar="WEIGHT", rich_help_panel=SELFPLAY_ONLY, help="Weight of the other "
                                            "seats' mean round score in the reward: 1 (default) a seat's score minus "
                                            "the others' mean; 0 its own points only (no credit for denying)."),
        init_model: str = typer.Option("", metavar="FILE", rich_help_panel=SELFPLAY_ONLY, help="Start from this model file (runs/<run>/model.pt, "
                                       "same players and deck) instead of the heuristic-residual start."),
        teacher: str = typer.Option(None, metavar="SPEC", rich_help_panel=SELFPLAY_PPO, help="Agent cloned by the warm start: heuristic (selfplay "
                                    "default), ismcts:<budget> (expert iteration, slow), greedy, random. "
                                    "maskable-ppo takes heuristic, greedy or random. Same as --imitation-teacher."),
        steps: int = typer.Option(_DEFAULTS.total_timesteps, metavar="N", rich_help_panel=PPO_ONLY, help="Training budget in environment steps "
                                  "(learner decisions); with --resume, the total to reach."),
        opponents: str = typer.Option(DEFAULT_MIX, metavar="MIX", rich_help_panel=PPO_ONLY, help="Opponent mix 'spec:weight,...'; specs: self "
                                      "(snapshots of the learner), random, greedy, heuristic, ismcts..."),
        net: str = typer.Option(",".join(map(str, _DEFAULTS.net_arch)), metavar="SIZES", rich_help_panel=PPO_ONLY, help="Hidden layer sizes of the "
                                "policy and value networks."),
        out: str = typer.Option(_DEFAULTS.out, metavar="DIR", help="Folder that holds the run folders."),
        name: str = typer.Option("", metavar="NAME", help="Run folder name (default: a time stamp)."),
        envs: int = typer.Option(_DEFAULTS.n_envs, metavar="N", rich_help_panel=PPO_ONLY, help="Environments stepped in parallel."),
        vec_env: str = typer.Option(_DEFAULTS.vec_env, metavar="KIND", rich_help_panel=PPO_ONLY, help="'dummy' (one process) or 'subproc'."),
        rounds: int = typer.Option(_DEFAULTS.n_rounds, metavar="N", rich_help_panel=PPO_RLLIB, help="Rounds per game (episode); selfplay plays 4."),
        artifacts: bool = typer.Option(True, help="Use the default artifact deck (or none)."),
        seed: int = typer.Option(_DEFAULTS.seed, callback=non_negative, metavar="SEED", help="Seeds the training (games, network, PPO, league); the final tournament's deals have their own fixed seed, printed with its table, so they are never trained on."),
        eval_every: int = typer.Option(_DEFAULTS.eval_every, metavar="STEPS", rich_help_panel=PPO_ONLY, help="Steps between evaluations (0: none)."),
        eval_games: int = typer.Option(_DEFAULTS.eval_games, metavar="N", rich_help_panel=PPO_ONLY, help="Deals per evaluation during training."),
        final_games: int = typer.Option(None,
                                        metavar="N", help=f"Deals of the final duplicate tournament (each played once per "
                                             f"seat rotation; default {FINAL_GAMES['seers_catalog']}, SCOUT, "
                                             f"Seals and Haggis {FINAL_GAMES['scout']})."),
        eval_agents: str = typer.Option(None, metavar="SPECS", help="Baselines to evaluate against (default: selfplay and "
                                        "rllib heuristic, each seated against the learned agent in every other "
                                        f"seat; maskable-ppo {','.join(DEFAULT_EVAL_SPECS)})."),
        checkpoint_every: int = typer.Option(_DEFAULTS.checkpoint_every, metavar="STEPS", rich_help_panel=PPO_ONLY, help="Steps between checkpoints."),
        snapshot_every: int = typer.Option(_DEFAULTS.snapshot_every, metavar="STEPS", rich_help_panel=PPO_ONLY, help="Steps between self-play snapshots."),
        learning_rate: float = typer.Option(None, metavar="RATE", help="Adam learning rate (default: " + (
            f"selfplay and maskable-ppo {_SELFPLAY.lr:g}" if _SELFPLAY.lr == _DEFAULTS.learning_rate
            else f"selfplay {_SELFPLAY.lr:g}, maskable-ppo {_DEFAULTS.learning_rate:g}")
            + f", rllib {_RLLIB_LR:g}; selfplay SCOUT {_SCOUT.get('lr', _SELFPLAY.lr):g})."),
        n_steps: int = typer.Option(_DEFAULTS.n_steps, metavar="N", rich_help_panel=PPO_ONLY, help="PPO rollout length per environment."),
        batch_size: int = typer.Option(_DEFAULTS.batch_size, metavar="N", rich_help_panel=PPO_ONLY, help="PPO minibatch size."),
        epochs: int = typer.Option(None, metavar="N", help=f"PPO epochs per update (default: selfplay "
                                   f"{_SELFPLAY.epochs}, maskable-ppo {_DEFAULTS.n_epochs}, rllib "
                                   f"{_RLLIB_EPOCHS})."),
        imitation_samples: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_PPO, help=f"Teacher decisions to clone before PPO "
                                              f"(behaviour cloning warm start; 0: PPO from scratch; default: "
                                              f"selfplay {_SELFPLAY.imitation_samples:,}, maskable-ppo "
                                              f"{_DEFAULTS.imitation_samples:,})."),
        imitation_epochs: int = typer.Option(None, metavar="N", rich_help_panel=SELFPLAY_PPO, help=f"Epochs of the cloning (default: selfplay "
                                             f"{_SELFPLAY.imitation_epochs}, maskable-ppo "
                                             f"{_DEFAULTS.imitation_epochs})."),
        imitation_teacher: str = typer.Option(None,
                                              metavar="SPEC", rich_help_panel=SELFPLAY_PPO, help="Same as --teacher."),
        workers: int = typer.Option(_DEFAULTS.workers, min=1, metavar="N", help="Processes of the evaluation tournaments."),
        resume: str = typer.Option(None, metavar="FILE", rich_help_panel=PPO_ONLY, help="Continue from a checkpoint runs/<run>/checkpoints/ckpt_<n>.zip "
                                   "(its run's settings are used; --steps is the total to reach)."),
        progress: bool = typer.Option(True, rich_help_panel=PPO_ONLY, help="Show progress bars."),
        num_env_runners: int = typer.Option(1, metavar="N", rich_help_panel=RLLIB_ONLY, help="Sampling processes (0: in the driver)."),
        envs_per_runner: int = typer.Option(4, metavar="N", rich_help_panel=RLLIB_ONLY, help="Environments per env runner."),
        address: str = typer.Option(None, metavar="ADDRESS", rich_help_panel=RLLIB_ONLY, help="Join a Ray cluster: auto (started with ray start "
                                    "on this machine) or ray://host:port (default: embedded Ray)."),
        iterations: int = typer.Option(0, metavar="N", rich_help_panel=RLLIB_ONLY, help="Stop after this many training iterations (0: "
                                       "--minutes / --decisions decide)."),
        rllib_algo: str = typer.Option("ppo", metavar="ALGO", rich_help_panel=RLLIB_ONLY, help="ppo or impala."),
        train_batch: int = typer.Option(2000, metavar="N", rich_help_panel=RLLIB_ONLY, help="Env steps per training iteration."),
        opponent: str = typer.Option("", metavar="SPEC", rich_help_panel=RLLIB_ONLY, help="Frozen opponent model for --opponent-seats: learned, "
                                     "learned:<model.pt> or rllib:<checkpoint>."),
        opponent_seats: float = typer.Option(0.0, metavar="FRACTION", rich_help_panel=RLLIB_ONLY, help="Fraction of seats mapped to --opponent."),
        force: bool = typer.Option(False, "--force", help="Start afresh when the run folder --name exists "
                                   "already (e.g. a failed run); deletes its contents."),
    ) -> None:
        """Train an agent (default: self-play, half the seats played by the heuristic), then evaluate
        it against the baselines in a duplicate tournament.

        Default (--algo selfplay): self-play PPO of the play-scoring policy, a learned residual on the
        heuristic's play scores, for --decisions (or --minutes), with half the seats played by the heuristic
        (--baseline-seats); writes runs/<name>/ with model.pt (agent spec
        learned:runs/<name>/model.pt), tb/, config.json, eval.json and summary.json, and prints the
        learned agent's paired per-deal difference from each baseline with its 95% interval.
        The options under "Options:" apply to every learner; the others, to the learners their heading
        names.

        --algo maskable-ppo: clone the heuristic, then MaskablePPO against a league of baselines and
        its own snapshots; writes model.zip (agent spec ppo:runs/<name>/model.zip), checkpoints/,
        snapshots/ and the same logs.
        """
        if algo not in ALGOS:
            raise typer.BadParameter(f"--algo {algo!r} is not one of {', '.join(ALGOS)}")
        if game not in LEARNER_GAMES:
            raise typer.BadParameter(f"{game!r} is not one of {', '.join(LEARNER_GAMES)}", param_hint="--game")
        if game != "seers_catalog" and algo != "selfplay":
            raise typer.BadParameter(f"--algo {algo} plays Seers Catalog only; --game {game} is learned by "
                                     f"--algo selfplay", param_hint="--game")
        if game != "seers_catalog" and not artifacts:
            from seers_env.games import game_spec

            raise typer.BadParameter(f"--no-artifacts applies to Seers Catalog only; {game_spec(game).title} has "
                                     f"no artifacts",
                                     param_hint="--artifacts")
        check_learner_options(ctx, algo)
        if players is None:
            players = TRAIN_PLAYERS[game]
        teacher = teacher or imitation_teacher
        if algo != "selfplay":  # the other learners' defaults of the flags selfplay takes per game
            hidden = _SELFPLAY.hidden if hidden is None else hidden
            minibatch = _SELFPLAY.minibatch if minibatch is None else minibatch
            ent_coef = _SELFPLAY.ent_coef if ent_coef is None else ent_coef
            baseline_seats = _SELFPLAY.baseline_seats if baseline_seats is None else baseline_seats
            final_games = FINAL_GAMES["seers_catalog"] if final_games is None else final_games
        if algo == "rllib":
            import importlib.util

            if importlib.util.find_spec("ray") is None:
                raise typer.BadParameter("--algo rllib needs Ray RLlib, which is not installed: "
                                         "pip install -e '.[distributed]'", param_hint="--algo")
            from .rllib_cmd import train_rllib_cli

            train_rllib_cli(
                players=players, rounds=rounds, artifacts=artifacts, seed=seed, minutes=minutes,
                env_steps=decisions, iterations=iterations, algo=rllib_algo, num_env_runners=num_env_runners,
                envs_per_runner=envs_per_runner, address=address, train_batch=train_batch,
                minibatch=minibatch, epochs=epochs, lr=learning_rate, clip=clip, ent_coef=ent_coef,
                hidden=hidden, baseline=baseline, baseline_seats=baseline_seats, opponent=opponent,
                opponent_seats=opponent_seats, out=out, name=name, force=force, final_games=final_games,
                eval_agents=eval_agents, workers=workers)
            return
        if algo == "selfplay":
            _train_selfplay(
                game=game, players=players, artifacts=artifacts, seed=seed, minutes=minutes, decisions=decisions,
                games_in_flight=games_in_flight, actors=actors, threads=threads, precision=precision,
                lr=learning_rate, epochs=epochs,
                minibatch=minibatch, clip=clip, ent_coef=ent_coef, baseline_seats=baseline_seats,
                baseline=baseline, teacher=teacher, imitation_samples=imitation_samples,
                imitation_epochs=imitation_epochs, hidden=hidden, init_model=init_model, out=out, name=name,
                final_games=final_games, eval_agents=eval_agents, workers=workers, force=force,
                reward_others=reward_others)
            return
        learning_rate = _DEFAULTS.learning_rate if learning_rate is None else learning_rate
        epochs = _DEFAULTS.n_epochs if epochs is None else epochs
        imitation_samples = _DEFAULTS.imitation_samples if imitation_samples is None else imitation_samples
        imitation_epochs = _DEFAULTS.imitation_epochs if imitation_epochs is None else imitation_epochs
        imitation_teacher = teacher or _DEFAULTS.imitation_teacher
        eval_agents = eval_agents or ",".join(DEFAULT_EVAL_SPECS)
        from train.trainer import TrainConfig, resolve_resume
        from train.trainer import train as run_training

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
            raise option_error(err, PPO_FLAGS) from None
        from agents.tournament import paired_differences, print_table

        for label, tournament in result.evaluation:
            vs = ", ".join(tournament.labels[1:]) if label == "all" else f"{tournament.n_players - 1} x {label}"
            title, notes = final_table_header(vs, tournament)
            # the learned agent's paired difference from the strongest baseline seated: tie or win
            base = next((b for b in ("heuristic", "greedy", "random") if b in tournament.labels), None)
            typer.echo("")
            print_table(tournament, paired=paired_differences(tournament, base) if base else None, title=title,
                        notes=notes)
        typer.echo(f"Run folder: {result.run_dir}\n  agent spec: ppo:{result.model_path}")
        if result.imitation:
            im = result.imitation
            typer.echo(textwrap.fill(
                f"Imitation warm start: {im['samples']:,} {im['teacher']} decisions collected in "
                f"{im['collect_s']:.0f} s, cloned in {im['pretrain_s']:.0f} s (train accuracy "
                f"{im['final_accuracy']:.3f}); cloned policy: ppo:{im['model']}", 80, subsequent_indent="  "))
        typer.echo(f"Throughput: {result.steps_per_s:,.0f} environment steps (learner decisions) per second "
                   f"over {result.train_s:.0f} s")
        typer.echo(f"  of training, PPO updates included; evaluations took {result.eval_s + result.final_eval_s:.0f} "
                   "s more")

    def _train_selfplay(*, game, players, artifacts, seed, minutes, decisions, games_in_flight, actors, threads, precision,
                        lr, epochs,
                        minibatch, clip, ent_coef, baseline_seats, baseline, teacher, imitation_samples,
                        imitation_epochs, hidden, init_model, out, name, final_games, eval_agents, workers,
                        force, reward_others=1.0) -> None:
        from agents.tournament import print_table
        from seers_env import DEFAULT_ARTIFACT_DECK

        from train.selfplay import SelfPlayConfig
        from train.selfplay_run import run_selfplay

        try:
            cfg = SelfPlayConfig.for_game(
                game, n_players=players, artifact_deck=tuple(DEFAULT_ARTIFACT_DECK) if artifacts else (),
                seed=seed, minutes=minutes, decisions=decisions,
                games_in_flight=games_in_flight, actors=actors, lr=lr,
                epochs=epochs, minibatch=minibatch, clip=clip,
                ent_coef=ent_coef, baseline_seats=baseline_seats, baseline=baseline,
                teacher=teacher, imitation_samples=imitation_samples, imitation_epochs=imitation_epochs,
                hidden=hidden, embed=None if hidden is None or game == "seers_catalog" else max(1, hidden // 2),
                threads=threads, precision=precision, init_model=init_model, others_weight=reward_others)
            specs = tuple(s.strip() for s in (eval_agents or "heuristic").split(",") if s.strip())
            result = run_selfplay(cfg, out=out, name=name,
                                  final_games=FINAL_GAMES[game] if final_games is None else final_games,
                                  final_specs=specs, workers=workers, force=force, echo=typer.echo)
        except (ValueError, FileNotFoundError) as err:
            raise option_error(err, SELFPLAY_FLAGS, game) from None
        from agents.tournament import paired_differences

        for (spec, tournament), paired in zip(result.evaluation, result.paired):
            title, notes = final_table_header(f"{tournament.n_players - 1} x {spec}", tournament)
            typer.echo("")
            print_table(tournament, paired=paired_differences(tournament, spec), title=title, notes=notes)
        s = result.summary
        typer.echo(f"Run folder: {result.run_dir}")
        typer.echo(f"  agent spec: learned:{result.model_path}")
        if "imitation_accuracy" in s:
            typer.echo(f"Warm start: {cfg.imitation_samples:,} {cfg.teacher} decisions, "
                       f"{s['imitation_seconds']:.0f} s (teacher's play top-scored "
                       f"{100 * s['imitation_accuracy']:.1f}%)")
        typer.echo(textwrap.fill(
            f"Self-play: {s['all_decisions']:,} plays by all seats, {s['rounds']:,} rounds, in "
            f"{s['ppo_seconds']:.0f} s ({s['decisions_per_s']:,.0f} plays/s) of the PPO phase: rollouts, "
            f"updates and compile time, not the warm start or the evaluation; trained on the policy's "
            f"{s['train_decisions']:,} decisions with a choice", 80, subsequent_indent="  "))

    @bench_app.command("train")
    def bench_train(
        seconds: float = typer.Option(20.0, callback=positive_seconds, metavar="SECONDS", help="Training wall time per setting, in seconds."),
        players: int = typer.Option(4, min=2, max=5, metavar="N", help="Players at the table, 2..5."),
        opponents: str = typer.Option("random:1,greedy:1,heuristic:2", metavar="MIX", help="Opponent mix (MaskablePPO)."),
        algo: str = typer.Option("both", metavar="ALGO", help="selfplay, maskable-ppo or both; or actor: the "
                                 "self-play actor alone (no learner), on the compiled kernel and on Python "
                                 "Game objects."),
        model: str = typer.Option("", metavar="FILE", help="Self-play (and --algo actor) starts from this model "
                                  "file ('': a fresh network, which plays as the heuristic, as seers train "
                                  "starts; 'shipped': the model shipped with the package)."),
        json_path: str = typer.Option("", "--json", metavar="FILE", help="Also write the results to this JSON file."),
    ) -> None:
        """Training throughput: decisions per second of the self-play learner and of MaskablePPO.

        Measured in one run: the self-play learner with 1 and 2 actor processes, MaskablePPO with
        DummyVecEnv and SubprocVecEnv. Each setting trains for about --seconds. 'plays/s' counts every
        seat's plays (self-play plays all seats); 'trained/s' counts the learner's training samples:
        self-play's plays with a choice, MaskablePPO's environment steps (one catalogue action of its one
        seat; a play takes 1 to 3). The ratio compares trained/s with the first row.

        With --algo actor nothing is trained: the self-play actor alone plays, in this process with one
        torch thread, on the compiled kernel and on Game objects (from --model too); 'samples/s' counts
        the policy's plays with a choice (what a learner would train on) and the ratio compares plays/s.
        On a terminal the table is drawn; otherwise it is printed as a Markdown table.
        """
        import os

        from .tables import print_cells

        from train.bench import selfplay_actor_throughput, selfplay_throughput, training_throughput, warm_up
        from train.scoring_policy import shipped_model_path, shipped_player_counts

        if algo not in ("both", "selfplay", "maskable-ppo", "actor"):
            raise typer.BadParameter(f"--algo {algo!r} is not one of both, selfplay, maskable-ppo, actor")
        if model == "shipped":
            if not os.path.isfile(shipped_model_path(players)):
                raise typer.BadParameter(f"--model shipped: no shipped model for {players} players (shipped for "
                                         f"{shipped_player_counts()} players)")
            model = shipped_model_path(players)
        elif model and not os.path.isfile(model):
            raise typer.BadParameter(f"--model {model!r}: no such file (give a model.pt, 'shipped' or '')")
        start = f", {os.path.basename(model)}" if model and algo != "maskable-ppo" else ""
        title = f"Training throughput, {players} players ({seconds:g} s each{start})"
        headers = ["learner", "setting", "plays/s", "samples/s" if algo == "actor" else "trained/s", "ratio"]
        rows: list[list[str]] = []
        from .bench import check_json_path, write_bench_json

        check_json_path(json_path)
        from .bench import compile_notice

        with compile_notice():  # untimed: compiles (once per install) and loads what the figures time
            warm_up(players, algo, opponents, model)
        base = None
        results = []
        if algo in ("both", "selfplay"):
            for actors in (1, 2):
                r = selfplay_throughput(seconds, players, actors=actors, init_model=model)
                base = base or r["trained_per_s"]
                results.append({"learner": "selfplay", "actors": actors, **r, "ratio": r["trained_per_s"] / base})
                rows.append(["selfplay", f"{actors} actor{'s' if actors > 1 else ''}",
                             f"{r['decisions_per_s']:,.0f}", f"{r['trained_per_s']:,.0f}",
                             f"{r['trained_per_s'] / base:.2f}x"])
        if algo == "actor":
            for kernel in (False, True):
                r = selfplay_actor_throughput(seconds, players, kernel=kernel, init_model=model)
                base = base or r["decisions_per_s"]
                path = "kernel" if kernel else "Game objects"
                results.append({"learner": "selfplay_actor", "path": path, **r,
                                "ratio": r["decisions_per_s"] / base})
                rows.append(["actor only", path, f"{r['decisions_per_s']:,.0f}", f"{r['trained_per_s']:,.0f}",
                             f"{r['decisions_per_s'] / base:.2f}x"])
        if algo in ("both", "maskable-ppo"):
            for vec, n in (("dummy", 8), ("subproc", 2)):
                r = training_throughput(vec, n, seconds, players, opponents)
                base = base or r["steps_per_s"]
                results.append({"learner": "maskable_ppo", "vec_env": vec, "n_envs": n, **r,
                                "ratio": r["steps_per_s"] / base})
                rows.append(["MaskablePPO", f"{vec} x{n}", "n/a", f"{r['steps_per_s']:,.0f}",
                             f"{r['steps_per_s'] / base:.2f}x"])
        if algo == "actor":
            notes = ["Nothing is trained: plays/s counts every seat's plays of the self-play actor alone, "
                     "samples/s the policy's plays with a choice (what a learner would train on); ratio: "
                     "plays/s against the first row"]
        else:
            notes = ["plays/s: every seat's plays; trained/s: the learner's training samples (self-play: "
                     "plays with a choice; MaskablePPO: environment steps, 1 to 3 per play); ratio: trained/s "
                     "against the first row"]
            if algo in ("both", "selfplay"):
                from train.selfplay import SelfPlayConfig, learner_bfloat16, learner_threads

                notes.append("self-play learner: " + ", ".join(
                    f"{learner_threads(SelfPlayConfig(actors=a))} torch thread(s) with {a} actor(s)" for a in (1, 2))
                    + f"; forward passes in {'bfloat16' if learner_bfloat16(SelfPlayConfig()) else 'float32'} "
                    "(seers train --threads, --precision)")
        print_cells({"title": title, "headers": headers, "rows": rows, "legend": [], "caption": notes})
        if json_path:
            write_bench_json(json_path, "train", {"seconds": seconds, "players": players, "algo": algo,
                                                  "opponents": opponents, "model": model}, results)
