"""Flat action spaces built from named blocks, so that no code ever types an action id.

A game declares its layout once::

    LAYOUT = ActionLayout([
        ("PLAY_AMMO", {"kind": 15, "slot": 2}),
        ("LOAD", {"kind": 15}),
        ("END_TURN", {}),
    ])

Ids are assigned block by block in declaration order; inside a block the arguments are
row-major (the last argument varies fastest). ``LAYOUT.encode("PLAY_AMMO", kind=3, slot=1)``
gives the id, ``LAYOUT.decode(a)`` gives ``("PLAY_AMMO", (3, 1))`` back, and
``LAYOUT.markdown_table()`` documents the whole space.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product


@dataclass(frozen=True)
class ActionBlock:
    """One named block of consecutive action ids."""

    name: str
    arg_names: tuple[str, ...]
    arg_sizes: tuple[int, ...]
    start: int
    size: int
    doc: str = ""

    @property
    def stop(self) -> int:
        return self.start + self.size

    def signature(self) -> str:
        if not self.arg_names:
            return self.name
        return f"{self.name}({', '.join(self.arg_names)})"


class ActionLayout:
    """Named blocks of flat action ids with O(1) encode and decode."""

    def __init__(self, blocks: Sequence[tuple]):
        self.blocks: list[ActionBlock] = []
        self._by_name: dict[str, ActionBlock] = {}
        names_by_id: list[str] = []
        args_by_id: list[tuple[int, ...]] = []
        start = 0
        for entry in blocks:
            name, args = entry[0], entry[1]
            doc = entry[2] if len(entry) > 2 else ""
            if name in self._by_name:
                raise ValueError(f"action block {name!r} is declared twice")
            if not isinstance(args, Mapping):
                raise TypeError(f"block {name!r}: arguments must be a mapping name -> size")
            arg_names = tuple(args)
            arg_sizes = tuple(int(s) for s in args.values())
            if any(s < 1 for s in arg_sizes):
                raise ValueError(f"block {name!r}: every argument size must be >= 1")
            size = 1
            for s in arg_sizes:
                size *= s
            block = ActionBlock(name, arg_names, arg_sizes, start, size, doc)
            self.blocks.append(block)
            self._by_name[name] = block
            for index in product(*(range(s) for s in arg_sizes)):
                names_by_id.append(name)
                args_by_id.append(tuple(index))
            start += size
        self.num_actions = start
        self._names_by_id = tuple(names_by_id)
        self._args_by_id = tuple(args_by_id)

    def __len__(self) -> int:
        return self.num_actions

    def block(self, name: str) -> ActionBlock:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no action block {name!r}; blocks are {list(self._by_name)}") from None

    def start(self, name: str) -> int:
        """First id of a block (useful for vectorised masks over a whole block)."""
        return self.block(name).start

    def encode(self, name: str, *args: int, **kwargs: int) -> int:
        """Id of ``name`` with the given arguments (positional or by argument name)."""
        block = self.block(name)
        if kwargs:
            if args:
                raise TypeError("pass the arguments either by position or by name, not both")
            missing = [a for a in block.arg_names if a not in kwargs]
            extra = [k for k in kwargs if k not in block.arg_names]
            if missing or extra:
                raise TypeError(f"{block.signature()} got arguments {sorted(kwargs)}")
            args = tuple(kwargs[a] for a in block.arg_names)
        if len(args) != len(block.arg_names):
            raise TypeError(f"{block.signature()} takes {len(block.arg_names)} arguments, got {len(args)}")
        offset = 0
        for value, size, arg in zip(args, block.arg_sizes, block.arg_names):
            if not 0 <= value < size:
                raise ValueError(f"{block.signature()}: {arg}={value} is outside 0..{size - 1}")
            offset = offset * size + value
        return block.start + offset

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(block name, argument tuple)`` of an id."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is outside 0..{self.num_actions - 1}")
        return self._names_by_id[action], self._args_by_id[action]

    def name_of(self, action: int) -> str:
        return self._names_by_id[action]

    def args_of(self, action: int) -> tuple[int, ...]:
        return self._args_by_id[action]

    def label(self, action: int) -> str:
        """Generic label, e.g. ``PLAY_AMMO(kind=3, slot=1)``; games add richer wording."""
        name, args = self.decode(action)
        block = self._by_name[name]
        if not args:
            return name
        inner = ", ".join(f"{a}={v}" for a, v in zip(block.arg_names, args))
        return f"{name}({inner})"

    def markdown_table(self) -> str:
        """The action space as a Markdown table (ids, block, arguments, meaning)."""
        rows = ["| Ids | Action | Arguments | Meaning |", "|---|---|---|---|"]
        for b in self.blocks:
            ids = str(b.start) if b.size == 1 else f"{b.start}-{b.stop - 1}"
            arguments = ", ".join(f"{n} ({s})" for n, s in zip(b.arg_names, b.arg_sizes)) or "-"
            rows.append(f"| {ids} | `{b.name}` | {arguments} | {b.doc} |")
        rows.append(f"\nTotal: {self.num_actions} actions.")
        return "\n".join(rows)
