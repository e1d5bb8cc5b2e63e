"""Board views: per game, ``state + seat -> JSON-able dict`` of board components for the browser.

Each game has a module here named after it (``last_heroes.py`` for ``last_heroes_v0``) with

- ``board(state, seat) -> dict``: the board as ``seat`` may see it (never another seat's hidden
  cards, deck orders or secret picks); it reads only public state and that seat's own cards;
- ``action_keys(state, action) -> list[str]``: the board items (their ``key``) that a legal action
  of the seat to play names, so that clicking a card or monster picks its action;
- optionally ``public_description(state, action, seat, text) -> str``: what the other seats are told
  of ``seat``'s move (default: ``describe_action`` itself, when nothing about it is secret).

A game without a module gets :func:`generic_board`: its ``render(seat)`` text. The browser draws
every view with one generic renderer, so the vocabulary is small:

``{"title", "status", "sections": [section]}``; a section is ``{"title", "layout": "row" | "grid",
"columns"?, "items": [item], "owner"?, "you"?, "active"?}``; an item is ``{"type": "card" | "monster" |
"tile" | "token" | "track" | "hidden" | "empty", "name", "key"?, "values": [[label, value], ...],
"text"?, "tags": [...], "color"?, "value"?, "max"?, "count"?}``.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

LOG = logging.getLogger(__name__)


# -- component helpers ------------------------------------------------------------------------------


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


# -- dispatch ---------------------------------------------------------------------------------------


def _module(env_id: str):
    from training.playing.session import game_name

    try:
        return importlib.import_module(f"{__name__}.{game_name(env_id)}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{game_name(env_id)}":
            raise
        return None


def _reference(state: Any) -> Any:
    """The readable Python state (a compiled Last Heroes state rebuilds one)."""
    ref = getattr(state, "reference", None)
    return ref() if ref is not None else state


def generic_board(state: Any, seat: int, note: str | None = None) -> dict[str, Any]:
    """The board of a game without a board module: its text render from ``seat``."""
    lines = state.render(seat).splitlines()
    items = [item("text", line) for line in lines[1:]]
    view = {"title": lines[0] if lines else type(state).__name__, "status": "", "generic": True}
    view["sections"] = [section("Table", items, layout="column")]
    if note:
        view["note"] = note
    return view


def board_view(env_id: str, state: Any, seat: int) -> dict[str, Any]:
    """The board of ``state`` as ``seat`` may see it (see the module doc)."""
    module = _module(env_id)
    if module is None:
        return generic_board(state, seat)
    view = module.board(_reference(state), seat)
    view.setdefault("generic", False)
    return view


def action_keys(env_id: str, state: Any, action: int) -> list[str]:
    """The keys of the board items a legal action names (empty when it names none)."""
    module = _module(env_id)
    if module is None:
        return []
    try:
        return [k for k in module.action_keys(_reference(state), int(action)) if k]
    except (IndexError, KeyError, TypeError, ValueError):  # an action that names an empty place
        return []


def public_description(env_id: str, state: Any, action: int, seat: int, text: str) -> str:
    """What the other seats are told of ``seat`` playing ``action`` (``text``: its full words)."""
    module = _module(env_id)
    tell = getattr(module, "public_description", None)
    if tell is None:
        return text
    return tell(_reference(state), int(action), seat, text)


__all__ = [
    "action_keys",
    "board_view",
    "card",
    "empty",
    "generic_board",
    "hidden",
    "item",
    "monster",
    "public_description",
    "section",
    "tile",
    "token",
    "track",
]
