"""A rule-based Last Bastion bot: ``HeuristicBot().act_state(state)`` -> a legal action id.

It reads only public information through the state's documented attributes (heroes, spaces,
tiles, elements, the deck size, the pending decision and its legal ids); never the deck order or
set-aside cards.

Every card in play gets a *threat* (what it costs the team per round: its recurring or ongoing
effect, whether it fills a board, a Warlord's weight, which grows as the deck runs out). MAIN, in
order: heal a taken-out hero at the Dispensary and clear a Grasp when two tiles are grasped (by Call
to Arms when not standing there); set the Trap with a Call to Arms while it is home; Mylfaar
enchants the Warlord or the card she is about to fight; plant the Standard on a Warlord's colour and
buy Equipment at the Market by Call to Arms before a hard Warlord fight; then the best of "act here"
and "move, then act there", where a fight is worth the threat removed times its success chance
(binomial over the dice, each die matching with probability 1/3, after the tokens of the pool) and
a tile action has a fixed worth (Quarry while the Trap is home, Market when short of Equipment and
not about to lose it to Plague Wind, Great Hall when low on Life, the Tomb only against a card that
costs Life or a Grasp every round); after acting, a hero that has not moved steps towards the
Warlord or the biggest threat, next to a partner when it can. Sub-decisions: the largest combat
outcome, the Trap space when a card can go on it, a victim who can pay the effect without losing
Life, Equipment in the colours of cards in play, and so on.
"""

from __future__ import annotations

from math import comb

import numpy as np

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT

