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


#: numpy dtype kinds an array or scalar of :func:`unpickle_arrays` may have: booleans, integers, floats and
#: complex numbers of a plain (not structured, not sub-array) dtype. Object dtypes hold pointers, so
#: numpy's own ``__setstate__`` would read them from the file's bytes; structured ones can name fields
#: outside the item.
PLAIN_KINDS = "biufc"
_BYTEORDERS = ("<", ">", "|", "=")


class _NdarrayClass:
    """What ``numpy.ndarray`` resolves to: a token for ``_reconstruct``; calling it (``numpy.ndarray(shape,
    dtype, buffer)``, which would build arrays from any memory) is refused."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise UnsafeModelFileError("the pickle calls numpy.ndarray(...) itself, which builds an array from any "
                                   "memory or of any size; numpy's pickles of arrays never do")


_NDARRAY = _NdarrayClass()


class _DType:
    """A checked plain numpy dtype (``numpy.dtype(code, align, copy)`` and its ``BUILD`` state)."""

    def __init__(self, code: Any, align: Any = False, copy: Any = True):
        import numpy as np

        if not isinstance(code, str) or len(code) > 8:
            raise ModelFileError(f"a dtype code must be a short string such as 'f4', not {code!r}")
        dtype = np.dtype(code)
        if dtype.kind not in PLAIN_KINDS or dtype.fields is not None or dtype.subdtype is not None:
            raise UnsafeModelFileError(f"dtype {code!r} (kind {dtype.kind!r}) is not a plain number type "
                                       f"({PLAIN_KINDS}); object and structured arrays are refused")
        self.dtype = dtype

    def __setstate__(self, state: Any) -> None:
        # numpy's state: (version, byte order, subarray, names, fields, itemsize, alignment, flags)
        if not (isinstance(state, tuple) and len(state) in (8, 9) and state[0] in (3, 4)
                and state[1] in _BYTEORDERS and state[2] is None and state[3] is None and state[4] is None):
            raise UnsafeModelFileError(f"dtype {self.dtype} has the state {state!r}, not that of a plain "
                                       f"number type (fields, sub-arrays and sizes are refused)")
        if state[1] in "<>":
            self.dtype = self.dtype.newbyteorder(state[1])


class _Pending:
    """An object of the pickle that is made into its final value once the whole pickle is read."""

    value: Any = None
    built = False

    def __setstate__(self, state: Any) -> None:
        raise UnsafeModelFileError(f"the pickle sets a state on a finished {type(self).__name__.strip('_')}")


class _Array(_Pending):
    """``_reconstruct(ndarray, (0,), b"b")`` followed by ``BUILD (1, shape, dtype, fortran, bytes)``."""

    def __init__(self, reader: _ExactGlobals):
        self.reader = reader

    def __setstate__(self, state: Any) -> None:
        if self.built:
            super().__setstate__(state)
        if not (isinstance(state, tuple) and len(state) == 5 and state[0] == 1):
            raise ModelFileError(f"an array's state is {type(state).__name__} {_short(state)}, not numpy's "
                                 f"(1, shape, dtype, fortran order, bytes)")
        _, shape, dtype, fortran, raw = state
        self.value = self.reader.array(raw, dtype, shape, "F" if fortran is True else "C")
        self.built = True


class _Done(_Pending):
    """A finished array or scalar (``_frombuffer``, ``scalar``)."""

    def __init__(self, value: Any):
        self.value, self.built = value, True


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 80 else text[:77] + "..."


class _ExactGlobals(pickle.Unpickler):
    """Resolves the names of :data:`NUMPY_ARRAY_GLOBALS` and nothing else, to functions of its own.

    numpy's own functions are never called with the file's arguments: ``numpy.dtype`` gives a checked
    plain dtype (:class:`_DType`), and arrays and scalars are made by :meth:`array` from bytes held in
    the file (so no array is larger than the file, none has object or structured items, and none is a
    view of memory elsewhere). Arrays are placeholders until the whole pickle is read (:func:`_finish`):
    ``BUILD`` on them is checked here, never numpy's ``__setstate__``.
    """

    def __init__(self, file, source: str):
        super().__init__(file)
        self.source = source
        self.buffers: list[Any] = []  # each array's bytes, kept alive so that their ids stay distinct
        self.buffer_ids: set[int] = set()

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in NUMPY_ARRAY_GLOBALS:
            raise UnsafeModelFileError(
                f"{self.source!r} refers to {module}.{name}, which is not among the numpy-array names this "
                f"loader allows; the file was not read (a pickle can run such a function)")
        if module == "collections":
            import collections

            return collections.OrderedDict
        return {"ndarray": _NDARRAY, "dtype": _DType, "_reconstruct": self._reconstruct,
                "_frombuffer": self._frombuffer, "scalar": self._scalar, "dict": dict}[name]

    def persistent_load(self, pid: Any) -> Any:
        raise ModelFileError(f"{self.source!r} holds a persistent id; a plain pickle of arrays has none")

    def array(self, raw: Any, dtype: Any, shape: Any, order: Any):
        """A new writable array of ``dtype`` and ``shape`` copied from ``raw`` (the exact bytes it needs).

        Raises:
            ModelFileError: a wrong type, a size that does not match the bytes, or bytes used twice.
        """
        import numpy as np

        if isinstance(raw, pickle.PickleBuffer):
            raw = raw.raw()
        if not isinstance(raw, (bytes, bytearray, memoryview)):
            raise ModelFileError(f"an array's data is a {type(raw).__name__}, not bytes")
        if not isinstance(dtype, _DType):
            raise ModelFileError(f"an array's dtype is a {type(dtype).__name__}, not numpy.dtype(...)")
        if not (isinstance(shape, tuple) and len(shape) <= 32
                and all(type(n) is int and n >= 0 for n in shape)):
            raise ModelFileError(f"an array's shape is {_short(shape)}, not a tuple of sizes >= 0")
        if order not in ("C", "F"):
            raise ModelFileError(f"an array's order is {_short(order)}, not 'C' or 'F'")
        need = dtype.dtype.itemsize
        for n in shape:
            need *= n
        if need != len(raw):
            raise ModelFileError(f"an array of shape {shape} and dtype {dtype.dtype} needs {need} bytes; the "
                                 f"file gives {len(raw)}")
        if id(raw) in self.buffer_ids:
            raise ModelFileError("two arrays are made from the same bytes (a file that asks for more memory "
                                 "than it holds)")
        self.buffers.append(raw)
        self.buffer_ids.add(id(raw))
        return np.frombuffer(raw, dtype.dtype).reshape(shape, order=order).copy(order="K")

    def _reconstruct(self, cls: Any, shape: Any, typecode: Any) -> _Array:
        if cls is not _NDARRAY or shape != (0,) or typecode != b"b":
            raise UnsafeModelFileError(f"{self.source!r}: _reconstruct{_short((cls, shape, typecode))} is not "
                                       f"numpy's (ndarray, (0,), b'b') of a plain array")
        return _Array(self)

    def _frombuffer(self, buf: Any, dtype: Any, shape: Any, order: Any) -> _Done:
        return _Done(self.array(buf, dtype, shape, order))

    def _scalar(self, dtype: Any, raw: Any = None) -> _Done:
        return _Done(self.array(raw, dtype, (), "C")[()])


def _finish(obj: Any, done: dict[int, Any]) -> Any:
    """``obj`` with every placeholder of :class:`_ExactGlobals` replaced by its array, scalar or dtype (in
    dicts, lists and tuples; shared and cyclic containers stay so)."""
    key = id(obj)
    if key in done:
        return done[key]
    if isinstance(obj, _Pending):
        if not obj.built:
            raise ModelFileError("an array is made without its data (_reconstruct without a state)")
        done[key] = obj.value
        return obj.value
    if isinstance(obj, _DType):
        done[key] = obj.dtype
        return obj.dtype
    if isinstance(obj, dict):
        out = type(obj)() if type(obj) is not dict else {}
        done[key] = out
        for k, v in obj.items():
            out[_finish(k, done)] = _finish(v, done)
        return out
    if isinstance(obj, list):
        out = []
        done[key] = out
        out.extend(_finish(v, done) for v in obj)
        return out
    if isinstance(obj, tuple):
        out = tuple(_finish(v, done) for v in obj)
        done[key] = out
        return out
    if obj is _NDARRAY:
        raise UnsafeModelFileError("the pickle holds numpy.ndarray itself, which a state of arrays never does")
    return obj  # None, bool, int, float, complex, str, bytes, bytearray


def unpickle_arrays(data: bytes, source: str) -> Any:
    """Unpickle ``data`` (dicts, lists, numbers, strings, numpy arrays and scalars) without running code.

    Only the names of :data:`NUMPY_ARRAY_GLOBALS` are resolved, each to a checked function of this
    module (:class:`_ExactGlobals`): arrays and scalars have a plain number dtype (:data:`PLAIN_KINDS`),
    are copies of bytes the file holds (so they take no more memory than the file), and are writable.

    Args:
        data: the bytes of a pickle, e.g. RLlib's ``module_state.pkl`` (a dict of numpy arrays).
        source: the file, for the messages.

    Returns:
        The unpickled object.

    Raises:
        UnsafeModelFileError: the pickle names a global outside :data:`NUMPY_ARRAY_GLOBALS`, or calls an
            allowed one in a way numpy's pickles never do (an object or structured dtype, ``numpy.ndarray``
            called itself).
        ModelFileError: the pickle is truncated or damaged (an array whose bytes do not fit its shape).
    """
    reader = _ExactGlobals(io.BytesIO(data), source)
    try:
        return _finish(reader.load(), {})
    except UnsafeModelFileError as err:
        if source in str(err):
            raise
        raise UnsafeModelFileError(f"{source!r}: {err}; the file was not read") from None
    except ModelFileError as err:
        if source in str(err):
            raise
        raise ModelFileError(f"{source!r} is not a readable pickle of arrays ({err})") from None
    except Exception as err:  # truncated or damaged: EOFError, UnpicklingError, ValueError, TypeError, ...
        raise ModelFileError(f"{source!r} is not a readable pickle of arrays ({type(err).__name__}: {err})") from None
    finally:
        reader.buffers.clear()
        reader.buffer_ids.clear()


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

    from seers_env.observation import OBS_DIM

    try:
        shape = tuple(int(n) for n in meta["_shape"])
    except (KeyError, TypeError, ValueError, OverflowError) as err:
        raise ModelFileError(f"model file {source!r}: its observation_space has no readable Box shape "
                             f"({type(err).__name__}: {err})") from None
    if shape != (OBS_DIM,):  # checked before the Box (its bounds are arrays of this shape) is made
        raise observation_mismatch(source, f"observation Box of shape {shape}")
    try:
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

    from seers_env.actions import N_ACTIONS

    from .model_config import ModelConfigError

    try:
        n, start = int(meta["n"]), int(meta.get("start", 0))
    except (KeyError, TypeError, ValueError, OverflowError) as err:
        raise ModelFileError(f"model file {source!r}: its action_space has no readable Discrete size "
                             f"({type(err).__name__}: {err})") from None
    if n != N_ACTIONS or start != 0:  # checked before the policy's output layer of n actions is made
        raise ModelConfigError(f"model {source!r} was trained with action space Discrete({n}, start={start}); "
                               f"this environment has Discrete({N_ACTIONS}): retrain it with `seers train`")
    return spaces.Discrete(n)


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


#: The most bytes the entries of one model archive may unpack to, together (1 GiB; this project's models
#: unpack to a few MB). A zip records each entry's unpacked size, and the readers (Python's ``zipfile``,
#: torch's) never unpack more than it, so a small file cannot make them fill the memory.
MAX_UNPACKED_BYTES = 1 << 30


def read_bounded(path: str | os.PathLike, what: str = "model file") -> bytes:
    """The bytes of ``path``, refused past :data:`MAX_UNPACKED_BYTES` without reading more (a file in a
    downloaded checkpoint folder may be a link to something endless or huge, e.g. ``/dev/zero`` through
    a named pipe, or a multi-gigabyte file; its size on disk is not trusted, ``/proc`` files report 0).

    Raises:
        ModelFileError: the file is larger (the message names it). OSError: it cannot be read.
    """
    limit = MAX_UNPACKED_BYTES
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ModelFileError(f"{what} {os.fspath(path)!r} is larger than {limit:,} bytes, more than a model file "
                             f"of this project may be; not read")
    return data


def check_zip_sizes(path: str | os.PathLike, zf: zipfile.ZipFile) -> dict[str, int]:
    """The unpacked size of each entry of the open archive ``zf`` (of the file ``path``).

    Raises:
        ModelFileError: together they unpack to more than :data:`MAX_UNPACKED_BYTES`, or an entry's name
            is used twice.
    """
    sizes: dict[str, int] = {}
    for info in zf.infolist():
        if info.filename in sizes:
            raise ModelFileError(f"model file {os.fspath(path)!r} holds two entries named {info.filename!r}")
        sizes[info.filename] = info.file_size
    total = sum(sizes.values())
    if total > MAX_UNPACKED_BYTES:
        raise ModelFileError(f"model file {os.fspath(path)!r} unpacks to {total:,} bytes, more than the "
                             f"{MAX_UNPACKED_BYTES:,} a model file may (a zip bomb, or not a model of this project)")
    return sizes


def check_torch_archive(path: str | os.PathLike) -> None:
    """Check that ``path`` is a ``torch.save`` zip archive that unpacks to at most
    :data:`MAX_UNPACKED_BYTES` (torch's older non-zip format declares the sizes of the storages it reads
    in its pickle, so a small file could ask for any amount of memory: refused).

    Raises:
        ModelFileError: not a zip archive, a damaged one, or one too large (the message names the file).
    """
    try:
        with zipfile.ZipFile(path) as zf:
            check_zip_sizes(path, zf)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as err:
        if isinstance(err, ModelFileError):
            raise
        raise ModelFileError(f"{os.fspath(path)!r} is not a torch.save zip archive ({err}); torch.save writes "
                             f"one since torch 1.6") from None


def read_zip_entry_names(path: str | os.PathLike, raw: bytes, required: Iterable[str]) -> list[str]:
    """The entry names of the zip archive ``raw`` (the bytes of ``path``).

    Raises:
        ModelFileError: not a zip archive, a damaged one, one that unpacks to more than
            :data:`MAX_UNPACKED_BYTES` (:func:`check_zip_sizes`), or one lacking a ``required`` entry.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            names = zf.namelist()
            check_zip_sizes(path, zf)  # before testzip, which unpacks every entry
            bad = zf.testzip()
    except ModelFileError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as err:
        raise ModelFileError(f"model file {os.fspath(path)!r} is not a readable zip archive ({err})") from None
    if bad is not None:
        raise ModelFileError(f"model file {os.fspath(path)!r} is damaged: its entry {bad!r} fails its checksum")
    missing = [n for n in required if n not in names]
    if missing:
        raise ModelFileError(f"model file {os.fspath(path)!r} lacks the entr{'y' if len(missing) == 1 else 'ies'} "
                             f"{', '.join(missing)} of a stable-baselines3 model (it holds {', '.join(names) or 'nothing'})")
    return names


