"""Tactical hints: an optional observation block (option ``obs_hints=True``) with the rule-based
bot's own evaluation of the active hero's MAIN choices, in the observer's frame.

Why. A network cloned from the heuristic on the plain observation picks the heuristic's MAIN move
(where to move, what to fight or activate) on about 70% of held-out positions, and a clone that
errs that often loses far more than its teacher: it must rebuild from one-hots the heuristic's
threat of each card, its binomial chance of beating it with the dice and the Equipment of the heroes
on that tile, and the worth of each tile's action. With these numbers given the same clone agrees
on 86% of MAIN positions (4,000 games, net [512, 512]). Combat chances alone (without the threat
and tile worths) only reach 76%. The numbers are computed from public information only, by
:class:`~envs.last_bastion.analysis.Analysis` with the heuristic bot's default weights (the
analysis the bot decides with); the block is zero unless the observer is the active hero at a MAIN
decision.

Values are squashed into [0, 1]: threats and fight worths by ``log(1 + x) / log(21)`` (a plain
Monster's threat of 1 -> 0.23, a late Warlord's 18 -> 0.98), tile worths by ``x / 5``.
"""

from __future__ import annotations

from math import log, log1p

import numpy as np

from envs.core.observation import field_offsets
from envs.last_bastion import analysis as A
from envs.last_bastion import content as C
from envs.last_bastion.analysis import Analysis

HINT_FIELDS = (
    ("fight", 12, "worth of fighting the card on each relative space from the hero's tile (threat x chance)"),
    ("threat", 12, "threat of the card on each relative space"),
    ("act", 9, "best worth of acting (fight or tile action) from each relative tile, if the hero moved there"),
    ("tile", 9, "worth of each relative tile's action now / 5 (0 when grasped or sealed)"),
    ("position", 9, "worth of waiting on each relative tile after acting (threats in reach, partners)"),
    ("here", 1, "worth of the action of the tile the hero stands on / 5"),
)
HF, HINTS_SIZE = field_offsets(HINT_FIELDS)
assert HINTS_SIZE == 52


#: each card's threat computed once per call of :func:`hints`, not once per tile that looks at it
_ANALYSIS = Analysis(memo=True)
_SCALE = 1.0 / log(21.0)


def _squash(x: float) -> float:
    return min(1.0, log1p(x) * _SCALE) if x > 0 else 0.0


def hints(s, seat: int) -> np.ndarray:
    """The hints block for player ``seat`` (zeros unless it is the active hero deciding in MAIN)."""
    v = np.zeros(HINTS_SIZE, np.float32)
    d = s.decision
    if d is None or d["kind"] != "MAIN" or s.current_player != seat or s.is_terminal():
        return v
    h = s.heroes[s.active]
    if h["status"] != "in":
        return v
    ev, tile, b = _ANALYSIS, h["tile"], s.seat_of[seat]
    ev.forget()
    for j in range(12):
        sp = (j + 3 * b) % 12
        if s.spaces[sp] >= 0:
            v[HF["threat"] + j] = _squash(ev.threat(s, sp))
    for ts in A.targets_from(s, tile):
        if len(ts) == 1:
            v[HF["fight"] + (ts[0] - 3 * b) % 12] = _squash(ev.fight_value(s, ts, tile))
    for t in range(9):
        a = C.ABS_TILE[b][t]
        v[HF["act"] + t] = _squash(ev.act_value(s, a))
        if not s.grasped[a] and not s.sealed(a):
            v[HF["tile"] + t] = min(1.0, ev.tile_value(s, s.layout[a]) / 5)
        v[HF["position"] + t] = _squash(ev.position_value(s, a))
    v[HF["here"]] = min(1.0, ev.tile_value(s, s.layout[tile]) / 5)
    return v
