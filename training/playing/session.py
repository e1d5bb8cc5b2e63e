"""One game between people and bots: the session both front ends (terminal and browser) drive.

A :class:`Session` is built from an env id, the options, a seed and one *seat spec* per seat:

| Seat spec | Who plays the seat |
|---|---|
| `human` | a person, through the front end (several humans share the screen in turn) |
| `random`, `heuristic` | :func:`training.runtime.policies.load_policy` |
| `shipped` | the game's shipped bot, ``checkpoints/<game>/<game>.json``, else the heuristic |
| a path | a checkpoint (terminal only: the server offers only the checkpoints it lists) |

It holds the rules :class:`~envs.core.game.State` (``Game(num_players, **options).new_state(seed)``),
plays the bots (their seat actors, fed ``observe(seat)``, ``legal_mask()`` and the state) until a
human seat must decide or the game is over, and records every applied action: the replay is
``{env_id, options, num_players, seed, seats, actions}`` (:mod:`training.playing.replay`), since the
same seed and actions always give the same game.

What a seat is shown (:meth:`Session.view`) is only what that seat may see: the board from its seat
(:mod:`training.playing.boards`), ``render(seat)``, the legal actions when it decides, and the log of
moves, in which another seat's secret move (a face-down draft pick) is told without what it was.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import envs
from envs import game_name
from envs.core.game import IllegalActionError, State
from training.playing import boards
from training.runtime.policies import load_policy, observation_options, seat_actor, spec_error

REPO_ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT_DIR = REPO_ROOT / "checkpoints"
BOT_WORDS = ("random", "heuristic", "shipped")
SEAT_WORDS = ("human",) + BOT_WORDS
MAX_SEED = 2**31 - 1


class StaleActionError(ValueError):
    """An action sent for a position that is no longer the current one (another move came first)."""


class NotYourTurnError(ValueError):
    """An action for a seat that is not a human's to play now (a bot's turn, or the game is over)."""


def shipped_checkpoint(env_id: str) -> Path | None:
    """The game's shipped bot ``checkpoints/<game>/<game>.json``, or None when it has none."""
    name = game_name(env_id)
    path = CHECKPOINT_DIR / name / f"{name}.json"
    return path if path.is_file() else None


def _bot_seed(seed: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, seat]).generate_state(1)[0])


def _hint_entry(spec: str, env_id: str, seed: int, num_players: int) -> tuple[str, Any]:
    """(spec, policy) of a session's hint bot; its seed is the one after the seats'."""
    return spec, load_policy(spec, env_id, seed=_bot_seed(seed, num_players))


def default_bot(env_id: str) -> str:
    """The spec a seat gets when none is given: the shipped bot's path, else ``heuristic``."""
    path = shipped_checkpoint(env_id)
    return str(path) if path is not None else "heuristic"


def default_players(env_id: str) -> int:
    """The game's default player count (its ``num_players`` option default)."""
    game_cls = envs.game_class(env_id)
    for option in game_cls.option_spec:
        if option.name == "num_players":
            return int(option.default)
    return int(game_cls.min_players)


def resolve_spec(spec: str, env_id: str) -> str:
    """A seat spec with ``shipped`` replaced by what it means for this game."""
    spec = str(spec).strip()
    if spec == "shipped":
        return default_bot(env_id)
    return spec


def spec_label(spec: str) -> str:
    """A short name for a seat spec: the word itself, or a checkpoint's file stem."""
    if spec in SEAT_WORDS:
        return spec
    if spec.startswith("search:"):
        return spec
    return Path(spec).stem or spec


def kind_label(block: str) -> str:
    """``PLAY_AMMO`` -> ``Play ammo``: the heading of an action block in the lists."""
    words = block.replace("_", " ").strip().lower()
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class LegalAction:
    """One legal action for the seat to play: id, words, the block it belongs to, board items it names."""

    id: int
    text: str
    kind: str
    kind_label: str
    keys: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind,
            "kind_label": self.kind_label,
            "keys": list(self.keys),
        }


@dataclass(frozen=True)
class Hint:
    """What a policy would play now, and how sure it is (``how`` says what ``probability`` means)."""

    policy: str
    action: int
    text: str
    probability: float
    how: str

    def to_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "action": self.action,
            "text": self.text,
            "probability": self.probability,
            "how": self.how,
        }