def _net_arch_bytes(policy_kwargs: dict, source: str) -> int:
    """The bytes of float32 weights at least that the MLP policy of ``policy_kwargs["net_arch"]`` holds
    on this environment's spaces (SB3 ``MlpExtractor``: a list is the same layers for the policy and the
    value networks, a dict gives ``pi`` and ``vf``; SB3's default is 64, 64).

    Raises:
        ModelFileError: ``net_arch`` is not a list of layer sizes >= 1 or such a dict.
    """
    from seers_env.actions import N_ACTIONS
    from seers_env.observation import OBS_DIM

    arch = policy_kwargs.get("net_arch", [64, 64])
    if isinstance(arch, list) and len(arch) == 1 and isinstance(arch[0], dict):
        arch = arch[0]  # written by stable-baselines3 < 1.8; SB3 reads it so
    pi, vf = (arch.get("pi", []), arch.get("vf", [])) if isinstance(arch, dict) else (arch, arch)
    if not all(isinstance(layers, list) and len(layers) <= 64
               and all(type(n) is int and 1 <= n for n in layers) for layers in (pi, vf)):
        raise ModelFileError(f"model file {source!r}: data['policy_kwargs']['net_arch'] is {_short(arch)}, not a "
                             f"list of layer sizes >= 1 (or {{'pi': [...], 'vf': [...]}})")
    params = 0
    for layers, out in ((pi, N_ACTIONS), (vf, 1)):
        dims = [OBS_DIM, *layers, out]
        params += sum(a * b + b for a, b in zip(dims, dims[1:]))
    return 4 * params


