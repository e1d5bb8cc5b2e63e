"""herozoo policy checkpoints: a plain tensor file plus a JSON metadata file beside it.

A checkpoint ``<name>`` is two files in one folder:

- ``<name>.pt``: ``torch.save`` of a plain ``dict[str, Tensor]`` holding only the policy network of
  an SB3 / sb3-contrib ``MlpPolicy`` (``mlp_extractor.policy_net.*`` and ``action_net.*``, plus the
  value head ``mlp_extractor.value_net.*`` / ``value_net.*``), under SB3's own key names;
- ``<name>.json``: what the weights are for and how to rebuild the network::

    {"format": "herozoo-policy", "format_version": 1,
     "env_id": ..., "env_options": {...}, "observation_size": 1036, "num_actions": 132,
     "algorithm": "MaskablePPO",
     "policy": {"net_arch_pi": [256, 256], "net_arch_vf": [256, 256], "activation": "tanh"},
     "training_steps": ..., "seed": ..., "parent": ..., "created": "2025-01-01T12:00:00+00:00",
     "weights_file": "<name>.pt", "weights_sha256": "...", "evaluation": {...}, ...}

Loading never unpickles arbitrary objects: the ``.pt`` is read with
``torch.load(weights_only=True)`` after its sha256 has been checked against the JSON, and SB3
``.zip`` files (which hold pickled Python objects) are refused. Every problem raises
:class:`CheckpointError`, whose message names the file and what is wrong.

Writes are atomic: each file goes to a temporary name in the same folder, is fsynced and then
renamed over the target, the ``.pt`` before the ``.json``. A ``.json`` therefore never points to a
missing or half-written ``.pt``. When a checkpoint is overwritten with different weights, the old
``.json`` is removed before the new ``.pt`` takes its place, so an interruption at that moment
leaves no checkpoint at that name (and a stray ``.pt``), never a ``.json`` describing other weights.

Inference runs in numpy (:class:`NumpyMLPPolicy`) and reproduces MaskablePPO's deterministic
choice (masked argmax of the logits). Observation preprocessing is the ``MlpPolicy`` one for a
``Box`` space, i.e. none: observations are only flattened and cast to float32 (a ``VecNormalize``
wrapper used in training would not be part of the checkpoint; herozoo does not use one).

Folder rule (:func:`resolve_checkpoint`): a folder given as a checkpoint means its ``best.json``
if there is one, else its ``latest.json``, else its only ``*.json`` checkpoint; several
checkpoints and neither name is an error listing them.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import os
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from training.atomic import fsync_dir, replace, write_temp
from training.mlp_kernel import seat_step

FORMAT = "herozoo-policy"
FORMAT_VERSION = 1
ACTIVATIONS = ("tanh", "relu")
FOLDER_PREFERENCE = ("best.json", "latest.json")

# Keys save_checkpoint computes itself. The caller may repeat the first group with the same values
# (e.g. metadata copied from another checkpoint); the second group always describes the file
# written now and is silently recomputed.
_COMPUTED_CHECKED = ("format", "format_version", "algorithm", "policy")
_COMPUTED_FRESH = ("weights_file", "weights_sha256", "created")
# Fields update_checkpoint_metadata may not change: they describe the weights.
_FROZEN = (
    "format",
    "format_version",
    "env_id",
    "observation_size",
    "num_actions",
    "algorithm",
    "policy",
    "weights_file",
    "weights_sha256",
)

PI_PREFIX = "mlp_extractor.policy_net."
VF_PREFIX = "mlp_extractor.value_net."


class CheckpointError(ValueError):
    """A checkpoint file is missing, damaged, unsafe, or made for something else."""


# --------------------------------------------------------------------------------------------
# atomic file writes


_fsync_dir = fsync_dir
_write_temp = write_temp
_replace = replace


def atomic_write_bytes(target: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically: temp file in the same folder, fsync, rename."""
    target = Path(target)
    _replace(_write_temp(target, data), target)
    return target


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"object of type {type(obj).__name__} is not JSON serializable: {obj!r}")


def _json_bytes(metadata: Mapping[str, Any], where: Path) -> bytes:
    try:
        text = json.dumps(metadata, indent=2, default=_json_default)
    except (TypeError, ValueError) as e:
        raise ValueError(f"checkpoint metadata for {where} cannot be written as JSON: {e}") from e
    return (text + "\n").encode("utf-8")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------------------------
# paths


def _base_path(path: str | os.PathLike) -> Path:
    """``path`` without a ``.json`` / ``.pt`` suffix: the checkpoint's name with its folder."""
    p = Path(path)
    if p.suffix in (".json", ".pt"):
        p = p.with_suffix("")
    if p.suffix == ".zip":
        raise ValueError(f"{p}: a herozoo checkpoint is written as <name>.pt + <name>.json, not a .zip")
    if not p.name:
        raise ValueError(f"{path!r} does not name a checkpoint file")
    return p


def _refuse_zip(p: Path) -> None:
    if p.suffix.lower() == ".zip":
        raise CheckpointError(
            f"{p}: is an SB3 .zip model file; only herozoo checkpoints (<name>.json + <name>.pt, "
            "written by training.checkpoints.save_checkpoint) are loaded, because .zip models hold "
            "pickled Python objects that could run arbitrary code when loaded"
        )


