"""Randomized-game invariants of Last Bastion: design section 9, "Invariants for randomized tests".

Random legal play (uniform over the legal ids, ``random.Random(seed)``) on the rules State
(``legal_actions()`` / ``apply()``), over seeded games at every player count 1-4, every level, and
both ``effect_order`` values: 600 games in the default run (:func:`test_random_games_keep_the_invariants`,
150 per player count), 10,000 more under ``@pytest.mark.slow`` with the expensive checks at every
third step and every game replayed.

How often each invariant is checked (``Tracker.step`` = after every step, reset included;
``deep_check`` = at sampled steps, every ``DEEP_EVERY``-th step of every game, and at every game's end):

1. Cards (all 60 ids exactly once over deck, spaces, discard, set-aside and the card being placed;
   a space holds at most one card): every step.
2. Tokens (reserve + heroes = box total per type, all counts >= 0) and the Standard (its colour is
   one of the 5 Standard tokens, which are not state and so cannot move): every step.
3. Grasp figures (tiles + Hero boards + reserve = 11, at most one per tile and per board, only on
   boards of heroes in play, <= 2 grasped tiles unless defeat_grasp): every step.
4. Elements (one valid state each, where-fields consistent, Trap only on an empty space, Net never on
   a Warlord, DEPLOYED Net/Enchantment on a card in play, PARKED implies the home is grasped): every step.
5. Heroes (in play: Life >= 1 and a tile; out/dead: no tokens, no tile; Life >= 0; wounded: no power;
   a dead hero never returns): every step (the last one across steps).
6. Warlords (vanquished <= W; victory implies vanquished = W; vanquished = W without victory only
   while the last exit effects resolve or after a defeat; vanquished grows only on COMBAT_RESOLVE;
   Warlords in the discard <= vanquished): every step.
7. Masks (>= 1 legal id, the selected agent is in play, mask = legal ids): every step; every legal
   id steps without error (on clones) and non-selected agents get an all-zero mask through
   ``env()``: deep.
8. Termination (board-turns <= the cap, < 200 decisions per board-turn, < 20,000 steps): every step.
9. Observation (shape, dtype, range [0, 1] for every seat; two seats' observations equal after
   re-rotation to the absolute frame, apart from the observer-specific fields): deep.
10. Determinism (a JSON clone equals the state and plays on identically; the whole game replayed
    from its seed and actions gives the same rewards and final JSON): JSON clone at deep steps, the
    replay at the end of every ``REPLAY_EVERY``-th game.
11. Rewards (identical for all agents at every step; zero before the end under ``win_loss``): every step.
12. Deck structure at reset (Warlords at the positions of table 1.4): every game, at reset.

:func:`test_each_check_can_fail` corrupts real states one way per invariant and asserts that the
checks raise.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from envs.last_bastion import content as C
from envs.last_bastion.actions import END_TURN
from envs.last_bastion.env import raw_env
from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.observation import OBSERVATION_LAYOUT, OBSERVATION_LAYOUT_CARD_IDS, SP_SIZE, TL

DIFFICULTIES = ("novice", "normal", "difficult", "heroic")
DEEP_EVERY = 12  # deep checks at every 12th step of every game, and at its end
REPLAY_EVERY = 10  # a full replay from seed and actions for every 10th game
MAX_STEPS = 20_000
STATES = {
    "standard": ("home", "deployed", "parked"),
    "trap": ("home", "deployed", "parked"),
    "net": ("home", "deployed", "parked"),
}
STATES["enchantment"] = ("home", "deployed", "parked", "out")


def is_warlord(card: int) -> bool:
    return C.CARDS[card].warlord


# == cheap checks: after every step ================================================================
def check_cards(s) -> None:
    where = list(s.deck) + [c for c in s.spaces if c >= 0] + list(s.discard) + list(s.set_aside)
    if s.placing >= 0:
        where.append(s.placing)
    assert sorted(where) == list(range(C.NUM_CARDS)), Counter(where).most_common(3)
    assert len(s.spaces) == 12 and all(isinstance(c, int) and -1 <= c < C.NUM_CARDS for c in s.spaces)


def check_tokens(s) -> None:
    for c in range(5):
        assert s.reserve_equip[c] + sum(h["equip"][c] for h in s.heroes) == C.EQUIP_PER_COLOR, ("equip", c)
        assert s.reserve_equip[c] >= 0 and all(h["equip"][c] >= 0 for h in s.heroes)
    assert s.reserve_life + sum(h["life"] for h in s.heroes) == C.LIFE_TOTAL, "life"
    assert s.reserve_cta + sum(h["cta"] for h in s.heroes) == C.CTA_TOTAL, "cta"
    assert s.reserve_life >= 0 and s.reserve_cta >= 0 and all(h["cta"] >= 0 for h in s.heroes)
    std = s.elements["standard"]
    if std["state"] == "deployed":  # planted on one of the 5 Standard tokens' colours
        assert 0 <= std["where"] < 5 and std["seat"] in s.seat_of


def check_figures(s) -> None:
    on_boards = sum(bool(h["board_grasped"]) for h in s.heroes)
    assert all(isinstance(g, bool) for g in s.grasped) and len(s.grasped) == 9
    assert sum(s.grasped) + on_boards + s.grasp_reserve() == C.GRASP_TOTAL
    assert s.grasp_reserve() >= 0
    for h in s.heroes:
        assert isinstance(h["board_grasped"], bool)
        assert h["status"] == "in" or not h["board_grasped"], "a Grasp on the board of a hero out of play"
    assert sum(s.grasped) <= 2 or s.result == "defeat_grasp"
    if s.result == "defeat_grasp":
        assert sum(s.grasped) == 3


def check_elements(s) -> None:
    for name, allowed in STATES.items():
        e = s.elements[name]
        assert e["state"] in allowed, (name, e)
        if e["state"] != "deployed":
            assert e["where"] == -1, (name, e)
    trap, net, ench = s.elements["trap"], s.elements["net"], s.elements["enchantment"]
    if trap["state"] == "deployed":
        assert s.spaces[trap["where"]] < 0, "the Trap on a card"
    if net["state"] == "deployed":
        assert s.spaces[net["where"]] >= 0 and not is_warlord(s.spaces[net["where"]]), "the Net off a Monster"
    if ench["state"] == "deployed":
        assert s.spaces[ench["where"]] >= 0, "the Enchantment off a card"
    for name in ("standard", "trap", "net"):
        if s.elements[name]["state"] == "parked":
            assert s.grasped[s.tile_pos(C.ELEMENT_HOME_TILE[name])], name
    if ench["state"] == "parked":
        m = s.mylfaar()
        assert m >= 0 and s.heroes[m]["board_grasped"]
    if s.mylfaar() < 0:
        assert ench["state"] == "out"


def check_heroes(s) -> None:
    for p, h in enumerate(s.heroes):
        assert h["status"] in ("in", "out", "dead") and h["life"] >= 0
        if h["status"] == "in":
            assert h["life"] >= 1 and 0 <= h["tile"] < 9, (p, h)
        else:
            assert h["life"] == 0 and h["cta"] == 0 and sum(h["equip"]) == 0 and h["tile"] == -1, (p, h)
        if h["wounded"]:
            assert not s.power_usable(p)
        if h["status"] == "dead":
            assert h["wounded"], "only a wounded hero can die"


def check_warlords(s) -> None:
    assert 0 <= s.vanquished <= s.W
    if s.result == "victory":
        assert s.vanquished == s.W
    if s.vanquished == s.W and s.result != "victory":
        # the last Warlord's exit effects are resolving, or they caused a defeat (2.12)
        assert (s.result is None and ["victory"] in s.stack) or s.result in (
            "defeat_heroes",
            "defeat_grasp",
            "defeat_deck",
        )
    assert sum(is_warlord(c) for c in s.discard) <= s.vanquished, "a Warlord discarded without a combat"


def check_mask(s) -> None:
    mask = s.legal_mask()
    assert mask.shape == (C_NUM_ACTIONS,) and mask.dtype == np.int8
    if s.result is None:
        legal = s.legal_actions()
        assert len(legal) >= 1 and s.in_play(s.current_player)
        assert np.flatnonzero(mask).tolist() == sorted(legal)
    else:
        assert mask.sum() == 0 and s.current_player == -1


def check_rewards(s) -> None:
    r = s.rewards()
    assert len(r) == s.n and len(set(r)) == 1
    if s.result is None and s.game.options["reward_scheme"] == "win_loss":
        assert r[0] == 0.0


C_NUM_ACTIONS = LastBastionGame(num_players=1).num_actions
CHEAP_CHECKS = (
    check_cards,
    check_tokens,
    check_figures,
    check_elements,
    check_heroes,
    check_warlords,
    check_mask,
    check_rewards,
)


def check(s) -> None:
    """Every cheap check of one state (invariants 1-7 and 11)."""
    for fn in CHEAP_CHECKS:
        fn(s)


class Tracker:
    """The checks across the steps of one game: cheap checks, plus 5 (the dead stay dead), 6 (Warlords
    are vanquished in combat) and 8 (bounds on the length)."""

    def __init__(self, s):
        self.dead: set[int] = set()
        self.steps = 0
        self.turn, self.in_turn = s.board_turns, 0
        self.vanquished = s.vanquished
        self.kind = None
        self.step(s)

    def before(self, s) -> None:
        self.kind = s.decision["kind"]

    def step(self, s) -> None:
        check(s)
        for p, h in enumerate(s.heroes):
            if p in self.dead:
                assert h["status"] == "dead", f"dead player_{p} returned"
            elif h["status"] == "dead":
                self.dead.add(p)
        if s.vanquished != self.vanquished:
            assert s.vanquished > self.vanquished and self.kind == "COMBAT_RESOLVE", "vanquished outside a combat"
            self.vanquished = s.vanquished
        if s.board_turns != self.turn:
            self.turn, self.in_turn = s.board_turns, 0
        self.in_turn += 1
        assert self.in_turn < 200, "200 decisions in one board-turn"
        assert s.board_turns <= s.game.options["max_board_turns"]
        assert self.steps < MAX_STEPS


# == expensive checks: at sampled steps ============================================================
def absolute_frame(v: np.ndarray, b: int) -> np.ndarray:
    """An observation made in the frame of board ``b``, rotated into the absolute frame (board 0 at the
    bottom), with the observer-specific fields (phase, observer is controller, observer is active hero)
    zeroed."""
    layout = OBSERVATION_LAYOUT_CARD_IDS if len(v) == OBSERVATION_LAYOUT_CARD_IDS.size else OBSERVATION_LAYOUT
    seat = (np.arange(4) - b) % 4  # absolute seat/board -> offset seen from board b
    space = (np.arange(12) - 3 * b) % 12  # absolute space -> relative space
    tile = np.array(C.REL_TILE[b])  # absolute tile -> relative tile
    out = v.copy()

    def at(name: str) -> int:
        return layout[name].offset

    def rot(start: int, index: np.ndarray) -> None:
        out[start : start + len(index)] = v[start + index]

    out[layout.slice("phase")] = 0.0
    out[at("turn") + 2] = out[at("turn") + 3] = 0.0
    rot(at("current_board"), seat)
    rot(at("pending_effect") + len(C.PRIMITIVES) + 2, seat)
    rot(at("combat") + 6, space)
    rot(at("combat") + 18, space)
    rot(at("tower_source"), space)
    rot(at("elements") + 8, seat)
    tiles = v[layout.slice("tiles")].reshape(9, -1)[tile].copy()
    tiles[:, TL["heroes"] : TL["heroes"] + 4] = tiles[:, TL["heroes"] + seat]
    out[layout.slice("tiles")] = tiles.ravel()
    out[layout.slice("spaces")] = v[layout.slice("spaces")].reshape(12, SP_SIZE)[space].ravel()
    heroes = v[layout.slice("heroes")].reshape(4, -1)[seat].copy()
    hero_tile = layout["heroes"].shape[1] - 10  # the 9 tile fields, then "active"
    heroes[:, hero_tile : hero_tile + 9] = heroes[:, hero_tile + tile]
    out[layout.slice("heroes")] = heroes.ravel()
    out[layout.slice("boards")] = v[layout.slice("boards")].reshape(4, -1)[seat].ravel()
    if layout is OBSERVATION_LAYOUT_CARD_IDS:
        ids = v[layout.slice("card_ids")].reshape(13, -1).copy()
        ids[:12] = ids[space]
        out[layout.slice("card_ids")] = ids.ravel()
    return out


#: the observation's upper bounds: 1 everywhere ("deck / 50" is clipped: 4 heroes at Difficult and Heroic
#: start with 50 Monsters + 2-3 Warlords)
HIGH = np.ones(OBSERVATION_LAYOUT_CARD_IDS.size, np.float32)


def check_observations(s) -> None:
    size = s.game.observation_layout.size
    assert size == (OBSERVATION_LAYOUT_CARD_IDS if s.game.options["obs_card_ids"] else OBSERVATION_LAYOUT).size
    frames = []
    for p in range(s.n):
        v = s.observe(p)
        assert v.shape == (size,) and v.dtype == np.float32
        assert v.min() >= 0.0 and (v <= HIGH[: len(v)]).all(), np.flatnonzero(v > HIGH[: len(v)])
        frames.append(absolute_frame(v, s.seat_of[p]))
    for p in range(1, s.n):
        diff = np.flatnonzero(frames[p] != frames[0])
        assert diff.size == 0, f"player_{p} vs player_0 differ after re-rotation at {diff[:8]}"


def check_clone_and_legal_ids(s, env) -> None:
    data = s.to_json()
    clone = s.game.state_from_json(json.loads(json.dumps(data)))
    assert clone.to_json() == data
    assert np.array_equal(clone.observe(0), s.observe(0)) and np.array_equal(clone.legal_mask(), s.legal_mask())
    if s.result is not None:
        return
    for a in s.legal_actions():  # 7: every legal id steps without error
        c = s.game.state_from_json(data)
        c.apply(a)
        check(c)
    env.reset_to_state(clone)  # 7: through env(), every non-selected agent gets an all-zero mask
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert np.array_equal(mask, s.legal_mask())
        else:
            assert not mask.any(), agent


def deep_check(s, env) -> None:
    check_observations(s)
    check_clone_and_legal_ids(s, env)


def check_deck_at_reset(s) -> None:
    full = ([s.placing] if s.placing >= 0 else []) + s.deck
    m = C.monster_count(s.n, s.game.options["difficulty"])
    top = m - 8 * s.W
    assert len(full) == m + s.W
    assert [i for i, c in enumerate(full) if is_warlord(c)] == [top + 9 * k for k in range(s.W)]


# == random games ==================================================================================
def game_options(i: int) -> dict:
    """The i-th game's options: player counts cycle fastest, then levels; every 5th uses fixed order."""
    return {
        "num_players": 1 + i % 4,
        "difficulty": DIFFICULTIES[(i // 4) % 4],
        "effect_order": "fixed" if i % 5 == 4 else "choose",
        "obs_card_ids": i % 97 == 13,
    }


def play(game, seed: int, deep_every: int, env=None) -> tuple[str, list[int], list]:
    s = game.new_state(seed)
    check_deck_at_reset(s)
    track = Tracker(s)
    rng = random.Random(seed)
    actions, rewards = [], []
    while not s.is_over():
        if track.steps % deep_every == 0:
            deep_check(s, env)
        a = rng.choice(s.legal_actions())
        track.before(s)
        s.apply(a)
        track.steps += 1
        track.step(s)
        actions.append(a)
        rewards.append(s.rewards())
    deep_check(s, env)
    assert s.outcome() is not None and s.outcome().team_won == (s.result == "victory")
    assert s.returns()[0] == {"victory": 1.0, "truncated": 0.0}.get(s.result, -1.0)
    return s.result, actions, (rewards, s.to_json())


def replay(game, seed: int, actions: list[int]):
    s = game.new_state(seed)
    rewards = []
    for a in actions:
        s.apply(a)
        rewards.append(s.rewards())
    return rewards, s.to_json()


def run_games(indices, deep_every: int, replay_every: int) -> Counter:
    games, envs_ = {}, {}
    ends = Counter()
    for i in indices:
        opts = game_options(i)
        key = tuple(sorted(opts.items()))
        if key not in games:
            games[key] = LastBastionGame(**opts)
            envs_[key] = raw_env(**opts)
        game = games[key]
        seed = 100_000 + i
        result, actions, final = play(game, seed, deep_every, envs_[key])
        ends[opts["num_players"], result] += 1
        if i % replay_every == 0:  # 10: same seed and actions, same game
            assert replay(game, seed, actions) == final
    return ends


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_games_keep_the_invariants(n):
    """150 games at this player count (600 over the four; 10,000 more under -m slow): every level,
    both effect orders."""
    ends = run_games(range(n - 1, 600, 4), DEEP_EVERY, REPLAY_EVERY)
    assert sum(ends.values()) == 150
    assert len({r for (_, r) in ends}) >= 2, ends  # the games end in several ways


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_games_keep_the_invariants_slow(n):
    """2,500 more games at this player count (10,000 over the four): the deep checks at every third
    step, a replay of every game."""
    ends = run_games(range(2000 + n - 1, 12000, 4), 3, 1)
    assert sum(ends.values()) == 2500


# == every check can fail ==========================================================================
def _mid_game(n=3, seed=7, steps=25, **opts):
    game = LastBastionGame(num_players=n, **opts)
    s = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_actions()))
    assert not s.is_over()
    return s


