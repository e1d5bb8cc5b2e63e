"""The game documents: generated blocks are up to date, the tables are complete, and the generator
(docs/generate.py) rejects broken markers and writes atomically."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "docs" / "generate.py"


def _load_generator():
    spec = importlib.util.spec_from_file_location("herozoo_docs_generate", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def _block(text: str, name: str) -> str:
    m = re.search(
        rf"^<!-- BEGIN GENERATED: {re.escape(name)} -->\n(.*?)^<!-- END GENERATED: {re.escape(name)} -->",
        text,
        re.MULTILINE | re.DOTALL,
    )
    assert m, f"block {name!r} not found"
    return m.group(1)


def _table_rows(markdown: str) -> list[list[str]]:
    """Body rows of the first Markdown table in ``markdown`` (header and rule skipped)."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in rows[2:]]


# -- the documents are current -------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(gen.REGISTRY))
def test_document_is_up_to_date(game):
    path, current, fresh = gen.regenerate(game)
    if current != fresh:
        old, new = current.splitlines(), fresh.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        was = old[line] if line < len(old) else "<end>"
        now = new[line] if line < len(new) else "<end>"
        pytest.fail(
            f"{path.relative_to(ROOT)} is stale from line {line + 1} (document: {was!r}, code: {now!r}); "
            "run: python docs/generate.py"
        )


