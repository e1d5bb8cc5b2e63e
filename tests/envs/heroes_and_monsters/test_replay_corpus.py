"""Behaviour pinned by a corpus recorded on earlier code (data/replay_corpus.json.gz): the same seeds
and actions give the same observations of every seat, masks, rewards, infos, JSON states and
heuristic choices, step by step; and JSON states written by that code still load and play on.

Text (describe_action, render) is not pinned: it may change on purpose. To re-record after a
deliberate rules change: ``python -m tests.envs.heroes_and_monsters.test_replay_corpus record``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from envs.heroes_and_monsters.env import GAME
from envs.heroes_and_monsters.heuristic import HeuristicBot, ReferenceBot
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT

CORPUS = Path(__file__).parent / "data" / "replay_corpus.json.gz"
#: (players, seed, options): seeds >= 100 are played by the bot (10% random moves), the others at random
GAMES = [
    (1, 0, {"adversary": "randall"}),
    (2, 1, {"adversary": "sylvaen", "reward_scheme": "shaped"}),
    (3, 2, {"adversary": "thargrim", "support_window": "none"}),
    (4, 3, {"adversary": "random", "rotate_first_player": False}),
    (1, 100, {"adversary": "randall", "reward_scheme": "shaped"}),
    (2, 101, {"adversary": "sylvaen"}),
    (3, 102, {"adversary": "thargrim", "reward_scheme": "shaped"}),
    (4, 103, {"adversary": "randall", "max_rounds": 6}),
]
SNAPSHOT_STEPS = (40,)


def _h(x) -> str:
    if isinstance(x, np.ndarray):
        return hashlib.sha1(x.tobytes() + str(x.dtype).encode()).hexdigest()[:12]
    return hashlib.sha1(json.dumps(x, sort_keys=True).encode()).hexdigest()[:12]


def play(n: int, seed: int, options: dict, snapshots: list | None = None) -> dict:
    game = GAME(num_players=n, **options)
    s = game.new_state(seed)
    rng = np.random.default_rng(1000 * n + seed)
    bot = HeuristicBot() if seed % 2 else ReferenceBot()
    steps = []
    while not s.is_over():
        mask = s.legal_mask()
        choice = int(bot.act_state(s))
        seen = [_h(s.observe(i)) for i in range(n)] + [_h(OBSERVATION_LAYOUT.encode_plain(s, i)) for i in range(n)]
        record = [seen, _h(mask), _h(s.info()), _h(s.to_json()), choice]
        if snapshots is not None and len(steps) in SNAPSHOT_STEPS:
            snapshots.append({"n": n, "options": options, "state": s.to_json()})
        a = int(rng.choice(np.flatnonzero(mask)))
        if seed >= 100 and rng.random() > 0.1:
            a = choice
        s.apply(a)
        steps.append(record + [a, list(s.rewards())])
    return {"steps": steps, "final": _h(s.to_json()), "outcome": s.outcome().to_json(), "returns": _total(s)}


def _total(s) -> list[float]:
    """The sum of the rewards (what returns() gave when the corpus was recorded; it is now the result
    alone, and shaping_potentials() what the shaped scheme's events paid)."""
    return [r + p for r, p in zip(s.returns(), s.shaping_potentials())]


def play_on(snapshot: dict) -> dict:
    s = GAME(num_players=snapshot["n"], **snapshot["options"]).state_from_json(snapshot["state"])
    rng = np.random.default_rng(7)
    trail = []
    while not s.is_over():
        a = int(rng.choice(np.flatnonzero(s.legal_mask())))
        s.apply(a)
        trail.append([a, _h(s.observe(0)), list(s.rewards())])
    return {"trail": _h(trail), "final": _h(s.to_json())}


def _load() -> dict:
    with gzip.open(CORPUS, "rt") as f:
        return json.load(f)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_game_replays_as_recorded(index):
    n, seed, options = GAMES[index]
    want = _load()["games"][index]
    got = json.loads(json.dumps(play(n, seed, options)))
    for t, (a, b) in enumerate(zip(want["steps"], got["steps"])):
        assert a == b, f"{n} players, seed {seed}: step {t} differs"
    assert got == want


def test_states_written_by_earlier_code_load_and_play_on():
    data = _load()
    assert data["snapshots"]
    for snapshot, want in zip(data["snapshots"], data["played_on"]):
        assert json.loads(json.dumps(play_on(snapshot))) == want


def record() -> None:
    snapshots: list = []
    games = [play(n, seed, options, snapshots) for n, seed, options in GAMES]
    played_on = [play_on(s) for s in snapshots]
    CORPUS.parent.mkdir(exist_ok=True)
    with gzip.open(CORPUS, "wt") as f:
        json.dump({"games": games, "snapshots": snapshots, "played_on": played_on}, f)
    print(f"{CORPUS}: {len(games)} games, {sum(len(g['steps']) for g in games)} steps, {len(snapshots)} snapshots")


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
