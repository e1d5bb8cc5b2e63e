"""The Heroes and Monsters observation: 1924 floats in [0, 1], seat-relative, padded to 4 seats.

Only what the observing seat may know (docs 5.2): its own hand, the active player's hand (played
face up during its own turn), public zones, counts and compositions, never a deck order or
another waiting player's hand.

Two encoders give the same vector, bit for bit (tests/envs/heroes_and_monsters/test_observation.py
and the invariants test compare them over many random-game states):

- :func:`encode_reference` builds it from scratch: the plain definition of the layout;
- :func:`encode` (what ``state.observe`` uses) keeps, per state, an :class:`EncoderCache`: every
  block, or part of one, under a key made of exactly the state values it is computed from, so a part
  is recomputed only when its key changed (a typical decision changes two or three of them). The
  observer-independent blocks are kept once; each observer keeps its last vector and copies in the
  shared blocks that changed. Compositions come from card counts through tables holding the float32
  value of ``k`` repeated additions of ``1 / scale``, which is what the plain encoder's per-card
  additions give.
"""

from __future__ import annotations

import numpy as np

from envs.core.observation import ObservationLayout
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

OBSERVATION_LAYOUT = ObservationLayout(
    [
        ("global", sum(f[1] for f in GLOBAL_FIELDS), "counters, phase, seats, piles, Threat, Plan (table below)"),
        (
            "area",
            C.NUM_SLOTS * CARD_ONEHOT + C.NUM_SLOTS,
            "8 slots x card one-hot 37, then 8 'affordable by the active player now' flags",
        ),
        ("rubble", len(C.FORTRESS_CARDS) + CARD_ONEHOT, "counts of Fortress types 7-35 / 4, top card one-hot"),
        ("battlefield", (C.NUM_COLUMNS, BF_SIZE), "per column (table below)"),
        ("invasion_discard", C.NUM_INVADER_TYPES, "count per Invader type / 2"),
        (
            "active_turn",
            3 + 1 + 3 + C.NUM_CARDS,
            "active player's pool R,C,S /10; D /20; race bonuses /5; hand composition /4",
        ),
        ("own_hand", (C.HAND_CAP, CARD_ONEHOT + 1), "own hand slots (sorted): card one-hot + used flag"),
        ("own_private", 1 + C.NUM_CARDS, "own General ability used; own deck composition / 6"),
        ("players", (C.MAX_PLAYERS, PLAYER_SIZE), "relative seats, self first (table below)"),
        (
            "pending",
            5 + CARD_ONEHOT + 1,
            "pending source kind one-hot 5; source card one-hot; remaining 'any' cost / 2",
        ),
    ],
    low=0.0,
    high=1.0,
)
assert OBSERVATION_LAYOUT.size == 1924, OBSERVATION_LAYOUT.size
_O = {b.name: b.offset for b in OBSERVATION_LAYOUT.blocks}


def _add_comp(obs: np.ndarray, at: int, cards, scale: float) -> None:
    """Composition of ``cards`` (card id -> count / scale) at ``obs[at:at+36]``; clipped at the end."""
    step = 1.0 / scale
    for c in cards:
        obs[at + c] += step


