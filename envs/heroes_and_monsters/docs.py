"""Heroes and Monsters, the doc tables: the generated blocks of docs/heroes_and_monsters.md.
``BLOCKS[name]()`` returns the Markdown that goes between ``<!-- BEGIN GENERATED: name -->`` and
``<!-- END GENERATED: name -->`` (``docs/generate.py`` writes them). Effects are written with
``text.effect_text``, the notation the cards print."""

from __future__ import annotations

from collections.abc import Callable

from envs.core.markdown import md_table
from envs.core.options import DRIVER_OPTIONS, options_markdown_table
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.content import ADVERSARIES, CARDS, GENERALS, INVADERS, PLANS
from envs.heroes_and_monsters.game import OPTION_SPEC, HeroesAndMonstersGame
from envs.heroes_and_monsters.text import effect_text, prims_text


def _table(header: list[str], rows: list[list]) -> str:
    return md_table(header, rows)


def starting_cards() -> str:
    rows = []
    for c in CARDS[: C.FIRST_FORTRESS_CARD]:
        provides = f"{C.RESOURCES[c.provides]}1" if c.provides >= 0 else "-"
        rows.append(
            [
                c.id,
                c.name,
                c.kind,
                C.MONSTER_RACES[c.race] if c.kind != C.RESOURCE else "-",
                provides,
                c.dmg or "-",
                effect_text(c.effect),
            ]
        )
    return _table(["id", "name", "kind", "race", "provides", "dmg", "effect"], rows)


def fortress_cards() -> str:
    rows = [
        [
            c.id,
            c.name,
            c.kind,
            C.MONSTER_RACES[c.race],
            "/".join(map(str, c.cost)),
            c.dmg if c.kind == C.UNIT else "-",
            c.copies,
            effect_text(c.effect),
        ]
        for c in CARDS[C.FIRST_FORTRESS_CARD :]
    ]
    total = sum(c.copies for c in CARDS)
    units = sum(c.copies for c in CARDS if c.kind == C.UNIT)
    return (
        _table(["id", "name", "kind", "race", "cost R/C/S", "dmg", "copies", "effect"], rows)
        + f"\n\n{total} Fortress cards: {units} Units, {total - units} Constructions; {C.FORTRESS_DECK_SIZE} are used, "
        f"{total - C.FORTRESS_DECK_SIZE} go to the Box unseen."
    )


def invaders() -> str:
    rows = [
        [
            i.id,
            i.name,
            C.INVADER_RACES[i.race],
            i.copies,
            list(i.health),
            i.damage,
            prims_text(i.on_entry),
            prims_text(i.on_attacked),
            prims_text(i.on_damage),
            prims_text(i.on_defeat),
            prims_text(i.aura),
        ]
        for i in INVADERS
    ]
    return _table(
        [
            "id",
            "name",
            "race",
            "copies",
            "health (2 players)",
            "Fortress dmg",
            "on entry",
            "on attacked",
            "on damage",
            "on defeat",
            "aura",
        ],
        rows,
    )


def generals() -> str:
    rows = []
    for g in GENERALS:
        deck = ", ".join(f"{name} x{k}" if k > 1 else name for name, k in g.deck)
        reserve = " ".join(f"{C.RESOURCES[x]}{g.reserve[x]}" for x in range(3) if g.reserve[x])
        rows.append(
            [g.id, f"`{g.key}`", g.name, C.MONSTER_RACES[g.race], g.dmg, g.draw, deck, reserve, effect_text(g.ability)]
        )
    return _table(["id", "key", "General", "race", "dmg", "draw", "starting deck", "Reserve", "ability"], rows)


def adversaries() -> str:
    rows = []
    for a in ADVERSARIES:
        plans = ", ".join(PLANS[p].name for p in a.plans) or "none"
        setup = []
        if a.shuffle_plans:
            setup.append(f"shuffle the Plans, {len(a.plans) - a.plans_in_play} unseen to the Box")
        if a.setup_mill:
            setup.append(f"MILL {a.setup_mill} after the Area is built")
        if a.first_invader >= 0:
            setup.append(f"{INVADERS[a.first_invader].name} enters column 0 first")
        victory = "defeat V(n) Invaders" if not a.plans else f"thwart {a.plans_in_play} Plans (the last one in play)"
        threat = "; ".join(
            f"Threat {lvl + 1}: "
            + ", ".join(
                filter(
                    None,
                    (
                        prims_text(a.threat_fury[lvl]) if a.threat_fury[lvl] else "",
                        ("START_OF_INVASION " + prims_text(a.threat_start[lvl])) if a.threat_start[lvl] else "",
                    ),
                )
            )
            for lvl in (1, 2)
        )
        rows.append([a.id, f"`{a.key}`", a.name, plans, "; ".join(setup) or "-", victory, threat])
    return _table(["id", "key", "Adversary", "Plans", "setup", "victory", "Threat modifiers"], rows)


def plans() -> str:
    adv = {p: a.name.split(",")[0] for a in ADVERSARIES for p in a.plans}
    rows = []
    for p in PLANS:
        ongoing = prims_text(p.fury) if p.fury else "START_OF_INVASION " + prims_text(p.start)
        race = "Any" if p.race == C.ANY_RACE else C.INVADER_RACES[p.race]
        rows.append(
            [
                f"P{p.id}",
                adv[p.id],
                p.name,
                ongoing,
                f"{p.thwart} {race} " + "/".join(map(str, p.required)),
                p.countdown,
                prims_text(p.fulfilment),
                prims_text(p.reward),
            ]
        )
    return _table(
        ["id", "Adversary", "Plan", "ongoing", "thwart (n = 1/2/3/4)", "countdown", "fulfilment", "reward"], rows
    )


def scaling() -> str:
    rows = [[n, C.VICTORY_TARGET[n - 1], f"{C.TOUGHNESS[n - 1]:+d}"] for n in range(1, C.MAX_PLAYERS + 1)]
    return _table(["players", "Randall's victory target V(n)", "toughness t(n)"], rows)


def actions() -> str:
    return HeroesAndMonstersGame.action_layout.markdown_table()


def observation() -> str:
    return HeroesAndMonstersGame.observation_layout.markdown_table()


def options() -> str:
    return options_markdown_table(tuple(OPTION_SPEC) + tuple(DRIVER_OPTIONS))


BLOCKS: dict[str, Callable[[], str]] = {
    "starting_cards": starting_cards,
    "fortress_cards": fortress_cards,
    "invaders": invaders,
    "generals": generals,
    "adversaries": adversaries,
    "plans": plans,
    "scaling": scaling,
    "actions": actions,
    "observation": observation,
    "options": options,
}
