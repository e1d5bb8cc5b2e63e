"""docs/last_bastion.md: its generated blocks are up to date with the code; the env docstring has
the generated tables."""

from __future__ import annotations

import re
from pathlib import Path

from envs.last_bastion import env as lb_env
from envs.last_bastion.docs import BLOCKS, ENV_BLOCKS, fill

DOC = Path(__file__).resolve().parents[3] / "docs" / "last_bastion.md"


def test_generated_blocks_are_fresh_and_all_present():
    text = DOC.read_text()
    assert fill(text) == text, "run: python -c 'from envs.last_bastion.docs import fill; ...' to refresh"
    names = set(re.findall(r"<!-- BEGIN GENERATED: ([A-Za-z0-9_.-]+) -->", text))
    assert names == set(BLOCKS) | set(ENV_BLOCKS)


def test_every_card_is_documented():
    text = DOC.read_text()
    for code in ("M01", "M50", "W01", "W10"):
        assert f"| {code} |" in text
    assert "[designed]" in text


def test_env_docstring_has_the_tables():
    doc = lb_env.__doc__
    assert "| `phase` |" in doc and "`SELECT_SPACE`" in doc and "`difficulty`" in doc
