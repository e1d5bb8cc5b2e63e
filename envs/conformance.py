"""The conformance kit: checks every herozoo game passes, written once (like ``pettingzoo.test``).

Each ``check_*`` function takes a Game class and a player count (plus a few bounds), plays games
with a seeded generator and raises ``AssertionError`` saying what broke, at which seed and step.
``tests/test_conformance.py`` runs them all over every registered env id and every player count,
so a new game registers and gets all of it:

- :func:`check_pettingzoo_api`: PettingZoo's ``api_test`` and ``seed_test`` pass on the AEC env;
- :func:`check_random_games`: while a game runs, a non-empty mask, no outcome and ``current_player``
  in range; it ends within ``max_game_length()`` decisions; then an outcome whose winners are
  seats (cooperative: all or none), ``win_loss`` returns of +1 / -1 that follow it, every seat's
  rewards summing to its return (without shaping), a JSON-able ``info()``; a cooperative team's
  rewards are equal at every step;
- :func:`check_round_trips`: at random points, ``clone()`` and ``state_from_json(to_json())`` give
  the same masks, every seat's observation, and the same later play (masks, observations,
  rewards, outcome);
- :func:`check_hidden_information`: at random points, ``resample_hidden(seat, rng)`` leaves the
  seat's observation and mask unchanged, and the heuristic bot makes the same choice for it; and
  unless the game declares ``perfect_information``, some resample does deal something anew;
- :func:`check_heuristic_reuse`: one heuristic bot playing several whole games in a row (as an
  evaluation, a training partner or a ladder rung does), every seat at once, makes each game's
  choices exactly as a fresh bot does: nothing it remembers leaks from one game into the next;
- :func:`check_bad_options`: an unknown option and a player count out of range raise a
  ValueError that names what is allowed;
- :func:`check_illegal_actions`: the env raises ``IllegalActionError`` naming the legal actions;
  ``illegal_action="penalize"`` ends the game with -1 for the offender (cooperative: every seat);
  bool, float, str and other non-integers are refused as actions, never coerced;
- :func:`check_library_conventions`: what other libraries rely on. The lean infos have the same
  keys, shapes and dtypes at every step and name the outcome at the end; ``state()`` is PettingZoo's
  global state (PettingZoo's own state checks pass); an unseeded ``reset()`` continues the generator
  of the last seeded one; after the end, ``step`` and ``last`` raise a clear RuntimeError and an
  unknown seat or agent is a ValueError.

- :func:`check_observation_memo`: the observation through the memo equals the plain encoder's
  (``ObservationLayout.encode_plain``) for every seat at every step, in a random order of seats;
  each block reads only the fields it declares (attributes read through a recording proxy) and the
  layout's constants, which stay the same objects all game; a ``shared`` block is the same for
  every observer; a block declared ``dense`` writes every float; every value lies in the layout's
  bounds;
- :func:`check_state_mutations`: JSON states of random games, damaged (:func:`mutate`: drop, retype,
  negate, enlarge, duplicate, shorten, swap in another game's state), are refused by
  ``state_from_json`` with a ValueError at once, or load as states that keep the running invariants
  and play to the end; never another exception, never a later failure.
  :func:`check_state_mutations_isolated` runs it in a child process, so a crash fails the check.

Every game with an ``engine`` option is checked on each of its engines (:func:`engine_options`).

Bounds: every check plays a handful of games (``games``); the per-step comparisons of the round
trips run from a few random points of each. The slow test suite runs the same checks on more games.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from envs.core.aec import TurnBasedEnv
from envs.core.game import Game, IllegalActionError, State
from envs.core.observation import ObservationLayout


def _random_action(state: State, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(state.legal_mask())))


def _where(game: Game, seed: int, step: int) -> str:
    return f"{game.env_id}, {game.num_players} players, seed {seed}, decision {step}"


# -- the AEC face ----------------------------------------------------------------------------------
def check_pettingzoo_api(game_cls: type[Game], num_players: int, num_cycles: int = 200, **options: Any) -> None:
    """PettingZoo's own ``api_test`` and ``seed_test`` on the env at ``num_players`` (with ``options``,
    e.g. a rules engine)."""
    from pettingzoo.test import api_test, seed_test

    api_test(TurnBasedEnv(game_cls, num_players=num_players, **options), num_cycles=num_cycles)
    seed_test(lambda: TurnBasedEnv(game_cls, num_players=num_players, **options), num_cycles=num_cycles)


def check_illegal_actions(game_cls: type[Game], num_players: int, seed: int = 0) -> None:
    env = TurnBasedEnv(game_cls, num_players=num_players)
    env.reset(seed=seed)
    mask = env.action_mask()
    illegal = np.flatnonzero(mask == 0)
    for bad in ([int(illegal[0])] if len(illegal) else []) + [game_cls.action_layout.num_actions, -1]:
        try:
            env.step(bad)
        except IllegalActionError as e:
            assert "Legal actions" in str(e), f"{game_cls.env_id}: the error for action {bad} lists no legal action"
            assert tuple(e.legal) == tuple(np.flatnonzero(mask)), "the error's legal actions are not the mask's"
        else:
            raise AssertionError(f"{game_cls.env_id}: illegal action {bad} did not raise IllegalActionError")
    for bad in (1.0, float(int(np.flatnonzero(mask)[0])), str(int(np.flatnonzero(mask)[0])), True, np.float32(0), None):
        if bad is None:
            continue  # None is the dead agents' action: a ValueError of its own
        try:
            env.step(bad)
        except IllegalActionError as e:
            assert "not a" in str(e), f"{game_cls.env_id}: the error for action {bad!r} does not say what an action is"
        else:
            raise AssertionError(f"{game_cls.env_id}: the non-integer action {bad!r} was accepted")
    if len(illegal):
        env = TurnBasedEnv(game_cls, num_players=num_players, illegal_action="penalize")
        env.reset(seed=seed)
        offender = env.agent_selection
        env.step(int(illegal[0]))
        assert all(env.terminations.values()), "penalize did not end the game"
        others = 0.0 if not game_cls.cooperative else -1.0  # a cooperative team loses together
        assert env.rewards[offender] == -1.0 and all(r == others for a, r in env.rewards.items() if a != offender)


def check_library_conventions(game_cls: type[Game], num_players: int, games: int = 2, seed: int = 0) -> None:
    """Lean infos, ``state()``, Gymnasium seeding and the end of the game (see the module doc)."""
    from pettingzoo.test.state_test import test_state, test_state_space

    name = f"{game_cls.env_id} at {num_players} players"
    env = TurnBasedEnv(game_cls, num_players=num_players)
    keys = {"winners", "end_reason"}
    rng = np.random.default_rng(seed)
    for g in range(games):
        env.reset(seed=seed + g)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            for a, i in env.infos.items():
                assert set(i) == keys, f"{name}, step {steps}: infos[{a}] has keys {sorted(i)}, not {sorted(keys)}"
                w = i["winners"]
                assert isinstance(w, np.ndarray) and w.dtype == np.int8 and w.shape == (num_players,), (
                    f"{name}, step {steps}: winners must be int8[{num_players}], got {w!r}"
                )
                assert isinstance(i["end_reason"], int), f"{name}, step {steps}: end_reason is not an int"
            over = term or trunc
            assert (info["end_reason"] != 0) == over, f"{name}, step {steps}: end_reason {info['end_reason']} vs done"
            if over:
                outcome = env.game_state.outcome()
                assert env.end_reasons[info["end_reason"]] == outcome.reason, f"{name}: end_reason names another end"
                assert np.flatnonzero(info["winners"]).tolist() == list(outcome.winners), f"{name}: winners"
            state = env.state()
            want = np.concatenate([env.game_state.observe(s) for s in range(num_players)])
            assert state.dtype == np.float32 and np.array_equal(state, want), f"{name}: state() is not every view"
            assert env.state_space.contains(state), f"{name}, step {steps}: state() is outside state_space"
            env.step(None if over else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    for probe in ("step", "last"):
        try:
            env.step(None) if probe == "step" else env.last()
        except RuntimeError as e:
            assert "reset" in str(e), f"{name}: {probe}() after the end does not say to reset: {e}"
        else:
            raise AssertionError(f"{name}: {probe}() after every agent stepped out did not raise")
    for bad_seat in (-1, num_players, True, 0.0):
        try:
            env.game_state.observe(bad_seat)
        except ValueError:
            pass
        else:
            raise AssertionError(f"{name}: observe({bad_seat!r}) gave a view; it must be a ValueError")
    try:
        env.observe("player_99")
    except ValueError:
        pass
    else:
        raise AssertionError(f"{name}: observe('player_99') gave a view")

    def first_views(env: TurnBasedEnv, resets: int) -> list[np.ndarray]:
        views = []
        for r in range(resets):
            env.reset(seed=seed) if r == 0 else env.reset()
            views.append(env.global_state())
        return views

    a = first_views(TurnBasedEnv(game_cls, num_players=num_players), 3)
    b = first_views(TurnBasedEnv(game_cls, num_players=num_players), 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b)), f"{name}: reset() after reset(seed) is not reproducible"
    penalizing = TurnBasedEnv(game_cls, num_players=num_players, illegal_action="penalize")
    test_state_space(penalizing)
    test_state(penalizing, num_cycles=10)  # PettingZoo's state checks (samples actions from the whole space)


def check_bad_options(game_cls: type[Game]) -> None:
    for bad, must_name in (
        ({"no_such_option": 1}, "allowed options"),
        ({"num_players": game_cls.max_players + 1}, "num_players"),
        ({"num_players": game_cls.min_players - 1}, "num_players"),
    ):
        try:
            TurnBasedEnv(game_cls, **bad)
        except ValueError as e:
            assert must_name in str(e), f"{game_cls.env_id}: the error for {bad} does not say {must_name!r}: {e}"
        else:
            raise AssertionError(f"{game_cls.env_id}: options {bad} were accepted")


# -- the rules State -------------------------------------------------------------------------------
def check_outcome(state: State, where: str) -> None:
    """A finished state's outcome, returns and info agree with each other."""
    game = state.game
    n = game.num_players
    outcome = state.outcome()
    assert outcome is not None, f"{where}: the game is over but outcome() is None"
    assert all(0 <= w < n for w in outcome.winners), f"{where}: winners {outcome.winners} are not seats"
    assert outcome.reason, f"{where}: the outcome gives no reason"
    assert outcome.truncated == (state.is_truncated() and not state.is_terminal()), f"{where}: truncated flag"
    if game.cooperative:
        assert outcome.winners in ((), tuple(range(n))), f"{where}: a team wins or loses as one: {outcome.winners}"
    returns = state.returns()
    assert len(returns) == n, f"{where}: returns() has {len(returns)} entries for {n} seats"
    if game.options.get("reward_scheme") == "win_loss" and not outcome.truncated:
        want = [1.0 if i in outcome.winners else -1.0 for i in range(n)]
        assert list(returns) == want, f"{where}: win_loss returns {returns} do not follow winners {outcome.winners}"
    if game.cooperative:
        assert len(set(returns)) == 1, f"{where}: a cooperative team's returns differ: {returns}"
    json.dumps(state.info())  # the driver hands it to every agent: plain data only


