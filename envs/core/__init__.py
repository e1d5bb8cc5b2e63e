"""Machinery every herozoo game shares. It knows no game."""

from envs.core.actions import ActionLayout
from envs.core.aec import TurnBasedEnv, make_env_factories
from envs.core.chance import Chance
from envs.core.game import Game, IllegalActionError, Outcome, State, check_seat, play_forced
from envs.core.observation import Band, Block, ObservationLayout, OwnBand, Rows
from envs.core.options import DRIVER_OPTIONS, Option, resolve_options, split_options

__all__ = [
    "DRIVER_OPTIONS",
    "ActionLayout",
    "Band",
    "Chance",
    "Game",
    "IllegalActionError",
    "Block",
    "ObservationLayout",
    "OwnBand",
    "Rows",
    "Option",
    "Outcome",
    "State",
    "TurnBasedEnv",
    "check_seat",
    "make_env_factories",
    "play_forced",
    "resolve_options",
    "split_options",
]
