"""Last Bastion, the Hero phase: the MAIN decision (its legal ids and its actions), tile actions
(including Calls to Arms and Kaela's double resolution), and combat (dice, token planning, the
outcome choice, exit effects). A mixin of :class:`~envs.last_bastion.rules.LastBastionState`."""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from envs.last_bastion import content as C
from envs.last_bastion.state import (
    ACTIVATE_ID,
    COLOR_ID,
    CTA_ID,
    DEPLOYED,
    ENCHANT_ID,
    END_TURN_ID,
    FIGHT_BOTH_ID,
    FIGHT_ID,
    IN,
    MOVE_ID,
    OUT,
    RESOLVE_ID,
)

#: per tile: the adjacent tiles, and every other tile (Ysolde), in increasing order
_NEIGHBOURS = tuple(tuple(u for u in range(9) if C.adjacent(u, t)) for t in range(9))
_OTHERS = tuple(tuple(u for u in range(9) if u != t) for t in range(9))


@lru_cache(maxsize=1 << 16)
def _plan(info: tuple, dice: tuple, pool: tuple | None):
    """HeroPhase._plan on its inputs alone ((colour, effective resistance, warded) per target, the
    dice, the token pool or None), memoised: a combat asks the same questions up to 5 times, and
    the inputs take few values. Returns tuples (the caller copies them)."""
    k = len(info)
    if k == 1:  # one target: the search's answer in closed form (every matching die on it)
        colour, res, ward = info[0]
        short = max(0, res - sum(1 for d in dice if d == C.WHITE or d == colour))
        if short and (ward or pool is None or short > pool[colour]):
            return None
        need = [0] * 5
        need[colour] = short
        return tuple(need), (short,)
    best = None
    for assign in product(range(k + 1), repeat=len(dice)):
        counts = [0] * k
        for d, t in zip(dice, assign):
            if t < k and (d == C.WHITE or d == info[t][0]):
                counts[t] += 1
        need = [0] * 5
        shorts = []
        ok = True
        for t, (colour, res, ward) in enumerate(info):
            short = max(0, res - counts[t])
            if short and (ward or pool is None):
                ok = False
                break
            need[colour] += short
            shorts.append(short)
        if not ok or (pool is not None and any(need[c] > pool[c] for c in range(5))):
            continue
        if best is None or sum(shorts) < sum(best[1]):
            best = (tuple(need), tuple(shorts))
    return best


