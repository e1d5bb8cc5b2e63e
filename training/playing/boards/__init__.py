"""Board views: per game, ``state + seat -> JSON-able dict`` of board components for the browser.

Each game has a module ``envs/<game>/board.py`` (``envs/last_heroes/board.py`` for ``last_heroes_v0``),
built from the components of :mod:`envs.core.board`, with

- ``board(state, seat) -> dict``: the board as ``seat`` may see it (never another seat's hidden
  cards, deck orders or secret picks); it reads only public state and that seat's own cards;
- ``action_keys(state, action) -> list[str]``: the board items (their ``key``) that a legal action
  of the seat to play names, so that clicking a card or monster picks its action;
- optionally ``public_description(state, action, seat, text) -> str``: what the other seats are told
  of ``seat``'s move (default: ``describe_action`` itself, when nothing about it is secret).

A game without a module gets :func:`generic_board`: its ``render(seat)`` text. The browser draws
every view with one generic renderer; the vocabulary is in :mod:`envs.core.board`.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from envs.core.board import card, empty, hidden, item, monster, section, tile, token, track  # noqa: F401

LOG = logging.getLogger(__name__)


# -- dispatch ---------------------------------------------------------------------------------------


def _module(env_id: str):
    from training.playing.session import game_name

    try:
        return importlib.import_module(f"envs.{game_name(env_id)}.board")
    except ModuleNotFoundError as e:
        if e.name != f"envs.{game_name(env_id)}.board":
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
