"""The Heroes and Monsters observation: 1924 floats in [0, 1], seat-relative, padded to 4 seats.

Only what the observing seat may know (docs 5.2): its own hand, the active player's hand (played
face up during its own turn), public zones, counts and compositions, never a deck order or
another waiting player's hand.

The layout is declared in blocks (envs.core.observation), each with the function that writes it,
the state fields it reads and a key: ``state.observe`` is ``OBSERVATION_LAYOUT.encode``, the core
memo, which rewrites a block only when its key changed; ``OBSERVATION_LAYOUT.encode_plain`` runs the
same functions from scratch, the definition. A key is the few state values the block is made of
(copies of the lists, never the lists themselves; a shallow copy of a hand where the block ignores
the used flags, since an entry's card never changes in place). The blocks that are the same for
every observer (Area to active turn, Pending) are shared, written once for all observers; each
player's row of the Players block is the same for every observer, only in another place, so it is a
:class:`~envs.core.observation.Rows` row, written once per change of that player; Global (relative
seats), Own hand and Own private are each observer's own.

Every count is scaled, then clipped to 1. A composition (card id -> count / scale) is the float32
value of ``count`` repeated additions of ``1 / scale`` (what a per-card ``+=`` gives), read from a
table. Speed: a block is built as a Python list of floats and written at once with
``struct.pack_into`` (a C float cast, the bits numpy's item assignment gives), or assembled from
precomputed float32 bytes (a card one-hot, a hand slot, an Invader's column), rather than item by
item into numpy, which costs several times more per value.
"""

from __future__ import annotations

import marshal
import struct
from collections import _count_elements  # Counter's counting loop, in C
from operator import itemgetter

import numpy as np

from envs.core.observation import Block, ObservationLayout, Rows
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.content import ADVERSARIES, CARDS, GENERALS, INVADERS, PLANS

CARD_ONEHOT = C.NUM_CARDS + 1  # 37: 0 empty, 1 + card id
INVADER_ONEHOT = C.NUM_INVADER_TYPES + 1  # 18
NUM_PHASES = 8

GLOBAL_FIELDS = (
    ("players", 4, "player count one-hot"),
    ("adversary", 3, "Adversary one-hot"),
    ("round", 1, "round / 20"),
    (
        "phase",
        NUM_PHASES,
        "phase one-hot: RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_DISCARD, CHOOSE_TRASH, CHOOSE_OVERFLOW, PAY_ANY",
    ),
    ("actor", 4, "relative seat of the actor"),
    ("active", 4, "relative seat of the active player"),
    ("first", 4, "relative seat of the first player"),
    ("turns_left", 1, "turns left before the Invasion / 4"),
    ("piles", 6, "Fortress deck /54, Rubble /60, Exile /20, Invasion deck /24, Invasion discard /24, ward /6"),
    ("threat", 3, "Threat level one-hot"),
    ("randall", 2, "defeated / V and V / 20 (0 for Plan Adversaries)"),
    ("plan", 13, "active Plan one-hot 7 + none; progress/required; required/10; countdown/3; thwarted/3; remaining/3"),
    ("defeated", 1, "Invaders defeated / 30"),
)
BATTLEFIELD_FIELDS = (
    ("invader", INVADER_ONEHOT, "Invader one-hot (0 empty)"),
    ("race", 3, "race one-hot (Human, Elf, Dwarf)"),
    ("markers", 1, "markers / 3"),
    ("levels", 1, "health levels / 3"),
    ("next_cost", 1, "next level cost / 8"),
    ("remaining", 1, "remaining health / 18"),
    ("fortress_damage", 1, "current Fortress damage / 8"),
    ("attacked", 1, "attacked this turn"),
    ("hittable", 1, "D >= next level cost"),
    ("killable", 1, "D >= remaining health"),
)
PLAYER_FIELDS = (
    ("present", 1, "seat is at the table"),
    ("general", C.NUM_GENERALS, "General one-hot"),
    ("is_active", 1, "is the active player"),
    ("table", 3 * (CARD_ONEHOT + 1), "3 Constructions x (card one-hot 37 + used flag)"),
    ("discard", C.NUM_CARDS, "discard pile composition / 6"),
    ("deck_hand", C.NUM_CARDS, "deck + hand composition / 6"),
    ("sizes", 3, "deck / 30, hand / 12, discard / 30"),
)
PLAYER_SIZE = sum(f[1] for f in PLAYER_FIELDS)
BF_SIZE = sum(f[1] for f in BATTLEFIELD_FIELDS)