def _torch_entry(source: str, raw: bytes, name: str) -> Any:
    """The entry ``name`` of the zip ``raw`` read with ``torch.load(weights_only=True)``.

    Raises:
        UnsafeModelFileError: it names a global that ``weights_only`` refuses.
        ModelFileError: it is damaged.
    """
    import torch

    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        blob = zf.read(name)
    try:
        return torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except Exception as err:  # noqa: BLE001 - refused or damaged: named below
        refused = weights_only_refusal(err)
        if refused is not None:
            raise UnsafeModelFileError(f"model file {source!r}: a .pth entry ({name}) refers to {refused}, which "
                                       f"torch.load(weights_only=True) refused to load (it builds tensors and "
                                       f"plain data only)") from None
        raise ModelFileError(f"model file {source!r}: its entry {name} is damaged "
                             f"({type(err).__name__}: {torch_load_problem(err)})") from None


def _check_sb3_sizes(source: str, data: dict, policy_kwargs: dict, names: list[str], raw: bytes) -> None:
    """Check, before SB3 builds anything, that the policy ``data`` describes fits the weights the file
    holds (their own bytes: a tensor ``torch.load`` builds as a view repeating a few numbers counts as
    those few), that ``num_timesteps`` is a count, and that ``pytorch_variables.pth`` names no attribute.

    Raises:
        UnsafeModelFileError: a ``.pth`` entry that ``torch.load(weights_only=True)`` refuses.
        ModelFileError: the message names the file and the field.
    """
    import torch

    for name in names:  # every entry SB3 would torch.load, so that a refused one is reported as such
        if name.endswith(".pth") and name not in ("policy.pth", "pytorch_variables.pth"):
            _torch_entry(source, raw, name)
    weights = _torch_entry(source, raw, "policy.pth")
    if not isinstance(weights, dict) or not all(isinstance(t, torch.Tensor) for t in weights.values()):
        raise ModelFileError(f"model file {source!r}: its policy.pth is a {type(weights).__name__}, not a "
                             f"state_dict of tensors")
    storages = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in weights.values()}
    held = sum(storages.values())
    need = _net_arch_bytes(policy_kwargs, source)
    if need > held:
        raise ModelFileError(f"model file {source!r}: data['policy_kwargs'] asks for a policy of at least "
                             f"{need:,} bytes of weights, but its policy.pth holds {held:,} bytes")
    steps = data.get("num_timesteps", 0)
    if type(steps) is not int or steps < 0:
        raise ModelFileError(f"model file {source!r}: data['num_timesteps'] is {_short(steps)}, not a count >= 0")
    if "pytorch_variables.pth" in names:
        # SB3 sets model.<name>.data for each of its entries; MaskablePPO has no such variables (an empty dict)
        variables = _torch_entry(source, raw, "pytorch_variables.pth")
        if variables not in ({}, None):
            names = ", ".join(map(str, variables)) if isinstance(variables, dict) else type(variables).__name__
            names = names if len(names) <= 200 else names[:197] + "..."
            raise ModelFileError(f"model file {source!r}: pytorch_variables.pth holds {names}; a MaskablePPO "
                                 f"model has no torch variables (SB3 would set those attributes of the model)")


