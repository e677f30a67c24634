"""Attacks on the security fixes: model files that ask for memory they do not hold, pickles that reach
numpy's own unpickling code, and the other inputs a stranger or a careless user can hand the project.

Every test here failed before its fix (each names the kind of fault it guards against).
"""

from __future__ import annotations

import io
import json
import pickle
import struct
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import numba
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from train.model_files import ModelFileError, UnsafeModelFileError, unpickle_arrays  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


# --- hand-made pickles (protocol 4 opcodes) -------------------------------------------------------------


def _global(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _bytes(b: bytes) -> bytes:
    return b"B" + struct.pack("<I", len(b)) + b


def _str(s: str) -> bytes:
    return b"X" + struct.pack("<I", len(s.encode())) + s.encode()


def _int(n: int) -> bytes:
    return b"L" + str(n).encode() + b"L\n"


def _dtype(code: str, state: bytes | None = None) -> bytes:
    out = _global("numpy", "dtype") + _str(code) + b"\x89\x88\x87R"  # dtype(code, False, True)
    return out + (state + b"b" if state is not None else b"")


def _struct_state(field_dtype: bytes, offset: int, itemsize: int) -> bytes:
    """numpy's dtype state (3, '|', None, ('a',), {'a': (field, offset)}, itemsize, 1, 0)."""
    fields = b"}" + _str("a") + b"(" + field_dtype + _int(offset) + b"t" + b"s"
    return b"(" + _int(3) + _str("|") + b"N" + b"(" + _str("a") + b"t" + fields + _int(itemsize) + _int(1) + _int(0) + b"t"


def _reconstructed(shape: tuple[int, ...], dtype: bytes, raw: bytes) -> bytes:
    """``_reconstruct(ndarray, (0,), b'b')`` with the state ``(1, shape, dtype, False, raw)``."""
    shp = b"(" + b"".join(_int(n) for n in shape) + b"t"
    return (_global("numpy.core.multiarray", "_reconstruct") + _global("numpy", "ndarray") + _int(0) + b"\x85"
            + _bytes(b"b") + b"\x87R" + b"(" + _int(1) + shp + dtype + b"\x89" + raw + b"tb")


def _pickle(body: bytes) -> bytes:
    return b"\x80\x04" + body + b"."


#: Pickles that name only allowed numpy globals but, unpickled by numpy's own functions, read memory
#: they do not own (object pointers forged from bytes, a field past the item: a crash or a leak) or fill
#: the memory from a few bytes.
NUMPY_TRICKS = {
    "object array from a buffer": _global("numpy", "ndarray") + b"(" + _int(2) + b"\x85" + _str("O")
    + _bytes(b"A" * 16) + b"tR",
    "object field of a structured array": _reconstructed((1,), _dtype("V8", _struct_state(_dtype("O8"), 0, 8)),
                                                         _bytes(b"A" * 8)),
    "object field of a scalar": _global("numpy.core.multiarray", "scalar") + b"("
    + _dtype("V8", _struct_state(_dtype("O8"), 0, 8)) + _bytes(b"A" * 8) + b"tR",
    "field past the end of the item": _reconstructed((1,), _dtype("V8", _struct_state(_dtype("f8"), 100000, 8)),
                                                     _bytes(b"A" * 8)),
    "float dtype given a field by its state": _reconstructed((1,), _dtype("f8", _struct_state(_dtype("f8"), 64, 8)),
                                                             _bytes(b"A" * 8)),
    "object array from bytes": _reconstructed((2,), _dtype("O8"), _bytes(b"A" * 16)),
    "300 million None": _global("numpy", "ndarray") + _int(3 * 10**8) + b"\x85" + _str("O") + b"\x86R",
    "100 GB uninitialised": _global("numpy", "ndarray") + _int(10**11) + b"\x85" + _str("u1") + b"\x86R",
    "a view of a buffer by strides": _global("numpy", "ndarray") + b"(" + b"(" + _int(10**6) + b"t" + _str("f8")
    + _bytes(b"A" * 8) + _int(0) + b"(" + _int(0) + b"t" + b"tR",
}


def test_numpy_pickle_tricks_are_refused_without_crashing():
    """numpy's ``__setstate__``, ``ndarray(..., buffer)`` and ``scalar`` trust their arguments: before the
    fix the first three crashed the process (object pointers read from the file's bytes)."""
    script = textwrap.dedent("""
        import pickle, sys
        from train.model_files import UnsafeModelFileError, ModelFileError, unpickle_arrays
        for label, data in pickle.loads(sys.stdin.buffer.read()).items():
            try:
                unpickle_arrays(data, "module_state.pkl")
                print(label, "=> LOADED", flush=True)
            except UnsafeModelFileError as err:
                print(label, "=> unsafe:", err, flush=True)
            except ModelFileError as err:
                print(label, "=> damaged:", err, flush=True)
    """)
    payloads = {label: _pickle(body) for label, body in NUMPY_TRICKS.items()}
    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(payloads), capture_output=True,
                          cwd=ROOT, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0, (done.returncode, out, done.stderr.decode()[-2000:])
    lines = dict(line.split(" => ", 1) for line in out.splitlines())
    assert set(lines) == set(NUMPY_TRICKS), out
    for label, verdict in lines.items():
        assert verdict.startswith("unsafe:") and "module_state.pkl" in verdict, (label, verdict)


def test_one_buffer_cannot_make_many_arrays():
    """A pickle can reference one memoised bytes object any number of times: each array would copy it."""
    raw = _bytes(b"\0" * 8) + b"p0\n" + b"0"  # memoised as 0, then popped
    arrays = _reconstructed((1,), _dtype("f8"), b"g0\n") * 3
    with pytest.raises(ModelFileError, match="same bytes"):
        unpickle_arrays(_pickle(b"]" + b"(" + raw + arrays + b"e"), "module_state.pkl")
    one = unpickle_arrays(_pickle(b"]" + b"(" + raw + _reconstructed((1,), _dtype("f8"), b"g0\n") + b"e"), "x")
    assert one[0].tolist() == [0.0]


def test_arrays_of_every_pickle_protocol_load_as_before():
    import collections

    import cloudpickle

    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    obj = {"c": a, "f": np.asfortranarray(a), "t": a.T, "s": a[:, ::2], "be": a.astype(">f8"),
           "scalar": np.float32(2.5), "int": np.int64(7), "bool": np.array([True, False]), "empty": np.zeros((0, 3)),
           "0d": np.array(3.0), "complex": np.array([1 + 2j]), "od": collections.OrderedDict(x=np.ones(3)),
           "list": [1, "x", None, (2.0, np.ones(2))]}
    for dump in (pickle.dumps, cloudpickle.dumps):
        for protocol in (3, 4, 5):
            back = unpickle_arrays(dump(obj, protocol=protocol), "state.pkl")
            for key in ("c", "f", "t", "s", "be", "scalar", "int", "bool", "empty", "0d", "complex"):
                assert np.asarray(back[key]).dtype == np.asarray(obj[key]).dtype, key
                assert np.array_equal(back[key], obj[key]), key
            assert back["c"].flags.writeable and back["f"].flags.f_contiguous
            assert type(back["od"]) is collections.OrderedDict and np.array_equal(back["od"]["x"], np.ones(3))
            assert back["list"][:3] == [1, "x", None] and np.array_equal(back["list"][3][1], np.ones(2))


# --- sizes declared by a file: the network is checked before it is allocated ---------------------------


@pytest.fixture()
def no_big_nets(monkeypatch):
    """Any PlayScoringNet of hidden > 1000 made on a real device fails the test (made on "meta" is fine:
    that allocates nothing)."""
    from train import scoring_policy

    real = scoring_policy.PlayScoringNet

    class Spy(real):
        def __init__(self, cfg):
            if torch.get_default_device().type != "meta" and isinstance(cfg.hidden, int) and cfg.hidden > 1000:
                raise AssertionError(f"a network of hidden {cfg.hidden} was allocated from a small file")
            super().__init__(cfg)

    monkeypatch.setattr(scoring_policy, "PlayScoringNet", Spy)
    return Spy


def _rllib_checkpoint(root: Path, state: dict) -> Path:
    from seers_env import DEFAULT_ARTIFACT_DECK
    from train.scoring_policy import model_config

    module = root / "learner_group" / "learner" / "rl_module" / "shared"
    module.mkdir(parents=True)
    (module / "module_state.pkl").write_bytes(pickle.dumps(state, protocol=5))
    (root / "seers_model_config.json").write_text(
        json.dumps({"model_config": model_config(4, DEFAULT_ARTIFACT_DECK).to_dict(), "module": "shared"}))
    return root


def test_rllib_weights_of_thin_shapes_cannot_ask_for_a_huge_network(tmp_path, no_big_nets):
    """hidden comes from the shape of a (hidden, 1) array: 200 KB of file would be a hidden x hidden/2 layer
    (2 GB at hidden 50000)."""
    from train.rllib_agent import load_rllib_policy

    h = 50_000
    state = {"net.state_net.0.weight": np.zeros((h, 1), np.float32),
             "net.state_net.2.weight": np.zeros((1, h), np.float32),
             "net.play_in.weight": np.zeros((h, 1), np.float32)}
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", state)
    with pytest.raises(ModelFileError, match=r"module_state\.pkl.*does not fit a PlayScoringNet.*hidden 50000.*lacks"):
        load_rllib_policy(ckpt)


def _saved_policy(path: Path, net_cfg: dict, state: dict) -> Path:
    from seers_env import DEFAULT_ARTIFACT_DECK
    from train.scoring_policy import MODEL_FORMAT, model_config

    torch.save({"format": MODEL_FORMAT, "model_config": model_config(4, DEFAULT_ARTIFACT_DECK).to_dict(),
                "trained_with": "", "net": net_cfg, "state_dict": state}, path)
    return path


def test_a_pt_model_declaring_a_huge_network_is_refused_before_it_is_allocated(tmp_path, no_big_nets):
    from dataclasses import asdict

    from train.scoring_policy import NetConfig, PlayScoringNet, load_policy

    small = PlayScoringNet(NetConfig(hidden=16, embed=8))
    cfg = asdict(small.cfg) | {"hidden": 40_000}
    path = _saved_policy(tmp_path / "big.pt", cfg, small.state_dict())
    with pytest.raises(ModelFileError, match=r"big\.pt.*does not fit a PlayScoringNet.*hidden 40000.*shape"):
        load_policy(path)


def test_a_pt_model_of_expanded_views_is_refused(tmp_path):
    """``torch.load`` builds a (100000, 100000) tensor from 4 bytes (stride 0): such weights are refused."""
    from dataclasses import asdict

    from train.scoring_policy import NetConfig, PlayScoringNet, load_policy

    net = PlayScoringNet(NetConfig(hidden=16, embed=8))
    state = {k: torch.zeros(1).expand(v.shape) if v.ndim else v for k, v in net.state_dict().items()}
    path = _saved_policy(tmp_path / "views.pt", asdict(net.cfg), state)
    with pytest.raises(ModelFileError, match=r"views\.pt.*is a view of 4 bytes, not weights"):
        load_policy(path)


@pytest.mark.parametrize("size", [-1, 0, True, 2.5, "16", None])
def test_a_pt_model_with_junk_sizes_names_them(tmp_path, size):
    from dataclasses import asdict

    from train.scoring_policy import NetConfig, PlayScoringNet, load_policy

    net = PlayScoringNet(NetConfig(hidden=16, embed=8))
    path = _saved_policy(tmp_path / "junk.pt", asdict(net.cfg) | {"embed": size}, net.state_dict())
    with pytest.raises(ModelFileError, match=r"junk\.pt.*embed="):
        load_policy(path)


def test_a_pt_model_that_unpacks_to_more_than_the_limit_is_refused(tmp_path, monkeypatch):
    """A deflated zip entry of zeros is a thousand times smaller than what torch would unpack."""
    from train import model_files
    from train.scoring_policy import load_policy

    path = tmp_path / "bomb.pt"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("archive/data.pkl", b"\0" * 3_000_000)
    assert path.stat().st_size < 10_000
    monkeypatch.setattr(model_files, "MAX_UNPACKED_BYTES", 1_000_000)
    with pytest.raises(ModelFileError, match=r"bomb\.pt.*unpacks to 3,000,000 bytes"):
        load_policy(path)


def test_a_pt_model_in_torch_legacy_format_is_refused(tmp_path):
    """The pre-zip format declares its storages' sizes inside its pickle: refused, as not a zip archive."""
    from train.scoring_policy import load_policy

    path = tmp_path / "legacy.pt"
    torch.save({"format": "seers-play-scoring"}, path, _use_new_zipfile_serialization=False)
    with pytest.raises(ModelFileError, match=r"legacy\.pt.*not a torch\.save zip archive"):
        load_policy(path)


# --- stable-baselines3 zips: what data asks SB3 to build -----------------------------------------------


@pytest.fixture(scope="module")
def good_zip(tmp_path_factory) -> Path:
    import gymnasium as gym
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from seers_env.actions import N_ACTIONS
    from seers_env.observation import OBS_DIM

    class ToyEnv(gym.Env):
        observation_space = spaces.Box(-1e3, 1e3, (OBS_DIM,), np.float32)
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


def _rewrite(src: Path, dst: Path, replace: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            if item.filename not in replace:
                zout.writestr(item, zin.read(item.filename))
        for name, data in replace.items():
            zout.writestr(name, data)
    return dst


def _edit_data(src: Path, dst: Path, edit) -> Path:
    with zipfile.ZipFile(src) as z:
        data = json.loads(z.read("data"))
    edit(data)
    return _rewrite(src, dst, {"data": json.dumps(data).encode()})


def test_a_zip_asking_for_a_huge_rollout_buffer_loads_with_a_small_one(good_zip, tmp_path):
    """SB3 builds an n_steps x n_envs x N_ACTIONS mask buffer at every load (np.ones: touched memory); a
    model that only plays never uses it. Before the fix: a MemoryError (or the memory filled)."""
    from train.policy import load_model

    path = _edit_data(good_zip, tmp_path / "buffer.zip", lambda d: d.update(n_steps=10**7, n_envs=64))
    model = load_model(path)
    assert model.n_steps == 1 and model.n_envs == 1 and model.rollout_buffer.action_masks.nbytes < 10**6


@pytest.mark.parametrize("shape", [[10**5, 10**5], [1]])
def test_a_zip_whose_observation_is_another_shape_is_refused_before_the_box_is_made(good_zip, tmp_path, shape):
    from train.model_config import ModelConfigError
    from train.policy import load_model

    path = _edit_data(good_zip, tmp_path / "obs.zip", lambda d: d["observation_space"].update(_shape=shape))
    with pytest.raises(ModelConfigError, match=rf"obs\.zip.*observation Box of shape \({shape[0]},"):
        load_model(path)


def test_a_zip_whose_action_count_is_another_is_refused_before_the_policy_is_made(good_zip, tmp_path):
    from train.model_config import ModelConfigError
    from train.policy import load_model

    path = _edit_data(good_zip, tmp_path / "act.zip", lambda d: d["action_space"].update(n=10**9))
    with pytest.raises(ModelConfigError, match=r"act\.zip.*Discrete\(1000000000, start=0\)"):
        load_model(path)


@pytest.mark.parametrize("arch, words", [([3000, 3000], "asks for a policy of at least"),
                                         ([8, -1], "not a list of layer sizes"), ("big", "not a list"),
                                         ({"pi": [8], "vf": [True]}, "not a list")])
def test_a_zip_whose_net_arch_does_not_fit_its_weights_is_refused_before_it_is_built(good_zip, tmp_path, arch,
                                                                                     words):
    from train.policy import load_model

    path = _edit_data(good_zip, tmp_path / "arch.zip", lambda d: d["policy_kwargs"].update(net_arch=arch))
    with pytest.raises(ModelFileError, match=rf"arch\.zip.*{words}"):
        load_model(path)


def test_a_zip_whose_torch_variables_name_model_attributes_is_refused(good_zip, tmp_path):
    """SB3 sets ``model.<name>.data`` for each entry of pytorch_variables.pth (MaskablePPO has none)."""
    from train.policy import load_model

    buf = io.BytesIO()
    torch.save({"policy.action_net.weight": torch.zeros(1).expand(10**5, 10**5)}, buf)
    path = _rewrite(good_zip, tmp_path / "vars.zip", {"pytorch_variables.pth": buf.getvalue()})
    with pytest.raises(ModelFileError, match=r"vars\.zip.*pytorch_variables\.pth holds policy\.action_net\.weight"):
        load_model(path)


@pytest.mark.parametrize("steps", ["many", -5, 1.5, None])
def test_a_zip_whose_step_count_is_not_a_count_is_refused(good_zip, tmp_path, steps):
    from train.policy import load_model

    path = _edit_data(good_zip, tmp_path / "steps.zip", lambda d: d.update(num_timesteps=steps))
    with pytest.raises(ModelFileError, match=r"steps\.zip.*num_timesteps"):
        load_model(path)


def test_a_zip_that_unpacks_to_more_than_the_limit_is_refused(good_zip, tmp_path, monkeypatch):
    from train import model_files
    from train.policy import load_model

    path = _rewrite(good_zip, tmp_path / "bomb.zip", {"system_info.txt": b" " * 3_000_000})
    monkeypatch.setattr(model_files, "MAX_UNPACKED_BYTES", 2_000_000)
    with pytest.raises(ModelFileError, match=r"bomb\.zip.*unpacks to 3,\d{3},\d{3} bytes, more than the 2,000,000"):
        load_model(path)


# --- JSON files: numbers too large, run folders, results, logs, model configurations ---------------------


@pytest.mark.parametrize("text", ['{"a": 1e999}', '[-1e400]', '{"x": [1, 2, 123e999999]}'])
def test_strict_json_refuses_numbers_that_python_reads_as_infinite(text):
    from seers_env.jsonio import loads_strict

    with pytest.raises(ValueError, match="too large for a 64-bit float"):
        loads_strict(text)
    assert loads_strict('{"a": 1e300, "b": -2.5e-320}') == {"a": 1e300, "b": -2.5e-320}


def test_a_web_request_with_a_huge_number_is_a_400_naming_strict_json():
    from fastapi.testclient import TestClient

    from seers_web.app import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    client.headers.update({"Host": "127.0.0.1:8000"})
    r = client.post("/api/games", content=b'{"mode": "watch", "rounds": 1, "seed": 1e999}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not strict JSON" in r.json()["error"] and "too large" in r.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000#", "127.0.0.1:8000?", "127.0.0.1:8000/", "127.0.0.1 :8000",
                                  "127.0.0.1:8000\\x"])
def test_a_host_with_an_empty_fragment_query_or_path_is_refused(host):
    from seers_web.guard import parse_host

    assert parse_host(host) is None
    assert parse_host(" 127.0.0.1:8000 ") == ("127.0.0.1", 8000) and parse_host("[::1]:8000") == ("::1", 8000)


def _run_folder(root: Path, name: str, config, summary=None, evaluation=None) -> Path:
    run = root / name
    run.mkdir(parents=True)
    for file, data in (("config.json", config), ("summary.json", summary), ("eval.json", evaluation)):
        if data is not None:
            (run / file).write_text(data if isinstance(data, str) else json.dumps(data))
    return run


@pytest.mark.parametrize("files, words", [
    ({"config": "{oops"}, "config.json' is not readable JSON"),
    ({"config": ["a list"]}, "config.json': the file is a JSON list, not an object"),
    ({"config": {"config": "x"}}, "config.json': its config is a JSON str"),
    ({"config": {"config": {"n_players": "four"}}}, "n_players='four' is not a player count"),
    ({"config": {"algo": ["x"], "config": {}}, "summary": None}, None),
    ({"summary": None, "config": {"config": {}}, "summary_text": "null"}, "summary.json': the file is a JSON NoneType"),
    ({"config": {"config": {}}, "summary": {"timesteps": "many"}}, "steps count is 'many'"),
    ({"config": {"config": {}}, "summary": {"timesteps": 5}, "evaluation": {"format": "seers-tournament-1",
                                                                          "labels": None}},
     "eval.json': its table 'all' is damaged"),
])
def test_seers_runs_lists_a_damaged_run_folder_as_damaged_and_the_others_as_usual(tmp_path, files, words):
    """Before: a traceback (ValueError, AttributeError, KeyError, TypeError, IndexError) for the whole listing."""
    from typer.testing import CliRunner

    from seers_cli import app

    _run_folder(tmp_path, "a-good", {"config": {"n_players": 4}}, {"timesteps": 256})
    _run_folder(tmp_path, "b-bad", files["config"], files.get("summary_text", files.get("summary")),
                files.get("evaluation"))
    for extra in ([], ["--wide"], ["--json"]):
        result = CliRunner().invoke(app, ["runs", "--out", str(tmp_path), *extra], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (result.output, result.exception)
        assert "a-good" in result.output and "b-bad" in result.output
        if words is not None:
            # the table wraps at 80 columns, anywhere in the (temporary, so varying) path: compare without spaces
            flat = "".join(result.output.split()).replace("\\'", "'")
            assert "".join(words.split()) in flat or extra == ["--json"]
    if words is not None:
        runs = json.loads(CliRunner().invoke(app, ["runs", "--out", str(tmp_path), "--json"]).output)
        good, bad = runs
        assert good["decisions"] == 256 and "damaged" not in good and words in bad["damaged"]


def test_a_damaged_tournament_result_is_a_value_error_naming_the_field(tmp_path):
    """Before: a result with a label missing from agents, a short score_ci or a seat list of the wrong length
    loaded, and its table then raised KeyError / IndexError / TypeError."""
    from agents.tournament import TournamentResult, run_tournament

    good = run_tournament(["heuristic", "random"], games=1, n_rounds=1, seed=0, workers=1, progress=False).to_dict()
    good = json.loads(json.dumps(good))
    cases = [(("labels",), ["x", "random"], "agents must be"), (("agents", "heuristic", "score_ci"), [], "score_ci"),
             (("games", 0, "seats"), ["heuristic"], r"games\[0\]\.seats"), (("n_players",), True, "n_players"),
             (("agents", "heuristic", "win_ci"), None, "win_ci"), (("games", 0, "winners"), [7], "winners")]
    for path, value, words in cases:
        d = json.loads(json.dumps(good))
        cur = d
        for p in path[:-1]:
            cur = cur[p]
        cur[path[-1]] = value
        file = tmp_path / "t.json"
        file.write_text(json.dumps(d))
        with pytest.raises(ValueError, match=rf"t\.json' is damaged.*{words}"):
            TournamentResult.from_json(file)
    file.write_text(json.dumps(good))
    assert "heuristic" in TournamentResult.from_json(file).text()


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "\udcff", "1e999"])
def test_seers_replay_of_a_deep_or_undecodable_file_is_a_usage_error(tmp_path, text):
    from typer.testing import CliRunner

    from seers_cli import app

    log = tmp_path / "log.json"
    log.write_bytes(text.encode("utf-8", "surrogateescape"))
    result = CliRunner().invoke(app, ["replay", str(log), "--all"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "log.json" in result.output


@pytest.mark.parametrize("text", ["[1, 2]", '"x"', "[" * 100_000 + "]" * 100_000,
                                  '{"algorithm": "maskable_ppo", "n_players": 4, "artifact_deck": 7}'])
def test_a_junk_model_configuration_is_a_value_error_naming_the_model(tmp_path, text):
    from train.model_config import load_model_config

    model = tmp_path / "model.pt"
    model.write_bytes(b"x")
    Path(str(model) + ".config.json").write_text(text)
    with pytest.raises(ValueError, match=r"model\.pt' has an unreadable model configuration"):
        load_model_config(model)
    Path(str(model) + ".config.json").unlink()
    legacy = '{"model_config": ' + text + "}" if text.startswith("{") else text
    (tmp_path / "config.json").write_text(legacy)  # the run folder's config.json (files without an entry)
    with pytest.raises(ValueError, match=r"model\.pt' has an unreadable model configuration"):
        load_model_config(model)


# --- the numba cache: two writers, one file name -------------------------------------------------------


def test_a_numba_data_file_written_for_another_signature_is_never_run(tmp_path):
    """Two processes saving different signatures of one function both pick the first free data file name
    (numba's IndexDataCacheFile.save), so the index can name a file holding the other signature's machine
    code. Before: add(1) ran the float64 code and returned 41.0."""
    import importlib.util
    import warnings

    from seers_env.engine import jit

    (tmp_path / "small_race.py").write_text("def add(x):\n    return x + 40\n")
    spec = importlib.util.spec_from_file_location("small_race", tmp_path / "small_race.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert jit.njit(cache=True)(module.add)(1) == 41
    (index,) = (tmp_path / "__pycache__").glob("small_race.add-*.nbi")
    int_index = index.read_bytes()  # {(int64,): file 1}
    assert jit.njit(cache=True)(module.add)(1.5) == 41.5  # {(int64,): file 1, (float64,): file 2}
    first, second = sorted((tmp_path / "__pycache__").glob("small_race.add-*.nbc"))
    first.write_bytes(second.read_bytes())  # the float64 writer won the race for file 1
    index.write_bytes(int_index)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = jit.njit(cache=True)(module.add)
        result = again(1)
    assert result == 41 and type(result) is int and again.signatures == [(numba.int64,)]
    assert any("written for another entry" in str(w.message) for w in caught)


# --- environments: seeds, order, sizes ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [True, np.bool_(True), -1, 1.0, "3", np.int64(-2)])
def test_the_single_agent_env_refuses_the_seeds_the_aec_env_refuses(seed):
    """Before: True was seed 1, and the refusals were gymnasium.error.Error, not the AEC env's ValueError."""
    from seers_env.seers_catalog_v0 import raw_env
    from seers_env.wrappers import SingleAgentSeersEnv

    with pytest.raises(ValueError, match="seed="):
        raw_env(n_players=3, n_rounds=1).reset(seed=seed)
    with pytest.raises(ValueError, match="seed="):
        SingleAgentSeersEnv(n_players=3, n_rounds=1).reset(seed=seed)


def test_the_single_agent_env_takes_numpy_integer_seeds_as_the_aec_env_does():
    from seers_env.wrappers import SingleAgentSeersEnv

    a, b = SingleAgentSeersEnv(n_players=3, n_rounds=1), SingleAgentSeersEnv(n_players=3, n_rounds=1)
    obs_a, _ = a.reset(seed=np.int64(7))
    obs_b, _ = b.reset(seed=7)
    assert np.array_equal(obs_a, obs_b) and a.seat == b.seat


def test_scout_raw_env_agent_iter_before_reset_and_after_close_says_to_reset():
    """Before: AttributeError ('raw_env' object has no attribute 'agents'), and after close() it iterated."""
    import gymnasium

    from seers_env import scout_v0

    e = scout_v0.raw_env(n_players=3)
    with pytest.raises(gymnasium.error.ResetNeeded):
        e.agent_iter()
    e.reset(seed=0)
    assert next(iter(e.agent_iter())) == e.agent_selection
    e.close()
    with pytest.raises(gymnasium.error.ResetNeeded):
        e.agent_iter()


@pytest.mark.parametrize("rounds, games", [(10**12, 1), (4, 10**10)])
def test_an_environment_too_large_for_the_memory_is_a_value_error_naming_the_sizes(rounds, games):
    """Before: numpy's MemoryError (37 GiB of round scores for a billion rounds) with a traceback."""
    from seers_env.seers_catalog_v0 import raw_env
    from seers_env.vector import SeersVectorEnv

    if games == 1:
        with pytest.raises(ValueError, match=rf"num_games=1 games of n_rounds={rounds} rounds need"):
            raw_env(n_players=3, n_rounds=rounds)
        with pytest.raises(ValueError, match=rf"num_games=2 games of n_rounds={rounds} rounds need"):
            SeersVectorEnv(2, n_players=3, n_rounds=rounds).reset(seed=0)
    else:
        with pytest.raises(ValueError, match=rf"num_envs={games} games need more memory"):
            SeersVectorEnv(games, n_players=3, n_rounds=rounds)


# --- command-line options: checked before anything runs or is written -----------------------------------


def _cli(args, cwd: Path):
    import os

    from typer.testing import CliRunner

    from seers_cli import app

    here = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    finally:
        os.chdir(here)


@pytest.mark.parametrize("args, words", [
    (["train", "--algo", "maskable-ppo", "--minutes", "5"], "--minutes only applies to --algo selfplay or rllib"),
    (["train", "--iterations", "3"], "--iterations only applies to --algo rllib, not to --algo selfplay"),
    (["train", "--num-env-runners", "-1", "--opponent", "nan"], "--num-env-runners, --opponent only apply to --algo rllib"),
    (["train", "--algo", "maskable-ppo", "--games-in-flight", "3"], "--games-in-flight only applies to --algo selfplay"),
    (["train", "--steps", "100000"], "--steps only applies to --algo maskable-ppo"),  # the default value, given
])
def test_train_refuses_options_its_learner_would_ignore(tmp_path, args, words):
    """Before: --minutes with maskable-ppo, or any rllib option with selfplay, was silently ignored."""
    result = _cli(args, tmp_path)
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split())
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, option", [
    (["train", "--actors", "99999999999999999999"], "--actors"),
    (["train", "--threads", "99999999999999999999"], "--threads"),
    (["train", "--workers", "99999999999999999999"], "--workers"),
    (["eval", "--agents", "random,random", "--games", "1", "--workers", "99999999999999999999"], "--workers"),
    (["serve", "--no-open", "--max-games", "99999999999999999999"], "--max-games"),
])
def test_a_count_past_a_c_int_is_a_usage_error_before_anything_runs(tmp_path, args, option):
    """Before: accepted, then an OverflowError from torch or the process pool (after training, for train)."""
    result = _cli(args, tmp_path)
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"'{option}'" in result.output and "2,147,483,647" in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, option", [
    (["train", "--actors", "1000"], "--actors"), (["train", "--hidden", "100000"], "--hidden"),
    (["train", "--games-in-flight", "100000"], "--games-in-flight"), (["train", "--final-games", "2000000"], "--final-games"),
    (["train", "--algo", "maskable-ppo", "--n-steps", "100000000000"], "--n-steps"),
    (["train", "--algo", "maskable-ppo", "--net", "100000000"], "--net"),
    (["train", "--algo", "maskable-ppo", "--final-games", "2000000"], "--final-games"),
    (["eval", "--agents", "random,random", "--games", "2000000"], "--games"),
])
def test_train_and_eval_refuse_sizes_that_cannot_run_before_writing(tmp_path, args, option):
    """Before: accepted and written (config.json), then a failure in the middle of the run."""
    result = _cli(args, tmp_path)
    assert result.exit_code == 2, (result.output, result.exception)
    assert option in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args", [["bench", "engine", "--seconds", "nan"], ["bench", "engine", "--seconds", "-1"],
                                  ["bench", "env", "--seconds", "inf"], ["bench", "train", "--seconds", "0"],
                                  ["play", "--players", "2", "--delay", "inf"], ["play", "--players", "2", "--delay", "nan"]])