def _is_checkpoint_json(p: Path) -> bool:
    try:
        with open(p, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def resolve_checkpoint(path: str | os.PathLike) -> Path:
    """The ``.json`` metadata file that ``path`` names.

    ``path`` may be the ``.json``, the ``.pt`` (its ``.json`` is the file beside it with the same
    stem), a name without suffix, or a folder: the folder's ``best.json`` if present, else its
    ``latest.json``, else its only herozoo ``*.json`` checkpoint.
    """
    p = Path(path)
    _refuse_zip(p)
    if p.is_dir():
        for name in FOLDER_PREFERENCE:
            if (p / name).is_file():
                return p / name
        found = sorted(c for c in p.glob("*.json") if not c.name.startswith(".") and _is_checkpoint_json(c))
        if len(found) == 1:
            return found[0]
        if not found:
            raise CheckpointError(f"{p}: folder holds no herozoo checkpoint (no *.json with format {FORMAT!r})")
        raise CheckpointError(
            f"{p}: folder holds {len(found)} checkpoints ({', '.join(c.name for c in found)}) and no "
            f"{' or '.join(FOLDER_PREFERENCE)}; name the one you mean"
        )
    if p.suffix == ".pt":
        j = p.with_suffix(".json")
        if not j.is_file():
            if not p.exists():
                raise CheckpointError(f"{p}: checkpoint weights file not found")
            raise CheckpointError(f"{p}: weights file has no metadata file {j.name} beside it")
        return j
    if p.suffix != ".json":
        j = Path(f"{p}.json")
        if j.is_file():
            return j
        raise CheckpointError(f"{p}: checkpoint not found (neither a folder nor a file; no {j.name} either)")
    if not p.is_file():
        raise CheckpointError(f"{p}: checkpoint metadata file not found")
    return p


# --------------------------------------------------------------------------------------------
# metadata


def _check_int(meta: Mapping, key: str, where: Path) -> int:
    v = meta.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise CheckpointError(f"{where}: metadata {key!r} must be a positive integer, got {v!r}")
    return v


def _check_arch(v: Any, key: str, where: Path) -> list[int]:
    if not isinstance(v, list) or any(isinstance(h, bool) or not isinstance(h, int) or h <= 0 for h in v):
        raise CheckpointError(f"{where}: metadata policy.{key} must be a list of positive layer sizes, got {v!r}")
    return v


def _validate_metadata(meta: Any, where: Path) -> dict[str, Any]:
    if not isinstance(meta, dict):
        raise CheckpointError(f"{where}: metadata must be a JSON object, got {type(meta).__name__}")
    if meta.get("format") != FORMAT:
        raise CheckpointError(
            f"{where}: not a herozoo checkpoint: format marker is {meta.get('format')!r}, expected {FORMAT!r}"
        )
    version = meta.get("format_version")
    if version != FORMAT_VERSION:
        hint = " (written by a newer herozoo: upgrade it)" if isinstance(version, int) and version > 1 else ""
        raise CheckpointError(
            f"{where}: checkpoint format_version is {version!r}; this herozoo reads version {FORMAT_VERSION}{hint}"
        )
    if not isinstance(meta.get("env_id"), str) or not meta["env_id"]:
        raise CheckpointError(f"{where}: metadata 'env_id' must be a non-empty string, got {meta.get('env_id')!r}")
    _check_int(meta, "observation_size", where)
    _check_int(meta, "num_actions", where)
    policy = meta.get("policy")
    if not isinstance(policy, dict):
        raise CheckpointError(f"{where}: metadata 'policy' must be an object with net_arch_pi and activation")
    _check_arch(policy.get("net_arch_pi"), "net_arch_pi", where)
    if policy.get("net_arch_vf") is not None:
        _check_arch(policy["net_arch_vf"], "net_arch_vf", where)
    if policy.get("activation") not in ACTIVATIONS:
        raise CheckpointError(
            f"{where}: metadata policy.activation is {policy.get('activation')!r}; supported: {list(ACTIVATIONS)}"
        )
    wf = meta.get("weights_file")
    if not isinstance(wf, str) or not wf or wf != Path(wf).name or wf in (".", ".."):
        raise CheckpointError(f"{where}: metadata 'weights_file' must be a plain file name beside it, got {wf!r}")
    sha = meta.get("weights_sha256")
    if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise CheckpointError(f"{where}: metadata 'weights_sha256' must be 64 lowercase hex digits, got {sha!r}")
    return meta


def _read_metadata_file(json_path: Path) -> dict[str, Any]:
    try:
        raw = json_path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"{json_path}: checkpoint metadata file not found") from None
    except OSError as e:
        raise CheckpointError(f"{json_path}: cannot read checkpoint metadata: {e}") from e
    try:
        meta = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise CheckpointError(f"{json_path}: checkpoint metadata is not JSON ({e}); the file is damaged") from e
    return _validate_metadata(meta, json_path)


