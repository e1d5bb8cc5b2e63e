"""Builders of hand-made Last Heroes positions, written in the ``LastHeroesState.to_json()`` format.

A :class:`Position` starts as a clean mid-game position (round 1, MAIN, empty discard pile, no
hands, no loaded weapons, no kills, every battlefield slot filled, one artefact per column) and
offers small setters for what a test needs. ``Position.state()`` rebuilds the engine state with
``game.state_from_json``. Levels are the spec's **1..3** everywhere in this module (the JSON and
the engine use 0..2); seats and columns are absolute.

    pos = Position(n=3, phase="POST")
    pos.hand(0, {FIRE_P1: 2}).loaded(0, [2, 1]).place(1, 2, WEREWOLF).standee(0, 1, 2)
    state = pos.state()
"""

from __future__ import annotations

import copy
from typing import Any

from envs.last_heroes.content import DEFAULT, NUM_KINDS, POWERS

POWER_NAMES = tuple(p[0] for p in POWERS)
# The rules engine of the positions built here; test modules run their scenarios on both engines
# by setting it (see the ``engine`` fixture of test_scenarios.py).
ENGINE = "python"
TYPES = ("Fire", "Bolts", "Poison", "Energy", "Bullets")
FIRE, BOLTS, POISON, ENERGY, BULLETS = range(5)


def kind(weapon_type: int, power: int) -> int:
    """``kind = 3 * type + power - 1`` (spec conventions)."""
    return 3 * weapon_type + power - 1


FIRE_P1, FIRE_P2, FIRE_P3 = kind(FIRE, 1), kind(FIRE, 2), kind(FIRE, 3)
BOLTS_P1, BOLTS_P2, BOLTS_P3 = kind(BOLTS, 1), kind(BOLTS, 2), kind(BOLTS, 3)
POISON_P1, POISON_P2, POISON_P3 = kind(POISON, 1), kind(POISON, 2), kind(POISON, 3)
ENERGY_P1, ENERGY_P2, ENERGY_P3 = kind(ENERGY, 1), kind(ENERGY, 2), kind(ENERGY, 3)

# Monster ids of section 4.2 used by the scenarios.
GOBLIN, IMP, ORC = 0, 2, 9
WEREWOLF, SPIDER, MINOTAUR, OGRE, BASILISK = 18, 20, 23, 25, 26
CHIMERA, LICH, GIANT_SNAKE, HYDRA, DRAGON = 27, 28, 30, 31, 35

LEVEL_IDS = tuple(tuple(m.id for m in DEFAULT.monsters if m.level == lv) for lv in (1, 2, 3))
MONSTER_LEVEL = {m.id: m.level for m in DEFAULT.monsters}

# Default battlefield (column c gets the c-th id of each row): strong monsters, so that small
# loaded weapons cannot attack them by accident. Every other id is in its deck, ascending, so the
# top of a deck (the end of the list, the next card drawn) is its largest remaining id.
DEFAULT_BOARD = (
    (10, 11, 12, 13, 14),  # L1: P2 monsters
    (26, 25, 24, 22, 19),  # L2: Basilisk, Ogre, Wyvern, Gargoyle, Wraith
    (35, 34, 33, 32, 31),  # L3: Dragon, Behemoth, Demon Lord, Kraken, Hydra
)

# Default Magazine card of every slot: Bolts P1 with its Ammo (non-empty, so no penalty).
DEFAULT_MAGAZINE = ((BOLTS_P1, 1), (BOLTS_P1, 1))


def powers_to_kinds(powers: list[int] | tuple[int, ...]) -> list[int]:
    """Loaded-weapon kinds for a list of powers: Fire first (spec: "unspecified types are Fire"),
    then Bolts, etc. when a type has no copy of that power left (5/4/3 copies of P1/P2/P3)."""
    copies = {1: 5, 2: 4, 3: 3}
    used: dict[int, int] = {}
    out = []
    for p in powers:
        t = 0
        while used.get(kind(t, p), 0) >= copies[p]:
            t += 1
        k = kind(t, p)
        used[k] = used.get(k, 0) + 1
        out.append(k)
    return out


def counts(kinds: list[int] | dict[int, int]) -> list[int]:
    """15 counts per kind from a list of kinds or a {kind: count} dict."""
    out = [0] * NUM_KINDS
    items = kinds.items() if isinstance(kinds, dict) else ((k, 1) for k in kinds)
    for k, v in items:
        out[k] += v
    return out


