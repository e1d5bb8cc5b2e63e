"""The Lost Legends action layout: 74 flat ids in named blocks, the same for 3-5 players.

``slot`` is an equipment slot of the acting hero (0 melee weapon, 1 range weapon, 2 magic weapon,
3 breastplate, 4 shield, 5 helmet, 6-8 spells, 9-11 artifacts); ``k`` is a hand position (the
hand is sorted by card id); ``w`` a weapon type (0 melee, 1 range, 2 magic); ``skill`` 0-3 for
ME, RA, MA, AR.
"""

from envs.core.actions import ActionLayout
from envs.lost_legends.content import HAND_SIZE, NUM_SLOTS

LAYOUT = ActionLayout(
    [
        ("PICK", {"k": HAND_SIZE}, "draft: pick the k-th card of your hand (face down)"),
        ("PLACE_SKILL", {}, "place the revealed pick under your skills (+1/+2/+3 gold by level)"),
        ("BUY", {}, "pay the current cost and equip the revealed pick"),
        ("CONVERT", {"slot": NUM_SLOTS}, "turn your equipment in that slot into a skill (then you must buy)"),
        ("ATTACK", {}, "fight the monster in front of you"),
        ("PASS", {}, "pass the monster in front of you / just drawn"),
        ("TAKE_FACEUP", {}, "take the face-up monster"),
        ("DRAW", {}, "draw the top monster of the pile (its charge hits you)"),
        ("WEAPON", {"w": 3}, "attack with your melee / range / magic weapon"),
        ("UNARMED", {}, "attack with no weapon (1 melee); only when you own none"),
        ("USE", {"slot": NUM_SLOTS}, "use that card (boost, defence, heal, restore) or pay its REFRESH"),
        ("MANA", {"slot": NUM_SLOTS}, "activate that card's FOR line once (pay its mana)"),
        ("STRIKE", {}, "finish the attack and deal the damage"),
        ("ACCEPT_DAMAGE", {}, "take the remaining damage"),
        ("ACCEPT_DEFEAT", {}, "stop healing at 0 life: you are defeated"),
        ("REWARD_GOLD", {}, "level-up reward: 2 gold"),
        ("REWARD_LIFE", {}, "level-up reward: +1 maximum (and current) life"),
        ("REWARD_MANA", {}, "level-up reward: +1 maximum (and current) mana"),
        ("LOSE", {"skill": 4}, "defeated: discard one added skill card of that type (ME, RA, MA, AR)"),
        ("EXHAUST", {"slot": NUM_SLOTS}, "charge: exhaust that card without effect"),
    ]
)

NUM_ACTIONS = LAYOUT.num_actions
PICK = LAYOUT.start("PICK")
PLACE_SKILL = LAYOUT.encode("PLACE_SKILL")
BUY = LAYOUT.encode("BUY")
CONVERT = LAYOUT.start("CONVERT")
ATTACK = LAYOUT.encode("ATTACK")
PASS = LAYOUT.encode("PASS")
TAKE_FACEUP = LAYOUT.encode("TAKE_FACEUP")
DRAW = LAYOUT.encode("DRAW")
WEAPON = LAYOUT.start("WEAPON")
UNARMED = LAYOUT.encode("UNARMED")
USE = LAYOUT.start("USE")
MANA = LAYOUT.start("MANA")
STRIKE = LAYOUT.encode("STRIKE")
ACCEPT_DAMAGE = LAYOUT.encode("ACCEPT_DAMAGE")
ACCEPT_DEFEAT = LAYOUT.encode("ACCEPT_DEFEAT")
REWARD_GOLD = LAYOUT.encode("REWARD_GOLD")
REWARD_LIFE = LAYOUT.encode("REWARD_LIFE")
REWARD_MANA = LAYOUT.encode("REWARD_MANA")
LOSE = LAYOUT.start("LOSE")
EXHAUST = LAYOUT.start("EXHAUST")

assert NUM_ACTIONS == 74, NUM_ACTIONS