ROW = CARD_ONEHOT + 1  # a hand slot or a table slot: card one-hot + used flag
_TABLE_AT = 8  # offsets inside a player row
_DISCARD_AT = _TABLE_AT + C.TABLE_CAP * ROW
assert _DISCARD_AT + 2 * C.NUM_CARDS + 3 == PLAYER_SIZE
_RUBBLE_TOP = len(C.FORTRESS_CARDS)  # the top card one-hot inside the Rubble block


# -- how the blocks are written --------------------------------------------------------------------
def _repeated_sums(scale: float, size: int = 256) -> list[float]:
    """``table[k]``: the float32 value ``k`` successive ``x += 1 / scale`` from 0 give, clipped to 1
    (exact as Python floats)."""
    x = np.zeros(1, np.float32)
    out = [0.0]
    for _ in range(1, size):
        x[0] += 1.0 / scale
        out.append(min(float(x[0]), 1.0))
    return out


_SUM2, _SUM4, _SUM6 = (_repeated_sums(scale) for scale in (2.0, 4.0, 6.0))


def _count(v: list, at: int, table: list[float], cards) -> None:
    """``v[at + c] = table[copies of c in cards]`` for the cards present (``v`` holds zeros there)."""
    counts: dict[int, int] = {}
    _count_elements(counts, cards)
    for c, k in counts.items():
        v[at + c] = table[k]


_card_of = itemgetter(0)  # a hand or table entry [card id, used] -> card id


def _packer(size: int):
    """``pack(out, offset_bytes, *values)``: ``size`` Python numbers written into a float32 ``out``."""
    return struct.Struct(f"{size}f").pack_into


def _writer(size: int):
    """``write(out, offset_bytes, data)``: ``data``, the float32 bytes of ``size`` floats, copied into ``out``."""
    return struct.Struct(f"{4 * size}s").pack_into


def _f32(values) -> bytes:
    """The float32 bytes of ``values`` (for the pieces computed once)."""
    return np.asarray(values, np.float32).tobytes()


def _one_hot(size: int, i: int) -> list[float]:
    v = [0.0] * size
    v[i] = 1.0
    return v


_ZERO, _ONE = _f32([0.0]), _f32([1.0])
#: a card one-hot (0 empty, 1 + card id); a hand or table slot, card one-hot + used flag: [1 + id][used]
_CARD = [_f32(_one_hot(CARD_ONEHOT, i)) for i in range(CARD_ONEHOT)]
_SLOT = [[_f32(_one_hot(CARD_ONEHOT, i) + [float(u)]) for u in (False, True)] for i in range(CARD_ONEHOT)]
_EMPTY_SLOT = _SLOT[0][False]


# -- the blocks, in layout order: each one's encoder and its key ----------------------------------
# Scaled values are clipped to 1 as they are written: ``x if x < 1.0 else 1.0``.
_PACK_GLOBAL = _packer(54)


def _global(s, seat: int, out: np.ndarray) -> None:
    n = s.n
    v = [0.0] * 54
    v[n - 1] = v[4 + s.adversary] = v[8 + s.phase] = v[35 + s.threat() - 1] = 1.0
    if s.current_player >= 0:
        v[16 + (s.current_player - seat) % n] = 1.0
    v[20 + (s.active - seat) % n] = v[24 + (s.first - seat) % n] = 1.0
    x = s.round / 20.0
    v[7] = x if x < 1.0 else 1.0
    x = (n - s.turns_done) / 4.0
    v[28] = x if x < 1.0 else 1.0
    x = len(s.fortress) / 54
    v[29] = x if x < 1.0 else 1.0
    x = len(s.rubble) / 60
    v[30] = x if x < 1.0 else 1.0
    x = len(s.exile) / 20
    v[31] = x if x < 1.0 else 1.0
    x = len(s.inv_deck) / 24
    v[32] = x if x < 1.0 else 1.0
    x = len(s.inv_discard) / 24
    v[33] = x if x < 1.0 else 1.0
    x = s.ward / 6
    v[34] = x if x < 1.0 else 1.0
    adv = ADVERSARIES[s.adversary]
    if adv.plans:
        x = s.thwarted / 3.0
        v[51] = x if x < 1.0 else 1.0
        x = max(0, adv.plans_in_play - s.thwarted) / 3.0
        v[52] = x if x < 1.0 else 1.0
    else:
        target = s.game.victory_target
        x = s.defeated / target
        v[38] = x if x < 1.0 else 1.0
        x = target / 20.0
        v[39] = x if x < 1.0 else 1.0
    if s.plan >= 0:
        req = s.plan_required()
        v[40 + s.plan] = 1.0
        x = s.plan_progress / req
        v[48] = x if x < 1.0 else 1.0
        x = req / 10.0
        v[49] = x if x < 1.0 else 1.0
        x = s.plan_countdown / 3.0
        v[50] = x if x < 1.0 else 1.0
    else:
        v[47] = 1.0
    x = s.defeated / 30.0
    v[53] = x if x < 1.0 else 1.0
    _PACK_GLOBAL(out, 0, *v)


