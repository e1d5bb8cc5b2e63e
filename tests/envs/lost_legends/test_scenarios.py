"""The scenario tests of docs/lost_legends.md section 8 (given / when / then), numbered as there.

Unless a test says otherwise: 4 players, seat 0 acts, the level is the latest one among the cards
the scenario names. Positions come from :class:`tests.envs.lost_legends.builders.Position`.
"""

from __future__ import annotations

import pytest

from envs.lost_legends import actions as A
from envs.lost_legends import combat, draft
from envs.lost_legends.common import (
    CHARGE_EXHAUST,
    DEFEND,
    DRAFT_BUY_COMMITTED,
    FINAL,
    GEAR_UP,
    HEAL,
    LEVEL_REWARD,
    LOSE_SKILL,
    NO,
    SELECT_OWN,
    hero_level,
)
from envs.lost_legends.content import CARDS
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.observation import OBSERVATION_LAYOUT
from tests.envs.lost_legends.builders import Position, act, cid, legal_names

H4 = ["Warrior", "Hunter", "Assassin", "Sorceress"]


def slot_of(state, seat, code):
    return state.slots[seat].index(cid(code))


# -- 1-6, 26: costs, discounts, conversion, skills, slot rules (2.3, 2.4) --------------------------
def test_01_two_discounts():
    s = Position(4, H4, level=2).set(0, gold=5).placing(0, "2-01").state()
    assert s.cost(0, cid("2-01")) == 4
    assert s.legal_mask()[A.BUY]
    act(s, "BUY")
    assert s.gold[0] == 1 and s.slots[0][0] == cid("2-01")


def test_02_one_box_to_zero():
    s = Position(4, ["Hunter", "Warrior", "Assassin", "Sorceress"], level=1).set(0, gold=0).placing(0, "1-04").state()
    assert s.levels[0][1] == 2 and s.cost(0, cid("1-04")) == 0 and s.legal_mask()[A.BUY]


def test_03_both_boxes_to_zero():
    s = Position(4, H4, level=1).placing(0, "1-13").state()
    assert CARDS[cid("1-13")].cost == 2 and s.cost(0, cid("1-13")) == 0


def test_04_either_or_once():
    # Assassin (ME, RA) + a magic skill card: RA1 and MA1 both hold; the either/or box counts once.
    s = (
        Position(4, ["Assassin", "Warrior", "Hunter", "Sorceress"], level=2)
        .skills(0, "1-17")
        .placing(0, "2-04")
        .state()
    )
    assert s.levels[0][1] >= 1 and s.levels[0][2] >= 1
    assert s.cost(0, cid("2-04")) == 4


def test_05_long_sword_via_conversion():
    pos = Position(4, ["Assassin", "Warrior", "Hunter", "Sorceress"], level=1).set(0, gold=2).equip(0, "1-01")
    s = pos.placing(0, "1-02").state()
    assert s.slots[0][0] == cid("1-01")
    mask = s.legal_mask()
    assert not mask[A.BUY] and mask[A.PLACE_SKILL] and mask[A.CONVERT + 0]
    act(s, "CONVERT", 0)
    assert s.levels[0][0] == 2 and s.decision == DRAFT_BUY_COMMITTED
    assert not s.legal_mask()[A.PLACE_SKILL] and s.cost(0, cid("1-02")) == 0
    act(s, "BUY")
    assert s.slots[0][0] == cid("1-02") and cid("1-01") in s.skill_cards[0] and s.gold[0] == 2


@pytest.mark.parametrize("level,gain", [(1, 1), (2, 2), (3, 3)])
def test_06_skill_placement(level, gain):
    heroes = ["Sorceress", "Warrior", "Hunter", "Assassin"]
    s = Position(4, heroes, level=level).set(0, gold=7).placing(0, "1-19").state()
    act(s, "PLACE_SKILL")
    assert s.levels[0][2] == 3 and s.gold[0] == 7 + gain


