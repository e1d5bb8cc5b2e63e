"""The schema machinery both config files share (training/config.py for SB3, training/rllib/config.py).

A config is a dataclass of sections, each a dataclass whose fields are :func:`setting` s: a
default, a line of help, and the values allowed. This module reads YAML into them strictly and
names every problem:

- a file may leave out any key (the default is used) but may not add one: an unknown key is an
  error naming the full dotted key, the keys allowed there and the closest one;
- values are plain YAML data; ``3e-4`` reads as a number (plain PyYAML reads a string) and a
  duplicate key is an error;
- types are strict: ``true`` is not an int, ``"abc"`` is not a number, ``2.0`` is an int only
  because it is integral; numbers must be finite;
- every error is a :class:`ConfigError` (a ``ValueError``) listing every problem found.
"""

from __future__ import annotations

import copy
import difflib
import io
import math
import os
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, field, fields
from pathlib import Path
from typing import Any

import yaml


class ConfigError(ValueError):
    """A config that cannot be used; ``errors`` holds one line per problem."""

    def __init__(
        self,
        errors: str | list[str],
        source: str | None = None,
        *,
        headline: str | None = "invalid",
        kind: str = "training config",
    ):
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        self.source = source
        head = f"{source}: " if source else ""
        head += f"{headline} {kind}" if headline else ""
        if len(self.errors) == 1:
            message = f"{head}: {self.errors[0]}" if headline else f"{head}{self.errors[0]}"
        else:
            message = f"{head} ({len(self.errors)} problems):\n" + "\n".join(f"  - {e}" for e in self.errors)
        super().__init__(message)


def setting(
    default: Any,
    help: str,
    *,
    choices: tuple | None = None,
    gt: float | None = None,
    ge: float | None = None,
    le: float | None = None,
) -> Any:
    """A config field: its default, its help line, and the values it allows (checked on load)."""
    meta = {"help": help, "choices": choices, "gt": gt, "ge": ge, "le": le}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata=meta)
    return field(default=default, metadata=meta)


# -- YAML ------------------------------------------------------------------------------------------
class _Loader(yaml.SafeLoader):
    """SafeLoader that reads ``1e-4`` as a float (YAML 1.2) and rejects duplicate keys."""

    def construct_mapping(self, node, deep=False):
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                dup = key in seen
            except TypeError:
                continue  # unhashable key: let PyYAML report it
            if dup:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark, f"found duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)


def yaml_load(text: str | io.StringIO) -> Any:
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass


def read_yaml_file(path: str | os.PathLike, kind: str = "config") -> Any:
    """The data of a YAML file, or a ConfigError that says why it cannot be read."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = sorted(q.name for q in p.parent.glob("*.yaml")) if p.parent.is_dir() else []
        hint = f" (YAML files in {p.parent}/: {', '.join(known)})" if known else ""
        raise ConfigError(f"{kind} file not found: {p}{hint}", headline=None) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {kind} file {p}: {e}", headline=None) from None
    stream = io.StringIO(text)
    stream.name = str(p)  # PyYAML names the file in its error marks
    try:
        return yaml_load(stream)
    except yaml.YAMLError as e:
        raise ConfigError(f"invalid YAML in {kind} file {p}: {e}", headline=None) from None


# -- types and checks ------------------------------------------------------------------------------
def type_name(tp: Any) -> str:
    """How a type reads in the docs table and in error messages."""
    if tp is Any:
        return "any"
    origin = typing.get_origin(tp)
    if origin in _UNIONS:
        return " or ".join(type_name(a) for a in typing.get_args(tp))
    if origin is None:
        return "null" if tp is type(None) else tp.__name__
    args = typing.get_args(tp)
    if origin is dict and args and args[1] is Any:
        return "dict"
    return f"{origin.__name__}[{', '.join(type_name(a) for a in args)}]"


_UNIONS = (typing.Union, types.UnionType)
_EXPECTED = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


class BadValue(Exception):
    pass


def coerce(value: Any, tp: Any, key: str) -> Any:
    """``value`` as type ``tp`` (int -> float, integral float -> int), or BadValue naming the key."""

    def bad(expected: str):
        return BadValue(f"{key}: expected {expected}, got {value!r} ({type(value).__name__})")

    if tp is Any:
        return copy.deepcopy(value)
    if typing.get_origin(tp) in _UNIONS:  # e.g. int | str: the first type that takes it
        for option in typing.get_args(tp):
            if option is type(None):
                if value is None:
                    return None
                continue
            try:
                return coerce(value, option, key)
            except BadValue:
                pass
        raise bad(type_name(tp))
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise bad(_EXPECTED[bool])
    if tp is int:
        if isinstance(value, bool):
            raise bad(_EXPECTED[int])
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise bad(_EXPECTED[int])
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise bad("a finite number")
            return float(value)
        raise bad(_EXPECTED[float])
    if tp is str:
        if isinstance(value, str):
            return value
        raise bad(_EXPECTED[str])
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise bad(f"a list ({type_name(tp)})")
        return [coerce(v, args[0], f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, Mapping):
            raise bad(f"a mapping ({type_name(tp)})")
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise BadValue(f"{key}: keys must be strings, got {k!r} ({type(k).__name__})")
            out[k] = coerce(v, args[1], f"{key}.{k}")
        return out
    raise TypeError(f"unsupported config type {tp!r} for {key}")  # a bug in a schema, not in the config


def constraint_text(meta: Mapping[str, Any]) -> str:
    if meta.get("choices"):
        return "one of " + ", ".join(f'"{c}"' for c in meta["choices"])
    parts = [f"{op} {meta[k]:g}" for k, op in (("gt", ">"), ("ge", ">="), ("le", "<=")) if meta.get(k) is not None]
    return " and ".join(parts)


def check_range(value: Any, meta: Mapping[str, Any], key: str) -> str | None:
    """The error line when ``value`` is outside what the field's metadata allows, else None."""
    choices, gt, ge, le = meta.get("choices"), meta.get("gt"), meta.get("ge"), meta.get("le")
    if choices is not None and value not in choices:
        return f"{key}: {value!r} is not allowed; allowed values are {list(choices)}"
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None  # a non-number (an "auto", a null) is for the section's own checks
    too_low = (gt is not None and not value > gt) or (ge is not None and not value >= ge)
    if too_low or (le is not None and not value <= le):
        return f"{key}: {value!r} is out of range; it must be {constraint_text(meta)}"
    return None


