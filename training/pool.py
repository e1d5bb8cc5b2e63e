"""The opponent pool of a self-play run: snapshots of the learner, with a persistent manifest.

The manifest (``pool.json`` in the pool folder) lists every snapshot with its checkpoint path,
training steps, parent and evaluation results (its promotion score), and which one is the current best. It is
rewritten atomically, survives restarts, and is read by the training env workers (which reload it
when it changes), by evaluation and by play.

Sampling a seat's policy (SIMPLE-style self-play, :class:`PoolSampler`): with the given
probabilities a fixed policy (``random``, ``heuristic``, a checkpoint); otherwise a snapshot, by
``latest``, ``mostly_latest`` (the latest with probability ``latest_prob``, else uniform over the
``pool_size`` most recent) or ``uniform``; for cooperative partners the rest is the learner
itself. A snapshot becomes ``best`` only when it beats the current best (``training.train``'s
promotion, by the measure of the game's kind).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from training.atomic import atomic_write_text
from training.runtime.policies import Policy, load_policy

MANIFEST = "pool.json"
SAMPLING = ("latest", "mostly_latest", "uniform")
POOL = "pool"  # the seat-policy spec of "a snapshot of this run's pool"


class OpponentPool:
    """Snapshots of one run, persisted in ``root/pool.json``."""

    def __init__(self, root: str | Path, env_id: str):
        self.root = Path(root)
        self.env_id = env_id
        self.snapshots: list[dict[str, Any]] = []
        self.best: str | None = None
        path = self.root / MANIFEST
        if path.exists():
            data = json.loads(path.read_text())
            if data.get("env_id") != env_id:
                raise ValueError(f"pool {path} belongs to {data.get('env_id')!r}, not {env_id!r}")
            self.snapshots = data["snapshots"]
            self.best = data.get("best")

    # -- writing --------------------------------------------------------------------------
    def save(self) -> None:
        data = {"env_id": self.env_id, "best": self.best, "snapshots": self.snapshots}
        atomic_write_text(self.root / MANIFEST, json.dumps(data, indent=1))

    def add_snapshot(self, model, steps: int, metadata: dict[str, Any]) -> dict[str, Any]:
        """Export ``model`` as a safe checkpoint into the pool and record it (atomically)."""
        from training.runtime.checkpoints import save_checkpoint

        name = f"snapshot_{steps:09d}"
        parent = self.snapshots[-1]["name"] if self.snapshots else None
        save_checkpoint(model, self.root / "snapshots" / name, dict(metadata, training_steps=steps, parent=parent))
        entry = {
            "name": name,
            "path": f"snapshots/{name}.json",
            "steps": steps,
            "parent": parent,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "evaluation": {},
            "rating": None,
        }
        self.snapshots = [s for s in self.snapshots if s["name"] != name] + [entry]
        if self.best is None:
            self.best = name
        self.save()
        return entry

    def record(self, name: str, evaluation: dict[str, Any] | None = None, rating: Any = None) -> None:
        entry = self.entry(name)
        if evaluation:
            entry["evaluation"].update(evaluation)
        if rating is not None:
            entry["rating"] = rating
        self.save()

    def promote(self, name: str) -> None:
        self.entry(name)
        self.best = name
        self.save()

    # -- reading --------------------------------------------------------------------------
    def entry(self, name: str) -> dict[str, Any]:
        for s in self.snapshots:
            if s["name"] == name:
                return s
        raise KeyError(f"no snapshot {name!r} in {self.root / MANIFEST}")

    def path_of(self, name: str) -> Path:
        return self.root / self.entry(name)["path"]

    @property
    def latest(self) -> str | None:
        return self.snapshots[-1]["name"] if self.snapshots else None


class PoolSampler:
    """Draws the policy of one seat for an episode; re-reads the manifest when it changes.

    ``weights`` maps policy specs (``random``, ``heuristic``, a checkpoint path, or ``pool``: a
    snapshot of this run's pool) to the chance of that spec per seat per episode, summing to at
    most 1. The rest goes to ``rest``: ``"pool"`` (competitive opponents: a snapshot) or
    ``"learner"`` (cooperative partners: :meth:`sample` returns None and the learner plays that
    seat). While the pool is empty, a pool draw of an opponent goes to the other specs in their
    relative weights (random when there are none), and a pool draw of a partner to the learner.
    """

    def __init__(
        self,
        root: str | Path,
        env_id: str,
        sampling: str = "mostly_latest",
        latest_prob: float = 0.8,
        weights: dict[str, float] | None = None,
        pool_size: int = 10,
        deterministic: bool = False,
        seed: int | None = None,
        rest: str = "pool",
    ):
        if sampling not in SAMPLING:
            raise ValueError(f"opponent sampling {sampling!r} is not one of {list(SAMPLING)}")
        if rest not in ("pool", "learner"):
            raise ValueError(f'rest must be "pool" or "learner", not {rest!r}')
        weights = dict(weights or {})
        if sum(weights.values()) > 1 + 1e-9 or any(w < 0 for w in weights.values()):
            raise ValueError(f"seat policy weights {weights} must be >= 0 and sum to <= 1")
        self.root = Path(root)
        self.env_id = env_id
        self.sampling = sampling
        self.latest_prob = latest_prob
        self.rest = rest
        self.specs = [k for k in weights if k != POOL]
        self.weights = np.array([weights[k] for k in self.specs], dtype=float)
        self.pool_weight = weights.get(POOL, 0.0) + (1.0 - sum(weights.values()) if rest == "pool" else 0.0)
        self.pool_size = pool_size
        self.deterministic = deterministic
        self.seed = seed
        self._mtime = None
        self._names: list[str] = []
        self._paths: dict[str, Path] = {}
        self._loaded: dict[str, Policy] = {}
        self._fixed = {
            spec: load_policy(spec, env_id, seed=seed, deterministic=deterministic) for spec in (*self.specs, "random")
        }

    def _refresh(self) -> None:
        path = self.root / MANIFEST
        try:
            mtime = path.stat().st_mtime_ns
        except FileNotFoundError:
            return
        if mtime == self._mtime:
            return
        pool = OpponentPool(self.root, self.env_id)
        self._mtime = mtime
        recent = pool.snapshots[-self.pool_size :]
        self._names = [s["name"] for s in recent]
        self._paths = {s["name"]: self.root / s["path"] for s in recent}
        self._loaded = {k: v for k, v in self._loaded.items() if k in self._paths}

    def sample(self, rng: np.random.Generator) -> Policy | None:
        self._refresh()
        u = rng.random()
        cumulative = np.cumsum(self.weights)
        fixed_total = cumulative[-1] if len(cumulative) else 0.0
        if u < fixed_total:
            return self._fixed[self.specs[int(np.searchsorted(cumulative, u, side="right"))]]
        if u >= fixed_total + self.pool_weight:
            return None  # the rest goes to the learner
        if not self._names:
            if self.rest == "learner":
                return None
            if fixed_total <= 0:
                return self._fixed["random"]
            u = rng.random() * fixed_total
            return self._fixed[self.specs[int(np.searchsorted(cumulative, u, side="right"))]]
        return self._snapshot(rng)

    def _snapshot(self, rng: np.random.Generator) -> Policy:
        names = self._names
        if self.sampling == "latest" or (self.sampling == "mostly_latest" and rng.random() < self.latest_prob):
            name = names[-1]
        else:
            name = names[int(rng.integers(len(names)))]
        policy = self._loaded.get(name)
        if policy is None:
            policy = load_policy(str(self._paths[name]), self.env_id, seed=self.seed, deterministic=self.deterministic)
            self._loaded[name] = policy
        return policy