def test_26_slot_rules():
    heroes = ["Sorceress", "Warrior", "Hunter", "Assassin"]
    pos = Position(4, heroes, level=1).set(0, gold=20)
    for code in ("1-17", "1-18", "1-19"):
        pos.equip(0, code)
    s = pos.placing(0, "1-22").state()
    mask = s.legal_mask()
    assert not mask[A.BUY] and all(mask[A.CONVERT + k] for k in (6, 7, 8))
    act(s, "CONVERT", 7)
    assert s.legal_mask()[A.BUY]
    act(s, "BUY")
    assert s.slots[0][7] == cid("1-22")
    s = Position(4, H4, level=1).set(0, gold=20).equip(0, "1-15").placing(0, "1-16").state()
    assert not s.legal_mask()[A.BUY]
    s = Position(4, H4, level=1).set(0, gold=20).equip(0, "1-24").placing(0, "1-25").state()
    assert not s.legal_mask()[A.BUY] and draft.target_slot(s, 0, cid("1-25")) == NO


# -- 7-10, 27, 28: attacks (2.6) -------------------------------------------------------------------
def test_07_melee_level_two():
    heroes = ["Assassin", "Warrior", "Hunter", "Sorceress"]
    s = Position(4, heroes, level=1).equip(0, "1-03").front(0, "1-M01").attacking(0).state()
    v7 = OBSERVATION_LAYOUT.slice("weapon_options")
    assert s.observe(0)[v7][0] == pytest.approx(2 / 20)
    s = Position(4, heroes, level=2).equip(0, "1-03").placing(0, "2-19").state()
    act(s, "PLACE_SKILL")
    assert s.levels[0][0] == 2
    s2 = Position(4, heroes, level=2).equip(0, "1-03").skills(0, "2-19").front(0, "2-M01").attacking(0).state()
    act(s2, "WEAPON", 0)
    act(s2, "STRIKE")
    assert s2.markers[0] == 5


def test_08_halving_rounds_up():
    s = Position(4, H4, level=1).equip(0, "1-06").front(0, "1-M07").attacking(0).state()
    assert s.levels[0][1] == 0
    act(s, "WEAPON", 1)
    act(s, "STRIKE")
    assert cid("1-M07") in s.trophies[0] and s.front[0] == NO


@pytest.mark.parametrize("boost", [False, True])
def test_09_conversion_doubles(boost):
    heroes = ["Barbarian", "Warrior", "Hunter", "Sorceress"]
    s = Position(4, heroes, level=2).equip(0, "1-03").equip(0, "1-17").front(0, "2-M13").attacking(0).state()
    act(s, "WEAPON", 0)
    if boost:
        act(s, "USE", 6)
    act(s, "STRIKE")
    if boost:
        assert cid("2-M13") in s.trophies[0]
    else:
        assert s.markers[0] == 3


def test_10_undead_ogre_example():
    heroes = ["Assassin", "Warrior", "Hunter", "Sorceress"]
    pos = Position(4, heroes, level=2)
    for code in ("1-01", "1-05", "1-13", "1-17", "1-18", "1-21"):
        pos.equip(0, code)
    s = pos.front(0, "2-M11").attacking(0).state()
    assert s.life[0] == 3 and s.mana[0] == 2
    bolt = slot_of(s, 0, "1-18")
    energy = slot_of(s, 0, "1-17")
    evasion = slot_of(s, 0, "1-21")
    act(s, "WEAPON", 1)
    act(s, "USE", energy)
    act(s, "USE", bolt)
    assert s.exhausted[0][bolt]
    act(s, "USE", bolt)  # refresh for 1 mana
    assert not s.exhausted[0][bolt] and s.mana[0] == 1
    assert not s.legal_mask()[A.USE + bolt]  # ready, but once per attack
    assert combat.attack_damage(s, 0) == [0, 0, 6, 0]
    act(s, "STRIKE")
    assert s.markers[0] == 6 and s.decision == DEFEND and s.current_player == 0
    assert combat.remaining_damage(s, 0, s.ev["inc"], []) == [2, 0, 0, 1]  # the Oak Shield took 1 melee
    act(s, "USE", evasion)
    act(s, "ACCEPT_DAMAGE")
    assert s.life[0] == 2
    # Every other player gets a 1 chaos event, clockwise: nobody can block it.
    for q in (1, 2, 3):
        assert s.decision == DEFEND and s.current_player == q and s.ev["inc"] == [0, 0, 0, 1]
        life = s.life[q]
        act(s, "ACCEPT_DAMAGE")
        assert s.life[q] == life - 1
    # Next turn the Short Sword (2 + 1 melee) finishes the Ogre.
    s = Position(4, heroes, level=2).equip(0, "1-01").front(0, "2-M11", markers=6).attacking(0).state()
    act(s, "WEAPON", 0)
    act(s, "STRIKE")
    assert cid("2-M11") in s.trophies[0]


