"""Last Bastion effects: who may suffer a primitive (``eligible``), the effect task ``fx`` for the
closed vocabulary of content primitives, and the Equipment choice tasks it raises. A mixin of
:class:`~envs.last_bastion.rules.LastBastionState`."""

from __future__ import annotations

from typing import Any

from envs.last_bastion import content as C
from envs.last_bastion.state import COLOR_ID


class Effects:
    """Effect tasks (``_t_fx``, ``_t_discard_equip``, ``_t_gain_color``) and eligibility."""

    # -- effects --
    def eligible(self, prim: str, p: int) -> bool:
        if not self.in_play(p):
            return False
        h = self.heroes[p]
        if prim in ("DISCARD_EQUIP", "DISCARD_ALL_EQUIP"):
            return sum(h["equip"]) > 0
        if prim == "LOSE_CTA":
            return h["cta"] > 0
        if prim == "GRASP_HERE":
            return not self.grasped[h["tile"]]
        if prim == "GRASP_BOARD":
            return not h["board_grasped"]
        if prim == "CORRUPT":
            return not self.power_usable(p, C.THORGRIM)
        if prim == "TO_CENTRE":
            return h["tile"] != C.CENTRE
        return True

    def _t_fx(self, prim: str, arg: Any, src: int, victim: int, origin: str) -> None:
        if prim in C.GAINS:
            if self.neutral or not self.in_play(self.active):
                return
            p = self.active
            if prim == "GAIN_LIFE":
                self._gain_life(p, arg)
            elif prim == "GAIN_CTA":
                self._gain_cta(p, arg)
            elif arg == C.ANY:
                self._push(["gain_color", 0])
            else:
                self._gain_equip(p, arg)
            return
        if prim == "DRAW_HORDE":
            self._push(["draw", arg])
            return
        if prim == "GRASP_FRONT":
            if src >= 0:
                self._grasp_tile(C.SPACE_FACES[src])
            return
        if prim == "SIEGE_BREACH":
            if self.grasped[C.SIEGE_TILE]:
                self._push(["fx", "LOSE_LIFE", 1, -1, -1, origin])
            else:
                self._grasp_tile(C.SIEGE_TILE)
            return
        if prim == "PURIFY":
            tiles = [t for t in range(9) if self.grasped[t]]
            players = [p for p in range(self.n) if self.in_play(p) and self.heroes[p]["board_grasped"]]
            if tiles or players:
                self.current_player = self.controller()
                self._decide("PURIFY_TARGET", [self._tl(t) for t in tiles] + [self._pl(p) for p in players])
            return
        # an effect with an affected player
        if victim < 0:
            if not self.neutral:
                if not self.eligible(prim, self.active):
                    return
                victim = self.active
            else:
                options = [p for p in range(self.n) if self.eligible(prim, p)]
                if not options:
                    return
                self.current_player = self.controller()
                self._decide(
                    "CHOOSE_VICTIM", [self._pl(p) for p in options], task=["fx", prim, arg, src, -1, origin], src=src
                )
                return
        if not self.eligible(prim, victim):
            return
        h = self.heroes[victim]
        if prim == "LOSE_LIFE":
            self._lose_life(victim, arg)
        elif prim == "DISCARD_EQUIP":
            self._push(["discard_equip", victim, arg])
        elif prim == "DISCARD_ALL_EQUIP":
            self._lose_all_equip(victim)
        elif prim == "LOSE_CTA":
            self._lose_cta(victim, arg)
        elif prim == "GRASP_HERE":
            self._grasp_tile(h["tile"])
        elif prim == "GRASP_BOARD":
            self._grasp_board(victim)
        elif prim == "TO_CENTRE":
            h["tile"] = C.CENTRE
        elif prim == "CORRUPT":
            face = C.CORRUPTION_FACES[self.chance.roll(6)]
            if face is not None:
                self._push(["fx", face.prim, face.arg, src, victim, "die"])
        elif prim == "PLAGUE_WIND":
            if sum(h["equip"]) > 0:
                self._lose_all_equip(victim)
            else:
                self._lose_life(victim, 1)
        elif prim == "SOUL_DRAIN":
            if h["cta"] > 0:
                self._lose_cta(victim, 1)
            else:
                self._lose_life(victim, 1)

    def _t_discard_equip(self, victim: int, n: int) -> None:
        if n <= 0 or not self.in_play(victim) or sum(self.heroes[victim]["equip"]) == 0:
            return
        colours = [c for c in range(5) if self.heroes[victim]["equip"][c] > 0]
        self.current_player = self.controller()
        self._decide("DISCARD_COLOR", [COLOR_ID + c for c in colours], victim=victim, left=n)

    def _t_gain_color(self, whites: int) -> None:
        if self.neutral or not self.in_play(self.active):
            return
        colours = [c for c in range(5) if self.reserve_equip[c] > 0]
        if colours:
            self._decide("GAIN_COLOR", [COLOR_ID + c for c in colours], whites=whites)
