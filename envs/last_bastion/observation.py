"""Last Bastion observation: state x seat -> float32[1243] in [0, 1] (but see ``global`` field 8 in
docs/last_bastion.md, section 6), the same for 1-4 players.

Everything positional is in the observer's frame (its own board at the bottom: relative spaces 0-2,
relative tiles via ``content.REL_TILE``, seats as clockwise offsets); colours are absolute. Hidden:
the deck order, the undrawn Warlords' identities and the set-aside cards; the deck *structure*
(size, cards above the next Warlord) is public and given. This module reads the state's public
fields only; it does not import the rules (rules.py imports it).

Two encoders give the same floats: :func:`observe_reference`, every block written from scratch in
the observer's frame (the definition), and :func:`observe`, used by the state, which keeps an
:class:`ObservationCache` on the state (``_obs_cache``, not part of its JSON): the observation in
the absolute frame, part by part, each part rewritten only when its key (all the state data its
writer reads) changes, then rotated into the observer's frame by an index permutation
(:data:`PERMUTATIONS`). tests/envs/last_bastion/test_observation_cache.py compares the two.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

from envs.core.observation import ObservationLayout, field_offsets
from envs.last_bastion import content as C

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

OBSERVATION_LAYOUT = ObservationLayout(
    [
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
    ],
    low=0.0,
    high=1.0,
)
SL = {b.name: b.offset for b in OBSERVATION_LAYOUT.blocks}
#: option obs_card_ids=True: the same blocks, then a card-id one-hot per relative space and for the pending card
OBSERVATION_LAYOUT_CARD_IDS = ObservationLayout(
    [(b.name, b.shape, b.doc) for b in OBSERVATION_LAYOUT.blocks]
    + [("card_ids", (13, C.NUM_CARDS), "card-id one-hot per relative space (12), then the pending card")],
    low=0.0,
    high=1.0,
)
CARD_IDS_AT = OBSERVATION_LAYOUT.size
STATES3 = ("home", "deployed", "parked")
STATES4 = ("home", "deployed", "parked", "out")


def _effect_into(v: np.ndarray, at: int, e) -> None:
    if e is not None:
        v[at + C.PRIM[e.prim]] = 1.0
        if isinstance(e.arg, int):
            v[at + NP] = min(e.arg / 2.0, 1.0)


def _card_vector(card: int) -> np.ndarray:
    v = np.zeros(SP_SIZE, np.float32)
    _card_fill(v, 0, card)
    return v


def _card_into(v: np.ndarray, at: int, card: int, eff_res: int) -> None:
    v[at : at + SP_SIZE] = CARD_VECTORS[card]
    v[at + SP["effective_res"]] = eff_res / 5.0


def _card_fill(v: np.ndarray, at: int, card: int, eff_res: int = 0) -> None:
    c = C.CARDS[card]
    v[at + SP["occupied"]] = 1.0
    v[at + SP["colour"] + c.color] = 1.0
    v[at + SP["warlord"]] = float(c.warlord)
    v[at + SP["printed_res"]] = c.resistance / 5.0
    v[at + SP["effective_res"]] = eff_res / 5.0
    if c.central is not None:
        v[at + SP["ongoing" if c.central.prim in C.ONGOING else "recurring"]] = 1.0
        _effect_into(v, at + SP["central"], c.central)
    if c.exit is not None:
        _effect_into(v, at + SP["exit"], c.exit)
        if c.exit.prim == "GAIN_EQUIP":
            v[at + SP["exit_arg"]] = 0.5
            v[at + SP["exit_colour"] + (5 if c.exit.arg == C.ANY else c.exit.arg)] = 1.0


CARD_VECTORS = [_card_vector(c) for c in range(C.NUM_CARDS)]


# == the encoding, block by block ==================================================================
# Each writer fills its fields of ``v`` (zeros there on entry) in the frame of board ``b``; the
# observer-specific fields (phase, "observer is controller", "observer is active hero") are
# written by _observer alone. observe_reference() is all of them in the observer's frame, from
# scratch: the definition. observe() gives the same floats, faster (ObservationCache below).
def _observer(s, v: np.ndarray, seat: int) -> None:
    d = s.decision
    acting = d is not None and s.current_player == seat
    v[SL["phase"] + (PHASE_INDEX[d["kind"]] if acting else len(PHASES))] = 1.0
    v[SL["turn"] + 2] = float(acting)
    v[SL["turn"] + 3] = float(s.active == seat and not s.neutral)


def _pending(s, v: np.ndarray, b: int, card_ids: bool) -> None:
    """turn (but fields 2-3), current_board, pending_card/effect, combat, tower_source, market_whites,
    double_pending, and the pending card's id."""
    t = SL["turn"]
    v[t + (1 if s.neutral else 0)] = 1.0
    v[t + 4], v[t + 5], v[t + 6] = float(s.acted), float(s.moved), float(s.power_used)
    v[t + 7] = min(s.board_turns / 120.0, 1.0)
    v[SL["current_board"] + (s.board - b) % 4] = 1.0
    _decision_fields(s, v, b, card_ids)
    v[SL["double_pending"]] = float(any(task[0] == "kaela" for task in s.stack))


