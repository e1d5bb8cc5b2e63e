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

A shared block may also be *framed*: the same facts for everyone, each observer seeing them in its
own frame (seats as offsets from its own, places turned with its board). ``frame=fn(state, seat)``
gives a flat index array of the block's size, depending only on the seat and the layout's
``constants``: observer ``seat``'s block is ``absolute.ravel()[fn(state, seat)]``, where ``encode``
writes ``absolute``, the block in a frame that does not depend on the observer (its own ``encode``
must not read ``seat``). The memo writes it once under its key (or snapshot) like any shared block
and each observer gathers it when it changed since that observer's last gather: neighbouring
shared blocks rewritten together (one key group) are gathered as one run, by one ``take`` (the
unframed ones with the identity), or by a few byte copies when the index is a few stretches of
consecutive floats (a rotation of rows). Give ``fn`` precomputed arrays (a table per frame): the
memo builds each run's gather once per tuple of arrays it gets. ``encode_plain`` composes the same:
the absolute block into a scratch, then the gather.

How the memo knows a block may have changed:

- by default, a snapshot of every field it reads (``marshal`` bytes, so a field edited in place is
  seen too): nothing to declare, but a snapshot of a large field costs as much as a small block;
- ``key=fn(state, seat)``: a cheap value that changes whenever the block may (version counters the
  rules bump, or the few small values the block is made of); the block is rewritten when its key
  differs from the last one this observer (or, shared, anyone) saw. Blocks that name the very same
  key function (all shared, or all the observer's own) are checked with one call and rewritten
  together (a key check costs about as much as writing a few floats, so small blocks that change
  together share one). Blocks may also name a part of one key: ``key=fn, key_part=i`` is the key
  ``fn(state, seat)[i]``, with one call of ``fn`` for all its parts (shared blocks with shared
  blocks, own with own), so that blocks that change apart but whose keys are made of the same
  values (copied once) share the work;
- :class:`Rows`: a table whose rows are the same for every observer, only in another order (a row
  per seat, seat-relative): each absolute row is written once under its own ``key_row`` and each
  observer gathers them in its ``order``, so a step that changes one seat rewrites one row. A row
  may be cut into :class:`Band` s of columns, each with its encoder and a function giving every
  row's key at once: a step that moves one seat's flag then rewrites that band of that row only.
  An :class:`OwnBand` is columns of the observer's own place written for each observer (its whole
  hand over the known cards the others see), copied over that place after each gather.

