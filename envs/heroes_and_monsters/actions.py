"""The Heroes and Monsters action layout: 59 flat ids in named blocks, the same for 1-4 players.

``slot`` of BUY is an Area slot (4 * row + column, row 0 the first row); hand slots index the
hand sorted by (card id, used flag); ``seat`` of COPY is relative to the actor (0 = self).
"""

from envs.core.actions import ActionLayout
from envs.heroes_and_monsters.content import HAND_CAP, MAX_PLAYERS, NUM_COLUMNS, NUM_SLOTS, TABLE_CAP

LAYOUT = ActionLayout(
    [
        ("BUY", {"slot": NUM_SLOTS}, "buy the Area card in that slot (RECRUIT)"),
        ("USE_HAND", {"slot": HAND_CAP}, "activate the effect of the Unit in that hand slot"),
        ("USE_TABLE", {"slot": TABLE_CAP}, "activate the effect of your own Construction"),
        ("USE_GENERAL", {}, "activate your General's ability (not COPY)"),
        ("COPY", {"seat": MAX_PLAYERS, "slot": TABLE_CAP}, "COPY the Construction of the player at that relative seat"),
        ("ATTACK", {"column": NUM_COLUMNS}, "place the next marker on the Invader of that column (COMBAT)"),
        ("SELECT_HAND", {"slot": HAND_CAP}, "choose a hand card to discard as a cost or to trash"),
        ("SELECT_TABLE", {"slot": TABLE_CAP}, "choose the Construction to discard when a 4th arrives"),
        ("PAY", {"resource": 3}, "pay one unit of a pending 'any' cost with Root, Soul Crystal or Sacrifice"),
        ("PASS", {}, "end the phase / leave the support window / stop trashing"),
    ]
)

NUM_ACTIONS = LAYOUT.num_actions
assert NUM_ACTIONS == 59, NUM_ACTIONS