def play_random_game(game: Game, seed: int, check: bool = True) -> State:
    """A random legal game from ``seed``, checking the running invariants at every decision."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    n = game.num_players
    totals = [0.0] * n
    limit = game.max_game_length()
    steps = 0
    weight = type(game).shaping_weight(game.options)
    start = np.asarray(state.shaping_potentials(), float) if weight else 0.0
    while not state.is_over():
        where = _where(game, seed, steps)
        mask = state.legal_mask()
        if check:
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,), f"{where}: mask dtype/shape"
            assert mask.any(), f"{where}: empty mask while the game runs"
            assert state.num_legal() == int(mask.sum()), f"{where}: num_legal() disagrees with the mask"
            wrong = [a for a in range(game.num_actions) if state.is_legal(a) != bool(mask[a])]
            assert not wrong, f"{where}: is_legal() disagrees with the mask at {wrong[:10]}"
            assert 0 <= state.current_player < n, f"{where}: current_player {state.current_player}"
            assert state.outcome() is None, f"{where}: an outcome before the end"
        state.apply(_random_action(state, rng))
        rewards = state.rewards()
        if check and game.cooperative:
            assert len(set(rewards)) == 1, f"{where}: a cooperative team's rewards differ: {rewards}"
        for i in range(n):
            totals[i] += rewards[i]
        steps += 1
        assert steps <= limit, f"{game.env_id}, seed {seed}: more than max_game_length() = {limit} decisions"
        if check and weight and not state.is_over():  # the shaping so far is w * (Phi(s) - Phi(start))
            paid = weight * (np.asarray(state.shaping_potentials(), float) - start)
            assert np.allclose(totals, paid), f"{where}: shaped rewards {totals} but w * (Phi(s) - Phi(start)) = {paid}"
    if check:
        where = _where(game, seed, steps)
        assert not state.legal_mask().any(), f"{where}: legal actions after the end"
        assert not any(state.is_legal(a) for a in range(game.num_actions)), f"{where}: is_legal() after the end"
        check_outcome(state, where)
        # the rewards sum to the result plus what the shaping paid (Game.shaping_weight)
        want = np.asarray(state.returns(), float)
        if weight:
            end = np.asarray(state.shaping_potentials(), float)
            bound = type(game).shaping_bound(game.options)
            assert (abs(end) <= bound + 1e-9).all(), f"{where}: Phi(end) = {end.tolist()} is past shaping_bound {bound}"
            want = want + weight * (end - start)
        assert np.allclose(totals, want), f"{where}: rewards sum to {totals}, want {want.tolist()}"
    return state


def engine_options(game_cls: type[Game]) -> list[dict[str, Any]]:
    """One options dict per rules engine of the game (``[{}]`` for a game with one engine)."""
    for option in game_cls.option_spec:
        if option.name == "engine" and option.choices:
            return [{"engine": e} for e in option.choices]
    return [{}]


def check_random_games(game_cls: type[Game], num_players: int, games: int = 5, seed: int = 0, **options: Any) -> None:
    game = game_cls(num_players=num_players, **options)
    for g in range(games):
        play_random_game(game, seed + g)


def _same_view(a: State, b: State, where: str) -> None:
    assert a.current_player == b.current_player, f"{where}: current_player {a.current_player} != {b.current_player}"
    assert np.array_equal(a.legal_mask(), b.legal_mask()), f"{where}: masks differ"
    assert a.is_over() == b.is_over(), f"{where}: one copy is over, the other not"
    for seat in range(a.game.num_players):
        assert np.array_equal(a.observe(seat), b.observe(seat)), f"{where}: seat {seat}'s observations differ"


def _play_on(a: State, b: State, rng: np.random.Generator, where: str) -> None:
    """The same actions on both copies give the same game to the end."""
    step = 0
    while not a.is_over():
        action = _random_action(a, rng)
        a.apply(action)
        b.apply(action)
        step += 1
        w = f"{where}, {step} decisions after the copy"
        assert list(a.rewards()) == list(b.rewards()), f"{w}: rewards differ"
        _same_view(a, b, w)
    assert a.outcome() == b.outcome(), f"{where}: outcomes differ: {a.outcome()} != {b.outcome()}"
    assert list(a.returns()) == list(b.returns()), f"{where}: returns differ"


def check_round_trips(
    game_cls: type[Game], num_players: int, games: int = 3, points: int = 2, seed: int = 0, **options: Any
) -> None:
    """Clones and JSON copies taken at random points play on exactly like the original."""
    game = game_cls(num_players=num_players, **options)
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        for at, state in _states_at_random_points(game, seed + g, points, rng):
            where = _where(game, seed + g, at)
            text = json.dumps(state.to_json())  # plain JSON, not just a dict of objects
            from_json = game.state_from_json(json.loads(text))
            clone = state.clone()
            _same_view(state, from_json, f"{where} (JSON copy)")
            _same_view(state, clone, f"{where} (clone)")
            follow = int(rng.integers(2**31))
            original = state.clone()
            _play_on(original, from_json, np.random.default_rng(follow), f"{where} (JSON copy)")
            _play_on(state, clone, np.random.default_rng(follow), f"{where} (clone)")


def _states_at_random_points(game: Game, seed: int, points: int, rng: np.random.Generator):
    """``(decision, state)`` at ``points`` random decisions of the random game of ``seed``, in order."""
    length = max(_game_length(game, seed), 1)
    for at in sorted(rng.choice(length, size=min(points, length), replace=False)):
        state = game.new_state(seed)
        walk = np.random.default_rng(seed)
        for _ in range(int(at)):
            state.apply(_random_action(state, walk))
        yield int(at), state


def _game_length(game: Game, seed: int) -> int:
    state = game.new_state(seed)
    walk = np.random.default_rng(seed)
    steps = 0
    while not state.is_over():
        state.apply(_random_action(state, walk))
        steps += 1
    return steps


def check_hidden_information(
    game_cls: type[Game],
    num_players: int,
    heuristic: Any = None,
    games: int = 3,
    points: int = 6,
    seed: int = 0,
    **options: Any,
) -> None:
    """What a seat cannot see does not reach its observation, its mask or the heuristic's choice.

    ``heuristic``: a factory ``heuristic(seed) -> bot`` with ``act_state(state)`` (None: skip that part).
    """
    game = game_cls(num_players=num_players, **options)
    redealt = 0  # resamples that changed something besides the future
    for g in range(games):
        rng = np.random.default_rng(seed + 1000 + g)
        state = game.new_state(seed + g)
        walk = np.random.default_rng(seed + g)
        length = _game_length(game, seed + g)
        stops = set(rng.choice(max(length, 1), size=min(points, max(length, 1)), replace=False).tolist())
        step = 0
        while not state.is_over():
            if step in stops:
                seat = state.current_player
                where = _where(game, seed + g, step)
                other = state.resample_hidden(seat, rng)
                assert other is not state, f"{where}: resample_hidden must return a new state"
                assert np.array_equal(other.observe(seat), state.observe(seat)), (
                    f"{where}: seat {seat}'s observation changed when what it cannot see was dealt anew"
                )
                assert np.array_equal(other.legal_mask(), state.legal_mask()), f"{where}: the mask changed"
                redealt += _without_chance(other.to_json()) != _without_chance(state.to_json())
                if heuristic is not None:
                    bot_seed = int(rng.integers(2**31))
                    a, b = heuristic(bot_seed).act_state(state), heuristic(bot_seed).act_state(other)
                    assert a == b, f"{where}: the heuristic chose {a} but {b} after a redeal of hidden information"
            state.apply(_random_action(state, walk))
            step += 1
    if not game_cls.perfect_information and games * points >= 4:
        assert redealt, (
            f"{game.env_id}, {num_players} players: resample_hidden never dealt anything anew; a game with hidden "
            "information must redeal it (a game without any sets Game.perfect_information = True)"
        )


def check_heuristic_reuse(
    game_cls: type[Game], num_players: int, heuristic: Any, games: int = 3, seed: int = 0, **options: Any
) -> None:
    """One bot reused over ``games`` games plays each as a fresh bot would.

    ``heuristic``: a factory ``heuristic(seed) -> bot`` with ``act_state(state)``, called with None: an
    unseeded bot is deterministic, so a seeded one's random stream cannot differ between the two.
    Both bots play every seat of the same deal; the fresh one is made anew for each game."""
    game = game_cls(num_players=num_players, **options)
    reused = heuristic(None)
    for g in range(games):
        fresh = heuristic(None)
        state = game.new_state(seed + g)
        step = 0
        while not state.is_over():
            a, b = fresh.act_state(state), reused.act_state(state)
            assert a == b, (
                f"{_where(game, seed + g, step)}: a fresh heuristic bot chose {a}, the same bot after {g} earlier "
                f"game(s) chose {b}: something it remembers carries over from one game to the next"
            )
            state.apply(a)
            step += 1


# -- damaged JSON states ---------------------------------------------------------------------------
MUTATIONS = ("drop", "retype", "negate", "enlarge", "duplicate", "shorten", "swap")


def _paths(node: Any, at: tuple = ()) -> list[tuple]:
    """Every path into a JSON tree (keys and indices), the root excluded."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        out.append((*at, key))
        out += _paths(child, (*at, key))
    return out


