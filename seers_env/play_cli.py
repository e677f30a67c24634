"""Old import path of :mod:`seers_env.cli.play_cli` (moved into the command-line package).

``import seers_env.play_cli`` gives the very same module object, so attributes and monkeypatching work as before.
"""

import sys

from .cli import play_cli as _module

sys.modules[__name__] = _module
