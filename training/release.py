"""Ship a trained bot: copy it beside the shipped ones and evaluate it as its issue asks.

    python -m training.release RUN_DIR --to checkpoints/lost_legends/lost_legends --games 400 --seed 2026
    python -m training.release RUN_DIR --to checkpoints/last_bastion/last_bastion --games 400 \\
        --variant difficulty=novice,normal,difficult,heroic
    python -m training.release --summarise checkpoints/last_bastion [--records DIR]

RUN_DIR is a training run (its ``checkpoints/final``) or a checkpoint path. The bot is copied to
``--to`` (``.pt`` + ``.json``) and played at every table size of its metadata, ``--games`` games
per line-up and table, seat-balanced (``training.evaluation.tournament``):

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
quotes, with its plot ``evaluation/summary.png``. A run folder also gives ``training_record/``
(resolved config, evaluation history, pool manifest, cloning metrics) and ``learning_curve.png``.
Every file is written atomically.

Beside the bot, each evaluation cell keeps only its aggregate numbers:
``evaluation/<line-up>/<n>p[__key=value]/results.{json,md}`` (games, wins, rates, Wilson
intervals, seats, turn positions, ratings, the evaluation seed every game seed derives from). The
per-game records (``game_records``) and the per-cell plots, which every clone of the repository
would carry, go to ``--records DIR`` instead, in the same layout (default: ``RUN_DIR/release/``,
or ``runs/release/<name>__<time>/`` for a checkpoint path). ``--summarise FOLDER`` reduces a
folder written before this split to that form (``--records DIR`` keeps the full files there) and
rebuilds its ``summary.md`` and ``summary.png`` from the aggregates, without playing a game.
``--workers N`` plays each cell's games on N processes: the same games, the same tables.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import envs
from training.atomic import atomic_path, atomic_write_bytes, atomic_write_text
from training.evaluation.tournament import _pct, markdown, parse_variants, prepare, run, write_outputs
from training.runtime.checkpoints import copy_checkpoint, read_checkpoint_metadata, update_checkpoint_metadata
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


def aggregate(results: dict[str, Any]) -> dict[str, Any]:
    """One evaluation cell without its per-game list: every number of its tables, and the seed its
    games were dealt from (re-running the release deals the same games)."""
    return {k: v for k, v in results.items() if k != "game_records"}


def write_cell(results: dict[str, Any], dest: Path, records: Path) -> None:
    """The full results (per-game records, plot) to ``records``; the aggregate and its table to ``dest``."""
    write_outputs(results, records)
    brief = aggregate(results)
    dest.mkdir(parents=True, exist_ok=True)
    atomic_write_text(dest / "results.json", json.dumps(brief, indent=1, default=float))
    atomic_write_text(dest / "results.md", markdown(brief))


def plot_summary(cooperative: bool, rows: list[tuple[str, str, int, dict[str, Any]]], title: str, path: Path) -> None:
    """PNG: one panel per variant, the win rate of each line-up at each table size with its Wilson
    95% interval (competitive: the uniform share 1/n dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(label for label, _, _, _ in rows))
    widest = max({n for _, _, n, _ in rows}, key=lambda n: sum(m == n for _, _, m, _ in rows))
    names = list(dict.fromkeys([name for _, name, n, _ in rows if n == widest] + [name for _, name, _, _ in rows]))
    counts = sorted({n for _, _, n, _ in rows})
    fig, axes = plt.subplots(1, len(variants), figsize=(1.5 + 4.5 * len(variants), 4), sharey=True, squeeze=False)
    width = 0.8 / len(names)
    colours = {name: f"C{k}" for k, name in enumerate(names)}
    for ax, variant in zip(axes[0], variants):
        for k, name in enumerate(names):
            cells = [(n, r) for label, lineup, n, r in rows if label == variant and lineup == name]
            if not cells:
                continue
            xs = [counts.index(n) - 0.4 + width * (k + 0.5) for n, _ in cells]
            rates = [r["win_rate"] for _, r in cells]
            below = [r["win_rate"] - r["win_rate_ci95"][0] for _, r in cells]
            above = [r["win_rate_ci95"][1] - r["win_rate"] for _, r in cells]
            ax.bar(xs, rates, width, yerr=[below, above], capsize=3, color=colours[name], label=name)
        if not cooperative:
            for i, n in enumerate(counts):
                ax.hlines(1 / n, i - 0.45, i + 0.45, colors="grey", linestyles="--", linewidth=1)
        ax.set_xticks(range(len(counts)), [f"{n} player{'s' if n > 1 else ''}" for n in counts])
        ax.set_ylim(0, 1.02)
        ax.set_title("as trained" if variant == "-" else variant)
    axes[0][0].set_ylabel("win rate (Wilson 95%)" + ("" if cooperative else "; dashed: 1/n"))
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[name]) for name in names]
    fig.legend(handles, names, loc="lower center", ncol=len(names), fontsize="small", frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    try:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=80)
        atomic_write_bytes(path, buffer.getvalue())
    finally:
        plt.close(fig)


