"""Once per turn follows the physical card (docs 2.1): a used card stays used wherever it goes,
and a fresh copy is another card."""

from __future__ import annotations

import numpy as np

from tests.envs.heroes_and_monsters.builders import A, cid, hand_slot, legal, position


# -- once per turn follows the physical card (docs 2.1) --------------------------------------------
def test_a_fresh_copy_drawn_from_the_deck_is_not_used():
    """The used Goblin Cutthroat lies in the discard pile; the copy drawn from the deck is another card."""
    s = position(
        phase="EFFECTS",
        res=[1, 0, 0],
        players={0: {"hand": ["Goblin Cutthroat", "Goblin Shaman"], "deck": ["Ghoul", "Goblin Cutthroat"]}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))  # discard self: DMG 2
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Shaman")))  # R1: DRAW 1, no reshuffle needed
    p = s.players[0]
    assert p.discard == [cid("Goblin Cutthroat")]
    assert [cid("Goblin Cutthroat"), False] in p.hand
    assert A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")) in legal(s)
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))
    assert s.dmg == 4


def test_a_used_card_reshuffled_into_the_deck_and_drawn_again_stays_used():
    s = position(
        phase="EFFECTS",
        res=[1, 0, 0],
        players={0: {"hand": ["Goblin Cutthroat", "Goblin Shaman"], "deck": [], "discard": []}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Cutthroat")))
    s.apply(A("USE_HAND", hand_slot(s, 0, "Goblin Shaman")))  # deck empty: reshuffle, draw it back
    assert s.players[0].hand == [[cid("Goblin Cutthroat"), True], [cid("Goblin Shaman"), True]]
    assert A("USE_HAND", 0) not in legal(s)


def test_a_used_card_revealed_back_to_the_discard_pile_is_still_recalled_used():
    """Death Knight used, reshuffled by REVEAL and put back on the discard pile: RECALL brings it back used."""
    s = position(
        generals=["mortivar", "wargosh"],
        phase="EFFECTS",
        res=[0, 2, 0],
        players={0: {"hand": ["Death Knight", "Wraith"], "deck": [], "discard": []}},
    )
    s.apply(A("USE_HAND", hand_slot(s, 0, "Death Knight")))  # DMG 5
    s.apply(A("USE_HAND", hand_slot(s, 0, "Wraith")))  # C1: REVEAL reshuffles, reveals the Death Knight (+4)
    assert s.dmg == 9 and s.players[0].discard == [cid("Death Knight")]
    s.apply(A("USE_GENERAL"))  # Mortivar C1: RECALL
    assert [cid("Death Knight"), True] in s.players[0].hand
    assert A("USE_HAND", hand_slot(s, 0, "Death Knight")) not in legal(s)


def test_used_cards_are_tracked_in_the_pile_where_they_lie():
    """Randomized: the used cards of the turn are always a sub-multiset of the pile they are said to be in."""
    from collections import Counter

    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

    for n, adversary in ((1, "randall"), (2, "sylvaen"), (3, "thargrim")):
        generals = ["grizznak", "mortivar", "kryssa"][:n]
        game = HeroesAndMonstersGame(num_players=n, adversary=adversary, generals=generals)
        for seed in range(3):
            s = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_over():
                p = s.players[s.active]
                assert not Counter(s.used_discarded) - Counter(p.discard)
                assert not Counter(s.used_in_deck) - Counter(p.deck)
                s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
