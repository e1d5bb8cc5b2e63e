"""The Last Heroes action layout: 132 flat ids in named blocks, the same for 2-5 players.

``seat`` is relative to the actor (0 = self), ``slot`` is a Magazine slot (0 left, 1 right),
``column`` is absolute, ``level`` is 0-2 for Levels 1-3, ``kind`` is a weapon kind 0-14.
"""

from envs.core.actions import ActionLayout
from envs.last_heroes.content import MAX_PLAYERS, NUM_KINDS, NUM_LEVELS

LAYOUT = ActionLayout(
    [
        ("PLAY_AMMO", {"kind": NUM_KINDS, "slot": 2}, "Share Ammo: a hand card into your own Magazine slot"),
        ("LOAD", {"kind": NUM_KINDS}, "start loading a hand card as a weapon"),
        ("SOURCE", {"seat": MAX_PLAYERS, "slot": 2}, "take 1 Ammo from that Magazine card for the pending load"),
        ("SOURCE_JOKER", {}, "use 1 of your Jokers for the pending load"),
        ("ATTACK", {"column": MAX_PLAYERS, "level": NUM_LEVELS}, "attack that monster (weapons assigned optimally)"),
        ("ATTACK_IMPACT", {"column": MAX_PLAYERS, "level": NUM_LEVELS}, "attack it using the IMPACT power"),
        ("L1_SWAP", {"seat": MAX_PLAYERS, "slot": 2}, "Level 1 effect: choose the Magazine card to replace"),
        ("L1_SKIP", {}, "decline the Level 1 effect"),
        ("SELECT_HAND", {"kind": NUM_KINDS}, "choose a hand card: setup pick, EXCHANGE give, Level 1 give"),
        ("EXCHANGE_TAKE", {"kind": NUM_KINDS}, "EXCHANGE power: take a card of that kind from the discard pile"),
        ("POWER_JOKER", {}, "JOKER power: gain 1 Joker"),
        ("POWER_RELOAD", {"slot": 2}, "RELOAD power: refill your own Magazine slot"),
        ("END_TURN", {}, "end the turn"),
        ("END_TURN_IMMUNITY", {}, "end the turn using IMMUNITY (no empty-Magazine penalty)"),
    ]
)

PLAY_AMMO = LAYOUT.start("PLAY_AMMO")
LOAD = LAYOUT.start("LOAD")
SOURCE = LAYOUT.start("SOURCE")
SOURCE_JOKER = LAYOUT.start("SOURCE_JOKER")
ATTACK = LAYOUT.start("ATTACK")
ATTACK_IMPACT = LAYOUT.start("ATTACK_IMPACT")
L1_SWAP = LAYOUT.start("L1_SWAP")
L1_SKIP = LAYOUT.start("L1_SKIP")
SELECT_HAND = LAYOUT.start("SELECT_HAND")
EXCHANGE_TAKE = LAYOUT.start("EXCHANGE_TAKE")
POWER_JOKER = LAYOUT.start("POWER_JOKER")
POWER_RELOAD = LAYOUT.start("POWER_RELOAD")
END_TURN = LAYOUT.start("END_TURN")
END_TURN_IMMUNITY = LAYOUT.start("END_TURN_IMMUNITY")
NUM_ACTIONS = LAYOUT.num_actions

assert NUM_ACTIONS == 132, NUM_ACTIONS
