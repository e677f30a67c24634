"""Training throughput measurement behind ``seers bench train``."""

from __future__ import annotations

import tempfile
import time

from .trainer import TrainConfig, make_vec_env


def training_throughput(vec_env: str, n_envs: int, seconds: float, n_players: int = 4,
                        opponents: str = "random:1,greedy:1,heuristic:2", seed: int = 0,
                        n_steps: int = 128) -> dict[str, float]:
    """Train MaskablePPO (default network) for at least ``seconds`` and count environment steps.

    Whole iterations (a rollout of ``n_steps * n_envs`` steps, then the PPO update) are timed, from the
    end of the first one (process start, warm-up) to the first iteration boundary after ``seconds``, so
    the figure is the end-to-end training rate of ``seers train``.

    Returns:
        ``{"steps", "seconds", "steps_per_s"}``.

    Raises:
        ValueError: a bad ``vec_env``, ``n_envs`` or opponent mix (see :class:`TrainConfig`).
    """
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    config = TrainConfig(n_players=n_players, n_envs=n_envs, vec_env=vec_env, opponents=opponents,
                         n_steps=n_steps, batch_size=256, seed=seed)
    marks: dict[str, float] = {}

    class _Stop(BaseCallback):
        def _on_rollout_start(self) -> None:
            now, n = time.perf_counter(), self.model.num_timesteps
            if "t0" not in marks and n > 0:
                marks["t0"], marks["n0"] = now, n  # after the first rollout and update (warm-up)
            elif "t0" in marks and "t1" not in marks and now - marks["t0"] >= seconds:
                marks["t1"], marks["n1"] = now, n  # whole rollouts and updates only

        def _on_step(self) -> bool:
            return "t1" not in marks

    with tempfile.TemporaryDirectory() as tmp:
        venv = make_vec_env(config, tmp)
        try:
            model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=config.n_epochs,
                                policy_kwargs={"net_arch": {"pi": list(config.net_arch),
                                                            "vf": list(config.net_arch)}},
                                seed=seed, device="cpu", verbose=0)
            model.learn(10**9, callback=_Stop())
            elapsed = max(marks["t1"] - marks["t0"], 1e-9)
            steps = marks["n1"] - marks["n0"]
        finally:
            venv.close()
    return {"steps": int(steps), "seconds": elapsed, "steps_per_s": steps / elapsed}


def selfplay_throughput(seconds: float, n_players: int = 4, actors: int = 2, games_in_flight: int = 32,
                        init_model: str = "", seed: int = 0) -> dict[str, float]:
    """Run the self-play learner (:mod:`train.selfplay`, no warm start) for about ``seconds`` of PPO
    (rollouts and updates) and count decisions.

    Args:
        init_model: start from this model file (``""``: a freshly initialised network, which plays as
            the heuristic, as ``seers train`` starts).

    Returns:
        ``{"decisions", "trained", "seconds", "decisions_per_s", "trained_per_s"}``: every decision of
        every seat (one environment step each), and those with more than one legal play (the samples),
        counted from the end of the first update to the end of the last one, so that starting the
        actor processes (imports, loading compiled code) is not counted; ``seconds`` is that span.
    """
    from .selfplay import SelfPlayConfig, train_selfplay

    cfg = SelfPlayConfig(n_players=n_players, seed=seed, minutes=seconds / 60.0, actors=actors,
                         games_in_flight=games_in_flight, imitation_samples=0, init_model=init_model)
    marks: list[dict] = []
    train_selfplay(cfg, None, log=lambda line: None,
                   on_iteration=lambda it, net, stats: marks.append(
                       {k: stats[k] for k in ("all_decisions", "train_decisions", "seconds")}))
    first, last = marks[0], marks[-1]
    if len(marks) < 2:
        first = {"all_decisions": 0, "train_decisions": 0, "seconds": 0.0}
    sec = max(last["seconds"] - first["seconds"], 1e-9)
    plays = last["all_decisions"] - first["all_decisions"]
    trained = last["train_decisions"] - first["train_decisions"]
    return {"decisions": plays, "trained": trained, "seconds": sec,
            "decisions_per_s": plays / sec, "trained_per_s": trained / sec}


def selfplay_actor_throughput(seconds: float, n_players: int = 4, games_in_flight: int = 32, kernel: bool = True,
                              seed: int = 0, init_model: str = "") -> dict[str, float]:
    """The self-play actor alone (:class:`train.selfplay.Actor`, no learner, no worker process, one torch
    thread): rollouts for about ``seconds``, on the compiled kernel (``kernel=True``) or on Python ``Game``
    objects.

    The first rollout (loading compiled code) is not counted; whole rollouts are timed.

    Args:
        init_model: the actor's policy, as in :func:`selfplay_throughput` (``""``: a freshly initialised
            network; a file: that model and its network sizes, :func:`train.selfplay.initial_policy`).

    Returns:
        ``{"decisions", "trained", "seconds", "decisions_per_s", "trained_per_s"}``: every seat's plays
        and the policy's samples (plays with a choice), as :func:`selfplay_throughput`.

    Raises:
        FileNotFoundError, ValueError: ``init_model`` is missing, not a play-scoring model, or made for
        another player count (:func:`train.selfplay.initial_policy`).
    """
    import torch

    from .selfplay import Actor, SelfPlayConfig, initial_policy

    cfg = SelfPlayConfig(n_players=n_players, seed=seed, games_in_flight=games_in_flight, imitation_samples=0,
                         init_model=init_model)
    net, cfg = initial_policy(cfg)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as an actor process
    try:
        actor = Actor(cfg, seed, net=net, kernel=kernel)
        actor.collect()  # warm-up
        d0, trained = actor.decisions, 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            trained += len(actor.collect())
        sec = max(time.perf_counter() - t0, 1e-9)
    finally:
        torch.set_num_threads(threads)
    plays = actor.decisions - d0
    return {"decisions": plays, "trained": trained, "seconds": sec, "decisions_per_s": plays / sec,
            "trained_per_s": trained / sec}


def warm_up(n_players: int = 4, algo: str = "both", opponents: str = "random:1,greedy:1,heuristic:2",
            init_model: str = "", seed: int = 0) -> None:
    """Run the code paths that ``seers bench train --algo algo`` times, once, untimed, in this process,
    so that no figure holds compiling: numba compiles what its cache lacks (the first run after an
    install; the actor and environment worker processes then load it from the cache), and torch and
    the models are loaded.

    ``algo``: ``"both"``, ``"selfplay"``, ``"maskable-ppo"`` or ``"actor"``: the self-play actor's
    rollout on the compiled kernel (and on ``Game`` objects for ``"actor"``), and two short MaskablePPO
    iterations (one environment, whole games of the opponents of ``opponents``).
    """
    if algo in ("both", "selfplay", "actor"):
        for kernel in (True, False) if algo == "actor" else (True,):
            selfplay_actor_throughput(0.0, n_players, kernel=kernel, seed=seed, init_model=init_model)
    if algo in ("both", "maskable-ppo"):
        training_throughput("dummy", 1, 0.0, n_players, opponents, seed, n_steps=256)
