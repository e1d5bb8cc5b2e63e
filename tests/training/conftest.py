"""Fixtures the training tests share."""

from __future__ import annotations

import pytest

import envs


@pytest.fixture
def relay(monkeypatch):
    """The cooperative toy game (tests/toys.py) registered as ``relay_v0`` for one test."""
    monkeypatch.setattr(envs, "_REGISTRY", dict(envs._REGISTRY))
    monkeypatch.setattr(envs, "ENV_IDS", envs.ENV_IDS)
    envs.register("relay_v0", "tests.toys")
    return "relay_v0"
