"""Lost Legends rules, combat (docs 2.5-2.9): turns and monster selection, the attack, the monster's
attack and damage events, healing and defeat, charges, USE/MANA, and a defeated monster's rewards
(experience, gold, trophies, challenge trophies, trophy tokens); with the masks of the attack and
defence decisions.

Plain functions of a :class:`~envs.lost_legends.state.LostLegendsState`: the rule steps are tasks
registered in :data:`~envs.lost_legends.common.TASKS`; the others answer the combat decisions (one
per action block, e.g. :func:`choose_attack` for ATTACK, :func:`strike` for STRIKE) or are the
queries the masks, the observation and the bot read (:func:`attack_damage`, :func:`remaining_damage`...).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.tasks import push
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
    TASKS,
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


# -- combat: turns (2.5, 2.9) -------------------------------------------------------------------
@TASKS.task
def combat_start(s) -> None:
    s.phase = COMBAT
    s.performed = 0
    s.trigger = NO
    push(s.tasks, ["turn", s.start])


@TASKS.task
def turn(s, p: int) -> None:
    s.turn_seat = p
    if s.defeated[p]:
        push(s.tasks, ["turn", (p + 1) % s.n])
        return
    tasks: list[list] = []
    # Step 1: reveal into the empty face-up slot; charge (b) hits the challenge-trophy holder.
    if s.faceup == NO and s.piles[s.level]:
        m = s.faceup = s.piles[s.level].pop()
        holder = s.challenge[CARDS[m].type]
        if holder != NO and not s.defeated[holder] and _charge_line(m) is not None:
            tasks.append(["charge", holder, m])
    tasks += [["select", p], ["end_turn", p]]
    push(s.tasks, *tasks)


@TASKS.task
def select(s, p: int) -> None:
    if s.defeated[p]:
        return
    if s.front[p] != NO:
        s.open_decision(SELECT_OWN, p)
    elif s.faceup != NO or s.piles[s.level]:
        s.open_decision(SELECT_NONE, p)


@TASKS.task
def select_drawn(s, p: int) -> None:
    if not s.defeated[p] and s.front[p] != NO:
        s.open_decision(SELECT_DRAWN, p)


def can_pass(s, p: int) -> bool:
    for j in range(s.n):  # a plain loop: any() over a generator costs several times more
        if j != p and not s.defeated[j] and s.front[j] == NO:
            return True
    return False


def pass_target(s, p: int) -> int:
    """The first player counter-clockwise from ``p`` with no monster who is not defeated."""
    for d in range(1, s.n):
        j = (p - d) % s.n
        if not s.defeated[j] and s.front[j] == NO:
            return j
    return NO


def _check_trigger(s, p: int) -> None:
    if s.trigger == NO and s.faceup == NO and not s.piles[s.level]:
        s.trigger = p


def choose_attack(s) -> None:
    push(s.tasks, ["attack", s.current_player])


def pass_monster(s) -> None:
    p = s.current_player
    j = pass_target(s, p)
    s.front[j], s.markers[j] = s.front[p], s.markers[p]
    s.front[p], s.markers[p] = NO, 0
    if s.answering == SELECT_OWN:
        s.open_decision(SELECT_AFTER_PASS, p)
        return
    # SELECT_DRAWN: draw again and attack; with an empty pile the turn ends.
    if s.piles[s.level]:
        m = _draw_into_front(s, p)
        push(s.tasks, ["charge", p, m], ["attack", p])


def _draw_into_front(s, p: int) -> int:
    m = s.front[p] = s.piles[s.level].pop()
    s.markers[p] = 0
    _check_trigger(s, p)
    return m


def take_faceup(s) -> None:
    p = s.current_player
    s.front[p], s.markers[p] = s.faceup, 0
    s.faceup = NO
    _check_trigger(s, p)
    push(s.tasks, ["attack", p])


def draw_monster(s) -> None:
    p = s.current_player
    m = _draw_into_front(s, p)
    follow = ["select_drawn", p] if s.answering == SELECT_NONE else ["attack", p]
    push(s.tasks, ["charge", p, m], follow)


@TASKS.task
def end_turn(s, p: int) -> None:
    n = s.n
    s.performed += 1
    if s.trigger == NO and s.performed >= s.game.options["combat_turn_cap_per_player"] * n:
        s.trigger = p
    if s.trigger == NO:
        push(s.tasks, ["turn", (p + 1) % n])
        return
    s.phase = FINAL
    order = [(s.trigger + d) % n for d in range(1, n + 1)]
    push(s.tasks, *[["final_turn", seat] for seat in order], ["level_end"])


@TASKS.task
def final_turn(s, seat: int) -> None:
    s.turn_seat = seat
    if s.defeated[seat] or s.front[seat] == NO:
        return
    push(s.tasks, ["attack", seat], ["escape", seat])


@TASKS.task
def escape(s, seat: int) -> None:
    if not s.defeated[seat] and s.front[seat] != NO:
        s.box.append(s.front[seat])
        s.front[seat], s.markers[seat] = NO, 0


# -- combat: the attack (2.6) -------------------------------------------------------------------
@TASKS.task
def attack(s, p: int) -> None:
    if s.defeated[p] or s.front[p] == NO:
        return
    s.atk = {"weapon": NO, "used": [], "fors": [0] * NUM_SLOTS}
    s.open_decision(CHOOSE_WEAPON, p)


def choose_weapon(s, w: int) -> None:
    s.atk["weapon"] = w
    s.open_decision(ATTACK_BUILD, s.current_player)


def choose_unarmed(s) -> None:
    s.atk["weapon"] = UNARMED_W
    s.open_decision(ATTACK_BUILD, s.current_player)


def attack_damage(s, p: int, atk: dict[str, Any] | None = None) -> list[int]:
    """Damage by type before the monster's modifiers (2.6)."""
    atk = s.atk if atk is None else atk
    lv = s.levels[p]
    d = [0, 0, 0, 0]
    w = atk["weapon"]
    sources = []
    if w == UNARMED_W:
        d[0] += 1
    elif w != NO:
        sources.append(w)
    sources += atk["used"]
    for slot in sources:
        for line in CARDS[s.slots[p][slot]].lines:
            if line.cond and not cond_met(line.cond, lv):
                continue
            if line.op == "DMG":
                d[line.t] += line.n
            elif line.op == "PER":
                d[line.t] += line.n * lv[line.skill]
            elif line.op == "FOR":
                d[line.t] += line.n * atk["fors"][slot]
    for slot in atk["used"]:
        for line in CARDS[s.slots[p][slot]].lines:
            if line.op == "CONV" and cond_met(line.cond, lv):
                if line.src == ANY:
                    total = sum(d)
                    d = [0, 0, 0, 0]
                    d[line.t] = total
                elif line.src != line.t:
                    d[line.t] += d[line.src]
                    d[line.src] = 0
    return d


