"""Which SuperSuit wrappers a herozoo env takes, shown by playing whole games through them.

    python examples/supersuit_wrappers.py last_heroes_v0 --players 2
    python examples/supersuit_wrappers.py last_bastion_v0 --players 2 --games 3
    python examples/supersuit_wrappers.py lost_legends_v0 --players 3 --no-tictactoe

A masked random policy plays every game, reading the action mask from the observation the wrapped
env returns. Three groups:

- **Work on the AEC env:** ``clip_reward_v0``, ``reward_lambda_v0``, ``action_lambda_v1``,
  ``pad_action_space_v0`` (a no-op: every seat has the same action space), and
  ``observation_lambda_v0`` *when you pass ``change_obs_space_fn``*: then it can change the vector
  inside the Dict and keep the mask (below it appends a one-hot of the seat, what
  ``agent_indicator_v0`` would do).
- **Work after PettingZoo's ``turn_based_aec_to_parallel``** (PettingZoo's conversion, not
  SuperSuit's): every seat sends an action each step and only the acting seat's counts. SuperSuit's
  parallel reward wrappers and ``pettingzoo_env_to_vec_env_v1`` + ``concat_vec_envs_v1`` (a Gymnasium
  ``VectorEnv`` with one slot per seat, Dict observations stacked) play whole games there. A learner
  on that vector env must skip the slots whose mask is all zeros: they did not act. Its auto-reset
  merges the next game's infos over the final step's, and the lean keys are the same, so the final
  ``winners``/``end_reason`` are lost there: read the outcome from the rewards. The conversion also
  writes a string ``active_agent`` into every live seat's info.
- **Do not apply.** The observation wrappers (``dtype_v0``, ``flatten_v0``, ``normalize_obs_v0``,
  ``frame_stack_v1``, ``agent_indicator_v0``, ``pad_observations_v0``, ``color_reduction_v0``,
  ``resize_v1``, ``reshape_v0``) and ``black_death_v3`` want a Box observation and fail on the Dict
  ``{"observation", "action_mask"}`` (exactly as on PettingZoo's own ``tictactoe_v3``, shown beside it).
  Wrappers that replay or delay things (``sticky_actions_v0``, ``frame_skip_v0``,
  ``delay_observations_v0``, ``max_observation_v0``) break the mask: an action chosen under it
  becomes illegal, and herozoo raises ``IllegalActionError`` (tictactoe ends the game instead).
  ``clip_actions_v0`` and ``scale_actions_v0`` are for Box actions.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import supersuit as ss
from gymnasium import spaces
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import envs
from envs.core.game import IllegalActionError


class NoLegalAction(RuntimeError):
    """The wrapped env's observation showed the acting seat no usable mask (empty, or no mask at all)."""


def mask_of(obs: Any) -> np.ndarray:
    if not isinstance(obs, dict) or "action_mask" not in obs:
        raise NoLegalAction(f"the observation is a {type(obs).__name__}, not a Dict with an action_mask")
    return np.asarray(obs["action_mask"])


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise NoLegalAction("the mask in the observation allows no action")
    return int(rng.choice(legal))


@dataclass
class PlayReport:
    games: int = 0
    moves: int = 0
    returns: list[list[float]] = field(default_factory=list)  # per game, per seat in possible_agents order
    end_reasons: list[int] = field(default_factory=list)


def play_aec(env, games: int, seed: int = 0) -> PlayReport:
    """``games`` whole games of masked random play on an AEC env (wrapped or not)."""
    rng = np.random.default_rng(seed)
    report = PlayReport()
    for game in range(games):
        env.reset(seed=seed if game == 0 else None)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        info: dict = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += float(reward)
            if term or trunc:
                env.step(None)
                continue
            env.step(masked_random(mask_of(obs), rng))
            report.moves += 1
        report.games += 1
        report.returns.append([totals[a] for a in env.possible_agents])
        report.end_reasons.append(int(info.get("end_reason", -1)))
    return report


def play_parallel(penv, games: int, seed: int = 0) -> PlayReport:
    """Whole games on a ParallelEnv: each step the seat with a non-empty mask acts, the others send 0."""
    rng = np.random.default_rng(seed)
    report = PlayReport()
    for game in range(games):
        observations, infos = penv.reset(seed=seed if game == 0 else None)
        totals = dict.fromkeys(penv.possible_agents, 0.0)
        while penv.agents:
            actions = {}
            for agent in penv.agents:
                mask = mask_of(observations[agent])
                actions[agent] = masked_random(mask, rng) if mask.any() else 0
            report.moves += 1
            observations, rewards, terms, truncs, infos = penv.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += float(reward)
            if all(terms.values()) or all(truncs.values()):
                break
        report.games += 1
        report.returns.append([totals[a] for a in penv.possible_agents])
        report.end_reasons.append(int(next(iter(infos.values()))["end_reason"]))
    return report


