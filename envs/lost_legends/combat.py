"""Lost Legends rules, combat (docs 2.5-2.9): turns and monster selection, the attack, the monster's
attack and damage events, healing and defeat, charges, USE/MANA, and a defeated monster's rewards
(experience, gold, trophies, challenge trophies, trophy tokens); with the masks of the attack and
defence decisions.

A mixin of :class:`envs.lost_legends.state.LostLegendsState`: the methods use its attributes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.lost_legends import actions as A
from envs.lost_legends.common import (
    ABSORB_ORDER,
    ARTIFACT_SLOTS,
    ATTACK_BUILD,
    CHARGE_EXHAUST,
    CHOOSE_WEAPON,
    COMBAT,
    DEFEND,
    FINAL,
    HEAL,
    LEVEL_REWARD,
    LOSE_SKILL,
    NO,
    PASSIVE_SLOTS,
    REFRESH_COST,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    SELECT_NONE,
    SELECT_OWN,
    SRC_ALL,
    SRC_CHARGE,
    SRC_MONSTER,
    UNARMED_W,
    apply_modifier,
    cond_met,
)
from envs.lost_legends.content import (
    ANY,
    CARDS,
    MONSTER_TYPES,
    NUM_SLOTS,
    REWARD_GOLD,
    TROPHY_STACKS,
    XP_THRESHOLDS,
)


class CombatMixin:
    """Combat phase: tasks ``_t_*``, action handlers ``_do_*`` and the combat queries."""

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
        cost = REFRESH_COST[c]
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
        # It is a trophy from here, before the level rewards of 2.8 a step 1 are chosen (the rulebook's step
        # 3): no reward depends on trophies, and the card is then never out of every zone.
        self.trophies[p].append(m)  # only its type counts; challenge and tokens are checked below
        before = self.xp[p]
        self.xp[p] += monster.xp
        ups = sum(before < t <= self.xp[p] for t in XP_THRESHOLDS)
        self._push(*[["level_reward", p] for _ in range(ups)], ["kill_rest", p, m])
        self.pending_rewards = ups

    def _t_level_reward(self, p: int) -> None:
        self._open(LEVEL_REWARD, p)

    def _reward_done(self) -> None:
        self.pending_rewards -= 1

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
            if (s == atk["weapon"] and s != UNARMED_W) or s in atk["used"]:  # UNARMED_W is also slot 3's number
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
