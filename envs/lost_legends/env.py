"""Lost Legends as a PettingZoo AEC environment. The tables below are generated from the code."""

from envs.core.aec import DRIVER_OPTIONS, infos_markdown, make_env_factories
from envs.core.observation import fields_table
from envs.core.options import options_markdown_table
from envs.lost_legends.actions import LAYOUT
from envs.lost_legends.common import DECISIONS
from envs.lost_legends.game import OPTION_SPEC, LostLegendsGame
from envs.lost_legends.observation import OBSERVATION_LAYOUT, SEAT_FIELDS

GAME = LostLegendsGame
env, raw_env = make_env_factories(LostLegendsGame)


__doc__ = f"""
# Lost Legends (`lost_legends_v0`)

| | |
|---|---|
| Import | `from envs import lost_legends_v0` or `envs.make("lost_legends_v0", num_players=n)` |
| Actions | Discrete({LAYOUT.num_actions}), with an action mask |
| Parallel API | No (turn-based AEC) |
| Agents | `player_0` .. `player_{{n-1}}`, n = 3..5 |
| Observation | Dict(observation=Box(0, 1, ({OBSERVATION_LAYOUT.size},), float32), \
action_mask=Box(0, 1, ({LAYOUT.num_actions},), int8)) |

A competitive hero game over three levels (Ruins, Caves, Demon Fortress). Each level starts with a
secret 5-round card draft (every card is placed as a skill for gold, or bought as equipment), then a
combat phase in which the heroes take, pass and fight monsters for experience, gold, trophies,
challenge trophies and trophy tokens. The highest final score wins; tied top scores share the
victory. The rules as implemented, with every designed choice marked, are in docs/lost_legends.md.

## Observation Space

Seat-relative (seat 0 is the observer, then the others clockwise), the same length for every
player count; absent seats are zeros. Only what the observer may know is encoded: no other
player's hand or face-down pick, no pile order. `observation_mode="dict"` gives the same data as
the named arrays of the first column.

{OBSERVATION_LAYOUT.markdown_table()}

Seat row ({sum(f[1] for f in SEAT_FIELDS)}):

{fields_table(SEAT_FIELDS)}

## Legal Actions Mask

`observation["action_mask"]` (and `env.action_mask(agent)`) is 1 for every legal action of the
selected agent and all zeros for the others. Every masked-in action completes: a `CONVERT` is
offered only when the purchase stays affordable, `PASS` only when someone can receive the monster.
The decision kinds are {", ".join(f"`{d}`" for d in DECISIONS)}.

## Action Space

`slot` is an equipment slot of the acting hero (0-2 weapons melee/range/magic, 3 breastplate,
4 shield, 5 helmet, 6-8 spells, 9-11 artifacts); `k` a hand position (hand sorted by card id).
`env.describe_action(a)` gives the meaning of an id in the current state.

{LAYOUT.markdown_table()}

## Rewards

Zero until the end, then by `reward_scheme`: `win_loss` (+1 each winner, tied top scores all
win, -1 the others), `rank` ((n-1-2(rank-1))/(n-1), ties averaged), `score_margin`
(clip((mine - best other) / 20, -1, 1)) or `shaped` (every step the change of
(own provisional score - mean of the others') / `shaped_scale`, plus `shaped_terminal_weight` x
win_loss at the end).

## Infos

{infos_markdown(GAME)}

## Options

{options_markdown_table(OPTION_SPEC + DRIVER_OPTIONS)}

## Version History

* v0: initial release.
"""
