"""Behaviour cloning: start PPO from a policy that imitates a teacher (the heuristic bot, a checkpoint).

The teacher plays every seat of ``games`` games; each decision it takes (forced ones excepted when
the env skips them) becomes a sample ``(observation, mask, action, final result of that seat)``.
The PPO network is then fitted to it: cross-entropy of the masked action logits on the teacher's
action, plus ``value_coef`` times the squared error of the value head on the seat's return-to-go:
its result plus ``w * (Phi(end) - Phi(s))`` when the game shapes the reward (``Game.shaping_weight``:
the env's rewards from there on sum to that, it is what PPO's value head estimates, and what the
search adds ``w * Phi`` back to; fitting the bare result would count the shaping twice). PPO
then improves on the clone instead of starting from uniform play.

A clone that agrees with its teacher on most of the teacher's decisions can still lose far more
often: its mistakes lead it to positions the teacher never reaches, where it has no data. DAgger
(Ross, Gordon and Bagnell, 2011) fixes that: with ``student`` given, the student plays and the
teacher labels every decision the student meets, and the fit is redone on all the data so far.
The collected games also measure the student: how often it picks the teacher's action on its own
positions, and its seats' mean result.

Expert iteration (Anthony, Tian and Barber, 2017; AlphaZero's training loop) is the same fit with a
search as the teacher: a teacher with ``analyse`` (``training.runtime.search``) labels each decision with
its visit shares, a soft target, and the fit minimises the cross-entropy to them (and the value
error to the results). ``training.train`` then makes the refitted network the search's prior and
iterates (``pretrain.exit_rounds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

import envs
from envs.core.game import play_forced
from envs.core.options import split_options
from training.runtime.policies import load_policy, seat_actor
from training.single_agent import resolve_player_counts

#: what a search teacher's soft targets are (``collect_teacher_data(target=...)``)
TARGETS = ("visits", "improved")


@dataclass
class TeacherData:
    observations: np.ndarray  # float32 [N, obs]
    masks: np.ndarray  # bool [N, actions]
    actions: np.ndarray  # int64 [N]
    results: np.ndarray  # float32 [N], the deciding seat's final reward
    targets: np.ndarray | None = None  # float32 [N, actions]: a search teacher's visit shares
    #: float32 [N]: ``w * (Phi(s) - Phi(end))`` for the decider (``Game.shaping_weight``; zeros
    #: without shaping). The env's rewards from a decision on sum to the result minus it (a
    #: potential-based Phi is 0 at the end), which is what a value head trained on them estimates
    potentials: np.ndarray | None = None

    @property
    def value_targets(self) -> np.ndarray:
        """What the value head fits: the return-to-go of the env's (shaped) rewards."""
        return self.results if self.potentials is None else self.results - self.potentials

    def __len__(self) -> int:
        return len(self.actions)

    def soft_targets(self) -> np.ndarray:
        """The policy targets as distributions: the visit shares, or the teacher's action one-hot."""
        if self.targets is not None:
            return self.targets
        out = np.zeros(self.masks.shape, np.float32)
        out[np.arange(len(self.actions)), self.actions] = 1.0
        return out

    def __add__(self, other: TeacherData) -> TeacherData:
        soft = self.targets is not None or other.targets is not None
        return TeacherData(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.actions, other.actions]),
            np.concatenate([self.results, other.results]),
            np.concatenate([self.soft_targets(), other.soft_targets()]) if soft else None,
            np.concatenate([self._potentials(), other._potentials()]),
        )

    def _potentials(self) -> np.ndarray:
        return np.zeros(len(self), np.float32) if self.potentials is None else self.potentials

    def save(self, path, env_id: str) -> Path:
        """Write the data to ``path`` (.npz, atomically), tagged with ``env_id``: a round of search
        labels costs hours of CPU, so a refit can be tried again from it (``pretrain.exit_data``)."""
        import io

        from training.atomic import atomic_write_bytes

        arrays = {name: getattr(self, name) for name in _DATA_FIELDS if getattr(self, name) is not None}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, env_id=np.array(env_id), **arrays)
        return atomic_write_bytes(path, buffer.getvalue())

    @classmethod
    def load(cls, path, env_id: str, observation_size: int, num_actions: int) -> TeacherData:
        """Data written by :meth:`save`, checked against the env it is meant for."""
        import zipfile

        try:
            with np.load(path, allow_pickle=False) as z:
                found = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise ValueError(f"search data {path}: not a readable .npz written by TeacherData.save ({e})") from e
        missing = [k for k in ("env_id", "observations", "masks", "actions", "results") if k not in found]
        if missing:
            raise ValueError(
                f"search data {path}: missing {', '.join(missing)}; it was not written by TeacherData.save"
            )
        if str(found["env_id"]) != env_id:
            raise ValueError(f"search data {path} was made for {found['env_id']}, not {env_id}")
        n = len(found["actions"])
        shapes = {
            "observations": (n, observation_size),
            "masks": (n, num_actions),
            "actions": (n,),
            "results": (n,),
            "targets": (n, num_actions),
            "potentials": (n,),
        }
        for name, shape in shapes.items():
            if name in found and found[name].shape != shape:
                raise ValueError(
                    f"search data {path}: {name} has shape {found[name].shape}, expected {shape} "
                    f"({env_id}: {observation_size} observation floats, {num_actions} actions)"
                )
        return cls(**{name: found.get(name) for name in _DATA_FIELDS})