def _retyped(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"x": value[:1]}
    if isinstance(value, dict):
        return list(value.values())[:1]
    return []


def mutate(data: dict[str, Any], rng: np.random.Generator, others: list[dict[str, Any]]) -> tuple[str, Any]:
    """One damaged copy of a JSON state: what was done (a JSON path and the operation), and the copy.

    Operations (:data:`MUTATIONS`): drop a key or an entry, give a value another JSON type, negate a
    number, enlarge a number (by 10**6) or a list (a copy of its last entry), duplicate an entry of a
    list over another, shorten a list, or swap in the whole state of another game (``others``)."""
    op = MUTATIONS[int(rng.integers(len(MUTATIONS)))]
    if op == "swap" and others:
        return "swap: the state of another game", json.loads(json.dumps(others[int(rng.integers(len(others)))]))
    copy = json.loads(json.dumps(data))
    paths = _paths(copy)
    fits = {
        "drop": lambda v: True,
        "retype": lambda v: True,
        "negate": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "enlarge": lambda v: (isinstance(v, (int, float)) and not isinstance(v, bool)) or (isinstance(v, list) and v),
        "duplicate": lambda v: isinstance(v, list) and len(v) >= 2,
        "shorten": lambda v: isinstance(v, list) and v,
        "swap": lambda v: True,
    }

    def get(path):
        node = copy
        for key in path:
            node = node[key]
        return node

    candidates = [path for path in paths if fits[op](get(path))]
    if not candidates or op == "swap":
        op, candidates = "retype", paths
    path = candidates[int(rng.integers(len(candidates)))]
    parent, key, value = get(path[:-1]), path[-1], get(path)
    where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
    if op == "drop":
        del parent[key]
    elif op == "retype":
        parent[key] = _retyped(value)
    elif op == "negate":
        parent[key] = -abs(value) - 1
    elif op == "enlarge" and isinstance(value, list):
        value.append(json.loads(json.dumps(value[-1])))
    elif op == "enlarge":
        parent[key] = value + 10**6
    elif op == "duplicate":
        i, j = rng.choice(len(value), size=2, replace=False)
        value[int(i)] = json.loads(json.dumps(value[int(j)]))
    else:  # shorten
        value.pop()
    return f"{op} {where}", copy


