"""A tiny cooperative game that exercises what the shared driver must support beyond Last Heroes:
1-4 seats, a team reward, chance inside ``apply``, a decision taken by a seat other than the
active one, a multi-step turn, and truncation by a safety cap.

Relay: the team must bring a shared counter to exactly ``target``. The active seat plays
``ADD(1)`` or ``ADD(2)``; a die then adds 0 or 1. When the die adds 1, the *previous* seat
decides ``KEEP`` or ``UNDO`` for that bonus. Reaching the target wins (+1 to everyone),
overshooting loses (-1 to everyone), and ``max_steps`` decisions truncate the game (0 reward; the
outcome counts it as a loss for the team). The die is ``state.chance.roll(2)``, so a test can
script it (``state.chance.script([1, 0])``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core import ActionLayout, Block, Game, ObservationLayout, Option, Outcome, Rows, State
from envs.core.aec import make_env_factories
from envs.core.chance import Chance
from envs.core.options import is_bool, is_int_in, num_players_option, reward_scheme_option
from envs.core.validate import JsonReader

LAYOUT = ActionLayout([("ADD", {"amount": 2}, "add 1 or 2"), ("KEEP", {}, "keep the bonus"), ("UNDO", {}, "undo it")])


def _counter(s, seat: int, out: np.ndarray) -> None:
    out[0] = min(s.counter / s.game.options["target"], 1.0)


def _seat_to_act(s, seat: int, out: np.ndarray) -> None:
    out[(s.current_player - seat) % s.game.num_players] = 1.0


def _phase(s, seat: int, out: np.ndarray) -> None:
    out[s.phase] = 1.0


def _acting_row(s, r: int, out: np.ndarray) -> None:
    out[0] = 1.0 if s.current_player == r else 0.0


def _seats_from(s, seat: int) -> tuple[int, ...]:
    n = s.game.num_players
    return tuple((seat + p) % n if p < n else -1 for p in range(4))


OBS = ObservationLayout(
    [
        Block("counter", 1, "counter / target", _counter, reads=("counter",), shared=True),
        Block("seat", 4, "relative seat to act", _seat_to_act, reads=("current_player",)),
        # the memo's three ways: a snapshot (above), a key, and rows in each observer's order
        Block("phase", 3, "ADD, KEEP/UNDO, CHEER", _phase, reads=("phase",), shared=True, key=lambda s, seat: s.phase),
        Rows(
            "seats",
            (4, 1),
            "per relative seat: it acts now",
            encode_row=_acting_row,
            key_row=lambda s, r: s.current_player == r,
            order=_seats_from,
            count=lambda s: s.game.num_players,
            reads=("current_player",),
        ),
    ]
)


class RelayGame(Game):
    env_id = "relay_v0"
    min_players, max_players = 1, 4
    cooperative = True
    perfect_information = True
    end_reasons = ("target reached", "target overshot", "step cap reached")
    action_layout = LAYOUT
    observation_layout = OBS
    option_spec = (
        num_players_option(1, 4, 2),
        reward_scheme_option("win_loss", ("win_loss",)),
        Option("target", 10, "an integer 3..50", "the counter to reach", check=is_int_in(3, 50)),
        Option("max_steps", 200, "an integer >= 1", "truncation cap", check=is_int_in(1, 10_000)),
        Option("cheer", False, "True or False", "a forced KEEP (cheer) after each multiple of 4", check=is_bool),
    )

    def max_game_length(self) -> int:
        return self.options["max_steps"]

    def new_state(self, seed=None) -> RelayState:
        return RelayState(self, Chance(seed))

    def state_from_json(self, data: dict[str, Any]) -> RelayState:
        """Every field checked (envs.core.validate), as every game's state_from_json does."""
        r = JsonReader(data)
        n, target = self.num_players, self.options["target"]
        s = RelayState(self, Chance.from_json(r.raw("chance"), r.at("chance")))
        s.result = r.choice("result", (None, "won", "lost", "truncated"))
        s.counter = r.int("counter", 0, target + 1)
        s.active = r.int("active", 0, n - 1)
        s.phase = r.int("phase", 0, 2)
        s.steps = r.int("steps", 0, self.options["max_steps"])
        s.current_player = r.int("current_player", 0, n - 1)
        if s.result is None and s.current_player != ((s.active - 1) % n if s.phase == 1 else s.active):
            raise r.fail("current_player", f"seat {s.current_player} cannot be deciding in phase {s.phase}")
        return s