def play_vector(venv, num_seats: int, games: int, seed: int = 0) -> PlayReport:
    """Whole games on SuperSuit's vector env of seats (``num_envs`` = copies x seats, auto-reset)."""
    rng = np.random.default_rng(seed)
    report = PlayReport()
    observations, _ = venv.reset(seed=seed)
    copies = venv.num_envs // num_seats
    totals = np.zeros((copies, num_seats))
    while report.games < games:
        masks = observations["action_mask"]
        actions = np.array([masked_random(m, rng) if m.any() else 0 for m in masks])
        observations, rewards, terms, truncs, infos = venv.step(actions)
        report.moves += copies
        totals += np.asarray(rewards).reshape(copies, num_seats)
        done = (np.asarray(terms) | np.asarray(truncs)).reshape(copies, num_seats).all(axis=1)
        for copy in np.flatnonzero(done):
            report.games += 1
            report.returns.append(totals[copy].tolist())
            report.end_reasons.append(int(infos[copy * num_seats]["end_reason"]))
            totals[copy] = 0.0
    return report


def seat_indicator(env):
    """``agent_indicator_v0`` by hand: ``observation_lambda_v0`` with the new Dict space spelled out."""
    n = len(env.possible_agents)
    seat = {agent: i for i, agent in enumerate(env.possible_agents)}

    def new_space(space: spaces.Dict, agent: str) -> spaces.Dict:
        box = space["observation"]
        low = np.concatenate([box.low, np.zeros(n, np.float32)])
        high = np.concatenate([box.high, np.ones(n, np.float32)])
        return spaces.Dict(
            {"observation": spaces.Box(low, high, dtype=np.float32), "action_mask": space["action_mask"]}
        )

    def new_obs(obs: dict, space: spaces.Dict, agent: str) -> dict:
        one_hot = np.zeros(n, np.float32)
        one_hot[seat[agent]] = 1.0
        return {"observation": np.concatenate([obs["observation"], one_hot]), "action_mask": obs["action_mask"]}

    return ss.observation_lambda_v0(env, new_obs, new_space)


#: wrappers that play whole herozoo games on the AEC env
AEC_WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "clip_reward_v0(-0.5, 0.5)": lambda env: ss.clip_reward_v0(env, lower_bound=-0.5, upper_bound=0.5),
    "reward_lambda_v0(10 * r)": lambda env: ss.reward_lambda_v0(env, lambda reward: 10 * reward),
    "action_lambda_v1(identity)": lambda env: ss.action_lambda_v1(env, lambda action, space: action, lambda s: s),
    "pad_action_space_v0": lambda env: ss.pad_action_space_v0(env),
    "observation_lambda_v0(+seat one-hot)": seat_indicator,
}

#: conversions to parallel and vector envs, with SuperSuit wrappers there
PARALLEL_WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "turn_based_aec_to_parallel": lambda env: turn_based_aec_to_parallel(env),
    "turn_based_aec_to_parallel + clip_reward_v0": lambda env: ss.clip_reward_v0(
        turn_based_aec_to_parallel(env), lower_bound=-0.5, upper_bound=0.5
    ),
}
VECTOR_WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "pettingzoo_env_to_vec_env_v1": lambda env: ss.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(env)),
    "pettingzoo_env_to_vec_env_v1 + concat_vec_envs_v1(2)": lambda env: ss.concat_vec_envs_v1(
        ss.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(env)), 2, num_cpus=0, base_class="gymnasium"
    ),
}

#: wrappers that do not apply: the observation wrappers want a Box, the others break the mask
BOX_ONLY_WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "dtype_v0": lambda env: ss.dtype_v0(env, np.float16),
    "flatten_v0": lambda env: ss.flatten_v0(env),
    "normalize_obs_v0": lambda env: ss.normalize_obs_v0(env),
    "frame_stack_v1": lambda env: ss.frame_stack_v1(env, 2),
    "agent_indicator_v0": lambda env: ss.agent_indicator_v0(env),
    "pad_observations_v0": lambda env: ss.pad_observations_v0(env),
    "color_reduction_v0": lambda env: ss.color_reduction_v0(env),
    "resize_v1": lambda env: ss.resize_v1(env, 4, 4),
    "reshape_v0": lambda env: ss.reshape_v0(env, (4,)),
    "black_death_v3 (parallel)": lambda env: ss.black_death_v3(turn_based_aec_to_parallel(env)),
    "clip_actions_v0": lambda env: ss.clip_actions_v0(env),
    "scale_actions_v0": lambda env: ss.scale_actions_v0(env, 2.0),
}
MASK_BREAKING_WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "sticky_actions_v0(0.5)": lambda env: ss.sticky_actions_v0(env, 0.5),
    "frame_skip_v0(2)": lambda env: ss.frame_skip_v0(env, 2),
    "delay_observations_v0(1)": lambda env: ss.delay_observations_v0(env, 1),
    "max_observation_v0(2)": lambda env: ss.max_observation_v0(env, 2),
}


