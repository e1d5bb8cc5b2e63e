"""Reading a JSON state with every field checked: the shared tool of every ``state_from_json``.

``Game.state_from_json`` is public API (tests, curricula, puzzles and replays build positions with
it), so what it reads is checked before anything is built: each field's presence, type and range,
by its JSON path. A problem is a ``ValueError`` that names the path and what is allowed::

    r = JsonReader(data)
    life = r.int("life", 0, 10)                       # "state.life: expected an integer in 0..10, got -1"
    for i, hero in enumerate(r.items("heroes", length=n)):
        hero.choice("name", HERO_NAMES)             # "state.heroes[2].name: ..."

What no single field says (each card in exactly one place, counts that add up to the box) is the
game's own check, reported with :meth:`JsonReader.fail` at the path where it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np


class JsonReader:
    """A JSON object (a dict) and its path; each accessor checks a field and returns its value."""

    __slots__ = ("data", "path")

    def __init__(self, data: Any, path: str = "state"):
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object, got {_show(data)}")
        self.data = data
        self.path = path

    # -- where ----------------------------------------------------------------------------------
    def at(self, key: str | int) -> str:
        return f"{self.path}[{key}]" if isinstance(key, int) else f"{self.path}.{key}"

    def fail(self, key: str | int | None, message: str) -> ValueError:
        """The ValueError for ``key`` (None: this object itself); raise it."""
        return ValueError(f"{self.path if key is None else self.at(key)}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing")
            return default
        return self.data[key]

    # -- scalars --------------------------------------------------------------------------------
    def int(self, key: str, lo: int | None = None, hi: int | None = None, default: Any = ...) -> int:
        return check_int(self.raw(key, default), self.at(key), lo, hi)

    def optional_int(self, key: str, lo: int | None = None, hi: int | None = None, default: Any = ...) -> int | None:
        value = self.raw(key, default)
        return None if value is None else check_int(value, self.at(key), lo, hi)

    def bool(self, key: str, default: Any = ...) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {_show(value)}")
        return value

    def choice(self, key: str, choices: Sequence[Any], default: Any = ...) -> Any:
        return check_choice(self.raw(key, default), self.at(key), choices)

    # -- containers -----------------------------------------------------------------------------
    def list(self, key: str, length: int | None = None, default: Any = ...) -> list:
        return check_list(self.raw(key, default), self.at(key), length)

    def ints(
        self, key: str, length: int | None = None, lo: int | None = None, hi: int | None = None, default: Any = ...
    ) -> list[int]:
        """A list of integers in ``lo..hi`` (of ``length`` entries, when given)."""
        where = self.at(key)
        return [check_int(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(self.list(key, length, default))]

    def object(self, key: str, default: Any = ...) -> JsonReader:
        return JsonReader(self.raw(key, default), self.at(key))

    def items(self, key: str, length: int | None = None, default: Any = ...) -> list[JsonReader]:
        """A list of JSON objects, each as a reader with its own path."""
        where = self.at(key)
        return [JsonReader(v, f"{where}[{i}]") for i, v in enumerate(self.list(key, length, default))]

    def only_keys(self, allowed: Iterable[str]) -> None:
        """Refuse keys the format does not have (a typo would otherwise be silently ignored)."""
        extra = sorted(str(k) for k in self.data if k not in set(allowed))
        if extra:
            raise self.fail(None, f"unknown key(s) {extra}; the keys are {sorted(allowed)}")

    # -- the generator --------------------------------------------------------------------------
    def rng_state(self, key: str, default: Any = ...) -> np.random.Generator:
        """A numpy Generator restored from its ``bit_generator.state`` (PCG64), or a ValueError."""
        value = self.raw(key, default)
        rng = np.random.default_rng()
        if value is None:
            return rng
        try:
            if not isinstance(value, dict) or value.get("bit_generator") != "PCG64":
                raise ValueError("not a PCG64 state")
            rng.bit_generator.state = value
        except (TypeError, ValueError, KeyError, OverflowError) as e:
            raise self.fail(key, f"not a numpy PCG64 generator state ({e})") from None
        return rng


def check_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi`` (bounds inclusive, None: open), or a ValueError at ``where``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: expected {_range(lo, hi)}, got {_show(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"{where}: expected {_range(lo, hi)}, got {value}")
    return value


def check_choice(value: Any, where: str, choices: Sequence[Any]) -> Any:
    try:
        ok = value in choices
    except TypeError:  # an unhashable value against a set or dict
        ok = False
    if not ok or isinstance(value, (list, dict)):
        shown = list(choices) if len(choices) <= 40 else f"{len(choices)} values, e.g. {list(choices)[:5]}"
        raise ValueError(f"{where}: {_show(value)} is not allowed; allowed: {shown}")
    return value


def check_list(value: Any, where: str, length: int | None = None) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list, got {_show(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"{where}: expected {length} entries, got {len(value)}")
    return value


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"an integer in {lo}..{hi}"
    if lo is not None:
        return f"an integer >= {lo}"
    if hi is not None:
        return f"an integer <= {hi}"
    return "an integer"


def _show(value: Any) -> str:
    text = repr(value)
    return f"{text[:60]}... ({type(value).__name__})" if len(text) > 60 else f"{text} ({type(value).__name__})"
