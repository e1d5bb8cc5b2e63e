"""Last Bastion in words: :func:`describe_action` (what an action does, as a player would say it:
"Call to arms: tile 6, Standard", "Place Hellhound on space 4 (green board)") and :func:`render`
(the table as text), with the small phrases the play view shares (:func:`space_marks`,
:func:`element_place`, :func:`effect_text`). Tiles, spaces and seats are named in the absolute frame.
"""

from __future__ import annotations

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT, OUTCOME_TARGETS, OUTCOMES
from envs.last_bastion.content import DEPLOYED, IN

#: what each decision asks, in words
DECISION_TEXT = {
    "MAIN": "the Hero phase: move, act, Call to Arms, or end it",
    "PLACE_CARD": "the space of the card put into play",
    "CHOOSE_VICTIM": "the hero who suffers the effect",
    "DISCARD_COLOR": "the colour of the Equipment to discard",
    "GAIN_COLOR": "the colour of the Equipment to take",
    "STANDARD_COLOR": "the colour to plant the Standard on",
    "QUARRY_SPACE": "the space to set the Trap on",
    "TREBUCHET_TARGET": "the Monster to throw the Net on",
    "TOMB_TARGET": "the Monster the Tomb discards",
    "TOWER_SOURCE": "the card the Tower moves",
    "TOWER_DEST": "the free space the Tower moves it to",
    "FOUNTAIN_TARGET": "the Grasp to remove or the card to sanctify",
    "DISPENSARY_TARGET": "the taken-out hero to heal",
    "PURIFY_TARGET": "the Grasp to remove",
    "COMBAT_RESOLVE": "the cards the combat vanquishes",
    "EFFECT_ORDER": "the effect that resolves first",
}

_NO_ARG = frozenset(
    (
        "DISCARD_ALL_EQUIP",
        "GRASP_FRONT",
        "GRASP_HERE",
        "GRASP_BOARD",
        "PURIFY",
        "CORRUPT",
        "TO_CENTRE",
        "SIEGE_BREACH",
        "PLAGUE_WIND",
        "SOUL_DRAIN",
    )
)


def effect_text(e) -> str:
    if e is None:
        return "-"
    if e.prim in C.ONGOING or e.prim in _NO_ARG:
        return e.prim
    arg = C.COLORS[e.arg] if e.prim == "GAIN_EQUIP" and isinstance(e.arg, int) else e.arg
    return f"{e.prim}({arg})"


def space_marks(state, s: int) -> list[str]:
    """What lies on space ``s`` beside its card: the Net, the Enchantment, a sanctified mark."""
    marks = [
        name
        for name in ("net", "enchantment")
        if state.elements[name]["state"] == DEPLOYED and state.elements[name]["where"] == s
    ]
    if state.sanct[s] >= 0:
        marks.append("sanctified")
    return marks


def element_place(state, name: str) -> str:
    """Where a deployed element stands ("on red" for the Standard's colour, "on s4" for a space); else ""."""
    e = state.elements[name]
    if e["state"] != DEPLOYED:
        return ""
    return f"on {C.COLORS[e['where']]}" if name == "standard" else f"on s{e['where']}"


# == actions =======================================================================================
def _tile(state, t: int) -> str:
    return f"tile {t}, {C.TILES[state.layout[t]].name}"


def _card(state, s: int) -> str:
    """The card on space ``s`` and where it is: "Hellhound (space 4)"."""
    c = state.spaces[s]
    return f"{C.CARDS[c].name} (space {s})" if c >= 0 else f"the empty space {s}"


def _space(s: int) -> str:
    return f"space {s} ({C.COLORS[s // 3]} board)"


def _player(state, q: int) -> str:
    return f"player_{q} {C.HEROES[state.heroes[q]['hero']].name}" if q >= 0 else "an empty seat"


def describe_action(state, action: int) -> str:
    """What ``action`` does for the player to act now, in a player's words."""
    name, args = LAYOUT.decode(action)
    p = state.current_player if state.current_player >= 0 else 0
    seat = state.seat_of[p]
    d = state.decision
    kind = d["kind"] if d is not None else None
    if name in ("MOVE_TO", "CALL_TO_ARMS", "SELECT_TILE"):
        where = _tile(state, C.ABS_TILE[seat][args[0]])
        if name == "MOVE_TO":
            return f"Move to {where}"
        if name == "CALL_TO_ARMS":
            return f"Call to arms: {where}"
        return f"Remove the Grasp from {where}"
    if name == "ACTIVATE":
        t = state.heroes[p]["tile"]
        return f"Activate {_tile(state, t)}" if t >= 0 else "Activate the tile you stand on"
    if name == "END_TURN":
        return "End the Hero phase"
    if name == "FIGHT_BOTH":
        t = state.heroes[p]["tile"]
        pair = C.TILE_SPACES.get(t, ())
        if len(pair) == 2:
            return f"Fight both {_card(state, pair[0])} and {_card(state, pair[1])}"
        return "Fight both cards facing your corner tile"
    if name in ("FIGHT", "ENCHANT", "SELECT_SPACE"):
        s = (args[0] + 3 * seat) % 12
        if name == "FIGHT":
            return f"Fight {_card(state, s)}"
        if name == "ENCHANT":
            return f"Enchant {_card(state, s)}"
        return _select_space(state, kind, d, s)
    if name == "SELECT_PLAYER":
        who = _player(state, state.player_at[(seat + args[0]) % 4])
        return {
            "CHOOSE_VICTIM": f"{who} suffers the effect",
            "DISPENSARY_TARGET": f"Heal {who}",
            "FOUNTAIN_TARGET": f"Remove the Grasp from the Hero board of {who}",
            "PURIFY_TARGET": f"Remove the Grasp from the Hero board of {who}",
        }.get(kind, f"Choose {who}")
    if name == "SELECT_COLOR":
        colour = C.COLORS[args[0]]
        return {
            "DISCARD_COLOR": f"Discard a {colour} Equipment",
            "GAIN_COLOR": f"Take a {colour} Equipment",
            "STANDARD_COLOR": f"Plant the Standard on {colour}",
        }.get(kind, f"Choose {colour}")
    if name == "RESOLVE":
        if kind == "COMBAT_RESOLVE":
            targets = d["targets"]
            cards = [_card(state, targets[i]) for i in OUTCOME_TARGETS[args[0]] if i < len(targets)]
            return "Vanquish " + " and ".join(cards) if cards else "Vanquish nothing"
        return f"Combat outcome: {OUTCOMES[args[0]]}"
    if name == "RESOLVE_EFFECT":
        if kind == "EFFECT_ORDER":
            for k, task in d["items"]:
                if k == args[0]:
                    card = C.CARDS[task[2]]
                    e = card.central if task[0] == "rec" else card.exit
                    return f"First the effect of {card.name} (space {task[1]}): {effect_text(e)}"
        return f"First the effect number {args[0]}"
    return name


