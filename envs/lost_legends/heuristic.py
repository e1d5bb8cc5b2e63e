"""A rule-based Lost Legends bot that reads the rules State (training opponent, baseline).

``HeuristicBot().act_state(state)`` returns a legal action for ``state.current_player``. It reads
only what that seat may know (docs 5.2): its own hand and pick, and public information (equipment,
skills, gold, life, mana, monsters in front, the face-up monster, trophies). It never reads another
player's hand or pick, nor the pile order or contents (only its size).

The rules of thumb, per decision:

- **Draft pick**: the card worth most to me: an affordable equipment card that fills an empty slot
  or improves a weapon (valued by its damage), armor and healing, else a skill matching my heroes'
  weapons (cheaper later purchases); weapons and healing first.
- **Placement**: buy when it is affordable and useful, else place as a skill. The only conversion:
  a better weapon of a type already owned is bought by first turning the owned one into a skill.
- **Monster selection**: attack the monster in front unless it is far out of reach and someone can
  take it; without a monster take the face-up one when I can kill it in two attacks, else draw.
- **Attack**: the weapon with the most projected damage against this monster; boosts and mana only
  when they turn a surviving monster into a kill (or when no kill is possible, mana freely).
- **Defence**: use a block when the hit would defeat me or costs two life or more; heal at 0 life.
- **Level-up**: more life while maximum life < 6, else gold. **Lose skill**: the least useful type.

With a ``seed``, exact ties are broken at random instead of by the lowest action id.
"""

from __future__ import annotations

import random

import numpy as np

from envs.lost_legends import actions as A
from envs.lost_legends import combat, draft
from envs.lost_legends.common import (
    ATTACK_BUILD,
    CHARGE_EXHAUST,
    CHOOSE_WEAPON,
    DEFEND,
    DRAFT_BUY_COMMITTED,
    DRAFT_PICK,
    DRAFT_PLACE,
    FINAL,
    HEAL,
    LEVEL_REWARD,
    LOSE_SKILL,
    NO,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    SELECT_NONE,
    SELECT_OWN,
    UNARMED_W,
    card_cost,
    cond_met,
)
from envs.lost_legends.content import CARDS, NUM_SLOTS


def _card_damage(card, levels) -> float:
    """Rough damage of a card's attack lines for these skill levels (FOR lines count half)."""
    total = 0.0
    for line in card.lines:
        if not cond_met(line.cond, levels):
            continue
        if line.op == "DMG":
            total += line.n
        elif line.op == "PER":
            total += line.n * levels[line.skill]
        elif line.op == "FOR":
            total += 0.5 * line.n
        elif line.op == "CONV":
            total += 1.0
    return total


def _card_block(card) -> float:
    total = 0.0
    for line in card.lines:
        if line.op == "BLOCK":
            total += line.n
        elif line.op == "BLOCKALL":
            total += 3.0
    return total