def _first_card_space(s):
    return next(k for k in range(12) if s.spaces[k] >= 0)


def _free_space(s):
    return next(k for k in range(12) if s.spaces[k] < 0)


CORRUPTIONS = {}


def corruption(fn):
    CORRUPTIONS[fn.__name__] = fn
    return fn


def _take_out_by_hand(s, p: int, status: str) -> None:
    """Player p leaves play consistently (tokens back to the reserve)."""
    h = s.heroes[p]
    s.reserve_life += h["life"]
    s.reserve_cta += h["cta"]
    for c in range(5):
        s.reserve_equip[c] += h["equip"][c]
    h.update(status=status, wounded=status == "dead", life=0, cta=0, equip=[0] * 5, tile=-1, board_grasped=False)


@corruption
def card_duplicated(s):
    s.discard.append(s.deck[0])


@corruption
def card_lost(s):
    s.deck.pop()


@corruption
def card_on_two_spaces(s):
    k = _first_card_space(s)
    s.spaces[_free_space(s)] = s.spaces[k]


@corruption
def life_from_nowhere(s):
    s.heroes[0]["life"] += 1


@corruption
def equipment_from_nowhere(s):
    s.heroes[0]["equip"][2] += 1


@corruption
def negative_reserve(s):
    s.reserve_cta -= 7
    s.heroes[0]["cta"] += 7


