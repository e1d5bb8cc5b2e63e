"""Scenario tests of docs/heroes_and_monsters.md section 8: given a position, when actions, then the rules.

Unless stated: 2 players (Wargosh, Mortivar), Randall, player_0 active, toughness 0, ward 0."""

from __future__ import annotations

import numpy as np
import pytest

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT
from envs.heroes_and_monsters.turn import (
    CHOOSE_DISCARD,
    CHOOSE_OVERFLOW,
    COMBAT,
    EFFECTS,
    RECRUIT,
    SUPPORT,
)
from tests.envs.heroes_and_monsters.builders import PASS, A, cid, fortress_of, hand_slot, iid, legal, position

AREA = ["Goblin Cutthroat", "Goblin Shaman", "Orc Raider", "Wraith", "Ghoul", "Ghoul", "Ghoul", "Drake Rider"]
QUIET = ["Elf Archer", "Dwarf Axeman", "Elf Archer", "Dwarf Axeman"]  # Invaders without effects


def to_last_turn_combat(state_kwargs: dict) -> dict:
    """Fields putting player_1 (the last of 2) in COMBAT of round 1, so PASS runs the Invasion."""
    return dict(active=1, current_player=1, turns_done=1, first=0, phase="COMBAT", res=[0, 0, 0], **state_kwargs)


# 1-4: recruitment -----------------------------------------------------------------------------------
def test_1_buy_from_the_first_row_shifts_and_refills_the_second_row():
    area = list(AREA)
    area[2], area[6] = "Orc Raider", "Ghoul"
    s = position(area=area, fortress=fortress_of(40, ["Wyvern"]), res=[2, 0, 0], players={0: {"hand": []}})
    s.apply(A("BUY", 2))
    assert s.players[0].discard[-1] == cid("Orc Raider")
    assert s.area[2] == cid("Ghoul") and s.area[6] == cid("Wyvern")
    assert len(s.fortress) == 39 and s.pool(0)[C.ROOT] == 0


def test_2_buy_from_the_second_row():
    area = list(AREA)
    area[5], area[1] = "Ghoul", "Orc Raider"
    s = position(area=area, fortress=fortress_of(40, ["Wyvern"]), res=[0, 2, 0], players={0: {"hand": []}})
    s.apply(A("BUY", 5))
    assert s.area[1] == cid("Orc Raider") and s.area[5] == cid("Wyvern") and len(s.fortress) == 39


def test_3_a_construction_enters_play_and_is_usable_at_once():
    area = ["War Drums"] + AREA[1:]
    s = position(area=area, res=[4, 0, 0], players={0: {"hand": ["Orc Raider"], "table": []}})
    s.apply(A("BUY", 0))
    s.apply(PASS)
    assert s.phase == EFFECTS
    assert s.players[0].table == [[cid("War Drums"), False]]
    assert cid("War Drums") not in s.players[0].discard
    assert A("USE_TABLE", 0) in legal(s) and s.pool(0)[C.ROOT] == 1


def test_4_a_fourth_construction_forces_a_discard_of_one_of_the_other_three():
    area = AREA[:3] + ["Crypt of Ages"] + AREA[4:]
    table = ["Root Cellar", "Watchtower", "Rampart"]
    s = position(area=area, res=[0, 2, 0], players={0: {"hand": [], "table": table}})
    s.apply(A("BUY", 3))
    assert s.phase == CHOOSE_OVERFLOW
    assert legal(s) == [A("SELECT_TABLE", k) for k in range(3)]
    s.apply(A("SELECT_TABLE", 1))
    assert s.rubble[-1] == cid("Watchtower")
    assert [c for c, _ in s.players[0].table] == [cid("Root Cellar"), cid("Rampart"), cid("Crypt of Ages")]
    assert s.phase == RECRUIT


def test_5_unspent_resources_are_lost():
    s = position(players={0: {"hand": ["Root", "Root", "Orc Raider"], "table": []}, 1: {"table": []}})
    assert s.pool(0) == [4, 0, 0]
    while not (s.active == 0 and s.round == 2):
        s.apply(PASS)  # nobody buys or uses anything: every phase and window is passed
    hand = [c for c, _ in s.players[0].hand]
    assert s.phase == RECRUIT
    assert s.pool(0) == [2 + hand.count(cid("Root")), hand.count(cid("Soul Crystal")), hand.count(cid("Sacrifice"))]


