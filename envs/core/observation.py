"""Fixed-length observation vectors described as named blocks.

A game declares ``ObservationLayout([("global", 32, "..."), ("seats", (5, 98), "..."), ...])``;
the layout gives each block's offset, splits a flat vector into named (reshaped) views for
``observation_mode="dict"``, and renders the documentation table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ObservationBlock:
    name: str
    shape: tuple[int, ...]
    offset: int
    size: int
    doc: str = ""

    @property
    def stop(self) -> int:
        return self.offset + self.size


class ObservationLayout:
    """Named blocks of a flat float32 observation vector."""

    def __init__(self, blocks: Sequence[tuple], low: float = -1.0, high: float = 1.0):
        self.blocks: list[ObservationBlock] = []
        self.low = low
        self.high = high
        offset = 0
        for entry in blocks:
            name, shape = entry[0], entry[1]
            doc = entry[2] if len(entry) > 2 else ""
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            size = int(np.prod(shape))
            self.blocks.append(ObservationBlock(name, shape, offset, size, doc))
            offset += size
        self.size = offset
        self._by_name = {b.name: b for b in self.blocks}

    def __getitem__(self, name: str) -> ObservationBlock:
        return self._by_name[name]

    def slice(self, name: str) -> slice:
        b = self._by_name[name]
        return slice(b.offset, b.stop)

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views of ``vector`` (no copy)."""
        return {b.name: vector[b.offset : b.stop].reshape(b.shape) for b in self.blocks}

    def markdown_table(self) -> str:
        rows = ["| Block | Offset | Shape | Content |", "|---|---|---|---|"]
        for b in self.blocks:
            shape = " x ".join(str(s) for s in b.shape)
            rows.append(f"| `{b.name}` | {b.offset} | {shape} | {b.doc} |")
        rows.append(f"\nTotal: {self.size} floats in [{self.low:g}, {self.high:g}].")
        return "\n".join(rows)


# -- rows of named fields (a seat's row, a card slot) inside a block ----------------------------------
Field = tuple[str, int, str]  # (name, size, meaning)


def field_offsets(fields: Sequence[Field]) -> tuple[dict[str, int], int]:
    """``({name: offset}, row size)`` of a row of ``(name, size, doc)`` fields."""
    out, at = {}, 0
    for name, size, _ in fields:
        out[name] = at
        at += size
    return out, at


def fields_table(fields: Sequence[Field]) -> str:
    """The Markdown table of a row's fields: offset, size and meaning."""
    rows = ["| Offset | Size | Content |", "|---|---|---|"]
    at = 0
    for _name, size, doc in fields:
        rows.append(f"| {at} | {size} | {doc} |")
        at += size
    return "\n".join(rows)
