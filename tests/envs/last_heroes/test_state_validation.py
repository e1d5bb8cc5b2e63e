"""Last Heroes' state_from_json checks every field before it builds (envs/last_heroes/validation.py):
a damaged state is a ValueError naming its JSON path, never a wrong game or a crash later."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import envs
from tests.helpers import play_random, random_states

GAME = envs.game_class("last_heroes_v0")


def _midgame(n: int = 3, steps: int = 40, engine: str = "python") -> dict:
    game = GAME(num_players=n, engine=engine)
    return play_random(game.new_state(seed=11), np.random.default_rng(11), steps=steps).to_json()


def _kind_in_hand(data, seat=0):
    return next(k for k, c in enumerate(data["players"][seat]["hand"]) if c)


@pytest.mark.parametrize(
    "damage, message",
    [
        (
            lambda d: d["players"][0]["hand"].__setitem__(_kind_in_hand(d), -1),
            r"state.players\[0\].hand\[\d+\]: expected an integer in 0\.\.60, got -1",
        ),
        (
            lambda d: d["players"][1]["hand"].__setitem__(
                _kind_in_hand(d), d["players"][1]["hand"][_kind_in_hand(d)] + 1
            ),
            r"cards of weapon kind \d+ .* the box has",
        ),
        (
            lambda d: d["decks"][0].append(d["decks"][0][0]),
            r"state.decks\[0\]\[\d+\]: monster \d+ is also at state.decks\[0\]\[0\]",
        ),
        (
            lambda d: d["decks"][0].__setitem__(0, 10**6),
            r"state.decks\[0\]\[0\]: expected an integer in 0\.\.\d+, got 1000000",
        ),
        (lambda d: d.__setitem__("env_id", "last_bastion_v0"), r"state is for 'last_bastion_v0', not 'last_heroes_v0'"),
        (lambda d: d["players"].pop(), r"state has 2 players but the game has 3"),
        (
            lambda d: d["players"][2].__setitem__("jokers", 9),
            r"state.players\[2\].jokers: expected an integer in 0\.\.3, got 9",
        ),
        (
            lambda d: d["players"][0].__setitem__("hand", "many"),
            r"state.players\[0\].hand: expected a list, got 'many'",
        ),
        (
            lambda d: d.__setitem__("phase", "LUNCH"),
            r"state.phase: 'LUNCH' \(str\) is not allowed; allowed: \['SETUP_PICK'",
        ),
        (
            lambda d: d.__setitem__("rng", {"bit_generator": "PCG64", "state": 3}),
            r"state.rng: not a numpy PCG64 generator state",
        ),
        (lambda d: d.pop("board"), r"state.board: missing"),
        (lambda d: d["tiles"].__setitem__("Teleport", "held"), r"state.tiles: unknown key\(s\) \['Teleport'\]"),
    ],
    ids=[
        "negative-hand",
        "extra-card",
        "duplicated-deck-card",
        "deck-entry-out-of-range",
        "another-games-state",
        "a-player-missing",
        "too-many-jokers",
        "hand-retyped",
        "unknown-phase",
        "damaged-generator",
        "board-dropped",
        "unknown-tile",
    ],
)
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_damaged_state_names_its_field(damage, message, engine):
    data = _midgame(engine=engine)
    damage(data)
    with pytest.raises(ValueError, match=message):
        GAME(num_players=3, engine=engine).state_from_json(data)


def test_every_state_of_a_game_loads_and_plays_on_alike():
    """The checks refuse nothing the rules reach: every state of whole games round-trips."""
    for seed in range(3):
        game = GAME(num_players=4)
        for state in random_states(game, seed):
            copy_ = game.state_from_json(copy.deepcopy(state.to_json()))
            assert np.array_equal(copy_.legal_mask(), state.legal_mask())
        assert game.state_from_json(state.to_json()).is_over()


def test_a_load_that_could_not_be_completed_is_refused():
    """LOAD_SOURCE with more ammo to source than slots and Jokers left would dead-end steps later."""
    game = GAME(num_players=3)
    for seed in range(40):
        state = game.new_state(seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_over() and state.to_json()["phase"] != "LOAD_SOURCE":
            state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
        if not state.is_over():
            break
    data = state.to_json()
    assert data["phase"] == "LOAD_SOURCE"
    game.state_from_json(copy.deepcopy(data))  # as the rules left it: loads
    for p in data["players"]:
        p["jokers"] = 0
    data["turn"]["load_need"] = 3
    data["turn"]["load_used"] = [[i, s] for i in range(3) for s in (0, 1)]
    with pytest.raises(ValueError, match=r"state.turn.load_need: 3 ammo still to source, but 0 sources are left"):
        game.state_from_json(data)
