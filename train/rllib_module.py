"""The play-scoring policy as an RLlib ``TorchRLModule`` (new API stack; needs ``ray[rllib]``).

:class:`PlayScoringRLModule` wraps :class:`train.scoring_policy.PlayScoringNet` (attribute ``net``):
the state encoder embeds ``obs["observations"]``, the shared play scorer gives one logit per offered
play row of ``obs["plays"]``, and rows whose ``obs["action_mask"]`` is 0 get the logit
``ray.rllib.utils.torch_utils.FLOAT_MIN`` (probability 0 in RLlib's ``TorchCategorical``), the masking
RLlib's action-masking example applies. Only the offered rows go through the scorer (they are gathered
first), so padding costs no compute. The value head (:class:`~ray.rllib.core.rl_module.apis.ValueFunctionAPI`)
is the net's value head on the state embedding (no privileged critic: RLlib's critic sees the seat's
observation only).

``model_config`` (a plain dict, saved in RLlib checkpoints): ``hidden``, ``embed`` (network sizes),
``n_players``, ``artifact_deck`` (the table it is trained for; :func:`module_model_config`).
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from seers_env.features import PLAY_DIM, STATE_DIM

from .model_config import ModelConfig
from .scoring_policy import NetConfig, PlayScoringNet, model_config


def module_model_config(n_players: int, artifact_deck, hidden: int = 256, embed: int = 128) -> dict[str, Any]:
    """The ``model_config`` dict of :class:`PlayScoringRLModule` (JSON-safe)."""
    return {"hidden": int(hidden), "embed": int(embed), "n_players": int(n_players),
            "artifact_deck": [str(k) for k in artifact_deck]}


class PlayScoringRLModule(TorchRLModule, ValueFunctionAPI):
    """Masked play-scoring policy and value function; module docstring.

    Forward input ``batch[Columns.OBS]``: dict of float32 tensors ``observations (B, STATE_DIM)``,
    ``plays (B, K, PLAY_DIM)``, ``action_mask (B, K)``. Output ``Columns.ACTION_DIST_INPUTS``: float32
    logits ``(B, K)``.
    """

    def setup(self) -> None:
        mc = self.model_config or {}
        self.net = PlayScoringNet(NetConfig(state_dim=STATE_DIM, play_dim=PLAY_DIM,
                                            hidden=int(mc.get("hidden", 256)), embed=int(mc.get("embed", 128)),
                                            privileged_critic=False))

    def seers_model_config(self) -> ModelConfig:
        """The :class:`~train.model_config.ModelConfig` of the table this module is trained for."""
        mc = self.model_config or {}
        return model_config(int(mc.get("n_players", 4)), tuple(mc.get("artifact_deck", ())))

    def _logits(self, obs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        states, plays, mask = obs["observations"], obs["plays"], obs["action_mask"] > 0.5
        b, k = mask.shape
        segment = torch.arange(b, device=mask.device).unsqueeze(1).expand(b, k)[mask]
        emb = self.net.state_net(states)
        net = self.net
        rows = net.play_net(net.play_in(plays[mask]) + net.state_in(emb).index_select(0, segment)).squeeze(1)
        logits = torch.full((b, k), FLOAT_MIN, dtype=rows.dtype, device=rows.device)
        logits[mask] = rows
        return logits, emb

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        logits, _ = self._logits(batch[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        logits, emb = self._logits(batch[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: emb}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """Value of each observation: float32 ``(B,)`` (round-score advantage, reward units)."""
        if embeddings is None:
            embeddings = self.net.state_net(batch[Columns.OBS]["observations"])
        return self.net.value_net(embeddings).squeeze(-1)


class FrozenPlayScoringRLModule(PlayScoringRLModule):
    """A :class:`PlayScoringRLModule` whose weights come from ``model_config["weights"]`` (a dict of
    numpy arrays of a :class:`~train.scoring_policy.PlayScoringNet` state dict, value head optional)
    and never change: the frozen opponent of ``seers train --algo rllib --opponent ...``
    (``policies_to_train`` leaves it out; its parameters do not require gradients)."""

    def setup(self) -> None:
        super().setup()
        weights = (self.model_config or {}).get("weights") or {}
        if weights:
            state = {k: torch.as_tensor(v) for k, v in weights.items()}
            missing, unexpected = self.net.load_state_dict(state, strict=False)
            if unexpected or any(not k.startswith("value_net") for k in missing):
                raise ValueError(f"frozen opponent weights do not fit the network: missing {missing}, "
                                 f"unexpected {unexpected}")
        for p in self.net.parameters():
            p.requires_grad_(False)


__all__ = ["FrozenPlayScoringRLModule", "PlayScoringRLModule", "module_model_config"]