def _select_space(state, kind: str | None, d: dict | None, s: int) -> str:
    if kind == "PLACE_CARD":
        return f"Place {C.CARDS[state.placing].name} on {_space(s)}"
    if kind == "QUARRY_SPACE":
        return f"Set the Trap on {_space(s)}"
    if kind == "TREBUCHET_TARGET":
        return f"Throw the Net on {_card(state, s)}"
    if kind == "TOMB_TARGET":
        return f"Discard {_card(state, s)} at the Tomb (you lose 1 Life)"
    if kind == "TOWER_SOURCE":
        return f"Move {_card(state, s)}"
    if kind == "TOWER_DEST":
        return f"Move {_card(state, d['src'])} to {_space(s)}"
    if kind == "FOUNTAIN_TARGET":
        return f"Sanctify {_card(state, s)}"
    return f"Choose {_space(s)}"


# == the table =====================================================================================
def render(state, seat: int | None = None) -> str:
    """The table as text (all of it is public: the deck shows only its size)."""
    s = state
    lines = [
        f"Last Bastion - board-turn {s.board_turns}, board {C.COLORS[s.board]} "
        f"({'neutral' if s.neutral else f'player_{s.active}'}), deck {len(s.deck)}, "
        f"Warlords {s.vanquished}/{s.W}"
    ]
    for row in range(3):
        cells = []
        for col in range(3):
            t = 3 * row + col
            who = "".join(str(p) for p, h in enumerate(s.heroes) if h["tile"] == t and h["status"] == IN)
            cells.append(f"[{C.TILES[s.layout[t]].name[:10]:10}{'*' if s.grasped[t] else ' '}{who:4}]")
        lines.append(" ".join(cells))
    sealed = s.sealed_tiles()
    marks = [f"t{t} {C.TILES[s.layout[t]].name}" for t in range(9) if s.grasped[t]]
    if marks:
        lines.append("  grasped: " + ", ".join(marks))
    if sealed:
        lines.append("  sealed: " + ", ".join(f"t{t} {C.TILES[s.layout[t]].name}" for t in sorted(sealed)))
    trap = s.elements["trap"]
    for sp in range(12):
        if s.spaces[sp] >= 0:
            c = C.CARDS[s.spaces[sp]]
            tags = space_marks(s, sp)
            lines.append(
                f"  s{sp}: {c.name}{' (Warlord)' if c.warlord else ''} {C.COLORS[c.color]} "
                f"res {s.effective_resistance(sp)}/{c.resistance}  in {effect_text(c.entrance)} "
                f"| {effect_text(c.central)} | out {effect_text(c.exit)}" + (f"  [{', '.join(tags)}]" if tags else "")
            )
        elif trap["state"] == DEPLOYED and trap["where"] == sp:
            lines.append(f"  s{sp}: (Trap)")
    els = []
    for name in C.ELEMENTS:
        where = element_place(s, name)
        els.append(f"{name} {s.elements[name]['state']}{' ' + where if where else ''}")
    lines.append("  elements: " + ", ".join(els))
    for p, h in enumerate(s.heroes):
        equip = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(h["equip"]) if k) or "none"
        tile = f" on t{h['tile']} {C.TILES[s.layout[h['tile']]].name}" if h["tile"] >= 0 else ""
        lines.append(
            f"  player_{p} {C.HEROES[h['hero']].name} seat {C.COLORS[s.seat_of[p]]} {h['status']}"
            f"{' wounded' if h['wounded'] else ''}{' board-grasped' if h['board_grasped'] else ''}{tile}: "
            f"life {h['life']}, call to arms {h['cta']}, equipment {equip}"
        )
    d = s.decision
    if d is not None:
        if d["kind"] == "COMBAT_RESOLVE":
            pool = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(s.pool()) if k) or "none"
            lines.append("  dice: " + " ".join(C.DIE_FACES[f] for f in d["dice"]) + "; token pool " + pool)
        if d["kind"] == "CHOOSE_VICTIM":
            lines.append(f"  effect to suffer: {effect_text(C.Effect(d['task'][1], d['task'][2]))}")
        lines.append(
            f"  player_{s.current_player} chooses {DECISION_TEXT[d['kind']]} ({d['kind']}): "
            + "; ".join(describe_action(s, a) for a in d["legal"])
        )
    if s.result:
        lines.append(f"  result: {s.result}")
    return "\n".join(lines)