def _load_and_play(game: Game, data: Any, rng: np.random.Generator, what: str) -> bool:
    """``state_from_json`` of damaged data: a ValueError at once (True), or a state that keeps the
    running invariants and plays to its end (False). Anything else fails, naming the mutation."""
    try:
        state = game.state_from_json(data)
    except ValueError:
        return True
    except Exception as e:  # noqa: BLE001 - any other type is the failure this check exists for
        raise AssertionError(
            f"{game.env_id}, {game.num_players} players: state_from_json after '{what}' raised {type(e).__name__}: "
            f"{e} (a damaged state must be a ValueError naming the field)"
        ) from e
    where = f"{game.env_id}, {game.num_players} players, a state loaded after '{what}'"
    try:
        json.dumps(state.to_json())
        state.clone()
        n = game.num_players
        steps, limit = 0, game.max_game_length()
        while not state.is_over():
            mask = state.legal_mask()
            assert mask.shape == (game.num_actions,) and mask.any(), f"{where}: an empty mask while the game runs"
            assert 0 <= state.current_player < n, f"{where}: current_player {state.current_player}"
            for seat in range(n):
                obs = state.observe(seat)
                assert obs.shape == (game.observation_size,), f"{where}: observation of shape {obs.shape}"
                assert np.isfinite(obs).all(), f"{where}: a non-finite observation"
            state.apply(_random_action(state, rng))
            steps += 1
            assert steps <= limit, f"{where}: more than max_game_length() = {limit} decisions"
        check_outcome(state, where)
    except AssertionError:
        raise
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{where}: loaded, then failed in play with {type(e).__name__}: {e}") from e
    return False


