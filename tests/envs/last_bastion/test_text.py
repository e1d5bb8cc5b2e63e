"""Text for people: action names that name their cards and effects, and what render() shows."""

from __future__ import annotations

import numpy as np

from envs import last_bastion_v0
from envs.last_bastion.actions import LAYOUT

from .builders import FIGHT_BOTH, RESOLVE, Position, dice


def test_render_and_describe():
    env = last_bastion_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "Last Bastion" in text and "player_0" in text
    legal = np.flatnonzero(env.action_mask()).tolist()
    assert all(env.describe_action(a) for a in legal)


def test_combat_outcomes_name_their_cards():
    s = Position().hero(0, tile=6, equip={"red": 1}).put(2, "M06").put(3, "M21").main(0)
    s.chance.script(dice("red", "white", "yellow"))
    s.apply(FIGHT_BOTH)
    assert s.describe_action(RESOLVE("both")) == "Vanquish Incubus (space 2) and Hollow Summoner (space 3)"
    assert s.describe_action(RESOLVE("first")) == "Vanquish Incubus (space 2)"
    text = s.render()
    assert "dice: red white yellow" in text and "token pool red 1" in text


def test_effect_order_names_the_cards_and_effects():
    pos = Position().put(0, "M01").put(1, "M24").hero(0, equip={"red": 1}).deck("M05", "M11")
    s = pos.turn_start(0)
    assert s.decision["kind"] == "EFFECT_ORDER"
    assert (
        s.describe_action(LAYOUT.encode("RESOLVE_EFFECT", 0)) == "First the effect of Hellhound (space 0): LOSE_LIFE(1)"
    )
    assert (
        s.describe_action(LAYOUT.encode("RESOLVE_EFFECT", 1))
        == "First the effect of Frost Wraith (space 1): DISCARD_EQUIP(1)"
    )


def test_render_shows_elements_grasps_and_the_effect_to_suffer():
    pos = Position(heroes=("Thorgrim", "Ysolde", "Aldric"), seats=[3, 1, 2]).put(1, "M07").grasp(2)
    pos.hero(1, equip={"green": 1}).hero(2, equip={"blue": 1}).deck("M05", "M14")
    s = pos.element("trap", "deployed", 5).main(0)
    s.apply(LAYOUT.encode("END_TURN"))
    assert s.decision["kind"] == "CHOOSE_VICTIM"
    text = s.render()
    assert "grasped: t2 Trebuchet" in text and "s5: (Trap)" in text
    assert "elements: standard home, trap deployed on s5, net home, enchantment out" in text
    assert "effect to suffer: DISCARD_EQUIP(1)" in text
    assert "s1: Butcher red res 2/2" in text and "equipment green 1" in text
