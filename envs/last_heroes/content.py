"""Last Heroes content as data: weapon types, monster cards and artefact powers.

No logic here. A card *kind* is a (type, power) pair, ``kind = 3 * type + (power - 1)``; all
cards of one kind are identical, so the rules store cards as counts per kind. A content file
(JSON with the keys of :data:`DEFAULT_CONTENT`) can replace these tables for balance tuning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Weapon types in rulebook order; the first n are used at an n-player table.
WEAPON_TYPES = (
    # (type name, weapon name)
    ("Fire", "Flamethrower"),
    ("Bolts", "Crossbow"),
    ("Poison", "Pistol"),
    ("Energy", "Lightning Gauntlet"),
    ("Bullets", "Sniper Rifle"),
)

# Per weapon type: (power, ammo shown on the card, copies). A card holds `ammo` in a
# Magazine and needs `ammo` of its own type to be loaded as a weapon.
WEAPON_POWERS = (
    (1, 1, 5),
    (2, 2, 4),
    (3, 3, 3),
)

# Monster cards: (id, name, level, impacts required strongest first, dark zone, VP).
# The dark zone is ignored while a breach covers the card; level-1 cards have none.
MONSTERS = (
    (0, "Goblin", 1, (1,), (), 1),
    (1, "Giant Rat", 1, (1,), (), 1),
    (2, "Imp", 1, (1,), (), 1),
    (3, "Skeleton", 1, (1,), (), 1),
    (4, "Zombie", 1, (1,), (), 1),
    (5, "Kobold", 1, (1,), (), 1),
    (6, "Vampire Bat", 1, (1,), (), 1),
    (7, "Giant Beetle", 1, (1,), (), 1),
    (8, "Slime", 1, (1,), (), 1),
    (9, "Orc", 1, (2,), (), 2),
    (10, "Hellhound", 1, (2,), (), 2),
    (11, "Dire Wolf", 1, (2,), (), 2),
    (12, "Mummy", 1, (2,), (), 2),
    (13, "Giant Scorpion", 1, (2,), (), 2),
    (14, "Gnoll", 1, (2,), (), 2),
    (15, "Harpy", 2, (1, 1), (1,), 2),
    (16, "Ghoul", 2, (2, 1), (2,), 3),
    (17, "Banshee", 2, (2, 1), (2,), 3),
    (18, "Werewolf", 2, (2, 1), (1,), 3),
    (19, "Wraith", 2, (3, 1), (3,), 3),
    (20, "Spider", 2, (2, 2), (2,), 3),
    (21, "Troll", 2, (2, 2), (2,), 3),
    (22, "Gargoyle", 2, (3, 1), (1,), 3),
    (23, "Minotaur", 2, (3, 2), (3,), 4),
    (24, "Wyvern", 2, (3, 2), (3,), 4),
    (25, "Ogre", 2, (3, 2), (2,), 4),
    (26, "Basilisk", 2, (3, 3), (3,), 4),
    (27, "Chimera", 3, (2, 2, 2, 2), (2, 2), 6),
    (28, "Lich", 3, (3, 2, 2, 1), (3, 2), 6),
    (29, "Cyclops", 3, (2, 2, 2, 1), (2, 1), 6),
    (30, "Giant Snake", 3, (3, 3, 2, 1), (3, 2), 7),
    (31, "Hydra", 3, (3, 3, 2, 2), (3, 3), 7),
    (32, "Kraken", 3, (3, 3, 2, 2), (3, 2), 7),
    (33, "Demon Lord", 3, (3, 3, 3, 1), (3, 3), 7),
    (34, "Behemoth", 3, (3, 3, 3, 2), (3, 3), 8),
    (35, "Dragon", 3, (3, 3, 3, 3), (3, 3), 8),
)

# Artefact powers, in power-id order. The effect vocabulary the rules interpret:
#   gain_joker, exchange_discard, impact_reduction, skip_penalty, reload_slot, extra_attack.
POWERS = (
    ("JOKER", "gain_joker", "Immediately gain one Joker Ammo."),
    ("EXCHANGE", "exchange_discard", "Exchange a card from your hand with one from the discard pile."),
    ("IMPACT", "impact_reduction", "In one attack, a Power 1 covers a Power 2, or a Power 2 a Power 3."),
    ("IMMUNITY", "skip_penalty", "No point lost this end of turn for empty Magazine cards."),
    ("RELOAD", "reload_slot", "Refill one of your Magazine cards to full Ammo."),
    ("ADRENALINE", "extra_attack", "Attack two Monsters this turn instead of one."),
)

NUM_TYPES = len(WEAPON_TYPES)
NUM_KINDS = NUM_TYPES * len(WEAPON_POWERS)
NUM_POWERS = len(POWERS)
NUM_LEVELS = 3
MAX_PLAYERS = 5
CARDS_DEALT = 12
MAGAZINE_PICKS = 2
JOKER_CAP = 3
ROUNDS = CARDS_DEALT - MAGAZINE_PICKS
ARTEFACT_VP = 5

DEFAULT_CONTENT: dict[str, Any] = {
    "weapon_types": [list(t) for t in WEAPON_TYPES],
    "weapon_powers": [list(p) for p in WEAPON_POWERS],
    "monsters": [[m[0], m[1], m[2], list(m[3]), list(m[4]), m[5]] for m in MONSTERS],
}


@dataclass(frozen=True)
class Monster:
    id: int
    name: str
    level: int
    impacts: tuple[int, ...]
    dark: tuple[int, ...]
    vp: int

    @property
    def bright(self) -> tuple[int, ...]:
        rest = list(self.impacts)
        for p in self.dark:
            rest.remove(p)
        return tuple(rest)


@dataclass(frozen=True)
class Content:
    """Validated content tables, with the per-kind and per-monster lookups the rules use."""

    type_names: tuple[str, ...]
    weapon_names: tuple[str, ...]
    kind_type: tuple[int, ...]
    kind_power: tuple[int, ...]
    kind_ammo: tuple[int, ...]
    kind_copies: tuple[int, ...]
    monsters: tuple[Monster, ...]

    def kind_name(self, kind: int) -> str:
        return f"{self.type_names[self.kind_type[kind]]} P{self.kind_power[kind]}"


def build_content(data: dict[str, Any]) -> Content:
    """Check a content table and derive the lookups. Raises ValueError naming the bad row."""
    types = [tuple(t) for t in data["weapon_types"]]
    powers = [tuple(p) for p in data["weapon_powers"]]
    if len(types) != NUM_TYPES or len(powers) != 3 or [p[0] for p in powers] != [1, 2, 3]:
        raise ValueError("content: need exactly 5 weapon types and the powers 1, 2, 3 (the action ids depend on it)")
    kind_type, kind_power, kind_ammo, kind_copies = [], [], [], []
    for t in range(NUM_TYPES):
        for power, ammo, copies in powers:
            if not (1 <= ammo <= 3 and copies >= 1):
                raise ValueError(f"content: weapon power {power} needs 1 <= ammo <= 3 and copies >= 1")
            kind_type.append(t)
            kind_power.append(power)
            kind_ammo.append(ammo)
            kind_copies.append(copies)
    if sum(p[2] for p in powers) != CARDS_DEALT:
        raise ValueError(f"content: each weapon type must hold {CARDS_DEALT} cards (one deck per player)")
    monsters = []
    for i, row in enumerate(data["monsters"]):
        mid, name, level, impacts, dark, vp = row
        m = Monster(int(mid), str(name), int(level), tuple(impacts), tuple(dark), int(vp))
        if m.id != i or m.level not in (1, 2, 3) or not m.impacts or any(p not in (1, 2, 3) for p in m.impacts):
            raise ValueError(f"content: monster row {row} is malformed (ids 0.., level 1-3, impacts of power 1-3)")
        if list(m.impacts) != sorted(m.impacts, reverse=True):
            raise ValueError(f"content: monster {m.name}: list impacts strongest first")
        rest = list(m.impacts)
        for p in m.dark:
            if p not in rest:
                raise ValueError(f"content: monster {m.name}: dark zone {m.dark} is not part of {m.impacts}")
            rest.remove(p)
        if m.level == 1 and m.dark:
            raise ValueError(f"content: level-1 monster {m.name} cannot have a dark zone")
        monsters.append(m)
    levels = [m.level for m in monsters]
    if levels != sorted(levels):
        raise ValueError("content: list monsters by level")
    for level in (1, 2, 3):
        if levels.count(level) < MAX_PLAYERS:
            raise ValueError(f"content: level {level} needs at least {MAX_PLAYERS} monsters")
    return Content(
        type_names=tuple(t[0] for t in types),
        weapon_names=tuple(t[1] for t in types),
        kind_type=tuple(kind_type),
        kind_power=tuple(kind_power),
        kind_ammo=tuple(kind_ammo),
        kind_copies=tuple(kind_copies),
        monsters=tuple(monsters),
    )


def load_content(spec: str) -> Content:
    """``"default"`` or a path to a JSON content file."""
    if spec == "default":
        return DEFAULT
    path = Path(spec)
    if not path.is_file():
        raise ValueError(f"content file {spec!r} does not exist; pass 'default' or the path of a JSON content file")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"content file {spec!r} is not valid JSON: {e}") from None
    missing = set(DEFAULT_CONTENT) - set(data)
    if missing:
        raise ValueError(f"content file {spec!r} lacks the keys {sorted(missing)}")
    return build_content(data)


DEFAULT = build_content(DEFAULT_CONTENT)
