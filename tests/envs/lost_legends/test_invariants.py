"""Invariants of docs/lost_legends.md section 9 over many seeded random games, at 3, 4 and 5 players.

The games are played on the rules State directly (``legal_mask()`` / ``apply()``), with random
legal actions; one game in four seats the heuristic bot at the even seats (long combat phases,
more kills and level-ups) and one in ten is played with ``mask_useless_actions=False``. The
default run plays ``GAMES`` (600 games: about 15 s of CPU on an idle machine); the test
marked ``slow`` plays ``SLOW_GAMES`` (10,000).

How often each invariant of section 9 is checked (``Checker`` below): "every step" after every
action; "frequent" every ``FREQUENT_EVERY`` (4) steps; "sampled" every ``SAMPLE_EVERY`` (24) steps;
and all of them again at the game end.

| # | Invariant | Checked |
|---|---|---|
| 1 | card conservation: each of the 150 ids in exactly one zone, zones hold the right kind and level | sampled |
| 2 | gold: sum of gold - initial = paid out - paid in; ledger never decreases; no gold < 0 | every step |
| 3 | <= 3 cards per location, one weapon per type, one of each armor piece, unique names | sampled |
| 4 | 0 <= life <= max life <= 10, 0 <= mana <= max mana <= 10; gear-up: life = max, mana = max | every step for |
|   | | the seat to act, frequent for all |
| 5 | skill level = initial icons + skill cards of that type (so never below the initial icons) | frequent |
| 6 | a live monster's markers < its life; a monster in at most one place; defeated hold none | every step |
| 7 | experience, legend markers, trophy counts never decrease | every step |
|   | hero level = 1 + thresholds reached; life/mana level-up rewards <= levels gained | frequent |
| 8 | stack k: holders = tokens taken <= 4, their values are the top ones; challenge holder owns one | sampled |
| 9 | mask non-empty and the selected seat valid; the chosen masked-in action executes | every step |
|   | observations (seat to act + one rotating seat; every seat at the end): 2907 float32 in [0, 1] | sampled |
|   | every masked-in action executes and leads to a decision (exhaustively) | test_every_masked_in_action_... |
|   | a non-selected agent's mask is all zero (through env()) | test_env_masks_of_others_are_zero |
| 10 | in step 2 of a normal turn (the four SELECT decisions) the face-up slot is filled | every step |
| 11 | ends before max_steps, exactly 3 level ends | game end |
|    | the same seed and actions reproduce the identical trajectory and final state | every 10th game |
| 12 | final score = sum of its breakdown; winners = the argmax set; no one to act | game end |

The ``test_each_*_check_can_fail`` tests corrupt real states, one way per check, and assert that
the checker raises with that check's message, so none of the checks above is vacuous.
"""

from __future__ import annotations

import json
import random
from operator import ge

import numpy as np
import pytest

from envs import lost_legends_v0
from envs.lost_legends.common import (
    ARTIFACT_SLOTS,
    DECISIONS,
    GEAR_UP,
    KIND_SLOT,
    NO,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    SELECT_NONE,
    SELECT_OWN,
    SPELL_SLOTS,
    hero_level,
)
from envs.lost_legends.content import (
    CARDS,
    HEROES,
    KINDS,
    NUM_CARDS,
    TROPHY_STACKS,
    XP_THRESHOLDS,
    is_monster,
)
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot
from tests.helpers import play_random, random_states

GAMES = {3: 210, 4: 195, 5: 195}  # 600 in the default run (the thousands are under -m slow)
SLOW_GAMES = {3: 3400, 4: 3300, 5: 3300}  # 10,000 under -m slow
FREQUENT_EVERY = 4
SAMPLE_EVERY = 24
REPLAY_EVERY = 10
SELECTS = (SELECT_OWN, SELECT_NONE, SELECT_AFTER_PASS, SELECT_DRAWN)
OBS_SIZE = 2907


