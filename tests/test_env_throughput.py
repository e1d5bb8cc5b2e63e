"""benchmarks/env_throughput.py on a tiny budget: paired slices give a ratio per pair, and a loaded
machine is called out."""

from __future__ import annotations

from benchmarks.env_throughput import Runner, build_cases, clock_overhead, load_warning, paired_ratios


def test_pairs_cover_the_smallest_and_largest_table_with_one_ratio_each():
    cases = build_cases(["lost_legends_v0"], None)
    runners = {c.key: Runner(c, seed=0, warmup_s=0.01) for c in cases if c.api == "env"}
    rows = paired_ratios(
        [c for c in cases if c.api == "env"], runners, pairs=3, slice_s=0.02, clock_cost=clock_overhead(200)
    )
    assert [r["players"] for r in rows] == [3, 5]
    for r in rows:
        assert len(r["ratios"]) == 3 and r["ratio_min"] <= r["ratio_median"] <= r["ratio_max"]
        assert r["ratio_min"] > 0 and r["peer_us_median"] > 0


def test_a_load_above_one_is_a_warning_and_a_quiet_machine_is_not():
    assert load_warning([0.8, 0.5, 0.4], "at the start") is None
    assert load_warning(None, "at the start") is None
    message = load_warning([2.5, 1.0, 0.5], "at the end")
    assert "2.50 at the end" in message and "quiet" in message