@dataclass
class LogEntry:
    """One applied action. ``public`` is what the other seats are told (``text`` may be secret)."""

    step: int
    seat: int
    player: str
    action: int
    kind: str
    text: str
    public: str
    human: bool

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        own = seat is None or seat == self.seat
        return {
            "step": self.step,
            "seat": self.seat,
            "player": self.player,
            "kind": self.kind,
            "text": self.text if own else self.public,
            "action": self.action if own or self.text == self.public else None,
            "human": self.human,
        }


@dataclass
class Session:
    """A game in progress between human and bot seats. Build it with :meth:`Session.new`."""

    env_id: str
    options: dict[str, Any]
    num_players: int
    seed: int
    seats: list[str]  # the specs as given (``shipped`` kept, so a replay says what was meant)
    game: Any = field(repr=False)
    state: State = field(repr=False)
    actions: list[int] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    hint_spec: str | None = None
    _bots: dict[int, Any] = field(default_factory=dict, repr=False)
    _hint_policy: Any = field(default=None, repr=False)

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        env_id: str,
        num_players: int | None = None,
        seats: Sequence[str] | Mapping[int, str] | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        hint_spec: str | None = None,
        advance: bool = True,
        play_bots: bool = True,
    ) -> Session:
        """A new game. ``seats``: a spec per seat (a list, or a mapping seat -> spec; seats not given
        get the game's shipped bot, else the heuristic). ``seed`` None draws one (and records it).
        ``play_bots`` False: no bot is loaded (to step through a replay; :meth:`advance` then refuses)."""
        if env_id not in envs.ENV_IDS:
            raise ValueError(f"unknown env id {env_id!r}; registered ids are {list(envs.ENV_IDS)}")
        game_cls = envs.game_class(env_id)
        options = dict(options or {})
        if "num_players" in options:
            given = options.pop("num_players")
            if num_players is not None and given != num_players:
                raise ValueError(f"num_players is {num_players} but the options say {given}")
            num_players = given
        if num_players is None:
            num_players = default_players(env_id)
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError(f"the player count must be an integer, got {num_players!r}")
        if not game_cls.min_players <= num_players <= game_cls.max_players:
            raise ValueError(
                f"{env_id} is played by {game_cls.min_players} to {game_cls.max_players} players, not {num_players}"
            )
        specs = _seat_list(seats, num_players, check_paths=play_bots)
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"the seed must be an integer 0..{MAX_SEED}, got {seed!r}")
        bots = cls._bot_policies(env_id, specs, seed) if play_bots else {}
        options = observation_options(env_id, list(bots.values()), options)  # what each bot was trained to see
        hint = None
        hinted = resolve_spec(hint_spec or "shipped", env_id)
        if play_bots and hinted not in SEAT_WORDS:
            hint = _hint_entry(hinted, env_id, seed, num_players)
            try:  # the hint bot's observation too, unless a seat's bot needs another one
                options = observation_options(env_id, [hint[1]], options)
            except ValueError:
                pass
        game = game_cls(num_players=num_players, **options)
        state = game.new_state(seed)
        session = cls(env_id, options, num_players, seed, specs, game, state, hint_spec=hint_spec)
        session._hint_policy = hint
        if play_bots:
            session._load_bots(bots)
        if advance:
            session.advance()
        return session

    @staticmethod
    def _bot_policies(env_id: str, specs: Sequence[str], seed: int) -> dict[int, Any]:
        return {
            seat: load_policy(resolve_spec(spec, env_id), env_id, seed=_bot_seed(seed, seat))
            for seat, spec in enumerate(specs)
            if spec != "human"
        }

    def _load_bots(self, policies: dict[int, Any] | None = None) -> None:
        if policies is None:
            policies = self._bot_policies(self.env_id, self.seats, self.seed)
        self._bots = {seat: seat_actor(policy) for seat, policy in policies.items()}

    def _bot_seed(self, seat: int) -> int:
        return _bot_seed(self.seed, seat)

    # -- who plays ------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """How many actions were applied so far (an action is sent with it, to refuse stale ones)."""
        return len(self.actions)

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == "human"]

    def is_over(self) -> bool:
        return self.state.is_over()

    @property
    def to_act(self) -> int | None:
        """The seat that decides now, or None at the end."""
        return None if self.is_over() else int(self.state.current_player)

    @property
    def human_to_act(self) -> int | None:
        """The human seat that must decide now, or None (game over, or only bots left to play)."""
        seat = self.to_act
        return seat if seat is not None and self.seats[seat] == "human" else None

    def player_name(self, seat: int) -> str:
        return f"player_{seat} ({spec_label(self.seats[seat])})"

    # -- playing --------------------------------------------------------------------------------
    def advance(self, limit: int | None = None, seconds: float | None = None) -> list[LogEntry]:
        """Play the bots until a human seat must decide or the game ends; the moves played.
        ``limit``: at most that many moves; ``seconds``: no new move once that much wall time has
        passed (at least one is played), so a front end can show each slow bot's move as it comes."""
        played: list[LogEntry] = []
        cap = limit if limit is not None else 4 * self.game.max_game_length() + 100
        started = time.perf_counter()
        while not self.is_over() and self.human_to_act is None:
            if played and seconds is not None and time.perf_counter() - started >= seconds:
                break
            if len(played) >= cap:
                if limit is not None:
                    break
                raise RuntimeError(f"{self.env_id}: the bots played {cap} moves without ending the game")
            seat = int(self.state.current_player)
            if seat not in self._bots:
                raise RuntimeError(f"player_{seat} is a bot seat, but this session was built without its bots")
            state = self.state
            action = int(self._bots[seat].act(state.observe(seat), state.legal_mask(), state))
            played.append(self._apply(seat, action, human=False))
        return played

    def play(
        self, action: Any, step: int | None = None, seat: int | None = None, bot_seconds: float | None = None
    ) -> list[LogEntry]:
        """Apply a human's action (checked), then play the bots; the moves played, the human's first.

        ``step``: the number of actions the sender saw (:attr:`step`); another number means the
        position moved on and the action is refused with :class:`StaleActionError`. ``seat``: the
        seat the sender plays (refused unless it is the one to decide). Illegal or malformed actions
        raise :class:`~envs.core.game.IllegalActionError` naming the legal ones; nothing is applied.
        """
        if step is not None and step != self.step:
            raise StaleActionError(
                f"stale action: it was chosen at step {step}, but the game is at step {self.step}; "
                "here is the current position"
            )
        if self.is_over():
            raise NotYourTurnError("the game is over")
        to_act = self.human_to_act
        if to_act is None:
            raise NotYourTurnError(f"it is {self.player_name(int(self.state.current_player))}'s turn, not a human's")
        if seat is not None and seat != to_act:
            raise NotYourTurnError(f"it is player_{to_act}'s turn, not player_{seat}'s")
        action = _as_action_id(action, self.state)
        if not self.state.legal_mask()[action]:
            raise self.state.illegal_action_error(action)
        entries = [self._apply(to_act, action, human=True)]
        if not self.is_over() and self.human_to_act is None:
            entries += self.advance(seconds=bot_seconds)
        return entries

    @property
    def bots_to_move(self) -> bool:
        """A bot decides now (a front end that advances in slices asks for more)."""
        return not self.is_over() and self.human_to_act is None

    def _apply(self, seat: int, action: int, human: bool) -> LogEntry:
        state = self.state
        kind = self.game.action_layout.name_of(action)
        text = state.describe_action(action)
        public = boards.public_description(self.env_id, state, action, seat, text)
        state.apply(action)
        self.actions.append(action)
        entry = LogEntry(len(self.actions), seat, self.player_name(seat), action, kind, text, public, human)
        self.log.append(entry)
        return entry

    # -- what a seat sees -----------------------------------------------------------------------
    def legal_actions(self) -> list[LegalAction]:
        """The legal actions of the seat to decide, in id order, with words, kind and board keys."""
        if self.is_over():
            return []
        layout = self.game.action_layout
        state = self.state
        out = []
        for a in state.legal_actions():
            block = layout.name_of(a)
            keys = tuple(boards.action_keys(self.env_id, state, a))
            out.append(LegalAction(int(a), state.describe_action(a), block, kind_label(block), keys))
        return out

    def grouped_actions(self) -> list[tuple[str, list[tuple[int, LegalAction]]]]:
        """The legal actions numbered 1.. and grouped by kind (in the order of the game's blocks)."""
        groups: dict[str, list[tuple[int, LegalAction]]] = {}
        for number, legal in enumerate(self.legal_actions(), start=1):
            groups.setdefault(legal.kind_label, []).append((number, legal))
        return list(groups.items())

    def board(self, seat: int) -> dict[str, Any]:
        return boards.board_view(self.env_id, self.state, seat)

    def result(self, seat: int | None = None) -> dict[str, Any] | None:
        """How the game ended, from ``seat``'s side: winners, reason, scores, and "you won"."""
        outcome = self.state.outcome() if self.is_over() else None
        if outcome is None:
            return None
        cooperative = bool(self.game.cooperative)
        if cooperative:
            verdict = "the team won" if outcome.team_won else "the team lost"
        elif not outcome.winners:
            verdict = "no winner"
        elif seat is not None and seat in outcome.winners:
            verdict = "you won" if len(outcome.winners) == 1 else "you share the victory"
        elif seat is not None:
            verdict = "you lost"
        else:
            verdict = "won by " + ", ".join(f"player_{w}" for w in outcome.winners)
        return {
            "winners": list(outcome.winners),
            "reason": outcome.reason,
            "truncated": outcome.truncated,
            "cooperative": cooperative,
            "team_won": outcome.team_won if cooperative else None,
            "verdict": verdict,
            "scores": [float(x) for x in self.state.scores()],
        }

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see now, JSON-able: board, text render, legal actions when it
        decides (else none), the log as told to it, the result once the game is over."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat} is not a seat of this {self.num_players}-player game")
        deciding = self.to_act == seat and self.seats[seat] == "human"
        return {
            "env_id": self.env_id,
            "num_players": self.num_players,
            "cooperative": bool(self.game.cooperative),
            "seat": seat,
            "seats": [{"seat": i, "spec": spec_label(s), "human": s == "human"} for i, s in enumerate(self.seats)],
            "step": self.step,
            "to_act": self.to_act,
            "your_turn": deciding,
            "bots_to_move": self.bots_to_move,
            "over": self.is_over(),
            "board": self.board(seat),
            "text": self.state.render(seat),
            "legal": [a.to_json() for a in self.legal_actions()] if deciding else [],
            "log": [e.for_seat(seat) for e in self.log],
            "result": self.result(seat),
        }

    # -- hints ----------------------------------------------------------------------------------
    def hint(self, spec: str | None = None) -> Hint:
        """What the policy ``spec`` (default: the session's hint spec, else the shipped bot or the
        heuristic) would play now for the seat to decide, and its probability where it has one."""
        if self.is_over():
            raise NotYourTurnError("the game is over: there is nothing to hint")
        chosen = spec or self.hint_spec or "shipped"
        resolved = resolve_spec(chosen, self.env_id)
        if resolved == "human":
            raise ValueError(
                "a hint comes from a bot, and 'human' asks a person: give random, heuristic, shipped, "
                "a checkpoint or a search: spec"
            )
        if self._hint_policy is None or self._hint_policy[0] != resolved:
            self._hint_policy = _hint_entry(resolved, self.env_id, self.seed, self.num_players)
        policy = self._hint_policy[1]
        state = self.state
        seat = int(state.current_player)
        obs, mask = state.observe(seat), state.legal_mask()
        legal = int(np.count_nonzero(mask))
        if hasattr(policy, "analyse"):  # a search: its visit shares
            result = policy.analyse(state)
            action = result.action
            p = float(result.shares[action]) if result.simulations else 1.0
            top = result.legal[np.argsort(-result.visits[result.legal])][:3]
            others = ", ".join(f"{int(a)} {result.shares[a]:.0%}" for a in top if a != action)
            how = (
                f"the search's share of {result.simulations} simulations (value {result.value:+.2f}"
                + (f"; next: {others}" if others else "")
                + ")"
            )
            return Hint(spec_label(resolved), action, state.describe_action(action), p, how)
        action = int(policy.act(obs, mask, state))
        if hasattr(policy, "probabilities"):
            p = float(policy.probabilities(obs[None, :], mask[None, :])[0, action])
            how = "the policy's probability of this action (it plays its most probable action)"
        elif resolved == "random":
            p = 1.0 / legal
            how = f"uniform over the {legal} legal actions (the random policy)"
        else:
            p = 1.0
            how = "a rule-based choice: it gives no probabilities (shown as 1.0)"
        return Hint(spec_label(resolved), action, state.describe_action(action), p, how)

    # -- replays --------------------------------------------------------------------------------
    def replay(self) -> dict[str, Any]:
        """The replay of the game so far (see :mod:`training.playing.replay`)."""
        from training.playing.replay import make_replay

        outcome = self.state.outcome() if self.is_over() else None
        return make_replay(self.env_id, self.options, self.num_players, self.seed, self.seats, self.actions, outcome)

    @classmethod
    def from_replay(
        cls,
        data: Mapping[str, Any],
        seats: Sequence[str] | Mapping[int, str] | None = None,
        upto: int | None = None,
        advance: bool = True,
        hint_spec: str | None = None,
        play_bots: bool = True,
    ) -> Session:
        """Rebuild a saved game: the same seed, then its actions re-applied (each checked). ``seats``
        replaces some or all seat specs (e.g. to take over a bot's seat); ``upto`` stops after that
        many actions. ``advance``: then let the bots play on to the next human decision."""
        from training.playing.replay import ReplayError, validate_replay

        data = validate_replay(data)
        specs = list(data["seats"])
        if seats is not None:
            given = dict(enumerate(seats)) if not isinstance(seats, Mapping) else dict(seats)
            for seat, spec in given.items():
                if not 0 <= int(seat) < len(specs):
                    raise ReplayError(f"seat {seat} is not a seat of this {len(specs)}-player replay")
                specs[int(seat)] = spec
        try:
            session = cls.new(
                data["env_id"],
                data["num_players"],
                specs,
                data["seed"],
                data["options"],
                hint_spec=hint_spec,
                advance=False,
                play_bots=play_bots,
            )
        except ValueError as e:
            raise ReplayError(f"replay cannot be set up: {e}") from e
        actions = data["actions"] if upto is None else data["actions"][:upto]
        for i, action in enumerate(actions):
            state = session.state
            if state.is_over():
                raise ReplayError(
                    f"replay action #{i + 1} ({action}) comes after the end of the game ({len(actions)} actions "
                    "recorded): the replay is damaged or from another version of the game"
                )
            if not state.legal_mask()[action]:
                raise ReplayError(
                    f"replay action #{i + 1} ({action}: {state.describe_action(action)}) is illegal at that "
                    f"point for player_{state.current_player}: the replay is damaged, or it was recorded with "
                    "other options or another version of the game"
                )
            session._apply(int(state.current_player), action, human=session.seats[state.current_player] == "human")
        if advance and play_bots:
            session.advance()
        return session


