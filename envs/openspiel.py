"""Every registered herozoo game as an OpenSpiel (pyspiel) game, for OpenSpiel's own algorithms.

>>> from envs import openspiel
>>> game = openspiel.load_game("last_heroes_v0", players=3, seed=7)   # registers every env id first
>>> state = game.new_initial_state()

The game of env id ``E`` is registered under the short name ``python_herozoo_E`` (for example
``python_herozoo_last_heroes_v0``), so ``pyspiel.load_game("python_herozoo_last_heroes_v0(players=3)")``
works too once :func:`register_all` has run. Parameters: ``players`` (the table size), ``seed``
(-1: fresh entropy) and every option of the game whose default is a plain scalar (see
:func:`parameter_specification`; ``observation_mode`` is fixed to ``"vector"``).

What maps to what (herozoo -> pyspiel):

| herozoo | pyspiel |
|---|---|
| env id ``E`` | short name ``python_herozoo_E``, long name ``herozoo E`` |
| ``Game.min_players`` / ``max_players`` | ``GameType.min_num_players`` / ``max_num_players`` |
| option ``num_players`` | parameter ``players`` |
| ``new_state(seed)`` | ``new_initial_state()``; the episode seeds come from a generator seeded by ``seed`` |
| chance inside ``apply`` (the state's own generator) | ``ChanceMode.SAMPLED_STOCHASTIC``: no chance nodes |
| ``Game.perfect_information`` | ``Information.PERFECT_INFORMATION``, else ``IMPERFECT_INFORMATION`` |
| ``Game.cooperative`` | ``Utility.IDENTICAL``, else ``GENERAL_SUM`` |
| ``num_actions`` | ``num_distinct_actions`` |
| ``max_game_length()`` | ``max_game_length`` |
| ``current_player`` (-1 at the end) | ``current_player()`` (``PlayerId.TERMINAL`` once ``is_over()``) |
| ``legal_mask()`` | ``legal_actions()`` (the allowed ids, ascending) |
| ``apply(action)`` | ``apply_action(action)`` |
| ``is_over()`` (natural end or truncation) | ``is_terminal()`` |
| ``returns()`` once over | ``returns()``; zeros while the game runs (``RewardModel.TERMINAL``) |
| ``describe_action(a)`` | ``action_to_string(player, a)``: ``"<description> (#a)"`` |
| ``render()`` / ``render(seat)`` | ``str(state)`` / ``observation_string(seat)`` |
| ``observe(seat)`` | ``observation_tensor(seat)``, ``observation_size`` floats |
| ``clone()`` | ``clone()`` (OpenSpiel's history is kept) |
| ``resample_hidden(seat, rng)`` | ``resample_from_infostate(seat, sampler)`` (Python callers, e.g. ISMCTS) |
| ``to_json()`` / ``state_from_json()`` | ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` |

Not provided: information states. A herozoo observation is what a seat sees now, not a
perfect-recall record of its past, so ``provides_information_state_*`` are False; search with
observation strings (``ISMCTSBot(..., use_observation_string=True)``). See docs/interop.md.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

import envs
from envs.core.options import REWARD_SCHEMES

PREFIX = "python_herozoo_"
#: options never exposed: the tensor needs the flat vector
_FIXED = {"observation_mode": "vector"}
#: herozoo option name -> pyspiel parameter name
_RENAMED = {"num_players": "players"}
_registered: set[str] = set()


def short_name(env_id: str) -> str:
    """The pyspiel short name of an env id."""
    return PREFIX + env_id


def env_id_of(name: str) -> str:
    """The env id behind a pyspiel short name made by :func:`short_name`."""
    if not name.startswith(PREFIX):
        raise ValueError(f"{name!r} is not a herozoo game name (they start with {PREFIX!r})")
    return name[len(PREFIX) :]


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str))


def parameter_specification(env_id: str) -> dict[str, Any]:
    """The pyspiel parameters of an env id and their defaults: ``players``, ``seed`` and the game's
    options whose default is a bool, int, float or str (None-default, list and dict options have no
    pyspiel form and keep their herozoo default)."""
    spec: dict[str, Any] = {}
    for option in envs.game_class(env_id).option_spec:
        if option.name in _FIXED or not _is_scalar(option.default):
            continue
        spec[_RENAMED.get(option.name, option.name)] = option.default
    spec["seed"] = -1
    return spec


def herozoo_options(env_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """pyspiel parameters -> the options of the herozoo Game (``players`` -> ``num_players``,
    ``seed`` left out, ``observation_mode`` fixed)."""
    names = {o.name for o in envs.game_class(env_id).option_spec}
    back = {v: k for k, v in _RENAMED.items()}
    options = {back.get(name, name): value for name, value in params.items() if name != "seed"}
    options.update({name: value for name, value in _FIXED.items() if name in names})
    return options


def utility_range(game) -> tuple[float, float]:
    """The shared reward schemes (``envs.core.options.REWARD_SCHEMES``) all lie in [-1, 1]; a game's
    own schemes declare no bound in the contract, so they get an open range."""
    scheme = game.options.get("reward_scheme", "win_loss")
    return (-1.0, 1.0) if scheme in REWARD_SCHEMES else (-math.inf, math.inf)


def game_type(env_id: str) -> pyspiel.GameType:
    game_cls = envs.game_class(env_id)
    info = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=short_name(env_id),
        long_name=f"herozoo {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=info.PERFECT_INFORMATION if game_cls.perfect_information else info.IMPERFECT_INFORMATION,
        utility=utility.IDENTICAL if game_cls.cooperative else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game_cls.max_players,
        min_num_players=game_cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(env_id),
    )


def register(env_id: str) -> str:
    """Register one env id with pyspiel (again is a no-op); returns its short name."""
    name = short_name(env_id)
    if name in _registered or name in pyspiel.registered_names():
        _registered.add(name)
        return name
    # the factory is a class: pyspiel's registry outlives the interpreter, and a class (unlike a
    # partial or a lambda) is never freed before it, which would abort the process at exit
    factory = type(f"HerozooGame_{env_id}", (HerozooGame,), {"env_id": env_id, "__module__": __name__})
    pyspiel.register_game(game_type(env_id), factory)
    _registered.add(name)
    return name


def register_all() -> list[str]:
    """Register every env id in ``envs.ENV_IDS`` (call again after ``envs.register``)."""
    return [register(env_id) for env_id in envs.ENV_IDS]


def load_game(env_id: str, **params: Any) -> HerozooGame:
    """``pyspiel.load_game`` of an env id with the given parameters (registering it first). pyspiel
    checks parameter types strictly; here an int given for a float parameter is made a float."""
    name = register(env_id)
    spec = parameter_specification(env_id)
    for key, value in params.items():
        if isinstance(spec.get(key), float) and isinstance(value, int) and not isinstance(value, bool):
            params[key] = float(value)
    return pyspiel.load_game(name, params)


@functools.lru_cache(maxsize=64)
def _herozoo_game(env_id: str, options_json: str):
    """One herozoo Game per configuration (a Game is immutable), for states rebuilt from JSON."""
    return envs.game_class(env_id)(**json.loads(options_json))


class HerozooGame(pyspiel.Game):
    """One herozoo table (env id, player count, options) as a pyspiel game; :func:`register` makes one
    subclass per env id (``env_id`` set), which is what ``pyspiel.load_game`` builds."""

    env_id: str

    def __init__(self, params: Mapping[str, Any] | None = None):
        env_id = self.env_id
        params = {**parameter_specification(env_id), **dict(params or {})}
        self.options = herozoo_options(env_id, params)
        self.herozoo = _herozoo_game(env_id, json.dumps(self.options, sort_keys=True))
        seed = int(params["seed"])
        root = np.random.SeedSequence(seed if seed >= 0 else None)
        deal_seq, resample_seq = root.spawn(2)
        self._deal_seeds = np.random.default_rng(deal_seq)
        self.resample_rng = np.random.default_rng(resample_seq)  # resample_from_infostate without a sampler
        self._spare: list = []  # deals handed out but only ever looked at (see _Holder)
        low, high = utility_range(self.herozoo)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.herozoo.num_actions,
            max_chance_outcomes=0,
            num_players=self.herozoo.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=self.herozoo.max_game_length(),
        )
        super().__init__(game_type(env_id), info, params)

    def new_initial_state(self) -> HerozooState:
        return HerozooState(self)

    def __reduce__(self):
        # pyspiel pickles a game with its RNG state, which a Python game cannot give: rebuild it by
        # name and parameters (its episode seeds start again from ``seed``)
        return _unpickle_game, (self.env_id, dict(self.get_parameters()))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The seat's herozoo observation; the only kind there is (not perfect recall, own private info)."""
        if params:
            raise ValueError(f"herozoo observers take no parameters; got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.perfect_recall
            or not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "herozoo games offer one observation: a seat's current view (public info and its own private "
                "info, not perfect recall); there is no information state (use observation strings, e.g. "
                "ISMCTSBot(..., use_observation_string=True))"
            )
        return HerozooObserver(self.herozoo.observation_size)

    # -- deals ---------------------------------------------------------------------------------
    def _deal(self):
        """The next episode: a deal given back unplayed first, else a new one from the next seed."""
        if self._spare:
            return self._spare.pop()
        return self.herozoo.new_state(int(self._deal_seeds.integers(2**63)))


