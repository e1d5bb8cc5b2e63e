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
    "last_bastion_v0": "envs.last_bastion_v0",
    "heroes_and_monsters_v0": "envs.heroes_and_monsters_v0",
    "lost_legends_v0": "envs.lost_legends_v0",
}
ENV_IDS: tuple[str, ...] = tuple(_REGISTRY)


def register(env_id: str, module: str) -> None:
    """Register a game of your own: ``module`` (an import path) defines ``GAME`` (its Game class),
    ``env`` / ``raw_env`` (``envs.core.make_env_factories(GAME)``) and ``HeuristicBot``. It then
    works everywhere an env id does: ``make``, training configs, evaluation, the conformance kit."""
    global ENV_IDS
    if not isinstance(env_id, str) or not env_id:
        raise ValueError(f"env id must be a non-empty string, got {env_id!r}")
    if _REGISTRY.get(env_id) == module:
        return
    if env_id in _REGISTRY:
        raise ValueError(f"env id {env_id!r} is already registered to {_REGISTRY[env_id]}")
    loaded = importlib.import_module(module)
    missing = [name for name in ("GAME", "env", "raw_env", "HeuristicBot") if not hasattr(loaded, name)]
    if missing:
        raise ValueError(f"module {module} cannot be registered as {env_id!r}: it does not define {missing}")
    if loaded.GAME.env_id != env_id:
        raise ValueError(f"module {module} defines the game {loaded.GAME.env_id!r}, not {env_id!r}")
    _REGISTRY[env_id] = module
    ENV_IDS = tuple(_REGISTRY)


def registry() -> dict[str, str]:
    """Env id -> module of every registered game (to pass the registry on to worker processes)."""
    return dict(_REGISTRY)


def game_name(env_id: str) -> str:
    """``last_heroes_v0`` -> ``last_heroes``: the game's name without its version, which names its
    folder under envs/, checkpoints/ and docs/ (the one place this mapping is written)."""
    head, sep, tail = env_id.rpartition("_v")
    return head if sep and tail.isdigit() else env_id


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
    """The game's rule-based bot: ``bot.act_state(state) -> action`` for the seat to play.

    ``seed=None``: deterministic; a seed breaks ties (or picks where no rule decides) at random."""
    return _module(env_id).HeuristicBot(seed=seed)


__all__ = ["ENV_IDS", "game_class", "game_name", "heuristic_bot", "make", "make_raw", "register", "registry"]
