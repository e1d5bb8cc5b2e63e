"""The rule-based Lost Legends bot: always legal, deterministic, stronger than random players."""

from __future__ import annotations

import numpy as np
import pytest

from envs.lost_legends import actions as A
from envs.lost_legends.common import DRAFT_BUY_COMMITTED
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot
from tests.envs.lost_legends.builders import Position, act, cid
from tests.helpers import play_with_bots


@pytest.mark.parametrize("n", [3, 4, 5])
def test_one_bot_among_random_players_wins_far_more_than_its_share(n):
    """Seat-balanced: the bot sits at every seat equally often. Only a sole victory counts."""
    game = LostLegendsGame(num_players=n)
    games = 6 * n
    wins = 0
    for i in range(games):
        seat = i % n
        s = play_with_bots(game, 500 + i, {seat: HeuristicBot()}, np.random.default_rng(i))
        wins += s.outcome().winners == (seat,)
    assert wins / games >= 0.75 > 1 / n, (wins, games)


def test_bots_play_whole_games_and_are_deterministic():
    for n in (3, 5):
        game = LostLegendsGame(num_players=n)
        a = play_with_bots(game, 9, {i: HeuristicBot() for i in range(n)}, np.random.default_rng(0))
        b = play_with_bots(game, 9, {i: HeuristicBot() for i in range(n)}, np.random.default_rng(1))
        assert a.is_terminal() and a.to_json() == b.to_json()
        seeded = play_with_bots(game, 9, {i: HeuristicBot(seed=3) for i in range(n)}, np.random.default_rng(0))
        assert seeded.is_terminal()


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
