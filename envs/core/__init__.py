"""Machinery every herozoo game shares. It knows no game."""

from envs.core.actions import ActionLayout
from envs.core.aec import TurnBasedEnv, make_env_factories
from envs.core.game import Game, IllegalActionError, State
from envs.core.observation import ObservationLayout
from envs.core.options import Option, resolve_options

__all__ = [
    "ActionLayout",
    "Game",
    "IllegalActionError",
    "ObservationLayout",
    "Option",
    "State",
    "TurnBasedEnv",
    "make_env_factories",
    "resolve_options",
]
