"""Random legal play for the tests, written once. On the rules State: uniform over the legal mask with
numpy's generator, the walk of the conformance kit (``envs.conformance.play_random_game`` plays it with
its checks). Through the AEC env: :func:`play_aec`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np


def random_action(state, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(state.legal_mask())))


def play_random(state, rng: np.random.Generator, steps: int | None = None):
    """Plays random legal actions on ``state`` in place, to the end or for ``steps`` decisions (fewer
    if the game ends first), and returns it. More decisions than ``max_game_length()`` fail."""
    limit = state.game.max_game_length()
    played = 0
    while not state.is_over() and (steps is None or played < steps):
        state.apply(random_action(state, rng))
        played += 1
        assert played <= limit, f"the game did not end within max_game_length() = {limit} decisions"
    return state


def random_states(game, seed: int, every: int = 1, rng: np.random.Generator | None = None) -> Iterator:
    """The random legal game of ``seed`` (actions from ``rng``, by default ``default_rng(seed)``): its one
    state, yielded before every ``every``-th decision and moved on in place, so a caller that wants to
    keep a position copies it; once the loop is done the state it last got is the finished game."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed) if rng is None else rng
    step = 0
    while not state.is_over():
        if step % every == 0:
            yield state
        state.apply(random_action(state, rng))
        step += 1


def play_with_bots(game, seed: int, bots: dict, rng: np.random.Generator):
    """One game from ``seed``: the seats in ``bots`` play their bot (each choice must be legal), the
    others random legal actions from ``rng``. Returns the finished state."""
    state = game.new_state(seed)
    while not state.is_over():
        bot = bots.get(state.current_player)
        action = bot.act_state(state) if bot is not None else random_action(state, rng)
        assert state.legal_mask()[action], (action, state.render())
        state.apply(action)
    return state


def play_aec(env, seed: int, policy_seed: int = 0, on_decision=None):
    """A whole game of random legal actions (``random.Random(policy_seed)``) through the AEC API: the
    rewards each agent received over the game (from ``last()``) and the final infos.
    ``on_decision(env, agent, obs, legal)`` runs before each action."""
    rng = random.Random(policy_seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final = {}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            final[agent] = info
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if on_decision is not None:
            on_decision(env, agent, obs, legal)
        env.step(rng.choice(legal))
    assert not env.agents, "the game did not end"
    return totals, final