def check_state_mutations(
    game_cls: type[Game],
    num_players: int,
    games: int = 2,
    points: int = 2,
    mutations: int = 40,
    seed: int = 0,
    progress: Any = None,
    **options: Any,
) -> dict[str, int]:
    """Damaged JSON states (:func:`mutate`) taken from random games are refused with a ValueError at
    once, or load as states that play to the end without error. Returns the counts of each.

    ``progress``: a callable given each mutation before it is tried (the isolated runner,
    :func:`check_state_mutations_isolated`, writes it down so a crash can name it)."""
    game = game_cls(num_players=num_players, **options)
    others = []  # another game's state, and this game's at another table size
    for other in _other_games(game_cls):
        try:
            others.append(other().new_state(seed).to_json())
        except Exception:  # noqa: BLE001 - a game that cannot be built at its defaults adds no swap
            continue
    sizes = [k for k in range(game_cls.min_players, game_cls.max_players + 1) if k != num_players]
    if sizes:
        others.append(game_cls(**{**options, "num_players": sizes[0]}).new_state(seed).to_json())
    counts = {"refused": 0, "played": 0}
    for g in range(games):
        rng = np.random.default_rng(seed + 7 * g)
        for at, state in _states_at_random_points(game, seed + g, points, rng):
            data = state.to_json()
            for _ in range(mutations):
                what, damaged = mutate(data, rng, others)
                what = f"seed {seed + g}, decision {at}: {what}"
                if progress is not None:
                    progress(what)
                refused = _load_and_play(game, damaged, np.random.default_rng(int(rng.integers(2**31))), what)
                counts["refused" if refused else "played"] += 1
    return counts


