"""Ray RLlib training for herozoo (optional extra: ``pip install -e ".[rllib]"``).

Every module of herozoo that imports ray lives in this package; nothing outside it does.

| Module | What |
|---|---|
| :mod:`training.rllib.env` | ``HerozooMultiAgentEnv``: a registered env id + options as a ``MultiAgentEnv`` |
| :mod:`training.rllib.module` | ``MaskedPPOTorchRLModule``: new-stack PPO that never samples a masked action |
| :mod:`training.rllib.callbacks` | win rates from the game's outcome, logged by the env runners |
| :mod:`training.rllib.config` | the YAML config (``configs/rllib/*.yaml``), strict about its keys; no ray import |
| :mod:`training.rllib.train` | ``python -m training.rllib.train CONFIG [--address auto]``: self-play, export |
| :mod:`training.rllib.export` | RLlib checkpoint -> herozoo checkpoint (``.pt`` + ``.json``), read without ray |
| :mod:`training.rllib.bench` | env steps per second of RLlib sampling (``benchmarks/rllib_throughput.py``) |

``training.runtime.policies.load_policy("rllib:PATH", env_id)`` plays an RLlib checkpoint through
:func:`training.rllib.export.load_rllib_policy` (numpy only: neither ray nor torch is needed).
See ``docs/rllib.md`` for running on a cluster and the settings that matter.

Importing this package itself imports nothing from ray.
"""

from __future__ import annotations

RAY_VERSION_PREFIX = "2.60."  # the extra pins ray[rllib]==2.60.*; the internals used here change between minors

INSTALL_HINT = (
    'install the RLlib extra: pip install torch==2.13.0 && pip install -e ".[rllib]" '
    "(torch is not part of the extra: install a CPU or CUDA wheel of your choice first)"
)


def require_ray():
    """Import ray (and torch) or raise an ImportError that says how to install them."""
    try:
        import torch  # noqa: F401
    except ImportError as e:
        raise ImportError(f"training.rllib needs torch: {INSTALL_HINT}") from e
    try:
        import ray
        import ray.rllib  # noqa: F401
    except ImportError as e:
        raise ImportError(f"training.rllib needs ray[rllib]: {INSTALL_HINT}") from e
    if not ray.__version__.startswith(RAY_VERSION_PREFIX):
        import warnings

        warnings.warn(
            f"training.rllib is written for ray {RAY_VERSION_PREFIX}*, found ray {ray.__version__}; "
            "the new-API-stack internals it uses may differ",
            stacklevel=2,
        )
    return ray
