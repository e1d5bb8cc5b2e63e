"""Hero powers, effect ordering, Sanctify/Tower/Quarry, observation options and the shaped rewards."""

from __future__ import annotations

import numpy as np

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.combat import combat_dice
from envs.last_bastion.game import LastBastionGame
from tests.envs.last_bastion.builders import (
    ACTIVATE,
    ENCHANT,
    END_TURN,
    FIGHT,
    MOVE,
    PLAYER,
    RESOLVE,
    SPACE,
    Position,
    card,
    dice,
    outcomes_offered,
    spaces_offered,
)


def test_brakka_rolls_four_dice_and_dim_removes_one():
    s = Position(heroes=("Brakka", "Ysolde")).hero(0, tile=7).put(1, "M06").main(0)
    assert combat_dice(s) == 4
    s = Position(heroes=("Brakka", "Ysolde")).hero(0, tile=7).put(1, "M06").put(4, "M13").main(0)
    assert combat_dice(s) == 3
    s.chance.script(dice("red", "blue", "blue"))
    s.apply(FIGHT(s, 1))
    assert len(s.decision["dice"]) == 3 and outcomes_offered(s) == {"none"}


def test_ysolde_moves_anywhere_others_one_step():
    s = Position(heroes=("Ysolde", "Thorgrim")).hero(0, tile=0).main(0)
    assert MOVE(s, 8) in s.legal_actions()
    s = Position(heroes=("Thorgrim", "Ysolde")).hero(0, tile=0).main(0)
    moves = {a for a in s.legal_actions() if LAYOUT.decode(a)[0] == "MOVE_TO"}
    assert moves == {MOVE(s, t) for t in (1, 3, 4)}


def test_mylfaar_enchantment_lowers_resistance_once_per_turn():
    s = Position(heroes=("Mylfaar", "Ysolde")).hero(0, tile=7).put(1, "M06").put(4, "M07").main(0)
    s.apply(ENCHANT(s, 1))
    assert s.effective_resistance(1) == 1 and s.elements["enchantment"]["state"] == "deployed"
    assert not any(LAYOUT.decode(a)[0] == "ENCHANT" for a in s.legal_actions())
    s.chance.script(dice("red", "blue", "blue"))
    s.apply(FIGHT(s, 1))
    assert outcomes_offered(s) == {"first"}
    s.apply(RESOLVE("first"))
    s.apply(s.legal_actions()[0])  # Incubus's GAIN_EQUIP(any)
    assert s.elements["enchantment"]["state"] == "home"  # back on Mylfaar's board when the card left


def test_kaela_resolves_her_tile_twice():
    s = Position(heroes=("Kaela", "Ysolde")).hero(0, tile=3).main(0)  # Market
    s.chance.script(dice("red", "green", "blue", "black"))
    s.apply(ACTIVATE)
    assert s.heroes[0]["equip"] == [1, 1, 1, 0, 1]


def test_oswin_places_anywhere_during_his_board_turn():
    s = Position(heroes=("Oswin", "Ysolde")).deck("M05", "M11").turn_start(0)
    assert spaces_offered(s) == set(range(12))
    s = Position(heroes=("Thorgrim", "Ysolde")).deck("M05", "M11").turn_start(0)
    assert spaces_offered(s) == {0, 1, 2}


def test_aldric_shares_tokens_from_an_adjacent_tile():
    pos = Position(heroes=("Thorgrim", "Aldric")).hero(0, tile=7).hero(1, tile=8, equip={"red": 1}).put(1, "M06")
    s = pos.main(0)
    s.chance.script(dice("red", "green", "blue"))
    s.apply(FIGHT(s, 1))
    assert outcomes_offered(s) == {"none", "first"}