def _other_games(game_cls: type[Game]) -> list[type[Game]]:
    import envs

    return [envs.game_class(e) for e in envs.ENV_IDS if envs.game_class(e) is not game_cls]


def check_state_mutations_isolated(
    game_cls: type[Game], num_players: int, timeout: float = 600, **kwargs: Any
) -> dict[str, int]:
    """:func:`check_state_mutations` in a child process, so that a mutation that kills the
    interpreter (a native engine reading out of bounds) fails the check, naming the mutation,
    instead of ending the test run."""
    import os
    import subprocess
    import sys
    import tempfile

    import envs

    spec = {
        "game": f"{game_cls.__module__}:{game_cls.__qualname__}",
        "num_players": num_players,
        "kwargs": kwargs,
        "registry": envs.registry(),
    }
    with tempfile.TemporaryDirectory() as folder:
        trail = os.path.join(folder, "trail")
        spec["trail"] = trail
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, envs.conformance as k; k._isolated_main(sys.argv[1])",
                json.dumps(spec),
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        last = open(trail).read().strip().splitlines()[-1:] if os.path.exists(trail) else []
    if child.returncode != 0:
        tail = child.stderr.strip().splitlines()[-1:] or [""]
        killed = f"was killed by signal {-child.returncode}" if child.returncode < 0 else "failed"
        raise AssertionError(
            f"{game_cls.env_id}, {num_players} players: the mutation check {killed}"
            + (f" while trying '{last[0]}'" if last else "")
            + f": {tail[0]}"
        )
    return json.loads(child.stdout.strip().splitlines()[-1])


