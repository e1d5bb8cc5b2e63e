"""The conformance kit (envs.conformance) over every registered env id, every player count and
every rules engine, and over the cooperative toy game. A new game registers and is checked here."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs import conformance as kit
from envs.core import Band, Block, ObservationLayout, OwnBand, Rows
from tests.toys import OBS, CrashingRelayGame, RelayGame, UncheckedRelayGame


def _cases(slow: bool = False):
    for env_id in envs.ENV_IDS:
        game_cls = envs.game_class(env_id)
        for n in range(game_cls.min_players, game_cls.max_players + 1):
            for options in kit.engine_options(game_cls):
                label = f"{env_id}-{n}p" + "".join(f"-{v}" for v in options.values())
                yield pytest.param(env_id, n, options, id=label)


CASES = list(_cases())


def _heuristic(env_id):
    return lambda seed: envs.heuristic_bot(env_id, seed=seed)


@pytest.mark.parametrize("env_id, n, options", CASES)
def test_random_games(env_id, n, options):
    kit.check_random_games(envs.game_class(env_id), n, games=4, **options)


#: options that turn each game's reward shaping on (Game.shaping_weight > 0)
SHAPED = {
    "last_heroes_v0": {"shaping_coef": 1.0},
    "last_bastion_v0": {"reward_scheme": "shaped"},
    "heroes_and_monsters_v0": {"reward_scheme": "shaped"},
    "lost_legends_v0": {"reward_scheme": "shaped"},
}


def test_every_game_with_shaping_is_checked_with_it_on():
    # a game whose reward_scheme offers "shaped" declares its shaping (Game.shaping_weight)
    offered = set()
    for e in envs.ENV_IDS:
        for option in envs.game_class(e).option_spec:
            if option.name == "reward_scheme" and "shaped" in (option.choices or ()):
                offered.add(e)
    shaped = {e for e in envs.ENV_IDS if envs.game_class(e).shaping_option is not None}
    assert offered <= shaped == set(SHAPED)
    assert all(envs.game_class(e).shaping_weight(o) > 0 for e, o in SHAPED.items())


def test_the_kit_catches_a_potential_that_is_not_what_the_shaping_paid(monkeypatch):
    from envs.last_bastion.state import LastBastionState

    monkeypatch.setattr(LastBastionState, "shaping_potentials", lambda self: [0.0] * self.n)
    with pytest.raises(AssertionError, match="shaped rewards"):
        kit.check_random_games(envs.game_class("last_bastion_v0"), 2, games=3, **SHAPED["last_bastion_v0"])


@pytest.mark.parametrize("env_id", sorted(SHAPED))
def test_shaped_rewards_sum_to_the_result_plus_the_weighted_potential(env_id):
    game_cls = envs.game_class(env_id)
    for n in (game_cls.min_players, game_cls.max_players):
        kit.check_random_games(game_cls, n, games=3, **SHAPED[env_id])


@pytest.mark.parametrize("env_id, n, options", CASES)
def test_round_trips(env_id, n, options):
    kit.check_round_trips(envs.game_class(env_id), n, games=2, points=2, **options)


@pytest.mark.parametrize("env_id, n, options", CASES)
def test_observation_memo(env_id, n, options):
    game_cls = envs.game_class(env_id)
    if not game_cls(num_players=n, **options).observation_layout.encodable:
        # every game's readable engine is declared in blocks (Last Heroes' compiled engine has its own
        # observe, checked against the readable one); a layout that only documents is skipped
        pytest.skip(f"{env_id} encodes its observation itself, not through the core memo")
    kit.check_observation_memo(game_cls, n, games=2, **options)


@pytest.mark.parametrize("env_id, n, options", CASES)
def test_hidden_information(env_id, n, options):
    kit.check_hidden_information(envs.game_class(env_id), n, _heuristic(env_id), games=2, points=4, **options)


@pytest.mark.parametrize("env_id, n, options", CASES)
def test_a_reused_heuristic_plays_each_game_as_a_fresh_one(env_id, n, options):
    kit.check_heuristic_reuse(envs.game_class(env_id), n, _heuristic(env_id), games=3, **options)


def test_the_reuse_check_catches_a_bot_that_remembers_across_games():
    class Remembering:  # the fault found in a heuristic: a per-turn memory keyed by what every game repeats
        def __init__(self, seed):
            self.seen = set()

        def act_state(self, state):
            legal = np.flatnonzero(state.legal_mask())
            key = (state.counter, state.active)
            first_time = key not in self.seen
            self.seen.add(key)
            return int(legal[0] if first_time else legal[-1])

    with pytest.raises(AssertionError, match="carries over from one game to the next"):
        kit.check_heuristic_reuse(RelayGame, 2, Remembering, games=2)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_pettingzoo_api_at_every_count(env_id):
    game_cls = envs.game_class(env_id)
    for n in range(game_cls.min_players, game_cls.max_players + 1):
        for options in kit.engine_options(game_cls):
            kit.check_pettingzoo_api(game_cls, n, num_cycles=100, **options)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_bad_options_and_illegal_actions(env_id):
    game_cls = envs.game_class(env_id)
    kit.check_bad_options(game_cls)
    for n in (game_cls.min_players, game_cls.max_players):
        kit.check_illegal_actions(game_cls, n)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_library_conventions(env_id):
    game_cls = envs.game_class(env_id)
    for n in (game_cls.min_players, game_cls.max_players):
        kit.check_library_conventions(game_cls, n, games=1)


def _mutation_cases(every_size: bool = False):
    for env_id in envs.ENV_IDS:
        game_cls = envs.game_class(env_id)
        sizes = range(game_cls.min_players, game_cls.max_players + 1) if every_size else [game_cls.min_players]
        for n in sizes:
            for options in kit.engine_options(game_cls):
                label = f"{env_id}-{n}p" + "".join(f"-{v}" for v in options.values())
                yield pytest.param(env_id, n, options, id=label)


@pytest.mark.parametrize("env_id, n, options", list(_mutation_cases()))
def test_damaged_states_are_refused_or_play_on(env_id, n, options):
    counts = kit.check_state_mutations_isolated(envs.game_class(env_id), n, games=1, points=2, mutations=40, **options)
    assert counts["refused"] > 0  # the mutations reach fields that matter


@pytest.mark.slow
@pytest.mark.parametrize("env_id, n, options", list(_mutation_cases(every_size=True)))
def test_damaged_states_on_more_games(env_id, n, options):
    kit.check_state_mutations_isolated(
        envs.game_class(env_id), n, games=4, points=3, mutations=150, seed=20_000, timeout=1800, **options
    )


def test_the_mutation_check_catches_a_bare_error_and_a_crash():
    """A state_from_json that lets a TypeError through fails the check, naming the mutation; one
    that kills the interpreter fails the isolated check instead of the test run."""
    with pytest.raises(
        AssertionError,
        match=r"(state_from_json after|a state loaded after) '.*':? (raised|loaded, then failed in play with) [A-Z]",
    ):
        kit.check_state_mutations(UncheckedRelayGame, 2, games=1, points=2, mutations=40)
    with pytest.raises(AssertionError, match=r"killed by signal \d+ while trying 'seed 0, decision \d+: "):
        kit.check_state_mutations_isolated(CrashingRelayGame, 2, games=1, points=1, mutations=5)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_toy_game_passes_the_kit(n):
    kit.check_pettingzoo_api(RelayGame, n, num_cycles=100)
    kit.check_random_games(RelayGame, n, games=20)
    kit.check_random_games(RelayGame, n, games=20, cheer=True)  # with forced decisions
    kit.check_round_trips(RelayGame, n, games=5, cheer=True)
    kit.check_hidden_information(RelayGame, n, games=5)
    kit.check_bad_options(RelayGame)
    kit.check_illegal_actions(RelayGame, n)
    kit.check_library_conventions(RelayGame, n)
    kit.check_state_mutations(RelayGame, n, games=2, points=2, mutations=40)
    kit.check_observation_memo(RelayGame, n, games=5)


def _relay_with_block(block):
    """RelayGame whose "seat" block is replaced by ``block``."""
    blocks = [block if b.name == "seat" else b.spec() for b in OBS.blocks]

    class Variant(RelayGame):
        observation_layout = ObservationLayout(blocks)

    return Variant


def test_the_memo_check_catches_an_undeclared_read_and_a_false_shared_block():
    seat_block = OBS["seat"]
    silent = Block("seat", 4, "", seat_block.encode, reads=())  # reads current_player, declares nothing
    with pytest.raises(AssertionError, match="differs from the plain encoder|reads \\['current_player'\\]"):
        kit.check_observation_memo(_relay_with_block(silent), 2, games=3)
    shared = Block("seat", 4, "", seat_block.encode, reads=("current_player",), shared=True)  # relative to the observer
    with pytest.raises(AssertionError, match="differs"):
        kit.check_observation_memo(_relay_with_block(shared), 2, games=3)


def test_the_memo_rewrites_only_blocks_whose_fields_changed_and_sees_edits_in_place():
    calls = []

    def counting(s, seat, out):
        calls.append(seat)
        out[(s.current_player - seat) % s.game.num_players] = 1.0

    game = _relay_with_block(Block("seat", 4, "", counting, reads=("current_player",)))(num_players=2)
    state = game.new_state(0)
    layout = game.observation_layout
    first = state.observe(0)
    state.counter += 1  # a field the seat block does not read
    assert np.array_equal(state.observe(0)[1:], first[1:]) and calls == [0]
    assert state.observe(0)[0] == pytest.approx((state.counter) / 10)
    state.current_player = 1  # now it does change
    memo = state.observe(0)
    assert calls == [0, 0] and np.array_equal(memo, layout.encode_plain(state, 0))
    with pytest.raises(ValueError, match="seats are the integers 0..1"):
        state.observe(2)


def test_the_memo_rewrites_a_keyed_block_on_a_new_key_and_one_row_per_changed_seat():
    written = []

    def row(s, r, out):
        written.append(r)
        out[0] = 1.0 if s.current_player == r else 0.0

    seats = OBS["seats"].rows
    blocks = [
        b.spec() if b.name != "seats" else Rows("seats", (4, 1), "", row, seats.key_row, seats.order, seats.count)
        for b in OBS.blocks
    ]

    class Counted(RelayGame):
        observation_layout = ObservationLayout(blocks)

    state = Counted(num_players=3).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    assert sorted(written) == [0, 1, 2]  # every absolute row once
    state.observe(1)
    state.observe(2)
    assert len(written) == 3  # the other observers gather the same rows in their own order
    state.current_player = 1  # seats 0 and 1 change; seat 2's row stays
    memo = [state.observe(seat) for seat in range(3)]
    assert sorted(written[3:]) == [0, 1]
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    state.phase = 1 - state.phase  # the keyed shared block follows its key
    assert np.array_equal(state.observe(2), layout.encode_plain(state, 2))


def test_the_memo_check_catches_a_key_that_misses_a_change():
    stale_key = Block("seat", 4, "", OBS["seat"].encode, reads=("current_player",), key=lambda s, seat: 0)
    with pytest.raises(AssertionError, match="differs from the plain one in \\['seat'\\]"):
        kit.check_observation_memo(_relay_with_block(stale_key), 2, games=3)
    seats = OBS["seats"].rows
    stale_row = Rows("seats", (4, 1), "", seats.encode_row, lambda s, r: 0, seats.order, seats.count, seats.reads)
    blocks = [stale_row if b.name == "seats" else b.spec() for b in OBS.blocks]

    class StaleRows(RelayGame):
        observation_layout = ObservationLayout(blocks)

    with pytest.raises(AssertionError, match="differs from the plain one in \\['seats'\\]"):
        kit.check_observation_memo(StaleRows, 2, games=3)


def _relay_with_layout(blocks):
    class Variant(RelayGame):
        observation_layout = ObservationLayout(blocks)

    return Variant


def _banded_seats(written, acting_keys, active_keys=None):
    """The toy's seat rows as two bands: column 0 the acting seat, column 1 the active seat (counted)."""
    seats = OBS["seats"].rows

    def acting(s, r, out):
        written.append(("acting", r))
        out[0] = 1.0 if s.current_player == r else 0.0

    def active(s, r, out):
        written.append(("active", r))
        out[0] = 1.0 if s.active == r else 0.0

    bands = (Band((0, 1), acting, acting_keys), Band((1, 2), active, active_keys or acting_keys))
    return Rows("seats", (4, 2), "", None, None, seats.order, seats.count, ("current_player", "active"), bands)


