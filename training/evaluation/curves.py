"""Plot a run's learning curve: win rate of each evaluated line-up at each table size over training steps.

    python -m training.evaluation.curves RUN_DIR [--out PNG]

Reads ``RUN_DIR/eval_history.jsonl`` (one line per periodic evaluation) and writes a PNG
(default ``RUN_DIR/learning_curve.png``) with Wilson 95% bands, atomically.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from training.atomic import atomic_path  # noqa: E402


def read_history(run_dir: Path) -> list[dict]:
    path = Path(run_dir) / "eval_history.jsonl"
    if not path.exists():
        raise ValueError(f"{path} does not exist: is {run_dir} a run folder with at least one evaluation?")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{path} holds no evaluation yet")
    return sorted(rows, key=lambda r: r["timesteps"])


def series(rows: list[dict]) -> dict[str, list[tuple[int, float, float, float]]]:
    """``{"<table> <line-up>": [(timesteps, win rate, low, high), ...]}`` from the evaluation rows
    (``{"timesteps", "results": {"2p": {"heuristic": {"win_rate", "win_rate_ci95"}, ...}}}``)."""
    out: dict[str, list[tuple[int, float, float, float]]] = {}
    for row in rows:
        # Older runs logged one table: {"timesteps", "random": {...}, "heuristic": {...}}.
        tables = row["results"] if "results" in row else {"": {k: v for k, v in row.items() if isinstance(v, dict)}}
        for table, by_lineup in tables.items():
            for name, r in by_lineup.items():
                lo, hi = r["win_rate_ci95"]
                out.setdefault(f"{table} {name}".strip(), []).append((row["timesteps"], r["win_rate"], lo, hi))
    return out


def plot_learning_curve(run_dir: Path, out: Path | None = None, title: str | None = None) -> Path:
    rows = read_history(run_dir)
    out = Path(out) if out else Path(run_dir) / "learning_curve.png"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, points in series(rows).items():
        steps, rate, lo, hi = zip(*points)
        ax.plot(steps, rate, marker="o", label=label)
        ax.fill_between(steps, lo, hi, alpha=0.15)
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("win rate (Wilson 95%)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    ax.set_title(title or Path(run_dir).name)
    fig.tight_layout()
    try:
        with atomic_path(out, suffix=".png") as tmp:
            fig.savefig(tmp, dpi=110)
    finally:
        plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m training.evaluation.curves",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--title")
    args = parser.parse_args(argv)
    try:
        print(plot_learning_curve(args.run_dir, args.out, args.title))
    except ValueError as e:
        parser.error(str(e))


if __name__ == "__main__":
    main()
