"""A rule-based Last Bastion bot: ``HeuristicBot().act_state(state)`` -> a legal action id.

It reads only public information through the state's documented attributes (heroes, spaces,
tiles, elements, the deck size, the pending decision and its legal ids); never the deck order or
set-aside cards.

Every card in play gets a *threat* (what it costs the team per round: its recurring or ongoing
effect, whether it fills a board, a Warlord's weight, which grows as the deck runs out). MAIN, in
order: heal a taken-out hero at the Dispensary and clear a Grasp when two tiles are grasped (by Call
to Arms when not standing there); set the Trap with a Call to Arms while it is home; Mylfaar
enchants the Warlord or the card she is about to fight; plant the Standard on a Warlord's colour and
buy Equipment at the Market by Call to Arms before a hard Warlord fight; then the best of "act here"
and "move, then act there", where a fight is worth the threat removed times its success chance
(binomial over the dice, each die matching with probability 1/3, after the tokens of the pool) and
a tile action has a fixed worth (Quarry while the Trap is home, Market when short of Equipment and
not about to lose it to Plague Wind, Great Hall when low on Life, the Tomb only against a card that
costs Life or a Grasp every round); after acting, a hero that has not moved steps towards the
Warlord or the biggest threat, next to a partner when it can. Sub-decisions: the largest combat
outcome, the Trap space when a card can go on it, a victim who can pay the effect without losing
Life, Equipment in the colours of cards in play, and so on.
"""

from __future__ import annotations

import numpy as np

from envs.last_bastion import analysis as A
from envs.last_bastion import content as C
from envs.last_bastion.actions import END_TURN, LAYOUT, OUTCOME_TARGETS
from envs.last_bastion.analysis import Analysis