def _acting_keys(s):
    return [s.current_player == r for r in range(s.game.num_players)]


def _active_keys(s):
    return [s.active == r for r in range(s.game.num_players)]


def test_banded_rows_rewrite_only_the_band_whose_key_changed():
    written = []
    blocks = [_banded_seats(written, _acting_keys, _active_keys) if b.name == "seats" else b.spec() for b in OBS.blocks]
    game_cls = _relay_with_layout(blocks)
    state = game_cls(num_players=3).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    assert sorted(written) == sorted((band, r) for band in ("acting", "active") for r in range(3))
    del written[:]
    state.current_player = 2  # the previous seat decides: only the acting band changes, in rows 0 and 2
    memo = [state.observe(seat) for seat in range(3)]
    assert sorted(written) == [("acting", 0), ("acting", 2)]
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    kit.check_observation_memo(game_cls, 3, games=3)


def test_bands_sharing_a_keys_function_are_rewritten_together_and_a_stale_band_key_is_caught():
    written, calls = [], []

    def both(s):
        calls.append(1)
        return [(s.current_player == r, s.active == r) for r in range(s.game.num_players)]

    blocks = [_banded_seats(written, both) if b.name == "seats" else b.spec() for b in OBS.blocks]
    state = _relay_with_layout(blocks)(num_players=3).new_state(0)
    state.observe(0)
    assert len(calls) == 1  # one call for the two bands
    del written[:]
    state.current_player = 2
    state.observe(0)
    assert sorted(written) == [("acting", 0), ("acting", 2), ("active", 0), ("active", 2)]
    stale = [_banded_seats([], _acting_keys, lambda s: [0] * s.game.num_players) if b.name == "seats" else b.spec()
             for b in OBS.blocks]  # fmt: skip
    with pytest.raises(AssertionError, match="differs from the plain one in \\['seats'\\]"):
        kit.check_observation_memo(_relay_with_layout(stale), 3, games=3)


