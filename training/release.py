"""Ship a trained bot: copy it beside the shipped ones and evaluate it as its issue asks.

    python -m training.release RUN_DIR --to checkpoints/lost_legends/lost_legends --games 400 --seed 2026
    python -m training.release RUN_DIR --to checkpoints/last_bastion/last_bastion --games 400 \\
        --variant difficulty=novice,normal,difficult,heroic

RUN_DIR is a training run (its ``checkpoints/final``) or a checkpoint path. The bot is copied to
``--to`` (``.pt`` + ``.json``) and played at every table size of its metadata, ``--games`` games
per line-up and table, seat-balanced (``training.evaluate``):

| Kind | Line-up | Folder under ``evaluation/`` |
|---|---|---|
| competitive | the bot against random opponents | ``random`` |
| competitive | the bot against heuristic opponents | ``heuristic`` |
| cooperative | the bot in every seat | ``team`` |
| cooperative | the bot beside heuristic partners (2+ players) | ``with_heuristic`` |
| cooperative | the all-heuristic team; the all-random team | ``heuristic_team``, ``random_team`` |

Each ``--variant key=v1,v2`` value (other than the trained one) adds the bot's line-ups and, in a
cooperative game, the heuristic and random teams at that value, so the variants' difficulty can be
compared. The results go into the copy's metadata (``evaluation``: ``"<n>p"`` or
``"<n>p__key=value"`` -> line-up -> row) and into ``evaluation/summary.md``, the table the README
quotes. A run folder also gives ``training_record/`` (resolved config, evaluation history, pool
manifest, cloning metrics) and ``learning_curve.png``. Every file is written atomically.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

import envs
from training.atomic import atomic_path, atomic_write_text
from training.checkpoints import copy_checkpoint, read_checkpoint_metadata, update_checkpoint_metadata
from training.evaluate import _pct, parse_variants, prepare, run, write_outputs
from training.train import lineups_to_evaluate

RECORD_FILES = ("config.yaml", "eval_history.jsonl", "final_evaluation.json", "pool/pool.json", "pretrain.json")


def lineups(cooperative: bool, bot: str, num_players: int) -> dict[str, list[str]]:
    """Line-up name -> agent specs: training's evaluation line-ups, and in a cooperative game the
    all-heuristic and all-random teams the bot is compared with."""
    out = lineups_to_evaluate(cooperative, bot, num_players)
    if cooperative:
        out.update(heuristic_team=["heuristic"], random_team=["random"])
    return out


def variant_lineups(cooperative: bool, bot: str, num_players: int) -> dict[str, list[str]]:
    """At a variant: the bot's line-ups, and the baseline teams a difficulty is judged by."""
    chosen = lineups(cooperative, bot, num_players)
    if cooperative:
        chosen.pop("with_heuristic", None)
    return chosen


def row_of(results: dict[str, Any]) -> dict[str, Any]:
    """The number a table quotes: the team's row (cooperative) or the focus agent's."""
    if results["kind"] == "cooperative":
        team = results["team"]
        return {k: team[k] for k in ("games", "wins", "win_rate", "win_rate_ci95", "mean_score", "mean_decisions")}
    agent = results["agents"][0]
    keys = ("games", "wins", "win_rate", "win_rate_ci95", "win_share", "win_share_rate", "mean_score")
    return {k: agent[k] for k in keys if k in agent}


def summary_table(cooperative: bool, rows: list[tuple[str, str, int, dict[str, Any]]]) -> str:
    """Markdown: one line per (table, variant, line-up)."""
    if cooperative:
        head = "| Players | Variant | Line-up | Team wins | Win rate (Wilson 95%) | Mean score | Mean decisions |"
        lines = [head, "|---|---|---|---:|---|---:|---:|"]
        for variant, name, n, r in rows:
            lo, hi = r["win_rate_ci95"]
            lines.append(
                f"| {n} | {variant} | {name} | {r['wins']} / {r['games']} | {_pct(r['win_rate'])} "
                f"({_pct(lo)}-{_pct(hi)}) | {r['mean_score']:.2f} | {r['mean_decisions']:.1f} |"
            )
    else:
        head = (
            "| Players | Variant | Opponents | Bot wins | Win rate (Wilson 95%) | Win share | Uniform share "
            "| Mean score |"
        )
        lines = [head, "|---|---|---|---:|---|---:|---:|---:|"]
        for variant, name, n, r in rows:
            lo, hi = r["win_rate_ci95"]
            lines.append(
                f"| {n} | {variant} | {name} | {r['wins']} / {r['games']} | "
                f"{_pct(r['win_rate'])} ({_pct(lo)}-{_pct(hi)}) | {_pct(r['win_share_rate'])} | {_pct(1 / n)} | "
                f"{r['mean_score']:.2f} |"
            )
    return "\n".join(lines) + "\n"


