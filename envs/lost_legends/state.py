"""Lost Legends, the state: every field (declared in one constructor), the setup (docs 1.4), the
task engine, the legal mask, apply, scores and outcome, JSON copies and the hidden-information redeal.

How a game runs: the state holds one open *decision* (its kind and the seat that takes it) and a
stack of *tasks*, the rule steps still to do (``["turn", 2]``, ``["event", 1, mel, rng, mag, cha,
source]``...). After an action the engine pops and runs tasks (plain functions registered in
:data:`~envs.lost_legends.common.TASKS` by :mod:`~envs.lost_legends.draft`,
:mod:`~envs.lost_legends.combat` and :mod:`~envs.lost_legends.scoring`) until one of them opens the
next decision. Tasks are plain JSON lists, so a state in the middle of a turn, a monster attack or a
charge round-trips through :meth:`LostLegendsState.to_json` unchanged. All randomness (hero draw,
starting player, pile and deck shuffles) goes through ``state.chance``. Card effects are interpreted
from the :class:`~envs.lost_legends.content.Line` primitives of the content tables; no card is named
in the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Outcome, State, check_state_header
from envs.lost_legends import actions as A
from envs.lost_legends import combat, draft, text
from envs.lost_legends.common import (
    ARTIFACT_SLOTS,
    ATTACK_BUILD,
    CHARGE_EXHAUST,
    CHOOSE_WEAPON,
    DECISIONS,
    DEFEND,
    DRAFT_BUY_COMMITTED,
    DRAFT_PICK,
    DRAFT_PLACE,
    END_REASONS,
    GEAR_UP,
    HEAL,
    LEVEL_REWARD,
    LIFE_BONUS,
    LOSE_SKILL,
    MANA_BONUS,
    NO,
    OVER,
    PHASES,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    SELECT_NONE,
    SELECT_OWN,
    TASKS,
    cost_of,
)
from envs.lost_legends.content import (
    CARDS,
    HERO_NAMES,
    HEROES,
    LEVEL_MONSTERS,
    LEVEL_NAMES,
    MONSTERS_PER_PLAYER,
    NUM_LEVELS,
    NUM_SLOTS,
    SKILLS,
    TRACK_MAX,
    TROPHY_STACKS,
)
from envs.lost_legends.draft import pick_revealed
from envs.lost_legends.scoring import final_returns, score_breakdown

if TYPE_CHECKING:
    from envs.lost_legends.game import LostLegendsGame


class LostLegendsState(State):
    """The whole game. Per-seat fields are lists indexed by absolute seat."""

    # -- construction -------------------------------------------------------------------------------
    def __init__(self, game: LostLegendsGame, chance: Chance):
        """Every field of the state, blank (:meth:`new` deals a game, :meth:`from_json` reads one)."""
        n = game.num_players
        self.game = game
        self.n = n  # the number of seats
        self.chance = chance  # every shuffle and random pick of the rules
        # Per seat (lists indexed by absolute seat): the hero board.
        self.heroes = [0] * n  # index into content.HEROES
        self.gold = [0] * n
        self.life = [0] * n  # current life, 0..max_life(i)
        self.mana = [0] * n  # current mana, 0..max_mana(i)
        self.life_base = [0] * n  # maximum life before equipment bonuses (starting value + rewards)
        self.mana_base = [0] * n
        self.xp = [0] * n  # experience
        self.legend = [0] * n  # legend markers
        self.skill_cards: list[list[int]] = [[] for _ in range(n)]  # cards placed under the skills
        self.levels: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]  # derived: skill levels ME, RA, MA, AR
        self.slots = [[NO] * NUM_SLOTS for _ in range(n)]  # equipment card per slot (actions.py lists the slots)
        self.exhausted = [[False] * NUM_SLOTS for _ in range(n)]  # per slot
        self.trophies: list[list[int]] = [[] for _ in range(n)]  # defeated monsters
        self.tokens = [[0] * len(TROPHY_STACKS) for _ in range(n)]  # value held per stack (0 = none)
        self.defeated = [False] * n  # this combat phase
        self.front = [NO] * n  # the monster in front of each hero
        self.markers = [0] * n  # damage markers on that monster
        self.hands: list[list[int]] = [[] for _ in range(n)]  # draft hands, sorted by card id
        self.picks = [NO] * n  # this round's pick (face down until placed)
        self.seen: list[list[int]] = [[] for _ in range(n)]  # draft memory: current-level cards seen in hand
        # The table: trophy stacks, challenge trophies and the zones of the other cards.
        self.stack_taken = [0] * len(TROPHY_STACKS)  # tokens taken per stack
        self.challenge = [NO] * 4  # holder of each monster type's challenge trophy
        self.decks: list[list[int]] = [[], [], []]  # equipment per level, not dealt yet
        self.removed: list[int] = []  # equipment out of play at this table size (1.4)
        self.piles: list[list[int]] = [[], [], []]  # monster pile per level (drawn from the end)
        self.reserves: list[list[int]] = [[], [], []]  # monsters of each level not in its pile
        self.faceup = NO  # the face-up monster
        self.box: list[int] = []  # cards out of the game (escaped monsters, lost skill cards...)
        self.sixth: list[int] = []  # the last card of each hand after the draft (face down)
        # Where the game stands.
        self.level = 0  # 0..2
        self.phase = GEAR_UP  # index into PHASES
        self.start = 0  # the starting player of the level
        self.draft_round = 1  # 1..DRAFT_ROUNDS
        self.turn_seat = NO  # whose combat turn it is
        self.performed = 0  # combat turns performed this level (for the turn cap)
        self.trigger = NO  # the seat that triggered the end of the combat phase
        self.level_ends = 0
        self.decision = NO  # the open decision (index into DECISIONS), NO while rules run or at the end
        self.current_player = NO  # the seat that takes it
        self.tasks: list[list] = []  # the rule steps still to run, [name, *args] (last runs first)
        self.answering = NO  # the decision the action being applied answers
        # The decision in progress.
        self.atk: dict[str, Any] | None = None  # the attack: weapon, used (slots in order), fors (per slot)
        self.ev: dict[str, Any] | None = None  # the damage event: seat, inc, used, source
        self.exh_kinds: list[int] = []  # the kinds a charge lets the seat exhaust
        self.conversions = 0  # conversions made in the current placement
        self.pending_rewards = 0  # level-up rewards still to choose
        # Bookkeeping.
        self.gold_out = 0  # paid by the supply to players
        self.gold_in = 0  # paid by players to the supply
        self.initial_gold = 0
        self.steps = 0  # decisions played (for the max_steps cap)
        self.truncated = False
        self._rewards = [0.0] * n  # of the last apply
        # Per seat: bumped by the rules whenever a field of its board changes (the hero, gold, tracks,
        # xp, legend, skills, trophies, tokens, slots, exhausted cards, challenge trophies held): the
        # observation's key for the seat's row (building keys from the fields costs more than a seat's
        # row). Not in the JSON: a copy's memo starts anew.
        self.board_edits = [0] * n
        self._mask: np.ndarray | None = None  # legal_mask() of the open decision, until the next apply

    @classmethod
    def new(cls, game: LostLegendsGame, seed: int | None) -> LostLegendsState:
        s = cls(game, Chance(seed))
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
        s.run_tasks()
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
                bonus += LIFE_BONUS[c]
        return min(TRACK_MAX, self.life_base[i] + bonus)

    def max_mana(self, i: int) -> int:
        bonus = 0
        for c in self.slots[i]:
            if c != NO:
                bonus += MANA_BONUS[c]
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
        """What seat ``i`` pays for the card now: its cost minus the discounts its skills satisfy (2.4)."""
        return cost_of(card_id, self.levels[i])

    # -- the task engine ----------------------------------------------------------------------------
    def open_decision(self, kind: int, seat: int) -> None:
        """A rule step stops here: ``seat`` takes a decision of this kind (the task engine pauses)."""
        self.decision = kind
        self.current_player = seat

    def run_tasks(self) -> None:
        """Run rule steps until one opens a decision or the game ends."""
        TASKS.run(self, self.tasks, lambda: self.decision != NO or self.phase == OVER)
        if self.phase == OVER:
            self.current_player = NO
            self.decision = NO

    def pay_out(self, seat: int, amount: int) -> None:
        """The supply pays ``seat`` (kept in the gold ledger)."""
        self.gold[seat] += amount
        self.gold_out += amount
        self.board_edits[seat] += 1

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
            if draft.buy_legal_now(self, q, card):
                mask[A.BUY] = 1
            if draft.buy_legal_after_conversions(self, q, card):
                for s, c in enumerate(self.slots[q]):
                    if c != NO:
                        mask[A.CONVERT + s] = 1
        elif d in (SELECT_OWN, SELECT_DRAWN):
            mask[A.ATTACK] = 1
            if combat.can_pass(self, q):
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
            combat.attack_mask(self, q, mask)
        elif d == DEFEND:
            combat.defend_mask(self, q, mask)
        elif d == HEAL:
            for s in ARTIFACT_SLOTS:
                c = self.slots[q][s]
                if (
                    c != NO
                    and CARDS[c].use == "heal"
                    and (not self.exhausted[q][s] or combat.refresh_affordable(self, q, s))
                ):
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
            for s in combat.exhaust_options(self, q):
                mask[A.EXHAUST + s] = 1
        return mask

    # -- apply --------------------------------------------------------------------------------------
    def illegal_why(self) -> str:
        if 0 <= self.decision < len(DECISIONS):
            return f"the decision is: {text.DECISION_WORDS[self.decision]}"
        return "the game is over"

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check (the AEC driver has just checked the mask)."""
        shaped = self.game.options["reward_scheme"] == "shaped"
        before = self.potentials() if shaped else None
        self._mask = None
        answer, args = _ANSWERS_BY_ID[action]
        # The answer takes ``answering``; it reopens a decision (USE, MANA, CONVERT...) or
        # leaves none open, and then the task engine runs to the next one.
        self.answering = self.decision
        self.decision = NO
        answer(self, *args)
        self.run_tasks()
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

    def info(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "level": LEVEL_NAMES[min(self.level, 2)],
            "phase": PHASES[self.phase],
            "draft_round": self.draft_round,
        }
        if self.phase == OVER:
            d.update(final_score=self.scores(), breakdown=self.score_breakdown(), winners=self.winners())
        return d

    # -- scores, outcome, rewards -------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        return score_breakdown(self)

    def scores(self) -> list[float]:
        return [float(sum(b.values())) for b in self.score_breakdown()]

    def winners(self) -> list[int]:
        sc = self.scores()
        best = max(sc)
        return [i for i in range(self.n) if sc[i] == best]

    def shaping_potentials(self) -> list[float]:
        """The shaped scheme's potential (``potentials``): its rewards are its changes (Game.shaping_weight)."""
        return self.potentials()

    def potentials(self) -> list[float]:
        """The shaped scheme's potential per seat: own score minus the mean of the others', scaled."""
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
            return Outcome(tuple(self.winners()), END_REASONS[0])
        if self.truncated:
            return Outcome((), END_REASONS[1], truncated=True)
        return None

    def rewards(self) -> list[float]:
        return self._rewards

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.n
        return final_returns(self, self.game.options["reward_scheme"])

    # -- observation and text (observe: the core's, through OBSERVATION_LAYOUT's memo) ---------------
    def describe_action(self, action: int) -> str:
        return text.describe_action(self, action)

    def render(self, seat: int | None = None) -> str:
        return text.render(self, seat)

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
        s = cls(game, Chance.from_json(data["chance"]) if data.get("chance") else Chance())
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
            s.run_tasks()
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
            if c != NO and c not in seen and not pick_revealed(self, i):
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
        return LostLegendsState.from_json(self.game, data)  # checked: it is this state, redealt


