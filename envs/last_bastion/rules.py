"""Last Bastion rules engine: :class:`LastBastionGame` (configuration) and :class:`LastBastionState`.

How the engine runs. A state holds a *stack of tasks* (small JSON-able lists such as
``["draw", 1]`` or ``["fx", "LOSE_LIFE", 1, src_space, victim, origin]``) and at most one pending
*decision* (a dict: its kind, the legal action ids, and what it needs to resume). ``apply`` feeds the
action to the decision's handler, which may push tasks; ``_run`` then pops tasks until one of them
raises the next decision or the game ends. Every board-turn is the tasks
``turn_start -> recurring -> power -> hero -> turn_end``, so a Hero phase, a chain of draws or a
Kaela double resolution are all just tasks on the stack (docs/last_bastion.md, "Engine").

Frames. Rules work in the absolute frame (board 0 red at the bottom, tiles 0-8 by position,
spaces 0-11). Actions and observations use the acting/observing seat's frame
(``content.REL_TILE``, relative space ``(s - 3 b) mod 12``, seat offsets).

Public attributes the heuristic bot may read (all public information): ``heroes``, ``seat_of``,
``player_at``, ``layout``, ``grasped``, ``spaces``, ``elements``, ``board``, ``active``,
``neutral``, ``acted``, ``moved``, ``current_player``, ``reserve_life``, ``reserve_cta``,
``reserve_equip``, ``decision`` (kind, legal ids, and the revealed ``card`` of PLACE_CARD, the
``task`` of CHOOSE_VICTIM, the ``targets`` and ``dice`` of COMBAT_RESOLVE), and the helper methods
``legal_actions``, ``effective_resistance``, ``completable``, ``power_usable``, ``ongoing_count``,
``suppressed``, ``sealed``, and ``len(deck)`` (the deck size is public). The deck order and
``set_aside`` are hidden and must not be read by a player.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Game, Outcome, State
from envs.core.options import OBSERVATION_MODE, Option, is_int_in, num_players_option, reward_scheme_option
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT, OUTCOMES
from envs.last_bastion.observation import OBSERVATION_LAYOUT, OBSERVATION_LAYOUT_CARD_IDS, observe

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


def _heroes_ok(v: Any) -> bool:
    if v is None:
        return True
    names = list(v)
    return all(n in C.HERO_BY_NAME for n in names) and len(set(names)) == len(names) and 1 <= len(names) <= 4


def _layout_ok(v: Any) -> bool:
    return v is None or (sorted(v) == sorted(t.name for t in C.TILES))


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(1, 4, 4),
    reward_scheme_option(
        "win_loss",
        ("win_loss",),
        {
            "score_sheet": "victory 1 + S/20 (S the score-sheet total), defeat -1, truncation 0",
            "shaped": "win_loss plus dense team terms: +0.02 per Monster and +0.2 per Warlord vanquished, "
            "-0.03 per Life lost, -0.1 per tile grasped, +0.05 per Grasp removed",
        },
    ),
    Option(
        "difficulty",
        "normal",
        '"novice", "normal", "difficult" or "heroic"',
        "deck size, Warlords, Novice extras",
        choices=C.DIFFICULTIES,
    ),
    Option(
        "heroes",
        None,
        "None (random) or a list of num_players distinct hero names " + ", ".join(h.name for h in C.HEROES),
        "heroes in agent order (player_0 first)",
        check=_heroes_ok,
    ),
    Option(
        "effect_order",
        "choose",
        '"choose" or "fixed"',
        "the controller orders simultaneous differing effects, or slot order",
        choices=("choose", "fixed"),
    ),
    Option(
        "max_board_turns",
        400,
        "an integer 1..10000",
        "truncation cap in board-turns (neutral ones included)",
        check=is_int_in(1, 10_000),
    ),
    Option(
        "obs_card_ids",
        False,
        "True or False",
        "append a card-id one-hot per space and for the pending card (+780 floats)",
        check=lambda v: isinstance(v, bool),
    ),
    Option(
        "tile_layout",
        None,
        "None (random) or a list of the 9 tile names",
        "fixed Bastion layout, by position 0-8",
        check=_layout_ok,
    ),
    OBSERVATION_MODE,
)


class LastBastionGame(Game):
    env_id = "last_bastion_v0"
    min_players, max_players = 1, 4
    cooperative = True
    option_spec = OPTION_SPEC

    action_layout = LAYOUT
    observation_layout = OBSERVATION_LAYOUT

    def __init__(self, **options: Any):
        super().__init__(**options)
        heroes = self.options["heroes"]
        if heroes is not None and len(list(heroes)) != self.num_players:
            raise ValueError(
                f"option heroes={heroes!r} must name exactly num_players={self.num_players} distinct heroes "
                f"among {[h.name for h in C.HEROES]}"
            )
        self.warlords = C.WARLORD_COUNT[self.options["difficulty"]]
        if self.options["obs_card_ids"]:
            self.observation_layout = OBSERVATION_LAYOUT_CARD_IDS

    def max_game_length(self) -> int:
        return self.options["max_board_turns"] * 200

    def new_state(self, seed: int | None = None) -> LastBastionState:
        s = LastBastionState(self, Chance(seed))
        s._setup()
        s._run()
        return s

    def state_from_json(self, data: dict[str, Any]) -> LastBastionState:
        s = LastBastionState(self, Chance.from_json(data["chance"]))
        for key in LastBastionState.FIELDS:
            if key in data:
                setattr(s, key, _copy(data[key]))
        s.heroes = [dict(h, equip=list(h["equip"])) for h in data["heroes"]]
        s.elements = {k: dict(v) for k, v in data["elements"].items()}
        if s.decision is None and s.result is None:
            s._run()
        return s


def _effect_text(e) -> str:
    if e is None:
        return "-"
    if e.prim in C.ONGOING or e.prim in _NO_ARG:
        return e.prim
    arg = C.COLORS[e.arg] if e.prim == "GAIN_EQUIP" and isinstance(e.arg, int) else e.arg
    return f"{e.prim}({arg})"


_NO_ARG = frozenset(
    (
        "DISCARD_ALL_EQUIP",
        "GRASP_FRONT",
        "GRASP_HERE",
        "GRASP_BOARD",
        "PURIFY",
        "CORRUPT",
        "TO_CENTRE",
        "SIEGE_BREACH",
        "PLAGUE_WIND",
        "SOUL_DRAIN",
    )
)


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


class LastBastionState(State):
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
        if not self.in_play(p):
            return False
        h = self.heroes[p]
        return not h["wounded"] and not h["board_grasped"] and (hero is None or h["hero"] == hero)

    def suppressed(self, s: int) -> bool:
        net = self.elements["net"]
        return self.sanct[s] >= 0 or (net["state"] == DEPLOYED and net["where"] == s)

    def ongoing_counts(self) -> dict[str, int]:
        """Active ongoing effects in play, per ONG_ primitive."""
        counts = dict.fromkeys(C.ONGOING, 0)
        for s in range(12):
            c = self.spaces[s]
            if c >= 0:
                e = C.CARDS[c].central
                if e is not None and e.prim in counts and not self.suppressed(s):
                    counts[e.prim] += 1
        return counts

    def ongoing_count(self, prim: str) -> int:
        return self.ongoing_counts()[prim]

    def sealed_tiles(self) -> set[int]:
        """Tiles facing an active ONG_SEAL card."""
        return {
            C.SPACE_FACES[s]
            for s in range(12)
            if self.spaces[s] >= 0
            and C.CARDS[self.spaces[s]].central is not None
            and C.CARDS[self.spaces[s]].central.prim == "ONG_SEAL"
            and not self.suppressed(s)
        }

    def sealed(self, t: int) -> bool:
        return t in self.sealed_tiles()

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

    def _net_target(self, s: int) -> bool:
        net = self.elements["net"]
        c = self.spaces[s]
        return c >= 0 and not C.CARDS[c].warlord and not (net["state"] == DEPLOYED and net["where"] == s)

    def controller(self) -> int:
        if not self.neutral and self.in_play(self.active):
            return self.active
        for k in range(1, 5):
            p = self.player_at[(self.board + k) % 4]
            if self.in_play(p):
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
        while self.result is None and self.decision is None:
            task = self.stack.pop()
            getattr(self, "_t_" + task[0])(*task[1:])
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
        self.current_player = self.controller()
        self._decide(kind, [self._sp(s) for s in spaces], **extra)

    # -- board-turn --
    def _t_turn_start(self) -> None:
        b = self.board
        self.board_turns += 1
        std = self.elements["standard"]
        if std["state"] == DEPLOYED and std["seat"] == b:
            self._return_element("standard")
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
        if all(self.spaces[3 * b + k] >= 0 for k in range(3)):
            prim = ("LOSE_LIFE", "PLAGUE_WIND", "SOUL_DRAIN", "SIEGE_BREACH")[b]
            self._push(["fx", prim, 1, -1, -1, "board"])
        elif not self.neutral:
            self._push(["draw", 1])

    def _t_hero(self) -> None:
        if self.neutral or not self.in_play(self.active):
            return
        self.current_player = self.active
        self._decide("MAIN", self._main_legal())

    def _t_turn_end(self) -> None:
        if self.board_turns >= self.game.options["max_board_turns"]:
            self.result = "truncated"
            return
        self.board = (self.board + 1) % 4
        self.stack.append(["turn_start"])

    def _t_victory(self) -> None:
        if self.vanquished >= self.W:
            self.result = "victory"

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
        return [sum(self.heroes[p]["equip"][c] for p in self._pool_heroes()) for c in range(5)]

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
        best = None
        k = len(info)
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
                best = (need, shorts)
        return best

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
        # cards with an exit effect are ordered (EFFECT_ORDER); cards without one just leave play
        items = [[k, ["exit", s, self.spaces[s]]] for k, s in enumerate(chosen) if C.CARDS[self.spaces[s]].exit]
        plain = [["remove", s, self.spaces[s]] for s in chosen if not C.CARDS[self.spaces[s]].exit]
        self._push(["order", "exit", items], *plain, ["victory"])

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

    # == MAIN legality ============================================================================
    def _main_legal(self) -> list[int]:
        p = self.active
        h = self.heroes[p]
        seat = self.seat_of[p]
        rel_t, t = C.REL_TILE[seat], h["tile"]
        legal = [END_TURN_ID]
        if not self.moved:
            ysolde = self.power_usable(p, C.YSOLDE)
            legal += [MOVE_ID + rel_t[u] for u in range(9) if u != t and (ysolde or C.adjacent(u, t))]
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
            legal += [CTA_ID + rel_t[u] for u in range(9) if self.completable(self.layout[u])]
        if not self.power_used and self.power_usable(p, C.MYLFAAR) and self._available("enchantment"):
            ench = self.elements["enchantment"]
            for s in range(12):
                if self.spaces[s] >= 0 and not (ench["state"] == DEPLOYED and ench["where"] == s):
                    legal.append(ENCHANT_ID + (s - 3 * seat) % 12)
        return legal

    # == the State API ===========================================================================
    def is_terminal(self) -> bool:
        return self.result is not None and self.result != "truncated"

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winners = tuple(range(self.n)) if self.result == "victory" else ()
        return Outcome(winners, RESULTS[self.result], truncated=self.result == "truncated")

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(LAYOUT.num_actions, np.int8)
        if self.decision is not None:
            mask[self.decision["legal"]] = 1
        return mask

    def legal_actions(self) -> list[int]:
        return list(self.decision["legal"]) if self.decision is not None else []

    def num_legal(self) -> int:
        return len(self.decision["legal"]) if self.decision is not None else 0

    def apply(self, action: int) -> None:
        if (
            self.decision is None
            or not isinstance(action, (int, np.integer))
            or int(action) not in self.decision["legal"]
        ):
            raise self.illegal_action_error(action)
        self.apply_legal(int(action))

    def apply_legal(self, action: int) -> None:
        before = dict(self.counters)
        d = self.decision
        self.decision = None
        self._handle(d, action)
        self._run()
        self._set_rewards(before)

    def _abs_space(self, j: int) -> int:
        return (j + 3 * self._seat()) % 12

    def _abs_tile(self, t: int) -> int:
        return C.ABS_TILE[self._seat()][t]

    def _abs_player(self, o: int) -> int:
        return self.player_at[(self._seat() + o) % 4]

    def _handle(self, d: dict, action: int) -> None:
        name, args = LAYOUT.decode(action)
        kind = d["kind"]
        p = self.active
        if kind == "MAIN":
            self._main(name, args)
        elif kind == "PLACE_CARD":
            self._place(self._abs_space(args[0]))
        elif kind == "CHOOSE_VICTIM":
            task = list(d["task"])
            task[4] = self._abs_player(args[0])
            self.stack.append(task)
        elif kind == "DISCARD_COLOR":
            self._lose_equip(d["victim"], args[0])
            self.stack.append(["discard_equip", d["victim"], d["left"] - 1])
        elif kind == "GAIN_COLOR":
            self._gain_equip(p, args[0])
        elif kind == "STANDARD_COLOR":
            std = self.elements["standard"]
            std.update(state=DEPLOYED, where=args[0], seat=self.seat_of[p])
        elif kind == "QUARRY_SPACE":
            self.elements["trap"].update(state=DEPLOYED, where=self._abs_space(args[0]))
        elif kind == "TREBUCHET_TARGET":
            self.elements["net"].update(state=DEPLOYED, where=self._abs_space(args[0]))
        elif kind == "TOMB_TARGET":
            self._remove_card(self._abs_space(args[0]), False)
            self._lose_life(p, 1)
        elif kind == "TOWER_SOURCE":
            src = self._abs_space(args[0])
            self._decide_spaces("TOWER_DEST", [s for s in range(12) if self.spaces[s] < 0], src=src)
        elif kind == "TOWER_DEST":
            self._move_card(d["src"], self._abs_space(args[0]))
        elif kind in ("FOUNTAIN_TARGET", "PURIFY_TARGET"):
            if name == "SELECT_TILE":
                self._ungrasp_tile(self._abs_tile(args[0]))
            elif name == "SELECT_PLAYER":
                self._ungrasp_board(self._abs_player(args[0]))
            else:
                self.sanct[self._abs_space(args[0])] = self.seat_of[p]
        elif kind == "DISPENSARY_TARGET":
            self._heal(self._abs_player(args[0]))
        elif kind == "COMBAT_RESOLVE":
            self._resolve_combat(d, args[0])
        elif kind == "EFFECT_ORDER":
            items = d["items"]
            chosen = [it for it in items if it[0] == args[0]][0]
            rest = [it for it in items if it[0] != args[0]]
            self._push(chosen[1], ["order", d["order_kind"], rest])

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

    # -- rewards and scores --
    def score_sheet(self) -> int:
        won = self.result == "victory"
        s = C.VICTORY_POINTS[self.game.options["difficulty"]] if won else 0
        s += sum(h["life"] for h in self.heroes) + 2 * sum(h["cta"] for h in self.heroes)
        s -= 3 * sum(h["status"] == DEAD for h in self.heroes) + 4 * sum(self.grasped)
        return s

    def _set_rewards(self, before: dict) -> None:
        scheme = self.game.options["reward_scheme"]
        r = 0.0
        if self.result is not None:
            if self.result == "victory":
                r = 1.0 + self.score_sheet() / 20.0 if scheme == "score_sheet" else 1.0
            elif self.result != "truncated":
                r = -1.0
        if scheme == "shaped":
            r += sum(w * (self.counters[k] - before[k]) for k, w in SHAPED.items())
        self.last_rewards = [r] * self.n

    def rewards(self) -> list[float]:
        return list(self.last_rewards)

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.n
        return (
            list(self.last_rewards)
            if self.game.options["reward_scheme"] != "shaped"
            else [{"victory": 1.0, "truncated": 0.0}.get(self.result, -1.0)] * self.n
        )

    def scores(self) -> list[float]:
        return [float(self.score_sheet())] * self.n

    # -- views --
    def observe(self, seat: int) -> np.ndarray:
        return observe(self, seat)

    def describe_action(self, action: int) -> str:
        name, args = LAYOUT.decode(action)
        p = self.current_player if self.current_player >= 0 else 0
        seat = self.seat_of[p]
        if name in ("MOVE_TO", "CALL_TO_ARMS", "SELECT_TILE"):
            t = C.ABS_TILE[seat][args[0]]
            return f"{name} t{t} {C.TILES[self.layout[t]].name}"
        if name in ("FIGHT", "ENCHANT", "SELECT_SPACE"):
            s = (args[0] + 3 * seat) % 12
            card = self.placing if (self.decision and self.decision["kind"] == "PLACE_CARD") else self.spaces[s]
            what = C.CARDS[card].name if card >= 0 else "empty"
            return f"{name} s{s} {what}"
        if name == "SELECT_PLAYER":
            q = self.player_at[(seat + args[0]) % 4]
            return f"{name} player_{q} {C.HEROES[self.heroes[q]['hero']].name}" if q >= 0 else f"{name} (empty seat)"
        if name == "SELECT_COLOR":
            return f"{name} {C.COLORS[args[0]]}"
        d = self.decision
        if name == "RESOLVE":
            text = f"RESOLVE_{OUTCOMES[args[0]].upper()}"
            if d is not None and d["kind"] == "COMBAT_RESOLVE":
                idx = {0: [], 1: [0], 2: [1], 3: [0, 1]}[args[0]]
                cards = [f"s{d['targets'][i]} {self._card_name(d['targets'][i])}" for i in idx if i < len(d["targets"])]
                text += (" " + " + ".join(cards)) if cards else " (nothing vanquished)"
            return text
        if name == "RESOLVE_EFFECT":
            if d is not None and d["kind"] == "EFFECT_ORDER":
                for k, task in d["items"]:
                    if k == args[0]:
                        card = C.CARDS[task[2]]
                        e = card.central if task[0] == "rec" else card.exit
                        return f"RESOLVE_EFFECT {k} s{task[1]} {card.name} {_effect_text(e)}"
            return f"RESOLVE_EFFECT {args[0]}"
        return name

    def _card_name(self, s: int) -> str:
        return C.CARDS[self.spaces[s]].name if self.spaces[s] >= 0 else "empty"

    def render(self, seat: int | None = None) -> str:
        lines = [
            f"Last Bastion - board-turn {self.board_turns}, board {C.COLORS[self.board]} "
            f"({'neutral' if self.neutral else f'player_{self.active}'}), deck {len(self.deck)}, "
            f"Warlords {self.vanquished}/{self.W}"
        ]
        for row in range(3):
            cells = []
            for col in range(3):
                t = 3 * row + col
                who = "".join(str(p) for p, h in enumerate(self.heroes) if h["tile"] == t and h["status"] == IN)
                cells.append(f"[{C.TILES[self.layout[t]].name[:10]:10}{'*' if self.grasped[t] else ' '}{who:4}]")
            lines.append(" ".join(cells))
        sealed = self.sealed_tiles()
        marks = [f"t{t} {C.TILES[self.layout[t]].name}" for t in range(9) if self.grasped[t]]
        if marks:
            lines.append("  grasped: " + ", ".join(marks))
        if sealed:
            lines.append("  sealed: " + ", ".join(f"t{t} {C.TILES[self.layout[t]].name}" for t in sorted(sealed)))
        trap = self.elements["trap"]
        for s in range(12):
            if self.spaces[s] >= 0:
                c = C.CARDS[self.spaces[s]]
                tags = [
                    name
                    for name in ("net", "enchantment")
                    if self.elements[name]["state"] == DEPLOYED and self.elements[name]["where"] == s
                ]
                if self.sanct[s] >= 0:
                    tags.append("sanctified")
                lines.append(
                    f"  s{s}: {c.name}{' (Warlord)' if c.warlord else ''} {C.COLORS[c.color]} "
                    f"res {self.effective_resistance(s)}/{c.resistance}  in {_effect_text(c.entrance)} "
                    f"| {_effect_text(c.central)} | out {_effect_text(c.exit)}"
                    + (f"  [{', '.join(tags)}]" if tags else "")
                )
            elif trap["state"] == DEPLOYED and trap["where"] == s:
                lines.append(f"  s{s}: (Trap)")
        els = []
        for name in C.ELEMENTS:
            e = self.elements[name]
            where = ""
            if e["state"] == DEPLOYED:
                where = f" on {C.COLORS[e['where']]}" if name == "standard" else f" on s{e['where']}"
            els.append(f"{name} {e['state']}{where}")
        lines.append("  elements: " + ", ".join(els))
        for p, h in enumerate(self.heroes):
            equip = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(h["equip"]) if k) or "none"
            tile = f" on t{h['tile']} {C.TILES[self.layout[h['tile']]].name}" if h["tile"] >= 0 else ""
            lines.append(
                f"  player_{p} {C.HEROES[h['hero']].name} seat {C.COLORS[self.seat_of[p]]} {h['status']}"
                f"{' wounded' if h['wounded'] else ''}{' board-grasped' if h['board_grasped'] else ''}{tile}: "
                f"life {h['life']}, call to arms {h['cta']}, equipment {equip}"
            )
        d = self.decision
        if d is not None:
            if d["kind"] == "COMBAT_RESOLVE":
                pool = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(self.pool()) if k) or "none"
                lines.append("  dice: " + " ".join(C.DIE_FACES[f] for f in d["dice"]) + "; token pool " + pool)
            if d["kind"] == "CHOOSE_VICTIM":
                lines.append(f"  effect to suffer: {_effect_text(C.Effect(d['task'][1], d['task'][2]))}")
            lines.append(
                f"  {d['kind']} for player_{self.current_player}: "
                + ", ".join(self.describe_action(a) for a in d["legal"])
            )
        if self.result:
            lines.append(f"  result: {self.result}")
        return "\n".join(lines)

    def info(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": self.decision["kind"] if self.decision else None,
            "board_turn": self.board_turns,
        }
        if self.result is not None:
            out.update(result=self.result, score=self.score_sheet())
        return out

    def clone(self) -> LastBastionState:
        return self.game.state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        data = {k: _copy(getattr(self, k)) for k in self.FIELDS}
        data["heroes"] = _copy(self.heroes)
        data["elements"] = _copy(self.elements)
        data["chance"] = self.chance.to_json()
        return data

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LastBastionState:
        """The deck order and the unseen cards (set-aside Monsters, undrawn Warlords) dealt anew,
        keeping the (public) positions of the Warlords in the deck."""
        data = self.to_json()
        unseen = self.deck + self.set_aside
        monsters = [c for c in unseen if not C.CARDS[c].warlord]
        warlords = [c for c in unseen if C.CARDS[c].warlord]
        rng.shuffle(monsters)
        rng.shuffle(warlords)
        deck = []
        for c in self.deck:
            deck.append(warlords.pop() if C.CARDS[c].warlord else monsters.pop())
        data["deck"] = deck
        data["set_aside"] = monsters + warlords
        data["chance"] = Chance(int(rng.integers(2**63))).to_json()
        return self.game.state_from_json(data)