def zones(s) -> list[int]:
    """Every card id of every zone (invariant 1), with the zone's kind and level checked."""
    ids = list(s.removed) + list(s.box) + list(s.sixth)
    for lv in range(3):
        assert all(not is_monster(c) and CARDS[c].level == lv for c in s.decks[lv]), f"deck {lv}: wrong card"
        assert all(is_monster(c) and CARDS[c].level == lv for c in s.piles[lv] + s.reserves[lv]), (
            f"pile {lv}: wrong card"
        )
        ids += s.decks[lv] + s.piles[lv] + s.reserves[lv]
    monsters = list(s.front) + [s.faceup]
    for i in range(s.n):
        equipment = s.hands[i] + s.skill_cards[i] + [c for c in s.slots[i] + [s.picks[i]] if c != NO]
        assert not any(is_monster(c) for c in equipment), f"seat {i}: a monster among equipment"
        assert all(is_monster(c) for c in s.trophies[i]), f"seat {i}: equipment among trophies"
        ids += equipment + s.trophies[i]
    monsters = [m for m in monsters if m != NO]
    assert all(is_monster(m) for m in monsters), "equipment in a monster place"
    return ids + monsters


class Checker:
    """The invariants of section 9 on one game: ``step`` after every action, ``frequent`` every
    ``FREQUENT_EVERY`` steps, ``sampled`` every ``SAMPLE_EVERY`` steps, ``end`` at the end."""

    def __init__(self, s):
        self.prev = None
        self.step(s)
        self.frequent(s)
        self.sampled(s)

    def step(self, s) -> None:
        n = s.n
        gold = s.gold
        # 2. Gold conservation; the ledger only grows; no debt.
        assert sum(gold) - s.initial_gold == s.gold_out - s.gold_in, "gold conservation"
        assert min(gold) >= 0, "negative gold"
        # 7. Monotone counters.
        now = (list(s.xp), list(s.legend), [len(t) for t in s.trophies], s.gold_out, s.gold_in)
        if self.prev is not None:
            xp, legend, trophies, out, paid = self.prev
            assert all(map(ge, now[0], xp)), "experience decreased"
            assert all(map(ge, now[1], legend)), "legend markers decreased"
            assert all(map(ge, now[2], trophies)), "trophies decreased"
            assert s.gold_out >= out and s.gold_in >= paid, "gold ledger decreased"
        self.prev = now
        # 6. Monsters: one place each; markers below life; the defeated hold none.
        fronts = [m for m in s.front if m != NO]
        assert len(fronts) == len(set(fronts)) and s.faceup not in fronts, "a monster in two places"
        for i in range(n):
            m = s.front[i]
            if m != NO:
                assert s.markers[i] < CARDS[m].life, f"seat {i}: dead monster still in play"
                assert not s.defeated[i], f"seat {i}: defeated player holds a monster"
            else:
                assert s.markers[i] == 0, f"seat {i}: markers without a monster"
        # 4. Tracks of the seat to act (every seat's in frequent()).
        if not s.is_over():
            self.tracks(s, s.current_player)
        # 9. Someone valid has a legal action while the game runs.
        if not s.is_over():
            assert 0 <= s.current_player < n, "no seat to act"
            assert s.legal_mask().any(), "empty mask"
        # 10. Step 2 of a normal turn has a face-up monster.
        if s.decision in SELECTS:
            assert s.faceup != NO, "select step with an empty face-up slot"

    @staticmethod
    def tracks(s, i: int) -> None:
        max_life, max_mana = s.max_life(i), s.max_mana(i)
        assert 0 <= s.life[i] <= max_life <= 10, f"seat {i}: life track"
        assert 0 <= s.mana[i] <= max_mana <= 10, f"seat {i}: mana track"
        if s.phase == GEAR_UP:
            assert s.life[i] == max_life and s.mana[i] == max_mana, f"seat {i}: gear-up tracks not full"

    def frequent(self, s) -> None:
        for i in range(s.n):
            # 4. Tracks.
            self.tracks(s, i)
            # 5. Skills: the state's levels are the initial icons plus the skill cards.
            init = s.initial_skills(i)
            added = s.added_skills(i)
            assert s.levels[i] == [init[k] + added[k] for k in range(4)], f"seat {i}: skill levels"
            # 7. Hero level = 1 + thresholds reached; life and mana rewards taken <= levels gained.
            level = hero_level(s.xp[i])
            assert level == 1 + sum(s.xp[i] >= t for t in XP_THRESHOLDS) <= 6, f"seat {i}: hero level"
            _, _, _, life, mana = HEROES[s.heroes[i]]
            assert s.life_base[i] - life + s.mana_base[i] - mana <= level - 1, f"seat {i}: hero level rewards"

    def sampled(self, s, seats=None) -> None:
        n = s.n
        # 1. Card conservation.
        ids = zones(s)
        assert len(ids) == NUM_CARDS and len(set(ids)) == NUM_CARDS, "card conservation"
        for i in range(n):
            slots = s.slots[i]
            # 3. Locations, weapon types, armor pieces, unique names.
            names = [CARDS[c].name for c in slots if c != NO]
            assert len(names) == len(set(names)), f"seat {i}: two cards of one name"
            for slot, c in enumerate(slots):
                if c != NO:
                    kind = KINDS[CARDS[c].kind]
                    if kind in KIND_SLOT:
                        assert KIND_SLOT[kind] == slot, f"seat {i}: card in the wrong slot {slot}"
                    else:
                        assert slot in (SPELL_SLOTS if kind[0] == "S" else ARTIFACT_SLOTS), (
                            f"seat {i}: wrong slot {slot}"
                        )
        # 8. Trophy stacks: as many holders as tokens taken, holding the top values; challenge trophies.
        for k, (_, _, _, values) in enumerate(TROPHY_STACKS):
            held = sorted((s.tokens[i][k] for i in range(n) if s.tokens[i][k]), reverse=True)
            assert s.stack_taken[k] <= len(values) and held == list(values[: s.stack_taken[k]]), f"stack {k}"
        for t, holder in enumerate(s.challenge):
            if holder != NO:
                assert 0 <= holder < n and any(CARDS[m].type == t for m in s.trophies[holder]), f"challenge {t}"
        # 9. Observations (of the given seats, default all).
        for seat in range(n) if seats is None else seats:
            obs = s.observe(seat)
            assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32, "observation shape"
            assert obs.min() >= 0.0 and obs.max() <= 1.0, "observation out of [0, 1]"

    def end(self, s, steps: int) -> None:
        self.frequent(s)
        self.sampled(s)
        n = s.n
        # 11. A natural end after three levels, below the step cap.
        assert s.is_terminal() and not s.is_truncated() and s.level_ends == 3, "not 3 level ends"
        assert steps < s.game.options["max_steps"], "step cap reached"
        # 12. Scores and winners.
        scores = s.scores()
        assert scores == [float(sum(b.values())) for b in s.score_breakdown()], "score is not its breakdown"
        assert list(s.outcome().winners) == [i for i in range(n) if scores[i] == max(scores)], "winners"
        assert not s.legal_mask().any() and s.current_player == NO, "someone to act after the end"


