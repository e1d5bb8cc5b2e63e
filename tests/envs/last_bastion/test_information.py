"""What a player may know (design section 5): everything but the deck order, the identities of undrawn
Warlords and the set-aside cards. ``resample_hidden`` deals those anew; the observation (and the
mask) of the seat must not change, while a visible change does change it (control)."""

from __future__ import annotations

import random

import numpy as np

from envs.last_bastion import content as C
from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.heuristic import HeuristicBot


def states(n: int, games: int = 3, every: int = 7):
    game = LastBastionGame(num_players=n, difficulty="difficult")
    for seed in range(games):
        s = game.new_state(seed)
        rng = random.Random(seed)
        k = 0
        while not s.is_over():
            if k % every == 0:
                yield s
            s.apply(rng.choice(s.legal_actions()))
            k += 1


def test_resample_hidden_keeps_every_observation():
    rng = np.random.default_rng(0)
    changed = 0
    for n in (1, 2, 4):
        for s in states(n):
            for p in range(n):
                t = s.resample_hidden(p, rng)
                changed += t.deck != s.deck
                assert sorted(t.deck + t.set_aside) == sorted(s.deck + s.set_aside)
                assert [C.CARDS[c].warlord for c in t.deck] == [C.CARDS[c].warlord for c in s.deck]
                for q in range(n):
                    assert np.array_equal(t.observe(q), s.observe(q))
                assert np.array_equal(t.legal_mask(), s.legal_mask())
                assert t.render(p) == s.render(p)
                assert HeuristicBot(0).act_state(t) == HeuristicBot(0).act_state(s) if not s.is_over() else True
    assert changed > 0  # the resampling does change hidden things


def test_control_visible_changes_do_change_the_observation():
    s = LastBastionGame(num_players=2).new_state(1)
    data = s.to_json()
    data["heroes"][1]["life"] += 1
    data["reserve_life"] -= 1
    t = s.game.state_from_json(data)
    assert not np.array_equal(t.observe(0), s.observe(0))
    data = s.to_json()
    data["set_aside"] = data["set_aside"] + data["deck"][-1:]  # the deck size is public
    data["deck"] = data["deck"][:-1]
    t = s.game.state_from_json(data)
    assert not np.array_equal(t.observe(0), s.observe(0))


def test_observation_is_seat_relative():
    """Two observers see the same facts, each in its own frame: their own board at offset 0."""
    s = LastBastionGame(num_players=4, heroes=["Brakka", "Kaela", "Oswin", "Aldric"]).new_state(2)
    from envs.last_bastion.observation import HR, SL

    for p in range(4):
        v = s.observe(p)
        own = SL["heroes"]
        assert v[own + HR["hero"] + s.heroes[p]["hero"]] == 1.0  # offset 0 is the observer
    assert not np.array_equal(s.observe(0), s.observe(1))


def _absolute(s, p, v):
    """The frame-dependent blocks of player p's observation, brought back to the absolute frame."""
    from envs.last_bastion.observation import HR, OBSERVATION_LAYOUT, TL

    b = s.seat_of[p]
    parts = OBSERVATION_LAYOUT.split(v)
    spaces = np.stack([parts["spaces"][(sp - 3 * b) % 12] for sp in range(12)])
    tiles = np.stack([parts["tiles"][C.REL_TILE[b][t]] for t in range(9)]).copy()
    h0 = TL["heroes"]
    tiles[:, h0 : h0 + 4] = tiles[:, [h0 + (seat - b) % 4 for seat in range(4)]]
    heroes = np.stack([parts["heroes"][(seat - b) % 4] for seat in range(4)]).copy()
    t0 = HR["tile"]
    heroes[:, t0 : t0 + 9] = heroes[:, [t0 + C.REL_TILE[b][t] for t in range(9)]]
    boards = np.stack([parts["boards"][(seat - b) % 4] for seat in range(4)])
    same = np.concatenate([parts[k] for k in ("global", "ongoing", "discard", "market_whites")])
    return spaces, tiles, heroes, boards, same


def test_observations_differ_only_by_the_frame():
    """Invariant 9: two players observe the same facts; undoing each frame gives the same arrays."""
    for n in (2, 3, 4):
        for s in states(n, games=2, every=5):
            first = _absolute(s, 0, s.observe(0))
            for p in range(1, n):
                other = _absolute(s, p, s.observe(p))
                for x, y in zip(first, other):
                    assert np.array_equal(x, y)
