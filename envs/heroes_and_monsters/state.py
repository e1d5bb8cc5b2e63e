"""Heroes and Monsters, the state: :class:`HeroesAndMonstersState`, its declared fields, the legal
mask and ``apply_legal`` (which action block runs which rule function), status and rewards, the
public derived quantities, and the copies and JSON form. The rules themselves are plain functions
in ``setup.py``, ``turn.py`` (the player turn), ``combat.py``, ``invasion.py`` and ``effects.py``
(the primitives and the zones); the words are in ``text.py``.

A state is plain data (lists of card ids, counters), and all randomness goes through
``state.chance``. A terminal event raises ``effects.GameOver`` inside a resolution; ``apply_legal``
catches it, so the first terminal event ends the game at once (docs 2.6 precedence).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Outcome, State
from envs.heroes_and_monsters import combat, text, turn
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.content import ADVERSARIES, ANY_RACE, CARDS, INVADERS, PLANS
from envs.heroes_and_monsters.effects import END_REASONS, TERMINAL_RESULTS, GameOver
from envs.heroes_and_monsters.turn import PHASES, RECRUIT

if TYPE_CHECKING:
    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

#: the rule function that plays each action block, called with the block's arguments
RULE_OF_BLOCK = {
    "BUY": turn.buy,
    "USE_HAND": turn.use_hand_card,
    "USE_TABLE": turn.use_construction,
    "USE_GENERAL": turn.use_general,
    "COPY": turn.copy_construction,
    "ATTACK": combat.attack,
    "SELECT_HAND": turn.select_hand_card,
    "SELECT_TABLE": turn.select_construction,
    "PAY": turn.pay_any,
    "PASS": turn.pass_phase,
}
assert set(RULE_OF_BLOCK) == {b.name for b in LAYOUT.blocks}, "every action block has its rule"
_RULE_OF_ACTION = tuple((RULE_OF_BLOCK[name], args) for name, args in map(LAYOUT.decode, range(NUM_ACTIONS)))

#: the fields of the JSON form, in its order (besides ``players``, ``pending``, ``rewards``, ``chance``)
JSON_FIELDS = (
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
    "bought",
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
#: fields added after the first release, and their value in a state written before them
JSON_DEFAULTS = {"used_in_deck": [], "hand_up": True, "bought": 0}


def _fury_by_race(prims) -> list[int]:
    """FURY primitives ``(kind, race, n)`` summed by race: Human, Elf, Dwarf, Any (index ANY_RACE = -1)."""
    out = [0, 0, 0, 0]
    for _, race, n in prims:
        out[race] += n
    return out


# fortress_damages(): the FURY of each Threat level of each Adversary and of each Plan by race; each
# Invader's aura as (race, n); its race; its printed damage minus its own aura's share (an aura never
# affects its own Invader)
_THREAT_FURY = [[_fury_by_race(level) for level in a.threat_fury] for a in ADVERSARIES]
_PLAN_FURY = [[(race, n) for _, race, n in plan.fury] for plan in PLANS]
_AURA = [[(race, n) for _, race, n in inv.aura] for inv in INVADERS]
_RACE = [inv.race for inv in INVADERS]
_OWN_DAMAGE = [inv.damage - sum(n for _, race, n in inv.aura if race in (ANY_RACE, inv.race)) for inv in INVADERS]


class Player:
    """One seat's cards. Decks and piles are lists with the top at the end."""

    __slots__ = ("general", "deck", "hand", "discard", "table", "gen_used")

    def __init__(self, general: int):
        self.general = general  # General id
        self.deck: list[int] = []
        self.hand: list[list] = []  # [card id, used this turn], sorted
        self.discard: list[int] = []
        self.table: list[list] = []  # Constructions: [card id, used this turn], in acquisition order
        self.gen_used = False  # the General's ability (or COPY) was used this turn

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


