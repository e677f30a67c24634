"""``python -m train.seals_distill``: bad flags and bad ``--data`` files are refused by name, before any
work, with no traceback and no run folder left behind."""

from __future__ import annotations

import numpy as np
import pytest

typer = pytest.importorskip("typer")
pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from train import seals_distill  # noqa: E402


def _run(args):
    app = typer.Typer()
    app.command()(seals_distill.main)
    return CliRunner().invoke(app, args)


@pytest.mark.parametrize("flags, named", [(["--players", "5"], "n_players=5"), (["--rollouts", "1"], "rollouts=1"),
                                          (["--decisions", "0"], "decisions=0"),
                                          (["--temperature", "0"], "temperature=0"),
                                          (["--temperature", "inf"], "temperature=inf"), (["--lr", "nan"], "lr=nan")])
def test_bad_flags_are_named_without_a_traceback(tmp_path, flags, named):
    out = tmp_path / "run"
    result = _run([*flags, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert named in " ".join(result.output.split()).replace("│ ", "").replace(" │", "")
    assert "Traceback" not in result.output and not out.exists()


def _good_arrays():
    return {"states": np.zeros((1, 3), np.float32), "hidden": np.zeros((1, 2), np.float32),
            "plays": np.zeros((2, 4), np.float32), "offsets": np.array([0, 2]), "q": np.zeros(2, np.float32),
            "heuristic": np.array([0])}


def _hostile(tmp_path, kind):
    path = tmp_path / f"{kind}.npz"
    if kind == "missing":
        return path
    if kind == "garbage":
        path.write_bytes(b"not an archive")
    elif kind == "pickled":
        arrays = _good_arrays()
        arrays["q"] = np.array([object(), object()], dtype=object)
        np.savez(path, **arrays)
    elif kind == "partial":
        np.savez(path, states=np.zeros((1, 3), np.float32))
    elif kind == "bad_offsets":
        arrays = _good_arrays()
        arrays["offsets"] = np.array([0, 7])
        np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("kind", ["missing", "garbage", "pickled", "partial", "bad_offsets"])
def test_bad_data_files_are_refused_by_name(tmp_path, kind):
    path = _hostile(tmp_path, kind)
    with pytest.raises(seals_distill.DistillDataError, match=kind):
        seals_distill.load_data(str(path))
    out = tmp_path / "run"
    result = _run(["--data", str(path), "--out", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output and not out.exists()


def test_saved_data_loads_back(tmp_path):
    data = seals_distill.DistillData(**_good_arrays())
    path = str(tmp_path / "data.npz")
    seals_distill.save_data(data, path)
    back = seals_distill.load_data(path)
    assert len(back) == 1 and back.offsets.tolist() == [0, 2]
