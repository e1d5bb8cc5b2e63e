"""OpenSpiel's information-set MCTS as a herozoo policy: an outside reference for the skill ladder.

The spec ``openspiel:ismcts[,sims=N][,c=C][,seed=S]`` (needs the ``interop`` extra) plays each
decision with OpenSpiel's Python ``ISMCTSBot`` (random rollouts, observation strings as its
information-state keys, worlds drawn by ``resample_hidden`` through ``envs.openspiel``) on a copy
of the herozoo state: the same game, searched by code that is not ours.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PREFIX = "openspiel:"
DEFAULTS = {"sims": 100, "c": 2.0, "seed": 0}


def parse_spec(spec: str) -> dict[str, Any]:
    """``openspiel:ismcts,...`` as settings; a ValueError says what is wrong."""
    body = spec[len(PREFIX) :] if spec.startswith(PREFIX) else None
    parts = [p.strip() for p in (body or "").split(",") if p.strip()]
    if not parts or parts[0] != "ismcts":
        raise ValueError(f"an OpenSpiel spec is openspiel:ismcts[,sims=N][,c=C][,seed=S], got {spec!r}")
    settings = dict(DEFAULTS)
    for item in parts[1:]:
        key, _, raw = item.partition("=")
        if key not in DEFAULTS:
            raise ValueError(f"{spec!r}: unknown key {key!r}; the keys are {', '.join(DEFAULTS)}")
        try:
            value = float(raw) if key == "c" else int(raw, 10)
        except ValueError:
            raise ValueError(f"{spec!r}: {key}={raw!r} is not a number") from None
        if (key == "sims" and value < 1) or value < 0:
            raise ValueError(f"{spec!r}: {key}={raw!r} is out of range")
        settings[key] = value
    return settings


class OpenSpielISMCTSPolicy:
    """``act(observation, mask, state)``: OpenSpiel's ISMCTSBot's move for ``state.current_player``."""

    def __init__(self, env_id: str, spec: str, seed: int | None = None):
        from open_spiel.python.algorithms import ismcts, mcts

        from envs import openspiel

        self.env_id, self.name = env_id, spec
        self.settings = parse_spec(spec)
        self._seed = self.settings["seed"] if seed is None else seed
        self._openspiel, self._ismcts, self._mcts = openspiel, ismcts, mcts
        self._games: dict[int, Any] = {}
        self.rng = np.random.RandomState(self._seed % 2**32)

    def _bot(self, state):
        n = state.game.num_players
        if n not in self._games:
            options = {o.name: state.game.options[o.name] for o in state.game.option_spec if o.name != "num_players"}
            spec = self._openspiel.parameter_specification(self.env_id)
            params = {k: v for k, v in options.items() if k in spec}
            game = self._openspiel.load_game(self.env_id, players=n, **params)
            evaluator = self._mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
            bot = self._ismcts.ISMCTSBot(
                game,
                evaluator,
                uct_c=self.settings["c"],
                max_simulations=self.settings["sims"],
                random_state=self.rng,
                use_observation_string=True,
            )
            bot.set_resampler(self._openspiel.seeded_resampler(self._seed + n))
            self._games[n] = (game, bot)
        return self._games[n]

    def act(self, observation: Any, action_mask: np.ndarray, state: Any = None) -> int:
        if state is None:
            raise ValueError("the OpenSpiel ISMCTS policy needs the rules state: call act(observation, mask, state)")
        game, bot = self._bot(state)
        return int(bot.step(self._openspiel.wrap_state(game, state)))
