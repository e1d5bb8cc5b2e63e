"""Behaviour pinned by a recorded corpus: games recorded on the engine before the package was
reshaped (commit d42cbe1) must replay step for step.

data/replay.json.gz holds 12 games (1-4 players; random legal play from a seeded rng, and the
heuristic playing every seat; difficulty, reward scheme and effect order varied by seed) with, per
step: the player to act, hashes of every seat's observation (through the memo and written from scratch
by ``layout.encode_plain``, which replaced the fast and reference encoders of the recording; plain and
with obs_card_ids + obs_hints), of the legal mask and of ``to_json()``, the heuristic's choice, the
action and the rewards; and each game's final JSON, outcome, returns and scores. Also 6 mid-game
``to_json()`` states of that engine, which must load and play on as they did. Text is not pinned.
Recorded with /tmp/last_bastion_corpus/corpus.py (SEEDS=2 BOT_SEEDS=1); the full corpus of 136
games is kept outside the repository.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from envs.last_bastion.game import LastBastionGame
from envs.last_bastion.heuristic import HeuristicBot

DATA = json.loads(gzip.decompress((Path(__file__).parent / "data" / "replay.json.gz").read_bytes()))
DIFFICULTIES = ("novice", "normal", "difficult", "heroic")
SCHEMES = ("win_loss", "score_sheet", "shaped")


def options(n: int, seed: int) -> dict:
    return dict(
        num_players=n,
        difficulty=DIFFICULTIES[seed % 4],
        reward_scheme=SCHEMES[seed % 3],
        effect_order="fixed" if seed % 5 == 4 else "choose",
    )


def digest(*parts) -> str:
    m = hashlib.blake2b(digest_size=8)
    for p in parts:
        if isinstance(p, np.ndarray):
            m.update(str(p.dtype).encode())
            m.update(p.tobytes())
        else:
            m.update(json.dumps(p, sort_keys=True).encode())
    return m.hexdigest()


def play(n: int, seed: int, by_bot: bool = False, start: dict | None = None, rng_seed: int | None = None) -> dict:
    opts = options(n, seed)
    game = LastBastionGame(**opts)
    rich = LastBastionGame(**opts, obs_card_ids=True, obs_hints=True)
    state = game.new_state(seed) if start is None else game.state_from_json(start)
    rng = np.random.default_rng(1000 + seed if rng_seed is None else rng_seed)
    bot = HeuristicBot(seed=seed)
    steps = []
    while not state.is_over():
        other = rich.state_from_json(state.to_json())
        row = [
            state.current_player,
            digest(*[state.observe(p) for p in range(n)]),
            digest(*[game.observation_layout.encode_plain(state, p) for p in range(n)]),
            digest(*[other.observe(p) for p in range(n)]),
            digest(*[rich.observation_layout.encode_plain(other, p) for p in range(n)]),
            digest(state.legal_mask()),
            bot.act_state(state),
            digest(state.to_json()),
        ]
        a = row[6] if by_bot else int(rng.choice(state.legal_actions()))
        state.apply(a)
        steps.append([*row, a, state.rewards()])
    final = {
        "json": state.to_json(),
        "outcome": state.outcome().to_json(),
        "returns": state.returns(),
        "scores": state.scores(),
        "info": state.info(),
    }
    return json.loads(json.dumps({"n": n, "seed": seed, "bot": by_bot, "steps": steps, "final": final}))


def _first_difference(want: dict, got: dict) -> str:
    for i, (a, b) in enumerate(zip(want["steps"], got["steps"])):
        if a != b:
            return f"step {i}: recorded {a}, now {b}"
    return f"{len(want['steps'])} recorded steps, {len(got['steps'])} now; or the final state differs"


@pytest.mark.parametrize("want", DATA["games"], ids=lambda g: f"n{g['n']}-seed{g['seed']}")
def test_a_recorded_game_replays_step_for_step(want):
    got = play(want["n"], want["seed"], by_bot=want["bot"])
    assert got == want, _first_difference(want, got)


@pytest.mark.parametrize("i", range(len(DATA["saved"])))
def test_a_state_of_the_old_engine_loads_and_plays_on_as_it_did(i):
    saved, want = DATA["saved"][i], DATA["continuations"][i]
    got = play(saved["n"], saved["seed"], start=saved["json"], rng_seed=7777 + saved["seed"])
    assert got == want, _first_difference(want, got)