# 6-8: combat -------------------------------------------------------------------------------------------
def test_6_two_health_levels_need_two_markers():
    field = ["Elf Archer", "Knight", "Elf Archer", "Dwarf Axeman"]
    s = position(field=field, markers=[0, 0, 0, 0], phase="COMBAT", dmg=7)
    s.apply(A("ATTACK", 1))
    assert s.markers[1] == 1 and s.dmg == 3 and A("ATTACK", 1) not in legal(s)
    data = s.to_json()
    data.update(active=1, current_player=1, turns_done=1, dmg=4, phase=COMBAT)
    s = s.game.state_from_json(data, check_box=False)  # a builder position (made-up piles)
    defeated = s.defeated
    s.apply(A("ATTACK", 1))
    assert s.inv_discard[-1] == iid("Knight") and s.field[1] == -1 and s.defeated == defeated + 1


def test_7_damage_split_across_invaders_and_militia_heals_on_defeat():
    field = ["Militia", "Elf Archer", "Elf Scout", "Dwarf Axeman"]
    rubble = ["Ghoul", "Wyvern"]
    s = position(field=field, markers=[0, 0, 0, 0], phase="COMBAT", dmg=6, rubble=rubble)
    bottom = len(s.fortress)
    s.apply(A("ATTACK", 0))
    assert s.field[0] == -1 and s.fortress[0] == cid("Wyvern") and len(s.fortress) == bottom + 1
    assert s.rubble == [cid("Ghoul")]
    s.apply(A("ATTACK", 2))
    assert s.field[2] == -1 and s.dmg == 0
    assert s.inv_discard[-2:] == [iid("Militia"), iid("Elf Scout")]


def test_8_damage_does_not_carry_over_but_passive_damage_does_start_the_turn():
    s = position(n=1, phase="COMBAT", dmg=2, field=QUIET, players={0: {"table": ["Watchtower"]}})
    s.apply(PASS)  # solo: the Invasion and the next round follow
    assert s.round == 2 and s.active == 0 and s.phase == RECRUIT
    assert s.dmg == 1  # 0 plus Watchtower's PASSIVE DMG 1


# 9-16: invasion and decks ----------------------------------------------------------------------------
def _invasion_position(ward=0, fortress_top=("X", "Y"), **extra):
    area = list(AREA)
    area[1], area[5] = "Orc Raider", "Troll Brute"  # A and B
    top = ["Wyvern", "Young Red Dragon"]  # X then Y (Y under X, X on top)
    fields = dict(
        field=[-1, "Dwarf Axeman", -1, -1],
        markers=[0, 0, 0, 0],
        area=area,
        fortress=fortress_of(40, [top[1], top[0]]),
        inv_deck=["Elf Archer", "Knight", "Dwarf Axeman"],
        ward=ward,
    )
    fields.update(extra)
    return position(**to_last_turn_combat(fields))


def test_9_an_invasion_destroys_cards_equal_to_its_damage_from_its_column():
    s = _invasion_position()
    before = len(s.fortress)
    s.apply(PASS)
    assert s.rubble[-2:] == [cid("Orc Raider"), cid("Troll Brute")]
    assert s.area[1] == cid("Wyvern") and s.area[5] == cid("Young Red Dragon")
    assert len(s.fortress) == before - 2
    assert s.field == [iid("Dwarf Axeman"), iid("Dwarf Axeman"), iid("Knight"), iid("Elf Archer")]


def test_10_ward_absorbs_destruction_and_resets_after_the_invasion():
    s = _invasion_position(ward=1)
    before = len(s.fortress)
    s.apply(PASS)
    assert s.rubble[-1:] == [cid("Orc Raider")] and len(s.fortress) == before - 1
    assert s.area[1] == cid("Troll Brute")
    assert s.ward == 0


def test_11_the_fortress_deck_running_out_during_replenishment_loses_and_stops_the_invasion():
    s = position(**to_last_turn_combat(dict(field=["Militia", -1, "Dwarf Axeman", -1], fortress=["Ghoul"], rubble=[])))
    area_col2 = s.area[2]
    s.apply(PASS)
    assert s.is_terminal() and s.outcome().winners == () and s.rewards() == [-1.0, -1.0]
    assert s.returns() == [-1.0, -1.0] and s.current_player == -1
    assert len(s.rubble) == 1 and s.area[2] == area_col2  # the Axeman never attacked
    assert not s.legal_mask().any()