def _global_key(s, seat: int):
    return (
        s.phase,
        s.current_player,
        s.active,
        s.first,
        s.turns_done,
        s.round,
        len(s.fortress),
        len(s.rubble),
        len(s.exile),
        len(s.inv_deck),
        len(s.inv_discard),
        s.ward,
        s.defeated,
        s.plan,
        s.plan_progress,
        s.plan_countdown,
        s.thwarted,
        s.adversary,
    )


_WRITE_AREA = _writer(C.NUM_SLOTS * CARD_ONEHOT + C.NUM_SLOTS)
_COST = [card.cost for card in CARDS]  # (R, C, S)


def _area(s, seat: int, out: np.ndarray) -> None:
    # the active player's pool counts the resource cards of its hand: public only while the hand is
    # face up (its turn); once the game has ended after its discard and draw, the new hand is private
    pr, pc, ps = s.pool(s.active) if s.hand_up else (0, 0, 0)
    area = s.area
    parts = [_CARD[c + 1] for c in area]
    for c in area:  # affordable by the active player now
        if c >= 0:
            cr, cc, cs = _COST[c]
            parts.append(_ONE if pr >= cr and pc >= cc and ps >= cs else _ZERO)
        else:
            parts.append(_ZERO)
    _WRITE_AREA(out, 0, b"".join(parts))


def _area_key(s, seat: int):
    # what the pool is made of: the hand's cards (a shallow copy: an entry's card never changes in
    # place, only its used flag, which the pool ignores)
    return s.area[:], s.hand_up, s.active, s.res[:], s.players[s.active].hand[:]


_PACK_RUBBLE = _packer(len(C.FORTRESS_CARDS) + CARD_ONEHOT)


def _rubble(s, seat: int, out: np.ndarray) -> None:
    v = [0.0] * (len(C.FORTRESS_CARDS) + CARD_ONEHOT)
    if s.rubble:
        _count(v, -C.FIRST_FORTRESS_CARD, _SUM4, s.rubble)  # the Rubble holds Fortress cards only
        v[_RUBBLE_TOP + s.rubble[-1] + 1] = 1.0
    else:
        v[_RUBBLE_TOP] = 1.0
    _PACK_RUBBLE(out, 0, *v)


def _rubble_key(s, seat: int):
    return s.rubble[:]


def _columns(game) -> list[list[tuple]]:
    """Invader id -> marker count m -> (next level cost, remaining health, the float32 bytes of the
    column's first 25 floats: Invader one-hot, race one-hot, m / 3, levels / 3, next / 8, remaining
    / 18), at the game's toughness (which sets every Invader's levels)."""
    columns = _COLUMNS.get(game.toughness)
    if columns is None:
        columns = _COLUMNS[game.toughness] = []
        for iid, levels in enumerate(game.invader_levels):
            per_marker = []
            for m in range(len(levels) + 1):
                nxt = levels[m] if m < len(levels) else 0
                rem = sum(levels[m:])
                head = _one_hot(INVADER_ONEHOT, iid + 1) + _one_hot(3, INVADERS[iid].race)
                head += [min(x, 1.0) for x in (m / 3, len(levels) / 3, nxt / 8, rem / 18)]
                per_marker.append((nxt, rem, _f32(head)))
            columns.append(per_marker)
    return columns


_COLUMNS: dict[int, list[list[tuple]]] = {}  # by toughness
_EMPTY_COLUMN = _f32(_one_hot(BF_SIZE, 0))
_COLUMN_TAIL = struct.Struct("4f").pack  # Fortress damage / 8, attacked, hittable, killable
_WRITE_BATTLEFIELD = _writer(C.NUM_COLUMNS * BF_SIZE)


def _battlefield(s, seat: int, out: np.ndarray) -> None:
    columns = _COLUMNS.get(s.game.toughness) or _columns(s.game)
    damages = s.fortress_damages()
    d = s.dmg
    parts = []
    for col, iid in enumerate(s.field):
        if iid < 0:
            parts.append(_EMPTY_COLUMN)
            continue
        nxt, rem, head = columns[iid][s.markers[col]]
        x = damages[col] / 8.0
        parts += (head, _COLUMN_TAIL(x if x < 1.0 else 1.0, s.attacked[col], d >= nxt, d >= rem))
    _WRITE_BATTLEFIELD(out, 0, b"".join(parts))