def dealt(monster_id: int, d: list[int]) -> int:
    mods = CARDS[monster_id].modifiers
    return (
        apply_modifier(d[0], mods[0])
        + apply_modifier(d[1], mods[1])
        + apply_modifier(d[2], mods[2])
        + apply_modifier(d[3], mods[3])
    )


def strike(s) -> None:
    p = s.current_player
    m = s.front[p]
    s.markers[p] += dealt(m, attack_damage(s, p))
    s.atk = None
    monster = CARDS[m]
    if s.markers[p] >= monster.life:
        _kill(s, p)
        return
    # The monster survives: regenerate, then attack (2.7.1).
    inc = list(monster.attack)
    others = []
    for line in monster.effects:
        if line.op == "REGEN":
            s.markers[p] = max(0, s.markers[p] - line.n)
        elif line.op == "ALL":
            inc[line.t] += line.n
            others.append(line)
    tasks = [["event", p, *inc, SRC_MONSTER]]
    for d in range(1, s.n):
        q = (p + d) % s.n
        for line in others:
            extra = [0, 0, 0, 0]
            extra[line.t] = line.n
            tasks.append(["event", q, *extra, SRC_ALL])
    push(s.tasks, *tasks)


# -- combat: damage events, healing, defeat (2.7.2, 2.8 b) --------------------------------------
def remaining_damage(s, q: int, inc: list[int], used: list[int]) -> list[int]:
    """Incoming damage after the passive armor and the cards used in this event (2.7.2 step 3)."""
    lv = s.levels[q]
    slots = s.slots[q]
    d = list(inc)
    any_block = 0
    lines = []  # the passive armor's and the used cards' lines
    for slot in PASSIVE_SLOTS:
        if slots[slot] != NO:
            lines += CARDS[slots[slot]].lines
    for slot in used:
        lines += CARDS[slots[slot]].lines
    for line in lines:
        if line.cond and not cond_met(line.cond, lv):
            continue
        if line.op == "BLOCK":
            if line.t == ANY:
                any_block += line.n
            else:
                d[line.t] = max(0, d[line.t] - line.n)
        elif line.op == "BLOCKALL":
            d[line.t] = 0
    if any_block:  # (damage is never negative: nothing to absorb without "any" blocks)
        for t in ABSORB_ORDER:
            take = min(any_block, d[t])
            d[t] -= take
            any_block -= take
    return d