def unknown_key_error(key: str, name: str, allowed: Iterable[str], where: str) -> str:
    allowed = list(allowed)
    close = difflib.get_close_matches(name, allowed, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key {key!r}{hint}; allowed keys {where} are {allowed}"


def hints(cls: type) -> dict[str, Any]:
    import sys

    return typing.get_type_hints(cls, globalns=vars(sys.modules[cls.__module__]))


# -- sections --------------------------------------------------------------------------------------
def sections_from_dict(data: Any, sections: Mapping[str, type]) -> tuple[dict[str, Any], list[str]]:
    """Each section's dataclass built from nested dicts (missing keys take their defaults), and
    the list of every unknown key and bad type found (values in range: :func:`range_errors`)."""
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        return {}, [f"expected a mapping of sections {list(sections)}, got {type(data).__name__}"]
    errors: list[str] = []
    for name in data:
        if name not in sections:
            errors.append(unknown_key_error(str(name), str(name), sections, "at the top level (sections)"))
    built: dict[str, Any] = {}
    for name, cls in sections.items():
        raw = data.get(name)
        if raw is None:  # absent, or a section whose every line is commented out
            raw = {}
        if not isinstance(raw, Mapping):
            errors.append(f"{name}: expected a mapping of settings, got {raw!r} ({type(raw).__name__})")
            continue
        types = hints(cls)
        allowed = [f.name for f in fields(cls)]
        kwargs = {}
        for key, value in raw.items():
            if key not in types:
                errors.append(unknown_key_error(f"{name}.{key}", str(key), allowed, f"in section {name!r}"))
                continue
            try:
                kwargs[key] = coerce(value, types[key], f"{name}.{key}")
            except BadValue as e:
                errors.append(str(e))
        built[name] = cls(**kwargs)
    return built, errors


def range_errors(built: Mapping[str, Any]) -> list[str]:
    """Every value outside its field's choices or bounds, over built sections."""
    errors = []
    for name, section in built.items():
        for f in fields(section):
            problem = check_range(getattr(section, f.name), f.metadata, f"{name}.{f.name}")
            if problem:
                errors.append(problem)
    return errors


def sections_to_dict(cfg: Any, sections: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Plain nested dicts (sections in order, keys in field order), ready for YAML."""
    return {
        name: {f.name: copy.deepcopy(getattr(section, f.name)) for f in fields(section)}
        for name, section in ((n, getattr(cfg, n)) for n in sections)
    }


def apply_overrides(data: dict, overrides: Iterable[str], sections: Mapping[str, type], kind: str) -> dict:
    """``section.key=value`` overrides applied to nested dicts (in place; returned).

    Values are YAML (``ppo.net_arch=[64,64]``, ``run.progress=false``); a string setting takes the
    text as written (``run.exp_name=007`` stays ``"007"``). A dotted path may go deeper
    (``env.options.num_players=4``). Unknown keys are left for :func:`sections_from_dict` to name.
    """
    for item in overrides:
        key, sep, text = str(item).partition("=")
        key = key.strip()
        if not sep or "." not in key or any(not part for part in key.split(".")):
            raise ConfigError(f"override {item!r}: expected section.key=value, e.g. run.seed=3", headline=None)
        try:
            value = yaml_load(text)
        except yaml.YAMLError as e:
            raise ConfigError(f"override {item!r}: invalid YAML value: {e}", headline=None) from None
        path = key.split(".")
        if len(path) == 2 and path[0] in sections and hints(sections[path[0]]).get(path[1]) is str:
            value = text.strip() if not isinstance(value, str) and text.strip() else value
        node: Any = data
        for depth, part in enumerate(path[:-1]):
            if node.get(part) is None:
                node[part] = {}
            node = node[part]
            if not isinstance(node, dict):
                where = ".".join(path[: depth + 1])
                raise ConfigError(f"override {item!r}: {where} holds {node!r}, not a mapping of keys", kind=kind)
        node[path[-1]] = value
    return data


def _flow(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10_000).strip()
    return text[: -len("...")].strip() if text.endswith("...") else text


def describe_sections(sections: Mapping[str, type]) -> str:
    """A Markdown table of every setting: key, type, default, help (with the allowed values)."""
    rows = ["| Key | Type | Default | Help |", "|---|---|---|---|"]
    for name, cls in sections.items():
        types = hints(cls)
        for f in fields(cls):
            default = f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
            help_text = f.metadata.get("help", "")
            allowed = constraint_text(f.metadata)
            if allowed:
                help_text = f"{help_text} ({allowed})"
            rows.append(f"| `{name}.{f.name}` | {type_name(types[f.name])} | `{_flow(default)}` | {help_text} |")
    return "\n".join(rows)
