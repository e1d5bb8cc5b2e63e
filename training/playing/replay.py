"""Replay files: a game as ``{env id, options, players, seed, seats, actions}``, written atomically.

The same seed and the same actions always give the same game (the rules draw every shuffle and
die from the state's own generator), so a replay is enough to rebuild any position of a game:
:meth:`training.playing.session.Session.from_replay` re-applies the actions one by one, checking
each is legal, and a damaged or mismatched file gets a :class:`ReplayError` that names what is wrong.

The file (JSON, ``format_version`` 1)::

    {
      "format": "herozoo-replay", "format_version": 1,
      "env_id": "last_heroes_v0", "options": {}, "num_players": 2, "seed": 123,
      "seats": ["human", "heuristic"],          # seat specs; "shipped" = the game's shipped bot
      "actions": [14, 3, ...],                   # every applied action id, in order
      "outcome": {"winners": [1], "reason": "...", "truncated": false} or null,
      "created": "2026-12-02T01:00:00Z"
    }

Note: a replay holds the seed, so it tells everything about the game, hidden cards included.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import envs
from training.atomic import atomic_write_text

FORMAT = "herozoo-replay"
FORMAT_VERSION = 1
MAX_REPLAY_BYTES = 8 * 1024 * 1024
_KEYS = ("format", "format_version", "env_id", "options", "num_players", "seed", "seats", "actions")


class ReplayError(ValueError):
    """A replay that cannot be read or does not fit the game it names."""


def make_replay(
    env_id: str,
    options: Mapping[str, Any],
    num_players: int,
    seed: int,
    seats: Sequence[str],
    actions: Sequence[int],
    outcome: Any = None,
) -> dict[str, Any]:
    """The replay dict of a game (``outcome``: an :class:`~envs.core.game.Outcome` or None)."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "env_id": env_id,
        "options": dict(options),
        "num_players": int(num_players),
        "seed": int(seed),
        "seats": [str(s) for s in seats],
        "actions": [int(a) for a in actions],
        "outcome": outcome.to_json() if outcome is not None else None,
        "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def validate_replay(data: Any, where: str = "replay") -> dict[str, Any]:
    """``data`` checked field by field (types, env id, player count, action ids); a clean copy."""
    if not isinstance(data, Mapping):
        raise ReplayError(f"{where}: a replay is a JSON object, got {type(data).__name__}")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ReplayError(f"{where}: missing fields {missing} (a replay has {list(_KEYS)})")
    if data["format"] != FORMAT:
        raise ReplayError(f"{where}: format is {data['format']!r}, not {FORMAT!r}")
    if data["format_version"] != FORMAT_VERSION:
        raise ReplayError(
            f"{where}: format_version {data['format_version']!r} is not supported (this version reads {FORMAT_VERSION})"
        )
    env_id = data["env_id"]
    if env_id not in envs.ENV_IDS:
        raise ReplayError(f"{where}: unknown env id {env_id!r}; registered ids are {list(envs.ENV_IDS)}")
    game_cls = envs.game_class(env_id)
    n = data["num_players"]
    if isinstance(n, bool) or not isinstance(n, int) or not game_cls.min_players <= n <= game_cls.max_players:
        raise ReplayError(
            f"{where}: num_players {n!r} is not a player count of {env_id} "
            f"({game_cls.min_players}-{game_cls.max_players})"
        )
    if not isinstance(data["options"], Mapping) or "num_players" in data["options"]:
        raise ReplayError(f"{where}: options must be an object of game options (without num_players)")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ReplayError(f"{where}: seed must be a non-negative integer, got {seed!r}")
    seats = data["seats"]
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) and s for s in seats):
        raise ReplayError(f"{where}: seats must be a list of {n} seat specs (strings), got {seats!r}")
    actions = data["actions"]
    num_actions = game_cls.action_layout.num_actions
    if not isinstance(actions, list):
        raise ReplayError(f"{where}: actions must be a list of action ids")
    for i, a in enumerate(actions):
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < num_actions:
            raise ReplayError(f"{where}: action #{i + 1} is {a!r}, not an action id of {env_id} (0..{num_actions - 1})")
    clean = {k: data[k] for k in _KEYS}
    clean["options"] = dict(data["options"])
    clean["seats"] = list(seats)
    clean["actions"] = list(actions)
    clean["outcome"] = data.get("outcome")
    return clean


def save_replay(path: str | os.PathLike, replay: Mapping[str, Any]) -> Path:
    """Write a replay atomically (a reader sees the old file or the new one, never half of one)."""
    validate_replay(replay)
    return atomic_write_text(path, json.dumps(replay, indent=1) + "\n")


def load_replay(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a replay file (see :func:`validate_replay`)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_REPLAY_BYTES:
            raise ReplayError(f"{path}: {size} bytes is too large for a replay (at most {MAX_REPLAY_BYTES})")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such replay file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"{path}: cannot read the replay: {e}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}: not valid JSON (damaged or truncated?): {e}") from e
    return validate_replay(data, str(path))


__all__ = ["FORMAT", "FORMAT_VERSION", "ReplayError", "load_replay", "make_replay", "save_replay", "validate_replay"]
