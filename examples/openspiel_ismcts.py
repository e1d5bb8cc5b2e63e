"""OpenSpiel's own ISMCTS bot playing whole games of a herozoo game, through envs.openspiel.

    python examples/openspiel_ismcts.py last_heroes_v0 --players 2 --games 2 --simulations 20
    python examples/openspiel_ismcts.py lost_legends_v0 --players 3 --random-seats 1 2 --simulations 10
    python examples/openspiel_ismcts.py last_bastion_v0 --players 2 --param difficulty=novice

Every seat is an ``ISMCTSBot`` (random rollouts, one bot per seat) unless ``--random-seats`` gives
it to OpenSpiel's uniform random bot. The search keys its tree on observation strings (herozoo has
no perfect-recall information state) and redeals hidden information with the game's
``resample_hidden`` through a seeded resampler, so a run is reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from envs import openspiel


def make_bot(game, seat: int, simulations: int, seed: int, uct_c: float):
    rng = np.random.RandomState(seed + 1000 * seat)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=uct_c, max_simulations=simulations, random_state=rng, use_observation_string=True
    )
    bot.set_resampler(openspiel.seeded_resampler(seed + 1000 * seat + 1))
    return bot


def play(game, bots, searching: set[int]) -> tuple[list[float], int, int]:
    """One whole game; returns (returns, decisions, decisions searched by a ``searching`` seat)."""
    state = game.new_initial_state()
    decisions = searched = 0
    while not state.is_terminal():
        seat = state.current_player()
        searched += seat in searching and len(state.legal_actions()) > 1  # ISMCTS skips forced moves
        state.apply_action(bots[seat].step(state))
        decisions += 1
    return state.returns(), decisions, searched


def parse_param(text: str) -> tuple[str, object]:
    """``name=value``: the value read as JSON (``3``, ``0.5``, ``true``), else kept as a string."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--param wants name=value, got {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, {"True": True, "False": False}.get(value, value)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("env_id", help="a registered herozoo env id, e.g. last_heroes_v0")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the game's)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20, help="ISMCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--random-seats", type=int, nargs="*", default=[], help="seats played by a random bot")
    parser.add_argument(
        "--param", type=parse_param, action="append", default=[], help="a game parameter, e.g. difficulty=novice"
    )
    args = parser.parse_args(argv)

    params = dict(args.param) | {"seed": args.seed}
    if args.players is not None:
        params["players"] = args.players
    game = openspiel.load_game(args.env_id, **params)
    n = game.num_players()
    bots = [
        pyspiel.make_uniform_random_bot(seat, args.seed + seat)
        if seat in args.random_seats
        else make_bot(game, seat, args.simulations, args.seed, args.uct_c)
        for seat in range(n)
    ]
    searching = {seat for seat in range(n) if seat not in args.random_seats}
    kinds = ["random" if seat in args.random_seats else f"ismcts({args.simulations})" for seat in range(n)]
    print(f"{game}\nseats: {', '.join(f'{seat}={kind}' for seat, kind in enumerate(kinds))}")

    results = []
    started = time.perf_counter()
    searched_total = 0
    for g in range(args.games):
        t = time.perf_counter()
        returns, decisions, searched = play(game, bots, searching)
        searched_total += searched
        results.append(returns)
        shown = " ".join(f"{r:+.2f}" for r in returns)
        print(f"game {g + 1}: returns [{shown}]  {decisions} decisions, {time.perf_counter() - t:.1f}s")
    elapsed = time.perf_counter() - started
    mean = np.mean(results, axis=0).tolist() if results else []
    print(f"mean returns: [{' '.join(f'{r:+.2f}' for r in mean)}]  in {elapsed:.1f}s")
    if searched_total and elapsed > 0:
        print(f"{searched_total} searches, {searched_total * args.simulations / elapsed:.0f} simulations per second")
    return {
        "game": str(game),
        "seats": kinds,
        "returns": results,
        "mean": mean,
        "searches": searched_total,
        "seconds": elapsed,
    }


if __name__ == "__main__":
    main()
