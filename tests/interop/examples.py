"""Loading a script of examples/ as a module, and torch on one thread, for the interop tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_example(name: str):
    """``examples/<name>.py`` as a module (registered in sys.modules: its dataclasses look it up there)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def torch_on_one_thread():
    """A generator for a fixture: torch on one thread while the module's tests run (2 cores here)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
