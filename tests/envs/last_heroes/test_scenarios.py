"""Section 8 of docs/last_heroes.md: the 27 given/when/then scenarios, one test (or table) each.

Positions are built as ``to_json()`` dicts (tests/envs/last_heroes/builders.py) and rebuilt with
``game.state_from_json``. Action ids always come from the layout; ``test_layout_matches_spec_ids``
pins the literal ids the spec quotes. Levels in this file are the spec's 1..3 (the engine and the
JSON use 0..2); the helpers below convert. Every scenario built from a Position runs on both rules
engines (the ``engine`` fixture).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.content import DEFAULT, NUM_KINDS
from envs.last_heroes.env import raw_env
from envs.last_heroes.game import LastHeroesGame
from envs.last_heroes.observation import SEAT, SEAT_SIZE, S
from tests.envs.last_heroes import builders
from tests.envs.last_heroes.builders import (
    BOLTS_P1,
    BOLTS_P2,
    BOLTS_P3,
    CHIMERA,
    DRAGON,
    ENERGY_P1,
    ENERGY_P2,
    ENERGY_P3,
    FIRE_P1,
    FIRE_P2,
    FIRE_P3,
    GIANT_SNAKE,
    GOBLIN,
    HYDRA,
    IMP,
    LICH,
    MINOTAUR,
    OGRE,
    POISON_P1,
    POISON_P3,
    SPIDER,
    WEREWOLF,
    Position,
    counts,
    powers_to_kinds,
)


@pytest.fixture(autouse=True, params=["python", "compiled"])
def engine(request, monkeypatch):
    """The rules engine of every Position built by the test."""
    monkeypatch.setattr(builders, "ENGINE", request.param)
    return request.param


# -- action ids, through the layout only ----------------------------------------------------------
def PLAY_AMMO(k, slot):
    return LAYOUT.encode("PLAY_AMMO", kind=k, slot=slot)


def LOAD(k):
    return LAYOUT.encode("LOAD", kind=k)


def SOURCE(seat, slot):
    return LAYOUT.encode("SOURCE", seat=seat, slot=slot)


def ATTACK(c, level):
    """Spec slot (c, level), level 1..3."""
    return LAYOUT.encode("ATTACK", column=c, level=level - 1)


def ATTACK_IMPACT(c, level):
    return LAYOUT.encode("ATTACK_IMPACT", column=c, level=level - 1)


def L1_SWAP(seat, slot):
    return LAYOUT.encode("L1_SWAP", seat=seat, slot=slot)


def SELECT_HAND(k):
    return LAYOUT.encode("SELECT_HAND", kind=k)


def EXCHANGE_TAKE(k):
    return LAYOUT.encode("EXCHANGE_TAKE", kind=k)


def POWER_RELOAD(slot):
    return LAYOUT.encode("POWER_RELOAD", slot=slot)


SOURCE_JOKER = LAYOUT.encode("SOURCE_JOKER")
L1_SKIP = LAYOUT.encode("L1_SKIP")
POWER_JOKER = LAYOUT.encode("POWER_JOKER")
END_TURN = LAYOUT.encode("END_TURN")
END_TURN_IMMUNITY = LAYOUT.encode("END_TURN_IMMUNITY")


def block(name):
    b = LAYOUT.block(name)
    return set(range(b.start, b.stop))


ATTACK_IDS = block("ATTACK") | block("ATTACK_IMPACT")


# -- reading the state ---------------------------------------------------------------------------
def legal(state):
    ids = set(state.legal_actions())
    mask = state.legal_mask()
    assert set(np.flatnonzero(mask).tolist()) == ids
    return ids


def play(state, *actions):
    for a in actions:
        assert a in legal(state), f"action {a} ({LAYOUT.label(a)}) should be legal; legal: {sorted(legal(state))}"
        state.apply(a)
    return state


def pj(state, i):
    """Player i's public record in the JSON form."""
    return state.to_json()["players"][i]


def standee(state, i):
    """(column, spec level) of player i's standee, or None."""
    s = pj(state, i)["standee"]
    return None if s is None else (s[0], s[1] + 1)


def board(state, c, level):
    return state.to_json()["board"][c][level - 1]


def req(state, c, level):
    """Impacts (P1, P2, P3 counts) the monster in (c, level) requires now."""
    return tuple(state.required(c, level - 1))


def full(monster):
    m = DEFAULT.monsters[monster]
    return tuple(m.impacts.count(p) for p in (1, 2, 3))


def bright(monster):
    m = DEFAULT.monsters[monster]
    return tuple(m.bright.count(p) for p in (1, 2, 3))


def vp(ids):
    return sum(DEFAULT.monsters[m].vp for m in ids)


def deck_sizes(state):
    return [len(d) for d in state.to_json()["decks"]]


# =================================================================================================
# Layout: the literal ids quoted by the spec (section 6.1 and section 8).
# =================================================================================================
SPEC_IDS = [
    # (block, args, id) - every literal id section 8 quotes, plus the singletons of 6.1
    ("ATTACK", (0, 1), 57),  # ATTACK(0,2)
    ("ATTACK_IMPACT", (0, 1), 72),  # ATTACK_IMPACT(0,2)
    ("ATTACK", (1, 2), 61),  # ATTACK(1,3)
    ("LOAD", (1,), 31),
    ("SOURCE", (0, 0), 45),
    ("SOURCE", (1, 1), 48),
    ("LOAD", (4,), 34),
    ("SOURCE", (1, 0), 47),
    ("SOURCE", (2, 1), 50),
    ("SOURCE_JOKER", (), 55),
    ("END_TURN", (), 130),
    ("END_TURN_IMMUNITY", (), 131),
    ("L1_SWAP", (0, 1), 87),
    ("L1_SKIP", (), 96),
    ("SELECT_HAND", (2,), 99),
    ("SELECT_HAND", (9,), 106),
    ("SELECT_HAND", (14,), 111),
    ("PLAY_AMMO", (6, 0), 12),
    ("EXCHANGE_TAKE", (5,), 117),
    ("POWER_JOKER", (), 127),
    ("POWER_RELOAD", (0,), 128),
    ("POWER_RELOAD", (1,), 129),
]


