"""A plain, uncached reference of the Lost Legends observation, independent of the game's block encoders.

:func:`documented` writes every block at the offsets of the layout table (docs 5.3), element by
element, from the rules' own queries (``cost``, ``buy_legal_now``, ``attack_damage``...), with no
cache or memo.
"""

from __future__ import annotations

import numpy as np

from envs.lost_legends import combat, draft
from envs.lost_legends.common import COMBAT, FINAL, GEAR_UP, NO, hero_level
from envs.lost_legends.content import CARDS, HEROES, KINDS, SKILLS, TROPHY_STACKS
from envs.lost_legends.observation import CE_SIZE, OBSERVATION_LAYOUT, SEAT, SEAT_SIZE, SLOT_SIZE

OFF = {b.name: b.offset for b in OBSERVATION_LAYOUT.blocks}
EXH_KINDS = ("S-scr", "S-fol", "R-trk", "A-hlm")


def documented(s, seat: int) -> np.ndarray:
    v = np.zeros(OBSERVATION_LAYOUT.size, np.float32)

    def put(i: int, x: float) -> None:
        v[i] = min(1.0, max(0.0, x))

    def monster(at: int, m: int, markers: int) -> None:
        if m != NO:
            card = CARDS[m]
            put(at, 1)
            put(at + 1 + card.level, 1)
            put(at + 4 + card.index, 1)
            put(at + 24, markers / 20)
            put(at + 25, (card.life - markers) / 20)

    def ce(at: int, c: int) -> None:  # level one-hot 3 + index-in-level one-hot 30
        put(at + CARDS[c].level, 1)
        put(at + 3 + CARDS[c].index, 1)

    n = s.n
    lv = min(s.level, 2)
    # Global blocks G1-G10.
    put(OFF["players"] + n - 3, 1)
    put(OFF["level"] + lv, 1)
    if s.phase in (GEAR_UP, COMBAT, FINAL):
        put(OFF["phase"] + s.phase, 1)
    if s.decision != NO:
        put(OFF["decision"] + s.decision, 1)
    if s.phase == GEAR_UP:
        put(OFF["draft_round"] + s.draft_round - 1, 1)
    put(OFF["turns"], s.performed / (s.game.options["combat_turn_cap_per_player"] * n))
    put(OFF["pile"], len(s.piles[lv]) / 15)
    monster(OFF["faceup"], s.faceup, 0)
    for t, h in enumerate(s.challenge):
        put(OFF["challenge"] + 6 * t + (0 if h == NO else 1 + (h - seat) % n), 1)
    for k, (_, _, _, values) in enumerate(TROPHY_STACKS):
        taken = s.stack_taken[k]
        put(OFF["stacks"] + 2 * k, (len(values) - taken) / len(values))
        put(OFF["stacks"] + 2 * k + 1, values[taken] / 10 if taken < len(values) else 0.0)
    # Seat rows P[r].
    for r in range(n):
        i = (seat + r) % n
        b = OFF["seats"] + r * SEAT_SIZE
        put(b + SEAT["present"], 1)
        put(b + SEAT["starting"], i == s.start)
        put(b + SEAT["turn"], i == s.turn_seat)
        put(b + SEAT["selected"], i == s.current_player)
        put(b + SEAT["defeated"], s.defeated[i])
        put(b + SEAT["hero"] + s.heroes[i], 1)
        put(b + SEAT["gold"], s.gold[i] / 30)
        for k, x in enumerate((s.life[i], s.max_life(i), s.mana[i], s.max_mana(i))):
            put(b + SEAT["tracks"] + k, x / 10)
        put(b + SEAT["xp"], s.xp[i] / 40)
        put(b + SEAT["hero_level"] + hero_level(s.xp[i]) - 1, 1)
        put(b + SEAT["legend"], s.legend[i] / 40)
        initial = [HEROES[s.heroes[i]][1].count(sk) for sk in SKILLS]
        trophies = s.trophy_counts(i)
        for k in range(4):
            put(b + SEAT["skills"] + k, s.levels[i][k] / 8)
            put(b + SEAT["added_skills"] + k, (s.levels[i][k] - initial[k]) / 8)
            put(b + SEAT["trophies"] + k, trophies[k] / 8)
            put(b + SEAT["challenge"] + k, s.challenge[k] == i)
        for k in range(6):
            put(b + SEAT["tokens"] + k, s.tokens[i][k] > 0)
        put(b + SEAT["tokens"] + 6, sum(s.tokens[i]) / 40)
        monster(b + SEAT["monster"], s.front[i], s.markers[i])
        for slot, c in enumerate(s.slots[i]):
            if c != NO:
                a = b + SEAT["equipment"] + slot * SLOT_SIZE
                put(a, 1)
                put(a + 1, s.exhausted[i][slot])
                ce(a + 2, c)
        put(b + SEAT["has_picked"], s.picks[i] != NO)
    # The observer's own blocks V1-V10.
    for k, c in enumerate(s.hands[seat]):
        put(OFF["hand"] + k * (1 + CE_SIZE), 1)
        ce(OFF["hand"] + k * (1 + CE_SIZE) + 1, c)
        put(OFF["hand_costs"] + 3 * k, s.cost(seat, c) / 12)
        put(OFF["hand_costs"] + 3 * k + 1, draft.buy_legal_now(s, seat, c))
        put(OFF["hand_costs"] + 3 * k + 2, draft.buy_legal_after_conversions(s, seat, c))
    pick = s.picks[seat]
    if pick != NO:
        put(OFF["pick"], 1)
        ce(OFF["pick"] + 1, pick)
        put(OFF["pick"] + 1 + CE_SIZE, s.cost(seat, pick) / 12)
    mine = s.current_player == seat
    if mine:
        put(OFF["conversions"], s.conversions / 12)
    for c in s.seen[seat]:
        if CARDS[c].level == lv:
            put(OFF["draft_memory"] + CARDS[c].index, 1)
    front = s.front[seat]
    if s.atk is not None and mine and front != NO:
        a = OFF["attack"]
        for slot in s.atk["used"]:
            put(a + 4 + slot, 1)
        for slot, count in enumerate(s.atk["fors"]):
            put(a + 16 + slot, count / 5)
        if s.atk["weapon"] != NO:
            put(a + s.atk["weapon"], 1)
            d = combat.attack_damage(s, seat)
            dealt = combat.dealt(front, d)
            for t in range(4):
                put(a + 28 + t, d[t] / 20)
            put(a + 32, dealt / 20)
            put(a + 33, s.markers[seat] + dealt >= CARDS[front].life)
    if front != NO:
        weapons = [w for w in range(3) if s.slots[seat][w] != NO]
        for w in weapons:
            d = combat.attack_damage(s, seat, {"weapon": w, "used": [], "fors": [0] * 12})
            put(OFF["weapon_options"] + w, combat.dealt(front, d) / 20)
        if not weapons:
            put(OFF["weapon_options"] + 3, combat.dealt(front, [1, 0, 0, 0]) / 20)
    if s.ev is not None and s.ev["seat"] == seat:
        a = OFF["defence"]
        rest = combat.remaining_damage(s, seat, s.ev["inc"], s.ev["used"])
        for t in range(4):
            put(a + t, rest[t] / 10)
        for slot in s.ev["used"]:
            put(a + 4 + slot, 1)
        put(a + 16 + s.ev["source"], 1)
    if mine:
        put(OFF["rewards"], s.pending_rewards / 5)
        for k, kind in enumerate(EXH_KINDS):
            put(OFF["exhaust_kinds"] + k, KINDS.index(kind) in s.exh_kinds)
    return v
