"""Lost Legends observation: state x seat -> float32[2907] in [0, 1], seat-relative, padded to 5 seats.

Relative seat r = (seat - observer) mod n (r = 0 is the observer, r = 1 the left neighbour...);
rows r >= n are zeros. Only what the observer may know is encoded (docs 5.2): its own hand, pick
and draft memory, and public information. Sub-encodings: CE (equipment identity, 33) = level
one-hot 3 + index-in-level one-hot 30; SLOT (35) = occupied, exhausted, CE; MB (monster, 26) =
present, level one-hot 3, index one-hot 20, damage markers / 20, remaining life / 20. Scalars are
divided by the stated constant and clipped to 1.

Every block is a :class:`~envs.core.observation.Block` with the function that writes it, the state
fields it reads and a cheap ``key`` (the few small values it is made of; small blocks that change
together share one key function), and the seat rows P are :class:`~envs.core.observation.Rows` in
five bands (flags, the rest of the head, the monster in front, the equipment, has_picked) under two
keys, the seat's status and its board (the count of edits the rules make to it,
``State.board_edits``): each absolute seat's band is written once under its key and
every observer gathers the rows in its own order, so the acting seat moving rewrites two seats'
flags, not their rows. ``State.observe`` is the core memo (``OBSERVATION_LAYOUT.encode``),
``OBSERVATION_LAYOUT.encode_plain`` the same functions with the memo off. What only the observer
may see (hand, pick, draft memory, its decision context) is in blocks of its own, never in a seat
row.

The encoders read the state and the rules' public queries (:mod:`~envs.lost_legends.combat`,
:mod:`~envs.lost_legends.draft`), never the heuristic bot. The lookup tables below (a face-up
monster's MB, a slot's SLOT, a token stack's values, a weapon's projected damage...) are pure
functions of the content tables, so an entry is never stale.
"""

from __future__ import annotations

import struct

import numpy as np

