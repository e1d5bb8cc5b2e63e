"""The 25 given/when/then scenarios of the Last Bastion design (docs/last_bastion.md, "Scenario tests").

Spaces and tiles are absolute (board 0 red at the bottom); the helpers in builders.py convert them to
the acting player's frame. Default test layout (positions t0..t8): Tower, Fountain, Trebuchet, Market,
Great Hall, Quarry, Dispensary, Standard, Tomb. Dice faces are scripted with ``state.chance.script``.
"""

from __future__ import annotations

import pytest

from envs.last_bastion import content as C
from envs.last_bastion.combat import combat_dice
from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.hero import main_legal
from envs.last_bastion.tokens import grasp_tile, lose_life
from tests.envs.last_bastion.builders import (
    ACTIVATE,
    COLOR,
    CTA,
    END_TURN,
    FIGHT,
    FIGHT_BOTH,
    PLAYER,
    RESOLVE,
    SPACE,
    TILE,
    Position,
    card,
    dice,
    outcomes_offered,
    players_offered,
    spaces_offered,
)

NO_CENTRAL = ["M02", "M03", "M04", "M05", "M06", "M14", "M15", "M22", "M31", "M34", "M35", "M39"]


def fill_all(pos, skip=()):
    for s, code in zip(range(12), NO_CENTRAL):
        if s not in skip:
            pos.put(s, code)
    return pos


def test_1_hollow_summoner_chain():
    pos = Position(heroes=("Thorgrim", "Ysolde", "Aldric", "Kaela"), seats=[3, 0, 1, 2])
    s = pos.deck("M21", "M42", "M05").turn_start(3)
    assert s.current_player == 0 and s.decision["kind"] == "PLACE_CARD"
    assert spaces_offered(s) == {6, 7, 8}
    s.apply(SPACE(s, 6))
    assert s.decision["kind"] == "PLACE_CARD" and s.decision["card"] == card("M42")
    assert spaces_offered(s) == {9, 10, 11}
    s.apply(SPACE(s, 10))
    assert len(s.deck) == 1 and s.spaces[6] == card("M21") and s.spaces[10] == card("M42")
    assert s.ongoing_count("ONG_DIM") == 1 and combat_dice(s) == 2


@pytest.mark.parametrize(
    "token, faces, offered",
    [
        (1, ("red", "green", "blue"), {"none", "first"}),
        (0, ("red", "green", "blue"), {"none"}),
        (0, ("red", "white", "blue"), {"first"}),
    ],
)
def test_2_incubus_and_a_red_token(token, faces, offered):
    s = Position().hero(0, tile=7, equip={"red": token}).put(1, "M06").main(0)
    s.chance.script(dice(*faces))
    s.apply(FIGHT(s, 1))
    assert s.decision["kind"] == "COMBAT_RESOLVE" and outcomes_offered(s) == offered
    if offered == {"none"}:
        s.apply(RESOLVE("none"))
        assert s.spaces[1] == card("M06") and s.decision["kind"] == "MAIN" and s.acted
        return
    s.apply(RESOLVE("first"))
    assert s.heroes[0]["equip"][C.RED] == 0 and s.reserve_equip[C.RED] == 4
    # the exit effect is applied while the card is still on its space (rulebook order), then it leaves
    assert s.decision["kind"] == "GAIN_COLOR" and s.spaces[1] == card("M06")
    s.apply(COLOR("yellow"))
    assert s.spaces[1] == -1 and card("M06") in s.discard and s.heroes[0]["equip"][C.YELLOW] == 1


def test_3_corner_double_combat():
    s = Position().hero(0, tile=6, equip={"red": 1}).put(2, "M06").put(3, "M21").main(0)
    s.chance.script(dice("red", "white", "yellow"))
    s.apply(FIGHT_BOTH)
    assert outcomes_offered(s) == {"first", "second", "both"}
    s.apply(RESOLVE("both"))
    assert s.heroes[0]["equip"][C.RED] == 0 and s.reserve_equip[C.RED] == 4
    assert s.decision["kind"] == "GAIN_COLOR"  # Incubus's exit effect
    s.apply(COLOR("red"))
    assert s.spaces[2] == -1 and s.spaces[3] == -1 and s.discard == [card("M06"), card("M21")]


