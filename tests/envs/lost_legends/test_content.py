"""The content catalogue (docs/lost_legends.md section 4): counts, ids, use classes, and that
every effect line parses into the closed vocabulary of primitives."""

from __future__ import annotations

from collections import Counter

import pytest

from envs.lost_legends.content import (
    EQUIPMENT,
    KINDS,
    LEVEL_EQUIPMENT,
    MONSTERS,
    parse_line,
)

PRIMITIVES = {
    "DMG",
    "PER",
    "FOR",
    "CONV",
    "BLOCK",
    "BLOCKALL",
    "HEAL",
    "LIFE",
    "MANA",
    "REFRESH",
    "RESTORE",
    "ALL",
    "REGEN",
    "C-DMG",
    "C-EXH",
    "C-DRAIN",
    "C-GOLD",
}


@pytest.mark.parametrize("level", [0, 1, 2])
def test_each_level_has_the_documented_mix(level):
    cards = [e for e in EQUIPMENT if e.level == level]
    assert len(cards) == 30 and [e.index for e in cards] == list(range(30))
    kinds = Counter(KINDS[e.kind] for e in cards)
    assert [kinds[k] for k in ("W-mel", "W-rng", "W-mag", "A-brp", "A-shd", "A-hlm")] == [3, 3, 3, 3, 2, 2]
    assert kinds["S-scr"] == 4 and kinds["S-fol"] == 3 and kinds["R-trk"] + kinds["R-hea"] == 7
    assert Counter(e.players for e in cards) == {3: 18, 4: 6, 5: 6}
    assert all(7 <= v <= 8 for v in Counter(e.skill for e in cards).values())
    monsters = [m for m in MONSTERS if m.level == level]
    assert len(monsters) == 20 and [m.index for m in monsters] == list(range(20))


def test_monster_types_over_the_game_and_ids():
    assert Counter(m.type for m in MONSTERS) == {0: 15, 1: 15, 2: 15, 3: 15}
    ids = [c.id for c in EQUIPMENT + MONSTERS]
    assert sorted(ids) == list(range(150))
    assert LEVEL_EQUIPMENT[1][0] == 50 and MONSTERS[0].id == 30


def test_every_line_is_a_primitive_and_every_card_has_one_use_class():
    for e in EQUIPMENT:
        assert {line.op for line in e.lines} <= PRIMITIVES
        assert e.use in ("weapon", "passive", "helmet", "boost", "defence", "mana", "heal", "static")
    for m in MONSTERS:
        assert {line.op for line in m.effects} <= PRIMITIVES
    line = parse_line("IF MA1&RA1&AR1: FOR 1: DMG 1 mag")
    assert line.op == "FOR" and line.cost == 1 and line.max1 is False and line.cond == (((2, 1), (1, 1), (3, 1)),)
    assert parse_line("FOR 2: DMG 2 cha [max1]").max1 is True
    with pytest.raises(ValueError, match="unknown effect"):
        parse_line("TELEPORT 3")