def read_checkpoint_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The validated metadata of the checkpoint ``path`` names, without loading its weights."""
    return _read_metadata_file(resolve_checkpoint(path))


def expected_shapes(metadata: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Tensor name -> shape that the metadata's observation size, action count and arches imply."""
    obs, n_actions = metadata["observation_size"], metadata["num_actions"]
    policy = metadata["policy"]
    shapes: dict[str, tuple[int, ...]] = {}
    prev = obs
    for i, h in enumerate(policy["net_arch_pi"]):
        shapes[f"{PI_PREFIX}{2 * i}.weight"] = (h, prev)
        shapes[f"{PI_PREFIX}{2 * i}.bias"] = (h,)
        prev = h
    shapes["action_net.weight"] = (n_actions, prev)
    shapes["action_net.bias"] = (n_actions,)
    if policy.get("net_arch_vf") is not None:
        prev = obs
        for i, h in enumerate(policy["net_arch_vf"]):
            shapes[f"{VF_PREFIX}{2 * i}.weight"] = (h, prev)
            shapes[f"{VF_PREFIX}{2 * i}.bias"] = (h,)
            prev = h
        shapes["value_net.weight"] = (1, prev)
        shapes["value_net.bias"] = (1,)
    return shapes


def _registered_sizes(env_id: str) -> tuple[int, int] | None:
    """(observation_size, num_actions) of a registered env id, None for an unregistered one."""
    import envs

    if env_id not in envs.ENV_IDS:
        return None
    game = envs.game_class(env_id)
    try:
        return int(game.observation_layout.size), int(game.action_layout.num_actions)
    except AttributeError:  # a game computing its layouts per instance
        g = game()
        return int(g.observation_size), int(g.num_actions)


# --------------------------------------------------------------------------------------------
# saving


def _mlp_arch(net: Any, what: str) -> tuple[list[int], str | None]:
    """Layer sizes and activation name of SB3's ``Sequential(Linear, act, Linear, act, ...)``."""
    import torch.nn as nn

    modules = list(net)
    arch, acts = [], set()
    if len(modules) % 2:
        raise ValueError(f"{what} is not a Linear/activation stack: {net}")
    for i in range(0, len(modules), 2):
        lin, act = modules[i], modules[i + 1]
        if type(lin) is not nn.Linear or lin.bias is None:
            raise ValueError(f"{what}[{i}] is {lin}, expected a Linear layer with bias")
        if type(act) is nn.Tanh:
            acts.add("tanh")
        elif type(act) is nn.ReLU:
            acts.add("relu")
        else:
            raise ValueError(f"{what}[{i + 1}] is {act}; only Tanh and ReLU activations are supported")
        arch.append(int(lin.out_features))
    if len(acts) > 1:
        raise ValueError(f"{what} mixes activations {sorted(acts)}")
    return arch, (acts.pop() if acts else None)


def _policy_of(model: Any) -> tuple[Any, str]:
    """The actor-critic policy of ``model`` (MaskablePPO / PPO, or the policy itself) and the algorithm name."""
    import torch.nn as nn

    policy = getattr(model, "policy", model)
    if not (
        isinstance(policy, nn.Module)
        and isinstance(getattr(policy, "mlp_extractor", None), nn.Module)
        and isinstance(getattr(policy, "action_net", None), nn.Linear)
    ):
        raise ValueError(
            f"save_checkpoint needs a MaskablePPO (or PPO) model with an MlpPolicy, got {type(model).__name__}"
        )
    algorithm = type(model).__name__ if policy is not model else "MaskablePPO"
    return policy, algorithm