class HeroPhase:
    """MAIN legality and actions, tile tasks and combat."""

    def _t_hero(self) -> None:
        if self.neutral or not self.in_play(self.active):
            return
        self.current_player = self.active
        self._decide("MAIN", self._main_legal())

    # == MAIN legality ============================================================================
    def _main_legal(self) -> list[int]:
        p = self.active
        h = self.heroes[p]
        seat = self.seat_of[p]
        rel_t, t = C.REL_TILE[seat], h["tile"]
        legal = [END_TURN_ID]
        if not self.moved:
            ysolde = self.power_usable(p, C.YSOLDE)
            legal += [MOVE_ID + rel_t[u] for u in (_OTHERS[t] if ysolde else _NEIGHBOURS[t])]
        if not self.acted:
            if not self.grasped[t] and not self.sealed(t) and self.completable(self.layout[t]):
                legal.append(ACTIVATE_ID)
            for s in C.TILE_SPACES[t]:
                if self.spaces[s] >= 0:
                    legal.append(FIGHT_ID + (s - 3 * seat) % 12)
            if t == C.CENTRE and self.power_usable(p, C.TWINDALLI):
                legal += [FIGHT_ID + (s - 3 * seat) % 12 for s in C.MIDDLE_SPACES if self.spaces[s] >= 0]
            if t in C.CORNERS and all(self.spaces[s] >= 0 for s in C.TILE_SPACES[t]):
                legal.append(FIGHT_BOTH_ID)
        if h["cta"] > 0 and self.ongoing_count("ONG_NO_CTA") == 0:
            completable = self.completable_types()
            legal += [CTA_ID + rel_t[u] for u in range(9) if completable[self.layout[u]]]
        if not self.power_used and self.power_usable(p, C.MYLFAAR) and self._available("enchantment"):
            ench = self.elements["enchantment"]
            for s in range(12):
                if self.spaces[s] >= 0 and not (ench["state"] == DEPLOYED and ench["where"] == s):
                    legal.append(ENCHANT_ID + (s - 3 * seat) % 12)
        return legal

    def _main(self, name: str, args: tuple) -> None:
        p = self.active
        h = self.heroes[p]
        self.stack.append(["hero"])
        if name == "END_TURN":
            self.stack.pop()
        elif name == "MOVE_TO":
            h["tile"] = self._abs_tile(args[0])
            self.moved = True
        elif name == "ACTIVATE":
            self.acted = True
            tile_type = self.layout[h["tile"]]
            if self.power_usable(p, C.KAELA):
                self._push(["tile", tile_type, False], ["kaela", tile_type])
            else:
                self.stack.append(["tile", tile_type, False])
        elif name == "FIGHT":
            self._start_combat([self._abs_space(args[0])])
        elif name == "FIGHT_BOTH":
            self._start_combat(list(C.TILE_SPACES[h["tile"]]))
        elif name == "CALL_TO_ARMS":
            self._lose_cta(p, 1)
            self.stack.append(["tile", self.layout[self._abs_tile(args[0])], True])
        elif name == "ENCHANT":
            self.power_used = True
            self.elements["enchantment"].update(state=DEPLOYED, where=self._abs_space(args[0]))

    def _move_card(self, src: int, dest: int) -> None:
        self.spaces[dest], self.spaces[src] = self.spaces[src], -1
        self.sanct[dest], self.sanct[src] = self.sanct[src], -1
        for name in ("net", "enchantment"):
            e = self.elements[name]
            if e["state"] == DEPLOYED and e["where"] == src:
                e["where"] = dest
        trap = self.elements["trap"]
        if trap["state"] == DEPLOYED and trap["where"] == dest:
            self._return_element("trap")

    def _heal(self, q: int) -> None:
        h = self.heroes[q]
        h.update(status=IN, wounded=True, tile=self.tile_pos(C.DISPENSARY))
        self._gain_life(q, 3)
        self._gain_cta(q, 1)

    # -- tiles --
    def _t_tile(self, tile_type: int, via_cta: bool) -> None:
        if not self.in_play(self.active) or self.neutral or not self.completable(tile_type):
            return
        sp = self.spaces
        if tile_type == C.STANDARD:
            self._decide("STANDARD_COLOR", [COLOR_ID + c for c in range(5)])
        elif tile_type == C.QUARRY:
            trap = self.elements["trap"]
            at = trap["where"] if trap["state"] == DEPLOYED else -1
            self._decide_spaces("QUARRY_SPACE", [s for s in range(12) if sp[s] < 0 and s != at])
        elif tile_type == C.TREBUCHET:
            self._decide_spaces("TREBUCHET_TARGET", [s for s in range(12) if self._net_target(s)])
        elif tile_type == C.TOMB:
            self._decide_spaces("TOMB_TARGET", [s for s in range(12) if sp[s] >= 0 and not C.CARDS[sp[s]].warlord])
        elif tile_type == C.TOWER:
            self._decide_spaces("TOWER_SOURCE", [s for s in range(12) if sp[s] >= 0])
        elif tile_type == C.FOUNTAIN:
            self.current_player = self.controller()
            legal = [self._tl(t) for t in range(9) if self.grasped[t]]
            legal += [self._pl(p) for p in range(self.n) if self.in_play(p) and self.heroes[p]["board_grasped"]]
            legal += [self._sp(s) for s in range(12) if sp[s] >= 0]
            self._decide("FOUNTAIN_TARGET", legal)
        elif tile_type == C.MARKET:
            faces = [self.chance.roll(6), self.chance.roll(6)]
            whites = sum(1 for f in faces if f == C.WHITE)
            for f in faces:
                if f != C.WHITE:
                    self._gain_equip(self.active, f)
            self._push(*[["gain_color", whites - i] for i in range(whites)])
        elif tile_type == C.DISPENSARY:
            self.current_player = self.controller()
            self._decide("DISPENSARY_TARGET", [self._pl(p) for p in range(self.n) if self.heroes[p]["status"] == OUT])
        elif tile_type == C.GREAT_HALL:
            self._gain_life(self.active, 1)
            if not via_cta:
                self._gain_cta(self.active, 1)
            self._push(["draw", 1])

    def _t_kaela(self, tile_type: int) -> None:
        if self.power_usable(self.active, C.KAELA) and not self.neutral:
            self._push(["tile", tile_type, False])

    # -- combat --
    def pool(self) -> list[int]:
        """Equipment available to the active hero's combat, per colour."""
        equips = [self.heroes[p]["equip"] for p in self._pool_heroes()]  # the heroes once, not per colour
        return [sum(e[c] for e in equips) for c in range(5)]

    def _pool_heroes(self) -> list[int]:
        a = self.active
        t = self.heroes[a]["tile"]
        aldric_a = self.power_usable(a, C.ALDRIC)
        out = [a]
        for k in range(1, 4):
            p = self.player_at[(self.seat_of[a] + k) % 4]
            if p < 0 or not self.in_play(p):
                continue
            u = self.heroes[p]["tile"]
            near = u == t or ((aldric_a or self.power_usable(p, C.ALDRIC)) and C.adjacent(u, t))
            if near:
                out.append(p)
        return out

    def _combat_dice(self) -> int:
        n = 4 if self.power_usable(self.active, C.BRAKKA) else 3
        return max(1, n - self.ongoing_count("ONG_DIM"))

    def _plan(self, targets: list[int], dice: list[int], pool: list[int] | None):
        """Cheapest token spending (per colour, per target) that vanquishes every space in
        ``targets`` with these dice, or None. ``pool=None``: dice alone."""
        info = []
        for s in targets:
            card = C.CARDS[self.spaces[s]]
            info.append(
                (
                    card.color,
                    self.effective_resistance(s),
                    not self.suppressed(s) and card.central is not None and card.central.prim == "ONG_WARD",
                )
            )
        best = _plan(tuple(info), tuple(dice), None if pool is None else tuple(pool))
        return None if best is None else (list(best[0]), list(best[1]))

    def _combat_outcomes(self, targets: list[int], dice: list[int]) -> list[int]:
        pool = self.pool()
        subsets = {1: [0], 2: [1], 3: [0, 1]} if len(targets) == 2 else {1: [0]}
        achievable = {0: True}
        free = {0: True}
        for o, idx in subsets.items():
            ts = [targets[i] for i in idx]
            achievable[o] = self._plan(ts, dice, pool) is not None
            free[o] = self._plan(ts, dice, None) is not None
        legal = []
        for o in achievable:
            if not achievable[o]:
                continue
            mine = set(subsets.get(o, []))
            if any(free[q] and set(subsets.get(q, [])) > mine for q in free):
                continue
            legal.append(o)
        return legal

    def _start_combat(self, targets: list[int]) -> None:
        self.acted = True
        dice = [self.chance.roll(6) for _ in range(self._combat_dice())]
        self._decide(
            "COMBAT_RESOLVE", [RESOLVE_ID + o for o in self._combat_outcomes(targets, dice)], targets=targets, dice=dice
        )

    def _resolve_combat(self, d: dict, outcome: int) -> None:
        targets = d["targets"]
        idx = {0: [], 1: [0], 2: [1], 3: [0, 1]}[outcome]
        if not idx:
            return
        chosen = [targets[i] for i in idx]
        need, _ = self._plan(chosen, d["dice"], self.pool())
        payers = self._pool_heroes()
        for c in range(5):
            for p in payers:
                while need[c] > 0 and self.heroes[p]["equip"][c] > 0:
                    self._lose_equip(p, c)
                    need[c] -= 1
        for s in chosen:  # vanquished now; the exit effects follow while the cards are still on their spaces
            if C.CARDS[self.spaces[s]].warlord:
                self.vanquished += 1
                self.counters["warlord"] += 1
            else:
                self.counters["monster"] += 1
        # card by card, FIRST then SECOND (2.9 step 7): a card with an exit effect resolves it, then
        # leaves; one without just leaves. Two exit effects are ordered by the controller (EFFECT_ORDER).
        items = [[k, ["exit", s, self.spaces[s]]] for k, s in enumerate(chosen) if C.CARDS[self.spaces[s]].exit]
        if len(items) == 2:
            self._push(["order", "exit", items], ["victory"])
        else:
            tasks = [["exit" if C.CARDS[self.spaces[s]].exit else "remove", s, self.spaces[s]] for s in chosen]
            self._push(*tasks, ["victory"])

    def _t_exit(self, s: int, card: int) -> None:
        if self.spaces[s] != card:
            return
        self.stack.append(["remove", s, card])
        e = C.CARDS[card].exit
        if e is not None:
            self._push(["fx", e.prim, e.arg, s, -1, "card"])

    def _t_remove(self, s: int, card: int) -> None:
        if self.spaces[s] == card:
            self._remove_card(s, True)
