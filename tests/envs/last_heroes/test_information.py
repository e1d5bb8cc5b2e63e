"""What a seat may know (docs/last_heroes.md 5.2, G32, I13): its observation depends only on its own hand
and on public information.

Public: hand sizes, the cards that entered a hand publicly and are not yet played ("known cards"), and
the union of the opponents' hands (every weapon card is dealt, so it follows from the public cards by
deduction; the observation gives it as the "unseen" block). Hidden: which opponent holds which of the
other cards, and the monster deck order (hidden from everyone). So, for an observer:

- dealing the opponents' hidden cards again among them (same hand sizes, same known cards, same union)
  must leave its observation, its mask and its text view unchanged. This needs two opponents (n >= 3);
- with n = 2 the single opponent's hand *is* the union, so nothing about it is hidden: the observation
  may (and does) show it through the unseen block, while the opponent's own row shows only its known cards;
- reordering the monster decks (same content) must leave every observation unchanged;
- controls: the observer's own hand, an opponent's known cards and (with ``open_hands=True``) the hidden
  cards themselves do change the observation, so the checks above are able to fail.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import envs
from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.constants import PHASES
from envs.last_heroes.game import LastHeroesGame
from envs.last_heroes.observation import OBSERVATION_LAYOUT, SEAT

NUM_KINDS = 15
KNOWN = slice(SEAT["known_hand"], SEAT["known_hand"] + NUM_KINDS)
DECODE = [LAYOUT.decode(a) for a in range(LAYOUT.num_actions)]


# -- hidden-information edits -------------------------------------------------------------------
def hidden_cards(s, seat: int) -> list[int]:
    """Count per kind of the cards in ``seat``'s hand that no other player has seen."""
    return [s.hands[seat][k] - s.known[seat][k] for k in range(NUM_KINDS)]


def with_hands(s, hands: dict[int, list[int]]):
    data = s.to_json()
    for seat, hand in hands.items():
        data["players"][seat]["hand"] = list(hand)
    return s.game.state_from_json(data)


def redistribute_hidden(s, observer: int, rng: random.Random):
    """``s`` with the opponents' hidden cards dealt again at random among them, or None if no other deal
    exists. Hand sizes, known cards and the union of the opponents' hands stay the same."""
    opponents = [i for i in range(s.n) if i != observer]
    pool, sizes = [], []
    for i in opponents:
        hidden = hidden_cards(s, i)
        pool += [k for k in range(NUM_KINDS) for _ in range(hidden[k])]
        sizes.append(sum(hidden))
    for _ in range(30):
        rng.shuffle(pool)
        hands, at = {}, 0
        for i, size in zip(opponents, sizes):
            hand = list(s.known[i])
            for k in pool[at : at + size]:
                hand[k] += 1
            hands[i] = hand
            at += size
        if any(hands[i] != s.hands[i] for i in opponents):
            return with_hands(s, hands)
    return None


def swap_one_hidden_card(s, a: int, b: int):
    """``s`` with one hidden card of ``a`` swapped for a hidden card of another kind of ``b``, or None."""
    ha, hb = hidden_cards(s, a), hidden_cards(s, b)
    for ka in range(NUM_KINDS):
        for kb in range(NUM_KINDS):
            if ka != kb and ha[ka] and hb[kb]:
                hand_a, hand_b = list(s.hands[a]), list(s.hands[b])
                hand_a[ka] -= 1
                hand_a[kb] += 1
                hand_b[kb] -= 1
                hand_b[ka] += 1
                return with_hands(s, {a: hand_a, b: hand_b})
    return None


def reorder_decks(s, rng: random.Random):
    """``s`` with every monster deck in another order (same cards) and another random generator state."""
    data = s.to_json()
    changed = False
    for deck in data["decks"]:
        if len(set(deck)) >= 2:
            before = list(deck)
            while deck == before:
                rng.shuffle(deck)
            changed = True
    data["rng"] = np.random.default_rng(rng.randrange(2**32)).bit_generator.state
    return s.game.state_from_json(data) if changed else None


# -- random positions ---------------------------------------------------------------------------
def policy(s, legal, rng):
    """Random play that likes attacks, loads, powers and the Level 1 effect (so cards become known)."""
    weights = {"ATTACK": 30.0, "ATTACK_IMPACT": 30.0, "LOAD": 6.0, "L1_SWAP": 6.0, "EXCHANGE_TAKE": 20.0}
    return rng.choices(legal, [weights.get(DECODE[a][0], 1.0) for a in legal])[0]