def test_check_mode_from_the_command_line():
    done = subprocess.run(
        [sys.executable, str(GENERATOR), "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert gen.stale() == []


# -- Last Heroes tables --------------------------------------------------------------------------
def _last_heroes_doc() -> str:
    return (ROOT / "docs" / "last_heroes.md").read_text(encoding="utf-8")


def test_monster_table_lists_all_36_monsters():
    from envs.last_heroes.content import DEFAULT

    rows = _table_rows(_block(_last_heroes_doc(), "monsters"))
    assert len(DEFAULT.monsters) == 36
    assert [int(r[0]) for r in rows] == list(range(36))
    assert [r[1] for r in rows] == [m.name for m in DEFAULT.monsters]
    assert [int(r[2]) for r in rows].count(1) == 15
    assert [int(r[2]) for r in rows].count(2) == 12
    assert [int(r[2]) for r in rows].count(3) == 9
    assert {r[1] for r in rows} >= {"Spider", "Giant Snake", "Dragon"}  # the rulebook's examples


def test_weapon_table_lists_15_kinds_and_60_cards():
    rows = _table_rows(_block(_last_heroes_doc(), "weapons"))
    assert [int(r[0]) for r in rows] == list(range(15))
    assert sum(int(r[5]) for r in rows) == 60
    assert [int(r[3]) for r in rows] == [1, 2, 3] * 5


def test_power_table_lists_the_six_powers():
    rows = _table_rows(_block(_last_heroes_doc(), "powers"))
    assert [r[1].strip("*") for r in rows] == ["JOKER", "EXCHANGE", "IMPACT", "IMMUNITY", "RELOAD", "ADRENALINE"]


def test_action_and_observation_tables_match_the_layouts():
    from envs.last_heroes.actions import LAYOUT
    from envs.last_heroes.observation import OBSERVATION_LAYOUT

    doc = _last_heroes_doc()
    assert _block(doc, "actions").strip() == LAYOUT.markdown_table().strip()
    assert _block(doc, "observation").strip() == OBSERVATION_LAYOUT.markdown_table().strip()


def _code_text(path: Path) -> str:
    """Comments and string literals of a Python file (numbers in code are not section references)."""
    parts = []
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                parts.append(tok.string)
    return "\n".join(parts)


def test_section_and_gap_numbers_cited_by_the_engine_exist():
    doc = _last_heroes_doc()
    sections = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", doc, re.MULTILINE))
    gaps = set(re.findall(r"^\d+\. \*\*G(\d+) ", doc, re.MULTILINE))
    assert gaps == {str(i) for i in range(1, 36)}
    cited_sections, cited_gaps = set(), set()
    for path in sorted((ROOT / "envs" / "last_heroes").glob("*.py")):
        text = _code_text(path)
        cited_gaps |= set(re.findall(r"\bG(\d{1,2})\b", text))
        cited_sections |= set(re.findall(r"\((\d{1,2}\.\d{1,2})[,)]", text))
        cited_sections |= set(re.findall(r"\bdocs (?:section )?(\d{1,2}(?:\.\d{1,2})?)\b", text))
    assert cited_gaps <= gaps, f"the engine cites G{sorted(cited_gaps - gaps)}, which the document lacks"
    assert cited_sections <= sections, f"the engine cites sections {sorted(cited_sections - sections)}"


# -- the generator itself ------------------------------------------------------------------------
BLOCKS = {"a": lambda: "| x |\n|---|\n| 1 |", "b": lambda: "text b"}


def test_render_replaces_bodies_and_is_idempotent():
    text = "intro\n<!-- BEGIN GENERATED: a -->\nstale\n<!-- END GENERATED: a -->\nmid\n"
    text += "<!-- BEGIN GENERATED: b -->\n<!-- END GENERATED: b -->\nend\n"
    once = gen.render(text, BLOCKS)
    assert "stale" not in once
    assert "<!-- BEGIN GENERATED: a -->\n\n| x |\n|---|\n| 1 |\n\n<!-- END GENERATED: a -->\nmid\n" in once
    assert once.startswith("intro\n") and once.endswith("text b\n\n<!-- END GENERATED: b -->\nend\n")
    assert gen.render(once, BLOCKS) == once


@pytest.mark.parametrize(
    "text, message",
    [
        ("<!-- BEGIN GENERATED: zzz -->\n<!-- END GENERATED: zzz -->\n", "no generator for block 'zzz'"),
        ("<!-- END GENERATED: a -->\n", "without a BEGIN"),
        ("<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED: b -->\n", "closes the block 'a'"),
        ("<!-- BEGIN GENERATED: a -->\n<!-- BEGIN GENERATED: b -->\n", "inside the open block 'a'"),
        ("<!-- BEGIN GENERATED: a -->\n", "has no END marker"),
        ("<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED: a -->\n", "['b'] do not appear"),
    ],
)
def test_render_rejects_broken_markers(text, message):
    with pytest.raises(gen.DocError, match=re.escape(message)):
        gen.render(text, BLOCKS)


def test_markers_inside_a_sentence_are_ignored():
    text = "see `<!-- BEGIN GENERATED: zzz -->` here\n<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED: a -->\n"
    text += "<!-- BEGIN GENERATED: b -->\n<!-- END GENERATED: b -->\n"
    assert gen.render(text, BLOCKS).startswith("see `<!-- BEGIN GENERATED: zzz -->` here\n")


def test_write_atomic_replaces_the_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "game.md"
    target.write_text("old", encoding="utf-8")
    gen.write_atomic(target, "new text\n")
    assert target.read_text(encoding="utf-8") == "new text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.md"]


def test_registry_is_per_game_and_rejects_duplicates():
    assert "last_heroes" in gen.REGISTRY
    assert {"actions", "observation", "options", "monsters", "weapons", "powers"} <= set(gen.REGISTRY["last_heroes"])
    with pytest.raises(ValueError, match="registered twice"):
        gen.block("last_heroes", "monsters")(lambda: "")
    with pytest.raises(gen.DocError, match="unknown game"):
        gen.regenerate("no_such_game")


# -- what README.md and docs/ say is shipped -----------------------------------------------------
SHIPPED_PATH = re.compile(
    r"(?<![\w/:])checkpoints/(?:last_heroes|lost_legends|last_bastion|heroes_and_monsters)/[\w./{},=-]*"
)


def _expand_braces(path: str) -> list[str]:
    """``a.{pt,json}`` -> ``a.pt``, ``a.json``."""
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [p for alt in m.group(1).split(",") for p in _expand_braces(path[: m.start()] + alt + path[m.end() :])]


def test_every_shipped_file_the_readme_and_docs_name_exists():
    """A number quoted from checkpoints/ points to a file in the tree (``git show REV:path`` names
    history, not the tree, and an export command names a folder to write)."""
    named, missing = set(), []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in doc.read_text(encoding="utf-8").splitlines():
            if "training.rllib.export" in line:
                continue
            for match in SHIPPED_PATH.findall(line):
                for path in _expand_braces(match.rstrip(".,")):
                    named.add(path)
                    target = ROOT / path
                    if not (target.exists() or target.with_name(target.name + ".json").exists()):  # or a stem
                        missing.append(f"{doc.name}: {path}")
    assert not missing, missing
    assert "checkpoints/last_bastion/evaluation/" in named and "checkpoints/last_heroes/last_heroes.pt" in named
