"""RLlib checkpoints as herozoo policies, read without ray.

An RLlib (new API stack) checkpoint keeps each RLModule's weights in
``learner_group/learner/rl_module/<module_id>/module_state.pkl``: a pickle of a dict of numpy
arrays. It is read here by a restricted unpickler that builds only dicts and numeric numpy arrays
(bool, integer and float; never object, structured or complex dtypes) through functions of its own,
checking every dtype, shape and byte count before numpy sees them, and refuses anything else (no
code from the file runs; ray is not imported). The weights of
:class:`training.rllib.module.MaskedPPOTorchRLModule` map one to one onto the SB3 ``MlpPolicy``
names of a herozoo checkpoint:

| RLlib | herozoo (SB3) |
|---|---|
| ``encoder.actor_encoder.net.mlp.{2i}.{weight,bias}`` | ``mlp_extractor.policy_net.{2i}.*`` |
| ``pi.net.mlp.0.*`` | ``action_net.*`` |
| ``encoder.critic_encoder.net.mlp.{2i}.*`` | ``mlp_extractor.value_net.{2i}.*`` |
| ``vf.net.mlp.0.*`` | ``value_net.*`` |

The env id, options, network and training facts come from ``herozoo.json``, which
``training.rllib.train`` writes into every checkpoint folder it saves.

- :func:`load_rllib_policy` (what ``load_policy("rllib:PATH", env_id)`` calls): the checkpoint as a
  :class:`training.runtime.inference.NumpyMLPPolicy`, converted in memory; numpy only.
- :func:`export_checkpoint` / ``python -m training.rllib.export RLLIB_CKPT OUT``: write it as a
  herozoo checkpoint (``OUT.pt`` + ``OUT.json``, through :func:`training.runtime.checkpoints.save_checkpoint`),
  which then loads like any other (``load_policy("OUT.json", env_id)``); needs torch, not ray.

``PATH`` may be an algorithm checkpoint folder, its ``.../rl_module`` folder or one module's folder;
``PATH#MODULE`` picks a module (default: the trained one, ``main`` or ``shared``).
"""

from __future__ import annotations

import argparse
import io
import json
import pickle
import re
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from training.runtime.checkpoints import CheckpointError, expected_shapes

SIDECAR = "herozoo.json"
STATE_FILE = "module_state.pkl"
MODULES_DIR = Path("learner_group") / "learner" / "rl_module"
ALGORITHM = "RLlibPPO"

#: The dtypes a module state may hold (``numpy.dtype(...)``'s first argument in the pickle): plain
#: bool, integer and float types. Object, structured, complex, string and sub-array dtypes are refused.
NUMERIC_DTYPES = ("b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8")
_MAX_DIMS = 32


class _DType:
    """A ``numpy.dtype(...)`` of the pickle, kept as its checked name and byte order: no numpy dtype is
    built until the reader builds an array with it, and BUILD never reaches numpy's dtype state."""

    __slots__ = ("byteorder", "spec")

    def __init__(self, spec: str):
        self.spec, self.byteorder = spec, None

    def __setstate__(self, state: Any) -> None:
        # what numpy writes for a plain dtype: (3, byte order, None, None, None, -1, -1, 0)
        plain = (
            isinstance(state, tuple)
            and len(state) == 8
            and state[0] == 3
            and isinstance(state[1], str)
            and state[1] in ("<", ">", "|")
            and state[2:] == (None, None, None, -1, -1, 0)
        )
        if self.byteorder is not None or not plain:
            raise pickle.UnpicklingError(
                f"refused dtype state {_short(state)} for {self.spec!r}: only the state numpy writes for a plain "
                "numeric dtype is read"
            )
        self.byteorder = state[1]

    def build(self) -> np.dtype:
        dtype = np.dtype(self.spec)
        return dtype.newbyteorder(self.byteorder) if self.byteorder in ("<", ">") else dtype


