"""Last Bastion, the Horde phase: the board-turn's tasks (``turn_start``, ``recurring`` and ``rec``,
``power``, ``turn_end``, ``victory``), putting cards into play (``draw`` and the PLACE_CARD answer,
the Trap), and the order of simultaneous effects (``order`` and the EFFECT_ORDER answer).

Every board-turn is the tasks ``turn_start -> recurring -> power -> hero -> turn_end``; the effects
themselves are in ``effects.py``, the Hero phase in ``hero.py``.
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import EFFECT_ID
from envs.last_bastion.content import DEPLOYED, IN
from envs.last_bastion.decisions import TASKS, abs_space, decide, decide_spaces, space_id
from envs.last_bastion.tokens import return_element

#: per card: its central effect is recurring (there, and not ongoing)
_RECURRING = tuple(c.central is not None and c.central.prim not in C.ONGOING for c in C.CARDS)


# == the board-turn ================================================================================
@TASKS.task
def turn_start(state) -> None:
    b = state.board
    state.board_turns += 1
    std = state.elements["standard"]
    if std["state"] == DEPLOYED and std["seat"] == b:
        return_element(state, "standard")
    if b in state.sanct:  # this board's sanctified marks end
        state.sanct = [-1 if x == b else x for x in state.sanct]
        state._board_ver += 1
    p = state.player_at[b]
    state.active = p if p >= 0 and state.heroes[p]["status"] == IN else -1  # in_play(p)
    state.neutral = state.active < 0
    state.acted = state.moved = state.power_used = False
    push(state.stack, ["recurring"], ["power"], ["hero"], ["turn_end"])


@TASKS.task
def recurring(state) -> None:
    """The recurring central effects of the board's three spaces, in slot order (or the controller's)."""
    items = []
    sp, sanct, net = state.spaces, state.sanct, state.elements["net"]
    netted = net["where"] if net["state"] == DEPLOYED else -1
    b3 = 3 * state.board
    for slot in range(3):
        s = b3 + slot
        c = sp[s]
        if c >= 0 and _RECURRING[c] and sanct[s] < 0 and s != netted:  # not suppressed(s)
            items.append([slot, ["rec", s, c]])
    if items:  # an "order" task without items does nothing
        state.stack.append(["order", "rec", items])


@TASKS.task
def rec(state, s: int, card: int) -> None:
    """The recurring effect of ``card`` on space ``s``, if it is still there and not suppressed."""
    if state.spaces[s] == card and not state.suppressed(s):
        e = C.CARDS[card].central
        state.stack.append(["fx", e.prim, e.arg, s, -1, "card"])


@TASKS.task
def power(state) -> None:
    """The board power: a full board's effect, else a new card on a hero's board-turn."""
    b = state.board
    sp = state.spaces
    if sp[3 * b] >= 0 and sp[3 * b + 1] >= 0 and sp[3 * b + 2] >= 0:  # a full board
        prim = ("LOSE_LIFE", "PLAGUE_WIND", "SOUL_DRAIN", "SIEGE_BREACH")[b]
        state.stack.append(["fx", prim, 1, -1, -1, "board"])
    elif not state.neutral:
        state.stack.append(["draw", 1])


@TASKS.task
def turn_end(state) -> None:
    if state.board_turns >= state.game.options["max_board_turns"]:
        state.result = "truncated"
        return
    state.board = (state.board + 1) % 4
    state.stack.append(["turn_start"])


@TASKS.task
def victory(state) -> None:
    if state.vanquished >= state.W:
        state.result = "victory"


# == simultaneous effects ==========================================================================
@TASKS.task
def order(state, kind: str, items: list) -> None:
    """Items ``[k, task]`` resolve in the controller's order when their effects differ (option
    effect_order="choose"), else in slot order. ``kind``: "rec" (recurring) or "exit"."""
    if not items:
        return
    effects = {_order_effect(kind, task) for _, task in items}
    if len(items) >= 2 and len(effects) >= 2 and state.game.options["effect_order"] == "choose":
        decide(state, "EFFECT_ORDER", [EFFECT_ID + k for k, _ in items], order_kind=kind, items=items)
        return
    push(state.stack, *[task for _, task in items])


def _order_effect(kind: str, task: list):
    card = C.CARDS[task[2]]
    return card.central if kind == "rec" else card.exit


def effect_order_legal(state, d: dict) -> list[int]:
    return [EFFECT_ID + k for k, _ in d["items"]]


def answer_effect_order(state, d: dict, name: str, args: tuple) -> None:
    """EFFECT_ORDER: item ``k`` now, then the rest are ordered again."""
    items = d["items"]
    chosen = [it for it in items if it[0] == args[0]][0]
    rest = [it for it in items if it[0] != args[0]]
    push(state.stack, chosen[1], ["order", d["order_kind"], rest])


# == putting cards into play =======================================================================
@TASKS.task
def draw(state, n: int) -> None:
    """Put ``n`` cards into play, one at a time: each goes to a free space of its colour's board
    (black: the active or neutral board; Oswin: any) chosen by the controller (PLACE_CARD)."""
    if n <= 0:
        return
    if n > 1:
        state.stack.append(["draw", n - 1])
    if not state.deck:
        state.result = "defeat_deck"
        return
    if min(state.spaces) >= 0:  # every space taken
        state.stack.append(["fx", "LOSE_LIFE", 1, -1, -1, "full"])
        return
    card = state.deck.pop(0)
    state.placing = card
    decide_spaces(state, "PLACE_CARD", placement_spaces(state, card), card=card)


def placement_spaces(state, card: int) -> list[int]:
    """Where ``card`` may go: a free space of its colour's board (black: the active board, or the
    neutral one), any free space if that board is full or Oswin is active."""
    sp = state.spaces
    if not state.neutral and state.power_usable(state.active, C.OSWIN):
        return [s for s in range(12) if sp[s] < 0]
    colour = C.CARDS[card].color
    target = colour if colour != C.BLACK else (state.seat_of[state.active] if not state.neutral else state.board)
    b = 3 * target  # the free spaces of that board, else every free space
    return [s for s in (b, b + 1, b + 2) if sp[s] < 0] or [s for s in range(12) if sp[s] < 0]


def place_card_legal(state, d: dict) -> list[int]:
    return [space_id(state, s) for s in placement_spaces(state, d["card"])]


def answer_place_card(state, d: dict, name: str, args: tuple) -> None:
    """PLACE_CARD: the card goes on that space (a Monster on the Trap is discarded), its entrance follows."""
    s = abs_space(state, args[0])
    card = state.placing
    state.placing = -1
    trap = state.elements["trap"]
    if trap["state"] == DEPLOYED and trap["where"] == s:
        return_element(state, "trap")
        if not C.CARDS[card].warlord:
            state.discard.append(card)
            return
    state.spaces[s] = card
    state._board_ver += 1
    e = C.CARDS[card].entrance
    if e is not None:
        state.stack.append(["fx", e.prim, e.arg, s, -1, "card"])
