"""Heroes and Monsters as a PettingZoo AEC environment: the env factories (the shared driver bound to
:class:`~.game.HeroesAndMonstersGame`) and the spec docstring. The tables below are generated from the code."""

from envs.core.aec import infos_markdown, make_env_factories
from envs.core.observation import fields_table
from envs.core.options import DRIVER_OPTIONS, options_markdown_table
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.game import OPTION_SPEC, HeroesAndMonstersGame
from envs.heroes_and_monsters.observation import (
    BATTLEFIELD_FIELDS,
    GLOBAL_FIELDS,
    OBSERVATION_LAYOUT,
    PLAYER_FIELDS,
)

GAME = HeroesAndMonstersGame
env, raw_env = make_env_factories(HeroesAndMonstersGame)

__doc__ = f"""
# Heroes and Monsters (`heroes_and_monsters_v0`)

| | |
|---|---|
| Import | `from envs import heroes_and_monsters_v0` or `envs.make("heroes_and_monsters_v0", num_players=n)` |
| Actions | Discrete({LAYOUT.num_actions}), with an action mask |
| Parallel API | No (turn-based AEC) |
| Agents | `player_0` .. `player_{{n-1}}`, n = 1..4 |
| Observation | Dict(observation=Box(0, 1, ({OBSERVATION_LAYOUT.size},), float32), \
action_mask=Box(0, 1, ({LAYOUT.num_actions},), int8)) |

A cooperative deck-builder: 1-4 monster Generals defend the Last Dark Fortress against the
Invaders of an Adversary. Buy Units and Constructions from the Fortress's Construction and
Recruitment Area (every purchase costs the Fortress deck a card), fire effects, gather damage and
place markers on the Invaders' health levels; the Invaders destroy Area cards of their column at
every Invasion. The team wins by defeating enough Invaders (Randall) or thwarting the last Plan
(Sylvaen, Thargrim) and loses when the Fortress deck runs out or the round limit is reached. The
rules as implemented, with every designed choice marked, are in docs/heroes_and_monsters.md.

## Observation Space

Seat-relative (the observer first, then the others clockwise), the same length for every player
count; absent seats are zeros. Only what the observer may know: its own hand, the active player's
hand (face up during its own turn), public zones and counts, never a deck order or another waiting
player's hand. `observation_mode="dict"` gives the same data as the named arrays of the first column.

{OBSERVATION_LAYOUT.markdown_table()}

Global block:

{fields_table(GLOBAL_FIELDS)}

Battlefield column (29):

{fields_table(BATTLEFIELD_FIELDS)}

Player row (197):

{fields_table(PLAYER_FIELDS)}

## Legal Actions Mask

`observation["action_mask"]` (and `env.action_mask(agent)`) is 1 for every legal action of the
selected agent and all zeros for the others. Every masked-in action completes: costs are checked in
full before a sub-decision (CHOOSE_DISCARD, PAY_ANY) opens. Among identical hand cards (same card and
used flag) and identical unused Constructions only the lowest slot is legal.

## Action Space

{LAYOUT.markdown_table()}

The agent selected is the actor: usually the active player; another player during its support
window (after the active player's Effects, before Combat); the payer of a sub-decision.

## Rewards

`win_loss` (default): 0 on every step, then +1 to every agent on a victory, -1 to every agent on a
loss (Fortress deck empty, round limit). `shaped`: the same plus, at the step where it happens,
+0.05 per Invader defeated, +0.01 per marker, +0.15 per Plan thwarted, -0.02 per Fortress card
destroyed or milled, +0.02 per card healed (option `shaping_weights`). Every agent always receives
the same reward. A truncation (`max_steps`) gives no reward and counts as a loss in the outcome.

## Infos

{infos_markdown(GAME)}

## Options

{options_markdown_table(OPTION_SPEC + DRIVER_OPTIONS)}

## Version History

* v0: initial release.
"""
