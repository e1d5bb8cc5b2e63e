"""The Game / State contract every herozoo game implements (no PettingZoo in here).

A :class:`Game` is the immutable configuration of one table (player count and variant options)
and the factory of states. A :class:`State` is the whole mutable game: it owns its random
generator, so the same seed and the same actions always give the same game, and chance
(shuffles, dice, draws) happens inside :meth:`State.apply`. Seats are integers ``0..n-1``; the
rules never see agent names.

The contract, as the shared AEC driver (``envs.core.aec``) uses it:

- ``current_player``: the seat that decides now (any seat, not only the "active" one), -1 at the end;
- ``legal_mask()``: int8 array of length ``num_actions``. Every action it allows is legal *and*
  completable (no dead ends inside a multi-step turn), and while the game runs at least one is allowed;
- ``apply(action)``: plays the action, raising :class:`IllegalActionError` for an illegal one;
- ``rewards()``: the reward of every seat produced by the last ``apply`` (terminal results and any
  shaping included), so cooperative games simply give every seat the same number;
- ``is_terminal()`` / ``is_truncated()``: natural end, or a safety cap reached;
- ``outcome()``: None while the game runs, then an :class:`Outcome`: who won and why. A
  competitive game names its winning seats (several on a shared victory); a cooperative game
  names every seat when the team won and none when it lost. Evaluation, ratings and the
  learners' success flags read it, never the scores;
- ``observe(seat)``: float32 vector with only what that seat may know;
- ``describe_action(action)``, ``render(seat)``, ``info()``, ``clone()``, ``to_json()`` and
  ``Game.state_from_json(data)``;
- ``resample_hidden(seat, rng)``: a copy of the state in which everything ``seat`` cannot see is
  dealt anew (other hands, deck orders), consistent with what it has seen. The conformance kit
  checks through it that a seat's observation, and the heuristic bot's choice for that seat, do
  not depend on hidden information (OpenSpiel's ``ResampleFromInfostate``).

Chance that tests can script: games draw from an :class:`envs.core.chance.Chance`, whose next
outcomes a test can set (see that module).

:func:`play_forced` plays a state forward through decisions that have exactly one legal action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from envs.core.actions import ActionLayout
from envs.core.observation import ObservationLayout
from envs.core.options import Option, resolve_options


class IllegalActionError(ValueError):
    """An action that the current state does not allow. Names the action and the legal ones."""

    def __init__(self, message: str, action: int | None = None, legal: tuple[int, ...] = ()):
        super().__init__(message)
        self.action = action
        self.legal = legal


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners``: the seats that won, in seat order. Competitive: one seat, or several sharing the
    victory. Cooperative: every seat when the team won, none when it lost. ``reason`` says why the
    game ended in the game's own words (``"all artefacts held"``, ``"warlord defeated"``,
    ``"fortress deck exhausted"``...). ``truncated``: a safety cap ended the game; the game decides
    what such an end counts as (a loss for a cooperative team, no winner in a competitive game).
    """

    winners: tuple[int, ...]
    reason: str
    truncated: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "winners", tuple(sorted(int(w) for w in self.winners)))

    @classmethod
    def team(cls, num_players: int, won: bool, reason: str, truncated: bool = False) -> Outcome:
        """A cooperative ending: every seat wins together, or none does."""
        return cls(tuple(range(num_players)) if won else (), reason, truncated)

    @property
    def team_won(self) -> bool:
        """Cooperative games: did the team win (the same as "somebody won")."""
        return bool(self.winners)

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "truncated": self.truncated}


