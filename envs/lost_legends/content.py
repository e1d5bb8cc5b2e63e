"""Lost Legends content as data: heroes, trophy stacks, the 90 equipment cards and 60 monsters.

No rules here. Every card is one row of a table; its effects are written in a small closed
vocabulary of primitives (docs/lost_legends.md section 4.1) that :func:`parse_line` turns into
:class:`Line` tuples, which the phase modules (``combat``, ``draft``) interpret. Nothing in the
rules names a card.

Card ids: equipment ``L-NN`` is ``(L-1)*50 + NN-1``; monster ``L-MNN`` is ``(L-1)*50 + 29 + NN``.
All the content is project design: the rulebook names heroes and some cards but gives no numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

SKILLS = ("ME", "RA", "MA", "AR")  # melee, range, magic, armor
DAMAGE = ("mel", "rng", "mag", "cha")
MONSTER_TYPES = ("A", "H", "D", "U")  # animal, humanoid, dragon, undead
MONSTER_TYPE_NAMES = ("animal", "humanoid", "dragon", "undead")
LEVEL_NAMES = ("Ruins", "Caves", "Demon Fortress")
KINDS = ("W-mel", "W-rng", "W-mag", "A-brp", "A-shd", "A-hlm", "S-scr", "S-fol", "R-trk", "R-hea")
NUM_LEVELS = 3
MAX_PLAYERS = 5
NUM_SLOTS = 12
HAND_SIZE = 6
DRAFT_ROUNDS = 5
MONSTERS_PER_PLAYER = 3
TRACK_MAX = 10  # life and mana tracks run 0..10
ANY = 4  # BLOCK n any; CONV all>t uses the same index for "all"

# Hero boards: name, two initial skills, starting gold, starting maximum life and mana.
HEROES = (
    ("Barbarian", ("ME", "ME"), 6, 4, 0),
    ("Warrior", ("ME", "AR"), 5, 4, 1),
    ("Hunter", ("RA", "RA"), 6, 3, 1),
    ("Assassin", ("ME", "RA"), 6, 3, 2),
    ("Sorceress", ("MA", "MA"), 7, 2, 3),
)
HERO_NAMES = tuple(h[0] for h in HEROES)

# Trophy-token stacks: name, condition, monster type (for "2"), token values top to bottom.
# "2": own >= 2 trophies of that type; "3x": >= 3 of one single type; "4": >= 1 of each type.
TROPHY_STACKS = (
    ("T1", "2", "A", (4, 3, 2, 1)),
    ("T2", "2", "H", (5, 4, 3, 2)),
    ("T3", "2", "U", (6, 5, 4, 3)),
    ("T4", "2", "D", (7, 6, 5, 4)),
    ("T5", "3x", None, (8, 6, 4, 2)),
    ("T6", "4", None, (10, 8, 6, 4)),
)

SKILL_GOLD = (1, 2, 3)  # gold for placing a card as a skill, per level
LEGEND_PER_TROPHY = (1, 2, 3)  # legend markers per challenge trophy held at level end
XP_THRESHOLDS = (3, 6, 12, 20, 30)  # hero level-ups
# Final scoring: legend points by experience, (lowest experience, points), highest band first.
XP_POINTS = ((30, 20), (28, 16), (24, 13), (20, 10), (16, 8))
GOLD_BONUS = (6, 3)  # most gold, second-most gold (dense ranking; 0 gold never scores)
LEVEL_REWARDS = ("gold", "life", "mana")
REWARD_GOLD = 2

# fmt: off
EQUIPMENT_ROWS = (
    # code, name, kind, cost, discount boxes, skill icon, player number, effect lines
    ('1-01', 'Short Sword', 'W-mel', 1, 'ME1:-1', 'ME', 3, 'DMG 2 mel; IF ME1: DMG 1 mel'),
    ('1-02', 'Long Sword', 'W-mel', 4, 'ME1:-1, ME2:-3', 'ME', 3, 'DMG 2 mel; IF ME1: DMG 1 mel; IF ME2: DMG 1 mel'),
    ('1-03', 'Battle Axe', 'W-mel', 4, 'ME2:-2', 'ME', 4, 'DMG 2 mel; IF ME2: DMG 3 mel'),
    ('1-04', 'Short Bow', 'W-rng', 1, 'RA1:-1', 'RA', 3, 'DMG 1 rng; IF RA1: DMG 1 rng; IF RA2: DMG 1 rng'),
    ('1-05', 'Long Bow', 'W-rng', 3, 'RA1:-1, RA2:-1', 'RA', 3, 'DMG 2 rng; IF RA1: DMG 2 rng'),
    ('1-06', 'Throwing Spear', 'W-rng', 1, 'ME1|RA1:-1', 'ME', 4, 'DMG 1 rng; IF ME1: DMG 1 mel; IF RA2: DMG 1 rng'),
    ('1-07', 'Apprentice Staff', 'W-mag', 1, 'MA1:-1', 'MA', 3, 'DMG 1 mag; IF MA1: DMG 1 mag; FOR 1: DMG 1 mag'),
    ('1-08', 'Fire Wand', 'W-mag', 3, 'MA1:-1, MA2:-1', 'MA', 3, 'DMG 2 mag; IF MA2: DMG 1 mag; FOR 1: DMG 1 mag [max1]'),  # noqa: E501
    ('1-09', 'Rune Staff', 'W-mag', 2, 'MA1|AR1:-1', 'AR', 5, 'DMG 1 mag; IF MA1: DMG 1 mag; IF AR1: DMG 1 mel'),
    ('1-10', 'Leather Armor', 'A-brp', 1, 'AR1:-1', 'AR', 3, 'BLOCK 1 mel'),
    ('1-11', 'Chain Mail', 'A-brp', 3, 'AR1:-1, ME1:-1', 'AR', 3, 'BLOCK 1 mel; BLOCK 1 rng'),
    ('1-12', 'Padded Robe', 'A-brp', 2, 'MA1:-1', 'MA', 4, 'BLOCK 1 mag; MANA +1'),
    ('1-13', 'Oak Shield', 'A-shd', 2, 'AR1:-1, ME1:-1', 'AR', 3, 'BLOCK 1 mel'),
    ('1-14', 'Buckler', 'A-shd', 2, 'RA1|AR1:-1', 'RA', 5, 'BLOCK 1 rng; IF AR1: BLOCK 1 mel'),
    ('1-15', 'Iron Helm', 'A-hlm', 2, 'AR1:-1', 'AR', 3, 'BLOCK 2 mel'),
    ('1-16', 'Leather Cap', 'A-hlm', 1, '', 'RA', 4, 'BLOCK 1 any'),
    ('1-17', 'Arcane Energy', 'S-scr', 2, 'MA1:-1', 'MA', 3, 'CONV all>mag; DMG 1 mag'),
    ('1-18', 'Lightning Bolt', 'S-scr', 2, 'MA1:-1', 'MA', 3, 'DMG 1 mag; REFRESH 1'),
    ('1-19', 'Fireball', 'S-scr', 3, 'MA1:-1, MA2:-1', 'MA', 4, 'DMG 2 mag; IF MA2: DMG 1 mag'),
    ('1-20', 'Battle Cry', 'S-scr', 1, 'ME1:-1', 'ME', 5, 'DMG 1 mel; IF ME2: DMG 1 mel'),
    ('1-21', 'Evasion', 'S-fol', 2, 'RA1|ME1:-1', 'RA', 3, 'BLOCK 2 mel; BLOCK 2 rng'),
    ('1-22', 'Warding Rune', 'S-fol', 2, 'MA1:-1', 'MA', 3, 'BLOCK 2 mag'),
    ('1-23', 'Eagle Eye', 'S-fol', 1, 'RA1:-1', 'RA', 4, 'DMG 1 rng; IF RA1: DMG 1 rng'),
    ('1-24', 'Magic Bandages', 'R-hea', 1, 'ME1|AR1:-1', 'ME', 3, 'HEAL 1'),
    ('1-25', 'Magic Bandages', 'R-hea', 1, 'ME1|AR1:-1', 'ME', 5, 'HEAL 1'),
    ('1-26', 'Healing Potion', 'R-hea', 2, 'MA1:-1', 'AR', 3, 'HEAL 2'),
    ('1-27', 'Lucky Charm', 'R-trk', 1, '', 'RA', 3, 'DMG 1 rng; IF RA2: DMG 1 rng'),
    ('1-28', 'Mana Crystal', 'R-trk', 2, 'MA1:-1', 'MA', 5, 'RESTORE 2'),
    ('1-29', 'Amulet of Vigor', 'R-trk', 3, 'AR1:-1, ME1:-1', 'AR', 3, 'LIFE +1'),
    ('1-30', 'Whetstone', 'R-trk', 1, 'ME1:-1', 'ME', 5, 'DMG 1 mel; IF ME1: DMG 1 mel'),
    ('2-01', 'War Hammer', 'W-mel', 6, 'ME1:-1, AR1:-1', 'ME', 3, 'DMG 3 mel; IF ME2: DMG 2 mel; IF AR2: DMG 1 mel'),
    ('2-02', 'Broadsword', 'W-mel', 5, 'ME2:-2', 'ME', 3, 'DMG 3 mel; IF ME2: DMG 1 mel; IF ME3: DMG 2 mel'),
    ('2-03', 'Flaming Sword', 'W-mel', 7, 'ME2|MA2:-2, MA1:-1', 'MA', 4, 'DMG 2 mel; DMG 2 mag; IF MA2: DMG 1 mag; FOR 1: DMG 1 mag [max1]'),  # noqa: E501
    ('2-04', 'Magic Crossbow', 'W-rng', 5, 'RA1|MA1:-1', 'RA', 3, 'DMG 2 rng; IF RA1|MA1: DMG 2 mag; IF MA1&RA1&AR1: FOR 1: DMG 1 mag'),  # noqa: E501
    ('2-05', 'Composite Bow', 'W-rng', 5, 'RA1:-1, RA2:-2', 'RA', 3, 'DMG 3 rng; IF RA2: DMG 2 rng; IF RA3: DMG 1 rng'),
    ('2-06', 'Throwing Axes', 'W-rng', 4, 'ME1|RA1:-1, ME2:-1', 'ME', 5, 'DMG 2 rng; IF RA1: DMG 1 rng; IF ME2: DMG 2 mel'),  # noqa: E501
    ('2-07', 'Staff of Storms', 'W-mag', 6, 'MA1:-1, MA2:-2', 'MA', 3, 'DMG 2 mag; IF MA2: DMG 2 mag; FOR 1: DMG 1 mag'),  # noqa: E501
    ('2-08', 'Wand of Frost', 'W-mag', 4, 'MA1:-2', 'MA', 4, 'DMG 3 mag; FOR 2: DMG 2 mag [max1]'),
    ('2-09', 'Runic Scepter', 'W-mag', 5, 'MA1|AR1:-1, AR2:-1', 'AR', 5, 'DMG 2 mag; IF AR1: DMG 1 mag; PER MA: DMG 1 mag'),  # noqa: E501
    ('2-10', 'Scale Mail', 'A-brp', 5, 'AR1:-1, AR2:-2', 'AR', 3, 'BLOCK 2 mel; BLOCK 1 rng'),
    ('2-11', 'Mage Robe', 'A-brp', 4, 'MA1:-1, MA2:-1', 'MA', 3, 'BLOCK 1 mag; IF MA2: BLOCK 1 mag; MANA +1'),
    ('2-12', "Hunter's Leathers", 'A-brp', 4, 'RA1:-1, RA2:-1', 'RA', 4, 'BLOCK 1 mel; BLOCK 1 rng; LIFE +1'),
    ('2-13', 'Tower Shield', 'A-shd', 5, 'AR2:-2, ME1:-1', 'AR', 3, 'BLOCK 2 mel; IF AR2: BLOCK 1 rng'),
    ('2-14', 'Silver Shield', 'A-shd', 4, 'AR1|MA1:-1', 'AR', 5, 'BLOCK 1 mel; BLOCK 1 mag'),
    ('2-15', 'Great Helm', 'A-hlm', 5, 'AR1:-1, AR2:-1', 'AR', 3, 'BLOCK 3 any'),
    ('2-16', 'Horned Helm', 'A-hlm', 3, 'ME1:-1', 'ME', 4, 'BLOCKALL mel'),
    ('2-17', 'Chain Lightning', 'S-scr', 4, 'MA1:-1, MA2:-1', 'MA', 3, 'DMG 3 mag; IF MA3: DMG 1 mag'),
    ('2-18', 'Holy Light', 'S-scr', 3, 'MA1|AR1:-1', 'AR', 3, 'DMG 2 mag; IF AR2: DMG 1 mag'),
    ('2-19', 'Berserk', 'S-scr', 3, 'ME1:-1, ME2:-1', 'ME', 3, 'DMG 2 mel; IF ME3: DMG 1 mel'),
    ('2-20', 'Ethereal Blade', 'S-scr', 3, 'MA1:-1, ME1:-1', 'MA', 4, 'CONV mel>mag; DMG 1 mag'),
    ('2-21', 'Stone Skin', 'S-fol', 5, 'AR1:-1, MA1:-1', 'AR', 3, 'BLOCKALL mel; BLOCKALL rng'),
    ('2-22', 'Counterspell', 'S-fol', 3, 'MA1:-1, MA2:-1', 'MA', 5, 'BLOCKALL mag'),
    ('2-23', 'Precise Shot', 'S-fol', 4, 'RA1:-1, RA2:-1', 'RA', 3, 'DMG 2 rng; IF RA2: DMG 1 rng; REFRESH 2'),
    ('2-24', 'Greater Healing Potion', 'R-hea', 4, 'MA1:-1, AR1:-1', 'AR', 3, 'HEAL 3'),
    ('2-25', 'Healing Herbs', 'R-hea', 2, 'RA1:-1', 'RA', 3, 'HEAL 2'),
    ('2-26', 'Healing Herbs', 'R-hea', 2, 'RA1:-1', 'RA', 4, 'HEAL 2'),
    ('2-27', 'Troll Blood', 'R-hea', 3, 'ME1|AR1:-1', 'ME', 5, 'HEAL 2; LIFE +1'),
    ('2-28', 'Quiver of Plenty', 'R-trk', 4, 'RA1:-1, RA2:-1', 'RA', 3, 'DMG 2 rng; REFRESH 2'),
    ('2-29', 'Ring of Power', 'R-trk', 5, 'MA1:-1, MA2:-1', 'MA', 3, 'MANA +2'),
    ('2-30', 'Gauntlets of Might', 'R-trk', 4, 'ME1:-1, ME2:-1', 'ME', 5, 'PER ME: DMG 1 mel'),
    ('3-01', 'Demon Slayer', 'W-mel', 10, 'ME2:-2, ME3:-2, ME4:-2', 'ME', 3, 'DMG 4 mel; IF ME3: DMG 3 mel; IF ME4: DMG 3 cha'),  # noqa: E501
    ('3-02', 'Great Axe', 'W-mel', 8, 'ME2:-2, AR2:-1', 'ME', 3, 'DMG 5 mel; IF ME3: DMG 2 mel; IF AR2: DMG 1 mel'),
    ('3-03', 'Runeblade', 'W-mel', 9, 'ME2|MA2:-2, MA3:-2', 'MA', 4, 'DMG 3 mel; DMG 2 mag; IF MA3: DMG 2 mag; FOR 1: DMG 1 mag'),  # noqa: E501
    ('3-04', 'Dragonbone Bow', 'W-rng', 9, 'RA2:-2, RA3:-2', 'RA', 3, 'DMG 4 rng; IF RA3: DMG 3 rng; IF RA4: DMG 2 rng'),  # noqa: E501
    ('3-05', 'Elven Longbow', 'W-rng', 8, 'RA2:-2, MA2:-1', 'RA', 3, 'DMG 3 rng; IF RA2: DMG 2 rng; IF MA2: DMG 2 mag; FOR 1: DMG 1 rng [max1]'),  # noqa: E501
    ('3-06', 'Arbalest', 'W-rng', 7, 'RA1|ME2:-2, AR2:-1', 'AR', 5, 'DMG 5 rng; IF AR2: DMG 1 rng'),
    ('3-07', 'Staff of the Archmage', 'W-mag', 10, 'MA2:-2, MA3:-2, MA4:-2', 'MA', 3, 'DMG 3 mag; PER MA: DMG 1 mag; FOR 1: DMG 1 mag'),  # noqa: E501
    ('3-08', 'Chaos Orb', 'W-mag', 9, 'MA3:-3', 'MA', 4, 'DMG 2 cha; IF MA2: DMG 2 cha; FOR 2: DMG 2 cha [max1]'),
    ('3-09', 'Soul Scepter', 'W-mag', 8, 'MA2|AR2:-2', 'AR', 5, 'DMG 3 mag; IF AR3: DMG 2 mag; IF MA3: DMG 2 mag'),
    ('3-10', 'Plate Armor', 'A-brp', 9, 'AR2:-2, AR3:-2', 'AR', 3, 'BLOCK 2 mel; BLOCK 2 rng; IF AR4: BLOCK 1 mag'),
    ('3-11', 'Dragon Scale Mail', 'A-brp', 10, 'AR2:-2, RA2|ME2:-2', 'AR', 4, 'BLOCK 2 mel; BLOCK 1 mag; LIFE +1'),
    ('3-12', 'Archmage Robe', 'A-brp', 8, 'MA2:-2, MA3:-2', 'MA', 3, 'BLOCK 2 mag; MANA +2'),
    ('3-13', 'Aegis Shield', 'A-shd', 9, 'AR2:-2, AR3:-2', 'AR', 3, 'BLOCK 2 mel; BLOCK 1 rng; IF AR3: BLOCK 1 cha'),
    ('3-14', 'Blessed Shield', 'A-shd', 7, 'AR1|MA2:-2', 'MA', 5, 'BLOCK 1 mag; BLOCK 1 cha'),
    ('3-15', 'Demon Helm', 'A-hlm', 8, 'AR2:-2, AR3:-2', 'AR', 3, 'BLOCK 4 any'),
    ('3-16', 'Crown of Wisdom', 'A-hlm', 7, 'MA2:-2', 'MA', 4, 'BLOCKALL mag; MANA +1'),
    ('3-17', 'Meteor', 'S-scr', 7, 'MA2:-2, MA3:-1', 'MA', 3, 'DMG 4 mag; IF MA4: DMG 2 mag'),
    ('3-18', 'Banishment', 'S-scr', 6, 'MA2|AR2:-2', 'AR', 3, 'CONV all>cha; DMG 1 cha'),
    ('3-19', 'Rain of Arrows', 'S-scr', 6, 'RA2:-2, RA3:-1', 'RA', 4, 'DMG 3 rng; IF RA3: DMG 2 rng'),
    ('3-20', 'Rage', 'S-scr', 5, 'ME2:-2', 'ME', 5, 'DMG 1 mel; PER ME: DMG 1 mel'),
    ('3-21', 'Sanctuary', 'S-fol', 7, 'MA2:-2, AR2:-1', 'ME', 3, 'BLOCKALL cha; BLOCK 2 any'),
    ('3-22', 'Time Warp', 'S-fol', 8, 'MA3:-2, MA4:-2', 'MA', 3, 'BLOCKALL mel; BLOCKALL rng; BLOCKALL mag'),
    ('3-23', 'Shadow Step', 'S-fol', 5, 'RA2|ME2:-2', 'RA', 3, 'BLOCK 3 mel; BLOCK 3 rng'),
    ('3-24', 'Elixir of Life', 'R-hea', 6, 'MA2:-1, AR2:-1', 'ME', 3, 'HEAL 4'),
    ('3-25', 'Elixir of Life', 'R-hea', 6, 'MA2:-1, AR2:-1', 'ME', 5, 'HEAL 4'),
    ('3-26', 'Phoenix Feather', 'R-hea', 8, 'RA2|MA3:-2', 'RA', 4, 'HEAL 5; REFRESH 3'),
    ('3-27', 'Demon Ward', 'R-trk', 6, 'AR2:-1, MA2:-1', 'AR', 3, 'BLOCK 3 cha'),
    ('3-28', 'Orb of Mana', 'R-trk', 6, 'MA2:-2', 'RA', 5, 'RESTORE 3; MANA +1'),
    ('3-29', 'Berserker Totem', 'R-trk', 6, 'ME2|RA2:-2', 'ME', 3, 'DMG 3 mel; IF ME3: DMG 1 mel'),
    ('3-30', 'Hawk Eye Amulet', 'R-trk', 7, 'RA3:-3', 'RA', 3, 'DMG 2 rng; PER RA: DMG 1 rng'),
)
MONSTER_ROWS = (
    # code, name, type, attack, life, xp, gold, damage modifiers, effects
    ('1-M01', 'Giant Rat', 'A', '1 mel', 3, 1, 1, '', ''),
    ('1-M02', 'Wolf', 'A', '2 mel', 4, 2, 1, 'mag x2', ''),
    ('1-M03', 'Giant Spider', 'A', '1 mel', 3, 2, 2, 'rng /2', 'CHG: C-DMG 1 mel'),
    ('1-M04', 'Cave Bear', 'A', '2 mel', 6, 3, 2, 'mel /2', ''),
    ('1-M05', 'Bat Swarm', 'A', '1 mel', 3, 1, 1, 'mel /2, rng x2', ''),
    ('1-M06', 'Wild Boar', 'A', '2 mel', 5, 2, 2, 'mag x2', ''),
    ('1-M07', 'Armored Beetle', 'A', '1 mel', 2, 1, 1, 'mel /2, rng /2, mag x2', ''),
    ('1-M08', 'Goblin', 'H', '1 mel', 3, 1, 2, '', ''),
    ('1-M09', 'Goblin Archer', 'H', '2 rng', 3, 2, 2, 'mel x2', ''),
    ('1-M10', 'Bandit', 'H', '2 mel', 4, 2, 3, '', 'CHG: C-GOLD 1'),
    ('1-M11', 'Kobold Shaman', 'H', '1 mag', 3, 2, 1, 'mag /2', 'CHG: C-DRAIN 1'),
    ('1-M12', 'Orc Warrior', 'H', '2 mel', 5, 3, 2, 'mel /2', ''),
    ('1-M13', 'Gnoll', 'H', '1 mel, 1 rng', 5, 2, 2, 'rng x2', ''),
    ('1-M14', 'Skeleton', 'U', '1 mel', 4, 2, 1, 'rng /2, mag x2', ''),
    ('1-M15', 'Zombie', 'U', '2 mel', 5, 2, 1, 'mag x2', ''),
    ('1-M16', 'Ghost', 'U', '1 mag', 3, 2, 2, 'mel 0, rng /2', ''),
    ('1-M17', 'Ghoul', 'U', '2 mel', 4, 2, 2, 'rng /2', 'ATK: REGEN 1'),
    ('1-M18', 'Wyvern', 'D', '2 mel', 5, 2, 2, 'rng x2', ''),
    ('1-M19', 'Dragon Whelp', 'D', '1 mel, 1 mag', 5, 3, 3, 'mag /2', ''),
    ('1-M20', 'Fire Drake', 'D', '2 mag', 6, 3, 3, 'mag /2, rng x2', 'CHG: C-DMG 1 mag'),
    ('2-M01', 'Dire Wolf', 'A', '3 mel', 7, 3, 2, 'mag x2', ''),
    ('2-M02', 'Giant Scorpion', 'A', '3 mel', 8, 4, 3, 'mel /2', 'CHG: C-DMG 1 mel'),
    ('2-M03', 'Sabre Cat', 'A', '3 mel', 7, 3, 3, 'rng x2', ''),
    ('2-M04', 'Giant Eagle', 'A', '2 mel, 1 rng', 6, 3, 2, 'mel /2, rng x2', ''),
    ('2-M05', 'Manticore', 'A', '2 mel, 1 rng', 9, 4, 4, 'mag /2', ''),
    ('2-M06', 'Harpy', 'H', '2 mel, 1 rng', 6, 3, 3, 'rng x2', 'CHG: C-EXH S-scr|R-trk'),
    ('2-M07', 'Troll', 'H', '3 mel', 10, 4, 3, 'mag x2', 'ATK: REGEN 1'),
    ('2-M08', 'Orc Chieftain', 'H', '3 mel', 8, 4, 4, 'mel /2', 'CHG: C-GOLD 1'),
    ('2-M09', 'Dark Elf Archer', 'H', '3 rng', 7, 3, 3, 'rng /2, mel x2', ''),
    ('2-M10', 'Minotaur', 'H', '4 mel', 9, 4, 3, '', ''),
    ('2-M11', 'Undead Ogre', 'U', '3 mel', 9, 4, 3, 'rng 0', 'ATK: ALL 1 cha'),
    ('2-M12', 'Wraith', 'U', '2 mag, 1 cha', 7, 4, 2, 'mel 0, rng /2', 'CHG: C-DRAIN 1'),
    ('2-M13', 'Mummy', 'U', '3 mel', 8, 3, 3, 'mel /2, mag x2', ''),
    ('2-M14', 'Vampire', 'U', '2 mel, 1 mag', 8, 4, 4, 'rng /2', 'ATK: REGEN 1'),
    ('2-M15', 'Skeleton Knight', 'U', '3 mel', 8, 3, 2, 'rng 0, mag x2', ''),
    ('2-M16', 'Green Dragon', 'D', '1 mel, 2 mag', 9, 4, 4, 'mag /2', ''),
    ('2-M17', 'Lava Drake', 'D', '3 mag', 8, 4, 3, 'mag 0, rng x2', ''),
    ('2-M18', 'Hydra', 'D', '3 mel', 10, 5, 4, '', 'ATK: REGEN 1'),
    ('2-M19', 'Basilisk', 'D', '2 mel, 1 mag', 8, 4, 3, 'mel /2', 'CHG: C-DMG 1 mag'),
    ('2-M20', 'Frost Drake', 'D', '2 rng, 1 mag', 8, 4, 3, 'mag x2, rng /2', ''),
    ('3-M01', 'Hellhound', 'A', '3 mel, 1 cha', 10, 5, 3, 'mag /2', ''),
    ('3-M02', 'Behemoth', 'A', '5 mel', 14, 6, 4, 'mel /2, rng /2', ''),
    ('3-M03', 'Nightmare', 'A', '3 mag, 1 cha', 11, 6, 4, 'rng x2', 'CHG: C-DRAIN 2'),
    ('3-M04', 'Demon Knight', 'H', '4 mel, 1 cha', 12, 6, 5, 'mel /2, cha 0', ''),
    ('3-M05', 'Succubus', 'H', '3 mag', 10, 5, 4, 'mag /2', 'CHG: C-GOLD 2'),
    ('3-M06', 'Fire Giant', 'H', '5 mel', 15, 7, 5, 'mag /2, rng x2', ''),
    ('3-M07', 'Cult Archpriest', 'H', '2 mag, 1 cha', 11, 6, 5, '', 'ATK: ALL 1 mag'),
    ('3-M08', 'Bone Fiend', 'U', '4 mag', 12, 6, 4, 'rng /2', 'ATK: ALL 1 cha'),
    ('3-M09', 'Lich', 'U', '3 mag, 1 cha', 14, 7, 6, 'mag /2, mel x2', 'CHG: C-EXH S-scr|S-fol'),
    ('3-M10', 'Death Knight', 'U', '5 mel', 13, 6, 4, 'rng 0', ''),
    ('3-M11', 'Banshee', 'U', '3 mag', 10, 5, 4, 'mel 0', 'ATK: ALL 1 mag'),
    ('3-M12', 'Shadow Reaper', 'U', '3 mel, 2 cha', 12, 7, 5, 'mel /2, rng /2', ''),
    ('3-M13', 'Spectre', 'U', '2 mag, 2 cha', 10, 6, 4, 'mel 0, rng 0, mag x2', ''),
    ('3-M14', 'Red Dragon', 'D', '1 mel, 4 mag', 16, 8, 6, 'mag /2, rng x2', ''),
    ('3-M15', 'Black Dragon', 'D', '5 mel', 15, 8, 6, 'rng /2', 'CHG: C-DMG 2 mag'),
    ('3-M16', 'Bone Dragon', 'D', '4 mel, 1 cha', 14, 7, 5, 'rng /2, mag x2', ''),
    ('3-M17', 'Chaos Wyrm', 'D', '3 cha', 13, 7, 5, 'mag /2, cha 0', ''),
    ('3-M18', 'Demon Drake', 'D', '4 mag', 12, 6, 4, 'mel x2', ''),
    ('3-M19', 'Shadow Dragon', 'D', '2 mel, 3 mag', 14, 7, 5, 'mel /2, mag /2', 'ATK: ALL 1 cha'),
    ('3-M20', 'Ancient Dragon', 'D', '6 mel', 16, 8, 6, 'mel /2, rng /2, mag /2', 'CHG: C-DMG 2 cha'),
)
# fmt: on


# -- parsing the effect vocabulary -----------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One effect line. ``op`` is a primitive: DMG, PER, FOR, CONV, BLOCK, BLOCKALL, HEAL, LIFE, MANA,
    REFRESH, RESTORE (equipment) or ALL, REGEN, C-DMG, C-EXH, C-DRAIN, C-GOLD (monsters).
    ``cond``: alternatives, each a tuple of (skill, level) that must all hold; () = always.
    ``n``: amount; ``t``: damage type index (ANY for "any" / "all"); ``src``: CONV source type;
    ``skill``: PER skill; ``cost``: FOR mana cost; ``max1``: FOR once per attack; ``kinds``: C-EXH kinds."""

    op: str
    n: int = 0
    t: int = 0
    cond: tuple = ()
    src: int = 0
    skill: int = 0
    cost: int = 0
    max1: bool = False
    kinds: tuple = ()


