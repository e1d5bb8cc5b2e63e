"""The heuristic bot plays legal moves only and its team does better than a random team."""

from __future__ import annotations

import random

from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.heuristic import HeuristicBot


def play(game, seed, policy):
    s = game.new_state(seed)
    while not s.is_over():
        a = policy(s)
        assert a in s.legal_actions()
        s.apply(a)
    return s


def test_heuristic_beats_random():
    game = LastBastionGame(num_players=2, difficulty="novice")
    bot = HeuristicBot(seed=0)
    rng = random.Random(0)
    bot_wins = bot_vanq = rand_wins = rand_vanq = 0
    for seed in range(60):
        s = play(game, seed, bot.act_state)
        bot_wins += s.result == "victory"
        bot_vanq += s.counters["monster"]
        s = play(game, seed, lambda st: rng.choice(st.legal_actions()))
        rand_wins += s.result == "victory"
        rand_vanq += s.counters["monster"]
    assert bot_wins >= rand_wins
    assert bot_vanq > 2 * rand_vanq  # Monsters vanquished: a measurable criterion at any win rate
