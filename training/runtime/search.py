"""Information-set Monte Carlo tree search (determinized PUCT) over the Game/State contract.

Search is a policy like any other: the spec ``search:KEY=VALUE,...`` plays wherever ``random``,
``heuristic`` or a checkpoint path does (evaluation, self-play opponents and partners, release,
play and its hints). It uses nothing but the contract of ``envs.core.game`` (``resample_hidden``,
``legal_mask``, ``apply``, ``outcome``, ``observe``), so every registered game gets it.

Each simulation of a decision of seat ``s``:

1. draws a world for ``s``: ``state.resample_hidden(s, rng)`` deals anew everything ``s`` cannot
   see and redraws the future chance, so the search never reads the true hidden state;
2. descends one tree that all worlds share (keyed by the actions from the root and the seat to
   act, an open-loop information-set tree), choosing at each node among the actions legal *in this
   world* by PUCT: ``Q(a) + c * P(a) * sqrt(N) / (1 + N(a))``, where ``P`` is the prior
   renormalised over those actions and an unvisited action's ``Q`` is the node's first evaluation;
3. evaluates the first new node it reaches (or the end of the game), and backs the evaluation up:
   each node adds the value *of the seat that acts there*, so in a competitive game every seat
   maximises its own return and in a cooperative game every seat the team's.

Forced decisions (one legal action) are played through without a node. Values are on the
``win_loss`` scale: +1 for a winner (the whole team in a cooperative game), -1 otherwise, 0 for a
truncated game with no winner. A value head trained on shaped rewards (``Game.shaping_weight`` of
its checkpoint's options: Last Heroes' ``shaping_coef``, Last Bastion's ``reward_scheme="shaped"``)
estimates the result plus ``w * (Phi(end) - Phi(s))``, so a leaf adds ``w * shaping_potentials()``
and an end adds ``w * Phi(end)``: every value is then the shaped return from the start, and a reward
already paid inside the tree counts (without it, a search would put off every rewarded event, whose
reward its leaves no longer see). The decision is the most visited
root action (ties: the higher prior), or with ``temperature > 0`` a draw from the visit counts to
the power ``1/temperature``. When it only has to move (``act``, temperature 0, a budget of ``sims``)
it stops as soon as the most visited action leads by more than the simulations left: the move is
the one the whole budget would pick, for less CPU (``analyse`` always spends the budget, for the
visit shares).

The spec's keys (``python -m training.runtime.search --help`` prints this table too):

| Key | Default | Meaning |
|---|---|---|
| `prior` | `uniform` | P: `uniform`, `heuristic` (half on its move), `shipped` or a checkpoint path (policy head) |
| `leaf` | `value` (checkpoint prior), else `random` | a new node's value: `value` (the prior's value head, every |
| | | seat), or a playout to the end by `random`, `heuristic`, `shipped` or a checkpoint path |
| `sims` | `200` | simulations per decision (when `seconds` is not given) |
| `seconds` | - | CPU-seconds per decision (``time.process_time``), instead of `sims` |
| `c` | `1.5` | PUCT's exploration constant |
| `temperature` | `0` | 0: the most visited action; > 0: sample visits^(1/T) |
| `noise` | `0` | weight of Dirichlet noise on the root prior (self-play exploration) |
| `alpha` | `0.3` | the Dirichlet noise's concentration |
| `seed` | the caller's seed | the search's own generator (worlds, playouts, draws) |
| `prior_temp` | `1` | a checkpoint prior's logits / T (T > 1 flattens a near-certain prior: PUCT tries more moves) |
| `others` | - | a model of every other seat: `random`, `heuristic`, `shipped` or a checkpoint path plays their |
| | | moves inside the tree and the playouts (partners beside the bot, a known opponent); none: searched |

With ``others`` the tree holds only the deciding seat's decisions: the other seats' moves between two
of them are the model's, drawn in each world like chance. That is the search for a bot whose
partners (or opponents) are known to play a given policy, e.g. beside heuristic partners
(``search:prior=shipped,seconds=0.1,others=heuristic``); without it every seat is searched, which
assumes partners who search too.

Examples: ``search:prior=shipped,sims=400``, ``search:prior=checkpoints/last_heroes/last_heroes.json,seconds=1``,
``search:leaf=heuristic,sims=64``. A checkpoint prior brings its observation options along (its
``metadata``), as the checkpoint itself does.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import envs
from envs.core.game import State, play_forced

PREFIX = "search:"
PRIOR_WORDS = ("uniform", "heuristic", "shipped")
LEAF_WORDS = ("value", "random", "heuristic", "shipped")
OTHERS_WORDS = ("random", "heuristic", "shipped")


@dataclass(frozen=True)
class SearchConfig:
    """The settings of a search policy (see the module table)."""

    prior: str = "uniform"
    leaf: str | None = None  # None: "value" with a checkpoint prior, else "random"
    sims: int = 200
    seconds: float | None = None
    c: float = 1.5
    temperature: float = 0.0
    noise: float = 0.0
    alpha: float = 0.3
    seed: int | None = None
    prior_temp: float = 1.0
    others: str | None = None  # a policy spec playing every seat but the deciding one; None: searched

    @property
    def leaf_kind(self) -> str:
        if self.leaf is not None:
            return self.leaf
        return "value" if self.prior not in ("uniform", "heuristic") else "random"

    def to_spec(self) -> str:
        """The spec string that parses back to this config."""
        parts = [f"prior={self.prior}"]
        if self.leaf is not None:
            parts.append(f"leaf={self.leaf}")
        parts.append(f"seconds={self.seconds:g}" if self.seconds is not None else f"sims={self.sims}")
        defaults = SearchConfig()
        for key in ("c", "temperature", "noise", "alpha", "prior_temp"):
            if getattr(self, key) != getattr(defaults, key):
                parts.append(f"{key}={getattr(self, key):g}")
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        if self.others is not None:
            parts.append(f"others={self.others}")
        return PREFIX + ",".join(parts)


_NUMERIC = {
    "sims": (int, lambda v: v >= 1, "an integer >= 1"),
    "seconds": (float, lambda v: 0 < v <= 3600 and math.isfinite(v), "a number of CPU-seconds in (0, 3600]"),
    "c": (float, lambda v: 0 <= v <= 100 and math.isfinite(v), "a number in [0, 100]"),
    "temperature": (float, lambda v: 0 <= v <= 100 and math.isfinite(v), "a number in [0, 100]"),
    "noise": (float, lambda v: 0 <= v <= 1, "a number in [0, 1]"),
    "alpha": (float, lambda v: 0 < v <= 100 and math.isfinite(v), "a number in (0, 100]"),
    "seed": (int, lambda v: 0 <= v < 2**63, "an integer in [0, 2**63)"),
    "prior_temp": (float, lambda v: 0.1 <= v <= 100 and math.isfinite(v), "a number in [0.1, 100]"),
}
KEYS = ("prior", "leaf", *_NUMERIC, "others")


def is_search_spec(spec: Any) -> bool:
    return isinstance(spec, str) and spec.startswith(PREFIX)


def parse_spec(spec: str) -> SearchConfig:
    """``search:KEY=VALUE,...`` as a :class:`SearchConfig`; a ValueError names what is wrong."""
    if not is_search_spec(spec):
        raise ValueError(f"a search spec starts with {PREFIX!r}, got {spec!r}")
    body = spec[len(PREFIX) :].strip()
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in body.split(","))):
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not raw:
            raise ValueError(f"search spec {spec!r}: {item!r} is not KEY=VALUE")
        if key not in KEYS:
            raise ValueError(f"search spec {spec!r}: unknown key {key!r}; the keys are {', '.join(KEYS)}")
        if key in values:
            raise ValueError(f"search spec {spec!r}: {key} is given twice")
        if key in _NUMERIC:
            kind, ok, allowed = _NUMERIC[key]
            try:
                value = kind(raw) if kind is float else int(raw, 10)
            except ValueError:
                raise ValueError(f"search spec {spec!r}: {key}={raw!r} is not {allowed}") from None
            if not ok(value):
                raise ValueError(f"search spec {spec!r}: {key}={raw!r} is out of range; it must be {allowed}")
            values[key] = value
        else:
            values[key] = raw
    prior = values.get("prior", "uniform")
    if prior not in PRIOR_WORDS and not Path(prior).exists():
        raise ValueError(
            f"search spec {spec!r}: prior={prior!r} is neither one of {list(PRIOR_WORDS)} "
            "nor an existing checkpoint path"
        )
    leaf = values.get("leaf")
    if leaf is not None and leaf not in LEAF_WORDS and not Path(leaf).exists():
        raise ValueError(
            f"search spec {spec!r}: leaf={leaf!r} is neither one of {list(LEAF_WORDS)} nor an existing checkpoint path"
        )
    if leaf == "value" and prior in ("uniform", "heuristic"):
        raise ValueError(
            f"search spec {spec!r}: leaf=value reads the prior checkpoint's value head; give prior=PATH or "
            "prior=shipped, or a playout leaf (random, heuristic, a checkpoint)"
        )
    others = values.get("others")
    if others is not None and others not in OTHERS_WORDS and not Path(others).exists():
        raise ValueError(
            f"search spec {spec!r}: others={others!r} is neither one of {list(OTHERS_WORDS)} "
            "nor an existing checkpoint path"
        )
    return SearchConfig(**values)


# --------------------------------------------------------------------------------------------
# The tree
# --------------------------------------------------------------------------------------------


class Node:
    """One decision point of the shared tree: visits N and value sums W per action, for ``mover``.

    Plain Python lists, not numpy arrays: a node is read a few actions at a time, where one numpy
    call costs more than the whole Python loop (the search spent a fifth of its time in select)."""

    __slots__ = ("mover", "prior", "visits", "value_sum", "first_value", "children")

    def __init__(self, mover: int, prior: np.ndarray, first_value: float):
        self.mover = mover
        self.prior: list[float] = prior.tolist()
        self.visits: list[float] = [0.0] * len(self.prior)
        self.value_sum: list[float] = [0.0] * len(self.prior)
        self.first_value = first_value  # the first evaluation: the Q of unvisited actions
        self.children: dict[tuple[int, int], Node] = {}

    def select(self, legal: list[int], c: float) -> int:
        """PUCT over ``legal``: ``Q(a) + c * P(a) * sqrt(N + 1) / (1 + N(a))``, P renormalised over
        ``legal``; the first best action on ties."""
        prior, visits, value_sum = self.prior, self.visits, self.value_sum
        total_p = 0.0
        total_n = 0.0
        for a in legal:
            total_p += prior[a]
            total_n += visits[a]
        scale = c * math.sqrt(total_n + 1.0)
        uniform = total_p <= 0
        if uniform:
            scale /= len(legal)
        else:
            scale /= total_p
        first = self.first_value
        best, best_score = legal[0], -math.inf
        for a in legal:
            n = visits[a]
            q = value_sum[a] / n if n > 0 else first
            score = q + scale * ((1.0 if uniform else prior[a]) / (1.0 + n))
            if score > best_score:
                best, best_score = a, score
        return best


@dataclass
class SearchResult:
    """What one decision's search found: per action its visits and mean value for the decider."""

    action: int
    visits: np.ndarray
    q: np.ndarray
    prior: np.ndarray  # the root's prior as the network (or uniform, or heuristic) gave it, before noise
    simulations: int
    cpu_seconds: float
    legal: np.ndarray = field(repr=False)
    #: the decider's value of the root by its first evaluation (the value head or one playout)
    root_value: float = 0.0

    @property
    def shares(self) -> np.ndarray:
        """Visit shares over all actions (what expert iteration fits the policy to)."""
        total = self.visits.sum()
        return self.visits / total if total > 0 else self.visits

    def improved_policy(self, c_visit: float = 50.0, c_scale: float = 0.1) -> np.ndarray:
        """The prior improved by the search's values (Gumbel MuZero's target, Danihelka et al. 2022):
        ``softmax(log P(a) + (c_visit + max N) * c_scale * q(a))`` over the legal actions, ``q`` the
        completed Q (an unvisited action takes the prior-weighted mean of the visited ones' Q, mixed
        with the root's value) on a [0, 1] scale. Unlike visit shares, which follow the prior until
        the visits are many, it moves weight to every action the search found better.

        One departure from the paper: Q maps to [0, 1] by ``(q + 1) / 2``, the fixed win_loss scale,
        not by the tree's own minimum and maximum (which the paper uses for environments of unknown
        scale), so a spread of 0.03 between two nearly equal actions stays small instead of becoming
        the whole range. The prior is the network's, without the root's exploration noise."""
        legal = self.legal
        out = np.zeros(self.visits.shape[0])
        prior = self.prior[legal].astype(np.float64)
        prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(legal), 1.0 / len(legal))
        n, q = self.visits[legal], self.q[legal]
        visited = n > 0
        if not visited.any():
            out[legal] = prior
            return out
        weight = prior[visited].sum()
        mean_q = (prior[visited] * q[visited]).sum() / weight if weight > 0 else q[visited].mean()
        total = n.sum()
        v_mix = (self.root_value + total * mean_q) / (1.0 + total)
        completed = np.where(visited, q, v_mix)
        logits = np.log(np.maximum(prior, 1e-12)) + (c_visit + n.max()) * c_scale * (completed + 1.0) / 2.0
        p = np.exp(logits - logits.max())
        out[legal] = p / p.sum()
        return out

    @property
    def value(self) -> float:
        """The decider's expected value under the search's choice (visit-weighted mean of Q)."""
        total = self.visits.sum()
        return float((self.visits * self.q).sum() / total) if total > 0 else 0.0