def write_summary(
    cooperative: bool, rows: list[tuple[str, str, int, dict[str, Any]]], title: str, evaluation: Path
) -> str:
    """``summary.md`` (the table the README quotes) and ``summary.png`` into ``evaluation``; returns the table."""
    table = summary_table(cooperative, rows)
    atomic_write_text(evaluation / "summary.md", table)
    plot_summary(cooperative, rows, title, evaluation / "summary.png")
    return table


def shipped_metadata(folder: Path) -> Path:
    """The one checkpoint in ``folder`` whose metadata records an evaluation (the bot evaluation/ belongs to)."""
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(meta, dict) and "weights_file" in meta and meta.get("evaluation"):
            found.append(path)
    if len(found) != 1:
        names = [p.name for p in found]
        raise ValueError(f"{folder}: expected one evaluated checkpoint beside evaluation/, found {names}")
    return found[0]


def summarise(folder: str | Path, records: str | Path | None = None) -> dict[str, Any]:
    """Reduce ``folder/evaluation/`` (written with per-game records) to aggregates, in place.

    Each cell's ``results.json`` loses its ``game_records`` and its ``results.png`` goes (both are
    moved to ``records`` when given); ``results.md``, ``summary.md`` and ``summary.png`` are written
    again from the aggregates, rows in the order of the checkpoint's metadata. Returns
    {"checkpoint", "summary", "rows", "table"}."""
    folder = Path(folder)
    evaluation = folder / "evaluation"
    ckpt = shipped_metadata(folder)
    meta = read_checkpoint_metadata(ckpt)
    cooperative = bool(getattr(envs.game_class(meta["env_id"]), "cooperative", False))
    wanted = [(key, name) for key, by_lineup in meta["evaluation"].items() for name in by_lineup]
    on_disk = {(p.parent.name, p.parent.parent.name) for p in evaluation.glob("*/*/results.json")}
    if set(wanted) != on_disk:
        raise ValueError(
            f"{evaluation}: cells on disk {sorted(on_disk - set(wanted))} not in {ckpt.name}, "
            f"cells of {ckpt.name} missing on disk {sorted(set(wanted) - on_disk)}"
        )
    cells = {(key, name): json.loads((evaluation / name / key / "results.json").read_text()) for key, name in wanted}
    for (key, name), results in cells.items():  # every cell checked before any file changes
        if row_of(results) != meta["evaluation"][key][name]:
            raise ValueError(f"{evaluation / name / key}: its numbers differ from {ckpt.name}'s [{key!r}][{name!r}]")
    rows: list[tuple[str, str, int, dict[str, Any]]] = []
    for (key, name), results in cells.items():
        cell = evaluation / name / key
        if records is not None and "game_records" in results:
            kept = Path(records) / "evaluation" / name / key
            kept.mkdir(parents=True, exist_ok=True)
            for file in ("results.json", "results.md", "results.png"):
                if (cell / file).exists():
                    shutil.copyfile(cell / file, kept / file)
        brief = aggregate(results)
        atomic_write_text(cell / "results.json", json.dumps(brief, indent=1, default=float))
        atomic_write_text(cell / "results.md", markdown(brief))
        (cell / "results.png").unlink(missing_ok=True)
        label = ", ".join(f"{k}={v}" for k, v in brief.get("variant", {}).items()) or "-"
        rows.append((label, name, brief["num_players"], row_of(brief)))
    table = write_summary(cooperative, rows, f"{ckpt.stem} ({meta['env_id']})", evaluation)
    return {"checkpoint": ckpt, "summary": evaluation / "summary.md", "rows": rows, "table": table}


