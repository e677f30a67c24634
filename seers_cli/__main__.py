"""``python -m seers_cli``: the ``seers`` command."""

from seers_cli import main

main()
