"""The observation through the core memo (``State.observe``: each block and seat row rewritten only
when its key changes, memoised costs and weapon projections) against a fresh state and against a
plain reference written element by element from the documented layout, at every step of random
games (tests/envs/lost_legends/reference_observation.py). Observations must stay bit-identical: bots
are trained on them. (The kit's check_observation_memo compares the memo with the layout's own
``encode_plain`` and checks each block's declared reads.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from envs.lost_legends import draft
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot
from envs.lost_legends.observation import OBSERVATION_LAYOUT
from tests.envs.lost_legends.reference_observation import documented


def _games(n: int, seeds, bots: bool = False):
    """Yield the state before every decision of random games (heuristic bots at even seats if asked)."""
    game = LostLegendsGame(num_players=n)
    for seed in seeds:
        s = game.new_state(seed)
        rnd = random.Random(seed)
        players = {i: HeuristicBot(seed=seed) for i in range(0, n, 2)} if bots else {}
        step = 0
        while not s.is_over():
            yield s, step
            bot = players.get(s.current_player)
            legal = np.flatnonzero(s.legal_mask())
            s.apply(bot.act_state(s) if bot else int(legal[rnd.randrange(len(legal))]))
            step += 1
        yield s, step


@pytest.mark.parametrize("n", [3, 5])
def test_cached_observations_equal_fresh_ones(n):
    for s, step in _games(n, range(2)):
        seats = range(n) if step % 5 == 0 else (max(s.current_player, 0),)
        cached = {i: s.observe(i) for i in seats}
        fresh = s.game.state_from_json(s.to_json())
        for i in seats:
            assert np.array_equal(cached[i], fresh.observe(i)), (step, i)


@pytest.mark.parametrize("n,bots", [(3, False), (4, True), (5, False), (5, True)])
def test_observations_equal_the_plain_reference(n, bots):
    checked = 0
    for s, step in _games(n, [n], bots):
        seats = range(n) if step % 7 == 0 else (max(s.current_player, 0),)
        for i in seats:
            got = s.observe(i)
            want = documented(s, i)
            assert got.dtype == np.float32 and np.array_equal(got, want), (step, i, np.flatnonzero(got != want))
            checked += 1
    assert checked > 200


def test_observation_follows_the_documented_layout():
    s = LostLegendsGame(num_players=4).new_state(0)
    assert np.array_equal(s.observe(s.current_player), documented(s, s.current_player))


def test_hand_cost_block_agrees_with_the_rules():
    block = OBSERVATION_LAYOUT.slice("hand_costs")
    checked = 0
    for s, _ in _games(4, [11]):
        for seat in range(4):
            v = s.observe(seat)[block].reshape(6, 3)
            for k, c in enumerate(s.hands[seat]):
                assert v[k, 0] == np.float32(min(1.0, s.cost(seat, c) / 12))
                assert v[k, 1] == draft.buy_legal_now(s, seat, c) and v[k, 2] == draft.buy_legal_after_conversions(
                    s, seat, c
                )
                checked += 1
    assert checked > 500


def _board(s, i: int) -> tuple:
    """What seat ``i``'s row shows of its board (head and equipment bands)."""
    return (
        s.heroes[i],
        s.gold[i],
        s.life[i],
        s.mana[i],
        s.life_base[i],
        s.mana_base[i],
        s.xp[i],
        s.legend[i],
        tuple(s.levels[i]),
        tuple(s.tokens[i]),
        tuple(s.trophies[i]),
        tuple(s.slots[i]),
        tuple(s.exhausted[i]),
        tuple(h == i for h in s.challenge),
    )


@pytest.mark.parametrize("n,bots", [(3, True), (4, False), (5, True)])
def test_every_board_change_bumps_its_edit_count(n, bots):
    # the seat rows' board key is State.board_edits: a rule that changes a board without bumping it
    # would leave a stale row in every observer's vector
    changed = 0
    for s, _ in _games(n, [100 + n, 200 + n], bots):
        if s.is_over():
            continue
        before = [(_board(s, i), s.board_edits[i]) for i in range(n)]
        for a in np.flatnonzero(s.legal_mask())[:4]:
            u = s.clone()
            u.board_edits = [e for _, e in before]
            u.apply(int(a))
            for i in range(n):
                if _board(u, i) != before[i][0]:
                    assert u.board_edits[i] != before[i][1], (int(a), i)
                    changed += 1
    assert changed > 300


def test_board_edits_stay_out_of_the_json():
    s = LostLegendsGame(num_players=3).new_state(0)
    assert "board_edits" not in str(s.to_json())