class UncheckedRelayGame(RelayGame):
    """A careless state_from_json (for the kit's own tests): reads fields as they come."""

    def state_from_json(self, data: dict[str, Any]) -> RelayState:
        s = RelayState(self, Chance())
        s.counter, s.current_player, s.active = data["counter"] + 0, data["current_player"], data["active"]
        s.phase, s.steps, s.result = data["phase"], data["steps"], data["result"]
        return s


class CrashingRelayGame(RelayGame):
    """A state_from_json that kills the interpreter, as a native engine reading out of bounds would."""

    def state_from_json(self, data: dict[str, Any]) -> RelayState:
        import os

        os.abort()


class RelayState(State):
    def __init__(self, game: RelayGame, chance: Chance):
        self.game, self.chance = game, chance
        self.counter = 0
        self.current_player = 0
        self.active = 0
        self.phase = 0  # 0: ADD, 1: KEEP/UNDO by the previous seat, 2: a forced KEEP (option cheer)
        self.steps = 0
        self.result: str | None = None
        self._rewards = [0.0] * game.num_players

    def is_terminal(self) -> bool:
        return self.result in ("won", "lost")

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(LAYOUT.num_actions, np.int8)
        if self.result is None:
            names = (("ADD",), ("KEEP", "UNDO"), ("KEEP",))[self.phase]
            for name in names:
                b = LAYOUT.block(name)
                mask[b.start : b.stop] = 1
        return mask

    def apply(self, action: int) -> None:
        if self.result is not None or not self.legal_mask()[action]:
            raise self.illegal_action_error(action)
        n = self.game.num_players
        name, args = LAYOUT.decode(action)
        if name == "ADD":
            self.counter += args[0] + 1
            if n > 1 and self.chance.roll(2) == 1:
                self.counter += 1
                self.phase = 1
                self.current_player = (self.active - 1) % n
            else:
                self._next()
        elif self.phase == 2:  # the cheer: the same seat adds next
            self.phase = 0
        else:
            if name == "UNDO":
                self.counter -= 1
            self.phase = 0
            self._next()
        if self.game.options["cheer"] and self.phase == 0 and name != "KEEP" and self.counter % 4 == 0:
            self.phase = 2
        self.steps += 1
        target = self.game.options["target"]
        if self.counter == target and self.phase == 0:
            self.result = "won"
        elif self.counter > target + 1 or (self.counter > target and self.phase == 0):
            self.result = "lost"
        elif self.steps >= self.game.options["max_steps"]:
            self.result = "truncated"
        value = {"won": 1.0, "lost": -1.0}.get(self.result, 0.0)
        self._rewards = [value] * n

    def _next(self) -> None:
        self.active = (self.active + 1) % self.game.num_players
        self.current_player = self.active

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        reason = {"won": "target reached", "lost": "target overshot", "truncated": "step cap reached"}[self.result]
        return Outcome.team(self.game.num_players, self.result == "won", reason, self.result == "truncated")

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> RelayState:
        """Nothing is hidden but the future: the same position with another generator."""
        data = self.to_json()
        data["chance"] = Chance(int(rng.integers(2**63))).to_json()
        return self.game.state_from_json(data)

    def rewards(self) -> list[float]:
        return self._rewards

    def returns(self) -> list[float]:
        return self._rewards

    def scores(self) -> list[float]:
        return [float(self.counter)] * self.game.num_players

    def describe_action(self, action: int) -> str:
        return LAYOUT.label(action)

    def render(self, seat=None) -> str:
        return f"counter {self.counter}/{self.game.options['target']}, seat {self.current_player} to act"

    def info(self) -> dict[str, Any]:
        return {"result": self.result} if self.result else {}

    def clone(self) -> RelayState:
        return self.game.state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "counter": self.counter,
            "current_player": self.current_player,
            "active": self.active,
            "phase": self.phase,
            "steps": self.steps,
            "result": self.result,
            "chance": self.chance.to_json(),
        }


class HeuristicBot:
    """Plays Relay perfectly: ADD(2) while the gap is at least 2, else ADD(1) (a bonus die then lands
    on the target or one past it), and KEEP a bonus only when it does not overshoot."""

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def act_state(self, state: RelayState) -> int:
        gap = state.game.options["target"] - state.counter
        if state.phase == 2:
            return LAYOUT.encode("KEEP")  # the cheer, the only move
        if state.phase == 1:
            return LAYOUT.encode("KEEP") if gap >= 0 else LAYOUT.encode("UNDO")
        return LAYOUT.encode("ADD", 1 if gap >= 2 else 0)


# The module is a registrable env (envs.register("relay_v0", "tests.toys")).
GAME = RelayGame
relay_env, relay_raw_env = make_env_factories(RelayGame)
env, raw_env = relay_env, relay_raw_env
