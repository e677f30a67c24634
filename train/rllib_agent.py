"""RLlib checkpoints as agents: the ``rllib:<checkpoint dir>`` agent spec (needs ``ray[rllib]``).

:func:`load_rllib_policy` restores the learning module of a checkpoint written by ``seers train --algo
rllib`` (:mod:`train.rllib_train`) and takes out its :class:`~train.scoring_policy.PlayScoringNet`;
:func:`rllib_agent` wraps it in a :class:`~train.scoring_policy.LearnedAgent`, which scores *every* legal
play (no ``K`` limit; see :mod:`train.rllib_env`) and plays the best one. A loaded policy is cached per
process (tournaments build an agent per game).

Loading reads nothing that can run code, and does not import ``ray``: the checkpoint must carry
:data:`SIDECAR` (written next to RLlib's files by :mod:`train.rllib_train`). The module's weights are read
from RLlib's ``module_state.pkl`` (a pickled dict of numpy arrays) with
:func:`train.model_files.unpickle_arrays`, which resolves an exact list of numpy names and nothing else,
and the table from the sidecar (JSON). Tournament worker processes forked from a process that has imported
``ray`` hang (Ray's background threads), and importing ``ray`` costs seconds per process. A checkpoint
without the sidecar or ``module_state.pkl`` could only be read by RLlib's ``RLModule.from_checkpoint``,
which unpickles ``class_and_ctor_args.pkl`` (and can run code from it): it is refused with
:class:`~train.model_files.UnsafeModelFileError` unless ``allow_pickle=True`` is passed from Python.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .model_config import ModelConfig
from .model_files import ModelFileError, UnsafeModelFileError, unpickle_arrays
from .scoring_policy import LearnedAgent, PlayScoringNet, net_from_state

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


def write_sidecar(checkpoint: str | os.PathLike, config: ModelConfig, module_id: str = LEARNING_MODULE) -> None:
    """Write :data:`SIDECAR` into an algorithm checkpoint folder (lets :func:`load_rllib_policy` skip ray)."""
    Path(checkpoint, SIDECAR).write_text(json.dumps({"model_config": config.to_dict(), "module": module_id},
                                                    indent=1, allow_nan=False) + "\n")


#: ``state_dict`` entries (after the ``net.`` prefix) whose shapes give the network's sizes.
_SIZE_KEYS = ("state_net.0.weight", "state_net.2.weight", "play_in.weight")


def _sidecar_and_state(folder: Path) -> tuple[Path, Path]:
    """The sidecar and ``module_state.pkl`` of a module folder ``<ckpt>/learner_group/learner/rl_module/<id>``."""
    return folder.parent.parent.parent.parent / SIDECAR, folder / "module_state.pkl"


def _load_without_ray(folder: Path) -> tuple[PlayScoringNet, ModelConfig]:
    """The policy from RLlib's ``module_state.pkl`` and the sidecar (both present), running nothing from them.

    Raises:
        UnsafeModelFileError: ``module_state.pkl`` names a global that does not rebuild numpy arrays.
        ModelFileError: either file is damaged, or the weights are not those of a PlayScoringNet (a
            missing entry, a wrong shape, non-finite values); the message names the file.
    """
    import numpy as np
    import torch

    from seers_env.jsonio import loads_strict

    from .scoring_policy import NetConfig

    sidecar, state_file = _sidecar_and_state(folder)
    from .model_files import read_bounded

    try:
        meta = loads_strict(read_bounded(sidecar, "RLlib checkpoint sidecar").decode("utf-8"))
        config = ModelConfig.from_dict(meta["model_config"] if isinstance(meta, dict) else meta)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as err:
        raise ModelFileError(f"RLlib checkpoint sidecar {str(sidecar)!r} is damaged: it must be JSON "
                             f'{{"model_config": {{...}}, "module": ...}} ({type(err).__name__}: {err})') from None
    state = unpickle_arrays(read_bounded(state_file, "RLlib module state"), str(state_file))
    if not isinstance(state, dict):
        raise ModelFileError(f"{str(state_file)!r} holds a {type(state).__name__}, not a dict of numpy arrays")
    weights = {}
    for key, value in state.items():
        if not (isinstance(key, str) and key.startswith("net.")):
            continue
        if not (isinstance(value, np.ndarray) and value.dtype.kind == "f"):
            raise ModelFileError(f"{str(state_file)!r}: entry {key!r} is a {type(value).__name__} "
                                 f"{getattr(value, 'dtype', '')}, not a float array")
        weights[key.removeprefix("net.")] = torch.as_tensor(value)
    missing = [f"net.{k}" for k in _SIZE_KEYS if k not in weights or weights[k].ndim != 2]
    if missing:
        raise ModelFileError(f"{str(state_file)!r} is not the state of a PlayScoringRLModule: it lacks the "
                             f"2-d weights {', '.join(missing)} (it holds {len(weights)} net.* entries)")
    hidden, state_dim = weights["state_net.0.weight"].shape
    embed = weights["state_net.2.weight"].shape[0]
    play_dim = weights["play_in.weight"].shape[1]
    net = net_from_state(NetConfig(state_dim=state_dim, play_dim=play_dim, hidden=hidden, embed=embed,
                                   privileged_critic=False), weights, str(state_file))
    return net, config


def load_rllib_policy(path: str | os.PathLike, module_id: str = LEARNING_MODULE,
                      allow_pickle: bool = False) -> tuple[PlayScoringNet, ModelConfig]:
    """The play-scoring network and the table it was trained for, from an RLlib checkpoint
    (memoised per process by module folder and modification time).

    Args:
        path: see :func:`resolve_checkpoint`.
        module_id: the module inside the checkpoint.
        allow_pickle: read a checkpoint without :data:`SIDECAR` or ``module_state.pkl`` with RLlib's
            ``RLModule.from_checkpoint`` (imports ``ray``; unpickles the checkpoint's files, so runs any code
            they hold): only for a checkpoint of your own. No agent spec or command sets it.

    Raises:
        FileNotFoundError: see :func:`resolve_checkpoint`.
        UnsafeModelFileError: (a ``ValueError``) ``module_state.pkl`` names a global outside the numpy
            allow-list, or (without ``allow_pickle``) the checkpoint lacks the sidecar or
            ``module_state.pkl``, so only unpickling could read it.
        ModelFileError: (a ``ValueError``) a damaged or incomplete checkpoint; the message names the file.
        ValueError: the checkpoint's module is not a :class:`~train.rllib_module.PlayScoringRLModule`.
    """
    folder = resolve_checkpoint(path, module_id)
    key = f"{folder.resolve()}@{os.path.getmtime(folder)}"
    if key not in _CACHE:
        sidecar, state_file = _sidecar_and_state(folder)
        if sidecar.is_file() and state_file.is_file():
            import torch

            threads = torch.get_num_threads()
            torch.set_num_threads(1)  # no OpenMP pool in this process: forked tournament workers would hang
            try:
                _CACHE[key] = _load_without_ray(folder)
            finally:
                torch.set_num_threads(threads)
            return _CACHE[key]
        if not allow_pickle:
            lacking = " and ".join(str(p) for p in (sidecar, state_file) if not p.is_file())
            raise UnsafeModelFileError(
                f"RLlib checkpoint {str(folder)!r} lacks {lacking}: without them only RLlib's own loader can "
                f"read it, and it unpickles the checkpoint's files, which can run code from them; refused. "
                f"Checkpoints written by seers train --algo rllib carry both; from Python, "
                f"load_rllib_policy(path, allow_pickle=True) reads a checkpoint you trust")
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
        FileNotFoundError, UnsafeModelFileError, ModelFileError, ValueError: see :func:`load_rllib_policy`.
    """
    agent = LearnedAgent(load_rllib_policy(path), greedy=greedy, seed=seed)
    agent.path = os.fspath(path)
    return agent


__all__ = ["LEARNING_MODULE", "SIDECAR", "load_rllib_policy", "resolve_checkpoint", "rllib_agent", "write_sidecar"]