def parse_requirement(text: str) -> tuple:
    """``ME2`` / ``RA1|MA1`` (either) / ``MA1&RA1&AR1`` (all) -> alternatives of (skill, level) tuples."""
    alternatives = []
    for alt in text.split("|"):
        alternatives.append(tuple((SKILLS.index(r[:2]), int(r[2:])) for r in alt.split("&")))
    return tuple(alternatives)


def _dtype(word: str) -> int:
    return ANY if word in ("any", "all") else DAMAGE.index(word)


def parse_line(text: str) -> Line:
    text = text.strip()
    cond: tuple = ()
    if text.startswith("IF "):
        head, text = text[3:].split(":", 1)
        cond = parse_requirement(head.strip())
        text = text.strip()
    for prefix in ("ATK: ", "CHG: "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    words = text.split()
    op = words[0]
    if op in ("PER", "FOR"):
        head, rest = text.split(":", 1)
        inner = parse_line(rest)
        if inner.op != "DMG":
            raise ValueError(f"content: {text!r}: PER and FOR lines carry a DMG effect")
        arg = head.split()[1]
        if op == "PER":
            return Line("PER", inner.n, inner.t, cond, skill=SKILLS.index(arg))
        return Line("FOR", inner.n, inner.t, cond, cost=int(arg), max1=rest.strip().endswith("[max1]"))
    if op == "DMG" or op == "BLOCK" or op == "ALL" or op == "C-DMG":
        return Line(op, int(words[1]), _dtype(words[2]), cond)
    if op == "CONV":
        src, dst = words[1].split(">")
        return Line(op, 0, _dtype(dst), cond, src=_dtype(src))
    if op == "BLOCKALL":
        return Line(op, 0, _dtype(words[1]), cond)
    if op in ("HEAL", "LIFE", "MANA", "REFRESH", "RESTORE", "REGEN", "C-DRAIN", "C-GOLD"):
        return Line(op, int(words[1].lstrip("+")), 0, cond)
    if op == "C-EXH":
        return Line(op, 0, 0, cond, kinds=tuple(KINDS.index(k) for k in words[1].split("|")))
    raise ValueError(f"content: unknown effect primitive in {text!r}")


def parse_lines(text: str) -> tuple[Line, ...]:
    return tuple(parse_line(p) for p in text.split(";") if p.strip())


# -- the derived tables the rules use -----------------------------------------------------------------
BOOST_OPS = frozenset(("DMG", "PER", "FOR", "CONV"))
BLOCK_OPS = frozenset(("BLOCK", "BLOCKALL"))


@dataclass(frozen=True)
class Equipment:
    id: int
    code: str
    name: str
    level: int  # 0..2
    index: int  # 0..29 within the level
    kind: int  # index into KINDS
    cost: int
    discounts: tuple  # (requirement alternatives, amount)
    skill: int
    players: int
    lines: tuple[Line, ...]
    use: str  # weapon, passive, helmet, boost, defence, mana, heal, static

    @property
    def location(self) -> str:
        return KINDS[self.kind][0]  # W, A, S or R

    def total(self, op: str) -> int:
        return sum(line.n for line in self.lines if line.op == op)


@dataclass(frozen=True)
class Monster:
    id: int
    code: str
    name: str
    level: int
    index: int  # 0..19 within the level
    type: int  # index into MONSTER_TYPES
    attack: tuple[int, int, int, int]  # per damage type
    life: int
    xp: int
    gold: int
    modifiers: tuple[str, str, str, str]  # per damage type: "", "x2", "/2" or "0"
    effects: tuple[Line, ...]


def _use_class(kind: str, lines: tuple[Line, ...]) -> str:
    ops = {line.op for line in lines}
    if kind.startswith("W"):
        return "weapon"
    if kind in ("A-brp", "A-shd"):
        return "passive"
    if kind == "A-hlm":
        return "helmet"
    if kind == "R-hea":
        return "heal"
    if ops & BOOST_OPS:
        return "boost"
    if ops & BLOCK_OPS:
        return "defence"
    if "RESTORE" in ops:
        return "mana"
    return "static"


def _equipment(row) -> Equipment:
    code, name, kind, cost, discounts, skill, players, effects = row
    level, nn = int(code[0]) - 1, int(code[2:])
    boxes = []
    for box in filter(None, (b.strip() for b in discounts.split(","))):
        req, amount = box.split(":")
        boxes.append((parse_requirement(req), -int(amount)))
    lines = parse_lines(effects)
    e = Equipment(
        level * 50 + nn - 1,
        code,
        name,
        level,
        nn - 1,
        KINDS.index(kind),
        cost,
        tuple(boxes),
        SKILLS.index(skill),
        players,
        lines,
        _use_class(kind, lines),
    )
    ops = [line.op for line in lines]
    if ops.count("FOR") > 1 or ("FOR" in ops and e.use not in ("weapon", "boost")):
        raise ValueError(f"content: {code} {name}: FOR lines only on weapons and boost cards, one per card")
    if "RESTORE" in ops and "REFRESH" in ops:
        raise ValueError(f"content: {code} {name}: a RESTORE card cannot have REFRESH")
    return e


def _monster(row) -> Monster:
    code, name, mtype, attack, life, xp, gold, modifiers, effects = row
    level, nn = int(code[0]) - 1, int(code[3:])
    atk = [0, 0, 0, 0]
    for part in attack.split(","):
        n, t = part.split()
        atk[DAMAGE.index(t)] += int(n)
    mods = ["", "", "", ""]
    for part in filter(None, (m.strip() for m in modifiers.split(","))):
        t, m = part.split()
        mods[DAMAGE.index(t)] = m
    return Monster(
        level * 50 + 29 + nn,
        code,
        name,
        level,
        nn - 1,
        MONSTER_TYPES.index(mtype),
        tuple(atk),
        life,
        xp,
        gold,
        tuple(mods),
        parse_lines(effects),
    )


EQUIPMENT = tuple(_equipment(r) for r in EQUIPMENT_ROWS)
MONSTERS = tuple(_monster(r) for r in MONSTER_ROWS)
NUM_CARDS = 150
CARDS: list = [None] * NUM_CARDS
for _c in EQUIPMENT + MONSTERS:
    CARDS[_c.id] = _c
CARDS = tuple(CARDS)
assert all(c is not None for c in CARDS)
LEVEL_EQUIPMENT = tuple(tuple(e.id for e in EQUIPMENT if e.level == lv) for lv in range(NUM_LEVELS))
LEVEL_MONSTERS = tuple(tuple(m.id for m in MONSTERS if m.level == lv) for lv in range(NUM_LEVELS))
assert all(len(x) == 30 for x in LEVEL_EQUIPMENT) and all(len(x) == 20 for x in LEVEL_MONSTERS)


def is_monster(card_id: int) -> bool:
    return isinstance(CARDS[card_id], Monster)
