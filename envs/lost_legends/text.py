"""Lost Legends in words: what an action means now (``describe_action``) and the table as text
(``render``), in the words a player would use ("Fight the Goblin 1-M03 in front of you").

Reads the state and the rules' queries only; the play view is :mod:`envs.lost_legends.board`.
"""

from __future__ import annotations

from typing import Any

from envs.lost_legends import actions as A
from envs.lost_legends import combat
from envs.lost_legends.common import (
    ATTACK_BUILD,
    DECISIONS,
    DEFEND,
    GEAR_UP,
    NO,
    OVER,
    PHASES,
)
from envs.lost_legends.content import (
    CARDS,
    HERO_NAMES,
    LEVEL_NAMES,
    MONSTER_TYPE_NAMES,
    REWARD_GOLD,
    SKILL_GOLD,
    SKILLS,
)
from envs.lost_legends.draft import pick_revealed

#: what the seat to act has to do, per decision kind (in the order of ``common.DECISIONS``)
DECISION_WORDS = (
    "pick a card from the hand",
    "place the revealed pick as a skill, or buy it",
    "buy the pick (equipment was turned into skills for it)",
    "fight or pass the monster in front",
    "take the face-up monster or draw one",
    "take the face-up monster or draw one, after passing",
    "fight or pass the monster just drawn",
    "choose a weapon",
    "boost the attack, or strike",
    "block the incoming damage, or take it",
    "heal at 0 life, or accept defeat",
    "choose a level-up reward",
    "discard an added skill card (defeated)",
    "exhaust a card for the charge",
)
assert len(DECISION_WORDS) == len(DECISIONS)

SKILL_WORDS = ("melee", "range", "magic", "armor")  # SKILLS ME, RA, MA, AR
SLOT_NAMES = (
    "melee weapon",
    "range weapon",
    "magic weapon",
    "breastplate",
    "shield",
    "helmet",
    "spell 1",
    "spell 2",
    "spell 3",
    "artifact 1",
    "artifact 2",
    "artifact 3",
)
_SLOT_VERBS = {"CONVERT": "turn into a skill", "USE": "use", "MANA": "pay mana for", "EXHAUST": "exhaust"}


def card_name(card_id: int) -> str:
    if card_id == NO:
        return "-"
    c = CARDS[card_id]
    return f"{c.name} {c.code}"


def describe_action(s: Any, action: int) -> str:
    """The meaning of ``action`` for the seat to act, in this state (any id, legal or not)."""
    name, args = A.LAYOUT.decode(int(action))
    q = s.current_player if s.current_player != NO else 0
    if name == "PICK":
        hand = s.hands[q]
        k = args[0]
        return f"Pick {card_name(hand[k])}" if k < len(hand) else f"Pick hand card {k + 1} (there is none)"
    if name in ("CONVERT", "USE", "MANA", "EXHAUST"):
        slot = args[0]
        cid = s.slots[q][slot]
        if cid == NO:
            return f"Your {SLOT_NAMES[slot]} slot is empty (nothing to {_SLOT_VERBS[name]})"
        card = f"{card_name(cid)} ({SLOT_NAMES[slot]})"
        if name == "CONVERT":
            return f"Turn {card} into a {SKILL_WORDS[CARDS[cid].skill]} skill"
        if name == "EXHAUST":
            return f"Exhaust {card} for the charge"
        if name == "MANA":
            line = combat.for_line(s, q, slot)
            cost = f" {line.cost}" if line is not None else ""
            return f"Pay{cost} mana for the FOR line of {card}"
        if s.exhausted[q][slot]:
            return f"Refresh {card} for {CARDS[cid].total('REFRESH')} mana"
        return f"Use {card}"
    if name == "WEAPON":
        cid = s.slots[q][args[0]]
        if cid == NO:
            return f"Attack with your {SLOT_NAMES[args[0]]} (you have none)"
        return f"Attack with {card_name(cid)}"
    if name == "UNARMED":
        return "Attack unarmed (1 melee damage)"
    if name == "LOSE":
        return f"Discard one added {SKILL_WORDS[args[0]]} skill card"
    pick = s.picks[q]
    if name == "BUY" and pick != NO:
        return f"Buy {card_name(pick)} for {s.cost(q, pick)} gold"
    if name == "PLACE_SKILL" and pick != NO:
        gold = SKILL_GOLD[min(s.level, 2)]
        return f"Place {card_name(pick)} as a {SKILL_WORDS[CARDS[pick].skill]} skill (+{gold} gold)"
    front = s.front[q]
    if name == "ATTACK" and front != NO:
        return f"Fight the {card_name(front)} in front of you"
    if name == "PASS" and front != NO:
        j = combat.pass_target(s, q)
        return f"Pass the {card_name(front)} to player_{j}" if j != NO else f"Pass the {card_name(front)}"
    if name == "TAKE_FACEUP" and s.faceup != NO:
        return f"Take the face-up {card_name(s.faceup)}"
    if name == "DRAW":
        return f"Draw a monster from the pile ({len(s.piles[min(s.level, 2)])} left); its charge hits you"
    if name == "STRIKE" and s.decision == ATTACK_BUILD and s.atk is not None and front != NO:
        dealt = combat.dealt(front, combat.attack_damage(s, q))
        return f"Strike the {card_name(front)} for {dealt} damage"
    if name == "ACCEPT_DAMAGE" and s.decision == DEFEND and s.ev is not None and s.ev["seat"] == q:
        loss = sum(combat.remaining_damage(s, q, s.ev["inc"], s.ev["used"]))
        return f"Take the {loss} remaining damage"
    if name == "ACCEPT_DEFEAT":
        return "Stop healing at 0 life: accept defeat"
    if name == "REWARD_GOLD":
        return f"Level-up reward: {REWARD_GOLD} gold"
    if name == "REWARD_LIFE":
        return "Level-up reward: +1 maximum life (and life)"
    if name == "REWARD_MANA":
        return "Level-up reward: +1 maximum mana (and mana)"
    doc = A.LAYOUT.block(name).doc
    return doc[0].upper() + doc[1:]


