"""Model, checkpoint and result files are read without running code from them, and a damaged one gives
an error naming the file.

Each crafted file holds a pickle that, if unpickled, creates a marker file: the loaders must refuse it
(:class:`train.model_files.UnsafeModelFileError`) and the marker must not exist afterwards.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from seers_env.actions import N_ACTIONS
from seers_env.observation import OBS_DIM

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from train.model_files import ModelFileError, UnsafeModelFileError  # noqa: E402


class _OpensMarker:
    """Unpickling it calls ``open(marker, "w")``: the marker appears if anything unpickles it."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


class _ExecsString:
    """Unpickling it runs a string through ``numpy.testing._private.utils.runstring`` (``exec``)."""

    def __init__(self, marker: Path):
        self.code = f"open({str(marker)!r}, 'w').close()"

    def __reduce__(self):
        from numpy.testing._private.utils import runstring

        return (runstring, (self.code, {}))


# --- stable-baselines3 zips (ppo:) ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def good_zip(tmp_path_factory) -> Path:
    """A real MaskablePPO zip (never trained) on this environment's spaces."""
    import gymnasium as gym
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from seers_env.seers_catalog_v0 import OBS_BOUND

    class ToyEnv(gym.Env):
        observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (OBS_DIM,), np.float32)
        action_space = spaces.Discrete(N_ACTIONS)

        def reset(self, seed=None, options=None):
            return np.zeros(OBS_DIM, np.float32), {}

        def step(self, action):
            return np.zeros(OBS_DIM, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(N_ACTIONS, dtype=bool)

    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    MaskablePPO("MlpPolicy", ToyEnv(), policy_kwargs={"net_arch": [8]}, n_steps=8, batch_size=8,
                device="cpu").save(path)
    return path


def _rewrite_zip(src: Path, dst: Path, replace: dict[str, bytes | None]) -> Path:
    """Copy the zip ``src`` to ``dst`` with entries replaced (``None``: left out) or added."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            if item.filename not in replace:
                zout.writestr(item, zin.read(item.filename))
        for name, data in replace.items():
            if data is not None:
                zout.writestr(name, data)
    return dst


def _with_data(src: Path, dst: Path, edit) -> Path:
    """``src`` with its ``data`` JSON edited by ``edit(dict)``."""
    with zipfile.ZipFile(src) as z:
        data = json.loads(z.read("data"))
    edit(data)
    return _rewrite_zip(src, dst, {"data": json.dumps(data).encode()})


def _serialized(obj) -> str:
    return base64.b64encode(pickle.dumps(obj)).decode()


def test_a_real_zip_loads_and_plays(good_zip):
    from agents import make_agent
    from seers_env import Game, GameConfig
    from seers_env.view import SeatView

    agent = make_agent(f"ppo:{good_zip}", seed=0)
    game = Game(GameConfig(n_players=4, n_rounds=1), seed=0)
    play = agent.act(SeatView(game, game.current))
    assert game.is_legal(play)
    assert agent.model.observation_space.shape == (OBS_DIM,) and agent.model.action_space.n == N_ACTIONS


@pytest.mark.parametrize("key", ["observation_space", "policy_class", "clip_range"])
def test_ppo_zip_with_a_pickle_in_a_known_data_entry_is_refused(good_zip, tmp_path, key):
    from agents import make_agent

    marker = tmp_path / "marker"

    def edit(data):
        data[key][":serialized:"] = _serialized(_OpensMarker(marker))

    evil = _with_data(good_zip, tmp_path / "evil.zip", edit)
    with pytest.raises(UnsafeModelFileError, match=rf"{re.escape(str(evil))}.*data\['{key}'\].*io\.open"):
        make_agent(f"ppo:{evil}")
    assert not marker.exists()


def test_ppo_zip_with_an_unknown_pickled_entry_is_refused(good_zip, tmp_path):
    from train.policy import SnapshotOpponent

    marker = tmp_path / "marker"

    def edit(data):
        data["extra"] = {":type:": "<class 'int'>", ":serialized:": _serialized(_OpensMarker(marker))}

    evil = _with_data(good_zip, tmp_path / "evil.zip", edit)
    with pytest.raises(UnsafeModelFileError, match=r"data\['extra'\].*never holds"):
        SnapshotOpponent(evil)  # the self-play league's snapshot opponents read zips the same way
    assert not marker.exists()


def test_ppo_zip_whose_weights_hold_a_pickle_is_refused(good_zip, tmp_path):
    from train.policy import load_model

    marker = tmp_path / "marker"
    buf = io.BytesIO()
    torch.save({"w": _OpensMarker(marker)}, buf)
    evil = _rewrite_zip(good_zip, tmp_path / "evil.zip", {"policy.pth": buf.getvalue()})
    with pytest.raises(UnsafeModelFileError, match=rf"{re.escape(str(evil))}.*refers to io\.open.*weights_only=True"):
        load_model(evil)
    assert not marker.exists()


def test_seers_eval_refuses_a_crafted_zip_before_any_game(good_zip, tmp_path):
    from typer.testing import CliRunner

    from seers_cli import app

    marker = tmp_path / "marker"

    def edit(data):
        data["lr_schedule"][":serialized:"] = _serialized(_OpensMarker(marker))

    evil = _with_data(good_zip, tmp_path / "evil.zip", edit)
    result = CliRunner().invoke(app, ["eval", "--agents", f"ppo:{evil},random,random,random", "--games", "1",
                                      "--workers", "1", "--rounds", "1", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "lr_schedule" in result.output and "refused" in result.output
    assert not marker.exists()


def test_seers_serve_refuses_a_crafted_zip(good_zip, tmp_path):
    pytest.importorskip("uvicorn")
    from typer.testing import CliRunner

    from seers_cli import app

    marker = tmp_path / "marker"

    def edit(data):
        data["action_space"][":serialized:"] = _serialized(_OpensMarker(marker))

    evil = _with_data(good_zip, tmp_path / "evil.zip", edit)
    result = CliRunner().invoke(app, ["serve", "--no-open", "--port", "0", "--agent", f"ppo:{evil}"])
    assert result.exit_code == 2, result.output  # a usage error, not a KeyError, and no server started
    assert "action_space" in result.output
    assert not marker.exists()


def test_resume_refuses_a_crafted_checkpoint(good_zip, tmp_path):
    from seers_env.jsonio import write_json
    from train.trainer import TrainConfig, train

    marker = tmp_path / "marker"
    run = tmp_path / "runs" / "r"
    (run / "checkpoints").mkdir(parents=True)
    config = TrainConfig(n_envs=1, vec_env="dummy", out=str(tmp_path / "runs"), name="r")
    write_json(run / "config.json", {"config": config.to_dict()})

    def edit(data):
        data["_last_obs"] = {":type:": "<class 'numpy.ndarray'>", ":serialized:": _serialized(_OpensMarker(marker))}

    evil = _with_data(good_zip, run / "checkpoints" / "ckpt_8.zip", edit)
    with pytest.raises(UnsafeModelFileError, match="_last_obs"):
        train(config, resume=evil, progress=False, final_eval=False, echo=lambda s: None)
    assert not marker.exists()


@pytest.mark.parametrize("damage", ["not_a_zip", "truncated", "no_policy", "data_not_json", "wrong_shapes",
                                    "no_spaces"])
def test_damaged_ppo_zip_names_the_file(good_zip, tmp_path, damage):
    from agents import make_agent

    bad = tmp_path / f"{damage}.zip"
    raw = good_zip.read_bytes()
    if damage == "not_a_zip":
        bad.write_text("hello")
        what = "not a readable zip"
    elif damage == "truncated":
        bad.write_bytes(raw[: len(raw) // 2])
        what = "not a readable zip"
    elif damage == "no_policy":
        _rewrite_zip(good_zip, bad, {"policy.pth": None})
        what = "lacks the entry policy.pth"
    elif damage == "data_not_json":
        _rewrite_zip(good_zip, bad, {"data": b"{not json"})
        what = "data entry is not JSON"
    elif damage == "wrong_shapes":
        with zipfile.ZipFile(good_zip) as z:
            state = torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True)
        state = {k: torch.zeros(v.shape[0] + 1, *v.shape[1:]) if v.ndim else v for k, v in state.items()}
        buf = io.BytesIO()
        torch.save(state, buf)
        _rewrite_zip(good_zip, bad, {"policy.pth": buf.getvalue()})
        what = "not a loadable MaskablePPO model.*size mismatch"
    else:
        _with_data(good_zip, bad, lambda d: d.pop("observation_space"))
        what = "records no observation_space"
    with pytest.raises(ModelFileError, match=rf"{re.escape(str(bad))}.*{what}") as caught:
        make_agent(f"ppo:{bad}")
    assert not isinstance(caught.value, UnsafeModelFileError)


# --- RLlib checkpoints (rllib:) --------------------------------------------------------------------------


def _rllib_checkpoint(root: Path, state: bytes | None, sidecar: str | None = None) -> Path:
    """The minimal checkpoint the ``rllib:`` loader reads: ``<root>/learner_group/learner/rl_module/shared/
    module_state.pkl`` and the sidecar ``<root>/seers_model_config.json``."""
    from seers_env import DEFAULT_ARTIFACT_DECK
    from train.scoring_policy import model_config

    module = root / "learner_group" / "learner" / "rl_module" / "shared"
    module.mkdir(parents=True)
    if state is not None:
        (module / "module_state.pkl").write_bytes(state)
    if sidecar is None:
        sidecar = json.dumps({"model_config": model_config(4, DEFAULT_ARTIFACT_DECK).to_dict(), "module": "shared"})
    if sidecar:
        (root / "seers_model_config.json").write_text(sidecar)
    return root


def _net_state(**sizes) -> dict[str, np.ndarray]:
    from train.scoring_policy import NetConfig, PlayScoringNet

    net = PlayScoringNet(NetConfig(hidden=16, embed=8, privileged_critic=False, **sizes))
    return {f"net.{k}": v.detach().numpy().copy() for k, v in net.state_dict().items()}


def test_rllib_module_state_of_arrays_loads(tmp_path):
    import cloudpickle  # what RLlib writes module_state.pkl with (ray.cloudpickle)

    from agents import make_agent

    state = _net_state()
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", cloudpickle.dumps(state))
    agent = make_agent(f"rllib:{ckpt}")
    for key, value in agent.net.state_dict().items():
        assert np.array_equal(value.numpy(), state[f"net.{key}"]), key


@pytest.mark.parametrize("payload", [_ExecsString, _OpensMarker])
def test_rllib_module_state_with_a_pickled_function_is_refused(tmp_path, payload):
    from agents import make_agent

    marker = tmp_path / "marker"
    state = _net_state()
    state["net.state_net.0.weight"] = payload(marker)
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", pickle.dumps(state))
    with pytest.raises(UnsafeModelFileError, match=r"module_state\.pkl.*(runstring|io\.open).*not among"):
        make_agent(f"rllib:{ckpt}")
    assert not marker.exists()


def test_rllib_checkpoint_without_sidecar_is_refused_not_unpickled(tmp_path):
    """Only RLlib's loader (which unpickles class_and_ctor_args.pkl) could read it: refused by default."""
    from agents import make_agent

    marker = tmp_path / "marker"
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", pickle.dumps(_net_state()), sidecar="")
    (ckpt / "learner_group" / "learner" / "rl_module" / "shared" / "class_and_ctor_args.pkl").write_bytes(
        pickle.dumps(_OpensMarker(marker)))
    with pytest.raises(UnsafeModelFileError, match=r"lacks .*seers_model_config\.json.*allow_pickle=True"):
        make_agent(f"rllib:{ckpt}")
    assert not marker.exists()


@pytest.mark.parametrize("damage", ["missing_key", "wrong_shape", "truncated", "not_a_dict", "bad_sidecar",
                                    "non_finite"])
def test_damaged_rllib_checkpoint_names_the_file(tmp_path, damage):
    from agents import make_agent

    state = _net_state()
    sidecar = None
    if damage == "missing_key":
        del state["net.state_net.0.weight"]
        what, where = "lacks the 2-d weights net.state_net.0.weight", "module_state.pkl"
    elif damage == "wrong_shape":
        state["net.play_net.1.weight"] = np.zeros((3, 3), np.float32)
        what, where = "does not fit a PlayScoringNet.*play_net.1.weight", "module_state.pkl"
    elif damage == "non_finite":
        state["net.play_in.bias"][:] = np.nan
        what, where = "non-finite", "module_state.pkl"
    elif damage == "bad_sidecar":
        sidecar = "{not json"
        what, where = "is damaged", "seers_model_config.json"
    blob = pickle.dumps(state)
    if damage == "truncated":
        blob = blob[: len(blob) // 2]
        what, where = "not a readable pickle", "module_state.pkl"
    elif damage == "not_a_dict":
        blob = pickle.dumps([1, 2])
        what, where = "holds a list", "module_state.pkl"
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", blob, sidecar)
    with pytest.raises(ModelFileError, match=rf"{re.escape(str(ckpt))}.*{where}.*{what}") as caught:
        make_agent(f"rllib:{ckpt}")
    assert not isinstance(caught.value, UnsafeModelFileError)


# --- play-scoring models (learned:) ----------------------------------------------------------------------


def test_learned_model_with_a_pickle_is_refused(tmp_path):
    from agents import make_agent

    marker = tmp_path / "marker"
    evil = tmp_path / "evil.pt"
    torch.save({"format": "seers-play-scoring", "net": _OpensMarker(marker)}, evil)
    with pytest.raises(UnsafeModelFileError, match=rf"{re.escape(str(evil))}' refers to io\.open.*weights_only=True"):
        make_agent(f"learned:{evil}")
    assert not marker.exists()


@pytest.mark.parametrize("damage", ["truncated", "missing_state", "not_torch", "json"])
def test_damaged_learned_model_names_the_file(tmp_path, damage):
    from agents import make_agent
    from seers_env import DEFAULT_ARTIFACT_DECK
    from train.scoring_policy import NetConfig, PlayScoringNet, model_config, save_policy

    good = tmp_path / "good.pt"
    save_policy(PlayScoringNet(NetConfig(hidden=16, embed=8)), model_config(4, DEFAULT_ARTIFACT_DECK), good)
    bad = tmp_path / "bad.pt"
    if damage == "truncated":
        raw = good.read_bytes()
        bad.write_bytes(raw[: len(raw) // 2])
        what = "is not a play-scoring model file"
    elif damage == "missing_state":
        blob = torch.load(good, weights_only=True)
        del blob["state_dict"]
        torch.save(blob, bad)
        what = "damaged play-scoring model file.*state_dict"
    elif damage == "json":  # not a zip: refused before torch reads it (damaged, not unsafe)
        bad.write_text('{"not": "a model"}')
        what = r"is not a play-scoring model file.*not a torch\.save zip archive"
    else:
        bad.write_text("hello")
        what = "is not a play-scoring model file"
    with pytest.raises(ModelFileError, match=rf"{re.escape(str(bad))}.*{what}") as caught:
        make_agent(f"learned:{bad}")
    assert not isinstance(caught.value, UnsafeModelFileError)


# --- JSON files: run folders and tournament results --------------------------------------------------


def test_damaged_json_files_name_the_file(tmp_path):
    from agents.tournament import TournamentResult
    from train.runs import run_info
    from train.trainer import resolve_resume

    result = tmp_path / "eval.json"
    result.write_text('{"format": "seers-tournament-1"')
    with pytest.raises(ValueError, match=rf"tournament result '{re.escape(str(result))}' is not readable JSON"):
        TournamentResult.from_json(result)
    result.write_text('{"format": "seers-tournament-1"}')
    with pytest.raises(ValueError, match=rf"tournament result '{re.escape(str(result))}' is damaged.*agents"):
        TournamentResult.from_json(result)

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.json").write_text("{oops")
    (run / "checkpoints" / "ckpt_8.zip").write_bytes(b"")
    with pytest.raises(ValueError, match=rf"run configuration '{re.escape(str(run / 'config.json'))}' is not readable JSON"):
        run_info(run)
    with pytest.raises(ValueError, match=rf"run configuration '{re.escape(str(run / 'config.json'))}' is not readable JSON"):
        resolve_resume(run / "checkpoints" / "ckpt_8.zip")
    (run / "config.json").write_text('{"algo": "selfplay"}')
    with pytest.raises(ValueError, match=r"has no \"config\" object"):
        resolve_resume(run / "checkpoints" / "ckpt_8.zip")
