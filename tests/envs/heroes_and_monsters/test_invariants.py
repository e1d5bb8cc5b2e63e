"""Randomized-game invariants (docs section 9), checked after every decision of random legal games
at every player count against every Adversary (bounded: a few games each)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.rules import CHOOSE_OVERFLOW, MAX_STEPS_PER_TURN, RECRUIT, HeroesAndMonstersGame

ADVERSARIES = ("randall", "sylvaen", "thargrim")


def fortress_cards_everywhere(s) -> Counter:
    zones = list(s.fortress) + [c for c in s.area if c >= 0] + s.rubble + s.box + s.exile
    for p in s.players:
        zones += p.deck + [c for c, _ in p.hand] + p.discard + [c for c, _ in p.table]
    if s.pending and s.pending.get("overflow", -1) >= 0:
        zones.append(s.pending["overflow"])
    return Counter(zones)


def check_state(s, start_counts: Counter) -> None:
    allc = fortress_cards_everywhere(s)
    fortress_types = Counter(c for c in allc.elements() if c >= C.FIRST_FORTRESS_CARD)
    assert fortress_types == Counter(C.fortress_card_list())  # 9.1
    assert len(s.box) == 6
    starting = Counter(c for c in allc.elements() if c < C.FIRST_FORTRESS_CARD)
    assert starting == start_counts  # 9.2
    invaders = Counter(s.inv_deck + [i for i in s.field if i >= 0] + s.inv_discard)
    assert invaders == Counter(C.invader_list())  # 9.3
    running = not s.is_over()
    if running:
        assert all(c >= 0 for c in s.area)  # 9.4
        assert len(s.fortress) >= 1  # 9.8
        for c in range(4):
            if s.field[c] >= 0:
                assert 0 <= s.markers[c] < len(s.levels(c))  # 9.6
    for p in s.players:
        assert len(p.table) <= 3  # 9.5 (a pending 4th is outside the table)
        assert len(p.hand) <= C.HAND_CAP
        assert p.hand == sorted(p.hand)
    if s.phase == CHOOSE_OVERFLOW:
        assert s.pending["overflow"] >= 0
    assert all(x >= 0 for x in s.pool(s.active)) and s.dmg >= 0 and s.ward >= 0  # 9.7
    hi, lo = s.game.thresholds
    size = len(s.fortress)
    assert s.threat() == (1 if size >= hi else 2 if size >= lo else 3)  # 9.13
    if s.plan >= 0:
        assert s.plan_progress < s.plan_required()  # 9.15
    assert s.thwarted <= 3


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("adversary", ADVERSARIES)
def test_random_games_keep_the_invariants(n, adversary):
    game = HeroesAndMonstersGame(num_players=n, adversary=adversary)
    for seed in range(3):
        s = game.new_state(seed)
        start = Counter(c for p in s.players for c in C.starting_deck(p.general))
        rng = np.random.default_rng(seed)
        total = 0.0
        steps_this_turn = 0
        turn_key = None
        last_round = s.round
        defeats = 0
        while not s.is_over():
            mask = s.legal_mask()
            assert mask.dtype == np.int8 and mask.any()  # 9.9
            assert np.array_equal(mask, s.clone().legal_mask())  # recomputed from scratch
            if s.round != last_round or turn_key is None:
                assert sum(1 for i in s.field if i >= 0) == 4 and s.ward == 0  # 9.6, 9.7 at a round start
                last_round = s.round
            key = (s.round, s.active)
            steps_this_turn = steps_this_turn + 1 if key == turn_key else 1
            turn_key = key
            assert steps_this_turn <= MAX_STEPS_PER_TURN  # 9.10
            action = int(rng.choice(np.flatnonzero(mask)))
            name, args = LAYOUT.decode(action)
            actor = s.players[s.current_player]
            if name == "USE_HAND":
                assert actor.hand[args[0]][1] is False  # 9.14 once per turn
            elif name == "USE_TABLE":
                assert actor.table[args[0]][1] is False
            elif name in ("USE_GENERAL", "COPY"):
                assert actor.gen_used is False
            was_there = name == "ATTACK" and s.field[args[0]] >= 0
            s.apply(action)
            if was_there and not s.is_over() and s.field[args[0]] < 0:
                defeats += 1
            if not s.is_over():
                assert s.defeated == defeats  # 9.15
            rewards = s.rewards()
            assert len(set(rewards)) == 1  # 9.12
            total += rewards[0]
            check_state(s, start)
            obs = s.observe(s.current_player if s.current_player >= 0 else 0)
            assert obs.dtype == np.float32 and obs.shape == (1924,) and obs.min() >= 0 and obs.max() <= 1  # 9.17
        assert s.is_terminal() and not s.is_truncated()  # 9.10: no truncation
        assert s.round <= 20
        assert s.result in ("victory", "fortress_empty", "round_limit")  # 9.8
        assert total in (1.0, -1.0) and s.returns() == [total] * n  # 9.12
        assert not s.legal_mask().any()


def test_every_legal_action_applies_without_error():
    game = HeroesAndMonstersGame(num_players=3, adversary="sylvaen")
    s = game.new_state(5)
    rng = np.random.default_rng(5)
    checked = 0
    while not s.is_over():
        legal = np.flatnonzero(s.legal_mask())
        if rng.random() < 0.3:
            for a in legal:
                c = s.clone()
                c.apply(int(a))
                checked += 1
        s.apply(int(rng.choice(legal)))
    assert checked > 20


def test_determinism_same_seed_same_actions_same_game():
    game = HeroesAndMonstersGame(num_players=2, adversary="random")
    runs = []
    for _ in range(2):
        s = game.new_state(11)
        rng = np.random.default_rng(3)
        trace = []
        while not s.is_over():
            a = int(rng.choice(np.flatnonzero(s.legal_mask())))
            s.apply(a)
            trace.append((a, s.observe(0).tobytes(), tuple(s.rewards()), s.legal_mask().tobytes()))
        runs.append(trace)
    assert runs[0] == runs[1]  # 9.16


def test_json_round_trip_mid_game_plays_on_identically():
    game = HeroesAndMonstersGame(num_players=4, adversary="thargrim")
    s = game.new_state(2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
    copy = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert copy.to_json() == s.to_json()
    for seat in range(4):
        assert np.array_equal(copy.observe(seat), s.observe(seat))
    while not s.is_over():
        a = int(rng.choice(np.flatnonzero(s.legal_mask())))
        s.apply(a)
        copy.apply(a)
        assert copy.rewards() == s.rewards()
    assert copy.outcome() == s.outcome()


def test_start_of_round_phase_is_recruit_for_the_first_player():
    game = HeroesAndMonstersGame(num_players=2)
    s = game.new_state(0)
    assert s.phase == RECRUIT and s.current_player == 0 and s.round == 1 and len(s.fortress) <= 46
