"""Run the notebooks and store copies with their outputs and figures: ``python notebooks/execute.py``.

Each source notebook ``notebooks/NAME.ipynb`` (kept without outputs) is run top to bottom at its full
size with nbclient, in a fresh ``python3`` kernel started in ``notebooks/``, with this checkout first on
the kernel's import path (so the copy shows this checkout's code, not another installed one). The run's
copy is written to ``notebooks/executed/NAME.ipynb``, for readers on a code host who cannot run it.

To keep the copies small and their diffs readable:

* figures are drawn at :data:`FIGURE_DPI` dpi and stored as 256-colour palette PNGs (Pillow, which
  matplotlib already needs; about a third of the size, the plots look the same);
* execution counts, per-cell timing metadata and the kernel's version metadata are left out, and
  progress lines are turned off (``SEERS_NOTEBOOK_PROGRESS=0``: they hold timings), so a copy changes
  only when a notebook's cells or results change.

Usage::

    python notebooks/execute.py            # every notebook
    python notebooks/execute.py 02 04      # some, by name or number prefix

The output names each notebook with its run time and file size. A notebook that raises stops the
command (exit status 1) and its copy is not written.
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import sys
import tempfile
import time
from pathlib import Path

NOTEBOOK_DIR = Path(__file__).resolve().parent
REPO_ROOT = NOTEBOOK_DIR.parent
EXECUTED_DIR = NOTEBOOK_DIR / "executed"

#: Resolution of the stored figures (matplotlib's default is 100).
FIGURE_DPI = 80
#: Most colours of a stored figure (a palette PNG holds at most 256).
PNG_COLOURS = 256
#: Seconds one cell may run before the run is abandoned.
CELL_TIMEOUT_S = 900


def source_notebooks(names: list[str] | None = None) -> list[Path]:
    """The source notebooks ``notebooks/*.ipynb`` in name order, or those matching ``names`` (a full
    stem such as ``04_scout_strategy`` or a prefix such as ``04``).

    Raises:
        ValueError: a name that matches no notebook, or more than one (the message lists them).
    """
    paths = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
    if not names:
        return paths
    chosen = []
    for name in names:
        stem = Path(name).stem
        hits = [p for p in paths if p.stem == stem] or [p for p in paths if p.stem.startswith(stem)]
        if len(hits) != 1:
            raise ValueError(f"notebook {name!r} matches {[p.stem for p in hits] or 'nothing'}; the notebooks "
                             f"are {[p.stem for p in paths]}")
        chosen += [p for p in hits if p not in chosen]
    return chosen


def shrink_png(data: str, colours: int = PNG_COLOURS) -> str:
    """A base64 PNG (as stored in a notebook) re-encoded as a palette PNG of at most ``colours`` colours,
    transparent pixels laid on white; returns base64 text. The image keeps its size in pixels.

    Raises:
        ValueError: ``data`` is not a base64-encoded image Pillow can read.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        image.load()
    except (UnidentifiedImageError, ValueError, OSError) as err:
        raise ValueError(f"not a base64 PNG image ({err})") from None
    rgba = image.convert("RGBA")
    flat = Image.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=rgba.getchannel("A"))
    small = flat.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


def clean(executed, source) -> None:
    """Strip an executed notebook (an ``nbformat`` node, changed in place) of run noise: the notebook
    metadata becomes ``source``'s, execution counts become ``None``, the cells' ``execution`` timing
    metadata is dropped, and every PNG output is re-encoded with :func:`shrink_png`."""
    executed.metadata = source.metadata
    for cell in executed.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        for output in cell.outputs:
            if "execution_count" in output:
                output.execution_count = None
            png = output.get("data", {}).get("image/png")
            if png:
                output.data["image/png"] = shrink_png(png)


def execute(path: Path, out_dir: Path = EXECUTED_DIR) -> tuple[float, Path]:
    """Run the notebook at ``path`` (full size) and write its cleaned copy to ``out_dir / path.name``.

    Returns:
        ``(seconds the run took, path of the copy)``.

    Raises:
        nbclient.exceptions.CellExecutionError: a cell raised (nothing is written).
    """
    import nbformat
    from nbclient import NotebookClient

    source = nbformat.read(path, as_version=4)
    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="notebook_rc_") as rc_dir:
        Path(rc_dir, "matplotlibrc").write_text(f"figure.dpi: {FIGURE_DPI}\n")
        env = dict(os.environ)
        env.pop("SEERS_NOTEBOOK_SMALL", None)  # full size
        env["SEERS_NOTEBOOK_PROGRESS"] = "0"  # no progress lines: they hold timings
        env.pop("MPLBACKEND", None)  # the kernel's inline backend draws the figures
        env["MATPLOTLIBRC"] = rc_dir
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
        client = NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3", record_timing=False,
                                resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
        start = time.monotonic()
        client.execute(env=env)
        seconds = time.monotonic() - start
    clean(notebook, source)
    nbformat.validate(notebook)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / path.name
    nbformat.write(notebook, target)
    return seconds, target


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(description="Run the notebooks and store copies with their outputs "
                                                 f"in {EXECUTED_DIR.relative_to(REPO_ROOT)}/.")
    parser.add_argument("names", nargs="*", help="notebooks to run (a name or a number prefix); default: all")
    args = parser.parse_args(argv)
    try:
        paths = source_notebooks(args.names)
    except ValueError as err:
        parser.error(str(err))
    if any((REPO_ROOT / "runs").glob("*/eval.json")):
        print("note: runs/*/eval.json exists, so 03_agents shows the newest saved evaluation, not its own "
              "tournament", flush=True)
    from nbclient.exceptions import CellExecutionError

    for path in paths:
        print(f"{path.name}: running ...", flush=True)
        try:
            seconds, target = execute(path)
        except CellExecutionError as err:
            print(f"{path.name}: failed, no copy written:\n{err}", file=sys.stderr)
            return 1
        print(f"{path.name}: {seconds:.0f} s, {target.relative_to(REPO_ROOT)} "
              f"{target.stat().st_size / 1024:.0f} KiB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
