"""train.model_config: what a model file was trained for, stored with it and checked against its use."""

import json
import warnings
import zipfile

import pytest

from seers_env import DEFAULT_ARTIFACT_DECK
from train.model_config import (ENTRY_NAME, ModelConfig, ModelConfigError, ModelConfigWarning,
                                check_model_config, load_model_config, save_model_config)

DECK = tuple(DEFAULT_ARTIFACT_DECK)


def test_round_trip_through_strict_json():
    cfg = ModelConfig("maskable_ppo", n_players=3, artifact_deck=DECK)
    text = json.dumps(cfg.to_dict(), allow_nan=False)
    assert ModelConfig.from_dict(json.loads(text)) == cfg
    assert ModelConfig.from_dict({**cfg.to_dict(), "later_field": 1}) == cfg


@pytest.mark.parametrize("bad", [{"algorithm": "x", "n_players": 6, "artifact_deck": []},
                                 {"algorithm": "x", "artifact_deck": []}, [1, 2],
                                 {"algorithm": "x", "n_players": 4, "artifact_deck": "go_first"}])
def test_from_dict_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        ModelConfig.from_dict(bad)


def test_embedded_in_flat_zip_and_replaced(tmp_path):
    path = tmp_path / "m.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", "{}")
    save_model_config(path, ModelConfig("a", 4, DECK))
    save_model_config(path, ModelConfig("a", 2, ()))
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist().count(ENTRY_NAME) == 1 and "data" in zf.namelist()
    assert load_model_config(path) == ModelConfig("a", 2, ())


def test_sidecar_for_torch_archive(tmp_path):
    torch = pytest.importorskip("torch")
    path = tmp_path / "m.pt"
    torch.save({"w": torch.ones(2)}, path)
    save_model_config(path, ModelConfig("scorer", 5, DECK, feature_version="f1", catalogue_version=None))
    assert torch.load(path)["w"].sum().item() == 2.0  # still loadable
    assert load_model_config(path).feature_version == "f1"


def test_legacy_run_folder_config(tmp_path):
    (tmp_path / "checkpoints").mkdir()
    ckpt = tmp_path / "checkpoints" / "ckpt_1.zip"
    ckpt.write_bytes(b"not a zip")
    (tmp_path / "config.json").write_text(json.dumps({"config": {"n_players": 3, "artifacts": False}}))
    assert load_model_config(ckpt) == ModelConfig("maskable_ppo", 3, (), feature_version=None)
    lone = tmp_path.parent / "lone.bin"
    lone.write_bytes(b"x")
    assert load_model_config(lone) is None
    with pytest.raises(FileNotFoundError):
        load_model_config(tmp_path / "missing.zip")


def test_check_names_both_sides():
    cfg = ModelConfig("maskable_ppo", 4, DECK)
    check_model_config(cfg, source="m.zip", n_players=4, artifact_deck=tuple(reversed(DECK)),
                       algorithm="maskable_ppo")
    with pytest.raises(ModelConfigError, match=r"'m.zip'.*n_players: trained 4, used 3.*artifact_deck: "
                                               r"trained \[.*\], used no artifacts"):
        check_model_config(cfg, source="m.zip", n_players=3, artifact_deck=())
    with pytest.raises(ModelConfigError, match="feature_version: trained 'observation-v1', used 'v9'"):
        check_model_config(cfg, source="m.zip", feature_version="v9", allow_off_config=True)
    check_model_config(None, source="m.zip", n_players=2)  # nothing recorded: nothing to check


def test_off_config_warns_once():
    cfg = ModelConfig("maskable_ppo", 4, DECK)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            check_model_config(cfg, source="once.zip", n_players=5, allow_off_config=True)
    assert [w.category for w in caught] == [ModelConfigWarning]
    assert "trained 4, used 5" in str(caught[0].message)
