#!/usr/bin/env python
"""Rewrite the code-derived parts of the game documents ``docs/<game>.md``.

A game document is hand-written Markdown with generated blocks in it::

    <!-- BEGIN GENERATED: monsters -->
    ...this part is rewritten from the code...
    <!-- END GENERATED: monsters -->

Each game registers the functions that produce its blocks (:func:`block`, or :func:`env_blocks`
for the ``actions``, ``observation`` and ``options`` tables every herozoo env has). Running

    python docs/generate.py               # rewrite every registered document
    python docs/generate.py --check       # exit 1 and name the stale documents, write nothing
    python docs/generate.py last_heroes   # only the named games

replaces the text between each pair of markers and writes the file atomically (temporary file
in the same folder, then ``os.replace``). A marker naming an unregistered block, a registered
block missing from the document, and unbalanced markers are errors, so the document and the
registry cannot drift apart silently. ``tests/test_docs.py`` runs the check.

To document a new game: write ``docs/<game>.md`` with markers, then register its blocks below
(one section per game), e.g. ``env_blocks("my_game", "my_game_v0")`` plus ``@block("my_game", "cards")``.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent
ROOT = DOCS_DIR.parent
if str(ROOT) not in sys.path:  # running ``python docs/generate.py`` without an installed package
    sys.path.append(str(ROOT))

from envs.core.markdown import md_table  # noqa: E402
from training.atomic import atomic_write_text  # noqa: E402

BEGIN = "<!-- BEGIN GENERATED: {} -->"
END = "<!-- END GENERATED: {} -->"
_MARKER = re.compile(r"^<!-- (BEGIN|END) GENERATED: ([A-Za-z0-9_.-]+) -->[ \t]*$", re.MULTILINE)

BlockFn = Callable[[], str]
# game name (the document is docs/<game>.md) -> block name -> function returning Markdown
REGISTRY: dict[str, dict[str, BlockFn]] = {}


class DocError(ValueError):
    """A document whose markers do not match the registry."""


# -- registry -------------------------------------------------------------------------------------
def block(game: str, name: str) -> Callable[[BlockFn], BlockFn]:
    """Decorator: ``fn()`` produces the block ``name`` of ``docs/<game>.md``."""

    def register(fn: BlockFn) -> BlockFn:
        blocks = REGISTRY.setdefault(game, {})
        if name in blocks:
            raise ValueError(f"block {name!r} of {game!r} is registered twice")
        blocks[name] = fn
        return fn

    return register


def env_blocks(game: str, env_id: str) -> None:
    """Register the ``actions``, ``observation`` and ``options`` tables of a registered env id."""

    def game_instance():
        import envs

        # The observation layout may be bound when the first game is built, so build one.
        return envs.game_class(env_id)()

    def actions() -> str:
        return game_instance().action_layout.markdown_table()

    def observation() -> str:
        return game_instance().observation_layout.markdown_table()

    def options() -> str:
        from envs.core.aec import DRIVER_OPTIONS
        from envs.core.options import options_markdown_table

        return options_markdown_table(tuple(game_instance().option_spec) + tuple(DRIVER_OPTIONS))

    block(game, "actions")(actions)
    block(game, "observation")(observation)
    block(game, "options")(options)


def doc_path(game: str) -> Path:
    return DOCS_DIR / f"{game}.md"


# -- Markdown helpers ------------------------------------------------------------------------------
def fields_table(fields: Iterable[tuple[str, int, str]], base: int = 0) -> str:
    """Offsets, sizes and meanings of a ``(name, size, doc)`` field list (one observation row)."""
    rows, at = [], base
    for name, size, doc in fields:
        rows.append((at, size, f"`{name}`", doc))
        at += size
    return md_table(("Offset", "Size", "Field", "Content"), rows) + f"\n\nRow size: {at - base}."


# -- rendering -------------------------------------------------------------------------------------
def render(text: str, blocks: dict[str, BlockFn], source: str = "document") -> str:
    """``text`` with every generated block rewritten. Raises :class:`DocError` on bad markers."""
    out: list[str] = []
    pos = 0
    open_name: str | None = None
    open_line = 0
    seen: set[str] = set()
    for m in _MARKER.finditer(text):
        kind, name = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if kind == "BEGIN":
            if open_name is not None:
                raise DocError(
                    f"{source}:{line}: BEGIN {name!r} inside the open block {open_name!r} (line {open_line})"
                )
            if name not in blocks:
                raise DocError(
                    f"{source}:{line}: no generator for block {name!r}; registered blocks are {sorted(blocks)}"
                )
            open_name, open_line = name, line
            body = blocks[name]().strip("\n")
            # Text up to and including the BEGIN marker, then the fresh body between blank lines (so
            # Markdown renderers see the table as its own block); the old body is skipped.
            out.append(text[pos : m.end()])
            out.append("\n\n" + body + "\n\n" if body else "\n")
            seen.add(name)
        else:
            if open_name is None:
                raise DocError(f"{source}:{line}: END {name!r} without a BEGIN")
            if name != open_name:
                raise DocError(f"{source}:{line}: END {name!r} closes the block {open_name!r} (line {open_line})")
            open_name = None
            pos = m.start()
    if open_name is not None:
        raise DocError(f"{source}:{open_line}: block {open_name!r} has no END marker")
    missing = sorted(set(blocks) - seen)
    if missing:
        raise DocError(
            f"{source}: registered block(s) {missing} do not appear; add "
            + ", ".join(f"{BEGIN.format(b)} ... {END.format(b)}" for b in missing)
        )
    out.append(text[pos:])
    return "".join(out)


def regenerate(game: str) -> tuple[Path, str, str]:
    """``(path, current text, regenerated text)`` of ``docs/<game>.md``."""
    if game not in REGISTRY:
        raise DocError(f"unknown game {game!r}; documented games are {sorted(REGISTRY)}")
    path = doc_path(game)
    if not path.is_file():
        raise DocError(f"{path} does not exist; write it with the markers of the blocks {sorted(REGISTRY[game])}")
    current = path.read_text(encoding="utf-8")
    return path, current, render(current, REGISTRY[game], source=str(path.relative_to(ROOT)))


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``."""
    atomic_write_text(path, text)