class HeuristicBot:
    """The rule-based bot; its weights are those of its :class:`~envs.last_bastion.analysis.Analysis`."""

    def __init__(
        self,
        seed: int | None = None,
        fight_threshold: float = 0.25,
        warlord_weight: float = 6.0,
        full_board_weight: float = 1.0,
        market_value: float = 1.0,
    ):
        # seed None: deterministic (the first legal action where no rule decides), as every game's bot
        self.rng = np.random.default_rng(seed) if seed is not None else None
        self.fight_threshold = fight_threshold
        self.warlord_weight = warlord_weight
        self.full_board_weight = full_board_weight
        self.market_value = market_value
        self.analysis = Analysis(warlord_weight, full_board_weight, market_value)
        #: decision kind -> the method that picks an answer (None: a random legal action)
        self._choosers = {
            "MAIN": self._main,
            "COMBAT_RESOLVE": self._combat_resolve,
            "PLACE_CARD": self._place_card,
            "CHOOSE_VICTIM": self._choose_victim,
            "DISCARD_COLOR": self._discard_color,
            "GAIN_COLOR": self._gain_color,
            "STANDARD_COLOR": self._standard_color,
            "QUARRY_SPACE": self._quarry_space,
            "TREBUCHET_TARGET": self._bad_card,
            "TOMB_TARGET": self._bad_card,
            "TOWER_SOURCE": self._bad_card,
            "FOUNTAIN_TARGET": self._fountain_target,
            "PURIFY_TARGET": self._fountain_target,
            "EFFECT_ORDER": self._effect_order,
        }

    # -- the acting player's frame --
    @staticmethod
    def _decoded(state) -> list[tuple[int, str, tuple]]:
        return [(a, *LAYOUT.decode(a)) for a in state.legal_actions()]

    @staticmethod
    def _seat(state) -> int:
        return state.seat_of[state.current_player]

    def _abs_space(self, state, j: int) -> int:
        return (j + 3 * self._seat(state)) % 12

    def _abs_tile(self, state, t: int) -> int:
        return C.ABS_TILE[self._seat(state)][t]

    def _player(self, state, o: int) -> int:
        return state.player_at[(self._seat(state) + o) % 4]

    # -- decisions --
    def act_state(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        chooser = self._choosers.get(state.decision["kind"])
        choice = chooser(state, self._decoded(state)) if chooser else None
        if choice is None or choice not in legal:
            choice = int(legal[0] if self.rng is None else self.rng.choice(legal))
        return int(choice)

    def _main(self, state, acts) -> int | None:
        ev = self.analysis
        p = state.active
        h = state.heroes[p]
        names: dict[str, list] = {}
        for a, name, args in acts:
            names.setdefault(name, []).append((a, args))
        here = state.layout[h["tile"]]
        ctas = {state.layout[self._abs_tile(state, args[0])]: a for a, args in names.get("CALL_TO_ARMS", [])}
        warlords = A.warlords(state)
        # Calls to Arms for urgent tiles
        for tile_type in (C.DISPENSARY, C.FOUNTAIN):
            if tile_type in ctas and ev.tile_value(state, tile_type) >= 4.0:
                if not ("ACTIVATE" in names and here == tile_type):
                    return ctas[tile_type]
        if C.QUARRY in ctas and ev.tile_value(state, C.QUARRY) > 0 and not ("ACTIVATE" in names and here == C.QUARRY):
            if h["cta"] >= 2 or len([s for s in range(12) if state.spaces[s] >= 0]) >= 6:
                return ctas[C.QUARRY]
        # the Standard on a Warlord's colour just before fighting it
        if warlords and not state.acted and C.STANDARD in ctas:
            std = state.elements["standard"]
            colours = {C.CARDS[state.spaces[s]].color for s in warlords}
            if not (std["state"] == "deployed" and std["where"] in colours):
                for ts in A.targets_from(state, h["tile"]):
                    if any(s in warlords for s in ts) and A.chance(state, ts, h["tile"], 1) >= 0.25:
                        return ctas[C.STANDARD]
        # Equipment from the Market by Call to Arms just before a hard Warlord fight
        if warlords and not state.acted and C.MARKET in ctas:
            for ts in A.targets_from(state, h["tile"]):
                if any(s in warlords for s in ts) and A.chance(state, ts, h["tile"]) < 0.5:
                    return ctas[C.MARKET]
        # Mylfaar: the Enchantment on the Warlord, or on what she is about to fight
        if "ENCHANT" in names:
            ench = None
            if warlords:
                ench = warlords[0]
            elif not state.acted:
                best = ev.best_fight_from(state, h["tile"])
                if best[1]:
                    ench = max(best[1], key=lambda s: state.effective_resistance(s))
            if ench is not None:
                for a, args in names["ENCHANT"]:
                    if self._abs_space(state, args[0]) == ench:
                        return a
        activate = ev.tile_value(state, here) if "ACTIVATE" in names else 0.0
        if activate >= 4.0:
            return names["ACTIVATE"][0][0]
        best = (0.0, None)
        if not state.acted:
            for a, args in names.get("FIGHT", []):
                s = self._abs_space(state, args[0])
                best = max(best, (ev.fight_value(state, [s], h["tile"]), a), key=lambda x: x[0])
            for a, _ in names.get("FIGHT_BOTH", []):
                ts = list(C.TILE_SPACES[h["tile"]])
                best = max(best, (ev.fight_value(state, ts, h["tile"]), a), key=lambda x: x[0])
        here_value = max(best[0], activate)
        if not state.acted and "MOVE_TO" in names:
            options = []
            for a, args in names["MOVE_TO"]:
                t = self._abs_tile(state, args[0])
                options.append((ev.act_value(state, t), a))
            options.sort(reverse=True)
            if options and options[0][0] > here_value + 0.05 and options[0][0] >= 0.2:
                return options[0][1]
        if not state.acted:
            if best[1] is not None and best[0] >= activate and best[0] > 0.05:
                return best[1]
            if activate > 0.1:
                return names["ACTIVATE"][0][0]
        # after acting: step towards the Warlord or the biggest threat, next to a partner if possible
        if "MOVE_TO" in names:
            pos = ev.position_value(state, h["tile"])
            options = []
            for a, args in names["MOVE_TO"]:
                t = self._abs_tile(state, args[0])
                options.append((ev.position_value(state, t), a))
            options.sort(reverse=True)
            if options and options[0][0] > pos + 0.1:
                return options[0][1]
        return END_TURN

    def _combat_resolve(self, state, acts) -> int | None:
        ev = self.analysis
        targets = state.decision["targets"]
        best = None
        for a, _, args in acts:
            o = args[0]
            chosen = OUTCOME_TARGETS[o]
            v = sum(ev.threat(state, targets[i]) for i in chosen)
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _place_card(self, state, acts) -> int | None:
        trap = state.elements["trap"]
        card = C.CARDS[state.decision["card"]]
        heroes_tiles = [h["tile"] for h in state.heroes if h["status"] == "in"]
        best = None
        for a, _, args in acts:
            s = self._abs_space(state, args[0])
            v = 0.0
            if trap["state"] == "deployed" and trap["where"] == s and not card.warlord:
                v += 10
            t = C.SPACE_FACES[s]
            grasps = card.entrance == C.E("GRASP_FRONT") or (
                card.central is not None and card.central.prim == "GRASP_FRONT"
            )
            if state.grasped[t] and grasps:
                v += 3  # a Grasp there does nothing
            if card.central is not None and card.central.prim == "ONG_SEAL":
                v -= 0.5 * (state.layout[t] in (C.DISPENSARY, C.FOUNTAIN, C.QUARRY, C.MARKET))
            v += sum(1 for u in heroes_tiles if u == t or C.adjacent(u, t)) * 0.5
            board = s // 3
            if sum(state.spaces[3 * board + k] >= 0 for k in range(3)) == 2:
                v -= 1.5  # this placement fills that board
            if best is None or v > best[0]:
                best = (v, a)
        return best[1]

    def _choose_victim(self, state, acts) -> int | None:
        prim = state.decision["task"][1]

        def value(args):
            q = self._player(state, args[0])
            h = state.heroes[q]
            eq, cta, life = sum(h["equip"]), h["cta"], h["life"]
            if prim == "PLAGUE_WIND" or prim == "DISCARD_ALL_EQUIP":
                return (1, -eq, life) if eq > 0 else (0, 0, life)
            if prim == "SOUL_DRAIN":
                return (1, cta, life) if cta > 0 else (0, 0, life)
            if prim in ("DISCARD_EQUIP",):
                return (1, eq, life)
            if prim == "LOSE_CTA":
                return (1, cta, life)
            if prim == "GRASP_BOARD":
                return (1, int(h["wounded"]), life)
            return (1, life, eq + cta)

        return max(acts, key=lambda x: value(x[2]))[0]

    def _discard_color(self, state, acts) -> int | None:
        need = A.colour_need(state)
        return min(acts, key=lambda x: need[x[2][0]])[0]

    def _gain_color(self, state, acts) -> int | None:
        need = A.colour_need(state)
        return max(acts, key=lambda x: (need[x[2][0]], x[2][0] == C.BLACK))[0]

    def _standard_color(self, state, acts) -> int | None:
        warlords = A.warlords(state)
        if warlords:
            colour = C.CARDS[state.spaces[warlords[0]]].color
            for a, _, args in acts:
                if args[0] == colour:
                    return a
        return self._gain_color(state, acts)

    def _quarry_space(self, state, acts) -> int | None:
        """The Trap on the next board to draw, on a board that would become full."""
        me = state.seat_of[state.active] if state.active >= 0 else state.board
        nxt = None
        for k in range(1, 5):
            q = state.player_at[(me + k) % 4]
            if q >= 0 and state.heroes[q]["status"] == "in":
                nxt = (me + k) % 4
                break

        def value(args):
            s = self._abs_space(state, args[0])
            b = s // 3
            cards = sum(state.spaces[3 * b + k] >= 0 for k in range(3))
            return (b == nxt) * 2 + (cards == 2) * 1.5 + (state.player_at[b] >= 0) * 0.5

        return max(acts, key=lambda x: value(x[2]))[0]

    def _bad_card(self, state, acts) -> int | None:
        ev = self.analysis

        def value(args):
            s = self._abs_space(state, args[0])
            return ev.threat(state, s) * 2 + C.CARDS[state.spaces[s]].resistance

        return max(acts, key=lambda x: value(x[2]))[0]

    def _fountain_target(self, state, acts) -> int | None:
        for a, name, _ in acts:
            if name == "SELECT_TILE":
                return a
        for a, name, _ in acts:
            if name == "SELECT_PLAYER":
                return a
        return self._bad_card(state, acts)

    def _effect_order(self, state, acts) -> int | None:
        return acts[0][0]

    def __call__(self, state) -> int:
        return self.act_state(state)
