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
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent
ROOT = DOCS_DIR.parent
if str(ROOT) not in sys.path:  # running ``python docs/generate.py`` without an installed package
    sys.path.append(str(ROOT))

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
# Every game's blocks live beside its content (envs/<game>/docs.py)
# ==================================================================================================
module_blocks("last_heroes", "last_heroes_v0")
module_blocks("last_bastion", "last_bastion_v0")
module_blocks("heroes_and_monsters", "heroes_and_monsters_v0")
module_blocks("lost_legends", "lost_legends_v0")


if __name__ == "__main__":
    sys.exit(main())
