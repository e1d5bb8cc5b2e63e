"""Plot a run's learning curve: win rate against each baseline over training steps.

    python -m training.curves RUN_DIR [--out PNG]

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


def plot_learning_curve(run_dir: Path, out: Path | None = None, title: str | None = None) -> Path:
    rows = read_history(run_dir)
    out = Path(out) if out else Path(run_dir) / "learning_curve.png"
    baselines = [k for k, v in rows[0].items() if isinstance(v, dict) and "win_rate" in v]
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in baselines:
        steps = [r["timesteps"] for r in rows if name in r]
        rate = [r[name]["win_rate"] for r in rows if name in r]
        lo = [r[name]["win_rate_ci95"][0] for r in rows if name in r]
        hi = [r[name]["win_rate_ci95"][1] for r in rows if name in r]
        ax.plot(steps, rate, marker="o", label=f"vs {name}")
        ax.fill_between(steps, lo, hi, alpha=0.2)
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("win rate (seat-balanced, Wilson 95%)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
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
        prog="python -m training.curves", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
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
