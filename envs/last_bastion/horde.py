"""Last Bastion, the Horde phase: board-turn tasks (start, recurring effects, board power, end)
and putting cards into play (draw, PLACE_CARD, the Trap). A mixin of
:class:`~envs.last_bastion.rules.LastBastionState`; the effects themselves are in ``effects.py``."""

from __future__ import annotations

from envs.last_bastion import content as C
from envs.last_bastion.state import DEPLOYED, EFFECT_ID


class HordePhase:
    """Board-turn and card-placement tasks (``_t_*``, run by ``StateBase._run``)."""

    # -- board-turn --
    def _t_turn_start(self) -> None:
        b = self.board
        self.board_turns += 1
        std = self.elements["standard"]
        if std["state"] == DEPLOYED and std["seat"] == b:
            self._return_element("standard")
        if b in self.sanct:  # this board's sanctified marks end
            self.sanct = [-1 if x == b else x for x in self.sanct]
        p = self.player_at[b]
        self.active = p if self.in_play(p) else -1
        self.neutral = self.active < 0
        self.acted = self.moved = self.power_used = False
        self._push(["recurring"], ["power"], ["hero"], ["turn_end"])

    def _t_recurring(self) -> None:
        items = []
        for slot in range(3):
            s = 3 * self.board + slot
            c = self.spaces[s]
            if c >= 0 and (e := C.CARDS[c].central) is not None and e.prim not in C.ONGOING and not self.suppressed(s):
                items.append([slot, ["rec", s, c]])
        if items:  # an "order" task without items does nothing
            self._push(["order", "rec", items])

    def _t_order(self, kind: str, items: list) -> None:
        if not items:
            return
        effects = {self._order_effect(kind, task) for _, task in items}
        if len(items) >= 2 and len(effects) >= 2 and self.game.options["effect_order"] == "choose":
            self._decide("EFFECT_ORDER", [EFFECT_ID + k for k, _ in items], order_kind=kind, items=items)
            return
        self._push(*[task for _, task in items])

    @staticmethod
    def _order_effect(kind: str, task: list):
        card = C.CARDS[task[2]]
        return card.central if kind == "rec" else card.exit

    def _t_rec(self, s: int, card: int) -> None:
        if self.spaces[s] == card and not self.suppressed(s):
            e = C.CARDS[card].central
            self._push(["fx", e.prim, e.arg, s, -1, "card"])

    def _t_power(self) -> None:
        b = self.board
        sp = self.spaces
        if sp[3 * b] >= 0 and sp[3 * b + 1] >= 0 and sp[3 * b + 2] >= 0:  # a full board
            prim = ("LOSE_LIFE", "PLAGUE_WIND", "SOUL_DRAIN", "SIEGE_BREACH")[b]
            self._push(["fx", prim, 1, -1, -1, "board"])
        elif not self.neutral:
            self._push(["draw", 1])

    def _t_turn_end(self) -> None:
        if self.board_turns >= self.game.options["max_board_turns"]:
            self.result = "truncated"
            return
        self.board = (self.board + 1) % 4
        self.stack.append(["turn_start"])

    def _t_victory(self) -> None:
        if self.vanquished >= self.W:
            self.result = "victory"

    # -- putting cards into play --
    def _t_draw(self, n: int) -> None:
        if n <= 0:
            return
        if n > 1:
            self.stack.append(["draw", n - 1])
        if not self.deck:
            self.result = "defeat_deck"
            return
        if all(c >= 0 for c in self.spaces):
            self._push(["fx", "LOSE_LIFE", 1, -1, -1, "full"])
            return
        card = self.deck.pop(0)
        self.placing = card
        free = [s for s in range(12) if self.spaces[s] < 0]
        colour = C.CARDS[card].color
        if not self.neutral and self.power_usable(self.active, C.OSWIN):
            legal = free
        else:
            target = colour if colour != C.BLACK else (self.seat_of[self.active] if not self.neutral else self.board)
            legal = [s for s in free if s // 3 == target] or free
        self.current_player = self.controller()
        self._decide_spaces("PLACE_CARD", legal, card=card)

    def _place(self, s: int) -> None:
        card = self.placing
        self.placing = -1
        trap = self.elements["trap"]
        if trap["state"] == DEPLOYED and trap["where"] == s:
            self._return_element("trap")
            if not C.CARDS[card].warlord:
                self.discard.append(card)
                return
        self.spaces[s] = card
        e = C.CARDS[card].entrance
        if e is not None:
            self._push(["fx", e.prim, e.arg, s, -1, "card"])