def positions(n: int, seeds, every: int = 7, **options):
    """States met along random games (every ``every``-th step, plus the last), as fresh copies."""
    game = LastHeroesGame(num_players=n, **options)
    for seed in seeds:
        s = game.new_state(seed)
        rng = random.Random(seed)
        step = 0
        while not s.is_terminal():
            if step % every == 0:
                yield game.state_from_json(s.to_json())
            s.apply(policy(s, s.legal_actions(), rng))
            step += 1
        yield game.state_from_json(s.to_json())


def same_view(a, b, seat: int) -> bool:
    """Observation, mask (when the seat acts) and the seat's text view are identical."""
    if not np.array_equal(a.observe(seat), b.observe(seat)):
        return False
    if a.current_player == seat and not np.array_equal(a.legal_mask(), b.legal_mask()):
        return False
    return a.render(seat) == b.render(seat)


# -- tests ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_dealing_the_opponents_hidden_cards_again_leaves_the_observation_unchanged(n):
    rng = random.Random(n)
    checked = 0
    phases = set()
    for s in positions(n, range(12)):
        for observer in range(n):
            other = redistribute_hidden(s, observer, rng)
            if other is None:
                continue
            assert [sum(h) for h in other.hands] == [sum(h) for h in s.hands]
            assert other.known == s.known and other.hands[observer] == s.hands[observer]
            assert same_view(s, other, observer), (
                f"seat {observer} can tell how the hidden cards are split among its opponents "
                f"(n={n}, phase {PHASES[s.phase]}, round {s.round}); differing entries: "
                f"{np.flatnonzero(s.observe(observer) != other.observe(observer)).tolist()}"
            )
            # the seats whose hands changed do see the change (control: the edit was real)
            changed = [i for i in range(n) if other.hands[i] != s.hands[i]]
            assert changed and all(not np.array_equal(s.observe(i), other.observe(i)) for i in changed)
            checked += 1
            phases.add(PHASES[s.phase])
    assert checked > 100
    assert {"SETUP_PICK", "MAIN", "POST", "LOAD_SOURCE"} <= phases


@pytest.mark.parametrize("n", [3, 4, 5])
def test_swapping_one_hidden_card_between_two_opponents_is_invisible_to_the_others(n):
    rng = random.Random(100 + n)
    checked = 0
    for s in positions(n, range(100, 106), every=11):
        a, b = rng.sample(range(n), 2)
        other = swap_one_hidden_card(s, a, b)
        if other is None:
            continue
        for observer in range(n):
            if observer in (a, b):
                assert not np.array_equal(s.observe(observer), other.observe(observer))
            else:
                assert same_view(s, other, observer), f"seat {observer} sees a swap between seats {a} and {b}"
        checked += 1
    assert checked > 20


def test_known_cards_stay_public_after_a_redistribution():
    """Cards that entered a hand publicly (L1 effect, EXCHANGE) are never dealt away, and the observation
    of each opponent row shows exactly them, not the rest of that player's hand."""
    rng = random.Random(7)
    seen_known = 0
    for s in positions(3, range(200, 215), every=5):
        for observer in range(3):
            obs = OBSERVATION_LAYOUT.split(s.observe(observer))
            for r in (1, 2):
                i = (observer + r) % 3
                assert np.array_equal(obs["seats"][r][KNOWN], (np.array(s.known[i]) / 5.0).astype(np.float32))
                seen_known += sum(s.known[i]) > 0
            other = redistribute_hidden(s, observer, rng)
            if other is not None:
                for i in range(3):
                    if i != observer:
                        assert all(other.hands[i][k] >= s.known[i][k] for k in range(NUM_KINDS))
    assert seen_known > 0, "no card ever became public: the test saw no L1 effect or EXCHANGE"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_monster_deck_order_is_hidden_from_everyone(n):
    rng = random.Random(300 + n)
    checked = 0
    for s in positions(n, range(300, 306), every=9):
        other = reorder_decks(s, rng)
        if other is None:
            continue
        assert [sorted(d) for d in other.decks] == [sorted(d) for d in s.decks]
        for seat in range(n):
            assert same_view(s, other, seat), f"seat {seat} can see the order of a monster deck (n={n})"
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_observers_own_hand_does_change_its_observation(n):
    """Control: exchanging one card between the observer and an opponent changes what the observer sees
    (its hand and the unseen block), so the invariance checks above are not vacuous."""
    rng = random.Random(400 + n)
    checked = 0
    for s in positions(n, range(400, 404), every=13):
        observer = rng.randrange(n)
        opponent = (observer + 1) % n
        other = swap_one_hidden_card(s, observer, opponent)
        if other is None:
            continue
        a, b = s.observe(observer), other.observe(observer)
        assert not np.array_equal(a, b)
        hand = OBSERVATION_LAYOUT["hand"]
        assert not np.array_equal(a[hand.offset : hand.stop], b[hand.offset : hand.stop])
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("n", [2, 3])
def test_an_opponents_known_cards_are_visible(n):
    """Control: known cards are public, so changing them changes the observation of every other seat."""
    for s in positions(n, [500], every=10):
        if s.round == 0 or s.is_terminal():
            continue
        target = 1
        hidden = hidden_cards(s, target)
        k = next((k for k in range(NUM_KINDS) if hidden[k]), None)
        if k is None:
            continue
        data = s.to_json()
        data["players"][target]["known"][k] += 1  # the same hand, one more of its cards public
        other = s.game.state_from_json(data)
        assert not np.array_equal(s.observe(0), other.observe(0))
        assert np.array_equal(s.observe(target), other.observe(target))  # its own row shows its whole hand
        return
    pytest.fail("no position with a hidden card")


