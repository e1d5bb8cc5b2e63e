"""Which loaded weapons an attack uses (docs/last_heroes.md 2.4, G23), on counts of power 1, 2, 3.

Shared by the rules (legal attacks, their cost) and the heuristic bot (what an attack would leave).
"""

from __future__ import annotations


def assign(req: tuple[int, int, int], have: tuple[int, int, int] | list[int]) -> tuple[int, int, int] | None:
    """Greedy weapon assignment on counts (2.4): impacts strongest first, each covered by the
    weakest loaded weapon that covers it. ``req`` and ``have`` are counts of power 1, 2, 3.
    Returns the weapons used per power, or None when the attack is impossible."""
    r1, r2, r3 = req
    h1, h2, h3 = have
    if r3 > h3:
        return None
    spare3 = h3 - r3
    u2 = min(h2, r2)
    extra3 = r2 - u2
    if extra3 > spare3:
        return None
    spare3 -= extra3
    spare2 = h2 - u2
    x1 = min(h1, r1)
    rest = r1 - x1
    y2 = min(spare2, rest)
    rest -= y2
    if rest > spare3:
        return None
    return (x1, u2 + y2, r3 + extra3 + rest)


def leftover_key(have, used) -> tuple[int, int, int]:
    """Weapons left after an attack, strongest first, for lexicographic comparison."""
    return (have[2] - used[2], have[1] - used[1], have[0] - used[0])


def impact_assignment(req, have):
    """Best IMPACT-assisted assignment (one impact lowered by one power), or None (2.4, G23).
    The P3 reduction is tried first: it comes first in the card's order."""
    r1, r2, r3 = req
    best = None
    best_key = None
    for reduced in (((r1, r2 + 1, r3 - 1) if r3 else None), ((r1 + 1, r2 - 1, r3) if r2 else None)):
        if reduced is None:
            continue
        used = assign(reduced, have)
        if used is not None:
            key = leftover_key(have, used)
            if best_key is None or key > best_key:
                best, best_key = used, key
    return best


def _slot_options(req, have, impact: bool) -> tuple[bool, bool, bool]:
    """(attack possible, possible with IMPACT, IMPACT useful) for one monster (see attack_options)."""
    used = assign(req, have)
    if not impact:
        return used is not None, False, False
    better = impact_assignment(req, have)
    if better is None:
        return used is not None, False, False
    return used is not None, True, used is None or leftover_key(have, better) > leftover_key(have, used)


# (impacts required, loaded powers, IMPACT usable) -> _slot_options(...); small and bounded.
_SLOT_OPTIONS: dict[tuple, tuple[bool, bool, bool]] = {}
