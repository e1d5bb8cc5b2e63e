"""Board components: the small vocabulary a game's board view (``envs/<game>/board.py``) is built
from, and that the browser (training/playing) draws with one generic renderer.

``{"title", "status", "sections": [section]}``; a section is ``{"title", "layout": "row" | "grid",
"columns"?, "items": [item], "owner"?, "you"?, "active"?}``; an item is ``{"type": "card" | "monster" |
"tile" | "token" | "track" | "hidden" | "empty", "name", "key"?, "values": [[label, value], ...],
"text"?, "tags": [...], "color"?, "value"?, "max"?, "count"?}``.
"""

from __future__ import annotations

from typing import Any


def item(
    type_: str,
    name: str,
    key: str | None = None,
    values: list | None = None,
    tags: list | None = None,
    text: str | None = None,
    color: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type_, "name": str(name), "values": [[str(k), v] for k, v in (values or [])]}
    out["tags"] = [str(t) for t in (tags or []) if t]
    if key is not None:
        out["key"] = key
    if text:
        out["text"] = str(text)
    if color:
        out["color"] = color
    out.update(extra)
    return out


def card(name: str, key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("card", name, key, **kw)


def monster(name: str, key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("monster", name, key, **kw)


def tile(name: str, key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("tile", name, key, **kw)


def token(name: str, value: Any = None, key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("token", name, key, value=value, **kw)


def track(name: str, value: float, maximum: float | None = None, key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("track", name, key, value=value, max=maximum, **kw)


def hidden(name: str, count: int, **kw: Any) -> dict[str, Any]:
    return item("hidden", name, count=int(count), **kw)


def empty(name: str = "empty", key: str | None = None, **kw: Any) -> dict[str, Any]:
    return item("empty", name, key, **kw)


def section(title: str, items: list, layout: str = "row", columns: int | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"title": title, "layout": layout, "items": items}
    if columns is not None:
        out["columns"] = int(columns)
    out.update(extra)
    return out
