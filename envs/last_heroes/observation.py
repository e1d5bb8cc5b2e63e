"""Last Heroes observation: state x seat -> float32[1036], seat-relative, the same for 2-5 players.

Seat r is the player r places clockwise after the observer; seats and columns beyond the table
are zeros.

Every block is a :class:`~envs.core.observation.Block` with the function that writes it, the state
fields it reads and a cheap ``key``: the rules' version counters where they have them
(``_hand_ver``, ``_seat_ver``, ``_board_ver``, ``_cards_ver``, ``_deck_ver``; see state.py), else the
few small values the block is made of. ``State.observe`` is the core memo
(``OBSERVATION_LAYOUT.encode``), which rewrites a block only when its key changed;
``OBSERVATION_LAYOUT.encode_plain`` runs the same functions from scratch, the definition.

Global, Decks and Tiles are the same for every observer (shared: written once for all of them).
Seats is a :class:`~envs.core.observation.Rows` table of a row per seat, as the others see it, in
two bands, the flags (present, acting, first: the acting seat moves) and the rest of the row (under
the seat's ``_seat_ver``). A seat's row is the same for every observer except in one place: the
observer's own row shows its whole hand as the known cards, the others only the cards that entered
it publicly. That is the table's :class:`~envs.core.observation.OwnBand`, the known cards of the
observer's own place (0) written for it under its ``_hand_ver``. Hand, Columns
(standee owners by relative seat, "could kill it now" flags), Cards (the opponents' cards) and
Pending (relative seats) are each observer's own.

Speed: a block is assembled from precomputed float32 bytes (a count / 5, a Magazine slot, a
standee, a battlefield column) and Python floats packed with ``struct`` (a C float cast: the bits
numpy's item assignment gives), then copied once, rather than written item by item into numpy. The
battlefield columns come from a table per game (a pure function of the column's monsters,
permanent breaches, covers and pedestal, and of the game's content), so an entry is never stale.
Through the memo a random-play decision costs about 1.25-1.3x the machine instructions of the
hand-made cache this module had before (which patched single one-hots in each observer's last
vector): the memo's fixed cost per call (a key call per group of blocks, the row table's refresh)
and whole blocks rewritten where a one-hot moved (README, Speed).
"""

from __future__ import annotations

import struct
import weakref

import numpy as np

from envs.core.observation import Band, Block, ObservationLayout, OwnBand, Rows, field_offsets
from envs.last_heroes.constants import EXCHANGE_GIVE, HELD, IMPACT, L1_GIVE, LOAD_SOURCE, NO, SETUP_PICK
from envs.last_heroes.content import JOKER_CAP, MAX_PLAYERS, NUM_KINDS, NUM_LEVELS, NUM_POWERS

SEAT_FIELDS = (
    # (name, size, content) of one seat row
    ("present", 1, "seat at the table"),
    ("acting", 1, "this seat decides now"),
    ("first", 1, "this seat is the first player"),
    ("hand_size", 1, "hand size / 12"),
    ("slot0", 17, "Magazine slot 0: kind one-hot (15), Ammo left / 3, empty flag (a card with 0 Ammo)"),
    ("slot1", 17, "Magazine slot 1: same"),
    ("jokers", 4, "Jokers one-hot 0..3"),
    ("wheel", 1, "Scoring Wheel / 20, clipped to [-1, 1]"),
    ("loaded_kinds", 15, "loaded weapons per kind / 5"),
    ("loaded_powers", 3, "loaded weapons per power / 12"),
    ("kills", 2, "monsters killed / 15; their VP / 40"),
    ("artefacts", 6, "artefacts held, per power"),
    ("usable_powers", 6, "powers held and not yet used"),
    ("standee", 8, "standee on the battlefield (1), its column one-hot (5), on L2 / on L3 (2)"),
    ("known_hand", 15, "hand cards known to all per kind / 5 (own seat: the whole hand)"),
)
SLOT_FIELDS = (
    ("present", 1, "a monster is here"),
    ("bright", 3, "bright impacts per power / 2"),
    ("dark", 3, "dark-zone impacts per power / 2"),
    ("required", 3, "impacts required now (breaches applied) per power / 4"),
    ("vp", 1, "VP / 8"),
    ("covered", 1, "dark zone currently covered"),
    ("standee_owner", 5, "standee on this monster: owner's relative seat one-hot"),
    ("permanent_cover", 1, "covered by a permanent breach below"),
    ("permanent_empty", 1, "this slot is permanently empty"),
    ("can_kill", 1, "the observer's loaded weapons could kill it now"),
    ("can_kill_impact", 1, "the same with IMPACT (observer holds an unused IMPACT)"),
)


