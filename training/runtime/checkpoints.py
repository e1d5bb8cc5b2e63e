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

This module is the file format and its validation; playing a checkpoint is
:mod:`training.runtime.inference` (numpy, no torch).

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

from training.atomic import atomic_write_bytes, fsync_dir, replace, write_temp

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
            "written by training.runtime.checkpoints.save_checkpoint) are loaded, because .zip models hold "
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


def _registered_sizes(env_id: str, env_options: Mapping[str, Any] | None = None) -> tuple[int, int] | None:
    """(observation_size, num_actions) of a registered env id with the observation options
    (``Game.observation_options``) among ``env_options``; None for an unregistered id."""
    import envs

    if env_id not in envs.ENV_IDS:
        return None
    game = envs.game_class(env_id)
    given = env_options if isinstance(env_options, Mapping) else {}
    shaping = {k: v for k, v in given.items() if k in game.observation_options}
    if not shaping:
        try:
            return int(game.observation_layout.size), int(game.action_layout.num_actions)
        except AttributeError:  # a game computing its layouts per instance
            pass
    try:
        g = game(**shaping)
    except ValueError as e:
        raise CheckpointError(f"{env_id}: the checkpoint's observation options {shaping} are not valid: {e}") from e
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
    sizes = _registered_sizes(env_id, meta_in.get("env_options"))
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
        sizes = _registered_sizes(env_id, meta.get("env_options"))
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


def load_checkpoint_file(path, env_id=None, observation_size=None, num_actions=None):
    """:func:`load_checkpoint`, plus the path of the metadata file that was read."""
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
    weights, meta, _ = load_checkpoint_file(path, env_id, observation_size, num_actions)
    return weights, meta


# --------------------------------------------------------------------------------------------
__all__ = [
    "CheckpointError",
    "copy_checkpoint",
    "expected_shapes",
    "load_checkpoint",
    "load_checkpoint_file",
    "read_checkpoint_metadata",
    "resolve_checkpoint",
    "save_checkpoint",
    "update_checkpoint_metadata",
]
