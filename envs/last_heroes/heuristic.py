"""A rule-based Last Heroes bot that reads the rules State directly (training opponent, baseline).

``HeuristicBot().act_state(state)`` returns a legal action id for ``state.current_player``. It only
reads what that seat may know (docs section 5.2): its own hand and public information (Magazines,
Jokers, wheels, scores, loaded weapons, kills, battlefield, standees, artefacts, the discard pile,
deck *sizes*). It never reads another player's hand or the order of a deck.

One value model serves every decision:

- **Attack now** (``_Context.targets``): the monster's VP; its artefact (``artefact_self`` for me,
  minus ``artefact_opp`` when it goes to another standee's owner); a kill that takes the last
  artefact ends the game, so it scores as a win or a loss (``win_bonus``); the Level 1 swap; and the
  breach it opens: a claim on the artefact above (``claim``) and a cheap target left to opponents
  whose public loaded weapons can use it (``gift``). Moving my standee away from an artefact costs
  the claim it held.
- **Later** (``_future``): the best *plan* I can still complete with the weapons left loaded and
  the cards in hand (one weapon loaded per turn): one kill, or a chain L1 -> L2 -> L3 through the
  breaches it opens (the upper kills need only their bright impacts), worth
  ``gain * reach[turns - 1]``. The breach my kill opens now adds plans with ``reach_breach``.
  Every loaded weapon also adds a little (``spare``).
- **The last artefact**: while one pedestal is left, every option (no attack, or each attack) also
  counts the chance that an opponent ends the game on their turn by killing its L3 monster (from their
  public loaded weapons and who will stand on it), times whether I would then win (``_danger``).
- **Resources**: one Ammo taken from an opponent costs ``opp_point`` (scaled for more players, more
  for the leader, less when it empties their card), a Joker is worth ``joker``, my own Magazine cards
  ``own_ammo`` per Ammo left, or minus the coming penalty (``own_empty``) when empty.

MAIN scores every ``PLAY_AMMO(k, slot)`` and ``LOAD(k)`` by its best continuation (attack or
keep) plus its resource change; LOAD_SOURCE takes the cheapest source; POST attacks when that
beats keeping the weapons, then uses RELOAD / JOKER / IMMUNITY by simple rules. The Level 1 swap
and EXCHANGE compare the plans the new hand allows (plus the Magazine and Joker changes); the
Magazine picks at setup prefer Power 2 cards of the type I hold most.

The weights (``DEFAULT_PARAMS``, with ``PLAYER_COUNT_PARAMS`` overrides for 2 players) were tuned by
self-play, one weight at a time, keeping changes that won more seat-balanced games. Some are not
probabilities: ``reach_breach`` above 1 says "follow up on my own breach whenever the hand allows".
The bot is deterministic; with a ``seed``, exact ties are broken at random instead of by the lowest
action id. A decision takes some tens of microseconds.
"""

from __future__ import annotations

import random
from typing import Any

from envs.last_heroes import actions as A
from envs.last_heroes.assignment import assign, impact_assignment, leftover_key
from envs.last_heroes.constants import (
    EXCHANGE,
    EXCHANGE_GIVE,
    IMPACT,
    L1_GIVE,
    L1_SLOT,
    LOAD_SOURCE,
    MAIN,
    NO,
    POST,
    RELOAD,
    SETUP_PICK,
)
from envs.last_heroes.content import ARTEFACT_VP, JOKER_CAP, NUM_KINDS, ROUNDS

