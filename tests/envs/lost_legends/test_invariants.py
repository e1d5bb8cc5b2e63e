"""Invariants of docs/lost_legends.md section 9, checked after every step of seeded random games
(random legal actions, and random players mixed with the heuristic bot so that long combat phases
come up), at 3, 4 and 5 players. Kept small: the whole folder runs in a few seconds."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from envs.lost_legends.content import CARDS, KINDS, NUM_CARDS, XP_THRESHOLDS
from envs.lost_legends.heuristic import HeuristicBot
from envs.lost_legends.rules import (
    ARTIFACT_SLOTS,
    DECISIONS,
    GEAR_UP,
    KIND_SLOT,
    NO,
    SELECT_NONE,
    SELECT_OWN,
    SPELL_SLOTS,
    LostLegendsGame,
    hero_level,
)

GAMES = {3: 6, 4: 5, 5: 4}


def zones(s) -> Counter:
    """Every card id in every zone (invariant 1)."""
    ids = list(s.removed) + list(s.box) + list(s.sixth)
    for lv in range(3):
        ids += s.decks[lv] + s.piles[lv] + s.reserves[lv]
    if s.faceup != NO:
        ids.append(s.faceup)
    for i in range(s.n):
        ids += s.hands[i] + s.skill_cards[i] + s.trophies[i]
        ids += [c for c in s.slots[i] if c != NO]
        ids += [c for c in (s.picks[i], s.front[i]) if c != NO]
    return Counter(ids)


def check(s, prev: dict | None) -> dict:
    n = s.n
    count = zones(s)
    assert len(count) == NUM_CARDS and set(count.values()) == {1}, [c for c, k in count.items() if k != 1]
    # 2. Gold.
    assert sum(s.gold) - s.initial_gold == s.gold_out - s.gold_in and min(s.gold) >= 0
    fronts = [m for m in s.front if m != NO]
    assert len(fronts) == len(set(fronts))
    for i in range(n):
        slots = s.slots[i]
        # 3. Locations, weapon types, armor pieces, unique names.
        names = [CARDS[c].name for c in slots if c != NO]
        assert len(names) == len(set(names))
        for slot, c in enumerate(slots):
            if c == NO:
                continue
            kind = KINDS[CARDS[c].kind]
            if kind in KIND_SLOT:
                assert KIND_SLOT[kind] == slot
            else:
                assert slot in (SPELL_SLOTS if kind[0] == "S" else ARTIFACT_SLOTS)
        # 4. Tracks.
        assert 0 <= s.life[i] <= s.max_life(i) <= 10 and 0 <= s.mana[i] <= s.max_mana(i) <= 10
        if s.phase == GEAR_UP:
            assert s.life[i] == s.max_life(i) and s.mana[i] == s.max_mana(i)
        # 5. Skills.
        init = s.initial_skills(i)
        added = s.added_skills(i)
        assert s.levels[i] == [init[k] + added[k] for k in range(4)] and all(a >= 0 for a in added)
        # 6. Monsters.
        if s.front[i] != NO:
            assert s.markers[i] < CARDS[s.front[i]].life and not s.defeated[i]
        # 7. Monotone counters.
        if prev is not None:
            assert s.xp[i] >= prev["xp"][i] and s.legend[i] >= prev["legend"][i]
            assert len(s.trophies[i]) >= prev["trophies"][i]
        assert 1 <= hero_level(s.xp[i]) == 1 + sum(s.xp[i] >= t for t in XP_THRESHOLDS) <= 6
    # 8. Trophy stacks and challenge trophies.
    for k in range(6):
        holders = sum(s.tokens[i][k] > 0 for i in range(n))
        assert holders == s.stack_taken[k] <= 4
    assert all(h == NO or 0 <= h < n for h in s.challenge)
    # 9. The mask, the observations.
    if not s.is_over():
        mask = s.legal_mask()
        assert mask.dtype == np.int8 and mask.sum() >= 1 and s.num_legal() == mask.sum()
        assert 0 <= s.current_player < n
    for seat in {0, max(s.current_player, 0)}:  # the actor and a fixed seat (cost: all seats is slow)
        obs = s.observe(seat)
        assert obs.shape == (2907,) and obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
    # 10. In step 2 of a normal turn the face-up slot is filled.
    if s.decision in (SELECT_OWN, SELECT_NONE):
        assert s.faceup != NO
    return {"xp": list(s.xp), "legend": list(s.legend), "trophies": [len(t) for t in s.trophies]}


def play(game, seed: int, bot_seats=(), check_every: bool = True):
    s = game.new_state(seed)
    rng = np.random.default_rng(seed)
    bots = {seat: HeuristicBot(seed=seed) for seat in bot_seats}
    prev = check(s, None)
    actions = []
    decisions = Counter()
    while not s.is_over():
        decisions[DECISIONS[s.decision]] += 1
        bot = bots.get(s.current_player)
        a = bot.act_state(s) if bot else int(rng.choice(np.flatnonzero(s.legal_mask())))
        s.apply(a)
        actions.append(a)
        if check_every:
            prev = check(s, prev)
    return s, actions, decisions


@pytest.mark.parametrize("n", [3, 4, 5])
def test_invariants_on_random_games(n):
    game = LostLegendsGame(num_players=n)
    seen = Counter()
    for seed in range(GAMES[n]):
        bot_seats = () if seed % 2 == 0 else tuple(range(0, n, 2))
        s, actions, decisions = play(game, 100 * n + seed, bot_seats)
        seen.update(decisions)
        # 11. Ends naturally, three level ends, below the step cap.
        assert s.is_terminal() and not s.is_truncated() and s.level_ends == 3
        assert len(actions) < game.options["max_steps"]
        # 12. Final score = its breakdown; winners = the argmax set.
        scores = s.scores()
        assert scores == [float(sum(b.values())) for b in s.score_breakdown()]
        assert list(s.outcome().winners) == [i for i in range(n) if scores[i] == max(scores)]
        assert s.legal_mask().sum() == 0 and s.current_player == NO
    # Between them, the games reach every decision kind but the rare charge-exhaust.
    missing = set(DECISIONS) - set(seen) - {"CHARGE_EXHAUST"}
    assert not missing, missing


def test_useless_actions_unmasked_variant_terminates():
    game = LostLegendsGame(num_players=4, mask_useless_actions=False)
    for seed in range(2):
        s, _, _ = play(game, seed, bot_seats=(1,), check_every=False)
        assert s.is_terminal()


@pytest.mark.parametrize("n", [3, 5])
def test_same_seed_same_actions_same_game(n):
    game = LostLegendsGame(num_players=n)
    s, actions, _ = play(game, 77, bot_seats=(0,), check_every=False)
    again = game.new_state(77)
    for a in actions:
        again.apply(a)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(s.to_json(), sort_keys=True)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_json_round_trip_and_clone_at_every_step(n):
    game = LostLegendsGame(num_players=n)
    s = game.new_state(5)
    rng = np.random.default_rng(5)
    step = 0
    while not s.is_over():
        if step % 7 == 0:
            data = s.to_json()
            text = json.dumps(data)
            back = game.state_from_json(json.loads(text))
            assert back.to_json() == data
            assert np.array_equal(back.legal_mask(), s.legal_mask())
            assert all(np.array_equal(back.observe(i), s.observe(i)) for i in range(n))
            twin = s.clone()
            a = int(rng.choice(np.flatnonzero(s.legal_mask())))
            twin.apply(a)
            s.apply(a)
            assert twin.to_json() == s.to_json() and twin.rewards() == s.rewards()
        else:
            s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
        step += 1


def test_truncation_at_max_steps():
    game = LostLegendsGame(num_players=3, max_steps=100)
    s = game.new_state(0)
    rng = np.random.default_rng(0)
    while not s.is_over():
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
    assert s.is_truncated() and not s.is_terminal() and s.steps == 100
    out = s.outcome()
    assert out.truncated and out.winners == () and s.legal_mask().sum() == 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_masked_in_action_executes_and_leads_to_a_decision(n):
    """Invariant 9, exhaustively at sampled points: each legal action, on a copy, applies without
    error and leaves a state that is over or has a legal action again (no dead ends)."""
    game = LostLegendsGame(num_players=n)
    tried = 0
    for seed in range(2):
        s = game.new_state(900 + seed)
        rng = np.random.default_rng(seed)
        step = 0
        while not s.is_over():
            if step % 6 == 0:
                for a in np.flatnonzero(s.legal_mask()):
                    copy = s.clone()
                    copy.apply(int(a))
                    assert copy.is_over() or copy.legal_mask().any()
                    tried += 1
            s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
            step += 1
    assert tried > 100
