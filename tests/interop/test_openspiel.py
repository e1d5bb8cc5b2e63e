"""envs.openspiel: every registered game loads as a pyspiel game, plays by OpenSpiel's own checks,
agrees with the herozoo State it wraps, and OpenSpiel's ISMCTS plays it without seeing hidden cards."""

from __future__ import annotations

import importlib.util
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import envs  # noqa: E402
from envs import openspiel as ho  # noqa: E402
from envs.core.game import IllegalActionError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLES = [
    (e, n) for e in envs.ENV_IDS for n in sorted({envs.game_class(e).min_players, envs.game_class(e).max_players})
]
#: ISMCTS simulations per decision in the fast whole-game test (Lost Legends runs longest)
FAST_SIMS = {"lost_legends_v0": 4}


def _without_chance(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("chance", "rng")}


@pytest.fixture(scope="module", autouse=True)
def _registered():
    ho.register_all()


# -- registration and the game's description --------------------------------------------------------
def test_every_env_id_is_registered_under_its_short_name():
    names = ho.register_all()
    assert names == [f"python_herozoo_{e}" for e in envs.ENV_IDS]
    assert set(names) <= set(pyspiel.registered_names())
    assert ho.register_all() == names  # registering again is harmless
    assert [ho.env_id_of(n) for n in names] == list(envs.ENV_IDS)
    with pytest.raises(ValueError, match="python_herozoo_"):
        ho.env_id_of("kuhn_poker")


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_game_type_follows_the_game_class(env_id):
    cls = envs.game_class(env_id)
    t = pyspiel.load_game(ho.short_name(env_id)).get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    info = pyspiel.GameType.Information
    assert t.information == (info.PERFECT_INFORMATION if cls.perfect_information else info.IMPERFECT_INFORMATION)
    utility = pyspiel.GameType.Utility
    assert t.utility == (utility.IDENTICAL if cls.cooperative else utility.GENERAL_SUM)
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (cls.min_players, cls.max_players)
    assert t.provides_observation_tensor and t.provides_observation_string
    assert not t.provides_information_state_tensor and not t.provides_information_state_string
    spec = t.parameter_specification
    assert spec["seed"] == -1 and "players" in spec and "num_players" not in spec
    assert "observation_mode" not in spec and "reward_scheme" in spec
    scalar = {o.name for o in cls.option_spec if isinstance(o.default, (bool, int, float, str))}
    assert set(spec) == (scalar - {"num_players", "observation_mode"}) | {"players", "seed"}


@pytest.mark.parametrize("env_id,n", TABLES)
def test_loads_by_name_and_parameters(env_id, n):
    game = pyspiel.load_game(f"python_herozoo_{env_id}(players={n},seed=3)")
    herozoo = game.herozoo
    assert type(herozoo) is envs.game_class(env_id) and herozoo.num_players == n == game.num_players()
    assert game.num_distinct_actions() == herozoo.num_actions
    assert game.max_game_length() == herozoo.max_game_length()
    assert game.observation_tensor_size() == herozoo.observation_size
    assert game.observation_tensor_shape() == [herozoo.observation_size]
    assert game.get_parameters()["players"] == n and game.get_parameters()["seed"] == 3


