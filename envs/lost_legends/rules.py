"""Lost Legends rules: the game state, legal masks, apply(action), scoring.

Pure rules: no gymnasium or PettingZoo here. Seats are absolute (0..n-1) inside the state; only
observations are relative. Section numbers (2.4, 2.7.2...) refer to docs/lost_legends.md.

How a game runs: the state holds one open *decision* (its kind and the seat that takes it) and a
stack of *tasks*, the rule steps still to do (``["turn", 2]``, ``["event", 1, mel, rng, mag, cha,
source]``...). After an action the engine pops and runs tasks until one of them opens the next
decision. Tasks are plain JSON lists, so a state in the middle of a turn, a monster attack or a
charge round-trips through :meth:`LostLegendsState.to_json` unchanged. All randomness (hero draw,
starting player, pile and deck shuffles) goes through ``state.chance``.

Card effects are interpreted from the :class:`~envs.lost_legends.content.Line` primitives of the
content tables; no card is named in this file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Game, Outcome, State, check_state_header
from envs.core.options import (
    OBSERVATION_MODE,
    Option,
    is_bool,
    is_int_in,
    is_number_at_least,
    num_players_option,
    reward_scheme_option,
)
from envs.lost_legends import actions as A
from envs.lost_legends.content import (
    ANY,
    CARDS,
    DRAFT_ROUNDS,
    GOLD_BONUS,
    HAND_SIZE,
    HERO_NAMES,
    HEROES,
    KINDS,
    LEGEND_PER_TROPHY,
    LEVEL_EQUIPMENT,
    LEVEL_MONSTERS,
    LEVEL_NAMES,
    MAX_PLAYERS,
    MONSTER_TYPE_NAMES,
    MONSTER_TYPES,
    MONSTERS_PER_PLAYER,
    NUM_LEVELS,
    NUM_SLOTS,
    REWARD_GOLD,
    SKILL_GOLD,
    SKILLS,
    TRACK_MAX,
    TROPHY_STACKS,
    XP_POINTS,
    XP_THRESHOLDS,
)
from envs.lost_legends.observation import OBSERVATION_LAYOUT
from envs.lost_legends.observation import encode as encode_observation

NO = -1

# Decision kinds (the order is the observation's one-hot, docs 6.2).
DECISIONS = (
    "DRAFT_PICK",
    "DRAFT_PLACE",
    "DRAFT_BUY_COMMITTED",
    "SELECT_OWN",
    "SELECT_NONE",
    "SELECT_AFTER_PASS",
    "SELECT_DRAWN",
    "CHOOSE_WEAPON",
    "ATTACK_BUILD",
    "DEFEND",
    "HEAL",
    "LEVEL_REWARD",
    "LOSE_SKILL",
    "CHARGE_EXHAUST",
)
(
    DRAFT_PICK,
    DRAFT_PLACE,
    DRAFT_BUY_COMMITTED,
    SELECT_OWN,
    SELECT_NONE,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    CHOOSE_WEAPON,
    ATTACK_BUILD,
    DEFEND,
    HEAL,
    LEVEL_REWARD,
    LOSE_SKILL,
    CHARGE_EXHAUST,
) = range(len(DECISIONS))

PHASES = ("gear-up", "combat", "final round", "over")
GEAR_UP, COMBAT, FINAL, OVER = range(len(PHASES))

# Damage-event sources (observation V8).
SOURCES = ("monster", "all", "charge")
SRC_MONSTER, SRC_ALL, SRC_CHARGE = range(3)

UNARMED_W = 3  # the attack context's weapon when attacking unarmed
ABSORB_ORDER = (3, 2, 1, 0)  # "any" blocks absorb chaos, magic, range, melee in that order

# Equipment slots (2.4): weapons by type, armor by piece, then spells and artifacts.
KIND_SLOT = {"W-mel": 0, "W-rng": 1, "W-mag": 2, "A-brp": 3, "A-shd": 4, "A-hlm": 5}
SPELL_SLOTS = (6, 7, 8)
ARTIFACT_SLOTS = (9, 10, 11)
PASSIVE_SLOTS = (3, 4)


# Per card id: the static totals the rules read often (0 for monsters).
_TOTAL = {
    op: tuple(c.total(op) if hasattr(c, "total") else 0 for c in CARDS)
    for op in ("LIFE", "MANA", "REFRESH", "HEAL", "RESTORE")
}
_LIFE, _MANA, _REFRESH = _TOTAL["LIFE"], _TOTAL["MANA"], _TOTAL["REFRESH"]


def _heroes_ok(v: Any) -> bool:
    return v is None or (
        isinstance(v, (list, tuple)) and all(h in HERO_NAMES for h in v) and len(set(v)) == len(v) and 3 <= len(v) <= 5
    )


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(3, MAX_PLAYERS, 4),
    reward_scheme_option(
        "win_loss",
        ("win_loss", "rank", "score_margin"),
        {
            "shaped": "potential-based: each step the change of (own provisional score - mean of the others') "
            "/ shaped_scale, plus shaped_terminal_weight x win_loss at the end"
        },
    ),
    Option(
        "heroes",
        None,
        f"None (random distinct heroes) or a list of num_players distinct names from {list(HERO_NAMES)}",
        "the hero of each seat",
        check=_heroes_ok,
    ),
    Option(
        "starting_player",
        None,
        "None (random) or a seat 0..num_players-1",
        "the first starting player",
        check=lambda v: v is None or is_int_in(0, MAX_PLAYERS - 1)(v),
    ),
    Option("shaped_scale", 40.0, "a number >= 1", "divisor of the shaped potential", check=is_number_at_least(1.0)),
    Option(
        "shaped_terminal_weight",
        1.0,
        "a number >= 0",
        "weight of the win/loss reward added at the end under shaped",
        check=is_number_at_least(0.0),
    ),
    Option(
        "mask_useless_actions",
        True,
        "True or False",
        "hide legal but pointless uses (a block that prevents nothing, RESTORE at full mana)",
        check=is_bool,
    ),
    Option(
        "combat_turn_cap_per_player",
        12,
        "an integer from 1 to 100",
        "performed combat turns per player after which the phase end fires (termination safeguard)",
        check=is_int_in(1, 100),
    ),
    Option("max_steps", 50_000, "an integer from 100 to 1000000", "truncation safety net", check=is_int_in(100, 10**6)),
    OBSERVATION_MODE,
)


def cond_met(cond: tuple, levels: list[int]) -> bool:
    """A requirement (alternatives of all-lists) holds for these skill levels; () always holds."""
    if not cond:
        return True
    for alt in cond:
        if all(levels[s] >= lv for s, lv in alt):
            return True
    return False


def card_cost(card, levels: list[int]) -> int:
    """Base cost minus every satisfied discount box, floored at 0 (2.4)."""
    cost = card.cost
    for req, amount in card.discounts:
        if cond_met(req, levels):
            cost -= amount
    return max(0, cost)


def apply_modifier(x: int, mod: str) -> int:
    if mod == "x2":
        return 2 * x
    if mod == "/2":
        return (x + 1) // 2
    if mod == "0":
        return 0
    return x


def xp_points(xp: int) -> int:
    for low, points in XP_POINTS:
        if xp >= low:
            return points
    return 0


def hero_level(xp: int) -> int:
    return 1 + sum(xp >= t for t in XP_THRESHOLDS)


def gold_bonus(golds: list[int]) -> list[int]:
    """6 for every player with the most gold, 3 for the second-highest distinct amount; 0 gold never scores."""
    amounts = sorted({g for g in golds if g > 0}, reverse=True)
    out = []
    for g in golds:
        if amounts and g == amounts[0]:
            out.append(GOLD_BONUS[0])
        elif len(amounts) > 1 and g == amounts[1]:
            out.append(GOLD_BONUS[1])
        else:
            out.append(0)
    return out


class LostLegendsGame(Game):
    """Lost Legends, 3-5 players. See docs/lost_legends.md for the rules as implemented."""

    env_id = "lost_legends_v0"
    min_players = 3
    max_players = MAX_PLAYERS
    cooperative = False
    action_layout = A.LAYOUT
    observation_layout = OBSERVATION_LAYOUT
    option_spec = OPTION_SPEC

    def __init__(self, **options: Any):
        self.encode = encode_observation
        super().__init__(**options)
        o = self.options
        n = self.num_players
        if o["heroes"] is not None and len(o["heroes"]) != n:
            raise ValueError(
                f"option heroes={o['heroes']!r} is not allowed; give {n} distinct names from {list(HERO_NAMES)}"
            )
        if o["starting_player"] is not None and o["starting_player"] >= n:
            raise ValueError(
                f"option starting_player={o['starting_player']} is not allowed; it must be None or 0..{n - 1}"
            )
        # Equipment in play at this table: the removal by player number (1.4).
        self.equipment_in_play = tuple(tuple(c for c in ids if CARDS[c].players <= n) for ids in LEVEL_EQUIPMENT)
        self.equipment_removed = tuple(c for ids in LEVEL_EQUIPMENT for c in ids if CARDS[c].players > n)

    def max_game_length(self) -> int:
        return self.options["max_steps"]

    def new_state(self, seed: int | None = None) -> LostLegendsState:
        return LostLegendsState.new(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> LostLegendsState:
        return LostLegendsState.from_json(self, data)


class LostLegendsState(State):
    """The whole game. Per-seat attributes are lists indexed by absolute seat."""

    # -- construction -------------------------------------------------------------------------------
    def _blank(self, game: LostLegendsGame, chance: Chance) -> None:
        n = game.num_players
        self.game = game
        self.n = n
        self.chance = chance
        self.heroes = [0] * n
        self.gold = [0] * n
        self.life = [0] * n
        self.mana = [0] * n
        self.life_base = [0] * n
        self.mana_base = [0] * n
        self.xp = [0] * n
        self.legend = [0] * n
        self.skill_cards: list[list[int]] = [[] for _ in range(n)]
        self.levels: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]  # derived: skill levels
        self.slots = [[NO] * NUM_SLOTS for _ in range(n)]
        self.exhausted = [[False] * NUM_SLOTS for _ in range(n)]
        self.trophies: list[list[int]] = [[] for _ in range(n)]
        self.tokens = [[0] * len(TROPHY_STACKS) for _ in range(n)]  # value held per stack (0 = none)
        self.stack_taken = [0] * len(TROPHY_STACKS)
        self.challenge = [NO] * 4
        self.defeated = [False] * n
        self.front = [NO] * n
        self.markers = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.picks = [NO] * n
        self.seen: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = [[], [], []]
        self.removed: list[int] = []
        self.piles: list[list[int]] = [[], [], []]
        self.reserves: list[list[int]] = [[], [], []]
        self.faceup = NO
        self.box: list[int] = []
        self.sixth: list[int] = []
        self.level = 0
        self.phase = GEAR_UP
        self.start = 0
        self.draft_round = 1
        self.turn_seat = NO
        self.performed = 0
        self.trigger = NO
        self.level_ends = 0
        self.decision = NO
        self.current_player = NO
        self.tasks: list[list] = []
        self.answering = NO  # the decision the action being applied answers
        self.atk: dict[str, Any] | None = None  # weapon, used (slots in order), fors (per slot)
        self.ev: dict[str, Any] | None = None  # seat, inc, used, source
        self.exh_kinds: list[int] = []
        self.conversions = 0
        self.pending_rewards = 0
        self.gold_out = 0  # paid by the supply to players
        self.gold_in = 0  # paid by players to the supply
        self.initial_gold = 0
        self.steps = 0
        self.truncated = False
        self._rewards = [0.0] * n
        self._mask: np.ndarray | None = None
        self._phi: list[float] | None = None

    @classmethod
    def new(cls, game: LostLegendsGame, seed: int | None) -> LostLegendsState:
        s = cls.__new__(cls)
        s._blank(game, Chance(seed))
        n = s.n
        o = game.options
        # 1. Heroes.
        if o["heroes"] is None:
            order = list(range(len(HEROES)))
            s.chance.shuffle(order)
            s.heroes = order[:n]
        else:
            s.heroes = [HERO_NAMES.index(h) for h in o["heroes"]]
        for i, h in enumerate(s.heroes):
            _, _, gold, life, mana = HEROES[h]
            s.gold[i], s.life_base[i], s.mana_base[i] = gold, life, mana
            s.life[i], s.mana[i] = life, mana
        s.initial_gold = sum(s.gold)
        s._derive_levels()
        # 2. Starting player.
        s.start = s.chance.choice(n) if o["starting_player"] is None else o["starting_player"]
        # 4. Cards per level: removal by player number, monster pile and reserve.
        s.removed = list(game.equipment_removed)
        for lv in range(NUM_LEVELS):
            s.decks[lv] = list(game.equipment_in_play[lv])
            monsters = list(LEVEL_MONSTERS[lv])
            s.chance.shuffle(monsters)
            s.piles[lv] = monsters[: MONSTERS_PER_PLAYER * n]
            s.reserves[lv] = monsters[MONSTERS_PER_PLAYER * n :]
        s.tasks = [["level_start"]]
        s._run()
        return s

    def _derive_levels(self) -> None:
        for i in range(self.n):
            lv = [0, 0, 0, 0]
            for sk in HEROES[self.heroes[i]][1]:
                lv[SKILLS.index(sk)] += 1
            for c in self.skill_cards[i]:
                lv[CARDS[c].skill] += 1
            self.levels[i] = lv

    # -- derived quantities -------------------------------------------------------------------------
    def max_life(self, i: int) -> int:
        bonus = 0
        for c in self.slots[i]:
            if c != NO:
                bonus += _LIFE[c]
        return min(TRACK_MAX, self.life_base[i] + bonus)

    def max_mana(self, i: int) -> int:
        bonus = 0
        for c in self.slots[i]:
            if c != NO:
                bonus += _MANA[c]
        return min(TRACK_MAX, self.mana_base[i] + bonus)

    def initial_skills(self, i: int) -> list[int]:
        lv = [0, 0, 0, 0]
        for sk in HEROES[self.heroes[i]][1]:
            lv[SKILLS.index(sk)] += 1
        return lv

    def added_skills(self, i: int) -> list[int]:
        out = [0, 0, 0, 0]
        for c in self.skill_cards[i]:
            out[CARDS[c].skill] += 1
        return out

    def trophy_counts(self, i: int) -> list[int]:
        out = [0, 0, 0, 0]
        for m in self.trophies[i]:
            out[CARDS[m].type] += 1
        return out

    def cost(self, i: int, card_id: int) -> int:
        return card_cost(CARDS[card_id], self.levels[i])

    def target_slot(self, i: int, card_id: int, slots: list[int] | None = None) -> int:
        """The slot the card would take, or NO if the slot rules forbid it (2.4)."""
        slots = self.slots[i] if slots is None else slots
        card = CARDS[card_id]
        for c in slots:
            if c != NO and CARDS[c].name == card.name:
                return NO
        kind = KINDS[card.kind]
        if kind in KIND_SLOT:
            s = KIND_SLOT[kind]
            return s if slots[s] == NO else NO
        for s in SPELL_SLOTS if card.location == "S" else ARTIFACT_SLOTS:
            if slots[s] == NO:
                return s
        return NO

    def buy_legal_now(self, i: int, card_id: int) -> bool:
        return self.target_slot(i, card_id) != NO and self.gold[i] >= self.cost(i, card_id)

    def buy_legal_after_conversions(self, i: int, card_id: int) -> bool:
        """BUY would be legal after converting every owned equipment card (2.4)."""
        lv = list(self.levels[i])
        for c in self.slots[i]:
            if c != NO:
                lv[CARDS[c].skill] += 1
        return self.gold[i] >= card_cost(CARDS[card_id], lv)

    def pick_revealed(self, i: int) -> bool:
        """Seat ``i``'s pick is face up: it is placing it now (2.2 step 3)."""
        return i == self.current_player and self.decision in (DRAFT_PLACE, DRAFT_BUY_COMMITTED)

    # -- the task engine ----------------------------------------------------------------------------
    def _push(self, *tasks: list) -> None:
        """Queue tasks so that the first one given runs first."""
        self.tasks.extend(reversed(tasks))

    def _open(self, kind: int, seat: int) -> None:
        self.decision = kind
        self.current_player = seat

    def _run(self) -> None:
        """Run rule steps until one opens a decision or the game ends."""
        while self.decision == NO and self.phase != OVER:
            task = self.tasks.pop()
            getattr(self, "_t_" + task[0])(*task[1:])
        if self.phase == OVER:
            self.current_player = NO
            self.decision = NO

    # -- gear-up (2.1-2.4) --------------------------------------------------------------------------
    def _t_level_start(self) -> None:
        n, lv = self.n, self.level
        self.phase = GEAR_UP
        pile = self.piles[lv]
        self.chance.shuffle(pile)
        for k in range(n):
            self.front[(self.start + k) % n] = pile.pop()
        self.faceup = pile.pop()
        deck = self.decks[lv]
        self.chance.shuffle(deck)
        for k in range(n):
            seat = (self.start + k) % n
            self.hands[seat] = sorted(deck[:HAND_SIZE])
            del deck[:HAND_SIZE]
            self.seen[seat] = list(self.hands[seat])
        for i in range(n):
            self.life[i], self.mana[i] = self.max_life(i), self.max_mana(i)
        self.draft_round = 1
        self._push(["draft_pick", 0])

    def _t_draft_pick(self, k: int) -> None:
        n = self.n
        if k < n:
            self._push(["draft_pick", k + 1])
            self._open(DRAFT_PICK, (self.start + k) % n)
            return
        self._push(["draft_place", 0])

    def _pass_hands(self) -> None:
        """Each remaining hand goes to the left neighbour; after round 5 the last card is boxed.

        Done once every pick is placed: the passed cards lie face down above the receiver's board
        until then (rulebook), and seeing them earlier would reveal an unrevealed pick whenever a
        hand comes back round the table (3-4 players)."""
        n = self.n
        if self.draft_round < DRAFT_ROUNDS:
            hands = [self.hands[(i - 1) % n] for i in range(n)]
            self.hands = hands
            for i in range(n):
                seen = self.seen[i]
                seen.extend(c for c in hands[i] if c not in seen)
        else:
            for i in range(n):
                self.sixth.extend(self.hands[i])
                self.hands[i] = []

    def _t_draft_place(self, k: int) -> None:
        n = self.n
        if k < n:
            seat = (self.start + k) % n
            card = self.picks[seat]
            for seen in self.seen:  # revealed: public now
                if card in seen:
                    seen.remove(card)
            self.conversions = 0
            self._push(["draft_place", k + 1])
            self._open(DRAFT_PLACE, seat)
            return
        self._pass_hands()
        if self.draft_round < DRAFT_ROUNDS:
            self.draft_round += 1
            self._push(["draft_pick", 0])
        else:
            self._push(["combat_start"])

    def _do_pick(self, k: int) -> None:
        seat = self.current_player
        self.picks[seat] = self.hands[seat].pop(k)

    def _gear_refill(self, i: int) -> None:
        self.life[i], self.mana[i] = self.max_life(i), self.max_mana(i)

    def _add_skill_card(self, i: int, card_id: int) -> None:
        self.skill_cards[i].append(card_id)
        self.levels[i][CARDS[card_id].skill] += 1

    def _do_place_skill(self) -> None:
        seat = self.current_player
        card = self.picks[seat]
        self.picks[seat] = NO
        self._add_skill_card(seat, card)
        self._pay_out(seat, SKILL_GOLD[self.level])
        self._phi = None

    def _do_buy(self) -> None:
        seat = self.current_player
        card = self.picks[seat]
        price = self.cost(seat, card)
        slot = self.target_slot(seat, card)
        self.gold[seat] -= price
        self.gold_in += price
        self.slots[seat][slot] = card
        self.exhausted[seat][slot] = False
        self.picks[seat] = NO
        self._gear_refill(seat)
        self._phi = None

    def _do_convert(self, slot: int) -> None:
        seat = self.current_player
        card = self.slots[seat][slot]
        self.slots[seat][slot] = NO
        self.exhausted[seat][slot] = False
        self._add_skill_card(seat, card)
        self.conversions += 1
        self._gear_refill(seat)
        self._open(DRAFT_BUY_COMMITTED, seat)

    def _pay_out(self, seat: int, amount: int) -> None:
        self.gold[seat] += amount
        self.gold_out += amount

    # -- combat: turns (2.5, 2.9) -------------------------------------------------------------------
    def _t_combat_start(self) -> None:
        self.phase = COMBAT
        self.performed = 0
        self.trigger = NO
        self._push(["turn", self.start])

    def _t_turn(self, p: int) -> None:
        self.turn_seat = p
        if self.defeated[p]:
            self._push(["turn", (p + 1) % self.n])
            return
        tasks: list[list] = []
        # Step 1: reveal into the empty face-up slot; charge (b) hits the challenge-trophy holder.
        if self.faceup == NO and self.piles[self.level]:
            m = self.faceup = self.piles[self.level].pop()
            holder = self.challenge[CARDS[m].type]
            if holder != NO and not self.defeated[holder] and self._charge_line(m) is not None:
                tasks.append(["charge", holder, m])
        tasks += [["select", p], ["end_turn", p]]
        self._push(*tasks)

    def _t_select(self, p: int) -> None:
        if self.defeated[p]:
            return
        if self.front[p] != NO:
            self._open(SELECT_OWN, p)
        elif self.faceup != NO or self.piles[self.level]:
            self._open(SELECT_NONE, p)

    def _t_select_drawn(self, p: int) -> None:
        if not self.defeated[p] and self.front[p] != NO:
            self._open(SELECT_DRAWN, p)

    def can_pass(self, p: int) -> bool:
        return any(not self.defeated[j] and self.front[j] == NO for j in range(self.n) if j != p)

    def pass_target(self, p: int) -> int:
        """The first player counter-clockwise from ``p`` with no monster who is not defeated."""
        for d in range(1, self.n):
            j = (p - d) % self.n
            if not self.defeated[j] and self.front[j] == NO:
                return j
        return NO

    def _check_trigger(self, p: int) -> None:
        if self.trigger == NO and self.faceup == NO and not self.piles[self.level]:
            self.trigger = p

    def _do_attack(self) -> None:
        self._push(["attack", self.current_player])

    def _do_pass(self) -> None:
        p = self.current_player
        j = self.pass_target(p)
        self.front[j], self.markers[j] = self.front[p], self.markers[p]
        self.front[p], self.markers[p] = NO, 0
        if self.answering == SELECT_OWN:
            self._open(SELECT_AFTER_PASS, p)
            return
        # SELECT_DRAWN: draw again and attack; with an empty pile the turn ends.
        if self.piles[self.level]:
            m = self._draw(p)
            self._push(["charge", p, m], ["attack", p])

    def _draw(self, p: int) -> int:
        m = self.front[p] = self.piles[self.level].pop()
        self.markers[p] = 0
        self._check_trigger(p)
        return m

    def _do_take_faceup(self) -> None:
        p = self.current_player
        self.front[p], self.markers[p] = self.faceup, 0
        self.faceup = NO
        self._check_trigger(p)
        self._push(["attack", p])

    def _do_draw(self) -> None:
        p = self.current_player
        m = self._draw(p)
        follow = ["select_drawn", p] if self.answering == SELECT_NONE else ["attack", p]
        self._push(["charge", p, m], follow)

    def _t_end_turn(self, p: int) -> None:
        n = self.n
        self.performed += 1
        if self.trigger == NO and self.performed >= self.game.options["combat_turn_cap_per_player"] * n:
            self.trigger = p
        if self.trigger == NO:
            self._push(["turn", (p + 1) % n])
            return
        self.phase = FINAL
        order = [(self.trigger + d) % n for d in range(1, n + 1)]
        self._push(*[["final_turn", s] for s in order], ["level_end"])

    def _t_final_turn(self, s: int) -> None:
        self.turn_seat = s
        if self.defeated[s] or self.front[s] == NO:
            return
        self._push(["attack", s], ["escape", s])

    def _t_escape(self, s: int) -> None:
        if not self.defeated[s] and self.front[s] != NO:
            self.box.append(self.front[s])
            self.front[s], self.markers[s] = NO, 0

    # -- combat: the attack (2.6) -------------------------------------------------------------------
    def _t_attack(self, p: int) -> None:
        if self.defeated[p] or self.front[p] == NO:
            return
        self.atk = {"weapon": NO, "used": [], "fors": [0] * NUM_SLOTS}
        self._open(CHOOSE_WEAPON, p)

    def _do_weapon(self, w: int) -> None:
        self.atk["weapon"] = w
        self._open(ATTACK_BUILD, self.current_player)

    def _do_unarmed(self) -> None:
        self.atk["weapon"] = UNARMED_W
        self._open(ATTACK_BUILD, self.current_player)

    def attack_damage(self, p: int, atk: dict[str, Any] | None = None) -> list[int]:
        """Damage by type before the monster's modifiers (2.6)."""
        atk = self.atk if atk is None else atk
        lv = self.levels[p]
        d = [0, 0, 0, 0]
        w = atk["weapon"]
        sources = []
        if w == UNARMED_W:
            d[0] += 1
        elif w != NO:
            sources.append(w)
        sources += atk["used"]
        for slot in sources:
            for line in CARDS[self.slots[p][slot]].lines:
                if not cond_met(line.cond, lv):
                    continue
                if line.op == "DMG":
                    d[line.t] += line.n
                elif line.op == "PER":
                    d[line.t] += line.n * lv[line.skill]
                elif line.op == "FOR":
                    d[line.t] += line.n * atk["fors"][slot]
        for slot in atk["used"]:
            for line in CARDS[self.slots[p][slot]].lines:
                if line.op == "CONV" and cond_met(line.cond, lv):
                    if line.src == ANY:
                        total = sum(d)
                        d = [0, 0, 0, 0]
                        d[line.t] = total
                    elif line.src != line.t:
                        d[line.t] += d[line.src]
                        d[line.src] = 0
        return d

    def dealt(self, monster_id: int, d: list[int]) -> int:
        mods = CARDS[monster_id].modifiers
        return (
            apply_modifier(d[0], mods[0])
            + apply_modifier(d[1], mods[1])
            + apply_modifier(d[2], mods[2])
            + apply_modifier(d[3], mods[3])
        )

    def _do_strike(self) -> None:
        p = self.current_player
        m = self.front[p]
        self.markers[p] += self.dealt(m, self.attack_damage(p))
        self.atk = None
        monster = CARDS[m]
        if self.markers[p] >= monster.life:
            self._kill(p)
            return
        # The monster survives: regenerate, then attack (2.7.1).
        inc = list(monster.attack)
        others = []
        for line in monster.effects:
            if line.op == "REGEN":
                self.markers[p] = max(0, self.markers[p] - line.n)
            elif line.op == "ALL":
                inc[line.t] += line.n
                others.append(line)
        tasks = [["event", p, *inc, SRC_MONSTER]]
        for d in range(1, self.n):
            q = (p + d) % self.n
            for line in others:
                extra = [0, 0, 0, 0]
                extra[line.t] = line.n
                tasks.append(["event", q, *extra, SRC_ALL])
        self._push(*tasks)

    # -- combat: damage events, healing, defeat (2.7.2, 2.8 b) --------------------------------------
    def remaining_damage(self, q: int, inc: list[int], used: list[int]) -> list[int]:
        """Incoming damage after the passive armor and the cards used in this event (2.7.2 step 3)."""
        lv = self.levels[q]
        d = list(inc)
        any_block = 0
        sources = [s for s in PASSIVE_SLOTS if self.slots[q][s] != NO] + list(used)
        for slot in sources:
            for line in CARDS[self.slots[q][slot]].lines:
                if not cond_met(line.cond, lv):
                    continue
                if line.op == "BLOCK":
                    if line.t == ANY:
                        any_block += line.n
                    else:
                        d[line.t] = max(0, d[line.t] - line.n)
                elif line.op == "BLOCKALL":
                    d[line.t] = 0
        for t in ABSORB_ORDER:
            take = min(any_block, d[t])
            d[t] -= take
            any_block -= take
        return d

    def _t_event(self, q: int, mel: int, rng: int, mag: int, cha: int, source: int) -> None:
        if self.defeated[q]:
            return
        self.ev = {"seat": q, "inc": [mel, rng, mag, cha], "used": [], "source": source}
        if sum(self.remaining_damage(q, self.ev["inc"], [])) > 0:
            self._open(DEFEND, q)
        else:
            self.ev = None

    def _do_accept_damage(self) -> None:
        q = self.current_player
        loss = sum(self.remaining_damage(q, self.ev["inc"], self.ev["used"]))
        self.ev = None
        self.life[q] = max(0, self.life[q] - loss)
        if self.life[q] == 0:
            if self._heal_options(q):
                self._open(HEAL, q)
            else:
                self._defeat(q)

    def _heal_options(self, q: int) -> bool:
        for s in ARTIFACT_SLOTS:
            c = self.slots[q][s]
            if c != NO and CARDS[c].use == "heal":
                if not self.exhausted[q][s] or self._refresh_affordable(q, s):
                    return True
        return False

    def _refresh_affordable(self, q: int, slot: int) -> bool:
        c = self.slots[q][slot]
        cost = _REFRESH[c]
        return cost > 0 and self.exhausted[q][slot] and self.mana[q] >= cost

    def _do_accept_defeat(self) -> None:
        self._defeat(self.current_player)

    def _defeat(self, q: int) -> None:
        """2.8 (b): the monster in front goes to the box, a skill card may be lost, turns are skipped."""
        self.defeated[q] = True
        if self.front[q] != NO:
            self.box.append(self.front[q])
            self.front[q], self.markers[q] = NO, 0
        self._push(["after_defeat"])
        if self.skill_cards[q]:
            self._open(LOSE_SKILL, q)

    def _t_after_defeat(self) -> None:
        if all(self.defeated):  # 2.11: the level ends at once
            self.tasks = [["level_end"]]

    def _do_lose(self, skill: int) -> None:
        q = self.current_player
        cards = self.skill_cards[q]
        for k in range(len(cards) - 1, -1, -1):
            if CARDS[cards[k]].skill == skill:
                self.box.append(cards.pop(k))
                break
        self.levels[q][skill] -= 1

    # -- charges (2.7.3) ----------------------------------------------------------------------------
    @staticmethod
    def _charge_line(m: int):
        for line in CARDS[m].effects:
            if line.op.startswith("C-"):
                return line
        return None

    def _t_charge(self, q: int, m: int) -> None:
        line = self._charge_line(m)
        if line is None or self.defeated[q]:
            return
        if line.op == "C-DMG":
            inc = [0, 0, 0, 0]
            inc[line.t] = line.n
            self._push(["event", q, *inc, SRC_CHARGE])
        elif line.op == "C-DRAIN":
            self.mana[q] = max(0, self.mana[q] - line.n)
        elif line.op == "C-GOLD":
            paid = min(line.n, self.gold[q])
            self.gold[q] -= paid
            self.gold_in += paid
            self._phi = None
        elif line.op == "C-EXH":
            self.exh_kinds = list(line.kinds)
            if self.exhaust_options(q):
                self._open(CHARGE_EXHAUST, q)
            else:
                self.exh_kinds = []

    def exhaust_options(self, q: int) -> list[int]:
        return [
            s
            for s in range(NUM_SLOTS)
            if self.slots[q][s] != NO and not self.exhausted[q][s] and CARDS[self.slots[q][s]].kind in self.exh_kinds
        ]

    def _do_exhaust(self, slot: int) -> None:
        self.exhausted[self.current_player][slot] = True
        self.exh_kinds = []

    # -- USE and MANA ---------------------------------------------------------------------------------
    def _do_use(self, slot: int) -> None:
        q = self.current_player
        card = CARDS[self.slots[q][slot]]
        decision = self.answering
        if self.exhausted[q][slot]:  # pay REFRESH
            self.mana[q] -= card.total("REFRESH")
            self.exhausted[q][slot] = False
        else:
            self.exhausted[q][slot] = True
            if card.use == "mana":
                self.mana[q] = min(self.max_mana(q), self.mana[q] + card.total("RESTORE"))
            elif decision == ATTACK_BUILD:
                self.atk["used"].append(slot)
            elif decision == DEFEND:
                self.ev["used"].append(slot)
            elif decision == HEAL:
                self.life[q] = min(self.max_life(q), self.life[q] + card.total("HEAL"))
                if self.life[q] >= 1:
                    return  # the HEAL decision ends; the task engine runs on
        self._open(decision, q)

    def _do_mana(self, slot: int) -> None:
        p = self.current_player
        line = self.for_line(p, slot)
        self.mana[p] -= line.cost
        self.atk["fors"][slot] += 1
        self._open(ATTACK_BUILD, p)

    def for_line(self, p: int, slot: int):
        c = self.slots[p][slot]
        if c == NO:
            return None
        for line in CARDS[c].lines:
            if line.op == "FOR":
                return line
        return None

    # -- monster defeated (2.8 a) -------------------------------------------------------------------
    def _kill(self, p: int) -> None:
        m = self.front[p]
        monster = CARDS[m]
        self.front[p], self.markers[p] = NO, 0
        self.trophies[p].append(m)  # only its type counts; challenge and tokens are checked below
        before = self.xp[p]
        self.xp[p] += monster.xp
        ups = sum(before < t <= self.xp[p] for t in XP_THRESHOLDS)
        self._phi = None
        self._push(*[["level_reward", p] for _ in range(ups)], ["kill_rest", p, m])
        self.pending_rewards = ups

    def _t_level_reward(self, p: int) -> None:
        self._open(LEVEL_REWARD, p)

    def _reward_done(self) -> None:
        self.pending_rewards -= 1
        self._phi = None

    def _do_reward_gold(self) -> None:
        self._pay_out(self.current_player, REWARD_GOLD)
        self._reward_done()

    def _do_reward_life(self) -> None:
        p = self.current_player
        self.life_base[p] += 1
        self.life[p] = min(self.max_life(p), self.life[p] + 1)
        self._reward_done()

    def _do_reward_mana(self) -> None:
        p = self.current_player
        self.mana_base[p] += 1
        self.mana[p] = min(self.max_mana(p), self.mana[p] + 1)
        self._reward_done()

    def _t_kill_rest(self, p: int, m: int) -> None:
        n = self.n
        monster = CARDS[m]
        # Gold: active, left, right, active, ... (defeated players still receive).
        cycle = [p, (p + 1) % n, (p - 1) % n]
        for k in range(monster.gold):
            self._pay_out(cycle[k % 3], 1)
        # Challenge trophy of the type; ties go to the active player.
        t = monster.type
        holder = self.challenge[t]
        counts = self.trophy_counts(p)
        if holder == NO or (holder != p and counts[t] >= self.trophy_counts(holder)[t]):
            self.challenge[t] = p
            self.legend[p] += 1
        # Trophy tokens: the top token of every qualifying stack not yet held.
        for k, (_, condition, mtype, values) in enumerate(TROPHY_STACKS):
            if self.tokens[p][k] or self.stack_taken[k] >= len(values):
                continue
            if condition == "2":
                ok = counts[MONSTER_TYPES.index(mtype)] >= 2
            elif condition == "3x":
                ok = max(counts) >= 3
            else:
                ok = min(counts) >= 1
            if ok:
                self.tokens[p][k] = values[self.stack_taken[k]]
                self.stack_taken[k] += 1
        self._phi = None

    # -- level end (2.10, 2.11) ---------------------------------------------------------------------
    def _t_level_end(self) -> None:
        n, lv = self.n, self.level
        for t in range(4):
            if self.challenge[t] != NO:
                self.legend[self.challenge[t]] += LEGEND_PER_TROPHY[lv]
        for i in range(n):
            self.exhausted[i] = [False] * NUM_SLOTS
            self.life[i], self.mana[i] = self.max_life(i), self.max_mana(i)
            self.defeated[i] = False
            if self.front[i] != NO:
                self.box.append(self.front[i])
                self.front[i], self.markers[i] = NO, 0
            self.seen[i] = []
        if self.faceup != NO:
            self.box.append(self.faceup)
            self.faceup = NO
        self.box.extend(self.piles[lv])
        self.piles[lv] = []
        self.atk = self.ev = None
        self.level_ends += 1
        self.turn_seat = NO
        self.trigger = NO
        # New starting player: fewest legend markers; ties to the closest clockwise, himself last.
        former = self.start
        self.start = min(range(n), key=lambda i: (self.legend[i], (i - former) % n or n))
        self._phi = None
        if lv + 1 < NUM_LEVELS:
            self.level = lv + 1
            self._push(["level_start"])
        else:
            self.phase = OVER

    # -- legal mask ---------------------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is not None:
            return self._mask
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        self._mask = mask
        if self.phase == OVER or self.truncated:
            return mask
        q = self.current_player
        d = self.decision
        if d == DRAFT_PICK:
            mask[A.PICK : A.PICK + len(self.hands[q])] = 1
        elif d in (DRAFT_PLACE, DRAFT_BUY_COMMITTED):
            card = self.picks[q]
            if d == DRAFT_PLACE:
                mask[A.PLACE_SKILL] = 1
            if self.buy_legal_now(q, card):
                mask[A.BUY] = 1
            if self.buy_legal_after_conversions(q, card):
                for s in range(NUM_SLOTS):
                    if self.slots[q][s] != NO:
                        mask[A.CONVERT + s] = 1
        elif d in (SELECT_OWN, SELECT_DRAWN):
            mask[A.ATTACK] = 1
            if self.can_pass(q):
                mask[A.PASS] = 1
        elif d in (SELECT_NONE, SELECT_AFTER_PASS):
            if self.faceup != NO:
                mask[A.TAKE_FACEUP] = 1
            if self.piles[self.level]:
                mask[A.DRAW] = 1
        elif d == CHOOSE_WEAPON:
            armed = False
            for w in range(3):
                if self.slots[q][w] != NO:
                    mask[A.WEAPON + w] = 1
                    armed = True
            if not armed:
                mask[A.UNARMED] = 1
        elif d == ATTACK_BUILD:
            self._attack_mask(q, mask)
        elif d == DEFEND:
            self._defend_mask(q, mask)
        elif d == HEAL:
            for s in ARTIFACT_SLOTS:
                c = self.slots[q][s]
                if c != NO and CARDS[c].use == "heal" and (not self.exhausted[q][s] or self._refresh_affordable(q, s)):
                    mask[A.USE + s] = 1
            mask[A.ACCEPT_DEFEAT] = 1
        elif d == LEVEL_REWARD:
            mask[A.REWARD_GOLD] = 1
            if self.max_life(q) < TRACK_MAX:
                mask[A.REWARD_LIFE] = 1
            if self.max_mana(q) < TRACK_MAX:
                mask[A.REWARD_MANA] = 1
        elif d == LOSE_SKILL:
            for sk, count in enumerate(self.added_skills(q)):
                if count:
                    mask[A.LOSE + sk] = 1
        elif d == CHARGE_EXHAUST:
            for s in self.exhaust_options(q):
                mask[A.EXHAUST + s] = 1
        return mask

    def _restore_useful(self, q: int) -> bool:
        return not self.game.options["mask_useless_actions"] or self.mana[q] < self.max_mana(q)

    def _attack_mask(self, p: int, mask: np.ndarray) -> None:
        atk = self.atk
        lv = self.levels[p]
        for s in range(NUM_SLOTS):
            c = self.slots[p][s]
            if c == NO:
                continue
            card = CARDS[c]
            if self.exhausted[p][s]:
                if self._refresh_affordable(p, s):
                    mask[A.USE + s] = 1
            elif card.use == "boost" and s not in atk["used"]:
                mask[A.USE + s] = 1
            elif card.use == "mana" and self._restore_useful(p):
                mask[A.USE + s] = 1
            if s == atk["weapon"] or s in atk["used"]:
                line = self.for_line(p, s)
                if (
                    line is not None
                    and cond_met(line.cond, lv)
                    and self.mana[p] >= line.cost
                    and not (line.max1 and atk["fors"][s] >= 1)
                ):
                    mask[A.MANA + s] = 1
        mask[A.STRIKE] = 1

    def _defend_mask(self, q: int, mask: np.ndarray) -> None:
        ev = self.ev
        useless_hidden = self.game.options["mask_useless_actions"]
        now = sum(self.remaining_damage(q, ev["inc"], ev["used"])) if useless_hidden else 0
        for s in range(NUM_SLOTS):
            c = self.slots[q][s]
            if c == NO:
                continue
            card = CARDS[c]
            if self.exhausted[q][s]:
                if self._refresh_affordable(q, s):
                    mask[A.USE + s] = 1
            elif card.use in ("helmet", "defence") and s not in ev["used"]:
                if not useless_hidden or sum(self.remaining_damage(q, ev["inc"], ev["used"] + [s])) < now:
                    mask[A.USE + s] = 1
            elif card.use == "mana" and self._restore_useful(q):
                mask[A.USE + s] = 1
        mask[A.ACCEPT_DAMAGE] = 1

    # -- apply --------------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if self.phase == OVER or self.truncated:
            raise self.illegal_action_error(action, "the game is over")
        mask = self.legal_mask()
        if not (isinstance(action, (int, np.integer)) and 0 <= action < A.NUM_ACTIONS and mask[action]):
            raise self.illegal_action_error(action, f"the decision is {DECISIONS[self.decision]}")
        self.apply_legal(int(action))

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check (the AEC driver has just checked the mask)."""
        shaped = self.game.options["reward_scheme"] == "shaped"
        before = self.potentials() if shaped else None
        self._mask = None
        handler, args = _HANDLERS[action]
        # The handler answers ``answering``; it reopens a decision (USE, MANA, CONVERT...) or
        # leaves none open, and then the task engine runs to the next one.
        self.answering = self.decision
        self.decision = NO
        handler(self, *args)
        self._run()
        self._mask = None
        self.steps += 1
        n = self.n
        if self.phase == OVER:
            self.current_player = NO
            rewards = self.returns()
        else:
            rewards = [0.0] * n
            if self.steps >= self.game.options["max_steps"]:
                self.truncated = True
                self.current_player = NO
        if shaped:
            after = self.potentials()
            rewards = [r + a - b for r, a, b in zip(rewards, after, before)]
        self._rewards = rewards

    # -- scores and rewards -------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        bonus = gold_bonus(self.gold)
        return [
            {
                "legend_markers": self.legend[i],
                "experience_points": xp_points(self.xp[i]),
                "trophy_tokens": sum(self.tokens[i]),
                "gold_bonus": bonus[i],
            }
            for i in range(self.n)
        ]

    def scores(self) -> list[float]:
        return [float(sum(b.values())) for b in self.score_breakdown()]

    def winners(self) -> list[int]:
        sc = self.scores()
        best = max(sc)
        return [i for i in range(self.n) if sc[i] == best]

    def potentials(self) -> list[float]:
        sc = self.scores()
        total = sum(sc)
        scale = self.game.options["shaped_scale"]
        return [(sc[i] - (total - sc[i]) / (self.n - 1)) / scale for i in range(self.n)]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_truncated(self) -> bool:
        return self.truncated and self.phase != OVER

    def outcome(self) -> Outcome | None:
        if self.phase == OVER:
            return Outcome(tuple(self.winners()), "three levels played")
        if self.truncated:
            return Outcome((), "step cap reached", truncated=True)
        return None

    def rewards(self) -> list[float]:
        return self._rewards

    def returns(self) -> list[float]:
        n = self.n
        if self.phase != OVER:
            return [0.0] * n
        scheme = self.game.options["reward_scheme"]
        sc = self.scores()
        won = set(self.winners())
        win_loss = [1.0 if i in won else -1.0 for i in range(n)]
        if scheme == "win_loss":
            return win_loss
        if scheme == "shaped":
            w = self.game.options["shaped_terminal_weight"]
            return [w * x for x in win_loss]
        if scheme == "score_margin":
            return [
                float(min(1.0, max(-1.0, (sc[i] - max(sc[j] for j in range(n) if j != i)) / 20.0))) for i in range(n)
            ]
        # rank: (n-1-2(rank-1))/(n-1), tied players share the mean of their ranks.
        out = []
        for i in range(n):
            better = sum(sc[j] > sc[i] for j in range(n))
            tied = sum(sc[j] == sc[i] for j in range(n))
            rank = better + (tied + 1) / 2
            out.append((n - 1 - 2 * (rank - 1)) / (n - 1))
        return out

    def info(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "level": LEVEL_NAMES[min(self.level, 2)],
            "phase": PHASES[self.phase],
            "draft_round": self.draft_round,
        }
        if self.phase == OVER:
            d.update(final_score=self.scores(), breakdown=self.score_breakdown(), winners=self.winners())
        return d

    # -- observation and text -----------------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        return self.game.encode(self, seat)

    def card_name(self, card_id: int) -> str:
        if card_id == NO:
            return "-"
        c = CARDS[card_id]
        return f"{c.name} {c.code}"

    def describe_action(self, action: int) -> str:
        name, args = A.LAYOUT.decode(int(action))
        q = self.current_player if self.current_player != NO else 0
        if name == "PICK":
            hand = self.hands[q]
            k = args[0]
            return f"pick {self.card_name(hand[k])}" if k < len(hand) else f"pick hand slot {k} (empty)"
        if name in ("CONVERT", "USE", "MANA", "EXHAUST"):
            s = args[0]
            card = self.card_name(self.slots[q][s])
            verb = {
                "CONVERT": "turn into a skill:",
                "USE": "refresh" if self.exhausted[q][s] else "use",
                "MANA": "pay mana for the FOR line of",
                "EXHAUST": "exhaust for the charge:",
            }[name]
            return f"{verb} {card} (slot {s})"
        if name == "WEAPON":
            return f"attack with {self.card_name(self.slots[q][args[0]])}"
        if name == "LOSE":
            return f"lose one {SKILLS[args[0]]} skill card"
        if name == "BUY" and self.picks[q] != NO:
            return f"buy {self.card_name(self.picks[q])} for {self.cost(q, self.picks[q])} gold"
        if name == "PLACE_SKILL" and self.picks[q] != NO:
            return f"place {self.card_name(self.picks[q])} as a {SKILLS[CARDS[self.picks[q]].skill]} skill"
        if name == "TAKE_FACEUP":
            return f"take the face-up {self.card_name(self.faceup)}"
        return A.LAYOUT.block(name).doc

    def render(self, seat: int | None = None) -> str:
        lines = []
        status = f"{LEVEL_NAMES[min(self.level, 2)]}, {PHASES[self.phase]}"
        if self.phase == GEAR_UP:
            status += f" round {self.draft_round}"
        if self.phase == OVER:
            status = f"game over; scores {self.scores()}; winners {self.winners()}"
        elif self.current_player != NO:
            status += f"; player_{self.current_player} decides {DECISIONS[self.decision]}"
        lines.append(f"Lost Legends, {self.n} players: {status}")
        lines.append(
            f"pile {len(self.piles[min(self.level, 2)])} cards, face-up {self.card_name(self.faceup)}; "
            f"challenge trophies {dict(zip(MONSTER_TYPE_NAMES, self.challenge))}; "
            f"tokens left {[4 - t for t in self.stack_taken]}"
        )
        for i in range(self.n):
            mon = "-"
            if self.front[i] != NO:
                m = CARDS[self.front[i]]
                mon = f"{m.name} ({self.markers[i]}/{m.life})"
            eq = ", ".join(
                self.card_name(c) + ("*" if self.exhausted[i][s] else "")
                for s, c in enumerate(self.slots[i])
                if c != NO
            )
            skills = "".join(f"{SKILLS[k]}{v}" for k, v in enumerate(self.levels[i]) if v)
            lines.append(
                f"player_{i} {HERO_NAMES[self.heroes[i]]}{' (start)' if i == self.start else ''}"
                f"{' DEFEATED' if self.defeated[i] else ''}: gold {self.gold[i]}, life {self.life[i]}/"
                f"{self.max_life(i)}, mana {self.mana[i]}/{self.max_mana(i)}, xp {self.xp[i]}, legend "
                f"{self.legend[i]}, skills {skills}, trophies {self.trophy_counts(i)}, tokens {self.tokens[i]}; "
                f"monster {mon}; equipment [{eq}]"
            )
            if seat is None or seat == i:
                if self.hands[i] or self.picks[i] != NO:
                    hand = ", ".join(self.card_name(c) for c in self.hands[i])
                    lines.append(f"  hand [{hand}], pick {self.card_name(self.picks[i])}")
            elif self.picks[i] != NO:
                lines.append(
                    f"  revealed pick {self.card_name(self.picks[i])}" if self.pick_revealed(i) else "  has picked"
                )
        if self.current_player != NO and (seat is None or seat == self.current_player):
            legal = ", ".join(f"{a}: {self.describe_action(a)}" for a in self.legal_actions())
            lines.append(f"legal: {legal}")
        return "\n".join(lines)

    # -- copies and JSON ----------------------------------------------------------------------------
    def clone(self) -> LostLegendsState:
        return LostLegendsState.from_json(self.game, self.to_json())

    def to_json(self) -> dict[str, Any]:
        n = self.n
        return {
            "env_id": self.game.env_id,
            "options": dict(self.game.options),
            "level": self.level,
            "phase": PHASES[self.phase],
            "start": self.start,
            "draft_round": self.draft_round,
            "decision": None if self.decision == NO else DECISIONS[self.decision],
            "current_player": self.current_player,
            "turn_seat": self.turn_seat,
            "performed": self.performed,
            "trigger": self.trigger,
            "level_ends": self.level_ends,
            "players": [
                {
                    "hero": HERO_NAMES[self.heroes[i]],
                    "gold": self.gold[i],
                    "life": self.life[i],
                    "mana": self.mana[i],
                    "life_base": self.life_base[i],
                    "mana_base": self.mana_base[i],
                    "xp": self.xp[i],
                    "legend": self.legend[i],
                    "skill_cards": list(self.skill_cards[i]),
                    "slots": list(self.slots[i]),
                    "exhausted": list(self.exhausted[i]),
                    "trophies": list(self.trophies[i]),
                    "tokens": list(self.tokens[i]),
                    "defeated": self.defeated[i],
                    "front": self.front[i],
                    "markers": self.markers[i],
                    "hand": list(self.hands[i]),
                    "pick": self.picks[i],
                    "seen": list(self.seen[i]),
                }
                for i in range(n)
            ],
            "stack_taken": list(self.stack_taken),
            "challenge": list(self.challenge),
            "decks": [list(d) for d in self.decks],
            "removed": list(self.removed),
            "piles": [list(p) for p in self.piles],
            "reserves": [list(r) for r in self.reserves],
            "faceup": self.faceup,
            "box": list(self.box),
            "sixth": list(self.sixth),
            "tasks": [list(t) for t in self.tasks],
            "attack": None
            if self.atk is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.atk.items()},
            "event": None
            if self.ev is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.ev.items()},
            "exhaust_kinds": list(self.exh_kinds),
            "conversions": self.conversions,
            "pending_rewards": self.pending_rewards,
            "gold_ledger": [self.initial_gold, self.gold_out, self.gold_in],
            "steps": self.steps,
            "truncated": self.truncated,
            "chance": self.chance.to_json(),
        }

    @classmethod
    def from_json(cls, game: LostLegendsGame, data: dict[str, Any]) -> LostLegendsState:
        check_state_header(game, data, len(data["players"]))
        s = cls.__new__(cls)
        s._blank(game, Chance.from_json(data["chance"]) if data.get("chance") else Chance())
        s.level = data["level"]
        s.phase = PHASES.index(data["phase"])
        s.start = data["start"]
        s.draft_round = data.get("draft_round", 1)
        s.decision = NO if data.get("decision") is None else DECISIONS.index(data["decision"])
        s.current_player = data["current_player"]
        s.turn_seat = data.get("turn_seat", NO)
        s.performed = data.get("performed", 0)
        s.trigger = data.get("trigger", NO)
        s.level_ends = data.get("level_ends", 0)
        for i, p in enumerate(data["players"]):
            s.heroes[i] = HERO_NAMES.index(p["hero"])
            s.gold[i] = p["gold"]
            s.life[i] = p["life"]
            s.mana[i] = p["mana"]
            s.life_base[i] = p["life_base"]
            s.mana_base[i] = p["mana_base"]
            s.xp[i] = p.get("xp", 0)
            s.legend[i] = p.get("legend", 0)
            s.skill_cards[i] = list(p.get("skill_cards", []))
            s.slots[i] = list(p.get("slots", [NO] * NUM_SLOTS))
            s.exhausted[i] = list(p.get("exhausted", [False] * NUM_SLOTS))
            s.trophies[i] = list(p.get("trophies", []))
            s.tokens[i] = list(p.get("tokens", [0] * len(TROPHY_STACKS)))
            s.defeated[i] = p.get("defeated", False)
            s.front[i] = p.get("front", NO)
            s.markers[i] = p.get("markers", 0)
            s.hands[i] = list(p.get("hand", []))
            s.picks[i] = p.get("pick", NO)
            s.seen[i] = list(p.get("seen", []))
        s._derive_levels()
        s.stack_taken = list(data.get("stack_taken", [0] * len(TROPHY_STACKS)))
        s.challenge = list(data.get("challenge", [NO] * 4))
        s.decks = [list(d) for d in data.get("decks", [[], [], []])]
        s.removed = list(data.get("removed", []))
        s.piles = [list(p) for p in data.get("piles", [[], [], []])]
        s.reserves = [list(r) for r in data.get("reserves", [[], [], []])]
        s.faceup = data.get("faceup", NO)
        s.box = list(data.get("box", []))
        s.sixth = list(data.get("sixth", []))
        s.tasks = [list(t) for t in data.get("tasks", [])]
        atk = data.get("attack")
        s.atk = None if atk is None else {"weapon": atk["weapon"], "used": list(atk["used"]), "fors": list(atk["fors"])}
        ev = data.get("event")
        s.ev = (
            None
            if ev is None
            else {"seat": ev["seat"], "inc": list(ev["inc"]), "used": list(ev["used"]), "source": ev["source"]}
        )
        s.exh_kinds = list(data.get("exhaust_kinds", []))
        s.conversions = data.get("conversions", 0)
        s.pending_rewards = data.get("pending_rewards", 0)
        ledger = data.get("gold_ledger")
        if ledger is None:
            ledger = [sum(s.gold), 0, 0]
        s.initial_gold, s.gold_out, s.gold_in = ledger
        s.steps = data.get("steps", 0)
        s.truncated = data.get("truncated", False)
        if s.phase == OVER:
            s.current_player = NO
            s.decision = NO
        elif s.decision == NO and s.tasks:
            # A hand-written position may leave the next decision to the rules: run to it.
            s._run()
        return s

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LostLegendsState:
        """A copy in which what ``seat`` cannot see is dealt anew (docs 5.2).

        Redealt: the cards in the other players' hands, face-down picks and discarded sixth cards
        that ``seat`` has never seen (each keeps its place if ``seat`` saw it, so every card it saw
        stays where it really is); the order of every monster pile, and which monsters of a level
        are in its pile or its reserve (pile sizes kept); the future draws of the random source."""
        data = self.to_json()
        players = data["players"]
        seen = set(self.seen[seat])
        # Unseen equipment positions: (container, index) over others' hands, picks and sixth cards.
        positions: list[tuple[str, int, int]] = []
        pool: list[int] = []
        for i in range(self.n):
            if i == seat:
                continue
            for k, c in enumerate(players[i]["hand"]):
                if c not in seen:
                    positions.append(("hand", i, k))
                    pool.append(c)
            c = players[i]["pick"]
            if c != NO and c not in seen and not self.pick_revealed(i):
                positions.append(("pick", i, 0))
                pool.append(c)
        for k, c in enumerate(data["sixth"]):
            if CARDS[c].level == self.level and self.phase == GEAR_UP and c not in seen:
                positions.append(("sixth", 0, k))
                pool.append(c)
        order = rng.permutation(len(pool)).tolist()
        relabel = {}  # old card -> the card now in its place
        for t, ((where, i, k), j) in enumerate(zip(positions, order)):
            relabel[pool[t]] = pool[j]
            if where == "hand":
                players[i]["hand"][k] = pool[j]
            elif where == "pick":
                players[i]["pick"] = pool[j]
            else:
                data["sixth"][k] = pool[j]
        for i in range(self.n):
            players[i]["hand"].sort()
            if i != seat:  # the others' draft memories follow the cards, so they stay consistent
                players[i]["seen"] = [relabel.get(c, c) for c in players[i]["seen"]]
        for lv in range(NUM_LEVELS):
            both = data["piles"][lv] + data["reserves"][lv]
            both = [both[j] for j in rng.permutation(len(both)).tolist()]
            size = len(data["piles"][lv])
            data["piles"][lv], data["reserves"][lv] = both[:size], both[size:]
            deck = data["decks"][lv]
            deck[:] = [deck[j] for j in rng.permutation(len(deck)).tolist()]
        data["chance"] = Chance(int(rng.integers(2**63))).to_json()
        return self.game.state_from_json(data)


# Action id -> (handler, arguments), so apply() dispatches without string work.
_HANDLERS = tuple(
    (getattr(LostLegendsState, "_do_" + A.LAYOUT.name_of(a).lower()), A.LAYOUT.args_of(a)) for a in range(A.NUM_ACTIONS)
)
