"""Heroes and Monsters rules, shared vocabulary: phases, sources of pending decisions, end reasons,
shaping weights, the per-seat :class:`Player` record and the private :class:`_GameOver` signal.

The rules are split by phase (``rules.py`` re-exports every public name):

- ``common.py``   (this file) constants and the Player record;
- ``state.py``    the :class:`HeroesAndMonstersState` class: fields, setup, status, derived
  quantities, zones, the primitive interpreter, observation, copies and JSON;
- ``turn.py``     the player turn: legality, buying, effects and their payments, support windows,
  start and end of a turn;
- ``combat.py``   Combat: attacks, defeats and Plan progress;
- ``invasion.py`` the Invasion and the restart of the round;
- ``text.py``     describe_action and render;
- ``rules.py``    the options and :class:`HeroesAndMonstersGame`.
"""

from __future__ import annotations

from typing import Any

# -- phases and pending-decision sources ----------------------------------------------------------
PHASES = ("RECRUIT", "EFFECTS", "SUPPORT", "COMBAT", "CHOOSE_DISCARD", "CHOOSE_TRASH", "CHOOSE_OVERFLOW", "PAY_ANY")
RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_DISCARD, CHOOSE_TRASH, CHOOSE_OVERFLOW, PAY_ANY = range(8)
SOURCES = ("none", "hand card", "Construction", "General", "COPY")
SRC_NONE, SRC_HAND, SRC_TABLE, SRC_GENERAL, SRC_COPY = range(5)

END_REASONS = {
    "victory": "the Adversary is defeated",
    "fortress_empty": "the Fortress deck ran out",
    "round_limit": "the Long Siege: the round limit was reached",
    "truncated": "the step cap was reached",
}
TERMINAL_RESULTS = ("victory", "fortress_empty", "round_limit")

#: Per-event weights of the "shaped" reward scheme (7).
DEFAULT_SHAPING_WEIGHTS = {"defeat": 0.05, "marker": 0.01, "thwart": 0.15, "fortress_lost": -0.02, "heal": 0.02}
MAX_STEPS_PER_TURN = 200

ORIGIN_PLAYER = -1  # primitive resolved for a player (card, General)
ORIGIN_ADVERSARY = -2  # primitive of the Adversary or a Plan (REGEN hits every Invader)
# an origin >= 0 is the column of the Invader whose effect resolves


class _GameOver(Exception):
    """Raised inside a resolution by the first terminal event."""


class Player:
    """One seat's cards. Decks and piles are lists with the top at the end."""

    __slots__ = ("general", "deck", "hand", "discard", "table", "gen_used")

    def __init__(self, general: int):
        self.general = general
        self.deck: list[int] = []
        self.hand: list[list] = []  # [card id, used this turn], sorted
        self.discard: list[int] = []
        self.table: list[list] = []  # [card id, used this turn], in acquisition order
        self.gen_used = False

    def to_json(self) -> dict[str, Any]:
        return {
            "general": self.general,
            "deck": list(self.deck),
            "hand": [list(h) for h in self.hand],
            "discard": list(self.discard),
            "table": [list(t) for t in self.table],
            "gen_used": self.gen_used,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(int(d["general"]))
        p.deck = [int(c) for c in d["deck"]]
        p.hand = sorted([int(c), bool(u)] for c, u in d["hand"])
        p.discard = [int(c) for c in d["discard"]]
        p.table = [[int(c), bool(u)] for c, u in d["table"]]
        p.gen_used = bool(d["gen_used"])
        return p
