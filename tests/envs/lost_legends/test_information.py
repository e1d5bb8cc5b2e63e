"""What a seat may know (docs/lost_legends.md 5.2): its observation depends only on its own hand,
pick and draft memory and on public information.

- ``resample_hidden(seat, rng)`` deals anew what the seat cannot see (others' unseen hand cards and
  face-down picks, the monster piles): the seat's observation, its mask when it acts, its text view
  and the heuristic bot's choice for it stay the same, in particular during the draft;
- the resampled states really differ in hidden information (so the check can fail);
- controls: the seat's own hand, and an opponent's public equipment, do change the observation.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.lost_legends import draft, text
from envs.lost_legends.common import DRAFT_PICK, DRAFT_PLACE, GEAR_UP, NO
from envs.lost_legends.content import CARDS, KINDS
from envs.lost_legends.game import LostLegendsGame
from envs.lost_legends.heuristic import HeuristicBot
from tests.envs.lost_legends.builders import act
from tests.helpers import random_states


@pytest.mark.parametrize("n", [3, 4, 5])
def test_resample_hidden_keeps_what_the_seat_sees(n):
    rng = np.random.default_rng(n)
    checked = changed = drafting = 0
    for s in random_states(LostLegendsGame(num_players=n), 10 + n, every=3):
        for seat in range(n):
            other = s.resample_hidden(seat, rng)
            assert np.array_equal(other.observe(seat), s.observe(seat)), (seat, s.render(seat))
            assert other.render(seat) == s.render(seat)
            assert other.hands[seat] == s.hands[seat] and other.picks[seat] == s.picks[seat]
            if seat == s.current_player:
                assert np.array_equal(other.legal_mask(), s.legal_mask())
                assert HeuristicBot().act_state(other) == HeuristicBot().act_state(s)
            hidden = [(other.hands[j], other.picks[j]) for j in range(n) if j != seat]
            if hidden != [(s.hands[j], s.picks[j]) for j in range(n) if j != seat]:
                changed += 1
                drafting += s.phase == GEAR_UP
            checked += 1
    assert checked > 100 and changed >= 10 and drafting >= 10


def test_resample_keeps_seen_cards_in_place():
    """A card the seat has seen stays where it is: only never-seen cards move."""
    rng = np.random.default_rng(0)
    for s in random_states(LostLegendsGame(num_players=4), 3):
        if s.phase != GEAR_UP:
            break
        for seat in range(4):
            other = s.resample_hidden(seat, rng)
            for j in range(4):
                for c in s.hands[j]:
                    if c in s.seen[seat]:
                        assert c in other.hands[j]
                if s.picks[j] != NO and s.picks[j] in s.seen[seat]:
                    assert other.picks[j] == s.picks[j]


def _melee(cards: list[int]) -> list[int]:
    return [c for c in cards if KINDS[CARDS[c].kind] == "W-mel"]


def test_controls_visible_changes_do_change_the_observation():
    s = LostLegendsGame(num_players=4).new_state(2)
    seat = s.current_player
    data = s.to_json()
    a, b = (seat + 1) % 4, seat
    # Swapping one of my hand cards with an opponent's changes my observation (my hand) ...
    pa, pb = data["players"][a], data["players"][b]
    pa["hand"][0], pb["hand"][0] = pb["hand"][0], pa["hand"][0]
    pa["hand"].sort()
    pb["hand"].sort()
    swapped = s.game.state_from_json(data)
    assert not np.array_equal(swapped.observe(b), s.observe(b))
    # ... and the same swap seen from a third seat (which saw neither card) changes nothing.
    third = (seat + 2) % 4
    assert np.array_equal(swapped.observe(third), s.observe(third))
    # An opponent's public equipment is visible.
    data = s.to_json()
    # a melee weapon b cannot see, moved (a card is in one place at a time)
    zone = next(z for z in (data["decks"][0], data["removed"], data["players"][a]["hand"]) if _melee(z))
    sword = _melee(zone)[0]
    zone.remove(sword)
    data["players"][a]["slots"][0] = sword
    assert not np.array_equal(s.game.state_from_json(data).observe(b), s.observe(b))


def test_a_revealed_pick_is_public_and_never_resampled():
    s = LostLegendsGame(num_players=4).new_state(6)
    while s.decision != 1:  # DRAFT_PLACE
        s.apply(int(np.flatnonzero(s.legal_mask())[0]))
    placer = s.current_player
    card = s.picks[placer]
    rng = np.random.default_rng(0)
    for seat in range(4):
        if seat != placer:
            assert text.card_name(card) in s.render(seat)
            assert all(s.resample_hidden(seat, rng).picks[placer] == card for _ in range(5))


def test_resampled_states_are_consistent_for_every_seat():
    """After a redeal for one seat, every other seat still has seen its own hand and pick, and the
    cards stay conserved: the sample is a possible game, not only a possible view."""
    rng = np.random.default_rng(1)
    for s in random_states(LostLegendsGame(num_players=5), 8, every=2):
        if s.phase != GEAR_UP:
            break
        for seat in range(5):
            other = s.resample_hidden(seat, rng)
            cards = sorted([c for j in range(5) for c in other.hands[j] + [other.picks[j]] if c != NO] + other.sixth)
            assert cards == sorted([c for j in range(5) for c in s.hands[j] + [s.picks[j]] if c != NO] + s.sixth)
            for j in range(5):
                assert set(other.hands[j]) <= set(other.seen[j])
                if other.picks[j] != NO and not draft.pick_revealed(other, j):
                    assert other.picks[j] in other.seen[j]


def _step(s) -> None:
    if s.decision == DRAFT_PICK:
        act(s, "PICK", 0)
    else:
        act(s, "PLACE_SKILL")


def _play_draft_until(s, round_, seat):
    """Pick slot 0 / place as a skill until ``seat`` is asked for its pick in round ``round_``."""
    while not (s.draft_round == round_ and s.decision == DRAFT_PICK and s.current_player == seat):
        _step(s)


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("round_", [1, 2, 3, 4, 5])
def test_no_seat_can_infer_a_pick_before_its_reveal(n, round_):
    """2.2: the passed hands lie face down until every pick is placed. A seat that saw the passed
    hand while the others were still placing could tell an unrevealed pick from it (with 3-4 players
    a hand comes back round the table: it then lacks exactly the unrevealed card). Every seat's
    pick is varied; no other seat's observation may change before that pick is revealed."""
    for last in range(n):
        _check_pick_hidden(n, round_, last)


def _check_pick_hidden(n, round_, last):
    game = LostLegendsGame(num_players=n, starting_player=0)
    s = game.new_state(11)
    _play_draft_until(s, round_, last)
    a, b = s.clone(), s.clone()
    act(a, "PICK", 0)
    act(b, "PICK", 1)
    while not (a.decision == DRAFT_PLACE and a.current_player == last):
        for j in range(n):
            if j != last:
                assert (a.observe(j) == b.observe(j)).all(), (a.draft_round, a.current_player, j)
        _step(a)
        _step(b)
    assert a.phase == GEAR_UP and a.draft_round == round_