class _Array:
    """An array of the pickle: built by this reader from checked parts, handed out after the load."""

    __slots__ = ("value",)

    def __init__(self, value: np.ndarray | None = None):
        self.value = value

    def __setstate__(self, state: Any) -> None:
        # ndarray.__reduce__'s state: (1, shape, dtype, is_fortran, raw bytes)
        if self.value is not None or not (isinstance(state, tuple) and len(state) == 5 and state[0] == 1):
            raise pickle.UnpicklingError(f"refused array state {_short(state)}: not the state numpy writes")
        _, shape, dtype, fortran, data = state
        if not isinstance(fortran, bool):
            raise pickle.UnpicklingError(f"refused array state: is_fortran is {fortran!r}")
        self.value = _numeric_array(data, dtype, shape, "F" if fortran else "C")


class _Global:
    """What a global of the pickle gets: one of this reader's functions (or a marker, ``fn=None``) that
    BUILD cannot change and NEWOBJ cannot instantiate."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn=None):
        self.name, self.fn = name, fn

    def __call__(self, *args: Any) -> Any:
        if self.fn is None:
            raise pickle.UnpicklingError(f"refused a call of {self.name}")
        return self.fn(*args)

    def __setstate__(self, state: Any) -> None:
        raise pickle.UnpicklingError(f"refused to change {self.name} (BUILD on a global)")


_NDARRAY = _Global("numpy.ndarray")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _dtype(spec: Any, align: Any = False, copy: Any = True) -> _DType:
    if not isinstance(spec, str) or spec not in NUMERIC_DTYPES or align is not False:
        raise pickle.UnpicklingError(
            f"refused dtype {_short(spec)}: only plain numeric dtypes are read ({', '.join(NUMERIC_DTYPES)}); "
            "object, structured and complex arrays are not weights"
        )
    return _DType(spec)


def _numeric_array(data: Any, dtype: Any, shape: Any, order: Any) -> np.ndarray:
    """A copy of ``data`` as an array, once the dtype, shape, order and byte count are checked."""
    if not isinstance(dtype, _DType) or dtype.byteorder is None:
        raise pickle.UnpicklingError(f"refused array: its dtype is {_short(dtype)}, not a checked numeric dtype")
    if not (
        isinstance(shape, tuple)
        and len(shape) <= _MAX_DIMS
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
    ):
        raise pickle.UnpicklingError(f"refused array shape {_short(shape)}: a tuple of sizes >= 0 was expected")
    if order not in ("C", "F"):
        raise pickle.UnpicklingError(f"refused array order {_short(order)}: 'C' or 'F' was expected")
    if not isinstance(data, (bytes, bytearray)):
        raise pickle.UnpicklingError(f"refused array data of type {type(data).__name__}: raw bytes were expected")
    dt = dtype.build()
    size = dt.itemsize
    for n in shape:
        size *= n
    if size != len(data):
        raise pickle.UnpicklingError(
            f"array data is {len(data)} bytes, but shape {shape} of {dt} needs {size}: the file is damaged"
        )
    return np.frombuffer(data, dtype=dt).reshape(shape, order=order).copy(order="K")


def _frombuffer(buf: Any, dtype: Any, shape: Any, order: Any = "C") -> _Array:
    return _Array(_numeric_array(buf, dtype, shape, order))


def _reconstruct(cls: Any, shape: Any, typecode: Any) -> _Array:
    if cls is not _NDARRAY or shape != (0,) or typecode != b"b":
        raise pickle.UnpicklingError(f"refused _reconstruct{_short((cls, shape, typecode))}: not a plain ndarray")
    return _Array()


#: what a global of the pickle may name, and what the reader gives it instead (its own functions)
_ALLOWED_GLOBALS = {
    ("collections", "OrderedDict"): _Global("collections.OrderedDict", OrderedDict),
    ("numpy", "dtype"): _Global("numpy.dtype", _dtype),
    ("numpy", "ndarray"): _NDARRAY,
    ("numpy._core.numeric", "_frombuffer"): _Global("numpy._frombuffer", _frombuffer),
    ("numpy.core.numeric", "_frombuffer"): _Global("numpy._frombuffer", _frombuffer),
    ("numpy._core.multiarray", "_reconstruct"): _Global("numpy._reconstruct", _reconstruct),
    ("numpy.core.multiarray", "_reconstruct"): _Global("numpy._reconstruct", _reconstruct),
}


class _ArraysOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) in _ALLOWED_GLOBALS:
            return _ALLOWED_GLOBALS[module, name]
        raise pickle.UnpicklingError(f"refused to load {module}.{name}: only dicts of numpy arrays are read")

    def persistent_load(self, pid: Any):
        raise pickle.UnpicklingError("refused a persistent id: only dicts of numpy arrays are read")


def _load_arrays(data: bytes) -> Any:
    """A dict of arrays from the bytes of a module state (its ``_Array`` placeholders swapped for the
    arrays they hold); anything else is refused."""
    state = _ArraysOnly(io.BytesIO(data)).load()
    if not isinstance(state, dict):
        raise pickle.UnpicklingError(f"expected a dict of numpy arrays, got {type(state).__name__}")
    out = {}
    for key, value in state.items():
        if not isinstance(value, _Array) or value.value is None:
            raise pickle.UnpicklingError(
                f"expected a dict of numpy arrays; {_short(key)} holds {type(value).__name__.lstrip('_')}"
            )
        out[key] = value.value
    return out


def split_spec(spec: str) -> tuple[str, str | None]:
    """``"rllib:PATH#MODULE"`` (or ``PATH#MODULE``) -> ``(PATH, MODULE or None)``."""
    if spec.startswith("rllib:"):
        spec = spec[len("rllib:") :]
    path, sep, module = spec.rpartition("#")
    if sep and module and re.fullmatch(r"[A-Za-z0-9_.-]+", module):
        return path, module
    return spec, None


def _find_sidecar(path: Path) -> dict[str, Any] | None:
    for p in [path, *list(path.parents)[:4]]:
        f = p / SIDECAR
        if f.is_file():
            try:
                data = json.loads(f.read_text())
            except (OSError, ValueError) as e:
                raise CheckpointError(f"{f}: cannot read the herozoo sidecar: {e}") from e
            if not isinstance(data, dict):
                raise CheckpointError(f"{f}: not a herozoo RLlib sidecar (a JSON {type(data).__name__}, not an object)")
            if data.get("format") != "herozoo-rllib":
                raise CheckpointError(f"{f}: not a herozoo RLlib sidecar (format {data.get('format')!r})")
            _check_sidecar(data, f)
            return data
    return None


#: the sidecar fields the export reads and the JSON type each must have (null counts as absent)
_SIDECAR_FIELDS = {"env_id": str, "env_options": dict, "trained_module": str, "policy": dict}
_POLICY_FIELDS = {"net_arch_pi": list, "net_arch_vf": list, "activation": str}
_JSON_TYPES = {str: "a string", dict: "an object", list: "a list"}


def _check_sidecar(data: dict[str, Any], f: Path) -> None:
    """A damaged or hand-edited sidecar is a CheckpointError naming the field, not a TypeError later."""
    policy = data.get("policy")
    fields = [(k, data.get(k), kind) for k, kind in _SIDECAR_FIELDS.items()]
    if isinstance(policy, dict):
        fields += [(f"policy.{k}", policy.get(k), kind) for k, kind in _POLICY_FIELDS.items()]
    for name, value, kind in fields:
        if value is not None and not isinstance(value, kind):
            raise CheckpointError(f"{f}: {name} must be {_JSON_TYPES[kind]} or absent, got {value!r}")


def _modules_dir(path: Path) -> Path:
    """The folder holding one sub-folder per module."""
    if (path / MODULES_DIR).is_dir():
        return path / MODULES_DIR
    if path.name == "rl_module" and path.is_dir():
        return path
    if (path / STATE_FILE).is_file() and path.parent.name == "rl_module":
        return path.parent
    raise CheckpointError(
        f"{path}: not an RLlib checkpoint: no {MODULES_DIR}/<module>/{STATE_FILE} inside "
        "(give the folder algo.save() wrote, e.g. runs/rllib__.../checkpoints/final)"
    )


def read_module_weights(
    path: str | Path, module_id: str | None = None
) -> tuple[dict[str, np.ndarray], str, dict | None]:
    """``(RLlib weights, module id, herozoo sidecar or None)`` of an RLlib checkpoint; no ray."""
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"{path}: RLlib checkpoint not found")
    sidecar = _find_sidecar(path)
    modules = _modules_dir(path)
    present = sorted(
        p.name for p in modules.iterdir() if (p / STATE_FILE).is_file() or (p / "module_state.msgpack").is_file()
    )
    if module_id is None and (path / STATE_FILE).is_file() and path.parent == modules:
        module_id = path.name
    if module_id is None:
        for candidate in ([sidecar.get("trained_module")] if sidecar else []) + ["main", "shared"]:
            if candidate in present:
                module_id = candidate
                break
        else:
            if len(present) != 1:
                raise CheckpointError(f"{path}: holds modules {present}; name one as PATH#MODULE")
            module_id = present[0]
    if module_id not in present:
        raise CheckpointError(f"{path}: no module {module_id!r}; the checkpoint holds {present}")
    state_file = modules / module_id / STATE_FILE
    if not state_file.is_file():
        raise CheckpointError(f"{state_file}: missing (msgpack module states are not supported; save with pickle)")
    try:
        state = _load_arrays(state_file.read_bytes())
    except pickle.UnpicklingError as e:
        raise CheckpointError(f"{state_file}: {e}") from e
    except Exception as e:  # truncated or damaged
        raise CheckpointError(f"{state_file}: module state is damaged: {type(e).__name__}: {e}") from e
    if not isinstance(state, dict) or not all(isinstance(v, np.ndarray) for v in state.values()):
        raise CheckpointError(f"{state_file}: expected a dict of numpy arrays")
    return {str(k): v for k, v in state.items()}, module_id, sidecar