def encode_reference(state, seat: int) -> np.ndarray:
    """The observation of ``seat``, built from scratch: the plain definition of the layout."""
    s = state
    n = s.n
    obs = np.zeros(OBSERVATION_LAYOUT.size, np.float32)

    def rel(j: int) -> int:
        return (j - seat) % n

    # global
    o = _O["global"]
    obs[o + n - 1] = 1
    obs[o + 4 + s.adversary] = 1
    obs[o + 7] = s.round / 20.0
    obs[o + 8 + s.phase] = 1
    if s.current_player >= 0:
        obs[o + 16 + rel(s.current_player)] = 1
    obs[o + 20 + rel(s.active)] = 1
    obs[o + 24 + rel(s.first)] = 1
    obs[o + 28] = (n - s.turns_done) / 4.0
    piles = (
        len(s.fortress) / 54,
        len(s.rubble) / 60,
        len(s.exile) / 20,
        len(s.inv_deck) / 24,
        len(s.inv_discard) / 24,
        s.ward / 6,
    )
    obs[o + 29 : o + 35] = piles
    obs[o + 35 + s.threat() - 1] = 1
    adv = ADVERSARIES[s.adversary]
    if not adv.plans:
        v = s.game.victory_target
        obs[o + 38] = s.defeated / v
        obs[o + 39] = v / 20.0
    p0 = o + 40
    if s.plan >= 0:
        req = s.plan_required()
        obs[p0 + s.plan] = 1
        obs[p0 + 8] = s.plan_progress / req
        obs[p0 + 9] = req / 10.0
        obs[p0 + 10] = s.plan_countdown / 3.0
    else:
        obs[p0 + 7] = 1
    if adv.plans:
        obs[p0 + 11] = s.thwarted / 3.0
        obs[p0 + 12] = max(0, adv.plans_in_play - s.thwarted) / 3.0
    obs[o + 53] = s.defeated / 30.0

    # area
    o = _O["area"]
    # the active player's pool counts the resource cards of its hand: public only while the hand is
    # face up (its turn); once the game has ended after its discard and draw, the new hand is private
    pool = s.pool(s.active) if s.hand_up else [0, 0, 0]
    for slot, c in enumerate(s.area):
        obs[o + slot * CARD_ONEHOT + c + 1] = 1
        if c >= 0 and all(pool[x] >= CARDS[c].cost[x] for x in range(3)):
            obs[o + C.NUM_SLOTS * CARD_ONEHOT + slot] = 1

    # rubble
    o = _O["rubble"]
    if s.rubble:
        _add_comp(obs, o - C.FIRST_FORTRESS_CARD, s.rubble, 4.0)
        obs[o + len(C.FORTRESS_CARDS) + s.rubble[-1] + 1] = 1
    else:
        obs[o + len(C.FORTRESS_CARDS)] = 1

    # battlefield
    damages = s.fortress_damages()
    for col in range(C.NUM_COLUMNS):
        o = _O["battlefield"] + col * BF_SIZE
        iid = s.field[col]
        obs[o + iid + 1] = 1
        if iid < 0:
            continue
        inv = INVADERS[iid]
        o += INVADER_ONEHOT
        obs[o + inv.race] = 1
        levels = s.levels(col)
        nxt = s.next_cost(col)
        rem = s.remaining_health(col)
        obs[o + 3] = s.markers[col] / 3.0
        obs[o + 4] = len(levels) / 3.0
        obs[o + 5] = nxt / 8.0
        obs[o + 6] = rem / 18.0
        obs[o + 7] = damages[col] / 8.0
        obs[o + 8] = float(s.attacked[col])
        obs[o + 9] = float(s.dmg >= nxt)
        obs[o + 10] = float(s.dmg >= rem)

    # invasion discard
    o = _O["invasion_discard"]
    for iid in s.inv_discard:
        obs[o + iid] += 0.5

    # active turn (public)
    o = _O["active_turn"]
    obs[o : o + 3] = [max(x, 0) / 10.0 for x in pool]
    obs[o + 3] = s.dmg / 20.0
    obs[o + 4 : o + 7] = [b / 5.0 for b in s.bonus]
    if s.hand_up:
        _add_comp(obs, o + 7, [c for c, _ in s.players[s.active].hand], 4.0)

    # own hand and private
    me = s.players[seat]
    o = _O["own_hand"]
    for h, (c, u) in enumerate(me.hand):
        obs[o + h * (CARD_ONEHOT + 1) + c + 1] = 1
        obs[o + h * (CARD_ONEHOT + 1) + CARD_ONEHOT] = float(u)
    for h in range(len(me.hand), C.HAND_CAP):
        obs[o + h * (CARD_ONEHOT + 1)] = 1
    o = _O["own_private"]
    obs[o] = float(me.gen_used)
    _add_comp(obs, o + 1, me.deck, 6.0)

    # players, relative seats
    for j, p in enumerate(s.players):
        o = _O["players"] + rel(j) * PLAYER_SIZE
        obs[o] = 1
        obs[o + 1 + p.general] = 1
        obs[o + 7] = float(j == s.active)
        t0 = o + 8
        for k in range(C.TABLE_CAP):
            if k < len(p.table):
                c, u = p.table[k]
                obs[t0 + k * (CARD_ONEHOT + 1) + c + 1] = 1
                obs[t0 + k * (CARD_ONEHOT + 1) + CARD_ONEHOT] = float(u)
            else:
                obs[t0 + k * (CARD_ONEHOT + 1)] = 1
        d0 = t0 + C.TABLE_CAP * (CARD_ONEHOT + 1)
        _add_comp(obs, d0, p.discard, 6.0)
        _add_comp(obs, d0 + C.NUM_CARDS, p.deck, 6.0)
        _add_comp(obs, d0 + C.NUM_CARDS, [c for c, _ in p.hand], 6.0)
        z0 = d0 + 2 * C.NUM_CARDS
        obs[z0] = len(p.deck) / 30.0
        obs[z0 + 1] = len(p.hand) / 12.0
        obs[z0 + 2] = len(p.discard) / 30.0

    # pending decision
    o = _O["pending"]
    pend = s.pending
    if pend is None:
        obs[o] = 1
        obs[o + 5] = 1
    else:
        obs[o + pend["src"]] = 1
        obs[o + 5 + pend["card"] + 1] = 1
        obs[o + 5 + CARD_ONEHOT] = pend["any"] / 2.0
    np.minimum(obs, 1.0, out=obs)  # every count is scaled, then clipped to 1
    return obs