def _decision_fields(s, v: np.ndarray, b: int, card_ids: bool) -> None:
    """pending_card/effect, combat, tower_source, market_whites and the pending card's id (none for
    MAIN)."""
    d = s.decision
    if d is not None:
        kind = d["kind"]
        card = -1
        if kind == "PLACE_CARD":
            card = d["card"]
        elif kind == "CHOOSE_VICTIM" and d["src"] >= 0 and s.spaces[d["src"]] >= 0:
            card = s.spaces[d["src"]]
        if card >= 0 and card_ids:
            v[CARD_IDS_AT + 12 * C.NUM_CARDS + card] = 1.0
        if card >= 0:
            at = SL["pending_card"]
            _card_into(v, at, card, C.CARDS[card].resistance)
            _effect_into(v, at + SP_SIZE, C.CARDS[card].entrance)
        at = SL["pending_effect"]
        if kind == "CHOOSE_VICTIM":
            prim = d["task"][1]
            origin = d["task"][5]
            prim = {"PLAGUE_WIND": "DISCARD_ALL_EQUIP", "SOUL_DRAIN": "LOSE_CTA"}.get(prim, prim)
            v[at + C.PRIM[prim]] = 1.0
            v[at + NP] = float(origin == "board")
            v[at + NP + 1] = float(origin == "die")
        elif kind == "DISCARD_COLOR":
            v[at + C.PRIM["DISCARD_EQUIP"]] = 1.0
            v[at + NP + 2 + (s.seat_of[d["victim"]] - b) % 4] = 1.0
        if kind == "COMBAT_RESOLVE":
            at = SL["combat"]
            for f in d["dice"]:
                v[at + f] += 0.25
            for k, sp in enumerate(d["targets"]):
                v[at + 6 + 12 * k + (sp - 3 * b) % 12] = 1.0
            for c, n in enumerate(s.pool()):
                v[at + 30 + c] = min(n / 8.0, 1.0)
        if kind == "TOWER_DEST":
            v[SL["tower_source"] + (d["src"] - 3 * b) % 12] = 1.0
        if kind == "GAIN_COLOR":
            v[SL["market_whites"]] = d["whites"] / 2.0


def _global(s, v: np.ndarray) -> None:
    g = SL["global"]
    v[g + s.n - 1] = 1.0
    v[g + 4 + C.DIFFICULTIES.index(s.game.options["difficulty"])] = 1.0
    v[g + 8] = min(1.0, len(s.deck) / 50.0)  # 4 heroes at Difficult and Heroic start above 50
    wl = next((i for i, c in enumerate(s.deck) if IS_WARLORD[c]), -1)  # positions are public
    v[g + 9] = wl / 50.0 if wl >= 0 else 0.0
    v[g + 10] = float(wl == 0)
    in_play = sum(1 for c in s.spaces if c >= 0 and IS_WARLORD[c])
    v[g + 11], v[g + 12], v[g + 13] = s.W / 3.0, s.vanquished / 3.0, in_play / 3.0
    v[g + 14] = sum(s.grasped) / 3.0
    v[g + 15], v[g + 16] = s.reserve_life / 16.0, s.reserve_cta / 6.0
    for c in range(5):
        v[g + 17 + c] = s.reserve_equip[c] / 4.0
    v[g + 22] = s._grasp_reserve() / 11.0


