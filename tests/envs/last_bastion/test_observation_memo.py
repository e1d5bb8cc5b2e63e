"""Last Bastion's observation through the core memo (``state.observe``: ``layout.encode``) against the
same blocks written from scratch (``layout.encode_plain``, the definition), bit for bit: the
conformance kit's memo check at every player count with every option that changes the observation
(it also checks that each block reads only the fields it declares), and hand-edited states (a key
must hold everything its blocks read, or the rules' counters must stand for it: see
observation.py). Also the rules' cached helpers against their plain definitions."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from envs import conformance as kit
from envs.last_bastion import content as C
from envs.last_bastion.combat import _plan
from envs.last_bastion.game import LastBastionGame

DIFFICULTIES = ("novice", "normal", "difficult", "heroic")


def assert_same(s, order) -> None:
    """The memo's vectors are the plain ones, bit for bit (not just ==)."""
    layout = s.game.observation_layout
    for p in order:
        memo, plain = s.observe(p), layout.encode_plain(s, p)
        diff = np.flatnonzero(memo.view(np.uint32) != plain.view(np.uint32))
        assert diff.size == 0, f"player_{p}: fields {diff[:10]} differ"


def plain_central(s):
    counts = dict.fromkeys(C.ONGOING, 0)
    sealed = set()
    for k in range(12):
        c = s.spaces[k]
        e = C.CARDS[c].central if c >= 0 else None
        if e is not None and e.prim in C.ONGOING and not s.suppressed(k):
            counts[e.prim] += 1
            if e.prim == "ONG_SEAL":
                sealed.add(C.SPACE_FACES[k])
    return counts, sealed


def assert_helpers(s) -> None:
    assert s.completable_types() == [s.completable(k) for k in range(len(C.TILES))]
    counts, sealed = plain_central(s)
    assert s.ongoing_counts() == counts and s.sealed_tiles() == sealed


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [
        {"obs_card_ids": True, "difficulty": "novice"},
        {"obs_hints": True, "difficulty": "difficult", "effect_order": "fixed"},
        {"obs_card_ids": True, "obs_hints": True, "difficulty": "heroic"},
    ],
    ids=["card_ids", "hints", "both"],
)
def test_the_memo_gives_the_plain_observation_with_every_observation_option(n, options):
    """The kit's memo check (tests/test_conformance.py runs it with the default options)."""
    kit.check_observation_memo(LastBastionGame, n, games=3, seed=100 * n, **options)


def test_helpers_match_their_plain_definitions_in_random_games():
    for i in range(24):
        game = LastBastionGame(num_players=1 + i % 4, difficulty=DIFFICULTIES[i % 4])
        s = game.new_state(500 + i)
        rng = random.Random(i)
        while not s.is_over():
            assert_helpers(s)
            s.apply(rng.choice(s.legal_actions()))


def _edits(s, rng):
    """Hand edits of what the observation reads (the state need not stay legal), each with the
    counters the rules would bump for it. ``layout``, ``seat_of`` and ``player_at`` are constants of
    the layout (set up once): an edit of them needs a rebuilt state."""
    h = s.heroes[rng.randrange(s.n)]
    free = [k for k in range(12) if s.spaces[k] < 0]
    full = [k for k in range(12) if s.spaces[k] >= 0]
    spare = [c for c in s.set_aside]
    return [
        (lambda: h.__setitem__("life", h["life"] + 1), HEROES),
        (lambda: h.__setitem__("cta", max(0, h["cta"] - 1)), HEROES),
        (lambda: h["equip"].__setitem__(rng.randrange(5), rng.randrange(4)), HEROES),
        (lambda: h.__setitem__("tile", rng.randrange(9)) if h["status"] == "in" else None, PLACES),
        (lambda: h.__setitem__("wounded", not h["wounded"]), HEROES),
        (lambda: h.__setitem__("board_grasped", not h["board_grasped"]), PLACES + BOARD),
        (lambda: s.grasped.__setitem__(rng.randrange(9), True), BOARD),
        (lambda: s.spaces.__setitem__(free[0], spare.pop()) if free and spare else None, BOARD),
        (lambda: s.spaces.__setitem__(full[0], -1) if full else None, BOARD),
        (lambda: s.sanct.__setitem__(full[-1], 0) if full else None, BOARD),
        (lambda: s.elements["standard"].update(state="deployed", where=rng.randrange(5), seat=s.seat_of[0]), ELEMENTS),
        (lambda: s.elements["net"].update(state="deployed", where=full[0]) if full else None, ELEMENTS),
        (lambda: s.elements["trap"].update(state="deployed", where=free[-1]) if free else None, ELEMENTS),
        (lambda: s.elements["enchantment"].update(state="deployed", where=full[-1]) if full else None, ELEMENTS),
        # read by value: no counter
        (lambda: s.discard.append(s.set_aside[0]) if s.set_aside else None, ()),
        (lambda: s.deck.pop(0) if len(s.deck) > 1 else None, ()),
        (lambda: setattr(s, "reserve_life", max(0, s.reserve_life - 1)), ()),
        (lambda: s.reserve_equip.__setitem__(rng.randrange(5), 0), ()),
        (lambda: setattr(s, "vanquished", min(s.W, s.vanquished + 1)), ()),
        (lambda: setattr(s, "acted", not s.acted), ()),
        (lambda: setattr(s, "neutral", not s.neutral), ()),
        (lambda: setattr(s, "reserve_cta", max(0, s.reserve_cta - 1)), ()),
        (lambda: setattr(s, "board_turns", s.board_turns + 7), ()),
        (lambda: setattr(s, "moved", not s.moved), ()),
        (lambda: setattr(s, "power_used", not s.power_used), ()),
        (lambda: setattr(s, "board", (s.board + 1) % 4), ()),
        (lambda: s.sanct.__setitem__(free[0], 1) if free else None, BOARD),
        (lambda: h.__setitem__("status", "out"), PLACES),
        (lambda: h.__setitem__("status", "in"), PLACES),
        (lambda: s.elements["standard"].update(state="home", where=-1, seat=-1), ELEMENTS),
        (lambda: s.elements["trap"].__setitem__("state", "parked"), ELEMENTS),
        (lambda: s.elements["net"].__setitem__("where", (s.elements["net"]["where"] + 1) % 12), ELEMENTS),
        (lambda: s.grasped.__setitem__(rng.randrange(9), False), BOARD),
        (lambda: s.spaces.__setitem__(full[0], spare.pop()) if full and spare else None, BOARD),
        (lambda: s.deck.insert(0, s.deck.pop()) if len(s.deck) > 1 else None, ()),  # a new top card
    ]


