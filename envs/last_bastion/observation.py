"""Last Bastion observation: state x seat -> float32[1243] in [0, 1] (but see ``global`` field 8 in
docs/last_bastion.md, section 6), the same for 1-4 players.

Everything positional is in the observer's frame (its own board at the bottom: relative spaces 0-2,
relative tiles via ``content.REL_TILE``, seats as clockwise offsets); colours are absolute. Hidden:
the deck order, the undrawn Warlords' identities and the set-aside cards; the deck *structure*
(size, cards above the next Warlord) is public and given. This module reads the state's public
fields and queries only; it does not import the rules (state.py does not import it either: the
state observes through the game's layout).

Every block is a :class:`~envs.core.observation.Block` with the function that writes it, the state
fields it reads and a key; ``State.observe`` is the core memo (``layout.encode``), which rewrites a
block only when its key changed, and ``layout.encode_plain`` runs the same functions from scratch:
the definition. Phase, turn and current board are the observer's own (is it acting, is it the
active hero, the board's offset from its own), written in its frame under one key
(:func:`_own_key`), and so are the hints; every other block is the same facts for every observer:
shared, written once for all of them, the positional ones *framed*: written in the absolute frame
(board 0's) and gathered into each observer's frame by an index per board (:data:`FRAMES`; spaces,
boards and card ids are rotations of rows, brought in by a byte copy or two; tiles and heroes also
turn the columns inside their rows, a ``take``).

Keys. The shared blocks' keys are the parts of one function (:func:`_shared_key`), and blocks that
change together share a part (a group is checked with one comparison and rewritten together): the
pending card; the rarer pending blocks (effect, combat, tower source, Market whites, Kaela's second
resolution: the few values they show); global (the deck's size and top card, the reserves); the
board blocks (elements, ongoing, discard, spaces); tiles and boards; heroes. Copying the heroes'
dicts, the spaces and the elements at every call would cost more than most blocks, so the keys hold
version counters the rules bump (state.py: ``_heroes_ver`` on any change of a hero's data,
``_places_ver`` when a status, tile or board Grasp changes, ``_board_ver`` when the spaces,
sanctified marks, elements, grasped tiles or a board Grasp change; in ``tokens.py`` and the few
moves outside it), and otherwise the few small values a block is made of (the decision's fields, the
turn's flags, the reserves, the deck's size and top card: the deck only ever loses its top card; the
discard pile's size: it only grows). A hand edit in place of what a counter stands for must bump it,
or rebuild the state (``state_from_json(state.to_json())``, or a clone: counters and memo are not
part of the JSON); any other field is read by value and an edit in place is seen.
``seat_of``, ``player_at`` and ``layout`` never change after the setup: they are the layout's
constants.

Writers. An interpreted Python step costs about as much as copying a few hundred bytes, so a block
is written in one go where it can: float32 bytes from precomputed tables (a card's space row, a tile
table per layout and completable types, a board row, the pieces of a hero row), joined and packed
once (``struct``); otherwise only the non-zero floats (the memo zeroes a block before writing it).
"""

from __future__ import annotations

import struct
from operator import itemgetter

import numpy as np

from envs.core.observation import Block, ObservationLayout, field_offsets
from envs.last_bastion import content as C
from envs.last_bastion.content import DEPLOYED, IN
from envs.last_bastion.hints import HINTS_SIZE, hints

PHASES = (
    "MAIN",
    "PLACE_CARD",
    "CHOOSE_VICTIM",
    "DISCARD_COLOR",
    "GAIN_COLOR",
    "STANDARD_COLOR",
    "QUARRY_SPACE",
    "TREBUCHET_TARGET",
    "TOMB_TARGET",
    "TOWER_SOURCE",
    "TOWER_DEST",
    "FOUNTAIN_TARGET",
    "DISPENSARY_TARGET",
    "PURIFY_TARGET",
    "COMBAT_RESOLVE",
    "EFFECT_ORDER",
)
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
NP = len(C.PRIMITIVES)

