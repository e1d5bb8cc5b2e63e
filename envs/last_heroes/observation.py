"""Last Heroes observation: state x seat -> float32[1036], seat-relative, the same for 2-5 players.

Seat r is the player r places clockwise after the observer; seats and columns beyond the table
are zeros.

How it stays cheap (a random-play decision costs tens of microseconds in all, so every numpy call
counts): each state keeps, per observer, the last vector it returned for that observer and what
each part was built from (the state's version counters, or the small values themselves). A new
observation patches only the parts that changed and returns a copy. Observer-independent pieces
(one row per seat, the battlefield, the decks) are built once per version and shared by all
observers; vectors that depend only on a few small integers (a hand, a Magazine, a column) come
from memo tables. ``tests/envs/last_heroes/test_observation_cache.py`` checks every step of random
games against a state rebuilt from JSON (empty caches).
"""

from __future__ import annotations

import weakref

import numpy as np

from envs.core.observation import ObservationLayout, field_offsets
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


# Offsets used on every call, as plain ints.
_PRESENT, _FIRST, _HAND_SIZE = SEAT["present"], SEAT["first"], SEAT["hand_size"]
_SLOT0, _JOKERS, _WHEEL = SEAT["slot0"], SEAT["jokers"], SEAT["wheel"]
_LOADED, _LOADED_P, _KILLS = SEAT["loaded_kinds"], SEAT["loaded_powers"], SEAT["kills"]
_ARTEFACTS, _USABLE, _STANDEE, _KNOWN = SEAT["artefacts"], SEAT["usable_powers"], SEAT["standee"], SEAT["known_hand"]
_MAG_SIZE = 2 * 17
_OWN_KNOWN = S + _KNOWN
_PHASE_AT, _ATTACKS_AT, _PICKS_AT = G + 14, G + 21, G + 31
_COLUMNS_SIZE = MAX_PLAYERS * COLUMN_SIZE
_OTHERS = X + NUM_KINDS
# "Could kill it now" flags of slot 3 * column + level, as offsets in the observation.
_KILL_AT = tuple(
    B + c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE + SLOT["can_kill"] for c in range(5) for lv in range(3)
)
_KILL_IMPACT_AT = tuple(a + 1 for a in _KILL_AT)
assert SLOT["can_kill_impact"] == SLOT["can_kill"] + 1 and MAX_PLAYERS == 5 and NUM_LEVELS == 3

_ROW_BLANK = np.zeros(SEAT_SIZE, np.float32)
_ROW_BLANK[_PRESENT] = 1.0
_ROW_FIRST = _ROW_BLANK.copy()
_ROW_FIRST[_FIRST] = 1.0

# -- memo tables: small integer tuples -> float32 pieces ------------------------------------------
# The pieces are only ever copied from, never written (not marked read-only: that costs more than
# building a piece).
_MEMO_CAP = 1 << 15  # entries per table; a table that fills up is cleared


_FIFTHS: dict[tuple[int, ...], np.ndarray] = {}
_MAGAZINES: dict[tuple[int, int, int, int], np.ndarray] = {}


def _fifths(counts: tuple[int, ...]) -> np.ndarray:
    """counts / 5 (a hand, known cards, loaded weapons)."""
    a = _FIFTHS.get(counts)
    if a is None:
        if len(_FIFTHS) >= _MEMO_CAP:
            _FIFTHS.clear()
        a = _FIFTHS[counts] = np.array([x / 5.0 for x in counts], np.float32)
    return a


def _magazine(key: tuple[int, int, int, int]) -> np.ndarray:
    """Both Magazine slots of a seat row from (kind 0, Ammo 0, kind 1, Ammo 1)."""
    a = _MAGAZINES.get(key)
    if a is None:
        if len(_MAGAZINES) >= _MEMO_CAP:
            _MAGAZINES.clear()
        out = np.zeros(_MAG_SIZE, np.float32)
        for base, k, ammo in ((0, key[0], key[1]), (17, key[2], key[3])):
            if k != NO:
                out[base + k] = 1.0
                out[base + 15] = ammo / 3.0
                if ammo == 0:
                    out[base + 16] = 1.0
        a = _MAGAZINES[key] = out
    return a


class _GameMemo:
    """Memo tables that depend on the game (its content, its kinds in play)."""

    __slots__ = ("columns",)

    def __init__(self):
        self.columns: dict[tuple, np.ndarray] = {}


_GAME_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _game_memo(game) -> _GameMemo:
    memo = _GAME_MEMOS.get(game)
    if memo is None:
        memo = _GAME_MEMOS[game] = _GameMemo()
    return memo


