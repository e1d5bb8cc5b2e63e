"""Last Heroes' named constants: decision phases, Power ids, Power tile states, the two endings.

Shared by the rules (``state.py``), their text and JSON checks (``text.py``, ``validation.py``), the
compiled engine, the encoder and the bot; ``rules`` re-exports them.
"""

from envs.last_heroes.content import NUM_POWERS, POWERS

# Decision phases (the order is the observation's phase one-hot).
PHASES = ("SETUP_PICK", "MAIN", "LOAD_SOURCE", "EXCHANGE_GIVE", "POST", "L1_SLOT", "L1_GIVE")
SETUP_PICK, MAIN, LOAD_SOURCE, EXCHANGE_GIVE, POST, L1_SLOT, L1_GIVE = range(len(PHASES))

# Power ids (content.POWERS order) and the states of a Power tile.
JOKER, EXCHANGE, IMPACT, IMMUNITY, RELOAD, ADRENALINE = range(NUM_POWERS)
POWER_NAMES = tuple(p[0] for p in POWERS)
TILE_STATES = ("out_of_game", "on_pedestal", "held", "used")
OUT, PEDESTAL, HELD, USED = range(len(TILE_STATES))

NO = -1  # empty slot / no owner / no standee

# The two ways the game ends (docs 2.12), as the Outcome's reason.
END_REASONS = {"A": "every artefact won (case A)", "B": "ten rounds played (case B)"}