def test_12_buying_the_last_fortress_card_loses():
    s = position(fortress=["Ghoul"], res=[5, 5, 5], players={0: {"hand": []}})
    s.apply(legal(s)[0])
    assert s.is_terminal() and s.rewards() == [-1.0, -1.0] and s.outcome().reason == "the Fortress deck ran out"


def test_13_personal_deck_reshuffle():
    hand = ["Orc Raider", "Ghoul", "Wyvern"]
    s = position(phase="COMBAT", players={0: {"hand": hand, "deck": ["Root"], "discard": ["Ghoul"] * 5}}, field=QUIET)
    s.apply(PASS)
    p = s.players[0]
    assert len(p.hand) == 3 and len(p.deck) == 6 and len(p.discard) == 0
    assert cid("Root") in [c for c, _ in p.hand]


def test_14_reveal_with_an_empty_deck_reshuffles_first():
    s = position(phase="EFFECTS", res=[0, 1, 0], players={0: {"hand": ["Wraith"], "deck": [], "discard": ["Ghoul"]}})
    s.apply(A("USE_HAND", hand_slot(s, 0, "Wraith")))
    p = s.players[0]
    assert s.dmg == 2 and p.discard == [cid("Ghoul")] and p.deck == []
    assert p.hand == [[cid("Wraith"), True]] and s.pool(0)[C.CRYSTAL] == 0


def test_15_the_invasion_deck_reshuffles_defeated_invaders():
    others = [i for i in C.invader_list()]
    for name in ("Elf Archer", "Dwarf Axeman", "Elf Archer"):
        others.remove(iid(name))
    s = position(
        **to_last_turn_combat(
            dict(field=["Elf Archer", "Dwarf Axeman", "Elf Archer", -1], inv_deck=[], inv_discard=others, ward=10)
        )
    )
    s.apply(PASS)
    assert s.field[3] in others and len(s.inv_deck) == 20 and s.inv_discard == []


def test_16_entry_effects_resolve_one_at_a_time_left_to_right():
    s = position(
        **to_last_turn_combat(
            dict(field=[-1, "Militia", -1, "Militia"], ward=2, inv_deck=["Sapper", "Elf Scout"], rubble=[])
        )
    )
    milled = s.fortress[-1]
    slot2 = s.area[2]
    before = len(s.fortress)
    s.apply(PASS)
    assert s.field[0] == iid("Elf Scout") and s.field[2] == iid("Sapper")
    assert s.rubble == [milled, slot2]  # MILL first, then the Sapper's DESTROY of slot 2
    assert len(s.fortress) == before - 2 and s.area[2] >= 0


# 17-18: invader effects ------------------------------------------------------------------------------
def test_17_on_attacked_applies_before_the_next_attack():
    s = position(field=["Spellblade"] + QUIET[1:], markers=[0, 0, 0, 0], phase="COMBAT", dmg=7)
    s.apply(A("ATTACK", 0))
    assert s.markers[0] == 1 and s.dmg == 7 - 3 - 2 and A("ATTACK", 0) not in legal(s)


def test_18_on_defeat_resolves_before_removal_and_a_loss_beats_the_victory():
    s = position(
        field=["Silver Warden"] + QUIET[1:],
        markers=[1, 0, 0, 0],
        phase="COMBAT",
        dmg=4,
        defeated=12,
        fortress=["Ghoul", "Ghoul"],
    )
    s.apply(A("ATTACK", 0))
    assert s.is_terminal() and s.result == "fortress_empty" and s.rewards() == [-1.0, -1.0]
    assert s.defeated == 12


# 19-22: support windows and costs -------------------------------------------------------------------
def test_19_support_window_damage_goes_to_the_active_player():
    s = position(phase="EFFECTS", dmg=3, players={0: {"hand": []}, 1: {"hand": ["Goblin Cutthroat", "Root"]}})
    s.apply(PASS)
    assert s.dmg == 5 and s.current_player == 1 and s.phase == SUPPORT
    s.apply(A("USE_HAND", hand_slot(s, 1, "Goblin Cutthroat")))
    assert s.dmg == 7 and s.players[1].discard[-1] == cid("Goblin Cutthroat")
    s.apply(PASS)
    assert s.current_player == 0 and s.phase == COMBAT


def test_19b_no_window_without_a_legal_support_action_or_with_support_window_none():
    s = position(phase="EFFECTS", players={0: {"hand": []}, 1: {"hand": ["Root", "Ghoul"], "table": []}})
    s.apply(PASS)
    assert s.phase == COMBAT and s.current_player == 0
    s = position(phase="EFFECTS", support_window="none", players={0: {"hand": []}, 1: {"hand": ["Goblin Cutthroat"]}})
    s.apply(PASS)
    assert s.phase == COMBAT and s.current_player == 0


