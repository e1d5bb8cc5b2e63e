"""Rule-based Heroes and Monsters players: :class:`HeuristicBot` and :class:`ReferenceBot`.

``ReferenceBot`` is a literal reading of the design's greedy reference bot (the one whose win
rates calibrate the game); ``HeuristicBot`` is stronger, mainly because it buys sparingly (every
purchase costs the Fortress deck a card). Measured team win rates are in docs section 10.

It reads only the public State API: ``legal_mask()``, ``current_player``, ``active``, ``phase``,
``players[seat]`` for its own seat (hand, table, General) and public zones (Area, Battlefield,
markers, pools and ``dmg`` of the active player, whose hand is face up), never another waiting
player's hand or any deck order. Policy:

- RECRUIT: buy the card of best value per resource while the Fortress deck is large enough (at
  most one or two purchases per turn), never a Construction that would force an overflow;
- EFFECTS: fire every affordable resource-cost effect that does something now, discard-self DMG
  Units whose effect beats their own damage, WARD Units, and discard-one effects paid with a
  resource card that is worth nothing any more;
- SUPPORT: discard for DMG only when it lets the active player place at least one more marker;
- COMBAT: kill the Invader with the best Fortress damage per remaining health, else chip the most
  dangerous one.
"""

from __future__ import annotations

import random

import numpy as np

from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import CARDS, CONSTRUCTION, GENERALS, INVADERS, RESOURCE, TABLE_CAP, UNIT
from envs.heroes_and_monsters.turn import (
    CHOOSE_DISCARD,
    CHOOSE_OVERFLOW,
    CHOOSE_TRASH,
    COMBAT,
    EFFECTS,
    PAY_ANY,
    RECRUIT,
    SUPPORT,
)

PASS = LAYOUT.encode("PASS")
PRIM_VALUE = {"DMG": 1.0, "DRAW": 1.5, "HEAL": 1.2, "WARD": 1.0, "REVEAL": 1.5, "RECALL": 1.0, "GAIN": 0.8}


def card_value(c: int) -> float:
    """Rough worth of owning a card (Units: damage per appearance; Constructions: per turn)."""
    card = CARDS[c]
    e = card.effect
    v = float(card.dmg)
    if e is not None:
        for prim in e.do:
            w = PRIM_VALUE.get(prim[0], 0.8) * (prim[-1] if isinstance(prim[-1], int) else 1)
            if e.cost == "passive":
                w *= 1.6
            elif e.cost == "discard_self":
                w = max(0.0, w - card.dmg) + 0.3
            v += w
    if card.kind == CONSTRUCTION:
        v *= 1.3
    return v


