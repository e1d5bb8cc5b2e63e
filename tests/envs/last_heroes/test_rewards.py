"""Shaped rewards telescope to the terminal result, whether forced decisions are skipped or not."""

import numpy as np
import pytest

import envs
from envs.last_heroes.game import LastHeroesGame


def _total_rewards(env, seed):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            final[agent] = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, final


@pytest.mark.parametrize("auto_skip", [False, True])
@pytest.mark.parametrize("n", [2, 3])
def test_shaping_sums_to_the_terminal_reward(n, auto_skip):
    # Phi is 0 at the start (all scores 0) and taken as 0 at the end, so shaping only moves reward in time.
    for seed in range(8):
        shaped, _ = _total_rewards(
            envs.make("last_heroes_v0", num_players=n, shaping_coef=1.0, auto_skip_forced=auto_skip), seed
        )
        plain, final = _total_rewards(envs.make("last_heroes_v0", num_players=n, auto_skip_forced=auto_skip), seed)
        assert shaped == pytest.approx(plain)
        winners = set(np.flatnonzero(final["player_0"]["winners"]).tolist())
        assert plain == {f"player_{i}": (1.0 if i in winners else -1.0) for i in range(n)}


def test_artefacts_option_does_not_change_the_deal():
    with_art = LastHeroesGame(num_players=3).new_state(5)
    without = LastHeroesGame(num_players=3, artefacts=False).new_state(5)
    assert with_art.hands == without.hands and with_art.board == without.board
    assert with_art.first == without.first
    assert without.pedestal[:3] == [-1, -1, -1] and with_art.pedestal[:3] != [-1, -1, -1]