def test_20_resource_cost_effects_are_own_turn_only():
    s = position(
        phase="EFFECTS", players={0: {"hand": []}, 1: {"hand": ["Root", "Ghoul"], "table": ["War Drums", "Rampart"]}}
    )
    s.apply(PASS)
    assert s.phase == SUPPORT and s.current_player == 1
    assert A("USE_TABLE", 0) not in legal(s) and A("USE_TABLE", 1) in legal(s)
    s.apply(A("USE_TABLE", 1))
    assert s.phase == CHOOSE_DISCARD and s.current_player == 1
    s.apply(legal(s)[0])
    assert s.ward == 2 and s.phase == SUPPORT and len(s.players[1].hand) == 1


def test_21_a_spent_resource_card_cannot_be_discarded():
    area = ["Goblin Cutthroat"] + AREA[1:]
    s = position(area=area, res=[0, 0, 0], players={0: {"hand": ["Root", "Orc Raider"], "table": ["Rampart"]}})
    s.apply(A("BUY", 0))
    s.apply(A("USE_TABLE", 0))
    assert s.phase == CHOOSE_DISCARD
    assert legal(s) == [A("SELECT_HAND", hand_slot(s, 0, "Orc Raider"))]


def test_22_once_per_turn():
    s = position(
        n=1,
        phase="EFFECTS",
        res=[0, 3, 0],
        rubble=["Ghoul", "Ghoul"],
        field=QUIET,
        players={0: {"hand": [], "table": ["Crypt of Ages"]}},
    )
    s.apply(A("USE_TABLE", 0))
    assert s.pool(0)[C.CRYSTAL] == 2 and A("USE_TABLE", 0) not in legal(s)
    s.apply(PASS)
    s.apply(PASS)  # COMBAT: end of the turn, Invasion, next round
    s.apply(PASS)  # RECRUIT
    assert s.phase == EFFECTS and s.round == 2
    assert (A("USE_TABLE", 0) in legal(s)) == (s.pool(0)[C.CRYSTAL] >= 1)
    assert s.players[0].table[0][1] is False


def test_22b_once_per_turn_flags_of_every_player_reset_at_every_players_turn():
    """Docs 2.1 (the question settled in favour of the rulebook's "at any time, including on other
    players' turns"): a supporter's discard-cost Construction and General ability are usable once in
    each turn of the round: in player_0's window, again in its own turn, and again in player_2's
    window; they do not wait for their owner's next start of turn."""
    s = position(
        n=3,
        generals=["wargosh", "velkara", "kryssa"],
        phase="EFFECTS",
        field=QUIET,
        players={
            0: {"hand": [], "table": []},
            1: {"hand": ["Ghoul", "Ghoul", "Orc Raider", "Wyvern", "Ghoul"], "table": ["Rampart"]},
            2: {"hand": [], "table": []},
        },
    )
    s.apply(PASS)  # player_0 gathers; player_1's support window
    assert s.phase == SUPPORT and s.current_player == 1
    s.apply(A("USE_TABLE", 0))  # Rampart: discard 1, WARD 2
    s.apply(legal(s)[0])
    s.apply(A("USE_GENERAL"))  # Velkara: discard 1, DMG 3 for player_0
    s.apply(legal(s)[0])
    assert s.ward == 2 and s.players[1].table[0][1] is True and s.players[1].gen_used
    assert A("USE_TABLE", 0) not in legal(s) and A("USE_GENERAL") not in legal(s)  # once in this turn
    s.apply(PASS)  # player_2 has nothing to support with: no window
    assert s.phase == COMBAT and s.current_player == 0
    s.apply(PASS)  # player_0's turn ends; player_1's starts
    assert s.active == 1 and s.phase == RECRUIT and s.round == 1
    assert s.players[1].table[0][1] is False and not s.players[1].gen_used
    assert A("USE_TABLE", 0) in legal(s) and A("USE_GENERAL") in legal(s)
    s.apply(A("USE_TABLE", 0))  # used again, in its own turn
    s.apply(legal(s)[0])
    assert s.ward == 4 and A("USE_TABLE", 0) not in legal(s)
    for _ in range(3):
        s.apply(PASS)  # RECRUIT, EFFECTS (nobody can support), COMBAT: player_2's turn
    assert s.active == 2 and s.phase == RECRUIT and s.round == 1
    assert s.players[1].table[0][1] is False  # reset at player_2's start of turn, not at player_1's next
    s.apply(PASS)
    s.apply(PASS)  # player_2 gathers; player_0 cannot support, player_1 can
    assert s.phase == SUPPORT and s.current_player == 1
    assert A("USE_TABLE", 0) in legal(s) and A("USE_GENERAL") in legal(s)