class HeuristicBot:
    """``act_state(state)`` returns a legal action id for ``state.current_player``.

    ``seed=None``: deterministic; with a seed, exact ties are broken at random.
    """

    def __init__(self, seed: int | None = None, buy_floor: int = 14, max_buys: int | None = None):
        """``buy_floor``: no purchase once the Fortress deck is this small; ``max_buys``: purchases
        per turn (None: 2 while the Fortress deck holds more than 30 cards, then 1)."""
        self.rng = random.Random(seed) if seed is not None else None
        self.buy_floor = buy_floor
        self.max_buys = max_buys

    # -- helpers -----------------------------------------------------------------------------------
    def _pick(self, scored: list[tuple[float, int]]) -> int:
        best = max(s for s, _ in scored)
        top = [a for s, a in scored if s == best]
        return top[0] if self.rng is None else self.rng.choice(top)

    @staticmethod
    def _legal(mask: np.ndarray, name: str) -> list[tuple[int, int]]:
        b = LAYOUT.block(name)
        return [(a - b.start, a) for a in range(b.start, b.stop) if mask[a]]

    @staticmethod
    def _markers_with(state, dmg: int) -> int:
        """How many markers ``dmg`` could place, greedily on the cheapest next levels."""
        costs = []
        for c in range(4):
            if state.field[c] >= 0:
                levels = state.levels(c)
                costs += levels[state.markers[c] :]
        count = 0
        for cost in sorted(costs):
            if cost > dmg:
                break
            dmg -= cost
            count += 1
        return count

    def _effect_useful(self, state, effect, seat: int) -> bool:
        p = state.players[seat]
        for prim in effect.do:
            name = prim[0]
            if name == "DMG_RACE":
                race = prim[1]
                units = sum(1 for c, _ in p.hand if CARDS[c].kind == UNIT and CARDS[c].race == race)
                if units + (GENERALS[p.general].race == race) > 0:
                    return True
            elif name == "HEAL":
                if state.rubble:
                    return True
            elif name == "DRAW":
                if p.deck or p.discard:
                    return True
            elif name == "RECALL":
                if any(CARDS[c].kind == UNIT for c in p.discard):
                    return True
            elif name == "TRASH":
                return False
            else:
                return True
        return False

    # -- entry point -------------------------------------------------------------------------------
    def act_state(self, state) -> int:
        mask = state.legal_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        ph = state.phase
        seat = state.current_player
        if ph == RECRUIT:
            a = self._recruit(state, mask, seat)
        elif ph == EFFECTS:
            a = self._effects(state, mask, seat)
        elif ph == SUPPORT:
            a = self._support(state, mask, seat)
        elif ph == COMBAT:
            a = self._combat(state, mask)
        elif ph == CHOOSE_DISCARD:
            a = self._discard(state, mask, seat)
        elif ph == CHOOSE_TRASH:
            a = PASS
        elif ph == CHOOSE_OVERFLOW:
            p = state.players[seat]
            a = self._pick([(-card_value(p.table[k][0]), act) for k, act in self._legal(mask, "SELECT_TABLE")])
        elif ph == PAY_ANY:
            pool = state.pool(seat)
            a = self._pick([(pool[x], act) for x, act in self._legal(mask, "PAY")])
        else:
            a = int(legal[0])
        if not mask[a]:
            a = PASS if mask[PASS] else int(legal[0])
        return int(a)

    def _recruit(self, state, mask, seat) -> int:
        buys = state.bought
        limit = self.max_buys if self.max_buys is not None else (2 if len(state.fortress) > 30 else 1)
        if len(state.fortress) > self.buy_floor and buys < limit:
            p = state.players[seat]
            options = []
            for slot, act in self._legal(mask, "BUY"):
                c = state.area[slot]
                card = CARDS[c]
                if card.kind == CONSTRUCTION and len(p.table) >= TABLE_CAP:
                    continue
                options.append((card_value(c) / max(1, sum(card.cost)) + 0.05 * sum(card.cost), act))
            if options:
                return self._pick(options)
        return PASS

    def _effects(self, state, mask, seat) -> int:
        p = state.players[seat]
        options = []
        for h, act in self._legal(mask, "USE_HAND"):
            c = p.hand[h][0]
            e = CARDS[c].effect
            if e.cost == "discard_self":
                gain = sum(prim[-1] for prim in e.do if prim[0] == "DMG") - CARDS[c].dmg
                if gain > 0 or any(prim[0] == "WARD" for prim in e.do):
                    options.append((2.0 + gain, act))
            elif self._effect_useful(state, e, seat):
                options.append((3.0, act))
        for k, act in self._legal(mask, "USE_TABLE"):
            e = CARDS[p.table[k][0]].effect
            if e.cost == "discard_one":
                if self._spare_resource(state, seat) is not None:
                    options.append((1.0, act))
            elif self._effect_useful(state, e, seat):
                options.append((3.5, act))
        for _, act in self._legal(mask, "USE_GENERAL"):
            e = GENERALS[p.general].ability
            if e.cost == "discard_one":
                if self._spare_resource(state, seat) is not None:
                    options.append((1.2, act))
            elif self._effect_useful(state, e, seat):
                options.append((3.2, act))
        for (rel, k), act in ((LAYOUT.args_of(a), a) for a in np.flatnonzero(mask) if LAYOUT.name_of(a) == "COPY"):
            owner = state.players[(seat + rel) % state.n]
            c = owner.table[k][0]
            if self._effect_useful(state, CARDS[c].effect, seat):
                options.append((2.5 + card_value(c) / 10, int(act)))
        if options:
            return self._pick(options)
        return PASS

    def _spare_resource(self, state, seat):
        """A hand slot holding a resource card that is still unspent (worthless after this turn)."""
        p = state.players[seat]
        pool = state.pool(seat)
        for h, (c, _) in enumerate(p.hand):
            x = CARDS[c].provides
            if x >= 0 and pool[x] >= 1:
                return h
        return None

    def _support(self, state, mask, seat) -> int:
        p = state.players[seat]
        base = self._markers_with(state, state.dmg)
        for h, act in self._legal(mask, "USE_HAND"):
            e = CARDS[p.hand[h][0]].effect
            dmg = sum(prim[-1] for prim in e.do if prim[0] == "DMG")
            if dmg and self._markers_with(state, state.dmg + dmg) > base:
                return act
        for k, act in self._legal(mask, "USE_TABLE"):
            e = CARDS[p.table[k][0]].effect
            dmg = sum(prim[-1] for prim in e.do if prim[0] == "DMG")
            if dmg and self._markers_with(state, state.dmg + dmg) > base:
                return act
        for _, act in self._legal(mask, "USE_GENERAL"):
            e = GENERALS[p.general].ability
            dmg = sum(prim[-1] for prim in e.do if prim[0] == "DMG")
            if dmg and self._markers_with(state, state.dmg + dmg) > base:
                return act
        return PASS

    def _combat(self, state, mask) -> int:
        options = []
        for c, act in self._legal(mask, "ATTACK"):
            inv = INVADERS[state.field[c]]
            rem = state.remaining_health(c)
            danger = state.fortress_damage(c)
            if inv.on_defeat and inv.on_defeat[0][0] == "MILL" and len(state.fortress) <= inv.on_defeat[0][1] + 1:
                continue
            kill = state.dmg >= rem
            options.append(((10.0 if kill else 0.0) + danger / rem, act))
        if options:
            return self._pick(options)
        return PASS

    def _discard(self, state, mask, seat) -> int:
        p = state.players[seat]
        pool = state.pool(seat)
        options = []
        for h, act in self._legal(mask, "SELECT_HAND"):
            c = p.hand[h][0]
            card = CARDS[c]
            if card.kind == RESOURCE:
                value = 0.0 if seat == state.active and pool[card.provides] >= 1 else 1.5
            else:
                value = card_value(c)
            options.append((-value, act))
        return self._pick(options)


