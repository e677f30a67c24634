"""``njit`` for our compiled modules: numba's on-disk cache, made stale whenever any of our compiled sources change.

Why: numba's cache (``cache=True``) keeps, per function, an index file (``<module>.<qualname>-<line>.pyXY.nbi``)
whose *source stamp* is a hash of the function's own source file only
(``numba.core.caching._SourceFileBackedLocatorMixin.get_source_stamp`` -> ``_hash_source_file``; older numba
releases used that file's mtime and size). ``IndexDataCacheFile._load_index`` throws the index away when the
stamp differs, and ``Cache._index_key`` adds only the function's own bytecode. Nothing tracks the compiled
callees it inlined or linked from *other* files, nor the global constants (frozen into the machine code)
that it read from other modules. So after a ``git pull`` or an edit that changes, say,
:mod:`seers_env.engine.kernel`, a cached ``seers_env.aec_core.step_slot`` would keep running the old kernel
code: silently wrong results. numba lists both as known limitations (developer docs, "Notes on Caching",
"Cache limitations": cache invalidation misses changes to symbols defined in another file, and global
variables are frozen as constants).

What: :func:`njit` is a drop-in for :func:`numba.njit` (same arguments). With ``cache=True`` it caches
through :class:`SourcesFunctionCache`, a :class:`numba.core.caching.FunctionCache` whose index stamp is the
pair (numba's own stamp, :func:`sources_digest`): a SHA-256 over the contents of every file in
:data:`COMPILED_SOURCES` (our compiled modules and every package module they import, so the constants they
read; fixed order). Any change to any of them makes every one of our cached functions stale at once; numba
then recompiles each on first call and overwrites its index and data files *in place* (the data files are
numbered from 1 again), so old versions do not pile up on disk and there is nothing to prune. A warm cache
still loads in ~1-2 s; a changed source costs one full compile (~90 s) once.

Where the cache lives is numba's choice, unchanged (``CacheImpl._locator_classes``, read when the function is
decorated, i.e. at import): ``NUMBA_CACHE_DIR`` if the user set it (``UserProvidedCacheLocator``), else the
module's ``__pycache__`` when writable (``InTreeCacheLocator``), else the user-wide cache folder for
read-only installs such as site-packages (``UserWideCacheLocator``); ``NUMBA_CACHE_LOCATOR_CLASSES`` is
honoured too. numba's global configuration is not touched, so other libraries' caches are unaffected.
``NUMBA_DISABLE_JIT=1`` returns the plain Python function, as numba does.

Keep :data:`COMPILED_SOURCES` complete: ``tests/test_jit_cache.py`` checks that it names every package module
that compiles with ``cache=True`` and every package module they import (transitively).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numba
from numba.core import sigutils
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.dispatcher import Dispatcher

__all__ = ["COMPILED_SOURCES", "PACKAGE_ROOT", "SourcesFunctionCache", "njit", "sources_digest"]

#: The ``seers_env`` package folder; :data:`COMPILED_SOURCES` are relative to it.
PACKAGE_ROOT = Path(__file__).resolve().parent.parent

#: Package files (POSIX paths relative to :data:`PACKAGE_ROOT`) whose contents key our numba cache: the
#: modules compiled with ``cache=True`` and the package modules they import (their constants are frozen
#: into compiled code). Sorted; ``tests/test_jit_cache.py`` checks that it is complete.
COMPILED_SOURCES: tuple[str, ...] = (
    "actions.py",
    "aec_core.py",
    "engine/__init__.py",
    "engine/artifacts.py",
    "engine/cards.py",
    "engine/core.py",
    "engine/game.py",
    "engine/jit.py",
    "engine/kernel.py",
    "engine/melds.py",
    "engine/moves.py",
    "engine/plays.py",
    "engine/rulings.py",
    "engine/scoring.py",
    "observation.py",
    "play_eval.py",
    "sparse_rows.py",
    "vector_core.py",
    "vector_features.py",
)


def _read_source(relpath: str) -> bytes:
    """The bytes of package file ``relpath`` (b"" when it is missing, e.g. a stripped install)."""
    try:
        return (PACKAGE_ROOT / relpath).read_bytes()
    except FileNotFoundError:
        return b""


@functools.lru_cache(maxsize=None)
def sources_digest() -> str:
    """SHA-256 hex digest (64 characters) of :data:`COMPILED_SOURCES`: each path, its length and contents.

    Computed once per process (the sources are read at import, like numba reads its own stamp).
    """
    h = hashlib.sha256()
    for relpath in COMPILED_SOURCES:
        data = _read_source(relpath)
        h.update(relpath.encode())
        h.update(b"\0%d\0" % len(data))
        h.update(data)
    return h.hexdigest()


class SourcesFunctionCache(FunctionCache):
    """numba's per-function disk cache with the index stamp ``(numba's stamp, sources_digest())``.

    Same location, file names and index keys as :class:`numba.core.caching.FunctionCache`; only the
    freshness test is widened to all of :data:`COMPILED_SOURCES` (see the module docstring).
    """

    def __init__(self, py_func):
        super().__init__(py_func)
        self.source_stamp = (self._impl.locator.get_source_stamp(), sources_digest())
        self._cache_file = IndexDataCacheFile(cache_path=self._cache_path,
                                              filename_base=self._impl.filename_base,
                                              source_stamp=self.source_stamp)


def _enable_sources_cache(disp):
    # What Dispatcher.enable_caching does, with our cache class.
    if isinstance(disp, Dispatcher):
        disp._cache = SourcesFunctionCache(disp.py_func)
    return disp


def njit(*args, cache: bool = False, **options):
    """:func:`numba.njit` whose ``cache=True`` is keyed on all of :data:`COMPILED_SOURCES` (module docstring).

    Used like numba's: ``@njit``, ``@njit(cache=True, inline="always")``, ``@njit(cache=True,
    parallel=True)``, or with signatures first (compiled eagerly, after the cache is set up so that they
    are cached too). Returns a numba ``CPUDispatcher`` (the function itself under ``NUMBA_DISABLE_JIT``).
    Raises what :func:`numba.njit` raises (``TypeError`` for a non-function or an already jitted one).
    """
    if not cache:
        return numba.njit(*args, **options)
    if len(args) > 1:
        raise TypeError(f"njit takes at most one positional argument (a function or signatures), got {len(args)}")
    if args and not isinstance(args[0], list) and not sigutils.is_signature(args[0]):
        return _enable_sources_cache(numba.njit(**options)(args[0]))  # @njit(cache=True) on a function
    sigs = args[0] if args else None

    def decorate(func):
        disp = _enable_sources_cache(numba.njit(**options)(func))
        if sigs is not None and isinstance(disp, Dispatcher):
            from numba.core import typeinfer  # as numba.core.decorators._jit does

            with typeinfer.register_dispatcher(disp):
                for sig in sigs if isinstance(sigs, list) else [sigs]:
                    disp.compile(sig)
                disp.disable_compile()
        return disp

    return decorate
