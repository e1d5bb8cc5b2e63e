"""Heroes and Monsters rules, the Invasion and the end of the round (docs 2.4-2.6), as plain
functions of the state: every Invader attacks its column, the Battlefield refills, the Plan
countdown runs, then the round limit and the first-player marker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.content import ADVERSARIES, INVADERS, PLANS
from envs.heroes_and_monsters.effects import ORIGIN_ADVERSARY, destroy, end_game, resolve_all

if TYPE_CHECKING:
    from envs.heroes_and_monsters.state import HeroesAndMonstersState


def invade(s: HeroesAndMonstersState) -> None:
    """2.5: Threat and Plan effects, each Invader attacks its column, refill, ward reset."""
    adv = ADVERSARIES[s.adversary]
    resolve_all(s, adv.threat_start[s.threat() - 1], ORIGIN_ADVERSARY, s.active)
    if s.plan >= 0:
        resolve_all(s, PLANS[s.plan].start, ORIGIN_ADVERSARY, s.active)
    for c in range(C.NUM_COLUMNS):
        if s.field[c] < 0:
            continue
        destroyed = 0
        for _ in range(s.fortress_damage(c)):
            destroyed += destroy(s, c)
        if destroyed:
            resolve_all(s, INVADERS[s.field[c]].on_damage, c, s.active)
    for c in range(C.NUM_COLUMNS):
        if s.field[c] < 0:
            place_invader(s, c, draw_invader(s))
    s.ward = 0


def end_round(s: HeroesAndMonstersState) -> None:
    """2.6: Plan countdown, round limit, first player rotation; the caller starts the next round's turn."""
    if s.plan >= 0:
        s.plan_countdown -= 1
        if s.plan_countdown <= 0:
            resolve_all(s, PLANS[s.plan].fulfilment, ORIGIN_ADVERSARY, s.active)
            s.plan_countdown = PLANS[s.plan].countdown
    if s.round >= s.game.options["max_rounds"]:
        end_game(s, "round_limit")
    if s.game.options["rotate_first_player"]:
        s.first = (s.first + 1) % s.n
    s.round += 1
    s.turns_done = 0


# -- Invaders ---------------------------------------------------------------------------------------
def draw_invader(s: HeroesAndMonstersState) -> int:
    if not s.inv_deck:
        s.inv_deck, s.inv_discard = s.inv_discard, []
        s.chance.shuffle(s.inv_deck)
    return s.inv_deck.pop()


def place_invader(s: HeroesAndMonstersState, col: int, iid: int) -> None:
    s.field[col] = iid
    s.markers[col] = 0
    s.attacked[col] = False
    resolve_all(s, INVADERS[iid].on_entry, col, s.active)