# The answer to each decision, by action block: the function of the phase that plays it.
_ANSWERS = {
    "PICK": draft.pick,
    "PLACE_SKILL": draft.place_skill,
    "BUY": draft.buy,
    "CONVERT": draft.convert,
    "ATTACK": combat.choose_attack,
    "PASS": combat.pass_monster,
    "TAKE_FACEUP": combat.take_faceup,
    "DRAW": combat.draw_monster,
    "WEAPON": combat.choose_weapon,
    "UNARMED": combat.choose_unarmed,
    "USE": combat.use_card,
    "MANA": combat.pay_mana,
    "STRIKE": combat.strike,
    "ACCEPT_DAMAGE": combat.accept_damage,
    "ACCEPT_DEFEAT": combat.accept_defeat,
    "REWARD_GOLD": combat.reward_gold,
    "REWARD_LIFE": combat.reward_life,
    "REWARD_MANA": combat.reward_mana,
    "LOSE": combat.lose_skill,
    "EXHAUST": combat.exhaust_card,
}
assert set(_ANSWERS) == {b.name for b in A.LAYOUT.blocks}, "every action block needs its answer"
# Action id -> (answer, its arguments), so apply() dispatches without decoding.
_ANSWERS_BY_ID = tuple((_ANSWERS[A.LAYOUT.name_of(a)], A.LAYOUT.args_of(a)) for a in range(A.NUM_ACTIONS))
