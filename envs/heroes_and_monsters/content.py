"""Heroes and Monsters content as data: cards, Invaders, Generals, Adversaries and Plans.

Every effect is written in a small closed vocabulary of primitives (docs section 4.1) that
``effects.py`` and ``turn.py`` interpret; no rule ever tests a card's name. An effect is written as a string
``"<cost>: <primitive>; <primitive>"`` and parsed once at import into an :class:`Effect`:

- costs: ``passive`` (start of the owner's turn), ``discard_self`` (the Unit itself from hand),
  ``discard_one`` (any one card of the activator's hand), or resources such as ``R1``, ``R1 C1``,
  ``any2`` (R = Root, C = Soul Crystal, S = Sacrifice; ``any`` may be paid with any mix);
- primitives: ``DMG n``, ``DMG_RACE race n``, ``GAIN res n``, ``DRAW n``, ``TRASH n``, ``RECALL``,
  ``REVEAL``, ``HEAL n``, ``WARD n``, ``COPY``, ``MILL n``, ``DESTROY n``, ``REGEN n``, ``DRAIN n``,
  ``DISRUPT n``, ``FURY race n``.

Invader, Adversary and Plan effects are primitive lists without a cost.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_PLAYERS = 4
NUM_COLUMNS = 4
NUM_SLOTS = 8  # Area: slot = 4 * row + column, row 0 is the first row (next to the Battlefield)
HAND_CAP = 12
TABLE_CAP = 3
FORTRESS_DECK_SIZE = 54

# Resources
ROOT, CRYSTAL, SACRIFICE = 0, 1, 2
RESOURCES = ("R", "C", "S")
RESOURCE_NAMES = ("Root", "Soul Crystal", "Sacrifice")

# Monster races (cards and Generals) and invader races
GREENSKIN, UNDEAD, DRAGONKIN, NEUTRAL = 0, 1, 2, 3
MONSTER_RACES = ("Greenskin", "Undead", "Dragonkin", "Neutral")
HUMAN, ELF, DWARF = 0, 1, 2
INVADER_RACES = ("Human", "Elf", "Dwarf")
ANY_RACE = -1

RESOURCE, UNIT, CONSTRUCTION = "resource", "unit", "construction"

PRIMITIVES = (
    "DMG",
    "DMG_RACE",
    "GAIN",
    "DRAW",
    "TRASH",
    "RECALL",
    "REVEAL",
    "HEAL",
    "WARD",
    "COPY",
    "MILL",
    "DESTROY",
    "REGEN",
    "DRAIN",
    "DISRUPT",
    "FURY",
)
#: Primitives that a discard-cost effect may use (so that an off-turn activation is well defined).
OFF_TURN_PRIMITIVES = ("DMG", "GAIN", "HEAL", "WARD")


class Effect(NamedTuple):
    """A cost and the primitives it buys, resolved left to right."""

    cost: str  # "passive", "discard_self", "discard_one" or "resources"
    res: tuple[int, int, int]  # fixed resource part (R, C, S)
    any: int  # resources of any type on top of ``res``
    do: tuple[tuple, ...]  # primitives, e.g. ("DMG", 2), ("GAIN", ROOT, 1), ("FURY", HUMAN, 1)
    text: str  # as written in the table


def _race(word: str) -> int:
    word = word.capitalize()
    if word == "Any":
        return ANY_RACE
    if word in MONSTER_RACES:
        return MONSTER_RACES.index(word)
    return INVADER_RACES.index(word)


def parse_primitives(text: str) -> tuple[tuple, ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        words = part.split()
        name, args = words[0], words[1:]
        if name not in PRIMITIVES:
            raise ValueError(f"unknown primitive {name!r} in {text!r}")
        if name in ("DMG_RACE", "FURY"):
            out.append((name, _race(args[0]), int(args[1])))
        elif name == "GAIN":
            out.append((name, RESOURCES.index(args[0]), int(args[1])))
        else:
            out.append((name, *(int(a) for a in args)))
    return tuple(out)


def parse_effect(text: str | None) -> Effect | None:
    if not text:
        return None
    cost, _, body = text.partition(":")
    cost = cost.strip()
    res = [0, 0, 0]
    extra = 0
    kind = cost
    if cost not in ("passive", "discard_self", "discard_one"):
        kind = "resources"
        for word in cost.split():
            if word.startswith("any"):
                extra += int(word[3:])
            else:
                res[RESOURCES.index(word[0])] += int(word[1:])
    return Effect(kind, tuple(res), extra, parse_primitives(body), text)


class Card(NamedTuple):
    id: int
    name: str
    kind: str
    race: int
    cost: tuple[int, int, int]
    dmg: int
    copies: int  # Fortress copies (0 for starting cards: unlimited supply)
    provides: int  # resource type a resource card provides, else -1
    effect: Effect | None


def _card(cid, name, kind, race, cost, dmg, copies, effect=None, provides=-1) -> Card:
    return Card(cid, name, kind, race, tuple(cost), dmg, copies, provides, parse_effect(effect))


G, U, D, N = GREENSKIN, UNDEAD, DRAGONKIN, NEUTRAL
CARDS: tuple[Card, ...] = (
    # Starting cards (never in the Fortress deck)
    _card(0, "Root", RESOURCE, N, (0, 0, 0), 0, 0, provides=ROOT),
    _card(1, "Soul Crystal", RESOURCE, N, (0, 0, 0), 0, 0, provides=CRYSTAL),
    _card(2, "Sacrifice", RESOURCE, N, (0, 0, 0), 0, 0, provides=SACRIFICE),
    _card(3, "Slave", UNIT, N, (0, 0, 0), 1, 0, "discard_self: GAIN S 1"),
    _card(4, "Goblin Runt", UNIT, G, (0, 0, 0), 1, 0, "discard_self: GAIN R 1"),
    _card(5, "Skeleton", UNIT, U, (0, 0, 0), 1, 0, "discard_self: DMG 1"),
    _card(6, "Kobold", UNIT, D, (0, 0, 0), 1, 0, "discard_self: WARD 1"),
    # Fortress cards: Greenskin
    _card(7, "Goblin Cutthroat", UNIT, G, (1, 0, 0), 1, 3, "discard_self: DMG 2"),
    _card(8, "Orc Raider", UNIT, G, (2, 0, 0), 2, 3),
    _card(9, "Goblin Shaman", UNIT, G, (2, 0, 0), 1, 3, "R1: DRAW 1"),
    _card(10, "Orc Berserker", UNIT, G, (3, 0, 0), 3, 3, "R1: DMG 1"),
    _card(11, "Troll Brute", UNIT, G, (3, 0, 1), 4, 2),
    _card(12, "Orc Warboss", UNIT, G, (4, 1, 0), 3, 1, "R1: DMG_RACE Greenskin 1"),
    _card(13, "Root Cellar", CONSTRUCTION, G, (2, 0, 0), 0, 2, "passive: GAIN R 1"),
    _card(14, "War Drums", CONSTRUCTION, G, (3, 0, 0), 0, 2, "R1: DMG_RACE Greenskin 1"),
    # Undead
    _card(15, "Skeleton Archer", UNIT, U, (0, 1, 0), 1, 3, "discard_self: DMG 2"),
    _card(16, "Ghoul", UNIT, U, (0, 2, 0), 2, 3),
    _card(17, "Wraith", UNIT, U, (0, 2, 1), 2, 2, "C1: REVEAL"),
    _card(18, "Necromancer", UNIT, U, (0, 3, 0), 1, 2, "C1: RECALL"),
    _card(19, "Bone Golem", UNIT, U, (1, 3, 0), 4, 2),
    _card(20, "Death Knight", UNIT, U, (0, 4, 1), 4, 1, "discard_self: DMG 5"),
    _card(21, "Crypt of Ages", CONSTRUCTION, U, (0, 2, 0), 0, 2, "C1: HEAL 1"),
    _card(22, "Soul Well", CONSTRUCTION, U, (0, 3, 0), 0, 2, "passive: GAIN C 1"),
    _card(23, "Ossuary", CONSTRUCTION, U, (1, 2, 0), 0, 1, "C1: TRASH 1"),
    # Dragonkin
    _card(24, "Kobold Slinger", UNIT, D, (0, 0, 1), 1, 3, "discard_self: GAIN S 1"),
    _card(25, "Drake Rider", UNIT, D, (0, 0, 2), 2, 3, "S1: DMG 2"),
    _card(26, "Dragon Priest", UNIT, D, (0, 1, 2), 1, 2, "S1: HEAL 1"),
    _card(27, "Wyvern", UNIT, D, (0, 0, 3), 3, 3),
    _card(28, "Young Red Dragon", UNIT, D, (0, 1, 4), 5, 1),
    _card(29, "Sacrificial Altar", CONSTRUCTION, D, (0, 0, 2), 0, 2, "discard_one: DMG 2"),
    _card(30, "Blood Pit", CONSTRUCTION, D, (0, 0, 3), 0, 2, "passive: GAIN S 1"),
    _card(31, "Dragon Roost", CONSTRUCTION, D, (0, 1, 2), 0, 1, "S1: DMG_RACE Dragonkin 1"),
    # Neutral
    _card(32, "Watchtower", CONSTRUCTION, N, (1, 1, 1), 0, 2, "passive: DMG 1"),
    _card(33, "Rampart", CONSTRUCTION, N, (2, 0, 1), 0, 2, "discard_one: WARD 2"),
    _card(34, "Masons' Guild", CONSTRUCTION, N, (1, 1, 1), 0, 1, "R1 C1: HEAL 2"),
    _card(35, "War Council", CONSTRUCTION, N, (1, 1, 1), 0, 1, "any2: DRAW 2"),
)
NUM_CARDS = len(CARDS)  # 36
FIRST_FORTRESS_CARD = 7
STARTING_CARDS = tuple(c.id for c in CARDS if c.id < FIRST_FORTRESS_CARD)
FORTRESS_CARDS = tuple(c.id for c in CARDS if c.id >= FIRST_FORTRESS_CARD)
CARD_BY_NAME = {c.name: c for c in CARDS}


def fortress_card_list() -> list[int]:
    """All 60 Fortress cards, one entry per copy, in id order."""
    return [c.id for c in CARDS for _ in range(c.copies)]


class Invader(NamedTuple):
    id: int
    name: str
    race: int
    copies: int
    health: tuple[int, ...]  # printed health levels (2 players); toughness is added per player count
    damage: int  # printed Fortress damage
    on_entry: tuple[tuple, ...]
    on_attacked: tuple[tuple, ...]
    on_damage: tuple[tuple, ...]
    on_defeat: tuple[tuple, ...]
    aura: tuple[tuple, ...]  # static FURY of this Invader (never affects itself)


def _inv(iid, name, race, copies, health, damage, entry="", attacked="", damage_fx="", defeat="", aura=""):
    p = parse_primitives
    return Invader(
        iid, name, race, copies, tuple(health), damage, p(entry), p(attacked), p(damage_fx), p(defeat), p(aura)
    )


INVADERS: tuple[Invader, ...] = (
    _inv(0, "Militia", HUMAN, 2, (3,), 1, defeat="HEAL 1"),
    _inv(1, "Crossbowman", HUMAN, 2, (3, 3), 1, attacked="DRAIN 1"),
    _inv(2, "Knight", HUMAN, 2, (4, 4), 2, damage_fx="REGEN 1"),
    _inv(3, "Standard-Bearer", HUMAN, 1, (3, 3), 1, aura="FURY Human 1"),
    _inv(4, "Paladin", HUMAN, 1, (4, 5), 2, entry="REGEN 1"),
    _inv(5, "Elf Scout", ELF, 2, (3,), 1, entry="MILL 1"),
    _inv(6, "Elf Archer", ELF, 2, (4,), 2),
    _inv(7, "Grove Druid", ELF, 1, (3, 3), 1, entry="REGEN 1"),
    _inv(8, "Spellblade", ELF, 1, (3, 4), 2, attacked="DRAIN 2"),
    _inv(9, "Enchantress", ELF, 1, (3, 3), 1, entry="DISRUPT 1"),
    _inv(10, "Silver Warden", ELF, 1, (4, 4), 2, defeat="MILL 2"),
    _inv(11, "Dwarf Axeman", DWARF, 2, (4,), 2),
    _inv(12, "Shieldbearer", DWARF, 2, (3, 3, 3), 1),
    _inv(13, "Sapper", DWARF, 1, (3, 3), 1, entry="DESTROY 1"),
    _inv(14, "Dwarf Berserker", DWARF, 1, (5,), 3),
    _inv(15, "Runepriest", DWARF, 1, (3, 4), 1, aura="FURY Dwarf 1"),
    _inv(16, "Ironclad", DWARF, 1, (4, 4, 4), 3, defeat="HEAL 2"),
)
NUM_INVADER_TYPES = len(INVADERS)  # 17
INVADER_BY_NAME = {i.name: i for i in INVADERS}


def invader_list() -> list[int]:
    """All 24 Invader cards, one entry per copy, in id order."""
    return [i.id for i in INVADERS for _ in range(i.copies)]


class General(NamedTuple):
    id: int
    key: str
    name: str
    race: int
    dmg: int
    draw: int
    deck: tuple[tuple[str, int], ...]  # starting deck: (card name, count)
    reserve: tuple[int, int, int]
    ability: Effect


def _gen(gid, key, name, race, dmg, draw, deck, reserve, ability) -> General:
    return General(gid, key, name, race, dmg, draw, tuple(deck), tuple(reserve), parse_effect(ability))


GENERALS: tuple[General, ...] = (
    _gen(
        0,
        "wargosh",
        "Wargosh, Orc Warlord",
        G,
        2,
        3,
        (("Root", 2), ("Soul Crystal", 1), ("Sacrifice", 1)),
        (2, 0, 0),
        "R1: DMG_RACE Greenskin 1",
    ),
    _gen(
        1,
        "grizznak",
        "Grizznak Ratfang, Goblin King",
        G,
        1,
        4,
        (("Root", 2), ("Sacrifice", 1), ("Goblin Runt", 2)),
        (1, 0, 1),
        "R1: DRAW 1",
    ),
    _gen(
        2,
        "mortivar",
        "Mortivar, the Hollow King",
        U,
        2,
        3,
        (("Soul Crystal", 2), ("Root", 1), ("Skeleton", 1)),
        (0, 2, 0),
        "C1: RECALL",
    ),
    _gen(
        3,
        "velkara",
        "Velkara Nightbloom",
        U,
        1,
        3,
        (("Soul Crystal", 2), ("Sacrifice", 1), ("Skeleton", 1)),
        (0, 1, 1),
        "discard_one: DMG 3",
    ),
    _gen(
        4,
        "kryssa",
        "Kryssa-Ruiva",
        D,
        2,
        3,
        (("Sacrifice", 1), ("Root", 1), ("Soul Crystal", 1), ("Slave", 1)),
        (0, 2, 2),
        "any2: COPY",
    ),
    _gen(
        5,
        "vorthax",
        "Vorthax, the Ember Tyrant",
        D,
        2,
        3,
        (("Sacrifice", 2), ("Root", 1), ("Kobold", 1)),
        (0, 0, 2),
        "S1: WARD 1",
    ),
)
GENERAL_KEYS = tuple(g.key for g in GENERALS)
NUM_GENERALS = len(GENERALS)


def starting_deck(general: int) -> list[int]:
    return [CARD_BY_NAME[name].id for name, count in GENERALS[general].deck for _ in range(count)]


class Plan(NamedTuple):
    id: int
    name: str
    fury: tuple[tuple, ...]  # ongoing FURY while active
    start: tuple[tuple, ...]  # ongoing START_OF_INVASION primitives while active
    thwart: str  # "DEF" (Invaders defeated) or "MARK" (markers placed)
    race: int  # invader race counted, or ANY_RACE
    required: tuple[int, int, int, int]  # by player count 1..4
    countdown: int
    fulfilment: tuple[tuple, ...]
    reward: tuple[tuple, ...]


def _plan(pid, name, ongoing, thwart, required, countdown=3, fulfilment="MILL 3", reward="HEAL 2") -> Plan:
    kind, _, body = ongoing.partition(":")
    prims = parse_primitives(body)
    fury = prims if kind == "fury" else ()
    start = prims if kind == "start" else ()
    what, race = thwart.split()
    return Plan(
        pid,
        name,
        fury,
        start,
        what,
        _race(race),
        tuple(required),
        countdown,
        parse_primitives(fulfilment),
        parse_primitives(reward),
    )


PLANS: tuple[Plan, ...] = (
    _plan(0, "Veil of Mist", "start: REGEN 1", "DEF Any", (3, 4, 4, 4)),
    _plan(1, "Moonlit Volley", "fury: FURY Elf 1", "DEF Elf", (1, 2, 2, 2)),
    _plan(2, "Thorned Path", "start: MILL 1", "MARK Any", (5, 7, 8, 8)),
    _plan(3, "Human Pawns", "fury: FURY Human 1", "DEF Human", (1, 2, 2, 2)),
    _plan(4, "Battering Ram", "fury: FURY Dwarf 1", "MARK Dwarf", (3, 3, 4, 4)),
    _plan(5, "Undermining", "start: MILL 1", "DEF Dwarf", (1, 2, 2, 2)),
    _plan(6, "Great Siege Engine", "fury: FURY Any 1", "DEF Any", (3, 4, 4, 4)),
)
NUM_PLANS = len(PLANS)


class Adversary(NamedTuple):
    id: int
    key: str
    name: str
    race: int
    plans: tuple[int, ...]  # Plan ids; empty for an Adversary without Plan cards
    shuffle_plans: bool  # shuffle the Plans and put one unseen in the Box
    plans_in_play: int
    threat_fury: tuple[tuple[tuple, ...], tuple[tuple, ...], tuple[tuple, ...]]  # by Threat level 1..3
    threat_start: tuple[tuple[tuple, ...], tuple[tuple, ...], tuple[tuple, ...]]
    setup_mill: int  # Fortress cards milled after the Area is built
    first_invader: int  # Invader id placed in column 0 before the others, or -1


ADVERSARIES: tuple[Adversary, ...] = (
    Adversary(
        0,
        "randall",
        "Randall of the Winds",
        HUMAN,
        (),
        False,
        0,
        ((), parse_primitives("FURY Human 1"), parse_primitives("FURY Any 1; FURY Human 1")),
        ((), (), ()),
        0,
        -1,
    ),
    Adversary(
        1,
        "sylvaen",
        "Sylvaen, the Silver Archmage",
        ELF,
        (0, 1, 2, 3),
        True,
        3,
        ((), parse_primitives("FURY Elf 1"), parse_primitives("FURY Any 1; FURY Elf 1")),
        ((), (), parse_primitives("REGEN 1")),
        0,
        -1,
    ),
    Adversary(
        2,
        "thargrim",
        "Thargrim Deepforge, Thane of the Iron Halls",
        DWARF,
        (4, 5, 6),
        False,
        3,
        ((), parse_primitives("FURY Dwarf 1"), parse_primitives("FURY Any 1; FURY Dwarf 1")),
        ((), (), ()),
        3,
        INVADER_BY_NAME["Sapper"].id,
    ),
)
ADVERSARY_KEYS = tuple(a.key for a in ADVERSARIES)
NUM_ADVERSARIES = len(ADVERSARIES)

#: Randall's victory target V(n): Invaders to defeat, by player count 1..4.
VICTORY_TARGET = (8, 13, 14, 15)
#: Toughness t(n) added to every health level (minimum 1), by player count 1..4.
TOUGHNESS = (-1, 0, 1, 2)