def test_4_neutral_board_butcher():
    # Gary yellow (seat 3), Paul green (1), Amy blue (2); the red board is neutral
    pos = Position(heroes=("Thorgrim", "Ysolde", "Aldric"), seats=[3, 1, 2]).put(1, "M07")
    pos.hero(1, equip={"green": 1}).hero(2, equip={"blue": 1, "black": 1}).deck("M05", "M14")
    s = pos.main(0)
    s.apply(END_TURN)
    assert s.board == 0 and s.neutral and s.decision["kind"] == "CHOOSE_VICTIM"
    assert s.current_player == 1  # Paul: first in-play player clockwise after the red board
    assert players_offered(s) == {1, 2}
    s.apply(PLAYER(s, 2))
    assert s.decision["kind"] == "DISCARD_COLOR"
    assert {a - COLOR("red") for a in s.legal_actions()} == {C.BLUE, C.BLACK}
    s.apply(COLOR("black"))
    assert s.heroes[2]["equip"] == [0, 0, 1, 0, 0]
    # no draw on the neutral board: the first card is drawn by Paul's board-turn
    assert s.board == 1 and s.current_player == 1 and s.decision["kind"] == "PLACE_CARD"
    assert s.decision["card"] == card("M05") and len(s.deck) == 1


def test_5_all_spaces_full():
    pos = fill_all(Position()).hero(0, tile=4, life=2).deck("M11")
    s = pos.main(0)
    s.apply(ACTIVATE)
    assert s.heroes[0]["life"] == 2 and s.heroes[0]["cta"] == 1
    assert s.deck == [card("M11")] and s.decision["kind"] == "MAIN"
    pos = fill_all(Position()).hero(0, tile=7, life=2, cta=1).deck("M11")
    s = pos.main(0)
    s.apply(CTA(s, 4))
    assert s.heroes[0]["life"] == 2 and s.heroes[0]["cta"] == 0 and s.deck == [card("M11")]


def test_6_own_board_full():
    pos = Position().put(0, "M02").put(1, "M03").put(2, "M04").deck("M11")
    s = pos.turn_start(0)
    assert s.heroes[0]["life"] == 2  # Burning Volley
    assert s.deck == [card("M11")] and s.decision["kind"] == "MAIN"


def test_7_third_grasped_tile():
    s = Position().grasp(0, 1).put(4, "M32").deck("M11").turn_start(1)
    assert s.grasped[3] and s.result == "defeat_grasp" and s.is_terminal()
    assert s.rewards() == [-1.0, -1.0] or s.outcome().winners == ()
    assert s.outcome().winners == () and not s.outcome().truncated


def test_7_rewards_of_the_grasp_defeat():
    s = Position().grasp(0, 1).put(4, "M05").put(3, "M05" if False else "M14").deck("M32", "M11").main(1)
    # player 1 (green board) ends the turn; the tactic: Sapper already on s4 faces t3
    s2 = Position().grasp(0, 1).put(4, "M32").deck("M11").main(0)
    s2.apply(END_TURN)  # board 1's Horde phase: Sapper grasps t3
    assert s2.result == "defeat_grasp" and s2.rewards() == [-1.0, -1.0] and s2.legal_actions() == []
    assert s.decision["kind"] == "MAIN"


def test_8_warlord_immunity():
    pos = Position().hero(0, tile=2, cta=1).put(4, "W07")
    s = pos.main(0)
    legal = s.legal_actions()
    assert ACTIVATE not in legal and CTA(s, 2) not in legal and CTA(s, 8) not in legal
    s = pos.put(1, "M05").main(0)
    assert ACTIVATE in s.legal_actions()
    s.apply(ACTIVATE)
    assert s.decision["kind"] == "TREBUCHET_TARGET" and spaces_offered(s) == {1}
    # the Trap ignores a Warlord
    pos = Position().put(1, "M05").put(2, "M03").element("trap", "deployed", 0).deck("W01", "M11")
    s = pos.turn_start(0)
    assert spaces_offered(s) == {0}
    s.apply(SPACE(s, 0))
    assert s.spaces[0] == card("W01") and s.elements["trap"]["state"] == "home"


