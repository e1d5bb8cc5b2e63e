"""The fast observation encoder (``observation.observe``: a cached absolute-frame vector, rotated per
observer) against the plain from-scratch encoder (``observation.observe_reference`` on a fresh JSON
clone, so no cache of any kind is involved), bit for bit, over random games at every player count,
level and option that touches the observation, and over hand-edited states (every cache key must hold
everything its part reads). Also the rules' cached helpers against their plain definitions."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from envs.last_bastion import content as C
from envs.last_bastion.combat import _plan
from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.observation import observe_reference

DIFFICULTIES = ("novice", "normal", "difficult", "heroic")


def fresh(s):
    """A copy without the caches (clone: hand edits here break rules state_from_json checks)."""
    return s.clone()


def assert_same(s, order) -> None:
    plain = fresh(s)
    for p in order:
        fast, ref = s.observe(p), observe_reference(plain, p)
        diff = np.flatnonzero(fast.view(np.uint32) != ref.view(np.uint32))  # bit-identical, not just ==
        assert diff.size == 0, f"player_{p}: fields {diff[:10]} differ"
    assert np.array_equal(s.legal_mask(), plain.legal_mask())


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
def test_fast_encoder_matches_the_plain_one_in_random_games(n):
    for i in range(40):
        opts = {
            "num_players": n,
            "difficulty": DIFFICULTIES[i % 4],
            "obs_card_ids": i % 5 == 0,
            "obs_hints": i % 4 == 1,
            "effect_order": "fixed" if i % 3 == 2 else "choose",
        }
        game = LastBastionGame(**opts)
        s = game.new_state(500 + i)
        rng = random.Random(i)
        step = 0
        while True:
            # the observers in a varying order, as a training loop or an evaluation would ask
            order = [s.current_player if s.current_player >= 0 else 0] + rng.sample(range(n), n)
            if step % 3 == 0 or s.is_over():
                assert_same(s, order)
                assert_helpers(s)
            else:
                s.observe(order[0])
            if s.is_over():
                break
            s.apply(rng.choice(s.legal_actions()))
            step += 1


def _edits(s, rng):
    """Hand edits of what the observation reads (the state need not stay legal)."""
    h = s.heroes[rng.randrange(s.n)]
    free = [k for k in range(12) if s.spaces[k] < 0]
    full = [k for k in range(12) if s.spaces[k] >= 0]
    spare = [c for c in s.set_aside]
    return [
        lambda: h.__setitem__("life", h["life"] + 1),
        lambda: h.__setitem__("cta", max(0, h["cta"] - 1)),
        lambda: h["equip"].__setitem__(rng.randrange(5), rng.randrange(4)),
        lambda: h.__setitem__("tile", rng.randrange(9)) if h["status"] == "in" else None,
        lambda: h.__setitem__("wounded", not h["wounded"]),
        lambda: h.__setitem__("board_grasped", not h["board_grasped"]),
        lambda: s.grasped.__setitem__(rng.randrange(9), True),
        lambda: s.spaces.__setitem__(free[0], spare.pop()) if free and spare else None,
        lambda: s.spaces.__setitem__(full[0], -1) if full else None,
        lambda: s.sanct.__setitem__(full[-1], 0) if full else None,
        lambda: s.elements["standard"].update(state="deployed", where=rng.randrange(5), seat=s.seat_of[0]),
        lambda: s.elements["net"].update(state="deployed", where=full[0]) if full else None,
        lambda: s.elements["trap"].update(state="deployed", where=free[-1]) if free else None,
        lambda: s.elements["enchantment"].update(state="deployed", where=full[-1]) if full else None,
        lambda: s.discard.append(s.set_aside[0]) if s.set_aside else None,
        lambda: s.deck.pop(0) if len(s.deck) > 1 else None,
        lambda: setattr(s, "reserve_life", max(0, s.reserve_life - 1)),
        lambda: s.reserve_equip.__setitem__(rng.randrange(5), 0),
        lambda: setattr(s, "vanquished", min(s.W, s.vanquished + 1)),
        lambda: setattr(s, "acted", not s.acted),
        lambda: setattr(s, "neutral", not s.neutral),
        lambda: setattr(s, "layout", rng.sample(s.layout, 9)),
        # fields the change detection watches that the edits above leave alone
        lambda: setattr(s, "reserve_cta", max(0, s.reserve_cta - 1)),
        lambda: setattr(s, "board_turns", s.board_turns + 7),
        lambda: setattr(s, "moved", not s.moved),
        lambda: setattr(s, "power_used", not s.power_used),
        lambda: s.sanct.__setitem__(free[0], 1) if free else None,
        lambda: h.__setitem__("status", "out"),
        lambda: h.__setitem__("status", "in"),
        lambda: s.elements["standard"].update(state="home", where=-1, seat=-1),
        lambda: s.elements["trap"].__setitem__("state", "parked"),
        lambda: s.elements["net"].__setitem__("where", (s.elements["net"]["where"] + 1) % 12),
        lambda: s.grasped.__setitem__(rng.randrange(9), False),
        lambda: s.spaces.__setitem__(full[0], spare.pop()) if full and spare else None,
        lambda: s.deck.insert(0, s.deck.pop()) if len(s.deck) > 1 else None,
    ]


def test_fast_encoder_follows_hand_edits():
    """Every part's cache key must hold everything its writer reads: edit one thing at a time, in
    place, and the fast encoder must still give the plain encoder's floats."""
    rng = random.Random(3)
    for i in range(24):
        n = 1 + i % 4
        game = LastBastionGame(num_players=n, obs_card_ids=i % 2 == 1)
        s = game.new_state(900 + i)
        for _ in range(rng.randrange(5, 40)):
            if s.is_over():
                break
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over():
            continue
        s.observe(0)  # a warm cache
        for k in range(len(_edits(s, rng))):
            _edits(s, rng)[k]()
            assert_same(s, range(n))
            assert_helpers(s)


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
