"""Heroes and Monsters rules, the player turn (docs 2.2): legality of every decision (6.2),
buying, effects and their payments (CHOOSE_DISCARD, PAY_ANY, CHOOSE_TRASH, CHOOSE_OVERFLOW), the
support windows, and the start and end of a turn. A mixin of :class:`~.state.HeroesAndMonstersState`.
"""

from __future__ import annotations

import numpy as np

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.common import (
    CHOOSE_DISCARD,
    CHOOSE_OVERFLOW,
    CHOOSE_TRASH,
    COMBAT,
    EFFECTS,
    ORIGIN_PLAYER,
    PAY_ANY,
    RECRUIT,
    SRC_COPY,
    SRC_GENERAL,
    SRC_HAND,
    SRC_NONE,
    SRC_TABLE,
    SUPPORT,
)
from envs.heroes_and_monsters.content import CARDS, CONSTRUCTION, GENERALS, UNIT

# The action ids of each block, by argument (derived from the layout, never typed).
_BUY = [LAYOUT.encode("BUY", s) for s in range(C.NUM_SLOTS)]
_USE_HAND = [LAYOUT.encode("USE_HAND", h) for h in range(C.HAND_CAP)]
_USE_TABLE = [LAYOUT.encode("USE_TABLE", k) for k in range(C.TABLE_CAP)]
_USE_GENERAL = LAYOUT.encode("USE_GENERAL")
_COPY = [[LAYOUT.encode("COPY", r, k) for k in range(C.TABLE_CAP)] for r in range(C.MAX_PLAYERS)]
_ATTACK = [LAYOUT.encode("ATTACK", c) for c in range(C.NUM_COLUMNS)]
_SELECT_HAND = [LAYOUT.encode("SELECT_HAND", h) for h in range(C.HAND_CAP)]
_SELECT_TABLE = [LAYOUT.encode("SELECT_TABLE", k) for k in range(C.TABLE_CAP)]
_PAY = [LAYOUT.encode("PAY", x) for x in range(3)]
_PASS = LAYOUT.encode("PASS")
_PASS_PHASES = (RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_TRASH)