def test_bands_must_cover_the_row_in_order_and_replace_encode_row():
    seats, written = OBS["seats"].rows, []
    good = _banded_seats(written, _acting_keys)
    gap = Band((2, 2), good.bands[1].encode, _acting_keys)
    for bad, message in [
        (Rows("seats", (4, 2), "", None, None, seats.order, seats.count, bands=(good.bands[0], gap)), "cover the row"),
        (Rows("seats", (4, 2), "", None, None, seats.order, seats.count, bands=good.bands[:1]), "cover 1 of 2"),
        (Rows("seats", (4, 2), "", seats.encode_row, None, seats.order, seats.count, bands=good.bands), "give None"),
        (Rows("seats", (4, 2), "", None, None, seats.order, seats.count), "or bands"),
    ]:
        with pytest.raises(ValueError, match=message):
            ObservationLayout([bad])


def _seats_with_own(written, own_key):
    """The toy's banded seat rows (acting, active) with an own band over column 1 of the observer's
    place: the counter plus the observer's seat (counted)."""
    rows = _banded_seats([], _acting_keys, _active_keys)

    def own(s, seat, out):
        written.append(seat)
        out[0] = (s.counter + seat) / 100.0

    reads = rows.reads + ("counter",)
    return Rows(rows.name, rows.shape, "", None, None, rows.order, rows.count, reads, rows.bands,
                OwnBand((1, 2), own, own_key))  # fmt: skip


