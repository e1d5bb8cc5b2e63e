"""Lost Legends rules, gear-up (docs 2.1-2.4): level start, the 5-round draft, placing a pick as a
skill or buying it (with conversions), and the slot and purchase rules the draft, the observation
and the bot read.

Plain functions of a :class:`~envs.lost_legends.state.LostLegendsState`: the rule steps are tasks
registered in :data:`~envs.lost_legends.common.TASKS`, the others answer the draft decisions
(one per action block: :func:`pick`, :func:`place_skill`, :func:`buy`, :func:`convert`) or are queries.
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.lost_legends.common import (
    ARTIFACT_SLOTS,
    DRAFT_BUY_COMMITTED,
    DRAFT_PICK,
    DRAFT_PLACE,
    GEAR_UP,
    KIND_SLOT,
    NO,
    SPELL_SLOTS,
    TASKS,
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


# -- queries ----------------------------------------------------------------------------------------
def target_slot(s, i: int, card_id: int, slots: list[int] | None = None) -> int:
    """The slot the card would take on seat ``i``'s board, or NO if the slot rules forbid it (2.4)."""
    slots = s.slots[i] if slots is None else slots
    name = _NAME[card_id]
    for c in slots:
        if c != NO and _NAME[c] == name:
            return NO
    fixed = _FIXED_SLOT[card_id]
    if fixed != NO:
        return fixed if slots[fixed] == NO else NO
    for free in _FREE_SLOTS[card_id]:
        if slots[free] == NO:
            return free
    return NO


def buy_legal_now(s, i: int, card_id: int) -> bool:
    return target_slot(s, i, card_id) != NO and s.gold[i] >= s.cost(i, card_id)


def buy_legal_after_conversions(s, i: int, card_id: int) -> bool:
    """BUY would be legal after converting every owned equipment card (2.4)."""
    lv = list(s.levels[i])
    for c in s.slots[i]:
        if c != NO:
            lv[CARDS[c].skill] += 1
    return s.gold[i] >= cost_of(card_id, lv)


def pick_revealed(s, i: int) -> bool:
    """Seat ``i``'s pick is face up: it is placing it now (2.2 step 3)."""
    return i == s.current_player and s.decision in (DRAFT_PLACE, DRAFT_BUY_COMMITTED)


# -- rule steps (2.1-2.3) ---------------------------------------------------------------------------
@TASKS.task
def level_start(s) -> None:
    n, lv = s.n, s.level
    s.phase = GEAR_UP
    pile = s.piles[lv]
    s.chance.shuffle(pile)
    for k in range(n):
        s.front[(s.start + k) % n] = pile.pop()
    s.faceup = pile.pop()
    deck = s.decks[lv]
    s.chance.shuffle(deck)
    for k in range(n):
        seat = (s.start + k) % n
        s.hands[seat] = sorted(deck[:HAND_SIZE])
        del deck[:HAND_SIZE]
        s.seen[seat] = list(s.hands[seat])
    for i in range(n):
        s.life[i], s.mana[i] = s.max_life(i), s.max_mana(i)
        s.board_edits[i] += 1
    s.draft_round = 1
    push(s.tasks, ["draft_pick", 0])


@TASKS.task
def draft_pick(s, k: int) -> None:
    """The k-th player from the starting player picks a card of their hand (face down)."""
    n = s.n
    if k < n:
        push(s.tasks, ["draft_pick", k + 1])
        s.open_decision(DRAFT_PICK, (s.start + k) % n)
        return
    push(s.tasks, ["draft_place", 0])


def _pass_hands(s) -> None:
    """Each remaining hand goes to the left neighbour; after round 5 the last card is boxed.

    Done once every pick is placed: the passed cards lie face down above the receiver's board
    until then (rulebook), and seeing them earlier would reveal an unrevealed pick whenever a
    hand comes back round the table (3-4 players)."""
    n = s.n
    if s.draft_round < DRAFT_ROUNDS:
        hands = [s.hands[(i - 1) % n] for i in range(n)]
        s.hands = hands
        for i in range(n):
            seen = s.seen[i]
            seen.extend(c for c in hands[i] if c not in seen)
    else:
        for i in range(n):
            s.sixth.extend(s.hands[i])
            s.hands[i] = []


@TASKS.task
def draft_place(s, k: int) -> None:
    """The k-th player from the starting player reveals the pick and places or buys it; then the hands pass."""
    n = s.n
    if k < n:
        seat = (s.start + k) % n
        card = s.picks[seat]
        for seen in s.seen:  # revealed: public now
            if card in seen:
                seen.remove(card)
        s.conversions = 0
        push(s.tasks, ["draft_place", k + 1])
        s.open_decision(DRAFT_PLACE, seat)
        return
    _pass_hands(s)
    if s.draft_round < DRAFT_ROUNDS:
        s.draft_round += 1
        push(s.tasks, ["draft_pick", 0])
    else:
        push(s.tasks, ["combat_start"])


# -- the draft decisions (2.2-2.4) ------------------------------------------------------------------
def pick(s, k: int) -> None:
    seat = s.current_player
    s.picks[seat] = s.hands[seat].pop(k)


def _gear_refill(s, i: int) -> None:
    s.life[i], s.mana[i] = s.max_life(i), s.max_mana(i)
    s.board_edits[i] += 1


def _add_skill_card(s, i: int, card_id: int) -> None:
    s.skill_cards[i].append(card_id)
    s.levels[i][CARDS[card_id].skill] += 1
    s.board_edits[i] += 1


def place_skill(s) -> None:
    seat = s.current_player
    card = s.picks[seat]
    s.picks[seat] = NO
    _add_skill_card(s, seat, card)
    s.pay_out(seat, SKILL_GOLD[s.level])


def buy(s) -> None:
    seat = s.current_player
    card = s.picks[seat]
    price = s.cost(seat, card)
    slot = target_slot(s, seat, card)
    s.gold[seat] -= price
    s.gold_in += price
    s.slots[seat][slot] = card
    s.exhausted[seat][slot] = False
    s.picks[seat] = NO
    _gear_refill(s, seat)  # bumps board_edits


def convert(s, slot: int) -> None:
    seat = s.current_player
    card = s.slots[seat][slot]
    s.slots[seat][slot] = NO
    s.exhausted[seat][slot] = False
    _add_skill_card(s, seat, card)  # bumps board_edits
    s.conversions += 1
    _gear_refill(s, seat)
    s.open_decision(DRAFT_BUY_COMMITTED, seat)
