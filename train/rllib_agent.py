"""RLlib checkpoints as agents: the ``rllib:<checkpoint dir>`` agent spec (needs ``ray[rllib]``).

:func:`load_rllib_policy` restores the learning module of a checkpoint written by ``seers train --algo
rllib`` (:mod:`train.rllib_train`) and takes out its :class:`~train.scoring_policy.PlayScoringNet`;
:func:`rllib_agent` wraps it in a :class:`~train.scoring_policy.LearnedAgent`, which scores *every* legal
play (no ``K`` limit; see :mod:`train.rllib_env`) and plays the best one. A loaded policy is cached per
process (tournaments build an agent per game).

Loading does not import ``ray`` when the checkpoint carries :data:`SIDECAR` (written next to RLlib's files
by :mod:`train.rllib_train`): the module's weights are read from RLlib's ``module_state.pkl`` (a pickled
dict of numpy arrays, read with an unpickler that accepts numpy arrays only) and the table from the
sidecar. Tournament worker processes forked from a process that has imported ``ray`` hang (Ray's
background threads), and importing ``ray`` costs seconds per process. Other checkpoints are restored with
RLlib's ``RLModule.from_checkpoint`` (imports ``ray``). Load only checkpoints you trust: RLlib itself
unpickles them.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

from .model_config import ModelConfig
from .scoring_policy import LearnedAgent, PlayScoringNet

#: Module id of the learning policy inside the checkpoint's MultiRLModule.
LEARNING_MODULE = "shared"
#: File in an algorithm checkpoint folder: ``{"model_config": ModelConfig.to_dict(), "module": id}``.
SIDECAR = "seers_model_config.json"
_MODULES = ("learner_group", "learner", "rl_module")


def resolve_checkpoint(path: str | os.PathLike, module_id: str = LEARNING_MODULE) -> Path:
    """The folder of module ``module_id`` inside an RLlib checkpoint.

    Args:
        path: an algorithm checkpoint folder (it holds ``rllib_checkpoint.json``), a ``seers train
            --algo rllib`` run folder (its ``checkpoint/``), or a module folder itself.

    Raises:
        FileNotFoundError: none of these is found at ``path`` (the message says what was looked for).
    """
    p = Path(path).expanduser()
    for base in (p, p / "checkpoint"):
        module = base.joinpath(*_MODULES, module_id)
        if (module / "module_state.pkl").is_file() or (module / "metadata.json").is_file():
            return module
    if (p / "class_and_ctor_args.pkl").is_file() and p.parent.name == "rl_module":
        return p
    raise FileNotFoundError(f"no RLlib checkpoint of module {module_id!r} at {str(p)!r}: expected "
                            f"{'/'.join(_MODULES)}/{module_id} under it or under its checkpoint/ folder "
                            f"(write one with: seers train --algo rllib)")


_CACHE: dict[str, tuple[PlayScoringNet, ModelConfig]] = {}


class _ArraysOnly(pickle.Unpickler):
    """Unpickles dicts of numpy arrays and nothing else."""

    def find_class(self, module: str, name: str):
        if module.split(".")[0] in ("numpy", "collections") or (module, name) == ("builtins", "dict"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a module state")


def write_sidecar(checkpoint: str | os.PathLike, config: ModelConfig, module_id: str = LEARNING_MODULE) -> None:
    """Write :data:`SIDECAR` into an algorithm checkpoint folder (lets :func:`load_rllib_policy` skip ray)."""
    Path(checkpoint, SIDECAR).write_text(json.dumps({"model_config": config.to_dict(), "module": module_id},
                                                    indent=1, allow_nan=False) + "\n")


def _load_without_ray(folder: Path) -> tuple[PlayScoringNet, ModelConfig] | None:
    """The policy from RLlib's ``module_state.pkl`` and the sidecar, or ``None`` when either is missing."""
    import torch

    from .scoring_policy import NetConfig

    sidecar = folder.parent.parent.parent.parent / SIDECAR  # <ckpt>/learner_group/learner/rl_module/<id>
    state_file = folder / "module_state.pkl"
    if not (sidecar.is_file() and state_file.is_file()):
        return None
    meta = json.loads(sidecar.read_text())
    with open(state_file, "rb") as f:
        state = _ArraysOnly(f).load()
    weights = {k.removeprefix("net."): torch.as_tensor(v) for k, v in state.items() if k.startswith("net.")}
    hidden, state_dim = weights["state_net.0.weight"].shape
    embed = weights["state_net.2.weight"].shape[0]
    play_dim = weights["play_in.weight"].shape[1]
    net = PlayScoringNet(NetConfig(state_dim=state_dim, play_dim=play_dim, hidden=hidden, embed=embed,
                                   privileged_critic=False))
    net.load_state_dict(weights)
    net.eval()
    return net, ModelConfig.from_dict(meta["model_config"])


def load_rllib_policy(path: str | os.PathLike,
                      module_id: str = LEARNING_MODULE) -> tuple[PlayScoringNet, ModelConfig]:
    """The play-scoring network and the table it was trained for, from an RLlib checkpoint
    (memoised per process by module folder and modification time).

    Raises:
        FileNotFoundError: see :func:`resolve_checkpoint`.
        ValueError: the checkpoint's module is not a :class:`~train.rllib_module.PlayScoringRLModule`.
    """
    folder = resolve_checkpoint(path, module_id)
    key = f"{folder.resolve()}@{os.path.getmtime(folder)}"
    if key not in _CACHE:
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # no OpenMP pool in this process: forked tournament workers would hang
        try:
            found = _load_without_ray(folder)
        finally:
            torch.set_num_threads(threads)
        if found is not None:
            _CACHE[key] = found
            return found
        from ray.rllib.core.rl_module.rl_module import RLModule

        from .rllib_module import PlayScoringRLModule

        module = RLModule.from_checkpoint(str(folder))
        if not isinstance(module, PlayScoringRLModule):
            raise ValueError(f"RLlib checkpoint {str(folder)!r} holds a {type(module).__name__}, not a "
                             f"PlayScoringRLModule written by seers train --algo rllib")
        net = module.net
        net.eval()
        _CACHE[key] = (net, module.seers_model_config())
    return _CACHE[key]


def rllib_agent(path: str | os.PathLike, seed: int | None = None, greedy: bool = True) -> LearnedAgent:
    """A :class:`~train.scoring_policy.LearnedAgent` playing the checkpoint's policy (argmax over every
    legal play by default, or sampled with ``greedy=False``).

    Raises:
        FileNotFoundError, ValueError: see :func:`load_rllib_policy`.
    """
    agent = LearnedAgent(load_rllib_policy(path), greedy=greedy, seed=seed)
    agent.path = os.fspath(path)
    return agent


__all__ = ["LEARNING_MODULE", "SIDECAR", "load_rllib_policy", "resolve_checkpoint", "rllib_agent", "write_sidecar"]
