"""Lost Legends rules, the state: construction and setup (docs 1.4), bookkeeping, the task engine,
the legal mask, apply(action), observation and text, JSON copies and the hidden-information redeal.

The phase rules live in mixins: :mod:`~envs.lost_legends.draft` (gear-up),
:mod:`~envs.lost_legends.combat` (combat) and :mod:`~envs.lost_legends.scoring` (level end, scores).
See :mod:`envs.lost_legends.rules` for the overview.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import State, check_seat, check_state_header
from envs.lost_legends import actions as A
from envs.lost_legends.combat import CombatMixin
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
)
from envs.lost_legends.content import (
    CARDS,
    HERO_NAMES,
    HEROES,
    LEVEL_MONSTERS,
    LEVEL_NAMES,
    MONSTER_TYPE_NAMES,
    MONSTERS_PER_PLAYER,
    NUM_LEVELS,
    NUM_SLOTS,
    SKILLS,
    TRACK_MAX,
    TROPHY_STACKS,
)
from envs.lost_legends.draft import DraftMixin
from envs.lost_legends.scoring import ScoringMixin

if TYPE_CHECKING:
    from envs.lost_legends.rules import LostLegendsGame


class LostLegendsState(DraftMixin, CombatMixin, ScoringMixin, State):
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

    def _pay_out(self, seat: int, amount: int) -> None:
        self.gold[seat] += amount
        self.gold_out += amount

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

    # -- apply --------------------------------------------------------------------------------------
    def illegal_why(self) -> str:
        if 0 <= self.decision < len(DECISIONS):
            return f"the decision is {DECISIONS[self.decision]}"
        return "the game is over"

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
        return self.game.encode(self, check_seat(self, seat))

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