def play(game, seed: int, bot_seats=(), checker: type[Checker] | None = Checker):
    """One game of random legal actions (the heuristic bot at ``bot_seats``), checked if asked:
    (final state, actions, the (seat, decision) trajectory)."""
    s = game.new_state(seed)
    rnd = random.Random(seed)
    bots = {seat: HeuristicBot(seed=seed) for seat in bot_seats}
    check = checker(s) if checker else None
    actions, trajectory = [], []
    while not s.is_over():
        trajectory.append((s.current_player, s.decision))
        bot = bots.get(s.current_player)
        if bot:
            a = bot.act_state(s)
        else:
            legal = np.flatnonzero(s.legal_mask())
            a = int(legal[rnd.randrange(len(legal))])
        s.apply(a)
        actions.append(a)
        if check:
            check.step(s)
            if len(actions) % FREQUENT_EVERY == 0:
                check.frequent(s)
            if len(actions) % SAMPLE_EVERY == 0:  # the observations of the seat to act and of one other
                check.sampled(s, {max(s.current_player, 0), len(actions) // SAMPLE_EVERY % s.n})
    if check:
        check.end(s, len(actions))
    return s, actions, trajectory


def replay(game, seed: int, actions: list[int]):
    s = game.new_state(seed)
    trajectory = []
    for a in actions:
        trajectory.append((s.current_player, s.decision))
        s.apply(a)
    return s, trajectory


def run_games(n: int, games: int) -> set[str]:
    """Play and check ``games`` games at ``n`` players; the decision kinds seen."""
    plain = LostLegendsGame(num_players=n)
    unmasked = LostLegendsGame(num_players=n, mask_useless_actions=False)
    seen = set()
    for k in range(games):
        seed = 10_000 * n + k
        game = unmasked if k % 10 == 9 else plain
        bot_seats = tuple(range(0, n, 2)) if k % 4 == 3 else ()
        s, actions, trajectory = play(game, seed, bot_seats)
        seen.update(DECISIONS[d] for _, d in trajectory)
        if k % REPLAY_EVERY == 0:  # 11. Same seed and actions, same game.
            again, again_trajectory = replay(game, seed, actions)
            assert again_trajectory == trajectory and again.to_json() == s.to_json(), seed
    return seen


@pytest.mark.parametrize("n", [3, 4, 5])
def test_invariants_on_random_games(n):
    seen = run_games(n, GAMES[n])
    # Between them, the games reach every decision kind.
    assert seen == set(DECISIONS), set(DECISIONS) - seen


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_invariants_on_many_random_games(n):
    seen = run_games(n, SLOW_GAMES[n])
    assert seen == set(DECISIONS), set(DECISIONS) - seen


# -- the checks can fail --------------------------------------------------------------------------------


def _states(n: int = 4, seed: int = 3) -> list:
    """Copies of the real state at every step of one game (heuristic bots at the even seats)."""
    game = LostLegendsGame(num_players=n)
    s = game.new_state(seed)
    out = [s.clone()]
    rnd = random.Random(seed)
    bots = {seat: HeuristicBot(seed=seed) for seat in range(0, n, 2)}
    while not s.is_over():
        bot = bots.get(s.current_player)
        legal = np.flatnonzero(s.legal_mask())
        s.apply(bot.act_state(s) if bot else int(legal[rnd.randrange(len(legal))]))
        out.append(s.clone())
    return out


def _first(states, where):
    return next(s for s in states if where(s)).clone()


def _seat_with_monster(s) -> int:
    return next(i for i in range(s.n) if s.front[i] != NO)


def _in_gear_up(s) -> bool:
    return s.phase == GEAR_UP


def _in_combat(s) -> bool:
    return s.phase != GEAR_UP and not s.is_over() and any(m != NO for m in s.front)


def _negative_gold(s):
    i = 0
    s.gold_in += s.gold[i] + 1  # conservation still holds: only the sign is wrong
    s.gold[i] = -1


def _markers_without_monster(s):
    s.markers[next(i for i in range(s.n) if s.front[i] == NO)] = 1


def _weapon_in_wrong_slot(s):
    i, w = next((i, w) for i in range(s.n) for w in (0, 1, 2) if s.slots[i][w] != NO)
    s.slots[i][(w + 1) % 3], s.slots[i][w] = s.slots[i][w], NO


def _take(s, card: int) -> None:
    """Remove ``card`` from wherever it is (to move it elsewhere without breaking conservation)."""
    for zone in [s.removed, s.box, s.sixth, *s.decks, *s.hands, *s.skill_cards]:
        if card in zone:
            zone.remove(card)
    for i in range(s.n):
        s.slots[i] = [NO if c == card else c for c in s.slots[i]]
        s.picks[i] = NO if s.picks[i] == card else s.picks[i]


def _same_name_twice(s):
    for k in ARTIFACT_SLOTS:  # seat 0's artifacts go to the box; both Magic Bandages take their place
        if s.slots[0][k] != NO:
            s.box.append(s.slots[0][k])
            s.slots[0][k] = NO
    for k, code in ((9, "1-24"), (10, "1-25")):
        card = next(c.id for c in CARDS if c.code == code)
        _take(s, card)
        s.slots[0][k] = card


def _token_value_not_on_top(s):
    k = next(k for k in range(6) if s.stack_taken[k])
    i = next(i for i in range(s.n) if s.tokens[i][k])
    s.tokens[i][k] = TROPHY_STACKS[k][3][-1] - 1


def _challenge_without_trophy(s):
    t = s.challenge.index(NO)
    s.challenge[t] = next(i for i in range(s.n) if all(CARDS[m].type != t for m in s.trophies[i]))


STEP_CASES = [  # (message of the check, a state where it applies, the corruption)
    ("gold conservation", _in_gear_up, lambda s: s.gold.__setitem__(0, s.gold[0] + 1)),
    ("negative gold", _in_gear_up, _negative_gold),
    ("a monster in two places", _in_combat, lambda s: setattr(s, "faceup", s.front[_seat_with_monster(s)])),
    ("dead monster", _in_combat, lambda s: s.markers.__setitem__(_seat_with_monster(s), 99)),
    ("defeated player holds", _in_combat, lambda s: s.defeated.__setitem__(_seat_with_monster(s), True)),
    ("markers without", lambda s: NO in s.front, _markers_without_monster),
    ("life track", _in_combat, lambda s: s.life.__setitem__(s.current_player, s.max_life(s.current_player) + 1)),
    ("life track", _in_combat, lambda s: s.life.__setitem__(s.current_player, -1)),
    ("mana track", _in_combat, lambda s: s.mana.__setitem__(s.current_player, s.max_mana(s.current_player) + 1)),
    (
        "gear-up tracks",
        lambda s: _in_gear_up(s) and s.mana[s.current_player] > 0,
        lambda s: s.mana.__setitem__(s.current_player, s.mana[s.current_player] - 1),
    ),
    ("empty mask", _in_combat, lambda s: setattr(s, "_mask", np.zeros(74, np.int8))),
    ("no seat to act", _in_combat, lambda s: setattr(s, "current_player", NO)),
    ("face-up", lambda s: s.decision in SELECTS, lambda s: setattr(s, "faceup", NO)),
]


def _other_seat(s) -> int:
    return (s.current_player + 1) % s.n


FREQUENT_CASES = [
    ("life track", _in_combat, lambda s: s.life.__setitem__(_other_seat(s), s.max_life(_other_seat(s)) + 1)),
    ("mana track", _in_combat, lambda s: s.mana.__setitem__(_other_seat(s), -1)),
    ("skill levels", _in_gear_up, lambda s: s.levels[0].__setitem__(0, s.levels[0][0] + 1)),
    ("hero level rewards", _in_combat, lambda s: s.life_base.__setitem__(0, s.life_base[0] + 6)),
]
LATER_CASES = [  # (message, the corruption of a later state): counters that went back
    ("experience decreased", lambda s: s.xp.__setitem__(s.xp.index(max(s.xp)), 0)),
    ("legend markers decreased", lambda s: s.legend.__setitem__(s.legend.index(max(s.legend)), 0)),
    ("trophies decreased", lambda s: max(s.trophies, key=len).pop()),
    ("gold ledger decreased", lambda s: (setattr(s, "gold_in", s.gold_in - 1), s.gold.__setitem__(0, s.gold[0] + 1))),
]
SAMPLED_CASES = [
    ("card conservation", lambda s: s.is_over(), lambda s: s.box.pop()),
    ("card conservation", lambda s: True, lambda s: s.box.append(s.removed[0])),
    ("deck 0", _in_gear_up, lambda s: s.decks[0].append(s.reserves[0].pop())),
    ("wrong slot", lambda s: any(s.slots[i][w] != NO for i in range(s.n) for w in (0, 1, 2)), _weapon_in_wrong_slot),
    ("two cards of one name", lambda s: s.is_over(), _same_name_twice),
    ("stack 0", lambda s: s.stack_taken[0] == 0, lambda s: s.tokens[1].__setitem__(0, 4)),
    ("stack", lambda s: any(s.stack_taken), _token_value_not_on_top),
    ("challenge", lambda s: NO in s.challenge, _challenge_without_trophy),
]


# (the Checker method, message, where it applies, corruption): each check is shown to fire once
CORRUPTIONS = [
    *(("step", *c) for c in STEP_CASES),
    *(("frequent", *c) for c in FREQUENT_CASES),
    *(("sampled", *c) for c in SAMPLED_CASES),
    *(("step", message, None, corrupt) for message, corrupt in LATER_CASES),  # None: a later state
]


@pytest.mark.parametrize(
    "method,message,where,corrupt", CORRUPTIONS, ids=[f"{c[0]}-{c[1]}-{k}" for k, c in enumerate(CORRUPTIONS)]
)
def test_each_check_can_fail(method, message, where, corrupt, game_states):
    s = game_states[-1].clone() if where is None else _first(game_states, where)
    check = Checker(s)
    corrupt(s)
    with pytest.raises(AssertionError, match=message):
        getattr(check, method)(s)


def test_observation_and_end_checks_can_fail(game_states, monkeypatch):
    """The observation range and the end-of-game checks hold by construction of the encoder and
    the scoring code, so they are shown to fire on a broken encoder and broken game ends."""
    s = game_states[-1].clone()
    check = Checker(s)
    check.end(s, 10)
    good = s.observe
    monkeypatch.setattr(s, "observe", lambda seat: good(seat) * 2)
    with pytest.raises(AssertionError, match="observation out of"):
        check.sampled(s)
    monkeypatch.setattr(s, "observe", lambda seat: good(seat)[:-1])
    with pytest.raises(AssertionError, match="observation shape"):
        check.sampled(s)
    monkeypatch.setattr(s, "observe", good)
    for corrupt, message in [
        (lambda t: setattr(t, "level_ends", 2), "3 level ends"),
        (lambda t: monkeypatch.setattr(t, "winners", lambda: []), "winners"),
        (lambda t: monkeypatch.setattr(t, "scores", lambda: [-1.0] * t.n), "breakdown"),
    ]:
        t = s.clone()
        corrupt(t)
        with pytest.raises(AssertionError, match=message):
            check.end(t, 10)
    with pytest.raises(AssertionError, match="step cap"):
        check.end(s.clone(), s.game.options["max_steps"])


@pytest.fixture(scope="module")
def game_states():
    return _states()


# -- other section 9 checks -----------------------------------------------------------------------------


def test_useless_actions_unmasked_variant_terminates():
    game = LostLegendsGame(num_players=4, mask_useless_actions=False)
    for seed in range(2):
        s, _, _ = play(game, seed, bot_seats=(1,))
        assert s.is_terminal()


@pytest.mark.parametrize("n", [3, 5])
def test_same_seed_same_actions_same_game(n):
    game = LostLegendsGame(num_players=n)
    s, actions, _ = play(game, 77, bot_seats=(0,), checker=None)
    again = game.new_state(77)
    for a in actions:
        again.apply(a)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(s.to_json(), sort_keys=True)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_env_masks_of_others_are_zero(n):
    """Invariant 9 through env(): only the selected agent has legal actions; observations fit the space."""
    env = lost_legends_v0.env(num_players=n)
    space = env.observation_space("player_0")["observation"]
    for seed in range(3):
        rnd = random.Random(seed)
        env.reset(seed=seed)
        steps = 0
        for agent in env.agent_iter(max_iter=100_000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any() and space.contains(obs["observation"])
            if steps % 8 == 0:
                for other in env.agents:
                    if other != agent:
                        assert not env.observe(other)["action_mask"].any()
            env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1


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
    s = play_random(game.new_state(0), np.random.default_rng(0))
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
        for s in random_states(game, 900 + seed, every=6, rng=np.random.default_rng(seed)):
            for a in np.flatnonzero(s.legal_mask()):
                copy = s.clone()
                copy.apply(int(a))
                assert copy.is_over() or copy.legal_mask().any()
                tried += 1
    assert tried > 100
