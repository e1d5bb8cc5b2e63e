"""Last Bastion content, as data only: colours, geometry, effect primitives, the 60 Horde cards, the
Bastion tiles, heroes, Horde boards, dice, box limits, and the words a state is written in (hero
statuses, element states, results, shaping weights).

The rules (``horde.py``, ``effects.py``, ``hero.py``, ``tiles.py``, ``combat.py``) interpret these rows;
no card has code of its own.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_PLAYERS = 4
COLORS = ("red", "green", "blue", "yellow", "black")
RED, GREEN, BLUE, YELLOW, BLACK = range(5)
NUM_COLORS = 5
WHITE = 5  # a combat-die face: joker
DIE_FACES = ("red", "green", "blue", "yellow", "black", "white")
ANY = "any"

# -- geometry (absolute frame: board 0 red at the bottom) ---------------------------------------
NUM_TILES = 9
NUM_SPACES = 12
CENTRE = 4
#: space s -> the tile position it faces
SPACE_FACES = (8, 7, 6, 6, 3, 0, 0, 1, 2, 2, 5, 8)
#: tile position -> the spaces it faces (FIRST, SECOND order for a double combat)
TILE_SPACES = {0: (5, 6), 2: (8, 9), 8: (11, 0), 6: (2, 3), 1: (7,), 3: (4,), 5: (10,), 7: (1,), 4: ()}
CORNERS = (0, 2, 6, 8)
MIDDLE_SPACES = (1, 4, 7, 10)
SIEGE_TILE = 5  # the tile facing the yellow board's middle space s10
#: quarter turn that brings board 1 to the bottom
ROT = (6, 3, 0, 7, 4, 1, 8, 5, 2)


def _rot_power(b: int) -> tuple[int, ...]:
    table = tuple(range(NUM_TILES))
    for _ in range(b):
        table = tuple(ROT[t] for t in table)
    return table


#: REL_TILE[b][abs tile] -> tile in seat b's frame; ABS_TILE[b][rel tile] -> absolute tile
REL_TILE = tuple(_rot_power(b) for b in range(4))
ABS_TILE = tuple(tuple(REL_TILE[b].index(r) for r in range(NUM_TILES)) for b in range(4))


def adjacent(a: int, b: int) -> bool:
    """Chebyshev distance 1 on the 3x3 grid."""
    return a != b and abs(a // 3 - b // 3) <= 1 and abs(a % 3 - b % 3) <= 1


# -- effect primitives (closed vocabulary) ------------------------------------------------------
PRIMITIVES = (
    "LOSE_LIFE",
    "GAIN_LIFE",
    "DRAW_HORDE",
    "DISCARD_EQUIP",
    "DISCARD_ALL_EQUIP",
    "GAIN_EQUIP",
    "LOSE_CTA",
    "GAIN_CTA",
    "GRASP_FRONT",
    "GRASP_HERE",
    "GRASP_BOARD",
    "PURIFY",
    "CORRUPT",
    "TO_CENTRE",
    "ONG_DIM",
    "ONG_SEAL",
    "ONG_NO_CTA",
    "ONG_WARD",
)
PRIM = {name: i for i, name in enumerate(PRIMITIVES)}
ONGOING = frozenset(("ONG_DIM", "ONG_SEAL", "ONG_NO_CTA", "ONG_WARD"))
GAINS = frozenset(("GAIN_LIFE", "GAIN_EQUIP", "GAIN_CTA"))
PRIMITIVE_DOC = {
    "LOSE_LIFE": "the affected player loses n Life, one at a time",
    "GAIN_LIFE": "the active hero takes n Life from the reserve",
    "DRAW_HORDE": "put n cards into play, one at a time",
    "DISCARD_EQUIP": "the affected player discards n Equipment tokens (colour chosen each time)",
    "DISCARD_ALL_EQUIP": "the affected player discards all their Equipment",
    "GAIN_EQUIP": "the active hero takes 1 Equipment of that colour (any: a chosen colour)",
    "LOSE_CTA": "the affected player discards n Call to Arms",
    "GAIN_CTA": "the active hero takes n Call to Arms",
    "GRASP_FRONT": "a Grasp of Evil on the tile facing this card",
    "GRASP_HERE": "a Grasp of Evil on the affected hero's tile",
    "GRASP_BOARD": "a Grasp of Evil on the affected player's Hero board",
    "PURIFY": "remove one Grasp (tile or Hero board), chosen",
    "CORRUPT": "the affected player rolls the Corruption die",
    "TO_CENTRE": "the affected hero is moved to the centre tile",
    "ONG_DIM": "ongoing: every combat rolls 1 die fewer (minimum 1)",
    "ONG_SEAL": "ongoing: the tile facing this card cannot be activated by a hero on it",
    "ONG_NO_CTA": "ongoing: no Call to Arms can be used",
    "ONG_WARD": "ongoing: no Equipment can be spent against this card",
}


class Effect(NamedTuple):
    prim: str
    arg: object = 1  # an integer count, a colour index, or ANY


def E(prim: str, arg: object = 1) -> Effect:
    return Effect(prim, arg)


# -- Horde cards ----------------------------------------------------------------------------------
class Card(NamedTuple):
    code: str
    name: str
    color: int
    resistance: int
    warlord: bool
    entrance: Effect | None
    central: Effect | None
    exit: Effect | None


_ = None
R, G, B, Y, K = RED, GREEN, BLUE, YELLOW, BLACK
LL, GL, DH, DE, DA = E("LOSE_LIFE"), E("GAIN_LIFE"), E("DRAW_HORDE"), E("DISCARD_EQUIP"), E("DISCARD_ALL_EQUIP")
GANY, LC, GC, GF, GH = E("GAIN_EQUIP", ANY), E("LOSE_CTA"), E("GAIN_CTA"), E("GRASP_FRONT"), E("GRASP_HERE")
GB, PU, CO, TC = E("GRASP_BOARD"), E("PURIFY"), E("CORRUPT"), E("TO_CENTRE")
DIM, SEAL, NOCTA, WARD = E("ONG_DIM"), E("ONG_SEAL"), E("ONG_NO_CTA"), E("ONG_WARD")

#: id, name, colour, resistance, warlord, entrance, central, exit
CARDS: tuple[Card, ...] = tuple(
    Card(*row)
    for row in (
        ("M01", "Hellhound", R, 1, False, _, LL, _),
        ("M02", "Goblin Raider", R, 1, False, DE, _, E("GAIN_EQUIP", R)),
        ("M03", "Orc Skirmisher", R, 1, False, _, _, GL),
        ("M04", "Fire Imp", R, 1, False, LL, _, _),
        ("M05", "Ember Sprite", R, 1, False, _, _, _),
        ("M06", "Incubus", R, 2, False, _, _, GANY),
        ("M07", "Butcher", R, 2, False, _, DE, GANY),
        ("M08", "Flame Berserker", R, 1, False, LL, _, GC),
        ("M09", "War Troll", R, 2, False, _, WARD, GL),
        ("M10", "Magma Giant", R, 3, False, _, LL, GC),
        ("M11", "Plague Rat", G, 1, False, CO, _, _),
        ("M12", "Bog Lurker", G, 1, False, _, CO, _),
        ("M13", "Spore Cloud", G, 1, False, _, DIM, _),
        ("M14", "Fen Goblin", G, 1, False, _, _, E("GAIN_EQUIP", G)),
        ("M15", "Rotting Hound", G, 1, False, DE, _, GL),
        ("M16", "Blight Shaman", G, 2, False, _, DA, GANY),
        ("M17", "Mire Witch", G, 2, False, GB, _, PU),
        ("M18", "Ghoul", G, 1, False, _, LL, GL),
        ("M19", "Carrion Swarm", G, 2, False, DH, _, _),
        ("M20", "Plague Lord", G, 3, False, _, CO, GC),
        ("M21", "Hollow Summoner", B, 1, False, DH, _, _),
        ("M22", "Drowned Sailor", B, 1, False, _, _, E("GAIN_EQUIP", B)),
        ("M23", "Wisp", B, 1, False, LC, _, _),
        ("M24", "Frost Wraith", B, 1, False, _, DE, _),
        ("M25", "Tide Caller", B, 1, False, _, DH, _),
        ("M26", "Dark Adept", B, 2, False, _, NOCTA, GC),
        ("M27", "Deep One", B, 1, False, TC, _, GANY),
        ("M28", "Storm Hag", B, 2, False, _, LC, GL),
        ("M29", "Soul Binder", B, 2, False, GB, _, PU),
        ("M30", "Kraken Spawn", B, 3, False, _, DH, GC),
        ("M31", "Siege Goblin", Y, 1, False, _, _, E("GAIN_EQUIP", Y)),
        ("M32", "Sapper", Y, 1, False, _, GF, _),
        ("M33", "Shade", Y, 1, False, _, SEAL, _),
        ("M34", "Gloom Bat", Y, 1, False, DE, _, _),
        ("M35", "Dust Wight", Y, 1, False, _, _, GL),
        ("M36", "Night Stalker", Y, 2, False, TC, DE, GC),
        ("M37", "Catapult Crew", Y, 2, False, _, GF, PU),
        ("M38", "Dread Knight", Y, 2, False, _, WARD, GANY),
        ("M39", "Gravecaller", Y, 1, False, DH, _, GL),
        ("M40", "Dusk Titan", Y, 3, False, GF, _, PU),
        ("M41", "Nefarious Cannon", K, 3, False, _, GF, GC),
        ("M42", "Black Knight", K, 2, False, _, DIM, GL),
        ("M43", "Vampire", K, 2, False, _, LL, GL),
        ("M44", "Lich Acolyte", K, 1, False, _, CO, GANY),
        ("M45", "Gargoyle", K, 1, False, GH, _, PU),
        ("M46", "Cultist", K, 1, False, DH, _, _),
        ("M47", "Harpy", K, 1, False, DE, _, E("GAIN_EQUIP", K)),
        ("M48", "Shadow Assassin", K, 2, False, LL, NOCTA, GC),
        ("M49", "Doom Priest", K, 2, False, _, DH, GANY),
        ("M50", "Bone Dragon", K, 3, False, _, WARD, E("GAIN_LIFE", 2)),
        ("W01", "Gorrath the Flayer", R, 4, True, _, LL, _),
        ("W02", "Mother of Maggots", G, 3, True, _, DH, CO),
        ("W03", "The Drowned Prophet", B, 4, True, DH, NOCTA, _),
        ("W04", "Ashen Tyrant", Y, 4, True, GF, _, _),
        ("W05", "The Hollow King", K, 4, True, _, DIM, _),
        ("W06", "Baleful Herald", K, 3, True, GB, CO, _),
        ("W07", "Iron Colossus", K, 5, True, _, _, _),
        ("W08", "Lich Regent", G, 4, True, _, DE, LL),
        ("W09", "Wyrm of Cinders", R, 3, True, LL, GH, _),
        ("W10", "Nightshade Matriarch", Y, 3, True, _, SEAL, DH),
    )
)
NUM_CARDS = len(CARDS)
MONSTERS = tuple(i for i, c in enumerate(CARDS) if not c.warlord)
WARLORDS = tuple(i for i, c in enumerate(CARDS) if c.warlord)
CARD_BY_CODE = {c.code: i for i, c in enumerate(CARDS)}
CARD_BY_NAME = {c.name: i for i, c in enumerate(CARDS)}


# -- Bastion tiles ---------------------------------------------------------------------------------
class Tile(NamedTuple):
    name: str
    element: str | None
    action: str


TILES: tuple[Tile, ...] = tuple(
    Tile(*row)
    for row in (
        (
            "Standard",
            "standard",
            "plant the Standard on a colour: -1 resistance for that colour until your next board-turn",
        ),
        ("Dwarven Quarry", "trap", "set the Trap on a free space: the next Monster put into play there is discarded"),
        ("Trebuchet", "net", "throw the Net on a Monster: its central effect is suppressed while it stays in play"),
        ("Tomb of the Ancient Kings", None, "discard a Monster (no exit effect), then lose 1 Life"),
        ("Strategist's Tower", None, "move a card with its elements to a free space of any board"),
        ("Divine Fountain", None, "remove a Grasp (tile or Hero board), or sanctify a card until your next board-turn"),
        ("Market", None, "roll 2 Combat dice, take the matching Equipment (white: a colour of your choice)"),
        ("Dispensary", None, "heal a taken-out hero: wounded side, 3 Life, 1 Call to Arms, on this tile"),
        (
            "Great Hall",
            None,
            "take 1 Life and 1 Call to Arms (no Call to Arms through a Call to Arms), then put a card into play",
        ),
    )
)
STANDARD, QUARRY, TREBUCHET, TOMB, TOWER, FOUNTAIN, MARKET, DISPENSARY, GREAT_HALL = range(9)
TILE_BY_NAME = {t.name: i for i, t in enumerate(TILES)}
ELEMENTS = ("standard", "trap", "net", "enchantment")
ELEMENT_HOME_TILE = {"standard": STANDARD, "trap": QUARRY, "net": TREBUCHET}
WARLORD_IMMUNE_TILES = frozenset((TOMB, TREBUCHET, QUARRY))


# -- heroes ----------------------------------------------------------------------------------------
class Hero(NamedTuple):
    name: str
    power: str
    doc: str


HEROES: tuple[Hero, ...] = tuple(
    Hero(*row)
    for row in (
        ("Brakka", "Fury", "rolls 4 Combat dice instead of 3"),
        ("Twindalli", "Longbow", "may fight from the centre tile, one card on a middle space"),
        ("Mylfaar", "Enchantment", "once per turn, free: put the Enchantment on a card (-1 resistance)"),
        ("Thorgrim", "Stoneskin", "starts with 1 extra Life; never affected by the Corruption die"),
        ("Ysolde", "Swift", "her move may end on any tile"),
        ("Aldric", "Quartermaster", "shares Equipment with heroes on adjacent tiles in combat"),
        ("Kaela", "Devotion", "a tile she activates (not by Call to Arms) resolves twice"),
        ("Oswin", "Warden", "during his board-turn, cards put into play may go to any free space"),
    )
)
BRAKKA, TWINDALLI, MYLFAAR, THORGRIM, YSOLDE, ALDRIC, KAELA, OSWIN = range(8)
HERO_BY_NAME = {h.name: i for i, h in enumerate(HEROES)}

# -- Horde boards: full-board effects -----------------------------------------------------------
BOARDS = (
    ("Burning Volley", "lose 1 Life"),
    ("Plague Wind", "discard all Equipment; if none: lose 1 Life"),
    ("Soul Drain", "lose 1 Call to Arms; if none: lose 1 Life"),
    ("Siege Breach", "a Grasp on the tile facing the yellow middle space; if already grasped: lose 1 Life"),
)

#: Corruption die faces (None = blank)
CORRUPTION_FACES: tuple[Effect | None, ...] = (
    None,
    None,
    E("LOSE_LIFE"),
    E("DISCARD_ALL_EQUIP"),
    E("DRAW_HORDE"),
    E("GRASP_HERE"),
)

# -- box limits and setup --------------------------------------------------------------------------
EQUIP_PER_COLOR = 4
LIFE_TOTAL = 16
CTA_TOTAL = 6
GRASP_TOTAL = 11
DIFFICULTIES = ("novice", "normal", "difficult", "heroic")
WARLORD_COUNT = {"novice": 1, "normal": 1, "difficult": 2, "heroic": 3}
VICTORY_POINTS = {"novice": 5, "normal": 10, "difficult": 15, "heroic": 20}
M_BASE = {4: 50, 3: 38, 2: 26, 1: 18}
START_LIFE = {4: 3, 3: 4, 2: 4, 1: 5}
START_CTA = {4: 1, 3: 1, 2: 1, 1: 2}


def monster_count(num_players: int, difficulty: str) -> int:
    """M of the deck table: Monster cards used."""
    w = WARLORD_COUNT[difficulty]
    return max(M_BASE[num_players] - (4 if difficulty == "novice" else 0), 8 * w + 2)


# -- the words of a state ---------------------------------------------------------------------------
#: a hero's status
IN, OUT, DEAD = "in", "out", "dead"
#: an element's state (``GONE``: the Enchantment left the game with Mylfaar)
HOME, DEPLOYED, PARKED, GONE = "home", "deployed", "parked", "out"
#: the results a game ends with, and the end reason of each
RESULTS = {
    "victory": "every Warlord vanquished",
    "defeat_heroes": "no hero left in play",
    "defeat_grasp": "a third Bastion tile fell under the Grasp of Evil",
    "defeat_deck": "a Horde card had to be drawn from an empty deck",
    "truncated": "board-turn cap reached",
}
#: reward_scheme="shaped": the weight of each counted event
SHAPED = {"monster": 0.02, "warlord": 0.2, "life_lost": -0.03, "grasp": -0.1, "purified": 0.05}
#: a bound on what those terms can have paid by a game's end (``Game.shaping_bound``)
SHAPING_BOUND = 3.0  # measured ends of 320 heuristic and random games: -1.28 to +0.56
