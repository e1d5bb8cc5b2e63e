"""Lost Legends observation: state x seat -> float32[2907] in [0, 1], seat-relative, padded to 5 seats.

Relative seat r = (seat - observer) mod n (r = 0 is the observer, r = 1 the left neighbour...);
rows r >= n are zeros. Only what the observer may know is encoded (docs 5.2): its own hand, pick
and draft memory, and public information. Sub-encodings: CE (equipment identity, 33) = level
one-hot 3 + index-in-level one-hot 30; SLOT (35) = occupied, exhausted, CE; MB (monster, 26) =
present, level one-hot 3, index one-hot 20, damage markers / 20, remaining life / 20. Scalars are
divided by the stated constant and clipped to 1.

The encoder reads the state and the rules' public queries (:mod:`~envs.lost_legends.combat`,
:mod:`~envs.lost_legends.draft`), never the heuristic bot.
"""

from __future__ import annotations

import numpy as np

from envs.core.observation import ObservationLayout
from envs.lost_legends import combat, draft
from envs.lost_legends.common import COMBAT, COST_MEMO, FINAL, GEAR_UP, NO, cost_of, hero_level
from envs.lost_legends.content import (
    CARDS,
    HAND_SIZE,
    HEROES,
    KINDS,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_SLOTS,
    SKILLS,
    TROPHY_STACKS,
    is_monster,
)

CE_SIZE, SLOT_SIZE, MB_SIZE = 33, 35, 26

SEAT_FIELDS = (
    ("present", 1, "seat at the table"),
    ("starting", 1, "is the starting player"),
    ("turn", 1, "is the combat turn player"),
    ("selected", 1, "is the agent to act"),
    ("defeated", 1, "defeated this combat phase"),
    ("hero", 5, "hero one-hot (Barbarian, Warrior, Hunter, Assassin, Sorceress)"),
    ("gold", 1, "gold / 30"),
    ("tracks", 4, "life, max life, mana, max mana, each / 10"),
    ("xp", 1, "experience / 40"),
    ("hero_level", 6, "hero level one-hot 1..6"),
    ("legend", 1, "legend markers / 40"),
    ("skills", 4, "skill levels ME, RA, MA, AR / 8"),
    ("added_skills", 4, "added skill cards per type / 8"),
    ("trophies", 4, "trophies per type A, H, D, U / 8"),
    ("tokens", 7, "token held per stack T1..T6, token points / 40"),
    ("challenge", 4, "challenge trophies held (A, H, D, U)"),
    ("monster", MB_SIZE, "monster in front (MB)"),
    ("equipment", NUM_SLOTS * SLOT_SIZE, "12 slots x SLOT in slot order"),
    ("has_picked", 1, "has a face-down pick this draft round"),
)
SEAT_SIZE = sum(f[1] for f in SEAT_FIELDS)
SEAT = {}
_at = 0
for _name, _size, _doc in SEAT_FIELDS:
    SEAT[_name] = _at
    _at += _size