def test_options_pass_through_and_are_checked():
    lb = ho.load_game("last_bastion_v0", players=2, difficulty="heroic", reward_scheme="score_sheet")
    assert lb.herozoo.options["difficulty"] == "heroic" and lb.herozoo.options["reward_scheme"] == "score_sheet"
    assert (lb.min_utility(), lb.max_utility()) == (-math.inf, math.inf)  # a game's own scheme declares no bound
    hm = pyspiel.load_game("python_herozoo_heroes_and_monsters_v0(adversary=sylvaen,players=3)")
    assert hm.herozoo.options["adversary"] == "sylvaen" and hm.herozoo.num_players == 3
    lh = ho.load_game("last_heroes_v0", players=4, reward_scheme="rank", shaping_coef=1)
    assert lh.herozoo.options["shaping_coef"] == 1.0 and isinstance(lh.herozoo.options["shaping_coef"], float)
    assert (lh.min_utility(), lh.max_utility()) == (-1.0, 1.0)
    with pytest.raises(Exception, match="difficulty"):
        ho.load_game("last_bastion_v0", difficulty="impossible")
    with pytest.raises(Exception, match="num_players"):
        ho.load_game("last_heroes_v0", players=9)
    with pytest.raises(pyspiel.SpielError, match="shaping_coef"):  # a game string is typed strictly
        pyspiel.load_game("python_herozoo_last_heroes_v0(shaping_coef=1)")
    with pytest.raises(Exception, match="no_such_option"):
        pyspiel.load_game("python_herozoo_last_heroes_v0(no_such_option=1)")


# -- play agrees with the herozoo state -------------------------------------------------------------
@pytest.mark.parametrize("env_id,n", TABLES)
def test_random_game_agrees_with_the_herozoo_state(env_id, n):
    game = ho.load_game(env_id, players=n, seed=11)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    played = []
    while not state.is_terminal():
        hz = state.herozoo_state()
        seat = state.current_player()
        assert seat == hz.current_player and 0 <= seat < n
        legal = state.legal_actions()
        assert legal == np.flatnonzero(hz.legal_mask()).tolist() and legal
        assert state.legal_actions_mask() == hz.legal_mask().tolist()
        assert state.returns() == [0.0] * n  # terminal reward model: nothing before the end
        obs = state.observation_tensor(seat)
        assert len(obs) == game.herozoo.observation_size
        assert np.array_equal(np.asarray(obs, np.float32), hz.observe(seat))
        assert state.observation_string(seat) == hz.render(seat)
        action = int(rng.choice(legal))
        assert state.action_to_string(seat, action) == f"{hz.describe_action(action)} (#{action})"
        state.apply_action(action)
        played.append(action)
    hz = state.herozoo_state()
    assert hz.is_over() and state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    assert state.returns() == [float(r) for r in hz.returns()] and len(played) <= game.max_game_length()
    assert state.history() == played
    if game.herozoo.cooperative:
        assert len(set(state.returns())) == 1
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    assert str(state) == hz.render()


@pytest.mark.parametrize("env_id,n", TABLES)
def test_openspiel_random_sim_test(env_id, n):
    """OpenSpiel's own checks: clones, unique action strings, masks, returns sum and bounds, observables."""
    pyspiel.random_sim_test(ho.load_game(env_id, players=n, seed=2), num_sims=1, serialize=False, verbose=False)


def test_an_illegal_action_is_refused_and_not_recorded():
    state = ho.load_game("last_heroes_v0", players=2, seed=0).new_initial_state()
    bad = next(a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError, match="Legal actions"):
        state.apply_action(bad)
    assert state.history() == [] and state.legal_actions() == state.herozoo_state().legal_actions()


def test_compiled_last_heroes_engine():
    game = ho.load_game("last_heroes_v0", players=3, seed=1, engine="compiled")
    assert type(game.new_initial_state().herozoo_state()).__name__ == "CompiledState"
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_seeded_games_repeat_however_many_clones_and_tensors_come_between():
    def episodes(extra_calls: bool) -> list[str]:
        game = ho.load_game("lost_legends_v0", players=3, seed=5)
        out = []
        for _ in range(3):
            state = game.new_initial_state()
            if extra_calls:  # each makes blank states through new_initial_state() inside pyspiel
                state.observation_tensor(0)
                game.observation_tensor_size()
                state.clone()
            out.append(str(state))
            for _ in range(20):
                state.apply_action(state.legal_actions()[-1])
                if extra_calls:
                    state.clone().observation_tensor(1)
        return out

    plain = episodes(False)
    assert plain == episodes(True)
    assert len(set(plain)) == 3  # every episode is a new deal
    other = ho.load_game("lost_legends_v0", players=3, seed=6).new_initial_state()
    assert str(other) != plain[0]


