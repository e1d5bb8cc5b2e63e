"""Last Bastion's fast observation encoder: :func:`observe` gives the same float32 vector as
:func:`~envs.last_bastion.observation.observe_reference` (the definition, in observation.py), bit for
bit, at a fraction of the cost.

How. Each state keeps an :class:`ObservationCache` (``_obs_cache``, not part of its JSON): the
observation in the absolute frame (board 0's), part by part, then rotated into the observer's frame
by an index permutation (:data:`PERMUTATIONS`, one ``take``). The cache holds copies of the state
fields the parts read and compares them with the state's at each call (C-level ``!=``); a part is
rewritten only when a field it reads (``_*_READS``) differs. Copies, not version counters: a state
edited by hand in place is re-encoded too. The writers store only the non-zero fields (a numpy scalar
store is cheap, a Python list stored into a slice is not) or a ready-made row: the space rows from
:data:`CARD_TABLE` in one ``take``, the pending card from :data:`PENDING_TABLE`, hero rows and the
boards block from memos keyed by everything they show.
tests/envs/last_bastion/test_observation_cache.py compares the two encoders over random games and
hand edits.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne

import numpy as np

from envs.last_bastion import content as C
from envs.last_bastion.hints import hints
from envs.last_bastion.observation import (
    BD_SIZE,
    CARD_IDS_AT,
    CARD_VECTORS,
    HR,
    HR_SIZE,
    IS_WARLORD,
    NP,
    OBSERVATION_LAYOUT,
    OBSERVATION_LAYOUT_CARD_IDS,
    SL,
    SP,
    SP_SIZE,
    STATES3,
    STATES4,
    TL,
    TL_SIZE,
    _card_into,
    _discard,
    _effect_into,
    _observer,
    pending_card,
)


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
assert all((p[0] == np.arange(len(p[0]))).all() for p in PERMUTATIONS.values()), "board 0's frame is the absolute one"
_PREFIX = slice(0, SL["global"])  # phase .. double_pending
_TURN, _CURRENT_BOARD, _DOUBLE_PENDING = SL["turn"], SL["current_board"], SL["double_pending"]
_GLOBAL = slice(SL["global"], SL["global"] + 23)
_ELEMENTS = slice(SL["elements"], SL["elements"] + 22)
_ONGOING = slice(SL["ongoing"], SL["ongoing"] + 4)
_DISCARD = slice(SL["discard"], SL["discard"] + 6)
_SPACES = slice(SL["spaces"], SL["spaces"] + 12 * SP_SIZE)
_HEROES = slice(SL["heroes"], SL["heroes"] + 4 * HR_SIZE)
_BOARDS = slice(SL["boards"], SL["boards"] + 4 * BD_SIZE)
_PENDING_ID = slice(CARD_IDS_AT + 12 * C.NUM_CARDS, CARD_IDS_AT + 13 * C.NUM_CARDS)
_SPACE_IDS = slice(CARD_IDS_AT, CARD_IDS_AT + 12 * C.NUM_CARDS)
_TILE_HEROES = np.array([SL["tiles"] + TL_SIZE * t + TL["heroes"] + k for t in range(9) for k in range(4)])
_TILE_TYPES = np.array([SL["tiles"] + TL_SIZE * t + k for t in range(9) for k in range(9)])
_TILE_STATE = np.array(
    [SL["tiles"] + TL_SIZE * t + TL[f] for t in range(9) for f in ("grasped", "sealed", "completable")]
)
_TILE_AT = tuple(SL["tiles"] + TL_SIZE * t for t in range(9))
_GRASPED, _SEALED, _COMPLETABLE = TL["grasped"], TL["sealed"], TL["completable"]
_DIFFICULTY = {d: i for i, d in enumerate(C.DIFFICULTIES)}
_ONG_PRIMS = ("ONG_DIM", "ONG_SEAL", "ONG_NO_CTA", "ONG_WARD")
#: a space row per card with its effective resistance at the printed value (what it is unless the
#: Standard or the Enchantment is deployed), then a zero row: ``CARD_TABLE[spaces]`` is the whole
#: spaces block at once, an empty space (-1) picking the zero row
CARD_TABLE = np.zeros((C.NUM_CARDS + 1, SP_SIZE), np.float32)
for _c in range(C.NUM_CARDS):
    CARD_TABLE[_c] = CARD_VECTORS[_c]
    CARD_TABLE[_c, SP["effective_res"]] = C.CARDS[_c].resistance / 5.0
#: 1 for a Warlord, 0 for a Monster, and 0 at index -1 (an empty space)
_WARLORD_OR_EMPTY = IS_WARLORD + (False,)
# the hero fields some parts read: which parts a change of a hero's data touches
_POWER_FIELDS = itemgetter("status", "wounded", "board_grasped", "hero")
_PLACE_FIELDS = itemgetter("status", "tile")


#: pending_card per card: the space row (effective resistance = printed) and the entrance effect
_PENDING_CARD = slice(SL["pending_card"], SL["pending_card"] + SP_SIZE + NP + 1)
PENDING_TABLE = np.zeros((C.NUM_CARDS, SP_SIZE + NP + 1), np.float32)
for _c in range(C.NUM_CARDS):
    _card_into(PENDING_TABLE[_c], 0, _c, C.CARDS[_c].resistance)
    _effect_into(PENDING_TABLE[_c], SP_SIZE, C.CARDS[_c].entrance)
_VICTIM_PRIM = {"PLAGUE_WIND": "DISCARD_ALL_EQUIP", "SOUL_DRAIN": "LOSE_CTA"}


def _fast_decision(s, v: np.ndarray, card_ids: bool) -> None:
    """observation._decision_fields in the absolute frame (b = 0), the pending card as one table row."""
    d = s.decision
    kind = d["kind"]
    card = pending_card(s)
    if card >= 0:
        v[_PENDING_CARD] = PENDING_TABLE[card]
        if card_ids:
            v[CARD_IDS_AT + 12 * C.NUM_CARDS + card] = 1.0
    at = SL["pending_effect"]
    if kind == "CHOOSE_VICTIM":
        task = d["task"]
        prim, origin = task[1], task[5]
        v[at + C.PRIM[_VICTIM_PRIM.get(prim, prim)]] = 1.0
        if origin == "board":
            v[at + NP] = 1.0
        elif origin == "die":
            v[at + NP + 1] = 1.0
    elif kind == "DISCARD_COLOR":
        v[at + C.PRIM["DISCARD_EQUIP"]] = 1.0
        v[at + NP + 2 + s.seat_of[d["victim"]] % 4] = 1.0
    elif kind == "COMBAT_RESOLVE":
        at = SL["combat"]
        dice = [0.0] * 6
        for f in d["dice"]:
            dice[f] += 0.25
        v[at : at + 6] = dice
        for k, sp in enumerate(d["targets"]):
            v[at + 6 + 12 * k + sp % 12] = 1.0
        v[at + 30 : at + 35] = [min(n / 8.0, 1.0) for n in s.pool()]
    elif kind == "TOWER_DEST":
        v[SL["tower_source"] + d["src"] % 12] = 1.0
    elif kind == "GAIN_COLOR":
        v[SL["market_whites"]] = d["whites"] / 2.0


def _warlord_index(deck: list[int]) -> int:
    """Cards above the next Warlord (public), -1 for none."""
    for i, c in enumerate(deck):
        if IS_WARLORD[c]:
            return i
    return -1


def _fast_global(s, v: np.ndarray, changed: int, wl: int) -> None:
    """The global fields that read the changed data (the constant ones on the first call, when
    everything has changed)."""
    g = _GLOBAL.start
    if changed == _ALL:
        v[_GLOBAL] = 0.0
        v[g + s.n - 1] = 1.0
        v[g + 4 + _DIFFICULTY[s.game.options["difficulty"]]] = 1.0
        v[g + 11] = s.W / 3.0
    if changed & _BIT["deck"]:
        v[g + 8] = min(1.0, len(s.deck) / 50.0)
        v[g + 9] = wl / 50.0 if wl >= 0 else 0.0
        v[g + 10] = float(wl == 0)
    if changed & _BIT["tokens"]:
        v[g + 12], v[g + 16] = s.vanquished / 3.0, s.reserve_cta / 6.0
    if changed & _BIT["spaces"]:
        v[g + 13] = sum(map(_WARLORD_OR_EMPTY.__getitem__, s.spaces)) / 3.0
    if changed & _BIT["life"]:
        v[g + 15] = s.reserve_life / 16.0
    if changed & _BIT["reserve_equip"]:
        v[g + 17 : g + 22] = [x / 4.0 for x in s.reserve_equip]
    if changed & (_BIT["grasped"] | _BIT["power"]):
        grasped = sum(s.grasped)
        v[g + 14] = grasped / 3.0
        v[g + 22] = (C.GRASP_TOTAL - grasped - sum(h["board_grasped"] for h in s.heroes)) / 11.0  # _grasp_reserve()


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
    """grasped, sealed, completable per tile: cleared, then the ones written (a numpy scalar store
    is cheap, a list stored into a slice is not)"""
    v[_TILE_STATE] = 0.0
    at = _TILE_AT
    for t, g in enumerate(s.grasped):
        if g:
            v[at[t] + _GRASPED] = 1.0
    for t in s.central_effects()[2]:  # the sealed tiles
        v[at[t] + _SEALED] = 1.0
    completable = s.completable_types()
    for t, k in enumerate(s.layout):
        if completable[k]:
            v[at[t] + _COMPLETABLE] = 1.0


def _fast_tile_heroes(s, v: np.ndarray) -> None:
    v[_TILE_HEROES] = 0.0
    for p, h in enumerate(s.heroes):
        if h["status"] == "in":
            v[SL["tiles"] + TL_SIZE * h["tile"] + TL["heroes"] + s.seat_of[p] % 4] = 1.0


_ER, _SANCT = SP["effective_res"], SP["sanctified"]
_COLOUR = tuple(c.color for c in C.CARDS)


def _fast_spaces(s) -> np.ndarray:
    """The 12 space rows, from the card table, then what the elements and marks change."""
    sp = s.spaces
    blk = CARD_TABLE.take(sp, axis=0)  # take: faster than fancy indexing with a list
    el = s.elements
    std, ench = el["standard"], el["enchantment"]
    colour = std["where"] if std["state"] == "deployed" else None
    enchanted = ench["where"] if ench["state"] == "deployed" else None
    if colour is not None or enchanted is not None:  # only these lower a resistance
        for k in range(12):
            c = sp[k]
            if c >= 0 and (_COLOUR[c] == colour or k == enchanted):
                blk[k, _ER] = s.effective_resistance(k) / 5.0
    if max(s.sanct) >= 0:  # a sanctified space at all
        for k, mark in enumerate(s.sanct):
            if mark >= 0 and sp[k] >= 0:
                blk[k, _SANCT] = 1.0
    for name, field in (("net", SP["netted"]), ("enchantment", SP["enchanted"])):
        e = el[name]
        if e["state"] == "deployed" and 0 <= e["where"] and sp[e["where"]] >= 0:
            blk[e["where"], field] = 1.0
    trap = el["trap"]
    if trap["state"] == "deployed" and 0 <= trap["where"] and sp[trap["where"]] < 0:
        blk[trap["where"], SP["trap"]] = 1.0
    return blk.reshape(-1)


def _fast_ongoing(s, v: np.ndarray) -> None:
    v[_ONGOING] = 0.0
    counts = s.central_effects()[1]
    for k, prim in enumerate(_ONG_PRIMS):
        if counts[prim]:
            v[_ONGOING.start + k] = min(counts[prim] / 3.0, 1.0)


#: hero rows met so far, by everything a row shows: a row recurs often (a hero moving back and
#: forth, the active hero changing), and a lookup is cheaper than building it again
_HERO_ROWS: dict[tuple, np.ndarray] = {}
_ROW_FIELDS = itemgetter("status", "hero", "wounded", "board_grasped", "life", "cta", "tile")


def _hero_row(s, p: int, active: bool) -> np.ndarray:
    h = s.heroes[p]
    key = (*_ROW_FIELDS(h), *h["equip"], active)
    row = _HERO_ROWS.get(key)
    if row is None:
        if len(_HERO_ROWS) > 100_000:  # a bound, never reached in practice
            _HERO_ROWS.clear()
        row = _HERO_ROWS[key] = np.array(_fast_hero_row(s, p, active), np.float32)
    return row


def _fast_hero_row(s, p: int, active: bool) -> list[float]:
    h = s.heroes[p]
    row = [0.0] * HR_SIZE
    row[0] = 1.0
    status = h["status"]
    row[HR["status"] + ("in", "out", "dead").index(status)] = 1.0
    row[HR["hero"] + h["hero"]] = 1.0
    row[HR["wounded"]] = float(h["wounded"])
    # power_usable(p), from the fields at hand
    row[HR["power"]] = float(status == "in" and not h["wounded"] and not h["board_grasped"])
    row[HR["board_grasped"]] = float(h["board_grasped"])
    row[HR["life"]] = min(h["life"] / 6.0, 1.0)
    row[HR["cta"]] = min(h["cta"] / 6.0, 1.0)
    row[HR["equip"] : HR["equip"] + 5] = [x / 4.0 for x in h["equip"]]
    if status == "in":
        row[HR["tile"] + h["tile"]] = 1.0
    row[HR["active"]] = float(active)
    return row


#: the boards block per (hero in play, cards) of the four boards: 2^4 x 4^4 blocks at most
_BOARD_BLOCKS: dict[tuple, np.ndarray] = {}


def _fast_boards(s) -> np.ndarray:
    sp, heroes = s.spaces, s.heroes
    key = []
    for bd, p in enumerate(s.player_at):
        cards = (sp[3 * bd] >= 0) + (sp[3 * bd + 1] >= 0) + (sp[3 * bd + 2] >= 0)
        key.append((p >= 0 and heroes[p]["status"] == "in", cards))  # in_play(p), cards
    key = tuple(key)
    block = _BOARD_BLOCKS.get(key)
    if block is None:
        out = [0.0] * (4 * BD_SIZE)
        for bd, (in_play, cards) in enumerate(key):
            out[BD_SIZE * bd + bd] = 1.0
            out[BD_SIZE * bd + 4] = float(in_play)
            out[BD_SIZE * bd + 5] = float(cards == 3)
            out[BD_SIZE * bd + 6] = cards / 3.0
        block = _BOARD_BLOCKS[key] = np.array(out, np.float32)
    return block


#: the state fields some part reads, compared with the cache's copies in one go (``map(ne, ...)``)
_WATCHED = (
    "spaces",
    "sanct",
    "grasped",
    "layout",
    "seat_of",
    "player_at",
    "reserve_equip",
    "discard",
    "deck",
    "elements",
    "reserve_life",
    "vanquished",
    "reserve_cta",
)
_WATCHED_FIELDS = itemgetter(*_WATCHED)


def _copy_elements(elements: dict) -> dict:
    return {k: dict(e) for k, e in elements.items()}


def _same(x):
    return x


#: how each is copied: never a live list or dict, so that an in-place edit shows as a change
_COPY = tuple(
    _copy_elements if name == "elements" else _same if name in ("reserve_life", "vanquished", "reserve_cta") else list
    for name in _WATCHED
)
#: a bit per watched field, then two summaries of the heroes: "power" (status, wounded, board Grasp,
#: hero) and "place" (status, tile)
_BIT = {name: 1 << i for i, name in enumerate(_WATCHED + ("power", "place"))}
_WATCHED_BITS = tuple(_BIT[name] for name in _WATCHED)
_BIT["life"] = _BIT["reserve_life"]
_BIT["tokens"] = _BIT["vanquished"] | _BIT["reserve_cta"]
_ALL = (1 << len(_WATCHED) + 2) - 1  # the first call of a cache: everything differs from nothing


def _reads(*names: str) -> int:
    return sum(_BIT[name] for name in names)


# what each part's writer reads (the hero rows, below, follow each hero's own dict)
_GLOBAL_READS = _reads("deck", "spaces", "grasped", "tokens", "life", "reserve_equip", "power")
_TILE_STATE_READS = _reads("spaces", "sanct", "elements", "layout", "grasped", "power", "life")
_TILE_HEROES_READS = _reads("place", "seat_of")
_SPACES_READS = _reads("spaces", "sanct", "elements")  # and the ongoing counts
_BOARDS_READS = _reads("spaces", "player_at", "power")


class ObservationCache:
    """A state's observation in the absolute frame, without the observer-specific fields, kept
    between calls: each part is rewritten only when the state data it reads has changed.

    Change detection: the cache holds a copy of every piece of state data a part reads (lists
    copied, hero and element dicts copied with their inner lists, never a live reference, so an
    in-place edit by hand shows too) and compares it with the state's own at each call, one C-level
    ``!=`` per piece; a part is rewritten when one of the pieces it reads differs. The pending
    decision and turn fields change at almost every step and are rewritten every time. ``observe``
    then rotates the vector into the observer's frame (one ``take``, :data:`PERMUTATIONS`) and writes
    the observer-specific fields. Kept on the state as ``_obs_cache``, outside its JSON fields: a
    clone starts without one.
    """

    def __init__(self, size: int):
        self.v = np.zeros(size, np.float32)
        self.card_ids = size > CARD_IDS_AT
        self.copies: list = [None] * len(_WATCHED)  # the watched fields as last encoded
        self.heroes: list[dict] = []  # copies of the hero dicts as last encoded
        self.active = -1
        self.warlord_at = -1

    def _prefix(self, s) -> None:
        """turn (but the observer's fields), current_board, the pending decision, double_pending"""
        v = self.v
        v[_PREFIX] = 0.0
        if self.card_ids:
            v[_PENDING_ID] = 0.0
        # only the non-zero fields: the prefix was just cleared
        v[_TURN + 1 if s.neutral else _TURN] = 1.0
        if s.acted:
            v[_TURN + 4] = 1.0
        if s.moved:
            v[_TURN + 5] = 1.0
        if s.power_used:
            v[_TURN + 6] = 1.0
        turns = s.board_turns
        if turns:
            v[_TURN + 7] = turns / 120.0 if turns < 120 else 1.0
        v[_CURRENT_BOARD + s.board] = 1.0
        d = s.decision
        if d is not None and d["kind"] != "MAIN":
            _fast_decision(s, v, self.card_ids)
        for task in s.stack:
            if task[0] == "kaela":
                v[_DOUBLE_PENDING] = 1.0
                break

    def _hero_changes(self, s) -> tuple[list[int], bool, bool]:
        """(players whose hero data changed, whether a status / wound / board Grasp / hero changed,
        whether a status / tile changed), updating the copies."""
        heroes, seen = s.heroes, self.heroes
        if len(heroes) != len(seen):
            self.heroes = [dict(h, equip=list(h["equip"])) for h in heroes]
            return list(range(len(heroes))), True, True
        rows, power, place = [], False, False
        if heroes == seen:  # dict compares, the equip lists included
            return rows, power, place
        for p, h in enumerate(heroes):
            o = seen[p]
            if h != o:
                rows.append(p)
                power = power or _POWER_FIELDS(h) != _POWER_FIELDS(o)
                place = place or _PLACE_FIELDS(h) != _PLACE_FIELDS(o)
                seen[p] = dict(h, equip=list(h["equip"]))
        return rows, power, place

    def absolute(self, s) -> np.ndarray:
        v = self.v
        self._prefix(s)
        # which watched fields differ from the copies (C-level compares), then copy those
        current = _WATCHED_FIELDS(s.__dict__)
        differs = tuple(map(ne, current, self.copies))
        changed = sum(compress(_WATCHED_BITS, differs))  # a bit per field that differs (_BIT)
        if changed:
            copies = self.copies
            for i in compress(range(len(_WATCHED)), differs):
                copies[i] = _COPY[i](current[i])
        rows, power, place = self._hero_changes(s)
        if power:
            changed |= _BIT["power"]  # what power_usable, in_play and the Grasp reserve read
        if place:
            changed |= _BIT["place"]
        if not changed and not rows and self.active == (-1 if s.neutral else s.active):
            return v

        if changed & _BIT["deck"]:  # the next Warlord's position: a scan of the deck, on draws only
            self.warlord_at = _warlord_index(s.deck)
        if changed & _GLOBAL_READS:
            _fast_global(s, v, changed, self.warlord_at)
        if changed & _BIT["elements"]:
            v[_ELEMENTS] = _fast_elements(s)
        if changed & _BIT["layout"]:
            _fast_tile_types(s, v)
        if changed & _TILE_STATE_READS:
            _fast_tile_state(s, v)
        if changed & _TILE_HEROES_READS:
            _fast_tile_heroes(s, v)
        if changed & _SPACES_READS:
            v[_SPACES] = _fast_spaces(s)
            if self.card_ids:
                v[_SPACE_IDS] = 0.0
                for k, c in enumerate(s.spaces):
                    if c >= 0:
                        v[CARD_IDS_AT + C.NUM_CARDS * k + c] = 1.0
            _fast_ongoing(s, v)
        if changed & _BIT["discard"]:
            v[_DISCARD] = 0.0
            _discard(s, v)
        if changed & _BOARDS_READS:
            v[_BOARDS] = _fast_boards(s)
        # hero rows: the changed heroes, the old and the new active hero, all of them on new seats
        active = -1 if s.neutral else s.active
        if changed & _BIT["seat_of"]:
            v[_HEROES] = 0.0
            rows = range(len(s.heroes))
        elif active != self.active:
            rows = set(rows) | {p for p in (active, self.active) if 0 <= p < len(s.heroes)}
        self.active = active
        for p in rows:
            at = SL["heroes"] + HR_SIZE * s.seat_of[p]
            v[at : at + HR_SIZE] = _hero_row(s, p, p == active)
        return v


def observe(s, seat: int) -> np.ndarray:
    """The observation of player ``seat``: the same floats as ``observation.observe_reference``."""
    size = (OBSERVATION_LAYOUT_CARD_IDS if s.game.options["obs_card_ids"] else OBSERVATION_LAYOUT).size
    cache = s.__dict__.get("_obs_cache")
    if cache is None or len(cache.v) != size:
        cache = s._obs_cache = ObservationCache(size)
    board = s.seat_of[seat]
    # board 0's frame is the absolute one: a copy there, cheaper than the gather
    v = cache.absolute(s).take(PERMUTATIONS[size][board]) if board else cache.absolute(s).copy()
    _observer(s, v, seat)
    if s.game.options["obs_hints"]:
        return np.concatenate([v, hints(s, seat)])
    return v
