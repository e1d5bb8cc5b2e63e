"""The package's shape: a State with only the core State as base, every action block played by a
plain function, and every field of the state either in its JSON form or declared transient."""

from __future__ import annotations

import types

from envs.core.game import State
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from envs.heroes_and_monsters.state import JSON_FIELDS, RULE_OF_BLOCK, HeroesAndMonstersState

TRANSIENT = {"game", "chance", "n", "players", "_rewards", "shaping", "_mask"}


def test_the_state_inherits_only_the_core_state():
    assert HeroesAndMonstersState.__bases__ == (State,)


def test_every_action_block_is_played_by_a_plain_function():
    assert set(RULE_OF_BLOCK) == {b.name for b in LAYOUT.blocks}
    assert all(isinstance(fn, types.FunctionType) for fn in RULE_OF_BLOCK.values())


def test_every_field_is_in_the_json_form_or_transient():
    s = HeroesAndMonstersGame(num_players=2).new_state(0)
    fields = set(vars(s))
    assert fields == set(JSON_FIELDS) | TRANSIENT
    assert set(s.to_json()) == set(JSON_FIELDS) | {"players", "rewards", "chance"}