SEAT, SEAT_SIZE = field_offsets(SEAT_FIELDS)
SLOT, SLOT_SIZE = field_offsets(SLOT_FIELDS)
COLUMN_HEAD = 8  # in play (1), artefact on pedestal (1), its power one-hot (6)
COLUMN_SIZE = COLUMN_HEAD + NUM_LEVELS * SLOT_SIZE


# Offsets of the seat row's fields (the compiled engine's encoder uses them too).
_PRESENT, _FIRST, _HAND_SIZE = SEAT["present"], SEAT["first"], SEAT["hand_size"]
_SLOT0, _JOKERS, _WHEEL = SEAT["slot0"], SEAT["jokers"], SEAT["wheel"]
_LOADED, _LOADED_P, _KILLS = SEAT["loaded_kinds"], SEAT["loaded_powers"], SEAT["kills"]
_ARTEFACTS, _USABLE, _STANDEE, _KNOWN = SEAT["artefacts"], SEAT["usable_powers"], SEAT["standee"], SEAT["known_hand"]


# -- float32 pieces --------------------------------------------------------------------------------
def _f32(values) -> bytes:
    """The float32 bytes of ``values``."""
    return np.asarray(values, np.float32).tobytes()


def _writer(size: int):
    """``write(out, 0, data)``: ``data``, the float32 bytes of ``size`` floats, copied into ``out``."""
    return struct.Struct(f"{4 * size}s").pack_into


def _packer(size: int):
    """``pack(out, 0, *values)``: ``size`` Python numbers written into a float32 ``out``."""
    return struct.Struct(f"{size}f").pack_into


_ONE = _f32([1.0])
_COUNTS = 64  # counts of one kind below this come from the tables (more: computed)
#: k / 5 (a hand, known cards, loaded weapons: not clipped)
_FIFTH = [_f32([k / 5.0]) for k in range(_COUNTS)]


def _fifths(counts) -> bytes:
    """``counts`` / 5 as float32 bytes."""
    try:
        return b"".join(map(_FIFTH.__getitem__, counts))
    except IndexError:
        return _f32([x / 5.0 for x in counts])


# -- global (shared) -------------------------------------------------------------------------------
def _global_head(n: int, rnd: int, phase: int, attacks: int) -> bytes:
    """The first 29 floats: players, round, phase and attacks one-hots, weapon types in play."""
    v = [0.0] * 29
    v[n - 2] = v[14 + phase] = v[21 + attacks] = 1.0
    if rnd:
        v[3 + rnd] = 1.0
    v[24 : 24 + n] = [1.0] * n
    return _f32(v)


#: [n][round][phase][attacks this turn, 2 at most]: the first 29 floats of the block
_GLOBAL_HEAD = {
    n: [[[_global_head(n, rnd, phase, a) for a in range(3)] for phase in range(7)] for rnd in range(11)]
    for n in range(2, MAX_PLAYERS + 1)
}
_PACK_GLOBAL_TAIL = struct.Struct("3f").pack  # artefacts on pedestals / n, held / n, setup picks / 2
_WRITE_GLOBAL = _writer(32)


def _global(s, seat: int, out: np.ndarray) -> None:
    n, phase, attacks = s.n, s.phase, s.attacks
    head = _GLOBAL_HEAD[n][s.round][phase][attacks if attacks < 2 else 2]
    if s.game.use_artefacts:
        on_pedestal = (MAX_PLAYERS - s.pedestal.count(NO)) / n
        held = sum(map(len, s.artefacts)) / n
    else:
        on_pedestal = held = 0.0
    picks = s.setup_picks / 2.0 if phase == SETUP_PICK else 0.0
    _WRITE_GLOBAL(out, 0, head + _PACK_GLOBAL_TAIL(on_pedestal, held, picks))


