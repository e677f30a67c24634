"""The command line (``seers``, typer) and the terminal UI: the top layer of the project.

Layers (engine < environment < agents < training < command line): this package may import every other
package; none imports it (``tests/test_layers.py``). Modules:

* :mod:`.commands`: the typer ``app`` and ``main`` (the ``seers`` script), built from :data:`.commands.COMMAND_MODULES`;
* :mod:`.eval_cmd`: ``seers eval``; :mod:`.train_cmd` (and :mod:`.rllib_cmd`): ``seers train``, ``seers bench
  train``; :mod:`.serve_cmd`: ``seers serve``; :mod:`.runs`: ``seers runs``;
* :mod:`.tui`: plain-text rendering of a game and the numbered menu of legal plays;
* :mod:`.play_cmd`: ``seers play`` and ``seers replay`` (the game: :mod:`.play_cli`); :mod:`.demo`: ``seers demo``;
* :mod:`.bench`: ``seers bench engine``; :mod:`.env_cli`: ``seers bench env``.

``app`` and ``main`` are imported on first access, so ``import seers_cli.tui`` does not build the app.
"""

from __future__ import annotations

import importlib

_APP_NAMES = ("app", "bench_app", "main", "COMMAND_MODULES")


def __getattr__(name: str):
    if name in _APP_NAMES:
        return getattr(importlib.import_module(f"{__name__}.commands"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_APP_NAMES)