def test_a_state_observed_before_play_becomes_the_deal_it_showed():
    game = ho.load_game("last_heroes_v0", players=2, seed=4)
    a, b = game.new_initial_state(), game.new_initial_state()
    seen_a, seen_b = a.observation_string(0), b.observation_string(0)
    assert seen_a != seen_b  # two states looked at side by side are two deals
    b.apply_action(b.legal_actions()[0])
    c = game.new_initial_state()
    c.apply_action(c.legal_actions()[0])
    assert a.observation_string(0) == seen_a and a.herozoo_state().render(0) == seen_a
    d = game.new_initial_state()
    seen_d = d.observation_string(1)
    del d  # only looked at: its deal goes back to the game, to the next state
    assert game.new_initial_state().observation_string(1) == seen_d


def test_clone_is_independent_and_keeps_history():
    game = ho.load_game("heroes_and_monsters_v0", players=2, seed=1)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.herozoo_state() is not state.herozoo_state()
    copy.apply_action(copy.legal_actions()[-1])
    assert len(copy.history()) == len(state.history()) + 1


def test_state_serialization_and_pickling_round_trip():
    game = ho.load_game("last_bastion_v0", players=2, seed=8, difficulty="difficult")
    state = game.new_initial_state()
    for _ in range(7):
        state.apply_action(state.legal_actions()[0])
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.observation_tensor(1) == state.observation_tensor(1)
        assert _without_chance(copy.herozoo_state().to_json()) == _without_chance(state.herozoo_state().to_json())
        a, b = state.clone(), copy
        while not a.is_terminal():  # the same future: the generator travels with the state
            action = a.legal_actions()[len(a.history()) % len(a.legal_actions())]
            a.apply_action(action)
            b.apply_action(action)
            assert str(a) == str(b)
        assert a.returns() == b.returns()
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.herozoo.options["difficulty"] == "difficult"
    # a documented limit: OpenSpiel serializes a sampled-stochastic game with its RNG state, which
    # a Python game cannot provide
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, state)


def test_no_information_state_is_offered():
    game = ho.load_game("last_heroes_v0", players=2)
    with pytest.raises(ValueError, match="perfect recall"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(Exception, match="perfect recall"):
        game.new_initial_state().information_state_string(0)


# -- resampling and ISMCTS ---------------------------------------------------------------------------
class CheckingResampler:
    """ISMCTS's resampler, checking every redeal: the seat's view and choices are untouched."""

    def __init__(self, seed: int):
        self.inner = ho.seeded_resampler(seed)
        self.calls = 0
        self.redealt = 0

    def __call__(self, state, player):
        new = self.inner(state, player)
        assert new is not state and new.current_player() == state.current_player() == player
        assert new.observation_tensor(player) == state.observation_tensor(player), "the seat's tensor changed"
        assert new.observation_string(player) == state.observation_string(player), "the seat's string changed"
        assert new.legal_actions() == state.legal_actions() and new.history() == state.history()
        self.calls += 1
        self.redealt += _without_chance(new.herozoo_state().to_json()) != _without_chance(
            state.herozoo_state().to_json()
        )
        return new


def _ismcts_game(env_id: str, n: int, sims: int, seed: int = 0):
    from open_spiel.python.algorithms import ismcts, mcts

    game = ho.load_game(env_id, players=n, seed=seed)
    resampler = CheckingResampler(seed)
    bots = []
    for seat in range(n):
        rng = np.random.RandomState(seed + seat)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            uct_c=2.0,
            max_simulations=sims,
            random_state=rng,
            use_observation_string=True,
        )
        bot.set_resampler(resampler)
        bots.append(bot)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
        assert moves <= game.max_game_length()
    return game, state, resampler