def test_times_must_be_finite_seconds(tmp_path, args):
    """Before: ZeroDivisionError (bench engine), a benchmark of NaN seconds, time.sleep(inf) mid-game."""
    result = _cli(args, tmp_path)
    assert result.exit_code == 2, (result.output, result.exception)
    assert "number of seconds" in result.output


def test_bench_train_refuses_a_player_count_as_a_usage_error(tmp_path):
    result = _cli(["bench", "train", "--players", "9", "--seconds", "0.1", "--algo", "actor"], tmp_path)
    assert result.exit_code == 2 and "'--players'" in result.output, (result.output, result.exception)


def test_a_tournament_starts_no_more_processes_than_deals(monkeypatch):
    """Before: ProcessPoolExecutor(max_workers=workers): 64 worker processes for one deal."""
    import concurrent.futures

    from agents import tournament

    seen = []

    class Pool(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, max_workers=None, mp_context=None):
            seen.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(tournament, "ProcessPoolExecutor", Pool)
    result = tournament.run_tournament(["random", "random"], games=2, workers=64, n_rounds=1, progress=False)
    assert seen == [] or seen[0] <= 2
    assert len(result.games) == 4
    with pytest.raises(ValueError, match="workers=True"):
        tournament.run_tournament(["random", "random"], games=1, workers=True, n_rounds=1, progress=False)