# Tunable weights (tuned by self-play and against random play). Tuples indexed by power have an
# unused index 0.
DEFAULT_PARAMS: dict[str, Any] = {
    "reach": (0.68, 0.48, 0.32, 0.2),  # a plan for later that takes 1, 2, 3, 4+ turns
    "reach_breach": (0.96, 1.2),  # a plan through the breach my kill opens: 1 or 2 kills
    "spare": 0.15,  # each loaded weapon, beyond the best plan
    "joker": 0.6,  # one Joker
    "opp_point": 0.6,  # one point given to an opponent (2 players; scaled for more)
    "opp_empty": 0.4,  # discount when the Ammo taken empties the opponent's card
    "own_ammo": 0.25,  # one Ammo left in my own Magazine
    "own_empty": 1.0,  # an empty own card, beyond this turn's penalty
    "artefact_self": 3.0,  # gaining an artefact (its power, and 5 VP if all get taken)
    "artefact_opp": 2.0,  # an opponent gaining one (2 players; divided by n-1)
    "claim": 0.5,  # the chance that an opponent kills the L3 my standee stands on
    "gift": 0.25,  # a cheap target my breach leaves to the opponents, per VP
    "l1_swap": 0.3,  # an L1 kill's swap
    "impact_cost": 0.5,  # spending IMPACT
    "attack_min": 0.0,  # attack only if it beats keeping the weapons by more than this
    "hv": (0.0, 0.0, 0.0, 0.0),  # a card in hand, by power, on top of the plans it allows
    "exchange_min": 0.3,  # minimum gain for EXCHANGE
    "setup": (0.0, 0.6, 1.0, -1.0),  # putting a card of power p into the Magazine at setup
    "setup_type": 0.15,  # setup bonus per other card of the same type in hand
    "win_bonus": 50.0,  # a game-ending kill that makes me the sole winner (minus it if I lose)
}


# Overrides of DEFAULT_PARAMS by player count (the best values differ between 2 and 4+ players).
PLAYER_COUNT_PARAMS: dict[int, dict[str, Any]] = {
    2: {
        "reach": (0.68, 0.34, 0.17, 0.07),
        "reach_breach": (1.34, 1.2),
        "gift": 0.0,
        "hv": (0.0, 0.0, 0.2, 0.4),
        "own_ammo": 0.35,
        "joker": 0.4,
    },
}


def _missing(req, have) -> tuple[int, int, int]:
    """Impacts of ``req`` (counts of P1, P2, P3) left uncovered by the weapons ``have`` under the
    greedy assignment of the rules (strongest impact first, weakest weapon that covers it)."""
    r1, r2, r3 = req
    h1, h2, h3 = have
    u3 = r3 - h3
    if u3 > 0:
        h3 = 0
    else:
        h3 = -u3
        u3 = 0
    u2 = r2 - h2
    if u2 > 0:
        h2 = 0
        if h3 >= u2:
            h3 -= u2
            u2 = 0
        else:
            u2 -= h3
            h3 = 0
    else:
        h2 = -u2
        u2 = 0
    u1 = r1 - h1
    if u1 > 0:
        u1 -= h2
        if u1 > 0:
            u1 -= h3
            if u1 < 0:
                u1 = 0
        else:
            u1 = 0
    else:
        u1 = 0
    return (u1, u2, u3)


def _code(t) -> int:
    """Pack three small counts into one int (5 bits each) for fast cache keys."""
    return t[0] | t[1] << 5 | t[2] << 10


_NEED_CACHE: dict[int, int] = {}


def _need(req, have, hand_p, key: int) -> int:
    """Weapons still to load for ``req`` with ``have`` loaded, or -1 when the cards in hand (powers
    ``hand_p``) cannot supply them. Pure, so cached across decisions under the packed ``key``
    (``_code(req) | (_code(have) | _code(hand_p) << 15) << 15``)."""
    k = _NEED_CACHE.get(key)
    if k is None:
        u = _missing(req, have)
        k = u[0] + u[1] + u[2]
        if k and any(_missing(u, hand_p)):
            k = -1
        if len(_NEED_CACHE) > 500_000:
            _NEED_CACHE.clear()
        _NEED_CACHE[key] = k
    return k


class _Context:
    """Per-decision battlefield model (see the module docstring)."""

    __slots__ = ("targets", "plans", "breach_plans", "left", "memo", "danger_none")

    def __init__(self, targets, plans, breach_plans, left, danger_none=0.0):
        self.danger_none = danger_none  # outcome of an opponent ending the game, if I do not attack
        self.targets = targets  # (here, gain now, req now, here of the monster above or NO)
        self.plans = plans  # (gain, req, packed req, kills, monster bitmask), best gain first
        self.breach_plans = breach_plans  # here above -> [(gain, req, packed req, kills, first req)]
        self.left = left  # turns I still play after this one
        self.memo: dict = {}