@corruption
def third_grasped_tile(s):
    s.grasped[:] = [True, True, True] + [False] * 6


@corruption
def grasp_on_a_taken_out_board(s):
    _take_out_by_hand(s, 1, "out")
    s.heroes[1]["board_grasped"] = True


@corruption
def trap_on_a_card(s):
    s.elements["trap"].update(state="deployed", where=_first_card_space(s))


@corruption
def net_on_an_empty_space(s):
    s.elements["net"].update(state="deployed", where=_free_space(s))


@corruption
def parked_with_its_home_free(s):
    s.grasped[:] = [False] * 9
    s.elements["net"].update(state="parked")


@corruption
def hero_in_play_off_the_bastion(s):
    s.heroes[0]["tile"] = -1


@corruption
def taken_out_hero_with_a_tile(s):
    _take_out_by_hand(s, 1, "out")
    s.heroes[1]["tile"] = 4


@corruption
def too_many_warlords_vanquished(s):
    s.vanquished = s.W + 1


@corruption
def warlord_discarded_without_combat(s):
    w = next(c for c in s.set_aside if is_warlord(c))
    s.set_aside.remove(w)
    s.discard.append(w)


@corruption
def victory_without_the_warlords(s):
    s.result = "victory"


@corruption
def decision_without_legal_ids(s):
    s.decision["legal"] = []


