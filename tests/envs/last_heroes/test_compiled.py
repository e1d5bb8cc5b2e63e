"""The compiled engine (envs/last_heroes/compiled.py) plays exactly the reference rules.

Same seeds and actions on both engines give the same legal masks, every seat's observation
(bit for bit), rewards, scores, returns, infos and JSON at every step, over random and scripted
games at every table size and every option that changes the rules, the encoding or the rewards.
The section-9 invariants suite and the section-8 scenarios (test_scenarios.py) also run on it.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import envs
from envs.core.game import IllegalActionError
from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.compiled import CompiledState
from envs.last_heroes.content import DEFAULT_CONTENT
from envs.last_heroes.game import LastHeroesGame
from envs.last_heroes.state import LastHeroesState
from tests.envs.last_heroes import builders
from tests.envs.last_heroes.test_invariants import POLICIES, VARIANTS, Run, make_game
from tests.helpers import play_random

# Options that change the rules, the encoding or the rewards, in combinations.
OPTION_SETS = (
    {},
    {"shaping_coef": 0.5, "shape_artefacts": True, "reward_scheme": "rank"},
    {"reward_scheme": "score_margin", "artefacts": False, "open_hands": True, "shaping_coef": 0.1},
    {"artefact_end": "end_of_round", "score_floor": 0, "first_player": 1},
    {"artefact_end": "end_of_turn", "reward_scheme": "rank", "shaping_coef": 2.0},
)


def _pair(n: int, options: dict):
    return LastHeroesGame(num_players=n, **options), LastHeroesGame(num_players=n, engine="compiled", **options)


def _json(state) -> dict:
    data = state.to_json()
    data["options"] = {k: v for k, v in data["options"].items() if k != "engine"}
    return data


def assert_same(ref: LastHeroesState, fast: CompiledState, where: str) -> None:
    n = ref.n
    mask = ref.legal_mask()
    assert np.array_equal(mask, fast.legal_mask()), f"{where}: legal masks differ"
    assert fast.num_legal() == int(mask.sum()), where
    for seat in range(n):
        a, b = ref.observe(seat), fast.observe(seat)
        assert b.dtype == np.float32 and b.shape == a.shape
        bad = np.flatnonzero(a != b)
        assert not len(bad), f"{where}: seat {seat} observation differs at {bad.tolist()}: {a[bad]} vs {b[bad]}"
    assert ref.current_player == fast.current_player, where
    assert ref.is_terminal() == fast.is_terminal(), where
    assert ref.rewards() == fast.rewards(), f"{where}: rewards {ref.rewards()} vs {fast.rewards()}"
    assert ref.scores() == fast.scores(), where
    assert ref.info() == fast.info(), where


def play_both(n: int, options: dict, seed: int, choose) -> tuple[LastHeroesState, CompiledState, list[int]]:
    """One game on both engines, compared after every step; ``choose(state, legal, rng)`` picks."""
    g_ref, g_fast = _pair(n, options)
    ref, fast = g_ref.new_state(seed), g_fast.new_state(seed)
    assert isinstance(fast, CompiledState)
    rng = random.Random(seed)
    played = []
    assert_same(ref, fast, f"seed {seed} start")
    while not ref.is_terminal():
        legal = np.flatnonzero(ref.legal_mask()).tolist()
        action = choose(ref, legal, rng)
        ref.apply(action)
        fast.apply(action)
        played.append(action)
        assert_same(ref, fast, f"n={n} {options} seed {seed} step {len(played)} action {action}")
    assert ref.returns() == fast.returns() and ref.winners() == fast.winners()
    assert _json(ref) == _json(fast)
    return ref, fast, played


def _uniform(state, legal, rng):
    return rng.choice(legal)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_match_the_reference_step_by_step(n, options):
    for seed in range(3):
        play_both(n, options, seed, _uniform)


def test_every_action_block_and_ending_is_exercised_and_matches():
    """Scripted players (the invariants suite's attacker and artefact hunter, and the heuristic bot)
    reach every power, both Level-1 choices and both game endings; all of it matches."""
    bot = envs.heuristic_bot("last_heroes_v0", seed=0)
    choosers = [POLICIES[1], POLICIES[2], lambda s, legal, rng: bot.act_state(s)]
    blocks, endings = set(), set()
    for i, (n, timing) in enumerate([(2, "immediate"), (3, "end_of_turn"), (4, "end_of_round"), (5, "immediate")]):
        for seed in range(12):
            ref, _, played = play_both(n, {"artefact_end": timing}, 700 + 50 * i + seed, choosers[seed % 3])
            blocks |= {LAYOUT.name_of(a) for a in played}
            endings.add(ref.end_case)
    names = {LAYOUT.name_of(a) for a in range(LAYOUT.num_actions)}
    assert blocks == names, f"never played: {names - blocks}"
    # Case A (every artefact held) with each timing: artefact hunters, seeds in order up to a cap.
    for timing in ("immediate", "end_of_turn", "end_of_round"):
        for seed in range(50_000, 50_200):
            if play_both(2, {"artefact_end": timing}, seed, POLICIES[2])[0].end_case == "A":
                endings.add(timing)
                break
    assert endings >= {"B", "immediate", "end_of_turn", "end_of_round"}, endings


@pytest.mark.parametrize("variant", ["default", "end_of_turn", "shaping_artefacts", "open_hands"])
@pytest.mark.parametrize("n", [2, 4, 5])
def test_section_9_invariants_hold_on_the_compiled_engine(n, variant):
    """The invariants suite's independent checks, on compiled states (a sample of its games)."""
    game = make_game(n, engine="compiled", **VARIANTS[variant])
    for seed in range(5000 + 10 * n, 5000 + 10 * n + 3):
        run = Run(game, seed, POLICIES[seed % 3]).play()
        assert isinstance(run.s, CompiledState) and run.s.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_section_9_invariants_hold_on_the_compiled_engine_slow(n, variant):
    game = make_game(n, engine="compiled", **VARIANTS[variant])
    for seed in range(200_000 + 1000 * n, 200_000 + 1000 * n + 100):
        assert Run(game, seed, POLICIES[seed % 3], deep_steps=3).play().s.is_terminal()


def test_clone_is_independent_and_replays_identically():
    game = LastHeroesGame(num_players=4, engine="compiled", shaping_coef=0.5)
    state = game.new_state(3)
    rng = np.random.default_rng(0)
    play_random(state, rng, steps=60)
    before = (state.to_json(), [state.observe(i) for i in range(4)], state.legal_mask().copy())
    copy = state.clone()
    replay = state.clone()
    actions = []
    while not copy.is_terminal():
        actions.append(int(rng.choice(np.flatnonzero(copy.legal_mask()))))
        copy.apply(actions[-1])
    assert state.to_json() == before[0] and np.array_equal(state.legal_mask(), before[2])
    assert all(np.array_equal(state.observe(i), before[1][i]) for i in range(4))
    for a in actions:
        replay.apply(a)
    assert replay.to_json() == copy.to_json() and replay.returns() == copy.returns()


def test_json_round_trip_keeps_the_engine_and_the_game():
    game = LastHeroesGame(num_players=3, engine="compiled")
    state = game.new_state(11)
    play_random(state, np.random.default_rng(1), steps=45)
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert isinstance(again, CompiledState)
    assert again.to_json() == state.to_json()
    assert all(np.array_equal(again.observe(i), state.observe(i)) for i in range(3))
    assert np.array_equal(again.legal_mask(), state.legal_mask())
    # and the same JSON on the reference engine is the same position
    ref = LastHeroesGame(num_players=3).state_from_json(data)
    assert all(np.array_equal(ref.observe(i), state.observe(i)) for i in range(3))


def test_illegal_actions_raise_with_the_legal_alternatives_and_change_nothing():
    state = LastHeroesGame(num_players=2, engine="compiled").new_state(0)
    illegal = int(np.flatnonzero(state.legal_mask() == 0)[0])
    snapshot = state.to_json()
    with pytest.raises(IllegalActionError, match=r"is illegal for seat \d+\. Legal actions: ") as err:
        state.apply(illegal)
    assert err.value.action == illegal and set(err.value.legal) == set(np.flatnonzero(state.legal_mask()).tolist())
    for bad in (-1, 132, 3.0, "END_TURN"):
        with pytest.raises(IllegalActionError, match="not an id in 0..131"):
            state.apply(bad)
    assert state.to_json() == snapshot
    while not state.is_terminal():
        state.apply(int(np.flatnonzero(state.legal_mask())[0]))
    assert not state.legal_mask().any() and state.num_legal() == 0
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(LAYOUT.encode("END_TURN"))


def test_reference_reads_follow_the_position_and_writes_are_not_the_state():
    state = LastHeroesGame(num_players=2, engine="compiled").new_state(5)
    ref = state.reference()
    assert isinstance(ref, LastHeroesState) and state.hands == ref.hands
    seat = state.current_player
    before = sum(state.hands[seat])
    state.apply(int(np.flatnonzero(state.legal_mask())[0]))  # a setup pick takes a hand card
    assert sum(state.hands[seat]) == before - 1
    assert state.reference() is not ref  # rebuilt after the apply
    obs = state.observe(seat)
    state.reference().hands[seat][:] = [0] * len(state.hands[seat])  # a snapshot, not the position
    assert np.array_equal(state.observe(seat), obs)
    with pytest.raises(AttributeError):
        state.no_such_attribute  # noqa: B018


def test_the_heuristic_bot_plays_the_same_game_on_both_engines():
    for n in (2, 4):
        games = []
        for engine in ("python", "compiled"):
            bots = [envs.heuristic_bot("last_heroes_v0", seed=i) for i in range(n)]
            state = LastHeroesGame(num_players=n, engine=engine).new_state(21)
            actions = []
            while not state.is_terminal():
                actions.append(bots[state.current_player].act_state(state))
                state.apply(actions[-1])
            games.append((actions, state.returns()))
        assert games[0] == games[1]


def test_scenario_positions_are_built_on_the_compiled_engine(monkeypatch):
    monkeypatch.setattr(builders, "ENGINE", "compiled")
    assert isinstance(builders.Position(n=3, phase="POST").state(), CompiledState)


def test_the_aec_env_on_the_compiled_engine_matches_the_python_one():
    # (PettingZoo's api_test and seed_test run on both engines in the kit: tests/test_conformance.py)
    traces = []
    for engine in ("python", "compiled"):
        env = envs.make("last_heroes_v0", num_players=3, engine=engine, shaping_coef=0.5)
        env.reset(seed=4)
        rng = random.Random(0)
        trace = []
        for agent in env.agent_iter(max_iter=5000):
            obs, reward, term, trunc, info = env.last()
            trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
            env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        traces.append(trace)
    assert traces[0] == traces[1]


def test_bad_engine_and_unsupported_content_give_clear_errors(tmp_path):
    with pytest.raises(ValueError, match=r"engine.*'fast'.*\"python\" or \"compiled\""):
        LastHeroesGame(num_players=2, engine="fast")
    import envs.last_heroes.compiled as compiled

    path = tmp_path / "content.json"
    path.write_text(json.dumps(DEFAULT_CONTENT))
    game = LastHeroesGame(num_players=2, content=str(path))
    compiled_max = compiled.MAX_MONSTERS
    try:
        compiled.MAX_MONSTERS = len(game.content.monsters) - 1
        with pytest.raises(ValueError, match="at most 35 monsters"):
            compiled.game_array(game)
    finally:
        compiled.MAX_MONSTERS = compiled_max