@TASKS.task
def event(s, q: int, mel: int, rng: int, mag: int, cha: int, source: int) -> None:
    if s.defeated[q]:
        return
    s.ev = {"seat": q, "inc": [mel, rng, mag, cha], "used": [], "source": source}
    if sum(remaining_damage(s, q, s.ev["inc"], [])) > 0:
        s.open_decision(DEFEND, q)
    else:
        s.ev = None


def accept_damage(s) -> None:
    q = s.current_player
    loss = sum(remaining_damage(s, q, s.ev["inc"], s.ev["used"]))
    s.ev = None
    s.life[q] = max(0, s.life[q] - loss)
    s.board_edits[q] += 1
    if s.life[q] == 0:
        if heal_options(s, q):
            s.open_decision(HEAL, q)
        else:
            _defeat(s, q)


def heal_options(s, q: int) -> bool:
    for slot in ARTIFACT_SLOTS:
        c = s.slots[q][slot]
        if c != NO and CARDS[c].use == "heal":
            if not s.exhausted[q][slot] or refresh_affordable(s, q, slot):
                return True
    return False


def refresh_affordable(s, q: int, slot: int) -> bool:
    c = s.slots[q][slot]
    cost = REFRESH_COST[c]
    return cost > 0 and s.exhausted[q][slot] and s.mana[q] >= cost


def accept_defeat(s) -> None:
    _defeat(s, s.current_player)


def _defeat(s, q: int) -> None:
    """2.8 (b): the monster in front goes to the box, a skill card may be lost, turns are skipped."""
    s.defeated[q] = True
    if s.front[q] != NO:
        s.box.append(s.front[q])
        s.front[q], s.markers[q] = NO, 0
    push(s.tasks, ["after_defeat"])
    if s.skill_cards[q]:
        s.open_decision(LOSE_SKILL, q)


@TASKS.task
def after_defeat(s) -> None:
    if all(s.defeated):  # 2.11: the level ends at once
        s.tasks[:] = [["level_end"]]  # in place: the task engine holds this list


def lose_skill(s, skill: int) -> None:
    q = s.current_player
    cards = s.skill_cards[q]
    for k in range(len(cards) - 1, -1, -1):
        if CARDS[cards[k]].skill == skill:
            s.box.append(cards.pop(k))
            break
    s.levels[q][skill] -= 1
    s.board_edits[q] += 1


# -- charges (2.7.3) ----------------------------------------------------------------------------
def _charge_line(m: int):
    for line in CARDS[m].effects:
        if line.op.startswith("C-"):
            return line
    return None


