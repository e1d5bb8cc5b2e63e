"""The observation encoder caches each seat's public row on the state (under a signature of what
the row shows): at every step of random games, observations equal those of a fresh copy."""

from __future__ import annotations

import numpy as np
import pytest

from envs.lost_legends.rules import LostLegendsGame


@pytest.mark.parametrize("n", [3, 5])
def test_cached_observations_equal_fresh_ones(n):
    game = LostLegendsGame(num_players=n)
    for seed in range(2):
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        step = 0
        while not s.is_over():
            seats = range(n) if step % 5 == 0 else (s.current_player,)
            cached = {i: s.observe(i) for i in seats}
            fresh = game.state_from_json(s.to_json())
            for i in seats:
                assert np.array_equal(cached[i], fresh.observe(i)), (seed, step, i)
            s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
            step += 1


def test_hand_cost_block_agrees_with_the_rules():
    from envs.lost_legends.observation import OBSERVATION_LAYOUT

    block = OBSERVATION_LAYOUT.slice("hand_costs")
    game = LostLegendsGame(num_players=4)
    s = game.new_state(11)
    rng = np.random.default_rng(11)
    checked = 0
    while not s.is_over():
        for seat in range(4):
            v = s.observe(seat)[block].reshape(6, 3)
            for k, c in enumerate(s.hands[seat]):
                assert v[k, 0] == np.float32(min(1.0, s.cost(seat, c) / 12))
                assert v[k, 1] == s.buy_legal_now(seat, c) and v[k, 2] == s.buy_legal_after_conversions(seat, c)
                checked += 1
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
    assert checked > 500