def _elements(s, v: np.ndarray, b: int) -> None:
    e = SL["elements"]
    std = s.elements["standard"]
    v[e + STATES3.index(std["state"])] = 1.0
    if std["state"] == "deployed":
        v[e + 3 + std["where"]] = 1.0
        v[e + 8 + (std["seat"] - b) % 4] = 1.0
    v[e + 12 + STATES3.index(s.elements["trap"]["state"])] = 1.0
    v[e + 15 + STATES3.index(s.elements["net"]["state"])] = 1.0
    v[e + 18 + STATES4.index(s.elements["enchantment"]["state"])] = 1.0


def _ongoing(s, v: np.ndarray) -> None:
    o = SL["ongoing"]
    counts = s.ongoing_counts()
    for k, prim in enumerate(("ONG_DIM", "ONG_SEAL", "ONG_NO_CTA", "ONG_WARD")):
        v[o + k] = min(counts[prim] / 3.0, 1.0)


def _discard(s, v: np.ndarray) -> None:
    di = SL["discard"]
    for card in s.discard:
        v[di + C.CARDS[card].color] += 0.1
    v[di + 5] = len(s.discard) / 50.0
    np.minimum(v[di : di + 5], 1.0, out=v[di : di + 5])


def _tile_features(s, v: np.ndarray, b: int) -> None:
    """Per tile: type, grasped, sealed, completable (not the heroes on it)."""
    base, rel_tile = SL["tiles"], C.REL_TILE[b]
    sealed = s.sealed_tiles()
    completable = [s.completable(k) for k in range(len(C.TILES))]
    for at_t in range(9):
        at = base + TL_SIZE * rel_tile[at_t]
        v[at + s.layout[at_t]] = 1.0
        v[at + TL["grasped"]] = float(s.grasped[at_t])
        v[at + TL["sealed"]] = float(at_t in sealed)
        v[at + TL["completable"]] = float(completable[s.layout[at_t]])


def _tile_heroes(s, v: np.ndarray, b: int) -> None:
    base, rel_tile = SL["tiles"], C.REL_TILE[b]
    for p, h in enumerate(s.heroes):
        if h["status"] == "in":
            v[base + TL_SIZE * rel_tile[h["tile"]] + TL["heroes"] + (s.seat_of[p] - b) % 4] = 1.0


def _spaces(s, v: np.ndarray, b: int, card_ids: bool) -> None:
    """The space rows and their card-id one-hots."""
    base = SL["spaces"]
    net, ench, trap = s.elements["net"], s.elements["enchantment"], s.elements["trap"]
    for sp in range(12):
        at = base + SP_SIZE * ((sp - 3 * b) % 12)
        if s.spaces[sp] >= 0:
            _card_into(v, at, s.spaces[sp], s.effective_resistance(sp))
            if card_ids:
                v[CARD_IDS_AT + C.NUM_CARDS * ((sp - 3 * b) % 12) + s.spaces[sp]] = 1.0
            v[at + SP["netted"]] = float(net["state"] == "deployed" and net["where"] == sp)
            v[at + SP["sanctified"]] = float(s.sanct[sp] >= 0)
            v[at + SP["enchanted"]] = float(ench["state"] == "deployed" and ench["where"] == sp)
        elif trap["state"] == "deployed" and trap["where"] == sp:
            v[at + SP["trap"]] = 1.0


