"""Versioned entry point (PettingZoo habit): ``from envs import last_bastion_v0; last_bastion_v0.env()``."""

from envs.last_bastion.env import GAME, env, raw_env

__all__ = ["GAME", "HeuristicBot", "env", "raw_env"]  # noqa: F822 (HeuristicBot is loaded lazily)


def __getattr__(name: str):
    # The bot is imported on first use: the env itself does not need it.
    if name == "HeuristicBot":
        from envs.last_bastion.heuristic import HeuristicBot

        return HeuristicBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
