"""Old import path of :mod:`seers_env.engine.scoring` (the rules engine lives in :mod:`seers_env.engine`).

``import seers_env.scoring`` gives the very same module object as ``seers_env.engine.scoring``, so every public and
private name, and any attribute set on it, is shared.
"""

import sys as _sys

from .engine import scoring as _module

_sys.modules[__name__] = _module
