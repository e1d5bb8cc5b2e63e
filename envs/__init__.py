"""herozoo environments: the registry of env ids and ``make``.

>>> import envs
>>> env = envs.make("last_heroes_v0", num_players=3)
"""

from __future__ import annotations

import importlib
from typing import Any

# env id -> module with env() / raw_env() factories
_REGISTRY = {
    "last_heroes_v0": "envs.last_heroes_v0",
}
ENV_IDS: tuple[str, ...] = tuple(_REGISTRY)


def _module(env_id: str):
    try:
        return importlib.import_module(_REGISTRY[env_id])
    except KeyError:
        raise ValueError(f"unknown env id {env_id!r}; registered ids are {list(ENV_IDS)}") from None


def make(env_id: str, **options: Any):
    """The AEC environment ``env_id`` with the given options (see each env's docstring)."""
    return _module(env_id).env(**options)


def make_raw(env_id: str, **options: Any):
    return _module(env_id).raw_env(**options)


def game_class(env_id: str):
    """The Game class behind an env id (rules without PettingZoo)."""
    return _module(env_id).GAME


def heuristic_bot(env_id: str, seed: int | None = None):
    """The game's rule-based bot: ``bot.act_state(state) -> action`` for the seat to play."""
    return _module(env_id).HeuristicBot(seed=seed)


__all__ = ["ENV_IDS", "game_class", "heuristic_bot", "make", "make_raw"]