def _isolated_main(arg: str) -> None:
    import importlib

    import envs

    spec = json.loads(arg)
    for env_id, module in spec["registry"].items():
        envs.register(env_id, module)
    module, _, name = spec["game"].partition(":")
    game_cls = importlib.import_module(module)
    for part in name.split("."):
        game_cls = getattr(game_cls, part)
    with open(spec["trail"], "a", buffering=1) as trail:
        counts = check_state_mutations(
            game_cls, spec["num_players"], progress=lambda what: trail.write(what + "\n"), **spec["kwargs"]
        )
    print(json.dumps(counts))


def _without_chance(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("chance", "rng")}


__all__ = [
    "check_bad_options",
    "check_hidden_information",
    "check_illegal_actions",
    "check_outcome",
    "check_pettingzoo_api",
    "check_random_games",
    "check_round_trips",
    "check_state_mutations",
    "check_state_mutations_isolated",
    "engine_options",
    "mutate",
    "play_random_game",
]


# -- the observation memo -------------------------------------------------------------------------
class _ReadRecorder:
    """Stands in for a state and records the names of the non-method attributes read from it."""

    def __init__(self, state: State):
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_reads", set())

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._state, name)
        if not callable(value):
            self._reads.add(name)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AssertionError(f"an observation block set the state's attribute {name!r}")


