"""Information: what a seat cannot see never reaches its observation (docs 5.2, invariant 9.11)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from envs.heroes_and_monsters.heuristic import HeuristicBot
from tests.envs.heroes_and_monsters.builders import PASS, cid, position
from tests.envs.heroes_and_monsters.test_scenarios import QUIET, to_last_turn_combat


def positions(n: int, adversary: str, seed: int, every: int = 7):
    game = HeroesAndMonstersGame(num_players=n, adversary=adversary)
    s = game.new_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not s.is_over():
        if step % every == 0:
            yield s
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
        step += 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("adversary", ["randall", "sylvaen", "thargrim"])
def test_resample_hidden_leaves_every_seats_own_observation_and_the_bots_choice_unchanged(n, adversary):
    rng = np.random.default_rng(n)
    changed_something = False
    for s in positions(n, adversary, seed=n):
        for seat in range(n):
            other = s.resample_hidden(seat, rng)
            assert other is not s
            assert np.array_equal(other.observe(seat), s.observe(seat))
            if seat == s.current_player:
                assert np.array_equal(other.legal_mask(), s.legal_mask())
                assert HeuristicBot(7).act_state(other) == HeuristicBot(7).act_state(s)
            changed_something |= other.to_json()["fortress"] != s.to_json()["fortress"]
    assert changed_something  # the resampling does deal hidden things anew


def test_another_waiting_players_hand_is_hidden_but_its_size_and_composition_are_not():
    s = position(n=3, players={2: {"hand": ["Ghoul", "Root"], "deck": ["Wyvern", "Sacrifice"]}})
    swapped = position(n=3, players={2: {"hand": ["Wyvern", "Sacrifice"], "deck": ["Ghoul", "Root"]}})
    assert np.array_equal(s.observe(1), swapped.observe(1))  # same deck + hand composition
    assert not np.array_equal(s.observe(2), swapped.observe(2))  # control: the owner sees its own hand


def test_the_active_players_hand_is_face_up_during_its_turn():
    s = position(n=2, players={0: {"hand": ["Ghoul", "Root"], "deck": ["Wyvern", "Sacrifice"]}})
    swapped = position(n=2, players={0: {"hand": ["Wyvern", "Sacrifice"], "deck": ["Ghoul", "Root"]}})
    assert s.active == 0
    assert not np.array_equal(s.observe(1), swapped.observe(1))  # visible: player_0 is active


def test_deck_orders_are_hidden_from_everyone():
    s = position(n=2, players={1: {"deck": ["Ghoul", "Root", "Wyvern"]}}, fortress=["Wyvern", "Ghoul"] * 20)
    t = position(n=2, players={1: {"deck": ["Wyvern", "Ghoul", "Root"]}}, fortress=["Ghoul", "Wyvern"] * 20)
    for seat in range(2):
        assert np.array_equal(s.observe(seat), t.observe(seat))


def test_a_visible_change_does_change_the_observation():
    s = position(n=2)
    data = s.to_json()
    data["rubble"] = data["rubble"] + [cid("Ghoul")]
    t = s.game.state_from_json(data, check_box=False)  # a builder position (made-up piles)
    assert not np.array_equal(s.observe(1), t.observe(1))


# -- information (docs 5.2): a hand drawn at the end of a turn is private -----------------------------
def _lost_in_the_invasion(hand):
    fields = dict(field=["Dwarf Berserker", -1, -1, -1], fortress=["Ghoul"], rubble=[])
    return position(**to_last_turn_combat(fields), players={1: {"hand": [], "deck": hand, "discard": []}})


def test_the_hand_drawn_when_the_game_ends_in_the_invasion_stays_private():
    cards = ["Ghoul", "Root", "Wyvern", "Sacrifice", "Orc Raider", "Soul Crystal"]
    s = _lost_in_the_invasion(cards)  # the top of a deck is its last card: Soul Crystal, Orc Raider, Sacrifice
    t = _lost_in_the_invasion(cards[3:] + cards[:3])  # draws Wyvern, Root, Ghoul
    for x in (s, t):
        x.apply(PASS)
        assert x.result == "fortress_empty" and x.active == 1 and len(x.players[1].hand) == 3
    assert not np.array_equal(s.players[1].hand, t.players[1].hand)
    assert np.array_equal(s.observe(0), t.observe(0))  # player_0 cannot see player_1's new hand
    assert "hand [3 cards]" in s.render(0)
    other = s.resample_hidden(0, np.random.default_rng(0))
    assert np.array_equal(other.observe(0), s.observe(0))


def test_the_active_hand_is_still_public_during_the_turn():
    s = position(n=2, field=QUIET, players={0: {"hand": ["Ghoul", "Root"], "deck": ["Wyvern", "Sacrifice"]}})
    t = position(n=2, field=QUIET, players={0: {"hand": ["Wyvern", "Sacrifice"], "deck": ["Ghoul", "Root"]}})
    for x in (s, t):
        x.apply(PASS)  # RECRUIT -> EFFECTS, still player_0's turn
    assert not np.array_equal(s.observe(1), t.observe(1))
    assert "Ghoul" in s.render(1)