class Position:
    """A mutable ``to_json()`` dict with setters. Every setter returns ``self``."""

    def __init__(
        self,
        n: int = 2,
        *,
        phase: str = "MAIN",
        current: int = 0,
        first: int = 0,
        round: int = 1,  # noqa: A002 - the JSON field name
        **options: Any,
    ):
        from envs.last_heroes.game import LastHeroesGame

        self.n = n
        options.setdefault("engine", ENGINE)
        self.game = LastHeroesGame(num_players=n, first_player=first, **options)
        board = [[DEFAULT_BOARD[lv][c] for lv in range(3)] for c in range(n)]
        on_board = {m for col in board for m in col}
        decks = [[m for m in LEVEL_IDS[lv] if m not in on_board] for lv in range(3)]
        pedestals = list(POWER_NAMES[:n])
        # Turns already completed: players before `current` in this round (from `first`) have played it.
        turns = []
        for i in range(n):
            before = (i - first) % n < (current - first) % n
            turns.append(round if before else round - 1)
        self.data: dict[str, Any] = {
            "env_id": self.game.env_id,
            "options": dict(self.game.options),
            "phase": phase,
            "current_player": current,
            "first_player": first,
            "round": round,
            "setup_picks": 0,
            "players": [
                {
                    "hand": [0] * NUM_KINDS,
                    "known": [0] * NUM_KINDS,
                    "magazine": [list(s) for s in DEFAULT_MAGAZINE],
                    "jokers": 0,
                    "wheel": 0,
                    "loaded": [0] * NUM_KINDS,
                    "kills": [],
                    "artefacts": [],
                    "standee": None,
                    "turns_taken": turns[i],
                }
                for i in range(n)
            ],
            "board": board,
            "permanent": [[False, False, False] for _ in range(n)],
            "decks": decks,
            "discard": [0] * NUM_KINDS,
            "pedestals": pedestals,
            "tiles": {name: ("on_pedestal" if name in pedestals else "out_of_game") for name in POWER_NAMES},
            "turn": {
                "attacks": 0,
                "killed": False,
                "load_kind": None,
                "load_need": 0,
                "load_used": [],
                "exchange_kind": None,
                "return_phase": "MAIN",
                "l1_target": None,
            },
            "all_artefacts_held": False,
            "end_case": None,
            "counters": {"ammo_from_opponents": 0, "penalty_lost": 0},
            "rng": None,
        }

    # -- players -----------------------------------------------------------------------------
    def player(self, i: int) -> dict[str, Any]:
        return self.data["players"][i]

    def hand(self, i: int, cards: list[int] | dict[int, int]) -> Position:
        self.player(i)["hand"] = counts(cards)
        return self

    def known(self, i: int, cards: list[int] | dict[int, int]) -> Position:
        self.player(i)["known"] = counts(cards)
        return self

    def magazine(self, i: int, slot: int, kind_: int, ammo: int | None = None) -> Position:
        """Magazine card of seat i, slot 0/1; ``ammo=None`` means full."""
        if ammo is None:
            ammo = DEFAULT.kind_ammo[kind_]
        self.player(i)["magazine"][slot] = [kind_, ammo]
        return self

    def loaded(self, i: int, powers: list[int] = (), kinds: list[int] = ()) -> Position:
        """Loaded weapons of seat i, given by powers (Fire first) and/or explicit kinds."""
        self.player(i)["loaded"] = counts(powers_to_kinds(list(powers)) + list(kinds))
        return self

    def jokers(self, i: int, j: int) -> Position:
        self.player(i)["jokers"] = j
        return self

    def wheel(self, i: int, w: int) -> Position:
        self.player(i)["wheel"] = w
        return self

    def kills(self, i: int, ids: list[int]) -> Position:
        """Monsters already killed by seat i; they are taken out of the decks (never off the board)."""
        for m in ids:
            lv = MONSTER_LEVEL[m]
            if any(m in col for col in self.data["board"]):
                raise ValueError(f"monster {m} is on the board; choose another id for a kill pile")
            self.data["decks"][lv - 1].remove(m)
        self.player(i)["kills"] = list(ids)
        return self

    def standee(self, i: int, column: int | None, level: int | None = None) -> Position:
        """Put seat i's standee on (column, level) (spec level 2 or 3), or back in front (None)."""
        self.player(i)["standee"] = None if column is None else [column, level - 1]
        return self

    def turns_taken(self, i: int, t: int) -> Position:
        self.player(i)["turns_taken"] = t
        return self

    # -- battlefield -----------------------------------------------------------------------
    def place(self, column: int, level: int, monster: int | None) -> Position:
        """Put ``monster`` (or nothing) in (column, level), spec level 1..3. A monster taken from
        its deck leaves it; one taken from another slot swaps with this slot's occupant; a
        displaced occupant goes to the bottom of its deck."""
        board, decks = self.data["board"], self.data["decks"]
        old = board[column][level - 1]
        if monster is not None:
            if MONSTER_LEVEL[monster] != level:
                raise ValueError(f"monster {monster} is a level {MONSTER_LEVEL[monster]} card, not level {level}")
            where = [c for c in range(self.n) if board[c][level - 1] == monster]
            if where:
                board[where[0]][level - 1] = old
                board[column][level - 1] = monster
                return self
            if monster not in decks[level - 1]:
                raise ValueError(f"monster {monster} is in a kill pile")
            decks[level - 1].remove(monster)
        if old is not None:
            decks[level - 1].insert(0, old)
        board[column][level - 1] = monster
        return self

    def deck(self, level: int, ids: list[int]) -> Position:
        """Replace the level's deck by ``ids`` (last = top = next card drawn). Monsters left out of
        the deck and not on the board are simply out of the position (use only for decks)."""
        self.data["decks"][level - 1] = list(ids)
        return self

    def deck_top(self, level: int, ids: list[int]) -> Position:
        """Move ``ids`` to the top of the level's deck; the last id is drawn first."""
        deck = self.data["decks"][level - 1]
        for m in ids:
            deck.remove(m)
        deck.extend(ids)
        return self

    def permanent(self, column: int, level: int) -> Position:
        self.data["permanent"][column][level - 1] = True
        return self

    # -- artefacts -------------------------------------------------------------------------
    def pedestal(self, column: int, power: str | None) -> Position:
        """Set the Power tile on a column's pedestal; the tile that was there leaves the game."""
        tiles, pedestals = self.data["tiles"], self.data["pedestals"]
        old = pedestals[column]
        if old is not None:
            tiles[old] = "out_of_game"
        if power is not None:
            if tiles[power] != "out_of_game":
                raise ValueError(f"{power} is already in play ({tiles[power]})")
            tiles[power] = "on_pedestal"
        pedestals[column] = power
        return self

    def artefact(self, i: int, power: str, column: int | None = None, used: bool = False) -> Position:
        """Seat i holds the artefact with ``power``: taken from the pedestal showing it, or from
        ``column`` (whose tile is then replaced by ``power``)."""
        tiles, pedestals = self.data["tiles"], self.data["pedestals"]
        if column is None:
            column = pedestals.index(power)
        elif pedestals[column] != power:
            self.pedestal(column, None)
            if tiles[power] != "out_of_game":
                raise ValueError(f"{power} is already in play ({tiles[power]})")
        pedestals[column] = None
        tiles[power] = "used" if used else "held"
        self.player(i)["artefacts"].append(power)
        return self

    # -- piles and turn state ----------------------------------------------------------------
    def discard(self, cards: list[int] | dict[int, int]) -> Position:
        self.data["discard"] = counts(cards)
        return self

    def turn(self, **fields: Any) -> Position:
        self.data["turn"].update(fields)
        return self

    def set(self, **fields: Any) -> Position:
        self.data.update(fields)
        return self

    # -- output --------------------------------------------------------------------------------
    def json(self) -> dict[str, Any]:
        """The position's JSON; the cards it leaves out of play are declared ``set_aside`` (what the
        box holds minus what the position places), as state_from_json requires of every card."""
        data = copy.deepcopy(self.data)
        game = self.game
        weapons = [game.content.kind_copies[k] if k in game.kinds_in_play else 0 for k in range(NUM_KINDS)]
        for p in data["players"]:
            for k in range(NUM_KINDS):
                weapons[k] -= p["hand"][k] + p["loaded"][k]
            for k, _ammo in p["magazine"]:
                if k is not None and k >= 0:
                    weapons[k] -= 1
        for k in range(NUM_KINDS):
            weapons[k] -= data["discard"][k]
        if data["turn"].get("load_kind") is not None:
            weapons[data["turn"]["load_kind"]] -= 1
        placed = {m for column in data["board"] for m in column if m is not None}
        placed.update(m for deck in data["decks"] for m in deck)
        placed.update(m for p in data["players"] for m in p["kills"])
        monsters = [m for m in range(len(game.monster_vp)) if m not in placed]
        weapons = [max(w, 0) for w in weapons]  # more than the box: allowed by state() (check_box=False)
        if any(weapons) or monsters:
            data["set_aside"] = {"weapons": weapons, "monsters": monsters}
        return data

    def state(self):
        # hand-made: a scenario may hold more copies of a card than the box (every other check applies)
        return self.game.state_from_json(self.json(), check_box=False)
