"""Heroes and Monsters rules engine: :class:`HeroesAndMonstersGame` and its :class:`HeroesAndMonstersState`.

The rules as implemented are in docs/heroes_and_monsters.md (section numbers below refer to it).
A state is plain data (lists of card ids, counters); every effect is a list of primitives from
``content.py`` interpreted by :meth:`HeroesAndMonstersState._prim`. All randomness goes through
``state.chance``. A terminal event raises the private :class:`_GameOver` inside a resolution, so
the first terminal event ends the game at once and nothing after it resolves (2.7 precedence).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Game, Outcome, State
from envs.core.options import (
    OBSERVATION_MODE,
    Option,
    is_bool,
    is_int_in,
    num_players_option,
    reward_scheme_option,
)
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.content import (
    ADVERSARIES,
    ADVERSARY_KEYS,
    ANY_RACE,
    CARDS,
    CONSTRUCTION,
    GENERAL_KEYS,
    GENERALS,
    INVADERS,
    PLANS,
    RESOURCE,
    UNIT,
)
from envs.heroes_and_monsters.docs import effect_text
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT, encode

# -- phases and pending-decision sources ----------------------------------------------------------
PHASES = ("RECRUIT", "EFFECTS", "SUPPORT", "COMBAT", "CHOOSE_DISCARD", "CHOOSE_TRASH", "CHOOSE_OVERFLOW", "PAY_ANY")
RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_DISCARD, CHOOSE_TRASH, CHOOSE_OVERFLOW, PAY_ANY = range(8)
SOURCES = ("none", "hand card", "Construction", "General", "COPY")
SRC_NONE, SRC_HAND, SRC_TABLE, SRC_GENERAL, SRC_COPY = range(5)

END_REASONS = {
    "victory": "the Adversary is defeated",
    "fortress_empty": "the Fortress deck ran out",
    "round_limit": "the Long Siege: the round limit was reached",
    "truncated": "the step cap was reached",
}
TERMINAL_RESULTS = ("victory", "fortress_empty", "round_limit")

#: Per-event weights of the "shaped" reward scheme (7).
DEFAULT_SHAPING_WEIGHTS = {"defeat": 0.05, "marker": 0.01, "thwart": 0.15, "fortress_lost": -0.02, "heal": 0.02}
MAX_STEPS_PER_TURN = 200

ORIGIN_PLAYER = -1  # primitive resolved for a player (card, General)
ORIGIN_ADVERSARY = -2  # primitive of the Adversary or a Plan (REGEN hits every Invader)
# an origin >= 0 is the column of the Invader whose effect resolves


def _is_general_ref(v: Any) -> bool:
    if isinstance(v, str):
        return v in GENERAL_KEYS
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(GENERALS)


def _generals_ok(v: Any) -> bool:
    return v is None or (isinstance(v, (list, tuple)) and 1 <= len(v) <= C.MAX_PLAYERS and all(map(_is_general_ref, v)))


def _weights_ok(v: Any) -> bool:
    return v is None or (
        isinstance(v, dict)
        and set(v) <= set(DEFAULT_SHAPING_WEIGHTS)
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v.values())
    )


def _thresholds_ok(v: Any) -> bool:
    return (
        isinstance(v, (list, tuple))
        and len(v) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        and 54 >= v[0] >= v[1] >= 0
    )


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(1, C.MAX_PLAYERS, 2),
    reward_scheme_option(
        "win_loss",
        ("win_loss",),
        {
            "shaped": "win_loss plus, to every seat when it happens: +0.05 per Invader defeated, +0.01 per "
            "marker, +0.15 per Plan thwarted, -0.02 per Fortress card destroyed or milled, +0.02 per card "
            "healed (weights: `shaping_weights`)"
        },
    ),
    Option(
        "shaping_weights",
        None,
        f"None or a dict with some of the keys {sorted(DEFAULT_SHAPING_WEIGHTS)} (numbers)",
        'overrides of the per-event weights of reward_scheme="shaped"',
        check=_weights_ok,
    ),
    Option(
        "adversary",
        "randall",
        '"randall", "sylvaen", "thargrim" or "random"',
        "the Adversary (random: drawn at setup)",
        choices=ADVERSARY_KEYS + ("random",),
    ),
    Option(
        "generals",
        None,
        f"None (random) or a list of num_players distinct General keys {list(GENERAL_KEYS)} or ids 0-5",
        "the General of each seat",
        check=_generals_ok,
    ),
    OBSERVATION_MODE,
    Option("max_rounds", 20, "an integer from 1 to 100", "round limit (a loss when reached)", check=is_int_in(1, 100)),
    Option(
        "rotate_first_player",
        True,
        "True or False",
        "the first-player marker passes clockwise each round",
        check=is_bool,
    ),
    Option(
        "support_window",
        "pre_combat",
        '"pre_combat" or "none"',
        "one window before Combat for the other players' discard-cost effects, or none",
        choices=("pre_combat", "none"),
    ),
    Option(
        "victory_target",
        None,
        "None or an integer from 1 to 60",
        "Invaders to defeat against Randall (None: 8/13/14/15 for 1-4 players)",
        check=lambda v: v is None or is_int_in(1, 60)(v),
    ),
    Option(
        "toughness",
        None,
        "None or an integer from -3 to 5",
        "added to every Invader health level, minimum 1 (None: -1/0/+1/+2 for 1-4 players)",
        check=lambda v: v is None or is_int_in(-3, 5)(v),
    ),
    Option(
        "threat_thresholds",
        (30, 15),
        "a pair of integers (a, b) with 54 >= a >= b >= 0",
        "Threat 2 when the Fortress deck is below a, Threat 3 when below b",
        check=_thresholds_ok,
    ),
    Option(
        "max_steps",
        20000,
        "an integer from 1 to 1000000",
        "safety truncation cap on decisions",
        check=is_int_in(1, 10**6),
    ),
)


def _general_id(ref: Any) -> int:
    return GENERAL_KEYS.index(ref) if isinstance(ref, str) else int(ref)


class HeroesAndMonstersGame(Game):
    """Heroes and Monsters, 1-4 cooperating players. See docs/heroes_and_monsters.md."""

    env_id = "heroes_and_monsters_v0"
    min_players = 1
    max_players = C.MAX_PLAYERS
    cooperative = True
    action_layout = LAYOUT
    observation_layout = OBSERVATION_LAYOUT
    option_spec = OPTION_SPEC

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = self.num_players
        self.generals: tuple[int, ...] | None = None
        if o["generals"] is not None:
            ids = tuple(_general_id(g) for g in o["generals"])
            if len(ids) != n:
                raise ValueError(
                    f"option generals={o['generals']!r} is not allowed; it must name {n} Generals, one per seat"
                )
            if len(set(ids)) != n:
                raise ValueError(f"option generals={o['generals']!r} is not allowed; the Generals must be distinct")
            races = [GENERALS[g].race for g in ids]
            if n <= 3 and len(set(races)) < n:
                warnings.warn(
                    "Generals of the same race with 3 or fewer players (the rulebook says to avoid it)", stacklevel=2
                )
            self.generals = ids
        self.toughness = C.TOUGHNESS[n - 1] if o["toughness"] is None else o["toughness"]
        self.victory_target = C.VICTORY_TARGET[n - 1] if o["victory_target"] is None else o["victory_target"]
        self.weights = dict(DEFAULT_SHAPING_WEIGHTS, **(o["shaping_weights"] or {}))
        self.shaped = o["reward_scheme"] == "shaped"
        self.thresholds = tuple(o["threat_thresholds"])
        self.step_cap = min(o["max_steps"], o["max_rounds"] * n * MAX_STEPS_PER_TURN)

    def max_game_length(self) -> int:
        return self.step_cap

    def new_state(self, seed: int | None = None) -> HeroesAndMonstersState:
        return HeroesAndMonstersState.new(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> HeroesAndMonstersState:
        return HeroesAndMonstersState.from_json(self, data)


class _GameOver(Exception):
    """Raised inside a resolution by the first terminal event."""


class Player:
    """One seat's cards. Decks and piles are lists with the top at the end."""

    __slots__ = ("general", "deck", "hand", "discard", "table", "gen_used")

    def __init__(self, general: int):
        self.general = general
        self.deck: list[int] = []
        self.hand: list[list] = []  # [card id, used this turn], sorted
        self.discard: list[int] = []
        self.table: list[list] = []  # [card id, used this turn], in acquisition order
        self.gen_used = False

    def to_json(self) -> dict[str, Any]:
        return {
            "general": self.general,
            "deck": list(self.deck),
            "hand": [list(h) for h in self.hand],
            "discard": list(self.discard),
            "table": [list(t) for t in self.table],
            "gen_used": self.gen_used,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(int(d["general"]))
        p.deck = [int(c) for c in d["deck"]]
        p.hand = sorted([int(c), bool(u)] for c, u in d["hand"])
        p.discard = [int(c) for c in d["discard"]]
        p.table = [[int(c), bool(u)] for c, u in d["table"]]
        p.gen_used = bool(d["gen_used"])
        return p


_FIELDS = (
    "adversary",
    "fortress",
    "area",
    "rubble",
    "box",
    "exile",
    "inv_deck",
    "inv_discard",
    "field",
    "markers",
    "attacked",
    "ward",
    "round",
    "first",
    "turns_done",
    "active",
    "phase",
    "current_player",
    "res",
    "dmg",
    "bonus",
    "used_discarded",
    "used_in_deck",
    "hand_up",
    "plan_deck",
    "box_plans",
    "plan",
    "plan_progress",
    "plan_countdown",
    "thwarted",
    "defeated",
    "markers_placed",
    "pending",
    "support_queue",
    "result",
    "steps",
    "total",
)


def _prims_text(effect: C.Effect) -> str:
    return effect_text(effect).split("] ", 1)[-1]


class HeroesAndMonstersState(State):
    """The whole game.

    Public attributes (read by the heuristic bot and tests; docs section 10): ``n``, ``players``
    (:class:`Player`: ``general``, ``deck``, ``hand`` as sorted ``[card, used]``, ``discard``,
    ``table``, ``gen_used``), ``adversary``, ``fortress``, ``area``, ``rubble``, ``box``, ``exile``,
    ``inv_deck``, ``inv_discard``, ``field`` (Invader per column or -1), ``markers``, ``attacked``,
    ``ward``, ``round``, ``first``, ``turns_done``, ``active``, ``phase``, ``dmg`` (D), ``bonus``,
    ``plan``, ``plan_progress``, ``plan_countdown``, ``thwarted``, ``defeated``, ``pending``,
    ``result``, ``hand_up`` (the active player's hand is face up); methods ``pool(seat)``,
    ``threat()``, ``levels(c)``, ``next_cost(c)``,
    ``remaining_health(c)``, ``fortress_damage(c)``, ``fortress_damages()``, ``plan_required()``.
    Decks and piles are lists with the top card last. A bot must not read another waiting
    player's ``hand`` or any ``deck`` order, nor ``fortress``/``box``/``inv_deck`` beyond their sizes.
    """

    def __init__(self, game: HeroesAndMonstersGame, chance: Chance):
        self.game = game
        self.chance = chance
        self.n = game.num_players
        self.players: list[Player] = []
        self.adversary = 0
        self.fortress: list[int] = []
        self.area: list[int] = [-1] * C.NUM_SLOTS
        self.rubble: list[int] = []
        self.box: list[int] = []
        self.exile: list[int] = []
        self.inv_deck: list[int] = []
        self.inv_discard: list[int] = []
        self.field: list[int] = [-1] * C.NUM_COLUMNS
        self.markers: list[int] = [0] * C.NUM_COLUMNS
        self.attacked: list[bool] = [False] * C.NUM_COLUMNS
        self.ward = 0
        self.round = 1
        self.first = 0
        self.turns_done = 0
        self.active = 0
        self.phase = RECRUIT
        self.current_player = 0
        self.res = [0, 0, 0]  # active player's pool minus the resource cards in hand
        self.dmg = 0  # D, the active player's damage pool
        self.bonus = [0, 0, 0]  # DMG_RACE bonuses (Greenskin, Undead, Dragonkin)
        # cards of the active player that left the hand used this turn, by where they are now: the
        # discard pile, or (after a reshuffle) the deck; a card drawn or recalled from there stays used
        self.used_discarded: list[int] = []
        self.used_in_deck: list[int] = []
        self.hand_up = True  # the active player's hand lies face up (from its start of turn to its discard)
        self.plan_deck: list[int] = []
        self.box_plans: list[int] = []
        self.plan = -1
        self.plan_progress = 0
        self.plan_countdown = 0
        self.thwarted = 0
        self.defeated = 0
        self.markers_placed = 0
        self.pending: dict[str, Any] | None = None
        self.support_queue: list[int] = []
        self.result: str | None = None
        self.steps = 0
        self.total = 0.0
        self._rewards = [0.0] * self.n
        self._shaping = 0.0
        self._mask: np.ndarray | None = None

    # -- setup (1.3) ----------------------------------------------------------------------------
    @classmethod
    def new(cls, game: HeroesAndMonstersGame, seed: int | None) -> HeroesAndMonstersState:
        s = cls(game, Chance(seed))
        ch = s.chance
        key = game.options["adversary"]
        s.adversary = ch.choice(len(ADVERSARIES)) if key == "random" else ADVERSARY_KEYS.index(key)
        adv = ADVERSARIES[s.adversary]
        generals = game.generals if game.generals is not None else s._random_generals()
        for g in generals:
            p = Player(g)
            p.deck = C.starting_deck(g)
            ch.shuffle(p.deck)
            s.players.append(p)
        for seat, p in enumerate(s.players):
            s._draw(seat, GENERALS[p.general].draw)
        try:
            s.fortress = C.fortress_card_list()
            ch.shuffle(s.fortress)
            excess = len(s.fortress) - C.FORTRESS_DECK_SIZE
            s.box = sorted(s.fortress[len(s.fortress) - excess :])
            del s.fortress[len(s.fortress) - excess :]
            for slot in range(C.NUM_SLOTS):
                s.area[slot] = s.fortress.pop()
            s._prim(("MILL", adv.setup_mill), ORIGIN_ADVERSARY, 0)
            plans = list(adv.plans)
            if adv.shuffle_plans:
                ch.shuffle(plans)
                s.box_plans = plans[adv.plans_in_play :]
                plans = plans[: adv.plans_in_play]
            s.plan_deck = plans
            s.inv_deck = C.invader_list()
            column = 0
            if adv.first_invader >= 0:
                s.inv_deck.remove(adv.first_invader)
                s._place_invader(0, adv.first_invader)
                column = 1
            ch.shuffle(s.inv_deck)
            for c in range(column, C.NUM_COLUMNS):
                s._place_invader(c, s._draw_invader())
            s._next_plan()
            s._start_turn()
        except _GameOver:  # pragma: no cover - impossible with the shipped content
            pass
        return s

    def _random_generals(self) -> list[int]:
        """Distinct races for n <= 3; every race and exactly one repeated race for n = 4 (1.1)."""
        ch = self.chance
        by_race = [[g.id for g in GENERALS if g.race == r] for r in range(3)]
        races = [0, 1, 2]
        ch.shuffle(races)
        if self.n <= 3:
            picks = [by_race[r][ch.choice(2)] for r in races[: self.n]]
        else:
            twice = races[0]
            picks = list(by_race[twice]) + [by_race[r][ch.choice(2)] for r in races[1:]]
            ch.shuffle(picks)
        return picks

    # -- contract: status ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.result in TERMINAL_RESULTS

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winners = tuple(range(self.n)) if self.result == "victory" else ()
        return Outcome(winners, END_REASONS[self.result], truncated=self.result == "truncated")

    def rewards(self) -> list[float]:
        return self._rewards

    def returns(self) -> list[float]:
        """The episode's reward so far (the sum of every step's reward), the same for every seat."""
        return [self.total] * self.n

    def scores(self) -> list[float]:
        """The team score: Invaders defeated plus Plans thwarted."""
        return [float(self.defeated + self.thwarted)] * self.n

    def info(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "phase": PHASES[self.phase],
            "round": self.round,
            "active_player": self.active,
            "fortress_deck": len(self.fortress),
            "defeated": self.defeated,
            "thwarted": self.thwarted,
        }
        if self.result is not None:
            d["result"] = self.result
            d["reason"] = END_REASONS[self.result]
        return d

    # -- derived public quantities ---------------------------------------------------------------
    def pool(self, seat: int) -> list[int]:
        """Resources ``seat`` can spend or give up now (2.2); off-turn, the resource cards in hand."""
        p = [0, 0, 0] if seat != self.active else list(self.res)
        for c, _ in self.players[seat].hand:
            x = CARDS[c].provides
            if x >= 0:
                p[x] += 1
        return p

    def threat(self) -> int:
        hi, lo = self.game.thresholds
        size = len(self.fortress)
        return 1 if size >= hi else (2 if size >= lo else 3)

    def levels(self, column: int) -> list[int]:
        t = self.game.toughness
        return [max(1, h + t) for h in INVADERS[self.field[column]].health]

    def next_cost(self, column: int) -> int:
        levels = self.levels(column)
        return levels[self.markers[column]] if self.markers[column] < len(levels) else 0

    def remaining_health(self, column: int) -> int:
        return sum(self.levels(column)[self.markers[column] :])

    def fortress_damage(self, column: int) -> int:
        """Printed damage plus FURY of the other Invaders, the Threat level and the Plan (2.5)."""
        inv = INVADERS[self.field[column]]
        furies: list[tuple] = []
        for c, iid in enumerate(self.field):
            if iid >= 0 and c != column:
                furies += INVADERS[iid].aura
        furies += ADVERSARIES[self.adversary].threat_fury[self.threat() - 1]
        if self.plan >= 0:
            furies += PLANS[self.plan].fury
        return inv.damage + sum(n for _, race, n in furies if race in (ANY_RACE, inv.race))

    def fortress_damages(self) -> list[int]:
        """:meth:`fortress_damage` of every column at once (0 for an empty column)."""
        bonus = [0, 0, 0, 0]  # Human, Elf, Dwarf, Any (index ANY_RACE = -1)
        furies = ADVERSARIES[self.adversary].threat_fury[self.threat() - 1]
        if self.plan >= 0:
            furies = furies + PLANS[self.plan].fury
        for _, race, n in furies:
            bonus[race] += n
        auras = [0, 0, 0, 0]
        for iid in self.field:
            if iid >= 0:
                for _, race, n in INVADERS[iid].aura:
                    auras[race] += n
        out = []
        for iid in self.field:
            if iid < 0:
                out.append(0)
                continue
            inv = INVADERS[iid]
            d = inv.damage + bonus[ANY_RACE] + bonus[inv.race] + auras[ANY_RACE] + auras[inv.race]
            for _, race, n in inv.aura:  # an aura never affects its own Invader
                if race in (ANY_RACE, inv.race):
                    d -= n
            out.append(d)
        return out

    def plan_required(self) -> int:
        return PLANS[self.plan].required[self.n - 1] if self.plan >= 0 else 0

    def _discardable(self, seat: int, card: int, pool: list[int]) -> bool:
        x = CARDS[card].provides
        return x < 0 or pool[x] >= 1

    def _has_discardable(self, seat: int) -> bool:
        pool = self.pool(seat)
        return any(self._discardable(seat, c, pool) for c, _ in self.players[seat].hand)

    @staticmethod
    def _affordable(effect: C.Effect, pool: list[int]) -> bool:
        return all(pool[x] >= effect.res[x] for x in range(3)) and sum(pool) - sum(effect.res) >= effect.any

    # -- legality (6.2) --------------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask

    def num_legal(self) -> int:
        return int(np.count_nonzero(self.legal_mask()))

    def _compute_mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, np.int8)
        if self.result is not None:
            return m
        seat = self.current_player
        p = self.players[seat]
        ph = self.phase
        enc = LAYOUT.encode
        if ph == RECRUIT:
            pool = self.pool(seat)
            for s, c in enumerate(self.area):
                if c >= 0 and all(pool[x] >= CARDS[c].cost[x] for x in range(3)):
                    m[enc("BUY", s)] = 1
            self._mask_uses(m, seat, resources=False)
        elif ph == EFFECTS:
            self._mask_uses(m, seat, resources=True)
            ability = GENERALS[p.general].ability
            if ability.do[0][0] == "COPY" and not p.gen_used and self._affordable(ability, self.pool(seat)):
                for r in range(self.n):
                    for k, (c, _) in enumerate(self.players[(seat + r) % self.n].table):
                        e = CARDS[c].effect
                        if e is not None and e.cost != "passive":
                            m[enc("COPY", r, k)] = 1
        elif ph == SUPPORT:
            self._mask_uses(m, seat, resources=False)
        elif ph == COMBAT:
            for c in range(C.NUM_COLUMNS):
                if self.field[c] >= 0 and self.dmg >= self.next_cost(c):
                    m[enc("ATTACK", c)] = 1
        elif ph in (CHOOSE_DISCARD, CHOOSE_TRASH):
            pool = self.pool(seat)
            for h, (c, u) in enumerate(p.hand):
                if (h == 0 or p.hand[h - 1] != [c, u]) and self._discardable(seat, c, pool):
                    m[enc("SELECT_HAND", h)] = 1
        elif ph == CHOOSE_OVERFLOW:
            for k in range(len(p.table)):
                m[enc("SELECT_TABLE", k)] = 1
        elif ph == PAY_ANY:
            pool = self.pool(seat)
            for x in range(3):
                if pool[x] >= 1:
                    m[enc("PAY", x)] = 1
        if ph in (RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_TRASH):
            m[enc("PASS")] = 1
        return m

    def _usable(self, effect: C.Effect | None, seat: int, resources: bool, pool: list[int], has_card: bool) -> bool:
        if effect is None or effect.cost == "passive" or effect.do[0][0] == "COPY":
            return False
        if effect.cost == "discard_self":
            return True
        if effect.cost == "discard_one":
            return has_card
        return resources and self._affordable(effect, pool)

    def _mask_uses(self, m: np.ndarray, seat: int, resources: bool) -> None:
        p = self.players[seat]
        pool = self.pool(seat)
        has_card = self._has_discardable(seat)
        for h, (c, u) in enumerate(p.hand):
            if u or (h > 0 and p.hand[h - 1] == [c, u]):
                continue
            e = CARDS[c].effect
            if (
                CARDS[c].kind == UNIT
                and e is not None
                and e.cost != "discard_one"
                and self._usable(e, seat, resources, pool, has_card)
            ):
                m[LAYOUT.encode("USE_HAND", h)] = 1
        seen = set()
        for k, (c, u) in enumerate(p.table):
            if u or c in seen:
                continue
            seen.add(c)
            if self._usable(CARDS[c].effect, seat, resources, pool, has_card):
                m[LAYOUT.encode("USE_TABLE", k)] = 1
        if not p.gen_used and self._usable(GENERALS[p.general].ability, seat, resources, pool, has_card):
            m[LAYOUT.encode("USE_GENERAL")] = 1

    def _support_eligible(self, seat: int) -> bool:
        m = np.zeros(NUM_ACTIONS, np.int8)
        self._mask_uses(m, seat, resources=False)
        return bool(m.any())

    # -- applying actions ------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if (
            self.result is not None
            or not isinstance(action, (int, np.integer))
            or not 0 <= action < NUM_ACTIONS
            or not self.legal_mask()[action]
        ):
            raise self.illegal_action_error(action)
        self.apply_legal(int(action))

    def apply_legal(self, action: int) -> None:
        self._shaping = 0.0
        self._mask = None
        name, args = LAYOUT.decode(action)
        try:
            getattr(self, "_do_" + name.lower())(*args)
        except _GameOver:
            pass
        self._mask = None
        self.steps += 1
        if self.result is None and self.steps >= self.game.step_cap:
            self.result = "truncated"
        value = self._shaping if self.game.shaped else 0.0
        if self.result == "victory":
            value += 1.0
        elif self.result in TERMINAL_RESULTS:
            value -= 1.0
        self.total += value
        self._rewards = [value] * self.n

    def _end(self, result: str) -> None:
        self.result = result
        self.current_player = -1
        raise _GameOver

    def _shape(self, event: str, count: int = 1) -> None:
        self._shaping += self.game.weights[event] * count

    def _do_buy(self, slot: int) -> None:
        c = self.area[slot]
        card = CARDS[c]
        for x in range(3):
            self.res[x] -= card.cost[x]
        p = self.players[self.active]
        if card.kind == CONSTRUCTION:
            if len(p.table) < C.TABLE_CAP:
                p.table.append([c, False])
            else:
                self._suspend(CHOOSE_OVERFLOW, self.active, SRC_NONE, c, None, 0)
                self.pending["overflow"] = c
        else:
            p.discard.append(c)
        self._take_from_area(slot)

    def _do_use_hand(self, h: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        c = p.hand[h][0]
        e = CARDS[c].effect
        ref = ["card", c]
        if e.cost == "discard_self":
            del p.hand[h]
            p.discard.append(c)
            if seat == self.active:
                self.used_discarded.append(c)
            self._resolve(seat, ref, 0)
            return
        p.hand[h][1] = True
        p.hand.sort()
        self._pay(seat, e, SRC_HAND, c, ref)

    def _do_use_table(self, k: int) -> None:
        seat = self.current_player
        entry = self.players[seat].table[k]
        entry[1] = True
        self._pay(seat, CARDS[entry[0]].effect, SRC_TABLE, entry[0], ["card", entry[0]])

    def _do_use_general(self) -> None:
        seat = self.current_player
        p = self.players[seat]
        p.gen_used = True
        self._pay(seat, GENERALS[p.general].ability, SRC_GENERAL, -1, ["general", p.general])

    def _do_copy(self, rel: int, k: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        p.gen_used = True
        target = self.players[(seat + rel) % self.n].table[k][0]
        self._pay(seat, GENERALS[p.general].ability, SRC_COPY, target, ["card", target])

    def _pay(self, seat: int, cost: C.Effect, src: int, card: int, ref: list) -> None:
        """Pay ``cost`` (opening CHOOSE_DISCARD or PAY_ANY when needed), then resolve ``ref``."""
        if cost.cost == "discard_one":
            self._suspend(CHOOSE_DISCARD, seat, src, card, ref, 0)
            return
        if cost.cost == "resources":
            for x in range(3):
                self.res[x] -= cost.res[x]
            if cost.any:
                self._suspend(PAY_ANY, seat, src, card, ref, 0)
                self.pending["any"] = cost.any
                return
        self._resolve(seat, ref, 0)

    def _suspend(self, phase: int, seat: int, src: int, card: int, ref: list | None, at: int) -> None:
        ret = self.pending["ret"] if self.pending else self.phase
        self.pending = {
            "seat": seat,
            "src": src,
            "card": card,
            "effect": ref,
            "at": at,
            "any": 0,
            "trash": 0,
            "overflow": -1,
            "ret": ret,
        }
        self.phase = phase
        self.current_player = seat

    def _finish_pending(self) -> None:
        """Close the sub-decision and resolve the rest of its effect."""
        pend = self.pending
        self.pending = None
        self.phase = pend["ret"]
        self.current_player = pend["seat"]
        if pend["effect"] is not None:
            self._resolve(pend["seat"], pend["effect"], pend["at"])

    def _do_select_hand(self, h: int) -> None:
        seat = self.current_player
        p = self.players[seat]
        c, used = p.hand.pop(h)
        if self.phase == CHOOSE_DISCARD:
            p.discard.append(c)
            if used and seat == self.active:
                self.used_discarded.append(c)
            self._finish_pending()
            return
        self.exile.append(c)  # CHOOSE_TRASH
        self.pending["trash"] -= 1
        if self.pending["trash"] <= 0 or not self._has_discardable(seat):
            self._finish_pending()

    def _do_select_table(self, k: int) -> None:
        p = self.players[self.current_player]
        self.rubble.append(p.table.pop(k)[0])
        p.table.append([self.pending["overflow"], False])
        self._finish_pending()

    def _do_pay(self, x: int) -> None:
        self.res[x] -= 1
        self.pending["any"] -= 1
        if self.pending["any"] == 0:
            self._finish_pending()

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

    def _do_pass(self) -> None:
        ph = self.phase
        if ph == RECRUIT:
            self.phase = EFFECTS
        elif ph == EFFECTS:
            self._gather()
            self.support_queue = (
                [(self.active + i) % self.n for i in range(1, self.n)]
                if self.game.options["support_window"] == "pre_combat"
                else []
            )
            self._next_support()
        elif ph == SUPPORT:
            self._next_support()
        elif ph == COMBAT:
            self._end_turn()
        elif ph == CHOOSE_TRASH:
            self._finish_pending()

    # -- turn structure (2.3) --------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.active = (self.first + self.turns_done) % self.n
        p = self.players[self.active]
        self.res = list(GENERALS[p.general].reserve)
        self.dmg = 0
        self.bonus = [0, 0, 0]
        self.used_discarded = []
        self.used_in_deck = []
        self.hand_up = True
        for q in self.players:
            q.gen_used = False
            for entry in q.table:
                entry[1] = False
            for entry in q.hand:
                entry[1] = False
            q.hand.sort()
        self.attacked = [False] * C.NUM_COLUMNS
        self.phase = RECRUIT
        self.current_player = self.active
        for c, _ in list(p.table):
            e = CARDS[c].effect
            if e is not None and e.cost == "passive":
                for prim in e.do:
                    self._prim(prim, ORIGIN_PLAYER, self.active)

    def _gather(self) -> None:
        """End of EFFECTS: General + Units in hand + race bonuses (2.3.3)."""
        p = self.players[self.active]
        g = GENERALS[p.general]
        total = g.dmg
        count = [0, 0, 0, 0]
        for c, _ in p.hand:
            card = CARDS[c]
            if card.kind == UNIT:
                total += card.dmg
                count[card.race] += 1
        for r in range(3):
            total += self.bonus[r] * (count[r] + (1 if g.race == r else 0))
        self.dmg += total

    def _next_support(self) -> None:
        while self.support_queue:
            seat = self.support_queue.pop(0)
            if self._support_eligible(seat):
                self.phase = SUPPORT
                self.current_player = seat
                return
        self.phase = COMBAT
        self.current_player = self.active

    def _end_turn(self) -> None:
        p = self.players[self.active]
        p.discard += [c for c, _ in p.hand]
        p.hand = []
        self.hand_up = False  # the new hand is private until the owner's next turn
        self.used_discarded = []
        self.used_in_deck = []
        self._draw(self.active, GENERALS[p.general].draw)
        self.res = [0, 0, 0]
        self.dmg = 0
        self.bonus = [0, 0, 0]
        self.turns_done += 1
        if self.turns_done >= self.n:
            self._invasion()
            self._restart()
        else:
            self._start_turn()

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

    # -- zones -----------------------------------------------------------------------------------
    def _draw(self, seat: int, k: int) -> None:
        p = self.players[seat]
        for _ in range(k):
            if len(p.hand) >= C.HAND_CAP:
                break
            if not p.deck:
                if not p.discard:
                    break
                self._reshuffle(seat)
            c = p.deck.pop()
            used = False
            if seat == self.active and c in self.used_in_deck:
                self.used_in_deck.remove(c)
                used = True
            p.hand.append([c, used])
        p.hand.sort()

    def _reshuffle(self, seat: int) -> None:
        """The discard pile becomes the new deck; used cards of this turn go with it."""
        p = self.players[seat]
        p.deck, p.discard = p.discard, []
        self.chance.shuffle(p.deck)
        if seat == self.active:
            self.used_in_deck += self.used_discarded
            self.used_discarded = []

    def _take_from_area(self, slot: int) -> None:
        """A card left the Area: shift the column down and refill from the Fortress deck (2.4)."""
        col = slot % C.NUM_COLUMNS
        if slot < C.NUM_COLUMNS:
            self.area[col] = self.area[col + C.NUM_COLUMNS]
        self.area[col + C.NUM_COLUMNS] = -1
        target = col if self.area[col] < 0 else col + C.NUM_COLUMNS
        self.area[target] = self.fortress.pop()
        if not self.fortress:
            self._end("fortress_empty")

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

    # -- the primitive interpreter (4.1) ---------------------------------------------------------
    def _resolve(self, seat: int, ref: list, at: int) -> None:
        """Resolve the primitives of ``ref`` from index ``at``; TRASH may pause for CHOOSE_TRASH."""
        effect = CARDS[ref[1]].effect if ref[0] == "card" else GENERALS[ref[1]].ability
        do = effect.do
        for i in range(at, len(do)):
            prim = do[i]
            if prim[0] == "TRASH":
                if prim[1] > 0 and self._has_discardable(seat):
                    self._suspend(CHOOSE_TRASH, seat, SRC_NONE, -1, ref, i + 1)
                    self.pending["trash"] = prim[1]
                    return
                continue
            self._prim(prim, ORIGIN_PLAYER, seat)

    def _prim(self, prim: tuple, origin: int, seat: int) -> None:
        """Resolve one primitive. ``origin``: ORIGIN_PLAYER, ORIGIN_ADVERSARY or an Invader's column;
        ``seat``: the activator (DRAW, RECALL, REVEAL)."""
        name = prim[0]
        if name == "DMG":
            self.dmg += prim[1]
        elif name == "DMG_RACE":
            self.bonus[prim[1]] += prim[2]
        elif name == "GAIN":
            self.res[prim[1]] += prim[2]
        elif name == "DRAW":
            self._draw(seat, prim[1])
        elif name == "RECALL":
            p = self.players[seat]
            units = [c for c in p.discard if CARDS[c].kind == UNIT]
            if units and len(p.hand) < C.HAND_CAP:
                best = min(units, key=lambda c: (-CARDS[c].dmg, c))
                p.discard.reverse()  # take the most recent copy
                p.discard.remove(best)
                p.discard.reverse()
                used = best in self.used_discarded
                if used:
                    self.used_discarded.remove(best)
                p.hand.append([best, used])
                p.hand.sort()
        elif name == "REVEAL":
            p = self.players[seat]
            if not p.deck and p.discard:
                self._reshuffle(seat)
            if p.deck:
                c = p.deck.pop()
                if seat == self.active and c in self.used_in_deck:
                    self.used_in_deck.remove(c)
                    self.used_discarded.append(c)
                card = CARDS[c]
                if card.kind == UNIT:
                    self.dmg += card.dmg
                elif card.kind == RESOURCE:
                    self.res[card.provides] += 1
                p.discard.append(c)
        elif name == "HEAL":
            for _ in range(prim[1]):
                if self.rubble:
                    self.fortress.insert(0, self.rubble.pop())
                    self._shape("heal")
        elif name == "WARD":
            self.ward += prim[1]
        elif name == "MILL":
            for _ in range(prim[1]):
                self.rubble.append(self.fortress.pop())
                self._shape("fortress_lost")
                if not self.fortress:
                    self._end("fortress_empty")
        elif name == "DESTROY":
            for _ in range(prim[1]):
                self._destroy(origin)
        elif name == "REGEN":
            for c in range(C.NUM_COLUMNS):
                if self.field[c] >= 0 and (origin < 0 or c != origin):
                    self.markers[c] = max(0, self.markers[c] - prim[1])
        elif name == "DRAIN":
            self.dmg = max(0, self.dmg - prim[1])
        elif name == "DISRUPT":
            for p in self.players:
                for _ in range(prim[1]):
                    if p.hand:
                        c = p.hand.pop(self.chance.choice(len(p.hand)))[0]
                        p.discard.append(c)
        # FURY is static (read by fortress_damage); COPY is an action of its own.

    # -- text ------------------------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        name, args = LAYOUT.decode(action)
        seat = self.current_player if self.current_player >= 0 else self.active
        p = self.players[seat]
        try:
            if name == "BUY":
                c = self.area[args[0]]
                if c < 0:
                    return f"Buy from slot {args[0]} (empty)"
                cost = "/".join(map(str, CARDS[c].cost))
                return f"Buy {CARDS[c].name} ({cost}) from slot {args[0]}"
            if name == "USE_HAND":
                c = p.hand[args[0]][0]
                return f"Use {CARDS[c].name} in hand slot {args[0]}: {effect_text(CARDS[c].effect)}"
            if name == "USE_TABLE":
                c = p.table[args[0]][0]
                return f"Use Construction {CARDS[c].name}: {effect_text(CARDS[c].effect)}"
            if name == "USE_GENERAL":
                g = GENERALS[p.general]
                return f"Use {g.name}'s ability: {effect_text(g.ability)}"
            if name == "COPY":
                owner = (seat + args[0]) % self.n
                c = self.players[owner].table[args[1]][0]
                return f"COPY {CARDS[c].name} of player_{owner}: {_prims_text(CARDS[c].effect)}"
            if name == "ATTACK":
                iid = self.field[args[0]]
                if iid < 0:
                    return f"Attack column {args[0]} (no Invader)"
                col = args[0]
                levels = self.levels(col)
                last = self.markers[col] + 1 >= len(levels)
                return (
                    f"Attack {INVADERS[iid].name} in column {col}: pay level {self.markers[col] + 1} of "
                    f"{len(levels)} ({self.next_cost(col)} damage)" + (", defeats it" if last else "")
                )
            if name == "SELECT_HAND":
                what = "Trash" if self.phase == CHOOSE_TRASH else "Discard"
                return f"{what} {CARDS[p.hand[args[0]][0]].name} (hand slot {args[0]})"
            if name == "SELECT_TABLE":
                return f"Discard Construction {CARDS[p.table[args[0]][0]].name} to the Rubble"
            if name == "PAY":
                return f"Pay 1 {C.RESOURCE_NAMES[args[0]]}"
            return {
                RECRUIT: "Pass: end Construction and Recruitment",
                EFFECTS: "Pass: end Effects and gather damage",
                SUPPORT: "Pass: leave the support window",
                COMBAT: "Pass: end the turn",
                CHOOSE_TRASH: "Pass: stop trashing",
            }.get(self.phase, "Pass")
        except (IndexError, AttributeError, TypeError):
            return LAYOUT.label(action)

    def render(self, seat: int | None = None) -> str:
        lines = [
            f"Heroes and Monsters - {ADVERSARIES[self.adversary].name} - round {self.round}, "
            f"player_{self.active} active, phase {PHASES[self.phase]}, player_{self.current_player} to act",
            f"Fortress deck {len(self.fortress)} (Threat {self.threat()}), Rubble {len(self.rubble)}, "
            f"ward {self.ward}, "
            f"defeated {self.defeated}"
            + (f"/{self.game.victory_target}" if not ADVERSARIES[self.adversary].plans else ""),
        ]
        if self.plan >= 0:
            lines.append(
                f"Plan {PLANS[self.plan].name}: {self.plan_progress}/{self.plan_required()}, countdown "
                f"{self.plan_countdown}, thwarted {self.thwarted}"
            )
        bf = []
        for c in range(C.NUM_COLUMNS):
            if self.field[c] < 0:
                bf.append(f"[{c}] -")
            else:
                inv = INVADERS[self.field[c]]
                bf.append(
                    f"[{c}] {inv.name} ({C.INVADER_RACES[inv.race]}) health {self.levels(c)}, "
                    f"markers {self.markers[c]}, next level {self.next_cost(c)}, "
                    f"Fortress dmg {self.fortress_damage(c)}"
                )
        lines.append("Battlefield:")
        lines += ["  " + b for b in bf]
        for row in range(2):
            cards = [
                f"{CARDS[c].name} {'/'.join(map(str, CARDS[c].cost))}" if c >= 0 else "-"
                for c in self.area[4 * row : 4 * row + 4]
            ]
            lines.append(f"Area row {row + 1} (cost R/C/S): " + " | ".join(cards))
        pool = self.pool(self.active) if self.hand_up else [0, 0, 0]  # it counts the hand's resource cards
        bonus = ", ".join(f"{C.MONSTER_RACES[r]} +{b}" for r, b in enumerate(self.bonus) if b)
        lines.append(
            f"Active pool R{pool[0]} C{pool[1]} S{pool[2]}, D {self.dmg}" + (f", race bonus {bonus}" if bonus else "")
        )
        for i, p in enumerate(self.players):
            visible = seat is None or seat == i or (i == self.active and self.hand_up)
            hand = (
                ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.hand) if visible else f"{len(p.hand)} cards"
            )
            table = ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.table) or "-"
            lines.append(
                f"player_{i} {GENERALS[p.general].name}: hand [{hand}] table [{table}] deck {len(p.deck)} "
                f"discard {len(p.discard)}"
            )
        if self.result is not None:
            lines.append(f"Game over: {END_REASONS[self.result]}")
        return "\n".join(lines)

    # -- observation -----------------------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        return encode(self, seat)

    # -- copies and hidden information -------------------------------------------------------------
    def clone(self) -> HeroesAndMonstersState:
        return self.game.state_from_json(self.to_json())

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> HeroesAndMonstersState:
        """A copy in which what ``seat`` cannot see is dealt anew (5.2): the hands of the other
        waiting players (re-dealt from their own deck + hand), every deck order, the Box versus the
        Fortress deck, Sylvaen's Plans not yet revealed, and the generator's future draws."""
        data = self.to_json()

        def perm(items: list) -> list:
            return [items[j] for j in rng.permutation(len(items))]

        for i, pd in enumerate(data["players"]):
            if i != seat and (i != self.active or not self.hand_up):
                cards = perm(pd["deck"] + [c for c, _ in pd["hand"]])
                size = len(pd["hand"])
                pd["hand"] = sorted([c, False] for c in cards[:size])
                pd["deck"] = cards[size:]
            else:
                pd["deck"] = perm(pd["deck"])
        unseen = perm(data["fortress"] + data["box"])
        data["box"] = sorted(unseen[: len(data["box"])])
        data["fortress"] = unseen[len(data["box"]) :]
        data["inv_deck"] = perm(data["inv_deck"])
        if ADVERSARIES[self.adversary].shuffle_plans:
            hidden = perm(data["plan_deck"] + data["box_plans"])
            data["plan_deck"] = hidden[: len(data["plan_deck"])]
            data["box_plans"] = hidden[len(data["plan_deck"]) :]
        data["chance"] = Chance(int(rng.integers(2**63))).to_json()  # a new future, no script (core contract)
        return self.game.state_from_json(data)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in _FIELDS:
            v = getattr(self, name)
            d[name] = list(v) if isinstance(v, list) else v
        d["pending"] = dict(self.pending) if self.pending else None
        if d["pending"] and d["pending"]["effect"] is not None:
            d["pending"]["effect"] = list(d["pending"]["effect"])
        d["players"] = [p.to_json() for p in self.players]
        d["rewards"] = list(self._rewards)
        d["chance"] = self.chance.to_json()
        return d

    @classmethod
    def from_json(cls, game: HeroesAndMonstersGame, data: dict[str, Any]) -> HeroesAndMonstersState:
        s = cls(game, Chance.from_json(data["chance"]))
        defaults = {"used_in_deck": [], "hand_up": True}  # fields added after the first release
        for name in _FIELDS:
            v = data[name] if name in data else defaults[name]
            setattr(s, name, list(v) if isinstance(v, list) else v)
        s.attacked = [bool(a) for a in s.attacked]
        if s.pending is not None:
            s.pending = dict(s.pending)
            if s.pending["effect"] is not None:
                s.pending["effect"] = list(s.pending["effect"])
        s.players = [Player.from_json(p) for p in data["players"]]
        if len(s.players) != game.num_players:
            raise ValueError(f"the state has {len(s.players)} players but the game has {game.num_players}")
        s._rewards = [float(r) for r in data.get("rewards", [0.0] * s.n)]
        s.total = float(data["total"])
        return s
