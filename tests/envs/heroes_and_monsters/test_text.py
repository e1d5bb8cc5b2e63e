"""describe_action speaks as a player would: card names, prices and what an effect does in words,
never the layout's block names or the primitives' notation; text.py does not import the docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np

from envs.heroes_and_monsters import text
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import PRIMITIVES
from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from tests.envs.heroes_and_monsters.builders import A, hand_slot, position

RAW = re.compile(r"\b(" + "|".join([b.name for b in LAYOUT.blocks] + list(PRIMITIVES)) + r")\b")


def test_recruit_and_use_are_said_in_words():
    area = ["Wyvern", "Ghoul", "Orc Raider", "Rampart", "Ghoul", "Ghoul", "Ghoul", "Ghoul"]
    s = position(area=area, players={0: {"hand": ["Goblin Cutthroat", "Root", "Root"]}}, res=[0, 0, 3])
    assert s.describe_action(A("BUY", 0)) == "Recruit Wyvern for 3 Sacrifice (Area row 1, column 0)"
    assert s.describe_action(A("BUY", 3)) == "Recruit Rampart for 2 Root, 1 Sacrifice (Area row 1, column 3)"
    h = hand_slot(s, 0, "Goblin Cutthroat")
    assert s.describe_action(A("USE_HAND", h)) == "Use Goblin Cutthroat from your hand (discard it): +2 damage"


def test_no_description_uses_block_names_or_primitive_notation():
    for n, adversary in ((1, "randall"), (2, "sylvaen"), (3, "thargrim"), (4, "randall")):
        game = HeroesAndMonstersGame(num_players=n, adversary=adversary)
        for seed in range(2):
            s = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_over():
                for a in s.legal_actions():
                    words = s.describe_action(a)
                    assert words and not RAW.search(words), words
                s.apply(int(rng.choice(s.legal_actions())))


def test_text_does_not_import_the_docs_generator():
    tree = ast.parse(Path(text.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "envs.heroes_and_monsters.docs" not in imported
    assert not any(m and m.endswith(".docs") for m in imported)


# -- render readability ----------------------------------------------------------------------------
def test_render_shows_area_costs_and_each_invaders_state():
    area = ["Wyvern", "Ghoul", "Orc Raider", "Rampart", "Ghoul", "Ghoul", "Ghoul", "Ghoul"]
    s = position(area=area, field=["Knight", -1, "Elf Archer", "Dwarf Axeman"], markers=[1, 0, 0, 0])
    text = s.render(0)
    assert "Wyvern 0/0/3" in text and "Rampart 2/0/1" in text
    assert "Knight (Human) health [4, 4], markers 1, next level 4, Fortress dmg 2" in text


def test_describe_attack_says_which_level_and_whether_it_defeats():
    s = position(field=["Knight", -1, "Elf Archer", "Dwarf Axeman"], markers=[1, 0, 0, 0], phase="COMBAT", dmg=8)
    assert s.describe_action(A("ATTACK", 0)) == "Attack Knight in column 0: pay level 2 of 2 (4 damage), defeats it"
    assert s.describe_action(A("ATTACK", 2)) == "Attack Elf Archer in column 2: pay level 1 of 1 (4 damage), defeats it"
