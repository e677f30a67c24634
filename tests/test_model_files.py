"""Model files used in the wrong place: clear errors naming both sides, checked before any work starts."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

from seers_env import DEFAULT_ARTIFACT_DECK
from seers_env.actions import N_ACTIONS
from seers_env.observation import OBS_DIM
from train.model_config import ModelConfig, ModelConfigError, ModelConfigWarning, load_model_config, save_model_config

pytest.importorskip("sb3_contrib")


class _ToyEnv(gym.Env):
    """Only its spaces matter: a model is built on it and saved, never trained."""

    def __init__(self, observation_space, n_actions=N_ACTIONS):
        self.observation_space = observation_space
        self.action_space = spaces.Discrete(n_actions)

    def reset(self, seed=None, options=None):
        return self.observation_space.sample(), {}

    def step(self, action):
        return self.observation_space.sample(), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(self.action_space.n, dtype=bool)


def _model(path, observation_space, policy="MlpPolicy", n_actions=N_ACTIONS, config=None):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(policy, _ToyEnv(observation_space, n_actions), policy_kwargs={"net_arch": [8]},
                        n_steps=8, batch_size=8, device="cpu")
    model.save(path)
    if config is not None:
        save_model_config(path, config)
    return str(path)


def _flat(n=OBS_DIM):
    return spaces.Box(0.0, 1.0, (n,), np.float32)


def test_dict_observation_model_is_a_clear_error(tmp_path):
    from agents import make_agent

    obs = spaces.Dict({"observation": _flat(), "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)})
    path = _model(tmp_path / "dict.zip", obs, policy="MultiInputPolicy")
    with pytest.raises(ModelConfigError, match=r"Dict observation.*MultiInputPolicy.*flat Box of shape "
                                               rf"\({OBS_DIM},\)"):
        make_agent(f"ppo:{path}")


@pytest.mark.parametrize("n_obs,n_actions", [(OBS_DIM - 1, N_ACTIONS), (OBS_DIM, N_ACTIONS - 1)])
def test_wrong_sizes_are_a_clear_error(tmp_path, n_obs, n_actions):
    from agents import make_agent

    path = _model(tmp_path / "sizes.zip", _flat(n_obs), n_actions=n_actions)
    with pytest.raises(ModelConfigError, match=f"model '{path}' was trained with"):
        make_agent(f"ppo:{path}")


def test_wrong_players_or_deck_is_refused_before_any_game(tmp_path):
    from agents.tournament import run_tournament

    deck = tuple(DEFAULT_ARTIFACT_DECK)
    path = _model(tmp_path / "p4.zip", _flat(), config=ModelConfig("maskable_ppo", 4, deck))
    with pytest.raises(ModelConfigError, match="n_players: trained 4, used 3"):
        run_tournament([f"ppo:{path}", "random", "random"], games=1, workers=1, progress=False)
    with pytest.raises(ModelConfigError, match="artifact_deck: trained .*, used no artifacts"):
        run_tournament([f"ppo:{path}"] + ["random"] * 3, games=1, workers=1, progress=False, artifact_deck=())
    result = run_tournament([f"ppo:{path}"] + ["random"] * 3, games=1, n_rounds=1, workers=1, progress=False)
    assert result.agents[f"ppo:{path}"].games == 4


def test_off_config_play_warns_once(tmp_path):
    from seers_env import Game, GameConfig
    from seers_env.view import SeatView
    from train.ppo_agent import PPOAgent

    path = _model(tmp_path / "p4.zip", _flat(), config=ModelConfig("maskable_ppo", 4, DEFAULT_ARTIFACT_DECK))
    strict, lenient = PPOAgent(path), PPOAgent(path, allow_off_config=True)
    game = Game(GameConfig(n_players=3, n_rounds=1), seed=0)
    with pytest.raises(ModelConfigError, match="trained 4, used 3"):
        strict.act(SeatView(game, game.current))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(5):
            if game.game_over:
                break
            game.apply(lenient.act(SeatView(game, game.current)))
    assert [w.category for w in caught] == [ModelConfigWarning]


def test_training_checks_ppo_opponents_before_any_work(tmp_path):
    from train.trainer import TrainConfig

    wrong_size = _model(tmp_path / "852.zip", _flat(852))
    with pytest.raises(ModelConfigError, match=rf"shape \(852,\).*\({OBS_DIM},\)"):
        TrainConfig(opponents=f"ppo:{wrong_size}:1")
    p4 = _model(tmp_path / "p4.zip", _flat(), config=ModelConfig("maskable_ppo", 4, DEFAULT_ARTIFACT_DECK))
    with pytest.raises(ModelConfigError, match="n_players: trained 4, used 3"):
        TrainConfig(n_players=3, opponents=f"random:1,ppo:{p4}:1")
    with pytest.raises(ModelConfigError, match="n_players: trained 4, used 5"):
        TrainConfig(n_players=5, eval_specs=("random", f"ppo:{p4}"))
    TrainConfig(n_players=4, opponents=f"random:1,ppo:{p4}:1")


def test_failed_run_can_be_rerun_with_force(tmp_path):
    from train.trainer import TrainConfig, train

    config = TrainConfig(n_players=2, n_rounds=1, total_timesteps=32, n_envs=1, n_steps=32, batch_size=32,
                         n_epochs=1, net_arch=(8,), eval_every=0, opponents="random:1", snapshot_every=32,
                         checkpoint_every=32, out=str(tmp_path), name="again", imitation_samples=0)
    run_dir = tmp_path / "again"
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"config": config.to_dict()}))  # a run that failed
    with pytest.raises(ValueError, match="exists already.*--force"):
        train(config, progress=False, final_eval=False, echo=lambda s: None)
    result = train(config, progress=False, final_eval=False, echo=lambda s: None, force=True)
    written = json.loads((run_dir / "config.json").read_text())
    assert ModelConfig.from_dict(written["model_config"]) == config.model_config()
    for model_file in [result.model_path, *sorted((run_dir / "checkpoints").iterdir()),
                       *sorted((run_dir / "snapshots").iterdir())]:
        assert load_model_config(model_file) == config.model_config(), model_file


def test_play_refuses_a_model_of_another_table_before_any_play(tmp_path):
    from seers_cli.play_cli import play_game

    path = _model(tmp_path / "p4.zip", _flat(), config=ModelConfig("maskable_ppo", 4, DEFAULT_ARTIFACT_DECK))
    lines = []
    with pytest.raises(ModelConfigError, match="n_players: trained 4, used 3"):
        play_game([f"ppo:{path}", "random"], n_players=3, read_line=lambda prompt: "q", echo=lines.append)
    assert lines == []
