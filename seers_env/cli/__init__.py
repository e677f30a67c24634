"""The command line (``seers``, typer) and the terminal UI: the top layer of the project.

Layers: this package may import :mod:`agents` and :mod:`train` (lazily, inside commands); nothing else in
:mod:`seers_env` imports them. Modules:

* :mod:`.commands`: the typer ``app`` and ``main`` (the ``seers`` script), built from :data:`.commands.COMMAND_MODULES`;
* :mod:`.tui`: plain-text rendering of a game and the numbered menu of legal plays;
* :mod:`.play_cli`: ``seers play`` and ``seers replay``; :mod:`.demo`: ``seers demo``;
* :mod:`.bench`: ``seers bench engine``; :mod:`.env_cli`: ``seers bench env``.

``app`` and ``main`` are imported on first access, so ``import seers_env.cli.tui`` does not build the app.
The old paths (``seers_env.tui``, ``seers_env.play_cli``, ...) import the same module objects.
"""

from __future__ import annotations

import importlib

_APP_NAMES = ("app", "bench_app", "main", "COMMAND_MODULES")


def __getattr__(name: str):
    if name in _APP_NAMES:
        return getattr(importlib.import_module(f"{__name__}.commands"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_APP_NAMES)