class HeroesAndMonstersState(State):
    """The whole game. Every field is set in :meth:`__init__`, with what it holds.

    Public attributes (read by the heuristic bot and tests; docs section 10): the fields below, and
    the methods ``pool(seat)``, ``threat()``, ``levels(c)``, ``next_cost(c)``, ``remaining_health(c)``,
    ``fortress_damage(c)``, ``fortress_damages()``, ``plan_required()``. Decks and piles are lists
    with the top card last. A bot must not read another waiting player's ``hand`` or any ``deck``
    order, nor ``fortress``/``box``/``inv_deck`` beyond their sizes.
    """

    def __init__(self, game: HeroesAndMonstersGame, chance: Chance):
        self.game = game
        self.chance = chance  # every shuffle and random pick
        self.n = game.num_players
        self.players: list[Player] = []  # by seat
        # the Adversary and the Fortress
        self.adversary = 0  # Adversary id
        self.fortress: list[int] = []  # the Fortress deck (its size is the team's life)
        self.area: list[int] = [-1] * C.NUM_SLOTS  # the Area to recruit from, slot = 4 * row + column, -1 empty
        self.rubble: list[int] = []  # destroyed and milled Fortress cards (HEAL takes them back)
        self.box: list[int] = []  # Fortress cards out of this game, unseen
        self.exile: list[int] = []  # trashed cards
        # the Battlefield
        self.inv_deck: list[int] = []  # Invasion deck
        self.inv_discard: list[int] = []  # defeated Invaders
        self.field: list[int] = [-1] * C.NUM_COLUMNS  # Invader id per column, -1 empty
        self.markers: list[int] = [0] * C.NUM_COLUMNS  # health levels paid per column
        self.attacked: list[bool] = [False] * C.NUM_COLUMNS  # attacked this turn (on-attacked effects fired)
        self.ward = 0  # destructions the ward still absorbs this round
        # the round and the turn
        self.round = 1
        self.first = 0  # first player of the round
        self.turns_done = 0  # turns played this round
        self.active = 0  # the seat whose turn it is
        self.phase = RECRUIT  # turn.PHASES
        self.current_player = 0  # the seat to decide (the active one, a supporter, or a payer), -1 at the end
        self.res = [0, 0, 0]  # active player's pool minus the resource cards in hand
        self.dmg = 0  # D, the active player's damage pool
        self.bonus = [0, 0, 0]  # DMG_RACE bonuses (Greenskin, Undead, Dragonkin)
        # cards of the active player that left the hand used this turn, by where they are now: the
        # discard pile, or (after a reshuffle) the deck; a card drawn or recalled from there stays used
        self.used_discarded: list[int] = []
        self.used_in_deck: list[int] = []
        self.hand_up = True  # the active player's hand lies face up (from its start of turn to its discard)
        self.bought = 0  # cards the active player has recruited this turn (public; bots limit their buying by it)
        # Plans (Sylvaen, Thargrim)
        self.plan_deck: list[int] = []  # Plans still to come, the next first
        self.box_plans: list[int] = []  # Plans out of this game, unseen
        self.plan = -1  # the active Plan, -1 none
        self.plan_progress = 0
        self.plan_countdown = 0
        # the score and the end
        self.thwarted = 0  # Plans thwarted
        self.defeated = 0  # Invaders defeated
        self.markers_placed = 0
        # an open sub-decision (turn.suspend): seat, src, card, effect, at, any, trash, overflow, ret
        self.pending: dict[str, Any] | None = None
        self.support_queue: list[int] = []  # seats whose support window is still to come
        self.result: str | None = None  # None while the game runs, else a key of effects.END_REASONS
        self.steps = 0  # decisions played
        self.total = 0.0  # the sum of every step's reward
        # not in the JSON form: this step's results and the mask's cache (the observation memo: _obs_memo)
        self._rewards = [0.0] * self.n  # the reward of every seat from the last apply
        self.shaping = 0.0  # this step's shaped reward so far (effects.shape)
        self._mask: np.ndarray | None = None  # legal_mask() of the decision now, once computed

    # -- legality and applying actions -------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = turn.legal_mask(self)
        return self._mask

    def illegal_why(self) -> str:
        return f"the decision now is {PHASES[self.phase]}" if self.result is None else ""

    def apply_legal(self, action: int) -> None:
        self.shaping = 0.0
        self._mask = None
        rule, args = _RULE_OF_ACTION[action]
        try:
            rule(self, *args)
        except GameOver:
            pass
        self._mask = None
        self.steps += 1
        if self.result is None and self.steps >= self.game.step_cap:
            self.result = "truncated"
        value = self.shaping if self.game.shaped else 0.0
        if self.result == "victory":
            value += 1.0
        elif self.result in TERMINAL_RESULTS:
            value -= 1.0
        self.total += value
        self._rewards = [value] * self.n

    # -- words (the observation is the core State.observe: observation.OBSERVATION_LAYOUT.encode) -------
    def describe_action(self, action: int) -> str:
        return text.describe_action(self, action)

    def render(self, seat: int | None = None) -> str:
        return text.render(self, seat)

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
        """The result, the same for every seat: +1 a victory, -1 a defeat, 0 truncated or still
        running. Under reward_scheme="shaped" the rewards also pay ``shaping_potentials()``."""
        return [self._result_value()] * self.n

    def shaping_potentials(self) -> list[float]:
        """What the shaped scheme's events have paid so far (the rewards beyond the result)."""
        return [self.total - self._result_value()] * self.n

    def _result_value(self) -> float:
        if self.result == "victory":
            return 1.0
        return -1.0 if self.result in TERMINAL_RESULTS else 0.0

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
        fury = list(_THREAT_FURY[self.adversary][self.threat() - 1])  # by race: Human, Elf, Dwarf, Any (-1)
        if self.plan >= 0:
            for race, n in _PLAN_FURY[self.plan]:
                fury[race] += n
        for iid in self.field:
            if iid >= 0:
                for race, n in _AURA[iid]:
                    fury[race] += n
        return [_OWN_DAMAGE[iid] + fury[ANY_RACE] + fury[_RACE[iid]] if iid >= 0 else 0 for iid in self.field]

    def plan_required(self) -> int:
        return PLANS[self.plan].required[self.n - 1] if self.plan >= 0 else 0

    # -- copies and hidden information -------------------------------------------------------------
    def clone(self) -> HeroesAndMonstersState:
        return HeroesAndMonstersState.from_json(self.game, self.to_json())  # a copy of a state: no checks

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
        return HeroesAndMonstersState.from_json(self.game, data)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in JSON_FIELDS:
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
        """Build the state ``data`` describes, trusting it (``Game.state_from_json`` checks it first)."""
        s = cls(game, Chance.from_json(data["chance"]))
        for name in JSON_FIELDS:
            v = data[name] if name in data else JSON_DEFAULTS[name]
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
