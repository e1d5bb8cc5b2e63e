"""Hostile and careless inputs to the training/ tools: a crafted or damaged RLlib checkpoint, malformed
requests to the browser server, a resume whose checkpoint is gone, lines typed at the play prompt, and
non-finite option values. Each must be a clear error (or a polite end), never a crash, a 500, a
traceback or a silent start from step 0.

Fast (about 15 s on 2 cores): the RLlib checkpoints are built by hand (no ray), the server is driven
through starlette's TestClient, and the resume tests stop train() before any step is taken.
"""

from __future__ import annotations

import io
import json
import math
import pickle
import struct
import subprocess
import sys
import textwrap
import warnings
import zipfile
from itertools import chain, repeat
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from starlette.testclient import TestClient

import envs
from training.playing import server as serve
from training.playing import terminal as play
from training.playing.replay import save_replay
from training.playing.session import Session
from training.rllib.export import convert, read_module_weights
from training.runtime.checkpoints import CheckpointError
from training.runtime.policies import load_policy

LH = "last_heroes_v0"

# -- RLlib checkpoints, built by hand -------------------------------------------------------------------

HIDDEN = 8
SIDECAR = {
    "format": "herozoo-rllib",
    "format_version": 1,
    "env_id": LH,
    "env_options": {},
    "trained_module": "main",
    "policy": {"net_arch_pi": [HIDDEN], "net_arch_vf": [HIDDEN], "activation": "tanh"},
    "training_steps": 1000,
    "seed": 0,
}
LAYER_PREFIXES = (
    "encoder.actor_encoder.net.mlp.0.",
    "encoder.critic_encoder.net.mlp.0.",
    "pi.net.mlp.0.",
    "vf.net.mlp.0.",
)


def _sizes(env_id: str = LH) -> tuple[int, int]:
    env = envs.make(env_id)
    return int(np.prod(env.observation_space("player_0")["observation"].shape)), int(env.action_space("player_0").n)


def _weights(dtype=np.float32) -> dict[str, np.ndarray]:
    """What MaskedPPOTorchRLModule's state holds for net_arch [HIDDEN] (separate policy and value nets)."""
    obs, act = _sizes()
    rng = np.random.default_rng(0)
    shapes = {
        "encoder.actor_encoder.net.mlp.0.": (HIDDEN, obs),
        "encoder.critic_encoder.net.mlp.0.": (HIDDEN, obs),
        "pi.net.mlp.0.": (act, HIDDEN),
        "vf.net.mlp.0.": (1, HIDDEN),
    }
    out = {}
    for prefix, shape in shapes.items():
        out[prefix + "weight"] = rng.normal(size=shape).astype(dtype)
        out[prefix + "bias"] = rng.normal(size=shape[0]).astype(dtype)
    return out


def _checkpoint(root: Path, state: bytes | dict | list | None = None, sidecar=SIDECAR, protocol: int = 5) -> Path:
    """An algorithm checkpoint folder as training.rllib.train saves it: the module state and herozoo.json."""
    ck = root / "ck"
    module = ck / "learner_group" / "learner" / "rl_module" / "main"
    module.mkdir(parents=True)
    if state is None:
        state = _weights()
    if not isinstance(state, bytes):
        state = pickle.dumps(state, protocol=protocol)
    (module / "module_state.pkl").write_bytes(state)
    if sidecar is not None:
        text = sidecar if isinstance(sidecar, str) else json.dumps(sidecar)
        (ck / "herozoo.json").write_text(text)
    return ck