# 23-24: Generals -------------------------------------------------------------------------------------
def test_23_kryssa_copies_a_construction_of_another_player_without_its_cost():
    s = position(
        generals=["kryssa", "mortivar"],
        phase="EFFECTS",
        res=[0, 2, 2],
        rubble=["Wyvern", "Ghoul"],
        players={0: {"hand": []}, 1: {"table": ["Masons' Guild"]}},
    )
    before = len(s.fortress)
    s.apply(A("COPY", 1, 0))
    s.apply(A("PAY", C.CRYSTAL))
    assert s.fortress[0] != cid("Wyvern")  # nothing resolves before the cost is paid
    s.apply(A("PAY", C.SACRIFICE))
    assert s.fortress[:2] == [cid("Wyvern"), cid("Ghoul")] and len(s.fortress) == before + 2
    assert s.pool(0) == [0, 1, 1] and s.players[1].table[0][1] is False
    assert not any(a for a in legal(s) if A("COPY", 0, 0) <= a < A("COPY", 0, 0) + 12)


def test_24_wargosh_ability_adds_one_per_greenskin():
    s = position(phase="EFFECTS", res=[2, 0, 0], players={0: {"hand": ["Orc Raider", "Goblin Cutthroat", "Root"]}})
    s.apply(A("USE_GENERAL"))
    s.apply(PASS)
    assert s.dmg == 2 + 2 + 1 + 1 * 3


# 25-29: victory, Plans, rounds, Threat --------------------------------------------------------------
def test_25_victory_by_randalls_target():
    s = position(field=["Knight"] + QUIET[1:], markers=[1, 0, 0, 0], phase="COMBAT", dmg=4, defeated=12)
    s.apply(A("ATTACK", 0))
    assert s.is_terminal() and s.outcome().winners == (0, 1) and s.rewards() == [1.0, 1.0]
    assert s.outcome().team_won


def test_26_plan_thwart_reveals_the_next_plan():
    s = position(
        adversary="thargrim",
        field=["Dwarf Axeman", "Elf Archer", "Shieldbearer", "Elf Archer"],
        markers=[0, 0, 0, 0],
        phase="COMBAT",
        dmg=3,
        plan=4,
        plan_deck=[5, 6],
        plan_progress=2,
        plan_countdown=2,
        rubble=["Ghoul", "Wyvern"],
    )
    fury_before = s.fortress_damage(0)
    before = len(s.fortress)
    s.apply(A("ATTACK", 2))
    assert s.plan == 5 and s.plan_progress == 0 and s.plan_countdown == 3 and s.thwarted == 1
    assert len(s.fortress) == before + 2  # REWARD HEAL 2
    assert s.fortress_damage(0) == fury_before - 1  # the Ram's FURY Dwarf 1 has ended


def test_26c_a_kill_that_thwarts_by_marker_also_counts_for_the_next_plan():
    """4.7 event order: MARK progress (thwart, next Plan) comes before the defeat's DEF progress."""
    s = position(
        adversary="thargrim",
        field=["Dwarf Axeman"] + QUIET[1:],
        markers=[0, 0, 0, 0],
        phase="COMBAT",
        dmg=4,
        plan=4,
        plan_deck=[5, 6],
        plan_progress=2,
    )
    s.apply(A("ATTACK", 0))
    assert s.thwarted == 1 and s.plan == 5 and s.plan_progress == 1


def test_26b_thwarting_the_last_plan_wins():
    s = position(
        adversary="sylvaen",
        field=["Elf Archer"] + QUIET[1:],
        markers=[0, 0, 0, 0],
        phase="COMBAT",
        dmg=4,
        plan=1,
        plan_deck=[],
        plan_progress=1,
        thwarted=2,
    )
    s.apply(A("ATTACK", 0))
    assert s.is_terminal() and s.result == "victory" and s.rewards() == [1.0, 1.0]


def test_27_restart_rotates_the_first_player():
    s = position(n=3, **dict(active=2, current_player=2, turns_done=2, phase="COMBAT", field=QUIET))
    s.apply(PASS)
    assert s.round == 2 and s.first == 1 and s.active == 1 and s.current_player == 1 and s.phase == RECRUIT