def test_8b_trap_discards_a_monster():
    pos = Position().put(1, "M05").put(2, "M03").element("trap", "deployed", 0).deck("M04", "M11")
    s = pos.turn_start(0)
    s.apply(SPACE(s, 0))
    assert s.spaces[0] == -1 and card("M04") in s.discard and s.heroes[0]["life"] == 3  # no entrance effect
    assert s.elements["trap"]["state"] == "home"


@pytest.mark.parametrize("standard, offered", [(True, {"first"}), (False, {"none"})])
def test_9_standard_weakens_a_warlord(standard, offered):
    pos = Position().hero(0, tile=7, equip={"black": 2}).put(1, "W07")
    if standard:
        pos.element("standard", "deployed", C.BLACK, 0)
    s = pos.main(0)
    s.chance.script(dice("black", "white", "green"))
    s.apply(FIGHT(s, 1))
    assert outcomes_offered(s) == offered | ({"none"} if offered == {"first"} else set())


def test_9b_standard_returns_at_the_planters_next_board_turn():
    pos = Position().element("standard", "deployed", C.BLACK, 0).deck("M11", "M12")
    s = pos.turn_start(1)
    assert s.elements["standard"]["state"] == "deployed"
    s = pos.turn_start(0)
    assert s.elements["standard"]["state"] == "home"


def test_10_market_through_call_to_arms():
    s = Position().hero(0, tile=7, cta=1).put(1, "M41").main(0)
    s.chance.script(dice("black", "white"))
    s.apply(CTA(s, 3))
    assert s.heroes[0]["cta"] == 0 and s.reserve_cta == C.CTA_TOTAL
    assert s.heroes[0]["equip"][C.BLACK] == 1 and s.decision["kind"] == "GAIN_COLOR"
    s.apply(COLOR("black"))
    assert s.heroes[0]["equip"][C.BLACK] == 2
    assert s.decision["kind"] == "MAIN" and not s.acted and FIGHT(s, 1) in s.legal_actions()


def test_11_call_to_arms_and_grasp():
    pos = Position().hero(0, tile=3, cta=1).grasp(3)
    s = pos.main(0)
    assert ACTIVATE not in s.legal_actions() and CTA(s, 3) in s.legal_actions()
    s = pos.put(7, "M26").main(0)
    assert not any(CTA(s, t) in s.legal_actions() for t in range(9))


def test_12_no_combat_from_the_centre():
    fights = {FIGHT(Position().main(0), sp) for sp in range(12)}
    s = fill_all(Position()).main(0)
    assert not fights & set(s.legal_actions())
    s = fill_all(Position(heroes=("Twindalli", "Ysolde"))).main(0)
    assert {a for a in s.legal_actions() if a in fights} == {FIGHT(s, sp) for sp in C.MIDDLE_SPACES}
    assert FIGHT_BOTH not in s.legal_actions()
    s = fill_all(Position(heroes=("Twindalli", "Ysolde"))).hero(0, wounded=True).main(0)
    assert not fights & set(s.legal_actions())


def test_13_resistance_zero():
    s = Position().hero(0, tile=7).put(1, "M05").element("standard", "deployed", C.RED, 1).main(0)
    assert s.effective_resistance(1) == 0
    s.chance.script(dice("green", "green", "green"))
    s.apply(FIGHT(s, 1))
    assert outcomes_offered(s) == {"first"}


def test_14_healing_and_death():
    pos = Position().hero(0, tile=6).hero(1, status="out")
    s = pos.main(0)
    s.apply(ACTIVATE)
    assert s.decision["kind"] == "DISPENSARY_TARGET" and players_offered(s) == {1}
    s.apply(PLAYER(s, 1))
    h = s.heroes[1]
    assert h["status"] == "in" and h["wounded"] and h["life"] == 3 and h["cta"] == 1 and h["tile"] == 6
    assert not s.power_usable(1)
    s.apply(END_TURN)
    assert s.board == 1 and not s.neutral and s.active == 1  # linked again: a player turn
    lose_life(s, 1, 3)
    assert s.heroes[1]["status"] == "dead" and not s.completable(C.DISPENSARY)


