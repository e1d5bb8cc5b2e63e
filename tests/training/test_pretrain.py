"""Behaviour cloning from the heuristic: the data is the teacher's, and the clone learns it."""

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

import envs
from envs.core.game import play_forced
from envs.last_heroes.game import LastHeroesGame
from training.pretrain import clone_into, collect_teacher_data
from training.runtime.policies import HeuristicPolicy, load_policy
from training.single_agent import SingleAgentEnv


def test_teacher_data_holds_the_teachers_unforced_decisions():
    data = collect_teacher_data("last_heroes_v0", {"num_players": 2, "auto_skip_forced": True}, "heuristic", 3)
    assert len(data) > 50
    assert data.observations.shape == (len(data), LastHeroesGame(num_players=2).observation_size)
    assert data.masks[np.arange(len(data)), data.actions].all()  # every action was legal
    assert (data.masks.sum(1) >= 2).all()  # forced decisions are left out when the env skips them
    assert set(np.unique(data.results)) <= {-1.0, 1.0}
    # Replaying the same games with the same teacher gives the same samples.
    again = collect_teacher_data("last_heroes_v0", {"num_players": 2, "auto_skip_forced": True}, "heuristic", 3)
    assert np.array_equal(again.actions, data.actions)


def test_value_targets_are_the_return_to_go_of_the_shaped_rewards():
    """With shaping the value head fits result - coef * potential of the decider at each decision."""
    options = {"num_players": 2, "auto_skip_forced": True}
    bare = collect_teacher_data("last_heroes_v0", options, "heuristic", 2, seed=5)
    shaped = collect_teacher_data("last_heroes_v0", {**options, "shaping_coef": 0.5}, "heuristic", 2, seed=5)
    assert np.array_equal(bare.value_targets, bare.results) and not bare.potentials.any()
    assert np.array_equal(shaped.actions, bare.actions) and np.array_equal(shaped.results, bare.results)
    # replay the first game: the potentials are those of the deciding seat, weighted
    game = LastHeroesGame(num_players=2, shaping_coef=0.5)
    state = game.new_state(int(np.random.default_rng(5).integers(2**63 - 1)))
    expected = []
    for action in shaped.actions:
        play_forced(state)
        if state.is_over():
            break
        expected.append(0.5 * state.shaping_potentials()[state.current_player])
        state.apply(int(action))
    k = len(expected)
    assert k > 10 and np.allclose(shaped.potentials[:k], expected) and np.any(shaped.potentials[:k] != 0)
    assert np.allclose(shaped.value_targets, shaped.results - shaped.potentials)
    joined = bare + shaped
    assert np.allclose(joined.value_targets, np.concatenate([bare.results, shaped.value_targets]))


def test_cloning_raises_agreement_with_the_teacher():
    data = collect_teacher_data("last_heroes_v0", {"num_players": 2}, "heuristic", 6, seed=1)
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [64, 64]}, seed=0, device="cpu"
    )

    def agreement():
        pred, _ = model.predict(data.observations, action_masks=data.masks, deterministic=True)
        return float(np.mean(pred == data.actions))

    before = agreement()
    metrics = clone_into(model, data, epochs=15, batch_size=64, learning_rate=3e-3, value_coef=0.5)
    after = agreement()
    assert after > before + 0.2 and after > 0.6
    assert metrics["accuracy"] > 0.5
    # The clone acts like the teacher on a fresh position too, more often than not.
    game = LastHeroesGame(num_players=2)
    teacher = HeuristicPolicy("last_heroes_v0")
    hits = total = 0
    for seed in range(3):
        state = game.new_state(100 + seed)
        while not state.is_terminal():
            mask = state.legal_mask()
            obs = state.observe(state.current_player)
            want = teacher.act(obs, mask, state)
            if mask.sum() > 1:
                got, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
                hits += int(got) == want
                total += 1
            state.apply(want)
    assert hits / total > 0.4