OBSERVATION_LAYOUT = ObservationLayout(
    [
        ("players", 3, "G1: number of players one-hot (3, 4, 5)"),
        ("level", 3, "G2: level one-hot (Ruins, Caves, Demon Fortress)"),
        ("phase", 3, "G3: phase one-hot (gear-up, combat, final round)"),
        ("decision", 14, "G4: kind of the open decision one-hot (docs 6.2)"),
        ("draft_round", 5, "G5: draft round one-hot"),
        ("turns", 1, "G6: performed combat turns / turn cap"),
        ("pile", 1, "G7: monster pile size / 15"),
        ("faceup", MB_SIZE, "G8: face-up monster (MB)"),
        ("challenge", (4, 6), "G9: per challenge trophy (A, H, D, U): holder one-hot over centre, r = 0..4"),
        ("stacks", (6, 2), "G10: per token stack T1..T6: tokens left / 4, next value / 10"),
        ("seats", (MAX_PLAYERS, SEAT_SIZE), "P: per relative seat, fields below"),
        ("hand", (HAND_SIZE, 1 + CE_SIZE), "V1: own hand, per position: present + CE"),
        (
            "hand_costs",
            (HAND_SIZE, 3),
            "V2: per hand position: my cost / 12, BUY legal now, BUY legal after conversions",
        ),
        ("pick", 1 + CE_SIZE + 1, "V3: own current pick: present + CE + my cost / 12"),
        ("conversions", 1, "V4: conversions made in the current placement / 12"),
        ("draft_memory", 30, "V5: current-level cards seen in my hands this gear-up and not yet revealed"),
        (
            "attack",
            34,
            "V6: my attack: weapon one-hot (mel, rng, mag, unarmed) 4, used per slot 12, FOR activations "
            "per slot / 5 12, damage per type before modifiers / 20 4, projected dealt / 20, projected kill",
        ),
        (
            "weapon_options",
            4,
            "V7: projected damage of each weapon option (mel, rng, mag; unarmed when I own none) vs my monster, "
            "no boosts or mana, / 20",
        ),
        (
            "defence",
            19,
            "V8: my damage event: remaining incoming per type / 10 4, used per slot 12, source one-hot "
            "(my monster, ALL effect, charge) 3",
        ),
        ("rewards", 1, "V9: my pending level-up rewards / 5"),
        ("exhaust_kinds", 4, "V10: kinds my pending charge-exhaust allows: scroll, folio, trinket, helmet"),
    ],
    low=0.0,
    high=1.0,
)
assert OBSERVATION_LAYOUT.size == 2907, OBSERVATION_LAYOUT.size
assert SEAT_SIZE == 493

_OFF = {b.name: b.offset for b in OBSERVATION_LAYOUT.blocks}
_SIZE = OBSERVATION_LAYOUT.size

_ROWS_AT = _OFF["seats"]  # the seat rows P[r] follow the global blocks G1-G10

_EXH_KINDS = (KINDS.index("S-scr"), KINDS.index("S-fol"), KINDS.index("R-trk"), KINDS.index("A-hlm"))

# Per card id: where its CE one-hots go (level, 3 + index in level); monsters: (level, index).
_CE = tuple((c.level, 3 + c.index) for c in CARDS)
_LEVEL_INDEX = tuple((c.level, c.index) for c in CARDS)
_MTYPE = tuple(getattr(c, "type", 0) for c in CARDS)
_INITIAL = tuple(tuple(h[1].count(sk) for sk in SKILLS) for h in HEROES)
_NO_FORS = (0,) * NUM_SLOTS
(
    _STARTING,
    _TURN,
    _SELECTED,
    _DEFEATED,
    _HERO,
    _HERO_LEVEL,
    _HAS_PICKED,
    _TRACKS,
    _GOLD,
    _XP,
    _LEGEND,
    _TOKENS,
    _SKILLS,
    _ADDED,
    _TROPHIES,
    _CHALLENGE,
    _MONSTER,
    _EQUIP,
) = (
    SEAT[k]
    for k in (
        "starting",
        "turn",
        "selected",
        "defeated",
        "hero",
        "hero_level",
        "has_picked",
        "tracks",
        "gold",
        "xp",
        "legend",
        "tokens",
        "skills",
        "added_skills",
        "trophies",
        "challenge",
        "monster",
        "equipment",
    )
)


def _mb(ones: list, idx: list, val: list, at: int, monster_id: int, markers: int) -> None:
    if monster_id < 0:
        return
    m = CARDS[monster_id]
    ones += (at, at + 1 + m.level, at + 4 + m.index)
    idx += (at + 24, at + 25)
    val += (markers / 20, (m.life - markers) / 20)


# G8 and G10 as ready-made slices: the face-up monster (no markers) per card id, and the token stacks
# per tuple of taken counts (a few thousand combinations at most), so a step copies them whole.
_FACEUP_AT, _STACKS_AT = _OFF["faceup"], _OFF["stacks"]
_STACKS_SIZE = 2 * len(TROPHY_STACKS)
_FACEUP_ROWS: dict[int, np.ndarray] = {}
_STACK_ROWS: dict[tuple, np.ndarray] = {}