_DATA_FIELDS = ("observations", "masks", "actions", "results", "targets", "potentials")


def masked_logits(policy, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """The actor's action logits for a batch, illegal actions pushed to -1e8."""
    latent_pi, _ = policy.mlp_extractor(policy.extract_features(obs))
    return policy.action_net(latent_pi).masked_fill(~masks, -1e8)


class ModelStudent:
    """A MaskablePPO model's policy, sampling its moves (as PPO will), for DAgger's games."""

    name = "student"

    def __init__(self, model, seed: int = 0):
        self.policy = model.policy
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation[None], dtype=torch.float32)
            logits = masked_logits(self.policy, obs, torch.as_tensor(action_mask[None].astype(bool)))
        logits = logits[0].numpy().astype(np.float64)
        p = np.exp(logits - logits.max())  # masked entries underflow to exactly 0
        return int(self.rng.choice(len(p), p=p / p.sum()))


class _Rows:
    """Float32 rows gathered in fixed blocks, then joined block by block: the peak memory is the
    data plus one block, where a list of arrays joined by ``np.array`` holds the data twice
    (12 GB at the peak for 2,000 Lost Legends games)."""

    def __init__(self, block: int = 4096):
        self.block, self.blocks, self.used = block, [], 0

    def append(self, row: np.ndarray) -> None:
        if not self.blocks or self.used == self.block:
            self.blocks.append(np.empty((self.block, len(row)), np.float32))
            self.used = 0
        self.blocks[-1][self.used] = row
        self.used += 1

    def take(self, width: int) -> np.ndarray:
        rows = self.block * (len(self.blocks) - 1) + self.used if self.blocks else 0
        out = np.empty((rows, width), np.float32)
        for i in range(len(self.blocks)):
            part = self.blocks[i] if i < len(self.blocks) - 1 else self.blocks[i][: self.used]
            out[i * self.block : i * self.block + len(part)] = part
            self.blocks[i] = None  # freed as soon as it is copied
        self.blocks, self.used = [], 0
        return out