def copy_training_record(run_dir: Path, dest: Path) -> list[Path]:
    """The run's record beside the shipped checkpoint, and its learning curve."""
    from training.curves import plot_learning_curve

    record = dest / "training_record"
    record.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in RECORD_FILES:
        src = run_dir / name
        if src.exists():
            with atomic_path(record / Path(name).name) as tmp:
                shutil.copyfile(src, tmp)
            copied.append(record / Path(name).name)
    if (run_dir / "eval_history.jsonl").exists():
        with atomic_path(dest / "learning_curve.png") as tmp:
            plot_learning_curve(run_dir, out=Path(tmp))
        copied.append(dest / "learning_curve.png")
    return copied


def release(
    source: str | Path,
    to: str | Path,
    games: int,
    seed: int,
    variants: list[str] | None = None,
    progress: bool = True,
    command: str = "training.release.release()",
) -> dict[str, Any]:
    """Copy, evaluate and record; returns {"checkpoint", "summary", "rows"}."""
    source = Path(source)
    run_dir = source if (source / "checkpoints" / "final.json").exists() else None
    ckpt = run_dir / "checkpoints" / "final.json" if run_dir else source
    meta = read_checkpoint_metadata(ckpt)
    env_id = meta["env_id"]
    game_cls = envs.game_class(env_id)
    cooperative = bool(getattr(game_cls, "cooperative", False))
    counts = sorted(set(meta.get("player_counts") or [meta["env_options"].get("num_players")]))
    base_options = {k: v for k, v in meta["env_options"].items() if k != "num_players"}
    combos = [c for c in parse_variants(variants or []) if any(base_options.get(k) != v for k, v in c.items())]
    to = Path(to)
    dest = to.parent
    shipped = copy_checkpoint(ckpt, to)
    bot = str(shipped)

    evaluation: dict[str, dict[str, Any]] = {}
    rows: list[tuple[str, str, int, dict[str, Any]]] = []
    for variant in [{}, *combos]:
        label = ", ".join(f"{k}={v}" for k, v in variant.items()) or "-"
        for n in counts:
            chosen = (variant_lineups if variant else lineups)(cooperative, bot, n)
            key = f"{n}p" + "".join(f"__{k}={v}" for k, v in variant.items())
            for name, specs in chosen.items():
                setup = prepare(env_id, n, specs, games, seed, {**base_options, **variant})
                results = run(setup, progress=progress)
                results["variant"] = variant
                write_outputs(results, dest / "evaluation" / name / key)
                row = row_of(results)
                evaluation.setdefault(key, {})[name] = row
                rows.append((label, name, n, row))
                if progress:  # one line per line-up, for a long release
                    print(f"{key} {name}: {row['wins']} / {row['games']} ({_pct(row['win_rate'])})", file=sys.stderr)
    table = summary_table(cooperative, rows)
    atomic_write_text(dest / "evaluation" / "summary.md", table)
    # The run folder by name: its absolute path would only be true on the machine that trained it.
    where = {"run_dir": f"runs/{run_dir.name}"} if run_dir is not None else {}
    update_checkpoint_metadata(
        shipped, evaluation=evaluation, evaluation_games_per_table=games, evaluation_command=command, **where
    )
    if run_dir is not None:
        copy_training_record(run_dir, dest)
    return {"checkpoint": shipped, "summary": dest / "evaluation" / "summary.md", "rows": rows, "table": table}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m training.release", description=__doc__.split("\n\n")[0])
    p.add_argument("source", help="a training run folder (its checkpoints/final) or a checkpoint path")
    p.add_argument("--to", required=True, help="destination stem, e.g. checkpoints/lost_legends/lost_legends")
    p.add_argument("--games", type=int, default=400, help="games per line-up and table size (default 400)")
    p.add_argument("--seed", type=int, default=2026, help="evaluation seed (default 2026)")
    p.add_argument(
        "--variant", action="append", default=[], metavar="KEY=V1,V2", help="also evaluate at these option values"
    )
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    try:
        command = " ".join(["python -m training.release", *(argv if argv is not None else sys.argv[1:])])
        out = release(args.source, args.to, args.games, args.seed, args.variant, not args.no_progress, command)
    except (ValueError, OSError) as e:
        p.error(str(e))
    print(out["table"])
    print(f"shipped {out['checkpoint']}; tables in {out['summary']}")
    return out


if __name__ == "__main__":
    main()