def _faceup_row(monster_id: int) -> np.ndarray:
    row = _FACEUP_ROWS.get(monster_id)
    if row is None:
        ones: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        _mb(ones, idx, val, 0, monster_id, 0)
        row = np.zeros(MB_SIZE, np.float32)
        row[idx] = np.clip(val, 0.0, 1.0)
        row[ones] = 1.0
        row = _FACEUP_ROWS[monster_id] = row
    return row


def _stacks_row(taken: tuple) -> np.ndarray:
    row = _STACK_ROWS.get(taken)
    if row is None:
        row = np.zeros(_STACKS_SIZE, np.float32)
        for k, (_, _, _, values) in enumerate(TROPHY_STACKS):
            row[2 * k] = (len(values) - taken[k]) / len(values)
            row[2 * k + 1] = values[taken[k]] / 10 if taken[k] < len(values) else 0.0
        row = _STACK_ROWS[taken] = row
    return row


# Per player count n and observer: (absolute seat, start of its row) in relative order, for the per-call fields.
_SEAT_BASES = {n: [tuple((seat + r) % n for r in range(n)) for seat in range(n)] for n in range(3, MAX_PLAYERS + 1)}
_ROW_BASES = tuple(_ROWS_AT + r * SEAT_SIZE for r in range(MAX_PLAYERS))

# A seat row in three parts, each rebuilt only when what it shows changed: the head (the fields before the
# monster), the monster in front (MB) and the equipment (12 x SLOT).
_MONSTER_END = _MONSTER + MB_SIZE
_EQUIP_END = _EQUIP + NUM_SLOTS * SLOT_SIZE
#: a slot's SLOT sub-row per card id (row c) and exhausted card id (row NUM_CARDS + c); the last row
#: (index -1, an empty slot) is zeros, so the 12 slots are one ``take``
_SLOT_TABLE = np.zeros((2 * NUM_CARDS + 1, SLOT_SIZE), np.float32)
for _c in range(NUM_CARDS):
    _level, _index = _CE[_c]
    for _exhausted in (0, 1):
        _SLOT_TABLE[_c + NUM_CARDS * _exhausted, [0, 2 + _level, 2 + _index]] = 1.0
        _SLOT_TABLE[_c + NUM_CARDS * _exhausted, 1] = _exhausted
_MONSTER_ROWS: dict[tuple[int, int], np.ndarray] = {}


def _monster_row(monster_id: int, markers: int) -> np.ndarray:
    """The MB sub-row of a monster with its damage markers (zeros for none), memoised."""
    key = (monster_id, markers)
    row = _MONSTER_ROWS.get(key)
    if row is None:
        ones: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        _mb(ones, idx, val, 0, monster_id, markers)
        row = np.zeros(MB_SIZE, np.float32)
        row[idx] = np.clip(val, 0.0, 1.0)
        row[ones] = 1.0
        if len(_MONSTER_ROWS) > 100_000:
            _MONSTER_ROWS.clear()
        row = _MONSTER_ROWS[key] = row
    return row


#: V7's unarmed projection per monster id (its modifier on 1 melee): a pure function of the content
_UNARMED_DEALT = tuple(combat.dealt(c, [1, 0, 0, 0]) / 20 if is_monster(c) else 0.0 for c in range(NUM_CARDS))
#: V5's position per level and card id: the draft-memory index of a card of that level, else -1
_MEMORY_AT = tuple(
    tuple(_OFF["draft_memory"] + index if level == lv else -1 for level, index in _LEVEL_INDEX) for lv in range(3)
)


# The projected damage of one weapon with no boosts or mana (V7) is a pure function of the content
# tables, memoised under everything it depends on (so an entry is never stale); cleared if it grows large.
_WEAPON_DEALT: dict[tuple, int] = {}