def _check_ismcts_game(env_id: str, n: int, sims: int) -> None:
    game, state, resampler = _ismcts_game(env_id, n, sims)
    hz = state.herozoo_state()
    assert hz.is_over() and hz.outcome() is not None
    assert state.returns() == [float(r) for r in hz.returns()]
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    if game.herozoo.options["reward_scheme"] == "win_loss" and not hz.outcome().truncated:
        assert state.returns() == [1.0 if i in hz.outcome().winners else -1.0 for i in range(n)]
    assert resampler.calls > 0
    if not game.herozoo.perfect_information:
        assert resampler.redealt > 0, "no resample dealt the hidden information anew"


@pytest.mark.parametrize(
    "env_id", [pytest.param(e, marks=pytest.mark.slow) if e == "lost_legends_v0" else e for e in envs.ENV_IDS]
)  # Lost Legends' games are the longest; the slow run plays every game at every table size
def test_ismcts_plays_whole_games(env_id):
    n = envs.game_class(env_id).min_players
    _check_ismcts_game(env_id, n, FAST_SIMS.get(env_id, 10))


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n", TABLES)
def test_ismcts_plays_whole_games_at_every_table_size(env_id, n):
    _check_ismcts_game(env_id, n, 10 if env_id == "lost_legends_v0" else 20)


def test_ismcts_default_sampler_and_seeded_resampling():
    game = ho.load_game("last_heroes_v0", players=3, seed=2)
    state = game.new_initial_state()
    seat = state.current_player()
    default = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))  # ISMCTS's call
    assert default.observation_string(seat) == state.observation_string(seat)

    def redeal(seed):
        g = ho.load_game("last_heroes_v0", players=3, seed=seed)
        s = g.new_initial_state()
        return [_without_chance(s.resample_from_infostate(seat, None).herozoo_state().to_json()) for _ in range(3)]

    first = redeal(2)
    assert first == redeal(2)  # without a sampler: the game's own generator, seeded by ``seed``
    assert first[0] != first[1]


# -- the example -------------------------------------------------------------------------------------
def _example():
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", ROOT / "examples" / "openspiel_ismcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_runs_and_repeats_from_its_seed(capsys):
    example = _example()
    argv = ["last_bastion_v0", "--players", "1", "--games", "2", "--simulations", "3", "--seed", "4"]
    summary = example.main(argv)
    assert len(summary["returns"]) == 2 and all(len(r) == 1 for r in summary["returns"])
    assert summary["seats"] == ["ismcts(3)"] and summary["searches"] > 0
    out = capsys.readouterr().out
    assert "game 2: returns" in out and "simulations per second" in out
    assert example.main(argv)["returns"] == summary["returns"]
    # the search works through the adapter: 10 simulations beat OpenSpiel's random bot
    argv = ["last_heroes_v0", "--games", "4", "--simulations", "10", "--random-seats", "1", "--seed", "3"]
    mixed = example.main(argv + ["--param", "reward_scheme=rank"])
    assert mixed["seats"] == ["ismcts(10)", "random"] and "reward_scheme=rank" in mixed["game"]
    assert mixed["mean"][0] > 0 > mixed["mean"][1]


def test_openspiel_ismcts_is_a_policy_spec_that_plays_in_evaluate():
    from training.evaluation.tournament import evaluate
    from training.runtime.openspiel_policy import parse_spec
    from training.runtime.policies import spec_error

    results = evaluate("last_heroes_v0", 2, ["openspiel:ismcts,sims=10", "random"], games=4, seed=5)
    ismcts_row, random_row = results["agents"]
    assert ismcts_row["games"] == 4 and ismcts_row["wins"] >= random_row["wins"]
    assert parse_spec("openspiel:ismcts,sims=7,c=1.5") == {"sims": 7, "c": 1.5, "seed": 0}
    assert "unknown key 'depth'" in spec_error("openspiel:ismcts,depth=3")
    assert "openspiel:ismcts[,sims=N]" in spec_error("openspiel:mcts")