from envs.core.observation import Band, Block, ObservationLayout, Rows
from envs.lost_legends import combat, draft
from envs.lost_legends.common import COMBAT, COST_MEMO, FINAL, GEAR_UP, LIFE_BONUS, MANA_BONUS, NO, cost_of, hero_level
from envs.lost_legends.content import (
    CARDS,
    HAND_SIZE,
    HEROES,
    KINDS,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_SLOTS,
    SKILLS,
    TRACK_MAX,
    TROPHY_STACKS,
    XP_THRESHOLDS,
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

_EXH_KINDS = (KINDS.index("S-scr"), KINDS.index("S-fol"), KINDS.index("R-trk"), KINDS.index("A-hlm"))
_PLAYING = (GEAR_UP, COMBAT, FINAL)

# Per card id: where its CE one-hots go (level, 3 + index in level); monsters: (level, index).
_CE = tuple((c.level, 3 + c.index) for c in CARDS)
_LEVEL_INDEX = tuple((c.level, c.index) for c in CARDS)
_MTYPE = tuple(getattr(c, "type", 0) for c in CARDS)
_INITIAL = tuple(tuple(h[1].count(sk) for sk in SKILLS) for h in HEROES)
_NO_FORS = (0,) * NUM_SLOTS


def _clip(x: float) -> float:
    return x if 0.0 <= x <= 1.0 else (0.0 if x < 0.0 else 1.0)


def _mb_row(monster_id: int, markers: int) -> np.ndarray:
    """MB of a monster with its damage markers."""
    m = CARDS[monster_id]
    row = np.zeros(MB_SIZE, np.float32)
    row[[0, 1 + m.level, 4 + m.index]] = 1.0
    row[24] = _clip(markers / 20)
    row[25] = _clip((m.life - markers) / 20)
    return row


# -- lookup tables (pure functions of the content) -----------------------------------------------------
#: the face-up monster's MB (no markers) per card id
_FACEUP_ROWS: dict[int, np.ndarray] = {}
#: G10 per tuple of taken counts (a few thousand combinations at most)
_STACK_ROWS: dict[tuple, np.ndarray] = {}
#: a monster in front with its markers: its MB (cleared if it ever grows large)
_MONSTER_ROWS: dict[tuple[int, int], np.ndarray] = {}
#: a slot's SLOT per card id (row c) and exhausted card id (row NUM_CARDS + c); the last row (index -1,
#: an empty slot) is zeros, so the 12 slots are one ``take``
_SLOT_TABLE = np.zeros((2 * NUM_CARDS + 1, SLOT_SIZE), np.float32)
for _c in range(NUM_CARDS):
    for _exhausted in (0, 1):
        _SLOT_TABLE[_c + NUM_CARDS * _exhausted, [0, 2 + _CE[_c][0], 2 + _CE[_c][1]]] = 1.0
        _SLOT_TABLE[_c + NUM_CARDS * _exhausted, 1] = _exhausted
#: a seat's equipment band per (slots, exhausted): its 12 SLOTs (cleared if it ever grows large)
_EQUIPMENT_ROWS: dict[tuple, np.ndarray] = {}
#: V1's row per card id: present + CE
_HAND_TABLE = np.zeros((NUM_CARDS, 1 + CE_SIZE), np.float32)
for _c in range(NUM_CARDS):
    _HAND_TABLE[_c, [0, 1 + _CE[_c][0], 1 + _CE[_c][1]]] = 1.0
#: V7's unarmed projection per monster id (its modifier on 1 melee)
_UNARMED_DEALT = tuple(combat.dealt(c, [1, 0, 0, 0]) / 20 if is_monster(c) else 0.0 for c in range(NUM_CARDS))
#: V5's place per level and card id: the draft-memory index of a card of that level, else -1
_MEMORY_AT = tuple(tuple(index if level == lv else -1 for level, index in _LEVEL_INDEX) for lv in range(3))
#: V7: the projected damage of one weapon with no boosts or mana, under everything it depends on
_WEAPON_DEALT: dict[tuple, int] = {}


def _faceup_row(monster_id: int) -> np.ndarray:
    row = _FACEUP_ROWS.get(monster_id)
    if row is None:
        row = _FACEUP_ROWS[monster_id] = _mb_row(monster_id, 0)
    return row


def _stacks_row(taken: tuple) -> np.ndarray:
    row = _STACK_ROWS.get(taken)
    if row is None:
        row = np.zeros((len(TROPHY_STACKS), 2), np.float32)
        for k, (_, _, _, values) in enumerate(TROPHY_STACKS):
            row[k, 0] = (len(values) - taken[k]) / len(values)
            row[k, 1] = values[taken[k]] / 10 if taken[k] < len(values) else 0.0
        row = _STACK_ROWS[taken] = row
    return row


def _monster_row(monster_id: int, markers: int) -> np.ndarray:
    key = (monster_id, markers)
    row = _MONSTER_ROWS.get(key)
    if row is None:
        if len(_MONSTER_ROWS) > 100_000:
            _MONSTER_ROWS.clear()
        row = _MONSTER_ROWS[key] = _mb_row(monster_id, markers)
    return row


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


# -- G1-G10: the table ---------------------------------------------------------------------------------
def _players(s, seat: int, out: np.ndarray) -> None:
    out[s.n - 3] = 1.0


def _level(s, seat: int, out: np.ndarray) -> None:
    out[s.level if s.level < 2 else 2] = 1.0


def _phase(s, seat: int, out: np.ndarray) -> None:
    if s.phase in _PLAYING:
        out[s.phase] = 1.0


def _decision(s, seat: int, out: np.ndarray) -> None:
    if s.decision != NO:
        out[s.decision] = 1.0


def _draft_round(s, seat: int, out: np.ndarray) -> None:
    if s.phase == GEAR_UP:
        out[s.draft_round - 1] = 1.0


def _turns(s, seat: int, out: np.ndarray) -> None:
    out[0] = _clip(s.performed / (s.game.options["combat_turn_cap_per_player"] * s.n))


def _pile(s, seat: int, out: np.ndarray) -> None:
    out[0] = _clip(len(s.piles[s.level if s.level < 2 else 2]) / 15)


def _faceup(s, seat: int, out: np.ndarray) -> None:
    if s.faceup >= 0:
        out[:] = _faceup_row(s.faceup)


def _challenge(s, seat: int, out: np.ndarray) -> None:
    n = s.n
    for k, h in enumerate(s.challenge):
        out[k, 0 if h == NO else 1 + (h - seat) % n] = 1.0


def _stacks(s, seat: int, out: np.ndarray) -> None:
    out[:] = _stacks_row(tuple(s.stack_taken))


# -- P: the seat rows ----------------------------------------------------------------------------------
_SEAT_READS = (
    "n",
    "start",
    "turn_seat",
    "current_player",
    "defeated",
    "picks",
    "heroes",
    "gold",
    "life",
    "mana",
    "life_base",
    "mana_base",
    "xp",
    "legend",
    "levels",
    "tokens",
    "trophies",
    "challenge",
    "front",
    "markers",
    "slots",
    "exhausted",
)
#: per player count and observer: the absolute seat shown at each relative place (-1: no seat)
_ORDERS = {
    n: tuple(tuple((seat + r) % n if r < n else -1 for r in range(MAX_PLAYERS)) for seat in range(n))
    for n in range(3, MAX_PLAYERS + 1)
}


def _seat_order(s, seat: int) -> tuple[int, ...]:
    return _ORDERS[s.n][seat]


def _seat_count(s) -> int:
    return s.n


# The row in bands: the flags (the acting seat moves every step), the rest of the head, the monster in
# front, the equipment, has_picked. Two keys: the seat's status (flags, monster, pick), which changes
# most steps, and its board (head, equipment); the memo rewrites a key's bands in the rows whose key
# changed.
_FLAGS_END = _HERO
_HEAD_END = _MONSTER
assert (_STARTING, _TURN, _SELECTED, _DEFEATED, _FLAGS_END) == (1, 2, 3, 4, 5)
assert _EQUIP == _MONSTER + MB_SIZE and _HAS_PICKED == _EQUIP + NUM_SLOTS * SLOT_SIZE == SEAT_SIZE - 1

#: per player count: per seat s (and -1, the last entry), whether each seat is s
_IS = {n: tuple(tuple(i == s for i in range(n)) for s in (*range(n), NO)) for n in range(3, MAX_PLAYERS + 1)}


def _status_keys(s) -> list[tuple]:
    """Per seat: starting, turn, selected, defeated, its pick, its monster and markers."""
    is_seat = _IS[s.n]
    return list(
        zip(is_seat[s.start], is_seat[s.turn_seat], is_seat[s.current_player], s.defeated, s.picks, s.front, s.markers)
    )


def _board_keys(s) -> list[int]:
    """Per seat: its board's edit count, which the rules bump whenever a field the head or the
    equipment shows changes (building keys from those fields cost more than the rows they key)."""
    return s.board_edits.copy()


def _flags(s, i: int, out: np.ndarray) -> None:
    """present, starting, turn, selected, defeated."""
    out[0] = 1.0
    if s.start == i:
        out[1] = 1.0
    if s.turn_seat == i:
        out[2] = 1.0
    if s.current_player == i:
        out[3] = 1.0
    if s.defeated[i]:
        out[4] = 1.0


_HEAD = _HEAD_END - _FLAGS_END
_PACK_HEAD = struct.Struct(f"{_HEAD}f").pack  # float32 bytes: the same rounding as numpy's cast
_LIFE_BONUS, _MANA_BONUS = (*LIFE_BONUS, 0), (*MANA_BONUS, 0)  # per card id; index -1 (no card): 0
#: the hero-level one-hot's place in the head per experience (level 6 from the last threshold on)
_XP_TOP = XP_THRESHOLDS[-1]
_LEVEL_AT = tuple(_HERO_LEVEL - _FLAGS_END + hero_level(x) - 1 for x in range(_XP_TOP + 1))
assert (_ADDED, _TROPHIES) == (_SKILLS + 4, _SKILLS + 8)  # skills, added skills, trophies: 12 floats in a row
_G, _T, _X, _L, _SK, _AD, _TR, _TK, _CH = (
    k - _FLAGS_END for k in (_GOLD, _TRACKS, _XP, _LEGEND, _SKILLS, _ADDED, _TROPHIES, _TOKENS, _CHALLENGE)
)


#: k / 8 clipped to 1, for skill levels, added skill cards and trophy counts (never more than the cards)
_EIGHTHS = tuple(min(k / 8, 1.0) for k in range(NUM_CARDS + 8))
#: a track value (0..TRACK_MAX) / 10, clipped to 1
_TENTHS = tuple(min(k / 10, 1.0) for k in range(TRACK_MAX + 1))
#: the cards whose equipment raises maximum life or mana
_BONUS_CARDS = frozenset(c for c in range(NUM_CARDS) if LIFE_BONUS[c] or MANA_BONUS[c])


def _head(s, i: int, out: np.ndarray) -> None:
    """hero ... challenge, assembled as a list of floats and copied once as float32 bytes (numpy
    converts a list element by element at several times the cost); values clipped to [0, 1] inline
    (tracks through _TENTHS; skills, added skills and trophies through _EIGHTHS: counts of cards,
    never negative)."""
    hero, xp, tokens, slots = s.heroes[i], s.xp[i], s.tokens[i], s.slots[i]
    h = [0.0] * _HEAD
    h[hero] = h[_LEVEL_AT[xp if xp < _XP_TOP else _XP_TOP]] = 1.0
    life_bonus = mana_bonus = 0
    if not _BONUS_CARDS.isdisjoint(slots):
        for c in slots:
            if c != NO:
                life_bonus += _LIFE_BONUS[c]
                mana_bonus += _MANA_BONUS[c]
    # gold, experience and legend markers are never negative, the tracks run 0..TRACK_MAX
    x = s.gold[i]
    h[_G] = x / 30 if x < 30 else 1.0
    tenths = _TENTHS
    h[_T] = tenths[s.life[i]]
    h[_T + 1] = tenths[min(TRACK_MAX, s.life_base[i] + life_bonus)]
    h[_T + 2] = tenths[s.mana[i]]
    h[_T + 3] = tenths[min(TRACK_MAX, s.mana_base[i] + mana_bonus)]
    h[_X] = xp / 40 if xp < 40 else 1.0
    x = s.legend[i]
    h[_L] = x / 40 if x < 40 else 1.0
    l0, l1, l2, l3 = s.levels[i]
    i0, i1, i2, i3 = _INITIAL[hero]
    t = [0, 0, 0, 0]
    for m in s.trophies[i]:
        t[_MTYPE[m]] += 1
    e = _EIGHTHS
    h[_SK : _SK + 12] = (
        e[l0], e[l1], e[l2], e[l3], e[l0 - i0], e[l1 - i1], e[l2 - i2], e[l3 - i3], e[t[0]], e[t[1]], e[t[2]], e[t[3]]
    )  # fmt: skip
    if any(tokens):
        x = sum(tokens) / 40
        h[_TK + 6] = x if 0.0 <= x <= 1.0 else (0.0 if x < 0.0 else 1.0)
        for k, held in enumerate(tokens):
            if held:
                h[_TK + k] = 1.0
    challenge = s.challenge
    if i in challenge:
        for k in range(4):
            if challenge[k] == i:
                h[_CH + k] = 1.0
    out.data.cast("B")[:] = _PACK_HEAD(*h)


def _monster(s, i: int, out: np.ndarray) -> None:
    front = s.front[i]
    if front != NO:  # the table read inline: this band is rewritten whenever the seat's status moves
        row = _MONSTER_ROWS.get((front, s.markers[i]))
        out[:] = row if row is not None else _monster_row(front, s.markers[i])


def _equipment(s, i: int, out: np.ndarray) -> None:
    # the band is rewritten whenever the seat's board key changes, mostly with the same equipment
    key = (*s.slots[i], *s.exhausted[i])
    row = _EQUIPMENT_ROWS.get(key)
    if row is None:
        if len(_EQUIPMENT_ROWS) > 100_000:
            _EQUIPMENT_ROWS.clear()
        keys = [c + NUM_CARDS * x if c != NO else -1 for c, x in zip(s.slots[i], s.exhausted[i])]
        row = _EQUIPMENT_ROWS[key] = _SLOT_TABLE.take(keys, 0, mode="wrap").reshape(-1)  # -1: the last row, zeros
    out[:] = row


def _picked(s, i: int, out: np.ndarray) -> None:
    if s.picks[i] != NO:
        out[0] = 1.0


_SEAT_BANDS = (
    Band((0, _FLAGS_END), _flags, _status_keys),
    Band((_FLAGS_END, _HEAD_END), _head, _board_keys),
    Band((_MONSTER, _EQUIP), _monster, _status_keys),
    Band((_EQUIP, _HAS_PICKED), _equipment, _board_keys),
    Band((_HAS_PICKED, SEAT_SIZE), _picked, _status_keys),
)


# -- V1-V10: what only the observer sees ----------------------------------------------------------------
def _hand(s, seat: int, out: np.ndarray) -> None:
    hand = s.hands[seat]
    if hand:
        _HAND_TABLE.take(hand, 0, out[: len(hand)], "clip")


def _hand_key(s, seat: int) -> tuple | None:  # V1, V2, V3: they change together (a pick leaves the hand)
    hand, pick = s.hands[seat], s.picks[seat]
    if not hand and pick == NO:
        return None  # all three empty (combat)
    return (pick, s.gold[seat], *s.levels[seat], *s.slots[seat], *hand)


def _hand_costs(s, seat: int, out: np.ndarray) -> None:
    hand = s.hands[seat]
    if not hand:
        return
    levels = tuple(s.levels[seat])
    after = list(levels)  # the skill levels once every owned equipment card is converted
    for c in s.slots[seat]:
        if c != NO:
            after[CARDS[c].skill] += 1
    after = tuple(after)
    gold = s.gold[seat]
    costs = COST_MEMO.get  # cost_of's memo, read inline: the same numbers without two calls per card
    for k, c in enumerate(hand):  # a float at a time: cheaper than numpy's put of lists this short
        cost = costs((c, levels))
        if cost is None:
            cost = cost_of(c, levels)
        x = cost / 12  # costs are never negative
        out[k, 0] = x if x <= 1.0 else 1.0
        if gold >= cost and draft.target_slot(s, seat, c) != NO:  # = buy_legal_now
            out[k, 1] = 1.0
        cost = costs((c, after))
        if gold >= (cost_of(c, after) if cost is None else cost):  # = buy_legal_after_conversions
            out[k, 2] = 1.0


def _pick(s, seat: int, out: np.ndarray) -> None:
    pick = s.picks[seat]
    if pick != NO:
        level, index = _CE[pick]
        out[0] = 1.0
        out[1 + level] = 1.0
        out[1 + index] = 1.0
        out[1 + CE_SIZE] = _clip(cost_of(pick, s.levels[seat]) / 12)


def _conversions(s, seat: int, out: np.ndarray) -> None:
    if s.current_player == seat and s.conversions:
        out[0] = _clip(s.conversions / 12)


def _memory_key(s, seat: int) -> tuple:
    return (s.level, *s.seen[seat])


def _draft_memory(s, seat: int, out: np.ndarray) -> None:
    memory_at = _MEMORY_AT[s.level if s.level < 2 else 2]
    for c in s.seen[seat]:  # a float at a time: cheaper than numpy's put of a list this short
        at = memory_at[c]
        if at >= 0:
            out[at] = 1.0


def _attack_key(s, seat: int) -> tuple | None:
    atk = s.atk
    if atk is None or s.current_player != seat or s.front[seat] == NO:
        return None
    used = atk["used"]
    return (
        atk["weapon"],
        s.front[seat],
        s.markers[seat],
        len(used),
        *used,
        *atk["fors"],
        *s.levels[seat],
        *s.slots[seat],
    )


def _attack(s, seat: int, out: np.ndarray) -> None:
    atk, front = s.atk, s.front[seat]
    if atk is None or s.current_player != seat or front == NO:
        return
    w = atk["weapon"]
    for slot in atk["used"]:
        out[4 + slot] = 1.0
    for slot, count in enumerate(atk["fors"]):
        if count:
            out[16 + slot] = _clip(count / 5)
    if w != NO:
        out[w] = 1.0
        d = combat.attack_damage(s, seat)
        dealt = combat.dealt(front, d)
        out[28:33] = [_clip(d[0] / 20), _clip(d[1] / 20), _clip(d[2] / 20), _clip(d[3] / 20), _clip(dealt / 20)]
        if s.markers[seat] + dealt >= CARDS[front].life:
            out[33] = 1.0


def _weapons_key(s, seat: int) -> tuple | None:
    front = s.front[seat]
    if front == NO:
        return None
    slots = s.slots[seat]
    return (front, slots[0], slots[1], slots[2], *s.levels[seat])


def _weapon_options(s, seat: int, out: np.ndarray) -> None:
    front = s.front[seat]
    if front == NO:
        return
    slots = s.slots[seat]
    for w in range(3):
        if slots[w] != NO:
            out[w] = _clip(_weapon_dealt(s, seat, w, front) / 20)
    if slots[0] == NO and slots[1] == NO and slots[2] == NO:
        out[3] = _clip(_UNARMED_DEALT[front])  # unarmed is an option only without weapons


def _defence_key(s, seat: int) -> tuple | None:
    ev = s.ev
    if ev is None or ev["seat"] != seat:
        return None
    used = ev["used"]
    return (ev["source"], len(used), *used, *ev["inc"], *s.levels[seat], *s.slots[seat])


def _defence(s, seat: int, out: np.ndarray) -> None:
    ev = s.ev
    if ev is None or ev["seat"] != seat:
        return
    rest = combat.remaining_damage(s, seat, ev["inc"], ev["used"])
    out[:4] = [_clip(rest[0] / 10), _clip(rest[1] / 10), _clip(rest[2] / 10), _clip(rest[3] / 10)]
    for slot in ev["used"]:
        out[4 + slot] = 1.0
    out[16 + ev["source"]] = 1.0


def _rewards(s, seat: int, out: np.ndarray) -> None:
    if s.current_player == seat and s.pending_rewards:
        out[0] = _clip(s.pending_rewards / 5)


def _exhaust_kinds(s, seat: int, out: np.ndarray) -> None:
    if s.current_player == seat and s.exh_kinds:
        for k, kind in enumerate(_EXH_KINDS):
            if kind in s.exh_kinds:
                out[k] = 1.0


# -- keys -------------------------------------------------------------------------------------------
# Small blocks that change together share one key function: the memo checks it with one call and
# rewrites the blocks of a key together (a key check costs about as much as writing a few floats).
def _level_key(s, seat: int) -> tuple:  # G1, G2, G3, G5 (the player count is fixed for a state)
    return (s.level, s.phase, s.draft_round)


def _combat_table_key(s, seat: int) -> tuple:  # G6, G7, G8
    return (s.performed, len(s.piles[s.level if s.level < 2 else 2]), s.faceup)


def _trophies_key(s, seat: int) -> tuple:  # G9, G10
    return (*s.challenge, *s.stack_taken)


def _context_key(s, seat: int) -> tuple | None:  # V4, V9, V10: only while the observer decides
    if s.current_player != seat:
        return None
    return (s.conversions, s.pending_rewards, *s.exh_kinds)


# The table blocks G1-G10 are the same for every observer but G9 (relative holders); each is a few floats
# that the memo writes into each observer's vector on its key (declaring them shared would add a copy).
OBSERVATION_LAYOUT = ObservationLayout(
    [
        Block("players", 3, "G1: number of players one-hot (3, 4, 5)", _players, ("n",), key=_level_key),
        Block(
            "level",
            3,
            "G2: level one-hot (Ruins, Caves, Demon Fortress)",
            _level,
            ("level",),
            key=_level_key,
        ),
        Block(
            "phase",
            3,
            "G3: phase one-hot (gear-up, combat, final round)",
            _phase,
            ("phase",),
            key=_level_key,
        ),
        Block(
            "decision",
            14,
            "G4: kind of the open decision one-hot (docs 6.2)",
            _decision,
            ("decision",),
            key=lambda s, seat: s.decision,
        ),
        Block(
            "draft_round",
            5,
            "G5: draft round one-hot",
            _draft_round,
            ("phase", "draft_round"),
            key=_level_key,
        ),
        Block(
            "turns",
            1,
            "G6: performed combat turns / turn cap",
            _turns,
            ("performed", "n"),
            key=_combat_table_key,
        ),
        Block("pile", 1, "G7: monster pile size / 15", _pile, ("level", "piles"), key=_combat_table_key),
        Block("faceup", MB_SIZE, "G8: face-up monster (MB)", _faceup, ("faceup",), key=_combat_table_key),
        Block(
            "challenge",
            (4, 6),
            "G9: per challenge trophy (A, H, D, U): holder one-hot over centre, r = 0..4",
            _challenge,
            ("challenge", "n"),
            key=_trophies_key,
        ),
        Block(
            "stacks",
            (6, 2),
            "G10: per token stack T1..T6: tokens left / 4, next value / 10",
            _stacks,
            ("stack_taken",),
            key=_trophies_key,
        ),
        Rows(
            "seats",
            (MAX_PLAYERS, SEAT_SIZE),
            "P: per relative seat, fields below",
            encode_row=None,
            key_row=None,
            order=_seat_order,
            count=_seat_count,
            reads=_SEAT_READS,
            bands=_SEAT_BANDS,
        ),
        Block(
            "hand",
            (HAND_SIZE, 1 + CE_SIZE),
            "V1: own hand, per position: present + CE",
            _hand,
            ("hands",),
            key=_hand_key,
        ),
        Block(
            "hand_costs",
            (HAND_SIZE, 3),
            "V2: per hand position: my cost / 12, BUY legal now, BUY legal after conversions",
            _hand_costs,
            ("hands", "levels", "slots", "gold"),
            key=_hand_key,
        ),
        Block(
            "pick",
            1 + CE_SIZE + 1,
            "V3: own current pick: present + CE + my cost / 12",
            _pick,
            ("picks", "levels"),
            key=_hand_key,
        ),
        Block(
            "conversions",
            1,
            "V4: conversions made in the current placement / 12",
            _conversions,
            ("current_player", "conversions"),
            key=_context_key,
        ),
        Block(
            "draft_memory",
            30,
            "V5: current-level cards seen in my hands this gear-up and not yet revealed",
            _draft_memory,
            ("level", "seen"),
            key=_memory_key,
        ),
        Block(
            "attack",
            34,
            "V6: my attack: weapon one-hot (mel, rng, mag, unarmed) 4, used per slot 12, FOR activations "
            "per slot / 5 12, damage per type before modifiers / 20 4, projected dealt / 20, projected kill",
            _attack,
            ("atk", "current_player", "front", "markers", "levels", "slots"),
            key=_attack_key,
        ),
        Block(
            "weapon_options",
            4,
            "V7: projected damage of each weapon option (mel, rng, mag; unarmed when I own none) vs my monster, "
            "no boosts or mana, / 20",
            _weapon_options,
            ("front", "slots", "levels"),
            key=_weapons_key,
        ),
        Block(
            "defence",
            19,
            "V8: my damage event: remaining incoming per type / 10 4, used per slot 12, source one-hot "
            "(my monster, ALL effect, charge) 3",
            _defence,
            ("ev", "levels", "slots"),
            key=_defence_key,
        ),
        Block(
            "rewards",
            1,
            "V9: my pending level-up rewards / 5",
            _rewards,
            ("current_player", "pending_rewards"),
            key=_context_key,
        ),
        Block(
            "exhaust_kinds",
            4,
            "V10: kinds my pending charge-exhaust allows: scroll, folio, trinket, helmet",
            _exhaust_kinds,
            ("current_player", "exh_kinds"),
            key=_context_key,
        ),
    ],
    low=0.0,
    high=1.0,
)
assert OBSERVATION_LAYOUT.size == 2907, OBSERVATION_LAYOUT.size
assert SEAT_SIZE == 493
