"""Generated blocks of docs/lost_legends.md: ``BLOCKS = {name: function returning Markdown}``.

The document carries ``<!-- BEGIN GENERATED: name -->`` / ``<!-- END GENERATED: name -->`` markers
for every name here; ``docs/generate.py`` rewrites the text between them from these functions.
"""

from __future__ import annotations

from collections.abc import Callable

from envs.core.markdown import md_table
from envs.lost_legends.content import (
    DAMAGE,
    EQUIPMENT_ROWS,
    GOLD_BONUS,
    HEROES,
    LEGEND_PER_TROPHY,
    LEVEL_NAMES,
    MONSTER_ROWS,
    SKILL_GOLD,
    TROPHY_STACKS,
    XP_POINTS,
    XP_THRESHOLDS,
)


def _table(headers, rows) -> str:
    return md_table(headers, rows, empty="-")


def heroes() -> str:
    return _table(
        ("Hero", "Initial skills", "Gold", "Life", "Mana"),
        ((name, ", ".join(skills), gold, life, mana) for name, skills, gold, life, mana in HEROES),
    )


def trophy_stacks() -> str:
    words = {
        "2": "own >= 2 trophies of type {t}",
        "3x": "own >= 3 trophies of one single type",
        "4": "own >= 1 trophy of each type",
    }
    return _table(
        ("Stack", "Condition", "Token values (top to bottom)"),
        ((name, words[cond].format(t=t), ", ".join(map(str, values))) for name, cond, t, values in TROPHY_STACKS),
    )


def key_numbers() -> str:
    rows = [
        ("Gold for placing a card as a skill (Ruins, Caves, Demon Fortress)", ", ".join(map(str, SKILL_GOLD))),
        ("Legend markers per challenge trophy at level end", ", ".join(map(str, LEGEND_PER_TROPHY))),
        ("Experience thresholds of the hero levels", ", ".join(map(str, XP_THRESHOLDS))),
        ("Legend points for experience (at least)", ", ".join(f"{lo}: {pts}" for lo, pts in reversed(XP_POINTS))),
        ("Gold bonus (most, second-most gold)", ", ".join(map(str, GOLD_BONUS))),
        ("Damage types", ", ".join(DAMAGE)),
    ]
    return _table(("Quantity", "Value"), rows)


def _equipment(level: int) -> Callable[[], str]:
    def block() -> str:
        rows = [r for r in EQUIPMENT_ROWS if r[0].startswith(f"{level}-")]
        return _table(
            ("#", "Name", "Kind", "Cost", "Discounts", "Skill", "P", "Effects"),
            ((code, name, kind, cost, disc, skill, p, eff) for code, name, kind, cost, disc, skill, p, eff in rows),
        )

    block.__doc__ = f"Equipment of level {level} ({LEVEL_NAMES[level - 1]})."
    return block


def _monsters(level: int) -> Callable[[], str]:
    def block() -> str:
        rows = [r for r in MONSTER_ROWS if r[0].startswith(f"{level}-")]
        return _table(
            ("#", "Name", "Type", "Attack", "Life", "XP", "Gold", "Modifiers", "Effects"),
            rows,
        )

    block.__doc__ = f"Monsters of level {level} ({LEVEL_NAMES[level - 1]})."
    return block


def actions() -> str:
    from envs.lost_legends.actions import LAYOUT

    return LAYOUT.markdown_table()


def observation() -> str:
    from envs.lost_legends.observation import OBSERVATION_LAYOUT

    return OBSERVATION_LAYOUT.markdown_table()


def seat_fields() -> str:
    from envs.lost_legends.observation import SEAT_FIELDS

    rows, at = [], 0
    for name, size, doc in SEAT_FIELDS:
        rows.append((at, size, f"`{name}`", doc))
        at += size
    return _table(("Offset", "Size", "Field", "Content"), rows) + f"\n\nRow size: {at}."


def options() -> str:
    from envs.core.options import DRIVER_OPTIONS, options_markdown_table
    from envs.lost_legends.game import OPTION_SPEC

    return options_markdown_table(tuple(OPTION_SPEC) + tuple(DRIVER_OPTIONS))


BLOCKS: dict[str, Callable[[], str]] = {
    "key_numbers": key_numbers,
    "heroes": heroes,
    "trophy_stacks": trophy_stacks,
    "equipment_1": _equipment(1),
    "equipment_2": _equipment(2),
    "equipment_3": _equipment(3),
    "monsters_1": _monsters(1),
    "monsters_2": _monsters(2),
    "monsters_3": _monsters(3),
    "actions": actions,
    "observation": observation,
    "seat_fields": seat_fields,
    "options": options,
}