@corruption
def rewards_differ(s):
    s.last_rewards = [0.0, 1.0, 0.0]


@pytest.mark.parametrize("what", sorted(CORRUPTIONS))
def test_each_check_can_fail(what):
    s = _mid_game()
    check(s)
    CORRUPTIONS[what](s)
    with pytest.raises(AssertionError):
        check(s)


def test_wounded_power_check_can_fail(monkeypatch):
    s = _mid_game()
    s.heroes[0]["wounded"] = True
    check(s)
    # an engine bug the check must catch: powers that ignore the wounded side
    monkeypatch.setattr(type(s), "power_usable", lambda self, p, hero=None: self.in_play(p))
    with pytest.raises(AssertionError):
        check(s)


def test_tracker_catches_a_returning_dead_hero_a_long_board_turn_and_a_free_warlord():
    s = _mid_game()
    _take_out_by_hand(s, 1, "dead")
    track = Tracker(s)
    assert track.dead == {1}
    s.heroes[1]["status"] = "out"
    with pytest.raises(AssertionError):
        track.step(s)
    s = _mid_game()
    track = Tracker(s)
    track.in_turn = 199
    with pytest.raises(AssertionError):
        track.step(s)
    s = _mid_game()
    track = Tracker(s)
    track.before(s)
    if s.decision["kind"] != "COMBAT_RESOLVE":
        s.vanquished += 1
        with pytest.raises(AssertionError):
            track.step(s)


def test_rotation_check_can_fail(monkeypatch):
    s = _mid_game(n=2)
    check_observations(s)
    real = type(s).observe
    # an encoder that forgets to rotate: player_1 sees player_0's frame
    monkeypatch.setattr(type(s), "observe", lambda self, p: real(self, 0))
    with pytest.raises(AssertionError):
        check_observations(s)


def test_truncation_cap():
    game = LastBastionGame(num_players=1, max_board_turns=2, heroes=["Thorgrim"])
    s = game.new_state(0)
    while not s.is_over():
        legal = s.legal_actions()
        s.apply(END_TURN if END_TURN in legal else legal[0])
    assert s.result == "truncated" and s.board_turns == 2
    assert s.is_truncated() and not s.is_terminal() and s.rewards() == [0.0]
    assert s.outcome().truncated and s.outcome().winners == ()


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