def policy_tensors(model: Any, include_value: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tensors to keep of ``model``'s policy and the ``policy`` / size metadata describing them."""
    import gymnasium as gym
    from stable_baselines3.common.preprocessing import is_image_space
    from stable_baselines3.common.torch_layers import FlattenExtractor

    policy, algorithm = _policy_of(model)
    if not isinstance(policy.action_space, gym.spaces.Discrete):
        raise ValueError(f"only Discrete action spaces are supported, got {policy.action_space}")
    if not isinstance(policy.observation_space, gym.spaces.Box):
        raise ValueError(f"only Box observation spaces are supported, got {policy.observation_space}")
    if policy.normalize_images and is_image_space(policy.observation_space):
        raise ValueError("image observations (divided by 255 by SB3) are not supported by herozoo checkpoints")
    for name in ("features_extractor", "pi_features_extractor", "vf_features_extractor"):
        fe = getattr(policy, name, None)
        if fe is not None and (type(fe) is not FlattenExtractor or any(True for _ in fe.parameters())):
            raise ValueError(f"policy.{name} is {type(fe).__name__}; only the MlpPolicy FlattenExtractor is supported")
    pi_arch, pi_act = _mlp_arch(policy.mlp_extractor.policy_net, "mlp_extractor.policy_net")
    vf_arch, vf_act = _mlp_arch(policy.mlp_extractor.value_net, "mlp_extractor.value_net")
    activation = pi_act or vf_act or ("relu" if policy.activation_fn.__name__ == "ReLU" else "tanh")
    if pi_act and vf_act and pi_act != vf_act:
        raise ValueError(f"policy and value nets use different activations ({pi_act}, {vf_act})")
    obs_size = int(np.prod(policy.observation_space.shape))
    n_actions = int(policy.action_space.n)
    state = policy.state_dict()
    keep = {}
    for k, v in state.items():
        if k.startswith(PI_PREFIX) or k.startswith("action_net."):
            keep[k] = v
        elif include_value and (k.startswith(VF_PREFIX) or k.startswith("value_net.")):
            keep[k] = v
    keep = {k: v.detach().to("cpu").clone().contiguous() for k, v in keep.items()}
    info = {
        "observation_size": obs_size,
        "num_actions": n_actions,
        "algorithm": algorithm,
        "policy": {
            "net_arch_pi": pi_arch,
            **({"net_arch_vf": vf_arch} if include_value else {}),
            "activation": activation,
        },
    }
    shapes = expected_shapes(info)
    got = {k: tuple(v.shape) for k, v in keep.items()}
    if got != shapes:  # SB3 changed its layout: refuse rather than write something unloadable
        raise ValueError(f"unexpected SB3 policy layout: tensors {got}, expected {shapes}")
    return keep, info


def save_checkpoint(
    model: Any, path: str | os.PathLike, metadata: Mapping[str, Any], include_value: bool = True
) -> Path:
    """Write ``<path>.pt`` (policy tensors) and ``<path>.json`` (metadata) atomically; return the ``.json``.

    ``path`` is the checkpoint name (a ``.json`` / ``.pt`` suffix is dropped); its folder is
    created. ``metadata`` must hold ``env_id``; ``env_options`` (default ``{}``),
    ``observation_size`` / ``num_actions`` (default and checked: the model's), ``training_steps``
    (default ``model.num_timesteps``), ``seed`` (default ``model.seed``), ``parent`` (default
    None), ``evaluation`` and any other JSON-serialisable keys are stored as given.
    """
    import torch

    base = _base_path(path)
    meta_in = dict(metadata)
    env_id = meta_in.get("env_id")
    if not isinstance(env_id, str) or not env_id:
        raise ValueError(f"checkpoint metadata needs 'env_id' (a non-empty string), got {env_id!r}")
    tensors, info = policy_tensors(model, include_value=include_value)
    for key in ("observation_size", "num_actions"):
        if key in meta_in and meta_in[key] != info[key]:
            raise ValueError(f"metadata says {key}={meta_in[key]!r} but the model has {key}={info[key]}")
    sizes = _registered_sizes(env_id)
    if sizes is not None and sizes != (info["observation_size"], info["num_actions"]):
        raise ValueError(
            f"{env_id} has observation_size={sizes[0]} and num_actions={sizes[1]}, but the model has "
            f"observation_size={info['observation_size']} and num_actions={info['num_actions']}"
        )
    env_options = meta_in.get("env_options", {})
    if env_options is None:
        env_options = {}
    if not isinstance(env_options, Mapping):
        raise ValueError(f"metadata 'env_options' must be a dict, got {type(env_options).__name__}")
    for key in _COMPUTED_CHECKED:
        expected = {"format": FORMAT, "format_version": FORMAT_VERSION}.get(key, info.get(key))
        if key in meta_in and meta_in[key] != expected:
            raise ValueError(f"metadata {key!r} is set by save_checkpoint ({expected!r}); got {meta_in[key]!r}")
    for key in _COMPUTED_FRESH:
        meta_in.pop(key, None)

    buf = io.BytesIO()
    torch.save(tensors, buf)
    data = buf.getvalue()
    sha = _sha256(data)
    json_path, pt_path = Path(f"{base}.json"), Path(f"{base}.pt")
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "env_id": env_id,
        "env_options": dict(env_options),
        "observation_size": info["observation_size"],
        "num_actions": info["num_actions"],
        "algorithm": info["algorithm"],
        "policy": info["policy"],
        "training_steps": meta_in.pop("training_steps", getattr(model, "num_timesteps", None)),
        "seed": meta_in.pop("seed", getattr(model, "seed", None)),
        "parent": meta_in.pop("parent", None),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "weights_file": pt_path.name,
        "weights_sha256": sha,
    }
    for k, v in meta_in.items():
        meta.setdefault(k, v)
    json_data = _json_bytes(meta, json_path)  # fail on bad metadata before touching any file

    base.parent.mkdir(parents=True, exist_ok=True)
    pt_tmp = _write_temp(pt_path, data)
    try:
        if json_path.exists():
            try:
                old_sha = json.loads(json_path.read_bytes()).get("weights_sha256")
            except (OSError, ValueError, AttributeError):
                old_sha = None
            if old_sha != sha:  # never leave the old .json describing the new weights
                json_path.unlink()
                _fsync_dir(json_path.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(pt_tmp)
        raise
    _replace(pt_tmp, pt_path)
    atomic_write_bytes(json_path, json_data)
    return json_path


def update_checkpoint_metadata(path: str | os.PathLike, **fields: Any) -> dict[str, Any]:
    """Add or change metadata fields of an existing checkpoint atomically; return the new metadata.

    ``evaluation`` is merged key by key (so results against different opponents accumulate);
    every other field is replaced. Fields describing the weights (env id, sizes, policy, weights
    file and hash, format) cannot be changed.
    """
    json_path = resolve_checkpoint(path)
    meta = _read_metadata_file(json_path)
    frozen = sorted(set(fields) & set(_FROZEN))
    if frozen:
        raise ValueError(f"{json_path}: metadata fields {frozen} describe the weights and cannot be changed")
    meta = copy.deepcopy(meta)
    for k, v in fields.items():
        if k == "evaluation" and isinstance(v, Mapping) and isinstance(meta.get(k), dict):
            meta[k].update(v)
        else:
            meta[k] = v
    atomic_write_bytes(json_path, _json_bytes(meta, json_path))
    return meta


def copy_checkpoint(src: str | os.PathLike, dst: str | os.PathLike, **fields: Any) -> Path:
    """Copy a checkpoint to the name ``dst`` (e.g. ``run/best``), verifying it; return the new ``.json``.

    ``fields`` are added to the copy's metadata as in :func:`update_checkpoint_metadata`.
    """
    src_json = resolve_checkpoint(src)
    _, meta = load_checkpoint(src_json)
    data = (src_json.parent / meta["weights_file"]).read_bytes()
    if _sha256(data) != meta["weights_sha256"]:
        raise CheckpointError(f"{src_json.parent / meta['weights_file']}: weights file changed while being copied")
    base = _base_path(dst)
    json_path, pt_path = Path(f"{base}.json"), Path(f"{base}.pt")
    if json_path.resolve() == src_json.resolve():
        raise ValueError(f"copy_checkpoint: source and destination are the same checkpoint {src_json}")
    meta = copy.deepcopy(meta)
    frozen = sorted(set(fields) & set(_FROZEN))
    if frozen:
        raise ValueError(f"metadata fields {frozen} describe the weights and cannot be changed")
    for k, v in fields.items():
        if k == "evaluation" and isinstance(v, Mapping) and isinstance(meta.get(k), dict):
            meta[k].update(v)
        else:
            meta[k] = v
    meta["weights_file"] = pt_path.name
    json_data = _json_bytes(meta, json_path)
    base.parent.mkdir(parents=True, exist_ok=True)
    pt_tmp = _write_temp(pt_path, data)
    if json_path.exists():
        try:
            old_sha = json.loads(json_path.read_bytes()).get("weights_sha256")
        except (OSError, ValueError, AttributeError):
            old_sha = None
        if old_sha != meta["weights_sha256"]:
            with contextlib.suppress(FileNotFoundError):
                json_path.unlink()
    _replace(pt_tmp, pt_path)
    atomic_write_bytes(json_path, json_data)
    return json_path


# --------------------------------------------------------------------------------------------
# loading


def _reason(e: BaseException) -> str:
    """The informative part of a torch.load error (torch wraps it in long advice about weights_only)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
    m = re.search(r"WeightsUnpickler error: (.*?)(?: Please use|\n|$)", text)
    if m:
        return m.group(1).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(e).__name__


def _load_tensors(pt_path: Path, data: bytes) -> dict[str, np.ndarray]:
    import pickle

    import torch

    try:
        obj = torch.load(io.BytesIO(data), weights_only=True, map_location="cpu")
    except pickle.UnpicklingError as e:
        raise CheckpointError(
            f"{pt_path}: refused: the weights file holds objects other than plain tensors ({_reason(e)}); "
            "herozoo never unpickles those, so the file is damaged or unsafe"
        ) from e
    except Exception as e:  # truncated zip, bad pickle stream, ...
        raise CheckpointError(f"{pt_path}: weights file is damaged: torch.load failed: {_reason(e)}") from e
    if not isinstance(obj, dict):
        raise CheckpointError(f"{pt_path}: weights file must hold a dict of tensors, got {type(obj).__name__}")
    out = {}
    for k, v in obj.items():
        if not isinstance(k, str) or not isinstance(v, torch.Tensor):
            raise CheckpointError(
                f"{pt_path}: weights file must hold a dict of name -> tensor; entry {k!r} is {type(v).__name__}"
            )
        if not v.is_floating_point():
            raise CheckpointError(f"{pt_path}: tensor {k!r} has dtype {v.dtype}, expected a floating point type")
        out[k] = v.detach().to("cpu", torch.float32).numpy().copy()
    return out


def _check_weights(weights: Mapping[str, np.ndarray], meta: Mapping[str, Any], pt_path: Path) -> None:
    shapes = expected_shapes(meta)
    missing = sorted(set(shapes) - set(weights))
    unexpected = sorted(set(weights) - set(shapes))
    if missing or unexpected:
        parts = []
        if missing:
            parts.append(f"missing tensors {missing}")
        if unexpected:
            parts.append(f"unexpected tensors {unexpected}")
        raise CheckpointError(
            f"{pt_path}: weights do not match the metadata's network "
            f"(net_arch_pi={meta['policy']['net_arch_pi']}, net_arch_vf={meta['policy'].get('net_arch_vf')}): "
            + "; ".join(parts)
        )
    for k, shape in shapes.items():
        if tuple(weights[k].shape) != shape:
            raise CheckpointError(
                f"{pt_path}: tensor {k!r} has shape {tuple(weights[k].shape)}, but the metadata "
                f"(observation_size={meta['observation_size']}, num_actions={meta['num_actions']}, "
                f"net_arch_pi={meta['policy']['net_arch_pi']}) implies {shape}"
            )
        if not np.isfinite(weights[k]).all():
            raise CheckpointError(f"{pt_path}: tensor {k!r} contains NaN or infinite values (training diverged?)")


def _check_fits(meta, json_path, env_id, observation_size, num_actions) -> None:
    if env_id is not None and meta["env_id"] != env_id:
        raise CheckpointError(
            f"{json_path}: checkpoint was made for env id {meta['env_id']!r}, but {env_id!r} was asked for"
        )
    if env_id is not None and (observation_size is None or num_actions is None):
        sizes = _registered_sizes(env_id)
        if sizes is not None:
            observation_size = sizes[0] if observation_size is None else observation_size
            num_actions = sizes[1] if num_actions is None else num_actions
    if observation_size is not None and meta["observation_size"] != observation_size:
        raise CheckpointError(
            f"{json_path}: checkpoint expects observations of length {meta['observation_size']}, "
            f"but the env gives length {observation_size}"
        )
    if num_actions is not None and meta["num_actions"] != num_actions:
        raise CheckpointError(
            f"{json_path}: checkpoint has {meta['num_actions']} actions, but the env has {num_actions}"
        )


def _load(path, env_id=None, observation_size=None, num_actions=None):
    json_path = resolve_checkpoint(path)
    meta = _read_metadata_file(json_path)
    _check_fits(meta, json_path, env_id, observation_size, num_actions)
    pt_path = json_path.parent / meta["weights_file"]
    _refuse_zip(pt_path)
    try:
        data = pt_path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"{json_path}: its weights file {pt_path} is missing") from None
    except OSError as e:
        raise CheckpointError(f"{pt_path}: cannot read weights file: {e}") from e
    sha = _sha256(data)
    if sha != meta["weights_sha256"]:
        raise CheckpointError(
            f"{pt_path}: weights file is damaged: its sha256 is {sha[:16]}..., but {json_path.name} "
            f"records {meta['weights_sha256'][:16]}... (truncated, modified, or replaced after saving)"
        )
    weights = _load_tensors(pt_path, data)
    _check_weights(weights, meta, pt_path)
    return weights, meta, json_path


def load_checkpoint(
    path: str | os.PathLike,
    env_id: str | None = None,
    observation_size: int | None = None,
    num_actions: int | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Weights (float32 numpy arrays under SB3's key names) and metadata of a checkpoint.

    ``path``: see :func:`resolve_checkpoint`. With ``env_id``, the checkpoint must have been made
    for it, and for a registered env id its observation length and action count are checked too;
    ``observation_size`` / ``num_actions`` check those explicitly.
    """
    weights, meta, _ = _load(path, env_id, observation_size, num_actions)
    return weights, meta


# --------------------------------------------------------------------------------------------
# numpy inference


_MAX = np.maximum.reduce
_CUMSUM = np.add.accumulate
TORCH_MIN_BATCH = 4  # NumpyMLPPolicy.logits: batches this large go through torch (see there)


def _draw(legal: np.ndarray, legal_logits: np.ndarray, u: float) -> int:
    """A legal action drawn from the softmax of its logits with the uniform ``u`` in [0, 1).

    ``legal_logits`` (float32, overwritten) minus their max, exponentiated, summed cumulatively;
    the first whose sum exceeds ``u`` times the total. ``u`` a Python float: ``u * total`` stays
    float32, as in the full-width sampler this replaces (a rounding to the total itself gives the
    last legal action, as there).
    """
    np.subtract(legal_logits, _MAX(legal_logits), out=legal_logits)
    np.exp(legal_logits, out=legal_logits)
    cdf = _CUMSUM(legal_logits)
    a = int(cdf.searchsorted(u * cdf[-1], side="right"))
    n = legal.shape[0]
    return int(legal[a if a < n else n - 1])


class NumpyMLPPolicy:
    """The policy network of a checkpoint, evaluated in numpy float32.

    ``act`` reproduces ``MaskablePPO.predict(obs, action_masks=mask, deterministic=True)`` when
    ``deterministic`` (masked argmax), and samples from the masked softmax with its own
    ``np.random.Generator(seed)`` otherwise. Not thread-safe (``act`` reuses buffers).
    """

    def __init__(
        self,
        weights: Mapping[str, np.ndarray],
        metadata: Mapping[str, Any],
        deterministic: bool = True,
        seed: int | None = None,
        name: str = "checkpoint",
    ):
        self.metadata = dict(metadata)
        self.name = name
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(seed)
        self.observation_size = int(metadata["observation_size"])
        self.num_actions = int(metadata["num_actions"])
        self.activation = metadata["policy"]["activation"]
        arch = list(metadata["policy"]["net_arch_pi"])
        f32 = np.float32
        self._layers: list[tuple[np.ndarray, np.ndarray]] = []  # (W^T [in, out], b [out])
        for i in range(len(arch)):
            w = weights[f"{PI_PREFIX}{2 * i}.weight"]
            b = weights[f"{PI_PREFIX}{2 * i}.bias"]
            self._layers.append((np.ascontiguousarray(w.T, dtype=f32), np.ascontiguousarray(b, dtype=f32)))
        self._out = (
            np.ascontiguousarray(weights["action_net.weight"].T, dtype=f32),
            np.ascontiguousarray(weights["action_net.bias"], dtype=f32),
        )
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"unsupported activation {self.activation!r}")
        self._relu = self.activation == "relu"
        # single-observation act(): each hidden layer as (W^T, b, output buffer), computed in place
        self._obs_buf = np.empty(self.observation_size, f32)
        self._hidden = [(w, b, np.empty(b.shape[0], f32)) for w, b in self._layers]
        self._logit_buf = np.empty(self.num_actions, f32)
        self._mask_shape = (self.num_actions,)
        self._torch_layers: list | bool | None = None  # built on the first large batch; False: no torch

    def _activate(self, x: np.ndarray) -> None:
        if self._relu:
            np.maximum(x, 0.0, out=x)
        else:
            np.tanh(x, out=x)

    def logits(self, obs_batch: np.ndarray) -> np.ndarray:
        """Unmasked action logits ``[B, num_actions]`` for observations ``[B, observation_size]``.

        Batches of ``TORCH_MIN_BATCH`` or more are multiplied by torch (same float32 weights, read
        in place): numpy's bundled OpenBLAS packs the whole weight matrix for every matrix product,
        and from about 4 rows on that costs more than torch's products (with 8 rows, about 2x in a
        warm-cache micro-benchmark, 1.3x with the weights out of cache as between env steps).
        """
        x = np.asarray(obs_batch, dtype=np.float32)
        x = x.reshape(x.shape[0] if x.ndim > 1 else 1, -1)
        if x.shape[1] != self.observation_size:
            raise ValueError(f"observations have length {x.shape[1]}, the policy expects {self.observation_size}")
        if x.shape[0] >= TORCH_MIN_BATCH and self._torch_layers is not False:
            out = self._logits_torch(x)
            if out is not None:
                return out
        for w, b in self._layers:
            x = x @ w
            x += b
            self._activate(x)
        w, b = self._out
        out = x @ w
        out += b
        return out

    def _logits_torch(self, x: np.ndarray) -> np.ndarray | None:
        """``logits`` by torch's matrix products on the same float32 arrays; None without torch."""
        layers = self._torch_layers
        if layers is None:
            try:
                import torch
            except ImportError:
                self._torch_layers = False
                return None
            self._torch_fns = (torch.from_numpy, torch.addmm)
            layers = self._torch_layers = [
                (torch.from_numpy(w), torch.from_numpy(b)) for w, b in (*self._layers, self._out)
            ]
        from_numpy, addmm = self._torch_fns
        h = from_numpy(x if x.flags.writeable else x.copy())
        last = len(layers) - 1
        for i, (w, b) in enumerate(layers):
            h = addmm(b, h, w)
            if i < last:
                if self._relu:
                    h.relu_()
                else:
                    h.tanh_()
        return h.numpy()

    def _as_observation(self, observation: np.ndarray) -> np.ndarray:
        """``observation`` as a 1-D C-contiguous float32 vector (read in place when it is one, else
        flattened and cast into a reused buffer); a wrong length is a ValueError."""
        x = observation
        if type(x) is not np.ndarray or x.ndim != 1 or x.dtype != np.float32 or not x.flags.c_contiguous:
            x = np.asarray(x)
            if x.size != self.observation_size:
                raise ValueError(f"observation has length {x.size}, the policy expects {self.observation_size}")
            self._obs_buf[...] = x.reshape(-1)  # flattened and cast to float32
            x = self._obs_buf
        elif x.shape[0] != self.observation_size:
            raise ValueError(f"observation has length {x.size}, the policy expects {self.observation_size}")
        return x

    def _as_mask(self, action_mask: np.ndarray) -> np.ndarray:
        """``action_mask`` as a 1-D bool or signed-int vector (read in place when it is one, else
        flattened and compared with 0); a wrong length is a ValueError."""
        mask = action_mask
        if type(mask) is not np.ndarray or mask.shape != self._mask_shape or mask.dtype.kind not in "bi":
            mask = np.asarray(mask).reshape(-1)
            if mask.shape[0] != self.num_actions:
                raise ValueError(f"action mask has length {mask.shape[0]}, the policy has {self.num_actions} actions")
            mask = mask != 0
        return mask

    def _logits_one(self, observation: np.ndarray) -> np.ndarray:
        """Logits of one observation into a reused buffer (matrix-vector products; ``logits`` is batched)."""
        x = self._as_observation(observation)
        matmul, add = np.matmul, np.add
        act = np.maximum if self._relu else None
        for w, b, buf in self._hidden:
            matmul(x, w, out=buf)
            add(buf, b, out=buf)
            if act is None:
                np.tanh(buf, out=buf)
            else:
                act(buf, 0.0, out=buf)
            x = buf
        w, b = self._out
        out = self._logit_buf
        matmul(x, w, out=out)
        add(out, b, out=out)
        return out

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        """The action for one observation; only actions the mask allows are chosen.

        Only the legal actions' logits are looked at: the masked argmax, or a draw from the softmax
        over the legal logits (the same float32 values, cumulative sums and uniform draw as a
        softmax over all actions with the illegal ones at probability 0, so the same action).
        """
        logits = self._logits_one(observation)
        legal = self._as_mask(action_mask).nonzero()[0]
        if legal.shape[0] == 0:
            raise ValueError("the action mask allows no action")
        if self.deterministic:
            return int(legal[logits[legal].argmax()])
        return _draw(legal, logits[legal], self.rng.random())

    def seat_actor(self) -> SeatActor:
        """An actor for one seat's successive observations, with an incrementally updated first
        layer (:class:`SeatActor`); it shares this policy's weights and random generator."""
        return SeatActor(self)

    def probabilities(self, obs_batch: np.ndarray, mask_batch: np.ndarray) -> np.ndarray:
        """Masked softmax ``[B, num_actions]`` (what MaskablePPO samples from)."""
        logits = self.logits(obs_batch)
        mask = self._mask_batch(mask_batch, logits.shape)
        logits[~mask] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        np.exp(logits, out=logits)
        logits /= logits.sum(axis=1, keepdims=True)
        return logits

    def act_batch(self, obs_batch: np.ndarray, mask_batch: np.ndarray) -> np.ndarray:
        """Actions ``int64[B]`` for a batch of observations and masks.

        Row by row what ``act`` chooses (up to the float rounding of a batched matrix product):
        a sampling policy draws its B uniforms at once, the same numbers as B ``act`` calls. A
        batch of one is ``act`` itself.
        """
        if len(obs_batch) == 1 and len(mask_batch) == 1:
            return np.array([self.act(obs_batch[0], mask_batch[0])], np.int64)
        logits = self.logits(obs_batch)
        mask = self._mask_batch(mask_batch, logits.shape)
        if self.deterministic:
            logits[~mask] = -np.inf
            return logits.argmax(axis=1).astype(np.int64, copy=False)
        draws = self.rng.random(len(logits)).tolist()
        actions = np.empty(len(logits), np.int64)
        for i, u in enumerate(draws):
            legal = mask[i].nonzero()[0]
            actions[i] = _draw(legal, logits[i, legal], u)
        return actions

    def _mask_batch(self, mask_batch: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
        mask = np.asarray(mask_batch)
        if mask.size != shape[0] * shape[1]:
            raise ValueError(
                f"action masks have {mask.size} entries, expected {shape[0]} x {self.num_actions} for "
                f"{shape[0]} observations"
            )
        mask = mask.reshape(shape) != 0
        if not mask.any(axis=1).all():
            raise ValueError(f"action mask rows {np.flatnonzero(~mask.any(axis=1)).tolist()} allow no action")
        return mask

    def __repr__(self) -> str:
        arch = [w.shape[1] for w, _ in self._layers]
        return (
            f"{type(self).__name__}(name={self.name!r}, env_id={self.metadata.get('env_id')!r}, "
            f"net_arch_pi={arch}, activation={self.activation!r}, deterministic={self.deterministic})"
        )


class SeatActor:
    """A :class:`NumpyMLPPolicy` playing one seat: ``act`` for that seat's successive observations.

    Each decision is one compiled call (:func:`training.mlp_kernel.seat_step`) that updates the
    first layer from the observation entries that changed since this seat's previous observation
    and then runs the rest of the network and the choice. The update is exact whichever observation
    came before (the bookkeeping decides the cost, never the result), so an actor fed another
    seat's or another game's observations still chooses what the policy would; the first layer is
    rebuilt in full every ``REBUILD_EVERY`` updates to bound float drift. The action is the one
    :meth:`NumpyMLPPolicy.act` chooses up to float32 rounding of the logits, with the policy's own
    random generator (one uniform per sampled decision, as ``act`` draws). Without numba the actor
    is :meth:`NumpyMLPPolicy.act` itself.

    ``training.policies.seat_actor(policy)`` gives one; every seat of every game needs its own
    (it is cheap: a few vectors). Counters: ``incremental_updates`` and ``rebuilds``.
    """

    REBUILD_EVERY = 64

    def __init__(self, policy: NumpyMLPPolicy):
        self.policy = policy
        self.name = policy.name
        n_in = policy.observation_size
        self._ws = tuple(w for w, _ in policy._layers) + (policy._out[0],)
        self._bs = tuple(b for _, b in policy._layers) + (policy._out[1],)
        self._prev = np.zeros(n_in, np.float32)
        self._pre = self._bs[0].astype(np.float64)  # the first layer's pre-activation of the zero observation
        self._changed = np.empty(n_in, np.int64)
        width = max(w.shape[1] for w in self._ws)
        self._buf_a = np.empty(width, np.float32)
        self._buf_b = np.empty(width, np.float32)
        self.logits = np.empty(policy.num_actions, np.float32)  # of the last decision
        self._since_rebuild = 0
        self.incremental_updates = 0
        self.rebuilds = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        """The action :meth:`NumpyMLPPolicy.act` would choose (up to float32 rounding of the logits)."""
        policy = self.policy
        if seat_step is None:  # pragma: no cover - numba missing
            return policy.act(observation, action_mask, state)
        x = policy._as_observation(observation)
        mask = policy._as_mask(action_mask)
        deterministic = policy.deterministic
        u = 0.0 if deterministic else policy.rng.random()
        rebuild = self._since_rebuild >= self.REBUILD_EVERY
        action, rows = seat_step(
            x,
            self._prev,
            self._pre,
            self._changed,
            self._ws,
            self._bs,
            policy._relu,
            mask,
            u,
            deterministic,
            rebuild,
            self._buf_a,
            self._buf_b,
            self.logits,
        )
        if action < 0:
            raise ValueError("the action mask allows no action")
        if rows < 0:
            self._since_rebuild = 0
            self.rebuilds += 1
        else:
            self._since_rebuild += 1
            self.incremental_updates += 1
        return action

    def __repr__(self) -> str:
        return f"SeatActor({self.policy!r})"


class CheckpointPolicy(NumpyMLPPolicy):
    """A checkpoint as a :class:`training.policies.Policy`: ``load_checkpoint`` + :class:`NumpyMLPPolicy`.

    ``name`` is the checkpoint's file stem, or ``<folder>/<stem>`` for ``best`` / ``latest``.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        env_id: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ):
        weights, meta, json_path = _load(path, env_id=env_id)
        stem = json_path.stem
        name = f"{json_path.parent.name}/{stem}" if stem in ("best", "latest") and json_path.parent.name else stem
        super().__init__(weights, meta, deterministic=deterministic, seed=seed, name=name)
        self.path = json_path


__all__ = [
    "CheckpointError",
    "CheckpointPolicy",
    "NumpyMLPPolicy",
    "SeatActor",
    "copy_checkpoint",
    "expected_shapes",
    "load_checkpoint",
    "read_checkpoint_metadata",
    "resolve_checkpoint",
    "save_checkpoint",
    "update_checkpoint_metadata",
]
