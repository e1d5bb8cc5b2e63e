"""Policies: anything with ``act(observation, action_mask, state=None) -> int``.

A policy *spec* names one, in configs and on the command line:

| Spec | Policy |
|---|---|
| `random` | uniform over the legal actions |
| `heuristic` | the game's rule-based bot (needs the rules state, which every caller here passes) |
| a path | a trained checkpoint (`.json` metadata or `.pt` weights, or a folder holding one) |
| `human` | asks a person at the terminal (for play) |
| `rllib:PATH[#MODULE]` | an RLlib checkpoint of `training.rllib.train`, read without ray (docs/rllib.md) |
| `search:KEY=VALUE,...` | information-set search (`training.runtime.search`), e.g. `search:prior=shipped,sims=200` |
| `openspiel:ismcts[,sims=N]` | OpenSpiel's ISMCTS bot (`training.runtime.openspiel_policy`; the `interop` extra) |

``load_policy(spec, env_id)`` returns the policy; that is how trained checkpoints plug back in as
opponents, partners and bots to play against.

Whoever plays a seat through a game asks :func:`seat_actor` for that seat's actor: a policy may
offer ``seat_actor()``, an object with the same ``act`` that is fed only that seat's successive
observations and may keep state between them to be cheaper (a checkpoint updates its first layer
from the observation entries that changed); a policy without one plays every seat itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

import envs

SPEC_WORDS = ("random", "heuristic", "human")


@runtime_checkable
class Policy(Protocol):
    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int: ...


def spec_error(spec: Any, words: Sequence[str] = SPEC_WORDS) -> str | None:
    """Why ``spec`` names no policy (None when it does): one of ``words``, an existing checkpoint
    path, an ``rllib:`` checkpoint, or a well-formed ``search:`` spec."""
    if not isinstance(spec, str) or not spec.strip():
        return f"a policy spec is a non-empty string, got {spec!r}"
    if spec in words:
        return None
    if spec.startswith("search:") or spec.startswith("openspiel:"):
        if spec.startswith("search:"):
            from training.runtime.search import parse_spec
        else:
            from training.runtime.openspiel_policy import parse_spec
        try:
            parse_spec(spec)
        except ValueError as e:
            return str(e)
        return None
    if not spec_path(spec).exists():
        return f"{spec!r} is neither one of {list(words)}, a search: spec, nor an existing checkpoint path"
    return None


def spec_weights(spec: str, env_id: str) -> list[str]:
    """The ``weights_sha256`` of every herozoo checkpoint ``spec`` plays with (a path; a search's
    prior, leaf and partners, ``shipped`` read as the game's shipped file), sorted; none for the
    words, ``rllib:`` and ``openspiel:`` specs. Results and ladders keep them: a path such as
    ``checkpoints/<game>/<game>.json`` holds whichever network was released last, the fingerprint
    says which one was played."""
    from training.runtime.checkpoints import read_checkpoint_metadata

    if spec.startswith("search:"):
        from training.runtime.search import _resolve_word, parse_spec

        config = parse_spec(spec)
        words = ("uniform", "heuristic", "random", "value")
        paths = [_resolve_word(x, env_id) for x in (config.prior, config.leaf, config.others) if x and x not in words]
    elif spec in SPEC_WORDS or spec.startswith(("rllib:", "openspiel:", "<")):
        paths = []
    else:
        paths = [spec]
    return sorted({str(read_checkpoint_metadata(path)["weights_sha256"]) for path in paths})


def spec_path(spec: str) -> Path:
    """The file or folder a checkpoint spec names (``rllib:PATH#MODULE`` -> ``PATH``)."""
    if spec.startswith("rllib:"):
        from training.rllib.export import split_spec

        return Path(split_spec(spec)[0])
    return Path(spec)


def seat_actor(policy: Policy) -> Policy:
    """What plays one seat of one game for ``policy``: its ``seat_actor()`` if it has one, else itself."""
    make = getattr(policy, "seat_actor", None)
    return make() if make is not None else policy


class RandomPolicy:
    """Uniform over the legal actions."""

    def __init__(self, seed: int | None = None):
        self.name = "random"
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("the action mask allows no action")
        return int(legal[self.rng.integers(len(legal))])


class HeuristicPolicy:
    """The game's rule-based bot. It reads the rules state (only what its seat may know)."""

    def __init__(self, env_id: str, seed: int | None = None):
        self.name = "heuristic"
        self.bot = envs.heuristic_bot(env_id, seed=seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if state is None:
            raise ValueError("the heuristic policy needs the rules state: call act(observation, mask, state)")
        return int(self.bot.act_state(state))


class HumanPolicy:
    """Asks a person: prints the legal actions with their meaning and reads an id."""

    def __init__(self, env_id: str, input_fn=input, print_fn=print):
        self.name = "human"
        self.input_fn, self.print_fn = input_fn, print_fn

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if state is not None:
            for a in legal:
                self.print_fn(f"  {a:4d}: {state.describe_action(a)}")
        while True:
            answer = self.input_fn(f"your action ({len(legal)} legal): ").strip()
            if answer.isdigit() and int(answer) in legal:
                return int(answer)
            self.print_fn(f"{answer!r} is not one of the legal ids {legal}")


def load_policy(spec: str, env_id: str, seed: int | None = None, deterministic: bool = True) -> Policy:
    """The policy named by ``spec`` for ``env_id`` (see the module table)."""
    if env_id not in envs.ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; registered ids are {list(envs.ENV_IDS)}")
    if spec == "random":
        return RandomPolicy(seed)
    if spec == "heuristic":
        return HeuristicPolicy(env_id, seed)
    if spec == "human":
        return HumanPolicy(env_id)
    if spec.startswith("search:"):
        from training.runtime.search import load_search_policy

        return load_search_policy(spec, env_id, seed=seed)
    if spec.startswith("openspiel:"):
        from training.runtime.openspiel_policy import OpenSpielISMCTSPolicy

        return OpenSpielISMCTSPolicy(env_id, spec, seed=seed)
    if spec.startswith("rllib:"):
        from training.rllib.export import load_rllib_policy  # numpy only: imports neither ray nor torch

        return load_rllib_policy(spec, env_id, deterministic=deterministic, seed=seed)
    path = Path(spec)
    if not path.exists():
        raise ValueError(
            f"policy spec {spec!r} is neither one of {list(SPEC_WORDS)}, a search: spec, "
            "nor an existing checkpoint path"
        )
    from training.runtime.inference import CheckpointPolicy

    return CheckpointPolicy(path, env_id=env_id, deterministic=deterministic, seed=seed)


def observation_options(env_id: str, policies: Sequence[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` plus the observation options (``Game.observation_options``, e.g. Last Bastion's
    ``obs_hints``) that the checkpoints among ``policies`` were trained with, so that the game
    shows each of them the observation it expects. These options do not change the rules, so the
    game stays the same for every other seat. Raises ValueError when the given options or two
    checkpoints disagree."""
    game_cls = envs.game_class(env_id)
    defaults = {o.name: o.default for o in game_cls.option_spec}
    merged, source = dict(options), {k: "the options given" for k in options}
    for policy in policies:
        metadata = getattr(policy, "metadata", None)
        if not isinstance(metadata, Mapping) or metadata.get("env_id") != env_id:
            continue
        trained = {k: defaults[k] for k in game_cls.observation_options} | dict(metadata.get("env_options", {}))
        for key in game_cls.observation_options:
            name = getattr(policy, "name", "a checkpoint")
            if key in merged and merged[key] != trained[key]:
                raise ValueError(
                    f"{name} was trained with {key}={trained[key]!r} (its observation depends on it), but "
                    f"{source[key]} say {key}={merged[key]!r}; play it with {key}={trained[key]!r}"
                )
            merged[key], source[key] = trained[key], f"{name}'s training options"
    return merged