def test_with_open_hands_a_redistribution_is_visible():
    """Control: with ``open_hands=True`` every hand is shown, so the same edit must be seen."""
    rng = random.Random(9)
    seen = 0
    for s in positions(3, range(600, 603), every=10, open_hands=True):
        other = redistribute_hidden(s, 0, rng)
        if other is not None:
            assert not np.array_equal(s.observe(0), other.observe(0))
            seen += 1
    assert seen > 5


def test_two_players_see_the_opponents_hand_only_as_the_public_union():
    """n = 2: the opponent's hand is public by deduction (all cards are dealt), so the unseen block equals
    it exactly; the opponent's row shows only its known cards, and the own row the whole own hand."""
    checked = 0
    for s in positions(2, range(700, 706), every=3):
        for seat in (0, 1):
            obs = OBSERVATION_LAYOUT.split(s.observe(seat))
            opponent = 1 - seat
            unseen = obs["cards"][NUM_KINDS:]
            assert np.array_equal(unseen, np.minimum(np.array(s.hands[opponent]) / 5.0, 1.0).astype(np.float32))
            assert np.array_equal(obs["seats"][1][KNOWN], (np.array(s.known[opponent]) / 5.0).astype(np.float32))
            assert np.array_equal(obs["seats"][0][KNOWN], (np.array(s.hands[seat]) / 5.0).astype(np.float32))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("n", [2, 4])
def test_the_aec_env_gives_masks_only_to_the_acting_agent(n):
    """The mask is part of what an agent observes: the others get all zeros, so it leaks nothing."""
    env = envs.make("last_heroes_v0", num_players=n)
    env.reset(seed=n)
    rng = random.Random(n)
    for _ in range(150):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        actor = env.agent_selection
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.any() == (agent == actor)
            assert np.array_equal(env.action_mask(agent), mask)
        legal = np.flatnonzero(env.observe(actor)["action_mask"]).tolist()
        env.step(rng.choice(legal))


@pytest.mark.parametrize("n", [2, 4])
def test_resample_hidden_on_a_clone_deals_what_the_json_round_trip_deals(n):
    """The search calls ``resample_hidden`` once a simulation, so the Python state redeals a clone; the
    compiled engine redeals through the JSON form. For the same generator both give the same state
    (the JSON form, options aside), and the generator ends in the same place."""
    compiled_game = LastHeroesGame(num_players=n, engine="compiled")

    def plain(state) -> dict:
        data = state.to_json()
        data["options"].pop("engine", None)
        return data

    changed = 0
    for i, s in enumerate(positions(n, range(40, 44), every=5)):
        seat = i % n
        fast_rng, json_rng = np.random.default_rng(i), np.random.default_rng(i)
        fast = s.resample_hidden(seat, fast_rng)
        twin = compiled_game.state_from_json(s.to_json()).resample_hidden(seat, json_rng)
        assert type(twin).__name__ == "CompiledState", "the redealt state keeps its engine"
        assert plain(fast) == plain(twin), f"position {i}, seat {seat}"
        for other in range(n):  # no cache of the original survives the redeal
            assert np.array_equal(fast.observe(other), twin.observe(other)), f"position {i}, seat {other}"
        assert fast_rng.integers(2**32) == json_rng.integers(2**32)
        assert same_view(fast, s, seat)
        changed += fast.to_json() != s.to_json()
        for _ in range(3):  # the redealt world plays on like any state, on both engines
            if fast.is_terminal():
                break
            action = fast.legal_actions()[0]
            fast.apply(action)
            twin.apply(action)
            assert plain(fast) == plain(twin)
    assert changed > 0, "no redeal changed anything: the comparison would prove nothing"