def _shared_key(s, seat: int):
    """The shared blocks' keys, one call: (global, decks, tiles). Global: the pedestals and the
    artefacts held change only with the board (_board_ver)."""
    return (s.round, s.phase, s.attacks, s.setup_picks, s._board_ver), s._deck_ver, tuple(s.tile_state)


# -- own hand --------------------------------------------------------------------------------------
_WRITE_KINDS = _writer(NUM_KINDS)


def _hand(s, seat: int, out: np.ndarray) -> None:
    _WRITE_KINDS(out, 0, _fifths(s.hands[seat]))


def _hand_key(s, seat: int):
    return s._hand_ver[seat]


# -- seats: a Rows table of a row per seat, the own known cards an OwnBand (see the module doc) ----
#: the flags band (present, acting, first): [acting][first]
_FLAGS = [[_f32([1.0, a, f]) for f in (0.0, 1.0)] for a in (0.0, 1.0)]
_WRITE_FLAGS = _writer(_HAND_SIZE)
assert (_PRESENT, _FIRST, _HAND_SIZE) == (0, 2, 3) and SEAT["acting"] == 1


def _seat_flags(s, r: int, out: np.ndarray) -> None:
    _WRITE_FLAGS(out, 0, _FLAGS[r == s.current_player][r == s.first])


#: per table size, per current player + 1 (0: nobody, the game is over): whether each row is the
#: acting seat's (the first player never changes)
_ACTING = {n: [[i == cp for i in range(n)] for cp in range(-1, n)] for n in range(2, MAX_PLAYERS + 1)}


def _acting_keys(s) -> list:
    return _ACTING[s.n][s.current_player + 1]


#: a Magazine slot's 17 floats: [kind + 1][Ammo] (kind NO: zeros)
_MAG = [[bytes(68)] * 4] + [
    [_f32([float(j == k) for j in range(15)] + [ammo / 3.0, float(ammo == 0)]) for ammo in range(4)]
    for k in range(NUM_KINDS)
]


def _mag_slot(kind: int, ammo: int) -> bytes:
    return _f32([float(j == kind) for j in range(15)] + [ammo / 3.0, float(ammo == 0)] if kind != NO else [0.0] * 17)


_JOKER = [_f32([float(j == k) for j in range(4)]) for k in range(JOKER_CAP + 1)]
_TWELFTH = [_f32([k / 12.0]) for k in range(_COUNTS)]  # hand size / 12 (not clipped)


