"""Old import path of :mod:`seers_env.cli.bench` (moved into the command-line package).

``import seers_env.bench`` gives the very same module object, so attributes and monkeypatching work as before.
"""

import sys

from .cli import bench as _module

sys.modules[__name__] = _module
