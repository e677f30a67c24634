"""Training throughput measurement behind ``seers bench train``."""

from __future__ import annotations

import tempfile
import time

from .trainer import TrainConfig, make_vec_env


def training_throughput(vec_env: str, n_envs: int, seconds: float, n_players: int = 4,
                        opponents: str = "random:1,greedy:1,heuristic:2", seed: int = 0,
                        n_steps: int = 128) -> dict[str, float]:
    """Train MaskablePPO (default network) for about ``seconds`` and count environment steps.

    PPO updates are included (whole rollouts of ``n_steps * n_envs`` steps, then the update), so the
    figure is the end-to-end training rate of ``seers train``; the first rollout (process start, warm-up)
    is not counted.

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
            if "t0" not in marks and self.model.num_timesteps > 0:
                marks["t0"], marks["n0"] = time.perf_counter(), self.model.num_timesteps

        def _on_step(self) -> bool:
            return "t0" not in marks or time.perf_counter() - marks["t0"] < seconds

    with tempfile.TemporaryDirectory() as tmp:
        venv = make_vec_env(config, tmp)
        try:
            model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=config.n_epochs,
                                policy_kwargs={"net_arch": {"pi": list(config.net_arch),
                                                            "vf": list(config.net_arch)}},
                                seed=seed, device="cpu", verbose=0)
            model.learn(10**9, callback=_Stop())
            elapsed = time.perf_counter() - marks["t0"]
            steps = model.num_timesteps - marks["n0"]
        finally:
            venv.close()
    return {"steps": int(steps), "seconds": elapsed, "steps_per_s": steps / elapsed}
