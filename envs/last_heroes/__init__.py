"""Last Heroes: competitive card game for 2-5 players (env id ``last_heroes_v0``)."""