def _unpickle_game(env_id: str, params: dict[str, Any]) -> HerozooGame:
    return load_game(env_id, **params)


def _unpickle_state(env_id: str, params: dict[str, Any], text: str) -> HerozooState:
    return _unpickle_game(env_id, params).deserialize_state(text)


class _Holder:
    """The herozoo state inside a pyspiel state, dealt when first needed.

    OpenSpiel makes blank states through ``new_initial_state()`` inside ``clone()``, deserialization
    and every ``observation_tensor()`` call (to learn the tensor shape). So a state is dealt only
    when first used, and a deal that was only looked at (observed) goes back to the game when its
    state is dropped: episode k of a seeded game is the same however many clones or tensors were
    taken before it. ``deepcopy`` is the herozoo ``clone()``; pickling goes through ``to_json()``.
    """

    __slots__ = ("game", "state", "played")

    def __init__(self, game: HerozooGame | None, state=None):
        self.game = game
        self.state = state
        self.played = state is not None

    def get(self):
        """The state, for play (it will not be given back)."""
        if self.state is None:
            self.state = self.game._deal()
        self.played = True
        return self.state

    def look(self):
        """The state, for a read-only look (an untouched deal may still be given back)."""
        if self.state is None:
            self.state = self.game._deal()
        return self.state

    def __del__(self):
        if self.state is not None and not self.played and self.game is not None:
            self.game._spare.append(self.state)

    def __deepcopy__(self, memo):
        return _Holder(self.game, self.get().clone())

    def __reduce__(self):
        state = self.get()
        game = state.game
        options = json.dumps({o.name: game.options[o.name] for o in game.option_spec}, sort_keys=True)
        return _restore, (game.env_id, options, json.dumps(state.to_json()))