def test_28_round_limit_is_a_loss():
    s = position(**to_last_turn_combat(dict(round=20, field=QUIET)))
    s.apply(PASS)
    assert s.is_terminal() and s.result == "round_limit" and s.rewards() == [-1.0, -1.0]


def test_29_threat_change_raises_the_militias_damage_in_the_observation():
    area = ["Goblin Cutthroat"] + AREA[1:]
    s = position(
        area=area, fortress=fortress_of(30), field=["Militia"] + QUIET[1:], res=[1, 0, 0], players={0: {"hand": []}}
    )
    at = OBSERVATION_LAYOUT["battlefield"].offset + 18 + 3 + 4  # column 0, "current Fortress damage"
    assert s.threat() == 1 and s.observe(0)[at] == pytest.approx(1 / 8)
    s.apply(A("BUY", 0))
    assert len(s.fortress) == 29 and s.threat() == 2
    assert s.observe(0)[at] == pytest.approx(2 / 8) and s.observe(1)[at] == pytest.approx(2 / 8)


# rulebook facts and catalogue rules --------------------------------------------------------------------
def test_rulebook_generals_wargosh_and_kryssa():
    wargosh, kryssa = C.GENERALS[0], C.GENERALS[4]
    assert sorted(C.starting_deck(0)) == sorted([cid("Root")] * 2 + [cid("Soul Crystal"), cid("Sacrifice")])
    assert wargosh.reserve == (2, 0, 0) and wargosh.ability.do == (("DMG_RACE", C.GREENSKIN, 1),)
    assert sorted(C.starting_deck(4)) == sorted([cid("Sacrifice"), cid("Root"), cid("Soul Crystal"), cid("Slave")])
    assert kryssa.reserve == (0, 2, 2) and kryssa.ability.any == 2 and kryssa.ability.do == (("COPY",),)


def test_catalogue_counts_and_data_rules():
    assert len(C.fortress_card_list()) == 60 and len(C.invader_list()) == 24
    assert sum(i.copies for i in C.INVADERS if i.race == C.HUMAN) == 8
    assert sum(i.copies for i in C.INVADERS if i.race == C.ELF) == 8
    for card in C.CARDS:
        e = card.effect
        if e is not None and e.cost in ("discard_self", "discard_one"):
            assert all(p[0] in C.OFF_TURN_PRIMITIVES for p in e.do), card.name
        if card.id >= C.FIRST_FORTRESS_CARD:
            assert card.copies > 0 and card.kind != C.RESOURCE and 1 <= sum(card.cost) <= 5


def test_thargrim_setup_mills_three_and_places_the_sapper_first():
    s = position(adversary="thargrim")
    assert s.field[0] == iid("Sapper") and s.plan == 4 and s.plan_deck == [5, 6]
    assert len(s.fortress) <= 42 and len(s.rubble) >= 4


def test_sylvaen_setup_boxes_one_plan():
    s = position(adversary="sylvaen")
    assert len(s.box_plans) == 1 and len(s.plan_deck) == 2 and s.plan >= 0
    assert sorted(s.box_plans + s.plan_deck + [s.plan]) == [0, 1, 2, 3]


def test_random_generals_are_of_distinct_races_up_to_three_players_and_cover_all_races_at_four():
    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

    for n in (1, 2, 3, 4):
        game = HeroesAndMonstersGame(num_players=n)
        for seed in range(10):
            races = [C.GENERALS[p.general].race for p in game.new_state(seed).players]
            gens = [p.general for p in game.new_state(seed).players]
            assert len(set(gens)) == n
            assert len(set(races)) == min(n, 3)


def test_chance_script_controls_disrupt():
    s = position(
        **to_last_turn_combat(dict(field=[-1] + QUIET[1:], ward=10, inv_deck=["Enchantress"])),
        players={0: {"hand": ["Ghoul", "Orc Raider", "Wyvern"]}, 1: {"deck": ["Root"] * 4}},
    )
    # Next draws: player_1's end-of-turn draw shuffles nothing (deck large enough); DISRUPT picks 2 for player_0.
    s.chance.script([2])
    s.apply(PASS)
    assert s.field[0] == iid("Enchantress")
    assert s.players[0].discard[-1] == cid("Wyvern")
    assert np.array_equal(sorted(c for c, _ in s.players[0].hand), sorted([cid("Ghoul"), cid("Orc Raider")]))