class HeuristicBot:
    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed) if seed is not None else None

    def _best(self, scored: list[tuple[float, int]]) -> int:
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v == best]
        return top[0] if self.rng is None else self.rng.choice(top)

    # -- value of an equipment card for a seat ------------------------------------------------------
    def card_value(self, s, seat: int, card_id: int) -> float:
        card = CARDS[card_id]
        levels = s.levels[seat]
        slot = draft.target_slot(s, seat, card_id)
        if card.use == "weapon":
            current = s.slots[seat][card.kind]
            if current != NO:  # an upgrade: the owned weapon is turned into a skill first (2.4)
                after = list(levels)
                after[CARDS[current].skill] += 1
                gain = _card_damage(card, after) - _card_damage(CARDS[current], levels)
                return 1.5 * gain + 1.0 if gain > 0 else 0.0
            return 2.0 + 1.5 * _card_damage(card, levels)
        if slot == NO:
            return 0.0
        if card.use == "passive":
            return 2.0 * _card_block(card) + card.total("LIFE")
        if card.use in ("helmet", "defence"):
            return 1.2 * _card_block(card)
        if card.use == "heal":
            return 2.5 + card.total("HEAL")
        if card.use == "boost":
            return 0.8 * _card_damage(card, levels)
        if card.use == "mana":
            return 0.5
        return 1.5 * (card.total("LIFE") + card.total("MANA"))

    @staticmethod
    def upgrade_slot(s, seat: int, card_id: int) -> int:
        """The weapon slot to convert so that this weapon can replace the one of its type, or NO.

        A second weapon of a type can only be bought after turning the owned one into a skill
        (2.4); this is the bot's only conversion, and only when it then can pay at once."""
        card = CARDS[card_id]
        if card.use != "weapon":
            return NO
        old = s.slots[seat][card.kind]
        if old == NO:
            return NO
        levels = list(s.levels[seat])
        levels[CARDS[old].skill] += 1
        return card.kind if s.gold[seat] >= card_cost(card, levels) else NO

    def skill_value(self, s, seat: int, card_id: int) -> float:
        card = CARDS[card_id]
        weapons = [CARDS[c] for c in s.slots[seat][:3] if c != NO]
        match = sum(1 for w in weapons if w.skill == card.skill)
        return 1.0 + 0.8 * match + 0.3 * s.levels[seat][card.skill]

    # -- damage estimates ---------------------------------------------------------------------------
    def _dealt(self, s, seat: int, atk: dict) -> int:
        return combat.dealt(s.front[seat], combat.attack_damage(s, seat, atk))

    def best_weapon_damage(self, s, seat: int, monster_id: int) -> int:
        best = 1 if all(s.slots[seat][w] == NO for w in range(3)) else 0
        for w in range(3):
            if s.slots[seat][w] != NO:
                d = combat.attack_damage(s, seat, {"weapon": w, "used": [], "fors": [0] * NUM_SLOTS})
                best = max(best, combat.dealt(monster_id, d))
        if best == 0 and all(s.slots[seat][w] == NO for w in range(3)):
            best = combat.dealt(monster_id, [1, 0, 0, 0])
        return best

    # -- decisions ----------------------------------------------------------------------------------
    def act_state(self, s) -> int:
        mask = s.legal_mask()
        legal = np.flatnonzero(mask).tolist()
        if len(legal) == 1:
            return legal[0]
        seat = s.current_player
        d = s.decision
        if d == DRAFT_PICK:
            scored = []
            for k, c in enumerate(s.hands[seat]):
                buy = draft.buy_legal_now(s, seat, c) or self.upgrade_slot(s, seat, c) != NO
                v = self.card_value(s, seat, c) if buy else 0.0
                v = max(v, self.skill_value(s, seat, c))
                scored.append((v, A.PICK + k))
            return self._best(scored)
        if d in (DRAFT_PLACE, DRAFT_BUY_COMMITTED):
            c = s.picks[seat]
            if mask[A.BUY] and (
                d == DRAFT_BUY_COMMITTED or self.card_value(s, seat, c) >= self.skill_value(s, seat, c)
            ):
                return A.BUY
            up = self.upgrade_slot(s, seat, c)
            if up != NO and mask[A.CONVERT + up] and self.card_value(s, seat, c) >= self.skill_value(s, seat, c):
                return A.CONVERT + up
            if mask[A.PLACE_SKILL]:
                return A.PLACE_SKILL
            return legal[0]
        if d in (SELECT_OWN, SELECT_DRAWN):
            m = s.front[seat]
            need = CARDS[m].life - s.markers[seat]
            dmg = self.best_weapon_damage(s, seat, m)
            if mask[A.PASS] and dmg * 3 < need:
                return A.PASS
            return A.ATTACK
        if d in (SELECT_NONE, SELECT_AFTER_PASS):
            if mask[A.TAKE_FACEUP] and mask[A.DRAW]:
                m = s.faceup
                if self.best_weapon_damage(s, seat, m) * 2 >= CARDS[m].life:
                    return A.TAKE_FACEUP
                return A.DRAW
            return legal[0]
        if d == CHOOSE_WEAPON:
            scored = []
            for a in legal:
                w = UNARMED_W if a == A.UNARMED else a - A.WEAPON
                scored.append((self._dealt(s, seat, {"weapon": w, "used": [], "fors": [0] * NUM_SLOTS}), a))
            return self._best(scored)
        if d == ATTACK_BUILD:
            return self._attack(s, seat, mask, legal)
        if d == DEFEND:
            ev = s.ev
            rest = sum(combat.remaining_damage(s, seat, ev["inc"], ev["used"]))
            if rest >= s.life[seat] or rest >= 2:
                scored = []
                for slot in range(NUM_SLOTS):
                    if mask[A.USE + slot] and not s.exhausted[seat][slot]:
                        after = sum(combat.remaining_damage(s, seat, ev["inc"], ev["used"] + [slot]))
                        if after < rest:
                            scored.append((rest - after, A.USE + slot))
                if scored:
                    return self._best(scored)
            return A.ACCEPT_DAMAGE
        if d == HEAL:
            ready = [a for a in legal if a != A.ACCEPT_DEFEAT and not s.exhausted[seat][a - A.USE]]
            return ready[0] if ready else next(a for a in legal if a != A.ACCEPT_DEFEAT)
        if d == LEVEL_REWARD:
            if mask[A.REWARD_LIFE] and s.max_life(seat) < 6:
                return A.REWARD_LIFE
            return A.REWARD_GOLD
        if d == LOSE_SKILL:
            weapons = [CARDS[c].skill for c in s.slots[seat][:3] if c != NO]
            return self._best([(-weapons.count(a - A.LOSE), a) for a in legal])
        if d == CHARGE_EXHAUST:
            return self._best([(-CARDS[s.slots[seat][a - A.EXHAUST]].cost, a) for a in legal])
        return legal[0]

    def _attack(self, s, seat: int, mask, legal) -> int:
        atk = s.atk
        m = s.front[seat]
        need = CARDS[m].life - s.markers[seat]
        now = self._dealt(s, seat, atk)
        if now >= need:
            return A.STRIKE
        # Mana activations first (mana refills every level), then boosts that make the kill.
        for slot in range(NUM_SLOTS):
            if mask[A.MANA + slot]:
                trial = {"weapon": atk["weapon"], "used": atk["used"], "fors": list(atk["fors"])}
                trial["fors"][slot] += 1
                if self._dealt(s, seat, trial) > now:
                    return A.MANA + slot
        boosts = [
            slot
            for slot in range(NUM_SLOTS)
            if mask[A.USE + slot] and not s.exhausted[seat][slot] and CARDS[s.slots[seat][slot]].use == "boost"
        ]
        best, best_gain = NO, 0
        for slot in boosts:
            trial = {"weapon": atk["weapon"], "used": atk["used"] + [slot], "fors": atk["fors"]}
            gain = self._dealt(s, seat, trial) - now
            if gain > best_gain:
                best, best_gain = slot, gain
        if best != NO:
            everything = {"weapon": atk["weapon"], "used": atk["used"] + boosts, "fors": atk["fors"]}
            if self._dealt(s, seat, everything) >= need or s.phase == FINAL:  # a reachable kill, or the last chance
                return A.USE + best
        return A.STRIKE
