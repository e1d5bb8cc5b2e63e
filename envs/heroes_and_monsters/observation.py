"""The Heroes and Monsters observation: 1924 floats in [0, 1], seat-relative, padded to 4 seats.

Only what the observing seat may know (docs 5.2): its own hand, the active player's hand (played
face up during its own turn), public zones, counts and compositions, never a deck order or
another waiting player's hand.
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


def encode(state, seat: int) -> np.ndarray:
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


# Plan count sanity: the Plan one-hot has room for every Plan.
assert len(PLANS) == 7 and len(GENERALS) == 6
