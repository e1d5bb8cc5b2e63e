"""Last Bastion state bookkeeping: :class:`StateBase`, the fields of a game, its setup, the small
queries every phase asks, token and Grasp bookkeeping, and the task loop.

The phases are mixins over this base: ``horde.py`` (board-turns, putting cards into play),
``effects.py`` (card, board and die effects), ``hero.py`` (the Hero phase: MAIN, tiles, combat);
``rules.py`` assembles them into :class:`~envs.last_bastion.rules.LastBastionState` with the State
API. Constants shared by the phases are defined here and re-exported by ``rules.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.chance import Chance
from envs.core.game import State
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT

if TYPE_CHECKING:
    from envs.last_bastion.rules import LastBastionGame

IN, OUT, DEAD = "in", "out", "dead"
HOME, DEPLOYED, PARKED, GONE = "home", "deployed", "parked", "out"
RESULTS = {
    "victory": "every Warlord vanquished",
    "defeat_heroes": "no hero left in play",
    "defeat_grasp": "a third Bastion tile fell under the Grasp of Evil",
    "defeat_deck": "a Horde card had to be drawn from an empty deck",
    "truncated": "board-turn cap reached",
}
#: prims that need an affected player, and when a hero is eligible
VICTIM_PRIMS = frozenset(
    (
        "LOSE_LIFE",
        "DISCARD_EQUIP",
        "DISCARD_ALL_EQUIP",
        "LOSE_CTA",
        "GRASP_HERE",
        "GRASP_BOARD",
        "CORRUPT",
        "TO_CENTRE",
        "PLAGUE_WIND",
        "SOUL_DRAIN",
    )
)
SHAPED = {"monster": 0.02, "warlord": 0.2, "life_lost": -0.03, "grasp": -0.1, "purified": 0.05}

SPACE_ID = LAYOUT.start("SELECT_SPACE")
TILE_ID = LAYOUT.start("SELECT_TILE")
PLAYER_ID = LAYOUT.start("SELECT_PLAYER")
COLOR_ID = LAYOUT.start("SELECT_COLOR")
RESOLVE_ID = LAYOUT.start("RESOLVE")
EFFECT_ID = LAYOUT.start("RESOLVE_EFFECT")
MOVE_ID = LAYOUT.start("MOVE_TO")
FIGHT_ID = LAYOUT.start("FIGHT")
CTA_ID = LAYOUT.start("CALL_TO_ARMS")
ENCHANT_ID = LAYOUT.start("ENCHANT")
END_TURN_ID = LAYOUT.encode("END_TURN")
ACTIVATE_ID = LAYOUT.encode("ACTIVATE")
FIGHT_BOTH_ID = LAYOUT.encode("FIGHT_BOTH")


_IS_WARLORD = tuple(c.warlord for c in C.CARDS)
_TASK_HANDLERS: dict[type, dict[str, Any]] = {}


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


class StateBase(State):
    """Fields, setup, queries, tokens, Grasp and elements, and the task loop of a Last Bastion state."""

    FIELDS = (
        "seat_of",
        "player_at",
        "layout",
        "grasped",
        "spaces",
        "sanct",
        "deck",
        "set_aside",
        "discard",
        "reserve_equip",
        "reserve_life",
        "reserve_cta",
        "board",
        "active",
        "neutral",
        "board_turns",
        "acted",
        "moved",
        "power_used",
        "decision",
        "stack",
        "result",
        "vanquished",
        "placing",
        "current_player",
        "counters",
        "last_rewards",
    )

    def __init__(self, game: LastBastionGame, chance: Chance):
        self.game = game
        self.chance = chance
        self.n = game.num_players
        self.W = game.warlords
        self.heroes: list[dict] = []
        self.seat_of: list[int] = []
        self.player_at = [-1] * 4
        self.layout = list(range(9))
        self.grasped = [False] * 9
        self.spaces = [-1] * 12
        self.sanct = [-1] * 12
        self.deck: list[int] = []
        self.set_aside: list[int] = []
        self.discard: list[int] = []
        self.reserve_equip = [C.EQUIP_PER_COLOR] * 5
        self.reserve_life = C.LIFE_TOTAL
        self.reserve_cta = C.CTA_TOTAL
        self.elements = {e: {"state": HOME, "where": -1, "seat": -1} for e in C.ELEMENTS}
        self.board = 0
        self.active = -1
        self.neutral = True
        self.board_turns = 0
        self.acted = self.moved = self.power_used = False
        self.decision: dict | None = None
        self.stack: list[list] = []
        self.result: str | None = None
        self.vanquished = 0
        self.placing = -1
        self.current_player = 0
        self.counters = {k: 0 for k in SHAPED}
        self.last_rewards = [0.0] * self.n

    # == setup ===================================================================================
    def _setup(self) -> None:
        ch, opt, n = self.chance, self.game.options, self.n
        if opt["tile_layout"] is not None:
            self.layout = [C.TILE_BY_NAME[name] for name in opt["tile_layout"]]
        else:
            ch.shuffle(self.layout)
        if opt["heroes"] is not None:
            heroes = [C.HERO_BY_NAME[h] for h in opt["heroes"]]
        else:
            pool = list(range(len(C.HEROES)))
            ch.shuffle(pool)
            heroes = pool[:n]
        seats = list(range(4))
        ch.shuffle(seats)
        occupied = sorted(seats[:n])
        first = occupied[ch.choice(n)]
        self.seat_of = sorted(occupied, key=lambda s: (s - first) % 4)
        self.player_at = [-1] * 4
        life = C.START_LIFE[n]
        for p, seat in enumerate(self.seat_of):
            self.player_at[seat] = p
            h = {
                "hero": heroes[p],
                "status": IN,
                "wounded": False,
                "life": 0,
                "cta": 0,
                "equip": [0] * 5,
                "tile": C.CENTRE,
                "board_grasped": False,
            }
            self.heroes.append(h)
            self._gain_life(p, life + (1 if heroes[p] == C.THORGRIM else 0))
            self._gain_cta(p, C.START_CTA[n])
            self._gain_equip(p, seat)
            if opt["difficulty"] == "novice":
                self._gain_equip(p, C.BLACK)
        if C.MYLFAAR not in heroes:
            self.elements["enchantment"]["state"] = GONE
        # deck: T monsters, then W x (Warlord, 8 monsters), top first
        monsters, warlords = list(C.MONSTERS), list(C.WARLORDS)
        ch.shuffle(monsters)
        ch.shuffle(warlords)
        m = C.monster_count(n, opt["difficulty"])
        used, self.set_aside = monsters[:m], monsters[m:] + warlords[self.W :]
        top = m - 8 * self.W
        self.deck = used[:top]
        for i in range(self.W):
            self.deck += [warlords[i]] + used[top + 8 * i : top + 8 * i + 8]
        self.board = self.seat_of[0]
        self.stack = [["turn_start"]]

    # == small queries ===========================================================================
    def in_play(self, p: int) -> bool:
        return p >= 0 and self.heroes[p]["status"] == IN

    def power_usable(self, p: int, hero: int | None = None) -> bool:
        if p < 0:
            return False
        h = self.heroes[p]  # in_play(p), inlined: asked several times per step
        return h["status"] == IN and not h["wounded"] and not h["board_grasped"] and (hero is None or h["hero"] == hero)

    def suppressed(self, s: int) -> bool:
        net = self.elements["net"]
        return self.sanct[s] >= 0 or (net["state"] == DEPLOYED and net["where"] == s)

    def _central_effects(self) -> tuple:
        """``(key, ongoing counts, sealed tiles)`` of the cards in play: the active ongoing effects
        per ONG_ primitive, and the tiles facing an active ONG_SEAL card. Kept until the spaces, the
        sanctified marks or the Net change (the key holds copies of all of them, compared as lists)."""
        net = self.elements["net"]
        cached = self.__dict__.get("_central_cache")
        if (
            cached is None
            or cached[0][0] != self.spaces
            or cached[0][1] != self.sanct
            or cached[0][2] != net["state"]
            or cached[0][3] != net["where"]
        ):
            counts = dict.fromkeys(C.ONGOING, 0)
            sealed = set()
            for s in range(12):
                c = self.spaces[s]
                if c >= 0:
                    e = C.CARDS[c].central
                    if e is not None and e.prim in counts and not self.suppressed(s):
                        counts[e.prim] += 1
                        if e.prim == "ONG_SEAL":
                            sealed.add(C.SPACE_FACES[s])
            key = (list(self.spaces), list(self.sanct), net["state"], net["where"])
            cached = self._central_cache = (key, counts, frozenset(sealed))
        return cached

    def ongoing_counts(self) -> dict[str, int]:
        """Active ongoing effects in play, per ONG_ primitive."""
        return dict(self._central_effects()[1])

    def ongoing_count(self, prim: str) -> int:
        return self._central_effects()[1][prim]

    def sealed_tiles(self) -> set[int]:
        """Tiles facing an active ONG_SEAL card."""
        return set(self._central_effects()[2])

    def sealed(self, t: int) -> bool:
        return t in self._central_effects()[2]

    def effective_resistance(self, s: int) -> int:
        card = C.CARDS[self.spaces[s]]
        r = card.resistance
        std, ench = self.elements["standard"], self.elements["enchantment"]
        if std["state"] == DEPLOYED and std["where"] == card.color:
            r -= 1
        if ench["state"] == DEPLOYED and ench["where"] == s:
            r -= 1
        return max(r, 0)

    def tile_pos(self, tile_type: int) -> int:
        return self.layout.index(tile_type)

    def _available(self, element: str) -> bool:
        e = self.elements[element]
        if element == "enchantment":
            m = self._mylfaar()
            return e["state"] in (HOME, DEPLOYED) and m >= 0 and self.power_usable(m)
        home = self.tile_pos(C.ELEMENT_HOME_TILE[element])
        return e["state"] == HOME or (e["state"] == DEPLOYED and not self.grasped[home])

    def _mylfaar(self) -> int:
        for p, h in enumerate(self.heroes):
            if h["hero"] == C.MYLFAAR:
                return p
        return -1

    def completable(self, tile_type: int) -> bool:
        sp = self.spaces
        if tile_type == C.STANDARD:
            return self._available("standard")
        if tile_type == C.QUARRY:
            trap = self.elements["trap"]["where"] if self.elements["trap"]["state"] == DEPLOYED else -1
            return self._available("trap") and any(sp[s] < 0 and s != trap for s in range(12))
        if tile_type == C.TREBUCHET:
            return self._available("net") and any(self._net_target(s) for s in range(12))
        if tile_type == C.TOMB:
            return any(sp[s] >= 0 and not C.CARDS[sp[s]].warlord for s in range(12))
        if tile_type == C.TOWER:
            return any(c >= 0 for c in sp) and any(c < 0 for c in sp)
        if tile_type == C.FOUNTAIN:
            return (
                any(self.grasped)
                or any(c >= 0 for c in sp)
                or any(self.in_play(p) and h["board_grasped"] for p, h in enumerate(self.heroes))
            )
        if tile_type == C.DISPENSARY:
            return self.reserve_life > 0 and any(h["status"] == OUT for h in self.heroes)
        return True  # Market, Great Hall

    def completable_types(self) -> list[bool]:
        """``completable(k)`` for every tile type k, in one pass over the spaces (the observation and
        the Calls to Arms of MAIN ask for all of them): counts of free spaces and Monsters stand for
        the per-space scans of :meth:`completable`."""
        sp, el, heroes = self.spaces, self.elements, self.heroes
        free = monsters = 0
        for c in sp:
            if c < 0:
                free += 1
            elif not _IS_WARLORD[c]:
                monsters += 1
        any_card, any_free = free < 12, free > 0
        out = [True] * len(C.TILES)  # Market, Great Hall
        out[C.STANDARD] = self._available("standard")
        # Quarry: a free space without the Trap; Trebuchet: a Monster without the Net
        trap, net = el["trap"], el["net"]
        if trap["state"] == DEPLOYED and 0 <= trap["where"] < 12 and sp[trap["where"]] < 0:
            free -= 1
        out[C.QUARRY] = free > 0 and self._available("trap")
        targets = monsters
        if net["state"] == DEPLOYED and 0 <= net["where"] < 12:
            c = sp[net["where"]]
            if c >= 0 and not _IS_WARLORD[c]:
                targets -= 1
        out[C.TREBUCHET] = targets > 0 and self._available("net")
        out[C.TOMB] = monsters > 0
        out[C.TOWER] = any_card and any_free
        board_grasped = out_hero = False  # a hero in play with a grasped board; a hero taken out
        for h in heroes:
            status = h["status"]
            board_grasped = board_grasped or (status == IN and h["board_grasped"])
            out_hero = out_hero or status == OUT
        out[C.FOUNTAIN] = any_card or any(self.grasped) or bool(board_grasped)
        out[C.DISPENSARY] = self.reserve_life > 0 and out_hero
        return out

    def _net_target(self, s: int) -> bool:
        net = self.elements["net"]
        c = self.spaces[s]
        return c >= 0 and not C.CARDS[c].warlord and not (net["state"] == DEPLOYED and net["where"] == s)

    def controller(self) -> int:
        heroes, a = self.heroes, self.active  # in_play(p), inlined: asked at every decision
        if not self.neutral and a >= 0 and heroes[a]["status"] == IN:
            return a
        for k in range(1, 5):
            p = self.player_at[(self.board + k) % 4]
            if p >= 0 and heroes[p]["status"] == IN:
                return p
        return -1

    def _seat(self) -> int:
        return self.seat_of[self.current_player]

    # == tokens ==================================================================================
    def _gain_life(self, p: int, n: int) -> None:
        k = min(n, self.reserve_life)
        self.reserve_life -= k
        self.heroes[p]["life"] += k

    def _gain_cta(self, p: int, n: int) -> None:
        k = min(n, self.reserve_cta)
        self.reserve_cta -= k
        self.heroes[p]["cta"] += k

    def _gain_equip(self, p: int, c: int) -> None:
        if self.reserve_equip[c] > 0:
            self.reserve_equip[c] -= 1
            self.heroes[p]["equip"][c] += 1

    def _lose_equip(self, p: int, c: int) -> None:
        if self.heroes[p]["equip"][c] > 0:
            self.heroes[p]["equip"][c] -= 1
            self.reserve_equip[c] += 1

    def _lose_all_equip(self, p: int) -> None:
        for c in range(5):
            self.reserve_equip[c] += self.heroes[p]["equip"][c]
            self.heroes[p]["equip"][c] = 0

    def _lose_cta(self, p: int, n: int) -> None:
        k = min(n, self.heroes[p]["cta"])
        self.heroes[p]["cta"] -= k
        self.reserve_cta += k

    def _lose_life(self, p: int, n: int) -> None:
        for _ in range(n):
            if not self.in_play(p):
                return
            h = self.heroes[p]
            h["life"] -= 1
            self.reserve_life += 1
            self.counters["life_lost"] += 1
            if h["life"] == 0:
                self._take_out(p)
                return

    def _take_out(self, p: int) -> None:
        h = self.heroes[p]
        self._lose_all_equip(p)
        self._lose_cta(p, h["cta"])
        h["tile"] = -1
        h["status"] = DEAD if h["wounded"] else OUT
        h["board_grasped"] = False
        if h["hero"] == C.MYLFAAR and self.elements["enchantment"]["state"] in (HOME, PARKED):
            self.elements["enchantment"]["state"] = GONE
        if p == self.active:
            self.neutral = True
        if not any(self.in_play(q) for q in range(self.n)):
            self.result = "defeat_heroes"

    # == grasp and elements ======================================================================
    def _grasp_tile(self, t: int) -> None:
        if t < 0 or self.grasped[t] or self._grasp_reserve() == 0:
            return
        self.grasped[t] = True
        self.counters["grasp"] += 1
        for name, home in C.ELEMENT_HOME_TILE.items():
            if self.layout[t] == home and self.elements[name]["state"] == HOME:
                self.elements[name]["state"] = PARKED
        if sum(self.grasped) >= 3:
            self.result = "defeat_grasp"

    def _ungrasp_tile(self, t: int) -> None:
        self.grasped[t] = False
        self.counters["purified"] += 1
        for name, home in C.ELEMENT_HOME_TILE.items():
            if self.layout[t] == home and self.elements[name]["state"] == PARKED:
                self.elements[name]["state"] = HOME

    def _grasp_board(self, p: int) -> None:
        h = self.heroes[p]
        if h["board_grasped"] or self._grasp_reserve() == 0:
            return
        h["board_grasped"] = True
        ench = self.elements["enchantment"]
        if h["hero"] == C.MYLFAAR and ench["state"] == HOME:
            ench["state"] = PARKED

    def _ungrasp_board(self, p: int) -> None:
        h = self.heroes[p]
        h["board_grasped"] = False
        self.counters["purified"] += 1
        ench = self.elements["enchantment"]
        if h["hero"] == C.MYLFAAR and ench["state"] == PARKED:
            ench["state"] = HOME

    def _grasp_reserve(self) -> int:
        return C.GRASP_TOTAL - sum(self.grasped) - sum(h["board_grasped"] for h in self.heroes)

    def _return_element(self, name: str) -> None:
        e = self.elements[name]
        e["where"], e["seat"] = -1, -1
        if name == "enchantment":
            m = self._mylfaar()
            if m < 0 or not self.in_play(m) or self.heroes[m]["wounded"]:
                e["state"] = GONE
            else:
                e["state"] = PARKED if self.heroes[m]["board_grasped"] else HOME
        else:
            e["state"] = PARKED if self.grasped[self.tile_pos(C.ELEMENT_HOME_TILE[name])] else HOME

    def _remove_card(self, s: int, vanquished: bool) -> None:
        card = self.spaces[s]
        self.spaces[s] = -1
        self.sanct[s] = -1
        self.discard.append(card)
        for name in ("net", "enchantment"):
            e = self.elements[name]
            if e["state"] == DEPLOYED and e["where"] == s:
                self._return_element(name)

    # == the task loop ===========================================================================
    def _run(self) -> None:
        handlers = _TASK_HANDLERS.get(type(self))
        if handlers is None:  # task name -> the class's ``_t_<name>``, looked up once per class
            handlers = _TASK_HANDLERS[type(self)] = {
                name[3:]: getattr(type(self), name) for name in dir(type(self)) if name.startswith("_t_")
            }
        while self.result is None and self.decision is None:
            task = self.stack.pop()
            handlers[task[0]](self, *task[1:])
        if self.result is not None:
            self.decision = None
            self.stack = []
            self.current_player = -1

    def _decide(self, kind: str, legal: list[int], **extra: Any) -> None:
        self.current_player = self.controller()
        self.decision = {"kind": kind, "legal": sorted(set(legal)), **extra}

    def _push(self, *tasks: list) -> None:
        """Push tasks so that the first one given runs first."""
        self.stack.extend(reversed(tasks))

    # -- rel ids for the controller (call after setting current_player) --
    def _sp(self, s: int) -> int:
        return SPACE_ID + (s - 3 * self._seat()) % 12

    def _tl(self, t: int) -> int:
        return TILE_ID + C.REL_TILE[self._seat()][t]

    def _pl(self, p: int) -> int:
        return PLAYER_ID + (self.seat_of[p] - self._seat()) % 4

    def _decide_spaces(self, kind: str, spaces: list[int], **extra: Any) -> None:
        """_decide with the spaces as ids in the controller's frame (the controller asked once)."""
        self.current_player = self.controller()
        seat3 = 3 * self._seat()
        self.decision = {"kind": kind, "legal": sorted({SPACE_ID + (s - seat3) % 12 for s in spaces}), **extra}