def test_an_own_band_shows_the_observers_columns_over_its_place_and_survives_a_gather():
    written = []
    blocks = [_seats_with_own(written, lambda s, seat: s.counter) if b.name == "seats" else b.spec()
              for b in OBS.blocks]  # fmt: skip
    game_cls = _relay_with_layout(blocks)
    state = game_cls(num_players=3).new_state(0)
    layout = state.game.observation_layout
    at = layout["seats"].offset
    memo = [state.observe(seat) for seat in range(3)]
    assert [memo[seat][at + 1] for seat in range(3)] == [np.float32(seat / 100.0) for seat in range(3)]
    assert sorted(written) == [0, 1, 2]
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    del written[:]
    state.current_player = 2  # rows 0 and 2 rewritten and gathered: the own band stays, not rewritten
    memo = [state.observe(seat) for seat in range(3)]
    assert written == []
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    del written[:]
    state.counter += 1  # the own band alone changes: rewritten, no row gathered
    memo = [state.observe(seat) for seat in range(3)]
    assert sorted(written) == [0, 1, 2]
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    kit.check_observation_memo(game_cls, 3, games=3)
    stale = [_seats_with_own([], lambda s, seat: 0) if b.name == "seats" else b.spec() for b in OBS.blocks]
    with pytest.raises(AssertionError, match="differs from the plain one in \\['seats'\\]"):
        kit.check_observation_memo(_relay_with_layout(stale), 3, games=3)
    rows = _seats_with_own([], lambda s, seat: 0)
    for own in (OwnBand((1, 3), rows.own.encode, rows.own.key), OwnBand((0, 1), rows.own.encode, rows.own.key, 4)):
        with pytest.raises(ValueError, match="own band"):
            ObservationLayout([Rows(rows.name, rows.shape, "", None, None, rows.order, rows.count, rows.reads,
                                    rows.bands, own)])  # fmt: skip


