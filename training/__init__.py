"""Training, evaluation and play tools for the herozoo environments, in parts:

- training itself (this package's top level): ``config`` and ``schema`` (the experiment file),
  ``single_agent`` (a seat of a game as a Gymnasium env), ``pool`` (self-play opponents),
  ``train`` (MaskablePPO), ``pretrain`` and ``kickstart`` (cloning, expert iteration), ``release``
  (train, evaluate and ship a bot), ``atomic`` (files written whole or not at all);
- :mod:`training.runtime`: checkpoints, their inference without torch, policy specs
  (``random``, ``heuristic``, a checkpoint path, ``search:...``) and the search;
- :mod:`training.evaluation`: tournaments between policies, the skill ladder, learning curves;
- :mod:`training.playing`: the game session, replays, the terminal and the browser front ends;
- :mod:`training.rllib`: RLlib training of the same games.

The commands are ``python -m training.train | release | evaluate | ladder | play | serve``
(``evaluate``, ``ladder``, ``play`` and ``serve`` start the modules of their parts).
"""
