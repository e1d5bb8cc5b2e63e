"""The rule-based Lost Legends bot: always legal, deterministic, stronger than random players."""

from __future__ import annotations

import numpy as np
import pytest

from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot


def _play(game, seed: int, bots: dict, rng):
    s = game.new_state(seed)
    while not s.is_over():
        bot = bots.get(s.current_player)
        a = bot.act_state(s) if bot else int(rng.choice(np.flatnonzero(s.legal_mask())))
        assert s.legal_mask()[a]
        s.apply(a)
    return s


@pytest.mark.parametrize("n", [3, 4, 5])
def test_one_bot_among_random_players_wins_far_more_than_its_share(n):
    """Seat-balanced: the bot sits at every seat equally often. Only a sole victory counts."""
    game = LostLegendsGame(num_players=n)
    games = 6 * n
    wins = 0
    for i in range(games):
        seat = i % n
        s = _play(game, 500 + i, {seat: HeuristicBot()}, np.random.default_rng(i))
        wins += s.outcome().winners == (seat,)
    assert wins / games >= 0.75 > 1 / n, (wins, games)


def test_bots_play_whole_games_and_are_deterministic():
    for n in (3, 5):
        game = LostLegendsGame(num_players=n)
        a = _play(game, 9, {i: HeuristicBot() for i in range(n)}, np.random.default_rng(0))
        b = _play(game, 9, {i: HeuristicBot() for i in range(n)}, np.random.default_rng(1))
        assert a.is_terminal() and a.to_json() == b.to_json()
        seeded = _play(game, 9, {i: HeuristicBot(seed=3) for i in range(n)}, np.random.default_rng(0))
        assert seeded.is_terminal()