def test_a_fit_with_a_holdout_measures_it_and_keeps_its_best_epoch():
    data = collect_teacher_data("last_heroes_v0", {"num_players": 2}, "heuristic", 6, seed=1)
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [64, 64]}, seed=0, device="cpu"
    )
    held = round(len(data) * 0.25)
    log = []
    # a rate far too high: the held-out loss soon climbs, and the kept weights must be the best epoch's
    metrics = clone_into(model, data, 6, 64, 0.05, 0.5, log=log.append, holdout=0.25)
    assert [m["epoch"] for m in log] == list(range(7))  # epoch 0: the network before the fit
    losses = [m["holdout_loss"] for m in log]
    assert metrics["best_epoch"] == int(np.argmin(losses)) and metrics["best_holdout_loss"] == min(losses)
    assert min(losses) < losses[-1]  # so keeping the best is not keeping the last
    # the network kept is the best epoch's: its loss on the held-out samples is the best one
    again = clone_into(model, data, 0, 64, 0.05, 0.5, holdout=0.25)
    assert again["holdout_loss"] == pytest.approx(min(losses), rel=1e-5)
    pred, _ = model.predict(data.observations[-held:], action_masks=data.masks[-held:], deterministic=True)
    assert again["holdout_accuracy"] == pytest.approx(float(np.mean(pred == data.actions[-held:])))
    with pytest.raises(ValueError, match="holdout must be in"):
        clone_into(model, data, 1, 64, 1e-3, 0.5, holdout=0.7)


def test_rows_are_joined_in_order_across_blocks():
    from training.pretrain import _Rows

    rows = np.random.default_rng(0).random((11, 3)).astype(np.float32)
    buffer = _Rows(block=4)
    for row in rows:
        buffer.append(row)
    assert np.array_equal(buffer.take(3), rows)
    assert buffer.take(3).shape == (0, 3)


def test_dagger_games_are_played_by_the_student_and_labelled_by_the_teacher():
    from training.runtime.policies import RandomPolicy

    options = {"num_players": 2, "auto_skip_forced": True}
    teacher_only = collect_teacher_data("last_heroes_v0", options, "heuristic", 3, seed=4)
    # The teacher as its own student: the same games, every move agreed.
    same: dict[str, float] = {}
    again = collect_teacher_data(
        "last_heroes_v0", options, "heuristic", 3, seed=4, student=HeuristicPolicy("last_heroes_v0", seed=4), stats=same
    )
    assert np.array_equal(again.actions, teacher_only.actions) and same["agreement"] == 1.0
    # A random student leads the games elsewhere; the labels stay the teacher's legal choices.
    stats: dict[str, float] = {}
    data = collect_teacher_data(
        "last_heroes_v0", options, "heuristic", 3, seed=4, student=RandomPolicy(seed=0), stats=stats
    )
    assert data.masks[np.arange(len(data)), data.actions].all()
    assert 0.0 < stats["agreement"] < 0.6
    assert len(data) != len(teacher_only) or not np.array_equal(data.observations, teacher_only.observations)
    assert -1.0 <= stats["mean_result"] <= 1.0
    both = teacher_only + data
    assert len(both) == len(teacher_only) + len(data)
    assert np.array_equal(both.actions[len(teacher_only) :], data.actions)