def _hero_row(s, v: np.ndarray, b: int, p: int) -> None:
    h = s.heroes[p]
    at = SL["heroes"] + HR_SIZE * ((s.seat_of[p] - b) % 4)
    v[at] = 1.0
    v[at + HR["status"] + ("in", "out", "dead").index(h["status"])] = 1.0
    v[at + HR["hero"] + h["hero"]] = 1.0
    v[at + HR["wounded"]] = float(h["wounded"])
    v[at + HR["power"]] = float(s.power_usable(p))
    v[at + HR["board_grasped"]] = float(h["board_grasped"])
    v[at + HR["life"]] = min(h["life"] / 6.0, 1.0)
    v[at + HR["cta"]] = min(h["cta"] / 6.0, 1.0)
    for c in range(5):
        v[at + HR["equip"] + c] = h["equip"][c] / 4.0
    if h["status"] == "in":
        v[at + HR["tile"] + C.REL_TILE[b][h["tile"]]] = 1.0
    v[at + HR["active"]] = float(p == s.active and not s.neutral)


def _boards(s, v: np.ndarray, b: int) -> None:
    base = SL["boards"]
    for bd in range(4):
        at = base + BD_SIZE * ((bd - b) % 4)
        v[at + bd] = 1.0
        v[at + 4] = float(s.in_play(s.player_at[bd]))
        cards = sum(1 for k in range(3) if s.spaces[3 * bd + k] >= 0)
        v[at + 5] = float(cards == 3)
        v[at + 6] = cards / 3.0


IS_WARLORD = tuple(c.warlord for c in C.CARDS)


def observe_reference(s, seat: int) -> np.ndarray:
    """The observation of player ``seat`` (a player index; the frame is its board's), from scratch."""
    card_ids = s.game.options["obs_card_ids"]
    v = np.zeros((OBSERVATION_LAYOUT_CARD_IDS if card_ids else OBSERVATION_LAYOUT).size, np.float32)
    b = s.seat_of[seat]
    _observer(s, v, seat)
    _pending(s, v, b, card_ids)
    _global(s, v)
    _elements(s, v, b)
    _ongoing(s, v)
    _discard(s, v)
    _tile_features(s, v, b)
    _tile_heroes(s, v, b)
    _spaces(s, v, b, card_ids)
    for p in range(len(s.heroes)):
        _hero_row(s, v, b, p)
    _boards(s, v, b)
    return v


# == the fast encoder: one cached absolute-frame vector per state, rotated per observer ===========
def _frame_permutation(b: int, size: int) -> np.ndarray:
    """Index array ``P`` with ``observation in board b's frame == absolute[P]``, where ``absolute`` is
    the observation in board 0's frame (the absolute frame). Only positions move: a relative seat
    offset k shows seat (k + b) mod 4, a relative space j shows space (j + 3 b) mod 12, a relative
    tile r shows tile ABS_TILE[b][r]."""
    perm = np.arange(size)
    seat = np.array([(k + b) % 4 for k in range(4)])
    space = np.array([(j + 3 * b) % 12 for j in range(12)])
    tile = np.array(C.ABS_TILE[b])

    def rows(block: str, width: int, shown: np.ndarray) -> None:
        base = SL[block]
        for r, src in enumerate(shown):
            perm[base + width * r : base + width * (r + 1)] = base + width * src + np.arange(width)

    perm[SL["current_board"] + np.arange(4)] = SL["current_board"] + seat
    perm[SL["pending_effect"] + NP + 2 + np.arange(4)] = SL["pending_effect"] + NP + 2 + seat
    for k in range(2):
        perm[SL["combat"] + 6 + 12 * k + np.arange(12)] = SL["combat"] + 6 + 12 * k + space
    perm[SL["tower_source"] + np.arange(12)] = SL["tower_source"] + space
    perm[SL["elements"] + 8 + np.arange(4)] = SL["elements"] + 8 + seat
    rows("tiles", TL_SIZE, tile)
    for r in range(9):
        at = SL["tiles"] + TL_SIZE * r + TL["heroes"]
        perm[at : at + 4] = SL["tiles"] + TL_SIZE * tile[r] + TL["heroes"] + seat
    rows("spaces", SP_SIZE, space)
    rows("heroes", HR_SIZE, seat)
    for k in range(4):
        at = SL["heroes"] + HR_SIZE * k + HR["tile"]
        perm[at : at + 9] = SL["heroes"] + HR_SIZE * seat[k] + HR["tile"] + tile
    rows("boards", BD_SIZE, seat)
    if size > CARD_IDS_AT:
        for j in range(12):
            at, src = CARD_IDS_AT + C.NUM_CARDS * j, CARD_IDS_AT + C.NUM_CARDS * space[j]
            perm[at : at + C.NUM_CARDS] = src + np.arange(C.NUM_CARDS)
    return perm