SPACE_FIELDS = (
    ("occupied", 1, "a card is here"),
    ("colour", 5, "card colour one-hot (red..black)"),
    ("warlord", 1, "the card is a Warlord"),
    ("printed_res", 1, "printed resistance / 5"),
    ("effective_res", 1, "effective resistance (Standard, Enchantment) / 5"),
    ("recurring", 1, "central effect is recurring"),
    ("ongoing", 1, "central effect is ongoing"),
    ("central", NP, "central primitive one-hot"),
    ("central_arg", 1, "central count / 2"),
    ("exit", NP, "exit primitive one-hot"),
    ("exit_arg", 1, "exit count / 2"),
    ("exit_colour", 6, "exit Equipment colour (red..black, any)"),
    ("netted", 1, "the Net is on it"),
    ("sanctified", 1, "sanctified (central effect suppressed)"),
    ("enchanted", 1, "the Enchantment is on it"),
    ("trap", 1, "the Trap is on this (empty) space"),
)
TILE_FIELDS = (
    ("type", 9, "tile type one-hot (content.TILES order)"),
    ("grasped", 1, "a Grasp of Evil is on it"),
    ("sealed", 1, "sealed by an ONG_SEAL card"),
    ("heroes", 4, "in-play heroes here, per seat offset"),
    ("completable", 1, "its action is completable now"),
)
HERO_FIELDS = (
    ("present", 1, "the seat has a player"),
    ("status", 3, "in play, taken out, dead"),
    ("hero", 8, "hero one-hot"),
    ("wounded", 1, "wounded side"),
    ("power", 1, "power usable"),
    ("board_grasped", 1, "Hero board grasped"),
    ("life", 1, "Life / 6"),
    ("cta", 1, "Call to Arms / 6"),
    ("equip", 5, "Equipment per colour / 4"),
    ("tile", 9, "relative tile one-hot (zeros off the Bastion)"),
    ("active", 1, "is the active hero"),
)
BOARD_FIELDS = (
    ("colour", 4, "board colour"),
    ("linked", 1, "a hero in play is linked"),
    ("full", 1, "3 cards"),
    ("cards", 1, "cards / 3"),
)


SP, SP_SIZE = field_offsets(SPACE_FIELDS)
TL, TL_SIZE = field_offsets(TILE_FIELDS)
HR, HR_SIZE = field_offsets(HERO_FIELDS)
BD, BD_SIZE = field_offsets(BOARD_FIELDS)
assert SP_SIZE == 59 and TL_SIZE == 16 and HR_SIZE == 32 and BD_SIZE == 7

#: (name, shape, doc) of every block, in layout order (the observation options append card_ids, hints)
DOCS = (
    ("phase", len(PHASES) + 1, "pending decision one-hot (" + ", ".join(PHASES) + "), then NOT_ACTING"),
    (
        "turn",
        8,
        "player turn, neutral turn, observer is controller, observer is active hero, acted, moved, "
        "power used, board-turns / 120",
    ),
    ("current_board", 4, "seat offset of the board whose board-turn it is"),
    (
        "pending_card",
        SP_SIZE + NP + 1,
        "card being placed / source of the pending effect: space features, "
        "entrance primitive one-hot, entrance count / 2",
    ),
    (
        "pending_effect",
        NP + 6,
        "pending primitive one-hot, from a full board, from the Corruption die, affected player's seat offset",
    ),
    ("combat", 35, "dice faces rolled per face / 4 (6), FIRST target space (12), SECOND (12), token pool / 8 (5)"),
    ("tower_source", 12, "space chosen in TOWER_SOURCE"),
    ("market_whites", 1, "white Market faces left to convert / 2"),
    ("double_pending", 1, "Kaela's second resolution is pending"),
    (
        "global",
        23,
        "players (4), difficulty (4), deck / 50 (at most 1), cards above the next Warlord / 50, top card is a "
        "Warlord, Warlords / 3, vanquished / 3, in play / 3, grasped tiles / 3, reserve Life / 16, "
        "reserve Call to Arms / 6, reserve Equipment / 4 (5), reserve Grasp / 11",
    ),
    (
        "elements",
        22,
        "Standard state (3), colour (5), planter offset (4); Trap state (3); Net state (3); Enchantment state (4)",
    ),
    ("ongoing", 4, "active ONG_DIM, ONG_SEAL, ONG_NO_CTA, ONG_WARD / 3"),
    ("discard", 6, "discarded cards per colour / 10, total / 50"),
    ("tiles", (9, TL_SIZE), "per relative tile"),
    ("spaces", (12, SP_SIZE), "per relative space"),
    ("heroes", (4, HR_SIZE), "per seat offset"),
    ("boards", (4, BD_SIZE), "per seat offset"),
)
CARD_IDS_DOC = ("card_ids", (13, C.NUM_CARDS), "card-id one-hot per relative space (12), then the pending card")
HINTS_DOC = ("hints", HINTS_SIZE, "option obs_hints=True: the heuristic's worth of the MAIN choices (hints.py)")
_SIZES = {name: int(np.prod(shape)) for name, shape, _ in (*DOCS, CARD_IDS_DOC)}
SL: dict[str, int] = {}  # each block's offset (card_ids: CARD_IDS_AT)
_at = 0
for _name, _, _ in DOCS:
    SL[_name] = _at
    _at += _SIZES[_name]
CARD_IDS_AT = _at  # the card_ids block, with obs_card_ids=True
STATES3 = ("home", "deployed", "parked")
STATES4 = ("home", "deployed", "parked", "out")
IS_WARLORD = tuple(c.warlord for c in C.CARDS)


# == tables: float32 pieces computed once ==========================================================
def _f32(values) -> bytes:
    return np.asarray(values, np.float32).tobytes()


def _writer(size: int):
    """``write(out, 0, data)``: ``data``, the float32 bytes of ``size`` floats, copied into ``out``."""
    return struct.Struct(f"{4 * size}s").pack_into