def test_pretrain_runs_its_dagger_rounds_and_records_the_clone_on_its_own_games(tmp_path):
    import json

    from training.config import load_config
    from training.train import pretrain

    cfg = load_config(
        None,
        [
            "pretrain.teacher=heuristic",
            "pretrain.games=2",
            "pretrain.epochs=1",
            "pretrain.dagger_rounds=2",
            "pretrain.dagger_games=2",
            "pretrain.dagger_epochs=1",
        ],
    )
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [32]}, device="cpu")
    summary = pretrain(cfg, model, tmp_path)
    assert json.loads((tmp_path / "pretrain.json").read_text()) == summary
    rounds = summary["dagger"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert summary["samples"] < rounds[0]["samples"] < rounds[1]["samples"]  # the data only grows
    for r in rounds:
        assert 0.0 < r["student_agreement"] < 1.0 and -1.0 <= r["student_mean_result"] <= 1.0
        assert r["epoch"] == 1


def test_a_search_teacher_labels_its_visit_shares_and_the_fit_follows_them():
    data = collect_teacher_data(
        "last_heroes_v0", {"num_players": 2}, "search:prior=checkpoints/last_heroes/last_heroes.json,sims=8", 1, seed=3
    )
    assert data.targets is not None and data.targets.shape == data.masks.shape
    assert np.allclose(data.targets.sum(1), 1.0) and not (data.targets[~data.masks] > 0).any()
    assert (data.targets.max(1) < 1).any()  # some decisions were split between moves: soft targets
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [32]}, device="cpu")
    before = clone_into(model, data, 1, 64, 1e-3, 0.5)["loss"]
    after = clone_into(model, data, 30, 64, 3e-3, 0.5)["loss"]
    assert after < before  # the soft cross-entropy goes down
    mixed = data + collect_teacher_data("last_heroes_v0", {"num_players": 2}, "heuristic", 1, seed=4)
    assert mixed.targets.shape[0] == len(mixed) and np.allclose(mixed.targets.sum(1), 1.0)


def test_an_improved_target_moves_the_prior_towards_what_the_search_valued():
    from training.runtime.search import SearchResult

    legal = np.array([0, 2, 3])
    prior = np.array([0.6, 0.0, 0.3, 0.1])
    visits = np.array([6.0, 0.0, 4.0, 0.0])
    q = np.array([-0.5, 0.0, 0.5, 0.0])  # the favourite lost, the second choice won, the third unvisited
    result = SearchResult(0, visits, q, prior, 11, 0.0, legal, root_value=0.0)
    p = result.improved_policy(c_scale=0.1)
    assert np.isclose(p.sum(), 1.0) and p[1] == 0.0  # a distribution over the legal actions
    assert p[2] > prior[2] and p[0] < prior[0] and p[2] > p[0]  # weight moves to the better action
    assert np.allclose(result.improved_policy(c_scale=1e-9), prior)  # no scale: the prior itself
    assert p[3] / p[0] > prior[3] / prior[0]  # unvisited: the mean Q of the visited, above the favourite's
    assert np.argmax(result.improved_policy(c_scale=10.0)) == 2
    unsearched = SearchResult(0, np.zeros(4), np.zeros(4), prior, 0, 0.0, legal)
    assert np.allclose(unsearched.improved_policy(), prior)
    # the numbers: v_mix = (0 + 10 * (0.6 * -0.5 + 0.3 * 0.5) / 0.9) / 11, sigma = (50 + 6) * 0.1 * (q + 1) / 2
    v_mix = 10 * (0.6 * -0.5 + 0.3 * 0.5) / 0.9 / 11
    completed = np.array([-0.5, 0.5, v_mix])
    logits = np.log([0.6, 0.3, 0.1]) + 5.6 * (completed + 1) / 2
    assert np.allclose(p[legal], np.exp(logits) / np.exp(logits).sum())


def test_the_roots_exploration_noise_stays_out_of_the_prior_a_search_reports():
    state = envs.game_class("last_heroes_v0")(num_players=2).new_state(3)
    play_forced(state)
    plain = load_policy("search:prior=shipped,sims=16", "last_heroes_v0", seed=1).analyse(state)
    noisy = load_policy("search:prior=shipped,sims=16,noise=0.5", "last_heroes_v0", seed=1).analyse(state)
    assert np.allclose(noisy.prior, plain.prior)  # the network's own prior
    assert not np.allclose(noisy.visits, plain.visits)  # while the noise did steer the visits


