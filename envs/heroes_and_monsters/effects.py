"""Heroes and Monsters rules, the effect primitives and the zones (docs 3.1, 4.1): plain functions of
the state that every phase uses.

A card, General, Invader, Adversary or Plan effect is a list of primitives from ``content.py``;
:func:`primitive` resolves one of them. The zone moves it needs (draw, reshuffle, the Area refill,
an Invader destroying an Area card) and the end of the game live here too. A terminal event calls
:func:`end_game`, which raises :class:`GameOver` so that the first terminal event ends the game at
once and nothing after it resolves (2.6 precedence); ``State.apply_legal`` catches it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.content import CARDS, RESOURCE, UNIT

if TYPE_CHECKING:
    from envs.heroes_and_monsters.state import HeroesAndMonstersState

#: every way a game ends (the ``result`` field), in words
END_REASONS = {
    "victory": "the Adversary is defeated",
    "fortress_empty": "the Fortress deck ran out",
    "round_limit": "the Long Siege: the round limit was reached",
    "truncated": "the step cap was reached",
}
TERMINAL_RESULTS = ("victory", "fortress_empty", "round_limit")

ORIGIN_PLAYER = -1  # primitive resolved for a player (card, General)
ORIGIN_ADVERSARY = -2  # primitive of the Adversary or a Plan (REGEN hits every Invader)
# an origin >= 0 is the column of the Invader whose effect resolves


class GameOver(Exception):
    """Raised inside a resolution by the first terminal event (caught by ``State.apply_legal``)."""


def end_game(s: HeroesAndMonstersState, result: str) -> None:
    s.result = result
    s.current_player = -1
    raise GameOver


def shape(s: HeroesAndMonstersState, event: str, count: int = 1) -> None:
    """Add the shaped reward of ``event`` to this step's (every step's value is kept, used or not)."""
    s.shaping += s.game.weights[event] * count


# -- zones ------------------------------------------------------------------------------------------
def draw(s: HeroesAndMonstersState, seat: int, k: int) -> None:
    p = s.players[seat]
    for _ in range(k):
        if len(p.hand) >= C.HAND_CAP:
            break
        if not p.deck:
            if not p.discard:
                break
            reshuffle(s, seat)
        c = p.deck.pop()
        used = False
        if seat == s.active and c in s.used_in_deck:
            s.used_in_deck.remove(c)
            used = True
        p.hand.append([c, used])
    p.hand.sort()


def reshuffle(s: HeroesAndMonstersState, seat: int) -> None:
    """The discard pile becomes the new deck; used cards of this turn go with it."""
    p = s.players[seat]
    p.deck, p.discard = p.discard, []
    s.chance.shuffle(p.deck)
    if seat == s.active:
        s.used_in_deck += s.used_discarded
        s.used_discarded = []


def take_from_area(s: HeroesAndMonstersState, slot: int) -> None:
    """A card left the Area: shift the column down and refill from the Fortress deck (2.4)."""
    col = slot % C.NUM_COLUMNS
    if slot < C.NUM_COLUMNS:
        s.area[col] = s.area[col + C.NUM_COLUMNS]
    s.area[col + C.NUM_COLUMNS] = -1
    target = col if s.area[col] < 0 else col + C.NUM_COLUMNS
    s.area[target] = s.fortress.pop()
    if not s.fortress:
        end_game(s, "fortress_empty")


def destroy(s: HeroesAndMonstersState, col: int) -> int:
    """An Invader destroys the first-row card of ``col``; the ward absorbs it first. Returns 1 if a card went."""
    if s.ward > 0:
        s.ward -= 1
        return 0
    s.rubble.append(s.area[col])
    shape(s, "fortress_lost")
    take_from_area(s, col)
    return 1


# -- the primitive interpreter (4.1) -------------------------------------------------------------------
def primitive(s: HeroesAndMonstersState, prim: tuple, origin: int, seat: int) -> None:
    """Resolve one primitive. ``origin``: ORIGIN_PLAYER, ORIGIN_ADVERSARY or an Invader's column;
    ``seat``: the activator (DRAW, RECALL, REVEAL). TRASH, which may stop for a decision, is the
    turn's (``turn.resolve``)."""
    name = prim[0]
    if name == "DMG":
        s.dmg += prim[1]
    elif name == "DMG_RACE":
        s.bonus[prim[1]] += prim[2]
    elif name == "GAIN":
        s.res[prim[1]] += prim[2]
    elif name == "DRAW":
        draw(s, seat, prim[1])
    elif name == "RECALL":
        p = s.players[seat]
        units = [c for c in p.discard if CARDS[c].kind == UNIT]
        if units and len(p.hand) < C.HAND_CAP:
            best = min(units, key=lambda c: (-CARDS[c].dmg, c))
            p.discard.reverse()  # take the most recent copy
            p.discard.remove(best)
            p.discard.reverse()
            used = best in s.used_discarded
            if used:
                s.used_discarded.remove(best)
            p.hand.append([best, used])
            p.hand.sort()
    elif name == "REVEAL":
        p = s.players[seat]
        if not p.deck and p.discard:
            reshuffle(s, seat)
        if p.deck:
            c = p.deck.pop()
            if seat == s.active and c in s.used_in_deck:
                s.used_in_deck.remove(c)
                s.used_discarded.append(c)
            card = CARDS[c]
            if card.kind == UNIT:
                s.dmg += card.dmg
            elif card.kind == RESOURCE:
                s.res[card.provides] += 1
            p.discard.append(c)
    elif name == "HEAL":
        for _ in range(prim[1]):
            if s.rubble:
                s.fortress.insert(0, s.rubble.pop())
                shape(s, "heal")
    elif name == "WARD":
        s.ward += prim[1]
    elif name == "MILL":
        for _ in range(prim[1]):
            s.rubble.append(s.fortress.pop())
            shape(s, "fortress_lost")
            if not s.fortress:
                end_game(s, "fortress_empty")
    elif name == "DESTROY":
        for _ in range(prim[1]):
            destroy(s, origin)
    elif name == "REGEN":
        for c in range(C.NUM_COLUMNS):
            if s.field[c] >= 0 and (origin < 0 or c != origin):
                s.markers[c] = max(0, s.markers[c] - prim[1])
    elif name == "DRAIN":
        s.dmg = max(0, s.dmg - prim[1])
    elif name == "DISRUPT":
        for p in s.players:
            for _ in range(prim[1]):
                if p.hand:
                    c = p.hand.pop(s.chance.choice(len(p.hand)))[0]
                    p.discard.append(c)
    # FURY is static (read by State.fortress_damage); COPY is an action of its own.


def resolve_all(s: HeroesAndMonstersState, prims, origin: int, seat: int) -> None:
    """Resolve ``prims`` in order (an Invader's, the Adversary's or a Plan's list; no TRASH in them)."""
    for prim in prims:
        primitive(s, prim, origin, seat)
