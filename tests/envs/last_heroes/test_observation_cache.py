"""The observation memo and the legal-mask cache never go stale.

``observe`` is the core memo (``OBSERVATION_LAYOUT.encode``): it keeps each observer's last vector on
the state and rewrites a block only when its key changed, the keys being the rules' version counters
(``_seat_ver``, ``_board_ver``...) or a few small values; ``legal_mask`` is cached between ``apply``
calls; the rules keep running totals (``_hand_tot``) for both. Over random games at every table size,
the observation of every seat of a long-lived state (warm memo) is compared after every step with the
plain encoder (``OBSERVATION_LAYOUT.encode_plain``, every block from scratch) and with the observation
and legal mask of the same position rebuilt by ``state_from_json(state.to_json())`` (no memo, counters
and totals recomputed).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.game import LastHeroesGame
from envs.last_heroes.observation import OBSERVATION_LAYOUT, SEAT, SEAT_SIZE

# A few variants that change what is encoded (open hands, no artefacts) or when the game ends.
VARIANTS = (
    {},
    {"open_hands": True},
    {"artefacts": False},
    {"artefact_end": "end_of_round", "score_floor": 0},
    {"artefact_end": "end_of_turn"},
)


def _fresh(state):
    return state.game.state_from_json(state.to_json())


def _differ(got: np.ndarray, want: np.ndarray, where: str) -> None:
    if not np.array_equal(got, want):
        bad = np.flatnonzero(got != want)
        raise AssertionError(f"{where} differs at {bad.tolist()}: {got[bad].tolist()} != {want[bad].tolist()}")


def _check(state, step: int) -> None:
    fresh = _fresh(state)
    for seat in range(state.n):
        got = state.observe(seat)
        where = f"step {step}, seat {seat}, phase {state.phase}: the memo's observation"
        _differ(got, OBSERVATION_LAYOUT.encode_plain(state, seat), f"{where} against the plain encoder")
        _differ(got, fresh.observe(seat), f"{where} against a state rebuilt from JSON")
    assert np.array_equal(state.legal_mask(), fresh.legal_mask()), f"step {step}: stale legal mask"


def _play(game: LastHeroesGame, seed: int, every_seat: bool) -> int:
    """One random game. ``every_seat``: check every seat after every step; otherwise observe only
    the deciding seat (as the AEC loop does) and check every seat at random moments, so that each
    observer's memo also sees long gaps between two observations."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    _check(state, 0)
    steps = 0
    while not state.is_terminal():
        legal = np.flatnonzero(state.legal_mask())
        assert len(legal), "a live state allows no action"
        state.apply(int(legal[rng.integers(len(legal))]))
        steps += 1
        if every_seat or state.is_terminal() or rng.random() < 0.1:
            _check(state, steps)
        else:
            state.observe(state.current_player)
    return steps


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_memo_observations_and_masks_match_the_plain_encoder_and_a_fresh_state(n):
    for g in range(15):  # three games of each option variant
        game = LastHeroesGame(num_players=n, **VARIANTS[g % len(VARIANTS)])
        assert _play(game, seed=1000 * n + g, every_seat=True) > 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_memo_survives_sparse_observation(n):
    for g in range(15):
        game = LastHeroesGame(num_players=n, **VARIANTS[g % len(VARIANTS)])
        assert _play(game, seed=5000 + 1000 * n + g, every_seat=False) > 0


def _with_powers(game: LastHeroesGame, seed: int):
    """A new game where every Power tile but one pedestal's is already held (dealt round the
    table), so that the rare power paths (JOKER, EXCHANGE, IMPACT, IMMUNITY, RELOAD, ADRENALINE)
    are played often; uniform random play almost never wins an artefact."""
    data = game.new_state(seed).to_json()
    tiles = data["tiles"]
    on_pedestal = [p for p, st in tiles.items() if st == "on_pedestal"]
    held = on_pedestal[:-1] + [p for p, st in tiles.items() if st == "out_of_game"]
    for j, name in enumerate(held):
        if name in data["pedestals"]:
            data["pedestals"][data["pedestals"].index(name)] = None
        tiles[name] = "held"
        data["players"][j % game.num_players]["artefacts"].append(name)
    return game.state_from_json(data)


