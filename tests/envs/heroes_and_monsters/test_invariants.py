"""Randomized-game invariants of Heroes and Monsters: design section 9, "Invariants for randomized tests".

Random legal play (uniform over the legal ids, ``random.Random``) on the rules State
(``legal_mask()`` / ``apply()``) over seeded games at every player count 1-4 against each of the
three Adversaries: 2,004 games in the default run (:func:`test_random_games_keep_the_invariants`,
167 per player count and Adversary), 10,008 more under ``@pytest.mark.slow`` with the deep checks
at every 2nd step and a replay of every 5th game.

How often each invariant is checked (``check_step`` = after every step and after setup;
``deep_check`` = at sampled steps, every ``DEEP_EVERY``-th step of every game (a per-game offset),
and at every game's end; ``check_every_action`` = every ``ALL_ACTIONS_EVERY``-th step):

1. Fortress cards: the sizes of every zone that can hold them (Fortress deck, Area, Rubble, Box,
   Exile, every player's deck, hand, discard pile and table, a pending 4th Construction) sum to 60
   plus the starting cards, and the Box holds exactly 6 cards (plus Sylvaen's unused Plan in
   ``box_plans``): every step; the multiset of Fortress card types equals the 60 printed: deep.
2. Starting cards: the multiset over all zones and the Exile equals the starting decks: deep.
3. Invaders: Invasion deck + Battlefield + Invasion discard = 24: every step; the multiset by type
   equals the printed one: deep.
4. Area: all 8 slots hold a card while the game runs: every step.
5. Tables: at most 3 Constructions; a pending 4th only in CHOOSE_OVERFLOW: every step.
6. Battlefield: at most 4 Invaders, ``0 <= markers < levels`` (``<= levels`` once an ON_DEFEAT has
   ended the game): every step; exactly 4 Invaders at the
   first decision of every round: every round.
7. Pools: every ``pool[x] >= 0`` (every seat), ``D >= 0``, race bonuses >= 0, hand <= 12 and sorted,
   ward >= 0: every step; ward = 0 at the first decision of every round: every round.
8. Fortress alive: the Fortress deck >= 1 while the game runs: every step; a finished game records
   its cause (victory, fortress_empty, round_limit) and its outcome agrees: at the end.
9. Masks: int8, >= 1 legal action while running, none after the end: every step; the mask equals
   the mask of a fresh copy built from JSON (legality recomputed from scratch) and, through
   ``env()``, non-actors' masks are all zero and the actor's is the state's: deep; every legal action
   applies without error (on clones): ``check_every_action``.
10. Bounded game: at most ``MAX_STEPS_PER_TURN`` (200) decisions per turn, round <= 20: every step;
    the game ends by a rule, never truncated: at the end.
11. Privacy: ``resample_hidden(seat)`` (other waiting hands, every deck order, the Box, unseen
    Plans) leaves ``observe(seat)`` unchanged, for one seat in turn: deep.
12. Rewards: identical for all seats at every step, zero before the end: every step; the episode
    sum is +1 or -1 for every seat and equals ``returns()``: at the end.
13. Threat: ``threat()`` matches the Fortress deck size thresholds: every step;
    ``fortress_damages()`` agrees with ``fortress_damage(c)`` column by column: deep.
14. Once per turn: the source of every USE_HAND / USE_TABLE / USE_GENERAL / COPY is unused (flag),
    has not been activated before in this turn (tracked by the test itself: table entries by
    identity, Generals by seat, hand cards per card id against the copies the seat owns), and is
    flagged used afterwards: every such step.
15. Counts: ``defeated`` = the defeats the test saw (an ATTACKed Invader leaving its column),
    ``markers_placed`` = the ATTACKs, Plan progress < required, thwarted <= Plans in play: every step.
16. Determinism: every ``REPLAY_EVERY``-th game is replayed from its seed and actions: the same
    masks and rewards at every step, the same observations at the deep steps, the same final JSON.
17. Observation: shape 1924, float32, values in [0, 1], for every seat, and equal to the plain
    from-scratch encoders (``OBSERVATION_LAYOUT.encode_plain``, the memo off): deep.

:func:`test_each_check_can_fail` corrupts real states one way per invariant and asserts that the
checks raise.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.content import ADVERSARIES
from envs.heroes_and_monsters.effects import END_REASONS, TERMINAL_RESULTS
from envs.heroes_and_monsters.env import raw_env
from envs.heroes_and_monsters.game import MAX_STEPS_PER_TURN, HeroesAndMonstersGame
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT
from envs.heroes_and_monsters.turn import CHOOSE_OVERFLOW, RECRUIT

ADVERSARY_KEYS = ("randall", "sylvaen", "thargrim")
DEEP_EVERY = 16  # deep checks at every 16th step of every game (offset by the seed), and at its end
ALL_ACTIONS_EVERY = 96  # every legal action applied on clones
REPLAY_EVERY = 20  # a full replay from seed and actions for every 20th game
GAMES_PER_CELL = 50  # x 4 player counts x 3 Adversaries = 600 games in the default run
SLOW_GAMES_PER_CELL = 834  # 10,008 under -m slow
FORTRESS_TYPES = Counter(C.fortress_card_list())
INVADER_TYPES = Counter(C.invader_list())
USE_NAMES = ("USE_HAND", "USE_TABLE", "USE_GENERAL", "COPY")


class Tracker:
    """What the test itself counts over one game, independently of the engine."""

    def __init__(self, s):
        self.starting = Counter(c for p in s.players for c in C.starting_deck(p.general))
        self.cards = len(C.fortress_card_list()) + sum(self.starting.values())
        self.defeats = 0
        self.attacks = 0
        self.total = 0.0
        self.turn = None  # (round, active) of the turn being played
        self.steps_this_turn = 0
        self.round_seen = 0
        self.used_entries: list = []  # table entries activated this turn (compared by identity)
        self.generals_used: set[int] = set()  # seats whose General ability (or COPY) was used this turn
        self.hand_uses: Counter = Counter()  # (seat, card id) -> USE_HAND activations this turn

    def new_decision(self, s) -> None:
        """Called before each decision: turn and round boundaries."""
        key = (s.round, s.active)
        if key != self.turn:
            self.turn = key
            self.steps_this_turn = 0
            self.used_entries = []
            self.generals_used = set()
            self.hand_uses = Counter()
        self.steps_this_turn += 1
        if s.round != self.round_seen:  # the first decision of a round
            self.round_seen = s.round
            check_round_start(s)


def zone_sizes(s) -> int:
    total = len(s.fortress) + sum(1 for c in s.area if c >= 0) + len(s.rubble) + len(s.box) + len(s.exile)
    for p in s.players:
        total += len(p.deck) + len(p.hand) + len(p.discard) + len(p.table)
    if s.pending and s.pending.get("overflow", -1) >= 0:
        total += 1
    return total


def all_cards(s) -> Counter:
    zones = list(s.fortress) + [c for c in s.area if c >= 0] + s.rubble + s.box + s.exile
    for p in s.players:
        zones += p.deck + [c for c, _ in p.hand] + p.discard + [c for c, _ in p.table]
    if s.pending and s.pending.get("overflow", -1) >= 0:
        zones.append(s.pending["overflow"])
    return Counter(zones)


# == every step ====================================================================================
def check_round_start(s) -> None:
    assert sum(1 for i in s.field if i >= 0) == 4, s.field  # 9.6 exactly 4 at a round start
    assert s.ward == 0  # 9.7


def check_step(s, t: Tracker) -> None:
    """The cheap invariants, after every step."""
    assert zone_sizes(s) == t.cards  # 9.1
    assert len(s.box) == 6 and len(s.box_plans) == (1 if ADVERSARIES[s.adversary].shuffle_plans else 0)
    assert len(s.inv_deck) + sum(1 for i in s.field if i >= 0) + len(s.inv_discard) == 24  # 9.3
    running = s.result is None
    if running:
        assert -1 not in s.area  # 9.4
        assert len(s.fortress) >= 1  # 9.8
    for c in range(C.NUM_COLUMNS):  # 9.6
        if s.field[c] >= 0:  # (an ON_DEFEAT that ends the game leaves its Invader with every marker)
            assert 0 <= s.markers[c] < len(s.levels(c)) + (0 if running else 1)
        else:
            assert s.markers[c] == 0
    for p in s.players:
        assert len(p.table) <= C.TABLE_CAP  # 9.5 (a pending 4th is outside the table)
        assert len(p.hand) <= C.HAND_CAP and p.hand == sorted(p.hand)  # 9.7
    overflow = bool(s.pending) and s.pending.get("overflow", -1) >= 0
    assert overflow == (s.phase == CHOOSE_OVERFLOW)  # 9.5
    for seat in range(s.n):  # 9.7
        assert min(s.pool(seat)) >= 0
    assert s.dmg >= 0 and min(s.bonus) >= 0 and s.ward >= 0
    hi, lo = s.game.thresholds
    size = len(s.fortress)
    assert s.threat() == (1 if size >= hi else 2 if size >= lo else 3)  # 9.13
    assert s.defeated == t.defeats and s.markers_placed == t.attacks  # 9.15
    if s.plan >= 0:
        assert 0 <= s.plan_progress < s.plan_required()
    assert 0 <= s.thwarted <= ADVERSARIES[s.adversary].plans_in_play
    mask = s.legal_mask()  # 9.9
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert mask.any() == running
    assert s.round <= s.game.options["max_rounds"] and t.steps_this_turn <= MAX_STEPS_PER_TURN  # 9.10
    rewards = s.rewards()  # 9.12
    assert len(rewards) == s.n and len(set(rewards)) == 1
    if running:
        assert rewards[0] == 0.0


def check_use(s, t: Tracker, action: int):
    """9.14 before a USE/COPY: the source is unused and was not activated this turn; returns a
    check to run after the action (the source is then flagged used)."""
    name, args = LAYOUT.decode(action)
    seat = s.current_player
    p = s.players[seat]
    if name == "USE_TABLE":
        entry = p.table[args[0]]
        assert entry[1] is False
        assert not any(e is entry for e in t.used_entries)
        t.used_entries.append(entry)
        return lambda: entry[1] is True
    if name in ("USE_GENERAL", "COPY"):
        assert p.gen_used is False and seat not in t.generals_used
        t.generals_used.add(seat)
        return lambda: s.players[seat].gen_used is True
    if name == "USE_HAND":
        c, used = p.hand[args[0]]
        assert used is False
        t.hand_uses[seat, c] += 1
        owned = p.deck.count(c) + p.discard.count(c) + sum(1 for x, _ in p.hand if x == c)
        assert t.hand_uses[seat, c] <= owned
        stays = C.CARDS[c].effect.cost != "discard_self"
        before = sum(1 for x, u in p.hand if x == c and u)
        return lambda: not stays or sum(1 for x, u in s.players[seat].hand if x == c and u) == before + 1
    return None


def play_step(s, t: Tracker, action: int) -> None:
    """Apply one action with the once-per-turn and count bookkeeping around it."""
    name, args = LAYOUT.decode(action)
    after = check_use(s, t, action) if name in USE_NAMES else None
    column_held = name == "ATTACK" and s.field[args[0]] >= 0
    s.apply(action)
    if after is not None:
        assert after()  # 9.14: the source is flagged used for the rest of the turn
    if name == "ATTACK":
        assert column_held
        t.attacks += 1
        if s.field[args[0]] < 0:
            t.defeats += 1
    t.total += s.rewards()[0]


# == sampled steps =================================================================================
def check_observation(s, seat: int) -> np.ndarray:
    obs = s.observe(seat)  # 9.17
    assert obs.dtype == np.float32 and obs.shape == (OBSERVATION_LAYOUT.size,) == (1924,)
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    assert np.array_equal(obs, OBSERVATION_LAYOUT.encode_plain(s, seat))  # the memo = the plain encoders
    return obs


def check_privacy(s, other, seat: int) -> None:
    """9.11: ``other`` differs from ``s`` only in what ``seat`` cannot see."""
    assert np.array_equal(other.observe(seat), s.observe(seat))


def check_env_masks(s, env) -> None:
    """9.9 through env(): the actor's mask is the state's, every other agent's is all zero."""
    env.reset_to_state(s.clone())
    for seat, agent in enumerate(env.possible_agents):
        mask = env.observe(agent)["action_mask"]
        if seat == s.current_player:
            assert np.array_equal(mask, s.legal_mask())
        else:
            assert not mask.any()


