"""The numba cache key of our compiled code (:mod:`seers_env.engine.jit`) covers all our compiled sources.

numba's own cache checks only the cached function's file; :func:`seers_env.engine.jit.njit` adds a digest
of every file in ``COMPILED_SOURCES``. These tests check that the digest follows every listed file, that it
is stable across processes, that a changed callee in *another* file really is recompiled (end to end, in
child processes with their own cache folder), that the decorator compiles like ``numba.njit``, and that
the list names every module that compiles with ``cache=True`` and everything those modules import.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest

import seers_env
from seers_env.engine import jit

ROOT = Path(seers_env.__file__).parent
REPO = ROOT.parent
JIT_FILE = "engine/jit.py"


@pytest.fixture
def fresh_digest():
    """Clear the per-process digest memo before and after a test that patches the sources."""
    jit.sources_digest.cache_clear()
    yield
    jit.sources_digest.cache_clear()


def test_digest_changes_when_any_one_listed_source_changes(monkeypatch, fresh_digest):
    sources = {rel: jit._read_source(rel) for rel in jit.COMPILED_SOURCES}
    assert all(sources.values())  # every listed file exists and is read
    monkeypatch.setattr(jit, "_read_source", lambda rel: sources[rel])
    base = jit.sources_digest()
    assert len(base) == 64 and base == jit.sources_digest()
    seen = {base}
    for rel in jit.COMPILED_SOURCES:
        original = sources[rel]
        sources[rel] = original + b"\n# edited\n"
        jit.sources_digest.cache_clear()
        changed = jit.sources_digest()
        assert changed not in seen, rel
        seen.add(changed)
        sources[rel] = original
    jit.sources_digest.cache_clear()
    assert jit.sources_digest() == base


def test_digest_is_the_same_in_separate_processes(fresh_digest):
    code = "from seers_env.engine.jit import sources_digest; print(sources_digest())"
    out = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=REPO).stdout.strip() for _ in range(2)]
    assert out[0] == out[1] == jit.sources_digest()


def test_our_compiled_functions_use_the_sources_cache():
    import importlib

    from numba.core.dispatcher import Dispatcher

    names = ("seers_env.engine.core", "seers_env.engine.kernel", "seers_env.actions", "seers_env.aec_core",
             "seers_env.observation", "seers_env.play_eval", "seers_env.vector_core",
             "seers_env.haggis.kernel")
    count = 0
    for name in names:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == name:
                assert isinstance(value._cache, jit.SourcesFunctionCache), f"{name}.{value.__name__}"
                assert value._cache.source_stamp[1] == jit.sources_digest()
                count += 1
    assert count >= 40


_CALLEE = "from seers_env.engine.jit import njit\n\n@njit(cache=True)\ndef g(x):\n    return x + {}\n"
_CALLER = textwrap.dedent("""\
    from seers_env.engine.jit import njit
    from callee import g

    @njit(cache=True)
    def f(x):
        return g(x) * 10
    """)
_RUN = textwrap.dedent("""\
    import sys
    from pathlib import Path
    from seers_env.engine import jit
    jit.PACKAGE_ROOT = Path(sys.argv[1])
    jit.COMPILED_SOURCES = ("callee.py", "caller.py")
    jit.sources_digest.cache_clear()
    sys.path.insert(0, sys.argv[1])
    import caller
    print(caller.f(1), caller.f.stats.cache_hits.total(), caller.f.stats.cache_misses.total())
    """)


@pytest.mark.parametrize("user_cache_dir", [False, True], ids=["in-tree", "NUMBA_CACHE_DIR"])
def test_a_changed_callee_in_another_file_is_recompiled(tmp_path, user_cache_dir):
    """End to end: the caller's file is unchanged, its callee's file changes; the caller must not be stale.

    (numba's own cache would load the old caller here and return 20 after the edit.)
    """
    (tmp_path / "callee.py").write_text(_CALLEE.format(1))
    (tmp_path / "caller.py").write_text(_CALLER)
    cache_dir = tmp_path / "numba-cache" if user_cache_dir else tmp_path / "__pycache__"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir) if user_cache_dir else ""}

    def run():
        out = subprocess.run([sys.executable, "-c", _RUN, str(tmp_path)], capture_output=True, text=True,
                             check=True, cwd=REPO, env=env)
        value, hits, misses = map(int, out.stdout.split())
        return value, hits, misses

    assert run() == (20, 0, 1)  # compiled, saved under cache_dir
    assert list(cache_dir.rglob("caller.f-*.nbi"))
    assert run() == (20, 1, 0)  # loaded from the cache
    (tmp_path / "callee.py").write_text(_CALLEE.format(2))
    assert run() == (30, 0, 1)  # caller.py unchanged, yet recompiled with the new callee
    assert run() == (30, 1, 0)


def test_njit_compiles_like_numba_njit(tmp_path):
    (tmp_path / "small_kernels.py").write_text(textwrap.dedent("""\
        import numpy as np
        from numba import prange
        from seers_env.engine.jit import njit

        @njit(cache=True, inline="always")
        def sq(x):
            return x * x

        def _total(a):
            s = 0
            for i in range(a.shape[0]):
                s += sq(a[i]) - i
            return s

        def _rows(a):
            out = np.empty(a.shape[0], np.int64)
            for i in prange(a.shape[0]):
                out[i] = a[i] * 3
            return out

        total = njit(cache=True)(_total)
        rows = njit(cache=True, parallel=True)(_rows)
        total_eager = njit("int64(int64[:])", cache=True)(_total)
        plain = njit(_total)
        """))
    sys.path.insert(0, str(tmp_path))
    try:
        import small_kernels as m
    finally:
        sys.path.remove(str(tmp_path))
    a = np.arange(-5, 40, dtype=np.int64)
    ref_total = numba.njit(m._total)
    expected = int(sum(int(x) * int(x) - i for i, x in enumerate(a)))
    assert m.total(a) == ref_total(a) == expected == m.total_eager(a) == m.plain(a)
    assert np.array_equal(m.rows(a), numba.njit(parallel=True)(m._rows)(a))
    assert np.array_equal(m.rows(a), a * 3)
    for disp in (m.sq, m.total, m.rows, m.total_eager):
        assert isinstance(disp._cache, jit.SourcesFunctionCache)
        assert Path(disp.stats.cache_path) == tmp_path / "__pycache__"
    assert not isinstance(m.plain._cache, jit.SourcesFunctionCache)  # cache=False: numba's plain njit
    assert m.total_eager.signatures and not m.total_eager._can_compile
    assert list((tmp_path / "__pycache__").glob("small_kernels._total-*.nbi"))
    with pytest.raises(TypeError):
        jit.njit(m.total, cache=True)  # already jitted, as numba says
    with pytest.raises(TypeError):
        jit.njit("int64()", "int64()", cache=True)


# --- the list of hashed files is complete -------------------------------------------------------------

def _module_file(name: str) -> Path | None:
    base = REPO / name.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _package_imports(path: Path) -> set[Path]:
    """Package module files imported anywhere in ``path`` (lazy imports inside functions included)."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                name = ".".join(parts + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name.split(".")[0] != "seers_env":
                continue
            candidates = [name] + [f"{name}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            candidates = [a.name for a in node.names if a.name.split(".")[0] == "seers_env"]
        else:
            continue
        found |= {f for f in map(_module_file, candidates) if f is not None}
    return found


def _cached_compile_files() -> dict[Path, set[str]]:
    """Repository source files with a call that passes ``cache=True``, and the names of the called."""
    out = {}
    for top in ("seers_env", "agents", "train"):
        for path in sorted((REPO / top).rglob("*.py")) if (REPO / top).is_dir() else []:
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Call) and any(
                        k.arg == "cache" and isinstance(k.value, ast.Constant) and k.value.value is True
                        for k in node.keywords):
                    out.setdefault(path, set()).add(ast.unparse(node.func))
    return out


def test_hashed_sources_are_sorted_unique_and_exist():
    assert list(jit.COMPILED_SOURCES) == sorted(set(jit.COMPILED_SOURCES))
    for rel in jit.COMPILED_SOURCES:
        assert (ROOT / rel).is_file(), rel


def test_every_module_compiled_with_cache_is_hashed_and_uses_our_njit():
    listed = {ROOT / rel for rel in jit.COMPILED_SOURCES}
    found = _cached_compile_files()
    assert {ROOT / rel for rel in ("engine/core.py", "engine/kernel.py", "vector_core.py",
                                   "aec_core.py")} <= set(found)
    for path, called in found.items():
        if path == ROOT / JIT_FILE:
            continue
        assert path in listed, f"{path} compiles with cache=True but is not in COMPILED_SOURCES"
        assert called == {"njit"}, f"{path}: cache=True passed to {called}; use seers_env.engine.jit.njit"
        tree = ast.parse(path.read_text())
        bound = {(n.module, n.level) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and any(a.name == "njit" and a.asname is None for a in n.names)}
        assert bound and all(module and module.endswith("jit") and module != "numba" for module, _ in bound), \
            f"{path}: njit must come from seers_env.engine.jit, got {bound}"


def test_no_module_imports_numba_jit_decorators_directly():
    for path in sorted(ROOT.rglob("*.py")):
        if path == ROOT / JIT_FILE:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                names = {a.name for a in node.names}
                assert not names & {"njit", "jit"}, f"{path} imports {names & {'njit', 'jit'}} from numba"


def test_hashed_sources_include_everything_the_compiled_modules_import():
    """Globals read by compiled code are frozen into it, so the modules they come from are hashed too."""
    listed = {ROOT / rel for rel in jit.COMPILED_SOURCES}
    for path in sorted(listed):
        missing = _package_imports(path) - listed
        assert not missing, f"{path} imports {sorted(str(m.relative_to(ROOT)) for m in missing)}, not hashed"