@pytest.mark.parametrize("name,args,expected", SPEC_IDS)
def test_layout_matches_spec_ids(name, args, expected):
    assert LAYOUT.encode(name, *args) == expected
    assert LAYOUT.decode(expected) == (name, args)


# Section 6.1 formulas, checked for every argument value.
SPEC_FORMULAS = [
    ("PLAY_AMMO", (15, 2), lambda k, s: 2 * k + s, (0, 29)),
    ("LOAD", (15,), lambda k: 30 + k, (30, 44)),
    ("SOURCE", (5, 2), lambda r, s: 45 + 2 * r + s, (45, 54)),
    ("ATTACK", (5, 3), lambda c, lv0: 56 + 3 * c + lv0, (56, 70)),
    ("ATTACK_IMPACT", (5, 3), lambda c, lv0: 71 + 3 * c + lv0, (71, 85)),
    ("L1_SWAP", (5, 2), lambda r, s: 86 + 2 * r + s, (86, 95)),
    ("SELECT_HAND", (15,), lambda k: 97 + k, (97, 111)),
    ("EXCHANGE_TAKE", (15,), lambda k: 112 + k, (112, 126)),
    ("POWER_RELOAD", (2,), lambda s: 128 + s, (128, 129)),
]


@pytest.mark.parametrize("name,sizes,formula,ids", SPEC_FORMULAS, ids=[f[0] for f in SPEC_FORMULAS])
def test_layout_formulas_match_spec(name, sizes, formula, ids):
    b = LAYOUT.block(name)
    assert (b.start, b.stop - 1) == ids
    for args in np.ndindex(*sizes):
        args = tuple(int(a) for a in args)
        assert LAYOUT.encode(name, *args) == formula(*args)
    assert LAYOUT.num_actions == 132


def test_helpers_use_spec_levels():
    assert ATTACK(0, 2) == 57 and ATTACK_IMPACT(0, 2) == 72 and ATTACK(1, 3) == 61


def test_builder_round_trips_through_to_json():
    pos = Position(3, phase="POST", current=1, round=4)
    pos.hand(1, {FIRE_P1: 2}).loaded(1, [3, 2]).place(1, 2, WEREWOLF).place(1, 1, None).standee(2, 1, 2)
    pos.artefact(0, "JOKER").discard({BOLTS_P3: 1}).jokers(2, 3).wheel(1, -2).permanent(0, 1)
    data = pos.json()
    out = pos.state().to_json()
    for key in data:
        if key != "rng":
            assert out[key] == data[key], key


