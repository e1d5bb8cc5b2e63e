"""Lost Legends (lost_legends_v0), a competitive hero game over three dungeon levels.

The roles of its modules are listed in :mod:`envs.lost_legends.game`.
"""
