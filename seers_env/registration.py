"""PettingZoo registration of every game's environment (``pettingzoo.make("aec", "seers/scout-v0")``).

``import seers_env`` calls :func:`install`: every game of :data:`seers_env.games.GAMES` that has an
environment is added to PettingZoo's AEC registry under its ``env_id``, with its entry point as a
``"module:env"`` string, so no environment module is imported until ``pettingzoo.make`` builds one.

``import seers_env`` stays light and imports no RL library (``import seers_env.engine`` must not load
PettingZoo or Gymnasium): when PettingZoo is not imported yet, :func:`install` puts a finder on
``sys.meta_path`` that registers the environments right after PettingZoo's registry module
(``pettingzoo.env_registry.registration``) is loaded, whoever imports it, and then removes itself.

Registration is idempotent: an id already in the registry (PettingZoo stores normalised ids,
``seers/seers_catalog_v0`` as ``seers/seers_catalog-v0``) is left alone, so importing or reloading
``seers_env`` again never warns "Overriding environment".
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

from .games import GAMES

#: The module of PettingZoo that holds the registries (``aec_registry``, ``register``, ``EnvSpec``).
REGISTRY_MODULE = "pettingzoo.env_registry.registration"


def entry_points() -> dict[str, str]:
    """``{env_id: "module:env"}`` of every game with an environment (:data:`seers_env.games.GAMES`)."""
    return {spec.env_id: f"{spec.env_module}:env" for spec in GAMES.values() if spec.env_id and spec.env_module}


def register_envs(registry_module: ModuleType | None = None) -> list[str]:
    """Add every game's environment to PettingZoo's AEC registry; ids already there are left alone.

    Args:
        registry_module: PettingZoo's :data:`REGISTRY_MODULE` (imported when ``None``).

    Returns:
        The ids registered by this call (``[]`` when all were registered already).
    """
    reg = registry_module if registry_module is not None else importlib.import_module(REGISTRY_MODULE)
    spec_class = getattr(reg, "EnvSpec", None)
    added = []
    for env_id, entry_point in entry_points().items():
        # the key PettingZoo stores (``_v0`` read as ``-v0``); the table's ids are in that form already
        normalised = spec_class(id=env_id).id if spec_class is not None else env_id
        if normalised not in reg.aec_registry:
            reg.register("aec", env_id, entry_point=entry_point)
            added.append(normalised)
    return added


class _Loader(importlib.abc.Loader):
    """The loader of PettingZoo's registry module, followed by :func:`register_envs`."""

    def __init__(self, loader: Any):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        register_envs(module)

    def __getattr__(self, name: str) -> Any:  # get_resource_reader, is_package, ...: the real loader's
        return getattr(self._loader, name)


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Finds PettingZoo's registry module with the other finders and wraps its loader (once)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None):
        if fullname != REGISTRY_MODULE:
            return None
        _remove_finder()  # once: the module is found now (or not at all)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _Loader(spec.loader)
                return spec
        return None


def _remove_finder() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _RegisterOnImport)]


def install() -> None:
    """Register every game's environment with PettingZoo now if it is imported, else as soon as it is
    (module docstring). Calling it again does nothing more."""
    module = sys.modules.get(REGISTRY_MODULE)
    if module is not None and hasattr(module, "aec_registry"):
        register_envs(module)
        return
    try:
        found = importlib.machinery.PathFinder.find_spec("pettingzoo")
    except (ImportError, ValueError):
        found = None
    if found is None:  # PettingZoo is not installed: nothing to register with
        return
    if not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport())


__all__ = ["REGISTRY_MODULE", "entry_points", "install", "register_envs"]