PERMUTATIONS = {
    size: [_frame_permutation(b, size) for b in range(4)]
    for size in (OBSERVATION_LAYOUT.size, OBSERVATION_LAYOUT_CARD_IDS.size)
}
# the fast writers: absolute frame, each part built as a list or a small array and stored at once
_PREFIX = slice(0, SL["global"])  # phase .. double_pending
_GLOBAL = slice(SL["global"], SL["global"] + 23)
_ELEMENTS = slice(SL["elements"], SL["elements"] + 22)
_DISCARD = slice(SL["discard"], SL["discard"] + 6)
_SPACES = slice(SL["spaces"], SL["spaces"] + 12 * SP_SIZE)
_BOARDS = slice(SL["boards"], SL["boards"] + 4 * BD_SIZE)
_PENDING_ID = slice(CARD_IDS_AT + 12 * C.NUM_CARDS, CARD_IDS_AT + 13 * C.NUM_CARDS)
_SPACE_IDS = slice(CARD_IDS_AT, CARD_IDS_AT + 12 * C.NUM_CARDS)
_TILE_HEROES = np.array([SL["tiles"] + TL_SIZE * t + TL["heroes"] + k for t in range(9) for k in range(4)])
_TILE_TYPES = np.array([SL["tiles"] + TL_SIZE * t + k for t in range(9) for k in range(9)])
_TILE_STATE = np.array(
    [SL["tiles"] + TL_SIZE * t + TL[f] for t in range(9) for f in ("grasped", "sealed", "completable")]
)
_DIFFICULTY = {d: i for i, d in enumerate(C.DIFFICULTIES)}
# the hero fields the cache keys hold
_POWER_FIELDS = itemgetter("status", "wounded", "board_grasped", "hero")
_PLACE_FIELDS = itemgetter("status", "tile")
_TOKEN_FIELDS = itemgetter("life", "cta")
_EQUIP = itemgetter("equip")


def _fast_global(s) -> list[float]:
    g = [0.0] * 23
    g[s.n - 1] = 1.0
    g[4 + _DIFFICULTY[s.game.options["difficulty"]]] = 1.0
    deck = s.deck
    g[8] = min(1.0, len(deck) / 50.0)
    wl = next((i for i, c in enumerate(deck) if IS_WARLORD[c]), -1)
    g[9] = wl / 50.0 if wl >= 0 else 0.0
    g[10] = float(wl == 0)
    g[11], g[12] = s.W / 3.0, s.vanquished / 3.0
    g[13] = sum(1 for c in s.spaces if c >= 0 and IS_WARLORD[c]) / 3.0
    g[14] = sum(s.grasped) / 3.0
    g[15], g[16] = s.reserve_life / 16.0, s.reserve_cta / 6.0
    g[17:22] = [x / 4.0 for x in s.reserve_equip]
    g[22] = s._grasp_reserve() / 11.0
    return g


def _fast_elements(s) -> list[float]:
    e = [0.0] * 22
    std = s.elements["standard"]
    e[STATES3.index(std["state"])] = 1.0
    if std["state"] == "deployed":
        e[3 + std["where"]] = 1.0
        e[8 + std["seat"] % 4] = 1.0
    e[12 + STATES3.index(s.elements["trap"]["state"])] = 1.0
    e[15 + STATES3.index(s.elements["net"]["state"])] = 1.0
    e[18 + STATES4.index(s.elements["enchantment"]["state"])] = 1.0
    return e


def _fast_tile_types(s, v: np.ndarray) -> None:
    v[_TILE_TYPES] = 0.0
    for t, k in enumerate(s.layout):
        v[SL["tiles"] + TL_SIZE * t + k] = 1.0


