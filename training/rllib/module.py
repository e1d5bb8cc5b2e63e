"""MaskedPPOTorchRLModule: PPO's default MLP module (new API stack) that reads herozoo's
``{"observation", "action_mask"}`` observations and never samples a masked action.

The parent (``DefaultPPOTorchRLModule``, PPO's own catalog) is built on a flat ``float32`` Box of
the observation's length, so the catalog makes its MLP encoders (``fcnet_hiddens``,
``fcnet_activation``); the observation is cast to float and flattened inside the forward pass.
Every forward pass (inference, exploration, training) sets the logits of masked actions to
``FLOAT_MIN``, so their probability is exactly 0 and neither sampling nor argmax nor the PPO loss
ever sees them. Value estimates read the observation only.

The network has the layout of an SB3 ``MlpPolicy`` with separate policy and value networks when
``vf_share_layers`` is False and ``head_fcnet_hiddens`` is empty (what
:func:`model_config` gives): actor encoder + linear policy head, critic encoder + linear value
head. That is what :mod:`training.rllib.export` turns into a herozoo checkpoint.

RLlib's example ``ActionMaskingTorchRLModule`` is not used: it expects the key
``"observations"`` (PettingZoo says ``"observation"``) and lives under ``ray.rllib.examples``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.utils.annotations import override
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBS_KEY = "observation"
MASK_KEY = "action_mask"
ACTIVATIONS = ("tanh", "relu")


def model_config(net_arch: list[int], activation: str) -> dict[str, Any]:
    """The ``DefaultModelConfig`` fields of an exportable network (see the module doc)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {list(ACTIVATIONS)}, got {activation!r}")
    return {
        "fcnet_hiddens": [int(h) for h in net_arch],
        "fcnet_activation": activation,
        "head_fcnet_hiddens": [],
        "vf_share_layers": False,
    }


def _flat_box(space: gym.Space) -> gym.spaces.Box:
    if not isinstance(space, gym.spaces.Dict) or set(space.spaces) != {OBS_KEY, MASK_KEY}:
        raise ValueError(
            "MaskedPPOTorchRLModule needs the herozoo observation space "
            f"Dict({OBS_KEY!r}: Box, {MASK_KEY!r}: Box), got {space}"
        )
    obs = space[OBS_KEY]
    if not isinstance(obs, gym.spaces.Box):
        raise ValueError(f"the {OBS_KEY!r} entry must be a Box (observation_mode 'vector'), got {obs}")
    size = int(np.prod(obs.shape))
    return gym.spaces.Box(-np.inf, np.inf, (size,), np.float32)


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """See the module doc. Build it through an ``RLModuleSpec(module_class=...)``."""

    def __init__(self, *args, observation_space: gym.Space | None = None, **kwargs):
        # Keep the Dict space for the checkpoint's constructor arguments; the parent sees the flat Box.
        self.observation_space_with_mask = observation_space
        super().__init__(*args, observation_space=_flat_box(observation_space), **kwargs)

    @override(DefaultPPOTorchRLModule)
    def setup(self):
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def get_ctor_args_and_kwargs(self):
        args, kwargs = super().get_ctor_args_and_kwargs()
        kwargs = dict(kwargs, observation_space=self.observation_space_with_mask)
        return args, kwargs

    # -- batches ----------------------------------------------------------------------------
    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or OBS_KEY not in obs or MASK_KEY not in obs:
            raise ValueError(
                f"MaskedPPOTorchRLModule expects observations {{{OBS_KEY!r}, {MASK_KEY!r}}}, got "
                f"{sorted(obs) if isinstance(obs, dict) else type(obs).__name__}"
            )
        x = obs[OBS_KEY]
        flat = dict(batch)  # a shallow copy: the caller's batch keeps its dict observation
        flat[Columns.OBS] = x.float().reshape(x.shape[0], -1)
        return obs[MASK_KEY], flat

    @staticmethod
    def _mask(out: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, FLOAT_MIN)
        return out

    # -- forward passes ------------------------------------------------------------------------
    @override(RLModule)
    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, flat = self._split(batch)
        return self._mask(super()._forward(flat, **kwargs), mask)

    @override(RLModule)
    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, flat = self._split(batch)
        return self._mask(super()._forward_train(flat, **kwargs), mask)

    @override(ValueFunctionAPI)
    def compute_values(self, batch: dict[str, Any], embeddings: Any = None):
        if embeddings is None:
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


__all__ = ["MASK_KEY", "OBS_KEY", "MaskedPPOTorchRLModule", "model_config"]
