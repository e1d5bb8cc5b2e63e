"""Play a herozoo game in the terminal, against (and beside) bots.

    python -m training.play last_heroes_v0 --players 3 --seat 0=human --seat 1=heuristic
    python -m training.play last_bastion_v0 --players 2 --seat 1=human --hint
    python -m training.play lost_legends_v0 --save game.json          # saved after every move
    python -m training.play --resume game.json                         # go on with a saved game
    python -m training.play --replay game.json --view 0                # step through a saved game

Seats not given get the game's shipped bot (``checkpoints/<game>/<game>.json``), else the
heuristic; when no seat is given to a human, the first seat not given is yours (give every seat
to a bot to watch a game). A seat spec is ``human``, ``random``,
``heuristic``, ``shipped`` or a checkpoint path. The board is shown exactly as your seat may see it.

At the prompt: a number picks that action; ``/word`` shows only the actions whose words contain
``word`` (``/`` shows all again); ``h`` a hint (what the hint bot would play, with its probability);
``b`` the board again; ``t`` the game's own text render; ``l`` the whole log; ``s [FILE]`` saves the
replay; ``q`` saves (with ``--save``) and quits; ``?`` this help.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

import envs
from training.playing.replay import ReplayError, load_replay, save_replay
from training.playing.session import (
    IllegalActionError,
    NotYourTurnError,
    Session,
    default_bot,
    default_players,
    spec_label,
)

HELP = (
    "a number: play that action | /word: show the actions matching word (/ alone: all) | "
    "h: hint | b: board | t: text render | l: log | s [FILE]: save | q: quit | ?: help"
)


RECENT = 30  # moves told when a game starts or resumes
_NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits only: "²" is a digit to str.isdigit, not to int()


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


class Quit(Exception):
    """The person asked to stop (q, end of input, Ctrl-C)."""


# -- drawing ------------------------------------------------------------------------------------------


def _item_text(item: dict[str, Any]) -> str:
    kind = item["type"]
    name = escape(item["name"])
    if kind == "blank":
        return ""
    if kind == "hidden":
        return f"[dim]{name}: {item['count']} hidden[/dim]"
    if kind == "empty":
        return f"[dim]{name}[/dim]"
    if kind == "track":
        top = f"/{item['max']}" if item.get("max") is not None else ""
        text = f"{name} [bold]{item['value']}{top}[/bold]"
    elif kind == "token" and item.get("value") is not None:
        text = f"{name} [bold]{escape(str(item['value']))}[/bold]"
    else:
        style = {"monster": "bold red", "tile": "bold cyan", "card": "bold"}.get(kind, "bold")
        text = f"[{style}]{name}[/{style}]"
    if item.get("values"):
        text += " " + ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in item["values"])
    tags = [t for t in item.get("tags", []) if t]
    if tags:
        text += " [magenta](" + escape(", ".join(tags)) + ")[/magenta]"
    return text


def draw_board(console: Console, view: dict[str, Any]) -> None:
    """The board components of a view, as rich panels (grids as tables)."""
    board = view["board"]
    console.rule(f"[bold]{escape(board['title'])}[/bold] - {escape(board.get('status', ''))}")
    for sec in board["sections"]:
        title = escape(sec["title"])
        if sec.get("owner") is not None:
            seat = view["seats"][sec["owner"]]
            title += f" ({escape(seat['spec'])})"
            if sec.get("you"):
                title = "[bold green]" + title + " - you[/bold green]"
            if sec.get("active"):
                title += " [yellow]* to act[/yellow]"
        items = sec["items"]
        if sec.get("layout") == "grid" and sec.get("columns"):
            cols = sec["columns"]
            table = Table(show_header=False, expand=True, box=None, padding=(0, 1))
            for _ in range(cols):
                table.add_column(ratio=1, overflow="fold")
            for row in range(0, len(items), cols):
                table.add_row(*[_item_text(it) for it in items[row : row + cols]])
            console.print(Panel(table, title=title, title_align="left"))
        else:
            body = "\n".join(t for t in (_item_text(it) for it in items) if t) or "[dim]-[/dim]"
            console.print(Panel(body, title=title, title_align="left"))


def draw_actions(console: Console, session: Session, words: str = "") -> None:
    """The legal actions, numbered 1.., grouped by kind; with ``words``, only those matching."""
    shown = 0
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    for label, actions in session.grouped_actions():
        rows = [(n, a) for n, a in actions if not words or words.lower() in f"{a.text} {label}".lower()]
        if not rows:
            continue
        table.add_row("", f"[bold underline]{escape(label)}[/bold underline]")
        for n, a in rows:
            table.add_row(str(n), escape(a.text))
            shown += 1
    total = len(session.legal_actions())
    head = f"Your actions (player_{session.to_act})"
    if words:
        head += f", matching {escape(repr(words))}: {shown} of {total}"
    console.print(Panel(table if shown else "[dim]no action matches[/dim]", title=head, title_align="left"))


def narrate(console: Console, entries: Sequence[Any], seat: int) -> None:
    for e in entries:
        if e.human and e.seat == seat:
            continue
        told = e.for_seat(seat)
        console.print(f"  [cyan]{escape(e.player)}[/cyan]: {escape(told['text'])}")


def draw_result(console: Console, session: Session, seat: int) -> None:
    result = session.result(seat)
    if result is None:
        return
    scores = ", ".join(f"player_{i} {s:g}" for i, s in enumerate(result["scores"]))
    console.print(
        Panel(
            f"[bold]{escape(result['verdict'])}[/bold]: {escape(result['reason'])}\nscores: {scores}",
            title="Game over",
            title_align="left",
            border_style="green" if "won" in result["verdict"] and "lost" not in result["verdict"] else "red",
        )
    )


def draw_hint(console: Console, session: Session, spec: str | None) -> None:
    try:
        hint = session.hint(spec)
    except Exception as e:  # a hint is optional: a bad spec or an unreadable checkpoint never ends the game
        why = str(e) if isinstance(e, (ValueError, NotYourTurnError)) else f"{type(e).__name__}: {e}"
        console.print(f"[red]no hint: {escape(why)}[/red]")
        return
    number = next((i for i, a in enumerate(session.legal_actions(), start=1) if a.id == hint.action), "?")
    console.print(
        f"[yellow]hint ({escape(hint.policy)}): {number}. {escape(hint.text)} - probability "
        f"{hint.probability:.2f}[/yellow] [dim]({escape(hint.how)})[/dim]"
    )


# -- the loop -----------------------------------------------------------------------------------------


def _save(console: Console, session: Session, path: str | Path | None) -> None:
    if not path:
        console.print("[red]no file to save to: give one (s FILE) or start with --save FILE[/red]")
        return
    try:
        save_replay(path, session.replay())
    except (OSError, ValueError) as e:  # ValueError: ReplayError, or a file name with a NUL in it
        console.print(f"[red]could not save to {escape(str(path))}: {escape(str(e))}[/red]")
        return
    console.print(f"[green]saved the replay to {escape(str(path))} ({session.step} actions)[/green]")


def choose(
    console: Console,
    session: Session,
    input_fn: Callable[[str], str],
    save_path: str | None,
    hint_spec: str | None,
    auto_hint: bool,
) -> int:
    """Ask the human to decide until a valid legal action is given; bad input never ends the game."""
    seat = session.to_act
    view = session.view(seat)
    draw_board(console, view)
    draw_actions(console, session)
    if auto_hint:
        draw_hint(console, session, hint_spec)
    legal = session.legal_actions()
    while True:
        try:
            answer = input_fn(f"player_{seat}, your action (1-{len(legal)}, ? for help): ")
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        answer = (answer or "").strip()
        if not answer:
            console.print(f"[red]type the number of an action (1-{len(legal)}), or ? for help[/red]")
            continue
        word, _, rest = answer.partition(" ")
        low = word.lower()
        if answer.startswith("/"):
            draw_actions(console, session, answer[1:].strip())
        elif low in ("?", "help"):
            console.print(HELP)
        elif low in ("h", "hint"):
            draw_hint(console, session, rest.strip() or hint_spec)
        elif low in ("b", "board"):
            draw_board(console, view)
            draw_actions(console, session)
        elif low in ("t", "text"):
            console.print(Panel(escape(view["text"]), title="render", title_align="left"))
        elif low in ("l", "log"):
            for e in view["log"]:
                console.print(f"  {e['step']:4d} player_{e['seat']}: {escape(e['text'])}")
        elif low in ("s", "save"):
            _save(console, session, rest.strip() or save_path)
        elif low in ("q", "quit", "exit"):
            raise Quit
        elif _NUMBER.fullmatch(answer):
            number = int(answer) if len(answer) <= 9 else None
            if number is None or not 1 <= number <= len(legal):
                console.print(f"[red]{escape(_short(answer))} is out of range: choose 1-{len(legal)}[/red]")
                continue
            return legal[number - 1].id
        else:
            console.print(f"[red]{escape(repr(_short(answer)))} is not a number or a command; {HELP}[/red]")


def play_session(
    session: Session,
    console: Console,
    input_fn: Callable[[str], str] = input,
    save_path: str | None = None,
    hint_spec: str | None = None,
    auto_hint: bool = False,
) -> dict[str, Any] | None:
    """Play ``session`` to its end (or until the person quits); the result from the last human seat."""
    viewer = session.humans[0] if session.humans else 0
    if session.humans and len(session.log) > RECENT:
        console.print(f"[dim]... {len(session.log) - RECENT} earlier moves (l shows them all)[/dim]")
        narrate(console, session.log[-RECENT:], viewer)
    else:
        narrate(console, session.log, viewer)
    try:
        while not session.is_over():
            seat = session.human_to_act
            if seat is None:  # only bots left (cannot happen after advance, kept as a guard)
                narrate(console, session.advance(), viewer)
                continue
            viewer = seat
            action = choose(console, session, input_fn, save_path, hint_spec, auto_hint)
            try:
                entries = session.play(action, step=session.step, seat=seat)
            except (IllegalActionError, NotYourTurnError) as e:  # pragma: no cover - choose() gives legal ids
                console.print(f"[red]{escape(str(e))}[/red]")
                continue
            console.print(f"  [green]you[/green]: {escape(entries[0].text)}")
            narrate(console, entries[1:], seat)
            if save_path:
                save_replay(save_path, session.replay())
    except Quit:
        if save_path:
            _save(console, session, save_path)
        console.print("[yellow]stopped before the end of the game[/yellow]")
        return None
    draw_board(console, session.view(viewer))
    draw_result(console, session, viewer)
    if save_path:
        _save(console, session, save_path)
    return session.result(viewer)


def replay_session(
    data: dict[str, Any],
    console: Console,
    input_fn: Callable[[str], str] = input,
    view: int | None = None,
) -> Session:
    """Step through a replay from one seat's view: Enter the next action, a number jumps to that
    step, ``e`` the end, ``q`` quits. Every action is checked as it is re-applied."""
    human = [i for i, s in enumerate(data["seats"]) if s == "human"]
    seat = view if view is not None else (human[0] if human else 0)
    if not 0 <= seat < data["num_players"]:
        raise ReplayError(f"--view {seat}: the replay has seats 0..{data['num_players'] - 1}")
    session = Session.from_replay(data, upto=0, advance=False, play_bots=False)
    total = len(data["actions"])
    console.print(f"replay of {data['env_id']}, {data['num_players']} players, seed {data['seed']}: {total} actions")
    target = 0
    while True:
        if session.step < target:
            seat_now = int(session.state.current_player)
            entry = session._apply(seat_now, data["actions"][session.step], human=data["seats"][seat_now] == "human")
            told = entry.for_seat(seat)
            who = f"player_{entry.seat} ({spec_label(data['seats'][entry.seat])})"
            console.print(f"  {entry.step:4d} {who}: {escape(told['text'])}")
            continue
        draw_board(console, session.view(seat))
        if session.is_over() or session.step >= total:
            draw_result(console, session, seat)
            console.print(f"[dim]end of the replay ({total} actions)[/dim]")
            return session
        try:
            answer = (
                input_fn(f"step {session.step}/{total} - Enter: next, N: go to step N, e: end, q: quit: ") or ""
            ).strip()
        except (EOFError, KeyboardInterrupt):
            return session
        if answer == "":
            target = session.step + 1
        elif answer.lower() in ("q", "quit"):
            return session
        elif answer.lower() in ("e", "end"):
            target = total
        elif _NUMBER.fullmatch(answer) and not answer.startswith("-"):
            number = int(answer) if len(answer) <= 9 else total
            if number < session.step:
                session = Session.from_replay(data, upto=0, advance=False, play_bots=False)
            target = min(number, total)
        else:
            console.print(f"[red]{escape(repr(answer))}: press Enter, type a step number, e or q[/red]")


# -- command line -------------------------------------------------------------------------------------


def _seat_specs(given: Sequence[str], parser: argparse.ArgumentParser) -> dict[int, str]:
    out: dict[int, str] = {}
    for text in given:
        seat, sep, spec = text.partition("=")
        if not sep or not seat.strip().isdigit() or not spec.strip():
            parser.error(f"--seat {text!r}: write SEAT=SPEC, e.g. --seat 0=human or --seat 1=heuristic")
        out[int(seat)] = spec.strip()
    return out


def _options(given: Sequence[str], parser: argparse.ArgumentParser) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for text in given:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            parser.error(f"--option {text!r}: write KEY=VALUE, e.g. --option difficulty=heroic")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.play",
        description="Play a herozoo game in the terminal against (and beside) bots.",
        epilog=HELP,
    )
    p.add_argument("env_id", nargs="?", help=f"one of {', '.join(envs.ENV_IDS)} (not needed with --resume/--replay)")
    p.add_argument("--players", type=int, default=None, help="player count (default: the game's default)")
    p.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SEAT=SPEC",
        help="who plays a seat: human, random, heuristic, shipped, a checkpoint or a search: spec (repeat per seat)",
    )
    p.add_argument("--seed", type=int, default=None, help="deal seed (default: drawn, and kept in the replay)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (JSON value)")
    p.add_argument(
        "--hint",
        nargs="?",
        const="shipped",
        default=None,
        metavar="SPEC",
        help="show before each of your decisions what this bot would play and its probability "
        "(default bot: the shipped one, else the heuristic); 'h' at the prompt asks any time",
    )
    p.add_argument("--save", metavar="FILE", help="keep the replay in FILE (written after every move)")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved game (--seat overrides its seats)")
    p.add_argument("--replay", metavar="FILE", help="step through a saved game")
    p.add_argument("--view", type=int, default=None, help="--replay: the seat whose view is shown")
    return p


def main(
    argv: Sequence[str] | None = None,
    input_fn: Callable[[str], str] | None = None,
    console: Console | None = None,
) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = console or Console()
    input_fn = input_fn or (lambda prompt: console.input(escape(prompt)))
    seats = _seat_specs(args.seat, parser)
    try:
        if args.replay:
            replay_session(load_replay(args.replay), console, input_fn, args.view)
            return 0
        if args.resume:
            data = load_replay(args.resume)
            session = Session.from_replay(data, seats=seats or None, hint_spec=args.hint)
            console.print(f"resumed {data['env_id']} at step {session.step} from {args.resume}")
            save = args.save or args.resume
        else:
            if not args.env_id:
                parser.error("give an env id (or --resume FILE / --replay FILE)")
            if args.env_id not in envs.ENV_IDS:
                parser.error(f"unknown env id {args.env_id!r}; registered ids are {list(envs.ENV_IDS)}")
            n = args.players if args.players is not None else default_players(args.env_id)
            if not any(s == "human" for s in seats.values()):
                free = [i for i in range(n) if i not in seats]
                if free:  # the first seat nobody was given is yours; with every seat a bot, you watch
                    seats[free[0]] = "human"
            session = Session.new(args.env_id, n, seats, args.seed, _options(args.option, parser), hint_spec=args.hint)
            save = args.save
            others = ", ".join(f"player_{i} {spec_label(s)}" for i, s in enumerate(session.seats))
            console.print(
                f"{args.env_id}, {n} players, seed {session.seed}: {others} "
                f"(shipped = {spec_label(default_bot(args.env_id))})"
            )
        play_session(session, console, input_fn, save, args.hint, auto_hint=args.hint is not None)
    except (ReplayError, ValueError) as e:
        console.print(f"[red]error: {escape(str(e))}[/red]")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