@TASKS.task
def charge(s, q: int, m: int) -> None:
    line = _charge_line(m)
    if line is None or s.defeated[q]:
        return
    if line.op == "C-DMG":
        inc = [0, 0, 0, 0]
        inc[line.t] = line.n
        push(s.tasks, ["event", q, *inc, SRC_CHARGE])
    elif line.op == "C-DRAIN":
        s.mana[q] = max(0, s.mana[q] - line.n)
        s.board_edits[q] += 1
    elif line.op == "C-GOLD":
        paid = min(line.n, s.gold[q])
        s.gold[q] -= paid
        s.gold_in += paid
        s.board_edits[q] += 1
    elif line.op == "C-EXH":
        s.exh_kinds = list(line.kinds)
        if exhaust_options(s, q):
            s.open_decision(CHARGE_EXHAUST, q)
        else:
            s.exh_kinds = []


def exhaust_options(s, q: int) -> list[int]:
    return [
        slot
        for slot in range(NUM_SLOTS)
        if s.slots[q][slot] != NO and not s.exhausted[q][slot] and CARDS[s.slots[q][slot]].kind in s.exh_kinds
    ]


def exhaust_card(s, slot: int) -> None:
    s.exhausted[s.current_player][slot] = True
    s.board_edits[s.current_player] += 1
    s.exh_kinds = []


# -- USE and MANA ---------------------------------------------------------------------------------
def use_card(s, slot: int) -> None:
    q = s.current_player
    card = CARDS[s.slots[q][slot]]
    decision = s.answering
    s.board_edits[q] += 1  # exhausted or refreshed, and maybe mana or life
    if s.exhausted[q][slot]:  # pay REFRESH
        s.mana[q] -= card.total("REFRESH")
        s.exhausted[q][slot] = False
    else:
        s.exhausted[q][slot] = True
        if card.use == "mana":
            s.mana[q] = min(s.max_mana(q), s.mana[q] + card.total("RESTORE"))
        elif decision == ATTACK_BUILD:
            s.atk["used"].append(slot)
        elif decision == DEFEND:
            s.ev["used"].append(slot)
        elif decision == HEAL:
            s.life[q] = min(s.max_life(q), s.life[q] + card.total("HEAL"))
            if s.life[q] >= 1:
                return  # the HEAL decision ends; the task engine runs on
    s.open_decision(decision, q)


def pay_mana(s, slot: int) -> None:
    p = s.current_player
    line = for_line(s, p, slot)
    s.mana[p] -= line.cost
    s.board_edits[p] += 1
    s.atk["fors"][slot] += 1
    s.open_decision(ATTACK_BUILD, p)


def for_line(s, p: int, slot: int):
    c = s.slots[p][slot]
    if c == NO:
        return None
    for line in CARDS[c].lines:
        if line.op == "FOR":
            return line
    return None


# -- monster defeated (2.8 a) -------------------------------------------------------------------
def _kill(s, p: int) -> None:
    m = s.front[p]
    monster = CARDS[m]
    s.front[p], s.markers[p] = NO, 0
    # It is a trophy from here, before the level rewards of 2.8 a step 1 are chosen (the rulebook's step
    # 3): no reward depends on trophies, and the card is then never out of every zone.
    s.trophies[p].append(m)  # only its type counts; challenge and tokens are checked below
    before = s.xp[p]
    s.xp[p] += monster.xp
    s.board_edits[p] += 1
    ups = sum(before < t <= s.xp[p] for t in XP_THRESHOLDS)
    push(s.tasks, *[["level_reward", p] for _ in range(ups)], ["kill_rest", p, m])
    s.pending_rewards = ups


@TASKS.task
def level_reward(s, p: int) -> None:
    s.open_decision(LEVEL_REWARD, p)


def _reward_done(s) -> None:
    s.pending_rewards -= 1


def reward_gold(s) -> None:
    s.pay_out(s.current_player, REWARD_GOLD)
    _reward_done(s)