def _battlefield_key(s, seat: int):
    return s.field[:], s.markers[:], s.attacked[:], s.threat(), s.plan, s.adversary, s.dmg


_PACK_INVASION = _packer(C.NUM_INVADER_TYPES)


def _invasion_discard(s, seat: int, out: np.ndarray) -> None:
    v = [0.0] * C.NUM_INVADER_TYPES
    _count(v, 0, _SUM2, s.inv_discard)
    _PACK_INVASION(out, 0, *v)


def _invasion_discard_key(s, seat: int):
    return s.inv_discard[:]


_PACK_ACTIVE = _packer(3 + 1 + 3 + C.NUM_CARDS)


def _active_turn(s, seat: int, out: np.ndarray) -> None:
    v = [0.0] * (3 + 1 + 3 + C.NUM_CARDS)
    if s.hand_up:  # the pool and hand composition, public while the hand is face up (see _area)
        for i, x in enumerate(s.pool(s.active)):
            if x > 0:
                v[i] = x / 10.0 if x < 10 else 1.0
        _count(v, 7, _SUM4, map(_card_of, s.players[s.active].hand))
    x = s.dmg / 20.0
    v[3] = x if x < 1.0 else 1.0
    b0, b1, b2 = s.bonus
    x = b0 / 5.0
    v[4] = x if x < 1.0 else 1.0
    x = b1 / 5.0
    v[5] = x if x < 1.0 else 1.0
    x = b2 / 5.0
    v[6] = x if x < 1.0 else 1.0
    _PACK_ACTIVE(out, 0, *v)


def _active_turn_key(s, seat: int):
    if not s.hand_up:
        return s.dmg, s.bonus[:]
    # a shallow copy of the hand: an entry's card never changes in place (only its used flag, which
    # neither the pool nor the composition shows)
    return s.dmg, s.bonus[:], s.active, s.res[:], s.players[s.active].hand[:]


_WRITE_HAND = _writer(C.HAND_CAP * ROW)


def _own_hand(s, seat: int, out: np.ndarray) -> None:
    hand = s.players[seat].hand[: C.HAND_CAP]
    parts = [_SLOT[c + 1][u] for c, u in hand]
    parts += [_EMPTY_SLOT] * (C.HAND_CAP - len(hand))
    _WRITE_HAND(out, 0, b"".join(parts))


def _own_hand_key(s, seat: int):
    return marshal.dumps(s.players[seat].hand, 2)  # with the used flags


_PACK_PRIVATE = _packer(1 + C.NUM_CARDS)


def _own_private(s, seat: int, out: np.ndarray) -> None:
    me = s.players[seat]
    v = [0.0] * (1 + C.NUM_CARDS)
    v[0] = me.gen_used
    _count(v, 1, _SUM6, me.deck)
    _PACK_PRIVATE(out, 0, *v)


def _own_private_key(s, seat: int):
    me = s.players[seat]
    return me.gen_used, me.deck[:]


#: a player row's first 8 floats, present, General one-hot, is active: [General][is active]
_ROW_HEAD = [
    [_f32([1.0] + _one_hot(C.NUM_GENERALS, g) + [float(a)]) for a in (False, True)] for g in range(C.NUM_GENERALS)
]
_PILES = struct.Struct(f"{PLAYER_SIZE - _DISCARD_AT}f").pack  # discard, deck + hand compositions, sizes
_WRITE_ROW = _writer(PLAYER_SIZE)


def _player_row(s, r: int, out: np.ndarray) -> None:
    p = s.players[r]
    table = p.table[: C.TABLE_CAP]
    parts = [_ROW_HEAD[p.general][r == s.active]]
    parts += [_SLOT[c + 1][u] for c, u in table]
    parts += [_EMPTY_SLOT] * (C.TABLE_CAP - len(table))
    v = [0.0] * (PLAYER_SIZE - _DISCARD_AT)
    _count(v, 0, _SUM6, p.discard)
    counts: dict[int, int] = {}
    _count_elements(counts, p.deck)
    _count_elements(counts, map(_card_of, p.hand))
    for c, k in counts.items():
        v[C.NUM_CARDS + c] = _SUM6[k]
    x = len(p.deck) / 30.0
    v[-3] = x if x < 1.0 else 1.0
    x = len(p.hand) / 12.0
    v[-2] = x if x < 1.0 else 1.0
    x = len(p.discard) / 30.0
    v[-1] = x if x < 1.0 else 1.0
    parts.append(_PILES(*v))
    _WRITE_ROW(out, 0, b"".join(parts))


