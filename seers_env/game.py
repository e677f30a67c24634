"""Old import path of :mod:`seers_env.engine.game` (the rules engine lives in :mod:`seers_env.engine`).

``import seers_env.game`` gives the very same module object as ``seers_env.engine.game``, so every public and
private name, and any attribute set on it, is shared.
"""

import sys as _sys

from .engine import game as _module

_sys.modules[__name__] = _module
