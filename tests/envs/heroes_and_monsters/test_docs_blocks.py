"""docs/heroes_and_monsters.md: every generated block matches the code, and the package never
reads the design folder at run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envs.heroes_and_monsters.docs import BLOCKS

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "heroes_and_monsters.md"


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_generated_block_is_current(name):
    text = DOC.read_text()
    m = re.search(rf"<!-- BEGIN GENERATED: {name} -->\n(.*?)<!-- END GENERATED: {name} -->", text, re.S)
    assert m, f"markers for {name} are missing"
    assert m.group(1).strip("\n") == BLOCKS[name]().strip("\n"), f"block {name} is stale"


def test_every_marker_in_the_document_is_a_known_block():
    names = re.findall(r"<!-- BEGIN GENERATED: (\w+) -->", DOC.read_text())
    assert sorted(names) == sorted(BLOCKS)


def test_designed_choices_are_marked():
    assert DOC.read_text().count("**[designed") >= 30


def test_the_package_does_not_read_the_shared_design_folder():
    for path in (ROOT / "envs" / "heroes_and_monsters").glob("*.py"):
        assert "/work/shared" not in path.read_text(), path
