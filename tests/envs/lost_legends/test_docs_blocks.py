"""docs/lost_legends.md: its generated blocks match envs/lost_legends/docs.py, and the env docstring
carries the generated tables."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from envs.lost_legends import env as env_module
from envs.lost_legends.docs import BLOCKS

ROOT = Path(__file__).resolve().parents[3]


def _generator():
    spec = importlib.util.spec_from_file_location("herozoo_docs_generate_ll", ROOT / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_blocks_are_current():
    text = (ROOT / "docs" / "lost_legends.md").read_text(encoding="utf-8")
    assert _generator().render(text, BLOCKS, "docs/lost_legends.md") == text
    assert text.count("[designed") > 40


def test_env_docstring_has_the_generated_tables():
    doc = env_module.__doc__
    assert "Discrete(74)" in doc and "(2907,)" in doc and "`REWARD_GOLD`" in doc and "`auto_skip_forced`" in doc