def _column(state, c: int, memo: dict) -> np.ndarray:
    """One battlefield column (observer-independent part)."""
    column, perm, on = state.board[c], state.permanent[c], state.standee_on[c]
    key = (state.pedestal[c], column[0], column[1], column[2], perm[0], perm[1], perm[2], on[1] != NO, on[2] != NO)
    out = memo.get(key)
    if out is not None:
        return out
    if len(memo) >= _MEMO_CAP:
        memo.clear()
    game = state.game
    monsters = game.content.monsters
    out = np.zeros(COLUMN_SIZE, np.float32)
    out[0] = 1.0
    ped = key[0]
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
    memo[key] = out
    return out


# -- the shared pieces ---------------------------------------------------------------------------
def _new_row(state, i: int) -> tuple[np.ndarray, list]:
    """Seat i's row for a state with nothing yet, and the record of what it shows (see _update_row)."""
    row = (_ROW_FIRST if i == state.first else _ROW_BLANK).copy()
    row[_JOKERS] = 1.0  # 0 Jokers
    # hand version, Magazine, Jokers, wheel, loaded kinds, loaded powers, kills, VP, artefacts, standee
    record = [-1, None, 0, 0, (0,) * NUM_KINDS, [0, 0, 0], 0, 0, (), NO]
    return row, record


