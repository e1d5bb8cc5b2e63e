"""``LostLegendsGame.state_from_json`` checks a state before it builds it: mutations of real states
(a key dropped, a value retyped, negated or enlarged, a card duplicated or lost, a list shortened,
another game's state) are a ValueError naming the field by its JSON path; harmless ones give a
state that plays to the end. No bare TypeError, KeyError or IndexError escapes for any JSON input.
"""

from __future__ import annotations

import copy
import random
from functools import cache

import numpy as np
import pytest

from envs import last_bastion_v0, lost_legends_v0
from envs.lost_legends.common import DEFEND, DRAFT_PICK, DRAFT_PLACE, NO, SELECT_OWN
from envs.lost_legends.content import CARDS, MONSTERS
from envs.lost_legends.game import LostLegendsGame
from tests.helpers import random_states

N = 4


@cache
def _states() -> dict[str, dict]:
    """Real states of one 4-player game (JSON), by the decision open in them; "over" at the end."""
    wanted = {DRAFT_PICK: "pick", DRAFT_PLACE: "place", SELECT_OWN: "select", DEFEND: "defend"}
    out: dict[str, dict] = {}
    for s in random_states(LostLegendsGame(num_players=N), 5):
        name = wanted.get(s.decision)
        if name and name not in out and (name != "select" or any(s.tokens) or s.level > 0):
            out[name] = s.to_json()
    out["over"] = s.to_json()  # the finished game
    assert set(out) == {"pick", "place", "select", "defend", "over"}, set(out)
    return out


def _state(name: str) -> dict:
    return copy.deepcopy(_states()[name])


def _seat_with_monster(d: dict) -> int:
    return next(i for i, p in enumerate(d["players"]) if p["front"] != NO)


def _set(path: list, value):
    """A mutation that sets the value at ``path`` (keys and indices into the JSON)."""

    def mutate(d):
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value

    return mutate


def _drop(path: list):
    def mutate(d):
        for key in path[:-1]:
            d = d[key]
        del d[path[-1]]

    return mutate


def _duplicate_a_hand_card(d):
    d["box"].append(d["players"][0]["hand"][0])


def _lose_a_hand_card(d):
    d["players"][0]["hand"].pop()


def _gold_from_nowhere(d):
    d["players"][2]["gold"] += 1


def _a_monster_in_hand(d):
    d["players"][0]["hand"][0] = MONSTERS[0].id


def _same_hero_twice(d):
    d["players"][1]["hero"] = d["players"][0]["hero"]


def _negative_markers(d):
    d["players"][_seat_with_monster(d)]["markers"] = -1


def _dead_monster(d):
    i = _seat_with_monster(d)
    d["players"][i]["markers"] = CARDS[d["players"][i]["front"]].life


def _next_seat_picks(d):
    d["current_player"] = (d["current_player"] + 1) % N


def _shorten(path: list):
    def mutate(d):
        for key in path:
            d = d[key]
        d.pop()

    return mutate


