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

The cache is an optimisation, never a point of failure (numba itself would raise on each):

* A damaged entry (an empty, truncated or garbage ``.nbi`` index or ``.nbc`` data file: ``EOFError``,
  ``pickle.UnpicklingError``, ``ValueError``, ``TypeError``, unreadable files; a data file whose SHA-256,
  stored in front of it, does not match) is dropped: :class:`TolerantIndexDataCacheFile` deletes the file and reports a miss, so numba compiles the
  function again and rewrites the entry; a failure while rebuilding a loaded entry is a miss too
  (:meth:`SourcesFunctionCache.load_overload`).
* A data file written for another entry than the index names (two processes saving different signatures
  of one function pick the same free file name, or a process of older sources saves into it) is dropped
  the same way: each data file also starts with a hash of its (stamp, key), checked before numba would
  run the machine code of another signature.
* A failed save (folder gone or read-only, disk full) keeps the compiled code in memory for this process.
* No usable cache location at import (a read-only install whose ``__pycache__`` cannot be written and whose
  user cache folder cannot be either: ``HOME`` invalid, ``NUMBA_CACHE_DIR`` not writable) compiles in memory,
  as ``cache=False`` (numba: ``RuntimeError: cannot cache function ...: no locator available``).
  An unusable ``NUMBA_CACHE_DIR`` with another usable location is cached there, with a warning.

Each case issues one :class:`JitCacheWarning` per process and cache folder, naming the folder.

Keep :data:`COMPILED_SOURCES` complete: ``tests/test_jit_cache.py`` checks that it names every package module
that compiles with ``cache=True`` and every package module they import (transitively).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import os
import pickle
import warnings
from pathlib import Path

import numba
from numba.core import config, sigutils
from numba.core.caching import (FunctionCache, InTreeCacheLocator, IndexDataCacheFile, UserProvidedCacheLocator,
                                UserWideCacheLocator)
from numba.core.dispatcher import Dispatcher

__all__ = ["COMPILED_SOURCES", "PACKAGE_ROOT", "JitCacheWarning", "SourcesFunctionCache", "TolerantIndexDataCacheFile",
           "njit", "sources_cache", "sources_digest"]

#: The ``seers_env`` package folder; :data:`COMPILED_SOURCES` are relative to it.
PACKAGE_ROOT = Path(__file__).resolve().parent.parent

