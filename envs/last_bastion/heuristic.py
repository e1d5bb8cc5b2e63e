"""A rule-based Last Bastion bot: ``HeuristicBot().act_state(state)`` -> a legal action id.

It reads only public information through the state's documented attributes (heroes, spaces,
tiles, elements, the pending decision and its legal ids); never the deck order or set-aside cards.

MAIN, in order: heal a taken-out hero at the Dispensary; clear a Grasp with the Fountain when two tiles
are grasped (standing on it or by Call to Arms); fight the best target when the success chance
(binomial over the dice, each die matching with probability 1/3, tokens of the pool counted) is at
least ``fight_threshold`` (Warlords count ``warlord_weight`` times); otherwise move to the tile with the
best such fight; otherwise activate a useful tile (Market for Equipment, Great Hall when low on Life);
then end the turn. Sub-decisions: the largest combat outcome, the Trap space when a card can be placed
on it, victims with the most Life, Equipment in the colours of cards in play, and so on.
"""

from __future__ import annotations

from math import comb

import numpy as np

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT

BAD_CENTRAL = {
    "GRASP_FRONT": 5,
    "LOSE_LIFE": 4,
    "CORRUPT": 3,
    "DRAW_HORDE": 3,
    "ONG_NO_CTA": 2,
    "ONG_DIM": 2,
    "DISCARD_ALL_EQUIP": 2,
    "DISCARD_EQUIP": 1,
    "LOSE_CTA": 1,
    "ONG_WARD": 1,
    "ONG_SEAL": 1,
    "GRASP_HERE": 4,
}


def p_at_least(k: int, d: int, p: float = 1 / 3) -> float:
    if k <= 0:
        return 1.0
    if k > d:
        return 0.0
    return sum(comb(d, i) * p**i * (1 - p) ** (d - i) for i in range(k, d + 1))


