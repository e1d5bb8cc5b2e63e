"""Heroes and Monsters rules, the state: :class:`HeroesAndMonstersState` with its fields, setup
(docs 1), status, derived public quantities, zones, the primitive interpreter (3.1), observation,
copies and JSON. The phases live in mixins: ``turn.py`` (the player turn), ``combat.py``,
``invasion.py`` (Invasion and restart) and ``text.py``.

A state is plain data (lists of card ids, counters); every effect is a list of primitives from
``content.py`` interpreted by :meth:`HeroesAndMonstersState._prim`. All randomness goes through
``state.chance``. A terminal event raises the private :class:`_GameOver` inside a resolution, so
the first terminal event ends the game at once and nothing after it resolves (2.6 precedence).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Outcome, State, check_seat
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.combat import CombatMixin
from envs.heroes_and_monsters.common import (
    CHOOSE_TRASH,
    END_REASONS,
    ORIGIN_ADVERSARY,
    ORIGIN_PLAYER,
    PHASES,
    RECRUIT,
    SRC_NONE,
    TERMINAL_RESULTS,
    Player,
    _GameOver,
)
from envs.heroes_and_monsters.content import (
    ADVERSARIES,
    ADVERSARY_KEYS,
    ANY_RACE,
    CARDS,
    GENERALS,
    INVADERS,
    PLANS,
    RESOURCE,
    UNIT,
)
from envs.heroes_and_monsters.invasion import InvasionMixin
from envs.heroes_and_monsters.observation import encode
from envs.heroes_and_monsters.text import TextMixin
from envs.heroes_and_monsters.turn import TurnMixin

if TYPE_CHECKING:
    from envs.heroes_and_monsters.rules import HeroesAndMonstersGame

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


# content lists used at every setup, and each action's handler method with its arguments
_STARTING_DECKS = tuple(tuple(C.starting_deck(g.id)) for g in GENERALS)
_FORTRESS_CARDS = tuple(C.fortress_card_list())
_INVADER_CARDS = tuple(C.invader_list())
_GENERALS_BY_RACE = tuple(tuple(g.id for g in GENERALS if g.race == r) for r in range(3))
_HANDLERS = tuple(("_do_" + name.lower(), args) for name, args in (LAYOUT.decode(a) for a in range(NUM_ACTIONS)))


class HeroesAndMonstersState(TurnMixin, CombatMixin, InvasionMixin, TextMixin, State):
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
        self._obs_cache = None  # the observation encoder's reusable blocks (observation.EncoderCache)

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
            p.deck = list(_STARTING_DECKS[g])
            ch.shuffle(p.deck)
            s.players.append(p)
        for seat, p in enumerate(s.players):
            s._draw(seat, GENERALS[p.general].draw)
        try:
            s.fortress = list(_FORTRESS_CARDS)
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
            s.inv_deck = list(_INVADER_CARDS)
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
        by_race = _GENERALS_BY_RACE
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
        return Outcome.team(self.n, self.result == "victory", END_REASONS[self.result], self.result == "truncated")

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
        return list(self.game.invader_levels[self.field[column]])

    def next_cost(self, column: int) -> int:
        levels = self.game.invader_levels[self.field[column]]
        return levels[self.markers[column]] if self.markers[column] < len(levels) else 0

    def remaining_health(self, column: int) -> int:
        return sum(self.game.invader_levels[self.field[column]][self.markers[column] :])

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

    def _has_discardable(self, seat: int, pool: list[int] | None = None) -> bool:
        """Whether ``seat`` holds a card it may give up (``pool``: its pool, if already known)."""
        if pool is None:
            pool = self.pool(seat)
        return any(self._discardable(seat, c, pool) for c, _ in self.players[seat].hand)

    @staticmethod
    def _affordable(effect: C.Effect, pool: list[int]) -> bool:
        return all(pool[x] >= effect.res[x] for x in range(3)) and sum(pool) - sum(effect.res) >= effect.any

    # -- applying actions ------------------------------------------------------------------------
    def apply_legal(self, action: int) -> None:
        self._shaping = 0.0
        self._mask = None
        handler, args = _HANDLERS[action]
        try:
            getattr(self, handler)(*args)
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

    # -- observation -----------------------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        return encode(self, check_seat(self, seat))

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
