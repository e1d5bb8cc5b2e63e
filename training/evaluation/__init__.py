"""Evaluation: tournaments between policies, the skill ladder, learning curves."""
