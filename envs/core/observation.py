"""Fixed-length observation vectors described as named blocks, and the one observation memo.

A game declares its layout as blocks, each with the function that writes it and the state fields it
reads::

    ObservationLayout([
        Block("phase", 4, "decision one-hot", encode=_phase, reads=("decision",)),
        Block("seats", (5, 98), "per relative seat", encode=_seats, reads=("players", "turn")),
    ])

``encode(state, seat, out)`` writes the block for observer ``seat`` into ``out``, a zeroed view of
the block's shape, and may read the state only through the fields named in ``reads`` (attributes
or properties; never a method's result that depends on anything else) and the attributes the
layout's ``constants`` name (fixed for a state's life, such as ``game``). ``shared=True`` says the
block is the same for every observer (public, absolute), so it is written once for all of them.

How the memo knows a block may have changed:

- by default, a snapshot of every field it reads (``marshal`` bytes, so a field edited in place is
  seen too): nothing to declare, but a snapshot of a large field costs as much as a small block;
- ``key=fn(state, seat)``: a cheap value that changes whenever the block may (version counters the
  rules bump, or the few small values the block is made of); the block is rewritten when its key
  differs from the last one this observer (or, shared, anyone) saw;
- :class:`Rows`: a table whose rows are the same for every observer, only in another order (a row
  per seat, seat-relative): each absolute row is written once under its own ``key_row`` and each
  observer gathers them in its ``order``, so a step that changes one seat rewrites one row.

:meth:`ObservationLayout.encode` is the observation with the memo: it keeps, on the state, each
observer's last vector, and rewrites only the blocks that may have changed.
:meth:`ObservationLayout.encode_plain` is the same functions with the memo off: the definition.
The conformance kit (``envs.conformance.check_observation_memo``) compares the two on every game and
checks each block reads only what it declares.

The layout also gives each block's offset, splits a flat vector into named (reshaped) views for
``observation_mode="dict"``, and renders the documentation table.
"""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: encode(state, seat, out): write the block for observer ``seat`` into ``out`` (zeros on entry)
Encoder = Callable[[Any, int, np.ndarray], None]


@dataclass(frozen=True)
class Block:
    """One block as a game declares it (see the module docstring)."""

    name: str
    shape: int | tuple[int, ...]
    doc: str = ""
    encode: Encoder | None = None
    reads: tuple[str, ...] = ()
    shared: bool = False
    #: key(state, seat) -> a hashable value that changes whenever the block may (None: snapshots)
    key: Callable[[Any, int], Any] | None = None


@dataclass(frozen=True)
class Rows:
    """A block of rows that every observer sees in its own order (see the module docstring).

    ``shape`` is ``(places, width)``. ``count(state)`` absolute rows exist; ``encode_row(state, r,
    out)`` writes absolute row ``r`` into a zeroed ``out`` of ``width`` floats, reading only
    ``reads``; ``key_row(state, r)`` changes whenever that row may; ``order(state, seat)`` gives the
    absolute row shown at each place for observer ``seat`` (``-1``: a row of zeros), a tuple of
    ``places`` ints. A row must not depend on the observer: what does goes in a block of its own."""

    name: str
    shape: tuple[int, int]
    doc: str
    encode_row: Callable[[Any, int, np.ndarray], None]
    key_row: Callable[[Any, int], Any]
    order: Callable[[Any, int], tuple[int, ...]]
    count: Callable[[Any], int]
    reads: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObservationBlock:
    name: str
    shape: tuple[int, ...]
    offset: int
    size: int
    doc: str = ""
    encode: Encoder | None = None
    reads: tuple[str, ...] = ()
    shared: bool = False
    key: Callable[[Any, int], Any] | None = None
    rows: Rows | None = None  # a Rows block: ``encode`` is then its plain composition

    @property
    def stop(self) -> int:
        return self.offset + self.size

    def spec(self) -> Block | Rows:
        """The block as declared (to build another layout from it)."""
        if self.rows is not None:
            return self.rows
        return Block(self.name, self.shape, self.doc, self.encode, self.reads, self.shared, self.key)


def _plain_rows(rows: Rows) -> Encoder:
    """A Rows block written from scratch: each place's absolute row, in the observer's order."""

    def encode(state: Any, seat: int, out: np.ndarray) -> None:
        for place, r in enumerate(rows.order(state, seat)):
            if r >= 0:
                rows.encode_row(state, r, out[place])

    return encode