#: threat of a central effect per round (ongoing effects hit every combat)
BAD_CENTRAL = {
    "GRASP_FRONT": 5,
    "LOSE_LIFE": 4,
    "GRASP_HERE": 4,
    "CORRUPT": 3,
    "DRAW_HORDE": 3,
    "ONG_NO_CTA": 2,
    "ONG_DIM": 2,
    "DISCARD_ALL_EQUIP": 2,
    "DISCARD_EQUIP": 1,
    "LOSE_CTA": 1,
    "ONG_WARD": 1,
    "ONG_SEAL": 1,
}
#: how bad a full board's effect is (red and yellow cost Life or a Grasp)
FULL_BOARD = (2.0, 1.2, 1.0, 2.0)


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
        warlord_weight: float = 6.0,
        full_board_weight: float = 1.0,
        market_value: float = 1.0,
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

    @staticmethod
    def _central(state, s: int) -> str:
        card = C.CARDS[state.spaces[s]]
        if card.central is None or state.suppressed(s):
            return ""
        return card.central.prim

    @staticmethod
    def _board_full(state, board: int) -> bool:
        return all(state.spaces[3 * board + k] >= 0 for k in range(3))

    def _threat(self, state, s: int) -> float:
        """What removing the card on space ``s`` is worth (1 = a plain Monster)."""
        card = C.CARDS[state.spaces[s]]
        if card.warlord:
            left = len(state.deck)  # public: the deck size
            return self.warlord_weight * (3.0 if left <= 4 else 1.5 if left <= 8 else 1.0)
        v = 1.0 + 0.25 * BAD_CENTRAL.get(self._central(state, s), 0)
        if self._central(state, s) == "GRASP_FRONT" and not state.grasped[C.SPACE_FACES[s]]:
            v += 0.5 * sum(state.grasped)
        if self._board_full(state, s // 3):
            v += self.full_board_weight * FULL_BOARD[s // 3] / 2
        return v

    @staticmethod
    def _net_target(state, s: int) -> bool:
        net = state.elements["net"]
        netted = net["state"] == "deployed" and net["where"] == s
        return state.spaces[s] >= 0 and not C.CARDS[state.spaces[s]].warlord and not netted

    def _pool(self, state, tile: int) -> list[int]:
        p = state.active
        pool = [0] * 5
        aldric = state.power_usable(p, C.ALDRIC)
        for q, h in enumerate(state.heroes):
            if h["status"] != "in":
                continue
            near = q == p or h["tile"] == tile
            if not near and (aldric or state.power_usable(q, C.ALDRIC)) and C.adjacent(h["tile"], tile):
                near = True
            if near:
                for c in range(5):
                    pool[c] += h["equip"][c]
        return pool

    def _dice(self, state) -> int:
        p = state.active
        return max(1, 3 + (1 if state.power_usable(p, C.BRAKKA) else 0) - state.ongoing_count("ONG_DIM"))

    def _chance(self, state, spaces: list[int], tile: int, bonus: int = 0) -> float:
        pool = self._pool(state, tile)
        need = 0
        for s in spaces:
            card = C.CARDS[state.spaces[s]]
            ward = self._central(state, s) == "ONG_WARD"
            r = max(0, state.effective_resistance(s) - bonus)
            tokens = 0 if ward else min(pool[card.color], r)
            pool[card.color] -= tokens
            need += r - tokens
        return p_at_least(need, self._dice(state))

    def _fight_value(self, state, spaces: list[int], tile: int) -> float:
        """Expected value of fighting ``spaces`` (one, or a corner pair) from ``tile``."""
        return sum(self._threat(state, s) for s in spaces) * self._chance(state, spaces, tile)

    def _targets_from(self, state, tile: int) -> list[list[int]]:
        occupied = [s for s in C.TILE_SPACES[tile] if state.spaces[s] >= 0]
        if tile == C.CENTRE and state.power_usable(state.active, C.TWINDALLI):
            occupied = [s for s in C.MIDDLE_SPACES if state.spaces[s] >= 0]
        out = [[s] for s in occupied]
        if tile in C.CORNERS and len(occupied) == 2:
            out.append(occupied)
        return out

    def _best_fight_from(self, state, tile: int) -> tuple[float, list[int]]:
        best = (0.0, [])
        for ts in self._targets_from(state, tile):
            best = max(best, (self._fight_value(state, ts, tile), ts))
        return best

    def _colour_need(self, state) -> list[float]:
        need = [0.0] * 5
        for s in range(12):
            if state.spaces[s] >= 0:
                card = C.CARDS[state.spaces[s]]
                need[card.color] += state.effective_resistance(s) * (4 if card.warlord else 1)
        return need

    def _warlords(self, state) -> list[int]:
        return [s for s in range(12) if state.spaces[s] >= 0 and C.CARDS[state.spaces[s]].warlord]

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
            return 4.0 if g >= 2 else (1.5 if g == 1 else 0.0)
        if tile_type == C.QUARRY:
            return 0.9 if state.elements["trap"]["state"] == "home" else 0.0
        if tile_type == C.TREBUCHET:
            worst = max(
                (
                    BAD_CENTRAL.get(self._central(state, s), 0)
                    for s in cards
                    if self._net_target(state, s) and self._central(state, s) not in ("", "ONG_WARD")
                ),
                default=0,
            )
            return 0.3 * worst
        if tile_type == C.TOMB:
            if h["life"] < 3:
                return 0.0
            worst = max(
                (
                    self._threat(state, s)
                    for s in cards
                    if not C.CARDS[state.spaces[s]].warlord and self._central(state, s) in ("LOSE_LIFE", "GRASP_FRONT")
                ),
                default=0.0,
            )
            return 0.6 * worst if worst >= 2.5 else 0.0
        if tile_type == C.MARKET:
            if self._board_full(state, C.GREEN) and state.board == C.GREEN:
                return 0.2  # Plague Wind takes it all back at the next green board-turn
            if self._warlords(state):
                return 1.5 * self.market_value
            return self.market_value if sum(h["equip"]) < 3 else 0.3
        if tile_type == C.STANDARD:
            return 0.2
        if tile_type == C.GREAT_HALL:
            if h["life"] <= 1:
                return 1.6
            return 0.7 if h["life"] <= 2 and state.reserve_cta > 0 else 0.0
        return 0.0

    def _reachable(self, state) -> list[int]:
        p = state.active
        t = state.heroes[p]["tile"]
        if state.power_usable(p, C.YSOLDE):
            return [u for u in range(9) if u != t]
        return [u for u in range(9) if C.adjacent(u, t)]

    def _act_value(self, state, tile: int) -> float:
        fight = self._best_fight_from(state, tile)[0]
        ok = not state.grasped[tile] and not state.sealed(tile)
        act = self._tile_value(state, state.layout[tile]) if ok else 0.0
        return max(fight, act)

    def _main(self, state, acts) -> int | None:
        p = state.active
        h = state.heroes[p]
        names: dict[str, list] = {}
        for a, name, args in acts:
            names.setdefault(name, []).append((a, args))
        here = state.layout[h["tile"]]
        ctas = {state.layout[self._abs_tile(state, args[0])]: a for a, args in names.get("CALL_TO_ARMS", [])}
        warlords = self._warlords(state)
        # Calls to Arms for urgent tiles
        for tile_type in (C.DISPENSARY, C.FOUNTAIN):
            if tile_type in ctas and self._tile_value(state, tile_type) >= 4.0:
                if not ("ACTIVATE" in names and here == tile_type):
                    return ctas[tile_type]
        if (
            C.QUARRY in ctas
            and self._tile_value(state, C.QUARRY) > 0
            and not ("ACTIVATE" in names and here == C.QUARRY)
        ):
            if h["cta"] >= 2 or len([s for s in range(12) if state.spaces[s] >= 0]) >= 6:
                return ctas[C.QUARRY]
        # the Standard on a Warlord's colour just before fighting it
        if warlords and not state.acted and C.STANDARD in ctas:
            std = state.elements["standard"]
            colours = {C.CARDS[state.spaces[s]].color for s in warlords}
            if not (std["state"] == "deployed" and std["where"] in colours):
                for ts in self._targets_from(state, h["tile"]):
                    if any(s in warlords for s in ts) and self._chance(state, ts, h["tile"], 1) >= 0.25:
                        return ctas[C.STANDARD]
        # Equipment from the Market by Call to Arms just before a hard Warlord fight
        if warlords and not state.acted and C.MARKET in ctas:
            for ts in self._targets_from(state, h["tile"]):
                if any(s in warlords for s in ts) and self._chance(state, ts, h["tile"]) < 0.5:
                    return ctas[C.MARKET]
        # Mylfaar: the Enchantment on the Warlord, or on what she is about to fight
        if "ENCHANT" in names:
            ench = None
            if warlords:
                ench = warlords[0]
            elif not state.acted:
                best = self._best_fight_from(state, h["tile"])
                if best[1]:
                    ench = max(best[1], key=lambda s: state.effective_resistance(s))
            if ench is not None:
                for a, args in names["ENCHANT"]:
                    if self._abs_space(state, args[0]) == ench:
                        return a
        activate = self._tile_value(state, here) if "ACTIVATE" in names else 0.0
        if activate >= 4.0:
            return names["ACTIVATE"][0][0]
        best = (0.0, None)
        if not state.acted:
            for a, args in names.get("FIGHT", []):
                s = self._abs_space(state, args[0])
                best = max(best, (self._fight_value(state, [s], h["tile"]), a), key=lambda x: x[0])
            for a, _ in names.get("FIGHT_BOTH", []):
                ts = list(C.TILE_SPACES[h["tile"]])
                best = max(best, (self._fight_value(state, ts, h["tile"]), a), key=lambda x: x[0])
        here_value = max(best[0], activate)
        if not state.acted and "MOVE_TO" in names:
            options = []
            for a, args in names["MOVE_TO"]:
                t = self._abs_tile(state, args[0])
                options.append((self._act_value(state, t), a))
            options.sort(reverse=True)
            if options and options[0][0] > here_value + 0.05 and options[0][0] >= 0.2:
                return options[0][1]
        if not state.acted:
            if best[1] is not None and best[0] >= activate and best[0] > 0.05:
                return best[1]
            if activate > 0.1:
                return names["ACTIVATE"][0][0]
        # after acting: step towards the Warlord or the biggest threat, next to a partner if possible
        if "MOVE_TO" in names:
            pos = self._position_value(state, h["tile"])
            options = []
            for a, args in names["MOVE_TO"]:
                t = self._abs_tile(state, args[0])
                options.append((self._position_value(state, t), a))
            options.sort(reverse=True)
            if options and options[0][0] > pos + 0.1:
                return options[0][1]
        return LAYOUT.encode("END_TURN")

    def _position_value(self, state, tile: int) -> float:
        """Where to wait for the next turn: the threats reachable with one step, a partner's tokens."""
        v = 0.0
        for u in range(9):
            if u == tile or C.adjacent(u, tile):
                for ts in self._targets_from(state, u):
                    v = max(v, sum(self._threat(state, s) for s in ts) * (1.0 if u == tile else 0.8))
        p = state.active
        for q, h in enumerate(state.heroes):
            if q != p and h["status"] == "in" and h["tile"] == tile:
                v += 0.3 * min(sum(h["equip"]), 3)
        for w in self._warlords(state):
            if C.SPACE_FACES[w] == tile:  # gather on the Warlord's tile: its fighter uses our tokens
                v += 2.0 + state.heroes[p]["equip"][C.CARDS[state.spaces[w]].color]
        return v

    def _combat_resolve(self, state, acts) -> int | None:
        targets = state.decision["targets"]
        best = None
        for a, _, args in acts:
            o = args[0]
            chosen = {0: [], 1: [0], 2: [1], 3: [0, 1]}[o]
            v = sum(self._threat(state, targets[i]) for i in chosen)
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _place_card(self, state, acts) -> int | None:
        trap = state.elements["trap"]
        card = C.CARDS[state.decision["card"]]
        heroes_tiles = [h["tile"] for h in state.heroes if h["status"] == "in"]
        best = None
        for a, _, args in acts:
            s = self._abs_space(state, args[0])
            v = 0.0
            if trap["state"] == "deployed" and trap["where"] == s and not card.warlord:
                v += 10
            t = C.SPACE_FACES[s]
            grasps = card.entrance == C.E("GRASP_FRONT") or (
                card.central is not None and card.central.prim == "GRASP_FRONT"
            )
            if state.grasped[t] and grasps:
                v += 3  # a Grasp there does nothing
            if card.central is not None and card.central.prim == "ONG_SEAL":
                v -= 0.5 * (state.layout[t] in (C.DISPENSARY, C.FOUNTAIN, C.QUARRY, C.MARKET))
            v += sum(1 for u in heroes_tiles if u == t or C.adjacent(u, t)) * 0.5
            board = s // 3
            if sum(state.spaces[3 * board + k] >= 0 for k in range(3)) == 2:
                v -= 1.5  # this placement fills that board
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _choose_victim(self, state, acts) -> int | None:
        prim = state.decision["task"][1]

        def value(args):
            q = self._player(state, args[0])
            h = state.heroes[q]
            eq, cta, life = sum(h["equip"]), h["cta"], h["life"]
            if prim == "PLAGUE_WIND" or prim == "DISCARD_ALL_EQUIP":
                return (1, -eq, life) if eq > 0 else (0, 0, life)
            if prim == "SOUL_DRAIN":
                return (1, cta, life) if cta > 0 else (0, 0, life)
            if prim in ("DISCARD_EQUIP",):
                return (1, eq, life)
            if prim == "LOSE_CTA":
                return (1, cta, life)
            if prim == "GRASP_BOARD":
                return (1, int(h["wounded"]), life)
            return (1, life, eq + cta)

        return max(acts, key=lambda x: value(x[2]))[0]

    def _discard_color(self, state, acts) -> int | None:
        need = self._colour_need(state)
        return min(acts, key=lambda x: need[x[2][0]])[0]

    def _gain_color(self, state, acts) -> int | None:
        need = self._colour_need(state)
        return max(acts, key=lambda x: (need[x[2][0]], x[2][0] == C.BLACK))[0]

    def _standard_color(self, state, acts) -> int | None:
        warlords = self._warlords(state)
        if warlords:
            colour = C.CARDS[state.spaces[warlords[0]]].color
            for a, _, args in acts:
                if args[0] == colour:
                    return a
        return self._gain_color(state, acts)

    def _quarry_space(self, state, acts) -> int | None:
        """The Trap on the next board to draw, on a board that would become full."""
        me = state.seat_of[state.active] if state.active >= 0 else state.board
        nxt = None
        for k in range(1, 5):
            q = state.player_at[(me + k) % 4]
            if q >= 0 and state.heroes[q]["status"] == "in":
                nxt = (me + k) % 4
                break

        def value(args):
            s = self._abs_space(state, args[0])
            b = s // 3
            cards = sum(state.spaces[3 * b + k] >= 0 for k in range(3))
            return (b == nxt) * 2 + (cards == 2) * 1.5 + (state.player_at[b] >= 0) * 0.5

        return max(acts, key=lambda x: value(x[2]))[0]

    def _bad_card(self, state, acts) -> int | None:
        def value(args):
            s = self._abs_space(state, args[0])
            return self._threat(state, s) * 2 + C.CARDS[state.spaces[s]].resistance

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
