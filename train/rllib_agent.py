"""RLlib checkpoints as agents: the ``rllib:<checkpoint dir>`` agent spec (needs ``ray[rllib]``).

:func:`load_rllib_policy` restores the learning module of a checkpoint written by ``seers train --algo
rllib`` (:mod:`train.rllib_train`) with RLlib's ``RLModule.from_checkpoint`` and takes out its
:class:`~train.scoring_policy.PlayScoringNet`; :func:`rllib_agent` wraps it in a
:class:`~train.scoring_policy.LearnedAgent`, which scores *every* legal play (no ``K`` limit; see
:mod:`train.rllib_env`) and plays the best one. ``ray`` is imported on first use only; a loaded policy
is cached per process (tournaments build an agent per game).
"""

from __future__ import annotations

import os
from pathlib import Path

from .model_config import ModelConfig
from .scoring_policy import LearnedAgent, PlayScoringNet

#: Module id of the learning policy inside the checkpoint's MultiRLModule.
LEARNING_MODULE = "shared"
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


__all__ = ["LEARNING_MODULE", "load_rllib_policy", "resolve_checkpoint", "rllib_agent"]