@pytest.mark.parametrize("protocol", [3, 4, 5])  # 5 is what ray's cloudpickle writes; 3-4 take the other path
@pytest.mark.parametrize("layout", ["C", "fortran", "big-endian", "float64"])
def test_a_well_formed_checkpoint_still_loads_exactly(tmp_path, protocol, layout):
    given = _weights()
    change = {
        "C": lambda a: a,
        "fortran": np.asfortranarray,
        "big-endian": lambda a: a.astype(">f4"),
        "float64": lambda a: a.astype(np.float64),
    }[layout]
    ck = _checkpoint(tmp_path, {k: change(v) for k, v in given.items()}, protocol=protocol)
    weights, meta = convert(ck)
    assert meta["env_id"] == LH and meta["policy"]["net_arch_pi"] == [HIDDEN]
    np.testing.assert_array_equal(weights["action_net.weight"], given["pi.net.mlp.0.weight"])
    critic_bias = given["encoder.critic_encoder.net.mlp.0.bias"]
    np.testing.assert_array_equal(weights["mlp_extractor.value_net.0.bias"], critic_bias)
    bot = load_policy(f"rllib:{ck}", LH)
    state = envs.game_class(LH)(num_players=2).new_state(0)
    assert state.legal_mask()[bot.act(state.observe(0), state.legal_mask(), state)]