def test_27_unarmed():
    s = Position(4, H4, level=1).front(0, "1-M01").attacking(0).state()
    assert s.legal_actions() == [A.UNARMED]
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.markers[0] == 1


def test_28_mana_effect_conditions():
    heroes = ["Assassin", "Warrior", "Hunter", "Sorceress"]
    base = Position(4, heroes, level=2).skills(0, "1-17").equip(0, "2-04").set(0, mana=2, mana_base=2)
    s = base.front(0, "2-M01").attacking(0).state()
    act(s, "WEAPON", 1)
    assert not s.legal_mask()[A.MANA + 1]
    s = Position(4, heroes, level=2).skills(0, "1-17", "1-10").equip(0, "2-04").set(0, mana=2, mana_base=2)
    s = s.front(0, "2-M01").attacking(0).state()
    act(s, "WEAPON", 1)
    act(s, "MANA", 1)
    act(s, "MANA", 1)
    assert s.mana[0] == 0 and s.atk["fors"][1] == 2 and not s.legal_mask()[A.MANA + 1]
    s = Position(4, ["Sorceress", "Warrior", "Hunter", "Assassin"], level=1).equip(0, "1-08")
    s = s.front(0, "1-M01").attacking(0).state()
    act(s, "WEAPON", 2)
    act(s, "MANA", 2)
    assert s.mana[0] == 2 and not s.legal_mask()[A.MANA + 2]


# -- 11, 12, 16, 17, 20, 24: damage, healing, defeat -----------------------------------------------
def test_11_healing_at_zero():
    heroes = ["Assassin", "Warrior", "Hunter", "Sorceress"]
    s = Position(4, heroes, level=2).equip(0, "1-13").equip(0, "1-24").front(0, "2-M12").attacking(0).state()
    act(s, "UNARMED")
    act(s, "STRIKE")  # melee is cancelled: the Wraith attacks
    assert s.decision == DEFEND and combat.remaining_damage(s, 0, s.ev["inc"], []) == [0, 0, 2, 1]
    act(s, "ACCEPT_DAMAGE")
    assert s.life[0] == 0 and s.decision == HEAL
    act(s, "USE", 9)
    assert s.life[0] == 1 and not s.defeated[0] and s.front[0] == cid("2-M12")


def test_12_wyvern_level_up():
    s = Position(4, H4, level=1).set(0, xp=1).front(0, "1-M18", markers=4).attacking(0).state()
    gold = list(s.gold)
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.xp[0] == 3 and hero_level(s.xp[0]) == 2
    assert s.decision == LEVEL_REWARD and s.current_player == 0 and s.gold == gold
    life, top = s.life[0], s.max_life(0)
    act(s, "REWARD_LIFE")
    assert s.max_life(0) == top + 1 and s.life[0] == life + 1
    assert s.gold[0] == gold[0] + 1  # the Wyvern's 2 gold: seat 0 then seat 1
    assert s.gold[1] == gold[1] + 1


def _troll_defeat(skill_codes):
    pos = Position(4, H4, level=2).set(3, life=1).skills(3, *skill_codes).front(3, "2-M07").front(1, None)
    s = pos.attacking(3).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.decision == DEFEND and s.current_player == 3
    act(s, "ACCEPT_DAMAGE")
    return s


