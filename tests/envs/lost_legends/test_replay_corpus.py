"""Behaviour corpus: a few random games recorded on the code before the package was reshaped
(per step: every seat's observation, the mask, the rewards, the JSON, the info, the shipped bot's
choice, a hidden-information redeal and a clone) must replay to the same digests, and mid-game
JSON states written by that code must load and play on to the same end.

The data (data/replay_corpus.json.gz) is a sample of a 90-game corpus; text (describe_action,
render) is not part of it, as it may change on purpose.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from envs import lost_legends_v0

DATA = Path(__file__).parent / "data" / "replay_corpus.json.gz"
CORPUS = json.loads(gzip.decompress(DATA.read_bytes()))


def _h(*parts) -> str:
    m = hashlib.blake2b(digest_size=8)
    for p in parts:
        if isinstance(p, np.ndarray):
            m.update(str(p.dtype).encode())
            m.update(p.tobytes())
        else:
            m.update(json.dumps(p, sort_keys=True).encode())
        m.update(b"|")
    return m.hexdigest()


def _step(s, bot, n: int, t: int) -> dict:
    out = s.outcome()
    rec = {
        "cp": int(s.current_player),
        "obs": [_h(s.observe(i)) for i in range(n)],
        "mask": _h(s.legal_mask()),
        "rew": _h([float(r) for r in s.rewards()]),
        "json": _h(s.to_json()),
        "info": _h(s.info()),
        "scores": _h([float(x) for x in s.scores()]),
        "end": [s.is_terminal(), s.is_truncated(), None if out is None else out.to_json()],
    }
    if not s.is_over():
        rec["bot"] = int(bot.act_state(s))
        if t % 25 == 0:
            seat = t % n
            r = s.resample_hidden(seat, np.random.default_rng(t))
            rec["resample"] = _h(r.to_json(), r.observe(seat), bot.act_state(r) if r.current_player == seat else -1)
        if t % 30 == 0:
            c = s.clone()
            rec["clone"] = _h(c.to_json(), c.legal_mask(), *[c.observe(i) for i in range(n)])
    return rec


def _play(s, n: int, rng_seed: int, t: int = 0, actions: list[int] | None = None):
    """Play to the end choosing uniformly among the legal actions (or replaying ``actions``)."""
    bot = lost_legends_v0.HeuristicBot()
    rng = np.random.default_rng(rng_seed)
    steps, played = [], []
    while True:
        steps.append(_step(s, bot, n, t))
        if s.is_over():
            return steps, played, s.to_json()
        a = actions[len(played)] if actions is not None else int(rng.choice(np.flatnonzero(s.legal_mask())))
        played.append(a)
        s.apply(a)
        t += 1


@pytest.mark.parametrize("case", CORPUS, ids=[f"n{c['n']}-seed{c['seed']}" for c in CORPUS])
def test_recorded_games_replay_identically(case):
    n = case["n"]
    game = lost_legends_v0.GAME(num_players=n, **case["options"])
    steps, played, final = _play(game.new_state(case["seed"]), n, 1000 + case["seed"])
    assert [_h(r) for r in steps] == case["step_digests"]
    assert played == case["actions"] and final == case["final"]


@pytest.mark.parametrize("case", CORPUS, ids=[f"n{c['n']}-seed{c['seed']}" for c in CORPUS])
def test_states_written_by_the_old_code_load_and_play_on(case):
    n, k = case["n"], case["saved_at"]
    game = lost_legends_v0.GAME(num_players=n, **case["options"])
    s = game.state_from_json(case["saved"])
    assert s.to_json() == case["saved"]
    steps, _, final = _play(s, n, 0, t=k, actions=case["actions"][k:])
    assert steps[0]["rew"] == _h([0.0] * n)  # a loaded state has no last apply: no rewards yet
    steps[0]["rew"] = case["rewards_at_saved"]  # (the recorded game's last apply had its own)
    assert [_h(r) for r in steps] == case["step_digests"][k:]
    assert final == case["final"]