def copy_training_record(run_dir: Path, dest: Path) -> list[Path]:
    """The run's record beside the shipped checkpoint, and its learning curve."""
    from training.evaluation.curves import plot_learning_curve

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
    records: str | Path | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Copy, evaluate and record; returns {"checkpoint", "summary", "records", "rows", "table"}.

    ``records``: where the per-game records go (default ``RUN_DIR/release``, or
    ``runs/release/<name>__<time>`` for a checkpoint path); ``to``'s folder gets the aggregates.
    ``workers``: processes that play each cell's games (the games and their seeds are the same)."""
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
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
    if records is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        records = run_dir / "release" if run_dir else Path("runs/release") / f"{to.name}__{stamp}"
    records = Path(records)
    if records.resolve() == dest.resolve():
        raise ValueError(f"--records {records} is the bot's own folder; the per-game records are kept out of it")
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
                results = run(setup, progress=progress, workers=workers)
                results["variant"] = variant
                write_cell(results, dest / "evaluation" / name / key, records / "evaluation" / name / key)
                row = row_of(results)
                evaluation.setdefault(key, {})[name] = row
                rows.append((label, name, n, row))
                if progress:  # one line per line-up, for a long release
                    print(f"{key} {name}: {row['wins']} / {row['games']} ({_pct(row['win_rate'])})", file=sys.stderr)
    table = write_summary(cooperative, rows, f"{to.name} ({env_id})", dest / "evaluation")
    # The run folder by name: its absolute path would only be true on the machine that trained it.
    where = {"run_dir": f"runs/{run_dir.name}"} if run_dir is not None else {}
    update_checkpoint_metadata(
        shipped, evaluation=evaluation, evaluation_games_per_table=games, evaluation_command=command, **where
    )
    if run_dir is not None:
        copy_training_record(run_dir, dest)
    summary = dest / "evaluation" / "summary.md"
    return {"checkpoint": shipped, "summary": summary, "records": records, "rows": rows, "table": table}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="python -m training.release", description=__doc__.split("\n\n")[0])
    p.add_argument("source", nargs="?", help="a training run folder (its checkpoints/final) or a checkpoint path")
    p.add_argument("--to", help="destination stem, e.g. checkpoints/lost_legends/lost_legends")
    p.add_argument("--games", type=int, default=400, help="games per line-up and table size (default 400)")
    p.add_argument("--seed", type=int, default=2026, help="evaluation seed (default 2026)")
    p.add_argument(
        "--variant", action="append", default=[], metavar="KEY=V1,V2", help="also evaluate at these option values"
    )
    p.add_argument(
        "--records",
        metavar="DIR",
        help="where the per-game records and per-cell plots go (default RUN_DIR/release or runs/release/...)",
    )
    p.add_argument(
        "--summarise",
        metavar="FOLDER",
        help="reduce FOLDER/evaluation/ to aggregates and rebuild its summary, playing no game",
    )
    p.add_argument(
        "--workers", type=int, default=1, help="processes that play each cell's games (default 1; same games)"
    )
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    if args.summarise is not None and (args.source or args.to):
        p.error("--summarise FOLDER takes no RUN_DIR or --to")
    if args.summarise is None and not (args.source and args.to):
        p.error("give RUN_DIR and --to (or --summarise FOLDER)")
    try:
        if args.summarise is not None:
            out = summarise(args.summarise, args.records)
        else:
            command = " ".join(["python -m training.release", *(argv if argv is not None else sys.argv[1:])])
            out = release(
                args.source,
                args.to,
                args.games,
                args.seed,
                args.variant,
                not args.no_progress,
                command,
                args.records,
                args.workers,
            )
    except (ValueError, OSError) as e:
        p.error(str(e))
    print(out["table"])
    if args.summarise is not None:
        print(f"summarised the evaluation of {out['checkpoint']}; tables in {out['summary']}")
    else:
        print(f"shipped {out['checkpoint']}; tables in {out['summary']}; per-game records in {out['records']}")
    return out


if __name__ == "__main__":
    main()