def test_a_rows_memo_taken_over_by_a_table_of_another_size_gathers_from_its_own_rows():
    """A state with more rows that takes a memo over must not gather as the gone state did (its
    zero row is now a seat's)."""
    seats = OBS["seats"].rows
    fixed = Rows("seats", (4, 1), "", seats.encode_row, seats.key_row, lambda s, seat: (0, -1, 1, -1), seats.count,
                 seats.reads)  # fmt: skip
    game_cls = _relay_with_layout([fixed if b.name == "seats" else b.spec() for b in OBS.blocks])
    small = game_cls(num_players=2).new_state(0)
    small.observe(0)  # index (0, 2, 1, 2): row 2 the zero row
    memo = small._obs_memo
    del small
    big = game_cls(num_players=3).new_state(0)
    big.current_player = 2  # row 2 now seat 2's, acting
    assert np.array_equal(big.observe(0), big.game.observation_layout.encode_plain(big, 0))
    assert big._obs_memo is memo  # taken over


def test_a_rows_table_that_grows_during_a_state_gathers_from_its_new_rows():
    """The memo keeps each observer's gather (byte copies from the table); a table that changes size
    is built anew, and a gather of the old one must not be reused."""
    seats = OBS["seats"].rows
    growing = Rows("seats", (4, 1), "", seats.encode_row, seats.key_row, lambda s, seat: (0, -1, 1, -1),
                   lambda s: 2 + (s.phase > 0), ("current_player", "phase"))  # fmt: skip
    game_cls = _relay_with_layout([growing if b.name == "seats" else b.spec() for b in OBS.blocks])
    state = game_cls(num_players=3).new_state(0)
    layout = state.game.observation_layout
    assert state.phase == 0 and state.current_player == 0
    assert np.array_equal(state.observe(0), layout.encode_plain(state, 0))
    state.phase, state.current_player = 1, 1  # three rows now, seat 1 acting
    assert np.array_equal(state.observe(0), layout.encode_plain(state, 0))


def test_blocks_naming_one_key_function_share_one_call_and_are_rewritten_together():
    calls, written = [], []

    def key(s, seat):
        calls.append(seat)
        return (s.current_player, s.phase)

    def counted(name):
        def encode(s, seat, out):
            written.append(name)
            OBS[name].encode(s, seat, out)

        return encode

    blocks = [
        Block(b.name, b.shape, "", counted(b.name), b.reads, key=key) if b.name in ("seat", "phase") else b.spec()
        for b in OBS.blocks
    ]
    game_cls = _relay_with_layout(blocks)
    state = game_cls(num_players=2).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    assert calls == [0] and sorted(written) == ["phase", "seat"]
    state.observe(0)
    assert calls == [0, 0] and len(written) == 2  # the key unchanged: neither rewritten
    state.current_player = 1
    memo = state.observe(0)
    assert calls == [0, 0, 0] and len(written) == 4 and np.array_equal(memo, layout.encode_plain(state, 0))
    kit.check_observation_memo(game_cls, 2, games=3)