def _weapon_dealt(s, seat: int, w: int, front: int) -> int:
    levels = tuple(s.levels[seat])
    key = (s.slots[seat][w], levels, front)
    dealt = _WEAPON_DEALT.get(key)
    if dealt is None:
        if len(_WEAPON_DEALT) > 200_000:
            _WEAPON_DEALT.clear()
        d = combat.attack_damage(s, seat, {"weapon": w, "used": (), "fors": _NO_FORS})
        dealt = _WEAPON_DEALT[key] = combat.dealt(front, d)
    return dealt


def encode(s, seat: int) -> np.ndarray:
    """The observation of ``seat``.

    Each seat's public row is built once and cached on the state (``_seat_rows``) under a
    signature of everything it shows; the fields that change every few decisions (the flags, gold,
    life and mana) are written per call instead, so a change of the acting seat or a damage event
    does not rebuild rows. Indices set to 1 and (index, value) pairs are collected in lists and
    written with vectorised assignments (element-wise numpy writes are slow)."""
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    n = s.n
    v = np.zeros(_SIZE, np.float32)
    _global_blocks(s, seat, v, ones, idx, val)
    # The cached rows in relative seat order: a rotation of the matrix, so two slice copies.
    rows = _seat_rows(s).reshape(-1)
    cut, end = seat * SEAT_SIZE, n * SEAT_SIZE
    seat_part = v[_ROWS_AT : _ROWS_AT + end]
    seat_part[: end - cut] = rows[cut:]
    seat_part[end - cut :] = rows[:cut]
    start, turn, current = s.start, s.turn_seat, s.current_player
    if start != NO:
        ones.append(_ROWS_AT + (start - seat) % n * SEAT_SIZE + _STARTING)
    if turn != NO:
        ones.append(_ROWS_AT + (turn - seat) % n * SEAT_SIZE + _TURN)
    if current != NO:
        ones.append(_ROWS_AT + (current - seat) % n * SEAT_SIZE + _SELECTED)
    defeated, picks, gold, life, mana = s.defeated, s.picks, s.gold, s.life, s.mana
    for i, b in zip(_SEAT_BASES[n][seat], _ROW_BASES):
        if defeated[i]:
            ones.append(b + _DEFEATED)
        if picks[i] != NO:
            ones.append(b + _HAS_PICKED)
        idx += (b + _GOLD, b + _TRACKS, b + _TRACKS + 2)
        val += (gold[i] / 30, life[i] / 10, mana[i] / 10)
    _private_blocks(s, seat, ones, idx, val)
    # clipped in Python: for a few dozen values cheaper than numpy's clip, and the same float32s
    v.put(idx, [x if 0.0 <= x <= 1.0 else (0.0 if x < 0.0 else 1.0) for x in val])
    v.put(ones, 1.0)
    return v


_PLAYERS_AT, _LEVEL_AT, _PHASE_AT, _DECISION_AT, _DRAFT_AT, _TURNS_AT, _PILE_AT, _CHALLENGE_AT = (
    _OFF[k] for k in ("players", "level", "phase", "decision", "draft_round", "turns", "pile", "challenge")
)
_FACEUP_END, _STACKS_END = _FACEUP_AT + MB_SIZE, _STACKS_AT + _STACKS_SIZE
_PLAYING = (GEAR_UP, COMBAT, FINAL)


def _global_blocks(s, seat: int, v: np.ndarray, ones: list, idx: list, val: list) -> None:
    """G1-G10: the table, the level and the decision being taken, the same for every seat but the challenge holders."""
    n = s.n
    lv = s.level if s.level < 2 else 2
    phase = s.phase
    ones += (_PLAYERS_AT + n - 3, _LEVEL_AT + lv)
    if phase in _PLAYING:
        ones.append(_PHASE_AT + phase)
    if s.decision != NO:
        ones.append(_DECISION_AT + s.decision)
    if phase == GEAR_UP:
        ones.append(_DRAFT_AT + s.draft_round - 1)
    cap = s.game.options["combat_turn_cap_per_player"] * n
    idx += (_TURNS_AT, _PILE_AT)
    val += (s.performed / cap, len(s.piles[lv]) / 15)
    faceup = s.faceup
    if faceup >= 0:
        row = _FACEUP_ROWS.get(faceup)
        v[_FACEUP_AT:_FACEUP_END] = _faceup_row(faceup) if row is None else row
    at = _CHALLENGE_AT
    for h in s.challenge:
        ones.append(at if h == NO else at + 1 + (h - seat) % n)
        at += 6
    taken = tuple(s.stack_taken)
    row = _STACK_ROWS.get(taken)
    v[_STACKS_AT:_STACKS_END] = _stacks_row(taken) if row is None else row


