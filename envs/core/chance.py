"""Chance: a state's random source, whose next outcomes a test can script.

Every game with chance after its setup draws its dice, shuffles and random picks from one
:class:`Chance` owned by the state (``state.chance``), so the same seed and the same actions always
give the same game. (Last Heroes draws only while dealing the setup, from its own generator; after
that its rules draw nothing, so it has nothing to script.) A scenario
test that needs given dice or a given draw builds the state (``game.state_from_json(...)``), then
says what comes next::

    state.chance.script([5, 2])         # the next two draws are 5 and then 2
    state.apply(roll_action)            # the rules' roll(6) returns 5, then 2; later draws are random again

Each draw method consumes one scripted outcome while any are left, and checks that it is one the
draw could have produced (a die of 6 sides cannot roll 7): a test cannot script an impossible
game. What a scripted outcome is, per method:

| Method | Draws | Scripted outcome |
|---|---|---|
| ``roll(sides)`` | a die: 0..sides-1 | that integer |
| ``integers(low, high)`` | an integer in [low, high) | that integer |
| ``random()`` | a float in [0, 1) | that float |
| ``shuffle(items)`` | shuffles a list in place | the new order, as a permutation of positions |
| ``choice(n)`` | an index 0..n-1 | that integer |

The script is part of :meth:`to_json`, so a scripted state round-trips through JSON and clones
with its pending outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import Any

import numpy as np


class ScriptError(ValueError):
    """A scripted outcome that the draw it was used for could not produce."""


class Chance:
    """numpy's Generator (PCG64), with a queue of scripted outcomes served first."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)
        self._script: list[Any] = []

    # -- scripting ----------------------------------------------------------------------------
    def script(self, outcomes: Iterable[Any]) -> None:
        """Queue ``outcomes``: the next draws return them in order (see the module table)."""
        self._script.extend(outcomes)

    @property
    def scripted(self) -> tuple[Any, ...]:
        """The scripted outcomes not used yet."""
        return tuple(self._script)

    def _next(self, what: str, ok) -> Any | None:
        if not self._script:
            return None
        value = self._script.pop(0)
        if not ok(value):
            raise ScriptError(f"scripted outcome {value!r} cannot come from {what}")
        return value

    # -- draws --------------------------------------------------------------------------------
    def integers(self, low: int, high: int | None = None) -> int:
        """An integer in [low, high) (numpy's convention; ``integers(n)`` is [0, n))."""
        if high is None:
            low, high = 0, low
        if high <= low:
            raise ValueError(f"integers({low}, {high}): the range is empty")
        v = self._next(f"integers({low}, {high})", lambda x: _is_int(x) and low <= x < high)
        return int(v) if v is not None else int(self.rng.integers(low, high))

    def roll(self, sides: int) -> int:
        """A die of ``sides`` faces: 0..sides-1 (a face index; the game maps it to the face)."""
        v = self._next(f"roll({sides})", lambda x: _is_int(x) and 0 <= x < sides)
        return int(v) if v is not None else int(self.rng.integers(sides))

    def choice(self, n: int) -> int:
        """An index 0..n-1, uniformly."""
        v = self._next(f"choice({n})", lambda x: _is_int(x) and 0 <= x < n)
        return int(v) if v is not None else int(self.rng.integers(n))

    def random(self) -> float:
        v = self._next("random()", lambda x: isinstance(x, (int, float)) and 0.0 <= x < 1.0)
        return float(v) if v is not None else float(self.rng.random())

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place; a scripted outcome is the new order of positions."""
        n = len(items)
        v = self._next(f"shuffle of {n} items", lambda x: isinstance(x, (list, tuple)) and sorted(x) == list(range(n)))
        order = list(v) if v is not None else self.rng.permutation(n).tolist()
        items[:] = [items[i] for i in order]

    # -- persistence --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"rng": self.rng.bit_generator.state, "script": list(self._script)}

    @classmethod
    def from_json(cls, data: dict[str, Any], path: str = "chance") -> Chance:
        """The Chance of :meth:`to_json`; a ValueError names the field of damaged data."""
        from envs.core.validate import JsonReader

        reader = JsonReader(data, path)
        chance = cls()
        chance.rng = reader.rng_state("rng")
        chance._script = reader.list("script", default=[])
        for i, outcome in enumerate(chance._script):
            if not _is_outcome(outcome):
                raise reader.fail(
                    "script",
                    f"entry {i} is {outcome!r}: a scripted outcome is an integer >= 0, a float in "
                    "[0, 1) or a permutation of 0..k-1 (a shuffle)",
                )
        return chance

    def clone(self) -> Chance:
        return Chance.from_json(self.to_json())


def _is_outcome(x: Any) -> bool:
    """What some draw could produce (which draw it serves is checked when it is used)."""
    if isinstance(x, list):
        return all(_is_int(v) for v in x) and sorted(x) == list(range(len(x)))
    if isinstance(x, float):
        return 0.0 <= x < 1.0
    return _is_int(x) and x >= 0


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)