#: per observer seat, the absolute seat shown at each relative place (4 places, the toy's 1-4 seats)
_SEAT_FRAMES = [np.array([(seat + p) % 4 for p in range(4)]) for seat in range(4)]


def _framed_layout(written, key=None, frame=None, encode=None):
    """The toy's layout with a framed shared block "acting" right after "counter" (one run): the
    acting seat one-hot written once in the absolute frame (counted), each observer's places
    gathered through ``_SEAT_FRAMES``."""

    def acting(s, seat, out):
        written.append(seat)
        out[s.current_player] = 1.0

    block = Block(
        "acting",
        4,
        "the acting seat, per relative place",
        encode or acting,
        reads=("current_player",),
        shared=True,
        key=key,
        frame=frame or (lambda s, seat: _SEAT_FRAMES[seat]),
    )
    specs = [b.spec() for b in OBS.blocks]
    return specs[:1] + [block] + specs[1:]


def test_a_framed_block_is_written_once_and_gathered_into_each_observers_frame():
    written = []
    game_cls = _relay_with_layout(_framed_layout(written))
    state = game_cls(num_players=3).new_state(0)
    layout = state.game.observation_layout
    acting = layout.slice("acting")
    state.current_player = 2
    seen = {seat: state.observe(seat)[acting] for seat in range(3)}
    assert len(written) == 1  # one absolute block for the three observers
    # observer s shows at place p the seat (s + p) mod 4: seat 2 acts at place 2, 1 and 0
    assert [int(np.argmax(seen[seat])) for seat in range(3)] == [2, 1, 0]
    state.current_player = 1  # observers 1 and 2 away while it changes; observer 0 sees it first
    assert int(np.argmax(state.observe(0)[acting])) == 1 and len(written) == 2
    state.current_player = 0  # and again: observers 1 and 2 missed two versions
    assert int(np.argmax(state.observe(0)[acting])) == 0 and len(written) == 3
    memo = {seat: state.observe(seat) for seat in (1, 2)}  # no rewrite, but a gather of the new version
    assert len(written) == 3 and [int(np.argmax(memo[seat][acting])) for seat in (1, 2)] == [3, 2]
    state.counter += 1  # a neighbour in the same run changes: gathered as it stands, unpermuted
    memo = {seat: state.observe(seat) for seat in range(3)}
    assert len(written) == 3
    assert all(np.array_equal(memo[seat], layout.encode_plain(state, seat)) for seat in range(3))
    kit.check_observation_memo(game_cls, 3, games=3)
    kit.check_observation_memo(game_cls, 4, games=2)


def test_a_framed_block_refreshes_on_its_key_and_shares_one_key_call_with_its_group():
    written, calls = [], []

    def key(s, seat):
        calls.append(seat)
        return (s.current_player, s.phase)

    specs = _framed_layout(written, key=key)
    specs = [Block(b.name, b.shape, b.doc, b.encode, b.reads, True, key) if b.name == "phase" else b for b in specs]
    game_cls = _relay_with_layout(specs)
    state = game_cls(num_players=2).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    state.observe(1)
    assert len(calls) == 2 and len(written) == 1  # one key call per observation for both blocks
    state.current_player = 1 - state.current_player
    memo = [state.observe(1), state.observe(0)]
    assert len(written) == 2 and len(calls) == 4
    assert np.array_equal(memo[0], layout.encode_plain(state, 1))
    assert np.array_equal(memo[1], layout.encode_plain(state, 0))
    kit.check_observation_memo(game_cls, 2, games=3)


