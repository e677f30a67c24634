"""The layers: the rules engine in ``seers_env.engine`` imports no RL library, and old paths still work."""

import importlib
import subprocess
import sys

import pytest

ENGINE_MODULES = ("cards", "artifacts", "rulings", "plays", "melds", "moves", "scoring", "game", "view")


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_old_path_is_the_engine_module(name):
    assert importlib.import_module(f"seers_env.{name}") is importlib.import_module(f"seers_env.engine.{name}")


def test_engine_imports_no_rl_library():
    code = ("import sys, seers_env.engine, seers_env.engine.view, seers_env.engine.moves\n"
            "bad = [m for m in ('gymnasium', 'pettingzoo', 'torch', 'stable_baselines3', 'agents', 'train')"
            " if m in sys.modules]\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
