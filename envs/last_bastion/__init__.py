"""Last Bastion: a cooperative hero-vs-horde game (env id ``last_bastion_v0``)."""