class Game(ABC):
    """Immutable game configuration and state factory.

    Subclasses set the class attributes below and implement :meth:`new_state` and
    :meth:`state_from_json`. ``num_actions`` and ``observation_size`` do not depend on the
    player count, so one policy can play every table size.
    """

    env_id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_layout: ClassVar[ActionLayout]
    observation_layout: ClassVar[ObservationLayout]
    option_spec: ClassVar[tuple[Option, ...]]
    cooperative: ClassVar[bool] = False
    perfect_information: ClassVar[bool] = False  # True: resample_hidden has nothing to redeal
    #: options that change only what observe() shows, not the rules: a checkpoint trained with them
    #: brings them along when it plays (training.runtime.policies.observation_options)
    observation_options: ClassVar[tuple[str, ...]] = ()
    #: every reason ``State.outcome()`` can give, in words: their order fixes the codes of the
    #: driver's ``end_reason`` info (after the generic ones, ``envs.core.aec.GENERIC_END_REASONS``)
    end_reasons: ClassVar[tuple[str, ...]] = ()
    #: the option that weighs the game's reward shaping (its states then offer
    #: ``shaping_potentials()``), or None; see :meth:`shaping_weight`
    shaping_option: ClassVar[str | None] = None
    #: option values a trainer takes unless its config sets them: variants that train better or
    #: faster and leave the game the same (a denser shaped reward, a compiled engine)
    training_options: ClassVar[Mapping[str, Any]] = {}

    @classmethod
    def shaping_weight(cls, options: Mapping[str, Any]) -> float:
        """The weight ``w`` of ``State.shaping_potentials()`` in the rewards of a game with these
        options (0: no shaping). The shaped rewards from a state ``s`` to the end then sum to
        ``result + w * (Phi(end) - Phi(s))``: a value head trained on them estimates that, and a
        search adds ``w * Phi(s)`` back to compare leaves on one scale (training.runtime.search).
        A potential-based shaping has ``Phi(end) = 0`` (Last Heroes); shaping by events counts what
        the events paid so far in ``Phi`` (Last Bastion)."""
        if cls.shaping_option is None:
            return 0.0
        return float(options.get(cls.shaping_option, 0.0) or 0.0)

    @classmethod
    def shaping_bound(cls, options: Mapping[str, Any]) -> float:
        """The largest ``|Phi(end)|`` a game with these options can reach (0 for a potential that
        vanishes at the end): with the weight, how far past +-1 a shaped value may lie."""
        return 0.0

    def __init__(self, **options: Any):
        self.options: dict[str, Any] = resolve_options(self.option_spec, options, self.env_id)
        self.num_players: int = self.options["num_players"]

    @property
    def num_actions(self) -> int:
        return self.action_layout.num_actions

    @property
    def observation_size(self) -> int:
        return self.observation_layout.size

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the decisions of one game at this configuration."""

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """A new game after the automatic setup, ready for its first decision."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state written by :meth:`State.to_json` (or written by hand in a test)."""


class State(ABC):
    """The whole mutable game. See the module docstring for the contract."""

    game: Game
    current_player: int

    @abstractmethod
    def is_terminal(self) -> bool: ...

    def is_truncated(self) -> bool:
        """True when a safety cap ended the game before its natural end."""
        return False

    def is_over(self) -> bool:
        return self.is_terminal() or self.is_truncated()

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs; who won and why once it is over (see :class:`Outcome`)."""

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """int8 array of length ``num_actions`` for ``current_player`` (all zeros at the end)."""

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def num_legal(self) -> int:
        """How many actions are legal now (a state that knows it without a scan may override)."""
        return int(np.count_nonzero(self.legal_mask()))

    def apply(self, action: int) -> None:
        """Play ``action`` for ``current_player``; raise :class:`IllegalActionError` if illegal.

        The legality check every game shares, written once: an action is a Python or numpy
        integer (never a bool), an id of the layout, and allowed by :meth:`legal_mask`. The game's
        rules are :meth:`apply_legal`."""
        if (
            isinstance(action, (bool, np.bool_))
            or not isinstance(action, (int, np.integer))
            or not 0 <= action < self.game.num_actions
            or self.is_over()
            or not self.is_legal(int(action))
        ):
            raise self.illegal_action_error(action, self.illegal_why())
        self.apply_legal(int(action))

    def is_legal(self, action: int) -> bool:
        """Whether the id ``action`` (an int in ``0..num_actions - 1``) is legal now: what
        :meth:`legal_mask` says, which a game that keeps its legal ids may answer without the mask."""
        return bool(self.legal_mask()[action])

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check, for a caller that has just checked the int
        ``action`` against :meth:`legal_mask` (the AEC driver does). Anything else: use apply()."""
        raise NotImplementedError(f"{type(self).__name__} implements neither apply_legal(action) nor apply(action)")

    def illegal_why(self) -> str:
        """What the decision now is, for the message of an illegal action (a game may say more)."""
        return ""

    @abstractmethod
    def rewards(self) -> list[float]:
        """Reward of every seat produced by the last :meth:`apply`."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Final reward of every seat (meaningful once the game is over)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own score of every seat, as it stands now."""

    #: the observation memo (envs.core.observation): rebuilt lazily, never copied into JSON
    _obs_memo: Any = None

    def observe(self, seat: int) -> np.ndarray:
        """float32 vector of ``game.observation_size``: only what ``seat`` may know. By default the
        game's layout written block by block through the memo (``ObservationLayout.encode``)."""
        layout = self.game.observation_layout
        if not layout.encodable:
            raise NotImplementedError(
                f"{type(self).__name__}: give every observation block an encoder, or override observe()"
            )
        return layout.encode(self, check_seat(self, seat))

    @abstractmethod
    def describe_action(self, action: int) -> str:
        """Readable meaning of ``action`` for ``current_player`` in this state."""

    @abstractmethod
    def render(self, seat: int | None = None) -> str:
        """Text picture of the game; with a seat, only what that seat may see."""

    def info(self) -> dict[str, Any]:
        """Public facts for the driver's ``infos`` (phase, round; results at the end)."""
        return {}

    @abstractmethod
    def clone(self) -> State: ...

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> State:
        """A copy with everything ``seat`` cannot see dealt anew (see the module doc), and a new
        future: the copy's chance is reseeded from ``rng`` (a scripted outcome is not carried over).

        A game of perfect information (``Game.perfect_information``) changes only the future."""
        raise NotImplementedError(f"{type(self).__name__} does not implement resample_hidden(seat, rng)")

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    def illegal_action_error(self, action: Any, why: str = "") -> IllegalActionError:
        """The error for an illegal ``action``: what it means, why, and every legal alternative."""
        legal = tuple(self.legal_actions()) if not self.is_terminal() else ()
        if isinstance(action, (int, np.integer)) and 0 <= action < self.game.num_actions:
            what = f"action {int(action)} ({self.describe_action(int(action))})"
        else:
            what = f"action {action!r} (not an id in 0..{self.game.num_actions - 1})"
        reason = f": {why}" if why else ""
        shown = ", ".join(f"{a} ({self.describe_action(a)})" for a in legal[:40])
        more = f", ... ({len(legal)} in all)" if len(legal) > 40 else ""
        message = f"{what} is illegal for seat {self.current_player}{reason}. Legal actions: {shown}{more}"
        if self.is_terminal():
            message = f"{what} is illegal: the game is over"
        return IllegalActionError(message, int(action) if isinstance(action, (int, np.integer)) else None, legal)


