"""The strategy notebooks run top to bottom (issue 6), at their small size (``SEERS_NOTEBOOK_SMALL=1``).

The notebooks are executed with nbclient (the library nbmake drives) in a fresh ``python3`` kernel, from
the ``notebooks/`` folder, so ``pytest --nbmake notebooks`` behaves the same. The sources are stored
without outputs; ``notebooks/execute.py`` writes their full-size runs, with figures, to
``notebooks/executed/``, and the tests here check those copies are the sources' cells, cleaned.
"""

from __future__ import annotations

import base64
import importlib.util
import io
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXECUTED_DIR = NOTEBOOK_DIR / "executed"
MAX_EXECUTED_KIB = 400  # one executed copy, figures included


def _execute_module():
    """``notebooks/execute.py`` (a script, not a package module)."""
    spec = importlib.util.spec_from_file_location("notebooks_execute", NOTEBOOK_DIR / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outputs_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
    return "".join(parts)


def test_the_notebooks_exist():
    assert [p.name for p in NOTEBOOKS] == ["01_quickstart.ipynb", "02_strategy.ipynb", "03_agents.ipynb",
                                          "04_scout_strategy.ipynb", "05_haggis_strategy.ipynb",
                                          "06_seals_strategy.ipynb"]


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_executed_copy_is_the_source_run_and_cleaned(path):
    """The stored copy has the source's cells (regenerate with ``python notebooks/execute.py`` after a
    change) and their outputs to the last cell, without run noise; each figure is a palette PNG with a
    takeaway."""
    copy_path = EXECUTED_DIR / path.name
    assert copy_path.exists(), f"no executed copy of {path.name}: run python notebooks/execute.py {path.stem}"
    source = nbformat.read(path, as_version=4)
    executed = nbformat.read(copy_path, as_version=4)
    nbformat.validate(executed)
    assert [(c.cell_type, c.source) for c in executed.cells] == [(c.cell_type, c.source) for c in source.cells], \
        f"{copy_path.name} is stale: run python notebooks/execute.py {path.stem}"
    assert executed.metadata == source.metadata
    assert copy_path.stat().st_size <= MAX_EXECUTED_KIB * 1024
    from PIL import Image

    code = [c for c in executed.cells if c.cell_type == "code"]
    assert code[-1].outputs  # the run reached the end (each notebook's last cell prints)
    figures = 0
    for cell in code:
        assert cell.execution_count is None and "execution" not in cell.metadata
        for out in cell.outputs:
            assert out.output_type != "error"
            assert out.get("execution_count") is None
            png = out.get("data", {}).get("image/png")
            if png:
                figures += 1
                assert Image.open(io.BytesIO(base64.b64decode(png))).mode == "P"
                assert "Takeaway:" in _outputs_text(cell)
    assert figures >= (0 if path.stem == "01_quickstart" else 3)


def _png(mode: str, size=(40, 20)) -> str:
    from PIL import Image

    image = Image.new(mode, size, (200, 30, 30, 0) if mode == "RGBA" else (200, 30, 30))
    for x in range(size[0] // 2):
        image.putpixel((x, 3), (10, 10, 200, 255) if mode == "RGBA" else (10, 10, 200))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


def test_clean_leaves_out_run_noise_and_keeps_the_outputs():
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
    from PIL import Image

    module = _execute_module()
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    source = new_notebook(cells=[new_markdown_cell("# t"), new_code_cell("1 + 1")],
                          metadata={"kernelspec": kernel, "language_info": {"name": "python"}})
    run = new_notebook(cells=[new_markdown_cell("# t"), new_code_cell("1 + 1", execution_count=3)],
                       metadata={"kernelspec": kernel, "language_info": {"name": "python", "version": "3.11.9"}})
    cell = run.cells[1]
    cell.metadata["execution"] = {"iopub.execute_input": "2025-01-01T00:00:00Z"}
    cell.outputs = [new_output("stream", name="stdout", text="Takeaway: 2\n"),
                    new_output("execute_result", data={"text/plain": "2"}, execution_count=3),
                    new_output("display_data", data={"image/png": _png("RGBA"), "text/plain": "<Figure>"})]
    module.clean(run, source)
    nbformat.validate(run)
    assert run.metadata == source.metadata  # the kernel's version is left out
    assert cell.execution_count is None and "execution" not in cell.metadata
    assert cell.outputs[0].text == "Takeaway: 2\n" and cell.outputs[1].data["text/plain"] == "2"
    assert cell.outputs[1].execution_count is None
    image = Image.open(io.BytesIO(base64.b64decode(cell.outputs[2].data["image/png"])))
    assert image.mode == "P" and image.size == (40, 20)
    rgb = image.convert("RGB")
    assert rgb.getpixel((30, 10)) == (255, 255, 255)  # transparent pixels are laid on white
    assert rgb.getpixel((5, 3)) == (10, 10, 200)


def test_shrink_png_refuses_what_is_not_an_image():
    module = _execute_module()
    with pytest.raises(ValueError, match="not a base64 PNG image"):
        module.shrink_png(base64.b64encode(b"not a png").decode("ascii"))


def test_notebooks_are_chosen_by_name_or_number():
    module = _execute_module()
    assert [p.name for p in module.source_notebooks(["04", "02_strategy"])] == ["04_scout_strategy.ipynb",
                                                                            "02_strategy.ipynb"]
    assert module.source_notebooks([]) == NOTEBOOKS
    with pytest.raises(ValueError, match="'9' matches nothing"):
        module.source_notebooks(["9"])
    with pytest.raises(ValueError, match="matches \\['01_quickstart', '02_strategy'"):
        module.source_notebooks(["0"])
