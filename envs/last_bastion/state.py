"""Last Bastion's State: its fields (declared in one constructor), the public queries every phase and
the bots ask, legal_mask / apply_legal, rewards and outcome, and the plumbing (new_state, clone,
to_json, state_from_json, resample_hidden). The rules themselves are plain functions in the phase
modules (``horde.py``, ``effects.py``, ``hero.py``, ``tiles.py``, ``combat.py``), run as tasks from
``decisions.TASKS``; the answers to decisions are in :data:`DECISIONS`.

Frames. Rules work in the absolute frame (board 0 red at the bottom, tiles 0-8 by position, spaces
0-11). Actions and observations use the acting/observing seat's frame (``content.REL_TILE``,
relative space ``(s - 3 b) mod 12``, seat offsets).

Public attributes the heuristic bot may read (all public information): ``heroes``, ``seat_of``,
``player_at``, ``layout``, ``grasped``, ``spaces``, ``elements``, ``board``, ``active``,
``neutral``, ``acted``, ``moved``, ``current_player``, ``reserve_life``, ``reserve_cta``,
``reserve_equip``, ``decision`` (kind, legal ids, and the revealed ``card`` of PLACE_CARD, the
``task`` of CHOOSE_VICTIM, the ``targets`` and ``dice`` of COMBAT_RESOLVE), the query methods below
and ``len(deck)`` (the deck size is public). The deck order and ``set_aside`` are hidden and must not
be read by a player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Outcome, State
from envs.last_bastion import combat, effects, hero, horde, text, tiles
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.content import DEAD, DEPLOYED, HOME, IN, OUT, RESULTS, SHAPED
from envs.last_bastion.decisions import TASKS, offer
from envs.last_bastion.tokens import gain_cta, gain_equip, gain_life
from envs.last_bastion.validation import check_decision, check_json

if TYPE_CHECKING:
    from envs.last_bastion.game import LastBastionGame


class Decision(NamedTuple):
    """A kind of decision: its legal ids ``legal(state, decision)`` (the ones the task that opens it
    offers; state_from_json checks a decision read from JSON against them) and the function that
    plays the answer, ``answer(state, decision, action name, args)``."""

    legal: Callable[[Any, dict], list[int]]
    answer: Callable[[Any, dict, str, tuple], None]


#: every decision kind (the ``kind`` of ``state.decision``)
DECISIONS: dict[str, Decision] = {
    "MAIN": Decision(lambda state, d: hero.main_legal(state), hero.answer_main),
    "PLACE_CARD": Decision(horde.place_card_legal, horde.answer_place_card),
    "EFFECT_ORDER": Decision(horde.effect_order_legal, horde.answer_effect_order),
    "CHOOSE_VICTIM": Decision(effects.choose_victim_legal, effects.answer_choose_victim),
    "DISCARD_COLOR": Decision(effects.discard_color_legal, effects.answer_discard_color),
    "GAIN_COLOR": Decision(effects.gain_color_legal, effects.answer_gain_color),
    "STANDARD_COLOR": Decision(tiles.TARGETS["STANDARD_COLOR"], tiles.answer_standard_color),
    "QUARRY_SPACE": Decision(tiles.TARGETS["QUARRY_SPACE"], tiles.answer_quarry_space),
    "TREBUCHET_TARGET": Decision(tiles.TARGETS["TREBUCHET_TARGET"], tiles.answer_trebuchet_target),
    "TOMB_TARGET": Decision(tiles.TARGETS["TOMB_TARGET"], tiles.answer_tomb_target),
    "TOWER_SOURCE": Decision(tiles.TARGETS["TOWER_SOURCE"], tiles.answer_tower_source),
    "TOWER_DEST": Decision(tiles.TARGETS["TOWER_DEST"], tiles.answer_tower_dest),
    "FOUNTAIN_TARGET": Decision(tiles.TARGETS["FOUNTAIN_TARGET"], tiles.answer_fountain_target),
    "PURIFY_TARGET": Decision(effects.purify_target_legal, tiles.answer_fountain_target),
    "DISPENSARY_TARGET": Decision(tiles.TARGETS["DISPENSARY_TARGET"], tiles.answer_dispensary_target),
    "COMBAT_RESOLVE": Decision(combat.combat_resolve_legal, combat.answer_combat_resolve),
}

_TASK_FUNCTIONS = TASKS.functions
_IS_WARLORD = tuple(c.warlord for c in C.CARDS)
#: per card: the primitive of its central effect if ongoing, else None
_ONGOING_PRIM = tuple(e.prim if e is not None and e.prim in C.ONGOING else None for e in (c.central for c in C.CARDS))
_DECODED = tuple(LAYOUT.decode(a) for a in range(LAYOUT.num_actions))  # id -> (name, args), without a call
_WARLORD_SET = frozenset(C.WARLORDS)
assert (C.STANDARD, C.QUARRY, C.TREBUCHET, C.TOMB, C.TOWER, C.FOUNTAIN, C.MARKET, C.DISPENSARY, C.GREAT_HALL) == tuple(
    range(9)
)


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v


class LastBastionState(State):
    """The whole mutable game. Its fields are the ones set in ``__init__``; :data:`FIELDS` (with
    ``heroes``, ``elements`` and ``chance``) is what ``to_json`` writes."""

    #: the JSON fields besides ``heroes``, ``elements`` and ``chance``, in to_json order
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
        self.chance = chance  # every random draw of the game
        self.n = game.num_players
        self.W = game.warlords  # Warlords to vanquish
        # -- table --
        #: per player: hero index, status (IN/OUT/DEAD), wounded, life, cta, equip (per colour), tile
        #: (-1 off the Bastion), board_grasped
        self.heroes: list[dict] = []
        self.seat_of: list[int] = []  # player -> seat (board colour 0-3)
        self.player_at = [-1] * 4  # seat -> player, -1 for an empty seat
        self.layout = list(range(9))  # tile position -> tile type
        self.grasped = [False] * 9  # per tile position
        self.spaces = [-1] * 12  # card on each space, -1 empty
        self.sanct = [-1] * 12  # per space: the seat whose Fountain sanctified it, -1 none
        self.deck: list[int] = []  # top first (its order is hidden)
        self.set_aside: list[int] = []  # cards out of this game (hidden)
        self.discard: list[int] = []
        self.reserve_equip = [C.EQUIP_PER_COLOR] * 5
        self.reserve_life = C.LIFE_TOTAL
        self.reserve_cta = C.CTA_TOTAL
        #: per element (content.ELEMENTS): state (HOME/DEPLOYED/PARKED/GONE), where (colour or space), seat
        self.elements = {e: {"state": HOME, "where": -1, "seat": -1} for e in C.ELEMENTS}
        # -- turn --
        self.board = 0  # the board whose board-turn it is
        self.active = -1  # its player, -1 on a neutral board-turn
        self.neutral = True
        self.board_turns = 0
        self.acted = self.moved = self.power_used = False  # this Hero phase
        self.decision: dict | None = None  # the open decision: kind, legal ids, what its answer needs
        self.stack: list[list] = []  # tasks still to run (decisions.TASKS), the last one first
        self.result: str | None = None  # a key of content.RESULTS once over
        self.vanquished = 0  # Warlords
        self.placing = -1  # the card of an open PLACE_CARD
        self.current_player = 0
        self.counters = {k: 0 for k in SHAPED}  # events counted for reward_scheme="shaped"
        self.last_rewards = [0.0] * self.n
        # -- caches, not part of the JSON (a clone starts without them) --
        self._mask_cache: tuple | None = None  # (legal ids, mask): decisions.offer's, shared (copy it out)
        self._central_cache: tuple | None = None  # see central_effects
        self._completable_cache: tuple | None = None  # see completable_tuple
        self._shaped = game.options["reward_scheme"] == "shaped"  # the counters' deltas are rewards
        # -- version counters the rules bump, not part of the JSON: the observation's keys
        # (observation.py) and those of central_effects and completable_tuple; a hand edit in
        # place of what they stand for must bump them too
        self._heroes_ver = 0  # any change of a hero's data
        self._places_ver = 0  # a hero's status, tile or board Grasp changed
        self._board_ver = 0  # the spaces, sanctified marks, elements, grasped tiles or a board Grasp changed
        self._elements_ver = 0  # an element changed (a _board_ver change too)

    # == queries (public information; the bots and the observation ask them) ======================
    def in_play(self, p: int) -> bool:
        return p >= 0 and self.heroes[p]["status"] == IN

    def power_usable(self, p: int, hero: int | None = None) -> bool:
        """Player ``p``'s hero is in play with its power (not wounded, board not grasped), and is ``hero``."""
        if p < 0:
            return False
        h = self.heroes[p]  # in_play(p), inlined: asked several times per step
        return h["status"] == IN and not h["wounded"] and not h["board_grasped"] and (hero is None or h["hero"] == hero)

    def suppressed(self, s: int) -> bool:
        """The central effect of the card on ``s`` is off (sanctified, or under the Net)."""
        net = self.elements["net"]
        return self.sanct[s] >= 0 or (net["state"] == DEPLOYED and net["where"] == s)

    def central_effects(self) -> tuple:
        """``(key, ongoing counts, sealed tiles)`` of the cards in play: the active ongoing effects
        per ONG_ primitive, and the tiles facing an active ONG_SEAL card. Kept until ``_board_ver``
        moves (the rules bump it whenever the spaces, the sanctified marks or the Net change)."""
        cached = self._central_cache
        if cached is None or cached[0] != self._board_ver:
            counts = dict.fromkeys(C.ONGOING, 0)
            sealed = set()
            net = self.elements["net"]
            netted = net["where"] if net["state"] == DEPLOYED else -1
            sanct = self.sanct
            for s, c in enumerate(self.spaces):
                if c >= 0:
                    prim = _ONGOING_PRIM[c]
                    if prim is not None and sanct[s] < 0 and s != netted:  # not suppressed(s)
                        counts[prim] += 1
                        if prim == "ONG_SEAL":
                            sealed.add(C.SPACE_FACES[s])
            cached = self._central_cache = (self._board_ver, counts, frozenset(sealed))
        return cached

    def ongoing_counts(self) -> dict[str, int]:
        """Active ongoing effects in play, per ONG_ primitive."""
        return dict(self.central_effects()[1])

    def ongoing_count(self, prim: str) -> int:
        return self.central_effects()[1][prim]

    def sealed_tiles(self) -> set[int]:
        """Tiles facing an active ONG_SEAL card."""
        return set(self.central_effects()[2])

    def sealed(self, t: int) -> bool:
        return t in self.central_effects()[2]

    def effective_resistance(self, s: int) -> int:
        """The resistance of the card on ``s``: printed, -1 for the Standard on its colour, -1 enchanted."""
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

    def mylfaar(self) -> int:
        """The player of Mylfaar, -1 if she is not in the game."""
        for p, h in enumerate(self.heroes):
            if h["hero"] == C.MYLFAAR:
                return p
        return -1

    def available(self, element: str) -> bool:
        """Can ``element`` be deployed now (home, or deployed and its home tile not grasped)?"""
        e = self.elements[element]
        if element == "enchantment":
            m = self.mylfaar()
            return e["state"] in (HOME, DEPLOYED) and m >= 0 and self.power_usable(m)
        home = self.tile_pos(C.ELEMENT_HOME_TILE[element])
        return e["state"] == HOME or (e["state"] == DEPLOYED and not self.grasped[home])

    def net_target(self, s: int) -> bool:
        """The Net may go on ``s``: a Monster not already under it."""
        net = self.elements["net"]
        c = self.spaces[s]
        return c >= 0 and not C.CARDS[c].warlord and not (net["state"] == DEPLOYED and net["where"] == s)

    def completable(self, tile_type: int) -> bool:
        """The action of a tile of ``tile_type`` has what it needs (targets, an element) now."""
        sp = self.spaces
        if tile_type == C.STANDARD:
            return self.available("standard")
        if tile_type == C.QUARRY:
            trap = self.elements["trap"]["where"] if self.elements["trap"]["state"] == DEPLOYED else -1
            return self.available("trap") and any(sp[s] < 0 and s != trap for s in range(12))
        if tile_type == C.TREBUCHET:
            return self.available("net") and any(self.net_target(s) for s in range(12))
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
        """``completable(k)`` for every tile type k at once (the observation and the Calls to Arms of
        MAIN ask for all of them)."""
        return list(self.completable_tuple())

    def completable_tuple(self) -> tuple[bool, ...]:
        """:meth:`completable_types` as a tuple, kept until ``_board_ver`` or ``_places_ver`` moves or
        the reserve's Life runs out or comes back (MAIN and the observation's tiles ask in one step).
        Counts of free spaces and Monsters, taken by C-level calls (``list.count``, a set of the
        Warlords), stand for the per-space scans of :meth:`completable`."""
        cached = self._completable_cache
        life = self.reserve_life > 0
        if cached is not None and cached[0] == self._board_ver and cached[1] == self._places_ver and cached[2] == life:
            return cached[3]
        sp, el, grasped = self.spaces, self.elements, self.grasped
        free = sp.count(-1)
        cards = 12 - free
        monsters = cards if _WARLORD_SET.isdisjoint(sp) else cards - len(_WARLORD_SET.intersection(sp))
        # available(name), inlined: home, or deployed with its home tile not grasped
        std, trap, net = el["standard"], el["trap"], el["net"]
        state = std["state"]
        standard = state == HOME or (state == DEPLOYED and not grasped[self.layout.index(C.STANDARD)])
        tower = 0 < free < 12
        # Quarry: a free space without the Trap; Trebuchet: a Monster without the Net
        state = trap["state"]
        if state == DEPLOYED and 0 <= trap["where"] < 12 and sp[trap["where"]] < 0:
            free -= 1
        quarry = free > 0 and (state == HOME or (state == DEPLOYED and not grasped[self.layout.index(C.QUARRY)]))
        targets = monsters
        state = net["state"]
        if state == DEPLOYED and 0 <= net["where"] < 12:
            c = sp[net["where"]]
            if c >= 0 and not _IS_WARLORD[c]:
                targets -= 1
        trebuchet = targets > 0 and (
            state == HOME or (state == DEPLOYED and not grasped[self.layout.index(C.TREBUCHET)])
        )
        # Fountain: a card, a grasped tile, or a hero in play with a grasped board
        fountain = cards > 0 or any(grasped)
        if not fountain:
            for h in self.heroes:
                if h["status"] == IN and h["board_grasped"]:
                    fountain = True
                    break
        dispensary = False  # Life in the reserve and a hero taken out
        if life:
            for h in self.heroes:
                if h["status"] == OUT:
                    dispensary = True
                    break
        # in content.TILES order: Standard, Quarry, Trebuchet, Tomb, Tower, Fountain, Market, Dispensary, Great Hall
        types = (standard, quarry, trebuchet, monsters > 0, tower, fountain, True, dispensary, True)
        self._completable_cache = (self._board_ver, self._places_ver, life, types)
        return types

    def controller(self) -> int:
        """Who decides for the board now: the active hero, else the next hero in play clockwise."""
        heroes, a = self.heroes, self.active  # in_play(p), inlined: asked at every decision
        if not self.neutral and a >= 0 and heroes[a]["status"] == IN:
            return a
        for k in range(1, 5):
            p = self.player_at[(self.board + k) % 4]
            if p >= 0 and heroes[p]["status"] == IN:
                return p
        return -1

    def grasp_reserve(self) -> int:
        """Grasp of Evil tokens still in the box."""
        return C.GRASP_TOTAL - sum(self.grasped) - sum(h["board_grasped"] for h in self.heroes)

    def pool_heroes(self) -> list[int]:
        """The heroes whose Equipment the active hero's combat may spend: the active hero, the heroes
        on its tile, and with Aldric (either of them) those on adjacent tiles."""
        a, heroes, player_at = self.active, self.heroes, self.player_at
        t = heroes[a]["tile"]
        aldric_a = self.power_usable(a, C.ALDRIC)
        seat = self.seat_of[a]
        out = [a]
        for k in (1, 2, 3):
            p = player_at[(seat + k) % 4]
            if p < 0:
                continue
            h = heroes[p]
            if h["status"] != IN:  # in_play(p), inlined (and power_usable(p, ALDRIC) below)
                continue
            u = h["tile"]
            aldric = aldric_a or (h["hero"] == C.ALDRIC and not h["wounded"] and not h["board_grasped"])
            if u == t or (aldric and C.adjacent(u, t)):
                out.append(p)
        return out

    def pool(self) -> list[int]:
        """Equipment available to the active hero's combat, per colour."""
        equips = [self.heroes[p]["equip"] for p in self.pool_heroes()]  # the heroes once, not per colour
        return list(map(sum, zip(*equips)))  # per colour

    # == the State API ============================================================================
    def is_terminal(self) -> bool:
        return self.result is not None and self.result != "truncated"

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome.team(self.n, self.result == "victory", RESULTS[self.result], self.result == "truncated")

    def legal_mask(self) -> np.ndarray:
        legal = self.decision["legal"] if self.decision is not None else []
        cached = self._mask_cache  # (legal ids, mask), set when a decision opens (a hand edit: rebuilt)
        if cached is None or cached[0] != legal:
            cached = self._mask_cache = offer(legal)
        return cached[1].copy()

    def legal_actions(self) -> list[int]:
        return list(self.decision["legal"]) if self.decision is not None else []

    def is_legal(self, action: int) -> bool:
        return self.decision is not None and action in self.decision["legal"]

    def num_legal(self) -> int:
        return len(self.decision["legal"]) if self.decision is not None else 0

    def apply_legal(self, action: int) -> None:
        # the counters before the step: only the shaped reward reads them
        before = dict(self.counters) if self._shaped else None
        d = self.decision
        self.decision = None
        name, args = _DECODED[action]
        DECISIONS[d["kind"]].answer(self, d, name, args)
        self.run()
        if self.result is None and before is None:
            self.last_rewards = [0.0] * self.n  # no reward before the end but the shaped scheme's
        else:
            self._set_rewards(before)

    def illegal_why(self) -> str:
        if self.decision is None:
            return ""
        return f"the decision now is {self.decision['kind']} ({text.DECISION_TEXT[self.decision['kind']]})"

    def run(self) -> None:
        """Run the task stack until a decision is open or the game is over."""
        # TaskTable.run(self, self.stack, done), its loop written out (see decisions.Tasks)
        stack = self.stack
        while self.result is None and self.decision is None:
            if not stack:
                raise RuntimeError("last_bastion_v0: the task stack ran empty before a decision or the end")
            task = stack.pop()
            _TASK_FUNCTIONS[task[0]](self, *task[1:])
        if self.result is not None:
            self.decision = None
            self.stack = []
            self.current_player = -1

    # -- rewards and scores --
    def score_sheet(self) -> int:
        won = self.result == "victory"
        s = C.VICTORY_POINTS[self.game.options["difficulty"]] if won else 0
        s += sum(h["life"] for h in self.heroes) + 2 * sum(h["cta"] for h in self.heroes)
        s -= 3 * sum(h["status"] == DEAD for h in self.heroes) + 4 * sum(self.grasped)
        return s

    def _set_rewards(self, before: dict | None) -> None:
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

    def shaping_potentials(self) -> list[float]:
        """What the shaped scheme's event terms have paid so far, every seat alike (weight 1 under
        reward_scheme="shaped": ``Game.shaping_weight``)."""
        counters = self.counters
        paid = sum(w * counters[k] for k, w in SHAPED.items())
        return [paid] * self.n

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
    def describe_action(self, action: int) -> str:
        return text.describe_action(self, action)

    def render(self, seat: int | None = None) -> str:
        return text.render(self, seat)

    def info(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": self.decision["kind"] if self.decision else None,
            "board_turn": self.board_turns,
        }
        if self.result is not None:
            out.update(result=self.result, score=self.score_sheet())
        return out

    # -- plumbing --
    def clone(self) -> LastBastionState:
        return _build(self.game, self.to_json())

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
        return _build(self.game, data)


