"""The browser server's JSON API over HTTP (starlette's TestClient): whole games, and every refusal."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

import envs
from training.playing import server as serve
from training.playing.replay import validate_replay
from training.playing.session import Session, shipped_checkpoint

ENV_IDS = list(envs.ENV_IDS)


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app(max_games=8)) as c:
        yield c


def new_game(client, env_id="last_heroes_v0", **body):
    body = {"env_id": env_id, **body}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play_to_end(client, state, limit=3000):
    gid = state["game_id"]
    for _ in range(limit):
        if state["over"]:
            return state
        if state["bots_to_move"]:  # the bots move in slices: ask for more, as the page does
            r = client.post(f"/api/games/{gid}/advance", json={"step": state["step"]})
            assert r.status_code == 200, r.text
            state = r.json()
            continue
        assert state["your_turn"] and state["legal"]
        r = client.post(f"/api/games/{gid}/act", json={"action": state["legal"][0]["id"], "step": state["step"]})
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the game did not end")


def test_the_page_and_its_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "herozoo" in r.text and "/static/app.js" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in (
        "/static/session.py",
        "/static/../session.py",
        "/static/%2e%2e/serve.py",
        "/static/",
        "/etc/passwd",
        "/static/..%2F..%2Fpyproject.toml",
    ):
        r = client.get(path)
        assert r.status_code == 404 and "[project]" not in r.text and "import" not in r.text


def test_the_catalogue_lists_every_game_and_offers_only_known_bots(client):
    cat = client.get("/api/games").json()
    assert [g["env_id"] for g in cat["games"]] == ENV_IDS
    for g in cat["games"]:
        specs = [b["spec"] for b in g["bots"]]
        assert specs[:3] == ["shipped", "heuristic", "random"]
        searches = ["search-0.1s", "search-1s"] if shipped_checkpoint(g["env_id"]) else []
        assert specs[3 : 3 + len(searches)] == searches
        assert all(s.startswith("checkpoint:") for s in specs[3 + len(searches) :])
        assert g["min_players"] <= g["default_players"] <= g["max_players"]
        assert all(o["name"] not in ("reward_scheme", "observation_mode") for o in g["options"])
    lb = next(g for g in cat["games"] if g["env_id"] == "last_bastion_v0")
    assert any(o["name"] == "difficulty" for o in lb["options"]) and lb["cooperative"]
    if shipped_checkpoint("last_heroes_v0") is not None:
        lh = next(g for g in cat["games"] if g["env_id"] == "last_heroes_v0")
        assert "checkpoint:last_heroes/last_heroes" in [b["spec"] for b in lh["bots"]]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_whole_game_over_http(client, env_id):
    g = envs.game_class(env_id)
    n = max(2, g.min_players)
    state = new_game(client, env_id, num_players=n, seat=1, seats={str(i): "random" for i in range(n)}, seed=7)
    assert state["seat"] == 1 and state["num_players"] == n and state["cooperative"] == g.cooperative
    assert state["board"]["sections"] and not state["board"]["generic"]
    gid = state["game_id"]
    state = play_to_end(client, state)
    assert state["result"]["verdict"] and state["result"]["reason"]
    assert client.get(f"/api/games/{gid}").json()["step"] == state["step"]
    r = client.get(f"/api/games/{gid}/replay")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = validate_replay(r.json())
    assert data["seats"][1] == "human" and data["env_id"] == env_id and len(data["actions"]) == state["step"]
    again = Session.from_replay(data, advance=False)
    assert again.is_over() and again.result(1)["winners"] == state["result"]["winners"]
    # The game is over: an action now is refused, with the state.
    r = client.post(f"/api/games/{gid}/act", json={"action": 0, "step": state["step"]})
    assert r.status_code == 409 and r.json()["state"]["over"]


def test_stale_and_illegal_actions_get_an_error_and_the_state(client):
    state = new_game(client, "last_heroes_v0", seats={"1": "random"}, seed=3)
    gid = state["game_id"]
    legal = [a["id"] for a in state["legal"]]
    illegal = next(a for a in range(132) if a not in legal)
    r = client.post(f"/api/games/{gid}/act", json={"action": illegal, "step": state["step"]})
    assert r.status_code == 400 and "is illegal" in r.json()["error"] and r.json()["state"]["step"] == state["step"]
    for bad in ("x", None, -1, 10**9, [1], {"a": 1}, True):
        r = client.post(f"/api/games/{gid}/act", json={"action": bad, "step": state["step"]})
        assert r.status_code == 400 and r.json()["state"]["step"] == state["step"], bad
    r = client.post(f"/api/games/{gid}/act", json={"action": legal[0], "step": state["step"] + 5})
    assert r.status_code == 409 and "stale" in r.json()["error"] and r.json()["state"]["legal"] == state["legal"]
    r = client.post(f"/api/games/{gid}/act", json={"action": legal[0]})
    assert r.status_code == 400 and "step" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/act", content=b"x" * (serve.MAX_BODY + 1))
    assert r.status_code == 413
    # ... and the game goes on.
    r = client.post(f"/api/games/{gid}/act", json={"action": legal[0], "step": state["step"]})
    assert r.status_code == 200 and r.json()["step"] > state["step"]


def test_new_game_fields_are_validated(client, tmp_path):
    bad = [
        ({"env_id": "chess_v0"}, "unknown env id"),
        ({"env_id": "../../etc/passwd"}, "unknown env id"),
        ({"env_id": "last_heroes_v0", "num_players": 9}, "num_players"),
        ({"env_id": "last_heroes_v0", "num_players": "2"}, "num_players"),
        ({"env_id": "last_heroes_v0", "seat": 4}, "seat"),
        ({"env_id": "last_heroes_v0", "seats": {"1": str(tmp_path / "x.json")}}, "not one of the bots"),
        ({"env_id": "last_heroes_v0", "seats": {"1": "checkpoints/last_heroes/last_heroes.json"}}, "not one of"),
        ({"env_id": "last_heroes_v0", "seats": {"1": "human"}}, "not one of the bots"),
        ({"env_id": "last_heroes_v0", "seats": {"7": "random"}}, "not a seat"),
        ({"env_id": "last_heroes_v0", "seats": "random"}, "seats must be"),
        ({"env_id": "last_heroes_v0", "options": {"content": "/etc/passwd"}}, "cannot be set here"),
        ({"env_id": "last_heroes_v0", "options": {"engine": "rust"}}, "not allowed"),
        ({"env_id": "last_bastion_v0", "options": {"difficulty": "impossible"}}, "not allowed"),
        ({"env_id": "last_heroes_v0", "seed": -1}, "seed"),
        ({"env_id": "last_heroes_v0", "seed": "1; rm -rf /"}, "seed"),
    ]
    for body, words in bad:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    state = new_game(client, "last_bastion_v0", num_players=2, options={"difficulty": "heroic"}, seed=1)
    assert state["seats"][0]["human"] and not state["seats"][1]["human"]


def test_several_games_stay_apart_and_unknown_ids_are_404(client):
    a = new_game(client, "last_heroes_v0", seats={"1": "random"}, seed=1)
    b = new_game(client, "lost_legends_v0", num_players=3, seat=2, seats={"0": "random", "1": "heuristic"}, seed=1)
    assert a["game_id"] != b["game_id"]
    r = client.post(f"/api/games/{a['game_id']}/act", json={"action": a["legal"][0]["id"], "step": a["step"]})
    assert r.status_code == 200
    b2 = client.get(f"/api/games/{b['game_id']}").json()
    assert b2["step"] == b["step"] and b2["env_id"] == "lost_legends_v0" and b2["seat"] == 2
    # b's legal actions are not a's: sending b's step to a is stale.
    r = client.post(f"/api/games/{a['game_id']}/act", json={"action": a["legal"][0]["id"], "step": a["step"]})
    assert r.status_code in (400, 409)
    for path in ("/api/games/nope", "/api/games/nope/hint", "/api/games/nope/replay"):
        assert client.get(path).status_code == 404
    assert client.delete(f"/api/games/{a['game_id']}").status_code == 200
    assert client.get(f"/api/games/{a['game_id']}").status_code == 404


def test_hint_over_http(client):
    state = new_game(client, "heroes_and_monsters_v0", num_players=2, seats={"1": "random"}, seed=4)
    gid = state["game_id"]
    h = client.get(f"/api/games/{gid}/hint", params={"policy": "heuristic"}).json()
    assert h["action"] in [a["id"] for a in state["legal"]] and h["probability"] == 1.0 and h["how"]
    h = client.get(f"/api/games/{gid}/hint", params={"policy": "random"}).json()
    assert h["probability"] == pytest.approx(1 / len(state["legal"]))
    r = client.get(f"/api/games/{gid}/hint", params={"policy": "/etc/passwd"})
    assert r.status_code == 400 and "not one of the bots" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["step"] == state["step"]  # a hint plays nothing


def test_the_store_keeps_at_most_its_cap():
    with TestClient(serve.create_app(max_games=2)) as c:
        ids = [new_game(c, "last_bastion_v0", num_players=1, seed=i)["game_id"] for i in range(3)]
        assert c.get(f"/api/games/{ids[0]}").status_code == 404
        assert all(c.get(f"/api/games/{g}").status_code == 200 for g in ids[1:])


def test_other_sites_cannot_drive_the_server(client):
    """A cross-site form posts text/plain (no CORS preflight): refused. Unknown Host headers too."""
    r = client.post("/api/games", content=b'{"env_id": "last_heroes_v0"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/games", data={"env_id": "last_heroes_v0"})
    assert r.status_code == 415
    assert "access-control-allow-origin" not in {k.lower() for k in r.headers}
    with TestClient(serve.create_app(max_games=2, allowed_hosts=["127.0.0.1", "localhost"])) as c:
        assert c.get("/api/games", headers={"host": "evil.example"}).status_code == 400
        assert c.get("/api/games", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert c.get("/api/games", headers={"host": "127.0.0.1.evil.example"}).status_code == 400
    with TestClient(serve.create_app(max_games=2, allowed_hosts=["[::1]", "localhost"])) as c:
        assert c.get("/api/games", headers={"host": "[::1]:8000"}).status_code == 200
        assert c.get("/api/games", headers={"host": "[::2]:8000"}).status_code == 400


def test_host_names_keep_ipv6_brackets():
    assert serve.host_name("[::1]:8000") == "[::1]" and serve.host_name("LOCALHOST:80") == "localhost"
    assert serve.host_name("127.0.0.1") == "127.0.0.1"


def test_the_server_listens_on_loopback_by_default(monkeypatch):
    seen = {}

    def fake_run(app, host, port, **kw):
        seen.update(host=host, port=port)

    import uvicorn

    monkeypatch.setattr(uvicorn, "run", fake_run)
    assert serve.main([]) == 0
    assert seen == {"host": "127.0.0.1", "port": 8000}
    serve.main(["--port", "8123"])
    assert seen["port"] == 8123


def test_a_listed_checkpoint_plays_as_a_bot(client):
    if shipped_checkpoint("last_heroes_v0") is None:
        pytest.skip("no shipped Last Heroes checkpoint in this tree")
    state = new_game(client, "last_heroes_v0", seats={"1": "checkpoint:last_heroes/last_heroes"}, seed=2)
    state = play_to_end(client, state)
    assert state["seats"][1]["spec"] == "last_heroes"
    assert json.dumps(state)


def test_a_search_bot_moves_one_slice_per_request(client, monkeypatch):
    monkeypatch.setattr(serve, "BOT_SLICE", 0.0)  # one bot move per request
    state = new_game(client, num_players=2, seat=1, seats={"0": "search-0.1s"}, seed=3)
    gid, moves = state["game_id"], len(state["log"])
    assert moves == 1 and state["seats"][0]["spec"].startswith("search:")
    while state["bots_to_move"]:
        r = client.post(f"/api/games/{gid}/advance", json={"step": state["step"]})
        assert r.status_code == 200 and len(r.json()["log"]) == moves + 1  # exactly one more move
        state, moves = r.json(), moves + 1
    assert state["your_turn"]
    stale = client.post(f"/api/games/{gid}/advance", json={"step": state["step"] - 1})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    assert client.post(f"/api/games/{gid}/advance", json={"step": "x"}).status_code == 400
