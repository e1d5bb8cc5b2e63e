"""Last Bastion position analysis from public information: what each card in play threatens, the
chance of a fight, the worth of each tile's action, of acting from a tile, of waiting on one.

The heuristic bot (``heuristic.py``) decides with it, and the observation's hints block (``hints.py``)
shows its numbers; neither reaches into the other. It reads only the state's public attributes and
query methods (never the deck order or the set-aside cards) and draws no random numbers.
"""

from __future__ import annotations

from math import comb

from envs.last_bastion import content as C

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
    """The chance that at least ``k`` of ``d`` dice match, each with probability ``p``."""
    if k <= 0:
        return 1.0
    if k > d:
        return 0.0
    return sum(comb(d, i) * p**i * (1 - p) ** (d - i) for i in range(k, d + 1))


# == facts of the position =========================================================================
def central(state, s: int) -> str:
    """The active central primitive of the card on ``s`` ("" for none or suppressed)."""
    card = C.CARDS[state.spaces[s]]
    if card.central is None or state.suppressed(s):
        return ""
    return card.central.prim


def board_full(state, board: int) -> bool:
    return all(state.spaces[3 * board + k] >= 0 for k in range(3))


def net_target(state, s: int) -> bool:
    net = state.elements["net"]
    netted = net["state"] == "deployed" and net["where"] == s
    return state.spaces[s] >= 0 and not C.CARDS[state.spaces[s]].warlord and not netted


def pool(state, tile: int) -> list[int]:
    """The Equipment the active hero could spend in a fight from ``tile`` (partners there, Aldric's reach)."""
    p = state.active
    out = [0] * 5
    aldric = state.power_usable(p, C.ALDRIC)
    for q, h in enumerate(state.heroes):
        if h["status"] != "in":
            continue
        near = q == p or h["tile"] == tile
        if not near and (aldric or state.power_usable(q, C.ALDRIC)) and C.adjacent(h["tile"], tile):
            near = True
        if near:
            for c in range(5):
                out[c] += h["equip"][c]
    return out


def dice(state) -> int:
    p = state.active
    return max(1, 3 + (1 if state.power_usable(p, C.BRAKKA) else 0) - state.ongoing_count("ONG_DIM"))


def chance(state, spaces: list[int], tile: int, bonus: int = 0) -> float:
    """The chance that a fight from ``tile`` vanquishes ``spaces`` (``bonus``: resistance taken off each)."""
    tokens_left = pool(state, tile)
    need = 0
    for s in spaces:
        card = C.CARDS[state.spaces[s]]
        ward = central(state, s) == "ONG_WARD"
        r = max(0, state.effective_resistance(s) - bonus)
        tokens = 0 if ward else min(tokens_left[card.color], r)
        tokens_left[card.color] -= tokens
        need += r - tokens
    return p_at_least(need, dice(state))


def targets_from(state, tile: int) -> list[list[int]]:
    """What the active hero could fight from ``tile``: each card alone, and a corner's pair."""
    occupied = [s for s in C.TILE_SPACES[tile] if state.spaces[s] >= 0]
    if tile == C.CENTRE and state.power_usable(state.active, C.TWINDALLI):
        occupied = [s for s in C.MIDDLE_SPACES if state.spaces[s] >= 0]
    out = [[s] for s in occupied]
    if tile in C.CORNERS and len(occupied) == 2:
        out.append(occupied)
    return out


def colour_need(state) -> list[float]:
    """Per colour: the resistance in play (Warlords x4), what Equipment of that colour is worth."""
    need = [0.0] * 5
    for s in range(12):
        if state.spaces[s] >= 0:
            card = C.CARDS[state.spaces[s]]
            need[card.color] += state.effective_resistance(s) * (4 if card.warlord else 1)
    return need


def warlords(state) -> list[int]:
    """The spaces of the Warlords in play."""
    return [s for s in range(12) if state.spaces[s] >= 0 and C.CARDS[state.spaces[s]].warlord]


