"""Last Heroes' State: the game state, legal masks, apply_legal(action), scoring and the JSON form.

Pure rules: no gymnasium or PettingZoo here. Seats are absolute (0..n-1) inside the state;
only action arguments and observations are relative to a seat. Section numbers (2.4, G22...)
refer to docs/last_heroes.md.

Cards are counts per kind (all cards of one kind are identical). Monsters are ids into the
content table. Every mutation bumps a version counter, the keys of the observation blocks (see
observation.py; ``observe`` is the core memo, which rewrites a block only when its key changed):
``_seat_ver[i]`` (anything in seat i's public row), ``_board_ver`` (monsters, standees, permanent
breaches, pedestals, artefacts held), ``_cards_ver`` (the discard pile), ``_deck_ver`` (the monster
decks), ``_hand_ver[i]`` and their sum ``_hands_ver`` (seat i's hand); ``_hand_tot`` keeps the cards
of each kind in all hands together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.game import Outcome, State
from envs.last_heroes import actions as A
from envs.last_heroes import text, validation
from envs.last_heroes.assignment import _SLOT_OPTIONS, _slot_options, assign, impact_assignment, leftover_key
from envs.last_heroes.constants import (
    ADRENALINE,
    END_REASONS,
    EXCHANGE,
    EXCHANGE_GIVE,
    HELD,
    IMMUNITY,
    IMPACT,
    JOKER,
    L1_GIVE,
    L1_SLOT,
    LOAD_SOURCE,
    MAIN,
    NO,
    OUT,
    PEDESTAL,
    PHASES,
    POST,
    POWER_NAMES,
    RELOAD,
    SETUP_PICK,
    TILE_STATES,
    USED,
)
from envs.last_heroes.content import (
    ARTEFACT_VP,
    CARDS_DEALT,
    JOKER_CAP,
    MAGAZINE_PICKS,
    MAX_PLAYERS,
    NUM_KINDS,
    NUM_LEVELS,
    NUM_POWERS,
    ROUNDS,
)

if TYPE_CHECKING:
    from envs.last_heroes.game import LastHeroesGame


class LastHeroesState(State):
    """The whole Last Heroes game. Attributes are absolute-seat lists (see module doc).

    What a bot may read (the public face the heuristic uses): ``n``, ``phase``, ``round``,
    ``current_player``, ``attacks_allowed(seat)``, ``has_power(seat, power)``, and per seat
    ``vp``, ``wheel``, ``kills``, ``artefacts``, ``jokers``, ``standee``, ``mag_kind``, ``mag_ammo``,
    ``loaded_power``, ``turns_taken``; the table's ``board``, ``standee_on``, ``permanent``,
    ``pedestal``, ``discard``; the turn's ``killed_this_turn``, ``load_kind``, ``load_used``,
    ``exchange_kind``. ``hands[seat]`` is only the deciding seat's own business: another seat's
    hand is hidden information (5.2) and a fair bot reads only ``known[other]``. Names with a
    leading underscore are the engine's bookkeeping.
    """

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: LastHeroesGame, seed: int | None) -> LastHeroesState:
        s = cls.__new__(cls)
        s._blank(game)
        rng = s.rng = np.random.default_rng(seed)
        n = game.num_players
        # 1. Monster decks, shuffled by level; the i-th revealed card goes to column i.
        for lv in range(NUM_LEVELS):
            deck = list(game.level_ids[lv])
            rng.shuffle(deck)
            s.decks[lv] = deck
            for c in range(n):
                s.board[c][lv] = deck.pop()
        # 2. One random Power tile per column's artefact pedestal.
        # Drawn even without artefacts, so a seed deals the same cards in both variants.
        tiles = rng.permutation(NUM_POWERS)[:n].tolist()
        if game.use_artefacts:
            for c, p in enumerate(tiles):
                s.pedestal[c] = p
                s.tile_state[p] = PEDESTAL
        # 4. Shuffle the 12n weapon cards of the first n types; deal 12 to each player.
        cards = [k for k in game.kinds_in_play for _ in range(game.content.kind_copies[k])]
        order = rng.permutation(len(cards))
        for i in range(n):
            hand = s.hands[i]
            for j in order[i * CARDS_DEALT : (i + 1) * CARDS_DEALT]:
                hand[cards[j]] += 1
        s._count_hands()
        # 5. First player.
        fp = game.options["first_player"]
        s.first = int(rng.integers(n)) if fp is None else fp
        s.current_player = s.first
        s.phase = SETUP_PICK
        return s

    def _blank(self, game: LastHeroesGame) -> None:
        n = game.num_players
        self.game = game
        self.n = n
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.known = [[0] * NUM_KINDS for _ in range(n)]
        self.mag_kind = [[NO, NO] for _ in range(n)]
        self.mag_ammo = [[0, 0] for _ in range(n)]
        self.jokers = [0] * n
        self.wheel = [0] * n
        self.loaded = [[0] * NUM_KINDS for _ in range(n)]
        self.loaded_power = [[0, 0, 0] for _ in range(n)]
        self.kills: list[list[int]] = [[] for _ in range(n)]
        self.vp = [0] * n
        self.artefacts: list[list[int]] = [[] for _ in range(n)]
        self.standee = [NO] * n  # NO, or 3 * column + level index
        self.board = [[NO] * NUM_LEVELS for _ in range(MAX_PLAYERS)]
        self.standee_on = [[NO] * NUM_LEVELS for _ in range(MAX_PLAYERS)]
        self.permanent = [[False] * NUM_LEVELS for _ in range(MAX_PLAYERS)]
        self.decks: list[list[int]] = [[], [], []]
        self.discard = [0] * NUM_KINDS
        self.pedestal = [NO] * MAX_PLAYERS
        self.tile_state = [OUT] * NUM_POWERS
        self.tile_holder = [NO] * NUM_POWERS
        self.turns_taken = [0] * n
        self.setup_picks = 0
        self.first = 0
        self.current_player = 0
        self.phase = SETUP_PICK
        self.round = 0
        self.attacks = 0
        self.killed_this_turn = False
        self.load_kind = NO
        self.load_need = 0
        self.load_used: list[tuple[int, int]] = []
        self.exchange_kind = NO
        self.return_phase = MAIN
        self.l1_target: tuple[int, int] | None = None
        self.all_artefacts_held = False
        self.end_case: str | None = None
        self.ammo_from_opponents = 0
        self.penalty_lost = 0
        self._rewards = [0.0] * n
        self._mask: np.ndarray | None = None
        # Shaping potentials of this state once computed; None again wherever VP, a wheel or the
        # artefacts held change (the only inputs of _potentials).
        self._phi: list[float] | None = None
        self._seat_ver = [0] * n
        self._board_ver = 0
        self._cards_ver = 0
        self._deck_ver = 0
        self._hand_tot = [0] * NUM_KINDS
        self._hand_ver = [0] * n
        self._hands_ver = 0
        self._feas: dict | None = None  # attack options by (loaded powers, IMPACT usable), for _feas_ver
        self._feas_ver = -1

    def _count_hands(self) -> None:
        self._hand_tot = [sum(column) for column in zip(*self.hands)]

    def reference(self) -> LastHeroesState:
        """The pure-Python state equal to this one: itself (a compiled state rebuilds one)."""
        return self

    # -- contract: status -----------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.end_case is not None

    def rewards(self) -> list[float]:
        return self._rewards

    def scores(self) -> list[float]:
        bonus = ARTEFACT_VP if self.end_case == "A" else 0
        return [self.vp[i] + self.wheel[i] + bonus * len(self.artefacts[i]) for i in range(self.n)]

    def winners(self) -> list[int]:
        """Seats tied at the top on (score, monsters killed) (2.13, G31)."""
        keys = [(sc, len(self.kills[i])) for i, sc in enumerate(self.scores())]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def outcome(self) -> Outcome | None:
        """The winners on (score, monsters killed) once the game has ended (2.12, 2.13)."""
        if self.end_case is None:
            return None
        return Outcome(tuple(self.winners()), END_REASONS[self.end_case])

    def returns(self) -> list[float]:
        n = self.n
        scores = self.scores()
        scheme = self.game.options["reward_scheme"]
        if scheme == "win_loss":
            won = set(self.winners())
            return [1.0 if i in won else -1.0 for i in range(n)]
        if scheme == "score_margin":
            out = []
            for i in range(n):
                other = max(scores[j] for j in range(n) if j != i)
                out.append(float(min(1.0, max(-1.0, (scores[i] - other) / 20.0))))
            return out
        # rank: positions by (score, kills), ties share the mean value of their positions.
        keys = [(scores[i], len(self.kills[i])) for i in range(n)]
        order = sorted(range(n), key=lambda i: keys[i], reverse=True)
        value = [1.0 - 2.0 * pos / (n - 1) for pos in range(n)]
        out = [0.0] * n
        pos = 0
        while pos < n:
            end = pos
            while end + 1 < n and keys[order[end + 1]] == keys[order[pos]]:
                end += 1
            mean = sum(value[pos : end + 1]) / (end + 1 - pos)
            for j in range(pos, end + 1):
                out[order[j]] = mean
            pos = end + 1
        return out

    def info(self) -> dict[str, Any]:
        d: dict[str, Any] = {"phase": PHASES[self.phase], "round": self.round}
        if self.end_case is not None:
            d.update(
                final_scores=self.scores(),
                winners=self.winners(),
                end_case=self.end_case,
                monsters_killed=[len(k) for k in self.kills],
            )
        return d

    # -- helpers --------------------------------------------------------------------------
    def has_power(self, seat: int, power: int) -> bool:
        return self.tile_holder[power] == seat and self.tile_state[power] == HELD

    def required(self, column: int, level: int) -> tuple[int, int, int]:
        """Impacts (counts of P1, P2, P3) needed now to kill the monster in (column, level)."""
        m = self.board[column][level]
        if self.covered(column, level):
            return self.game.req_bright[m]
        return self.game.req_full[m]

    def covered(self, column: int, level: int) -> bool:
        """The dark zone is ignored: a standee stands on it, or the slot below is permanently empty."""
        return level > 0 and (self.standee_on[column][level] != NO or self.permanent[column][level - 1])

    def _attack_plan(self, seat: int, column: int, level: int, impact: bool):
        req = self.required(column, level)
        have = self.loaded_power[seat]
        if impact:
            return impact_assignment(req, have)
        return assign(req, have)

    def _impact_useful(self, seat: int, column: int, level: int) -> bool:
        """IMPACT is offered only when it makes the attack possible or strictly cheaper (G23)."""
        have = self.loaded_power[seat]
        with_impact = self._attack_plan(seat, column, level, True)
        if with_impact is None:
            return False
        plain = self._attack_plan(seat, column, level, False)
        return plain is None or leftover_key(have, with_impact) > leftover_key(have, plain)

    def attacks_allowed(self, seat: int) -> bool:
        """May ``seat`` attack now: its first attack of the turn, or a second one with Adrenaline."""
        return self.attacks == 0 or (self.attacks == 1 and self.has_power(seat, ADRENALINE))

    def _sources(self) -> list[int]:
        """Magazine cards with Ammo left, counted per weapon type (all players)."""
        count = [0] * 5
        kind_type = self.game.kind_type
        for i in range(self.n):
            mk, ma = self.mag_kind[i], self.mag_ammo[i]
            if ma[0] > 0:
                count[kind_type[mk[0]]] += 1
            if ma[1] > 0:
                count[kind_type[mk[1]]] += 1
        return count

    def _rel(self, seat: int, observer: int) -> int:
        return (seat - observer) % self.n

    def _abs(self, rel: int, observer: int) -> int:
        return (observer + rel) % self.n

    def _touch_seat(self, seat: int) -> None:
        self._seat_ver[seat] += 1

    def _touch_board(self) -> None:
        self._board_ver += 1

    def _touch_cards(self) -> None:
        self._cards_ver += 1

    def attack_options(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Slots ``3 * column + level`` that ``seat``'s loaded weapons can attack now: without
        IMPACT, with IMPACT, and where IMPACT is useful (makes it possible or strictly cheaper,
        G23). The IMPACT parts are empty unless the seat holds an unused IMPACT. Shared by the
        legal mask and the observation's "could kill it now" flags; cached per board version."""
        lp = self.loaded_power[seat]
        impact = self.tile_holder[IMPACT] == seat and self.tile_state[IMPACT] == HELD
        key = (lp[0], lp[1], lp[2], impact)
        feas = self._feas
        if feas is None or self._feas_ver != self._board_ver:
            feas = self._feas = {}
            self._feas_ver = self._board_ver
        options = feas.get(key)
        if options is None:
            options = feas[key] = self._compute_attack_options(tuple(lp), impact)
        return options

    def _compute_attack_options(self, have: tuple[int, int, int], impact: bool):
        plain: list[int] = []
        with_impact: list[int] = []
        useful: list[int] = []
        game = self.game
        req_full, req_bright = game.req_full, game.req_bright
        for c in range(self.n):
            column, on, perm = self.board[c], self.standee_on[c], self.permanent[c]
            for lv in range(NUM_LEVELS):
                m = column[lv]
                if m == NO:
                    continue
                # required(c, lv), inlined
                req = req_bright[m] if lv and (on[lv] != NO or perm[lv - 1]) else req_full[m]
                key = (req, have, impact)
                ok = _SLOT_OPTIONS.get(key)
                if ok is None:
                    if len(_SLOT_OPTIONS) >= 1 << 16:
                        _SLOT_OPTIONS.clear()
                    ok = _SLOT_OPTIONS[key] = _slot_options(req, have, impact)
                if ok[0]:
                    plain.append(3 * c + lv)
                if ok[1]:
                    with_impact.append(3 * c + lv)
                    if ok[2]:
                        useful.append(3 * c + lv)
        return tuple(plain), tuple(with_impact), tuple(useful)

    # -- legal mask -----------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self._mask is not None:
            return self._mask
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        self._mask = mask
        if self.end_case is not None:
            return mask
        seat = self.current_player
        hand = self.hands[seat]
        phase = self.phase
        if phase == SETUP_PICK or phase == L1_GIVE:
            for k in range(NUM_KINDS):
                if hand[k]:
                    mask[A.SELECT_HAND + k] = 1
        elif phase == MAIN:
            src = self._sources()
            budget = self.jokers[seat]
            kind_type, kind_ammo = self.game.kind_type, self.game.kind_ammo
            for k in range(NUM_KINDS):
                if hand[k]:
                    mask[A.PLAY_AMMO + 2 * k] = 1
                    mask[A.PLAY_AMMO + 2 * k + 1] = 1
                    if src[kind_type[k]] + budget >= kind_ammo[k]:
                        mask[A.LOAD + k] = 1
            self._power_actions(seat, mask)
        elif phase == LOAD_SOURCE:
            kind_type = self.game.kind_type
            t = kind_type[self.load_kind]
            n = self.n
            for rel in range(n):
                i = seat + rel
                if i >= n:
                    i -= n
                ammo, kinds = self.mag_ammo[i], self.mag_kind[i]
                for slot in (0, 1):
                    if ammo[slot] > 0 and kind_type[kinds[slot]] == t and (i, slot) not in self.load_used:
                        mask[A.SOURCE + 2 * rel + slot] = 1
            if self.jokers[seat]:
                mask[A.SOURCE_JOKER] = 1
        elif phase == POST:
            if self.attacks == 0 or (self.attacks == 1 and self.has_power(seat, ADRENALINE)):
                plain, _, useful = self.attack_options(seat)
                for s in plain:
                    mask[A.ATTACK + s] = 1
                for s in useful:
                    mask[A.ATTACK_IMPACT + s] = 1
            self._power_actions(seat, mask)
            mask[A.END_TURN] = 1
            if self.has_power(seat, IMMUNITY) and (self.mag_ammo[seat][0] == 0 or self.mag_ammo[seat][1] == 0):
                mask[A.END_TURN_IMMUNITY] = 1
        elif phase == L1_SLOT:
            mask[A.L1_SWAP : A.L1_SWAP + 2 * self.n] = 1
            mask[A.L1_SKIP] = 1
        elif phase == EXCHANGE_GIVE:
            for k in range(NUM_KINDS):
                if hand[k] and k != self.exchange_kind:
                    mask[A.SELECT_HAND + k] = 1
        return mask

    def _power_actions(self, seat: int, mask: np.ndarray) -> None:
        """JOKER, RELOAD and EXCHANGE, usable in MAIN and POST (G24)."""
        holder, state = self.tile_holder, self.tile_state
        if holder[EXCHANGE] == seat and state[EXCHANGE] == HELD:
            hand = self.hands[seat]
            kinds_in_hand = [k for k in range(NUM_KINDS) if hand[k]]
            for k in range(NUM_KINDS):
                if self.discard[k] and any(h != k for h in kinds_in_hand):
                    mask[A.EXCHANGE_TAKE + k] = 1
        if holder[JOKER] == seat and state[JOKER] == HELD and self.jokers[seat] < JOKER_CAP:
            mask[A.POWER_JOKER] = 1
        if holder[RELOAD] == seat and state[RELOAD] == HELD:
            for slot in (0, 1):
                if self.mag_ammo[seat][slot] < self.game.kind_ammo[self.mag_kind[seat][slot]]:
                    mask[A.POWER_RELOAD + slot] = 1

    # -- apply ----------------------------------------------------------------------------
    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check, for a caller that has just checked the int
        ``action`` against :meth:`legal_mask` (the AEC driver does). Anything else: use apply()."""
        shaping = self.game.options["shaping_coef"]
        if shaping:
            before = self._phi
            if before is None:
                before = self._phi = self._potentials()
        self._mask = None
        handler, args = _HANDLERS[action]
        handler(self, *args)
        if self.end_case is not None:
            self.current_player = NO
            self._rewards = self.returns()
        else:
            self._rewards = [0.0] * self.n
        if shaping:
            # The potentials after this action are those before the next one; still ``before``
            # unless the action changed a score.
            after = self._phi
            if self.end_case is not None:
                after = [0.0] * self.n
            elif after is None:
                after = self._potentials()
            self._phi = after
            if after is not before:
                self._rewards = [r + shaping * (a - b) for r, a, b in zip(self._rewards, after, before)]

    def shaping_potentials(self) -> list[float]:
        """Every seat's shaping potential Phi_i now (0 once the game is over), unweighted."""
        return [0.0] * self.n if self.end_case is not None else self._potentials()

    def _potentials(self) -> list[float]:
        """Phi_i = (V_i - mean of the others' V) / 20, V = monster VP + wheel (+ 5 per artefact)."""
        extra = ARTEFACT_VP if self.game.options["shape_artefacts"] else 0
        v = [self.vp[i] + self.wheel[i] + extra * len(self.artefacts[i]) for i in range(self.n)]
        total = sum(v)
        return [(v[i] - (total - v[i]) / (self.n - 1)) / 20.0 for i in range(self.n)]

    def _take_from_hand(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] -= 1
        self._hand_tot[kind] -= 1
        self._hand_ver[seat] += 1
        self._hands_ver += 1
        if self.known[seat][kind]:
            self.known[seat][kind] -= 1

    def _give_to_hand_publicly(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] += 1
        self._hand_tot[kind] += 1
        self._hand_ver[seat] += 1
        self._hands_ver += 1
        self.known[seat][kind] += 1

    def _do_select_hand(self, kind: int) -> None:
        seat = self.current_player
        self._touch_seat(seat)
        if self.phase == SETUP_PICK:
            self._take_from_hand(seat, kind)
            slot = self.setup_picks
            self.mag_kind[seat][slot] = kind
            self.mag_ammo[seat][slot] = self.game.kind_ammo[kind]
            self.setup_picks += 1
            if self.setup_picks == MAGAZINE_PICKS:
                self.setup_picks = 0
                nxt = (seat + 1) % self.n
                self.current_player = nxt
                if nxt == self.first:
                    self.round = 1
                    self.phase = MAIN
        elif self.phase == L1_GIVE:
            target, slot = self.l1_target
            replaced = self.mag_kind[target][slot]
            self._take_from_hand(seat, kind)
            self._give_to_hand_publicly(seat, replaced)
            self.mag_kind[target][slot] = kind
            self.mag_ammo[target][slot] = self.game.kind_ammo[kind]
            if target == seat:
                self._gain_joker(seat)
            else:
                self._touch_seat(target)
            self.l1_target = None
            self.phase = POST
        else:  # EXCHANGE_GIVE
            taken = self.exchange_kind
            self._take_from_hand(seat, kind)
            self.discard[kind] += 1
            self.discard[taken] -= 1
            self._give_to_hand_publicly(seat, taken)
            self.tile_state[EXCHANGE] = USED
            self.exchange_kind = NO
            self.phase = self.return_phase
            self._touch_cards()

    def _gain_joker(self, seat: int) -> None:
        if self.jokers[seat] < JOKER_CAP:
            self.jokers[seat] += 1

    def _do_play_ammo(self, kind: int, slot: int) -> None:
        seat = self.current_player
        self._take_from_hand(seat, kind)
        self.discard[self.mag_kind[seat][slot]] += 1
        self.mag_kind[seat][slot] = kind
        self.mag_ammo[seat][slot] = self.game.kind_ammo[kind]
        self._gain_joker(seat)
        self.phase = POST
        self._touch_seat(seat)
        self._touch_cards()

    def _do_load(self, kind: int) -> None:
        seat = self.current_player
        self._take_from_hand(seat, kind)
        self.load_kind = kind
        self.load_need = self.game.kind_ammo[kind]
        self.load_used = []
        self.phase = LOAD_SOURCE
        self._touch_seat(seat)

    def _do_source(self, rel: int, slot: int) -> None:
        seat = self.current_player
        owner = self._abs(rel, seat)
        self.mag_ammo[owner][slot] -= 1
        self.load_used.append((owner, slot))
        if owner != seat:
            self.wheel[owner] += 1
            self._phi = None
            self.ammo_from_opponents += 1
        self._touch_seat(owner)
        self._sourced(seat)

    def _do_source_joker(self) -> None:
        seat = self.current_player
        self.jokers[seat] -= 1
        self._touch_seat(seat)
        self._sourced(seat)

    def _sourced(self, seat: int) -> None:
        self.load_need -= 1
        if self.load_need == 0:
            self._touch_seat(seat)
            kind = self.load_kind
            self.loaded[seat][kind] += 1
            self.loaded_power[seat][self.game.kind_power[kind] - 1] += 1
            self.load_kind = NO
            self.load_used = []
            self.phase = POST

    def _do_attack(self, column: int, level: int) -> None:
        self._attack(column, level, impact=False)

    def _do_attack_impact(self, column: int, level: int) -> None:
        self._attack(column, level, impact=True)

    def _attack(self, column: int, level: int, impact: bool) -> None:
        seat = self.current_player
        game = self.game
        used = self._attack_plan(seat, column, level, impact)
        if impact:
            self.tile_state[IMPACT] = USED
        if self.attacks == 1:
            self.tile_state[ADRENALINE] = USED
        self.attacks += 1
        # 1. Discard the assigned weapons, lowest type first among equal powers (2.4).
        loaded = self.loaded[seat]
        for p in range(3):
            count = used[p]
            self.loaded_power[seat][p] -= count
            k = p
            while count:
                take = min(count, loaded[k])
                loaded[k] -= take
                self.discard[k] += take
                count -= take
                k += 3
        # 2. The attacker takes the monster.
        monster = self.board[column][level]
        self.board[column][level] = NO
        self.kills[seat].append(monster)
        self.vp[seat] += game.monster_vp[monster]
        self._phi = None
        self.killed_this_turn = True
        # 3. A standee on the killed monster goes back to its owner.
        owner = self.standee_on[column][level]
        if owner != NO:
            self.standee_on[column][level] = NO
            self.standee[owner] = NO
            self._touch_seat(owner)
        # 4. The attacker's standee moves to the breach this kill opens, or comes back (G8, G9).
        mine = self.standee[seat]
        if mine != NO:
            self.standee_on[mine // 3][mine % 3] = NO
            self.standee[seat] = NO
        if level < 2 and self.board[column][level + 1] != NO:
            self.standee_on[column][level + 1] = seat
            self.standee[seat] = 3 * column + level + 1
        # 5. Level 3: the column's artefact goes to the Level-2 breach opener, else the attacker.
        if level == 2 and self.pedestal[column] != NO:
            power = self.pedestal[column]
            winner = owner if owner != NO else seat
            self.pedestal[column] = NO
            self.tile_state[power] = HELD
            self.tile_holder[power] = winner
            self.artefacts[winner].append(power)
            self._phi = None
            self._touch_seat(winner)
            if all(p == NO for p in self.pedestal):
                self.all_artefacts_held = True
                if game.options["artefact_end"] == "immediate":
                    self.end_case = "A"  # 6. (G19)
        self._touch_seat(seat)
        self._touch_board()
        self._touch_cards()
        if self.end_case is not None:
            return
        # 7. Level 1: the special effect, when there is a card to give.
        if level == 0 and any(self.hands[seat]):
            self.phase = L1_SLOT

    def _do_l1_swap(self, rel: int, slot: int) -> None:
        self.l1_target = (self._abs(rel, self.current_player), slot)
        self.phase = L1_GIVE

    def _do_l1_skip(self) -> None:
        self.phase = POST

    def _do_exchange_take(self, kind: int) -> None:
        self.exchange_kind = kind
        self.return_phase = self.phase
        self.phase = EXCHANGE_GIVE

    def _do_power_joker(self) -> None:
        seat = self.current_player
        self._gain_joker(seat)
        self.tile_state[JOKER] = USED
        self._touch_seat(seat)

    def _do_power_reload(self, slot: int) -> None:
        seat = self.current_player
        self.mag_ammo[seat][slot] = self.game.kind_ammo[self.mag_kind[seat][slot]]
        self.tile_state[RELOAD] = USED
        self._touch_seat(seat)

    def _do_end_turn(self) -> None:
        self._end_turn(immunity=False)

    def _do_end_turn_immunity(self) -> None:
        self.tile_state[IMMUNITY] = USED
        self._touch_seat(self.current_player)
        self._end_turn(immunity=True)

    def _end_turn(self, immunity: bool) -> None:
        seat = self.current_player
        # 1. Penalty for own empty Magazine cards.
        if not immunity:
            empty = (self.mag_ammo[seat][0] == 0) + (self.mag_ammo[seat][1] == 0)
            if empty:
                before = self.wheel[seat]
                after = before - empty
                if self.game.options["score_floor"] is not None:
                    after = max(after, self.game.options["score_floor"])
                self.wheel[seat] = after
                self._phi = None
                self.penalty_lost += before - after
                self._touch_seat(seat)
        # 2. No kill this turn: the standee comes back and its breach closes.
        mine = self.standee[seat]
        if not self.killed_this_turn and mine != NO:
            self.standee_on[mine // 3][mine % 3] = NO
            self.standee[seat] = NO
            self._touch_seat(seat)
            self._touch_board()
        # 3. Refill every column where no hero stands (G13).
        self._refill()
        self.turns_taken[seat] += 1
        # 4. Game end.
        nxt = (seat + 1) % self.n
        round_over = nxt == self.first
        timing = self.game.options["artefact_end"]
        if self.all_artefacts_held and (timing == "end_of_turn" or round_over):
            self.end_case = "A"
            return
        if round_over and self.round == ROUNDS:
            self.end_case = "B"
            return
        # 5. Next player.
        if round_over:
            self.round += 1
        self.current_player = nxt
        self.phase = MAIN
        self.attacks = 0
        self.killed_this_turn = False

    def _refill(self) -> None:
        for c in range(self.n):
            if self.standee_on[c][0] != NO or self.standee_on[c][1] != NO or self.standee_on[c][2] != NO:
                continue
            column = self.board[c]
            for lv in range(NUM_LEVELS):
                if column[lv] == NO and not self.permanent[c][lv]:
                    deck = self.decks[lv]
                    if deck:
                        column[lv] = deck.pop()
                        self._deck_ver += 1
                    else:
                        self.permanent[c][lv] = True
                    self._touch_board()

    # -- text (text.py) --------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        return text.describe_action(self, action)

    def render(self, seat: int | None = None) -> str:
        return text.render(self, seat)

    # -- copy and (de)serialisation -------------------------------------------------------
    def clone(self) -> LastHeroesState:
        s = LastHeroesState.__new__(LastHeroesState)
        d = s.__dict__
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                if value and isinstance(value[0], list):
                    value = [list(v) for v in value]
                else:
                    value = list(value)
            d[key] = value
        s.rng = np.random.default_rng()
        s.rng.bit_generator.state = self.rng.bit_generator.state
        s._obs_memo = None  # the observation memo (envs.core.observation) stays with the original
        s._feas = None
        s._mask = None
        return s

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> State:
        """A copy in which what ``seat`` cannot see is dealt anew (5.2): the opponents' cards that
        never entered a hand publicly, shuffled among the opponents (same hand sizes, same known
        cards), the order of every monster deck, and the generator's future draws.

        A clone with those fields redealt: the same state, draw for draw, as the JSON round trip
        of :func:`_json_resample_hidden` (which the compiled engine uses), at a fraction of its cost."""
        s = self.clone()
        opponents = [i for i in range(self.n) if i != seat]
        hands, known = self.hands, self.known
        pool: list[int] = []
        for i in opponents:
            pool += [k for k in range(NUM_KINDS) for _ in range(hands[i][k] - known[i][k])]
        order = rng.permutation(len(pool)).tolist()
        at = 0
        for i in opponents:
            size = sum(hands[i]) - sum(known[i])
            hand = list(known[i])
            for j in order[at : at + size]:
                hand[pool[j]] += 1
            s.hands[i] = hand
            at += size
        s.decks = [[deck[j] for j in rng.permutation(len(deck)).tolist()] for deck in self.decks]
        s.rng = np.random.default_rng(int(rng.integers(2**63)))
        s._count_hands()
        return s

    def to_json(self) -> dict[str, Any]:
        return _json_to_json(self)

    @classmethod
    def from_json(
        cls, game: LastHeroesGame, data: dict[str, Any], check: bool = True, check_box: bool = True
    ) -> LastHeroesState:
        """Rebuild a state, every field checked first (validation.validate); the standee positions and
        tile holders are derived, not stored twice."""
        return _json_from_json(cls, game, data, check, check_box)


# -- the JSON form ------------------------------------------------------------------------------------
def _json_resample_hidden(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """:meth:`LastHeroesState.resample_hidden` through the JSON form, built by
    ``game.state_from_json`` (so a compiled game's state comes back compiled)."""
    data = state.to_json()
    opponents = [i for i in range(state.n) if i != seat]
    pool: list[int] = []
    for i in opponents:
        pool += [k for k in range(NUM_KINDS) for _ in range(state.hands[i][k] - state.known[i][k])]
    order = rng.permutation(len(pool))
    at = 0
    for i in opponents:
        size = sum(state.hands[i]) - sum(state.known[i])
        hand = list(state.known[i])
        for j in order[at : at + size]:
            hand[pool[j]] += 1
        data["players"][i]["hand"] = hand
        at += size
    for deck in data["decks"]:
        deck[:] = [deck[j] for j in rng.permutation(len(deck))]
    data["rng"] = np.random.default_rng(int(rng.integers(2**63))).bit_generator.state
    return state.game.state_from_json(data, check=False)  # the rules' own data, redealt: no need to check


def _json_to_json(state: Any) -> dict[str, Any]:
    n = state.n
    return {
        "env_id": state.game.env_id,
        "options": dict(state.game.options),
        "phase": PHASES[state.phase],
        "current_player": state.current_player,
        "first_player": state.first,
        "round": state.round,
        "setup_picks": state.setup_picks,
        "players": [
            {
                "hand": list(state.hands[i]),
                "known": list(state.known[i]),
                "magazine": [[state.mag_kind[i][s], state.mag_ammo[i][s]] for s in (0, 1)],
                "jokers": state.jokers[i],
                "wheel": state.wheel[i],
                "loaded": list(state.loaded[i]),
                "kills": list(state.kills[i]),
                "artefacts": [POWER_NAMES[p] for p in state.artefacts[i]],
                "standee": None if state.standee[i] == NO else [state.standee[i] // 3, state.standee[i] % 3],
                "turns_taken": state.turns_taken[i],
            }
            for i in range(n)
        ],
        "board": [[None if m == NO else m for m in state.board[c]] for c in range(n)],
        "permanent": [list(state.permanent[c]) for c in range(n)],
        "decks": [list(d) for d in state.decks],
        "discard": list(state.discard),
        "pedestals": [None if p == NO else POWER_NAMES[p] for p in state.pedestal[:n]],
        "tiles": {POWER_NAMES[p]: TILE_STATES[state.tile_state[p]] for p in range(NUM_POWERS)},
        "turn": {
            "attacks": state.attacks,
            "killed": state.killed_this_turn,
            "load_kind": None if state.load_kind == NO else state.load_kind,
            "load_need": state.load_need,
            "load_used": [list(u) for u in state.load_used],
            "exchange_kind": None if state.exchange_kind == NO else state.exchange_kind,
            "return_phase": PHASES[state.return_phase],
            "l1_target": None if state.l1_target is None else list(state.l1_target),
        },
        "all_artefacts_held": state.all_artefacts_held,
        "end_case": state.end_case,
        "counters": {"ammo_from_opponents": state.ammo_from_opponents, "penalty_lost": state.penalty_lost},
        "rng": state.rng.bit_generator.state,
    } | _json_set_aside(state)


def _json_set_aside(state: Any) -> dict[str, Any]:
    """``{"set_aside": ...}``: the cards of the box a hand-made position leaves out of play (weapon
    counts per kind, monster ids), or ``{}`` for every state the rules reach, where each card is
    in play. Derived, not stored: what the box holds minus what the state places."""
    game = state.game
    weapons = [game.content.kind_copies[k] if k in game.kinds_in_play else 0 for k in range(NUM_KINDS)]
    for i in range(state.n):
        for k in range(NUM_KINDS):
            weapons[k] -= state.hands[i][k] + state.loaded[i][k]
        for kind in state.mag_kind[i]:
            if kind != NO:
                weapons[kind] -= 1
    for k in range(NUM_KINDS):
        weapons[k] -= state.discard[k]
    if state.load_kind != NO:
        weapons[state.load_kind] -= 1
    placed = {m for column in state.board[: state.n] for m in column if m != NO}
    placed.update(m for deck in state.decks for m in deck)
    placed.update(m for kills in state.kills for m in kills)
    monsters = [m for m in range(len(game.monster_vp)) if m not in placed]
    weapons = [max(w, 0) for w in weapons]  # a hand-made position may hold more than the box (check_box)
    if not any(weapons) and not monsters:
        return {}
    return {"set_aside": {"weapons": weapons, "monsters": monsters}}


def _json_from_json(cls: type, game: Any, data: dict[str, Any], check: bool = True, check_box: bool = True) -> Any:
    """Rebuild a state; the standee positions and tile holders are derived, not stored twice.
    ``check=False`` only for data the rules just wrote (resample_hidden): it skips :func:`validate`."""
    if check:
        validation.validate(game, data, check_box)
    s = cls.__new__(cls)
    s._blank(game)
    s.phase = PHASES.index(data["phase"])
    s.current_player = data["current_player"]
    s.first = data["first_player"]
    s.round = data["round"]
    s.setup_picks = data.get("setup_picks", 0)
    power_id = {name: i for i, name in enumerate(POWER_NAMES)}
    for i, p in enumerate(data["players"]):
        s.hands[i] = list(p["hand"])
        s.known[i] = list(p.get("known", [0] * NUM_KINDS))
        for slot, (kind, ammo) in enumerate(p["magazine"]):
            s.mag_kind[i][slot] = NO if kind is None else kind
            s.mag_ammo[i][slot] = ammo
        s.jokers[i] = p.get("jokers", 0)
        s.wheel[i] = p.get("wheel", 0)
        s.loaded[i] = list(p.get("loaded", [0] * NUM_KINDS))
        for k, v in enumerate(s.loaded[i]):
            s.loaded_power[i][game.kind_power[k] - 1] += v
        s.kills[i] = list(p.get("kills", []))
        s.vp[i] = sum(game.monster_vp[m] for m in s.kills[i])
        s.artefacts[i] = [power_id[name] for name in p.get("artefacts", [])]
        for pw in s.artefacts[i]:
            s.tile_holder[pw] = i
        if p.get("standee") is not None:
            col, lv = p["standee"]
            s.standee[i] = 3 * col + lv
            s.standee_on[col][lv] = i
        s.turns_taken[i] = p.get("turns_taken", 0)
    for c, column in enumerate(data["board"]):
        s.board[c] = [NO if m is None else m for m in column]
    for c, column in enumerate(data.get("permanent", [])):
        s.permanent[c] = list(column)
    s.decks = [list(d) for d in data["decks"]]
    s._count_hands()
    s.discard = list(data.get("discard", [0] * NUM_KINDS))
    for c, name in enumerate(data.get("pedestals", [])):
        s.pedestal[c] = NO if name is None else power_id[name]
    for name, st in data.get("tiles", {}).items():
        s.tile_state[power_id[name]] = TILE_STATES.index(st)
    t = data.get("turn", {})
    s.attacks = t.get("attacks", 0)
    s.killed_this_turn = t.get("killed", False)
    s.load_kind = NO if t.get("load_kind") is None else t["load_kind"]
    s.load_need = t.get("load_need", 0)
    s.load_used = [tuple(u) for u in t.get("load_used", [])]
    s.exchange_kind = NO if t.get("exchange_kind") is None else t["exchange_kind"]
    s.return_phase = PHASES.index(t.get("return_phase", "MAIN"))
    s.l1_target = None if t.get("l1_target") is None else tuple(t["l1_target"])
    s.all_artefacts_held = data.get("all_artefacts_held", False)
    s.end_case = data.get("end_case")
    counters = data.get("counters", {})
    s.ammo_from_opponents = counters.get("ammo_from_opponents", 0)
    s.penalty_lost = counters.get("penalty_lost", 0)
    s.rng = np.random.default_rng()
    if data.get("rng") is not None:
        s.rng.bit_generator.state = data["rng"]
    if s.end_case is not None:
        s.current_player = NO
    if check:
        validation.check_playable(s)
    return s


# The rule of each action block, named in full (a search for a handler finds its block here).
_BLOCK_RULES = {
    "PLAY_AMMO": LastHeroesState._do_play_ammo,
    "LOAD": LastHeroesState._do_load,
    "SOURCE": LastHeroesState._do_source,
    "SOURCE_JOKER": LastHeroesState._do_source_joker,
    "ATTACK": LastHeroesState._do_attack,
    "ATTACK_IMPACT": LastHeroesState._do_attack_impact,
    "L1_SWAP": LastHeroesState._do_l1_swap,
    "L1_SKIP": LastHeroesState._do_l1_skip,
    "SELECT_HAND": LastHeroesState._do_select_hand,
    "EXCHANGE_TAKE": LastHeroesState._do_exchange_take,
    "POWER_JOKER": LastHeroesState._do_power_joker,
    "POWER_RELOAD": LastHeroesState._do_power_reload,
    "END_TURN": LastHeroesState._do_end_turn,
    "END_TURN_IMMUNITY": LastHeroesState._do_end_turn_immunity,
}
assert set(_BLOCK_RULES) == {b.name for b in A.LAYOUT.blocks}, "every action block needs its rule"
# Action id -> (handler, arguments), so apply() dispatches without decoding the id.
_HANDLERS = tuple((_BLOCK_RULES[A.LAYOUT.name_of(a)], A.LAYOUT.args_of(a)) for a in range(A.NUM_ACTIONS))