# (what, state, mutation, the message's start: the JSON path and what is allowed)
MUTATIONS = [
    ("drop level", "pick", _drop(["level"]), r"level: missing"),
    ("drop players", "pick", _drop(["players"]), r"players: missing"),
    ("drop a seat's gold", "select", _drop(["players", 1, "gold"]), r"players\[1\]\.gold: missing"),
    ("drop a seat's hero", "pick", _drop(["players", 3, "hero"]), r"players\[3\]\.hero: missing"),
    ("retype level", "pick", _set(["level"], "1"), r"level: an integer from 0 to 2"),
    ("retype gold", "select", _set(["players", 0, "gold"], 2.5), r"players\[0\]\.gold: an integer >= 0"),
    ("retype gold as bool", "select", _set(["players", 0, "gold"], True), r"players\[0\]\.gold: an integer"),
    ("retype slots", "select", _set(["players", 2, "slots"], "none"), r"players\[2\]\.slots: a list"),
    ("retype exhausted", "select", _set(["players", 0, "exhausted", 0], 1), r"players\[0\]\.exhausted\[0\]: true"),
    ("retype a seat", "pick", _set(["players", 0], 7), r"players\[0\]: a JSON object"),
    ("retype tasks", "pick", _set(["tasks"], {"turn": 1}), r"tasks: a task stack is a list"),
    ("retype a task name", "select", _set(["tasks", 0, 0], ["end_turn"]), r"tasks\[0\]\[0\]: a task's name"),
    ("retype the event", "defend", _set(["event"], [1, 2]), r"event: null or"),
    ("retype the random source", "pick", _set(["chance"], {"rng": 5}), r"chance\.rng: not a state"),
    ("a die scripted for a shuffle", "pick", _set(["chance", "script"], [5]), r"chance\.script\[0\]: the order"),
    ("negate gold", "select", _set(["players", 0, "gold"], -1), r"players\[0\]\.gold: an integer >= 0, got -1"),
    ("negate life", "select", _set(["players", 1, "life"], -1), r"players\[1\]\.life: an integer from 0 to"),
    ("negate mana base", "pick", _set(["players", 1, "mana_base"], -2), r"players\[1\]\.mana_base: an integer"),
    ("negate markers", "select", _negative_markers, r"players\[\d\]\.markers: an integer from 0"),
    ("negate a stack count", "pick", _set(["stack_taken", 0], -1), r"stack_taken\[0\]: an integer from 0 to 4"),
    ("negate the ledger", "select", _set(["gold_ledger", 1], -5), r"gold_ledger\[1\]: an integer >= 0"),
    ("negate performed turns", "select", _set(["performed"], -1), r"performed: an integer >= 0"),
    ("negate damage", "defend", _set(["event", "inc", 0], -3), r"event\.inc\[0\]: an integer >= 0"),
    ("enlarge life", "select", _set(["players", 0, "life"], 11), r"players\[0\]\.life: an integer from 0 to"),
    ("enlarge level", "pick", _set(["level"], 3), r"level: an integer from 0 to 2"),
    ("enlarge the start seat", "pick", _set(["start"], N), r"start: a seat 0\.\.3"),
    ("enlarge the seat to act", "pick", _set(["current_player"], N), r"current_player: a seat 0\.\.3 or -1"),
    ("enlarge the draft round", "pick", _set(["draft_round"], 6), r"draft_round: an integer from 1 to 5"),
    ("enlarge a token", "select", _set(["players", 0, "tokens", 0], 99), r"players\[0\]\.tokens\[0\]: 0 \(none\)"),
    ("enlarge a challenge holder", "select", _set(["challenge", 0], N), r"challenge\[0\]: a seat"),
    ("a dead monster in front", "select", _dead_monster, r"players\[\d\]\.markers: an integer from 0 to"),
    ("an unknown card", "pick", lambda d: d["box"].append(150), r"box\[\d+\]: a card id \(0\.\.149\)"),
    ("a monster in hand", "pick", _a_monster_in_hand, r"players\[0\]\.hand\[0\]: an equipment card id"),
    (
        "duplicate a card",
        "pick",
        _duplicate_a_hand_card,
        r"box\[\d+\]: each card in exactly one place; .*players\[0\]\.hand\[0\]",
    ),  # noqa: E501
    ("lose a card", "pick", _lose_a_hand_card, r"state: every card of the box in exactly one zone; 1 are in none"),
    ("gold from nowhere", "select", _gold_from_nowhere, r"gold_ledger: the players' gold"),
    ("shorten slots", "select", _shorten(["players", 0, "slots"]), r"players\[0\]\.slots: a list of exactly 12"),
    ("shorten the stacks", "pick", _shorten(["stack_taken"]), r"stack_taken: a list of exactly 6"),
    ("shorten the challenges", "pick", _shorten(["challenge"]), r"challenge: a list of exactly 4"),
    ("shorten the players", "pick", _shorten(["players"]), r"players: one entry per seat: this game has 4"),
    ("shorten the task stack", "select", _set(["tasks"], []), r"tasks: the rule steps still to run"),
    ("an unknown task", "select", lambda d: d["tasks"].append(["nap"]), r"tasks\[\d+\]: 'nap' is not a task"),
    ("a task's seat", "select", _set(["tasks", 0], ["end_turn", 9]), r"tasks\[0\]\[1\]: a seat 0\.\.3"),
    ("a task's arity", "select", _set(["tasks", 0], ["end_turn"]), r"tasks\[0\]: \['end_turn'\] and 1 arguments"),
    ("a task that ends the stack", "select", _set(["tasks", 0], ["select", 0]), r"tasks\[0\]: a task that carries"),
    ("an unknown hero", "pick", _set(["players", 2, "hero"], "Bard"), r"players\[2\]\.hero: one of"),
    ("the same hero twice", "pick", _same_hero_twice, r"players\[1\]\.hero: a hero no other seat plays"),
    ("an unknown phase", "pick", _set(["phase"], "lunch"), r"phase: one of"),
    ("an unknown decision", "pick", _set(["decision"], "DANCE"), r"decision: null or one of"),
    ("a defence without damage", "defend", _set(["event"], None), r"decision: DEFEND needs a damage event"),
    ("a seat out of the table acts", "place", _set(["current_player"], 99), r"current_player: a seat 0\.\.3 or -1"),
    ("a seat picks out of turn", "pick", _next_seat_picks, r"current_player: a seat whose turn in this draft step"),
    ("another game's id", "pick", _set(["env_id"], "last_bastion_v0"), r"env_id: this game is 'lost_legends_v0'"),
]