def test_16_defeat_loses_a_skill():
    s = _troll_defeat(["1-01", "1-04"])
    assert s.defeated[3] and s.front[3] == NO and cid("2-M07") in s.box
    assert s.decision == LOSE_SKILL and legal_names(s) == {"LOSE(skill=0)", "LOSE(skill=1)"}
    act(s, "LOSE", 1)
    assert [CARDS[c].skill for c in s.skill_cards[3]] == [0]
    # Seat 3 is skipped; seat 0's turn comes next. Seat 2 defeating a 2-gold monster gives seat 3 a coin.
    assert s.current_player == 0
    s2 = Position(4, H4, level=1).set(3, defeated=True).front(3, None).front(2, "1-M03", markers=2).attacking(2).state()
    gold = list(s2.gold)
    act(s2, "UNARMED")
    act(s2, "STRIKE")
    assert s2.gold[2] == gold[2] + 1 and s2.gold[3] == gold[3] + 1


def test_17_only_initial_skills():
    s = _troll_defeat([])
    assert s.defeated[3] and s.decision != LOSE_SKILL and s.levels[3] == s.initial_skills(3) == [0, 0, 2, 0]


def test_20_all_players_suffer():
    pos = Position(4, H4, level=3).set(2, defeated=True).front(2, None).front(0, "3-M08")
    s = pos.attacking(0).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.current_player == 0 and s.ev["inc"] == [0, 0, 4, 1]
    act(s, "ACCEPT_DAMAGE")
    seen = []
    while s.decision == DEFEND:
        seen.append(s.current_player)
        assert s.ev["inc"] == [0, 0, 0, 1] and s.ev["source"] == 1
        act(s, "ACCEPT_DAMAGE")
    assert seen == [1, 3]


def test_24_alternative_level_end():
    pos = Position(4, H4, level=1).set(0, life=1).front(0, "1-M04").trophies(1, "1-M01")
    for q in (1, 2, 3):
        pos.set(q, defeated=True).front(q, None)
    pos.data["challenge"] = [1, NO, NO, NO]  # seat 1 holds the animal challenge (it owns an animal)
    s = pos.attacking(0).state()
    legend = s.legend[1]
    act(s, "UNARMED")
    act(s, "STRIKE")
    act(s, "ACCEPT_DAMAGE")
    # Everyone is defeated: no final round, the level ends and the Caves draft starts.
    assert s.level == 1 and s.phase == GEAR_UP and s.level_ends == 1
    assert s.legend[1] == legend + 1 and not any(s.defeated)


# -- 13-15: combat result (2.8 a) ------------------------------------------------------------------
def test_13_gold_dealing():
    s = Position(4, H4, level=2).front(0, "2-M08", markers=7).attacking(0).state()
    gold = list(s.gold)
    act(s, "UNARMED")
    act(s, "STRIKE")
    while s.decision == LEVEL_REWARD:
        act(s, "REWARD_LIFE")
    assert [s.gold[i] - gold[i] for i in range(4)] == [2, 1, 0, 1]
    heroes = ["Warrior", "Hunter", "Assassin", "Sorceress", "Barbarian"]
    s = Position(5, heroes, level=3).front(0, "3-M14", markers=15).attacking(0).state()
    gold = list(s.gold)
    act(s, "UNARMED")
    act(s, "STRIKE")
    while s.decision == LEVEL_REWARD:
        act(s, "REWARD_LIFE")
    assert [s.gold[i] - gold[i] for i in range(5)] == [2, 2, 0, 0, 2]


@pytest.mark.parametrize("holder_dragons,moves", [(1, True), (2, False)])
def test_14_challenge_trophy_on_a_tie(holder_dragons, moves):
    pos = Position(4, H4, level=1).trophies(1, *["1-M19", "1-M20"][:holder_dragons])
    pos.data["challenge"][2] = 1
    s = pos.front(0, "1-M18", markers=4).attacking(0).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.challenge[2] == (0 if moves else 1)
    assert s.legend[0] == (1 if moves else 0)


