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

:meth:`ObservationLayout.encode` is the observation with the memo: it keeps, on the state, each
observer's last vector and a snapshot of every read field (``marshal`` bytes, so a field edited in
place is seen too), and rewrites only the blocks whose fields changed.
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

    @property
    def stop(self) -> int:
        return self.offset + self.size

    def spec(self) -> Block:
        """The block as declared (to build another layout from it)."""
        return Block(self.name, self.shape, self.doc, self.encode, self.reads, self.shared)


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
            spec = entry if isinstance(entry, Block) else Block(*entry)
            shape = (spec.shape,) if isinstance(spec.shape, int) else tuple(spec.shape)
            size = int(np.prod(shape))
            if isinstance(spec.reads, str):
                raise TypeError(f"block {spec.name!r}: reads must be a tuple of field names, not {spec.reads!r}")
            self.blocks.append(
                ObservationBlock(spec.name, shape, offset, size, spec.doc, spec.encode, tuple(spec.reads), spec.shared)
            )
            offset += size
        self.size = offset
        self._by_name = {b.name: b for b in self.blocks}
        if len(self._by_name) != len(self.blocks):
            raise ValueError("observation blocks need distinct names")
        self.encodable = bool(self.blocks) and all(b.encode is not None for b in self.blocks)
        # the memo's plan: every field any block reads, once, and each block's fields by index
        self.fields: tuple[str, ...] = tuple(dict.fromkeys(f for b in self.blocks for f in b.reads))
        index = {f: i for i, f in enumerate(self.fields)}
        self._plan = [(b, tuple(index[f] for f in b.reads)) for b in self.blocks]
        self._own = [(b, idx) for b, idx in self._plan if not b.shared]
        self._shared = [(b, idx) for b, idx in self._plan if b.shared]

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
        """The observation of ``seat``, rewriting only the blocks whose read fields changed since
        this observer's last call on this state (a new array each call)."""
        memo = getattr(state, "_obs_memo", None)
        if memo is None or memo.layout is not self:
            memo = _Memo(self)
            state._obs_memo = memo
        snapshot = self._snapshot(state)
        view = memo.views.get(seat)
        if view is None:
            view = memo.views[seat] = _View(self)
        old = view.snapshot
        if old is None:
            changed = None
        else:
            changed = [a != b for a, b in zip(snapshot, old)]
        outs = view.outs
        for k, (b, idx) in enumerate(self._own):
            if changed is None or any(changed[i] for i in idx):
                out = outs[k]
                out.fill(0.0)
                b.encode(state, seat, out)
        if self._shared:
            memo.refresh_shared(state, snapshot, seat)
            vec = view.vector
            for b, idx in self._shared:
                if changed is None or any(changed[i] for i in idx):
                    vec[b.offset : b.stop] = memo.vector[b.offset : b.stop]
        view.snapshot = snapshot
        return view.vector.copy()

    def _snapshot(self, state: Any) -> list[bytes]:
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


class _View:
    """One observer's last vector, its blocks' views into it, and the field snapshot it was made at."""

    __slots__ = ("vector", "outs", "snapshot")

    def __init__(self, layout: ObservationLayout):
        self.vector = np.zeros(layout.size, np.float32)
        self.outs = [self.vector[b.offset : b.stop].reshape(b.shape) for b, _ in layout._own]
        self.snapshot: list[bytes] | None = None


class _Memo:
    """What :meth:`ObservationLayout.encode` keeps on a state (``state._obs_memo``, never in its JSON):
    a view per observer, and the shared blocks written once for all of them."""

    __slots__ = ("layout", "views", "vector", "outs", "snapshot")

    def __init__(self, layout: ObservationLayout):
        self.layout = layout
        self.views: dict[int, _View] = {}
        self.vector = np.zeros(layout.size, np.float32)
        self.outs = [self.vector[b.offset : b.stop].reshape(b.shape) for b, _ in layout._shared]
        self.snapshot: list[bytes] | None = None

    def refresh_shared(self, state: Any, snapshot: list[bytes], seat: int) -> None:
        old = self.snapshot
        for k, (b, idx) in enumerate(self.layout._shared):
            if old is None or any(snapshot[i] != old[i] for i in idx):
                out = self.outs[k]
                out.fill(0.0)
                b.encode(state, seat, out)
        self.snapshot = snapshot
