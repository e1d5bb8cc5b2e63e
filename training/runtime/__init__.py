"""The policy runtime: checkpoints, inference, policy specs and search."""