def _stack(weights: dict[str, np.ndarray], prefix: str, where: str) -> list[tuple[np.ndarray, np.ndarray]]:
    layers, j = [], 0
    while f"{prefix}{j}.weight" in weights:
        name = f"{prefix}{j}"
        w, b = weights[f"{name}.weight"], weights.get(f"{name}.bias")
        if b is None:
            raise CheckpointError(f"{where}: {name}.weight has no {name}.bias (the module state is incomplete)")
        for k, v in ((f"{name}.weight", w), (f"{name}.bias", b)):
            if not isinstance(v, np.ndarray) or v.dtype.kind not in "biuf":
                raise CheckpointError(
                    f"{where}: tensor {k!r} holds {getattr(v, 'dtype', type(v).__name__)}, not real numbers "
                    "(bool, integer or float); complex or other values are refused"
                )
        if w.ndim != 2 or b.shape != (w.shape[0],):
            raise CheckpointError(
                f"{where}: {name} is not a layer: weight {w.shape} and bias {b.shape} (expected [out, in] and [out])"
            )
        layers.append((w, b))
        j += 2
    if not layers:
        raise CheckpointError(f"{where}: no layers {prefix}* (vf_share_layers or another encoder was used?)")
    return layers


def to_herozoo_weights(weights: dict[str, np.ndarray], where: str = "checkpoint") -> tuple[dict[str, np.ndarray], dict]:
    """RLlib names -> SB3 names (see the module table), and the network they describe."""
    if any(k.startswith("encoder.encoder.") for k in weights):
        raise CheckpointError(
            f"{where}: the module shares its encoder (vf_share_layers=True); export needs separate "
            "policy and value networks (training.rllib.module.model_config)"
        )
    actor = _stack(weights, "encoder.actor_encoder.net.mlp.", where)
    critic = _stack(weights, "encoder.critic_encoder.net.mlp.", where)
    pi = _stack(weights, "pi.net.mlp.", where)
    vf = _stack(weights, "vf.net.mlp.", where)
    if len(pi) != 1 or len(vf) != 1:
        raise CheckpointError(f"{where}: policy/value heads have hidden layers (head_fcnet_hiddens); not exportable")
    out: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(actor):
        out[f"mlp_extractor.policy_net.{2 * i}.weight"], out[f"mlp_extractor.policy_net.{2 * i}.bias"] = w, b
    for i, (w, b) in enumerate(critic):
        out[f"mlp_extractor.value_net.{2 * i}.weight"], out[f"mlp_extractor.value_net.{2 * i}.bias"] = w, b
    out["action_net.weight"], out["action_net.bias"] = pi[0]
    out["value_net.weight"], out["value_net.bias"] = vf[0]
    out = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in out.items()}
    info = {
        "observation_size": int(actor[0][0].shape[1]),
        "num_actions": int(pi[0][0].shape[0]),
        "net_arch_pi": [int(w.shape[0]) for w, _ in actor],
        "net_arch_vf": [int(w.shape[0]) for w, _ in critic],
    }
    return out, info