def _effect_into(v: np.ndarray, at: int, e) -> None:
    if e is not None:
        v[at + C.PRIM[e.prim]] = 1.0
        if isinstance(e.arg, int):
            v[at + NP] = min(e.arg / 2.0, 1.0)


def _card_row(card: int) -> np.ndarray:
    """A card's space row, its effective resistance at the printed value."""
    c = C.CARDS[card]
    v = np.zeros(SP_SIZE, np.float32)
    v[SP["occupied"]] = 1.0
    v[SP["colour"] + c.color] = 1.0
    v[SP["warlord"]] = float(c.warlord)
    v[SP["printed_res"]] = c.resistance / 5.0
    v[SP["effective_res"]] = c.resistance / 5.0
    if c.central is not None:
        v[SP["ongoing" if c.central.prim in C.ONGOING else "recurring"]] = 1.0
        _effect_into(v, SP["central"], c.central)
    if c.exit is not None:
        _effect_into(v, SP["exit"], c.exit)
        if c.exit.prim == "GAIN_EQUIP":
            v[SP["exit_arg"]] = 0.5
            v[SP["exit_colour"] + (5 if c.exit.arg == C.ANY else c.exit.arg)] = 1.0
    return v


#: per card: its space row; index -1 (an empty space): zeros
_SPACE_ROW = [_card_row(c).tobytes() for c in range(C.NUM_CARDS)] + [bytes(4 * SP_SIZE)]
#: per card: the pending_card block (its space row, then its entrance effect)
_PENDING_ROW = []
for _c in range(C.NUM_CARDS):
    _v = np.zeros(SP_SIZE + NP + 1, np.float32)
    _v[:SP_SIZE] = _card_row(_c)
    _effect_into(_v, SP_SIZE, C.CARDS[_c].entrance)
    _PENDING_ROW.append(_v.tobytes())
_COLOUR = tuple(c.color for c in C.CARDS)
_RESISTANCE = tuple(c.resistance for c in C.CARDS)
_WARLORD_OR_EMPTY = IS_WARLORD + (False,)  # index -1: an empty space


def _repeated_sums(step: float, count: int, cap: float = 1.0) -> list[float]:
    """``table[k]``: the float32 value ``k`` successive ``x += step`` from 0 give, then clipped to
    ``cap`` (what the definition first wrote: a per-card ``+=`` into the float32 vector)."""
    x = np.zeros(1, np.float32)
    out = []
    for _ in range(count + 1):
        out.append(float(np.minimum(x, cap)[0]))
        x[0] += step
    return out


_TENTHS = _repeated_sums(0.1, C.NUM_CARDS)  # discarded cards of a colour / 10


# == phase, turn and the current board: the observer's own ========================================
NOT_ACTING = len(PHASES)


def _own_key(s, seat: int):
    """The observer's own blocks' keys, one call: part 0 the phase, 1 the turn, 2 the current board."""
    d = s.decision
    acting = d is not None and s.current_player == seat
    turn = acting, s.neutral, s.active == seat, s.acted, s.moved, s.power_used, s.board_turns
    return d["kind"] if acting else None, turn, s.board