def load_sb3_model(path: str | os.PathLike, device: str = "cpu", **kwargs: Any):
    """Load a MaskablePPO ``.zip`` (``model.save``) without unpickling anything from its ``data`` entry.

    The ``.pth`` entries (``state_dict`` of the policy and of its optimizer) are read by SB3 with
    ``torch.load(weights_only=True)``; every ``":serialized:"`` entry of ``data`` is replaced through
    ``custom_objects`` (:func:`sb3_custom_objects`). The file is read once, into memory.

    Args:
        path: a ``.zip`` file written by stable-baselines3 (``runs/<run>/model.zip``, a checkpoint, a
            snapshot).
        device: torch device of the policy.
        kwargs: passed to ``MaskablePPO.load`` (attributes to set, e.g. ``tensorboard_log``). SB3 builds a
            rollout buffer of ``n_steps`` x ``n_envs`` steps at every load, which a model that only plays
            never uses: unless given here (as ``seers train --resume`` does, from the run's settings),
            both are 1, so the file's values cannot make the load fill the memory.

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
    raw = read_bounded(source)
    names = read_zip_entry_names(source, raw, SB3_REQUIRED)
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
    _check_sb3_sizes(source, data, policy_kwargs, names, raw)
    kwargs.setdefault("n_steps", 1)
    kwargs.setdefault("n_envs", 1)
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


__all__ = ["MAX_UNPACKED_BYTES", "ModelFileError", "NUMPY_ARRAY_GLOBALS", "PLAIN_KINDS", "SB3_REQUIRED", "SB3_SERIALIZED", "UnsafeModelFileError",
           "check_pickle_names", "check_torch_archive", "check_zip_sizes", "load_sb3_model", "observation_mismatch", "read_zip_entry_names",
           "one_line", "read_bounded", "sb3_custom_objects", "torch_load_problem", "unpickle_arrays",
           "weights_only_refusal"]