def test_resume_from_a_damaged_checkpoint_writes_nothing(good_zip, tmp_path):
    """Before: the run's config.json was rewritten (and its subfolders made) before the checkpoint was read."""
    from seers_env.jsonio import write_json
    from train.trainer import TrainConfig, train

    run = tmp_path / "runs" / "r"
    (run / "checkpoints").mkdir(parents=True)
    config = TrainConfig(n_envs=1, vec_env="dummy", out=str(tmp_path / "runs"), name="r", total_timesteps=77)
    write_json(run / "config.json", {"config": config.to_dict()})
    before = (run / "config.json").read_bytes()
    bad = _edit_data(good_zip, run / "checkpoints" / "ckpt_8.zip",
                     lambda d: d["observation_space"].update(_shape=[3]))
    config.total_timesteps = 1000
    from train.model_config import ModelConfigError

    with pytest.raises(ModelConfigError):
        train(config, resume=bad, progress=False, final_eval=False, echo=lambda s: None)
    assert (run / "config.json").read_bytes() == before
    assert sorted(p.name for p in run.iterdir()) == ["checkpoints", "config.json"]


def test_a_checkpoint_file_that_links_to_something_huge_is_not_read_whole(tmp_path, monkeypatch, good_zip):
    """A downloaded checkpoint folder may hold links (to /proc/kcore, a huge file): reads are bounded."""
    from train import model_files
    from train.policy import load_model
    from train.rllib_agent import load_rllib_policy

    monkeypatch.setattr(model_files, "MAX_UNPACKED_BYTES", 1_000_000)
    huge = tmp_path / "huge.bin"
    huge.write_bytes(b"\0" * 3_000_000)
    ckpt = _rllib_checkpoint(tmp_path / "ckpt", {"net.x": np.zeros(1, np.float32)})
    state = ckpt / "learner_group" / "learner" / "rl_module" / "shared" / "module_state.pkl"
    state.unlink()
    state.symlink_to(huge)
    with pytest.raises(ModelFileError, match=r"module_state\.pkl' is larger than 1,000,000 bytes"):
        load_rllib_policy(ckpt)
    link = tmp_path / "model.zip"
    link.symlink_to(huge)
    with pytest.raises(ModelFileError, match=r"model\.zip' is larger than 1,000,000 bytes"):
        load_model(link)