@dataclass
class Row:
    wrapper: str
    group: str  # "aec", "parallel", "vector", "box-only", "mask-breaking"
    works: bool
    detail: str
    report: PlayReport | None = None


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).splitlines()[0][:100]}"


def _try_play(name: str, group: str, build: Callable[[], Any], play: Callable[[Any], PlayReport]) -> Row:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PettingZoo's "not generally safe" and tictactoe's illegal-move notes
            env = build()
            report = play(env)
    except (AssertionError, AttributeError, TypeError, ValueError, IllegalActionError, NoLegalAction) as exc:
        return Row(name, group, False, _error(exc))
    seen = sorted({round(r, 3) for game in report.returns for r in game})
    return Row(name, group, True, f"{report.games} games, {report.moves} moves, seat returns seen {seen}", report)


def survey(env_id: str, num_players: int, games: int = 2, seed: int = 0, **params: Any) -> list[Row]:
    """Every wrapper above on ``env_id``: whole games where it applies, the error where it does not."""

    def make():
        return envs.make(env_id, num_players=num_players, **params)

    rows = []
    for name, wrap in AEC_WRAPPERS.items():
        rows.append(_try_play(name, "aec", lambda w=wrap: w(make()), lambda e: play_aec(e, games, seed)))
    for name, wrap in PARALLEL_WRAPPERS.items():
        rows.append(_try_play(name, "parallel", lambda w=wrap: w(make()), lambda e: play_parallel(e, games, seed)))
    for name, wrap in VECTOR_WRAPPERS.items():
        play = lambda e: play_vector(e, num_players, games, seed)  # noqa: E731
        rows.append(_try_play(name, "vector", lambda w=wrap: w(make()), play))
    for name, wrap in BOX_ONLY_WRAPPERS.items():
        play = lambda e: play_parallel(e, 1, seed) if hasattr(e, "aec_env") else play_aec(e, 1, seed)  # noqa: E731
        rows.append(_try_play(name, "box-only", lambda w=wrap: w(make()), play))
    for name, wrap in MASK_BREAKING_WRAPPERS.items():
        rows.append(_try_play(name, "mask-breaking", lambda w=wrap: w(make()), lambda e: play_aec(e, games, seed)))
    return rows


def tictactoe_box_only(seed: int = 0) -> list[Row]:
    """The Box-only observation wrappers on PettingZoo's ``tictactoe_v3``: they fail there too."""
    with warnings.catch_warnings():  # PettingZoo's note on its old creation API
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import tictactoe_v3

    rows = []
    for name, wrap in BOX_ONLY_WRAPPERS.items():
        if name in ("black_death_v3 (parallel)", "clip_actions_v0", "scale_actions_v0"):
            continue
        rows.append(_try_play(name, "box-only", lambda w=wrap: w(tictactoe_v3.env()), lambda e: play_aec(e, 1, seed)))
    return rows


def _param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--param wants KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", nargs="?", default="last_heroes_v0", choices=envs.ENV_IDS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="whole games per working wrapper")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-tictactoe", action="store_true", help="skip the comparison with tictactoe_v3")
    parser.add_argument("--param", type=_param, action="append", default=[], help="a game option, KEY=VALUE")
    args = parser.parse_args(argv)
    rows = survey(args.env_id, args.players, args.games, args.seed, **dict(args.param))
    titles = {
        "aec": "work on the AEC env",
        "parallel": "work after turn_based_aec_to_parallel",
        "vector": "SuperSuit vector envs of seats",
        "box-only": "do not apply: want a Box observation (or Box actions)",
        "mask-breaking": "do not apply: break the action mask",
    }
    print(f"{args.env_id} ({args.players} players), masked random play")
    for group, title in titles.items():
        print(f"\n{title}:")
        for row in rows:
            if row.group == group:
                print(f"  {'ok ' if row.works else 'no '} {row.wrapper:52s} {row.detail}")
    if not args.no_tictactoe:
        try:
            tictactoe = tictactoe_box_only(args.seed)
        except ImportError:  # pettingzoo[classic] not installed
            tictactoe = []
        if tictactoe:
            print("\nthe same observation wrappers on pettingzoo.classic.tictactoe_v3:")
            for row in tictactoe:
                print(f"  {'ok ' if row.works else 'no '} {row.wrapper:52s} {row.detail}")
            rows += tictactoe
    return rows


if __name__ == "__main__":
    main()
