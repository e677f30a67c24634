"""Old import path of :mod:`seers_env.cli.tui` (moved into the command-line package).

``import seers_env.tui`` gives the very same module object, so attributes and monkeypatching work as before.
"""

import sys

from .cli import tui as _module

sys.modules[__name__] = _module