def _fast_tile_state(s, v: np.ndarray) -> None:
    """grasped, sealed, completable"""
    v[_TILE_STATE] = 0.0
    base = SL["tiles"]
    for t in range(9):
        if s.grasped[t]:
            v[base + TL_SIZE * t + TL["grasped"]] = 1.0
    for t in s.sealed_tiles():
        v[base + TL_SIZE * t + TL["sealed"]] = 1.0
    completable = s.completable_types()
    for t, k in enumerate(s.layout):
        if completable[k]:
            v[base + TL_SIZE * t + TL["completable"]] = 1.0


def _fast_tile_heroes(s, v: np.ndarray) -> None:
    v[_TILE_HEROES] = 0.0
    for p, h in enumerate(s.heroes):
        if h["status"] == "in":
            v[SL["tiles"] + TL_SIZE * h["tile"] + TL["heroes"] + s.seat_of[p] % 4] = 1.0


def _fast_spaces(s, v: np.ndarray) -> None:
    v[_SPACES] = 0.0
    sp = s.spaces
    base = SL["spaces"]
    for k in range(12):
        c = sp[k]
        if c >= 0:
            at = base + SP_SIZE * k
            v[at : at + SP_SIZE] = CARD_VECTORS[c]
            v[at + SP["effective_res"]] = s.effective_resistance(k) / 5.0
            if s.sanct[k] >= 0:
                v[at + SP["sanctified"]] = 1.0
    for name, field in (("net", "netted"), ("enchantment", "enchanted")):
        e = s.elements[name]
        if e["state"] == "deployed" and sp[e["where"]] >= 0:
            v[base + SP_SIZE * e["where"] + SP[field]] = 1.0
    trap = s.elements["trap"]
    if trap["state"] == "deployed" and sp[trap["where"]] < 0:
        v[base + SP_SIZE * trap["where"] + SP["trap"]] = 1.0


def _fast_hero_row(s, p: int, active: bool) -> list[float]:
    h = s.heroes[p]
    row = [0.0] * HR_SIZE
    row[0] = 1.0
    row[HR["status"] + ("in", "out", "dead").index(h["status"])] = 1.0
    row[HR["hero"] + h["hero"]] = 1.0
    row[HR["wounded"]] = float(h["wounded"])
    row[HR["power"]] = float(s.power_usable(p))
    row[HR["board_grasped"]] = float(h["board_grasped"])
    row[HR["life"]] = min(h["life"] / 6.0, 1.0)
    row[HR["cta"]] = min(h["cta"] / 6.0, 1.0)
    row[HR["equip"] : HR["equip"] + 5] = [x / 4.0 for x in h["equip"]]
    if h["status"] == "in":
        row[HR["tile"] + h["tile"]] = 1.0
    row[HR["active"]] = float(active)
    return row


def _fast_boards(s) -> list[float]:
    out = [0.0] * (4 * BD_SIZE)
    sp = s.spaces
    for bd in range(4):
        at = BD_SIZE * bd
        out[at + bd] = 1.0
        out[at + 4] = float(s.in_play(s.player_at[bd]))
        cards = (sp[3 * bd] >= 0) + (sp[3 * bd + 1] >= 0) + (sp[3 * bd + 2] >= 0)
        out[at + 5] = float(cards == 3)
        out[at + 6] = cards / 3.0
    return out