def _as_action_id(action: Any, state: State) -> int:
    """An action id from what a client sent (an int, or a string of digits); else IllegalActionError."""
    if isinstance(action, bool):
        raise state.illegal_action_error(action, "an action is an integer id")
    if isinstance(action, str) and action.strip().isascii() and action.strip().isdigit() and len(action) <= 12:
        action = int(action.strip())  # ASCII digits only: "²" is a digit to str.isdigit, not to int()
    if isinstance(action, (int, np.integer)) and 0 <= int(action) < state.game.num_actions:
        return int(action)
    raise state.illegal_action_error(action, "not an action id")


def _seat_list(
    seats: Sequence[str] | Mapping[int, str] | None, num_players: int, check_paths: bool = True
) -> list[str]:
    """One spec per seat: the given ones (checked), the rest the default bot (``shipped``)."""
    specs = ["shipped"] * num_players
    if seats is None:
        return specs
    if isinstance(seats, Mapping):
        items = list(seats.items())
    else:
        if len(seats) > num_players:
            raise ValueError(f"{len(seats)} seat specs for a {num_players}-player game")
        items = list(enumerate(seats))
    for seat, spec in items:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
            raise ValueError(f"seat {seat!r} is not a seat of a {num_players}-player game (0..{num_players - 1})")
        if not isinstance(spec, str) or not spec.strip():
            raise ValueError(f"seat {seat}: a seat spec is a non-empty string, got {spec!r}")
        spec = spec.strip()
        why = spec_error(spec, SEAT_WORDS) if check_paths else None
        if why is not None:
            raise ValueError(f"seat {seat}: {why}")
        specs[int(seat)] = spec
    return specs


__all__ = [
    "BOT_WORDS",
    "Hint",
    "IllegalActionError",
    "LegalAction",
    "LogEntry",
    "NotYourTurnError",
    "SEAT_WORDS",
    "Session",
    "StaleActionError",
    "default_bot",
    "default_players",
    "game_name",
    "kind_label",
    "resolve_spec",
    "shipped_checkpoint",
    "spec_label",
]