def test_a_search_teacher_labels_improved_targets_on_request():
    spec = "search:prior=checkpoints/last_heroes/last_heroes.json,sims=16"
    options = {"num_players": 2}
    stats: dict[str, float] = {}
    visits = collect_teacher_data("last_heroes_v0", options, spec, 1, seed=3)
    improved = collect_teacher_data("last_heroes_v0", options, spec, 1, seed=3, target="improved", stats=stats)
    assert np.array_equal(visits.actions, improved.actions)  # the same games: only the labels differ
    assert np.allclose(improved.targets.sum(1), 1.0) and not (improved.targets[~improved.masks] > 0).any()
    assert not np.allclose(improved.targets, visits.targets)
    assert 0.0 < stats["prior_agreement"] <= 1.0
    with pytest.raises(ValueError, match="target must be one of"):
        collect_teacher_data("last_heroes_v0", options, spec, 1, target="q")


EXIT_SMALL = [
    "pretrain.teacher=heuristic",
    "pretrain.games=2",
    "pretrain.epochs=1",
    "pretrain.exit_games=1",
    "pretrain.exit_search=sims=4",
    "pretrain.exit_epochs=1",
]


def test_expert_iteration_rounds_search_with_the_network_they_refit(tmp_path):
    import json

    from training.config import load_config
    from training.train import pretrain

    cfg = load_config(None, [*EXIT_SMALL, "pretrain.exit_rounds=2", "pretrain.exit_window=1"])
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [32]}, device="cpu")
    summary = pretrain(cfg, model, tmp_path)
    assert json.loads((tmp_path / "pretrain.json").read_text()) == summary
    rounds = summary["expert_iteration"]
    assert [r["round"] for r in rounds] == [1, 2]
    for r in rounds:  # each round searched with the network as fitted before it
        prior = tmp_path / "exit" / f"round_{r['round'] - 1}"
        assert r["teacher"] == f"search:prior={prior}.json,sims=4" and prior.with_suffix(".pt").is_file()
        assert r["samples"] > 0 and -1.0 <= r["search_mean_result"] <= 1.0
        assert r["checkpoint"] == str(tmp_path / "exit" / f"round_{r['round']}.json")
    # the last round's refit is kept too, and it is the network as the loop left it
    from training.runtime.checkpoints import load_checkpoint

    weights, _ = load_checkpoint(rounds[-1]["checkpoint"])
    live = {k: v.detach().numpy() for k, v in model.policy.state_dict().items()}
    assert weights and all(np.allclose(w, live[k]) for k, w in weights.items())
    # each round's search data is saved, and a later run's window can start with it
    from training.pretrain import TeacherData

    size, actions = model.observation_space.shape[0], model.action_space.n
    saved = [
        TeacherData.load(tmp_path / "exit" / f"round_{r}_data.npz", "last_heroes_v0", size, actions) for r in (1, 2)
    ]
    assert [len(d) for d in saved] == [r["samples"] for r in rounds]  # window 1: a refit's data is its round's
    assert np.allclose(saved[1].targets.sum(1), 1.0) and saved[1].potentials is not None
    again = load_config(
        None,
        [
            *EXIT_SMALL,
            "pretrain.exit_rounds=1",
            "pretrain.exit_window=2",
            f"pretrain.exit_data=[{tmp_path}/exit/round_2_data.npz]",
        ],
    )
    (tmp_path / "again").mkdir()
    summary = pretrain(again, model, tmp_path / "again")
    assert summary["expert_iteration"][0]["samples"] > len(saved[1])  # the saved round and the new one
    # exit_games 0: the round refits on the saved data alone, searching nothing
    refit = load_config(
        None,
        [
            *EXIT_SMALL,
            "pretrain.exit_rounds=1",
            "pretrain.exit_games=0",
            "pretrain.holdout=0.2",
            f"pretrain.exit_data=[{tmp_path}/exit/round_2_data.npz]",
        ],
    )
    (tmp_path / "refit").mkdir()
    row = pretrain(refit, model, tmp_path / "refit")["expert_iteration"][0]
    assert row["samples"] == len(saved[1]) and row["teacher"] is None and row["search_mean_result"] is None
    assert 0.0 <= row["holdout_accuracy"] <= 1.0 and row["best_epoch"] in (0, 1)
    assert not (tmp_path / "refit" / "exit" / "round_1_data.npz").exists()
    with pytest.raises(ValueError, match="made for last_heroes_v0, not lost_legends_v0"):
        TeacherData.load(tmp_path / "exit" / "round_1_data.npz", "lost_legends_v0", size, actions)
    with pytest.raises(ValueError, match="observations has shape"):
        TeacherData.load(tmp_path / "exit" / "round_1_data.npz", "last_heroes_v0", size + 1, actions)
    (tmp_path / "broken.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(ValueError, match="not a readable .npz"):
        TeacherData.load(tmp_path / "broken.npz", "last_heroes_v0", size, actions)


EXIT = ["pretrain.teacher=heuristic", "pretrain.exit_rounds=1"]


@pytest.mark.parametrize(
    "setting, says",
    [
        (["pretrain.exit_rounds=1"], "start it from pretrain.init or fit it to"),
        (["pretrain.init=nowhere.json"], "pretrain.init: .nowhere.json. is not an existing checkpoint"),
        ([*EXIT, "pretrain.exit_data=[gone.npz]"], "pretrain.exit_data: 'gone.npz' is not an existing file"),
        (["pretrain.exit_data=[gone.npz]"], "set pretrain.exit_rounds too"),
        ([*EXIT, "pretrain.exit_games=0"], "exit_games: 0 plays no search games"),
        ([*EXIT, "pretrain.holdout=0.6"], "pretrain.holdout"),
        (
            ["pretrain.teacher=heuristic", "pretrain.exit_rounds=1", "pretrain.exit_search=prior=x,sims=3"],
            "leave out prior",
        ),
        (
            ["pretrain.teacher=heuristic", "pretrain.exit_rounds=1", "pretrain.exit_search=sims=0"],
            "sims='0' is out of range",
        ),
        (["pretrain.teacher=search:sims=-1"], "pretrain.teacher: search spec"),
        ([*EXIT, "pretrain.exit_target=q"], "exit_target"),
        ([*EXIT, "pretrain.exit_target_scale=0"], "exit_target_scale"),
        ([*EXIT, "pretrain.exit_others={heuristic: 0.7, random: 0.5}"], "exit_others: the shares sum to 1.2"),
        ([*EXIT, "pretrain.exit_others={nobody: 0.5}"], "unknown key 'pretrain.exit_others.nobody'"),
        ([*EXIT, "pretrain.exit_others={heuristic: 2}"], "exit_others.heuristic: 2.0 is out of range"),
        ([*EXIT, "pretrain.exit_search=sims=4,others=heuristic"], "leave out others"),
    ],
)
def test_expert_iteration_settings_are_checked(setting, says):
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=says):
        load_config(None, setting)