def test_15_trophy_tokens():
    pos = Position(4, H4, level=1).trophies(2, "1-M01", "1-M04").set(2, tokens=[4, 0, 0, 0, 0, 0])
    pos.data["stack_taken"][0] = 1
    s = pos.front(2, "1-M02", markers=3).attacking(2).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.tokens[2][4] == 8 and s.stack_taken[4] == 1
    data = s.to_json()
    # The next player to 3 of a kind gets 6.
    pos = Position(4, H4, level=1).trophies(0, "1-M08", "1-M09").front(0, "1-M10", markers=3)
    pos.data["stack_taken"] = list(data["stack_taken"])  # with the tokens their holders took
    for i in range(4):
        pos.set(i, tokens=list(data["players"][i]["tokens"]))
    s = pos.attacking(0).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.tokens[0][4] == 6
    # A kill completing 2 dragons and one of each type: T4 and T6.
    pos = Position(4, H4, level=1).trophies(1, "1-M01", "1-M08", "1-M14", "1-M19").front(1, "1-M18", markers=4)
    s = pos.attacking(1).state()
    act(s, "UNARMED")
    act(s, "STRIKE")
    assert s.tokens[1][3] == 7 and s.tokens[1][5] == 10


# -- 18, 19: passing and charges -------------------------------------------------------------------
def test_18_pass_destination():
    heroes = ["Warrior", "Hunter", "Assassin", "Sorceress", "Barbarian"]
    pos = Position(5, heroes, level=1).front(2, "1-M05", markers=1).front(4, None).front(1, None)
    pos.set(1, defeated=True)
    s = pos.turn(2).state()
    assert s.decision == SELECT_OWN and s.legal_mask()[A.PASS]
    act(s, "PASS")
    assert s.front[4] == cid("1-M05") and s.markers[4] == 1 and s.front[2] == NO
    pos = Position(5, heroes, level=1).front(1, None).set(1, defeated=True)
    s = pos.turn(2).state()
    assert s.decision == SELECT_OWN and not s.legal_mask()[A.PASS]


def test_19_harpy_charge():
    # (a) Drawn: the drawer exhausts one of his ready scrolls or trinkets.
    heroes = ["Sorceress", "Warrior", "Hunter", "Assassin"]
    pos = Position(4, heroes, level=2).equip(0, "1-18").equip(0, "1-27").equip(0, "1-24").front(0, None)
    s = pos.pile("2-M01", "2-M06").turn(0).state()
    act(s, "DRAW")
    assert s.decision == CHARGE_EXHAUST and legal_names(s) == {"EXHAUST(slot=6)", "EXHAUST(slot=9)"}
    act(s, "EXHAUST", 9)
    assert s.exhausted[0][9] and not s.exhausted[0][6] and s.front[0] == cid("2-M06")
    # (b) Revealed face up in step 1: the humanoid challenge-trophy holder suffers it.
    pos = Position(4, heroes, level=2).equip(2, "1-18").faceup(None).pile("2-M01", "2-M06").trophies(2, "2-M08")
    pos.data["challenge"][1] = 2  # seat 2 holds the humanoid challenge (it owns a humanoid)
    s = pos.turn(0).state()
    assert s.faceup == cid("2-M06") and s.decision == CHARGE_EXHAUST and s.current_player == 2
    act(s, "EXHAUST", 6)
    assert s.exhausted[2][6] and s.decision == SELECT_OWN and s.current_player == 0
    # Unclaimed trophy: nothing happens.
    s = Position(4, heroes, level=2).equip(2, "1-18").faceup(None).pile("2-M01", "2-M06").turn(0).state()
    assert s.decision == SELECT_OWN and s.current_player == 0


# -- 21-25: end of phase, level end, final score ---------------------------------------------------
def test_21_last_monster_and_final_round():
    heroes = ["Barbarian", "Sorceress", "Assassin", "Warrior"]
    pos = Position(4, heroes, level=1).pile().front(0, None).front(1, None).faceup("1-M04")
    pos.front(2, "1-M12").front(3, "1-M15")
    s = pos.turn(0).state()
    assert legal_names(s) == {"TAKE_FACEUP"}
    act(s, "TAKE_FACEUP")
    act(s, "UNARMED")
    act(s, "STRIKE")
    order = []
    while s.level == 0:
        if s.decision == 7:  # CHOOSE_WEAPON: a final-round attack
            assert s.phase == FINAL
            order.append(s.current_player)
        act(s, "ACCEPT_DAMAGE") if s.decision == DEFEND else s.apply(s.legal_actions()[-1])
    assert order == [2, 3, 0]
    assert all(m in s.box for m in (cid("1-M04"), cid("1-M12"), cid("1-M15")))


