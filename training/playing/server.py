"""Play herozoo games in the browser: a small local server (Starlette + uvicorn) and one page.

    python -m training.serve                 # http://127.0.0.1:8000
    python -m training.serve --port 8080

The page lets a person choose a game, the player count, their seat and who plays every other seat
(random, heuristic, the shipped bot, or a checkpoint the server lists), then see the board from their
seat, click a legal action (grouped by kind, or by clicking the card or monster it names), follow the
bots' moves in a log, ask for a hint, download the replay, and start again.

The JSON API (every game is a :class:`training.playing.session.Session` held in memory under a
random token; at most ``--max-games`` are kept, the least recently used dropped first):

| Method and path | What |
|---|---|
| `GET /api/games` | the games, their player counts, options, and the seat specs offered |
| `POST /api/games` | a new game: `{env_id, num_players, seat, seats?, options?, seed?}` -> its state |
| `GET /api/games/{id}` | the state from the human's seat: board, text, legal actions, log, result |
| `POST /api/games/{id}/act` | `{action, step}`: play a legal action; a stale `step` gets 409 and the state |
| `POST /api/games/{id}/advance` | `{step}`: let the bots move for up to a short slice; the state |
| `GET /api/games/{id}/hint?policy=SPEC` | what a bot would play now, and its probability |
| `GET /api/games/{id}/replay` | the replay file (JSON, as a download) |
| `DELETE /api/games/{id}` | forget the game |

Bots move in slices of ``BOT_SLICE`` seconds of wall time (at least one move each): a state with
``bots_to_move`` asks the page to call ``advance`` again, so every bot move appears as it is made and
no request waits for more than one slow bot (a search bot at 1 CPU-second a move). The search bots
(``search-0.1s``, ``search-1s``: the shipped network searched for that long) are offered wherever a
game has a shipped network.

Nothing a client sends names a file: seat specs are words or ids of the checkpoints listed by the
server, options are checked against each game's allowed values, and the page's files are a fixed set.
Bound to 127.0.0.1 unless ``--host`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from collections import OrderedDict
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

import envs
from envs.core.game import IllegalActionError
from training.playing.replay import ReplayError
from training.playing.session import (
    CHECKPOINT_DIR,
    MAX_SEED,
    NotYourTurnError,
    Session,
    StaleActionError,
    default_players,
    game_name,
    shipped_checkpoint,
)

MAX_BODY = 16 * 1024
DEFAULT_MAX_GAMES = 64
MAX_GAMES_LIMIT = 10_000  # --max-games at most (each game is kept in memory)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
WILDCARD_BINDS = ("0.0.0.0", "::", "")  # --host values that listen on every address
# Options a player may choose in the page: those with a closed list of values, minus the ones that
# only matter to training (rewards, observation encoding).
HIDDEN_OPTIONS = frozenset({"num_players", "reward_scheme", "observation_mode"})
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class ApiError(Exception):
    def __init__(self, status: int, message: str, state: dict[str, Any] | None = None):
        super().__init__(message)
        self.status, self.message, self.state = status, message, state


def _pretty(name: str) -> str:
    return " ".join(w.capitalize() if w not in ("and",) else w for w in name.split("_"))


# -- the catalogue: games, options and bots a client may ask for ----------------------------------------


def list_checkpoints(env_id: str, folder: Path = CHECKPOINT_DIR) -> dict[str, Path]:
    """Checkpoint id -> metadata file, for the checkpoints of ``env_id`` under ``checkpoints/<game>/``
    (files whose JSON names that env id and whose weights file sits beside it)."""
    out: dict[str, Path] = {}
    game_dir = folder / game_name(env_id)
    if not game_dir.is_dir():
        return out
    for path in sorted(game_dir.glob("*.json")):
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or meta.get("env_id") != env_id or "weights_file" not in meta:
            continue
        weights = path.parent / str(meta["weights_file"])
        if weights.parent == path.parent and weights.is_file():
            out[f"checkpoint:{game_name(env_id)}/{path.stem}"] = path
    return out


#: the search bots offered beside a shipped network: word -> (policy spec, label)
SEARCH_BOTS = {
    "search-0.1s": ("search:prior=shipped,seconds=0.1", "search, 0.1 CPU-s a move (shipped network inside)"),
    "search-1s": ("search:prior=shipped,seconds=1", "search, 1 CPU-s a move (shipped network inside)"),
}
BOT_SLICE = 0.25  # seconds of bot moves per request before the page is answered


def catalogue(checkpoint_dir: Path = CHECKPOINT_DIR) -> dict[str, Any]:
    games = []
    for env_id in envs.ENV_IDS:
        game_cls = envs.game_class(env_id)
        shipped = shipped_checkpoint(env_id) if checkpoint_dir == CHECKPOINT_DIR else None
        bots = [
            {"spec": "shipped", "label": f"shipped bot ({Path(shipped).stem if shipped else 'heuristic'})"},
            {"spec": "heuristic", "label": "heuristic (rule-based)"},
            {"spec": "random", "label": "random"},
        ]
        if shipped:
            bots += [{"spec": word, "label": label} for word, (_, label) in SEARCH_BOTS.items()]
        bots += [{"spec": cid, "label": cid.split(":", 1)[1]} for cid in list_checkpoints(env_id, checkpoint_dir)]
        options = [
            {"name": o.name, "default": o.default, "choices": list(o.choices), "doc": o.doc}
            for o in game_cls.option_spec
            if o.choices and o.name not in HIDDEN_OPTIONS
        ]
        games.append(
            {
                "env_id": env_id,
                "name": _pretty(game_name(env_id)),
                "min_players": game_cls.min_players,
                "max_players": game_cls.max_players,
                "default_players": default_players(env_id),
                "cooperative": bool(game_cls.cooperative),
                "bots": bots,
                "options": options,
            }
        )
    return {"games": games}


# -- the store of games ---------------------------------------------------------------------------------


class GameStore:
    """Sessions by random token, at most ``cap`` of them (the least recently used dropped first)."""

    def __init__(self, cap: int = DEFAULT_MAX_GAMES):
        if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_GAMES_LIMIT:
            raise ValueError(f"max_games must be an integer from 1 to {MAX_GAMES_LIMIT}, got {cap!r}")
        self.cap = cap
        self._games: OrderedDict[str, tuple[Session, int]] = OrderedDict()

    def add(self, session: Session, seat: int) -> str:
        token = secrets.token_urlsafe(18)
        self._games[token] = (session, seat)
        while len(self._games) > self.cap:
            self._games.popitem(last=False)
        return token

    def get(self, token: str) -> tuple[Session, int]:
        if not isinstance(token, str) or token not in self._games:
            raise ApiError(404, "no such game (it ended long ago, was dropped, or the server restarted)")
        self._games.move_to_end(token)
        return self._games[token]

    def drop(self, token: str) -> None:
        self._games.pop(token, None)

    def __len__(self) -> int:
        return len(self._games)


# -- the app ----------------------------------------------------------------------------------------------


def _state(token: str, session: Session, seat: int) -> dict[str, Any]:
    view = session.view(seat)
    view["game_id"] = token
    return view


MAX_DEPTH = 16  # how deep a request body's JSON may nest (a new game's body is 2 levels deep)


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and (not _ascii_number(length, 9) or int(length) > MAX_BODY):
        raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError(413, f"request body too large (at most {MAX_BODY} bytes)")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        # A cross-site form cannot send this type without the browser asking first (CORS), which
        # this server never allows: another web page cannot play or start games here.
        raise ApiError(415, f"send the body as application/json, not {kind or 'no content type'}")
    try:
        body = json.loads(data or b"{}")
    except ValueError:
        raise ApiError(400, "the request body is not valid JSON") from None
    except RecursionError:
        raise ApiError(400, f"the request body is nested too deep (at most {MAX_DEPTH} levels)") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    if _depth(body) > MAX_DEPTH:
        raise ApiError(400, f"the request body is nested too deep (at most {MAX_DEPTH} levels)")
    return body


def _depth(value: Any) -> int:
    """How deep lists and objects nest in a parsed JSON value (without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            todo.extend((x, depth + 1) for x in (item.values() if isinstance(item, dict) else item))
    return deepest


def _ascii_number(text: str, digits: int) -> bool:
    """``text`` is 1 to ``digits`` ASCII digits (str.isdigit alone also takes "²", which int() refuses)."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{what} must be an integer from {low} to {high}, got {value!r}")
    return value


def create_app(
    max_games: int = DEFAULT_MAX_GAMES,
    checkpoint_dir: Path = CHECKPOINT_DIR,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """The Starlette app (tests drive it with ``starlette.testclient.TestClient``). ``allowed_hosts``:
    the Host headers answered (the others get 400, against DNS rebinding); None answers any."""
    store = GameStore(max_games)
    cat = catalogue(checkpoint_dir)
    games_by_id = {g["env_id"]: g for g in cat["games"]}
    static = {name: resources.files("training.playing").joinpath("static", name).read_bytes() for name in STATIC_FILES}

    def bot_spec(env_id: str, spec: Any, seat: int) -> str:
        offered = [b["spec"] for b in games_by_id[env_id]["bots"]]
        if not isinstance(spec, str) or spec not in offered:
            raise ApiError(400, f"seat {seat}: {spec!r} is not one of the bots offered for {env_id}: {offered}")
        if spec.startswith("checkpoint:"):
            return str(list_checkpoints(env_id, checkpoint_dir)[spec])
        return SEARCH_BOTS[spec][0] if spec in SEARCH_BOTS else spec

    def options_of(env_id: str, given: Any) -> dict[str, Any]:
        if given is None:
            return {}
        if not isinstance(given, Mapping):
            raise ApiError(400, "options must be an object {name: value}")
        allowed = {o["name"]: o["choices"] for o in games_by_id[env_id]["options"]}
        out = {}
        for name, value in given.items():
            if name not in allowed:
                raise ApiError(400, f"option {name!r} cannot be set here; {env_id} offers {sorted(allowed)}")
            if not any(type(value) is type(c) and value == c for c in allowed[name]):  # True is not 1
                raise ApiError(400, f"option {name}={value!r} is not allowed; choose one of {allowed[name]}")
            out[name] = value
        return out

    async def index(request: Request) -> Response:
        return Response(static["index.html"], media_type=STATIC_FILES["index.html"])

    def static_route(name: str):
        async def serve(request: Request) -> Response:
            return Response(static[name], media_type=STATIC_FILES[name])

        return serve

    async def list_games(request: Request) -> Response:
        return JSONResponse(cat)

    async def new_game(request: Request) -> Response:
        body = await _body(request)
        env_id = body.get("env_id")
        if not isinstance(env_id, str) or env_id not in games_by_id:
            raise ApiError(400, f"unknown env id {env_id!r}; the games are {list(games_by_id)}")
        g = games_by_id[env_id]
        n = _int(body.get("num_players", g["default_players"]), "num_players", g["min_players"], g["max_players"])
        seat = _int(body.get("seat", 0), "seat", 0, n - 1)
        given = body.get("seats") or {}
        if isinstance(given, list):
            given = {str(i): s for i, s in enumerate(given) if i != seat and s is not None}
        if not isinstance(given, Mapping):
            raise ApiError(400, "seats must be an object {seat: bot} or a list of bots")
        specs: dict[int, str] = {}
        for key, spec in given.items():
            if not (isinstance(key, str) and _ascii_number(key, 3)) or not 0 <= int(key) < n:
                raise ApiError(400, f"seats: {key!r} is not a seat of a {n}-player game")
            if int(key) != seat:
                specs[int(key)] = bot_spec(env_id, spec, int(key))
        specs[seat] = "human"
        seed = body.get("seed")
        if seed is not None:
            seed = _int(seed, "seed", 0, MAX_SEED)
        options = options_of(env_id, body.get("options"))
        try:
            session = Session.new(env_id, n, specs, seed, options, advance=False)
        except (ValueError, ReplayError) as e:
            raise ApiError(400, str(e)) from e
        if session.bots_to_move:
            session.advance(seconds=BOT_SLICE)
        token = store.add(session, seat)
        return JSONResponse(_state(token, session, seat), status_code=201)

    async def get_game(request: Request) -> Response:
        token = request.path_params["game_id"]
        session, seat = store.get(token)
        return JSONResponse(_state(token, session, seat))

    async def act(request: Request) -> Response:
        token = request.path_params["game_id"]
        session, seat = store.get(token)
        body = await _body(request)
        if "action" not in body or "step" not in body:
            raise ApiError(
                400, "send {action, step}: the action id and the step it was chosen at", _state(token, session, seat)
            )
        step = body["step"]
        if isinstance(step, bool) or not isinstance(step, int):
            raise ApiError(400, f"step must be an integer, got {step!r}", _state(token, session, seat))
        try:
            session.play(body["action"], step=step, seat=seat, bot_seconds=BOT_SLICE)
        except StaleActionError as e:
            raise ApiError(409, str(e), _state(token, session, seat)) from e
        except NotYourTurnError as e:
            raise ApiError(409, str(e), _state(token, session, seat)) from e
        except IllegalActionError as e:
            raise ApiError(400, str(e), _state(token, session, seat)) from e
        return JSONResponse(_state(token, session, seat))

    async def advance(request: Request) -> Response:
        token = request.path_params["game_id"]
        session, seat = store.get(token)
        body = await _body(request)
        step = body.get("step")
        if isinstance(step, bool) or not isinstance(step, int):
            raise ApiError(400, f"send {{step}}: the step the page shows, an integer; got {step!r}")
        if step != session.step:
            raise ApiError(409, f"stale: the game is at step {session.step}, not {step}", _state(token, session, seat))
        if session.bots_to_move:
            session.advance(seconds=BOT_SLICE)
        return JSONResponse(_state(token, session, seat))

    async def hint(request: Request) -> Response:
        token = request.path_params["game_id"]
        session, seat = store.get(token)
        spec = request.query_params.get("policy", "shipped")
        resolved = bot_spec(session.env_id, spec, seat)
        if session.human_to_act != seat:
            raise ApiError(409, "it is not your turn: there is nothing to hint", _state(token, session, seat))
        return JSONResponse(session.hint(resolved).to_json())

    async def replay(request: Request) -> Response:
        token = request.path_params["game_id"]
        session, _ = store.get(token)
        name = f"{session.env_id}-{session.seed}-{session.step}.json"
        return Response(
            json.dumps(session.replay(), indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def delete(request: Request) -> Response:
        store.drop(request.path_params["game_id"])
        return JSONResponse({"deleted": True})

    async def api_error(request: Request, exc: ApiError) -> Response:
        body: dict[str, Any] = {"error": exc.message}
        if exc.state is not None:
            body["state"] = exc.state
        return JSONResponse(body, status_code=exc.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": getattr(exc, "detail", "not found")}, status_code=status)

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        *[Route(f"/static/{name}", static_route(name)) for name in STATIC_FILES],
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete, methods=["DELETE"]),
        Route("/api/games/{game_id}/act", act, methods=["POST"]),
        Route("/api/games/{game_id}/advance", advance, methods=["POST"]),
        Route("/api/games/{game_id}/hint", hint, methods=["GET"]),
        Route("/api/games/{game_id}/replay", replay, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: api_error, 404: not_found, 405: not_found},
        middleware=[Middleware(SecurityHeaders)]
        + ([Middleware(AllowedHosts, hosts=allowed_hosts)] if allowed_hosts else []),
    )
    app.state.store = store
    return app


def host_name(header: str) -> str:
    """The host of a Host header without its port: ``127.0.0.1:8000`` -> ``127.0.0.1``, and an IPv6
    literal keeps its brackets, ``[::1]:8000`` -> ``[::1]`` (splitting at the first colon would not)."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[: end + 1] if end > 0 else header
    return header.split(":", 1)[0]


class AllowedHosts:
    """ASGI middleware: answer only requests whose Host header names one of ``hosts`` (against DNS
    rebinding: a page elsewhere that resolves its own name to this machine gets 400)."""

    def __init__(self, app, hosts: list[str]):
        self.app, self.hosts = app, {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            header = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.hosts:
                await PlainTextResponse(f"host {header!r} is not served here", status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: the page may load only its own files, and nothing is cached."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [
                    (k.lower().encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.lower().encode() not in have
                ]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def allowed_host_names(host: str, extra: list[str], error) -> list[str]:
    """The Host header names the server answers for ``--host host --allowed-host extra...``: loopback,
    the address bound, and the names given. A wildcard bind (0.0.0.0, ::) must be given its names:
    answering every Host header would let any web page reach the server through DNS rebinding."""
    names = set(LOOPBACK_HOSTS)
    for given in extra:
        name = given.strip().lower()
        if not re.fullmatch(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]", name):
            error(
                f"--allowed-host {given!r}: give a host name or address as browsers send it in the Host "
                "header, without a port (e.g. myhost.lan, 192.168.1.20 or [fe80::1])"
            )
        names.add(name)
    if host.strip() in WILDCARD_BINDS:
        if not extra:
            error(
                f"--host {host!r} listens on every address: name the host names or addresses the server "
                "may be reached by with --allowed-host (repeat it), e.g. --allowed-host myhost.lan; "
                "requests with any other Host header are refused"
            )
    else:
        names.add(host_name(f"[{host}]" if ":" in host and not host.startswith("[") else host))
    return sorted(names)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.serve", description="Play herozoo games in the browser.")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server is reached by, checked against every request's Host header (repeat it; "
        "needed with --host 0.0.0.0 or ::)",
    )
    p.add_argument(
        "--max-games", type=int, default=DEFAULT_MAX_GAMES, help=f"games kept in memory at once (1-{MAX_GAMES_LIMIT})"
    )
    args = p.parse_args(argv)
    if not 1 <= args.max_games <= MAX_GAMES_LIMIT:
        p.error(f"--max-games {args.max_games}: give an integer from 1 to {MAX_GAMES_LIMIT}")
    if not 1 <= args.port <= 65535:
        p.error(f"--port {args.port}: give a port from 1 to 65535")
    hosts = allowed_host_names(args.host, args.allowed_host, p.error)
    import uvicorn

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: other machines can reach this server", file=sys.stderr)
    print(f"herozoo: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops)")
    uvicorn.run(create_app(args.max_games, allowed_hosts=hosts), host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