def test_thorgrim_ignores_the_corruption_die():
    s = Position(heroes=("Thorgrim", "Ysolde")).put(0, "M12").deck("M05", "M11").turn_start(0, script=[2])
    assert s.heroes[0]["life"] == 3  # the die was never rolled for him
    s = Position(heroes=("Ysolde", "Thorgrim")).put(0, "M12").deck("M05", "M11").turn_start(0, script=[2])
    assert s.heroes[0]["life"] == 2  # face 2: lose 1 Life


def test_effect_order_choice_and_fixed_option():
    pos = Position().put(0, "M01").put(1, "M24").hero(0, equip={"red": 1}).deck("M05", "M11")
    s = pos.turn_start(0)
    assert s.decision["kind"] == "EFFECT_ORDER"
    assert s.legal_actions() == [LAYOUT.encode("RESOLVE_EFFECT", 0), LAYOUT.encode("RESOLVE_EFFECT", 1)]
    s.apply(LAYOUT.encode("RESOLVE_EFFECT", 1))  # Frost Wraith first: discard
    assert s.decision["kind"] == "DISCARD_COLOR"
    pos = Position(effect_order="fixed").put(0, "M01").put(1, "M24").hero(0, equip={"red": 1})
    s = pos.deck("M05", "M11").turn_start(0)
    assert s.decision["kind"] == "DISCARD_COLOR" and s.heroes[0]["life"] == 2  # Hellhound (slot 0) first


def test_sanctify_suppresses_until_the_next_board_turn():
    s = Position().hero(0, tile=1).put(0, "M01").deck("M05", "M11", "M12", "M13").main(0)
    s.apply(ACTIVATE)  # Divine Fountain
    s.apply(SPACE(s, 0))
    assert s.sanct[0] == 0 and s.suppressed(0)
    s.apply(END_TURN)
    assert s.sanct[0] == 0  # board 1's turn: still sanctified


def test_tower_moves_a_card_with_its_net():
    s = Position().hero(0, tile=0).put(1, "M01").element("net", "deployed", 1).main(0)
    s.apply(ACTIVATE)
    assert s.decision["kind"] == "TOWER_SOURCE"
    s.apply(SPACE(s, 1))
    s.apply(SPACE(s, 7))
    assert s.spaces[7] == card("M01") and s.spaces[1] == -1 and s.elements["net"]["where"] == 7


def test_quarry_sets_the_trap():
    s = Position().hero(0, tile=5).main(0)
    s.apply(ACTIVATE)
    assert spaces_offered(s) == set(range(12))
    s.apply(SPACE(s, 9))
    assert s.elements["trap"] == {"state": "deployed", "where": 9, "seat": -1}


def test_dispensary_offers_only_taken_out_heroes():
    s = Position(heroes=("Thorgrim", "Ysolde", "Kaela")).hero(0, tile=6).hero(1, status="out")
    s = s.hero(2, status="dead").main(0)
    s.apply(ACTIVATE)
    assert s.legal_actions() == [PLAYER(s, 1)]


def test_obs_card_ids_option():
    game = LastBastionGame(num_players=2, obs_card_ids=True)
    s = game.new_state(0)
    v = s.observe(0)
    assert v.shape == (2023,) and game.observation_size == 2023
    assert v[1243:].sum() == 1.0  # the card being placed
    assert LastBastionGame(num_players=2).observation_size == 1243


def test_shaped_rewards_are_paid_when_things_happen():
    pos = Position(reward_scheme="shaped").hero(0, tile=7).put(1, "M05")
    s = pos.main(0)
    s.chance.script(dice("red", "green", "blue"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert np.allclose(s.rewards(), [0.02, 0.02])
    s = Position(reward_scheme="score_sheet").hero(0, tile=7, life=2, cta=1).hero(1, status="out")
    s = s.put(1, "W08").element("standard", "deployed", C.GREEN, 0).main(0)
    s.chance.script(dice("green", "white", "green"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.result == "victory" and s.score_sheet() == 10 + 1 + 2
    assert np.allclose(s.rewards(), [1 + 13 / 20] * 2)
