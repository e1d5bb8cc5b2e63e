"""Heroes and Monsters rules, Combat (docs 2.2 step 5): the ATTACK action, markers, defeats, and the
Plan progress they make (4.3), as plain functions of the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.heroes_and_monsters.content import ADVERSARIES, ANY_RACE, INVADERS, PLANS
from envs.heroes_and_monsters.effects import ORIGIN_ADVERSARY, end_game, resolve_all, shape

if TYPE_CHECKING:
    from envs.heroes_and_monsters.state import HeroesAndMonstersState


def attack(s: HeroesAndMonstersState, column: int) -> None:
    """ATTACK: pay the next health level of the Invader in ``column`` with D and place a marker."""
    s.dmg -= s.next_cost(column)
    s.markers[column] += 1
    s.markers_placed += 1
    shape(s, "marker")
    iid = s.field[column]
    inv = INVADERS[iid]
    if s.plan >= 0 and PLANS[s.plan].thwart == "MARK" and PLANS[s.plan].race in (ANY_RACE, inv.race):
        progress(s)
    if not s.attacked[column]:
        s.attacked[column] = True
        resolve_all(s, inv.on_attacked, column, s.active)
    if s.markers[column] >= len(inv.health):
        resolve_all(s, inv.on_defeat, column, s.active)
        s.inv_discard.append(iid)
        s.field[column] = -1
        s.markers[column] = 0
        s.attacked[column] = False
        s.defeated += 1
        shape(s, "defeat")
        if s.plan >= 0 and PLANS[s.plan].thwart == "DEF" and PLANS[s.plan].race in (ANY_RACE, inv.race):
            progress(s)
        if not ADVERSARIES[s.adversary].plans and s.defeated >= s.game.victory_target:
            end_game(s, "victory")


# -- Plans (4.3) ------------------------------------------------------------------------------------
def next_plan(s: HeroesAndMonstersState) -> None:
    """Reveal the next Plan of the Plan deck (or none)."""
    s.plan = s.plan_deck.pop(0) if s.plan_deck else -1
    s.plan_progress = 0
    s.plan_countdown = PLANS[s.plan].countdown if s.plan >= 0 else 0


def progress(s: HeroesAndMonstersState) -> None:
    """One event toward the active Plan (4.7); thwart, reward, victory check, next Plan."""
    s.plan_progress += 1
    if s.plan_progress < s.plan_required():
        return
    s.thwarted += 1
    shape(s, "thwart")
    resolve_all(s, PLANS[s.plan].reward, ORIGIN_ADVERSARY, s.active)
    if s.thwarted >= ADVERSARIES[s.adversary].plans_in_play:
        s.plan = -1
        end_game(s, "victory")
    next_plan(s)