class ObservationCache:
    """A state's observation in the absolute frame, without the observer-specific fields, kept
    between calls: each part is rewritten only when the state data it reads has changed.

    Every cached part has a key: a tuple of *all* the state data its writer reads, so a state
    edited by hand is re-encoded too. The parts that change at almost every step (the pending
    decision and turn fields, global counters, elements) are rewritten every time. ``observe``
    then rotates the vector into the observer's frame (one fancy-indexing copy,
    :data:`PERMUTATIONS`) and writes the observer-specific fields. Kept on the state as
    ``_obs_cache``, outside its JSON fields: a clone starts without one.
    """

    def __init__(self, size: int):
        self.v = np.zeros(size, np.float32)
        self.card_ids = size > CARD_IDS_AT
        self.keys: dict = {}

    def absolute(self, s) -> np.ndarray:
        v, keys = self.v, self.keys
        v[_PREFIX] = 0.0
        if self.card_ids:
            v[_PENDING_ID] = 0.0
        turn = SL["turn"]  # only the non-zero fields: the prefix was just cleared
        v[turn + (1 if s.neutral else 0)] = 1.0
        for k, flag in ((4, s.acted), (5, s.moved), (6, s.power_used)):
            if flag:
                v[turn + k] = 1.0
        v[turn + 7] = min(s.board_turns / 120.0, 1.0)
        v[SL["current_board"] + s.board] = 1.0
        if s.decision is not None and s.decision["kind"] != "MAIN":
            _decision_fields(s, v, 0, self.card_ids)
        for task in s.stack:
            if task[0] == "kaela":
                v[SL["double_pending"]] = 1.0
                break

        heroes, spaces, grasped = s.heroes, tuple(s.spaces), tuple(s.grasped)
        elements = tuple(map(tuple, map(dict.values, s.elements.values())))
        cards = (spaces, tuple(s.sanct), elements)
        powers = tuple(map(_POWER_FIELDS, heroes))  # what power_usable and completable read
        places = tuple(map(_PLACE_FIELDS, heroes))
        key = (tuple(s.deck), spaces, s.vanquished, grasped, s.reserve_life, s.reserve_cta, tuple(s.reserve_equip))
        if keys.get("global") != (key, powers):
            keys["global"] = (key, powers)
            v[_GLOBAL] = _fast_global(s)
        if keys.get("elements") != elements:
            keys["elements"] = elements
            v[_ELEMENTS] = _fast_elements(s)
        layout, seats = tuple(s.layout), tuple(s.seat_of)
        if keys.get("tile_types") != layout:
            keys["tile_types"] = layout
            _fast_tile_types(s, v)
        key = (cards, layout, grasped, powers, s.reserve_life)
        if keys.get("tile_state") != key:
            keys["tile_state"] = key
            _fast_tile_state(s, v)
        if keys.get("tile_heroes") != (places, seats):
            keys["tile_heroes"] = (places, seats)
            _fast_tile_heroes(s, v)
        if keys.get("cards") != cards:
            keys["cards"] = cards
            _fast_spaces(s, v)
            if self.card_ids:
                v[_SPACE_IDS] = 0.0
                for k, c in enumerate(spaces):
                    if c >= 0:
                        v[CARD_IDS_AT + C.NUM_CARDS * k + c] = 1.0
            _ongoing(s, v)
        discard = tuple(s.discard)
        if keys.get("discard") != discard:
            keys["discard"] = discard
            v[_DISCARD] = 0.0
            _discard(s, v)
        key = (spaces, tuple(s.player_at), places)
        if keys.get("boards") != key:
            keys["boards"] = key
            v[_BOARDS] = _fast_boards(s)
        if keys.get("seats") != seats:  # new seats: start the hero rows again
            keys["seats"] = seats
            v[SL["heroes"] : SL["heroes"] + 4 * HR_SIZE] = 0.0
            keys["heroes"] = ()
        active = -1 if s.neutral else s.active
        rows = tuple(zip(powers, places, map(_TOKEN_FIELDS, heroes), map(tuple, map(_EQUIP, heroes))))
        if keys.get("heroes") != (rows, active):
            old = keys.get("heroes") or ((), -1)
            for p, row in enumerate(rows):
                if p >= len(old[0]) or old[0][p] != row or (p == active) != (p == old[1]):
                    at = SL["heroes"] + HR_SIZE * s.seat_of[p]
                    v[at : at + HR_SIZE] = _fast_hero_row(s, p, p == active)
            keys["heroes"] = (rows, active)
        return v


def observe(s, seat: int) -> np.ndarray:
    """The observation of player ``seat``: the same floats as :func:`observe_reference`."""
    size = (OBSERVATION_LAYOUT_CARD_IDS if s.game.options["obs_card_ids"] else OBSERVATION_LAYOUT).size
    cache = s.__dict__.get("_obs_cache")
    if cache is None or len(cache.v) != size:
        cache = s._obs_cache = ObservationCache(size)
    v = cache.absolute(s)[PERMUTATIONS[size][s.seat_of[seat]]]
    _observer(s, v, seat)
    return v
