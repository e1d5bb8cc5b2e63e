"""Positions for the Last Bastion scenario tests, built as ``to_json()`` dicts in the absolute frame.

``Position`` starts from a fresh game's JSON, empties the Bastion (every card set aside, elements home,
no grasps), then the test edits it: seats, heroes and their tokens (the reserve follows), cards on
spaces, the deck (top first). ``main(player)`` gives the state at the start of that player's Hero phase,
``turn_start(board)`` at the start of a board-turn (its Horde phase runs at once). Action helpers take
absolute spaces/tiles/players and convert them to the frame of the player to act.
"""

from __future__ import annotations

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.game import LastBastionGame

DEFAULT_LAYOUT = [
    "Strategist's Tower",
    "Divine Fountain",
    "Trebuchet",
    "Market",
    "Great Hall",
    "Dwarven Quarry",
    "Dispensary",
    "Standard",
    "Tomb of the Ancient Kings",
]
FACES = {name: i for i, name in enumerate(C.DIE_FACES)}


def card(code: str) -> int:
    return C.CARD_BY_CODE[code]


def dice(*names: str) -> list[int]:
    return [FACES[n] for n in names]


class Position:
    def __init__(self, heroes=("Thorgrim", "Ysolde"), seats=None, layout=None, **options):
        n = len(heroes)
        options.setdefault("tile_layout", list(layout or DEFAULT_LAYOUT))
        self.game = LastBastionGame(num_players=n, heroes=list(heroes), **options)
        d = self.game.new_state(0).to_json()
        seats = list(seats) if seats is not None else list(range(n))
        d["seat_of"] = seats
        d["player_at"] = [seats.index(b) if b in seats else -1 for b in range(4)]
        d["spaces"] = [-1] * 12
        d["sanct"] = [-1] * 12
        d["discard"] = []
        d["deck"] = []
        d["grasped"] = [False] * 9
        d["placing"] = -1
        d["vanquished"] = 0
        d["board_turns"] = 1
        d["reserve_equip"] = [C.EQUIP_PER_COLOR] * 5
        d["reserve_life"] = C.LIFE_TOTAL
        d["reserve_cta"] = C.CTA_TOTAL
        for h in d["heroes"]:
            h.update(status="in", wounded=False, life=0, cta=0, equip=[0] * 5, tile=C.CENTRE, board_grasped=False)
        ench = "home" if "Mylfaar" in heroes else "out"
        d["elements"] = {e: {"state": "home", "where": -1, "seat": -1} for e in C.ELEMENTS}
        d["elements"]["enchantment"]["state"] = ench
        self.d = d
        for p in range(n):
            self.hero(p, life=3)

    # -- edits --
    def hero(self, p: int, life=None, cta=None, equip=None, tile=None, status=None, wounded=None):
        h = self.d["heroes"][p]
        if life is not None:
            self.d["reserve_life"] += h["life"] - life
            h["life"] = life
        if cta is not None:
            self.d["reserve_cta"] += h["cta"] - cta
            h["cta"] = cta
        if equip is not None:
            new = [0] * 5
            for c, k in dict(equip).items():
                new[C.COLORS.index(c)] = k
            for c in range(5):
                self.d["reserve_equip"][c] += h["equip"][c] - new[c]
            h["equip"] = new
        if tile is not None:
            h["tile"] = tile
        if status is not None:
            h["status"] = status
            if status != "in":
                self.hero(p, life=0, cta=0, equip={})
                h["tile"] = -1
        if wounded is not None:
            h["wounded"] = wounded
        return self

    def put(self, space: int, code: str):
        self.d["spaces"][space] = card(code)
        return self

    def deck(self, *codes: str):
        self.d["deck"] = [card(c) for c in codes]
        return self

    def grasp(self, *tiles: int):
        for t in tiles:
            self.d["grasped"][t] = True
        return self

    def element(self, name: str, state: str, where: int = -1, seat: int = -1):
        self.d["elements"][name] = {"state": state, "where": where, "seat": seat}
        return self

    def _finish(self):
        used = set(self.d["deck"]) | {c for c in self.d["spaces"] if c >= 0}
        self.d["set_aside"] = [c for c in range(C.NUM_CARDS) if c not in used]
        return self.d

    # -- states --
    def main(self, player: int):
        d = self._finish()
        d.update(
            board=d["seat_of"][player],
            active=player,
            neutral=False,
            acted=False,
            moved=False,
            power_used=False,
            decision=None,
            stack=[["turn_end"], ["hero"]],
            result=None,
        )
        return self.game.state_from_json(d)

    def turn_start(self, board: int, script=()):
        d = self._finish()
        d.update(board=board, active=-1, neutral=True, decision=None, stack=[["turn_start"]], result=None)
        d["chance"]["script"] = list(script)
        d["board_turns"] = 0
        return self.game.state_from_json(d)


# -- actions in the frame of the player to act (arguments absolute) --
def _seat(state) -> int:
    return state.seat_of[state.current_player]


def FIGHT(state, s: int) -> int:
    return LAYOUT.encode("FIGHT", (s - 3 * _seat(state)) % 12)


def ENCHANT(state, s: int) -> int:
    return LAYOUT.encode("ENCHANT", (s - 3 * _seat(state)) % 12)


def SPACE(state, s: int) -> int:
    return LAYOUT.encode("SELECT_SPACE", (s - 3 * _seat(state)) % 12)


def TILE(state, t: int) -> int:
    return LAYOUT.encode("SELECT_TILE", C.REL_TILE[_seat(state)][t])


def MOVE(state, t: int) -> int:
    return LAYOUT.encode("MOVE_TO", C.REL_TILE[_seat(state)][t])


def CTA(state, t: int) -> int:
    return LAYOUT.encode("CALL_TO_ARMS", C.REL_TILE[_seat(state)][t])


def PLAYER(state, p: int) -> int:
    return LAYOUT.encode("SELECT_PLAYER", (state.seat_of[p] - _seat(state)) % 4)


def COLOR(name: str) -> int:
    return LAYOUT.encode("SELECT_COLOR", C.COLORS.index(name))


def RESOLVE(outcome: str) -> int:
    return LAYOUT.encode("RESOLVE", ("none", "first", "second", "both").index(outcome))


ACTIVATE = LAYOUT.encode("ACTIVATE")
END_TURN = LAYOUT.encode("END_TURN")
FIGHT_BOTH = LAYOUT.encode("FIGHT_BOTH")


def spaces_offered(state) -> set[int]:
    """Absolute spaces of the SELECT_SPACE ids legal now."""
    seat = _seat(state)
    out = set()
    for a in state.legal_actions():
        name, args = LAYOUT.decode(a)
        if name == "SELECT_SPACE":
            out.add((args[0] + 3 * seat) % 12)
    return out


def players_offered(state) -> set[int]:
    seat = _seat(state)
    return {
        state.player_at[(seat + LAYOUT.decode(a)[1][0]) % 4]
        for a in state.legal_actions()
        if LAYOUT.decode(a)[0] == "SELECT_PLAYER"
    }


def outcomes_offered(state) -> set[str]:
    return {
        ("none", "first", "second", "both")[LAYOUT.decode(a)[1][0]]
        for a in state.legal_actions()
        if LAYOUT.decode(a)[0] == "RESOLVE"
    }