def _decided(visits: list[float], legal: list[int], remaining: int) -> bool:
    """True when the most visited of ``legal`` leads every other by more than ``remaining`` visits,
    so no further simulations could change the most visited action (nor make a tie)."""
    first = second = -1.0
    for a in legal:
        n = visits[a]
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > remaining


def outcome_values(state: State) -> np.ndarray:
    """Every seat's value of a finished game on the win_loss scale (+1 winner, -1 otherwise;
    0 for everyone when a truncated game names no winner)."""
    outcome = state.outcome()
    n = state.game.num_players
    if outcome is None or (outcome.truncated and not outcome.winners):
        return np.zeros(n)
    values = -np.ones(n)
    values[list(outcome.winners)] = 1.0
    return values


class SearchPolicy:
    """Determinized PUCT as a :class:`training.runtime.policies.Policy` (see the module doc).

    ``act(observation, action_mask, state)`` needs the rules state, as the heuristic does; it
    reads only what the deciding seat may know (every simulation runs in a resampled world).
    :meth:`analyse` returns the whole :class:`SearchResult` (visit shares, values) for hints and
    for expert iteration. Not thread-safe.
    """

    def __init__(self, env_id: str, config: SearchConfig, seed: int | None = None):
        from training.runtime.policies import load_policy  # policies imports this module

        self.env_id = env_id
        self.config = config
        self.game_cls = envs.game_class(env_id)
        self.cooperative = bool(self.game_cls.cooperative)
        self.rng = np.random.default_rng(config.seed if config.seed is not None else seed)
        self.name = config.to_spec()
        self.last_result: SearchResult | None = None
        self._clean_prior: np.ndarray | None = None  # the root's prior before its noise
        self._prior_temp = float(config.prior_temp)
        self.net = None
        self.heuristic = None
        prior = _resolve_word(config.prior, env_id)
        if prior == "heuristic":
            self.heuristic = envs.heuristic_bot(env_id, seed=int(self.rng.integers(2**31)))
        elif prior != "uniform":
            self.net = load_policy(prior, env_id, seed=int(self.rng.integers(2**31)))
            self.metadata = self.net.metadata  # the game shows the search what its checkpoint expects
        leaf = config.leaf_kind
        # a value head trained on shaped rewards estimates the result plus w * (Phi(end) - Phi(s)):
        # leaves add w * Phi(s) and ends w * Phi(end), so every value is the shaped return from the
        # start, the network's own objective (Game.shaping_weight)
        trained = dict(getattr(self, "metadata", {}).get("env_options", {}))
        shaped = leaf == "value" and self.net is not None
        self._shaping = self.game_cls.shaping_weight(trained) if shaped else 0.0
        self._value_bound = 1.0 + abs(self._shaping) * self.game_cls.shaping_bound(trained)
        self.playout = None
        if leaf == "value":
            if self.net is None or not getattr(self.net, "has_value", False):
                raise ValueError(f"{self.name}: leaf=value needs a checkpoint prior saved with its value head")
        else:
            leaf = _resolve_word(leaf, env_id)
            self.playout = load_policy(leaf, env_id, seed=int(self.rng.integers(2**31)), deterministic=False)
            if self.metadata_of(self.playout) is not None and self.net is None:
                self.metadata = self.playout.metadata
        self._reads_observation = self.playout is not None and hasattr(self.playout, "metadata")
        self.others = None
        if config.others is not None:
            word = _resolve_word(config.others, env_id)
            self.others = load_policy(word, env_id, seed=int(self.rng.integers(2**31)), deterministic=False)
        self._others_read_observation = self.others is not None and hasattr(self.others, "metadata")
        self._seat = -1  # the deciding seat of the search under way

    @staticmethod
    def metadata_of(policy: Any) -> Mapping | None:
        meta = getattr(policy, "metadata", None)
        return meta if isinstance(meta, Mapping) else None

    # -- the policy protocol ---------------------------------------------------------------
    def act(self, observation: Any, action_mask: np.ndarray, state: State | None = None) -> int:
        if state is None:
            raise ValueError("the search policy needs the rules state: call act(observation, mask, state)")
        with _one_blas_thread():
            return self._analyse(state, decide_only=True).action

    # -- the search ------------------------------------------------------------------------
    def analyse(self, state: State) -> SearchResult:
        """Search the decision of ``state.current_player`` within the budget."""
        with _one_blas_thread():
            return self._analyse(state)

    def _analyse(self, state: State, decide_only: bool = False) -> SearchResult:
        """``decide_only``: only the move matters (not the visit shares), so a search on a budget of
        simulations stops once no simulation left could change the most visited action: the same
        move, for less CPU."""
        if state.is_over():
            raise ValueError("the game is over: there is no decision to search")
        cfg = self.config
        seat = int(state.current_player)
        root_mask = state.legal_mask()
        legal = np.flatnonzero(root_mask)
        num_actions = root_mask.shape[0]
        start = time.process_time()
        if len(legal) == 1:
            visits = np.zeros(num_actions)
            result = SearchResult(int(legal[0]), visits, np.zeros(num_actions), visits.copy(), 0, 0.0, legal)
            self.last_result = result
            return result
        root: Node | None = None
        self._clean_prior = None
        sims = 0
        deadline = start + cfg.seconds if cfg.seconds is not None else None
        stop_early = decide_only and deadline is None and cfg.temperature == 0
        legal_list = legal.tolist()
        while True:
            root = self._simulate(state, seat, root)
            sims += 1
            if deadline is not None:
                if time.process_time() >= deadline:
                    break
            elif sims >= cfg.sims:
                break
            elif stop_early and _decided(root.visits, legal_list, cfg.sims - sims):
                break
        visits = np.zeros(num_actions)
        visits[legal] = np.asarray(root.visits)[legal]
        value_sum = np.asarray(root.value_sum)
        q = np.where(visits > 0, value_sum / np.maximum(visits, 1.0), 0.0)
        action = self._choose(visits, np.asarray(root.prior), legal)
        # the prior as the network gave it: root noise only steers the visits, it is no one's policy
        prior = self._clean_prior if self._clean_prior is not None else np.asarray(root.prior)
        self._clean_prior = None
        result = SearchResult(action, visits, q, prior, sims, time.process_time() - start, legal, root.first_value)
        self.last_result = result
        return result

    def _choose(self, visits: np.ndarray, prior: np.ndarray, legal: np.ndarray) -> int:
        t = self.config.temperature
        n = visits[legal]
        if t > 0 and n.sum() > 0:
            weights = n ** (1.0 / t)
            return int(legal[self.rng.choice(len(legal), p=weights / weights.sum())])
        best = np.flatnonzero(n == n.max())
        return int(legal[best[np.argmax(prior[legal][best])]])

    def _simulate(self, state: State, seat: int, root: Node | None) -> Node:
        self._seat = seat  # the playouts' own seat (the others are the model's)
        world = state.resample_hidden(seat, self.rng)
        if root is None:  # the first simulation only evaluates the root
            root = self._expand(world)
            if self.config.noise > 0:
                self._add_noise(root, world.legal_actions())
            return root
        path: list[tuple[Node, int]] = []
        node = root
        c = self.config.c
        while True:
            action = node.select(world.legal_actions(), c)
            path.append((node, action))
            world.apply(action)
            play_forced(world)
            if self.others is not None:
                self._play_others(world, seat)
            if world.is_over():
                values = outcome_values(world)
                if self._shaping:  # what the shaping paid (0 for a potential, which vanishes at the end)
                    values = values + self._shaping * np.asarray(world.shaping_potentials(), np.float64)
                break
            key = (action, int(world.current_player))
            child = node.children.get(key)
            if child is None:
                child = self._expand(world)
                node.children[key] = child
                values = self._leaf_values
                break
            node = child
        values = values.tolist()  # Python floats: the node lists stay plain
        for node, action in path:
            node.visits[action] += 1.0
            node.value_sum[action] += values[node.mover]
        return root

    def _expand(self, world: State) -> Node:
        """A new node at ``world``'s decision: its prior, and the leaf evaluation (kept in
        ``_leaf_values`` for the backup)."""
        mover = int(world.current_player)
        n = world.game.num_players
        mask = world.legal_mask()
        obs = None
        if self.net is not None:
            obs = world.observe(mover)
            logits = self.net.logits(obs[None, :])[0].astype(np.float64)
            if self._prior_temp != 1.0:
                logits = logits / self._prior_temp
            logits[mask == 0] = -np.inf
            prior = np.exp(logits - logits.max())
            prior /= prior.sum()
        elif self.heuristic is not None:
            prior = mask.astype(np.float64) * (0.5 / max(int(mask.sum()), 1))
            prior[int(self.heuristic.act_state(world))] += 0.5
        else:
            prior = mask.astype(np.float64)
            prior /= prior.sum()
        if self.playout is None:  # the value head, for every seat (one seat speaks for a team)
            if self.cooperative:
                values = np.full(n, float(self.net.values(obs[None, :])[0]))
            else:
                rows = np.stack([obs if s == mover else world.observe(s) for s in range(n)])
                values = self.net.values(rows).astype(np.float64)
            if self._shaping:
                values = values + self._shaping * np.asarray(world.shaping_potentials(), np.float64)
            values = np.clip(values, -self._value_bound, self._value_bound)
        else:
            values = self._playout(world.clone())
        self._leaf_values = values
        return Node(mover, prior, float(values[mover]))

    def _play_others(self, world: State, seat: int) -> None:
        """Play the modelled seats' moves until ``seat`` decides again or the game ends."""
        others = self.others
        reads_obs = self._others_read_observation
        limit = 10 * world.game.max_game_length() + 1000
        for _ in range(limit):
            if world.is_over():
                return
            mover = world.current_player
            if mover == seat:
                return
            obs = world.observe(mover) if reads_obs else None
            world.apply(int(others.act(obs, world.legal_mask(), world)))
            play_forced(world)
        raise RuntimeError(f"the other seats' model played past {limit} decisions without handing back")

    def _playout(self, world: State) -> np.ndarray:
        seat, others = self._seat, self.others
        limit = 10 * world.game.max_game_length() + 1000
        for _ in range(limit):
            play_forced(world)
            if world.is_over():
                return outcome_values(world)
            mover = world.current_player
            if others is not None and mover != seat:
                policy, reads_obs = others, self._others_read_observation
            else:
                policy, reads_obs = self.playout, self._reads_observation
            obs = world.observe(mover) if reads_obs else None
            world.apply(int(policy.act(obs, world.legal_mask(), world)))
        raise RuntimeError(f"a playout ran past {limit} decisions without ending")

    def _add_noise(self, root: Node, legal: np.ndarray) -> None:
        eps = self.config.noise
        noise = self.rng.dirichlet([self.config.alpha] * len(legal))
        prior = np.asarray(root.prior)
        self._clean_prior = prior.copy()
        prior[legal] = (1 - eps) * prior[legal] / max(prior[legal].sum(), 1e-12) + eps * noise
        root.prior = prior.tolist()

    def __repr__(self) -> str:
        return f"SearchPolicy({self.env_id!r}, {self.config.to_spec()!r})"