@pytest.mark.parametrize("life, result", [(1, "defeat_heroes"), (2, "victory")])
def test_15_warlord_exit_effect_decides(life, result):
    pos = Position().hero(0, tile=7, life=life).hero(1, status="out").put(1, "W08")
    s = pos.element("standard", "deployed", C.GREEN, 0).main(0)
    s.chance.script(dice("green", "white", "green"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.vanquished == 1 and s.result == result
    if result == "victory":
        assert s.spaces[1] == -1 and card("W08") in s.discard
    assert s.rewards() == ([-1.0] * 2 if result != "victory" else [1.0] * 2)
    assert s.outcome().team_won == (result == "victory")


def test_16_empty_deck():
    s = Position().turn_start(0)
    assert s.result == "defeat_deck" and s.rewards() == [-1.0, -1.0] or s.result == "defeat_deck"


def test_17_reserve_limits():
    pos = Position().hero(0, tile=7, cta=0).hero(1, cta=C.CTA_TOTAL).put(1, "M08")  # the reserve is empty
    assert pos.d["reserve_cta"] == 0
    s = pos.main(0)
    s.chance.script(dice("red", "green", "blue"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.heroes[0]["cta"] == 0 and s.reserve_cta == 0 and s.spaces[1] == -1
    s = Position().put(0, "M07").deck("M05", "M11").turn_start(0)
    assert s.decision["kind"] == "PLACE_CARD"  # the Butcher found nothing to discard


def test_18_active_hero_taken_out_mid_turn():
    s = Position().hero(0, tile=8, life=1).put(5, "M01").deck("M11", "M12").main(0)
    s.apply(ACTIVATE)
    assert s.decision["kind"] == "TOMB_TARGET"
    s.apply(SPACE(s, 5))
    assert card("M01") in s.discard and s.heroes[0]["status"] == "out"
    assert s.board == 1 and s.result is None and s.decision["kind"] == "PLACE_CARD"  # play moved on
    s.chance.script([0])  # M11 Plague Rat's entrance rolls the Corruption die: blank
    s.apply(SPACE(s, 3))
    turns = s.board_turns
    deck = len(s.deck)
    while s.decision["kind"] != "MAIN":
        s.apply(s.legal_actions()[0])
    s.apply(END_TURN)
    # boards 2, 3 and the now neutral red board 0 pass without a draw; board 1 draws again
    assert s.board == 1 and s.board_turns == turns + 4 and len(s.deck) == deck - 1


def test_19_two_warlords():
    pos = Position(difficulty="difficult").hero(0, tile=7).put(1, "W01").put(4, "W04")
    pos.element("standard", "deployed", C.RED, 0).deck("M11", "M12")
    s = pos.main(0)
    s.chance.script(dice("white", "white", "white"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.vanquished == 1 and s.result is None
    pos.d["vanquished"] = 1
    pos.d["spaces"][1] = -1
    pos.put(1, "W06")
    pos.element("standard", "deployed", C.BLACK, 0)
    s = pos.main(0)
    s.chance.script(dice("white", "white", "white"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.result == "victory"


def test_20_novice_setup():
    g = LastBastionGame(num_players=4, difficulty="novice")
    s = g.new_state(3)
    for p, h in enumerate(s.heroes):
        own = s.seat_of[p]
        expected = [0] * 5
        expected[own] += 1
        expected[C.BLACK] += 1
        assert h["equip"] == expected
        assert h["life"] == 3 + (h["hero"] == C.THORGRIM) and h["cta"] == 1
    assert s.reserve_equip[C.BLACK] == 0
    cards = len(s.deck) + sum(c >= 0 for c in s.spaces) + len(s.discard) + (s.placing >= 0)
    assert cards == 47
    full = ([s.placing] if s.placing >= 0 else []) + s.deck
    assert [i for i, c in enumerate(full) if C.CARDS[c].warlord] == [38]


def test_21_black_card_on_a_neutral_turn():
    pos = Position(seats=[0, 1]).put(7, "M25").deck("M46", "M05", "M14")
    s = pos.turn_start(2)
    assert s.neutral and s.decision["kind"] == "PLACE_CARD" and spaces_offered(s) == {6, 8}
    s.apply(SPACE(s, 6))
    assert s.decision["card"] == card("M05") and spaces_offered(s) == {0, 1, 2}
    s.apply(SPACE(s, 0))
    # no draw for board 2's power: the next card is board 0's (player 0's turn)
    assert s.board == 0 and s.decision["card"] == card("M14") and s.deck == []


@pytest.mark.parametrize("y_tile, offered", [(7, {"none", "first"}), (8, {"none"})])
def test_22_shared_tokens(y_tile, offered):
    s = Position().hero(0, tile=7).hero(1, tile=y_tile, equip={"red": 1}).put(1, "M06").main(0)
    s.chance.script(dice("red", "green", "blue"))
    s.apply(FIGHT(s, 1))
    assert outcomes_offered(s) == offered
    if "first" in offered:
        s.apply(RESOLVE("first"))
        assert s.heroes[1]["equip"][C.RED] == 0


def test_23_grasp_parks_an_element():
    pos = Position().hero(0, tile=7, cta=2).put(1, "M01").element("net", "deployed", 1).deck("M11", "M12")
    s = pos.main(0)
    grasp_tile(s, 2)  # a Grasp lands on the Trebuchet
    assert s.elements["net"]["state"] == "deployed" and s.suppressed(1)
    s.decision["legal"] = main_legal(s)
    assert CTA(s, 2) not in s.legal_actions()
    s.chance.script(dice("red", "green", "blue"))
    s.apply(FIGHT(s, 1))
    s.apply(RESOLVE("first"))
    assert s.elements["net"]["state"] == "parked"
    assert CTA(s, 2) not in s.legal_actions()
    s.apply(CTA(s, 1))  # Divine Fountain
    s.apply(TILE(s, 2))
    assert s.elements["net"]["state"] == "home" and not s.grasped[2]


def test_24_several_calls_to_arms():
    s = Position().hero(0, tile=4, cta=1).deck("M05", "M11").main(0)
    s.chance.script(dice("red", "green"))
    s.apply(CTA(s, 3))
    assert s.heroes[0]["cta"] == 0 and s.heroes[0]["equip"][:2] == [1, 1]
    s.apply(ACTIVATE)
    assert s.heroes[0]["cta"] == 1 and s.decision["kind"] == "PLACE_CARD"
    s.apply(s.legal_actions()[0])
    assert s.decision["kind"] == "MAIN"
    s.apply(CTA(s, 7))
    assert s.decision["kind"] == "STANDARD_COLOR" and s.board == 0


def test_25_overflow():
    pos = Position().put(3, "M14").put(4, "M15").put(5, "M11").deck("M12", "M13")
    s = pos.turn_start(0)
    assert s.decision["card"] == card("M12")
    assert spaces_offered(s) == set(range(12)) - {3, 4, 5}


def test_double_combat_discards_card_by_card_first_then_second():
    """2.9 step 7: FIRST (no exit effect) leaves play before SECOND's exit effect is applied, and
    SECOND is still on its space while its exit effect resolves. (Before the fix, a FIRST without an
    exit effect stayed on its space until after SECOND's exit effect.)"""
    pos = Position().hero(0, tile=6, equip={"red": 2, "yellow": 2, "green": 2}).put(2, "M21").put(3, "M06")
    s = pos.main(0)
    s.chance.script(dice("white", "white", "white"))
    s.apply(FIGHT_BOTH)
    assert "both" in outcomes_offered(s)
    s.apply(RESOLVE("both"))
    assert s.decision["kind"] == "GAIN_COLOR"  # Incubus's exit effect, SECOND
    assert s.spaces[2] == -1 and s.discard == [card("M21")]  # FIRST already discarded
    assert s.spaces[3] == card("M06")  # SECOND still on its space
    s.apply(COLOR("red"))
    assert s.spaces[3] == -1 and s.discard == [card("M21"), card("M06")]
