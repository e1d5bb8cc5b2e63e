"""Builders of hand-made Lost Legends positions in the ``LostLegendsState.to_json()`` format.

A :class:`Position` starts from a clean position at a given level: the named heroes with their
starting gold, life and mana, no equipment, no skill cards, no trophies; every seat has a monster
of the level in front, one is face up and the rest of the level's monsters are in the pile (the
later levels are dealt as in a real game), so that any position can play on. Small setters add
what a scenario needs; ``state()`` rebuilds the engine state with ``game.state_from_json`` (which
runs the rules to the first decision when the position leaves it open, e.g. ``turn(seat)``).

    s = Position(4, heroes=["Warrior", ...], level=2).equip(0, "2-01").placing(0, "2-13").state()
"""

from __future__ import annotations

from typing import Any

from envs.lost_legends import actions as A
from envs.lost_legends import draft
from envs.lost_legends.common import NO
from envs.lost_legends.content import EQUIPMENT, HERO_NAMES, HEROES, LEVEL_MONSTERS, MONSTERS, NUM_CARDS, NUM_SLOTS
from envs.lost_legends.game import LostLegendsGame

BY_CODE = {c.code: c.id for c in EQUIPMENT + MONSTERS}
DEFAULT_HEROES = ("Warrior", "Hunter", "Assassin", "Sorceress", "Barbarian")


def cid(code: str) -> int:
    return BY_CODE[code]


def act(state, name: str, *args: int) -> None:
    """Apply the action ``name(args)`` (checked: an illegal one raises)."""
    state.apply(A.LAYOUT.encode(name, *args))


def legal_names(state) -> set[str]:
    return {A.LAYOUT.label(a) for a in state.legal_actions()}


