"""Last Bastion actions: the ActionLayout (82 flat ids in named blocks, the same for 1-4 players) and
every action id the package uses; no other module builds an id from a name.

Tiles, spaces and seats are in the acting player's frame: ``tile`` a relative tile 0-8, ``space`` a
relative space 0-11 (0-2 are the actor's own board), ``offset`` a seat offset clockwise from the actor.
Colours are absolute (red, green, blue, yellow, black). A block's ``*_ID`` is its first id: the id of
relative tile ``t`` is ``MOVE_ID + t``, and so on.
"""

from envs.core.actions import ActionLayout

LAYOUT = ActionLayout(
    [
        ("MOVE_TO", {"tile": 9}, "move to that tile (one step, diagonals allowed)"),
        ("ACTIVATE", {}, "act: resolve the action of the tile the hero stands on"),
        ("FIGHT", {"space": 12}, "act: fight the card on that space"),
        ("FIGHT_BOTH", {}, "act: fight both cards facing the hero's corner tile"),
        ("CALL_TO_ARMS", {"tile": 9}, "spend 1 Call to Arms: resolve that tile's action"),
        ("ENCHANT", {"space": 12}, "Mylfaar: put the Enchantment on the card on that space"),
        ("END_TURN", {}, "end the Hero phase"),
        ("SELECT_SPACE", {"space": 12}, "choose a space (placement, tile targets)"),
        ("SELECT_TILE", {"tile": 9}, "choose a tile (Grasp removal)"),
        ("SELECT_PLAYER", {"offset": 4}, "choose the hero at that seat offset"),
        ("SELECT_COLOR", {"color": 5}, "choose a colour: red, green, blue, yellow, black"),
        ("RESOLVE", {"outcome": 4}, "combat outcome: none, first, second, both"),
        ("RESOLVE_EFFECT", {"k": 3}, "resolve pending effect k next"),
    ]
)
NUM_ACTIONS = LAYOUT.num_actions

# single actions
ACTIVATE = LAYOUT.encode("ACTIVATE")
FIGHT_BOTH = LAYOUT.encode("FIGHT_BOTH")
END_TURN = LAYOUT.encode("END_TURN")
# the first id of each block with an argument
MOVE_ID = LAYOUT.start("MOVE_TO")
FIGHT_ID = LAYOUT.start("FIGHT")
CTA_ID = LAYOUT.start("CALL_TO_ARMS")
ENCHANT_ID = LAYOUT.start("ENCHANT")
SPACE_ID = LAYOUT.start("SELECT_SPACE")
TILE_ID = LAYOUT.start("SELECT_TILE")
PLAYER_ID = LAYOUT.start("SELECT_PLAYER")
COLOR_ID = LAYOUT.start("SELECT_COLOR")
RESOLVE_ID = LAYOUT.start("RESOLVE")
EFFECT_ID = LAYOUT.start("RESOLVE_EFFECT")

#: RESOLVE's argument: which of the (one or two) combat targets are vanquished
OUTCOMES = ("none", "first", "second", "both")
OUTCOME_TARGETS = {0: (), 1: (0,), 2: (1,), 3: (0, 1)}

assert NUM_ACTIONS == 82, NUM_ACTIONS
