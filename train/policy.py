"""Choosing an action with a trained MaskablePPO policy, and loading saved models.

Shared by :class:`train.ppo_agent.PPOAgent` (engine level) and the self-play league's snapshot opponents
(``policy(observation, action_mask) -> int``, the opponent form of
:class:`seers_env.wrappers.SingleAgentSeersEnv`).

Source: sb3-contrib ``MaskableActorCriticPolicy.get_distribution`` (masked logits are ``-1e8``); the
sampling is done here, from a seeded ``numpy.random.Generator``, so that games with a learned opponent
are reproducible.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np


def load_model(path: str | os.PathLike, device: str = "cpu", allow_pickle: bool = False, **kwargs):
    """Load a MaskablePPO model saved with ``model.save`` (``model.zip``, a checkpoint or a snapshot).

    Nothing from the file is run: its ``data`` entry is read as JSON with every pickled entry replaced
    (:func:`train.model_files.load_sb3_model`), its weights with ``torch.load(weights_only=True)``.

    Args:
        path: a ``.zip`` file written by stable-baselines3.
        device: torch device for the policy (default ``"cpu"``).
        allow_pickle: read the file with plain ``MaskablePPO.load``, which unpickles its ``data`` entry and
            so runs any code it holds: only for a file of your own that the safe reader refuses (e.g. one
            written by an older stable-baselines3). No agent spec or command sets it.
        kwargs: passed to ``MaskablePPO.load`` (e.g. ``tensorboard_log``).

    Returns:
        ``sb3_contrib.MaskablePPO`` (no environment attached).

    Raises:
        FileNotFoundError: ``path`` does not exist (the message names it).
        train.model_files.UnsafeModelFileError: the file holds a pickle the safe reader refuses.
        train.model_files.ModelFileError: a damaged, incomplete or foreign file (the message names it).
        train.model_config.ModelConfigError: a ``Dict`` observation (``MultiInputPolicy``) or a
            non-``Discrete`` action space.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no trained model at {str(p)!r}; give the path of a model.zip written by "
                                f"`seers train` (e.g. runs/<run>/model.zip)")
    if allow_pickle:
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(p, device=device, **kwargs)
    from .model_files import load_sb3_model

    return load_sb3_model(p, device=device, **kwargs)


def policy_action(policy, observation: np.ndarray, action_mask: np.ndarray,
                  rng: np.random.Generator | None = None) -> int:
    """One action of a MaskablePPO policy for one observation.

    Args:
        policy: ``sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy`` (``model.policy``).
        observation: float32 ``(OBS_DIM,)``.
        action_mask: ``(N_ACTIONS,)`` bool or int8; at least one entry set.
        rng: ``None`` for the most probable legal action (deterministic); a generator to sample from the
            policy's masked distribution instead.

    Returns:
        The action id (``int``), always one with ``action_mask[a] != 0``.

    Raises:
        ValueError: the mask allows no action, or its length differs from the policy's action space.
    """
    import torch as th

    mask = np.asarray(action_mask).astype(bool).reshape(-1)
    n = policy.action_space.n
    if mask.shape[0] != n:
        raise ValueError(f"action_mask has length {mask.shape[0]}, the policy expects {n}")
    if not mask.any():
        raise ValueError("action_mask allows no action; an agent is only asked to act when it has a choice")
    with th.no_grad():
        obs_t, _ = policy.obs_to_tensor(np.asarray(observation, dtype=np.float32))
        dist = policy.get_distribution(obs_t, action_masks=mask[None, :])
        logits = dist.distribution.logits[0].cpu().numpy().astype(np.float64)
    logits = np.where(mask, logits, -np.inf)
    if rng is None:
        return int(np.argmax(logits))
    p = np.exp(logits - logits.max())
    p /= p.sum()
    return int(rng.choice(n, p=p))


_MODEL_CACHE: dict[tuple, object] = {}
_MODEL_CACHE_MAX = 8


def load_model_cached(path: str | os.PathLike):
    """:func:`load_model` with a per-process cache keyed by the file's absolute path, size and mtime.

    Tournaments build a fresh agent for every game; the cache makes that cheap. The returned model is
    shared: use it read-only. Torch is limited to one thread (single observations gain nothing from more,
    and several processes share the cores).

    Raises:
        FileNotFoundError, train.model_files.ModelFileError, train.model_config.ModelConfigError: as
            :func:`load_model`.
    """
    p = Path(path)
    if not p.is_file():
        return load_model(p)  # raises FileNotFoundError with the message
    st = p.stat()
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _MODEL_CACHE:
        import torch as th

        th.set_num_threads(1)
        if len(_MODEL_CACHE) >= _MODEL_CACHE_MAX:
            _MODEL_CACHE.pop(next(iter(_MODEL_CACHE)))  # oldest inserted
        _MODEL_CACHE[key] = load_model(p)
    return _MODEL_CACHE[key]


class SnapshotOpponent:
    """A frozen copy of the learner, as an opponent ``policy(observation, action_mask) -> int``.

    The model is loaded when the opponent is made (at the episode's reset, inside the environment's
    worker process) and shared through :func:`load_model_cached`, so a snapshot file pruned later in
    the episode does no harm.

    Raises:
        FileNotFoundError: no file at ``path``.

    Args:
        path: a model ``.zip`` (a self-play snapshot).
        seed: seeds the generator actions are sampled from; ``None`` with ``deterministic=True`` is fine.
        deterministic: take the most probable action instead of sampling.
    """

    def __init__(self, path: str | os.PathLike, seed: int | None = None, deterministic: bool = False):
        self.path = str(path)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.policy = load_model_cached(self.path).policy  # now: the file may be pruned during the game

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return policy_action(self.policy, observation, action_mask,
                             None if self.deterministic else self.rng)

    def __repr__(self) -> str:
        return f"SnapshotOpponent({os.path.basename(self.path)!r})"