@pytest.mark.slow
def test_a_module_state_saved_by_ray_still_loads_exactly(tmp_path, monkeypatch):
    """The reader against the real thing: an RLModule state written by ray (cloudpickle), ~10 s."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed")
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.rllib.module import MaskedPPOTorchRLModule, model_config

    env = envs.make(LH, num_players=3)
    module = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=env.observation_space("player_0"),
        action_space=env.action_space("player_0"),
        model_config=model_config([HIDDEN], "tanh"),
    ).build()
    ck = tmp_path / "ck"
    module.save_to_path(str(ck / "learner_group" / "learner" / "rl_module" / "main"))
    (ck / "herozoo.json").write_text(json.dumps(SIDECAR))
    weights, module_id, _ = read_module_weights(ck)
    state = module.get_state()
    assert module_id == "main" and set(weights) == set(state)
    for key, value in state.items():
        np.testing.assert_array_equal(weights[key], np.asarray(value))
    assert load_policy(f"rllib:{ck}", LH).metadata["rllib"]["module_id"] == "main"


# Pickle opcodes, written out by hand: nothing here pickles a real object.
P = pickle


def _text(s: str) -> bytes:
    b = s.encode()
    return P.BINUNICODE + struct.pack("<I", len(b)) + b


def _int(i: int) -> bytes:
    return P.BININT + struct.pack("<i", i)


def _object_dtype_without_its_flags() -> bytes:
    """numpy.dtype("O8") whose state BUILD rewrites to flags 0: numpy then copies raw bytes into an
    array of object pointers without noticing."""
    state = P.MARK + P.BININT1 + b"\x03" + _text("|") + P.NONE * 3 + _int(-1) + _int(-1) + P.BININT1 + b"\x00" + P.TUPLE
    return P.GLOBAL + b"numpy\ndtype\n" + _text("O8") + P.NEWFALSE + P.NEWTRUE + P.TUPLE3 + P.REDUCE + state + P.BUILD


def _crafted(kind: str) -> bytes:
    """A module state whose every tensor is 8 attacker bytes read as an object pointer (0x4141...)."""
    out = P.PROTO + b"\x02" + _object_dtype_without_its_flags() + P.BINPUT + b"\x00" + P.POP
    raw = P.SHORT_BINBYTES + b"\x08" + b"\x41" * 8
    shape = P.BININT1 + b"\x01" + P.BININT1 + b"\x01" + P.TUPLE2
    if kind == "frombuffer":
        out += P.GLOBAL + b"numpy._core.numeric\n_frombuffer\n" + P.MARK + raw + P.BINGET + b"\x00" + shape
        out += _text("C") + P.TUPLE + P.REDUCE
    elif kind == "reconstruct":
        out += P.GLOBAL + b"numpy._core.multiarray\n_reconstruct\n" + P.GLOBAL + b"numpy\nndarray\n"
        out += P.BININT1 + b"\x00" + P.TUPLE1 + P.SHORT_BINBYTES + b"\x01b" + P.TUPLE3 + P.REDUCE
        out += P.MARK + P.BININT1 + b"\x01" + shape + P.BINGET + b"\x00" + P.NEWFALSE + raw + P.TUPLE + P.BUILD
    elif kind == "scalar":
        out += P.GLOBAL + b"numpy._core.multiarray\nscalar\n" + P.BINGET + b"\x00" + raw + P.TUPLE2 + P.REDUCE
    out += P.BINPUT + b"\x01" + P.POP + P.EMPTY_DICT + P.MARK
    for prefix in LAYER_PREFIXES:
        out += _text(prefix + "weight") + P.BINGET + b"\x01" + _text(prefix + "bias") + P.BINGET + b"\x01"
    return out + P.SETITEMS + P.STOP


LOAD_IN_A_CHILD = textwrap.dedent(
    """
    import sys
    from training.runtime.checkpoints import CheckpointError
    from training.runtime.policies import load_policy
    try:
        load_policy("rllib:" + sys.argv[1], sys.argv[2])
    except CheckpointError as e:
        print(f"CheckpointError: {e}")
        sys.exit(3)
    print("loaded")
    """
)


@pytest.mark.parametrize("kind", ["frombuffer", "reconstruct", "scalar"])
def test_a_crafted_module_state_is_a_checkpoint_error_not_a_segfault(tmp_path, kind):
    ck = _checkpoint(tmp_path, _crafted(kind))
    done = subprocess.run(
        [sys.executable, "-c", LOAD_IN_A_CHILD, str(ck), LH], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 3, f"exit {done.returncode} (a negative one is a signal):\n{done.stdout}{done.stderr}"
    assert done.stdout.startswith("CheckpointError: ") and "module_state.pkl" in done.stdout
    assert "refused" in done.stdout and "Traceback" not in done.stderr


def _drop(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


DAMAGED = {
    # herozoo.json
    "sidecar is a list": dict(sidecar="[1, 2]"),
    "policy is a string": dict(sidecar={**SIDECAR, "policy": "tanh"}),
    "policy is null": dict(sidecar={**SIDECAR, "policy": None}),
    "net_arch_pi is a number": dict(sidecar={**SIDECAR, "policy": {**SIDECAR["policy"], "net_arch_pi": 8}}),
    "env_options is a string": dict(sidecar={**SIDECAR, "env_options": "abc"}),
    "trained_module is a list": dict(sidecar={**SIDECAR, "trained_module": ["main"]}),
    # module_state.pkl
    "a list of arrays": dict(state=list(_weights().values())),
    "a dict of dicts": dict(state={"encoder": _weights()}),
    "a missing bias": dict(state=_drop(_weights(), "pi.net.mlp.0.bias")),
    "a 1-d weight": dict(state={**_weights(), "pi.net.mlp.0.weight": np.zeros(4, np.float32)}),
    "a bias of the wrong length": dict(state={**_weights(), "vf.net.mlp.0.bias": np.zeros(3, np.float32)}),
    "object arrays": dict(state={k: v.astype(object) for k, v in _weights().items()}),
    "string arrays": dict(state={**_weights(), "vf.net.mlp.0.bias": np.array(["1.0"])}),
    "structured arrays": dict(state={**_weights(), "vf.net.mlp.0.bias": np.zeros(1, dtype=[("x", "f4")])}),
    "complex weights": dict(state=_weights(np.complex64)),
    "truncated": dict(state=pickle.dumps(_weights(), protocol=5)[:-50]),
    "not a pickle": dict(state=b"hello, world"),
}


@pytest.mark.parametrize("case", list(DAMAGED))
def test_a_damaged_rllib_checkpoint_is_a_checkpoint_error(tmp_path, case):
    ck = _checkpoint(tmp_path, **DAMAGED[case])
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)  # "discarding the imaginary part"
        with pytest.raises(CheckpointError) as info:
            load_policy(f"rllib:{ck}", LH)
    assert type(info.value) is CheckpointError and str(ck) in str(info.value)


def test_complex_weights_are_refused_by_name(tmp_path):
    given = _weights(np.complex64)
    given["pi.net.mlp.0.weight"] = given["pi.net.mlp.0.weight"] + 1j  # an imaginary part a load would drop
    with pytest.raises(CheckpointError, match="c8|complex"):
        read_module_weights(_checkpoint(tmp_path, given))


def test_a_damaged_rllib_meta_file_is_ignored_not_a_crash(tmp_path):
    ck = _checkpoint(tmp_path)
    (ck / "rllib_checkpoint.json").write_text("[1, 2, 3]")  # what RLlib writes is an object with ray_version
    _, meta = convert(ck)
    assert meta["rllib"]["ray_version"] is None


# -- the browser server -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app(max_games=16), raise_server_exceptions=False) as c:
        yield c


def _json(body: bytes):
    return {"content": body, "headers": {"content-type": "application/json"}}


def test_reported_bodies_are_refused_with_400_not_500(client):
    game = client.post("/api/games", json={"env_id": LH, "seats": {"1": "random"}, "seed": 1}).json()
    gid, step = game["game_id"], game["step"]
    cases = [
        ("/api/games", {"json": {"env_id": ["last_heroes_v0"]}}, "unknown env id"),
        ("/api/games", {"json": {"env_id": {"a": 1}}}, "unknown env id"),
        ("/api/games", {"json": {"env_id": LH, "seats": {"²": "random"}}}, "not a seat"),
        ("/api/games", {"json": {"env_id": LH, "seats": {"1" * 5000: "random"}}}, "not a seat"),
        ("/api/games", _json(b"[" * 8000 + b"]" * 8000), "nested too deep"),
        ("/api/games", _json(b'{"env_id": ' + b"[" * 8000 + b"]" * 8000 + b"}"), "nested too deep"),
        ("/api/games", _json(b'{"env_id": ' + b"[" * 500 + b"]" * 500 + b"}"), "nested too deep"),
        (f"/api/games/{gid}/act", {"json": {"action": "²", "step": step}}, "not an action id"),
        (f"/api/games/{gid}/act", {"json": {"action": "٣", "step": step}}, "not an action id"),
        (f"/api/games/{gid}/act", {"json": {"action": "9" * 5000, "step": step}}, "not an action id"),
        (f"/api/games/{gid}/advance", _json(b'{"step": ' + b"[" * 5000 + b"]" * 5000 + b"}"), "nested too deep"),
    ]
    for path, kwargs, words in cases:
        r = client.post(path, **kwargs)
        assert r.status_code == 400 and words in r.json()["error"], (path, str(kwargs)[:80], r.text[:200])
    r = client.post(f"/api/games/{gid}/act", json={"action": game["legal"][0]["id"], "step": step})
    assert r.status_code == 200 and r.json()["step"] > step  # ... and the game goes on


@pytest.mark.parametrize("length", ["²", "0" * 5000, "-1", "1e3", " "], ids=["²", "5000 zeros", "-1", "1e3", "space"])
def test_a_bogus_content_length_is_refused(client, length):
    r = client.post(
        "/api/games", content=b"{}", headers={"content-type": "application/json", "content-length": length.encode()}
    )
    assert 400 <= r.status_code < 500


@pytest.mark.parametrize("cap", [0, -1, True, 2.5, 10**9])
def test_create_app_refuses_a_bad_game_limit(cap):
    with pytest.raises(ValueError, match="max_games must be an integer from 1 to"):
        serve.create_app(max_games=cap)


@pytest.fixture
def fake_uvicorn(monkeypatch):
    import uvicorn

    seen = {}

    def fake_run(app, host, port, **kw):
        seen.update(app=app, host=host, port=port)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return seen


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--max-games", "-1"], "--max-games -1"),
        (["--max-games", "0"], "--max-games 0"),
        (["--host", "0.0.0.0"], "--allowed-host"),
        (["--host", "::"], "--allowed-host"),
        (["--host", "0.0.0.0", "--allowed-host", "herozoo.lan:8000"], "without a port"),
        (["--host", "0.0.0.0", "--allowed-host", "*"], "--allowed-host '*'"),
    ],
)
def test_the_server_refuses_bad_limits_and_open_binds_at_start(fake_uvicorn, capsys, argv, words):
    with pytest.raises(SystemExit) as info:
        serve.main(argv)
    assert info.value.code == 2 and words in capsys.readouterr().err
    assert "app" not in fake_uvicorn  # nothing was served


def test_a_wildcard_bind_answers_only_the_hosts_given(fake_uvicorn):
    assert serve.main(["--host", "0.0.0.0", "--allowed-host", "HeroZoo.lan", "--allowed-host", "192.168.1.20"]) == 0
    with TestClient(fake_uvicorn["app"]) as c:
        for host, status in [
            ("herozoo.lan:8000", 200),
            ("192.168.1.20", 200),
            ("127.0.0.1:8000", 200),
            ("evil.example", 400),
            ("herozoo.lan.evil.example", 400),
            ("", 400),
        ]:
            assert c.get("/api/games", headers={"host": host}).status_code == status, host
    serve.main(["--host", "192.168.1.20"])  # a given address: it and loopback, as before
    with TestClient(fake_uvicorn["app"]) as c:
        assert c.get("/api/games", headers={"host": "192.168.1.20:8000"}).status_code == 200
        assert c.get("/api/games", headers={"host": "evil.example"}).status_code == 400
    serve.main([])
    with TestClient(fake_uvicorn["app"]) as c:
        assert c.get("/api/games", headers={"host": "evil.example"}).status_code == 400


# The fuzz: seeded, a few hundred requests, every one answered 2xx or 4xx.

ATOMS = [
    None, True, False, 0, 1, 2, -1, 3, 7, 10**30, -(10**30), 1.5, -0.0, math.nan, math.inf, "", "0", "1", " 1 ",
    "²", "٣", "-1", "1e3", "1.0", "\x00", "x" * 3000, "../../etc/passwd", "random", "heuristic", "human",
    "shipped", "checkpoint:last_heroes/nope", "NaN", LH, "lost_legends_v0", "last_bastion_v0",
]  # fmt: skip
KEYS = ["env_id", "num_players", "seat", "seats", "options", "seed", "action", "step", "policy", "²", ""]


def _value(rng: np.random.Generator, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.55:
        return ATOMS[rng.integers(len(ATOMS))]
    if roll < 0.7:
        return [_value(rng, depth + 1) for _ in range(rng.integers(0, 4))]
    if roll < 0.9:
        return {str(ATOMS[rng.integers(len(ATOMS))])[:20]: _value(rng, depth + 1) for _ in range(rng.integers(0, 4))}
    nest = int(rng.integers(10, 40))
    return json.loads("[" * nest + "]" * nest)


def _new_game_body(rng: np.random.Generator) -> dict:
    """Mostly plausible new-game bodies, with one or two hostile fields."""
    game = envs.ENV_IDS[rng.integers(len(envs.ENV_IDS))]
    cls = envs.game_class(game)
    n = int(rng.integers(cls.min_players, cls.max_players + 1))
    body = {"env_id": game, "num_players": n, "seat": int(rng.integers(n)), "seed": int(rng.integers(1000))}
    body["seats"] = {str(i): ["random", "heuristic"][rng.integers(2)] for i in range(n)}
    for _ in range(rng.integers(0, 3)):
        key = KEYS[rng.integers(6)]
        body[key] = _value(rng)
        if key == "seats" and rng.random() < 0.5:
            body[key] = {str(_value(rng))[:10]: _value(rng) for _ in range(rng.integers(1, 4))}
        if key == "options" and rng.random() < 0.5:
            body[key] = {name: _value(rng) for name in ("engine", "difficulty", "content", "score_floor", "x")}
    return body


RAW_BODIES = [
    b"", b"{", b"}", b"null", b"[]", b'"x"', b"1" * 5000, b"\xff\xfe{}", b"\x00" * 100, b'{"a": 1',
    b'{"env_id": "last_heroes_v0", "seed": 1' + b"0" * 5000 + b"}", b"[" * 8000 + b"]" * 8000,
    b'{"env_id": "last_heroes_v0", "seats": ' + b"{" * 20 + b"}" * 20 + b"}", b'{"env_id": NaN}',
    b'{"env_id": "\\ud800"}', b'{"step": 1e999, "action": -1e999}', "{\"seats\": {\"²\": 1}}".encode(),
]  # fmt: skip
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", ""]
METHODS = ["GET", "POST", "DELETE", "PUT", "PATCH"]
SUFFIXES = ["", "/act", "/advance", "/hint", "/replay", "/nope", "/act/x"]
BAD_IDS = ["nope", "", "%00", "..", "%2e%2e", "x" * 3000, "%C2%B2", "a b", "null"]


def test_fuzz_the_server_never_answers_500(client, monkeypatch):
    monkeypatch.setattr(serve, "BOT_SLICE", 0.0)  # one bot move per request: bounded time per request
    rng = np.random.default_rng(21)
    live: dict[str, dict] = {}  # game id -> its last state
    answers: list[tuple[int, str]] = []

    def send(what: str, method: str, path: str, **kw):
        if "json" in kw:  # json.dumps as a careless client would: NaN and Infinity included
            kw = {"content": json.dumps(kw.pop("json")).encode(), "headers": {"content-type": "application/json"}, **kw}
        r = client.request(method, path, **kw)
        answers.append((r.status_code, f"{what}: {method} {path[:80]} {str(kw)[:160]}"))
        if (
            r.status_code < 500
            and path.startswith("/api/games")
            and r.headers.get("content-type", "").startswith("application/json")
        ):
            data = r.json()
            if isinstance(data, dict) and isinstance(data.get("game_id"), str) and "legal" in data:
                live[data["game_id"]] = data
            elif isinstance(data.get("state"), dict) and data["state"].get("game_id") in live:
                live[data["state"]["game_id"]] = data["state"]
        return r

    for i in range(360):
        roll = rng.random()
        if roll < 0.2:
            send("new game", "POST", "/api/games", json=_new_game_body(rng))
        elif roll < 0.3:
            body = RAW_BODIES[rng.integers(len(RAW_BODIES))]
            kind = CONTENT_TYPES[rng.integers(len(CONTENT_TYPES))]
            path = "/api/games" if rng.random() < 0.5 or not live else f"/api/games/{next(iter(live))}/act"
            send("raw body", "POST", path, content=body, headers={"content-type": kind})
        elif roll < 0.4:
            gid = BAD_IDS[rng.integers(len(BAD_IDS))] if rng.random() < 0.5 or not live else list(live)[-1]
            path = f"/api/games/{gid}{SUFFIXES[rng.integers(len(SUFFIXES))]}"
            body = {"json": _value(rng)} if rng.random() < 0.5 else {}
            send("any route", METHODS[rng.integers(len(METHODS))], path, **body)
        elif not live:
            send("new game", "POST", "/api/games", json={"env_id": LH, "seats": {"1": "random"}, "seed": i})
        else:
            gid = list(live)[rng.integers(len(live))]
            state = live[gid]
            legal = [a["id"] for a in state.get("legal") or []]
            good_step = state.get("step", 0)
            roll = rng.random()
            if roll < 0.45:  # an action: often the legal one, sometimes not
                action = legal[rng.integers(len(legal))] if legal and rng.random() < 0.6 else _value(rng)
                step = good_step if rng.random() < 0.7 else _value(rng)
                body = {"action": action, "step": step} if rng.random() < 0.9 else {"action": action}
                send("act", "POST", f"/api/games/{gid}/act", json=body)
            elif roll < 0.65:
                step = good_step if rng.random() < 0.7 else _value(rng)
                send("advance", "POST", f"/api/games/{gid}/advance", json={"step": step})
            elif roll < 0.8:
                policy = str(_value(rng)) if rng.random() < 0.5 else ["random", "heuristic", "shipped"][rng.integers(3)]
                send("hint", "GET", f"/api/games/{gid}/hint", params={"policy": policy[:200]})
            elif roll < 0.9:
                send("get", "GET", f"/api/games/{gid}" + ["", "/replay"][rng.integers(2)])
            else:
                send("delete", "DELETE", f"/api/games/{gid}")
                live.pop(gid, None)
    errors = [what for status, what in answers if status >= 500 or status < 200]
    assert not errors, f"{len(errors)} answers were not 2xx/4xx, e.g.:\n" + "\n".join(errors[:8])
    statuses = {status for status, _ in answers}
    assert {200, 201, 400, 404} <= statuses  # the fuzz reached games, refusals and unknown ids
    assert any(status == 200 and what.startswith("act") for status, what in answers)  # moves were played


# -- resume ---------------------------------------------------------------------------------------------

TINY = ["run.n_envs=1", "run.vec_env=dummy", "ppo.n_steps=64", "ppo.batch_size=32", "ppo.net_arch=[8]"]


class StartedOver(Exception):
    """train() reached build_model on --resume: it would train again from step 0."""


class Loaded(Exception):
    """train() loaded latest.zip and went on to apply the config (stopped here: no training)."""


@pytest.fixture
def keep_torch_threads():
    import torch

    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def saved_latest(tmp_path_factory) -> bytes:
    """The bytes of a real checkpoints/latest.zip of a tiny model (as a run saves it)."""
    import torch

    from training.config import load_config
    from training.train import build_model, make_vec_env, save_resumable

    threads = torch.get_num_threads()
    folder = tmp_path_factory.mktemp("latest")
    cfg = load_config(None, TINY)
    vec_env = make_vec_env(cfg, folder / "pool")
    try:
        save_resumable(build_model(cfg, vec_env, folder), folder)
    finally:
        vec_env.close()
        torch.set_num_threads(threads)
    return (folder / "checkpoints" / "latest.zip").read_bytes()


def _run_dir(tmp_path: Path, latest: bytes | None, marker: bool = True) -> Path:
    from training.config import load_config, save_config

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    save_config(load_config(None, TINY), run / "config.yaml")
    if latest is not None:
        (run / "checkpoints" / "latest.zip").write_bytes(latest)
    if marker:
        (run / "checkpoints" / "latest.json").write_text(json.dumps({"timesteps": 4096}))
    return run


def _resume(run: Path, monkeypatch, capsys) -> tuple[int | str, str]:
    from training import train

    def started_over(*a, **kw):
        raise StartedOver

    def loaded(model, cfg):
        raise Loaded(model.num_timesteps)

    monkeypatch.setattr(train, "build_model", started_over)
    monkeypatch.setattr(train, "apply_ppo_settings", loaded)
    try:
        train.main(["--resume", str(run)])
    except SystemExit as e:
        return e.code, capsys.readouterr().err
    except (StartedOver, Loaded) as e:
        return type(e).__name__, capsys.readouterr().err
    return "returned", capsys.readouterr().err


def test_resume_refuses_when_latest_zip_is_missing(tmp_path, monkeypatch, capsys, keep_torch_threads):
    run = _run_dir(tmp_path, latest=None)
    code, err = _resume(run, monkeypatch, capsys)
    assert code == 2, f"--resume with latest.json but no latest.zip ended with {code!r}"
    assert "latest.zip is missing" in err and "latest.json" in err and "step 0" in err


def flip_a_byte(data: bytes) -> bytes:
    b = bytearray(data)
    b[len(b) // 2] ^= 0xFF  # inside policy.pth: the zip's CRC no longer matches
    return bytes(b)


@pytest.mark.parametrize(
    "damage",
    [flip_a_byte, lambda d: d[: len(d) // 2], lambda d: b"", lambda d: b"not a zip file at all"],
    ids=["flipped byte", "truncated", "empty", "not a zip"],
)
def test_resume_names_a_damaged_latest_zip(tmp_path, monkeypatch, capsys, keep_torch_threads, saved_latest, damage):
    run = _run_dir(tmp_path, damage(saved_latest))
    code, err = _resume(run, monkeypatch, capsys)
    assert code == 2, f"--resume with a damaged latest.zip ended with {code!r}"
    assert f"{run / 'checkpoints' / 'latest.zip'} is damaged" in err and "backup" in err and "step 0" in err


def test_resume_from_an_intact_latest_zip_loads_it(tmp_path, monkeypatch, capsys, keep_torch_threads, saved_latest):
    with zipfile.ZipFile(io.BytesIO(saved_latest)) as z:
        assert z.testzip() is None
    code, _ = _resume(_run_dir(tmp_path, saved_latest), monkeypatch, capsys)
    assert code == "Loaded"


def test_resume_of_a_run_without_checkpoints_says_so(tmp_path, monkeypatch, capsys, keep_torch_threads):
    run = _run_dir(tmp_path, latest=None, marker=False)
    code, err = _resume(run, monkeypatch, capsys)
    assert code == "StartedOver" and "no checkpoint saved yet; training from step 0" in err


# -- the play prompt ------------------------------------------------------------------------------------


def run_terminal(argv, answers, width=140):
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    feed = iter(answers)

    def input_fn(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None  # what input() raises at the end of its input

    code = play.main(argv, input_fn=input_fn, console=console)
    return code, out.getvalue()


GAME = [LH, "--players", "2", "--seed", "5", "--seat", "0=human", "--seat", "1=random"]
TYPED = ["²", "-²", "٣", "--1", "9" * 5000, "-" + "9" * 5000, "0" * 20, "\x00", "s \x00", "s ", "h human",
         "h " + "x" * 5000, "h \x00", "h rllib:/nonexistent", "/" + "x" * 5000, "[bold]", "\x1b[2J"]  # fmt: skip


@pytest.mark.parametrize("line", TYPED, ids=[repr(s if len(s) < 12 else s[:8] + "...")[1:-1] for s in TYPED])
def test_no_line_typed_ends_the_game_and_end_of_input_is_polite(line):
    code, text = run_terminal(GAME, [line])  # then end of input
    assert code == 0 and "stopped before the end of the game" in text, text[-400:]


def test_a_game_goes_on_to_its_end_after_every_hostile_line():
    code, text = run_terminal(GAME, chain(TYPED, repeat("1")))
    assert code == 0 and "Game over" in text
    assert "no hint:" in text and "is out of range" in text and "is not a number or a command" in text


def test_the_replay_prompt_survives_the_same_lines(tmp_path):
    session = Session.new(LH, 2, ["human", "random"], seed=3)
    while not session.is_over():
        session.play(session.view(session.human_to_act)["legal"][0]["id"], step=session.step)
    path = save_replay(tmp_path / "r.json", session.replay())
    code, text = run_terminal(["--replay", str(path)], ["²", "9" * 5000, "-1", "--1", "", "e"])
    assert code == 0 and "end of the replay" in text


# -- options --------------------------------------------------------------------------------------------


NON_FINITE = [
    ("lost_legends_v0", "shaped_terminal_weight", math.inf),
    ("lost_legends_v0", "shaped_terminal_weight", -math.inf),
    ("lost_legends_v0", "shaped_terminal_weight", math.nan),
    ("lost_legends_v0", "shaped_terminal_weight", 10**400),
    ("lost_legends_v0", "shaped_scale", math.inf),
    ("last_heroes_v0", "shaping_coef", math.inf),
    ("heroes_and_monsters_v0", "shaping_weights", {"defeat": math.inf}),
    ("heroes_and_monsters_v0", "shaping_weights", {"heal": math.nan}),
]


@pytest.mark.parametrize(
    "env_id, name, value", NON_FINITE, ids=[f"{n}={'10**400' if v == 10**400 else v}" for _, n, v in NON_FINITE]
)
def test_non_finite_numbers_are_refused_naming_the_option(env_id, name, value):
    allowed = next(o.allowed for o in envs.game_class(env_id).option_spec if o.name == name)
    with pytest.raises(ValueError, match=rf"option {name}=.* is not allowed; {name} must be ") as info:
        envs.make(env_id, **{name: value})
    assert allowed in str(info.value)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_the_refusal_of_a_non_finite_number_says_why(value):
    with pytest.raises(ValueError, match="NaN and infinities are refused"):
        envs.make("lost_legends_v0", shaped_terminal_weight=value)


@pytest.mark.parametrize(
    "env_id, options",
    [
        ("lost_legends_v0", {"shaped_terminal_weight": 0.5, "shaped_scale": 1}),
        ("lost_legends_v0", {"shaped_terminal_weight": 0}),
        ("last_heroes_v0", {"shaping_coef": 2}),
        ("heroes_and_monsters_v0", {"shaping_weights": {"defeat": -0.5, "heal": 1}}),
    ],
)
def test_finite_numbers_are_still_accepted(env_id, options):
    envs.make(env_id, **options)