def test_pretrain_init_starts_the_network_from_a_checkpoint():
    import torch

    from training.runtime.checkpoints import CheckpointError
    from training.runtime.inference import CheckpointPolicy
    from training.train import init_from_checkpoint

    shipped = "checkpoints/last_heroes/last_heroes.json"
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, device="cpu")  # [64, 64]: not the shipped net
    with pytest.raises(CheckpointError, match="set ppo.net_arch and ppo.activation to match"):
        init_from_checkpoint(model, shipped, "last_heroes_v0")
    kwargs = {"net_arch": {"pi": [256, 256], "vf": [256, 256]}, "activation_fn": torch.nn.Tanh}
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs=kwargs, device="cpu")
    init_from_checkpoint(model, shipped, "last_heroes_v0")
    obs, _ = env.reset(seed=1)
    with torch.no_grad():
        logits = model.policy.action_net(model.policy.mlp_extractor(torch.as_tensor(obs[None]))[0])[0].numpy()
        value = model.policy.predict_values(torch.as_tensor(obs[None]))[0, 0].item()
    policy = CheckpointPolicy(shipped, env_id="last_heroes_v0")
    assert np.allclose(logits, policy.logits(obs[None])[0], atol=1e-4)
    assert value == pytest.approx(float(policy.values(obs[None])[0]), abs=1e-4)


