"""Heroes and Monsters rules, text: what an action means now (``describe_action``) and the table
as text (``render``). A mixin of :class:`~.state.HeroesAndMonstersState`.
"""

from __future__ import annotations

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.common import CHOOSE_TRASH, COMBAT, EFFECTS, END_REASONS, PHASES, RECRUIT, SUPPORT
from envs.heroes_and_monsters.content import ADVERSARIES, CARDS, GENERALS, INVADERS, PLANS
from envs.heroes_and_monsters.docs import effect_text


def _prims_text(effect: C.Effect) -> str:
    return effect_text(effect).split("] ", 1)[-1]


class TextMixin:
    """Readable views of the state."""

    def describe_action(self, action: int) -> str:
        name, args = LAYOUT.decode(action)
        seat = self.current_player if self.current_player >= 0 else self.active
        p = self.players[seat]
        try:
            if name == "BUY":
                c = self.area[args[0]]
                if c < 0:
                    return f"Buy from slot {args[0]} (empty)"
                cost = "/".join(map(str, CARDS[c].cost))
                return f"Buy {CARDS[c].name} ({cost}) from slot {args[0]}"
            if name == "USE_HAND":
                c = p.hand[args[0]][0]
                return f"Use {CARDS[c].name} in hand slot {args[0]}: {effect_text(CARDS[c].effect)}"
            if name == "USE_TABLE":
                c = p.table[args[0]][0]
                return f"Use Construction {CARDS[c].name}: {effect_text(CARDS[c].effect)}"
            if name == "USE_GENERAL":
                g = GENERALS[p.general]
                return f"Use {g.name}'s ability: {effect_text(g.ability)}"
            if name == "COPY":
                owner = (seat + args[0]) % self.n
                c = self.players[owner].table[args[1]][0]
                return f"COPY {CARDS[c].name} of player_{owner}: {_prims_text(CARDS[c].effect)}"
            if name == "ATTACK":
                iid = self.field[args[0]]
                if iid < 0:
                    return f"Attack column {args[0]} (no Invader)"
                col = args[0]
                levels = self.levels(col)
                last = self.markers[col] + 1 >= len(levels)
                return (
                    f"Attack {INVADERS[iid].name} in column {col}: pay level {self.markers[col] + 1} of "
                    f"{len(levels)} ({self.next_cost(col)} damage)" + (", defeats it" if last else "")
                )
            if name == "SELECT_HAND":
                what = "Trash" if self.phase == CHOOSE_TRASH else "Discard"
                return f"{what} {CARDS[p.hand[args[0]][0]].name} (hand slot {args[0]})"
            if name == "SELECT_TABLE":
                return f"Discard Construction {CARDS[p.table[args[0]][0]].name} to the Rubble"
            if name == "PAY":
                return f"Pay 1 {C.RESOURCE_NAMES[args[0]]}"
            return {
                RECRUIT: "Pass: end Construction and Recruitment",
                EFFECTS: "Pass: end Effects and gather damage",
                SUPPORT: "Pass: leave the support window",
                COMBAT: "Pass: end the turn",
                CHOOSE_TRASH: "Pass: stop trashing",
            }.get(self.phase, "Pass")
        except (IndexError, AttributeError, TypeError):
            return LAYOUT.label(action)

    def render(self, seat: int | None = None) -> str:
        lines = [
            f"Heroes and Monsters - {ADVERSARIES[self.adversary].name} - round {self.round}, "
            f"player_{self.active} active, phase {PHASES[self.phase]}, player_{self.current_player} to act",
            f"Fortress deck {len(self.fortress)} (Threat {self.threat()}), Rubble {len(self.rubble)}, "
            f"ward {self.ward}, "
            f"defeated {self.defeated}"
            + (f"/{self.game.victory_target}" if not ADVERSARIES[self.adversary].plans else ""),
        ]
        if self.plan >= 0:
            lines.append(
                f"Plan {PLANS[self.plan].name}: {self.plan_progress}/{self.plan_required()}, countdown "
                f"{self.plan_countdown}, thwarted {self.thwarted}"
            )
        bf = []
        for c in range(C.NUM_COLUMNS):
            if self.field[c] < 0:
                bf.append(f"[{c}] -")
            else:
                inv = INVADERS[self.field[c]]
                bf.append(
                    f"[{c}] {inv.name} ({C.INVADER_RACES[inv.race]}) health {self.levels(c)}, "
                    f"markers {self.markers[c]}, next level {self.next_cost(c)}, "
                    f"Fortress dmg {self.fortress_damage(c)}"
                )
        lines.append("Battlefield:")
        lines += ["  " + b for b in bf]
        for row in range(2):
            cards = [
                f"{CARDS[c].name} {'/'.join(map(str, CARDS[c].cost))}" if c >= 0 else "-"
                for c in self.area[4 * row : 4 * row + 4]
            ]
            lines.append(f"Area row {row + 1} (cost R/C/S): " + " | ".join(cards))
        pool = self.pool(self.active) if self.hand_up else [0, 0, 0]  # it counts the hand's resource cards
        bonus = ", ".join(f"{C.MONSTER_RACES[r]} +{b}" for r, b in enumerate(self.bonus) if b)
        lines.append(
            f"Active pool R{pool[0]} C{pool[1]} S{pool[2]}, D {self.dmg}" + (f", race bonus {bonus}" if bonus else "")
        )
        for i, p in enumerate(self.players):
            visible = seat is None or seat == i or (i == self.active and self.hand_up)
            hand = (
                ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.hand) if visible else f"{len(p.hand)} cards"
            )
            table = ", ".join(CARDS[c].name + ("*" if u else "") for c, u in p.table) or "-"
            lines.append(
                f"player_{i} {GENERALS[p.general].name}: hand [{hand}] table [{table}] deck {len(p.deck)} "
                f"discard {len(p.discard)}"
            )
        if self.result is not None:
            lines.append(f"Game over: {END_REASONS[self.result]}")
        return "\n".join(lines)
