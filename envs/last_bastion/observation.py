"""Last Bastion observation: state x seat -> float32[1243] in [0, 1] (but see ``global`` field 8 in
docs/last_bastion.md, section 6), the same for 1-4 players.

Everything positional is in the observer's frame (its own board at the bottom: relative spaces 0-2,
relative tiles via ``content.REL_TILE``, seats as clockwise offsets); colours are absolute. Hidden:
the deck order, the undrawn Warlords' identities and the set-aside cards; the deck *structure*
(size, cards above the next Warlord) is public and given. This module reads the state's public
fields and queries only; it does not import the rules (state.py imports the encoders).

Two encoders give the same floats: :func:`observe_reference` here, every block written from scratch
in the observer's frame (the definition), and ``observation_fast.observe``, used by the state, which
keeps a cache of the observation in the absolute frame, part by part, on the state and rotates it
into the observer's frame. tests/envs/last_bastion/test_observation_cache.py compares the two.
"""

from __future__ import annotations

import numpy as np

from envs.core.observation import ObservationLayout, field_offsets
from envs.last_bastion import content as C
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
_HINTS_BLOCK = ("hints", HINTS_SIZE, "option obs_hints=True: the heuristic's worth of the MAIN choices (hints.py)")
#: option obs_hints=True: either layout above, then the tactical hints block (envs/last_bastion/hints.py)
OBSERVATION_LAYOUT_HINTS = ObservationLayout(
    [(b.name, b.shape, b.doc) for b in OBSERVATION_LAYOUT.blocks] + [_HINTS_BLOCK], low=0.0, high=1.0
)
OBSERVATION_LAYOUT_CARD_IDS_HINTS = ObservationLayout(
    [(b.name, b.shape, b.doc) for b in OBSERVATION_LAYOUT_CARD_IDS.blocks] + [_HINTS_BLOCK], low=0.0, high=1.0
)


def observation_layout(card_ids: bool, with_hints: bool) -> ObservationLayout:
    """The layout for the options obs_card_ids and obs_hints."""
    if with_hints:
        return OBSERVATION_LAYOUT_CARD_IDS_HINTS if card_ids else OBSERVATION_LAYOUT_HINTS
    return OBSERVATION_LAYOUT_CARD_IDS if card_ids else OBSERVATION_LAYOUT


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
# scratch: the definition. observation_fast.observe() gives the same floats, faster.
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


def pending_card(s) -> int:
    """The card the open decision is about: the one being placed, or the source of a victim choice; else -1."""
    d = s.decision
    if d["kind"] == "PLACE_CARD":
        return d["card"]
    if d["kind"] == "CHOOSE_VICTIM" and d["src"] >= 0 and s.spaces[d["src"]] >= 0:
        return s.spaces[d["src"]]
    return -1


def _decision_fields(s, v: np.ndarray, b: int, card_ids: bool) -> None:
    """pending_card/effect, combat, tower_source, market_whites and the pending card's id (none for
    MAIN)."""
    d = s.decision
    if d is not None:
        kind = d["kind"]
        card = pending_card(s)
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
    v[g + 22] = s.grasp_reserve() / 11.0


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
    if s.game.options["obs_hints"]:
        return np.concatenate([v, hints(s, seat)])
    return v
