"""benchmarks/search_throughput.py on a tiny budget: its positions are real decisions and its rows add up."""

from __future__ import annotations

from benchmarks.search_throughput import measure, positions


def test_positions_are_decisions_with_a_choice():
    found = positions("lost_legends_v0", 3, 3, {})
    assert len(found) == 3 and all(s.num_legal() > 1 and not s.is_over() for s in found)
    assert len({str(s.to_json()) for s in found}) == 3


def test_a_row_counts_simulations_per_cpu_second():
    row = measure("last_heroes_v0", 2, "search:prior=shipped", sims=4, count=2, repeats=2)
    lo, hi = row["spread"]
    assert 0 < lo <= row["sims_per_cpu_s"] <= hi and len(row["repeats"]) == 2