def _update_row(state, i: int, row: np.ndarray, rec: list) -> None:
    """Bring seat i's row (everything public about seat i that does not depend on who observes) up
    to date, rewriting only the fields whose inputs differ from those recorded in ``rec``."""
    ver = state._hand_ver[i]
    if ver != rec[0]:  # the hand size and the known cards change only with the hand
        hand = state.hands[i]
        row[_HAND_SIZE] = sum(hand) / 12.0
        known = hand if state.game.options["open_hands"] else state.known[i]
        row[_KNOWN : _KNOWN + NUM_KINDS] = _fifths(tuple(known))
        rec[0] = ver
    mk, ma = state.mag_kind[i], state.mag_ammo[i]
    key = (mk[0], ma[0], mk[1], ma[1])
    if key != rec[1]:
        row[_SLOT0 : _SLOT0 + _MAG_SIZE] = _magazine(key)
        rec[1] = key
    j = state.jokers[i]
    if j != rec[2]:
        old = rec[2]
        row[_JOKERS + (old if old < JOKER_CAP else JOKER_CAP)] = 0.0
        row[_JOKERS + (j if j < JOKER_CAP else JOKER_CAP)] = 1.0
        rec[2] = j
    w = state.wheel[i]
    if w != rec[3]:
        x = w / 20.0
        row[_WHEEL] = -1.0 if x < -1.0 else (x if x < 1.0 else 1.0)
        rec[3] = w
    loaded = tuple(state.loaded[i])
    if loaded != rec[4]:
        row[_LOADED : _LOADED + NUM_KINDS] = _fifths(loaded)
        rec[4] = loaded
    lp = state.loaded_power[i]
    if lp != rec[5]:
        for p in range(3):
            x = lp[p] / 12.0
            row[_LOADED_P + p] = x if x < 1.0 else 1.0
        rec[5] = lp[:]
    kills, vp = len(state.kills[i]), state.vp[i]
    if kills != rec[6] or vp != rec[7]:
        x = kills / 15.0
        row[_KILLS] = x if x < 1.0 else 1.0
        x = vp / 40.0
        row[_KILLS + 1] = x if x < 1.0 else 1.0
        rec[6], rec[7] = kills, vp
    arts = state.artefacts[i]
    if arts or rec[8]:
        tile_state = state.tile_state
        key = tuple([(p, tile_state[p]) for p in arts])
        if key != rec[8]:
            row[_ARTEFACTS : _ARTEFACTS + 2 * NUM_POWERS] = 0.0
            for p, st in key:
                row[_ARTEFACTS + p] = 1.0
                if st == HELD:
                    row[_USABLE + p] = 1.0
            rec[8] = key
    pos = state.standee[i]
    if pos != rec[9]:
        row[_STANDEE : _STANDEE + 8] = 0.0
        if pos != NO:
            row[_STANDEE] = 1.0
            row[_STANDEE + 1 + pos // 3] = 1.0
            row[_STANDEE + 6 + (pos % 3) - 1] = 1.0
        rec[9] = pos


def _columns(state, out: np.ndarray, memo: dict) -> None:
    """The battlefield parts that do not depend on the observer."""
    for c in range(state.n):
        out[c * COLUMN_SIZE : (c + 1) * COLUMN_SIZE] = _column(state, c, memo)


def _discard(state, out: np.ndarray) -> None:
    for k, x in enumerate(state.discard):
        out[k] = x / 5.0 if x < 5 else 1.0


def _decks(state, out: np.ndarray) -> None:
    out.fill(0.0)
    for lv in range(NUM_LEVELS):
        out[lv] = len(state.decks[lv]) / DECK_SCALE[lv]
        for m in state.decks[lv]:
            out[3 + m] = 1.0


class _View:
    """One observer's last observation and what each of its parts was built from."""

    __slots__ = (
        "obs",
        "row_ver",
        "acting_at",
        "hand_ver",
        "others_ver",
        "board_ver",
        "kill_key",
        "kill_at",
        "deck_ver",
        "cards_ver",
        "round_at",
        "phase_at",
        "attacks_at",
        "picks",
        "pend",
        "tiles",
        "order",
    )

    def __init__(self, n: int, seat: int):
        obs = self.obs = np.zeros(OBSERVATION_LAYOUT.size, np.float32)
        # (absolute seat, offset of its row) in relative seat order
        self.order = [((seat + r) % n, S + r * SEAT_SIZE) for r in range(n)]
        # Constant entries, and one-hots whose current position is recorded below.
        obs[G + n - 2] = 1.0
        obs[G + 24 : G + 24 + n] = 1.0
        obs[_PHASE_AT] = 1.0  # phase 0
        obs[_ATTACKS_AT] = 1.0  # 0 attacks
        for p in range(NUM_POWERS):
            obs[T + 4 * p] = 1.0  # tile state 0
        self.phase_at = _PHASE_AT
        self.attacks_at = _ATTACKS_AT
        self.tiles = [0] * NUM_POWERS
        self.round_at = 0  # 0: no entry set
        self.acting_at = 0
        self.picks = 0.0
        self.row_ver = [-1] * n
        self.hand_ver = -1
        self.others_ver = -1
        self.board_ver = -1
        self.kill_key = None
        self.kill_at: list[int] | tuple = ()
        self.deck_ver = -1
        self.cards_ver = -1
        self.pend: list[int] = []


class _Cache:
    __slots__ = (
        "board_ver",
        "cards_ver",
        "columns",
        "deck_ver",
        "decks",
        "discard",
        "memo",
        "open_hands",
        "row_records",
        "row_ver",
        "rows",
        "views",
    )

    def __init__(self, state):
        n = state.n
        self.views = [_View(n, seat) for seat in range(n)]
        self.rows, self.row_records = map(list, zip(*(_new_row(state, i) for i in range(n))))
        self.row_ver = [-1] * n
        self.columns = np.zeros(_COLUMNS_SIZE, np.float32)
        self.board_ver = -1
        self.decks = np.zeros(39, np.float32)
        self.deck_ver = -1
        self.discard = np.zeros(NUM_KINDS, np.float32)
        self.cards_ver = -1
        self.memo = _game_memo(state.game)
        self.open_hands = state.game.options["open_hands"]


def encode(state, seat: int) -> np.ndarray:
    """The observation of ``seat`` (absolute) in ``state``."""
    cache = state._obs_cache
    if cache is None:
        cache = state._obs_cache = _Cache(state)
    v = cache.views[seat]
    obs = v.obs
    n = state.n
    phase = state.phase

    # global: round, phase and attacks one-hots, setup picks (artefact counts with the battlefield)
    rnd = state.round
    at = G + 3 + rnd if rnd else 0
    if at != v.round_at:
        if v.round_at:
            obs[v.round_at] = 0.0
        if at:
            obs[at] = 1.0
        v.round_at = at
    at = _PHASE_AT + phase
    if at != v.phase_at:
        obs[v.phase_at] = 0.0
        obs[at] = 1.0
        v.phase_at = at
    attacks = state.attacks
    at = _ATTACKS_AT + (attacks if attacks < 2 else 2)
    if at != v.attacks_at:
        obs[v.attacks_at] = 0.0
        obs[at] = 1.0
        v.attacks_at = at
    x = state.setup_picks / 2.0 if phase == SETUP_PICK else 0.0
    if x != v.picks:
        obs[_PICKS_AT] = x
        v.picks = x

    # seats, relative to the observer
    seat_ver = state._seat_ver
    own_row = False
    if v.row_ver != seat_ver:
        rows, built, done = cache.rows, cache.row_ver, v.row_ver
        for i, at in v.order:
            ver = seat_ver[i]
            if done[i] != ver:
                if built[i] != ver:
                    _update_row(state, i, rows[i], cache.row_records[i])
                    built[i] = ver
                obs[at : at + SEAT_SIZE] = rows[i]
        own_row = done[seat] != seat_ver[seat]
        v.row_ver = seat_ver[:]
        if v.acting_at:  # the acting flag may have been overwritten: clear it, write it again below
            obs[v.acting_at] = 0.0
            v.acting_at = 0
    cp = state.current_player
    at = S + ((cp - seat) % n) * SEAT_SIZE + 1 if cp != NO else 0
    if at != v.acting_at:
        if v.acting_at:
            obs[v.acting_at] = 0.0
        if at:
            obs[at] = 1.0
        v.acting_at = at

    # own hand (also the own row's known cards, unless every hand is open)
    ver = state._hand_ver[seat]
    if ver != v.hand_ver or own_row:
        hand = _fifths(tuple(state.hands[seat]))
        obs[H : H + NUM_KINDS] = hand
        if not cache.open_hands:
            obs[_OWN_KNOWN : _OWN_KNOWN + NUM_KINDS] = hand
        v.hand_ver = ver

    # battlefield
    ver = state._board_ver
    if ver != v.board_ver:
        if cache.board_ver != ver:
            _columns(state, cache.columns, cache.memo.columns)
            cache.board_ver = ver
        obs[B : B + _COLUMNS_SIZE] = cache.columns
        standee = state.standee
        for i in range(n):
            pos = standee[i]
            if pos != NO:
                c, lv = divmod(pos, 3)
                obs[B + c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE + SLOT["standee_owner"] + (i - seat) % n] = 1.0
        if state.game.use_artefacts:
            obs[G + 29] = (MAX_PLAYERS - state.pedestal.count(NO)) / n
            obs[G + 30] = sum(map(len, state.artefacts)) / n
        v.board_ver = ver
    lp = state.loaded_power[seat]
    impact = state.tile_holder[IMPACT] == seat and state.tile_state[IMPACT] == HELD
    key = (ver, lp[0], lp[1], lp[2], impact)
    if key != v.kill_key:
        for at in v.kill_at:
            obs[at] = 0.0
        if lp[0] or lp[1] or lp[2]:
            plain, with_impact, _ = state.attack_options(seat)
            kill_at = [_KILL_AT[s] for s in plain]
            kill_at += [_KILL_IMPACT_AT[s] for s in with_impact]
            for at in kill_at:
                obs[at] = 1.0
            v.kill_at = kill_at
        else:
            v.kill_at = ()
        v.kill_key = key

    # decks and cards
    ver = state._deck_ver
    if ver != v.deck_ver:
        if cache.deck_ver != ver:
            _decks(state, cache.decks)
            cache.deck_ver = ver
        obs[D : D + 39] = cache.decks
        v.deck_ver = ver
    ver = state._cards_ver
    if ver != v.cards_ver:
        if cache.cards_ver != ver:
            _discard(state, cache.discard)
            cache.cards_ver = ver
        obs[X : X + NUM_KINDS] = cache.discard
        v.cards_ver = ver
    ver = state._hands_ver - state._hand_ver[seat]  # changes exactly when an opponent's hand does
    if ver != v.others_ver:
        total, hand = state._hand_tot, state.hands[seat]
        for k in state.game.kinds_in_play:
            x = total[k] - hand[k]
            obs[_OTHERS + k] = x / 5.0 if x < 5 else 1.0
        v.others_ver = ver

    # pending sub-decision
    if v.pend or phase == LOAD_SOURCE or phase == EXCHANGE_GIVE or phase == L1_GIVE:
        for at in v.pend:
            obs[at] = 0.0
        pend = []
        if phase == LOAD_SOURCE:
            pend.append(P + state.load_kind)
            pend.append(P + 15)
            for owner, slot in state.load_used:
                pend.append(P + 16 + 2 * ((owner - seat) % n) + slot)
            for at in pend:
                obs[at] = 1.0
            obs[P + 15] = state.load_need / 3.0
        elif phase == EXCHANGE_GIVE:
            pend.append(P + 26 + state.exchange_kind)
            obs[pend[0]] = 1.0
        elif phase == L1_GIVE:
            owner, slot = state.l1_target
            pend.append(P + 41 + 2 * ((owner - seat) % n) + slot)
            obs[pend[0]] = 1.0
        v.pend = pend

    # power tiles
    tiles = state.tile_state
    if tiles != v.tiles:
        old = v.tiles
        for p in range(NUM_POWERS):
            if tiles[p] != old[p]:
                obs[T + 4 * p + old[p]] = 0.0
                obs[T + 4 * p + tiles[p]] = 1.0
        v.tiles = tiles[:]
    return obs.copy()
