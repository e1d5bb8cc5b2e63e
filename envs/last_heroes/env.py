"""Last Heroes as a PettingZoo AEC environment. The tables below are generated from the code."""

from envs.core.aec import DRIVER_OPTIONS, infos_markdown, make_env_factories
from envs.core.observation import fields_table
from envs.core.options import options_markdown_table
from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.game import OPTION_SPEC, LastHeroesGame
from envs.last_heroes.observation import OBSERVATION_LAYOUT, SEAT_FIELDS, SLOT_FIELDS

GAME = LastHeroesGame
env, raw_env = make_env_factories(LastHeroesGame)


__doc__ = f"""
# Last Heroes (`last_heroes_v0`)

| | |
|---|---|
| Import | `from envs import last_heroes_v0` or `envs.make("last_heroes_v0", num_players=n)` |
| Actions | Discrete(132), with an action mask |
| Parallel API | No (turn-based AEC) |
| Agents | `player_0` .. `player_{{n-1}}`, n = 2..5 |
| Observation | Dict(observation=Box(-1, 1, (1036,), float32), action_mask=Box(0, 1, (132,), int8)) |

A competitive card game: share Ammo into your Magazine or load weapons with Ammo from every
Magazine (suppliers score), kill monsters, open breaches, and win artefacts. The rules as
implemented, with every designed choice marked, are in docs/last_heroes.md.

## Observation Space

Seat-relative (seat 0 is the observer, then the others clockwise), the same length for every
player count; absent seats and columns are zeros. `observation_mode="dict"` gives the same data
as the named arrays of the first column.

{OBSERVATION_LAYOUT.markdown_table()}

Seat row (98):

{fields_table(SEAT_FIELDS)}

Each column is 8 entries (in play, artefact on its pedestal, its power one-hot) followed by one
21-entry slot per level:

{fields_table(SLOT_FIELDS)}

## Legal Actions Mask

`observation["action_mask"]` (and `env.action_mask(agent)`) is 1 for every legal action of the
selected agent and all zeros for the others. Every masked-in action completes: a `LOAD` is offered
only when enough Ammo and Jokers exist to finish it.

## Action Space

`seat` is relative to the actor, `column` absolute, `level` 0-2 for Levels 1-3, `kind` =
3 * type + (power - 1). `env.describe_action(a)` gives the meaning of an id in the current state.

{LAYOUT.markdown_table()}

## Rewards

Zero until the end, then by `reward_scheme`: `win_loss` (+1 each winner, -1 the others),
`rank` (1 - 2(pos-1)/(n-1), ties averaged) or `score_margin` (clip((mine - best other) / 20)).
`shaping_coef > 0` adds potential-based shaping on monster VP + Scoring Wheel.

## Infos

{infos_markdown(GAME)}

## Options

{options_markdown_table(OPTION_SPEC + DRIVER_OPTIONS)}

## Version History

* v0: initial release.
"""
