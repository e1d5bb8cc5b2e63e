"""Regression tests for the rules review: each test failed before its fix."""

from __future__ import annotations

import numpy as np

from tests.envs.heroes_and_monsters.builders import PASS, A, cid, hand_slot, legal, position
from tests.envs.heroes_and_monsters.test_scenarios import QUIET, to_last_turn_combat


# -- once per turn follows the physical card (docs 2.1) --------------------------------------------
def test_a_fresh_copy_drawn_from_the_deck_is_not_used():
    """The used Goblin Cutthroat lies in the discard pile; the copy drawn from the deck is another card."""
    s = position(
        phase="EFFECTS",
        res=[1, 0, 0],
        players={0: {"hand": ["Goblin Cutthroat", "Goblin Shaman"], "deck": ["Ghoul", "Goblin Cutthroat"]}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))  # discard self: DMG 2
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Shaman")))  # R1: DRAW 1, no reshuffle needed
    p = s.players[0]
    assert p.discard == [cid("Goblin Cutthroat")]
    assert [cid("Goblin Cutthroat"), False] in p.hand
    assert A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")) in legal(s)
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))
    assert s.dmg == 4


def test_a_used_card_reshuffled_into_the_deck_and_drawn_again_stays_used():
    s = position(
        phase="EFFECTS",
        res=[1, 0, 0],
        players={0: {"hand": ["Goblin Cutthroat", "Goblin Shaman"], "deck": [], "discard": []}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Shaman")))  # deck empty: reshuffle, draw it back
    assert s.players[0].hand == [[cid("Goblin Cutthroat"), True], [cid("Goblin Shaman"), True]]
    assert A("USE_HAND", 0) not in legal(s)


def test_a_used_card_revealed_back_to_the_discard_pile_is_still_recalled_used():
    """Death Knight used, reshuffled by REVEAL and put back on the discard pile: RECALL brings it back used."""
    s = position(
        generals=["mortivar", "wargosh"],
        phase="EFFECTS",
        res=[0, 2, 0],
        players={0: {"hand": ["Death Knight", "Wraith"], "deck": [], "discard": []}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Death Knight")))  # DMG 5
    s.apply(A("USE_HAND", hand_slot(s, 0, "Wraith")))  # C1: REVEAL reshuffles, reveals the Death Knight (+4)
    assert s.dmg == 9 and s.players[0].discard == [cid("Death Knight")]
    s.apply(A("USE_GENERAL"))  # Mortivar C1: RECALL
    assert [cid("Death Knight"), True] in s.players[0].hand
    assert A("USE_HAND", hand_slot(s, 0, "Death Knight")) not in legal(s)


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


# -- render readability ----------------------------------------------------------------------------
def test_render_shows_area_costs_and_each_invaders_state():
    area = ["Wyvern", "Ghoul", "Orc Raider", "Rampart", "Ghoul", "Ghoul", "Ghoul", "Ghoul"]
    s = position(area=area, field=["Knight", -1, "Elf Archer", "Dwarf Axeman"], markers=[1, 0, 0, 0])
    text = s.render(0)
    assert "Wyvern 0/0/3" in text and "Rampart 2/0/1" in text
    assert "Knight (Human) health [4, 4], markers 1, next level 4, Fortress dmg 2" in text


def test_describe_attack_says_which_level_and_whether_it_defeats():
    s = position(field=["Knight", -1, "Elf Archer", "Dwarf Axeman"], markers=[1, 0, 0, 0], phase="COMBAT", dmg=8)
    assert s.describe_action(A("ATTACK", 0)) == "Attack Knight in column 0: pay level 2 of 2 (4 damage), defeats it"
    assert s.describe_action(A("ATTACK", 2)) == "Attack Elf Archer in column 2: pay level 1 of 1 (4 damage), defeats it"


def test_used_cards_are_tracked_in_the_pile_where_they_lie():
    """Randomized: the used cards of the turn are always a sub-multiset of the pile they are said to be in."""
    from collections import Counter

    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

    for n, adversary in ((1, "randall"), (2, "sylvaen"), (3, "thargrim")):
        generals = ["grizznak", "mortivar", "kryssa"][:n]
        game = HeroesAndMonstersGame(num_players=n, adversary=adversary, generals=generals)
        for seed in range(3):
            s = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_over():
                p = s.players[s.active]
                assert not Counter(s.used_discarded) - Counter(p.discard)
                assert not Counter(s.used_in_deck) - Counter(p.deck)
                s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
