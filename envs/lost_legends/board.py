"""The Lost Legends board: the monster pile and face-up monster, trophies, and each hero's tracks,
skills, equipment and monster; your own hand and pick.

Public: heroes, gold, life, mana, experience, legend, skills, trophies, tokens, equipment, the
monster in front of each hero, pile sizes, the face-up monster, hand sizes, a pick while it is
revealed. Hidden: another seat's hand and face-down pick, the pile orders (docs/lost_legends.md 5.2).
"""

from __future__ import annotations

from typing import Any

from envs.core.board import card, empty, hidden, monster, section, token, track
from envs.lost_legends import actions as A
from envs.lost_legends.common import NO
from envs.lost_legends.content import CARDS, HERO_NAMES, MONSTER_TYPE_NAMES, SKILLS
from envs.lost_legends.draft import pick_revealed
from envs.lost_legends.text import DECISION_WORDS, SLOT_NAMES


def _equipment(state: Any, cid: int, key: str | None, tags=None, owner: int | None = None) -> dict[str, Any]:
    c = CARDS[cid]
    values = [["level", c.level + 1], ["skill", SKILLS[c.skill]]]
    if owner is not None:
        values.insert(0, ["cost", state.cost(owner, cid)])
    else:
        values.insert(0, ["price", c.cost])
    return card(f"{c.name} {c.code}", key, values=values, tags=[c.use] + list(tags or []))


def _monster(state: Any, mid: int, key: str | None, markers: int | None = None, tags=None) -> dict[str, Any]:
    m = CARDS[mid]
    life = ["damage/life", f"{markers}/{m.life}"] if markers is not None else ["life", m.life]
    values = [life, ["xp", m.xp], ["gold", m.gold]]
    values += [[d, a] for d, a in zip(("melee", "range", "magic", "charge"), m.attack) if a]
    return monster(f"{m.name} {m.code}", key, values=values, tags=[MONSTER_TYPE_NAMES[m.type]] + list(tags or []))


def board(state: Any, seat: int) -> dict[str, Any]:
    n = state.n
    info = state.info()
    over = state.is_terminal()
    status = f"{info['level']}, {info['phase']}"
    if info["phase"] == "gear-up":
        status += f" round {info['draft_round']}"
    if over:
        status = "game over"
    elif state.current_player != NO:
        status += f"; player_{state.current_player} to {DECISION_WORDS[state.decision]}"
    level = min(state.level, 2)
    table = [token("monster pile", len(state.piles[level]), key="pile")]
    table.append(
        _monster(state, state.faceup, "faceup", tags=["face up"])
        if state.faceup != NO
        else empty("no face-up monster", "faceup")
    )
    table += [
        token(f"challenge {t}", "-" if h == NO else f"player_{h}") for t, h in zip(MONSTER_TYPE_NAMES, state.challenge)
    ]
    table += [token(f"tokens T{k + 1} left", 4 - t) for k, t in enumerate(state.stack_taken)]
    sections = [section("Dungeon", table)]
    for i in range(n):
        items = [
            card(
                HERO_NAMES[state.heroes[i]],
                f"hero:{i}",
                tags=["start" if i == state.start else "", "DEFEATED" if state.defeated[i] else ""],
                values=[[SKILLS[k], v] for k, v in enumerate(state.levels[i]) if v],
            ),
            token("gold", state.gold[i]),
            track("life", state.life[i], state.max_life(i)),
            track("mana", state.mana[i], state.max_mana(i)),
            track("experience", state.xp[i], 30),
            token("legend", state.legend[i]),
            token(
                "trophies", sum(state.trophy_counts(i)), values=list(zip(MONSTER_TYPE_NAMES, state.trophy_counts(i)))
            ),
        ]
        items += [token(f"token T{k + 1}", v) for k, v in enumerate(state.tokens[i]) if v]
        if state.front[i] != NO:
            items.append(_monster(state, state.front[i], f"front:{i}", state.markers[i], tags=["in front"]))
        for s, cid in enumerate(state.slots[i]):
            if cid != NO:
                items.append(
                    _equipment(
                        state, cid, f"slot:{i}:{s}", [SLOT_NAMES[s], "exhausted" if state.exhausted[i][s] else ""]
                    )
                )
        if i == seat:
            items += [_equipment(state, cid, f"hand:{k}", ["hand"], owner=i) for k, cid in enumerate(state.hands[i])]
            if state.picks[i] != NO:
                items.append(_equipment(state, state.picks[i], f"pick:{i}", ["your pick"], owner=i))
        else:
            if state.hands[i]:
                items.append(hidden("hand", len(state.hands[i])))
            if state.picks[i] != NO:
                if pick_revealed(state, i):
                    items.append(_equipment(state, state.picks[i], f"pick:{i}", ["revealed pick"], owner=i))
                else:
                    items.append(hidden("face-down pick", 1))
        active = not over and i == state.current_player
        sections.append(section(f"player_{i}", items, owner=i, you=i == seat, active=active))
    return {"title": f"Lost Legends, {n} players", "status": status, "sections": sections}


def action_keys(state: Any, action: int) -> list[str]:
    name, args = A.LAYOUT.decode(action)
    me = state.current_player
    if name == "PICK":
        return [f"hand:{args[0]}"]
    if name in ("CONVERT", "USE", "MANA", "EXHAUST"):
        return [f"slot:{me}:{args[0]}"]
    if name == "WEAPON":
        return [f"slot:{me}:{args[0]}"]
    if name in ("BUY", "PLACE_SKILL"):
        return [f"pick:{me}"]
    if name in ("ATTACK", "PASS"):
        return [f"front:{me}"]
    if name == "TAKE_FACEUP":
        return ["faceup"]
    if name == "DRAW":
        return ["pile"]
    return []


def public_description(state: Any, action: int, seat: int, text: str) -> str:
    """A draft pick is made face down: the others learn that a card was picked, not which."""
    if A.LAYOUT.name_of(action) == "PICK":
        return "picks a card (face down)"
    return text
