"""Old import path of :mod:`seers_env.cli.demo` (moved into the command-line package).

``import seers_env.demo`` gives the very same module object, so attributes and monkeypatching work as before.
"""

import sys

from .cli import demo as _module

sys.modules[__name__] = _module