def reward_life(s) -> None:
    p = s.current_player
    s.life_base[p] += 1
    s.life[p] = min(s.max_life(p), s.life[p] + 1)
    s.board_edits[p] += 1
    _reward_done(s)


def reward_mana(s) -> None:
    p = s.current_player
    s.mana_base[p] += 1
    s.mana[p] = min(s.max_mana(p), s.mana[p] + 1)
    s.board_edits[p] += 1
    _reward_done(s)


@TASKS.task
def kill_rest(s, p: int, m: int) -> None:
    n = s.n
    monster = CARDS[m]
    # Gold: active, left, right, active, ... (defeated players still receive).
    cycle = [p, (p + 1) % n, (p - 1) % n]
    for k in range(monster.gold):
        s.pay_out(cycle[k % 3], 1)
    # Challenge trophy of the type; ties go to the active player.
    t = monster.type
    holder = s.challenge[t]
    counts = s.trophy_counts(p)
    if holder == NO or (holder != p and counts[t] >= s.trophy_counts(holder)[t]):
        s.challenge[t] = p
        s.legend[p] += 1
        if holder != NO:
            s.board_edits[holder] += 1  # its row shows the trophy held
    # Trophy tokens: the top token of every qualifying stack not yet held.
    for k, (_, condition, mtype, values) in enumerate(TROPHY_STACKS):
        if s.tokens[p][k] or s.stack_taken[k] >= len(values):
            continue
        if condition == "2":
            ok = counts[MONSTER_TYPES.index(mtype)] >= 2
        elif condition == "3x":
            ok = max(counts) >= 3
        else:
            ok = min(counts) >= 1
        if ok:
            s.tokens[p][k] = values[s.stack_taken[k]]
            s.stack_taken[k] += 1
    s.board_edits[p] += 1  # gold (pay_out's), challenge, legend, tokens


def _restore_useful(s, q: int) -> bool:
    return not s.game.options["mask_useless_actions"] or s.mana[q] < s.max_mana(q)


def attack_mask(s, p: int, mask: np.ndarray) -> None:
    atk = s.atk
    lv = s.levels[p]
    for slot, c in enumerate(s.slots[p]):
        if c == NO:
            continue
        card = CARDS[c]
        if s.exhausted[p][slot]:
            if refresh_affordable(s, p, slot):
                mask[A.USE + slot] = 1
        elif card.use == "boost" and slot not in atk["used"]:
            mask[A.USE + slot] = 1
        elif card.use == "mana" and _restore_useful(s, p):
            mask[A.USE + slot] = 1
        if (slot == atk["weapon"] and slot != UNARMED_W) or slot in atk["used"]:  # UNARMED_W is also slot 3's number
            line = for_line(s, p, slot)
            if (
                line is not None
                and cond_met(line.cond, lv)
                and s.mana[p] >= line.cost
                and not (line.max1 and atk["fors"][slot] >= 1)
            ):
                mask[A.MANA + slot] = 1
    mask[A.STRIKE] = 1


def defend_mask(s, q: int, mask: np.ndarray) -> None:
    ev = s.ev
    useless_hidden = s.game.options["mask_useless_actions"]
    now = sum(remaining_damage(s, q, ev["inc"], ev["used"])) if useless_hidden else 0
    for slot, c in enumerate(s.slots[q]):
        if c == NO:
            continue
        card = CARDS[c]
        if s.exhausted[q][slot]:
            if refresh_affordable(s, q, slot):
                mask[A.USE + slot] = 1
        elif card.use in ("helmet", "defence") and slot not in ev["used"]:
            if not useless_hidden or sum(remaining_damage(s, q, ev["inc"], ev["used"] + [slot])) < now:
                mask[A.USE + slot] = 1
        elif card.use == "mana" and _restore_useful(s, q):
            mask[A.USE + slot] = 1
    mask[A.ACCEPT_DAMAGE] = 1