# Weights of the biased random policy: powers and attacks first.
_WEIGHTS = {"ATTACK_IMPACT": 40, "ATTACK": 15, "POWER_JOKER": 20, "POWER_RELOAD": 20, "EXCHANGE_TAKE": 20}
_WEIGHTS.update({"END_TURN_IMMUNITY": 30, "LOAD": 4})


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_memo_with_every_power_in_play(n):
    weights = np.array([_WEIGHTS.get(LAYOUT.name_of(a), 1.0) for a in range(LAYOUT.num_actions)])
    played = set()
    for g in range(12):
        game = LastHeroesGame(num_players=n, **VARIANTS[g % 2])  # artefacts on (open hands or not)
        rng = np.random.default_rng(9000 + g)
        state = _with_powers(game, seed=9000 + g)
        _check(state, 0)
        steps = 0
        while not state.is_terminal():
            w = weights * state.legal_mask()
            action = int(rng.choice(len(w), p=w / w.sum()))
            played.add(LAYOUT.name_of(action))
            state.apply(action)
            steps += 1
            _check(state, steps)
    powers = {"POWER_JOKER", "POWER_RELOAD", "EXCHANGE_TAKE", "ATTACK_IMPACT", "END_TURN_IMMUNITY"}
    assert powers <= played, f"never played: {sorted(powers - played)}"


def test_clone_starts_with_its_own_memo():
    game = LastHeroesGame(num_players=4)
    rng = np.random.default_rng(7)
    state = game.new_state(7)
    for _ in range(60):
        for seat in range(4):
            state.observe(seat)
        copy = state.clone()
        assert state._obs_memo is not None and copy._obs_memo is None
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))
        # The original moved on; the clone still observes (and masks) its own position.
        fresh = _fresh(copy)
        for seat in range(4):
            assert np.array_equal(copy.observe(seat), fresh.observe(seat))
        assert copy._obs_memo is not state._obs_memo
        assert np.array_equal(copy.legal_mask(), fresh.legal_mask())


def _known_rows(obs: np.ndarray, n: int) -> np.ndarray:
    """The known-cards field of each relative seat's row, times 5 (counts per kind)."""
    seats = obs[OBSERVATION_LAYOUT.slice("seats")].reshape(-1, SEAT_SIZE)
    return np.rint(5 * seats[:n, SEAT["known_hand"] : SEAT["known_hand"] + 15]).astype(int)


@pytest.mark.parametrize("open_hands", [False, True])
def test_each_seat_sees_its_own_whole_hand_and_only_the_known_cards_of_the_others(open_hands):
    """The seats table holds each seat as the others see it, and its own band the observer's whole
    hand: an observer's own row shows its whole hand, another's row that seat's known cards (its
    whole hand with open_hands), through the memo and the plain encoder alike, at every step."""
    n = 3
    game = LastHeroesGame(num_players=n, open_hands=open_hands)
    rng = np.random.default_rng(11)
    state = game.new_state(11)
    hidden = 0
    while not state.is_terminal():
        for seat in range(n):
            for obs in (state.observe(seat), OBSERVATION_LAYOUT.encode_plain(state, seat)):
                rows = _known_rows(obs, n)
                for r in range(n):
                    i = (seat + r) % n
                    want = state.hands[i] if r == 0 or open_hands else state.known[i]
                    assert rows[r].tolist() == list(want), (seat, r)
        hidden += sum(sum(state.hands[i]) - sum(state.known[i]) for i in range(n))
        legal = np.flatnonzero(state.legal_mask())
        state.apply(int(legal[rng.integers(len(legal))]))
    assert hidden > 0  # the check above could tell the two apart


def test_apply_checks_legality_and_the_driver_too():
    """The driver checks the mask once and then uses State.apply_legal; State.apply still checks."""
    import envs
    from envs.core.game import IllegalActionError

    state = LastHeroesGame(num_players=3).new_state(3)
    before = state.to_json()
    illegal = int(np.flatnonzero(state.legal_mask() == 0)[0])
    for bad in (illegal, -1, 132, 1.5, "0"):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before
    env = envs.make("last_heroes_v0", num_players=3)
    env.reset(seed=3)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game_state.to_json() == before
    legal = int(np.flatnonzero(env.action_mask())[0])
    env.step(legal)
    state.apply(legal)
    assert env.game_state.to_json() == state.to_json()