def deep_check(s, t: Tracker, env, rng: random.Random) -> None:
    """The expensive invariants, at sampled steps and at the end."""
    cards = all_cards(s)
    assert Counter({c: k for c, k in cards.items() if c >= C.FIRST_FORTRESS_CARD}) == FORTRESS_TYPES  # 9.1
    assert Counter({c: k for c, k in cards.items() if c < C.FIRST_FORTRESS_CARD}) == t.starting  # 9.2
    assert Counter(s.inv_deck + [i for i in s.field if i >= 0] + s.inv_discard) == INVADER_TYPES  # 9.3
    fresh = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert np.array_equal(fresh.legal_mask(), s.legal_mask())  # 9.9 legality recomputed from scratch
    assert s.fortress_damages() == [s.fortress_damage(c) if s.field[c] >= 0 else 0 for c in range(4)]  # 9.13
    for seat in range(s.n):
        check_observation(s, seat)  # 9.17
    if s.result is None:
        check_env_masks(s, env)
        seat = rng.randrange(s.n)
        check_privacy(s, s.resample_hidden(seat, np.random.default_rng(rng.randrange(2**32))), seat)  # 9.11


def check_every_action(s) -> None:
    """9.9: every legal action applies without error."""
    for a in np.flatnonzero(s.legal_mask()):
        s.clone().apply(int(a))