def new_state(game: LastBastionGame, seed: int | None) -> LastBastionState:
    """A new game after the setup (layout, heroes, seats, tokens, the deck), at its first decision."""
    s = LastBastionState(game, Chance(seed))
    _setup(s)
    s.run()
    return s


def _setup(s: LastBastionState) -> None:
    ch, opt, n = s.chance, s.game.options, s.n
    if opt["tile_layout"] is not None:
        s.layout = [C.TILE_BY_NAME[name] for name in opt["tile_layout"]]
    else:
        ch.shuffle(s.layout)
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
    s.seat_of = sorted(occupied, key=lambda b: (b - first) % 4)
    s.player_at = [-1] * 4
    life = C.START_LIFE[n]
    for p, seat in enumerate(s.seat_of):
        s.player_at[seat] = p
        s.heroes.append(
            {
                "hero": heroes[p],
                "status": IN,
                "wounded": False,
                "life": 0,
                "cta": 0,
                "equip": [0] * 5,
                "tile": C.CENTRE,
                "board_grasped": False,
            }
        )
        gain_life(s, p, life + (1 if heroes[p] == C.THORGRIM else 0))
        gain_cta(s, p, C.START_CTA[n])
        gain_equip(s, p, seat)
        if opt["difficulty"] == "novice":
            gain_equip(s, p, C.BLACK)
    if C.MYLFAAR not in heroes:
        s.elements["enchantment"]["state"] = C.GONE
    # deck: T monsters, then W x (Warlord, 8 monsters), top first
    monsters, warlords = list(C.MONSTERS), list(C.WARLORDS)
    ch.shuffle(monsters)
    ch.shuffle(warlords)
    m = C.monster_count(n, opt["difficulty"])
    used, s.set_aside = monsters[:m], monsters[m:] + warlords[s.W :]
    top = m - 8 * s.W
    s.deck = used[:top]
    for i in range(s.W):
        s.deck += [warlords[i]] + used[top + 8 * i : top + 8 * i + 8]
    s.board = s.seat_of[0]
    s.stack = [["turn_start"]]


def state_from_json(game: LastBastionGame, data: Any) -> LastBastionState:
    """Rebuild a state written by :meth:`LastBastionState.to_json` (or by hand), checked first: a
    ValueError names the first field that is not a state of this game (``validation.py``). A state
    between decisions runs on to its next decision."""
    check_json(game, data, LastBastionState.FIELDS)
    return _build(game, data, check=True)


def _build(game: LastBastionGame, data: dict[str, Any], check: bool = False) -> LastBastionState:
    """The state of ``data`` (unchecked: a clone's own JSON; ``check``: the decision checked too)."""
    s = LastBastionState(game, Chance.from_json(data["chance"]))
    for key in LastBastionState.FIELDS:
        if key in data:
            setattr(s, key, _copy(data[key]))
    s.heroes = [dict(h, equip=list(h["equip"])) for h in data["heroes"]]
    s.elements = {k: dict(v) for k, v in data["elements"].items()}
    if check:
        check_decision(s)
    if s.decision is None and s.result is None:
        try:
            s.run()
        except RuntimeError as e:  # the stack ran empty: only a hand-written one can
            raise ValueError(f"stack: {e}") from None
    return s
