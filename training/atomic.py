"""Atomic file writes: a temporary file beside the target, fsynced, then renamed over it.

A reader (or a run resumed after a crash) sees the old file or the new one, never half of one.
Every file the project writes for later use (checkpoints, manifests, configs, results) goes
through here.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: not every file system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_temp(target: Path, data: bytes) -> Path:
    """``data`` in a fsynced temporary file beside ``target``; :func:`replace` puts it in place."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; results are for everyone to read
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def replace(tmp: Path, target: Path) -> None:
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(Path(target).parent)


def atomic_write_bytes(target: str | os.PathLike, data: bytes) -> Path:
    target = Path(target)
    replace(write_temp(target, data), target)
    return target


def atomic_write_text(target: str | os.PathLike, text: str) -> Path:
    return atomic_write_bytes(target, text.encode("utf-8"))


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """A temporary path for a writer that wants a file name (``model.save``, ``savefig``);
    renamed over ``target`` when the block succeeds, removed when it fails."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=f".tmp{suffix}")
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        replace(tmp_path, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp_path)
