"""Markdown tables for the generated docs: the one helper every game's docs module and
docs/generate.py use, so every generated table escapes its cells the same way."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def md_table(headers: Sequence[object], rows: Iterable[Sequence[object]], empty: str = "") -> str:
    """A Markdown table. ``|`` inside a cell is escaped and line breaks become spaces (either would
    break the row); an empty cell shows ``empty``."""

    def cell(value: object) -> str:
        text = str(value).replace("|", "\\|").replace("\n", " ")
        return text if text else empty

    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
