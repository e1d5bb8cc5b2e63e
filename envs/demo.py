"""Play one game between heuristic bots and print it, decision by decision.

python -m envs.demo [--env last_heroes_v0] [--players 3] [--seed 0] [--quiet]
"""

from __future__ import annotations

import argparse

import envs


def play(env_id: str, num_players: int | None, seed: int, show: bool = True) -> dict:
    """Heuristic bots at every seat through the AEC API; returns the final infos of player_0."""
    options = {} if num_players is None else {"num_players": num_players}
    env = envs.make(env_id, render_mode="ansi", **options)
    env.reset(seed=seed)
    bots = {agent: envs.heuristic_bot(env_id, seed=seed + i) for i, agent in enumerate(env.possible_agents)}
    final_info: dict = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final_info = final_info or info
            if show:
                print(f"{agent}: reward {reward:+.2f}")
            env.step(None)
            continue
        action = bots[agent].act_state(env.game_state)
        if show:
            phase = f" [{info['phase']}]" if "phase" in info else ""
            print(f"{agent}{phase}: {env.describe_action(action)}")
        env.step(action)
    if show:
        print(env.game_state.render())
    outcome = env.game_state.outcome()
    final_info["outcome"] = None if outcome is None else outcome.to_json()
    return final_info


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="last_heroes_v0", choices=envs.ENV_IDS)
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the final board")
    args = parser.parse_args(argv)
    info = play(args.env, args.players, args.seed, show=not args.quiet)
    outcome = info["outcome"]
    print(f"winners {outcome['winners']} ({outcome['reason']})" if outcome else "the game did not end")


if __name__ == "__main__":
    main()