def test_22_next_starting_player():
    pos = Position(4, H4, level=1).level_end()
    for i, lm in enumerate((3, 1, 1, 4)):
        pos.set(i, legend=lm)
    pos.data["start"] = 2
    assert pos.state().start == 1
    pos = Position(4, H4, level=1).level_end()
    for i, lm in enumerate((1, 3, 1, 4)):
        pos.set(i, legend=lm)
    pos.data["start"] = 0
    assert pos.state().start == 2


def test_23_level_end():
    pos = Position(4, ["Sorceress", "Warrior", "Hunter", "Assassin"], level=1)
    pos.equip(0, "1-18", exhausted=True).equip(0, "1-24", exhausted=True).set(0, life=1, mana=0, defeated=True)
    pos.front(0, None).trophies(0, "1-M01", "1-M08")  # defeated: no monster; the trophies of its challenges
    pos.data["challenge"] = [0, 0, NO, NO]
    s = pos.level_end().state()
    assert s.legend[0] == 2 and not any(s.exhausted[0])
    assert s.life[0] == s.max_life(0) and s.mana[0] == s.max_mana(0) and not s.defeated[0]


def test_25_final_score_48():
    pos = Position(4, H4, level=3)
    pos.set(0, legend=11, xp=21, tokens=[4, 5, 0, 7, 8, 0], gold=5)  # the top token of T1, T2, T4 and T5
    pos.data["stack_taken"] = [1, 1, 0, 1, 1, 0]
    pos.set(1, gold=9).set(2, gold=1).set(3, gold=0)
    pos.data.update(phase="over", decision=None, tasks=[])
    s = pos.state()
    b = s.score_breakdown()[0]
    assert b == {"legend_markers": 11, "experience_points": 10, "trophy_tokens": 24, "gold_bonus": 3}
    assert s.scores()[0] == 48 and s.outcome().winners == (0,)
    pos.set(1, legend=42)  # 42 + 6 = 48: a shared victory
    s = pos.state()
    assert s.scores()[1] == 48 and s.outcome().winners == (0, 1)
    assert s.returns() == [1.0, 1.0, -1.0, -1.0]


# -- 29, 30: the draft and the card counts ---------------------------------------------------------
def test_29_draft_passing_and_secrecy():
    game = LostLegendsGame(num_players=4, starting_player=0)
    s = game.new_state(3)
    hands = [list(h) for h in s.hands]
    picks = {}
    for k in range(4):
        seat = s.current_player
        if k < 3:  # before the pass: which card a seat picked changes nothing the others see
            other = s.clone()
            act(other, "PICK", 1)
            twin = s.clone()
            act(twin, "PICK", 0)
            for j in range(4):
                same = (twin.observe(j) == other.observe(j)).all()
                assert same == (j != seat), (k, j)
        act(s, "PICK", 0)
        picks[seat] = hands[seat][0]
    # The remaining hands are passed once every pick is placed (they lie face down until then).
    placed = [0] * 4
    for _ in range(4):
        placed[s.current_player] += 1
        act(s, "PLACE_SKILL")
    for i in range(4):
        assert s.hands[(i + 1) % 4] == sorted(c for c in hands[i] if c != picks[i])
    # Play out the level's draft: every player places exactly 5 cards; 4 sixth cards are boxed.
    while s.phase == GEAR_UP:
        if s.decision == 1:
            placed[s.current_player] += 1
            act(s, "PLACE_SKILL")
        else:
            act(s, "PICK", 0)
    assert placed == [5] * 4 and len(s.sixth) == 4 and all(len(c) == 5 for c in s.skill_cards)


@pytest.mark.parametrize("n,deck,pile", [(3, 18, 9), (4, 24, 12), (5, 30, 15)])
def test_30_equipment_removal(n, deck, pile):
    game = LostLegendsGame(num_players=n)
    assert all(len(ids) == deck for ids in game.equipment_in_play)
    s = game.new_state(1)
    assert sum(len(h) for h in s.hands) == deck and all(len(h) == 6 for h in s.hands)
    assert sum(m != NO for m in s.front) == n and s.faceup != NO
    assert len(s.piles[0]) == 2 * n - 1 and len(s.piles[1]) == pile and len(s.piles[2]) == pile