def _check_block_reads(layout: ObservationLayout, state: State, seat: int, where: str) -> None:
    plain = layout.encode_plain(state, seat)
    allowed_constants = set(layout.constants)
    for b in layout.blocks:
        proxy = _ReadRecorder(state)
        out = np.zeros(b.shape, np.float32)
        b.encode(proxy, seat, out)
        undeclared = proxy._reads - set(b.reads) - allowed_constants
        assert not undeclared, (
            f"{where}: block {b.name!r} reads {sorted(undeclared)} but declares reads={b.reads!r}"
            f" (constants {layout.constants!r}); the memo would miss their changes"
        )
        assert np.array_equal(out.reshape(-1), plain[b.offset : b.stop]), (
            f"{where}: block {b.name!r} gives other values through a proxy of the state: it reads more than its fields"
        )


def _absolute(layout: ObservationLayout, block, state: State, seat: int) -> np.ndarray:
    """A shared block as ``seat`` would have it written for everyone: a framed block in the absolute
    frame (before its frame's gather), any other as that seat sees it."""
    if block.frame is None:
        return layout.encode_plain(state, seat)[block.offset : block.stop]
    out = np.zeros(block.shape, np.float32)
    block.absolute(state, seat, out)
    return out.reshape(-1)


def _check_dense(layout: ObservationLayout, state: State, seat: int, where: str) -> None:
    """A block declared ``dense`` (the memo does not zero it before its encoder) writes every float:
    its encoder leaves no NaN of a buffer filled with them."""
    for b in layout.blocks:
        if b.dense:
            out = np.full(b.shape, np.nan, np.float32)
            (b.absolute if b.shared else b.encode)(state, seat, out)
            assert not np.isnan(out).any(), (
                f"{where}: block {b.name!r} is declared dense but its encoder leaves "
                f"{int(np.isnan(out).sum())} of {b.size} floats unwritten (declare it without dense=True)"
            )


def _within(values: np.ndarray, layout: ObservationLayout) -> bool:
    return bool(np.all((values >= layout.low) & (values <= layout.high)))


def check_observation_memo(
    game_cls: type[Game], num_players: int, games: int = 2, seed: int = 0, **options: Any
) -> None:
    """The memo changes nothing: see the module docstring. A state with its own ``observe`` (a
    compiled engine) is checked against its readable twin by that engine's own tests."""
    game = game_cls(num_players=num_players, **options)
    layout = game.observation_layout
    assert layout.encodable, (
        f"{game_cls.__name__}: every observation block needs an encoder (Block(..., encode=..., reads=...))"
    )
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_state(seed + g)
        if type(state).observe is not State.observe:
            return
        constants = {c: getattr(state, c) for c in layout.constants}
        step = 0
        while True:
            where = _where(game, seed + g, step)
            seats = rng.permutation(num_players)
            for seat in seats:
                seat = int(seat)
                plain = layout.encode_plain(state, seat)
                memo = state.observe(seat)
                bad = [
                    b.name
                    for b in layout.blocks
                    if not np.array_equal(memo[b.offset : b.stop], plain[b.offset : b.stop])
                ]
                assert not bad, (
                    f"{where}: seat {seat}'s observation through the memo differs from the plain one in {bad}"
                )
                assert plain.dtype == np.float32 and plain.shape == (layout.size,), f"{where}: shape or dtype"
                out = [b.name for b in layout.blocks if not _within(plain[b.offset : b.stop], layout)]
                assert not out, f"{where}: seat {seat}'s observation leaves [{layout.low}, {layout.high}] in {out}"
            for b in layout.blocks:
                if b.shared and num_players > 1:
                    first = _absolute(layout, b, state, 0)
                    for seat in range(1, num_players):
                        assert np.array_equal(first, _absolute(layout, b, state, seat)), (
                            f"{where}: shared block {b.name!r} differs between seats 0 and {seat}"
                            + (" in the absolute frame" if b.frame is not None else "")
                        )
            if step % 7 == 0:
                _check_block_reads(layout, state, int(seats[0]), where)
                _check_dense(layout, state, int(seats[0]), where)
            for c, value in constants.items():
                assert getattr(state, c) is value, f"{where}: the layout's constant {c!r} changed during the game"
            if state.is_over():
                break
            state.apply(_random_action(state, rng))
            step += 1
