"""Playing a checkpoint: its policy network in numpy float32, and per-seat actors.

Inference runs in numpy (:class:`NumpyMLPPolicy`) and reproduces MaskablePPO's deterministic
choice (masked argmax of the logits). Observation preprocessing is the ``MlpPolicy`` one for a
``Box`` space, i.e. none: observations are only flattened and cast to float32 (a ``VecNormalize``
wrapper used in training would not be part of the checkpoint; herozoo does not use one).
:class:`SeatActor` plays one seat of one game in one compiled call per decision
(:mod:`training.runtime.mlp_kernel`). :class:`CheckpointPolicy` loads a checkpoint file
(:mod:`training.runtime.checkpoints`) as a :class:`training.runtime.policies.Policy`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from training.runtime.checkpoints import ACTIVATIONS, PI_PREFIX, VF_PREFIX, load_checkpoint_file
from training.runtime.mlp_kernel import seat_step

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
        # the value head (search's leaf evaluator), when the checkpoint kept it
        vf_arch = metadata["policy"].get("net_arch_vf")
        self._value_layers: list[tuple[np.ndarray, np.ndarray]] | None = None
        if vf_arch is not None and "value_net.weight" in weights:
            self._value_layers = [
                (
                    np.ascontiguousarray(weights[f"{VF_PREFIX}{2 * i}.weight"].T, dtype=f32),
                    np.ascontiguousarray(weights[f"{VF_PREFIX}{2 * i}.bias"], dtype=f32),
                )
                for i in range(len(vf_arch))
            ]
            self._value_out = (
                np.ascontiguousarray(weights["value_net.weight"].T, dtype=f32),
                np.ascontiguousarray(weights["value_net.bias"], dtype=f32),
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

    @property
    def has_value(self) -> bool:
        """Whether the checkpoint kept its value head (``values`` works)."""
        return self._value_layers is not None

    def values(self, obs_batch: np.ndarray) -> np.ndarray:
        """The value head's estimate ``float32[B]`` for observations ``[B, observation_size]``: the
        return the seat that observes expects from here (MaskablePPO's critic)."""
        if self._value_layers is None:
            raise ValueError(f"{self.name}: this checkpoint was saved without its value head")
        x = np.asarray(obs_batch, dtype=np.float32)
        x = x.reshape(x.shape[0] if x.ndim > 1 else 1, -1)
        if x.shape[1] != self.observation_size:
            raise ValueError(f"observations have length {x.shape[1]}, the policy expects {self.observation_size}")
        out = np.empty(x.shape[0], np.float32)
        for row in range(x.shape[0]):  # vector products: a small matrix product wakes BLAS threads (ms each)
            h = x[row]
            for w, b in self._value_layers:
                h = h @ w
                h += b
                self._activate(h)
            w, b = self._value_out
            out[row] = float(h @ w[:, 0]) + float(b[0])
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

    Each decision is one compiled call (:func:`training.runtime.mlp_kernel.seat_step`) that updates the
    first layer from the observation entries that changed since this seat's previous observation
    and then runs the rest of the network and the choice. The update is exact whichever observation
    came before (the bookkeeping decides the cost, never the result), so an actor fed another
    seat's or another game's observations still chooses what the policy would; the first layer is
    rebuilt in full every ``REBUILD_EVERY`` updates to bound float drift. The action is the one
    :meth:`NumpyMLPPolicy.act` chooses up to float32 rounding of the logits, with the policy's own
    random generator (one uniform per sampled decision, as ``act`` draws). Without numba the actor
    is :meth:`NumpyMLPPolicy.act` itself.

    ``training.runtime.policies.seat_actor(policy)`` gives one; every seat of every game needs its own
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
    """A checkpoint as a :class:`training.runtime.policies.Policy`: ``load_checkpoint`` + :class:`NumpyMLPPolicy`.

    ``name`` is the checkpoint's file stem, or ``<folder>/<stem>`` for ``best`` / ``latest``.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        env_id: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ):
        weights, meta, json_path = load_checkpoint_file(path, env_id=env_id)
        stem = json_path.stem
        name = f"{json_path.parent.name}/{stem}" if stem in ("best", "latest") and json_path.parent.name else stem
        super().__init__(weights, meta, deterministic=deterministic, seed=seed, name=name)
        self.path = json_path


__all__ = ["CheckpointPolicy", "NumpyMLPPolicy", "SeatActor"]