def _standee_piece(pos: int) -> bytes:
    v = [0.0] * 8
    if pos != NO:
        v[0] = v[1 + pos // 3] = v[6 + (pos % 3) - 1] = 1.0
    return _f32(v)


#: [position + 1]: standee on the battlefield, its column one-hot, on L2 / on L3
_STANDEE_PIECE = [_standee_piece(pos) for pos in range(-1, 3 * MAX_PLAYERS)]
_NO_ARTEFACTS = bytes(4 * 2 * NUM_POWERS)
_PACK_ARTEFACTS = struct.Struct(f"{2 * NUM_POWERS}f").pack
_MINUS_ONE = _f32([-1.0])
#: the Scoring Wheel / 20 for a wheel of -19..19 (index wheel + 20; beyond: -1 or 1)
_WHEEL_PIECE = [_f32([w / 20.0]) for w in range(-20, 20)]
#: loaded weapons per power / 12, kills / 15, VP / 40, clipped to 1
_TWELFTH_CLIPPED = [_f32([min(k / 12.0, 1.0)]) for k in range(_COUNTS)]
_FIFTEENTH_CLIPPED = [_f32([min(k / 15.0, 1.0)]) for k in range(_COUNTS)]
_FORTIETH_CLIPPED = [_f32([min(k / 40.0, 1.0)]) for k in range(4 * _COUNTS)]
_WRITE_BODY = _writer(SEAT_SIZE - _HAND_SIZE)
assert (_SLOT0, _JOKERS, _WHEEL, _LOADED, _LOADED_P, _KILLS) == (4, 38, 42, 43, 58, 61)
assert (_ARTEFACTS, _USABLE, _STANDEE, _KNOWN) == (63, 69, 75, 83)


def _seat_body(s, r: int, out: np.ndarray) -> None:
    """hand size ... known hand of seat r, as the others see it."""
    counts = s.hands[r] if s.game.options["open_hands"] else s.known[r]
    try:
        known = b"".join(map(_FIFTH.__getitem__, counts))
    except IndexError:
        known = _f32([x / 5.0 for x in counts])
    _WRITE_BODY(out, 0, _body(s, r) + known)


def _own_known(s, seat: int, out: np.ndarray) -> None:
    """The observer's own known cards (its own row, place 0): its whole hand."""
    _WRITE_KINDS(out, 0, _fifths(s.hands[seat]))


def _body(s, i: int) -> bytes:
    """Seat i's row from hand size to standee (all but the flags and the known cards)."""
    mk, ma, lp, arts = s.mag_kind[i], s.mag_ammo[i], s.loaded_power[i], s.artefacts[i]
    j, w = s.jokers[i], s.wheel[i]
    if arts:
        v = [0.0] * (2 * NUM_POWERS)
        tile_state = s.tile_state
        for p in arts:
            v[p] = 1.0
            if tile_state[p] == HELD:
                v[NUM_POWERS + p] = 1.0
        artefacts = _PACK_ARTEFACTS(*v)
    else:
        artefacts = _NO_ARTEFACTS
    try:
        return b"".join(
            (
                _TWELFTH[sum(s.hands[i])],
                _MAG[mk[0] + 1][ma[0]],
                _MAG[mk[1] + 1][ma[1]],
                _JOKER[j if j < JOKER_CAP else JOKER_CAP],
                _WHEEL_PIECE[w + 20] if -20 < w < 20 else (_ONE if w > 0 else _MINUS_ONE),
                *map(_FIFTH.__getitem__, s.loaded[i]),
                _TWELFTH_CLIPPED[lp[0]],
                _TWELFTH_CLIPPED[lp[1]],
                _TWELFTH_CLIPPED[lp[2]],
                _FIFTEENTH_CLIPPED[len(s.kills[i])],
                _FORTIETH_CLIPPED[s.vp[i]],
                artefacts,
                _STANDEE_PIECE[s.standee[i] + 1],
            )
        )
    except IndexError:  # a count beyond the tables (a hand-made position)
        x = w / 20.0
        x0, x1, x2 = lp[0] / 12.0, lp[1] / 12.0, lp[2] / 12.0
        kills = len(s.kills[i]) / 15.0
        vp = s.vp[i] / 40.0
        return b"".join(
            (
                _f32([sum(s.hands[i]) / 12.0]),
                _mag_slot(mk[0], ma[0]),
                _mag_slot(mk[1], ma[1]),
                _JOKER[j if j < JOKER_CAP else JOKER_CAP],
                _f32([-1.0 if x < -1.0 else (x if x < 1.0 else 1.0)]),
                _fifths(s.loaded[i]),
                _f32([min(x0, 1.0), min(x1, 1.0), min(x2, 1.0), min(kills, 1.0), min(vp, 1.0)]),
                artefacts,
                _STANDEE_PIECE[s.standee[i] + 1],
            )
        )


def _seat_keys(s) -> list:
    # _seat_ver[i] moves with anything in seat i's row (its hand and known cards included)
    return s._seat_ver[:]


#: per table size, per observer: the row at each relative place (its own first; -1: no seat)
_ORDER = {
    n: [tuple((seat + r) % n for r in range(n)) + (-1,) * (MAX_PLAYERS - n) for seat in range(n)]
    for n in range(2, MAX_PLAYERS + 1)
}


def _seat_order(s, seat: int) -> tuple[int, ...]:
    return _ORDER[s.n][seat]


def _seat_rows(s) -> int:
    return s.n


# -- columns (the observer's own: relative standee owners, its kill flags) -------------------------
_STANDEE_OWNER = SLOT["standee_owner"]


class _GameTables:
    """Per game, a pure function of its content (so an entry is never stale): a battlefield column's
    float32 bytes (what every observer sees of it) by (pedestal, monsters, permanent breaches, covers
    by a standee), built on first use."""

    __slots__ = ("req_full", "req_bright", "vp", "bytes")
    CAP = 1 << 15  # column entries; a table that fills up is cleared

    def __init__(self, game):
        # the content it is built from, not the game (the table must not keep its game alive)
        self.req_full, self.req_bright = game.req_full, game.req_bright
        self.vp = tuple(m.vp for m in game.content.monsters)
        self.bytes: dict[tuple, bytes] = {}

    def build(self, key: tuple) -> bytes:
        ped, m0, m1, m2, p0, p1, p2, on1, on2 = key
        column, perm, on = (m0, m1, m2), (p0, p1, p2), (False, on1, on2)
        out = np.zeros(COLUMN_SIZE, np.float32)
        out[0] = 1.0
        if ped != NO:
            out[1] = 1.0
            out[2 + ped] = 1.0
        for lv in range(NUM_LEVELS):
            at = COLUMN_HEAD + lv * SLOT_SIZE
            if perm[lv]:
                out[at + SLOT["permanent_empty"]] = 1.0
            if lv and perm[lv - 1]:
                out[at + SLOT["permanent_cover"]] = 1.0
            m = column[lv]
            if m == NO:
                continue
            out[at] = 1.0
            full, bright = self.req_full[m], self.req_bright[m]
            covered = lv > 0 and (on[lv] or perm[lv - 1])
            need = bright if covered else full
            for p in range(3):
                out[at + 1 + p] = bright[p] / 2.0
                out[at + 4 + p] = (full[p] - bright[p]) / 2.0
                out[at + 7 + p] = need[p] / 4.0
            out[at + SLOT["vp"]] = self.vp[m] / 8.0
            if covered:
                out[at + SLOT["covered"]] = 1.0
        table = self.bytes
        if len(table) >= self.CAP:
            table.clear()
        data = table[key] = out.tobytes()
        return data


#: id(game) -> (a weak reference to the game, its tables); an entry leaves with its game
_GAME_TABLES: dict[int, tuple[weakref.ref, _GameTables]] = {}


def _tables(game) -> _GameTables:
    """The game's tables (a plain dict by id: a WeakKeyDictionary lookup costs as much as a block)."""
    entry = _GAME_TABLES.get(id(game))
    if entry is not None and entry[0]() is game:
        return entry[1]
    key = id(game)
    tables = _GameTables(game)
    _GAME_TABLES[key] = (weakref.ref(game, lambda _, key=key, entries=_GAME_TABLES: entries.pop(key, None)), tables)
    return tables


_WRITE_COLUMNS = {n: _writer(n * COLUMN_SIZE) for n in range(2, MAX_PLAYERS + 1)}
#: byte offsets, in the columns block, of the "could kill it now" flag of slot 3 * column + level
_KILL_BYTE = tuple(
    4 * (c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE + SLOT["can_kill"]) for c in range(5) for lv in range(3)
)
assert SLOT["can_kill_impact"] == SLOT["can_kill"] + 1 and MAX_PLAYERS == 5 and NUM_LEVELS == 3


def _columns(s, seat: int, out: np.ndarray) -> None:
    n = s.n
    game = s.game
    table = _tables(game)
    known, build = table.bytes, table.build
    board, permanent, standee_on, pedestal = s.board, s.permanent, s.standee_on, s.pedestal
    parts = []
    for c in range(n):
        column, perm, on = board[c], permanent[c], standee_on[c]
        key = (pedestal[c], column[0], column[1], column[2], perm[0], perm[1], perm[2], on[1] != NO, on[2] != NO)
        data = known.get(key)
        parts.append(data if data is not None else build(key))
    data = bytearray(b"".join(parts))
    # the standee on a monster: its owner's relative seat
    for i, pos in enumerate(s.standee):
        if pos != NO:
            at = 4 * ((pos // 3) * COLUMN_SIZE + COLUMN_HEAD + (pos % 3) * SLOT_SIZE + _STANDEE_OWNER + (i - seat) % n)
            data[at : at + 4] = _ONE
    lp = s.loaded_power[seat]
    if lp[0] or lp[1] or lp[2]:
        # the rules' own query (reads board, standee_on, permanent, loaded_power, tile_holder, tile_state)
        plain, with_impact, _ = s.attack_options(seat)
        for slot in plain:
            at = _KILL_BYTE[slot]
            data[at : at + 4] = _ONE
        for slot in with_impact:
            at = _KILL_BYTE[slot] + 4
            data[at : at + 4] = _ONE
    _WRITE_COLUMNS[n](out, 0, data)


def _columns_key(s, seat: int):
    lp = s.loaded_power[seat]
    return s._board_ver, lp[0], lp[1], lp[2], s.tile_holder[IMPACT] == seat and s.tile_state[IMPACT] == HELD


# -- decks (shared) --------------------------------------------------------------------------------
DECK_SCALE = (15.0, 12.0, 9.0)
_PACK_DECKS = _packer(3 + 36)


def _decks(s, seat: int, out: np.ndarray) -> None:
    v = [0.0] * 39
    for lv, deck in enumerate(s.decks):
        v[lv] = len(deck) / DECK_SCALE[lv]
        for m in deck:
            v[3 + m] = 1.0
    _PACK_DECKS(out, 0, *v)


# -- cards: the discard pile, the cards in the opponents' hands (own) ------------------------------


#: k / 5 clipped to 1 (the discard pile, the opponents' cards)
_FIFTH_CLIPPED = [_f32([k / 5.0 if k < 5 else 1.0]) for k in range(_COUNTS)]
_ZERO = _f32([0.0])
_WRITE_CARDS = _writer(2 * NUM_KINDS)


def _cards(s, seat: int, out: np.ndarray) -> None:
    total, hand = s._hand_tot, s.hands[seat]  # _hand_tot: the cards of each kind in all hands together
    clipped = _FIFTH_CLIPPED
    try:
        parts = list(map(clipped.__getitem__, s.discard))
    except IndexError:
        parts = [clipped[x] if x < _COUNTS else _ONE for x in s.discard]
    others = [_ZERO] * NUM_KINDS
    for k in s.game.kinds_in_play:
        x = total[k] - hand[k]
        others[k] = clipped[x] if x < _COUNTS else _ONE
    _WRITE_CARDS(out, 0, b"".join(parts + others))


def _cards_key(s, seat: int):
    # the discard pile moves _cards_ver; _hands_ver - _hand_ver[seat] moves with any opponent's hand
    return s._cards_ver, s._hands_ver - s._hand_ver[seat]


# -- pending sub-decision (own: relative seats) ----------------------------------------------------
def _pending(s, seat: int, out: np.ndarray) -> None:
    phase = s.phase
    if phase == LOAD_SOURCE:
        n = s.n
        out[s.load_kind] = 1.0
        out[15] = s.load_need / 3.0
        for owner, slot in s.load_used:
            out[16 + 2 * ((owner - seat) % n) + slot] = 1.0
    elif phase == EXCHANGE_GIVE:
        out[26 + s.exchange_kind] = 1.0
    elif phase == L1_GIVE:
        owner, slot = s.l1_target
        out[41 + 2 * ((owner - seat) % s.n) + slot] = 1.0


def _pending_key(s, seat: int):
    phase = s.phase
    if phase == LOAD_SOURCE:
        return phase, s.load_kind, s.load_need, tuple(s.load_used)  # (owner, slot) tuples
    if phase == EXCHANGE_GIVE:
        return phase, s.exchange_kind
    if phase == L1_GIVE:
        return phase, s.l1_target
    return None


# -- power tiles (shared) --------------------------------------------------------------------------
_PACK_TILES = _packer(NUM_POWERS * 4)


def _tiles(s, seat: int, out: np.ndarray) -> None:
    v = [0.0] * (NUM_POWERS * 4)
    for p, st in enumerate(s.tile_state):
        v[4 * p + st] = 1.0
    _PACK_TILES(out, 0, *v)


# -- the layout ------------------------------------------------------------------------------------
_ROW_READS = ("current_player", "first", "hands", "known", "mag_kind", "mag_ammo", "jokers", "wheel", "loaded")
_ROW_READS += ("loaded_power", "kills", "vp", "artefacts", "tile_state", "standee", "_seat_ver")
OBSERVATION_LAYOUT = ObservationLayout(
    [
        Block(
            "global",
            32,
            "players one-hot (4: 2..5); round one-hot (10); phase one-hot (7); attacks this turn "
            "one-hot (3); weapon types in play (5); artefacts on pedestals / n; artefacts held / n; "
            "setup picks made by the actor / 2",
            _global,
            reads=("round", "phase", "attacks", "setup_picks", "pedestal", "artefacts"),
            shared=True,
            key=_shared_key,
            key_part=0,
        ),
        Block("hand", NUM_KINDS, "own hand, count per kind / 5", _hand, reads=("hands",), key=_hand_key),
        Rows(
            "seats",
            (MAX_PLAYERS, SEAT_SIZE),
            "per relative seat (0 = observer); row fields below",
            encode_row=None,
            key_row=None,
            order=_seat_order,
            count=_seat_rows,
            reads=_ROW_READS,
            bands=(
                Band((0, _HAND_SIZE), _seat_flags, _acting_keys),
                Band((_HAND_SIZE, SEAT_SIZE), _seat_body, _seat_keys),
            ),
            own=OwnBand((_KNOWN, SEAT_SIZE), _own_known, _hand_key),
        ),
        Block(
            "columns",
            (MAX_PLAYERS, COLUMN_SIZE),
            "per absolute column: in play, artefact on pedestal, its power "
            "one-hot (6), then three level slots (fields below)",
            _columns,
            reads=("board", "permanent", "standee_on", "pedestal", "standee", "loaded_power")
            + ("tile_holder", "tile_state"),
            key=_columns_key,
        ),
        Block(
            "decks",
            3 + 36,
            "cards left per level (/15, /12, /9); per monster id, 1 if still in a deck",
            _decks,
            reads=("decks",),
            shared=True,
            key=_shared_key,
            key_part=1,
        ),
        Block(
            "cards",
            2 * NUM_KINDS,
            "discard pile per kind / 5; cards in opponents' hands per kind / 5",
            _cards,
            reads=("discard", "_hand_tot", "hands"),
            key=_cards_key,
        ),
        Block(
            "pending",
            51,
            "kind being loaded one-hot (15); Ammo still to source / 3; Magazine cards used by this "
            "load by (seat, slot) (10); kind taken by a pending EXCHANGE one-hot (15); slot chosen "
            "for a pending Level-1 swap by (seat, slot) one-hot (10)",
            _pending,
            reads=("phase", "load_kind", "load_need", "load_used", "exchange_kind", "l1_target"),
            key=_pending_key,
        ),
        Block(
            "tiles",
            NUM_POWERS * 4,
            "per power: not in game / on a pedestal / held unused / used, one-hot",
            _tiles,
            reads=("tile_state",),
            shared=True,
            key=_shared_key,
            key_part=2,
        ),
    ],
    low=-1.0,
    high=1.0,
    constants=("game", "n"),
)
assert OBSERVATION_LAYOUT.size == 1036 and SEAT_SIZE == 98 and COLUMN_SIZE == 71

G = OBSERVATION_LAYOUT["global"].offset
H = OBSERVATION_LAYOUT["hand"].offset
S = OBSERVATION_LAYOUT["seats"].offset
B = OBSERVATION_LAYOUT["columns"].offset
D = OBSERVATION_LAYOUT["decks"].offset
X = OBSERVATION_LAYOUT["cards"].offset
P = OBSERVATION_LAYOUT["pending"].offset
T = OBSERVATION_LAYOUT["tiles"].offset