class TurnMixin:
    """Legality and the decisions of a Defender's turn."""

    # -- legality (6.2) --------------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask

    def num_legal(self) -> int:
        return int(np.count_nonzero(self.legal_mask()))

    def _compute_mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, np.int8)
        if self.result is not None:
            return m
        seat = self.current_player
        p = self.players[seat]
        ph = self.phase
        if ph == RECRUIT:
            pool = self.pool(seat)
            for s, c in enumerate(self.area):
                if c >= 0:
                    cost = CARDS[c].cost
                    if pool[0] >= cost[0] and pool[1] >= cost[1] and pool[2] >= cost[2]:
                        m[_BUY[s]] = 1
            self._mask_uses(m, seat, False, pool)
        elif ph == EFFECTS:
            pool = self.pool(seat)
            self._mask_uses(m, seat, True, pool)
            ability = GENERALS[p.general].ability
            if ability.do[0][0] == "COPY" and not p.gen_used and self._affordable(ability, pool):
                for r in range(self.n):
                    for k, (c, _) in enumerate(self.players[(seat + r) % self.n].table):
                        e = CARDS[c].effect
                        if e is not None and e.cost != "passive":
                            m[_COPY[r][k]] = 1
        elif ph == SUPPORT:
            self._mask_uses(m, seat, False, self.pool(seat))
        elif ph == COMBAT:
            for c in range(C.NUM_COLUMNS):
                if self.field[c] >= 0 and self.dmg >= self.next_cost(c):
                    m[_ATTACK[c]] = 1
        elif ph == CHOOSE_DISCARD or ph == CHOOSE_TRASH:
            pool = self.pool(seat)
            for h, (c, u) in enumerate(p.hand):
                if (h == 0 or p.hand[h - 1] != [c, u]) and self._discardable(seat, c, pool):
                    m[_SELECT_HAND[h]] = 1
        elif ph == CHOOSE_OVERFLOW:
            for k in range(len(p.table)):
                m[_SELECT_TABLE[k]] = 1
        elif ph == PAY_ANY:
            pool = self.pool(seat)
            for x in range(3):
                if pool[x] >= 1:
                    m[_PAY[x]] = 1
        if ph in _PASS_PHASES:
            m[_PASS] = 1
        return m

    def _usable(self, effect: C.Effect | None, seat: int, resources: bool, pool: list[int], has_card: bool) -> bool:
        if effect is None or effect.cost == "passive" or effect.do[0][0] == "COPY":
            return False
        if effect.cost == "discard_self":
            return True
        if effect.cost == "discard_one":
            return has_card
        return resources and self._affordable(effect, pool)

    def _mask_uses(self, m: np.ndarray, seat: int, resources: bool, pool: list[int]) -> None:
        """USE_HAND, USE_TABLE and USE_GENERAL of ``seat``, whose pool is ``pool``; resource-cost
        effects only if ``resources`` (the Effects phase)."""
        p = self.players[seat]
        has_card = self._has_discardable(seat, pool)
        prev = None
        for h, entry in enumerate(p.hand):
            if entry == prev:  # duplicate masking: the same (card, used) as the slot before
                continue
            prev = entry
            c, u = entry
            if u:
                continue
            card = CARDS[c]
            e = card.effect
            if card.kind == UNIT and e is not None and e.cost != "discard_one":
                if self._usable(e, seat, resources, pool, has_card):
                    m[_USE_HAND[h]] = 1
        seen = set()
        for k, (c, u) in enumerate(p.table):
            if u or c in seen:
                continue
            seen.add(c)
            if self._usable(CARDS[c].effect, seat, resources, pool, has_card):
                m[_USE_TABLE[k]] = 1
        if not p.gen_used and self._usable(GENERALS[p.general].ability, seat, resources, pool, has_card):
            m[_USE_GENERAL] = 1

    def _support_eligible(self, seat: int) -> bool:
        m = np.zeros(NUM_ACTIONS, np.int8)
        self._mask_uses(m, seat, False, self.pool(seat))
        return bool(m.any())

    # -- buying, effects and their payments (docs 2.2, steps 2-4) ----------------------------------
    def _do_buy(self, slot: int) -> None:
        c = self.area[slot]
        card = CARDS[c]
        for x in range(3):
            self.res[x] -= card.cost[x]
        p = self.players[self.active]
        if card.kind == CONSTRUCTION:
            if len(p.table) < C.TABLE_CAP:
                p.table.append([c, False])
            else:
                self._suspend(CHOOSE_OVERFLOW, self.active, SRC_NONE, c, None, 0)
                self.pending["overflow"] = c
        else:
            p.discard.append(c)
        self._take_from_area(slot)

    def _do_use_hand(self, h: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        c = p.hand[h][0]
        e = CARDS[c].effect
        ref = ["card", c]
        if e.cost == "discard_self":
            del p.hand[h]
            p.discard.append(c)
            if seat == self.active:
                self.used_discarded.append(c)
            self._resolve(seat, ref, 0)
            return
        p.hand[h][1] = True
        p.hand.sort()
        self._pay(seat, e, SRC_HAND, c, ref)

    def _do_use_table(self, k: int) -> None:
        seat = self.current_player
        entry = self.players[seat].table[k]
        entry[1] = True
        self._pay(seat, CARDS[entry[0]].effect, SRC_TABLE, entry[0], ["card", entry[0]])

    def _do_use_general(self) -> None:
        seat = self.current_player
        p = self.players[seat]
        p.gen_used = True
        self._pay(seat, GENERALS[p.general].ability, SRC_GENERAL, -1, ["general", p.general])

    def _do_copy(self, rel: int, k: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        p.gen_used = True
        target = self.players[(seat + rel) % self.n].table[k][0]
        self._pay(seat, GENERALS[p.general].ability, SRC_COPY, target, ["card", target])

    def _pay(self, seat: int, cost: C.Effect, src: int, card: int, ref: list) -> None:
        """Pay ``cost`` (opening CHOOSE_DISCARD or PAY_ANY when needed), then resolve ``ref``."""
        if cost.cost == "discard_one":
            self._suspend(CHOOSE_DISCARD, seat, src, card, ref, 0)
            return
        if cost.cost == "resources":
            for x in range(3):
                self.res[x] -= cost.res[x]
            if cost.any:
                self._suspend(PAY_ANY, seat, src, card, ref, 0)
                self.pending["any"] = cost.any
                return
        self._resolve(seat, ref, 0)

    def _suspend(self, phase: int, seat: int, src: int, card: int, ref: list | None, at: int) -> None:
        ret = self.pending["ret"] if self.pending else self.phase
        self.pending = {
            "seat": seat,
            "src": src,
            "card": card,
            "effect": ref,
            "at": at,
            "any": 0,
            "trash": 0,
            "overflow": -1,
            "ret": ret,
        }
        self.phase = phase
        self.current_player = seat

    def _finish_pending(self) -> None:
        """Close the sub-decision and resolve the rest of its effect."""
        pend = self.pending
        self.pending = None
        self.phase = pend["ret"]
        self.current_player = pend["seat"]
        if pend["effect"] is not None:
            self._resolve(pend["seat"], pend["effect"], pend["at"])

    def _do_select_hand(self, h: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        c, used = p.hand.pop(h)
        if self.phase == CHOOSE_DISCARD:
            p.discard.append(c)
            if used and seat == self.active:
                self.used_discarded.append(c)
            self._finish_pending()
            return
        self.exile.append(c)  # CHOOSE_TRASH
        self.pending["trash"] -= 1
        if self.pending["trash"] <= 0 or not self._has_discardable(seat):
            self._finish_pending()

    def _do_select_table(self, k: int) -> None:
        p = self.players[self.current_player]
        self.rubble.append(p.table.pop(k)[0])
        p.table.append([self.pending["overflow"], False])
        self._finish_pending()

    def _do_pay(self, x: int) -> None:
        self.res[x] -= 1
        self.pending["any"] -= 1
        if self.pending["any"] == 0:
            self._finish_pending()

    def _do_pass(self) -> None:
        ph = self.phase
        if ph == RECRUIT:
            self.phase = EFFECTS
        elif ph == EFFECTS:
            self._gather()
            self.support_queue = (
                [(self.active + i) % self.n for i in range(1, self.n)]
                if self.game.options["support_window"] == "pre_combat"
                else []
            )
            self._next_support()
        elif ph == SUPPORT:
            self._next_support()
        elif ph == COMBAT:
            self._end_turn()
        elif ph == CHOOSE_TRASH:
            self._finish_pending()

    # -- turn structure (2.3) --------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.active = (self.first + self.turns_done) % self.n
        p = self.players[self.active]
        self.res = list(GENERALS[p.general].reserve)
        self.dmg = 0
        self.bonus = [0, 0, 0]
        self.used_discarded = []
        self.used_in_deck = []
        self.hand_up = True
        for q in self.players:
            q.gen_used = False
            for entry in q.table:
                entry[1] = False
            for entry in q.hand:
                entry[1] = False
            q.hand.sort()
        self.attacked = [False] * C.NUM_COLUMNS
        self.phase = RECRUIT
        self.current_player = self.active
        for c, _ in list(p.table):
            e = CARDS[c].effect
            if e is not None and e.cost == "passive":
                for prim in e.do:
                    self._prim(prim, ORIGIN_PLAYER, self.active)

    def _gather(self) -> None:
        """End of EFFECTS: General + Units in hand + race bonuses (2.3.3)."""
        p = self.players[self.active]
        g = GENERALS[p.general]
        total = g.dmg
        count = [0, 0, 0, 0]
        for c, _ in p.hand:
            card = CARDS[c]
            if card.kind == UNIT:
                total += card.dmg
                count[card.race] += 1
        for r in range(3):
            total += self.bonus[r] * (count[r] + (1 if g.race == r else 0))
        self.dmg += total

    def _next_support(self) -> None:
        while self.support_queue:
            seat = self.support_queue.pop(0)
            if self._support_eligible(seat):
                self.phase = SUPPORT
                self.current_player = seat
                return
        self.phase = COMBAT
        self.current_player = self.active

    def _end_turn(self) -> None:
        p = self.players[self.active]
        p.discard += [c for c, _ in p.hand]
        p.hand = []
        self.hand_up = False  # the new hand is private until the owner's next turn
        self.used_discarded = []
        self.used_in_deck = []
        self._draw(self.active, GENERALS[p.general].draw)
        self.res = [0, 0, 0]
        self.dmg = 0
        self.bonus = [0, 0, 0]
        self.turns_done += 1
        if self.turns_done >= self.n:
            self._invasion()
            self._restart()
        else:
            self._start_turn()
