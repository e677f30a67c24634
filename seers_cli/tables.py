"""Tables of the command line: drawn by rich on a terminal, Markdown otherwise (a file or a pipe), as
``seers eval`` (:func:`agents.tournament.print_table`), ``seers train`` and ``seers runs`` print theirs."""

from __future__ import annotations

import sys
from typing import Any, TextIO


def print_cells(cells: dict[str, Any], file: TextIO | None = None, width: int = 80) -> None:
    """Print a table given as cells to ``file`` (default ``sys.stdout``).

    Args:
        cells: ``{"title": str, "headers": [str], "rows": [[str]], "legend": [str], "caption": [str]}``,
            the form of :func:`agents.tournament.table_cells`; the first column is left-aligned, the others
            right-aligned. Legend and caption lines are printed under the table (on a terminal too),
            wrapped at ``width`` columns without trailing spaces.
        file: where to print; a rich table when ``file.isatty()``, else :func:`agents.tournament.markdown_table`.
    """
    import textwrap

    from agents.tournament import markdown_table

    file = sys.stdout if file is None else file
    try:
        terminal = bool(file.isatty())
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        print(markdown_table(cells, width), file=file, flush=True)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=cells["title"])
    for i, h in enumerate(cells["headers"]):
        table.add_column(h, justify="left" if i == 0 else "right")
    for row in cells["rows"]:
        table.add_row(*row)
    console = Console(file=file)
    console.print(table)
    for text in [*cells.get("legend", []), *cells.get("caption", [])]:
        print("\n".join(textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)), file=file,
              flush=True)


__all__ = ["print_cells"]
