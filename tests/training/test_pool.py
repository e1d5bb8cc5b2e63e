"""The opponent pool: a manifest that survives restarts, and the sampling schemes."""

import json

import numpy as np
import pytest

from training.pool import OpponentPool, PoolSampler


class _FakeModelPool(OpponentPool):
    """Records snapshots without training a model: the manifest logic is what is tested here."""

    def add_fake(self, steps):
        name = f"snapshot_{steps:09d}"
        parent = self.latest
        self.snapshots.append(
            {
                "name": name,
                "path": f"snapshots/{name}.json",
                "steps": steps,
                "parent": parent,
                "created": "",
                "evaluation": {},
                "rating": None,
            }
        )
        if self.best is None:
            self.best = name
        self.save()
        return name


def test_manifest_survives_a_restart_and_keeps_best_and_parents(tmp_path):
    pool = _FakeModelPool(tmp_path, "last_heroes_v0")
    a = pool.add_fake(100)
    b = pool.add_fake(200)
    pool.record(b, evaluation={"vs_best": 0.7}, rating={"mu": 27.0})
    pool.promote(b)
    again = OpponentPool(tmp_path, "last_heroes_v0")
    assert again.best == b and again.latest == b
    assert again.entry(b)["parent"] == a and again.entry(b)["evaluation"] == {"vs_best": 0.7}
    assert not list(tmp_path.glob("*.tmp"))
    with pytest.raises(ValueError, match="belongs to 'last_heroes_v0'"):
        OpponentPool(tmp_path, "other_v0")
    with pytest.raises(KeyError, match="no snapshot 'nope'"):
        pool.promote("nope")


def test_first_snapshot_is_best_and_promotion_is_explicit(tmp_path):
    pool = _FakeModelPool(tmp_path, "last_heroes_v0")
    first = pool.add_fake(1)
    pool.add_fake(2)
    assert pool.best == first  # a later snapshot is best only once promoted


def _counts(sampler, draws=4000):
    rng = np.random.default_rng(0)
    counts = {}
    for _ in range(draws):
        p = sampler.sample(rng)
        counts[p.name] = counts.get(p.name, 0) + 1
    return {k: v / draws for k, v in counts.items()}


def test_baselines_only_until_the_first_snapshot(tmp_path):
    sampler = PoolSampler(tmp_path, "last_heroes_v0", weights={"random": 0.3, "heuristic": 0.1})
    freq = _counts(sampler)
    assert set(freq) == {"random", "heuristic"}
    assert freq["random"] == pytest.approx(0.75, abs=0.03)


def test_sampling_schemes_with_snapshots(tmp_path, monkeypatch):
    pool = _FakeModelPool(tmp_path, "last_heroes_v0")
    names = [pool.add_fake(s) for s in (10, 20, 30, 40)]

    class Named:
        def __init__(self, name):
            self.name = name

    monkeypatch.setattr("training.pool.load_policy", lambda spec, env_id, **kw: Named(spec.split("/")[-1]))
    latest = PoolSampler(tmp_path, "last_heroes_v0", sampling="latest", weights={"random": 0.2})
    freq = _counts(latest)
    assert freq["random"] == pytest.approx(0.2, abs=0.03)
    assert freq[f"{names[-1]}.json"] == pytest.approx(0.8, abs=0.03)

    mostly = PoolSampler(tmp_path, "last_heroes_v0", sampling="mostly_latest", latest_prob=0.8, weights={})
    freq = _counts(mostly)
    assert freq[f"{names[-1]}.json"] == pytest.approx(0.8 + 0.2 / 4, abs=0.03)
    assert freq[f"{names[0]}.json"] == pytest.approx(0.05, abs=0.02)

    recent = PoolSampler(tmp_path, "last_heroes_v0", sampling="uniform", pool_size=2, weights={})
    assert set(_counts(recent)) == {f"{names[2]}.json", f"{names[3]}.json"}

    # The sampler sees a snapshot added after it was created (training workers rely on it).
    newest = pool.add_fake(50)
    assert set(_counts(latest, 200)) >= {f"{newest}.json"}


def test_bad_sampler_settings_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="not one of"):
        PoolSampler(tmp_path, "last_heroes_v0", sampling="best")
    with pytest.raises(ValueError, match="must be >= 0 and sum to <= 1"):
        PoolSampler(tmp_path, "last_heroes_v0", weights={"random": 0.7, "heuristic": 0.7})
    with pytest.raises(ValueError, match="neither one of"):
        PoolSampler(tmp_path, "last_heroes_v0", weights={"greedy": 0.1})
    with pytest.raises(ValueError, match='rest must be "pool" or "learner"'):
        PoolSampler(tmp_path, "last_heroes_v0", rest="nobody")


def test_partner_draws_leave_the_rest_to_the_learner(tmp_path, monkeypatch):
    partners = PoolSampler(tmp_path, "last_heroes_v0", weights={"heuristic": 0.25, "pool": 0.25}, rest="learner")
    freq = _counts_with_learner(partners)
    # no snapshot yet: a pool draw goes to the learner too
    assert freq["heuristic"] == pytest.approx(0.25, abs=0.03) and freq[None] == pytest.approx(0.75, abs=0.03)
    pool = _FakeModelPool(tmp_path, "last_heroes_v0")
    name = pool.add_fake(10)

    class Named:
        def __init__(self, name):
            self.name = name

    monkeypatch.setattr("training.pool.load_policy", lambda spec, env_id, **kw: Named(spec.split("/")[-1]))
    freq = _counts_with_learner(partners)
    assert freq[f"{name}.json"] == pytest.approx(0.25, abs=0.03) and freq[None] == pytest.approx(0.5, abs=0.03)


def _counts_with_learner(sampler, draws=4000):
    rng = np.random.default_rng(0)
    counts = {}
    for _ in range(draws):
        p = sampler.sample(rng)
        key = None if p is None else p.name
        counts[key] = counts.get(key, 0) + 1
    return {k: v / draws for k, v in counts.items()}


def test_manifest_is_plain_json(tmp_path):
    pool = _FakeModelPool(tmp_path, "last_heroes_v0")
    pool.add_fake(5)
    data = json.loads((tmp_path / "pool.json").read_text())
    assert data["env_id"] == "last_heroes_v0" and data["snapshots"][0]["steps"] == 5