def _env_sizes(env_id: str) -> tuple[int, int]:
    import envs

    env = envs.make(env_id)
    obs, act = env.observation_space("player_0")["observation"], env.action_space("player_0")
    return int(np.prod(obs.shape)), int(act.n)


def convert(
    path: str | Path, env_id: str | None = None, module_id: str | None = None, activation: str | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """herozoo weights and metadata (without the file fields) of an RLlib checkpoint."""
    import envs

    path = Path(path)
    rllib_weights, module_id, sidecar = read_module_weights(path, module_id)
    weights, info = to_herozoo_weights(rllib_weights, str(path))
    side = sidecar or {}
    ckpt_env = side.get("env_id")
    if ckpt_env is not None and env_id is not None and ckpt_env != env_id:
        raise CheckpointError(f"{path}: RLlib checkpoint was trained on {ckpt_env!r}, but {env_id!r} was asked for")
    env_id = env_id or ckpt_env
    if env_id is None:
        raise CheckpointError(f"{path}: no {SIDECAR} beside the checkpoint: say which env id it is for")
    if env_id not in envs.ENV_IDS:
        raise CheckpointError(f"{path}: env id {env_id!r} is not registered; registered ids are {list(envs.ENV_IDS)}")
    policy = side.get("policy") or {}
    activation = activation or policy.get("activation")
    if activation not in ("tanh", "relu"):
        raise CheckpointError(f"{path}: activation unknown (no {SIDECAR}); pass activation='tanh' or 'relu'")
    sizes = _env_sizes(env_id)
    if sizes != (info["observation_size"], info["num_actions"]):
        raise CheckpointError(
            f"{path}: module {module_id!r} takes observations of length {info['observation_size']} and has "
            f"{info['num_actions']} actions, but {env_id} has {sizes[0]} and {sizes[1]}"
        )
    for key in ("net_arch_pi", "net_arch_vf"):
        want = policy.get(key)
        if want is not None and want != info[key]:
            raise CheckpointError(f"{path}: {SIDECAR} says {key}={want}, the weights have {info[key]}")
    ray_version = None
    meta_file = path / "rllib_checkpoint.json"
    if meta_file.is_file():
        try:
            rllib_meta = json.loads(meta_file.read_text())
        except (OSError, ValueError):
            rllib_meta = None
        ray_version = rllib_meta.get("ray_version") if isinstance(rllib_meta, dict) else None
    meta = {
        "format": "herozoo-policy",
        "format_version": 1,
        "env_id": env_id,
        "env_options": dict(side.get("env_options") or {}),
        "observation_size": info["observation_size"],
        "num_actions": info["num_actions"],
        "algorithm": ALGORITHM,
        "policy": {"net_arch_pi": info["net_arch_pi"], "net_arch_vf": info["net_arch_vf"], "activation": activation},
        "training_steps": side.get("training_steps"),
        "seed": side.get("seed"),
        "parent": str(path),
        "rllib": {
            "checkpoint": str(path.resolve()),
            "module_id": module_id,
            "selfplay_mode": side.get("selfplay_mode"),
            "player_counts": side.get("player_counts"),
            "iterations": side.get("iterations"),
            "ray_version": ray_version,
        },
    }
    shapes = expected_shapes(meta)
    got = {k: tuple(v.shape) for k, v in weights.items()}
    if got != shapes:
        raise CheckpointError(f"{path}: converted tensors {got} do not match the herozoo layout {shapes}")
    for k, v in weights.items():
        if not np.isfinite(v).all():
            raise CheckpointError(f"{path}: tensor {k!r} contains NaN or infinite values (training diverged?)")
    return weights, meta


def load_rllib_policy(spec: str, env_id: str | None = None, deterministic: bool = True, seed: int | None = None):
    """``rllib:PATH[#MODULE]`` as a :class:`training.runtime.inference.NumpyMLPPolicy` (numpy; no ray, no torch)."""
    from training.runtime.inference import NumpyMLPPolicy

    path, module_id = split_spec(spec)
    weights, meta = convert(path, env_id=env_id, module_id=module_id)
    p = Path(path)
    name = (
        f"rllib:{p.parent.name}/{p.name}" if p.name in ("final",) or p.name.startswith("iter_") else f"rllib:{p.name}"
    )
    if module_id is not None:
        name += f"#{module_id}"
    policy = NumpyMLPPolicy(weights, meta, deterministic=deterministic, seed=seed, name=name)
    policy.path = p
    return policy


class RLlibPPO:
    """What ``save_checkpoint`` reads: ``.policy`` (an SB3 ActorCriticPolicy), steps and seed.
    The class name is the checkpoint's ``algorithm``."""

    def __init__(self, policy, num_timesteps, seed):
        self.policy, self.num_timesteps, self.seed = policy, num_timesteps, seed


def export_checkpoint(
    path: str | Path, out: str | Path, env_id: str | None = None, module_id: str | None = None, **metadata: Any
) -> Path:
    """Write the RLlib checkpoint ``path`` as the herozoo checkpoint ``out`` (``.pt`` + ``.json``).

    Returns the ``.json``.

    The weights go through an SB3 ``ActorCriticPolicy`` of the same layout and
    :func:`training.runtime.checkpoints.save_checkpoint`, so the file is exactly what MaskablePPO runs write.
    """
    import gymnasium as gym
    import torch
    from stable_baselines3.common.policies import ActorCriticPolicy

    from training.runtime.checkpoints import save_checkpoint

    weights, meta = convert(path, env_id=env_id, module_id=module_id)
    pol = meta["policy"]
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[pol["activation"]]
    obs_space = gym.spaces.Box(-np.inf, np.inf, (meta["observation_size"],), np.float32)
    sb3 = ActorCriticPolicy(
        obs_space,
        gym.spaces.Discrete(meta["num_actions"]),
        lr_schedule=lambda _: 0.0,
        net_arch={"pi": pol["net_arch_pi"], "vf": pol["net_arch_vf"]},
        activation_fn=act,
        ortho_init=False,
    )
    sb3.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()}, strict=True)
    keep = {k: meta[k] for k in ("env_id", "env_options", "training_steps", "seed", "parent", "rllib")}
    keep.update(metadata)
    return save_checkpoint(RLlibPPO(sb3, meta["training_steps"], meta["seed"]), out, keep)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m training.rllib.export", description="Export an RLlib checkpoint to herozoo's checkpoint format."
    )
    ap.add_argument("checkpoint", help="RLlib checkpoint folder (PATH or PATH#MODULE)")
    ap.add_argument("out", help="herozoo checkpoint name to write (OUT.pt + OUT.json)")
    ap.add_argument("--env-id", default=None, help="needed only for checkpoints without herozoo.json")
    args = ap.parse_args(argv)
    path, module_id = split_spec(args.checkpoint)
    try:
        json_path = export_checkpoint(path, args.out, env_id=args.env_id, module_id=module_id)
    except CheckpointError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["convert", "export_checkpoint", "load_rllib_policy", "read_module_weights", "split_spec"]
