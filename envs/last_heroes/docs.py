"""Last Heroes doc tables: the generated blocks of docs/last_heroes.md. ``BLOCKS[name]()`` returns
one block's Markdown; docs/generate.py writes them between the document's markers (``python
docs/generate.py last_heroes``). The env's own tables (actions, observation, options, infos) come
from envs.core through docs/generate.py, as for every game."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from envs.core.markdown import md_table


def fields_table(fields: Iterable[tuple[str, int, str]], base: int = 0) -> str:
    """Offsets, sizes and meanings of a ``(name, size, doc)`` field list (one observation row)."""
    rows, at = [], base
    for name, size, doc in fields:
        rows.append((at, size, f"`{name}`", doc))
        at += size
    return md_table(("Offset", "Size", "Field", "Content"), rows) + f"\n\nRow size: {at - base}."


def _powers_text(powers: Sequence[int]) -> str:
    return ", ".join(f"P{p}" for p in powers) if powers else "none"


def _lh_game(n: int):
    from envs.last_heroes.game import LastHeroesGame

    return LastHeroesGame(num_players=n)


def _lh_player_counts() -> str:
    from envs.last_heroes.content import DEFAULT, MAX_PLAYERS, NUM_POWERS

    per_level = [sum(1 for m in DEFAULT.monsters if m.level == lv) for lv in (1, 2, 3)]
    rows = []
    from envs.last_heroes.game import LastHeroesGame

    for n in range(LastHeroesGame.min_players, MAX_PLAYERS + 1):
        game = _lh_game(n)
        types = ", ".join(DEFAULT.type_names[:n])
        cards = sum(DEFAULT.kind_copies[k] for k in game.kinds_in_play)
        left = " / ".join(str(c - n) for c in per_level)
        rows.append((n, types, cards, n, 3 * n, left, f"{n} of {NUM_POWERS}", game.max_game_length()))
    return md_table(
        (
            "Players n",
            "Weapon types in play",
            "Weapon cards (all dealt)",
            "Columns",
            "Monsters face up",
            "Left in decks L1 / L2 / L3",
            "Artefacts (Power tiles)",
            "Max agent steps",
        ),
        rows,
    )


def _lh_key_numbers() -> str:
    from envs.last_heroes import content as C
    from envs.last_heroes.actions import LAYOUT
    from envs.last_heroes.observation import OBSERVATION_LAYOUT

    rows = [
        ("Weapon cards dealt to each player", C.CARDS_DEALT),
        ("Magazine picks per player at setup", C.MAGAZINE_PICKS),
        ("Rounds (cards left in hand after setup)", C.ROUNDS),
        ("Joker cap", C.JOKER_CAP),
        ("VP per artefact (case A only)", C.ARTEFACT_VP),
        ("Weapon kinds (type x power)", C.NUM_KINDS),
        ("Artefact powers", C.NUM_POWERS),
        ("Monster cards", len(C.DEFAULT.monsters)),
        ("Flat actions (same for every n)", LAYOUT.num_actions),
        ("Observation floats (same for every n)", OBSERVATION_LAYOUT.size),
    ]
    return md_table(("Quantity", "Value"), rows)


def _lh_weapons() -> str:
    from envs.last_heroes.content import DEFAULT, MAX_PLAYERS, NUM_KINDS
    from envs.last_heroes.game import LastHeroesGame

    MIN_PLAYERS = LastHeroesGame.min_players
    c = DEFAULT
    rows = []
    for k in range(NUM_KINDS):
        t = c.kind_type[k]
        first = max(t + 1, MIN_PLAYERS)
        in_play = f"n = {first}" if first == MAX_PLAYERS else f"n = {first}-{MAX_PLAYERS}"
        rows.append(
            (k, f"{t} {c.type_names[t]}", c.weapon_names[t], c.kind_power[k], c.kind_ammo[k], c.kind_copies[k], in_play)
        )
    total = sum(c.kind_copies)
    per_type = {t: 0 for t in range(len(c.type_names))}
    ammo = {t: 0 for t in range(len(c.type_names))}
    for k in range(NUM_KINDS):
        per_type[c.kind_type[k]] += c.kind_copies[k]
        ammo[c.kind_type[k]] += c.kind_copies[k] * c.kind_ammo[k]
    table = md_table(("Kind", "Type (Ammo)", "Weapon", "Power", "Ammo (held / to load)", "Copies", "In play at"), rows)
    sizes = sorted(set(per_type.values()))
    ammos = sorted(set(ammo.values()))
    return (
        table
        + f"\n\n{total} cards in all: {', '.join(map(str, sizes))} per type,"
        + f" holding {', '.join(map(str, ammos))} Ammo per type in total."
    )


def _lh_monsters() -> str:
    from envs.last_heroes.content import DEFAULT

    rows = [
        (m.id, m.name, m.level, _powers_text(m.impacts), _powers_text(m.dark), _powers_text(m.bright), m.vp)
        for m in DEFAULT.monsters
    ]
    return md_table(
        ("Id", "Monster", "Level", "Impacts (all)", "Dark zone", "Bright (needed under a breach)", "VP"), rows
    )


def _lh_monster_summary() -> str:
    from envs.last_heroes.content import DEFAULT

    rows = []
    for lv in (1, 2, 3):
        ms = [m for m in DEFAULT.monsters if m.level == lv]
        full = [sum(1 for m in ms for p in m.impacts if p == q) for q in (1, 2, 3)]
        bright = [sum(1 for m in ms for p in m.bright if p == q) for q in (1, 2, 3)]
        impacts = sorted({len(m.impacts) for m in ms})
        darks = sorted({len(m.dark) for m in ms})
        vps = [m.vp for m in ms]
        rows.append(
            (
                lv,
                len(ms),
                f"{ms[0].id}-{ms[-1].id}",
                "/".join(map(str, impacts)),
                "/".join(map(str, darks)),
                " / ".join(map(str, full)),
                " / ".join(map(str, bright)),
                f"{min(vps)}-{max(vps)}",
                sum(vps),
            )
        )
    table = md_table(
        (
            "Level",
            "Cards",
            "Ids",
            "Impacts per card",
            "Dark per card",
            "Impact demand P1 / P2 / P3",
            "Bright demand P1 / P2 / P3",
            "VP range",
            "VP total",
        ),
        rows,
    )
    follows = sum(1 for m in DEFAULT.monsters if m.vp == math.ceil((len(m.impacts) + sum(m.impacts)) / 2))
    total_vp = sum(m.vp for m in DEFAULT.monsters)
    return (
        table
        + f"\n\n{len(DEFAULT.monsters)} monsters, {total_vp} VP in all. The VP rule"
        + " `VP = ceil((number of impacts + sum of their powers) / 2)`"
        + f" holds for {follows} of the {len(DEFAULT.monsters)} cards."
    )


def _lh_powers() -> str:
    from envs.last_heroes.content import POWERS

    rows = [(i, f"**{name}**", text, f"`{effect}`") for i, (name, effect, text) in enumerate(POWERS)]
    return md_table(("Power id", "Tile", "Effect (tile text)", "Engine effect"), rows)


def _lh_phases() -> str:
    from envs.last_heroes.constants import PHASES

    return "Phase one-hot order: " + ", ".join(f"{i} `{p}`" for i, p in enumerate(PHASES)) + "."


def _lh_seat_fields() -> str:
    from envs.last_heroes.observation import OBSERVATION_LAYOUT, SEAT_FIELDS, SEAT_SIZE

    start = OBSERVATION_LAYOUT["seats"].offset
    return fields_table(SEAT_FIELDS) + f"\n\nThe row of relative seat r starts at float {start} + {SEAT_SIZE} r."


def _lh_slot_fields() -> str:
    from envs.last_heroes.content import NUM_LEVELS
    from envs.last_heroes.observation import COLUMN_HEAD, COLUMN_SIZE, OBSERVATION_LAYOUT, SLOT_FIELDS, SLOT_SIZE

    starts = ", ".join(f"L{lv + 1} at {COLUMN_HEAD + lv * SLOT_SIZE}" for lv in range(NUM_LEVELS))
    return (
        fields_table(SLOT_FIELDS)
        + f"\n\nA column row is {COLUMN_SIZE} floats: a head of {COLUMN_HEAD} (column in play, artefact on its"
        + f" pedestal, that artefact's power one-hot), then {NUM_LEVELS} slots of {SLOT_SIZE} ({starts})."
        + f" Column c starts at float {OBSERVATION_LAYOUT['columns'].offset} + {COLUMN_SIZE} c."
    )


BLOCKS: dict[str, Callable[[], str]] = {
    "player_counts": _lh_player_counts,
    "key_numbers": _lh_key_numbers,
    "weapons": _lh_weapons,
    "monsters": _lh_monsters,
    "monster_summary": _lh_monster_summary,
    "powers": _lh_powers,
    "phases": _lh_phases,
    "seat_fields": _lh_seat_fields,
    "slot_fields": _lh_slot_fields,
}