def stale(games: Iterable[str] | None = None) -> list[str]:
    """Games whose document differs from its regeneration (nothing is written)."""
    out = []
    for g in games or sorted(REGISTRY):
        _path, current, fresh = regenerate(g)
        if current != fresh:
            out.append(g)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite the generated blocks of docs/<game>.md.")
    parser.add_argument("games", nargs="*", help=f"games to process (default: all of {sorted(REGISTRY)})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a document is stale")
    args = parser.parse_args(argv)
    games = args.games or sorted(REGISTRY)
    try:
        results = [regenerate(g) for g in games]
    except DocError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    outdated = [path for path, old, new in results if old != new]
    if args.check:
        for path in outdated:
            print(f"{path.relative_to(ROOT)} is stale: run python docs/generate.py", file=sys.stderr)
        return 1 if outdated else 0
    for path, old, new in results:
        if old != new:
            write_atomic(path, new)
            print(f"rewrote {path.relative_to(ROOT)}")
        else:
            print(f"{path.relative_to(ROOT)} is up to date")
    return 0


def module_blocks(game: str, env_id: str) -> None:
    """The env tables (:func:`env_blocks`) and every other block of the game's ``envs.<game>.docs.BLOCKS``."""
    import importlib

    env_blocks(game, env_id)
    for name, fn in importlib.import_module(f"envs.{game}.docs").BLOCKS.items():
        if name not in REGISTRY[game]:
            block(game, name)(fn)


# ==================================================================================================
# Last Bastion, Heroes and Monsters, Lost Legends: their blocks live beside their content (envs/<game>/docs.py)
# ==================================================================================================
module_blocks("last_bastion", "last_bastion_v0")
module_blocks("heroes_and_monsters", "heroes_and_monsters_v0")
module_blocks("lost_legends", "lost_legends_v0")


# ==================================================================================================
# Last Heroes (docs/last_heroes.md)
# ==================================================================================================
LH = "last_heroes"
env_blocks(LH, "last_heroes_v0")


def _powers_text(powers: Sequence[int]) -> str:
    return ", ".join(f"P{p}" for p in powers) if powers else "none"


def _lh_game(n: int):
    from envs.last_heroes.game import LastHeroesGame

    return LastHeroesGame(num_players=n)


@block(LH, "player_counts")
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


@block(LH, "key_numbers")
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


@block(LH, "weapons")
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


@block(LH, "monsters")
def _lh_monsters() -> str:
    from envs.last_heroes.content import DEFAULT

    rows = [
        (m.id, m.name, m.level, _powers_text(m.impacts), _powers_text(m.dark), _powers_text(m.bright), m.vp)
        for m in DEFAULT.monsters
    ]
    return md_table(
        ("Id", "Monster", "Level", "Impacts (all)", "Dark zone", "Bright (needed under a breach)", "VP"), rows
    )


@block(LH, "monster_summary")
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


@block(LH, "powers")
def _lh_powers() -> str:
    from envs.last_heroes.content import POWERS

    rows = [(i, f"**{name}**", text, f"`{effect}`") for i, (name, effect, text) in enumerate(POWERS)]
    return md_table(("Power id", "Tile", "Effect (tile text)", "Engine effect"), rows)


@block(LH, "phases")
def _lh_phases() -> str:
    from envs.last_heroes.constants import PHASES

    return "Phase one-hot order: " + ", ".join(f"{i} `{p}`" for i, p in enumerate(PHASES)) + "."


@block(LH, "seat_fields")
def _lh_seat_fields() -> str:
    from envs.last_heroes.observation import OBSERVATION_LAYOUT, SEAT_FIELDS, SEAT_SIZE

    start = OBSERVATION_LAYOUT["seats"].offset
    return fields_table(SEAT_FIELDS) + f"\n\nThe row of relative seat r starts at float {start} + {SEAT_SIZE} r."


@block(LH, "slot_fields")
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


if __name__ == "__main__":
    sys.exit(main())
