"""Last Bastion doc tables: the generated blocks of docs/last_bastion.md. ``BLOCKS[name]()`` returns
the Markdown between ``<!-- BEGIN GENERATED: name -->`` and ``<!-- END GENERATED: name -->``.

The document also has ``actions``, ``observation`` and ``options`` blocks, the tables every herozoo
env has (docs/generate.py ``env_blocks``); they are in ``ENV_BLOCKS`` here for a caller that does not
use ``env_blocks``.
"""

from __future__ import annotations

from collections.abc import Callable

from envs.core.markdown import md_table
from envs.last_bastion import content as C


def effect(e) -> str:
    if e is None:
        return "-"
    if e.prim in C.ONGOING:
        return e.prim
    if e.prim == "GAIN_EQUIP":
        return f"GAIN_EQUIP({e.arg if e.arg == C.ANY else C.COLORS[e.arg]})"
    if e.prim in ("LOSE_LIFE", "GAIN_LIFE", "DRAW_HORDE", "DISCARD_EQUIP", "LOSE_CTA", "GAIN_CTA"):
        return f"{e.prim}({e.arg})"
    return e.prim


def central(e) -> str:
    if e is None:
        return "-"
    return effect(e) if e.prim in C.ONGOING else "REC " + effect(e)


def cards_table(warlords: bool) -> str:
    rows = [
        (c.code, c.name, C.COLORS[c.color], c.resistance, effect(c.entrance), central(c.central), effect(c.exit))
        for c in C.CARDS
        if c.warlord == warlords
    ]
    return md_table(("Id", "Name", "Colour", "Res", "Entrance", "Central", "Exit"), rows)


def primitives() -> str:
    return md_table(
        ("#", "Primitive", "Effect"), [(i + 1, f"`{p}`", C.PRIMITIVE_DOC[p]) for i, p in enumerate(C.PRIMITIVES)]
    )


def tiles() -> str:
    return md_table(
        ("Tile", "Element", "Action", "Warlords"),
        [
            (t.name, t.element or "-", t.action, "immune" if i in C.WARLORD_IMMUNE_TILES else "affected")
            for i, t in enumerate(C.TILES)
        ],
    )


def heroes() -> str:
    return md_table(("Hero", "Power", "Effect"), [(h.name, h.power, h.doc) for h in C.HEROES])


def boards() -> str:
    return md_table(
        ("Board", "Colour", "Full-board effect", "Effect"),
        [(i, C.COLORS[i], name, doc) for i, (name, doc) in enumerate(C.BOARDS)],
    )


def deck() -> str:
    rows = []
    for n in (4, 3, 2, 1):
        cells = []
        for d in C.DIFFICULTIES:
            m = C.monster_count(n, d)
            cells.append(f"{m} ({m - 8 * C.WARLORD_COUNT[d]})")
        rows.append((n, *cells, C.START_LIFE[n], C.START_CTA[n]))
    return (
        md_table(
            ("Players", *(f"{d.capitalize()} M (T)" for d in C.DIFFICULTIES), "Start Life", "Start Call to Arms"), rows
        )
        + "\n\nWarlords W: "
        + ", ".join(f"{d} {w}" for d, w in C.WARLORD_COUNT.items())
        + "."
    )


def geometry() -> str:
    return md_table(
        ("Space", *(f"s{s}" for s in range(12))),
        [
            ("Board/slot", *(f"{s // 3}/{s % 3}" for s in range(12))),
            ("Faces tile", *(f"t{C.SPACE_FACES[s]}" for s in range(12))),
        ],
    )


def _fields(fields) -> Callable[[], str]:
    def table() -> str:
        rows, at = [], 0
        for name, size, doc in fields:
            rows.append((at, size, f"`{name}`", doc))
            at += size
        return md_table(("Offset", "Size", "Field", "Content"), rows) + f"\n\nRow size: {at}."

    return table


def _observation_fields() -> dict[str, Callable[[], str]]:
    from envs.last_bastion.observation import BOARD_FIELDS, HERO_FIELDS, SPACE_FIELDS, TILE_FIELDS

    return {
        "space_fields": _fields(SPACE_FIELDS),
        "tile_fields": _fields(TILE_FIELDS),
        "hero_fields": _fields(HERO_FIELDS),
        "board_fields": _fields(BOARD_FIELDS),
    }


BLOCKS: dict[str, Callable[[], str]] = {
    "geometry": geometry,
    "primitives": primitives,
    "tiles": tiles,
    "heroes": heroes,
    "boards": boards,
    "deck": deck,
    "monsters": lambda: cards_table(False),
    "warlords": lambda: cards_table(True),
    **_observation_fields(),
}


def _actions() -> str:
    from envs.last_bastion.actions import LAYOUT

    return LAYOUT.markdown_table()


def _observation() -> str:
    from envs.last_bastion.observation import OBSERVATION_LAYOUT

    return OBSERVATION_LAYOUT.markdown_table()


def _options() -> str:
    from envs.core.options import DRIVER_OPTIONS, options_markdown_table
    from envs.last_bastion.game import OPTION_SPEC

    return options_markdown_table(tuple(OPTION_SPEC) + tuple(DRIVER_OPTIONS))


ENV_BLOCKS: dict[str, Callable[[], str]] = {"actions": _actions, "observation": _observation, "options": _options}


def fill(text: str, blocks: dict[str, Callable[[], str]] | None = None) -> str:
    """``text`` with every known block's body rewritten (used to write docs/last_bastion.md)."""
    import re

    blocks = {**BLOCKS, **ENV_BLOCKS} if blocks is None else blocks

    def sub(m):
        name = m.group(1)
        if name not in blocks:
            return m.group(0)
        return f"<!-- BEGIN GENERATED: {name} -->\n\n{blocks[name]().strip()}\n\n<!-- END GENERATED: {name} -->"

    return re.sub(r"<!-- BEGIN GENERATED: ([A-Za-z0-9_.-]+) -->.*?<!-- END GENERATED: \1 -->", sub, text, flags=re.S)
