"""Ray is an optional extra (``distributed``): the package and the other tests never import it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RAY_MODULES = ("train.rllib_env", "train.rllib_module", "train.rllib_train", "train.rllib_agent", "seers_cli.rllib_cmd")


def test_core_package_imports_no_ray():
    """Every module outside the rllib ones imports without pulling in ray."""
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for pkg in ("seers_env", "agents", "train") for p in (ROOT / pkg).rglob("*.py")
        if p.name != "__main__.py")
    modules = [m.removesuffix(".__init__") for m in modules if m not in RAY_MODULES]
    code = ("import importlib, sys\n"
            f"for m in {modules!r}:\n"
            "    try:\n        importlib.import_module(m)\n"
            "    except ImportError as e:\n        print('skip', m, e)\n"
            "bad = sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.'))\n"
            "print('RAY', bad[:5])\n"
            "assert not bad, bad\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "RAY []" in out.stdout


def test_seers_cli_and_agent_specs_import_no_ray():
    code = ("import sys\nfrom seers_cli import app\nfrom agents.specs import make_agent\n"
            "import seers_cli.train_cmd\nmake_agent('heuristic')\n"
            "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')]\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


def test_rllib_agent_module_imports_no_ray_until_asked():
    code = ("import sys\nimport train.rllib_agent, seers_cli.rllib_cmd\n"
            "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')]\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


@pytest.mark.parametrize("path", sorted(p.name for p in (ROOT / "tests").glob("*.py")))
def test_other_tests_do_not_import_ray(path):
    """Only test_rllib.py may import ray (or the rllib modules but train.rllib_agent)."""
    if path == "test_rllib.py":
        return
    tree = ast.parse((ROOT / "tests" / path).read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            assert name != "ray" and not name.startswith("ray."), f"{path} imports {name}"
            # train.rllib_agent imports no ray until asked (test above): its checkpoint readers may be
            # tested anywhere
            assert name not in RAY_MODULES or name == "train.rllib_agent", f"{path} imports {name}"