def test_key_parts_share_one_call_and_rewrite_only_the_blocks_of_the_part_that_changed():
    written, calls = [], []

    def key(s, seat):
        calls.append(seat)
        return s.current_player, s.phase

    specs = _framed_layout(written, key=key)
    specs = [Block(b.name, b.shape, b.doc, b.encode, b.reads, True, key, b.frame, 0) if b.name == "acting" else b
             for b in specs]  # fmt: skip
    phase = OBS["phase"]
    in_part_1 = Block("phase", phase.shape, "", phase.encode, phase.reads, True, key, key_part=1)
    specs = [in_part_1 if b.name == "phase" else b for b in specs]
    game_cls = _relay_with_layout(specs)
    state = game_cls(num_players=2).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    assert len(calls) == 1 and len(written) == 1
    state.phase = 1 - state.phase  # part 1 only: the acting block stays
    memo = state.observe(1)
    assert len(calls) == 2 and len(written) == 1 and np.array_equal(memo, layout.encode_plain(state, 1))
    state.current_player = 1 - state.current_player
    memo = state.observe(0)
    assert len(written) == 3 and np.array_equal(memo, layout.encode_plain(state, 0))  # its write, then plain's
    kit.check_observation_memo(game_cls, 2, games=3)
    with pytest.raises(ValueError, match="key_part is a part of the block's key: give key too"):
        ObservationLayout([Block("x", 1, "", phase.encode, phase.reads, key_part=0)])


def test_own_blocks_naming_parts_of_one_key_share_one_call_and_rewrite_only_their_part():
    calls, written = [], []

    def key(s, seat):
        calls.append(seat)
        return s.current_player, s.phase

    def counted(name):
        def encode(s, seat, out):
            written.append(name)
            OBS[name].encode(s, seat, out)

        return encode

    part = {"seat": 0, "phase": 1}
    blocks = [
        Block(b.name, b.shape, "", counted(b.name), b.reads, key=key, key_part=part[b.name])
        if b.name in part
        else b.spec()
        for b in OBS.blocks
    ]
    game_cls = _relay_with_layout(blocks)
    state = game_cls(num_players=2).new_state(0)
    layout = state.game.observation_layout
    state.observe(0)
    assert calls == [0] and sorted(written) == ["phase", "seat"]  # one call for both parts
    state.phase = 1 - state.phase  # part 1 only: the seat block stays
    memo = state.observe(0)
    assert calls == [0, 0] and written[2:] == ["phase"]
    assert np.array_equal(memo, layout.encode_plain(state, 0))  # (the plain encoder writes both)
    state.current_player = 1 - state.current_player
    before = len(written)
    memo = state.observe(0)
    assert written[before:] == ["seat"] and np.array_equal(memo, layout.encode_plain(state, 0))
    kit.check_observation_memo(game_cls, 2, games=3)


def test_a_dense_block_is_not_zeroed_by_the_memo_and_the_kit_catches_one_that_is_not_dense():
    seat_block = OBS["seat"]

    def whole(s, seat, out):  # writes every float: dense
        out[:] = 0.0
        out[(s.current_player - seat) % s.game.num_players] = 1.0

    dense = Block("seat", 4, "", whole, ("current_player",), key=lambda s, seat: s.current_player, dense=True)
    game_cls = _relay_with_block(dense)
    state = game_cls(num_players=2).new_state(0)
    state.observe(0)
    state.current_player = 1 - state.current_player
    assert np.array_equal(state.observe(0), state.game.observation_layout.encode_plain(state, 0))
    kit.check_observation_memo(game_cls, 2, games=3)
    sparse = Block("seat", 4, "", seat_block.encode, ("current_player",), dense=True)  # writes one float
    with pytest.raises(AssertionError, match="block 'seat' is declared dense but its encoder leaves 3 of 4"):
        kit.check_observation_memo(_relay_with_block(sparse), 2, games=3)


def test_the_memo_check_catches_a_wrong_frame_or_an_observers_absolute_block():
    with pytest.raises(ValueError, match="give shared=True"):
        ObservationLayout(
            [Block("x", 4, "", OBS["seat"].encode, ("current_player",), frame=lambda s, seat: _SEAT_FRAMES[0])]
        )
    short = _relay_with_layout(_framed_layout([], frame=lambda s, seat: _SEAT_FRAMES[seat][:3]))
    with pytest.raises(ValueError, match="must give 4 indices in 0..3"):
        short(num_players=2).new_state(0).observe(0)

    def relative(s, seat, out):  # already in the observer's frame: not the same for everyone
        out[(s.current_player - seat) % 4] = 1.0

    with pytest.raises(AssertionError, match="memo differs from the plain one in \\[.acting.\\]|in the absolute frame"):
        kit.check_observation_memo(_relay_with_layout(_framed_layout([], encode=relative)), 2, games=3)