def _phase(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    out[PHASE_INDEX[d["kind"]] if d is not None and s.current_player == seat else NOT_ACTING] = 1.0


#: the turn block's first 7 floats: [neutral][observer is controller][observer is active hero][acted]
#: [moved][power used]
_TURN_HEAD = [
    [
        [[[[_f32([1 - n, n, c, a, x, m, u]) for u in (0, 1)] for m in (0, 1)] for x in (0, 1)] for a in (0, 1)]
        for c in (0, 1)
    ]
    for n in (0, 1)
]
_PACK_TURN = struct.Struct("28sf").pack_into


def _turn(s, seat: int, out: np.ndarray) -> None:
    neutral = s.neutral
    head = _TURN_HEAD[neutral][s.decision is not None and s.current_player == seat]
    head = head[s.active == seat and not neutral][s.acted][s.moved][s.power_used]
    turns = s.board_turns
    _PACK_TURN(out, 0, head, turns / 120.0 if turns < 120 else 1.0)


def _current_board(s, seat: int, out: np.ndarray) -> None:
    out[(s.board - s.seat_of[seat]) % 4] = 1.0


# == the pending decision (shared) =================================================================
def pending_card(s) -> int:
    """The card the open decision is about: the one being placed, or the source of a victim choice; else -1."""
    d = s.decision
    if d is None:
        return -1
    if d["kind"] == "PLACE_CARD":
        return d["card"]
    if d["kind"] == "CHOOSE_VICTIM" and d["src"] >= 0 and s.spaces[d["src"]] >= 0:
        return s.spaces[d["src"]]
    return -1


_WRITE_PENDING = _writer(SP_SIZE + NP + 1)


def _pending_card(s, seat: int, out: np.ndarray) -> None:
    card = pending_card(s)
    if card >= 0:
        _WRITE_PENDING(out, 0, _PENDING_ROW[card])


_VICTIM_PRIM = {"PLAGUE_WIND": "DISCARD_ALL_EQUIP", "SOUL_DRAIN": "LOSE_CTA"}
_DISCARD_EQUIP = C.PRIM["DISCARD_EQUIP"]


def _pending_effect(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    if d is None:
        return
    kind = d["kind"]
    if kind == "CHOOSE_VICTIM":
        task = d["task"]
        prim, origin = task[1], task[5]
        out[C.PRIM[_VICTIM_PRIM.get(prim, prim)]] = 1.0
        if origin == "board":
            out[NP] = 1.0
        elif origin == "die":
            out[NP + 1] = 1.0
    elif kind == "DISCARD_COLOR":
        seat_of = s.seat_of
        out[_DISCARD_EQUIP] = 1.0
        out[NP + 2 + (seat_of[d["victim"]] - seat_of[seat]) % 4] = 1.0


def _combat(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    if d is None or d["kind"] != "COMBAT_RESOLVE":
        return
    for f in d["dice"]:
        out[f] += 0.25
    b3 = 3 * s.seat_of[seat]
    for k, sp in enumerate(d["targets"]):
        out[6 + 12 * k + (sp - b3) % 12] = 1.0
    for c, n in enumerate(s.pool()):
        if n:
            out[30 + c] = n / 8.0 if n < 8 else 1.0


def _tower_source(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    if d is not None and d["kind"] == "TOWER_DEST":
        out[(d["src"] - 3 * s.seat_of[seat]) % 12] = 1.0


def _market_whites(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    if d is not None and d["kind"] == "GAIN_COLOR":
        out[0] = d["whites"] / 2.0


_TASK_NAME = itemgetter(0)


def _double_pending(s, seat: int, out: np.ndarray) -> None:
    if "kaela" in map(_TASK_NAME, s.stack):  # the stack scanned in C
        out[0] = 1.0


def _rare_key(s, seat: int):
    """The rarer pending blocks' key (pending effect, combat, tower source, Market whites, Kaela's
    second resolution), the observer's own (they are in its frame): the few values they show, None
    while they are zeros."""
    d = s.decision
    key = None if d is None or d["kind"] == "MAIN" else _pending_key(s, d)
    if "kaela" in map(_TASK_NAME, s.stack):
        return key, True
    return key


# == the table (shared) ============================================================================
_DIFFICULTY = {d: i for i, d in enumerate(C.DIFFICULTIES)}
#: [players][difficulty]: the global block's first 8 floats
_GLOBAL_HEAD = [
    [_f32([float(k == n - 1) for k in range(4)] + [float(k == d) for k in range(4)]) for d in range(4)]
    for n in range(1, 5)
]
_PACK_GLOBAL = struct.Struct("32s9f20sf").pack_into
_DECK_SIZE = [min(1.0, k / 50.0) for k in range(256)]  # deck / 50, at most 1
#: [next Warlord's position + 1]: (cards above it / 50, it is the top card)
_NEXT_WARLORD = [(0.0, 0.0)] + [(k / 50.0, float(k == 0)) for k in range(255)]
#: deck card -> 1 for a Warlord (bytes(deck).translate(_WARLORD_BYTE).find(1): the next Warlord's position)
_WARLORD_BYTE = bytes(int(IS_WARLORD[c]) if c < C.NUM_CARDS else 0 for c in range(256))
_WARLORD_SET = frozenset(C.WARLORDS)
_LAST_DECK: list = [([], -1)]  # (a copy of the last deck scanned, its next Warlord's position): one item, swapped whole


def _next_warlord(deck: list[int]) -> int:
    """The position of the next Warlord in ``deck`` (public), -1 for none. The last deck's answer is
    kept, checked against a copy of that deck (the deck changes on draws only, the global block far
    more often): a pure function's memo, right for any state."""
    last = _LAST_DECK[0]
    if deck != last[0]:
        last = _LAST_DECK[0] = (deck[:], bytes(deck).translate(_WARLORD_BYTE).find(1))
    return last[1]


def _global(s, seat: int, out: np.ndarray) -> None:
    deck, sp = s.deck, s.spaces
    above, top = _NEXT_WARLORD[_next_warlord(deck) + 1]
    grasped = sum(s.grasped)
    boards = 0
    for h in s.heroes:
        if h["board_grasped"]:
            boards += 1
    e = s.reserve_equip  # (each 0-4: the box has 4 of a colour)
    _PACK_GLOBAL(
        out,
        0,
        _GLOBAL_HEAD[s.n - 1][_DIFFICULTY[s.game.options["difficulty"]]],
        _DECK_SIZE[len(deck)],  # 4 heroes at Difficult and Heroic start above 50
        above,
        top,
        s.W / 3.0,
        s.vanquished / 3.0,
        (0 if _WARLORD_SET.isdisjoint(sp) else len(_WARLORD_SET.intersection(sp))) / 3.0,  # Warlords in play
        grasped / 3.0,
        s.reserve_life / 16.0,
        s.reserve_cta / 6.0,
        _EQUIP[e[0]][e[1]][e[2]][e[3]][e[4]],
        (C.GRASP_TOTAL - grasped - boards) / 11.0,  # the Grasps left in the box
    )


_S3 = {name: i for i, name in enumerate(STATES3)}
_S4 = {name: i for i, name in enumerate(STATES4)}


def _elements(s, seat: int, out: np.ndarray) -> None:
    el = s.elements
    std = el["standard"]
    state = std["state"]
    out[_S3[state]] = 1.0
    if state == DEPLOYED:
        out[3 + std["where"]] = 1.0
        out[8 + std["seat"]] = 1.0
    out[12 + _S3[el["trap"]["state"]]] = 1.0
    out[15 + _S3[el["net"]["state"]]] = 1.0
    out[18 + _S4[el["enchantment"]["state"]]] = 1.0


_ONG_PRIMS = ("ONG_DIM", "ONG_SEAL", "ONG_NO_CTA", "ONG_WARD")
_ONG_COUNTS = itemgetter(*_ONG_PRIMS)
_PACK_ONGOING = struct.Struct("4f").pack_into
_THIRDS = [min(k / 3.0, 1.0) for k in range(13)]


def _ongoing(s, seat: int, out: np.ndarray) -> None:
    counts = _ONG_COUNTS(s.central_effects()[1])  # reads spaces, sanct, elements (the Net)
    if any(counts):
        _PACK_ONGOING(out, 0, *map(_THIRDS.__getitem__, counts))


#: card -> its colour as a byte (bytes(pile).translate(_COLOUR_BYTE).count(c): the cards of colour c)
_COLOUR_BYTE = bytes(_COLOUR[c] if c < C.NUM_CARDS else 255 for c in range(256))
_PACK_DISCARD = struct.Struct("6f").pack_into


def _discard(s, seat: int, out: np.ndarray) -> None:
    pile = s.discard
    if pile:
        colours = bytes(pile).translate(_COLOUR_BYTE)
        count = colours.count
        _PACK_DISCARD(out, 0, _TENTHS[count(0)], _TENTHS[count(1)], _TENTHS[count(2)], _TENTHS[count(3)],
                      _TENTHS[count(4)], len(pile) / 50.0)  # fmt: skip


# -- tiles: rows of the type one-hot and completable flag, from a table per (layout, completable
# types); then the grasped and sealed marks and the heroes, float by float
_TILE_BASE: dict[tuple, bytes] = {}
_TILE_H, _TILE_G, _TILE_S = TL["heroes"], TL["grasped"], TL["sealed"]
_WRITE_TILES = _writer(9 * TL_SIZE)


def _tile_base(key: tuple) -> bytes:
    layout, completable = key[:9], key[9:]
    v = np.zeros((9, TL_SIZE), np.float32)
    for t, kind in enumerate(layout):
        v[t, kind] = 1.0
        v[t, TL["completable"]] = completable[kind]
    if len(_TILE_BASE) > 10_000:  # a bound (a layout has at most 2^7 tables)
        _TILE_BASE.clear()
    data = _TILE_BASE[key] = v.tobytes()
    return data


def _tiles(s, seat: int, out: np.ndarray) -> None:
    sealed = s.central_effects()[2]  # reads spaces, sanct, elements (the Net)
    completable = s.completable_tuple()  # reads spaces, elements, grasped, heroes, reserve_life, layout
    key = (*s.layout, *completable)
    base = _TILE_BASE.get(key)
    _WRITE_TILES(out, 0, base if base is not None else _tile_base(key))
    seat_of = s.seat_of
    for p, h in enumerate(s.heroes):
        if h["status"] == IN:
            out[h["tile"], _TILE_H + seat_of[p]] = 1.0
    grasped = s.grasped
    if any(grasped):
        for t, g in enumerate(grasped):
            if g:
                out[t, _TILE_G] = 1.0
    for t in sealed:
        out[t, _TILE_S] = 1.0


#: per card its space row, then zeros (index -1: an empty space): ``take(spaces, mode="wrap")``
_SPACE_TABLE = np.stack([np.frombuffer(row, np.float32) for row in _SPACE_ROW])
_CARDS_OF_COLOUR = [frozenset(c for c in range(C.NUM_CARDS) if _COLOUR[c] == colour) for colour in range(5)]
_ER, _NETTED, _SANCT = SP["effective_res"], SP["netted"], SP["sanctified"]
_ENCHANTED, _TRAP = SP["enchanted"], SP["trap"]


def _spaces(s, seat: int, out: np.ndarray) -> None:
    """The 12 space rows from the card table, then what the elements and marks change."""
    sp = s.spaces
    _SPACE_TABLE.take(sp, 0, out, "wrap")
    el = s.elements
    std, ench = el["standard"], el["enchantment"]
    enchanted = ench["where"] if ench["state"] == DEPLOYED else -1
    colour = -1
    if std["state"] == DEPLOYED:  # the Standard lowers the cards of its colour
        colour = std["where"]
        if 0 <= colour < 5:
            for c in _CARDS_OF_COLOUR[colour].intersection(sp):
                k = sp.index(c)
                r = _RESISTANCE[c] - 1 - (k == enchanted)
                out[k, _ER] = (r if r > 0 else 0) / 5.0
    if enchanted >= 0:  # and the Enchantment its card
        c = sp[enchanted]
        if c >= 0:
            out[enchanted, _ENCHANTED] = 1.0
            if _COLOUR[c] != colour:
                r = _RESISTANCE[c] - 1
                out[enchanted, _ER] = (r if r > 0 else 0) / 5.0
    sanct = s.sanct
    if max(sanct) >= 0:
        for k, mark in enumerate(sanct):
            if mark >= 0 and sp[k] >= 0:
                out[k, _SANCT] = 1.0
    net = el["net"]
    if net["state"] == DEPLOYED:
        k = net["where"]
        if 0 <= k and sp[k] >= 0:
            out[k, _NETTED] = 1.0
    trap = el["trap"]
    if trap["state"] == DEPLOYED:
        k = trap["where"]
        if 0 <= k and sp[k] < 0:
            out[k, _TRAP] = 1.0


# -- hero rows: one per absolute seat, joined from pieces: [status][hero][wounded][board grasped] (the
# first 15 floats), [Life][Call to Arms], [each Equipment count], then [tile + 1 if in play][active]
def _hero_head(status: int, hero: int, wounded: int, board_grasped: int) -> bytes:
    v = [0.0] * 15
    v[0] = v[1 + status] = v[4 + hero] = 1.0
    v[12], v[13], v[14] = wounded, float(status == 0 and not wounded and not board_grasped), board_grasped
    return _f32(v)


_HERO_HEAD = {
    name: [[[_hero_head(i, hero, w, g) for g in (0, 1)] for w in (0, 1)] for hero in range(len(C.HEROES))]
    for i, name in enumerate(("in", "out", "dead"))
}
_COUNTS = 32  # Life and Calls to Arms below this come from the table (more: computed)
_LIFE_CTA = [[_f32([min(life / 6.0, 1.0), min(cta / 6.0, 1.0)]) for cta in range(_COUNTS)] for life in range(_COUNTS)]
#: [e0][e1][e2][e3][e4]: the Equipment floats (each count / 4, 0-4: the box has 4 of a colour)
_EQUIP = [[[[[_f32([a / 4, b / 4, c / 4, d / 4, e / 4]) for e in range(5)] for d in range(5)] for c in range(5)]
           for b in range(5)] for a in range(5)]  # fmt: skip
_HERO_TAIL = [[_f32([float(t == tile) for t in range(9)] + [a]) for a in (0, 1)] for tile in range(-1, 9)]
_NO_HERO = bytes(4 * HR_SIZE)
_WRITE_HEROES = _writer(4 * HR_SIZE)
_HERO_FIELDS = itemgetter("status", "hero", "wounded", "board_grasped", "life", "cta", "tile", "equip")


def _hero_row(status, hero, wounded, board_grasped, life, cta, tile, equip, active) -> bytes:
    """A row the tables do not hold (a count beyond them: a hand-made position)."""
    v = [min(life / 6.0, 1.0), min(cta / 6.0, 1.0)] + [x / 4.0 for x in equip]
    head = _HERO_HEAD[status][hero][wounded][board_grasped]
    return head + _f32(v) + _HERO_TAIL[tile + 1 if status == IN else 0][active]


def _heroes(s, seat: int, out: np.ndarray) -> None:
    active = -1 if s.neutral else s.active
    heroes = s.heroes
    rows = []
    for p in s.player_at:
        if p < 0:
            rows.append(_NO_HERO)
            continue
        status, hero, wounded, board_grasped, life, cta, tile, e = _HERO_FIELDS(heroes[p])
        try:
            rows += (
                _HERO_HEAD[status][hero][wounded][board_grasped],
                _LIFE_CTA[life][cta],
                _EQUIP[e[0]][e[1]][e[2]][e[3]][e[4]],
                _HERO_TAIL[tile + 1 if status == IN else 0][p == active],
            )
        except IndexError:
            rows.append(_hero_row(status, hero, wounded, board_grasped, life, cta, tile, e, p == active))
    _WRITE_HEROES(out, 0, b"".join(rows))


#: [board][linked][cards on it] -> the board's row
_BOARD_ROWS = [
    [
        [_f32([float(k == bd) for k in range(4)] + [float(linked), float(n == 3), n / 3.0]) for n in range(4)]
        for linked in (0, 1)
    ]
    for bd in range(4)
]
_WRITE_BOARDS = _writer(4 * BD_SIZE)


def _boards(s, seat: int, out: np.ndarray) -> None:
    sp, heroes, rows = s.spaces, s.heroes, _BOARD_ROWS
    a, b, c, d = s.player_at
    _WRITE_BOARDS(
        out,
        0,
        b"".join(
            (
                rows[0][a >= 0 and heroes[a]["status"] == IN][(sp[0] >= 0) + (sp[1] >= 0) + (sp[2] >= 0)],
                rows[1][b >= 0 and heroes[b]["status"] == IN][(sp[3] >= 0) + (sp[4] >= 0) + (sp[5] >= 0)],
                rows[2][c >= 0 and heroes[c]["status"] == IN][(sp[6] >= 0) + (sp[7] >= 0) + (sp[8] >= 0)],
                rows[3][d >= 0 and heroes[d]["status"] == IN][(sp[9] >= 0) + (sp[10] >= 0) + (sp[11] >= 0)],
            )
        ),
    )


def _card_ids(s, seat: int, out: np.ndarray) -> None:
    for k, c in enumerate(s.spaces):
        if c >= 0:
            out[k, c] = 1.0
    card = pending_card(s)
    if card >= 0:
        out[12, card] = 1.0


# == the observer's own hints ======================================================================
def _hints(s, seat: int, out: np.ndarray) -> None:
    d = s.decision
    if d is not None and d["kind"] == "MAIN" and s.current_player == seat:
        out[:] = hints(s, seat)


def _hints_key(s, seat: int):
    """None while the block is zeros (not the observer's MAIN decision); a new value at each call
    otherwise (the hints read most of the position: they are computed anew, as they always were)."""
    d = s.decision
    if d is None or d["kind"] != "MAIN" or s.current_player != seat:
        return None
    return object()


# == keys ==========================================================================================
def _pending_key(s, d) -> tuple:
    """The rarer pending blocks' key (pending effect, combat, tower source, market whites, Kaela's
    second resolution): the few values they show; None while they are zeros."""
    kind = d["kind"]
    if kind == "CHOOSE_VICTIM":
        task = d["task"]
        return kind, task[1], task[5]
    if kind == "DISCARD_COLOR":
        return kind, d["victim"]
    if kind == "COMBAT_RESOLVE":
        # the token pool is the heroes' (their data, the active hero)
        return kind, tuple(d["dice"]), tuple(d["targets"]), s._heroes_ver, s.active
    if kind == "TOWER_DEST":
        return kind, d["src"]
    if kind == "GAIN_COLOR":
        return kind, d["whites"]
    return None


def _shared_key(s, seat: int) -> tuple:
    """The shared blocks' keys, one call; part i is the key of the blocks that name key_part=i."""
    d = s.decision
    if d is None:
        card = -1
    else:
        kind = d["kind"]  # pending_card(s), its common cases inlined
        card = -1 if kind == "MAIN" else d["card"] if kind == "PLACE_CARD" else pending_card(s)
    board, deck = s._board_ver, s.deck
    return (
        card,  # 0 pending_card
        # 1 global: the reserves (the heroes' tokens), the deck, the spaces, grasped tiles and boards
        (len(deck), deck[0] if deck else -1, s.vanquished, s.reserve_life, s.reserve_cta, *s.reserve_equip, board),
        board,  # 2 ongoing, spaces
        len(s.discard),  # 3 discard (the pile only grows)
        (board, s._places_ver, s.reserve_life > 0),  # 4 tiles, boards
        (s._heroes_ver, -1 if s.neutral else s.active),  # 5 heroes
        (board, card),  # 6 card_ids
        s._elements_ver,  # 7 elements
    )


# == frames: the index that brings a block from board 0's frame into board b's ===================
def _frames(name: str, b: int) -> np.ndarray:
    shape = {n: s for n, s, _ in (*DOCS, CARD_IDS_DOC)}[name]
    index = np.arange(_SIZES[name]).reshape(shape if isinstance(shape, tuple) else (shape,))
    seat = [(k + b) % 4 for k in range(4)]  # offset k shows absolute seat (k + b) mod 4
    space = [(j + 3 * b) % 12 for j in range(12)]  # relative space j shows absolute space (j + 3b) mod 12
    tile = list(C.ABS_TILE[b])  # relative tile r shows absolute tile ABS_TILE[b][r]
    out = index.copy()
    if name == "current_board":
        out[:] = index[seat]
    elif name == "pending_effect":
        out[NP + 2 :] = index[NP + 2 :][seat]
    elif name == "combat":
        for k in range(2):
            out[6 + 12 * k : 18 + 12 * k] = index[6 + 12 * k : 18 + 12 * k][space]
    elif name == "tower_source":
        out[:] = index[space]
    elif name == "elements":
        out[8:12] = index[8:12][seat]
    elif name == "tiles":
        out[:] = index[tile]
        h = TL["heroes"]
        out[:, h : h + 4] = out[:, h : h + 4][:, seat]
    elif name in ("spaces", "card_ids"):
        out[:12] = index[:12][space]
    elif name == "heroes":
        out[:] = index[seat]
        t = HR["tile"]
        out[:, t : t + 9] = out[:, t : t + 9][:, tile]
    elif name == "boards":
        out[:] = index[seat]
    return out.reshape(-1).astype(np.intp)


FRAMED = ("elements", "tiles", "spaces", "heroes", "boards", "card_ids")
#: block name -> per board, the flat index of the block in that board's frame into the absolute block
FRAMES = {name: tuple(_frames(name, b) for b in range(4)) for name in FRAMED}
assert all((f[0] == np.arange(len(f[0]))).all() for f in FRAMES.values()), "board 0's frame is the absolute one"


def _frame(name: str):
    frames = FRAMES[name]

    def frame(s, seat: int) -> np.ndarray:
        return frames[s.seat_of[seat]]

    frame.__name__ = f"_frame_{name}"
    return frame


# == the layouts ===================================================================================
_DECISION = ("decision", "current_player")
_OWN_READS = _DECISION + ("neutral", "active", "acted", "moved", "power_used", "board_turns", "board")
_BOARD = ("spaces", "sanct", "elements", "grasped", "_board_ver")
_HEROES = ("heroes", "_heroes_ver", "_places_ver")
#: block name -> (encoder, reads, key: a part of _shared_key, or the observer's own key function,
#: with the part of it as (function, part))
_BLOCKS = {
    "phase": (_phase, _DECISION, (_own_key, 0)),
    "turn": (_turn, _OWN_READS, (_own_key, 1)),
    "current_board": (_current_board, ("board",), (_own_key, 2)),
    "pending_card": (_pending_card, ("decision", "spaces"), 0),
    "pending_effect": (_pending_effect, ("decision",), _rare_key),
    "combat": (_combat, ("decision", "active") + _HEROES, _rare_key),
    "tower_source": (_tower_source, ("decision",), _rare_key),
    "market_whites": (_market_whites, ("decision",), _rare_key),
    "double_pending": (_double_pending, ("stack",), _rare_key),
    "global": (_global, ("deck", "vanquished", "reserve_life", "reserve_cta", "reserve_equip") + _BOARD + _HEROES, 1),
    "elements": (_elements, ("elements", "_elements_ver"), 7),
    "ongoing": (_ongoing, _BOARD, 2),
    "discard": (_discard, ("discard",), 3),
    "tiles": (_tiles, ("reserve_life",) + _BOARD + _HEROES, 4),
    "spaces": (_spaces, _BOARD, 2),
    "heroes": (_heroes, ("neutral", "active") + _HEROES, 5),
    "boards": (_boards, _BOARD + _HEROES, 4),
    "card_ids": (_card_ids, ("decision",) + _BOARD, 6),
}
#: state attributes fixed for a state's life (set up before the first decision)
CONSTANTS = ("game", "n", "W", "seat_of", "player_at", "layout")


#: the blocks whose encoder writes every float (packed bytes or a whole-table take): not zeroed first
_DENSE = frozenset(("turn", "global", "tiles", "spaces", "heroes", "boards"))


def _block(name: str, shape, doc: str) -> Block:
    encode, reads, part = _BLOCKS[name]
    dense = name in _DENSE
    if callable(part):
        return Block(name, shape, doc, encode, reads, key=part, dense=dense)
    if isinstance(part, tuple):
        key, part = part
        return Block(name, shape, doc, encode, reads, key=key, key_part=part, dense=dense)
    frame = _frame(name) if name in FRAMES else None
    return Block(name, shape, doc, encode, reads, True, _shared_key, frame, part, dense)


#: what the hints' analysis reads (analysis.py: public fields and queries)
_HINTS_READS = _DECISION + ("result", "heroes", "active", "board", "neutral", "spaces", "sanct", "grasped")
_HINTS_READS += ("elements", "deck", "reserve_cta", "reserve_life", "reserve_equip", "acted", "moved", "power_used")
_HINTS_BLOCK = Block(*HINTS_DOC, _hints, _HINTS_READS, key=_hints_key)


def _layout(card_ids: bool, with_hints: bool) -> ObservationLayout:
    blocks = [_block(*doc) for doc in DOCS]
    if card_ids:
        blocks.append(_block(*CARD_IDS_DOC))
    if with_hints:
        blocks.append(_HINTS_BLOCK)
    return ObservationLayout(blocks, low=0.0, high=1.0, constants=CONSTANTS)


OBSERVATION_LAYOUT = _layout(False, False)
#: option obs_card_ids=True: the same blocks, then a card-id one-hot per relative space and for the pending card
OBSERVATION_LAYOUT_CARD_IDS = _layout(True, False)
#: option obs_hints=True: either layout above, then the tactical hints block (envs/last_bastion/hints.py)
OBSERVATION_LAYOUT_HINTS = _layout(False, True)
OBSERVATION_LAYOUT_CARD_IDS_HINTS = _layout(True, True)
assert OBSERVATION_LAYOUT.size == 1243 and CARD_IDS_AT == OBSERVATION_LAYOUT.size
assert all(SL[b.name] == b.offset for b in OBSERVATION_LAYOUT.blocks)


def observation_layout(card_ids: bool, with_hints: bool) -> ObservationLayout:
    """The layout for the options obs_card_ids and obs_hints."""
    if with_hints:
        return OBSERVATION_LAYOUT_CARD_IDS_HINTS if card_ids else OBSERVATION_LAYOUT_HINTS
    return OBSERVATION_LAYOUT_CARD_IDS if card_ids else OBSERVATION_LAYOUT
