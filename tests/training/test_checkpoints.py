"""Checkpoints: round trips against MaskablePPO, damaged and mismatched files, atomic writes, safety."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

import envs
from training.runtime.checkpoints import (
    CheckpointError,
    copy_checkpoint,
    load_checkpoint,
    read_checkpoint_metadata,
    resolve_checkpoint,
    save_checkpoint,
    update_checkpoint_metadata,
)
from training.runtime.inference import CheckpointPolicy, NumpyMLPPolicy
from training.runtime.policies import load_policy

OBS, ACTIONS = 7, 5


class TinyEnv(gym.Env):
    """A Box observation, Discrete actions and ``action_masks()``: enough for MaskablePPO."""

    def __init__(self, obs_size: int = OBS, num_actions: int = ACTIONS):
        self.observation_space = gym.spaces.Box(-2.0, 2.0, (obs_size,), np.float32)
        self.action_space = gym.spaces.Discrete(num_actions)
        self._t = 0

    def _mask(self):
        m = self.np_random.random(self.action_space.n) < 0.6
        m[self.np_random.integers(self.action_space.n)] = True
        return m

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._t = 0
        self.mask = self._mask()
        return self.observation_space.sample(), {}

    def step(self, action):
        self._t += 1
        reward = float(action == 0)
        self.mask = self._mask()
        return self.observation_space.sample(), reward, self._t >= 8, False, {}

    def action_masks(self):
        return self.mask


def make_model(net_arch=None, activation=torch.nn.Tanh, obs_size=OBS, num_actions=ACTIONS, scramble=True, seed=0):
    if net_arch is None:
        net_arch = dict(pi=[16, 12], vf=[8])
    model = MaskablePPO(
        "MlpPolicy",
        TinyEnv(obs_size, num_actions),
        policy_kwargs=dict(net_arch=net_arch, activation_fn=activation),
        n_steps=32,
        batch_size=16,
        n_epochs=1,
        seed=seed,
        device="cpu",
    )
    if scramble:  # SB3's init gives near-uniform logits (action_net gain 0.01): make choices distinct
        gen = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            for p in model.policy.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * 0.7)
    return model


def meta(**extra):
    return {"env_id": "tiny_v0", "env_options": {"level": 1}, "seed": 3, "parent": None, **extra}


def random_batch(n, obs_size=OBS, num_actions=ACTIONS, seed=1):
    rng = np.random.default_rng(seed)
    obs = rng.uniform(-2, 2, (n, obs_size)).astype(np.float32)
    masks = rng.random((n, num_actions)) < 0.5
    masks[np.arange(n), rng.integers(num_actions, size=n)] = True
    return obs, masks


@pytest.fixture(scope="module")
def model():
    return make_model()


@pytest.fixture
def ckpt(model, tmp_path):
    return save_checkpoint(model, tmp_path / "run" / "step_64", meta(training_steps=64))


def rewrite_pt(json_path: Path, obj) -> None:
    """Replace the weights file with ``obj`` and record its true sha256, so only torch.load can object."""
    import hashlib

    m = json.loads(json_path.read_text())
    buf = io.BytesIO()
    torch.save(obj, buf)
    (json_path.parent / m["weights_file"]).write_bytes(buf.getvalue())
    m["weights_sha256"] = hashlib.sha256(buf.getvalue()).hexdigest()
    json_path.write_text(json.dumps(m))


# ---------------------------------------------------------------------------------------------
# round trips


@pytest.mark.parametrize(
    "net_arch, activation",
    [
        (dict(pi=[16, 12], vf=[8]), torch.nn.Tanh),
        ([10], torch.nn.ReLU),
        ([], torch.nn.Tanh),
        ([9, 9, 9], torch.nn.ReLU),
    ],
)
def test_round_trip_matches_maskable_ppo(tmp_path, net_arch, activation):
    model = make_model(net_arch, activation)
    path = save_checkpoint(model, tmp_path / "c", meta())
    policy = CheckpointPolicy(path, env_id="tiny_v0")
    obs, masks = random_batch(300)
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert [policy.act(o, m) for o, m in zip(obs, masks)] == expected.tolist()
    assert policy.act_batch(obs, masks).tolist() == expected.tolist()
    for o, m in zip(obs[:20], masks[:20]):  # single observations, as opponents call it
        assert policy.act(o, m.astype(np.int8)) == int(model.predict(o, action_masks=m, deterministic=True)[0])
    with torch.no_grad():
        pol = model.policy
        t_obs = torch.as_tensor(obs)
        ref = pol.action_net(pol.mlp_extractor.forward_actor(pol.extract_features(t_obs, pol.pi_features_extractor)))
    np.testing.assert_allclose(policy.logits(obs), ref.numpy(), rtol=1e-5, atol=1e-5)


def test_untrained_and_briefly_trained_models_round_trip(tmp_path):
    model = make_model(scramble=False)  # SB3's own init
    model.learn(64)
    path = save_checkpoint(model, tmp_path / "trained", meta())
    assert read_checkpoint_metadata(path)["training_steps"] == model.num_timesteps == 64
    policy = CheckpointPolicy(path)
    obs, masks = random_batch(200, seed=5)
    assert (
        policy.act_batch(obs, masks).tolist() == model.predict(obs, action_masks=masks, deterministic=True)[0].tolist()
    )


def test_files_and_metadata(ckpt, model):
    assert ckpt.name == "step_64.json"
    pt = ckpt.with_suffix(".pt")
    m = json.loads(ckpt.read_text())
    assert m["format"] == "herozoo-policy" and m["format_version"] == 1
    assert m["env_id"] == "tiny_v0" and m["env_options"] == {"level": 1}
    assert (m["observation_size"], m["num_actions"]) == (OBS, ACTIONS)
    assert m["algorithm"] == "MaskablePPO"
    assert m["policy"] == {"net_arch_pi": [16, 12], "net_arch_vf": [8], "activation": "tanh"}
    assert (m["training_steps"], m["seed"], m["parent"]) == (64, 3, None)
    assert m["weights_file"] == "step_64.pt" and len(m["weights_sha256"]) == 64
    assert "T" in m["created"]
    tensors = torch.load(pt, weights_only=True)
    assert isinstance(tensors, dict) and all(isinstance(v, torch.Tensor) for v in tensors.values())
    assert all(
        k.startswith(("mlp_extractor.policy_net.", "action_net.", "mlp_extractor.value_net.", "value_net."))
        for k in tensors
    )
    assert "mlp_extractor.policy_net.2.weight" in tensors  # SB3 numbers Linear layers 0, 2, 4 (activations between)
    weights, loaded = load_checkpoint(ckpt)
    assert loaded == m and set(weights) == set(tensors)
    assert all(w.dtype == np.float32 for w in weights.values())


def test_policy_only_checkpoint(model, tmp_path):
    path = save_checkpoint(model, tmp_path / "small", meta(), include_value=False)
    weights, m = load_checkpoint(path)
    assert set(weights) == {
        k for k in model.policy.state_dict() if k.startswith(("mlp_extractor.policy_net", "action_net"))
    }
    assert "net_arch_vf" not in m["policy"]


def test_stochastic_sampling(ckpt):
    obs, masks = random_batch(1)
    a = CheckpointPolicy(ckpt, deterministic=False, seed=7)
    b = CheckpointPolicy(ckpt, deterministic=False, seed=7)
    draws = [a.act(obs[0], masks[0]) for _ in range(3000)]
    assert draws == [b.act(obs[0], masks[0]) for _ in range(3000)]
    assert set(draws) <= set(np.flatnonzero(masks[0]).tolist())
    probs = a.probabilities(obs, masks)[0]
    freq = np.bincount(draws, minlength=ACTIONS) / len(draws)
    np.testing.assert_allclose(freq, probs, atol=0.04)
    batch = a.act_batch(np.repeat(obs, 3000, 0), np.repeat(masks, 3000, 0))
    np.testing.assert_allclose(np.bincount(batch, minlength=ACTIONS) / 3000, probs, atol=0.04)


def _full_width_act(policy, observation, mask):
    """The sampler act() had before it looked at the legal logits only: softmax over every action."""
    logits = policy._logits_one(observation).copy()  # the same network pass: only the sampler differs
    illegal = np.asarray(mask).reshape(-1) == 0
    logits[illegal] = -np.inf
    if policy.deterministic:
        return int(np.argmax(logits))
    logits -= logits.max()
    np.exp(logits, out=logits)
    cdf = np.cumsum(logits)
    a = min(int(np.searchsorted(cdf, policy.rng.random() * cdf[-1], side="right")), policy.num_actions - 1)
    while illegal[a]:
        a -= 1
    return a


@pytest.mark.parametrize("deterministic", [True, False])
def test_act_equals_the_full_width_masked_sampler(ckpt, deterministic):
    obs, masks = random_batch(400, seed=11)
    masks[::7] = False
    masks[::7, 3] = True  # some single legal actions: still one draw each
    a = CheckpointPolicy(ckpt, deterministic=deterministic, seed=3)
    b = CheckpointPolicy(ckpt, deterministic=deterministic, seed=3)
    got = [a.act(o, m) for o, m in zip(obs, masks)]
    assert got == [_full_width_act(b, o, m) for o, m in zip(obs, masks)]
    assert a.rng.random() == b.rng.random()  # the same number of draws


@pytest.mark.parametrize("deterministic", [True, False])
def test_act_batch_is_act_row_by_row(ckpt, deterministic):
    obs, masks = random_batch(200, seed=4)
    a = CheckpointPolicy(ckpt, deterministic=deterministic, seed=9)
    b = CheckpointPolicy(ckpt, deterministic=deterministic, seed=9)
    rows = [a.act(o, m) for o, m in zip(obs, masks)]
    assert b.act_batch(obs[:1], masks[:1]).tolist() + b.act_batch(obs[1:], masks[1:]).tolist() == rows
    assert a.rng.random() == b.rng.random()


def test_act_accepts_any_array_like_input(ckpt):
    policy = CheckpointPolicy(ckpt)
    obs, masks = random_batch(5, seed=2)
    for o, m in zip(obs, masks):
        expected = policy.act(o, m)
        assert policy.act(o.astype(np.float64), m.astype(np.int8)) == expected
        assert policy.act(o[None, :], m.tolist()) == expected
        assert policy.act(o.tolist(), m[None, :]) == expected
        assert policy.act(np.asfortranarray(o[::-1])[::-1], m) == expected


def test_act_rejects_bad_input(ckpt):
    policy = CheckpointPolicy(ckpt)
    with pytest.raises(ValueError, match="allows no action"):
        policy.act(np.zeros(OBS, np.float32), np.zeros(ACTIONS, np.int8))
    with pytest.raises(ValueError, match="length"):
        policy.act(np.zeros(OBS + 1, np.float32), np.ones(ACTIONS, np.int8))


# ---------------------------------------------------------------------------------------------
# paths


def test_path_forms(ckpt, model):
    folder = ckpt.parent
    for form in (ckpt, ckpt.with_suffix(".pt"), ckpt.with_suffix(""), folder, str(folder)):
        assert resolve_checkpoint(form) == ckpt
    save_checkpoint(model, folder / "step_128", meta())
    with pytest.raises(CheckpointError, match=r"2 checkpoints \(step_128.json, step_64.json\).*best.json"):
        resolve_checkpoint(folder)
    latest = copy_checkpoint(folder / "step_128", folder / "latest")
    assert resolve_checkpoint(folder) == latest
    best = copy_checkpoint(ckpt, folder / "best", evaluation={"vs_random": 0.9})
    assert resolve_checkpoint(folder) == best
    policy = CheckpointPolicy(folder)
    assert policy.name == "run/best" and policy.metadata["evaluation"] == {"vs_random": 0.9}
    assert CheckpointPolicy(ckpt).name == "step_64"
    (folder / "config.json").write_text("{}")  # other JSON files in the folder are not checkpoints
    assert resolve_checkpoint(folder) == best


def test_empty_folder(tmp_path):
    with pytest.raises(CheckpointError, match="no herozoo checkpoint"):
        resolve_checkpoint(tmp_path)


# ---------------------------------------------------------------------------------------------
# damaged, missing and unsafe files


def test_flipped_bytes_are_damage(ckpt):
    pt = ckpt.with_suffix(".pt")
    data = bytearray(pt.read_bytes())
    data[len(data) // 2] ^= 0xFF
    pt.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match=r"step_64\.pt.*damaged.*sha256"):
        load_checkpoint(ckpt)


def test_truncated_weights_are_damage(ckpt):
    pt = ckpt.with_suffix(".pt")
    pt.write_bytes(pt.read_bytes()[:-100])
    with pytest.raises(CheckpointError, match="damaged"):
        CheckpointPolicy(ckpt)


def test_truncated_weights_with_matching_hash_fail_in_torch_load(ckpt):
    import hashlib

    pt = ckpt.with_suffix(".pt")
    data = pt.read_bytes()[:200]
    pt.write_bytes(data)
    m = json.loads(ckpt.read_text())
    m["weights_sha256"] = hashlib.sha256(data).hexdigest()
    ckpt.write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match=r"step_64\.pt.*damaged: torch.load failed"):
        load_checkpoint(ckpt)


def test_missing_files(ckpt, tmp_path):
    with pytest.raises(CheckpointError, match=r"nope\.json.*not found"):
        load_checkpoint(tmp_path / "nope.json")
    with pytest.raises(CheckpointError, match="not found"):
        load_checkpoint(tmp_path / "nope")
    ckpt.with_suffix(".pt").unlink()
    with pytest.raises(CheckpointError, match=r"step_64\.json.*weights file .*step_64\.pt is missing"):
        load_checkpoint(ckpt)


def test_pt_without_json(ckpt):
    ckpt.unlink()
    with pytest.raises(CheckpointError, match=r"step_64\.pt.*no metadata file step_64\.json"):
        load_checkpoint(ckpt.with_suffix(".pt"))


@pytest.mark.parametrize("text", ["not json at all", '{"format": "herozoo-policy", ', "", "\xff\xfe"])
def test_non_json_metadata(ckpt, text):
    ckpt.write_text(text, encoding="latin-1")
    with pytest.raises(CheckpointError, match=r"step_64\.json.*not JSON"):
        load_checkpoint(ckpt)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "sb3"}, "format marker is 'sb3'"),
        ({"format_version": 2}, "format_version is 2.*newer"),
        ({"policy": {"net_arch_pi": [16], "activation": "gelu"}}, "activation is 'gelu'"),
        ({"weights_file": "../elsewhere.pt"}, "plain file name"),
        ({"observation_size": "7"}, "observation_size.*positive integer"),
    ],
)
def test_bad_metadata_fields(ckpt, change, message):
    m = json.loads(ckpt.read_text())
    m.update(change)
    ckpt.write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(ckpt)


def test_json_array_is_refused(ckpt):
    ckpt.write_text("[1, 2]")
    with pytest.raises(CheckpointError, match="JSON object"):
        load_checkpoint(ckpt)


def test_sb3_zip_is_refused(model, tmp_path):
    model.save(tmp_path / "model.zip")
    with pytest.raises(CheckpointError, match=r"model\.zip.*only herozoo checkpoints.*pickled"):
        load_checkpoint(tmp_path / "model.zip")
    with pytest.raises(CheckpointError, match="only herozoo checkpoints"):
        CheckpointPolicy(tmp_path / "model.zip")


UNPICKLED = []


def _record_unpickling(*args):
    UNPICKLED.append(args)
    return "gotcha"


class Sneaky:
    """Unpickling this would call ``_record_unpickling``: arbitrary code a checkpoint must not run."""

    def __reduce__(self):
        return (_record_unpickling, ("ran",))


def test_never_unpickles_arbitrary_objects(ckpt, model):
    tensors = {k: v for k, v in model.policy.state_dict().items()}
    rewrite_pt(ckpt, {**tensors, "extra": Sneaky()})  # the sha in the json matches: only weights_only stops it
    with pytest.raises(CheckpointError, match=r"step_64\.pt.*refused.*never unpickles"):
        load_checkpoint(ckpt)
    assert UNPICKLED == []


def test_non_tensor_content_is_refused(ckpt):
    rewrite_pt(ckpt, [torch.zeros(3)])
    with pytest.raises(CheckpointError, match="dict of tensors, got list"):
        load_checkpoint(ckpt)
    rewrite_pt(ckpt, {"action_net.weight": 3})
    with pytest.raises(CheckpointError, match="entry 'action_net.weight' is int"):
        load_checkpoint(ckpt)


def test_tensor_keys_and_shapes_are_checked(ckpt):
    weights = {k: torch.as_tensor(v) for k, v in load_checkpoint(ckpt)[0].items()}
    rewrite_pt(ckpt, {**weights, "mlp_extractor.policy_net.4.weight": torch.zeros(3, 12)})
    with pytest.raises(CheckpointError, match=r"unexpected tensors \['mlp_extractor.policy_net.4.weight'\]"):
        load_checkpoint(ckpt)
    rewrite_pt(ckpt, {k: v for k, v in weights.items() if k != "action_net.bias"})
    with pytest.raises(CheckpointError, match=r"missing tensors \['action_net.bias'\]"):
        load_checkpoint(ckpt)
    rewrite_pt(ckpt, {**weights, "action_net.weight": torch.zeros(ACTIONS, 11)})
    with pytest.raises(CheckpointError, match=r"'action_net.weight' has shape \(5, 11\).*implies \(5, 12\)"):
        load_checkpoint(ckpt)
    rewrite_pt(ckpt, {**weights, "action_net.bias": torch.full((ACTIONS,), float("nan"))})
    with pytest.raises(CheckpointError, match="NaN"):
        load_checkpoint(ckpt)


# ---------------------------------------------------------------------------------------------
# made for another env


def test_wrong_env_id_obs_size_action_count(ckpt):
    with pytest.raises(CheckpointError, match=r"step_64\.json.*'tiny_v0'.*'other_v0'"):
        load_checkpoint(ckpt, env_id="other_v0")
    with pytest.raises(CheckpointError, match="observations of length 7.*length 9"):
        load_checkpoint(ckpt, observation_size=9)
    with pytest.raises(CheckpointError, match="has 5 actions.*env has 6"):
        load_checkpoint(ckpt, num_actions=6)
    load_checkpoint(ckpt, env_id="tiny_v0", observation_size=OBS, num_actions=ACTIONS)


def test_registered_env_sizes_are_checked(ckpt):
    m = json.loads(ckpt.read_text())
    m["env_id"] = "last_heroes_v0"
    ckpt.write_text(json.dumps(m))
    game = envs.game_class("last_heroes_v0")()
    with pytest.raises(CheckpointError, match=f"observations of length {OBS}.*length {game.observation_size}"):
        load_policy(str(ckpt), "last_heroes_v0")


def test_save_validates_metadata(model, tmp_path):
    with pytest.raises(ValueError, match="env_id"):
        save_checkpoint(model, tmp_path / "a", {"env_options": {}})
    with pytest.raises(ValueError, match="observation_size=8.*observation_size=7"):
        save_checkpoint(model, tmp_path / "a", meta(observation_size=8))
    with pytest.raises(ValueError, match="num_actions=4.*num_actions=5"):
        save_checkpoint(model, tmp_path / "a", meta(num_actions=4))
    with pytest.raises(ValueError, match="last_heroes_v0 has observation_size=1036"):
        save_checkpoint(model, tmp_path / "a", meta(env_id="last_heroes_v0"))
    with pytest.raises(ValueError, match="algorithm"):
        save_checkpoint(model, tmp_path / "a", meta(algorithm="DQN"))
    with pytest.raises(ValueError, match="JSON"):
        save_checkpoint(model, tmp_path / "a", meta(evaluation={"when": object()}))
    with pytest.raises(ValueError, match="only Tanh and ReLU"):
        save_checkpoint(make_model([4], torch.nn.ELU), tmp_path / "a", meta())
    assert list(tmp_path.iterdir()) == []  # nothing written by a refused save


# ---------------------------------------------------------------------------------------------
# atomic writes and metadata updates


def test_atomic_writes_leave_no_temporary_files(model, tmp_path):
    save_checkpoint(model, tmp_path / "a", meta())
    save_checkpoint(make_model(seed=1), tmp_path / "a", meta())  # overwrite with other weights
    update_checkpoint_metadata(tmp_path / "a", evaluation={"vs_random": 0.5})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "a.pt"]
    load_checkpoint(tmp_path / "a")


def test_interrupted_save_keeps_the_previous_checkpoint(model, tmp_path, monkeypatch):
    first = save_checkpoint(model, tmp_path / "a", meta())
    before = first.read_bytes(), first.with_suffix(".pt").read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)  # fails while the new .pt is still a temp file
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint(make_model(seed=1), tmp_path / "a", meta())
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "a.pt"]
    assert (first.read_bytes(), first.with_suffix(".pt").read_bytes()) == before
    load_checkpoint(first)


def test_json_written_after_weights(model, tmp_path, monkeypatch):
    order = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (order.append(Path(dst).name), real_replace(src, dst)))
    save_checkpoint(model, tmp_path / "a", meta())
    assert order == ["a.pt", "a.json"]


def test_update_metadata(ckpt):
    sha = json.loads(ckpt.read_text())["weights_sha256"]
    update_checkpoint_metadata(ckpt, evaluation={"vs_random": {"win_rate": 0.8}})
    m = update_checkpoint_metadata(ckpt.with_suffix(".pt"), evaluation={"vs_heuristic": {"win_rate": 0.3}}, note="x")
    assert m["evaluation"] == {"vs_random": {"win_rate": 0.8}, "vs_heuristic": {"win_rate": 0.3}}
    _, loaded = load_checkpoint(ckpt)
    assert loaded == m and loaded["note"] == "x" and loaded["weights_sha256"] == sha
    with pytest.raises(ValueError, match="describe the weights"):
        update_checkpoint_metadata(ckpt, num_actions=9)


def test_save_accepts_metadata_of_another_checkpoint(ckpt, model, tmp_path):
    _, m = load_checkpoint(ckpt)
    again = save_checkpoint(model, tmp_path / "again.json", {**m, "parent": str(ckpt)})
    assert again == tmp_path / "again.json"
    _, m2 = load_checkpoint(again)
    assert m2["weights_file"] == "again.pt" and m2["parent"] == str(ckpt)
    weights, weights2 = load_checkpoint(ckpt)[0], load_checkpoint(again)[0]
    assert all(np.array_equal(weights[k], weights2[k]) for k in weights)


def test_interrupted_overwrite_never_leaves_a_json_for_other_weights(model, tmp_path, monkeypatch):
    save_checkpoint(model, tmp_path / "a", meta())
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst).name == "a.json":
            raise KeyboardInterrupt  # killed between the new .pt and the new .json
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(make_model(seed=1), tmp_path / "a", meta())
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pt"]  # no stale a.json, no temp files
    with pytest.raises(CheckpointError, match="no metadata file a.json"):
        load_checkpoint(tmp_path / "a.pt")


# ---------------------------------------------------------------------------------------------
# as a policy for a real game


def test_load_policy_plays_whole_games(tmp_path):
    game = envs.game_class("last_heroes_v0")(num_players=3)
    model = make_model([8], obs_size=game.observation_size, num_actions=game.num_actions)
    path = save_checkpoint(model, tmp_path / "lh", {"env_id": "last_heroes_v0", "env_options": {"num_players": 3}})
    policy = load_policy(str(path), "last_heroes_v0")
    assert isinstance(policy, CheckpointPolicy) and isinstance(policy, NumpyMLPPolicy)
    assert policy.name == "lh" and policy.metadata["env_options"] == {"num_players": 3}
    sampler = load_policy(str(tmp_path), "last_heroes_v0", seed=1, deterministic=False)
    for seed, p in ((0, policy), (1, sampler)):
        state = game.new_state(seed=seed)
        for _ in range(game.max_game_length() + 1):
            if state.is_terminal() or state.is_truncated():
                break
            mask = state.legal_mask()
            action = p.act(state.observe(state.current_player), mask, state)
            assert mask[action]
            state.apply(action)
        assert state.is_terminal() or state.is_truncated()
