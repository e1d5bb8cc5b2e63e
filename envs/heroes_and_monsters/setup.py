"""Heroes and Monsters rules, the setup (docs 1.3) as a plain function: the Generals and their
starting decks, the Fortress deck and the Area, the Adversary's Plans and Invaders, the first turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.core.chance import Chance
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.combat import next_plan
from envs.heroes_and_monsters.content import ADVERSARIES, ADVERSARY_KEYS, GENERALS
from envs.heroes_and_monsters.effects import ORIGIN_ADVERSARY, GameOver, draw, primitive
from envs.heroes_and_monsters.invasion import draw_invader, place_invader
from envs.heroes_and_monsters.state import HeroesAndMonstersState, Player
from envs.heroes_and_monsters.turn import start_turn

if TYPE_CHECKING:
    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

# the content lists every setup starts from
_STARTING_DECKS = tuple(tuple(C.starting_deck(g.id)) for g in GENERALS)
_FORTRESS_CARDS = tuple(C.fortress_card_list())
_INVADER_CARDS = tuple(C.invader_list())
_GENERALS_BY_RACE = tuple(tuple(g.id for g in GENERALS if g.race == r) for r in range(3))


def new_state(game: HeroesAndMonstersGame, seed: int | None) -> HeroesAndMonstersState:
    """A new game after the automatic setup, ready for the first player's RECRUIT."""
    s = HeroesAndMonstersState(game, Chance(seed))
    ch = s.chance
    key = game.options["adversary"]
    s.adversary = ch.choice(len(ADVERSARIES)) if key == "random" else ADVERSARY_KEYS.index(key)
    adv = ADVERSARIES[s.adversary]
    generals = game.generals if game.generals is not None else random_generals(ch, s.n)
    for g in generals:
        p = Player(g)
        p.deck = list(_STARTING_DECKS[g])
        ch.shuffle(p.deck)
        s.players.append(p)
    for seat, p in enumerate(s.players):
        draw(s, seat, GENERALS[p.general].draw)
    try:
        s.fortress = list(_FORTRESS_CARDS)
        ch.shuffle(s.fortress)
        excess = len(s.fortress) - C.FORTRESS_DECK_SIZE
        s.box = sorted(s.fortress[len(s.fortress) - excess :])
        del s.fortress[len(s.fortress) - excess :]
        for slot in range(C.NUM_SLOTS):
            s.area[slot] = s.fortress.pop()
        primitive(s, ("MILL", adv.setup_mill), ORIGIN_ADVERSARY, 0)
        plans = list(adv.plans)
        if adv.shuffle_plans:
            ch.shuffle(plans)
            s.box_plans = plans[adv.plans_in_play :]
            plans = plans[: adv.plans_in_play]
        s.plan_deck = plans
        s.inv_deck = list(_INVADER_CARDS)
        column = 0
        if adv.first_invader >= 0:
            s.inv_deck.remove(adv.first_invader)
            place_invader(s, 0, adv.first_invader)
            column = 1
        ch.shuffle(s.inv_deck)
        for c in range(column, C.NUM_COLUMNS):
            place_invader(s, c, draw_invader(s))
        next_plan(s)
        start_turn(s)
    except GameOver:  # pragma: no cover - impossible with the shipped content
        pass
    return s


def random_generals(ch: Chance, n: int) -> list[int]:
    """Distinct races for n <= 3; every race and exactly one repeated race for n = 4 (1.1)."""
    by_race = _GENERALS_BY_RACE
    races = [0, 1, 2]
    ch.shuffle(races)
    if n <= 3:
        picks = [by_race[r][ch.choice(2)] for r in races[:n]]
    else:
        twice = races[0]
        picks = list(by_race[twice]) + [by_race[r][ch.choice(2)] for r in races[1:]]
        ch.shuffle(picks)
    return picks
