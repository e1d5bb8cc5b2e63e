"""Rules beyond the numbered scenarios: the hands passed after the placements, level-up masks and
several rewards at once, the charges that drain, take gold or hit, useless blocks, restore and regenerate."""

from __future__ import annotations

from envs.lost_legends import actions as A
from envs.lost_legends.common import ATTACK_BUILD, DEFEND, LEVEL_REWARD, NO, SELECT_DRAWN, SELECT_NONE
from envs.lost_legends.game import LostLegendsGame
from tests.envs.lost_legends.builders import Position, act, cid

H4 = ["Warrior", "Hunter", "Assassin", "Sorceress"]


def test_hands_are_passed_left_after_the_placements():
    game = LostLegendsGame(num_players=4, starting_player=0)
    s = game.new_state(3)
    hands = [list(h) for h in s.hands]
    picks = {}
    for _ in range(4):
        picks[s.current_player] = s.hands[s.current_player][0]
        act(s, "PICK", 0)
    for _ in range(3):  # while placing, every seat still holds its own remaining cards
        assert all(s.hands[i] == sorted(c for c in hands[i] if c != picks[i]) for i in range(4))
        act(s, "PLACE_SKILL")
    act(s, "PLACE_SKILL")
    assert s.draft_round == 2
    for i in range(4):
        assert s.hands[(i + 1) % 4] == sorted(c for c in hands[i] if c != picks[i])


def test_two_thresholds_give_two_rewards_and_full_tracks_are_masked():
    pos = Position(4, H4, level=3).set(0, xp=5, life=10, life_base=10).front(0, "3-M14", markers=15)
    s = pos.attacking(0).state()
    act(s, "UNARMED")
    act(s, "STRIKE")  # 5 + 8 = 13 xp: thresholds 6 and 12
    assert s.decision == LEVEL_REWARD and s.pending_rewards == 2
    mask = s.legal_mask()
    assert mask[A.REWARD_GOLD] and not mask[A.REWARD_LIFE] and mask[A.REWARD_MANA]
    gold = s.gold[0]
    act(s, "REWARD_GOLD")
    assert s.decision == LEVEL_REWARD and s.gold[0] == gold + 2
    act(s, "REWARD_MANA")
    assert s.decision != LEVEL_REWARD and s.max_mana(0) == 2


def test_drawn_charges_drain_mana_take_gold_and_hit():
    # Kobold Shaman: C-DRAIN 1 on the drawer.
    s = Position(4, ["Sorceress", "Warrior", "Hunter", "Assassin"], level=1).front(0, None)
    s = s.pile("1-M01", "1-M11").turn(0).state()
    assert s.decision == SELECT_NONE
    act(s, "DRAW")
    assert s.mana[0] == 2 and s.decision == SELECT_DRAWN
    # Bandit: C-GOLD 1.
    s = Position(4, H4, level=1).front(0, None).pile("1-M01", "1-M10").turn(0).state()
    gold = s.gold[0]
    act(s, "DRAW")
    assert s.gold[0] == gold - 1
    # Giant Spider: C-DMG 1 mel; at 1 life with no armor the drawer is defeated and loses the card.
    s = Position(4, H4, level=1).set(0, life=1).front(0, None).pile("1-M01", "1-M03").turn(0).state()
    act(s, "DRAW")
    assert s.decision == DEFEND and s.ev["source"] == 2
    act(s, "ACCEPT_DAMAGE")
    assert s.defeated[0] and s.front[0] == NO and cid("1-M03") in s.box and s.current_player == 1


def test_a_block_that_prevents_nothing_is_masked_unless_asked():
    # Warding Rune blocks magic only; the Giant Rat hits melee.
    for hide in (True, False):
        pos = Position(4, H4, level=1, mask_useless_actions=hide).equip(0, "1-22").front(0, "1-M01")
        s = pos.attacking(0).state()
        act(s, "UNARMED")
        act(s, "STRIKE")
        assert s.decision == DEFEND
        assert bool(s.legal_mask()[A.USE + 6]) is (not hide)


def test_restore_and_regenerate():
    # Mana Crystal restores 2 mana (masked at full mana); the Ghoul regenerates 1 marker.
    pos = Position(4, ["Sorceress", "Warrior", "Hunter", "Assassin"], level=1).equip(0, "1-28").set(0, mana=0)
    s = pos.front(0, "1-M17", markers=1).attacking(0).state()
    act(s, "UNARMED")
    assert s.decision == ATTACK_BUILD and s.legal_mask()[A.USE + 9]
    act(s, "USE", 9)
    assert s.mana[0] == 2 and s.exhausted[0][9] and not s.legal_mask()[A.USE + 9]
    act(s, "STRIKE")  # 1 melee: 2 markers, then REGEN 1
    assert s.markers[0] == 1