def _seat_rows(s) -> np.ndarray:
    """Every seat's cached row (absolute seat order, one matrix), rebuilding the stale parts: the
    equipment when a slot changed, the monster in front when it or its markers changed, the head when
    anything it shows changed (the maximum tracks read the slots)."""
    cache = s._row_cache
    if cache is None:
        cache = s._row_cache = [[None] * 8 for _ in range(s.n)]
        s._row_matrix = np.zeros((s.n, SEAT_SIZE), np.float32)
    rows = s._row_matrix
    slots, exhausted, front, markers, challenge = s.slots, s.exhausted, s.front, s.markers, s.challenge
    levels, tokens, trophies, heroes, xp, legend = s.levels, s.tokens, s.trophies, s.heroes, s.xp, s.legend
    life_base, mana_base = s.life_base, s.mana_base
    for i in range(s.n):
        # copies of what the row showed when last built, compared piece by piece (C-level, no allocation)
        seen = cache[i]
        equip_changed = seen[0] != slots[i] or seen[1] != exhausted[i]
        if equip_changed:
            seen[0], seen[1] = list(slots[i]), list(exhausted[i])
            keys = [c + NUM_CARDS * x if c != NO else -1 for c, x in zip(slots[i], exhausted[i])]
            np.take(_SLOT_TABLE, keys, axis=0, out=rows[i, _EQUIP:_EQUIP_END].reshape(NUM_SLOTS, SLOT_SIZE))
        monster = (front[i], markers[i])
        if seen[2] != monster:
            seen[2] = monster
            rows[i, _MONSTER:_MONSTER_END] = _monster_row(*monster)
        scalars = (heroes[i], xp[i], life_base[i], mana_base[i], legend[i])
        if (
            equip_changed
            or seen[3] != scalars
            or seen[4] != levels[i]
            or seen[5] != tokens[i]
            or seen[6] != challenge
            or seen[7] != trophies[i]
        ):
            seen[3:] = scalars, list(levels[i]), list(tokens[i]), list(challenge), list(trophies[i])
            _seat_head(s, i, rows[i, :_MONSTER])
    return rows


def _seat_head(s, i: int, out: np.ndarray) -> None:
    """The head of seat ``i``'s public row P (the fields before the monster in front, the same for every
    observer), written into ``out``, without the per-call fields (starting, turn, selected, defeated,
    gold, life, mana: see :func:`encode`)."""
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    ones += (0, _HERO + s.heroes[i], _HERO_LEVEL + hero_level(s.xp[i]) - 1)
    t = _TRACKS
    tokens = s.tokens[i]
    idx += (t + 1, t + 3, _XP, _LEGEND, _TOKENS + 6)
    val += (s.max_life(i) / 10, s.max_mana(i) / 10, s.xp[i] / 40, s.legend[i] / 40, sum(tokens) / 40)
    levels = s.levels[i]
    init = _INITIAL[s.heroes[i]]
    trophies = [0, 0, 0, 0]
    for m in s.trophies[i]:
        trophies[_MTYPE[m]] += 1
    for k in range(4):
        idx += (_SKILLS + k, _ADDED + k, _TROPHIES + k)
        val += (levels[k] / 8, (levels[k] - init[k]) / 8, trophies[k] / 8)
        if s.challenge[k] == i:
            ones.append(_CHALLENGE + k)
        if tokens[k]:
            ones.append(_TOKENS + k)
    if tokens[4]:
        ones.append(_TOKENS + 4)
    if tokens[5]:
        ones.append(_TOKENS + 5)
    out[:] = 0.0
    out.put(idx, [x if 0.0 <= x <= 1.0 else (0.0 if x < 0.0 else 1.0) for x in val])
    out.put(ones, 1.0)


