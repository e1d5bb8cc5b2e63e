"""Heroes and Monsters rules, Combat (docs 2.2 step 5): attacks, markers, defeats, and the Plan
progress they make (4.3). A mixin of :class:`~.state.HeroesAndMonstersState`.
"""

from __future__ import annotations

from envs.heroes_and_monsters.common import ORIGIN_ADVERSARY
from envs.heroes_and_monsters.content import ADVERSARIES, ANY_RACE, INVADERS, PLANS


class CombatMixin:
    """ATTACK and the Plan bookkeeping it drives."""

    def _do_attack(self, column: int) -> None:
        self.dmg -= self.next_cost(column)
        self.markers[column] += 1
        self.markers_placed += 1
        self._shape("marker")
        iid = self.field[column]
        inv = INVADERS[iid]
        if self.plan >= 0 and PLANS[self.plan].thwart == "MARK" and PLANS[self.plan].race in (ANY_RACE, inv.race):
            self._progress()
        if not self.attacked[column]:
            self.attacked[column] = True
            for prim in inv.on_attacked:
                self._prim(prim, column, self.active)
        if self.markers[column] >= len(inv.health):
            for prim in inv.on_defeat:
                self._prim(prim, column, self.active)
            self.inv_discard.append(iid)
            self.field[column] = -1
            self.markers[column] = 0
            self.attacked[column] = False
            self.defeated += 1
            self._shape("defeat")
            if self.plan >= 0 and PLANS[self.plan].thwart == "DEF" and PLANS[self.plan].race in (ANY_RACE, inv.race):
                self._progress()
            if not ADVERSARIES[self.adversary].plans and self.defeated >= self.game.victory_target:
                self._end("victory")

    # -- Plans (4.3) ---------------------------------------------------------------------------
    def _next_plan(self) -> None:
        self.plan = self.plan_deck.pop(0) if self.plan_deck else -1
        self.plan_progress = 0
        self.plan_countdown = PLANS[self.plan].countdown if self.plan >= 0 else 0

    def _progress(self) -> None:
        """One event toward the active Plan (4.7); thwart, reward, victory check, next Plan."""
        self.plan_progress += 1
        if self.plan_progress < self.plan_required():
            return
        self.thwarted += 1
        self._shape("thwart")
        for prim in PLANS[self.plan].reward:
            self._prim(prim, ORIGIN_ADVERSARY, self.active)
        if self.thwarted >= ADVERSARIES[self.adversary].plans_in_play:
            self.plan = -1
            self._end("victory")
        self._next_plan()
