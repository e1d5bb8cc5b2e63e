"""Randomized-game invariants of Last Bastion (design section 9), checked after every step of random
legal games at every player count and level, plus determinism and JSON round trips."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from envs.last_bastion import content as C
from envs.last_bastion.actions import END_TURN
from envs.last_bastion.observation import OBSERVATION_LAYOUT
from envs.last_bastion.rules import LastBastionGame


def check(s) -> None:
    # 1. cards
    where = list(s.deck) + [c for c in s.spaces if c >= 0] + list(s.discard) + list(s.set_aside)
    if s.placing >= 0:
        where.append(s.placing)
    assert sorted(where) == list(range(C.NUM_CARDS)), Counter(where).most_common(3)
    # 2. tokens
    for c in range(5):
        assert s.reserve_equip[c] + sum(h["equip"][c] for h in s.heroes) == C.EQUIP_PER_COLOR
        assert s.reserve_equip[c] >= 0 and all(h["equip"][c] >= 0 for h in s.heroes)
    assert s.reserve_life + sum(h["life"] for h in s.heroes) == C.LIFE_TOTAL
    assert s.reserve_cta + sum(h["cta"] for h in s.heroes) == C.CTA_TOTAL
    assert s.reserve_life >= 0 and s.reserve_cta >= 0
    # 3. grasps
    assert 0 <= s._grasp_reserve() <= C.GRASP_TOTAL
    assert sum(s.grasped) <= 2 or s.result == "defeat_grasp"
    # 4. elements
    trap, net, ench = s.elements["trap"], s.elements["net"], s.elements["enchantment"]
    if trap["state"] == "deployed":
        assert s.spaces[trap["where"]] < 0
    if net["state"] == "deployed":
        assert s.spaces[net["where"]] >= 0 and not C.CARDS[s.spaces[net["where"]]].warlord
    if ench["state"] == "deployed":
        assert s.spaces[ench["where"]] >= 0
    for name in ("standard", "trap", "net"):
        if s.elements[name]["state"] == "parked":
            assert s.grasped[s.tile_pos(C.ELEMENT_HOME_TILE[name])]
    # 5. heroes
    for p, h in enumerate(s.heroes):
        if h["status"] == "in":
            assert h["life"] >= 1 and 0 <= h["tile"] < 9
        else:
            assert h["life"] == 0 and h["cta"] == 0 and sum(h["equip"]) == 0 and h["tile"] == -1
        if h["wounded"]:
            assert not s.power_usable(p)
    # 6. warlords
    assert s.vanquished <= s.W
    if s.result == "victory":
        assert s.vanquished == s.W
    # 7. masks
    if s.result is None:
        assert s.num_legal() >= 1 and s.in_play(s.current_player)
        assert s.legal_mask().sum() == s.num_legal()
    else:
        assert s.legal_mask().sum() == 0
    # 11. rewards
    assert len(set(s.rewards())) == 1


CONFIGS = [(n, d) for n in (1, 2, 3, 4) for d in ("novice", "normal", "difficult", "heroic")]


@pytest.mark.parametrize("n, difficulty", CONFIGS)
def test_random_games_keep_the_invariants(n, difficulty):
    game = LastBastionGame(num_players=n, difficulty=difficulty)
    ends = Counter()
    for seed in range(6):
        s = game.new_state(seed)
        rng = random.Random(seed)
        check(s)
        steps = 0
        while not s.is_over():
            s.apply(rng.choice(s.legal_actions()))
            check(s)
            steps += 1
            assert steps < 20_000
        ends[s.result] += 1
        assert s.outcome() is not None and s.outcome().team_won == (s.result == "victory")
        assert s.returns()[0] == {"victory": 1.0, "truncated": 0.0}.get(s.result, -1.0)
    assert sum(ends.values()) == 6


def test_observations_are_in_range_and_sized():
    game = LastBastionGame(num_players=3)
    s = game.new_state(5)
    rng = random.Random(5)
    for _ in range(300):
        if s.is_over():
            break
        for p in range(3):
            v = s.observe(p)
            assert v.shape == (OBSERVATION_LAYOUT.size,) and v.dtype == np.float32
            assert v.min() >= 0.0 and v.max() <= 1.0
        s.apply(rng.choice(s.legal_actions()))


def test_same_seed_same_trajectory_and_json_round_trip():
    game = LastBastionGame(num_players=2, difficulty="difficult")

    def run(seed):
        s = game.new_state(seed)
        rng = random.Random(1)
        trace = []
        while not s.is_over():
            a = rng.choice(s.legal_actions())
            s.apply(a)
            trace.append((a, tuple(s.rewards()), s.observe(0).tobytes()))
            if len(trace) % 17 == 0:  # a clone through JSON continues identically
                s = game.state_from_json(s.to_json())
        return trace, s.result

    assert run(11) == run(11)
    s = game.new_state(4)
    data = s.to_json()
    import json

    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data and np.array_equal(again.observe(1), s.observe(1))


def test_truncation_cap():
    game = LastBastionGame(num_players=1, max_board_turns=2, heroes=["Thorgrim"])
    s = game.new_state(0)
    while not s.is_over():
        legal = s.legal_actions()
        s.apply(END_TURN if END_TURN in legal else legal[0])
    assert s.result == "truncated" and s.board_turns == 2
    assert s.is_truncated() and not s.is_terminal() and s.rewards() == [0.0]
    assert s.outcome().truncated and s.outcome().winners == ()


def test_deck_structure_at_reset():
    for n in (1, 2, 3, 4):
        for d in C.DIFFICULTIES:
            s = LastBastionGame(num_players=n, difficulty=d).new_state(n)
            full = ([s.placing] if s.placing >= 0 else []) + s.deck
            m = C.monster_count(n, d)
            w = C.WARLORD_COUNT[d]
            top = m - 8 * w
            assert len(full) == m + w
            assert [i for i, c in enumerate(full) if C.CARDS[c].warlord] == [top + 9 * k for k in range(w)]