# == worths, with the heuristic's weights ==========================================================
class Analysis:
    """The worths of a position's choices under a set of weights (the heuristic bot's parameters).

    ``memo=True``: each card's threat is computed once and kept (call :meth:`forget` before looking
    at another position, or the same one changed): the hints ask for it once per tile that looks at it.
    """

    def __init__(
        self,
        warlord_weight: float = 6.0,
        full_board_weight: float = 1.0,
        market_value: float = 1.0,
        memo: bool = False,
    ):
        self.warlord_weight = warlord_weight
        self.full_board_weight = full_board_weight
        self.market_value = market_value
        self._threats: dict[int, float] | None = {} if memo else None

    def forget(self) -> None:
        """Drop the remembered threats (``memo=True``)."""
        if self._threats is not None:
            self._threats.clear()

    def threat(self, state, s: int) -> float:
        """What removing the card on space ``s`` is worth (1 = a plain Monster)."""
        memo = self._threats
        if memo is not None:
            v = memo.get(s)
            if v is None:
                v = memo[s] = self._threat(state, s)
            return v
        return self._threat(state, s)

    def _threat(self, state, s: int) -> float:
        card = C.CARDS[state.spaces[s]]
        if card.warlord:
            left = len(state.deck)  # public: the deck size
            return self.warlord_weight * (3.0 if left <= 4 else 1.5 if left <= 8 else 1.0)
        v = 1.0 + 0.25 * BAD_CENTRAL.get(central(state, s), 0)
        if central(state, s) == "GRASP_FRONT" and not state.grasped[C.SPACE_FACES[s]]:
            v += 0.5 * sum(state.grasped)
        if board_full(state, s // 3):
            v += self.full_board_weight * FULL_BOARD[s // 3] / 2
        return v

    def fight_value(self, state, spaces: list[int], tile: int) -> float:
        """Expected value of fighting ``spaces`` (one, or a corner pair) from ``tile``."""
        return sum(self.threat(state, s) for s in spaces) * chance(state, spaces, tile)

    def best_fight_from(self, state, tile: int) -> tuple[float, list[int]]:
        best = (0.0, [])
        for ts in targets_from(state, tile):
            best = max(best, (self.fight_value(state, ts, tile), ts))
        return best

    def tile_value(self, state, tile_type: int) -> float:
        """How useful resolving that tile's action is now for the active hero (0: not worth an action)."""
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
                    BAD_CENTRAL.get(central(state, s), 0)
                    for s in cards
                    if net_target(state, s) and central(state, s) not in ("", "ONG_WARD")
                ),
                default=0,
            )
            return 0.3 * worst
        if tile_type == C.TOMB:
            if h["life"] < 3:
                return 0.0
            worst = max(
                (
                    self.threat(state, s)
                    for s in cards
                    if not C.CARDS[state.spaces[s]].warlord and central(state, s) in ("LOSE_LIFE", "GRASP_FRONT")
                ),
                default=0.0,
            )
            return 0.6 * worst if worst >= 2.5 else 0.0
        if tile_type == C.MARKET:
            if board_full(state, C.GREEN) and state.board == C.GREEN:
                return 0.2  # Plague Wind takes it all back at the next green board-turn
            if warlords(state):
                return 1.5 * self.market_value
            return self.market_value if sum(h["equip"]) < 3 else 0.3
        if tile_type == C.STANDARD:
            return 0.2
        if tile_type == C.GREAT_HALL:
            if h["life"] <= 1:
                return 1.6
            return 0.7 if h["life"] <= 2 and state.reserve_cta > 0 else 0.0
        return 0.0

    def act_value(self, state, tile: int) -> float:
        """The best worth of acting from ``tile``: a fight there, or its action (not grasped or sealed)."""
        fight = self.best_fight_from(state, tile)[0]
        ok = not state.grasped[tile] and not state.sealed(tile)
        act = self.tile_value(state, state.layout[tile]) if ok else 0.0
        return max(fight, act)

    def position_value(self, state, tile: int) -> float:
        """Where to wait for the next turn: the threats reachable with one step, a partner's tokens."""
        v = 0.0
        for u in range(9):
            if u == tile or C.adjacent(u, tile):
                for ts in targets_from(state, u):
                    v = max(v, sum(self.threat(state, s) for s in ts) * (1.0 if u == tile else 0.8))
        p = state.active
        for q, h in enumerate(state.heroes):
            if q != p and h["status"] == "in" and h["tile"] == tile:
                v += 0.3 * min(sum(h["equip"]), 3)
        for w in warlords(state):
            if C.SPACE_FACES[w] == tile:  # gather on the Warlord's tile: its fighter uses our tokens
                v += 2.0 + state.heroes[p]["equip"][C.CARDS[state.spaces[w]].color]
        return v