class Position:
    def __init__(self, n: int = 4, heroes=None, level: int = 1, seed: int = 0, **options: Any):
        heroes = list(heroes or DEFAULT_HEROES[:n])
        self.game = LostLegendsGame(num_players=n, heroes=heroes, starting_player=0, **options)
        self.n = n
        d = self.game.new_state(seed).to_json()
        lv = level - 1
        d["level"] = lv
        d["phase"] = "combat"
        d["start"] = 0
        d["draft_round"] = 5
        d["decision"] = None
        d["current_player"] = NO
        d["tasks"] = []
        for i, p in enumerate(d["players"]):
            _, _, gold, life, mana = HEROES[HERO_NAMES.index(heroes[i])]
            p.update(
                gold=gold,
                life=life,
                mana=mana,
                life_base=life,
                mana_base=mana,
                xp=0,
                legend=0,
                skill_cards=[],
                slots=[NO] * NUM_SLOTS,
                exhausted=[False] * NUM_SLOTS,
                trophies=[],
                tokens=[0] * 6,
                defeated=False,
                front=NO,
                markers=0,
                hand=[],
                pick=NO,
                seen=[],
            )
        monsters = list(LEVEL_MONSTERS[lv])
        for i in range(n):
            d["players"][i]["front"] = monsters.pop()
        d["faceup"] = monsters.pop()
        d["piles"][lv] = monsters[: 2 * n - 1]
        d["reserves"][lv] = monsters[2 * n - 1 :]
        for k in range(lv):
            d["piles"][k] = []
        for k in range(lv + 1):
            d["decks"][k] = []
        d["gold_ledger"] = None
        self.data = d
        self._box_the_rest()

    def _box_the_rest(self) -> None:
        """Every card the position does not use goes to the box (a state holds each card once)."""
        d = self.data
        used = set(d["removed"]) | set(d["box"]) | set(d["sixth"]) | {d["faceup"]}
        for lv in range(3):
            used.update(d["decks"][lv] + d["piles"][lv] + d["reserves"][lv])
        for p in d["players"]:
            used.update(p["hand"] + p["skill_cards"] + p["slots"] + p["trophies"] + [p["pick"], p["front"]])
        d["box"] += [c for c in range(NUM_CARDS) if c not in used]

    # -- setters -------------------------------------------------------------------------------
    def p(self, seat: int) -> dict:
        return self.data["players"][seat]

    def set(self, seat: int, **fields) -> Position:
        self.p(seat).update(fields)
        return self

    def equip(self, seat: int, code: str, exhausted: bool = False) -> Position:
        slot = draft.target_slot(None, seat, cid(code), slots=self.p(seat)["slots"])
        assert slot != NO, f"{code} cannot be equipped by seat {seat}"
        self.p(seat)["slots"][slot] = self._take_equipment(code)
        self.p(seat)["exhausted"][slot] = exhausted
        return self

    def skills(self, seat: int, *codes: str) -> Position:
        self.p(seat)["skill_cards"] += [self._take_equipment(c) for c in codes]
        return self

    def front(self, seat: int, code: str | None, markers: int = 0) -> Position:
        m = NO if code is None else self._take_monster(code)
        self.p(seat).update(front=m, markers=markers)
        return self

    def faceup(self, code: str | None) -> Position:
        self.data["faceup"] = NO if code is None else self._take_monster(code)
        return self

    def pile(self, *codes: str) -> Position:
        """The current level's pile, bottom first (the last code is drawn first)."""
        lv = self.data["level"]
        self.data["piles"][lv] = [self._take_monster(c) for c in codes]
        return self

    def trophies(self, seat: int, *codes: str) -> Position:
        self.p(seat)["trophies"] += [self._take_monster(c) for c in codes]
        return self

    def _take_equipment(self, code: str) -> int:
        """Move an equipment card out of wherever the position has it."""
        c = cid(code)
        d = self.data
        for zone in (*d["decks"], d["removed"], d["box"], d["sixth"]):
            if c in zone:
                zone.remove(c)
        for p in d["players"]:
            for zone in (p["hand"], p["skill_cards"]):
                if c in zone:
                    zone.remove(c)
            p["slots"] = [NO if x == c else x for x in p["slots"]]
            if p["pick"] == c:
                p["pick"] = NO
        return c

    def _take_monster(self, code: str) -> int:
        """Move a monster out of wherever the default position put it."""
        m = cid(code)
        d = self.data
        if m in d["box"]:
            d["box"].remove(m)
        for lv in range(3):
            for zone in (d["piles"][lv], d["reserves"][lv]):
                if m in zone:
                    zone.remove(m)
        for p in d["players"]:
            if p["front"] == m:
                p["front"] = NO
            if m in p["trophies"]:
                p["trophies"].remove(m)
        if d["faceup"] == m:
            d["faceup"] = NO
        return m

    # -- where the game stands -----------------------------------------------------------------
    def placing(self, seat: int, code: str) -> Position:
        """Seat reveals ``code`` as its pick in the last draft round and must place it."""
        d = self.data
        d.update(phase="gear-up", decision="DRAFT_PLACE", current_player=seat, tasks=[["draft_place", self.n]])
        self.p(seat)["pick"] = self._take_equipment(code)
        return self

    def turn(self, seat: int) -> Position:
        """The combat turn of ``seat`` starts (step 1 reveal, then monster selection)."""
        self.data.update(phase="combat", decision=None, tasks=[["turn", seat]])
        return self

    def attacking(self, seat: int, final: bool = False) -> Position:
        """``seat`` has selected its monster and chooses a weapon."""
        ends = [["level_end"], ["escape", seat]] if final else [["end_turn", seat]]
        self.data.update(
            phase="final round" if final else "combat", decision=None, turn_seat=seat, tasks=[*ends, ["attack", seat]]
        )
        return self

    def level_end(self) -> Position:
        self.data.update(phase="final round", decision=None, tasks=[["level_end"]])
        return self

    def state(self):
        self._box_the_rest()  # the cards a setter replaced (a front, the face-up monster, a pile)
        return self.game.state_from_json(self.data)
