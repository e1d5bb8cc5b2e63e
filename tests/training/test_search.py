"""Information-set search (training.runtime.search): its spec, what it may read, that it finds what the
rules reward, and that it plays as a policy wherever a spec goes."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.conformance import play_random_game
from envs.core.game import play_forced
from tests.toys import LAYOUT, RelayGame
from training.evaluation.tournament import evaluate
from training.runtime.policies import load_policy, spec_error
from training.runtime.search import SearchConfig, SearchPolicy, outcome_values, parse_spec

SHIPPED_LH = "checkpoints/last_heroes/last_heroes.json"
ADD1, ADD2, KEEP, UNDO = LAYOUT.encode("ADD", 0), LAYOUT.encode("ADD", 1), LAYOUT.encode("KEEP"), LAYOUT.encode("UNDO")


# -- the spec ----------------------------------------------------------------------------------
def test_specs_parse_and_print_back():
    cfg = parse_spec(f"search:prior={SHIPPED_LH},seconds=0.5,c=2,seed=7")
    assert (cfg.prior, cfg.seconds, cfg.c, cfg.seed, cfg.leaf_kind) == (SHIPPED_LH, 0.5, 2.0, 7, "value")
    assert parse_spec(cfg.to_spec()) == cfg
    assert parse_spec("search:").leaf_kind == "random" and parse_spec("search:").sims == 200
    assert parse_spec("search:leaf=heuristic,sims=3") == SearchConfig(leaf="heuristic", sims=3)
    modelled = parse_spec("search:others=heuristic,sims=3")
    assert modelled.others == "heuristic" and parse_spec(modelled.to_spec()) == modelled


@pytest.mark.parametrize(
    "spec, says",
    [
        ("search:sims=0", "sims='0' is out of range"),
        ("search:sims=2.5", "sims='2.5' is not an integer"),
        ("search:seconds=inf", "seconds='inf' is out of range"),
        ("search:budget=3", "unknown key 'budget'; the keys are prior, leaf, sims"),
        ("search:sims=3,sims=4", "sims is given twice"),
        ("search:sims", "'sims' is not KEY=VALUE"),
        ("search:prior=nowhere.json", "prior='nowhere.json' is neither one of"),
        ("search:leaf=value", "leaf=value reads the prior checkpoint's value head"),
        ("search:noise=2", "noise='2' is out of range"),
        ("search:others=nowhere.json", "others='nowhere.json' is neither one of"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, says):
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_spec(spec)
    assert says.split("'")[0] in spec_error(spec)  # configs and seat specs check the same way


def test_load_policy_gives_a_search_that_brings_its_checkpoints_observation_options():
    policy = load_policy("search:prior=shipped,sims=2", "last_bastion_v0", seed=1)
    assert isinstance(policy, SearchPolicy)
    assert policy.metadata["env_options"]["obs_hints"] is True  # evaluate and play read it from here
    with pytest.raises(ValueError, match="needs the rules state"):
        policy.act(np.zeros(3), np.ones(3))


# -- what it may read --------------------------------------------------------------------------
class _Guarded:
    """A root state that offers only what a seat may use: its own turn, mask, and resampled worlds."""

    ALLOWED = {"current_player", "legal_mask", "is_over", "resample_hidden", "game"}

    def __init__(self, state):
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name):
        if name not in self.ALLOWED:
            raise AssertionError(f"the search read root.{name}: only resampled worlds may be played or observed")
        return getattr(object.__getattribute__(self, "_state"), name)


@pytest.mark.parametrize("env_id", ["last_heroes_v0", "lost_legends_v0", "heroes_and_monsters_v0", "last_bastion_v0"])
def test_the_search_plays_and_observes_only_resampled_worlds(env_id):
    game = envs.game_class(env_id)(num_players=3)
    state = game.new_state(5)
    bot = envs.heuristic_bot(env_id, seed=0)
    for _ in range(6):
        play_forced(state)
        state.apply(int(bot.act_state(state)))
    play_forced(state)
    policy = SearchPolicy(env_id, SearchConfig(leaf="random", sims=6), seed=0)
    result = policy.analyse(_Guarded(state))
    assert result.action in state.legal_actions()


# -- it finds what the rules reward ------------------------------------------------------------
def _relay_state(counter: int, n: int = 2, phase: int = 0, current: int = 0):
    state = RelayGame(num_players=n).new_state(0)
    state.counter, state.phase, state.current_player, state.active = counter, phase, current, current
    return state


def test_search_finds_the_only_winning_move_that_the_prior_does_not_know(relay):
    # counter 9 of 10: ADD(1) wins (a bonus is undone by the team), ADD(2) always overshoots
    policy = SearchPolicy(relay, SearchConfig(leaf="random", sims=60), seed=0)
    result = policy.analyse(_relay_state(9))
    assert result.action == ADD1
    assert result.q[ADD2] == -1.0 and result.q[ADD1] > 0
    assert result.visits[ADD1] > result.visits[ADD2]
    assert result.visits.sum() == result.simulations - 1  # the first simulation evaluates the root
    assert result.shares.sum() == pytest.approx(1.0)


def test_a_partner_who_is_not_the_active_seat_maximises_the_team(relay):
    # seat 1 decides KEEP or UNDO of seat 0's bonus at counter 11 of 10: only UNDO saves the team
    state = _relay_state(11, n=2, phase=1, current=1)
    state.active = 0
    policy = SearchPolicy(relay, SearchConfig(leaf="random", sims=40), seed=3)
    assert policy.act(None, state.legal_mask(), state) == UNDO


@pytest.mark.parametrize("others, value", [(None, 1.0), ("heuristic", 1.0), ("random", 0.5)])
def test_a_model_of_the_other_seats_plays_their_moves_inside_the_tree(relay, others, value):
    # counter 9 of 10: ADD(1) reaches the target, or a bonus die (1/2) lands one past it and the
    # partner must UNDO it. A searched partner or the heuristic always does: ADD(1) is a sure win
    # (1.0); a random partner keeps the bonus half the time: 1/2 + 1/4 - 1/4 = 0.5
    policy = SearchPolicy(relay, SearchConfig(leaf="random", sims=600, others=others), seed=2)
    result = policy.analyse(_relay_state(9))
    assert result.action == ADD1
    assert result.q[ADD1] == pytest.approx(value, abs=0.1)
    assert result.q[ADD2] == -1.0


def test_a_modelled_search_holds_only_the_deciding_seats_nodes(relay):
    policy = SearchPolicy(relay, SearchConfig(leaf="random", sims=80, others="random"), seed=0)
    state = _relay_state(2, n=3)
    root = None
    for _ in range(80):
        root = policy._simulate(state, 0, root)
    movers, stack = set(), [root]
    while stack:
        node = stack.pop()
        movers.add(node.mover)
        stack.extend(node.children.values())
    assert movers == {0}  # seats 1 and 2 are the model's: they are played, never searched
    unmodelled, root = SearchPolicy(relay, SearchConfig(leaf="random", sims=80), seed=0), None
    for _ in range(80):
        root = unmodelled._simulate(state, 0, root)
    assert {key[1] for key in root.children} - {0}  # the check above can fail: others are nodes without it


def test_a_checkpoint_models_the_opponents_from_their_own_observations():
    game = envs.game_class("last_heroes_v0")(num_players=3)
    state = game.new_state(2)
    play_forced(state)
    seat = state.current_player
    policy = SearchPolicy("last_heroes_v0", SearchConfig(prior=SHIPPED_LH, sims=6, others=SHIPPED_LH), seed=0)
    seen = []
    act = policy.others.act
    policy.others.act = lambda obs, mask, world: (
        seen.append((world.current_player, obs is not None)) or act(obs, mask, world)
    )
    result = policy.analyse(state)
    assert state.legal_mask()[result.action] and result.simulations == 6
    assert seen and all(mover != seat and has_obs for mover, has_obs in seen)  # the model plays the others only


def test_a_competitive_seat_maximises_its_own_result():
    values = outcome_values(_finished_last_heroes())
    assert sorted(values.tolist()) == [-1.0, 1.0]  # one winner, one loser: each seat's own value


def _finished_last_heroes():
    return play_random_game(envs.game_class("last_heroes_v0")(num_players=2), 1, check=False)


def test_temperature_and_noise_keep_choices_legal_and_seeded():
    game = envs.game_class("last_heroes_v0")(num_players=2)
    state = game.new_state(3)
    play_forced(state)
    cfg = SearchConfig(prior=SHIPPED_LH, sims=12, temperature=1.0, noise=0.25, seed=4)
    a = [SearchPolicy("last_heroes_v0", cfg).analyse(state) for _ in range(2)]
    assert a[0].action == a[1].action and np.array_equal(a[0].visits, a[1].visits)  # same seed, same search
    assert state.legal_mask()[a[0].action]


def test_a_single_legal_action_is_played_without_searching(relay):
    state = _relay_state(4, phase=2)  # the cheer: KEEP only
    result = SearchPolicy(relay, SearchConfig(leaf="random", sims=50), seed=0).analyse(state)
    assert (result.action, result.simulations) == (KEEP, 0)


def test_a_cpu_budget_bounds_the_decision():
    game = envs.game_class("last_heroes_v0")(num_players=2)
    state = game.new_state(2)
    play_forced(state)
    result = SearchPolicy("last_heroes_v0", parse_spec(f"search:prior={SHIPPED_LH},seconds=0.05")).analyse(state)
    assert result.simulations >= 2 and result.cpu_seconds < 1.0


# -- a policy like any other -------------------------------------------------------------------
def test_search_plays_in_evaluate(relay):
    # the toy with the team's perfect heuristic as playouts: search with it wins every game
    results = evaluate(relay, 2, ["search:leaf=heuristic,sims=20"], games=6, seed=11)
    assert results["team"]["win_rate"] == 1.0 and results["team"]["games"] == 6


def test_search_is_a_self_play_opponent_and_a_hint_with_its_visit_shares():
    from training.playing.session import Session
    from training.single_agent import FixedOpponents, SingleAgentEnv

    search = load_policy("search:prior=shipped,sims=6", "last_heroes_v0", seed=2)
    view = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, opponents=FixedOpponents(search), seed=4)
    obs, _ = view.reset()
    done, steps = False, 0
    while not done:
        obs, _, terminated, truncated, _ = view.step(int(np.flatnonzero(view.action_masks())[0]))
        done, steps = terminated or truncated, steps + 1
    assert steps > 5 and search.last_result is not None and 0 < search.last_result.simulations <= 6  # may stop early

    session = Session.new(
        "last_heroes_v0", 2, {0: "human", 1: "heuristic"}, seed=8, hint_spec="search:prior=shipped,sims=9"
    )
    hint = session.hint()
    assert "share of 9 simulations" in hint.how and 0 < hint.probability <= 1
    assert session.state.legal_mask()[hint.action]


def test_a_value_trained_with_potential_shaping_gets_the_potential_back(monkeypatch):
    # the shipped Last Heroes network was trained with shaping_coef=1: its value is the result minus Phi
    policy = SearchPolicy("last_heroes_v0", parse_spec(f"search:prior={SHIPPED_LH},sims=2"))
    assert policy._shaping == 1.0
    monkeypatch.setattr(policy.net, "values", lambda rows: np.zeros(len(rows), np.float32))
    state = envs.game_class("last_heroes_v0")(num_players=3).new_state(6)
    bot = envs.heuristic_bot("last_heroes_v0", seed=0)
    while max(abs(p) for p in state.shaping_potentials()) == 0:  # into the game, until the scores differ
        play_forced(state)
        state.apply(int(bot.act_state(state)))
    play_forced(state)
    policy._expand(state)
    assert np.allclose(policy._leaf_values, np.clip(state.shaping_potentials(), -1, 1))
    plain = SearchPolicy("lost_legends_v0", parse_spec("search:prior=shipped,sims=2"))
    assert plain._shaping == 0.0  # trained on win_loss alone


def test_a_value_trained_on_event_shaping_counts_what_the_events_paid_inside_the_tree(monkeypatch):
    # the shipped Last Bastion network was trained with reward_scheme="shaped": its value is the
    # result plus the shaping still to come, so leaves and ends add what the shaping paid so far
    policy = SearchPolicy("last_bastion_v0", parse_spec("search:prior=shipped,sims=2"))
    assert policy._shaping == 1.0 and policy._value_bound > 1.0
    monkeypatch.setattr(policy.net, "values", lambda rows: np.zeros(len(rows), np.float32))
    game = envs.game_class("last_bastion_v0")(num_players=2, obs_hints=True)
    state = game.new_state(3)
    bot = envs.heuristic_bot("last_bastion_v0", seed=0)
    while state.shaping_potentials()[0] == 0:  # into the game, until an event has paid
        play_forced(state)
        state.apply(int(bot.act_state(state)))
    play_forced(state)
    policy._expand(state)
    assert np.allclose(policy._leaf_values, state.shaping_potentials()) and policy._leaf_values[0] != 0
    heuristic_leaf = SearchPolicy("last_bastion_v0", parse_spec("search:prior=shipped,leaf=heuristic,sims=2"))
    assert heuristic_leaf._shaping == 0.0  # playouts give the bare result: nothing to add


def test_a_search_that_only_moves_stops_when_the_rest_of_its_budget_could_not_change_the_move():
    spec = "search:prior=shipped,sims=120"
    game = envs.game_class("last_heroes_v0")(num_players=2)
    bot = envs.heuristic_bot("last_heroes_v0", seed=0)
    saved = 0
    for g in range(6):
        state = game.new_state(g)
        for _ in range(12):
            play_forced(state)
            if state.is_over():
                break
            full = load_policy(spec, "last_heroes_v0", seed=g).analyse(state)
            quick = load_policy(spec, "last_heroes_v0", seed=g)
            action = quick.act(state.observe(state.current_player), state.legal_mask(), state)
            assert action == full.action  # the move the whole budget picks
            assert quick.last_result.simulations <= full.simulations == (120 if full.simulations else 0)
            saved += full.simulations - quick.last_result.simulations
            state.apply(int(bot.act_state(state)))
    assert saved > 0  # and some decisions were settled early


def test_a_prior_temperature_flattens_the_networks_prior_at_every_node():
    assert parse_spec("search:prior=shipped,prior_temp=3").to_spec() == "search:prior=shipped,sims=200,prior_temp=3"
    with pytest.raises(ValueError, match="prior_temp='0' is out of range"):
        parse_spec("search:prior=shipped,prior_temp=0")
    state = envs.game_class("last_bastion_v0")(num_players=2, obs_hints=True).new_state(3)
    play_forced(state)
    sharp = load_policy("search:prior=shipped,sims=8", "last_bastion_v0", seed=1).analyse(state)
    flat = load_policy("search:prior=shipped,sims=8,prior_temp=3", "last_bastion_v0", seed=1).analyse(state)
    legal = sharp.legal
    logits = np.log(sharp.prior[legal])
    want = np.exp(logits / 3 - (logits / 3).max())
    assert np.allclose(flat.prior[legal], want / want.sum()) and flat.prior[legal].max() < sharp.prior[legal].max()