def check_end(s, t: Tracker) -> None:
    assert s.result in TERMINAL_RESULTS and s.is_terminal() and not s.is_truncated()  # 9.8, 9.10
    out = s.outcome()
    assert out.reason == END_REASONS[s.result]
    assert out.winners == (tuple(range(s.n)) if s.result == "victory" else ())
    assert s.current_player == -1
    assert t.total in (1.0, -1.0) and (t.total == 1.0) == (s.result == "victory")  # 9.12
    assert s.returns() == [t.total] * s.n


# == playing ========================================================================================
def play(game, seed: int, env, deep_every: int = DEEP_EVERY, all_every: int = ALL_ACTIONS_EVERY):
    """One random game with every check; returns (result, actions, trace, final JSON)."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    t = Tracker(s)
    offset = seed % deep_every
    actions, trace = [], []
    check_step(s, t)
    step = 0
    while s.result is None:
        t.new_decision(s)
        mask = s.legal_mask()
        legal = np.flatnonzero(mask).tolist()
        if step % deep_every == offset:
            deep_check(s, t, env, rng)
            trace.append(s.observe(s.current_player).tobytes())
        if step % all_every == offset:
            check_every_action(s)
        action = rng.choice(legal)
        play_step(s, t, action)
        check_step(s, t)
        actions.append(action)
        trace.append((mask.tobytes(), tuple(s.rewards())))
        step += 1
    deep_check(s, t, env, rng)
    check_end(s, t)
    return s.result, actions, trace, s.to_json()


def replay(game, seed: int, actions: list[int], deep_every: int = DEEP_EVERY):
    """9.16: the same seed and actions, the same trace and final state."""
    s = game.new_state(seed)
    trace = []
    for step, a in enumerate(actions):
        mask = s.legal_mask()
        if step % deep_every == seed % deep_every:
            trace.append(s.observe(s.current_player).tobytes())
        s.apply(a)
        trace.append((mask.tobytes(), tuple(s.rewards())))
    return trace, s.to_json()


def run_games(n: int, adversary: str, seeds, deep_every: int, all_every: int, replay_every: int) -> Counter:
    game = HeroesAndMonstersGame(num_players=n, adversary=adversary)
    env = raw_env(num_players=n, adversary=adversary)
    ends: Counter = Counter()
    for i, seed in enumerate(seeds):
        result, actions, trace, final = play(game, seed, env, deep_every, all_every)
        ends[result] += 1
        if i % replay_every == 0:
            assert replay(game, seed, actions, deep_every) == (trace, final)  # 9.16
    return ends


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("adversary", ADVERSARY_KEYS)
def test_random_games_keep_the_invariants(n, adversary):
    """50 games for this player count and Adversary (600 over the 12 cells; 10,008 more under -m slow)."""
    seeds = range(10_000 * n, 10_000 * n + GAMES_PER_CELL)
    ends = run_games(n, adversary, seeds, DEEP_EVERY, ALL_ACTIONS_EVERY, REPLAY_EVERY)
    assert sum(ends.values()) == GAMES_PER_CELL
    assert ends["fortress_empty"] > 0  # random play mostly loses, by the Fortress deck running out


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("adversary", ADVERSARY_KEYS)
def test_random_games_keep_the_invariants_slow(n, adversary):
    """834 more games per cell (10,008 in all), deep checks at every 2nd step, every 5th replayed."""
    seeds = range(100_000 * n + 1_000, 100_000 * n + 1_000 + SLOW_GAMES_PER_CELL)
    ends = run_games(n, adversary, seeds, 2, 8, 5)
    assert sum(ends.values()) == SLOW_GAMES_PER_CELL


# == every check can fail ==========================================================================
def _mid_game(n: int = 3, seed: int = 7, steps: int = 40, adversary: str = "sylvaen"):
    game = HeroesAndMonstersGame(num_players=n, adversary=adversary)
    s = game.new_state(seed)
    rng = random.Random(seed)
    t = Tracker(s)
    for _ in range(steps):
        t.new_decision(s)
        play_step(s, t, rng.choice(np.flatnonzero(s.legal_mask()).tolist()))
    assert s.result is None
    check_step(s, t)
    return s, t


def _corrupt(s, t, fn):
    """A copy of the mid-game state with ``fn(copy, tracker)`` applied (the mask cache cleared)."""
    c = s.clone()
    c.steps = s.steps
    fn(c, t)
    c._mask = None
    return c


def _steps(c, t):
    check_step(c, t)


def _deep(c, t):
    env = raw_env(num_players=c.n, adversary="sylvaen")
    deep_check(c, t, env, random.Random(0))


def _first_invader(c) -> int:
    return next(k for k in range(4) if c.field[k] >= 0)


def _starting_card_changes_type(c, t):
    p = next(p for p in c.players if any(x < C.FIRST_FORTRESS_CARD for x in p.deck))
    i = next(i for i, x in enumerate(p.deck) if x < C.FIRST_FORTRESS_CARD)
    p.deck[i] = (p.deck[i] + 1) % C.FIRST_FORTRESS_CARD


def _fourth_construction(c, t):
    table = c.players[0].table
    while len(table) <= C.TABLE_CAP:
        table.append([c.fortress.pop(0), False])


def _thirteen_card_hand(c, t):
    hand = c.players[1].hand
    while len(hand) <= C.HAND_CAP:
        hand.append([c.fortress.pop(0), False])
    hand.sort()


def _stale_mask(c, t):
    mask = c.legal_mask().copy()
    mask[np.flatnonzero(mask == 0)[0]] = 1  # one more action than the rules allow
    c._mask = mask
    _deep(c, t)


def _long_turn(c, t):
    t.steps_this_turn = MAX_STEPS_PER_TURN + 1
    check_step(c, t)


def _round_start(c, t):
    check_round_start(c)


CORRUPTIONS = {
    "9.1 a Fortress card lost": (lambda c, t: c.fortress.pop(), _steps),
    "9.1 a Fortress card changes type": (lambda c, t: c.fortress.__setitem__(0, 7 if c.fortress[0] != 7 else 8), _deep),
    "9.1 the Box loses a card": (lambda c, t: c.fortress.append(c.box.pop()), _steps),
    "9.2 a starting card changes type": (_starting_card_changes_type, _deep),
    "9.3 an Invader lost": (lambda c, t: c.inv_deck.pop(), _steps),
    "9.3 an Invader changes type": (lambda c, t: c.inv_deck.__setitem__(0, (c.inv_deck[0] + 1) % 17), _deep),
    "9.4 an empty Area slot": (lambda c, t: c.rubble.append(c.area[5]) or c.area.__setitem__(5, -1), _steps),
    "9.5 a 4th Construction": (_fourth_construction, _steps),
    "9.6 markers reach the levels": (
        lambda c, t: c.markers.__setitem__(_first_invader(c), len(c.levels(_first_invader(c)))),
        _steps,
    ),
    "9.6 three Invaders at a round start": (
        lambda c, t: c.inv_discard.append(c.field[2]) or c.field.__setitem__(2, -1),
        _round_start,
    ),
    "9.7 a negative pool": (lambda c, t: c.res.__setitem__(0, -5), _steps),
    "9.7 negative damage": (lambda c, t: setattr(c, "dmg", -1), _steps),
    "9.7 a 13-card hand": (_thirteen_card_hand, _steps),
    "9.7 a ward left at a round start": (lambda c, t: setattr(c, "ward", 1), _round_start),
    "9.8 an empty Fortress deck in a running game": (
        lambda c, t: c.rubble.extend(c.fortress) or c.fortress.clear(),
        _steps,
    ),
    "9.9 a stale mask": (lambda c, t: None, _stale_mask),
    "9.10 too many decisions in a turn": (lambda c, t: None, _long_turn),
    "9.10 past the round limit": (lambda c, t: setattr(c, "round", 21), _steps),
    "9.12 different rewards": (lambda c, t: setattr(c, "_rewards", [0.0, 0.5, 0.0]), _steps),
    "9.13 a wrong Threat": (lambda c, t: setattr(c, "threat", lambda: 4), _steps),
    "9.15 an uncounted defeat": (lambda c, t: setattr(c, "defeated", c.defeated + 1), _steps),
    "9.15 a completed Plan left active": (lambda c, t: setattr(c, "plan_progress", c.plan_required()), _steps),
    "9.17 a value out of range": (lambda c, t: setattr(c, "plan_progress", -1), lambda c, t: check_observation(c, 0)),
}


@pytest.mark.parametrize("what", sorted(CORRUPTIONS))
def test_each_check_can_fail(what):
    s, t = _mid_game()
    corrupt, check = CORRUPTIONS[what]
    c = _corrupt(s, t, corrupt)
    with pytest.raises(AssertionError):
        check(c, t)


def test_the_checks_pass_on_the_uncorrupted_state():
    s, t = _mid_game()
    c = _corrupt(s, t, lambda c, t: None)
    check_step(c, t)
    _deep(c, t)
    check_every_action(c)


def test_once_per_turn_check_catches_a_second_activation():
    """9.14: the test's own bookkeeping refuses a source activated twice in one turn."""
    s, t = _mid_game()
    seat = s.current_player
    s.players[seat].table[:] = [[C.CARD_BY_NAME["Rampart"].id, False]]
    t.used_entries.append(s.players[seat].table[0])  # as if it had been used, then its flag reset
    with pytest.raises(AssertionError):
        check_use(s, t, LAYOUT.encode("USE_TABLE", 0))
    t.generals_used.add(seat)
    with pytest.raises(AssertionError):
        check_use(s, t, LAYOUT.encode("USE_GENERAL"))


def test_privacy_check_catches_a_visible_difference():
    s, _ = _mid_game()
    other = s.clone()
    other.rubble.append(other.fortress.pop(0))  # the Rubble is public
    with pytest.raises(AssertionError):
        check_privacy(s, other, 0)


def test_replay_check_catches_a_different_game():
    game = HeroesAndMonstersGame(num_players=2)
    env = raw_env(num_players=2)
    _, actions, trace, final = play(game, 3, env)
    assert replay(game, 3, actions) == (trace, final)
    with pytest.raises((AssertionError, ValueError)):
        assert replay(game, 4, actions) == (trace, final)  # another seed: another game (or an illegal action)


# == smaller properties =============================================================================
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
