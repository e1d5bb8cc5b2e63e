"""Heroes and Monsters: a cooperative deck-builder for 1-4 generals (see docs/heroes_and_monsters.md).

The package's roles: ``content.py`` (the tables), ``actions.py`` (the action layout), ``game.py``
(the Game and its options), ``state.py`` (the State), the rules as plain functions in ``setup.py``,
``turn.py``, ``combat.py``, ``invasion.py`` and ``effects.py``, ``validation.py`` (the checks of a
JSON state), ``text.py``, ``observation.py``, ``heuristic.py``, ``board.py``, ``docs.py``, ``env.py``.
"""