def _restore(env_id: str, options_json: str, state_json: str) -> _Holder:
    return _Holder(None, _herozoo_game(env_id, options_json).state_from_json(json.loads(state_json)))


class HerozooState(pyspiel.State):
    """A herozoo state behind the pyspiel State API (see the module table)."""

    def __init__(self, game: HerozooGame):
        super().__init__(game)
        self._holder = _Holder(game)

    def herozoo_state(self):
        """The herozoo State itself (live: applying actions to it bypasses OpenSpiel's history)."""
        return self._holder.get()

    def current_player(self) -> int:
        s = self._holder.get()
        return pyspiel.PlayerId.TERMINAL if s.is_over() else s.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self._holder.get().legal_mask()).tolist()

    def _apply_action(self, action: int) -> None:
        self._holder.get().apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        # the id keeps the strings of legal actions distinct (two copies of a card read the same)
        return f"{self._holder.get().describe_action(int(action))} (#{int(action)})"

    def is_terminal(self) -> bool:
        return self._holder.get().is_over()

    def returns(self) -> list[float]:
        s = self._holder.get()
        if not s.is_over():
            return [0.0] * s.game.num_players
        return [float(r) for r in s.returns()]

    def __str__(self) -> str:
        return self._holder.get().render()

    def __reduce__(self):
        game = self.get_game()
        return _unpickle_state, (game.env_id, dict(game.get_parameters()), self.serialize())

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> HerozooState:
        """A copy in which what ``player_id`` cannot see is dealt anew (herozoo ``resample_hidden``).

        The rng: from ``probability_sampler`` (OpenSpiel's sampler, a callable giving floats in
        [0, 1): four draws seed a numpy generator), a numpy Generator used as is, or None: the game's
        own resampling generator (seeded by the game's ``seed``). Python callers only: C++ code
        (``pyspiel.ISMCTSBot``) cannot reach it.
        """
        if probability_sampler is None:
            rng = self.get_game().resample_rng
        elif isinstance(probability_sampler, np.random.Generator):
            rng = probability_sampler
        else:
            rng = np.random.default_rng([int(probability_sampler() * 2**32) for _ in range(4)])
        fresh = self._holder.get().resample_hidden(int(player_id), rng)
        copy = self.clone()  # keeps OpenSpiel's history and move number
        copy._holder = _Holder(self.get_game(), fresh)
        return copy


class HerozooObserver:
    """The PyObserver of herozoo games: ``observe(seat)`` as the tensor, ``render(seat)`` as the string."""

    def __init__(self, size: int):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HerozooState, player: int) -> None:
        self.tensor[:] = state._holder.look().observe(int(player))

    def string_from(self, state: HerozooState, player: int) -> str:
        return state._holder.look().render(int(player))


def wrap_state(game: HerozooGame, state) -> HerozooState:
    """A pyspiel state of ``game`` that plays a copy of the herozoo ``state`` (e.g. to let an
    OpenSpiel bot choose one move of a game herozoo runs). OpenSpiel's history starts empty."""
    if state.game.env_id != game.env_id or state.game.num_players != game.num_players():
        raise ValueError(
            f"a {state.game.num_players}-player {state.game.env_id} state does not fit "
            f"{game.num_players()}-player {game.env_id}"
        )
    wrapped = game.new_initial_state()
    wrapped._holder = _Holder(game, state.clone())
    return wrapped


def seeded_resampler(seed: int | None = None) -> Callable[[HerozooState, int], HerozooState]:
    """A resampler for ``ISMCTSBot.set_resampler`` drawing from one seeded numpy generator, so a
    seeded search is reproducible (the bot's default sampler is seeded from the system)."""
    rng = np.random.default_rng(seed)
    return lambda state, player: state.resample_from_infostate(player, rng)


__all__ = [
    "HerozooGame",
    "HerozooObserver",
    "HerozooState",
    "env_id_of",
    "game_type",
    "herozoo_options",
    "load_game",
    "parameter_specification",
    "register",
    "register_all",
    "seeded_resampler",
    "short_name",
    "utility_range",
]
