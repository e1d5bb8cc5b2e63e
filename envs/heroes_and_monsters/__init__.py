"""Heroes and Monsters: a cooperative deck-builder for 1-4 generals (see docs/heroes_and_monsters.md)."""
