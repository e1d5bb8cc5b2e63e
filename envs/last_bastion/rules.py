"""Last Bastion rules engine: :class:`LastBastionGame` (configuration) and :class:`LastBastionState`.

How the engine runs. A state holds a *stack of tasks* (small JSON-able lists such as
``["draw", 1]`` or ``["fx", "LOSE_LIFE", 1, src_space, victim, origin]``) and at most one pending
*decision* (a dict: its kind, the legal action ids, and what it needs to resume). ``apply`` feeds the
action to the decision's handler, which may push tasks; ``_run`` then pops tasks until one of them
raises the next decision or the game ends. Every board-turn is the tasks
``turn_start -> recurring -> power -> hero -> turn_end``, so a Hero phase, a chain of draws or a
Kaela double resolution are all just tasks on the stack.

Modules. This file holds the options, :class:`LastBastionGame` and the State API (apply, rewards,
views, JSON). The engine is split by phase into mixins that :class:`LastBastionState` assembles:
``state.py`` (fields, setup, queries, tokens, Grasp and elements, the task loop), ``horde.py``
(board-turns, putting cards into play), ``effects.py`` (effects) and ``hero.py`` (MAIN, tiles,
combat). Their shared constants are re-exported here.

Frames. Rules work in the absolute frame (board 0 red at the bottom, tiles 0-8 by position,
spaces 0-11). Actions and observations use the acting/observing seat's frame
(``content.REL_TILE``, relative space ``(s - 3 b) mod 12``, seat offsets).

Public attributes the heuristic bot may read (all public information): ``heroes``, ``seat_of``,
``player_at``, ``layout``, ``grasped``, ``spaces``, ``elements``, ``board``, ``active``,
``neutral``, ``acted``, ``moved``, ``current_player``, ``reserve_life``, ``reserve_cta``,
``reserve_equip``, ``decision`` (kind, legal ids, and the revealed ``card`` of PLACE_CARD, the
``task`` of CHOOSE_VICTIM, the ``targets`` and ``dice`` of COMBAT_RESOLVE), and the helper methods
``legal_actions``, ``effective_resistance``, ``completable``, ``power_usable``, ``ongoing_count``,
``suppressed``, ``sealed``, and ``len(deck)`` (the deck size is public). The deck order and
``set_aside`` are hidden and must not be read by a player.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.chance import Chance
from envs.core.game import Game, Outcome, check_seat
from envs.core.options import OBSERVATION_MODE, Option, is_int_in, num_players_option, reward_scheme_option
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT, OUTCOMES
from envs.last_bastion.effects import Effects
from envs.last_bastion.hero import HeroPhase
from envs.last_bastion.horde import HordePhase
from envs.last_bastion.observation import OBSERVATION_LAYOUT, observation_layout
from envs.last_bastion.observation_fast import observe
from envs.last_bastion.state import (  # noqa: F401  (re-exported: the names rules.py always offered)
    ACTIVATE_ID,
    COLOR_ID,
    CTA_ID,
    DEAD,
    DEPLOYED,
    EFFECT_ID,
    ENCHANT_ID,
    END_TURN_ID,
    FIGHT_BOTH_ID,
    FIGHT_ID,
    GONE,
    HOME,
    IN,
    MOVE_ID,
    OUT,
    PARKED,
    PLAYER_ID,
    RESOLVE_ID,
    RESULTS,
    SHAPED,
    SPACE_ID,
    TILE_ID,
    VICTIM_PRIMS,
    StateBase,
    _copy,
)


def _heroes_ok(v: Any) -> bool:
    if v is None:
        return True
    names = list(v)
    return all(n in C.HERO_BY_NAME for n in names) and len(set(names)) == len(names) and 1 <= len(names) <= 4


def _layout_ok(v: Any) -> bool:
    return v is None or (sorted(v) == sorted(t.name for t in C.TILES))


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(1, 4, 4),
    reward_scheme_option(
        "win_loss",
        ("win_loss",),
        {
            "score_sheet": "victory 1 + S/20 (S the score-sheet total), defeat -1, truncation 0",
            "shaped": "win_loss plus dense team terms: +0.02 per Monster and +0.2 per Warlord vanquished, "
            "-0.03 per Life lost, -0.1 per tile grasped, +0.05 per Grasp removed",
        },
    ),
    Option(
        "difficulty",
        "normal",
        '"novice", "normal", "difficult" or "heroic"',
        "deck size, Warlords, Novice extras",
        choices=C.DIFFICULTIES,
    ),
    Option(
        "heroes",
        None,
        "None (random) or a list of num_players distinct hero names " + ", ".join(h.name for h in C.HEROES),
        "heroes in agent order (player_0 first)",
        check=_heroes_ok,
    ),
    Option(
        "effect_order",
        "choose",
        '"choose" or "fixed"',
        "the controller orders simultaneous differing effects, or slot order",
        choices=("choose", "fixed"),
    ),
    Option(
        "max_board_turns",
        400,
        "an integer 1..10000",
        "truncation cap in board-turns (neutral ones included)",
        check=is_int_in(1, 10_000),
    ),
    Option(
        "obs_card_ids",
        False,
        "True or False",
        "append a card-id one-hot per space and for the pending card (+780 floats)",
        check=lambda v: isinstance(v, bool),
    ),
    Option(
        "obs_hints",
        False,
        "True or False",
        "append the rule-based bot's worth of each MAIN choice (envs/last_bastion/hints.py, +52 floats)",
        check=lambda v: isinstance(v, bool),
    ),
    Option(
        "tile_layout",
        None,
        "None (random) or a list of the 9 tile names",
        "fixed Bastion layout, by position 0-8",
        check=_layout_ok,
    ),
    OBSERVATION_MODE,
)


class LastBastionGame(Game):
    env_id = "last_bastion_v0"
    min_players, max_players = 1, 4
    cooperative = True
    option_spec = OPTION_SPEC
    end_reasons = tuple(RESULTS.values())
    observation_options = ("obs_card_ids", "obs_hints")

    action_layout = LAYOUT
    observation_layout = OBSERVATION_LAYOUT

    def __init__(self, **options: Any):
        super().__init__(**options)
        heroes = self.options["heroes"]
        if heroes is not None and len(list(heroes)) != self.num_players:
            raise ValueError(
                f"option heroes={heroes!r} must name exactly num_players={self.num_players} distinct heroes "
                f"among {[h.name for h in C.HEROES]}"
            )
        self.warlords = C.WARLORD_COUNT[self.options["difficulty"]]
        self.observation_layout = observation_layout(self.options["obs_card_ids"], self.options["obs_hints"])

    def max_game_length(self) -> int:
        return self.options["max_board_turns"] * 200

    def new_state(self, seed: int | None = None) -> LastBastionState:
        s = LastBastionState(self, Chance(seed))
        s._setup()
        s._run()
        return s

    def state_from_json(self, data: dict[str, Any]) -> LastBastionState:
        s = LastBastionState(self, Chance.from_json(data["chance"]))
        for key in LastBastionState.FIELDS:
            if key in data:
                setattr(s, key, _copy(data[key]))
        s.heroes = [dict(h, equip=list(h["equip"])) for h in data["heroes"]]
        s.elements = {k: dict(v) for k, v in data["elements"].items()}
        if s.decision is None and s.result is None:
            s._run()
        return s


def _effect_text(e) -> str:
    if e is None:
        return "-"
    if e.prim in C.ONGOING or e.prim in _NO_ARG:
        return e.prim
    arg = C.COLORS[e.arg] if e.prim == "GAIN_EQUIP" and isinstance(e.arg, int) else e.arg
    return f"{e.prim}({arg})"


_NO_ARG = frozenset(
    (
        "DISCARD_ALL_EQUIP",
        "GRASP_FRONT",
        "GRASP_HERE",
        "GRASP_BOARD",
        "PURIFY",
        "CORRUPT",
        "TO_CENTRE",
        "SIEGE_BREACH",
        "PLAGUE_WIND",
        "SOUL_DRAIN",
    )
)


class LastBastionState(HordePhase, Effects, HeroPhase, StateBase):
    """The whole mutable game: the phase mixins over :class:`~envs.last_bastion.state.StateBase`, with
    the State API."""

    # == the State API ===========================================================================
    def is_terminal(self) -> bool:
        return self.result is not None and self.result != "truncated"

    def is_truncated(self) -> bool:
        return self.result == "truncated"

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome.team(self.n, self.result == "victory", RESULTS[self.result], self.result == "truncated")

    def legal_mask(self) -> np.ndarray:
        legal = self.decision["legal"] if self.decision is not None else []
        cached = self.__dict__.get("_mask_cache")  # (legal ids, mask): the driver asks twice per decision
        if cached is None or cached[0] != legal:
            mask = np.zeros(LAYOUT.num_actions, np.int8)
            mask.put(legal, 1)  # put: cheaper than fancy-index assignment from a list
            cached = self._mask_cache = (list(legal), mask)
        return cached[1].copy()

    def legal_actions(self) -> list[int]:
        return list(self.decision["legal"]) if self.decision is not None else []

    def num_legal(self) -> int:
        return len(self.decision["legal"]) if self.decision is not None else 0

    def apply_legal(self, action: int) -> None:
        before = dict(self.counters)
        d = self.decision
        self.decision = None
        self._handle(d, action)
        self._run()
        self._set_rewards(before)

    def _abs_space(self, j: int) -> int:
        return (j + 3 * self._seat()) % 12

    def _abs_tile(self, t: int) -> int:
        return C.ABS_TILE[self._seat()][t]

    def _abs_player(self, o: int) -> int:
        return self.player_at[(self._seat() + o) % 4]

    def _handle(self, d: dict, action: int) -> None:
        name, args = LAYOUT.decode(action)
        kind = d["kind"]
        p = self.active
        if kind == "MAIN":
            self._main(name, args)
        elif kind == "PLACE_CARD":
            self._place(self._abs_space(args[0]))
        elif kind == "CHOOSE_VICTIM":
            task = list(d["task"])
            task[4] = self._abs_player(args[0])
            self.stack.append(task)
        elif kind == "DISCARD_COLOR":
            self._lose_equip(d["victim"], args[0])
            self.stack.append(["discard_equip", d["victim"], d["left"] - 1])
        elif kind == "GAIN_COLOR":
            self._gain_equip(p, args[0])
        elif kind == "STANDARD_COLOR":
            std = self.elements["standard"]
            std.update(state=DEPLOYED, where=args[0], seat=self.seat_of[p])
        elif kind == "QUARRY_SPACE":
            self.elements["trap"].update(state=DEPLOYED, where=self._abs_space(args[0]))
        elif kind == "TREBUCHET_TARGET":
            self.elements["net"].update(state=DEPLOYED, where=self._abs_space(args[0]))
        elif kind == "TOMB_TARGET":
            self._remove_card(self._abs_space(args[0]), False)
            self._lose_life(p, 1)
        elif kind == "TOWER_SOURCE":
            src = self._abs_space(args[0])
            self._decide_spaces("TOWER_DEST", [s for s in range(12) if self.spaces[s] < 0], src=src)
        elif kind == "TOWER_DEST":
            self._move_card(d["src"], self._abs_space(args[0]))
        elif kind in ("FOUNTAIN_TARGET", "PURIFY_TARGET"):
            if name == "SELECT_TILE":
                self._ungrasp_tile(self._abs_tile(args[0]))
            elif name == "SELECT_PLAYER":
                self._ungrasp_board(self._abs_player(args[0]))
            else:
                self.sanct[self._abs_space(args[0])] = self.seat_of[p]
        elif kind == "DISPENSARY_TARGET":
            self._heal(self._abs_player(args[0]))
        elif kind == "COMBAT_RESOLVE":
            self._resolve_combat(d, args[0])
        elif kind == "EFFECT_ORDER":
            items = d["items"]
            chosen = [it for it in items if it[0] == args[0]][0]
            rest = [it for it in items if it[0] != args[0]]
            self._push(chosen[1], ["order", d["order_kind"], rest])

    # -- rewards and scores --
    def score_sheet(self) -> int:
        won = self.result == "victory"
        s = C.VICTORY_POINTS[self.game.options["difficulty"]] if won else 0
        s += sum(h["life"] for h in self.heroes) + 2 * sum(h["cta"] for h in self.heroes)
        s -= 3 * sum(h["status"] == DEAD for h in self.heroes) + 4 * sum(self.grasped)
        return s

    def _set_rewards(self, before: dict) -> None:
        scheme = self.game.options["reward_scheme"]
        r = 0.0
        if self.result is not None:
            if self.result == "victory":
                r = 1.0 + self.score_sheet() / 20.0 if scheme == "score_sheet" else 1.0
            elif self.result != "truncated":
                r = -1.0
        if scheme == "shaped":
            r += sum(w * (self.counters[k] - before[k]) for k, w in SHAPED.items())
        self.last_rewards = [r] * self.n

    def rewards(self) -> list[float]:
        return list(self.last_rewards)

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.n
        return (
            list(self.last_rewards)
            if self.game.options["reward_scheme"] != "shaped"
            else [{"victory": 1.0, "truncated": 0.0}.get(self.result, -1.0)] * self.n
        )

    def scores(self) -> list[float]:
        return [float(self.score_sheet())] * self.n

    # -- views --
    def observe(self, seat: int) -> np.ndarray:
        return observe(self, check_seat(self, seat))

    def describe_action(self, action: int) -> str:
        name, args = LAYOUT.decode(action)
        p = self.current_player if self.current_player >= 0 else 0
        seat = self.seat_of[p]
        if name in ("MOVE_TO", "CALL_TO_ARMS", "SELECT_TILE"):
            t = C.ABS_TILE[seat][args[0]]
            return f"{name} t{t} {C.TILES[self.layout[t]].name}"
        if name in ("FIGHT", "ENCHANT", "SELECT_SPACE"):
            s = (args[0] + 3 * seat) % 12
            card = self.placing if (self.decision and self.decision["kind"] == "PLACE_CARD") else self.spaces[s]
            what = C.CARDS[card].name if card >= 0 else "empty"
            return f"{name} s{s} {what}"
        if name == "SELECT_PLAYER":
            q = self.player_at[(seat + args[0]) % 4]
            return f"{name} player_{q} {C.HEROES[self.heroes[q]['hero']].name}" if q >= 0 else f"{name} (empty seat)"
        if name == "SELECT_COLOR":
            return f"{name} {C.COLORS[args[0]]}"
        d = self.decision
        if name == "RESOLVE":
            text = f"RESOLVE_{OUTCOMES[args[0]].upper()}"
            if d is not None and d["kind"] == "COMBAT_RESOLVE":
                idx = {0: [], 1: [0], 2: [1], 3: [0, 1]}[args[0]]
                cards = [f"s{d['targets'][i]} {self._card_name(d['targets'][i])}" for i in idx if i < len(d["targets"])]
                text += (" " + " + ".join(cards)) if cards else " (nothing vanquished)"
            return text
        if name == "RESOLVE_EFFECT":
            if d is not None and d["kind"] == "EFFECT_ORDER":
                for k, task in d["items"]:
                    if k == args[0]:
                        card = C.CARDS[task[2]]
                        e = card.central if task[0] == "rec" else card.exit
                        return f"RESOLVE_EFFECT {k} s{task[1]} {card.name} {_effect_text(e)}"
            return f"RESOLVE_EFFECT {args[0]}"
        return name

    def _card_name(self, s: int) -> str:
        return C.CARDS[self.spaces[s]].name if self.spaces[s] >= 0 else "empty"

    def space_marks(self, s: int) -> list[str]:
        """What lies on space ``s`` beside its card: the Net, the Enchantment, a sanctified mark."""
        marks = [
            name
            for name in ("net", "enchantment")
            if self.elements[name]["state"] == DEPLOYED and self.elements[name]["where"] == s
        ]
        if self.sanct[s] >= 0:
            marks.append("sanctified")
        return marks

    def element_place(self, name: str) -> str:
        """Where a deployed element stands ("on red" for the Standard's colour, "on s4" for a space); else ""."""
        e = self.elements[name]
        if e["state"] != DEPLOYED:
            return ""
        return f"on {C.COLORS[e['where']]}" if name == "standard" else f"on s{e['where']}"

    def render(self, seat: int | None = None) -> str:
        lines = [
            f"Last Bastion - board-turn {self.board_turns}, board {C.COLORS[self.board]} "
            f"({'neutral' if self.neutral else f'player_{self.active}'}), deck {len(self.deck)}, "
            f"Warlords {self.vanquished}/{self.W}"
        ]
        for row in range(3):
            cells = []
            for col in range(3):
                t = 3 * row + col
                who = "".join(str(p) for p, h in enumerate(self.heroes) if h["tile"] == t and h["status"] == IN)
                cells.append(f"[{C.TILES[self.layout[t]].name[:10]:10}{'*' if self.grasped[t] else ' '}{who:4}]")
            lines.append(" ".join(cells))
        sealed = self.sealed_tiles()
        marks = [f"t{t} {C.TILES[self.layout[t]].name}" for t in range(9) if self.grasped[t]]
        if marks:
            lines.append("  grasped: " + ", ".join(marks))
        if sealed:
            lines.append("  sealed: " + ", ".join(f"t{t} {C.TILES[self.layout[t]].name}" for t in sorted(sealed)))
        trap = self.elements["trap"]
        for s in range(12):
            if self.spaces[s] >= 0:
                c = C.CARDS[self.spaces[s]]
                tags = self.space_marks(s)
                lines.append(
                    f"  s{s}: {c.name}{' (Warlord)' if c.warlord else ''} {C.COLORS[c.color]} "
                    f"res {self.effective_resistance(s)}/{c.resistance}  in {_effect_text(c.entrance)} "
                    f"| {_effect_text(c.central)} | out {_effect_text(c.exit)}"
                    + (f"  [{', '.join(tags)}]" if tags else "")
                )
            elif trap["state"] == DEPLOYED and trap["where"] == s:
                lines.append(f"  s{s}: (Trap)")
        els = []
        for name in C.ELEMENTS:
            where = self.element_place(name)
            els.append(f"{name} {self.elements[name]['state']}{' ' + where if where else ''}")
        lines.append("  elements: " + ", ".join(els))
        for p, h in enumerate(self.heroes):
            equip = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(h["equip"]) if k) or "none"
            tile = f" on t{h['tile']} {C.TILES[self.layout[h['tile']]].name}" if h["tile"] >= 0 else ""
            lines.append(
                f"  player_{p} {C.HEROES[h['hero']].name} seat {C.COLORS[self.seat_of[p]]} {h['status']}"
                f"{' wounded' if h['wounded'] else ''}{' board-grasped' if h['board_grasped'] else ''}{tile}: "
                f"life {h['life']}, call to arms {h['cta']}, equipment {equip}"
            )
        d = self.decision
        if d is not None:
            if d["kind"] == "COMBAT_RESOLVE":
                pool = " ".join(f"{C.COLORS[c]} {k}" for c, k in enumerate(self.pool()) if k) or "none"
                lines.append("  dice: " + " ".join(C.DIE_FACES[f] for f in d["dice"]) + "; token pool " + pool)
            if d["kind"] == "CHOOSE_VICTIM":
                lines.append(f"  effect to suffer: {_effect_text(C.Effect(d['task'][1], d['task'][2]))}")
            lines.append(
                f"  {d['kind']} for player_{self.current_player}: "
                + ", ".join(self.describe_action(a) for a in d["legal"])
            )
        if self.result:
            lines.append(f"  result: {self.result}")
        return "\n".join(lines)

    def info(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": self.decision["kind"] if self.decision else None,
            "board_turn": self.board_turns,
        }
        if self.result is not None:
            out.update(result=self.result, score=self.score_sheet())
        return out

    def clone(self) -> LastBastionState:
        return self.game.state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        data = {k: _copy(getattr(self, k)) for k in self.FIELDS}
        data["heroes"] = _copy(self.heroes)
        data["elements"] = _copy(self.elements)
        data["chance"] = self.chance.to_json()
        return data

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> LastBastionState:
        """The deck order and the unseen cards (set-aside Monsters, undrawn Warlords) dealt anew,
        keeping the (public) positions of the Warlords in the deck."""
        data = self.to_json()
        unseen = self.deck + self.set_aside
        monsters = [c for c in unseen if not C.CARDS[c].warlord]
        warlords = [c for c in unseen if C.CARDS[c].warlord]
        rng.shuffle(monsters)
        rng.shuffle(warlords)
        deck = []
        for c in self.deck:
            deck.append(warlords.pop() if C.CARDS[c].warlord else monsters.pop())
        data["deck"] = deck
        data["set_aside"] = monsters + warlords
        data["chance"] = Chance(int(rng.integers(2**63))).to_json()
        return self.game.state_from_json(data)
