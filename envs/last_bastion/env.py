"""Last Bastion as a PettingZoo AEC environment: the env factories (``env``, ``raw_env``) and the env's
documentation. The tables below are generated from the code."""

from envs.core.aec import DRIVER_OPTIONS, infos_markdown, make_env_factories
from envs.core.observation import fields_table
from envs.core.options import options_markdown_table
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.game import OPTION_SPEC, LastBastionGame
from envs.last_bastion.observation import (
    BOARD_FIELDS,
    HERO_FIELDS,
    OBSERVATION_LAYOUT,
    SPACE_FIELDS,
    TILE_FIELDS,
)

GAME = LastBastionGame
env, raw_env = make_env_factories(LastBastionGame)


_OBS_SPACE = (
    f"Dict(observation=Box(0, 1, ({OBSERVATION_LAYOUT.size},), float32), "
    f"action_mask=Box(0, 1, ({LAYOUT.num_actions},), int8))"
)

__doc__ = f"""
# Last Bastion (`last_bastion_v0`)

| | |
|---|---|
| Import | `from envs import last_bastion_v0` or `envs.make("last_bastion_v0", num_players=n)` |
| Actions | Discrete({LAYOUT.num_actions}), with an action mask |
| Parallel API | No (turn-based AEC) |
| Agents | `player_0` .. `player_{{n-1}}`, n = 1..4 (one hero each) |
| Observation | {_OBS_SPACE} |

A cooperative game: 1-4 heroes defend a 3x3 Bastion against Horde cards that arrive on four Horde
boards around it. Each board-turn runs a Horde phase (recurring effects, then the board power: a
full board's effect or a new card) and, on a board linked to a hero in play, a Hero phase (move,
act: activate a tile or fight, Calls to Arms). The team wins by vanquishing every Warlord; it loses
when no hero is in play, when a third tile is grasped, or when a card must be drawn from an empty
deck. The rules as implemented, with every designed choice marked, are in docs/last_bastion.md.

## Observation Space

Seat-relative: the observer's Horde board is at the bottom (relative spaces 0-2), tiles are
rotated to match, seats are clockwise offsets (0 = observer); colours are absolute. The length is
the same for every player count (absent seats are zero rows). `observation_mode="dict"` gives the
same data as the named arrays of the first column.

{OBSERVATION_LAYOUT.markdown_table()}

Space row (also the first part of `pending_card`):

{fields_table(SPACE_FIELDS)}

Tile row:

{fields_table(TILE_FIELDS)}

Hero row:

{fields_table(HERO_FIELDS)}

Board row:

{fields_table(BOARD_FIELDS)}

## Legal Actions Mask

`observation["action_mask"]` is 1 for every legal action of the selected agent (the controller of
the pending decision) and all zeros for the others. Every masked-in action completes: a tile action
is offered only when its targets exist, a combat outcome only when the dice and the token pool
achieve it (free kills cannot be declined).

## Action Space

Tiles, spaces and seat offsets are in the actor's frame. `env.describe_action(a)` names the
absolute tile, space and card.

{LAYOUT.markdown_table()}

## Rewards

Team rewards, identical for every agent. `win_loss` (default): +1 on victory, -1 on defeat, 0 on
truncation, nothing before the end. `score_sheet`: victory 1 + S/20 where S is the score sheet
(victory points by level + 1 per Life + 2 per Call to Arms held - 3 per dead hero - 4 per grasped
tile), defeat -1. `shaped`: `win_loss` plus +0.02 per Monster and +0.2 per Warlord vanquished,
-0.03 per Life lost, -0.1 per tile grasped, +0.05 per Grasp removed, paid when they happen.

## Infos

{infos_markdown(GAME)}

## Options

{options_markdown_table(OPTION_SPEC + DRIVER_OPTIONS)}

## Version History

* v0: initial release.
"""