def test_expert_iteration_can_start_from_a_checkpoint_without_a_teacher(tmp_path):
    import torch

    from training.config import load_config
    from training.train import init_from_checkpoint, pretrain

    shipped = "checkpoints/last_heroes/last_heroes.json"
    cfg = load_config(
        None,
        [f"pretrain.init={shipped}", "pretrain.exit_rounds=1", "pretrain.exit_games=1", "pretrain.exit_search=sims=2"],
    )
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0)
    kwargs = {"net_arch": {"pi": [256, 256], "vf": [256, 256]}, "activation_fn": torch.nn.Tanh}
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs=kwargs, device="cpu")
    init_from_checkpoint(model, shipped, "last_heroes_v0")
    summary = pretrain(cfg, model, tmp_path)
    assert summary["init"] == shipped and "samples" not in summary  # no cloning stage
    (row,) = summary["expert_iteration"]
    assert row["samples"] > 0


def test_search_games_beside_a_fixed_policy_learn_only_the_searched_seat(relay, monkeypatch):
    import tests.toys
    from training.runtime.search import SearchPolicy

    games: list = []  # each game's state, in order (kept alive: no id is reused)
    searched: dict[int, set] = {}
    fixed: dict[int, set] = {}
    models = set()
    decisions = []

    def game_of(state) -> int:
        for k, known in enumerate(games):
            if known is state:
                return k
        games.append(state)
        return len(games) - 1

    analyse, act_state = SearchPolicy.analyse, tests.toys.HeuristicBot.act_state

    def spy_analyse(self, state):
        models.add(self.config.others)
        decisions.append(state.current_player)
        searched.setdefault(game_of(state), set()).add(state.current_player)
        return analyse(self, state)

    def spy_act(self, state):
        if not state.is_over() and any(state is known for known in games):  # not a world inside the search
            fixed.setdefault(game_of(state), set()).add(state.current_player)
        return act_state(self, state)

    monkeypatch.setattr(SearchPolicy, "analyse", spy_analyse)
    monkeypatch.setattr(tests.toys.HeuristicBot, "act_state", spy_act)
    teacher = "search:leaf=random,sims=4"
    data = collect_teacher_data(relay, {"num_players": 3}, teacher, 4, seed=1, others={"heuristic": 1.0})
    assert models == {"heuristic"}  # the search models its partners as the policy that plays them
    # the search holds one seat a game, in turn, and the heuristic every other seat
    assert [searched[k] for k in range(4)] == [{0}, {1}, {2}, {0}]
    assert all(fixed[k] == {0, 1, 2} - searched[k] for k in range(4))
    assert len(data) == len(decisions)  # only the searched seat's decisions are samples
    models.clear()
    selfplay = collect_teacher_data(relay, {"num_players": 3}, teacher, 4, seed=1)
    assert models == {None} and len(selfplay) > len(data)  # without others every seat is searched
    with pytest.raises(ValueError, match="only a search teacher"):
        collect_teacher_data(relay, {"num_players": 3}, "heuristic", 1, others={"heuristic": 1.0})


def test_games_played_in_processes_are_each_share_on_its_own_seed(relay):
    teacher, others = "search:leaf=random,sims=4", {"heuristic": 0.5}
    stats: dict = {}
    both = collect_teacher_data(relay, {"num_players": 2}, teacher, 5, seed=3, workers=2, others=others, stats=stats)
    seeds = np.random.SeedSequence(3).generate_state(2).tolist()
    shares = [
        collect_teacher_data(relay, {"num_players": 2}, teacher, games, seed=int(seed), others=others)
        for games, seed in zip((3, 2), seeds)
    ]
    joined = shares[0] + shares[1]
    assert np.array_equal(both.observations, joined.observations) and np.array_equal(both.actions, joined.actions)
    assert np.array_equal(both.targets, joined.targets) and stats["searched"] == len(both)
