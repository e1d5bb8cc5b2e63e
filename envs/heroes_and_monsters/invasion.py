"""Heroes and Monsters rules, the Invasion and the restart of the round (docs 2.4, 2.5): every
Invader attacks its column, the Battlefield refills, the Plan countdown runs, the round limit and
the first-player marker. A mixin of :class:`~.state.HeroesAndMonstersState`.
"""

from __future__ import annotations

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.common import ORIGIN_ADVERSARY
from envs.heroes_and_monsters.content import ADVERSARIES, INVADERS, PLANS


class InvasionMixin:
    """The automatic end of a round."""

    def _invasion(self) -> None:
        """2.5: Threat and Plan effects, each Invader attacks its column, refill, ward reset."""
        adv = ADVERSARIES[self.adversary]
        for prim in adv.threat_start[self.threat() - 1]:
            self._prim(prim, ORIGIN_ADVERSARY, self.active)
        if self.plan >= 0:
            for prim in PLANS[self.plan].start:
                self._prim(prim, ORIGIN_ADVERSARY, self.active)
        for c in range(C.NUM_COLUMNS):
            if self.field[c] < 0:
                continue
            destroyed = 0
            for _ in range(self.fortress_damage(c)):
                destroyed += self._destroy(c)
            if destroyed:
                for prim in INVADERS[self.field[c]].on_damage:
                    self._prim(prim, c, self.active)
        for c in range(C.NUM_COLUMNS):
            if self.field[c] < 0:
                self._place_invader(c, self._draw_invader())
        self.ward = 0

    def _restart(self) -> None:
        """2.6: Plan countdown, round limit, first player rotation, next round."""
        if self.plan >= 0:
            self.plan_countdown -= 1
            if self.plan_countdown <= 0:
                for prim in PLANS[self.plan].fulfilment:
                    self._prim(prim, ORIGIN_ADVERSARY, self.active)
                self.plan_countdown = PLANS[self.plan].countdown
        if self.round >= self.game.options["max_rounds"]:
            self._end("round_limit")
        if self.game.options["rotate_first_player"]:
            self.first = (self.first + 1) % self.n
        self.round += 1
        self.turns_done = 0
        self._start_turn()

    # -- Invaders ------------------------------------------------------------------------------
    def _destroy(self, col: int) -> int:
        """An Invader destroys the first-row card of ``col``; the ward absorbs it first."""
        if self.ward > 0:
            self.ward -= 1
            return 0
        self.rubble.append(self.area[col])
        self._shape("fortress_lost")
        self._take_from_area(col)
        return 1

    def _draw_invader(self) -> int:
        if not self.inv_deck:
            self.inv_deck, self.inv_discard = self.inv_discard, []
            self.chance.shuffle(self.inv_deck)
        return self.inv_deck.pop()

    def _place_invader(self, col: int, iid: int) -> None:
        self.field[col] = iid
        self.markers[col] = 0
        self.attacked[col] = False
        for prim in INVADERS[iid].on_entry:
            self._prim(prim, col, self.active)
