"""Regression tests for the rules review: each test failed before its fix."""

from __future__ import annotations

import pytest

from envs.lost_legends import actions as A
from envs.lost_legends.common import DRAFT_BUY_COMMITTED, DRAFT_PICK, DRAFT_PLACE, GEAR_UP
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot
from tests.envs.lost_legends.builders import Position, act, cid


def _step(s) -> None:
    if s.decision == DRAFT_PICK:
        act(s, "PICK", 0)
    else:
        act(s, "PLACE_SKILL")


def _play_draft_until(s, round_, seat):
    """Pick slot 0 / place as a skill until ``seat`` is asked for its pick in round ``round_``."""
    while not (s.draft_round == round_ and s.decision == DRAFT_PICK and s.current_player == seat):
        _step(s)


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("round_", [1, 2, 3, 4, 5])
def test_no_seat_can_infer_a_pick_before_its_reveal(n, round_):
    """2.2: the passed hands lie face down until every pick is placed. A seat that saw the passed
    hand while the others were still placing could tell an unrevealed pick from it (with 3-4 players
    a hand comes back round the table: it then lacks exactly the unrevealed card). Every seat's
    pick is varied; no other seat's observation may change before that pick is revealed."""
    for last in range(n):
        _check_pick_hidden(n, round_, last)


def _check_pick_hidden(n, round_, last):
    game = LostLegendsGame(num_players=n, starting_player=0)
    s = game.new_state(11)
    _play_draft_until(s, round_, last)
    a, b = s.clone(), s.clone()
    act(a, "PICK", 0)
    act(b, "PICK", 1)
    while not (a.decision == DRAFT_PLACE and a.current_player == last):
        for j in range(n):
            if j != last:
                assert (a.observe(j) == b.observe(j)).all(), (a.draft_round, a.current_player, j)
        _step(a)
        _step(b)
    assert a.phase == GEAR_UP and a.draft_round == round_


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


def test_heuristic_upgrades_a_weapon_by_converting_the_old_one():
    """The bot valued weapon upgrades but could never buy one: a second weapon of a type needs the
    owned one converted first (2.4), and the bot never converted, so it kept its Ruins weapons
    into the Demon Fortress (most level 3s then ended with every hero defeated)."""
    pos = Position(4, ["Assassin", "Warrior", "Hunter", "Sorceress"], level=1).set(0, gold=2).equip(0, "1-01")
    s = pos.placing(0, "1-02").state()
    bot = HeuristicBot()
    assert bot.act_state(s) == A.CONVERT + 0
    act(s, "CONVERT", 0)
    assert s.decision == DRAFT_BUY_COMMITTED and bot.act_state(s) == A.BUY
    act(s, "BUY")
    assert s.slots[0][0] == cid("1-02")
    # Without the gold to pay even after the conversion, it places the card as a skill.
    pos = Position(4, ["Assassin", "Warrior", "Hunter", "Sorceress"], level=2).set(0, gold=0).equip(0, "1-01")
    s = pos.placing(0, "2-02").state()  # Broadsword 5, ME2:-2 -> 3 after converting: unaffordable
    assert bot.act_state(s) == A.PLACE_SKILL