#: Package files (POSIX paths relative to :data:`PACKAGE_ROOT`) whose contents key our numba cache: the
#: modules compiled with ``cache=True`` and the package modules they import (their constants are frozen
#: into compiled code). Sorted; ``tests/test_jit_cache.py`` checks that it is complete.
COMPILED_SOURCES: tuple[str, ...] = (
    "actions.py",
    "aec_core.py",
    "dealt_game.py",
    "dealt_view.py",
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
    "haggis/__init__.py",
    "haggis/actions.py",
    "haggis/cards.py",
    "haggis/game.py",
    "haggis/kernel.py",
    "haggis/moves.py",
    "haggis/observation.py",
    "haggis/plays.py",
    "haggis/rulings.py",
    "haggis/view.py",
    "integers.py",
    "jsonio.py",
    "observation.py",
    "play_eval.py",
    "scout/__init__.py",
    "scout/actions.py",
    "scout/cards.py",
    "scout/features.py",
    "scout/game.py",
    "scout/kernel.py",
    "scout/kernel_features.py",
    "scout/moves.py",
    "scout/observation.py",
    "scout/plays.py",
    "scout/rulings.py",
    "scout/view.py",
    "seals/cards.py",
    "seals/kernel.py",
    "seals/rulings.py",
    "seeding.py",
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


class JitCacheWarning(RuntimeWarning):
    """A numba cache problem that was worked around: a damaged entry dropped and compiled again, a failed
    save, or no writable cache folder (compiling in memory). Issued once per process and folder."""


#: Folders (or other keys) already warned about in this process: one :class:`JitCacheWarning` each.
_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn(message, JitCacheWarning, stacklevel=2)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class TolerantIndexDataCacheFile(IndexDataCacheFile):
    """numba's index and data files of one function, where a damaged file is a cache miss, not an error.

    A file that exists but cannot be read back (empty, truncated or garbage pickle, wrong contents, unreadable)
    is deleted (best effort; numba rewrites it after compiling) and reported once per folder with a
    :class:`JitCacheWarning`. A missing file is a plain miss, as in numba. Data files start with the SHA-256 of
    the rest, so a changed byte inside the machine code is detected too, before it reaches the loader.
    """

    _DIGEST_SIZE = hashlib.sha256().digest_size
    _saving_key = None

    def _entry_tag(self, key) -> bytes:
        """SHA-256 of (index stamp, index key): which entry a data file was written for."""
        return hashlib.sha256(repr((self._source_stamp, key)).encode()).digest()

    def save(self, key, data):
        self._saving_key = key  # for _save_data, which numba calls with the file name only
        try:
            super().save(key, data)
        finally:
            self._saving_key = None

    def _save_data(self, name, data):
        payload = self._entry_tag(self._saving_key) + self._dump(data)
        path = self._data_path(name)
        with self._open_for_write(path) as f:
            f.write(hashlib.sha256(payload).digest())
            f.write(payload)

    def _load_data(self, name, key=None):
        """The compile result in data file ``name``, written for the index entry ``key``.

        Raises:
            ValueError: the checksum does not match (a damaged file), or the file was written for another
                entry (two processes saving different entries can both pick the same free file name, and
                a process of older sources can overwrite it while another reads the newer index: numba
                would then run another signature's machine code).
        """
        with open(self._data_path(name), "rb") as f:
            data = f.read()
        n = self._DIGEST_SIZE
        digest, payload = data[:n], data[n:]
        if len(payload) < n or hashlib.sha256(payload).digest() != digest:
            raise ValueError(f"checksum mismatch ({len(data)} bytes)")
        if payload[:n] != self._entry_tag(key):
            raise ValueError("written for another entry than the index names")
        return pickle.loads(payload[n:])

    def _drop(self, path: str, exc: BaseException) -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)
        _warn_once(self._cache_path,
                   f"numba cache folder {self._cache_path!r}: entry {os.path.basename(path)!r} is damaged or "
                   f"unreadable ({_describe(exc)}); dropped, compiling again (the entry is rewritten when the "
                   "folder is writable; warned once per folder and process)")

    def _load_index(self):
        try:
            overloads = super()._load_index()
            if not isinstance(overloads, dict):
                raise TypeError(f"index holds a {type(overloads).__name__}, not a dict")
            return overloads
        except Exception as exc:  # noqa: BLE001 - any unreadable index is a miss
            self._drop(self._index_path, exc)
            return {}

    def load(self, key):
        data_name = self._load_index().get(key)
        if data_name is None:
            return None
        try:
            path = self._data_path(data_name)
        except TypeError as exc:  # not a file name: the index is damaged
            self._drop(self._index_path, exc)
            return None
        try:
            return self._load_data(data_name, key)
        except FileNotFoundError:  # removed while the index still names it (numba: a miss)
            return None
        except Exception as exc:  # noqa: BLE001 - any unreadable data file is a miss
            self._drop(path, exc)
            return None