class ObservationLayout:
    """Named blocks of a flat float32 observation vector.

    ``blocks``: :class:`Block` entries, or ``(name, shape, doc)`` tuples for a layout that only
    documents (a game with its own ``observe``). ``constants``: state attributes the encoders may
    read that never change during a game (checked by the kit)."""

    def __init__(
        self,
        blocks: Sequence[Block | tuple],
        low: float = -1.0,
        high: float = 1.0,
        constants: Sequence[str] = ("game",),
    ):
        self.blocks: list[ObservationBlock] = []
        self.low = low
        self.high = high
        self.constants = tuple(constants)
        offset = 0
        for entry in blocks:
            spec = entry if isinstance(entry, (Block, Rows)) else Block(*entry)
            shape = (spec.shape,) if isinstance(spec.shape, int) else tuple(spec.shape)
            size = int(np.prod(shape))
            if isinstance(spec.reads, str):
                raise TypeError(f"block {spec.name!r}: reads must be a tuple of field names, not {spec.reads!r}")
            if isinstance(spec, Rows):
                if len(shape) != 2:
                    raise ValueError(f"rows {spec.name!r}: shape must be (places, width), got {spec.shape!r}")
                block = ObservationBlock(
                    spec.name, shape, offset, size, spec.doc, _plain_rows(spec), tuple(spec.reads), rows=spec
                )
            else:
                block = ObservationBlock(
                    spec.name, shape, offset, size, spec.doc, spec.encode, tuple(spec.reads), spec.shared, spec.key
                )
            self.blocks.append(block)
            offset += size
        self.size = offset
        self._by_name = {b.name: b for b in self.blocks}
        if len(self._by_name) != len(self.blocks):
            raise ValueError("observation blocks need distinct names")
        self.encodable = bool(self.blocks) and all(b.encode is not None for b in self.blocks)
        # the memo's plan: every field a block without a key reads, once, and its fields by index
        snapshotted = [b for b in self.blocks if b.key is None and b.rows is None]
        self.fields: tuple[str, ...] = tuple(dict.fromkeys(f for b in snapshotted for f in b.reads))
        index = {f: i for i, f in enumerate(self.fields)}
        self._plan = [
            (b, tuple(index[f] for f in b.reads) if b.key is None and b.rows is None else None) for b in self.blocks
        ]
        self._own = [(b, idx) for b, idx in self._plan if not b.shared and b.rows is None]
        self._shared = [(b, idx) for b, idx in self._plan if b.shared]
        self._rows = [b for b in self.blocks if b.rows is not None]

    def extended(self, blocks: Sequence[Block | tuple]) -> ObservationLayout:
        """This layout with ``blocks`` appended (an option that adds blocks)."""
        return ObservationLayout([b.spec() for b in self.blocks] + list(blocks), self.low, self.high, self.constants)

    # -- encoding -------------------------------------------------------------------------------
    def encode_plain(self, state: Any, seat: int) -> np.ndarray:
        """Every block written from scratch (the definition; the memo off)."""
        v = np.zeros(self.size, np.float32)
        for b in self.blocks:
            b.encode(state, seat, v[b.offset : b.stop].reshape(b.shape))
        return v

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """The observation of ``seat``, rewriting only the blocks that may have changed since this
        observer's last call on this state (a new array each call)."""
        memo = getattr(state, "_obs_memo", None)
        if memo is None or memo.layout is not self:
            memo = _Memo(self)
            state._obs_memo = memo
        snapshot = self._snapshot(state)
        view = memo.views.get(seat)
        if view is None:
            view = memo.views[seat] = _View(self)
        old = view.snapshot
        changed = None if old is None else [a != b for a, b in zip(snapshot, old)]
        outs, keys = view.outs, view.keys
        for k, (b, idx) in enumerate(self._own):
            if b.key is not None:
                key = b.key(state, seat)
                if keys[k] is not _UNSEEN and key == keys[k]:
                    continue
                keys[k] = key
            elif changed is not None and not any(changed[i] for i in idx):
                continue
            out = outs[k]
            out.fill(0.0)
            b.encode(state, seat, out)
        vec = view.vector
        if self._shared:
            memo.refresh_shared(state, snapshot, seat)
            seen, versions = view.shared_seen, memo.shared_versions
            for k, (b, _) in enumerate(self._shared):
                if seen[k] != versions[k]:
                    vec[b.offset : b.stop] = memo.vector[b.offset : b.stop]
                    seen[k] = versions[k]
        for k, b in enumerate(self._rows):
            table = memo.tables[k]
            table.refresh(state)
            order = b.rows.order(state, seat)
            stamp = (order, tuple([table.versions[r] for r in order if r >= 0]))
            if stamp != view.rows_seen[k]:
                view.rows_seen[k] = stamp
                np.take(table.matrix, [r if r >= 0 else table.zero for r in order], axis=0, out=view.row_outs[k])
        view.snapshot = snapshot
        return vec.copy()

    def _snapshot(self, state: Any) -> list[bytes]:  # the fields of the blocks with no key
        if not self.fields:
            return []
        try:
            return [marshal.dumps(getattr(state, f), 2) for f in self.fields]
        except ValueError:
            return [_snapshot_of(state, f) for f in self.fields]

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