# -- the fast encoder ------------------------------------------------------------------------------
SIZE = OBSERVATION_LAYOUT.size
ROW = CARD_ONEHOT + 1  # a hand slot or a table slot: card one-hot + used flag
_PUBLIC = _O["area"]  # area, rubble, battlefield, invasion_discard, active_turn: contiguous
_PUBLIC_END = _O["own_hand"]
_P_FLAGS = C.NUM_SLOTS * CARD_ONEHOT  # offsets inside the public buffer
_P_RUBBLE = _O["rubble"] - _PUBLIC
_P_RUBBLE_TOP = _P_RUBBLE + len(C.FORTRESS_CARDS)
_P_BF = _O["battlefield"] - _PUBLIC
_P_INV = _O["invasion_discard"] - _PUBLIC
_P_ACTIVE = _O["active_turn"] - _PUBLIC
_OWN_HAND = _O["own_hand"]
_OWN_PRIVATE = _O["own_private"]
_PLAYERS = _O["players"]
_PENDING = _O["pending"]
_TABLE_AT = 8  # offsets inside a player row
_DISCARD_AT = _TABLE_AT + C.TABLE_CAP * ROW
_DECK_HAND_AT = _DISCARD_AT + C.NUM_CARDS
_SIZES_AT = _DECK_HAND_AT + C.NUM_CARDS
assert _O["global"] == 0 and _PUBLIC == sum(f[1] for f in GLOBAL_FIELDS) == 54 and _SIZES_AT + 3 == PLAYER_SIZE
_UNSET = object()  # the key of a block not written yet


def _repeated_sums(scale: float, size: int = 256) -> list[float]:
    """``table[k]``: the float32 value ``k`` successive ``x += 1 / scale`` from 0 give (what the plain
    encoder's per-card additions give), clipped to 1; exact as Python floats."""
    x = np.zeros(1, np.float32)
    out = [0.0]
    for _ in range(1, size):
        x[0] += 1.0 / scale
        out.append(min(float(x[0]), 1.0))
    return out


_SUM2, _SUM4, _SUM6 = (_repeated_sums(scale) for scale in (2.0, 4.0, 6.0))


def _write_composition(vec: np.ndarray, at: int, size: int, cards, table: list[float], first: int = 0) -> None:
    """``vec[at + c] = table[count of c in cards]`` for the ids ``first .. size - 1``."""
    vec[at + first : at + size] = 0
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    for c, k in counts.items():
        vec[at + c] = table[k]


def _entries(entries: list[list]) -> list[list]:
    """A copy of a list of ``[card, used]`` entries that later changes to the state do not reach."""
    return [e[:] for e in entries]


class _SeatView:
    """One observer's last vector, the versions of the shared blocks in it, and its own blocks' keys."""

    __slots__ = ("vec", "public_version", "row_versions", "hot_key", "cold_key", "hand_key", "private_key")
    __slots__ += ("pending_key",)

    def __init__(self, n: int):
        self.vec = np.zeros(SIZE, np.float32)
        self.public_version = -1
        self.row_versions = [-1] * n
        self.hot_key = self.cold_key = self.hand_key = self.private_key = self.pending_key = _UNSET


