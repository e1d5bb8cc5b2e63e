"""Last Heroes observation: state x seat -> float32[1036], seat-relative, the same for 2-5 players.

Seat r is the player r places clockwise after the observer; seats and columns beyond the table
are zeros. Per-seat rows and the battlefield are cached by the state's version counters and
rebuilt only when they change; the few observer-dependent entries (acting seat, own hand,
standee owners, "could kill it now") are written on top.
"""

from __future__ import annotations

import numpy as np

from envs.core.observation import ObservationLayout
from envs.last_heroes.content import JOKER_CAP, MAX_PLAYERS, NUM_KINDS, NUM_LEVELS, NUM_POWERS
from envs.last_heroes.rules import (
    EXCHANGE_GIVE,
    HELD,
    IMPACT,
    L1_GIVE,
    LOAD_SOURCE,
    NO,
    SETUP_PICK,
    assign,
    impact_assignment,
)

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


def _offsets(fields):
    out, at = {}, 0
    for name, size, _ in fields:
        out[name] = at
        at += size
    return out, at


SEAT, SEAT_SIZE = _offsets(SEAT_FIELDS)
SLOT, SLOT_SIZE = _offsets(SLOT_FIELDS)
COLUMN_HEAD = 8  # in play (1), artefact on pedestal (1), its power one-hot (6)
COLUMN_SIZE = COLUMN_HEAD + NUM_LEVELS * SLOT_SIZE

