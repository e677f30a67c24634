"""Layering (developers' guide): engine < environment < agents < training < command line.

Only the command-line package ``seers_env/cli/`` may import ``agents`` or ``train``; no other module
of ``seers_env`` does, at any nesting level (lazy imports inside functions included).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import seers_env

ROOT = Path(seers_env.__file__).parent
HIGHER = {"agents", "train"}


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_only_the_cli_package_imports_agents_or_train():
    offenders = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "cli":
            continue
        bad = _imported_roots(path) & HIGHER
        if bad:
            offenders[str(rel)] = sorted(bad)
    assert offenders == {}


def test_old_cli_paths_are_the_moved_modules():
    for name in ("tui", "play_cli", "env_cli", "demo", "bench"):
        old = importlib.import_module(f"seers_env.{name}")
        assert old is importlib.import_module(f"seers_env.cli.{name}")
    from seers_env.cli import app, main
    from seers_env.cli.commands import app as app2

    assert app is app2 and callable(main)


def test_agents_never_import_train():
    """The agents layer reaches the training layer's specs only through entry points (agents/specs.py)."""
    offenders = {}
    for path in sorted((ROOT.parent / "agents").rglob("*.py")):
        bad = _imported_roots(path) & {"train"}
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}
