"""The commands of the README run as modules and exit 0 when they succeed."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", ["evaluate", "ladder", "play", "serve"])  # the commands that start a part
def test_every_command_answers_help(command):
    done = subprocess.run([sys.executable, "-m", f"training.{command}", "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"python -m training.{command}" in done.stdout


def test_a_tournament_from_the_command_line_exits_0_and_prints_its_table(tmp_path):
    cmd = [
        sys.executable,
        "-m",
        "training.evaluate",
        "last_heroes_v0",
        "--players",
        "2",
        "--agents",
        "random",
        "random",
    ]
    done = subprocess.run([*cmd, "--games", "2", "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Win rate" in done.stdout and "game_records" not in done.stdout + done.stderr