def check_seat(state: State, seat: Any) -> int:
    """``seat`` as a seat index of ``state``'s table, or a ValueError that says which seats there are."""
    n = state.game.num_players
    if type(seat) is int and 0 <= seat < n:  # the common case first: a plain int (never a bool)
        return seat
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} is not a seat of this {n}-player game: seats are the integers 0..{n - 1}")
    return int(seat)


def check_state_header(game: Game, data: Mapping[str, Any], seats: int) -> None:
    """The checks every ``state_from_json`` starts with: the state is for this env id and this table size."""
    if data.get("env_id", game.env_id) != game.env_id:
        raise ValueError(f"state is for {data['env_id']!r}, not {game.env_id!r}")
    if seats != game.num_players:
        raise ValueError(f"state has {seats} players but the game has {game.num_players}")


def play_forced(
    state: State,
    totals: list[float] | None = None,
    stop: Callable[[int], bool] | None = None,
    apply: Callable[[State, int], None] | None = None,
    seat: int | None = None,
    limit: int | None = None,
) -> int:
    """Play every decision that has exactly one legal action, until a real choice or the end.

    ``totals``: the rewards of the forced moves are added into it, every seat's (``totals[i]``),
    or with ``seat`` only that seat's (into ``totals[0]``, the cheap form for one learner).
    ``stop(seat)``: stop before a forced decision of a seat for which it is true (that seat decides
    itself). ``apply``: how to play the action (default ``type(state).apply``; a driver may pass
    ``apply_legal``). ``limit``: raise RuntimeError after that many forced moves (a game stuck in a
    loop of forced moves). Returns how many decisions were played.
    """
    played = 0
    do = apply if apply is not None else type(state).apply
    while not (state.is_terminal() or state.is_truncated()):
        if state.num_legal() != 1 or (stop is not None and stop(state.current_player)):
            break
        do(state, int(state.legal_mask().argmax()))  # the one legal action
        played += 1
        if totals is not None:
            rewards = state.rewards()
            if seat is not None:
                totals[0] += rewards[seat]
            else:
                for i, r in enumerate(rewards):
                    totals[i] += r
        if limit is not None and played > limit:
            raise RuntimeError(f"{type(state).__name__}: more than {limit} forced decisions in a row")
    return played