def _private_blocks(s, seat: int, ones: list, idx: list, val: list) -> None:
    """V1-V10: the observer's own hand, pick, draft memory and decision context."""
    hand = s.hands[seat]
    if hand:
        levels = tuple(s.levels[seat])
        after = list(levels)  # the skill levels once every owned equipment card is converted
        for c in s.slots[seat]:
            if c != NO:
                after[CARDS[c].skill] += 1
        after = tuple(after)
        gold = s.gold[seat]
        costs = COST_MEMO.get  # cost_of's memo, read inline: the same numbers without two calls per card
        for k, c in enumerate(hand):
            a = _OFF["hand"] + k * (1 + CE_SIZE)
            level, index = _CE[c]
            ones += (a, a + 1 + level, a + 1 + index)
            a = _OFF["hand_costs"] + 3 * k
            cost = costs((c, levels))
            if cost is None:
                cost = cost_of(c, levels)
            idx.append(a)
            val.append(cost / 12)
            if gold >= cost and draft.target_slot(s, seat, c) != NO:  # = buy_legal_now
                ones.append(a + 1)
            cost = costs((c, after))
            if gold >= (cost_of(c, after) if cost is None else cost):  # = buy_legal_after_conversions
                ones.append(a + 2)
    pick = s.picks[seat]
    if pick != NO:
        a = _OFF["pick"]
        level, index = _CE[pick]
        ones += (a, a + 1 + level, a + 1 + index)
        idx.append(a + 1 + CE_SIZE)
        val.append(cost_of(pick, tuple(s.levels[seat])) / 12)
    mine = s.current_player == seat
    if mine and s.conversions:
        idx.append(_OFF["conversions"])
        val.append(s.conversions / 12)
    memory_at = _MEMORY_AT[min(s.level, 2)]
    for c in s.seen[seat]:
        at = memory_at[c]
        if at >= 0:
            ones.append(at)
    front = s.front[seat]
    if s.atk is not None and mine and front != NO:
        a = _OFF["attack"]
        w = s.atk["weapon"]
        for slot in s.atk["used"]:
            ones.append(a + 4 + slot)
        for slot, count in enumerate(s.atk["fors"]):
            if count:
                idx.append(a + 16 + slot)
                val.append(count / 5)
        if w != NO:
            ones.append(a + w)
            d = combat.attack_damage(s, seat)
            dealt = combat.dealt(front, d)
            idx += (a + 28, a + 29, a + 30, a + 31, a + 32)
            val += (d[0] / 20, d[1] / 20, d[2] / 20, d[3] / 20, dealt / 20)
            if s.markers[seat] + dealt >= CARDS[front].life:
                ones.append(a + 33)
    if front != NO:
        a = _OFF["weapon_options"]
        slots = s.slots[seat]
        for w in range(3):
            if slots[w] != NO:
                idx.append(a + w)
                val.append(_weapon_dealt(s, seat, w, front) / 20)
        if slots[0] == NO and slots[1] == NO and slots[2] == NO:
            idx.append(a + 3)  # unarmed is an option only without weapons
            val.append(_UNARMED_DEALT[front])
    ev = s.ev
    if ev is not None and ev["seat"] == seat:
        a = _OFF["defence"]
        rest = combat.remaining_damage(s, seat, ev["inc"], ev["used"])
        idx += (a, a + 1, a + 2, a + 3)
        val += (rest[0] / 10, rest[1] / 10, rest[2] / 10, rest[3] / 10)
        for slot in ev["used"]:
            ones.append(a + 4 + slot)
        ones.append(a + 16 + ev["source"])
    if mine and s.pending_rewards:
        idx.append(_OFF["rewards"])
        val.append(s.pending_rewards / 5)
    if mine and s.exh_kinds:
        for k, kind in enumerate(_EXH_KINDS):
            if kind in s.exh_kinds:
                ones.append(_OFF["exhaust_kinds"] + k)