class ReferenceBot(HeuristicBot):
    """The design's greedy reference bot, read literally: buy the best value per cost while the
    Fortress deck holds more than 6 cards, at most 2 per turn; fire every affordable resource-cost
    effect (then COPY); spend a leftover resource card on a discard-1 effect; kill the Invader with
    the best Fortress damage per remaining health; a supporter discards for DMG only when that makes
    one more Invader killable."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed, buy_floor=6, max_buys=2)

    def _recruit(self, state, mask, seat) -> int:
        buys = state.bought
        if len(state.fortress) > self.buy_floor and buys < self.max_buys:
            options = [
                (card_value(state.area[slot]) / max(1, sum(CARDS[state.area[slot]].cost)), act)
                for slot, act in self._legal(mask, "BUY")
            ]
            if options:
                return self._pick(options)
        return PASS

    @staticmethod
    def _source_effect(state, seat, name, arg):
        p = state.players[seat]
        if name == "USE_HAND":
            return CARDS[p.hand[arg][0]].effect
        if name == "USE_TABLE":
            return CARDS[p.table[arg][0]].effect
        return GENERALS[p.general].ability

    def _effects(self, state, mask, seat) -> int:
        for name in ("USE_HAND", "USE_TABLE", "USE_GENERAL"):
            for arg, act in self._legal(mask, name):
                if self._source_effect(state, seat, name, arg).cost == "resources":
                    return act
        for act in np.flatnonzero(mask):
            if LAYOUT.name_of(int(act)) == "COPY":
                return int(act)
        if self._spare_resource(state, seat) is not None:
            for name in ("USE_TABLE", "USE_GENERAL"):
                for arg, act in self._legal(mask, name):
                    if self._source_effect(state, seat, name, arg).cost == "discard_one":
                        return act
        return PASS

    def _support(self, state, mask, seat) -> int:
        def killable(dmg: int) -> int:
            return sum(1 for c in range(4) if state.field[c] >= 0 and state.remaining_health(c) <= dmg)

        base = killable(state.dmg)
        for name in ("USE_HAND", "USE_TABLE", "USE_GENERAL"):
            for arg, act in self._legal(mask, name):
                e = self._source_effect(state, seat, name, arg)
                dmg = sum(prim[-1] for prim in e.do if prim[0] == "DMG")
                if dmg and killable(state.dmg + dmg) > base:
                    return act
        return PASS

    def _combat(self, state, mask) -> int:
        options = []
        for c, act in self._legal(mask, "ATTACK"):
            rem = state.remaining_health(c)
            options.append(((10.0 if state.dmg >= rem else 0.0) + state.fortress_damage(c) / rem, act))
        return self._pick(options) if options else PASS