class HeuristicBot:
    def __init__(
        self,
        seed: int | None = None,
        fight_threshold: float = 0.25,
        warlord_weight: float = 3.0,
        full_board_weight: float = 1.0,
        market_value: float = 1.2,
    ):
        self.rng = np.random.default_rng(seed)
        self.fight_threshold = fight_threshold
        self.warlord_weight = warlord_weight
        self.full_board_weight = full_board_weight
        self.market_value = market_value

    # -- helpers over public state --
    @staticmethod
    def _decoded(state) -> list[tuple[int, str, tuple]]:
        return [(a, *LAYOUT.decode(a)) for a in state.legal_actions()]

    @staticmethod
    def _seat(state) -> int:
        return state.seat_of[state.current_player]

    def _abs_space(self, state, j: int) -> int:
        return (j + 3 * self._seat(state)) % 12

    def _abs_tile(self, state, t: int) -> int:
        return C.ABS_TILE[self._seat(state)][t]

    def _player(self, state, o: int) -> int:
        return state.player_at[(self._seat(state) + o) % 4]

    def _fight_value(self, state, spaces: list[int], tile: int) -> float:
        """Expected value of fighting ``spaces`` (one, or a corner pair) from ``tile``."""
        p = state.active
        pool = [0] * 5
        for q, h in enumerate(state.heroes):
            if h["status"] == "in" and (q == p or h["tile"] == tile):
                for c in range(5):
                    pool[c] += h["equip"][c]
        dice = 3 + (1 if state.power_usable(p, C.BRAKKA) else 0) - state.ongoing_count("ONG_DIM")
        dice = max(1, dice)
        need = 0
        value = 0.0
        for s in spaces:
            card = C.CARDS[state.spaces[s]]
            ward = card.central is not None and card.central.prim == "ONG_WARD" and not state.suppressed(s)
            r = state.effective_resistance(s)
            tokens = 0 if ward else min(pool[card.color], r)
            pool[card.color] -= tokens
            need += r - tokens
            value += (
                self.warlord_weight
                if card.warlord
                else 1.0 + 0.2 * BAD_CENTRAL.get(card.central.prim if card.central else "", 0)
            )
            board = s // 3
            if all(state.spaces[3 * board + k] >= 0 for k in range(3)):
                value += self.full_board_weight  # frees a full board from its full-board effect
        return value * p_at_least(need, dice)

    def _best_fight_from(self, state, tile: int) -> tuple[float, list[int]]:
        best = (0.0, [])
        occupied = [s for s in C.TILE_SPACES[tile] if state.spaces[s] >= 0]
        if tile == C.CENTRE and state.power_usable(state.active, C.TWINDALLI):
            occupied = [s for s in C.MIDDLE_SPACES if state.spaces[s] >= 0]
        for s in occupied:
            v = self._fight_value(state, [s], tile)
            best = max(best, (v, [s]))
        if tile in C.CORNERS and len(occupied) == 2 and tile != C.CENTRE:
            best = max(best, (self._fight_value(state, occupied, tile), occupied))
        return best

    def _colour_need(self, state) -> list[float]:
        need = [0.0] * 5
        for s in range(12):
            if state.spaces[s] >= 0:
                card = C.CARDS[state.spaces[s]]
                need[card.color] += state.effective_resistance(s) * (3 if card.warlord else 1)
        return need

    # -- decisions --
    def act_state(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = state.decision["kind"]
        handler = getattr(self, "_" + kind.lower(), None)
        choice = handler(state, self._decoded(state)) if handler else None
        if choice is None or choice not in legal:
            choice = int(self.rng.choice(legal))
        return int(choice)

    def _tile_value(self, state, tile_type: int) -> float:
        """How useful resolving that tile's action is now (0: not worth an action)."""
        p = state.active
        h = state.heroes[p]
        if not state.completable(tile_type):
            return 0.0
        cards = [s for s in range(12) if state.spaces[s] >= 0]
        if tile_type == C.DISPENSARY:
            return 5.0
        if tile_type == C.FOUNTAIN:
            g = sum(state.grasped)
            return 4.0 if g >= 2 else (2.0 if g == 1 else 0.0)
        if tile_type == C.TREBUCHET:
            worst = max(
                (
                    BAD_CENTRAL.get(C.CARDS[state.spaces[s]].central.prim, 0)
                    for s in cards
                    if state._net_target(s)
                    and C.CARDS[state.spaces[s]].central
                    and C.CARDS[state.spaces[s]].central.prim not in ("ONG_WARD",)
                ),
                default=0,
            )
            return 0.4 * worst
        if tile_type == C.TOMB:
            worst = max(
                (
                    BAD_CENTRAL.get(
                        C.CARDS[state.spaces[s]].central.prim if C.CARDS[state.spaces[s]].central else "", 0
                    )
                    + C.CARDS[state.spaces[s]].resistance
                    for s in cards
                    if not C.CARDS[state.spaces[s]].warlord
                ),
                default=0,
            )
            return 0.3 * worst if h["life"] >= 3 else 0.0
        if tile_type == C.MARKET:
            return self.market_value if sum(h["equip"]) < 4 else 0.3
        if tile_type == C.STANDARD:
            return 1.0 if any(C.CARDS[state.spaces[s]].warlord for s in cards) else 0.2
        if tile_type == C.GREAT_HALL:
            return 1.5 if h["life"] <= 1 and any(c < 0 for c in state.spaces) else 0.0
        return 0.0

    def _main(self, state, acts) -> int | None:
        p = state.active
        h = state.heroes[p]
        names = {}
        for a, name, args in acts:
            names.setdefault(name, []).append((a, args))
        here = state.layout[h["tile"]]
        # Calls to Arms for urgent tiles
        for a, args in names.get("CALL_TO_ARMS", []):
            tile_type = state.layout[self._abs_tile(state, args[0])]
            if tile_type in (C.DISPENSARY, C.FOUNTAIN) and self._tile_value(state, tile_type) >= 4.0:
                if not ("ACTIVATE" in names and here == tile_type):
                    return a
        activate = self._tile_value(state, here) if "ACTIVATE" in names else 0.0
        if activate >= 4.0:
            return names["ACTIVATE"][0][0]
        # fight
        best = (0.0, None)
        for a, args in names.get("FIGHT", []):
            s = self._abs_space(state, args[0])
            best = max(best, (self._fight_value(state, [s], h["tile"]), a), key=lambda x: x[0])
        for a, _ in names.get("FIGHT_BOTH", []):
            best = max(
                best, (self._fight_value(state, list(C.TILE_SPACES[h["tile"]]), h["tile"]), a), key=lambda x: x[0]
            )
        if best[1] is not None and best[0] >= max(self.fight_threshold, activate):
            return best[1]
        if activate >= 1.0:
            return names["ACTIVATE"][0][0]
        # move: towards a better fight or a useful tile
        if "MOVE_TO" in names and not state.acted:
            options = []
            for a, args in names["MOVE_TO"]:
                t = self._abs_tile(state, args[0])
                fight = self._best_fight_from(state, t)[0]
                tile = self._tile_value(state, state.layout[t]) if not state.grasped[t] else 0.0
                options.append((max(fight, 0.8 * tile), a))
            options.sort(reverse=True)
            if options and options[0][0] > max(best[0], activate) + 0.05:
                return options[0][1]
        if best[1] is not None and best[0] > 0.1:
            return best[1]
        if activate > 0.2:
            return names["ACTIVATE"][0][0]
        if "ENCHANT" in names:
            best_e = max(names["ENCHANT"], key=lambda x: C.CARDS[state.spaces[self._abs_space(state, x[1][0])]].warlord)
            return best_e[0]
        return LAYOUT.encode("END_TURN")

    def _combat_resolve(self, state, acts) -> int | None:
        targets = state.decision["targets"]
        best = None
        for a, _, args in acts:
            o = args[0]
            chosen = {0: [], 1: [0], 2: [1], 3: [0, 1]}[o]
            v = sum(10 if C.CARDS[state.spaces[targets[i]]].warlord else 1 for i in chosen)
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _place_card(self, state, acts) -> int | None:
        trap = state.elements["trap"]
        heroes_tiles = [h["tile"] for h in state.heroes if h["status"] == "in"]
        best = None
        for a, _, args in acts:
            s = self._abs_space(state, args[0])
            v = 0.0
            if trap["state"] == "deployed" and trap["where"] == s:
                v += 10
            t = C.SPACE_FACES[s]
            if state.grasped[t]:
                v += 1  # a GRASP_FRONT there does nothing
            v += sum(1 for u in heroes_tiles if u == t or C.adjacent(u, t)) * 0.5
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _choose_victim(self, state, acts) -> int | None:
        def value(args):
            h = state.heroes[self._player(state, args[0])]
            return h["life"] * 3 + sum(h["equip"]) + h["cta"]

        return max(acts, key=lambda x: value(x[2]))[0]

    def _discard_color(self, state, acts) -> int | None:
        need = self._colour_need(state)
        return min(acts, key=lambda x: need[x[2][0]])[0]

    def _gain_color(self, state, acts) -> int | None:
        need = self._colour_need(state)
        return max(acts, key=lambda x: (need[x[2][0]], x[2][0] == C.BLACK))[0]

    def _standard_color(self, state, acts) -> int | None:
        return self._gain_color(state, acts)

    def _bad_card(self, state, acts) -> int | None:
        def value(args):
            card = C.CARDS[state.spaces[self._abs_space(state, args[0])]]
            return BAD_CENTRAL.get(card.central.prim if card.central else "", 0) * 2 + card.resistance

        return max(acts, key=lambda x: value(x[2]))[0]

    _trebuchet_target = _bad_card
    _tomb_target = _bad_card
    _tower_source = _bad_card

    def _fountain_target(self, state, acts) -> int | None:
        for a, name, _ in acts:
            if name == "SELECT_TILE":
                return a
        for a, name, _ in acts:
            if name == "SELECT_PLAYER":
                return a
        return self._bad_card(state, acts)

    _purify_target = _fountain_target

    def _effect_order(self, state, acts) -> int | None:
        return acts[0][0]

    def __call__(self, state) -> int:
        return self.act_state(state)