@pytest.mark.parametrize("what,name,mutate,message", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_mutated_state_is_a_value_error_naming_the_field(what, name, mutate, message):
    data = _state(name)
    mutate(data)
    with pytest.raises(ValueError, match="^" + message):
        LostLegendsGame(num_players=N).state_from_json(data)


def test_the_mutations_start_from_states_that_load():
    for name in _states():
        data = _state(name)
        assert LostLegendsGame(num_players=N).state_from_json(data).to_json() == data


def test_a_state_that_is_not_an_object_or_of_another_table_or_game():
    game = LostLegendsGame(num_players=N)
    for data in ([], "state", 3, None):
        with pytest.raises(ValueError, match=r"^state: a Lost Legends state is a JSON object"):
            game.state_from_json(data)
    with pytest.raises(ValueError, match=r"^players: one entry per seat: this game has 3 players, the state has 4"):
        LostLegendsGame(num_players=3).state_from_json(_state("pick"))
    # Another game's state: named by its env id if it says it, else by the first field it lacks.
    bastion = last_bastion_v0.GAME(num_players=2).new_state(0).to_json()
    with pytest.raises(ValueError, match=r"^players: missing"):
        game.state_from_json(bastion)
    with pytest.raises(ValueError, match=r"^env_id: this game is 'lost_legends_v0', got 'last_bastion_v0'"):
        game.state_from_json({**bastion, "env_id": "last_bastion_v0"})


def _play_to_the_end(s, seed: int) -> None:
    rng = np.random.default_rng(seed)
    bot = lost_legends_v0.HeuristicBot()
    while not s.is_over():
        legal = np.flatnonzero(s.legal_mask())
        assert legal.size, "a running game with no legal action"
        s.observe(s.current_player)
        s.apply(int(bot.act_state(s)) if rng.random() < 0.3 else int(rng.choice(legal)))
    assert s.outcome() is not None


HARMLESS = [
    ("no options", "select", _drop(["options"])),
    ("no random source (a fresh one)", "place", _drop(["chance"])),
    ("a draft memory reordered", "pick", lambda d: d["players"][0]["seen"].reverse()),
    ("no event key while none is open", "select", _drop(["event"])),
    ("no step count", "defend", _drop(["steps"])),
    ("the gold ledger left to be derived", "select", _set(["gold_ledger"], None)),
]


@pytest.mark.parametrize("what,name,mutate", HARMLESS, ids=[m[0] for m in HARMLESS])
def test_a_harmless_mutation_loads_and_plays_to_the_end(what, name, mutate):
    data = _state(name)
    mutate(data)
    s = LostLegendsGame(num_players=N).state_from_json(data)
    _play_to_the_end(s, 1)


_VALUES = [None, True, 0, 1, -1, 2, 3, 5, 11, 29, 49, 99, 150, 10**9, 2.5, "x", "combat", [], [0], [-1], {}, [[0]]]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _random_mutation(data: dict, r: random.Random) -> None:
    path = r.choice([p for p in _paths(data) if p and p[0] != "chance"])
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key, value = path[-1], parent[path[-1]]
    op = r.random()
    if op < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif op < 0.25 and isinstance(parent, list):
        parent.pop(key) if r.random() < 0.5 else parent.append(copy.deepcopy(value))
    elif op < 0.45 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + r.choice([-3, -2, -1, 1, 2, 3, 30])
    else:
        parent[key] = copy.deepcopy(r.choice(_VALUES))


def test_random_mutations_are_value_errors_or_states_that_play_to_the_end():
    """Random JSON mutations (drops, retypes, shifts, duplicates): never another exception."""
    r = random.Random(7)
    game = LostLegendsGame(num_players=N)
    rejected = played = 0
    for k in range(150):
        data = _state(r.choice(sorted(_states())))
        _random_mutation(data, r)
        try:
            s = game.state_from_json(data)
        except ValueError:
            rejected += 1
            continue
        _play_to_the_end(s, k)
        played += 1
    assert rejected > 50 and played > 5, (rejected, played)