def render(s: Any, seat: int | None = None) -> str:
    """The table as text; with a seat, only what that seat may see."""
    lines = []
    status = f"{LEVEL_NAMES[min(s.level, 2)]}, {PHASES[s.phase]}"
    if s.phase == GEAR_UP:
        status += f" round {s.draft_round}"
    if s.phase == OVER:
        status = f"game over; scores {s.scores()}; winners {s.winners()}"
    elif s.current_player != NO:
        status += f"; player_{s.current_player} to {DECISION_WORDS[s.decision]}"
    lines.append(f"Lost Legends, {s.n} players: {status}")
    lines.append(
        f"pile {len(s.piles[min(s.level, 2)])} cards, face-up {card_name(s.faceup)}; "
        f"challenge trophies {dict(zip(MONSTER_TYPE_NAMES, s.challenge))}; "
        f"tokens left {[4 - t for t in s.stack_taken]}"
    )
    for i in range(s.n):
        mon = "-"
        if s.front[i] != NO:
            m = CARDS[s.front[i]]
            mon = f"{m.name} ({s.markers[i]}/{m.life})"
        eq = ", ".join(card_name(c) + ("*" if s.exhausted[i][k] else "") for k, c in enumerate(s.slots[i]) if c != NO)
        skills = "".join(f"{SKILLS[k]}{v}" for k, v in enumerate(s.levels[i]) if v)
        lines.append(
            f"player_{i} {HERO_NAMES[s.heroes[i]]}{' (start)' if i == s.start else ''}"
            f"{' DEFEATED' if s.defeated[i] else ''}: gold {s.gold[i]}, life {s.life[i]}/"
            f"{s.max_life(i)}, mana {s.mana[i]}/{s.max_mana(i)}, xp {s.xp[i]}, legend "
            f"{s.legend[i]}, skills {skills}, trophies {s.trophy_counts(i)}, tokens {s.tokens[i]}; "
            f"monster {mon}; equipment [{eq}]"
        )
        if seat is None or seat == i:
            if s.hands[i] or s.picks[i] != NO:
                hand = ", ".join(card_name(c) for c in s.hands[i])
                lines.append(f"  hand [{hand}], pick {card_name(s.picks[i])}")
        elif s.picks[i] != NO:
            lines.append(f"  revealed pick {card_name(s.picks[i])}" if pick_revealed(s, i) else "  has picked")
    if s.current_player != NO and (seat is None or seat == s.current_player):
        legal = ", ".join(f"{a}: {describe_action(s, a)}" for a in s.legal_actions())
        lines.append(f"legal: {legal}")
    return "\n".join(lines)