OBSERVATION_LAYOUT = ObservationLayout(
    [
        (
            "global",
            32,
            "players one-hot (4: 2..5); round one-hot (10); phase one-hot (7); attacks this turn "
            "one-hot (3); weapon types in play (5); artefacts on pedestals / n; artefacts held / n; "
            "setup picks made by the actor / 2",
        ),
        ("hand", NUM_KINDS, "own hand, count per kind / 5"),
        ("seats", (MAX_PLAYERS, SEAT_SIZE), "per relative seat (0 = observer); row fields below"),
        (
            "columns",
            (MAX_PLAYERS, COLUMN_SIZE),
            "per absolute column: in play, artefact on pedestal, its power "
            "one-hot (6), then three level slots (fields below)",
        ),
        ("decks", 3 + 36, "cards left per level (/15, /12, /9); per monster id, 1 if still in a deck"),
        ("cards", 2 * NUM_KINDS, "discard pile per kind / 5; cards in opponents' hands per kind / 5"),
        (
            "pending",
            51,
            "kind being loaded one-hot (15); Ammo still to source / 3; Magazine cards used by this "
            "load by (seat, slot) (10); kind taken by a pending EXCHANGE one-hot (15); slot chosen "
            "for a pending Level-1 swap by (seat, slot) one-hot (10)",
        ),
        ("tiles", NUM_POWERS * 4, "per power: not in game / on a pedestal / held unused / used, one-hot"),
    ],
    low=-1.0,
    high=1.0,
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
DECK_SCALE = (15.0, 12.0, 9.0)


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else (min(x, 1.0))


class _Cache:
    __slots__ = ("board_ver", "cards", "cards_ver", "columns", "kill_flags", "seat_rows", "seat_ver")

    def __init__(self, n: int):
        self.seat_rows = [np.zeros(SEAT_SIZE, np.float32) for _ in range(n)]
        self.seat_ver = [-1] * n
        self.columns = np.zeros(MAX_PLAYERS * COLUMN_SIZE, np.float32)
        self.board_ver = -1
        self.cards = np.zeros(39 + NUM_KINDS, np.float32)
        self.cards_ver = -1
        self.kill_flags: dict = {}


def _seat_row(state, i: int, row: np.ndarray) -> None:
    """Everything public about seat i that does not depend on who observes."""
    game = state.game
    row.fill(0.0)
    row[SEAT["present"]] = 1.0
    if i == state.first:
        row[SEAT["first"]] = 1.0
    row[SEAT["hand_size"]] = sum(state.hands[i]) / 12.0
    for slot, base in ((0, SEAT["slot0"]), (1, SEAT["slot1"])):
        k = state.mag_kind[i][slot]
        if k != NO:
            ammo = state.mag_ammo[i][slot]
            row[base + k] = 1.0
            row[base + 15] = ammo / 3.0
            if ammo == 0:
                row[base + 16] = 1.0
    row[SEAT["jokers"] + min(state.jokers[i], JOKER_CAP)] = 1.0
    row[SEAT["wheel"]] = _clip(state.wheel[i] / 20.0)
    loaded = state.loaded[i]
    base = SEAT["loaded_kinds"]
    for k in range(NUM_KINDS):
        if loaded[k]:
            row[base + k] = loaded[k] / 5.0
    base = SEAT["loaded_powers"]
    for p in range(3):
        row[base + p] = min(state.loaded_power[i][p] / 12.0, 1.0)
    row[SEAT["kills"]] = min(len(state.kills[i]) / 15.0, 1.0)
    row[SEAT["kills"] + 1] = min(state.vp[i] / 40.0, 1.0)
    for p in state.artefacts[i]:
        row[SEAT["artefacts"] + p] = 1.0
        if state.tile_state[p] == HELD:
            row[SEAT["usable_powers"] + p] = 1.0
    pos = state.standee[i]
    if pos != NO:
        base = SEAT["standee"]
        row[base] = 1.0
        row[base + 1 + pos // 3] = 1.0
        row[base + 6 + (pos % 3) - 1] = 1.0
    known = state.hands[i] if game.options["open_hands"] else state.known[i]
    base = SEAT["known_hand"]
    for k in range(NUM_KINDS):
        if known[k]:
            row[base + k] = known[k] / 5.0


def _columns(state, out: np.ndarray) -> None:
    """The battlefield parts that do not depend on the observer."""
    game = state.game
    monsters = game.content.monsters
    out.fill(0.0)
    for c in range(state.n):
        base = c * COLUMN_SIZE
        out[base] = 1.0
        ped = state.pedestal[c]
        if ped != NO:
            out[base + 1] = 1.0
            out[base + 2 + ped] = 1.0
        for lv in range(NUM_LEVELS):
            at = base + COLUMN_HEAD + lv * SLOT_SIZE
            if state.permanent[c][lv]:
                out[at + SLOT["permanent_empty"]] = 1.0
            if lv and state.permanent[c][lv - 1]:
                out[at + SLOT["permanent_cover"]] = 1.0
            m = state.board[c][lv]
            if m == NO:
                continue
            out[at] = 1.0
            full = game.req_full[m]
            bright = game.req_bright[m]
            covered = state.covered(c, lv)
            need = bright if covered else full
            for p in range(3):
                out[at + 1 + p] = bright[p] / 2.0
                out[at + 4 + p] = (full[p] - bright[p]) / 2.0
                out[at + 7 + p] = need[p] / 4.0
            out[at + SLOT["vp"]] = monsters[m].vp / 8.0
            if covered:
                out[at + SLOT["covered"]] = 1.0


def _cards(state, out: np.ndarray) -> None:
    out.fill(0.0)
    for lv in range(NUM_LEVELS):
        out[lv] = len(state.decks[lv]) / DECK_SCALE[lv]
        for m in state.decks[lv]:
            out[3 + m] = 1.0
    for k in range(NUM_KINDS):
        if state.discard[k]:
            out[39 + k] = min(state.discard[k] / 5.0, 1.0)


def _kill_flags(state, seat: int) -> list[tuple[int, float]]:
    """(offset in the columns block, 1.0) for every monster the seat's weapons could kill now."""
    have = tuple(state.loaded_power[seat])
    impact = state.has_power(seat, IMPACT)
    flags = []
    if not any(have):
        return flags
    for c in range(state.n):
        for lv in range(NUM_LEVELS):
            if state.board[c][lv] == NO:
                continue
            at = c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE
            req = state.required(c, lv)
            if assign(req, have) is not None:
                flags.append(at + SLOT["can_kill"])
            if impact and impact_assignment(req, have) is not None:
                flags.append(at + SLOT["can_kill_impact"])
    return flags


def encode(state, seat: int) -> np.ndarray:
    """The observation of ``seat`` (absolute) in ``state``."""
    n = state.n
    cache = state._obs_cache
    if cache is None:
        cache = state._obs_cache = _Cache(n)
    obs = np.zeros(OBSERVATION_LAYOUT.size, np.float32)

    # global
    obs[G + n - 2] = 1.0
    if state.round:
        obs[G + 4 + state.round - 1] = 1.0
    obs[G + 14 + state.phase] = 1.0
    obs[G + 21 + min(state.attacks, 2)] = 1.0
    obs[G + 24 : G + 24 + n] = 1.0
    if state.game.use_artefacts:
        on_pedestal = sum(1 for p in state.pedestal if p != NO)
        obs[G + 29] = on_pedestal / n
        obs[G + 30] = sum(len(a) for a in state.artefacts) / n
    if state.phase == SETUP_PICK:
        obs[G + 31] = state.setup_picks / 2.0

    # own hand
    hand = state.hands[seat]
    for k in range(NUM_KINDS):
        if hand[k]:
            obs[H + k] = hand[k] / 5.0

    # seats, relative to the observer
    rows, vers = cache.seat_rows, cache.seat_ver
    for r in range(n):
        i = (seat + r) % n
        if vers[i] != state._seat_ver[i]:
            _seat_row(state, i, rows[i])
            vers[i] = state._seat_ver[i]
        obs[S + r * SEAT_SIZE : S + (r + 1) * SEAT_SIZE] = rows[i]
    if state.current_player != NO:
        obs[S + ((state.current_player - seat) % n) * SEAT_SIZE + SEAT["acting"]] = 1.0
    if not state.game.options["open_hands"]:
        obs[S + SEAT["known_hand"] : S + SEAT["known_hand"] + NUM_KINDS] = obs[H : H + NUM_KINDS]

    # battlefield
    if cache.board_ver != state._board_ver:
        _columns(state, cache.columns)
        cache.board_ver = state._board_ver
        cache.kill_flags.clear()
    obs[B : B + MAX_PLAYERS * COLUMN_SIZE] = cache.columns
    for i in range(n):
        pos = state.standee[i]
        if pos != NO:
            c, lv = divmod(pos, 3)
            obs[B + c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE + SLOT["standee_owner"] + (i - seat) % n] = 1.0
    key = (seat, tuple(state.loaded_power[seat]), state.tile_state[2], state.tile_holder[2])
    flags = cache.kill_flags.get(key)
    if flags is None:
        flags = cache.kill_flags[key] = _kill_flags(state, seat)
    for at in flags:
        obs[B + at] = 1.0

    # decks and cards
    if cache.cards_ver != state._cards_ver:
        _cards(state, cache.cards)
        cache.cards_ver = state._cards_ver
    obs[D : D + 39 + NUM_KINDS] = cache.cards
    hands = state.hands
    for k in state.game.kinds_in_play:
        others = 0
        for i in range(n):
            if i != seat:
                others += hands[i][k]
        if others:
            obs[X + NUM_KINDS + k] = min(others / 5.0, 1.0)

    # pending sub-decision
    phase = state.phase
    if phase == LOAD_SOURCE:
        obs[P + state.load_kind] = 1.0
        obs[P + 15] = state.load_need / 3.0
        for owner, slot in state.load_used:
            obs[P + 16 + 2 * ((owner - seat) % n) + slot] = 1.0
    elif phase == EXCHANGE_GIVE:
        obs[P + 26 + state.exchange_kind] = 1.0
    elif phase == L1_GIVE:
        owner, slot = state.l1_target
        obs[P + 41 + 2 * ((owner - seat) % n) + slot] = 1.0

    # power tiles
    for p in range(NUM_POWERS):
        obs[T + 4 * p + state.tile_state[p]] = 1.0
    return obs
