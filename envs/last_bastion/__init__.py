"""Last Bastion: a cooperative hero-vs-horde game (env id ``last_bastion_v0``).

The package's roles: ``content`` (cards, tiles, heroes: data), ``actions`` (the layout and every action
id), ``game`` (the Game and its options), ``state`` (the State: fields, legality, JSON, outcome),
the rules as plain task functions (``decisions`` holds the task table; ``horde``, ``effects``,
``hero``, ``tiles``, ``combat``, with the shared bookkeeping in ``tokens``), ``text`` (actions and
the table in words), ``observation`` (the observation's blocks, on the core memo), ``analysis`` (the
position's worths, public information only), ``hints`` (the observation's hints block),
``heuristic`` (the rule-based bot), ``board`` (the play view), ``docs`` (doc tables), ``env`` (the
PettingZoo factories).
"""
