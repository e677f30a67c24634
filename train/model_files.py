"""Reading model, checkpoint and state files without running code from them.

A pickle can name any importable function and have the unpickler call it, so a model file from a stranger
may run code while it is read. Every loader of the project reads its file in one of these ways:

- ``torch.load(..., weights_only=True)`` (play-scoring ``.pt`` models, the ``.pth`` entries of a
  stable-baselines3 zip): torch's own unpickler, which builds tensors and plain containers only.
- :func:`unpickle_arrays` (RLlib's ``module_state.pkl``): an unpickler that resolves an exact list of
  names, the ones that rebuild numpy arrays, numpy scalars and dicts (:data:`NUMPY_ARRAY_GLOBALS`).
- :func:`load_sb3_model` (stable-baselines3 / sb3-contrib ``.zip``): the zip's ``data`` entry is JSON in
  which SB3 stores the objects JSON cannot hold as base64 cloudpickles (``":serialized:"``).
  None of them is unpickled: each is checked to name only the exact globals an SB3 file of this project
  names (read with an unpickler that builds nothing), then replaced through SB3's ``custom_objects`` by an
  object made here from its readable fields (the space's shape and bounds, the schedule's constant).

A file that would need anything else raises :class:`UnsafeModelFileError`; a damaged or incomplete one
:class:`ModelFileError`. Both are ``ValueError`` and name the file. ``docs/file_formats.md`` lists every
file format the project reads.

Sources: Python ``pickle`` docs, "Restricting Globals"; stable-baselines3 ``common/save_util.py``
(``data_to_json``, ``json_to_data``, ``load_from_zip_file``); PyTorch ``torch.load`` ``weights_only``.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
import pickle
import re
import zipfile
from collections.abc import Iterable
from typing import Any


class ModelFileError(ValueError):
    """A model, checkpoint or state file is damaged, incomplete or not of the kind expected (the message
    names the file and what is wrong)."""


class UnsafeModelFileError(ModelFileError):
    """A file holds, or could only be read by running, code (a pickle naming a function or class outside
    the loader's allow-list): refused, and nothing from it was run (the message names the file and why)."""


#: Exact ``(module, name)`` pairs a pickle of numpy arrays, numpy scalars and dicts names (numpy 1 and 2
#: module paths; ``collections.OrderedDict`` for ``state_dict()``-shaped dicts).
NUMPY_ARRAY_GLOBALS = frozenset({
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("collections", "OrderedDict"), ("builtins", "dict"),
})


def _numpy_global(module: str, name: str) -> Any:
    """The object an allowed name stands for, from the installed numpy (its ``_core`` or ``core``)."""
    import collections

    import numpy as np

    if module == "numpy":
        return {"ndarray": np.ndarray, "dtype": np.dtype}[name]
    if module == "collections":
        return collections.OrderedDict
    if module == "builtins":
        return dict
    core = getattr(np, "_core", None) or np.core
    return getattr(getattr(core, module.rsplit(".", 1)[1]), name)


class _ExactGlobals(pickle.Unpickler):
    """Resolves the names of :data:`NUMPY_ARRAY_GLOBALS` and nothing else."""

    def __init__(self, file, source: str):
        super().__init__(file)
        self.source = source

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in NUMPY_ARRAY_GLOBALS:
            return _numpy_global(module, name)
        raise UnsafeModelFileError(
            f"{self.source!r} refers to {module}.{name}, which is not among the numpy-array names this "
            f"loader allows; the file was not read (a pickle can run such a function)")

    def persistent_load(self, pid: Any) -> Any:
        raise ModelFileError(f"{self.source!r} holds a persistent id; a plain pickle of arrays has none")


def unpickle_arrays(data: bytes, source: str) -> Any:
    """Unpickle ``data`` (dicts, lists, numbers, strings, numpy arrays and scalars) without running code.

    Args:
        data: the bytes of a pickle, e.g. RLlib's ``module_state.pkl`` (a dict of numpy arrays).
        source: the file, for the messages.

    Returns:
        The unpickled object.

    Raises:
        UnsafeModelFileError: the pickle names a global outside :data:`NUMPY_ARRAY_GLOBALS`.
        ModelFileError: the pickle is truncated or damaged.
    """
    try:
        return _ExactGlobals(io.BytesIO(data), source).load()
    except ModelFileError:
        raise
    except Exception as err:  # truncated or damaged: EOFError, UnpicklingError, ValueError, TypeError, ...
        raise ModelFileError(f"{source!r} is not a readable pickle of arrays ({type(err).__name__}: {err})") from None


class _Inert:
    """What :class:`_NamesOnly` builds for every global: accepts any arguments and state, runs nothing."""

    def __init__(self, *args: Any, **kwargs: Any):
        pass

    def __call__(self, *args: Any, **kwargs: Any) -> _Inert:
        return _Inert()

    def __setstate__(self, state: Any) -> None:
        pass

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def append(self, item: Any) -> None:
        pass

    def extend(self, items: Any) -> None:
        pass


class _NamesOnly(pickle.Unpickler):
    """Walks a pickle checking each global it names against ``allowed``; imports and builds nothing."""

    def __init__(self, file, allowed: frozenset, source: str, what: str):
        super().__init__(file)
        self.allowed, self.source, self.what = allowed, source, what

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self.allowed:
            raise UnsafeModelFileError(
                f"model file {self.source!r}: {self.what} is a pickle that refers to {module}.{name}, which an "
                f"SB3 model file of this project never holds; refused without unpickling anything")
        return _Inert

    def persistent_load(self, pid: Any) -> Any:
        return _Inert()


def check_pickle_names(data: bytes, allowed: Iterable[tuple[str, str]], source: str, what: str) -> None:
    """Check that the pickle ``data`` names only globals of ``allowed``, without importing or calling any.

    Raises:
        UnsafeModelFileError: it names another global.
        ModelFileError: it is not a readable pickle.
    """
    try:
        _NamesOnly(io.BytesIO(data), frozenset(allowed), source, what).load()
    except ModelFileError:
        raise
    except Exception as err:
        raise ModelFileError(f"model file {source!r}: {what} is a damaged pickle ({type(err).__name__}: {err})") from None


def one_line(err: BaseException, limit: int = 500) -> str:
    """``str(err)`` on one line (runs of white space as one space), cut to ``limit`` characters."""
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


_REFUSED_GLOBAL = re.compile(r"GLOBAL (\S+) (?:was not an allowed global|whose module \S+ is blocked)")


def weights_only_refusal(err: BaseException) -> str | None:
    """The global that ``torch.load(weights_only=True)`` refused to load (e.g. ``"posix.system"``), or
    ``None`` when ``err`` is not such a refusal (torch reports a damaged file with the same exception).

    Source: ``torch.serialization.load`` (``_get_wo_message``), ``torch._weights_only_unpickler``.
    """
    if not isinstance(err, pickle.UnpicklingError):
        return None
    m = _REFUSED_GLOBAL.search(str(err))
    return m.group(1) if m else None


def torch_load_problem(err: BaseException) -> str:
    """What a failed ``torch.load`` found, on one line, without torch's advice to load the file unsafely."""
    text = str(err)
    if text.startswith("Weights only load failed"):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        inner = [line for line in lines[1:] if not line.startswith(("Check the documentation", "Please file"))]
        text = inner[-1] if inner else lines[0]
    return one_line(text, 300)


# --- stable-baselines3 / sb3-contrib zip files --------------------------------------------------------

_ARRAYS = NUMPY_ARRAY_GLOBALS
_RNG = frozenset({("numpy.random._pickle", "__generator_ctor"), ("numpy.random._pickle", "__bit_generator_ctor"),
                  ("numpy.random._pcg64", "PCG64"), ("numpy.random.bit_generator", "SeedSequence"),
                  ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence")})
_SPACES = frozenset({("gymnasium.spaces.box", "Box"), ("gymnasium.spaces.discrete", "Discrete"),
                     ("gymnasium.spaces.dict", "Dict")}) | _ARRAYS | _RNG
_SCHEDULE = frozenset({("stable_baselines3.common.utils", "FloatSchedule"),
                       ("stable_baselines3.common.utils", "ConstantSchedule")})
#: Each ``":serialized:"`` entry of an SB3 ``data`` this loader knows, and the exact globals it may name.
SB3_SERIALIZED = {
    "policy_class": frozenset({("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"),
                               ("sb3_contrib.common.maskable.policies", "MaskableMultiInputActorCriticPolicy")}),
    "rollout_buffer_class": frozenset({("sb3_contrib.common.maskable.buffers", "MaskableRolloutBuffer"),
                                       ("sb3_contrib.common.maskable.buffers", "MaskableDictRolloutBuffer")}),
    "observation_space": _SPACES,
    "action_space": _SPACES,
    "_last_obs": _ARRAYS,
    "_last_episode_starts": _ARRAYS,
    "_last_original_obs": _ARRAYS,
    "ep_info_buffer": _ARRAYS | {("collections", "deque")},
    "ep_success_buffer": _ARRAYS | {("collections", "deque")},
    "learning_rate": _SCHEDULE,
    "lr_schedule": _SCHEDULE,
    "clip_range": _SCHEDULE,
    "clip_range_vf": _SCHEDULE,
}
#: Entries the zip must hold: the JSON settings and the policy's ``state_dict`` (``torch.save``).
SB3_REQUIRED = ("data", "policy.pth")
_CONSTANT = re.compile(r"ConstantSchedule\(val=([-+0-9.eE]+|inf|-inf)\)")


def _box(meta: dict, source: str):
    """A ``gymnasium.spaces.Box`` from the readable fields SB3 writes next to a pickled Box."""
    import numpy as np
    from gymnasium import spaces

    try:
        shape = tuple(int(n) for n in meta["_shape"])
        dtype = np.dtype(str(meta.get("dtype", "float32")))
        if dtype.kind != "f":
            raise ValueError(f"dtype {dtype} is not a float type")
        bounds = []
        for key, default in (("low_repr", -np.inf), ("high_repr", np.inf)):
            try:
                bounds.append(float(meta.get(key)))
            except (TypeError, ValueError):  # bounds that differ per entry: written as an array, cut short
                bounds.append(default)
        return spaces.Box(bounds[0], bounds[1], shape, dtype)
    except (KeyError, TypeError, ValueError) as err:
        raise ModelFileError(f"model file {source!r}: its observation_space has no readable Box shape, dtype "
                             f"and bounds ({type(err).__name__}: {err})") from None


def _discrete(meta: dict, source: str):
    from gymnasium import spaces

    try:
        return spaces.Discrete(int(meta["n"]), start=int(meta.get("start", 0)))
    except (KeyError, TypeError, ValueError) as err:
        raise ModelFileError(f"model file {source!r}: its action_space has no readable Discrete size "
                             f"({type(err).__name__}: {err})") from None


def _type_name(meta: dict) -> str:
    """``"Box"`` from SB3's ``":type:"`` field ``"<class 'gymnasium.spaces.box.Box'>"``."""
    m = re.fullmatch(r"<class '([\w.]+)'>", str(meta.get(":type:", "")))
    return m.group(1).rsplit(".", 1)[-1] if m else "unknown"


def observation_mismatch(path: str | os.PathLike, kind: str):
    """The :class:`train.model_config.ModelConfigError` of a model whose observation is not the flat Box
    this environment's policy reads (``kind`` describes the model's, e.g. ``"a Dict observation"``)."""
    from seers_env.observation import OBS_DIM

    from .model_config import ModelConfigError

    return ModelConfigError(f"model {str(path)!r} was trained with {kind}; this environment's policy input "
                            f"is a flat Box of shape ({OBS_DIM},) (SingleAgentSeersEnv, MlpPolicy): "
                            f"retrain it with `seers train`")


def _schedule(key: str, meta: dict, source: str) -> float:
    m = _CONSTANT.fullmatch(str(meta.get("value_schedule", "")))
    if not m:
        raise UnsafeModelFileError(
            f"model file {source!r}: {key} is a pickled {_type_name(meta)} that is not a constant schedule "
            f"(ConstantSchedule(val=...)); it could only be read by unpickling it, which can run code")
    return float(m.group(1))


def sb3_custom_objects(data: dict, source: str) -> dict[str, Any]:
    """SB3 ``custom_objects`` replacing every ``":serialized:"`` entry of ``data``, made from its readable
    fields after :func:`check_pickle_names` has checked it (so SB3 unpickles nothing).

    Args:
        data: the parsed ``data`` JSON of the zip.
        source: the file, for the messages.

    Raises:
        UnsafeModelFileError: an entry this loader does not know, or one naming other globals.
        ModelFileError: an entry that is not valid base64 or not a readable pickle.
        train.model_config.ModelConfigError: an observation that is not a flat ``Box`` (e.g. a ``Dict``,
            a ``MultiInputPolicy`` model) or an action space that is not ``Discrete``.
    """
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from .model_config import ModelConfigError

    serialized = {k: v for k, v in data.items() if isinstance(v, dict) and ":serialized:" in v}
    for key, meta in serialized.items():
        if key not in SB3_SERIALIZED:
            raise UnsafeModelFileError(
                f"model file {source!r}: data[{key!r}] is a pickled {_type_name(meta)}, which an SB3 model "
                f"file of this project never holds; it could only be read by unpickling it, which can run "
                f"code (known entries: {', '.join(SB3_SERIALIZED)})")
        try:
            blob = base64.b64decode(str(meta[":serialized:"]).encode(), validate=True)
        except (binascii.Error, ValueError) as err:
            raise ModelFileError(f"model file {source!r}: data[{key!r}] is not valid base64 ({err})") from None
        check_pickle_names(blob, SB3_SERIALIZED[key], source, f"data[{key!r}]")
    # written after the checks: a file naming a foreign global is refused before its spaces are judged
    custom: dict[str, Any] = {"policy_class": MaskableActorCriticPolicy, "rollout_buffer_class": MaskableRolloutBuffer}
    obs, act = serialized.get("observation_space"), serialized.get("action_space")
    if obs is None or act is None:
        raise ModelFileError(f"model file {source!r} records no observation_space and action_space in its data "
                             f"entry; it is not a MaskablePPO model saved by stable-baselines3")
    kind = _type_name(obs)
    if kind == "Dict":
        keys = re.findall(r"'(\w+)': ", str(obs.get("spaces", "")))
        raise observation_mismatch(source, f"a Dict observation (keys {', '.join(keys)}; a MultiInputPolicy model)")
    if kind != "Box":
        raise observation_mismatch(source, f"observation {kind} of shape {obs.get('_shape')}")
    custom["observation_space"] = _box(obs, source)
    if _type_name(act) != "Discrete":
        raise ModelConfigError(f"model {source!r} was trained with action space {_type_name(act)}; this "
                               f"environment's is Discrete: retrain it with `seers train`")
    custom["action_space"] = _discrete(act, source)
    for key in ("_last_obs", "_last_episode_starts", "_last_original_obs", "ep_info_buffer", "ep_success_buffer"):
        custom[key] = None  # rebuilt by SB3 when learning starts (BaseAlgorithm._setup_learn)
    for key in ("learning_rate", "lr_schedule", "clip_range", "clip_range_vf"):
        if key in serialized:
            custom[key] = _schedule(key, serialized[key], source)
    return custom


def read_zip_entry_names(path: str | os.PathLike, raw: bytes, required: Iterable[str]) -> list[str]:
    """The entry names of the zip archive ``raw`` (the bytes of ``path``).

    Raises:
        ModelFileError: not a zip archive, a damaged one, or one lacking a ``required`` entry.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            names = zf.namelist()
            bad = zf.testzip()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as err:
        raise ModelFileError(f"model file {os.fspath(path)!r} is not a readable zip archive ({err})") from None
    if bad is not None:
        raise ModelFileError(f"model file {os.fspath(path)!r} is damaged: its entry {bad!r} fails its checksum")
    missing = [n for n in required if n not in names]
    if missing:
        raise ModelFileError(f"model file {os.fspath(path)!r} lacks the entr{'y' if len(missing) == 1 else 'ies'} "
                             f"{', '.join(missing)} of a stable-baselines3 model (it holds {', '.join(names) or 'nothing'})")
    return names


def load_sb3_model(path: str | os.PathLike, device: str = "cpu", **kwargs: Any):
    """Load a MaskablePPO ``.zip`` (``model.save``) without unpickling anything from its ``data`` entry.

    The ``.pth`` entries (``state_dict`` of the policy and of its optimizer) are read by SB3 with
    ``torch.load(weights_only=True)``; every ``":serialized:"`` entry of ``data`` is replaced through
    ``custom_objects`` (:func:`sb3_custom_objects`). The file is read once, into memory.

    Args:
        path: a ``.zip`` file written by stable-baselines3 (``runs/<run>/model.zip``, a checkpoint, a
            snapshot).
        device: torch device of the policy.
        kwargs: passed to ``MaskablePPO.load`` (attributes to set, e.g. ``tensorboard_log``).

    Returns:
        ``sb3_contrib.MaskablePPO`` (no environment attached).

    Raises:
        FileNotFoundError: no file at ``path``.
        UnsafeModelFileError: the file holds a pickle naming a global outside the allow-list
            (:data:`SB3_SERIALIZED`), or one that cannot be replaced without unpickling it.
        ModelFileError: not a zip, a damaged or incomplete one, a ``data`` entry that is not JSON, weights
            that do not fit the recorded sizes (the message names the file).
        train.model_config.ModelConfigError: a ``Dict`` or other non-``Box`` observation, a non-``Discrete``
            action space.
    """
    from sb3_contrib import MaskablePPO

    source = os.fspath(path)
    with open(source, "rb") as f:
        raw = f.read()
    read_zip_entry_names(source, raw, SB3_REQUIRED)
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            data = json.loads(zf.read("data").decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ModelFileError(f"model file {source!r}: its data entry is not JSON ({type(err).__name__}: {err})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"model file {source!r}: its data entry is a JSON {type(data).__name__}, not an object")
    custom = sb3_custom_objects(data, source)
    policy_kwargs = data.get("policy_kwargs", {})
    if not isinstance(policy_kwargs, dict):
        raise ModelFileError(f"model file {source!r}: data['policy_kwargs'] is {policy_kwargs!r}, not an object")
    try:
        return MaskablePPO.load(io.BytesIO(raw), device=device, custom_objects=custom, **kwargs)
    except (KeyError, ValueError, TypeError, RuntimeError, AssertionError, AttributeError, pickle.UnpicklingError,
            zipfile.BadZipFile, EOFError) as err:
        refused = weights_only_refusal(err)
        if refused is not None:
            raise UnsafeModelFileError(f"model file {source!r}: a .pth entry refers to {refused}, which "
                                       f"torch.load(weights_only=True) refused to load (it builds tensors and "
                                       f"plain data only)") from None
        problem = torch_load_problem(err) if isinstance(err, pickle.UnpicklingError) else one_line(err)
        raise ModelFileError(f"model file {source!r} is not a loadable MaskablePPO model "
                             f"({type(err).__name__}: {problem})") from None


__all__ = ["ModelFileError", "NUMPY_ARRAY_GLOBALS", "SB3_REQUIRED", "SB3_SERIALIZED", "UnsafeModelFileError",
           "check_pickle_names", "load_sb3_model", "observation_mismatch", "read_zip_entry_names",
           "one_line", "sb3_custom_objects", "torch_load_problem", "unpickle_arrays",
           "weights_only_refusal"]
