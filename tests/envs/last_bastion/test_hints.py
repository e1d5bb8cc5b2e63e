"""The optional tactical-hints block (obs_hints=True): where it sits, when it is filled, and that it
speaks of the same spaces and tiles as the action ids in the observer's frame."""

import numpy as np
import pytest
from pettingzoo.test import api_test

from envs import last_bastion_v0
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.heuristic import HeuristicBot
from envs.last_bastion.hints import HF, HINTS_SIZE


@pytest.mark.parametrize("n", [1, 4])
def test_api_test_with_hints(n):
    api_test(last_bastion_v0.env(num_players=n, obs_hints=True), num_cycles=200)


def test_the_block_is_appended_at_every_player_count():
    plain = LastBastionGame(num_players=2).observation_size
    for n in (1, 2, 3, 4):
        game = LastBastionGame(num_players=n, obs_hints=True)
        assert game.observation_size == plain + HINTS_SIZE
        block = game.observation_layout.blocks[-1]
        assert block.name == "hints" and block.stop == game.observation_size
    both = LastBastionGame(num_players=2, obs_hints=True, obs_card_ids=True)
    assert both.observation_layout.blocks[-2].name == "card_ids"


def _games(n, games=12):
    game = LastBastionGame(num_players=n, obs_hints=True)
    bot = HeuristicBot(seed=0)
    for g in range(games):
        s = game.new_state(900 + g)
        while not (s.is_terminal() or s.is_truncated()):
            yield s, bot
            s.apply(bot.act_state(s))


@pytest.mark.parametrize("n", [1, 3])
def test_hints_fill_only_the_active_heros_main_decision_and_match_its_actions(n):
    main = chose_fight = 0
    for s, bot in _games(n):
        obs = {p: s.observe(p)[-HINTS_SIZE:] for p in range(n)}
        for p in range(n):
            if p != s.current_player or s.decision["kind"] != "MAIN":
                assert not obs[p].any()
        if s.decision["kind"] != "MAIN":
            continue
        main += 1
        h = obs[s.current_player]
        assert h.min() >= 0 and h.max() <= 1
        for a in s.legal_actions():
            name, args = LAYOUT.decode(a)
            if name == "FIGHT":  # a card there: its threat is shown on the same relative space
                assert h[HF["threat"] + args[0]] > 0
        want = bot.act_state(s)
        name, args = LAYOUT.decode(want)
        fights = [LAYOUT.decode(a)[1][0] for a in s.legal_actions() if LAYOUT.decode(a)[0] == "FIGHT"]
        if name == "FIGHT" and not any(LAYOUT.decode(a)[0] in ("FIGHT_BOTH", "ENCHANT") for a in s.legal_actions()):
            # the bot's own pick among single fights is the one the hints rate highest
            chose_fight += 1
            assert h[HF["fight"] + args[0]] == max(h[HF["fight"] + j] for j in fights)
    assert main > 50 and chose_fight > 5


def test_hints_do_not_change_the_rest_of_the_observation():
    plain, hinted = LastBastionGame(num_players=2), LastBastionGame(num_players=2, obs_hints=True)
    a, b = plain.new_state(7), hinted.new_state(7)
    rng = np.random.default_rng(0)
    for _ in range(200):
        if a.is_terminal() or a.is_truncated():
            break
        for p in range(2):
            assert np.array_equal(a.observe(p), b.observe(p)[: plain.observation_size])
        move = int(rng.choice(a.legal_actions()))
        a.apply(move)
        b.apply(move)
