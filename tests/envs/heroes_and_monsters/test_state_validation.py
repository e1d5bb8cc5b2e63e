"""state_from_json checks a JSON state before it builds one: mutations of real states each give a
ValueError that names the field by its JSON path, or (harmless ones) a state that plays to the end.
No other exception escapes for any JSON-shaped input."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from envs.heroes_and_monsters.state import JSON_DEFAULTS, JSON_FIELDS


def _play(game, seed, until):
    """A real state of ``game``: random play from ``seed`` until ``until(state)``."""
    s = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while not until(s):
        assert not s.is_over(), "no such state in this game"
        s.apply(int(rng.choice(s.legal_actions())))
    return s


GAME = HeroesAndMonstersGame(num_players=3, adversary="sylvaen")
MID = _play(GAME, 1, lambda s: s.steps >= 30 and s.pending is None).to_json()
PENDING = _play(GAME, 0, lambda s: s.pending is not None).to_json()  # PAY_ANY of a COPY
OVER = _play(GAME, 3, lambda s: s.is_over()).to_json()


def _expect(data, path, game=GAME, check_box=True):
    with pytest.raises(ValueError) as err:
        game.state_from_json(data, check_box=check_box)
    message = str(err.value)
    assert message.startswith(f"{path}:") or f" {path} " in message, message
    return message


def _plays_to_the_end(data, game=GAME):
    s = game.state_from_json(data)
    rng = np.random.default_rng(0)
    while not s.is_over():
        s.apply(int(rng.choice(s.legal_actions())))
    assert s.outcome() is not None


def _mutated(base, fn):
    data = copy.deepcopy(base)
    fn(data)
    return data


# -- the real states load, and so do their JSON texts ------------------------------------------------
@pytest.mark.parametrize("base", [MID, PENDING, OVER], ids=["mid", "pending", "over"])
def test_real_states_load_as_they_are(base):
    assert GAME.state_from_json(json.loads(json.dumps(base))).to_json() == base


# -- drop a key ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", [k for k in (*JSON_FIELDS, "players", "chance") if k not in JSON_DEFAULTS])
def test_a_missing_field_is_named(key):
    message = _expect(_mutated(MID, lambda d: d.pop(key)), key)
    assert "missing" in message


@pytest.mark.parametrize("key", ["general", "deck", "hand", "discard", "table", "gen_used"])
def test_a_missing_player_field_is_named(key):
    _expect(_mutated(MID, lambda d: d["players"][1].pop(key)), f"players[1].{key}")


def test_an_unknown_field_is_named():
    _expect(_mutated(MID, lambda d: d.update(feild=[0, 0, 0, 0])), "feild")


# -- retype, negate, enlarge, shorten ----------------------------------------------------------------
def _set(path_keys, value):
    def fn(d):
        target = d
        for k in path_keys[:-1]:
            target = target[k]
        target[path_keys[-1]] = value

    return fn


def _first_invader_column(d):
    return next(c for c in range(C.NUM_COLUMNS) if d["field"][c] >= 0)


BAD = [
    # retyped
    ("adversary", ["adversary"], "sylvaen"),
    ("fortress", ["fortress"], "deck"),
    ("area[0]", ["area", 0], "Ghoul"),
    ("field[0]", ["field", 0], 1.0),
    ("round", ["round"], True),
    ("attacked[1]", ["attacked", 1], 1),
    ("total", ["total"], "0"),
    ("rewards", ["rewards"], None),
    ("chance", ["chance"], []),
    ("players[0].hand[0]", ["players", 0, "hand", 0], 5),
    ("players[2].gen_used", ["players", 2, "gen_used"], "no"),
    ("hand_up", ["hand_up"], None),
    ("bought", ["bought"], "1"),
    ("bought", ["bought"], -1),
    ("result", ["result"], "lost"),
    # negated
    ("ward", ["ward"], -1),
    ("dmg", ["dmg"], -2),
    ("defeated", ["defeated"], -1),
    ("bonus[0]", ["bonus", 0], -1),
    ("steps", ["steps"], -1),
    ("plan_progress", ["plan_progress"], -1),
    ("res[0]", ["res", 0], -20),
    ("players[0].deck[0]", ["players", 0, "deck", 0], -1),
    ("markers[1]", ["markers", 1], -1),
    # enlarged
    ("adversary", ["adversary"], 3),
    ("round", ["round"], 21),
    ("active", ["active"], 3),
    ("current_player", ["current_player"], 3),
    ("phase", ["phase"], 8),
    ("players[1].general", ["players", 1, "general"], 6),
    ("players[0].discard[0]", ["players", 0, "discard"], [C.NUM_CARDS]),
    ("inv_deck[0]", ["inv_deck", 0], C.NUM_INVADER_TYPES),
    ("thwarted", ["thwarted"], 4),
    ("steps", ["steps"], 10**7),
    ("support_queue[0]", ["support_queue"], [5]),
    ("plan", ["plan"], 7),
    # shortened
    ("area", ["area"], [C.CARD_BY_NAME["Ghoul"].id] * 7),
    ("field", ["field"], [-1, -1, -1]),
    ("res", ["res"], [0, 0]),
    ("bonus", ["bonus"], []),
]


@pytest.mark.parametrize("path,keys,value", BAD, ids=[f"{p}={v!r}" for p, _, v in BAD])
def test_a_bad_value_is_named(path, keys, value):
    _expect(_mutated(MID, _set(keys, value)), path)


def test_markers_beyond_the_health_levels_are_named():
    col = _first_invader_column(MID)
    levels = len(C.INVADERS[MID["field"][col]].health)
    _expect(_mutated(MID, _set(["markers", col], levels)), f"markers[{col}]")


def test_too_many_cards_in_hand_or_on_the_table_are_named():
    ghoul = C.CARD_BY_NAME["Ghoul"].id
    rampart = C.CARD_BY_NAME["Rampart"].id
    _expect(_mutated(MID, _set(["players", 0, "hand"], [[ghoul, False]] * 13)), "players[0].hand")
    _expect(_mutated(MID, _set(["players", 0, "table"], [[rampart, False]] * 4)), "players[0].table")
    _expect(_mutated(MID, _set(["players", 0, "table"], [[ghoul, False]])), "players[0].table[0][0]")


def test_a_shorter_table_of_players_is_named():
    _expect(_mutated(MID, lambda d: d["players"].pop()), "players")


# -- the structure the rules keep ---------------------------------------------------------------------
def test_a_sub_decision_open_in_the_wrong_phase_is_named():
    pending = PENDING["pending"]
    _expect(_mutated(MID, _set(["pending"], pending)), "pending")
    _expect(_mutated(PENDING, _set(["pending"], None)), "pending")
    _expect(_mutated(PENDING, _set(["pending", "ret"], 5)), "pending.ret")
    _expect(_mutated(PENDING, lambda d: d["pending"].pop("at")), "pending.at")
    _expect(_mutated(PENDING, _set(["pending", "effect"], ["spell", 3])), "pending.effect")


def test_the_wrong_seat_to_decide_is_named():
    other = (MID["current_player"] + 1) % 3
    _expect(_mutated(MID, _set(["current_player"], other)), "current_player")
    _expect(_mutated(MID, _set(["turns_done"], (MID["turns_done"] + 1) % 3)), "active")


def test_used_cards_outside_their_pile_are_named():
    _expect(_mutated(MID, _set(["used_discarded"], [C.CARD_BY_NAME["Wyvern"].id] * 4)), "used_discarded")


# -- conservation of the box ----------------------------------------------------------------------------
def test_a_duplicated_fortress_card_is_named():
    message = _expect(_mutated(MID, lambda d: d["players"][0]["hand"].append([d["fortress"][0], False])), "fortress")
    assert "players[0].hand" in message
    _expect(_mutated(MID, lambda d: d["rubble"].append(d["area"][0])), "area")


def test_a_duplicated_starting_card_is_named():
    def extra_root(d):
        d["players"][1]["deck"].append(C.CARD_BY_NAME["Root"].id)

    _expect(_mutated(MID, extra_root), "players[1]")


def test_duplicated_invaders_generals_and_plans_are_named():
    _expect(_mutated(MID, lambda d: d["inv_deck"].append(d["inv_deck"][0])), "inv_deck")
    _expect(_mutated(MID, _set(["players", 1, "general"], MID["players"][0]["general"])), "players[1].general")
    _expect(_mutated(MID, lambda d: d["plan_deck"].append(d["plan"])), "plan")


def test_a_lost_card_is_named_and_the_box_must_keep_its_size():
    _expect(_mutated(MID, lambda d: d["fortress"].pop()), "fortress")
    _expect(_mutated(MID, lambda d: d["fortress"].append(d["box"].pop())), "box")


def test_supply_false_skips_only_the_conservation():
    data = _mutated(MID, lambda d: d["fortress"].append(d["fortress"][0]))
    GAME.state_from_json(data, check_box=False)
    _expect(_mutated(data, _set(["ward"], -1)), "ward", check_box=False)


# -- other games, other tables, not a state -------------------------------------------------------------
@pytest.mark.parametrize("env", ["last_bastion", "lost_legends", "last_heroes"])
def test_another_games_state_is_refused(env):
    import envs

    other = envs.make(f"{env}_v0", num_players=3).unwrapped
    other.reset(seed=0)
    with pytest.raises(ValueError):
        GAME.state_from_json(other.game_state.to_json())


def test_another_env_id_and_another_table_are_named():
    _expect(_mutated(MID, _set(["env_id"], "last_bastion_v0")), "env_id")
    _expect(MID, "players", game=HeroesAndMonstersGame(num_players=2, adversary="sylvaen"))
    _expect(MID, "adversary", game=HeroesAndMonstersGame(num_players=3, adversary="randall"))


@pytest.mark.parametrize("data", [None, [], "state", 3, {"players": []}])
def test_not_a_state_is_a_value_error(data):
    with pytest.raises(ValueError):
        GAME.state_from_json(data)


# -- harmless mutations --------------------------------------------------------------------------------------
HARMLESS = {
    "no rewards": lambda d: d.pop("rewards"),
    "no used_in_deck (older states)": lambda d: d.pop("used_in_deck"),
    "no hand_up (older states)": lambda d: d.pop("hand_up"),
    "no bought (older states)": lambda d: d.pop("bought"),
    "the box reordered": lambda d: d["box"].reverse(),
    "the Fortress deck reordered": lambda d: d["fortress"].reverse(),
    "another chance": lambda d: d.update(chance=GAME.new_state(99).to_json()["chance"]),
    "the env id written": lambda d: d.update(env_id="heroes_and_monsters_v0"),
}


@pytest.mark.parametrize("name", list(HARMLESS))
def test_a_harmless_mutation_plays_to_the_end(name):
    _plays_to_the_end(_mutated(MID, HARMLESS[name]))
    _plays_to_the_end(_mutated(PENDING, HARMLESS[name]))


# -- no other exception for any JSON-shaped input ----------------------------------------------------------
def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    yield path


JUNK = (None, -1, 0, 1, 2, 7, 10**9, -(10**9), 1.5, float("nan"), True, False, "x", [], [0], {}, {"a": 1})


def test_random_mutations_give_a_value_error_or_a_playable_state():
    rng = random.Random(0)
    accepted = 0
    for base in (MID, PENDING, OVER):
        paths = [p for p in _leaves(base) if p and p[0] != "chance"]
        for _ in range(150):
            data = copy.deepcopy(base)
            path = rng.choice(paths)
            _set(list(path), rng.choice(JUNK))(data)
            try:
                s = GAME.state_from_json(data)
            except ValueError:
                continue
            accepted += 1
            rng2 = np.random.default_rng(0)
            while not s.is_over():
                s.apply(int(rng2.choice(s.legal_actions())))
                s.observe(s.current_player if s.current_player >= 0 else 0)
                s.render()
    assert accepted > 0  # some mutations are harmless (a reordered pile, another count...)


def test_the_reward_total_follows_the_result_unless_rewards_are_shaped():
    """Under win_loss the total is 0 while the game runs (returns() would otherwise lie)."""
    _expect(_mutated(MID, lambda d: d.update(total=0.5)), "total")
    _expect(_mutated(OVER, lambda d: d.update(total=-d["total"])), "total")
    shaped = HeroesAndMonstersGame(num_players=3, adversary="sylvaen", reward_scheme="shaped")
    state = shaped.state_from_json(_mutated(MID, lambda d: d.update(total=0.5)))
    assert state.returns()[0] == 0.0 and state.shaping_potentials()[0] == 0.5  # paid by events, no result yet
