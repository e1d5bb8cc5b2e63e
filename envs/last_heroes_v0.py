from envs.last_heroes.env import GAME, env, raw_env

__all__ = ["GAME", "env", "raw_env"]
