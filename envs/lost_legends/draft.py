"""Lost Legends rules, gear-up (docs 2.1-2.4): level start, the 5-round draft, placing a pick as a
skill or buying it (with conversions), and the cost and slot rules the draft and observation read.

A mixin of :class:`envs.lost_legends.state.LostLegendsState`: the methods use its attributes.
"""

from __future__ import annotations

from envs.lost_legends.common import (
    ARTIFACT_SLOTS,
    DRAFT_BUY_COMMITTED,
    DRAFT_PICK,
    DRAFT_PLACE,
    GEAR_UP,
    KIND_SLOT,
    NO,
    SPELL_SLOTS,
    cost_of,
)
from envs.lost_legends.content import (
    CARDS,
    DRAFT_ROUNDS,
    HAND_SIZE,
    KINDS,
    SKILL_GOLD,
    is_monster,
)

# Per card id, for the slot rules (2.4): its name, and its fixed slot (weapons, armor) or the slots of
# its location (spells, artifacts); monsters get placeholders and never reach these tables.
_NAME = tuple(c.name for c in CARDS)
_FIXED_SLOT = tuple(NO if is_monster(c.id) else KIND_SLOT.get(KINDS[c.kind], NO) for c in CARDS)
_FREE_SLOTS = tuple(() if is_monster(c.id) else SPELL_SLOTS if c.location == "S" else ARTIFACT_SLOTS for c in CARDS)


class DraftMixin:
    """Gear-up: tasks ``_t_*`` and action handlers ``_do_*`` of the draft."""

    def cost(self, i: int, card_id: int) -> int:
        return cost_of(card_id, self.levels[i])

    def target_slot(self, i: int, card_id: int, slots: list[int] | None = None) -> int:
        """The slot the card would take, or NO if the slot rules forbid it (2.4)."""
        slots = self.slots[i] if slots is None else slots
        name = _NAME[card_id]
        for c in slots:
            if c != NO and _NAME[c] == name:
                return NO
        s = _FIXED_SLOT[card_id]
        if s != NO:
            return s if slots[s] == NO else NO
        for s in _FREE_SLOTS[card_id]:
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
        return self.gold[i] >= cost_of(card_id, lv)

    def pick_revealed(self, i: int) -> bool:
        """Seat ``i``'s pick is face up: it is placing it now (2.2 step 3)."""
        return i == self.current_player and self.decision in (DRAFT_PLACE, DRAFT_BUY_COMMITTED)

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

    def _do_convert(self, slot: int) -> None:
        seat = self.current_player
        card = self.slots[seat][slot]
        self.slots[seat][slot] = NO
        self.exhausted[seat][slot] = False
        self._add_skill_card(seat, card)
        self.conversions += 1
        self._gear_refill(seat)
        self._open(DRAFT_BUY_COMMITTED, seat)
