"""Playing herozoo games against (and beside) bots: one game session used by both front ends.

- :mod:`training.playing.session`: env id + options + seed + seat specs -> a :class:`Session` that
  holds the rules state, plays the bots until a person must decide, records every action, and gives
  the view from a seat, the legal actions (numbered, described, grouped by kind) and hints;
- :mod:`training.playing.replay`: the replay file (env id, options, seed, seats, actions);
- :mod:`training.playing.boards`: per game, state + seat -> the board as JSON-able components;
- ``static/``: the browser page served by ``python -m training.serve``.

The terminal front end is ``python -m training.play``, the browser one ``python -m training.serve``.
"""