def test_a_new_state_takes_over_the_memo_of_a_gone_one_and_forgets_what_it_saw():
    import gc

    def frame(s, seat):  # a frame that depends on the game (a layout's constant), not only the seat
        return _SEAT_FRAMES[(seat + s.game.options["target"]) % 4]

    game_cls = _relay_with_layout(_framed_layout([], frame=frame))
    game = game_cls(num_players=3)
    layout = game.observation_layout
    old = game.new_state(0)
    old.current_player = 2
    for seat in range(3):
        old.observe(seat)
    memo = old._obs_memo
    del old
    gc.collect()
    state = game_cls(num_players=3, target=11).new_state(1)  # the same keys, other frames
    state.current_player = 2
    assert np.array_equal(state.observe(1), layout.encode_plain(state, 1))
    assert state._obs_memo is memo  # taken over
    for seat in (0, 2, 1):  # observers 0 and 2 get the gone state's views back, reset
        assert np.array_equal(state.observe(seat), layout.encode_plain(state, seat))
    alive = game.new_state(2)  # the memo's state is alive: a new memo
    alive.observe(0)
    assert alive._obs_memo is not memo
    kit.check_observation_memo(game_cls, 3, games=4)


def test_a_copy_or_pickle_of_a_state_leaves_the_memo_behind():
    import copy
    import pickle

    state = RelayGame(num_players=2).new_state(0)
    first = state.observe(1)
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin._obs_memo is None and np.array_equal(twin.observe(1), first)


def test_a_deep_copy_of_a_game_carries_no_spare_memos_of_the_originals_states():
    import copy
    import gc

    game = RelayGame(num_players=2)
    game.observation_layout = OBS.extended([])  # a layout of the game's own (as options make), copied with it
    gone, alive = game.new_state(0), game.new_state(1)
    gone.observe(0), alive.observe(0)
    assert len(game.observation_layout._spares) == 2
    twin = copy.deepcopy(alive)  # copies the game and its layout too
    assert twin.game is not game and twin.game.observation_layout._spares == []
    del gone
    gc.collect()
    for seed in (2, 3):  # new states of the copied game get memos of their own
        state = twin.game.new_state(seed)
        assert np.array_equal(state.observe(1), twin.game.observation_layout.encode_plain(state, 1))


def test_a_block_reading_a_method_is_refused_by_name():
    method = Block("seat", 4, "", OBS["seat"].encode, reads=("legal_mask",))
    state = _relay_with_block(method)(num_players=2).new_state(0)
    with pytest.raises(TypeError, match="reads 'legal_mask', which is a method"):
        state.observe(0)


def test_the_kit_catches_a_broken_game():
    """Each check can fail: a redeal that changes what the seat sees, and one that changes nothing."""

    class Leaky(RelayGame):
        perfect_information = False

    with pytest.raises(AssertionError, match="never dealt anything anew"):
        kit.check_hidden_information(Leaky, 2, games=3)

    class Peeking(RelayGame):
        def new_state(self, seed=None):
            state = super().new_state(seed)
            state.resample_hidden = lambda seat, rng: _bumped(state)
            return state

    with pytest.raises(AssertionError, match="observation changed"):
        kit.check_hidden_information(Peeking, 2, games=3)

    class Lenient(RelayGame):  # a fast legality check that says yes to everything
        def new_state(self, seed=None):
            state = super().new_state(seed)
            state.is_legal = lambda action: True
            return state

    with pytest.raises(AssertionError, match="is_legal.. disagrees with the mask"):
        kit.check_random_games(Lenient, 2, games=1)


def _bumped(state):
    data = state.to_json()
    data["counter"] += 1
    return state.game.state_from_json(data)


@pytest.mark.slow
@pytest.mark.parametrize("env_id, n, options", CASES)
def test_the_kit_on_more_games(env_id, n, options):
    game_cls = envs.game_class(env_id)
    kit.check_random_games(game_cls, n, games=100, seed=10_000, **options)
    kit.check_round_trips(game_cls, n, games=20, points=3, seed=10_000, **options)
    kit.check_hidden_information(game_cls, n, _heuristic(env_id), games=20, points=8, seed=10_000, **options)
