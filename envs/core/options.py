"""Declared, validated environment options.

Each game lists its options once as :class:`Option` rows; :func:`resolve_options` fills the
defaults and rejects unknown names and bad values with a message that says what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One environment option: its default, what it accepts, and what it does."""

    name: str
    default: Any
    allowed: str
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = field(default=None, compare=False)

    def validate(self, value: Any) -> Any:
        ok = value in self.choices if self.choices is not None else True
        if ok and self.check is not None:
            try:
                ok = bool(self.check(value))
            except (TypeError, ValueError):
                ok = False
        if not ok:
            raise ValueError(f"option {self.name}={value!r} is not allowed; {self.name} must be {self.allowed}")
        return value


def is_int_in(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def is_number_at_least(low: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= low


def resolve_options(spec: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
    """Defaults filled in, every value checked; unknown names are an error naming the allowed ones."""
    spec = list(spec)
    by_name = {o.name: o for o in spec}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise ValueError(f"{what}: unknown option(s) {unknown}; allowed options are {sorted(by_name)}")
    return {o.name: o.validate(given.get(o.name, o.default)) for o in spec}


def options_markdown_table(spec: Iterable[Option]) -> str:
    rows = ["| Option | Default | Allowed | Effect |", "|---|---|---|---|"]
    for o in spec:
        rows.append(f"| `{o.name}` | `{o.default!r}` | {o.allowed} | {o.doc} |")
    return "\n".join(rows)