class _Row:
    """One player's row of the Players block (the same whoever observes), with its parts' keys."""

    __slots__ = ("vec", "version", "table_key", "discard_key", "deck_hand_key")

    def __init__(self):
        self.vec = np.zeros(PLAYER_SIZE, np.float32)
        self.version = 0
        self.table_key = self.discard_key = self.deck_hand_key = _UNSET


class EncoderCache:
    """One state's observation blocks, each under a key made of exactly the state it is computed
    from (a tuple of the state's values and lists, compared element by element; the stored key is a
    copy), so a block is recomputed exactly when its inputs changed.

    The observer-independent blocks (Area to active turn, and each player's row) are kept once, with
    a version that counts their changes; each observer's :class:`_SeatView` keeps its last vector,
    copies in the shared blocks whose version moved and rewrites its own blocks (Global, Own hand,
    Own private, Pending) when their key changed. Values that can exceed 1 are clipped with
    ``min(v, 1.0)`` before the float32 conversion, which gives what the plain encoder's final
    ``np.minimum`` gives.
    """

    __slots__ = ("n", "public", "keys", "version", "bf_costs", "rows", "views")

    def __init__(self, n: int):
        self.n = n
        self.public = np.zeros(_PUBLIC_END - _PUBLIC, np.float32)
        self.keys = dict.fromkeys(("area", "flags", "rubble", "bf", "hittable", "inv", "active", "active_hand"), _UNSET)
        self.version = 0
        self.bf_costs: list[tuple[int, int, int]] = []  # (offset, next level cost, remaining health)
        self.rows = [_Row() for _ in range(n)]
        self.views = [_SeatView(n) for _ in range(n)]

    # -- observer-independent blocks ------------------------------------------------------------
    def refresh_public(self, s) -> None:
        """Recompute the parts of Area, Rubble, Battlefield, Invasion discard and active turn whose
        key changed (and count a new version if one did)."""
        buf = self.public
        keys = self.keys
        changed = False
        if s.area != keys["area"]:
            keys["area"] = s.area[:]
            changed = True
            buf[:_P_FLAGS] = 0
            for slot, c in enumerate(s.area):
                buf[slot * CARD_ONEHOT + c + 1] = 1
        pool = s.pool(s.active) if s.hand_up else [0, 0, 0]  # public only while the hand is face up
        if (s.area, pool) != keys["flags"]:
            keys["flags"] = (s.area[:], pool)
            changed = True
            for slot, c in enumerate(s.area):
                cost = CARDS[c].cost if c >= 0 else None
                ok = cost is not None and pool[0] >= cost[0] and pool[1] >= cost[1] and pool[2] >= cost[2]
                buf[_P_FLAGS + slot] = ok
        if s.rubble != keys["rubble"]:
            keys["rubble"] = s.rubble[:]
            changed = True
            nf = len(C.FORTRESS_CARDS)
            first = C.FIRST_FORTRESS_CARD  # the Rubble holds Fortress cards only
            _write_composition(buf, _P_RUBBLE - first, first + nf, s.rubble, _SUM4, first)
            buf[_P_RUBBLE_TOP:_P_BF] = 0
            buf[_P_RUBBLE_TOP + (s.rubble[-1] + 1 if s.rubble else 0)] = 1
        key = (s.field, s.markers, s.attacked, s.threat(), s.plan, s.adversary)
        if key != keys["bf"]:
            keys["bf"] = (s.field[:], s.markers[:], s.attacked[:]) + key[3:]
            changed = True
            self._battlefield(s)
            keys["hittable"] = _UNSET
        if s.dmg != keys["hittable"]:
            keys["hittable"] = d = s.dmg
            changed = True
            for o, nxt, rem in self.bf_costs:
                buf[o + 9] = d >= nxt
                buf[o + 10] = d >= rem
        if s.inv_discard != keys["inv"]:
            keys["inv"] = s.inv_discard[:]
            changed = True
            _write_composition(buf, _P_INV, C.NUM_INVADER_TYPES, s.inv_discard, _SUM2)
        if (pool, s.dmg, s.bonus) != keys["active"]:
            keys["active"] = (pool, s.dmg, s.bonus[:])
            changed = True
            o = _P_ACTIVE
            for x in range(3):
                buf[o + x] = min(max(pool[x], 0) / 10.0, 1.0)
            buf[o + 3] = min(s.dmg / 20.0, 1.0)
            for r in range(3):
                buf[o + 4 + r] = min(s.bonus[r] / 5.0, 1.0)
        hand = [c for c, _ in s.players[s.active].hand] if s.hand_up else None
        if hand != keys["active_hand"]:
            keys["active_hand"] = hand
            changed = True
            _write_composition(buf, _P_ACTIVE + 7, C.NUM_CARDS, hand or (), _SUM4)
        if changed:
            self.version += 1

    def _battlefield(self, s) -> None:
        """The Battlefield block but its hittable / killable flags (they follow D: ``hittable``)."""
        seg = self.public[_P_BF:_P_INV]
        seg[:] = 0
        damages = s.fortress_damages()
        self.bf_costs = []
        for col in range(C.NUM_COLUMNS):
            o = col * BF_SIZE
            iid = s.field[col]
            seg[o + iid + 1] = 1
            if iid < 0:
                continue
            inv = INVADERS[iid]
            o += INVADER_ONEHOT
            seg[o + inv.race] = 1
            levels = s.game.invader_levels[iid]
            m = s.markers[col]
            nxt = levels[m] if m < len(levels) else 0
            rem = sum(levels[m:])
            seg[o + 3] = min(m / 3.0, 1.0)
            seg[o + 4] = min(len(levels) / 3.0, 1.0)
            seg[o + 5] = min(nxt / 8.0, 1.0)
            seg[o + 6] = min(rem / 18.0, 1.0)
            seg[o + 7] = min(damages[col] / 8.0, 1.0)
            seg[o + 8] = s.attacked[col]
            self.bf_costs.append((_P_BF + o, nxt, rem))

    def refresh_row(self, s, j: int) -> _Row:
        """Player ``j``'s row: its Constructions part, discard composition, and deck + hand
        composition with the sizes, each recomputed when its key changed."""
        p = s.players[j]
        row = self.rows[j]
        vec = row.vec
        changed = False
        key = (p.general, j == s.active, p.table)
        if key != row.table_key:
            row.table_key = (p.general, j == s.active, _entries(p.table))
            changed = True
            vec[:_DISCARD_AT] = 0
            vec[0] = 1
            vec[1 + p.general] = 1
            vec[7] = j == s.active
            for k in range(C.TABLE_CAP):
                o = _TABLE_AT + k * ROW
                if k < len(p.table):
                    c, u = p.table[k]
                    vec[o + c + 1] = 1
                    vec[o + CARD_ONEHOT] = u
                else:
                    vec[o] = 1
        if p.discard != row.discard_key:
            row.discard_key = p.discard[:]
            changed = True
            _write_composition(vec, _DISCARD_AT, C.NUM_CARDS, p.discard, _SUM6)
            vec[_SIZES_AT + 2] = min(len(p.discard) / 30.0, 1.0)
        key = (p.deck, p.hand)
        if key != row.deck_hand_key:
            row.deck_hand_key = (p.deck[:], _entries(p.hand))
            changed = True
            _write_composition(vec, _DECK_HAND_AT, C.NUM_CARDS, p.deck + [c for c, _ in p.hand], _SUM6)
            vec[_SIZES_AT] = min(len(p.deck) / 30.0, 1.0)
            vec[_SIZES_AT + 1] = min(len(p.hand) / 12.0, 1.0)
        if changed:
            row.version += 1
        return row

    # -- one observer's blocks ------------------------------------------------------------------
    @staticmethod
    def write_global(s, seat: int, view: _SeatView) -> None:
        """The Global block of ``seat``'s vector: its turn part and the rest, each when it changed."""
        obs = view.vec
        n = s.n
        key = (s.phase, s.current_player, s.active, s.first, s.turns_done)
        if key != view.hot_key:
            view.hot_key = key
            obs[8:29] = 0
            obs[8 + s.phase] = 1
            if s.current_player >= 0:
                obs[16 + (s.current_player - seat) % n] = 1
            obs[20 + (s.active - seat) % n] = 1
            obs[24 + (s.first - seat) % n] = 1
            obs[28] = min((n - s.turns_done) / 4.0, 1.0)
        key = (
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
        if key == view.cold_key:
            return
        view.cold_key = key
        obs[:8] = 0
        obs[29:_PUBLIC] = 0
        obs[n - 1] = 1
        obs[4 + s.adversary] = 1
        obs[7] = min(s.round / 20.0, 1.0)
        obs[29] = min(len(s.fortress) / 54, 1.0)
        obs[30] = min(len(s.rubble) / 60, 1.0)
        obs[31] = min(len(s.exile) / 20, 1.0)
        obs[32] = min(len(s.inv_deck) / 24, 1.0)
        obs[33] = min(len(s.inv_discard) / 24, 1.0)
        obs[34] = min(s.ward / 6, 1.0)
        obs[35 + s.threat() - 1] = 1
        adv = ADVERSARIES[s.adversary]
        if not adv.plans:
            v = s.game.victory_target
            obs[38] = min(s.defeated / v, 1.0)
            obs[39] = min(v / 20.0, 1.0)
        if s.plan >= 0:
            req = s.plan_required()
            obs[40 + s.plan] = 1
            obs[48] = min(s.plan_progress / req, 1.0)
            obs[49] = min(req / 10.0, 1.0)
            obs[50] = min(s.plan_countdown / 3.0, 1.0)
        else:
            obs[47] = 1
        if adv.plans:
            obs[51] = min(s.thwarted / 3.0, 1.0)
            obs[52] = min(max(0, adv.plans_in_play - s.thwarted) / 3.0, 1.0)
        obs[53] = min(s.defeated / 30.0, 1.0)

    @staticmethod
    def write_own(s, seat: int, view: _SeatView) -> None:
        """The Own hand and Own private blocks of ``seat``'s vector, each when it changed."""
        me = s.players[seat]
        obs = view.vec
        if me.hand != view.hand_key:
            view.hand_key = _entries(me.hand)
            obs[_OWN_HAND:_OWN_PRIVATE] = 0
            for h, (c, u) in enumerate(me.hand):
                obs[_OWN_HAND + h * ROW + c + 1] = 1
                obs[_OWN_HAND + h * ROW + CARD_ONEHOT] = u
            for h in range(len(me.hand), C.HAND_CAP):
                obs[_OWN_HAND + h * ROW] = 1
        if (me.gen_used, me.deck) != view.private_key:
            view.private_key = (me.gen_used, me.deck[:])
            obs[_OWN_PRIVATE] = me.gen_used
            _write_composition(obs, _OWN_PRIVATE + 1, C.NUM_CARDS, me.deck, _SUM6)

    @staticmethod
    def write_pending(s, view: _SeatView) -> None:
        pend = s.pending
        key = (pend["src"], pend["card"], pend["any"]) if pend is not None else None
        if key == view.pending_key:
            return
        view.pending_key = key
        obs = view.vec
        obs[_PENDING:] = 0
        if pend is None:
            obs[_PENDING] = 1
            obs[_PENDING + 5] = 1
        else:
            obs[_PENDING + pend["src"]] = 1
            obs[_PENDING + 5 + pend["card"] + 1] = 1
            obs[_PENDING + 5 + CARD_ONEHOT] = min(pend["any"] / 2.0, 1.0)


def encode(state, seat: int) -> np.ndarray:
    """The observation of ``seat``: :func:`encode_reference`'s vector, rebuilt where its inputs changed."""
    s = state
    n = s.n
    cache = s.obs_cache
    if cache is None or cache.n != n:
        cache = s.obs_cache = EncoderCache(n)
    view = cache.views[seat]
    vec = view.vec
    cache.write_global(s, seat, view)
    cache.refresh_public(s)
    if view.public_version != cache.version:
        view.public_version = cache.version
        vec[_PUBLIC:_PUBLIC_END] = cache.public
    cache.write_own(s, seat, view)
    for j in range(n):
        row = cache.refresh_row(s, j)
        if view.row_versions[j] != row.version:
            view.row_versions[j] = row.version
            at = _PLAYERS + ((j - seat) % n) * PLAYER_SIZE
            vec[at : at + PLAYER_SIZE] = row.vec
    cache.write_pending(s, view)
    return vec.copy()


# Plan count sanity: the Plan one-hot has room for every Plan.
assert len(PLANS) == 7 and len(GENERALS) == 6
