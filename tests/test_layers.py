"""Layering (developers' guide): engine < environment < agents < training < web < command line.

No module imports a package of a layer above its own, at any nesting level (lazy imports inside
functions included); and each layer imports whole with every layer above it made unimportable.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import seers_env

REPO = Path(seers_env.__file__).parent.parent
#: top-level packages from the bottom layer up
LAYERS = ("seers_env", "agents", "train", "seers_web", "seers_cli")
#: modules of each package to import in the isolation test (its public face and its heaviest parts)
LAYER_MODULES = {
    "seers_env": ["seers_env", "seers_env.seers_catalog_v0", "seers_env.scout_v0", "seers_env.vector",
                  "seers_env.wrappers", "seers_env.games", "seers_env.scout", "seers_env.seals_v0",
                  "seers_env.seals", "seers_env.haggis_v0", "seers_env.haggis"],
    "agents": ["agents", "agents.tournament", "agents.scout", "agents.games", "agents.seals", "agents.haggis"],
    "train": ["train", "train.selfplay", "train.scoring_policy", "train.trainer", "train.specs",
              "train.guided_search"],
    "seers_web": ["seers_web.app", "seers_web.sessions", "seers_web.uploads", "seers_web.scout_web",
                  "seers_web.seals_web", "seers_web.haggis_web"],
}


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_module_imports_a_layer_above_it():
    offenders = {}
    for level, package in enumerate(LAYERS):
        higher = set(LAYERS[level + 1:])
        for path in sorted((REPO / package).rglob("*.py")):
            bad = _imported_roots(path) & higher
            if bad:
                offenders[str(path.relative_to(REPO))] = sorted(bad)
    assert offenders == {}


@pytest.mark.parametrize("package", list(LAYER_MODULES))
def test_each_layer_imports_with_the_layers_above_unimportable(package):
    above = LAYERS[LAYERS.index(package) + 1:]
    code = ("import sys\n"
            f"for name in {list(above)!r}:\n"
            "    sys.modules[name] = None  # import raises ImportError\n"
            f"for module in {LAYER_MODULES[package]!r}:\n"
            "    __import__(module)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_the_command_line_is_the_top_package():
    from seers_cli import app, main
    from seers_cli.commands import COMMAND_MODULES, app as app2

    assert app is app2 and callable(main)
    assert all(name.startswith("seers_cli.") for name in COMMAND_MODULES)
