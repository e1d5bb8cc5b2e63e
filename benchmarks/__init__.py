"""Benchmarks (run from the repository root, e.g. ``python -m benchmarks.env_throughput``).

Not installed with the package: they measure the installed ``envs`` next to other libraries.
"""