#: the rules' version counters an edit in place must bump (observation.py): the hero fields, the board
#: (spaces, sanctified marks, grasped tiles, elements), the elements; the others are read by value
HEROES, PLACES, BOARD = ("_heroes_ver",), ("_heroes_ver", "_places_ver"), ("_board_ver",)
ELEMENTS = ("_board_ver", "_elements_ver")


def test_the_memo_follows_hand_edits():
    """Edit one thing at a time, in place: the memo must still give the plain floats, a field read by
    value at once, a field behind the rules' counters once the counter is bumped (as the rules do)."""
    rng = random.Random(3)
    for i in range(24):
        n = 1 + i % 4
        game = LastBastionGame(num_players=n, obs_card_ids=i % 2 == 1, obs_hints=i % 3 == 2)
        s = game.new_state(900 + i)
        for _ in range(rng.randrange(5, 40)):
            if s.is_over():
                break
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over():
            continue
        for p in range(n):
            s.observe(p)  # a warm memo for every observer
        for k in range(len(_edits(s, rng))):
            edit, counters = _edits(s, rng)[k]
            edit()
            for name in counters:
                setattr(s, name, getattr(s, name) + 1)
            assert_same(s, range(n))
            assert_helpers(s)


def test_an_edit_behind_a_counter_is_seen_by_a_rebuilt_state():
    """What the counters stand for: a hero moved by hand in place is seen by this state's memo once
    ``_heroes_ver`` and ``_places_ver`` move (the rules bump them with every move), and by the state
    rebuilt from its JSON (or a clone) at once: counters and memo are not part of the JSON."""
    s = LastBastionGame(num_players=2).new_state(4)
    before = s.observe(0)
    h = s.heroes[0]
    assert h["status"] == "in"
    h["tile"] = (h["tile"] + 1) % 9
    rebuilt = s.game.state_from_json(s.to_json())
    assert not np.array_equal(rebuilt.observe(0), before)
    assert np.array_equal(rebuilt.observe(0), s.game.observation_layout.encode_plain(s, 0))
    s._heroes_ver += 1
    s._places_ver += 1
    assert np.array_equal(s.observe(0), rebuilt.observe(0))


def test_legal_mask_follows_the_decision():
    s = LastBastionGame(num_players=2).new_state(1)
    mask = s.legal_mask()
    mask[:] = 0  # a caller may write into the mask it got
    assert s.legal_mask().sum() == len(s.legal_actions()) > 0
    s.decision["legal"] = s.decision["legal"][:1]  # and an edited decision is followed
    assert np.flatnonzero(s.legal_mask()).tolist() == s.decision["legal"]


def _plain_plan(info, dice, pool):
    """HeroPhase._plan's search as first written: every assignment of dice to targets, the first
    cheapest kept."""
    best = None
    k = len(info)
    for assign in itertools.product(range(k + 1), repeat=len(dice)):
        counts = [0] * k
        for d, t in zip(dice, assign):
            if t < k and (d == C.WHITE or d == info[t][0]):
                counts[t] += 1
        need, shorts, ok = [0] * 5, [], True
        for t, (colour, res, ward) in enumerate(info):
            short = max(0, res - counts[t])
            if short and (ward or pool is None):
                ok = False
                break
            need[colour] += short
            shorts.append(short)
        if not ok or (pool is not None and any(need[c] > pool[c] for c in range(5))):
            continue
        if best is None or sum(shorts) < sum(best[1]):
            best = (need, shorts)
    return best


def test_memoised_combat_plan_matches_the_plain_search():
    """hero._plan (memoised, one target in closed form) against the plain search, on random inputs."""
    rng = random.Random(11)
    for _ in range(3000):
        info = tuple((rng.randrange(5), rng.randrange(6), rng.random() < 0.2) for _ in range(rng.choice((1, 1, 2))))
        dice = tuple(rng.randrange(len(C.DIE_FACES)) for _ in range(rng.randrange(1, 5)))
        pool = None if rng.random() < 0.4 else tuple(rng.randrange(4) for _ in range(5))
        plain = _plain_plan(info, dice, pool)
        expected = None if plain is None else (tuple(plain[0]), tuple(plain[1]))
        assert _plan(info, dice, pool) == expected, (info, dice, pool)
