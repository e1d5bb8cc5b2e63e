"""Behaviour corpus: eight random games (2-5 players, both engines, shaping and no-artefact options)
recorded on the code before the package was reshaped (rules.py and serialize.py, commit d42cbe1)
must replay to the same digests: per step every seat's observation, the legal mask and the rewards
of the action, the shipped bot's choice; at the end the outcome and the JSON. Mid-game JSON states
written by that code must load and play on to the same digests.

Text (describe_action, render) is not part of the corpus, as it may change on purpose.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import envs

ENV_ID = "last_heroes_v0"
DATA = Path(__file__).parent / "data" / "replay_corpus.json.gz"
CORPUS = json.loads(gzip.decompress(DATA.read_bytes()))
SAVED = [c for c in CORPUS if "saved" in c]


def _id(case: dict) -> str:
    return f"n{case['n']}-{case['engine']}-seed{case['seed']}"


def _digest(*parts) -> str:
    m = hashlib.blake2b(digest_size=8)
    for p in parts:
        if isinstance(p, np.ndarray):
            m.update(str(p.dtype).encode())
            m.update(str(p.shape).encode())
            m.update(p.tobytes())
        else:
            m.update(json.dumps(p, sort_keys=True).encode())
        m.update(b"|")
    return m.hexdigest()


def _seen(s, n: int) -> str:
    """What every seat sees and may do."""
    return _digest(*[s.observe(i) for i in range(n)], s.legal_mask())


def _game(case: dict):
    return envs.game_class(ENV_ID)(num_players=case["n"], engine=case["engine"], **case["options"])


def _play(s, n: int, actions: list[int], t: int = 0) -> dict:
    """Play ``actions`` from step ``t`` to the end, recording what the corpus holds."""
    steps, bot = [], []
    for a in actions:
        assert not s.is_over(), f"the game ended at step {t}, before the recorded actions did"
        bot.append(int(envs.heuristic_bot(ENV_ID, seed=t).act_state(s)))
        before = _seen(s, n)
        s.apply(a)
        steps.append(_digest(before, [float(r) for r in s.rewards()]))
        t += 1
    return {
        "steps": steps,
        "bot": bot,
        "final_seen": _seen(s, n),
        "final_json": _digest(s.to_json()),
        "outcome": None if s.outcome() is None else s.outcome().to_json(),
        "terminal": [bool(s.is_terminal()), bool(s.is_truncated())],
    }


def _assert_same(got: dict, case: dict, start: int = 0) -> None:
    # Per-step lists first: pytest names the first step that differs.
    assert got["steps"] == case["steps"][start:]
    assert got["bot"] == case["bot"][start:]
    for key in ("final_seen", "final_json", "outcome", "terminal"):
        assert got[key] == case[key], key


def test_the_corpus_covers_what_it_claims():
    assert sorted({c["n"] for c in CORPUS}) == [2, 3, 4, 5]
    assert {c["engine"] for c in CORPUS} == {"python", "compiled"}
    assert any(c["options"].get("shaping_coef") for c in CORPUS)
    assert any(c["options"].get("artefacts") is False for c in CORPUS)
    assert {c["engine"] for c in SAVED} == {"python", "compiled"}


@pytest.mark.parametrize("case", CORPUS, ids=_id)
def test_recorded_games_replay_identically(case):
    s = _game(case).new_state(case["seed"])
    got = _play(s, case["n"], case["actions"])
    assert s.is_over()
    _assert_same(got, case)


@pytest.mark.parametrize("case", SAVED, ids=_id)
def test_states_written_by_the_old_code_load_and_play_on(case):
    k = case["saved_at"]
    s = _game(case).state_from_json(case["saved"])
    assert s.to_json() == case["saved"]
    got = _play(s, case["n"], case["actions"][k:], t=k)
    assert s.is_over()
    _assert_same(got, case, start=k)