class SourcesFunctionCache(FunctionCache):
    """numba's per-function disk cache with the index stamp ``(numba's stamp, sources_digest())``, never failing.

    Same location, file names and index keys as :class:`numba.core.caching.FunctionCache`; the freshness test
    is widened to all of :data:`COMPILED_SOURCES` (see the module docstring). Damaged entries and failed saves
    are :class:`JitCacheWarning` warnings, not errors (:class:`TolerantIndexDataCacheFile`). Construction raises
    numba's ``RuntimeError`` when no cache location is usable (:func:`njit` then compiles in memory).
    """

    def __init__(self, py_func):
        super().__init__(py_func)
        self.source_stamp = (self._impl.locator.get_source_stamp(), sources_digest())
        self._cache_file = TolerantIndexDataCacheFile(cache_path=self._cache_path,
                                                      filename_base=self._impl.filename_base,
                                                      source_stamp=self.source_stamp)

    def load_overload(self, sig, target_context):
        """The cached compile result for ``sig``, or None (a miss: numba compiles) when absent or unusable."""
        try:
            return super().load_overload(sig, target_context)
        except Exception as exc:  # noqa: BLE001 - e.g. a data file that unpickles to the wrong contents
            _warn_once(self._cache_path,
                       f"numba cache folder {self._cache_path!r}: the entry of {self._name} cannot be rebuilt "
                       f"({_describe(exc)}); dropped, compiling again (the entry is rewritten when the folder is "
                       "writable; warned once per folder and process)")
            return None

    def save_overload(self, sig, data):
        """Save the compile result for ``sig``; a failure (folder gone or read-only, disk full) only warns."""
        try:
            super().save_overload(sig, data)
        except Exception as exc:  # noqa: BLE001 - the compiled code stays usable in memory
            _warn_once(self._cache_path,
                       f"numba cache folder {self._cache_path!r}: cannot save compiled code ({_describe(exc)}); "
                       "it is kept in memory for this process only (warned once per folder and process)")


def _candidate_folders(py_func) -> list[str]:
    """The folders numba's default locators would try for ``py_func``, in order (for messages)."""
    py_file = inspect.getfile(py_func)
    classes = ([UserProvidedCacheLocator] if config.CACHE_DIR else []) + [InTreeCacheLocator, UserWideCacheLocator]
    out = []
    for cls in classes:
        with contextlib.suppress(Exception):
            out.append(cls(py_func, py_file).get_cache_path())
    return out


def sources_cache(py_func) -> SourcesFunctionCache | None:
    """A :class:`SourcesFunctionCache` for ``py_func``, or None when numba finds no usable cache location.

    numba's locators (``CacheImpl``) each check that their folder can be created and written; when none can,
    numba raises ``RuntimeError`` ("no locator available"). Here that is one :class:`JitCacheWarning` per
    process (naming the folders tried) and None: the caller compiles in memory. An unusable
    ``NUMBA_CACHE_DIR`` that numba skipped for another location is one warning too.
    """
    try:
        cache = SourcesFunctionCache(py_func)
    except (RuntimeError, OSError) as exc:
        folders = ", ".join(map(repr, _candidate_folders(py_func))) or "none"
        _warn_once("<no cache location>",
                   f"numba found no writable cache folder ({_describe(exc)}; folders tried: {folders}): compiling "
                   "in memory, so every process compiles again; set NUMBA_CACHE_DIR to a writable folder to "
                   "cache (warned once per process)")
        return None
    if (config.CACHE_DIR and not config.CACHE_LOCATOR_CLASSES
            and not isinstance(cache._impl.locator, UserProvidedCacheLocator)):
        _warn_once(str(config.CACHE_DIR),
                   f"NUMBA_CACHE_DIR {str(config.CACHE_DIR)!r} is not a writable folder; numba caches in its next "
                   f"location instead, e.g. {cache.cache_path!r} (warned once per process)")
    return cache


def _enable_sources_cache(disp):
    # What Dispatcher.enable_caching does, with our cache class; no usable location: numba's default NullCache.
    if isinstance(disp, Dispatcher):
        cache = sources_cache(disp.py_func)
        if cache is not None:
            disp._cache = cache
    return disp


def njit(*args, cache: bool = False, **options):
    """:func:`numba.njit` whose ``cache=True`` is keyed on all of :data:`COMPILED_SOURCES` (module docstring).

    Used like numba's: ``@njit``, ``@njit(cache=True, inline="always")``, ``@njit(cache=True,
    parallel=True)``, or with signatures first (compiled eagerly, after the cache is set up so that they
    are cached too). Returns a numba ``CPUDispatcher`` (the function itself under ``NUMBA_DISABLE_JIT``); with
    no usable cache location it compiles in memory, as ``cache=False``, with one :class:`JitCacheWarning`
    (:func:`sources_cache`). Raises what :func:`numba.njit` raises (``TypeError`` for a non-function or an
    already jitted one).
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