:meth:`ObservationLayout.encode` is the observation with the memo: it keeps, on the state, each
observer's last vector, and rewrites only the blocks that may have changed (a copy or pickle of the
state leaves the memo behind). Setting a memo up costs about as much as writing every block, so a
new state (a new game, a search's clone) takes over the memo of a gone state of the same layout
when there is one (weak references to the last few states served), forgetting what it saw.
:meth:`ObservationLayout.encode_plain` is the same functions with the memo off: the definition.
The conformance kit (``envs.conformance.check_observation_memo``) compares the two on every game and
checks each block reads only what it declares.

The layout also gives each block's offset, splits a flat vector into named (reshaped) views for
``observation_mode="dict"``, and renders the documentation table.
"""

from __future__ import annotations

import marshal
import pickle
import weakref
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
    #: frame(state, seat) -> the flat index into the absolute block shown at each place of the
    #: observer's (shared blocks only; see the module docstring)
    frame: Callable[[Any, int], Any] | None = None
    #: the block's key is ``key(state, seat)[key_part]`` (see the module docstring)
    key_part: int | None = None
    #: ``encode`` writes every float of the block: the memo skips zeroing it first (the kit checks)
    dense: bool = False


@dataclass(frozen=True)
class Band:
    """Columns ``cols = (start, stop)`` of every row of a :class:`Rows` table, kept under a key of
    their own: ``encode(state, r, out)`` writes those columns of absolute row ``r`` into a zeroed
    ``out`` of ``stop - start`` floats; ``keys(state)`` gives every row's key for them at once (a new
    sequence of ``count(state)`` values that the state does not mutate, each changing whenever that
    band of that row may). Bands that give the very same ``keys`` function share one call of it and
    are rewritten together in the rows whose key changed (a key costs about as much as a small band)."""

    cols: tuple[int, int]
    encode: Callable[[Any, int, np.ndarray], None]
    keys: Callable[[Any], Sequence[Any]]


@dataclass(frozen=True)
class OwnBand:
    """Columns ``cols = (start, stop)`` of the row at place ``place`` of a :class:`Rows` table (the
    observer's own row), written for each observer rather than taken from the table:
    ``encode(state, seat, out)`` writes them into a zeroed ``out`` of ``stop - start`` floats for
    observer ``seat``, ``key(state, seat)`` changes whenever they may. For a row that every observer
    sees alike but its own seat sees more of (its whole hand): the table keeps one row per seat, as
    the others see it, and each observer's own place shows this band over it."""

    cols: tuple[int, int]
    encode: Callable[[Any, int, np.ndarray], None]
    key: Callable[[Any, int], Any]
    place: int = 0


@dataclass(frozen=True)
class Rows:
    """A block of rows that every observer sees in its own order (see the module docstring).

    ``shape`` is ``(places, width)``. ``count(state)`` absolute rows exist; ``encode_row(state, r,
    out)`` writes absolute row ``r`` into a zeroed ``out`` of ``width`` floats, reading only
    ``reads``; ``key_row(state, r)`` changes whenever that row may; ``order(state, seat)`` gives the
    absolute row shown at each place for observer ``seat`` (``-1``: a row of zeros), a tuple of
    ``places`` ints. A row must not depend on the observer: what does goes in a block of its own.

    ``bands``, optional: the row cut into :class:`Band` s of columns (in order, covering it), each
    rewritten only when its own key changes, so a step that moves one flag rewrites a few floats
    rather than a seat's whole row. Give ``encode_row`` and ``key_row`` as ``None`` then: the row is
    the bands' composition.

    ``own``, optional: an :class:`OwnBand`, the observer's own columns over the row at its place."""

    name: str
    shape: tuple[int, int]
    doc: str
    encode_row: Callable[[Any, int, np.ndarray], None] | None
    key_row: Callable[[Any, int], Any] | None
    order: Callable[[Any, int], tuple[int, ...]]
    count: Callable[[Any], int]
    reads: tuple[str, ...] = ()
    bands: tuple[Band, ...] = ()
    own: OwnBand | None = None


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
    frame: Callable[[Any, int], Any] | None = None  # a framed block: ``encode`` is its plain composition
    absolute: Encoder | None = None  # a shared block's encoder as declared (in the absolute frame if framed)
    key_part: int | None = None
    dense: bool = False

    @property
    def stop(self) -> int:
        return self.offset + self.size

    def spec(self) -> Block | Rows:
        """The block as declared (to build another layout from it)."""
        if self.rows is not None:
            return self.rows
        encode = self.absolute if self.frame is not None else self.encode
        return Block(
            self.name,
            self.shape,
            self.doc,
            encode,
            self.reads,
            self.shared,
            self.key,
            self.frame,
            self.key_part,
            self.dense,
        )


def _bands(rows: Rows) -> tuple[Band, ...]:
    """The bands of a Rows block (checked), or the whole row as one band under ``key_row``."""
    width = rows.shape[1]
    if not rows.bands:
        if rows.encode_row is None or rows.key_row is None:
            raise ValueError(f"rows {rows.name!r}: give encode_row and key_row, or bands")
        key_row, count = rows.key_row, rows.count
        return (Band((0, width), rows.encode_row, lambda state: [key_row(state, r) for r in range(count(state))]),)
    if rows.encode_row is not None or rows.key_row is not None:
        raise ValueError(f"rows {rows.name!r}: with bands, encode_row and key_row are the bands' (give None)")
    at = 0
    for band in rows.bands:
        start, stop = band.cols
        if start != at or stop <= start:
            raise ValueError(f"rows {rows.name!r}: bands must cover the row in order, got {band.cols} at column {at}")
        at = stop
    if at != width:
        raise ValueError(f"rows {rows.name!r}: the bands cover {at} of {width} columns")
    return tuple(rows.bands)


def _plain_rows(rows: Rows, bands: tuple[Band, ...]) -> Encoder:
    """A Rows block written from scratch: each place's absolute row, in the observer's order, and
    the observer's own band over its place."""
    own = rows.own

    def encode(state: Any, seat: int, out: np.ndarray) -> None:
        for place, r in enumerate(rows.order(state, seat)):
            if r >= 0:
                row = out[place]
                for band in bands:
                    band.encode(state, r, row[band.cols[0] : band.cols[1]])
        if own is not None:
            cols = out[own.place, own.cols[0] : own.cols[1]]
            cols[:] = 0.0
            own.encode(state, seat, cols)

    return encode


def _check_own(rows: Rows) -> None:
    own = rows.own
    if own is None:
        return
    places, width = rows.shape
    start, stop = own.cols
    if not (0 <= start < stop <= width and 0 <= own.place < places):
        raise ValueError(f"rows {rows.name!r}: own band {own.cols} at place {own.place} is not within {rows.shape}")


def _frame_of(block: ObservationBlock, state: Any, seat: int) -> np.ndarray:
    """``block.frame(state, seat)`` as an index array, checked (its size, indices within the block)."""
    index = np.asarray(block.frame(state, seat))
    if (
        index.shape != (block.size,)
        or index.dtype.kind not in "iu"
        or (block.size and (index.min() < 0 or index.max() >= block.size))
    ):
        raise ValueError(
            f"block {block.name!r}: frame() must give {block.size} indices in 0..{block.size - 1}, got {index!r}"
        )
    return index


def _plain_framed(block: Block, shape: tuple[int, ...]) -> Encoder:
    """A framed block written from scratch: the absolute block into a scratch, then gathered."""
    encode = block.encode

    def plain(state: Any, seat: int, out: np.ndarray) -> None:
        absolute = np.zeros(shape, np.float32)
        encode(state, seat, absolute)
        index = _frame_of(framed, state, seat)
        absolute.reshape(-1).take(index, 0, out.reshape(-1), "clip")

    size = int(np.prod(shape))
    framed = ObservationBlock(block.name, shape, 0, size, frame=block.frame)
    return plain


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
                _check_own(spec)
                block = ObservationBlock(
                    spec.name,
                    shape,
                    offset,
                    size,
                    spec.doc,
                    _plain_rows(spec, _bands(spec)),
                    tuple(spec.reads),
                    rows=spec,
                )
            elif spec.frame is not None:
                if not spec.shared:
                    raise ValueError(f"block {spec.name!r}: a frame is for a shared block (give shared=True)")
                block = ObservationBlock(
                    spec.name,
                    shape,
                    offset,
                    size,
                    spec.doc,
                    _plain_framed(spec, shape) if spec.encode is not None else None,
                    tuple(spec.reads),
                    True,
                    spec.key,
                    frame=spec.frame,
                    absolute=spec.encode,
                    key_part=spec.key_part,
                    dense=spec.dense,
                )
            else:
                if spec.key_part is not None and spec.key is None:
                    raise ValueError(f"block {spec.name!r}: key_part is a part of the block's key: give key too")
                block = ObservationBlock(
                    spec.name,
                    shape,
                    offset,
                    size,
                    spec.doc,
                    spec.encode,
                    tuple(spec.reads),
                    spec.shared,
                    spec.key,
                    absolute=spec.encode if spec.shared else None,
                    key_part=spec.key_part,
                    dense=spec.dense,
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
        # own blocks that declare the very same key function (and part) are checked with one call and
        # rewritten together; the groups of one key function next to each other (one call for its parts)
        groups: dict[Any, tuple[Any, Any, Any, list[ObservationBlock]]] = {}
        for b, idx in self._own:
            group_key = (id(b.key), b.key_part) if b.key is not None else -id(b)
            groups.setdefault(group_key, (b.key, b.key_part, idx, []))[3].append(b)
        first: dict[int, int] = {}
        for g in groups.values():
            first.setdefault(id(g[0]), len(first))
        #: per group of own blocks: (key or None, key part or None, fields' indices, blocks)
        self._own_groups = sorted(groups.values(), key=lambda g: first[id(g[0])])
        self._shared = [(b, idx) for b, idx in self._plan if b.shared]
        # shared blocks that declare the very same key function are checked with one call and
        # rewritten together, like own blocks
        group_of = {id(b): (id(b.key), b.key_part) if b.key is not None else -id(b) for b, _ in self._shared}
        # shared blocks next to each other are brought into an observer's vector as one run (a copy),
        # framed ones with the neighbours rewritten with them (one gather), so that a change of one
        # group gathers that group's blocks only
        self._runs: list[tuple[int, int]] = []
        self._run_blocks: list[list[ObservationBlock]] = []
        run_of: list[int] = []
        for b, _ in self._shared:
            last = self._run_blocks[-1] if self._run_blocks else None
            if (
                last is not None
                and self._runs[-1][1] == b.offset
                and (
                    group_of[id(b)] == group_of[id(last[-1])]
                    or (b.frame is None and all(x.frame is None for x in last))
                )
            ):
                self._runs[-1] = (self._runs[-1][0], b.stop)
                last.append(b)
            else:
                self._runs.append((b.offset, b.stop))
                self._run_blocks.append([b])
            run_of.append(len(self._runs) - 1)
        self._framed_runs = [any(b.frame is not None for b in blocks) for blocks in self._run_blocks]
        #: per group of shared blocks: (key or None, key part or None, fields' indices, [(block, its
        #: run)]), the groups of one key function next to each other (one call for them)
        shared_groups: dict[Any, tuple[Any, Any, Any, list[tuple[ObservationBlock, int]]]] = {}
        for k, (b, idx) in enumerate(self._shared):
            group = shared_groups.setdefault(group_of[id(b)], (b.key, b.key_part, idx, []))
            group[3].append((b, run_of[k]))
        first = {}
        for g in shared_groups.values():
            first.setdefault(id(g[0]), len(first))
        self._shared_groups = sorted(shared_groups.values(), key=lambda g: first[id(g[0])])
        self._gathers: dict[tuple, tuple[list, Any]] = {}  # see _gather
        self._spares: list[tuple[weakref.ref, _Memo]] = []  # see _memo_for
        self._rows = [b for b in self.blocks if b.rows is not None]

    def _gather(self, run: int, state: Any, seat: int) -> np.ndarray | list[tuple[int, int, int]]:
        """How framed run ``run`` of the absolute vector is brought into observer ``seat``'s frame:
        the index of a gather (each framed block's frame, each other block as it stands, offset
        within the run), or, when the index is a few stretches of consecutive floats (a rotation of
        rows), those stretches as ``(start here, start there, length)`` copies. Kept per tuple of the
        frames' arrays (alive in the cache, so their ids stay theirs): a frame function that returns
        precomputed arrays has its gathers built once per layout."""
        blocks = self._run_blocks[run]
        frames = [b.frame(state, seat) if b.frame is not None else None for b in blocks]
        key = (run, *(id(f) for f in frames))
        cached = self._gathers.get(key)
        if cached is not None:
            return cached[1]
        start, stop = self._runs[run]
        index = np.concatenate(
            [
                (_frame_of(b, state, seat) if f is not None else np.arange(b.size)) + (b.offset - start)
                for b, f in zip(blocks, frames)
            ]
        ).astype(np.intp)
        breaks = np.flatnonzero(np.diff(index) != 1) + 1
        begins = [0, *breaks.tolist()]
        ends = [*breaks.tolist(), len(index)]
        # measured (callgrind): a stretch's byte copy costs about 900 instructions, a take about 3,300
        # and 10 a float: copies win only for a few stretches of many floats
        plan: Any = index
        if 90 * len(begins) < 330 + len(index):
            plan = [(a, int(index[a]), b - a) for a, b in zip(begins, ends)]
        if len(self._gathers) >= 256:  # frame functions that build new arrays each call: a bound
            self._gathers.clear()
        self._gathers[key] = (frames, plan)
        return plan

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
            memo = state._obs_memo = self._memo_for(state)
        view = memo.views.get(seat)
        if view is None:
            view = memo.views[seat] = memo.view(state, seat)
        if self.fields:
            snapshot = self._snapshot(state)
            old = view.snapshot
            changed = None if old is None else [a != b for a, b in zip(snapshot, old)]
        else:
            snapshot, changed = [], None
        keys = view.keys
        called = value = None  # the last key function called for parts, and what it gave
        for k, (key_of, part, idx, writes) in enumerate(view.own):
            if key_of is not None:
                if part is None:
                    key = key_of(state, seat)
                else:
                    if key_of is not called:
                        value = key_of(state, seat)
                        called = key_of
                    key = value[part]
                last = keys[k]
                if key == last and last is not _UNSEEN:
                    continue
                keys[k] = key
            elif changed is not None and not any(changed[i] for i in idx):
                continue
            for encode, out, zero, zeros in writes:
                if zero is not None:  # zero the block (a memoryview copy: cheaper than ndarray.fill for a few floats)
                    zero[:] = zeros
                encode(state, seat, out)
        vec = view.vector
        if self._shared:
            memo.refresh_shared(state, snapshot, seat)
            seen, versions = view.runs_seen, memo.run_versions
            for k, (out, source, index) in enumerate(view.runs):
                if seen[k] != versions[k]:
                    if index is None:
                        out[:] = source  # bytes
                    elif out is None:
                        for here, there in index:  # stretches of bytes
                            here[:] = there
                    else:
                        source.take(index, 0, out, "clip")  # every index valid: no bounds buffer
                    seen[k] = versions[k]
        for k, b in enumerate(self._rows):
            table = memo.tables[k]
            table.refresh(state)
            order = b.rows.order(state, seat)
            seen = view.rows_seen[k]
            own = view.row_own[k]
            fresh = False  # the own band rewritten
            if own is not None:
                key_of, g, encode, cols, here, zeros, there = own
                key = keys[g] if g is not None else key_of(state, seat)  # an own block's key: this call's
                last = view.row_own_keys[k]
                if key != last or last is _UNSEEN:
                    here[:] = zeros
                    encode(state, seat, cols)
                    view.row_own_keys[k] = key
                    fresh = True
            if seen is not None and seen[0] == table.clock and seen[1] == order:
                if fresh:
                    there[:] = here
                continue  # no row rewritten since this observer gathered them in this order
            plan = view.row_plans[k]
            if plan is None or plan[1] != table.size or plan[0] != order:
                plan = view.row_plans[k] = (order, table.size, table.copies(order, view.row_bytes[k]))
            for to, source in plan[2]:  # stretches of consecutive rows (a rotation: one or two), zeros
                to[:] = source
            if own is not None:
                there[:] = here  # the own band over the row gathered at its place
            view.rows_seen[k] = (table.clock, order)
        if self.fields:
            view.snapshot = snapshot
        return vec.copy()

    def __getstate__(self) -> dict[str, Any]:
        """A copy or pickle of the layout (a deep copy of a game) keeps no spare memos: they belong to
        this layout's states (and a memo copies as None)."""
        fields = self.__dict__.copy()
        fields["_spares"] = []
        return fields

    def _memo_for(self, state: Any) -> _Memo:
        """A memo for a state that has none: the memo of a state of this layout that is gone (its
        buffers and views kept, what it saw forgotten), else a new one. Setting up a memo costs
        about as much as writing every block, and a game's driver or a search drops a state and
        observes a new one (a new game, a clone) all the time."""
        spares = self._spares
        for k, (ref, memo) in enumerate(spares):
            if ref() is None:
                memo.forget()
                try:
                    spares[k] = (weakref.ref(state), memo)
                except TypeError:  # a state that takes no weak reference: never pooled
                    del spares[k]
                return memo
        memo = _Memo(self)
        try:
            ref = weakref.ref(state)
        except TypeError:
            return memo
        if len(spares) >= _SPARES:
            del spares[0]  # the oldest stays with its state
        spares.append((ref, memo))
        return memo

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
_SPARES = 8  # memos of gone states kept per layout for new states (ObservationLayout._memo_for)
_ZEROS: dict[int, bytes] = {}


def _zeroing(data: memoryview, start: int, stop: int, dense: bool = False) -> tuple[Any, Any]:
    """The bytes of floats ``start:stop`` of a float32 buffer's byte view, and zeros of their size
    (None twice for a dense block: its encoder writes every float)."""
    if dense:
        return None, None
    size = 4 * (stop - start)
    zeros = _ZEROS.get(size)
    if zeros is None:
        zeros = _ZEROS[size] = bytes(size)
    return data[4 * start : 4 * stop], zeros


class _View:
    """One observer's last vector, its blocks' views into it, and what each was made from."""

    __slots__ = (
        "vector", "own", "keys", "snapshot", "runs", "plans", "runs_seen", "rows_seen", "row_bytes", "row_plans",
        "row_own", "row_own_keys",
    )  # fmt: skip

    def __init__(self, layout: ObservationLayout, memo: _Memo, state: Any, seat: int):
        self.vector = np.zeros(layout.size, np.float32)
        #: per group of own blocks (one key or key part, or one block's snapshot): (its key or None, its
        #: key part or None, its fields' indices, and per block its encoder, its view into the vector,
        #: its bytes there and zeros, or None twice for a dense block)
        data = memoryview(self.vector).cast("B")
        self.own = [
            (
                key,
                part,
                idx,
                [
                    (
                        b.encode,
                        self.vector[b.offset : b.stop].reshape(b.shape),
                        *_zeroing(data, b.offset, b.stop, b.dense),
                    )
                    for b in blocks
                ],
            )
            for key, part, idx, blocks in layout._own_groups
        ]
        self.keys: list[Any] = [_UNSEEN] * len(layout._own_groups)
        self.snapshot: list[bytes] | None = None
        #: per run of shared blocks: its bytes here and in the memo's vector (a copy), its floats
        #: here, there and the index that gathers them into this observer's frame, or the pairs of
        #: byte stretches (here, there) that do; and the gather plan each framed run was built for
        self.runs: list[tuple] = []
        self.plans: list[Any] = []
        for k, ((start, stop), framed) in enumerate(zip(layout._runs, layout._framed_runs)):
            if not framed:
                self.runs.append((data[4 * start : 4 * stop], memo.run_bytes[k], None))
                self.plans.append(None)
            else:
                self.plans.append(layout._gather(k, state, seat))
                self.runs.append(self._run(layout, memo, k))
        self.runs_seen = [-1] * len(layout._runs)  # the version of each run of shared blocks brought in
        #: per Rows block: (the table's clock, the order) when this observer last gathered it (a row
        #: rewritten since, shown or not, gathers the table again: cheaper than telling which)
        self.rows_seen: list[Any] = [None] * len(layout._rows)
        self.row_bytes = [data[4 * b.offset : 4 * b.stop] for b in layout._rows]
        #: per Rows block: (the order, the table's size, the byte copies that gather it) last built
        self.row_plans: list[Any] = [None] * len(layout._rows)
        #: per Rows block with an own band: (its key function, its encoder, its columns in a scratch
        #: row, that scratch's bytes, zeros of their size, its bytes in the vector), and its last key
        self.row_own: list[tuple | None] = []
        for b in layout._rows:
            own = b.rows.own
            if own is None:
                self.row_own.append(None)
                continue
            start, stop = own.cols
            scratch = np.zeros(stop - start, np.float32)
            at = b.offset + own.place * b.shape[1]
            here, zeros = _zeroing(memoryview(scratch).cast("B"), 0, stop - start)
            there = data[4 * (at + start) : 4 * (at + stop)]
            # an own block's key function: the key that block's check just got (no second call)
            g = next(
                (g for g, group in enumerate(layout._own_groups) if group[0] is own.key and group[1] is None), None
            )
            self.row_own.append((own.key, g, own.encode, scratch, here, zeros, there))
        self.row_own_keys: list[Any] = [_UNSEEN] * len(layout._rows)

    def _run(self, layout: ObservationLayout, memo: _Memo, k: int) -> tuple:
        """Framed run ``k`` as its plan brings it in (see ``runs``)."""
        start, stop = layout._runs[k]
        plan = self.plans[k]
        if type(plan) is not list:
            return (self.vector[start:stop], memo.vector[start:stop], plan)
        data, source = memoryview(self.vector).cast("B"), memo.bytes
        return (
            None,
            None,
            [
                (data[4 * (start + a) : 4 * (start + a + n)], source[4 * (start + b) : 4 * (start + b + n)])
                for a, b, n in plan
            ],
        )

    def reuse(self, layout: ObservationLayout, memo: _Memo, state: Any, seat: int) -> _View:
        """This view, of a memo taken over from a state that is gone, for observer ``seat`` of
        ``state``: nothing seen yet, and each framed run's gather that of this observer's frame."""
        self.keys = [_UNSEEN] * len(self.keys)
        self.snapshot = None
        self.runs_seen = [-1] * len(self.runs_seen)
        self.rows_seen = [None] * len(self.rows_seen)
        self.row_plans = [None] * len(self.row_plans)
        self.row_own_keys = [_UNSEEN] * len(self.row_own_keys)
        for k, framed in enumerate(layout._framed_runs):
            if framed:
                plan = layout._gather(k, state, seat)
                if plan is not self.plans[k]:
                    self.plans[k] = plan
                    self.runs[k] = self._run(layout, memo, k)
        return self


class _RowTable:
    """Every absolute row of one Rows block, each band of each written once under its key (the last
    row: zeros); the clock moves whenever a band of a row is rewritten. Bands that give the very same
    keys function share one call of it and are rewritten together."""

    __slots__ = ("rows", "bands", "groups", "matrix", "writes", "keys", "zero", "clock", "size")

    def __init__(self, rows: Rows):
        self.rows = rows
        self.bands = _bands(rows)
        groups: dict[Any, list[Band]] = {}
        for band in self.bands:
            groups.setdefault(band.keys, []).append(band)
        self.groups = list(groups.items())  # (keys function, its bands)
        self.matrix = np.zeros((1, rows.shape[1]), np.float32)
        #: per group, per row: per band (its encoder, its view into the matrix, its bytes there, zeros)
        self.writes: list[list[list[tuple]]] = []
        self.keys: list[list[Any]] = []  # per group, per row: the key its bands were written under
        self.zero = 0
        self.clock = 0
        self.size = 0  # counts the matrices built: a gather's copies are of one

    def copies(self, order: Sequence[int], out: memoryview) -> list[tuple[memoryview, Any]]:
        """How ``order`` is gathered into ``out`` (a block's bytes): ``(bytes there, bytes here or
        zeros)`` pairs, one per stretch of places showing consecutive rows (a rotation of the rows:
        one or two) or zeros (-1)."""
        width = 4 * self.rows.shape[1]
        source = memoryview(self.matrix).cast("B")
        pairs: list[tuple[memoryview, Any]] = []
        place = 0
        while place < len(order):
            r, end = order[place], place + 1
            while end < len(order) and (order[end] < 0 if r < 0 else order[end] == r + end - place):
                end += 1
            here = out[place * width : end * width]
            if r < 0:
                pairs.append((here, bytes((end - place) * width)))
            else:
                pairs.append((here, source[r * width : (r + end - place) * width]))
            place = end
        return pairs

    def forget(self) -> None:
        """Every row unseen (rewritten on the next refresh)."""
        self.keys = [[_UNSEEN] * self.zero for _ in self.groups]

    def refresh(self, state: Any) -> None:
        count = self.rows.count(state)
        if count != self.zero:  # the table size changed (a new state): start over
            width = self.rows.shape[1]
            self.matrix = np.zeros((count + 1, width), np.float32)
            data = memoryview(self.matrix).cast("B")
            self.writes = [
                [
                    [
                        (
                            b.encode,
                            self.matrix[r, b.cols[0] : b.cols[1]],
                            *_zeroing(data, r * width + b.cols[0], r * width + b.cols[1]),
                        )
                        for b in bands
                    ]
                    for r in range(count)
                ]
                for _, bands in self.groups
            ]
            self.keys = [[_UNSEEN] * count for _ in self.groups]
            self.zero = count
            self.size += 1  # the gathers' copies were of the old matrix
        for g, (keys_of, _) in enumerate(self.groups):
            keys = keys_of(state)
            if type(keys) is not list:
                keys = list(keys)
            last = self.keys[g]
            if keys == last:  # these bands as they were in every row (_UNSEEN equals no key)
                continue
            if len(keys) != count:
                raise ValueError(f"rows {self.rows.name!r}: a band's keys() gave {len(keys)} keys for {count} rows")
            writes = self.writes[g]
            for r in range(count):
                if keys[r] == last[r] and last[r] is not _UNSEEN:
                    continue
                for encode, out, zero, zeros in writes[r]:
                    zero[:] = zeros
                    encode(state, r, out)
            self.clock += 1
            self.keys[g] = keys


def _no_memo() -> None:
    return None


class _Memo:
    """What :meth:`ObservationLayout.encode` keeps on a state (``state._obs_memo``, never in its JSON):
    a view per observer, the shared blocks written once for all of them, and the row tables."""

    __slots__ = (
        "layout", "views", "spare_views", "vector", "bytes", "outs", "snapshot", "keys", "run_versions", "run_bytes",
        "tables",
    )  # fmt: skip

    def __init__(self, layout: ObservationLayout):
        self.layout = layout
        self.views: dict[int, _View] = {}
        self.spare_views: list[_View] = []  # the views of the state this memo served before
        self.vector = np.zeros(layout.size, np.float32)
        data = self.bytes = memoryview(self.vector).cast("B")
        #: per group of shared blocks (one key, or one block's snapshot), resolved once: its key
        #: function, its fields' indices, and per block its encoder (in the absolute frame), its view
        #: into the vector, its bytes there and zeros of their size, and its run
        self.outs = [
            (
                key,
                part,
                idx,
                [
                    (
                        b.absolute,
                        self.vector[b.offset : b.stop].reshape(b.shape),
                        *_zeroing(data, b.offset, b.stop, b.dense),
                        run,
                    )
                    for b, run in blocks
                ],
            )
            for key, part, idx, blocks in layout._shared_groups
        ]
        self.snapshot: list[bytes] | None = None
        self.keys: list[Any] = [_UNSEEN] * len(layout._shared_groups)
        self.run_versions = [0] * len(layout._runs)  # counts the rewrites of a run's blocks
        self.run_bytes = [data[4 * start : 4 * stop] for start, stop in layout._runs]
        self.tables = [_RowTable(b.rows) for b in layout._rows]

    def __reduce__(self) -> tuple:
        """A copy or pickle of a state carries no memo (its views hold buffers and the layout's
        functions): the copy builds its own on its first observation."""
        return _no_memo, ()

    def view(self, state: Any, seat: int) -> _View:
        """A view for observer ``seat``: a spare one reset, else a new one."""
        if self.spare_views:
            return self.spare_views.pop().reuse(self.layout, self, state, seat)
        return _View(self.layout, self, state, seat)

    def forget(self) -> None:
        """Everything seen, for a new state (the buffers and views stay): every block is written on
        the next observation as on a new memo's first."""
        self.spare_views += self.views.values()
        self.views = {}
        self.snapshot = None
        self.keys = [_UNSEEN] * len(self.keys)
        for table in self.tables:
            table.forget()

    def refresh_shared(self, state: Any, snapshot: list[bytes], seat: int) -> None:
        old, keys, versions = self.snapshot, self.keys, self.run_versions
        called = value = None  # the last key function called, and what it gave
        for k, (key_of, part, idx, writes) in enumerate(self.outs):
            if key_of is not None:
                if key_of is not called:
                    value = key_of(state, seat)
                    called = key_of
                key = value if part is None else value[part]
                last = keys[k]
                if key == last and last is not _UNSEEN:
                    continue
                keys[k] = key
            elif old is not None and not any(snapshot[i] != old[i] for i in idx):
                continue
            for encode, out, zero, zeros, run in writes:
                if zero is not None:
                    zero[:] = zeros
                encode(state, seat, out)
                versions[run] += 1
        self.snapshot = snapshot