def collect_teacher_data(
    env_id: str,
    env_options: dict[str, Any],
    teacher: str,
    games: int,
    seed: int = 0,
    player_counts: Sequence[int] | None = None,
    student: Any = None,
    stats: dict[str, float] | None = None,
    workers: int = 1,
    target: str = "visits",
    target_scale: float = 0.1,
    others: Mapping[str, float] | None = None,
) -> TeacherData:
    """The teacher's decisions over ``games`` games where it holds every seat; with several
    ``player_counts`` the games cycle through them (a repeated count gets more games).

    With a ``student`` policy the student plays every seat instead and the teacher only labels
    (DAgger). ``stats``, when given, receives ``agreement`` (how often the move played was the
    teacher's) and ``mean_result`` (the seats' mean final reward). A teacher that searches
    (``analyse``) also gives soft targets (``targets``): its visit shares (``target="visits"``), or
    the prior improved by its values (``"improved"``, ``SearchResult.improved_policy`` with
    ``c_scale=target_scale``); ``stats`` then also gets ``prior_agreement``, how often the prior's
    favourite was the search's choice. ``workers > 1`` plays the games in that many processes
    (without a student), each its share of the games on its own seeds.

    ``others`` (``{policy spec: share}``, shares summing to at most 1) puts that share of the games
    beside a fixed policy: the search holds one seat (in turn) and the spec every other seat, and the
    search models them with it (``others=`` of the search spec). Only the search's seat gives samples:
    a search teacher learns to play beside heuristic partners, or against a known opponent."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {list(TARGETS)}, got {target!r}")
    others = {spec: float(share) for spec, share in (others or {}).items() if share > 0}
    if others:
        from training.runtime.search import is_search_spec, parse_spec

        if not is_search_spec(teacher) or student is not None:
            raise ValueError("others: only a search teacher playing its own games models fixed other seats")
        if sum(others.values()) > 1.0 + 1e-9:
            raise ValueError(f"others: the shares sum to {sum(others.values()):g}; it must be <= 1")
    if workers > 1 and student is None and games > 1:
        return _collect_in_processes(
            env_id, env_options, teacher, games, seed, player_counts, stats, workers, target, target_scale, others
        )
    game_cls = envs.game_class(env_id)
    driver, options = split_options(game_cls, dict(env_options))
    skip_forced = driver["auto_skip_forced"]
    counts = resolve_player_counts(game_cls, options, player_counts)
    tables = {n: game_cls(**{**options, "num_players": n}) for n in set(counts)}
    coef = game_cls.shaping_weight(next(iter(tables.values())).options)
    policy = load_policy(teacher, env_id, seed=seed)
    searches = hasattr(policy, "analyse")
    fixed = {spec: load_policy(spec, env_id, seed=seed + 1 + i) for i, spec in enumerate(others)}
    modelled = {
        spec: type(policy)(env_id, replace(parse_spec(teacher), others=spec), seed=seed + 101 + i)
        for i, spec in enumerate(others)
    }
    beside_rng = np.random.default_rng([seed, 1])  # apart from the deals: no others, the same games
    beside_games = 0
    shares = _Rows() if searches else None
    obs, masks, actions, seats, game_of, potentials = _Rows(), [], [], [], [], []
    results: list[list[float]] = []
    ends: list[list[float] | None] = []  # Phi at each game's end
    scored: list[float] = []  # the results of the seats that gave samples
    agreed = prior_agreed = searched = 0
    rng = np.random.default_rng(seed)
    for g in range(games):
        game = tables[counts[g % len(counts)]]
        state = game.new_state(int(rng.integers(2**63 - 1)))
        actors = [seat_actor(policy) for _ in range(game.num_players)]
        teacher_now, own_seats = policy, range(game.num_players)
        if others:
            draw, spec = beside_rng.random(), None
            for name, share in others.items():
                draw -= share
                if draw < 0:
                    spec = name
                    break
            if spec is not None:  # one search seat, in turn; the spec holds the rest, and the search knows it
                own_seats = [beside_games % game.num_players]
                beside_games += 1
                teacher_now = modelled[spec]
                actors = [seat_actor(policy if s in own_seats else fixed[spec]) for s in range(game.num_players)]
        while True:
            if skip_forced:
                play_forced(state)  # the env never shows these to the learner: no samples
            if state.is_terminal() or state.is_truncated():
                break
            seat = state.current_player
            mask = state.legal_mask()
            observation = state.observe(seat)
            if seat not in own_seats:  # a fixed other seat: it plays, nothing is learnt from it
                state.apply(int(actors[seat].act(observation, mask, state)))
                continue
            if state.num_legal() == 1:
                action = int(mask.argmax())
                if searches:
                    shares.append(mask.astype(np.float32))
            elif searches:
                result = teacher_now.analyse(state)
                action = result.action
                soft = result.shares if target == "visits" else result.improved_policy(c_scale=target_scale)
                shares.append(soft.astype(np.float32))
                searched += 1
                # the prior's favourite against the search's (its most visited move, not the one drawn)
                prior_agreed += int(result.legal[np.argmax(result.prior[result.legal])]) == int(
                    result.legal[np.argmax(result.visits[result.legal])]
                )
            else:
                action = int(actors[seat].act(observation, mask, state))
            played = action if student is None or state.num_legal() == 1 else student.act(observation, mask, state)
            agreed += played == action
            obs.append(observation)
            masks.append(mask.astype(bool))
            actions.append(action)
            seats.append(seat)
            game_of.append(g)
            potentials.append(coef * state.shaping_potentials()[seat] if coef else 0.0)
            state.apply(played)
        results.append(list(state.returns()))
        scored.extend(results[-1][s] for s in own_seats)
        ends.append(list(state.shaping_potentials()) if coef else None)
    result = np.array([results[g][s] for g, s in zip(game_of, seats)], np.float32)
    if coef:  # w * (Phi(s) - Phi(end)): the rewards from s on sum to the result minus it
        potentials = [p - coef * ends[g][s] for p, g, s in zip(potentials, game_of, seats)]
    if stats is not None:
        stats["agreement"] = agreed / max(len(actions), 1)
        stats["mean_result"] = float(np.mean(scored))
        if searches:
            stats["prior_agreement"] = prior_agreed / max(searched, 1)
            stats["searched"] = searched
    observations = obs.take(next(iter(tables.values())).observation_size)
    num_actions = next(iter(tables.values())).num_actions
    targets = shares.take(num_actions) if searches else None
    return TeacherData(
        observations,
        np.array(masks, bool),
        np.array(actions, np.int64),
        result,
        targets,
        np.array(potentials, np.float32),
    )


def _collect_share(job: tuple) -> tuple[TeacherData, dict[str, float]]:
    registry, settings = job
    for registered, module in registry.items():  # a game registered in the parent is known here too
        envs.register(registered, module)
    stats: dict[str, float] = {}
    return collect_teacher_data(**settings, stats=stats), stats


def _collect_in_processes(
    env_id, env_options, teacher, games, seed, player_counts, stats, workers, target, target_scale, others
) -> TeacherData:
    """``collect_teacher_data`` split over ``workers`` spawned processes (each a share of the games,
    on seeds of its own); the shares are joined in worker order, so the data depend on the seed alone."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = min(workers, games)
    sizes = [games // workers + (i < games % workers) for i in range(workers)]
    seeds = np.random.SeedSequence(seed).generate_state(workers).tolist()
    counts = list(player_counts) if player_counts else None
    shared = dict(env_id=env_id, env_options=dict(env_options), teacher=teacher, player_counts=counts)
    shared |= dict(target=target, target_scale=target_scale, others=others)
    jobs = [(envs.registry(), {**shared, "games": g, "seed": int(s)}) for g, s in zip(sizes, seeds)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(_collect_share, jobs))
    data = parts[0][0]
    for part, _ in parts[1:]:
        data = data + part
    if stats is not None:
        weights = np.array([len(p) for p, _ in parts], float)
        for key in ("agreement", "mean_result"):
            stats[key] = float(np.average([s[key] for _, s in parts], weights=weights))
        if all("searched" in s for _, s in parts):  # weighted by the decisions each process searched
            searched = np.array([s["searched"] for _, s in parts], float)
            stats["searched"] = int(searched.sum())
            stats["prior_agreement"] = (
                float(np.average([s["prior_agreement"] for _, s in parts], weights=searched)) if searched.sum() else 0.0
            )
    return data


def _weights(policy) -> dict[str, torch.Tensor]:
    return {name: tensor.detach().clone() for name, tensor in policy.state_dict().items()}


def clone_into(
    model,
    data: TeacherData,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    seed: int = 0,
    log=None,
    holdout: float = 0.0,
) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO actor-critic) to the teacher data; returns the last epoch's
    metrics: ``loss``, and ``accuracy``, how often the policy's favourite is the teacher's (the
    largest of its soft target, else its action).

    ``holdout``: the fraction of the samples, the last ones (whole games but one: the data are in
    game order), kept out of the fit to measure it. Each epoch then also reports ``holdout_loss``,
    ``holdout_accuracy`` and ``holdout_value_mse`` on them, and the weights of the epoch with the
    lowest held-out loss are the ones kept (``best_epoch``): more epochs cannot overfit the result."""
    if not 0.0 <= holdout <= 0.5:
        raise ValueError(f"holdout must be in [0, 0.5], got {holdout!r}")
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data.observations)
    masks = torch.as_tensor(data.masks)
    results = torch.as_tensor(data.value_targets)
    soft = data.targets is not None  # visit shares: cross-entropy to the distribution
    targets = torch.as_tensor(data.targets) if soft else None
    favourites = targets.argmax(-1) if soft else torch.as_tensor(data.actions)
    generator = torch.Generator().manual_seed(seed)
    n = len(data)
    held = int(round(n * holdout))
    fitted = n - held  # samples [0, fitted) are fitted, [fitted, n) measure the fit

    def losses(idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        features = policy.extract_features(obs[idx])
        latent_pi, latent_vf = policy.mlp_extractor(features)
        logits = policy.action_net(latent_pi).masked_fill(~masks[idx], -1e8)  # as masked_logits, sharing latents
        values = policy.value_net(latent_vf).squeeze(-1)
        if soft:
            policy_loss = -(targets[idx] * torch.log_softmax(logits, -1)).sum(-1).mean()
        else:
            policy_loss = torch.nn.functional.cross_entropy(logits, favourites[idx])
        value_loss = torch.nn.functional.mse_loss(values, results[idx])
        correct = (logits.argmax(-1) == favourites[idx]).sum()
        return policy_loss + value_coef * value_loss, policy_loss, value_loss, correct

    def measure() -> dict[str, float]:
        policy.set_training_mode(False)
        loss = value = correct = 0.0
        with torch.no_grad():
            for start in range(fitted, n, 4096):
                idx = torch.arange(start, min(start + 4096, n))
                total, _, value_loss, right = losses(idx)
                loss += float(total) * len(idx)
                value += float(value_loss) * len(idx)
                correct += float(right)
        return {"holdout_loss": loss / held, "holdout_accuracy": correct / held, "holdout_value_mse": value / held}

    metrics: dict[str, float] = {}
    if held:
        metrics = {"epoch": 0, **measure()}  # the network as it came: what the fit must beat
        best, best_state = metrics, _weights(policy)
        if log is not None:
            log(metrics)
    for epoch in range(epochs):
        policy.set_training_mode(True)
        order = torch.randperm(fitted, generator=generator)
        total_loss = correct = 0.0
        for start in range(0, fitted, batch_size):
            idx = order[start : start + batch_size]
            loss, _, _, right = losses(idx)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total_loss += loss.item() * len(idx)
            correct += float(right)
        metrics = {"epoch": epoch + 1, "loss": total_loss / fitted, "accuracy": correct / fitted}
        if held:
            metrics |= measure()
            if metrics["holdout_loss"] < best["holdout_loss"]:
                best, best_state = metrics, _weights(policy)
        if log is not None:
            log(metrics)
    policy.set_training_mode(False)
    if held:
        policy.load_state_dict(best_state)
        metrics = {**metrics, "best_epoch": best["epoch"], **{f"best_{k}": v for k, v in best.items() if k != "epoch"}}
    return metrics
