"""Heroes and Monsters, the words: what an action means now (:func:`describe_action`, said as a
player would say it), the table as text (:func:`render`), and an effect in the cards' own notation
(:func:`effect_text`, printed on the card faces of the play view and in the docs tables).

Functions of the state; the State's ``describe_action`` and ``render`` call them. This module
reads the content and the state only (never the docs generator, which reads it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import ADVERSARIES, CARDS, GENERALS, INVADERS, PLANS
from envs.heroes_and_monsters.effects import END_REASONS
from envs.heroes_and_monsters.turn import CHOOSE_TRASH, COMBAT, EFFECTS, PHASES, RECRUIT, SUPPORT

if TYPE_CHECKING:
    from envs.heroes_and_monsters.state import HeroesAndMonstersState

_PASS_WORDS = {
    RECRUIT: "Pass: end Construction and Recruitment",
    EFFECTS: "Pass: end Effects and gather damage",
    SUPPORT: "Pass: leave the support window",
    COMBAT: "Pass: end the turn",
    CHOOSE_TRASH: "Pass: stop trashing",
}


# -- effects in the cards' notation ("[R1] DMG_RACE Greenskin 1") -------------------------------------
def prims_text(prims) -> str:
    """Primitives as printed: ``DMG 2; DRAW 1`` (``-`` for none)."""
    out = []
    for p in prims:
        words = [p[0]]
        for i, a in enumerate(p[1:]):
            if p[0] in ("DMG_RACE", "FURY") and i == 0:
                words.append(
                    "Any" if a == C.ANY_RACE else (C.MONSTER_RACES[a] if p[0] == "DMG_RACE" else C.INVADER_RACES[a])
                )
            elif p[0] == "GAIN" and i == 0:
                words.append(C.RESOURCES[a])
            else:
                words.append(str(a))
        out.append(" ".join(words))
    return "; ".join(out) or "-"


def effect_text(e: C.Effect | None) -> str:
    """An effect as printed: ``[cost] primitives``, e.g. ``[R1 any 1] DMG 2``."""
    if e is None:
        return "-"
    if e.cost == "resources":
        parts = [f"{C.RESOURCES[x]}{e.res[x]}" for x in range(3) if e.res[x]]
        if e.any:
            parts.append(f"any {e.any}")
        cost = " ".join(parts)
    else:
        cost = {"passive": "passive", "discard_self": "discard self", "discard_one": "discard 1"}[e.cost]
    return f"[{cost}] {prims_text(e.do)}"


# -- effects in words ("pay 1 Root: draw 1 card") ------------------------------------------------------
def _cards(k: int, what: str = "card") -> str:
    return f"{k} {what}" + ("" if k == 1 else "s")


def _race(race: int, of_monsters: bool) -> str:
    if race == C.ANY_RACE:
        return "every"
    return C.MONSTER_RACES[race] if of_monsters else C.INVADER_RACES[race]


def prim_words(prim: tuple) -> str:
    """One primitive as a player says it."""
    name, args = prim[0], prim[1:]
    if name == "DMG":
        return f"+{args[0]} damage"
    if name == "DMG_RACE":
        if args[0] == C.ANY_RACE:
            return f"+{args[1]} damage per Unit in your hand and your General"
        race = C.MONSTER_RACES[args[0]]
        return f"+{args[1]} damage per {race} Unit in your hand (and your General, if {race})"
    if name == "GAIN":
        return f"gain {args[1]} {C.RESOURCE_NAMES[args[0]]}"
    if name == "DRAW":
        return f"draw {_cards(args[0])}"
    if name == "TRASH":
        return f"trash up to {_cards(args[0])} from your hand"
    if name == "RECALL":
        return "take your strongest Unit back from your discard pile"
    if name == "REVEAL":
        return "reveal the top card of your deck and gain what it gives"
    if name == "HEAL":
        return f"heal {_cards(args[0], 'Fortress card')} from the Rubble"
    if name == "WARD":
        return f"ward off {args[0]} destruction{'s' if args[0] != 1 else ''} this round"
    if name == "COPY":
        return "copy a Construction's effect"
    if name == "MILL":
        return f"mill {_cards(args[0], 'Fortress card')}"
    if name == "DESTROY":
        return f"destroy {_cards(args[0], 'Area card')}"
    if name == "REGEN":
        return f"the other Invaders lose {args[0]} marker{'s' if args[0] != 1 else ''}"
    if name == "DRAIN":
        return f"-{args[0]} damage"
    if name == "DISRUPT":
        return f"every player discards {_cards(args[0], 'random card')}"
    if name == "FURY":
        return f"{_race(args[0], False)} Invaders deal +{args[1]} Fortress damage"
    return prims_text([prim])


def cost_words(e: C.Effect) -> str:
    """What activating ``e`` costs, in words."""
    if e.cost == "passive":
        return "at the start of your turn"
    if e.cost == "discard_self":
        return "discard it"
    if e.cost == "discard_one":
        return "discard a card"
    parts = [f"{e.res[x]} {C.RESOURCE_NAMES[x]}" for x in range(3) if e.res[x]]
    if e.any:
        parts.append(f"{e.any} of any resource")
    return "pay " + " and ".join(parts) if parts else "free"


def effect_words(e: C.Effect) -> str:
    """What ``e`` does, in words (its cost: :func:`cost_words`)."""
    return ", ".join(prim_words(p) for p in e.do) or "nothing"


def _price(cost: tuple[int, int, int]) -> str:
    parts = [f"{cost[x]} {C.RESOURCE_NAMES[x]}" for x in range(3) if cost[x]]
    return ", ".join(parts) if parts else "nothing"


# -- describe_action and render --------------------------------------------------------------------------
def describe_action(s: HeroesAndMonstersState, action: int) -> str:
    """What ``action`` does for the seat to decide, now."""
    name, args = LAYOUT.decode(action)
    seat = s.current_player if s.current_player >= 0 else s.active
    p = s.players[seat]
    try:
        if name == "BUY":
            slot = args[0]
            where = f"Area row {slot // C.NUM_COLUMNS + 1}, column {slot % C.NUM_COLUMNS}"
            c = s.area[slot]
            if c < 0:
                return f"Recruit from {where} (empty)"
            return f"Recruit {CARDS[c].name} for {_price(CARDS[c].cost)} ({where})"
        if name == "USE_HAND":
            c = p.hand[args[0]][0]
            e = CARDS[c].effect
            return f"Use {CARDS[c].name} from your hand ({cost_words(e)}): {effect_words(e)}"
        if name == "USE_TABLE":
            c = p.table[args[0]][0]
            e = CARDS[c].effect
            return f"Use your Construction {CARDS[c].name} ({cost_words(e)}): {effect_words(e)}"
        if name == "USE_GENERAL":
            g = GENERALS[p.general]
            return f"Use {g.name}'s ability ({cost_words(g.ability)}): {effect_words(g.ability)}"
        if name == "COPY":
            owner = (seat + args[0]) % s.n
            c = s.players[owner].table[args[1]][0]
            whose = "your" if owner == seat else f"player_{owner}'s"
            g = GENERALS[p.general]
            return f"Copy {whose} {CARDS[c].name} ({cost_words(g.ability)}): {effect_words(CARDS[c].effect)}"
        if name == "ATTACK":
            iid = s.field[args[0]]
            if iid < 0:
                return f"Attack column {args[0]} (no Invader)"
            col = args[0]
            levels = s.levels(col)
            last = s.markers[col] + 1 >= len(levels)
            return (
                f"Attack {INVADERS[iid].name} in column {col}: pay level {s.markers[col] + 1} of "
                f"{len(levels)} ({s.next_cost(col)} damage)" + (", defeats it" if last else "")
            )
        if name == "SELECT_HAND":
            what = "Trash" if s.phase == CHOOSE_TRASH else "Discard"
            return f"{what} {CARDS[p.hand[args[0]][0]].name} from your hand"
        if name == "SELECT_TABLE":
            return f"Send your Construction {CARDS[p.table[args[0]][0]].name} to the Rubble to make room"
        if name == "PAY":
            return f"Pay 1 {C.RESOURCE_NAMES[args[0]]}"
        return _PASS_WORDS.get(s.phase, "Pass")
    except (IndexError, AttributeError, TypeError):  # an action that does not fit the state (an illegal one)
        return f"{LAYOUT.label(action)} (nothing there now)"


def render(s: HeroesAndMonstersState, seat: int | None = None) -> str:
    """The table as text; with a seat, only what that seat may see."""
    lines = [
        f"Heroes and Monsters - {ADVERSARIES[s.adversary].name} - round {s.round}, "
        f"player_{s.active} active, phase {PHASES[s.phase]}, player_{s.current_player} to act",
        f"Fortress deck {len(s.fortress)} (Threat {s.threat()}), Rubble {len(s.rubble)}, "
        f"ward {s.ward}, "
        f"defeated {s.defeated}" + (f"/{s.game.victory_target}" if not ADVERSARIES[s.adversary].plans else ""),
    ]
    if s.plan >= 0:
        lines.append(
            f"Plan {PLANS[s.plan].name}: {s.plan_progress}/{s.plan_required()}, countdown "
            f"{s.plan_countdown}, thwarted {s.thwarted}"
        )
    bf = []
    for c in range(C.NUM_COLUMNS):
        if s.field[c] < 0:
            bf.append(f"[{c}] -")
        else:
            inv = INVADERS[s.field[c]]
            bf.append(
                f"[{c}] {inv.name} ({C.INVADER_RACES[inv.race]}) health {s.levels(c)}, "
                f"markers {s.markers[c]}, next level {s.next_cost(c)}, "
                f"Fortress dmg {s.fortress_damage(c)}"
            )
    lines.append("Battlefield:")
    lines += ["  " + b for b in bf]
    for row in range(2):
        cards = [
            f"{CARDS[c].name} {'/'.join(map(str, CARDS[c].cost))}" if c >= 0 else "-"
            for c in s.area[4 * row : 4 * row + 4]
        ]
        lines.append(f"Area row {row + 1} (cost R/C/S): " + " | ".join(cards))
    pool = s.pool(s.active) if s.hand_up else [0, 0, 0]  # it counts the hand's resource cards
    bonus = ", ".join(f"{C.MONSTER_RACES[r]} +{b}" for r, b in enumerate(s.bonus) if b)
    lines.append(
        f"Active pool R{pool[0]} C{pool[1]} S{pool[2]}, D {s.dmg}" + (f", race bonus {bonus}" if bonus else "")
    )
    for i, p in enumerate(s.players):
        visible = seat is None or seat == i or (i == s.active and s.hand_up)
        hand = ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.hand) if visible else f"{len(p.hand)} cards"
        table = ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.table) or "-"
        lines.append(
            f"player_{i} {GENERALS[p.general].name}: hand [{hand}] table [{table}] deck {len(p.deck)} "
            f"discard {len(p.discard)}"
        )
    if s.result is not None:
        lines.append(f"Game over: {END_REASONS[s.result]}")
    return "\n".join(lines)
