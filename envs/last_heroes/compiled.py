"""Last Heroes compiled: the rules of state.py and the encoder of observation.py in numba.

``LastHeroesGame(engine="compiled")`` plays the same game through :class:`CompiledState`: the
whole state is one int32 array, and each ``apply`` (which also builds the next legal mask) and
each ``observe`` is one compiled call of a few microseconds, where the Python reference spends
tens. Setup (the shuffles) is the reference's own ``LastHeroesState.new``, so a seed deals the
same game on either engine; after setup the rules draw nothing.

The Python state stays the reference: anything that is not on the hot path (``render``,
``describe_action``, ``to_json``, ``info``, the heuristic bot) runs on :meth:`CompiledState.reference`,
a ``LastHeroesState`` rebuilt from the array when asked. ``tests/envs/last_heroes/test_compiled.py``
plays thousands of random games on both engines and compares every legal mask, every seat's
observation and every reward.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.game import Outcome, State, check_seat
from envs.last_heroes import actions as A
from envs.last_heroes.constants import (
    ADRENALINE,
    END_REASONS,
    EXCHANGE,
    EXCHANGE_GIVE,
    HELD,
    IMMUNITY,
    IMPACT,
    JOKER,
    L1_GIVE,
    L1_SLOT,
    LOAD_SOURCE,
    MAIN,
    NO,
    PHASES,
    POST,
    RELOAD,
    SETUP_PICK,
    USED,
)
from envs.last_heroes.content import (
    ARTEFACT_VP,
    JOKER_CAP,
    MAGAZINE_PICKS,
    MAX_PLAYERS,
    NUM_KINDS,
    NUM_LEVELS,
    NUM_POWERS,
    ROUNDS,
)
from envs.last_heroes.observation import (
    _ARTEFACTS,
    _HAND_SIZE,
    _JOKERS,
    _KILLS,
    _KNOWN,
    _LOADED,
    _LOADED_P,
    _SLOT0,
    _STANDEE,
    _USABLE,
    _WHEEL,
    COLUMN_HEAD,
    COLUMN_SIZE,
    OBSERVATION_LAYOUT,
    SEAT_SIZE,
    SLOT,
    SLOT_SIZE,
    B,
    D,
    G,
    H,
    P,
    S,
    T,
    X,
)
from envs.last_heroes.state import LastHeroesState, _json_resample_hidden

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency
    AVAILABLE = False
else:
    AVAILABLE = True

MAX_MONSTERS = 36  # the observation's deck block has one entry per monster id
MAX_LOAD = 8  # Ammo a single load may need (3 in the default content)
OBS_SIZE = OBSERVATION_LAYOUT.size
NUM_ACTIONS = A.NUM_ACTIONS
K = NUM_KINDS
M5 = MAX_PLAYERS

# -- the state array: (name, size) blocks, per-seat blocks sized for five seats -------------------
_STATE_BLOCKS = (
    ("hands", M5 * K),
    ("known", M5 * K),
    ("mag_kind", M5 * 2),
    ("mag_ammo", M5 * 2),
    ("jokers", M5),
    ("wheel", M5),
    ("loaded", M5 * K),
    ("loaded_power", M5 * 3),
    ("num_kills", M5),
    ("kills", M5 * MAX_MONSTERS),
    ("vp", M5),
    ("num_artefacts", M5),
    ("artefacts", M5 * NUM_POWERS),
    ("standee", M5),
    ("board", M5 * NUM_LEVELS),
    ("standee_on", M5 * NUM_LEVELS),
    ("permanent", M5 * NUM_LEVELS),
    ("deck_len", NUM_LEVELS),
    ("decks", NUM_LEVELS * MAX_MONSTERS),
    ("discard", K),
    ("pedestal", M5),
    ("tile_state", NUM_POWERS),
    ("tile_holder", NUM_POWERS),
    ("turns_taken", M5),
    ("load_used", MAX_LOAD * 2),
    # setup_picks, first, current_player, phase, round, attacks, killed, load_kind, load_need,
    # num_load_used, exchange_kind, return_phase, l1_owner, l1_slot, all_held, end_case, and two
    # statistics: Ammo taken from opponents, wheel points lost to penalties
    ("scalars", 18),
)


def _offsets(blocks) -> tuple[dict[str, int], int]:
    """Offset of each (name, size) block laid end to end, and the total size."""
    out, at = {}, 0
    for name, size in blocks:
        out[name] = at
        at += size
    return out, at


_AT, STATE_SIZE = _offsets(_STATE_BLOCKS)

HANDS, KNOWN, MAGK, MAGA = _AT["hands"], _AT["known"], _AT["mag_kind"], _AT["mag_ammo"]
JOK, WHEEL, LOADED, LPOW = _AT["jokers"], _AT["wheel"], _AT["loaded"], _AT["loaded_power"]
NKILLS, KILLS, VP, NARTS, ARTS = _AT["num_kills"], _AT["kills"], _AT["vp"], _AT["num_artefacts"], _AT["artefacts"]
STANDEE, BOARD, ON, PERM = _AT["standee"], _AT["board"], _AT["standee_on"], _AT["permanent"]
DECKLEN, DECKS, DISCARD, PED = _AT["deck_len"], _AT["decks"], _AT["discard"], _AT["pedestal"]
TSTATE, THOLD, TURNS, USEDL = _AT["tile_state"], _AT["tile_holder"], _AT["turns_taken"], _AT["load_used"]
_SC = _AT["scalars"]
PICKS, FIRST, CUR, PHASE, ROUND, ATTACKS, KILLED, LOADK = range(_SC, _SC + 8)
LOADNEED, NUSED, EXK, RETPH, L1OWN, L1SLOT, ALLHELD, END = range(_SC + 8, _SC + 16)
AMMO_OPP, PENALTY = _SC + 16, _SC + 17
END_CASES = (None, "A", "B")  # values of the END scalar

# -- the game array: options and content tables -------------------------------------------------
_GAME_BLOCKS = (
    ("options", 8),  # n, artefacts, artefact_end, floor_on, floor, open_hands, scheme, shape_artefacts
    ("kind_type", K),
    ("kind_power", K),
    ("kind_ammo", K),
    ("in_play", K),
    ("req_full", MAX_MONSTERS * 3),
    ("req_bright", MAX_MONSTERS * 3),
    ("monster_vp", MAX_MONSTERS),
)
_GAT, GAME_SIZE = _offsets(_GAME_BLOCKS)
GN, GART, GARTEND, GFLOORON, GFLOOR, GOPEN, GSCHEME, GSHAPEART = range(8)
KTYPE, KPOW, KAMMO, INPLAY = _GAT["kind_type"], _GAT["kind_power"], _GAT["kind_ammo"], _GAT["in_play"]
RFULL, RBRIGHT, MVP = _GAT["req_full"], _GAT["req_bright"], _GAT["monster_vp"]
ARTEFACT_ENDS = ("immediate", "end_of_turn", "end_of_round")
SCHEMES = ("win_loss", "rank", "score_margin")

# Observation offsets used below, as plain ints (numba freezes module globals).
_PRESENT, _FIRST_F, _SLOT_STANDEE = 0, 2, SLOT["standee_owner"]
_S_PERM_EMPTY, _S_PERM_COVER, _S_VP, _S_COVERED = (
    SLOT["permanent_empty"],
    SLOT["permanent_cover"],
    SLOT["vp"],
    SLOT["covered"],
)
_S_CAN_KILL = SLOT["can_kill"]
DECK_SCALE = (15.0, 12.0, 9.0)
_DS0, _DS1, _DS2 = DECK_SCALE
_PLAY_AMMO, _LOAD, _SOURCE, _SOURCE_JOKER = A.PLAY_AMMO, A.LOAD, A.SOURCE, A.SOURCE_JOKER
_ATTACK, _ATTACK_IMPACT, _L1_SWAP, _L1_SKIP = A.ATTACK, A.ATTACK_IMPACT, A.L1_SWAP, A.L1_SKIP
_SELECT_HAND, _EXCHANGE_TAKE, _POWER_JOKER = A.SELECT_HAND, A.EXCHANGE_TAKE, A.POWER_JOKER
_POWER_RELOAD, _END_TURN, _END_TURN_IMMUNITY = A.POWER_RELOAD, A.END_TURN, A.END_TURN_IMMUNITY


def _jit(fn):
    return njit(cache=True, nogil=True)(fn) if AVAILABLE else fn


# -- weapon assignment (assignment.assign / impact_assignment / _slot_options) -----------------------
@_jit
def _assign(r1, r2, r3, h1, h2, h3):
    """(possible, used P1, used P2, used P3): assignment.assign on counts."""
    if r3 > h3:
        return False, 0, 0, 0
    spare3 = h3 - r3
    u2 = min(h2, r2)
    extra3 = r2 - u2
    if extra3 > spare3:
        return False, 0, 0, 0
    spare3 -= extra3
    spare2 = h2 - u2
    x1 = min(h1, r1)
    rest = r1 - x1
    y2 = min(spare2, rest)
    rest -= y2
    if rest > spare3:
        return False, 0, 0, 0
    return True, x1, u2 + y2, r3 + extra3 + rest


@_jit
def _better(h1, h2, h3, a1, a2, a3, b1, b2, b3):
    """leftover_key(have, a) > leftover_key(have, b): more strong weapons left, lexicographically."""
    ka, kb = h3 - a3, h3 - b3
    if ka != kb:
        return ka > kb
    ka, kb = h2 - a2, h2 - b2
    if ka != kb:
        return ka > kb
    return h1 - a1 > h1 - b1


@_jit
def _impact_assign(r1, r2, r3, h1, h2, h3):
    """assignment.impact_assignment: the P3 reduction first, the better leftover wins."""
    best_ok, b1, b2, b3 = False, 0, 0, 0
    if r3:
        ok, u1, u2, u3 = _assign(r1, r2 + 1, r3 - 1, h1, h2, h3)
        if ok:
            best_ok, b1, b2, b3 = True, u1, u2, u3
    if r2:
        ok, u1, u2, u3 = _assign(r1 + 1, r2 - 1, r3, h1, h2, h3)
        if ok and (not best_ok or _better(h1, h2, h3, u1, u2, u3, b1, b2, b3)):
            best_ok, b1, b2, b3 = True, u1, u2, u3
    return best_ok, b1, b2, b3


@_jit
def _required(s, g, c, lv):
    """Impacts needed now in (c, lv), and whether the dark zone is covered."""
    m = s[BOARD + 3 * c + lv]
    covered = lv > 0 and (s[ON + 3 * c + lv] != NO or s[PERM + 3 * c + lv - 1] != 0)
    r = (RBRIGHT if covered else RFULL) + 3 * m
    return g[r], g[r + 1], g[r + 2], covered


@_jit
def _has_power(s, seat, power):
    return s[THOLD + power] == seat and s[TSTATE + power] == HELD


@_jit
def _slot_options(s, g, seat, c, lv, impact):
    """(attack possible, possible with IMPACT, IMPACT useful) for the monster in (c, lv)."""
    r1, r2, r3, _ = _required(s, g, c, lv)
    h1, h2, h3 = s[LPOW + 3 * seat], s[LPOW + 3 * seat + 1], s[LPOW + 3 * seat + 2]
    ok, u1, u2, u3 = _assign(r1, r2, r3, h1, h2, h3)
    if not impact:
        return ok, False, False
    iok, i1, i2, i3 = _impact_assign(r1, r2, r3, h1, h2, h3)
    if not iok:
        return ok, False, False
    return ok, True, (not ok) or _better(h1, h2, h3, i1, i2, i3, u1, u2, u3)


# -- legal mask -------------------------------------------------------------------------------
@_jit
def _power_actions(s, g, seat, mask):
    if _has_power(s, seat, EXCHANGE):
        first_kind, kinds = NO, 0
        for k in range(K):
            if s[HANDS + K * seat + k]:
                kinds += 1
                first_kind = k
        for k in range(K):
            # a card of another kind is in hand to give back
            if s[DISCARD + k] and (kinds > 1 or (kinds == 1 and first_kind != k)):
                mask[_EXCHANGE_TAKE + k] = 1
    if _has_power(s, seat, JOKER) and s[JOK + seat] < JOKER_CAP:
        mask[_POWER_JOKER] = 1
    if _has_power(s, seat, RELOAD):
        for slot in range(2):
            if s[MAGA + 2 * seat + slot] < g[KAMMO + s[MAGK + 2 * seat + slot]]:
                mask[_POWER_RELOAD + slot] = 1


@_jit
def _fill_mask(s, g, mask):
    """The legal mask of ``s`` into ``mask``; returns the number of legal actions."""
    mask[:] = 0
    if s[END] != 0:
        return 0
    n = g[GN]
    seat = s[CUR]
    hand = HANDS + K * seat
    phase = s[PHASE]
    if phase == SETUP_PICK or phase == L1_GIVE:
        for k in range(K):
            if s[hand + k]:
                mask[_SELECT_HAND + k] = 1
    elif phase == MAIN:
        src = np.zeros(5, np.int64)
        for i in range(n):
            for slot in range(2):
                if s[MAGA + 2 * i + slot] > 0:
                    src[g[KTYPE + s[MAGK + 2 * i + slot]]] += 1
        budget = s[JOK + seat]
        for k in range(K):
            if s[hand + k]:
                mask[_PLAY_AMMO + 2 * k] = 1
                mask[_PLAY_AMMO + 2 * k + 1] = 1
                if src[g[KTYPE + k]] + budget >= g[KAMMO + k]:
                    mask[_LOAD + k] = 1
        _power_actions(s, g, seat, mask)
    elif phase == LOAD_SOURCE:
        t = g[KTYPE + s[LOADK]]
        for rel in range(n):
            i = seat + rel
            if i >= n:
                i -= n
            for slot in range(2):
                if s[MAGA + 2 * i + slot] > 0 and g[KTYPE + s[MAGK + 2 * i + slot]] == t:
                    used = False
                    for u in range(s[NUSED]):
                        if s[USEDL + 2 * u] == i and s[USEDL + 2 * u + 1] == slot:
                            used = True
                    if not used:
                        mask[_SOURCE + 2 * rel + slot] = 1
        if s[JOK + seat]:
            mask[_SOURCE_JOKER] = 1
    elif phase == POST:
        if s[ATTACKS] == 0 or (s[ATTACKS] == 1 and _has_power(s, seat, ADRENALINE)):
            impact = _has_power(s, seat, IMPACT)
            for c in range(n):
                for lv in range(NUM_LEVELS):
                    if s[BOARD + 3 * c + lv] == NO:
                        continue
                    ok, _, useful = _slot_options(s, g, seat, c, lv, impact)
                    if ok:
                        mask[_ATTACK + 3 * c + lv] = 1
                    if useful:
                        mask[_ATTACK_IMPACT + 3 * c + lv] = 1
        _power_actions(s, g, seat, mask)
        mask[_END_TURN] = 1
        if _has_power(s, seat, IMMUNITY) and (s[MAGA + 2 * seat] == 0 or s[MAGA + 2 * seat + 1] == 0):
            mask[_END_TURN_IMMUNITY] = 1
    elif phase == L1_SLOT:
        mask[_L1_SWAP : _L1_SWAP + 2 * n] = 1
        mask[_L1_SKIP] = 1
    elif phase == EXCHANGE_GIVE:
        for k in range(K):
            if s[hand + k] and k != s[EXK]:
                mask[_SELECT_HAND + k] = 1
    count = 0
    for a in range(NUM_ACTIONS):
        count += mask[a]
    return count


# -- apply ------------------------------------------------------------------------------------
@_jit
def _take_from_hand(s, seat, kind):
    s[HANDS + K * seat + kind] -= 1
    if s[KNOWN + K * seat + kind]:
        s[KNOWN + K * seat + kind] -= 1


@_jit
def _give_publicly(s, seat, kind):
    s[HANDS + K * seat + kind] += 1
    s[KNOWN + K * seat + kind] += 1


@_jit
def _gain_joker(s, seat):
    if s[JOK + seat] < JOKER_CAP:
        s[JOK + seat] += 1


@_jit
def _select_hand(s, g, kind):
    seat = s[CUR]
    n = g[GN]
    if s[PHASE] == SETUP_PICK:
        _take_from_hand(s, seat, kind)
        slot = s[PICKS]
        s[MAGK + 2 * seat + slot] = kind
        s[MAGA + 2 * seat + slot] = g[KAMMO + kind]
        s[PICKS] += 1
        if s[PICKS] == MAGAZINE_PICKS:
            s[PICKS] = 0
            nxt = (seat + 1) % n
            s[CUR] = nxt
            if nxt == s[FIRST]:
                s[ROUND] = 1
                s[PHASE] = MAIN
    elif s[PHASE] == L1_GIVE:
        target, slot = s[L1OWN], s[L1SLOT]
        replaced = s[MAGK + 2 * target + slot]
        _take_from_hand(s, seat, kind)
        _give_publicly(s, seat, replaced)
        s[MAGK + 2 * target + slot] = kind
        s[MAGA + 2 * target + slot] = g[KAMMO + kind]
        if target == seat:
            _gain_joker(s, seat)
        s[L1OWN] = NO
        s[L1SLOT] = NO
        s[PHASE] = POST
    else:  # EXCHANGE_GIVE
        taken = s[EXK]
        _take_from_hand(s, seat, kind)
        s[DISCARD + kind] += 1
        s[DISCARD + taken] -= 1
        _give_publicly(s, seat, taken)
        s[TSTATE + EXCHANGE] = USED
        s[EXK] = NO
        s[PHASE] = s[RETPH]


@_jit
def _sourced(s, g, seat):
    s[LOADNEED] -= 1
    if s[LOADNEED] == 0:
        kind = s[LOADK]
        s[LOADED + K * seat + kind] += 1
        s[LPOW + 3 * seat + g[KPOW + kind] - 1] += 1
        s[LOADK] = NO
        s[NUSED] = 0
        s[PHASE] = POST


@_jit
def _attack(s, g, c, lv, impact):
    seat = s[CUR]
    r1, r2, r3, _ = _required(s, g, c, lv)
    h1, h2, h3 = s[LPOW + 3 * seat], s[LPOW + 3 * seat + 1], s[LPOW + 3 * seat + 2]
    if impact:
        _, u1, u2, u3 = _impact_assign(r1, r2, r3, h1, h2, h3)
        s[TSTATE + IMPACT] = USED
    else:
        _, u1, u2, u3 = _assign(r1, r2, r3, h1, h2, h3)
    if s[ATTACKS] == 1:
        s[TSTATE + ADRENALINE] = USED
    s[ATTACKS] += 1
    # 1. Discard the assigned weapons, lowest type first among equal powers.
    for p in range(3):
        count = u1 if p == 0 else (u2 if p == 1 else u3)
        s[LPOW + 3 * seat + p] -= count
        k = p
        while count:
            take = min(count, s[LOADED + K * seat + k])
            s[LOADED + K * seat + k] -= take
            s[DISCARD + k] += take
            count -= take
            k += 3
    # 2. The attacker takes the monster.
    monster = s[BOARD + 3 * c + lv]
    s[BOARD + 3 * c + lv] = NO
    s[KILLS + MAX_MONSTERS * seat + s[NKILLS + seat]] = monster
    s[NKILLS + seat] += 1
    s[VP + seat] += g[MVP + monster]
    s[KILLED] = 1
    # 3. A standee on the killed monster goes back to its owner.
    owner = s[ON + 3 * c + lv]
    if owner != NO:
        s[ON + 3 * c + lv] = NO
        s[STANDEE + owner] = NO
    # 4. The attacker's standee moves to the breach this kill opens, or comes back.
    mine = s[STANDEE + seat]
    if mine != NO:
        s[ON + mine] = NO
        s[STANDEE + seat] = NO
    if lv < 2 and s[BOARD + 3 * c + lv + 1] != NO:
        s[ON + 3 * c + lv + 1] = seat
        s[STANDEE + seat] = 3 * c + lv + 1
    # 5. Level 3: the column's artefact goes to the Level-2 breach opener, else the attacker.
    if lv == 2 and s[PED + c] != NO:
        power = s[PED + c]
        winner = owner if owner != NO else seat
        s[PED + c] = NO
        s[TSTATE + power] = HELD
        s[THOLD + power] = winner
        s[ARTS + NUM_POWERS * winner + s[NARTS + winner]] = power
        s[NARTS + winner] += 1
        all_held = True
        for col in range(M5):
            if s[PED + col] != NO:
                all_held = False
        if all_held:
            s[ALLHELD] = 1
            if g[GARTEND] == 0:
                s[END] = 1  # "A"
    if s[END] != 0:
        return
    # 7. Level 1: the special effect, when there is a card to give.
    if lv == 0:
        for k in range(K):
            if s[HANDS + K * seat + k]:
                s[PHASE] = L1_SLOT
                break


@_jit
def _refill(s, g):
    for c in range(g[GN]):
        if s[ON + 3 * c] != NO or s[ON + 3 * c + 1] != NO or s[ON + 3 * c + 2] != NO:
            continue
        for lv in range(NUM_LEVELS):
            if s[BOARD + 3 * c + lv] == NO and not s[PERM + 3 * c + lv]:
                if s[DECKLEN + lv]:
                    s[DECKLEN + lv] -= 1
                    s[BOARD + 3 * c + lv] = s[DECKS + MAX_MONSTERS * lv + s[DECKLEN + lv]]
                else:
                    s[PERM + 3 * c + lv] = 1


@_jit
def _end_turn(s, g, immunity):
    seat = s[CUR]
    n = g[GN]
    # 1. Penalty for own empty Magazine cards.
    if not immunity:
        empty = (s[MAGA + 2 * seat] == 0) + (s[MAGA + 2 * seat + 1] == 0)
        if empty:
            after = s[WHEEL + seat] - empty
            if g[GFLOORON] and after < g[GFLOOR]:
                after = g[GFLOOR]
            s[PENALTY] += s[WHEEL + seat] - after
            s[WHEEL + seat] = after
    # 2. No kill this turn: the standee comes back and its breach closes.
    mine = s[STANDEE + seat]
    if not s[KILLED] and mine != NO:
        s[ON + mine] = NO
        s[STANDEE + seat] = NO
    # 3. Refill every column where no hero stands.
    _refill(s, g)
    s[TURNS + seat] += 1
    # 4. Game end.
    nxt = (seat + 1) % n
    round_over = nxt == s[FIRST]
    if s[ALLHELD] and (g[GARTEND] == 1 or round_over):
        s[END] = 1
        return
    if round_over and s[ROUND] == ROUNDS:
        s[END] = 2
        return
    # 5. Next player.
    if round_over:
        s[ROUND] += 1
    s[CUR] = nxt
    s[PHASE] = MAIN
    s[ATTACKS] = 0
    s[KILLED] = 0


@_jit
def _value(s, g, i, artefact_vp):
    return s[VP + i] + s[WHEEL + i] + artefact_vp * s[NARTS + i]


@_jit
def _potentials(s, g, out):
    n = g[GN]
    extra = ARTEFACT_VP if g[GSHAPEART] else 0
    total = 0
    for i in range(n):
        total += _value(s, g, i, extra)
    for i in range(n):
        v = _value(s, g, i, extra)
        out[i] = (v - (total - v) / (n - 1)) / 20.0


@_jit
def _returns(s, g, out):
    """LastHeroesState.returns(): by reward scheme, on (score, monsters killed)."""
    n = g[GN]
    bonus = ARTEFACT_VP if s[END] == 1 else 0
    score = np.zeros(n, np.int64)
    for i in range(n):
        score[i] = _value(s, g, i, bonus)
    scheme = g[GSCHEME]
    if scheme == 2:  # score_margin
        for i in range(n):
            other = -(1 << 40)
            for j in range(n):
                if j != i and score[j] > other:
                    other = score[j]
            out[i] = min(1.0, max(-1.0, (score[i] - other) / 20.0))
        return
    # position of i = seats strictly ahead; ties = seats with the same key
    for i in range(n):
        ahead, tied = 0, 0
        for j in range(n):
            if score[j] > score[i] or (score[j] == score[i] and s[NKILLS + j] > s[NKILLS + i]):
                ahead += 1
            elif score[j] == score[i] and s[NKILLS + j] == s[NKILLS + i]:
                tied += 1
        if scheme == 0:  # win_loss
            out[i] = 1.0 if ahead == 0 else -1.0
        else:  # rank: the mean value of the tied positions
            total = 0.0
            for pos in range(ahead, ahead + tied):
                total += 1.0 - 2.0 * pos / (n - 1)
            out[i] = total / tied


@_jit
def _apply(s, g, action, shaping, rewards, mask):
    """Play the legal ``action``; ``rewards`` gets every seat's reward and ``mask`` the next legal
    mask. Returns the number of legal actions now."""
    n = g[GN]
    before = np.zeros(n, np.float64)
    if shaping:
        _potentials(s, g, before)
    seat = s[CUR]
    if action < _LOAD:  # PLAY_AMMO
        kind, slot = (action - _PLAY_AMMO) // 2, (action - _PLAY_AMMO) % 2
        _take_from_hand(s, seat, kind)
        s[DISCARD + s[MAGK + 2 * seat + slot]] += 1
        s[MAGK + 2 * seat + slot] = kind
        s[MAGA + 2 * seat + slot] = g[KAMMO + kind]
        _gain_joker(s, seat)
        s[PHASE] = POST
    elif action < _SOURCE:  # LOAD
        kind = action - _LOAD
        _take_from_hand(s, seat, kind)
        s[LOADK] = kind
        s[LOADNEED] = g[KAMMO + kind]
        s[NUSED] = 0
        s[PHASE] = LOAD_SOURCE
    elif action < _SOURCE_JOKER:  # SOURCE
        rel, slot = (action - _SOURCE) // 2, (action - _SOURCE) % 2
        owner = (seat + rel) % n
        s[MAGA + 2 * owner + slot] -= 1
        s[USEDL + 2 * s[NUSED]] = owner
        s[USEDL + 2 * s[NUSED] + 1] = slot
        s[NUSED] += 1
        if owner != seat:
            s[WHEEL + owner] += 1
            s[AMMO_OPP] += 1
        _sourced(s, g, seat)
    elif action == _SOURCE_JOKER:
        s[JOK + seat] -= 1
        _sourced(s, g, seat)
    elif action < _ATTACK_IMPACT:  # ATTACK
        _attack(s, g, (action - _ATTACK) // 3, (action - _ATTACK) % 3, False)
    elif action < _L1_SWAP:  # ATTACK_IMPACT
        _attack(s, g, (action - _ATTACK_IMPACT) // 3, (action - _ATTACK_IMPACT) % 3, True)
    elif action < _L1_SKIP:  # L1_SWAP
        s[L1OWN] = (seat + (action - _L1_SWAP) // 2) % n
        s[L1SLOT] = (action - _L1_SWAP) % 2
        s[PHASE] = L1_GIVE
    elif action == _L1_SKIP:
        s[PHASE] = POST
    elif action < _EXCHANGE_TAKE:  # SELECT_HAND
        _select_hand(s, g, action - _SELECT_HAND)
    elif action < _POWER_JOKER:  # EXCHANGE_TAKE
        s[EXK] = action - _EXCHANGE_TAKE
        s[RETPH] = s[PHASE]
        s[PHASE] = EXCHANGE_GIVE
    elif action == _POWER_JOKER:
        _gain_joker(s, seat)
        s[TSTATE + JOKER] = USED
    elif action < _END_TURN:  # POWER_RELOAD
        slot = action - _POWER_RELOAD
        s[MAGA + 2 * seat + slot] = g[KAMMO + s[MAGK + 2 * seat + slot]]
        s[TSTATE + RELOAD] = USED
    elif action == _END_TURN:
        _end_turn(s, g, False)
    else:  # END_TURN_IMMUNITY
        s[TSTATE + IMMUNITY] = USED
        _end_turn(s, g, True)
    if s[END] != 0:
        s[CUR] = NO
        _returns(s, g, rewards)
    else:
        rewards[:n] = 0.0
    if shaping:
        after = np.zeros(n, np.float64)
        if s[END] == 0:
            _potentials(s, g, after)
        for i in range(n):
            rewards[i] += shaping * (after[i] - before[i])
    return _fill_mask(s, g, mask)


# -- observation ------------------------------------------------------------------------------
@_jit
def _fifth(x):
    return x / 5.0


@_jit
def _capped(x, scale):
    y = x / scale
    return y if y < 1.0 else 1.0


@_jit
def _observe(s, g, seat, obs):
    """observation.encode(state, seat) into the zeroed float32 ``obs``."""
    n = g[GN]
    phase = s[PHASE]
    # global
    obs[G + n - 2] = 1.0
    if s[ROUND]:
        obs[G + 3 + s[ROUND]] = 1.0
    obs[G + 14 + phase] = 1.0
    obs[G + 21 + min(s[ATTACKS], 2)] = 1.0
    for t in range(n):
        obs[G + 24 + t] = 1.0
    if g[GART]:
        on_pedestal, held = 0, 0
        for c in range(M5):
            if s[PED + c] != NO:
                on_pedestal += 1
        for i in range(n):
            held += s[NARTS + i]
        obs[G + 29] = on_pedestal / n
        obs[G + 30] = held / n
    if phase == SETUP_PICK:
        obs[G + 31] = s[PICKS] / 2.0
    # own hand
    for k in range(K):
        obs[H + k] = _fifth(s[HANDS + K * seat + k])
    # seats, relative to the observer
    cp = s[CUR]
    for r in range(n):
        i = (seat + r) % n
        at = S + r * SEAT_SIZE
        obs[at + _PRESENT] = 1.0
        if i == cp:
            obs[at + 1] = 1.0
        if i == s[FIRST]:
            obs[at + _FIRST_F] = 1.0
        size = 0
        for k in range(K):
            size += s[HANDS + K * i + k]
        obs[at + _HAND_SIZE] = size / 12.0
        for slot in range(2):
            kind = s[MAGK + 2 * i + slot]
            if kind != NO:
                base = at + _SLOT0 + 17 * slot
                ammo = s[MAGA + 2 * i + slot]
                obs[base + kind] = 1.0
                obs[base + 15] = ammo / 3.0
                if ammo == 0:
                    obs[base + 16] = 1.0
        obs[at + _JOKERS + min(s[JOK + i], JOKER_CAP)] = 1.0
        w = s[WHEEL + i] / 20.0
        obs[at + _WHEEL] = -1.0 if w < -1.0 else (w if w < 1.0 else 1.0)
        for k in range(K):
            obs[at + _LOADED + k] = _fifth(s[LOADED + K * i + k])
        for p in range(3):
            obs[at + _LOADED_P + p] = _capped(s[LPOW + 3 * i + p], 12.0)
        obs[at + _KILLS] = _capped(s[NKILLS + i], 15.0)
        obs[at + _KILLS + 1] = _capped(s[VP + i], 40.0)
        for a in range(s[NARTS + i]):
            p = s[ARTS + NUM_POWERS * i + a]
            obs[at + _ARTEFACTS + p] = 1.0
            if s[TSTATE + p] == HELD:
                obs[at + _USABLE + p] = 1.0
        pos = s[STANDEE + i]
        if pos != NO:
            obs[at + _STANDEE] = 1.0
            obs[at + _STANDEE + 1 + pos // 3] = 1.0
            obs[at + _STANDEE + 6 + (pos % 3) - 1] = 1.0
        known = HANDS if (g[GOPEN] or r == 0) else KNOWN
        for k in range(K):
            obs[at + _KNOWN + k] = _fifth(s[known + K * i + k])
    # battlefield
    lp = LPOW + 3 * seat
    armed = s[lp] + s[lp + 1] + s[lp + 2] > 0
    impact = _has_power(s, seat, IMPACT)
    for c in range(n):
        col = B + c * COLUMN_SIZE
        obs[col] = 1.0
        ped = s[PED + c]
        if ped != NO:
            obs[col + 1] = 1.0
            obs[col + 2 + ped] = 1.0
        for lv in range(NUM_LEVELS):
            at = col + COLUMN_HEAD + lv * SLOT_SIZE
            if s[PERM + 3 * c + lv]:
                obs[at + _S_PERM_EMPTY] = 1.0
            if lv and s[PERM + 3 * c + lv - 1]:
                obs[at + _S_PERM_COVER] = 1.0
            m = s[BOARD + 3 * c + lv]
            if m == NO:
                continue
            obs[at] = 1.0
            n1, n2, n3, covered = _required(s, g, c, lv)
            for p in range(3):
                full, bright = g[RFULL + 3 * m + p], g[RBRIGHT + 3 * m + p]
                obs[at + 1 + p] = bright / 2.0
                obs[at + 4 + p] = (full - bright) / 2.0
            obs[at + 7] = n1 / 4.0
            obs[at + 8] = n2 / 4.0
            obs[at + 9] = n3 / 4.0
            obs[at + _S_VP] = g[MVP + m] / 8.0
            if covered:
                obs[at + _S_COVERED] = 1.0
            if armed:
                ok, with_impact, _ = _slot_options(s, g, seat, c, lv, impact)
                if ok:
                    obs[at + _S_CAN_KILL] = 1.0
                if with_impact:
                    obs[at + _S_CAN_KILL + 1] = 1.0
    for i in range(n):
        pos = s[STANDEE + i]
        if pos != NO:
            c, lv = pos // 3, pos % 3
            obs[B + c * COLUMN_SIZE + COLUMN_HEAD + lv * SLOT_SIZE + _SLOT_STANDEE + (i - seat) % n] = 1.0
    # decks and cards
    obs[D] = s[DECKLEN] / _DS0
    obs[D + 1] = s[DECKLEN + 1] / _DS1
    obs[D + 2] = s[DECKLEN + 2] / _DS2
    for lv in range(NUM_LEVELS):
        for j in range(s[DECKLEN + lv]):
            obs[D + 3 + s[DECKS + MAX_MONSTERS * lv + j]] = 1.0
    for k in range(K):
        obs[X + k] = _capped(s[DISCARD + k], 5.0)
        if g[INPLAY + k]:
            others = 0
            for i in range(n):
                if i != seat:
                    others += s[HANDS + K * i + k]
            obs[X + K + k] = _capped(others, 5.0)
    # pending sub-decision
    if phase == LOAD_SOURCE:
        obs[P + s[LOADK]] = 1.0
        for u in range(s[NUSED]):
            obs[P + 16 + 2 * ((s[USEDL + 2 * u] - seat) % n) + s[USEDL + 2 * u + 1]] = 1.0
        obs[P + 15] = s[LOADNEED] / 3.0
    elif phase == EXCHANGE_GIVE:
        obs[P + 26 + s[EXK]] = 1.0
    elif phase == L1_GIVE:
        obs[P + 41 + 2 * ((s[L1OWN] - seat) % n) + s[L1SLOT]] = 1.0
    # power tiles
    for p in range(NUM_POWERS):
        obs[T + 4 * p + s[TSTATE + p]] = 1.0


# -- packing: reference state <-> arrays ------------------------------------------------------
def game_array(game) -> np.ndarray:
    """The options and content tables of ``game`` as the int32 array the compiled rules read."""
    if not AVAILABLE:
        raise RuntimeError('engine="compiled" needs numba, which could not be imported; use engine="python"')
    c = game.content
    if len(c.monsters) > MAX_MONSTERS:
        raise ValueError(
            f'engine="compiled" supports content with at most {MAX_MONSTERS} monsters '
            f"(the observation's deck block); this content has {len(c.monsters)}"
        )
    if max(c.kind_ammo) > MAX_LOAD:
        raise ValueError(f'engine="compiled" supports weapons needing at most {MAX_LOAD} Ammo')
    o = game.options
    g = np.zeros(GAME_SIZE, np.int32)
    floor = o["score_floor"]
    g[:8] = (
        game.num_players,
        bool(game.use_artefacts),
        ARTEFACT_ENDS.index(o["artefact_end"]),
        floor is not None,
        floor or 0,
        bool(o["open_hands"]),
        SCHEMES.index(o["reward_scheme"]),
        bool(o["shape_artefacts"]),
    )
    g[KTYPE : KTYPE + K] = c.kind_type
    g[KPOW : KPOW + K] = c.kind_power
    g[KAMMO : KAMMO + K] = c.kind_ammo
    for k in game.kinds_in_play:
        g[INPLAY + k] = 1
    for m in range(len(c.monsters)):
        g[RFULL + 3 * m : RFULL + 3 * m + 3] = game.req_full[m]
        g[RBRIGHT + 3 * m : RBRIGHT + 3 * m + 3] = game.req_bright[m]
        g[MVP + m] = game.monster_vp[m]
    return g


def pack(ref: LastHeroesState) -> np.ndarray:
    """The int32 state array of a reference state."""
    s = np.zeros(STATE_SIZE, np.int32)
    n = ref.n
    for i in range(n):
        s[HANDS + K * i : HANDS + K * (i + 1)] = ref.hands[i]
        s[KNOWN + K * i : KNOWN + K * (i + 1)] = ref.known[i]
        s[MAGK + 2 * i : MAGK + 2 * i + 2] = ref.mag_kind[i]
        s[MAGA + 2 * i : MAGA + 2 * i + 2] = ref.mag_ammo[i]
        s[LOADED + K * i : LOADED + K * (i + 1)] = ref.loaded[i]
        s[LPOW + 3 * i : LPOW + 3 * i + 3] = ref.loaded_power[i]
        s[KILLS + MAX_MONSTERS * i : KILLS + MAX_MONSTERS * i + len(ref.kills[i])] = ref.kills[i]
        s[ARTS + NUM_POWERS * i : ARTS + NUM_POWERS * i + len(ref.artefacts[i])] = ref.artefacts[i]
        s[NKILLS + i], s[NARTS + i] = len(ref.kills[i]), len(ref.artefacts[i])
    s[JOK : JOK + n] = ref.jokers
    s[WHEEL : WHEEL + n] = ref.wheel
    s[VP : VP + n] = ref.vp
    s[STANDEE : STANDEE + n] = ref.standee
    s[TURNS : TURNS + n] = ref.turns_taken
    s[BOARD : BOARD + 3 * M5] = np.ravel(ref.board)
    s[ON : ON + 3 * M5] = np.ravel(ref.standee_on)
    s[PERM : PERM + 3 * M5] = np.ravel(ref.permanent)
    for lv in range(NUM_LEVELS):
        deck = ref.decks[lv]
        s[DECKLEN + lv] = len(deck)
        s[DECKS + MAX_MONSTERS * lv : DECKS + MAX_MONSTERS * lv + len(deck)] = deck
    s[DISCARD : DISCARD + K] = ref.discard
    s[PED : PED + M5] = ref.pedestal
    s[TSTATE : TSTATE + NUM_POWERS] = ref.tile_state
    s[THOLD : THOLD + NUM_POWERS] = ref.tile_holder
    for u, (owner, slot) in enumerate(ref.load_used):
        s[USEDL + 2 * u : USEDL + 2 * u + 2] = owner, slot
    l1 = ref.l1_target if ref.l1_target is not None else (NO, NO)
    s[_SC : _SC + 18] = (
        ref.setup_picks,
        ref.first,
        ref.current_player,
        ref.phase,
        ref.round,
        ref.attacks,
        ref.killed_this_turn,
        ref.load_kind,
        ref.load_need,
        len(ref.load_used),
        ref.exchange_kind,
        ref.return_phase,
        l1[0],
        l1[1],
        ref.all_artefacts_held,
        END_CASES.index(ref.end_case),
        ref.ammo_from_opponents,
        ref.penalty_lost,
    )
    return s


def unpack(game, s: np.ndarray, rng_state: dict) -> LastHeroesState:
    """A reference state equal to the array ``s``, its generator in ``rng_state``."""
    ref = LastHeroesState.__new__(LastHeroesState)
    ref._blank(game)
    n = ref.n
    v = s.tolist()

    def block(at, size):
        return v[at : at + size]

    for i in range(n):
        ref.hands[i] = block(HANDS + K * i, K)
        ref.known[i] = block(KNOWN + K * i, K)
        ref.mag_kind[i] = block(MAGK + 2 * i, 2)
        ref.mag_ammo[i] = block(MAGA + 2 * i, 2)
        ref.loaded[i] = block(LOADED + K * i, K)
        ref.loaded_power[i] = block(LPOW + 3 * i, 3)
        ref.kills[i] = block(KILLS + MAX_MONSTERS * i, v[NKILLS + i])
        ref.artefacts[i] = block(ARTS + NUM_POWERS * i, v[NARTS + i])
    ref.jokers = block(JOK, n)
    ref.wheel = block(WHEEL, n)
    ref.vp = block(VP, n)
    ref.standee = block(STANDEE, n)
    ref.turns_taken = block(TURNS, n)
    ref.board = [block(BOARD + 3 * c, 3) for c in range(M5)]
    ref.standee_on = [block(ON + 3 * c, 3) for c in range(M5)]
    ref.permanent = [[bool(x) for x in block(PERM + 3 * c, 3)] for c in range(M5)]
    ref.decks = [block(DECKS + MAX_MONSTERS * lv, v[DECKLEN + lv]) for lv in range(NUM_LEVELS)]
    ref.discard = block(DISCARD, K)
    ref.pedestal = block(PED, M5)
    ref.tile_state = block(TSTATE, NUM_POWERS)
    ref.tile_holder = block(THOLD, NUM_POWERS)
    ref.load_used = [(v[USEDL + 2 * u], v[USEDL + 2 * u + 1]) for u in range(v[NUSED])]
    ref.setup_picks, ref.first, ref.current_player, ref.phase = v[PICKS], v[FIRST], v[CUR], v[PHASE]
    ref.round, ref.attacks, ref.killed_this_turn = v[ROUND], v[ATTACKS], bool(v[KILLED])
    ref.load_kind, ref.load_need, ref.exchange_kind, ref.return_phase = v[LOADK], v[LOADNEED], v[EXK], v[RETPH]
    ref.l1_target = None if v[L1OWN] == NO else (v[L1OWN], v[L1SLOT])
    ref.all_artefacts_held = bool(v[ALLHELD])
    ref.end_case = END_CASES[v[END]]
    ref.ammo_from_opponents, ref.penalty_lost = v[AMMO_OPP], v[PENALTY]
    ref._count_hands()
    ref.rng = np.random.default_rng()
    ref.rng.bit_generator.state = rng_state
    return ref


class CompiledState(State):
    """A Last Heroes state whose rules and observations run compiled (see the module doc).

    ``legal_mask``, ``apply``, ``rewards``, ``observe`` and the status methods run on the array;
    the rest asks :meth:`reference`, and so does reading any other attribute of the reference
    state (``state.hands``, ``state.vp``, ``state.required(c, lv)``...): such reads see the position
    as it is, but writing to them changes nothing here."""

    __slots__ = ("game", "s", "_g", "_shaping", "_rewards", "_mask", "_legal", "_rng_state", "_ref")

    def __init__(self, game, ref: LastHeroesState):
        self.game = game
        self._g = game.compiled_array
        self._shaping = float(game.options["shaping_coef"])
        self.s = pack(ref)
        self._rewards = np.array(ref.rewards() + [0.0] * (M5 - ref.n), np.float64)
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self._legal = _fill_mask(self.s, self._g, self._mask)
        # The rules draw nothing after setup; the generator's state is kept for to_json (a dict that
        # is never mutated, so clones share it).
        self._rng_state = ref.rng.bit_generator.state
        self._ref = ref

    @classmethod
    def new(cls, game, seed: int | None) -> CompiledState:
        return cls(game, LastHeroesState.new(game, seed))

    # -- hot path ----------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[CUR])

    @property
    def n(self) -> int:
        return self.game.num_players

    @property
    def phase(self) -> int:
        return int(self.s[PHASE])

    def is_terminal(self) -> bool:
        return self.s[END] != 0

    def legal_mask(self) -> np.ndarray:
        return self._mask

    def num_legal(self) -> int:
        """How many actions are legal now (no mask scan)."""
        return self._legal

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check (for a caller that has just checked it)."""
        self._ref = None
        self._legal = _apply(self.s, self._g, action, self._shaping, self._rewards, self._mask)

    def rewards(self) -> list[float]:
        return self._rewards[: self.n].tolist()

    def observe(self, seat: int) -> np.ndarray:
        seat = check_seat(self, seat)  # the compiled encoder would read out of bounds
        obs = np.zeros(OBS_SIZE, np.float32)  # allocated here: numba's own np.zeros unpickles its dtype per call
        _observe(self.s, self._g, seat, obs)
        return obs

    def returns(self) -> list[float]:
        out = np.zeros(M5, np.float64)
        _returns(self.s, self._g, out)
        return out[: self.n].tolist()

    def scores(self) -> list[float]:
        s, n = self.s, self.n
        bonus = ARTEFACT_VP if s[END] == 1 else 0
        return [int(s[VP + i] + s[WHEEL + i] + bonus * s[NARTS + i]) for i in range(n)]

    def winners(self) -> list[int]:
        """Seats tied at the top on (score, monsters killed)."""
        keys = [(sc, int(self.s[NKILLS + i])) for i, sc in enumerate(self.scores())]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def outcome(self) -> Outcome | None:
        if self.s[END] == 0:
            return None
        return Outcome(tuple(self.winners()), END_REASONS[END_CASES[self.s[END]]])

    def info(self) -> dict[str, Any]:
        # on the array: the AEC driver asks after every step
        s = self.s
        d: dict[str, Any] = {"phase": PHASES[s[PHASE]], "round": int(s[ROUND])}
        if s[END] != 0:
            d.update(
                final_scores=self.scores(),
                winners=self.winners(),
                end_case=END_CASES[s[END]],
                monsters_killed=s[NKILLS : NKILLS + self.n].tolist(),
            )
        return d

    # -- everything else, on the reference ------------------------------------------------------
    def reference(self) -> LastHeroesState:
        """The pure-Python state equal to this one (rebuilt after each apply, when asked)."""
        if self._ref is None:
            ref = unpack(self.game, self.s, self._rng_state)
            ref._rewards = self.rewards()
            self._ref = ref
        return self._ref

    def __getattr__(self, name: str):
        # Only for names not found on this object: the reference state's attributes, read-only.
        if name in CompiledState.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.reference(), name)

    def describe_action(self, action: int) -> str:
        return self.reference().describe_action(action)

    def render(self, seat: int | None = None) -> str:
        return self.reference().render(seat)

    def to_json(self) -> dict[str, Any]:
        return self.reference().to_json()

    def shaping_potentials(self) -> list[float]:
        return self.reference().shaping_potentials()

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> State:
        return _json_resample_hidden(self.reference(), seat, rng)  # built by game.state_from_json: compiled too

    def clone(self) -> CompiledState:
        c = CompiledState.__new__(CompiledState)
        c.game, c._g, c._shaping = self.game, self._g, self._shaping
        c.s, c._rewards, c._mask, c._legal = self.s.copy(), self._rewards.copy(), self._mask.copy(), self._legal
        c._rng_state, c._ref = self._rng_state, None
        return c

    def __repr__(self) -> str:
        return f"CompiledState(phase={PHASES[self.phase]}, round={int(self.s[ROUND])}, player={self.current_player})"


__all__ = ["AVAILABLE", "CompiledState", "game_array", "pack", "unpack"]
