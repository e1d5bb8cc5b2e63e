"""The observation through the core memo (``state.observe``: ``OBSERVATION_LAYOUT.encode``, which
rewrites only the blocks whose keys changed) gives exactly the vector of the same block encoders run
from scratch (``OBSERVATION_LAYOUT.encode_plain``), bit for bit, whatever the sequence of states it is
asked about. (The conformance kit's ``check_observation_memo`` checks the same on random games, with
each block's declared reads.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT
from tests.envs.heroes_and_monsters.builders import cid, position


def same(s, seat: int) -> bool:
    a, b = s.observe(seat), OBSERVATION_LAYOUT.encode_plain(s, seat)
    return a.dtype == b.dtype == np.float32 and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("adversary", ["randall", "sylvaen", "thargrim"])
def test_the_memo_equals_the_plain_encoder_over_random_games(n, adversary):
    """As the env asks: the actor after every step; every seat at one step in four (so the cached
    vectors of the other seats lag several steps behind); shaped rewards and options varied."""
    options = {"toughness": 5, "max_rounds": 60} if n == 2 else {}
    game = HeroesAndMonstersGame(num_players=n, adversary=adversary, **options)
    states = 0
    for seed in range(12):
        s = game.new_state(500 + seed)
        rng = random.Random(seed)
        while True:
            seat = s.current_player if s.current_player >= 0 else rng.randrange(n)
            assert same(s, seat)
            if rng.random() < 0.25:
                assert all(same(s, q) for q in range(n))
            states += 1
            if s.result is not None:
                break
            s.apply(rng.choice(np.flatnonzero(s.legal_mask()).tolist()))
    assert states > 12 * 20


def test_a_state_changed_in_place_is_encoded_anew():
    """The memo's keys are the state's own values, so edits made outside ``apply`` are seen too."""
    s = position(n=2, players={0: {"hand": ["Ghoul", "Root"]}, 1: {"hand": ["Wyvern"]}})
    for seat in range(2):
        assert same(s, seat)
    s.players[0].hand.append([cid("Wyvern"), False])
    s.players[0].hand.sort()
    s.players[0].hand[0][1] = True  # a used flag, in place
    s.players[1].discard.append(cid("Ghoul"))
    s.players[1].table.append([cid("Rampart"), False])
    s.rubble.append(s.fortress.pop())
    s.area[3], s.area[7] = s.area[7], s.area[3]
    s.markers[0] = 1
    s.dmg += 9
    s.ward = 13  # clipped to 1
    s.round = 45  # clipped to 1
    s.res[2] += 15  # clipped to 1
    s.inv_discard += [0, 0, 0]  # 1.5, clipped to 1
    for seat in range(2):
        assert same(s, seat)


def test_copies_and_json_round_trips_encode_the_same():
    game = HeroesAndMonstersGame(num_players=3, adversary="sylvaen")
    s = game.new_state(4)
    rng = random.Random(4)
    for _ in range(70):
        s.observe(s.current_player)
        s.apply(rng.choice(np.flatnonzero(s.legal_mask()).tolist()))
    copy = s.clone()
    for seat in range(3):
        plain = OBSERVATION_LAYOUT.encode_plain(s, seat).tobytes()
        assert copy.observe(seat).tobytes() == s.observe(seat).tobytes() == plain


def test_the_returned_vector_is_the_callers_own():
    s = position(n=2)
    obs = s.observe(0)
    obs[:] = 0.5
    assert same(s, 0)
