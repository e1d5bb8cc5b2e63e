"""One scenario per effect primitive and trigger that section 8 does not cover (docs section 3.1)."""

from __future__ import annotations

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.turn import CHOOSE_DISCARD, CHOOSE_TRASH, EFFECTS, PAY_ANY, SUPPORT
from tests.envs.heroes_and_monsters.builders import PASS, A, cid, hand_slot, iid, legal, position
from tests.envs.heroes_and_monsters.test_scenarios import QUIET, to_last_turn_combat


def test_trash_moves_a_chosen_card_to_the_exile():
    s = position(phase="EFFECTS", res=[0, 1, 0], players={0: {"hand": ["Root", "Ghoul"], "table": ["Ossuary"]}})
    s.apply(A("USE_TABLE", 0))
    assert s.phase == CHOOSE_TRASH and PASS in legal(s)
    s.apply(A("SELECT_HAND", hand_slot(s, 0, "Root")))
    assert s.exile == [cid("Root")] and s.phase == EFFECTS and s.players[0].hand == [[cid("Ghoul"), False]]


def test_recall_returns_the_strongest_unit_and_a_used_card_stays_used():
    s = position(
        phase="EFFECTS",
        res=[0, 1, 0],
        players={0: {"hand": ["Death Knight", "Necromancer"], "discard": ["Ghoul", "Orc Raider"]}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Death Knight")))  # discard self: DMG 5
    assert s.dmg == 5 and s.players[0].discard[-1] == cid("Death Knight")
    s.apply(A("USE_HAND", hand_slot(s, 0, "Necromancer")))  # C1: RECALL -> the Death Knight (4)
    hand = s.players[0].hand
    assert [cid("Death Knight"), True] in hand
    assert A("USE_HAND", hand_slot(s, 0, "Death Knight")) not in legal(s)
    s.apply(PASS)  # gathering: Wargosh 2 + Death Knight 4 + Necromancer 1
    assert s.dmg == 5 + 2 + 4 + 1


def test_knight_on_damage_regenerates_the_other_invaders():
    s = position(
        **to_last_turn_combat(
            dict(field=["Knight", "Shieldbearer", "Elf Archer", "Dwarf Axeman"], markers=[1, 2, 0, 0])
        )
    )
    s.apply(PASS)
    assert s.markers[0] == 1 and s.markers[1] == 1


def test_standard_bearer_aura_and_threat_fury():
    s = position(field=["Standard-Bearer", "Militia", "Knight", "Elf Archer"])
    assert s.threat() == 1
    assert s.fortress_damages() == [1, 2, 3, 2]
    s = position(field=["Standard-Bearer", "Militia", "Knight", "Elf Archer"], fortress=["Ghoul"] * 10)
    assert s.threat() == 3  # Randall: FURY Any 1 and FURY Human 1
    assert s.fortress_damages() == [1 + 2, 2 + 2, 3 + 2, 2 + 1]


def test_passive_gain_at_the_start_of_the_owners_turn():
    s = position(n=1, phase="COMBAT", field=QUIET, players={0: {"table": ["Root Cellar", "Soul Well"]}})
    s.apply(PASS)
    hand = [c for c, _ in s.players[0].hand]
    assert s.pool(0) == [
        2 + 1 + hand.count(cid("Root")),
        1 + hand.count(cid("Soul Crystal")),
        hand.count(cid("Sacrifice")),
    ]


def test_copy_of_a_discard_cost_construction_needs_no_discard():
    s = position(
        generals=["kryssa", "mortivar"],
        phase="EFFECTS",
        res=[0, 2, 2],
        players={0: {"hand": ["Ghoul"], "table": ["Rampart"]}},
    )
    s.apply(A("COPY", 0, 0))
    s.apply(A("PAY", C.CRYSTAL))
    s.apply(A("PAY", C.CRYSTAL))
    assert s.ward == 2 and s.players[0].hand == [[cid("Ghoul"), False]] and s.players[0].table[0][1] is False
    assert A("USE_TABLE", 0) in legal(s)  # the copied Construction is still unused


def test_drain_never_makes_damage_negative():
    s = position(field=["Crossbowman"] + QUIET[1:], markers=[0, 0, 0, 0], phase="COMBAT", dmg=3)
    s.apply(A("ATTACK", 0))
    assert s.dmg == 0 and s.markers[0] == 1


def test_velkara_supports_with_her_discard_ability():
    s = position(
        generals=["wargosh", "velkara"],
        phase="EFFECTS",
        dmg=0,
        players={0: {"hand": []}, 1: {"hand": ["Root"], "table": []}},
    )
    s.apply(PASS)
    assert s.phase == SUPPORT and s.current_player == 1
    s.apply(A("USE_GENERAL"))
    assert s.phase == CHOOSE_DISCARD and legal(s) == [A("SELECT_HAND", 0)]
    s.apply(A("SELECT_HAND", 0))
    assert s.dmg == 2 + 3 and s.players[1].hand == [] and s.players[1].discard[-1] == cid("Root")


def test_war_council_any_cost_then_draw():
    s = position(
        phase="EFFECTS",
        res=[1, 0, 1],
        players={0: {"hand": [], "table": ["War Council"], "deck": ["Ghoul", "Wyvern", "Root"]}},
    )
    s.apply(A("USE_TABLE", 0))
    assert s.phase == PAY_ANY and legal(s) == [A("PAY", C.ROOT), A("PAY", C.SACRIFICE)]
    s.apply(A("PAY", C.ROOT))
    assert legal(s) == [A("PAY", C.SACRIFICE)]
    s.apply(A("PAY", C.SACRIFICE))
    assert sorted(c for c, _ in s.players[0].hand) == sorted([cid("Root"), cid("Wyvern")])


def test_paladin_entry_regenerates_the_others():
    s = position(
        **to_last_turn_combat(
            dict(
                field=[-1, "Shieldbearer", "Elf Archer", "Dwarf Axeman"],
                markers=[0, 2, 0, 0],
                inv_deck=["Paladin"],
                ward=10,
            )
        )
    )
    s.apply(PASS)
    assert s.field[0] == iid("Paladin") and s.markers[1] == 1


def test_sylvaen_threat_three_regenerates_every_invader_at_the_invasion():
    s = position(
        adversary="sylvaen",
        plan=1,
        **to_last_turn_combat(dict(field=QUIET, markers=[0, 0, 0, 0], fortress=["Ghoul"] * 12, ward=10)),
    )
    data = s.to_json()
    data["field"] = [iid("Shieldbearer"), iid("Elf Archer"), iid("Shieldbearer"), iid("Dwarf Axeman")]
    data["markers"] = [2, 0, 1, 0]
    s = s.game.state_from_json(data, check_box=False)  # a builder position (made-up piles)
    s.apply(PASS)
    assert s.markers[0] == 1 and s.markers[2] == 0
