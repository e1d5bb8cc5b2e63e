"""Training, evaluation and play tools for the herozoo environments."""
