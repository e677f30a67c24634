"""A damaged or unwritable numba cache never breaks :func:`seers_env.engine.jit.njit` code.

numba alone raises on an empty, truncated or garbage cache file (``EOFError``, ``UnpicklingError``...) at the
first call, in every later process, and raises ``RuntimeError: cannot cache function ...: no locator
available`` at import when no cache folder can be written. Here a damaged entry is dropped and compiled
again (one :class:`~seers_env.engine.jit.JitCacheWarning` naming the folder, the entry rewritten), a failed
save only warns, and no writable folder means compiling in memory with one warning.

The fast tests use a small module, in this process. The end-to-end ones run the environment in child
processes, each with its own cache folder: a warm cache is built once (from this process's cache when it
is warm, so usually without compiling) and damaged copies of it are used, damaged in files that a step is
seen to read (an audit hook on ``open`` in the child, so no file names are hard-coded); two tests compile
the engine in memory (a read-only install: ``__pycache__`` is a regular file, so even root cannot write it,
and ``HOME`` or ``NUMBA_CACHE_DIR`` lie under a regular file).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numba
import pytest
from numba.core import config
from numba.core.caching import NullCache, UserProvidedCacheLocator
from numba.core.dispatcher import Dispatcher

import seers_env
from seers_env.engine import jit

ROOT = Path(seers_env.__file__).parent
REPO = ROOT.parent

DAMAGES = ("empty", "truncated", "garbage", "wrong-contents", "bit-flip")


def _damage(path: Path, how: str) -> None:
    """Overwrite cache file ``path`` (an ``.nbi`` index or ``.nbc`` data file) with damaged bytes."""
    data = path.read_bytes()
    if how == "empty":  # truncate -s 0
        new = b""
    elif how == "truncated":
        new = data[:len(data) // 2]
    elif how == "garbage":
        new = bytes(range(256)) * 8
    elif how == "wrong-contents":  # valid pickles of the wrong things (the data file with a valid checksum)
        if path.suffix == ".nbi":
            new = pickle.dumps(numba.__version__) + pickle.dumps(["not", "an", "index"])
        else:  # digest, then the entry's tag (kept: written for this entry), then the pickle
            payload = data[32:64] + pickle.dumps(("not", "a", "compile result"))
            new = hashlib.sha256(payload).digest() + payload
    elif how == "bit-flip":  # one changed byte in the middle (numba would load it: caught by the checksum)
        new = data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 0xFF]) + data[len(data) // 2 + 1:]
    else:
        raise ValueError(f"unknown damage {how!r}; expected one of {DAMAGES}")
    path.write_bytes(new)


def _cache_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, jit.JitCacheWarning)]


@pytest.fixture
def fresh_warnings(monkeypatch):
    """An empty per-process memo of warned folders, so that this test sees its own first warnings."""
    monkeypatch.setattr(jit, "_warned", set())


# --- in this process, on a small module -------------------------------------------------------------

_SMALL = textwrap.dedent("""\
    def add(x):
        return x + 40

    def twice(x):
        return 2 * x
    """)


def _small_module(folder: Path, name: str):
    """Import ``_SMALL`` from ``folder/name.py`` (plain Python functions, to be wrapped by the test)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(_SMALL)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fresh(py_func):
    """A new dispatcher (nothing compiled in memory) on ``py_func``'s cache entry."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        disp = jit.njit(cache=True)(py_func)
    assert not _cache_warnings(caught)
    assert isinstance(disp._cache, jit.SourcesFunctionCache)
    return disp


@pytest.mark.parametrize("suffix, how", [(suffix, how) for suffix in ("nbi", "nbc") for how in DAMAGES
                                         if (suffix, how) != ("nbi", "bit-flip")])  # a flipped stamp: stale
def test_a_damaged_entry_is_dropped_compiled_again_and_rewritten(tmp_path, fresh_warnings, suffix, how):
    m = _small_module(tmp_path, f"small_{suffix}_{how.replace('-', '_')}")
    folder = tmp_path / "__pycache__"
    assert _fresh(m.add)(2) == 42  # compiled and saved
    (path,) = folder.glob(f"{m.__name__}.add-*.{'nbi' if suffix == 'nbi' else '1.nbc'}")
    _damage(path, how)

    disp = _fresh(m.add)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert disp(2) == 42 and disp(5) == 45  # numba alone raises here
    (message,) = _cache_warnings(caught)
    assert repr(str(folder)) in message and "compiling again" in message
    if (suffix, how) == ("nbc", "wrong-contents"):
        assert "cannot be rebuilt" in message and "add" in message  # read back, but numba's rebuild failed
    else:
        assert path.name in message
    assert disp.stats.cache_misses.total() == 1 and disp.stats.cache_hits.total() == 0

    again = _fresh(m.add)  # the entry was rewritten: loaded, no warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert again(2) == 42 and again(5) == 45
    assert not _cache_warnings(caught)
    assert again.stats.cache_hits.total() == 1 and again.stats.cache_misses.total() == 0


def test_damaged_entries_warn_once_per_folder(tmp_path, fresh_warnings):
    m = _small_module(tmp_path, "small_twice_damaged")
    folder = tmp_path / "__pycache__"
    assert _fresh(m.add)(1) == 41 and _fresh(m.twice)(4) == 8
    for path in folder.glob(f"{m.__name__}.*.nbi"):
        _damage(path, "empty")
    add, twice = _fresh(m.add), _fresh(m.twice)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert add(1) == 41 and twice(4) == 8
    (message,) = _cache_warnings(caught)  # two damaged entries, one folder: one warning
    assert repr(str(folder)) in message


def _unwritable_everywhere(tmp_path: Path, monkeypatch) -> Path:
    """Make every default numba cache location unusable, even for root: returns the module folder.

    ``__pycache__`` is a regular file (the in-tree locator cannot create it), and ``NUMBA_CACHE_DIR`` and
    ``HOME`` (the user-wide locator's ``~/.cache/numba``) lie under a regular file.
    """
    blocker = tmp_path / "a-regular-file"
    blocker.write_text("")
    code = tmp_path / "read-only-install"
    code.mkdir()
    (code / "__pycache__").write_text("")
    monkeypatch.setattr(config, "CACHE_DIR", str(blocker / "numba-cache"))
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", "")
    monkeypatch.setenv("HOME", str(blocker / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    return code


def test_no_writable_cache_folder_compiles_in_memory_with_one_warning(tmp_path, monkeypatch, fresh_warnings):
    code = _unwritable_everywhere(tmp_path, monkeypatch)
    m = _small_module(code, "small_read_only")
    blocker = tmp_path / "a-regular-file"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert jit.sources_cache(m.add) is None  # the explicit locator check
        add, twice = jit.njit(cache=True)(m.add), jit.njit(cache=True)(m.twice)  # numba alone: RuntimeError
        assert add(2) == 42 and twice(4) == 8
    (message,) = _cache_warnings(caught)
    assert "compiling in memory" in message and "no locator available" in message
    for folder in (blocker / "numba-cache", code / "__pycache__", blocker / "home" / ".cache" / "numba"):
        assert str(folder) in message
    for disp in (add, twice):
        assert isinstance(disp, Dispatcher) and isinstance(disp._cache, NullCache)
    assert (code / "__pycache__").is_file() and not list(tmp_path.rglob("*.nbi"))


def test_an_unwritable_numba_cache_dir_falls_back_to_the_next_location_with_one_warning(tmp_path, monkeypatch,
                                                                                        fresh_warnings):
    blocker = tmp_path / "a-regular-file"
    blocker.write_text("")
    monkeypatch.setattr(config, "CACHE_DIR", str(blocker / "numba-cache"))
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", "")
    m = _small_module(tmp_path / "code", "small_fallback")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        add, twice = jit.njit(cache=True)(m.add), jit.njit(cache=True)(m.twice)
        assert add(2) == 42 and twice(4) == 8
    (message,) = _cache_warnings(caught)
    assert str(blocker / "numba-cache") in message and str(tmp_path / "code" / "__pycache__") in message
    assert Path(add.stats.cache_path) == tmp_path / "code" / "__pycache__"
    assert list((tmp_path / "code" / "__pycache__").glob("small_fallback.add-*.nbi"))


def test_a_failed_save_keeps_the_compiled_code_and_warns_once(tmp_path, fresh_warnings):
    m = _small_module(tmp_path, "small_failed_save")
    add, twice = _fresh(m.add), _fresh(m.twice)
    folder = tmp_path / "__pycache__"
    folder.rmdir()
    folder.write_text("")  # the folder was writable at import; now it cannot even be created
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert add(2) == 42 and twice(4) == 8 and add(3) == 43
    (message,) = _cache_warnings(caught)
    assert repr(str(folder)) in message


# --- six processes compile at once into an empty cache ---------------------------------------------------

_RACE = textwrap.dedent("""\
    import json, os, sys, time, warnings
    caught = []
    warnings.simplefilter("always")
    warnings.showwarning = lambda message, category, *a, **k: caught.append(category.__name__)
    sys.path.insert(0, sys.argv[1])
    from seers_env.engine.jit import njit
    import race
    f, g = njit(cache=True)(race.add), njit(cache=True)(race.twice)
    open(os.path.join(sys.argv[2], f"ready-{os.getpid()}"), "w").close()
    deadline = time.time() + 120
    while not os.path.exists(os.path.join(sys.argv[2], "go")) and time.time() < deadline:
        time.sleep(0.01)
    print(json.dumps([f(2), g(4), f.stats.cache_hits.total() + g.stats.cache_hits.total(), caught]))
    """)


def test_six_processes_compiling_at_once_into_an_empty_cache(tmp_path):
    (tmp_path / "race.py").write_text(_SMALL)
    sync = tmp_path / "sync"
    sync.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)

    def start():
        return subprocess.Popen([sys.executable, "-c", _RACE, str(tmp_path), str(sync)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=REPO, env=env)

    children = [start() for _ in range(6)]
    deadline = time.time() + 120
    while len(list(sync.glob("ready-*"))) < 6 and time.time() < deadline:
        assert all(c.poll() is None for c in children), [c.communicate() for c in children]
        time.sleep(0.05)
    (sync / "go").write_text("")  # all six compile and save the same entries now
    for child in children:
        out, err = child.communicate(timeout=180)
        assert child.returncode == 0, err
        assert json.loads(out)[:2] == [42, 8] and json.loads(out)[3] == []
    (sync / "go").unlink()
    late = start()
    while not list(sync.glob(f"ready-{late.pid}")):
        assert late.poll() is None, late.communicate()
        time.sleep(0.05)
    (sync / "go").write_text("")
    out, err = late.communicate(timeout=180)
    assert late.returncode == 0, err
    assert json.loads(out) == [42, 8, 2, []]  # f and g loaded from the cache the six wrote


# --- end to end: the environment in child processes ------------------------------------------------------

_PLAY = textwrap.dedent("""\
    import numpy as np
    import seers_env

    def play(what):
        if what == "legal":
            game = seers_env.Game(seers_env.GameConfig(n_players=3), seed=0)
            return {"plays": [repr(p) for p in game.legal_plays()]}
        env = seers_env.env(n_players=3)
        env.reset(seed=0)
        taken = []
        for _ in range(3):
            obs = env.last()[0]
            taken.append(int(np.flatnonzero(obs["action_mask"])[-1]))
            env.step(taken[-1])
        obs = env.last()[0]
        return {"taken": taken, "mask": np.flatnonzero(obs["action_mask"]).tolist(),
                "observation": obs["observation"].tolist()}
    """)

_CHILD = textwrap.dedent("""\
    import json, sys, warnings
    caught = []
    warnings.simplefilter("always")
    warnings.showwarning = lambda message, category, *a, **k: caught.append((category.__name__, str(message)))
    reads = []  # numba cache files opened for reading, in order (the "open" audit event of open())

    def audit(event, args):
        if event == "open" and isinstance(args[0], str) and args[0].endswith((".nbi", ".nbc")) \\
                and isinstance(args[1], str) and "r" in args[1]:
            reads.append(args[0])

    sys.addaudithook(audit)
    """) + _PLAY + textwrap.dedent("""\
    result = play(sys.argv[1])
    from numba.core.dispatcher import Dispatcher
    from seers_env.aec_core import step_slot
    from seers_env.engine.jit import SourcesFunctionCache
    result["warnings"] = [m for c, m in caught if c == "JitCacheWarning"]
    result["file"] = seers_env.__file__
    result["step_slot"] = [step_slot.stats.cache_hits.total(), step_slot.stats.cache_misses.total()]
    result["reads"] = list(dict.fromkeys(reads))
    result["entries"] = {}  # index file -> [cache hits, cache misses] of every cached function of the package
    for name, module in list(sys.modules.items()):
        for value in vars(module).values() if name.split(".")[0] == "seers_env" else ():
            if isinstance(value, Dispatcher) and isinstance(value._cache, SourcesFunctionCache):
                result["entries"][value._cache._cache_file._index_path] = [value.stats.cache_hits.total(),
                                                                           value.stats.cache_misses.total()]
    print(json.dumps(result))
    """)


def _run_child(what: str, cwd: Path, env_vars: dict[str, str | None]) -> dict:
    """Run ``play(what)`` in a child process; returns its result, warnings, package file, step_slot's cache
    [hits, misses], the numba cache files it read (``reads``, in order) and every cached package function's
    [hits, misses] by index file (``entries``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    for key, value in env_vars.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    out = subprocess.run([sys.executable, "-c", _CHILD, what], capture_output=True, text=True, cwd=cwd, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    return json.loads(out.stdout)


def _strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("warnings", "file", "step_slot", "reads", "entries")}


@pytest.fixture(scope="module")
def reference() -> dict:
    """``play("step")`` and ``play("legal")`` computed in this process (its own cache, as every test)."""
    namespace: dict = {}
    exec(compile(_PLAY, "<play>", "exec"), namespace)
    return {what: namespace["play"](what) for what in ("step", "legal")}


def _misses(result: dict) -> dict[str, int]:
    """The cached package functions that compiled in ``result``'s child: index file -> cache misses."""
    return {index: misses for index, (hits, misses) in result["entries"].items() if misses}


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory, reference) -> tuple[Path, list[str]]:
    """A ``NUMBA_CACHE_DIR`` holding every entry a step needs, seeded from this process's cache folders, and the
    cache files (relative to it, in order) that a step reads from it: nothing compiled, no warning."""
    dest = tmp_path_factory.mktemp("warm-numba-cache")
    folders = {}  # this process's cache folder -> its NUMBA_CACHE_DIR subfolder
    for name, module in sorted(sys.modules.items()):
        if name.split(".")[0] != "seers_env":
            continue
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and isinstance(value._cache, jit.SourcesFunctionCache):
                sub = UserProvidedCacheLocator.get_suitable_cache_subpath(inspect.getfile(value.py_func))
                folders[Path(value._cache.cache_path)] = dest / sub
    for source, target in folders.items():
        target.mkdir(exist_ok=True)
        for path in source.glob("*.nb[ic]"):
            shutil.copy2(path, target / path.name)
    result = _run_child("step", REPO, {"NUMBA_CACHE_DIR": str(dest)})  # compiles only what was not copied
    assert _strip(result) == reference["step"] and result["warnings"] == []
    assert Path(result["file"]).parent == ROOT
    if _misses(result):  # some entries were compiled (and saved) just now: a second step reads them all
        result = _run_child("step", REPO, {"NUMBA_CACHE_DIR": str(dest)})
        assert _strip(result) == reference["step"] and result["warnings"] == []
    assert not _misses(result) and result["entries"]
    return dest, [str(Path(path).relative_to(dest)) for path in result["reads"]]


_SEERS = "seers_env_*"   # NUMBA_CACHE_DIR subfolder of seers_env/*.py
_ENGINE = "engine_*"     # ... of seers_env/engine/*.py


def _entry(path: str) -> str:
    """The cache entry (``<module>.<qualname>-<line>.pyXY``) of an index (.nbi) or data (.N.nbc) file."""
    return path[:-len(".nbi")] if path.endswith(".nbi") else path.rsplit(".", 2)[0]


@pytest.fixture(scope="module")
def step_reads(tmp_path_factory, warm_cache, reference) -> dict:
    """Which warm cache files a step really reads, seen in child processes (no hard-coded names, which change
    with the functions a step uses and the order their overloads were first saved).

    ``warm``: the files (relative to the cache, in order) a warm step reads; ``caller``: the last index in
    ``seers_env_*`` among them (a function called from Python by the step rather than by the reset before
    it); ``read``: the files a step reads when that index is truncated, so that the caller is compiled again
    and loads its compiled callees from the cache; ``compiling``: those of them a warm step does not read.
    Damaging more entries only adds reads (each dropped entry is compiled, loading its own callees), so every
    file here is read again by a step with the caller's index damaged.
    """
    warm, warm_reads = warm_cache
    caller = [p for p in warm_reads if Path(p).parent.match(_SEERS) and p.endswith(".nbi")][-1]
    cache = tmp_path_factory.mktemp("probe-numba-cache")
    shutil.copytree(warm, cache, dirs_exist_ok=True)
    _damage(cache / caller, "truncated")
    result = _run_child("step", REPO, {"NUMBA_CACHE_DIR": str(cache)})
    assert _strip(result) == reference["step"] and len(result["warnings"]) == 1
    assert str(cache / caller) in _misses(result)
    read = [str(Path(path).relative_to(cache)) for path in result["reads"]]
    assert {p for p in warm_reads if _entry(p) != _entry(caller)} <= set(read)
    return {"caller": caller, "warm": warm_reads, "read": read,
            "compiling": [p for p in read if p not in warm_reads]}


def _pick(reads: dict, which: str, kind: str, taken: set[str]) -> str:
    """The cache file to damage: the ``caller``'s own index or data file (``which == "caller"``), or a file of
    ``kind`` ("nbi" or "nbc") in cache subfolder ``which`` of an entry not in ``taken`` that the step reads,
    preferring those only a compile reads (a callee met while the caller is compiled again)."""
    if which == "caller":
        entry = _entry(reads["caller"])
        return next(p for p in reads["warm"] if _entry(p) == entry and p.endswith(f".{kind}"))
    candidates = [p for p in reads["compiling"] + reads["read"]
                  if Path(p).parent.match(which) and p.endswith(f".{kind}") and _entry(p) not in taken]
    assert candidates, f"a step reads no .{kind} file in {which} besides {sorted(taken)}: {reads['read']}"
    return candidates[0]


def _sound(path: Path) -> bool:
    """Whether cache file ``path`` reads back: an index of this numba version holding (stamp, overloads), or a
    data file whose SHA-256 prefix matches its payload (TolerantIndexDataCacheFile's layout)."""
    if path.suffix == ".nbi":
        with path.open("rb") as f:
            version, rest = pickle.load(f), f.read()
        stamp, overloads = pickle.loads(rest)
        return version == numba.__version__ and isinstance(overloads, dict) and len(stamp) == 2
    data, size = path.read_bytes(), jit.TolerantIndexDataCacheFile._DIGEST_SIZE
    return hashlib.sha256(data[size:]).digest() == data[:size]


@pytest.mark.parametrize("damaged", [
    [("caller", "nbi", "empty")],
    [("caller", "nbc", "empty")],
    [("caller", "nbc", "garbage")],
    [("caller", "nbi", "truncated"), (_SEERS, "nbi", "garbage"), (_ENGINE, "nbc", "wrong-contents")],
], ids=["nbi-empty", "nbc-empty", "nbc-garbage", "three-files-two-folders"])
def test_a_step_after_damaging_the_cache_works_warns_once_per_folder_and_repairs_it(
        tmp_path, warm_cache, step_reads, reference, damaged):
    cache = tmp_path / "numba-cache"
    shutil.copytree(warm_cache[0], cache)  # the damaged files: ones a step reads (step_reads)
    folders, paths, taken = set(), {}, set()
    for which, kind, how in damaged:
        path = cache / _pick(step_reads, which, kind, taken)
        taken.add(_entry(path.name))
        _damage(path, how)
        paths[path] = path.read_bytes()
        folders.add(path.parent)
    env_vars = {"NUMBA_CACHE_DIR": str(cache)}

    result = _run_child("step", REPO, env_vars)  # numba alone: EOFError / UnpicklingError here
    assert _strip(result) == reference["step"]
    assert set(map(str, paths)) <= set(result["reads"])  # the step met every damaged file
    assert len(folders) == len({_SEERS if which == "caller" else which for which, _, _ in damaged})
    assert len(result["warnings"]) == len(folders)
    for folder in folders:
        assert sum(repr(str(folder)) in message for message in result["warnings"]) == 1
    misses = _misses(result)
    for path in paths:  # each damaged entry dropped and compiled again, then rewritten in place
        assert str(path.parent / f"{_entry(path.name)}.nbi") in misses
        assert path.read_bytes() != paths[path] and _sound(path)

    repaired = _run_child("step", REPO, env_vars)
    assert _strip(repaired) == reference["step"]
    assert repaired["warnings"] == [] and not _misses(repaired)  # everything loaded, nothing compiled


@pytest.fixture(scope="module")
def read_only_install(tmp_path_factory) -> Path:
    """A copy of the package whose ``__pycache__`` folders are regular files (no in-tree cache, even for
    root), and a regular file ``blocker`` to put ``HOME`` or ``NUMBA_CACHE_DIR`` under. Returns the site."""
    site = tmp_path_factory.mktemp("read-only-site")
    shutil.copytree(ROOT, site / "seers_env", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in {p.parent for p in (site / "seers_env").rglob("*.py")}:
        (folder / "__pycache__").write_text("")
    (site / "blocker").write_text("")
    return site


def _read_only_env(site: Path, **env_vars: str | None) -> dict[str, str | None]:
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
            "XDG_CACHE_HOME": None, **env_vars}


def test_a_read_only_install_with_an_unwritable_numba_cache_dir_steps_in_memory(read_only_install, reference):
    site = read_only_install
    blocker = site / "blocker"
    result = _run_child("step", site, _read_only_env(site, NUMBA_CACHE_DIR=str(blocker / "numba-cache"),
                                                     HOME=str(blocker / "home")))
    assert Path(result["file"]).parent == site / "seers_env"
    assert _strip(result) == reference["step"]  # numba alone: RuntimeError at import
    (message,) = result["warnings"]
    assert "compiling in memory" in message and str(blocker / "numba-cache") in message
    assert result["step_slot"] == [0, 1]
    assert not list(site.rglob("*.nb[ic]"))


def test_a_read_only_install_with_an_invalid_home_lists_plays_in_memory(read_only_install, reference):
    site = read_only_install
    blocker = site / "blocker"
    result = _run_child("legal", site, _read_only_env(site, NUMBA_CACHE_DIR=None, HOME=str(blocker / "home")))
    assert Path(result["file"]).parent == site / "seers_env"
    assert _strip(result) == reference["legal"]  # numba alone: RuntimeError at import
    (message,) = result["warnings"]
    assert "compiling in memory" in message and str(blocker / "home" / ".cache" / "numba") in message
    assert str(site / "seers_env" / "engine" / "__pycache__") in message or \
        str(site / "seers_env" / "__pycache__") in message