def _player_row_key(s, r: int):
    p = s.players[r]  # the hand's used flags are not in the row; the table's are
    return r == s.active, p.general, p.deck[:], p.discard[:], p.hand[:], marshal.dumps(p.table, 2)


#: [table size][observer]: the absolute seat at each relative place (-1: none)
_SEATS_FROM = [
    [tuple((seat + k) % n if k < n else -1 for k in range(C.MAX_PLAYERS)) for seat in range(n)]
    for n in range(C.MAX_PLAYERS + 1)
]


def _seats_from(s, seat: int) -> tuple[int, ...]:
    return _SEATS_FROM[s.n][seat]


def _table_size(s) -> int:
    return s.n


def _pending(s, seat: int, out: np.ndarray) -> None:
    pend = s.pending
    if pend is None:
        out[0] = 1
        out[5] = 1
    else:
        out[pend["src"]] = 1
        out[5 + pend["card"] + 1] = 1
        x = pend["any"] / 2.0
        out[5 + CARD_ONEHOT] = x if x < 1.0 else 1.0


def _pending_key(s, seat: int):
    pend = s.pending
    return None if pend is None else (pend["src"], pend["card"], pend["any"])


# -- the layout ------------------------------------------------------------------------------------
_POOL_READS = ("hand_up", "active", "res", "players")  # State.pool(active) while the hand is up
OBSERVATION_LAYOUT = ObservationLayout(
    [
        Block(
            "global",
            sum(f[1] for f in GLOBAL_FIELDS),
            "counters, phase, seats, piles, Threat, Plan (table below)",
            _global,
            reads=("n", "adversary", "round", "phase", "current_player", "active", "first", "turns_done")
            + ("fortress", "rubble", "exile", "inv_deck", "inv_discard", "ward", "defeated", "plan")
            + ("plan_progress", "plan_countdown", "thwarted"),
            key=_global_key,
        ),
        Block(
            "area",
            C.NUM_SLOTS * CARD_ONEHOT + C.NUM_SLOTS,
            "8 slots x card one-hot 37, then 8 'affordable by the active player now' flags",
            _area,
            reads=("area",) + _POOL_READS,
            shared=True,
            key=_area_key,
        ),
        Block(
            "rubble",
            len(C.FORTRESS_CARDS) + CARD_ONEHOT,
            "counts of Fortress types 7-35 / 4, top card one-hot",
            _rubble,
            reads=("rubble",),
            shared=True,
            key=_rubble_key,
        ),
        Block(
            "battlefield",
            (C.NUM_COLUMNS, BF_SIZE),
            "per column (table below)",
            _battlefield,
            reads=("field", "markers", "attacked", "dmg", "fortress", "adversary", "plan"),
            shared=True,
            key=_battlefield_key,
        ),
        Block(
            "invasion_discard",
            C.NUM_INVADER_TYPES,
            "count per Invader type / 2",
            _invasion_discard,
            reads=("inv_discard",),
            shared=True,
            key=_invasion_discard_key,
        ),
        Block(
            "active_turn",
            3 + 1 + 3 + C.NUM_CARDS,
            "active player's pool R,C,S /10; D /20; race bonuses /5; hand composition /4",
            _active_turn,
            reads=("dmg", "bonus") + _POOL_READS,
            shared=True,
            key=_active_turn_key,
        ),
        Block(
            "own_hand",
            (C.HAND_CAP, CARD_ONEHOT + 1),
            "own hand slots (sorted): card one-hot + used flag",
            _own_hand,
            reads=("players",),
            key=_own_hand_key,
        ),
        Block(
            "own_private",
            1 + C.NUM_CARDS,
            "own General ability used; own deck composition / 6",
            _own_private,
            reads=("players",),
            key=_own_private_key,
        ),
        Rows(
            "players",
            (C.MAX_PLAYERS, PLAYER_SIZE),
            "relative seats, self first (table below)",
            encode_row=_player_row,
            key_row=_player_row_key,
            order=_seats_from,
            count=_table_size,
            reads=("players", "active", "n"),
        ),
        Block(
            "pending",
            5 + CARD_ONEHOT + 1,
            "pending source kind one-hot 5; source card one-hot; remaining 'any' cost / 2",
            _pending,
            reads=("pending",),
            shared=True,
            key=_pending_key,
        ),
    ],
    low=0.0,
    high=1.0,
    constants=("game", "n"),
)
assert OBSERVATION_LAYOUT.size == 1924, OBSERVATION_LAYOUT.size

# Plan count sanity: the Plan one-hot has room for every Plan.
assert len(PLANS) == 7 and len(GENERALS) == 6
