"""Heroes and Monsters, the play view (``board(state, seat)`` for training/playing): the Battlefield's
Invaders, the Area to recruit from, the Fortress, and each player's General, Constructions and hand.

Public: the Battlefield, the Area, pile sizes, every table, and the active player's hand while it
is face up (``hand_up``). Hidden: another waiting player's hand, every deck order, the Fortress deck
and the Box beyond their sizes, the Plans not yet revealed.
"""

from __future__ import annotations

from typing import Any

from envs.core.board import card, empty, hidden, monster, section, token, track
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import ADVERSARIES, CARDS, GENERALS, INVADERS, PLANS
from envs.heroes_and_monsters.text import effect_text
from envs.heroes_and_monsters.turn import PHASES

RACE_CSS = ("#27ae60", "#7f8c8d", "#c0392b", "#8e6e53")  # Greenskin, Undead, Dragonkin, Neutral
RESOURCE_CSS = ("#8e6e53", "#8e44ad", "#c0392b")


def _card(cid: int, key: str | None, tags=None) -> dict[str, Any]:
    c = CARDS[cid]
    values = [["cost R/C/S", "/".join(map(str, c.cost))], ["damage", c.dmg]]
    race = C.MONSTER_RACES[c.race] if 0 <= c.race < len(C.MONSTER_RACES) else ""
    text = effect_text(c.effect) if c.effect is not None else ""
    return card(
        c.name,
        key,
        values=values,
        tags=[c.kind, race] + list(tags or []),
        text=text,
        color=RACE_CSS[c.race] if 0 <= c.race < len(RACE_CSS) else None,
    )


def board(state: Any, seat: int) -> dict[str, Any]:
    n = state.n
    adv = ADVERSARIES[state.adversary]
    status = f"{adv.name}, round {state.round}, player_{state.active} active, phase {PHASES[state.phase]}"
    if state.result is not None:
        status = f"game over: {state.result}"
    top = [
        token("Fortress deck", len(state.fortress), values=[["Threat", state.threat()]]),
        token("Rubble", len(state.rubble)),
        token("ward", state.ward),
        track("Invaders defeated", state.defeated, None if adv.plans else state.game.victory_target),
    ]
    if state.plan >= 0:
        top.append(
            card(
                f"Plan: {PLANS[state.plan].name}",
                values=[
                    ["progress", f"{state.plan_progress}/{state.plan_required()}"],
                    ["countdown", state.plan_countdown],
                    ["thwarted", state.thwarted],
                ],
            )
        )
    pool = state.pool(state.active) if state.hand_up else [0, 0, 0]
    top += [token(C.RESOURCE_NAMES[r], pool[r], key=f"res:{r}", color=RESOURCE_CSS[r]) for r in range(3)]
    top.append(token("damage D", state.dmg))
    top += [token(f"{C.MONSTER_RACES[r]} bonus", b) for r, b in enumerate(state.bonus) if b]
    sections = [section("Fortress and the active player's pool", top)]
    field = []
    for col in range(C.NUM_COLUMNS):
        key = f"field:{col}"
        iid = state.field[col]
        if iid < 0:
            field.append(empty(f"column {col}", key))
            continue
        inv = INVADERS[iid]
        values = [
            ["health", "/".join(map(str, state.levels(col)))],
            ["markers", state.markers[col]],
            ["next level", state.next_cost(col)],
            ["Fortress damage", state.fortress_damage(col)],
        ]
        field.append(monster(inv.name, key, values=values, tags=[C.INVADER_RACES[inv.race]], text=f"column {col}"))
    sections.append(section("Battlefield", field, layout="grid", columns=C.NUM_COLUMNS))
    area = [_card(c, f"area:{s}") if c >= 0 else empty(f"slot {s}", f"area:{s}") for s, c in enumerate(state.area)]
    sections.append(section("Area (recruit)", area, layout="grid", columns=4))
    for i, p in enumerate(state.players):
        g = GENERALS[p.general]
        items = [
            card(g.name, f"general:{i}", text=effect_text(g.ability), tags=["General", "used" if p.gen_used else ""]),
            token("deck", len(p.deck)),
            token("discard", len(p.discard)),
        ]
        items += [
            _card(c, f"table:{i}:{k}", tags=["Construction", "used" if u else ""]) for k, (c, u) in enumerate(p.table)
        ]
        if i == seat or (i == state.active and state.hand_up):
            items += [_card(c, f"hand:{i}:{k}", tags=["hand", "used" if u else ""]) for k, (c, u) in enumerate(p.hand)]
        elif p.hand:
            items.append(hidden("hand", len(p.hand)))
        active = state.result is None and i == state.current_player
        sections.append(section(f"player_{i}", items, owner=i, you=i == seat, active=active))
    return {"title": f"Heroes and Monsters, {n} player{'s' if n > 1 else ''}", "status": status, "sections": sections}


def action_keys(state: Any, action: int) -> list[str]:
    name, args = LAYOUT.decode(action)
    me = state.current_player if state.current_player >= 0 else state.active
    if name == "BUY":
        return [f"area:{args[0]}"]
    if name in ("USE_HAND", "SELECT_HAND"):
        return [f"hand:{me}:{args[0]}"]
    if name in ("USE_TABLE", "SELECT_TABLE"):
        return [f"table:{me}:{args[0]}"]
    if name == "USE_GENERAL":
        return [f"general:{me}"]
    if name == "COPY":
        return [f"table:{(me + args[0]) % state.n}:{args[1]}"]
    if name == "ATTACK":
        return [f"field:{args[0]}"]
    if name == "PAY":
        return [f"res:{args[0]}"]
    return []