class HeuristicBot:
    """Rule-based Last Heroes player: ``act_state(state)`` returns a legal action id.

    ``seed=None`` gives a fully deterministic player; with a seed, exact ties between the best
    actions are broken at random. ``params`` overrides entries of :data:`DEFAULT_PARAMS`.
    """

    def __init__(self, seed: int | None = None, params: dict[str, Any] | None = None, strict: bool = False):
        self.rng = random.Random(seed) if seed is not None else None
        self.strict = strict
        if params:
            unknown = set(params) - set(DEFAULT_PARAMS)
            if unknown:
                raise ValueError(f"unknown HeuristicBot params {sorted(unknown)}; known: {sorted(DEFAULT_PARAMS)}")
        # Weights per player count: defaults, then the player-count overrides, then ``params``.
        self._by_n = {}
        for n in range(2, 6):
            p = dict(DEFAULT_PARAMS)
            p.update(PLAYER_COUNT_PARAMS.get(n, {}))
            p.update(params or {})
            self._by_n[n] = p
        self.p = self._by_n[2]
        self._ctx_key = None  # the last battlefield model and what it was built from
        self._ctx = None
        self._ctx_params = None

    # -- entry point ----------------------------------------------------------------------
    def act_state(self, state) -> int:
        """A legal action for ``state.current_player``, chosen from what that seat may know.

        The choice is always checked against ``state.legal_mask()``. An illegal choice would be a
        bug: with ``strict=True`` it raises, otherwise the first legal action is played instead."""
        if state.is_terminal():
            raise ValueError("the game is over: there is no action to choose")
        state = state.reference()  # the Python state (a compiled one rebuilds it once per position)
        self.p = self._by_n[state.n]
        phase = state.phase
        if phase == MAIN:
            a = self._main(state)
        elif phase == LOAD_SOURCE:
            a = self._source(state)
        elif phase == POST:
            a = self._post(state)
        elif phase == L1_SLOT:
            a = self._l1_slot(state)
        elif phase == L1_GIVE:
            a = self._l1_give(state)
        elif phase == SETUP_PICK:
            a = self._setup(state)
        elif phase == EXCHANGE_GIVE:
            a = self._exchange_give(state)
        else:
            a = None
        mask = state.legal_mask()
        if a is None or not mask[a]:
            if self.strict:
                raise RuntimeError(f"HeuristicBot chose illegal action {a} in phase {state.phase}")
            a = int(mask.nonzero()[0][0])
        return int(a)

    def _best(self, scored: list[tuple[float, int]]) -> int:
        """Highest score; ties go to the lowest id, or to a random one when seeded."""
        best_v = max(v for v, _ in scored)
        tied = [a for v, a in scored if v >= best_v - 1e-9]
        if self.rng is None or len(tied) == 1:
            return min(tied)
        return self.rng.choice(sorted(tied))

    # -- resource values ------------------------------------------------------------------
    @staticmethod
    def _turns_left(state, seat: int) -> int:
        """Turns this seat still plays after the current one."""
        return max(0, ROUNDS - 1 - state.turns_taken[seat])

    def _joker_value(self, left: int) -> float:
        return self.p["joker"] * (1.0 if left >= 2 else left / 2.0)

    def _slot_value(self, left: int, ammo: int) -> float:
        """An own Magazine card with ``ammo`` left, at the end of this turn."""
        if ammo == 0:
            return -1.0 - (self.p["own_empty"] if left else 0.0)
        return self.p["own_ammo"] * ammo * (1.0 if left >= 2 else left / 2.0)

    def _opp_point_cost(self, state, seat: int, other: int) -> float:
        n = state.n
        base = self.p["opp_point"]
        if n == 2:
            return base
        scores = state.scores()
        best_other = max(scores[i] for i in range(n) if i != seat)
        leader = 1.0 if scores[other] >= best_other else 0.0
        return base * (1.0 / (n - 1) + 0.5 * leader)

    def _source_costs(self, state, seat: int, t: int, used, left: int) -> list[tuple[float, int]]:
        """(cost, action) of every source usable now for a weapon of type t, cheapest first."""
        n = state.n
        kind_type = state.game.kind_type
        out = []
        for rel in range(n):
            i = (seat + rel) % n
            mk, ma = state.mag_kind[i], state.mag_ammo[i]
            for s in (0, 1):
                a = ma[s]
                if a <= 0 or kind_type[mk[s]] != t or (i, s) in used:
                    continue
                if i == seat:
                    cost = self._slot_value(left, a) - self._slot_value(left, a - 1)
                else:
                    cost = self._opp_point_cost(state, seat, i)
                    if a == 1:
                        cost -= self.p["opp_empty"]
                out.append((cost, A.SOURCE + 2 * rel + s))
        jokers = state.jokers[seat]
        if jokers:
            jv = self._joker_value(left)
            out.extend((jv + 0.001 * j, A.SOURCE_JOKER) for j in range(jokers))
        out.sort()
        return out

    # -- battlefield model ----------------------------------------------------------------
    def _context(self, state, seat: int, left: int) -> _Context:
        """The attack targets, plans and breach plans of this decision. The last one is reused
        while everything it depends on is unchanged (typically from MAIN to POST)."""
        n = state.n
        key = (
            state.game,
            seat,
            left,
            state.killed_this_turn,
            tuple(tuple(state.board[c]) for c in range(n)),
            tuple(state.standee),
            tuple(state.pedestal[:n]),
            tuple(tuple(state.permanent[c]) for c in range(n)),
            tuple(tuple(state.loaded_power[i]) for i in range(n) if i != seat),
            tuple(state.vp),
            tuple(state.wheel),
            tuple(len(k) for k in state.kills),
            tuple(len(a) for a in state.artefacts),
        )
        if key == self._ctx_key and self._ctx_params is self.p:
            return self._ctx
        ctx = self._build_context(state, seat, left)
        self._ctx_key, self._ctx, self._ctx_params = key, ctx, self.p
        return ctx

    def _build_context(self, state, seat: int, left: int) -> _Context:
        game = state.game
        n = state.n
        p = self.p
        board = state.board
        standee_on = state.standee_on
        pedestal = state.pedestal
        permanent = state.permanent
        vp_of = game.monster_vp
        req_full, req_bright = game.req_full, game.req_bright
        art_self = p["artefact_self"]
        art_opp = p["artefact_opp"] / (n - 1)
        mine = state.standee[seat]
        my_claim = 0.0
        if mine != NO and mine % 3 == 2 and pedestal[mine // 3] != NO:
            my_claim = p["claim"] * art_self
        pedestals_left = sum(1 for c in range(n) if pedestal[c] != NO)
        gift_w = p["gift"] * (1.0 if n == 2 else 1.5 / (n - 1))
        l1_swap = p["l1_swap"]
        opp_have = [state.loaded_power[i] for i in range(n) if i != seat]
        chance_memo: dict = {}
        targets = []
        later = {}  # here -> (gain later, req later, bright req)
        for c in range(n):
            col = board[c]
            for lv in (0, 1, 2):
                m = col[lv]
                if m == NO:
                    continue
                vp = vp_of[m]
                here = 3 * c + lv
                gain = float(vp)
                gl = float(vp)
                if mine != NO and mine != here:
                    gain -= my_claim  # my standee leaves its breach
                above = NO
                if lv == 2:
                    if pedestal[c] != NO:
                        gl += art_self if pedestals_left > 1 else self._end_value(state, seat, seat, seat, vp, 0) - vp
                        owner = standee_on[c][2]
                        winner = owner if owner != NO else seat
                        if pedestals_left == 1:
                            gain += self._ending_value(state, seat, m, winner)
                        elif winner == seat:
                            gain += art_self
                        else:
                            gain -= art_opp
                else:
                    if lv == 0:
                        gain += l1_swap
                        gl += l1_swap
                    m_above = col[lv + 1]
                    if m_above != NO:
                        above = here + 1
                        rb = req_bright[m_above]
                        opp = chance_memo.get(rb)
                        if opp is None:
                            opp = chance_memo[rb] = self._opp_chance(rb, opp_have)
                        if opp:
                            if lv == 1 and pedestal[c] != NO and pedestals_left > 1:
                                gain += p["claim"] * art_self * opp
                            gain -= gift_w * opp * vp_of[m_above]
                bright = req_bright[m]
                full = req_full[m]
                covered = lv > 0 and (standee_on[c][lv] != NO or permanent[c][lv - 1])
                targets.append((here, gain, bright if covered else full, above))
                later[here] = (gl, bright if lv > 0 and permanent[c][lv - 1] else full, bright)
        # The last artefact: a kill of its L3 monster ends the game. Add to every option (no attack,
        # or each attack) the chance that an opponent ends it on their turn, times the outcome.
        danger_none = 0.0
        if pedestals_left == 1:
            last = next(c for c in range(n) if pedestal[c] != NO)
            danger_none = self._danger(state, seat, last, NO, 0)
            targets = [
                (here, gain + self._danger(state, seat, last, here, vp_of[board[here // 3][here % 3]]), req, above)
                for here, gain, req, above in targets
            ]
        # Plans for later: one kill, or a chain through the breaches it opens.
        plans = []
        for here, (gl, req, _) in later.items():
            plans.append((gl, req, _code(req), 1, 1 << here))
            a1 = later.get(here + 1) if here % 3 < 2 else None
            if a1 is None:
                continue
            b1 = a1[2]
            g2 = gl + a1[0]
            r2 = (req[0] + b1[0], req[1] + b1[1], req[2] + b1[2])
            plans.append((g2, r2, _code(r2), 2, 3 << here))
            a2 = later.get(here + 2) if here % 3 == 0 else None
            if a2 is not None:
                b2 = a2[2]
                r3 = (r2[0] + b2[0], r2[1] + b2[1], r2[2] + b2[2])
                plans.append((g2 + a2[0], r3, _code(r3), 3, 7 << here))
        plans.sort(key=lambda t: -t[0])
        # The breach a kill now opens: the monster above with its bright impacts, then the L3 above.
        breach_plans = {}
        for t in targets:
            above = t[3]
            if above == NO:
                continue
            g1, _, b1 = later[above]
            bp = [(g1, b1, _code(b1), 1, b1)]
            a2 = later.get(above + 1) if above % 3 == 1 else None
            if a2 is not None:
                b2 = a2[2]
                r = (b1[0] + b2[0], b1[1] + b2[1], b1[2] + b2[2])
                bp.append((g1 + a2[0], r, _code(r), 2, b1))
            breach_plans[above] = bp
        return _Context(targets, plans, breach_plans, left, danger_none)

    @staticmethod
    def _opp_chance(req, opp_have) -> float:
        """Rough chance that an opponent kills a monster needing ``req`` before my next turn,
        from their public loaded weapons (one more can be loaded on their turn)."""
        best = 0.0
        for have in opp_have:
            u = _missing(req, have)
            k = u[0] + u[1] + u[2]
            if k == 0:
                return 0.9
            if k == 1:
                best = 0.4
        return best

    def _ending_value(self, state, seat: int, monster: int, winner: int) -> float:
        """My kill of ``monster`` gives the last artefact to ``winner``: the game ends now (case A)."""
        return self._end_value(state, seat, seat, winner, state.game.monster_vp[monster], 0)

    def _end_value(self, state, seat: int, killer: int, owner: int, vp: int, my_vp: int) -> float:
        """The game ends (case A) when ``killer`` kills a monster worth ``vp`` and ``owner`` gets the
        last artefact, ``my_vp`` being what I score before that: +win_bonus if I am then the sole
        winner, a fifth of it for a shared victory, -win_bonus otherwise."""
        n = state.n
        vp_now = list(state.vp)
        kills = [len(k) for k in state.kills]
        vp_now[killer] += vp
        kills[killer] += 1
        if my_vp:
            vp_now[seat] += my_vp
            kills[seat] += 1
        arts = [len(a) for a in state.artefacts]
        arts[owner] += 1
        keys = [(vp_now[i] + state.wheel[i] + ARTEFACT_VP * arts[i], kills[i]) for i in range(n)]
        best = max(keys)
        if keys[seat] != best:
            return -self.p["win_bonus"]
        if keys.count(best) > 1:
            return self.p["win_bonus"] * 0.2
        return self.p["win_bonus"]

    def _danger(self, state, seat: int, col: int, attack: int, my_vp: int) -> float:
        """Expected outcome of an opponent killing the L3 monster of ``col`` (the last artefact) on
        their coming turn, after I attack ``attack`` (a slot, or NO for no attack)."""
        if attack == 3 * col + 2:
            return 0.0  # my kill ends the game: valued in the attack itself
        m3 = state.board[col][2]
        on3 = state.standee_on[col][2]
        if attack == 3 * col + 1:
            owner = seat  # my standee moves onto the L3 monster
        elif on3 == seat:
            owner = seat if attack == NO and state.killed_this_turn else NO
        else:
            owner = on3
        game = state.game
        req = game.req_bright[m3] if owner != NO or state.permanent[col][1] else game.req_full[m3]
        vp3 = game.monster_vp[m3]
        total = 0.0
        remaining = 1.0
        n = state.n
        for r in range(1, n):
            o = (seat + r) % n
            u = _missing(req, state.loaded_power[o])
            k = u[0] + u[1] + u[2]
            ch = 0.9 if k == 0 else (0.4 if k == 1 else 0.0)
            if ch:
                total += remaining * ch * self._end_value(state, seat, o, owner if owner != NO else o, vp3, my_vp)
                remaining *= 1.0 - ch
        return total

    def _future(self, ctx: _Context, have, hand_p, killed: int, breach: int) -> float:
        """The next turns: the best plan still reachable with the weapons ``have`` left loaded and
        the cards ``hand_p`` in hand, plus a little per spare loaded weapon."""
        left = ctx.left
        if left <= 0:
            return 0.0
        key = (have, hand_p, killed, breach)
        memo = ctx.memo
        v = memo.get(key)
        if v is not None:
            return v
        p = self.p
        reach = p["reach"]
        top = reach[0]
        best = 0.0
        hcode = (have[0] | have[1] << 5 | have[2] << 10 | hand_p[0] << 15 | hand_p[1] << 20 | hand_p[2] << 25) << 15
        kill_mask = 0 if killed == NO else 1 << killed
        cache = _NEED_CACHE
        for gain, req, rcode, kills, mask in ctx.plans:
            if gain * top <= best:
                break
            if mask & kill_mask:
                continue
            k = cache.get(rcode | hcode)
            if k is None:
                k = _need(req, have, hand_p, rcode | hcode)
            if k < 0:
                continue
            turns = k if k > kills else kills
            if turns > left:
                continue
            v = gain * reach[turns - 1 if turns < 4 else 3]
            if v > best:
                best = v
        if breach != NO:
            rb = p["reach_breach"]
            for gain, req, rcode, kills, first in ctx.breach_plans[breach]:
                if kills > left or gain * rb[kills - 1] <= best:
                    continue
                k = _need(req, have, hand_p, rcode | hcode)
                if k < 0 or k > kills:
                    continue
                if kills == 2 and sum(_missing(first, have)) > 1:
                    continue
                best = gain * rb[kills - 1]
        v = best + p["spare"] * (have[0] + have[1] + have[2]) * (1.0 if left >= 3 else left / 3.0)
        memo[key] = v
        return v

    def _turn_value(self, ctx: _Context, have, hand_p, impact: bool):
        """Best continuation with loaded powers ``have``: (value, attack action or None)."""
        best_v = self._future(ctx, have, hand_p, NO, NO) + ctx.danger_none
        best_a = None
        p = self.p
        margin = p["attack_min"]
        for here, gain, req, above in ctx.targets:
            used = assign(req, have)
            if used is not None:
                rest = (have[0] - used[0], have[1] - used[1], have[2] - used[2])
                v = gain + self._future(ctx, rest, hand_p, here, above)
                if v > best_v + margin:
                    best_v, best_a = v, A.ATTACK + here
            if impact:
                used_i = impact_assignment(req, have)
                # legal only when it makes the attack possible or leaves strictly better weapons (G23)
                if used_i is not None and (used is None or leftover_key(have, used_i) > leftover_key(have, used)):
                    rest = (have[0] - used_i[0], have[1] - used_i[1], have[2] - used_i[2])
                    v = gain - p["impact_cost"] + self._future(ctx, rest, hand_p, here, above)
                    if v > best_v + margin:
                        best_v, best_a = v, A.ATTACK_IMPACT + here
        return best_v, best_a

    @staticmethod
    def _hand_powers(state, seat: int) -> tuple[int, int, int]:
        hand = state.hands[seat]
        kind_power = state.game.kind_power
        hp = [0, 0, 0]
        for k in range(NUM_KINDS):
            if hand[k]:
                hp[kind_power[k] - 1] += hand[k]
        return (hp[0], hp[1], hp[2])

    # -- phases ---------------------------------------------------------------------------
    def _setup(self, state) -> int:
        seat = state.current_player
        hand = state.hands[seat]
        game = state.game
        pref = self.p["setup"]
        type_count = [0] * 5
        for k in range(NUM_KINDS):
            if hand[k]:
                type_count[game.kind_type[k]] += hand[k]
        scored = []
        for k in range(NUM_KINDS):
            if hand[k]:
                v = pref[game.kind_power[k]] + self.p["setup_type"] * (type_count[game.kind_type[k]] - 1)
                scored.append((v, A.SELECT_HAND + k))
        return self._best(scored)

    def _main(self, state) -> int:
        seat = state.current_player
        game = state.game
        hand = state.hands[seat]
        mask = state.legal_mask()
        left = self._turns_left(state, seat)
        # One-off powers before the card: EXCHANGE for a much better card, JOKER when low.
        if state.has_power(seat, EXCHANGE):
            a = self._exchange_choice(state, seat, mask, left)
            if a is not None:
                return a
        if mask[A.POWER_JOKER] and (state.jokers[seat] <= 1 or left <= 1):
            return A.POWER_JOKER
        ctx = self._context(state, seat, left)
        impact = state.has_power(seat, IMPACT)
        lp = state.loaded_power[seat]
        have = (lp[0], lp[1], lp[2])
        hp = self._hand_powers(state, seat)
        ammo_v = {}
        load_v = {}
        for pw in (1, 2, 3):
            if not hp[pw - 1]:
                continue
            rest = list(hp)
            rest[pw - 1] -= 1
            rest = (rest[0], rest[1], rest[2])
            ammo_v[pw] = self._turn_value(ctx, have, rest, impact)[0]
            h = list(have)
            h[pw - 1] += 1
            load_v[pw] = self._turn_value(ctx, (h[0], h[1], h[2]), rest, impact)[0]
        jv = self._joker_value(left) if state.jokers[seat] < JOKER_CAP else 0.0
        own_ammo = state.mag_ammo[seat]
        slot_now = (self._slot_value(left, own_ammo[0]), self._slot_value(left, own_ammo[1]))
        scored = []
        source_cost = {}
        for k in range(NUM_KINDS):
            if not hand[k]:
                continue
            pw = game.kind_power[k]
            full = self._slot_value(left, game.kind_ammo[k])
            for s in (0, 1):
                scored.append((ammo_v[pw] + jv + full - slot_now[s], A.PLAY_AMMO + 2 * k + s))
            if mask[A.LOAD + k]:
                t = game.kind_type[k]
                costs = source_cost.get(t)
                if costs is None:
                    costs = source_cost[t] = self._source_costs(state, seat, t, (), left)
                cost = sum(c for c, _ in costs[: game.kind_ammo[k]])
                scored.append((load_v[pw] - cost, A.LOAD + k))
        return self._best(scored)

    def _source(self, state) -> int:
        seat = state.current_player
        t = state.game.kind_type[state.load_kind]
        costs = self._source_costs(state, seat, t, state.load_used, self._turns_left(state, seat))
        return costs[0][1]

    def _post(self, state) -> int:
        seat = state.current_player
        mask = state.legal_mask()
        left = self._turns_left(state, seat)
        if state.attacks_allowed(seat):
            ctx = self._context(state, seat, left)
            lp = state.loaded_power[seat]
            hp = self._hand_powers(state, seat)
            _, a = self._turn_value(ctx, (lp[0], lp[1], lp[2]), hp, state.has_power(seat, IMPACT))
            if a is not None:
                if mask[a]:
                    return a
                if self.strict:
                    raise RuntimeError(f"HeuristicBot planned an illegal attack {a}")
        if state.has_power(seat, EXCHANGE):
            a = self._exchange_choice(state, seat, mask, left)
            if a is not None:
                return a
        ammo = state.mag_ammo[seat]
        if state.has_power(seat, RELOAD):
            kinds = state.mag_kind[seat]
            best = None
            for s in (0, 1):
                if not mask[A.POWER_RELOAD + s]:
                    continue
                gain = state.game.kind_ammo[kinds[s]] - ammo[s]
                if ammo[s] == 0 and (gain >= 2 or left <= 2):
                    if best is None or gain > best[0]:
                        best = (gain, A.POWER_RELOAD + s)
            if best is not None:
                return best[1]
        if mask[A.POWER_JOKER] and (state.jokers[seat] <= 1 or left <= 1):
            return A.POWER_JOKER
        if mask[A.END_TURN_IMMUNITY]:
            empty = (ammo[0] == 0) + (ammo[1] == 0)
            if empty >= 2 or left <= 1:
                return A.END_TURN_IMMUNITY
        return A.END_TURN

    def _hand_value(self, state, seat: int, left: int):
        """A function: powers in hand -> value of the next turns (with the weapons loaded now)."""
        if left <= 0:
            return lambda hand_p: 0.0
        ctx = self._context(state, seat, left)
        lp = state.loaded_power[seat]
        have = (lp[0], lp[1], lp[2])
        hv = self.p["hv"]

        def value(hand_p):
            return self._future(ctx, have, hand_p, NO, NO) + hv[1] * hand_p[0] + hv[2] * hand_p[1] + hv[3] * hand_p[2]

        return value

    def _l1_options(self, state, seat: int, slots):
        """(value, seat, slot, kind given) of every Level 1 swap into ``slots``; skip = 0."""
        game = state.game
        kind_power = game.kind_power
        hand = state.hands[seat]
        n = state.n
        left = self._turns_left(state, seat)
        gives = [k for k in range(NUM_KINDS) if hand[k]]
        jv = self._joker_value(left) if state.jokers[seat] < JOKER_CAP else 0.0
        opp_w = self.p["opp_point"] * (1.0 if n == 2 else 1.0 / (n - 1))
        own_ammo = self.p["own_ammo"]
        value = self._hand_value(state, seat, left)
        hp = self._hand_powers(state, seat)
        base = value(hp)
        hand_memo = {}
        out = []
        for i, s in slots:
            rk = state.mag_kind[i][s]
            ra = state.mag_ammo[i][s]
            rp = kind_power[rk] - 1
            for g in gives:
                gp = kind_power[g] - 1
                key = (rp, gp)
                dv = hand_memo.get(key)
                if dv is None:
                    h = list(hp)
                    h[gp] -= 1
                    h[rp] += 1
                    dv = hand_memo[key] = value((h[0], h[1], h[2])) - base
                ga = game.kind_ammo[g]
                v = dv
                if i == seat:
                    v += jv + self._slot_value(left, ga) - self._slot_value(left, ra)
                else:
                    # the opponent gets Ammo (income, no penalty) and loses what was left
                    v -= opp_w * (own_ammo * (ga - ra) + (1.0 if ra == 0 else 0.0))
                out.append((v, i, s, g))
        return out

    def _l1_slot(self, state) -> int:
        seat = state.current_player
        n = state.n
        slots = [(i, s) for i in range(n) for s in (0, 1)]
        options = self._l1_options(state, seat, slots)
        best = max(options, key=lambda o: (o[0], -((o[1] - seat) % n), -o[2], -o[3]))
        if best[0] <= 0.05:
            return A.L1_SKIP
        return A.L1_SWAP + 2 * ((best[1] - seat) % n) + best[2]

    def _l1_give(self, state) -> int:
        seat = state.current_player
        options = self._l1_options(state, seat, [state.l1_target])
        best = max(options, key=lambda o: (o[0], -o[3]))
        return A.SELECT_HAND + best[3]

    def _exchange_options(self, state, seat: int, left: int, takes):
        """(gain, kind taken, kind given) of every EXCHANGE swap with a kind in ``takes``."""
        kind_power = state.game.kind_power
        hand = state.hands[seat]
        value = self._hand_value(state, seat, max(left, 1))
        hp = self._hand_powers(state, seat)
        base = value(hp)
        out = []
        for k in takes:
            for g in range(NUM_KINDS):
                if hand[g] and g != k:
                    h = list(hp)
                    h[kind_power[g] - 1] -= 1
                    h[kind_power[k] - 1] += 1
                    out.append((value((h[0], h[1], h[2])) - base, k, g))
        return out

    def _exchange_choice(self, state, seat: int, mask, left: int):
        """EXCHANGE_TAKE of the discard that improves my hand most, when it is worth the power."""
        takes = [k for k in range(NUM_KINDS) if mask[A.EXCHANGE_TAKE + k]]
        if not takes:
            return None
        best = max(self._exchange_options(state, seat, left, takes), key=lambda o: (o[0], -o[1], -o[2]))
        if best[0] >= self.p["exchange_min"] or (left <= 1 and best[0] > 0):
            return A.EXCHANGE_TAKE + best[1]
        return None

    def _exchange_give(self, state) -> int:
        seat = state.current_player
        left = self._turns_left(state, seat)
        options = self._exchange_options(state, seat, left, [state.exchange_kind])
        best = max(options, key=lambda o: (o[0], -o[2]))
        return A.SELECT_HAND + best[2]
