"""state_from_json checks its JSON before it builds: mutations of real states are a ValueError that
names the field by its JSON path, or (harmless ones) a state that plays to the end."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

from envs.last_bastion import content as C
from envs.last_bastion.actions import END_TURN, RESOLVE_ID, SPACE_ID
from envs.last_bastion.game import LastBastionGame
from tests.helpers import play_random, random_states


def _states(n: int, seed: int) -> dict[str, dict]:
    """The first JSON state of each decision kind met in a seeded random game (and the final one)."""
    out: dict[str, dict] = {}
    for s in random_states(LastBastionGame(num_players=n), seed):
        out.setdefault(s.decision["kind"], s.to_json())
    out["over"] = s.to_json()  # the finished game
    return out


GAME = LastBastionGame(num_players=3)
STATES = {**_states(3, 1), **_states(3, 2), **_states(3, 3)}
MAIN = STATES["MAIN"]
PLACE = STATES["PLACE_CARD"]
COMBAT = STATES["COMBAT_RESOLVE"]


def play_out(state, seed: int = 0) -> None:
    play_random(state, np.random.default_rng(seed))


def rejected(data, path: str, game=GAME) -> str:
    """The ValueError of loading ``data``, whose message starts with ``path`` (a prefix when it ends in "[")."""
    with pytest.raises(ValueError, match="^" + re.escape(path) + ("" if path.endswith("[") else ":")) as e:
        game.state_from_json(data)
    return str(e.value)


def mutated(state: dict, fn) -> dict:
    d = copy.deepcopy(state)
    fn(d)
    return d


def _one_more(legal: list[int], first: int) -> list[int]:
    """``legal`` with one more id of the block that starts at ``first``, one the position does not offer."""
    extra = next(a for a in range(first, first + 12) if a not in legal)
    return sorted([*legal, extra])


def test_real_states_load_and_play_on():
    for kind, d in STATES.items():
        s = GAME.state_from_json(copy.deepcopy(d))
        assert s.to_json() == d, kind
        play_out(s)


@pytest.mark.parametrize(
    "path, mutate",
    [
        # a key dropped
        ("spaces", lambda d: d.pop("spaces")),
        ("heroes[1].equip", lambda d: d["heroes"][1].pop("equip")),
        ("elements.net", lambda d: d["elements"].pop("net")),
        # retyped
        ("reserve_life", lambda d: d.update(reserve_life="3")),
        ("neutral", lambda d: d.update(neutral=0)),
        ("heroes[0].tile", lambda d: d["heroes"][0].update(tile=4.0)),
        ("layout", lambda d: d.update(layout={"0": 1})),
        ("decision.legal", lambda d: d["decision"].update(legal=None)),
        ("heroes[2]", lambda d: d["heroes"].__setitem__(2, [1, 2])),
        # negated
        ("reserve_cta", lambda d: d.update(reserve_cta=-1)),
        ("heroes[0].life", lambda d: d["heroes"][0].update(life=-2)),
        ("vanquished", lambda d: d.update(vanquished=-1)),
        ("counters.monster", lambda d: d["counters"].update(monster=-1)),
        # enlarged
        ("spaces", lambda d: d.update(spaces=d["spaces"] + [-1])),
        ("heroes[1].equip[2]", lambda d: d["heroes"][1]["equip"].__setitem__(2, 9)),
        ("seat_of[0]", lambda d: d["seat_of"].__setitem__(0, 4)),
        ("active", lambda d: d.update(active=3)),
        ("spaces[0]", lambda d: d["spaces"].__setitem__(0, C.NUM_CARDS)),
        ("heroes[0].hero", lambda d: d["heroes"][0].update(hero=8)),
        ("board", lambda d: d.update(board=4)),
        # shortened
        ("grasped", lambda d: d.update(grasped=d["grasped"][:8])),
        ("player_at", lambda d: d.update(player_at=d["player_at"][:3])),
        ("last_rewards", lambda d: d.update(last_rewards=[0.0])),
        # a card twice, a card lost
        ("discard[", lambda d: d["discard"].append(d["deck"][0])),
        ("set_aside", lambda d: d["deck"].pop()),
        # the box: tokens held plus the reserve
        ("reserve_cta", lambda d: d.update(reserve_cta=d["reserve_cta"] + 1)),
        ("reserve_equip[", lambda d: d["heroes"][0]["equip"].__setitem__(4, d["heroes"][0]["equip"][4] + 1)),
        # seats that do not match
        ("player_at[", lambda d: d.update(player_at=list(reversed(d["player_at"])))),
        ("heroes", lambda d: d["heroes"].__setitem__(1, dict(d["heroes"][0]))),
        # the task stack
        ("stack[", lambda d: d["stack"].append(["nope"])),
        ("stack[", lambda d: d["stack"].append(["draw", "x"])),
        ("stack[", lambda d: d["stack"].append(["fx", "ONG_DIM", 1, -1, -1, "card"])),
        ("stack[", lambda d: d["stack"].append(["tile", 2])),
        ("stack", lambda d: d.update(stack="turn_end")),
        # the open decision
        ("decision.kind", lambda d: d["decision"].update(kind="SHOP")),
        ("decision.legal[", lambda d: d["decision"].update(legal=d["decision"]["legal"] + [81])),  # not a MAIN id
        ("decision.legal", lambda d: d["decision"].update(legal=d["decision"]["legal"][:-1])),  # one left out
        ("decision.legal", lambda d: d["decision"].update(legal=[])),
        ("current_player", lambda d: d.update(current_player=(d["current_player"] + 1) % 3)),
        ("decision.surprise", lambda d: d["decision"].update(surprise=1)),
        # the random generator
        ("chance.rng", lambda d: d["chance"].update(rng=5)),
        ("chance.script[0]", lambda d: d["chance"].update(script=["six"])),
        # the end
        ("result", lambda d: d.update(result="won")),
        ("env_id", lambda d: d.update(env_id="last_heroes_v0")),
    ],
)
def test_a_mutation_is_a_value_error_naming_its_path(path, mutate):
    message = rejected(mutated(MAIN, mutate), path)
    assert len(message) > len(path) + 5  # it says what is allowed


@pytest.mark.parametrize(
    "path, state, mutate",
    [
        ("decision.card", PLACE, lambda d: d.update(set_aside=d["set_aside"] + [d["placing"]], placing=-1)),
        ("placing", MAIN, lambda d: d.update(placing=d["set_aside"].pop())),
        ("decision.card", PLACE, lambda d: d["decision"].update(card=(d["decision"]["card"] + 1) % C.NUM_CARDS)),
        ("decision.legal", PLACE, lambda d: d["decision"].update(legal=_one_more(d["decision"]["legal"], SPACE_ID))),
        ("decision.targets", COMBAT, lambda d: d["decision"].update(targets=[])),
        ("decision.dice[0]", COMBAT, lambda d: d["decision"]["dice"].__setitem__(0, 6)),
        ("decision.legal", COMBAT, lambda d: d["decision"].update(legal=_one_more(d["decision"]["legal"], RESOLVE_ID))),
        ("decision", STATES["over"], lambda d: d.update(decision={"kind": "MAIN", "legal": [END_TURN]})),
        ("current_player", STATES["over"], lambda d: d.update(current_player=0)),
    ],
)
def test_decisions_are_checked_against_the_position(path, state, mutate):
    rejected(mutated(state, mutate), path)


@pytest.mark.parametrize("data", [None, [], "state", 3, {"heroes": []}])
def test_not_a_state_at_all(data):
    with pytest.raises(ValueError):
        GAME.state_from_json(data)


def test_another_games_or_another_tables_state():
    from envs.last_heroes_v0 import GAME as LastHeroes

    data = LastHeroes(num_players=3).new_state(0).to_json()
    rejected(data, "env_id")
    del data["env_id"]
    with pytest.raises(ValueError, match="missing|not a key"):  # its first missing or unknown key
        GAME.state_from_json(data)
    rejected(MAIN, "heroes", game=LastBastionGame(num_players=2))


def _move_life(d):
    p = next(p for p, h in enumerate(d["heroes"]) if h["status"] == "in")
    if d["reserve_life"]:
        d["reserve_life"] -= 1
        d["heroes"][p]["life"] += 1


@pytest.mark.parametrize(
    "mutate",
    [
        _move_life,  # a Life from the reserve, the box still adds up
        lambda d: d["deck"].reverse(),  # another deck order
        lambda d: d.update(board_turns=d["board_turns"] + 5),
        lambda d: d.update(last_rewards=[0.5] * 3),
        lambda d: d["chance"].update(script=[0, 1, 2]),
        lambda d: d.update(counters={k: 0 for k in d["counters"]}),
    ],
)
def test_a_harmless_mutation_plays_to_the_end(mutate):
    for state in (MAIN, PLACE, COMBAT):
        play_out(GAME.state_from_json(mutated(state, mutate)))


_VALUES = (-1, 0, 1, 2, 11, 59, 60, 99, "x", "in", None, True, 2.5, [], [0], {}, "turn_end", ["hero"])


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, (*path, i))


def test_random_mutations_never_escape_as_anything_but_a_value_error():
    """Any JSON value anywhere: a ValueError, or a state that plays to the end."""
    rng = np.random.default_rng(0)
    loaded = 0
    for state in (MAIN, PLACE, COMBAT, STATES["over"]):
        paths = [p for p in _paths(state) if p and p[0] != "chance"]
        for _ in range(150):
            d = copy.deepcopy(state)
            path = paths[int(rng.integers(len(paths)))]
            target = d
            for key in path[:-1]:
                target = target[key]
            if rng.random() < 0.1 and isinstance(target, dict):
                del target[path[-1]]
            else:
                target[path[-1]] = copy.deepcopy(_VALUES[int(rng.integers(len(_VALUES)))])
            try:
                s = GAME.state_from_json(d)
            except ValueError:
                continue
            loaded += 1
            play_out(s, seed=loaded)
    assert loaded > 0  # some mutations are harmless (a count within its range, the same value again)
