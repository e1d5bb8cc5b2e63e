"""Position builders for Heroes and Monsters tests: a real setup, then fields overwritten through
the JSON form (``state_from_json``), with cards and Invaders given by name."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import CARD_BY_NAME, GENERALS, INVADER_BY_NAME
from envs.heroes_and_monsters.game import HeroesAndMonstersGame
from envs.heroes_and_monsters.turn import PHASES

DEFAULT_GENERALS = ("wargosh", "mortivar", "kryssa", "vorthax")
PASS = LAYOUT.encode("PASS")


def A(name: str, *args: int) -> int:
    return LAYOUT.encode(name, *args)


def cid(name: str) -> int:
    return CARD_BY_NAME[name].id


def iid(name: str) -> int:
    return INVADER_BY_NAME[name].id


def cards(names) -> list[int]:
    return [cid(x) if isinstance(x, str) else int(x) for x in names]


def make_game(n: int = 2, **options: Any) -> HeroesAndMonstersGame:
    options.setdefault("generals", list(DEFAULT_GENERALS[:n]))
    return HeroesAndMonstersGame(num_players=n, **options)


def position(n: int = 2, seed: int = 0, players: dict[int, dict] | None = None, game=None, **fields: Any):
    """A state after a real setup (``seed``), then ``fields`` and per-seat ``players`` fields
    overwritten (``state_from_json`` checks it, all but the conservation of the box). Card lists may
    use names. Defaults: ``player_0`` active in RECRUIT with its General's Reserve as pool, ward 0,
    D 0. ``phase`` may be a phase name."""
    options = {k: fields.pop(k) for k in list(fields) if k in {o.name for o in HeroesAndMonstersGame.option_spec}}
    game = game or make_game(n, **options)
    data = game.new_state(seed).to_json()
    gen = data["players"][0]["general"]
    data.update(active=0, current_player=0, phase=0, res=list(GENERALS[gen].reserve), dmg=0, ward=0)
    for key in ("fortress", "rubble", "area", "exile", "box"):
        if key in fields:
            fields[key] = (
                cards(c for c in fields[key])
                if key != "area"
                else [cid(c) if isinstance(c, str) else c for c in fields[key]]
            )
    for key in ("field", "inv_deck", "inv_discard"):
        if key in fields:
            fields[key] = [iid(x) if isinstance(x, str) else x for x in fields[key]]
    if isinstance(fields.get("phase"), str):
        fields["phase"] = PHASES.index(fields["phase"])
    data.update(fields)
    for seat, pf in (players or {}).items():
        pd = data["players"][seat]
        for key, value in pf.items():
            if key in ("hand", "table"):
                pd[key] = [[cid(c), False] if isinstance(c, str) else list(c) for c in value]
            elif key in ("deck", "discard"):
                pd[key] = cards(value)
            elif key == "general":
                pd[key] = [g.key for g in GENERALS].index(value) if isinstance(value, str) else value
            else:
                pd[key] = value
    return game.state_from_json(data, check_box=False)  # made-up piles (a deck of Ghouls) need not add up to the box


def hand_slot(state, seat: int, name: str) -> int:
    return next(h for h, (c, _) in enumerate(state.players[seat].hand) if c == cid(name))


def legal(state) -> list[int]:
    return np.flatnonzero(state.legal_mask()).tolist()


def fortress_of(size: int, top: list | None = None) -> list[int]:
    """A Fortress deck of ``size`` cards (Ghouls), with ``top`` (names) on top, the last name on top."""
    top = cards(top or [])
    return [cid("Ghoul")] * (size - len(top)) + top
