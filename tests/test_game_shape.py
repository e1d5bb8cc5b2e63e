"""Every registered game has the one shape (docs/contributing.md): the same roles in the same
modules, a State without mixins, no dispatch by names built from strings, text that does not
reach into the docs and an observation that does not reach into the bot."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import envs
from envs.core.game import State

ROLES = (
    "content",
    "actions",
    "game",
    "state",
    "validation",
    "text",
    "observation",
    "heuristic",
    "board",
    "docs",
    "env",
)
GONE = ("rules", "common_rules")  # what the roles replaced
STRING_DISPATCH = re.compile(
    r"""getattr\(\s*[\w().]+\s*,\s*f?["'][^"']*["']\s*\+"""  # getattr(self, "_t_" + name)
    r"""|getattr\(\s*[\w().]+\s*,\s*f["'][^"']*\{"""  # getattr(self, f"_t_{name}")
    r"""|\bdir\(\s*type\(self\)\s*\)"""  # a scan of the class for handler names
)


def _package(env_id: str) -> Path:
    return Path(envs.__file__).parent / envs.game_name(env_id)


GAMES = [e for e in envs.ENV_IDS if _package(e).is_dir()]


@pytest.mark.parametrize("env_id", GAMES)
def test_every_role_has_its_module(env_id):
    name = envs.game_name(env_id)
    folder = _package(env_id)
    missing = [role for role in ROLES if not (folder / f"{role}.py").is_file()]
    assert not missing, f"envs/{name}/ lacks {missing}"
    assert not [g for g in GONE if (folder / f"{g}.py").exists()], f"envs/{name}/ still has a rules module"
    for role in ROLES:
        module = importlib.import_module(f"envs.{name}.{role}")
        assert (module.__doc__ or "").strip(), f"envs/{name}/{role}.py says nothing of its role"
    game_cls = envs.game_class(env_id)
    assert game_cls.__module__ == f"envs.{name}.game", f"{env_id}'s Game lives in {game_cls.__module__}"


@pytest.mark.parametrize("env_id", GAMES)
def test_the_state_is_one_class_without_mixins(env_id):
    game_cls = envs.game_class(env_id)
    options = [{}] + ([{"engine": "compiled"}] if any(o.name == "engine" for o in game_cls.option_spec) else [])
    for opts in options:
        cls = type(game_cls(**opts).new_state(seed=0))
        own = [k for k in cls.__mro__ if k.__module__.startswith(f"envs.{envs.game_name(env_id)}.")]
        assert own == [cls], f"{cls.__name__} is assembled from {[k.__name__ for k in own[1:]]}"
        assert issubclass(cls, State)
        assert cls.apply is State.apply  # the core's legality check, once for every game


@pytest.mark.parametrize("env_id", GAMES)
def test_no_dispatch_by_names_built_from_strings(env_id):
    found = []
    for path in sorted(_package(env_id).glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if STRING_DISPATCH.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "handlers looked up by built names (a search for the caller finds nothing):\n" + "\n".join(found)


@pytest.mark.parametrize("env_id", GAMES)
def test_text_does_not_import_the_docs_and_the_observation_not_the_bot(env_id):
    name = envs.game_name(env_id)
    text = inspect.getsource(importlib.import_module(f"envs.{name}.text"))
    assert f"envs.{name}.docs" not in text and f"envs.{name} import docs" not in text
    for path in _package(env_id).glob("observation*.py"):
        source = path.read_text()
        assert f"envs.{name}.heuristic" not in source, f"{path.name} depends on the heuristic bot"
    hints = _package(env_id) / "hints.py"
    if hints.exists():
        assert f"envs.{name}.heuristic" not in hints.read_text(), "hints.py depends on the heuristic bot"


def test_the_check_finds_string_dispatch():
    assert STRING_DISPATCH.search('getattr(self, "_t_" + task[0])(*task[1:])')
    assert STRING_DISPATCH.search('handler = getattr(type(self), f"_do_{kind}")')
    assert STRING_DISPATCH.search("names = [n for n in dir(type(self)) if n.startswith('_t_')]")
    assert not STRING_DISPATCH.search("value = getattr(self.game, name)")