_BLAS = None


def _one_blas_thread():
    """A context with numpy's BLAS on one thread: the search's vector products are small, and a
    second BLAS thread that has to be woken (or waits for a busy core) made each one 20-50x slower
    here (6 ms instead of 0.13 ms for one observation through a [256, 256] network)."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _resolve_word(spec: str, env_id: str) -> str:
    """``shipped`` -> the game's shipped checkpoint path (a clear error when it has none)."""
    if spec != "shipped":
        return spec
    from training.playing.session import shipped_checkpoint

    path = shipped_checkpoint(env_id)
    if path is None:
        raise ValueError(f"{env_id} has no shipped checkpoint for 'shipped'")
    return str(path)


def load_search_policy(spec: str, env_id: str, seed: int | None = None) -> SearchPolicy:
    """The search policy a ``search:...`` spec names."""
    return SearchPolicy(env_id, parse_spec(spec), seed=seed)


def spec_table() -> str:
    """The module doc's table of keys (for --help)."""
    lines = __doc__.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("| Key |"))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    return "\n".join(lines[start:end])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.runtime.search",
        description="Search one position: play SEED's game to DECISION by the heuristic, then print the "
        "search's visit shares.\n\n" + spec_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("env_id", choices=list(envs.ENV_IDS))
    parser.add_argument("spec", help="a search spec, e.g. search:prior=shipped,sims=200")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decision", type=int, default=0, help="heuristic decisions played before the search")
    args = parser.parse_args(argv)
    try:
        policy = load_search_policy(args.spec, args.env_id, seed=args.seed)
    except ValueError as e:
        parser.error(str(e))
    from training.runtime.policies import observation_options

    game_cls = envs.game_class(args.env_id)
    players = args.players or game_cls.min_players
    game = game_cls(num_players=players, **observation_options(args.env_id, [policy], {}))
    state = game.new_state(args.seed)
    bot = envs.heuristic_bot(args.env_id, seed=args.seed)
    for _ in range(args.decision):
        play_forced(state)
        if state.is_over():
            break
        state.apply(int(bot.act_state(state)))
    play_forced(state)
    if state.is_over():
        parser.error("the game ended before that decision")
    result = policy.analyse(state)
    print(f"seat {state.current_player}: {result.simulations} simulations in {result.cpu_seconds:.2f} CPU-s")
    order = result.legal[np.argsort(-result.visits[result.legal])]
    for a in order:
        mark = "*" if a == result.action else " "
        print(
            f"{mark} {a:4d} {result.shares[a]:6.1%}  Q {result.q[a]:+.3f}  prior {result.prior[a]:.3f}  "
            f"{state.describe_action(int(a))}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
