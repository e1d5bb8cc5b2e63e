"""A herozoo game as a TorchRL env: spec check, masked rollouts, the global state.

    python examples/torchrl_rollout.py last_heroes_v0 --players 2
    python examples/torchrl_rollout.py last_bastion_v0 --players 2 --steps 300 --policy mlp
    python examples/torchrl_rollout.py lost_legends_v0 --players 3 --param reward_scheme=rank

``PettingZooWrapper(env, use_mask=True, return_state=True, group_map=ALL_IN_ONE_GROUP)`` puts every
seat in one group, ``"agents"``, so one network can read them all: ``("agents", "observation",
"observation")`` is ``[n_seats, observation_size]``, ``("agents", "mask")`` says which seat acts
(AEC: exactly one), ``("agents", "action_mask")`` is that seat's legal mask (the other seats' rows
are all True: their actions are ignored), ``("agents", "info")`` holds the lean infos (``winners``,
``end_reason``; TorchRL keeps them as float32), and ``"state"`` is ``env.state()``: every seat's
observation concatenated, which the script checks row by row. ``check_env_specs`` passes; the
script then rolls out a seeded masked random policy and a tiny MLP ``ProbabilisticActor`` with
``MaskedCategorical``, over several whole games (the wrapper resets when every seat is done), and
checks that the acting seat's action is legal under its mask at every step.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import torch
from tensordict import TensorDictBase
from tensordict.nn import TensorDictModule
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType, check_env_specs
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor

import envs

GROUP = "agents"  # MarlGroupMapType.ALL_IN_ONE_GROUP's name
OBS = (GROUP, "observation", "observation")  # the Dict observation minus its action_mask
ACTION, ACTION_MASK, ACTING = (GROUP, "action"), (GROUP, "action_mask"), (GROUP, "mask")


def make_env(env_id: str, num_players: int, *, seed: int = 0, return_state: bool = True, **params: Any):
    """The herozoo AEC env in TorchRL's ``PettingZooWrapper`` (seeded: ``reset(seed)``, then its generator)."""
    with warnings.catch_warnings():  # TorchRL names the PettingZoo version it is tested with (1.24.3)
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(
            envs.make(env_id, num_players=num_players, **params),
            use_mask=True,
            return_state=return_state,
            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
            categorical_actions=True,
            seed=seed,
        )


def masked_random_policy(seed: int = 0) -> Callable[[TensorDictBase], TensorDictBase]:
    """Uniform over each seat's ``action_mask``, from its own generator (``env.rand_action`` also
    respects the mask, but draws from torch's global generator)."""
    generator = torch.Generator().manual_seed(seed)

    def policy(td: TensorDictBase) -> TensorDictBase:
        mask = td.get(ACTION_MASK).float()  # [n_seats, num_actions]
        td.set(ACTION, torch.multinomial(mask, 1, generator=generator).squeeze(-1))
        return td

    return policy


def masked_mlp_policy(env, hidden: int = 64) -> ProbabilisticActor:
    """A tiny shared MLP: logits for every seat, sampled through ``MaskedCategorical`` (illegal actions: -inf)."""
    obs_size = env.observation_spec[OBS].shape[-1]
    num_actions = env.full_action_spec[ACTION].space.n
    net = TensorDictModule(
        MLP(in_features=obs_size, out_features=num_actions, num_cells=[hidden]),
        in_keys=[OBS],
        out_keys=[(GROUP, "logits")],
    )
    return ProbabilisticActor(
        net,
        in_keys={"logits": (GROUP, "logits"), "mask": ACTION_MASK},
        out_keys=[ACTION],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=(GROUP, "log_prob"),
    )


def check_rollout(td: TensorDictBase) -> dict[str, Any]:
    """What a rollout shows: one acting seat per step, its action legal, ``state`` = the seats' observations."""
    acting = td.get(ACTING)  # [T, n_seats]
    if not bool((acting.sum(-1) == 1).all()):
        raise AssertionError("a step without exactly one acting seat")
    steps = torch.arange(acting.shape[0])
    seat = acting.int().argmax(-1)
    action = td.get(ACTION)[steps, seat]
    illegal = int((~td.get(ACTION_MASK)[steps, seat, action]).sum())
    done = td.get(("next", "done")).squeeze(-1)
    final_winners = td.get(("next", GROUP, "info", "winners"))[done][:, 0]  # every seat holds the same vector
    report = {
        "steps": int(acting.shape[0]),
        "games_finished": int(done.sum()),
        "illegal_actions": illegal,
        "wins_per_seat": final_winners.sum(0).int().tolist(),
        "end_reasons": td.get(("next", GROUP, "info", "end_reason"))[done][:, 0].int().tolist(),
    }
    if "state" in td.keys():
        observations = td.get(OBS).flatten(-2)  # seat order: player_0 first
        report["state_is_concatenated_observations"] = bool(torch.equal(td.get("state"), observations))
    return report


def rollout(env, policy, steps: int) -> TensorDictBase:
    """``steps`` steps, resetting after each finished game (``break_when_any_done=False``)."""
    with torch.no_grad():
        return env.rollout(steps, policy=policy, break_when_any_done=False)


def run(
    env_id: str,
    num_players: int,
    steps: int = 200,
    seed: int = 0,
    policies: Sequence[str] = ("random", "mlp"),
    **params: Any,
) -> dict[str, dict[str, Any]]:
    """check_env_specs, then a rollout per policy; returns each rollout's :func:`check_rollout` report."""
    torch.manual_seed(seed)
    env = make_env(env_id, num_players, seed=seed, **params)
    check_env_specs(env, seed=seed)
    reports = {}
    for name in policies:
        policy = masked_random_policy(seed) if name == "random" else masked_mlp_policy(env)
        reports[name] = check_rollout(rollout(env, policy, steps))
    env.close()
    return reports


def _param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--param wants KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", nargs="?", default="last_heroes_v0", choices=envs.ENV_IDS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=200, help="rollout length (several games: resets included)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=["random", "mlp", "both"], default="both")
    parser.add_argument("--param", type=_param, action="append", default=[], help="a game option, KEY=VALUE")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    policies = ["random", "mlp"] if args.policy == "both" else [args.policy]
    reports = run(args.env_id, args.players, args.steps, args.seed, policies, **dict(args.param))
    print(f"{args.env_id} ({args.players} players): check_env_specs passed")
    for name, report in reports.items():
        print(
            f"  {name:6s} policy: {report['steps']} steps, {report['games_finished']} games finished, "
            f"{report['illegal_actions']} illegal actions, wins per seat {report['wins_per_seat']}, "
            f"state() == concatenated observations: {report.get('state_is_concatenated_observations')}"
        )
    return reports


if __name__ == "__main__":
    main()