# -- the memo ------------------------------------------------------------------------------------
def _snapshot_of(state: Any, field: str) -> bytes:
    """Bytes equal whenever the field's value is (marshal; pickle for what marshal cannot write)."""
    value = getattr(state, field)
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        if callable(value):
            raise TypeError(
                f"an observation block reads {field!r}, which is a method: name the fields it reads instead"
            ) from None
        return pickle.dumps(value, 5)


_UNSEEN = object()  # no key seen yet


class _View:
    """One observer's last vector, its blocks' views into it, and what each was made from."""

    __slots__ = ("vector", "outs", "keys", "snapshot", "shared_seen", "rows_seen", "row_outs")

    def __init__(self, layout: ObservationLayout):
        self.vector = np.zeros(layout.size, np.float32)
        self.outs = [self.vector[b.offset : b.stop].reshape(b.shape) for b, _ in layout._own]
        self.keys: list[Any] = [_UNSEEN] * len(layout._own)
        self.snapshot: list[bytes] | None = None
        self.shared_seen = [-1] * len(layout._shared)
        self.rows_seen: list[Any] = [None] * len(layout._rows)
        self.row_outs = [self.vector[b.offset : b.stop].reshape(b.shape) for b in layout._rows]


class _RowTable:
    """Every absolute row of one Rows block, each written once under its key (the last row: zeros)."""

    __slots__ = ("rows", "matrix", "keys", "versions", "zero", "clock")

    def __init__(self, rows: Rows):
        self.rows = rows
        self.matrix = np.zeros((1, rows.shape[1]), np.float32)
        self.keys: list[Any] = []
        self.versions: list[int] = []
        self.zero = 0
        self.clock = 0

    def refresh(self, state: Any) -> None:
        rows = self.rows
        count = rows.count(state)
        if count != self.zero:  # the table size changed (a new state): start over
            self.matrix = np.zeros((count + 1, rows.shape[1]), np.float32)
            self.keys = [_UNSEEN] * count
            self.versions = [-1] * count
            self.zero = count
        keys, key_row = self.keys, rows.key_row
        for r in range(count):
            key = key_row(state, r)
            if keys[r] is _UNSEEN or key != keys[r]:
                keys[r] = key
                out = self.matrix[r]
                out.fill(0.0)
                rows.encode_row(state, r, out)
                self.clock += 1
                self.versions[r] = self.clock


class _Memo:
    """What :meth:`ObservationLayout.encode` keeps on a state (``state._obs_memo``, never in its JSON):
    a view per observer, the shared blocks written once for all of them, and the row tables."""

    __slots__ = ("layout", "views", "vector", "outs", "snapshot", "keys", "shared_versions", "tables")

    def __init__(self, layout: ObservationLayout):
        self.layout = layout
        self.views: dict[int, _View] = {}
        self.vector = np.zeros(layout.size, np.float32)
        self.outs = [self.vector[b.offset : b.stop].reshape(b.shape) for b, _ in layout._shared]
        self.snapshot: list[bytes] | None = None
        self.keys: list[Any] = [_UNSEEN] * len(layout._shared)
        self.shared_versions = [0] * len(layout._shared)
        self.tables = [_RowTable(b.rows) for b in layout._rows]

    def refresh_shared(self, state: Any, snapshot: list[bytes], seat: int) -> None:
        old = self.snapshot
        for k, (b, idx) in enumerate(self.layout._shared):
            if b.key is not None:
                key = b.key(state, seat)
                if self.keys[k] is not _UNSEEN and key == self.keys[k]:
                    continue
                self.keys[k] = key
            elif old is not None and not any(snapshot[i] != old[i] for i in idx):
                continue
            out = self.outs[k]
            out.fill(0.0)
            b.encode(state, seat, out)
            self.shared_versions[k] += 1
        self.snapshot = snapshot