# =================================================================================================
# 1. Setup, 3 players.
# =================================================================================================
@pytest.mark.parametrize("seed", range(6))
def test_s01_setup_three_players(seed):
    game = LastHeroesGame(num_players=3)
    state = game.new_state(seed)
    d = state.to_json()
    hands = np.array([p["hand"] for p in d["players"]])
    assert hands.sum(axis=1).tolist() == [12, 12, 12]
    # Only Fire, Bolts and Poison (36 cards, 5/4/3 per power).
    assert hands.sum(axis=0).tolist() == [5, 4, 3] * 3 + [0] * 6
    assert len(d["board"]) == 3
    for c in range(3):
        levels = [DEFAULT.monsters[m].level for m in d["board"][c]]
        assert levels == [1, 2, 3]
    for c in range(3, 5):  # columns beyond the table are empty
        assert all(m == -1 for m in state.board[c])
    assert [len(x) for x in d["decks"]] == [12, 9, 6]
    on_board = {m for col in d["board"] for m in col}
    in_decks = {m for x in d["decks"] for m in x}
    assert on_board | in_decks == set(range(36)) and not on_board & in_decks
    peds = d["pedestals"]
    assert len(peds) == 3 and None not in peds and len(set(peds)) == 3
    assert sorted(name for name, st in d["tiles"].items() if st == "on_pedestal") == sorted(peds)
    assert sum(st == "out_of_game" for st in d["tiles"].values()) == 3
    for p in d["players"]:
        assert p["wheel"] == 0 and p["jokers"] == 0 and p["standee"] is None and p["kills"] == []
        assert sum(p["loaded"]) == 0
    assert sum(d["discard"]) == 0
    first = d["first_player"]
    assert d["current_player"] == first and d["phase"] == "SETUP_PICK"

    rng = np.random.default_rng(seed)
    picks = {i: [] for i in range(3)}
    for pick in range(6):
        seat = (first + pick // 2) % 3
        assert state.current_player == seat
        assert state.to_json()["phase"] == "SETUP_PICK"
        hand = pj(state, seat)["hand"]
        ids = legal(state)
        assert ids == {SELECT_HAND(k) for k in range(NUM_KINDS) if hand[k]}
        assert not ids & set(range(106, 112))  # Energy and Bullets never exist at n=3
        a = int(rng.choice(sorted(ids)))
        k = LAYOUT.decode(a)[1][0]
        state.apply(a)
        picks[seat].append(k)
        # The card is in the Magazine (public) at once, slot 0 first, with full Ammo.
        assert pj(state, seat)["magazine"][len(picks[seat]) - 1] == [k, DEFAULT.kind_ammo[k]]
    d = state.to_json()
    for i, p in enumerate(d["players"]):
        assert sum(p["hand"]) == 10
        assert p["magazine"] == [[k, DEFAULT.kind_ammo[k]] for k in picks[i]]
    assert d["phase"] == "MAIN" and d["round"] == 1 and d["current_player"] == first


def test_s01_first_player_is_random_or_fixed():
    firsts = {LastHeroesGame(num_players=3).new_state(seed).current_player for seed in range(40)}
    assert firsts == {0, 1, 2}
    assert LastHeroesGame(num_players=3, first_player=2).new_state(5).current_player == 2


# =================================================================================================
# 2. Spider, no breach.
# =================================================================================================
def spider_position(loaded_kinds, impact=False):
    pos = Position(2, phase="POST")
    pos.place(0, 2, SPIDER).place(0, 3, HYDRA)  # (0,1) keeps its default monster (a Hellhound)
    pos.loaded(0, kinds=loaded_kinds).hand(0, {BOLTS_P1: 3})
    if impact:
        pos.artefact(0, "IMPACT", column=1)
    return pos


def test_s02_spider_no_breach():
    state = spider_position([FIRE_P2, BOLTS_P2, FIRE_P1]).state()
    assert board(state, 0, 1) is not None
    play(state, ATTACK(0, 2))
    p0 = pj(state, 0)
    assert state.to_json()["discard"] == counts([FIRE_P2, BOLTS_P2])
    assert p0["loaded"] == counts([FIRE_P1])
    assert p0["kills"] == [SPIDER] and state.vp[0] == 3 and state.scores()[0] == 3
    assert standee(state, 0) == (0, 3) and board(state, 0, 3) == HYDRA
    assert req(state, 0, 3) == (0, 2, 0)  # only the bright P2, P2
    assert state.to_json()["phase"] == "POST"  # no L1 effect
    assert legal(state) == {END_TURN}  # every attack id masked (no ADRENALINE)


def test_s02_spider_needs_two_p2():
    state = spider_position(powers_to_kinds([3, 1])).state()
    assert ATTACK(0, 2) not in legal(state)
    assert END_TURN in legal(state)


# =================================================================================================
# 3. IMPACT.
# =================================================================================================
def test_s03a_impact_makes_the_attack_possible():
    state = spider_position(powers_to_kinds([3, 1]), impact=True).state()
    ids = legal(state)
    assert ATTACK(0, 2) not in ids and ATTACK_IMPACT(0, 2) in ids
    play(state, ATTACK_IMPACT(0, 2))
    assert sum(pj(state, 0)["loaded"]) == 0
    assert state.to_json()["discard"] == counts([FIRE_P3, FIRE_P1])
    assert state.to_json()["tiles"]["IMPACT"] == "used"
    assert pj(state, 0)["kills"] == [SPIDER]


def test_s03b_impact_keeps_the_stronger_weapon():
    pos = spider_position(powers_to_kinds([3, 2, 1]), impact=True)
    state = pos.state()
    ids = legal(state)
    assert ATTACK(0, 2) in ids and ATTACK_IMPACT(0, 2) in ids
    play(state, ATTACK_IMPACT(0, 2))
    assert pj(state, 0)["loaded"] == counts([FIRE_P3])
    assert state.to_json()["discard"] == counts([FIRE_P2, FIRE_P1])
    assert state.to_json()["tiles"]["IMPACT"] == "used"
    plain = play(pos.state(), ATTACK(0, 2))
    assert pj(plain, 0)["loaded"] == counts([FIRE_P1])
    assert plain.to_json()["tiles"]["IMPACT"] == "held"


def test_s03c_useless_impact_is_masked():
    state = spider_position(powers_to_kinds([2, 2]), impact=True).state()
    ids = legal(state)
    assert ATTACK(0, 2) in ids and ATTACK_IMPACT(0, 2) not in ids


# =================================================================================================
# 4. Giant Snake.
# =================================================================================================
@pytest.mark.parametrize(
    "powers,ok,left",
    [
        ([3, 3, 2, 1], True, []),
        ([3, 3, 3, 3], True, []),  # the "waste" case: a P3 covers the P2 and another the P1
        ([3, 3, 3, 2, 1], True, [3]),
        ([3, 2, 2, 1], False, None),
    ],
)
def test_s04_giant_snake(powers, ok, left):
    pos = Position(2, phase="POST").place(1, 3, GIANT_SNAKE).loaded(0, powers).hand(0, {BOLTS_P1: 2})
    state = pos.state()
    assert (ATTACK(1, 3) in legal(state)) == ok
    if not ok:
        return
    kinds = powers_to_kinds(powers)
    play(state, ATTACK(1, 3))
    remaining = powers_to_kinds(left)
    assert pj(state, 0)["loaded"] == counts(remaining)
    assert state.to_json()["discard"] == (np.array(counts(kinds)) - np.array(counts(remaining))).tolist()
    assert pj(state, 0)["kills"] == [GIANT_SNAKE] and state.vp[0] == 7
    # No standee on it, so the column's artefact goes to the attacker (2.5 step 5).
    assert pj(state, 0)["artefacts"] == ["EXCHANGE"] and state.to_json()["pedestals"][1] is None


# =================================================================================================
# 5. Level-1 breach: one weapon for an L2.
# =================================================================================================
def test_s05_level1_breach():
    pos = Position(3, phase="POST", round=2)
    pos.place(1, 1, GOBLIN).place(1, 2, WEREWOLF)
    pos.hand(0, {BOLTS_P1: 8}).loaded(0, [1])
    pos.hand(1, {POISON_P1: 9}).loaded(1, kinds=[BOLTS_P2])
    pos.hand(2, {POISON_P1: 9})
    state = pos.state()
    play(state, ATTACK(1, 1))
    assert state.to_json()["phase"] == "L1_SLOT"
    assert legal(state) == {L1_SWAP(r, s) for r in range(3) for s in (0, 1)} | {L1_SKIP}
    play(state, L1_SKIP)
    assert state.to_json()["phase"] == "POST"
    assert standee(state, 0) == (1, 2)
    assert req(state, 1, 2) == bright(WEREWOLF) == (0, 1, 0)
    decks = deck_sizes(state)
    play(state, END_TURN)
    assert standee(state, 0) == (1, 2)  # P0 killed this turn: the standee stays
    assert board(state, 1, 1) is None and deck_sizes(state) == decks  # no refill under a hero
    assert state.current_player == 1 and state.to_json()["phase"] == "MAIN"
    play(state, PLAY_AMMO(POISON_P1, 0))
    assert ATTACK(1, 2) in legal(state)
    play(state, ATTACK(1, 2))
    assert standee(state, 0) is None
    assert standee(state, 1) == (1, 3)
    assert pj(state, 1)["kills"] == [WEREWOLF] and state.vp[1] == 3
    assert pj(state, 0)["kills"] == [GOBLIN] and state.vp[0] == 1  # nothing for the breach owner
    assert pj(state, 0)["wheel"] == 0


@pytest.mark.parametrize("below", ["occupied", "empty_no_standee"])
def test_s05_without_breach_one_weapon_is_not_enough(below):
    pos = Position(3, phase="POST", current=1, round=2).place(1, 2, WEREWOLF)
    pos.place(1, 1, GOBLIN if below == "occupied" else None)
    pos.hand(1, {POISON_P1: 8}).loaded(1, kinds=[BOLTS_P2])
    state = pos.state()
    assert req(state, 1, 2) == full(WEREWOLF) == (1, 1, 0)
    assert ATTACK(1, 2) not in legal(state)


# =================================================================================================
# 6. Level-2 breach: the artefact goes to the opener.
# =================================================================================================
def test_s06_level2_breach_artefact_to_opener():
    pos = Position(3, phase="POST", current=2, round=2)
    pos.place(2, 3, DRAGON).place(2, 2, None).standee(1, 2, 3).pedestal(2, "IMMUNITY")
    pos.hand(2, {POISON_P1: 8}).loaded(2, [3, 3])
    state = pos.state()
    assert req(state, 2, 3) == (0, 0, 2)
    play(state, ATTACK(2, 3))
    d = state.to_json()
    assert d["discard"] == counts([FIRE_P3, FIRE_P3]) and sum(pj(state, 2)["loaded"]) == 0
    assert pj(state, 2)["kills"] == [DRAGON] and state.vp[2] == 8
    assert pj(state, 1)["artefacts"] == ["IMMUNITY"] and pj(state, 2)["artefacts"] == []
    assert d["tiles"]["IMMUNITY"] == "held" and d["pedestals"][2] is None
    assert standee(state, 1) is None and standee(state, 2) is None
    assert state.vp[1] == 0 and pj(state, 1)["wheel"] == 0
    assert not state.is_terminal()


def test_s06_dragon_without_breach_needs_four_p3():
    pos = Position(3, phase="POST", current=2, round=2)
    pos.place(2, 3, DRAGON).place(2, 2, None).hand(2, {POISON_P1: 8}).loaded(2, [3, 3])
    assert ATTACK(2, 3) not in legal(pos.state())


# =================================================================================================
# 7. Own Level-2 breach.
# =================================================================================================
def test_s07_own_level2_breach():
    pos = Position(2, phase="MAIN", round=3)
    pos.place(0, 3, LICH).place(0, 2, None).standee(0, 0, 3)
    pos.hand(0, {BOLTS_P1: 8}).loaded(0, [2, 1])
    state = pos.state()
    assert state.to_json()["pedestals"][0] == "JOKER"
    play(state, PLAY_AMMO(BOLTS_P1, 0))
    assert req(state, 0, 3) == bright(LICH) == (1, 1, 0)
    play(state, ATTACK(0, 3))
    assert pj(state, 0)["kills"] == [LICH] and state.vp[0] == 6
    assert pj(state, 0)["artefacts"] == ["JOKER"] and state.to_json()["pedestals"][0] is None
    assert standee(state, 0) is None
    assert POWER_JOKER in legal(state)  # usable the turn it is gained (G24)


# =================================================================================================
# 8. Ammo from an opponent gives a point; own Ammo does not.
# =================================================================================================
def test_s08_ammo_from_opponent_scores():
    pos = Position(3, phase="MAIN")
    pos.hand(0, {FIRE_P2: 1, POISON_P1: 2}).magazine(0, 0, FIRE_P1, 1).magazine(1, 1, FIRE_P3, 3)
    pos.magazine(2, 0, POISON_P1).jokers(0, 0)
    state = pos.state()
    assert LOAD(FIRE_P2) == 31
    play(state, LOAD(FIRE_P2))
    assert state.to_json()["phase"] == "LOAD_SOURCE"
    assert legal(state) == {SOURCE(0, 0), SOURCE(1, 1)}
    play(state, SOURCE(0, 0))
    assert legal(state) == {SOURCE(1, 1)} == {48}
    play(state, SOURCE(1, 1))
    assert pj(state, 0)["magazine"][0] == [FIRE_P1, 0]
    assert pj(state, 1)["magazine"][1] == [FIRE_P3, 2]
    assert [pj(state, i)["wheel"] for i in range(3)] == [0, 1, 0]
    assert pj(state, 0)["loaded"] == counts([FIRE_P2])
    assert pj(state, 0)["hand"] == counts({POISON_P1: 2})
    assert state.to_json()["phase"] == "POST"


# =================================================================================================
# 9. At most one Ammo per Magazine card.
# =================================================================================================
def one_bolts_source(jokers):
    pos = Position(2, phase="MAIN")
    pos.hand(0, {BOLTS_P2: 1, FIRE_P1: 1}).magazine(0, 0, FIRE_P1).magazine(0, 1, FIRE_P1)
    pos.magazine(1, 0, BOLTS_P3, 3).magazine(1, 1, FIRE_P1).jokers(0, jokers)
    return pos.state()


def test_s09_one_ammo_per_card_masks_the_load():
    state = one_bolts_source(0)
    assert LOAD(BOLTS_P2) == 34 and LOAD(BOLTS_P2) not in legal(state)
    assert PLAY_AMMO(BOLTS_P2, 0) in legal(state)


def test_s09_with_a_joker_the_load_completes():
    state = one_bolts_source(1)
    play(state, LOAD(BOLTS_P2))
    assert legal(state) == {SOURCE(1, 0), SOURCE_JOKER}
    play(state, SOURCE(1, 0))
    assert legal(state) == {SOURCE_JOKER} == {55}
    play(state, SOURCE_JOKER)
    assert pj(state, 0)["loaded"] == counts([BOLTS_P2]) and pj(state, 0)["jokers"] == 0
    assert pj(state, 1)["magazine"][0] == [BOLTS_P3, 2] and pj(state, 1)["wheel"] == 1
    assert state.to_json()["phase"] == "POST"


# =================================================================================================
# 10. Joker cap.
# =================================================================================================
@pytest.mark.parametrize("j", [0, 2, 3])
def test_s10_joker_cap_share_ammo(j):
    pos = Position(2, phase="MAIN").hand(0, {BOLTS_P1: 3}).jokers(0, j).artefact(0, "JOKER")
    state = pos.state()
    assert (POWER_JOKER in legal(state)) == (j < 3)
    play(state, PLAY_AMMO(BOLTS_P1, 1))
    assert pj(state, 0)["jokers"] == min(j + 1, 3)
    assert (POWER_JOKER in legal(state)) == (j + 1 < 3)


@pytest.mark.parametrize("j", [2, 3])
def test_s10_joker_cap_l1_swap_into_own_magazine(j):
    pos = Position(2, phase="POST").place(0, 1, GOBLIN).loaded(0, [1]).hand(0, {FIRE_P2: 2}).jokers(0, j)
    state = play(pos.state(), ATTACK(0, 1), L1_SWAP(0, 0), SELECT_HAND(FIRE_P2))
    assert pj(state, 0)["magazine"][0] == [FIRE_P2, 2]
    assert pj(state, 0)["jokers"] == 3


# =================================================================================================
# 11. End-of-turn penalty and IMMUNITY.
# =================================================================================================
def penalty_position(ammo0, ammo1, immunity=False, wheel=4):
    pos = Position(2, phase="POST").wheel(0, wheel).hand(0, {BOLTS_P1: 2})
    pos.magazine(0, 0, FIRE_P2, ammo0).magazine(0, 1, BOLTS_P1, ammo1)
    if immunity:
        pos.artefact(0, "IMMUNITY", column=1)
    return pos


@pytest.mark.parametrize("ammo0,ammo1,expected", [(0, 0, 2), (0, 1, 3), (2, 0, 3), (1, 1, 4)])
def test_s11_penalty_per_empty_card(ammo0, ammo1, expected):
    state = play(penalty_position(ammo0, ammo1).state(), END_TURN)
    assert pj(state, 0)["wheel"] == expected


def test_s11_immunity_skips_the_penalty():
    pos = penalty_position(0, 0, immunity=True)
    state = pos.state()
    assert {END_TURN, END_TURN_IMMUNITY} <= legal(state)
    play(state, END_TURN_IMMUNITY)
    assert pj(state, 0)["wheel"] == 4
    assert state.to_json()["tiles"]["IMMUNITY"] == "used"
    # END_TURN stays a choice and then costs the penalty.
    other = play(pos.state(), END_TURN)
    assert pj(other, 0)["wheel"] == 2 and other.to_json()["tiles"]["IMMUNITY"] == "held"


def test_s11_immunity_masked_without_empty_card():
    state = penalty_position(2, 1, immunity=True).state()
    assert END_TURN_IMMUNITY not in legal(state) and END_TURN in legal(state)
    state = penalty_position(2, 0, immunity=True).state()
    assert END_TURN_IMMUNITY in legal(state)


def test_s11_opponent_empty_cards_cost_nothing():
    pos = penalty_position(2, 1, wheel=4).wheel(1, 5).magazine(1, 0, FIRE_P1, 0).magazine(1, 1, BOLTS_P2, 0)
    state = play(pos.state(), END_TURN)
    assert pj(state, 0)["wheel"] == 4 and pj(state, 1)["wheel"] == 5


# =================================================================================================
# 12. Breach lifecycle.
# =================================================================================================
def breach_round4():
    """3 players, P0 first: P0 kills the Goblin in (1,1) in round 3; nobody uses the breach."""
    pos = Position(3, phase="MAIN", round=3)
    pos.place(1, 1, GOBLIN).place(1, 2, WEREWOLF).place(0, 1, IMP)
    for i in range(3):
        pos.hand(i, {BOLTS_P1: 8})
    pos.loaded(0, [1, 1])
    state = pos.state()
    play(state, PLAY_AMMO(BOLTS_P1, 0), ATTACK(1, 1), L1_SKIP, END_TURN)
    assert standee(state, 0) == (1, 2) and board(state, 1, 1) is None
    for seat in (1, 2):
        assert state.current_player == seat
        play(state, PLAY_AMMO(BOLTS_P1, 0))
        assert req(state, 1, 2) == bright(WEREWOLF)
        play(state, END_TURN)
    assert state.round == 4 and state.current_player == 0
    return state


def test_s12_breach_lasts_one_round_then_closes_with_refill():
    state = breach_round4()
    assert standee(state, 0) == (1, 2)
    assert req(state, 1, 2) == bright(WEREWOLF) == (0, 1, 0)  # still open in P0's round-4 turn
    play(state, PLAY_AMMO(BOLTS_P1, 0))
    assert req(state, 1, 2) == (0, 1, 0)
    l1_top = state.to_json()["decks"][0][-1]
    sizes = deck_sizes(state)
    play(state, END_TURN)
    assert standee(state, 0) is None
    assert board(state, 1, 1) == l1_top
    assert deck_sizes(state) == [sizes[0] - 1, sizes[1], sizes[2]]
    assert req(state, 1, 2) == full(WEREWOLF) == (1, 1, 0)


def test_s12_kill_elsewhere_moves_the_standee():
    state = breach_round4()
    play(state, PLAY_AMMO(BOLTS_P1, 0), ATTACK(0, 1))
    assert standee(state, 0) == (0, 2)
    assert req(state, 1, 2) == full(WEREWOLF)  # at once
    l1_top = state.to_json()["decks"][0][-1]
    sizes = deck_sizes(state)
    play(state, L1_SKIP, END_TURN)
    assert board(state, 1, 1) == l1_top  # column 1 refilled
    assert board(state, 0, 1) is None  # column 0 holds P0's hero
    assert standee(state, 0) == (0, 2)
    assert deck_sizes(state) == [sizes[0] - 1, sizes[1], sizes[2]]


# =================================================================================================
# 13. Refill only where no hero stands.
# =================================================================================================
def test_s13_refill_only_columns_without_hero():
    pos = Position(3, phase="POST", current=2, round=2)
    pos.place(0, 2, None).standee(1, 0, 3).place(1, 1, None).hand(2, {BOLTS_P1: 8})
    state = pos.state()
    l1_top = state.to_json()["decks"][0][-1]
    sizes = deck_sizes(state)
    play(state, END_TURN)
    assert board(state, 1, 1) == l1_top
    assert board(state, 0, 2) is None
    assert standee(state, 1) == (0, 3)
    assert deck_sizes(state) == [sizes[0] - 1, sizes[1], sizes[2]]


# =================================================================================================
# 14. Permanent breach.
# =================================================================================================
def test_s14_permanent_breach():
    pos = Position(3, phase="POST", round=2)
    pos.place(1, 2, 21).deck_top(2, [OGRE])  # free the Ogre from the board, then put it on top of the L2 deck
    pos.place(2, 1, None).place(2, 2, MINOTAUR).place(2, 3, None).deck(1, [])
    for i in range(3):
        pos.hand(i, {BOLTS_P1: 8})
    pos.loaded(1, [2])
    state = pos.state()
    assert req(state, 2, 2) == full(MINOTAUR) == (0, 1, 1)
    l3_top = state.to_json()["decks"][2][-1]
    play(state, END_TURN)
    d = state.to_json()
    assert board(state, 2, 1) is None and d["permanent"][2] == [True, False, False]
    assert d["permanent"][0] == [False] * 3 and d["permanent"][1] == [False] * 3
    assert board(state, 2, 3) == l3_top  # the column's other slots refill normally
    assert req(state, 2, 2) == bright(MINOTAUR) == (0, 1, 0)
    # P1 kills the Minotaur with its single P2; P1's standee goes on the L3 above.
    play(state, PLAY_AMMO(BOLTS_P1, 0), ATTACK(2, 2))
    assert standee(state, 1) == (2, 3)
    play(state, END_TURN)
    for seat in (2, 0):
        assert state.current_player == seat
        play(state, PLAY_AMMO(BOLTS_P1, 0), END_TURN)
    assert state.current_player == 1
    play(state, PLAY_AMMO(BOLTS_P1, 0), END_TURN)  # no kill: P1's standee comes back, column 2 refills
    d = state.to_json()
    assert standee(state, 1) is None
    assert board(state, 2, 2) == OGRE and board(state, 2, 1) is None
    assert d["permanent"][2] == [True, False, False]
    assert req(state, 2, 2) == bright(OGRE) == (0, 0, 1)


# =================================================================================================
# 15. Case B: artefacts score 0.
# =================================================================================================
def test_s15_case_b_artefacts_score_zero():
    pos = Position(2, phase="MAIN", current=1, round=10)
    pos.artefact(0, "JOKER").kills(0, [33, MINOTAUR, GOBLIN]).wheel(0, 3)  # 7 + 4 + 1 = 12 VP
    pos.kills(1, [32, SPIDER]).wheel(1, 6)  # 7 + 3 = 10 VP
    pos.hand(1, {BOLTS_P1: 1})
    state = pos.state()
    assert state.vp == [12, 10]
    play(state, PLAY_AMMO(BOLTS_P1, 0))
    assert not state.is_terminal()
    play(state, END_TURN)
    d = state.to_json()
    assert state.is_terminal() and d["end_case"] == "B"
    assert d["pedestals"] == [None, "EXCHANGE"]
    assert all(sum(p["hand"]) == 0 for p in d["players"])
    assert state.scores() == [15, 16]
    assert state.winners() == [1]
    assert state.rewards() == [-1.0, 1.0] and state.returns() == [-1.0, 1.0]
    assert not state.legal_mask().any()
    info = state.info()
    assert info["end_case"] == "B" and info["final_scores"] == [15, 16] and info["winners"] == [1]


# =================================================================================================
# 16. Case A ends the game immediately.
# =================================================================================================
@pytest.mark.parametrize("variant", ["n2_adrenaline_won_by_the_kill", "n3_adrenaline_already_held"])
def test_s16_case_a_ends_immediately(variant):
    n = 2 if variant.startswith("n2") else 3
    pos = Position(n, phase="POST", round=4)
    pos.artefact(1, "JOKER")  # P1 holds column 0's artefact
    if n == 2:
        pos.pedestal(1, "ADRENALINE")  # the last artefact: P0 receives an unused ADRENALINE with the kill
    else:
        pos.artefact(0, "ADRENALINE", column=2)  # P0 already holds it, unused
    pos.place(1, 3, CHIMERA).place(0, 1, IMP)
    pos.loaded(0, [2, 2, 2, 2, 1]).hand(0, {BOLTS_P1: 3}).magazine(0, 0, FIRE_P2, 0)
    state = pos.state()
    assert ATTACK(0, 1) in legal(state)  # a second target stays available
    env = raw_env(num_players=n, first_player=0)
    env.reset_to_state(state)
    env.step(ATTACK(1, 3))
    d = state.to_json()
    assert d["end_case"] == "A" and state.is_terminal()
    assert all(env.terminations[a] for a in env.possible_agents)
    assert not any(env.truncations.values())
    assert "ADRENALINE" in pj(state, 0)["artefacts"] and d["tiles"]["ADRENALINE"] == "held"
    assert not state.legal_mask().any()  # no second attack, no power, no END_TURN
    assert not env.action_mask("player_0").any()
    assert pj(state, 0)["wheel"] == 0  # no end-of-turn penalty for the empty card
    assert pj(state, 0)["turns_taken"] == 3
    expected = [6 + 5 * len(pj(state, 0)["artefacts"]), 5] + [0] * (n - 2)
    assert state.scores() == expected
    assert state.returns() == [1.0] + [-1.0] * (n - 1)
    assert env.rewards == {f"player_{i}": r for i, r in enumerate([1.0] + [-1.0] * (n - 1))}
    assert env.end_reasons[env.infos["player_0"]["end_reason"]] == "every artefact won (case A)"


# =================================================================================================
# 17. Tie-break.
# =================================================================================================
P0_KILLS = [33, 32, 9, GOBLIN, 1]  # 7 + 7 + 2 + 1 + 1 = 18 VP, 5 monsters


@pytest.mark.parametrize(
    "p1_kills,scheme,expected",
    [
        ([31, GIANT_SNAKE, 15, 3], "win_loss", [1.0, -1.0]),  # P1 killed 4
        ([31, GIANT_SNAKE, 15, 3], "rank", [1.0, -1.0]),
        ([31, GIANT_SNAKE, 3, 4, 5], "win_loss", [1.0, 1.0]),  # both killed 5: shared victory
        ([31, GIANT_SNAKE, 3, 4, 5], "rank", [0.0, 0.0]),
    ],
)
def test_s17_tie_break(p1_kills, scheme, expected):
    pos = Position(2, phase="POST", current=1, round=10, reward_scheme=scheme)
    pos.kills(0, P0_KILLS).wheel(0, 18 - vp(P0_KILLS))
    pos.kills(1, p1_kills).wheel(1, 18 - vp(p1_kills))
    state = play(pos.state(), END_TURN)
    assert state.to_json()["end_case"] == "B"
    assert state.scores() == [18, 18]
    assert state.winners() == ([0] if len(p1_kills) == 4 else [0, 1])
    assert state.returns() == expected and state.rewards() == expected


# =================================================================================================
# 18. L1 effect into own Magazine.
# =================================================================================================
def imp_position():
    pos = Position(2, phase="POST").place(0, 1, IMP).loaded(0, [1])
    pos.hand(0, {FIRE_P3: 1, BOLTS_P1: 1}).jokers(0, 1).magazine(0, 1, BOLTS_P2, 0)
    return pos


def test_s18_l1_effect_into_own_magazine():
    state = play(imp_position().state(), ATTACK(0, 1))
    assert legal(state) == {L1_SWAP(r, s) for r in range(2) for s in (0, 1)} | {L1_SKIP}
    assert L1_SWAP(0, 1) == 87
    play(state, L1_SWAP(0, 1))
    assert state.to_json()["phase"] == "L1_GIVE"
    assert legal(state) == {SELECT_HAND(FIRE_P3), SELECT_HAND(BOLTS_P1)}  # not the card about to come in
    assert SELECT_HAND(FIRE_P3) == 99
    play(state, SELECT_HAND(FIRE_P3))
    p0 = pj(state, 0)
    assert p0["magazine"][1] == [FIRE_P3, 3]
    assert p0["hand"] == counts([BOLTS_P1, BOLTS_P2])
    assert p0["jokers"] == 2
    assert p0["known"] == counts([BOLTS_P2])
    assert state.to_json()["phase"] == "POST"
    # What P1 sees of P0's hand: P0 is P1's relative seat 1 (n=2).
    obs = state.observe(1)
    known = obs[S + SEAT_SIZE * 1 + SEAT["known_hand"] : S + SEAT_SIZE * 1 + SEAT["known_hand"] + NUM_KINDS]
    assert known.tolist() == pytest.approx((np.array(counts([BOLTS_P2])) / 5.0).tolist())


def test_s18_l1_effect_into_opponent_magazine_gives_no_joker():
    state = play(imp_position().state(), ATTACK(0, 1), L1_SWAP(1, 0), SELECT_HAND(FIRE_P3))
    p0, p1 = pj(state, 0), pj(state, 1)
    assert p1["magazine"][0] == [FIRE_P3, 3]
    assert p0["hand"] == counts([BOLTS_P1, BOLTS_P1])
    assert p0["jokers"] == 1
    assert p0["known"] == counts([BOLTS_P1])
    assert p0["magazine"][1] == [BOLTS_P2, 0]


# =================================================================================================
# 19. Share Ammo.
# =================================================================================================
def test_s19_share_ammo():
    pos = Position(3, phase="MAIN").hand(0, {POISON_P1: 1, BOLTS_P1: 3}).jokers(0, 0).magazine(0, 0, POISON_P3, 2)
    state = pos.state()
    assert PLAY_AMMO(POISON_P1, 0) == 12
    play(state, PLAY_AMMO(POISON_P1, 0))
    p0 = pj(state, 0)
    assert state.to_json()["discard"] == counts([POISON_P3])
    assert p0["magazine"][0] == [POISON_P1, 1]
    assert p0["jokers"] == 1
    assert p0["hand"] == counts({BOLTS_P1: 3})
    assert state.to_json()["phase"] == "POST"
    ids = legal(state)
    assert END_TURN in ids
    assert not ids & (block("LOAD") | block("PLAY_AMMO"))


# =================================================================================================
# 20. An L3 kill recalls the killer's standee.
# =================================================================================================
def test_s20_l3_kill_recalls_standee():
    pos = Position(2, phase="MAIN", round=3)
    pos.place(1, 1, None).place(1, 2, WEREWOLF).standee(0, 1, 2).place(0, 3, CHIMERA)
    pos.hand(0, {BOLTS_P1: 8}).loaded(0, [2, 2, 2, 2])
    state = pos.state()
    play(state, PLAY_AMMO(BOLTS_P1, 0))
    assert req(state, 1, 2) == bright(WEREWOLF)
    play(state, ATTACK(0, 3))
    assert standee(state, 0) is None
    assert req(state, 1, 2) == full(WEREWOLF)
    d = state.to_json()
    l1_top, l3_top = d["decks"][0][-1], d["decks"][2][-1]
    play(state, END_TURN)
    assert board(state, 1, 1) == l1_top
    assert board(state, 0, 3) == l3_top


# =================================================================================================
# 21. L1 kill with no monster above.
# =================================================================================================
def test_s21_l1_kill_with_empty_slot_above():
    pos = Position(3, phase="POST", round=2)
    pos.standee(1, 2, 3).place(2, 2, None).place(2, 1, GOBLIN).loaded(0, [1]).hand(0, {BOLTS_P1: 3})
    state = pos.state()
    l3 = board(state, 2, 3)
    play(state, ATTACK(2, 1))
    assert pj(state, 0)["kills"] == [GOBLIN]
    assert standee(state, 0) is None
    assert standee(state, 1) == (2, 3)
    assert req(state, 2, 3) == bright(l3)


# =================================================================================================
# 22. ADRENALINE chain.
# =================================================================================================
@pytest.mark.parametrize("adrenaline", [True, False])
def test_s22_adrenaline_chain(adrenaline):
    pos = Position(2, phase="POST")
    pos.hand(0, {BOLTS_P1: 3}).loaded(0, [1, 2]).place(0, 1, GOBLIN).place(0, 2, WEREWOLF)
    if adrenaline:
        pos.artefact(0, "ADRENALINE", column=1)
    state = pos.state()
    assert board(state, 0, 3) is not None
    play(state, ATTACK(0, 1), L1_SKIP)
    assert req(state, 0, 2) == bright(WEREWOLF) == (0, 1, 0)
    if not adrenaline:
        assert not legal(state) & ATTACK_IDS
        return
    assert state.to_json()["tiles"]["ADRENALINE"] == "held"
    play(state, ATTACK(0, 2))
    assert state.to_json()["tiles"]["ADRENALINE"] == "used"
    assert standee(state, 0) == (0, 3)
    assert pj(state, 0)["kills"] == [GOBLIN, WEREWOLF]
    assert sum(pj(state, 0)["loaded"]) == 0
    assert not legal(state) & ATTACK_IDS
    assert END_TURN in legal(state)


# =================================================================================================
# 23. No dead end while loading.
# =================================================================================================
def energy_position(jokers):
    pos = Position(4, phase="MAIN").hand(0, {ENERGY_P3: 1, BOLTS_P1: 2}).jokers(0, jokers)
    pos.magazine(1, 0, ENERGY_P1, 1).magazine(2, 1, ENERGY_P2, 2)
    return pos.state()


@pytest.mark.parametrize("order", [((1, 0), (2, 1)), ((2, 1), (1, 0))])
def test_s23_no_dead_end_while_loading(order):
    state = energy_position(1)
    assert LOAD(ENERGY_P3) in legal(state)
    play(state, LOAD(ENERGY_P3))
    assert legal(state) == {SOURCE(1, 0), SOURCE(2, 1), SOURCE_JOKER}
    play(state, SOURCE_JOKER)
    assert legal(state) == {SOURCE(1, 0), SOURCE(2, 1)} == {47, 50}
    first, second = (SOURCE(*seat_slot) for seat_slot in order)
    play(state, first)
    assert legal(state) == {second}
    play(state, second)
    assert pj(state, 0)["loaded"] == counts([ENERGY_P3])
    assert state.to_json()["phase"] == "POST"
    assert [pj(state, i)["wheel"] for i in range(4)] == [0, 1, 1, 0]
    assert pj(state, 1)["magazine"][0] == [ENERGY_P1, 0] and pj(state, 2)["magazine"][1] == [ENERGY_P2, 1]
    assert pj(state, 0)["jokers"] == 0


def test_s23_without_the_joker_the_load_is_masked():
    assert LOAD(ENERGY_P3) not in legal(energy_position(0))


# =================================================================================================
# 24. EXCHANGE mask.
# =================================================================================================
def test_s24_exchange_mask():
    pos = Position(2, phase="MAIN", round=10).hand(0, {FIRE_P1: 1}).artefact(0, "EXCHANGE")
    pos.discard({FIRE_P1: 2})
    assert not legal(pos.state()) & block("EXCHANGE_TAKE")
    pos.discard({FIRE_P1: 2, BOLTS_P3: 1})
    state = pos.state()
    assert legal(state) & block("EXCHANGE_TAKE") == {EXCHANGE_TAKE(BOLTS_P3)} == {117}
    play(state, EXCHANGE_TAKE(BOLTS_P3))
    assert legal(state) == {SELECT_HAND(FIRE_P1)}
    play(state, SELECT_HAND(FIRE_P1))
    d = state.to_json()
    assert pj(state, 0)["hand"] == counts([BOLTS_P3])
    assert d["discard"] == counts({FIRE_P1: 3})
    assert d["tiles"]["EXCHANGE"] == "used"
    assert pj(state, 0)["known"] == counts([BOLTS_P3])
    assert d["phase"] == "MAIN"
    assert not legal(state) & block("EXCHANGE_TAKE")


# =================================================================================================
# 25. Artefact already taken.
# =================================================================================================
def test_s25_artefact_already_taken():
    pos = Position(3, phase="POST", round=3)
    pos.artefact(2, "EXCHANGE")  # column 1's artefact
    pos.place(1, 3, CHIMERA).place(1, 2, None).standee(1, 1, 3).loaded(0, [2, 2]).hand(0, {BOLTS_P1: 3})
    state = pos.state()
    before = state.to_json()
    play(state, ATTACK(1, 3))
    d = state.to_json()
    assert pj(state, 0)["kills"] == [CHIMERA] and state.vp[0] == 6
    assert [p["artefacts"] for p in d["players"]] == [[], [], ["EXCHANGE"]]
    assert d["pedestals"] == before["pedestals"] == ["JOKER", None, "IMPACT"]
    assert d["tiles"] == before["tiles"]
    assert standee(state, 1) is None and standee(state, 0) is None
    assert not state.is_terminal()


# =================================================================================================
# 26. Negative wheel.
# =================================================================================================
@pytest.mark.parametrize("floor,expected", [(None, -2), (0, 0)])
def test_s26_negative_wheel(floor, expected):
    pos = Position(2, phase="POST", score_floor=floor).wheel(0, 0).hand(0, {BOLTS_P1: 2})
    pos.magazine(0, 0, FIRE_P1, 0).magazine(0, 1, BOLTS_P2, 0)
    state = play(pos.state(), END_TURN)
    assert pj(state, 0)["wheel"] == expected


# =================================================================================================
# 27. Case B length.
# =================================================================================================
@pytest.mark.parametrize("artefacts,seeds", [(True, range(150)), (False, range(50))])
def test_s27_case_b_length(artefacts, seeds):
    game = LastHeroesGame(num_players=4, artefacts=artefacts)
    assert game.max_game_length() == 335
    finished_b = 0
    for seed in seeds:
        state = game.new_state(seed)
        rng = np.random.default_rng(1000 + seed)
        steps = turns = 0
        ended_after_turn = None
        while not state.is_terminal():
            assert steps < 335, f"seed {seed}: no end after 335 steps"
            a = int(rng.choice(state.legal_actions()))
            is_end = a in (END_TURN, END_TURN_IMMUNITY)
            state.apply(a)
            steps += 1
            turns += is_end
            ended_after_turn = is_end
        d = state.to_json()
        if d["end_case"] == "A":
            assert artefacts
            continue
        finished_b += 1
        assert d["end_case"] == "B"
        assert steps <= 335
        assert ended_after_turn and turns == 40
        assert [p["turns_taken"] for p in d["players"]] == [10] * 4
        assert all(sum(p["hand"]) == 0 for p in d["players"])
        assert d["round"] == 10
    assert finished_b >= 0.9 * len(seeds)  # random players (almost) never collect every artefact
