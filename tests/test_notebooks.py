"""The strategy notebooks run top to bottom (issue 6), at their small size (``SEERS_NOTEBOOK_SMALL=1``).

The notebooks are executed with nbclient (the library nbmake drives) in a fresh ``python3`` kernel, from
the ``notebooks/`` folder, so ``pytest --nbmake notebooks`` behaves the same.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def _outputs_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
    return "".join(parts)


def test_the_three_notebooks_exist():
    assert [p.name for p in NOTEBOOKS] == ["01_quickstart.ipynb", "02_strategy.ipynb", "03_agents.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    assert all(c.outputs == [] and c.execution_count is None for c in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_small_and_every_figure_has_a_takeaway(path, monkeypatch):
    monkeypatch.setenv("SEERS_NOTEBOOK_SMALL", "1")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend makes the figures
    before = sorted(p.name for p in NOTEBOOK_DIR.iterdir())
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=240, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK_DIR)}}).execute()
    figures = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not any(o.get("output_type") == "error" for o in cell.outputs)
        if any("image/png" in o.get("data", {}) for o in cell.outputs):
            figures += 1
            assert "Takeaway:" in _outputs_text(cell), cell.source[:80]
    if path.stem != "01_quickstart":
        assert figures >= 3
    assert sorted(p.name for p in NOTEBOOK_DIR.iterdir()) == before  # nothing written into the repo
